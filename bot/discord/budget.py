"""The presenter's share of Discord's request limit, spent urgent requests first.

Discord lets one bot make about 50 requests per second in all, across every shard and process
(interaction answers aside), and answers anything beyond with 429s. A bot that meets them
waits anyway, and one that meets too many is locked out for an hour; so the presenter asks this
budget before each request it sends and never goes over its share. What a player waits on
(their hand DM, the mention that it is their turn, a result) is urgent and goes first; the
table messages take what is left, so under load each table message is edited less often and
shows more moves at once (see `Presenter._refresh_loop`), never an older state than the last.
Only mostly first: while both wait, every `URGENT_RUN + 1`th request is a table edit, so that
under an overload of urgent requests (100 tables played flat out) the table messages still
catch up, slowly, instead of never being edited again.

A token bucket: `rate` requests per second, with at most `burst` saved up while idle. A token is
taken some time before its request leaves (a picture is drawn, discord.py waits out a route's
limit), and discord.py sends a request again after a 429 without asking: so requests taken
evenly can still reach Discord bunched, a few over its 50 in one second, and every 429 then
returns as a retry that takes a later second's room, a storm. Hence the second half, on the
wire (`watch`): every request Discord counts, whoever makes it and retries included, is held
at the moment it is sent until fewer than `rate` are under way or were answered in the second
before. Discord counts a request when it arrives, some time between its leaving and its answer,
so counting each from leaving to a second after its answer never undercounts a second there,
however the network delays some requests more than others (a second counted from leaving alone
does: a burst that arrives spread out overlaps the next).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import deque
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp
import discord

from bot.store import Store

log = logging.getLogger(__name__)
URGENT_RUN = 3  # urgent requests let through in a row while others wait, before one of those
WINDOW = 1.0  # Discord counts a bot's requests per second
# Answers to an interaction (its callback, and the webhook of its token: edits, follow-ups) are
# outside the global limit; every other request to the API counts.
UNCOUNTED = ("/interactions/", "/webhooks/")


class _Sent:
    """One counted request on the wire: when its answer came (None: not yet)."""

    __slots__ = ("answered",)

    def __init__(self) -> None:
        self.answered: float | None = None


class RequestBudget:
    def __init__(self, rate: float | None, *, clock: Callable[[], float] = time.monotonic) -> None:
        """`rate` in requests per second; None spends without limit (tests, the terminal)."""
        self.clock = clock
        self.rate: float | None = None
        self.burst = 1.0
        self._tokens = 0.0
        self._at = clock()
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._later: deque[asyncio.Future[None]] = deque()
        self._pump: asyncio.Task[None] | None = None
        self._urgent_run = 0  # urgent requests let through in a row while others waited
        self._sent: list[_Sent] = []  # counted requests under way or answered within WINDOW
        self._sending = asyncio.Lock()  # requests held on the wire leave in the order they came
        self._answered = asyncio.Event()  # set when one of them is answered
        self.set_rate(rate)

    def set_rate(self, rate: float | None) -> None:
        """A new share (processes came or went, see `bot.discord.share`); what is saved up is
        capped at the new burst."""
        self._refill()
        self.rate = rate if rate is not None and rate > 0 else None
        self.burst = max(1.0, (self.rate or 0.0) / 10)
        self._tokens = min(self._tokens, self.burst)

    @property
    def waiting(self) -> int:
        """Requests queued for a token: how far demand is over the share."""
        return sum(not f.done() for f in self._urgent) + sum(not f.done() for f in self._later)

    async def spend(self, *, urgent: bool = False) -> None:
        """Returns once one request may be sent; urgent ones are let through before the rest."""
        if self.rate is None:
            return
        self._refill()
        if not self._urgent and not self._later and self._tokens >= 1:
            self._tokens -= 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        (self._urgent if urgent else self._later).append(waiter)
        if self._pump is None or self._pump.done():
            self._pump = asyncio.get_running_loop().create_task(self._let_through())
        await waiter

    def watch(self, trace: aiohttp.TraceConfig) -> None:
        """Holds every request the bot's HTTP session sends (discord.py's `http_trace`) that
        Discord counts, until it fits in the share (see the module's docstring)."""
        trace.on_request_start.append(self._before_sending)
        trace.on_request_end.append(self._after_sending)
        trace.on_request_exception.append(self._after_sending)

    async def _before_sending(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        url = str(params.url)
        if self.rate is None or not url.startswith(discord.http.Route.BASE):
            return  # the gateway's websocket, or no share set
        if any(url.startswith(discord.http.Route.BASE + path) for path in UNCOUNTED):
            return
        async with self._sending:
            while True:
                now = self.clock()
                self._sent = [s for s in self._sent if s.answered is None or s.answered > now - WINDOW]
                if self.rate is None or len(self._sent) < self.rate:
                    break
                answered = [s.answered for s in self._sent if s.answered is not None]
                self._answered.clear()
                with contextlib.suppress(TimeoutError):
                    wait = min(answered) + WINDOW - now if answered else None
                    await asyncio.wait_for(self._answered.wait(), wait)
            context.sent = sent = _Sent()
            self._sent.append(sent)

    async def _after_sending(
        self, session: aiohttp.ClientSession, context: SimpleNamespace, params: object
    ) -> None:
        sent: _Sent | None = getattr(context, "sent", None)
        if sent is not None and sent.answered is None:
            sent.answered = self.clock()
            self._answered.set()

    def _refill(self) -> None:
        now = self.clock()
        if self.rate is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now

    async def _let_through(self) -> None:
        """One task hands out tokens as they come, in order (urgent first); a waiter that was
        cancelled meanwhile is skipped, so its token goes to the next."""
        while self._urgent or self._later:
            later_due = bool(self._later) and self._urgent_run >= URGENT_RUN
            queue = self._urgent if self._urgent and not later_due else self._later
            if queue[0].done():
                queue.popleft()
                continue
            self._refill()
            if self.rate is not None and self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / self.rate)
                continue
            if self.rate is not None:
                self._tokens -= 1
            queue.popleft().set_result(None)
            self._urgent_run = self._urgent_run + 1 if queue is self._urgent and self._later else 0


BEAT = 5.0  # seconds between a process's heartbeats in the database
GONE_AFTER = 3 * BEAT  # a process not heard from for this long no longer takes a share


async def share_budget(
    budget: RequestBudget, total: float, store: Store, now: Callable[[], float], stop: asyncio.Event
) -> None:
    """Splits `total` requests per second between the live processes of one bot (shards in
    several processes share Discord's one limit per token). Every `BEAT` seconds this process
    notes itself alive in the database (`Store.live_processes`) and takes `total` divided by
    the processes heard from within `GONE_AFTER`: a process that starts takes its share
    within a beat, and one that dies leaves its share to the others within three."""
    process = uuid.uuid4().hex
    while not stop.is_set():
        moment = now()
        try:
            budget.set_rate(total / await store.live_processes(process, moment, moment - GONE_AFTER))
        except Exception:  # the database is away for a moment: keep the last share
            log.exception("could not count this bot's processes")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), BEAT)
