"""Which process runs which shard: one lease row per shard in `shard_leases` (PostgreSQL only).

A process started for some shards takes their leases before it loads anything, renews them
while it runs (`LeaseKeeper`), and deletes them when it shuts down cleanly. A shard whose lease
another live holder renewed less than the lease's length ago is refused (`ShardTakenError`,
naming the shard and its holder): two processes never run one shard's tables. Nothing ever
takes a live process's shards on its own.

Beside its rows, a holder keeps a session-level advisory lock, keyed by its name, on a
connection of its own that stays open while it runs (`holder_key`, `_LIVES`): the database drops it when that
session ends, which a crash (or a killed container) does at once, and a process that is merely
frozen (stopped, paused) does not. A process started after a crash finds the old holder's lock
free and takes its rows over at once, live or not; with the lock still held, it waits for the
lease to run out as before. The rows stay the lease, and the lock only the proof that their
holder is gone, because:

- a row says who holds the shard and until when, so a refused start can name the holder, an
  admin can read it with `SELECT * FROM shard_leases`, and others can count the live processes
  (the rows with `expires_at` ahead of the database's clock);
- a row is checked inside every write's transaction (`check`), on any connection;
- a holder whose lock session ends while it runs (a database restart) cannot prove it lives any
  more: it stops as if it had lost its leases, and its restart takes its shards back at once.
  It asks that session at each renewal whether it still holds the lock (`lock_held`): a
  connection dropped silently on the way still looks open here while the server freed the lock.
  The writer's own connection still reconnects after a network blip
  (`PostgresStore._writing_connection`).

The lock needs the process's own server session: through a pooling proxy (PgBouncer) use
session pooling; with transaction pooling it would stay with a server connection that other
clients share, and their tries would take it for their own.

Times are the database server's (`clock_timestamp()`), so processes on machines whose clocks
disagree still agree on when a lease ran out. The holder stops itself earlier, by its own
monotonic clock (`LeaseClock`): it knows when its lease ends from the last renewal the database
confirmed, and from a margin before that it sends nothing more to Discord and shuts down as if
the lease were lost, before any other process could see the lease expired. A stalled loop (a
paused container, a long collection) may wake after the lease, so what leaves the process asks
that clock each time (`RummyBot.may_send`), and each write's transaction also checks, in the
database, that the leases are still live, and holds them so until it commits (`check`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable

import asyncpg
from asyncpg import Record
from asyncpg.pool import PoolConnectionProxy

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


# Whether a holder still has its database session (see above); a transaction's own lock, tried
# inside the taker's transaction, so that it is let go at its end.
_LIVES = "SELECT NOT pg_try_advisory_xact_lock($1)"
# Whether this session still holds its own lock: a bigint key is kept as its high and low 32
# bits (classid, objid) with objsubid 1.
_STILL_HELD = (
    "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() "
    "AND granted AND classid = $1 AND objid = $2 AND objsubid = 1)"
)
# The end of the name of a holder that keeps that lock: one of an earlier version kept none, and
# must not be taken for gone while it runs.
LOCKING = "(locks)"


def new_holder() -> str:
    """This process's name in the lease rows: its host and pid (for an admin to find it), a
    random tag, since a container's bot is pid 1 every time it starts, and `LOCKING`."""
    return f"{socket.gethostname()} pid {os.getpid()} #{secrets.token_hex(3)} {LOCKING}"


def holder_key(holder: str) -> int:
    """The advisory lock that says `holder` lives: 64 bits of its name's hash, as a bigint."""
    return int.from_bytes(hashlib.sha256(holder.encode()).digest()[:8], "big", signed=True)


class LeaseClock:
    """When this process's leases end by its own monotonic clock: `seconds` after the last
    renewal the database confirmed, counted from just before that renewal was sent (the
    database's lease ends no sooner), less a margin of `max(2 s, seconds / 5)` for the clocks'
    drift and for a send already on its way. Once it has ended it holds no more, whatever
    renewal is confirmed later: the process may have been told it lost its leases by then."""

    def __init__(self, seconds: float, now: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.margin = max(2.0, seconds / 5)
        self.now = now
        self.until = -math.inf
        self.ended = False

    def renewed(self, at: float) -> None:
        """A renewal (or the taking) sent at `at` on this clock was confirmed."""
        if not self.ended:
            self.until = max(self.until, at + self.seconds - self.margin)

    def holds(self, now: float | None = None) -> bool:
        """Whether the leases are this process's still, `now` (this clock's, by default)."""
        if self.until == -math.inf:
            return False  # not taken yet
        if not self.ended and (self.now() if now is None else now) >= self.until:
            self.ended = True
        return not self.ended


class ShardLeases:
    """The leases of `shards` for `holder`, on a PostgreSQL pool (`PostgresStore.leases`); the
    lock that says the holder lives on a connection of its own to `url`."""

    def __init__(self, url: str, pool: asyncpg.Pool, shards: Shards, holder: str, seconds: float) -> None:
        self.url, self.pool, self.shards, self.holder, self.seconds = url, pool, shards, holder, seconds
        self._session: asyncpg.Connection | None = None

    async def acquire(self) -> None:
        """Takes every shard's lease, or none: `ShardTakenError` if another live holder's lease
        on one of them has not run out, or if a live process runs with another shard count (the
        two would split the servers differently, and their ids could collide). A holder whose
        database session has ended is gone: its leases are taken over at once."""
        opened = await self._lock_session()
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                await self._take(conn)
        except BaseException:
            if opened:  # a refused process holds nothing: its name may be used again
                await self.close()
            raise
        log.info("leases taken for %s, as %s", self.shards.named(), self.holder)

    async def _take(self, conn: PoolConnectionProxy[Record]) -> None:
        """`acquire`'s transaction on `conn`."""
        # One taker at a time: two processes started at once for one shard cannot both win.
        await conn.execute("LOCK TABLE shard_leases IN SHARE ROW EXCLUSIVE MODE")
        now = float(await conn.fetchval(f"SELECT {DATABASE_NOW}"))
        rows = await conn.fetch(
            "SELECT shard_id, shard_count, holder, expires_at FROM shard_leases "
            "WHERE expires_at > $1 AND holder <> $2 ORDER BY shard_id",
            now,
            self.holder,
        )
        gone: set[str] = set()
        for holder in {row["holder"] for row in rows if row["holder"].endswith(LOCKING)}:
            if not await conn.fetchval(_LIVES, holder_key(holder)):
                gone.add(holder)
        live = [row for row in rows if row["holder"] not in gone]
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
        await conn.execute(
            "DELETE FROM shard_leases WHERE expires_at <= $1 OR holder = ANY($2::text[])",
            now,
            list(gone),
        )
        await conn.executemany(
            _TAKE,
            [(shard, self.shards.count, self.holder, self.seconds) for shard in self.shards.ids],
        )
        for holder in gone:
            log.info("leases of %s taken over at once: its database session had ended", holder)

    async def _lock_session(self) -> bool:
        """Opens this holder's own connection, once, and takes the lock that says it lives;
        whether it did so now."""
        if self._session is not None:
            return False
        session = await asyncpg.connect(self.url)
        if session.get_server_version().major >= 14:  # a server's idle timeout must not end it
            await session.execute("SET idle_session_timeout = 0")
        if not await session.fetchval("SELECT pg_try_advisory_lock($1)", holder_key(self.holder)):
            await session.close()
            raise ShardTakenError(f"another database session holds the lock of {self.holder}")
        self._session = session
        return True

    def in_session(self) -> bool:
        """Whether the connection that holds this holder's lock is still open (see above)."""
        return self._session is not None and not self._session.is_closed()

    async def lock_held(self, timeout: float) -> bool:
        """Whether the lock that says this holder lives is still held, asked on its own session:
        a connection dropped silently (an idle timeout on the way) looks open here while the
        server has ended it and freed the lock. Any failure or no answer in `timeout` counts as
        lost, and the session is ended so that `in_session` says so too."""
        session = self._session
        if session is None or session.is_closed():
            return False
        key = holder_key(self.holder) & 0xFFFFFFFFFFFFFFFF
        try:
            held = await asyncio.wait_for(session.fetchval(_STILL_HELD, key >> 32, key & 0xFFFFFFFF), timeout)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            log.warning("lock session of %s not answering: %s: %s", self.holder, type(error).__name__, error)
            held = False
        if not held:
            session.terminate()
        return bool(held)

    async def close(self) -> None:
        """Ends the holder's session: its lock goes (its rows, if left, say it is gone)."""
        session, self._session = self._session, None
        if session is not None:
            await session.close()

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
        await self.close()
        log.info("leases released for %s", self.shards.named())


class LeaseKeeper:
    """Renews the leases every quarter of their length until `stop` is set, telling `clock` of
    each one confirmed. When the database says another holder has a shard, when no renewal was
    confirmed for half the lease (counted from when the last confirmed one was sent; each try
    gives up after an eighth), when `clock` says the lease has ended (the loop stalled), or when
    the session that says this holder lives has ended, the leases are lost: `on_lost` is called
    once, with why (the bot fences its store and shuts down)."""

    def __init__(
        self, leases: ShardLeases, clock: LeaseClock, on_lost: Callable[[LeaseLostError], Awaitable[None]]
    ) -> None:
        self.leases = leases
        self.clock = clock
        self.on_lost = on_lost
        self.interval = leases.seconds / 4

    async def run(self, stop: asyncio.Event) -> None:
        confirmed = self.clock.now()  # `acquire` just took them
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.interval)
                return
            if not self.clock.holds():
                why = "its lease ended by its own clock before a renewal was confirmed (its loop stalled?)"
            elif not await self.leases.lock_held(self.interval / 2):
                why = "its database session ended, so another process may take its shards at once"
            else:
                sent = self.clock.now()
                try:
                    lost = await asyncio.wait_for(self.leases.renew(), self.interval / 2)
                except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                    log.warning("shard leases not renewed: %s: %s", type(error).__name__, error)
                    unconfirmed = self.clock.now() - confirmed
                    if unconfirmed < self.leases.seconds / 2:
                        continue
                    why = f"its shard leases could not be renewed for {unconfirmed:.0f} s"
                else:
                    if not lost:
                        confirmed = sent
                        self.clock.renewed(sent)
                        continue
                    shards = ", ".join(map(str, lost))
                    why = f"another process holds shard {shards} now, or may (its lease ran out)"
            named = self.leases.shards.named()
            await self.on_lost(LeaseLostError(f"this process lost {named}: {why}; it saves nothing more"))
            return
