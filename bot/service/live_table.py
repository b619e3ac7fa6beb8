"""One table held in memory by the service: its stored record, its rules, its match and its turn
clock, and the frozen view of it that front ends read (`publish`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.engine.formats import Format
from bot.engine.match import Match
from bot.engine.match_view import match_view
from bot.engine.rules import Rules
from bot.service.clock import TurnClock, turn_token
from bot.service.views import Clock, HandView, Sitter, TableView
from bot.store import ActiveTable, DamagedRowError, TableRecord


@dataclass
class LiveTable:
    record: TableRecord
    # The rules the table plays (or, in the lobby, will play) with: read once from the record,
    # which keeps their stored form, and set again with it wherever they change.
    rules: Rules
    match: Match | None = None
    match_id: int | None = None
    clock: TurnClock | None = None
    command_ids: set[str] = field(default_factory=set)
    snapshot_seq: int = 0  # the command after which the match's last snapshot was saved
    # Why its saved rows cannot be played on: set aside, refusing everything but a cancel. Its
    # record then holds only what could be read (ids, channel, host), not its seats or rules.
    damage: str | None = None
    # Commands for one table run one at a time; other tables never wait for this lock.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    view: TableView | None = None  # as last saved (`publish`); None until its row is written
    # Memory holds a change still being saved (the service sets it as it makes one; `publish`
    # clears it): until then a seat's hand is read under the table's lock (`TableService.hand`).
    ahead: bool = False

    @classmethod
    def restore(cls, active: ActiveTable) -> LiveTable:
        """The table as start-up loaded it, its format, rules, match and clock rebuilt and checked
        (cards conserved, the turn's hand sizes, one seat per player): `DamagedRowError` if what
        was saved does not make a table that can play on."""
        record = active.table
        try:
            Format(record.format)
            table = cls(record, Rules.from_json(record.rules))
            stored = active.match
            if stored is not None:
                match = Match.restore(stored.snapshot, stored.pending)
                match.check_invariants()
                clock = TurnClock.from_json(stored.clock)
                if not match.players == len(record.seats) == len(clock.banks):
                    raise ValueError(f"{len(record.seats)} seats for a match of {match.players} players")
                table.match, table.match_id, table.clock = match, stored.match_id, clock
                table.command_ids = stored.command_ids
                table.snapshot_seq = stored.seq - len(stored.pending)
        except Exception as error:  # whatever the engine makes of rows it never wrote
            raise DamagedRowError.of("table", record.id, error) from error
        return table

    @classmethod
    def set_aside(cls, active: ActiveTable, damage: str) -> LiveTable:
        """A table whose rows cannot be played on (`damage`), holding what could be read of
        them; its rules are the defaults where its stored ones cannot be read (it plays nothing)."""
        try:
            rules = Rules.from_json(active.table.rules)
        except Exception:  # whatever made the rows unreadable
            rules = Rules()
        return cls(active.table, rules, match_id=active.match_id, damage=damage)

    def set_record(self, record: TableRecord) -> None:
        """The table's row as the store has it now (read again after a failed save)."""
        self.record, self.rules = record, Rules.from_json(record.rules)

    def set_rules(self, rules: Rules) -> None:
        """The lobby's rules changed: typed here, in their stored form in the record."""
        self.rules, self.record.rules = rules, rules.to_json()

    @property
    def id(self) -> int:
        return self.record.id

    def seat_of(self, user_id: int) -> int | None:
        for seat, sitter in enumerate(self.record.seats):
            if sitter.user_id == user_id:
                return seat
        return None

    def computers(self) -> set[int]:
        return {seat for seat, sitter in enumerate(self.record.seats) if sitter.computer}

    def turn_token(self) -> str | None:
        return turn_token(self.match) if self.match is not None else None

    def publish(self) -> TableView:
        """Makes the table's view anew from what memory holds: called once a change is saved
        (or memory was put back to what is saved), never while one is being written."""
        record, match, clock = self.record, self.match, self.clock
        self.ahead = False
        format, rules = self._format_and_rules()
        self.view = TableView(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            league_id=record.league_id,
            host_id=record.host_id,
            format=format,
            rules=rules,
            point_value=record.point_value,
            max_seats=record.max_seats,
            status=record.status,
            seats=tuple(Sitter(seat.name, seat.user_id, seat.computer) for seat in record.seats),
            match=match_view(match) if match is not None and self.damage is None else None,
            clock=(
                Clock(clock.seat, clock.deadline, clock.base)
                if clock is not None and clock.deadline is not None and record.status.active
                else None
            ),
            turn_token=self.turn_token() if record.status.active else None,
            damage=self.damage,
            version=self.view.version + 1 if self.view is not None else 1,
        )
        return self.view

    def hand(self, seat: int) -> HandView | None:
        """`seat`'s own view of the deal in progress (call it under the table's lock, so that it
        never shows a move still being saved); None between deals or once the match is over."""
        match = self.match
        if match is None or match.deal is None or not self.record.status.active or self.damage is not None:
            return None
        deal = match.deal
        return HandView(self.id, seat, deal.view(seat), deal.legal_actions(seat), turn_token(match))

    def _format_and_rules(self) -> tuple[Format, Rules]:
        """The table's format and rules; a table set aside shows the default format where its
        row's cannot be read (it only says that it is set aside)."""
        try:
            return Format(self.record.format), self.rules
        except ValueError:
            if self.damage is None:
                raise
            return Format.POINTS, self.rules
