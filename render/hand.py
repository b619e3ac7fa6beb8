"""A player's private hand: grouped, labelled (✓ or ✗ and what each group costs), numbered, with
the new card lifted and glowing, and a line saying what the hand needs: ready to declare, why its
groups count, the card the solver would let go.

The picture is always `theme.WIDTH` wide (so Discord's phone preview shows it at half size and
every word stays readable); only a hand that cannot fit one row grows a second row.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from bot.i18n import words
from render import theme
from render.alt_text import drawn_card
from render.canvas import felt_band, labelled_pill, pill, text, text_width, wild_label
from render.fonts import fit_text, font
from render.groups import (
    PlacedGroup,
    Row,
    RowStyle,
    draw_bars,
    draw_labels,
    label_band,
    paste_cards,
    place_row,
    placed_sprites,
    split_rows,
)
from render.palette import to_palette
from render.png import Band, deflate_band, write
from render.scenes import GroupKind, HandGroup, HandScene
from render.sprites import card_height, sprite_margin
from render.tiles import draw_row

WIDTH = theme.WIDTH
PAD = theme.PAD
STYLE = RowStyle(card_width=92, max_step=62, gap=16, label_size=theme.SMALL)
HEADER = 90  # the title and the pills, then the hand's status line
TITLE_Y, STATUS_Y = 28, 68
LIFT = 12  # how far the picked card rises above its row
NUMBER_SIZE = theme.SMALL
LABEL_BAND = label_band(STYLE.label_size)
NUMBERS_Y = LABEL_BAND + 8 + LIFT + card_height(STYLE.card_width) + 8 + 15  # their centre in a row
ROW_HEIGHT = NUMBERS_Y + 15 + 8


def layout(scene: HandScene) -> list[tuple[Row, int]]:
    """Each row of cards with the y of its cards' top edge (before the picked card's lift)."""
    rows, position = [], 1
    for index, groups in enumerate(split_rows(scene.groups, WIDTH - 2 * PAD, STYLE)):
        row = place_row(groups, PAD, WIDTH - 2 * PAD, STYLE, position)
        rows.append((row, HEADER + index * ROW_HEIGHT + LABEL_BAND + 8 + LIFT))
        position += len(row.cards)
    return rows


def card_boxes(scene: HandScene) -> dict[int, tuple[int, int, int, int]]:
    """Where each numbered card's uncovered part is drawn: what a player (and a test) can see of it."""
    boxes = {}
    for row, top in layout(scene):
        visible = min(row.step, STYLE.card_width)
        for placed in row.cards:
            y = top - (LIFT if placed.position == scene.picked else 0)
            boxes[placed.position] = (placed.x, y, placed.x + visible, y + card_height(STYLE.card_width))
    return boxes


def hand_image(scene: HandScene) -> Image.Image:
    """The whole hand in full colour, band by band (`render_hand` maps and deflates the same bands)."""
    height = hand_height(scene)
    canvas = Image.new("RGB", (WIDTH, height))
    for top, band in _bands(scene, height):
        canvas.paste(band(), (0, top))
    return canvas


def hand_height(scene: HandScene) -> int:
    return HEADER + ROW_HEIGHT * len(layout(scene))


# The picture is cut into horizontal bands that never draw across each other: the header, and per
# row the group labels, the cards (from the lifted card's glow down to the shadows' end) and the
# position numbers. Only the cards band is new in every picture; the other bands repeat from move
# to move, so they are kept ready mapped and deflated: 1024 of each, a few KB apiece (~8 MB at most).
CARDS_BAND_TOP = LABEL_BAND - 1  # the labels' underline ends one row into the cards band
CARDS_BAND = LIFT + card_height(STYLE.card_width) + 2 * sprite_margin(STYLE.card_width)
NUMBERS_TOP = CARDS_BAND_TOP + CARDS_BAND


def _bands(scene: HandScene, height: int) -> list[tuple[int, Callable[[], Image.Image]]]:
    """Each band's top edge and a function drawing it (in full colour)."""
    header = partial(_header_band, *_header_key(scene), height)
    bands: list[tuple[int, Callable[[], Image.Image]]] = [(0, header)]
    for row, cards_top in layout(scene):
        top = cards_top - LIFT - 8 - LABEL_BAND
        labels = _label_key(row, scene.language)
        numbers = _numbers_key(row, scene)
        bands.append((top, partial(_labels_band, labels, top, height)))
        bands.append((top + CARDS_BAND_TOP, partial(_cards_band, scene, row, top, height)))
        bands.append((top + NUMBERS_TOP, partial(_numbers_band, numbers, top, height)))
    return bands


def _felt_band(height: int, top: int, bottom: int) -> Image.Image:
    return felt_band(WIDTH, height, top, bottom)


Status = tuple[tuple[str, theme.RGB], ...]  # the status line's parts, each in its colour
HeaderKey = tuple[str, str, str | None, Status]


def status_parts(scene: HandScene) -> Status:
    """What the hand needs, in the scene's words: ready to declare (gold), else why its valid
    groups count (a warning), and on 14 cards the solver's discard with its number."""
    _ = words(scene.language)
    parts: list[tuple[str, theme.RGB]] = []
    if scene.ready:
        parts.append((_("✓ Ready to declare"), theme.GOLD))
    else:
        parts.extend((_(theme.PAYS_BECAUSE[reason]), theme.WARN) for reason in scene.pays_because)
    if scene.discard is not None:
        card = drawn_card(scene.cards[scene.discard - 1])
        parts.append((_("Suggested discard: {number} ({card})", number=scene.discard, card=card), theme.INK))
    return tuple(parts)


def _header_key(scene: HandScene) -> HeaderKey:
    """What the header shows, in the scene's words: the title, the points, the wild rank and
    the status line."""
    _ = words(scene.language)
    title = scene.title or _.n("Your hand · {count} card", "Your hand · {count} cards", len(scene.cards))
    points = _("{points} pts", points=scene.points)
    return title, points, wild_label(scene.wild_rank, scene.language), status_parts(scene)


def _header_band(title: str, points: str, wild: str | None, status: Status, height: int) -> Image.Image:
    band = _felt_band(height, 0, HEADER)
    draw = ImageDraw.Draw(band)
    right = labelled_pill(draw, WIDTH - PAD, TITLE_Y, points, theme.TEXT, theme.GOLD, theme.GOLD_DARK)
    if wild is not None:
        right = labelled_pill(draw, right - 10, TITLE_Y, wild, theme.SMALL, theme.PANEL, theme.GOLD)
    title = fit_text(title, font(theme.TITLE, "bold"), right - 16 - PAD)
    text(draw, (PAD, TITLE_Y), title, theme.TITLE, theme.INK, "bold", anchor="lm")
    x, gap = float(PAD), text_width(" · ", theme.SMALL, "bold")
    for index, (part, ink) in enumerate(status):
        if index:
            text(draw, (x, STATUS_Y), " · ", theme.SMALL, theme.MUTED, "bold", anchor="lm")
            x += gap
        shown = fit_text(part, font(theme.SMALL, "bold"), WIDTH - PAD - x)
        text(draw, (x, STATUS_Y), shown, theme.SMALL, ink, "bold", anchor="lm")
        x += text_width(shown, theme.SMALL, "bold")
        if x >= WIDTH - PAD - gap:
            break
    return band


# The picture's language, then kind, points, left, right per group.
LabelKey = tuple[str, tuple[tuple[GroupKind, int, int, int], ...]]


def _label_key(row: Row, language: str) -> LabelKey:
    return language, tuple((g.group.kind, g.group.points, g.left, g.right) for g in row.groups)


def _label_row(labels: LabelKey) -> Row:
    """A row with only what the labels draw from: each group's kind, points and span."""
    spans = labels[1]
    groups = (PlacedGroup(HandGroup(kind, (), points), left, right) for kind, points, left, right in spans)
    return Row(tuple(groups), (), 0)


def _labels_band(labels: LabelKey, top: int, height: int) -> Image.Image:
    band = _felt_band(height, top, top + CARDS_BAND_TOP)
    draw_labels(ImageDraw.Draw(band), _label_row(labels), 0, STYLE.label_size, labels[0])
    return band


def _cards_band(scene: HandScene, row: Row, top: int, height: int) -> Image.Image:
    band_top = top + CARDS_BAND_TOP
    band = _felt_band(height, band_top, band_top + CARDS_BAND)
    draw_bars(ImageDraw.Draw(band), row, top - band_top, STYLE.label_size)
    cards_top = top + LABEL_BAND + 8 + LIFT - band_top
    paste_cards(band, row, cards_top, STYLE, scene.wild_rank, scene.four_colour, scene.picked, LIFT)
    return band


@lru_cache(maxsize=8)
def _felt_indexed(height: int, top: int) -> Image.Image:
    return to_palette(_felt_band(height, top, top + CARDS_BAND))


def _cards_band_indexed(scene: HandScene, row: Row, top: int, height: int) -> Image.Image:
    """`_cards_band` in the palette, from tiles (see `render.tiles`): what `render_hand` uses.

    Under the underlines' last row, the cards band is flat felt, so the tiles start one row down;
    that first row (an underline, and the top of a lifted card's glow) is drawn afresh.
    """
    band_top = top + CARDS_BAND_TOP
    cards_top = top + LABEL_BAND + 8 + LIFT - band_top
    sprites = placed_sprites(row, cards_top, STYLE, scene.wild_rank, scene.four_colour, scene.picked, LIFT)
    band = _felt_indexed(height, band_top).copy()
    bottom = band_top + CARDS_BAND

    def background(left: int, right: int) -> Image.Image:
        return felt_band(WIDTH, height, band_top, bottom, left, right)

    draw_row(band, background, sprites, 1, CARDS_BAND, theme.FELT_CENTRE)
    first = _felt_band(height, band_top, band_top + 1)
    draw_bars(ImageDraw.Draw(first), row, top - band_top, STYLE.label_size)
    for sprite in sprites:
        if sprite.y <= 0:
            sprite.pieces.paste(first, (sprite.x, sprite.y))
    band.paste(to_palette(first), (0, 0))
    return band


Centres = tuple[tuple[float, int], ...]  # where each position's number is centred, and the number
NumbersKey = tuple[Centres, int | None, int | None]  # and the picked and the suggested discard


def _numbers_key(row: Row, scene: HandScene) -> NumbersKey:
    visible = min(row.step, STYLE.card_width)
    centres = tuple((placed.x + visible / 2, placed.position) for placed in row.cards)
    return centres, scene.picked, scene.discard


def _numbers_band(numbers: NumbersKey, top: int, height: int) -> Image.Image:
    """Each card's number; the picked card's on gold, the suggested discard's ringed."""
    band = _felt_band(height, top + NUMBERS_TOP, top + ROW_HEIGHT)
    draw = ImageDraw.Draw(band)
    numbers_y = NUMBERS_Y - NUMBERS_TOP
    centres, picked, discard = numbers
    for centre, position in centres:
        ink = theme.MUTED
        box = (centre - 20, numbers_y - 15, centre + 20, numbers_y + 15)
        if position == picked:
            pill(draw, box, theme.GOLD)
            ink = theme.GOLD_DARK
        if position == discard:
            pill(draw, box, theme.GOLD if position == picked else theme.PANEL, theme.INK, 3)
            ink = theme.GOLD_DARK if position == picked else theme.INK
        text(draw, (centre, numbers_y), str(position), NUMBER_SIZE, ink, "bold", "mm")
    return band


@lru_cache(maxsize=1024)
def _header_deflated(title: str, points: str, wild: str | None, status: Status, height: int) -> Band:
    return deflate_band(to_palette(_header_band(title, points, wild, status, height)))


@lru_cache(maxsize=1024)
def _labels_deflated(labels: LabelKey, top: int, height: int) -> Band:
    return deflate_band(to_palette(_labels_band(labels, top, height)))


@lru_cache(maxsize=1024)
def _numbers_deflated(numbers: NumbersKey, top: int, height: int) -> Band:
    return deflate_band(to_palette(_numbers_band(numbers, top, height)))


def render_hand(scene: HandScene) -> bytes:
    """The hand as PNG bytes, ready to attach to a DM.

    Only the cards are drawn afresh; the header, labels and numbers come deflated from their
    caches (keyed by what they show: title, points and wild rank; each group's kind, points and
    span; the numbers' places and the picked one). The pixels are those of `hand_image` mapped
    onto the shared palette, exactly.
    """
    height = hand_height(scene)
    bands = [_header_deflated(*_header_key(scene), height)]
    for row, cards_top in layout(scene):
        top = cards_top - LIFT - 8 - LABEL_BAND
        bands.append(_labels_deflated(_label_key(row, scene.language), top, height))
        bands.append(deflate_band(_cards_band_indexed(scene, row, top, height)))
        bands.append(_numbers_deflated(_numbers_key(row, scene), top, height))
    return write(WIDTH, bands)
