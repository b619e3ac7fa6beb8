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

from bot.engine.errors import CorruptTableError
from bot.engine.history import FinishedDeal
from bot.engine.replay import replay_deal
from bot.service.clock import Clock
from bot.service.replay_views import (
    DealRef,
    History,
    PastDeal,
    PastMatch,
    Refusal,
    ReplayedDeal,
    ReplayRefused,
    Viewer,
)
from bot.service.retention import DAY
from bot.service.views import Sitter
from bot.store import DealSummary, MatchSummary, SeatRecord, Store, StoredDeal

CHOICES = 25  # the most a Discord autocomplete offers
HISTORY = 10  # deals and matches in a history


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

    async def choices(self, viewer: Viewer) -> list[PastDeal]:
        """The deals `/rummy replay` offers: of this server, played by the viewer or here."""
        if viewer.guild_id is None:
            return []
        found = await self.store.recent_deals(viewer.guild_id, viewer.user_id, viewer.channel_id, CHOICES)
        return [_past_deal(deal) for deal in found if self._kept(deal.match_status, deal.match_updated_at)]

    async def history(self, guild_id: int, user_id: int) -> History:
        """A player's last matches and deals in this server."""
        matches = await self.store.recent_matches(guild_id, user_id, HISTORY)
        deals = await self.store.recent_deals(guild_id, user_id, None, HISTORY)
        kept = [_past_deal(deal) for deal in deals if self._kept(deal.match_status, deal.match_updated_at)]
        return History([_past_match(match) for match in matches], kept, self.kept_since)


def _may_see(viewer: Viewer, stored: StoredDeal) -> bool:
    played = any(seat.user_id == viewer.user_id for seat in stored.table.seats)
    return played or stored.table.channel_id == viewer.channel_id


def _sitters(seats: list[SeatRecord]) -> tuple[Sitter, ...]:
    return tuple(Sitter(seat.name, seat.user_id, seat.computer) for seat in seats)


def _past_deal(deal: DealSummary) -> PastDeal:
    return PastDeal(
        deal.table_id, deal.number, deal.channel_id, deal.format, _sitters(deal.seats), deal.winner,
        tuple(deal.points), deal.finished_at, deal.match_status, deal.match_updated_at,
    )  # fmt: skip


def _past_match(match: MatchSummary) -> PastMatch:
    return PastMatch(
        match.table_id, match.match_id, match.format, _sitters(match.seats), match.status,
        match.started_at, match.updated_at, match.pruned, match.winner, match.deals, match.seat,
        match.standing, match.standing_status,
    )  # fmt: skip
