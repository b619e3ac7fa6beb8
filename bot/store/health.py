"""Whether the store's writes still reach the database the bot opened, and SQLite's disk failures
in words a caller can act on.

Two ways a write can be lost with SQLite saying nothing: the file is deleted or replaced while
the bot holds it open (the commits go to a file nobody will open again), or another program
writes to it (our memory no longer matches it). So before each commit the path must still name
the file that was opened (device and inode) and `PRAGMA data_version`, which changes only when
another connection commits, must be where it was. Either failing stops writes for good: only a
restart can tell which file is the right one.

A full disk, a file or file system turned read-only, a failed write: SQLite refuses the commit
and rolls it back, nothing changes, and the same write works once the disk does. Those become
`WritesRefusedError`, logged once when they start and once when writes work again.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

from bot.store.faults import DatabaseGoneError, WritesRefusedError

log = logging.getLogger(__name__)

# SQLite's primary result codes for a disk that will not take a write (the extended codes
# carry them in their low byte): read-only, I/O error, full, cannot open.
_REFUSALS = {8: "read-only", 10: "a disk I/O error", 13: "full", 14: "unable to open the file"}
_DAMAGED_FILE = {11: "malformed", 26: "not a database"}  # SQLITE_CORRUPT, SQLITE_NOTADB


class Refusals:
    """Whether the database refuses writes for now (a full disk, a server that cannot be
    reached): logged once when it starts and once when writes work again. Both stores keep one."""

    def __init__(self) -> None:
        self.refusing: WritesRefusedError | None = None  # the latest refusal, until a commit

    def refused(self, why: str) -> WritesRefusedError:
        refused = WritesRefusedError(f"the database refuses writes: {why}")
        if self.refusing is None:
            log.error("%s; nothing is saved until writes work again", refused)
        self.refusing = refused
        return refused

    def committed(self) -> None:
        if self.refusing is not None:
            log.warning("the database takes writes again (after: %s)", self.refusing)
            self.refusing = None


class WriteHealth(Refusals):
    """One per SQLite store: checks the file before each commit and keeps what the last ones showed."""

    def __init__(self, path: Path, identity: tuple[int, int], data_version: int) -> None:
        super().__init__()
        self.path = path
        self.identity = identity
        self.data_version = data_version
        self.gone: DatabaseGoneError | None = None  # once set, nothing more is written

    @staticmethod
    def identity_of(path: Path) -> tuple[int, int]:
        found = os.stat(path)
        return found.st_dev, found.st_ino

    def check_file(self) -> None:
        """Raises `DatabaseGoneError` unless the path still names the file the store opened."""
        if self.gone is None:
            try:
                same = self.identity_of(self.path) == self.identity
            except FileNotFoundError:
                self._lose(f"the database file {self.path} was deleted while the bot was running")
            else:
                if not same:
                    self._lose(f"the database file {self.path} was replaced while the bot was running")
        if self.gone is not None:
            raise self.gone

    def version_changed(self, version: int) -> DatabaseGoneError | None:
        """The error to raise if another connection committed to the database since it was opened."""
        if version == self.data_version:
            return None
        return DatabaseGoneError(f"another program wrote to the database file {self.path}")

    def failed(self, error: BaseException) -> BaseException:
        """A failed commit's error, translated: disk refusals and a lost file in our words."""
        if isinstance(error, DatabaseGoneError):
            if self.gone is None:
                self._lose(str(error))
            return self.gone or error
        if not isinstance(error, sqlite3.Error):
            return error
        code = getattr(error, "sqlite_errorcode", 0) & 0xFF
        if code in _DAMAGED_FILE:
            self._lose(f"the database file {self.path} is {_DAMAGED_FILE[code]} ({error})")
            return self.gone or error
        if code not in _REFUSALS:
            return error
        return self.refused(f"{_REFUSALS[code]} ({error})")

    def _lose(self, why: str) -> None:
        self.gone = DatabaseGoneError(f"{why}: no move is saved or accepted until the bot is restarted")
        log.critical("%s", self.gone)
