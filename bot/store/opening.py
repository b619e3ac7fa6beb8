"""Opening a store: the one place that knows both databases, so that the interface (`store.Store`)
and each database's module import only downwards, never each other."""

from __future__ import annotations

from pathlib import Path

from bot.store.checkpoint import CheckpointPolicy
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore
from bot.store.store import Store, is_database_url


async def open_store(
    target: str | Path, checkpoints: CheckpointPolicy | None = None, *, create: bool = True
) -> Store:
    """The SQLite file at `target`, or the PostgreSQL database a `postgresql://` URL names
    (`checkpoints` is SQLite's alone), brought up to date (see `schema`). A new database is set
    up there unless not `create`: the commands that only read or change the bot's existing one
    (`replay`, `migrate-db`, `forget-user`) then get `NoDatabaseError` instead of an empty one.
    One that cannot be used as it is raises `UnusableDatabaseError`, a server that cannot be
    reached now `DatabaseUnreachableError`."""
    if is_database_url(target):
        return await PostgresStore.connect(str(target), create)
    return await SqliteStore.connect(Path(target), checkpoints, create)


async def check_store(target: str | Path, *, create: bool = True) -> None:
    """Opens and closes the database: brings it up to date, or raises `StoreError` saying why it
    cannot be used (see `open_store`)."""
    store = await open_store(target, create=create)
    await store.close()
