"""Store failures a caller can act on; anything else from the database is a bug."""

from __future__ import annotations


class StoreError(Exception):
    """The database cannot be used as it is (for example, it is newer than this code)."""


class UnusableDatabaseError(StoreError):
    """The database the settings name cannot be used as it is, and waiting will not change that:
    no database there (where none is to be made), a path that cannot be opened, a file that is
    not a database, a schema newer than this bot or with tables missing, a URL that cannot be
    read, a server that refuses the credentials or has no such database. `python -m bot` exits 2
    on it, which the deployment files do not restart."""


class NoDatabaseError(UnusableDatabaseError):
    """There is no rummy-bot database where one was expected, and none is made: a command that
    only reads or changes an existing one (`replay`, `migrate-db`, `forget-user`) was pointed
    at the wrong place."""


class DatabaseUnreachableError(StoreError):
    """The database server cannot be reached now (down, restarting, the network): the same
    request may work later. At start-up the bot waits for it, saying so on `/healthz`."""


class DamagedRowError(StoreError):
    """A stored row that cannot be read back as what it should be (not JSON, a key missing, a
    value of the wrong kind, a card no deck has, a history that does not replay). Raised by the
    one function that loads each kind of row, so the caller can set that one table or league
    aside and go on with the others."""

    def __init__(self, kind: str, row_id: int, reason: str) -> None:
        super().__init__(f"{kind} {row_id} is damaged: {reason}")
        self.kind, self.row_id, self.reason = kind, row_id, reason

    @classmethod
    def of(cls, kind: str, row_id: int, error: BaseException) -> DamagedRowError:
        """The row's damage as the error met while reading it says it."""
        if isinstance(error, KeyError):
            return cls(kind, row_id, f"{error} is missing")
        return cls(kind, row_id, f"{type(error).__name__}: {error}")


class CorruptMatchError(DamagedRowError):
    """A match's snapshot disagrees with its command log, so resuming it could change history."""


class ChannelBusyError(StoreError):
    """The channel already has an open or playing table."""

    def __init__(self, message: str = "This channel already has a table.") -> None:
        super().__init__(message)


class DuplicateCommandError(StoreError):
    """A command id that the match's log already holds: saving it again would apply it twice."""

    def __init__(self, message: str = "That command has already been applied.") -> None:
        super().__init__(message)


class WritesRefusedError(StoreError):
    """The database can be read but not written, for now: the disk is full, the file or its
    file system became read-only, or the disk failed a write. Nothing was saved; the same write
    may work later, with nothing to do but try again."""


class DatabaseGoneError(StoreError):
    """The database file was deleted or replaced while the bot had it open, or another program
    wrote to it. Whatever the bot saved from then on would be lost at the next start, or would
    overwrite what the other program wrote, so it saves nothing more until it is restarted."""


class LeaseLostError(DatabaseGoneError):
    """This process no longer holds the lease of a shard it runs (another process took it over
    after the lease expired): it saves nothing more, so no table is ever run by two processes."""


class ShardTakenError(StoreError):
    """A shard this process was started for is held by another live process (its lease has not
    expired): the process does not start rather than run that shard's tables a second time."""
