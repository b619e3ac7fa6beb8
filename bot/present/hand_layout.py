"""How a player's cards are laid out: groups they made themselves, or the solver's suggestion.

Front ends number cards by their place in this layout (1-14), so a player can say "discard 7"
and mean the card they see seventh. The layout follows the hand as it changes: a picked card
joins the loose cards at the end, a discarded card leaves its group. A front end whose players
type numbers from memory (the terminal's `d 10`) asks that a pick move nothing else
(`follow(..., keep_places=True)`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Rules, best_arrangement
from bot.engine.cards import Card, sort_cards
from bot.engine.errors import IllegalActionError
from bot.engine.melds import GroupKind


@dataclass
class HandLayout:
    groups: list[list[Card]] = field(default_factory=list)
    custom: bool = False  # the player grouped the cards; otherwise the solver's suggestion is shown
    # Where (1-14) the card picked this turn lies, once a pick kept every other card in place:
    # the one copy to mark when the hand holds two alike (two decks).
    picked_at: int | None = None
    # The hand the groups were last suggested for, and those groups: a hand shown again
    # unchanged (its DM edited for someone else's move) is not solved again.
    _suggested: tuple[Any, list[list[Card]]] | None = field(default=None, repr=False, compare=False)

    @property
    def cards(self) -> list[Card]:
        return [card for group in self.groups for card in group]

    def follow(
        self, hand: Sequence[Card], wild_rank: int | None, rules: Rules, *, keep_places: bool = False
    ) -> None:
        """Brings the layout in line with `hand`, keeping the player's own groups if any. With
        `keep_places`, a card picked (the hand grown by one) takes the next number in a group of
        its own and nothing else moves, so a number the player read before the pick still names
        the same card; the suggestion is made anew once the hand changes otherwise."""
        held, now = Counter(self.cards), Counter(hand)
        grown = now - held
        if keep_places and self.groups and not held - now and grown.total() == 1:
            self.groups.append(list(grown))
            self.picked_at = len(self.cards)
            if not self.custom:  # shown again unchanged, it is not solved again
                self._suggested = ((tuple(hand), wild_rank, rules), self.groups)
            return
        if held != now:
            self.picked_at = None
        if not self.custom:
            key = (tuple(hand), wild_rank, rules)
            if self._suggested is None or self._suggested[0] != key or self._suggested[1] is not self.groups:
                self.groups = suggested_groups(hand, wild_rank, rules)
                self._suggested = (key, self.groups)
            return
        missing = Counter(hand)
        kept = []
        for group in self.groups:
            still = []
            for card in group:
                if missing[card] > 0:
                    missing[card] -= 1
                    still.append(card)
            if still:
                kept.append(still)
        extra = list(missing.elements())
        if extra:
            kept.append(extra)
        self.groups = kept

    def card_at(self, position: int) -> Card:
        cards = self.cards
        if not 1 <= position <= len(cards):
            raise IllegalActionError(
                "There is no card number {position}: use 1 to {count}.", position=position, count=len(cards)
            )
        return cards[position - 1]

    def suggest(self, hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> None:
        """The solver's suggestion made anew, the player's own groups dropped (`group auto`)."""
        picked = self.cards[self.picked_at - 1] if self.picked_at is not None else None
        self.custom, self._suggested = False, None
        self.follow(hand, wild_rank, rules)
        if picked is not None and self.picked_at is not None:  # the same hand: either copy of two
            self.picked_at = max(place for place, card in enumerate(self.cards, start=1) if card == picked)

    def regroup(self, spec: str, hand: Sequence[Card]) -> None:
        """`1 2 3 / 4 5 6 / 7 8 9 10` makes groups of those positions; unnamed cards stay loose."""
        cards = self.cards
        order: list[int] = []  # the old positions, in their new order
        groups: list[list[Card]] = []
        for part in spec.split("/"):
            positions = [_position(token, len(cards)) for token in part.split()]
            if not positions:
                continue
            if set(order) & set(positions) or len(set(positions)) != len(positions):
                raise IllegalActionError("Each card can be in only one group.")
            order += positions
            groups.append([cards[p - 1] for p in positions])
        loose = [index for index in range(1, len(cards) + 1) if index not in order]
        if loose:
            order += loose
            groups.append([cards[p - 1] for p in loose])
        self.groups, self.custom = groups, True
        if self.picked_at is not None:
            self.picked_at = order.index(self.picked_at) + 1
        assert Counter(self.cards) == Counter(hand)


def suggested_groups(hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> list[list[Card]]:
    """The solver's melds for the hand (for 14 cards, the suggested discard is last)."""
    arrangement = best_arrangement(hand, wild_rank, rules)
    groups, loose = with_sets_shown(
        [list(meld.cards) for meld in arrangement.groups], sort_cards(arrangement.ungrouped), wild_rank, rules
    )
    if arrangement.discard is not None:
        loose.append(arrangement.discard)
    return [*groups, loose] if loose else groups


def with_sets_shown(
    melds: list[list[Card]], loose: list[Card], wild_rank: int | None, rules: Rules
) -> tuple[list[list[Card]], list[Card]]:
    """Where sets pay like loose cards (004), the solver has no reason to group them and leaves
    them loose; a player is shown them as the sets they are, at the same price."""
    if rules.sets_protected or len(loose) < 3:
        return melds, loose
    found = best_arrangement(loose, wild_rank, rules).groups
    sets = [list(meld.cards) for meld in found if meld.kind is GroupKind.SET]
    left = list(loose)
    for group in sets:
        for card in group:
            left.remove(card)
    return melds + sets, left


def _position(token: str, count: int) -> int:
    if not token.isdigit():
        raise IllegalActionError(
            "'{token}' is not a card number: use numbers 1 to {count}.", token=token, count=count
        )
    position = int(token)
    if not 1 <= position <= count:
        raise IllegalActionError(
            "There is no card number {position}: use 1 to {count}.", position=position, count=count
        )
    return position
