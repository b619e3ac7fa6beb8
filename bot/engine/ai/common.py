"""What both levels ask: the solver (remembered across one decision's questions), the cards a
seat may throw, a show as soon as one is valid, and cards by position (an Ace at both ends)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import Any

from bot.engine.cards import ACE, Card, is_wild
from bot.engine.commands import Declare
from bot.engine.deal import SeatView
from bot.engine.declaration import best_declaration
from bot.engine.melds import HIGH_ACE, judge_groups
from bot.engine.rules import Rules
from bot.engine.solver import Arrangement, best_arrangement


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


def _positions(card: Card) -> tuple[int, ...]:
    return (ACE, HIGH_ACE) if card.rank == ACE else (card.rank,)


@cache  # a card per position and suit: made once, not on every look
def _card_at(position: int, suit: Any) -> Card:
    return Card(ACE if position == HIGH_ACE else position, suit)
