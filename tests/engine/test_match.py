import dataclasses
import json
import random

import pytest

from bot.engine import IllegalActionError
from bot.engine.commands import Discard, Drop, NextDeal, Pick, Source
from bot.engine.errors import CorruptTableError
from bot.engine.events import EventKind
from bot.engine.formats import Format
from bot.engine.history import FinishedDeal
from bot.engine.match import Match, MatchPhase, Standing


def act(match: Match, command: str, seat: int, **args) -> list:
    return match.apply({"command": command, "seat": seat, **args})


def play_out(match: Match, winner: int) -> list:
    """Ends the deal in progress: every seat but `winner` drops on its turn."""
    events = []
    while match.phase is MatchPhase.PLAYING:
        seat = match.deal.turn
        if seat != winner:
            events += act(match, "drop", seat)
        else:
            events += act(match, "pick", seat, source="closed")
            events += act(match, "discard", seat, card=match.deal.seats[seat].hand[-1].code)
    return events


def test_points_winner_collects_the_losers_points_times_the_point_value():
    match, _ = Match.start(Format.POINTS, 3, random.Random(4), point_value=2)
    first = match.deal.turn
    others = [s for s in range(3) if s != first]
    act(match, "drop", first)  # first drop: 20
    events = play_out(match, winner=others[1])  # others[0] first-drops too: 20
    assert match.phase is MatchPhase.OVER and match.winner == others[1]
    expected = [0, 0, 0]
    expected[first] = expected[others[0]] = -40
    expected[others[1]] = 80
    assert match.standings == expected
    assert events[-1].kind is EventKind.MATCH_OVER
    match.check_invariants()


@pytest.mark.parametrize(
    ("fmt", "standings", "points", "winner", "expected"),
    [
        # Foryourummy's Deals example: five losers pay 80, 30, 50, 30, 20 to C (480 each to start).
        (Format.DEALS_6, [480] * 6, [80, 30, 0, 50, 30, 20], 2, [400, 450, 690, 430, 450, 460]),
        (Format.DEALS_2, [160, 160], [0, 37], 0, [197, 123]),
        # Pool 101: 80 then 30 is 110, out. Pool 201: 80 + 80 + 50 = 210, out.
        (Format.POOL_101, [80, 0, 50], [30, 0, 40], 1, [110, 0, 90]),
        (Format.POOL_201, [160, 0], [50, 0], 1, [210, 0]),
    ],
)
def test_format_arithmetic_from_the_rule_pages(fmt, standings, points, winner, expected):
    match = Match.empty(fmt, len(standings))
    match.standings = list(standings)
    events = match._score(winner, points)
    assert match.standings == expected
    eliminated = [e.seat for e in events if e.kind is EventKind.ELIMINATED]
    limit = fmt.spec.pool_limit
    assert eliminated == [s for s, v in enumerate(expected) if limit and v >= limit]


def test_pool_players_reaching_the_limit_are_out_and_the_last_one_left_wins():
    match, _ = Match.start(Format.POOL_101, 2, random.Random(8))
    deals = 0
    while match.phase is not MatchPhase.OVER:
        if match.phase is MatchPhase.BETWEEN_DEALS:
            match.next_deal()
        play_out(match, winner=1 - match.deal.turn)  # drops cost 20 or 40
        deals += 1
        match.check_invariants()
    loser = 1 - match.winner
    assert match.seat_status[loser] is Standing.ELIMINATED and match.standings[loser] >= 101
    assert match.standings[match.winner] < 101 and deals == len(match.history)


def test_rejoin_at_the_highest_remaining_score_plus_one_once_and_only_below_79():
    match = Match.empty(Format.POOL_101, 3, rng=random.Random(1))
    match.standings = [105, 60, 40]
    match.seat_status = [Standing.ELIMINATED, Standing.IN, Standing.IN]
    events = match.rejoin(0)
    assert events[0].kind is EventKind.REJOINED and match.standings[0] == 61
    match.standings[0] = 120
    match.seat_status[0] = Standing.ELIMINATED
    with pytest.raises(IllegalActionError, match="already rejoined"):
        match.rejoin(0)
    match.rejoined[0] = False
    match.standings[1] = 80
    with pytest.raises(IllegalActionError, match="over 79"):
        match.rejoin(0)
    deals = Match.empty(Format.DEALS_3, 3)
    with pytest.raises(IllegalActionError, match="only possible in Pool"):
        deals.rejoin(0)


def test_two_or_three_players_left_may_split_the_pool_by_drops_remaining():
    match = Match.empty(Format.POOL_101, 4, rng=random.Random(1))
    match.standings = [110, 20, 60, 0]
    match.seat_status = [Standing.ELIMINATED, Standing.IN, Standing.IN, Standing.IN]
    act(match, "split", 1)
    with pytest.raises(IllegalActionError, match="already agreed"):
        act(match, "split", 1)
    with pytest.raises(IllegalActionError, match="still in the pool"):
        act(match, "split", 0)
    act(match, "split", 2)
    assert match.phase is MatchPhase.BETWEEN_DEALS
    events = act(match, "split", 3)
    assert events[-1].kind is EventKind.MATCH_OVER and match.winner is None
    drops = {1: 4, 2: 2, 3: 5}  # (100 - score) // 20
    assert match.shares == pytest.approx({s: d / 11 for s, d in drops.items()})
    match.check_invariants()


def test_a_split_vote_is_forgotten_when_the_next_deal_starts():
    match = Match.empty(Format.POOL_101, 2, rng=random.Random(1))
    act(match, "split", 0)
    match.next_deal()
    assert match.split_votes == []


def test_deals_have_no_drops():
    match, _ = Match.start(Format.DEALS_2, 3, random.Random(2))
    with pytest.raises(IllegalActionError, match="not allowed"):
        act(match, "drop", match.deal.turn)


def dealt_first_by(seat: int) -> FinishedDeal:
    """A finished deal of three players whose first player was `seat`."""
    match, _ = Match.start(Format.POINTS, 3, random.Random(seat))
    play_out(match, match.deal.turn)
    return dataclasses.replace(match.finished_deals[-1], first_player=seat)


def test_a_tied_deals_match_plays_a_tie_break_between_the_tied_players_only():
    match = Match.empty(Format.DEALS_2, 3, rng=random.Random(2))
    match.standings = [180, 180, 120]
    match.finished_deals = [dealt_first_by(0), dealt_first_by(1)]
    match.winners = [0, 1]
    assert match._end_if_decided() == []
    assert match.tie_break == [0, 1]
    match.next_deal()
    assert match.deal.seats[2].status == "sitting_out" and match.deal.turn == 0


def test_leaving_mid_deal_is_a_middle_drop_and_out_of_the_match():
    match, _ = Match.start(Format.POOL_201, 3, random.Random(6))
    leaver = (match.deal.turn + 1) % 3
    act(match, "leave", leaver)
    assert match.seat_status[leaver] is Standing.LEFT
    assert match.deal.seats[leaver].points == 50
    play_out(match, winner=(leaver + 1) % 3)
    if match.phase is MatchPhase.BETWEEN_DEALS:
        match.next_deal()
        assert match.deal.seats[leaver].status == "sitting_out"


def test_dealer_and_first_player_rotate_between_deals():
    match, _ = Match.start(Format.POOL_201, 4, random.Random(3))
    firsts = []
    for _ in range(3):
        firsts.append(match.deal.first_player)
        play_out(match, winner=match.deal.turn)
        match.next_deal()
    assert firsts[1] == (firsts[0] + 1) % 4 and firsts[2] == (firsts[1] + 1) % 4


@pytest.mark.parametrize("fmt", list(Format))
def test_random_matches_conserve_chips_end_with_a_winner_and_replay(fmt):
    for seed in range(3):
        rng = random.Random(seed)
        match, _ = Match.start(fmt, 3, random.Random(seed))
        for _ in range(3000):
            match.check_invariants()
            if match.phase is MatchPhase.OVER:
                break
            if match.phase is MatchPhase.BETWEEN_DEALS:
                match.next_deal()
                continue
            deal = match.deal
            seat = deal.turn
            if deal.phase == "pick":
                if rng.random() < 0.15 and deal.can_drop(seat):
                    act(match, "drop", seat)
                else:
                    act(match, "pick", seat, source="closed")
            elif rng.random() < 0.05:  # a wrong show: the player is out of the deal
                hand = [c.code for c in deal.seats[seat].hand]
                act(match, "declare", seat, groups=[" ".join(hand[1:])], finish=hand[0])
            else:
                act(match, "discard", seat, card=rng.choice(deal.seats[seat].hand).code)
        assert match.phase is MatchPhase.OVER and match.winner is not None
        raw = json.loads(json.dumps(match.to_json()))
        assert Match.from_json(raw).to_json() == match.to_json()
        assert Match.replay(raw).to_json() == match.to_json()


def test_a_stored_match_that_breaks_the_rules_is_refused_even_under_python_O():
    """The restart checks are real exceptions, caught by the quarantine, not asserts -O removes."""
    import subprocess
    import sys

    code = (
        "import random\n"
        "from bot.engine.errors import CorruptTableError\n"
        "from bot.engine.match import Match\n"
        "match, _ = Match.start('points', 2, random.Random(1))\n"
        "match.deal.seats[0].hand.pop()\n"
        "try:\n"
        "    match.check_invariants()\n"
        "except CorruptTableError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "cards are not conserved"


def test_a_match_restores_from_a_snapshot_and_the_commands_logged_after_it():
    match, _ = Match.start(Format.POOL_101, 2, random.Random(1))
    snapshot = match.to_json()
    seat = match.deal.turn
    match.apply(Pick(seat, Source.CLOSED))
    match.apply(Discard(seat, match.deal.seats[seat].hand[0]))
    restored = Match.restore(snapshot, match.log[-2:])
    assert restored.to_json() == match.to_json() and restored.rng is None


def test_a_command_after_the_last_snapshot_that_would_shuffle_is_refused_as_damage():
    # A new deal's shoe is drawn at random and is in no command: the service saves a snapshot
    # after it, so a stored log that asks to draw one again has lost that snapshot.
    match, _ = Match.start(Format.POOL_101, 2, random.Random(1))
    match.apply(Drop(match.deal.turn))  # the other player wins the deal
    assert match.phase is MatchPhase.BETWEEN_DEALS
    with pytest.raises(CorruptTableError, match="draws cards at random"):
        Match.restore(match.to_json(), [NextDeal().to_json()])
