"""Suit pips, the wild star and the court motifs as vector shapes.

Fonts differ in whether and how they draw ♠♥♦♣, so the pips are polygons computed here. They are
drawn on the supersampled card canvas (see `sprites`), which is what smooths their edges.
Every function draws centred on (cx, cy) inside a box about `size` pixels high.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from PIL import ImageDraw

from bot.engine.cards import Suit

Point = tuple[float, float]
Fill = tuple[int, ...]


def _heart_curve(steps: int = 96) -> Iterator[Point]:
    """The classic heart curve, in units where the shape is 1 wide, about 0.92 high, centred at 0."""
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        yield x / 32, -(y + 2.5) / 32


def heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: Fill) -> None:
    draw.polygon([(cx + x * size * 1.08, cy + y * size * 1.08) for x, y in _heart_curve()], fill=fill)


def spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: Fill) -> None:
    body = size * 0.98
    top = cy - size * 0.07
    draw.polygon([(cx + x * body, top - y * body) for x, y in _heart_curve()], fill=fill)
    _stem(draw, cx, cy + size * 0.08, size, fill)


def club(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: Fill) -> None:
    radius = size * 0.235
    for dx, dy in ((0.0, -0.24), (-0.25, 0.09), (0.25, 0.09)):
        x, y = cx + dx * size, cy + dy * size
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill)
    draw.polygon(
        [(cx - size * 0.12, cy - size * 0.05), (cx + size * 0.12, cy - size * 0.05), (cx, cy + size * 0.2)],
        fill=fill,
    )
    _stem(draw, cx, cy + size * 0.06, size, fill)


def _stem(draw: ImageDraw.ImageDraw, cx: float, top: float, size: float, fill: Fill) -> None:
    """A flared foot, narrow at the top, shared by spades and clubs."""
    bottom = top + size * 0.42
    points = [(cx - size * 0.035, top)]
    for i in range(9):  # concave left side
        t = i / 8
        points.append((cx - size * (0.035 + 0.19 * t**2.2), top + (bottom - top) * t))
    points += [(cx + x_offset, y) for x_offset, y in ((-(p[0] - cx), p[1]) for p in reversed(points))]
    draw.polygon(points, fill=fill)


def diamond(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: Fill) -> None:
    half_w, half_h = size * 0.40, size * 0.50
    corners = [(cx, cy - half_h), (cx + half_w, cy), (cx, cy + half_h), (cx - half_w, cy)]
    points: list[Point] = []
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
        # Sides bow slightly inwards, as printed diamonds do.
        mx, my = (x0 + x1) / 2 + (cx - (x0 + x1) / 2) * 0.12, (y0 + y1) / 2 + (cy - (y0 + y1) / 2) * 0.12
        for i in range(12):
            t = i / 12
            points.append(
                (
                    (1 - t) ** 2 * x0 + 2 * (1 - t) * t * mx + t**2 * x1,
                    (1 - t) ** 2 * y0 + 2 * (1 - t) * t * my + t**2 * y1,
                )
            )
    draw.polygon(points, fill=fill)


PIPS = {Suit.HEARTS: heart, Suit.SPADES: spade, Suit.CLUBS: club, Suit.DIAMONDS: diamond}


def pip(draw: ImageDraw.ImageDraw, suit: Suit, cx: float, cy: float, size: float, fill: Fill) -> None:
    PIPS[suit](draw, cx, cy, size, fill)


def star(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: Fill) -> None:
    outer, inner = size / 2, size * 0.2
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + size * 0.05 + radius * math.sin(angle)))
    draw.polygon(points, fill=fill)


def crown(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: Fill, jewel: Fill, peaks: int = 3
) -> None:
    """A king's crown (3 peaks) or a queen's lower, finer one (5 peaks)."""
    half = size / 2
    base, top = cy + size * 0.32, cy - size * (0.34 if peaks == 3 else 0.18)
    valley = cy + size * (0.02 if peaks == 3 else 0.06)
    points = [(cx - half, base), (cx - half, top)]
    for i in range(peaks - 1):
        x_valley = cx - half + size * (i + 0.5) / (peaks - 1)
        points += [(x_valley, valley), (cx - half + size * (i + 1) / (peaks - 1), top)]
    points.append((cx + half, base))
    draw.polygon(points, fill=fill)
    draw.rectangle((cx - half, base, cx + half, base + size * 0.14), fill=fill)
    ball = size * (0.075 if peaks == 3 else 0.05)
    for i in range(peaks):
        x = cx - half + size * i / (peaks - 1)
        draw.ellipse((x - ball, top - ball * 1.6, x + ball, top + ball * 0.4), fill=fill)
    gem = size * 0.07
    for dx in (-0.3, 0.0, 0.3):
        x, y = cx + dx * size, base + size * 0.07
        draw.ellipse((x - gem, y - gem * 0.8, x + gem, y + gem * 0.8), fill=jewel)


def sword(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: Fill, jewel: Fill) -> None:
    """The jack's motif: an upright sword."""
    blade = size * 0.07
    tip, guard = cy - size * 0.5, cy + size * 0.18
    draw.polygon(
        [
            (cx, tip),
            (cx + blade, tip + size * 0.1),
            (cx + blade, guard),
            (cx - blade, guard),
            (cx - blade, tip + size * 0.1),
        ],
        fill=fill,
    )
    draw.rounded_rectangle(
        (cx - size * 0.26, guard, cx + size * 0.26, guard + size * 0.07), radius=size * 0.035, fill=fill
    )
    draw.rectangle((cx - blade * 0.8, guard, cx + blade * 0.8, cy + size * 0.42), fill=fill)
    knob = size * 0.08
    draw.ellipse((cx - knob, cy + size * 0.4, cx + knob, cy + size * 0.4 + 2 * knob), fill=jewel)


def cap(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, colours: tuple[Fill, ...], line: Fill
) -> None:
    """The jester's three-horned cap alone, the printed joker's "suit" in its index column."""
    band_y = cy + size * 0.3
    for (tip_dx, tip_dy), colour in zip(((-0.5, -0.2), (0.0, -0.5), (0.5, -0.2)), colours, strict=True):
        tip = (cx + tip_dx * size, cy + tip_dy * size)
        base = cx + tip_dx * size * 0.5
        draw.polygon(
            [(base - size * 0.22, band_y), tip, (base + size * 0.22, band_y)], fill=colour, outline=line
        )
        bell = size * 0.09
        draw.ellipse(
            (tip[0] - bell, tip[1] - bell, tip[0] + bell, tip[1] + bell), fill=colours[-1], outline=line
        )
    draw.rectangle(
        (cx - size * 0.4, band_y - size * 0.02, cx + size * 0.4, band_y + size * 0.14),
        fill=colours[0],
        outline=line,
    )


def jester(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    size: float,
    colours: tuple[Fill, ...],
    face: Fill,
    line: Fill,
) -> None:
    """The printed joker's art: a three-horned jester's cap with bells over a smiling face."""
    band_y = cy - size * 0.02
    horns = ((-0.5, -0.32), (0.0, -0.52), (0.5, -0.32))
    for (tip_dx, tip_dy), colour in zip(horns, colours, strict=True):
        tip = (cx + tip_dx * size, cy + tip_dy * size)
        base_centre = cx + tip_dx * size * 0.45
        draw.polygon(
            [(base_centre - size * 0.2, band_y), tip, (base_centre + size * 0.2, band_y)],
            fill=colour,
            outline=line,
            width=max(1, round(size * 0.012)),
        )
        bell = size * 0.06
        draw.ellipse(
            (tip[0] - bell, tip[1] - bell, tip[0] + bell, tip[1] + bell), fill=colours[-1], outline=line
        )
    draw.rounded_rectangle(
        (cx - size * 0.36, band_y - size * 0.02, cx + size * 0.36, band_y + size * 0.09),
        radius=size * 0.04,
        fill=colours[0],
        outline=line,
    )
    head = size * 0.26
    head_cy = band_y + size * 0.09 + head * 0.92
    draw.ellipse(
        (cx - head, head_cy - head, cx + head, head_cy + head),
        fill=face,
        outline=line,
        width=max(1, round(size * 0.012)),
    )
    eye = size * 0.035
    for dx in (-0.1, 0.1):
        draw.ellipse(
            (
                cx + dx * size - eye,
                head_cy - head * 0.3 - eye,
                cx + dx * size + eye,
                head_cy - head * 0.3 + eye,
            ),
            fill=line,
        )
    draw.arc(
        (cx - head * 0.55, head_cy - head * 0.45, cx + head * 0.55, head_cy + head * 0.55),
        start=20,
        end=160,
        fill=line,
        width=max(1, round(size * 0.02)),
    )
    cheek = size * 0.04
    for dx in (-0.17, 0.17):
        x, y = cx + dx * size, head_cy + head * 0.15
        draw.ellipse((x - cheek, y - cheek, x + cheek, y + cheek), fill=colours[0])
