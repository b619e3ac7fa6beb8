"""The bot's Prometheus metrics and health check, served over HTTP when `RUMMY_METRICS_PORT` is
set (off by default): `GET /metrics` and `GET /healthz`.

Everything measured passes through `Metrics`: the table service reports to it as its observer
(`bot.service.observer`, so the service never imports prometheus), the open tables are counted
when Prometheus scrapes, and discord.py's HTTP session reports every response it gets through an
aiohttp trace (`watch`), whichever part of the bot made the request and caught its error.
The server runs on the bot's own event loop: a scrape that stalls says the loop is stalled.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Callable, Iterable, Iterator
from types import SimpleNamespace

import aiohttp
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

from bot.service.views import TableView
from bot.store import TableStatus

# Saving a command takes a few milliseconds with group commit; a queue behind a busy table's lock
# or a slow disk shows in the upper buckets.
COMMAND_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# An easy computer player decides in milliseconds; a strong one searches for up to a second or so.
THINKING_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
Health = Callable[[], str | None]  # None when healthy, else what is wrong, in a few words


class Metrics:
    """One bot's metrics, in a registry of their own (so that tests can run several bots)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.commands = Counter(
            "rummy_commands",
            "Game commands accepted and saved, by kind (pick, discard, timeout, ...).",
            ["kind"],
            registry=self.registry,
        )
        self.command_seconds = Histogram(
            "rummy_command_seconds",
            "From a command reaching the table service to it being saved and handed on to be announced.",
            buckets=COMMAND_BUCKETS,
            registry=self.registry,
        )
        self.thinking_seconds = Histogram(
            "rummy_computer_thinking_seconds",
            "How long a computer player took to decide a move, by level.",
            ["level"],
            buckets=THINKING_BUCKETS,
            registry=self.registry,
        )
        self.discord_requests = Counter(
            "rummy_discord_requests", "HTTP requests sent to Discord.", registry=self.registry
        )
        self.discord_errors = Counter(
            "rummy_discord_http_errors",
            "Discord's answers with an error status (429: rate limited), by status; "
            'status="unreachable" for a request that got no answer.',
            ["status"],
            registry=self.registry,
        )
        self._tables = OpenTables()
        self.registry.register(self._tables)
        ProcessCollector(registry=self.registry)  # memory, CPU time, open files
        self._runner: web.AppRunner | None = None

    # ----------------------------------------------------------------- what the service reports

    def command_saved(self, kind: str, seconds: float) -> None:
        self.commands.labels(kind).inc()
        self.command_seconds.observe(seconds)

    def computer_thought(self, level: str, seconds: float) -> None:
        self.thinking_seconds.labels(level).observe(seconds)

    def count_tables(self, tables: Callable[[], Iterable[TableView]]) -> None:
        """Where the open tables are read at each scrape (the service's `views`)."""
        self._tables.source = tables

    # ----------------------------------------------------------------- what Discord answers

    def watch(self, trace: aiohttp.TraceConfig) -> None:
        """On discord.py's `http_trace`: sees every response to the bot's HTTP session."""
        trace.on_request_end.append(self._answered)
        trace.on_request_exception.append(self._unanswered)

    async def _answered(
        self, session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        self.discord_requests.inc()
        if params.response.status >= 400:
            self.discord_errors.labels(str(params.response.status)).inc()

    async def _unanswered(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        self.discord_requests.inc()
        self.discord_errors.labels("unreachable").inc()

    # ----------------------------------------------------------------- the HTTP endpoint

    async def serve(self, host: str, port: int, health: Health) -> int:
        """Serves `/metrics` and `/healthz` (200 `ok`, or 503 and what is wrong) on the running
        loop; returns the port (port 0 takes a free one)."""

        async def metrics(request: web.Request) -> web.Response:
            return web.Response(
                body=generate_latest(self.registry), headers={"Content-Type": CONTENT_TYPE_LATEST}
            )

        async def healthz(request: web.Request) -> web.Response:
            problem = health()
            return web.Response(text=f"{problem or 'ok'}\n", status=200 if problem is None else 503)

        app = web.Application()
        app.router.add_get("/metrics", metrics)
        app.router.add_get("/healthz", healthz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        return int(self._runner.addresses[0][1])

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


class OpenTables(Collector):
    """`rummy_open_tables` by state, counted when scraped rather than kept up to date at every
    change: the service's tables are the truth, and a scrape is rare."""

    def __init__(self) -> None:
        self.source: Callable[[], Iterable[TableView]] = list

    def collect(self) -> Iterator[Metric]:
        counts = Tally(_state(table) for table in self.source())
        family = GaugeMetricFamily(
            "rummy_open_tables",
            "Tables this process runs: lobby (filling seats), playing, set_aside (damaged rows).",
            labels=["state"],
        )
        for state in ("lobby", "playing", "set_aside"):
            family.add_metric([state], counts[state])
        yield family


def _state(table: TableView) -> str:
    if table.damage is not None:
        return "set_aside"
    return "playing" if table.status is TableStatus.PLAYING else "lobby"
