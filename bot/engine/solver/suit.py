"""One suit's table: the memoised search over a suit's counts that every price is built from.

Runs never leave their suit, so each suit is solved on its own and its table joined with the
others' (and the sets) by the hand's search. What keeps a long suit with several jokers fast is
said where it is done: a table holds only what could beat a bound (`_suit_table`), a suit keeps
one card of the wild rank where that is all it needs (`_one_wild`), and parts no run can bridge
are searched apart (`_clusters`, `_linked`).
"""

from __future__ import annotations

from typing import Any

from bot.engine.melds import HIGH_ACE
from bot.engine.solver.counts import (
    _BITS,
    _LOWEST_BITS,
    _MAX_COPIES,
    _ONE,
    _count,
    _first_card,
    _wild_in,
)
from bot.engine.solver.memos import _POINTS_MEMO, _memo_key
from bot.engine.solver.moves import _moves
from bot.engine.solver.tables import (
    _EMPTY_TABLE,
    _SMALL_BOUND,
    _UNBOUNDED,
    Entry,
    Table,
    _as_table,
    _joined,
    _no_table,
    _prune,
)


def _suit_table(
    counts: int,
    wild_position: int,
    jokers: int,
    config: tuple[Any, ...],
    bound: int = _UNBOUNDED,
    apart: bool = False,
) -> Table:
    """The table of one suit: for each (net jokers, life code), the least deadwood; in exact
    mode, every (net jokers, life code) reachable with every natural card melded. Entries are
    plain int triples, so the memo holds nothing the garbage collector has to walk; the groups
    behind an entry are found again by `_trace` when an answer is laid out. `config` is (one
    joker per run, four-card life, lone sets, track life flags, exact, largest set, identical
    triplets).

    Only entries with less deadwood than `bound` are made, and a table made with a higher
    bound serves any lower one. The searches ask for whole tables but where they must beat
    fewer than 8 points (a show, or a 14-card hand's discards once one leaves a few points):
    then loose cards worth that much are never tried, and such a table is made in a few
    states. Those small bounds are kept apart in the memo (in the key's lowest bits, where no
    position is), so they never stand in for a whole table: tables remade under a higher bound
    cost common hands more than a bound saved. A traceback asks only for the entries up to the
    one it follows, which a table it finds in the memo always has. Dropping entries at or over
    the bound drops nothing that beats entries under it, so the entries kept are exactly those
    of the whole table below the bound. With `apart`, a last part that only the Aces link to
    the first is searched apart from it (`_linked`): the same table, made another way."""
    key = _memo_key(counts, wild_position, jokers, config)
    table = _POINTS_MEMO.young.get(key)  # the common hit, without a call
    if table is None:
        table = _POINTS_MEMO.get(key)
    if table is not None and table[4] >= bound:
        return table
    if bound < _SMALL_BOUND:
        key |= bound
        table = _POINTS_MEMO.get(key)
        if table is not None:
            return table
    x = _first_card(counts)
    if not x:
        return _EMPTY_TABLE
    if config[9] and wild_position:
        copies = counts >> (_BITS * wild_position) & _MAX_COPIES
        if copies > 1:
            table = _one_wild(counts, wild_position, jokers, config, bound, copies - 1, apart)
            _POINTS_MEMO.put(key, table)
            return table
    exact = config[4]
    parts, linked = _clusters(counts, min(jokers, 1) if config[0] else jokers, apart)
    if len(parts) > 1:
        tables = [
            _suit_table(c, _wild_in(c, wild_position), jokers, config, bound)
            for c in parts[linked : len(parts) - linked]
        ]
        if linked:
            tables.append(_linked(parts[0], parts[-1], wild_position, jokers, config, bound))
        table = _joined(tables, jokers, exact, bound)
        _POINTS_MEMO.put(key, table)
        return table
    candidates: dict[int, Entry] = {}
    memo = _POINTS_MEMO
    moves, shift = _moves(counts, x, wild_position, jokers, config)
    for taken, dk, add, dw in moves:
        if dw >= bound:
            continue
        taken <<= shift
        # The rest's key is this key less the cards taken (they sit in its low bits): a memo
        # hit, the common case, then costs no call.
        rest = memo.young.get(key - taken)
        if rest is None or rest[4] < bound:
            rest = _suit_table(counts - taken, wild_position, jokers, config, bound)
        for k, code, deadwood in rest[0]:
            nk = k + dk
            if nk > jokers:
                break  # entries come sorted by jokers
            nd = deadwood + dw
            if nd >= bound:
                continue
            ncode = add[code] if add is not None else code
            key2 = nk * 16 + ncode
            old = candidates.get(key2)
            if old is None or nd < old[2]:
                candidates[key2] = (nk, ncode, nd)
    table = _as_table(_prune(candidates, exact), bound) if candidates else _no_table(bound)
    _POINTS_MEMO.put(key, table)
    return table


def _one_wild(
    counts: int, wild_position: int, jokers: int, config: tuple[Any, ...], bound: int, extra: int, apart: bool
) -> Table:
    """The table of a suit holding `extra` + 1 cards of the wild rank: that of the suit with one,
    the `extra` others released to the pool. Exact where a run may take any number of jokers
    and neither a four-card run nor identical triplets count (`_config`): a second wild card
    being itself in a run can be a joker there instead, released and taken back (no more net
    jokers, no more deadwood, the same sequences), and only one pure sequence counts, so one
    such card being itself is all any entry needs. With three decks a suit may hold three
    copies, and each copy left in would multiply the states the search meets. (`_trace` lays
    such a suit out the same way.)"""
    entries, least, pure, fewest, made = _suit_table(
        counts - extra * _ONE[wild_position], wild_position, jokers, config, bound, apart
    )
    return (
        tuple((k - extra, code, deadwood) for k, code, deadwood in entries),
        least,
        pure,
        fewest - extra,
        made,
    )


def _clusters(counts: int, max_gap: int, apart: bool = False) -> tuple[list[int], bool]:
    """Splits a suit where no run can bridge a gap (more than `max_gap` missing positions),
    so that each part's table is shared by every suit that holds the same few cards. An Ace
    (kept at 14) may still play at 1, which ties the last part to the first: the last part
    joins the first, but with `apart` one that holds one Ace and other cards stays apart,
    linked to the first (see `_linked`), which the second value says. (It visits the held positions
    only, found with bit tricks: a suit holds three or four of its 14.)"""
    clusters: list[int] = []
    current = 0
    previous = -HIGH_ACE
    held = (counts | counts >> 1 | counts >> 2) & _LOWEST_BITS
    while held:
        low = held & -held
        held ^= low
        shift = low.bit_length() - 1
        position = shift // _BITS
        if position - previous - 1 > max_gap and current:
            clusters.append(current)
            current = 0
        current |= counts & _MAX_COPIES << shift
        previous = position
    clusters.append(current)
    if len(clusters) > 1 and previous == HIGH_ACE and _first_card(counts) - 2 <= max_gap:
        aces = current >> (_BITS * HIGH_ACE)
        if apart and aces == 1 and current != aces << (_BITS * HIGH_ACE):
            return clusters, True
        clusters[0] += clusters.pop()  # an Ace at 14 may play at 1, below the first part
    return clusters, False


def _linked(
    first: int, last: int, wild_position: int, jokers: int, config: tuple[Any, ...], bound: int
) -> Table:
    """The table of a suit's first part (its highest cards, from the King down) and its last
    (the Aces and the low cards next to them), which no run can bridge but through the Aces:
    an Ace kept at 14 may also play at 1, above the King. Each Ace is in a group with cards of
    one part or the other (or alone), never of both, since no run turns the corner (K-A-2): so
    every arrangement is one of the first part with some of the Aces and one of the last with
    the others, and the table is the best of those pairings over how many Aces go first.

    Searched together, the two parts would be searched state by state until the search has
    passed the cards an Ace can reach from above, and each change to the low cards (a set
    taking a Two, a discard) would search the high cards again; apart, each part's table
    serves every change to the other. But apart, the high cards are also searched without
    their Aces, from the start, where together they are only met so once a run has taken the
    Aces (with two Aces, with each number of them: so only a suit with a single Ace is split),
    and only the tables a hand's search starts from are made apart (`_Search.cheapest`), where
    the low cards change from one set choice or discard to the next, and not every state
    within a search. Those of a 14-card hand's discards, searched under a small bound, are made
    apart too, so that past the discard they meet the tables of the 14 cards' own search; but
    not those for a show (nothing left over), which the search for the discards that could show
    shares, card by card, suits whole."""
    ace = _ONE[HIGH_ACE]
    exact = config[4]
    candidates: dict[int, Entry] = {}
    for high in range(_count(last, HIGH_ACE) + 1):
        pair = [first + high * ace, last - high * ace]
        tables = [_suit_table(c, _wild_in(c, wild_position), jokers, config, bound) for c in pair]
        for entry in _joined(tables, jokers, exact, bound)[0]:
            old = candidates.get(entry[0] * 16 + entry[1])
            if old is None or entry[2] < old[2]:
                candidates[entry[0] * 16 + entry[1]] = entry
    return _as_table(_prune(candidates, exact), bound) if candidates else _no_table(bound)
