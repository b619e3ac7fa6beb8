"""The felt every picture is drawn on, and the few text and panel helpers the pictures share."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.cards import RANK_LABELS
from bot.i18n import words
from render import theme
from render.fonts import devanagari_font, face_of, font_for, length, runs
from render.text_log import note

Box = tuple[float, float, float, float]
RIM = 6


@lru_cache(maxsize=32)
def _felt(width: int, height: int) -> Image.Image:
    """Flat felt inside a darker rim (made once per size).

    Flat on purpose: a gradient costs a third more bytes and, once the picture is reduced to a
    palette for speed (see `png`), shows as bands.
    """
    image = Image.new("RGB", (width, height), theme.FELT_EDGE)
    ImageDraw.Draw(image).rectangle((RIM, RIM, width - 1 - RIM, height - 1 - RIM), fill=theme.FELT_CENTRE)
    return image


def felt(width: int, height: int) -> Image.Image:
    """A fresh copy of the cached felt to draw on."""
    return _felt(width, height).copy()


def felt_band(
    width: int, height: int, top: int, bottom: int, left: int = 0, right: int | None = None
) -> Image.Image:
    """Rows `top` to `bottom` (columns `left` to `right`) of the felt of a picture `height` high.

    Fresh to draw on, and only as large as asked: cropping the cached felt beats copying it whole.
    """
    return _felt(width, height).crop((left, top, width if right is None else right, bottom))


@lru_cache(maxsize=2048)
def _glyphs(value: str, size: int, weight: str, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage mask and its offset from the anchor point, rasterised once.

    Most text repeats from picture to picture (position numbers, group names, seat names), and
    FreeType rasterising is the biggest part of composing a picture after pasting the cards.
    """
    parts = runs(value)
    if len(parts) > 1:
        return _mixed_glyphs(parts, size, weight, anchor)
    face = font_for(value, size, weight)
    left, top, right, bottom = (round(edge) for edge in face.getbbox(value, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), value, font=face, fill=255, anchor=anchor)
    return mask, left, top


def _mixed_glyphs(
    parts: tuple[tuple[str, bool], ...], size: int, weight: str, anchor: str
) -> tuple[Image.Image, int, int]:
    """A Hindi line with characters Noto Sans Devanagari lacks: each part in its face, on one
    baseline, anchored as Pillow anchors a line in the Devanagari face (its metrics, the taller)."""
    ascent, descent = devanagari_font(size, weight).getmetrics()
    width = length("".join(part for part, _ in parts), size, weight)
    mask = Image.new("L", (round(width) + 2 * size, ascent + descent + size), 0)
    baseline, x = ascent + size // 2, float(size)
    draw = ImageDraw.Draw(mask)
    for part, hindi in parts:
        face = face_of(hindi, size, weight)
        draw.text((x, baseline), part, font=face, fill=255, anchor="ls")
        x += face.getlength(part)
    box = mask.getbbox() or (0, 0, 1, 1)
    across = {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]
    down = {"a": -ascent, "m": (descent - ascent) / 2, "s": 0, "d": descent}[anchor[1]]
    origin_x, origin_y = size + across, baseline + down  # the anchor point in the mask
    return mask.crop(box), round(box[0] - origin_x), round(box[1] - origin_y)


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    value: str,
    size: int,
    fill: theme.RGB = theme.INK,
    weight: str = "regular",
    anchor: str = "la",
) -> None:
    if not value:
        return
    note(value, size, weight)
    mask, left, top = _glyphs(value, size, weight, anchor)
    draw.bitmap((round(xy[0]) + left, round(xy[1]) + top), mask, fill=fill)


@lru_cache(maxsize=4096)
def text_width(value: str, size: int, weight: str = "regular") -> float:
    """The text's advance width, measured once (group labels try several names per picture)."""
    return length(value, size, weight)


def pill(
    draw: ImageDraw.ImageDraw, box: Box, fill: theme.RGB, outline: theme.RGB | None = None, width: int = 2
) -> None:
    draw.rounded_rectangle(box, radius=(box[3] - box[1]) / 2, fill=fill, outline=outline, width=width)


def labelled_pill(
    draw: ImageDraw.ImageDraw,
    right: float,
    centre_y: float,
    value: str,
    size: int,
    fill: theme.RGB,
    ink: theme.RGB,
    weight: str = "bold",
) -> float:
    """A pill with text, right-aligned at `right`; returns its left edge so the next one can sit beside it."""
    pad = size * 0.7
    left = right - text_width(value, size, weight) - 2 * pad
    pill(draw, (left, centre_y - size * 0.85, right, centre_y + size * 0.85), fill)
    text(draw, ((left + right) / 2, centre_y), value, size, ink, weight, anchor="mm")
    return left


def wild_label(wild_rank: int | None, language: str) -> str | None:
    """The header's pill naming what is wild ("Wild: 7s + jokers"); None when nothing is."""
    if wild_rank is None:
        return None
    return words(language)("Wild: {rank}s + jokers", rank=RANK_LABELS.get(wild_rank, "Joker"))
