"""Computer players against each other: complete matches of every format, with the engine's
invariants checked after every command and every match replayed from its log.

Each match seats one strong player among easy ones, or among greedy ones (`--against greedy`:
the baseline of issue 14, an easy player with no careless throws), the strong seat moving round
the table from one match to the next, so no seat's luck of the toss favours it. Per format it
prints the speed, deals per match, turns per deal, how the deals ended, and the strong player's
match win rate with a 95% Wilson interval next to its seat share. In Points a deal is the match,
and the strong level's first drops give up deals to save chips, so its net chips per deal are
printed too, with a 95% interval. Last, each kind of player's decision times (mean, p99, worst).

    python benchmarks/selfplay.py [--matches 30] [--seed 1] [--players 3] [--formats points,pool-101]
                                  [--against easy|greedy]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.ai import ComputerPlayer, Level
from bot.engine.events import EventKind
from bot.engine.formats import Family, Format
from bot.engine.match import Match, MatchPhase

TURN_CAP = 2000  # commands in one deal before the benchmark gives up on it as endless


@dataclass
class Tally:
    matches: int = 0
    strong_wins: int = 0
    deals: int = 0
    turns: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    capped: int = 0
    seconds: float = 0.0
    strong_chips: list[int] = field(default_factory=list)  # Points: the strong seat's net chips, per match
    thinking: dict[str, list[float]] = field(default_factory=dict)  # seconds per decision, per player kind

    def add(self, other: Tally) -> None:
        for name in ("matches", "strong_wins", "deals", "turns", "capped", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.endings.update(other.endings)
        self.strong_chips += other.strong_chips
        for kind, times in other.thinking.items():
            self.thinking.setdefault(kind, []).extend(times)


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
            start = time.perf_counter()
            command = player.decide(deal.view(seat))
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
        tally.strong_chips.append(match.standings[strong_seat])


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30, help="matches per format (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=3, help="seats per table (default 3)")
    parser.add_argument("--formats", default=",".join(f.value for f in Format))
    parser.add_argument("--against", choices=("easy", "greedy"), default="easy", help="the other seats")
    args = parser.parse_args()
    formats = [Format(name) for name in args.formats.split(",")]
    share = 1 / args.players
    print(
        f"{args.matches} matches per format, {args.players} seats (1 strong, the rest {args.against}), "
        f"seed {args.seed}"
    )
    header = f"{'format':9} {'match/s':>7} {'deals/m':>7} {'turns/d':>7}  endings (show/drops/deck)"
    print(header + "   strong wins [95% CI]")
    overall = Tally()
    for fmt in formats:
        tally = Tally()
        start = time.perf_counter()
        for index in range(args.matches):
            seed = args.seed * 1_000_003 + index
            play_match(fmt, args.players, index % args.players, seed, tally, args.against)
        tally.seconds = time.perf_counter() - start
        report(fmt.value, tally, share)
        if fmt.spec.family is Family.POINTS and len(tally.strong_chips) > 1:
            chips = statistics.fmean(tally.strong_chips)
            half = 1.96 * statistics.stdev(tally.strong_chips) / math.sqrt(len(tally.strong_chips))
            other = -chips / (args.players - 1)
            print(
                f"{'':9} net chips per deal: strong seat {chips:+.1f} "
                f"[{chips - half:+.1f}, {chips + half:+.1f}], each {args.against} seat {other:+.1f}"
            )
        overall.add(tally)
    report("all", overall, share)
    print(f"seat share of one player: {share:.3f}; deals cut off at {TURN_CAP} commands: {overall.capped}")
    for kind, times in sorted(overall.thinking.items()):
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{kind} decisions: {statistics.fmean(times) * 1e3:.2f} ms mean, p99 {p99 * 1e3:.1f} ms, "
            f"worst {times[-1] * 1e3:.1f} ms ({len(times)} decisions)"
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
