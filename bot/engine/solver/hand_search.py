"""A hand in the solver's terms: per-suit counts, printed jokers and the joker pool, with the
quick looks that let a hand with no possible life be priced without a search."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import ACE, JOKER_RANK, Card
from bot.engine.errors import RulesError
from bot.engine.melds import HIGH_ACE
from bot.engine.solver.counts import _AT, _BITS, _LOWEST_BITS, _MAX_COPIES, _ONE, _SUIT_INDEX, _at, _count


class _Hand:
    """A hand in the solver's terms: per-suit counts by position (see `_at`), printed jokers,
    the pool."""

    def __init__(self, cards: Sequence[Card], wild: int | None, ace: int) -> None:
        self.cards = cards
        self.wild = wild
        self.printed = 0
        self.wild_cards = 0
        self.all_points = 0
        counts = [0, 0, 0, 0]
        presence = [0, 0, 0, 0]  # a bit per rank held, per suit
        for card in cards:
            rank = card.rank
            if rank == JOKER_RANK:
                self.printed += 1
                continue
            if rank == wild:
                self.wild_cards += 1
            else:
                self.all_points += ace if rank == ACE else 10 if rank > 10 else rank
            suit = _SUIT_INDEX[card.suit]
            position = _AT[rank]
            counts[suit] += _ONE[position]
            presence[suit] |= 1 << rank
            if counts[suit] >> (_BITS * position) & _MAX_COPIES == _MAX_COPIES:
                raise RulesError(
                    "The solver takes at most {copies} copies of a card in one hand.", copies=_MAX_COPIES - 1
                )
        self.counts = counts
        self.presence = presence
        self.pool = self.printed + self.wild_cards

    def wild_position(self, counts: int) -> int:
        """The wild rank, where the suit holds a wild card (tables do not depend on it otherwise)."""
        wild = self.wild
        if wild is not None and counts >> (_BITS * _at(wild)) & _MAX_COPIES:
            return _at(wild)
        return 0

    def runs_possible(self) -> tuple[bool, int]:
        """Whether any suit holds three cards in a row (a pure run needs that whatever the sets
        take), and how many cards sit in such stretches (two lives without jokers need 6)."""
        any_run, in_runs = False, 0
        for counts, present in zip(self.counts, self.presence, strict=True):
            present |= (present & 2) << 13  # the Ace again, above the King
            middles = present & present >> 1 & present << 1
            if not middles:
                continue
            any_run = True
            covered = middles | middles >> 1 | middles << 1
            in_runs += sum(_count(counts, _at(p % HIGH_ACE or ACE)) for p in range(1, 15) if covered >> p & 1)
        return any_run, in_runs

    def has_triplet(self) -> bool:
        """Whether some card is held three times or more: adding one to every count (each below
        7, so nothing carries) sets a count's top bit exactly where the count was 3 or more."""
        return any((counts + _LOWEST_BITS) & (_LOWEST_BITS << 2) for counts in self.counts)
