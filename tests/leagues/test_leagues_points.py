"""League points from real finished pool matches, and the season tie-breaks."""

import json
import random

import pytest

from bot.engine.formats import Format
from bot.engine.match import Match, MatchPhase, Standing
from bot.leagues.league_error import LeagueError
from bot.leagues.points import (
    DEFAULT_POINTS,
    Placing,
    PointsTable,
    Tally,
    finishing_order,
    rank_key,
    ranked,
    table_placings,
    walkover,
)


def act(match: Match, command: str, seat: int, **args) -> list:
    return match.apply({"command": command, "seat": seat, **args})


def play_deal(match: Match, winner: int, heavy=()) -> None:
    """One deal won by `winner`: the others drop at once (first drop), `heavy` seats after one
    pick and discard (middle drop), so a test decides who goes out first."""
    if match.phase is MatchPhase.BETWEEN_DEALS:
        match.next_deal()
    picked = set()
    while match.phase is MatchPhase.PLAYING:
        seat = match.deal.turn
        if seat == winner or (seat in heavy and seat not in picked):
            act(match, "pick", seat, source="closed")
            act(match, "discard", seat, card=match.deal.seats[seat].hand[-1].code)
            picked.add(seat)
        else:
            act(match, "drop", seat)


def pool_in_order(players: int, seed: int = 3) -> Match:
    """A Pool 201 match won by seat 0, the others leaving one per deal from the last seat up."""
    match, _ = Match.start(Format.POOL_201, players, random.Random(seed))
    for loser in range(players - 1, 0, -1):
        play_deal(match, 0)
        act(match, "leave", loser)
    assert match.phase is MatchPhase.OVER and match.winner == 0
    return match


def test_out_later_is_better_even_with_a_higher_pool_score():
    match, _ = Match.start(Format.POOL_61, 4, random.Random(3))
    for heavy in (3, 3, 3, 2, 1):
        play_deal(match, 0, heavy=(heavy,))
    assert match.standings == [0, 90, 75, 90] and match.phase is MatchPhase.OVER
    assert finishing_order(match) == [(0,), (1,), (2,), (3,)]
    placings = table_placings(match, [100, 101, 102, 103])
    assert [(p.user_id, p.position, p.points, p.won, p.pool_score) for p in placings] == [
        (100, 1, 10, True, 0),
        (101, 2, 6, False, 90),
        (102, 3, 4, False, 75),
        (103, 4, 3, False, 90),
    ]


@pytest.mark.parametrize("players", range(2, 7))
def test_a_table_of_any_size_scores_down_the_default_table(players):
    match = pool_in_order(players)
    placings = table_placings(match, [10 + seat for seat in range(players)])
    assert [p.points for p in placings] == [10, 6, 4, 3, 2, 1][:players]
    assert [p.position for p in placings] == list(range(1, players + 1))


def test_players_out_in_the_same_deal_with_the_same_score_share_the_position():
    match, _ = Match.start(Format.POOL_101, 3, random.Random(5))
    while match.phase is not MatchPhase.OVER:
        play_deal(match, 0)  # seats 1 and 2 drop 20 each deal: out together at 120
    assert finishing_order(match) == [(0,), (1, 2)]
    placings = table_placings(match, [7, 9, 8])
    assert [(p.user_id, p.position, p.points) for p in placings] == [(7, 1, 10), (8, 2, 5), (9, 2, 5)]
    odd = table_placings(match, [7, 9, 8], PointsTable((10, 5, 2)))
    assert [(p.user_id, p.points) for p in odd] == [(7, 10), (8, 4), (9, 3)]  # odd point: lower id


def test_same_deal_different_scores_lower_score_ranks_higher():
    match, _ = Match.start(Format.POOL_61, 3, random.Random(2))
    play_deal(match, 0, heavy=(2,))  # 15 / 30
    play_deal(match, 0, heavy=(1, 2))  # 45 / 60
    play_deal(match, 0, heavy=(1, 2))  # 75 / 90: both out in deal 3
    assert match.standings == [0, 75, 90] and match.winner == 0
    assert finishing_order(match) == [(0,), (1,), (2,)]


def test_a_split_pool_shares_the_top_positions_points_by_shares():
    match, _ = Match.start(Format.POOL_101, 3, random.Random(4))
    play_deal(match, 0)
    play_deal(match, 0)  # 0 / 40 / 40: drops remaining 5, 3, 3
    for seat in range(3):
        act(match, "split", seat)
    assert match.phase is MatchPhase.OVER and match.winner is None
    assert finishing_order(match) == [(0,), (1, 2)]
    placings = table_placings(match, [30, 20, 10])
    # 20 points by 5:3:3 is 9.09, 5.45, 5.45: the odd point goes to the lower user id.
    assert [(p.user_id, p.position, p.points, p.won) for p in placings] == [
        (30, 1, 9, False),
        (10, 2, 6, False),
        (20, 2, 5, False),
    ]
    assert sum(p.points for p in placings) == 20


def test_a_split_after_an_elimination_leaves_the_eliminated_below_the_sharers():
    match, _ = Match.start(Format.POOL_61, 4, random.Random(6))
    while match.seat_status[3] is Standing.IN:
        play_deal(match, 0, heavy=(3,))
    for seat in range(3):
        act(match, "split", seat)
    placings = table_placings(match, [1, 2, 3, 4])
    assert [p.user_id for p in placings][-1] == 4 and placings[-1].position == 4
    assert placings[-1].points == 3 and sum(p.points for p in placings[:3]) == 20


def test_leaving_ranks_below_everyone_still_in_whatever_the_score():
    match, _ = Match.start(Format.POOL_61, 3, random.Random(8))
    leaver = (match.deal.turn + 1) % 3
    act(match, "leave", leaver)  # a middle drop: 30, well below the limit
    winner = 0 if leaver != 0 else 1
    stayer = 3 - winner - leaver
    while match.phase is not MatchPhase.OVER:
        play_deal(match, winner, heavy=(stayer,))
    assert match.standings[leaver] < match.standings[stayer]
    assert finishing_order(match) == [(winner,), (stayer,), (leaver,)]


def test_leaving_in_a_later_deal_ranks_above_an_elimination_in_an_earlier_one():
    match, _ = Match.start(Format.POOL_101, 3, random.Random(7))
    while match.seat_status[2] is Standing.IN:
        play_deal(match, 0, heavy=(2,))  # seat 2 out on 120 at the end of a deal; seat 1 still in
    match.next_deal()
    while match.deal.turn != 1:  # seat 1 leaves during the next deal, after seat 2 was out
        seat = match.deal.turn
        act(match, "pick", seat, source="closed")
        act(match, "discard", seat, card=match.deal.seats[seat].hand[-1].code)
    act(match, "leave", 1)
    assert match.phase is MatchPhase.OVER and match.winner == 0
    assert finishing_order(match) == [(0,), (1,), (2,)]


def test_a_rejoined_player_is_ranked_by_the_pool_they_finished():
    match, _ = Match.start(Format.POOL_101, 3, random.Random(9))
    for winner in (0, 1, 0, 1, 0, 1):
        play_deal(match, winner)  # seat 2 loses every deal: 120, out; seats 0 and 1 at 60
    assert match.seat_status[2] is Standing.ELIMINATED
    act(match, "rejoin", 2)  # back at 61
    while match.phase is not MatchPhase.OVER:
        play_deal(match, 2)
    assert match.winner == 2 and finishing_order(match) == [(2,), (0, 1)]


def test_no_shows_score_zero_and_do_not_take_a_position():
    match = pool_in_order(4)
    placings = table_placings(match, [1, 2, 3, 4], no_shows=[2, 9])
    assert [(p.user_id, p.position, p.points, p.no_show) for p in placings] == [
        (1, 1, 10, False),
        (3, 2, 6, False),
        (4, 3, 4, False),
        (2, None, 0, True),
        (9, None, 0, True),
    ]


def test_a_table_with_one_player_left_is_a_walkover_win():
    placings = walkover(5, [6, 7])
    assert [(p.user_id, p.position, p.points, p.won, p.no_show) for p in placings] == [
        (5, 1, 10, True, False),
        (6, None, 0, False, True),
        (7, None, 0, False, True),
    ]


def test_only_finished_pool_matches_are_scored():
    with pytest.raises(LeagueError, match="Pool"):
        finishing_order(Match.start(Format.DEALS_2, 2, random.Random(1))[0])
    with pytest.raises(LeagueError, match="still being played"):
        finishing_order(Match.start(Format.POOL_101, 2, random.Random(1))[0])
    with pytest.raises(LeagueError, match="2 seats but 3"):
        table_placings(pool_in_order(2), [1, 2, 3])


def test_scoring_survives_a_stored_and_reloaded_match():
    match = pool_in_order(5)
    raw = json.loads(json.dumps(match.to_json()))
    seats = [5, 4, 3, 2, 1]
    assert table_placings(Match.from_json(raw), seats) == table_placings(match, seats)


def test_points_tables_are_checked_and_round_trip():
    table = PointsTable((12, 8, 5), no_show=-2)
    assert table.for_position(3) == 5 and table.for_position(4) == 0
    assert PointsTable.from_json(json.loads(json.dumps(table.to_json()))) == table
    for bad in ((), (5, 6), (3, -1)):
        with pytest.raises(LeagueError):
            PointsTable(bad)
    placing = Placing(1, 2, 6, False, 75)
    assert Placing.from_json(json.loads(json.dumps(placing.to_json()))) == placing


def test_season_tie_breaks_points_wins_average_position_conceded_then_user_id():
    tallies = {
        1: Tally(1, points=20, wins=1, positions=(1, 3), conceded=100),
        2: Tally(2, points=20, wins=2, positions=(1, 1, 6), conceded=300),  # more wins
        3: Tally(3, points=20, wins=1, positions=(2, 2), conceded=50),  # same average as 1, fewer conceded
        4: Tally(4, points=20, wins=1, positions=(1, 2), conceded=900),  # better average
        5: Tally(5, points=25),
        6: Tally(6, points=20, wins=1, positions=(2, 2), conceded=50),  # all equal to 3: user id
    }
    assert [t.user_id for t in ranked(tallies)] == [5, 2, 4, 3, 6, 1]
    assert rank_key(Tally(7)) > rank_key(Tally(8, points=1))


def test_tallies_add_placings_and_ignore_no_show_positions():
    tally = Tally(1).add(Placing(1, 2, 6, False, 80)).add(Placing(1, None, 0, no_show=True))
    assert (tally.points, tally.wins, tally.positions, tally.conceded) == (6, 0, (2,), 80)
    assert tally.add(Placing(1, 1, 10, True)).average_position == 1.5


@pytest.mark.parametrize("fmt", [Format.POOL_61, Format.POOL_101, Format.POOL_201])
def test_random_pools_with_drops_wrong_shows_and_leaves_always_score_every_seat_once(fmt):
    for seed in range(4):
        rng = random.Random(seed)
        players = 2 + seed
        match, _ = Match.start(fmt, players, random.Random(seed))
        for _ in range(5000):
            if match.phase is MatchPhase.OVER:
                break
            if match.phase is MatchPhase.BETWEEN_DEALS:
                match.next_deal()
                continue
            deal, seat = match.deal, match.deal.turn
            roll = rng.random()
            if roll < 0.01 and len(match.remaining()) > 2:
                act(match, "leave", seat)
            elif deal.phase == "pick":
                if roll < 0.2 and deal.can_drop(seat):
                    act(match, "drop", seat)
                else:
                    act(match, "pick", seat, source="closed")
            elif roll < 0.05:  # a wrong show
                hand = [c.code for c in deal.seats[seat].hand]
                act(match, "declare", seat, groups=[" ".join(hand[1:])], finish=hand[0])
            else:
                act(match, "discard", seat, card=rng.choice(deal.seats[seat].hand).code)
        order = finishing_order(match)
        assert sorted(seat for group in order for seat in group) == list(range(players))
        assert order[0] == (match.winner,)
        placings = table_placings(match, [100 + seat for seat in range(players)])
        assert sum(p.points for p in placings) == sum(DEFAULT_POINTS[:players])
        assert [p.position for p in placings] == sorted(p.position for p in placings)
