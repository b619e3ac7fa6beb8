"""A shuffle anyone can check: the deck's order is committed to before the first card is dealt.

When a deal starts, players see `sha256(salt | order)`; when it ends, the order and the salt are
revealed, and anyone can recompute the hash (here, with `/rummy verify`, or with any sha256
tool) to confirm that the deck was fixed in advance. The salt stops anyone from guessing the
order from the hash by trying orders; a reshuffle of the open pile gets its own commitment.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from bot.engine.cards import Card, format_cards

PREFIX = "rummy-bot shuffle v1"


def commitment_text(salt: str, order: Sequence[Card], label: str = "deal") -> str:
    """The exact text that is hashed: shown with the reveal so people can hash it themselves."""
    return f"{PREFIX}|{label}|{salt}|{format_cards(order)}"


def commit(salt: str, order: Sequence[Card], label: str = "deal") -> str:
    return hashlib.sha256(commitment_text(salt, order, label).encode()).hexdigest()


def verify(digest: str, salt: str, order: Sequence[Card], label: str = "deal") -> bool:
    return commit(salt, order, label) == digest.strip().lower()


def new_salt(bits: int) -> str:
    """A salt from the deal's random source (a system CSPRNG in play) as hex text."""
    return format(bits, "032x")
