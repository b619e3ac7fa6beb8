"""A finished deal replayed from its record (`bot.engine.replay`): every step is the engine's own
state, and the last is exactly the deal as the match stored it."""

import dataclasses
import random

import pytest
from deal_helpers import random_command

from bot.engine.cards import format_cards
from bot.engine.deal import Deal, Phase
from bot.engine.errors import CorruptTableError
from bot.engine.events import DealOver, Reshuffled
from bot.engine.history import FinishedDeal
from bot.engine.match import Match
from bot.engine.replay import replay_deal
from bot.engine.rules import Rules


def played_deal(seed: int, players: int = 3, chaos: float = 0.3, rules: Rules | None = None) -> FinishedDeal:
    """A deal played to its end with random legal moves, as the match keeps it."""
    rng = random.Random(seed)
    match, _ = Match.start("points", players, rng, rules=rules)
    for _ in range(5000):
        if match.deal is None:
            break
        match.apply(random_command(match.deal, rng, chaos))
    return match.finished_deals[-1]


@pytest.mark.parametrize("seed", range(12))
def test_a_played_deal_replays_to_exactly_its_stored_final_state(seed):
    record = played_deal(seed)
    replay = replay_deal(record)
    assert len(replay.steps) == len(record.log) + 1
    last = replay.steps[-1]
    assert last.over and replay.result.winner == record.winner
    assert last.hands == tuple(seat.hand for seat in record.seats)
    assert replay.result.points == tuple(seat.points for seat in record.seats)
    assert last.statuses == tuple(seat.status for seat in record.seats)
    assert last.open_top == (record.open_pile[-1] if record.open_pile else None)
    assert last.closed_count == len(record.closed)
    assert all(not step.over for step in replay.steps[:-1])
    # Each step is the engine's state after that many commands of the log.
    middle = len(record.log) // 2
    raw = record.to_json()
    partial = Deal.replay({**raw, "log": raw["log"][:middle]})
    step = replay.steps[middle]
    assert step.hands == tuple(tuple(seat.hand) for seat in partial.seats)
    assert (step.open_top, step.closed_count) == (partial.open_card, len(partial.closed))
    assert step.turn == partial.turn


def test_a_step_names_who_picked_and_threw_what():
    record = played_deal(3, chaos=0.02)
    replay = replay_deal(record)
    first, second = replay.steps[1], replay.steps[2]
    assert first.seat == replay.first_player and first.picked is not None and first.discarded is None
    assert first.picked.card in first.hands[first.seat] and len(first.hands[first.seat]) == 14
    assert second.seat == first.seat and second.discarded == second.open_top
    assert second.discarded not in second.hands[second.seat] or second.hands[second.seat].count(
        second.discarded
    ) < first.hands[first.seat].count(second.discarded)
    assert replay.steps[0].seat is None and replay.steps[0].closed_count == first.closed_count + (
        first.picked.source == "closed"
    )


def test_a_reshuffled_deck_replays_from_its_recorded_order():
    """001: the open pile becomes the closed deck; the replay takes the order the deal recorded."""
    for seed in range(40):
        record = played_deal(seed, players=2, chaos=0.01)
        if record.reshuffles:
            break
    else:
        pytest.skip("no seed reshuffled")
    replay = replay_deal(record)
    assert any(isinstance(event, Reshuffled) for step in replay.steps for event in step.events)
    assert replay.steps[-1].hands == tuple(seat.hand for seat in record.seats)


def test_a_deal_still_being_played_has_no_record_to_replay():
    rng = random.Random(5)
    match, _ = Match.start("points", 2, rng)
    match.apply(random_command(match.deal, rng, 0.0))
    with pytest.raises(CorruptTableError, match="has not ended"):
        FinishedDeal.from_json(match.deal.to_json(), 1)
    with pytest.raises(ValueError, match="is over"):
        FinishedDeal.of(match.deal, 1)


def test_a_record_that_does_not_replay_to_itself_is_refused_as_corrupt():
    record = played_deal(4)
    paid_more = tuple(dataclasses.replace(seat, points=seat.points + 1) for seat in record.seats)
    with pytest.raises(CorruptTableError):
        replay_deal(dataclasses.replace(record, seats=paid_more))
    with pytest.raises(CorruptTableError):
        replay_deal(dataclasses.replace(record, shoe_codes=format_cards(record.shoe[::-1])))
    with pytest.raises(CorruptTableError):
        replay_deal(dataclasses.replace(record, log=record.log[:-1]))
    raw = record.to_json()
    edited = {**raw, "seats": [{**seat, "points": seat["points"] + 1} for seat in raw["seats"]]}
    with pytest.raises(CorruptTableError):
        replay_deal(FinishedDeal.from_json(edited, 1))


def test_the_result_is_the_deal_over_event():
    record = played_deal(8)
    replay = replay_deal(record)
    over = next(event for event in replay.steps[-1].events if isinstance(event, DealOver))
    assert (replay.result.points, replay.result.outcomes) == (over.points, over.outcomes)
    assert replay.steps[-1].phase is Phase.OVER
    assert replay.step(10_000) is replay.steps[-1] and replay.step(-3) is replay.steps[0]


def test_a_frame_says_what_each_seat_paid_at_the_end_and_who_is_to_act_before():
    """A pool score adds the points (+), Points and Deals pay them (−); the winner pays nothing."""
    from bot.present.replay_text import TO_ACT, WINNER, seat_line, seat_tag

    replay = replay_deal(played_deal(6))
    last, first = replay.steps[-1], replay.steps[0]
    winner = replay.result.winner
    loser = next(seat for seat, points in enumerate(replay.result.points) if points)
    paid = replay.result.points[loser]
    assert (seat_line(last, loser, True), seat_line(last, loser, False)) == (f"+{paid} pts", f"−{paid} pts")
    assert seat_line(last, winner, False) == "0 pts" and seat_tag(last, winner) == WINNER
    assert seat_line(first, 0, False) == "13 cards" and seat_tag(first, replay.first_player) == TO_ACT
