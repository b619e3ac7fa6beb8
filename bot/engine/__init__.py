"""The rules of Indian 13-card Rummy: pure, synchronous and deterministic given a `random.Random`.

Nothing here imports Discord, databases, images or asyncio (a test checks this), so every front
end, the store and the simulations share one exact implementation of the rules.
"""

from bot.engine.cards import JOKER, Card, Suit, format_cards, parse_card, parse_cards
from bot.engine.errors import CardNotationError, IllegalActionError, RulesError, RummyError
from bot.engine.rules import ClosedDeckEmpty, Rules

__all__ = [
    "JOKER",
    "Card",
    "CardNotationError",
    "ClosedDeckEmpty",
    "IllegalActionError",
    "Rules",
    "RulesError",
    "RummyError",
    "Suit",
    "format_cards",
    "parse_card",
    "parse_cards",
]
