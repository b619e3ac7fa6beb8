"""The engine's answers to a front end's questions: the show a seat would make, and what it may do."""

import random

import pytest
from deal_helpers import stacked_deal

from bot.engine import IllegalActionError, Rules, parse_cards
from bot.engine.ai import ComputerPlayer, Level
from bot.engine.cards import parse_card
from bot.engine.commands import Declare, Pick, Source, parse_command
from bot.engine.deal import Deal, Stakes
from bot.engine.declaration import best_declaration
from bot.engine.events import EventKind
from bot.engine.formats import Format
from bot.engine.match import Match

# Two lives and a set, and the KD left over: with a 14th card it is a show.
COMPLETE = "AH 2H 3H 4H 5S 6S 7S 8C 8D 8S KC KD QS"
OTHER = "AS 2S 3S 4S 5H 6H 7H 8H 9H 10C JC QC 2D"
HOME = Rules.preset("home")


def groups(*texts: str) -> list[list]:
    return [parse_cards(text) for text in texts]


def test_the_finish_card_is_the_one_whose_removal_leaves_the_arrangement_valid():
    deal = stacked_deal(Rules(), [COMPLETE, OTHER], "10D", "9D", closed_top="KH")
    deal.pick(0, Source.CLOSED)  # KH makes a set of kings
    arranged = groups("AH 2H 3H 4H", "5S 6S 7S", "8C 8D 8S", "QS KC KD KH")
    declaration = best_declaration(deal.view(0), arranged)
    assert declaration.finish == parse_card("QS")
    assert declaration.groups == tuple(
        tuple(g) for g in groups("AH 2H 3H 4H", "5S 6S 7S", "8C 8D 8S", "KC KD KH")
    )
    assert deal.apply(declaration)[0].kind is EventKind.DECLARED


def test_the_card_just_taken_from_the_open_pile_never_finishes_where_the_rules_keep_it():
    # 000: a card taken from the open pile cannot go straight back, nor into the finish slot.
    deal = stacked_deal(Rules(), [COMPLETE, OTHER], "QD", "9D")
    deal.pick(0, Source.OPEN)
    arranged = groups("AH 2H 3H 4H", "5S 6S 7S", "8C 8D 8S", "KC KD QD QS")
    declaration = best_declaration(deal.view(0), arranged)
    assert declaration.finish != parse_card("QD")
    assert not deal.legal_actions(0).discards & {parse_card("QD")}
    with pytest.raises(IllegalActionError, match="cannot go to the finish slot"):
        best_declaration(deal.view(0), arranged, parse_card("QD"))


def test_a_finish_card_the_player_names_is_taken_and_the_rest_shown_as_arranged():
    deal = stacked_deal(Rules(), [COMPLETE, OTHER], "10D", "9D", closed_top="KH")
    deal.pick(0, Source.CLOSED)
    arranged = groups("AH 2H 3H 4H", "5S 6S 7S", "8C 8D 8S", "QS KC KD KH")
    declaration = best_declaration(deal.view(0), arranged, parse_card("4H"))
    assert declaration.finish == parse_card("4H") and parse_cards("AH 2H 3H") == list(declaration.groups[0])


def test_without_an_arrangement_the_solver_groups_the_hand():
    deal = stacked_deal(Rules(), [COMPLETE, OTHER], "10D", "9D", closed_top="KH")
    deal.pick(0, Source.CLOSED)
    declaration = best_declaration(deal.view(0))
    assert declaration.finish == parse_card("QS")
    assert deal.apply(declaration)[0].kind is EventKind.DECLARED


def test_a_seat_that_may_not_declare_is_told_why_and_groups_must_be_its_hand():
    deal = stacked_deal(Rules(), [COMPLETE, OTHER], "10D", "9D")
    with pytest.raises(IllegalActionError, match="after picking"):
        best_declaration(deal.view(0))  # standard rules: no show before picking
    with pytest.raises(IllegalActionError, match="after picking"):
        best_declaration(deal.view(1))  # not their turn
    deal.pick(0, Source.CLOSED)
    with pytest.raises(IllegalActionError, match="exactly the cards in your hand"):
        best_declaration(deal.view(0), groups("AH 2H 3H"))


def test_home_a_show_before_any_pick_has_no_finish_card_and_everyone_pays_double():
    # 004: "If a player calls rummy before he has even picked up a card ... twice the value".
    hand = "AH 2H 3H 4H 5S 6S 7S 8C 8D 8S KC KD KS"
    deal = stacked_deal(HOME, [hand, OTHER], "10D", "9D")
    declaration = best_declaration(deal.view(0))
    assert declaration.finish is None
    with pytest.raises(IllegalActionError, match="no finish card"):
        best_declaration(deal.view(0), finish=parse_card("KS"))
    logged = declaration.to_json()
    assert logged["finish"] is None and parse_command(logged) == declaration
    events = deal.apply(declaration)
    assert events[0].kind is EventKind.DECLARED and deal.winner == 0 and deal.stakes is Stakes.DOUBLE
    replayed = Deal.replay(deal.to_json())
    assert replayed.to_json() == deal.to_json()


def test_a_computer_player_shows_a_complete_hand_before_picking_where_home_rules_allow_it():
    hand = "AH 2H 3H 4H 5S 6S 7S 8C 8D 8S KC KD KS"
    for level in Level:
        deal = stacked_deal(HOME, [hand, OTHER], "10D", "9D")
        command = ComputerPlayer(level, random.Random(1)).decide(deal.view(0))
        assert isinstance(command, Declare) and command.finish is None
        deal.apply(command)
        assert deal.winner == 0 and deal.stakes is Stakes.DOUBLE


def test_legal_actions_say_what_the_seat_may_do_and_what_it_costs_from_the_table_rules():
    deal = stacked_deal(Rules(), [COMPLETE, OTHER], "QD", "9D")
    before = deal.legal_actions(0)
    assert before.pick_closed and before.pick_open and before.drop and not before.declare
    assert not before.discards and before.drop_cost == 20 and before.wrong_show_cost == 80
    waiting = deal.legal_actions(1)
    assert not (
        waiting.pick_closed or waiting.pick_open or waiting.drop or waiting.declare or waiting.discards
    )
    deal.apply(Pick(0, Source.CLOSED))
    after = deal.legal_actions(0)
    assert after.declare and not after.drop and after.drop_cost == 40
    assert after.discards == frozenset(deal.seats[0].hand)


def test_a_pool_61_table_says_its_own_wrong_show_cost():
    # pool-61-notes: the apps that offer Pool 61 charge 60 for a wrong show.
    match, _ = Match.start(Format.POOL_61, 2, random.Random(3))
    deal = match.deal
    assert deal.legal_actions(deal.turn).wrong_show_cost == 60
    assert deal.legal_actions(deal.turn).drop_cost == Format.POOL_61.spec.first_drop


def test_a_valid_show_is_found_when_the_solvers_discard_is_the_card_just_taken_from_the_open_pile():
    # 000: the card taken from the open pile cannot go straight back, nor into the finish slot.
    # AS from the open pile makes AS 2S 3S 4S; the solver's own discard is that AS (it leaves
    # 2S 3S 4S and a show), so the show must finish with another card (5C, 4S...), the AS kept.
    hand = "2S 3S 4S 2C 3C 4C 5C 7D 8D 9D 9C 9H 9S"
    other = "5S 6S 7S 8S 5H 6H 7H 8H 3H 10C JC QC 2D"
    deal = stacked_deal(Rules(), [hand, other], "AS", "6D")
    deal.pick(0, Source.OPEN)
    declaration = best_declaration(deal.view(0))
    assert declaration.finish != parse_card("AS")
    assert deal.apply(declaration)[0].kind is EventKind.DECLARED


def test_a_computer_player_shows_a_hand_completed_by_the_open_card_it_may_not_throw_back():
    hand = "2S 3S 4S 2C 3C 4C 5C 7D 8D 9D 9C 9H 9S"
    other = "5S 6S 7S 8S 5H 6H 7H 8H 3H 10C JC QC 2D"
    for level in Level:
        deal = stacked_deal(Rules(), [hand, other], "AS", "6D")
        deal.pick(0, Source.OPEN)
        command = ComputerPlayer(level, random.Random(1)).decide(deal.view(0))
        assert isinstance(command, Declare) and command.finish != parse_card("AS")
        assert deal.apply(command)[0].kind is EventKind.DECLARED
