"""League rows: the SQL for scheduled pool leagues, mixed into `Store`.

A league is written as one document under its own lock, so a save is a single UPDATE that goes
through the store's write queue like every other write (group commit, atomic). The update names
the row it expects to change, so saving a league that was never created fails loudly.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.store.records import StoredLeague, TableRecord
from bot.store.snapshots import dumps

INSERT_LEAGUE = (
    "INSERT INTO leagues (id, guild_id, name, state, next_wake, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
UPDATE_LEAGUE = "UPDATE leagues SET state = ?, next_wake = ?, updated_at = ? WHERE id = ?"

log = logging.getLogger(__name__)


class LeagueStore:
    """The league half of `Store` (which provides the write queue and the readers used here)."""

    _next_league_id: int

    if TYPE_CHECKING:

        async def _write(self, statements: dict[str, list[Sequence[Any]]]) -> None: ...

        async def _all(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

        async def channel_tables(self, channel_id: int) -> list[TableRecord]: ...

    def new_league_id(self) -> int:
        league_id, self._next_league_id = self._next_league_id, self._next_league_id + 1
        return league_id

    async def create_league(self, league: StoredLeague, now: float) -> None:
        row = (league.id, league.guild_id, league.name, dumps(league.state), league.next_wake, now, now)
        await self._write({INSERT_LEAGUE: [row]})

    async def save_league(self, league: StoredLeague, now: float) -> None:
        await self._write({UPDATE_LEAGUE: [(dumps(league.state), league.next_wake, now, league.id)]})

    async def leagues(self) -> list[StoredLeague]:
        """Every league whose row can be read; a row that is not JSON is logged and left out,
        so one damaged row cannot keep the other leagues from starting."""
        rows = await self._all("SELECT id, guild_id, name, state, next_wake FROM leagues ORDER BY id", ())
        leagues = []
        for row in rows:
            try:
                state = json.loads(row[3])
            except ValueError:
                log.exception("league %s (%s) is not readable JSON; it is skipped", row[0], row[2])
                continue
            leagues.append(StoredLeague(row[0], row[1], row[2], state, row[4]))
        return leagues

    async def league_table(self, league_id: int, channel_id: int) -> TableRecord | None:
        """The newest table the league opened in this channel (a league table's thread), finished
        or not: how start-up finds a table whose match ended, or began, after the last save."""
        tables = [t for t in await self.channel_tables(channel_id) if t.league_id == league_id]
        return tables[-1] if tables else None
