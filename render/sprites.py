"""Card faces and backs, drawn once each and then only pasted.

A face is drawn three times larger than shown and reduced, which smooths the vector pips and
rounded corners at no cost per picture: every sprite is cached by everything that changes its
pixels (card, wild badge, four-colour deck, width, highlight). The sprite carries its own soft
shadow in a margin around the card, so composing a picture is a single `paste` per card.

Cards overlap in a hand, so everything a player needs is in the left column: the rank, the suit
pip under it and, on wild jokers, a gold star badge under those; the rest of the face is the
big pip, the court motif or the joker's art, which the last card of a row shows in full.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from bot.engine.cards import RANK_LABELS, Card
from render import shapes, theme
from render.fonts import font
from render.text_log import note

SUPERSAMPLE = 3
JESTER_COLOURS = ((210, 30, 40), (20, 92, 200), (250, 196, 38))
JESTER_LINE = (40, 24, 60)
ASPECT = 1.4  # poker cards are 63 x 88 mm


def card_height(width: int) -> int:
    return round(width * ASPECT)


def sprite_margin(width: int) -> int:
    """Room around the card for its shadow; paste a sprite at (x - margin, y - margin)."""
    return max(3, round(width * 0.07))


def index_column(width: int) -> int:
    """How much of the card's left side must stay uncovered for its index and badge to read."""
    return round(width * 0.42)


def badge_box(width: int) -> tuple[int, int, int, int]:
    """Where the wild badge sits on the card, in card pixels (tests look for its gold there)."""
    top = 0.66 * width
    size = 0.3 * width
    left = 0.2 * width - size / 2
    return round(left), round(top), round(left + size), round(top + size * 0.86)


@lru_cache(maxsize=1024)
def card_sprite(
    card: Card, wild: bool = False, four_colour: bool = False, width: int = 130, highlight: bool = False
) -> Image.Image:
    """The card with its shadow (or, `highlight`ed, a gold glow) as an RGBA image, cached."""
    scale = SUPERSAMPLE
    size = (width * scale, card_height(width) * scale)
    content, mask = _blank(size)
    draw = ImageDraw.Draw(content)
    if card.is_printed_joker:
        _draw_joker(draw, width * scale)
    else:
        _draw_face(draw, card, width * scale, four_colour)
    if wild:
        _draw_wild(draw, card, width, scale)
    return _finish(content, mask, width, highlight)


@lru_cache(maxsize=64)
def back_sprite(width: int = 130) -> Image.Image:
    """The closed deck's card back: a red lattice inside a white border."""
    scale = SUPERSAMPLE
    w, h = width * scale, card_height(width) * scale
    content, mask = _blank((w, h))
    draw = ImageDraw.Draw(content)
    inset = round(w * 0.07)
    draw.rounded_rectangle((inset, inset, w - inset, h - inset), radius=round(w * 0.05), fill=theme.CARD_BACK)
    step = max(6, round(w * 0.1))
    line = max(1, round(w * 0.012))
    for offset in range(-h, w + h, step):
        for slope in (h, -h):
            draw.line(
                (inset + offset, inset, inset + offset + slope, inset + h),
                fill=theme.CARD_BACK_LINE,
                width=line,
            )
    # Redraw the border over the lines' ends, then the emblem.
    draw.rectangle((0, 0, w, inset), fill=theme.CARD_FACE)
    draw.rectangle((0, h - inset, w, h), fill=theme.CARD_FACE)
    draw.rectangle((0, 0, inset, h), fill=theme.CARD_FACE)
    draw.rectangle((w - inset, 0, w, h), fill=theme.CARD_FACE)
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=round(w * 0.08), outline=theme.CARD_EDGE, width=max(1, round(w * 0.012))
    )
    draw.rounded_rectangle(
        (inset, inset, w - inset, h - inset),
        radius=round(w * 0.05),
        outline=theme.CARD_BACK,
        width=round(w * 0.02),
    )
    radius = w * 0.2
    draw.ellipse((w / 2 - radius, h / 2 - radius, w / 2 + radius, h / 2 + radius), fill=theme.CARD_FACE)
    shapes.star(draw, w / 2, h / 2, radius * 1.5, theme.CARD_BACK)
    return _finish(content, mask, width, False)


def _blank(size: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    """The white card and its rounded outline as an alpha mask, kept apart so reducing leaves no fringe."""
    width = size[0]
    radius = round(width * 0.08)
    content = Image.new("RGB", size, theme.CARD_EDGE)
    ImageDraw.Draw(content).rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1),
        radius=radius,
        fill=theme.CARD_FACE,
        outline=theme.CARD_EDGE,
        width=max(1, round(width * 0.012)),
    )
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=255)
    return content, mask


def _letters(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    value: str,
    size: int,
    weight: str,
    ink: theme.RGB,
    anchor: str = "mt",
) -> None:
    """Text on the supersampled face, noted at the size it will have once reduced."""
    draw.text(xy, value, font=font(size, weight), fill=ink, anchor=anchor)
    note(value, size / SUPERSAMPLE, weight)


def _draw_index(draw: ImageDraw.ImageDraw, label: str, w: int, ink: theme.RGB, x: float = 0.2) -> None:
    """The rank in the index column, as large as the column allows (two characters condensed)."""
    _letters(draw, (w * x, w * 0.05), label, round(w * 0.3), "condensed" if len(label) > 1 else "bold", ink)


def _draw_face(draw: ImageDraw.ImageDraw, card: Card, w: int, four_colour: bool) -> None:
    assert card.suit is not None
    ink = theme.suit_colour(card.suit, four_colour)
    _draw_index(draw, RANK_LABELS[card.rank], w, ink)
    shapes.pip(draw, card.suit, w * 0.2, w * 0.47, w * 0.22, ink)
    h = w * ASPECT
    if card.rank > 10:
        _draw_court(draw, card, w, ink)
    else:
        shapes.pip(draw, card.suit, w * 0.64, h * 0.64, w * 0.5, ink)


def _draw_court(draw: ImageDraw.ImageDraw, card: Card, w: int, ink: theme.RGB) -> None:
    """A tinted panel holding the court's motif over its pip, and its letter again, large."""
    assert card.suit is not None
    h = w * ASPECT
    tint = tuple(round(255 - (255 - c) * 0.12) for c in ink)
    left, top, right, bottom = w * 0.4, h * 0.06, w * 0.93, h * 0.94
    draw.rounded_rectangle(
        (left, top, right, bottom), radius=w * 0.05, fill=tint, outline=ink, width=max(1, round(w * 0.012))
    )
    cx = (left + right) / 2
    jewel = theme.GOLD
    if card.rank == 13:
        shapes.crown(draw, cx, h * 0.2, w * 0.36, ink, jewel, peaks=3)
    elif card.rank == 12:
        shapes.crown(draw, cx, h * 0.2, w * 0.36, ink, jewel, peaks=5)
    else:
        shapes.sword(draw, cx, h * 0.2, w * 0.44, ink, jewel)
    _letters(draw, (cx, h * 0.5), RANK_LABELS[card.rank], round(w * 0.34), "bold", ink, "mm")
    shapes.pip(draw, card.suit, cx, h * 0.78, w * 0.26, ink)


# The printed joker's index as players write it (`/rummy group`, the terminal): "JOKER" down the
# column, as printed decks have it, is too small to read on a phone.
JOKER_INDEX = "JK"


def _draw_joker(draw: ImageDraw.ImageDraw, w: int) -> None:
    _draw_index(draw, JOKER_INDEX, w, theme.JOKER_INK, x=0.22)  # clear of a wild card's frame
    shapes.cap(draw, w * 0.21, w * 0.48, w * 0.3, JESTER_COLOURS, JESTER_LINE)
    h = w * ASPECT
    shapes.jester(
        draw,
        w * 0.67,
        h * 0.6,
        w * 0.5,
        colours=JESTER_COLOURS,
        face=(255, 232, 208),
        line=JESTER_LINE,
    )


def _draw_wild(draw: ImageDraw.ImageDraw, card: Card, width: int, scale: int) -> None:
    """A gold frame round the card and a gold star tag in the index column, visible when overlapped."""
    w, h = width * scale, card_height(width) * scale
    inset = w * 0.025
    draw.rounded_rectangle(
        (inset, inset, w - inset, h - inset),
        radius=w * 0.065,
        outline=theme.GOLD,
        width=max(2, round(w * 0.03)),
    )
    left, top, right, bottom = (v * scale for v in badge_box(width))
    draw.rounded_rectangle(
        (left, top, right, bottom),
        radius=w * 0.04,
        fill=theme.GOLD,
        outline=theme.GOLD_DARK,
        width=max(1, round(w * 0.01)),
    )
    shapes.star(draw, (left + right) / 2, (top + bottom) / 2, (bottom - top) * 0.78, theme.GOLD_DARK)


def _finish(content: Image.Image, mask: Image.Image, width: int, highlight: bool) -> Image.Image:
    """Reduces to display size and puts the card on its shadow (or glow) inside the sprite margin."""
    card = content.reduce(SUPERSAMPLE).convert("RGBA")
    card.putalpha(mask.reduce(SUPERSAMPLE))
    margin = sprite_margin(width)
    sprite_size = (card.width + 2 * margin, card.height + 2 * margin)
    halo = Image.new("L", sprite_size, 0)
    halo.paste(card.getchannel("A"), (margin, margin + (0 if highlight else max(1, margin // 3))))
    halo = halo.filter(ImageFilter.GaussianBlur(margin / (1.6 if highlight else 2.5)))
    strength = 1.0 if highlight else 0.5
    halo = halo.point(lambda a: min(255, round(a * strength * (2.2 if highlight else 1))))
    colour = theme.GOLD if highlight else (0, 0, 0)
    sprite = Image.new("RGBA", sprite_size, (*colour, 0))
    sprite.putalpha(halo)
    sprite.alpha_composite(card, (margin, margin))
    return sprite


@dataclass(frozen=True, slots=True)
class SpritePieces:
    """A sprite split for fast pasting: its opaque middle (copied as it is) and the soft edges around it.

    Blending is only needed where the sprite is partly transparent (its shadow margin and rounded
    corners); pasting the opaque card body as a plain copy halves the time a picture spends
    pasting cards, with exactly the same pixels.
    """

    core: Image.Image | None  # RGB
    core_at: tuple[int, int]
    edges: tuple[tuple[tuple[int, int], Image.Image], ...]  # RGBA pieces and where they go

    def paste(self, canvas: Image.Image, xy: tuple[int, int]) -> None:
        x, y = xy
        if self.core is not None:
            canvas.paste(self.core, (x + self.core_at[0], y + self.core_at[1]))
        for (dx, dy), piece in self.edges:
            canvas.paste(piece, (x + dx, y + dy), piece)


@lru_cache(maxsize=16)
def opaque_inset(width: int) -> int:
    """How far the rounded corners reach into a card: past that, across or down, it is opaque."""
    _, mask = _blank((width * SUPERSAMPLE, card_height(width) * SUPERSAMPLE))
    alpha = mask.reduce(SUPERSAMPLE)
    w, h = alpha.size
    for inset in range(min(w, h) // 2):
        across = alpha.crop((0, inset, w, h - inset)).getextrema()
        down = alpha.crop((inset, 0, w - inset, h)).getextrema()
        if across == down == (255, 255):
            return inset
    raise ValueError(f"a {width} px card is nowhere opaque")


def opaque_boxes(width: int, x: int, y: int) -> tuple[tuple[int, int, int, int], ...]:
    """Where a card whose top-left corner is at (x, y) is fully opaque: a cross between its corners."""
    inset, w, h = opaque_inset(width), width, card_height(width)
    return (x, y + inset, x + w, y + h - inset), (x + inset, y, x + w - inset, y + h)


def split_sprite(sprite: Image.Image, width: int) -> SpritePieces:
    """Cuts out the card body below its top corners and above its bottom ones, if it is opaque there."""
    margin, inset = sprite_margin(width), opaque_inset(width)
    full_width, full_height = sprite.size
    core = (margin, margin + inset, full_width - margin, full_height - margin - inset)
    opaque = core[2] > core[0] and core[3] > core[1]
    if not opaque or sprite.getchannel("A").crop(core).getextrema() != (255, 255):
        return SpritePieces(None, (0, 0), (((0, 0), sprite),))
    boxes = (
        (0, 0, full_width, core[1]),
        (0, core[3], full_width, full_height),
        (0, core[1], core[0], core[3]),
        (core[2], core[1], full_width, core[3]),
    )
    edges = tuple(((box[0], box[1]), sprite.crop(box)) for box in boxes)
    return SpritePieces(sprite.crop(core).convert("RGB"), (core[0], core[1]), edges)


@lru_cache(maxsize=512)
def card_pieces(
    card: Card, wild: bool = False, four_colour: bool = False, width: int = 130, highlight: bool = False
) -> SpritePieces:
    """`card_sprite`, split for pasting (cached apart: a 130 px card's pieces take about 100 KB)."""
    return split_sprite(card_sprite(card, wild, four_colour, width, highlight), width)


@lru_cache(maxsize=16)
def back_pieces(width: int = 130) -> SpritePieces:
    return split_sprite(back_sprite(width), width)
