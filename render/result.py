"""A deal's result: one plate per player with their grouped hand, points charged and new standing.

The winner's plate is edged in gold and listed as the caller ordered it (the front end puts the
winner first). A phone fits the picture into about 400 x 500 px, so up to ten players must fit
1000 px at 800 wide: the hands are drawn in full while they fit, and for more players as a rack
of cards showing only their index (rank and suit), each plate then half as high.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.i18n import words
from render import theme
from render.alt_text import result_points
from render.canvas import felt, labelled_pill, text, text_width
from render.fonts import font, player_name
from render.groups import RowStyle, draw_labels, label_band, paste_cards, place_row
from render.png import encode
from render.scenes import PlayerResult, ResultScene
from render.sprites import card_height
from render.table import HEADER, header

WIDTH = theme.WIDTH
PAD = theme.PAD
STYLE = RowStyle(card_width=74, max_step=44, gap=12, label_size=theme.SMALL)
INFO_WIDTH = 220
HAND_LEFT = PAD + INFO_WIDTH + 12
HAND_WIDTH = WIDTH - PAD - 12 - HAND_LEFT
LABELS = label_band(STYLE.label_size)
PLATE_HEIGHT = 10 + LABELS + 4 + card_height(STYLE.card_width) + 10
RACKED = 44  # how much of a card shows in a rack: its rank and its suit
RACK_HEIGHT = 6 + LABELS + RACKED + 4
LINE_HEIGHT = 52  # a player whose hand is not shown (a drop, say) gets one line, not a plate of cards
GAP = 4


def plate_height(player: PlayerResult, racked: bool) -> int:
    if not player.groups:
        return LINE_HEIGHT
    return RACK_HEIGHT if racked else PLATE_HEIGHT


def result_height(players: tuple[PlayerResult, ...], racked: bool) -> int:
    return HEADER + sum(plate_height(player, racked) + GAP for player in players) + 10


def racked(players: tuple[PlayerResult, ...]) -> bool:
    """Whether the hands go in racks: only when drawn in full they would not fit a phone's box."""
    return result_height(players, False) > theme.MAX_HEIGHT


def result_image(scene: ResultScene) -> Image.Image:
    rack = racked(scene.players)
    canvas = felt(WIDTH, result_height(scene.players, rack))
    draw = ImageDraw.Draw(canvas)
    header(draw, scene.title or words(scene.language)("Result"), scene.wild_rank, scene.language)
    top = HEADER
    for player in scene.players:
        if player.groups:
            _plate(canvas, draw, player, top, scene, rack)
        else:
            _line(draw, player, top, scene)
        top += plate_height(player, rack) + GAP
    return canvas


def _tag(player: PlayerResult, language: str) -> str:
    return words(language)("WINNER") if player.winner else player.note.upper()


def _edge(draw: ImageDraw.ImageDraw, player: PlayerResult, top: int, bottom: int) -> None:
    edge, edge_width = (theme.GOLD, 3) if player.winner else (theme.PANEL_LINE, 1)
    draw.rounded_rectangle(
        (PAD, top, WIDTH - PAD, bottom), radius=12, fill=theme.PANEL, outline=edge, width=edge_width
    )


def _pill(
    draw: ImageDraw.ImageDraw, player: PlayerResult, right: float, middle: float, language: str
) -> None:
    tag = _tag(player, language)
    if tag:
        fill, ink = (theme.GOLD, theme.GOLD_DARK) if player.winner else (theme.PANEL_LINE, theme.WARN)
        shown = player_name(tag, font(theme.SMALL, "bold"), INFO_WIDTH - 30)
        labelled_pill(draw, right, middle, shown, theme.SMALL, fill, ink)


def _line(draw: ImageDraw.ImageDraw, player: PlayerResult, top: int, scene: ResultScene) -> None:
    """One line for a player with no cards to show: name, points, standing and why."""
    middle = top + LINE_HEIGHT / 2
    _edge(draw, player, top, top + LINE_HEIGHT)
    name = player_name(player.name, font(theme.TEXT, "bold"), INFO_WIDTH - 14)
    text(draw, (PAD + 14, middle), name, theme.TEXT, theme.GOLD if player.winner else theme.INK, "bold", "lm")
    ink = theme.GOLD if player.winner else theme.WARN
    points = result_points(player, scene)
    text(draw, (HAND_LEFT, middle), points, theme.TEXT, ink, "bold", "lm")
    x = HAND_LEFT + text_width(points, theme.TEXT, "bold") + 16
    tag_room = 0.0
    if tag := _tag(player, scene.language):
        tag_room = min(text_width(tag, theme.SMALL, "bold") + 2 * 0.7 * theme.SMALL, 220)
        _pill(draw, player, WIDTH - PAD - 12, middle, scene.language)
    if player.standing:
        standing = player_name(player.standing, font(theme.SMALL), WIDTH - PAD - 24 - tag_room - x)
        text(draw, (x, middle), standing, theme.SMALL, theme.MUTED, anchor="lm")


def _plate(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    player: PlayerResult,
    top: int,
    scene: ResultScene,
    rack: bool,
) -> None:
    bottom = top + plate_height(player, rack)
    _edge(draw, player, top, bottom)
    left = PAD + 14
    ink = theme.GOLD if player.winner else theme.WARN
    points = result_points(player, scene)
    if rack:  # three lines: name; points; what happened, else the standing
        name = player_name(player.name, font(theme.TEXT, "bold"), INFO_WIDTH - 14)
        text(draw, (left, top + 6), name, theme.TEXT, theme.GOLD if player.winner else theme.INK, "bold")
        text(draw, (left, top + 46), points, theme.TEXT, ink, "bold", "lm")
        if tag := _tag(player, scene.language):
            shown = player_name(tag, font(theme.SMALL, "bold"), INFO_WIDTH - 14)
            text(draw, (left, top + 72), shown, theme.SMALL, ink, "bold", "lm")
            x = left + text_width(points, theme.TEXT, "bold") + 10
            if x + text_width(player.standing, theme.SMALL) <= PAD + INFO_WIDTH:  # whole, or not at all
                text(draw, (x, top + 46), player.standing, theme.SMALL, theme.MUTED, anchor="lm")
        elif player.standing:
            standing = player_name(player.standing, font(theme.SMALL), INFO_WIDTH - 14)
            text(draw, (left, top + 72), standing, theme.SMALL, theme.MUTED, anchor="lm")
        labels_top, visible = top + 6, RACKED
    else:
        name = player_name(player.name, font(theme.NAME, "bold"), INFO_WIDTH - 14)
        text(draw, (left, top + 12), name, theme.NAME, theme.GOLD if player.winner else theme.INK, "bold")
        text(draw, (left, top + 46), points, 30, ink, "bold")
        if player.standing:
            standing = player_name(player.standing, font(theme.SMALL), INFO_WIDTH - 14)
            text(draw, (left, top + 88), standing, theme.SMALL, theme.MUTED)
        _pill(draw, player, PAD + INFO_WIDTH, bottom - 28, scene.language)
        labels_top, visible = top + 10, None
    row = place_row(player.groups, HAND_LEFT, HAND_WIDTH, STYLE, 1)
    draw_labels(draw, row, labels_top, STYLE.label_size, scene.language)
    cards_top = labels_top + LABELS + (0 if rack else 4)
    paste_cards(canvas, row, cards_top, STYLE, scene.wild_rank, scene.four_colour, visible=visible)


def render_result(scene: ResultScene) -> bytes:
    return encode(result_image(scene))
