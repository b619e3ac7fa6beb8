"""Backups taken as docs/admin.md says, while tables play, and restored as it says: SQLite's online
backup (Python's `sqlite3.Connection.backup`, and the `sqlite3` shell's `.backup`), PostgreSQL's
`pg_dump` and `pg_restore`. The restored database resumes every table as it was at the backup."""

import asyncio
import random
import shutil
import sqlite3
import subprocess

import pytest
from service_helpers import next_move, open_and_start, open_service

TABLES = (1, 2, 3)


async def play(service, rng, moves: int) -> None:
    for _ in range(moves):
        for channel in TABLES:
            table = service.table_in(channel)
            if table is not None:
                player, move = next_move(table, rng, drop=0, wrong_show=0)
                await service.play(channel, player, move)


def logs(service) -> dict[int, int]:
    return {channel: len(service.table_in(channel).match.log) for channel in TABLES}


def python_backup(source, target) -> None:
    live, copy = sqlite3.connect(source), sqlite3.connect(target)
    try:
        live.backup(copy)
    finally:
        live.close()
        copy.close()


def shell_backup(source, target) -> None:
    subprocess.run(["sqlite3", str(source), f".backup {target}"], check=True, capture_output=True)


@pytest.mark.parametrize("backup", [python_backup, shell_backup])
async def test_a_sqlite_backup_taken_while_tables_play_restores_them_as_they_were(tmp_path, backup):
    if backup is shell_backup and shutil.which("sqlite3") is None:
        pytest.skip("no sqlite3 shell on this machine")
    live, copy = tmp_path / "rummy.db", tmp_path / "backup.db"
    store, service = await open_service(live)
    for channel in TABLES:
        await open_and_start(service, channel)
    rng = random.Random(8)
    await play(service, rng, 5)
    before = logs(service)
    taking = asyncio.create_task(asyncio.to_thread(backup, live, copy))
    await play(service, random.Random(9), 2)  # moves go on while it copies, in WAL mode
    await taking
    await play(service, rng, 3)
    after = logs(service)
    await store.close()

    for path in (live, live.with_name("rummy.db-wal"), live.with_name("rummy.db-shm")):
        path.unlink(missing_ok=True)  # the restore: the bot stopped, the backup put in place
    shutil.copy(copy, live)
    store, service = await open_service(live)
    try:
        restored = logs(service)
        assert all(before[c] <= restored[c] <= after[c] for c in TABLES) and restored != after
        await play(service, random.Random(10), 2)  # and they play on
        assert all(len(service.table_in(c).match.log) > restored[c] for c in TABLES)
    finally:
        await store.close()


@pytest.mark.postgres
async def test_a_pg_dump_restored_with_pg_restore_resumes_every_table(postgres_server, tmp_path):
    server, dump = postgres_server, tmp_path / "rummy.dump"
    server.sql("CREATE DATABASE backup_source")
    server.sql("CREATE DATABASE backup_restored")
    try:
        store, service = await open_service(server.url("backup_source"))
        for channel in TABLES:
            await open_and_start(service, channel)
        await play(service, random.Random(8), 6)
        taken = logs(service)
        connect = ["-h", str(server.root), "-U", "postgres"]
        subprocess.run(  # while the store is open, as pg_dump is meant to run
            [str(server.binaries / "pg_dump"), *connect, "-Fc", "-f", str(dump), "backup_source"],
            check=True,
            capture_output=True,
        )
        await play(service, random.Random(9), 2)
        await store.close()
        subprocess.run(
            [str(server.binaries / "pg_restore"), *connect, "--no-owner", "-d", "backup_restored", str(dump)],
            check=True,
            capture_output=True,
        )
        store, service = await open_service(server.url("backup_restored"))
        try:
            assert logs(service) == taken
            await play(service, random.Random(10), 1)
        finally:
            await store.close()
    finally:
        server.sql("DROP DATABASE backup_source")
        server.sql("DROP DATABASE backup_restored")
