"""How far a hand is from a show, by the cards it still misses and how likely they are to come.

The solver's deadwood cannot tell a pair one card from a run from two loose Kings; this search
over the blocks a hand has begun can. It is the computer players' main cost, so the search is
one closure with what it reads bound to it, and a state is remembered under one int.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache

from bot.engine.ai.common import _card_at, _positions
from bot.engine.cards import ACE, SUITS, Card, is_wild
from bot.engine.melds import HIGH_ACE
from bot.engine.rules import CARDS_PER_HAND, Rules

# A missing card is weighed by the chance it comes within this many draws (12 netted 0.2 less).
DRAW_HORIZON = 8
FREE_OUTS = 4  # the live cards that would lengthen some meld: what a slot left over may take
SCRATCH_OUTS = 2  # ... and each card of a meld the hand has not begun
UNREACHABLE = 50.0  # the distance of a hand that cannot hold the lives in 13 cards


# A block is a meld the hand has begun, compiled for the search. A run: for each other card it
# needs, the hand's copies of that card (a bit mask), what a draw of it costs, and what a draw of
# it or a joker costs. A set: for each other suit, the hand's copies and that card's live copies.
# Each comes with the hand's cards it may take (all the copies of what it needs).
_RunNeeds = tuple[tuple[int, float, float], ...]
_SetNeeds = tuple[tuple[int, int], ...]
_Run = tuple[int, _RunNeeds]
_Set = tuple[int, _SetNeeds]
_COUNT_BITS = 5  # a hand's cards used, or jokers, fit in this many bits of a memo key


class _Distance:
    """How far hands made of one decision's cards are from a show, by the cards they still miss.

    Points say nothing about progress (a hand without a life is charged every card), and the
    solver's deadwood says little more: a pair one card from a run and two loose Kings leave the
    same deadwood. Here every natural card either starts a block with later cards of the hand
    (two or more cards of a run of three to five in one suit, or of a set) or is thrown; a block
    leaves slots, the cards it misses, and the 13 cards must hold blocks, their slots and the
    slots left over. Each slot that a draw must fill costs -log of the chance that one of its
    live cards comes within `DRAW_HORIZON` draws; jokers in the hand fill the dearest slots of
    runs that need not be pure and of sets; a hand without a pure run, or without a second run,
    pays for one begun from nothing. The distance is the cheapest such plan, found by a search
    over the hand's cards from the lowest, remembered by the cards left and what the plan holds.

    The cards are those of one decision (the hand, and the open card when picking), so every
    hand it scores is a subset and the searches share what they remember. The strong player
    asks a decision's worth of hands (a dozen, each a search of a few hundred states) on every
    turn, so the search is the computer players' main cost: a run's slot costs are looked up
    once per decision, and a state is remembered under one number."""

    def __init__(
        self, unseen: Counter[Card], wild: int | None, rules: Rules, universe: Sequence[Card]
    ) -> None:
        self.wild = wild
        self.max_set = min(len(SUITS), rules.max_set_size)
        self.live_wilds = sum(count for card, count in unseen.items() if is_wild(card, wild))
        self.live = max(1, sum(unseen.values()))
        self.costs: dict[int, float] = {}
        naturals = sorted((card for card in universe if not is_wild(card, wild)), key=_suit_first)
        self.copies: dict[Card, list[int]] = {}
        for index, card in enumerate(naturals):
            self.copies.setdefault(card, []).append(1 << index)
        # the runs and the set each card can begin with later cards
        self.runs: list[list[_Run]] = []
        self.sets: list[_Set | None] = []
        for index, card in enumerate(naturals):
            later = _later(index, naturals)
            self.runs.append(self._runs(card, later, unseen))
            self.sets.append(self._set(card, later, unseen))
        self.universe = universe
        self.memo: dict[int, float] = {}
        self.best = self._search(self.memo, cap_sets=False)
        self._floor: float | None = None

    def floor(self) -> float:
        """No hand made of this decision's cards (any of them, all but one say) is nearer a show
        than this; the hands asked about must be made of them (`universe`).

        The search over all of them, with every set also allowed to stop at three: a hand with
        fewer cards has the same blocks with those cards missing, and a card more never costs a
        plan anything (it is thrown, or fills a slot, and a set it would make four may stay
        three; without that, a set of four can crowd out a cheaper plan)."""
        if self._floor is None:
            self._floor = self._search({}, cap_sets=True)(*self._held(self.universe))
        return self._floor

    def __call__(self, cards: Sequence[Card]) -> float:
        return self.best(*self._held(cards))

    def _held(self, cards: Sequence[Card]) -> tuple[int, int, int, bool, int]:
        """The search's first state for `cards`: all their natural cards left, nothing planned."""
        held = 0
        jokers = 0
        for card in cards:
            if is_wild(card, self.wild):
                jokers += 1
                continue
            held |= next(bit for bit in self.copies[card] if not held & bit)
        return held, 0, 0, False, jokers

    def _runs(self, card: Card, later: Mapping[Card, int], unseen: Counter[Card]) -> list[_Run]:
        """The runs `card` can begin with the `later` cards: each window of 3 to 5 round it
        (longer than 3 only when the hand holds both ends)."""
        runs: list[_Run] = []
        for others, ends in _run_windows(card):
            if not any(other in later for other in others) or not all(end in later for end in ends):
                continue
            needs = tuple(
                (later.get(other, 0), self._cost(unseen[other]), self._cost(unseen[other] + self.live_wilds))
                for other in others
            )
            runs.append((_reach(needs), needs))
        return runs

    @staticmethod
    def _set(card: Card, later: Mapping[Card, int], unseen: Counter[Card]) -> _Set | None:
        """The set of `card`'s rank, if the `later` cards hold another suit of it."""
        kin = [_card_at(card.rank, suit) for suit in SUITS if suit != card.suit]
        if not any(other in later for other in kin):
            return None
        needs = tuple((later.get(other, 0), unseen[other]) for other in kin)
        return _reach(needs), needs

    def _cost(self, outs: int) -> float:
        cost = self.costs.get(outs)
        if cost is None:
            chance = 1 - (1 - min(0.95, max(outs, 0.25) / self.live)) ** DRAW_HORIZON
            cost = self.costs[outs] = -math.log(chance)
        return cost

    def _search(
        self, memo: dict[int, float], *, cap_sets: bool
    ) -> Callable[[int, int, int, bool, int], float]:
        """The search, as one function with what it reads bound to it: it runs a few thousand
        times a decision, so every lookup in it counts.

        `best(rest, used, runs, pure, jokers)` is the cheapest plan for the cards in `rest` when
        blocks of `used` cards and slots are already planned, `runs` of them runs (counted to
        2), `pure` if one is a pure run. The lowest card of `rest` is thrown, or begins a block
        that takes its other cards from `rest` (one copy each; a set up to its largest size)
        and leaves a slot for each card it misses (a set short of three: one slot, any of its
        absent suits), drawn or filled by a joker (not in a pure run). With `cap_sets`, a set
        that takes four cards may also stop at three (`floor`)."""
        all_runs = self.runs
        all_sets = self.sets
        max_set = self.max_set
        finish = self._finish
        cost_of = self._cost
        live_wilds = self.live_wilds

        def best(rest: int, used: int, runs: int, pure: bool, jokers: int) -> float:
            key = (((rest << _COUNT_BITS | used) << 2 | runs) << 1 | pure) << _COUNT_BITS | jokers
            value = memo.get(key)
            if value is not None:
                return value
            if not rest:
                value = memo[key] = finish(used, runs, pure, jokers)
                return value
            lowest = rest & -rest
            rest ^= lowest
            index = lowest.bit_length() - 1
            value = best(rest, used, runs, pure, jokers)  # the card is thrown
            after = runs + 1 if runs < 2 else 2
            for reach, needs in all_runs[index]:
                if not reach & rest:
                    continue  # a run of one card
                left = rest
                taken = 1
                natural = 0.0
                wild_costs: list[float] = []
                for copies, cost, wild_cost in needs:
                    have = copies & left
                    if have:
                        left ^= have & -have
                        taken += 1
                    else:
                        natural += cost
                        wild_costs.append(wild_cost)
                used_after = used + taken + len(wild_costs)
                if used_after > CARDS_PER_HAND:
                    continue
                if not wild_costs:
                    found = best(left, used_after, after, True, jokers)
                    if found < value:
                        value = found
                    continue
                if natural < value:
                    found = natural + best(left, used_after, after, True, jokers)
                    if found < value:
                        value = found
                wild_costs.sort(reverse=True)
                for filled in range(min(jokers, len(wild_costs)) + 1):
                    cost = sum(wild_costs[filled:])
                    if cost < value:
                        found = cost + best(left, used_after, after, pure, jokers - filled)
                        if found < value:
                            value = found
            kin = all_sets[index]
            if kin is not None and kin[0] & rest:
                left = rest
                taken = 1
                pooled = 0
                at_three = 0  # what is left once it holds three (read only if it takes four)
                for copies, outs in kin[1]:
                    have = copies & left
                    if have and taken < max_set:
                        left ^= have & -have
                        taken += 1
                        if taken == 3:
                            at_three = left
                    else:
                        pooled += outs
                if taken >= 3:
                    if used + taken <= CARDS_PER_HAND:
                        found = best(left, used + taken, runs, pure, jokers)
                        if found < value:
                            value = found
                    if cap_sets and taken > 3 and used + 3 <= CARDS_PER_HAND:
                        found = best(at_three, used + 3, runs, pure, jokers)
                        if found < value:
                            value = found
                elif used + taken + 1 <= CARDS_PER_HAND:
                    used_after = used + taken + 1
                    cost = cost_of(pooled + live_wilds)
                    if cost < value:
                        found = cost + best(left, used_after, runs, pure, jokers)
                        if found < value:
                            value = found
                    if jokers and value > 0.0:
                        found = best(left, used_after, runs, pure, jokers - 1)
                        if found < value:
                            value = found
            memo[key] = value
            return value

        return best

    def _finish(self, used: int, runs: int, pure: bool, jokers: int) -> float:
        """What the slots left over cost, with a pure run and a second run begun from nothing
        where the plan lacks them, the jokers filling the dearest slots they may."""
        cost = 0.0
        wild_slots: list[float] = []
        if not pure:
            cost += 3 * self._cost(SCRATCH_OUTS)
            used += 3
            runs += 1
        if runs < 2:
            wild_slots += [self._cost(SCRATCH_OUTS + self.live_wilds)] * 3
            used += 3
        if used > CARDS_PER_HAND:
            return UNREACHABLE
        wild_slots += [self._cost(FREE_OUTS + self.live_wilds)] * (CARDS_PER_HAND - used)
        wild_slots.sort(reverse=True)
        return cost + sum(wild_slots[jokers:])


@cache  # a few windows per card, the same in every decision
def _run_windows(card: Card) -> tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...]:
    """The runs of 3 to 5 in `card`'s suit round it: the other cards of each, and the ends a
    run longer than 3 must hold (none for a run of 3)."""
    assert card.suit is not None
    windows: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
    for position in _positions(card):
        for length in (3, 4, 5):
            for start in range(max(ACE, position - length + 1), min(position, HIGH_ACE - length + 1) + 1):
                others = tuple(_card_at(p, card.suit) for p in range(start, start + length) if p != position)
                ends = tuple(_card_at(p, card.suit) for p in (start, start + length - 1) if p != position)
                windows.append((others, ends if length > 3 else ()))
    return tuple(windows)


def _later(index: int, naturals: Sequence[Card]) -> dict[Card, int]:
    """The cards after `index` in the search's order, each with its copies there (a bit mask)."""
    later: dict[Card, int] = {}
    for other_index in range(index + 1, len(naturals)):
        later[naturals[other_index]] = later.get(naturals[other_index], 0) | 1 << other_index
    return later


def _reach(needs: _RunNeeds | _SetNeeds) -> int:
    """The hand's cards a block may take: all the copies of what it needs."""
    reach = 0
    for need in needs:
        reach |= need[0]
    return reach


def _suit_first(card: Card) -> tuple[int, int]:
    assert card.suit is not None
    return SUITS.index(card.suit), card.rank
