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
from dataclasses import dataclass
from itertools import accumulate

from PIL import Image, ImageDraw

from bot.i18n import words
from render import theme
from render.canvas import felt, text, text_width
from render.fonts import clean_text, font, player_name
from render.png import encode
from render.scenes import StandingsRow, StandingsScene

WIDTH = theme.WIDTH
PAD = theme.PAD
HEADER = 62
ROW = 40
MARKER = 30  # the row's colour and shape, before the name
NAME_WIDTH = (120, 220)  # the name column's narrowest and widest
DEAL_WIDTH = 50
MAX_DEAL_COLUMNS = 9
TOTAL_WIDTH = 70
STATUS_WIDTH = 170  # at most; the deals' columns give way to it
CHART_HEIGHT = 220
CHART_SCALE = 2  # the chart's lines are drawn twice as large and reduced, to smooth them
NOTE = 30  # a line of notes under the chart
MARKERS = ("circle", "square", "triangle", "diamond")  # 4 shapes by 10 colours: 20 told apart


def standings_height(rows: int, note_lines: int = 0) -> int:
    return HEADER + ROW + rows * ROW + 16 + CHART_HEIGHT + 12 + note_lines * NOTE + (18 if note_lines else 12)


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


def note_lines(scene: StandingsScene) -> list[str]:
    """The notes, each wrapped to the picture's width (a note is never cut)."""
    return [
        part
        for note in scene.notes
        for part in wrapped(clean_text(note), theme.SMALL, "regular", WIDTH - 2 * PAD)
    ]


def wrapped(line: str, size: int, weight: str, width: float) -> list[str]:
    """`line` cut between words into parts no wider than `width` (a longer word is cut later)."""
    parts: list[str] = []
    for word in line.split():
        joined = f"{parts[-1]} {word}" if parts else word
        if parts and text_width(joined, size, weight) <= width:
            parts[-1] = joined
        else:
            parts.append(word)
    return parts


@dataclass(frozen=True, slots=True)
class Columns:
    """Where the table's columns go: the name's width, the deals shown, the total's right edge
    and the status's left edge and width."""

    name: float
    deals: range
    deals_left: float
    total_right: float
    status_left: float
    status_width: float


def columns(scene: StandingsScene, deals: int, status_head: str) -> Columns:
    """The columns for this table: the names and statuses as wide as they need (within limits),
    and as many of the last deals as the rest of the width holds."""
    names = max((text_width(clean_text(row.name), theme.TEXT, "bold") for row in scene.rows), default=0)
    name = min(NAME_WIDTH[1], max(NAME_WIDTH[0], names + 8))
    statuses = max((text_width(clean_text(row.status), theme.SMALL) for row in scene.rows), default=0)
    if statuses:
        statuses = max(statuses, text_width(status_head, theme.SMALL, "bold"))
    status = min(STATUS_WIDTH, statuses + 14) if statuses else 0
    room = WIDTH - 2 * PAD - MARKER - name - TOTAL_WIDTH - status
    shown = max(0, min(deals, MAX_DEAL_COLUMNS, int(room // DEAL_WIDTH)))
    deals_left = PAD + MARKER + name
    total_right = deals_left + shown * DEAL_WIDTH + TOTAL_WIDTH
    return Columns(name, range(deals - shown, deals), deals_left, total_right, total_right + 14, status - 14)


def standings_image(scene: StandingsScene) -> Image.Image:
    notes = note_lines(scene)
    canvas = felt(WIDTH, standings_height(len(scene.rows), len(notes)))
    draw = ImageDraw.Draw(canvas)
    text(
        draw,
        (PAD, HEADER / 2),
        player_name(scene.title, font(theme.TITLE, "bold"), WIDTH - 2 * PAD),
        theme.TITLE,
        theme.INK,
        "bold",
        "lm",
    )
    deals = max((len(row.scores) for row in scene.rows), default=0)
    _ = words(scene.language)
    labels = scene.columns or tuple(_("D{number}", number=i + 1) for i in range(deals))
    at = columns(scene, deals, _("Status"))
    head_y = HEADER + ROW / 2
    text(draw, (PAD + MARKER, head_y), _("Player"), theme.SMALL, theme.MUTED, "bold", "lm")
    for column, deal in enumerate(at.deals):
        label = labels[deal] if deal < len(labels) else _("D{number}", number=deal + 1)
        text(
            draw,
            (at.deals_left + (column + 0.5) * DEAL_WIDTH, head_y),
            label,
            theme.SMALL,
            theme.MUTED,
            "bold",
            "mm",
        )
    text(draw, (at.total_right, head_y), _("Total"), theme.SMALL, theme.MUTED, "bold", "rm")
    if at.status_width > 0:
        head = player_name(_("Status"), font(theme.SMALL, "bold"), at.status_width)
        text(draw, (at.status_left, head_y), head, theme.SMALL, theme.MUTED, "bold", "lm")
    for index, row in enumerate(scene.rows):
        top = HEADER + ROW + index * ROW
        middle = top + ROW / 2
        if index % 2 == 0:
            draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + ROW), radius=10, fill=theme.PANEL)
        colour, shape = style(scene, index)
        marker(draw, shape, PAD + 15, middle, 8, colour)
        name = player_name(row.name, font(theme.TEXT, "bold"), at.name - 8)
        text(draw, (PAD + MARKER, middle), name, theme.TEXT, theme.INK, "bold", "lm")
        for column, deal in enumerate(at.deals):
            score = row.scores[deal] if deal < len(row.scores) else None
            value, ink = ("–", theme.FADED) if score is None else (str(score), theme.INK)
            if score is not None and deal < len(row.marked) and row.marked[deal]:
                value += scene.mark
            centre = at.deals_left + (column + 0.5) * DEAL_WIDTH
            text(draw, (centre, middle), value, theme.SMALL, ink, "regular", "mm")
        text(draw, (at.total_right, middle), str(row.total), theme.TEXT, theme.GOLD, "bold", "rm")
        if row.status and at.status_width > 0:
            status = player_name(row.status, font(theme.SMALL), at.status_width)
            ink = theme.WARN if row.out else theme.MUTED  # the warning colour means out, and only that
            text(draw, (at.status_left, middle), status, theme.SMALL, ink, "regular", "lm")
    chart_top = HEADER + ROW + len(scene.rows) * ROW + 16
    canvas.paste(_chart(scene, WIDTH - 2 * PAD, CHART_HEIGHT), (PAD, chart_top))
    for line, note in enumerate(notes):
        y = chart_top + CHART_HEIGHT + 12 + (line + 0.5) * NOTE
        text(draw, (PAD, y), note, theme.SMALL, theme.MUTED, "regular", "lm")
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
    """Each player's running total: lines drawn large and reduced, then the words at their size."""
    s = CHART_SCALE
    image = Image.new("RGB", (width * s, height * s), theme.PANEL)
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = 56 * s, (width - 20) * s, 20 * s, (height - 34) * s
    words_on: list[tuple[tuple[float, float], str, theme.RGB, str, str]] = []  # drawn once reduced
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
        words_on.append(((left - 10 * s, y), str(value), theme.MUTED, "regular", "rm"))
    every = max(1, math.ceil(deals / 12))  # deal numbers far enough apart to read
    for deal in range(0, deals + 1, every):
        words_on.append(((x_of(deal), bottom + 18 * s), str(deal), theme.MUTED, "regular", "mm"))
    if scene.limit:
        y = y_of(scene.limit)
        for x in range(left, right, 18 * s):
            draw.line((x, y, min(x + 10 * s, right), y), fill=theme.WARN, width=2 * s)
        out_at = words(scene.language)("out at {limit}", limit=scene.limit)
        words_on.append(((right, y - 6 * s), out_at, theme.WARN, "bold", "rd"))
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
    reduced = image.reduce(s)
    draw = ImageDraw.Draw(reduced)
    for (at_x, at_y), label, ink, weight, anchor in words_on:
        text(draw, (at_x / s, at_y / s), label, theme.SMALL, ink, weight, anchor)
    return reduced


def render_standings(scene: StandingsScene) -> bytes:
    return encode(standings_image(scene))
