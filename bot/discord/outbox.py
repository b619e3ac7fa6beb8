"""The one place every request of the table front end leaves for Discord: what it keeps of each
table (`Shown`), the request budget and each channel's pace, the guard that keeps one refused
request from stopping the rest, the message ids remembered across a restart, and mentions that
ping nobody but the users named (`pinging`).

The parts that decide what to send (the table message, hand DMs, turn mentions, results) each get
the outbox and never each other. Before any request leaves, `may_send()` is asked: a process that
may no longer speak for its servers sends nothing more (`NotSending`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import limits
from bot.discord.budget import RequestBudget
from bot.discord.safe_text import pinging
from bot.discord.shown import Shown
from bot.engine.errors import RummyError
from bot.service.views import TableView

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot

log = logging.getLogger(__name__)
UNKNOWN_CHANNEL = 10003
CHANNEL_EVERY = 1.0  # seconds between requests in one channel (Discord: 5 per 5 s)
# A request that failed for a passing reason (Discord's own trouble once discord.py gave up on
# it, no answer in time, a rate limit past what discord.py would wait) is tried again after
# RETRY_FIRST seconds, doubling to RETRY_LAST, until it goes through (`Outbox.guard`'s answer).
RETRY_FIRST = 1.0
RETRY_LAST = 30.0
PASSING = (discord.DiscordServerError, discord.RateLimited, asyncio.TimeoutError)


class NotSending(Exception):
    """`may_send()` said no: the request was not sent, nor will any after it be."""


def always() -> bool:
    return True


class Outbox:
    def __init__(
        self, bot: RummyBot, request_budget: float | None = None, may_send: Callable[[], bool] = always
    ) -> None:
        """`request_budget`: the requests per second this process may send Discord (see
        `RequestBudget`; None: no limit of its own, only Discord's). `may_send`: asked before
        every request leaves (True: it may)."""
        self.bot = bot
        self.budget = RequestBudget(request_budget)
        self.may_send = may_send
        self._shown: dict[int, Shown] = {}
        self.retry_first = RETRY_FIRST  # (tests try again sooner)
        self._answered = asyncio.Event()  # set (and replaced) when a guarded step goes through

    # ----------------------------------------------------------------- what is kept per table

    def shown(self, table_id: int) -> Shown:
        """What is kept for this table, made on first use."""
        return self._shown.setdefault(table_id, Shown())

    def known(self, table_id: int) -> Shown | None:
        """What is kept for this table, if anything is."""
        return self._shown.get(table_id)

    def drop(self, table_id: int) -> Shown | None:
        """What was kept for a table that closed, let go."""
        return self._shown.pop(table_id, None)

    def every(self) -> list[Shown]:
        return list(self._shown.values())

    def table(self, table_id: int) -> TableView | None:
        """The table as last saved; kept, for showing its last events once the service lets it go."""
        table = self.bot.service.view(table_id)
        if table is not None:
            self.shown(table_id).table = table
            return table
        shown = self._shown.get(table_id)
        return shown.table if shown is not None else None

    def version_now(self, table_id: int) -> int | None:
        """The table's version as last saved: any saved change, a pick within a turn too."""
        table = self.table(table_id)
        return table.version if table is not None else None

    # ----------------------------------------------------------------- sending

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    def check(self) -> None:
        """Before a request leaves by a way the budget does not see (a press's own token)."""
        if not self.may_send():
            raise NotSending()

    async def spend(self, *, urgent: bool) -> None:
        """Waits for a token from the budget; then the request may leave, if `may_send()`."""
        await self.budget.spend(urgent=urgent)
        self.check()

    async def spend_in_channel(self, shown: Shown | None, *, urgent: bool) -> None:
        """Waits for a request in a table's channel: its turn there, at most one every
        `CHANNEL_EVERY` seconds (Discord lets a channel have 5 messages sent or edited in 5 s;
        past that discord.py holds the request back after the budget was spent for it, and then
        lets several go at once, over the global limit), then a token from the budget. Without
        a budget nothing is paced (tests)."""
        if shown is not None and self.budget.rate is not None:
            now = asyncio.get_running_loop().time()
            turn = max(now, shown.channel_free_at)
            shown.channel_free_at = turn + CHANNEL_EVERY
            if turn > now:
                await asyncio.sleep(turn - now)
        await self.spend(urgent=urgent)

    async def guard(self, table: TableView, step: Coroutine[Any, Any, Any]) -> bool:
        """One failed Discord call (a missing permission, an outage) must not stop the rest of
        what the table shows; a deleted channel closes its table. Nothing is begun once
        `may_send()` says no. False when the step failed for a passing reason (`PASSING`): the
        caller tries it again later (`wait_to_retry`), with the state as it is then."""
        if not self.may_send():
            step.close()
            return True
        try:
            await step
            self._answered.set()  # Discord answers: what waits to try again goes now
            self._answered = asyncio.Event()
        except PASSING as error:
            log.warning("table %s: Discord did not take a request, to try again: %r", table.id, error)
            return False
        except NotSending:
            log.info("table %s: not sent (this process may not send now)", table.id)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                await self._channel_gone(table)
            else:
                log.warning("table %s: %s", table.id, error)
        except discord.HTTPException as error:
            log.warning("table %s: Discord refused a message: %s", table.id, error)
        return True

    async def wait_to_retry(self, failures: int) -> None:
        """Waits before trying again a step that failed `failures` times running for a passing
        reason: `retry_first` doubling, at most `RETRY_LAST`; past the first `retry_first`, only
        until another guarded step goes through (Discord answers again: the channel catches up
        at once, not at the end of a long wait, and a step failing on one route alone is still
        tried at most once a `retry_first`)."""
        wait = min(self.retry_first * 2 ** max(failures - 1, 0), RETRY_LAST)
        answered = self._answered
        await asyncio.sleep(self.retry_first)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(answered.wait(), wait - self.retry_first)

    async def _channel_gone(self, table: TableView) -> None:
        log.warning("table %s: its channel is gone; closing the table", table.id)
        with contextlib.suppress(RummyError):
            await self.bot.service.cancel(table.channel_id, table.host_id, can_manage=True)
        self.shown(table.id).closed = True  # nowhere to show that it closed

    async def say(
        self, table: TableView, text: str, *, spent: bool = False, ping: int | None = None
    ) -> discord.Message | None:
        """Posts `text` in the table's channel (`spent`: its request was already taken from the
        budget), pinging the person `ping` only (see `safe_text`)."""
        if not spent:
            await self.spend_in_channel(self._shown.get(table.id), urgent=True)
        try:
            return await self.channel(table.channel_id).send(
                limits.message(text), allowed_mentions=pinging([] if ping is None else [ping])
            )
        except discord.NotFound:
            return None

    # ----------------------------------------------------------------- what survives a restart

    async def remember(self, key: str, channel_id: int, message_id: int) -> None:
        """Best effort: a message not remembered is posted anew after a restart, nothing worse."""
        try:
            await self.bot.store.remember_message(key, channel_id, message_id, self.bot.service.clock.now())
        except Exception:
            log.exception("could not remember message %s", key)

    async def forget(self, key: str) -> None:
        try:
            await self.bot.store.forget_messages(key)
        except Exception:
            log.exception("could not forget message %s", key)
