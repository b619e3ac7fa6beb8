"""Computer players: a policy per level that turns one seat's view into one legal command.

A player only ever receives `Deal.view(seat)`, so it cannot cheat: what it knows about the
other hands is what the table showed (the open pile, the discards and who took which discard).
Both levels lean on the exact solver; they differ in what they ask of it.

* Easy plays the way a casual player does: it takes the open card when the solver says the
  card lowers its points, throws the solver's discard (or, now and then, just a high card) and
  never drops.
* Strong scores a 13-card hand by more than its points (which, without a life, are simply the
  sum of the cards and say nothing about progress): the deadwood left outside the solver's
  melds, discounted by the live cards that would meld it (card counting over every card it has
  seen), plus what the missing lives cost, plus how far the hand is from a show by the cards it
  still misses and how likely they are to come (`_Distance`), plus the points the hand would be
  charged, weighed more the later the deal (the likelier another player shows). It takes the
  open card only when that score clearly improves, keeps its discards away from what the next
  player has been collecting, and drops (first or middle) when the hand is likely to cost more
  than the drop: what such a hand nets was measured in self-play, by its pure sequence, its
  jokers, the table's size and the turn.

Decisions are deterministic given the `random.Random` the player was made with.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple

from bot.engine.cards import ACE, SUITS, Card, build_shoe, card_points, is_wild
from bot.engine.commands import Command, Declare, Discard, Drop, Pick, Source
from bot.engine.deal import Phase, SeatStatus, SeatView
from bot.engine.declaration import best_declaration
from bot.engine.errors import IllegalActionError
from bot.engine.melds import HIGH_ACE, GroupKind, judge_groups
from bot.engine.rules import CARDS_PER_HAND, Rules
from bot.engine.solver import Arrangement, best_arrangement

EASY_CARELESS = 0.3  # how often the easy level throws a random high card instead of thinking
EASY_HIGH_CARD = 8  # the cards the careless throw picks from: this many points or more

# The share of a loose card's points forgiven per live card that would meld it. Small: a point
# saved now is worth more than a draw hoped for, against players who show within a dozen turns
# (paired on the same 2-player shoes against greedy, 0.05 nets about +1 chip a deal over 0.1, and
# crediting the hand's outs further, beyond its loose cards, lost 1-4 chips a deal).
OUTS_WEIGHT = 0.05
WILD_OUTS_WEIGHT = 0.5  # a live joker melds any draw, but it is wanted for everything else too
MOST_FORGIVEN = 0.8  # at most this share of a loose card's points is forgiven for its outs
NO_PURE_SEQUENCE = 25.0  # what missing the first life costs on top of the deadwood
PURE_DRAW_RELIEF = 10.0  # ... less this when two loose cards of one suit are one card from a run
NO_SECOND_SEQUENCE = 8.0  # what missing the second life costs
FEEDING = 3.0  # the cost of throwing the next player a card near what they took from the pile
OPEN_PICK_MARGIN = 3.0  # the open card must improve the score by this much (the closed card may too)
# The chips a hand nets on average when it plays to the end, by (pure sequence held, jokers held
# up to MOST_JOKERS_TELL): (at a table of two, at a larger one). Measured at the first pick in
# Points self-play against greedy players with drops turned off (1,200 deals of two, 750 of
# four). Drops are weighed against these (`likely_chips`).
LIKELY_CHIPS: dict[tuple[bool, int], tuple[float, float]] = {
    (False, 0): (-24.0, -37.0),
    (False, 1): (0.0, -2.0),
    (False, 2): (16.0, 17.0),
    (True, 0): (-2.0, -12.0),
    (True, 1): (16.0, 28.0),
    (True, 2): (34.0, 83.0),
}
MOST_JOKERS_TELL = 2
CHIPS_LOST_PER_TURN = 1.2  # ... and, without a pure sequence, a hand loses this more for each turn
# A hand's points count in its score more as the deal goes on, since the later it is the likelier
# another player shows and charges them: in full from this turn of the table's on. A deal of two
# ends after about 15 turns, so the points count in full early (12 netted +0.8 chips a deal over
# 20 on 1,000 paired shoes; 6, and counting them in full from the start, no more than 20).
POINTS_AT_RISK_TURN = 12
# How far a hand is from a show (`_Distance`) counts in its score at this many points a unit.
# Paired on the same 1,000 2-player shoes against greedy: 8, 12, 14 and 22 all netted about +1
# chip a deal over leaving it out (12: +1.1, interval +0.2 to +2.0); the deadwood and missing
# lives stay in the score, since scoring by the distance alone gained no more and varied more.
DISTANCE_WEIGHT = 12.0
# A missing card is weighed by the chance it comes within this many draws (12 netted 0.2 less).
DRAW_HORIZON = 8
FREE_OUTS = 4  # the live cards that would lengthen some meld: what a slot left over may take
SCRATCH_OUTS = 2  # ... and each card of a meld the hand has not begun
UNREACHABLE = 50.0  # the distance of a hand that cannot hold the lives in 13 cards
SHOWN = -100.0  # the score of a valid show: better than any hand still playing
BOUND_SLACK = 1e-9  # a bound's sums may round differently from the score's


class Level(StrEnum):
    EASY = "easy"
    STRONG = "strong"


class ComputerPlayer:
    """One computer seat. It keeps no memory between turns: everything comes from the view."""

    def __init__(self, level: Level | str, rng: random.Random, *, careless: float = EASY_CARELESS) -> None:
        self.level = Level(level)
        self.rng = rng
        self.careless = careless  # how often an easy player throws a random high card

    @classmethod
    def greedy(cls, rng: random.Random) -> ComputerPlayer:
        """The benchmarks' baseline, never offered to players: an easy player with no careless
        throws. It takes the open card when that lowers its points, throws the card whose
        removal leaves the fewest, never drops, and shows as soon as it can."""
        return cls(Level.EASY, rng, careless=0.0)

    def decide(self, view: SeatView) -> Command:
        """The one command this seat plays now."""
        seat = view.seat
        if not view.to_act or seat is None:
            raise IllegalActionError("It is not this computer player's turn.")
        declaration = _declaration(view)
        if declaration is not None:
            return declaration
        if view.phase is Phase.PICK:
            return self._pick(view, seat)
        if self.level is Level.EASY:
            card = self._easy_discard(view, _solve(view.hand, view.wild_rank, view.rules))
        else:
            card = _strong_discard(view)
        return Discard(seat, card)

    # ----------------------------------------------------------------- picking

    def _pick(self, view: SeatView, seat: int) -> Command:
        if self.level is Level.STRONG and _should_drop(view):
            return Drop(seat)
        open_card = view.open_card
        take_open = (
            open_card is not None
            and view.can_pick_open
            and (_easy_wants(view, open_card) if self.level is Level.EASY else _strong_wants(view, open_card))
        )
        return Pick(seat, Source.OPEN if take_open else Source.CLOSED)

    # ----------------------------------------------------------------- easy discards

    def _easy_discard(self, view: SeatView, best: Arrangement) -> Card:
        allowed = _discardable(view)
        ace = view.rules.ace_points
        careless = [card for card in allowed if card_points(card, view.wild_rank, ace) >= EASY_HIGH_CARD]
        if careless and self.rng.random() < self.careless:
            return self.rng.choice(careless)
        if best.discard is not None and best.discard in allowed:
            return best.discard
        # The solver's discard may not go (the card just taken from the open pile, a joker):
        # the card whose removal leaves the fewest points, the costlier of two that tie.
        return min(
            allowed,
            key=lambda card: (
                _solve(_without(view.hand, card), view.wild_rank, view.rules).points,
                -card_points(card, view.wild_rank, ace),
                card.sort_key,
            ),
        )


def decide(level: Level | str, view: SeatView, rng: random.Random) -> Command:
    """One decision by a fresh player of `level` (players keep nothing between turns): the
    service's policy. A module-level function rather than a closure, so that a process pool can
    send it to its workers by name, and pure, so that those workers need import nothing else."""
    return ComputerPlayer(level, rng).decide(view)


# --------------------------------------------------------------------- shared helpers


@lru_cache(maxsize=8192)
def _solve_sorted(cards: tuple[Card, ...], wild_rank: int | None, rules: Rules) -> Arrangement:
    return best_arrangement(cards, wild_rank, rules)


def _solve(cards: Iterable[Card], wild_rank: int | None, rules: Rules) -> Arrangement:
    """The solver, remembered: the strong level asks about the same 13 cards when it weighs the
    open card and again when it discards after taking it."""
    return _solve_sorted(tuple(sorted(cards, key=lambda card: card.sort_key)), wild_rank, rules)


def _without(cards: Sequence[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


def _discardable(view: SeatView) -> list[Card]:
    """The distinct cards the rules let this seat throw, jokers kept unless nothing else is left
    (a joker thrown is a joker handed to the table)."""
    cards = sorted({card for card in view.hand if view.may_let_go(card)}, key=lambda card: card.sort_key)
    plain = [card for card in cards if not is_wild(card, view.wild_rank)]
    return plain or cards


def _declaration(view: SeatView) -> Declare | None:
    """A show as soon as one is valid (before any pick too, where the rules allow it): the
    engine's best declaration of the solver's arrangement, judged once more, since a computer
    player must never make a wrong show; anything less plays on."""
    if not view.can_declare:
        return None
    show = _solve(view.hand, view.wild_rank, view.rules)
    if not show.valid:
        return None
    declaration = best_declaration(view)  # the open card just taken may not be the finish card
    return declaration if judge_groups(declaration.groups, view.wild_rank, view.rules).valid else None


def _easy_wants(view: SeatView, open_card: Card) -> bool:
    """The open card, if the best 13 of the 14 would be charged less than the hand as it is."""
    hand = list(view.hand)
    with_open = _solve([*hand, open_card], view.wild_rank, view.rules)
    if with_open.discard == open_card and not view.rules.rediscard_open_pick:
        return False
    return with_open.points < _solve(hand, view.wild_rank, view.rules).points


# --------------------------------------------------------------------- what the table showed


def _shoe(view: SeatView) -> Counter[Card]:
    players = sum(status is not SeatStatus.SITTING_OUT for status in view.statuses)
    rules = view.rules
    return Counter(_shoe_counts(rules.decks_for(players), rules.printed_jokers_for(players)))


@lru_cache(maxsize=16)
def _shoe_counts(decks: int, printed_jokers: int) -> Mapping[Card, int]:
    """The shoe counted once per size (read-only: each decision counts down a copy)."""
    return MappingProxyType(Counter(build_shoe(decks, printed_jokers)))


def taken_from_open(view: SeatView) -> list[tuple[int, Card]]:
    """The discards other seats took from the open pile, with the seat that took each.

    The pile never shrinks during play (every pick from it is followed by a discard on top), so
    the pile is the discards, in order, less those taken; a reshuffle only cuts off its bottom.
    Matching the pile against the discards from the top finds the taken ones; a card taken is
    the one discarded just before the taker's own discard."""
    pile = list(view.open_pile)
    discards = view.discards
    taken: list[tuple[int, Card]] = []
    below = len(pile) - 1
    for index in range(len(discards) - 1, -1, -1):
        if below < 0:
            break  # the rest were reshuffled (or taken before a reshuffle): nothing to tell
        card = discards[index][1]
        if pile[below] == card:
            below -= 1
            continue
        taker = discards[index + 1][0] if index + 1 < len(discards) else view.turn
        if taker != view.seat:
            taken.append((taker, card))
    return taken


def unseen_cards(view: SeatView, taken: Sequence[tuple[int, Card]]) -> Counter[Card]:
    """Cards this seat could still draw or be thrown: the shoe less its own hand, the open pile,
    the cut card when it is kept out of play, and the discards others took (those sit in known
    hands). A cut card under the closed deck (001, 003) will be drawn, so it still counts."""
    unseen = _shoe(view)
    unseen.subtract(view.hand)
    unseen.subtract(view.open_pile)
    if view.cut_joker is not None and not view.rules.cut_card_in_play:
        unseen[view.cut_joker] -= 1
    unseen.subtract(card for _, card in taken)
    return +unseen  # drops the counts that went to zero or below (duplicates misread)


def _next_seat(view: SeatView) -> int | None:
    assert view.seat is not None
    players = len(view.statuses)
    for step in range(1, players):
        seat = (view.seat + step) % players
        if view.statuses[seat] is SeatStatus.PLAYING:
            return seat
    return None


# --------------------------------------------------------------------- strong scoring


def _positions(card: Card) -> tuple[int, ...]:
    return (ACE, HIGH_ACE) if card.rank == ACE else (card.rank,)


@cache  # a card per position and suit: made once, not on every look
def _card_at(position: int, suit: Any) -> Card:
    return Card(ACE if position == HIGH_ACE else position, suit)


@lru_cache(maxsize=4096)  # asked for every pair of loose cards in every hand scored
def _draws(card: Card, partner: Card) -> tuple[Card, ...]:
    """The cards that would turn `card` and `partner` into a three-card meld (jokers aside)."""
    if card.rank == partner.rank:
        if card.suit == partner.suit:
            return ()
        return tuple(_card_at(card.rank, suit) for suit in SUITS if suit not in (card.suit, partner.suit))
    if card.suit != partner.suit:
        return ()
    needed: list[Card] = []
    for a in _positions(card):
        for b in _positions(partner):
            low, high = min(a, b), max(a, b)
            if high - low == 1:
                needed += [_card_at(p, card.suit) for p in (low - 1, high + 1) if ACE <= p <= HIGH_ACE]
            elif high - low == 2:
                needed.append(_card_at(low + 1, card.suit))
    return tuple(needed)


class _Throw(NamedTuple):
    """A throw as `_Counting` weighs it."""

    before: float  # its score but for the distance from a show (a show's whole score)
    card: Card
    feeding: float  # what throwing it to the next player costs (`_Counting.feeding`)
    cards: list[Card]  # the 13 cards it leaves
    known: tuple[float, int] | None  # their deadwood and missing lives, and points (None: a show)


class _Counting:
    """What one decision knows about the cards still out, shared by every hand it scores."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.wild = view.wild_rank
        self.rules = view.rules
        self.taken = taken_from_open(view)
        self.unseen = unseen_cards(view, self.taken)
        self.live_wilds = sum(count for card, count in self.unseen.items() if is_wild(card, self.wild))
        after = _next_seat(view)
        self.next_wants = [card for seat, card in self.taken if seat == after]
        self.at_risk = min(1.0, view.turn_number / POINTS_AT_RISK_TURN)
        universe = [*view.hand, *([view.open_card] if view.phase is Phase.PICK and view.open_card else [])]
        self.distance = _Distance(self.unseen, self.wild, self.rules, universe)
        self.weighted_floor: float | None = None  # DISTANCE_WEIGHT * `distance.floor()`, once asked

    def score(self, cards: Sequence[Card]) -> float:
        """How far 13 cards are from a show, in points, plus what they would be charged if
        another player showed now, weighed by how late it is (lower is better)."""
        return self._with_distance(cards, self._known(cards))

    def _known(self, cards: Sequence[Card]) -> tuple[float, int] | None:
        """The score of 13 cards before their distance from a show, as (the deadwood and
        missing lives, the points charged now); None for a valid show."""
        best = _solve(cards, self.wild, self.rules)
        if best.valid:
            return None
        kinds = [meld.kind for meld in best.groups]
        pure = kinds.count(GroupKind.PURE_SEQUENCE)
        sequences = pure + kinds.count(GroupKind.IMPURE_SEQUENCE)
        loose = [card for card in best.ungrouped if not is_wild(card, self.wild)]
        total = 0.0
        pure_draw = False
        wanted: list[set[Card]] = [set() for _ in loose]  # the draws that would meld each card
        for index, card in enumerate(loose):
            for other_index in range(index + 1, len(loose)):
                other = loose[other_index]
                draws = _draws(card, other)  # the same draws for the pair either way round
                if draws:
                    wanted[index].update(draws)
                    wanted[other_index].update(draws)
                    pure_draw = pure_draw or other.suit == card.suit
        for card, needed in zip(loose, wanted, strict=True):
            outs: float = sum(self.unseen[c] for c in needed)
            if needed:
                outs += WILD_OUTS_WEIGHT * self.live_wilds
            forgiven = min(MOST_FORGIVEN, OUTS_WEIGHT * outs)
            total += card_points(card, self.wild, self.rules.ace_points) * (1 - forgiven)
        if not pure:
            total += NO_PURE_SEQUENCE - (PURE_DRAW_RELIEF if pure_draw else 0.0)
        if sequences < 2:
            total += NO_SECOND_SEQUENCE
        return total, best.points

    def _with_distance(self, cards: Sequence[Card], known: tuple[float, int] | None) -> float:
        """The score of 13 cards, from what `_known` says of them."""
        if known is None:
            return SHOWN
        total, points = known
        return total + DISTANCE_WEIGHT * self.distance(cards) + self.at_risk * points

    def feeding(self, card: Card) -> float:
        """The cost of throwing `card` to a next player who has been taking its neighbours."""
        for wanted in self.next_wants:
            if wanted.rank == card.rank or (wanted.suit == card.suit and abs(wanted.rank - card.rank) <= 2):
                return FEEDING
        return 0.0

    def best_discard(self, hand: Sequence[Card], allowed: Sequence[Card]) -> tuple[float, Card]:
        """The throw that leaves the best 13 cards, its score included (ties: the costlier card).

        A throw's distance from a show is the dear part of its score, so it is found only for
        the throws that could still win (`_throws`)."""
        best: tuple[float, int, tuple[int, int], Card] | None = None
        for throw in self._throws(hand, allowed):
            if best is not None and self._least(throw) >= best[0] + BOUND_SLACK:
                break
            card = throw.card
            candidate = (
                self._scored(throw),
                -card_points(card, self.wild, self.rules.ace_points),
                card.sort_key,
                card,
            )
            if best is None or candidate < best:
                best = candidate
        assert best is not None, "a discard needs a card to throw"
        return best[0], best[3]

    def scores_below(self, hand: Sequence[Card], allowed: Sequence[Card], threshold: float) -> bool:
        """Whether some throw leaves 13 cards scoring below `threshold`: `best_discard`'s
        question when only the answer's side of a line matters, which rules out more throws."""
        for throw in self._throws(hand, allowed):
            if self._least(throw) >= threshold + BOUND_SLACK:
                return False
            if self._scored(throw) < threshold:
                return True
        return False

    def _throws(self, hand: Sequence[Card], allowed: Sequence[Card]) -> list[_Throw]:
        """Each throw with what it scores before the distance from a show, which costs little,
        in that order: once a throw's least score (`_least`) is too much, so is every later one's."""
        throws: list[_Throw] = []
        for card in allowed:
            cards = _without(hand, card)
            known = self._known(cards)
            feeding = self.feeding(card)
            before = SHOWN + feeding if known is None else known[0] + self.at_risk * known[1] + feeding
            throws.append(_Throw(before, card, feeding, cards, known))
        throws.sort(key=lambda throw: throw.before)
        return throws

    def _least(self, throw: _Throw) -> float:
        """The least a throw can score: with the least distance any throw of these cards can
        leave (`_Distance.floor`, searched once, when a throw is first ruled on)."""
        if throw.known is None:
            return throw.before  # a show has no distance
        if self.weighted_floor is None:
            self.weighted_floor = DISTANCE_WEIGHT * self.distance.floor()
        return throw.before + self.weighted_floor

    def _scored(self, throw: _Throw) -> float:
        """A throw's score, feeding included."""
        return self._with_distance(throw.cards, throw.known) + throw.feeding


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


def _strong_wants(view: SeatView, open_card: Card) -> bool:
    """The open card when it scores better than the hand as it is. A card that can meld with
    nothing in the hand (no neighbour, and too few jokers to make a meld round it) is left
    alone whatever it saves in points: the closed card is as likely to be low, and may be a
    joker or a draw, while taking from the pile tells the table what the hand collects."""
    if is_wild(open_card, view.wild_rank):
        return True
    hand = list(view.hand)
    wilds = sum(is_wild(card, view.wild_rank) for card in hand)
    if wilds < 2 and not any(_draws(open_card, card) for card in hand):
        return False
    counting = _Counting(view)
    with_open = [*hand, open_card]
    allowed = [card for card in _plain(with_open, view.wild_rank) if card != open_card]
    if not allowed:
        return False
    if _solve(with_open, view.wild_rank, view.rules).valid:
        return True
    return counting.scores_below(with_open, allowed, counting.score(hand) - OPEN_PICK_MARGIN)


def _plain(cards: Iterable[Card], wild_rank: int | None) -> list[Card]:
    return sorted({card for card in cards if not is_wild(card, wild_rank)}, key=lambda card: card.sort_key)


def _strong_discard(view: SeatView) -> Card:
    counting = _Counting(view)
    _, card = counting.best_discard(list(view.hand), _discardable(view))
    return card


def _should_drop(view: SeatView) -> bool:
    """A drop when the hand is likely to cost more than dropping does: a first drop before the
    first pick, a middle drop after it (see `likely_chips`)."""
    assert view.seat is not None
    if not view.rules.drops_allowed:
        return False
    cost = view.rules.middle_drop if view.has_picked[view.seat] else view.rules.first_drop
    return likely_chips(view) < -cost


def likely_chips(view: SeatView) -> float:
    """What this seat's hand is likely to net in chips if it plays on: measured in self-play by
    whether the hand holds a pure sequence and how many jokers, with the table's size, less
    what a hand without a pure sequence loses for every turn of the table that passes."""
    players = sum(status is not SeatStatus.SITTING_OUT for status in view.statuses)
    wilds = min(MOST_JOKERS_TELL, sum(is_wild(card, view.wild_rank) for card in view.hand))
    best = _solve(view.hand, view.wild_rank, view.rules)
    pure = best.valid or any(meld.kind is GroupKind.PURE_SEQUENCE for meld in best.groups)
    two_player, larger = LIKELY_CHIPS[pure, wilds]
    chips = two_player if players == 2 else larger
    return chips if pure else chips - CHIPS_LOST_PER_TURN * view.turn_number


__all__ = ["ComputerPlayer", "Level", "decide", "taken_from_open", "unseen_cards"]
