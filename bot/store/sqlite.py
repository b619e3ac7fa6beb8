"""The embedded database: one aiosqlite connection to a SQLite file in WAL mode.

Every transaction is checked first against the file's health (`health.WriteHealth`: the file
the store opened, written by no other program) and the write-ahead log is checkpointed between
transactions (`checkpoint.Checkpointer`).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.checkpoint import Checkpointer, CheckpointPolicy
from bot.store.faults import (
    ChannelBusyError,
    DatabaseGoneError,
    DuplicateCommandError,
    NoDatabaseError,
    UnusableDatabaseError,
    WritesRefusedError,
)
from bot.store.health import WriteHealth
from bot.store.schema import migrate
from bot.store.store import MARK_PRUNED_BY_REPLACING, NEXT_IDS, Statements, Store, check_changed


def _why(path: Path, error: sqlite3.Error) -> str:
    """SQLite's reason, with the likeliest cause of "unable to open" named."""
    if not path.parent.is_dir():
        return f"{error} (there is no folder {path.parent})"
    if path.is_dir():
        return f"{error} (it is a folder)"
    return str(error)


class SqliteStore(Store):
    """`Store` on a SQLite file. Open with `await open_store(path)`."""

    _mark_pruned = MARK_PRUNED_BY_REPLACING
    is_single_file = True
    _DEAL_SEATS = "json_extract(d.snapshot, '$.seats')"
    _MATCH_WINNER = "json_extract(m.snapshot, '$.winner')"

    def __init__(
        self, conn: aiosqlite.Connection, checkpointer: Checkpointer, health: WriteHealth, ids: Sequence[int]
    ) -> None:
        super().__init__(int(ids[0]) + 1, int(ids[1]) + 1, int(ids[2]) + 1)
        self._conn = conn
        self._checkpointer = checkpointer
        self.health = health

    @classmethod
    async def connect(
        cls, path: Path, checkpoints: CheckpointPolicy | None = None, create: bool = True
    ) -> SqliteStore:
        """The store on the file at `path`, made there if it is missing (unless not `create`).
        A file or folder SQLite cannot open as a database is `UnusableDatabaseError`."""
        if not create and not (path.is_file() and path.stat().st_size > 0):
            raise NoDatabaseError("There is no database there (none is made: is RUMMY_DB_PATH right?).")
        try:
            return await cls._connect(path, checkpoints, create)
        except sqlite3.Error as error:
            why = _why(path, error)
            raise UnusableDatabaseError(f"It cannot be used as a SQLite database: {why}") from error

    @classmethod
    async def _connect(cls, path: Path, checkpoints: CheckpointPolicy | None, create: bool) -> SqliteStore:
        # Opened once first on a thread of our own: aiosqlite's thread, when the file cannot be
        # opened, reports after its caller is gone (a traceback once the loop has closed).
        await asyncio.to_thread(lambda: sqlite3.connect(path).close())
        conn = await aiosqlite.connect(str(path), isolation_level=None)  # we BEGIN and COMMIT ourselves
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            # WAL with synchronous=NORMAL: a committed transaction survives the process being
            # killed at any moment (the crash test checks exactly this); only a power loss or an
            # OS crash may lose the last few commits, never corrupt the file. FULL would cost an
            # fsync per commit for protection a game bot does not need.
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute("PRAGMA busy_timeout = 5000")
            await conn.execute("PRAGMA wal_autocheckpoint = 0")  # the Checkpointer's job
            await migrate(conn, create)
            ids = await _fetchone(conn, NEXT_IDS)
            version = (await _fetchone(conn, "PRAGMA data_version"))[0]
            health = WriteHealth(path, WriteHealth.identity_of(path), int(version))
            checkpointer = await Checkpointer.open(path, checkpoints or CheckpointPolicy(), conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, checkpointer, health, ids)

    @property
    def lost(self) -> DatabaseGoneError | None:
        """Set for good once the database file was found deleted or replaced: nothing is saved."""
        return self.health.gone or super().lost

    @property
    def refusing(self) -> WritesRefusedError | None:
        return self.health.refusing

    async def _close(self) -> None:
        await self._checkpointer.close()
        await self._conn.close()

    async def _transaction(self, statements: Statements) -> None:
        self.health.check_file()
        # aiosqlite runs each call in its thread, one hop there and back per statement. Where
        # its (private, long-standing) way to run a function in that thread exists, the whole
        # transaction is one hop: on a busy machine each hop can cost a scheduling delay.
        in_thread = getattr(self._conn, "_execute", None)
        if in_thread is not None:
            await in_thread(_run_transaction, lambda: self._conn._conn, statements, self.health)
        else:
            await self._commit_statement_by_statement(statements)

    async def _commit_statement_by_statement(self, statements: Statements) -> None:
        changed = self.health.version_changed(int(await self._value("PRAGMA data_version")))
        if changed is not None:
            raise changed
        await self._conn.execute("BEGIN")
        try:
            for sql, rows in statements:
                cursor = await self._conn.executemany(sql, rows)
                check_changed(sql, cursor.rowcount, rows)
            await self._conn.execute("COMMIT")
        except BaseException:
            if self._conn.in_transaction:  # SQLite rolls back itself after some failures
                await self._conn.execute("ROLLBACK")
            raise

    def _failed(self, error: BaseException) -> BaseException:
        """Disk refusals and a lost file (see `health`), and constraint failures in the words
        of what they protect."""
        error = self.health.failed(error)
        if isinstance(error, sqlite3.IntegrityError):
            text = str(error)
            if "tables.channel_id" in text:
                return ChannelBusyError()
            if "match_commands.command_id" in text:
                return DuplicateCommandError()
        return error

    async def _after_batch(self, idle: bool) -> None:
        self.health.committed()
        self._checkpointer.written()
        if self._checkpointer.due(idle=idle):
            await self._checkpointer.finish(self._conn)

    async def rows_of(self, name: str, columns: Sequence[str], batch: int) -> AsyncIterator[list[Any]]:
        """A table's rows (those columns), `batch` at a time: for copying the database elsewhere."""
        async with self._conn.execute(f"SELECT {', '.join(columns)} FROM {name}") as cursor:
            while rows := await cursor.fetchmany(batch):
                yield list(rows)

    async def _one(self, sql: str, params: Sequence[Any]) -> Any:
        async with self._conn.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def _all(self, sql: str, params: Sequence[Any]) -> list[Any]:
        async with self._conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())


async def _fetchone(conn: aiosqlite.Connection, sql: str) -> Any:
    async with conn.execute(sql) as cursor:
        return await cursor.fetchone()


def _run_transaction(
    connection: Callable[[], sqlite3.Connection], statements: Statements, health: WriteHealth
) -> None:
    """One write transaction, run in the connection's thread, if no other program wrote first."""
    conn = connection()
    changed = health.version_changed(conn.execute("PRAGMA data_version").fetchone()[0])
    if changed is not None:
        raise changed
    conn.execute("BEGIN")
    try:
        for sql, rows in statements:
            cursor = conn.executemany(sql, rows)
            check_changed(sql, cursor.rowcount, rows)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # SQLite rolls back itself after some failures (a full disk)
            conn.execute("ROLLBACK")
        raise
