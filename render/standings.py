"""A league or match table with a small chart of each player's running total over the deals.

Each player keeps one colour and one marker shape (circle, square, triangle, diamond) in the
table's key and the chart's line, so the two read together, and readers who do not tell the
colours apart follow the shapes. A row may name its colour (a league member keeps theirs from
one picture to the next while their rank changes).
Only the last `MAX_DEAL_COLUMNS` deals get a column (the chart still shows them all), which keeps
the picture's size fixed by the number of players alone.
"""

from __future__ import annotations

import math
from itertools import accumulate

from PIL import Image, ImageDraw

from bot.i18n import words
from render import theme
from render.canvas import felt, text
from render.fonts import font, player_name
from render.png import encode
from render.scenes import StandingsRow, StandingsScene

WIDTH = 1200
PAD = 34
HEADER = 70
ROW = 44
NAME_WIDTH = 300
DEAL_WIDTH = 62
MAX_DEAL_COLUMNS = 9
TOTAL_WIDTH = 110
CHART_HEIGHT = 260
CHART_SCALE = 2  # the chart is drawn twice as large and reduced, to smooth its lines
NOTE = 28  # a line of notes under the chart
MARKERS = ("circle", "square", "triangle", "diamond")  # 4 shapes by 10 colours: 20 told apart


def standings_height(rows: int, notes: int = 0) -> int:
    return HEADER + ROW + rows * ROW + 24 + CHART_HEIGHT + 24 + notes * NOTE


def style(scene: StandingsScene, index: int) -> tuple[tuple[int, int, int], str]:
    """A row's colour and marker: its own where it names one, else its place in the table."""
    key = scene.rows[index].colour
    key = index if key is None else key
    return theme.SERIES[key % len(theme.SERIES)], MARKERS[key % len(MARKERS)]


def marker(
    draw: ImageDraw.ImageDraw, shape: str, x: float, y: float, r: float, fill: tuple[int, int, int]
) -> None:
    if shape == "square":
        draw.rectangle((x - r * 0.85, y - r * 0.85, x + r * 0.85, y + r * 0.85), fill=fill)
    elif shape == "triangle":
        draw.polygon([(x, y - r * 1.1), (x + r, y + r * 0.75), (x - r, y + r * 0.75)], fill=fill)
    elif shape == "diamond":
        draw.polygon([(x, y - r * 1.15), (x + r * 1.15, y), (x, y + r * 1.15), (x - r * 1.15, y)], fill=fill)
    else:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def standings_image(scene: StandingsScene) -> Image.Image:
    canvas = felt(WIDTH, standings_height(len(scene.rows), len(scene.notes)))
    draw = ImageDraw.Draw(canvas)
    text(draw, (PAD, HEADER / 2), scene.title, 26, theme.INK, "bold", "lm")
    deals = max((len(row.scores) for row in scene.rows), default=0)
    _ = words(scene.language)
    labels = scene.columns or tuple(_("D{number}", number=i + 1) for i in range(deals))
    shown = range(max(0, deals - MAX_DEAL_COLUMNS), deals)
    deals_left = PAD + NAME_WIDTH
    total_x = deals_left + MAX_DEAL_COLUMNS * DEAL_WIDTH + TOTAL_WIDTH
    head_y = HEADER + ROW / 2
    text(draw, (PAD + 40, head_y), _("Player"), 17, theme.MUTED, "bold", "lm")
    for column, deal in enumerate(shown):
        label = labels[deal] if deal < len(labels) else _("D{number}", number=deal + 1)
        text(draw, (deals_left + (column + 0.5) * DEAL_WIDTH, head_y), label, 17, theme.MUTED, "bold", "mm")
    text(draw, (total_x, head_y), _("Total"), 17, theme.MUTED, "bold", "rm")
    text(draw, (total_x + 30, head_y), _("Status"), 17, theme.MUTED, "bold", "lm")
    for index, row in enumerate(scene.rows):
        top = HEADER + ROW + index * ROW
        middle = top + ROW / 2
        if index % 2 == 0:
            draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + ROW), radius=10, fill=theme.PANEL)
        colour, shape = style(scene, index)
        marker(draw, shape, PAD + 22, middle, 8, colour)
        name = player_name(row.name, font(20, "bold"), NAME_WIDTH - 50)
        text(draw, (PAD + 40, middle), name, 20, theme.INK, "bold", "lm")
        for column, deal in enumerate(shown):
            score = row.scores[deal] if deal < len(row.scores) else None
            value, ink = ("–", theme.FADED) if score is None else (str(score), theme.INK)
            if score is not None and deal < len(row.marked) and row.marked[deal]:
                value, ink = value + scene.mark, theme.WARN
            text(draw, (deals_left + (column + 0.5) * DEAL_WIDTH, middle), value, 19, ink, "regular", "mm")
        text(draw, (total_x, middle), str(row.total), 21, theme.GOLD, "bold", "rm")
        if row.status:
            status = player_name(row.status, font(18), WIDTH - PAD - total_x - 40)
            text(draw, (total_x + 30, middle), status, 18, theme.WARN, "regular", "lm")
    chart_top = HEADER + ROW + len(scene.rows) * ROW + 24
    chart = _chart(scene, WIDTH - 2 * PAD, CHART_HEIGHT)
    canvas.paste(chart, (PAD, chart_top))
    for line, note in enumerate(scene.notes):
        y = chart_top + CHART_HEIGHT + 24 + (line + 0.5) * NOTE
        text(draw, (PAD, y), player_name(note, font(17), WIDTH - 2 * PAD), 17, theme.MUTED, "regular", "lm")
    return canvas


def _running_totals(row: StandingsRow) -> list[int]:
    """Totals after each deal up to the last one the player took part in: trailing Nones end the
    line (out of the pool), a None between scores (a league night missed) keeps the total flat."""
    played = list(row.scores)
    while played and played[-1] is None:
        played.pop()
    return [0, *accumulate(score or 0 for score in played)]


def _nice_step(rough: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50... at least `rough`, so the axis reads 0, 25, 50."""
    magnitude = 10 ** max(0, math.floor(math.log10(max(rough, 1))))
    return next(
        int(step * magnitude)
        for step in (1, 2, 2.5, 5, 10)
        if step * magnitude >= rough and float(step * magnitude).is_integer()
    )


def _chart(scene: StandingsScene, width: int, height: int) -> Image.Image:
    s = CHART_SCALE
    image = Image.new("RGB", (width * s, height * s), theme.PANEL)
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = 60 * s, (width - 24) * s, 20 * s, (height - 34) * s
    series = [_running_totals(row) for row in scene.rows]
    deals = max((len(points) - 1 for points in series), default=0) or 1
    peak = max([scene.limit or 0, *(max(points) for points in series), 10])
    tick = _nice_step(peak / 4)
    ceiling = tick * math.ceil(peak * 1.04 / tick)

    def x_of(deal: int) -> float:
        return left + (right - left) * deal / deals

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * value / ceiling

    for value in range(0, round(ceiling) + 1, tick):
        y = y_of(value)
        draw.line((left, y, right, y), fill=theme.PANEL_LINE, width=s)
        text(draw, (left - 12 * s, y), str(value), 15 * s, theme.MUTED, "regular", "rm")
    for deal in range(deals + 1):
        text(draw, (x_of(deal), bottom + 18 * s), str(deal), 15 * s, theme.MUTED, "regular", "mm")
    if scene.limit:
        y = y_of(scene.limit)
        for x in range(left, right, 18 * s):
            draw.line((x, y, min(x + 10 * s, right), y), fill=theme.WARN, width=2 * s)
        out_at = words(scene.language)("out at {limit}", limit=scene.limit)
        text(draw, (right, y - 6 * s), out_at, 15 * s, theme.WARN, "bold", "rd")
    # Lines that share values would hide one another: each is nudged a few pixels up or down
    # (at most 6 either way), little enough to read every value, enough to see every line.
    spread = min(3.0, 12 / max(len(series) - 1, 1)) * s
    for index, points in enumerate(series):
        colour, shape = style(scene, index)
        nudge = (index - (len(series) - 1) / 2) * spread
        xy = [(x_of(deal), y_of(value) + nudge) for deal, value in enumerate(points)]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=3 * s, joint="curve")
        for point_x, point_y in xy:
            marker(draw, shape, point_x, point_y, 6 * s, colour)
    return image.reduce(s)


def render_standings(scene: StandingsScene) -> bytes:
    return encode(standings_image(scene))
