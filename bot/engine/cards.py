"""Cards and their one text notation (`AS`, `10H`, `QD`, `JK`), used in tests, logs, commands and storage.

Ranks are small ints (A=1 .. K=13, printed joker 0) because the solver indexes arrays by rank.
Identical cards from different decks are equal values: a hand is a multiset, and removing
`7H` removes any one of them, which is exactly how the game treats them.

There are only 53 different cards, so every card that is read or dealt is one of 53 shared
objects (`parse_card`, `build_shoe`): a resumed table's shoe, hands and piles cost a pointer a
card, not an object each (10,000 tables at rest hold some 2.5 million cards).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from bot.engine.errors import CardNotationError


class Suit(StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

JOKER_RANK = 0
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANK_LABELS: dict[int, str] = {1: "A", **{n: str(n) for n in range(2, 11)}, 11: "J", 12: "Q", 13: "K"}
_RANKS_BY_LABEL = {label: rank for rank, label in RANK_LABELS.items()}
_RANK_NAMES = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}


def rank_from_label(label: str) -> int:
    """Reads a rank such as `"7"`, `"10"` or `"a"` (case-insensitive); raises a player-readable error."""
    rank = _RANKS_BY_LABEL.get(label.strip().upper())
    if rank is None:
        raise CardNotationError(
            "'{label}' is not a rank: use A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q or K.", label=label
        )
    return rank


def rank_name(rank: int) -> str:
    """A rank in words for messages (`Ace`, `7`)."""
    return _RANK_NAMES.get(rank, RANK_LABELS.get(rank, "Joker"))


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. `suit` is None only for the printed joker (rank 0)."""

    rank: int
    suit: Suit | None
    # Derived once: cards are hashed and written out millions of times in a game's life.
    code: str = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rank == JOKER_RANK:
            if self.suit is not None:
                raise CardNotationError("A printed joker has no suit.")
            code = "JK"
        elif self.rank not in RANK_LABELS or self.suit is None:
            raise CardNotationError("A card needs a rank from A to K and a suit.")
        else:
            code = RANK_LABELS[self.rank] + self.suit.value
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "_hash", hash(code))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Callable[[str], Card], tuple[str]]:
        """Pickled as its code, and so looked up on arrival among the receiving process's own
        cards: the hash kept with it is of its code, a string, and another process (a computer
        player's worker) hashes strings with another seed, so a copied hash would make equal
        cards miss each other in sets."""
        return (parse_card, (self.code,))

    @property
    def is_printed_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def pretty(self) -> str:
        """A form for chat messages, e.g. `10♥` or `🃏`."""
        if self.suit is None:
            return "🃏"
        return RANK_LABELS[self.rank] + self.suit.symbol

    @property
    def sort_key(self) -> tuple[int, int]:
        """Suits in S H D C order then rank, jokers last: the order a player sorts a hand in."""
        if self.suit is None:
            return (len(SUITS), 0)
        return (SUITS.index(self.suit), self.rank)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


JOKER = Card(JOKER_RANK, None)
# One pack in suit then rank order, and every card by its code (the shared objects: see the module).
STANDARD_PACK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
_BY_CODE: dict[str, Card] = {card.code: card for card in (*STANDARD_PACK, JOKER)}
_BY_CODE["JOKER"] = JOKER


def parse_card(text: str) -> Card:
    """Reads one card in notation (`AS`, `10h`, `JK`), case-insensitive."""
    card = _BY_CODE.get(text) or _BY_CODE.get(text.strip().upper())
    if card is None:
        raise _not_a_card(text)
    return card


def _not_a_card(text: str) -> CardNotationError:
    """What is wrong with notation that names no card, in a player's words."""
    token = text.strip().upper()
    if len(token) < 2:
        return CardNotationError("'{text}' is not a card: write it like AS, 10H, QD or JK.", text=text)
    label, suit_letter = token[:-1], token[-1]
    if suit_letter not in {suit.value for suit in SUITS}:
        return CardNotationError(
            "'{text}' is not a card: the suit must be S, H, D or C (as in {example}).",
            text=text,
            example=f"{label or 'A'}S",
        )
    return CardNotationError(
        "'{text}' is not a card: the rank must be A, 2-10, J, Q or K (as in {example}).",
        text=text,
        example=f"10{suit_letter}",
    )


def parse_cards(text: str) -> list[Card]:
    """Reads cards separated by spaces or commas: `parse_cards("10H AS JK")`."""
    try:  # as `format_cards` writes them (every shoe and hand stored): looked up directly
        return [_BY_CODE[code] for code in text.split()]
    except KeyError:
        return [parse_card(token) for token in text.replace(",", " ").split()]


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of `parse_cards`."""
    return " ".join(card.code for card in cards)


def pretty_cards(cards: Iterable[Card]) -> str:
    return " ".join(card.pretty for card in cards)


def build_shoe(decks: int, printed_jokers: int) -> list[Card]:
    """The unshuffled cards of a deal: `decks` standard packs plus `printed_jokers` jokers."""
    return list(STANDARD_PACK) * decks + [JOKER] * printed_jokers


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda card: card.sort_key)


def card_points(card: Card, wild_rank: int | None, ace_points: int = 10) -> int:
    """Penalty points of an unmelded card: K Q J 10, pips face value, any joker 0, and an Ace
    what the rules say (10 on most pages; Octro counts it by its rank, 1)."""
    if card.rank == JOKER_RANK or card.rank == wild_rank:
        return 0
    if card.rank == ACE:
        return ace_points
    return 10 if card.rank > 10 else card.rank


def is_wild(card: Card, wild_rank: int | None) -> bool:
    """Printed jokers and every card of the cut joker's rank may stand in for any card."""
    return card.rank == JOKER_RANK or card.rank == wild_rank
