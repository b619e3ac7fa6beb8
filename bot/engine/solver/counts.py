"""How the solver holds cards: a suit is one int of card counts by position, and positions keep
the ranks upside down (`_at`), so that a search meets a suit's costliest cards first. The
helpers that read such an int, and those that turn a position back into a card."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import ACE, KING, SUITS, Card, Suit
from bot.engine.melds import HIGH_ACE

_PIPS_BY_POSITION = tuple(min(10, 15 - position) for position in range(2, 14))


def _position_points(ace: int) -> tuple[int, ...]:
    """Penalty points by position (see `_at`: King 2 .. Two 13, an Ace 1 or 14), for cards that
    are not wild."""
    return (0, ace, *_PIPS_BY_POSITION, ace)


# A suit's cards are one int: 3 bits per position (1..14) hold how many of that card the suit
# has. Ints hash and subtract in one step, which is what the memo keys and set choices need.
_BITS = 3
_MAX_COPIES = (1 << _BITS) - 1
_ONE = tuple(1 << (_BITS * position) for position in range(HIGH_ACE + 1))
_LOWEST_BITS = sum(_ONE)  # the lowest bit of every position's count


def _count(counts: int, position: int) -> int:
    return counts >> (_BITS * position) & _MAX_COPIES


def _is_wild_position(position: int, wild_position: int) -> bool:
    """Whether the card at `position` is wild: an Ace (kept at 14) is wild at 1 too."""
    return position == wild_position or (wild_position == HIGH_ACE and position == ACE)


def _without(counts: int, positions: Sequence[int]) -> int:
    for position in positions:
        counts -= _ONE[position]
    return counts


def _first_card(counts: int) -> int:
    """The lowest position holding a card (0 for none)."""
    return ((counts & -counts).bit_length() - 1) // _BITS if counts else 0


def _wild_in(counts: int, wild_position: int) -> int:
    """The wild position if these cards hold a wild card."""
    if wild_position and _count(counts, wild_position):
        return wild_position
    return 0


def _at(rank: int) -> int:
    """Where a suit's counts keep a rank: the ranks upside down (King at 2, Two at 13) and an
    Ace at 14, played there as a low Ace (A-2-3) or at 1 as a high one (Q-K-A).

    The search takes a suit's cards from position 1 up. Upside down, it takes the high cards
    first, and those are the discards a 14-card hand tries first (costliest first): a suit
    without one of them then meets the same states as the whole suit once past that card, and
    the memo has them. (Runs are the same read either way.) An Ace kept at 14 is taken last,
    and a run from a card near position 1 can reach down to it (`_runs`): kept at 1, every Ace
    would have to choose at the start whether to wait at 14, and each state of the suit would
    be met twice, with the Ace still to come and without."""
    return HIGH_ACE if rank == ACE else 15 - rank


_AT = tuple(_at(rank) for rank in range(KING + 1))


_SUIT_INDEX: dict[Suit | None, int] = {suit: index for index, suit in enumerate(SUITS)}


_CARDS = [
    [Card(ACE if p in (0, ACE, HIGH_ACE) else 15 - p, suit) for p in range(HIGH_ACE + 1)] for suit in SUITS
]


def _card_at(position: int, suit: int) -> Card:
    return _CARDS[suit][position]
