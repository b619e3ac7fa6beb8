"""Melds: what a group of cards is, and what a declared arrangement costs.

This module owns the one definition of a valid group and of the declaration and scoring rules
(first life, second life, the optional four-card life, what counts as deadwood). The solver
searches for arrangements in its own compact representation, but it judges the life rules and
charges points through the helpers here, and labels every group it returns with
`classify_group`, so a hand can never be scored one way by the solver and another by a show.

Wild cards (printed jokers and every card of the deal's wild rank) stand in for any card. A
wild-rank card may also be itself, in a run as in a set: `5♥ 6♥ 7♥` with sevens wild is a pure
sequence, and `7♠ 7♥ 7♦` or `7♠ 7♥ JK` a set of sevens. A group of wild cards only is never a
sequence (nothing in it fixes a run that was not chosen just to make one), so `7♠ JK JK` is a set
of sevens, not a run. A group of printed jokers alone, where every card acts as a joker, is a
set only where `joker_only_groups` allows it; where `spare_jokers_plank` does (Octro), unused
jokers may lie on a plank of their own in a show, which is no meld and costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.engine.cards import (
    ACE,
    JOKER_RANK,
    KING,
    RANK_LABELS,
    SUITS,
    Card,
    card_points,
    is_wild,
    pretty_cards,
    rank_from_label,
)
from bot.engine.errors import RulesError
from bot.engine.marks import N_
from bot.engine.rules import CARDS_PER_HAND, Rules

HIGH_ACE = KING + 1  # an Ace played above the King (Q-K-A) sits at this position
MAX_SEQUENCE = KING  # A..K or 2..A: a sequence never wraps, so 13 positions at most
LONG_LIFE = 4  # the length Octro asks of one of the two required sequences
STANDARD_RULES = Rules()  # the default of every public function that takes rules


class GroupKind(StrEnum):
    PURE_SEQUENCE = "pure_sequence"
    IMPURE_SEQUENCE = "impure_sequence"
    SET = "set"
    SPARE_JOKERS = "spare_jokers"  # unused jokers on their own plank (`Rules.spare_jokers_plank`)
    INVALID = "invalid"

    @property
    def is_sequence(self) -> bool:
        return self in (GroupKind.PURE_SEQUENCE, GroupKind.IMPURE_SEQUENCE)


@dataclass(frozen=True, slots=True)
class Meld:
    """A group as the solver proposes it, in the order a player would lay it down."""

    kind: GroupKind
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on one declared arrangement: the same figures settle a wrong show and a loss."""

    valid: bool
    points: int  # what the arrangement is charged, after the cap
    kinds: tuple[GroupKind, ...]
    reason: str
    group_points: tuple[int, ...] = ()  # what each group is charged, before the cap


def wild_rank_of(wild_rank: int | str | None) -> int | None:
    """Front ends hold the wild rank as a label ("7", "A") or an int; the engine wants the int."""
    if wild_rank is None:
        return None
    if isinstance(wild_rank, str):
        return rank_from_label(wild_rank)
    if wild_rank not in RANK_LABELS:
        raise RulesError("{rank} is not a wild rank: it must be a rank from A (1) to K (13).", rank=wild_rank)
    return wild_rank


# ----------------------------------------------------------------------------------- groups


_Reading = tuple[int, dict[int, Card], int]  # (substitutes, natural card by position, lowest position)


def _run_reading(cards: Sequence[Card], wild_rank: int | None) -> _Reading | None:
    """The way of reading `cards` as one run that needs the fewest substitutes, or None.

    Only cards that are not wild fix the suit and the window; at most one wild-rank card of that
    suit can also be itself, and only when that keeps the run inside one window (counting it as
    natural can only lower the number of substitutes, which is what purity and the one-joker
    rule look at)."""
    size = len(cards)
    if size < 3 or size > MAX_SEQUENCE:
        return None
    naturals = [card for card in cards if card.rank != JOKER_RANK and card.rank != wild_rank]
    if not naturals:
        return None
    suit = naturals[0].suit
    ranks = {card.rank for card in naturals}
    if len(ranks) != len(naturals) or any(card.suit != suit for card in naturals):
        return None
    own_wild = next((c for c in cards if c.rank == wild_rank and c.suit == suit), None)
    best: _Reading | None = None
    for ace_high in (False, True):
        if ace_high and ACE not in ranks and not (own_wild and wild_rank == ACE):
            continue
        placed = {_position(card.rank, ace_high): card for card in naturals}
        readings = [placed]
        if own_wild is not None:
            readings.insert(0, {**placed, _position(own_wild.rank, ace_high): own_wild})
        for reading in readings:
            low = min(reading)
            if max(reading) - low + 1 > size:
                continue
            substitutes = size - len(reading)
            if best is None or substitutes < best[0]:
                best = (substitutes, reading, low)
            break
    return best


def _position(rank: int, ace_high: bool) -> int:
    return HIGH_ACE if ace_high and rank == ACE else rank


def _lay_out_run(cards: Sequence[Card], reading: _Reading) -> list[Card]:
    """Puts the substitutes where they stand: in the gaps first, then above the run (below it
    when the run already reaches its top)."""
    _, placed, low = reading
    substitutes = list(cards)
    for card in placed.values():
        substitutes.remove(card)
    substitutes.sort(key=_sort_key, reverse=True)
    top = KING if low == ACE else HIGH_ACE
    start = min(low, top - len(cards) + 1)
    return [
        placed[position] if position in placed else substitutes.pop()
        for position in range(start, start + len(cards))
    ]


def _sort_key(card: Card) -> tuple[int, int]:
    return card.sort_key


def _is_set(cards: Sequence[Card], wild_rank: int | None, rules: Rules) -> bool:
    if not 3 <= len(cards) <= rules.max_set_size:
        return False
    naturals = [card for card in cards if not is_wild(card, wild_rank)]
    return (
        bool(naturals)
        and len({card.rank for card in naturals}) == 1
        and len({card.suit for card in naturals}) == len(naturals)
    )


def is_identical_triplet(cards: Sequence[Card]) -> bool:
    """Three copies of one card (`9♠ 9♠ 9♠`, possible with three decks), which Octro counts as
    a pure sequence; wild cards too, since they are then themselves, as in a pure run."""
    return len(cards) == 3 and cards[0].rank != JOKER_RANK and cards[0] == cards[1] == cards[2]


def _analyse(cards: Sequence[Card], wild_rank: int | None, rules: Rules) -> tuple[GroupKind, _Reading | None]:
    """The group's kind, with the run reading behind it when it is a sequence."""
    if all(is_wild(card, wild_rank) for card in cards):
        return _wild_group_kind(cards, wild_rank, rules), None
    if len(cards) < 3:
        return GroupKind.INVALID, None
    if rules.identical_triplet_pure and is_identical_triplet(cards):
        return GroupKind.PURE_SEQUENCE, None
    reading = _run_reading(cards, wild_rank)
    if reading is not None:
        substitutes = reading[0]
        if substitutes == 0:
            return GroupKind.PURE_SEQUENCE, reading
        if substitutes == 1 or not rules.one_joker_per_impure_sequence:
            return GroupKind.IMPURE_SEQUENCE, reading
    if _is_set(cards, wild_rank, rules):
        return GroupKind.SET, None
    return GroupKind.INVALID, None


def _wild_group_kind(cards: Sequence[Card], wild_rank: int | None, rules: Rules) -> GroupKind:
    """A group of wild cards only: a set when one of them can be itself (a card of the wild
    rank) or the table lets printed jokers alone make one; else, where the table has a plank
    for unused jokers, that plank."""
    if 3 <= len(cards) <= rules.max_set_size:
        if rules.identical_triplet_pure and is_identical_triplet(cards):
            return GroupKind.PURE_SEQUENCE
        if rules.joker_only_groups or any(card.rank == wild_rank for card in cards):
            return GroupKind.SET
    if rules.spare_jokers_plank and cards:
        return GroupKind.SPARE_JOKERS
    return GroupKind.INVALID


def classify_group(cards: Sequence[Card], wild_rank: int | None, rules: Rules) -> GroupKind:
    """What a group counts as; a group that reads both as a set and as a run is a run, since
    that is the reading that helps the player."""
    return _analyse(cards, wild_rank, rules)[0]


# The solver lays out the same few groups again and again. The memo holds ints only (card
# ids, kind index, order), so the garbage collector never has to walk it.
_MELDS: dict[tuple[int, ...], tuple[int, ...]] = {}
_MELDS_LIMIT = 20_000  # ~190 bytes an entry: at most ~4 MB, then it starts again
_KINDS = tuple(GroupKind)
_SUIT_IDS = {suit: index for index, suit in enumerate(SUITS)}


def make_meld(cards: Sequence[Card], wild_rank: int | None, rules: Rules) -> Meld:
    """A group with its kind and its cards in the order a player reads them: runs low to high
    with each joker in the place it fills, sets by suit with the jokers last."""
    key = (
        wild_rank or 0,
        rules.spare_jokers_plank * 64
        + rules.identical_triplet_pure * 32
        + rules.one_joker_per_impure_sequence * 16
        + rules.joker_only_groups * 8
        + rules.max_set_size,
        *(card.rank * 5 + (_SUIT_IDS[card.suit] if card.suit is not None else 4) for card in cards),
    )
    known = _MELDS.get(key)
    if known is not None:
        return Meld(_KINDS[known[0]], tuple(cards[index] for index in known[1:]))
    kind, reading = _analyse(cards, wild_rank, rules)
    if reading is not None:
        ordered = _lay_out_run(cards, reading)
    else:
        ordered = sorted(cards, key=lambda card: (is_wild(card, wild_rank), card.sort_key))
    left = list(range(len(cards)))
    order = []
    for card in ordered:
        index = next(i for i in left if cards[i] == card)
        left.remove(index)
        order.append(index)
    if len(_MELDS) >= _MELDS_LIMIT:
        _MELDS.clear()
    _MELDS[key] = (_KINDS.index(kind), *order)
    return Meld(kind, tuple(ordered))


# Why a show fails, as `judge_groups` tells it: each a template, so that a reason kept in an
# event log in English can be read back into its values and shown in another language
# (`bot.present.show_reasons`).
TOO_FEW = N_("a group needs at least 3 cards")
JOKERS_ALONE = N_("a group cannot be made of printed jokers alone")
SET_TOO_BIG = N_("a set holds at most {count} cards")
SET_SUITS = N_("a set needs cards of different suits")
SEQUENCE_SUITS = N_("a sequence needs cards of one suit")
ONE_JOKER = N_("a sequence may use only one joker")
NOT_CONSECUTIVE = N_("its cards are not consecutive")
CARD_COUNT = N_("A declaration needs {needed} cards in groups; these groups hold {size}.")
NOT_PURE = N_("You need a pure sequence: {cards} is not one.")
USES_JOKER = N_("You need a pure sequence: {cards} uses a joker.")
NO_PURE = N_("You need a pure sequence.")
NO_SECOND = N_("You need a second sequence.")
NO_LONG = N_("One of your two required sequences needs {count} or more cards.")
INVALID_GROUP = N_("{cards} is not a valid group: {why}.")
VALID = N_("Valid declaration.")
SHOW_REASONS = (
    TOO_FEW,
    JOKERS_ALONE,
    SET_TOO_BIG,
    SET_SUITS,
    SEQUENCE_SUITS,
    ONE_JOKER,
    NOT_CONSECUTIVE,
    CARD_COUNT,
    NOT_PURE,
    USES_JOKER,
    NO_PURE,
    NO_SECOND,
    NO_LONG,
    INVALID_GROUP,
    VALID,
)


def why_invalid(cards: Sequence[Card], wild_rank: int | None, rules: Rules) -> str:
    """A short reason a player can act on, for a group `classify_group` refuses."""
    if len(cards) < 3:
        return TOO_FEW
    naturals = [card for card in cards if not is_wild(card, wild_rank)]
    if not naturals:
        if not rules.joker_only_groups and all(card.rank != wild_rank for card in cards):
            return JOKERS_ALONE
        return SET_TOO_BIG.format(count=rules.max_set_size)
    if len({card.rank for card in naturals}) == 1 and len(naturals) > 1:
        if len({card.suit for card in naturals}) != len(naturals):
            return SET_SUITS
        return SET_TOO_BIG.format(count=rules.max_set_size)
    if len({card.suit for card in naturals}) > 1:
        return SEQUENCE_SUITS
    if _run_reading(cards, wild_rank) is not None and rules.one_joker_per_impure_sequence:
        return ONE_JOKER
    return NOT_CONSECUTIVE


# ------------------------------------------------------------------ life and points


def life_met(pure: int, sequences: int, has_long: bool, rules: Rules) -> bool:
    """First life (a pure sequence) plus second life (any other sequence), and with the
    four-card rule one of the two with 4+ cards. Any sequence of 4+ cards will do as that one:
    if it is pure it pairs with any other sequence, and if it is impure with the pure one."""
    return pure >= 1 and sequences >= 2 and (has_long or not rules.require_four_card_life)


def uncapped_points(
    *, all_points: int, ungrouped: int, outside_sequences: int, life: bool, pure: int, rules: Rules
) -> int:
    """Melded cards only go uncounted once the lives are there (cards in sets only where
    `sets_protected`); some tables let a pure sequence alone protect the sequences."""
    if life:
        return ungrouped if rules.sets_protected else outside_sequences
    if rules.pure_sequence_protects and pure >= 1:
        return outside_sequences
    return all_points


def charged_points(
    *, all_points: int, ungrouped: int, outside_sequences: int, life: bool, pure: int, rules: Rules
) -> int:
    """`uncapped_points` after the score cap: what a hand actually pays."""
    points = uncapped_points(
        all_points=all_points,
        ungrouped=ungrouped,
        outside_sequences=outside_sequences,
        life=life,
        pure=pure,
        rules=rules,
    )
    return min(points, rules.score_cap)


def judge_groups(
    groups: Sequence[Sequence[Card]], wild_rank: int | str | None, rules: Rules = STANDARD_RULES
) -> Judgement:
    """Judges exactly the arrangement given, as a show is judged: the cards of a group that is
    not a meld count as unmatched, and `reason` tells the player what to fix first."""
    wild = wild_rank_of(wild_rank)
    kinds = tuple(classify_group(group, wild, rules) for group in groups)

    def points_of(selected: Sequence[Sequence[Card]]) -> int:
        return sum(card_points(card, wild, rules.ace_points) for group in selected for card in group)

    pure = kinds.count(GroupKind.PURE_SEQUENCE)
    sequences = pure + kinds.count(GroupKind.IMPURE_SEQUENCE)
    has_long = any(kind.is_sequence and len(g) >= LONG_LIFE for kind, g in zip(kinds, groups, strict=True))
    life = life_met(pure, sequences, has_long, rules)
    invalid = [group for kind, group in zip(kinds, groups, strict=True) if kind is GroupKind.INVALID]
    points = charged_points(
        all_points=points_of(groups),
        ungrouped=points_of(invalid),
        outside_sequences=points_of([g for k, g in zip(kinds, groups, strict=True) if not k.is_sequence]),
        life=life,
        pure=pure,
        rules=rules,
    )
    size = sum(len(group) for group in groups)
    reason = _reason(groups, kinds, invalid, size, wild, rules, pure, sequences, life)
    valid = not invalid and life and size == CARDS_PER_HAND
    charged = tuple(
        points_of([group]) if _charged(kind, life, pure, rules) else 0
        for kind, group in zip(kinds, groups, strict=True)
    )
    return Judgement(valid=valid, points=points, kinds=kinds, reason=reason, group_points=charged)


def _charged(kind: GroupKind, life: bool, pure: int, rules: Rules) -> bool:
    """Whether a group of this kind counts against its hand: the per-group form of
    `uncapped_points`, for labels that show what each group costs."""
    if kind is GroupKind.INVALID:
        return True
    if life:
        return kind is GroupKind.SET and not rules.sets_protected
    if rules.pure_sequence_protects and pure >= 1:
        return not kind.is_sequence
    return True


def _reason(
    groups: Sequence[Sequence[Card]],
    kinds: tuple[GroupKind, ...],
    invalid: list[Sequence[Card]],
    size: int,
    wild: int | None,
    rules: Rules,
    pure: int,
    sequences: int,
    life: bool,
) -> str:
    """The first thing a player must fix, in the order the rule pages teach it: the card
    count, the first life (the rule players most often miss), the second life, then any group
    that is not a meld."""
    if size != CARDS_PER_HAND:
        return CARD_COUNT.format(needed=CARDS_PER_HAND, size=size)
    if pure == 0:
        one_suit = [g for g in invalid if len({c.suit for c in g if not is_wild(c, wild)}) == 1]
        if one_suit:
            return NOT_PURE.format(cards=pretty_cards(one_suit[0]))
        impure = [g for k, g in zip(kinds, groups, strict=True) if k is GroupKind.IMPURE_SEQUENCE]
        if impure:
            return USES_JOKER.format(cards=pretty_cards(impure[0]))
        return NO_PURE
    if sequences < 2:
        return NO_SECOND
    if not life:
        return NO_LONG.format(count=LONG_LIFE)
    if invalid:
        group = invalid[0]
        return INVALID_GROUP.format(cards=pretty_cards(group), why=why_invalid(group, wild, rules))
    return VALID
