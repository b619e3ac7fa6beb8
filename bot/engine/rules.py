"""Rule options. Defaults follow the common app rules; each point where our source rule pages
disagree is an option here, so a table can play the way its players know.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from bot.engine.errors import RulesError

MIN_PLAYERS = 2
CARDS_PER_HAND = 13


class ClosedDeckEmpty(StrEnum):
    """What happens when a player must pick from an empty closed deck."""

    RESHUFFLE = "reshuffle"  # the open pile, less its top card, is shuffled into a new closed deck
    SETTLE = "settle"  # the deal ends; every hand is scored and the lowest wins


@dataclass(frozen=True, kw_only=True)
class Rules:
    preset: str = "standard"  # the preset these rules started from (see `changed_options`)

    # Shoe: `deck_plan` maps "up to N players" to a number of 52-card decks, in rising order.
    deck_plan: tuple[tuple[int, int], ...] = ((6, 2),)
    printed_jokers_per_deck: int = 1
    cut_joker: bool = True  # a card cut from the closed deck makes its rank wild
    aces_wild_on_printed_cut: bool = True  # if the cut card is a printed joker, Aces are wild

    # Melds and declarations.
    max_set_size: int = 4
    joker_only_groups: bool = False  # may a group be made of jokers alone?
    one_joker_per_impure_sequence: bool = False
    require_four_card_life: bool = False  # one of the two required sequences must have 4+ cards
    pure_sequence_protects: bool = False  # a pure sequence alone lets melded cards go uncounted
    identical_triplet_pure: bool = False  # three identical cards (3 decks) are a pure sequence (Octro)

    # Points.
    score_cap: int = 80
    wrong_declaration: int = 80
    first_drop: int = 20
    middle_drop: int = 40
    drops_allowed: bool = True

    # Turns.
    max_missed_turns: int = 3  # consecutive timeouts that count as a middle drop
    turn_seconds: int = 30  # the whole turn, or with `discard_seconds` the time to pick
    discard_seconds: int | None = None  # None: one clock for the turn; else the time to discard
    extra_time_seconds: int = 60  # a per-player bank for the whole match
    pick_discarded_joker: bool = False  # may a joker the previous player discarded be picked?
    rediscard_open_pick: bool = False  # may the card just taken from the open pile go straight back?
    closed_deck_empty: ClosedDeckEmpty = ClosedDeckEmpty.RESHUFFLE

    PRESET_NAMES: ClassVar[tuple[str, ...]] = ("standard", "octro", "app", "home")
    PRESETS: ClassVar[dict[str, Rules]]
    PRESET_SUMMARIES: ClassVar[dict[str, str]]

    def __post_init__(self) -> None:
        if self.preset not in self.PRESET_NAMES:
            raise RulesError(f"There is no rules preset '{self.preset}'.")
        if not self.deck_plan:
            raise RulesError("The deck plan needs at least one entry.")
        previous = MIN_PLAYERS - 1
        for players, decks in self.deck_plan:
            if players <= previous or decks < 1:
                raise RulesError("The deck plan must list rising player counts with 1+ decks.")
            if players * CARDS_PER_HAND + 2 > decks * 52:
                raise RulesError(f"{decks} deck(s) cannot deal 13 cards to {players} players.")
            previous = players
        if not 3 <= self.max_set_size <= 8:
            raise RulesError("The largest set must be between 3 and 8 cards.")
        if self.score_cap < 1 or self.wrong_declaration < 0:
            raise RulesError("The score cap must be positive and penalties not negative.")
        if not 0 <= self.first_drop <= self.middle_drop:
            raise RulesError("A first drop cannot cost more than a middle drop.")
        if self.max_missed_turns < 1:
            raise RulesError("At least one missed turn must be allowed before the drop.")
        if self.turn_seconds < 5 or self.extra_time_seconds < 0:
            raise RulesError("A turn needs at least 5 seconds and the time bank cannot be negative.")
        if self.discard_seconds is not None and self.discard_seconds < 5:
            raise RulesError("The discard clock needs at least 5 seconds.")
        if not 0 <= self.printed_jokers_per_deck <= 4:
            raise RulesError("A deck holds between 0 and 4 printed jokers.")
        object.__setattr__(self, "closed_deck_empty", ClosedDeckEmpty(self.closed_deck_empty))

    @property
    def max_players(self) -> int:
        return self.deck_plan[-1][0]

    def decks_for(self, players: int) -> int:
        """Decks in the shoe for a table of `players`; refuses counts the rules cannot seat."""
        if players < MIN_PLAYERS:
            raise RulesError(f"A deal needs at least {MIN_PLAYERS} players.")
        for up_to, decks in self.deck_plan:
            if players <= up_to:
                return decks
        raise RulesError(f"These rules seat at most {self.max_players} players.")

    def printed_jokers_for(self, players: int) -> int:
        return self.decks_for(players) * self.printed_jokers_per_deck

    def replace(self, **changes: Any) -> Rules:
        return dataclasses.replace(self, **changes)

    def changed_options(self) -> tuple[str, ...]:
        """The options that differ from the preset these rules started from, in field order."""
        base = Rules.preset(self.preset)
        return tuple(
            field.name
            for field in dataclasses.fields(self)
            if field.name != "preset" and getattr(self, field.name) != getattr(base, field.name)
        )

    def to_json(self) -> dict[str, Any]:
        """A fresh copy each call; the work is done once per Rules value, since every saved
        snapshot of every match writes its rules."""
        return {**self._json, "deck_plan": [list(pair) for pair in self.deck_plan]}

    @functools.cached_property
    def _json(self) -> dict[str, Any]:
        data = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        data["deck_plan"] = [list(pair) for pair in self.deck_plan]
        data["closed_deck_empty"] = self.closed_deck_empty.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        """Reads stored rules, old forms included: a row written before presets were stored
        started from the defaults, and its `printed_jokers` flag meant one joker per deck."""
        values = dict(data)
        legacy_jokers = values.pop("printed_jokers", None)
        if legacy_jokers is not None and "printed_jokers_per_deck" not in values:
            values["printed_jokers_per_deck"] = 1 if legacy_jokers else 0
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = set(values) - known
        if unknown:
            raise RulesError(f"Unknown rule options: {', '.join(sorted(unknown))}.")
        if "deck_plan" in values:
            values["deck_plan"] = tuple(tuple(pair) for pair in values["deck_plan"])
        return cls(**values)


def _preset(cls: type[Rules], name: str) -> Rules:
    """`Rules.preset("octro")`: the rules of a named preset."""
    try:
        return cls.PRESETS[name]
    except KeyError:
        names = ", ".join(cls.PRESET_NAMES)
        raise RulesError(f"There is no rules preset '{name}'. Presets: {names}.") from None


# One name, two uses: on the class, `preset` looks a preset up; on a value, the dataclass field
# is the name of the preset the rules started from.
Rules.preset = classmethod(_preset)  # type: ignore[assignment, method-assign]

Rules.PRESETS = {
    "standard": Rules(),
    "octro": Rules(
        preset="octro",
        deck_plan=((3, 2), (5, 3)),
        printed_jokers_per_deck=2,
        one_joker_per_impure_sequence=True,
        require_four_card_life=True,
        identical_triplet_pure=True,
    ),
    "app": Rules(
        preset="app",
        deck_plan=((5, 2),),
        turn_seconds=20,
        discard_seconds=20,
        extra_time_seconds=0,
        closed_deck_empty=ClosedDeckEmpty.SETTLE,
        pure_sequence_protects=True,
    ),
    "home": Rules(preset="home", deck_plan=((6, 2), (10, 3)), first_drop=10),
    # Not a preset players choose (the engine branch removes it): kept for the engine's tests.
    "lenient": Rules(pure_sequence_protects=True, max_set_size=8, joker_only_groups=True),
}
Rules.PRESET_SUMMARIES = {
    "standard": "The big apps: 2-6 players, drops 20/40, wrong show 80, cap 80",
    "octro": "Octro: 2-5 players, 2 jokers a deck, one joker a run, a 4-card life",
    "app": "App screen: 20 s to pick + 20 s to discard, empty deck: lowest hand wins",
    "home": "Home: up to 10 players, drops 10/40",
}
