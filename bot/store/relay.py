"""DM presses handed between sharded processes, through the database (PostgreSQL only).

Discord sends every DM event to shard 0 alone, presses of the buttons in a hand DM included.
A hand DM belongs to a table, and the table to a server on some shard: when the process of
shard 0 gets a press for a table of a shard it does not run, it hands the raw interaction on
(`forward`: a row in `forwarded_interactions` and a NOTIFY on `rummy_interactions`). The
process of that shard takes the row (`InteractionRelay.run`) and treats the payload as if its
own gateway had received it; it answers Discord itself, since an interaction is answered over
REST with its token, from anywhere; it takes only the rows of shards it holds the live lease of
(so a process that woke up after its lease takes none from the one that holds it now). Discord
wants the first answer within 3 s: a row older than that cannot be answered any more and is
dropped (the player's client says the interaction failed, and they press again). Rows for a
shard whose process is down wait for the next one, which drops them the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

from bot.store.leases import DATABASE_NOW
from bot.store.shards import Shards

log = logging.getLogger(__name__)
CHANNEL = "rummy_interactions"
ANSWER_WINDOW = 3.0  # seconds Discord waits for an interaction's first answer
_POLL = 1.0  # seconds between looks without a notification (one missed while reconnecting, say)
_TAKE = (
    "DELETE FROM forwarded_interactions AS f WHERE shard_id = ANY($1::bigint[]) AND EXISTS ("
    "SELECT FROM shard_leases AS l WHERE l.shard_id = f.shard_id AND l.holder = $2 "
    f"AND l.expires_at > {DATABASE_NOW}) RETURNING payload, {DATABASE_NOW} - at"
)


class InteractionRelay:
    """A sharded process's end of the relay: `forward` to other shards, `run` to receive its own
    (those whose lease `holder` holds)."""

    def __init__(self, url: str, pool: asyncpg.Pool, shards: Shards, holder: str) -> None:
        self.url, self.pool, self.shards, self.holder = url, pool, shards, holder

    async def forward(self, shard: int, payload: dict[str, Any]) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                f"INSERT INTO forwarded_interactions (shard_id, payload, at) VALUES ($1, $2, {DATABASE_NOW})",
                shard,
                json.dumps(payload),
            )
            await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, str(shard))

    async def run(self, stop: asyncio.Event, deliver: Callable[[dict[str, Any]], None]) -> None:
        """Until `stop` is set: each interaction forwarded to this process's shards, handed to
        `deliver` (on a connection of its own, which LISTENs; connected again if it drops)."""
        while not stop.is_set():
            try:
                conn = await asyncpg.connect(self.url)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("DM presses from other shards cannot be received yet: %s", error)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), _POLL)
                continue
            try:
                await self._receive(conn, stop, deliver)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("the relay's connection failed, connecting again: %s", error)
            finally:
                with contextlib.suppress(Exception):
                    await conn.close()

    async def _receive(
        self, conn: asyncpg.Connection, stop: asyncio.Event, deliver: Callable[[dict[str, Any]], None]
    ) -> None:
        woken = asyncio.Event()
        await conn.add_listener(CHANNEL, lambda *_: woken.set())
        while not stop.is_set() and not conn.is_closed():
            woken.clear()
            for payload, age in await conn.fetch(_TAKE, list(self.shards.ids), self.holder):
                if age > ANSWER_WINDOW:
                    log.info("a DM press forwarded %.1f s ago is too old to answer: dropped", age)
                    continue
                try:
                    deliver(json.loads(payload))
                except Exception:  # one press the front end cannot take must not stop the others
                    log.exception("a DM press forwarded to this process could not be handled")
            waiting = [asyncio.ensure_future(woken.wait()), asyncio.ensure_future(stop.wait())]
            await asyncio.wait(waiting, timeout=_POLL, return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiting:
                waiter.cancel()
