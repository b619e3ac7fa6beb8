"""Colours and proportions shared by every picture, so the hand, table and results look like one set.

The felt is a mid-dark green: it is its own rectangle, so it reads the same inside Discord's dark
and light themes, and white cards stand out on it in both.
"""

from __future__ import annotations

from bot.engine.cards import Suit
from bot.i18n import N_

RGB = tuple[int, int, int]

# Phones show a picture fitted into about 400 x 500 px (Discord's preview). Every picture is drawn
# 800 px wide and at most 1000 high, so it shows there at half its size or more, and no text is
# drawn smaller than 22 px: 11 px on a phone (tests/render/test_phone.py reads what is drawn).
WIDTH = 800
MAX_HEIGHT = 1000
PAD = 20
SMALL = 22  # the smallest text: numbers under cards, labels, details
TEXT = 24
NAME = 26
TITLE = 28

FELT_CENTRE: RGB = (30, 98, 62)
FELT_EDGE: RGB = (17, 62, 40)
PANEL: RGB = (16, 52, 34)
PANEL_LINE: RGB = (44, 98, 68)
INK: RGB = (246, 243, 232)
MUTED: RGB = (170, 204, 184)
FADED: RGB = (104, 138, 118)
GOLD: RGB = (250, 196, 38)
GOLD_DARK: RGB = (120, 82, 0)
WARN: RGB = (255, 138, 120)

CARD_FACE: RGB = (253, 252, 248)
CARD_EDGE: RGB = (150, 150, 146)
CARD_BACK: RGB = (150, 28, 44)
CARD_BACK_LINE: RGB = (198, 70, 84)

SUIT_COLOURS: dict[Suit, RGB] = {
    Suit.SPADES: (24, 24, 28),
    Suit.HEARTS: (210, 30, 40),
    Suit.DIAMONDS: (210, 30, 40),
    Suit.CLUBS: (24, 24, 28),
}
# Told apart under full deuteranopia and protanopia too (every pair at least 30 in CAM02-UCS,
# tests/render/test_colour_blind.py): hearts keep the two-colour deck's red, so the clubs are
# teal rather than grass green (which red-green colour-blind players see as the hearts' colour)
# and the diamonds a violet blue that stays apart from both.
FOUR_COLOUR: dict[Suit, RGB] = {
    Suit.SPADES: (24, 24, 28),
    Suit.HEARTS: (210, 30, 40),
    Suit.DIAMONDS: (37, 16, 217),
    Suit.CLUBS: (21, 150, 150),
}
JOKER_INK: RGB = (92, 40, 150)

GROUP_COLOURS: dict[str, RGB] = {
    "pure_sequence": (122, 232, 146),
    "impure_sequence": (132, 206, 255),
    "set": (206, 180, 255),
    "spare_jokers": (240, 200, 120),
    "ungrouped": (255, 150, 130),
}
GROUP_LABELS: dict[str, tuple[str, ...]] = {
    # Longest first: the layout takes the first that fits above the group.
    "pure_sequence": (N_("Pure sequence"), N_("Pure seq"), N_("Pure")),
    "impure_sequence": (N_("Impure sequence"), N_("Impure seq"), N_("Impure")),
    "set": (N_("Set"),),
    "spare_jokers": (N_("Spare jokers"), N_("Jokers"), ""),
    "ungrouped": (N_("Ungrouped"), N_("Loose"), ""),
}

# What a hand's status line says about its valid groups that still count (see `PaysBecause`).
PAYS_BECAUSE: dict[str, str] = {
    "no_pure_sequence": N_("No pure sequence: every card counts"),
    "no_second_sequence": N_("No second sequence: every card counts"),
    "no_long_sequence": N_("No sequence of 4: every card counts"),
    "sets_count": N_("Sets count on this table"),
}

# Line colours for the standings chart: distinct on green and for the common colour blindnesses.
SERIES: tuple[RGB, ...] = (
    (255, 214, 64),
    (120, 200, 255),
    (255, 128, 170),
    (170, 255, 160),
    (255, 170, 80),
    (210, 170, 255),
    (255, 255, 255),
    (110, 240, 220),
    (240, 96, 80),
    (200, 160, 120),  # ten in all: a home table of ten never shares a colour
)


def suit_colour(suit: Suit, four_colour: bool) -> RGB:
    return (FOUR_COLOUR if four_colour else SUIT_COLOURS)[suit]
