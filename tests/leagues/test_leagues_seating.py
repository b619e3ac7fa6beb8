"""Seating a league night: table sizes, balance by season points, determinism."""

import math
import random

import pytest

from bot.engine import RummyError
from bot.leagues.seating import SeatingError, seat_tables, seed_order, table_count


@pytest.mark.parametrize("max_size", range(2, 7))
def test_every_count_from_2_to_40_gets_few_even_tables_and_never_a_table_of_one(max_size):
    for players in range(2, 41):
        tables = seat_tables(range(1000, 1000 + players), max_size=max_size)
        sizes = [len(table) for table in tables]
        assert sorted(u for table in tables for u in table) == list(range(1000, 1000 + players))
        assert min(sizes) >= 2 and max(sizes) - min(sizes) <= 1
        if max_size == 2 and players % 2:
            # The one count that cannot fit: a third seat at one table rather than a player sent home.
            assert len(tables) == players // 2 and sorted(sizes)[-1] == 3
        else:
            assert max(sizes) <= max_size and len(tables) == math.ceil(players / max_size)


@pytest.mark.parametrize(
    ("players", "max_size", "sizes"), [(7, 6, [4, 3]), (13, 6, [5, 4, 4]), (8, 5, [4, 4]), (5, 2, [3, 2])]
)
def test_examples_of_table_sizes(players, max_size, sizes):
    assert sorted(map(len, seat_tables(range(players), max_size=max_size)), reverse=True) == sizes


def test_snake_order_gives_every_table_one_player_from_each_band_of_seeds():
    points = {user: 100 - user for user in range(24)}  # user 0 leads the season
    tables = seat_tables(range(24), points, max_size=6)
    assert tables == [
        (0, 7, 8, 15, 16, 23),
        (1, 6, 9, 14, 17, 22),
        (2, 5, 10, 13, 18, 21),
        (3, 4, 11, 12, 19, 20),
    ]
    assert len({sum(points[u] for u in table) for table in tables}) == 1  # even laps: equal totals


@pytest.mark.parametrize("players", range(2, 41))
def test_tables_are_balanced_for_any_count(players):
    rng = random.Random(players)
    points = {user: rng.randrange(0, 60) for user in range(players)}
    tables = seat_tables(points, points, max_size=5)
    order = seed_order(points, points)
    rank = {user: index for index, user in enumerate(order)}
    count = len(tables)
    for table in tables:
        bands = sorted(rank[user] // count for user in table)
        assert bands == list(range(len(table)))  # one seed from each band, best first
    if players % count == 0:
        sums = [sum(rank[user] for user in table) for table in tables]
        assert max(sums) - min(sums) <= count - 1


def test_seating_is_deterministic_whatever_the_sign_up_order():
    points = {user: user % 4 for user in range(30)}  # many equal points: ties go by user id
    users = list(range(30))
    expected = seat_tables(users, points, max_size=6)
    for seed in range(5):
        random.Random(seed).shuffle(users)
        assert seat_tables(users, points, max_size=6) == expected
    assert seed_order([5, 3, 9, 1], {9: 2, 1: 2}) == [1, 9, 3, 5]


def test_members_new_to_the_season_count_as_zero_points_and_duplicates_once():
    assert seat_tables([4, 2, 2, 7], {7: 3}, max_size=6) == [(7, 2, 4)]
    assert seat_tables([4, 2, 2, 7, 9], {7: 3}, max_size=2) == [(7, 9), (2, 4)]


@pytest.mark.parametrize("players", [[], [42]])
def test_fewer_than_two_players_are_refused_with_a_reason(players):
    with pytest.raises(SeatingError, match="at least 2 players") as caught:
        seat_tables(players, max_size=4)
    assert isinstance(caught.value, RummyError)


@pytest.mark.parametrize("max_size", [0, 1, 11])
def test_table_sizes_outside_2_to_10_are_refused(max_size):
    # 004: home rules seat up to ten, the most any of our sources seats
    with pytest.raises(SeatingError, match="2 to 10"):
        table_count(10, max_size)
