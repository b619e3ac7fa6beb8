"""What front ends read of replays and histories: frozen values, never the store's rows.

A replayed deal (`ReplayedDeal`), a player's history (`History`: their past matches and deals,
`PastMatch` and `PastDeal`, each seat a `Sitter`), and a refusal (`ReplayRefused`, with a
`Refusal` the front end words). `bot.service.replay_access` makes them from what the store keeps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from bot.engine.errors import RummyError
from bot.engine.replay import DealReplay
from bot.service.inputs import MAX_ID
from bot.service.views import Sitter

_REF = re.compile(r"#?\s*(\d{1,19})\s*[-/.:\s]\s*(\d{1,4})")


class Refusal(StrEnum):
    NOT_A_DEAL = "not_a_deal"  # the text names no deal
    NO_SUCH_DEAL = "no_such_deal"
    OTHER_SERVER = "other_server"  # the deal is not of the server asked from (or asked from a DM)
    NOT_YOURS = "not_yours"  # neither played by them nor played in this channel
    RUNNING = "running"  # still being played
    NOT_KEPT = "not_kept"  # older than the days kept
    NONE_YET = "none_yet"  # no finished deal to show by default
    DAMAGED = "damaged"  # its record does not replay


class ReplayRefused(RummyError):
    def __init__(self, reason: Refusal, ref: DealRef | None = None, keep_days: float = 0.0) -> None:
        super().__init__(f"replay refused: {reason.value}")
        self.reason, self.ref, self.keep_days = reason, ref, keep_days


@dataclass(frozen=True, slots=True)
class DealRef:
    """A deal as players name it: its table's id and its number in the match, `12-3`."""

    table_id: int
    number: int

    def __str__(self) -> str:
        return f"{self.table_id}-{self.number}"

    @classmethod
    def parse(cls, text: str) -> DealRef:
        """`12-3` (or `12/3`, `#12 3`...); `ReplayRefused(NOT_A_DEAL)` for anything else."""
        found = _REF.fullmatch(text.strip())
        if found is None or not 0 < int(found[1]) <= MAX_ID or int(found[2]) < 1:
            raise ReplayRefused(Refusal.NOT_A_DEAL)
        return cls(int(found[1]), int(found[2]))


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who asks, and where from: a server channel (`guild_id` None: a DM)."""

    user_id: int
    guild_id: int | None
    channel_id: int


@dataclass(frozen=True)
class ReplayedDeal:
    ref: DealRef
    format: str
    names: tuple[str, ...]
    finished_at: float
    replay: DealReplay


@dataclass(frozen=True)
class History:
    matches: list[PastMatch]
    deals: list[PastDeal]  # only those still kept
    kept_since: float  # matches last played before this are no longer kept

    def kept(self, match: PastMatch) -> bool:
        return not match.pruned and (match.status == "playing" or match.updated_at >= self.kept_since)


@dataclass(frozen=True, slots=True)
class PastDeal:
    """A finished deal in a list (history, a replay's choices): whose table, who won, who paid
    what (None: sat it out), without its moves."""

    table_id: int
    number: int
    channel_id: int
    format: str
    seats: tuple[Sitter, ...]
    winner: int | None
    points: tuple[int | None, ...]
    finished_at: float
    match_status: str
    match_updated_at: float


@dataclass(frozen=True, slots=True)
class PastMatch:
    """One player's match in their history: its table, how it stands, and their own line."""

    table_id: int
    match_id: int
    format: str
    seats: tuple[Sitter, ...]
    status: str  # playing, over or abandoned
    started_at: float
    updated_at: float
    pruned: bool  # its moves and deals are no longer kept (retention)
    winner: int | None  # the match's winner where its snapshot still says (not once pruned)
    deals: int  # finished deals still kept
    seat: int  # the player's seat
    standing: int  # their chips or pool score
    standing_status: str  # in, eliminated or left
