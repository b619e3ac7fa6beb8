"""What front ends read of a table: frozen views, never the service's live objects.

The service keeps its tables (`LiveTable`: the stored row, the live `Match`, the lock) to itself.
After every change it saves, it makes the table's `TableView` anew, so a view is always a state
that was saved (never a move still being written) and stays as it was while the table plays on:
a front end may keep one, compare two, or draw from one later. A view shows what anyone at the
table may see; a seat's own cards come only as its `HandView`, which the service builds for that
seat alone (`TableService.hand`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.deal import LegalActions, SeatView
from bot.engine.formats import Format, FormatSpec
from bot.engine.match_view import MatchView
from bot.engine.rules import Rules
from bot.store import TableStatus


@dataclass(frozen=True, slots=True)
class Sitter:
    """Who sits in a seat: a person (their user id), or a computer player (its level)."""

    name: str
    user_id: int | None
    computer: str | None = None  # "easy" or "strong"


@dataclass(frozen=True, slots=True)
class Clock:
    """Whose time is running and until when (the service's clock): `seat` None between deals,
    when the next deal starts at `deadline`; `base` is when the turn's own time ends (its bank
    after)."""

    seat: int | None
    deadline: float
    base: float | None


@dataclass(frozen=True, slots=True)
class TableView:
    id: int
    guild_id: int
    channel_id: int
    league_id: int | None
    host_id: int
    format: Format
    rules: Rules  # the rules it plays with (in the lobby: will play with)
    point_value: int
    max_seats: int
    status: TableStatus
    seats: tuple[Sitter, ...]
    match: MatchView | None  # None in the lobby, and for a table set aside
    clock: Clock | None  # None while no clock runs (a lobby, a closed table)
    turn_token: str | None  # what a button made now carries to prove it is for this turn
    damage: str | None  # why a table set aside cannot play on
    version: int  # grows with every saved change of the table

    @property
    def spec(self) -> FormatSpec:
        return self.format.spec

    @property
    def active(self) -> bool:
        """Open or playing: not finished, not cancelled."""
        return self.status.active

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sitter.name for sitter in self.seats)

    def seat_of(self, user_id: int) -> int | None:
        for seat, sitter in enumerate(self.seats):
            if sitter.user_id == user_id:
                return seat
        return None

    def deadline_for(self, seat: int | None) -> float | None:
        """The deadline of `seat`'s turn (None: between deals), if its time is running now."""
        if self.clock is None or self.clock.seat != seat:
            return None
        return self.clock.deadline

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is in the deal being played, if any."""
        deal = self.match.deal if self.match is not None and self.active else None
        return deal.turn if deal is not None else None

    @property
    def person_to_act(self) -> int | None:
        """The user id of the person whose turn it is (None: a computer player's, or nobody's)."""
        seat = self.to_act
        return self.seats[seat].user_id if seat is not None else None


@dataclass(frozen=True, slots=True)
class HandView:
    """One seat's own view of the deal in progress, for that seat's player alone: its cards
    (`seen.hand`), what it may do now and what that costs, and the turn a button made now is
    for."""

    table_id: int
    seat: int
    seen: SeatView
    legal: LegalActions
    turn_token: str
