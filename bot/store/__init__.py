"""Persistence: the only package that writes SQL. See `store.Store`, the interface the services
use, and its two databases: `sqlite.SqliteStore` (the default, one file) and
`postgres.PostgresStore` (a `postgresql://` URL)."""

from bot.store.checkpoint import CheckpointPolicy
from bot.store.faults import (
    ChannelBusyError,
    CorruptMatchError,
    DamagedRowError,
    DatabaseGoneError,
    DatabaseUnreachableError,
    DuplicateCommandError,
    LeaseLostError,
    NoDatabaseError,
    ShardTakenError,
    StoreError,
    UnusableDatabaseError,
    WritesRefusedError,
)
from bot.store.location import database_path, database_target
from bot.store.opening import check_store, open_store
from bot.store.records import (
    LOG_TAIL,
    ActiveTable,
    CommandRecord,
    DealSummary,
    MatchSummary,
    Pruned,
    SeatRecord,
    StandingRow,
    StatsDelta,
    StoredDeal,
    StoredLeague,
    StoredMatch,
    TableRecord,
    TableStatus,
)
from bot.store.schema import SCHEMA_VERSION
from bot.store.shards import Shards
from bot.store.store import Store

__all__ = [
    "LOG_TAIL",
    "SCHEMA_VERSION",
    "ActiveTable",
    "ChannelBusyError",
    "CheckpointPolicy",
    "CommandRecord",
    "CorruptMatchError",
    "DamagedRowError",
    "DatabaseGoneError",
    "DatabaseUnreachableError",
    "DealSummary",
    "DuplicateCommandError",
    "LeaseLostError",
    "MatchSummary",
    "NoDatabaseError",
    "Pruned",
    "SeatRecord",
    "ShardTakenError",
    "Shards",
    "StandingRow",
    "StatsDelta",
    "Store",
    "StoreError",
    "StoredDeal",
    "StoredLeague",
    "StoredMatch",
    "TableRecord",
    "TableStatus",
    "UnusableDatabaseError",
    "WritesRefusedError",
    "check_store",
    "database_path",
    "database_target",
    "open_store",
]
