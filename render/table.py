"""The table everybody sees: the piles on the left, the seats on the right.

The size depends only on how many seats there are (six or fewer: always 1200 x 484; ten, as home
rules seat, 1200 x 740, the piles level with the middle seat), so a long
or emoji-laden name can only shorten itself, never move the rest of the picture.
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

WIDTH = 1200
PAD = 34
HEADER = 70
CARD_WIDTH = 130
SLOT_X = (PAD + 16, PAD + 196, PAD + 376)
SEATS_LEFT = 620
SEAT_HEIGHT = 56
SEAT_PITCH = 64
ICON_WIDTH = 22
COUNT_WIDTH = 30
STATUS_TAGS = {"dropped": N_("DROPPED"), "out": N_("OUT"), "declared": N_("DECLARED")}


def table_height(seats: int) -> int:
    return HEADER + max(6, seats) * SEAT_PITCH + 30


def pile_top(seats: int) -> int:
    """The piles sit level with the middle of the seats, however many there are (up to ten)."""
    return HEADER + 8 + (max(6, seats) * SEAT_PITCH - card_height(CARD_WIDTH) - 70) // 2


def table_image(scene: TableScene) -> Image.Image:
    canvas = felt(WIDTH, table_height(len(scene.seats)))
    draw = ImageDraw.Draw(canvas)
    _ = words(scene.language)
    text(draw, (PAD, HEADER / 2), scene.title or _("Table"), 26, theme.INK, "bold", "lm")
    if (wild := wild_label(scene.wild_rank, scene.language)) is not None:
        labelled_pill(draw, WIDTH - PAD, HEADER / 2, wild, 18, theme.PANEL, theme.GOLD)
    top = pile_top(len(scene.seats))
    _deck(canvas, draw, top, scene.closed_count, _)
    _face_slot(canvas, draw, SLOT_X[1], top, scene.open_card, _("Open card"), scene)
    _face_slot(canvas, draw, SLOT_X[2], top, scene.cut_joker, _("Cut joker"), scene)
    for index, seat in enumerate(scene.seats):
        _seat(canvas, draw, seat, HEADER + 8 + index * SEAT_PITCH, _)
    return canvas


def _caption(draw: ImageDraw.ImageDraw, x: int, top: int, caption: str, detail: str) -> None:
    centre = x + CARD_WIDTH / 2
    y = top + card_height(CARD_WIDTH) + 30
    text(draw, (centre, y), caption, 19, theme.INK, "bold", "mm")
    if detail:
        text(draw, (centre, y + 28), detail, 17, theme.MUTED, "regular", "mm")


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
            pieces.paste(canvas, (x - margin + layer * 3, top - margin - layer * 3))
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
    _caption(draw, x, top, caption, _in_words(card, words(scene.language)))


RANK_WORDS = {1: N_("Ace"), 11: N_("Jack"), 12: N_("Queen"), 13: N_("King")}
SUIT_WORDS = {
    "spades": N_("spades"),
    "hearts": N_("hearts"),
    "diamonds": N_("diamonds"),
    "clubs": N_("clubs"),
}


def _in_words(card: Card, _: Words) -> str:
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
        arrow = [(left - 26, middle - 12), (left - 8, middle), (left - 26, middle + 12)]
        draw.polygon(arrow, fill=theme.GOLD)
    # Right to left: standing, cards count, status tag; the name gets whatever room remains.
    x = right - 16
    if seat.standing:
        standing = player_name(seat.standing, font(18), 150)
        text(draw, (x, middle), standing, 18, soft, "regular", "rm")
        x -= 150 + 18
    count = str(seat.cards_count)
    text(draw, (x, middle), count, 20, ink, "bold", "rm")
    x -= COUNT_WIDTH + 8 + ICON_WIDTH
    icon = _seat_icon(gone)
    icon_margin = sprite_margin(ICON_WIDTH)
    canvas.paste(icon, (x - icon_margin, round(middle - card_height(ICON_WIDTH) / 2) - icon_margin), icon)
    x -= 16
    tag = STATUS_TAGS.get(seat.status)
    if tag:
        tag_ink = theme.WARN if gone else theme.GOLD
        x = round(labelled_pill(draw, x, middle, _(tag), 14, theme.PANEL_LINE, tag_ink))
    elif seat.to_act:
        x = round(labelled_pill(draw, x, middle, _("TO ACT"), 14, theme.GOLD, theme.GOLD_DARK))
    x -= 10
    name_left = left + 18
    name = player_name(seat.name, font(21, "bold"), x - name_left)
    text(draw, (name_left, middle), name, 21, ink, "bold", "lm")
    if gone:  # struck through as well as faded, so it reads without relying on colour
        width = text_width(name, 21, "bold")
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
