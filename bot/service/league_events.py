"""What the league service tells front ends and keeps per league, apart from the service itself
so the front end can import them without the scheduler (see notes/league-interface.md)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, ClassVar, Protocol

from bot.engine.formats import Format
from bot.leagues import Adjustment, League, Night, NightStatus, NightTable, Placing
from bot.service.table_events import TableEvent


class LeagueEventKind(StrEnum):
    LEAGUE_CREATED = "league_created"
    SEASON_STARTED = "season_started"
    SEASON_ENDED = "season_ended"
    NIGHT_OPEN = "night_open"
    SIGNUPS = "signups"
    REMINDER = "reminder"
    NIGHT_CHANGED = "night_changed"
    CHECK_IN = "check_in"
    CHECKED_IN = "checked_in"
    TABLE_STARTED = "table_started"
    TABLE_SETTLED = "table_settled"
    NIGHT_FINISHED = "night_finished"
    ADJUSTED = "adjusted"
    DAMAGED = "damaged"  # found at start-up unreadable and set aside
    DELETED = "deleted"  # an admin deleted it


@dataclass(frozen=True, slots=True)
class LeagueEvent:
    """What every league event has: the league, its server and the night it is about (a night
    number within the league's latest season, or None). The subclasses below are the events,
    each with its payload as attributes."""

    KIND: ClassVar[LeagueEventKind]
    league_id: int
    guild_id: int
    night: int | None = None

    @property
    def kind(self) -> LeagueEventKind:
        return self.KIND


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueCreated(LeagueEvent):
    KIND = LeagueEventKind.LEAGUE_CREATED
    name: str
    format: Format
    schedule: str  # in words
    timezone: str
    rules: str  # the preset its seasons start with
    by: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonStarted(LeagueEvent):
    KIND = LeagueEventKind.SEASON_STARTED
    season: int
    rules: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonEnded(LeagueEvent):
    KIND = LeagueEventKind.SEASON_ENDED
    season: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NightOpen(LeagueEvent):
    """The night is open for sign-up: the front end publishes it."""

    KIND = LeagueEventKind.NIGHT_OPEN
    starts_at: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class Signups(LeagueEvent):
    KIND = LeagueEventKind.SIGNUPS
    signups: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class NightReminder(LeagueEvent):
    KIND = LeagueEventKind.REMINDER
    key: str  # which of the schedule's reminders ("24h", "15m")
    before: timedelta
    starts_at: datetime
    signups: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class NightChanged(LeagueEvent):
    """The night is postponed, cancelled or missed (`status`), for `reason`."""

    KIND = LeagueEventKind.NIGHT_CHANGED
    status: NightStatus
    starts_at: datetime
    reason: str
    event_id: int | None  # the scheduled event the front end edits or cancels
    message_id: int | None  # the announcement it edits


@dataclass(frozen=True, slots=True)
class CheckInTable:
    number: int
    seats: tuple[int, ...]
    channel_id: int  # the table's thread, where it checks in
    until: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckIn(LeagueEvent):
    """Check-in opens at these tables of round `round`; `resumed` after a restart, where the
    front end edits the check-in message it may already have."""

    KIND = LeagueEventKind.CHECK_IN
    round: int
    tables: tuple[CheckInTable, ...]
    resumed: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckedIn(LeagueEvent):
    KIND = LeagueEventKind.CHECKED_IN
    round: int
    number: int
    user_id: int
    checked_in: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableStarted(LeagueEvent):
    KIND = LeagueEventKind.TABLE_STARTED
    round: int
    number: int
    channel_id: int | None
    table_id: int | None  # the service's table that plays it
    present: tuple[int, ...]
    no_shows: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSettled(LeagueEvent):
    """A table's result; `reason` and `by` for one an admin abandoned."""

    KIND = LeagueEventKind.TABLE_SETTLED
    round: int
    number: int
    placings: tuple[Placing, ...]
    reason: str
    by: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class NightFinished(LeagueEvent):
    KIND = LeagueEventKind.NIGHT_FINISHED
    points: Mapping[int, int]  # league points per member tonight, before adjustments


@dataclass(frozen=True, slots=True, kw_only=True)
class Adjusted(LeagueEvent):
    KIND = LeagueEventKind.ADJUSTED
    adjustment: Adjustment


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueDamaged(LeagueEvent):
    """Found at start-up unreadable and set aside: its name and channel, as far as they read."""

    KIND = LeagueEventKind.DAMAGED
    name: str
    channel_id: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class LeagueDeleted(LeagueEvent):
    """An admin deleted it: `event_ids` are the scheduled events of nights still to come."""

    KIND = LeagueEventKind.DELETED
    name: str
    channel_id: int | None
    event_ids: tuple[int, ...] = ()


@dataclass
class LeagueRecord:
    """What the store keeps per league."""

    id: int
    league: League
    names: dict[int, str] = field(default_factory=dict)  # display names, updated on join
    announcement: dict[int, int] = field(default_factory=dict)  # night number -> message id

    def to_json(self) -> dict[str, Any]:
        return {
            "league": self.league.to_json(),
            "names": {str(user): name for user, name in self.names.items()},
            "announcement": {str(night): message for night, message in self.announcement.items()},
        }

    @classmethod
    def from_json(cls, league_id: int, raw: dict[str, Any]) -> LeagueRecord:
        return cls(
            league_id,
            League.from_json(raw["league"]),
            {int(user): name for user, name in raw["names"].items()},
            {int(night): message for night, message in raw["announcement"].items()},
        )

    def name_of(self, user: int) -> str:
        return self.names.get(user, f"Member {user}")


class ThreadOpener(Protocol):
    async def __call__(self, record: LeagueRecord, night: Night, table: NightTable) -> int:
        """Creates the channel a league table plays in and returns its id."""
        ...


AnyEvent = LeagueEvent | TableEvent
EventSink = Callable[[list[AnyEvent]], Awaitable[None]]
