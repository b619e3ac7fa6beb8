"""Which servers a sharded bot process serves, and the ids it may hand out.

Discord splits a bot's servers into `count` shards by `(guild_id >> 22) % count`; a process
started with `RUMMY_SHARD_IDS` runs the tables and leagues of the servers on those shards only
(`Store.serve_shards` filters what it loads). Its processes share one database, so the ids of new
tables, matches and leagues must not collide between them: each process hands out the ids of one
residue class, `id % count == ids[0]` (its lowest shard, which no other live process holds, see
`bot.store.leases`), above the largest id stored when it started. No sequence is needed, and
`Store.new_table_id` stays a plain counter.
"""

from __future__ import annotations

from dataclasses import dataclass

SHARD_BITS = 22  # a snowflake's bits below its timestamp, which Discord's shard formula skips


def shard_of(guild_id: int, count: int) -> int:
    """The shard a server's events arrive on (Discord's formula)."""
    return (guild_id >> SHARD_BITS) % count


@dataclass(frozen=True)
class Shards:
    """A process's shards: `ids` (sorted, each below `count`) of `count`."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def where(self, column: str = "guild_id") -> str:
        """An SQL condition that holds for the rows of this process's servers (numbers only,
        nothing taken from outside: safe to put in a statement)."""
        listed = ", ".join(str(shard) for shard in self.ids)
        return f"(({column} >> {SHARD_BITS}) % {self.count}) IN ({listed})"

    def next_id(self, after: int) -> int:
        """The smallest id above `after` in this process's residue class (see the module)."""
        start = after + 1
        return start + (self.ids[0] - start) % self.count

    def named(self) -> str:
        """How messages name them: `shards 0, 1 of 2`."""
        noun = "shard" if len(self.ids) == 1 else "shards"
        return f"{noun} {', '.join(map(str, self.ids))} of {self.count}"
