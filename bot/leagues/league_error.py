"""League errors are `RummyError`s, so front ends already show their messages to players as is."""

from bot.engine.errors import RummyError


class LeagueError(RummyError):
    """A league command the league's state does not allow (sign-up after seating, ...)."""


class ScheduleError(LeagueError):
    """A schedule or time zone the bot cannot read; the message says what it understands."""


class SeatingError(LeagueError):
    """Too few players, or a table size outside what a pool table can seat."""
