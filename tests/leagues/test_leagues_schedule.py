"""League schedules: parsing, DST-correct nights, reminders and the restart decision (fixed clock)."""

import json
import random
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.engine import RummyError
from bot.leagues.schedule import (
    DEFAULT_GRACE,
    Reminder,
    Schedule,
    ScheduleError,
    catch_up,
    discord_timestamp,
    local_instant,
    reminders,
    zone,
)


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def nights(schedule: Schedule, tz: str, after: datetime, count: int) -> list[datetime]:
    out = []
    for _ in range(count):
        after = schedule.next_after(after, tz)
        out.append(after)
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("every Friday 20:00", Schedule(4, 20, 0)),
        ("every monday 7:30pm", Schedule(0, 19, 30)),
        ("every 2 weeks on Sunday 18:00", Schedule(6, 18, 0, 2)),
        ("  Every   FRIDAY at 8pm ", Schedule(4, 20, 0)),
        ("every fridays 8 pm", Schedule(4, 20, 0)),
        ("every other Sat 12am", Schedule(5, 0, 0, 2)),
        ("every week on tue 12:05pm", Schedule(1, 12, 5)),
        ("every 1 week on thursday 09:15", Schedule(3, 9, 15)),
    ],
)
def test_schedules_players_write_are_read(text, expected):
    assert Schedule.parse(text) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("fridays at 8pm", "can't read"),
        ("every day 20:00", "not a day of the week"),
        ("every t 20:00", "not a day of the week"),
        ("every friday 25:00", "not a time of day"),
        ("every friday 20:75", "not a time of day"),
        ("every friday 13pm", "not a time of day"),
        ("every friday 20", "as 20:00 or 8pm"),
        ("every 10 weeks on monday 20:00", "every 1 to 8 weeks"),
        ("every 0 weeks on monday 20:00", "every 1 to 8 weeks"),
        ("every friday and saturday 20:00", "can't read"),
        ("", "can't read"),
    ],
)
def test_anything_else_is_refused_with_a_player_readable_reason(text, reason):
    with pytest.raises(ScheduleError, match=reason) as caught:
        Schedule.parse(text)
    assert isinstance(caught.value, RummyError)


def test_unknown_time_zones_are_refused_with_examples():
    with pytest.raises(ScheduleError, match="Europe/London"):
        zone("Mars/Olympus_Mons")
    with pytest.raises(ScheduleError):
        zone("../etc/passwd")
    with pytest.raises(ScheduleError):
        Schedule(4, 20).next_after(utc(2026, 1, 1), "Not/AZone")


def test_naive_datetimes_are_a_bug_not_a_guess():
    with pytest.raises(ValueError, match="timezone-aware"):
        Schedule(4, 20).next_after(datetime(2026, 1, 1), "Europe/London")


def test_london_friday_eight_pm_stays_eight_pm_local_across_both_changes():
    friday = Schedule.parse("every Friday 20:00")
    # BST starts Sunday 29 March 2026 and ends Sunday 25 October 2026.
    assert nights(friday, "Europe/London", utc(2026, 3, 16), 3) == [
        utc(2026, 3, 20, 20),
        utc(2026, 3, 27, 20),
        utc(2026, 4, 3, 19),
    ]
    autumn = [utc(2026, 10, 23, 19), utc(2026, 10, 30, 20)]
    assert nights(friday, "Europe/London", utc(2026, 10, 17), 2) == autumn
    london = ZoneInfo("Europe/London")
    for start in nights(friday, "Europe/London", utc(2026, 1, 1), 53):
        local = start.astimezone(london)
        assert (local.weekday(), local.hour, local.minute) == (4, 20, 0)


def test_new_york_friday_eight_pm_across_march_and_november():
    friday = Schedule.parse("every friday 8pm")
    # EDT starts Sunday 8 March 2026 and ends Sunday 1 November 2026.
    assert nights(friday, "America/New_York", utc(2026, 3, 1), 2) == [utc(2026, 3, 7, 1), utc(2026, 3, 14, 0)]
    autumn = [utc(2026, 10, 31, 0), utc(2026, 11, 7, 1)]
    assert nights(friday, "America/New_York", utc(2026, 10, 25), 2) == autumn


def test_a_time_in_the_spring_forward_gap_moves_forward_by_the_gap():
    sunday = Schedule.parse("every Sunday 2:30am")
    first, second = nights(sunday, "America/New_York", utc(2026, 3, 2), 2)
    assert first == utc(2026, 3, 8, 7, 30)  # 02:30 does not exist that night: 03:30 EDT
    assert first.astimezone(ZoneInfo("America/New_York")).strftime("%H:%M") == "03:30"
    assert second == utc(2026, 3, 15, 6, 30)  # back to 02:30, now EDT
    london = Schedule.parse("every sunday 1:30am")
    assert london.next_after(utc(2026, 3, 23), "Europe/London") == utc(2026, 3, 29, 1, 30)  # 02:30 BST


def test_an_hour_that_happens_twice_takes_the_first():
    sunday = Schedule.parse("every Sunday 1:30am")
    assert sunday.next_after(utc(2026, 10, 26), "America/New_York") == utc(2026, 11, 1, 5, 30)  # EDT, not EST
    assert sunday.next_after(utc(2026, 10, 19), "Europe/London") == utc(2026, 10, 25, 0, 30)  # BST, not GMT


def test_kolkata_has_no_dst_so_the_utc_instant_never_moves():
    friday = Schedule.parse("every Friday 20:00")
    for start in nights(friday, "Asia/Kolkata", utc(2026, 1, 1), 52):
        assert (start.hour, start.minute) == (14, 30)


def test_the_next_night_is_strictly_after_the_instant_given():
    friday = Schedule.parse("every Friday 20:00")
    start = utc(2026, 3, 20, 20)
    assert friday.next_after(start - timedelta(seconds=1), "Europe/London") == start
    assert friday.next_after(start, "Europe/London") == utc(2026, 3, 27, 20)
    # Late on Friday in UTC but already Saturday in Kolkata: the next Friday is a week on.
    assert friday.next_after(utc(2026, 3, 20, 20), "Asia/Kolkata") == utc(2026, 3, 27, 14, 30)


def test_every_two_weeks_keeps_the_rhythm_of_its_first_night_across_dst():
    fortnightly = Schedule.parse("every 2 weeks on Sunday 18:00")
    first, anchored = fortnightly.first_night(utc(2026, 3, 2), "Europe/London")
    assert first == utc(2026, 3, 8, 18) and anchored.anchor == date(2026, 3, 8)
    following = nights(anchored, "Europe/London", first, 3)
    assert following == [utc(2026, 3, 22, 18), utc(2026, 4, 5, 17), utc(2026, 4, 19, 17)]
    # Asking from the middle of an off week still lands on the rhythm.
    assert anchored.next_after(utc(2026, 3, 10), "Europe/London") == utc(2026, 3, 22, 18)
    with pytest.raises(ScheduleError, match="not a Sunday"):
        fortnightly.anchored(date(2026, 3, 9))


def test_schedules_describe_themselves_and_round_trip():
    fortnightly = Schedule.parse("every 2 weeks on Sunday 6pm").anchored(date(2026, 3, 8))
    assert fortnightly.describe() == "every 2 weeks on Sunday at 18:00"
    assert Schedule.parse("every friday 20:00").describe() == "every Friday at 20:00"
    for schedule in (fortnightly, Schedule.parse("every monday 7:30pm")):
        assert Schedule.from_json(json.loads(json.dumps(schedule.to_json()))) == schedule


def test_reminders_are_24_hours_and_15_minutes_before_as_utc_instants():
    # 20:00 BST on the Sunday the clocks go forward: 24 real hours before is 19:00 GMT on Saturday.
    start = utc(2026, 3, 29, 19)
    day, quarter = reminders(start)
    assert (day.key, day.at) == ("24h", utc(2026, 3, 28, 19))
    assert (quarter.key, quarter.at) == ("15m", utc(2026, 3, 29, 18, 45))
    custom = reminders(start, (timedelta(minutes=90), timedelta(hours=2)))
    assert [r.key for r in custom] == ["2h", "90m"]
    assert Reminder.from_json(json.loads(json.dumps(day.to_json()))) == day


def test_discord_timestamps_carry_the_utc_instant():
    assert discord_timestamp(utc(2026, 3, 20, 20)) == "<t:1774036800:F>"
    assert discord_timestamp(utc(2026, 3, 20, 20), "R") == "<t:1774036800:R>"


# --------------------------------------------------------------------- restarts, with a fixed clock

FRIDAY = Schedule.parse("every Friday 20:00")
NIGHT = utc(2026, 3, 20, 20)


def wake(now: datetime, sent=frozenset(), stored=NIGHT, grace=DEFAULT_GRACE):
    return catch_up(now, stored, grace, schedule=FRIDAY, tz_name="Europe/London", sent=sent)


def test_before_the_night_every_reminder_still_ahead_is_pending():
    decision = wake(NIGHT - timedelta(days=2))
    assert decision.action == "wait" and decision.next_start == NIGHT
    assert [r.key for r in decision.pending] == ["24h", "15m"] and decision.skipped == ()


def test_reminders_that_fell_due_while_down_are_skipped_not_sent_late():
    decision = wake(NIGHT - timedelta(hours=1))
    assert decision.action == "wait"
    assert [r.key for r in decision.pending] == ["15m"]
    assert [r.key for r in decision.skipped] == ["24h"]
    assert wake(NIGHT - timedelta(hours=1), sent=frozenset({"24h"})).skipped == ()
    on_time = wake(NIGHT - timedelta(minutes=15))
    assert [r.key for r in on_time.pending] == ["15m"]  # due exactly now: still sent


def test_a_night_whose_start_passed_within_the_grace_starts_now():
    for late in (timedelta(0), timedelta(minutes=10), DEFAULT_GRACE):
        decision = wake(NIGHT + late)
        assert decision.action == "start" and decision.night == NIGHT
        assert [r.key for r in decision.skipped] == ["24h", "15m"] and decision.pending == ()
    assert wake(NIGHT + timedelta(hours=2), grace=timedelta(hours=3)).action == "start"


def test_past_the_grace_the_night_is_missed_and_the_following_one_scheduled():
    decision = wake(NIGHT + DEFAULT_GRACE + timedelta(seconds=1), sent=frozenset({"24h", "15m"}))
    assert decision.action == "missed" and decision.night == NIGHT
    assert decision.next_start == utc(2026, 3, 27, 20) and decision.skipped == ()
    assert [r.at for r in decision.pending] == [utc(2026, 3, 26, 20), utc(2026, 3, 27, 19, 45)]


def test_a_long_outage_schedules_the_next_night_after_now_not_after_the_missed_one():
    now = utc(2026, 4, 9, 20)  # three weeks later, across the change to BST
    decision = wake(now)
    assert decision.action == "missed" and decision.next_start == utc(2026, 4, 10, 19)
    assert [r.key for r in decision.pending] == ["15m"]  # the 24 h reminder was due an hour before now


ZONES = [  # half-hour DST (Lord Howe), midnight changes (Santiago), a 45-minute offset (Kathmandu)
    "Europe/London",
    "America/New_York",
    "Australia/Sydney",
    "Australia/Lord_Howe",
    "Asia/Kathmandu",
    "America/Santiago",
]


@pytest.mark.parametrize("tz", ZONES)
def test_next_night_is_the_first_slot_after_any_instant_in_any_zone(tz):
    """Random instants over two years (seeded): the night found is the schedule's next slot, never
    more than a week away, on the right local day, at the right local time unless that time did not
    exist that day (then it is later by the gap, at most an hour)."""
    rng = random.Random(tz)
    local = ZoneInfo(tz)
    for text in ("every Sunday 2:15am", "every Friday 20:00", "every Saturday 0:00"):
        schedule = Schedule.parse(text)
        for _ in range(150):
            after = utc(2026, 1, 1) + timedelta(seconds=rng.randrange(2 * 365 * 24 * 3600))
            start = schedule.next_after(after, tz)
            assert after < start <= after + timedelta(days=7, hours=1)
            day = start.astimezone(local)
            wall = datetime.combine(day.date(), schedule.time)
            assert day.weekday() == schedule.weekday
            assert timedelta(0) <= day.replace(tzinfo=None) - wall <= timedelta(hours=1)
            week_before = local_instant(day.date() - timedelta(days=7), schedule.time, local)
            assert week_before <= after
