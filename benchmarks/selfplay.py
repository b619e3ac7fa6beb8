"""Computer players against each other: complete matches of every format, with the engine's
invariants checked after every command and every match replayed from its log.

Each match seats one strong player among easy ones, or among greedy ones (`--against greedy`:
the baseline of issue 14, an easy player with no careless throws). Matches are played in
duplicate: each seeded shoe is dealt once per seat, the strong player in each seat in turn and
the same cards in every seat, so the luck of the cards is shared out evenly and what is left is
how each player plays them. Per format it prints the speed, deals per match, turns per deal, how
the deals ended, and the strong player's match win rate with a 95% Wilson interval next to its
seat share. In Points a deal is the match, and the strong level's drops give up deals to save
chips, so its net chips per deal are printed too, with a 95% interval over the shoes (a shoe's
deals are not independent of each other, so the shoe is the sample), and the verdict on issue
14's target (at least +5 chips per deal, the interval above 0). Last, each kind of player's
decision times (mean, p99, worst), wall clock and CPU: on a shared machine the wall clock also
counts other processes, so the load average is printed beside them.

    python benchmarks/selfplay.py [--matches 30] [--seed 1] [--players 3] [--formats points,pool-101]
                                  [--against easy|greedy] [--workers 1]

Issue 14's targets, one command each (`--workers 2` spreads the shoes over two processes):

    python benchmarks/selfplay.py --formats points --players 2 --against greedy --matches 4000
    python benchmarks/selfplay.py --formats points --players 4 --against greedy --matches 2000
    python benchmarks/selfplay.py --formats points --players 4 --against easy --matches 2000
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shlex
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.ai import ComputerPlayer, Level
from bot.engine.events import EventKind
from bot.engine.formats import Family, Format
from bot.engine.match import Match, MatchPhase

TURN_CAP = 2000  # commands in one deal before the benchmark gives up on it as endless
TARGET_CHIPS = 5.0  # issue 14: the strong seat nets at least this many chips per Points deal
SHOE_STRIDE = 1_000_003  # seeds of different --seed values never meet


@dataclass
class Tally:
    matches: int = 0
    strong_wins: int = 0
    deals: int = 0
    turns: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    capped: int = 0
    seconds: float = 0.0
    strong_chips: dict[int, list[int]] = field(
        default_factory=dict
    )  # Points: shoe -> the strong seat's chips
    thinking: dict[str, list[float]] = field(
        default_factory=dict
    )  # wall seconds per decision, per player kind
    thinking_cpu: dict[str, list[float]] = field(default_factory=dict)  # CPU seconds, likewise

    def add(self, other: Tally) -> None:
        for name in ("matches", "strong_wins", "deals", "turns", "capped", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.endings.update(other.endings)
        for shoe, chips in other.strong_chips.items():
            self.strong_chips.setdefault(shoe, []).extend(chips)
        for mine, theirs in ((self.thinking, other.thinking), (self.thinking_cpu, other.thinking_cpu)):
            for kind, times in theirs.items():
                mine.setdefault(kind, []).extend(times)


def play_match(fmt: Format, players: int, strong_seat: int, seed: int, tally: Tally, against: str) -> None:
    """One match to the end; every command comes from a computer player's own view."""
    table_rng = random.Random(seed)
    seats = [
        make_player(Level.STRONG if seat == strong_seat else against, random.Random(seed * 31 + seat))
        for seat in range(players)
    ]
    names = ["strong" if seat == strong_seat else against for seat in range(players)]
    match, _ = Match.start(fmt, players, table_rng)
    while match.phase is not MatchPhase.OVER:
        if match.phase is MatchPhase.BETWEEN_DEALS:
            match.next_deal()
            match.check_invariants()
            continue
        deal = match.deal
        assert deal is not None
        for _ in range(TURN_CAP):
            seat = deal.turn
            player = seats[seat]
            view = deal.view(seat)
            start, start_cpu = time.perf_counter(), time.process_time()
            command = player.decide(view)
            tally.thinking_cpu.setdefault(names[seat], []).append(time.process_time() - start_cpu)
            tally.thinking.setdefault(names[seat], []).append(time.perf_counter() - start)
            events = match.apply(command)
            match.check_invariants()
            kinds = {event.kind for event in events}
            if EventKind.DEAL_OVER in kinds:
                tally.deals += 1
                tally.turns += deal.turn_number
                tally.endings[ending(kinds)] += 1
                break
        else:
            tally.capped += 1
            return
    replayed = Match.replay(json.loads(json.dumps(match.to_json())))
    assert replayed.to_json() == match.to_json(), "the match does not replay from its log"
    tally.matches += 1
    tally.strong_wins += match.winner == strong_seat
    if fmt.spec.family is Family.POINTS:
        tally.strong_chips.setdefault(seed, []).append(match.standings[strong_seat])


def play_shoes(fmt: Format, players: int, seeds: list[int], against: str) -> Tally:
    """Each shoe dealt once per seat with the strong player in that seat (a worker's share)."""
    tally = Tally()
    start = time.perf_counter()
    for seed in seeds:
        for strong_seat in range(players):
            play_match(fmt, players, strong_seat, seed, tally, against)
    tally.seconds = time.perf_counter() - start
    return tally


def play_format(fmt: Format, args: argparse.Namespace) -> Tally:
    shoes = math.ceil(args.matches / args.players)
    seeds = [args.seed * SHOE_STRIDE + index for index in range(shoes)]
    start = time.perf_counter()
    if args.workers <= 1:
        tally = play_shoes(fmt, args.players, seeds, args.against)
    else:
        tally = Tally()
        shares = [seeds[worker :: args.workers] for worker in range(args.workers)]
        with ProcessPoolExecutor(args.workers) as pool:
            futures = [pool.submit(play_shoes, fmt, args.players, share, args.against) for share in shares]
            for future in futures:
                tally.add(future.result())
    tally.seconds = time.perf_counter() - start  # wall time of the whole format, workers or not
    return tally


def make_player(kind: str, rng: random.Random) -> ComputerPlayer:
    return ComputerPlayer.greedy(rng) if kind == "greedy" else ComputerPlayer(Level(kind), rng)


def ending(kinds: set[EventKind]) -> str:
    if EventKind.DECLARED in kinds:
        return "valid show"
    if EventKind.DECK_EXHAUSTED in kinds:
        return "deck exhausted"
    return "drops"  # the last seat standing after drops (or wrong shows)


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    if total == 0:
        return 0.0, 1.0
    p = wins / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - half, centre + half


def chips_interval(by_shoe: dict[int, list[int]]) -> tuple[float, float, float]:
    """The strong seat's mean chips per deal and its 95% interval, the shoe as the sample."""
    means = [statistics.fmean(chips) for chips in by_shoe.values()]
    mean = statistics.fmean(chips for deals in by_shoe.values() for chips in deals)
    half = 1.96 * statistics.stdev(means) / math.sqrt(len(means))
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30, help="matches per format, a whole number of shoes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=3, help="seats per table (default 3)")
    parser.add_argument("--formats", default=",".join(f.value for f in Format))
    parser.add_argument("--against", choices=("easy", "greedy"), default="easy", help="the other seats")
    parser.add_argument("--workers", type=int, default=1, help="processes to spread the shoes over")
    args = parser.parse_args()
    formats = [Format(name) for name in args.formats.split(",")]
    share = 1 / args.players
    shoes = math.ceil(args.matches / args.players)
    print("command: python benchmarks/selfplay.py " + shlex.join(sys.argv[1:]))
    print(
        f"{shoes * args.players} matches per format ({shoes} shoes, each dealt with the strong player "
        f"in every seat), {args.players} seats (1 strong, the rest {args.against}), seed {args.seed}, "
        f"{args.workers} worker(s)"
    )
    header = f"{'format':9} {'match/s':>7} {'deals/m':>7} {'turns/d':>7}  endings (show/drops/deck)"
    print(header + "   strong wins [95% CI]")
    overall = Tally()
    for fmt in formats:
        tally = play_format(fmt, args)
        report(fmt.value, tally, share)
        if fmt.spec.family is Family.POINTS and len(tally.strong_chips) > 1:
            chips, low, high = chips_interval(tally.strong_chips)
            other = -chips / (args.players - 1)
            met = "met" if chips >= TARGET_CHIPS and low > 0 else "NOT met"
            print(
                f"{'':9} net chips per deal: strong seat {chips:+.2f} [{low:+.2f}, {high:+.2f}], "
                f"each {args.against} seat {other:+.2f}; target >= {TARGET_CHIPS:+.0f} with the interval "
                f"above 0: {met}"
            )
        overall.add(tally)
    report("all", overall, share)
    print(f"seat share of one player: {share:.3f}; deals cut off at {TURN_CAP} commands: {overall.capped}")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"decision times (load average {load} on {os.cpu_count()} CPUs):")
    for kind in sorted(overall.thinking):
        for clock, times in (("wall", overall.thinking[kind]), ("CPU", overall.thinking_cpu[kind])):
            times.sort()
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(
                f"  {kind} decisions, {clock:4}: {statistics.fmean(times) * 1e3:.2f} ms mean, "
                f"p99 {p99 * 1e3:.1f} ms, worst {times[-1] * 1e3:.1f} ms ({len(times)} decisions)"
            )


def report(name: str, tally: Tally, share: float) -> None:
    matches = max(tally.matches, 1)
    deals = max(tally.deals, 1)
    endings = "/".join(str(tally.endings[key]) for key in ("valid show", "drops", "deck exhausted"))
    low, high = wilson(tally.strong_wins, tally.matches)
    rate = tally.strong_wins / matches
    verdict = "above" if low > share else "not clearly above"
    print(
        f"{name:9} {tally.matches / tally.seconds:7.2f} {tally.deals / matches:7.2f} "
        f"{tally.turns / deals:7.1f}  {endings:24}   {rate:.3f} [{low:.3f}, {high:.3f}] {verdict} seat share"
        + (f"  ({tally.capped} capped)" if tally.capped else "")
    )


if __name__ == "__main__":
    main()
