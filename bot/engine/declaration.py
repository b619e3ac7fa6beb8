"""The show a seat would make now: the one answer every front end and the computer players ask.

A player arranges their cards in groups; to declare, one card goes to the finish slot and the
rest are shown as arranged. Which card that is decides whether the show is valid, so it is
chosen here, once: the card whose removal leaves the arrangement judged best (valid first,
then the fewest points charged), never one the rules keep from being let go (the card just
taken from the open pile), and from the later groups when two are as good, so that a
deliberate arrangement keeps its melds. Where the rules allow a 13-card show at one's first
turn (004), the 13 cards are shown as they are, with no finish card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.engine.cards import Card
from bot.engine.commands import Declare
from bot.engine.deal import Phase, SeatView
from bot.engine.errors import IllegalActionError
from bot.engine.melds import judge_groups
from bot.engine.solver import Arrangement, best_arrangement


def best_declaration(
    view: SeatView, groups: Sequence[Sequence[Card]] | None = None, finish: Card | None = None
) -> Declare:
    """The `Declare` this seat would play now, from its own `groups` (every card of its hand,
    each once) or, without them, from the solver's best arrangement; `finish` is a finish card
    the player chose (taken from the group where it is missed least). Refuses, in words for the
    player, when the seat may not declare now or the groups are not its hand."""
    if view.seat is None or not view.can_declare:
        raise IllegalActionError("You can declare only on your turn, after picking a card.")
    if groups is None:
        groups = _solved_groups(view, finish)
    arranged = [tuple(group) for group in groups]
    if Counter(card for group in arranged for card in group) != Counter(view.hand):
        raise IllegalActionError("Your groups must hold exactly the cards in your hand, each once.")
    if view.phase is Phase.PICK:  # a show before any pick: the 13 cards as they are
        if finish is not None:
            raise IllegalActionError("A show before picking has no finish card: all 13 cards are shown.")
        return Declare(view.seat, tuple(group for group in arranged if group), None)
    best: tuple[tuple[bool, int, int], tuple[tuple[Card, ...], ...], Card] | None = None
    for index, group in enumerate(arranged):
        for place, card in enumerate(group):
            if not view.may_let_go(card) or finish not in (None, card):
                continue
            rest = [*arranged[:index], group[:place] + group[place + 1 :], *arranged[index + 1 :]]
            shown = tuple(g for g in rest if g)
            judged = judge_groups(shown, view.wild_rank, view.rules)
            rank = (not judged.valid, judged.points, -index)
            if best is None or rank < best[0]:
                best = (rank, shown, card)
    if best is None and finish is not None:
        raise IllegalActionError("{card} cannot go to the finish slot now.", card=finish.pretty)
    if best is None:
        raise IllegalActionError("None of your cards may go to the finish slot now.")
    return Declare(view.seat, best[1], best[2])


def _solved_groups(view: SeatView, finish: Card | None) -> list[tuple[Card, ...]]:
    """The solver's arrangement of the hand, its discard last. The solver knows nothing of the
    card just taken from the open pile, nor of a finish card the player named: where its discard
    is not a card that may finish, each one that may is tried instead, with the best arrangement
    of the 13 cards it leaves (valid first, then the fewest points), so that a show the open card
    completed is not missed and a named finish card leaves the rest arranged at their best."""
    best = best_arrangement(view.hand, view.wild_rank, view.rules)
    if best.discard is None or (view.may_let_go(best.discard) and finish in (None, best.discard)):
        return arrangement_groups(best)
    found: tuple[tuple[bool, int], list[tuple[Card, ...]]] | None = None
    for card in sorted(set(view.hand), key=lambda card: card.sort_key):
        if not view.may_let_go(card) or finish not in (None, card):
            continue
        rest = list(view.hand)
        rest.remove(card)
        arranged = best_arrangement(rest, view.wild_rank, view.rules)
        rank = (not arranged.valid, arranged.points)
        if found is None or rank < found[0]:
            found = (rank, [*arrangement_groups(arranged), (card,)])
    return found[1] if found is not None else arrangement_groups(best)


def arrangement_groups(best: Arrangement) -> list[tuple[Card, ...]]:
    """The solver's melds, then its loose cards and its discard as one last group."""
    loose = (*best.ungrouped, *((best.discard,) if best.discard is not None else ()))
    return [*(meld.cards for meld in best.groups), *((loose,) if loose else ())]
