"""How long `best_arrangement` takes per hand: median, p99 and worst, for 13 and 14 cards.

Hands are dealt from a shuffled 2-deck shoe with 2 printed jokers and a random wild rank (one
deal in 14 has none, as when the cut card is a joker and Aces are not made wild). The solver's
memo starts empty, so the figures include the cold start. Pauses of Python's cyclic garbage
collector land inside whichever call triggers them; they belong to the whole process (every
object in it is scanned), so the worst call is also reported with those pauses taken out.
CPU time is reported next to wall time because on a shared machine wall time also counts
other processes.

    python benchmarks/solver.py [--count 10000] [--seed 1] [--rules standard] [--sizes 13,14]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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


def measure(size: int, count: int, seed: int, rules: Rules, clock: GcClock) -> None:
    rng = random.Random(seed)
    shoe = build_shoe(2, 2)
    wall: list[float] = []
    cpu: list[float] = []
    without_gc: list[float] = []
    worst = (0.0, "")
    valid = 0
    for _ in range(count):
        hand = rng.sample(shoe, size)
        wild = rng.choice([None, *range(1, 14)])
        clock.spent = 0.0
        start, start_cpu = time.perf_counter(), time.process_time()
        result = best_arrangement(hand, wild, rules)
        elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        valid += result.valid
        wall.append(elapsed)
        cpu.append(elapsed_cpu)
        without_gc.append(elapsed - clock.spent)
        if elapsed - clock.spent > worst[0]:
            worst = (elapsed - clock.spent, f"{format_cards(hand)} (wild {wild})")
    print(f"{size} cards, {count} hands ({valid} valid shows):")
    print(f"    wall time      {percentiles(wall)}")
    print(f"    CPU time       {percentiles(cpu)}")
    print(f"    wall, no GC    {percentiles(without_gc)}   worst hand: {worst[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000, help="hands per size (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard", help="a Rules preset: standard, octro, lenient, home")
    parser.add_argument("--sizes", default="13,14", help="hand sizes to time (default 13,14)")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    clock = GcClock()
    print(f"best_arrangement, rules preset '{args.rules}', seed {args.seed}, cold memo")
    for size in (int(s) for s in args.sizes.split(",")):
        measure(size, args.count, args.seed, rules, clock)


if __name__ == "__main__":
    main()
