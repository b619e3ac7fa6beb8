"""A match's history as typed records: each finished deal (`FinishedDeal`) with its seats' results.

A finished deal is what the match keeps of a deal once it is over, and what the `deals` table
stores of it (its `to_json()`, the finished `Deal.to_json()`), written once: the result each seat
was given, the cards as the deal ended, the shuffle's salt, shoe and reshuffles (the reveal that
the commitment published at the start is checked against: `/rummy verify`), and the command log
that replays it move by move (`bot.engine.replay`). It is a value: nothing in it changes, its
commands are the ones its match's log holds and its rows of cards their stored text, so a long
pool keeps its deals for little.

`from_json` reads every form the bot has stored. A deal written before the engine kept each
seat's picks, the clock's turn, the leavers and the stakes (`old_form`) writes back without them,
as it was stored, and a replay compares only what it holds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import Card, format_cards, parse_card, parse_cards
from bot.engine.commands import Command, read_logged
from bot.engine.commitment import commit
from bot.engine.deal import Deal, DealSetup, Seat, SeatStatus
from bot.engine.errors import CorruptTableError, RummyError
from bot.engine.outcomes import Outcome, Phase, Stakes
from bot.engine.rules import Rules

# Members of a deal's record that rows written before they were kept lack (each seat's `picks` too).
_LATER_MEMBERS = ("clock_played", "leavers", "stakes")


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat at the end of a deal: what it held, how it ended and what it was charged
    (a seat that sat the deal out holds nothing, pays nothing and has no outcome)."""

    hand_codes: str  # the hand as stored (`hand`), as scored: a show's less the finish slot's card
    status: SeatStatus
    outcome: Outcome | None
    points: int
    has_picked: bool
    missed_turns: int
    picks: int

    @property
    def hand(self) -> tuple[Card, ...]:
        return tuple(parse_cards(self.hand_codes))

    @property
    def sat_out(self) -> bool:
        return self.status is SeatStatus.SITTING_OUT

    @classmethod
    def of(cls, seat: Seat) -> SeatResult:
        if seat.points is None:
            raise ValueError("a seat of a deal that is over was not charged")
        return cls(
            hand_codes=format_cards(seat.hand),
            status=seat.status,
            outcome=seat.outcome,
            points=seat.points,
            has_picked=seat.has_picked,
            missed_turns=seat.missed_turns,
            picks=seat.picks,
        )

    def to_json(self, old_form: bool = False) -> dict[str, Any]:
        raw = {
            "hand": self.hand_codes,
            "status": self.status.value,
            "has_picked": self.has_picked,
            "missed_turns": self.missed_turns,
            "picks": self.picks,
            "points": self.points,
            "outcome": self.outcome.value if self.outcome else None,
        }
        if old_form:
            del raw["picks"]
        return raw

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> SeatResult:
        points = raw["points"]
        if not isinstance(points, int):
            raise TypeError(f"a finished deal's seat was charged {points!r}")
        return cls(
            hand_codes=_codes(raw["hand"]),
            status=_STATUSES[raw["status"]],
            outcome=_OUTCOMES[raw["outcome"]] if raw["outcome"] else None,
            points=points,
            has_picked=bool(raw["has_picked"]),
            missed_turns=int(raw["missed_turns"]),
            picks=int(raw.get("picks", int(raw["has_picked"]))),  # rows from before counted no picks
        )


@dataclass(frozen=True, slots=True)
class FinishedDeal:
    """A deal that is over, as its match keeps it and the `deals` table stores it (see the module).

    `number` is its place in the match, from 1; the stored record does not hold it. Rows of cards
    are kept as their stored text (`shoe_codes`...) and read into cards when asked for (`shoe`...):
    the text takes less memory than a tuple of the cards, and is not read again at every restart
    for the few who look at an old deal's cards."""

    number: int
    rules: Rules
    players: int
    first_player: int
    winner: int
    seats: tuple[SeatResult, ...]
    cut_joker: Card | None
    wild_rank: int | None
    stakes: Stakes | None
    # The shuffle: revealed when the deal ends, checked against the commitment made at its start.
    salt: str
    shoe_codes: str
    reshuffle_codes: tuple[str, ...]
    toss: tuple[tuple[tuple[int, Card], ...], ...]  # the toss rounds, each seat's card
    log: tuple[Command, ...]
    # Where the cards lay when it ended, and the turn it ended in: what the deal's record holds.
    closed_codes: str
    open_pile_codes: str
    finish_slot_codes: str
    discards: tuple[tuple[int, Card], ...]  # every card discarded, in order, with its seat
    turn: int
    turn_number: int
    picked: Card | None
    picked_from_open: bool
    open_top_is_discard: bool
    clock_played: bool
    leavers: tuple[int, ...]
    old_form: bool = False  # stored before `_LATER_MEMBERS` and the seats' picks were kept

    @property
    def shoe(self) -> tuple[Card, ...]:
        """The shuffled shoe as dealt."""
        return tuple(parse_cards(self.shoe_codes))

    @property
    def reshuffles(self) -> tuple[tuple[Card, ...], ...]:
        """Each order the open pile was shuffled into when the closed deck ran out."""
        return tuple(tuple(parse_cards(order)) for order in self.reshuffle_codes)

    @property
    def closed(self) -> tuple[Card, ...]:
        return tuple(parse_cards(self.closed_codes))

    @property
    def open_pile(self) -> tuple[Card, ...]:
        return tuple(parse_cards(self.open_pile_codes))

    @property
    def finish_slot(self) -> tuple[Card, ...]:
        return tuple(parse_cards(self.finish_slot_codes))

    @property
    def commitment(self) -> str:
        """The hash published when the deal started, which the shoe and salt check out against."""
        return commit(self.salt, self.shoe)

    @property
    def setup(self) -> DealSetup:
        """What the deal drew at random, to deal it again (`Deal.restart`)."""
        return DealSetup(
            players=self.players,
            rules=self.rules,
            first_player=self.first_player,
            sitting_out=tuple(seat for seat, result in enumerate(self.seats) if result.sat_out),
            shoe=self.shoe,
            toss=self.toss,
            salt=self.salt,
            reshuffles=self.reshuffles,
        )

    @classmethod
    def of(cls, deal: Deal, number: int) -> FinishedDeal:
        """The record of `deal`, which is over: number `number` of its match."""
        if deal.phase is not Phase.OVER or deal.winner is None:
            raise ValueError("only a deal that is over has a result")
        return cls(
            number=number,
            rules=deal.rules,
            players=deal.players,
            first_player=deal.first_player,
            winner=deal.winner,
            seats=tuple(SeatResult.of(seat) for seat in deal.seats),
            cut_joker=deal.cut_joker,
            wild_rank=deal.wild_rank,
            stakes=deal.stakes,
            salt=deal.salt,
            shoe_codes=format_cards(deal.shoe),
            reshuffle_codes=tuple(format_cards(order) for order in deal.reshuffles),
            toss=tuple(tuple(round_.items()) for round_ in deal.toss),
            log=tuple(deal.log),
            closed_codes=format_cards(deal.closed),
            open_pile_codes=format_cards(deal.open_pile),
            finish_slot_codes=format_cards(deal.finish_slot),
            discards=tuple(deal.discards),
            turn=deal.turn,
            turn_number=deal.turn_number,
            picked=deal.picked,
            picked_from_open=deal.picked_from_open,
            open_top_is_discard=deal.open_top_is_discard,
            clock_played=deal.clock_played,
            leavers=tuple(deal.leavers),
        )

    def to_json(self) -> dict[str, Any]:
        """The record as stored: the finished `Deal.to_json()`, in the form it was written."""
        raw = {
            "rules": self.rules.to_json(),
            "players": self.players,
            "first_player": self.first_player,
            "shoe": self.shoe_codes,
            "toss": [{str(seat): card.code for seat, card in round_} for round_ in self.toss],
            "salt": self.salt,
            "seats": [seat.to_json(self.old_form) for seat in self.seats],
            "closed": self.closed_codes,
            "open_pile": self.open_pile_codes,
            "cut_joker": self.cut_joker.code if self.cut_joker else None,
            "wild_rank": self.wild_rank,
            "turn": self.turn,
            "phase": Phase.OVER.value,
            "turn_number": self.turn_number,
            "picked": self.picked.code if self.picked else None,
            "picked_from_open": self.picked_from_open,
            "open_top_is_discard": self.open_top_is_discard,
            "finish_slot": self.finish_slot_codes,
            "discards": [[seat, card.code] for seat, card in self.discards],
            "reshuffles": list(self.reshuffle_codes),
            "clock_played": self.clock_played,
            "leavers": list(self.leavers),
            "stakes": self.stakes.value if self.stakes else None,
            "winner": self.winner,
            "log": [command.to_json() for command in self.log],
        }
        if self.old_form:
            for key in _LATER_MEMBERS:
                del raw[key]
        return raw

    @classmethod
    def from_json(
        cls, raw: Mapping[str, Any], number: int, log: Sequence[Command] | None = None
    ) -> FinishedDeal:
        """Deal `number` of its match from its stored record, in any form the bot has written;
        `CorruptTableError` for anything that is not the record of a deal that is over. `log`:
        its commands, already read (its match's own)."""
        try:
            if raw["phase"] != Phase.OVER.value or not isinstance(raw["winner"], int):
                raise ValueError("the deal has not ended")
            seats = tuple(SeatResult.from_json(seat) for seat in raw["seats"])
            if len(seats) != raw["players"]:
                raise ValueError(f"{len(seats)} seats at a deal of {raw['players']} players")
            return cls(
                number=number,
                rules=Rules.from_json(raw["rules"]),
                players=raw["players"],
                first_player=raw["first_player"],
                winner=raw["winner"],
                seats=seats,
                cut_joker=_card_or_none(raw["cut_joker"]),
                wild_rank=raw["wild_rank"],
                stakes=Stakes(raw["stakes"]) if raw.get("stakes") else None,
                salt=raw["salt"],
                shoe_codes=_codes(raw["shoe"]),
                reshuffle_codes=tuple(map(_codes, raw["reshuffles"])),
                toss=tuple(
                    tuple((int(seat), parse_card(code)) for seat, code in round_.items())
                    for round_ in raw["toss"]
                ),
                log=tuple(map(read_logged, raw["log"]) if log is None else log),
                closed_codes=_codes(raw["closed"]),
                open_pile_codes=_codes(raw["open_pile"]),
                finish_slot_codes=_codes(raw["finish_slot"]),
                discards=tuple(map(_DISCARDS.__getitem__, map(tuple, raw["discards"]))),
                turn=raw["turn"],
                turn_number=raw["turn_number"],
                picked=_card_or_none(raw["picked"]),
                picked_from_open=raw["picked_from_open"],
                open_top_is_discard=raw["open_top_is_discard"],
                clock_played=raw.get("clock_played", False),
                leavers=tuple(raw.get("leavers", ())),
                old_form=not any(key in raw for key in _LATER_MEMBERS),
            )
        except (RummyError, LookupError, TypeError, ValueError, AttributeError) as error:
            raise CorruptTableError(f"finished deal {number} cannot be read: {error}") from error

    def as_stored_like(self, other: FinishedDeal) -> FinishedDeal:
        """This record as `other`'s form would store it: in the old form, read back without the
        members that form lacks, so that the two compare on what `other` holds."""
        if not other.old_form or self.old_form:
            return self
        return FinishedDeal.from_json(dataclasses.replace(self, old_form=True).to_json(), self.number)


class _Discards(dict[tuple[object, ...], tuple[int, Card]]):
    """Every (seat, card) discard read, by its stored pair: one shared tuple each (a long pool
    keeps thousands), read at a dict lookup's cost: seats times the 53 cards, at most `MOST`."""

    MOST = 4096

    def __missing__(self, key: tuple[object, ...]) -> tuple[int, Card]:
        seat, code = key
        if not isinstance(seat, int) or not isinstance(code, str):
            raise TypeError(f"{key!r} is not a discard")
        value = (int(seat), parse_card(code))
        if len(self) < self.MOST:
            self[key] = value
        return value


_DISCARDS = _Discards()
_STATUSES = {status.value: status for status in SeatStatus}
_OUTCOMES = {outcome.value: outcome for outcome in Outcome}


def _codes(text: object) -> str:
    """A row of cards as stored, read when asked for (a row that does not read is refused then)."""
    if not isinstance(text, str):
        raise TypeError(f"{text!r} is not a row of cards")
    return text


def _card_or_none(code: object) -> Card | None:
    if code is None or code == "":
        return None
    if not isinstance(code, str):
        raise TypeError(f"{code!r} is not a card")
    return parse_card(code)
