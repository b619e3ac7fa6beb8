"""The store's checkpoint policy (bot.store.checkpoint): the WAL is copied back into the database
in the background, starts over once copied, and never grows past its bound, writes or no writes."""

import asyncio
import sqlite3

from bot.store import CheckpointPolicy, Store

BIG = {"notes": "x" * 20_000}  # a write of several pages, so that the WAL grows quickly


def wal_size(path) -> int:
    wal = path.with_name(path.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


def rows_in_database_file(path) -> int:
    """Guild settings in the database file itself: an immutable connection ignores the WAL (the
    table itself may still be there only)."""
    conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM guild_settings").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        conn.close()


async def test_the_wal_stays_under_its_bound_under_nonstop_writes(tmp_path):
    path = tmp_path / "bound.db"
    bound = 256 * 1024
    # No background checkpoint in time: only the bound keeps the WAL in check.
    store = await Store.open(path, CheckpointPolicy(delay_seconds=3600, max_wal_bytes=bound))
    try:
        largest = 0
        for guild in range(200):  # about 5 MB of writes
            await store.set_guild_settings(guild, BIG, now=0.0)
            largest = max(largest, wal_size(path))
        assert largest <= bound + 64 * 1024  # the bound plus the one commit that passed it
        assert rows_in_database_file(path) > 150  # the truncations copied the writes first
        assert await store.guild_settings(199) == BIG
    finally:
        await store.close()


async def test_the_wal_stays_small_with_concurrent_writers(tmp_path):
    """Many writers at once (group commits back to back, the queue rarely empty)."""
    path = tmp_path / "busy.db"
    bound = 256 * 1024
    store = await Store.open(path, CheckpointPolicy(delay_seconds=0.001, max_wal_bytes=bound))
    try:
        largest = 0

        async def writer(first: int) -> None:
            nonlocal largest
            for guild in range(first, first + 40):
                await store.set_guild_settings(guild, BIG, now=0.0)
                largest = max(largest, wal_size(path))

        await asyncio.gather(*(writer(first) for first in range(0, 400, 40)))
        assert largest <= bound + 10 * 64 * 1024  # one group commit of ten writers past the bound
        assert await store.guild_settings(399) == BIG
    finally:
        await store.close()


async def test_writes_reach_the_database_file_in_the_background_and_the_wal_starts_over(tmp_path):
    path = tmp_path / "background.db"
    store = await Store.open(path, CheckpointPolicy(delay_seconds=0.01, max_wal_bytes=1 << 40))
    try:
        for guild in range(10):
            await store.set_guild_settings(guild, BIG, now=0.0)
        copied = False
        for _ in range(200):  # no more writes: the background checkpoints copy all of them
            await asyncio.sleep(0.01)
            copied = rows_in_database_file(path) == 10 and not store._checkpointer._lock.locked()
            if copied:
                break
        assert copied
        size = wal_size(path)
        for guild in range(10, 20):  # the next writes go to the beginning of the WAL again
            await store.set_guild_settings(guild, BIG, now=0.0)
        assert wal_size(path) <= size
    finally:
        await store.close()


async def test_a_steady_load_reuses_the_wal_without_truncating_it(tmp_path):
    """Writes with pauses between them, as tables play: the WAL never needs its bound."""
    path = tmp_path / "steady.db"
    store = await Store.open(path, CheckpointPolicy(delay_seconds=0.005, max_wal_bytes=1 << 40))
    try:
        for round_ in range(30):
            for guild in range(5):
                await store.set_guild_settings(round_ * 5 + guild, BIG, now=0.0)
            await asyncio.sleep(0.02)
        assert store._checkpointer.truncated == 0
        assert wal_size(path) < 30 * 5 * 20_000 / 4  # a fraction of all that was written
    finally:
        await store.close()


async def test_the_writer_finishes_what_background_checkpoints_miss_under_nonstop_writes(tmp_path):
    """Back-to-back writes land while every background checkpoint copies, so none of them can
    let the WAL start over; the writer's short checkpoints between commits do."""
    path = tmp_path / "nonstop.db"
    store = await Store.open(path, CheckpointPolicy(delay_seconds=0.001, max_wal_bytes=1 << 40))
    try:
        for guild in range(300):  # about 7 MB of writes
            await store.set_guild_settings(guild, BIG, now=0.0)
        assert store._checkpointer.finished > 0 and store._checkpointer.truncated == 0
        assert wal_size(path) < 300 * 20_000 / 4
    finally:
        await store.close()
