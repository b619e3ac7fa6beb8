"""How long `best_arrangement` takes per hand: median, p99 and worst, for 13 and 14 cards.

Hands are dealt from a shuffled 2-deck shoe with 2 printed jokers and a random wild rank (one
deal in 14 has none, as when the cut card is a joker and Aces are not made wild). The solver's
memo starts empty, so the worst figure includes the cold start.

    python benchmarks/solver.py [--count 10000] [--seed 1] [--rules standard]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.cards import build_shoe, format_cards
from bot.engine.rules import Rules
from bot.engine.solver import best_arrangement


def deal(rng: random.Random, size: int) -> tuple[list, int | None]:
    hand = rng.sample(build_shoe(2, 2), size)
    wild = rng.choice([None, *range(1, 14)])
    return hand, wild


def measure(size: int, count: int, seed: int, rules: Rules) -> None:
    rng = random.Random(seed)
    times: list[float] = []
    worst_hand = ""
    valid = 0
    for _ in range(count):
        hand, wild = deal(rng, size)
        start = time.perf_counter()
        result = best_arrangement(hand, wild, rules)
        elapsed = time.perf_counter() - start
        valid += result.valid
        if not times or elapsed > max(times):
            worst_hand = f"{format_cards(hand)} (wild {wild})"
        times.append(elapsed)
    times.sort()
    median = statistics.median(times)
    p99 = times[int(len(times) * 0.99) - 1]
    print(
        f"{size} cards, {count} hands: median {median * 1e6:8.1f} µs   p99 {p99 * 1e6:8.1f} µs   "
        f"worst {times[-1] * 1e3:6.2f} ms   mean {statistics.fmean(times) * 1e6:8.1f} µs   "
        f"valid {valid}"
    )
    print(f"    worst hand: {worst_hand}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000, help="hands per size (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard", help="a Rules preset: standard, octro, lenient, home")
    parser.add_argument("--sizes", default="13,14", help="hand sizes to time (default 13,14)")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    print(f"best_arrangement, rules preset '{args.rules}', seed {args.seed}")
    for size in (int(s) for s in args.sizes.split(",")):
        measure(size, args.count, args.seed, rules)


if __name__ == "__main__":
    main()
