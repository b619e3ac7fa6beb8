import json
import random

import pytest
from deal_helpers import stacked_deal

from bot.engine import IllegalActionError, Rules, RummyError, parse_cards
from bot.engine.cards import JOKER, parse_card
from bot.engine.commitment import commitment_text, verify
from bot.engine.deal import Deal, Outcome, Phase, SeatStatus
from bot.engine.events import DealOver, Dealt, Dropped, EventKind, Reshuffled
from bot.engine.rules import ClosedDeckEmpty
from bot.engine.solver import best_arrangement

RULES = Rules()
WINNER = "AH 2H 3H 4H 5S 6S 7S 9D 9C 9S KC KD KH"
OTHER = "2C 3C 5D 7D 8D 10S JS QS 4C 6C 8C JH QH"
THIRD = "AC 2D 4D 6D 8S 10C JC QC 5C 7C 9H 10H 4S"


def snapshot(deal: Deal) -> str:
    return json.dumps(deal.to_json(), sort_keys=True)


def test_start_deals_thirteen_each_turns_the_open_card_and_cuts_the_joker():
    deal, events = Deal.start(4, RULES, random.Random(7))
    assert [len(seat.hand) for seat in deal.seats] == [13] * 4
    assert len(deal.shoe) == 106
    assert len(deal.closed) == 106 - 52 - 2
    assert deal.cut_joker is not None and len(deal.open_pile) == 1
    assert [e.kind for e in events] == [EventKind.TOSS, EventKind.DEALT, EventKind.TURN]
    deal.check_invariants()


def test_seven_players_use_three_decks_at_home_and_eleven_are_refused():
    # 004: "You can play with up to ten players, 2-6 players play with 2 packs of cards and if you
    # play with seven or more players then you should use three packs of cards."
    home = Rules.preset("home")
    deal, _ = Deal.start(7, home, random.Random(3))
    assert len(deal.shoe) == 3 * 52 + 3
    with pytest.raises(Exception, match="at most 10"):
        Deal.start(11, home, random.Random(3))
    # 000: "Indian Rummy card game is played between 2 to 6".
    with pytest.raises(Exception, match="at most 6"):
        Deal.start(7, RULES, random.Random(3))


def test_toss_goes_to_the_highest_card_and_ties_draw_again():
    for seed in range(60):
        deal, _ = Deal.start(6, RULES, random.Random(seed))
        last = deal.toss[-1]
        assert max(last.values(), key=lambda c: c.rank) == last[deal.turn]
        assert sorted(c.rank for c in last.values()).count(last[deal.turn].rank) == 1
        for earlier in deal.toss[:-1]:
            top = max(c.rank for c in earlier.values())
            assert sum(c.rank == top for c in earlier.values()) > 1
        assert set(deal.toss[-1]) <= set(deal.toss[0])
    assert any(len(Deal.start(6, RULES, random.Random(s))[0].toss) > 1 for s in range(60))


def test_same_seed_same_deal():
    first, _ = Deal.start(3, RULES, random.Random(42))
    second, _ = Deal.start(3, RULES, random.Random(42))
    assert first.to_json() == second.to_json()


def test_wild_rank_comes_from_the_cut_joker_and_aces_when_a_printed_joker_is_cut():
    assert stacked_deal(RULES, [WINNER, OTHER], "10D", "3D").wild_rank == 3
    assert stacked_deal(RULES, [WINNER, OTHER], "10D", "JK").wild_rank == 1
    no_aces = RULES.replace(aces_wild_on_printed_cut=False)
    assert stacked_deal(no_aces, [WINNER, OTHER], "10D", "JK").wild_rank is None
    no_cut = RULES.replace(cut_joker=False)
    deal = stacked_deal(no_cut, [WINNER, OTHER], "10D", None)
    assert deal.cut_joker is None and deal.wild_rank is None
    deal.check_invariants()


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ({"command": "pick", "seat": 1, "source": "closed"}, "turn\\."),
        ({"command": "discard", "seat": 0, "card": "AH"}, "Pick a card first"),
        ({"command": "declare", "seat": 0, "groups": [WINNER], "finish": "AH"}, "Pick a card first"),
        ({"command": "drop", "seat": 5}, "no seat 6"),
        ({"command": "fold", "seat": 0}, "'fold' is not a command"),
    ],
)
def test_rejected_commands_explain_and_change_nothing(command, message):
    deal = stacked_deal(RULES, [WINNER, OTHER], "10D", "3D")
    before = snapshot(deal)
    with pytest.raises(RummyError, match=message):
        deal.apply(command)
    assert snapshot(deal) == before


def test_pick_then_discard_passes_the_turn_and_hides_the_closed_card():
    deal = stacked_deal(RULES, [WINNER, OTHER], "10D", "3D", closed_top="QC 8H")
    picked = deal.pick(0, "closed")
    assert picked[0].card == parse_card("QC") and picked[0].private
    assert picked[0].visible_to(1).card is None and picked[0].visible_to(0).card == parse_card("QC")
    with pytest.raises(IllegalActionError, match="already picked"):
        deal.pick(0, "open")
    with pytest.raises(IllegalActionError, match="not in your hand"):
        deal.discard(0, "8H")
    events = deal.discard(0, "QC")
    assert [e.kind for e in events] == [EventKind.DISCARDED, EventKind.TURN]
    assert deal.turn == 1 and deal.turn_number == 2 and deal.open_card == parse_card("QC")
    deal.check_invariants()


def test_a_card_taken_from_the_open_pile_cannot_go_straight_back_unless_the_rules_allow():
    deal = stacked_deal(RULES, [WINNER, OTHER], "10D", "3D")
    deal.pick(0, "open")
    assert not deal.can_discard(0, "10D")
    with pytest.raises(IllegalActionError, match="discard a different card"):
        deal.discard(0, "10D")
    hand = parse_cards(WINNER)
    before = snapshot(deal)
    with pytest.raises(IllegalActionError, match="finish with a different card"):
        deal.declare(0, [hand[:4], hand[4:7], hand[7:10], hand[10:]], "10D")  # the finish slot is a discard
    assert snapshot(deal) == before
    lenient = stacked_deal(RULES.replace(rediscard_open_pick=True), [WINNER, OTHER], "10D", "3D")
    lenient.pick(0, "open")
    assert lenient.can_discard(0, "10D")
    lenient.declare(0, [hand[:4], hand[4:7], hand[7:10], hand[10:]], "10D")
    assert lenient.seats[0].outcome is Outcome.WON


def test_a_joker_discarded_by_the_previous_player_cannot_be_picked_but_the_first_open_joker_can():
    deal = stacked_deal(RULES, [WINNER, OTHER], "3S", "3D", closed_top="7H")
    assert deal.can_pick(0, "open")  # the first open card is a wild joker: allowed
    deal.pick(0, "closed")
    deal.discard(0, "7H")
    deal.pick(1, "closed")
    deal.discard(1, "3C")  # a wild joker (rank 3)
    with pytest.raises(IllegalActionError, match="can't be picked"):
        deal.pick(0, "open")
    assert not deal.view(0).can_pick_open
    allowed = stacked_deal(RULES.replace(pick_discarded_joker=True), [WINNER, OTHER], "3S", "3D", "7H")
    allowed.apply({"command": "pick", "seat": 0, "source": "closed"})
    allowed.discard(0, "7H")
    allowed.pick(1, "closed")
    allowed.discard(1, "3C")
    assert allowed.can_pick(0, "open")


def test_a_valid_show_wins_and_every_other_hand_pays_its_best_arrangement():
    deal = stacked_deal(RULES, [WINNER, OTHER, THIRD], "10D", "3D", closed_top="QC")
    deal.pick(0, "closed")
    groups = [parse_cards(g) for g in ("AH 2H 3H 4H", "5S 6S 7S", "9D 9C 9S", "KC KD KH")]
    events = deal.declare(0, groups, "QC")
    assert [e.kind for e in events] == [EventKind.DECLARED, EventKind.DEAL_OVER]
    assert deal.phase is Phase.OVER and deal.winner == 0
    wild = deal.wild_rank
    expected = [0] + [best_arrangement(parse_cards(h), wild, RULES).points for h in (OTHER, THIRD)]
    assert [seat.points for seat in deal.seats] == expected
    assert expected[1] > 0 and expected[2] > 0
    assert events[-1].points == tuple(expected)
    assert deal.finish_slot == [parse_card("QC")]
    deal.check_invariants()
    with pytest.raises(IllegalActionError, match="over"):
        deal.pick(1, "closed")


def test_a_wrong_show_costs_eighty_and_the_others_play_on():
    deal = stacked_deal(RULES, [WINNER, OTHER, THIRD], "10D", "3D", closed_top="QC")
    deal.pick(0, "closed")
    groups = [parse_cards(g) for g in ("AH 2H 3H 4H", "5S 6S 7S", "9D 9C 9S", "KC KD QC")]
    events = deal.declare(0, groups, "KH")
    shown = events[0]
    assert shown.kind is EventKind.WRONG_SHOW and shown.points == 80
    assert "not a valid group" in shown.reason
    other = shown.visible_to(1)
    assert (other.finish, other.groups, other.reason, other.points) == (None, None, None, 80)
    assert "groups" not in shown.to_json()["data"] and "secret" not in other.to_json()
    assert shown.visible_to(0) is shown and shown.groups == tuple(map(tuple, groups))
    assert deal.seats[0].status is SeatStatus.WRONG_SHOW and deal.turn == 1
    deal.check_invariants()
    deal.pick(1, "closed")
    deal.discard(1, deal.seats[1].hand[0])
    assert deal.turn == 2  # seat 0 is skipped from now on
    deal.pick(2, "closed")
    deal.discard(2, deal.seats[2].hand[0])
    assert deal.turn == 1


def test_declaring_cards_you_do_not_hold_is_refused():
    deal = stacked_deal(RULES, [WINNER, OTHER], "10D", "3D", closed_top="QC")
    deal.pick(0, "closed")
    before = snapshot(deal)
    with pytest.raises(IllegalActionError, match="Use each of your 14 cards once"):
        deal.declare(0, [parse_cards("AH 2H 3H 4H 5S 6S 7S 9D 9C 9S KC KD KH")], "QS")
    with pytest.raises(IllegalActionError, match="Use each of your 14 cards once"):
        deal.declare(0, [parse_cards("AH 2H 3H 4H 5S 6S 7S 9D 9C 9S KC KD")], "QC")
    assert snapshot(deal) == before


def test_first_drop_then_middle_drop_and_the_last_player_standing_wins():
    deal = stacked_deal(RULES, [WINNER, OTHER, THIRD], "10D", "3D")
    deal.pick(0, "closed")
    deal.discard(0, deal.seats[0].hand[-1])
    events = deal.drop(1)
    assert events[0] == Dropped(1, 20, Outcome.FIRST_DROP)
    deal.pick(2, "closed")
    deal.discard(2, deal.seats[2].hand[-1])
    events = deal.drop(0)
    assert events[0] == Dropped(0, 40, Outcome.MIDDLE_DROP)
    assert deal.phase is Phase.OVER and deal.winner == 2
    assert [s.points for s in deal.seats] == [40, 20, 0]
    assert [s.outcome for s in deal.seats] == [Outcome.MIDDLE_DROP, Outcome.FIRST_DROP, Outcome.WON]
    deal.check_invariants()


def test_drop_is_only_before_picking_and_not_in_formats_without_drops():
    deal = stacked_deal(RULES, [WINNER, OTHER], "10D", "3D")
    deal.pick(0, "closed")
    with pytest.raises(IllegalActionError, match="already picked"):
        deal.drop(0)
    no_drops = stacked_deal(RULES.replace(drops_allowed=False), [WINNER, OTHER], "10D", "3D")
    with pytest.raises(IllegalActionError, match="not allowed"):
        no_drops.drop(0)


def test_timeouts_pick_and_throw_back_and_three_in_a_row_are_a_middle_drop():
    deal = stacked_deal(RULES, [WINNER, OTHER, THIRD], "10D", "3D", closed_top="QC 8H 7H 6H 5H 4H")
    events = deal.timeout(0)
    assert [e.kind for e in events] == [
        EventKind.MISSED_TURN,
        EventKind.PICKED,
        EventKind.DISCARDED,
        EventKind.TURN,
    ]
    assert deal.open_card == parse_card("QC") and deal.seats[0].missed_turns == 1
    deal.pick(1, "closed")
    deal.timeout(1)  # picked but did not discard: the picked card goes
    assert deal.open_card == parse_card("8H")
    deal.pick(2, "closed")
    deal.discard(2, "7H")
    deal.timeout(0)
    deal.pick(1, "closed")
    deal.discard(1, "5H")  # acting resets seat 1's count
    assert deal.seats[1].missed_turns == 0
    deal.pick(2, "closed")
    deal.discard(2, "4H")
    events = deal.timeout(0)
    assert [e.kind for e in events][:2] == [EventKind.MISSED_TURN, EventKind.DROPPED]
    assert deal.seats[0].status is SeatStatus.DROPPED and deal.seats[0].points == 40
    deal.check_invariants()


def test_leaving_mid_turn_gives_back_the_picked_card_and_costs_a_middle_drop():
    deal = stacked_deal(RULES, [WINNER, OTHER, THIRD], "10D", "3D", closed_top="QC")
    deal.pick(0, "open")
    events = deal.leave(0)
    assert events[0].kind is EventKind.LEFT and deal.seats[0].points == 40
    assert deal.open_card == parse_card("10D") and len(deal.seats[0].hand) == 13
    assert deal.turn == 1
    deal.leave(2)  # not their turn: allowed at any time
    assert deal.phase is Phase.OVER and deal.winner == 1
    deal.check_invariants()


def test_an_empty_closed_deck_is_refilled_from_the_open_pile_except_its_top():
    deal, _ = Deal.start(2, RULES, random.Random(5))
    rng = random.Random(9)
    reshuffled = False
    while deal.phase is not Phase.OVER and not reshuffled:
        seat = deal.turn
        deal.pick(seat, "closed")
        events = deal.discard(seat, rng.choice(deal.seats[seat].hand))
        reshuffled = any(e.kind is EventKind.RESHUFFLED for e in events)
        deal.check_invariants()
    assert reshuffled and len(deal.open_pile) == 1 and len(deal.closed) > 50
    assert not deal.open_top_is_discard  # the new top may be picked even if it is a joker
    assert Deal.replay(deal.to_json()).to_json() == deal.to_json()


def test_with_the_settle_option_an_empty_deck_ends_the_deal_and_the_lowest_hand_wins():
    rules = RULES.replace(closed_deck_empty=ClosedDeckEmpty.SETTLE)
    deal, _ = Deal.start(2, rules, random.Random(5))
    events = []
    while deal.phase is not Phase.OVER:
        seat = deal.turn
        deal.pick(seat, "closed")
        events = deal.discard(seat, deal.seats[seat].hand[0])
    assert events[1].kind is EventKind.DECK_EXHAUSTED
    points = [seat.points for seat in deal.seats]
    hand_points = [best_arrangement(s.hand, deal.wild_rank, rules).points for s in deal.seats]
    assert points[deal.winner] == 0 and hand_points[deal.winner] == min(hand_points)
    assert points[1 - deal.winner] == hand_points[1 - deal.winner]
    deal.check_invariants()


def test_a_seat_view_shows_only_that_seat_s_cards():
    deal = stacked_deal(RULES, [WINNER, OTHER], "10D", "3D", closed_top="QC")
    deal.pick(0, "closed")
    mine, theirs, public = deal.view(0), deal.view(1), deal.view(None)
    assert mine.hand == tuple(deal.seats[0].hand) and mine.picked == parse_card("QC")
    assert theirs.hand == tuple(deal.seats[1].hand) and theirs.picked is None
    assert public.hand == () and public.picked is None and public.hand_sizes == (14, 13)
    assert not hasattr(public, "closed") and public.closed_count == len(deal.closed)
    assert JOKER not in public.open_pile


def test_json_round_trip_and_replay_reproduce_the_state():
    deal, _ = Deal.start(3, RULES, random.Random(11))
    for _ in range(10):
        seat = deal.turn
        deal.pick(seat, "closed")
        deal.discard(seat, deal.seats[seat].hand[0])
    raw = json.loads(json.dumps(deal.to_json()))
    assert Deal.from_json(raw).to_json() == deal.to_json()
    assert Deal.replay(raw).to_json() == deal.to_json()


def test_seats_sitting_out_get_no_cards_and_are_skipped():
    deal, _ = Deal.start(4, RULES, random.Random(2), sitting_out={1, 3})
    assert [len(s.hand) for s in deal.seats] == [13, 0, 13, 0]
    assert deal.seats[1].status is SeatStatus.SITTING_OUT and deal.turn in (0, 2)
    assert set(deal.toss[0]) == {0, 2}
    seat = deal.turn
    deal.pick(seat, "closed")
    deal.discard(seat, deal.seats[seat].hand[0])
    assert deal.turn == 2 - seat
    with pytest.raises(IllegalActionError, match="not playing"):
        Deal.start(4, RULES, random.Random(2), first_player=1, sitting_out={1})
    deal.drop(deal.turn)
    assert deal.phase is Phase.OVER and [s.points for s in deal.seats].count(0) == 3
    deal.check_invariants()
    assert Deal.replay(deal.to_json()).to_json() == deal.to_json()


def test_the_published_commitment_matches_the_revealed_shoe_and_salt():
    deal, events = Deal.start(2, RULES, random.Random(21))
    published = next(e for e in events if isinstance(e, Dealt)).commitment
    assert "salt" not in json.dumps([e.to_json() for e in events])
    rng = random.Random(3)
    reshuffle_digests = []
    while deal.phase is not Phase.OVER:
        seat = deal.turn
        deal.pick(seat, "closed")
        if len(deal.reshuffles) >= 1 and rng.random() < 0.05:
            events = deal.drop(seat) if deal.can_drop(seat) else deal.leave(seat)
        else:
            events = deal.discard(seat, rng.choice(deal.seats[seat].hand))
        reshuffle_digests += [e.commitment for e in events if isinstance(e, Reshuffled)]
    over = events[-1]
    assert isinstance(over, DealOver)
    shoe, salt = list(over.shoe), over.salt
    assert verify(published, salt, shoe)
    assert not verify(published, salt, shoe[1:] + shoe[:1])
    assert not verify(published, "0" * 32, shoe)
    assert reshuffle_digests
    for number, digest in enumerate(reshuffle_digests, start=1):
        order = list(over.reshuffles[number - 1])
        assert verify(digest, salt, order, f"reshuffle {number}")
    assert commitment_text(salt, shoe).startswith("rummy-bot shuffle v1|deal|" + salt + "|")


def test_a_command_missing_its_arguments_is_refused_with_a_reason():
    deal = stacked_deal(RULES, [WINNER, OTHER], "10D", "3D")
    with pytest.raises(RummyError, match="missing its source"):
        deal.apply({"command": "pick", "seat": 0})
    with pytest.raises(RummyError, match="missing its seat"):
        deal.apply({"command": "drop"})


def test_the_engine_says_what_a_drop_costs_now_and_charges_exactly_that():
    # 000: "first drop 20 points, middle drop 40 points" (the table's rules, whatever they are)
    rules = Rules(first_drop=15, middle_drop=35)
    deal, _ = Deal.start(3, rules, random.Random(4), first_player=0)
    assert deal.drop_cost(0) == 15
    deal.pick(0, "closed")
    assert deal.drop_cost(0) == 35
    deal.discard(0, deal.seats[0].hand[0])
    cost = deal.drop_cost(1)
    deal.drop(1)
    assert deal.seats[1].outcome is Outcome.FIRST_DROP and deal.seats[1].points == cost == 15
