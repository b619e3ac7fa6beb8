"""What the league service tells front ends and keeps per league, apart from the service itself
so the front end can import them without the scheduler (see notes/league-interface.md)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from bot.leagues import League, Night, Table
from bot.service.events import TableEvent


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
    DAMAGED = "damaged"  # found at start-up unreadable and set aside (`data`: name, channel_id or None)
    DELETED = "deleted"  # an admin deleted it (`data`: name, channel_id or None, event_ids to cancel)


@dataclass(frozen=True)
class LeagueEvent:
    league_id: int
    guild_id: int
    kind: LeagueEventKind
    night: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


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
    async def __call__(self, record: LeagueRecord, night: Night, table: Table) -> int:
        """Creates the channel a league table plays in and returns its id."""
        ...


AnyEvent = LeagueEvent | TableEvent
EventSink = Callable[[list[AnyEvent]], Awaitable[None]]
