"""How long `best_arrangement` takes per hand: median, p99 and worst, for 13 and 14 cards.

Hands are dealt from a shuffled 2-deck shoe with 2 printed jokers and a random wild rank (one
deal in 14 has none, as when the cut card is a joker and Aces are not made wild). The solver's
memos start empty, so the figures include the cold start.

Two figures per hand: the call itself (what scoring a hand costs: `points`, `valid` and
`discard` are known when it returns) and the call plus reading `groups`, which lays the hand
out for display the first time it is read.

Each size is timed twice, each time from empty memos: once with Python's cyclic garbage
collector running, and once with it switched off during the timing, as `timeit` does. A
collection pause belongs to the whole process (every object in it is scanned), not to the
call it happens to land in, so the first run also reports its times with the pauses taken out.
CPU time is reported next to wall time because on a shared machine wall time also counts
other processes.

    python benchmarks/solver.py [--count 10000] [--seed 1] [--rules standard] [--sizes 13,14]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import melds, solver
from bot.engine.cards import build_shoe, format_cards
from bot.engine.rules import Rules
from bot.engine.solver import best_arrangement


class GcClock:
    """Seconds spent in garbage collection since the last reset."""

    def __init__(self) -> None:
        self.spent = 0.0
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.spent += time.perf_counter() - self._started


def percentiles(times: list[float]) -> str:
    times = sorted(times)
    p99 = times[max(0, int(len(times) * 0.99) - 1)]
    return (
        f"median {statistics.median(times) * 1e6:7.1f} µs  p99 {p99 * 1e6:7.1f} µs  "
        f"worst {times[-1] * 1e3:6.2f} ms"
    )


def clear_memos() -> None:
    """Empties the solver's memos, so that each run starts cold."""
    for memo in (solver._POINTS_MEMO, solver._SET_MEMO, solver._TRACE_MEMO, melds._MELDS):
        memo.clear()


def measure(size: int, count: int, seed: int, rules: Rules, clock: GcClock, collect: bool) -> None:
    rng = random.Random(seed)
    shoe = build_shoe(2, 2)
    call: list[float] = []
    total: list[float] = []
    cpu: list[float] = []
    call_no_gc: list[float] = []
    total_no_gc: list[float] = []
    worst = (0.0, "")
    valid = 0
    if not collect:
        gc.disable()
    for _ in range(count):
        hand = rng.sample(shoe, size)
        wild = rng.choice([None, *range(1, 14)])
        clock.spent = 0.0
        start, start_cpu = time.perf_counter(), time.process_time()
        result = best_arrangement(hand, wild, rules)
        returned = time.perf_counter()
        paused = clock.spent
        result.groups  # noqa: B018 (the layout is made when first read)
        done, done_cpu = time.perf_counter(), time.process_time()
        valid += result.valid
        call.append(returned - start)
        total.append(done - start)
        cpu.append(done_cpu - start_cpu)
        call_no_gc.append(returned - start - paused)
        total_no_gc.append(done - start - clock.spent)
        if done - start - clock.spent > worst[0]:
            worst = (done - start - clock.spent, f"{format_cards(hand)} (wild {wild})")
    gc.enable()
    state = "on" if collect else "off"
    print(f"{size} cards, {count} hands ({valid} valid shows), garbage collector {state}:")
    print(f"    call                   {percentiles(call)}")
    print(f"    call + layout          {percentiles(total)}")
    print(f"    call + layout, CPU     {percentiles(cpu)}")
    if collect:
        print(f"    call, no GC pauses     {percentiles(call_no_gc)}")
        print(f"    call + layout, no GC   {percentiles(total_no_gc)}")
    print(f"    slowest hand: {worst[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000, help="hands per size (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard", choices=Rules.PRESET_NAMES, help="a Rules preset")
    parser.add_argument("--sizes", default="13,14", help="hand sizes to time (default 13,14)")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    clock = GcClock()
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"best_arrangement, rules preset '{args.rules}', seed {args.seed}, cold memos, load average {load}")
    for collect in (True, False):
        for size in (int(s) for s in args.sizes.split(",")):
            clear_memos()
            gc.collect()
            measure(size, args.count, args.seed, rules, clock, collect)


if __name__ == "__main__":
    main()
