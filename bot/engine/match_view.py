"""A match as anyone at the table may see it, frozen: what front ends read instead of the live
`Match`, which only the service changes (under its table's lock).

`match_view` copies what it shows into tuples, so a view stays as it was when it was made while
the match plays on: a front end may keep it, hand it to another task or draw from it later. The
deal in progress is seen as a spectator sees it (`Deal.view(None)`: no hand, no deck order); a
seat's own cards are its `SeatView`, which the service hands only to that seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bot.engine.deal import SeatView
from bot.engine.formats import Family, Format, FormatSpec
from bot.engine.history import FinishedDeal
from bot.engine.match import Match, MatchPhase, Standing
from bot.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class MatchView:
    format: Format
    rules: Rules
    players: int
    point_value: int
    phase: MatchPhase
    standings: tuple[int, ...]  # chips (Points, Deals) or scores (Pool), by seat
    seat_status: tuple[Standing, ...]
    rejoined: tuple[bool, ...]
    history: tuple[tuple[int | None, ...], ...]  # points per seat per finished deal
    winners: tuple[int, ...]  # the winner of each finished deal
    finished_deals: tuple[FinishedDeal, ...]  # each finished deal, revealed whole
    winner: int | None  # the match's, once it is over (None for a shared pool)
    shares: Mapping[int, float]  # a shared pool: seat -> its share
    tie_break: tuple[int, ...]  # Deals: the seats still tied after the last deal
    split_votes: tuple[int, ...]
    rejoinable: tuple[int, ...]  # Pool: the seats that may rejoin now
    drops_remaining: tuple[int, ...]  # Pool: first drops each score can still take
    can_split: bool
    deal: SeatView | None  # the deal in progress as a spectator sees it
    deal_number: int  # the deal in progress, else the last one finished (0 before the first)
    commitment: str | None  # the deal in progress's shuffle commitment
    clock_seconds: int | None  # what the clock now running gives (the turn's, pick's or discard's)

    @property
    def spec(self) -> FormatSpec:
        return self.format.spec

    def remaining(self) -> tuple[int, ...]:
        """The seats still in the match."""
        return tuple(seat for seat, status in enumerate(self.seat_status) if status is Standing.IN)


def match_view(match: Match) -> MatchView:
    deal = match.deal
    pool = match.format.spec.family is Family.POOL
    return MatchView(
        format=match.format,
        rules=match.rules,
        players=match.players,
        point_value=match.point_value,
        phase=match.phase,
        standings=tuple(match.standings),
        seat_status=tuple(match.seat_status),
        rejoined=tuple(match.rejoined),
        history=tuple(tuple(points) for points in match.history),
        winners=tuple(match.winners),
        finished_deals=tuple(match.finished_deals),
        winner=match.winner,
        shares=MappingProxyType(dict(match.shares)),
        tie_break=tuple(match.tie_break),
        split_votes=tuple(match.split_votes),
        rejoinable=tuple(seat for seat in range(match.players) if match.can_rejoin(seat)),
        drops_remaining=tuple(match.drops_remaining(seat) if pool else 0 for seat in range(match.players)),
        can_split=match.can_split(),
        deal=deal.view(None) if deal is not None else None,
        deal_number=len(match.finished_deals) + (1 if deal is not None else 0),
        commitment=deal.commitment if deal is not None else None,
        clock_seconds=deal.clock_seconds if deal is not None else None,
    )
