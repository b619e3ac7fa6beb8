"""A restart with many open tables: how long the service takes to resume them, and the memory
they hold once resumed.

The database is built first (unless `--database` names one that already holds open tables):
`--distinct` tables of four people, each played through the table service to exactly `--moves`
commands (a match that ends sooner is replaced by a new table in its channel), then copied row
for row, with new ids and channels, until there are `--tables` open tables. A copy costs the
resume what its original does (each is read and rebuilt on its own; what resumed tables share,
cards, repeated moves and rules, any tables played alike share too), and copies are far quicker
to make than playing every table.

The resume is measured in a fresh process, as a restart is: the store opened, then
`TableService.resume()` timed (wall and CPU: on a busy machine CPU time is the figure that
compares), with the process's resident memory before and after (and its peak), the garbage
collector tuned before and after as the bot does (`bot.app.runtime.tune_gc`). Per table is the
growth over the tables resumed. `--profile` adds the resume's hottest functions (cProfile)
and, in a second fresh process, where its memory lives (tracemalloc, by line).

    python benchmarks/resume.py [--tables 10000] [--moves 80] [--distinct 200]
                                [--format pool-101] [--database PATH|postgresql://...] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app.runtime import tune_gc
from bot.engine.commands import Command, Declare, Discard, Drop, NextDeal, Pick, Source
from bot.engine.deal import Phase
from bot.engine.match import MatchPhase
from bot.service import ServiceSettings, TableService, seeded
from bot.service.table_limits import UNLIMITED
from bot.store import open_store
from bot.store.store import is_database_url

SEATS = 4
TABLES, MOVES, DISTINCT, FORMAT = 10_000, 80, 200, "pool-101"  # the defaults: issue 13's restart
# The rows a table's copy needs, its ids moved on by a whole number of the originals' largest
# (`{t}` for tables, `{m}` for matches); channels move like table ids.
COPIES = (
    "INSERT INTO tables (id, guild_id, channel_id, format, rules, point_value, host_id, max_seats, seats, "
    "status, league_id, created_at, updated_at, damage) SELECT id + {t}, guild_id, channel_id + {t}, format, "
    "rules, point_value, host_id, max_seats, seats, status, league_id, created_at, updated_at, damage "
    "FROM tables WHERE id <= {tables} AND status = 'playing'",
    "INSERT INTO matches (id, table_id, status, seq, snapshot, clock, started_at, updated_at, snapshot_seq, "
    "pruned_at) SELECT m.id + {m}, m.table_id + {t}, m.status, m.seq, m.snapshot, m.clock, m.started_at, "
    "m.updated_at, m.snapshot_seq, m.pruned_at FROM matches m JOIN tables t ON t.id = m.table_id "
    "WHERE m.id <= {matches} AND t.status = 'playing'",
    "INSERT INTO deals (match_id, number, snapshot, winner, finished_at) SELECT d.match_id + {m}, d.number, "
    "d.snapshot, d.winner, d.finished_at FROM deals d JOIN matches m ON m.id = d.match_id "
    "WHERE m.id <= {matches} AND m.status = 'playing'",
    "INSERT INTO match_commands (match_id, seq, command_id, seat, command, events, at) "
    "SELECT c.match_id + {m}, c.seq, c.command_id, c.seat, c.command, c.events, c.at FROM match_commands c "
    "JOIN matches m ON m.id = c.match_id WHERE m.id <= {matches} AND m.status = 'playing'",
    "INSERT INTO match_standings (match_id, seat, user_id, standing, status, rejoined) "
    "SELECT s.match_id + {m}, s.seat, s.user_id, s.standing, s.status, s.rejoined FROM match_standings s "
    "JOIN matches m ON m.id = s.match_id WHERE m.id <= {matches} AND m.status = 'playing'",
)


def rss_mb() -> tuple[float, float]:
    """This process's resident memory now and at its peak, in MB (from /proc)."""
    values = {}
    with open("/proc/self/status") as status:
        for line in status:
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                values[name] = int(rest.split()[0]) / 1024
    return values["VmRSS"], values["VmHWM"]


def next_command(phase: Phase, seat: int, hand: list, rng: random.Random) -> Command:
    """Plays on without thinking: picks, throws a random card, and now and then drops or shows
    a wrong hand, so that deals end and matches carry finished deals."""
    if phase is Phase.PICK:
        return Drop(seat) if rng.random() < 0.01 else Pick(seat, Source.CLOSED)
    if rng.random() < 0.02:
        return Declare(seat, (tuple(hand[1:]),), hand[0])
    return Discard(seat, rng.choice(hand))


async def play_tables(database: Path | str, count: int, moves: int, fmt: str) -> None:
    """`count` tables, each left playing with exactly `moves` commands in its match's log."""
    store = await open_store(database)
    service = TableService(store, random_source=seeded(count), settings=ServiceSettings(limits=UNLIMITED))

    async def seat_table(channel: int) -> None:
        await service.open_table(1, channel, channel * 10, "Host", format=fmt)
        for seat in range(1, SEATS):
            await service.join(channel, channel * 10 + seat, f"P{seat}")
        await service.start(channel, channel * 10)

    async def drive(channel: int) -> None:
        rng = random.Random(channel)
        await seat_table(channel)
        while True:
            table = service.table_in(channel)
            if table is None:  # the match ended before its moves: a new one takes its place
                await seat_table(channel)
                continue
            match = table.match
            assert match is not None
            if len(match.log) >= moves:
                return
            if match.phase is MatchPhase.BETWEEN_DEALS:
                seat, command = match.remaining()[0], NextDeal()
            else:
                deal = match.deal
                assert deal is not None
                seat = deal.turn
                command = next_command(deal.phase, seat, list(deal.seats[seat].hand), rng)
            user = table.record.seats[seat].user_id
            assert user is not None
            await service.play(channel, user, command, turn=table.turn_token())

    await asyncio.gather(*(drive(channel) for channel in range(1, count + 1)))
    await store.close()


async def copy_tables(database: Path | str, total: int) -> int:
    """Copies the playing tables until there are `total`; returns how many there are."""
    if is_database_url(database):
        conn = await asyncpg.connect(str(database))
        query, execute = conn.fetchval, conn.execute
    else:
        lite = sqlite3.connect(database)

        async def query(sql: str) -> int:
            return int(lite.execute(sql).fetchone()[0])

        async def execute(sql: str) -> None:
            lite.execute(sql)

    try:
        tables = int(await query("SELECT max(id) FROM tables"))
        matches = int(await query("SELECT max(id) FROM matches"))
        playing = int(await query("SELECT count(*) FROM tables WHERE status = 'playing'"))
        copies = -(-total // playing)
        for copy in range(1, copies):
            for sql in COPIES:
                await execute(sql.format(t=copy * tables, m=copy * matches, tables=tables, matches=matches))
        # Whole copies may overshoot: the last ones are closed, as finished tables are.
        extra = copies * playing - total
        if extra:
            await execute(
                "UPDATE tables SET status = 'finished' WHERE id IN "
                f"(SELECT id FROM tables WHERE status = 'playing' ORDER BY id DESC LIMIT {extra})"
            )
        return int(await query("SELECT count(*) FROM tables WHERE status = 'playing'"))
    finally:
        if is_database_url(database):
            await conn.close()
        else:
            lite.commit()
            lite.close()


async def open_tables(database: Path | str) -> int:
    store = await open_store(database)
    try:
        return len(await store.active_table_ids())
    finally:
        await store.close()


async def resume(database: Path | str, profile: str | None) -> dict[str, float]:
    """One restart's resume, in this (fresh) process."""
    store = await open_store(database)
    service = TableService(store)
    tune_gc()  # as the bot does before resuming (and again after)
    before, _ = rss_mb()
    profiler = cProfile.Profile() if profile == "cpu" else None
    if profile == "memory":
        tracemalloc.start(1)
    wall, cpu = time.perf_counter(), time.process_time()
    if profiler is not None:
        profiler.enable()
    events = await service.resume()
    if profiler is not None:
        profiler.disable()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    tune_gc()
    after, peak = rss_mb()
    if profiler is not None:
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(30)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(25)
    if profile == "memory":
        print(f"traced: {tracemalloc.get_traced_memory()[0] / 2**20:.1f} MB", file=sys.stderr)
        top = tracemalloc.take_snapshot().statistics("lineno")[:25]
        print("\n".join(str(line) for line in top), file=sys.stderr)
    await store.close()
    return {"tables": len(events), "wall": wall, "cpu": cpu, "before": before, "after": after, "peak": peak}


def measure(database: Path | str, profile: str | None = None) -> dict[str, float]:
    """`resume` in a fresh Python process, so that nothing from building is in its memory."""
    command = [sys.executable, __file__, "--measure", str(database)]
    if profile:
        command += ["--profile-kind", profile]
    done = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def restart(database: Path | str, tables: int, moves: int, distinct: int, fmt: str) -> dict[str, float]:
    """The resume measured (`measure`) on `database`, built first unless it holds open tables;
    also what it found there or built (`built`, seconds; None if it was not built)."""
    found = asyncio.run(open_tables(database))
    built = None
    if not found:
        started = time.perf_counter()
        asyncio.run(play_tables(database, distinct, moves, fmt))
        found = asyncio.run(copy_tables(database, tables))
        built = time.perf_counter() - started
    return {**measure(database), "found": found, "built": built}


def describe(database: Path | str, r: dict[str, float]) -> str:
    """One line of figures for a restart `restart` measured."""
    kind = "postgres" if is_database_url(database) else "sqlite"
    return (
        f"{kind}: resumed {r['tables']:.0f} tables in {r['wall']:.2f} s wall, {r['cpu']:.2f} s CPU; "
        f"RSS {r['before']:.0f} MB before, {r['after']:.0f} MB after (peak {r['peak']:.0f} MB); "
        f"{(r['after'] - r['before']) * 1024 / max(1, r['tables']):.1f} kB per table; "
        f"load average {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--moves", type=int, default=MOVES)
    parser.add_argument("--distinct", type=int, default=DISTINCT, help="tables played; the rest are copies")
    parser.add_argument("--format", default=FORMAT)
    parser.add_argument("--database", help="a SQLite file or a postgresql:// URL (built if it has no tables)")
    parser.add_argument("--profile", action="store_true", help="also print cProfile and tracemalloc tops")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # the fresh process `measure` starts
    parser.add_argument("--profile-kind", choices=("cpu", "memory"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        target = args.measure if is_database_url(args.measure) else Path(args.measure)
        print(json.dumps(asyncio.run(resume(target, args.profile_kind))))
        return
    with tempfile.TemporaryDirectory() as folder:
        database: Path | str = args.database or Path(folder) / "resume.db"
        if not is_database_url(database):
            database = Path(database)
        print(f"{os.cpu_count()} CPUs; load average before building and resuming {os.getloadavg()[0]:.1f}")
        r = restart(database, args.tables, args.moves, args.distinct, args.format)
        if r["built"] is None:
            print(f"{database}: {r['found']} open tables already (not built again)")
        else:
            print(
                f"built {r['found']} open tables ({args.distinct} played to {args.moves} moves, "
                f"{args.format}; the rest copies) in {r['built']:.1f} s"
            )
        print(describe(database, r))
        if args.profile:
            measure(database, "cpu")
            measure(database, "memory")


if __name__ == "__main__":
    main()
