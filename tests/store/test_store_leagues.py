"""League rows in the store: migration 2 from an empty file and from a version 1 database, and
the league documents written through the store's write queue."""

import sqlite3

import asyncpg
import pytest

from bot.store import (
    SCHEMA_VERSION,
    SeatRecord,
    StoredLeague,
    StoreError,
    TableRecord,
    TableStatus,
    open_store,
)
from bot.store.schema import MIGRATIONS


def league(league_id: int, name: str = "Friday Pool", guild: int = 5) -> StoredLeague:
    return StoredLeague(league_id, guild, name, {"league": {"name": name}, "names": {}}, 100.0)


async def test_migrates_a_version_1_database_keeping_its_tables(tmp_path):
    path = tmp_path / "v1.db"
    conn = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute(
        "INSERT INTO tables VALUES (7, 5, 50, 'points', '{}', 1, 1, 6, '[]', 'finished', NULL, 0, 0)"
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    store = await open_store(path)
    try:
        assert (await store.table(7)).league_id is None
        assert await store.leagues() == []
        assert store.new_table_id() == 8 and store.new_league_id() == 1
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    indexes = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"leagues_name_per_guild", "tables_by_league"} <= indexes
    conn.close()


async def test_leagues_are_created_saved_and_loaded_and_names_are_unique_in_any_case(database):
    store = await open_store(database)
    try:
        first = league(store.new_league_id())
        await store.create_league(first, 10.0)
        await store.create_league(league(store.new_league_id(), "friday pool", guild=6), 10.0)
        with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
            await store.create_league(league(store.new_league_id(), "FRIDAY POOL"), 10.0)
        first.state["names"] = {"11": "Asha"}
        first.next_wake = None
        await store.save_league(first, 20.0)
        with pytest.raises(StoreError, match="did not follow"):
            await store.save_league(league(99), 20.0)  # a league never created
        loaded = await store.leagues()
        assert [(s.id, s.guild_id, s.name) for s in loaded] == [(1, 5, "Friday Pool"), (2, 6, "friday pool")]
        assert loaded[0] == first
    finally:
        await store.close()
    store = await open_store(database)
    try:
        assert store.new_league_id() == 3  # ids continue after a restart
    finally:
        await store.close()


async def test_a_league_table_is_found_by_its_channel_newest_first(database):
    store = await open_store(database)
    try:
        for league_id, status in (
            (1, TableStatus.FINISHED),
            (None, TableStatus.CANCELLED),
            (1, TableStatus.OPEN),
        ):
            record = TableRecord(store.new_table_id(), 5, 77, "pool-61", {}, 1, 11, 2, [SeatRecord(11, "A")])
            record.status, record.league_id = status, league_id
            await store.create_table(record, 1.0)
        assert (await store.league_table(1, 77)).id == 3
        assert await store.league_table(2, 77) is None and await store.league_table(1, 78) is None
    finally:
        await store.close()
