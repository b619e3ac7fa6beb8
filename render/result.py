"""A deal's result: one plate per player with their grouped hand, points charged and new standing.

The winner's plate is edged in gold and listed as the caller ordered it (the front end puts the
winner first). Hands are shown with smaller cards than the private hand so six players still fit
one phone screen.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.i18n import words
from render import theme
from render.canvas import felt, labelled_pill, text, wild_label
from render.fonts import font, player_name
from render.groups import RowStyle, draw_labels, paste_cards, place_row
from render.png import encode
from render.scenes import PlayerResult, ResultScene
from render.sprites import card_height

WIDTH = 1200
PAD = 34
HEADER = 70
STYLE = RowStyle(card_width=80, max_step=52, gap=16, label_size=13)
INFO_WIDTH = 270
HAND_LEFT = PAD + INFO_WIDTH + 20
PLATE_HEIGHT = 12 + 24 + 6 + card_height(STYLE.card_width) + 14
LINE_HEIGHT = 60  # a player whose hand is not shown (a drop, say) gets one line, not a plate of cards
GAP = 10


def plate_height(player: PlayerResult) -> int:
    return PLATE_HEIGHT if player.groups else LINE_HEIGHT


def result_height(players: tuple[PlayerResult, ...]) -> int:
    return HEADER + sum(plate_height(player) + GAP for player in players) + 14


def result_image(scene: ResultScene) -> Image.Image:
    canvas = felt(WIDTH, result_height(scene.players))
    draw = ImageDraw.Draw(canvas)
    text(draw, (PAD, HEADER / 2), scene.title or words(scene.language)("Result"), 26, theme.INK, "bold", "lm")
    if (wild := wild_label(scene.wild_rank, scene.language)) is not None:
        labelled_pill(draw, WIDTH - PAD, HEADER / 2, wild, 18, theme.PANEL, theme.GOLD)
    top = HEADER
    for player in scene.players:
        if player.groups:
            _plate(canvas, draw, player, top, scene)
        else:
            _line(draw, player, top, scene)
        top += plate_height(player) + GAP
    return canvas


def _points(player: PlayerResult, scene: ResultScene) -> str:
    sign = "+" if scene.adds_up else "−"
    shown = f"{sign}{player.points}" if player.points and not player.winner else "0"
    return words(scene.language)("{points} pts", points=shown)


def _tag(draw: ImageDraw.ImageDraw, player: PlayerResult, right: float, middle: float, language: str) -> None:
    tag = words(language)("WINNER") if player.winner else player.note.upper()
    if tag:
        fill, ink = (theme.GOLD, theme.GOLD_DARK) if player.winner else (theme.PANEL_LINE, theme.WARN)
        tag_text = player_name(tag, font(14, "bold"), INFO_WIDTH - 40)
        labelled_pill(draw, right, middle, tag_text, 14, fill, ink)


def _line(draw: ImageDraw.ImageDraw, player: PlayerResult, top: int, scene: ResultScene) -> None:
    """One line for a player with no cards to show: name, points, standing and why."""
    bottom, middle = top + LINE_HEIGHT, top + LINE_HEIGHT / 2
    edge, edge_width = (theme.GOLD, 3) if player.winner else (theme.PANEL_LINE, 1)
    draw.rounded_rectangle(
        (PAD, top, WIDTH - PAD, bottom), radius=14, fill=theme.PANEL, outline=edge, width=edge_width
    )
    name = player_name(player.name, font(22, "bold"), INFO_WIDTH - 24)
    text(draw, (PAD + 18, middle), name, 22, theme.GOLD if player.winner else theme.INK, "bold", "lm")
    ink = theme.GOLD if player.winner else theme.WARN
    text(draw, (HAND_LEFT, middle), _points(player, scene), 26, ink, "bold", "lm")
    if player.standing:
        standing = player_name(player.standing, font(18), 220)
        text(draw, (HAND_LEFT + 170, middle), standing, 18, theme.MUTED, anchor="lm")
    no_hand = words(scene.language)("no hand shown")
    text(draw, (HAND_LEFT + 420, middle), no_hand, 18, theme.FADED, anchor="lm")
    _tag(draw, player, WIDTH - PAD - 18, middle, scene.language)


def _plate(
    canvas: Image.Image, draw: ImageDraw.ImageDraw, player: PlayerResult, top: int, scene: ResultScene
) -> None:
    bottom = top + PLATE_HEIGHT
    edge, edge_width = (theme.GOLD, 3) if player.winner else (theme.PANEL_LINE, 1)
    draw.rounded_rectangle(
        (PAD, top, WIDTH - PAD, bottom), radius=14, fill=theme.PANEL, outline=edge, width=edge_width
    )
    left = PAD + 18
    name = player_name(player.name, font(22, "bold"), INFO_WIDTH - 24)
    text(draw, (left, top + 16), name, 22, theme.GOLD if player.winner else theme.INK, "bold")
    ink = theme.GOLD if player.winner else theme.WARN
    text(draw, (left, top + 50), _points(player, scene), 34, ink, "bold")
    if player.standing:
        standing = player_name(player.standing, font(18), INFO_WIDTH - 24)
        text(draw, (left, top + 98), standing, 18, theme.MUTED)
    _tag(draw, player, PAD + INFO_WIDTH, bottom - 26, scene.language)
    row = place_row(player.groups, HAND_LEFT, WIDTH - PAD - 18 - HAND_LEFT, STYLE, 1)
    draw_labels(draw, row, top + 12, STYLE.label_size, scene.language)
    paste_cards(canvas, row, top + 12 + 24 + 6, STYLE, scene.wild_rank, scene.four_colour)


def render_result(scene: ResultScene) -> bytes:
    return encode(result_image(scene))
