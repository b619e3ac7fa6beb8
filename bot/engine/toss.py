"""The toss for who plays first in a deal: each contender draws a card, the highest leads (King
high, Ace low, as the apps rank cards) and the tied draw again; and the draws as stored."""

from __future__ import annotations

import random

from bot.engine.cards import Card, build_shoe, parse_card


def draw_for_first(contenders: list[int], rng: random.Random) -> tuple[int, list[dict[int, Card]]]:
    """Each contender draws from a fresh pack; the highest card leads (King high, Ace low, as
    the apps rank cards) and the tied draw again."""
    rounds: list[dict[int, Card]] = []
    while True:
        pack = build_shoe(1, 0)
        rng.shuffle(pack)
        drawn = {seat: pack.pop() for seat in contenders}
        rounds.append(drawn)
        best = max(card.rank for card in drawn.values())
        contenders = [seat for seat in contenders if drawn[seat].rank == best]
        if len(contenders) == 1:
            return contenders[0], rounds


def toss_json(toss: list[dict[int, Card]]) -> list[dict[str, str]]:
    return [{str(seat): card.code for seat, card in round_.items()} for round_ in toss]


def toss_from_json(raw: list[dict[str, str]]) -> list[dict[int, Card]]:
    return [{int(seat): parse_card(code) for seat, code in round_.items()} for round_ in raw]
