"""Rule options, and the presets that bundle them the way each of our source rule pages plays.

Every point where the pages in shared/rules-sources/ disagree is an option here (never a special
case in a front end), so a table can play the way its players know: 000 Foryourummy and 002
JungleeRummy are `standard` (the defaults), 001 Octro is `octro`, 003 an app's rule screen is
`app`, 004 home rules are `home`. Each preset's comments quote the line it follows.
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


class LeaveCost(StrEnum):
    """What a player who leaves the table in the middle of a deal is charged."""

    MIDDLE_DROP = "middle_drop"  # 000: leaving before a show costs a middle drop, whenever it is
    # 003: a first drop before any pick, else a middle drop; but the hand is scored instead when
    # another player shows before the leaver's next turn would have come.
    DROP_OR_HAND = "drop_or_hand"


@dataclass(frozen=True, kw_only=True)
class Rules:
    preset: str = "standard"  # the preset these rules started from (see `changed_options`)

    # Shoe: `deck_plan` maps "up to N players" to a number of 52-card decks, in rising order.
    deck_plan: tuple[tuple[int, int], ...] = ((6, 2),)
    printed_jokers_per_deck: int = 1
    cut_joker: bool = True  # a card cut from the closed deck makes its rank wild
    aces_wild_on_printed_cut: bool = True  # if the cut card is a printed joker, Aces are wild
    cut_card_in_play: bool = False  # the cut card lies face up under the closed deck, drawn last

    # Melds and declarations.
    max_set_size: int = 4
    joker_only_groups: bool = False  # may a group be made of printed jokers alone?
    one_joker_per_impure_sequence: bool = False
    require_four_card_life: bool = False  # one of the two required sequences must have 4+ cards
    identical_triplet_pure: bool = False  # three identical cards (3 decks) are a pure sequence (Octro)
    spare_jokers_plank: bool = False  # unused jokers may lie on a plank of their own in a show
    show_before_pick: bool = False  # a 13-card show at one's first turn, before picking

    # Points.
    ace_points: int = 10  # what an unmatched Ace costs
    pure_sequence_protects: bool = False  # a pure sequence alone lets the sequences go uncounted
    sets_protected: bool = True  # with both lives, cards in sets go uncounted too
    score_cap: int = 80
    wrong_declaration: int = 80
    first_drop: int = 20
    middle_drop: int = 40
    drops_allowed: bool = True
    leave_cost: LeaveCost = LeaveCost.MIDDLE_DROP
    missed_declaration_points: int | None = None  # a loser whose 13 cards were a valid show pays this
    early_show_multipliers: bool = False  # a show before any pick: losers pay double; after one: half

    # Turns.
    max_missed_turns: int = 3  # consecutive turns the clock played that count as a middle drop
    turn_seconds: int = 30  # the whole turn, or with `discard_seconds` the time to pick
    discard_seconds: int | None = None  # None: one clock for the turn; else the time to discard
    extra_time_seconds: int = 60  # a per-player bank for the whole match
    declare_on_timeout: bool = False  # a hand that can show when its time runs out shows by itself
    pick_discarded_joker: bool = False  # may a joker the previous player discarded be picked?
    rediscard_open_pick: bool = False  # may the card just taken from the open pile go straight back?
    closed_deck_empty: ClosedDeckEmpty = ClosedDeckEmpty.RESHUFFLE

    PRESET_NAMES: ClassVar[tuple[str, ...]] = ("standard", "octro", "app", "home")
    PRESETS: ClassVar[dict[str, Rules]]

    def __post_init__(self) -> None:
        if self.preset not in self.PRESET_NAMES:
            raise RulesError("There is no rules preset '{name}'.", name=self.preset)
        if not self.deck_plan:
            raise RulesError("The deck plan needs at least one entry.")
        previous = MIN_PLAYERS - 1
        for players, decks in self.deck_plan:
            if players <= previous or decks < 1:
                raise RulesError("The deck plan must list rising player counts with 1+ decks.")
            if players * CARDS_PER_HAND + 2 > decks * 52:
                raise RulesError(
                    "{decks} deck(s) cannot deal 13 cards to {players} players.", decks=decks, players=players
                )
            previous = players
        if not 0 <= self.printed_jokers_per_deck <= 4:
            raise RulesError("A deck holds between 0 and 4 printed jokers.")
        if not 3 <= self.max_set_size <= 8:
            raise RulesError("The largest set must be between 3 and 8 cards.")
        if not 1 <= self.ace_points <= 10:
            raise RulesError("An Ace scores between 1 and 10 points.")
        if self.score_cap < 1 or self.wrong_declaration < 0:
            raise RulesError("The score cap must be positive and penalties not negative.")
        if not 0 <= self.first_drop <= self.middle_drop:
            raise RulesError("A first drop cannot cost more than a middle drop.")
        if self.missed_declaration_points is not None and self.missed_declaration_points < 0:
            raise RulesError("A missed declaration cannot cost negative points.")
        if self.max_missed_turns < 1:
            raise RulesError("At least one missed turn must be allowed before the drop.")
        if self.turn_seconds < 5 or self.extra_time_seconds < 0:
            raise RulesError("A turn needs at least 5 seconds and the time bank cannot be negative.")
        if self.discard_seconds is not None and self.discard_seconds < 5:
            raise RulesError("The discard clock needs at least 5 seconds.")
        object.__setattr__(self, "closed_deck_empty", ClosedDeckEmpty(self.closed_deck_empty))
        object.__setattr__(self, "leave_cost", LeaveCost(self.leave_cost))

    @property
    def max_players(self) -> int:
        return self.deck_plan[-1][0]

    def decks_for(self, players: int) -> int:
        """Decks in the shoe for a table of `players`; refuses counts the rules cannot seat."""
        if players < MIN_PLAYERS:
            raise RulesError("A deal needs at least {players} players.", players=MIN_PLAYERS)
        for up_to, decks in self.deck_plan:
            if players <= up_to:
                return decks
        raise RulesError("These rules seat at most {players} players.", players=self.max_players)

    def printed_jokers_for(self, players: int) -> int:
        return self.decks_for(players) * self.printed_jokers_per_deck

    def replace(self, **changes: Any) -> Rules:
        return dataclasses.replace(self, **changes)

    def changed_options(self) -> tuple[str, ...]:
        """The options that differ from the preset these rules started from, in field order."""
        base = _preset(Rules, self.preset)
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
        data["leave_cost"] = self.leave_cost.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        """Reads stored rules, old forms included: a row written before presets were stored
        started from the defaults, and its `printed_jokers` flag meant one joker per deck.

        Rules are values nothing changes, and a resumed table reads the same few (its own, its
        format's deal's, a preset's) for every table and deal, so equal stored rules read as one
        object: read once, kept by their `repr`, which tells `1` from `True` and `1.0`."""
        key = repr(data)
        rules = _READ.get(key)
        if rules is None:
            rules = cls._read(data)
            if len(_READ) < _READ_MOST:
                _READ[key] = rules
        return rules

    @classmethod
    def _read(cls, data: dict[str, Any]) -> Rules:
        values = dict(data)
        legacy_jokers = values.pop("printed_jokers", None)
        if legacy_jokers is not None and "printed_jokers_per_deck" not in values:
            values["printed_jokers_per_deck"] = 1 if legacy_jokers else 0
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = set(values) - known
        if unknown:
            raise RulesError("Unknown rule options: {options}.", options=", ".join(sorted(unknown)))
        if "deck_plan" in values:
            values["deck_plan"] = tuple(tuple(pair) for pair in values["deck_plan"])
        return cls(**values)


_READ: dict[str, Rules] = {}  # stored rules already read (`Rules.from_json`), by their repr
_READ_MOST = 256  # kept at most: every table of a server plays one of a few sets of rules


def _preset(cls: type[Rules], name: str) -> Rules:
    """`Rules.preset("octro")`: the rules of a named preset."""
    try:
        return cls.PRESETS[name]
    except KeyError:
        names = ", ".join(cls.PRESET_NAMES)
        raise RulesError(
            "There is no rules preset '{name}'. Presets: {names}.", name=name, names=names
        ) from None


# One name, two uses, as the public API has it: on the class, `preset` looks a preset up; on a
# value, the dataclass field (kept in the instance, which a classmethod does not override) is the
# name of the preset the rules started from. Set after the class so the field keeps its default.
Rules.preset = classmethod(_preset)  # type: ignore[assignment]

Rules.PRESETS = {
    # 000 Foryourummy and 002 JungleeRummy, which agree: the defaults.
    # 000: "played between 2 to 6 with two decks of cards along with two face Joker cards";
    # "If the random card turns to be the printed joker then ace card ... can be used as joker";
    # 20 / 40 / 80, "misses out 3 consecutive turns - 40 points", "30 seconds"; 002: "Points are
    # capped at 80"; 000: leaving before a show "will get 40 points"; "all the discarded cards
    # are reshuffled"; "if the opponent discards a joker card, then the player cannot pick that card".
    "standard": Rules(),
    # 001 Octro Indian Rummy.
    "octro": Rules(
        preset="octro",
        # "For 2 or 3 players, two 52-card decks (104 cards) and 4 jokers ... For 4 to 5 players,
        # three decks (156 cards) and 6 jokers."
        deck_plan=((3, 2), (5, 3)),
        printed_jokers_per_deck=2,
        # "placed face up under the stock pile so that it is visible" (we read: drawn last);
        # "if the card kept under stock pile is a printed joker. Then only the printed jokers".
        cut_card_in_play=True,
        aces_wild_on_printed_cut=False,
        # "In a run you can use only one joker"; "Either First Life or Second Life must have 4 or
        # more cards"; "the three cards of same rank and same suit are treated as pure sequence".
        one_joker_per_impure_sequence=True,
        require_four_card_life=True,
        identical_triplet_pure=True,
        # "Even if there are free jokers ... the declare is valid"; "put on a separate plank".
        spare_jokers_plank=True,
        # "Unmatched J, Q, K or 10: 10 points each; rest ... each as its rank value".
        ace_points=1,
        # The first player "picks ... the top card of discard pile": no exception for jokers.
        pick_discarded_joker=True,
    ),
    # 003 the app rule screen.
    "app": Rules(
        preset="app",
        # "Two decks of Poker plus 2 Jokers, 106 cards totally. 2 ~ 5 players."
        deck_plan=((5, 2),),
        # "All cards with the same rank as the card below the closed deck are considered Printed Jokers."
        cut_card_in_play=True,
        # "20 seconds to pick ... and after that will has 20 seconds to discard"; no time bank.
        turn_seconds=20,
        discard_seconds=20,
        extra_time_seconds=0,
        # "If player finished all the 13 cards ... but timeout, that will automatically accomplishes
        # a valid declaration."
        declare_on_timeout=True,
        # "If both open deck and closed deck are used up ... who calculated minimal points is the winner."
        closed_deck_empty=ClosedDeckEmpty.SETTLE,
        # "If the player has formed pure sequence (1st Life), the value of cards that are not in
        # sequence are calculated."
        pure_sequence_protects=True,
        # "If player misses the declaration chance and other players accomplish a valid
        # declaration and will be 2 points calculated."
        missed_declaration_points=2,
        # "Leave Table": first drop before any pick, else middle drop, hand scored on a show.
        leave_cost=LeaveCost.DROP_OR_HAND,
    ),
    # 004 home rules.
    "home": Rules(
        preset="home",
        # "up to ten players, 2-6 players play with 2 packs ... seven or more ... three packs";
        # "play with the jokers left in the packs" (one per pack).
        deck_plan=((6, 2), (10, 3)),
        # "pack before he has even picked up a card then he must pay 10 points ... after picking
        # a card then he must pay 40 points".
        first_drop=10,
        # "If a player has a straight run in his hand though, he does not pay for the cards in
        # that straight run or in any other runs in his hand": sets and loose cards pay.
        pure_sequence_protects=True,
        sets_protected=False,
        # "calls rummy after picking up just one card ... half ... before he has even picked up
        # a card ... twice the value of their hands."
        show_before_pick=True,
        early_show_multipliers=True,
        # "He can either pick up the face up card or take one from the top of the pack."
        pick_discarded_joker=True,
    ),
}
