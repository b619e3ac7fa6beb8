"""The core's check-in at a night's table, abandoned tables and an admin's cancel (pure, fixed clock)."""

from datetime import timedelta

import pytest
from test_leagues import FIRST, MONDAY, round_trip, signed_up, utc

from bot.leagues import LeagueError, NightStatus


def seated(users, **overrides):
    lg = signed_up(users, **overrides)
    tables = lg.start_night(FIRST)
    for number, table in enumerate(tables):
        table.thread_id, table.check_in_until = 500 + number, FIRST + timedelta(minutes=10)
    return lg, lg.season.nights[0], tables


def test_check_in_is_due_when_everyone_is_in_or_at_the_deadline_and_survives_storage():
    lg, night, (table,) = seated([10, 11, 12])
    assert table.checking_in and not table.check_in_due(FIRST)
    night.check_in(1, 1, 10)
    with pytest.raises(LeagueError, match="already checked in"):
        night.check_in(1, 1, 10)
    with pytest.raises(LeagueError, match="not seated"):
        night.check_in(1, 1, 99)
    assert round_trip(lg).season.nights[0].tables[0].checked_in == [10]
    assert round_trip(lg).season.nights[0].tables[0].check_in_until == FIRST + timedelta(minutes=10)
    assert table.check_in_due(FIRST + timedelta(minutes=10))
    night.check_in(1, 1, 11)
    night.check_in(1, 1, 12)
    assert table.check_in_due(FIRST)
    table.table_id = 7  # started: check-in is over
    assert not table.checking_in and not table.check_in_due(FIRST + timedelta(hours=1))
    with pytest.raises(LeagueError, match="has started"):
        night.check_in(1, 1, 10)


def test_closing_check_in_marks_every_absentee_at_once():
    lg, night, (table,) = seated([10, 11, 12])
    night.check_in(1, 1, 11)
    night.check_in(1, 1, 12)
    assert lg.close_check_in(1, 1) == [] and table.no_shows == [10] and not table.settled
    lg, night, (table,) = seated([10, 11, 12])
    lg.close_check_in(1, 1)  # nobody came: nobody wins
    assert [(p.user_id, p.won, p.no_show) for p in table.placings] == [(u, False, True) for u in (10, 11, 12)]
    assert night.status is NightStatus.FINISHED
    lg, night, (table,) = seated([10, 11, 12])
    night.check_in(1, 1, 12)
    lg.close_check_in(1, 1)  # only 12 came: a walkover to the member who did
    assert [p.user_id for p in table.placings if p.won] == [12]


def test_an_abandoned_table_places_nobody_and_the_night_goes_on():
    lg, night, (_, second) = seated([10, 11, 12, 13], seats_per_table=2)
    night.check_in(1, 1, 10)
    lg.close_check_in(1, 1)  # 13 never came: 10 wins the walkover
    assert lg.abandon_table(1, 2) == [] and night.status is NightStatus.FINISHED
    assert [(p.user_id, p.position, p.points) for p in second.placings] == [(11, None, 0), (12, None, 0)]
    with pytest.raises(LeagueError, match="No league night is being played"):
        lg.abandon_table(1, 2)


def test_an_admin_cancel_opens_the_next_slot():
    lg = signed_up([10, 11])
    night = lg.cancel_night(MONDAY, "Holi")
    assert night.status is NightStatus.CANCELLED and night.note == "Holi"
    assert lg.next_night.number == 2 and lg.next_night.starts_at == utc(2026, 3, 27, 20)
    lg.end_season(MONDAY)
    with pytest.raises(LeagueError, match="no night waiting"):
        lg.cancel_night(MONDAY, "again")
