"""The schema's migrations in PostgreSQL's dialect: the same as `schema.MIGRATIONS`, numbered
alike and applied the same way (all pending ones in one transaction, a newer database refused,
a table dropped outside the bot not made again).

Where SQLite's types are loose, these say what the store writes: ids and counts `BIGINT`
(Discord's ids pass 2^31), times `DOUBLE PRECISION` (seconds, as SQLite's REAL), JSON as `TEXT`
like SQLite's (the store reads and writes it whole). The number of migrations applied is the
one row of `schema_version`.
"""

from __future__ import annotations

import asyncpg

from bot.store.schema import SCHEMA_VERSION, refuse_empty, refuse_missing_tables, refuse_newer, tables_made_by

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: settings, tables, matches with snapshots and their append-only command log, standings, stats.
    (
        """CREATE TABLE guild_settings (
            guild_id BIGINT PRIMARY KEY,
            settings TEXT NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE tables (
            id BIGINT PRIMARY KEY,
            guild_id BIGINT NOT NULL,
            channel_id BIGINT NOT NULL,
            format TEXT NOT NULL,
            rules TEXT NOT NULL,
            point_value BIGINT NOT NULL,
            host_id BIGINT NOT NULL,
            max_seats BIGINT NOT NULL,
            seats TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'cancelled')),
            league_id BIGINT,
            created_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
        """CREATE UNIQUE INDEX tables_one_active_per_channel
            ON tables (channel_id) WHERE status IN ('open', 'playing')""",
        "CREATE INDEX tables_by_status ON tables (status)",
        """CREATE TABLE matches (
            id BIGINT PRIMARY KEY,
            table_id BIGINT NOT NULL UNIQUE REFERENCES tables (id),
            status TEXT NOT NULL CHECK (status IN ('playing', 'over', 'abandoned')),
            seq BIGINT NOT NULL,
            snapshot TEXT NOT NULL,
            clock TEXT NOT NULL,
            started_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE deals (
            match_id BIGINT NOT NULL REFERENCES matches (id),
            number BIGINT NOT NULL,
            snapshot TEXT NOT NULL,
            winner BIGINT,
            finished_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (match_id, number)
        )""",
        """CREATE TABLE match_commands (
            match_id BIGINT NOT NULL REFERENCES matches (id),
            seq BIGINT NOT NULL,
            command_id TEXT,
            seat BIGINT,
            command TEXT NOT NULL,
            events TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (match_id, seq)
        )""",
        """CREATE UNIQUE INDEX match_commands_by_id
            ON match_commands (match_id, command_id) WHERE command_id IS NOT NULL""",
        """CREATE TABLE match_standings (
            match_id BIGINT NOT NULL REFERENCES matches (id),
            seat BIGINT NOT NULL,
            user_id BIGINT,
            standing BIGINT NOT NULL,
            status TEXT NOT NULL,
            rejoined BIGINT NOT NULL,
            PRIMARY KEY (match_id, seat)
        )""",
        """CREATE TABLE user_stats (
            guild_id BIGINT NOT NULL,
            user_id BIGINT NOT NULL,
            matches_played BIGINT NOT NULL DEFAULT 0,
            matches_won BIGINT NOT NULL DEFAULT 0,
            deals_played BIGINT NOT NULL DEFAULT 0,
            deals_won BIGINT NOT NULL DEFAULT 0,
            drops BIGINT NOT NULL DEFAULT 0,
            wrong_shows BIGINT NOT NULL DEFAULT 0,
            chips_won BIGINT NOT NULL DEFAULT 0,
            best_pool_finish BIGINT,
            PRIMARY KEY (guild_id, user_id)
        )""",
    ),
    # 2: scheduled pool leagues (a league's names are unique per server, letter case aside).
    (
        """CREATE TABLE leagues (
            id BIGINT PRIMARY KEY,
            guild_id BIGINT NOT NULL,
            name TEXT NOT NULL,
            state TEXT NOT NULL,
            next_wake DOUBLE PRECISION,
            created_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
        "CREATE UNIQUE INDEX leagues_name_per_guild ON leagues (guild_id, lower(name))",
        "CREATE INDEX tables_by_league ON tables (league_id) WHERE league_id IS NOT NULL",
    ),
    # 3: posted messages and closed DMs.
    (
        """CREATE TABLE posted_messages (
            key TEXT PRIMARY KEY,
            channel_id BIGINT NOT NULL,
            message_id BIGINT NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE dm_refusals (
            user_id BIGINT PRIMARY KEY,
            at DOUBLE PRECISION NOT NULL
        )""",
    ),
    # 4: damaged tables and leagues set aside.
    (
        "ALTER TABLE tables ADD COLUMN damage TEXT",
        "ALTER TABLE leagues ADD COLUMN damage TEXT",
    ),
    # 5: a player's own settings.
    (
        """CREATE TABLE user_settings (
            user_id BIGINT PRIMARY KEY,
            settings TEXT NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
    ),
    # 6: the front end's small facts.
    (
        """CREATE TABLE front_end_state (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
    ),
    # 7: the command a match's snapshot was taken after.
    ("ALTER TABLE matches ADD COLUMN snapshot_seq BIGINT",),
    # 8: when a finished match's log, snapshot and deals were pruned, and the matches not yet pruned.
    (
        "ALTER TABLE matches ADD COLUMN pruned_at DOUBLE PRECISION",
        """CREATE INDEX matches_unpruned ON matches (id, updated_at, table_id)
            WHERE status <> 'playing' AND pruned_at IS NULL""",
    ),
    # 9: which process runs each shard, until when (`bot.store.leases`; times are the server's),
    # and DM presses handed to the process that runs their table (`bot.store.relay`).
    (
        """CREATE TABLE shard_leases (
            shard_id BIGINT PRIMARY KEY,
            shard_count BIGINT NOT NULL,
            holder TEXT NOT NULL,
            acquired_at DOUBLE PRECISION NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE forwarded_interactions (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            shard_id BIGINT NOT NULL,
            payload TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL
        )""",
    ),
    # 10: replays and histories (`bot.store.replay_rows`) look for a player's matches and a server's
    # tables; both lists are kept for good, so without these each look would read them whole.
    (
        "CREATE INDEX standings_by_user ON match_standings (user_id) WHERE user_id IS NOT NULL",
        "CREATE INDEX tables_by_guild ON tables (guild_id, channel_id)",
    ),
)

# Held for the migration's transaction, so that two processes starting at once on one database
# migrate it one after the other (the second finds nothing to do).
_MIGRATION_LOCK = 0x52554D4D59  # "RUMMY"


async def migrate(conn: asyncpg.Connection, create: bool = True) -> int:
    """Brings the database to `SCHEMA_VERSION`; returns the version it found. Without `create`,
    one the bot never set up is refused (and left as it was: the transaction rolls back)."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        found = int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))
        refuse_newer(found)
        refuse_empty(found, create)
        rows = await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        refuse_missing_tables(tables_made_by(MIGRATIONS[:found]), {str(row[0]) for row in rows})
        for statements in MIGRATIONS[found:]:
            for statement in statements:
                await conn.execute(statement)
        if found < SCHEMA_VERSION:
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", SCHEMA_VERSION)
    return found
