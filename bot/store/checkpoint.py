"""When the write-ahead log is copied back into the database, so that commits rarely wait for it
and the log stays bounded.

SQLite's automatic checkpoint runs inside whichever commit takes the WAL past 1,000 pages, on
the writer's connection: every command of that group commit waits while it copies them, tens of
milliseconds on a busy machine, and that was most of the service's p99 latency. So the writer's
automatic checkpoint is off (see `open_store`) and this class does the work in two steps:

1. A moment after writes, a PASSIVE checkpoint on a connection of its own, in its own thread,
   copies what the WAL holds. It never blocks the writer, so commits go on meanwhile.
2. Those commits are not copied yet, and the WAL can only start over from its beginning once
   every page in it is. So the writer, when its queue is empty, finishes the job between two
   transactions: a second PASSIVE checkpoint that copies only what step 1 missed, short, and
   complete since no commit can land during it. The next commit then rewinds the WAL.

If the WAL file still passes `max_wal_bytes` (the queue was never empty, or another process kept
a read transaction open), the writer truncates it before its next commit, waiting if it must:
a bound on the file, at the price of one stall.

SQLite before 3.51.3 (and before its backports 3.44.6 and 3.50.7) has the "WAL-reset bug": a
checkpoint on one connection racing a commit on another connection that starts the WAL over can
corrupt the database or lose committed transactions. Step 1 is exactly that race, so with such a
library it runs on the writer's own connection, which runs one call at a time: a background
checkpoint then waits for the commit in hand and commits wait for it (a little latency, no
race). Python's own SQLite is often such a library (3.40 in Debian 12).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

# The first release of each line with the WAL-reset bug fixed (see the module's docstring).
WAL_RESET_FIXED = ((3, 51, 3), (3, 50, 7), (3, 44, 6))


def wal_reset_fixed(version: tuple[int, int, int] | None = None) -> bool:
    """Whether the SQLite library (or `version`) may checkpoint beside commits of another
    connection safely."""
    version = version or sqlite3.sqlite_version_info
    if version >= WAL_RESET_FIXED[0]:
        return True
    return any(version[:2] == fixed[:2] and version >= fixed for fixed in WAL_RESET_FIXED[1:])


@dataclass(frozen=True)
class CheckpointPolicy:
    # How long writes gather before a background checkpoint copies them: long enough that one
    # checkpoint copies many commits (every command of a table rewrites the same snapshot
    # pages), short enough that the WAL stays small.
    delay_seconds: float = 0.5
    # The WAL file's hard limit; past it the writer truncates the WAL before its next commit.
    max_wal_bytes: int = 64 * 1024 * 1024


class Checkpointer:
    """Both steps of the module's docstring; `Store` calls `written` and `due` after each
    commit and `finish` when `due` says so."""

    def __init__(
        self, conn: aiosqlite.Connection, database: Path, policy: CheckpointPolicy, *, own: bool = True
    ) -> None:
        """`conn`: where background checkpoints run; `own`: a connection of its own (closed with
        it), else the writer's."""
        self._conn = conn
        self._own = own
        self._wal = database.with_name(database.name + "-wal")
        self.policy = policy
        # Held by every checkpoint: SQLite answers a second one "busy" rather than waiting.
        self._lock = asyncio.Lock()
        self._written = asyncio.Event()
        self._unfinished = False  # the last background checkpoint left pages for the writer
        self._task: asyncio.Task[None] | None = None
        self.finished = 0  # checkpoints the writer ran, for tests
        self.truncated = 0  # of which truncations, for tests

    @classmethod
    async def open(
        cls, database: Path, policy: CheckpointPolicy, writer: aiosqlite.Connection
    ) -> Checkpointer:
        """On a connection of its own where the library allows it, else on the writer's."""
        if not wal_reset_fixed():
            return cls(writer, database, policy, own=False)
        return cls(await aiosqlite.connect(str(database), isolation_level=None), database, policy)

    def written(self) -> None:
        """Called after each commit: a background checkpoint follows after the policy's delay."""
        self._written.set()
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    def due(self, idle: bool) -> bool:
        """Whether the writer should run `finish` now; `idle`: no write is waiting."""
        return self._wal_too_big() or (idle and self._unfinished and not self._lock.locked())

    async def finish(self, writer: aiosqlite.Connection) -> None:
        """Step 2 of the module's docstring, or the truncation, on the writer's connection
        between two of its transactions. A failure is logged, not raised: the writes are
        committed and the writer must go on (the next background checkpoint tries again)."""
        mode = "TRUNCATE" if self._wal_too_big() else "PASSIVE"
        try:
            async with self._lock:
                self._unfinished = False
                await _checkpoint(writer, mode)
                self.finished += 1
                self.truncated += mode == "TRUNCATE"
        except sqlite3.Error:
            log.exception("the write-ahead log could not be checkpointed")

    def _wal_too_big(self) -> bool:
        try:
            return os.stat(self._wal).st_size > self.policy.max_wal_bytes
        except FileNotFoundError:
            return False

    async def _run(self) -> None:
        while True:
            await self._written.wait()
            await asyncio.sleep(self.policy.delay_seconds)
            await self.copy()

    async def copy(self) -> None:
        """Step 1 of the module's docstring (the background task runs it after writes)."""
        self._written.clear()  # writes from now on call for another checkpoint
        async with self._lock:
            try:
                await _checkpoint(self._conn, "PASSIVE")
            except sqlite3.Error:
                log.exception("the write-ahead log could not be checkpointed")
                return
            # SQLite's answer counts only the pages there were when it started: whether
            # commits landed meanwhile is known here, from `written`.
            self._unfinished = self._written.is_set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._own:
            await self._conn.close()


async def _checkpoint(conn: aiosqlite.Connection, mode: str) -> None:
    # One call in the connection's thread, its statement done when it returns: on the writer's
    # connection a transaction may come next, and SQLite refuses to commit beside a statement
    # still open.
    await conn.execute_fetchall(f"PRAGMA wal_checkpoint({mode})")
