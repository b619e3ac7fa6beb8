"""The felt every picture is drawn on, and the few text and panel helpers the pictures share."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import theme
from render.fonts import font

Box = tuple[float, float, float, float]


@lru_cache(maxsize=32)
def _felt(width: int, height: int) -> Image.Image:
    """A lit-from-above felt: lighter in the middle, darker at the edges (made once per size)."""
    light = Image.radial_gradient("L").resize((width, height), Image.Resampling.BILINEAR)
    # radial_gradient is 0 at the centre and 255 at the rim; soften it so the edges stay green.
    light = light.point(lambda v: min(255, round(v * 1.15)))
    return Image.composite(Image.new("RGB", (width, height), theme.FELT_EDGE),
                           Image.new("RGB", (width, height), theme.FELT_CENTRE), light)


def felt(width: int, height: int) -> Image.Image:
    """A fresh copy of the cached felt to draw on."""
    return _felt(width, height).copy()


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], value: str, size: int,
         fill: theme.RGB = theme.INK, weight: str = "regular", anchor: str = "la") -> None:
    draw.text(xy, value, font=font(size, weight), fill=fill, anchor=anchor)


def text_width(value: str, size: int, weight: str = "regular") -> float:
    return font(size, weight).getlength(value)


def pill(draw: ImageDraw.ImageDraw, box: Box, fill: theme.RGB, outline: theme.RGB | None = None,
         width: int = 2) -> None:
    draw.rounded_rectangle(box, radius=(box[3] - box[1]) / 2, fill=fill, outline=outline, width=width)


def labelled_pill(draw: ImageDraw.ImageDraw, right: float, centre_y: float, value: str, size: int,
                  fill: theme.RGB, ink: theme.RGB, weight: str = "bold") -> float:
    """A pill with text, right-aligned at `right`; returns its left edge so the next one can sit beside it."""
    pad = size * 0.7
    left = right - text_width(value, size, weight) - 2 * pad
    pill(draw, (left, centre_y - size * 0.85, right, centre_y + size * 0.85), fill)
    text(draw, ((left + right) / 2, centre_y), value, size, ink, weight, anchor="mm")
    return left
