"""A season: its nights, the admins' recorded adjustments, and the standings built from both.

Standings are always recomputed from the nights' placings plus the adjustments, never stored as
running totals, so a corrected result or a changed tie-break rule can never leave a stale total.
An adjustment is a signed delta with who made it, when and why, attached to the night it
corrects, so `/league history` can show it and the standings picture counts it in that night.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.engine.rules import Rules
from bot.leagues.league_error import LeagueError
from bot.leagues.night import Night, NightStatus
from bot.leagues.points import Placing, Tally, ranked
from bot.leagues.schedule import as_utc, from_iso, to_iso

MAX_REASON = 200


@dataclass(frozen=True)
class Adjustment:
    user_id: int
    night: int
    delta: int
    reason: str
    by: int
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "night": self.night,
            "delta": self.delta,
            "reason": self.reason,
            "by": self.by,
            "at": to_iso(self.at),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Adjustment:
        at = from_iso(raw["at"])
        assert at is not None
        return cls(raw["user_id"], raw["night"], raw["delta"], raw["reason"], raw["by"], at)


@dataclass(frozen=True)
class StandingLine:
    """A member's line in the season standings; `per_night` is None for nights they did not play."""

    rank: int
    user_id: int
    points: int
    per_night: tuple[int | None, ...]
    adjusted: tuple[bool, ...]  # per night: an admin's adjustment is part of that night's points
    wins: int
    average_position: float | None
    conceded: int
    played: int
    no_shows: int


@dataclass
class Season:
    number: int
    started_at: datetime
    ended_at: datetime | None = None
    rules: Rules = field(default_factory=Rules)  # fixed for the season: its tables all play them
    nights: list[Night] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return self.ended_at is None

    def night(self, number: int) -> Night:
        for night in self.nights:
            if night.number == number:
                return night
        raise LeagueError("This season has no night {number}.", number=number)

    def finished_nights(self) -> list[Night]:
        return [night for night in self.nights if night.status is NightStatus.FINISHED]

    def counted_nights(self, provisional: bool = False) -> list[Night]:
        """The nights standings count: the finished ones, and with `provisional` the night being
        played too, as far as its settled tables go (what members ask during a night)."""
        nights = self.finished_nights()
        running = next((n for n in self.nights if n.status is NightStatus.RUNNING), None)
        if provisional and running is not None and running.placings():
            nights.append(running)
        return nights

    def colour_order(self) -> dict[int, int]:
        """Each member's place in the order they first played this season (then by id): what a
        picture colours them by, so a member keeps a colour from one picture to the next while
        their rank changes, and members who come later take the next colours."""
        first: dict[int, tuple[int, int]] = {}
        for night in self.nights:
            for placing in night.placings():
                first.setdefault(placing.user_id, (night.number, placing.user_id))
        for adjustment in self.adjustments:
            first.setdefault(adjustment.user_id, (adjustment.night, adjustment.user_id))
        return {user: index for index, user in enumerate(sorted(first, key=first.__getitem__))}

    def adjust(self, user: int, night: int, delta: int, reason: str, by: int, now: datetime) -> Adjustment:
        """Corrects a finished night's result for one member; the reason is required and kept."""
        reason = " ".join(reason.split())
        if not reason:
            raise LeagueError("Give a reason for the adjustment; it is shown in the league history.")
        if len(reason) > MAX_REASON:
            raise LeagueError("Keep the reason under {most} characters.", most=MAX_REASON)
        if delta == 0:
            raise LeagueError("An adjustment of 0 points changes nothing.")
        if self.night(night).status is not NightStatus.FINISHED:
            raise LeagueError("Night {number} has no result to adjust yet.", number=night)
        adjustment = Adjustment(user, night, delta, reason, by, as_utc(now))
        self.adjustments.append(adjustment)
        return adjustment

    # ----------------------------------------------------------------- standings

    def night_points(self, night: Night) -> dict[int, int]:
        """Points per member for a finished night, adjustments included."""
        totals = night.points()
        for adjustment in self.adjustments:
            if adjustment.night == night.number:
                totals[adjustment.user_id] = totals.get(adjustment.user_id, 0) + adjustment.delta
        return totals

    def tallies(self, provisional: bool = False) -> dict[int, Tally]:
        tallies: dict[int, Tally] = {}
        for night in self.counted_nights(provisional):
            for placing in night.placings():
                tally = tallies.get(placing.user_id) or Tally(placing.user_id)
                tallies[placing.user_id] = tally.add(placing)
        for adjustment in self.adjustments:
            tally = tallies.get(adjustment.user_id) or Tally(adjustment.user_id)
            tallies[adjustment.user_id] = tally.add(Placing(adjustment.user_id, None, adjustment.delta))
        return tallies

    def points(self) -> dict[int, int]:
        """Season points per member, what seating balances tables by."""
        return {user: tally.points for user, tally in self.tallies().items()}

    def standings(self, provisional: bool = False) -> list[StandingLine]:
        """Ranked lines; `provisional` counts the night being played so far (see `counted_nights`)."""
        nights = self.counted_nights(provisional)
        per_night = [self.night_points(night) for night in nights]
        adjusted = {(a.user_id, a.night) for a in self.adjustments}
        lines = []
        for rank, tally in enumerate(ranked(self.tallies(provisional)), start=1):
            user = tally.user_id
            placings = [p for night in nights for p in night.placings() if p.user_id == user]
            lines.append(
                StandingLine(
                    rank=rank,
                    user_id=user,
                    points=tally.points,
                    per_night=tuple(points.get(user) for points in per_night),
                    adjusted=tuple((user, night.number) in adjusted for night in nights),
                    wins=tally.wins,
                    average_position=None if not tally.positions else tally.average_position,
                    conceded=tally.conceded,
                    played=sum(1 for night in nights if any(p.user_id == user for p in night.placings())),
                    no_shows=sum(1 for p in placings if p.no_show),
                )
            )
        return lines

    def history(self, user: int) -> list[tuple[Night, list[Placing], list[Adjustment]]]:
        """A member's nights this season, for `/league me`: placings and adjustments per night."""
        out = []
        for night in self.finished_nights():
            placings = [p for p in night.placings() if p.user_id == user]
            adjustments = [a for a in self.adjustments if a.user_id == user and a.night == night.number]
            if placings or adjustments:
                out.append((night, placings, adjustments))
        return out

    # ----------------------------------------------------------------- storage

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "started_at": to_iso(self.started_at),
            "ended_at": to_iso(self.ended_at),
            "nights": [night.to_json() for night in self.nights],
            "adjustments": [adjustment.to_json() for adjustment in self.adjustments],
            "rules": self.rules.to_json(),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Season:
        started_at = from_iso(raw["started_at"])
        assert started_at is not None
        return cls(
            number=raw["number"],
            started_at=started_at,
            ended_at=from_iso(raw["ended_at"]),
            nights=[Night.from_json(night) for night in raw["nights"]],
            adjustments=[Adjustment.from_json(a) for a in raw["adjustments"]],
            # A season stored before leagues chose their rules played the defaults.
            rules=Rules.from_json(raw["rules"]) if "rules" in raw else Rules(),
        )
