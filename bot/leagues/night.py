"""One league night: sign-ups, seating, the tables of each round and their results.

A night moves scheduled → signup (its Discord event is out) → running (seated) → finished; before
seating an admin may postpone it (it keeps its sign-ups and reopens its reminders) or cancel it,
and a night whose start passed while the bot was down too long is missed. Every change is checked
against the status here, once, so the service and Discord layers cannot seat a cancelled night or
let someone sign up to a night already in play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from bot.engine.marks import N_, Word
from bot.engine.match import Match
from bot.leagues.league_error import LeagueError
from bot.leagues.points import Placing, PointsTable, table_placings, walkover
from bot.leagues.schedule import as_utc, from_iso, to_iso
from bot.leagues.seating import seat_tables


class NightStatus(StrEnum):
    SCHEDULED = "scheduled"
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    POSTPONED = "postponed"
    CANCELLED = "cancelled"
    MISSED = "missed"


BEFORE_SEATING = frozenset({NightStatus.SCHEDULED, NightStatus.SIGNUP, NightStatus.POSTPONED})
SIGNUP_OPEN = frozenset({NightStatus.SIGNUP, NightStatus.POSTPONED})


@dataclass
class NightTable:
    """A table of one round; `seats` as seated, `no_shows` those of them who never came.

    Check-in: once the table's channel is open (`thread_id`), members say they are here until
    `check_in_until`; whoever has not by then is a no-show, so a table never waits on someone
    who forgot the night, and a member who is here is never marked absent.
    """

    round: int
    number: int
    seats: list[int]
    no_shows: list[int] = field(default_factory=list)
    placings: list[Placing] | None = None
    thread_id: int | None = None
    table_id: int | None = None  # the service's table that plays it
    checked_in: list[int] = field(default_factory=list)
    check_in_until: datetime | None = None
    note: str = ""  # why it was abandoned (shown with its result)

    @property
    def settled(self) -> bool:
        return self.placings is not None

    @property
    def present(self) -> list[int]:
        return [user for user in self.seats if user not in self.no_shows]

    @property
    def checking_in(self) -> bool:
        """Its channel is open and it waits for its members (not started, not settled)."""
        return self.thread_id is not None and self.table_id is None and not self.settled

    @property
    def everyone_in(self) -> bool:
        return set(self.seats) <= set(self.checked_in)

    def check_in_due(self, now: datetime) -> bool:
        """Whether the wait is over: everyone is here, or the deadline has come."""
        if not self.checking_in:
            return False
        return self.everyone_in or (self.check_in_until is not None and as_utc(now) >= self.check_in_until)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "number": self.number,
            "seats": list(self.seats),
            "no_shows": list(self.no_shows),
            "placings": None if self.placings is None else [p.to_json() for p in self.placings],
            "thread_id": self.thread_id,
            "table_id": self.table_id,
            "checked_in": list(self.checked_in),
            "check_in_until": to_iso(self.check_in_until),
            "note": self.note,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> NightTable:
        placings = raw["placings"]
        return cls(
            raw["round"],
            raw["number"],
            list(raw["seats"]),
            list(raw["no_shows"]),
            None if placings is None else [Placing.from_json(p) for p in placings],
            raw.get("thread_id"),
            raw.get("table_id"),
            list(raw.get("checked_in", [])),
            from_iso(raw.get("check_in_until")),
            raw.get("note", ""),
        )


@dataclass
class Night:
    number: int
    starts_at: datetime
    status: NightStatus = NightStatus.SCHEDULED
    rounds: int = 1
    signups: list[int] = field(default_factory=list)  # in sign-up order
    tables: list[NightTable] = field(default_factory=list)
    postponed_from: datetime | None = None  # the regular slot, kept across repeated postponements
    note: str = ""  # why it was postponed, cancelled or missed
    event_id: int | None = None  # the Discord scheduled event
    reminders_sent: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.starts_at = as_utc(self.starts_at)

    @property
    def slot(self) -> datetime:
        """The schedule's slot this night fills, so postponing it does not shift the next one."""
        return self.postponed_from or self.starts_at

    @property
    def current_round(self) -> int:
        return max((table.round for table in self.tables), default=0)

    def round_tables(self, number: int | None = None) -> list[NightTable]:
        number = self.current_round if number is None else number
        return [table for table in self.tables if table.round == number]

    def table(self, round_number: int, number: int) -> NightTable:
        for table in self.tables:
            if (table.round, table.number) == (round_number, number):
                return table
        raise LeagueError(
            "Night {night} has no table {number} in round {round}.",
            night=self.number,
            number=number,
            round=round_number,
        )

    def table_of(self, user: int) -> NightTable | None:
        """The member's table in the round being played."""
        return next((table for table in self.round_tables() if user in table.seats), None)

    # ----------------------------------------------------------------- before seating

    def open_signup(self) -> None:
        if self.status is not NightStatus.SCHEDULED:
            raise LeagueError(
                "Sign-up for night {number} is not waiting to open ({status}).",
                number=self.number,
                status=Word(self.status),
            )
        self.status = NightStatus.SIGNUP

    def sign_up(self, user: int, now: datetime) -> None:
        if self.status not in SIGNUP_OPEN:
            raise LeagueError(
                "Sign-up for night {number} is not open ({status}).",
                number=self.number,
                status=Word(self.status),
            )
        if as_utc(now) >= self.starts_at:
            raise LeagueError("This night has already started; sign up for the next one.")
        if user in self.signups:
            raise LeagueError("You are already signed up for this night.")
        self.signups.append(user)

    def leave(self, user: int, now: datetime) -> None:
        """Members may leave until the start; after that only an admin can take them off."""
        if self.status not in BEFORE_SEATING or as_utc(now) >= self.starts_at:
            raise LeagueError("The night has started; ask an admin if you cannot play.")
        if user not in self.signups:
            raise LeagueError("You are not signed up for this night.")
        self.signups.remove(user)

    def add(self, user: int) -> None:
        """An admin's add: allowed until seating, even after the start time or with sign-up closed."""
        self._verify_before_seating(N_("add a player"))
        if user in self.signups:
            raise LeagueError("That member is already signed up.")
        self.signups.append(user)

    def remove(self, user: int) -> None:
        self._verify_before_seating(N_("remove a player"))
        if user not in self.signups:
            raise LeagueError("That member is not signed up for this night.")
        self.signups.remove(user)

    def postpone(self, new_start: datetime, now: datetime, reason: str = "") -> None:
        self._verify_before_seating(N_("postpone it"))
        new_start = as_utc(new_start)
        if new_start <= as_utc(now):
            raise LeagueError("A night can only be postponed to a time still to come.")
        self.postponed_from = self.slot
        self.starts_at = new_start
        self.status = NightStatus.POSTPONED
        self.reminders_sent.clear()  # the new time deserves its own reminders
        self.note = reason

    def cancel(self, reason: str = "") -> None:
        self._verify_before_seating(N_("cancel it"))
        self.status = NightStatus.CANCELLED
        self.note = reason

    def miss(self) -> None:
        self._verify_before_seating(N_("mark it missed"))
        self.status = NightStatus.MISSED
        self.note = "The bot was offline at the start time."

    def _verify_before_seating(self, action: str) -> None:
        if self.status not in BEFORE_SEATING:
            raise LeagueError(
                "Night {number} is {status}; it is too late to {action}.",
                number=self.number,
                status=Word(self.status),
                action=action,
            )

    # ----------------------------------------------------------------- playing

    def seat(self, points: Mapping[int, float], max_size: int) -> list[NightTable]:
        """Seats round 1 from the sign-ups, balanced by season points (see `seating`)."""
        self._verify_before_seating(N_("seat it"))
        tables = self._seat_round(1, self.signups, points, max_size)
        self.status = NightStatus.RUNNING
        return tables

    def _seat_round(
        self, round_number: int, players: Sequence[int], points: Mapping[int, float], max_size: int
    ) -> list[NightTable]:
        seated = seat_tables(players, points, max_size=max_size)
        tables = [NightTable(round_number, index + 1, list(seats)) for index, seats in enumerate(seated)]
        self.tables += tables
        return tables

    def mark_no_show(self, round_number: int, number: int, user: int, points: PointsTable) -> NightTable:
        """A seated member who never came; a table left with one player is settled as a walkover."""
        table = self._unsettled(round_number, number)
        if user not in table.present:
            raise LeagueError("That member is not waiting at this table.")
        table.no_shows.append(user)
        _settle_if_short(table, points)
        return table

    def check_in(self, round_number: int, number: int, user: int) -> NightTable:
        """A member at the table says they are here ("I'm here")."""
        table = self._unsettled(round_number, number)
        if user not in table.seats:
            raise LeagueError("You are not seated at this table.")
        if not table.checking_in:
            raise LeagueError("Table {number} is not waiting for check-in; it has started.", number=number)
        if user in table.checked_in:
            raise LeagueError("You have already checked in.")
        table.checked_in.append(user)
        return table

    def close_check_in(self, round_number: int, number: int, points: PointsTable) -> NightTable:
        """Everyone who has not checked in is a no-show, all at once: marking them one by one
        would hand a walkover to the last absent member of a table nobody came to."""
        table = self._unsettled(round_number, number)
        table.no_shows += [user for user in table.present if user not in table.checked_in]
        _settle_if_short(table, points)
        return table

    def abandon(self, round_number: int, number: int, points: PointsTable, reason: str = "") -> NightTable:
        """A table closed before its match ended (its channel deleted, its match stuck): the
        members who came played without a placing, worth no points, so the night can go on; an
        admin can adjust. `reason` is kept with the table, for its result to say why."""
        table = self._unsettled(round_number, number)
        table.note = reason
        table.placings = [Placing(user, None, 0) for user in table.present] + _no_shows(table, points)
        return table

    def settle(
        self,
        round_number: int,
        number: int,
        match: Match,
        points: PointsTable,
        match_seats: Sequence[int] | None = None,
    ) -> NightTable:
        """Records a finished pool; `match_seats` are the user ids of its seats (default: those present)."""
        table = self._unsettled(round_number, number)
        seats = list(match_seats) if match_seats is not None else table.present
        if set(seats) - set(table.seats):
            raise LeagueError("The match seated members who are not at this table.")
        table.placings = table_placings(match, seats, points, no_shows=table.no_shows)
        return table

    def round_settled(self) -> bool:
        return bool(self.tables) and all(table.settled for table in self.round_tables())

    def next_round(self, points: Mapping[int, float], max_size: int) -> list[NightTable]:
        """Reseats for the next round, or finishes the night after the last one.

        Seeding uses season points plus tonight's so far, so the leaders of the night are kept
        apart as they are at the start; members who did not show in a round are not reseated.
        """
        if self.status is not NightStatus.RUNNING or not self.round_settled():
            raise LeagueError("Every table of this round must finish first.")
        if self.current_round >= self.rounds:
            self.status = NightStatus.FINISHED
            return []
        tonight = self.points()
        seeds = {user: points.get(user, 0) + tonight.get(user, 0) for user in self.signups}
        players = [p.user_id for t in self.round_tables() for p in t.placings or [] if not p.no_show]
        if len(players) < 2:
            self.status = NightStatus.FINISHED
            return []
        return self._seat_round(self.current_round + 1, players, seeds, max_size)

    def _unsettled(self, round_number: int, number: int) -> NightTable:
        if self.status is not NightStatus.RUNNING:
            raise LeagueError(
                "Night {number} is not being played ({status}).",
                number=self.number,
                status=Word(self.status),
            )
        table = self.table(round_number, number)
        if table.settled:
            raise LeagueError(
                "Table {number} of round {round} is already settled.", number=number, round=round_number
            )
        return table

    # ----------------------------------------------------------------- results

    def placings(self) -> list[Placing]:
        return [p for table in self.tables for p in table.placings or []]

    def points(self) -> dict[int, int]:
        """League points per member tonight, before adjustments (which the season keeps)."""
        totals: dict[int, int] = {}
        for placing in self.placings():
            totals[placing.user_id] = totals.get(placing.user_id, 0) + placing.points
        return totals

    # ----------------------------------------------------------------- storage

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "starts_at": to_iso(self.starts_at),
            "status": self.status.value,
            "rounds": self.rounds,
            "signups": list(self.signups),
            "tables": [table.to_json() for table in self.tables],
            "postponed_from": to_iso(self.postponed_from),
            "note": self.note,
            "event_id": self.event_id,
            "reminders_sent": list(self.reminders_sent),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Night:
        starts_at = from_iso(raw["starts_at"])
        assert starts_at is not None
        return cls(
            number=raw["number"],
            starts_at=starts_at,
            status=NightStatus(raw["status"]),
            rounds=raw["rounds"],
            signups=list(raw["signups"]),
            tables=[NightTable.from_json(table) for table in raw["tables"]],
            postponed_from=from_iso(raw["postponed_from"]),
            note=raw["note"],
            event_id=raw.get("event_id"),
            reminders_sent=list(raw["reminders_sent"]),
        )


def _settle_if_short(table: NightTable, points: PointsTable) -> None:
    """A table left with one player is a walkover; with none, every seat is a no-show."""
    present = table.present
    if len(present) == 1:
        table.placings = walkover(present[0], table.no_shows, points)
    elif not present:
        table.placings = _no_shows(table, points)


def _no_shows(table: NightTable, points: PointsTable) -> list[Placing]:
    return [Placing(user, None, points.no_show, no_show=True) for user in table.no_shows]
