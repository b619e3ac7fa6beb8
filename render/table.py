"""The table everybody sees: the piles across the top, a line per seat below.

The size depends only on how many seats there are (2 to 10: 800 px wide, 488 to 968 high), so a
long or emoji-laden name can only shorten itself, never move the rest of the picture. Piles above
seats, rather than beside them, keep the picture narrow enough that a phone shows every word at a
readable size.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.cards import Card, is_wild
from bot.i18n import N_, Words, words
from render import theme
from render.canvas import felt, labelled_pill, text, text_width, wild_label
from render.fonts import font, player_name
from render.png import encode
from render.scenes import ReplayScene, SeatView, TableScene
from render.sprites import back_pieces, back_sprite, card_height, card_pieces, sprite_margin

WIDTH = theme.WIDTH
PAD = theme.PAD
HEADER = 62
CARD_WIDTH = 92
SLOT_X = tuple(round(WIDTH * (2 * i + 1) / 6 - CARD_WIDTH / 2) for i in range(3))  # three slots across
PILES_HEIGHT = 14 + card_height(CARD_WIDTH) + 12 + 2 * 30 + 8  # a card and its two caption lines
SEAT_HEIGHT = 50
SEAT_PITCH = 58
SEATS_LEFT = PAD + 26  # room for the arrow pointing at whoever is to act
ICON_WIDTH = 20
STANDING_WIDTH = 150
STATUS_TAGS = {"dropped": N_("DROPPED"), "out": N_("OUT"), "declared": N_("DECLARED")}


def table_height(seats: int) -> int:
    return HEADER + PILES_HEIGHT + max(2, seats) * SEAT_PITCH + 12


def seat_top(index: int) -> int:
    return HEADER + PILES_HEIGHT + index * SEAT_PITCH


def header(
    draw: ImageDraw.ImageDraw, title: str, wild_rank: int | None, language: str, height: int = HEADER
) -> None:
    """The title, and on the right the pill naming what is wild: shared by the table, the result
    and the replay. A long title is cut before the pill."""
    right = float(WIDTH - PAD)
    if (wild := wild_label(wild_rank, language)) is not None:
        right = labelled_pill(draw, right, height / 2, wild, theme.SMALL, theme.PANEL, theme.GOLD) - 16
    shown = player_name(title, font(theme.TITLE, "bold"), right - PAD)
    text(draw, (PAD, height / 2), shown, theme.TITLE, theme.INK, "bold", "lm")


def table_image(scene: TableScene) -> Image.Image:
    canvas = felt(WIDTH, table_height(len(scene.seats)))
    draw = ImageDraw.Draw(canvas)
    _ = words(scene.language)
    header(draw, scene.title or _("Table"), scene.wild_rank, scene.language)
    top = HEADER + 14
    _deck(canvas, draw, top, scene.closed_count, _)
    _face_slot(canvas, draw, SLOT_X[1], top, scene.open_card, _("Open card"), scene)
    _face_slot(canvas, draw, SLOT_X[2], top, scene.cut_joker, _("Cut joker"), scene)
    for index, seat in enumerate(scene.seats):
        _seat(canvas, draw, seat, seat_top(index), _)
    return canvas


def _caption(draw: ImageDraw.ImageDraw, x: int, top: int, caption: str, detail: str) -> None:
    centre = x + CARD_WIDTH / 2
    y = top + card_height(CARD_WIDTH) + 12 + 15
    room = WIDTH / 3 - 8
    text(
        draw,
        (centre, y),
        player_name(caption, font(theme.TEXT, "bold"), room),
        theme.TEXT,
        theme.INK,
        "bold",
        "mm",
    )
    if detail:
        shown = player_name(detail, font(theme.SMALL), room)
        text(draw, (centre, y + 30), shown, theme.SMALL, theme.MUTED, "regular", "mm")


def _empty_slot(draw: ImageDraw.ImageDraw, x: int, top: int) -> None:
    draw.rounded_rectangle(
        (x, top, x + CARD_WIDTH, top + card_height(CARD_WIDTH)),
        radius=CARD_WIDTH * 0.08,
        outline=theme.PANEL_LINE,
        width=3,
        fill=theme.PANEL,
    )


def _deck(canvas: Image.Image, draw: ImageDraw.ImageDraw, top: int, count: int, _: Words) -> None:
    """A stack whose thickness hints at how many cards remain, with the exact count beneath."""
    x = SLOT_X[0]
    if count <= 0:
        _empty_slot(draw, x, top)
    else:
        pieces, margin = back_pieces(CARD_WIDTH), sprite_margin(CARD_WIDTH)
        layers = 1 + min(3, count // 15)
        for layer in reversed(range(layers)):
            pieces.paste(canvas, (x - margin + layer * 2, top - margin - layer * 2))
    _caption(draw, x, top, _("Closed deck"), _.n("{count} card", "{count} cards", count))


def _face_slot(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    x: int,
    top: int,
    card: Card | None,
    caption: str,
    scene: TableScene | ReplayScene,  # what the face is drawn in: its wild rank, colours, language
) -> None:
    if card is None:
        _empty_slot(draw, x, top)
        _caption(draw, x, top, caption, words(scene.language)("none"))
        return
    pieces = card_pieces(card, is_wild(card, scene.wild_rank), scene.four_colour, CARD_WIDTH)
    margin = sprite_margin(CARD_WIDTH)
    pieces.paste(canvas, (x - margin, top - margin))
    _caption(draw, x, top, caption, in_words(card, words(scene.language)))


RANK_WORDS = {1: N_("Ace"), 11: N_("Jack"), 12: N_("Queen"), 13: N_("King")}
SUIT_WORDS = {
    "spades": N_("spades"),
    "hearts": N_("hearts"),
    "diamonds": N_("diamonds"),
    "clubs": N_("clubs"),
}


def in_words(card: Card, _: Words) -> str:
    """ "Queen of hearts": plain words under the picture, for screen readers' alt text habits too."""
    if card.suit is None:
        return _("Printed joker")
    rank = _(RANK_WORDS[card.rank]) if card.rank in RANK_WORDS else str(card.rank)
    return _("{rank} of {suit}", rank=rank, suit=_(SUIT_WORDS[card.suit.name.lower()]))


def _seat(canvas: Image.Image, draw: ImageDraw.ImageDraw, seat: SeatView, top: int, _: Words) -> None:
    """A seat's plate: gold-edged for whoever is to act, faded for a player no longer in the deal."""
    left, right, bottom = SEATS_LEFT, WIDTH - PAD, top + SEAT_HEIGHT
    middle = (top + bottom) / 2
    gone = seat.status in ("dropped", "out")
    ink, soft = (theme.FADED, theme.FADED) if gone else (theme.INK, theme.MUTED)
    edge, edge_width = (theme.GOLD, 3) if seat.to_act else (theme.PANEL_LINE, 1)
    draw.rounded_rectangle(
        (left, top, right, bottom), radius=12, fill=theme.PANEL, outline=edge, width=edge_width
    )
    if seat.to_act:
        arrow = [(PAD, middle - 11), (left - 6, middle), (PAD, middle + 11)]
        draw.polygon(arrow, fill=theme.GOLD)
    # Right to left: standing, cards count, status tag; the name gets whatever room remains.
    x = right - 12
    if seat.standing:
        standing = player_name(seat.standing, font(theme.SMALL), STANDING_WIDTH)
        text(draw, (x, middle), standing, theme.SMALL, soft, "regular", "rm")
        x -= STANDING_WIDTH + 14
    count = str(seat.cards_count)
    text(draw, (x, middle), count, theme.NAME, ink, "bold", "rm")
    x -= round(text_width("13", theme.NAME, "bold")) + 6 + ICON_WIDTH
    icon = _seat_icon(gone)
    icon_margin = sprite_margin(ICON_WIDTH)
    canvas.paste(icon, (x - icon_margin, round(middle - card_height(ICON_WIDTH) / 2) - icon_margin), icon)
    x -= 12
    tag = STATUS_TAGS.get(seat.status)
    if tag:
        tag_ink = theme.WARN if gone else theme.GOLD
        x = round(labelled_pill(draw, x, middle, _(tag), theme.SMALL, theme.PANEL_LINE, tag_ink))
    elif seat.to_act:
        x = round(labelled_pill(draw, x, middle, _("TO ACT"), theme.SMALL, theme.GOLD, theme.GOLD_DARK))
    x -= 10
    name_left = left + 14
    name = player_name(seat.name, font(theme.NAME, "bold"), x - name_left)
    text(draw, (name_left, middle), name, theme.NAME, ink, "bold", "lm")
    if gone:  # struck through as well as faded, so it reads without relying on colour
        width = text_width(name, theme.NAME, "bold")
        draw.line((name_left, middle + 1, name_left + width, middle + 1), fill=theme.FADED, width=2)


@lru_cache(maxsize=2)
def _seat_icon(faded: bool) -> Image.Image:
    """The cards-count icon; faded like the rest of the plate for a seat no longer in the deal."""
    icon = back_sprite(ICON_WIDTH)
    if not faded:
        return icon
    icon = icon.copy()
    icon.putalpha(icon.getchannel("A").point(lambda alpha: alpha * 35 // 100))
    return icon


def render_table(scene: TableScene) -> bytes:
    return encode(table_image(scene))
