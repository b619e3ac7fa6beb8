"""Which discards of a 14-card hand could leave a show, in one search for them all.

A search per discard would meet the same states above the discarded card again and again; with
the discard as a move, the search meets each state twice at most.
"""

from __future__ import annotations

from typing import Any

from bot.engine.solver.counts import _BITS, _MAX_COPIES, _ONE, _first_card
from bot.engine.solver.life import _COMBINE
from bot.engine.solver.memos import _DISCARD_MEMO, _memo_key
from bot.engine.solver.moves import _moves
from bot.engine.solver.suit import _suit_table

_NO_DISCARDS: dict[int, int] = {}


def _discard_table(
    counts: int, wild_position: int, jokers: int, config: tuple[Any, ...], allowed: int
) -> dict[int, int]:
    """Which of a suit's cards (of the positions `allowed`, a mask shaped like `counts`) can be
    discarded so that the rest melds with nothing left over, and with what: one search with the
    discard as a move (the lowest card is discarded, or plays as in `_suit_table` and the
    discard comes later), instead of a search per discard. Those would meet the same states
    only above the discarded card; this one meets each state twice at most, with the discard
    still to make and (in `_suit_table`'s memo) without, and stops where no allowed card is left."""
    if not counts & allowed:
        return _NO_DISCARDS
    key = _memo_key(counts, wild_position, jokers, config) | allowed << 80
    table = _DISCARD_MEMO.get(key)
    if table is not None:
        return table
    table = {}
    x = _first_card(counts)
    if allowed >> (_BITS * x) & _MAX_COPIES:
        bit = 1 << x
        for k, code, deadwood in _suit_table(counts - _ONE[x], wild_position, jokers, config, 1)[0]:
            if not deadwood:  # (a whole table the memo held serves too)
                table[k * 16 + code] = table.get(k * 16 + code, 0) | bit
    moves, shift = _moves(counts, x, wild_position, jokers, config)
    most = (jokers + 1) * 16  # keys at or above it take too many jokers
    young = _DISCARD_MEMO.young
    for taken, dk, add, dw in moves:
        if dw:
            continue
        taken <<= shift
        # As in `_suit_table`, the rest's key is this key less the cards taken: a memo hit, the
        # common case, costs no call (and no table is stored for counts `allowed` misses).
        rest = young.get(key - taken)
        if rest is None:
            rest = _discard_table(counts - taken, wild_position, jokers, config, allowed)
        if add is None:
            for reached, mask in rest.items():
                reached += dk * 16
                if reached < most:
                    table[reached] = table.get(reached, 0) | mask
        else:
            for reached, mask in rest.items():
                if reached + dk * 16 < most:
                    reached = (reached >> 4) * 16 + dk * 16 + add[reached & 15]
                    table[reached] = table.get(reached, 0) | mask
    _DISCARD_MEMO.put(key, table)
    return table


def _joined_keys(parts: list[dict[int, int]], jokers: int) -> dict[int, int]:
    """Every (net jokers * 16 + life code) the parts reach together, each with the union of the
    masks of the entries that reach it (the parts other than a discard's carry 0)."""
    joined = {0: 0}
    for part in parts:
        merged: dict[int, int] = {}
        for key, mask in joined.items():
            k, code = divmod(key, 16)
            row = _COMBINE[code]
            for key2, mask2 in part.items():
                k2, code2 = divmod(key2, 16)
                if k + k2 <= jokers:
                    combined = (k + k2) * 16 + row[code2]
                    merged[combined] = merged.get(combined, 0) | mask | mask2
        joined = merged
    return joined
