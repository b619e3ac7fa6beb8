"""The database schema as numbered migrations, applied at start-up in one transaction.

These are SQLite's; `postgres_schema` has the same migrations, numbered alike, in PostgreSQL's
dialect. In SQLite `PRAGMA user_version` holds the number of migrations applied. A migration is
only ever added at the end, never edited, so every database reaches the same schema by the same
steps. A database with more migrations than this code knows was written by a newer release: we
refuse to touch it rather than guess, because an older bot writing to a newer schema can lose
standings.
"""

from __future__ import annotations

import re

import aiosqlite

from bot.store.faults import NoDatabaseError, UnusableDatabaseError

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: settings, tables, matches with snapshots and their append-only command log, standings, stats.
    (
        """CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            settings TEXT NOT NULL,              -- JSON: defaults a server chose (format, rules, ...)
            updated_at REAL NOT NULL
        )""",
        """CREATE TABLE tables (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,         -- a thread is a channel too
            format TEXT NOT NULL,
            rules TEXT NOT NULL,                 -- JSON of bot.engine.Rules
            point_value INTEGER NOT NULL,
            host_id INTEGER NOT NULL,
            max_seats INTEGER NOT NULL,
            seats TEXT NOT NULL,                 -- JSON list: user id (null for a computer), name, level
            status TEXT NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'cancelled')),
            league_id INTEGER,                   -- leagues come later; a table may then belong to one
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
        """CREATE UNIQUE INDEX tables_one_active_per_channel
            ON tables (channel_id) WHERE status IN ('open', 'playing')""",
        "CREATE INDEX tables_by_status ON tables (status)",
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY,
            table_id INTEGER NOT NULL UNIQUE REFERENCES tables (id),
            status TEXT NOT NULL CHECK (status IN ('playing', 'over', 'abandoned')),
            seq INTEGER NOT NULL,                -- commands applied: the last seq in match_commands
            snapshot TEXT NOT NULL,              -- Match.to_json() less finished_deals (see deals) and
                                                 -- log (match_commands is the log; log_tail is kept)
            clock TEXT NOT NULL,                 -- JSON: turn deadlines and extra-time banks
            started_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
        """CREATE TABLE deals (
            match_id INTEGER NOT NULL REFERENCES matches (id),
            number INTEGER NOT NULL,             -- 1 for the first deal of the match
            snapshot TEXT NOT NULL,              -- the finished Deal.to_json(), written once
            winner INTEGER,
            finished_at REAL NOT NULL,
            PRIMARY KEY (match_id, number)
        ) WITHOUT ROWID""",
        """CREATE TABLE match_commands (
            match_id INTEGER NOT NULL REFERENCES matches (id),
            seq INTEGER NOT NULL,                -- 1, 2, 3, ... with no gaps
            command_id TEXT,                     -- the front end's id for the command, if it gave one
            seat INTEGER,
            command TEXT NOT NULL,               -- JSON, exactly as the engine logged it
            events TEXT NOT NULL,                -- JSON list of the events it produced (private ones too)
            at REAL NOT NULL,
            PRIMARY KEY (match_id, seq)
        ) WITHOUT ROWID""",
        """CREATE UNIQUE INDEX match_commands_by_id
            ON match_commands (match_id, command_id) WHERE command_id IS NOT NULL""",
        """CREATE TABLE match_standings (
            match_id INTEGER NOT NULL REFERENCES matches (id),
            seat INTEGER NOT NULL,
            user_id INTEGER,                     -- null for a computer player
            standing INTEGER NOT NULL,           -- chips (Points, Deals) or pool score (Pool)
            status TEXT NOT NULL,                -- in, eliminated, left
            rejoined INTEGER NOT NULL,
            PRIMARY KEY (match_id, seat)
        ) WITHOUT ROWID""",
        """CREATE TABLE user_stats (
            guild_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            matches_played INTEGER NOT NULL DEFAULT 0,
            matches_won INTEGER NOT NULL DEFAULT 0,
            deals_played INTEGER NOT NULL DEFAULT 0,
            deals_won INTEGER NOT NULL DEFAULT 0,
            drops INTEGER NOT NULL DEFAULT 0,
            wrong_shows INTEGER NOT NULL DEFAULT 0,
            chips_won INTEGER NOT NULL DEFAULT 0,
            best_pool_finish INTEGER,            -- 1 is a pool won; null until a pool is finished
            PRIMARY KEY (guild_id, user_id)
        ) WITHOUT ROWID""",
    ),
    # 2: scheduled pool leagues. A league's whole state is one JSON document (it is read and
    # written whole, under the league's lock); next_wake is the scheduler's stored next time.
    (
        """CREATE TABLE leagues (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            state TEXT NOT NULL,                 -- JSON: League.to_json(), member names, announcements
            next_wake REAL,                      -- the earliest reminder, start or check-in deadline
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
        "CREATE UNIQUE INDEX leagues_name_per_guild ON leagues (guild_id, name COLLATE NOCASE)",
        "CREATE INDEX tables_by_league ON tables (league_id) WHERE league_id IS NOT NULL",
    ),
    # 3: what the front end posted and keeps editing, and closed DMs, so a restart edits the
    # same table message and hand DMs rather than posting new ones.
    (
        """CREATE TABLE posted_messages (
            key TEXT PRIMARY KEY,                -- what it shows, named by the front end: table:12
            channel_id INTEGER NOT NULL,
            message_id INTEGER NOT NULL,
            updated_at REAL NOT NULL
        ) WITHOUT ROWID""",
        """CREATE TABLE dm_refusals (
            user_id INTEGER PRIMARY KEY,
            at REAL NOT NULL                     -- when Discord last refused a DM to this user
        ) WITHOUT ROWID""",
    ),
    # 4: a table or league whose stored rows cannot be read back is kept as it is, set aside
    # with the reason (null while it is sound); its channel is told once, when this is first set.
    (
        "ALTER TABLE tables ADD COLUMN damage TEXT",
        "ALTER TABLE leagues ADD COLUMN damage TEXT",
    ),
    # 5: a player's own settings (the deck's colours now, their language later), kept across
    # servers since their hand reaches them by DM; a server's live in guild_settings.
    (
        """CREATE TABLE user_settings (
            user_id INTEGER PRIMARY KEY,
            settings TEXT NOT NULL,              -- JSON: what the player chose (deck, ...)
            updated_at REAL NOT NULL
        ) WITHOUT ROWID""",
    ),
    # 6: small facts the front end keeps about itself across restarts (the hash of the slash
    # commands it last synced, so an unchanged tree is not sent to Discord again).
    (
        """CREATE TABLE front_end_state (
            key TEXT PRIMARY KEY,                -- named by the front end: commands:global
            value TEXT NOT NULL,
            updated_at REAL NOT NULL
        ) WITHOUT ROWID""",
    ),
    # 7: a match's snapshot is no longer rewritten after every command (see `Store.save_command`):
    # the command it was taken after (null in older rows: every command, so `seq`).
    ("ALTER TABLE matches ADD COLUMN snapshot_seq INTEGER",),
    # 8: retention (`Store.prune`): when a finished match's command log, snapshot and finished
    # deals were deleted (null while they are kept); the index finds the matches not yet pruned.
    (
        "ALTER TABLE matches ADD COLUMN pruned_at REAL",
        """CREATE INDEX matches_unpruned ON matches (id, updated_at, table_id)
            WHERE status <> 'playing' AND pruned_at IS NULL""",
    ),
    # 9: sharded processes' shard leases (`bot.store.leases`) and the DM presses one hands to
    # another (`bot.store.relay`). Only PostgreSQL databases are sharded, so these stay empty
    # here; they are made all the same so that both backends number their migrations alike and
    # `migrate-db` finds the same tables on both sides.
    (
        """CREATE TABLE shard_leases (
            shard_id INTEGER PRIMARY KEY,
            shard_count INTEGER NOT NULL,
            holder TEXT NOT NULL,              -- which process: host, pid and a random tag
            acquired_at REAL NOT NULL,
            expires_at REAL NOT NULL           -- seconds since the epoch, by the database's clock
        )""",
        """CREATE TABLE forwarded_interactions (
            id INTEGER PRIMARY KEY,
            shard_id INTEGER NOT NULL,
            payload TEXT NOT NULL,
            at REAL NOT NULL
        )""",
    ),
    # 10: replays and histories (`bot.store.replay_rows`) look for a player's matches and a server's
    # tables; both lists are kept for good, so without these each look would read them whole.
    (
        "CREATE INDEX standings_by_user ON match_standings (user_id) WHERE user_id IS NOT NULL",
        "CREATE INDEX tables_by_guild ON tables (guild_id, channel_id)",
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)


def tables_made_by(migrations: tuple[tuple[str, ...], ...]) -> list[str]:
    """The names of the tables these migrations create, in order."""
    return [
        name
        for statements in migrations
        for statement in statements
        for name in re.findall(r"^CREATE TABLE (\w+)", statement)
    ]


TABLES = tuple(tables_made_by(MIGRATIONS))  # the schema's tables, those referred to first
# Written by sharded processes alone, which only PostgreSQL serves: empty in a SQLite file.
SHARDING_TABLES = ("shard_leases", "forwarded_interactions")


async def migrate(conn: aiosqlite.Connection, create: bool = True) -> int:
    """Brings the database to `SCHEMA_VERSION`; returns the version it found. All pending
    migrations run in one transaction, so a crash mid-way leaves the database as it was.
    Without `create`, a database the bot never set up is refused (`refuse_empty`)."""
    await conn.execute("BEGIN IMMEDIATE")
    try:
        async with conn.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        found = int(row[0]) if row else 0
        refuse_newer(found)
        refuse_empty(found, create)
        async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cursor:
            present = {str(row[0]) for row in await cursor.fetchall()}
        refuse_missing_tables(tables_made_by(MIGRATIONS[:found]), present)
        for statements in MIGRATIONS[found:]:
            for statement in statements:
                await conn.execute(statement)
        if found < SCHEMA_VERSION:
            await conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        await conn.execute("ROLLBACK")
        raise
    await conn.execute("COMMIT")
    return found


def refuse_newer(found: int) -> None:
    """A database with more migrations than this code knows is refused (see the module)."""
    if found > SCHEMA_VERSION:
        raise UnusableDatabaseError(
            f"The database is at schema version {found}, newer than this bot's {SCHEMA_VERSION}: "
            "update the bot or restore an older backup."
        )


def refuse_empty(found: int, create: bool) -> None:
    """Without `create`, a database with no migration applied (an empty file, another program's)
    is refused rather than set up: the caller meant one the bot already uses."""
    if found == 0 and not create:
        raise NoDatabaseError("It holds no rummy-bot database (the bot never ran on it).")


def refuse_missing_tables(expected: list[str], present: set[str]) -> None:
    """A table that an applied migration made and that is gone was dropped outside the bot. It is
    not made again empty: that would silently lose every row it held (a match without its
    deals cannot be resumed either), so the bot stops with the names, for someone to restore."""
    missing = [name for name in expected if name not in present]
    if missing:
        raise UnusableDatabaseError(
            f"The database is missing its table{'s' if len(missing) > 1 else ''} {', '.join(missing)}: "
            "it was changed outside the bot. Restore a backup of the database; the bot does not "
            "make missing tables again, which would lose what they held."
        )
