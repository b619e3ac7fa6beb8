"""Engine states mapped to render scenes: a hand scene holds only its own seat's cards."""

import random

from deal_helpers import stacked_deal

from bot.engine import Rules
from bot.engine.cards import parse_cards
from bot.engine.events import EventKind
from bot.engine.formats import Format
from bot.engine.match import Match, MatchPhase
from bot.engine.match_view import match_view
from bot.present.hand_layout import HandLayout, suggested_groups
from bot.present.narrate import deal_result_lines
from bot.present.scene_builders import (
    hand_groups,
    hand_scene,
    result_scene,
    standing_text,
    standings_scene,
    table_scene,
)

NAMES = ["Asha", "Ravi", "Meera"]


def started(fmt=Format.POOL_101):
    match, _ = Match.start(fmt, 3, random.Random(5))
    return match


def test_a_hand_scene_shows_exactly_that_seat_s_cards_numbered_as_laid_out():
    match = started()
    deal = match.deal
    for seat in range(3):
        layout = HandLayout()
        scene = hand_scene(match_view(match), match.deal.view(seat), layout)
        assert sorted(c.code for c in scene.cards) == sorted(c.code for c in deal.seats[seat].hand)
        assert list(scene.cards) == layout.cards
        assert scene.wild_rank == deal.wild_rank and scene.picked is None
    seat = deal.turn
    match.apply({"command": "pick", "seat": seat, "source": "closed"})
    scene = hand_scene(match_view(match), match.deal.view(seat), HandLayout())
    assert len(scene.cards) == 14 and scene.cards[scene.picked - 1] == deal.picked


def test_the_table_scene_has_no_hand_only_counts_and_standings():
    match = started()
    scene = table_scene(match_view(match), NAMES)
    assert [s.cards_count for s in scene.seats] == [13, 13, 13]
    assert sum(s.to_act for s in scene.seats) == 1 and scene.seats[match.deal.turn].to_act
    assert scene.open_card == match.deal.open_card and scene.closed_count == len(match.deal.closed)
    assert [s.standing for s in scene.seats] == [""] * 3  # issue 26: no "0 / 101" noise in deal 1
    assert "Pool 101" in scene.title
    match.apply({"command": "drop", "seat": match.deal.turn})
    match.apply({"command": "drop", "seat": match.deal.turn})
    match.next_deal()
    scene = table_scene(match_view(match), NAMES)
    assert all(s.standing.endswith("/ 101") for s in scene.seats)


def test_standing_texts_and_the_standings_scene_follow_the_format():
    points = started(Format.POINTS)
    points.standings = [40, -20, -20]
    assert (
        standing_text(match_view(points), 0) == "+40 chips"
        and standing_text(match_view(points), 1) == "-20 chips"
    )
    deals = started(Format.DEALS_2)
    assert standing_text(match_view(deals), 0) == "160 chips"
    pool = started()
    pool.history = [[0, 20, 40], [10, 0, 40]]
    scene = standings_scene(match_view(pool), NAMES)
    assert scene.limit == 101 and scene.columns == ("D1", "D2")
    assert [row.scores for row in scene.rows] == [(0, 10), (20, 0), (40, 40)]


def test_a_result_says_whether_points_add_to_a_pool_score_or_are_paid():
    for fmt, adds_up in ((Format.POOL_101, True), (Format.POINTS, False)):
        match, _ = Match.start(fmt, 2, random.Random(5))
        match.apply({"command": "drop", "seat": match.deal.turn})
        scene = result_scene(match_view(match), NAMES[:2])
        assert scene.adds_up is adds_up
        assert [p.points for p in scene.players if p.note == "first drop"] == [20]


def test_a_player_left_alone_after_the_others_drop_wins_without_showing_their_cards():
    match, _ = Match.start(Format.POINTS, 3, random.Random(5))
    for _ in range(2):
        match.apply({"command": "drop", "seat": match.deal.turn})
    scene = result_scene(match_view(match), NAMES)
    winner = next(p for p in scene.players if p.winner)
    assert winner.groups == () and winner.points == 0
    assert all(p.groups == () for p in scene.players)  # the drops show nothing either


def test_group_labels_charge_every_card_when_the_hand_has_no_two_sequences():
    # 000: "If a player has not formed two sequences ... the value of all cards is counted"
    match, _ = Match.start("points", 2, random.Random(2))
    groups = [
        parse_cards("5H 5S 5D"),
        parse_cards("7C 7D 7S"),
        parse_cards("2H 3H 4H"),
        parse_cards("KS QD 9C JH"),
    ]
    labels = hand_groups(groups, None, match_view(match))
    assert [group.points for group in labels] == [15, 21, 9, 39]  # a set is not spared without both lives
    # issue 26: the picture says why a valid group pays; a broken one needs no reason
    assert [group.pays_because for group in labels] == [*["no_second_sequence"] * 3, None]
    groups[2] = parse_cards("2H 3H JH")  # no pure sequence now: that is what the hand lacks first
    assert {g.pays_because for g in hand_groups(groups, None, match_view(match))} == {
        "no_pure_sequence",
        None,
    }
    groups[2], groups[3] = parse_cards("2H 3H 4H"), parse_cards("9C 10C JC QC")
    # now two sequences (one pure): melded cards cost nothing, and nothing needs saying
    assert [(g.points, g.pays_because) for g in hand_groups(groups, None, match_view(match))] == [
        (0, None)
    ] * 4


# ------------------------------------------------------------------ results under each preset's rules

SHOW = "AH 2H 3H 4H | 5S 6S 7S | 9D 9C 9S | KC KD KH"
HIGH = "KS QH JD 10C 9S KH QC JS 10D 9H 8C 7D 6S"  # 119 in cards: pays the cap
RUNS_AND_SET = "2C 3C 4C 6D 7D JK JC JH JS 5H 8S QD AS"  # home: 30 in the set + 33 loose


def rigged_points_match(preset: str, hands: list[str], closed_top: str = "") -> Match:
    rules = Rules.preset(preset)
    match = Match.empty(Format.POINTS, len(hands), rules=rules, rng=random.Random(1))
    match.deal = stacked_deal(rules, hands, "10D", "10C", closed_top=closed_top)
    match.phase = MatchPhase.PLAYING
    return match


def declare(match: Match, finish: str | None) -> None:
    if finish:
        match.apply({"command": "pick", "seat": 0, "source": "closed"})
    match.apply({"command": "declare", "seat": 0, "groups": SHOW.split(" | "), "finish": finish})


def test_a_home_result_says_the_hands_paid_double_or_half_and_shows_sets_as_sets():
    # 004: rummy before any pick: everyone pays twice the value of their hands; after one: half.
    match = rigged_points_match("home", [SHOW.replace(" |", ""), RUNS_AND_SET, HIGH])
    declare(match, None)
    scene = result_scene(match_view(match), NAMES)
    assert scene.title.endswith("rummy before a pick: ×2")
    assert [(p.points, p.note) for p in scene.players] == [
        (0, "valid show"),
        (126, "double: 63 × 2"),
        (160, "double: 80 × 2"),  # the cap first, then the double
    ]
    winner, loser = scene.players[0], scene.players[1]
    assert all(group.points == 0 for group in winner.groups)  # a show pays nothing, sets or not
    assert [(g.kind, g.points) for g in loser.groups if g.points] == [("set", 30), ("ungrouped", 33)]
    half = rigged_points_match("home", [SHOW.replace(" |", ""), RUNS_AND_SET, HIGH], closed_top="QC")
    declare(half, "QC")
    scene = result_scene(match_view(half), NAMES)
    assert scene.title.endswith("rummy after one pick: ½")
    assert [(p.points, p.note) for p in scene.players][1:] == [(32, "half of 63"), (40, "half of 80")]


def test_an_app_result_shows_the_missed_declaration_and_the_hand_that_could_have_shown():
    # 003: "If player misses the declaration chance and other players accomplish a valid
    # declaration and will be 2 points calculated."
    ready = "2C 3C 4C 5C 6D 7D 8D QH QC QD JS QS KS"
    loose = "2C 3C 5D 7D 8D 10S JS QS 4C 6C 8C JH QH"
    match = rigged_points_match("app", [SHOW.replace(" |", ""), ready, loose], closed_top="2S")
    declare(match, "2S")
    scene = result_scene(match_view(match), NAMES)
    missed = scene.players[1]
    assert (missed.points, missed.note) == (2, "missed declaration")
    assert sum(len(g.cards) for g in missed.groups) == 13 and all(g.points == 0 for g in missed.groups)
    assert scene.title == "Points · Deal 1 result"


def test_the_terminal_result_says_the_stakes_and_the_missed_declaration():
    home = rigged_points_match("home", [SHOW.replace(" |", ""), RUNS_AND_SET, HIGH])
    events = home.apply({"command": "declare", "seat": 0, "groups": SHOW.split(" | "), "finish": None})
    over = next(e for e in events if e.kind is EventKind.DEAL_OVER)
    lines = deal_result_lines(over, NAMES, 10, home.rules)
    assert "Rummy before any pick: every hand pays double." in lines
    ready = "2C 3C 4C 5C 6D 7D 8D QH QC QD JS QS KS"
    app = rigged_points_match("app", [SHOW.replace(" |", ""), ready], closed_top="2S")
    app.apply({"command": "pick", "seat": 0, "source": "closed"})
    events = app.apply({"command": "declare", "seat": 0, "groups": SHOW.split(" | "), "finish": "2S"})
    over = next(e for e in events if e.kind is EventKind.DEAL_OVER)
    (line,) = [line for line in deal_result_lines(over, NAMES, 10, app.rules) if "Ravi" in line]
    assert "  2 points" in line and "missed declaration" in line


def test_the_suggested_layout_shows_sets_as_sets_even_where_they_pay():
    # 004: sets and loose cards pay alike, so the solver need not group them; the player still
    # sees their set of jacks, labelled with what it costs.
    rules = Rules.preset("home")
    groups = suggested_groups(parse_cards(RUNS_AND_SET), 10, rules)
    assert ["JC", "JH", "JS"] in [sorted(card.code for card in group) for group in groups]
    match, _ = Match.start(Format.POINTS, 2, random.Random(2), rules=rules)
    labels = hand_groups(groups, 10, match_view(match))
    assert [(g.kind, g.points) for g in labels if g.points] == [("set", 30), ("ungrouped", 33)]
    assert [g.pays_because for g in labels if g.points] == ["sets_count", None]


def test_a_hand_ready_to_declare_is_marked_and_fourteen_cards_suggest_a_discard():
    # issue 26: ready when the hand as grouped is a valid show; on 14 cards the engine's
    # choice of discard (`best_declaration`) is marked by its number.
    ready = "2C 3C 4C 5C 6D 7D 8D QH QC QD JS QS KS"
    match = rigged_points_match("standard", [SHOW.replace(" |", ""), ready, HIGH], closed_top="8H")
    waiting = hand_scene(match_view(match), match.deal.view(1), HandLayout())
    assert waiting.ready and waiting.discard is None and len(waiting.cards) == 13
    loose = hand_scene(match_view(match), match.deal.view(2), HandLayout())
    assert not loose.ready and loose.discard is None
    match.apply({"command": "pick", "seat": 0, "source": "closed"})
    scene = hand_scene(match_view(match), match.deal.view(0), HandLayout())
    assert scene.ready and scene.cards[scene.discard - 1].code == "8H"
    mixed = HandLayout(groups=[parse_cards(SHOW.replace(" |", "") + " 8H")], custom=True)
    scene = hand_scene(
        match_view(match), match.deal.view(0), mixed
    )  # one heap: not a show as grouped, still the same discard
    assert not scene.ready and scene.cards[scene.discard - 1].code == "8H"
