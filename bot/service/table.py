"""One table held in memory by the service: its stored record, its match and its turn clock."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.engine.match import Match
from bot.engine.rules import Rules
from bot.service.clock import TurnClock, turn_token
from bot.store import TableRecord


@dataclass
class Table:
    record: TableRecord
    match: Match | None = None
    match_id: int | None = None
    clock: TurnClock | None = None
    command_ids: set[str] = field(default_factory=set)
    # Commands for one table run one at a time; other tables never wait for this lock.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def rules(self) -> Rules:
        """The rules the table plays (or, in the lobby, will play) with."""
        return Rules.from_json(self.record.rules)

    def seat_of(self, user_id: int) -> int | None:
        for seat, sitter in enumerate(self.record.seats):
            if sitter.user_id == user_id:
                return seat
        return None

    def computers(self) -> set[int]:
        return {seat for seat, sitter in enumerate(self.record.seats) if sitter.computer}

    def turn_token(self) -> str | None:
        return turn_token(self.match) if self.match is not None else None
