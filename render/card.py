"""One card on its own, e.g. for an embed thumbnail showing the open card or the cut joker."""

from __future__ import annotations

from bot.engine.cards import Card
from render.png import encode
from render.sprites import card_sprite


def render_card(card: Card, wild: bool = False, four_colour: bool = False, width: int = 260) -> bytes:
    """The card with its shadow on a transparent background (kept in full colour for the alpha)."""
    return encode(card_sprite(card, wild, four_colour, width), palette=False)
