"""What a deal or a match says happened, as typed records. Front ends turn events into messages;
the store logs them.

Every kind of event is a small frozen class whose payload is attributes (`Picked.card`,
`DealOver.hands`, `WrongShow.reason`), so a reader is checked by mypy instead of trusting a
string key. `EVENTS` maps each stored kind name to its class; `to_json()` writes the one stored
form (`{"kind", "seat"?, "card"?, "private"?, "data"?, "secret"?}`, unchanged since events were
first logged) and `event_from_json` reads it back, old rows included (see `_Stored`).

An event may name a card that only one seat may see (the card drawn from the closed deck), and
may carry details for that seat alone (a wrong show's groups and the reason it failed, which
name cards the others must not learn mid-deal). `visible_to(seat)` gives the same typed event
with whatever that seat may not see set to None, so hiding is decided once, here, not in each
front end; events with nothing to hide are returned as they are, never copied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from bot.engine.cards import Card, format_cards, parse_card, parse_cards
from bot.engine.commands import Source
from bot.engine.errors import CardNotationError
from bot.engine.outcomes import Outcome, Phase, Stakes

Groups = tuple[tuple[Card, ...], ...]


class EventKind(StrEnum):
    TOSS = "toss"
    DEALT = "dealt"
    TURN = "turn"
    PICKED = "picked"
    DISCARDED = "discarded"
    MISSED_TURN = "missed_turn"
    DROPPED = "dropped"
    LEFT = "left"
    WRONG_SHOW = "wrong_show"
    DECLARED = "declared"
    RESHUFFLED = "reshuffled"
    DECK_EXHAUSTED = "deck_exhausted"
    DEAL_OVER = "deal_over"
    # Match events.
    DEAL_STARTED = "deal_started"
    STANDINGS = "standings"
    ELIMINATED = "eliminated"
    REJOINED = "rejoined"
    SPLIT_VOTE = "split_vote"
    MATCH_OVER = "match_over"


class StoredEventError(ValueError):
    """A stored event whose shape no version of this code wrote: the row holding it is damaged."""


class Event:
    """What every event has: its kind, the seat it is about (None for the whole table), its
    view for a seat, and its stored form. The subclasses below are the events."""

    __slots__ = ()
    KIND: ClassVar[EventKind]
    seat: int | None

    @property
    def kind(self) -> EventKind:
        return self.KIND

    @property
    def private(self) -> bool:
        """Whether part of this event is for its seat alone (hidden from the others by `visible_to`)."""
        return False

    def visible_to(self, seat: int | None) -> Event:
        """The event as `seat` may see it (None: a spectator or the public channel)."""
        return self

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.KIND.value}
        if self.seat is not None:
            out["seat"] = self.seat
        card = self._card()
        if card is not None:
            out["card"] = card.code
        if self.private:
            out["private"] = True
        data = self._data()
        if data:
            out["data"] = data
        secret = self._secret()
        if secret:
            out["secret"] = secret
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, object]) -> Event:
        return event_from_json(raw)

    # What each kind puts in the stored form's slots (see `to_json`).
    def _card(self) -> Card | None:
        return None

    def _data(self) -> dict[str, object]:
        return {}

    def _secret(self) -> dict[str, object]:
        return {}


# --------------------------------------------------------------------- deal events


@dataclass(frozen=True, slots=True)
class Toss(Event):
    """Who plays first: `rounds` are the toss draws, seat and card, ties drawing again."""

    KIND = EventKind.TOSS
    seat: int
    rounds: tuple[tuple[tuple[int, Card], ...], ...]

    def _data(self) -> dict[str, object]:
        return {"rounds": [{str(seat): card.code for seat, card in drawn} for drawn in self.rounds]}


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """The cards are dealt: `seat` plays first; the open card, the cut joker and the wild rank,
    and the shuffle's commitment (see bot.engine.commitment)."""

    KIND = EventKind.DEALT
    seat: int
    open_card: Card
    cut_joker: Card | None
    cut_card_in_play: bool  # the cut card lies face up under the closed deck (001, 003)
    wild_rank: int | None
    commitment: str

    def _card(self) -> Card | None:
        return self.open_card

    def _data(self) -> dict[str, object]:
        return {
            "cut_joker": self.cut_joker.code if self.cut_joker else None,
            "cut_card_in_play": self.cut_card_in_play,
            "wild_rank": self.wild_rank,
            "commitment": self.commitment,
        }


@dataclass(frozen=True, slots=True)
class Turn(Event):
    KIND = EventKind.TURN
    seat: int
    turn_number: int

    def _data(self) -> dict[str, object]:
        return {"turn_number": self.turn_number}


@dataclass(frozen=True, slots=True)
class Picked(Event):
    """A card picked; from the closed deck it is private: `card` is None in others' views."""

    KIND = EventKind.PICKED
    seat: int
    source: Source
    card: Card | None

    @property
    def private(self) -> bool:
        return self.source is Source.CLOSED

    def visible_to(self, seat: int | None) -> Picked:
        if seat != self.seat and self.card is not None and self.source is Source.CLOSED:
            return Picked(self.seat, self.source, None)
        return self

    def _card(self) -> Card | None:
        return self.card

    def _data(self) -> dict[str, object]:
        return {"source": self.source.value}


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    KIND = EventKind.DISCARDED
    seat: int
    card: Card

    def _card(self) -> Card | None:
        return self.card


@dataclass(frozen=True, slots=True)
class MissedTurn(Event):
    """The clock played for `seat`: `missed` turns in a row now, in `phase` (None in rows
    written before two-clock turns)."""

    KIND = EventKind.MISSED_TURN
    seat: int
    missed: int
    phase: Phase | None

    def _data(self) -> dict[str, object]:
        if self.phase is None:
            return {"missed": self.missed}
        return {"missed": self.missed, "phase": self.phase.value}


@dataclass(frozen=True, slots=True)
class Dropped(Event):
    KIND = EventKind.DROPPED
    seat: int
    points: int
    outcome: Outcome  # a first or a middle drop

    def _data(self) -> dict[str, object]:
        return {"points": self.points, "outcome": self.outcome.value}


@dataclass(frozen=True, slots=True)
class Left(Event):
    """`seat` left the table: `points` is what leaving the deal in progress cost (None when the
    player left between deals, or in a deal they were sitting out)."""

    KIND = EventKind.LEFT
    seat: int
    points: int | None = None

    def _data(self) -> dict[str, object]:
        return {} if self.points is None else {"points": self.points}


@dataclass(frozen=True, slots=True)
class WrongShow(Event):
    """A declaration that failed: the player pays `points` and is out while the others play on.

    The finish card, the groups shown and the reason they fail name the player's cards, so they
    are for the player alone: None in every other seat's view."""

    KIND = EventKind.WRONG_SHOW
    seat: int
    finish: Card | None  # None also for a 13-card show before any pick (`before_pick`)
    points: int
    groups: Groups | None
    reason: str | None
    automatic: bool = False  # made by the clock for a complete hand (003)
    before_pick: bool = False  # a 13-card show at one's first turn (004)

    @property
    def private(self) -> bool:
        return True

    def visible_to(self, seat: int | None) -> WrongShow:
        hidden = self.finish is None and self.groups is None and self.reason is None
        if seat != self.seat and not hidden:
            return WrongShow(self.seat, None, self.points, None, None, self.automatic, self.before_pick)
        return self

    def _card(self) -> Card | None:
        return self.finish

    def _data(self) -> dict[str, object]:
        data: dict[str, object] = {"points": self.points}
        if self.automatic:
            data["automatic"] = True
        if self.before_pick:
            data["before_pick"] = True
        return data

    def _secret(self) -> dict[str, object]:
        if self.groups is None and self.reason is None:
            return {}
        return {"groups": _groups_json(self.groups or ()), "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """A valid show: `seat` wins the deal (a `DealOver` follows)."""

    KIND = EventKind.DECLARED
    seat: int
    finish: Card | None  # None for a 13-card show before any pick (`before_pick`)
    groups: Groups
    reason: str  # the judge's words on the show
    automatic: bool = False  # made by the clock for a complete hand (003)
    before_pick: bool = False  # a 13-card show at one's first turn (004)
    stakes: Stakes | None = None  # an early show doubles or halves what the others pay (004)

    def _card(self) -> Card | None:
        return self.finish

    def _data(self) -> dict[str, object]:
        data: dict[str, object] = {"groups": _groups_json(self.groups), "reason": self.reason}
        if self.automatic:
            data["automatic"] = True
        if self.before_pick:
            data["before_pick"] = True
        if self.stakes is not None:
            data["stakes"] = self.stakes.value
        return data


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The open pile, less its top card, became closed deck `number` (1, 2...) of `count` cards,
    with its own commitment (None in rows written before commitments)."""

    KIND = EventKind.RESHUFFLED
    count: int
    number: int
    commitment: str | None
    seat: None = field(default=None, init=False, repr=False)

    def _data(self) -> dict[str, object]:
        if self.commitment is None:
            return {"count": self.count, "order": self.number}
        return {"count": self.count, "number": self.number, "commitment": self.commitment}


@dataclass(frozen=True, slots=True)
class DeckExhausted(Event):
    """The deck ran out for good: every hand still in is scored (a `DealOver` follows)."""

    KIND = EventKind.DECK_EXHAUSTED
    seat: None = field(default=None, init=False, repr=False)


@dataclass(frozen=True, slots=True)
class DealOver(Event):
    """The deal's result, seat by seat (`seat` is the winner), and the shuffle reveal: the salt,
    the shoe and every reshuffle, which anyone can check against the published commitments."""

    KIND = EventKind.DEAL_OVER
    seat: int
    points: tuple[int | None, ...]
    outcomes: tuple[Outcome | None, ...]  # None: the seat sat this deal out
    hands: tuple[tuple[Card, ...], ...]
    stakes: Stakes | None
    salt: str
    shoe: tuple[Card, ...]
    reshuffles: tuple[tuple[Card, ...], ...]

    def _data(self) -> dict[str, object]:
        return {
            "points": list(self.points),
            "outcomes": [outcome.value if outcome else None for outcome in self.outcomes],
            "hands": [format_cards(hand) for hand in self.hands],
            "stakes": self.stakes.value if self.stakes else None,
            "salt": self.salt,
            "shoe": format_cards(self.shoe),
            "reshuffles": [format_cards(order) for order in self.reshuffles],
        }


# --------------------------------------------------------------------- match events


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """Deal `number` (1, 2...) of the match starts; `seat` plays first."""

    KIND = EventKind.DEAL_STARTED
    seat: int
    number: int

    def _data(self) -> dict[str, object]:
        return {"number": self.number}


@dataclass(frozen=True, slots=True)
class Standings(Event):
    """The match's standings after a deal (chips, or pool scores); `seat` won the deal."""

    KIND = EventKind.STANDINGS
    seat: int
    standings: tuple[int, ...]

    def _data(self) -> dict[str, object]:
        return {"standings": list(self.standings)}


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    KIND = EventKind.ELIMINATED
    seat: int
    score: int

    def _data(self) -> dict[str, object]:
        return {"score": self.score}


@dataclass(frozen=True, slots=True)
class Rejoined(Event):
    KIND = EventKind.REJOINED
    seat: int
    score: int

    def _data(self) -> dict[str, object]:
        return {"score": self.score}


@dataclass(frozen=True, slots=True)
class SplitVote(Event):
    """`seat` agreed to split the pool; `votes` are every seat that has agreed so far."""

    KIND = EventKind.SPLIT_VOTE
    seat: int
    votes: tuple[int, ...]

    def _data(self) -> dict[str, object]:
        return {"votes": list(self.votes)}


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    """The match is over: `seat` won it, or None when the pool was split (`shares`, seat and share)."""

    KIND = EventKind.MATCH_OVER
    seat: int | None
    standings: tuple[int, ...]
    shares: tuple[tuple[int, float], ...] = ()

    def _data(self) -> dict[str, object]:
        data: dict[str, object] = {"standings": list(self.standings)}
        if self.shares:
            data["shares"] = {str(seat): share for seat, share in self.shares}
        return data


EVENTS: dict[EventKind, type[Event]] = {
    kind.KIND: kind
    for kind in (
        Toss,
        Dealt,
        Turn,
        Picked,
        Discarded,
        MissedTurn,
        Dropped,
        Left,
        WrongShow,
        Declared,
        Reshuffled,
        DeckExhausted,
        DealOver,
        DealStarted,
        Standings,
        Eliminated,
        Rejoined,
        SplitVote,
        MatchOver,
    )
}


# --------------------------------------------------------------------- the stored form


def event_from_json(raw: Mapping[str, object]) -> Event:
    """An event from its stored form, as written by `to_json` now or by earlier releases (a
    wrong show with its groups in public `data`, a turn timeout without its phase, a deal
    without `cut_card_in_play`, a reshuffle numbered `order`). `StoredEventError` (a
    `ValueError`) for a shape no release wrote."""
    stored = _Stored(raw)
    try:
        return _read(stored)
    except StoredEventError:
        raise
    except (CardNotationError, ValueError) as error:  # a card, a source, a phase... no release wrote
        raise StoredEventError(str(error)) from None


def _read(stored: _Stored) -> Event:
    kind = stored.kind
    if kind is EventKind.TOSS:
        rounds = stored.data_list("rounds")
        return Toss(stored.seat(), tuple(_toss_round(drawn) for drawn in rounds))
    if kind is EventKind.DEALT:
        return Dealt(
            stored.seat(),
            stored.card(),
            stored.data_card("cut_joker"),
            stored.data_bool("cut_card_in_play", False),
            stored.data_optional_int("wild_rank"),
            stored.data_str("commitment"),
        )
    if kind is EventKind.TURN:
        return Turn(stored.seat(), stored.data_int("turn_number"))
    if kind is EventKind.PICKED:
        return Picked(stored.seat(), Source(stored.data_str("source")), stored.optional_card())
    if kind is EventKind.DISCARDED:
        return Discarded(stored.seat(), stored.card())
    if kind is EventKind.MISSED_TURN:
        phase = stored.data.get("phase")  # None in rows from before two-clock turns
        missed = stored.data_int("missed")
        return MissedTurn(stored.seat(), missed, None if phase is None else Phase(_str(phase)))
    if kind is EventKind.DROPPED:
        return Dropped(stored.seat(), stored.data_int("points"), Outcome(stored.data_str("outcome")))
    if kind is EventKind.LEFT:
        return Left(stored.seat(), stored.data_optional_int("points"))
    if kind is EventKind.WRONG_SHOW:
        # Before wrong shows were private, their groups and reason were in the public data.
        shown = stored.secret if "groups" in stored.secret else stored.data
        groups = _groups(shown["groups"]) if "groups" in shown else None
        reason = _str(shown["reason"]) if "reason" in shown else None
        return WrongShow(
            stored.seat(),
            stored.optional_card(),
            stored.data_int("points"),
            groups,
            reason,
            stored.data_bool("automatic", False),
            stored.data_bool("before_pick", False),
        )
    if kind is EventKind.DECLARED:
        stakes = stored.data.get("stakes")
        return Declared(
            stored.seat(),
            stored.optional_card(),
            _groups(stored.data["groups"]),
            stored.data_str("reason"),
            stored.data_bool("automatic", False),
            stored.data_bool("before_pick", False),
            None if stakes is None else Stakes(_str(stakes)),
        )
    if kind is EventKind.RESHUFFLED:
        if "number" not in stored.data:  # rows from before reshuffle commitments
            return Reshuffled(stored.data_int("count"), stored.data_int("order"), None)
        return Reshuffled(stored.data_int("count"), stored.data_int("number"), stored.data_str("commitment"))
    if kind is EventKind.DECK_EXHAUSTED:
        return DeckExhausted()
    if kind is EventKind.DEAL_OVER:
        stakes = stored.data.get("stakes")
        return DealOver(
            stored.seat(),
            tuple(_optional_int(points) for points in stored.data_list("points")),
            tuple(None if o is None else Outcome(_str(o)) for o in stored.data_list("outcomes")),
            tuple(tuple(parse_cards(_str(hand))) for hand in stored.data_list("hands")),
            None if stakes is None else Stakes(_str(stakes)),
            stored.data_str("salt"),
            tuple(parse_cards(stored.data_str("shoe"))),
            tuple(tuple(parse_cards(_str(order))) for order in stored.data_list("reshuffles")),
        )
    if kind is EventKind.DEAL_STARTED:
        return DealStarted(stored.seat(), stored.data_int("number"))
    if kind is EventKind.STANDINGS:
        return Standings(stored.seat(), stored.data_ints("standings"))
    if kind is EventKind.ELIMINATED:
        return Eliminated(stored.seat(), stored.data_int("score"))
    if kind is EventKind.REJOINED:
        return Rejoined(stored.seat(), stored.data_int("score"))
    if kind is EventKind.SPLIT_VOTE:
        return SplitVote(stored.seat(), stored.data_ints("votes"))
    if kind is EventKind.MATCH_OVER:
        shares = _mapping(stored.data.get("shares", {}))
        return MatchOver(
            stored.optional_seat(),
            stored.data_ints("standings"),
            tuple((int(seat), _float(share)) for seat, share in shares.items()),
        )
    raise StoredEventError(f"no reader for the event kind {kind.value!r}")  # pragma: no cover


class _Stored:
    """One stored event read slot by slot, each value checked for the type it must have."""

    __slots__ = ("data", "kind", "raw", "secret")

    def __init__(self, raw: Mapping[str, object]) -> None:
        if not isinstance(raw, Mapping):
            raise StoredEventError("a stored event is not a set of named fields")
        try:
            self.kind = EventKind(_str(raw.get("kind")))
        except ValueError:
            raise StoredEventError(f"unknown event kind {raw.get('kind')!r}") from None
        self.raw = raw
        self.data = _mapping(raw.get("data", {}))
        self.secret = _mapping(raw.get("secret", {}))

    def seat(self) -> int:
        return _int(self.raw.get("seat"))

    def optional_seat(self) -> int | None:
        return _optional_int(self.raw.get("seat"))

    def card(self) -> Card:
        return parse_card(_str(self.raw.get("card")))

    def optional_card(self) -> Card | None:
        code = self.raw.get("card")
        return None if code is None else parse_card(_str(code))

    def data_int(self, key: str) -> int:
        return _int(self.data.get(key))

    def data_optional_int(self, key: str) -> int | None:
        return _optional_int(self.data.get(key))

    def data_ints(self, key: str) -> tuple[int, ...]:
        return tuple(_int(value) for value in self.data_list(key))

    def data_str(self, key: str) -> str:
        return _str(self.data.get(key))

    def data_bool(self, key: str, default: bool) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise StoredEventError(f"{key} is not true or false")
        return value

    def data_card(self, key: str) -> Card | None:
        code = self.data.get(key)
        return None if code is None else parse_card(_str(code))

    def data_list(self, key: str) -> Sequence[object]:
        value = self.data.get(key)
        if not isinstance(value, list | tuple):
            raise StoredEventError(f"{key} is not a list")
        return value


def _mapping(value: object) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise StoredEventError("a stored event's data is not a set of named fields")
    return value


def _int(value: object) -> int:
    if type(value) is not int:
        raise StoredEventError(f"{value!r} is not a whole number")
    return value


def _optional_int(value: object) -> int | None:
    return None if value is None else _int(value)


def _float(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise StoredEventError(f"{value!r} is not a number")
    return float(value)


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise StoredEventError(f"{value!r} is not text")
    return value


def _toss_round(value: object) -> tuple[tuple[int, Card], ...]:
    return tuple((int(seat), parse_card(_str(code))) for seat, code in _mapping(value).items())


def _groups(value: object) -> Groups:
    if not isinstance(value, list | tuple):
        raise StoredEventError("groups are not a list")
    return tuple(tuple(parse_cards(_str(group))) for group in value)


def _groups_json(groups: Groups) -> list[str]:
    return [format_cards(group) for group in groups]
