"""League points for a finished pool table, and how season standings break ties.

The default points table is 1st 10, 2nd 6, 3rd 4, 4th 3, 5th 2, 6th 1. It is deliberately not
scaled by table size: seating keeps a night's tables within one player of each other, so the only
difference is at the bottom (last of four gets 3, last of five gets 2), while winning a table is
worth the same everywhere, which is what players compare. Scaling would make points fractional
and the table harder to explain on a server. A league may set its own table.

Finishing order comes from the match itself: the winner first; everyone else by when they went
out, later being better (a replay of the match's command log gives the exact order, since a
pool's state keeps only who is out, not when). Players out in the same deal are ordered by their
final pool score, lower being better; equal scores share the position. Leaving the table counts
as going out in the deal being played (between deals: the next one), before anyone eliminated
at the end of that deal. A split pool (the last two or three agree to
share it) puts the sharers in the top positions and divides those positions' points between them
in proportion to their shares, as the prize is divided in the apps.

Points stay whole numbers: shared points are divided by largest remainder, the odd point going to
the larger share, then to the lower user id, so the sum of a table's points never changes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from bot.engine.commands import Leave
from bot.engine.events import Eliminated, Rejoined
from bot.engine.formats import Family
from bot.engine.match import Match, MatchPhase
from bot.leagues.league_error import LeagueError

DEFAULT_POINTS: tuple[int, ...] = (10, 6, 4, 3, 2, 1)


@dataclass(frozen=True)
class PointsTable:
    """League points by finishing position (1st first); positions beyond the table score 0."""

    by_position: tuple[int, ...] = DEFAULT_POINTS
    no_show: int = 0

    def __post_init__(self) -> None:
        values = self.by_position
        if not values or any(v < 0 for v in values) or any(a < b for a, b in pairwise(values)):
            raise LeagueError("League points must be whole numbers of 0 or more, never rising with position.")

    def for_position(self, position: int) -> int:
        return self.by_position[position - 1] if 1 <= position <= len(self.by_position) else 0

    def to_json(self) -> dict[str, Any]:
        return {"by_position": list(self.by_position), "no_show": self.no_show}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> PointsTable:
        return cls(tuple(raw["by_position"]), raw.get("no_show", 0))


@dataclass(frozen=True)
class Placing:
    """One member's result at one table: position None and `no_show` for a member who never came."""

    user_id: int
    position: int | None
    points: int
    won: bool = False
    pool_score: int = 0  # the final pool score: the points this member conceded
    no_show: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "position": self.position,
            "points": self.points,
            "won": self.won,
            "pool_score": self.pool_score,
            "no_show": self.no_show,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Placing:
        return cls(
            raw["user_id"], raw["position"], raw["points"], raw["won"], raw["pool_score"], raw["no_show"]
        )


# --------------------------------------------------------------------- finishing order


def finishing_order(match: Match) -> list[tuple[int, ...]]:
    """Seats grouped best first; a group of more than one shares its positions."""
    if match.spec.family is not Family.POOL:
        raise LeagueError("League nights play Pool rummy; this table played another format.")
    if match.phase is not MatchPhase.OVER:
        raise LeagueError("This table's pool is still being played.")
    groups: list[tuple[int, ...]] = []
    if match.shares:
        by_share = sorted(match.shares, key=lambda seat: (-match.shares[seat], seat))
        groups += _group(by_share, lambda seat: match.shares[seat])
    elif match.winner is not None:
        groups.append((match.winner,))
    placed = {seat for group in groups for seat in group}
    moments = _out_moments(match)
    rest = [seat for seat in range(match.players) if seat not in placed]

    def key(seat: int) -> tuple[int, int, int]:
        deal, kind = moments.get(seat, (len(match.finished_deals) + 1, 2))
        return (-deal, -kind, match.standings[seat])

    rest.sort(key=lambda seat: (*key(seat), seat))
    return groups + _group(rest, key)


def _group(seats: Sequence[int], key: Any) -> list[tuple[int, ...]]:
    groups: list[list[int]] = []
    for seat in seats:
        if groups and key(groups[-1][0]) == key(seat):
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return [tuple(group) for group in groups]


def _out_moments(match: Match) -> dict[int, tuple[int, int]]:
    """When each seat that ended out went out: (the deal it went out in, 0 for leaving / 1 eliminated).

    An elimination happens as its deal ends, so it is stamped with the deals finished by then; a
    leave is stamped with the deal in progress (or the next one, between deals), since the leaver
    sat through every deal before it: stamped with the finished count instead, a leave in deal
    k+1 would rank below an elimination at the end of deal k. Replays the log with the recorded
    shuffles, the engine's own way, so the order is the one the table saw; a rejoin forgets the
    earlier elimination.
    """
    replay = match.restarted()
    moments: dict[int, tuple[int, int]] = {}
    for command in match.log:
        if isinstance(command, Leave):
            moments[command.seat] = (len(replay.finished_deals) + 1, 0)
        for event in replay.apply(command):
            if isinstance(event, Eliminated):
                moments[event.seat] = (len(replay.finished_deals), 1)
            elif isinstance(event, Rejoined):
                moments.pop(event.seat, None)
    return moments


# --------------------------------------------------------------------- placings


def table_placings(
    match: Match,
    seats: Sequence[int],
    table: PointsTable = PointsTable(),
    *,
    no_shows: Iterable[int] = (),
) -> list[Placing]:
    """Each member's placing at a finished table; `seats` maps the match's seats to user ids.

    A no-show who still held a seat in the match (timed out, or removed once play began) is taken
    out of the order, so the others' positions are among the players who came.
    """
    if len(seats) != match.players:
        raise LeagueError(
            "The table had {count} seats but {members} members were given.",
            count=match.players,
            members=len(seats),
        )
    absent = set(no_shows)
    groups = [tuple(seats[s] for s in group) for group in finishing_order(match)]
    groups = [group for group in (tuple(u for u in g if u not in absent) for g in groups) if group]
    score = {seats[seat]: match.standings[seat] for seat in range(match.players)}
    share = {seats[seat]: value for seat, value in match.shares.items()}
    sharing = [group for group in groups if set(group) <= set(share)]
    if len(sharing) > 1:  # the sharers of a split divide the top positions' points together
        groups = [tuple(u for group in sharing for u in group), *groups[len(sharing) :]]
    placings: list[Placing] = []
    position = 1
    for group in groups:
        group = tuple(sorted(group, key=lambda user: (-share.get(user, 1.0), user)))
        weights = [share.get(user, 1.0) if len(group) > 1 else 1.0 for user in group]
        total = sum(table.for_position(position + offset) for offset in range(len(group)))
        points = _divide(total, weights)
        ranks = _ranks(weights, position)
        for user, got, rank in zip(group, points, ranks, strict=True):
            won = rank == 1 and match.winner is not None and len(group) == 1
            placings.append(Placing(user, rank, got, won, score[user]))
        position += len(group)
    placings += _no_show_placings([u for u in seats if u in absent] + sorted(absent - set(seats)), table)
    return placings


def walkover(player: int, no_shows: Iterable[int], table: PointsTable = PointsTable()) -> list[Placing]:
    """A table left with one player (the rest never came) is settled without a game: a win."""
    return [Placing(player, 1, table.for_position(1), won=True), *_no_show_placings(no_shows, table)]


def _no_show_placings(users: Iterable[int], table: PointsTable) -> list[Placing]:
    return [Placing(user, None, table.no_show, no_show=True) for user in dict.fromkeys(users)]


def _ranks(weights: Sequence[float], first: int) -> list[int]:
    """Competition ranking inside a group: equal weights share the better position."""
    return [first + sum(1 for other in weights if other > weight + 1e-12) for weight in weights]


def _divide(total: int, weights: Sequence[float]) -> list[int]:
    """`total` split by `weights` in whole numbers by largest remainder; earlier entries win ties."""
    whole = sum(weights)
    exact = [total * w / whole for w in weights]
    points = [math.floor(x + 1e-9) for x in exact]
    left = total - sum(points)
    by_remainder = sorted(range(len(weights)), key=lambda i: (-(exact[i] - points[i]), -weights[i], i))
    for index in by_remainder[:left]:
        points[index] += 1
    return points


# --------------------------------------------------------------------- season tie-breaks


@dataclass(frozen=True)
class Tally:
    """A member's season so far, as the tie-breaks need it."""

    user_id: int
    points: int = 0
    wins: int = 0
    positions: tuple[int, ...] = ()  # finishing positions at tables played (no-shows excluded)
    conceded: int = 0  # pool points conceded over the season (final pool scores summed)

    @property
    def average_position(self) -> float:
        return sum(self.positions) / len(self.positions) if self.positions else math.inf

    def add(self, placing: Placing) -> Tally:
        positions = self.positions if placing.position is None else (*self.positions, placing.position)
        return Tally(
            self.user_id,
            self.points + placing.points,
            self.wins + placing.won,
            positions,
            self.conceded + placing.pool_score,
        )


def rank_key(tally: Tally) -> tuple[float, ...]:
    """Season order: points, then wins, then average finishing position, then fewest pool points
    conceded, then user id, so two members are never left in an arbitrary order."""
    return (-tally.points, -tally.wins, tally.average_position, tally.conceded, tally.user_id)


def ranked(tallies: Mapping[int, Tally]) -> list[Tally]:
    return sorted(tallies.values(), key=rank_key)
