"""The strong level's decisions: take the open card when it clearly scores better, throw the
card that leaves the best score (`scoring`), and drop when the hand is likely to cost more than
dropping does, by what such hands netted in self-play."""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.ai.common import _discardable, _solve
from bot.engine.ai.scoring import _Counting, _draws
from bot.engine.cards import Card, is_wild
from bot.engine.deal import SeatStatus, SeatView
from bot.engine.melds import GroupKind

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
