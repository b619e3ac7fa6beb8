"""A suit's table, what a suit can reach: for each (net jokers, life code) the least deadwood.

The shapes the searches pass around (entries, tables, moves) and the arithmetic on tables that
the suit search, the traceback and the hand's search share: the Pareto front that keeps a
table small, and the join of the tables of parts searched apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from bot.engine.solver.life import _BELOW, _COMBINE, _HAS_PURE, _LEVEL

# A table entry is (net jokers, life code, deadwood).
Entry = tuple[int, int, int]
_E = TypeVar("_E", bound=tuple[int, ...])  # an entry, or one that carries its picks after it
_EMPTY_ENTRIES: tuple[Entry, ...] = ((0, 0, 0),)
# A suit's table with what pruning needs at hand: (entries, least deadwood, has a pure run,
# fewest net jokers, bound), where the entries are those with less deadwood than the bound
# (see `_suit_table`).
Table = tuple[Sequence[Entry], int, bool, int, int]
_UNBOUNDED = 1 << 30
_SMALL_BOUND = 8  # bounds below it fit in a memo key's lowest bits (position 0 holds no card)
_EMPTY_TABLE: Table = (_EMPTY_ENTRIES, 0, False, 0, _UNBOUNDED)
_NO_TABLE: Table = ((), 1 << 30, False, 1 << 30, _UNBOUNDED)  # cards that cannot all be melded (exact mode)


Move = tuple[int, int, list[int] | None, int]  # (cards taken, net jokers, code map, deadwood)


def _entry_order(entry: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Fewest jokers, then least deadwood, then the most life flags, and last the code itself:
    a total order, so that a table lists its entries the same way whatever order they were
    found in (a table made under a lower bound finds them in another order, see `_suit_table`),
    and an answer never depends on what the memos held before."""
    return entry[0], entry[2], -_LEVEL[entry[1]], entry[1]


def _pareto(candidates: dict[int, _E]) -> Sequence[_E]:
    """Drops every entry another beats on all counts: no more jokers, no weaker life flags,
    no more deadwood. Entries come out sorted by jokers (callers rely on it to stop early)."""
    if len(candidates) == 1:
        return tuple(candidates.values())
    beaten = [1 << 30] * 12  # beaten[c]: least deadwood kept so far with flags at least c's
    kept: list[_E] = []
    for entry in sorted(candidates.values(), key=_entry_order):
        deadwood = entry[2]
        if beaten[entry[1]] <= deadwood:
            continue
        kept.append(entry)
        for code in _BELOW[entry[1]]:
            if deadwood < beaten[code]:
                beaten[code] = deadwood
    return tuple(kept)


def _prune(candidates: dict[int, Entry], exact: bool) -> Sequence[Entry]:
    """Exact tables keep every joker count (a show must place them all); others keep the front."""
    if exact:
        return tuple(sorted(candidates.values()))
    return _pareto(candidates)


def _as_table(entries: Sequence[Entry], bound: int) -> Table:
    least = 1 << 30
    pure = False
    for _, code, deadwood in entries:
        if deadwood < least:
            least = deadwood
        pure = pure or _HAS_PURE[code]
    return entries, least, pure, entries[0][0], bound


def _no_table(bound: int) -> Table:
    """No entry below `bound` (below any bound: the cards cannot all be melded, exact mode)."""
    return _NO_TABLE if bound == _UNBOUNDED else ((), 1 << 30, False, 1 << 30, bound)


def _joined(tables: list[Table], jokers: int, exact: bool, bound: int) -> Table:
    """The table of a suit made of independent parts: every pairing of the parts' entries
    (those with less deadwood than `bound`)."""
    if any(not table[0] for table in tables):
        return _no_table(bound)
    partial = tables[0][0]
    if tables[0][4] > bound:
        partial = [entry for entry in partial if entry[2] < bound]
    for table in tables[1:]:
        candidates: dict[int, Entry] = {}
        for k, code, deadwood in partial:
            row = _COMBINE[code]
            for k2, code2, deadwood2 in table[0]:
                nk = k + k2
                if nk > jokers:
                    break
                nd = deadwood + deadwood2
                if nd >= bound:
                    continue
                ncode = row[code2]
                key = nk * 16 + ncode
                old = candidates.get(key)
                if old is None or nd < old[2]:
                    candidates[key] = (nk, ncode, nd)
        if not candidates:
            return _no_table(bound)
        partial = _prune(candidates, exact)
    if not partial:
        return _no_table(bound)
    return _as_table(partial, bound)
