"""Finished deals and matches as replays and histories read them, mixed into `Store`.

Lists are read from indexed columns first and only the rows kept are opened: a deal's seats
(who paid what) are taken out of its stored JSON by the database (`_DEAL_SEATS`, each backend's
own JSON function), so a list of deals never ships their whole move logs.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.store.records import DealSummary, MatchSummary, SeatRecord, StoredDeal, TableRecord

log = logging.getLogger(__name__)

# The finished deals of a server that a user played or that were played in a channel, newest
# first: chosen from the plain columns, then their seats taken out of the chosen rows alone.
_RECENT_DEALS = (
    "SELECT r.match_id, r.number, r.finished_at, r.winner, t.id, t.channel_id, t.format, t.seats, "
    "m.status, m.updated_at, {seats} FROM ("
    "SELECT d.match_id, d.number, d.finished_at, d.winner FROM deals d "
    "JOIN matches m ON m.id = d.match_id JOIN tables t ON t.id = m.table_id "
    "WHERE t.guild_id = ? AND (m.id IN (SELECT match_id FROM match_standings WHERE user_id = ?) "
    "OR t.channel_id = ?) ORDER BY d.finished_at DESC, d.match_id DESC, d.number DESC LIMIT ?) r "
    "JOIN deals d ON d.match_id = r.match_id AND d.number = r.number "
    "JOIN matches m ON m.id = r.match_id JOIN tables t ON t.id = m.table_id "
    "ORDER BY r.finished_at DESC, r.match_id DESC, r.number DESC"
)
# A user's matches in a server, last played first, with their own standing row.
_RECENT_MATCHES = (
    "SELECT m.id, m.status, m.started_at, m.updated_at, m.pruned_at, t.id, t.format, t.seats, "
    "{winner}, (SELECT count(*) FROM deals d WHERE d.match_id = m.id), s.seat, s.standing, s.status "
    "FROM match_standings s JOIN matches m ON m.id = s.match_id JOIN tables t ON t.id = m.table_id "
    "WHERE s.user_id = ? AND t.guild_id = ? ORDER BY m.updated_at DESC, m.id DESC LIMIT ?"
)


class ReplayStore:
    """The replays' half of `Store` (which provides the reader). A backend names, in its own
    SQL, a deal row's seats (`_DEAL_SEATS`, JSON text) and a match's winner (`_MATCH_WINNER`)."""

    _DEAL_SEATS: str
    _MATCH_WINNER: str

    if TYPE_CHECKING:

        async def _all(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

        async def _one(self, sql: str, params: Sequence[Any]) -> Any: ...

        async def table(self, table_id: int) -> TableRecord | None: ...

    async def stored_deal(self, table_id: int, number: int) -> StoredDeal | None:
        """Deal `number` (from 1) of the table's match, with its record if it has ended and is
        kept; None if the table never started a match."""
        table = await self.table(table_id)
        if table is None:
            return None
        match = await self._one(
            "SELECT m.id, m.status, m.updated_at, m.pruned_at, "
            "(SELECT count(*) FROM deals d WHERE d.match_id = m.id) FROM matches m WHERE m.table_id = ?",
            (table_id,),
        )
        if match is None:
            return None
        match_id, status, updated_at, pruned_at, finished = match
        row = await self._one(
            "SELECT snapshot, finished_at FROM deals WHERE match_id = ? AND number = ?", (match_id, number)
        )
        return StoredDeal(
            table=table,
            match_id=int(match_id),
            number=number,
            record=json.loads(row[0]) if row else None,
            finished_at=float(row[1]) if row else None,
            match_status=str(status),
            match_updated_at=float(updated_at),
            pruned_at=None if pruned_at is None else float(pruned_at),
            deals_finished=int(finished),
        )

    async def recent_deals(
        self, guild_id: int, user_id: int, channel_id: int | None = None, limit: int = 10
    ) -> list[DealSummary]:
        """The server's finished deals that `user_id` played, or that were played in
        `channel_id`, newest first. A row that cannot be read is logged and left out."""
        rows = await self._all(
            _RECENT_DEALS.format(seats=self._DEAL_SEATS), (guild_id, user_id, channel_id, limit)
        )
        found = []
        for row in rows:
            try:
                seats = json.loads(row[10])
                found.append(
                    DealSummary(
                        table_id=int(row[4]),
                        number=int(row[1]),
                        channel_id=int(row[5]),
                        format=str(row[6]),
                        seats=_seats(row[7]),
                        winner=None if row[3] is None else int(row[3]),
                        points=[seat["points"] for seat in seats],
                        finished_at=float(row[2]),
                        match_status=str(row[8]),
                        match_updated_at=float(row[9]),
                    )
                )
            except (TypeError, ValueError, LookupError) as error:
                log.error("deal %s of match %s cannot be read for a list: %s", row[1], row[0], error)
        return found

    async def recent_matches(self, guild_id: int, user_id: int, limit: int = 10) -> list[MatchSummary]:
        """The matches `user_id` played in the server, last played first."""
        rows = await self._all(_RECENT_MATCHES.format(winner=self._MATCH_WINNER), (user_id, guild_id, limit))
        found = []
        for row in rows:
            try:
                found.append(
                    MatchSummary(
                        table_id=int(row[5]),
                        match_id=int(row[0]),
                        format=str(row[6]),
                        seats=_seats(row[7]),
                        status=str(row[1]),
                        started_at=float(row[2]),
                        updated_at=float(row[3]),
                        pruned=row[4] is not None,
                        winner=None if row[8] is None else int(row[8]),
                        deals=int(row[9]),
                        seat=int(row[10]),
                        standing=int(row[11]),
                        standing_status=str(row[12]),
                    )
                )
            except (TypeError, ValueError, LookupError) as error:
                log.error("match %s cannot be read for a history: %s", row[0], error)
        return found


def _seats(text: str) -> list[SeatRecord]:
    return [SeatRecord.from_json(seat) for seat in json.loads(text)]
