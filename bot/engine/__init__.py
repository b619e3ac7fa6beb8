"""The rules of Indian 13-card Rummy: pure, synchronous and deterministic given a `random.Random`.

Nothing here imports Discord, databases, images or asyncio (a test checks this), so every front
end, the store and the simulations share one exact implementation of the rules.
"""

from bot.engine.cards import JOKER, Card, Suit, format_cards, parse_card, parse_cards
from bot.engine.errors import CardNotationError, IllegalActionError, RulesError, RummyError
from bot.engine.melds import GroupKind, Judgement, Meld, judge_groups
from bot.engine.rules import ClosedDeckEmpty, Rules
from bot.engine.solver import Arrangement, best_arrangement

__all__ = [
    "JOKER",
    "Arrangement",
    "Card",
    "CardNotationError",
    "ClosedDeckEmpty",
    "GroupKind",
    "IllegalActionError",
    "Judgement",
    "Meld",
    "Rules",
    "RulesError",
    "RummyError",
    "Suit",
    "best_arrangement",
    "format_cards",
    "judge_groups",
    "parse_card",
    "parse_cards",
]
