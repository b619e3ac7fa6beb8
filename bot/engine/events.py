"""What a deal says happened. Front ends turn events into messages; the store logs them.

An event may name a card that only one seat may see (the card drawn from the closed deck), and
may carry `secret` details for that seat alone (a wrong show's groups and the reason it failed,
which name cards the others must not learn mid-deal). `visible_to` is how every front end asks
for the form a given seat may see, so hiding is decided once, here, not in each front end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.engine.cards import Card, parse_card


class EventKind(StrEnum):
    TOSS = "toss"
    DEALT = "dealt"
    TURN = "turn"
    PICKED = "picked"
    DISCARDED = "discarded"
    MISSED_TURN = "missed_turn"
    DROPPED = "dropped"
    LEFT = "left"
    WRONG_SHOW = "wrong_show"
    DECLARED = "declared"
    RESHUFFLED = "reshuffled"
    DECK_EXHAUSTED = "deck_exhausted"
    DEAL_OVER = "deal_over"
    # Match events.
    DEAL_STARTED = "deal_started"
    STANDINGS = "standings"
    ELIMINATED = "eliminated"
    REJOINED = "rejoined"
    SPLIT_VOTE = "split_vote"
    MATCH_OVER = "match_over"


@dataclass(frozen=True)
class Event:
    kind: EventKind
    seat: int | None = None
    card: Card | None = None
    private: bool = False  # `card` may be seen only by `seat`
    data: dict[str, Any] = field(default_factory=dict)
    secret: dict[str, Any] = field(default_factory=dict)  # seen only by `seat`

    def visible_to(self, seat: int | None) -> Event:
        """The event as `seat` may see it (None: a spectator or the public channel)."""
        if seat != self.seat and (self.private or self.secret):
            return Event(self.kind, self.seat, None if self.private else self.card, self.private, self.data)
        return self

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.card is not None:
            out["card"] = self.card.code
        if self.private:
            out["private"] = True
        if self.data:
            out["data"] = self.data
        if self.secret:
            out["secret"] = self.secret
        return out

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Event:
        card = raw.get("card")
        return cls(
            EventKind(raw["kind"]),
            raw.get("seat"),
            parse_card(card) if card else None,
            bool(raw.get("private", False)),
            dict(raw.get("data", {})),
            dict(raw.get("secret", {})),
        )
