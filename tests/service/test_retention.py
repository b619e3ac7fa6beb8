"""Retention: finished matches' logs, snapshots and deals are deleted after the days kept; what
they left behind (standings, statistics, the match and table rows) stays, and an open match or
one a league night has still to read is never touched."""

import asyncio
import random

from backends import fetchone
from service_helpers import GUILD, open_and_start, open_service, play_one, user

from bot.service import ManualClock, Retention, RetentionSettings
from bot.service.retention import DAY


async def play_out(service, channel, rng, players=2, fmt="deals-2"):
    """Plays a match at `channel` to its end; its table."""
    table = await open_and_start(service, channel, players=players, fmt=fmt)
    while service.table_in(channel) is not None:
        await play_one(service, table, rng)
    return table


async def count(store, sql, *params) -> int:
    return int((await fetchone(store, sql, *params))[0])


async def kept(store, match_id) -> tuple[int, int]:
    """The match's stored commands and finished deals."""
    commands = await count(store, "SELECT count(*) FROM match_commands WHERE match_id = ?", match_id)
    deals = await count(store, "SELECT count(*) FROM deals WHERE match_id = ?", match_id)
    return commands, deals


async def test_old_finished_matches_lose_their_logs_and_keep_standings_and_statistics(database):
    clock = ManualClock()
    store, service = await open_service(database, clock=clock)
    rng = random.Random(5)
    old = await play_out(service, 1, rng)
    open_table = await open_and_start(service, 3, players=2)  # open, its last move as old
    for _ in range(5):
        await play_one(service, open_table, rng)
    clock.advance(50 * DAY)
    recent = await play_out(service, 2, rng)
    clock.advance(45 * DAY)  # the old match ended 95 days ago, the recent one 45

    standings = {m: await store.standings(m) for m in (old.match_id, recent.match_id)}
    stats = {(c, s): await store.user_stats(GUILD, user(c, s)) for c in (1, 2, 3) for s in range(2)}
    recent_log = await store.command_log(recent.match_id)
    before = await kept(store, old.match_id)
    assert before[0] > 0 and before[1] > 0

    retention = Retention(store, clock, RetentionSettings(keep_days=90))
    pruned = await retention.prune()
    assert (pruned.matches, pruned.commands) == (1, before[0])
    assert await kept(store, old.match_id) == (0, 0)
    assert await store.pruned_at(old.match_id) == clock.now()
    assert await store.pruned_at(recent.match_id) is None
    assert await store.command_log(recent.match_id) == recent_log
    assert await kept(store, open_table.match_id) == (6, 0)  # its first command and five more
    for match_id, rows in standings.items():
        assert await store.standings(match_id) == rows
    for (channel, seat), row in stats.items():
        assert await store.user_stats(GUILD, user(channel, seat)) == row
    assert (await store.table(old.id)).status == "finished"
    assert (await retention.prune()).matches == 0  # nothing more is due

    await play_one(service, open_table, rng)  # the open table plays on, and resumes after a restart
    await store.close()
    store, service = await open_service(database, clock=clock)
    resumed = service.table_in(3)
    assert resumed is not None and resumed.match_id == open_table.match_id
    await play_one(service, resumed, rng)
    await store.close()


async def test_a_match_a_league_night_has_still_to_read_is_kept(database):
    clock = ManualClock()
    store, service = await open_service(database, clock=clock)
    rng = random.Random(6)
    waiting = await play_out(service, 1, rng)
    other = await play_out(service, 2, rng)
    clock.advance(100 * DAY)
    retention = Retention(store, clock, RetentionSettings(keep_days=90), keep_tables=lambda: {waiting.id})
    assert (await retention.prune()).matches == 1
    assert (await kept(store, waiting.match_id))[0] > 0
    assert await kept(store, other.match_id) == (0, 0)
    assert (await store.load_match(waiting.id)) is not None  # what the league reads to score it
    await store.close()


async def test_a_big_prune_is_many_short_transactions(tmp_path):
    clock = ManualClock()
    store, service = await open_service(tmp_path / "r.db", clock=clock)
    rng = random.Random(7)
    tables = [await play_out(service, channel, rng) for channel in range(1, 5)]
    clock.advance(91 * DAY)
    commits = store.commits
    pruned = await store.prune(clock.now() - 90 * DAY, clock.now(), batch_rows=1)
    assert pruned.matches == 4 and store.commits - commits == 4  # one match a transaction
    assert [await kept(store, table.match_id) for table in tables] == [(0, 0)] * 4
    await store.close()


async def test_a_table_set_aside_as_damaged_is_kept_as_it_is(tmp_path):
    clock = ManualClock()
    store, service = await open_service(tmp_path / "r.db", clock=clock)
    table = await play_out(service, 1, random.Random(8))
    await store.mark_damaged(table.id, "looked at by hand", clock.now())
    clock.advance(100 * DAY)
    assert (await Retention(store, clock).prune()).matches == 0
    assert (await kept(store, table.match_id))[0] > 0
    await store.close()


async def test_the_sqlite_file_stops_growing_under_endless_play(tmp_path):
    """Eight short matches a day, pruned daily with two days kept. Unpruned, each day's moves
    add pages; pruned, the pages freed by the oldest day's logs take the newest day's, and the
    file grows only by what is kept for good (each table's row with its rules, the match's row
    and standings: about 1.2 KB a match). Measured: ~32 pages a day before the first prune,
    ~2 a day after (4 KB pages). No VACUUM: SQLite reuses the freed pages."""
    clock = ManualClock()
    store, service = await open_service(tmp_path / "r.db", clock=clock)
    retention = Retention(store, clock, RetentionSettings(keep_days=2))
    rng = random.Random(9)
    pages, commands = [], []
    for _ in range(30):
        for channel in range(1, 9):
            await play_out(service, channel, rng, fmt="points")
        clock.advance(DAY)
        await retention.prune()
        pages.append(await count(store, "PRAGMA page_count"))
        commands.append(await count(store, "SELECT count(*) FROM match_commands"))
    print("pages after each day:", pages)
    await store.close()
    unpruned_daily = (pages[2] - pages[0]) / 2  # the first two days: nothing is old enough yet
    settled_daily = (pages[-1] - pages[9]) / (len(pages) - 10)
    assert settled_daily < unpruned_daily / 8
    assert max(commands[9:]) <= 1.5 * max(commands[:9])  # the logs kept stay about three days'


async def test_retention_runs_at_start_up_and_again_when_due_on_the_services_clock(tmp_path):
    clock = ManualClock()
    store, service = await open_service(tmp_path / "r.db", clock=clock)
    await play_out(service, 1, random.Random(10))
    passes = []
    real_prune = store.prune

    async def prune(*args, **kwargs):
        passes.append(clock.now())
        return await real_prune(*args, **kwargs)

    store.prune = prune
    settings = RetentionSettings(keep_days=1, every_seconds=3600, poll_seconds=0.01)
    retention, stop = Retention(store, clock, settings), asyncio.Event()
    runner = asyncio.create_task(retention.run(stop))
    await asyncio.sleep(0.05)
    assert passes == [clock.now()]  # at once, and not again before it is due
    clock.advance(2 * DAY)
    while len(passes) < 2:
        await asyncio.sleep(0.01)
    assert await store.pruned_at(1) == clock.now()
    stop.set()
    await runner
    await store.close()
