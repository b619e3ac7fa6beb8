"""A player's private hand: grouped, labelled, numbered, with the new card lifted and glowing.

The picture is always 1200 pixels wide (crisp on high-density phones, and the size tests and
Discord previews can rely on); only a hand that cannot fit one row grows a second row.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.cards import RANK_LABELS
from render import theme
from render.canvas import felt, labelled_pill, pill, text
from render.groups import Row, RowStyle, draw_labels, paste_cards, place_row, split_rows
from render.png import encode
from render.scenes import HandScene
from render.sprites import card_height

WIDTH = 1200
PAD = 34
STYLE = RowStyle(card_width=130, max_step=84, gap=26, label_size=17)
HEADER = 58
LIFT = 16  # how far the picked card rises above its row
NUMBER_SIZE = 17
LABEL_BAND = 30
ROW_HEIGHT = LABEL_BAND + 8 + LIFT + card_height(STYLE.card_width) + 10 + 24 + 10


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
    rows = layout(scene)
    canvas = felt(WIDTH, HEADER + ROW_HEIGHT * len(rows))
    draw = ImageDraw.Draw(canvas)
    _header(draw, scene)
    for row, cards_top in rows:
        draw_labels(draw, row, cards_top - LIFT - 8 - LABEL_BAND, STYLE.label_size)
        paste_cards(canvas, row, cards_top, STYLE, scene.wild_rank, scene.four_colour, scene.picked, LIFT)
        numbers_y = cards_top + card_height(STYLE.card_width) + 10 + 12
        visible = min(row.step, STYLE.card_width)
        for placed in row.cards:
            centre = placed.x + visible / 2
            ink = theme.MUTED
            if placed.position == scene.picked:
                pill(draw, (centre - 19, numbers_y - 13, centre + 19, numbers_y + 13), theme.GOLD)
                ink = theme.GOLD_DARK
            text(draw, (centre, numbers_y), str(placed.position), NUMBER_SIZE, ink, "bold", "mm")
    return canvas


def _header(draw: ImageDraw.ImageDraw, scene: HandScene) -> None:
    title = scene.title or f"Your hand · {len(scene.cards)} cards"
    centre_y = HEADER / 2
    text(draw, (PAD, centre_y), title, 24, theme.INK, "bold", anchor="lm")
    right = labelled_pill(draw, WIDTH - PAD, centre_y, f"{scene.points} pts", 19, theme.GOLD, theme.GOLD_DARK)
    if scene.wild_rank is not None:
        label = f"Wild: {RANK_LABELS.get(scene.wild_rank, 'Joker')}s + jokers"
        labelled_pill(draw, right - 12, centre_y, label, 17, theme.PANEL, theme.GOLD)


def render_hand(scene: HandScene) -> bytes:
    """The hand as PNG bytes, ready to attach to a DM."""
    return encode(hand_image(scene))
