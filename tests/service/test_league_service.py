"""League nights run by the league service on the table service, stored in SQLite, on a manual
clock: sign-up, reminders, seating, check-in, no-shows, games to the end, points, restarts."""

import asyncio
import json
import sqlite3
from datetime import datetime, timedelta

import pytest
from league_helpers import (
    ADMIN,
    FIRST,
    GUILD,
    LEAGUE_CHANNEL,
    MEMBERS,
    MONDAY,
    Bots,
    clock_at,
    create,
    join_all,
    kinds,
    league_events,
    move_to,
    play_moves,
)

from bot.leagues import LeagueError, NightStatus
from bot.present.scene_builders import league_standings_scene as standings_scene
from bot.service import LeagueEventKind as K
from bot.service import ServiceError
from bot.service.league_events import CheckInTable
from bot.store import SeatRecord
from bot.store.league_rows import UPDATE_LEAGUE
from render.standings import render_standings

NO_SHOW = 15


@pytest.fixture
async def bots(tmp_path):
    bots = Bots(tmp_path / "league.db")
    yield bots
    await bots.close()


async def stored_state(bot) -> str:
    return json.dumps([s.state for s in await bot.store.leagues()], sort_keys=True)


async def test_a_whole_night_from_creation_to_standings(bots, tmp_path):
    clock = clock_at(MONDAY)
    bot = await bots.start(clock)
    events = await create(bot)
    assert kinds(events) == ["league_created", "season_started", "night_open"]
    record = bot.leagues.find(GUILD, "friday POOL")
    assert events[-1].night == 1 and events[-1].starts_at == FIRST
    await bot.leagues.night_published(record.id, 1, 777, 888)
    await join_all(bot)
    night = record.league.next_night
    assert night.signups == list(MEMBERS) and night.event_id == 777 and record.announcement == {1: 888}

    every: list = []
    for instant in (FIRST - timedelta(hours=24), FIRST - timedelta(minutes=15)):
        move_to(clock, instant)
        every += await bot.leagues.tick()
        every += await bot.leagues.tick()  # a second tick sends nothing again
    assert [e.key for e in every] == ["24h", "15m"]
    assert every[0].signups == tuple(MEMBERS)
    assert bot.leagues.next_wake() == FIRST.timestamp()

    move_to(clock, FIRST)
    (check_in,) = await bot.leagues.tick()
    assert check_in.kind == K.CHECK_IN
    tables = check_in.tables
    # Balanced: two tables of three, snake-seeded (everyone on 0 points: by user id).
    assert [t.seats for t in tables] == [(11, 14, 15), (12, 13, 16)]
    assert [t.channel_id for t in tables] == [5001, 5002]
    with pytest.raises(LeagueError, match="ask an admin"):
        await bot.leagues.leave(GUILD, None, 11)

    started = []
    for channel, user in ((5001, 11), (5001, 14), (5002, 12), (5002, 13), (5002, 16)):
        started += await bot.leagues.check_in(channel, user)
    assert [e.number for e in league_events(started, K.TABLE_STARTED)] == [2]
    assert bot.leagues.next_wake() == (FIRST + timedelta(minutes=10)).timestamp()

    move_to(clock, FIRST + timedelta(minutes=10))
    late = await bot.leagues.tick()
    (table_started,) = league_events(late, K.TABLE_STARTED)
    assert table_started.present == (11, 14) and table_started.no_shows == (NO_SHOW,)

    played = await play_moves(bot)
    assert sorted(e.number for e in league_events(played, K.TABLE_SETTLED)) == [1, 2]
    assert len(league_events(played, K.NIGHT_FINISHED)) == 1
    night = record.league.season.nights[0]
    assert night.status is NightStatus.FINISHED
    points = night.points()
    assert sorted(points.values()) == [0, 4, 6, 6, 10, 10] and points[NO_SHOW] == 0
    standings = record.league.season.standings()
    assert [line.no_shows for line in standings if line.user_id == NO_SHOW] == [1]
    png = render_standings(standings_scene(record.league.season, record.names))
    (tmp_path / "standings.png").write_bytes(png)
    assert png.startswith(b"\x89PNG")
    (opened,) = league_events(played, K.NIGHT_OPEN)
    assert opened.night == 2 and opened.starts_at == FIRST + timedelta(days=7)


# --------------------------------------------------------------------- restarts and downtime


async def night_at_start(bots, clock, members=MEMBERS, **overrides):
    """A league with `members` signed up, its clock at the night's start (nothing done yet)."""
    bot = await bots.start(clock)
    await create(bot, **overrides)
    await join_all(bot, members)
    move_to(clock, FIRST)
    return bot


async def seated_night(bots, clock, members=MEMBERS, **overrides):
    """A league with `members` signed up, at its start: tables seated, threads open."""
    bot = await night_at_start(bots, clock, members, **overrides)
    await bot.leagues.tick()
    return bot


async def night_result(path, *, restarts: bool) -> tuple[list, list]:
    """Night 1 played to the end, restarting the bot (when `restarts`) during check-in and twice
    during play; returns every table's placings and the standings."""
    bots, clock = Bots(path), clock_at(MONDAY)
    try:
        bot = await seated_night(bots, clock)

        async def restart(bot):
            if not restarts:
                return bot
            await bots.stop(bot)
            return await bots.start(clock, bot.threads)

        await bot.leagues.check_in(5001, 11)
        bot = await restart(bot)
        for channel, user in ((5001, 14), (5002, 12), (5002, 13), (5002, 16)):
            await bot.leagues.check_in(channel, user)
        move_to(clock, FIRST + timedelta(minutes=10))
        await bot.leagues.tick()
        await play_moves(bot, 40)
        bot = await restart(bot)
        assert len([t for t in bot.tables.tables() if t.record.league_id]) == 2
        await play_moves(bot, 40)
        bot = await restart(bot)
        await play_moves(bot)
        league = bot.leagues.find(GUILD, None).league
        night = league.season.nights[0]
        assert night.status is NightStatus.FINISHED and league.next_night.number == 2
        assert len(bot.threads.opened) == 2  # no thread opened twice
        return [t.to_json() for t in night.tables], league.season.standings()
    finally:
        await bots.close()


async def test_a_restart_in_the_middle_of_a_night_resumes_it_with_the_same_result(tmp_path):
    straight = await night_result(tmp_path / "straight.db", restarts=False)
    restarted = await night_result(tmp_path / "restarted.db", restarts=True)
    assert restarted == straight
    placings = [p for table in straight[0] for p in table["placings"]]
    assert len(placings) == len(MEMBERS) and sum(p["no_show"] for p in placings) == 1


async def test_missed_reminders_are_skipped_after_downtime_and_never_sent_late(bots):
    clock = clock_at(MONDAY)
    bot = await bots.start(clock)
    await create(bot)
    await bot.leagues.night_published(bot.leagues.find(GUILD, None).id, 1, 777, 888)
    await bots.stop(bot)
    move_to(clock, FIRST - timedelta(minutes=10))  # down through both reminders
    bot = await bots.start(clock)
    assert bot.loaded == [] and await bot.leagues.tick() == []
    assert bot.leagues.find(GUILD, None).league.next_night.reminders_sent == ["24h", "15m"]
    assert bot.leagues.next_wake() == FIRST.timestamp()


async def back_after_downtime(bots, back: timedelta):
    """A league with three members signed up; the bot goes down before the night and is back
    `back` after its start."""
    clock = clock_at(MONDAY)
    bot = await bots.start(clock)
    await create(bot)
    await join_all(bot, MEMBERS[:3])
    await bots.stop(bot)
    move_to(clock, FIRST + back)
    return await bots.start(clock)


async def test_a_night_whose_start_passed_within_the_grace_starts_at_once(bots):
    bot = await back_after_downtime(bots, timedelta(minutes=20))
    assert kinds(bot.loaded) == ["check_in"]
    assert bot.loaded[0].tables[0].seats == (11, 12, 13)


async def test_a_night_whose_start_passed_beyond_the_grace_is_missed_and_the_next_opens(bots):
    bot = await back_after_downtime(bots, timedelta(hours=3))
    assert kinds(bot.loaded) == ["night_changed", "night_open"]
    missed, opened = bot.loaded
    assert (missed.night, missed.status) == (1, NightStatus.MISSED) and "offline" in missed.reason
    assert opened.night == 2 and bot.threads.opened == []
    stored = (await bot.store.leagues())[0]
    assert stored.next_wake == (FIRST + timedelta(days=6)).timestamp()  # night 2's 24 h reminder


async def test_a_table_whose_match_finished_while_the_bot_was_down_is_settled_on_load(bots):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:4], seats_per_table=2)
    for channel, user in ((5001, 11), (5001, 14), (5002, 12), (5002, 13)):
        await bot.leagues.check_in(channel, user)
    await play_moves(bot, forward=False)  # the bot went down before the league heard of the ends
    assert bot.leagues.find(GUILD, None).league.running_night is not None
    await bots.stop(bot)
    bot = await bots.start(clock)
    assert kinds(bot.loaded) == ["table_settled", "table_settled", "night_finished", "night_open"]
    assert sorted(bot.loaded[2].points.values()) == [6, 6, 10, 10]


# --------------------------------------------------------------------- rounds, walkovers, failures


async def test_two_rounds_with_a_walkover_reseat_the_members_who_came(bots):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:4], seats_per_table=2, rounds_per_night=2)
    for channel, user in ((5001, 11), (5001, 14), (5002, 12)):  # 13 never comes
        await bot.leagues.check_in(channel, user)
    move_to(clock, FIRST + timedelta(minutes=10))
    walkover = await bot.leagues.tick()
    assert kinds(walkover) == ["table_settled"]
    assert [(p.user_id, p.won, p.no_show) for p in walkover[0].placings] == [
        (12, True, False),
        (13, False, True),
    ]
    assert bot.tables.table_in(5002) is None  # no game for a table of one
    events = await play_moves(bot)
    (round_two,) = league_events(events, K.CHECK_IN)
    assert round_two.round == 2
    assert sorted(round_two.tables[0].seats) == [11, 12, 14]  # the no-show is not reseated
    for user in (11, 12, 14):
        await bot.leagues.check_in(5003, user)
    events = await play_moves(bot)
    assert kinds(league_events(events, K.NIGHT_FINISHED)) == ["night_finished"]
    assert bot.leagues.find(GUILD, None).league.season.standings()[-1].user_id == 13


async def test_a_table_nobody_checks_in_to_gives_nobody_a_walkover(bots):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:2])
    move_to(clock, FIRST + timedelta(minutes=10))
    events = await bot.leagues.tick()
    assert kinds(events) == ["table_settled", "night_finished", "night_open"]
    assert [(p.won, p.no_show) for p in events[0].placings] == [(False, True), (False, True)]


async def test_threads_that_discord_refuses_are_opened_at_the_next_pass(bots):
    clock = clock_at(MONDAY)
    bot = await night_at_start(bots, clock)
    bot.threads.refuse = {2}
    (first,) = await bot.leagues.tick()  # table 1's thread is announced though table 2's failed
    assert [t.number for t in first.tables] == [1]
    assert bot.leagues.find(GUILD, None).league.running_night.tables[1].thread_id is None
    bot.threads.refuse = set()
    (second,) = await bot.leagues.tick()
    assert [(t.number, t.channel_id) for t in second.tables] == [(2, 5002)]
    assert await bot.leagues.tick() == []


async def test_a_league_save_lost_after_its_table_started_takes_the_table_over(bots, monkeypatch):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:2])
    await bot.leagues.check_in(5001, 11)
    save = bot.store.save_league
    calls = []

    async def second_save_fails(stored, now):
        calls.append(stored.id)
        if len(calls) == 2:  # the first saves the check-in; the second, the table started
            raise OSError("disk full")
        await save(stored, now)

    monkeypatch.setattr(bot.store, "save_league", second_save_fails)
    events = await bot.leagues.check_in(5001, 12)
    assert kinds(events) == ["checked_in"]  # accepted; the start is left for the next pass
    playing = bot.tables.table_in(5001)
    assert playing is not None and playing.match is not None
    assert bot.leagues.by_table_channel(5001)[2].table_id is None
    events = await bot.leagues.tick()
    assert kinds(events) == ["table_started"] and events[0].table_id == playing.id
    assert len(await bot.store.channel_tables(5001)) == 1


async def test_a_table_opened_but_not_started_before_a_crash_is_started_on_load(bots, monkeypatch):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:2])

    async def crash(*args, **kwargs):
        raise OSError("killed")

    monkeypatch.setattr(bot.tables, "start", crash)
    await bot.leagues.check_in(5001, 11)
    assert kinds(await bot.leagues.check_in(5001, 12)) == ["checked_in"]
    assert bot.tables.table_in(5001).match is None  # opened, seated, not started
    await bots.stop(bot)
    bot = await bots.start(clock)
    assert kinds(bot.loaded)[:3] == ["table_started", "match_started", "deal_started"]
    assert bot.tables.table_in(5001).match is not None
    assert len(await bot.store.channel_tables(5001)) == 1


async def test_an_admin_cancelling_a_league_table_settles_it_without_placings(bots):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:2])
    for user in (11, 12):
        await bot.leagues.check_in(5001, user)
    with pytest.raises(ServiceError, match="league table"):
        await bot.tables.cancel(5001, 11)
    cancelled = await bot.tables.cancel(5001, ADMIN, can_manage=True)
    events = await bot.leagues.table_events(cancelled)
    assert kinds(events) == ["table_settled", "night_finished", "night_open"]
    assert [(p.position, p.points) for p in events[0].placings] == [(None, 0), (None, 0)]


async def test_a_damaged_league_table_cancelled_by_an_admin_settles_and_the_league_goes_on(bots, tmp_path):
    """A league table whose row cannot be read back is set aside; cancelling it with `/rummy
    cancel`, as its channel is told, settles it without placings like any cancelled league table,
    rather than leave every later step of the league failing on the unreadable row."""
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:2])
    for user in (11, 12):
        await bot.leagues.check_in(5001, user)
    table_id = bot.tables.table_in(5001).id
    await bots.stop(bot)
    conn = sqlite3.connect(tmp_path / "league.db")
    with conn:
        conn.execute("UPDATE tables SET seats = 'not json' WHERE id = ?", (table_id,))
    conn.close()

    bot = await bots.start(clock)
    assert bot.tables.table_in(5001).damage is not None
    cancelled = await bot.tables.cancel(5001, ADMIN, can_manage=True)
    events = await bot.leagues.table_events(cancelled)
    assert kinds(events) == ["table_settled", "night_finished", "night_open"]
    assert [(p.position, p.points) for p in events[0].placings] == [(None, 0), (None, 0)]


# --------------------------------------------------------------------- refusals and admin tools


async def test_bad_input_is_refused_with_a_reason_and_changes_nothing(bots):
    clock = clock_at(MONDAY)
    bot = await bots.start(clock)
    leagues = bot.leagues
    with pytest.raises(LeagueError, match="No league here yet"):
        leagues.find(GUILD, None)
    await create(bot)
    record = leagues.find(GUILD, None)
    await leagues.join(GUILD, None, 11, "Asha")
    before, memory = await stored_state(bot), record.to_json()
    refusals = [
        (lambda: create(bot, name="  friday   POOL "), "already has a league called Friday Pool"),
        (lambda: create(bot, name="Other", format="points"), "Leagues play Pool"),
        (lambda: create(bot, name="Other", timezone="Mars/Olympus"), "know the time zone"),
        (
            lambda: leagues.join(GUILD, "Monday Pool", 12, "B"),
            "no league called 'Monday Pool'. Its leagues: Friday Pool",
        ),
        (lambda: leagues.join(GUILD, None, 11, "Asha"), "already signed up"),
        (lambda: leagues.leave(GUILD, None, 12), "not signed up"),
        (lambda: leagues.join_by_id(99, 1, 12, "B"), "no longer exists"),
        (lambda: leagues.join_by_id(record.id, 2, 12, "B"), "Night 2 is no longer open"),
        (lambda: leagues.postpone(GUILD, None, "next friday", "rain"), "YYYY-MM-DD HH:MM in Europe/London"),
        (lambda: leagues.postpone(GUILD, None, "2026-02-30 20:00", "rain"), "YYYY-MM-DD HH:MM"),
        (lambda: leagues.postpone(GUILD, None, "2026-03-01 20:00", "rain"), "time still to come"),
        (lambda: leagues.adjust(GUILD, None, 11, 1, 5, "bonus", ADMIN), "no result to adjust"),
        (lambda: leagues.adjust(GUILD, None, 11, 7, 5, "bonus", ADMIN), "no night 7"),
        (lambda: leagues.start_season(GUILD, None), "still running"),
        (lambda: leagues.check_in(4242, 11), "not a league table"),
        (lambda: leagues.night_published(99, 1, 1, 1), "no longer exists"),
    ]
    for call, reason in refusals:
        with pytest.raises(LeagueError, match=reason):
            await call()
    assert await stored_state(bot) == before and record.to_json() == memory

    await create(bot, name="Monday Pool", schedule="every Monday 19:00")
    with pytest.raises(LeagueError, match=r"2 leagues \(Friday Pool, Monday Pool\); say which"):
        leagues.find(GUILD, None)
    assert leagues.find(GUILD, "monday pool").league.name == "Monday Pool"

    await leagues.join(GUILD, "Friday Pool", 12, "B")
    move_to(clock, FIRST)
    with pytest.raises(LeagueError, match="already started; sign up for the next one"):
        await leagues.join(GUILD, "Friday Pool", 13, "C")  # the start time passed, not yet seated
    await leagues.tick()
    seated = await stored_state(bot)
    for call, reason in [
        (lambda: leagues.leave(GUILD, "Friday Pool", 11), "Night 1 has started; ask an admin"),
        (lambda: leagues.join(GUILD, "Friday Pool", 13, "C"), "Night 1 has started"),
        (lambda: leagues.check_in(5001, 13), "not seated at this table"),
        (lambda: leagues.end_season(GUILD, "Friday Pool"), "being played"),
    ]:
        with pytest.raises(LeagueError, match=reason):
            await call()
    assert await stored_state(bot) == seated
    await leagues.check_in(5001, 11)
    checked_in = await stored_state(bot)
    assert checked_in != seated
    with pytest.raises(LeagueError, match="already checked in"):
        await leagues.check_in(5001, 11)
    assert await stored_state(bot) == checked_in


async def test_admin_tools_add_remove_postpone_cancel_adjust_and_seasons(bots):
    clock = clock_at(MONDAY)
    bot = await bots.start(clock)
    leagues = bot.leagues
    await create(bot)
    events = await leagues.add(GUILD, None, 21, "Ravi")
    assert kinds(events) == ["signups"] and events[0].signups == (21,)
    assert (await leagues.remove(GUILD, None, 21))[0].signups == ()

    await leagues.night_published(leagues.find(GUILD, None).id, 1, 777, 888)
    (postponed,) = await leagues.postpone(GUILD, None, "2026-03-21 19:30", "  the hall   is booked ")
    assert (postponed.status, postponed.reason, postponed.event_id, postponed.message_id) == (
        NightStatus.POSTPONED,
        "the hall is booked",
        777,
        888,
    )
    assert postponed.starts_at.isoformat() == "2026-03-21T19:30:00+00:00"  # 19:30 in London, GMT
    move_to(clock, datetime.fromisoformat("2026-03-21T19:15:00+00:00"))
    assert [e.key for e in await leagues.tick()] == ["15m"]  # the new time's reminder

    events = await leagues.cancel_night(GUILD, None, "Holi")
    assert kinds(events) == ["night_changed", "night_open"]
    assert events[0].status is NightStatus.CANCELLED and events[0].reason == "Holi"
    assert events[1].night == 2 and events[1].starts_at.isoformat() == "2026-03-27T20:00:00+00:00"

    await join_all(bot, MEMBERS[:2])
    move_to(clock, datetime.fromisoformat("2026-03-27T20:00:00+00:00"))
    await leagues.tick()
    move_to(clock, datetime.fromisoformat("2026-03-27T20:10:00+00:00"))
    await leagues.tick()  # nobody checked in: both no-shows, the night is over
    (adjusted,) = await leagues.adjust(GUILD, None, 11, 2, 3, "came but the thread failed", ADMIN)
    assert adjusted.adjustment.delta == 3 and adjusted.adjustment.by == ADMIN
    assert leagues.find(GUILD, None).league.season.points() == {11: 3, 12: 0}

    events = await leagues.end_season(GUILD, None)
    assert kinds(events) == ["season_ended", "night_changed"] and events[1].night == 3
    assert kinds(await leagues.start_season(GUILD, None)) == ["season_started", "night_open"]


async def test_league_tables_refuse_members_seating_themselves(bots):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:3])
    tables = bot.tables
    await bot.leagues.check_in(5001, 11)
    seats = [SeatRecord(11, "A"), SeatRecord(12, "B")]
    await tables.open_table(GUILD, 7777, 11, "A", format="pool-61", seats=seats, league_id=99)
    for call, reason in [
        (lambda: tables.join(7777, 13, "C"), "league table: its seats"),
        (lambda: tables.add_computer(7777, 11), "league table: its seats"),
        (lambda: tables.leave(7777, 12), "league table: it starts"),
        (lambda: tables.cancel(7777, 11), "Manage Server can cancel"),
    ]:
        with pytest.raises(ServiceError, match=reason):
            await call()
    assert [s.user_id for s in tables.table_in(7777).record.seats] == [11, 12]
    assert (await bot.store.table(tables.table_in(7777).id)).league_id == 99
    with pytest.raises(ServiceError, match="at most 2"):
        await tables.open_table(GUILD, 7778, 11, "A", max_seats=2, seats=[*seats, SeatRecord(13, "C")])


async def test_the_scheduler_loop_hands_due_events_on_and_stops(bots):
    clock = clock_at(FIRST - timedelta(minutes=16))
    bot = await bots.start(clock)
    await create(bot)
    move_to(clock, FIRST - timedelta(minutes=15))
    stop, handed = asyncio.Event(), []

    async def on_events(events):
        handed.extend(events)
        stop.set()

    bot.leagues.on_events = on_events
    await asyncio.wait_for(bot.leagues.run(stop), timeout=5)
    assert [e.key for e in handed] == ["15m"]


async def test_a_table_whose_thread_never_opens_is_given_up_after_half_an_hour(bots):
    clock = clock_at(MONDAY)
    bot = await night_at_start(bots, clock)
    bot.threads.refuse = {2}
    await bot.leagues.tick()
    move_to(clock, FIRST + timedelta(minutes=29))
    await bot.leagues.tick()  # table 1 checks in without anyone (no-shows); table 2 still waits
    assert not bot.leagues.find(GUILD, None).league.running_night.tables[1].settled
    move_to(clock, FIRST + timedelta(minutes=31))
    events = await bot.leagues.tick()
    given_up = league_events(events, "table_settled")
    assert [(e.number, "could not open a thread" in e.reason) for e in given_up] == [(2, True)]
    assert "night_finished" in kinds(events)  # the night no longer waits for it
    table = bot.leagues.find(GUILD, None).league.season.night(1).tables[1]
    assert table.settled and {p.points for p in table.placings} == {0} and table.thread_id is None
    bot.threads.refuse = set()
    assert league_events(await bot.leagues.tick(), "check_in") == []  # no thread for it any more


# --------------------------------------------------------------------- what a crash may have lost


async def test_a_check_in_lost_in_a_crash_is_announced_again_on_load_with_a_fresh_window(bots):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:3])  # saved: thread open, deadline set
    await bot.leagues.check_in(5001, 11)
    await bots.stop(bot)  # before the front end posted the check-in message
    move_to(clock, FIRST + timedelta(minutes=12))  # back after the first deadline
    bot = await bots.start(clock, bot.threads)
    (again,) = bot.loaded
    until = FIRST + timedelta(minutes=22)
    assert again.kind == K.CHECK_IN and (again.round, again.resumed) == (1, True)
    assert again.tables == (CheckInTable(1, (11, 12, 13), 5001, until),)
    assert await bot.leagues.tick() == []  # the old deadline no longer counts
    for user in (12, 13):
        events = await bot.leagues.check_in(5001, user)
    assert league_events(events, K.TABLE_STARTED)[0].no_shows == ()
    await bots.stop(bot)
    bot = await bots.start(clock, bot.threads)
    assert league_events(bot.loaded, K.CHECK_IN) == []  # a started table is not checking in


async def test_a_night_open_never_published_is_announced_again_on_load(bots):
    clock = clock_at(MONDAY)
    bot = await bots.start(clock)
    await create(bot)
    await bots.stop(bot)  # before the front end created the event and the announcement
    bot = await bots.start(clock)
    (again,) = bot.loaded
    assert again.kind == K.NIGHT_OPEN and again.night == 1
    assert again.starts_at == FIRST
    await bot.leagues.night_published(again.league_id, 1, 777, None)
    await bots.stop(bot)
    bot = await bots.start(clock)
    assert bot.loaded == []


async def test_a_casual_table_opened_in_a_league_thread_is_cancelled_at_the_start(bots):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:3])
    casual = await bot.tables.open_table(GUILD, 5001, 999, "stranger", format="pool-61")
    for user in (11, 12):
        await bot.leagues.check_in(5001, user)
    move_to(clock, FIRST + timedelta(minutes=10))
    events = await bot.leagues.tick()
    assert kinds(events)[:2] == ["table_started", "cancelled"]
    assert events[1].table_id == casual[0].table_id
    playing = bot.tables.table_in(5001)
    assert playing.record.league_id is not None and playing.match is not None
    assert events[0].table_id == playing.id and events[0].no_shows == (13,)
    assert bot.leagues.next_wake() is None  # nothing left due: no wake time in the past


async def scheduler_pauses(bot, passes: int) -> list[float]:
    """Runs the scheduler loop for `passes` passes, recording each pause instead of sleeping."""
    stop, pauses = asyncio.Event(), []

    async def pause(_stop: asyncio.Event, seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == passes:
            stop.set()

    await asyncio.wait_for(bot.leagues.run(stop, pause=pause), timeout=5)
    return pauses


async def test_the_scheduler_backs_off_after_a_failed_pass_instead_of_spinning(bots):
    clock = clock_at(MONDAY)
    bot = await night_at_start(bots, clock)
    bot.threads.refuse = {1, 2}  # every pass fails to open the threads
    assert await scheduler_pauses(bot, 7) == [1, 2, 4, 8, 16, 30, 30]
    bot.threads.refuse = set()
    assert await scheduler_pauses(bot, 2) == [30, 30]  # a good pass waits for the next wake-up


async def test_the_scheduler_backs_off_when_its_wake_time_has_passed(bots, monkeypatch):
    clock = clock_at(MONDAY)
    bot = await bots.start(clock)
    await create(bot)
    monkeypatch.setattr(bot.leagues, "next_wake", lambda: clock.now() - 5)  # something stuck
    assert await scheduler_pauses(bot, 4) == [1, 2, 4, 8]
    monkeypatch.setattr(bot.leagues, "next_wake", lambda: clock.now() + 12)
    assert await scheduler_pauses(bot, 1) == [12]


async def test_cancel_and_postpone_naming_a_night_refuse_once_it_is_no_longer_waiting(bots):
    clock = clock_at(MONDAY)
    bot = await bots.start(clock)
    await create(bot)
    leagues = bot.leagues
    first, second = await asyncio.gather(  # two admins (or a double submit) at once
        leagues.cancel_night(GUILD, None, "hall booked", night=1),
        leagues.cancel_night(GUILD, None, "hall booked", night=1),
        return_exceptions=True,
    )
    assert kinds(first) == ["night_changed", "night_open"]
    assert isinstance(second, LeagueError)
    assert str(second) == "Night 1 is no longer waiting: night 2 is next."
    season = leagues.find(GUILD, None).league.season
    assert [n.status for n in season.nights] == [NightStatus.CANCELLED, NightStatus.SIGNUP]
    with pytest.raises(LeagueError, match="Night 1 is no longer waiting: night 2 is next"):
        await leagues.postpone(GUILD, None, "2026-03-28 19:30", "rain", night=1)
    (postponed,) = await leagues.postpone(GUILD, None, "2026-03-28 19:30", "rain", night=2)
    assert postponed.night == 2 and postponed.status is NightStatus.POSTPONED


async def test_night_published_keeps_what_it_is_not_given_and_reports_a_night_changed_meanwhile(bots):
    clock = clock_at(MONDAY)
    bot = await bots.start(clock)
    await create(bot)
    leagues = bot.leagues
    record = leagues.find(GUILD, None)
    assert await leagues.night_published(record.id, 1, event_id=777) == []
    assert await leagues.night_published(record.id, 1, message_id=888) == []
    assert record.league.season.night(1).event_id == 777 and record.announcement == {1: 888}

    await leagues.cancel_night(GUILD, None, "Holi")  # night 2 opens; cancelled before it is out
    await leagues.end_season(GUILD, None)
    (changed,) = await leagues.night_published(record.id, 2, event_id=555)
    assert changed.kind == K.NIGHT_CHANGED and changed.night == 2
    assert (changed.status, changed.reason, changed.event_id, changed.message_id) == (
        NightStatus.CANCELLED,
        "The season ended.",
        555,
        None,
    )
    assert changed.starts_at.isoformat() == "2026-03-27T20:00:00+00:00"
    (changed,) = await leagues.night_published(record.id, 2, message_id=556)
    assert (changed.event_id, changed.message_id) == (555, 556)
    assert await leagues.night_published(record.id, 2, 555, 556) == []  # told already


async def test_an_admin_abandons_a_stuck_table_with_a_reason_and_the_night_goes_on(bots):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:4], seats_per_table=2)
    leagues = bot.leagues
    for user in (11, 14):
        await leagues.check_in(5001, user)
    playing = bot.tables.table_in(5001)
    assert playing.match is not None
    with pytest.raises(LeagueError, match="Give a reason"):
        await leagues.abandon_table(GUILD, None, 1, 1, "  ", ADMIN)
    with pytest.raises(LeagueError, match="Night 2 is not being played"):
        await leagues.abandon_table(GUILD, None, 2, 1, "stuck", ADMIN)

    # table 2 never starts (nobody comes to check in, and the admin will not wait)
    events = await leagues.abandon_table(GUILD, None, 1, 2, " nobody   came ", ADMIN)
    assert kinds(events) == ["table_settled"]
    assert events[0].reason == "nobody came" and events[0].by == ADMIN
    assert {p.points for p in events[0].placings} == {0}

    # table 1's match cannot go on: its service table is cancelled, and the night ends
    events = await leagues.abandon_table(GUILD, None, 1, 1, "the match froze", ADMIN, round=1)
    assert kinds(events) == ["cancelled", "table_settled", "night_finished", "night_open"]
    assert events[0].table_id == playing.id and bot.tables.table_in(5001) is None
    assert [(p.user_id, p.position, p.points) for p in events[1].placings] == [
        (11, None, 0),
        (14, None, 0),
    ]
    night = leagues.find(GUILD, None).league.season.night(1)
    assert night.status is NightStatus.FINISHED and night.table(1, 1).note == "the match froze"
    assert await leagues.table_events(events[:1]) == []  # the front end forwarding the cancel
    with pytest.raises(LeagueError, match="Night 1 is not being played"):
        await leagues.abandon_table(GUILD, None, 1, 1, "again", ADMIN)


async def test_an_unreadable_league_row_is_set_aside_reported_once_and_the_others_run(bots):
    clock = clock_at(MONDAY)
    bot = await bots.start(clock)
    await create(bot)
    await create(bot, name="Broken JSON")
    await create(bot, name="Broken state", channel_id=LEAGUE_CHANNEL + 1)
    await create(bot, name="Monday Pool")
    ids = {record.league.name: record.id for record in bot.leagues.leagues(GUILD)}
    broken = json.dumps({"league": {"channel_id": LEAGUE_CHANNEL + 1}, "names": {}})
    rows = [("{not json", None, 0.0, ids["Broken JSON"]), (broken, None, 0.0, ids["Broken state"])]
    await bot.store._write({UPDATE_LEAGUE: rows})  # a row damaged outside the bot
    await bots.stop(bot)
    bot = await bots.start(clock)
    assert sorted(r.league.name for r in bot.leagues.leagues(GUILD)) == ["Friday Pool", "Monday Pool"]
    assert kinds(bot.loaded) == ["damaged", "damaged", "night_open", "night_open"]
    # Each is reported with the channel its row still names, if it does.
    assert [(e.name, e.channel_id) for e in bot.loaded[:2]] == [
        ("Broken JSON", None),
        ("Broken state", LEAGUE_CHANNEL + 1),
    ]
    with pytest.raises(LeagueError, match="Broken state is damaged and set aside"):
        await create(bot, name="broken STATE")  # its name stays taken
    with pytest.raises(LeagueError, match="damaged"):
        await bot.leagues.join(GUILD, "Broken JSON", 11, "Member 11")
    await bot.leagues.join(GUILD, "Monday Pool", 11, "Member 11")  # the other leagues run
    await bot.leagues.tick()
    await bots.stop(bot)
    bot = await bots.start(clock)
    assert "damaged" not in kinds(bot.loaded)  # reported once, not at every start


async def test_the_season_just_ended_can_still_be_adjusted(bots):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:2])
    move_to(clock, FIRST + timedelta(minutes=10))
    await bot.leagues.tick()  # nobody checked in: the night is over
    await bot.leagues.end_season(GUILD, None)
    (adjusted,) = await bot.leagues.adjust(GUILD, None, 11, 1, 3, "the thread failed", ADMIN)
    assert adjusted.night == 1
    assert bot.leagues.find(GUILD, None).league.seasons[-1].points() == {11: 3, 12: 0}


async def test_abandoning_a_table_whose_match_just_ended_keeps_its_real_result(bots):
    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:2])
    for user in MEMBERS[:2]:
        await bot.leagues.check_in(5001, user)
    await bot.tables.leave(5001, 11)  # the match ends; the league has not been told yet
    events = await bot.leagues.abandon_table(GUILD, None, 1, 1, "looked stuck", ADMIN)
    settled = league_events(events, "table_settled")
    assert [(p.user_id, p.won) for p in settled[0].placings] == [(12, True), (11, False)]
    assert not settled[0].reason  # settled from its match, not abandoned


async def test_retention_keeps_a_finished_league_table_until_its_night_has_scored_it(bots):
    """The bot was down 100 days after a night's tables finished: retention leaves their
    matches alone, the league scores them from their logs on load, and only then may they go."""
    from bot.service import Retention, RetentionSettings
    from bot.service.retention import DAY

    clock = clock_at(MONDAY)
    bot = await seated_night(bots, clock, MEMBERS[:4], seats_per_table=2)
    for channel, user in ((5001, 11), (5001, 14), (5002, 12), (5002, 13)):
        await bot.leagues.check_in(channel, user)
    await play_moves(bot, forward=False)  # the league has not heard of the ends
    waiting = bot.leagues.unsettled_tables()
    assert len(waiting) == 2
    clock.advance(100 * DAY)
    retention = Retention(bot.store, clock, RetentionSettings(keep_days=90), bot.leagues.unsettled_tables)
    assert (await retention.prune()).matches == 0
    await bots.stop(bot)
    bot = await bots.start(clock)
    assert sorted(bot.loaded[2].points.values()) == [6, 6, 10, 10]  # scored as if never down
    assert bot.leagues.unsettled_tables() == set()
    retention = Retention(bot.store, clock, RetentionSettings(keep_days=90), bot.leagues.unsettled_tables)
    assert (await retention.prune()).matches == 2
