"""Leagues end to end on a fixed clock: seasons, nights, sign-ups, seating, results, restarts."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from test_leagues_points import pool_in_order

from bot.engine import Rules, RummyError
from bot.engine.match import Match
from bot.leagues import League, LeagueError, NightStatus, ScheduleError, SeatingError
from bot.leagues.night import Night
from bot.leagues.season import Season
from bot.present.scene_builders import league_standings_scene as standings_scene
from render.scenes import StandingsScene
from render.standings import render_standings

GUILD = 77
ADMIN = 1


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


MONDAY = utc(2026, 3, 16, 12)
FIRST = utc(2026, 3, 20, 20)  # Friday 20:00 in London, still GMT


def league(**overrides) -> League:
    args = {
        "guild_id": GUILD,
        "name": "Friday Pool",
        "format": "pool-201",
        "schedule": "every Friday 20:00",
        "timezone": "Europe/London",
        "seats_per_table": 3,
    }
    return League.create(**(args | overrides))


def round_trip(value: League) -> League:
    raw = json.loads(json.dumps(value.to_json()))
    again = League.from_json(raw)
    assert again.to_json() == raw
    return again


def signed_up(users, **overrides) -> League:
    lg = league(**overrides)
    lg.start_season(MONDAY)
    night = lg.next_night
    night.open_signup()
    for user in users:
        night.sign_up(user, MONDAY)
    return lg


def play_round(lg: League, tables) -> list:
    """Each table's best seed wins and the rest finish in seat order (see `pool_in_order`)."""
    following = []
    for table in tables:
        match = pool_in_order(len(table.present))
        following = lg.settle_table(table.round, table.number, match, table.present)
    return following


# --------------------------------------------------------------------- creating a league


@pytest.mark.parametrize(
    ("overrides", "error", "reason"),
    [
        ({"format": "points"}, LeagueError, "pool-61, pool-101, pool-201"),
        ({"format": "deals-3"}, LeagueError, "Leagues play Pool"),
        ({"schedule": "fridays"}, ScheduleError, "every Friday 20:00"),
        ({"timezone": "London"}, ScheduleError, "know the time zone"),
        ({"seats_per_table": 7}, SeatingError, "standard rules seats 2 to 6"),
        ({"seats_per_table": 6, "rules": "octro"}, SeatingError, "octro rules seats 2 to 5"),
        ({"rules": "lenient"}, LeagueError, "no rules preset 'lenient'"),
        ({"name": "   "}, LeagueError, "1 to 50"),
        ({"rounds_per_night": 0}, LeagueError, "1 to 5 rounds"),
    ],
)
def test_league_create_refuses_bad_settings_with_reasons(overrides, error, reason):
    with pytest.raises(error, match=reason) as caught:
        league(**overrides)
    assert isinstance(caught.value, RummyError)


def test_a_new_season_schedules_its_first_night_and_only_one_runs_at_a_time():
    lg = league()
    assert lg.next_night is None and lg.wake(MONDAY) is None
    season = lg.start_season(MONDAY)
    assert season.number == 1 and lg.next_night.starts_at == FIRST
    assert lg.next_night.status is NightStatus.SCHEDULED
    with pytest.raises(LeagueError, match="still running"):
        lg.start_season(MONDAY)
    lg.end_season(MONDAY + timedelta(hours=1))
    assert season.nights[0].status is NightStatus.CANCELLED and lg.season is None
    with pytest.raises(LeagueError, match="no season running"):
        lg.end_season(MONDAY)
    assert lg.start_season(MONDAY + timedelta(days=1)).number == 2


def test_every_two_weeks_anchors_on_the_first_night():
    lg = league(schedule="every 2 weeks on Sunday 18:00")
    lg.start_season(MONDAY)
    assert lg.schedule.anchor.isoformat() == "2026-03-22"
    assert round_trip(lg).schedule == lg.schedule


# --------------------------------------------------------------------- sign-up


def test_sign_up_opens_with_the_event_and_members_may_leave_until_the_start():
    lg = league()
    lg.start_season(MONDAY)
    night = lg.next_night
    with pytest.raises(LeagueError, match="not open"):
        night.sign_up(10, MONDAY)
    night.open_signup()
    with pytest.raises(LeagueError, match="not waiting to open"):
        night.open_signup()
    night.sign_up(10, MONDAY)
    night.sign_up(11, MONDAY)
    with pytest.raises(LeagueError, match="already signed up"):
        night.sign_up(10, MONDAY)
    night.leave(11, FIRST - timedelta(seconds=1))
    with pytest.raises(LeagueError, match="not signed up"):
        night.leave(11, MONDAY)
    with pytest.raises(LeagueError, match="already started"):
        night.sign_up(12, FIRST)
    with pytest.raises(LeagueError, match="ask an admin"):
        night.leave(10, FIRST)
    night.add(12)  # an admin, after the start time but before seating
    night.remove(10)
    with pytest.raises(LeagueError, match="already signed up"):
        night.add(12)
    with pytest.raises(LeagueError, match="not signed up"):
        night.remove(10)
    assert night.signups == [12]


# --------------------------------------------------------------------- a whole night


def two_nights() -> League:
    """Two nights played: night 1 with five members, night 2 with six, checked on the way."""
    lg = signed_up([10, 11, 12, 13, 14])
    with pytest.raises(LeagueError, match="not come yet"):
        lg.start_night(FIRST - timedelta(minutes=1))
    tables = lg.start_night(FIRST)
    night = lg.season.nights[0]
    assert night.status is NightStatus.RUNNING and lg.next_night is None
    assert [t.seats for t in tables] == [[10, 13, 14], [11, 12]]  # all on 0 points: by user id, snake
    with pytest.raises(LeagueError, match="too late to add"):
        night.add(15)
    with pytest.raises(LeagueError, match="no table 3 in round 1"):
        lg.settle_table(1, 3, pool_in_order(2), [10, 11])
    assert play_round(lg, tables) == []
    assert night.status is NightStatus.FINISHED
    assert night.points() == {10: 10, 13: 6, 14: 4, 11: 10, 12: 6}
    assert lg.next_night.number == 2 and lg.next_night.starts_at == utc(2026, 3, 27, 20)
    with pytest.raises(LeagueError, match="not being played"):
        night.settle(1, 1, pool_in_order(3), lg.points_table, [10, 13, 14])

    # Night 2 is seeded by the season so far: the two winners lead different tables.
    second = lg.next_night
    second.open_signup()
    for user in (10, 11, 12, 13, 14, 15):
        second.sign_up(user, FIRST)
    tables = lg.start_night(second.starts_at)
    assert [t.seats for t in tables] == [[10, 13, 14], [11, 12, 15]]
    play_round(lg, tables)
    assert lg.next_night.starts_at == utc(2026, 4, 3, 19)  # 20:00 BST
    return lg


def test_a_night_seats_balanced_tables_scores_them_and_schedules_the_next():
    assert two_nights().season.number == 1


def test_standings_sum_the_nights_with_tie_breaks_and_draw_as_a_picture():
    lg = two_nights()
    season = lg.season
    lines = season.standings()
    assert [(line.user_id, line.points, line.per_night, line.wins) for line in lines] == [
        (10, 20, (10, 10), 2),
        (11, 20, (10, 10), 2),  # level with 10 on everything but user id
        (12, 12, (6, 6), 0),  # level with 13 but conceded 75 pool points to 13's 100
        (13, 12, (6, 6), 0),
        (14, 8, (4, 4), 0),
        (15, 4, (None, 4), 0),
    ]
    assert (lines[2].conceded, lines[3].conceded) == (75, 100)
    assert lines[0].average_position == 1.0 and lines[5].played == 1
    scene = standings_scene(season, {10: "Asha", 11: "Bilal", 15: "Chen"}, limit=None)
    assert isinstance(scene, StandingsScene) and scene.columns == ("N1", "N2")
    assert scene.rows[0].name == "1. Asha" and scene.rows[0].status == "2 wins"
    assert scene.rows[5].scores == (None, 4) and scene.rows[3].name == "4. Member 13"
    assert render_standings(scene)[:8] == b"\x89PNG\r\n\x1a\n"


def test_adjustments_are_recorded_with_who_why_and_when_and_count_in_their_night():
    lg = two_nights()
    season = lg.season
    at = utc(2026, 3, 28, 9)
    adjustment = season.adjust(11, 1, -3, "  played   on after a disconnect ", ADMIN, at)
    assert (adjustment.reason, adjustment.by, adjustment.at) == ("played on after a disconnect", ADMIN, at)
    top = season.standings()[0]
    assert (top.user_id, top.points) == (10, 20)
    eleven = next(line for line in season.standings() if line.user_id == 11)
    assert eleven.points == 17 and eleven.per_night == (7, 10)
    assert season.history(11)[0][2] == [adjustment]
    for args, reason in [
        ((11, 1, 0, "nothing"), "changes nothing"),
        ((11, 1, 2, "   "), "Give a reason"),
        ((11, 3, 2, "not played yet"), "no result to adjust"),
        ((11, 9, 2, "no such night"), "no night 9"),
        ((11, 1, 2, "x" * 201), "under 200"),
    ]:
        with pytest.raises(LeagueError, match=reason):
            season.adjust(*args, ADMIN, at)
    assert round_trip(lg).seasons[0].adjustments == [adjustment]


def test_no_shows_are_marked_and_a_table_left_with_one_player_is_settled():
    lg = signed_up([10, 11, 12, 13], seats_per_table=2)
    first, second = lg.start_night(FIRST)
    assert first.seats == [10, 13] and second.seats == [11, 12]
    lg.mark_no_show(1, 1, 13)
    assert first.settled and [(p.user_id, p.points, p.won, p.no_show) for p in first.placings] == [
        (10, 10, True, False),
        (13, 0, False, True),
    ]
    with pytest.raises(LeagueError, match="already settled"):
        lg.mark_no_show(1, 1, 10)
    lg.mark_no_show(1, 2, 11)
    assert lg.season.nights[0].status is NightStatus.FINISHED
    assert lg.season.standings()[-1].no_shows == 1


def test_a_table_nobody_came_to_is_settled_with_no_shows_only():
    lg = signed_up([10, 11])
    (table,) = lg.start_night(FIRST)
    lg.mark_no_show(1, 1, 10)  # 11 is left alone: a walkover
    assert [p.user_id for p in table.placings if p.won] == [11]
    night = Night(1, FIRST, status=NightStatus.RUNNING, signups=[1, 2])
    night.tables = []
    night._seat_round(1, [1, 2, 3], {}, 3)
    night.mark_no_show(1, 1, 1, lg.points_table)
    night.mark_no_show(1, 1, 2, lg.points_table)
    assert night.tables[0].settled
    with pytest.raises(LeagueError, match="already settled"):
        night.mark_no_show(1, 1, 3, lg.points_table)


def test_a_seated_no_show_in_the_match_is_taken_out_of_the_order():
    lg = signed_up([10, 11, 12])
    (table,) = lg.start_night(FIRST)
    night = lg.season.nights[0]
    night.mark_no_show(1, 1, 12, lg.points_table)  # 10 and 11 still play
    with pytest.raises(LeagueError, match="not at this table"):
        lg.settle_table(1, 1, pool_in_order(2), [10, 99])
    lg.settle_table(1, 1, pool_in_order(2))  # the match seats those present, in seat order
    placings = [(p.user_id, p.position, p.points) for p in table.placings]
    assert placings == [(10, 1, 10), (11, 2, 6), (12, None, 0)]


def test_a_night_of_two_rounds_reseats_by_the_points_so_far():
    lg = signed_up([10, 11, 12, 13, 14, 15], rounds_per_night=2)
    tables = lg.start_night(FIRST)
    assert [t.seats for t in tables] == [[10, 13, 14], [11, 12, 15]]
    round_two = play_round(lg, tables)
    night = lg.season.nights[0]
    assert night.status is NightStatus.RUNNING and night.current_round == 2
    # Seeded by tonight's points: 10 and 11 lead apart again (with these results, the same tables).
    assert [t.seats for t in round_two] == [[10, 13, 14], [11, 12, 15]]
    assert [t.round for t in night.tables] == [1, 1, 2, 2]
    assert play_round(lg, round_two) == [] and night.status is NightStatus.FINISHED
    assert lg.season.standings()[0].per_night == (20,)
    assert round_trip(lg).season.nights[0].tables == night.tables


def test_a_league_of_another_format_cannot_take_the_table():
    lg = signed_up([10, 11])
    lg.start_night(FIRST)
    with pytest.raises(LeagueError, match="plays Pool 201"):
        lg.settle_table(1, 1, Match.empty("pool-101", 2), [10, 11])


# --------------------------------------------------------------------- admin tools


def test_too_few_players_cancel_the_night_with_the_reason_and_schedule_the_next():
    lg = signed_up([10])
    assert lg.start_night(FIRST) == []
    night = lg.season.nights[0]
    assert night.status is NightStatus.CANCELLED and "Not enough players" in night.note
    assert lg.next_night.starts_at == utc(2026, 3, 27, 20)


def test_postponing_keeps_sign_ups_resends_reminders_and_does_not_shift_the_next_slot():
    lg = signed_up([10, 11])
    night = lg.next_night
    night.reminders_sent = ["24h"]
    later = utc(2026, 3, 21, 18)
    night.postpone(later, MONDAY, "venue booked")
    night.postpone(later + timedelta(hours=1), MONDAY)
    assert night.status is NightStatus.POSTPONED and night.slot == FIRST
    assert night.reminders_sent == [] and night.signups == [10, 11]
    night.sign_up(12, MONDAY)
    with pytest.raises(LeagueError, match="still to come"):
        night.postpone(MONDAY, MONDAY)
    with pytest.raises(LeagueError, match="not come yet"):
        lg.start_night(FIRST)
    tables = lg.start_night(later + timedelta(hours=1))
    play_round(lg, tables)
    assert lg.next_night.starts_at == utc(2026, 3, 27, 20)  # the regular Friday, not a week after Saturday


def test_cancelling_and_states_that_refuse_admin_tools():
    lg = signed_up([10, 11])
    night = lg.next_night
    night.cancel("server maintenance")
    assert night.status is NightStatus.CANCELLED and night.note == "server maintenance"
    for action in (lambda: night.cancel(), lambda: night.postpone(FIRST, MONDAY), lambda: night.add(5)):
        with pytest.raises(LeagueError, match="too late"):
            action()
    with pytest.raises(LeagueError, match="No night is waiting"):
        lg.start_night(FIRST)
    with pytest.raises(LeagueError, match="No league night is being played"):
        lg.mark_no_show(1, 1, 10)


def test_a_season_cannot_end_while_a_night_is_played():
    lg = signed_up([10, 11])
    lg.start_night(FIRST)
    with pytest.raises(LeagueError, match="being played"):
        lg.end_season(FIRST)


# --------------------------------------------------------------------- the scheduler after a restart


def test_waking_before_the_night_skips_reminders_already_past_once():
    lg = signed_up([10, 11])
    decision = lg.wake(FIRST - timedelta(hours=2))
    assert decision.action == "wait" and [r.key for r in decision.skipped] == ["24h"]
    assert lg.next_night.reminders_sent == ["24h"]
    assert lg.wake(FIRST - timedelta(hours=1)).skipped == ()
    lg.reminder_sent("15m")
    lg.reminder_sent("15m")
    assert lg.next_night.reminders_sent == ["24h", "15m"]


def test_a_night_started_late_within_the_grace_is_seated_at_once():
    lg = signed_up([10, 11, 12])
    now = FIRST + timedelta(minutes=20)
    decision = lg.wake(now)
    assert decision.action == "start"
    assert [t.seats for t in lg.start_night(now)] == [[10, 11, 12]]


def test_a_night_past_the_grace_is_missed_and_the_next_one_is_stored():
    lg = round_trip(signed_up([10, 11, 12]))  # as if loaded after the restart
    now = FIRST + timedelta(hours=3)
    decision = lg.wake(now)
    missed = lg.season.nights[0]
    assert decision.action == "missed" and missed.status is NightStatus.MISSED
    assert "offline" in missed.note and lg.next_night.number == 2
    assert lg.next_night.starts_at == decision.next_start == utc(2026, 3, 27, 20)
    assert lg.wake(now).action == "wait"  # a second wake-up changes nothing
    assert len(lg.season.nights) == 2


# --------------------------------------------------------------------- storage


def test_every_state_round_trips_through_json():
    lg = signed_up([10, 11, 12, 13, 14], rounds_per_night=2)
    snapshots = [round_trip(lg).to_json()]
    tables = lg.start_night(FIRST)
    snapshots.append(round_trip(lg).to_json())
    tables[0].thread_id, tables[0].table_id = 555, 9
    round_two = play_round(lg, tables)
    snapshots.append(round_trip(lg).to_json())
    play_round(lg, round_two)
    lg.season.adjust(10, 1, 2, "bonus for hosting", ADMIN, FIRST + timedelta(days=1))
    lg.next_night.postpone(utc(2026, 3, 28, 20), FIRST + timedelta(days=1))
    again = round_trip(lg)
    assert again.season.standings() == lg.season.standings()
    assert again.next_night.postponed_from == utc(2026, 3, 27, 20)
    assert Season.from_json(lg.season.to_json()).to_json() == lg.season.to_json()
    assert len({json.dumps(s, sort_keys=True) for s in snapshots}) == 3


def test_rules_are_fixed_for_a_season_and_change_from_the_next_one():
    # 001 octro seats 2 to 5 players, 003 the app 2 to 5, 004 home up to ten.
    octro, home = Rules.PRESETS["octro"], Rules.PRESETS["home"]
    lg = league(rules="octro")
    assert lg.start_season(MONDAY).rules == octro and lg.table_rules == octro
    with pytest.raises(LeagueError, match="still running"):
        lg.start_season(MONDAY, rules="home")
    lg.end_season(MONDAY)
    with pytest.raises(SeatingError, match="app rules seats 2 to 5"):
        lg.start_season(MONDAY, rules="app", seats_per_table=6)
    assert lg.rules == "octro" and lg.seats_per_table == 3 and lg.season is None  # refused: unchanged
    second = lg.start_season(MONDAY, rules="home", seats_per_table=10)
    assert second.rules == home and lg.seasons[0].rules == octro and lg.seats_per_table == 10
    again = round_trip(lg)
    assert [season.rules for season in again.seasons] == [octro, home] and again.rules == "home"


def test_a_league_stored_before_leagues_chose_rules_plays_the_standard_rules():
    lg = league()
    lg.start_season(MONDAY)
    raw = json.loads(json.dumps(lg.to_json()))
    del raw["rules"]
    for season in raw["seasons"]:
        del season["rules"]
    old = League.from_json(raw)
    assert old.rules == "standard" and old.table_rules == Rules()


def test_during_a_night_the_standings_count_its_settled_tables_as_provisional():
    lg = two_nights()
    season = lg.season
    third = lg.next_night
    third.open_signup()
    for user in (10, 11, 12, 13, 14, 15):
        third.sign_up(user, third.starts_at - timedelta(hours=1))
    tables = lg.start_night(third.starts_at)
    first = tables[0]
    lg.settle_table(first.round, first.number, pool_in_order(len(first.present)), first.present)
    settled = {p.user_id: p.points for p in third.placings()}
    assert settled and len(settled) == len(first.present)
    assert [line.per_night for line in season.standings()] == [
        line.per_night for line in two_nights().season.standings()
    ]
    provisional = {line.user_id: line for line in season.standings(provisional=True)}
    for user, points in settled.items():
        assert provisional[user].per_night[-1] == points
    scene = standings_scene(season, {}, provisional=True)
    assert scene.columns == ("N1", "N2", "N3*")
    assert any("provisional" in note for note in scene.notes)
    assert standings_scene(season, {}).columns == ("N1", "N2") and not standings_scene(season, {}).notes


def test_a_member_keeps_a_colour_whatever_their_rank_and_an_adjusted_night_is_marked():
    lg = two_nights()
    season = lg.season
    before = {row.name.split(". ")[1]: row.colour for row in standings_scene(season, NAMES).rows}
    season.adjust(15, 2, 30, "scored by hand after a crash", ADMIN, utc(2026, 3, 28, 9))
    after = standings_scene(season, NAMES)
    assert after.rows[0].name == "1. Chen"  # the adjustment made Chen first ...
    assert {row.name.split(". ")[1]: row.colour for row in after.rows} == before  # ... in Chen's colour
    assert len(set(before.values())) == 6
    chen = after.rows[0]
    assert chen.marked == (False, True) and not any(any(row.marked) for row in after.rows[1:])
    assert any("adjustment" in note for note in after.notes)


NAMES = {10: "Asha", 11: "Bilal", 12: "Dev", 13: "Esha", 14: "Farid", 15: "Chen"}
