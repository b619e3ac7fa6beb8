"""The store's interface, `Store`, and what its two databases share: the SQL (written in the
dialect both speak, `?` for parameters), the rows' mapping to records, and the write queue.
`opening.open_store` opens the embedded SQLite file (`bot.store.sqlite`) or, for a
`postgresql://` URL, a PostgreSQL database (`bot.store.postgres`).

Writes go through one queue. While a transaction is being committed, the writes that arrive
wait and are then committed together (group commit): with many tables playing at once, one
commit carries many commands, and a single table still gets its own commit at
once. Every caller's `await` returns only after its write is committed, which is what lets the
service promise that a command is persisted before anyone is told about it. A batch that fails
is retried job by job, so one bad write (a channel already taken) fails alone.

A write that must change a row (an update naming the state it expects, `seq = ? - 1` for a
match) fails unless every one of its rows changed: a command that does not follow the stored
one is refused, whichever database holds it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store.faults import (
    CorruptMatchError,
    DamagedRowError,
    DatabaseGoneError,
    LeaseLostError,
    StoreError,
    WritesRefusedError,
)
from bot.store.forgetting import FORGET_STATEMENTS, ForgettingStore
from bot.store.league_rows import (
    DELETE_LEAGUE,
    INSERT_LEAGUE,
    MARK_LEAGUE_DAMAGED,
    UPDATE_LEAGUE,
    LeagueStore,
)
from bot.store.location import URL_SCHEMES
from bot.store.logged import LoggedEntries
from bot.store.messages import (
    ALLOW_DMS,
    FORGET_MESSAGES,
    FORGET_STALE_PROCESSES,
    REFUSE_DMS,
    REMEMBER_MESSAGE,
    SET_FRONT_END_STATE,
    MessageStore,
)
from bot.store.records import (
    LOG_TAIL,
    ActiveTable,
    CommandRecord,
    Pruned,
    SeatRecord,
    StandingRow,
    StatsDelta,
    StoredMatch,
    TableRecord,
    TableStatus,
)
from bot.store.replay_rows import ReplayStore
from bot.store.schema import TABLES
from bot.store.shards import Shards
from bot.store.snapshots import SnapshotEncoder, dumps

_INSERT_TABLE = (
    "INSERT INTO tables (id, guild_id, channel_id, format, rules, point_value, host_id, max_seats, "
    "seats, status, league_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
# The lobby's rules and seat count change with it (the host may change the rules before the start).
_UPDATE_TABLE = (
    "UPDATE tables SET host_id = ?, seats = ?, status = ?, rules = ?, max_seats = ?, updated_at = ? "
    "WHERE id = ?"
)
# A damaged table is only ever marked or closed: its unreadable columns are kept as they are.
_MARK_DAMAGED = "UPDATE tables SET damage = ?, updated_at = ? WHERE id = ?"
_CLOSE_DAMAGED = "UPDATE tables SET status = 'cancelled', updated_at = ? WHERE id = ?"
_INSERT_MATCH = (
    "INSERT INTO matches (id, table_id, status, seq, snapshot, clock, started_at, updated_at) "
    "VALUES (?, ?, 'playing', 0, '{}', '{}', ?, ?)"
)
_INSERT_COMMAND = (
    "INSERT INTO match_commands (match_id, seq, command_id, seat, command, events, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
# `seq = ? - 1` refuses a command that does not follow the stored one (checked by row count).
_UPDATE_MATCH = (
    "UPDATE matches SET seq = ?, snapshot = ?, snapshot_seq = ?, clock = ?, status = ?, updated_at = ? "
    "WHERE id = ? AND seq = ? - 1"
)
# A command saved without a snapshot: the match moves on, its last snapshot stays.
_ADVANCE_MATCH = (
    "UPDATE matches SET seq = ?, clock = ?, status = ?, updated_at = ? WHERE id = ? AND seq = ? - 1"
)
_ABANDON_MATCH = "UPDATE matches SET status = 'abandoned', updated_at = ? WHERE id = ? AND status = 'playing'"
_INSERT_DEAL = "INSERT INTO deals (match_id, number, snapshot, winner, finished_at) VALUES (?, ?, ?, ?, ?)"
_UPSERT_STANDING = (
    "INSERT INTO match_standings (match_id, seat, user_id, standing, status, rejoined) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE SET "
    "standing = excluded.standing, status = excluded.status, rejoined = excluded.rejoined"
)
_UPSERT_STATS = (
    "INSERT INTO user_stats (guild_id, user_id, matches_played, matches_won, deals_played, deals_won, "
    "drops, wrong_shows, chips_won, best_pool_finish) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (guild_id, user_id) DO UPDATE SET "
    "matches_played = user_stats.matches_played + excluded.matches_played, "
    "matches_won = user_stats.matches_won + excluded.matches_won, "
    "deals_played = user_stats.deals_played + excluded.deals_played, "
    "deals_won = user_stats.deals_won + excluded.deals_won, "
    "drops = user_stats.drops + excluded.drops, "
    "wrong_shows = user_stats.wrong_shows + excluded.wrong_shows, "
    "chips_won = user_stats.chips_won + excluded.chips_won, "
    "best_pool_finish = CASE WHEN excluded.best_pool_finish IS NULL THEN user_stats.best_pool_finish "
    "WHEN user_stats.best_pool_finish IS NULL THEN excluded.best_pool_finish "
    "WHEN excluded.best_pool_finish < user_stats.best_pool_finish THEN excluded.best_pool_finish "
    "ELSE user_stats.best_pool_finish END"
)
_UPSERT_SETTINGS = (
    "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?) "
    "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at"
)
_UPSERT_USER_SETTINGS = (
    "INSERT INTO user_settings (user_id, settings, updated_at) VALUES (?, ?, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at"
)
# Retention (`Store.prune`): a finished match keeps its row (ids, status, times) and standings;
# its command log, snapshot, clock and finished deals go. `status <> 'playing'` again, in case.
_PRUNE_COMMANDS = "DELETE FROM match_commands WHERE match_id = ?"
_PRUNE_DEALS = "DELETE FROM deals WHERE match_id = ?"
_MARK_PRUNED = (
    "UPDATE matches SET snapshot = '{}', clock = '{}', pruned_at = ? "
    "WHERE id = ? AND status <> 'playing' AND pruned_at IS NULL"
)
# SQLite's: a row updated smaller stays alone on its page (a finished match's row was a page,
# with its snapshot), while a row deleted lets the page merge with its neighbours. So the row
# is replaced, same id and columns, and the pages of pruned matches' rows are shared again.
MARK_PRUNED_BY_REPLACING = (
    "REPLACE INTO matches (id, table_id, status, seq, snapshot, clock, started_at, updated_at, "
    "snapshot_seq, pruned_at) SELECT id, table_id, status, seq, '{}', '{}', started_at, updated_at, "
    "snapshot_seq, ? FROM matches WHERE id = ? AND status <> 'playing' AND pruned_at IS NULL"
)
# Finished matches not pruned yet, last changed before a time, in id order from a given id, with
# the number of commands each holds (`{served}`: of this process's servers, see `serve_shards`).
# Not a table set aside as damaged (kept as it is for someone to look at), nor one of a league
# set aside (its nights cannot be read to see what they need).
_PRUNABLE = (
    "SELECT m.id, m.seq, m.table_id FROM matches m JOIN tables t ON t.id = m.table_id "
    "WHERE m.status <> 'playing' AND m.pruned_at IS NULL AND m.id > ? AND m.updated_at < ? "
    "AND t.status IN ('finished', 'cancelled') AND t.damage IS NULL "
    "AND (t.league_id IS NULL OR t.league_id NOT IN (SELECT id FROM leagues WHERE damage IS NOT NULL))"
    "{served} ORDER BY m.id LIMIT ?"
)
PRUNE_BATCH_ROWS = 2000  # commands deleted in one transaction at most (a longer match: alone)

# Every write is a list of these statements, in this order, so that the writes of a batch can
# be merged into one `executemany` per statement without reordering any one write's steps.
_WRITE_ORDER = (
    _INSERT_TABLE,
    _UPDATE_TABLE,
    _MARK_DAMAGED,
    _CLOSE_DAMAGED,
    _INSERT_MATCH,
    _INSERT_COMMAND,
    _UPDATE_MATCH,
    _ADVANCE_MATCH,
    _ABANDON_MATCH,
    _INSERT_DEAL,
    _UPSERT_STANDING,
    _UPSERT_STATS,
    _UPSERT_SETTINGS,
    _UPSERT_USER_SETTINGS,
    INSERT_LEAGUE,
    UPDATE_LEAGUE,
    MARK_LEAGUE_DAMAGED,
    DELETE_LEAGUE,
    REMEMBER_MESSAGE,
    FORGET_MESSAGES,
    REFUSE_DMS,
    ALLOW_DMS,
    SET_FRONT_END_STATE,
    FORGET_STALE_PROCESSES,
    _PRUNE_COMMANDS,
    _PRUNE_DEALS,
    _MARK_PRUNED,
    MARK_PRUNED_BY_REPLACING,
    *FORGET_STATEMENTS,
)
_WRITTEN = frozenset(_WRITE_ORDER)  # a statement left out of the order would never be run
_MUST_CHANGE_EVERY_ROW = frozenset(
    {_UPDATE_TABLE, _MARK_DAMAGED, _CLOSE_DAMAGED, _UPDATE_MATCH, _ADVANCE_MATCH, UPDATE_LEAGUE}
)
# The next ids to hand out, read once when the store opens (one process writes a database, or
# each sharded process hands out ids of its own residue class: `bot.store.shards`).
NEXT_IDS = (
    "SELECT (SELECT coalesce(max(id), 0) FROM tables), (SELECT coalesce(max(id), 0) FROM matches), "
    "(SELECT coalesce(max(id), 0) FROM leagues)"
)
LOAD_BATCH = 500  # tables whose matches `active_tables` reads together

Rows = list[Sequence[Any]]
Loaded = dict[int, StoredMatch | DamagedRowError]  # table id -> its match as read, or its damage
Statements = list[tuple[str, Rows]]  # one transaction: each statement with its rows, in order
log = logging.getLogger(__name__)


def must_change_every_row(sql: str) -> bool:
    """Whether each row of this statement must change one row of the database (see the module)."""
    return sql in _MUST_CHANGE_EVERY_ROW


def is_database_url(target: str | Path) -> bool:
    """Whether `open_store` takes this for a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


@dataclass
class _Write:
    statements: dict[str, Rows]
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class Store(LeagueStore, MessageStore, ReplayStore, ForgettingStore, ABC):
    """Async access to the database. Open with `await open_store(path or URL)`; close when done.

    The service layers type against this class alone; a database provides the transaction, the
    two readers and its own errors in the store's words (the abstract methods below)."""

    _mark_pruned = _MARK_PRUNED  # how `prune` empties a match's row (SQLite's: by replacing it)
    is_single_file = False  # a SQLite file, which one program writes at a time

    def __init__(self, next_table_id: int, next_match_id: int, next_league_id: int) -> None:
        self._snapshots = SnapshotEncoder()
        self._entries = LoggedEntries()
        self._queue: list[_Write] = []
        self._writer: asyncio.Task[None] | None = None
        self._next_table_id = next_table_id
        self._next_match_id = next_match_id
        self._next_league_id = next_league_id
        self._id_step = 1  # ids handed out are this far apart (a sharded process's: `serve_shards`)
        self._shards: Shards | None = None
        self._fenced: LeaseLostError | None = None
        self.commits = 0  # transactions committed, for benchmarks and tests of the batching

    @property
    def lost(self) -> DatabaseGoneError | None:
        """Set for good once the database was found deleted, replaced or written by another
        program, or once this process lost a shard's lease (`fence`): nothing is saved from then on."""
        return self._fenced

    @property
    @abstractmethod
    def refusing(self) -> WritesRefusedError | None:
        """Why the database refuses writes for now (a full disk, a server that cannot be
        reached), until a write works again; None while writes work."""

    def serve_shards(self, shards: Shards) -> None:
        """From now on this store loads only the tables and leagues of the servers on these
        shards (`active_tables`, `leagues`, and what `prune` deletes), and hands out ids of the
        shards' residue class (see `bot.store.shards`). Call before loading anything."""
        self._shards = shards
        self._id_step = shards.count
        self._next_table_id = shards.next_id(self._next_table_id - 1)
        self._next_match_id = shards.next_id(self._next_match_id - 1)
        self._next_league_id = shards.next_id(self._next_league_id - 1)

    def fence(self, error: LeaseLostError) -> None:
        """Stops every write for good, queued ones too: another process now owns this one's
        shards, and a move saved from here could contradict what it saves."""
        if self._fenced is None:
            log.critical("%s", error)
            self._fenced = error

    def _served(self, column: str = "guild_id") -> str:
        """` AND` the condition on `column` that selects this process's servers' rows, if sharded."""
        return "" if self._shards is None else f" AND {self._shards.where(column)}"

    async def close(self) -> None:
        await self.written()
        await self._close()

    async def written(self) -> None:
        """Returns once every write queued so far is committed (or has failed)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    # ------------------------------------------------------- what a database provides

    @abstractmethod
    async def _transaction(self, statements: Statements) -> None:
        """Runs the statements in one transaction, each with its rows, `check_changed` on those
        that must change every row; raises (having rolled back) if any fails."""

    @abstractmethod
    def _failed(self, error: BaseException) -> BaseException:
        """A failed transaction's error in the store's words (`ChannelBusyError`,
        `WritesRefusedError`, `DatabaseGoneError`, ...), or as it is."""

    async def _after_batch(self, idle: bool) -> None:
        """Called after each batch of writes, committed or not; `idle`: no write is waiting."""

    @abstractmethod
    async def _close(self) -> None: ...

    @abstractmethod
    async def _one(self, sql: str, params: Sequence[Any]) -> Any:
        """The first row the query returns (indexed by column), or None."""

    @abstractmethod
    async def _all(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

    async def _value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self._one(sql, params)
        return row[0] if row else None

    async def row_counts(self) -> dict[str, int]:
        """Each of the schema's tables with the number of rows it holds, in the order the
        migrations made them (an order in which every row's references come first)."""
        return {name: int(await self._value(f"SELECT count(*) FROM {name}")) for name in TABLES}

    # ----------------------------------------------------------------- writing

    async def _write(self, statements: dict[str, Rows]) -> None:
        # A cancelled caller does not cancel a write that others share.
        await asyncio.shield(self._enqueue(statements))

    def _enqueue(self, statements: dict[str, Rows]) -> asyncio.Future[None]:
        """Queues a write now; the future is done once it is committed, or has failed."""
        if self._fenced is not None:
            raise self._fenced
        job = _Write(statements)
        self._queue.append(job)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._drain())
        return job.done

    async def _drain(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            try:
                await self._commit(batch)
            except Exception as caught:
                error = self._failed(caught)
                if len(batch) == 1 or isinstance(error, DatabaseGoneError | WritesRefusedError):
                    for job in batch:  # the database itself: every write of the batch fails alike
                        _settle(job, error)
                    continue
                for job in batch:  # find the write that failed; commit the others
                    try:
                        await self._commit([job])
                    except Exception as single:
                        _settle(job, self._failed(single))
                    else:
                        _settle(job, None)
            else:
                for job in batch:
                    _settle(job, None)
            await self._after_batch(idle=not self._queue)

    async def _commit(self, batch: list[_Write]) -> None:
        if self._fenced is not None:  # fenced while these waited: none of them is saved
            raise self._fenced
        merged: dict[str, Rows] = {}
        for job in batch:
            for sql, rows in job.statements.items():
                merged.setdefault(sql, []).extend(rows)
        assert merged.keys() <= _WRITTEN, f"not in _WRITE_ORDER: {merged.keys() - _WRITTEN}"
        await self._transaction([(sql, merged[sql]) for sql in _WRITE_ORDER if merged.get(sql)])
        self.commits += 1

    # ----------------------------------------------------------------- tables

    def new_table_id(self) -> int:
        table_id, self._next_table_id = self._next_table_id, self._next_table_id + self._id_step
        return table_id

    async def create_table(self, table: TableRecord, now: float) -> None:
        row = (
            table.id,
            table.guild_id,
            table.channel_id,
            table.format,
            dumps(table.rules),
            table.point_value,
            table.host_id,
            table.max_seats,
            _seats_json(table.seats),
            table.status.value,
            table.league_id,
            now,
            now,
        )
        await self._write({_INSERT_TABLE: [row]})

    async def update_table(self, table: TableRecord, now: float) -> None:
        await self._write({_UPDATE_TABLE: [_table_update_row(table, now)]})

    async def cancel_table(
        self, table: TableRecord, match_id: int | None, now: float, *, damaged: bool = False
    ) -> None:
        """Closes a table; a match it was playing is kept, marked abandoned. A `damaged` table's
        row is only marked cancelled: what it held is kept as it was, for someone to look at."""
        statements: dict[str, Rows] = {}
        if damaged:
            statements[_CLOSE_DAMAGED] = [(now, table.id)]
        else:
            statements[_UPDATE_TABLE] = [_table_update_row(table, now)]
        if match_id is not None:
            statements[_ABANDON_MATCH] = [(now, match_id)]
            self._snapshots.forget(match_id)
        await self._write(statements)

    async def mark_damaged(self, table_id: int, reason: str, now: float) -> None:
        """Sets a table aside: start-ups from now on report it as damaged without reading it."""
        await self._write({_MARK_DAMAGED: [(reason, now, table_id)]})

    async def start_match(self, table: TableRecord, first: CommandRecord) -> None:
        """Marks the table playing and stores the match with its first command, atomically."""
        statements: dict[str, Rows] = {
            _UPDATE_TABLE: [_table_update_row(table, first.at)],
            _INSERT_MATCH: [(first.match_id, table.id, first.at, first.at)],
        }
        _add_command(statements, first, self._snapshots)
        await self._write(statements)

    def new_match_id(self) -> int:
        match_id, self._next_match_id = self._next_match_id, self._next_match_id + self._id_step
        return match_id

    async def save_command(self, record: CommandRecord) -> None:
        """The command, its events, the new snapshot and whatever it settled, in one transaction."""
        await asyncio.shield(self.queue_command(record))

    def queue_command(self, record: CommandRecord) -> asyncio.Future[None]:
        """`save_command`'s write queued at once, its future done once committed (or failed):
        for a caller that must see the save through even when cancelled (the table service),
        without a task of its own around each command's save."""
        statements: dict[str, Rows] = {}
        if record.table is not None:
            statements[_UPDATE_TABLE] = [_table_update_row(record.table, record.at)]
        _add_command(statements, record, self._snapshots)
        return self._enqueue(statements)

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any], now: float) -> None:
        await self._write({_UPSERT_SETTINGS: [(guild_id, dumps(settings), now)]})

    async def set_user_settings(self, user_id: int, settings: dict[str, Any], now: float) -> None:
        await self._write({_UPSERT_USER_SETTINGS: [(user_id, dumps(settings), now)]})

    async def prune(
        self,
        before: float,
        now: float,
        *,
        keep_tables: Collection[int] = (),
        batch_rows: int = PRUNE_BATCH_ROWS,
    ) -> Pruned:
        """Deletes the command logs, snapshots and finished deals of the matches that ended
        (over or abandoned, their table closed) and last changed before `before`, except those
        of `keep_tables` (a league night still to read them). Their `matches` rows, standings,
        statistics and tables are kept, marked `pruned_at = now`. Each transaction deletes about
        `batch_rows` commands at most and goes through the write queue like any other write,
        so a large prune never holds the database for long nor races the group commit."""
        pruned = Pruned()
        after = 0
        while True:
            rows = await self._all(_PRUNABLE.format(served=self._served("t.guild_id")), (after, before, 256))
            if not rows:
                return pruned
            after = int(rows[-1][0])
            batch: list[tuple[int, int]] = []
            for match_id, seq, table_id in rows:
                if int(table_id) in keep_tables:
                    continue
                if batch and sum(n for _, n in batch) + int(seq) > batch_rows:
                    await self._prune_batch(batch, now, pruned)
                    batch = []
                batch.append((int(match_id), int(seq)))
            if batch:
                await self._prune_batch(batch, now, pruned)

    async def _prune_batch(self, batch: list[tuple[int, int]], now: float, pruned: Pruned) -> None:
        ids: Rows = [(match_id,) for match_id, _ in batch]
        await self._write(
            {_PRUNE_COMMANDS: ids, _PRUNE_DEALS: ids, self._mark_pruned: [(now, i) for (i,) in ids]}
        )
        for match_id, seq in batch:
            self._snapshots.forget(match_id)
            pruned.matches += 1
            pruned.commands += seq

    async def pruned_at(self, match_id: int) -> float | None:
        """When the match's log, snapshot and deals were pruned (`prune`), or None if kept."""
        found = await self._value("SELECT pruned_at FROM matches WHERE id = ?", (match_id,))
        return None if found is None else float(found)

    # ----------------------------------------------------------------- reading

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        row = await self._one("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(row[0]) if row else {}

    async def user_settings(self, user_id: int) -> dict[str, Any]:
        row = await self._one("SELECT settings FROM user_settings WHERE user_id = ?", (user_id,))
        return json.loads(row[0]) if row else {}

    async def table(self, table_id: int) -> TableRecord | None:
        row = await self._one(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        return table_from_row(row) if row else None

    async def table_guild(self, table_id: int) -> int | None:
        """The server a table is in (None for no such table): a plain column, always readable."""
        found = await self._value("SELECT guild_id FROM tables WHERE id = ?", (table_id,))
        return None if found is None else int(found)

    async def table_status(self, table_id: int) -> TableStatus | None:
        """A table's status alone, a plain column: readable when its JSON columns are damaged."""
        status = await self._value("SELECT status FROM tables WHERE id = ?", (table_id,))
        return None if status is None else TableStatus(status)

    async def channel_tables(self, channel_id: int) -> list[TableRecord]:
        """Every table a channel has had, oldest first."""
        rows = await self._all(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? ORDER BY id", (channel_id,)
        )
        return [table_from_row(row) for row in rows]

    async def active_tables(self) -> list[ActiveTable]:
        """Every open or playing table (of this process's servers, if sharded: `serve_shards`)
        with its match, checked, as the service resumes them; a
        table whose rows cannot be read comes with its damage instead (the others still load).
        One whose very ids cannot be read cannot be shown anywhere: it is logged and left out."""
        return [active async for batch in self.active_table_batches() for active in batch]

    async def active_table_batches(self) -> AsyncIterator[list[ActiveTable]]:
        """`active_tables`, `LOAD_BATCH` tables at a time: a few queries for each batch rather than
        for each table, and a restart with thousands of tables never holds all their rows at
        once (the service restores each batch before the next is read: what a batch read is
        garbage by then, and the next one reuses its memory). The next batch's queries are
        already sent while the caller is busy with one."""
        served = self._served()
        rows = await self._all(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status IN ('open', 'playing'){served} ORDER BY id", ()
        )
        batches = [rows[start : start + LOAD_BATCH] for start in range(0, len(rows), LOAD_BATCH)]
        ahead: asyncio.Future[list[ActiveTable]] | None = None
        try:
            for index, batch in enumerate(batches):
                read = await (ahead or self._read_batch(batch))
                following = batches[index + 1] if index + 1 < len(batches) else None
                ahead = asyncio.ensure_future(self._read_batch(following)) if following else None
                await asyncio.sleep(0)  # the next read sends its queries before the caller works
                yield read
        finally:
            if ahead is not None:
                ahead.cancel()

    async def _read_batch(self, rows: Sequence[Sequence[Any]]) -> list[ActiveTable]:
        playing = [row[0] for row in rows if row[9] == TableStatus.PLAYING and row[_DAMAGE] is None]
        matches = await self._load_matches(playing)
        tables = []
        for row in rows:
            active = await self._active_table(row, matches)
            if active is not None:
                tables.append(active)
        return tables

    async def active_table_ids(self) -> list[int]:
        """The ids of the open and playing tables, in order (rows read one by one: `active_table`)."""
        rows = await self._all(
            f"SELECT id FROM tables WHERE status IN ('open', 'playing'){self._served()} ORDER BY id", ()
        )
        return [row[0] for row in rows]

    async def active_table(self, table_id: int) -> ActiveTable | None:
        """One open or playing table as `active_tables` loads it (None if it is not open)."""
        row = await self._one(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ? AND status IN ('open', 'playing')", (table_id,)
        )
        if row is None:
            return None
        playing = [row[0]] if row[9] == TableStatus.PLAYING and row[_DAMAGE] is None else []
        return await self._active_table(row, await self._load_matches(playing))

    async def _active_table(self, row: Sequence[Any], matches: Loaded) -> ActiveTable | None:
        """The table of this row, with its match taken from `matches` (`_load_matches`)."""
        try:
            head = _table_head(row)
        except (TypeError, ValueError):
            log.error("table row %r is damaged beyond use (its ids or status): left out", row[0])
            return None
        if row[_DAMAGE] is not None:  # set aside at an earlier start
            match_id = await self._match_id(head.id)
            return ActiveTable(head, None, str(row[_DAMAGE]), True, match_id)
        table = head
        try:
            table = table_from_row(row)
            match = _loaded(matches, table.id) if table.status is TableStatus.PLAYING else None
        except DamagedRowError as error:
            return ActiveTable(table, None, str(error), False, await self._match_id(head.id))
        return ActiveTable(table, match, match_id=match.match_id if match else None)

    async def _match_id(self, table_id: int) -> int | None:
        found = await self._value("SELECT id FROM matches WHERE table_id = ?", (table_id,))
        return int(found) if found is not None else None

    async def load_match(self, table_id: int) -> StoredMatch | None:
        """The table's match rebuilt from its snapshot, finished deals and command log, after
        checking that the snapshot ends where the command log ends: both are written in one
        transaction, so a disagreement means the file was changed behind our back, and we stop
        rather than guess. Any part that cannot be read raises `DamagedRowError`."""
        return _loaded(await self._load_matches([table_id]), table_id)

    async def _load_matches(self, table_ids: Sequence[int]) -> Loaded:
        """The matches of these tables as `load_match` reads them, in three queries for them all:
        each as its `StoredMatch`, or the `DamagedRowError` it raises; a table without a match
        is not in it."""
        if not table_ids:
            return {}
        marks = ", ".join("?" * len(table_ids))
        heads = await self._all(
            "SELECT id, seq, snapshot, clock, snapshot_seq, table_id FROM matches "
            f"WHERE table_id IN ({marks})",
            table_ids,
        )
        marks = ", ".join("?" * len(heads))
        match_ids = [head[0] for head in heads]
        deals: dict[int, list[Any]] = {match_id: [] for match_id in match_ids}
        commands: dict[int, list[Any]] = {match_id: [] for match_id in match_ids}
        if heads:
            for row in await self._all(
                f"SELECT match_id, snapshot FROM deals WHERE match_id IN ({marks}) ORDER BY match_id, number",
                match_ids,
            ):
                deals[row[0]].append(row[1:])
            for row in await self._all(
                f"SELECT match_id, seq, command, command_id FROM match_commands WHERE match_id IN ({marks}) "
                "ORDER BY match_id, seq",
                match_ids,
            ):
                commands[row[0]].append(row[1:])
        loaded: Loaded = {}
        for head in heads:
            match_id, table_id = head[0], head[5]
            try:
                loaded[table_id] = _match_from_rows(
                    table_id, head, deals[match_id], commands[match_id], self._entries
                )
            except (TypeError, ValueError, LookupError, AttributeError) as error:
                loaded[table_id] = DamagedRowError.of("match", match_id, error)
            except DamagedRowError as error:
                loaded[table_id] = error
        return loaded

    async def command_log(self, match_id: int) -> list[dict[str, Any]]:
        rows = await self._all(
            "SELECT seq, command_id, seat, command, events, at FROM match_commands "
            "WHERE match_id = ? ORDER BY seq",
            (match_id,),
        )
        return [
            {
                "seq": row[0],
                "command_id": row[1],
                "seat": row[2],
                "command": json.loads(row[3]),
                "events": json.loads(row[4]),
                "at": row[5],
            }
            for row in rows
        ]

    async def match_ids(self) -> dict[int, int]:
        """Table id to match id, for every match ever started."""
        return {int(t): int(m) for t, m in await self._all("SELECT table_id, id FROM matches", ())}

    async def standings(self, match_id: int) -> list[StandingRow]:
        rows = await self._all(
            "SELECT seat, user_id, standing, status, rejoined FROM match_standings "
            "WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return [StandingRow(r[0], r[1], r[2], r[3], bool(r[4])) for r in rows]

    async def user_stats(self, guild_id: int, user_id: int) -> StatsDelta:
        row = await self._one(
            "SELECT matches_played, matches_won, deals_played, deals_won, drops, wrong_shows, chips_won, "
            "best_pool_finish FROM user_stats WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return StatsDelta(guild_id, user_id, *row) if row else StatsDelta(guild_id, user_id)


_TABLE_COLUMNS = (
    "id, guild_id, channel_id, format, rules, point_value, host_id, max_seats, seats, status, league_id, "
    "created_at, damage"
)
_DAMAGE = 12  # the damage column's place in `_TABLE_COLUMNS`


def table_from_row(row: Sequence[Any]) -> TableRecord:
    """A `tables` row (`_TABLE_COLUMNS`) as its record; `DamagedRowError` if any of it cannot be read."""
    try:
        table = _table_head(row)
        rules = json.loads(row[4])
        seats = json.loads(row[8])
        if not isinstance(rules, dict) or not isinstance(seats, list):
            raise TypeError("rules must be a JSON object and seats a JSON list")
        table.rules = rules
        table.seats = [SeatRecord.from_json(seat) for seat in seats]
        if not isinstance(table.format, str) or len(table.seats) > table.max_seats:
            raise ValueError(f"{len(table.seats)} seats at a table of {table.max_seats}")
    except (TypeError, ValueError, LookupError) as error:
        raise DamagedRowError.of("table", row[0], error) from error
    return table


def _table_head(row: Sequence[Any]) -> TableRecord:
    """What a table row holds in plain columns (ids, status): enough to find its channel and host
    when its JSON columns cannot be read. TypeError or ValueError when even that is not there."""
    ids = [row[0], row[1], row[2], row[5], row[6], row[7]]
    if not all(isinstance(value, int) for value in ids) or not isinstance(row[10], int | None):
        raise TypeError(f"table {row[0]!r}: a column that holds a number holds {row!r}")
    return TableRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        format=row[3],
        rules={},
        point_value=row[5],
        host_id=row[6],
        max_seats=row[7],
        status=TableStatus(row[9]),
        league_id=row[10],
        created_at=float(row[11]),
    )


def _loaded(matches: Loaded, table_id: int) -> StoredMatch | None:
    """The table's match out of what `Store._load_matches` read, raising its damage."""
    found = matches.get(table_id)
    if isinstance(found, DamagedRowError):
        raise found
    return found


def _match_from_rows(
    table_id: int, row: Sequence[Any], deals: list[Any], commands: list[Any], entries: LoggedEntries
) -> StoredMatch:
    """The `matches` row with its deals and commands, as `Store.load_match` checks it."""
    match_id, seq = int(row[0]), int(row[1])
    at = seq if row[4] is None else int(row[4])  # the command the snapshot was taken after
    snapshot, clock = json.loads(row[2]), json.loads(row[3])
    if not isinstance(snapshot, dict) or not isinstance(clock, dict):
        raise TypeError("the snapshot and the clock must be JSON objects")
    snapshot["finished_deals"] = [json.loads(deal[0]) for deal in deals]
    log = [entries.read(command[1]) for command in commands]
    tail = snapshot.pop("log_tail")
    problems = []
    if [command[0] for command in commands] != list(range(1, seq + 1)):
        problems.append(f"the match is at command {seq}, the log has {len(commands)} with no gap")
    if not 0 < at <= seq:
        problems.append(f"the snapshot is at command {at}, the match at {seq}")
    if log[max(0, at - len(tail)) : at] != tail:
        problems.append("the last commands differ")
    if len(snapshot["finished_deals"]) != len(snapshot["history"]):
        problems.append("finished deals are missing")
    if problems:
        raise CorruptMatchError("match", match_id, f"it cannot be resumed: {'; '.join(problems)}")
    snapshot["log"] = log[:at]
    ids = {str(command[2]) for command in commands if command[2] is not None}
    return StoredMatch(match_id, table_id, seq, snapshot, clock, ids, log[at:])


def _seats_json(seats: list[SeatRecord]) -> str:
    return dumps([seat.to_json() for seat in seats])


def _table_update_row(table: TableRecord, now: float) -> tuple[Any, ...]:
    seats, rules = _seats_json(table.seats), dumps(table.rules)
    return (table.host_id, seats, table.status.value, rules, table.max_seats, now, table.id)


def _add_command(statements: dict[str, Rows], record: CommandRecord, snapshots: SnapshotEncoder) -> None:
    # The match's command log is the match_commands table itself: the snapshot keeps only its
    # tail, to check the two against each other on loading, so a snapshot does not grow with
    # every deal of a long pool. Finished deals are in the deals table, written once each. A
    # command saved without a snapshot only moves the match on (`Match.restore` replays it).
    statements[_INSERT_COMMAND] = [
        (
            record.match_id,
            record.seq,
            record.command_id,
            record.command.get("seat"),
            dumps(record.command),
            dumps(record.events),
            record.at,
        )
    ]
    status = "over" if record.match_over else "playing"
    if record.snapshot is None:
        if record.finished_deal is not None or record.match_over:
            raise ValueError("a command that ends a deal or the match is saved with its snapshot")
        statements[_ADVANCE_MATCH] = [
            (record.seq, dumps(record.clock), status, record.at, record.match_id, record.seq)
        ]
        return
    snapshot = {**record.snapshot, "log_tail": record.log_tail[-LOG_TAIL:]}
    text = snapshots.encode(record.match_id, snapshot)
    if record.match_over:
        snapshots.forget(record.match_id)
    statements[_UPDATE_MATCH] = [
        (record.seq, text, record.seq, dumps(record.clock), status, record.at, record.match_id, record.seq)
    ]
    if record.finished_deal is not None:
        deal = record.finished_deal
        number = len(record.snapshot["history"])  # each finished deal's points, the last one's too
        row = (record.match_id, number, dumps(deal), deal["winner"], record.at)
        statements[_INSERT_DEAL] = [row]
    if record.standings is not None:
        statements[_UPSERT_STANDING] = [
            (record.match_id, s.seat, s.user_id, s.standing, s.status, int(s.rejoined))
            for s in record.standings
        ]
    if record.stats:
        statements[_UPSERT_STATS] = [
            (
                d.guild_id,
                d.user_id,
                d.matches_played,
                d.matches_won,
                d.deals_played,
                d.deals_won,
                d.drops,
                d.wrong_shows,
                d.chips_won,
                d.best_pool_finish,
            )
            for d in record.stats
        ]


def check_changed(sql: str, changed: int, rows: Rows) -> None:
    """Raises unless a statement that must change every row changed as many as it has."""
    if sql in _MUST_CHANGE_EVERY_ROW and changed != len(rows):
        raise StoreError("A write did not follow the stored state (was it saved twice?).")


def _settle(job: _Write, error: BaseException | None) -> None:
    if job.done.done():
        return
    if error is None:
        job.done.set_result(None)
    else:
        job.done.set_exception(error)
