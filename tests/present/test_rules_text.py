"""The rules text says exactly the table's options: every number the engine plays with, every
switch, and the reading taken where a source page is unclear. The checks walk the fields of
`Rules`, so an option added without being described fails here."""

import dataclasses
import re

import pytest

from bot.engine import Rules
from bot.engine.formats import DEAL_CHIPS, Family, Format
from bot.engine.rules import LeaveCost
from bot.present.rules_text import describe_rules

PRESETS = Rules.PRESET_NAMES
# One format of each family, and every pool (each has its own figures).
FORMATS = [Format.POINTS, Format.DEALS_3, Format.POOL_61, Format.POOL_101, Format.POOL_201]

FIELDS = {field.name: field.type for field in dataclasses.fields(Rules)}
NUMBERS = [name for name, kind in FIELDS.items() if kind in ("int", "int | None")]
SWITCHES = [name for name, kind in FIELDS.items() if kind == "bool"]
CHOICES = [name for name, kind in FIELDS.items() if kind in ("ClosedDeckEmpty", "LeaveCost")]

# A value for each numeric option that no preset uses, so the text can be seen to say it.
UNUSUAL = {
    "printed_jokers_per_deck": 3,
    "max_set_size": 7,
    "ace_points": 7,
    "score_cap": 93,
    "wrong_declaration": 97,
    "first_drop": 17,
    "middle_drop": 47,
    "missed_declaration_points": 9,
    "max_missed_turns": 5,
    "turn_seconds": 41,
    "discard_seconds": 43,
    "extra_time_seconds": 53,
}


def says(number: int, text: str) -> bool:
    """`number` stands alone in `text` (80 is in "at most 80", not in "800" or "1.80")."""
    return re.search(rf"(?<![\d.]){number}(?!\d)", text) is not None


def unused(played: Rules, name: str) -> bool:
    """A first drop is never charged where drops are off and leaving costs a middle drop (Deals)."""
    return name == "first_drop" and not played.drops_allowed and played.leave_cost is LeaveCost.MIDDLE_DROP


def test_every_option_is_a_number_a_switch_or_a_choice_the_text_is_checked_for():
    known = {"preset", "deck_plan", *NUMBERS, *SWITCHES, *CHOICES}
    assert set(FIELDS) == known, f"describe and test the new options: {set(FIELDS) - known}"
    assert set(UNUSUAL) == set(NUMBERS), f"give an unusual value to: {set(NUMBERS) - set(UNUSUAL)}"


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("fmt", FORMATS, ids=str)
def test_the_text_states_every_number_the_engine_plays_with(preset, fmt):
    spec, base = fmt.spec, Rules.preset(preset)
    played = spec.deal_rules(base)
    text = describe_rules(spec, base)
    for name in NUMBERS:
        value = getattr(played, name)
        if value is None or (name == "extra_time_seconds" and value == 0) or unused(played, name):
            continue
        assert says(value, text), f"{preset} {fmt}: {name} {value} is not said"
    if played.extra_time_seconds == 0:
        assert "no time bank" in text
    for players, decks in played.deck_plan:
        assert f"{decks} decks up to {players} players" in text
        if played.printed_jokers_per_deck:
            assert says(decks * played.printed_jokers_per_deck, text)
    assert f"{played.printed_jokers_per_deck} printed joker" in text
    assert f"{played.max_players} players" in text
    if played.drops_allowed:
        assert f"{played.first_drop} before your first pick, {played.middle_drop} after" in text
    else:
        assert "Drops**: not allowed" in text
    assert f"wrong show costs {played.wrong_declaration} points" in text
    assert f"at most {played.score_cap}" in text
    assert f"an Ace {played.ace_points}" in text
    assert f"3 to {played.max_set_size} cards of the same rank" in text
    if spec.family is Family.POOL:
        assert f"at {spec.pool_limit} or more you are out" in text
        assert f"nobody left is above {spec.rejoin_below}" in text
        assert f"Drops cost {spec.first_drop} (before your first pick) or {spec.middle_drop}" in text
    if spec.family is Family.DEALS:
        assert f"{DEAL_CHIPS * spec.deals} chips" in text


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("fmt", FORMATS, ids=str)
@pytest.mark.parametrize("name", sorted(UNUSUAL))
def test_changing_a_number_the_deal_plays_with_changes_the_text_to_that_number(preset, fmt, name):
    spec, base = fmt.spec, Rules.preset(preset)
    changed = base.replace(**{name: UNUSUAL[name]})
    played = spec.deal_rules(changed)
    if played == spec.deal_rules(base) or unused(played, name):
        return  # the format keeps its own figure (a pool's drops, Pool 61's wrong show and cap)
    before, after = describe_rules(spec, base), describe_rules(spec, changed)
    assert after != before and says(UNUSUAL[name], after), name


@pytest.mark.parametrize("preset", PRESETS)
def test_a_different_deck_plan_is_said(preset):
    changed = Rules.preset(preset).replace(deck_plan=((4, 2), (9, 3)))
    text = describe_rules(Format.POINTS.spec, changed)
    assert "2 decks up to 4 players, 3 decks up to 9 players" in text and "2 to 9 players" in text


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", SWITCHES)
def test_flipping_any_switch_changes_the_text(preset, name):
    base = Rules.preset(preset)
    flipped = base.replace(**{name: not getattr(base, name)})
    assert describe_rules(Format.POINTS.spec, flipped) != describe_rules(Format.POINTS.spec, base), name


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", CHOICES)
def test_every_choice_of_an_option_has_its_own_text(preset, name):
    base = Rules.preset(preset)
    kind = type(getattr(base, name))
    texts = {describe_rules(Format.POINTS.spec, base.replace(**{name: value})) for value in kind}
    assert len(texts) == len(kind), name


def test_the_rules_text_follows_the_options_the_table_plays_with():
    standard = describe_rules(Format.POOL_101.spec, Rules())
    assert "101 or more you are out" in standard and "Drops cost 20" in standard
    assert "above 79" in standard and "cannot be picked" in standard
    assert "at most 80" in standard and "4+ cards" not in standard
    octro = describe_rules(Format.DEALS_3.spec, Rules.preset("octro"))
    assert "240 chips" in octro and "no dropping" in octro and "Drops**: not allowed" in octro
    assert "at most one joker per impure sequence" in octro and "4+ cards" in octro
    assert "2 decks up to 3 players, 3 decks up to 5 players" in octro
    assert "Three identical cards" in octro and "Three identical cards" not in standard
    points = describe_rules(Format.POINTS.spec, Rules(pick_discarded_joker=True), point_value=5)
    assert "× 5 chips" in points and "cannot be picked" not in points
    assert "sha256" in points


def test_each_preset_says_the_reading_it_takes_of_its_source():
    octro = describe_rules(Format.POINTS.spec, Rules.preset("octro"))
    # 001 "placed face up under the stock pile so that it is visible": read as drawn last.
    assert "under the closed deck" in octro and "last card drawn" in octro
    # 001 "if the card kept under stock pile is a printed joker. Then only the printed jokers".
    assert "only the printed jokers are wild" in octro
    # 001 "Even if there are free jokers ... the declare is valid".
    assert "plank of their own" in octro
    # 001 gives 10 points to J, Q, K and 10 only, "the rest at rank value".
    assert "an Ace 1," in octro
    app = describe_rules(Format.POINTS.spec, Rules.preset("app"))
    # 003 "cards that are not in sequence": read as cards in no valid group once both lives are there.
    assert "only for cards in no group (sets are free then)" in app
    # 003 "misses the declaration chance ... 2 points": a loser whose 13 cards were a valid show.
    assert "13 cards already made a valid show when another player declared, you pay 2" in app
    assert "20 s to pick, then 20 s to discard" in app and "no time bank" in app
    assert "that is a missed turn" in app and "declares by itself" in app
    assert "your hand is scored instead" in app and "the lowest wins" in app
    home = describe_rules(Format.POINTS.spec, Rules.preset("home"))
    # 004 "sets are three or more cards of the same suit": read as a slip for rank.
    assert "same rank, not same suit" in home
    # 004 "he does not pay for the cards in that straight run or in any other runs".
    assert "your sequences are free, but sets and loose cards count" in home
    # 004 half and double, Points only, after the cap.
    assert "pays double" in home and "pays half" in home and "after the cap" in home
    assert "160 or 40" in home
    pool = describe_rules(Format.POOL_61.spec, Rules.preset("home"))
    assert "pays double" not in pool and "Points tables only" in pool
