"""League rows: the SQL for scheduled pool leagues, mixed into `Store`.

A league is written as one document under its own lock, so a save is a single UPDATE that goes
through the store's write queue like every other write (group commit, atomic). The update names
the row it expects to change, so saving a league that was never created fails loudly.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.store.faults import DamagedRowError
from bot.store.records import StoredLeague, TableRecord
from bot.store.snapshots import dumps

INSERT_LEAGUE = (
    "INSERT INTO leagues (id, guild_id, name, state, next_wake, created_at, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
UPDATE_LEAGUE = "UPDATE leagues SET state = ?, next_wake = ?, updated_at = ? WHERE id = ?"
MARK_LEAGUE_DAMAGED = "UPDATE leagues SET damage = ?, updated_at = ? WHERE id = ?"
DELETE_LEAGUE = "DELETE FROM leagues WHERE id = ?"


class LeagueStore:
    """The league half of `Store` (which provides the write queue and the readers used here)."""

    _next_league_id: int
    _id_step: int

    if TYPE_CHECKING:

        async def _write(self, statements: dict[str, list[Sequence[Any]]]) -> None: ...

        async def _all(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

        async def channel_tables(self, channel_id: int) -> list[TableRecord]: ...

        def _served(self, column: str = "guild_id") -> str: ...

    def new_league_id(self) -> int:
        league_id, self._next_league_id = self._next_league_id, self._next_league_id + self._id_step
        return league_id

    async def create_league(self, league: StoredLeague, now: float) -> None:
        row = (league.id, league.guild_id, league.name, dumps(league.state), league.next_wake, now, now)
        await self._write({INSERT_LEAGUE: [row]})

    async def save_league(self, league: StoredLeague, now: float) -> None:
        await self._write({UPDATE_LEAGUE: [(dumps(league.state), league.next_wake, now, league.id)]})

    async def mark_league_damaged(self, league_id: int, reason: str, now: float) -> None:
        """Sets a league aside: start-ups from now on report it as damaged without reading it."""
        await self._write({MARK_LEAGUE_DAMAGED: [(reason, now, league_id)]})

    async def delete_league(self, league_id: int) -> None:
        """An admin's delete: the league's row goes (its tables' rows stay, with their results)."""
        await self._write({DELETE_LEAGUE: [(league_id,)]})

    async def leagues(self) -> list[StoredLeague]:
        """Every league (of this process's servers, if sharded); one whose row cannot be read (or
        was set aside before) comes with its damage, and its state only where that still reads
        as a JSON object (for the channel it names), so one damaged row cannot keep the other
        leagues from starting."""
        columns, served = "id, guild_id, name, state, next_wake, damage", self._served()
        rows = await self._all(f"SELECT {columns} FROM leagues WHERE true{served} ORDER BY id", ())
        leagues = []
        for row in rows:
            if row[5] is not None:
                state = _readable(row[3])
                leagues.append(StoredLeague(row[0], row[1], row[2], state, None, str(row[5]), reported=True))
                continue
            try:
                leagues.append(league_from_row(row))
            except DamagedRowError as error:
                leagues.append(StoredLeague(row[0], row[1], row[2], {}, None, str(error)))
        return leagues

    async def league_table(self, league_id: int, channel_id: int) -> TableRecord | None:
        """The newest table the league opened in this channel (a league table's thread), finished
        or not: how start-up finds a table whose match ended, or began, after the last save."""
        tables = [t for t in await self.channel_tables(channel_id) if t.league_id == league_id]
        return tables[-1] if tables else None


def _readable(text: Any) -> dict[str, Any]:
    """A set-aside row's state where it is still a JSON object; empty where it is not."""
    try:
        state = json.loads(text)
    except (TypeError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def league_from_row(row: Sequence[Any]) -> StoredLeague:
    """A `leagues` row (id, guild_id, name, state, next_wake) as stored; `DamagedRowError` if its
    state is not a JSON object."""
    try:
        state = json.loads(row[3])
        if not isinstance(state, dict):
            raise TypeError(f"the state is a JSON {type(state).__name__}, not an object")
    except (TypeError, ValueError) as error:
        raise DamagedRowError.of("league", row[0], error) from error
    return StoredLeague(row[0], row[1], row[2], state, row[4])
