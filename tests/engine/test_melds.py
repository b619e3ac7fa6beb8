"""Groups and declarations, table-driven from the examples of the rule pages in
shared/rules-sources/ (000: Foryourummy, 001: Octro, 003: an app rule screen, 004: home rules)
and from the corners of our own rule options."""

import pytest

from bot.engine.cards import parse_cards
from bot.engine.errors import CardNotationError, RulesError
from bot.engine.melds import GroupKind, classify_group, judge_groups, make_meld, wild_rank_of
from bot.engine.rules import Rules

PURE, IMPURE, SET, SPARE, INVALID = (
    GroupKind.PURE_SEQUENCE,
    GroupKind.IMPURE_SEQUENCE,
    GroupKind.SET,
    GroupKind.SPARE_JOKERS,
    GroupKind.INVALID,
)
STANDARD = Rules()
OCTRO = Rules.preset("octro")
APP = Rules.preset("app")
HOME = Rules.preset("home")
# What the old "lenient" preset played: printed jokers alone make a set, sets of any size.
LENIENT = Rules(pure_sequence_protects=True, max_set_size=8, joker_only_groups=True)
ONE_JOKER = Rules(one_joker_per_impure_sequence=True)


def groups_of(text: str) -> list[list]:
    return [parse_cards(group) for group in text.split("|")]


# (cards, wild rank, rules, expected kind)
GROUPS = [
    # 000: "7♥ 8♥ 9♥ make a pure sequence"; "J♥, 7♣, Q♥ is the impure sequence" with 7s wild.
    ("7H 8H 9H", None, STANDARD, PURE),
    ("JH 7C QH", "7", STANDARD, IMPURE),
    # 000: Ace low or high: A 2 3 and A K Q J; 001 and 003: never K A 2.
    ("AS 2S 3S", None, STANDARD, PURE),
    ("JD QD KD AD", None, STANDARD, PURE),
    ("QC KC AC", None, STANDARD, PURE),
    ("KC AC 2C", None, STANDARD, INVALID),
    ("KC AC 2C", "5", STANDARD, INVALID),
    # 001: examples of runs, pure and not.
    ("4H 5H 6H", None, STANDARD, PURE),
    ("9S 10S JS", None, STANDARD, PURE),
    ("9S 10S JS QS", None, STANDARD, PURE),
    ("AD 2D 3D 4D", None, STANDARD, PURE),
    ("8C 9C 10C JC QC KC", None, STANDARD, PURE),
    ("4H 5H JK", None, STANDARD, IMPURE),
    ("2H 3H JK 5H", None, STANDARD, IMPURE),
    ("QS JK AS", None, STANDARD, IMPURE),
    # 001: sets of three or four different suits, jokers may stand in; no repeated suit.
    ("4H 4S 4D", None, STANDARD, SET),
    ("QH QS QD QC", None, STANDARD, SET),
    ("JK 4H 4S", None, STANDARD, SET),
    ("QH QD JK", None, STANDARD, SET),
    ("4H 4H 4S", None, STANDARD, INVALID),
    ("4H 4H JK", None, STANDARD, INVALID),
    ("QH QS QD QC QH", None, STANDARD, INVALID),
    ("QH QS QD QC JK", None, STANDARD, INVALID),
    ("QH QS QD QC JK", None, LENIENT, SET),
    # 004: a wild card "cannot be used in straight runs unless representing itself".
    ("5H 6H 7H", "7", STANDARD, PURE),
    ("7H 8H 9H 10H", "7", STANDARD, PURE),
    ("5H 6H 7S", "7", STANDARD, IMPURE),
    ("5H 7S 7H", "7", STANDARD, IMPURE),  # 7♥ is itself, 7♠ stands for 6♥
    ("6H 7H 7H 8H", "7", STANDARD, IMPURE),  # one 7♥ is itself, the other a joker
    ("5S 5H 7D", "7", STANDARD, SET),
    # Aces wild (the cut card was a printed joker).
    ("AH 2H 3H", "A", STANDARD, PURE),
    ("QH KH AH", "A", STANDARD, PURE),
    ("QH KH AS", "A", STANDARD, IMPURE),
    ("2D 3D AC", "A", STANDARD, IMPURE),
    # 000: "A set is a group of 3 or 4 cards of different suits but of the same value. One can
    # use any kind of joker (wild or printed) to replace any card in the set": a wild-rank card
    # may be itself in a set as in a run, so three sevens are a set with sevens wild. A group of
    # wild cards alone is never a sequence.
    ("7H 7S 7D", "7", STANDARD, SET),
    ("7S 7H JK", "7", STANDARD, SET),
    ("JK JK 7S", "7", STANDARD, SET),
    ("7S 7S 7H", "7", STANDARD, SET),  # one 7♠ is itself, the other stands in
    ("7H 7S 7D 7C", "7", STANDARD, SET),
    ("7H 7S 7D 7C JK", "7", STANDARD, INVALID),
    ("AH AS JK", "A", STANDARD, SET),
    ("7H 7S 7D", "7", OCTRO, SET),
    # Printed jokers alone are a group only where the table allows it.
    ("JK JK JK", "7", STANDARD, INVALID),
    ("JK JK JK", None, LENIENT, SET),
    ("JK JK JK JK JK", None, LENIENT, SET),
    ("JK JK JK JK JK JK JK JK JK", None, LENIENT, INVALID),
    # 001: "If you have unused jokers, select these jokers and put on a separate plank."
    ("JK", None, OCTRO, SPARE),
    ("JK 7S", "7", OCTRO, SPARE),
    ("JK JK JK", None, OCTRO, SPARE),
    ("JK JK", None, STANDARD, INVALID),
    ("JK 5S", None, OCTRO, INVALID),
    # One natural card and two jokers: a run where runs may take two jokers, else a set.
    ("5H JK JK", None, STANDARD, IMPURE),
    ("5H JK JK", None, ONE_JOKER, SET),
    ("5H 6H JK JK", None, ONE_JOKER, INVALID),
    ("5H 6H JK JK", None, STANDARD, IMPURE),
    ("5H JK 7H JK", None, OCTRO, INVALID),
    ("5H JK 7H", None, OCTRO, IMPURE),
    ("5H 6H 7H JK", None, OCTRO, IMPURE),
    # Sizes: at least 3; a run spans at most 13 positions (A..K or 2..A).
    ("5H 6H", None, STANDARD, INVALID),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", None, STANDARD, PURE),
    ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", None, STANDARD, PURE),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", None, STANDARD, INVALID),
    ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", None, STANDARD, IMPURE),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH JK JK", None, STANDARD, INVALID),
    # Runs need one suit, distinct ranks, and the gaps covered.
    ("4H 5H 7H", None, STANDARD, INVALID),
    ("5H 5H 6H", None, STANDARD, INVALID),
    ("5H 6S 7H", None, STANDARD, INVALID),
    ("5H 8H JK", None, STANDARD, INVALID),
    ("5H 8H JK JK", None, STANDARD, IMPURE),
    ("5H 6H 7H", None, Rules(max_set_size=3), PURE),
    ("4H 4S 4D 4C", None, Rules(max_set_size=3), INVALID),
]


@pytest.mark.parametrize(("cards", "wild", "rules", "kind"), GROUPS)
def test_classify_group(cards, wild, rules, kind):
    assert classify_group(parse_cards(cards), wild_rank_of(wild), rules) is kind


def test_wild_rank_accepts_labels_ints_and_none():
    assert wild_rank_of("7") == 7
    assert wild_rank_of("a") == 1
    assert wild_rank_of("10") == 10
    assert wild_rank_of(12) == 12
    assert wild_rank_of(None) is None
    with pytest.raises(CardNotationError):
        wild_rank_of("Z")
    with pytest.raises(RulesError):
        wild_rank_of(14)


def test_make_meld_puts_jokers_where_they_stand():
    meld = make_meld(parse_cards("JK 5H 3H"), None, STANDARD)
    assert (meld.kind, meld.cards) == (IMPURE, tuple(parse_cards("3H JK 5H")))
    assert make_meld(parse_cards("KD JK QD"), None, STANDARD).cards == tuple(parse_cards("QD KD JK"))
    assert make_meld(parse_cards("AD JK 2D"), None, STANDARD).cards == tuple(parse_cards("AD 2D JK"))
    assert make_meld(parse_cards("7S 5H 7H"), 7, STANDARD).cards == tuple(parse_cards("5H 7S 7H"))
    assert make_meld(parse_cards("JK 4C 4H"), None, STANDARD).cards == tuple(parse_cards("4H 4C JK"))


# (groups, wild, rules, valid, points, reason)
DECLARATIONS = [
    # 000: the valid example (two decks: 2♠ twice), and its two invalid cases.
    (
        "7H 8H 9H 10H | AS 2S 3S | 5D 5S 5H | 2D 2S 2C",
        None,
        STANDARD,
        True,
        0,
        "Valid declaration.",
    ),
    (
        "6D 7D 8D 10D | AC KD JH | 5C 7C 8C | 2H 3H 5H",
        None,
        STANDARD,
        False,
        80,
        "You need a pure sequence: 6♦ 7♦ 8♦ 10♦ is not one.",
    ),
    (
        "JH QH KH | 2D 3D 5D | 9S 10S JS 7S | 4C 6C 8C",
        None,
        STANDARD,
        False,
        80,
        "You need a second sequence.",
    ),
    # 001 (Octro): one of the two lives needs 4+ cards.
    ("10H JH QH | 4S 5S 6S 7S | 9D 9C 9H | 2C 2D 2H", None, OCTRO, True, 0, "Valid declaration."),
    ("8S 9S 10S | JD QD KD JK | 5C 5D 5H | 3C 3D 3H", None, OCTRO, True, 0, "Valid declaration."),
    ("8S 9S 10S JS | QD JK AD | 5C 5D 5H | 3C 3D 3H", None, OCTRO, True, 0, "Valid declaration."),
    (
        "8S 9S 10S | QD JK AD | 5C 5D 5H 5S | 3C 3D 3H",
        None,
        OCTRO,
        False,
        67,  # every card counts, the Ace 1 (see below)
        "One of your two required sequences needs 4 or more cards.",
    ),
    ("8S 9S 10S | QD JK AD | 5C 5D 5H 5S | 3C 3D 3H", None, STANDARD, True, 0, "Valid declaration."),
    # Octro: a run may use one joker only.
    (
        "8S 9S 10S JS | QD JK JK | 5C 5D 5H | 3C 3D 3H",
        None,
        OCTRO,
        False,
        71,
        "You need a second sequence.",
    ),
    # Spare jokers inside groups are fine, and in a set with a wild card being itself.
    ("AH 2H 3H | 5S 6S JK 8S JK | 9C 9D 9H JK | KD", None, STANDARD, False, 10, None),
    ("AH 2H 3H JK | 5S 6S 7S | 9C 9D 9H | KD KS KC", None, STANDARD, True, 0, "Valid declaration."),
    ("AH 2H 3H | 5S 6S 7S | 9C 9D 9H 9S | JK JK 7C", "7", STANDARD, True, 0, "Valid declaration."),
    ("AH 2H 3H | 5S 6S 7S | 9C 9D 9H 9S | JK JK JK", "8", STANDARD, False, 0, None),
    ("AH 2H 3H | 5S 6S 7S | 9C 9D 9H 9S | JK JK JK", None, LENIENT, True, 0, "Valid declaration."),
    # 001: "Even if there are free jokers and the rest of the cards form runs and sets as
    # required, the declare is valid."
    ("10H JH QH | 4S 5S 6S 7S | 9D 9C 9H | JK JK JK", None, OCTRO, True, 0, "Valid declaration."),
    ("10H JH QH | 4S 5S 6S 7S | 9D 9C 9H | KD | JK JK", None, OCTRO, False, 10, None),
    # 001: "Unmatched J, Q, K or 10: 10 points each; Rest ... each as its rank value": Ace 1.
    ("8S 9S 10S JS | QD KD JK | 5C 5D 5H | AC 2D 4H", None, OCTRO, False, 7, None),
    ("8S 9S 10S JS | QD KD JK | 5C 5D 5H | AC 2D 4H", None, STANDARD, False, 16, None),
    # 004: "If a player has a straight run in his hand though, he does not pay for the cards in
    # that straight run or in any other runs in his hand": sets and loose cards still pay.
    ("AH 2H 3H | 5S 6S JK | 9C 9D 9H | KD QD JD 4C", None, HOME, False, 61, None),
    ("AH 2H 3H | 5S 6S JK | 9C 9D 9H | KD QD JD 4C", None, STANDARD, False, 34, None),
    ("AH 2H 3H | 5S 6S JK | 9C 9D 9H 9S | KD QD JD", None, HOME, True, 36, "Valid declaration."),
    ("2H 3H JK | 5S 6S JK | 9C 9D 9H | KD QD JD 4C", None, HOME, False, 77, None),
    # Points: once both lives are there only the cards outside valid groups count.
    (
        "AH 2H 3H | 5S 6S JK | 9C 9D KH | QD 4C 2S 3S",
        None,
        STANDARD,
        False,
        47,
        "9♣ 9♦ K♥ is not a valid group: a sequence needs cards of one suit.",
    ),
    # Without a second life every card counts, sets included...
    (
        "AH 2H 3H | 9C 9D 9H | 4C 5D 6S 7S | KD QS JD",
        None,
        STANDARD,
        False,
        80,
        "You need a second sequence.",
    ),
    # ...but where a pure sequence protects, only the runs go uncounted (003, 004). 003: "If the
    # player has formed pure sequence (1st Life), the value of cards that are not in sequence
    # are calculated."
    (
        "AH 2H 3H | 9C 9D 9H | 4C 5D 6S | 10S 2C 7D KC",
        None,
        Rules(pure_sequence_protects=True),
        False,
        71,
        "You need a second sequence.",
    ),
    ("AH 2H 3H | 9C 9D 9H | 4C 5D 6S | 10S 2C 7D KC", None, APP, False, 71, None),
    ("AH 2H 3H | 9C 9D 9H | 4C 5D 6S | 10S 2C 7D KC", None, HOME, False, 71, None),
    (
        "AH 2H 3H | 9C 9D 9H | 4C 5D 6S | 10S 2C 7D KC",
        None,
        STANDARD,
        False,
        80,
        "You need a second sequence.",
    ),
    # 003, as we read "cards not in sequence" once both lives are there: cards outside every
    # valid group, sets included, go uncounted.
    ("AH 2H 3H | 5S 6S JK | 9C 9D 9H | KD QD JD 4C", None, APP, False, 34, None),
    # Wild cards and printed jokers count nothing, whatever happens.
    ("JK 7S 7D | 2C 3S", "7", STANDARD, False, 5, None),
    # The cap.
    ("KS KH QD QC JS JH 10D 10C 9S 9H 8D 8C 7S", None, STANDARD, False, 80, None),
    ("KS KH QD QC JS JH 10D 10C 9S 9H 8D 8C 7S", None, Rules(score_cap=200), False, 121, None),
    # The count and the messages.
    ("AH 2H 3H | 5S 6S 7S | 9C 9D 9H", None, STANDARD, False, 0, None),
    ("4H 5H 7H | 5S 6S JK | 9C 9D 9H | KD QD JD AC", None, STANDARD, False, 80, None),
]


@pytest.mark.parametrize(("groups", "wild", "rules", "valid", "points", "reason"), DECLARATIONS)
def test_judge_groups(groups, wild, rules, valid, points, reason):
    judgement = judge_groups(groups_of(groups), wild, rules)
    assert (judgement.valid, judgement.points) == (valid, points), judgement
    assert len(judgement.kinds) == len(groups_of(groups))
    if reason is not None:
        assert judgement.reason == reason


def test_reasons_point_at_what_to_fix():
    assert (
        judge_groups(groups_of("4H 5H 7H | 5S 6S JK | 9C 9D 9H | KD QD JD AC"), None).reason
        == "You need a pure sequence: 4♥ 5♥ 7♥ is not one."
    )
    assert (
        judge_groups(groups_of("4H 5H JK | 5S 6S JK | 9C 9D 9H | KD QD JD AC"), None).reason
        == "You need a pure sequence: 4♥ 5♥ 🃏 uses a joker."
    )
    assert (
        judge_groups(groups_of("AH 2H 3H | 5S 6S JK | 8C 9C JD | KD QD JD AC"), None).reason
        == "8♣ 9♣ J♦ is not a valid group: a sequence needs cards of one suit."
    )
    assert (
        judge_groups(groups_of("AH 2H 3H | 5S 6S JK | 8C 8C 8D | KD QD JD AC"), None).reason
        == "8♣ 8♣ 8♦ is not a valid group: a set needs cards of different suits."
    )
    assert (
        judge_groups(groups_of("AH 2H 3H | 5S JK JK | 8C 8H 8D | KD QD JD AC"), None, ONE_JOKER).reason
        == "You need a second sequence."
    )
    assert "13 cards" in judge_groups(groups_of("AH 2H 3H | 5S 6S 7S"), None).reason


def test_each_group_is_labelled_with_what_it_is_charged():
    """Without both lives every group pays (no "0 pts" over a set that is charged); with them
    only the loose cards, and on home rules the sets too."""
    no_life = judge_groups(groups_of("AH 2H 3H | 9C 9D 9H | 4C 5D 6S 7S | KD QS JD"), None)
    assert no_life.group_points == (15, 27, 22, 30) and no_life.points == 80
    life = groups_of("AH 2H 3H | 5S 6S JK | 9C 9D 9H | KD QD JD 4C")
    assert judge_groups(life, None).group_points == (0, 0, 0, 34)
    assert judge_groups(life, None, HOME).group_points == (0, 0, 27, 34)
    protects = groups_of("AH 2H 3H | 9C 9D 9H | 4C 5D 6S | 10S 2C 7D KC")
    assert judge_groups(protects, None, APP).group_points == (0, 27, 15, 29)


def test_judge_kinds_follow_the_groups():
    judgement = judge_groups(groups_of("7H 8H 9H | JH 7C QH | 5S 5D 5C | 2C 3D"), "7")
    assert judgement.kinds == (PURE, IMPURE, SET, INVALID)
    assert judgement.points == 5
    assert not judgement.valid


def test_judge_accepts_the_wild_rank_as_a_label():
    groups = groups_of("AH 2H 3H | QS KS 5C | 9C 9D 9H | 4D 4S 4C 5D")
    assert judge_groups(groups, "5").valid
    assert judge_groups(groups, 5).valid
    assert not judge_groups(groups, None).valid
