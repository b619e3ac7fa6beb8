"""League nights run by the league service on the table service, stored in SQLite, on a manual
clock: sign-up, reminders, seating, check-in, no-shows, games to the end, points, restarts."""

import json
from datetime import timedelta

import pytest
from league_helpers import (
    FIRST,
    GUILD,
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

from bot.leagues import LeagueError, NightStatus, standings_scene
from bot.service import LeagueEventKind as K
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
    assert events[-1].night == 1 and events[-1].data["starts_at"] == FIRST.isoformat()
    await bot.leagues.night_published(record.id, 1, 777, 888)
    await join_all(bot)
    night = record.league.next_night
    assert night.signups == list(MEMBERS) and night.event_id == 777 and record.announcement == {1: 888}

    every: list = []
    for instant in (FIRST - timedelta(hours=24), FIRST - timedelta(minutes=15)):
        move_to(clock, instant)
        every += await bot.leagues.tick()
        every += await bot.leagues.tick()  # a second tick sends nothing again
    assert [e.data["key"] for e in every] == ["24h", "15m"]
    assert every[0].data["signups"] == list(MEMBERS)
    assert bot.leagues.next_wake() == FIRST.timestamp()

    move_to(clock, FIRST)
    (check_in,) = await bot.leagues.tick()
    assert check_in.kind == K.CHECK_IN
    tables = check_in.data["tables"]
    # Balanced: two tables of three, snake-seeded (everyone on 0 points: by user id).
    assert [t["seats"] for t in tables] == [[11, 14, 15], [12, 13, 16]]
    assert [t["channel_id"] for t in tables] == [5001, 5002]
    with pytest.raises(LeagueError, match="ask an admin"):
        await bot.leagues.leave(GUILD, None, 11)

    started = []
    for channel, user in ((5001, 11), (5001, 14), (5002, 12), (5002, 13), (5002, 16)):
        started += await bot.leagues.check_in(channel, user)
    assert [e.data["number"] for e in league_events(started, K.TABLE_STARTED)] == [2]
    assert bot.leagues.next_wake() == (FIRST + timedelta(minutes=10)).timestamp()

    move_to(clock, FIRST + timedelta(minutes=10))
    late = await bot.leagues.tick()
    (table_started,) = league_events(late, K.TABLE_STARTED)
    assert table_started.data["present"] == [11, 14] and table_started.data["no_shows"] == [NO_SHOW]

    played = await play_moves(bot)
    assert sorted(e.data["number"] for e in league_events(played, K.TABLE_SETTLED)) == [1, 2]
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
    assert opened.night == 2 and opened.data["starts_at"] == (FIRST + timedelta(days=7)).isoformat()
