"""Writes `before_stakes_match.json`: a finished Pool 101 match of three players as the engine kept
it before deals recorded each seat's picks, the clock's turn, the leavers and the stakes (commit
3dec125), for `tests/engine/test_history.py`. Run with that commit's code:

    git archive 3dec125 | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old python tests/data/make_before_stakes_match.py tests/data/before_stakes_match.json

Its players pick from the closed deck and throw a random card, drop now and then, and leave once;
kept as written, never regenerated with newer code.
"""

import json
import random
import sys

from bot.engine.match import Match, MatchPhase


def main(path: str) -> None:
    rng = random.Random(11)
    match, _ = Match.start("pool-101", 3, rng)
    left = False
    while match.phase is not MatchPhase.OVER:
        if match.phase is MatchPhase.BETWEEN_DEALS:
            match.apply({"command": "next_deal"})
            continue
        deal = match.deal
        seat = deal.turn
        if not left and len(match.finished_deals) == 2:
            match.apply({"command": "leave", "seat": seat})
            left = True
        elif deal.phase == "pick" and rng.random() < 0.15:
            match.apply({"command": "drop", "seat": seat})
        elif deal.phase == "pick":
            match.apply({"command": "pick", "seat": seat, "source": "closed"})
        else:
            card = rng.choice(deal.seats[seat].hand).code
            match.apply({"command": "discard", "seat": seat, "card": card})
    with open(path, "w") as out:
        json.dump(match.to_json(), out, separators=(",", ":"))
        out.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
