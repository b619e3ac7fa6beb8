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
    visible: int | None = None,
) -> None:
    """The row's cards, tops at `top`; with `visible`, only that much of them shows, as if tucked
    into a rack (their index: rank and suit), edged by a line where they go in."""
    sprites = placed_sprites(row, top, style, wild_rank, four_colour, picked, lift)
    if visible is None or not sprites:
        for sprite in sprites:
            sprite.pieces.paste(canvas, (sprite.x, sprite.y))
        return
    left, upper = min(s.x for s in sprites), min(s.y for s in sprites)
    right, lower = max(s.x + s.size[0] for s in sprites), max(s.y + s.size[1] for s in sprites)
    scratch = Image.new("RGB", (right - left, lower - upper))
    scratch.paste(canvas.crop((left, upper, right, lower)), (0, 0))
    for sprite in sprites:
        sprite.pieces.paste(scratch, (sprite.x - left, sprite.y - upper))
    canvas.paste(scratch.crop((0, 0, right - left, top + visible - upper)), (left, upper))
    lip = top + visible
    ImageDraw.Draw(canvas).line(
        (row.cards[0].x - 4, lip, row.cards[-1].x + style.card_width + 4, lip), fill=theme.PANEL_LINE, width=3
    )


MELD_MARK, BROKEN_MARK = "✓", "✗"


def group_label(group: HandGroup, width: float, size: int, language: str = ENGLISH) -> tuple[str, str]:
    """The label over a group, as (name, points): a ✓ or ✗ (valid or not, as the engine judged
    it) with the longest kind name that fits, and what the group costs where it costs anything
    (loose cards always say it, "0 pts" too); shorter forms first drop the name, then "pts"."""
    _ = words(language)
    mark = MELD_MARK if group.is_meld else BROKEN_MARK
    pays = group.points > 0 or not group.is_meld
    costs = (_("{points} pts", points=group.points), str(group.points)) if pays else ("",)
    names = [f"{mark} {_(name)}" for name in theme.GROUP_LABELS[group.kind] if name] + [mark, ""]
    for name in names:
        for points in costs:
            room = width - (text_width(points, size, "bold") + size * 0.5 if points else 0)
            if text_width(name, size, "bold") <= room:
                return name, points
    return "", costs[-1]


def draw_labels(draw: ImageDraw.ImageDraw, row: Row, top: int, size: int, language: str = ENGLISH) -> int:
    """Mark, kind and cost over each group, underlined in the kind's colour; returns the height used."""
    for placed in row.groups:
        colour = theme.GROUP_COLOURS[placed.group.kind]
        span = placed.right - placed.left - 4
        name, points = group_label(placed.group, span, size, language)
        text(draw, (placed.left + 2, top), name, size, colour, "bold")
        text(draw, (placed.right - 2, top), points, size, theme.INK, "bold", anchor="ra")
    return draw_bars(draw, row, top, size)


def label_band(size: int) -> int:
    """The height labels and their underline take (the underline's last row is the next band's first)."""
    return round(size * 1.22) + max(3, size // 4) + 1


def draw_bars(draw: ImageDraw.ImageDraw, row: Row, top: int, size: int) -> int:
    """The underlines of `draw_labels` alone (the hand draws their last row again with its cards)."""
    bar_y = top + round(size * 1.22)
    for placed in row.groups:
        colour = theme.GROUP_COLOURS[placed.group.kind]
        draw.rounded_rectangle(
            (placed.left, bar_y, placed.right, bar_y + max(3, size // 4)), radius=2, fill=colour
        )
    return bar_y + max(3, size // 4) - top
