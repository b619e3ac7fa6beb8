"""The runs a suit's lowest card can begin, and the tables of them made at import.

A cold search of a long suit meets thousands of states, and each asks which runs its lowest
card can make: reading them from tables built once (`_shapes`) rather than enumerating them is
much of what keeps such a suit fast. Where only points are sought, runs are capped at a short
span, which loses nothing (`_SPAN_POINTS`).
"""

from __future__ import annotations

from bot.engine.cards import ACE
from bot.engine.melds import HIGH_ACE, MAX_SEQUENCE
from bot.engine.solver.counts import _BITS, _MAX_COPIES, _ONE, _is_wild_position

# The longest stretch (lowest to highest natural) a run needs when only the points are sought:
# a longer run can always be split into shorter ones, or lose a wild card being itself to the
# joker pool, with no more jokers and life flags as good (two sequences where there was one,
# a pure part where the run was pure, a 4+ card part where the run was one and that flag is
# tracked). So such a run never leaves less than the shorter runs do, and the search need not
# try it; without the cap a suit of ten or more cards with a few jokers has thousands of runs
# to try from each card (every subset of the cards above it). `tests/engine/test_solver.py` checks
# the claim on every run the search can make. Shows (exact mode) still try every length,
# since a long run is room for spare jokers.
_SPAN_POINTS = 5
_SPAN_LONG_LIFE = 6  # where a 4+ card sequence is tracked (the four-card life)


def _runs(
    x: int, counts: int, jokers: int, wild_position: int, one_joker: bool, span: int = MAX_SEQUENCE
) -> list[tuple[tuple[int, ...], int, int]]:
    """Every run whose lowest natural card, but for an Ace played at position 1, sits at `x` and
    whose naturals span at most `span` positions, as (natural positions, fewest substitutes,
    natural count): first those from `x` up, then, where an Ace waits at 14 (see `_at`), those
    that play it at 1, below `x`. `counts` no longer holds the card at `x`. Naturals may skip a
    card the suit holds (a joker takes its place) because that card may be needed elsewhere."""
    max_gap = min(jokers, 1) if one_joker else jokers
    if span in _SHAPES:
        up, down = _shape_runs(x, counts, max_gap, wild_position, span)
        return [(tuple(x + offset for offset in run[0]), run[1], run[2]) for run in up] + [
            run[:3] for run in down
        ]
    found: list[tuple[tuple[int, ...], int, int]] = []
    _runs_up(found, x, (x,), 0, min(HIGH_ACE, x + span - 1), counts, max_gap, wild_position)
    if _ace_below(x, counts, max_gap, span):
        _runs_up(found, ACE, (ACE, x), x - 2, min(MAX_SEQUENCE, span), counts, max_gap, wild_position)
    return found


def _ace_below(x: int, counts: int, max_gap: int, span: int) -> bool:
    """Whether a run from `x` may play an Ace (held at 14) at 1, below `x`."""
    return (
        ACE < x <= span
        and x < HIGH_ACE
        and x - 2 <= max_gap
        and bool(counts >> (_BITS * HIGH_ACE) & _MAX_COPIES)
    )


def _shape_runs(
    x: int, counts: int, max_gap: int, wild_position: int, span: int
) -> tuple[list[Shape], list[Shape]]:
    """`_runs` for the points search, from the tables made at import: the runs up from `x`
    (relative to it) and those that play an Ace at 1 below it (where they sit)."""
    above = counts >> (_BITS * x + _BITS)
    present = sum(1 << i for i in range(span - 1) if above >> (_BITS * i) & _MAX_COPIES)
    wild = wild_position - x if x <= wild_position < x + span else span
    gaps = min(max_gap, span - 2)
    up = _SHAPES[span][present][wild][gaps]
    if not _ace_below(x, counts, max_gap, span):
        return up, []
    present &= (1 << (span - x)) - 1  # the Ace's runs reach `span` at most
    wild = ACE if wild_position == HIGH_ACE else wild_position if x <= wild_position <= span else 0
    return up, _ACE_SHAPES[span][x][present][wild][gaps]


def _runs_up(
    found: list[tuple[tuple[int, ...], int, int]],
    low: int,
    chosen: tuple[int, ...],
    gaps: int,
    top: int,
    counts: int,
    max_gap: int,
    wild_position: int,
) -> None:
    """Adds to `found` the runs from `low` that hold the naturals `chosen` (`gaps` missing among
    them) and any of the cards `counts` holds above them up to `top`, in depth-first order (a
    run before the longer ones that extend it). Plain calls appending to one list: this runs
    for every state a cold search meets, and a nest of generators cost twice as much."""
    available = [p for p in range(chosen[-1] + 1, top + 1) if counts >> (_BITS * p) & _MAX_COPIES]
    wild = [_is_wild_position(p, wild_position) for p in available]
    count = len(available)

    def extend(chosen: tuple[int, ...], start: int, gaps: int, natural: bool) -> None:
        if natural:
            size = len(chosen)
            substitutes = max(3, chosen[-1] - low + 1) - size
            if substitutes <= max_gap:
                found.append((chosen, substitutes, size))
        last = chosen[-1]
        for index in range(start, count):
            position = available[index]
            more = gaps + position - last - 1
            if more > max_gap:
                break
            extend((*chosen, position), index + 1, more, natural or not wild[index])

    extend(chosen, 0, gaps, any(not _is_wild_position(p, wild_position) for p in chosen))


# A run in the tables made at import: (naturals, fewest substitutes, natural count, the cards
# it takes beyond its lowest natural, as counts).
Shape = tuple[tuple[int, ...], int, int, int]


def _shapes(span: int) -> list[list[list[list[Shape]]]]:
    """The runs from a card with no Ace below it, relative to that card, for every pattern of
    the `span` - 1 positions above it (held or not), wild position (an offset, or `span` for
    none) and number of gaps a run may have (more than `span` - 2 allow no more runs): made
    once at import, so that a cold search finds its runs by lookup (`_runs`). Fewer gaps or a
    wild card keep a subset of the runs, in the same order: those with no more gaps and
    substitutes than allowed, and a natural that is not wild."""
    base = HIGH_ACE - span  # room above for the whole span, and no Ace below
    most = span - 2
    shapes = []
    for present in range(1 << (span - 1)):
        counts = sum(_ONE[base + 1 + i] for i in range(span - 1) if present >> i & 1)
        found: list[tuple[tuple[int, ...], int, int]] = []
        _runs_up(found, base, (base,), 0, base + span - 1, counts, most, 0)
        runs = [
            (tuple(p - base for p in chosen), substitutes, size, sum(_ONE[p - base] for p in chosen[1:]))
            for chosen, substitutes, size in found
        ]
        shapes.append(
            [
                [
                    [
                        run
                        for run in runs
                        if run[1] <= gaps
                        and run[0][-1] + 1 - run[2] <= gaps
                        and any(offset != wild for offset in run[0])
                    ]
                    for gaps in range(most + 1)
                ]
                for wild in range(span + 1)
            ]
        )
    return shapes


_SHAPES = {span: _shapes(span) for span in (_SPAN_POINTS, _SPAN_LONG_LIFE)}


def _ace_shapes(span: int) -> list[list[list[list[list[Shape]]]]]:
    """The runs that play an Ace at 1 below the card at `x` (2 to `span`), by `x`, pattern of
    the positions from `x` + 1 to `span` held, wild position (0 none, 1 the Ace, else the
    position) and gaps allowed, the same way as `_shapes` (positions here are where they sit)."""
    most = span - 2
    shapes: list[list[list[list[list[Shape]]]]] = [[], []]
    for x in range(2, span + 1):
        by_present = []
        for present in range(1 << (span - x)):
            counts = sum(_ONE[x + 1 + i] for i in range(span - x) if present >> i & 1)
            found: list[tuple[tuple[int, ...], int, int]] = []
            _runs_up(found, ACE, (ACE, x), x - 2, span, counts, most, 0)
            runs = [(*run, _ONE[HIGH_ACE] + sum(_ONE[p] for p in run[0][2:])) for run in found]
            by_present.append(
                [
                    [
                        [
                            run
                            for run in runs
                            if run[1] <= gaps
                            and run[0][-1] - run[2] <= gaps
                            and any(p != wild for p in run[0])
                        ]
                        for gaps in range(most + 1)
                    ]
                    for wild in range(span + 1)
                ]
            )
        shapes.append(by_present)
    return shapes


_ACE_SHAPES = {span: _ace_shapes(span) for span in (_SPAN_POINTS, _SPAN_LONG_LIFE)}
