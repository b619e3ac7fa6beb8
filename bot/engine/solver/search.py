"""One hand's searches: every choice of sets, each joined with the suit tables, for the
cheapest way to what a price or a show needs.

`_Search` holds what a hand's searches share (its counts, its set choices, its settings);
`_combine` joins the suits' tables, dropping what cannot win as it goes; `_Best` is a winning
choice, whose groups are traced only when an answer is laid out.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

from bot.engine.cards import JOKER, Card
from bot.engine.melds import HIGH_ACE
from bot.engine.rules import Rules
from bot.engine.solver.counts import _BITS, _MAX_COPIES, _at, _card_at, _count, _is_wild_position
from bot.engine.solver.hand_search import _Hand
from bot.engine.solver.life import _CODES, _COMBINE, _HAS_PURE, _life_goal
from bot.engine.solver.memos import _config
from bot.engine.solver.sets import _set_options
from bot.engine.solver.show_discards import _discard_table, _joined_keys
from bot.engine.solver.suit import _suit_table
from bot.engine.solver.tables import _SMALL_BOUND, _UNBOUNDED, Entry, Table, _pareto
from bot.engine.solver.trace import _trace


@dataclass(slots=True)
class _Best:
    """A winning choice: its deadwood and life code, the sets, and per suit the table entry
    used, from which `_trace` recovers the suit's groups."""

    deadwood: int
    jokers: int  # net jokers the suits use, before the sets
    code: int
    sets: tuple[Any, ...]  # ((rank, suit mask, fewest jokers, most jokers), ...)
    picks: list[tuple[tuple[int, int, int], Entry]]  # ((suit, counts, wild position), entry)
    config: tuple[Any, ...]
    apart: bool = False  # whether the suits' tables were made with linked parts apart (`_linked`)

    def groups(self, pool: int) -> list[tuple[int, Any]]:
        """(suit, group descriptor) for every group and unmatched card the suits hold."""
        return [
            (state[0], descriptor)
            for state, entry in self.picks
            for descriptor in _trace(state[1], state[2], pool, self.config, entry, self.apart)
        ]


def _unlink(picks: Any) -> list[Any]:
    flat = []
    while picks is not None:
        picks, pick = picks
        flat.append(pick)
    return flat


def _combine(
    tables: list[tuple[tuple[int, int, int], Table]], budget: int, goal: list[bool], limit: int
) -> tuple[int, int, int, Any] | None:
    """The cheapest way to join the suits' tables within `budget` net jokers that reaches a
    goal code with less than `limit` deadwood, as (deadwood, jokers, code, picks), the picks
    being the (state, entry) used per suit.

    Most suit tables hold a single entry; those are folded in first as a plain offset. The
    others are joined one by one, dropping a partial entry as soon as the least deadwood and
    fewest jokers the remaining suits could add put it out of reach."""
    k0 = code0 = deadwood0 = 0
    picks0: Any = None
    several: list[tuple[tuple[int, int, int], Table]] = []
    floor = 0
    for state, table in tables:
        entries = table[0]
        if len(entries) == 1:
            entry = entries[0]
            k0 += entry[0]
            code0 = _COMBINE[code0][entry[1]]
            deadwood0 += entry[2]
            picks0 = (picks0, (state, entry))
        else:
            several.append((state, table))
            floor += table[1]
    if deadwood0 + floor >= limit:
        return None
    if not several:
        if k0 <= budget and goal[code0]:
            return deadwood0, k0, code0, picks0
        return None
    partial: Sequence[tuple[int, int, int, Any]] = ((k0, code0, deadwood0, picks0),)
    rest_jokers = sum(table[3] for _, table in several)
    for state, (entries, least, _, fewest, _) in several[:-1]:
        floor -= least
        rest_jokers -= fewest
        max_jokers = budget - rest_jokers
        max_deadwood = limit - floor
        candidates: dict[int, Any] = {}
        for k, code, deadwood, picks in partial:
            row = _COMBINE[code]
            for entry in entries:
                nk = k + entry[0]
                if nk > max_jokers:
                    break
                nd = deadwood + entry[2]
                if nd >= max_deadwood:
                    continue
                ncode = row[entry[1]]
                key = nk * 16 + ncode
                old = candidates.get(key)
                if old is None or nd < old[2]:
                    candidates[key] = (nk, ncode, nd, (picks, (state, entry)))
        if not candidates:
            return None
        partial = _pareto(candidates)
    state, (entries, _, _, _, _) = several[-1]
    best = None
    for k, code, deadwood, picks in partial:
        row = _COMBINE[code]
        for entry in entries:
            if k + entry[0] > budget:
                break
            nd = deadwood + entry[2]
            if nd < limit and goal[row[entry[1]]]:
                limit = nd
                best = (nd, k + entry[0], row[entry[1]], (picks, (state, entry)))
    return best


class _Search:
    """One hand (13 cards, or any size): the searches that price it, sharing its set choices."""

    def __init__(self, cards: Sequence[Card], wild: int | None, rules: Rules) -> None:
        self.hand = _Hand(cards, wild, rules.ace_points)
        self.rules = rules
        self.life_goal = _life_goal(rules)
        one_joker, four = rules.one_joker_per_impure_sequence, rules.require_four_card_life
        config = partial(
            _config,
            one_joker,
            max_set=rules.max_set_size,
            triplet=rules.identical_triplet_pure,
            ace=rules.ace_points,
        )
        self.life_config = config(four, one_joker, True, False)
        self.any_config = config(False, one_joker, False, False)
        self.protect_config = config(False, False, True, False)
        self.exact_config = config(False, one_joker, True, True)

    @cached_property
    def set_ranks(self) -> tuple[list[list[tuple[Any, ...]]], list[int]]:
        """The ways each rank can go into sets (ranks with a choice only), and the suits those
        ranks touch. Made on first use: a hand with no possible life is priced without it."""
        hand = self.hand
        # Ranks held in two suits or more (a set needs two natural cards, see _set_options).
        a, b, c, d = hand.presence
        shared = (a & (b | c | d)) | (b & (c | d)) | (c & d)
        if hand.wild is not None:
            shared &= ~(1 << hand.wild)
        rank_options: list[list[tuple[Any, ...]]] = []
        touched = 0
        while shared:
            rank = (shared & -shared).bit_length() - 1
            shared &= shared - 1
            per_suit = tuple(_count(counts, _at(rank)) for counts in hand.counts)
            options = _set_options(rank, per_suit, hand.pool, self.rules.max_set_size)
            if len(options) > 1:
                rank_options.append(options)
                touched |= sum(1 << s for s in range(4) if per_suit[s])
        return rank_options, [s for s in range(4) if touched >> s & 1]

    def triplet_possible(self) -> bool:
        return self.rules.identical_triplet_pure and self.hand.has_triplet()

    def life_possible(self) -> bool:
        if self.triplet_possible():
            return True  # a triplet is a pure sequence: leave it to the search
        any_run, in_runs = self.hand.runs_possible()
        return any_run and (self.hand.pool > 0 or in_runs >= 6)

    def choices(self, with_sets: bool) -> Iterator[tuple[tuple[Any, ...], int, int, list[Any]]]:
        """Every choice of sets, as (sets, fewest jokers, most jokers, suit states), the states
        being (suit, counts, wild position) for the cards the sets leave."""
        hand = self.hand
        wild_position = hand.wild_position
        rank_options, touched = self.set_ranks if with_sets else ([], [])
        if not rank_options:
            yield (), 0, 0, [(suit, counts, wild_position(counts)) for suit, counts in enumerate(hand.counts)]
            return
        fixed = [(s, c, wild_position(c)) for s, c in enumerate(hand.counts) if s not in touched]
        pool = hand.pool
        for combo in itertools.product(*rank_options):
            need = most = 0
            sets: tuple[Any, ...] = ()
            counts = list(hand.counts)
            for taken, rank_sets, rank_need, rank_most in combo:
                if rank_sets:
                    need += rank_need
                    most += rank_most
                    sets += rank_sets
                    counts[0] -= taken[0]
                    counts[1] -= taken[1]
                    counts[2] -= taken[2]
                    counts[3] -= taken[3]
            if need <= pool:
                yield sets, need, most, fixed + [(s, counts[s], wild_position(counts[s])) for s in touched]

    def cheapest(
        self, config: tuple[Any, ...], goal: list[bool], limit: int, with_sets: bool = True
    ) -> _Best | None:
        """The least deadwood below `limit` over every choice of sets whose joined suits reach
        a goal code; choices that cannot beat the best so far are skipped on their floors."""
        hand = self.hand
        pool, printed = hand.pool, hand.printed
        needs_pure = all(_HAS_PURE[code] for code in _CODES if goal[code])
        best: _Best | None = None
        # Most choices of sets leave most suits as they were: their tables are fetched once.
        known: dict[int, Table] = {}
        bound = limit if limit < _SMALL_BOUND else _UNBOUNDED
        apart = limit > 1  # see `_linked`
        for sets, need, _, states in self.choices(with_sets):
            tables = []
            floor = 0
            pure = False
            for state in states:
                table = known.get(state[1])
                if table is None:
                    table = known[state[1]] = _suit_table(state[1], state[2], pool, config, bound, apart)
                tables.append((state, table))
                floor += table[1]
                pure = pure or table[2]
            if floor >= limit or (needs_pure and not pure):
                continue
            found = _combine(tables, printed - need, goal, limit)
            if found is not None:
                limit = found[0]
                best = _Best(found[0], found[1], found[2], sets, _unlink(found[3]), config, apart)
                if limit == 0:
                    break
        return best

    def show_discards(self, least: int, with_sets: bool = True) -> set[Card]:
        """The cards worth at least `least` points of a 14-card hand whose discard leaves all 13
        others melded with both lives (without sets: in sequences): every such discard that
        leaves a show is one of them (a show still has to place its spare jokers, which `_show`
        checks). One search for every discard (`_discard_table`): a card of one suit goes, or
        a printed joker, and the other suits meld whole."""
        hand, config, goal = self.hand, self.life_config, self.life_goal
        wild_position = _at(hand.wild) if hand.wild is not None else 0
        points = config[8]
        allowed = sum(
            _MAX_COPIES << (_BITS * p)
            for p in range(1, HIGH_ACE + 1)
            if (least == 0 if _is_wild_position(p, wild_position) else points[p] >= least)
        )
        if not self.life_possible() or not (allowed or least == 0):
            return set()
        pool, printed = hand.pool, hand.printed
        found: set[Card] = set()
        for _, need, _, states in self.choices(with_sets):
            whole = [
                {
                    k * 16 + code: 0
                    for k, code, deadwood in _suit_table(counts, wild, pool, config, 1)[0]
                    if not deadwood
                }
                for _, counts, wild in states
            ]
            # A discard comes from one suit and every other suit melds whole: where one cannot,
            # only a discard from it may show, and where two cannot, none. (Searched anyway,
            # the discards of a long suit were most of the work, for nothing.)
            torn = [index for index, melded in enumerate(whole) if not melded]
            for index, (suit, counts, wild) in enumerate(states):
                if torn and torn != [index]:
                    continue
                reached = _joined_keys(
                    [
                        *whole[:index],
                        *whole[index + 1 :],
                        _discard_table(counts, wild, pool, config, allowed),
                    ],
                    pool,
                )
                for key, mask in reached.items():
                    if key // 16 <= printed - need and goal[key % 16]:
                        found.update(_card_at(p, suit) for p in range(1, HIGH_ACE + 1) if mask >> p & 1)
            if (
                printed
                and least == 0
                and not torn
                and any(
                    key // 16 <= printed - 1 - need and goal[key % 16] for key in _joined_keys(whole, pool)
                )
            ):
                found.add(JOKER)
        return found

    def exact(self) -> tuple[_Best, int, int] | None:
        """A complete show placing every card, or None: (the show's choice, jokers in its sets,
        jokers in groups of jokers alone)."""
        hand, config = self.hand, self.exact_config
        pool, printed = hand.pool, hand.printed
        lone = _joker_only_sizes(self.rules, pool, anchors=0)  # a wild card being itself: in the suits
        for sets, need, most, states in self.choices(True):
            table: list[Any] = [(0, 0, None)]
            for state in states:
                merged: dict[int, Any] = {}
                for k, code, picks in table:
                    for entry in _suit_table(state[1], state[2], pool, config)[0]:
                        nk = k + entry[0]
                        if nk <= pool:
                            merged.setdefault(nk * 16 + _COMBINE[code][entry[1]], (picks, (state, entry)))
                table = [(key // 16, key % 16, picks) for key, picks in merged.items()]
            for k, code, picks in table:
                if not self.life_goal[code]:
                    continue
                left = printed - k
                for joker_only in lone:
                    if need <= left - joker_only <= most:
                        show = _Best(0, k, code, sets, _unlink(picks), config)
                        return show, left - joker_only, joker_only
        return None


def _joker_only_sizes(rules: Rules, pool: int, anchors: int) -> list[int]:
    """How many spare jokers groups of wild cards alone can hold (0 always): sets of 3 up to the
    largest, each with a card of the wild rank being itself (`anchors` of them are spare), or
    with any jokers where the table lets printed jokers alone make a set."""
    fewest = {0: 0}  # jokers held -> the fewest groups that hold them
    for total in range(3, pool + 1):
        groups = min(
            (fewest[total - size] + 1 for size in range(3, rules.max_set_size + 1) if total - size in fewest),
            default=None,
        )
        if groups is not None and (rules.joker_only_groups or groups <= anchors):
            fewest[total] = groups
    return sorted(fewest)
