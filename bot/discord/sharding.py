"""A sharded bot process's hold on its shards (`RUMMY_SHARD_COUNT` / `RUMMY_SHARD_IDS`).

Before it loads a table, the process narrows its store to the servers of its shards and takes
their leases (`bot.store.leases`: refused, naming the shard, while another live process holds
one); a keeper renews them while it runs; at a clean shutdown they are released once the last
write is committed, so a process started next for those shards takes them at once. A lease
lost while running (the database names another holder, or it could not be renewed in time)
fences the store, so nothing more is saved, and the bot shuts down: a shard's tables are never
run by two processes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import asyncpg

from bot.store import LeaseLostError, Shards, Store, StoreError
from bot.store.leases import LeaseKeeper, ShardLeases, new_holder
from bot.store.postgres import PostgresStore

log = logging.getLogger(__name__)


class ShardOwnership:
    def __init__(
        self, shards: Shards, lease_seconds: float, on_lost: Callable[[LeaseLostError], Awaitable[None]]
    ) -> None:
        self.shards = shards
        self.lease_seconds = lease_seconds
        self.on_lost = on_lost
        self.holder = new_holder()
        self._leases: ShardLeases | None = None
        self._keeper: asyncio.Task[None] | None = None

    async def take(self, store: Store, stop: asyncio.Event) -> None:
        """Serves only these shards' servers from `store` and takes their leases, kept until
        `stop` is set; `ShardTakenError` if another live process holds one of them."""
        if not isinstance(store, PostgresStore):  # the settings refuse this first
            raise StoreError("a sharded bot needs a PostgreSQL database (RUMMY_DATABASE_URL)")
        store.serve_shards(self.shards)
        self._leases = store.leases(self.shards, self.holder, self.lease_seconds)
        await self._leases.acquire()
        self._keeper = asyncio.create_task(LeaseKeeper(self._leases, self.on_lost).run(stop))

    async def release(self, store: Store) -> None:
        """After the bot stopped (`stop` set): once every write is committed, the leases go."""
        if self._keeper is not None:
            await self._keeper
        if self._leases is None:
            return
        await store.written()
        try:
            await self._leases.release()
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            log.warning("shard leases not released (they expire by themselves): %s", error)

    def syncs_commands(self) -> bool:
        """Slash commands are one per bot, not per shard: the process of shard 0 syncs them."""
        return 0 in self.shards.ids
