"""Commands as typed records (pokerkit's habit): one frozen dataclass per command, checked once
where it comes in, and written in one logged form.

`parse_command` is the single door for a command that arrives as data (a stored log entry, a
front end's input, anything a hostile user could shape): every field is checked and any bad
value is refused with a `BadCommandError` written for players, never a `TypeError` or
`KeyError` from deeper down. `to_json()` gives back exactly the form the logs have always
stored, so matches stored before these types existed replay unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import compress, repeat
from operator import is_
from typing import ClassVar, cast

from bot.engine.cards import JOKER, STANDARD_PACK, Card, parse_card
from bot.engine.errors import CardNotationError, RummyError

MAX_SEAT = 63  # far beyond any table: a seat number past it is not a seat, whatever the rules
MAX_GROUPS = 14  # a 14-card hand cannot be shown in more groups than cards
MAX_CARD_TEXT = 8  # "JOKER" is the longest card notation

Logged = dict[str, object]  # a command as the logs store it: `to_json()`, read by `parse_command`


class BadCommandError(RummyError):
    """A command whose shape or values are wrong: nothing is done with it."""


class Source(StrEnum):
    CLOSED = "closed"
    OPEN = "open"


_SOURCES = {source.value: source for source in Source}


@dataclass(frozen=True, slots=True)
class Command:
    """A command's name in the log; subclasses add their typed fields. `to_json()` is the
    logged form (`Logged`), which `parse_command` reads back."""

    NAME: ClassVar[str]

    def to_json(self) -> Logged:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class SeatCommand(Command):
    seat: int

    def to_json(self) -> Logged:
        return {"command": self.NAME, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Pick(SeatCommand):
    NAME = "pick"
    source: Source

    def to_json(self) -> Logged:
        return {"command": self.NAME, "seat": self.seat, "source": self.source.value}


@dataclass(frozen=True, slots=True)
class Discard(SeatCommand):
    NAME = "discard"
    card: Card

    def to_json(self) -> Logged:
        return {"command": self.NAME, "seat": self.seat, "card": self.card.code}


@dataclass(frozen=True, slots=True)
class Declare(SeatCommand):
    """`finish` is the card put in the finish slot; None for a 13-card show made before any
    pick, where the rules allow one (004)."""

    NAME = "declare"
    groups: tuple[tuple[Card, ...], ...]
    finish: Card | None

    def to_json(self) -> Logged:
        groups = [" ".join(card.code for card in group) for group in self.groups]
        finish = self.finish.code if self.finish is not None else None
        return {"command": self.NAME, "seat": self.seat, "groups": groups, "finish": finish}


@dataclass(frozen=True, slots=True)
class Drop(SeatCommand):
    NAME = "drop"


@dataclass(frozen=True, slots=True)
class Leave(SeatCommand):
    NAME = "leave"


@dataclass(frozen=True, slots=True)
class Timeout(SeatCommand):
    NAME = "timeout"


@dataclass(frozen=True, slots=True)
class Rejoin(SeatCommand):
    NAME = "rejoin"


@dataclass(frozen=True, slots=True)
class Split(SeatCommand):
    NAME = "split"


@dataclass(frozen=True, slots=True)
class NextDeal(Command):
    NAME = "next_deal"

    def to_json(self) -> Logged:
        return {"command": self.NAME}


COMMANDS: dict[str, type[Command]] = {
    kind.NAME: kind for kind in (Pick, Discard, Declare, Drop, Leave, Timeout, Rejoin, Split, NextDeal)
}
DEAL_COMMANDS: frozenset[type[Command]] = frozenset({Pick, Discard, Declare, Drop, Timeout})
# What a player may ask for at the table (the service fills in their seat; the next deal may be
# started before its clock runs out); timeouts come from the clock, and leaving from the table.
PLAYER_COMMANDS: frozenset[type[Command]] = frozenset({Pick, Discard, Declare, Drop, Rejoin, Split, NextDeal})


def parse_command(raw: object) -> Command:
    """A command from its data form, every field checked; `BadCommandError` for anything else."""
    if isinstance(raw, Command):
        return raw
    if not isinstance(raw, Mapping):
        raise BadCommandError("A command must be a set of named fields.")
    name = raw.get("command")
    kind = COMMANDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise BadCommandError("'{name}' is not a command.", name=_shown(name))
    if kind is NextDeal:
        return NextDeal()
    seat = _seat(_field(raw, "seat"))
    if kind is Pick:
        return Pick(seat, _source(_field(raw, "source")))
    if kind is Discard:
        return Discard(seat, read_card(_field(raw, "card")))
    if kind is Declare:
        finish = raw.get("finish")
        return Declare(seat, _groups(_field(raw, "groups")), None if finish is None else read_card(finish))
    return kind(seat)  # type: ignore[call-arg]  # a seat is all the rest take


def read_logged(entry: object) -> Command:
    """A command from its logged form, as `parse_command` reads it, equal entries read as one
    shared object (a restart reads thousands of logs that repeat a few hundred commands: seat,
    source, card). An entry is found by its fields and the type of its seat, which tells `1`
    from `True` and `1.0` (the only values of a command that compare equal across types); a
    declare's groups are a list, so a declare is read each time."""
    if not isinstance(entry, dict):
        return parse_command(entry)
    key = (*entry.items(), type(entry.get("seat")))
    try:
        command = _READ.get(key)
    except TypeError:  # unhashable: a declare's groups
        return parse_command(entry)
    if command is None:
        command = parse_command(entry)
        if len(_READ) < _READ_MOST:
            _READ[key] = command
    return command


def read_log(entries: Sequence[object]) -> list[Command]:
    """A stored log's commands, each read as `read_logged` reads it, but an entry object read
    before is found by identity alone: the store hands out one shared object per distinct stored
    text (`bot.store.logged`), and nothing changes a logged entry, so a restart reads each
    distinct command once instead of looking up each of the hundreds of thousands its logs hold.
    The entries so found are kept, so that their ids stay theirs (declares, which rarely repeat,
    are not); for entries made afresh (a record read from its own JSON) use `read_logged`."""
    found: list[Command | None] = list(map(_BY_ID.get, map(id, entries)))
    for index in compress(range(len(found)), map(is_, found, repeat(None))):
        entry = entries[index]
        command = found[index] = read_logged(entry)
        if isinstance(entry, dict) and not isinstance(command, Declare) and len(_BY_ID) < _READ_MOST:
            _BY_ID[id(entry)] = command
            _KEPT.append(entry)
    return cast(list[Command], found)  # every None was replaced


_READ: dict[tuple[object, ...], Command] = {}  # logged entries already read, by their fields
_BY_ID: dict[int, Command] = {}  # ...and by identity (`read_log`), those entries kept in `_KEPT`
_KEPT: list[object] = []
_READ_MOST = 8192  # kept at most: far more than the commands that repeat (seats × cards)


def _field(raw: Mapping[object, object], key: str) -> object:
    if key not in raw:
        raise BadCommandError("That command is missing its {key}.", key=key)
    return raw[key]


def _seat(value: object) -> int:
    if type(value) is not int or not 0 <= value <= MAX_SEAT:
        raise BadCommandError("'{value}' is not a seat.", value=_shown(value))
    return value


def _source(value: object) -> Source:
    if isinstance(value, Source):
        return value
    if isinstance(value, str) and value in _SOURCES:
        return _SOURCES[value]
    raise BadCommandError("Pick from the closed deck or the open pile.")


def read_card(value: object) -> Card:
    """A card from anything a user could send (a menu value, a typed word), or a refusal."""
    if isinstance(value, Card):
        return value
    if not isinstance(value, str) or len(value) > MAX_CARD_TEXT:
        raise BadCommandError("'{text}' is not a card: write it like AS, 10H, QD or JK.", text=_shown(value))
    try:
        return parse_card(value)
    except CardNotationError as error:
        raise BadCommandError(str(error)) from None


def _groups(value: object) -> tuple[tuple[Card, ...], ...]:
    """Groups as stored (each a string of card codes) or as lists of cards or codes."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise BadCommandError("Declare your cards as a list of groups.")
    groups: list[tuple[Card, ...]] = []
    for group in value:
        if len(groups) >= MAX_GROUPS:
            raise BadCommandError("A hand is shown in at most {count} groups.", count=MAX_GROUPS)
        groups.append(_group(group))
    return tuple(groups)


def _group(value: object) -> tuple[Card, ...]:
    if isinstance(value, str):
        cards = value.replace(",", " ").split()
        if len(cards) > MAX_GROUPS:
            raise BadCommandError("A group holds at most {count} cards.", count=MAX_GROUPS)
        stored = tuple(map(_BY_CODE.get, cards))  # as the log writes them, looked up at once
        if all(stored):
            return cast(tuple[Card, ...], stored)
        return tuple(read_card(card) for card in cards)
    if isinstance(value, bytes) or not isinstance(value, Iterable):
        raise BadCommandError("Each group is a list of cards.")
    cards_in: list[Card] = []
    for card in value:
        if len(cards_in) >= MAX_GROUPS:
            raise BadCommandError("A group holds at most {count} cards.", count=MAX_GROUPS)
        cards_in.append(read_card(card))
    return tuple(cards_in)


_BY_CODE = {card.code: card for card in (*STANDARD_PACK, JOKER)}


def _shown(value: object) -> str:
    """A bad value as a refusal may quote it: short, whatever it is."""
    text = value if isinstance(value, str) else type(value).__name__
    return text if len(text) <= 20 else text[:19] + "…"
