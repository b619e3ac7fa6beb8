"""The rule options a host changes before the start, and the one line that names a table's rules.

Both front ends read these: the Discord lobby's Rules editor offers `OPTIONS`, and the lobby, the
table message and the terminal show `rules_line`. Every figure is read from the table's `Rules`
(and, for the drops of a Pool, from its format, which keeps its own costs whatever the preset), so
what players read is what the engine charges.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from bot.engine.errors import RulesError
from bot.engine.formats import Family, FormatSpec
from bot.engine.rules import MIN_PLAYERS, ClosedDeckEmpty, Rules
from bot.i18n import EN, N_, Words

DeckPlan = tuple[tuple[int, int], ...]


def preset(name: str) -> Rules:
    """`Rules.preset(name)` (refusing an unknown name with the list of presets), typed: on the
    class, `preset` is a look-up and also the name field of every `Rules` value."""
    rules: Rules = Rules.preset(name)  # type: ignore[operator]
    return rules


# Deck plans offered in the editor: each preset's, so a host can seat a home table's ten on
# octro's rules, say (the table's own plan is always offered too).
DECK_PLANS: tuple[DeckPlan, ...] = tuple(dict.fromkeys(preset(n).deck_plan for n in Rules.PRESET_NAMES))


def plan_words(plan: DeckPlan, _: Words = EN) -> str:
    """`2 decks, 3 from 4 players`: the shoe, growing with the table."""
    words = [_("{count} decks", count=plan[0][1])]
    words += [
        _("{decks} from {players} players", decks=decks, players=previous + 1)
        for (previous, _unused), (_seats, decks) in itertools.pairwise(plan)
    ]
    return ", ".join(words)


def _plan_choice(plan: DeckPlan, _: Words) -> str:
    return _("{plan} (up to {players} players)", plan=plan_words(plan, _), players=plan[-1][0])


def _seconds(value: int | None, _: Words) -> str:
    return _("off") if value is None else _("{seconds} s", seconds=value)


def _yes(value: bool, _: Words) -> str:
    return _("yes") if value else _("no")


def _number(value: int, _: Words) -> str:
    return str(value)


def _cards(value: int, _: Words) -> str:
    return _("{count} cards", count=value)


def _empty_deck(value: ClosedDeckEmpty, _: Words) -> str:
    return _("reshuffle the open pile") if value is ClosedDeckEmpty.RESHUFFLE else _("lowest hand wins")


@dataclass(frozen=True)
class Choice:
    """One entry of an option's menu: its words, the value the menu carries, the rules it sets."""

    label: str
    value: str
    changes: Mapping[str, Any]


@dataclass(frozen=True)
class Option:
    """An option of the lobby's editor. `field` is the rule it sets; `values` the offered ones
    (the table's current value is always offered as well); `words` says a value as players read it,
    in their language; `applies` says whether the format lets it matter (a Pool charges its own
    drops, Deals none). `label` is English, translated where it is shown (`_(option.label)`)."""

    key: str
    label: str
    field: str
    values: tuple[Any, ...]
    words: Callable[[Any, Words], str]
    applies: Callable[[FormatSpec], bool] = lambda spec: True

    def current(self, rules: Rules) -> Any:
        return getattr(rules, self.field)

    def choices(self, rules: Rules, _: Words = EN) -> tuple[Choice, ...]:
        values = list(self.values)
        if self.current(rules) not in values:
            values.append(self.current(rules))
        return tuple(Choice(self.words(v, _), _menu_value(v), {self.field: v}) for v in values)

    def choice(self, rules: Rules, value: str) -> Choice:
        """The menu entry `value` names; a value the menu never offered is refused."""
        for choice in self.choices(rules):
            if choice.value == value:
                return choice
        raise RulesError(
            "{value} is not one of the choices for {option}.", value=repr(value), option=self.label.lower()
        )


def _menu_value(value: Any) -> str:
    if isinstance(value, tuple):
        return "-".join(f"{players}x{decks}" for players, decks in value)
    if isinstance(value, Enum):
        return str(value.value)
    return "off" if value is None else str(value)


def _points_only(spec: FormatSpec) -> bool:
    return spec.family is Family.POINTS


def _drops_matter(spec: FormatSpec) -> bool:
    return spec.family is not Family.DEALS


def _own_wrong(spec: FormatSpec) -> bool:
    """Whether the rules' wrong show is charged: Pool 61 charges its own (pool-61-notes)."""
    return spec.wrong_declaration is None


OPTIONS: tuple[Option, ...] = (
    Option("decks", N_("Decks"), "deck_plan", DECK_PLANS, _plan_choice),
    Option("jokers", N_("Printed jokers per deck"), "printed_jokers_per_deck", (0, 1, 2), _number),
    Option("first_drop", N_("First drop"), "first_drop", (0, 10, 15, 20, 25, 30), _number, _points_only),
    Option("middle_drop", N_("Middle drop"), "middle_drop", (20, 30, 40, 50, 60, 80), _number, _points_only),
    Option("drops", N_("Drops allowed"), "drops_allowed", (True, False), _yes, _drops_matter),
    Option(
        "wrong_show", N_("Wrong show"), "wrong_declaration", (40, 60, 80, 100, 120, 160), _number, _own_wrong
    ),
    Option("set_size", N_("Largest set"), "max_set_size", (3, 4, 5, 6, 8), _cards),
    Option(
        "turn",
        N_("Turn clock (pick clock with a discard clock)"),
        "turn_seconds",
        (15, 20, 30, 45, 60, 90, 120),
        _seconds,
    ),
    Option("discard", N_("Discard clock"), "discard_seconds", (None, 10, 15, 20, 30), _seconds),
    Option("bank", N_("Time bank"), "extra_time_seconds", (0, 30, 60, 90, 120), _seconds),
    Option("empty_deck", N_("Closed deck used up"), "closed_deck_empty", tuple(ClosedDeckEmpty), _empty_deck),
    Option(
        "pure_protects", N_("A pure sequence alone protects"), "pure_sequence_protects", (False, True), _yes
    ),
)
MOST_SEATS = max(rules.max_players for rules in map(preset, Rules.PRESET_NAMES))
BY_KEY: dict[str, Option] = {option.key: option for option in OPTIONS}
_BY_FIELD: dict[str, Option] = {option.field: option for option in OPTIONS}
# Short names for the changed options in a summary ("octro (changed: first drop 10)").
_SHORT = {
    "deck_plan": "",
    "printed_jokers_per_deck": N_("jokers per deck"),
    "drops_allowed": N_("drops"),
    "wrong_declaration": N_("wrong show"),
    "max_set_size": N_("largest set"),
    "turn_seconds": N_("turn"),
    "discard_seconds": N_("discard clock"),
    "extra_time_seconds": N_("time bank"),
    "closed_deck_empty": N_("empty deck"),
    "pure_sequence_protects": N_("pure sequence protects"),
}


def with_turn_seconds(rules: Rules, seconds: int) -> Rules:
    """A table's own clock instead of its preset's (`/rummy new turn_seconds:`): with a discard
    clock as well, both clocks take it."""
    discard = seconds if rules.discard_seconds is not None else None
    return rules.replace(turn_seconds=seconds, discard_seconds=discard)


def options_for(spec: FormatSpec) -> tuple[Option, ...]:
    return tuple(option for option in OPTIONS if option.applies(spec))


def changed_words(rules: Rules, _: Words = EN) -> str:
    """`first drop 10; turn 45 s`: what differs from the preset, each with its value."""
    words = []
    for name in rules.changed_options():
        value = getattr(rules, name)
        option = _BY_FIELD.get(name)
        if name == "deck_plan":
            said = plan_words(value, _)
        else:
            said = option.words(value, _) if option else _plain(value, _)
        label = _(_SHORT[name]) if name in _SHORT else name.replace("_", " ")
        words.append(f"{label} {said}" if label else said)
    return "; ".join(words)


def _plain(value: Any, _: Words) -> str:
    if isinstance(value, bool):
        return _yes(value, _)
    if isinstance(value, Enum):
        return str(value.value)
    return _("off") if value is None else str(value)


def rules_name(rules: Rules, _: Words = EN) -> str:
    """`octro`, or `octro (changed: first drop 10)`."""
    changed = changed_words(rules, _)
    return (
        _("{preset} (changed: {changes})", preset=rules.preset, changes=changed) if changed else rules.preset
    )


def clock_words(rules: Rules, _: Words = EN) -> str:
    if rules.discard_seconds is not None:
        turn = _(
            "{pick} s to pick + {discard} s to discard",
            pick=rules.turn_seconds,
            discard=rules.discard_seconds,
        )
    else:
        turn = _("{seconds} s a turn", seconds=rules.turn_seconds)
    return turn + (
        ", " + _("{seconds} s bank", seconds=rules.extra_time_seconds) if rules.extra_time_seconds else ""
    )


def drop_words(spec: FormatSpec, rules: Rules, _: Words = EN) -> str:
    """The drops a deal of this format charges (a Pool's own costs, none in Deals)."""
    played = spec.deal_rules(rules)
    if not played.drops_allowed:
        return _("no drops")
    return _("drops {first}/{middle}", first=played.first_drop, middle=played.middle_drop)


# Each preset in a line, for the lists players choose a preset from; every figure read from it.
_SUMMARIES = {
    "standard": N_(
        "The big apps: {least}-{most} players, drops {first}/{middle}, wrong show {wrong}, cap {cap}"
    ),
    "octro": N_(
        "Octro: {least}-{most} players, {jokers} jokers a deck, one joker a run, a 4-card life, Ace {ace}"
    ),
    "app": N_(
        "App screen: {pick} s to pick + {discard} s to discard, missed show {missed}, empty deck: lowest wins"
    ),
    "home": N_(
        "Home: up to {most} players, drops {first}/{middle}, a pure run frees every run, early rummy ×2 or ½"
    ),
}


def preset_summary(name: str, _: Words = EN) -> str:
    """A preset's line in the reader's words: "The big apps: 2-6 players, drops 20/40, …"."""
    rules = preset(name)
    return _(
        _SUMMARIES[name],
        least=MIN_PLAYERS,
        most=rules.max_players,
        first=rules.first_drop,
        middle=rules.middle_drop,
        wrong=rules.wrong_declaration,
        cap=rules.score_cap,
        jokers=rules.printed_jokers_per_deck,
        ace=rules.ace_points,
        pick=rules.turn_seconds,
        discard=rules.discard_seconds,
        missed=rules.missed_declaration_points,
    )


def rules_line(spec: FormatSpec, rules: Rules, _: Words = EN) -> str:
    """The rules' name and the numbers a player meets every turn, for the lobby, the table message
    and the terminal: short, since `/rummy rules` says the rest (issue 26)."""
    return " · ".join((rules_name(rules, _), drop_words(spec, rules, _), clock_words(rules, _)))
