"""From a winning choice to the melds a player sees: groups with their jokers, in display order.

A show must place every spare joker, which the points never ask, so this is also where a hand
that shows by its points may turn out unable to (and is searched again exactly, `_Search.exact`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import JOKER_RANK, SUITS, Card, is_wild
from bot.engine.melds import MAX_SEQUENCE, GroupKind, Meld, make_meld
from bot.engine.rules import Rules
from bot.engine.solver.counts import _card_at
from bot.engine.solver.hand_search import _Hand
from bot.engine.solver.search import _Best, _joker_only_sizes, _Search


@dataclass(slots=True)
class _Group:
    """A group being built: its natural cards, the jokers it takes, and how many more fit."""

    naturals: list[Card]
    jokers: int
    room: int
    pure_run: bool = False


def _plan(hand: _Hand, best: _Best, rules: Rules) -> tuple[list[_Group], list[Card], list[Card]]:
    """Turns a winning table entry into groups (still without their jokers), unmatched
    cards, and the jokers free to place."""
    groups: list[_Group] = []
    loose: list[Card] = []
    pool = [card for card in hand.cards if card.rank == JOKER_RANK]
    one_joker = rules.one_joker_per_impure_sequence
    for suit, descriptor in best.groups(hand.pool):
        tag = descriptor[0]
        if tag == "loose":
            loose.append(_card_at(descriptor[1], suit))
        elif tag == "free":
            pool.append(_card_at(descriptor[1], suit))
        elif tag == "triplet":
            groups.append(_Group([_card_at(descriptor[1], suit)] * 3, 0, 0, True))
        elif tag == "lone":
            groups.append(
                _Group([_card_at(descriptor[1], suit)], descriptor[2], rules.max_set_size - 1 - descriptor[2])
            )
        else:
            _, chosen, substitutes = descriptor
            size = len(chosen) + substitutes
            if one_joker:
                room = min(1, MAX_SEQUENCE - size) if substitutes == 0 else 0
            else:
                room = MAX_SEQUENCE - size
            groups.append(_Group([_card_at(p, suit) for p in chosen], substitutes, room, substitutes == 0))
    for rank, mask, need, most in best.sets:
        naturals = [Card(rank, SUITS[s]) for s in range(4) if mask >> s & 1]
        groups.append(_Group(naturals, need, most - need))
    return groups, loose, pool


def _place_spares(groups: list[_Group], spare: int, rules: Rules, pool: list[Card]) -> list[int] | None:
    """Spreads spare jokers over the groups' room (a pure run may take some as long as one
    pure run stays pure), else into groups of wild cards alone; returns those groups' sizes, or
    None when the spares cannot all be placed. Groups take printed jokers first (see `_melds`),
    so the wild-rank cards of `pool` are the last spares, there to be themselves in such sets."""
    if spare == 0:
        return []
    pure_runs = [g for g in groups if g.pure_run]
    keep = min(pure_runs, key=lambda g: g.room) if pure_runs else None
    open_groups = [g for g in groups if g is not keep and g.room > 0]
    room = sum(g.room for g in open_groups)
    anchors = sum(card.rank != JOKER_RANK for card in pool)
    for joker_only in _joker_only_sizes(rules, len(pool), anchors):
        if joker_only <= spare and spare - joker_only <= room:
            left = spare - joker_only
            for group in open_groups:
                take = min(left, group.room)
                group.jokers += take
                left -= take
            return _split_joker_only(joker_only, rules)
    return None


def _split_joker_only(total: int, rules: Rules) -> list[int]:
    """Group sizes (3 to the largest set) that add up to `total`, as few as can be."""
    possible = set(_joker_only_sizes(rules.replace(joker_only_groups=True), total, anchors=0))
    sizes = []
    while total:
        size = next(n for n in range(min(rules.max_set_size, total), 2, -1) if total - n in possible)
        sizes.append(size)
        total -= size
    return sizes


def _melds(
    groups: list[_Group],
    loose: list[Card],
    pool: list[Card],
    joker_only: list[int],
    wild: int | None,
    rules: Rules,
    plank: bool = False,
) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """Hands each group its jokers and orders everything for display. Printed jokers go first
    and wild cards of another suit before those of the run's own suit, so a joker is seen where
    the solver meant it; a group of wild cards alone leads with a card of the wild rank, itself.
    With `plank`, the jokers left over lie on a plank of their own (a show's unused jokers)."""
    melds = []
    for group in groups:
        if group.jokers:
            suit = group.naturals[0].suit
            pool.sort(key=lambda card: (card.rank != JOKER_RANK, card.suit == suit))
            cards = group.naturals + pool[: group.jokers]
            del pool[: group.jokers]
        else:
            cards = group.naturals
        melds.append(make_meld(cards, wild, rules))
    for size in joker_only:
        pool.sort(key=lambda card: card.rank == JOKER_RANK)
        anchor = pool.pop(0)
        pool.sort(key=lambda card: card.rank != JOKER_RANK)
        melds.append(make_meld([anchor, *pool[: size - 1]], wild, rules))
        del pool[: size - 1]
    if plank and pool:
        melds.append(make_meld(pool, wild, rules))
        pool = []
    melds.sort(key=lambda meld: (_KIND_ORDER[meld.kind], [card.sort_key for card in meld.cards]))
    ungrouped = sorted(loose + pool, key=lambda card: (is_wild(card, wild), card.sort_key))
    return tuple(melds), tuple(ungrouped)


_KIND_ORDER = {
    GroupKind.PURE_SEQUENCE: 0,
    GroupKind.IMPURE_SEQUENCE: 1,
    GroupKind.SET: 2,
    GroupKind.SPARE_JOKERS: 3,
    GroupKind.INVALID: 4,
}


def _complete_show(search: _Search, life: _Best) -> tuple[tuple[Meld, ...], tuple[Card, ...]] | None:
    """Every card of a zero-deadwood hand in a group, spare jokers included, or None when the
    spares fit nowhere in any arrangement (so the hand cannot be declared)."""
    hand, rules = search.hand, search.rules
    groups, loose, pool = _plan(hand, life, rules)
    if rules.spare_jokers_plank:
        return _melds(groups, loose, pool, [], hand.wild, rules, plank=True)
    spare = hand.printed - life.jokers - sum(s[2] for s in life.sets)
    joker_only = _place_spares(groups, spare, rules, pool)
    if joker_only is None:
        exact = search.exact()
        if exact is None:
            return None
        show, set_jokers, joker_only_total = exact
        groups, loose, pool = _plan(hand, show, rules)
        left = set_jokers - sum(s[2] for s in show.sets)
        for group in groups[len(groups) - len(show.sets) :]:
            take = min(left, group.room)
            group.jokers += take
            left -= take
        joker_only = _split_joker_only(joker_only_total, rules)
    return _melds(groups, loose, pool, joker_only, hand.wild, rules)
