"""Scheduled pool-rummy leagues: the pure core (schedules, seating, league points, seasons).

Like the engine, nothing here touches Discord, the database or asyncio: every function takes the
current instant as an argument, so the scheduler's restart decisions and the DST arithmetic are
tested with a fixed clock, and the persistence and Discord layers stay thin wrappers.

`schedule` (when nights are, reminders, the restart decision), `seating` (tables for a night),
`points` (league points from a finished pool `Match`, season tie-breaks), `night` (one night's
sign-ups, tables and results), `season` (standings and adjustments)
and `league` (settings, seasons and the one upcoming night). Every model has `to_json` /
`from_json`, with times as UTC ISO strings.
"""

from bot.leagues.league import League
from bot.leagues.league_error import LeagueError, ScheduleError, SeatingError
from bot.leagues.night import Night, NightStatus, NightTable
from bot.leagues.points import DEFAULT_POINTS, Placing, PointsTable, finishing_order, table_placings
from bot.leagues.schedule import CatchUp, Reminder, Schedule, catch_up, reminders
from bot.leagues.season import Adjustment, Season, StandingLine
from bot.leagues.seating import seat_tables

__all__ = [
    "DEFAULT_POINTS",
    "Adjustment",
    "CatchUp",
    "League",
    "LeagueError",
    "Night",
    "NightStatus",
    "NightTable",
    "Placing",
    "PointsTable",
    "Reminder",
    "Schedule",
    "ScheduleError",
    "Season",
    "SeatingError",
    "StandingLine",
    "catch_up",
    "finishing_order",
    "reminders",
    "seat_tables",
    "table_placings",
]
