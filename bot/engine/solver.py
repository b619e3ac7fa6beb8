"""The best arrangement of a hand: the fewest points it can be charged, found exactly.

Every losing hand of every deal is scored with this, and computer players call it for each
possible discard, so it has to be exact and fast in pure Python. The search splits the hand
the way the rules split it:

* Runs live inside one suit. Each suit is solved on its own by a memoised search over its
  rank counts (`_suit_points`), giving a small Pareto table of what the suit can reach:
  (net jokers used, life flags) -> least deadwood. Tables are keyed by the suit's counts only
  (never by its letter), so one table serves all four suits and every later hand.
* Sets span suits but few ranks can form one, so the solver enumerates which cards go into
  sets (`_set_options`) and, for each choice, convolves the four suit tables.
* Jokers are one shared pool: printed jokers plus every wild-rank card. A wild-rank card sits
  in its suit's counts so it can be itself inside a run (keeping the run pure); when the suit
  does not use it that way it is released to the pool, which shows as -1 joker in the table.

Points only need the fewest jokers a meld can take (spare jokers cost nothing). A declaration
must place every joker, so validity is checked separately on the winning arrangement, and only
when that fails (rare rule combinations) by an exact search over joker counts (`_suit_exact`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import ACE, JOKER_RANK, SUITS, Card, card_points, is_wild
from bot.engine.melds import (
    HIGH_ACE,
    LONG_LIFE,
    MAX_SEQUENCE,
    STANDARD_RULES,
    GroupKind,
    Meld,
    life_met,
    make_meld,
    uncapped_points,
    wild_rank_of,
)
from bot.engine.rules import CARDS_PER_HAND, Rules


@dataclass(frozen=True, slots=True)
class Arrangement:
    """The solver's answer. `points` is what the hand is charged (after the cap); for a 14-card
    hand everything describes the 13 cards left after `discard`."""

    valid: bool
    points: int
    groups: tuple[Meld, ...]
    ungrouped: tuple[Card, ...]
    discard: Card | None


# ------------------------------------------------------------------------- life flags
# A partial arrangement is summarised by (pure sequence seen, sequences seen capped at 2,
# a 4+ card sequence seen), packed in a small int so tables can index by it.

_CODES = range(12)


def _code(pure: int, sequences: int, long: int) -> int:
    return pure + 2 * sequences + 6 * long


def _decode(code: int) -> tuple[int, int, int]:
    return code % 2, code // 2 % 3, code // 6


def _combined(a: int, b: int) -> int:
    pa, sa, la = _decode(a)
    pb, sb, lb = _decode(b)
    return _code(pa | pb, min(2, sa + sb), la | lb)


_COMBINE = [[_combined(a, b) for b in _CODES] for a in _CODES]
# _ADD_SEQ[pure + 2 * long] maps a code to the code after one more sequence of that kind.
_ADD_SEQ = [[_COMBINE[code][_code(pure, 1, long)] for code in _CODES] for long in (0, 1) for pure in (0, 1)]
_SUPERS = [
    [b for b in _CODES if all(x >= y for x, y in zip(_decode(b), _decode(a), strict=True))] for a in _CODES
]
_LEVEL = [sum(_decode(code)) for code in _CODES]
_HAS_PURE = [bool(code % 2) for code in _CODES]

# Penalty points by position (1 = low Ace, 14 = high Ace), for cards that are not wild.
_POSITION_POINTS = (0, 10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10)
_NO_CARDS = (0,) * (HIGH_ACE + 1)

# A table entry is (net jokers, life code, deadwood, witness); the witness is a linked list of
# group descriptors (descriptor, rest) so that building tables never copies lists.
Entry = tuple[int, int, int, Any]
_EMPTY_TABLE: list[Entry] = [(0, 0, 0, None)]

_POINTS_MEMO: dict[tuple[Any, ...], list[Entry]] = {}
_EXACT_MEMO: dict[tuple[Any, ...], list[Entry]] = {}
_SET_MEMO: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
_MEMO_LIMIT = 400_000  # entries per memo; beyond that a memo restarts rather than grow forever


def _remember(memo: dict[tuple[Any, ...], Any], key: tuple[Any, ...], value: Any) -> None:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value


# ------------------------------------------------------------------------- one suit


def _is_wild_position(position: int, wild_position: int) -> bool:
    return position == wild_position or (wild_position == ACE and position == HIGH_ACE)


def _runs(
    x: int, counts: tuple[int, ...], jokers: int, wild_position: int, one_joker: bool
) -> Iterator[tuple[tuple[int, ...], int, int]]:
    """Every run whose lowest natural card sits at position `x`, as (natural positions, fewest
    substitutes, natural count). `counts` no longer holds the card at `x`. Naturals may skip a
    card the suit holds (a joker takes its place) because that card may be needed elsewhere."""
    max_gap = min(jokers, 1) if one_joker else jokers
    top = MAX_SEQUENCE if x == ACE else HIGH_ACE
    available = [p for p in range(x + 1, top + 1) if counts[p]]
    x_natural = not _is_wild_position(x, wild_position)

    def extend(
        chosen: tuple[int, ...], start: int, gaps: int, natural: bool
    ) -> Iterator[tuple[tuple[int, ...], int, int]]:
        if natural:
            size = len(chosen)
            substitutes = max(3, chosen[-1] - x + 1) - size
            if substitutes <= max_gap:
                yield chosen, substitutes, size
        last = chosen[-1]
        for index in range(start, len(available)):
            position = available[index]
            more = gaps + position - last - 1
            if more > max_gap:
                break
            yield from extend(
                (*chosen, position),
                index + 1,
                more,
                natural or not _is_wild_position(position, wild_position),
            )

    return extend((x,), 0, 0, x_natural)


def _without(counts: tuple[int, ...], positions: Sequence[int]) -> tuple[int, ...]:
    remaining = list(counts)
    for position in positions:
        remaining[position] -= 1
    return tuple(remaining)


def _first_card(counts: tuple[int, ...]) -> int:
    for position in range(1, HIGH_ACE + 1):
        if counts[position]:
            return position
    return 0


def _absorb(
    candidates: dict[int, Entry],
    entries: list[Entry],
    dk: int,
    add_code: list[int] | None,
    dw: int,
    group: Any,
    jokers: int,
) -> None:
    """Adds one choice (a group, or a card left out) in front of every entry of the rest."""
    for k, code, deadwood, witness in entries:
        nk = k + dk
        if nk > jokers:
            continue
        ncode = add_code[code] if add_code is not None else code
        key = nk * 16 + ncode
        nd = deadwood + dw
        old = candidates.get(key)
        if old is None or nd < old[2]:
            candidates[key] = (nk, ncode, nd, (group, witness) if group is not None else witness)


def _pareto(candidates: dict[int, Entry]) -> list[Entry]:
    """Drops every entry another beats on all counts: no more jokers, no weaker life flags,
    no more deadwood. Entries come sorted by jokers, then deadwood."""
    ordered = sorted(candidates.values(), key=lambda e: (e[0], e[2], -_LEVEL[e[1]]))
    best = [1 << 30] * 12
    kept: list[Entry] = []
    for entry in ordered:
        deadwood = entry[2]
        if any(best[code] <= deadwood for code in _SUPERS[entry[1]]):
            continue
        kept.append(entry)
        best[entry[1]] = deadwood
    return kept


def _suit_points(
    counts: tuple[int, ...], wild_position: int, jokers: int, config: tuple[Any, ...]
) -> list[Entry]:
    """The Pareto table of one suit: for each (net jokers, life code), the least deadwood.

    The card at the lowest position is either left out (a wild card is released to the pool),
    the lowest natural of a run, a lone card with two jokers as a set (only where runs may not
    take two jokers), or, for an Ace, moved to the top to play above the King."""
    key = (counts, wild_position, jokers, config)
    table = _POINTS_MEMO.get(key)
    if table is not None:
        return table
    x = _first_card(counts)
    if not x:
        return _EMPTY_TABLE
    one_joker, four_life, lone_set = config
    candidates: dict[int, Entry] = {}
    rest_counts = _without(counts, (x,))
    if x == ACE:
        moved = list(rest_counts)
        moved[HIGH_ACE] += 1
        _absorb(
            candidates, _suit_points(tuple(moved), wild_position, jokers, config), 0, None, 0, None, jokers
        )
    else:
        rest = _suit_points(rest_counts, wild_position, jokers, config)
        if _is_wild_position(x, wild_position):
            _absorb(candidates, rest, -1, None, 0, ("free", x), jokers)
        else:
            _absorb(candidates, rest, 0, None, _POSITION_POINTS[x], ("loose", x), jokers)
            if lone_set and jokers >= 2:
                _absorb(candidates, rest, 2, None, 0, ("lone", x, 2), jokers)
    for chosen, substitutes, size in _runs(x, rest_counts, jokers, wild_position, one_joker):
        rest = _suit_points(_without(rest_counts, chosen[1:]), wild_position, jokers, config)
        length = size + substitutes
        pure = substitutes == 0
        _absorb(
            candidates,
            rest,
            substitutes,
            _ADD_SEQ[pure + 2 * (length >= LONG_LIFE)],
            0,
            ("run", chosen, substitutes),
            jokers,
        )
        if four_life and length == 3 and substitutes + 1 <= (min(jokers, 1) if one_joker else jokers):
            _absorb(
                candidates, rest, substitutes + 1, _ADD_SEQ[2], 0, ("run", chosen, substitutes + 1), jokers
            )
    table = _pareto(candidates)
    _remember(_POINTS_MEMO, key, table)
    return table


def _suit_exact(counts: tuple[int, ...], wild_position: int, jokers: int, rules: Rules) -> list[Entry]:
    """Like `_suit_points` for declarations: every natural card melded, and every exact number
    of jokers the suit's melds can hold (a run takes extra jokers up to 13 cards, one in all
    under the one-joker rule), so a show can place every joker it holds."""
    key = (counts, wild_position, jokers, rules.one_joker_per_impure_sequence, rules.max_set_size)
    table = _EXACT_MEMO.get(key)
    if table is not None:
        return table
    x = _first_card(counts)
    if not x:
        return _EMPTY_TABLE
    one_joker = rules.one_joker_per_impure_sequence
    candidates: dict[int, Entry] = {}
    rest_counts = _without(counts, (x,))
    if x == ACE:
        moved = list(rest_counts)
        moved[HIGH_ACE] += 1
        _absorb(candidates, _suit_exact(tuple(moved), wild_position, jokers, rules), 0, None, 0, None, jokers)
    else:
        rest = _suit_exact(rest_counts, wild_position, jokers, rules)
        if _is_wild_position(x, wild_position):
            _absorb(candidates, rest, -1, None, 0, ("free", x), jokers)
        elif one_joker:
            for extra in range(2, min(jokers, rules.max_set_size - 1) + 1):
                _absorb(candidates, rest, extra, None, 0, ("lone", x, extra), jokers)
    for chosen, substitutes, size in _runs(x, rest_counts, jokers, wild_position, one_joker):
        rest = _suit_exact(_without(rest_counts, chosen[1:]), wild_position, jokers, rules)
        most = min(jokers, 1 if one_joker else MAX_SEQUENCE - size)
        for extra in range(substitutes, most + 1):
            variant = (extra == 0) + 2 * (size + extra >= LONG_LIFE)
            _absorb(candidates, rest, extra, _ADD_SEQ[variant], 0, ("run", chosen, extra), jokers)
    table = list(candidates.values())
    _remember(_EXACT_MEMO, key, table)
    return table


# ------------------------------------------------------------------------- sets


def _set_options(counts: tuple[int, ...], jokers: int, max_size: int) -> list[tuple[Any, ...]]:
    """Every way to put cards of one rank into sets, as (cards taken per suit, sets, fewest
    jokers, most jokers); each set is (suit mask, fewest jokers, most jokers). Sets with one
    natural card are left to the suit search: as runs they are never worse."""
    key = (counts, jokers, max_size)
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

    def choose(start: int, left: list[int], sets: tuple[Any, ...], need: int, room: int) -> None:
        taken = tuple(counts[s] - left[s] for s in range(4))
        options.append((taken, sets, need, room))
        for index in range(start, len(masks)):
            mask, suits, set_need, set_room = masks[index]
            if need + set_need > jokers or any(left[s] == 0 for s in suits):
                continue
            for s in suits:
                left[s] -= 1
            choose(index, left, (*sets, (mask, set_need, set_room)), need + set_need, room + set_room)
            for s in suits:
                left[s] += 1

    choose(0, list(counts), (), 0, 0)
    _remember(_SET_MEMO, key, options)
    return options


# ------------------------------------------------------------------------- one hand


class _Hand:
    """A hand in the solver's terms: per-suit counts by position, printed jokers, the pool."""

    def __init__(self, cards: Sequence[Card], wild: int | None) -> None:
        self.cards = list(cards)
        self.wild = wild
        self.printed = sum(1 for card in cards if card.rank == JOKER_RANK)
        counts = [[0] * (HIGH_ACE + 1) for _ in SUITS]
        for card in cards:
            if card.suit is not None:
                counts[SUITS.index(card.suit)][card.rank] += 1
        self.counts = [tuple(suit) for suit in counts]
        self.wild_cards = sum(1 for card in cards if card.rank == wild)
        self.pool = self.printed + self.wild_cards
        self.all_points = sum(card_points(card, wild) for card in cards)

    def wild_position(self, suit: int, counts: tuple[int, ...]) -> int:
        """The wild rank, where the suit holds a wild card (tables do not depend on it otherwise)."""
        if self.wild is not None and (counts[self.wild] or (self.wild == ACE and counts[HIGH_ACE])):
            return self.wild
        return 0


@dataclass(slots=True)
class _Best:
    deadwood: int
    jokers: int  # net jokers the suits use, before the sets
    sets: tuple[Any, ...]  # ((rank, suit mask, fewest jokers, most jokers), ...)
    suits: tuple[Any, ...]  # ((suit, witness), ...)
    code: int


def _convolve(
    left: list[tuple[int, int, int, tuple[Any, ...]]], suit: int, table: list[Entry], jokers: int
) -> list[tuple[int, int, int, tuple[Any, ...]]]:
    """Adds one suit to a combined table (same entry shape, witness = ((suit, witness), ...))."""
    candidates: dict[int, Any] = {}
    for k, code, deadwood, witness in left:
        row = _COMBINE[code]
        for k2, code2, deadwood2, witness2 in table:
            nk = k + k2
            if nk > jokers:
                continue
            ncode = row[code2]
            key = nk * 16 + ncode
            nd = deadwood + deadwood2
            old = candidates.get(key)
            if old is None or nd < old[2]:
                candidates[key] = (nk, ncode, nd, (witness, suit, witness2))
    return _pareto(candidates)


def _flatten(witness: Any) -> list[tuple[int, Any]]:
    """The (suit, group descriptor) pairs of a combined witness."""
    groups: list[tuple[int, Any]] = []
    while witness:
        witness, suit, suit_witness = witness
        while suit_witness is not None:
            descriptor, suit_witness = suit_witness
            groups.append((suit, descriptor))
    return groups


class _Search:
    """One 13-card (or any size) problem: the best arrangement by points, and validity."""

    def __init__(self, cards: Sequence[Card], wild: int | None, rules: Rules) -> None:
        self.hand = hand = _Hand(cards, wild)
        self.rules = rules
        self.life = [life_met(*_decode_life(code), rules=rules) for code in _CODES]
        one_joker = rules.one_joker_per_impure_sequence
        self.config = (one_joker, rules.require_four_card_life, one_joker)
        self.rank_options: list[tuple[int, list[tuple[Any, ...]]]] = []
        for rank in range(1, 14):
            if rank == wild:
                continue
            per_suit = tuple(hand.counts[s][rank] for s in range(4))
            if sum(1 for count in per_suit if count) >= 2:
                options = _set_options(per_suit, hand.pool, rules.max_set_size)
                if len(options) > 1:
                    self.rank_options.append((rank, options))

    def _suit_states(self, taken: dict[int, list[int]]) -> list[tuple[int, tuple[int, ...], int]]:
        hand = self.hand
        states = []
        for suit in range(4):
            counts = hand.counts[suit]
            if suit in taken:
                counts = tuple(c - t for c, t in zip(counts, taken[suit], strict=True))
            states.append((suit, counts, hand.wild_position(suit, counts)))
        return states

    def configurations(self) -> Iterator[tuple[tuple[Any, ...], dict[int, list[int]], int, int]]:
        """Every choice of sets: (sets, cards taken per suit by position, fewest jokers, most)."""
        ranks = [rank for rank, _ in self.rank_options]
        for combo in itertools.product(*(options for _, options in self.rank_options)):
            need = sum(option[2] for option in combo)
            if need > self.hand.pool:
                continue
            taken: dict[int, list[int]] = {}
            sets: list[tuple[int, int, int, int]] = []
            for rank, (per_suit, rank_sets, _, _) in zip(ranks, combo, strict=True):
                for suit, count in enumerate(per_suit):
                    if count:
                        taken.setdefault(suit, [0] * (HIGH_ACE + 1))[rank] += count
                sets.extend((rank, *s) for s in rank_sets)
            yield tuple(sets), taken, need, sum(option[3] for option in combo)

    def best(self) -> tuple[_Best | None, _Best | None, _Best | None]:
        """The least deadwood with the lives, without them, and (for the protection rule) the
        least deadwood outside runs with a pure sequence."""
        printed = self.hand.printed
        life_best: _Best | None = None
        any_best: _Best | None = None
        for sets, taken, need, _room in self.configurations():
            table = self._combined(taken, self.config)
            for k, code, deadwood, witness in table:
                if k + need > printed:
                    continue
                if any_best is None or deadwood < any_best.deadwood:
                    any_best = _Best(deadwood, k, sets, witness, code)
                if self.life[code] and (life_best is None or deadwood < life_best.deadwood):
                    life_best = _Best(deadwood, k, sets, witness, code)
        protect_best: _Best | None = None
        if self.rules.pure_sequence_protects:
            config = (self.config[0], self.config[1], False)
            for k, code, deadwood, witness in self._combined({}, config):
                if (
                    k <= printed
                    and _HAS_PURE[code]
                    and (protect_best is None or deadwood < protect_best.deadwood)
                ):
                    protect_best = _Best(deadwood, k, (), witness, code)
        return life_best, any_best, protect_best

    def _combined(self, taken: dict[int, list[int]], config: tuple[Any, ...]) -> list[Any]:
        pool = self.hand.pool
        table: list[Any] = [(0, 0, 0, None)]
        for suit, counts, wild_position in self._suit_states(taken):
            table = _convolve(table, suit, _suit_points(counts, wild_position, pool, config), pool)
        return table

    def exact(self) -> tuple[tuple[Any, ...], Any, int, int] | None:
        """A complete show placing every card, or None: (sets, witness, set jokers, joker-only
        group jokers)."""
        hand, rules = self.hand, self.rules
        lone = _joker_only_sizes(rules, hand.pool)
        for sets, taken, need, room in self.configurations():
            table: list[Any] = [(0, 0, 0, None)]
            for suit, counts, wild_position in self._suit_states(taken):
                suit_table = _suit_exact(counts, wild_position, hand.pool, rules)
                merged: dict[int, Any] = {}
                for k, code, _, witness in table:
                    for k2, code2, _, witness2 in suit_table:
                        nk = k + k2
                        if nk <= hand.pool:
                            merged.setdefault(nk * 16 + _COMBINE[code][code2], (witness, suit, witness2))
                table = [(key // 16, key % 16, 0, witness) for key, witness in merged.items()]
            for k, code, _, witness in table:
                if not self.life[code]:
                    continue
                left = hand.printed - k
                for joker_only in lone:
                    if need <= left - joker_only <= need + room:
                        return sets, witness, left - joker_only, joker_only
        return None


def _decode_life(code: int) -> tuple[int, int, bool]:
    pure, sequences, long = _decode(code)
    return pure, sequences, bool(long)


def _joker_only_sizes(rules: Rules, pool: int) -> list[int]:
    """How many spare jokers groups of jokers alone can hold (0 always)."""
    sizes = {0}
    if rules.joker_only_groups:
        for total in range(3, pool + 1):
            if any(total - part in sizes for part in range(3, rules.max_set_size + 1)):
                sizes.add(total)
    return sorted(sizes)


# ------------------------------------------------------------------------- building the answer


@dataclass(slots=True)
class _Group:
    """A group being built: its natural cards, the jokers it takes, and how many more fit."""

    naturals: list[Card]
    jokers: int
    room: int
    pure_run: bool = False


def _card_at(position: int, suit: int) -> Card:
    return Card(ACE if position == HIGH_ACE else position, SUITS[suit])


def _plan(hand: _Hand, best: _Best, rules: Rules) -> tuple[list[_Group], list[Card], list[Card]]:
    """Turns a winning table entry into groups (still without their jokers), unmatched
    cards, and the jokers free to place."""
    groups: list[_Group] = []
    loose: list[Card] = []
    pool = [card for card in hand.cards if card.rank == JOKER_RANK]
    one_joker = rules.one_joker_per_impure_sequence
    for suit, descriptor in _flatten(best.suits):
        tag = descriptor[0]
        if tag == "loose":
            loose.append(_card_at(descriptor[1], suit))
        elif tag == "free":
            pool.append(_card_at(descriptor[1], suit))
        elif tag == "lone":
            groups.append(
                _Group([_card_at(descriptor[1], suit)], descriptor[2], rules.max_set_size - 1 - descriptor[2])
            )
        else:
            _, chosen, substitutes = descriptor
            size = len(chosen) + substitutes
            if one_joker:
                room = min(1, MAX_SEQUENCE - size) if substitutes == 0 else 0
            else:
                room = MAX_SEQUENCE - size
            groups.append(_Group([_card_at(p, suit) for p in chosen], substitutes, room, substitutes == 0))
    for rank, mask, need, most in best.sets:
        naturals = [Card(rank, SUITS[s]) for s in range(4) if mask >> s & 1]
        groups.append(_Group(naturals, need, most - need))
    return groups, loose, pool


def _place_spares(groups: list[_Group], spare: int, rules: Rules, pool_size: int) -> list[int] | None:
    """Spreads spare jokers over the groups' room (a pure run may take some as long as one
    pure run stays pure), else into groups of jokers alone; returns those groups' sizes, or
    None when the spares cannot all be placed."""
    if spare == 0:
        return []
    pure_runs = [g for g in groups if g.pure_run]
    keep = min(pure_runs, key=lambda g: g.room) if pure_runs else None
    open_groups = [g for g in groups if g is not keep and g.room > 0]
    room = sum(g.room for g in open_groups)
    for joker_only in _joker_only_sizes(rules, pool_size):
        if joker_only <= spare and spare - joker_only <= room:
            left = spare - joker_only
            for group in open_groups:
                take = min(left, group.room)
                group.jokers += take
                left -= take
            return _split_joker_only(joker_only, rules.max_set_size)
    return None


def _split_joker_only(total: int, max_size: int) -> list[int]:
    sizes = []
    while total:
        size = min(max_size, total) if total - min(max_size, total) not in (1, 2) else 3
        sizes.append(size)
        total -= size
    return sizes


def _melds(
    groups: list[_Group],
    loose: list[Card],
    pool: list[Card],
    joker_only: list[int],
    wild: int | None,
    rules: Rules,
) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """Hands each group its jokers and orders everything for display. Printed jokers go first
    and wild cards of another suit before those of the run's own suit, so a joker is seen where
    the solver meant it."""
    pool = sorted(pool, key=lambda card: card.rank != JOKER_RANK)
    melds = []
    for group in groups:
        suit = group.naturals[0].suit
        pool.sort(key=lambda card: (card.rank != JOKER_RANK, card.suit == suit))
        cards = group.naturals + pool[: group.jokers]
        del pool[: group.jokers]
        melds.append(make_meld(cards, wild, rules))
    for size in joker_only:
        melds.append(make_meld(pool[:size], wild, rules))
        del pool[:size]
    melds.sort(key=lambda meld: (_KIND_ORDER[meld.kind], [card.sort_key for card in meld.cards]))
    ungrouped = sorted(loose + pool, key=lambda card: (is_wild(card, wild), card.sort_key))
    return tuple(melds), tuple(ungrouped)


_KIND_ORDER = {
    GroupKind.PURE_SEQUENCE: 0,
    GroupKind.IMPURE_SEQUENCE: 1,
    GroupKind.SET: 2,
    GroupKind.INVALID: 3,
}


@dataclass(frozen=True, slots=True)
class _Solved:
    arrangement: Arrangement
    raw_points: int  # before the cap, to rank discards that all reach it


def _solve(cards: Sequence[Card], wild: int | None, rules: Rules) -> _Solved:
    search = _Search(cards, wild, rules)
    hand = search.hand
    life_best, any_best, protect_best = search.best()

    # The rule for what counts lives in melds; each kind of best arrangement is priced by it.
    def priced(best: _Best | None, life: bool) -> int:
        if best is None:
            return hand.all_points
        return uncapped_points(
            all_points=hand.all_points,
            ungrouped=best.deadwood,
            outside_sequences=best.deadwood,
            life=life,
            pure=_decode(best.code)[0],
            rules=rules,
        )

    raw = min(priced(life_best, True), priced(protect_best, False), hand.all_points)
    points = min(raw, rules.score_cap)

    if life_best is not None and life_best.deadwood == 0:
        groups, loose, pool = _plan(hand, life_best, rules)
        spare = hand.printed - life_best.jokers - sum(s[2] for s in life_best.sets)
        joker_only = _place_spares(groups, spare, rules, hand.pool)
        if joker_only is not None:
            melds, ungrouped = _melds(groups, loose, pool, joker_only, wild, rules)
            return _Solved(Arrangement(True, 0, melds, ungrouped, None), 0)
        exact = search.exact()
        if exact is not None:
            sets, witness, set_jokers, joker_only_total = exact
            groups, loose, pool = _plan(hand, _Best(0, 0, sets, witness, 0), rules)
            left = set_jokers - sum(s[2] for s in sets)
            for group in groups[len(groups) - len(sets) :]:
                take = min(left, group.room)
                group.jokers += take
                left -= take
            joker_only = _split_joker_only(joker_only_total, rules.max_set_size)
            melds, ungrouped = _melds(groups, loose, pool, joker_only, wild, rules)
            return _Solved(Arrangement(True, 0, melds, ungrouped, None), 0)

    if life_best is not None and priced(life_best, True) == raw:
        chosen = life_best
    elif protect_best is not None and priced(protect_best, False) == raw:
        chosen = protect_best
    else:
        chosen = any_best
    if chosen is None:  # only a hand with no cards at all
        return _Solved(Arrangement(False, points, (), tuple(cards), None), raw)
    groups, loose, pool = _plan(hand, chosen, rules)
    melds, ungrouped = _melds(groups, loose, pool, [], wild, rules)
    return _Solved(Arrangement(False, points, melds, ungrouped, None), raw)


def best_arrangement(
    cards: Sequence[Card], wild_rank: int | str | None, rules: Rules = STANDARD_RULES
) -> Arrangement:
    """The arrangement charged the fewest points. With 14 cards (a turn's pick made) it also
    chooses the discard: a valid show first, then the fewest points left, then the costliest
    card out of the hand."""
    wild = wild_rank_of(wild_rank)
    cards = list(cards)
    if len(cards) != CARDS_PER_HAND + 1:
        return _solve(cards, wild, rules).arrangement
    best_key: tuple[Any, ...] | None = None
    best: Arrangement | None = None
    for discard in sorted(set(cards), key=lambda card: card.sort_key):
        rest = list(cards)
        rest.remove(discard)
        solved = _solve(rest, wild, rules)
        key = (
            not solved.arrangement.valid,
            solved.arrangement.points,
            solved.raw_points,
            -card_points(discard, wild),
        )
        if best_key is None or key < best_key:
            best_key = key
            a = solved.arrangement
            best = Arrangement(a.valid, a.points, a.groups, a.ungrouped, discard)
    assert best is not None
    return best
