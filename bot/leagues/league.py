"""A league: its settings, its seasons, and the one upcoming night the scheduler waits for.

The league keeps exactly one upcoming night per active season. It is created as soon as the
previous one is over (finished, cancelled or missed), so members can sign up a week ahead and
the stored start time is all a restarted scheduler needs: `wake(now)` turns the outage into a
decision (`schedule.catch_up`) and applies it, and `start_night(now)` seats the night.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot.engine.formats import Family, Format
from bot.engine.match import Match
from bot.engine.rules import Rules
from bot.leagues.league_error import LeagueError, SeatingError
from bot.leagues.night import BEFORE_SEATING, Night, NightStatus, NightTable
from bot.leagues.points import PointsTable
from bot.leagues.schedule import (
    DEFAULT_GRACE,
    DEFAULT_REMINDERS,
    CatchUp,
    Schedule,
    as_utc,
    catch_up,
    zone,
)
from bot.leagues.season import Season
from bot.leagues.seating import MIN_TABLE

MAX_NAME = 50
MAX_ROUNDS = 5
POOL_FORMATS = tuple(f.value for f in Format if f.spec.family is Family.POOL)
DEFAULT_RULES = "standard"  # what a league stored before leagues chose their rules plays


def league_rules(preset: str, seats_per_table: int) -> Rules:
    """The rules a season plays, refused (with the reason) when they cannot seat its tables."""
    if preset not in Rules.PRESET_NAMES:
        raise LeagueError(
            "There is no rules preset '{name}'. Presets: {names}.",
            name=preset,
            names=", ".join(Rules.PRESET_NAMES),
        )
    rules = Rules.PRESETS[preset]
    if not MIN_TABLE <= seats_per_table <= rules.max_players:
        raise SeatingError(
            "A table on the {preset} rules seats {least} to {most} players, not {size}.",
            preset=preset,
            least=MIN_TABLE,
            most=rules.max_players,
            size=seats_per_table,
        )
    return rules


@dataclass
class League:
    guild_id: int
    name: str
    format: Format
    schedule: Schedule
    timezone: str
    seats_per_table: int
    rounds_per_night: int = 1
    channel_id: int | None = None
    rules: str = DEFAULT_RULES  # the preset the next season starts with; a season keeps its own
    points_table: PointsTable = field(default_factory=PointsTable)
    reminder_offsets: tuple[timedelta, ...] = DEFAULT_REMINDERS
    grace: timedelta = DEFAULT_GRACE
    seasons: list[Season] = field(default_factory=list)

    @classmethod
    def create(
        cls,
        guild_id: int,
        name: str,
        format: str,
        schedule: str,
        timezone: str,
        seats_per_table: int,
        rounds_per_night: int = 1,
        channel_id: int | None = None,
        rules: str = DEFAULT_RULES,
    ) -> League:
        """`/league-admin create`, every argument checked with a reason the admin can act on."""
        name = " ".join(name.split())
        if not 1 <= len(name) <= MAX_NAME:
            raise LeagueError("A league name has 1 to {most} characters.", most=MAX_NAME)
        if format not in POOL_FORMATS:
            raise LeagueError("Leagues play Pool: choose {formats}.", formats=", ".join(POOL_FORMATS))
        zone(timezone)
        league_rules(rules, seats_per_table)
        if not 1 <= rounds_per_night <= MAX_ROUNDS:
            raise LeagueError("A night has 1 to {most} rounds.", most=MAX_ROUNDS)
        return cls(
            guild_id,
            name,
            Format(format),
            Schedule.parse(schedule),
            timezone.strip(),
            seats_per_table,
            rounds_per_night,
            channel_id,
            rules,
        )

    # ----------------------------------------------------------------- seasons

    @property
    def season(self) -> Season | None:
        """The active season, if any."""
        return self.seasons[-1] if self.seasons and self.seasons[-1].active else None

    def active_season(self) -> Season:
        if self.season is None:
            raise LeagueError("{league} has no season running; an admin can start one.", league=self.name)
        return self.season

    def start_season(
        self, now: datetime, rules: str | None = None, seats_per_table: int | None = None
    ) -> Season:
        """A new season, on new rules or table sizes if given: rules are fixed for a season, so
        this is where they change."""
        if self.season is not None:
            raise LeagueError("Season {number} is still running; end it first.", number=self.season.number)
        rules, seats = rules or self.rules, seats_per_table or self.seats_per_table
        played = league_rules(rules, seats)
        self.rules, self.seats_per_table = rules, seats
        now = as_utc(now)
        first, anchored = self.schedule.first_night(now, self.timezone)
        if self.schedule.anchor is None:
            self.schedule = anchored  # an every-N-weeks league keeps the rhythm of its first night
        season = Season(len(self.seasons) + 1, now, rules=played)
        self.seasons.append(season)
        self._add_night(season, first)
        return season

    def end_season(self, now: datetime) -> Season:
        """Ends the season; a night not yet seated is cancelled, a night in play must finish first."""
        season = self.active_season()
        if any(night.status is NightStatus.RUNNING for night in season.nights):
            raise LeagueError(
                "A night is being played: end the season after it (a stuck table can be abandoned)."
            )
        for night in season.nights:
            if night.status in BEFORE_SEATING:
                night.cancel("The season ended.")
        season.ended_at = as_utc(now)
        return season

    # ----------------------------------------------------------------- the upcoming night

    @property
    def table_rules(self) -> Rules:
        """The rules the running season's tables play."""
        return self.active_season().rules

    @property
    def next_night(self) -> Night | None:
        """The night the scheduler waits for (not yet seated)."""
        season = self.season
        if season is None:
            return None
        return next((n for n in reversed(season.nights) if n.status in BEFORE_SEATING), None)

    @property
    def running_night(self) -> Night | None:
        season = self.season
        if season is None:
            return None
        return next((n for n in season.nights if n.status is NightStatus.RUNNING), None)

    def wake(self, now: datetime) -> CatchUp | None:
        """Applies the scheduler's decision at `now` (after a restart or any wake-up).

        Skipped reminders are recorded as sent so they never go out late; a missed night is
        marked and the following one scheduled. "start" is left to `start_night`, which needs
        the caller to be ready to open threads.
        """
        night = self.next_night
        if night is None:
            return None
        decision = catch_up(
            now,
            night.starts_at,
            self.grace,
            schedule=self.schedule,
            tz_name=self.timezone,
            offsets=self.reminder_offsets,
            sent=frozenset(night.reminders_sent),
        )
        night.reminders_sent += [r.key for r in decision.skipped]
        if decision.action == "missed":
            night.miss()
            self._add_night(self.active_season(), decision.next_start)
        return decision

    def reminder_sent(self, key: str) -> None:
        night = self.next_night
        if night is not None and key not in night.reminders_sent:
            night.reminders_sent.append(key)

    def start_night(self, now: datetime) -> list[NightTable]:
        """Seats the upcoming night once its time has come.

        With fewer than two players the night is cancelled with that reason and the next one
        scheduled, rather than raising: at the start time nobody is there to read an error.
        """
        night = self.next_night
        if night is None:
            raise LeagueError("No night is waiting to start.")
        if as_utc(now) < night.starts_at:
            raise LeagueError("This night's start time has not come yet.")
        if len(night.signups) < 2:
            night.cancel(f"Not enough players signed up ({len(night.signups)}); a night needs 2.")
            self._schedule_after(night, now)
            return []
        return night.seat(self.active_season().points(), self.seats_per_table)

    def settle_table(
        self, round_number: int, number: int, match: Match, match_seats: list[int] | None = None
    ) -> list[NightTable]:
        """Records a finished table; returns the next round's tables once the round is complete."""
        night = self._running()
        if match.format is not self.format:
            raise LeagueError("This league plays {format}.", format=self.format.spec.title)
        night.settle(round_number, number, match, self.points_table, match_seats)
        return self._advance(night)

    def mark_no_show(self, round_number: int, number: int, user: int) -> list[NightTable]:
        night = self._running()
        night.mark_no_show(round_number, number, user, self.points_table)
        return self._advance(night)

    def close_check_in(self, round_number: int, number: int) -> list[NightTable]:
        """Ends a table's check-in (see `Night.close_check_in`); a walkover may end the round."""
        night = self._running()
        night.close_check_in(round_number, number, self.points_table)
        return self._advance(night)

    def abandon_table(self, round_number: int, number: int, reason: str = "") -> list[NightTable]:
        night = self._running()
        night.abandon(round_number, number, self.points_table, reason)
        return self._advance(night)

    def cancel_night(self, now: datetime, reason: str) -> Night:
        """An admin's cancel of the upcoming night; the schedule's next slot opens in its place."""
        night = self.next_night
        if night is None:
            raise LeagueError("{league} has no night waiting to be played.", league=self.name)
        night.cancel(reason)
        self._schedule_after(night, now)
        return night

    def _advance(self, night: Night) -> list[NightTable]:
        if not night.round_settled():
            return []
        season = self.active_season()
        tables = night.next_round(season.points(), self.seats_per_table)
        if night.status is NightStatus.FINISHED:
            self._schedule_after(night, night.starts_at)
        return tables

    def _running(self) -> Night:
        night = self.running_night
        if night is None:
            raise LeagueError("No league night is being played.")
        return night

    def _schedule_after(self, night: Night, now: datetime) -> None:
        """The next night fills the schedule's next slot after this one's (a postponed night
        keeps its regular slot, so postponing does not shift the weeks that follow)."""
        after = max(night.slot, as_utc(now))
        self._add_night(self.active_season(), self.schedule.next_after(after, self.timezone))

    def _add_night(self, season: Season, start: datetime) -> Night:
        night = Night(len(season.nights) + 1, start, rounds=self.rounds_per_night)
        season.nights.append(night)
        return night

    # ----------------------------------------------------------------- storage

    def to_json(self) -> dict[str, Any]:
        return {
            "guild_id": self.guild_id,
            "name": self.name,
            "format": self.format.value,
            "schedule": self.schedule.to_json(),
            "timezone": self.timezone,
            "seats_per_table": self.seats_per_table,
            "rounds_per_night": self.rounds_per_night,
            "channel_id": self.channel_id,
            "rules": self.rules,
            "points_table": self.points_table.to_json(),
            "reminder_offsets": [offset.total_seconds() for offset in self.reminder_offsets],
            "grace": self.grace.total_seconds(),
            "seasons": [season.to_json() for season in self.seasons],
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> League:
        return cls(
            guild_id=raw["guild_id"],
            name=raw["name"],
            format=Format(raw["format"]),
            schedule=Schedule.from_json(raw["schedule"]),
            timezone=raw["timezone"],
            seats_per_table=raw["seats_per_table"],
            rounds_per_night=raw["rounds_per_night"],
            channel_id=raw["channel_id"],
            rules=raw.get("rules", DEFAULT_RULES),
            points_table=PointsTable.from_json(raw["points_table"]),
            reminder_offsets=tuple(timedelta(seconds=s) for s in raw["reminder_offsets"]),
            grace=timedelta(seconds=raw["grace"]),
            seasons=[Season.from_json(season) for season in raw["seasons"]],
        )
