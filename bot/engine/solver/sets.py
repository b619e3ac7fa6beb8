"""Sets: the ways the cards of one rank can go into sets, across suits.

Sets span suits, so the suit tables cannot hold them; but few ranks of a hand can form one, so
the hand's search enumerates these choices and, for each, joins the four suit tables.
"""

from __future__ import annotations

from typing import Any

from bot.engine.solver.counts import _ONE, _at
from bot.engine.solver.memos import _SET_MEMO


def _set_options(rank: int, counts: tuple[int, ...], jokers: int, max_size: int) -> list[tuple[Any, ...]]:
    """Every way to put cards of one rank into sets, as (cards taken from each suit's counts,
    sets, fewest jokers, most jokers); each set is (rank, suit mask, fewest jokers, most
    jokers). Sets with one natural card are left to the suit search: as runs (or, under the
    one-joker rule, as lone sets there) they are never worse."""
    key = (rank, counts, jokers, max_size)
    options = _SET_MEMO.get(key)
    if options is not None:
        return options
    masks = []
    for mask in range(1, 16):
        suits = [s for s in range(4) if mask >> s & 1]
        need = max(0, 3 - len(suits))
        if 2 <= len(suits) <= max_size and need <= jokers and all(counts[s] for s in suits):
            masks.append((mask, suits, need, max_size - len(suits)))
    options = []
    one = _ONE[_at(rank)]

    def choose(start: int, left: list[int], sets: tuple[Any, ...], need: int, most: int) -> None:
        taken = tuple((counts[s] - left[s]) * one for s in range(4))
        options.append((taken, sets, need, most))
        for index in range(start, len(masks)):
            mask, suits, set_need, set_most = masks[index]
            if need + set_need > jokers or any(left[s] == 0 for s in suits):
                continue
            for s in suits:
                left[s] -= 1
            choose(index, left, (*sets, (rank, mask, set_need, set_most)), need + set_need, most + set_most)
            for s in suits:
                left[s] += 1

    choose(0, list(counts), (), 0, 0)
    # Fullest sets first: the first choices tried then usually leave the least deadwood, and
    # the bound they set lets later choices be skipped on their floors alone.
    options.sort(key=lambda option: (-sum(option[0]), option[2]))
    _SET_MEMO.put(key, options)
    return options
