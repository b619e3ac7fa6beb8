"""The four-colour deck tells its suits apart for red-green colour-blind players too (issue 26):
every pair of suit colours at least 30 apart in CAM02-UCS under full deuteranopia and full
protanopia, as simulated by colorspacious (Machado et al. 2009), computed from the theme itself."""

from itertools import combinations

import numpy as np
import pytest
from colorspacious import cspace_convert

from bot.engine.cards import Suit
from render import theme

MIN_DELTA_E = 30


def seen_with(colour: theme.RGB, deficiency: str) -> np.ndarray:
    """`colour` as a person with full `deficiency` sees it, in CAM02-UCS."""
    space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
    simulated = np.clip(cspace_convert(np.array(colour) / 255, space, "sRGB1"), 0, 1)
    return cspace_convert(simulated, "sRGB1", "CAM02-UCS")


@pytest.mark.parametrize("deficiency", ["deuteranomaly", "protanomaly"])
def test_every_pair_of_suits_stays_apart_for_colour_blind_players(deficiency):
    distances = {
        (one.name, other.name): float(
            np.linalg.norm(
                seen_with(theme.FOUR_COLOUR[one], deficiency)
                - seen_with(theme.FOUR_COLOUR[other], deficiency)
            )
        )
        for one, other in combinations(Suit, 2)
    }
    assert min(distances.values()) >= MIN_DELTA_E, distances


def test_the_measure_tells_the_old_greens_and_reds_apart_only_by_shape():
    """The check can fail: the grass-green clubs of before were 9 from the hearts for deuteranopes."""
    old_clubs, hearts = (22, 128, 46), theme.FOUR_COLOUR[Suit.HEARTS]
    assert np.linalg.norm(seen_with(old_clubs, "deuteranomaly") - seen_with(hearts, "deuteranomaly")) < 10


def test_the_two_colour_deck_keeps_its_look():
    assert (
        theme.SUIT_COLOURS[Suit.HEARTS] == theme.SUIT_COLOURS[Suit.DIAMONDS] == theme.FOUR_COLOUR[Suit.HEARTS]
    )
    assert theme.SUIT_COLOURS[Suit.SPADES] == theme.SUIT_COLOURS[Suit.CLUBS] == theme.FOUR_COLOUR[Suit.SPADES]
