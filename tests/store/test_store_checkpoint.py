"""The store's checkpoint policy (bot.store.checkpoint): the WAL is copied back into the database
in the background, starts over once copied, and never grows past its bound, writes or no writes."""

import asyncio
import sqlite3

import pytest

from bot.store import CheckpointPolicy, checkpoint, open_store
from bot.store.checkpoint import wal_reset_fixed

BIG = {"notes": "x" * 20_000}  # a write of several pages, so that the WAL grows quickly


@pytest.fixture(autouse=True, params=["own connection", "writer's connection"])
def where(request, monkeypatch) -> str:
    """Every test with background checkpoints on a connection of their own (a library with the
    WAL-reset fix) and on the writer's (one without it), whatever this machine's library is."""
    monkeypatch.setattr(checkpoint, "wal_reset_fixed", lambda: request.param == "own connection")
    return request.param


def wal_size(path) -> int:
    wal = path.with_name(path.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


async def rows_in_database_file(store, path) -> int:
    """Guild settings in the database file itself: an immutable connection ignores the WAL (the
    table itself may still be there only). It takes no lock either, so it reads only while no
    checkpoint is writing to the file (they all hold the checkpointer's lock)."""
    while store._checkpointer._lock.locked():
        await asyncio.sleep(0.001)
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
    store = await open_store(path, CheckpointPolicy(delay_seconds=3600, max_wal_bytes=bound))
    try:
        largest = 0
        for guild in range(200):  # about 5 MB of writes
            await store.set_guild_settings(guild, BIG, now=0.0)
            largest = max(largest, wal_size(path))
        assert largest <= bound + 64 * 1024  # the bound plus the one commit that passed it
        assert await rows_in_database_file(store, path) > 150  # the truncations copied the writes first
        assert await store.guild_settings(199) == BIG
    finally:
        await store.close()


async def test_the_wal_stays_small_with_concurrent_writers(tmp_path):
    """Many writers at once (group commits back to back, the queue rarely empty)."""
    path = tmp_path / "busy.db"
    bound = 256 * 1024
    store = await open_store(path, CheckpointPolicy(delay_seconds=0.001, max_wal_bytes=bound))
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
    store = await open_store(path, CheckpointPolicy(delay_seconds=0.01, max_wal_bytes=1 << 40))
    try:
        for guild in range(10):
            await store.set_guild_settings(guild, BIG, now=0.0)
        copied = False
        for _ in range(1000):  # no more writes: the background checkpoints copy all of them
            await asyncio.sleep(0.01)
            copied = await rows_in_database_file(store, path) == 10
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
    """Writes with pauses between them, as tables play, and a background checkpoint in each
    pause (run here by hand, so that the test does not depend on timing)."""
    path = tmp_path / "steady.db"
    store = await open_store(path, CheckpointPolicy(delay_seconds=3600, max_wal_bytes=1 << 40))
    try:
        for round_ in range(30):
            for guild in range(5):
                await store.set_guild_settings(round_ * 5 + guild, BIG, now=0.0)
            await store._checkpointer.copy()
        assert store._checkpointer.truncated == 0
        assert wal_size(path) < 3 * 5 * 30_000  # a few rounds' writes, not thirty
        assert await rows_in_database_file(store, path) == 150
    finally:
        await store.close()


async def test_the_writer_finishes_what_a_background_checkpoint_missed(tmp_path):
    """Commits that land while a background checkpoint copies stop the WAL from starting over;
    the writer copies them between two transactions, when no write is waiting."""
    path = tmp_path / "finish.db"
    store = await open_store(path, CheckpointPolicy(delay_seconds=3600, max_wal_bytes=1 << 40))
    try:
        for guild in range(10):
            await store.set_guild_settings(guild, BIG, now=0.0)
        store._checkpointer._unfinished = True  # as after a background copy that writes overtook
        await store.set_guild_settings(10, BIG, now=0.0)
        await store._writer  # it checkpoints after telling the caller the write is done
        assert store._checkpointer.finished == 1 and await rows_in_database_file(store, path) == 11
        size = wal_size(path)
        await store.set_guild_settings(11, BIG, now=0.0)
        await store._writer
        assert wal_size(path) <= size  # the WAL started over
        assert store._checkpointer.finished == 1  # once is enough
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("version", "fixed"),
    [
        ((3, 40, 1), False),
        ((3, 44, 5), False),
        ((3, 44, 6), True),
        ((3, 45, 0), False),
        ((3, 50, 6), False),
        ((3, 50, 7), True),
        ((3, 51, 2), False),
        ((3, 51, 3), True),
        ((3, 53, 0), True),
        ((4, 0, 0), True),
    ],
)
def test_which_libraries_have_the_wal_reset_fix(version, fixed):
    assert wal_reset_fixed(version) is fixed


async def test_without_the_wal_reset_fix_no_checkpoint_runs_beside_a_commit(tmp_path, where):
    """A library without the fix checkpoints on the writer's connection only, which runs one
    call at a time: never a checkpoint on one connection while another commits."""
    store = await open_store(tmp_path / "race.db")
    try:
        assert (store._checkpointer._conn is store._conn) is (where == "writer's connection")
        for guild in range(5):
            await store.set_guild_settings(guild, BIG, now=0.0)
        await store._checkpointer.copy()
        assert await store.guild_settings(4) == BIG
    finally:
        await store.close()
