"""Random games played to the end: cards conserved, one player to act, rejected commands change
nothing, and both the JSON round trip and the replay of the log reproduce the state."""

import json
import random

import pytest
from deal_helpers import random_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import IllegalActionError, Rules
from bot.engine.deal import Deal, Phase

RULE_VARIANTS = [
    *(Rules.preset(name) for name in Rules.PRESET_NAMES),
    Rules(rediscard_open_pick=True, pick_discarded_joker=True, max_missed_turns=1),
    Rules(closed_deck_empty="settle", cut_joker=False),
]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    chaos=st.sampled_from([0.0, 0.3, 1.0, 3.0]),
    rules=st.sampled_from(RULE_VARIANTS),
)
def test_random_games_keep_every_invariant(seed, players, chaos, rules):
    players = min(players, rules.max_players)
    deal, _ = Deal.start(players, rules, random.Random(seed))
    moves = random.Random(seed + 1)
    for _ in range(600):
        deal.check_invariants()
        if deal.phase is Phase.OVER:
            break
        before = json.dumps(deal.to_json(), sort_keys=True)
        wrong_seat = {"command": "pick", "seat": (deal.turn + 1) % players, "source": "closed"}
        absent = next(c for c in deal.shoe if c not in deal.seats[deal.turn].hand)
        not_held = {"command": "discard", "seat": deal.turn, "card": absent.code}
        for illegal in (wrong_seat, not_held):
            with pytest.raises(IllegalActionError):
                deal.apply(illegal)
            assert json.dumps(deal.to_json(), sort_keys=True) == before
        command = random_command(deal, moves, chaos)
        try:
            events = deal.apply(command)
        except IllegalActionError:
            assert json.dumps(deal.to_json(), sort_keys=True) == before
            continue
        assert events
        for event in events:  # what another seat may see names no card of this seat's alone
            if event.private:
                for other in (s for s in range(players) if s != event.seat):
                    seen = event.visible_to(other).to_json()
                    assert "card" not in seen and "secret" not in seen
    deal.check_invariants()
    raw = json.loads(json.dumps(deal.to_json()))
    assert Deal.from_json(raw).to_json() == deal.to_json()
    assert Deal.replay(raw).to_json() == deal.to_json()
    if deal.phase is Phase.OVER:
        assert sum(seat.points == 0 for seat in deal.seats) >= 1
        assert deal.seats[deal.winner].points == 0
