"""Plain records passed between the store and the service, so neither sees the other's internals."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

LOG_TAIL = 8  # the last commands a snapshot keeps, to be checked against the log when it is loaded


class TableStatus(StrEnum):
    OPEN = "open"  # seats are filling; the match has not started
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def active(self) -> bool:
        return self in (TableStatus.OPEN, TableStatus.PLAYING)


@dataclass
class SeatRecord:
    """Who sits in a seat: a Discord user, or a computer player (no user id, a level)."""

    user_id: int | None
    name: str
    computer: str | None = None  # "easy" or "strong" for a computer player

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "computer": self.computer}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> SeatRecord:
        """Raises KeyError, TypeError or ValueError for anything that is not a seat."""
        user_id, name, computer = raw["user_id"], raw["name"], raw.get("computer")
        if not isinstance(name, str) or not isinstance(user_id, int | None):
            raise TypeError(f"not a seat: {raw!r}")
        if (user_id is None) != (computer is not None) or computer not in (None, "easy", "strong"):
            raise ValueError(f"neither a person nor a computer player: {raw!r}")
        return cls(user_id, name, computer)


@dataclass
class TableRecord:
    id: int
    guild_id: int
    channel_id: int
    format: str
    rules: dict[str, Any]  # as stored (`Rules.to_json()`); the service reads them once a table
    point_value: int
    host_id: int
    max_seats: int
    seats: list[SeatRecord] = field(default_factory=list)
    status: TableStatus = TableStatus.OPEN
    league_id: int | None = None
    created_at: float = 0.0


@dataclass
class CommandRecord:
    """One accepted command and everything it changed, saved in one transaction."""

    match_id: int
    seq: int  # the command's place in the match log, from 1
    command: dict[str, Any]  # as the engine logged it
    events: list[dict[str, Any]]
    # The match after the command (`Match.to_json()` less its history: its log is the commands
    # saved one by one, its finished deals are saved once each, as `finished_deal`), or None where
    # it need not be saved: the match is then its last saved snapshot with the commands since
    # replayed (see `StoredMatch.pending`). With a snapshot, `log_tail`: the last `LOG_TAIL`
    # commands of the log.
    snapshot: dict[str, Any] | None
    clock: dict[str, Any]
    at: float
    command_id: str | None = None
    log_tail: list[dict[str, Any]] = field(default_factory=list)
    finished_deal: dict[str, Any] | None = None  # the deal this command ended, if it ended one
    standings: list[StandingRow] | None = None  # when the match standings changed
    stats: list[StatsDelta] = field(default_factory=list)
    match_over: bool = False
    table: TableRecord | None = None  # when the table row changed too (seats, status)


@dataclass(frozen=True)
class StandingRow:
    seat: int
    user_id: int | None
    standing: int
    status: str
    rejoined: bool


@dataclass
class StatsDelta:
    """What one command adds to a user's statistics; `best_pool_finish` is kept as a minimum."""

    guild_id: int
    user_id: int
    matches_played: int = 0
    matches_won: int = 0
    deals_played: int = 0
    deals_won: int = 0
    drops: int = 0
    wrong_shows: int = 0
    chips_won: int = 0
    best_pool_finish: int | None = None


@dataclass
class StoredMatch:
    """A match as loaded: its last snapshot (finished deals put back), the commands logged after
    it (`Match.restore` replays them), the clock and the command ids."""

    match_id: int
    table_id: int
    seq: int
    snapshot: dict[str, Any]
    clock: dict[str, Any]
    command_ids: set[str]
    pending: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class ActiveTable:
    """An open or playing table as start-up finds it: with its match, or with why its rows
    cannot be resumed (`damage`). A damaged table's record holds what could be read (its ids,
    channel, host, status), with no seats or rules."""

    table: TableRecord
    match: StoredMatch | None
    damage: str | None = None
    reported: bool = False  # the damage was found and stored at an earlier start
    match_id: int | None = None  # a damaged table's match, if it has one


@dataclass
class StoredLeague:
    """A league row: its state document as the league service wrote it, or (with no state) why
    it cannot be read."""

    id: int
    guild_id: int
    name: str
    state: dict[str, Any]
    next_wake: float | None
    damage: str | None = None
    reported: bool = False  # the damage was found and stored at an earlier start


@dataclass
class Pruned:
    """What one `Store.prune` deleted: the matches whose logs went, and their commands."""

    matches: int = 0
    commands: int = 0


@dataclass(frozen=True)
class StoredDeal:
    """A deal as a replay looks it up: its table and match, and its record once it has ended.

    `record` (the finished `Deal.to_json()`) is None for a deal still being played, one that
    never was, or one whose match was pruned (`pruned_at`); `deals_finished` tells them apart."""

    table: TableRecord
    match_id: int
    number: int
    record: dict[str, Any] | None
    finished_at: float | None
    match_status: str  # playing, over or abandoned
    match_updated_at: float  # the match's last move: retention counts from there
    pruned_at: float | None
    deals_finished: int


@dataclass(frozen=True)
class DealSummary:
    """A finished deal in a list (history, a replay's choices): whose table, who won, who paid
    what (None: sat it out), without its moves."""

    table_id: int
    number: int
    channel_id: int
    format: str
    seats: list[SeatRecord]
    winner: int | None
    points: list[int | None]
    finished_at: float
    match_status: str
    match_updated_at: float


@dataclass(frozen=True)
class MatchSummary:
    """One player's match in their history: its table, how it stands, and their own line."""

    table_id: int
    match_id: int
    format: str
    seats: list[SeatRecord]
    status: str  # playing, over or abandoned
    started_at: float
    updated_at: float
    pruned: bool  # its moves and deals are no longer kept (retention)
    winner: int | None  # the match's winner where its snapshot still says (not once pruned)
    deals: int  # finished deals still kept
    seat: int  # the player's seat
    standing: int  # their chips or pool score
    standing_status: str  # in, eliminated or left
