"""Opening a store: the one place that knows both databases, so that the interface (`store.Store`)
and each database's module import only downwards, never each other."""

from __future__ import annotations

from pathlib import Path

from bot.store.checkpoint import CheckpointPolicy
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore
from bot.store.store import Store, is_database_url


async def open_store(target: str | Path, checkpoints: CheckpointPolicy | None = None) -> Store:
    """The SQLite file at `target`, or the PostgreSQL database a `postgresql://` URL names
    (`checkpoints` is SQLite's alone), brought up to date (see `schema`)."""
    if is_database_url(target):
        return await PostgresStore.connect(str(target))
    return await SqliteStore.connect(Path(target), checkpoints)


async def check_store(target: str | Path) -> None:
    """Opens and closes the database: brings it up to date, or raises `StoreError` saying why it
    cannot be used (newer than this code, a table missing)."""
    store = await open_store(target)
    await store.close()
