"""Building deals with chosen cards, and playing random legal moves, for the deal tests."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Sequence

from bot.engine.cards import Card, build_shoe, parse_cards
from bot.engine.deal import Deal, Phase, Source
from bot.engine.errors import IllegalActionError
from bot.engine.rules import Rules


def stacked_shoe(
    rules: Rules,
    hands: Sequence[str],
    open_card: str,
    cut_joker: str | None,
    closed_top: str = "",
    first_player: int = 0,
) -> list[Card]:
    """A shoe that deals `hands` (seat order), then the open card, the cut joker and
    `closed_top` (first drawn first); the rest of the cards follow in a fixed order."""
    players = len(hands)
    wanted = [parse_cards(hand) for hand in hands]
    order: list[Card] = []
    for index in range(13):
        for offset in range(players):
            order.append(wanted[(first_player + offset) % players][index])
    order += parse_cards(open_card)
    if cut_joker:
        order += parse_cards(cut_joker)
    order += parse_cards(closed_top)
    rest = Counter(build_shoe(rules.decks_for(players), rules.printed_jokers_for(players)))
    rest.subtract(order)
    assert all(count >= 0 for count in rest.values()), "the stacked cards are not in the shoe"
    return order + sorted(rest.elements(), key=lambda card: card.sort_key)


def stacked_deal(
    rules: Rules, hands: Sequence[str], open_card: str, cut_joker: str | None, closed_top: str = ""
) -> Deal:
    shoe = stacked_shoe(rules, hands, open_card, cut_joker, closed_top)
    deal, _ = Deal.start(len(hands), rules, random.Random(1), first_player=0, shoe=shoe)
    return deal


def random_command(deal: Deal, rng: random.Random, chaos: float = 1.0) -> dict:
    """A random command for the player to act, the way a careless human plays. `chaos` scales
    how often they time out, leave, drop or show a random hand (0: only pick and discard)."""
    seat = deal.turn
    roll = rng.random() / max(chaos, 1e-9)
    if roll < 0.02:
        return {"command": "timeout", "seat": seat}
    if roll < 0.03:
        return {"command": "leave", "seat": rng.randrange(deal.players)}
    if deal.phase is Phase.PICK:
        if roll < 0.05 and deal.can_declare(seat):  # a 13-card show before any pick (004)
            return _random_show(seat, list(deal.seats[seat].hand), None)
        if roll < 0.06 and deal.can_drop(seat):
            return {"command": "drop", "seat": seat}
        source = Source.OPEN if rng.random() < 0.4 and deal.can_pick(seat, Source.OPEN) else Source.CLOSED
        return {"command": "pick", "seat": seat, "source": source.value}
    hand = deal.seats[seat].hand
    if roll < 0.05:
        finish = rng.choice(hand)
        rest = list(hand)
        rest.remove(finish)
        return _random_show(seat, rest, finish)
    choices = [card for card in hand if deal.can_discard(seat, card)]
    return {"command": "discard", "seat": seat, "card": rng.choice(choices).code}


def _random_show(seat: int, cards: list[Card], finish: Card | None) -> dict:
    groups = [cards[i : i + 3] for i in range(0, 12, 3)]
    groups[-1] += cards[12:]
    return {
        "command": "declare",
        "seat": seat,
        "groups": [_codes(g) for g in groups],
        "finish": finish.code if finish else None,
    }


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(card.code for card in cards)


def ended_deal(seed: int, rules: Rules | None = None) -> Deal:
    """A three-player deal played to its end by careless random players."""
    rng = random.Random(seed)
    deal, _ = Deal.start(3, rules or Rules(), rng)
    while deal.phase is not Phase.OVER:
        with contextlib.suppress(IllegalActionError):  # a careless player's move, refused
            deal.apply(random_command(deal, rng, 0.5))
    return deal
