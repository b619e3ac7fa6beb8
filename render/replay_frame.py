"""A replay's frame: the piles and what happened at this step on top, every hand below; and the
whole deal as one animated picture.

Built like the table and the result (their header, their rows of grouped cards, in racks when
there are too many seats to show whole cards in a phone's box) so a replay looks like the game
it shows. A frame's size depends only on its number of seats, so the frames of one deal animate
without jumping; the animation, at half size, is 400 px wide: a phone shows it as it is.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.cards import Card, is_wild
from bot.i18n import words
from render import theme
from render.canvas import felt, labelled_pill, text, text_width
from render.fonts import clean_text, fit_text, font, player_name
from render.groups import RowStyle, draw_labels, label_band, paste_cards, place_row
from render.palette import to_palette
from render.png import encode
from render.scenes import ReplayScene, ReplaySeat
from render.sprites import back_pieces, card_height, card_pieces, sprite_margin
from render.standings import wrapped
from render.table import header, in_words

WIDTH = theme.WIDTH
PAD = theme.PAD
HEADER = 54
STYLE = RowStyle(card_width=74, max_step=44, gap=12, label_size=theme.SMALL)
PILE_PITCH = 128  # a pile's slot, wide enough for its caption
PILE_LEFT = PAD + 24  # the deck's card, its caption centred under it
LIFT = 10  # how far this step's picked card rises
INFO_WIDTH = 210
HAND_LEFT = PAD + INFO_WIDTH + 12
HAND_WIDTH = WIDTH - PAD - 12 - HAND_LEFT
LABELS = label_band(STYLE.label_size)
RACKED = 43  # how much of a card shows in a rack: its rank and its suit
GAP = 2
ANIMATION_LIMIT = 8 * 1024 * 1024  # an animation larger than this is not made (Discord takes 10 MiB)
# A deal of more steps is not animated: each frame is solved and drawn (~25 ms of CPU) and kept
# until the GIF is encoded, and a deal lasts as long as its players pick and throw. 500 frames
# of ~11 KB (six seats, benchmarks/replay.py) stay well under the limit.
ANIMATION_FRAMES = 500
ANIMATION_SCALE = 0.5
FRAME_MS = 900
LAST_FRAME_MS = 5000


@dataclass(frozen=True, slots=True)
class Layout:
    """The frame's measures: whole cards while every seat fits a phone's box, else racks (see
    `render.result`) and the piles as racked cards beside the caption."""

    racked: bool
    piles_height: int
    plate_height: int

    def height(self, seats: int) -> int:
        return HEADER + self.piles_height + seats * (self.plate_height + GAP) + 8


FULL = Layout(
    False,
    10 + card_height(STYLE.card_width) + 8 + 30 + 8,
    8 + LABELS + 4 + LIFT + card_height(STYLE.card_width) + 8,
)
RACKS = Layout(True, 86, 4 + LABELS + RACKED + 3)


def layout(seats: int) -> Layout:
    return FULL if FULL.height(seats) <= theme.MAX_HEIGHT else RACKS


def replay_height(seats: int) -> int:
    return layout(seats).height(seats)


def replay_image(scene: ReplayScene) -> Image.Image:
    at = layout(len(scene.seats))
    canvas = felt(WIDTH, at.height(len(scene.seats)))
    draw = ImageDraw.Draw(canvas)
    header(draw, scene.title, scene.wild_rank, scene.language, HEADER)
    caption_left = _piles(canvas, draw, scene, at)
    _caption(draw, scene, caption_left, HEADER, HEADER + at.piles_height - 8)
    top = HEADER + at.piles_height
    for seat in scene.seats:
        _plate(canvas, draw, seat, top, scene, at)
        top += at.plate_height + GAP
    return canvas


def _piles(canvas: Image.Image, draw: ImageDraw.ImageDraw, scene: ReplayScene, at: Layout) -> int:
    """The closed deck, the open card and the cut joker, each captioned (in racks, only the deck's
    count beside it); returns where the caption panel may start."""
    _ = words(scene.language)
    width, margin = STYLE.card_width, sprite_margin(STYLE.card_width)
    top = HEADER + (8 if at.racked else 10)
    cards: tuple[tuple[Card | None, str], ...] = (
        (scene.open_card, _("Open card")),
        (scene.cut_joker, _("Cut joker")),
    )
    x = PAD if at.racked else PILE_LEFT
    deck = _.n("{count} card", "{count} cards", scene.closed_count)
    slots: list[tuple[int, str, str]] = [(x, deck, "")]
    if scene.closed_count > 0:
        back_pieces(width).paste(canvas, (x - margin, top - margin))
    else:
        draw.rounded_rectangle(
            (x, top, x + width, top + card_height(width)), radius=6, outline=theme.PANEL_LINE, width=3
        )
    for index, (card, caption) in enumerate(cards, start=1):
        if at.racked:  # the deck's count beside it
            x = PAD + index * (width + 14) + round(text_width(deck, theme.SMALL, "bold")) + 10
        else:
            x = PILE_LEFT + index * PILE_PITCH
        if card is None:
            draw.rounded_rectangle(
                (x, top, x + width, top + card_height(width)), radius=6, outline=theme.PANEL_LINE, width=3
            )
        else:
            card_pieces(card, is_wild(card, scene.wild_rank), scene.four_colour, width).paste(
                canvas, (x - margin, top - margin)
            )
        slots.append((x, caption, in_words(card, _) if card else _("none")))
    if at.racked:  # the cards tucked in, as the hands below; the deck's count beside the deck
        bottom = top + RACKED
        under = felt(WIDTH, HEADER + at.piles_height + card_height(width) + 2 * margin)
        canvas.paste(
            under.crop((0, bottom, x + width + margin, bottom + card_height(width) + margin)), (0, bottom)
        )
        draw.line((PAD - 4, bottom, x + width + 4, bottom), fill=theme.PANEL_LINE, width=3)
        text(draw, (PAD + width + 10, top + RACKED / 2), deck, theme.SMALL, theme.INK, "bold", "lm")
        return round(x + width + 18)
    y = top + card_height(width) + 8 + 15
    for slot_x, caption, _detail in slots:
        shown = player_name(caption, font(theme.SMALL), PILE_PITCH - 2)
        text(draw, (slot_x + width / 2, y), shown, theme.SMALL, theme.INK, "regular", "mm")
    return PILE_LEFT + 2 * PILE_PITCH + width + 24


def _caption(draw: ImageDraw.ImageDraw, scene: ReplayScene, left: int, top: int, bottom: int) -> None:
    """What happened at this step, in a panel beside the piles (the first line bold, each wrapped
    to the panel; what does not fit is left out: the alt text has it all), and the step's number
    at its foot."""
    right = WIDTH - PAD
    draw.rounded_rectangle((left, top, right, bottom), radius=12, fill=theme.PANEL, outline=theme.PANEL_LINE)
    width, size, pitch = right - left - 24, theme.SMALL, theme.SMALL + 3
    lines: list[tuple[str, str, theme.RGB]] = []
    for index, line in enumerate(scene.caption):
        weight, ink = ("bold", theme.INK) if index == 0 else ("regular", theme.MUTED)
        lines.extend((part, weight, ink) for part in wrapped(clean_text(line), size, weight, width))
    rows = max(1, (bottom - top - 10 + 3) // pitch)
    step_width = text_width(scene.step, size) + 12 if scene.step else 0
    for row, (part, weight, ink) in enumerate(lines[:rows]):
        room = width - (step_width if row == rows - 1 else 0)  # the last row shares with the step
        text(
            draw,
            (left + 12, top + 5 + row * pitch),
            fit_text(part, font(size, weight), room),
            size,
            ink,
            weight,
        )
    if scene.step:
        y = top + 5 + (rows - 1) * pitch + size / 2
        text(draw, (right - 12, y), scene.step, size, theme.MUTED, "regular", "rm")


def _plate(
    canvas: Image.Image, draw: ImageDraw.ImageDraw, seat: ReplaySeat, top: int, scene: ReplayScene, at: Layout
) -> None:
    """A seat's hand, edged in gold for the seat that moved (and the winner), faded once out."""
    bottom = top + at.plate_height
    edge, edge_width = (theme.GOLD, 3) if seat.acted or seat.winner else (theme.PANEL_LINE, 1)
    draw.rounded_rectangle(
        (PAD, top, WIDTH - PAD, bottom), radius=12, fill=theme.PANEL, outline=edge, width=edge_width
    )
    left = PAD + 12
    ink = theme.FADED if seat.out else (theme.GOLD if seat.winner else theme.INK)
    size = theme.TEXT if at.racked else theme.NAME
    name = player_name(seat.name, font(size, "bold"), INFO_WIDTH - 12)
    name_y = top + (4 if at.racked else 10)
    text(draw, (left, name_y), name, size, ink, "bold")
    if seat.out:  # struck through as well as faded, so it reads without relying on colour
        width = text_width(name, size, "bold")
        draw.line((left, name_y + size * 0.6, left + width, name_y + size * 0.6), fill=theme.FADED, width=2)
    line_y = top + (44 if at.racked else 56)
    if seat.line:
        line = player_name(seat.line, font(theme.SMALL), INFO_WIDTH - 12)
        text(
            draw, (left, line_y), line, theme.SMALL, theme.WARN if seat.out else theme.MUTED, "regular", "lm"
        )
    if seat.tag:
        lit = seat.winner or seat.acted
        tag = player_name(seat.tag, font(theme.SMALL, "bold"), INFO_WIDTH - 40)
        if at.racked:
            text(draw, (left, top + 68), tag, theme.SMALL, theme.GOLD if lit else theme.WARN, "bold", "lm")
        else:
            fill, tag_ink = (theme.GOLD, theme.GOLD_DARK) if lit else (theme.PANEL_LINE, theme.WARN)
            labelled_pill(
                draw,
                left + text_width(tag, theme.SMALL, "bold") + 2 * 0.7 * theme.SMALL,
                bottom - 28,
                tag,
                theme.SMALL,
                fill,
                tag_ink,
            )
    row = place_row(seat.groups, HAND_LEFT, HAND_WIDTH, STYLE, 1)
    labels_top = top + (4 if at.racked else 8)
    draw_labels(draw, row, labels_top, STYLE.label_size, scene.language)
    if at.racked:
        cards_top = labels_top + LABELS
        paste_cards(canvas, row, cards_top, STYLE, scene.wild_rank, scene.four_colour, seat.picked, 0, RACKED)
    else:
        cards_top = labels_top + LABELS + 4 + LIFT
        paste_cards(canvas, row, cards_top, STYLE, scene.wild_rank, scene.four_colour, seat.picked, LIFT)


def render_replay(scene: ReplayScene) -> bytes:
    return encode(replay_image(scene))


def render_replay_animation(scenes: Sequence[ReplayScene], limit: int = ANIMATION_LIMIT) -> bytes | None:
    """The deal as an animated GIF at half size, each step a frame and the last held longer; None
    when it would be larger than `limit` (a long deal at a full table), which is then not sent."""
    if not scenes:
        return None
    frames = []
    for scene in scenes:
        image = replay_image(scene)
        size = (round(image.width * ANIMATION_SCALE), round(image.height * ANIMATION_SCALE))
        frames.append(to_palette(image.resize(size, Image.Resampling.LANCZOS)))
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0)
    data = buffer.getvalue()
    return data if len(data) <= limit else None
