"""`python -m bot migrate-db`: a SQLite database played through the services (plain tables, a
finished match, a league night half played) copied into a real PostgreSQL server, checked, and
played on there exactly as it would have gone on in SQLite; and what it refuses, in one line."""

import os
import random
import sqlite3
import subprocess
import sys
from datetime import timedelta

import pytest
from league_helpers import FIRST, MONDAY, Bots, clock_at, create, join_all, move_to, play_moves
from league_helpers import GUILD as LEAGUE_GUILD
from service_helpers import GUILD, open_and_start, open_service, play_one, user

from bot.engine.errors import IllegalActionError
from bot.engine.match import MatchPhase
from bot.store import SCHEMA_VERSION, open_store
from bot.store.schema import SHARDING_TABLES, TABLES

pytestmark = pytest.mark.postgres


def migrate(*args, cwd, env_extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "RUMMY_"))}
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


async def play(service, channel: int, moves: int, rng: random.Random) -> None:
    """`moves` commands at the table in `channel` (fewer if its match ends), careless players."""
    for _ in range(moves):
        table = service.table_in(channel)
        if table is None or table.match is None or table.match.phase is MatchPhase.OVER:
            return
        try:
            await play_one(service, table, rng)
        except IllegalActionError:
            continue


async def build(path) -> tuple:
    """Plain tables (one match played to the end, two open matches, a lobby) and a league night
    with both its tables part-played, on the SQLite file at `path`."""
    store, service = await open_service(path, seed=7)
    try:
        await open_and_start(service, 1, players=2, fmt="points")
        await play(service, 1, 5000, random.Random(1))
        assert service.table_in(1) is None
        await open_and_start(service, 2, players=3, fmt="deals-2")
        await play(service, 2, 12, random.Random(2))
        await open_and_start(service, 3, players=4, fmt="pool-101")
        await play(service, 3, 40, random.Random(3))
        await service.open_table(GUILD, 4, user(4, 0), "Host", format="points")
        # What the front end keeps: settings, posted messages (Discord's ids pass 2^62), closed DMs.
        await store.set_guild_settings(GUILD, {"format": "deals-2"}, 1.5)
        await store.set_user_settings(user(2, 1), {"deck": "four-colour"}, 2.5)
        await store.remember_message("table:2", 2**62 + 3, 2**63 - 1, 3.5)
        await store.refuse_dms(user(3, 2), 4.5)
        await store.set_front_end_state("commands:global", "c0ffee", 5.5)
    finally:
        await store.close()

    bots, clock = Bots(path), clock_at(MONDAY)
    try:
        bot = await bots.start(clock)
        await create(bot)
        await join_all(bot)
        move_to(clock, FIRST)
        await bot.leagues.tick()
        for channel, member in ((5001, 11), (5001, 14), (5002, 12), (5002, 13), (5002, 16)):
            await bot.leagues.check_in(channel, member)
        move_to(clock, FIRST + timedelta(minutes=10))
        await bot.leagues.tick()
        await play_moves(bot, 12)  # both league matches still on: strong players drop, ending deals sooner
    finally:
        await bots.close()
    return clock, bot.threads


async def finish(target, clock, threads) -> dict:
    """The bot restarted on `target`: what it resumes, then every table played on to its end."""
    bots = Bots(target)
    try:
        bot = await bots.start(clock, threads)
        resumed = sorted(t.record.channel_id for t in bot.tables.tables())
        for channel, seed in ((2, 20), (3, 30)):
            await play(bot.tables, channel, 60, random.Random(seed))
        await play_moves(bot)
        league = bot.leagues.find(LEAGUE_GUILD, None).league
        night = league.season.nights[0]
        await bot.tables.open_table(GUILD, 77, user(77, 0), "Host", format="points")
        new = bot.tables.table_in(77)
        return {
            "resumed": resumed,
            "night": [t.to_json() for t in night.tables],
            "standings": league.season.standings(),
            "matches": {c: bot.tables.table_in(c).match.to_json() for c in (2, 3) if bot.tables.table_in(c)},
            "history": [
                [(t.id, t.status) for t in await bot.store.channel_tables(c)]
                for c in (1, 2, 3, 4, 5001, 5002)
            ],
            "counts": await bot.store.row_counts(),
            "night_status": str(night.status),
            "new_table": new.id,
            "stats": await bot.store.user_stats(GUILD, user(1, 0)),
            "kept": (
                await bot.store.guild_settings(GUILD),
                await bot.store.user_settings(user(2, 1)),
                await bot.store.posted_messages(),
                await bot.store.dm_refusals(0.0),
                await bot.store.front_end_state("commands:global"),
            ),
        }
    finally:
        await bots.close()


async def test_a_played_database_moves_to_postgres_and_plays_on_as_it_would_have(tmp_path, postgres_url):
    straight_path, moved_path = tmp_path / "straight.db", tmp_path / "moved.db"
    clock, threads = await build(straight_path)
    straight = await finish(straight_path, clock, threads)

    clock, threads = await build(moved_path)
    store = await open_store(moved_path)
    before = await store.row_counts()
    await store.close()
    done = migrate("--from", str(moved_path), "--to", postgres_url, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    report = done.stdout.splitlines()
    assert report[0].startswith(f"Copied {moved_path} into postgresql://")
    assert (
        f"{sum(before.values())} rows" in report[0]
        and f"match_commands {before['match_commands']}" in report[0]
    )
    verified = f"row counts equal in all {len(TABLES)} tables; 5 open tables, 4 matches replay alike."
    assert verified in report[1]

    # Every table has rows to copy, but those only sharded processes on PostgreSQL write.
    assert all(count for name, count in before.items() if name not in SHARDING_TABLES), before

    moved = await finish(postgres_url, clock, threads)
    assert moved["resumed"] == [2, 3, 4, 5001, 5002]
    assert moved == straight
    assert moved["new_table"] == max(t for history in moved["history"] for t, _ in history) + 1


@pytest.fixture
def schemas(postgres_server):
    """New empty PostgreSQL schemas, one a call, dropped at the end."""
    made = []

    def new() -> str:
        name = f"migrate_{len(made)}_{os.getpid()}"
        postgres_server.sql(f"CREATE SCHEMA {name}")
        made.append(name)
        return postgres_server.url(search_path=name)

    yield new
    for name in made:
        postgres_server.sql(f"DROP SCHEMA {name} CASCADE")


def one_line(done, code: int, *says: str) -> None:
    assert done.returncode == code, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    for words in says:
        assert words in done.stderr, done.stderr


async def test_what_migrate_db_refuses_is_one_line_and_a_failing_exit(tmp_path, schemas, postgres_server):
    path = tmp_path / "rummy.db"
    store, service = await open_service(path)
    try:
        await open_and_start(service, 1)
        await play(service, 1, 10, random.Random(1))
    finally:
        await store.close()

    # The settings file names the database, as for `python -m bot`; the copy lands.
    (tmp_path / "bot.env").write_text(f"RUMMY_DB_PATH={path}\n")
    target = schemas()
    done = migrate("--env-file", str(tmp_path / "bot.env"), "--to", target, cwd=tmp_path)
    assert done.returncode == 0 and "1 open tables, 1 matches replay alike" in done.stdout, done.stderr
    # Again: the target holds data now.
    one_line(migrate("--from", str(path), "--to", target, cwd=tmp_path), 1, "already holds data")

    # What no retry mends exits 2 (a service manager does not restart it); the missing file is
    # not made.
    fresh = schemas()
    nope = tmp_path / "nope.db"
    one_line(migrate("--from", str(nope), "--to", fresh, cwd=tmp_path), 2, "There is no database there")
    assert not nope.exists()
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    one_line(migrate("--from", str(tmp_path / "junk.db"), "--to", fresh, cwd=tmp_path), 2, "junk.db")
    one_line(migrate("--from", str(path), "--to", "mysql://x/y", cwd=tmp_path), 2, "postgresql://")
    one_line(
        migrate("--from", str(path), "--to", "postgresql://h:port/db", cwd=tmp_path), 2, "cannot be used"
    )
    gone = f"postgresql://postgres@/postgres?host={tmp_path / 'no-server-here'}"
    one_line(migrate("--from", str(path), "--to", gone, cwd=tmp_path), 1, "cannot be")
    secret = f"postgresql://postgres:hunter2@/postgres?host={tmp_path / 'no-server-here'}"
    done = migrate("--from", str(path), "--to", secret, cwd=tmp_path)
    one_line(done, 1)
    assert "hunter2" not in done.stderr

    newer = tmp_path / "newer.db"
    newer.write_bytes(path.read_bytes())
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    one_line(migrate("--from", str(newer), "--to", fresh, cwd=tmp_path), 2, "newer than this bot")

    ahead = schemas()
    store = await open_store(ahead)
    await store.close()
    postgres_server.sql(
        f"UPDATE {ahead.split('search_path=')[1]}.schema_version SET version = {SCHEMA_VERSION + 1}"
    )
    one_line(migrate("--from", str(path), "--to", ahead, cwd=tmp_path), 2, "newer than this bot")
    # Nothing was written into the fresh target by the refusals: a good copy still lands there.
    assert migrate("--from", str(path), "--to", fresh, cwd=tmp_path).returncode == 0


async def test_damaged_rows_are_copied_as_they_are_or_stop_the_copy_naming_them(tmp_path, schemas):
    path = tmp_path / "rummy.db"
    store, service = await open_service(path)
    try:
        for channel in (1, 2):
            await open_and_start(service, channel)
            await play(service, channel, 10, random.Random(channel))
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE tables SET seats = 'not json' WHERE channel_id = 1")  # the bot sets it aside
    conn.commit()
    conn.close()
    target = schemas()
    done = migrate("--from", str(path), "--to", target, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "2 open tables, 1 matches replay alike" in done.stdout
    assert "damaged as before (copied as it is): table 1 is damaged" in done.stdout
    store = await open_store(target)
    try:
        (damaged, sound) = await store.active_tables()
        assert damaged.damage is not None and sound.damage is None and sound.match is not None
    finally:
        await store.close()

    # A value PostgreSQL's column cannot hold (SQLite's loose typing let it in): nothing copied.
    conn = sqlite3.connect(path)
    conn.execute("UPDATE tables SET point_value = 'lots' WHERE channel_id = 2")
    conn.commit()
    conn.close()
    fresh = schemas()
    one_line(migrate("--from", str(path), "--to", fresh, cwd=tmp_path), 1, "tables.point_value holds 'lots'")
    store = await open_store(fresh)
    try:
        assert not any((await store.row_counts()).values())
    finally:
        await store.close()
