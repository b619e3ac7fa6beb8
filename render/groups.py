"""Laying grouped cards out in overlapping rows: shared by the hand and the deal result.

Cards in a group overlap by a fixed step that leaves each card's index column uncovered, groups
are set apart by a small gap, and each group is labelled above with its kind and its points.
The step shrinks to fit the width given and never below the index column, so a card can always
be read; when even that does not fit, the groups go on two rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.cards import Card, is_wild
from bot.i18n import ENGLISH, words
from render import theme
from render.canvas import text, text_width
from render.fonts import fit_text, font
from render.scenes import HandGroup
from render.sprites import (
    card_height,
    card_pieces,
    card_sprite,
    index_column,
    opaque_boxes,
    opaque_inset,
    sprite_margin,
)
from render.tiles import PlacedSprite


@dataclass(frozen=True, slots=True)
class RowStyle:
    """The sizes of one kind of row (big in a hand, small in a result)."""

    card_width: int
    max_step: int
    gap: int
    label_size: int


@dataclass(frozen=True, slots=True)
class PlacedCard:
    card: Card
    x: int
    position: int  # 1-based, as numbered under a hand


@dataclass(frozen=True, slots=True)
class PlacedGroup:
    group: HandGroup
    left: int
    right: int  # where the label may extend to


@dataclass(frozen=True, slots=True)
class Row:
    groups: tuple[PlacedGroup, ...]
    cards: tuple[PlacedCard, ...]
    step: int


def row_step(groups: Sequence[HandGroup], width: int, style: RowStyle) -> int:
    """The overlap step that fits `groups` in `width`, capped at the style's comfortable maximum."""
    count = sum(len(group.cards) for group in groups)
    if count <= 1:
        return style.max_step
    spare = width - style.card_width - style.gap * (len(groups) - 1)
    return min(style.max_step, spare // (count - 1))


def split_rows(groups: Sequence[HandGroup], width: int, style: RowStyle) -> list[tuple[HandGroup, ...]]:
    """One row if every index stays readable, else two rows split where they balance best."""
    minimum = index_column(style.card_width)
    if len(groups) < 2 or row_step(groups, width, style) >= minimum:
        return [tuple(groups)]

    def tightest_step(cut: int) -> int:
        return min(row_step(groups[:cut], width, style), row_step(groups[cut:], width, style))

    best = max(range(1, len(groups)), key=tightest_step)
    return [tuple(groups[:best]), tuple(groups[best:])]


def place_row(
    groups: Sequence[HandGroup], left: int, width: int, style: RowStyle, first_position: int
) -> Row:
    step = max(1, row_step(groups, width, style))
    x, position = left, first_position
    placed_groups, placed_cards = [], []
    for group in groups:
        start = x
        for card in group.cards:
            placed_cards.append(PlacedCard(card, x, position))
            x += step
            position += 1
        last_x = x - step
        placed_groups.append(PlacedGroup(group, start, max(last_x + step, start + step)))
        x = last_x + step + style.gap
    if placed_groups:  # the last group's label may use the whole of its last card
        final = placed_groups[-1]
        end = max(card.x for card in placed_cards) + style.card_width if placed_cards else final.right
        placed_groups[-1] = PlacedGroup(final.group, final.left, end)
    return Row(tuple(placed_groups), tuple(placed_cards), step)


def placed_sprites(
    row: Row,
    top: int,
    style: RowStyle,
    wild_rank: int | None,
    four_colour: bool,
    picked: int | None = None,
    lift: int = 0,
) -> list[PlacedSprite]:
    """The row's card sprites in pasting order, the picked one lifted by `lift`, cards' tops at `top`."""
    width, margin = style.card_width, sprite_margin(style.card_width)
    sprites = []
    for placed in row.cards:
        is_picked = placed.position == picked
        key = (placed.card, is_wild(placed.card, wild_rank), four_colour, width, is_picked)
        pieces = card_pieces(*key)
        y = top - (lift if is_picked else 0)
        sprites.append(
            PlacedSprite(
                key=key,
                halo=(width, is_picked),
                image=card_sprite(*key),
                pieces=pieces,
                x=placed.x - margin,
                y=y - margin,
                size=(width + 2 * margin, card_height(width) + 2 * margin),
                body=(placed.x, y, placed.x + width, y + card_height(width)),
                opaque=opaque_boxes(width, placed.x, y),
                corner=opaque_inset(width),
            )
        )
    return sprites


def paste_cards(
    canvas: Image.Image,
    row: Row,
    top: int,
    style: RowStyle,
    wild_rank: int | None,
    four_colour: bool,
    picked: int | None = None,
    lift: int = 0,
) -> None:
    for sprite in placed_sprites(row, top, style, wild_rank, four_colour, picked, lift):
        sprite.pieces.paste(canvas, (sprite.x, sprite.y))


def group_label(group: HandGroup, width: float, size: int, language: str = ENGLISH) -> tuple[str, str]:
    """The longest kind name that fits beside the points, and the points text."""
    _ = words(language)
    points = _("{points} pts", points=group.points)
    room = width - text_width(points, size, "bold") - size * 0.6
    names = [_(name) for name in theme.GROUP_LABELS[group.kind]]
    for name in names:
        if text_width(name, size, "bold") <= room:
            return name, points
    return fit_text(names[-1], font(size, "bold"), room), points


def draw_labels(draw: ImageDraw.ImageDraw, row: Row, top: int, size: int, language: str = ENGLISH) -> int:
    """Kind and points over each group, underlined in the kind's colour; returns the height used."""
    for placed in row.groups:
        colour = theme.GROUP_COLOURS[placed.group.kind]
        span = placed.right - placed.left
        name, points = group_label(placed.group, span, size, language)
        text(draw, (placed.left + 2, top), name, size, colour, "bold")
        text(draw, (placed.right - 2, top), points, size, theme.INK, "bold", anchor="ra")
    return draw_bars(draw, row, top, size)


def draw_bars(draw: ImageDraw.ImageDraw, row: Row, top: int, size: int) -> int:
    """The underlines of `draw_labels` alone (the hand draws their last row again with its cards)."""
    bar_y = top + round(size * 1.45)
    for placed in row.groups:
        colour = theme.GROUP_COLOURS[placed.group.kind]
        draw.rounded_rectangle(
            (placed.left, bar_y, placed.right, bar_y + max(3, size // 4)), radius=2, fill=colour
        )
    return bar_y + max(3, size // 4) - top
