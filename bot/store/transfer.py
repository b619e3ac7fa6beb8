"""Moving house: a SQLite database copied whole into PostgreSQL (`python -m bot migrate-db`).

Both ends are first opened as stores, so each is brought to this bot's schema by its own
migrations and one newer than the bot is refused. The target must hold no rows. Then every
table is copied in the order the migrations made them (a row's references before it), with
PostgreSQL's COPY, in one transaction: a copy that fails leaves the target empty, to try again.
Ids are kept as they are; the store hands out new ones after the largest stored (`NEXT_IDS`),
so there is no sequence to move on. Checking the copy (row counts, and every open table's match
replayed from both) is the caller's: see `bot.app.migrate`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.faults import StoreError
from bot.store.opening import open_store
from bot.store.schema import TABLES
from bot.store.sqlite import SqliteStore
from bot.store.store import Store

_BATCH = 5000  # rows read from SQLite and sent in one COPY
# What a PostgreSQL column of the schema takes, and what SQLite may hand back for it.
_TYPES: dict[str, tuple[type, ...]] = {
    "bigint": (int,),
    "integer": (int,),
    "double precision": (float, int),
    "text": (str,),
}
# Errors that mean the server cannot be reached or used, rather than a bug here.
_UNREACHABLE = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)


async def open_source(path: Path) -> SqliteStore:
    """The SQLite file as a store, brought to this bot's schema (a newer one is refused). A path
    with no database is refused (`NoDatabaseError`) rather than made into an empty one."""
    store = await open_store(path, create=False)
    assert isinstance(store, SqliteStore)
    return store


async def open_target(url: str) -> Store:
    """The PostgreSQL database as a store, brought to this bot's schema (newer refused)."""
    try:
        return await open_store(url)
    except _UNREACHABLE as error:  # the server's refusals while its tables are made
        raise StoreError(
            f"The PostgreSQL database cannot be used: {type(error).__name__}: {error}"
        ) from error


async def copy_into(source: SqliteStore, url: str) -> dict[str, int]:
    """Copies every row of `source` into the PostgreSQL database at `url` (already brought to
    the schema by `open_target`), in one transaction; returns the rows copied per table.
    Refuses a target that holds any row."""
    try:
        conn = await asyncpg.connect(url)
    except (*_UNREACHABLE, ValueError) as error:
        raise StoreError(f"The PostgreSQL database cannot be reached: {error}") from error
    copied: dict[str, int] = {}
    try:
        async with conn.transaction():
            # No bot may write while the copy runs (nor start on the tables half-copied).
            await conn.execute(f"LOCK TABLE {', '.join(TABLES)} IN ACCESS EXCLUSIVE MODE")
            held = [name for name in TABLES if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {name})")]
            if held:
                raise StoreError(
                    f"The PostgreSQL database already holds data (in {', '.join(held)}): "
                    "copy into an empty database only."
                )
            for name in TABLES:
                copied[name] = await _copy_table(source, conn, name)
        await conn.execute("ANALYZE")  # the planner's statistics for the rows just loaded
    except _UNREACHABLE as error:
        raise StoreError(f"The copy into PostgreSQL failed: {type(error).__name__}: {error}") from error
    finally:
        await conn.close()
    return copied


async def _copy_table(source: SqliteStore, conn: asyncpg.Connection, name: str) -> int:
    described = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        name,
    )
    columns = [str(row[0]) for row in described]
    convert = [_converter(name, str(row[0]), str(row[1])) for row in described]
    count = 0
    async for rows in source.rows_of(name, columns, _BATCH):
        records = [tuple(to(value) for to, value in zip(convert, row, strict=True)) for row in rows]
        await conn.copy_records_to_table(name, records=records, columns=columns)
        count += len(records)
    return count


def _converter(table: str, column: str, data_type: str) -> Callable[[Any], Any]:
    """Each value as the PostgreSQL column takes it; one SQLite's loose typing let through as
    something else (text in a number's column) stops the copy, naming where it is."""
    kinds = _TYPES.get(data_type)
    if kinds is None:
        raise StoreError(f"{table}.{column} is of a type the copy does not know: {data_type}")
    wanted = kinds[0]

    def convert(value: Any) -> Any:
        if value is None or type(value) is wanted:
            return value
        if isinstance(value, kinds) and not isinstance(value, bool):
            return wanted(value)
        raise StoreError(f"{table}.{column} holds {value!r}, which is not {data_type}: fix the row first.")

    return convert
