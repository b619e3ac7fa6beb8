"""A replay's frame: the piles and what happened at this step on top, every hand below; and the
whole deal as one animated picture.

Built from the table's and the result's pieces (the table's deck and face-up slots, the
result's rows of grouped cards) so a replay looks like the game it shows. A frame's size
depends only on its number of seats, so the frames of one deal animate without jumping.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import words
from render import theme
from render.canvas import felt, labelled_pill, text, text_width, wild_label
from render.fonts import (
    clean_text,
    devanagari_font,
    devanagari_has,
    fit_text,
    font,
    is_devanagari,
    player_name,
)
from render.groups import RowStyle, draw_labels, paste_cards, place_row
from render.palette import to_palette
from render.png import encode
from render.scenes import ReplayScene, ReplaySeat
from render.sprites import card_height
from render.table import CARD_WIDTH, SLOT_X, _deck, _face_slot

WIDTH = 1200
PAD = 34
HEADER = 70
PILES_HEIGHT = card_height(CARD_WIDTH) + 84  # the slots with their two caption lines
CAPTION_LEFT = 600
STYLE = RowStyle(card_width=66, max_step=44, gap=14, label_size=12)
LIFT = 10  # how far this step's picked card rises
INFO_WIDTH = 250
HAND_LEFT = PAD + INFO_WIDTH + 14
PLATE_HEIGHT = 10 + 20 + 4 + LIFT + card_height(STYLE.card_width) + 10
GAP = 8
ANIMATION_LIMIT = 8 * 1024 * 1024  # an animation larger than this is not made (Discord takes 10 MiB)
# A deal of more steps is not animated: each frame is solved and drawn (~25 ms of CPU) and kept
# until the GIF is encoded, and a deal lasts as long as its players pick and throw. 500 frames
# of ~11 KB (six seats, benchmarks/replay.py) stay well under the limit.
ANIMATION_FRAMES = 500
ANIMATION_SCALE = 0.5
FRAME_MS = 900
LAST_FRAME_MS = 5000


def replay_height(seats: int) -> int:
    return HEADER + PILES_HEIGHT + seats * (PLATE_HEIGHT + GAP) + 14


def replay_image(scene: ReplayScene) -> Image.Image:
    canvas = felt(WIDTH, replay_height(len(scene.seats)))
    draw = ImageDraw.Draw(canvas)
    _ = words(scene.language)
    text(draw, (PAD, HEADER / 2), scene.title, 26, theme.INK, "bold", "lm")
    if (wild := wild_label(scene.wild_rank, scene.language)) is not None:
        labelled_pill(draw, WIDTH - PAD, HEADER / 2, wild, 18, theme.PANEL, theme.GOLD)
    top = HEADER + 6
    _deck(canvas, draw, top, scene.closed_count, _)
    _face_slot(canvas, draw, SLOT_X[1], top, scene.open_card, _("Open card"), scene)
    _face_slot(canvas, draw, SLOT_X[2], top, scene.cut_joker, _("Cut joker"), scene)
    _caption(draw, scene, top)
    top = HEADER + PILES_HEIGHT
    for seat in scene.seats:
        _plate(canvas, draw, seat, top, scene)
        top += PLATE_HEIGHT + GAP
    return canvas


def _caption(draw: ImageDraw.ImageDraw, scene: ReplayScene, top: int) -> None:
    """What happened at this step, in a panel beside the piles (the first line larger, each
    wrapped to the panel); the step's number under it."""
    right, bottom = WIDTH - PAD, top + card_height(CARD_WIDTH) + 8
    draw.rounded_rectangle(
        (CAPTION_LEFT, top, right, bottom), radius=14, fill=theme.PANEL, outline=theme.PANEL_LINE
    )
    width = right - CAPTION_LEFT - 36
    y = top + 18
    for index, line in enumerate(scene.caption):
        size, weight, ink = (24, "bold", theme.INK) if index == 0 else (20, "regular", theme.MUTED)
        for part in _wrapped(clean_text(line), size, weight, width):
            if y + size > bottom - 10:
                break
            if is_devanagari(part) and text_width(part, size, weight) <= width:  # else cut to fit
                _mixed_line(draw, (CAPTION_LEFT + 18, y), part, size, ink, weight)
            else:
                fitted = fit_text(part, font(size, weight), width)
                text(draw, (CAPTION_LEFT + 18, y), fitted, size, ink, weight)
            y += size + 10
        y += 6
    if scene.step:
        text(draw, (CAPTION_LEFT + 18, bottom + 30), scene.step, 19, theme.MUTED, "regular", "lm")


def _mixed_line(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], line: str, size: int, ink: theme.RGB, weight: str
) -> None:
    """A Hindi line in Noto Sans Devanagari, but for the words it has no letters for (a card's
    suit: "2♣"), drawn with DejaVu Sans on the same baseline."""
    hindi, other = devanagari_font(size, weight), font(size, weight)
    x, baseline = xy[0], xy[1] + hindi.getmetrics()[0]
    for word in line.split(" "):
        face = hindi if all(devanagari_has(char) for char in word) else other
        draw.text((x, baseline), word, font=face, fill=ink, anchor="ls")
        x += face.getlength(word) + hindi.getlength(" ")


def _wrapped(line: str, size: int, weight: str, width: int) -> list[str]:
    """`line` cut between words into parts no wider than `width` (a longer word is cut later)."""
    parts: list[str] = []
    for word in line.split():
        joined = f"{parts[-1]} {word}" if parts else word
        if parts and text_width(joined, size, weight) <= width:
            parts[-1] = joined
        else:
            parts.append(word)
    return parts


def _plate(
    canvas: Image.Image, draw: ImageDraw.ImageDraw, seat: ReplaySeat, top: int, scene: ReplayScene
) -> None:
    """A seat's hand, edged in gold for the seat that moved (and the winner), faded once out."""
    bottom = top + PLATE_HEIGHT
    edge, edge_width = (theme.GOLD, 3) if seat.acted or seat.winner else (theme.PANEL_LINE, 1)
    draw.rounded_rectangle(
        (PAD, top, WIDTH - PAD, bottom), radius=12, fill=theme.PANEL, outline=edge, width=edge_width
    )
    left = PAD + 16
    ink = theme.FADED if seat.out else (theme.GOLD if seat.winner else theme.INK)
    name = player_name(seat.name, font(21, "bold"), INFO_WIDTH - 20)
    text(draw, (left, top + 14), name, 21, ink, "bold")
    if seat.out:  # struck through as well as faded, so it reads without relying on colour
        width = text_width(name, 21, "bold")
        draw.line((left, top + 26, left + width, top + 26), fill=theme.FADED, width=2)
    if seat.line:
        line = player_name(seat.line, font(18), INFO_WIDTH - 20)
        text(draw, (left, top + 48), line, 18, theme.WARN if seat.out else theme.MUTED)
    if seat.tag:
        fill, tag_ink = (
            (theme.GOLD, theme.GOLD_DARK) if seat.winner or seat.acted else (theme.PANEL_LINE, theme.WARN)
        )
        tag = player_name(seat.tag, font(14, "bold"), INFO_WIDTH - 40)
        text_right = left + text_width(tag, 14, "bold") + 20
        labelled_pill(draw, text_right, bottom - 24, tag, 14, fill, tag_ink)
    row = place_row(seat.groups, HAND_LEFT, WIDTH - PAD - 16 - HAND_LEFT, STYLE, 1)
    draw_labels(draw, row, top + 10, STYLE.label_size, scene.language)
    cards_top = top + 10 + 20 + 4 + LIFT
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
