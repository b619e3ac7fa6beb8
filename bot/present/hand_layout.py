"""How a player's cards are laid out: groups they made themselves, or the solver's suggestion.

Front ends number cards by their place in this layout (1-14), so a player can say "discard 7"
and mean the card they see seventh. The layout follows the hand as it changes: a picked card
joins the loose cards at the end, a discarded card leaves its group.
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
    # The hand the groups were last suggested for, and those groups: a hand shown again
    # unchanged (its DM edited for someone else's move) is not solved again.
    _suggested: tuple[Any, list[list[Card]]] | None = field(default=None, repr=False, compare=False)

    @property
    def cards(self) -> list[Card]:
        return [card for group in self.groups for card in group]

    def follow(self, hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> None:
        """Brings the layout in line with `hand`, keeping the player's own groups if any."""
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

    def regroup(self, spec: str, hand: Sequence[Card]) -> None:
        """`1 2 3 / 4 5 6 / 7 8 9 10` makes groups of those positions; unnamed cards stay loose."""
        cards = self.cards
        used: set[int] = set()
        groups: list[list[Card]] = []
        for part in spec.split("/"):
            positions = [_position(token, len(cards)) for token in part.split()]
            if not positions:
                continue
            if used & set(positions) or len(set(positions)) != len(positions):
                raise IllegalActionError("Each card can be in only one group.")
            used |= set(positions)
            groups.append([cards[p - 1] for p in positions])
        loose = [card for index, card in enumerate(cards, start=1) if index not in used]
        if loose:
            groups.append(loose)
        self.groups, self.custom = groups, True
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
