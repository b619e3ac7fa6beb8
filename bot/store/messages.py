"""Messages the front end posted and keeps editing (a table message, a player's hand DM, a
check-in), the users whose DMs are closed, and the front end's own small facts (the commands it
last synced), mixed into `Store`.

Kept so that a restart edits the same messages instead of posting new ones, and does not try
closed DMs again. The store does not interpret keys: the front end names what a message shows
(`table:12`, `hand:12:4051`) and forgets a table's messages by prefix when the table closes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

REMEMBER_MESSAGE = (
    "INSERT INTO posted_messages (key, channel_id, message_id, updated_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (key) DO UPDATE SET channel_id = excluded.channel_id, "
    "message_id = excluded.message_id, updated_at = excluded.updated_at"
)
FORGET_MESSAGES = "DELETE FROM posted_messages WHERE key = ? OR substr(key, 1, ?) = ?"
REFUSE_DMS = (
    "INSERT INTO dm_refusals (user_id, at) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET at = excluded.at"
)
ALLOW_DMS = "DELETE FROM dm_refusals WHERE user_id = ?"
SET_FRONT_END_STATE = (
    "INSERT INTO front_end_state (key, value, updated_at) VALUES (?, ?, ?) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at"
)

# Each bot process's heartbeat, for sharing Discord's request limit between the processes of one
# bot (see `live_processes`): a row per process in front_end_state, its time the last beat.
PROCESS_KEY = "process:"
FORGET_STALE_PROCESSES = (
    "DELETE FROM front_end_state "
    f"WHERE substr(key, 1, {len(PROCESS_KEY)}) = '{PROCESS_KEY}' AND updated_at < ?"
)


class MessageStore:
    """The posted-messages half of `Store` (which provides the write queue and the reader)."""

    if TYPE_CHECKING:

        async def _write(self, statements: dict[str, list[Sequence[Any]]]) -> None: ...

        async def _all(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

        async def _one(self, sql: str, params: Sequence[Any]) -> Any: ...

    async def remember_message(self, key: str, channel_id: int, message_id: int, now: float) -> None:
        await self._write({REMEMBER_MESSAGE: [(key, channel_id, message_id, now)]})

    async def forget_messages(self, key: str) -> None:
        """Forgets `key` and every key under it (`table:12` takes `table:12:...` too)."""
        prefix = key + ":"
        await self._write({FORGET_MESSAGES: [(key, len(prefix), prefix)]})

    async def posted_messages(self) -> dict[str, tuple[int, int]]:
        rows = await self._all("SELECT key, channel_id, message_id FROM posted_messages", ())
        return {key: (channel_id, message_id) for key, channel_id, message_id in rows}

    async def refuse_dms(self, user_id: int, now: float) -> None:
        await self._write({REFUSE_DMS: [(user_id, now)]})

    async def allow_dms(self, user_id: int) -> None:
        await self._write({ALLOW_DMS: [(user_id,)]})

    async def dm_refusals(self, since: float) -> set[int]:
        """Users whose DMs were refused at `since` or later (an older refusal is tried again:
        people do open their DMs)."""
        rows = await self._all("SELECT user_id FROM dm_refusals WHERE at >= ?", (since,))
        return {row[0] for row in rows}

    async def front_end_state(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM front_end_state WHERE key = ?", (key,))
        return str(row[0]) if row else None

    async def set_front_end_state(self, key: str, value: str, now: float) -> None:
        await self._write({SET_FRONT_END_STATE: [(key, value, now)]})

    async def live_processes(self, process: str, now: float, since: float) -> int:
        """Notes that `process` is alive at `now` and counts the processes of this bot that beat
        at `since` or later, this one included (the rows of those gone quiet are deleted). Each
        process beats every few seconds and takes its share of the request limit by this count
        (`bot.discord.share`); a process that died stops counting once `since` passes its beat."""
        await self._write(
            {SET_FRONT_END_STATE: [(PROCESS_KEY + process, "", now)], FORGET_STALE_PROCESSES: [(since,)]}
        )
        count = await self._one(
            "SELECT count(*) FROM front_end_state WHERE substr(key, 1, 8) = ? AND updated_at >= ?",
            (PROCESS_KEY, since),
        )
        return max(1, int(count[0]))
