"""Which process runs which shard: one lease row per shard in `shard_leases` (PostgreSQL only).

A process started for some shards takes their leases before it loads anything, renews them
while it runs (`LeaseKeeper`), and deletes them when it shuts down cleanly. A shard whose lease
another holder renewed less than the lease's length ago is refused (`ShardTakenError`, naming
the shard and its holder): two processes never run one shard's tables. A process that was
killed leaves its rows behind; once they expire, a process started for those shards takes them
over. Nothing ever takes a live process's shards on its own.

Why lease rows and not a session-level advisory lock (`pg_advisory_lock`), which PostgreSQL
would drop by itself when the holder's connection ends:

- a lease survives the connection: the writer reconnects after a network blip or a server
  restart (`PostgresStore._writing_connection`) and still owns its shards if it renews in time,
  where a lock would have gone with the old connection, silently, letting another process in
  while this one still plays;
- it works through a transaction-pooling proxy (PgBouncer), which gives session locks to
  whichever client holds the server connection at the time;
- a row says who holds the shard and until when, so a refused start can name the holder, an
  admin can read it with `SELECT * FROM shard_leases`, and others can count the live processes
  (the rows with `expires_at` ahead of the database's clock);
- its cost is a takeover that waits for the lease to expire after a crash (`RUMMY_SHARD_LEASE_SECONDS`,
  30 s by default), not a clean restart, which deletes the rows.

Times are the database server's (`clock_timestamp()`), so processes on machines whose clocks
disagree still agree on when a lease ran out. The holder stops itself earlier, by its own
monotonic clock: with no renewal confirmed for half the lease it fences its store (`Store.fence`:
nothing more is saved) and shuts down, before any other process could see the lease expired.
That clock only runs while its event loop does: a loop stalled past the lease (a paused
container, a long collection) would wake up to save moves another process may be making too. So
each write's transaction also checks, in the database, that the leases are still live, and holds
them so until it commits (`ShardLeases.check`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable

import asyncpg

from bot.store.faults import LeaseLostError, ShardTakenError
from bot.store.shards import Shards

log = logging.getLogger(__name__)
DATABASE_NOW = "extract(epoch FROM clock_timestamp())::double precision"
_TAKE = (
    "INSERT INTO shard_leases (shard_id, shard_count, holder, acquired_at, expires_at) "
    f"VALUES ($1, $2, $3, {DATABASE_NOW}, {DATABASE_NOW} + $4) ON CONFLICT (shard_id) DO UPDATE SET "
    "shard_count = excluded.shard_count, holder = excluded.holder, "
    "acquired_at = excluded.acquired_at, expires_at = excluded.expires_at"
)
# This holder's live leases, kept so until the transaction asking ends: a takeover deletes the
# expired rows first (`acquire`), which waits for this lock, while a renewal is not held up by it.
_HELD = (
    f"SELECT shard_id FROM shard_leases WHERE holder = $1 AND shard_id = ANY($2::bigint[]) "
    f"AND expires_at > {DATABASE_NOW} FOR KEY SHARE"
)
# A lease that ran out is not renewed, even if nobody took it yet: a write may have found it out
# already (`_HELD`), and another process may be taking it as this runs.
_RENEW = (
    f"UPDATE shard_leases SET expires_at = {DATABASE_NOW} + $3 "
    f"WHERE holder = $1 AND shard_id = ANY($2::bigint[]) AND expires_at > {DATABASE_NOW} RETURNING shard_id"
)


def new_holder() -> str:
    """This process's name in the lease rows: its host and pid (for an admin to find it), and a
    random tag, since a container's bot is pid 1 every time it starts."""
    return f"{socket.gethostname()} pid {os.getpid()} #{secrets.token_hex(3)}"


class ShardLeases:
    """The leases of `shards` for `holder`, on a PostgreSQL pool (`PostgresStore.leases`)."""

    def __init__(self, pool: asyncpg.Pool, shards: Shards, holder: str, seconds: float) -> None:
        self.pool, self.shards, self.holder, self.seconds = pool, shards, holder, seconds

    async def acquire(self) -> None:
        """Takes every shard's lease, or none: `ShardTakenError` if another holder's lease on one
        of them is live, or if a live process runs with another shard count (the two would
        split the servers differently, and their ids could collide)."""
        async with self.pool.acquire() as conn, conn.transaction():
            # One taker at a time: two processes started at once for one shard cannot both win.
            await conn.execute("LOCK TABLE shard_leases IN SHARE ROW EXCLUSIVE MODE")
            now = float(await conn.fetchval(f"SELECT {DATABASE_NOW}"))
            live = await conn.fetch(
                "SELECT shard_id, shard_count, holder, expires_at FROM shard_leases "
                "WHERE expires_at > $1 AND holder <> $2 ORDER BY shard_id",
                now,
                self.holder,
            )
            for row in live:
                left = f"{row['expires_at'] - now:.0f} s"
                if row["shard_count"] != self.shards.count:
                    raise ShardTakenError(
                        f"shard {row['shard_id']} of {row['shard_count']} is run by another process "
                        f"({row['holder']}, lease for {left} more) with another RUMMY_SHARD_COUNT than "
                        f"{self.shards.count}: stop every process before changing the shard count"
                    )
                if row["shard_id"] in self.shards.ids:
                    raise ShardTakenError(
                        f"shard {row['shard_id']} of {self.shards.count} is run by another process "
                        f"({row['holder']}, lease for {left} more): stop it first, or start this "
                        "one again once its lease has expired"
                    )
            await conn.execute("DELETE FROM shard_leases WHERE expires_at <= $1", now)
            await conn.executemany(
                _TAKE, [(shard, self.shards.count, self.holder, self.seconds) for shard in self.shards.ids]
            )
        log.info("leases taken for %s, as %s", self.shards.named(), self.holder)

    async def check(self, conn: asyncpg.Connection) -> None:
        """Inside a write's transaction on `conn`: `LeaseLostError` unless every lease of this
        holder is live; they stay so until the transaction ends, however long it takes."""
        rows = await conn.fetch(_HELD, self.holder, list(self.shards.ids))
        if len(rows) < len(self.shards.ids):
            raise LeaseLostError(
                f"this process lost {self.shards.named()}: its leases ran out before a write "
                "(its event loop stalled?); it saves nothing more"
            )

    async def renew(self) -> list[int]:
        """Extends the leases this holder still has; returns the shards it no longer holds (taken
        by another, or run out)."""
        async with self.pool.acquire() as conn:
            rows = await conn.fetch(_RENEW, self.holder, list(self.shards.ids), self.seconds)
        held = {int(row[0]) for row in rows}
        return [shard for shard in self.shards.ids if shard not in held]

    async def release(self) -> None:
        """A clean shutdown: the shards are free for the next process at once."""
        async with self.pool.acquire() as conn:
            await conn.execute("DELETE FROM shard_leases WHERE holder = $1", self.holder)
        log.info("leases released for %s", self.shards.named())


class LeaseKeeper:
    """Renews the leases every quarter of their length until `stop` is set. When the database
    says another holder has a shard, or no renewal was confirmed for half the lease (counted
    from when the last confirmed one was sent; each try gives up after an eighth), the leases
    are lost: `on_lost` is called once, with why (the bot fences its store and shuts down). So
    the holder stops by seven eighths of the lease at the latest, before anyone can take it."""

    def __init__(self, leases: ShardLeases, on_lost: Callable[[LeaseLostError], Awaitable[None]]) -> None:
        self.leases = leases
        self.on_lost = on_lost
        self.interval = leases.seconds / 4

    async def run(self, stop: asyncio.Event) -> None:
        confirmed = time.monotonic()  # `acquire` just took them
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.interval)
                return
            sent = time.monotonic()
            try:
                lost = await asyncio.wait_for(self.leases.renew(), self.interval / 2)
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("shard leases not renewed: %s: %s", type(error).__name__, error)
                unconfirmed = time.monotonic() - confirmed
                if unconfirmed < self.leases.seconds / 2:
                    continue
                why = f"its shard leases could not be renewed for {unconfirmed:.0f} s"
            else:
                if not lost:
                    confirmed = sent
                    continue
                shards = ", ".join(map(str, lost))
                why = f"another process holds shard {shards} now, or may (its lease ran out)"
            named = self.leases.shards.named()
            await self.on_lost(LeaseLostError(f"this process lost {named}: {why}; it saves nothing more"))
            return
