"""Persistence in SQLite: the only package that writes SQL. See `store.Store`."""

from bot.store.checkpoint import CheckpointPolicy
from bot.store.errors import (
    ChannelBusyError,
    CorruptMatchError,
    DamagedRowError,
    DatabaseGoneError,
    DuplicateCommandError,
    StoreError,
    WritesRefusedError,
)
from bot.store.records import (
    ActiveTable,
    CommandRecord,
    SeatRecord,
    StandingRow,
    StatsDelta,
    StoredLeague,
    StoredMatch,
    TableRecord,
    TableStatus,
)
from bot.store.schema import SCHEMA_VERSION
from bot.store.settings import database_path
from bot.store.store import Store

__all__ = [
    "SCHEMA_VERSION",
    "ActiveTable",
    "ChannelBusyError",
    "CheckpointPolicy",
    "CommandRecord",
    "CorruptMatchError",
    "DamagedRowError",
    "DatabaseGoneError",
    "DuplicateCommandError",
    "SeatRecord",
    "StandingRow",
    "StatsDelta",
    "Store",
    "StoreError",
    "StoredLeague",
    "StoredMatch",
    "TableRecord",
    "TableStatus",
    "WritesRefusedError",
    "database_path",
]
