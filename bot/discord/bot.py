"""The Discord bot: a `commands.Bot` that owns the store, the table and league services and their
presenters."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot.activity import ActivityServer
from bot.app import runtime
from bot.app.config import KEEP_DAYS, LEASE_SECONDS, MENTION_WATCHING_AFTER, METRICS_HOST, REPOST_SECONDS
from bot.app.metrics import Metrics
from bot.discord.actions import Actions
from bot.discord.activity import ActivitySettings, start_activity
from bot.discord.budget import share_budget
from bot.discord.cog import RummyCog
from bot.discord.components import DYNAMIC_ITEMS, interaction_field
from bot.discord.languages import Readers
from bot.discord.league_admin_cog import LeagueAdminCog
from bot.discord.league_cog import LeagueCog
from bot.discord.league_components import LeagueButton
from bot.discord.league_presenter import LeaguePresenter
from bot.discord.pictures import Pictures
from bot.discord.presenter import REPUBLISH_CONCURRENCY, Presenter
from bot.discord.presses import STALE, Presses
from bot.discord.replay_components import ReplayButton
from bot.discord.replay_presenter import ReplayPresenter
from bot.discord.rules_editor import RULES_EDITOR_ITEMS
from bot.discord.safe_text import NOBODY
from bot.discord.sharding import ShardOwnership
from bot.discord.translator import CommandTranslator
from bot.service import (
    LeagueEvent,
    LeagueService,
    Retention,
    RetentionSettings,
    ServiceSettings,
    TableEvent,
    TableService,
)
from bot.service.preferences import Preferences
from bot.service.replay_access import Replays
from bot.service.service import EventSink
from bot.service.table_limits import DEFAULT_LIMITS, TableLimits
from bot.service.thinkers import WorkerPool
from bot.store import (
    DatabaseUnreachableError,
    LeaseLostError,
    Shards,
    Store,
    StoreError,
    check_store,
    open_store,
)
from bot.store.store import is_database_url

log = logging.getLogger(__name__)
# How the bot makes its table service (tests give their own: a seeded one, a manual clock).
ServiceFactory = Callable[[Store, EventSink], TableService]
USER_SETTINGS_SECONDS = 30.0  # a sharded process reads a player's settings again after this
# How long a clean shutdown waits for what is in flight (moves being saved, then announced) before
# closing anyway: within Docker's default 10 s before it kills. A move is saved before it is
# announced, and a restart shows every table again, so what is cut short is only an edit.
SHUTDOWN_SECONDS = 8.0
# Start-up's pauses between tries to reach the database or Discord: doubling from the first to
# the longest, so that an outage of hours costs a line a minute and its end is noticed soon.
RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 60.0
# The entry point command (an application command of this type) and what a sync sends back of it.
PRIMARY_ENTRY_POINT = 4
ENTRY_POINT_FIELDS = (
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "handler",
    "integration_types",
    "contexts",
    "nsfw",
)
# What says Discord could not be reached (no answer, or its servers' 5xx), not that it refused.
UNREACHABLE = (OSError, aiohttp.ClientError, asyncio.TimeoutError, discord.DiscordServerError)


class RummyBot(commands.Bot):
    def __init__(
        self,
        db_path: str | Path,
        *,
        dev_guild_id: int | None = None,
        service_factory: ServiceFactory | None = None,
        edit_delay: float = 0.8,
        republish_concurrency: int = REPUBLISH_CONCURRENCY,
        tune_gc: bool = False,
        keep_days: float = KEEP_DAYS,
        request_budget: float | None = None,
        mention_watching_after: float = MENTION_WATCHING_AFTER,
        shards: Shards | None = None,
        lease_seconds: float = LEASE_SECONDS,
        metrics_port: int | None = None,
        metrics_host: str = METRICS_HOST,
        picture_workers: bool = False,
        table_limits: TableLimits = DEFAULT_LIMITS,
        repost_seconds: float = REPOST_SECONDS,
        table_activity: ActivitySettings | None = None,
        **options: Any,
    ) -> None:
        """`db_path`: the SQLite file, or a `postgresql://` URL (see `open_store`). `tune_gc` is
        for the process that runs the bot for good (`python -m bot`): while the tables are
        resumed and once they are, `bot.app.runtime.tune_gc()` takes them out of the collector's
        sight. Finished matches' move logs are deleted `keep_days` after their end
        (`bot.service.retention`). After a restart, `republish_concurrency` tables are shown
        again at a time (`Presenter.republish`). `shards`: this process runs only those shards'
        servers, holding their leases (`ShardedRummyBot`); on PostgreSQL a bot without them holds
        the one shard of one, so that no other process, sharded or not, runs its tables too. With
        a `metrics_port` (0: any free one), Prometheus metrics and a health check are served
        there (`bot.app.metrics`). The table presenter sends Discord at most `request_budget`
        requests per second, shared between this bot's live processes (`bot.discord.budget`);
        None sets no limit of its own. A person watching their hand DM is mentioned on their
        turn once `mention_watching_after` of its clock has gone (`Presenter._ping_turn`). With
        `picture_workers`, the game's pictures are drawn in worker processes that the bot starts
        and stops with it (`bot.discord.pictures`); without, on threads. `table_limits`: how many
        tables a member and a server may take (production's service; a `service_factory` sets its
        own). `/rummy table` posts the table message again at most once per channel in
        `repost_seconds`. With `table_activity`, the table is served as a Discord Activity on a
        port of its own (`bot.activity`; `activity_port` says which once it is served)."""
        # Slash commands and components only: no message content or member intents needed. No
        # voice either, so discord.py's warnings that its voice libraries are missing say nothing.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        options.setdefault("intents", discord.Intents(guilds=True))
        options.setdefault("chunk_guilds_at_startup", False)
        # Mentions are opt-in: a message that means to ping names its users (`safe_text.pinging`).
        options.setdefault("allowed_mentions", NOBODY)
        self.metrics = Metrics() if metrics_port is not None else None
        trace = options.setdefault("http_trace", aiohttp.TraceConfig())  # every request, whoever asks
        if self.metrics is not None:
            self.metrics.watch(trace)
        self.metrics_address = (metrics_host, metrics_port)
        self._metrics_served = False
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **options)
        self.db_path = db_path
        self.dev_guild_id = dev_guild_id
        self.service_factory = service_factory or self._default_service
        self.tune_gc = tune_gc
        self.keep_days = keep_days
        self._thinkers: WorkerPool | None = None
        self.picture_workers = picture_workers
        self.table_limits = table_limits
        self.repost_seconds = repost_seconds
        self.activity_settings = table_activity
        self.activity_server: ActivityServer | None = None
        self.activity_port: int | None = None
        self.pictures = Pictures()
        self.request_budget = request_budget
        self.presenter = Presenter(
            self,
            edit_delay=edit_delay,
            republish_concurrency=republish_concurrency,
            request_budget=request_budget,
            mention_watching_after=mention_watching_after,
            may_send=self.may_send,
        )
        self.presenter.budget.watch(trace)  # retries too, and the other presenters' requests
        self.league_presenter = LeaguePresenter(self)
        self.replay_presenter = ReplayPresenter(self)
        self.actions = Actions(self)
        self.presses = Presses(self)  # every press checked before it acts (`bot.discord.presses`)
        self.league_cog = LeagueCog(self)
        self.closing = False  # a shutdown began: interactions are refused (`Actions.guarded`)
        self._shutdown: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._timers: list[asyncio.Task[None]] = []
        self._publishing: set[asyncio.Task[None]] = set()
        self._resumed: list[TableEvent] = []
        self._woken: list[LeagueEvent | TableEvent] = []
        self._shown_ready = asyncio.Event()  # what start-up had to show is handed on (`on_ready`)
        if shards is None and is_database_url(db_path):
            shards = Shards(1, (0,))
        self.ownership = None if shards is None else ShardOwnership(shards, lease_seconds, self._lost_shards)
        if self.ownership is not None:  # past its leases, no request leaves (`may_send`)
            self.ownership.fence_requests(trace)
        self.failure: StoreError | None = None  # why the bot stopped itself (a lost shard lease)
        self._stopping: asyncio.Task[None] | None = None
        self._waiting_for: str | None = None  # what start-up waits for, as `/healthz` says it

    def _default_service(self, store: Store, on_events: EventSink) -> TableService:
        """Production's service: computer players think in worker processes that the bot
        starts here and shuts down on close."""
        self._thinkers = runtime.start_thinkers()
        settings = ServiceSettings(limits=self.table_limits)
        return TableService(store, thinkers=self._thinkers, settings=settings, on_events=on_events)

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """discord.py's `login` and `connect`, after what a long-running bot does first: serve
        `/healthz` and the metrics (so that they say what it waits for), wait for a database
        server that cannot be reached yet, and log in again, with a growing pause, while Discord
        cannot be reached. A database or a token that cannot be used raises at once
        (`UnusableDatabaseError`, `discord.LoginFailure`). Returns early if closed meanwhile."""
        if self._ready is discord.utils.MISSING:  # what `login` does first (or `async with`):
            await self._async_setup_hook()  # from now on `wait_until_ready` waits, not raises
        await self.serve_metrics()
        if not await self._until_reached(self._check_database, (DatabaseUnreachableError,), "the database"):
            return
        if not await self._until_reached(lambda: self._login(token), UNREACHABLE, "Discord"):
            return
        await self.connect(reconnect=reconnect)

    async def _check_database(self) -> None:
        await check_store(self.db_path)

    async def _login(self, token: str) -> None:
        """`login`; if Discord could not be reached, the HTTP session it opened is closed and
        forgotten (with its connector, which a closed session closes too) for the next try."""
        try:
            await self.login(token)
        except UNREACHABLE:
            if self.user is not None:  # Discord answered: what failed after is not a login's
                raise
            await self.http.close()
            self.http.connector = discord.utils.MISSING
            raise

    async def _until_reached(
        self, attempt: Callable[[], Awaitable[None]], transient: tuple[type[BaseException], ...], what: str
    ) -> bool:
        """Runs `attempt` until it does not raise one of `transient`, a line in the log (and on
        `/healthz`) for each failure and a pause growing to `RETRY_MAX_SECONDS` between them;
        False if the bot was closed meanwhile."""
        pause = RETRY_FIRST_SECONDS
        waiting = "database unavailable" if what == "the database" else "connecting to Discord"
        while not self._stop.is_set():
            try:
                await attempt()
            except transient as error:
                why = f"{type(error).__name__}: {error}"
                self._waiting_for = f"{waiting}: {why}"
                log.warning("%s cannot be reached (%s); trying again in %.0f s", what, why, pause)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), pause)
                pause = min(pause * 2, RETRY_MAX_SECONDS)
            else:
                self._waiting_for = None
                return True
        return False

    async def serve_metrics(self) -> None:
        """Serves `/metrics` and `/healthz` from now on, if they are asked for and not served yet."""
        if self.metrics is None or self._metrics_served:
            return
        self._metrics_served = True
        host, port = self.metrics_address
        self.metrics_address = (host, await self.metrics.serve(host, port or 0, self.health))
        log.info("metrics on http://%s:%d/metrics", *self.metrics_address)

    async def setup_hook(self) -> None:
        await self.serve_metrics()  # a test's bot, started by `login` and `connect` alone
        self.store = await open_store(self.db_path)
        if self.picture_workers:
            self.pictures.hands.worker = runtime.start_picture_worker()
            self.pictures.others.worker = runtime.start_picture_worker()
        if self.ownership is not None:  # before anything is loaded: only its shards' servers
            await self.ownership.take(self.store, self._stop)
        self.service: TableService = self.service_factory(self.store, self._on_service_events)
        if self.metrics is not None:
            self.service.observer = self.metrics
            self.metrics.count_tables(self.service.views)
        shared = self.ownership is not None and self.ownership.shared()  # others change settings
        self.preferences = Preferences(
            self.store, self.service.clock, users_for=USER_SETTINGS_SECONDS if shared else None
        )
        self.replays = Replays(self.store, self.service.clock, self.keep_days)
        self.readers = Readers(self)
        self.leagues = LeagueService(
            self.store,
            self.service,
            open_thread=self.league_presenter.open_thread,
            on_events=self._on_league_events,
        )
        await self.add_cog(RummyCog(self))
        await self.add_cog(self.league_cog)
        await self.add_cog(LeagueAdminCog(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS, *RULES_EDITOR_ITEMS, LeagueButton, ReplayButton)
        await self.sync_commands()
        if self.tune_gc:  # resuming thousands of tables makes millions of objects to keep: none
            runtime.tune_gc()  # is garbage, so the collector need not walk them as they come
        self._resumed = await self.service.resume()
        await self.presenter.restore()
        await self.league_presenter.restore()
        if self.ownership is not None:  # past its leases, no press is answered (`may_send`)
            self.ownership.fence_presses(self._connection.parsers)
        if self.ownership is not None and self.ownership.shared():  # once its tables are loaded:
            # a press handed on earlier would find none and be answered "this table has closed"
            self.ownership.relay_dms(self.store, self._connection.parsers, self.runs_table, self._stop)
        self._woken = await self.leagues.load()
        self.service.listen(self._to_leagues)  # from now on: a restart's events settle nothing
        if self.activity_settings is not None:
            self.activity_server, self.activity_port = await start_activity(self, self.activity_settings)
        self.retention = Retention(
            self.store,
            self.service.clock,
            RetentionSettings(keep_days=self.keep_days),
            keep_tables=self.leagues.unsettled_tables,
        )
        self._timers = [
            asyncio.create_task(self.service.run(self._stop)),
            asyncio.create_task(self.leagues.run(self._stop)),
            asyncio.create_task(self.retention.run(self._stop)),
        ]
        if self.request_budget is not None:
            share = share_budget(
                self.presenter.budget, self.request_budget, self.store, self.service.clock.now, self._stop
            )
            self._timers.append(asyncio.create_task(share))
        if self.tune_gc:
            runtime.tune_gc()

    async def sync_commands(self) -> None:
        """Sends the slash commands to Discord only when they differ from what this database
        last synced for that scope (a hash of the payload is kept): every start would otherwise
        spend a rate-limited request, and globally a change takes a while to reach clients."""
        if self.ownership is not None and not self.ownership.syncs_commands():
            log.info("Slash commands are synced by the process that runs shard 0.")
            return
        guild = discord.Object(self.dev_guild_id) if self.dev_guild_id is not None else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        # As sent, translations included (so a new translation syncs like any other change).
        translator = CommandTranslator()
        await self.tree.set_translator(translator)
        commands = self.tree.get_commands(guild=guild)
        payload = [await command.get_translated_payload(self.tree, translator) for command in commands]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands:{'global' if guild is None else guild.id}"
        if await self.store.front_end_state(key) == digest:
            log.info("Slash commands unchanged since the last sync: not synced again.")
            return
        if guild is None:
            assert self.application_id is not None  # known once logged in
            payload += await self._entry_points(self.application_id)
            await self.http.bulk_upsert_global_commands(self.application_id, payload=payload)
        else:
            await self.tree.sync(guild=guild)
        await self.store.set_front_end_state(key, digest, self.service.clock.now())

    async def _entry_points(self, application_id: int) -> list[dict[str, Any]]:
        """The application's entry point (the "Launch" command Discord makes for an Activity) as
        Discord has it: a global sync sends it back unchanged, since a bulk overwrite deletes
        every command it leaves out, and discord.py's command tree knows nothing of it."""
        existing: list[dict[str, Any]] = [
            dict(command) for command in await self.http.get_global_commands(application_id)
        ]
        return [
            {key: command[key] for key in ENTRY_POINT_FIELDS if key in command}
            for command in existing
            if command.get("type") == PRIMARY_ENTRY_POINT
        ]

    async def on_ready(self) -> None:
        """After a restart, each resumed table gets a fresh table message and the player to act
        their hand with the grace deadline the service gave them; then what the leagues did on
        waking up (a night starting, one missed, check-ins resumed) is shown; then, in the
        background, every other seated player's hand DM, and turn mentions left over from
        before (posted, never stored) are deleted."""
        log.info("logged in as %s; %d table(s) resumed", self.user, len(self._resumed))
        resumed, self._resumed = self._resumed, []
        woken, self._woken = self._woken, []
        try:
            await self.presenter.republish(resumed)
            await self.league_presenter.publish(woken)
            self.in_background(self.presenter.refresh_hands(resumed))
            self.in_background(self.presenter.sweep_mentions(resumed))
        finally:
            self._shown_ready.set()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Discord only runs a button's callback while the message still carries it; a press on
        an older rendering (a hand from an earlier turn) would otherwise go unanswered."""
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        custom_id = str(interaction_field(interaction, "custom_id") or "")
        if not custom_id.startswith("rummy:"):
            return
        current = {
            child.custom_id
            for row in interaction.message.components
            for child in getattr(row, "children", [row])
            if getattr(child, "custom_id", None)
        }
        if custom_id not in current and not interaction.response.is_done():
            # Most are presses in a hand DM: answered as the DM speaks (its table's server)
            table = re.match(r"rummy:\w+:(\d+):", custom_id)
            _ = await self.actions.reader(interaction, int(table[1]) if table else None)
            await interaction.response.send_message(_(STALE), ephemeral=True)

    async def _on_service_events(self, events: list[TableEvent]) -> None:
        """The service's clock must not wait on Discord: showing its events runs on its own."""
        self.in_background(self.presenter.publish(events))

    async def _on_league_events(self, events: list[LeagueEvent | TableEvent]) -> None:
        """Likewise for what the league scheduler does on its own (reminders, a night starting)."""
        self.in_background(self.league_presenter.publish(events))

    def _to_leagues(self, events: Sequence[TableEvent], actor: int | None) -> None:
        """The league service hears every batch of table events the service saves, whatever
        caused it (a command, a button, a clock): a finished league table is settled from it,
        and what that leads to (results, the next round) is shown."""
        self.in_background(self._settle_leagues(list(events)))

    async def _settle_leagues(self, events: list[TableEvent]) -> None:
        try:
            more = await self.leagues.table_events(events)
        except Exception:
            log.exception("the league service could not take %d table event(s)", len(events))
            return
        if more:
            await self.league_presenter.publish(more)

    def in_background(self, showing: Coroutine[Any, Any, None]) -> None:
        """Runs `showing` beside the caller; `idle()` waits for it."""
        task = asyncio.get_running_loop().create_task(showing)
        self._publishing.add(task)
        task.add_done_callback(self._publishing.discard)

    async def idle(self) -> None:
        """Waits until every interaction handler and table edit in progress is done (and, once
        connected, what start-up had to show)."""
        if self.is_ready():
            await self._shown_ready.wait()
        while self.actions.in_flight or self.presenter.busy() or self._publishing:
            await self.actions.idle()
            await asyncio.gather(*self._publishing, return_exceptions=True)
            await self.presenter.flush()

    def health(self) -> str | None:
        """What `/healthz` answers: None while the bot is connected and can save, else what it
        is doing instead (waiting for the database or for Discord, shutting down) or why it
        cannot save."""
        if self.closing:
            return "shutting down"
        if self._waiting_for is not None:
            return self._waiting_for
        if not self.is_ready() or self.is_closed():
            return "connecting to Discord"
        if self.store.lost is not None:  # the file replaced, or a shard's lease lost
            return f"saving stopped: {self.store.lost}"
        if self.store.refusing is not None:  # a full disk, a server that cannot be reached
            return f"database unavailable: {self.store.refusing}"
        return None

    async def close(self) -> None:
        """A clean stop (SIGTERM, Ctrl-C, a test's end): new interactions are refused, the clocks
        stop (a pass still running hands its events on to publishing), every move already taken is
        saved, what it announces reaches Discord, and only then the session closes; all that within
        `SHUTDOWN_SECONDS`. Then the workers, the metrics endpoint and the store. Whoever asks
        while it is under way (discord.py itself, a signal, the bot stopping itself) waits for the
        same stop, which no caller's cancellation cuts short."""
        if self._shutdown is None:
            self._shutdown = asyncio.get_running_loop().create_task(self._close())
        await asyncio.shield(self._shutdown)

    async def _close(self) -> None:
        self.closing = True
        self._stop.set()
        try:
            async with asyncio.timeout(SHUTDOWN_SECONDS):
                await self._finish_work()
        except TimeoutError:
            log.warning(
                "shutting down with work unfinished after %.0f s: saved moves are shown at restart",
                SHUTDOWN_SECONDS,
            )
        await self.presenter.call_off_mentions()
        if self.activity_server is not None:  # its pages reconnect to whoever serves the table next
            await self.activity_server.close()
        await super().close()
        if self._thinkers is not None:  # no timer is left to ask them anything
            self._thinkers.close()  # on the loop, whose pipes it unwatches; idle workers leave at once
        self.pictures.close()
        if self.metrics is not None:
            await self.metrics.close()
        if hasattr(self, "store"):
            if self.ownership is not None:
                await self.ownership.release(self.store)
            await self.store.close()

    async def _finish_work(self) -> None:
        # Waited for, never cancelled: a pass ends with its moves saved.
        await asyncio.gather(*(asyncio.shield(timer) for timer in self._timers), return_exceptions=True)
        if hasattr(self, "service"):
            await self.service.shut_down()
        await self.idle()

    def may_send(self) -> bool:
        """Whether this process may send Discord anything: always, but for a sharded one whose
        shard leases have ended by its own clock (`ShardOwnership.may_send`), which never may
        again."""
        return self.ownership is None or self.ownership.may_send()

    def runs_table(self, table_id: int) -> bool:
        """Whether this process runs that table (a sharded one runs its shards' only)."""
        view = self.service.view(table_id)
        return view is not None and view.active

    async def _lost_shards(self, error: LeaseLostError) -> None:
        """Another process runs this one's shards now (or may, any moment): nothing more is
        saved here, and the bot shuts down (`python -m bot` then exits saying why)."""
        self.store.fence(error)
        self.failure = error
        self._stopping = asyncio.get_running_loop().create_task(self.close())


class ShardedRummyBot(RummyBot, commands.AutoShardedBot):
    """`RummyBot` for `RUMMY_SHARD_COUNT` / `RUMMY_SHARD_IDS`: discord.py's `AutoShardedBot`
    opens one gateway connection for each of `shards.ids` (of `shards.count`), and Discord sends
    each the events of its servers; the bot runs those servers' tables and leagues only."""

    def __init__(self, db_path: str | Path, *, shards: Shards, **options: Any) -> None:
        options.update(shard_count=shards.count, shard_ids=list(shards.ids))
        super().__init__(db_path, shards=shards, **options)
