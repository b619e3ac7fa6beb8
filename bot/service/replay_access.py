"""Replays and histories: which finished deals a player may see move by move, and their record.

A replay shows every hand, so it is only ever built from a deal that has ended (its shoe was
revealed then: the shuffle commitment's reveal), and only for someone in the deal's server who
played it or is in the channel it was played in. Deals whose match ended longer ago than the
days kept (`RUMMY_KEEP_DAYS`, see `retention`) are no longer kept, whether or not retention has
deleted them yet, so the answer does not depend on when it last ran.

Refusals are `ReplayRefused` with a reason (`Refusal`): the front end words them.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from enum import StrEnum

from bot.engine.errors import CorruptTableError, RummyError
from bot.engine.history import FinishedDeal
from bot.engine.replay import DealReplay, replay_deal
from bot.service.clock import Clock
from bot.service.inputs import MAX_ID
from bot.service.retention import DAY
from bot.store import DealSummary, MatchSummary, Store, StoredDeal

CHOICES = 25  # the most a Discord autocomplete offers
HISTORY = 10  # deals and matches in a history
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
    matches: list[MatchSummary]
    deals: list[DealSummary]  # only those still kept
    kept_since: float  # matches last played before this are no longer kept

    def kept(self, match: MatchSummary) -> bool:
        return not match.pruned and (match.status == "playing" or match.updated_at >= self.kept_since)


class Replays:
    def __init__(self, store: Store, clock: Clock, keep_days: float) -> None:
        self.store = store
        self.clock = clock
        self.keep_days = keep_days

    @property
    def kept_since(self) -> float:
        return self.clock.now() - self.keep_days * DAY

    def _kept(self, status: str, updated_at: float) -> bool:
        return status == "playing" or updated_at >= self.kept_since

    async def open(self, viewer: Viewer, ref: DealRef | None) -> ReplayedDeal:
        """The deal `ref` (by default the viewer's last finished deal in this server), replayed."""
        if viewer.guild_id is None:
            raise ReplayRefused(Refusal.OTHER_SERVER)
        if ref is None:
            ref = await self._last_played(viewer)
        stored = await self.store.stored_deal(ref.table_id, ref.number)
        if stored is None or stored.table.guild_id != viewer.guild_id:
            reason = Refusal.NO_SUCH_DEAL if stored is None else Refusal.OTHER_SERVER
            raise ReplayRefused(reason, ref)
        if not _may_see(viewer, stored):
            raise ReplayRefused(Refusal.NOT_YOURS, ref)
        return await self._replayed(ref, stored)

    async def load(self, ref: DealRef) -> ReplayedDeal:
        """The deal for whoever holds the database (`python -m bot replay`): no viewer to check,
        the same refusals otherwise."""
        stored = await self.store.stored_deal(ref.table_id, ref.number)
        if stored is None:
            raise ReplayRefused(Refusal.NO_SUCH_DEAL, ref)
        return await self._replayed(ref, stored)

    async def _replayed(self, ref: DealRef, stored: StoredDeal) -> ReplayedDeal:
        if stored.pruned_at is not None or not self._kept(stored.match_status, stored.match_updated_at):
            raise ReplayRefused(Refusal.NOT_KEPT, ref, self.keep_days)
        if stored.record is None or stored.finished_at is None:
            running = stored.match_status == "playing" and ref.number == stored.deals_finished + 1
            raise ReplayRefused(Refusal.RUNNING if running else Refusal.NO_SUCH_DEAL, ref)
        try:
            record = FinishedDeal.from_json(stored.record, stored.number)
            replay = await asyncio.to_thread(replay_deal, record)
        except CorruptTableError as error:
            raise ReplayRefused(Refusal.DAMAGED, ref) from error
        names = tuple(seat.name for seat in stored.table.seats)
        return ReplayedDeal(ref, stored.table.format, names, stored.finished_at, replay)

    async def _last_played(self, viewer: Viewer) -> DealRef:
        assert viewer.guild_id is not None
        for deal in await self.store.recent_deals(viewer.guild_id, viewer.user_id, None, 1):
            if self._kept(deal.match_status, deal.match_updated_at):
                return DealRef(deal.table_id, deal.number)
        raise ReplayRefused(Refusal.NONE_YET, keep_days=self.keep_days)

    async def choices(self, viewer: Viewer) -> list[DealSummary]:
        """The deals `/rummy replay` offers: of this server, played by the viewer or here."""
        if viewer.guild_id is None:
            return []
        found = await self.store.recent_deals(viewer.guild_id, viewer.user_id, viewer.channel_id, CHOICES)
        return [deal for deal in found if self._kept(deal.match_status, deal.match_updated_at)]

    async def history(self, guild_id: int, user_id: int) -> History:
        """A player's last matches and deals in this server."""
        matches = await self.store.recent_matches(guild_id, user_id, HISTORY)
        deals = await self.store.recent_deals(guild_id, user_id, None, HISTORY)
        kept = [deal for deal in deals if self._kept(deal.match_status, deal.match_updated_at)]
        return History(matches, kept, self.kept_since)


def _may_see(viewer: Viewer, stored: StoredDeal) -> bool:
    played = any(seat.user_id == viewer.user_id for seat in stored.table.seats)
    return played or stored.table.channel_id == viewer.channel_id
