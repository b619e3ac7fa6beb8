"""The words a deal and its events share: the phase of a turn, why a seat paid what it paid, and
the stakes after an early show. Kept apart from `deal` so that `events` can name them in its
typed payloads without importing the deal (which imports the events)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    PICK = "pick"
    DISCARD = "discard"
    OVER = "over"


class Outcome(StrEnum):
    """Why a seat was charged what it was charged, for results and statistics."""

    WON = "won"
    HAND = "hand"
    FIRST_DROP = "first_drop"
    MIDDLE_DROP = "middle_drop"
    LEFT = "left"
    LEFT_HAND_SCORED = "left_hand_scored"  # left, and a show came before their next turn (003)
    MISSED_DECLARATION = "missed_declaration"  # their 13 cards were a valid show too (003)
    WRONG_SHOW = "wrong_show"


class Stakes(StrEnum):
    """What every scored hand pays after an early show (004), applied after the score cap."""

    DOUBLE = "double"  # the show came before the winner picked any card
    HALF = "half"  # the show came after the winner picked just one card
