"""Real disk failures under a running store, for tests: the kernel itself refuses SQLite's writes.

No file system can be mounted or filled here, so the refusal is made one level down, on the file
descriptors this process holds on the database's files: each is pointed (with `dup2`, which
swaps what a descriptor refers to in place, unseen by SQLite) at something the kernel will not
write to, and pointed back when the block ends.

- `disk_full`: the WAL file's descriptors point at `/dev/full`, whose every `write(2)` fails with
  ENOSPC, the error a full file system gives; SQLite answers SQLITE_FULL. Reads of `/dev/full`
  return zeros, so the WAL is checkpointed empty first (`empty_wal`): the database's pages are
  then all read from the main file, which stays as it was.
- `read_only`: the database file's and the WAL's descriptors point at read-only descriptors of
  the same files, so reads see the real data and every `write(2)` fails (EBADF, as EROFS would on
  a file system remounted read-only); SQLite answers SQLITE_IOERR_WRITE.

Linux only (`/proc/self/fd`, `/dev/full`): the tests using them are skipped elsewhere.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import Store

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.path.exists("/dev/full"),
    reason="needs /proc/self/fd and /dev/full",
)


def descriptors(path: Path) -> list[int]:
    """This process's open descriptors on `path`."""
    target, found = str(path.resolve()), []
    for name in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/self/fd/{name}") == target:
                found.append(int(name))
    return found


@contextlib.contextmanager
def pointed_at(replacements: dict[int, int]) -> Iterator[None]:
    """Each descriptor refers to what its replacement refers to until the block ends."""
    saved = {fd: os.dup(fd) for fd in replacements}
    try:
        for fd, replacement in replacements.items():
            os.dup2(replacement, fd)
        yield
    finally:
        for fd, original in saved.items():
            os.dup2(original, fd)
            os.close(original)
        for replacement in set(replacements.values()):
            os.close(replacement)


async def empty_wal(store: Store) -> None:
    """Copies the WAL into the database file and truncates it (the store's writer is idle)."""
    async with store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cursor:
        busy, _, _ = await cursor.fetchone()
    assert not busy, "a reader kept the WAL from being emptied"


@contextlib.contextmanager
def disk_full(database: Path) -> Iterator[None]:
    """Call `empty_wal` first: the WAL must hold nothing that has to be read back."""
    wal = database.with_name(database.name + "-wal")
    assert wal.stat().st_size == 0, "the WAL is not empty: pages would be read back from /dev/full"
    full = os.open("/dev/full", os.O_WRONLY)
    with pointed_at({fd: os.dup(full) for fd in descriptors(wal)}):
        yield
    os.close(full)


@contextlib.contextmanager
def read_only(database: Path) -> Iterator[None]:
    files = [database, database.with_name(database.name + "-wal")]
    replacements = {fd: os.open(path, os.O_RDONLY) for path in files for fd in descriptors(path)}
    with pointed_at(replacements):
        yield
