"""Retention: finished matches' command logs, snapshots and finished deals are deleted once
they are older than the days kept (`RUMMY_KEEP_DAYS`), so the database stops growing with
every move ever played. What a match leaves behind is kept for good: its `matches` row and
table, its standings, everyone's statistics and the leagues' history (placings are in the
league's own state). A match that a league night has still to read (a table not settled yet)
is kept whatever its age. See `Store.prune`.

`Retention.run` prunes at start-up and then every `every_seconds` of the service's clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass

from bot.service.clock import Clock
from bot.store import Pruned, Store

DAY = 86_400.0
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RetentionSettings:
    keep_days: float = 90.0  # a finished match's log is kept this long after its last move
    every_seconds: float = 6 * 3600.0  # how often to look for what is due
    poll_seconds: float = 60.0  # how often `run` looks at the clock


class Retention:
    """Prunes on the service's clock. `keep_tables` names the tables whose matches must stay
    (`LeagueService.unsettled_tables`)."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        settings: RetentionSettings | None = None,
        keep_tables: Callable[[], Collection[int]] = lambda: (),
    ) -> None:
        self.store = store
        self.clock = clock
        self.settings = settings or RetentionSettings()
        self.keep_tables = keep_tables
        self.next_at: float | None = None  # None: at once

    async def prune(self) -> Pruned:
        """Prunes what is due now; the next pass is due `every_seconds` later."""
        now = self.clock.now()
        self.next_at = now + self.settings.every_seconds
        before = now - self.settings.keep_days * DAY
        pruned = await self.store.prune(before, now, keep_tables=set(self.keep_tables()))
        if pruned.matches:
            log.info(
                "retention: deleted the logs of %d finished matches (%d commands) older than %g days",
                pruned.matches,
                pruned.commands,
                self.settings.keep_days,
            )
        return pruned

    async def run(self, stop: asyncio.Event) -> None:
        """Prunes at once, then whenever the next pass is due, until `stop`. A pass that fails
        (the database refusing writes) is logged and tried again at the next one."""
        while not stop.is_set():
            if self.next_at is None or self.clock.now() >= self.next_at:
                try:
                    await self.prune()
                except Exception:
                    log.exception("retention: pruning failed; it is tried again later")
            assert self.next_at is not None
            wait = min(self.settings.poll_seconds, max(0.0, self.next_at - self.clock.now()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=wait)
