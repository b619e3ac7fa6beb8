"""The groups behind one entry of a suit's table, found again when an answer is laid out.

Tables hold plain int triples, never the groups that made them, so that the memos hold nothing
for the garbage collector to walk and a hand that is only priced never pays for its groups.
The traceback replays the table builder's choices (`_options`) and splits (`_clusters`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.melds import HIGH_ACE
from bot.engine.solver.counts import _ONE, _count, _first_card, _wild_in
from bot.engine.solver.life import _COMBINE
from bot.engine.solver.memos import _TRACE_MEMO, _memo_key
from bot.engine.solver.moves import _options
from bot.engine.solver.suit import _clusters, _suit_table
from bot.engine.solver.tables import Entry


def _trace(
    counts: int,
    wild_position: int,
    jokers: int,
    config: tuple[Any, ...],
    entry: Entry,
    apart: bool = False,
) -> tuple[Any, ...]:
    """The group descriptors behind one entry of a suit's table: replays `_options` and keeps
    the first choice whose rest table holds the matching entry (memoised like the tables), or
    splits the suit as its table was split (`apart`: see `_linked`)."""
    if not counts:
        return ()
    key = (_memo_key(counts, wild_position, jokers, config), entry, apart)
    groups = _TRACE_MEMO.get(key)
    if groups is not None:
        return groups
    extra = _count(counts, wild_position) - 1 if config[9] and wild_position else 0
    if extra > 0:  # as `_one_wild` made the table: the other copies released to the pool
        k, code, deadwood = entry
        groups = _trace(
            counts - extra * _ONE[wild_position],
            wild_position,
            jokers,
            config,
            (k + extra, code, deadwood),
            apart,
        )
        groups += (("free", wild_position),) * extra
        _TRACE_MEMO.put(key, groups)
        return groups
    parts, linked = _clusters(counts, min(jokers, 1) if config[0] else jokers, apart)
    if len(parts) > 1:
        groups = ()
        for part, pick in _split_parts(parts, linked, wild_position, jokers, config, entry):
            groups += _trace(part, _wild_in(part, wild_position), jokers, config, pick)
    else:
        rest, needed, descriptor = _step(counts, wild_position, jokers, config, entry)
        groups = _trace(rest, wild_position, jokers, config, needed)
        if descriptor is not None:
            groups = (descriptor, *groups)
    _TRACE_MEMO.put(key, groups)
    return groups


def _step(
    counts: int, wild_position: int, jokers: int, config: tuple[Any, ...], entry: Entry
) -> tuple[int, Entry, Any]:
    """The first option for the lowest card that leads to `entry`: (counts left, the entry
    it needs from their table, the group descriptor)."""
    k, code, deadwood = entry
    for rest, dk, add, dw, descriptor in _options(counts, _first_card(counts), wild_position, jokers, config):
        for e in _suit_table(rest, wild_position, jokers, config, deadwood + 1)[0]:
            if e[0] + dk == k and e[2] + dw == deadwood and (add[e[1]] if add else e[1]) == code:
                return rest, e, descriptor
    raise AssertionError("solver table and traceback disagree")


def _split_parts(
    parts: list[int], linked: bool, wild_position: int, jokers: int, config: tuple[Any, ...], entry: Entry
) -> list[tuple[int, Entry]]:
    """The parts of a suit `_clusters` split (the linked ones with their Aces shared out as
    `_linked` shares them), each with the entry of its table that together make `entry`."""
    ace = _ONE[HIGH_ACE]
    bound = entry[2] + 1
    for high in range(_count(parts[-1], HIGH_ACE) + 1 if linked else 1):
        pieces = [*parts[1:-1], parts[0] + high * ace, parts[-1] - high * ace] if linked else parts
        tables = [_suit_table(c, _wild_in(c, wild_position), jokers, config, bound)[0] for c in pieces]
        picks = _split(tables, entry)
        if picks is not None:
            return list(zip(pieces, picks, strict=True))
    raise AssertionError("solver table and traceback disagree")


def _split(tables: list[Sequence[Entry]], entry: Entry) -> list[Entry] | None:
    """One entry from each part's table that together make `entry` (see `_joined`), or None."""
    k, code, deadwood = entry

    def pick(index: int, k0: int, code0: int, deadwood0: int) -> list[Entry] | None:
        if index == len(tables):
            return [] if (k0, code0, deadwood0) == (k, code, deadwood) else None
        for e in tables[index]:
            if deadwood0 + e[2] <= deadwood:
                rest = pick(index + 1, k0 + e[0], _COMBINE[code0][e[1]], deadwood0 + e[2])
                if rest is not None:
                    return [e, *rest]
        return None

    return pick(0, 0, 0, 0)
