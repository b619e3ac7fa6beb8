"""Engine states mapped to render scenes: a hand scene holds only its own seat's cards."""

import random

from bot.engine.cards import parse_cards
from bot.engine.formats import Format
from bot.engine.match import Match
from bot.hand_layout import HandLayout
from bot.scenes import hand_groups, hand_scene, result_scene, standing_text, standings_scene, table_scene

NAMES = ["Asha", "Ravi", "Meera"]


def started(fmt=Format.POOL_101):
    match, _ = Match.start(fmt, 3, random.Random(5))
    return match


def test_a_hand_scene_shows_exactly_that_seat_s_cards_numbered_as_laid_out():
    match = started()
    deal = match.deal
    for seat in range(3):
        layout = HandLayout()
        scene = hand_scene(match, seat, layout)
        assert sorted(c.code for c in scene.cards) == sorted(c.code for c in deal.seats[seat].hand)
        assert list(scene.cards) == layout.cards
        assert scene.wild_rank == deal.wild_rank and scene.picked is None
    seat = deal.turn
    match.apply({"command": "pick", "seat": seat, "source": "closed"})
    scene = hand_scene(match, seat, HandLayout())
    assert len(scene.cards) == 14 and scene.cards[scene.picked - 1] == deal.picked


def test_the_table_scene_has_no_hand_only_counts_and_standings():
    match = started()
    scene = table_scene(match, NAMES)
    assert [s.cards_count for s in scene.seats] == [13, 13, 13]
    assert sum(s.to_act for s in scene.seats) == 1 and scene.seats[match.deal.turn].to_act
    assert scene.open_card == match.deal.open_card and scene.closed_count == len(match.deal.closed)
    assert [s.standing for s in scene.seats] == ["0 / 101"] * 3
    assert "Pool 101" in scene.title


def test_standing_texts_and_the_standings_scene_follow_the_format():
    points = started(Format.POINTS)
    points.standings = [40, -20, -20]
    assert standing_text(points, 0) == "+40 chips" and standing_text(points, 1) == "-20 chips"
    deals = started(Format.DEALS_2)
    assert standing_text(deals, 0) == "160 chips"
    pool = started()
    pool.history = [[0, 20, 40], [10, 0, 40]]
    scene = standings_scene(pool, NAMES)
    assert scene.limit == 101 and scene.columns == ("D1", "D2")
    assert [row.scores for row in scene.rows] == [(0, 10), (20, 0), (40, 40)]


def test_a_result_says_whether_points_add_to_a_pool_score_or_are_paid():
    for fmt, adds_up in ((Format.POOL_101, True), (Format.POINTS, False)):
        match, _ = Match.start(fmt, 2, random.Random(5))
        match.apply({"command": "drop", "seat": match.deal.turn})
        scene = result_scene(match, NAMES[:2])
        assert scene.adds_up is adds_up
        assert [p.points for p in scene.players if p.note == "first drop"] == [20]


def test_a_player_left_alone_after_the_others_drop_wins_without_showing_their_cards():
    match, _ = Match.start(Format.POINTS, 3, random.Random(5))
    for _ in range(2):
        match.apply({"command": "drop", "seat": match.deal.turn})
    scene = result_scene(match, NAMES)
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
    labels = hand_groups(groups, None, match)
    assert [group.points for group in labels] == [15, 21, 9, 39]  # a set is not spared without both lives
    groups[3] = parse_cards("9C 10C JC QC")  # now two sequences (one pure): melded cards cost nothing
    assert [group.points for group in hand_groups(groups, None, match)] == [0, 0, 0, 0]
