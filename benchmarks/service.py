"""Commands per second and latency per command through the table service, with persistence.

For each table count, a fresh SQLite file in a temporary folder (and, with `--database URL`, a
fresh schema in that PostgreSQL database too, each run beside SQLite's); every table has four seats
played by computer players, each table driven by its own coroutine as fast as the service
answers, all tables at once. A finished match is replaced by a new table in the same channel.

The players (`--players`): `ai` is `bot.engine.ai` at `--level`, asked through
`TableService.decide` as the service asks for its own computer seats, so it thinks in the worker
processes of `bot.app.runtime.start_thinkers` as the bot does (`--thinkers`, one per core
unless given; 0 thinks on the event loop, as the bot did before). `simple` plays on without
thinking, to measure the service alone.

On PostgreSQL the store takes shard 0 of 1's lease first, as the bot does there, so that every
write checks it in its transaction as in play.

Latency is the time `TableService.play` takes to return, which includes waiting for the
table's lock, applying the command, and waiting for its group commit to reach the database
(the service reports nothing before that). It does not include the computer player's thinking,
which happens before the call; `think p99` is that, queueing for a worker included. Throughput
counts everything, thinking included, over the wall time of the run. `cpu` is the bot process's
CPU time (all its threads) over wall time, and `pool` the same for the worker processes (read
from /proc); `cmd/cpu-s` is commands per second of CPU both got together, the figure that
compares between runs on a shared machine, where other processes take the rest.

Each table count is run twice: paced, the tables together sending `--rate` commands per second
(each table at an even share, out of step with the others), which is the latency a player
sees at that load; and flat out, which is the most the service takes (latency is then mostly
queueing behind the other tables: with N tables in a closed loop it is about N / throughput).

    python benchmarks/service.py [--tables 1,100,1000] [--seconds 10] [--rate 1000]
                                 [--format points] [--players ai|simple] [--level easy|strong]
                                 [--thinkers N] [--gc tuned|default]
                                 [--database postgresql://...] [--restart-tables 10000]

Then, unless `--restart-tables 0`, issue 13's restart on each database: that many open tables of
80 moves built and resumed in a fresh process (`benchmarks/resume.py`), since a store format
changed for speed must keep that target too.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import resume  # beside this file (Python puts a script's folder on the path)

from bot.app.runtime import start_thinkers, thinker_count, tune_gc
from bot.engine import ai
from bot.engine.commands import Command, Declare, Discard, NextDeal, Pick, Source
from bot.engine.deal import Phase, SeatView
from bot.engine.errors import IllegalActionError
from bot.engine.match import MatchPhase
from bot.service import ServiceSettings, TableService
from bot.service.computer import Policy
from bot.service.table_limits import UNLIMITED
from bot.service.thinkers import Thinkers
from bot.store import open_store
from bot.store.leases import new_holder
from bot.store.postgres import PostgresStore
from bot.store.shards import Shards

SEATS = 4
ONE_SHARD = Shards(1, (0,))
LEASE_SECONDS = 3600  # outlives any run, so no keeper renews it (a renewal is one query in 7 s)


def simple_players(level: str, view: SeatView, rng: random.Random) -> Command:
    """Plays on without thinking, to measure the service alone: picks, throws a random card,
    shows a wrong hand now and then so that deals and matches end and start."""
    seat, hand = view.seat, view.hand
    assert seat is not None
    if view.phase is Phase.PICK:
        return Pick(seat, Source.CLOSED)
    if rng.random() < 0.02:
        return Declare(seat, (hand[1:],), hand[0])
    return Discard(seat, rng.choice(hand))


def pool_cpu_seconds() -> float:
    """CPU time used so far by this process's children (the thinkers' workers), which its own
    process time does not count."""
    ticks = 0
    for child in multiprocessing.active_children():
        with open(f"/proc/{child.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * share))]


async def fresh_schema(url: str, name: str) -> str:
    """A URL for `open_store` whose tables go to a new, empty schema of the database `url` names."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        await conn.execute(f"CREATE SCHEMA {name}")
    finally:
        await conn.close()
    parts = urlsplit(url)
    query = "&".join(filter(None, [parts.query, f"search_path={name}"]))
    return urlunsplit(parts._replace(query=query))


async def drop_schema(url: str, name: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
    finally:
        await conn.close()


async def run(
    tables: int,
    seconds: float,
    fmt: str,
    database: Path | str,
    rate: float | None,
    policy: Policy,
    level: str,
    thinkers: Thinkers | None,
) -> dict[str, float]:
    """One run; `rate` paces the tables to that many commands per second in all (None: each
    table sends its next command as soon as the last one returns)."""
    store = await open_store(database)
    leases = None
    if isinstance(store, PostgresStore):  # as the bot on PostgreSQL, which holds shard 0 of 1 at
        store.serve_shards(ONE_SHARD)  # least: every write checks the lease in its transaction
        leases = store.leases(ONE_SHARD, new_holder(), LEASE_SECONDS)
        await leases.acquire()
    # Shuffles from the OS's randomness, as in play (a seeded source costs a seeding per command).
    settings = ServiceSettings(limits=UNLIMITED)  # every table in one server
    service = TableService(store, policy=policy, thinkers=thinkers, settings=settings)
    latencies: list[float] = []
    thinking: list[float] = []
    refused = 0
    matches = 0

    async def seat_table(channel: int) -> None:
        nonlocal matches
        await service.open_table(1, channel, channel * 10, "Host", format=fmt)
        for seat in range(1, SEATS):
            await service.join(channel, channel * 10 + seat, f"P{seat}")
        await service.start(channel, channel * 10)
        matches += 1

    async def drive(channel: int, stop_at: float) -> None:
        nonlocal refused
        rng = random.Random(channel)
        interval = tables / rate if rate else 0.0
        due = time.perf_counter() + rng.random() * interval  # tables out of step, as in life
        while True:
            if interval:
                if due >= stop_at:  # its next command would fall outside the measured window
                    break
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                due += interval
            elif time.perf_counter() >= stop_at:
                break
            table = service.table_in(channel)
            if table is None:
                await seat_table(channel)
                continue
            match = table.match
            if match.phase is MatchPhase.BETWEEN_DEALS:
                seat, command = match.remaining()[0], NextDeal()
            else:
                seat = match.deal.turn
                started = time.perf_counter()
                command = await service.decide(level, match.deal.view(seat), rng)
                thinking.append(time.perf_counter() - started)
            started = time.perf_counter()
            try:
                await service.play(channel, channel * 10 + seat, command, turn=table.turn_token())
            except IllegalActionError:
                refused += 1
                continue
            latencies.append(time.perf_counter() - started)

    for channel in range(1, tables + 1):
        await seat_table(channel)
    gc.collect()
    commits = store.commits
    cpu, pool_cpu, wall = time.process_time(), pool_cpu_seconds(), time.perf_counter()
    await asyncio.gather(*(drive(channel, wall + seconds) for channel in range(1, tables + 1)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    pool_cpu = pool_cpu_seconds() - pool_cpu
    commits = store.commits - commits
    if leases is not None:
        await leases.release()
    await store.close()
    latencies.sort()
    thinking.sort()
    count = len(latencies)
    return {
        "tables": tables,
        "commands": count,
        "per_second": count / wall,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "max_ms": latencies[-1] * 1000,
        "think_p99_ms": percentile(thinking, 0.99) * 1000,
        "commits": commits,
        "cpu_share": cpu / wall,
        "pool_share": pool_cpu / wall,
        "cmd_per_cpu_s": count / (cpu + pool_cpu),
        "refused": refused,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="1,100,1000")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--format", default="points")
    parser.add_argument("--rate", type=float, default=1000.0, help="the paced runs' commands per second")
    parser.add_argument(
        "--players",
        choices=("ai", "simple"),
        default="ai",
        help="ai: bot.engine.ai, thinking as the bot does; simple: no thinking",
    )
    parser.add_argument("--level", choices=("easy", "strong"), default="easy", help="the ai players' level")
    parser.add_argument(
        "--thinkers",
        type=int,
        default=thinker_count(),
        help="worker processes the ai players think in (0: on the event loop); default as the bot",
    )
    parser.add_argument(
        "--gc",
        choices=("tuned", "default"),
        default="tuned",
        help="tuned: bot.app.runtime.tune_gc() at start-up, as `python -m bot` does; default: Python's",
    )
    parser.add_argument(
        "--database",
        help="a postgresql:// URL: every run is made on a fresh schema there too, beside SQLite",
    )
    parser.add_argument(
        "--restart-tables",
        type=int,
        default=resume.TABLES,
        help="then a restart with this many open tables is timed, as benchmarks/resume.py does (0: none)",
    )
    args = parser.parse_args()
    if args.gc == "tuned":
        tune_gc()
    policy = simple_players if args.players == "simple" else ai.decide
    thinkers = start_thinkers(args.thinkers) if args.players == "ai" and args.thinkers > 0 else None
    players = f"ai {args.level}, {args.thinkers} thinkers" if args.players == "ai" else "simple"
    print(f"computer players: {players}; gc {args.gc}; {os.cpu_count()} CPUs; ", end="")
    print(f"{args.seconds:g} s per run; ", end="")
    print(f"format {args.format}, {SEATS} seats per table; load average {os.getloadavg()[0]:.1f}")
    header = f"{'db':>8} {'tables':>6} {'load':>10} {'commands':>9} {'cmd/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
    header += f"{'max ms':>7} {'think p99':>9} {'cmd/commit':>10} {'cpu':>5} {'pool':>5} {'cmd/cpu-s':>9}"
    print(header)
    with tempfile.TemporaryDirectory() as folder:
        kinds = ["sqlite", "postgres"] if args.database else ["sqlite"]
        runs = itertools.product((int(n) for n in args.tables.split(",")), (args.rate, None), kinds)
        for number, (tables, rate, kind) in enumerate(runs):
            schema = f"bench_{os.getpid()}_{number}"
            if kind == "sqlite":
                database: Path | str = Path(folder) / f"bench-{number}.db"
            else:
                database = asyncio.run(fresh_schema(args.database, schema))
            measured = run(tables, args.seconds, args.format, database, rate, policy, args.level, thinkers)
            r = asyncio.run(measured)
            if kind == "postgres":
                asyncio.run(drop_schema(args.database, schema))
            load = f"{rate:g}/s" if rate else "flat out"
            print(
                f"{kind:>8} {r['tables']:>6} {load:>10} {r['commands']:>9} {r['per_second']:>8.0f} "
                f"{r['p50_ms']:>7.2f} {r['p99_ms']:>7.2f} {r['max_ms']:>7.1f} {r['think_p99_ms']:>9.2f} "
                f"{r['commands'] / max(1, r['commits']):>10.1f} {r['cpu_share']:>5.0%} "
                f"{r['pool_share']:>5.0%} {r['cmd_per_cpu_s']:>9.0f}",
                flush=True,
            )
    if thinkers is not None:
        thinkers.close()
    if args.restart_tables:
        restart_figures(args.restart_tables, args.database)


def restart_figures(tables: int, url: str | None) -> None:
    """Issue 13's restart beside the throughput (a store format made for speed must keep it):
    `benchmarks/resume.py` with its defaults but the table count, on each database run here."""
    print(
        f"restart ({tables} open tables of {resume.MOVES} moves, {resume.FORMAT}; see benchmarks/resume.py):"
    )
    with tempfile.TemporaryDirectory() as folder:
        databases: list[Path | str] = [Path(folder) / "restart.db"]
        if url:
            databases.append(asyncio.run(fresh_schema(url, f"restart_{os.getpid()}")))
        for database in databases:
            r = resume.restart(database, tables, resume.MOVES, resume.DISTINCT, resume.FORMAT)
            print(f"  {resume.describe(database, r)}", flush=True)
        if url:
            asyncio.run(drop_schema(url, f"restart_{os.getpid()}"))


if __name__ == "__main__":
    main()
