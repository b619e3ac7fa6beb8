"""The computer seat: one seat's view in, one legal command out, by level.

The easy level's whole policy is here (it asks the solver and little else); the strong level's
decisions are in `strong`. A player keeps nothing between turns, so the service can ask a fresh
one every time (`decide`), in another process if it likes.
"""

from __future__ import annotations

import random
from enum import StrEnum

from bot.engine.ai.common import _declaration, _discardable, _solve, _without
from bot.engine.ai.strong import _should_drop, _strong_discard, _strong_wants
from bot.engine.cards import Card, card_points
from bot.engine.commands import Command, Discard, Drop, Pick, Source
from bot.engine.deal import Phase, SeatView
from bot.engine.errors import IllegalActionError
from bot.engine.solver import Arrangement

EASY_CARELESS = 0.3  # how often the easy level throws a random high card instead of thinking
EASY_HIGH_CARD = 8  # the cards the careless throw picks from: this many points or more


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


def _easy_wants(view: SeatView, open_card: Card) -> bool:
    """The open card, if the best 13 of the 14 would be charged less than the hand as it is."""
    hand = list(view.hand)
    with_open = _solve([*hand, open_card], view.wild_rank, view.rules)
    if with_open.discard == open_card and not view.rules.rediscard_open_pick:
        return False
    return with_open.points < _solve(hand, view.wild_rank, view.rules).points
