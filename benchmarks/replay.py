"""What a replay costs: `python benchmarks/replay.py [--deals 5] [--players 6] [--seed 1]`.

Deals are played to their end by the computer players' strong policy (as a table plays them),
then for each: rebuilding the deal from its record (`replay_deal`, what every ◀ ▶ press does
first), one frame (its scene, the solver grouping every hand, and the PNG), and the whole deal
animated (a frame per move) with the animation's size against the 8 MiB it must stay under.
Medians over the deals, with this process's CPU time beside the wall time, and the load average
(other work on the machine inflates wall time).
"""

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from bot.discord.replay_presenter import animation  # noqa: E402
from bot.engine import ai  # noqa: E402
from bot.engine.history import FinishedDeal  # noqa: E402
from bot.engine.match import Match  # noqa: E402
from bot.engine.replay import replay_deal  # noqa: E402
from bot.present.replay_scene import replay_scene  # noqa: E402
from bot.service.replay_views import DealRef, ReplayedDeal  # noqa: E402
from render.replay_frame import ANIMATION_LIMIT, render_replay  # noqa: E402


def played(players: int, rng: random.Random) -> FinishedDeal:
    match, _ = Match.start("points", players, rng)
    while match.deal is not None:
        deal = match.deal
        match.apply(ai.decide("strong", deal.view(deal.turn), rng))
    return match.finished_deals[-1]


def timed(work) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    names = tuple(f"Player {seat + 1}" for seat in range(args.players))
    rows: dict[str, list[tuple[float, float]]] = {"replay": [], "frame": [], "animation": []}
    moves, sizes = [], []
    for _ in range(args.deals):
        record = played(args.players, rng)
        wall, cpu, replay = timed(lambda record=record: replay_deal(record))
        rows["replay"].append((wall, cpu))
        replayed = ReplayedDeal(DealRef(1, 1), "points", names, 0.0, replay)
        middle = len(replay.steps) // 2
        wall, cpu, _ = timed(
            lambda replayed=replayed, middle=middle: render_replay(replay_scene(replayed, middle))
        )
        rows["frame"].append((wall, cpu))
        wall, cpu, data = timed(lambda replayed=replayed: animation(replayed, False))
        rows["animation"].append((wall, cpu))
        moves.append(len(replay.steps) - 1)
        sizes.append(len(data) if data else None)
    print(
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; {args.deals} deals of "
        f"{args.players} players, moves per deal: median {statistics.median(moves)}, most {max(moves)}"
    )
    for name, figures in rows.items():
        wall = statistics.median(w for w, _ in figures) * 1000
        cpu = statistics.median(c for _, c in figures) * 1000
        print(f"{name:>10}: median {wall:8.1f} ms wall, {cpu:8.1f} ms CPU")
    made = [size for size in sizes if size is not None]
    largest = f"{max(made) / 2**20:.2f} MiB" if made else "none made"
    print(f"animations: {len(made)} of {len(sizes)} under {ANIMATION_LIMIT / 2**20:g} MiB; largest {largest}")


if __name__ == "__main__":
    main()
