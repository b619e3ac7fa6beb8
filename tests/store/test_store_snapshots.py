"""The snapshot encoder reuses texts between commands, and must still give exactly the JSON
value of the snapshot at every step: across deals, reloads and interleaved matches."""

import json
import random

from bot.engine.match import Match, MatchPhase
from bot.store.snapshots import SnapshotEncoder, dumps


def a_move(match: Match, rng: random.Random) -> dict:
    if match.phase is MatchPhase.BETWEEN_DEALS:
        return {"command": "next_deal"}
    deal = match.deal
    seat = deal.turn
    if deal.phase == "pick":
        if rng.random() < 0.02 and deal.can_drop(seat):
            return {"command": "drop", "seat": seat}
        return {"command": "pick", "seat": seat, "source": "open" if rng.random() < 0.3 else "closed"}
    hand = [card.code for card in deal.seats[seat].hand]
    if rng.random() < 0.02:
        return {"command": "declare", "seat": seat, "groups": [" ".join(hand[1:])], "finish": hand[0]}
    return {"command": "discard", "seat": seat, "card": rng.choice(hand)}


def same_value(encoder: SnapshotEncoder, match_id: int, match: Match) -> None:
    snapshot = match.to_json()
    assert json.loads(encoder.encode(match_id, snapshot)) == json.loads(dumps(snapshot))


def test_every_snapshot_of_interleaved_pool_matches_encodes_to_its_exact_value():
    rng = random.Random(5)
    encoder = SnapshotEncoder()
    matches = {match_id: Match.start("pool-101", 3, random.Random(match_id))[0] for match_id in (1, 2)}
    deals = 0
    for step in range(1000):
        match_id = sorted(matches)[step % 2]
        match = matches[match_id]
        if match.phase is MatchPhase.OVER:  # the next match takes its place
            encoder.forget(match_id)
            del matches[match_id]
            matches[max(matches) + 1] = Match.start("pool-101", 3, random.Random(step))[0]
            continue
        match.rng = rng
        if match.deal is not None:
            match.deal.rng = rng
        try:
            match.apply(a_move(match, rng))
        except Exception:  # an illegal pick from the open pile: nothing changed
            continue
        deals += match.phase is MatchPhase.BETWEEN_DEALS
        same_value(encoder, match_id, match)
        if step % 97 == 0:  # a reload: new objects with the same values
            matches[match_id] = match = Match.from_json(json.loads(dumps(match.to_json())))
            same_value(encoder, match_id, match)
    assert deals > 5


def test_a_forgotten_match_starts_afresh():
    encoder = SnapshotEncoder()
    match, _ = Match.start("points", 2, random.Random(1))
    same_value(encoder, 1, match)
    encoder.forget(1)
    encoder.forget(1)  # forgetting twice is harmless
    same_value(encoder, 1, match)
