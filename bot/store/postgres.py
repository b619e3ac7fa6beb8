"""PostgreSQL, for a bot that outgrows one file: `Store` on asyncpg, chosen by a `postgresql://`
URL (`RUMMY_DATABASE_URL`).

The SQL is the store's own (see `bot.store.store`): its `?` parameters become `$1, $2, ...`
here, and nothing else differs. Writes keep SQLite's guarantees: each batch of the write queue
is one transaction on the writer's own connection, committed (the server's synchronous commit)
before any caller is told; a statement that must change every row returns each row it changed
(`RETURNING 1`), so a command that does not follow the stored one is refused as in SQLite.
Reads go through a small pool of other connections, so they never wait behind a commit.

A server that cannot be reached, a full disk or a database turned read-only refuse writes
(`WritesRefusedError`), as SQLite's disk does; the next transaction connects again.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.store.faults import (
    ChannelBusyError,
    DatabaseUnreachableError,
    DuplicateCommandError,
    LeaseLostError,
    UnusableDatabaseError,
    WritesRefusedError,
)
from bot.store.health import Refusals
from bot.store.leases import ShardLeases
from bot.store.postgres_schema import migrate
from bot.store.relay import InteractionRelay
from bot.store.shards import Shards
from bot.store.store import NEXT_IDS, Statements, Store, check_changed, must_change_every_row

_READERS = 4  # connections in the readers' pool
# Errors that say the server or its disk refuses writes for now, not that a write was wrong.
_REFUSED = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InsufficientResourcesError,  # a full disk, out of memory or connections
    asyncpg.OperatorInterventionError,  # a shutting down or restarting server
    asyncpg.ReadOnlySQLTransactionError,  # a standby, or a database made read-only
)
# Errors that no waiting mends: credentials refused, no such database.
_UNUSABLE = (asyncpg.InvalidAuthorizationSpecificationError, asyncpg.InvalidCatalogNameError)
# A unique index that a write ran into, in the words of what it protects.
_CONSTRAINTS = {
    "tables_one_active_per_channel": ChannelBusyError,
    "match_commands_by_id": DuplicateCommandError,
}


@functools.lru_cache(maxsize=512)
def postgres_sql(sql: str) -> str:
    """The store's SQL with PostgreSQL's numbered parameters for its `?`s (none is in a literal)."""
    number = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(number)}", sql)


class PostgresStore(Store):
    """`Store` on a PostgreSQL database. Open with `await open_store("postgresql://...")`."""

    _DEAL_SEATS = "(d.snapshot::json -> 'seats')::text"
    _MATCH_WINNER = "(m.snapshot::json ->> 'winner')"

    def __init__(
        self, url: str, writer: asyncpg.Connection, readers: asyncpg.Pool, ids: Sequence[int]
    ) -> None:
        super().__init__(int(ids[0]) + 1, int(ids[1]) + 1, int(ids[2]) + 1)
        self._url = url
        self._conn = writer
        self._pool = readers
        self._refusals = Refusals()
        self._leases: ShardLeases | None = None  # a sharded process's: every write checks them
        self._holders: list[ShardLeases] = []  # every one made here: their sessions end with the store

    @classmethod
    async def connect(cls, url: str, create: bool = True) -> PostgresStore:
        """The store on the database `url` names, its tables made there if it has none (unless
        not `create`). A server that cannot be reached now is `DatabaseUnreachableError`; a URL
        it cannot read, credentials it refuses or a database it lacks `UnusableDatabaseError`."""
        try:
            writer = await asyncpg.connect(url)
        except (ValueError, *_UNUSABLE) as error:
            raise UnusableDatabaseError(f"The PostgreSQL database cannot be used: {error}") from error
        except (*_REFUSED, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise DatabaseUnreachableError(f"The PostgreSQL database cannot be reached: {error}") from error
        try:
            await migrate(writer, create)
            ids = await writer.fetchrow(NEXT_IDS)
            assert ids is not None
            readers = await asyncpg.create_pool(url, min_size=1, max_size=_READERS)
        except BaseException:
            await writer.close()
            raise
        return cls(url, writer, readers, tuple(ids))

    def leases(self, shards: Shards, holder: str, seconds: float) -> ShardLeases:
        """The leases of a sharded process's shards in this database (see `bot.store.leases`),
        which every write from now on checks inside its transaction: none is saved without them."""
        self._leases = ShardLeases(self._url, self._pool, shards, holder, seconds)
        self._holders.append(self._leases)
        return self._leases

    def relay(self, shards: Shards, holder: str) -> InteractionRelay:
        """DM presses handed between sharded processes (see `bot.store.relay`)."""
        return InteractionRelay(self._url, self._pool, shards, holder)

    @property
    def refusing(self) -> WritesRefusedError | None:
        return self._refusals.refusing

    async def _close(self) -> None:
        for leases in self._holders:
            await leases.close()
        await self._pool.close()
        await self._conn.close()

    async def _writing_connection(self) -> asyncpg.Connection:
        """The writer's connection, connected again if the last one was lost."""
        if self._conn.is_closed():
            self._conn = await asyncpg.connect(self._url)
        return self._conn

    async def _transaction(self, statements: Statements) -> None:
        conn = await self._writing_connection()
        async with conn.transaction():
            if self._leases is not None:
                try:
                    await self._leases.check(conn)
                except LeaseLostError as error:
                    self.fence(error)
                    raise
            for sql, rows in statements:
                if must_change_every_row(sql):
                    changed = await conn.fetchmany(postgres_sql(sql) + " RETURNING 1", rows)
                    check_changed(sql, len(changed), rows)
                else:
                    await conn.executemany(postgres_sql(sql), rows)

    def _failed(self, error: BaseException) -> BaseException:
        if isinstance(error, asyncpg.UniqueViolationError):
            translated = _CONSTRAINTS.get(error.constraint_name or "")
            if translated is not None:
                return translated()
        if isinstance(error, _REFUSED):
            return self._refusals.refused(f"{type(error).__name__}: {error}")
        return error

    async def _after_batch(self, idle: bool) -> None:
        self._refusals.committed()

    async def _one(self, sql: str, params: Sequence[Any]) -> Any:
        return await self._pool.fetchrow(postgres_sql(sql), *params)

    async def _all(self, sql: str, params: Sequence[Any]) -> list[Any]:
        return await self._pool.fetch(postgres_sql(sql), *params)
