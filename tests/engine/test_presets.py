"""Each preset played as its source page says: a deal where each rule decides the outcome.

Every test names the line of shared/rules-sources/ it follows (000 Foryourummy, 001 Octro,
002 JungleeRummy, 003 the app's rule screen, 004 home rules, pool-61-notes.md). Hands are exact
cards dealt from a rigged shoe (tests/deal_helpers.py)."""

import random

import pytest
from deal_helpers import stacked_deal

from bot.engine import IllegalActionError, Rules, parse_cards
from bot.engine.cards import ACE, JOKER, parse_card
from bot.engine.deal import Deal, Outcome, Phase, SeatStatus, Stakes
from bot.engine.errors import RulesError
from bot.engine.events import Dropped, EventKind
from bot.engine.formats import Format
from bot.engine.match import Match, Standing
from bot.engine.solver import best_arrangement

STANDARD, OCTRO, APP, HOME = (Rules.preset(name) for name in ("standard", "octro", "app", "home"))

# A show in every preset (two sequences, one of them pure and 4 long), cut away from its ranks.
SHOW = "AH 2H 3H 4H | 5S 6S 7S | 9D 9C 9S | KC KD KH"
WINNER = SHOW.replace(" |", "")
# No sequence and no set: every card counts, 119 points before the cap.
HIGH = "KS QH JD 10C 9S KH QC JS 10D 9H 8C 7D 6S"
# A pure run, an impure run (a printed joker), a set of jacks and 33 points loose (no two loose
# cards, nor a loose card and a grouped one, could make a group with the joker instead).
RUNS_AND_SET = "2C 3C 4C 6D 7D JK JC JH JS 5H 8S QD AS"
# A pure run and a set, no second sequence: 9 in the run, 30 in the set, 44 loose.
PURE_AND_SET = "2C 3C 4C JC JD JH 5H 8S 9D QS 6C 4H 2S"
LOOSE = "2C 3C 5D 7D 8D 10S JS QS 4C 6C 8C JH QH"


def groups(text: str) -> list:
    return [parse_cards(group) for group in text.split(" | ")]


def pass_turn(deal: Deal, seat: int) -> None:
    """Picks from the closed deck and throws that card back: the hand does not change."""
    deal.pick(seat, "closed")
    deal.discard(seat, deal.picked)


def hand_points(deal: Deal, seat: int) -> int:
    return best_arrangement(deal.seats[seat].hand, deal.wild_rank, deal.rules).points


# ------------------------------------------------------------------ every preset


@pytest.mark.parametrize("rules", [STANDARD, OCTRO, APP, HOME], ids=Rules.PRESET_NAMES)
@pytest.mark.parametrize("sevens", ["7S 7H 7D | KC KD JK", "7S 7H JK | KC KD KS"])
def test_wild_rank_cards_standing_as_themselves_make_a_set(rules, sevens):
    # 000, 001, 003: "A set consists of 3 or 4 cards of same rank but of different suits"; no
    # page forbids a wild card being itself (003: "if suit of Printed Joker ... is valid to a
    # group of pure sequence").
    shown = f"AH 2H 3H 4H | 9S 10S JS | {sevens}"
    deal = stacked_deal(rules, [shown.replace(" |", ""), LOOSE], "10D", "7C", closed_top="QC")
    assert deal.wild_rank == 7
    deal.pick(0, "closed")
    events = deal.declare(0, groups(shown), "QC")
    assert events[0].kind is EventKind.DECLARED and deal.winner == 0


@pytest.mark.parametrize(
    ("rules", "allowed"),
    [(STANDARD, False), (OCTRO, True), (APP, False), (HOME, True)],
    ids=Rules.PRESET_NAMES,
)
def test_a_joker_the_previous_player_discarded(rules, allowed):
    # 000: "if the opponent discards a joker card, then the player cannot pick that card";
    # 003: "Can't take the Joker & Printed Joker discarded by the previous player"; 001 and 004
    # let the next player take "the top card of discard pile" / "the face up card", jokers too.
    deal = stacked_deal(rules, [WINNER, LOOSE], "10D", "8C", closed_top="JK")
    deal.pick(0, "closed")
    deal.discard(0, JOKER)
    assert deal.can_pick(1, "open") is allowed


# ------------------------------------------------------------------ standard (000, 002)


def test_standard_drops_cost_20_then_40():
    # 002: "If a player drops in the first move, he/she gets 20 points"; "40 points are given
    # to players who drop after their first turn".
    deal = stacked_deal(STANDARD, [WINNER, LOOSE, HIGH], "10D", "3D")
    pass_turn(deal, 0)
    assert deal.drop(1)[0] == Dropped(1, 20, Outcome.FIRST_DROP)
    pass_turn(deal, 2)
    assert deal.drop(0)[0] == Dropped(0, 40, Outcome.MIDDLE_DROP)
    assert deal.winner == 2


def test_standard_wrong_show_costs_80_and_a_hand_pays_at_most_80():
    # 002: "If a player declares the game without meeting the objective, he/she gets 80 points";
    # "Points are capped at 80".
    deal = stacked_deal(STANDARD, [HIGH, WINNER, LOOSE], "10D", "3D", closed_top="QD 2S")
    deal.pick(0, "closed")
    events = deal.declare(0, groups("KS QH JD | 10C 9S KH | QC JS 10D | 9H 8C 7D 6S"), "QD")
    assert events[0].kind is EventKind.WRONG_SHOW and deal.seats[0].points == 80
    deal.pick(1, "closed")
    deal.declare(1, groups(SHOW), "2S")
    assert deal.seats[0].points == 80  # the wrong show stands
    assert deal.seats[2].points == hand_points(deal, 2)
    assert best_arrangement(parse_cards(HIGH), 3, STANDARD).points == 80  # 119 in cards, capped


def test_standard_three_missed_turns_are_a_middle_drop():
    # 000: "If player misses 3 consecutive moves, will be dropped from the game under middle drop
    # rule and he will be out of the game with 40 Points."
    deal = stacked_deal(STANDARD, [LOOSE, WINNER.replace("KH", "QD")], "10D", "3D")
    for turn in range(3):
        events = deal.timeout(0)
        if turn < 2:
            assert deal.seats[0].missed_turns == turn + 1
            pass_turn(deal, 1)
    assert events[1].kind is EventKind.DROPPED and deal.seats[0].points == 40
    assert deal.seats[0].outcome is Outcome.MIDDLE_DROP and deal.winner == 1


def test_standard_reshuffles_the_open_pile_when_the_closed_deck_runs_out():
    # 000: "Incase all the cards in the closed deck get used up, all the discarded cards are
    # reshuffled and used as the closed deck."
    deal = stacked_deal(STANDARD, [WINNER.replace("KH", "QD"), LOOSE], "10D", "3D")
    reshuffled = []
    while not reshuffled:
        for event in deal.pick(deal.turn, "closed") + deal.discard(deal.turn, deal.picked):
            if event.kind is EventKind.RESHUFFLED:
                reshuffled.append(event)
    assert deal.phase is not Phase.OVER and len(deal.open_pile) == 1
    # Every card but the hands and the set-aside cut card, less the open pile's top.
    assert len(deal.closed) == reshuffled[0].count == 106 - 26 - 1 - 1


# ------------------------------------------------------------------ octro (001)


def test_octro_deals_4_printed_jokers_with_two_decks_and_6_with_three():
    # 001: "For 2 or 3 players, two 52-card decks (104 cards) and 4 jokers (wild cards) are
    # used. For 4 to 5 players, three decks (156 cards) and 6 jokers are used."
    for players, size, jokers in ((2, 108, 4), (3, 108, 4), (4, 162, 6), (5, 162, 6)):
        deal, _ = Deal.start(players, OCTRO, random.Random(players))
        assert (len(deal.shoe), deal.shoe.count(JOKER)) == (size, jokers)
    with pytest.raises(RulesError, match="at most 5"):
        Deal.start(6, OCTRO, random.Random(1))


def test_octro_cut_card_lies_under_the_closed_deck_and_is_drawn_last():
    # 001: "a card is picked from the stock pile and placed face up under the stock pile so that
    # it is visible. All the cards of that rank ... can be used as additional jokers" (read: it
    # stays in play as the stock's last card).
    deal = stacked_deal(OCTRO, [WINNER.replace("KH", "QD"), LOOSE], "10D", "8C")
    assert deal.wild_rank == 8 and deal.closed[0] == parse_card("8C")
    assert deal.view(1).cut_card_under_deck
    for _ in range(len(deal.closed)):
        deal.pick(deal.turn, "closed")
        last = deal.picked
        deal.discard(deal.turn, last)
    assert last == parse_card("8C") and deal.reshuffles  # then the open pile became the deck
    deal.check_invariants()


def test_octro_printed_joker_cut_leaves_only_printed_jokers_wild():
    # 001: "except if the card kept under stock pile is a printed joker. Then only the printed
    # jokers are available for use as wild cards"; 000 and 003 make Aces wild instead.
    assert stacked_deal(OCTRO, [WINNER, LOOSE], "10D", "JK").wild_rank is None
    assert stacked_deal(STANDARD, [WINNER, LOOSE], "10D", "JK").wild_rank == ACE
    assert stacked_deal(APP, [WINNER, LOOSE], "10D", "JK").wild_rank == ACE


def test_octro_allows_one_joker_in_a_run():
    # 001: "In a run you can use only one joker as a wild card."
    shown = "AS 2S 3S | 4H 5H JK JK | 9C 9D 9S | KC KD KH"
    for rules, valid in ((OCTRO, False), (STANDARD, True)):
        deal = stacked_deal(rules, [shown.replace(" |", ""), LOOSE], "10D", "8C", closed_top="QC")
        deal.pick(0, "closed")
        kind = deal.declare(0, groups(shown), "QC")[0].kind
        assert kind is (EventKind.DECLARED if valid else EventKind.WRONG_SHOW)


def test_octro_needs_a_life_of_four_cards():
    # 001: "Either First Life or Second Life must have 4 or more cards."
    shown = "AS 2S 3S | 4H 5H 6H | 9C 9D 9S 9H | KC KD KH"
    for rules, valid in ((OCTRO, False), (STANDARD, True)):
        deal = stacked_deal(rules, [shown.replace(" |", ""), LOOSE], "10D", "8C", closed_top="QC")
        deal.pick(0, "closed")
        events = deal.declare(0, groups(shown), "QC")
        assert events[0].kind is (EventKind.DECLARED if valid else EventKind.WRONG_SHOW)
        assert valid or "4 or more cards" in events[0].reason


def test_octro_three_identical_cards_are_a_pure_sequence():
    # 001: "When playing with three 52-card decks, the three cards of same rank and same suit
    # are treated as pure sequence/run. For example: 9-9-9 and J-J-J."
    shown = "9S 9S 9S | 4H 5H 6H 7H | 2C 2D 2H | KC KD KH"
    fourth = "AD 3D 5C 7C 9H JD KS 2S 4S 6S 8S 10S QD"
    hands = [shown.replace(" |", ""), LOOSE, fourth, "AC 2D 4D 6D 8S 10C JC QC 5C 7C 9H 10H 4S"]
    deal = stacked_deal(OCTRO, hands, "10D", "8C", closed_top="QC")
    deal.pick(0, "closed")
    assert deal.declare(0, groups(shown), "QC")[0].kind is EventKind.DECLARED


def test_octro_spare_jokers_on_their_own_plank_leave_the_show_valid():
    # 001: "Even if there are free jokers and the rest of the cards form runs and sets as
    # required, the declare is valid"; "If you have unused jokers, ... put on a separate plank."
    shown = "AS 2S 3S 4S 5S | 5H 6H 7H | 9C 9D 9S | JK JK"
    for rules, valid in ((OCTRO, True), (STANDARD, False)):
        deal = stacked_deal(rules, [shown.replace(" |", ""), LOOSE], "10D", "8C", closed_top="QC")
        deal.pick(0, "closed")
        kind = deal.declare(0, groups(shown), "QC")[0].kind
        assert kind is (EventKind.DECLARED if valid else EventKind.WRONG_SHOW)


def test_octro_an_ace_scores_1():
    # 001: "Unmatched J, Q, K or 10: 10 points each; Rest of unmatched card each as its rank
    # value"; 002: "Ace of any suit carries 10 points each".
    loser = "AC AD 2S 3H 5C 6D 8S 9H 2C 4D 5S 6H 8C"
    for rules, points in ((OCTRO, 60), (STANDARD, 78)):
        deal = stacked_deal(rules, [WINNER, loser], "10D", "QD", closed_top="QC")
        deal.pick(0, "closed")
        deal.declare(0, groups(SHOW), "QC")
        assert deal.seats[1].points == points


# ------------------------------------------------------------------ app (003)


def test_app_two_clocks_pick_from_the_closed_deck_then_throw_the_new_card_back():
    # 003: "Player has 20 seconds to pick ... and after that will has 20 seconds to discard";
    # "Not pick yet - Automatically pick one card from closed deck. Picked but not dropped -
    # Automatically discard the new one."
    deal = stacked_deal(APP, [LOOSE, HIGH], "10D", "3D", closed_top="KC")
    assert deal.clock_seconds == 20 and APP.extra_time_seconds == 0  # and no time bank
    events = deal.timeout(0)
    assert [e.kind for e in events] == [EventKind.MISSED_TURN, EventKind.PICKED]
    assert deal.phase is Phase.DISCARD and deal.on_discard_clock and deal.clock_seconds == 20
    events = deal.timeout(0)
    assert [e.kind for e in events] == [EventKind.MISSED_TURN, EventKind.DISCARDED, EventKind.TURN]
    assert deal.open_card == parse_card("KC") and deal.seats[0].missed_turns == 1


def test_app_automatic_pick_and_discard_count_toward_three_missed_turns():
    # 003's automatic moves are missed turns (issue 10's reading); 000 and 003: 3 in a row are a
    # middle drop of 40.
    deal = stacked_deal(APP, [LOOSE, HIGH], "10D", "3D")
    for _ in range(2):
        deal.timeout(0)
        deal.timeout(0)
        pass_turn(deal, 1)
    events = deal.timeout(0)
    assert events[1].kind is EventKind.DROPPED and deal.seats[0].points == 40


def test_app_a_complete_hand_declares_by_itself_when_its_time_runs_out():
    # 003: "If player finished all the 13 cards are arranged in a proper Sequence and Sets but
    # timeout, that will automatically accomplishes a valid declaration."
    deal = stacked_deal(APP, [WINNER, HIGH], "10D", "3D", closed_top="QC")
    deal.timeout(0)  # the pick clock picks QC
    events = deal.timeout(0)  # the discard clock: the hand shows, QC in the finish slot
    assert events[1].kind is EventKind.DECLARED and events[1].automatic
    assert deal.winner == 0 and deal.finish_slot == [parse_card("QC")]
    assert deal.seats[1].points == 80
    standard = stacked_deal(STANDARD, [WINNER, HIGH], "10D", "3D", closed_top="QC")
    standard.timeout(0)
    assert standard.phase is not Phase.OVER  # elsewhere the clock just throws the card back


def test_app_when_the_closed_deck_is_used_up_the_lowest_hand_wins():
    # 003: "If both open deck and closed deck are used up, that will be calculated through your
    # hand instantly, who calculated minimal points is the winner."
    deal = stacked_deal(APP, [HIGH, LOOSE], "10D", "3D")
    while deal.phase is not Phase.OVER:
        pass_turn(deal, deal.turn)
    assert deal.winner == 1 and deal.seats[1].points == 0
    assert deal.seats[0].points == 80 and deal.seats[0].outcome is Outcome.HAND
    assert not deal.reshuffles


def test_app_a_pure_sequence_alone_keeps_its_cards_from_counting():
    # 003: "If the player has formed pure sequence (1st Life), the value of cards that are not in
    # sequence are calculated"; "80 ponits calculated at most".
    for rules, paid in ((APP, [74, 80]), (STANDARD, [80, 80])):
        deal = stacked_deal(rules, [WINNER, PURE_AND_SET, HIGH], "10D", "10C", closed_top="QC")
        deal.pick(0, "closed")
        deal.declare(0, groups(SHOW), "QC")
        assert [seat.points for seat in deal.seats[1:]] == paid


def test_app_with_both_lives_only_cards_in_no_valid_group_pay():
    # 003: "If the player has formed 2 sequences including pure sequence ... the value of cards
    # that are not in sequence are calculated" (read: in no valid group, so the set goes free).
    deal = stacked_deal(APP, [WINNER, RUNS_AND_SET], "10D", "10C", closed_top="QC")
    deal.pick(0, "closed")
    deal.declare(0, groups(SHOW), "QC")
    assert deal.seats[1].points == 33


def test_app_a_loser_who_could_have_declared_pays_2():
    # 003: "If player misses the declaration chance and other players accomplish a valid
    # declaration and will be 2 points calculated."
    ready = "2C 3C 4C 5C 6D 7D 8D QH QC QD JS QS KS"
    for rules, points, outcome in ((APP, 2, Outcome.MISSED_DECLARATION), (STANDARD, 0, Outcome.HAND)):
        deal = stacked_deal(rules, [WINNER, ready], "10D", "10C", closed_top="KS")
        deal.pick(0, "closed")
        deal.declare(0, groups(SHOW), "KS")
        assert (deal.seats[1].points, deal.seats[1].outcome) == (points, outcome)


def test_app_leaving_before_any_pick_is_a_first_drop_and_after_one_a_middle_drop():
    # 003 Leave Table: "If the player hasn't picked any cards taken as the First drop. If player
    # has ever picked from open or closed deck before leaves the table considered a Middle drop."
    deal = stacked_deal(APP, [WINNER, LOOSE, HIGH], "10D", "10C", closed_top="QC")
    deal.leave(2)
    assert deal.seats[2].points == 20
    pass_turn(deal, 0)
    pass_turn(deal, 1)  # seat 2's next turn has now come and gone
    pass_turn(deal, 0)
    deal.pick(1, "closed")
    deal.discard(1, deal.picked)
    assert deal.leave_cost(0) == 40
    deal.leave(0)
    assert deal.seats[0].points == 40 and deal.winner == 1
    assert deal.seats[2].points == 20 and deal.seats[2].outcome is Outcome.LEFT
    # 000: leaving "before the game show is called by any player will get 40 points".
    standard = stacked_deal(STANDARD, [WINNER, LOOSE, HIGH], "10D", "10C")
    standard.leave(2)
    assert standard.seats[2].points == 40


def test_app_a_leaver_s_hand_is_scored_when_someone_shows_before_their_next_turn():
    # 003: "If the player leaves the table already but other player accomplishes a valid
    # declaration before the player's next turn, that points will be calculated according to the
    # player's hand."
    deal = stacked_deal(APP, [WINNER, LOOSE, HIGH], "10D", "10C", closed_top="QC")
    deal.pick(0, "closed")
    deal.leave(1)
    deal.leave(2)
    assert deal.phase is Phase.OVER  # the last player left wins; no show, the drops stand
    assert [s.points for s in deal.seats] == [0, 20, 20]
    deal = stacked_deal(APP, [WINNER, LOOSE, HIGH], "10D", "10C", closed_top="QC")
    deal.pick(0, "closed")
    deal.leave(1)  # a first drop, unless...
    deal.declare(0, groups(SHOW), "QC")  # ...a show comes before seat 1's next turn
    expected = best_arrangement(parse_cards(LOOSE), 10, APP).points
    assert deal.seats[1].points == expected != 20
    assert deal.seats[1].outcome is Outcome.LEFT_HAND_SCORED and deal.seats[1].status is SeatStatus.LEFT


# ------------------------------------------------------------------ home (004)


def test_home_seats_ten_with_three_packs_from_seven_players():
    # 004: "You can play with up to ten players, 2-6 players play with 2 packs of cards and if you
    # play with seven or more players then you should use three packs"; "play with the jokers
    # left in the packs".
    for players, size in ((6, 106), (7, 159), (10, 159)):
        deal, _ = Deal.start(players, HOME, random.Random(players))
        assert len(deal.shoe) == size
    with pytest.raises(RulesError, match="at most 10"):
        Deal.start(11, HOME, random.Random(1))


def test_home_packing_costs_10_before_a_pick_and_40_after():
    # 004: "If a player wants to pack before he has even picked up a card then he must pay 10
    # points ... If a player packs after picking a card then he must pay 40 points."
    deal = stacked_deal(HOME, [WINNER, LOOSE, HIGH], "10D", "3D")
    pass_turn(deal, 0)
    assert deal.drop(1)[0].points == 10
    pass_turn(deal, 2)
    assert deal.drop(0)[0].points == 40


def show_at_second_turn(rules: Rules, hands: list[str]) -> Deal:
    """Seat 0 shows SHOW at its second turn (no early-show stakes)."""
    deal = stacked_deal(rules, hands, "10D", "10C")
    for seat in range(len(hands)):
        pass_turn(deal, seat)
    deal.pick(0, "closed")
    deal.declare(0, groups(SHOW), deal.picked)
    assert deal.stakes is None
    return deal


def test_home_a_straight_run_frees_every_run_but_sets_and_loose_cards_pay():
    # 004: "If a player has a straight run in his hand though, he does not pay for the cards in
    # that straight run or in any other runs in his hand."
    home = show_at_second_turn(HOME, [WINNER, RUNS_AND_SET, PURE_AND_SET])
    assert [s.points for s in home.seats] == [0, 30 + 33, 30 + 44]
    # 002: "only the cards that are not grouped into sets or sequences will be counted".
    standard = show_at_second_turn(STANDARD, [WINNER, RUNS_AND_SET, PURE_AND_SET])
    assert [s.points for s in standard.seats] == [0, 33, 80]


def test_home_rummy_before_picking_any_card_makes_everyone_pay_double():
    # 004: "if a player calls rummy before he has even picked up a card then everyone else pays
    # the winner twice the value of their hands" (after the cap: 80 becomes 160).
    deal = stacked_deal(HOME, [WINNER, RUNS_AND_SET, HIGH], "10D", "10C")
    assert deal.can_declare(0) and not stacked_deal(STANDARD, [WINNER, HIGH], "10D", "10C").can_declare(0)
    events = deal.declare(0, groups(SHOW))
    assert events[0].before_pick and events[0].stakes is Stakes.DOUBLE
    assert deal.stakes is Stakes.DOUBLE and [s.points for s in deal.seats] == [0, 126, 160]


def test_home_rummy_after_picking_just_one_card_makes_everyone_pay_half():
    # 004: "if a player calls rummy after picking up just one card then the other players pay
    # just half the value of their hands" (rounded up: 63 pays 32).
    deal = stacked_deal(HOME, [WINNER, RUNS_AND_SET, HIGH], "10D", "10C", closed_top="QC")
    deal.pick(0, "closed")
    deal.declare(0, groups(SHOW), "QC")
    assert deal.stakes is Stakes.HALF and [s.points for s in deal.seats] == [0, 32, 40]


def test_home_early_show_stakes_are_for_points_tables_only():
    # Issue 10: "Half and double apply to Points only, after the cap."
    pool = Format.POOL_101.spec.deal_rules(HOME)
    deal = stacked_deal(pool, [WINNER, RUNS_AND_SET, HIGH], "10D", "10C")
    deal.declare(0, groups(SHOW))
    assert deal.stakes is None and [s.points for s in deal.seats] == [0, 63, 80]


def test_home_a_card_picked_from_the_open_pile_cannot_go_straight_back():
    # 004: "if he has picked up the face up card he cannot put that same card back down."
    deal = stacked_deal(HOME, [WINNER, LOOSE], "10D", "3D")
    deal.pick(0, "open")
    with pytest.raises(IllegalActionError, match="just took"):
        deal.discard(0, "10D")


# ------------------------------------------------------------------ Pool 61 (pool-61-notes.md)


@pytest.mark.parametrize("rules", [STANDARD, OCTRO, APP, HOME], ids=Rules.PRESET_NAMES)
def test_pool_61_rejoin_only_while_nobody_is_above_44(rules):
    # pool-61-notes: "rejoin only while no player is above ... 44 (61)"; "a rejoining player
    # starts at the highest score + 1".
    match = Match.empty(Format.POOL_61, 3, rules=rules, rng=random.Random(1))
    match.standings = [70, 44, 30]
    match.seat_status = [Standing.ELIMINATED, Standing.IN, Standing.IN]
    assert match.can_rejoin(0)
    match.standings[1] = 45
    with pytest.raises(IllegalActionError, match="over 44"):
        match.rejoin(0)


@pytest.mark.parametrize("rules", [STANDARD, OCTRO, APP, HOME], ids=Rules.PRESET_NAMES)
def test_pool_61_wrong_show_costs_60_a_hand_60_at_most_and_drops_15_or_30(rules):
    # pool-61-notes: "first drop 15, middle drop 30; an invalid declaration costs 60"; the
    # reading used: "wrong show and score cap 60".
    played = Format.POOL_61.spec.deal_rules(rules)
    deal = stacked_deal(played, [LOOSE, WINNER, HIGH], "10D", "3D", closed_top="QD 2S")
    assert deal.drop_cost(0) == 15
    deal.pick(0, "closed")
    assert deal.declare(0, groups("2C 3C 5D 7D | 8D 10S JS | QS 4C 6C | 8C JH QH"), "QD")[0].points == 60
    deal.pick(1, "closed")
    deal.declare(1, groups(SHOW), "2S")
    assert [s.points for s in deal.seats] == [60, 0, 60]
