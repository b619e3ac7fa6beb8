"""Sharded processes below Discord: the settings, a store narrowed to its shards' servers with ids
of its own, the shard leases, and the relay of DM presses, on a real PostgreSQL server. (The
processes themselves, on the Discord double: test_sharding_e2e.py.)"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys

import pytest
from backends import execute
from service_helpers import GUILD, open_and_start, open_service, play_one

from bot.app.config import Settings, SettingsError
from bot.discord.bot import RummyBot, ShardedRummyBot
from bot.service import ManualClock, ServiceSettings, TableService, simple_policy
from bot.service.preferences import Deck, Preferences
from bot.service.refusals import HandedOverError, saving
from bot.store import (
    LeaseLostError,
    SeatRecord,
    Shards,
    ShardTakenError,
    Store,
    StoredLeague,
    TableRecord,
    TableStatus,
    open_store,
)
from bot.store.leases import LOCKING, LeaseClock, LeaseKeeper, ShardLeases, holder_key
from bot.store.relay import InteractionRelay
from bot.store.shards import shard_of

pytest_plugins = ("discord_double.fixtures",)

ZERO, ONE = 10 << 22, 11 << 22  # a server on shard 0 of 2, and one on shard 1
BOTH = Shards(2, (0, 1))


@pytest.fixture
async def store(postgres_url):
    """A store on the test's own PostgreSQL database, closed after the test."""
    opened = await open_store(postgres_url)
    yield opened
    await opened.close()


def settings(**values: str) -> Settings:
    return Settings.load(env_file=None, environ=values)


def test_shard_settings_are_read_and_checked():
    url = "postgresql://bot@db/rummy"
    chosen = settings(RUMMY_DATABASE_URL=url, RUMMY_SHARD_COUNT="4", RUMMY_SHARD_IDS="3, 1")
    assert chosen.shards == Shards(4, (1, 3)) and chosen.lease_seconds == 30
    assert settings().shards is None
    refused = {
        "RUMMY_SHARD_IDS": {"RUMMY_SHARD_COUNT": "2"},
        "RUMMY_SHARD_COUNT must be": {"RUMMY_SHARD_COUNT": "two", "RUMMY_SHARD_IDS": "0"},
        "from 0 to 1": {"RUMMY_SHARD_COUNT": "2", "RUMMY_SHARD_IDS": "0,2"},
        "different shards": {"RUMMY_SHARD_COUNT": "2", "RUMMY_SHARD_IDS": "1,1"},
        "with commas": {"RUMMY_SHARD_COUNT": "2", "RUMMY_SHARD_IDS": "0;1"},
        "RUMMY_SHARD_LEASE_SECONDS": {"RUMMY_SHARD_LEASE_SECONDS": "4"},
    }
    for said, values in refused.items():
        with pytest.raises(SettingsError, match=said):
            settings(RUMMY_DATABASE_URL=url, **values)


def test_sharding_on_the_sqlite_file_is_refused_in_one_line(tmp_path):
    env = {
        **os.environ,
        "DISCORD_TOKEN": "not-a-real-token",
        "RUMMY_SHARD_COUNT": "2",
        "RUMMY_SHARD_IDS": "0",
        "RUMMY_DATABASE_URL": "",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "RUMMY_SHARD_COUNT needs RUMMY_DATABASE_URL" in done.stderr
    assert not (tmp_path / "rummy.db").exists()


def test_each_shard_hands_out_ids_of_its_own_residue_class():
    assert [Shards(2, (1,)).next_id(after) for after in (0, 1, 2, 7)] == [1, 3, 3, 9]
    assert [Shards(3, (0, 2)).next_id(after) for after in (0, 5, 6)] == [3, 6, 9]
    assert shard_of(ZERO, 2) == 0 and shard_of(ONE, 2) == 1


def table(store: Store, guild: int, channel: int) -> TableRecord:
    return TableRecord(
        id=store.new_table_id(),
        guild_id=guild,
        channel_id=channel,
        format="points",
        rules={},
        point_value=1,
        host_id=100,
        max_seats=6,
        seats=[SeatRecord(100, "Asha")],
        status=TableStatus.OPEN,
    )


@pytest.mark.postgres
async def test_a_sharded_store_loads_its_shards_servers_only_and_ids_never_collide(postgres_url):
    zero, one = await open_store(postgres_url), await open_store(postgres_url)
    try:
        zero.serve_shards(Shards(2, (0,)))
        one.serve_shards(Shards(2, (1,)))
        made = []
        for number in range(3):  # both processes make rows at once, from the same largest id
            for store, guild in ((zero, ZERO), (one, ONE)):
                made.append(table(store, guild, 100 + len(made)))
                await store.create_table(made[-1], 1.0)
                league = StoredLeague(store.new_league_id(), guild, f"League {number}", {}, None)
                await store.create_league(league, 1.0)
        assert len({t.id for t in made}) == len(made)
        assert all(t.id % 2 == shard_of(t.guild_id, 2) for t in made)
        for store, guild in ((zero, ZERO), (one, ONE)):
            assert {active.table.guild_id for active in await store.active_tables()} == {guild}
            assert {league.guild_id for league in await store.leagues()} == {guild}
            assert len(await store.active_table_ids()) == 3
        assert len({zero.new_match_id(), one.new_match_id(), zero.new_match_id(), one.new_match_id()}) == 4
    finally:
        await zero.close()
        await one.close()
    everything = await open_store(postgres_url)  # an unsharded process sees every server
    try:
        assert len(await everything.active_tables()) == 6 and len(await everything.leagues()) == 6
    finally:
        await everything.close()


@pytest.mark.postgres
async def test_a_shard_is_refused_while_its_lease_lives_and_taken_once_released_or_expired(store):
    first = store.leases(Shards(2, (0, 1)), "first", 30)
    await first.acquire()
    await first.acquire()  # again by the same holder: renewed, not refused
    second = store.leases(Shards(2, (1,)), "second", 30)
    with pytest.raises(ShardTakenError, match=r"shard 1 of 2 is run by another process \(first, lease for"):
        await second.acquire()
    other_count = store.leases(Shards(3, (2,)), "third", 30)
    with pytest.raises(ShardTakenError, match="another RUMMY_SHARD_COUNT"):
        await other_count.acquire()

    await first.release()  # a clean shutdown
    await second.acquire()
    assert await second.renew() == []

    await execute(store, "UPDATE shard_leases SET expires_at = 0")  # as if its holder was killed
    replacement = store.leases(Shards(2, (1,)), "replacement", 30)
    await replacement.acquire()
    assert await second.renew() == [1]  # the old holder hears it lost the shard
    assert await replacement.renew() == []


@pytest.mark.postgres
async def test_a_holder_that_loses_its_lease_fences_its_store_and_says_so(store):
    store.serve_shards(Shards(2, (1,)))
    leases = store.leases(Shards(2, (1,)), "slow", 5)
    clock = LeaseClock(5)
    clock.renewed(clock.now())
    await leases.acquire()
    lost: list[LeaseLostError] = []

    async def on_lost(error: LeaseLostError) -> None:
        store.fence(error)
        lost.append(error)

    keeper = LeaseKeeper(leases, clock, on_lost)
    keeper.interval = 0.05  # renew often: the takeover below is seen at once
    stop = asyncio.Event()
    running = asyncio.create_task(keeper.run(stop))
    await asyncio.sleep(0.2)
    assert not lost and not running.done()  # renewals go through while nobody else holds it
    await execute(store, "UPDATE shard_leases SET expires_at = 0")
    await store.leases(Shards(2, (1,)), "newcomer", 30).acquire()
    await asyncio.wait_for(running, 5)
    assert "another process holds shard 1 now" in str(lost[0])
    assert store.lost is lost[0]
    with pytest.raises(HandedOverError), saving():
        await store.create_table(table(store, ONE, 7), 1.0)
    assert await store.active_tables() == []  # nothing was written


@pytest.mark.postgres
async def test_a_holder_whose_lease_ran_out_saves_nothing_even_before_its_keeper_notices(store):
    """The keeper fences by this process's clock, but a stalled event loop (a long collection, a
    paused container) can let the lease run out and another process take the shard before the
    keeper runs again: the database itself refuses the stalled holder's writes then."""
    store.serve_shards(Shards(2, (1,)))
    stalled = store.leases(Shards(2, (1,)), "stalled", 30)
    await stalled.acquire()
    await store.create_table(table(store, ONE, 7), 1.0)  # saved while it holds the lease
    await execute(store, "UPDATE shard_leases SET expires_at = 0")  # its loop stalled past it
    with pytest.raises(HandedOverError), saving():  # refused as soon as the lease ran out
        await store.create_table(table(store, ONE, 8), 1.0)
    assert isinstance(store.lost, LeaseLostError)  # and nothing is saved from then on
    # Nor is the lease renewed when its keeper wakes up: it hears it lost the shard and the
    # bot stops, rather than keeping a shard it refuses every move of.
    assert await stalled.renew() == [1]
    await store.leases(Shards(2, (1,)), "newcomer", 30).acquire()
    assert [active.table.channel_id for active in await store.active_tables()] == [7]


@pytest.mark.postgres
async def test_a_holder_whose_database_session_ended_is_taken_over_at_once_a_frozen_one_is_not(store):
    """A crash ends the holder's database session, and with it the lock that says it lives: its
    restart need not wait for its lease to run out. A holder merely frozen keeps its session, and
    one of an earlier version (no lock in its name) may keep no lock at all: both are waited for."""
    crashed = store.leases(Shards(2, (1,)), f"crashed {LOCKING}", 30)
    frozen = store.leases(Shards(2, (0,)), f"frozen {LOCKING}", 30)
    await crashed.acquire()
    await frozen.acquire()
    await crashed.close()  # as a killed process's connections are: its rows stay, live
    await store.leases(Shards(2, (1,)), f"restarted {LOCKING}", 30).acquire()
    assert await crashed.renew() == [1]
    with pytest.raises(ShardTakenError, match=r"shard 0 of 2 is run by another process \(frozen"):
        await store.leases(Shards(2, (0,)), f"second {LOCKING}", 30).acquire()

    await frozen.release()
    earlier = store.leases(Shards(2, (0,)), "earlier version", 30)
    await earlier.acquire()
    await earlier.close()
    with pytest.raises(ShardTakenError, match=r"shard 0 of 2 is run by another process \(earlier"):
        await store.leases(Shards(2, (0,)), f"second {LOCKING}", 30).acquire()


@pytest.mark.postgres
async def test_a_holder_whose_database_session_ends_while_it_runs_stops(store):
    """Another process could take its shards at once from then on (a database restart ends it)."""
    leases = store.leases(Shards(1, (0,)), f"cut {LOCKING}", 30)
    await leases.acquire()
    lost: list[LeaseLostError] = []

    async def on_lost(error: LeaseLostError) -> None:
        lost.append(error)

    clock = LeaseClock(30)
    clock.renewed(clock.now())
    keeper = LeaseKeeper(leases, clock, on_lost)
    keeper.interval = 0.05
    running = asyncio.create_task(keeper.run(asyncio.Event()))
    await execute(
        store, "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted"
    )
    await asyncio.wait_for(running, 10)
    assert "its database session ended" in str(lost[0])


@pytest.mark.postgres
async def test_a_holder_whose_lock_is_gone_though_its_session_looks_open_stops(store):
    """A connection dropped silently (an idle timeout on the way) looks open to the holder while
    the server has freed its lock: each renewal asks the session whether it still holds it."""
    leases = store.leases(Shards(1, (0,)), f"dropped {LOCKING}", 30)
    await leases.acquire()
    assert await leases.lock_held(5.0)
    lost: list[LeaseLostError] = []

    async def on_lost(error: LeaseLostError) -> None:
        lost.append(error)

    clock = LeaseClock(30)
    clock.renewed(clock.now())
    keeper = LeaseKeeper(leases, clock, on_lost)
    keeper.interval = 0.05
    session = leases._session
    assert session is not None
    # the lock freed while the connection stays open, as the server does for a dropped one
    assert await session.fetchval("SELECT pg_advisory_unlock($1)", holder_key(leases.holder))
    running = asyncio.create_task(keeper.run(asyncio.Event()))
    await asyncio.wait_for(running, 10)
    assert "its database session ended" in str(lost[0])
    assert not leases.in_session()  # the press fences see it too


@pytest.mark.postgres
async def test_a_servers_idle_session_timeout_does_not_end_the_lock_session(postgres_url, store):
    """The lock session sends nothing between renewals: a server's idle timeout (PostgreSQL 14
    and later) would end it and stop a healthy process."""
    leases = store.leases(Shards(1, (0,)), f"idle {LOCKING}", 30)
    leases.url = f"{postgres_url}&idle_session_timeout=100"  # as a server set up so would
    await leases.acquire()
    session = leases._session
    assert session is not None and session.get_server_version().major >= 14
    assert await session.fetchval("SHOW idle_session_timeout") == "0"
    await leases.release()


@pytest.mark.postgres
async def test_a_relayed_press_waits_for_the_holder_of_its_shard(postgres_url, store):
    """A process that woke up after its lease was taken over takes no press meant for the new
    holder, which takes it."""
    sender = InteractionRelay(postgres_url, store._pool, Shards(2, (0,)), "zero")
    stale = InteractionRelay(postgres_url, store._pool, Shards(2, (1,)), "stale")
    live = InteractionRelay(postgres_url, store._pool, Shards(2, (1,)), "live")
    await store.leases(Shards(2, (1,)), "stale", 30).acquire()
    await execute(store, "UPDATE shard_leases SET expires_at = 0")
    await store.leases(Shards(2, (1,)), "live", 30).acquire()
    stop = asyncio.Event()
    stale_got: list[dict] = []
    live_got: list[dict] = []
    listening = asyncio.create_task(stale.run(stop, stale_got.append))
    await sender.forward(1, {"id": "press"})  # the stale one is told first
    answering = asyncio.create_task(live.run(stop, live_got.append))
    for _ in range(200):
        if live_got or stale_got:
            break
        await asyncio.sleep(0.02)
    stop.set()
    await asyncio.gather(listening, answering)
    assert (stale_got, live_got) == ([], [{"id": "press"}])


class Unreachable(ShardLeases):
    async def renew(self) -> list[int]:
        raise OSError("the database cannot be reached")


@pytest.mark.postgres
async def test_a_holder_that_cannot_renew_stops_before_its_lease_could_expire(postgres_url, store):
    leases = Unreachable(postgres_url, store._pool, Shards(1, (0,)), "cut off", 5)
    await leases.acquire()
    lost: list[LeaseLostError] = []

    async def on_lost(error: LeaseLostError) -> None:
        lost.append(error)

    clock = LeaseClock(5)
    clock.renewed(clock.now())
    keeper = LeaseKeeper(leases, clock, on_lost)
    keeper.interval = 0.1  # tries often: it gives up after half the lease, not by the clock
    await asyncio.wait_for(keeper.run(asyncio.Event()), 10)
    assert "could not be renewed" in str(lost[0])  # by half the lease: before its clock ran out


@pytest.mark.postgres
async def test_the_relay_hands_a_press_to_its_shards_process_while_it_can_still_be_answered(
    postgres_url, store
):
    sender = InteractionRelay(postgres_url, store._pool, Shards(2, (0,)), "zero")
    receiver = InteractionRelay(postgres_url, store._pool, Shards(2, (1,)), "one")
    await store.leases(Shards(2, (1,)), "one", 30).acquire()
    got: list[dict] = []
    stop = asyncio.Event()
    await sender.forward(1, {"id": "old"})
    await execute(store, "UPDATE forwarded_interactions SET at = at - 10")  # past Discord's 3 s
    running = asyncio.create_task(receiver.run(stop, got.append))
    await sender.forward(0, {"id": "for shard 0"})
    await sender.forward(1, {"id": "fresh", "data": {"custom_id": "rummy:hand:3:1.2:closed"}})
    for _ in range(100):
        if got:
            break
        await asyncio.sleep(0.02)
    stop.set()
    await running
    assert got == [{"id": "fresh", "data": {"custom_id": "rummy:hand:3:1.2:closed"}}]


async def test_a_sharded_process_reads_a_players_settings_again_after_a_while(tmp_path):
    """A player changes their deck in whichever process runs the server they are in; the other
    processes hold a copy, which they read again after `users_for` seconds."""
    store = await open_store(tmp_path / "rummy.db")
    try:
        clock = ManualClock()
        here = Preferences(store, clock, users_for=30)
        elsewhere = Preferences(store, clock, users_for=30)
        alone = Preferences(store, clock)  # one process: nobody else changes them
        for preferences in (here, elsewhere, alone):
            assert (await preferences.user(5)).deck is Deck.TWO_COLOUR
        await here.set_deck(5, "four-colour")
        clock.advance(29)
        assert (await elsewhere.user(5)).deck is Deck.TWO_COLOUR
        clock.advance(1)
        assert (await elsewhere.user(5)).deck is Deck.FOUR_COLOUR
        assert (await alone.user(5)).deck is Deck.TWO_COLOUR
    finally:
        await store.close()


@pytest.mark.postgres
async def test_a_sharded_bot_whose_lease_is_taken_saves_nothing_more_and_shuts_down(
    postgres_url, discord_double, bot_runner
):
    def service(store: Store, on_events) -> TableService:
        settings = ServiceSettings(computer_delay_seconds=0.0)
        return TableService(store, policy=simple_policy, settings=settings, on_events=on_events)

    bot = ShardedRummyBot(
        postgres_url, shards=Shards(1, (0,)), lease_seconds=5, service_factory=service, edit_delay=0
    )
    await bot_runner.start(bot)
    assert bot.shard_count == 1 and bot.shard_ids == [0]
    alice = discord_double.user("alice")
    opened = await discord_double.slash_command(alice, "rummy new", options={"format": "points"})
    await discord_double.wait_for(lambda: discord_double.original_response(opened).custom_ids())

    thief = await open_store(postgres_url)
    try:
        await execute(thief, "UPDATE shard_leases SET expires_at = 0")  # as if it had stalled
        await thief.leases(Shards(1, (0,)), "thief", 30).acquire()
        for _ in range(100):
            if bot.is_closed() and bot.store.lost is not None:
                break
            await asyncio.sleep(0.05)
        assert bot.is_closed() and bot.failure is bot.store.lost
        assert "lost shard 0 of 1: another process holds shard 0 now" in str(bot.failure)
        assert len(await thief.active_tables()) == 1  # its table is kept for the thief to run
    finally:
        await thief.close()


@pytest.mark.postgres
async def test_a_sharded_process_prunes_its_shards_finished_matches_only(postgres_url):
    clock = ManualClock()
    store, service = await open_service(postgres_url, clock=clock)
    try:
        rng = random.Random(5)
        assert shard_of(GUILD, 2) == 0
        table = await open_and_start(service, 1, players=2, fmt="points")
        while service.table_in(1) is not None:
            await play_one(service, table, rng)
    finally:
        await store.close()
    later = clock.now() + 1
    for shard, pruned in ((1, 0), (0, 1)):
        sharded = await open_store(postgres_url)
        try:
            sharded.serve_shards(Shards(2, (shard,)))
            assert (await sharded.prune(later, later)).matches == pruned
        finally:
            await sharded.close()


@pytest.mark.postgres
async def test_a_bot_not_sharded_on_postgresql_holds_every_server_and_is_refused_beside_a_sharded_one(
    postgres_url, store, discord_double, bot_runner
):
    """Without RUMMY_SHARD_COUNT a bot runs every server's tables: beside a live sharded process
    (or another such bot) it would run the same tables and hand out the same ids."""
    sharded = store.leases(Shards(2, (0, 1)), "sharded", 30)
    await sharded.acquire()
    with pytest.raises(ShardTakenError, match="another RUMMY_SHARD_COUNT than 1"):
        await bot_runner.start(RummyBot(postgres_url, edit_delay=0))
    await sharded.release()

    alone = await bot_runner.start(RummyBot(postgres_url, edit_delay=0))
    with pytest.raises(ShardTakenError, match=r"shard 0 of 1 is run by another process"):
        await store.leases(Shards(1, (0,)), "second", 30).acquire()
    await alone.close()
    await store.leases(Shards(1, (0,)), "next", 30).acquire()  # released at a clean stop
