"""Computer players against each other: complete matches of every format, with the engine's
invariants checked after every command and every match replayed from its log.

Each match seats one strong player among easy ones (the strong seat moves round the table from
one match to the next, so no seat's luck of the toss favours it). Per format it prints the
speed, deals per match, turns per deal, how the deals ended, and the strong player's match win
rate with a 95% Wilson interval next to its seat share. In Points a deal is the match, and the
strong level's first drops give up deals to save chips, so its net chips are printed too.

    python benchmarks/selfplay.py [--matches 30] [--seed 1] [--players 3] [--formats points,pool-101]
"""

from __future__ import annotations

import argparse
import json
import math
import random
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
    strong_chips: int = 0  # Points: the strong seat's net chips over all matches
    thinking: Counter[str] = field(default_factory=Counter)  # seconds spent deciding, per level
    decisions: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        for name in ("matches", "strong_wins", "deals", "turns", "capped", "seconds", "strong_chips"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("endings", "thinking", "decisions"):
            getattr(self, name).update(getattr(other, name))


def play_match(fmt: Format, players: int, strong_seat: int, seed: int, tally: Tally) -> None:
    """One match to the end; every command comes from a computer player's own view."""
    table_rng = random.Random(seed)
    seats = [
        ComputerPlayer(Level.STRONG if seat == strong_seat else Level.EASY, random.Random(seed * 31 + seat))
        for seat in range(players)
    ]
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
            tally.thinking[player.level] += time.perf_counter() - start
            tally.decisions[player.level] += 1
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
        tally.strong_chips += match.standings[strong_seat]


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
    args = parser.parse_args()
    formats = [Format(name) for name in args.formats.split(",")]
    share = 1 / args.players
    print(f"{args.matches} matches per format, {args.players} seats (1 strong), seed {args.seed}")
    header = f"{'format':9} {'match/s':>7} {'deals/m':>7} {'turns/d':>7}  endings (show/drops/deck)"
    print(header + "   strong wins [95% CI]")
    overall = Tally()
    for fmt in formats:
        tally = Tally()
        start = time.perf_counter()
        for index in range(args.matches):
            seed = args.seed * 1_000_003 + index
            play_match(fmt, args.players, index % args.players, seed, tally)
        tally.seconds = time.perf_counter() - start
        report(fmt.value, tally, share)
        if fmt.spec.family is Family.POINTS:
            chips = tally.strong_chips / max(tally.matches, 1)
            easy = -chips / (args.players - 1)
            print(f"{'':9} net chips per Points match: strong seat {chips:+.1f}, each easy seat {easy:+.1f}")
        overall.add(tally)
    report("all", overall, share)
    print(f"seat share of one player: {share:.3f}; deals cut off at {TURN_CAP} commands: {overall.capped}")
    for level in Level:
        count = max(overall.decisions[level], 1)
        print(f"{level} decisions: {overall.thinking[level] / count * 1e3:.2f} ms each ({count} decisions)")


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
