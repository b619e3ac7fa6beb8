import asyncio
import json
import random
import sqlite3

import asyncpg
import pytest
from backends import execute, fetchone

from bot.engine.events import EventKind
from bot.engine.formats import Format
from bot.engine.match import Match, MatchPhase
from bot.store import (
    LOG_TAIL,
    SCHEMA_VERSION,
    ChannelBusyError,
    CommandRecord,
    CorruptMatchError,
    DuplicateCommandError,
    SeatRecord,
    StandingRow,
    StatsDelta,
    StoreError,
    TableRecord,
    TableStatus,
    database_path,
    database_target,
    open_store,
)
from bot.store.postgres import PostgresStore
from bot.store.postgres_schema import MIGRATIONS as POSTGRES_MIGRATIONS
from bot.store.schema import MIGRATIONS, tables_made_by


@pytest.fixture
async def store(database):
    store = await open_store(database)
    yield store
    await store.close()


def new_table(store, channel=10, status=TableStatus.OPEN):
    return TableRecord(
        id=store.new_table_id(),
        guild_id=1,
        channel_id=channel,
        format="points",
        rules={},
        point_value=1,
        host_id=100,
        max_seats=6,
        seats=[SeatRecord(100, "Asha"), SeatRecord(None, "Bot", "easy")],
        status=status,
    )


def record(match: Match, match_id: int, seq_before: int, events, command_id=None) -> CommandRecord:
    """What the service saves for one accepted command (built here so the store is tested alone)."""
    assert len(match.log) == seq_before + 1
    ended = any(e.kind is EventKind.DEAL_OVER for e in events)
    return CommandRecord(
        match_id=match_id,
        seq=len(match.log),
        command=match.log[-1].to_json(),
        events=[e.to_json() for e in events],
        snapshot=match.state_json(),
        log_tail=[command.to_json() for command in match.log[-LOG_TAIL:]],
        clock={"deadline": 1.0},
        at=1.0,
        command_id=command_id,
        finished_deal=match.finished_deals[-1].to_json() if ended else None,
        match_over=match.phase is MatchPhase.OVER,
    )


async def started(store, fmt=Format.POINTS, seed=1, channel=10):
    table = new_table(store, channel)
    await store.create_table(table, now=0.0)
    match, events = Match.start(fmt, 2, random.Random(seed))
    table.status = TableStatus.PLAYING
    match_id = store.new_match_id()
    await store.start_match(table, record(match, match_id, 0, events))
    return table, match, match_id


def a_move(match: Match, rng: random.Random) -> dict:
    if match.phase is MatchPhase.BETWEEN_DEALS:
        return {"command": "next_deal"}
    deal = match.deal
    seat = deal.turn
    if deal.phase == "pick":
        if rng.random() < 0.03 and deal.can_drop(seat):
            return {"command": "drop", "seat": seat}
        return {"command": "pick", "seat": seat, "source": "closed"}
    hand = [card.code for card in deal.seats[seat].hand]
    if rng.random() < 0.03:  # a wrong show: with two players it ends the deal
        return {"command": "declare", "seat": seat, "groups": [" ".join(hand[1:])], "finish": hand[0]}
    return {"command": "discard", "seat": seat, "card": rng.choice(hand)}


async def play(store, match, match_id, moves, rng):
    for _ in range(moves):
        if match.phase is MatchPhase.OVER:
            break
        seq = len(match.log)
        events = match.apply(a_move(match, rng))
        await store.save_command(record(match, match_id, seq, events))


async def test_migrates_an_empty_file_in_wal_mode_with_foreign_keys(tmp_path):
    path = tmp_path / "new.db"
    store = await open_store(path)
    await store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"guild_settings", "tables", "matches", "deals", "match_commands", "user_stats"} <= names
    conn.close()
    store = await open_store(path)  # a second start finds nothing to do
    assert await store.active_tables() == []
    with pytest.raises(sqlite3.IntegrityError):  # foreign keys are enforced
        await store._conn.execute("INSERT INTO deals VALUES (99, 1, '{}', 0, 0)")
    await store.close()


@pytest.mark.postgres
async def test_migrates_an_empty_postgres_database_with_foreign_keys(postgres_url):
    store = await open_store(postgres_url)
    assert isinstance(store, PostgresStore)
    await store.close()
    store = await open_store(postgres_url)  # a second start finds nothing to do
    try:
        assert await store.active_tables() == []
        assert (await fetchone(store, "SELECT version FROM schema_version"))[0] == SCHEMA_VERSION
        rows = await store._all(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()", ()
        )
        assert set(tables_made_by(MIGRATIONS)) <= {row[0] for row in rows}
        with pytest.raises(asyncpg.ForeignKeyViolationError):
            await execute(store, "INSERT INTO deals VALUES (99, 1, '{}', 0, 0)")
    finally:
        await store.close()


def test_both_dialects_have_the_same_migrations():
    assert len(POSTGRES_MIGRATIONS) == len(MIGRATIONS) == SCHEMA_VERSION
    assert tables_made_by(POSTGRES_MIGRATIONS) == tables_made_by(MIGRATIONS)
    for sqlite, postgres in zip(MIGRATIONS, POSTGRES_MIGRATIONS, strict=True):
        assert len(sqlite) == len(postgres)


async def test_refuses_a_database_newer_than_the_code(database):
    store = await open_store(database)
    if isinstance(store, PostgresStore):
        await execute(store, "UPDATE schema_version SET version = ?", SCHEMA_VERSION + 1)
    else:
        await execute(store, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    await store.close()
    with pytest.raises(StoreError, match="newer"):
        await open_store(database)


async def test_refuses_a_database_missing_a_table_it_made(database):
    store = await open_store(database)
    await execute(store, "DROP TABLE user_settings")
    await store.close()
    with pytest.raises(StoreError, match="missing its table user_settings"):
        await open_store(database)


def test_database_path_comes_from_the_environment():
    assert str(database_path({})) == "rummy.db"
    assert str(database_path({"RUMMY_DB_PATH": "/data/r.db"})) == "/data/r.db"
    url = "postgresql://rummy:secret@db/rummy"
    assert database_target({"RUMMY_DB_PATH": "/data/r.db", "RUMMY_DATABASE_URL": url}) == url
    assert str(database_target({"RUMMY_DB_PATH": "/data/r.db", "RUMMY_DATABASE_URL": " "})) == "/data/r.db"
    with pytest.raises(ValueError, match="postgresql://"):
        database_target({"RUMMY_DATABASE_URL": "mysql://db/rummy"})


async def test_one_active_table_per_channel(store):
    table = new_table(store)
    await store.create_table(table, now=0.0)
    with pytest.raises(ChannelBusyError):
        await store.create_table(new_table(store), now=0.0)
    table.status = TableStatus.CANCELLED
    await store.update_table(table, now=1.0)
    await store.create_table(new_table(store), now=2.0)  # the channel is free again
    [active] = await store.active_tables()
    assert active.table.seats == [SeatRecord(100, "Asha"), SeatRecord(None, "Bot", "easy")]
    assert active.match is None


@pytest.mark.parametrize("fmt", [Format.POINTS, Format.DEALS_2, Format.POOL_201])
async def test_every_state_reloads_exactly(database, fmt):
    path = database
    store = await open_store(path)
    _, match, match_id = await started(store, fmt)
    rng = random.Random(3)
    seen_phases = set()
    for step in range(1000):
        await play(store, match, match_id, 1, rng)
        if step % 13 < 2 or match.phase is not MatchPhase.PLAYING:
            seen_phases.add((match.phase, match.deal.phase if match.deal else None))
            await store.close()
            store = await open_store(path)
            loaded = await store.load_match(1)
            assert loaded.seq == len(match.log)
            assert loaded.snapshot == json.loads(json.dumps(match.to_json()))
            assert loaded.clock == {"deadline": 1.0}
        if match.phase is MatchPhase.OVER:
            break
    assert match.phase is MatchPhase.OVER
    assert len(seen_phases) >= (3 if fmt is Format.POINTS else 4)
    assert await store.active_tables() != []  # the table row is the service's to finish
    await store.close()


async def test_a_snapshot_that_disagrees_with_its_log_is_refused(store):
    _, match, match_id = await started(store)
    await play(store, match, match_id, 5, random.Random(1))
    await execute(store, "DELETE FROM match_commands WHERE seq = 3")
    with pytest.raises(CorruptMatchError, match="cannot be resumed"):
        await store.load_match(1)


async def test_a_command_id_is_stored_once(store):
    _, match, match_id = await started(store)
    seq = len(match.log)
    events = match.apply({"command": "pick", "seat": match.deal.turn, "source": "closed"})
    await store.save_command(record(match, match_id, seq, events, command_id="abc"))
    again = record(match, match_id, seq, events, command_id="abc")
    again.seq += 1
    with pytest.raises(DuplicateCommandError):
        await store.save_command(again)
    loaded = await store.load_match(1)
    assert loaded.command_ids == {"abc"} and loaded.seq == 2


async def test_a_write_that_does_not_follow_the_stored_snapshot_is_refused(store):
    _, match, match_id = await started(store)
    seq = len(match.log)
    events = match.apply({"command": "pick", "seat": match.deal.turn, "source": "closed"})
    skipping = record(match, match_id, seq, events)
    skipping.seq += 5
    with pytest.raises(StoreError):
        await store.save_command(skipping)
    assert (await store.load_match(1)).seq == 1


async def test_concurrent_saves_share_commits_and_a_failure_fails_alone(store):
    matches = [await started(store, seed=seed, channel=seed) for seed in range(20)]

    def saves(command_id):
        for _, match, match_id in matches:
            seq = len(match.log)
            events = match.apply(
                {
                    "command": "pick" if seq % 2 else "discard",
                    "seat": match.deal.turn,
                    "source": "closed",
                    "card": match.deal.picked and match.deal.picked.code,
                }
            )
            yield store.save_command(record(match, match_id, seq, events, command_id=command_id))

    before = store.commits
    assert await asyncio.gather(*saves("first")) == [None] * 20
    assert store.commits - before < 10
    bad = record(matches[0][1], matches[0][2], len(matches[0][1].log) - 1, [])
    bad.seq = 99
    results = await asyncio.gather(*saves("second"), store.save_command(bad), return_exceptions=True)
    assert results[:-1] == [None] * 20 and isinstance(results[-1], StoreError)
    for _, _match, match_id in matches:
        log = await store.command_log(match_id)
        assert [row["seq"] for row in log] == [1, 2, 3] and log[-1]["command_id"] == "second"


async def test_standings_stats_and_settings_accumulate(store):
    _, match, match_id = await started(store)
    seq = len(match.log)
    events = match.apply({"command": "drop", "seat": match.deal.turn})
    saved = record(match, match_id, seq, events)
    saved.standings = [StandingRow(0, 100, 20, "in", False), StandingRow(1, None, -20, "in", False)]
    saved.stats = [
        StatsDelta(1, 100, matches_played=1, matches_won=1, chips_won=20, best_pool_finish=3),
        StatsDelta(1, 100, deals_played=1, drops=1, best_pool_finish=None),
        StatsDelta(1, 100, best_pool_finish=2),
        StatsDelta(1, 100, best_pool_finish=5),
    ]
    await store.save_command(saved)
    stats = await store.user_stats(1, 100)
    assert (stats.matches_played, stats.deals_played, stats.drops, stats.chips_won) == (1, 1, 1, 20)
    assert stats.best_pool_finish == 2
    assert (await store.standings(match_id))[1] == StandingRow(1, None, -20, "in", False)
    assert await store.user_stats(1, 555) == StatsDelta(1, 555)
    assert await store.guild_settings(1) == {}
    await store.set_guild_settings(1, {"format": "pool-101"}, now=1.0)
    await store.set_guild_settings(1, {"format": "deals-2"}, now=2.0)
    assert await store.guild_settings(1) == {"format": "deals-2"}
