"""What the service tells front ends: the engine's events and its own, tagged with the table.

The service's own events (a table opened, a seat taken, a new deadline...) are typed records
like the engine's (`bot.engine.events`): one frozen class per kind, payload as attributes. A
`TableEvent` holds one of either, so a front end matches on the record's class.

The front end sends each seat only `visible_events(events, seat)`, so a card drawn from the
closed deck is hidden from every other seat in one place (the engine's `Event.visible_to`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from bot.engine.events import Event, EventKind
from bot.engine.formats import Format
from bot.store import SeatRecord


class ServiceEventKind(StrEnum):
    TABLE_OPENED = "table_opened"
    JOINED = "joined"
    LEFT_TABLE = "left_table"  # left before the match started
    RULES_CHANGED = "rules_changed"  # the host changed the lobby's rules
    MATCH_STARTED = "match_started"
    CANCELLED = "cancelled"
    FINISHED = "finished"  # the match is over and the channel is free
    CLOCK = "clock"  # a new deadline
    RESUMED = "resumed"  # the bot restarted and the table plays on
    DAMAGED = "damaged"  # found at start-up with rows that cannot be resumed: set aside


class ServiceEvent:
    """What every service event has: its kind, the seat it is about (or None), and its form
    as data (`{"kind", "seat"?, "data"?}`, as the engine's events are written)."""

    __slots__ = ()
    KIND: ClassVar[ServiceEventKind]
    seat: int | None

    @property
    def kind(self) -> ServiceEventKind:
        return self.KIND

    def visible_to(self, seat: int | None) -> ServiceEvent:
        return self  # nothing in the service's own events is for one seat alone

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.KIND.value}
        if self.seat is not None:
            out["seat"] = self.seat
        data = self._data()
        if data:
            out["data"] = data
        return out

    def _data(self) -> dict[str, object]:
        return {}


@dataclass(frozen=True, slots=True)
class TableOpened(ServiceEvent):
    KIND = ServiceEventKind.TABLE_OPENED
    format: Format
    host: int
    max_seats: int
    point_value: int
    seat: int = 0  # the host's

    def _data(self) -> dict[str, object]:
        return {
            "format": self.format.value,
            "host": self.host,
            "max_seats": self.max_seats,
            "point_value": self.point_value,
        }


@dataclass(frozen=True, slots=True)
class Joined(ServiceEvent):
    KIND = ServiceEventKind.JOINED
    seat: int
    sitter: SeatRecord  # a user, or a computer player (no user id, a level)

    def _data(self) -> dict[str, object]:
        return dict(self.sitter.to_json())


@dataclass(frozen=True, slots=True)
class LeftTable(ServiceEvent):
    """`user_id` left `seat` before the match started: the seats after it move up one."""

    KIND = ServiceEventKind.LEFT_TABLE
    seat: int
    user_id: int

    def _data(self) -> dict[str, object]:
        return {"user_id": self.user_id}


@dataclass(frozen=True, slots=True)
class RulesChanged(ServiceEvent):
    """The rule options that now differ from the table's preset, and the seats they allow."""

    KIND = ServiceEventKind.RULES_CHANGED
    changed: tuple[str, ...]
    max_seats: int
    seat: None = field(default=None, init=False, repr=False)

    def _data(self) -> dict[str, object]:
        return {"changed": list(self.changed), "max_seats": self.max_seats}


@dataclass(frozen=True, slots=True)
class MatchStarted(ServiceEvent):
    KIND = ServiceEventKind.MATCH_STARTED
    seats: tuple[SeatRecord, ...]
    seat: None = field(default=None, init=False, repr=False)

    def _data(self) -> dict[str, object]:
        return {"seats": [sitter.to_json() for sitter in self.seats]}


class CancelReason(StrEnum):
    EMPTY = "empty"  # the last person seated left the lobby


@dataclass(frozen=True, slots=True)
class Cancelled(ServiceEvent):
    """The table closed before its match ended: cancelled `by` a user, or for a `reason`."""

    KIND = ServiceEventKind.CANCELLED
    by: int | None = None
    reason: CancelReason | None = None
    seat: None = field(default=None, init=False, repr=False)

    def _data(self) -> dict[str, object]:
        if self.reason is not None:
            return {"reason": self.reason.value}
        return {"by": self.by}


@dataclass(frozen=True, slots=True)
class Finished(ServiceEvent):
    """The match is over (`winner` None for a split pool) and the channel is free."""

    KIND = ServiceEventKind.FINISHED
    winner: int | None
    seat: None = field(default=None, init=False, repr=False)

    def _data(self) -> dict[str, object]:
        return {"winner": self.winner}


@dataclass(frozen=True, slots=True)
class Deadline(ServiceEvent):
    """A new deadline: `seat` must act by `deadline` (None between deals, where the next deal
    starts then), its own turn time ending at `base`; `turn` is [deal number, turn number]."""

    KIND = ServiceEventKind.CLOCK
    seat: int | None
    turn: tuple[int, ...]
    base: float | None
    deadline: float | None

    def _data(self) -> dict[str, object]:
        return {"seat": self.seat, "turn": list(self.turn), "base": self.base, "deadline": self.deadline}


@dataclass(frozen=True, slots=True)
class Resumed(ServiceEvent):
    """The bot restarted and the table plays on, with its clock (None for a table not playing)."""

    KIND = ServiceEventKind.RESUMED
    clock: Deadline | None
    seat: None = field(default=None, init=False, repr=False)

    def _data(self) -> dict[str, object]:
        return {"clock": self.clock._data() if self.clock else None}


@dataclass(frozen=True, slots=True)
class Damaged(ServiceEvent):
    """Found at start-up with rows that cannot be resumed: set aside, holding `channel_id`."""

    KIND = ServiceEventKind.DAMAGED
    channel_id: int
    seat: None = field(default=None, init=False, repr=False)

    def _data(self) -> dict[str, object]:
        return {"channel_id": self.channel_id}


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One event at one table: the engine's (private card included) or the service's own."""

    table_id: int
    event: Event | ServiceEvent

    @property
    def kind(self) -> EventKind | ServiceEventKind:
        return self.event.kind

    @property
    def seat(self) -> int | None:
        return self.event.seat

    def visible_to(self, seat: int | None) -> TableEvent:
        seen = self.event.visible_to(seat)
        return self if seen is self.event else dataclasses.replace(self, event=seen)

    def to_json(self) -> dict[str, object]:
        return {"table_id": self.table_id, **self.event.to_json()}


def visible_events(events: Iterable[TableEvent], seat: int | None) -> list[TableEvent]:
    """The events as `seat` may see them (None: the public channel)."""
    return [event.visible_to(seat) for event in events]
