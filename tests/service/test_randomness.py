"""The OS's randomness the service shuffles with in play (`OsRandom`): its own shuffle must
deal every order alike, as `random.shuffle` does, for one-byte and wider draws."""

import collections
import itertools

from bot.service.randomness import OsRandom, system_random


def test_play_shuffles_with_the_os_randomness():
    assert isinstance(system_random(1, 1), OsRandom)


def test_a_shuffle_is_a_permutation_whatever_the_length():
    rng = OsRandom()
    for length in (0, 1, 2, 106, 300, 70_000):  # one-, two- and three-byte draws
        cards = list(range(length))
        rng.shuffle(cards)
        assert sorted(cards) == list(range(length))
    assert cards != list(range(70_000))  # not left as it was


def test_every_order_of_three_cards_comes_up_alike():
    rng = OsRandom()
    orders = collections.Counter()
    for _ in range(12_000):
        cards = [0, 1, 2]
        rng.shuffle(cards)
        orders[tuple(cards)] += 1
    assert set(orders) == set(itertools.permutations(range(3)))
    assert all(1_600 < count < 2_400 for count in orders.values())  # 2,000 each, ± 10 σ


def test_a_wide_draw_reaches_every_card_alike():
    rng = OsRandom()
    last = collections.Counter()
    for _ in range(4_000):
        cards = list(range(257))  # the first draw is below 257: two bytes, nine bits
        rng.shuffle(cards)
        last[cards[-1] * 8 // 257] += 1  # the card the first draw put last, in eight bins
    assert all(380 < last[bin_] < 620 for bin_ in range(8))  # 500 each, ± 10 σ
