"""The strong level's score of 13 cards, lower the better.

Points alone say nothing of progress (a hand without a life is charged every card), so the
score adds up the deadwood its melds leave, forgiven by the live cards that would meld it, what
the missing lives cost, how far the hand is from a show (`distance`) and the points it would be
charged, weighed by how late the deal is. `_Counting` holds what one decision knows about the
cards still out, and weighs a decision's throws cheapest part first so as to skip the dear one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from bot.engine.ai.common import _card_at, _positions, _solve, _without
from bot.engine.ai.distance import _Distance
from bot.engine.ai.unseen import _next_seat, taken_from_open, unseen_cards
from bot.engine.cards import ACE, SUITS, Card, card_points, is_wild
from bot.engine.deal import Phase, SeatView
from bot.engine.melds import HIGH_ACE, GroupKind

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
SHOWN = -100.0  # the score of a valid show: better than any hand still playing
BOUND_SLACK = 1e-9  # a bound's sums may round differently from the score's


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
