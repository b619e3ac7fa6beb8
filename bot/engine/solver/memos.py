"""The solver's process-wide memos, sized together to one memory budget, and the settings a
suit search is keyed by.

Tables are keyed by a suit's counts only (never by its letter or the hand), so one table serves
all four suits and every later hand: the memos are what make most hands cheap. They are kept
together so that their limits are read against one budget, and so that a test or a benchmark
can reach them all in one place.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from bot.engine.solver.counts import _position_points
from bot.engine.solver.tables import Entry, Move, Table

_K = TypeVar("_K")
_V = TypeVar("_V")


class _Memo(Generic[_K, _V]):
    """A process-wide memo that stays within `limit` * 2 entries yet keeps what is in use.

    Entries go into a young generation; when it is full it becomes the old one (the previous
    old one is dropped, with whatever no search asked for since) and a new young one starts.
    A hit in the old generation is copied into the young one, so the tables every hand needs
    (small suits, which all hands share) survive every turnover, while the one-off tables of
    long suits age out. That is LRU-like at no cost on a young hit (a plain dict lookup), which
    is what most lookups are; a plain LRU would pay for its bookkeeping on every hit."""

    __slots__ = ("limit", "old", "young")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.young: dict[_K, _V] = {}
        self.old: dict[_K, _V] = {}

    def get(self, key: _K) -> _V | None:
        value = self.young.get(key)
        if value is None:
            value = self.old.get(key)
            if value is not None:
                self.put(key, value)
        return value

    def put(self, key: _K, value: _V) -> None:
        if len(self.young) >= self.limit:
            self.old = self.young
            self.young = {}
        self.young[key] = value

    def clear(self) -> None:
        self.young = {}
        self.old = {}

    def __len__(self) -> int:
        return len(self.young) + len(self.old)


# Limits per generation, sized from measured bytes per entry (~340 for a table, ~285 for a
# traceback, ~1,100 for a rank's set choices) so that all three stay under ~30 MB together
# (two generations each), leaving room in a 50 MB budget for melds' layouts, the moves and
# discard memos (~360 bytes per discard table: ~3 MB at most) and the computer players'
# cache of answers.
_POINTS_MEMO: _Memo[int, Table] = _Memo(24_576)
_SET_MEMO: _Memo[tuple[Any, ...], list[tuple[Any, ...]]] = _Memo(2_048)
_TRACE_MEMO: _Memo[tuple[int, Entry, bool], tuple[Any, ...]] = _Memo(16_384)
_MOVES_MEMO: _Memo[int, list[Move]] = _Memo(2_048)
# A suit's cards with one of them discarded (a 14-card hand's discard), where every card left
# must be melded: (net jokers * 16 + life code) -> the positions whose discard reaches it, as a
# bit mask.
_DISCARD_MEMO: _Memo[int, dict[int, int]] = _Memo(4_096)


def _config(
    one_joker: bool,
    four_life: bool,
    lone_set: bool,
    track: bool,
    exact: bool,
    max_set: int,
    triplet: bool,
    ace: int,
) -> tuple[Any, ...]:
    """A search's settings (see `_suit_table`), with the same packed into an int, then the
    points by position for the Ace's worth, and last whether one card of the wild rank being
    itself is all a suit needs (`_one_wild`): the memos are keyed by ints, which hash in one
    step where a nested tuple is hashed anew on every lookup (and they add no container for the
    garbage collector to walk)."""
    bits = (
        one_joker | four_life << 1 | lone_set << 2 | track << 3 | exact << 4 | max_set << 5 | triplet << 9
    ) | ace << 10
    one_wild = not (one_joker or four_life or exact or triplet)
    return (
        one_joker,
        four_life,
        lone_set,
        track,
        exact,
        max_set,
        triplet,
        bits << 45,
        _position_points(ace),
        one_wild,
    )


def _memo_key(counts: int, wild_position: int, jokers: int, config: tuple[Any, ...]) -> int:
    """One int for a suit search: counts in bits 0-44, settings in 45-58, the wild position in
    59-62, and the joker pool (which has no fixed bound) above."""
    bits: int = config[7]
    return counts | bits | wild_position << 59 | jokers << 63
