"""What the service tells front ends: the engine's events and its own, tagged with the table.

The front end sends each seat only `visible_events(events, seat)`, so a card drawn from the
closed deck is hidden from every other seat in one place (the engine's `Event.visible_to`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.engine.events import Event


class ServiceEventKind(StrEnum):
    TABLE_OPENED = "table_opened"
    JOINED = "joined"
    LEFT_TABLE = "left_table"  # left before the match started
    RULES_CHANGED = "rules_changed"  # the host changed the lobby's rules: `data` names the options
    MATCH_STARTED = "match_started"
    CANCELLED = "cancelled"
    FINISHED = "finished"  # the match is over and the channel is free
    CLOCK = "clock"  # a new deadline: `data` has the seat (None between deals) and times
    RESUMED = "resumed"  # the bot restarted and the table plays on
    DAMAGED = "damaged"  # found at start-up with rows that cannot be resumed: set aside (`data`: channel_id)


@dataclass(frozen=True)
class TableEvent:
    table_id: int
    kind: str  # an engine EventKind or a ServiceEventKind value
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)  # a service event's details (none for the engine's)
    event: Event | None = None  # the engine's event, private card included

    @classmethod
    def of(cls, table_id: int, event: Event) -> TableEvent:
        return cls(table_id, event.kind.value, event.seat, {}, event)

    def visible_to(self, seat: int | None) -> TableEvent:
        if self.event is None:
            return self
        seen = self.event.visible_to(seat)
        return self if seen is self.event else dataclasses.replace(self, event=seen)

    def to_json(self) -> dict[str, Any]:
        if self.event is not None:
            return {"table_id": self.table_id, **self.event.to_json()}
        out: dict[str, Any] = {"table_id": self.table_id, "kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.data:
            out["data"] = self.data
        return out


def visible_events(events: Iterable[TableEvent], seat: int | None) -> list[TableEvent]:
    """The events as `seat` may see them (None: the public channel)."""
    return [event.visible_to(seat) for event in events]
