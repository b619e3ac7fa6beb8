"""Commands per second and latency per command through the table service, with persistence.

For each table count, a fresh SQLite file in a temporary folder; every table has four seats
played by computer players (`bot.engine.ai`, or a pick-and-throw-back stand-in when that
module is missing), each table driven by its own coroutine as fast as the service answers,
all tables at once. A finished match is replaced by a new table in the same channel.

Latency is the time `TableService.play` takes to return, which includes waiting for the
table's lock, applying the command, and waiting for its group commit to reach the database
(the service reports nothing before that). It does not include the computer player's thinking,
which happens before the call; throughput counts everything, thinking included, over the wall
time of the run. The `cpu` column is the process's CPU time (all its threads) over wall time:
on a shared machine other processes take the rest, so `cmd/cpu-s` (commands per second of CPU
the process actually got) is the figure that compares between runs.

Each table count is run twice: paced, the tables together sending `--rate` commands per second
(each table at an even share, out of step with the others), which is the latency a player
sees at that load; and flat out, which is the most the service takes (latency is then mostly
queueing behind the other tables: with N tables in a closed loop it is about N / throughput).

    python benchmarks/service.py [--tables 1,100,1000] [--seconds 10] [--rate 1000]
                                 [--format points] [--players ai|simple] [--gc tuned|default]
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import functools
import gc
import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import ai
from bot.engine.deal import Phase, SeatView
from bot.engine.errors import IllegalActionError
from bot.engine.match import MatchPhase
from bot.runtime import tune_gc
from bot.service import TableService, seeded
from bot.service.computer import Policy
from bot.store import Store

SEATS = 4


def simple_players(level: str, view: SeatView, rng: random.Random) -> dict[str, Any]:
    """Plays on without thinking, to measure the service alone: picks, throws a random card,
    shows a wrong hand now and then so that deals and matches end and start."""
    if view.phase is Phase.PICK:
        return {"command": "pick", "seat": view.seat, "source": "closed"}
    hand = [card.code for card in view.hand]
    if rng.random() < 0.02:
        return {"command": "declare", "seat": view.seat, "groups": [" ".join(hand[1:])], "finish": hand[0]}
    return {"command": "discard", "seat": view.seat, "card": rng.choice(hand)}


async def run(
    tables: int,
    seconds: float,
    fmt: str,
    folder: Path,
    rate: float | None,
    policy: Policy,
    thinkers: concurrent.futures.Executor | None = None,
) -> dict[str, float]:
    """One run; `rate` paces the tables to that many commands per second in all (None: each
    table sends its next command as soon as the last one returns)."""
    store = await Store.open(folder / f"bench-{tables}-{rate}.db")
    service = TableService(store, random_source=seeded(tables))
    latencies: list[float] = []
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
                seat, command = match.remaining()[0], {"command": "next_deal"}
            else:
                seat = match.deal.turn
                view = match.deal.view(seat)
                if thinkers is None:
                    command = policy("easy", view, rng)
                else:
                    think = functools.partial(policy, "easy", view, random.Random(rng.random()))
                    command = await asyncio.get_running_loop().run_in_executor(thinkers, think)
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
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(drive(channel, wall + seconds) for channel in range(1, tables + 1)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    commits = store.commits - commits
    await store.close()
    latencies.sort()
    count = len(latencies)
    return {
        "tables": tables,
        "commands": count,
        "per_second": count / wall,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[min(count - 1, int(count * 0.99))] * 1000,
        "max_ms": latencies[-1] * 1000,
        "commits": commits,
        "cpu_share": cpu / wall,
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
        choices=("ai", "ai-process", "simple"),
        default="ai",
        help="ai: think in the bot's process; ai-process: in another process; simple: no thinking",
    )
    parser.add_argument(
        "--gc",
        choices=("tuned", "default"),
        default="tuned",
        help="tuned: bot.runtime.tune_gc() at start-up, as `python -m bot` does; default: Python's",
    )
    args = parser.parse_args()
    if args.gc == "tuned":
        tune_gc()
    policy = simple_players if args.players == "simple" else ai.decide
    thinkers = ProcessPoolExecutor(1) if args.players == "ai-process" else None
    print(f"computer players: {args.players}; gc {args.gc}; {os.cpu_count()} CPUs; ", end="")
    print(f"{args.seconds:g} s per run; ", end="")
    print(f"format {args.format}, {SEATS} seats per table; load average {os.getloadavg()[0]:.1f}")
    header = (
        f"{'tables':>6} {'load':>10} {'commands':>9} {'cmd/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
    )
    print(header + f"{'commits':>8} {'cmd/commit':>10} {'cpu':>5} {'cmd/cpu-s':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for tables, rate in itertools.product((int(n) for n in args.tables.split(",")), (args.rate, None)):
            r = asyncio.run(run(tables, args.seconds, args.format, Path(folder), rate, policy, thinkers))
            load = f"{rate:g}/s" if rate else "flat out"
            print(
                f"{r['tables']:>6} {load:>10} {r['commands']:>9} {r['per_second']:>8.0f} {r['p50_ms']:>7.2f} "
                f"{r['p99_ms']:>7.2f} {r['max_ms']:>7.1f} {r['commits']:>8} "
                f"{r['commands'] / max(1, r['commits']):>10.1f} {r['cpu_share']:>5.0%} "
                f"{r['per_second'] / r['cpu_share']:>9.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
