"""The solver against hand-made hands that punish greedy play, and against a brute-force
reference on about a thousand random hands (2-deck shoe, random wild rank, every preset and
several other rule sets, some hands dealt heavy in jokers and some built close to a show)."""

import copy
import dataclasses
import importlib.util
import pickle
import random
from collections import Counter
from functools import cache
from itertools import product
from pathlib import Path

import pytest

from bot.engine.cards import JOKER, SUITS, Card, build_shoe, card_points, format_cards, is_wild, parse_cards
from bot.engine.melds import (
    _MELDS,
    HIGH_ACE,
    GroupKind,
    classify_group,
    judge_groups,
    life_met,
    uncapped_points,
    wild_rank_of,
)
from bot.engine.rules import Rules
from bot.engine.solver import Arrangement, best_arrangement
from bot.engine.solver.counts import _ONE, _count, _first_card, _is_wild_position
from bot.engine.solver.memos import (
    _DISCARD_MEMO,
    _MOVES_MEMO,
    _POINTS_MEMO,
    _SET_MEMO,
    _TRACE_MEMO,
    _config,
)
from bot.engine.solver.moves import _made_moves, _moves, _options
from bot.engine.solver.runs import _SPAN_LONG_LIFE, _SPAN_POINTS, _ace_below, _runs, _runs_up
from bot.engine.solver.search import _Search
from bot.engine.solver.suit import _clusters, _suit_table
from bot.engine.solver.tables import _UNBOUNDED
from bot.engine.solver.trace import _trace

PRESETS = [Rules.preset(name) for name in Rules.PRESET_NAMES]
RULE_SETS = [
    *PRESETS,
    Rules(max_set_size=3),
    Rules(pure_sequence_protects=True, require_four_card_life=True),
    Rules(one_joker_per_impure_sequence=True, joker_only_groups=True, score_cap=120),
    # What the old "lenient" preset played (tables stored with it still load).
    Rules(pure_sequence_protects=True, max_set_size=8, joker_only_groups=True),
    # Tight room for spare jokers: a show may need a set of wild cards alone.
    Rules(one_joker_per_impure_sequence=True, max_set_size=3),
    # Sets pay once both lives are met, and no pure sequence protects alone.
    Rules(sets_protected=False, ace_points=1, score_cap=150),
]


# ------------------------------------------------------------------ the reference


class BruteForce:
    """(points, valid) of hands made of some of `cards`, under one wild rank and rule set, by
    trying every grouping: the first remaining card is either left out or put in every group of
    remaining cards it can lead that classify_group accepts. A group's natural cards share a
    suit (a run) or a rank (a set), so the groups a card leads are those of the cards of its
    suit, or of its rank, each time with the wild ones; they are found once, over all of
    `cards`, and a hand uses those its remaining cards hold. Wild cards sort last, so once only
    they remain they can form only groups of wild cards alone. Where the table has a plank for
    spare jokers, wild cards left out of every group lie there, and the show is still valid.

    What it finds for the cards that remain is remembered for every hand it is asked about: a
    14-card hand's discards share most of it (`compare_discards`)."""

    def __init__(self, cards, wild, rules):
        self.wild, self.rules = wild, rules
        self.cards = sorted(set(cards), key=lambda card: (is_wild(card, wild), card.sort_key))
        self.points = [card_points(card, wild, rules.ace_points) for card in self.cards]
        held = Counter(cards)
        self.groups = [self._groups(first, held) for first in range(len(self.cards))]
        self.found = {}

    def _groups(self, first, held):
        """Every group that the card at `first` (in `self.cards`) can lead with its other copies
        and later cards: ((card, copies) for each card it takes, kind, points, size)."""
        cards, wild = self.cards, self.wild
        lead = cards[first]
        later = range(first, len(cards))
        if is_wild(lead, wild):
            families = [later]  # only wild cards remain
        else:
            families = [
                [i for i in later if is_wild(cards[i], wild) or cards[i].suit == lead.suit],
                [i for i in later if is_wild(cards[i], wild) or cards[i].rank == lead.rank],
            ]
        groups = {}
        for family in families:
            for picks in product(*(range(held[cards[i]] - (i == first) + 1) for i in family)):
                if sum(picks) < 2:
                    continue
                taken = [0] * len(cards)
                taken[first] = 1
                for i, copies in zip(family, picks, strict=True):
                    taken[i] += copies
                taken = tuple(taken)
                if taken in groups:
                    continue  # wild cards alone, in both families
                group = [card for card, copies in zip(cards, taken, strict=True) for _ in range(copies)]
                kind = classify_group(group, wild, self.rules)
                points = sum(card_points(card, wild, self.rules.ace_points) for card in group)
                groups[taken] = (kind, points, len(group))
        return [
            (tuple((i, copies) for i, copies in enumerate(taken) if copies), *group)
            for taken, group in groups.items()
            if group[0] is not GroupKind.INVALID
        ]

    def __call__(self, cards):
        wild, rules = self.wild, self.rules
        held = Counter(cards)
        total = sum(card_points(c, wild, rules.ace_points) for c in cards)
        points, valid = total, False
        for (pure, seqs, long, grouped), (ungrouped, outside) in self.best(
            tuple(held[card] for card in self.cards)
        ).items():
            life = life_met(pure, seqs, bool(long), rules)
            points = min(
                points,
                uncapped_points(
                    all_points=total,
                    ungrouped=ungrouped,
                    outside_sequences=outside,
                    life=life,
                    pure=pure,
                    rules=rules,
                ),
            )
            valid = valid or (life and (grouped or rules.spare_jokers_plank) and ungrouped == 0)
        return min(points, rules.score_cap), valid

    def best(self, remaining):
        """(pure seen, sequences seen (max 2), 4+ run seen, all grouped) -> (least ungrouped
        points, least points outside sequences), for the cards `remaining` (copies of each)."""
        found = self.found.get(remaining)
        if found is not None:
            return found
        found = {}
        first = next((i for i, copies in enumerate(remaining) if copies), None)
        if first is None:
            found[0, 0, 0, 1] = (0, 0)
            self.found[remaining] = found
            return found

        def keep(flags, ungrouped, outside):
            old = found.get(flags, (10**9, 10**9))
            found[flags] = (min(old[0], ungrouped), min(old[1], outside))

        points = self.points[first]
        rest = list(remaining)
        rest[first] -= 1
        for (pure, seqs, long, _), (ungrouped, outside) in self.best(tuple(rest)).items():
            keep((pure, seqs, long, 0), ungrouped + points, outside + points)
        for taken, kind, group_points, size in self.groups[first]:
            if any(remaining[i] < copies for i, copies in taken):
                continue  # the group needs cards these do not hold
            left = list(remaining)
            for i, copies in taken:
                left[i] -= copies
            left = tuple(left)
            is_run = kind.is_sequence
            for (pure, seqs, long, grouped), (ungrouped, outside) in self.best(left).items():
                flags = (
                    pure | (kind is GroupKind.PURE_SEQUENCE),
                    min(2, seqs + is_run),
                    long | (is_run and size >= 4),
                    grouped,
                )
                keep(flags, ungrouped, outside + (0 if is_run else group_points))
        self.found[remaining] = found
        return found


def brute_force(cards, wild, rules):
    return BruteForce(cards, wild, rules)(cards)


# ------------------------------------------------------------------ dealing test hands


def random_hand(rng, size=13, extra_jokers=0):
    return rng.sample(build_shoe(2, 2) + [JOKER] * extra_jokers, size)


def near_show(rng, size=13, joker_rate=0.15, shoe=None):
    """A hand built from runs and sets (some cards swapped for jokers) plus a few strays, from
    `shoe` (a 2-deck shoe with 2 printed jokers unless given)."""
    pool = list(shoe) if shoe is not None else build_shoe(2, 2)
    hand = []

    def take(card):
        if card in pool and len(hand) < size:
            pool.remove(card)
            hand.append(card)

    while len(hand) < size - 2:
        if rng.random() < 0.6:
            suit, length = rng.choice(SUITS), rng.choice([3, 3, 4, 4, 5, 6])
            start = rng.randint(1, 15 - length)
            wanted = [Card(1 if p == 14 else p, suit) for p in range(start, start + length)]
        else:
            rank = rng.randint(1, 13)
            wanted = [Card(rank, suit) for suit in rng.sample(SUITS, rng.choice([3, 3, 4]))]
        for card in wanted:
            take(JOKER if rng.random() < joker_rate and JOKER in pool else card)
    while len(hand) < size:
        take(rng.choice(pool))
    return hand


def random_wild(rng):
    return rng.choice([None, *range(1, 14)])


# ------------------------------------------------------------------ checks


def check_arrangement(cards, wild, rules, result):
    """The answer must be the hand, every group what it claims, and its points the judge's."""
    wild = wild_rank_of(wild)
    laid_out = Counter(c for meld in result.groups for c in meld.cards) + Counter(result.ungrouped)
    if result.discard is not None:
        laid_out[result.discard] += 1
    assert laid_out == Counter(cards)
    for meld in result.groups:
        assert meld.kind is not GroupKind.INVALID
        assert classify_group(meld.cards, wild, rules) is meld.kind, meld
    judged = judge_groups([m.cards for m in result.groups] + [[c] for c in result.ungrouped], wild, rules)
    if result.valid and not rules.sets_protected:
        # Home rules: a show pays for its sets, and a loser may pay less laid out otherwise.
        assert judged.points >= result.points
    else:
        assert judged.points == result.points
    if result.valid:
        assert not result.ungrouped and (result.points == 0 or not rules.sets_protected)
        if sum(len(m.cards) for m in result.groups) == 13:
            assert judge_groups([m.cards for m in result.groups], wild, rules).valid


def compare(cards, wild, rules):
    result = best_arrangement(cards, wild, rules)
    expected = brute_force(cards, wild_rank_of(wild), rules)
    assert (result.points, result.valid) == expected, (format_cards(cards), wild, rules)
    check_arrangement(cards, wild, rules, result)
    return expected


# ------------------------------------------------------------------ hand-made hands


def test_a_card_goes_where_it_saves_most_not_into_the_longest_run():
    # Greedy takes 4♥-7♥ and strands 7♠ 7♦; the best is 4♥ 5♥ 6♥ plus the set of sevens.
    cards = parse_cards("4H 5H 6H 7H 7S 7D 9C 10C JC 2D 3D 4D KS")
    result = best_arrangement(cards, None)
    assert result.points == 10 and not result.valid
    assert result.ungrouped == tuple(parse_cards("KS"))
    assert {m.kind for m in result.groups} == {GroupKind.PURE_SEQUENCE, GroupKind.SET}
    check_arrangement(cards, None, Rules(), result)


def test_the_joker_fills_the_gap_that_completes_the_show():
    # The joker could make a set of queens or extend 9-10; the run saves more.
    cards = parse_cards("AS 2S 3S 9H 10H 5C 5D 5S KD KC KH QC JK")
    result = best_arrangement(cards, None)
    assert result.points == 10 and result.ungrouped == tuple(parse_cards("QC"))
    cards = parse_cards("AS 2S 3S 9H 10H 5C 5D 5S KD KC KH 2H JK")
    result = best_arrangement(cards, None)
    assert result.points == 2


def test_a_valid_show_is_found_with_every_joker_placed():
    cards = parse_cards("7H 8H 9H 10H AS 2S 3S 5D 5S 5H 2D 2S 2C")
    result = best_arrangement(cards, None)
    assert result.valid and result.points == 0 and not result.ungrouped
    check_arrangement(cards, None, Rules(), result)
    # With full sets and one joker per run, a spare joker fits nowhere but the only pure run.
    tight = Rules(one_joker_per_impure_sequence=True, max_set_size=3)
    spare = parse_cards("AH 2H 3H 5S JK 7S 9C 9D 9H KD KC KS JK")
    result = best_arrangement(spare, None, tight)
    assert not result.valid and result.points == 0
    check_arrangement(spare, None, tight, result)
    assert best_arrangement(spare, None).valid
    spare[-1] = parse_cards("4H")[0]
    assert best_arrangement(spare, None, tight).valid
    # Two jokers spare: the second run can take them even though they spoil its purity.
    both_pure = parse_cards("AH 2H 3H 5S 6S 7S 9C 9D 9H JK JK 7C 4C")
    result = best_arrangement(both_pure, "8")
    assert result.valid
    check_arrangement(both_pure, "8", Rules(), result)


def test_wild_cards_as_themselves_keep_a_run_pure():
    cards = parse_cards("5H 6H 7H 9S 10S 7C KD KC KS 2D 2C 2S 4C")
    result = best_arrangement(cards, "7")  # 5-6-7♥ pure, 9-10-7♣ impure, kings, twos
    assert result.points == 4
    assert best_arrangement(cards, None).points > 4


def test_without_a_life_every_card_counts_but_melds_are_shown():
    cards = parse_cards("2S 3S 5S 9C 9D 9H KC KD KH 4H 6H 7D 2D")
    result = best_arrangement(cards, None)
    assert result.points == 80 and not result.valid
    assert [m.kind for m in result.groups] == [GroupKind.SET, GroupKind.SET]
    check_arrangement(cards, None, Rules(), result)
    small = parse_cards("2S 3S 5S 2C 3D 4H 2H 5C 6H 2D 8C 9D 7S")
    assert best_arrangement(small, None).points == sum(card_points(c, None) for c in small)


def test_the_four_card_life_and_the_protection_options_change_the_price():
    cards = parse_cards("AH 2H 3H 5S 6S 7S 9C 9D 9H KD QS 4C 8C")
    assert best_arrangement(cards, None).points == 32
    octro = best_arrangement(cards, None, Rules.preset("octro"))
    assert octro.points == 80 and not octro.valid
    check_arrangement(cards, None, Rules.preset("octro"), octro)
    no_second = parse_cards("AH 2H 3H 9C 9D 9H KD QS 4C 8C 5D 6C JS")
    protects = Rules(pure_sequence_protects=True)
    assert best_arrangement(no_second, None).points == 80
    assert best_arrangement(no_second, None, protects).points == 27 + 10 + 10 + 4 + 8 + 5 + 6 + 10
    check_arrangement(no_second, None, protects, best_arrangement(no_second, None, protects))


def test_fourteen_cards_discard_the_card_that_leaves_a_show():
    cards = parse_cards("7H 8H 9H 10H AS 2S 3S 5D 5S 5H 2D 2S 2C KC")
    result = best_arrangement(cards, None)
    assert result.valid and result.discard == parse_cards("KC")[0]
    check_arrangement(cards, None, Rules(), result)
    # With both lives the costliest stray goes.
    cards = parse_cards("7H 8H 9H AS 2S 3S 5D 5S 5H KC 4D 2C QD 9S")
    result = best_arrangement(cards, None)
    assert result.points == 2 + 4 + 9 + 10
    assert result.discard in parse_cards("KC QD")
    check_arrangement(cards, None, Rules(), result)
    # Without a life every discard leaves 80 points: the costliest card goes all the same.
    cards = parse_cards("2S 3S 5S 9C 9D 9H KC KD KH 4H 6H 7D 2D QS")
    result = best_arrangement(cards, None)
    assert result.points == 80 and card_points(result.discard, None) == 10
    # A card that completes a show stays even when it is the costliest.
    cards = parse_cards("7H 8H 9H AS 2S 3S 5D 5S 5H QC KC JC 4D 5C")
    result = best_arrangement(cards, None)
    assert result.valid and result.discard == parse_cards("4D")[0]


def test_fourteen_cards_keep_a_joker_rather_than_throw_it():
    cards = parse_cards("7H 8H 9H AS 2S 3S 5D 5S 5H KC QC JK 2C 9D")
    result = best_arrangement(cards, None)
    assert result.discard == parse_cards("9D")[0] and result.points == 2
    cards = parse_cards("7H 8H 9H AS 2S 3S 5D 5S 5H KC QC JK 9D JK")
    result = best_arrangement(cards, None)
    assert result.valid and result.discard == parse_cards("9D")[0]


def test_other_hand_sizes():
    ten = parse_cards("AH 2H 3H 5S 6S 7S 9C 9D 9H JK")
    result = best_arrangement(ten, None)
    assert result.valid and result.discard is None
    seven = parse_cards("AH 2H 3H 5S 6S 7S KD")
    result = best_arrangement(seven, None)
    assert not result.valid and result.points == 10
    assert best_arrangement([], None).points == 0


def test_wild_rank_as_label_or_int():
    cards = parse_cards("5H 6H 7H 9S 10S 7C KD KC KS 2D 2C 2S 4C")
    assert best_arrangement(cards, "7") == best_arrangement(cards, 7)


# ------------------------------------------------------------------ against the reference


@pytest.mark.parametrize("seed", range(2))
def test_random_hands_match_brute_force(seed):
    rng = random.Random(seed)
    for index in range(150):
        rules = RULE_SETS[index % len(RULE_SETS)]
        compare(random_hand(rng, extra_jokers=rng.choice([0, 0, 4, 10])), random_wild(rng), rules)


@pytest.mark.parametrize("seed", range(2))
def test_hands_close_to_a_show_match_brute_force(seed):
    rng = random.Random(100 + seed)
    valid = 0
    for index in range(80):
        rules = RULE_SETS[index % len(RULE_SETS)]
        cards = near_show(rng, joker_rate=rng.choice([0.0, 0.1, 0.25]))
        valid += compare(cards, random_wild(rng), rules)[1]
    assert valid > 25  # the reference really exercised shows


@pytest.mark.parametrize("decks", [2, 3])
@pytest.mark.parametrize("preset", Rules.PRESET_NAMES)
def test_each_preset_matches_brute_force_on_hands_from_its_own_shoes(preset, decks):
    """Hands dealt from the preset's own shoe (octro: 2 printed jokers a deck) with two decks and
    with three, where one card may come three times."""
    rules = Rules.preset(preset)
    rng = random.Random(f"{preset}-{decks}")
    shoe = build_shoe(decks, decks * rules.printed_jokers_per_deck)
    valid = 0
    for index in range(30):
        if index % 3:
            cards = near_show(rng, joker_rate=rng.choice([0.0, 0.1, 0.25]), shoe=shoe)
        else:
            cards = rng.sample(shoe, 13)
        valid += compare(cards, random_wild(rng), rules)[1]
    assert valid > 5


def test_other_sizes_match_brute_force():
    rng = random.Random(7)
    for index in range(150):
        rules = RULE_SETS[index % len(RULE_SETS)]
        compare(near_show(rng, size=rng.choice([3, 6, 7, 10, 12])), random_wild(rng), rules)


def test_fourteen_card_discards_match_brute_force():
    rng = random.Random(11)
    for index in range(40):
        rules = RULE_SETS[index % len(RULE_SETS)]
        wild = random_wild(rng)
        cards = near_show(rng, size=14, joker_rate=0.1)
        result, tied = compare_discards(cards, wild, rules)
        assert card_points(result.discard, wild) == max(card_points(d, wild) for d in tied)


def test_home_rules_fourteen_card_discards_match_brute_force():
    """Home rules charge a show for its sets: a discard that leaves every card in a sequence
    wins first, then the show charged least, each bounded by the 14 cards' own arrangements
    (`best_arrangement`), and of discards that tie the costliest goes. Near-show hands with
    long runs, from two and three decks."""
    rules = Rules.preset("home")
    rng = random.Random("home-fourteen")
    shows = 0
    for index in range(24):
        shoe = build_shoe(2 + index % 2, 2 + index % 2)
        wild = random_wild(rng)
        result, tied = compare_discards(near_show(rng, size=14, joker_rate=0.1, shoe=shoe), wild, rules)
        assert card_points(result.discard, wild) == max(card_points(d, wild) for d in tied)
        shows += result.valid
    assert shows > 5  # the hands really had shows to choose from


def test_a_show_among_the_discards_searched_for_points_matches_brute_force():
    """Where the 14 cards' cheapest arrangement leaves two cards or more out, every discard that
    could show comes before the costliest of those and is searched for points there, so the
    first that shows wins with no search of its own for shows: near-show hands that take that
    path, under the rules they were dealt with."""
    for rules, wild, text in [
        (RULE_SETS[1], 11, "8C 9C 10C JC QC KC 3H JK 3S 9H 10H JH JK 9H"),
        (RULE_SETS[4], 10, "4D 4S 4C 4H 3C 3D JK 7S 8S 9S 10S JS 3C 6S"),
        (RULE_SETS[5], 1, "10C 10H 10S 8C 9C 10C JC QC KC 2D 3D JK JK 5C"),
        (RULE_SETS[6], 3, "JK 6C 7C JK 9C 5D 5C 5H 6S 7S 8S 9S 4H 7D"),
        (RULE_SETS[8], 6, "JK 4C 5C 6C AH 2H 3H 7H 8H JK 10H JH QH 10S"),
    ]:
        result, _ = compare_discards(parse_cards(text), wild, rules)
        assert result.valid, text


def compare_discards(cards, wild, rules):
    """The solver's 14-card answer against brute force over every discard: the best show or
    points, and a discard that reaches them; returns it and the discards that tie."""
    result = best_arrangement(cards, wild, rules)
    check_arrangement(cards, wild, rules, result)
    outcomes = {}
    reference = BruteForce(cards, wild_rank_of(wild), rules)
    for discard in set(cards):
        rest = list(cards)
        rest.remove(discard)
        outcomes[discard] = reference(rest)
    best = min(outcomes.values(), key=lambda o: (not o[1], o[0]))
    assert (result.points, result.valid) == best, (format_cards(cards), wild)
    assert outcomes[result.discard] == best
    return result, [d for d, o in outcomes.items() if o == best]


def test_the_answer_behaves_as_a_frozen_record_whether_or_not_it_is_laid_out():
    cards = parse_cards("2S 3S 5S 9C 9D 9H KC KD KH 4H 6H 7D 2D")
    lazy, read = best_arrangement(cards, None), best_arrangement(cards, None)
    assert read.groups  # one laid out, the other not yet
    assert lazy == read and hash(lazy) == hash(read)
    plain = Arrangement(read.valid, read.points, read.groups, read.ungrouped, read.discard)
    assert plain == lazy and repr(plain) == repr(lazy)
    assert repr(plain).startswith("Arrangement(valid=False, points=80, groups=(Meld(")
    assert pickle.loads(pickle.dumps(best_arrangement(cards, None))) == plain
    assert copy.copy(best_arrangement(cards, None)) == plain
    with pytest.raises(dataclasses.FrozenInstanceError):
        lazy.points = 0  # type: ignore[misc]
    match lazy:
        case Arrangement(valid, points, groups, ungrouped, discard):
            assert (valid, points, len(groups), len(ungrouped), discard) == (False, 80, 2, 7, None)


def test_three_identical_cards_are_a_pure_sequence_only_where_the_rules_say_so():
    cards = parse_cards("9S 9S 9S 4H 5H 6H 7H 2C 2D 2H KC KD KH")
    assert compare(cards, None, Rules()) == (80, False)  # one sequence: every card counts
    triplets = Rules(identical_triplet_pure=True)
    assert compare(cards, None, triplets) == (0, True)
    assert classify_group(parse_cards("9S 9S 9S"), None, triplets) is GroupKind.PURE_SEQUENCE
    assert classify_group(parse_cards("9S 9S 9S"), 9, triplets) is GroupKind.PURE_SEQUENCE  # wild, as itself
    assert classify_group(parse_cards("9S 9S 9H"), None, triplets) is GroupKind.INVALID
    assert classify_group(parse_cards("JK JK JK"), None, triplets) is GroupKind.INVALID
    assert Rules.preset("octro").identical_triplet_pure


@pytest.mark.parametrize("seed", range(2))
def test_hands_with_identical_triplets_match_brute_force(seed):
    """Three decks, with a triplet or two dealt into most hands, under rules that count them."""
    rng = random.Random(500 + seed)
    rule_sets = [
        Rules.preset("octro"),
        Rules(identical_triplet_pure=True),
        Rules(
            pure_sequence_protects=True, max_set_size=8, joker_only_groups=True, identical_triplet_pure=True
        ),
        Rules.preset("home").replace(identical_triplet_pure=True),
    ]
    for index in range(50):
        shoe = build_shoe(3, 3)
        hand = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            card = rng.choice([c for c in shoe if c != JOKER and shoe.count(c) == 3])
            hand += [card] * 3
            for _ in range(3):
                shoe.remove(card)
        hand += rng.sample(shoe, 13 - len(hand))
        compare(hand, random_wild(rng), rule_sets[index % len(rule_sets)])


# ------------------------------------------------------------------ the points search's shortcuts


@cache
def _all_runs(wild, one_joker):
    """Every run the search can make from every position: chosen positions -> fewest substitutes
    (made once for the four kinds of search that read them)."""
    above = sum(_ONE[p] for p in range(2, HIGH_ACE + 1))
    runs = {}
    for x in range(1, HIGH_ACE + 1):
        counts = above & ~sum(_ONE[p] for p in range(1, x + 1))
        for chosen, substitutes, _ in _runs(x, counts, 12, wild, one_joker):
            runs[chosen] = substitutes
    return runs


def _run_flags(chosen, substitutes, long_life, one_joker):
    """(jokers, pure, 4+ cards) of a run, and of the same with one more joker where that is tried."""
    found = [(substitutes, substitutes == 0, long_life and len(chosen) + substitutes >= 4)]
    if long_life and len(chosen) + substitutes == 3 and (substitutes == 0 or not one_joker):
        found.append((substitutes + 1, False, True))
    return found


def _shorter_runs_do_as_well(runs, chosen, wild, long_life, one_joker):
    """Whether the run's cards make shorter runs (in two parts, or with a wild card being itself
    released to the pool) using no more jokers, with as good life flags."""
    (substitutes, pure, long), *_ = _run_flags(chosen, runs[chosen], long_life, one_joker)
    span = chosen[-1] - chosen[0]
    for freed in [None, *(p for p in chosen if _is_wild_position(p, wild))]:
        kept = tuple(p for p in chosen if p != freed)
        for cut in range(len(kept)):
            parts = [kept[:cut], kept[cut:]] if cut else [kept]
            if any(part not in runs or part[-1] - part[0] >= span for part in parts):
                continue
            for picks in product(*(_run_flags(part, runs[part], long_life, one_joker) for part in parts)):
                used = sum(pick[0] for pick in picks) - (freed is not None)
                if (
                    used <= substitutes
                    and any(p[1] for p in picks) >= pure
                    and any(p[2] for p in picks) >= long
                ):
                    return True
    return False


@pytest.mark.parametrize("one_joker", [False, True])
@pytest.mark.parametrize("long_life", [False, True])
def test_runs_longer_than_the_points_search_tries_are_never_needed(one_joker, long_life):
    """The points search tries only runs whose naturals span a few positions (`_SPAN_POINTS`,
    or `_SPAN_LONG_LIFE` where a 4+ card sequence is tracked). That is exact because every
    longer run the search could make is beaten or matched by shorter ones made of the same
    cards: split in two, or with a wild card being itself released to the joker pool, using no
    more jokers, with as many sequences, a pure one where the run was pure and (where tracked) a
    4+ card one where the run had 4+ cards. Checked here for every run from every position,
    with every wild position; a part longer than the cap is itself checked the same way."""
    cap = _SPAN_LONG_LIFE if long_life else _SPAN_POINTS
    checked = set()
    for wild in range(15):  # 14: an Ace, wild at 1 too
        runs = _all_runs(wild, one_joker)
        for chosen in runs:
            if chosen[-1] - chosen[0] + 1 > cap:
                # What the wild position changes for a run is which of its cards are wild.
                wilds = tuple(p for p in chosen if _is_wild_position(p, wild))
                if (chosen, wilds) in checked:
                    continue
                checked.add((chosen, wilds))
                assert _shorter_runs_do_as_well(runs, chosen, wild, long_life, one_joker), (
                    chosen,
                    wild,
                )


# ------------------------------------------------------------------ the slowest hands known


def _adversarial_hands():
    """`ADVERSARIAL_HANDS` of benchmarks/solver.py: the slowest hands its search found."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "solver.py"
    spec = importlib.util.spec_from_file_location("solver_benchmark", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ADVERSARIAL_HANDS


@pytest.mark.parametrize("preset", Rules.PRESET_NAMES)
def test_the_adversarial_hands_match_brute_force(preset):
    """The hands the benchmark's search found slow, under the preset each was found for: every
    one laid out as it is charged, and against brute force (which is slow on them too) a quarter
    of the 13-card ones, every fourth in the order found so that each round of the search has
    some, and the two 14-card ones found last, discard by discard."""
    rules = Rules.preset(preset)
    hands = [(wild, parse_cards(text)) for name, _, wild, text in _adversarial_hands() if name == preset]
    for wild, cards in hands:
        check_arrangement(cards, wild, rules, best_arrangement(cards, wild, rules))
    thirteen = [hand for hand in hands if len(hand[1]) == 13]
    fourteen = [hand for hand in hands if len(hand[1]) == 14]
    assert len(thirteen) >= 8 and len(fourteen) >= 2
    for wild, cards in thirteen[::4]:
        compare(cards, wild, rules)
    for wild, cards in fourteen[-2:]:
        compare_discards(cards, wild, rules)


def test_an_answer_does_not_depend_on_what_the_memos_held():
    """The same hand gets the same answer, groups included, from empty memos as after others."""
    rng = random.Random(5)
    hands = []
    for index in range(120):
        rules = PRESETS[index % len(PRESETS)]
        shoe = build_shoe(3, 3)
        suit = rng.choice(SUITS)
        heavy = [card for card in shoe if card.suit == suit or card == JOKER]
        hands.append((rng.sample(heavy, 9) + rng.sample(shoe, rng.choice([4, 5])), random_wild(rng), rules))
    warm = [best_arrangement(cards, wild, rules) for cards, wild, rules in hands]
    for (cards, wild, rules), answer in zip(hands, warm, strict=True):
        for memo in (
            _POINTS_MEMO,
            _SET_MEMO,
            _TRACE_MEMO,
            _MOVES_MEMO,
            _DISCARD_MEMO,
            _MELDS,
        ):
            memo.clear()
        assert best_arrangement(cards, wild, rules) == answer, (format_cards(cards), wild, rules.preset)


# ------------------------------------------------------------------ the search's own shortcuts


def _random_suit(rng):
    """Suit counts as a search meets them: up to three copies of a card, an Ace now and then."""
    return sum(rng.choice([0, 0, 0, 1, 1, 2, 3]) * _ONE[p] for p in range(2, HIGH_ACE + 1))


def test_runs_from_the_tables_made_at_import_are_the_runs_enumerated():
    """The points search reads its runs from tables made at import (`_shapes`); they must be the
    runs the general enumeration finds, in its order, for every kind of state."""
    rng = random.Random(21)
    for _ in range(3000):
        counts = _random_suit(rng)
        x = _first_card(counts)
        if not x:
            continue
        rest = counts - _ONE[x]
        span = rng.choice([_SPAN_POINTS, _SPAN_LONG_LIFE])
        jokers, wild, one_joker = rng.randint(0, 7), rng.choice([0, *range(2, 15)]), rng.random() < 0.3
        max_gap = min(jokers, 1) if one_joker else jokers
        expected = []
        _runs_up(expected, x, (x,), 0, min(HIGH_ACE, x + span - 1), rest, max_gap, wild)
        if _ace_below(x, rest, max_gap, span):
            _runs_up(expected, 1, (1, x), x - 2, span, rest, max_gap, wild)
        assert _runs(x, rest, jokers, wild, one_joker, span) == expected, (x, rest, span, wild)


def test_the_points_search_moves_are_the_options_a_traceback_replays():
    """The table builder takes its moves from `_made_moves`, a traceback replays `_options`: the
    two must offer the same moves or a traceback could not find the entry a table holds."""
    rng = random.Random(22)
    configs = [
        _config(one_joker, four, lone, track, False, 4, triplet, ace)
        for one_joker, four, lone, track, triplet, ace in product(
            (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (1, 10)
        )
    ]
    frozen = lambda move: (move[0], move[1], tuple(move[2]) if move[2] else None, move[3])  # noqa: E731
    for _ in range(3000):
        counts = _random_suit(rng)
        x = _first_card(counts)
        if not x:
            continue
        config, jokers, wild = rng.choice(configs), rng.randint(0, 7), rng.choice([0, *range(2, 15)])
        span = _SPAN_LONG_LIFE if config[1] else _SPAN_POINTS
        made = Counter(map(frozen, _made_moves(counts, x, wild, jokers, config, span, 0)))
        options = _options(counts, x, wild, jokers, config)
        assert made == Counter(frozen((counts - rest, dk, add, dw)) for rest, dk, add, dw, _ in options)


def test_the_points_search_moves_depend_only_on_what_their_memo_key_holds():
    """`_moves` shares one list of moves between states that hold the same cards near `x`,
    whatever their copies (but three of `x`, an identical triplet where the rules count one):
    what a state gets after another filled the memo must be what it gets from an empty one."""
    rng = random.Random(24)
    configs = [
        _config(one_joker, four, lone, track, False, 4, triplet, ace)
        for one_joker, four, lone, track, triplet, ace in product(
            (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (1, 10)
        )
    ]
    for _ in range(3000):
        counts = _random_suit(rng)
        x = _first_card(counts)
        if not x:
            continue
        # The same cards held, each as many times as another state might hold it.
        other = sum(rng.randint(1, 3) * _ONE[p] for p in range(1, HIGH_ACE + 1) if _count(counts, p))
        config, jokers, wild = rng.choice(configs), rng.randint(0, 7), rng.choice([0, *range(2, 15)])
        _MOVES_MEMO.clear()
        alone = _moves(other, x, wild, jokers, config)
        _MOVES_MEMO.clear()
        _moves(counts, x, wild, jokers, config)
        assert _moves(other, x, wild, jokers, config) == alone, (counts, other, x)


def test_a_suit_searched_apart_at_its_aces_has_the_table_searched_whole():
    """Where only the Aces link a suit's high cards to its low ones, the whole tables a hand's
    search starts from are made from the two parts apart, for each share of the Aces
    (`_linked`): every table must be the one the suit searched whole has, under every kind of
    search, and its entries must lay out (`_trace`) as the parts were split."""
    rng = random.Random(25)
    configs = [
        _config(one_joker, four, lone, track, exact, 4, triplet, ace)
        for one_joker, four, lone, track, exact, triplet, ace in product(
            (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (1, 10)
        )
    ]
    linked = 0
    for _ in range(600):
        # High cards from the King down, low ones next to the Aces, a gap between them.
        high = sum(rng.choice([0, 1, 1, 2, 3]) * _ONE[p] for p in range(2, rng.randint(4, 9)))
        low = sum(rng.choice([0, 1, 2]) * _ONE[p] for p in range(rng.randint(10, 13), 14))
        counts = high + low + rng.choice([1, 1, 2, 3]) * _ONE[HIGH_ACE]
        config, jokers = rng.choice(configs), rng.randint(0, 4)
        wild = rng.choice([0, 0, *(p for p in range(2, 15) if _count(counts, p))])
        max_gap = min(jokers, 1) if config[0] else jokers
        linked += _clusters(counts, max_gap, True)[1]
        for memo in (_POINTS_MEMO, _TRACE_MEMO, _MOVES_MEMO):
            memo.clear()
        whole = _suit_table(counts, wild, jokers, config)
        for memo in (_POINTS_MEMO, _TRACE_MEMO, _MOVES_MEMO):
            memo.clear()
        apart = _suit_table(counts, wild, jokers, config, _UNBOUNDED, True)
        # Entries that take more jokers than could be printed ones may differ: the searches cap
        # each part's jokers at the pool, which a hand with wild cards in this suit never has
        # in printed jokers (and a hand's search takes no more than those, net).
        most = jokers - _count(counts, wild) if wild else jokers
        assert [e for e in apart[0] if e[0] <= most] == [e for e in whole[0] if e[0] <= most], (
            counts,
            wild,
            jokers,
            config[:7],
        )
        for entry in apart[0]:
            groups = _trace(counts, wild, jokers, config, entry, True)
            taken = Counter(p for group in groups for p in _descriptor_positions(group))
            assert taken == Counter({p: _count(counts, p) for p in range(15) if _count(counts, p)}), (
                counts,
                entry,
                groups,
            )
    assert linked > 150  # the suits really were linked


def _descriptor_positions(group):
    """The positions of the cards a traced group holds (an Ace played at 1 is held at 14)."""
    tag = group[0]
    if tag == "run":
        return [14 if p == 1 else p for p in group[1]]
    return [group[1]] * (3 if tag == "triplet" else 1)


def test_the_discards_that_could_show_are_those_whose_rest_melds_whole():
    """One search finds every discard of a 14-card hand that leaves all 13 others melded with
    both lives (`_Search.show_discards`); it must be exactly those the 13-card search finds,
    one discard at a time, under every preset and from three decks too."""
    rng = random.Random(23)
    found = 0
    for index in range(120):
        rules = PRESETS[index % len(PRESETS)]
        shoe = build_shoe(3, 3 * rules.printed_jokers_per_deck) if index % 3 == 0 else None
        cards, wild = near_show(rng, size=14, joker_rate=0.15, shoe=shoe), wild_rank_of(random_wild(rng))
        search = _Search(cards, wild, rules)
        expected = set()
        for discard in set(cards):
            rest = list(cards)
            rest.remove(discard)
            one = _Search(rest, wild, rules)
            if one.life_possible() and one.cheapest(one.life_config, one.life_goal, 1) is not None:
                expected.add(discard)
        assert search.show_discards(0) == expected, (format_cards(cards), wild, rules.preset)
        found += bool(expected)
    assert found > 20  # the hands really had such discards


@pytest.mark.parametrize("preset", ["standard", "app", "home"])
def test_several_cards_of_the_wild_rank_in_one_suit_match_brute_force(preset):
    """Where one card of the wild rank being itself is all a suit needs (`_one_wild`), hands
    holding two or three of it in one suit (three decks), against brute force."""
    rules = Rules.preset(preset)
    rng = random.Random(f"wild-{preset}")
    for _ in range(20):
        shoe = build_shoe(3, 3)
        suit, wild = rng.choice(SUITS), rng.randint(1, 13)
        hand = [Card(wild, suit)] * rng.choice([2, 3])
        for card in hand:
            shoe.remove(card)
        same_suit = [card for card in shoe if card.suit == suit]
        hand += rng.sample(same_suit, rng.randint(4, 8))
        for card in hand[2:]:
            if card in shoe:
                shoe.remove(card)
        hand += rng.sample(shoe, 13 - len(hand))
        compare(hand, wild, rules)
