"""`best_arrangement`, the solver's entry point, and a 14-card hand's choice of discard.

A 14-card hand could ask for a search per discard; most of what is here is there to skip them:
a floor from the 14 cards' own arrangement, a discard whose price is known without a search,
and one search for every discard that could leave a show.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from bot.engine.cards import Card, card_points
from bot.engine.melds import STANDARD_RULES, wild_rank_of
from bot.engine.rules import CARDS_PER_HAND, Rules
from bot.engine.solver.arrangement import Arrangement
from bot.engine.solver.assessment import (
    _INFINITE,
    _MOST_POINTS,
    _arrangement,
    _assess,
    _Assessment,
    _discard_floor,
    _lay_out,
    _loose_discard,
)
from bot.engine.solver.search import _Search


def best_arrangement(
    cards: Sequence[Card], wild_rank: int | str | None, rules: Rules = STANDARD_RULES
) -> Arrangement:
    """The arrangement charged the fewest points. With 14 cards (a turn's pick made) it also
    chooses the discard: a valid show first, then the fewest points left, then the costliest
    card out of the hand (then the first in sorted order).

    The 14 cards' own cheapest arrangement (`_discard_floor`) bounds every discard: none leaves
    less than its price less the discard's points, which ends the search once no cheaper
    discard can beat the best found, and the costliest card it leaves unmatched is a discard
    whose points are known without a search (`_loose_discard`). Any show beats any points.
    Where a show is charged nothing, only a discard worth what that arrangement leaves out can
    show: when the known discard is charged something, those all come before it in the order
    and are searched there anyway, so the first of them that shows wins; else one search finds
    the discards that could leave a show (`_Search.show_discards`) and the first of them that
    shows wins. Where cards in sets count against a hand (home rules) a show with every card in
    a sequence is charged nothing, and the first discard that leaves one wins, found the same
    way; else the show charged least wins, weighed one by one like the points below, and the
    14 cards' cheapest arrangement with both lives is looked for with sets free too, to bound
    the discards that could show (a discard that leaves a show leaves only itself out of such
    an arrangement).
    When no discard shows, every discard is weighed against the best found so far, costliest
    first, and only an arrangement that would beat it is looked for (a bound that lets each
    search skip most of its work): one that comes before the best in that order wins a tie,
    one that comes after must be charged strictly less, and where sets are free a discard that
    cannot leave all 13 cards melded is not searched to beat a hand charged 1 point or less (a
    hand with no possible life stops after its first discard)."""
    wild = wild_rank_of(wild_rank)
    cards = list(cards)
    if len(cards) != CARDS_PER_HAND + 1:
        return _arrangement(_assess(cards, wild, rules), None)
    ace = rules.ace_points
    order = sorted(set(cards), key=lambda card: (-card_points(card, wild, ace), card.sort_key))
    search = _Search(cards, wild, rules)
    floor, least, cheapest = _discard_floor(search)
    whole: set[Card] | None = None
    if rules.sets_protected:
        known = _loose_discard(search, cheapest, order)
        if known is None or floor == card_points(order[known], wild, ace):
            whole = search.show_discards(least)
            # A show is then charged nothing: the first discard in the order that leaves one wins.
            for discard in order:
                if discard in whole:
                    assessment = _assess(_without_card(cards, discard), wild, rules, 1)
                    if assessment.valid:
                        return _arrangement(assessment, discard)
    else:
        # A show with every card in a sequence is charged nothing, so the first discard in the
        # order that leaves one wins; one search finds the discards that could.
        in_sequences = search.show_discards(least, with_sets=False)
        for discard in order:
            if discard in in_sequences:
                assessment = _assess(_without_card(cards, discard), wild, rules, 1)
                if assessment.valid:
                    return _arrangement(assessment, discard)
        # The 14 cards' least deadwood with both lives, sets free, if a card could be worth it
        # (see `show_discards`); their cheapest arrangement is looked for without sets here.
        melded = None
        if search.life_possible():
            melded = search.cheapest(search.life_config, search.life_goal, _MOST_POINTS + 1)
        whole = search.show_discards(melded.deadwood if melded is not None else _MOST_POINTS + 1)
        shown = _cheapest_show(search, floor, [(i, d) for i, d in enumerate(order) if d in whole])
        if shown is not None:
            return _arrangement(shown[0], order[shown[1]])
        known = _loose_discard(search, cheapest, order)
    # No discard leaves a show but perhaps those before the known one (`whole` is then None).
    # Where sets are free and no pure sequence protects alone, 13 cards worth anything are
    # charged nothing only if they all meld: a discard outside `whole` leaves points.
    needs_whole = whole if rules.sets_protected and not rules.pure_sequence_protects else None
    best: _Assessment | None = None
    best_points, best_index = _INFINITE, len(order)
    if known is not None:  # its points are known: the best so far, to be assessed if it stays so
        best_points = min(floor - card_points(order[known], wild, ace), rules.score_cap)
        best_index = known
    for index, discard in enumerate(order):
        if index == known:
            continue  # charged `best_points` (nothing before it beat that) or more (one did)
        before = index < best_index  # comes first in the order: wins a tie
        # A discard before the best in the order needs no more points to win, one after it less
        # (and at most 0 to beat a hand charged nothing, which may still not show).
        bound = best_points + 1 if before else max(best_points, 1)
        points = card_points(discard, wild, ace)
        if min(floor - points, rules.score_cap) >= bound:
            break  # this discard and every cheaper one (in the order) leave at least the best found
        if (
            bound <= 1
            and needs_whole is not None
            and discard not in needs_whole
            and search.hand.all_points > points
        ):
            continue  # it leaves points, and only 0 would win
        assessment = _assess(_without_card(cards, discard), wild, rules, bound)
        if assessment.valid and whole is None:
            return _arrangement(assessment, discard)  # the first show in the order (see above)
        if (assessment.points, index) < (best_points, best_index):
            best, best_points, best_index = assessment, assessment.points, index
    discard = order[best_index]
    if best is not None:
        return _arrangement(best, discard)
    if cheapest is not None and best_points < rules.score_cap:
        # The known discard: the 14 cards' cheapest arrangement less that card, no show (any
        # would have won above), laid out when read.
        lay_out = partial(_lay_out, tuple(cards), wild, rules, cheapest, discard)
        return Arrangement._deferred(False, best_points, discard, lay_out)
    return _arrangement(_assess(_without_card(cards, discard), wild, rules, best_points + 1), discard)


def _without_card(cards: list[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


def _cheapest_show(
    search: _Search, floor: int, tries: list[tuple[int, Card]]
) -> tuple[_Assessment, int] | None:
    """Of the 14 cards' discards `tries` (index in the discard order, card), the one whose show
    is charged least (the first in the order on a tie), as (its assessment, its index); None
    when none of them leaves a show. Each is searched only for a show that would beat the best
    so far, and none once the 14 cards' `floor` less the discard's points (`_discard_floor`)
    reaches that: the discards come costliest first, so every later one leaves as much."""
    cards, wild, rules = list(search.hand.cards), search.hand.wild, search.rules
    best: tuple[_Assessment, int] | None = None
    for index, discard in tries:
        bound = _INFINITE if best is None else best[0].points
        if bound == 0 or (
            bound < _INFINITE and floor - card_points(discard, wild, rules.ace_points) >= bound
        ):
            break
        assessment = _assess(_without_card(cards, discard), wild, rules, bound)
        if assessment.valid and assessment.points < bound:
            best = assessment, index
    return best
