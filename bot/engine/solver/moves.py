"""What a suit's lowest card can do in one step of the search: be left out, begin a run, or sit
alone with jokers as a set.

`_options` states those choices once, for the table builder and the traceback alike, so that
the two cannot disagree; `_moves` gives the points search the same as plain tuples, shared by
every state that holds the same cards near that card.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.engine.melds import HIGH_ACE, LONG_LIFE, MAX_SEQUENCE
from bot.engine.solver.counts import (
    _BITS,
    _LOWEST_BITS,
    _MAX_COPIES,
    _ONE,
    _count,
    _is_wild_position,
    _without,
)
from bot.engine.solver.life import _ADD_SEQ
from bot.engine.solver.memos import _MOVES_MEMO, _config
from bot.engine.solver.runs import _SPAN_LONG_LIFE, _SPAN_POINTS, _runs, _shape_runs
from bot.engine.solver.tables import Move


def _options(
    counts: int, x: int, wild_position: int, jokers: int, config: tuple[Any, ...]
) -> Iterator[tuple[int, int, list[int] | None, int, Any]]:
    """What the card at the lowest position `x` can do, as (counts left, net jokers, life-code
    map, deadwood, group descriptor): be left out (a wild card is released to the pool), be
    the lowest natural of a run, be a lone card with jokers as a set (only where runs may not
    take two jokers, and in a show a wild card being itself, to hold spare jokers).

    The table builder and the traceback both read this, so they cannot disagree. In exact
    mode (declarations) no natural card is left out, and runs and lone sets take every number
    of spare jokers they can hold, so that every joker of a show has a place."""
    one_joker, four_life, _, _, exact, _, _, _, _, _ = config
    rest = counts - _ONE[x]
    span = MAX_SEQUENCE if exact else _SPAN_LONG_LIFE if four_life else _SPAN_POINTS
    yield from _alone(counts, x, wild_position, jokers, config)
    longest = min(jokers, 1) if one_joker else jokers
    for chosen, substitutes, size in _runs(x, rest, jokers, wild_position, one_joker, span):
        left = _without(rest, chosen[1:]) if chosen[0] == x else _without(rest - _ONE[HIGH_ACE], chosen[2:])
        for extra, add in _run_kinds(substitutes, size, longest, config):
            yield left, extra, add, 0, ("run", chosen, extra)


def _alone(
    counts: int, x: int, wild_position: int, jokers: int, config: tuple[Any, ...]
) -> Iterator[tuple[int, int, list[int] | None, int, Any]]:
    """The options of `_options` where the card at `x` joins no run."""
    _, _, lone_set, track, exact, max_set, triplet, _, points, _ = config
    rest = counts - _ONE[x]
    if triplet and _count(rest, x) >= 2:  # three identical cards: a pure sequence of their own
        yield rest - 2 * _ONE[x], 0, _ADD_SEQ[1] if track else None, 0, ("triplet", x)
    if _is_wild_position(x, wild_position):
        yield rest, -1, None, 0, ("free", x)
        if exact:  # a show may place spare jokers in a set where this card is itself
            for extra in range(2, min(jokers, max_set - 1) + 1):
                yield rest, extra, None, 0, ("lone", x, extra)
    else:
        if not exact:
            yield rest, 0, None, points[x], ("loose", x)
        if lone_set:
            for extra in range(2, min(jokers, max_set - 1 if exact else 2) + 1):
                yield rest, extra, None, 0, ("lone", x, extra)


def _run_kinds(
    substitutes: int, size: int, longest: int, config: tuple[Any, ...]
) -> list[tuple[int, list[int] | None]]:
    """The jokers a run of `size` naturals may take, each with its life-code map: in exact mode
    every number it can hold; else the fewest, and where the four-card life is tracked one
    more where that makes a three-card run a four-card one."""
    four_life, track, exact = config[1], config[3], config[4]
    if exact:
        return [
            (extra, _ADD_SEQ[(extra == 0) + 2 * (size + extra >= LONG_LIFE)])
            for extra in range(substitutes, min(longest, MAX_SEQUENCE - size) + 1)
        ]
    length = size + substitutes
    if not track:
        return [(substitutes, None)]
    kinds: list[tuple[int, list[int] | None]] = [
        (substitutes, _ADD_SEQ[(substitutes == 0) + 2 * (four_life and length >= LONG_LIFE)])
    ]
    if four_life and length == 3 and substitutes < longest:
        kinds.append((substitutes + 1, _ADD_SEQ[2]))
    return kinds


def _moves(
    counts: int, x: int, wild_position: int, jokers: int, config: tuple[Any, ...]
) -> tuple[list[Move], int]:
    """`_options` as the cards each takes (an Ace played at 1 is taken from 14), for the table
    builder, with the shift that puts those in place. In the points search they depend only on
    which cards from `x` up to the longest run tried the suit holds (not how many: a run takes
    one of each, and only an identical triplet needs three of `x`), on which of those is wild,
    on what `x` costs left out and on the jokers up to what such a run can take, so they are
    made once for every state, suit and hand that shares those: above the first few positions
    they are kept relative to `x` (a run's shape, wherever it sits), and a search meets each
    state with a plain loop instead of a nest of generators. Keyed by the cards' counts
    instead, a cold search of a long suit with copies from several decks made moves for nearly
    every state it met; keyed by what is held, it makes a third to two thirds as many. Near
    position 1, where a run may reach down to an Ace, they are kept where they are. Exact mode
    (rare) makes them afresh."""
    if config[4]:
        return [
            (counts - rest, dk, add, dw)
            for rest, dk, add, dw, _ in _options(counts, x, wild_position, jokers, config)
        ], 0
    span = _SPAN_LONG_LIFE if config[1] else _SPAN_POINTS
    window = counts >> (_BITS * x) & ((1 << (_BITS * span)) - 1)
    # The positions held, and in bit 1 (no position's lowest bit) whether a triplet of `x` is.
    triplet = config[6] and window & _MAX_COPIES >= 3
    held = (window | window >> 1 | window >> 2) & _LOWEST_BITS | triplet << 1
    if x > span:
        wild = wild_position - x + 1 if x <= wild_position < x + span else 0
        key = held | wild << 18 | config[8][x] << 21 | min(jokers, 7) << 25 | config[7] >> 15 | 1 << 50
        shift = _BITS * x
    else:
        low_ace = bool(counts >> (_BITS * HIGH_ACE) & _MAX_COPIES)  # runs may take it below x
        key = held | x << 18 | wild_position << 22 | min(jokers, 7) << 26 | low_ace << 29 | config[7] >> 15
        shift = 0
    moves = _MOVES_MEMO.young.get(key)
    if moves is None:
        moves = _MOVES_MEMO.get(key)
        if moves is None:
            moves = _made_moves(counts, x, wild_position, jokers, config, span, shift)
            _MOVES_MEMO.put(key, moves)
    return moves, shift


def _made_moves(
    counts: int, x: int, wild_position: int, jokers: int, config: tuple[Any, ...], span: int, shift: int
) -> list[Move]:
    """The points search's moves, as `_options` has them, with the runs' cards read from the
    tables made at import rather than from the runs' positions."""
    moves = [
        ((counts - rest) >> shift, dk, add, dw)
        for rest, dk, add, dw, _ in _alone(counts, x, wild_position, jokers, config)
    ]
    longest = min(jokers, 1) if config[0] else jokers
    first = _ONE[x]
    up, down = _shape_runs(x, counts - first, longest, wild_position, span)
    kinds = _POINT_RUN_KINDS[config[1]][config[3]]
    for runs, place in ((up, _BITS * x), (down, 0)):
        for _, substitutes, size, beyond in runs:
            taken = (first + (beyond << place)) >> shift
            for extra, add in kinds[substitutes][size][substitutes < longest]:
                moves.append((taken, extra, add, 0))
    return moves


# `_run_kinds` for the points search, by four-card life, tracking, substitutes, natural count and
# whether a run may take one more joker: looked up for every run a cold search meets.
_POINT_RUN_KINDS = [
    [
        [
            [
                [
                    _run_kinds(sub, size, sub + more, _config(False, four, False, track, False, 4, False, 1))
                    for more in (0, 1)
                ]
                for size in range(_SPAN_LONG_LIFE + 1)
            ]
            for sub in range(_SPAN_LONG_LIFE)
        ]
        for track in (False, True)
    ]
    for four in (False, True)
]
