"""What a hand is charged, and the answer built from it, its groups laid out when first read.

The points come from the rules' own pricing (`uncapped_points`) of the cheapest arrangement
with both lives and, where a pure sequence protects, of the cheapest with one. Most hands are
priced by far faster than their groups are found, so an answer defers those (`_arrangement`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from bot.engine.cards import Card
from bot.engine.melds import Meld, uncapped_points
from bot.engine.rules import Rules
from bot.engine.solver.arrangement import Arrangement
from bot.engine.solver.counts import _card_at
from bot.engine.solver.hand_search import _Hand
from bot.engine.solver.layout import _complete_show, _melds, _plan
from bot.engine.solver.life import _ANY_CODE, _HAS_PURE, _decode
from bot.engine.solver.search import _Best, _Search

_INFINITE = 1 << 30
_MOST_POINTS = 10  # what a card is worth at most (the rules let an Ace be worth up to 10)


@dataclass(slots=True)
class _Assessment:
    """What a hand is charged, before anything is laid out for display."""

    search: _Search
    points: int
    valid: bool
    life: _Best | None
    protect: _Best | None
    show: tuple[tuple[Meld, ...], tuple[Card, ...]] | None  # the complete show, when valid

    def priced(self, best: _Best | None, life: bool) -> int:
        """The rule for what counts lives in melds; each kind of best arrangement is priced by it."""
        hand = self.search.hand
        if best is None:
            return hand.all_points
        return uncapped_points(
            all_points=hand.all_points,
            ungrouped=best.deadwood,
            outside_sequences=best.deadwood,
            life=life,
            pure=_decode(best.code)[0],
            rules=self.search.rules,
        )


def _assess(cards: Sequence[Card], wild: int | None, rules: Rules, bound: int = _INFINITE) -> _Assessment:
    """Prices a hand. With a `bound`, arrangements charged `bound` or more are not looked for:
    the points are then exact only when below it (the discard search needs no more)."""
    search = _Search(cards, wild, rules)
    life, protect = _cheapest_kinds(search, min(search.hand.all_points, rules.score_cap, bound))
    show = _show(search, life)
    assessment = _Assessment(search, 0, show is not None, life, protect, show)
    raw = min(assessment.priced(life, True), assessment.priced(protect, False), search.hand.all_points)
    assessment.points = min(raw, rules.score_cap)
    return assessment


def _cheapest_kinds(search: _Search, limit: int) -> tuple[_Best | None, _Best | None]:
    """The least deadwood below `limit` with both lives, and (on tables where a pure sequence
    protects the runs) with a pure sequence: the two ways a hand can pay less than every card."""
    life = None
    if search.life_possible():
        life = search.cheapest(
            search.life_config, search.life_goal, limit, with_sets=search.rules.sets_protected
        )
    protect = None
    if search.rules.pure_sequence_protects and (search.hand.runs_possible()[0] or search.triplet_possible()):
        protect_limit = life.deadwood if life is not None else limit
        protect = search.cheapest(search.protect_config, _HAS_PURE, protect_limit, with_sets=False)
    return life, protect


def _discard_floor(search: _Search) -> tuple[int, int, _Best | None]:
    """What the 14 cards themselves would be charged, uncapped, the fewest points a card worth
    leaving out for a show must have, and the arrangement charged that (None when it is every
    card). Keeping 13 of them and leaving out card `d` is one way to arrange the 14 with `d`
    unmatched, so no discard can leave less than this floor minus `d`'s points: once discards
    tried costliest first reach that, none after them can do better. A discard that leaves a
    show leaves only itself out of an arrangement with both lives, so it is worth at least the
    least deadwood of those; where cards in sets count against a hand, that arrangement was
    looked for without sets, and bounds only the discards that leave every card in a sequence."""
    hand = search.hand
    assessment = _Assessment(search, 0, False, *_cheapest_kinds(search, hand.all_points), None)
    floor = min(
        assessment.priced(assessment.life, True),
        assessment.priced(assessment.protect, False),
        hand.all_points,
    )
    if not hand.all_points:
        least = 0
    else:
        least = assessment.life.deadwood if assessment.life is not None else hand.all_points
    return floor, least, _chosen(assessment)


def _loose_discard(search: _Search, floor: _Best | None, order: list[Card]) -> int | None:
    """The index in `order` of the first card the 14 cards' cheapest arrangement (`floor`, see
    `_discard_floor`) leaves unmatched, or None. That arrangement less the card is one of the 13
    others, charged the floor minus the card's points, and no discard of no more points can
    leave less (`_discard_floor`): so that discard's points are known without a search, and
    every discard tried before it is searched only for what would beat them."""
    if floor is None or not floor.deadwood:
        return None
    loose = {
        _card_at(descriptor[1], suit)
        for suit, descriptor in floor.groups(search.hand.pool)
        if descriptor[0] == "loose"
    }
    return next((index for index, card in enumerate(order) if card in loose), None)


def _show(search: _Search, life: _Best | None) -> tuple[tuple[Meld, ...], tuple[Card, ...]] | None:
    """The hand's complete show, if it has one. Where cards in sets count against a hand (home
    rules), the cheapest life was looked for without sets, so a show that needs them is looked
    for on its own: any arrangement with both lives and no deadwood."""
    if not search.rules.sets_protected and (life is None or life.deadwood):
        life = search.cheapest(search.life_config, search.life_goal, 1) if search.life_possible() else None
    if life is None or life.deadwood:
        return None
    return _complete_show(search, life)


def _arrangement(assessment: _Assessment, discard: Card | None) -> Arrangement:
    """The answer for an assessed hand; its groups are laid out when first read. The layout
    keeps only the cards and the winning choice, not the search (an answer kept unread in a
    cache then holds next to nothing for the garbage collector to walk)."""
    if assessment.show is not None:
        return Arrangement(True, assessment.points, *assessment.show, discard)
    search = assessment.search
    cards, wild = tuple(search.hand.cards), search.hand.wild
    lay_out = partial(_lay_out, cards, wild, search.rules, _chosen(assessment))
    return Arrangement._deferred(False, assessment.points, discard, lay_out)


def _chosen(assessment: _Assessment) -> _Best | None:
    """The arrangement the points came from, or None when the hand pays for every card."""
    raw = min(
        assessment.priced(assessment.life, True),
        assessment.priced(assessment.protect, False),
        assessment.search.hand.all_points,
    )
    life, protect = assessment.life, assessment.protect
    if life is not None and assessment.priced(life, True) == raw:
        return life
    if protect is not None and assessment.priced(protect, False) == raw:
        return protect
    return None


def _lay_out(
    cards: tuple[Card, ...],
    wild: int | None,
    rules: Rules,
    chosen: _Best | None,
    left_out: Card | None = None,
) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """The groups of the arrangement the points came from. A hand that pays for every card
    shows the melds that leave the least deadwood, so the player sees their progress. With
    `left_out`, `chosen` arranges these cards and that one of its unmatched cards is not shown
    (a 14-card hand's discard, see `best_arrangement`)."""
    if chosen is None:
        search = _Search(cards, wild, rules)
        hand = search.hand
        chosen = search.cheapest(search.any_config, _ANY_CODE, _INFINITE)
        if chosen is None:
            return (), cards
    else:
        hand = _Hand(cards, wild, rules.ace_points)
    groups, loose, pool = _plan(hand, chosen, rules)
    if left_out is not None:
        loose.remove(left_out)
    return _melds(groups, loose, pool, [], wild, rules)
