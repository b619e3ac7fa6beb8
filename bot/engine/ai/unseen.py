"""What the table showed one seat: the discards other seats took from the open pile, and the
cards still out. Read from `Deal.view(seat)` alone, so a computer player cannot cheat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from bot.engine.cards import Card, build_shoe
from bot.engine.deal import SeatStatus, SeatView


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
