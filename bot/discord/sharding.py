"""A sharded bot process's hold on its shards (`RUMMY_SHARD_COUNT` / `RUMMY_SHARD_IDS`).

Before it loads a table, the process narrows its store to the servers of its shards and takes
their leases (`bot.store.leases`: refused, naming the shard, while another live process holds
one); a keeper renews them while it runs; at a clean shutdown they are released once the last
write is committed, so a process started next for those shards takes them at once. A lease lost
while running (the database names another holder, or it could not be renewed in time) fences
the store, so nothing more is saved, and the bot shuts down: a shard's tables are never run by
two processes. Nor are they shown by two: the process knows by its own clock when its leases
end (`LeaseClock`), and from then on it sends Discord nothing (`fence_requests`: every request
leaves through one check) and answers no press (`fence_presses`), however late its loop wakes
up; it shuts down as if it had lost them. Discord sends DM presses to shard 0 alone: a press on
a table another shard's process runs is handed to that process through the database
(`relay_dms`, `bot.store.relay`).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from types import SimpleNamespace
from typing import Any

import aiohttp
import asyncpg
import discord

from bot.store import LeaseLostError, Shards, Store, StoreError
from bot.store.leases import LeaseClock, LeaseKeeper, ShardLeases, new_holder
from bot.store.postgres import PostgresStore
from bot.store.relay import InteractionRelay
from bot.store.shards import shard_of

# A table's components carry its id first (`bot.discord.components`): `rummy:hand:<table>:...`.
_TABLE_OF_PRESS = re.compile(r"rummy:\w+:(\d+)")
_UNREACHABLE = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError)
Parser = Callable[[Any], Any]

log = logging.getLogger(__name__)


class ShardOwnership:
    """One per sharded bot: its shards, its name in their leases, and the tasks that keep them."""

    def __init__(
        self, shards: Shards, lease_seconds: float, on_lost: Callable[[LeaseLostError], Awaitable[None]]
    ) -> None:
        self.shards = shards
        self.lease_seconds = lease_seconds
        self.on_lost = on_lost
        self.holder = new_holder()
        self.clock: LeaseClock | None = None  # from when the leases are taken
        self.lost: LeaseLostError | None = None
        self._losing: asyncio.Future[None] | None = None
        self._leases: ShardLeases | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._receiver: asyncio.Task[None] | None = None
        self._forwarding: set[asyncio.Task[None]] = set()

    async def take(self, store: Store, stop: asyncio.Event) -> None:
        """Serves only these shards' servers from `store` and takes their leases, kept until
        `stop` is set; `ShardTakenError` if another live process holds one of them."""
        if not isinstance(store, PostgresStore):  # the settings refuse this first
            raise StoreError("a sharded bot needs a PostgreSQL database (RUMMY_DATABASE_URL)")
        store.serve_shards(self.shards)
        leases = store.leases(self.shards, self.holder, self.lease_seconds)
        clock = LeaseClock(self.lease_seconds)
        sent = clock.now()
        await leases.acquire()
        clock.renewed(sent)
        self._leases, self.clock = leases, clock  # released at the end only once taken
        self._keeper = asyncio.create_task(LeaseKeeper(leases, clock, self._lose).run(stop))

    async def _lose(self, error: LeaseLostError) -> None:
        """The leases are lost (or may be): `on_lost`, once, however many notice."""
        if self.lost is None:
            self.lost = error
            await self.on_lost(error)

    def may_send(self) -> bool:
        """Whether this process may still send Discord anything: not once its leases have ended
        by its own clock, or its session that says it lives has, or they were lost. The first
        time it may not, the leases are lost as if the keeper had found out."""
        if self.lost is not None:
            return False
        if self.clock is None or self._leases is None:
            return True  # none taken yet: logging in
        if self.clock.holds() and self._leases.in_session():
            return True
        why = "its lease ended by its own clock, or its database session did, before it was renewed"
        self.lost = LeaseLostError(
            f"this process lost {self.shards.named()}: {why}; it sends and saves nothing more"
        )
        self._losing = asyncio.ensure_future(self.on_lost(self.lost))
        return False

    def fence_requests(self, trace: aiohttp.TraceConfig) -> None:
        """Every HTTP request discord.py makes (REST, interaction answers, the gateway's
        connection) passes `trace` as it starts: one past `may_send` is refused there, before it
        connects, as `NotSent` (a `discord.HTTPException`, so that whoever sent it takes it as
        any refusal)."""

        async def fence(*_: object) -> None:
            if not self.may_send():
                raise NotSent()

        trace.on_request_start.append(fence)

    def fence_presses(self, parsers: MutableMapping[str, Parser]) -> None:
        """Every interaction, from this process's gateway or handed on by another process
        (`relay_dms`, which wraps this), passes discord.py's INTERACTION_CREATE parser: past
        `may_send` it is dropped unanswered; the process that holds the shard now answers it."""
        parse = parsers["INTERACTION_CREATE"]

        def checked(data: Any) -> None:
            if self.may_send():
                parse(data)
            else:
                log.info("an interaction came after this process's leases ended: left to their holder")

        parsers["INTERACTION_CREATE"] = checked

    def relay_dms(
        self,
        store: Store,
        parsers: MutableMapping[str, Parser],
        runs: Callable[[int], bool],
        stop: asyncio.Event,
    ) -> None:
        """Hands on the DM presses for tables of other shards, and takes those handed to this
        process's shards, until `stop`. `parsers` is discord.py's table of gateway event
        parsers (`ConnectionState.parsers`, private but stable through 2.x): its
        INTERACTION_CREATE is wrapped, and a press received from another process goes to the
        original as if this process's gateway had sent it. `runs`: whether a table is loaded here."""
        assert isinstance(store, PostgresStore)  # `take` refused any other
        parse = parsers["INTERACTION_CREATE"]
        relay = store.relay(self.shards, self.holder)

        def route(data: Any) -> None:
            table_id = _dm_table(data)
            if table_id is None or runs(table_id):
                parse(data)
                return
            task = asyncio.get_running_loop().create_task(self._route(store, relay, parse, data, table_id))
            self._forwarding.add(task)
            task.add_done_callback(self._forwarding.discard)

        parsers["INTERACTION_CREATE"] = route
        self._receiver = asyncio.create_task(relay.run(stop, parse))

    async def _route(
        self, store: Store, relay: InteractionRelay, parse: Parser, data: Any, table_id: int
    ) -> None:
        """A DM press for a table not loaded here: to the process of its server's shard, unless
        that is this one (a closed table, say), which answers it as usual."""
        try:
            guild = await store.table_guild(table_id)
            if guild is not None and not self.shards.owns(guild):
                await relay.forward(shard_of(guild, self.shards.count), data)
                return
        except _UNREACHABLE as error:
            log.warning("a DM press for table %s could not be handed on: %s", table_id, error)
        parse(data)

    async def release(self, store: Store) -> None:
        """After the bot stopped (`stop` set): once every write is committed, the leases go."""
        running = (self._keeper, self._receiver, self._losing, *self._forwarding)
        tasks = [task for task in running if task is not None]
        for failed in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(failed, Exception):
                log.error("a shard task had failed", exc_info=failed)
        leases, self._leases = self._leases, None  # once, however often the bot is closed
        if leases is None:
            return
        await store.written()
        try:
            await leases.release()
        except _UNREACHABLE as error:
            log.warning("shard leases not released (they expire by themselves): %s", error)

    def shared(self) -> bool:
        """Whether other processes run servers of this database too (a bot not sharded on
        PostgreSQL holds the one shard of one: nobody else's DMs to relay, settings to reread)."""
        return self.shards.count > 1

    def syncs_commands(self) -> bool:
        """Slash commands are one per bot, not per shard: the process of shard 0 syncs them."""
        return 0 in self.shards.ids


class NotSent(discord.HTTPException):
    """A request this process did not send: its shard leases have ended (`may_send`)."""

    def __init__(self) -> None:
        response = SimpleNamespace(status=0, reason="not sent")
        super().__init__(response, "not sent: this process's shard leases have ended")


def _dm_table(data: Any) -> int | None:
    """The table a component press outside any server (in a DM) is for, if it names one."""
    if not isinstance(data, dict) or data.get("guild_id") or data.get("type") != 3:
        return None
    found = _TABLE_OF_PRESS.match(str((data.get("data") or {}).get("custom_id", "")))
    return int(found[1]) if found else None
