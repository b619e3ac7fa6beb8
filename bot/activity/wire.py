"""What crosses the Activity's live connection, written and read in one place.

Out: a table's view as JSON (`table_json`: what anyone at the table may see, made from the
service's frozen `TableView`, whose deal is the spectator's), a seat's own hand (`hand_json`:
from that seat's `HandView`, sent on that seat's connection alone) and the events a reader may
see (`TableEvent.visible_to`). In: a page's move (`read_move`), checked field by field into a
`Move`, which becomes the same typed engine command a button makes (`Move.command`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import Card
from bot.engine.commands import (
    BadCommandError,
    Command,
    Discard,
    Drop,
    Pick,
    Rejoin,
    SeatCommand,
    Source,
    Split,
    read_card,
)
from bot.engine.deal import SeatView
from bot.engine.declaration import best_declaration
from bot.engine.melds import Judgement
from bot.i18n import Words
from bot.present.hand_layout import suggested_groups
from bot.present.show_reasons import reason_words
from bot.service.table_events import TableEvent
from bot.service.views import HandView, TableView

Json = dict[str, object]
MAX_CLIENT_ID = 64  # a page's id for one move (it retries with the same id)
MAX_TEXT = 16  # "declare", "closed", a card's code: nothing a move holds is longer
MOVES = ("pick", "discard", "drop", "declare", "rejoin", "split")
BETWEEN_DEALS: dict[str, type[SeatCommand]] = {"rejoin": Rejoin, "split": Split}  # Pool's


def card_code(card: Card | None) -> str | None:
    return card.code if card is not None else None


def table_json(view: TableView, now: float) -> Json:
    """The table as anyone in its channel may see it: seats, clock, rules' costs, the deal in
    progress as a spectator sees it (counts, the open card, the wild rank), results and
    standings. `now` is the service's clock, so that a page counts the deadline down with its
    own clock's offset."""
    match = view.match
    rules = view.rules
    out: Json = {
        "id": view.id,
        "channel_id": str(view.channel_id),
        "status": view.status.value,
        "format": view.format.value,
        "host_id": _id(view.host_id),
        "max_seats": view.max_seats,
        "point_value": view.point_value,
        "seats": [
            {"name": sitter.name, "user_id": _id(sitter.user_id), "computer": sitter.computer}
            for sitter in view.seats
        ],
        "now": now,
        "clock": None
        if view.clock is None
        else {"seat": view.clock.seat, "deadline": view.clock.deadline, "base": view.clock.base},
        "rules": {
            "first_drop": rules.first_drop,
            "middle_drop": rules.middle_drop,
            "wrong_show": rules.wrong_declaration,
            "drops_allowed": rules.drops_allowed,
        },
        "match": None,
    }
    if match is not None:
        deal = match.deal
        out["match"] = {
            "phase": match.phase.value,
            "standings": list(match.standings),
            "seat_status": [status.value for status in match.seat_status],
            "history": [list(points) for points in match.history],
            "winners": list(match.winners),
            "winner": match.winner,
            "deal_number": match.deal_number,
            "rejoinable": list(match.rejoinable),
            "can_split": match.can_split,
            "split_votes": list(match.split_votes),
            "deal": None if deal is None else _deal_json(deal),
        }
    return out


def _deal_json(deal: SeatView) -> Json:
    """The deal as a spectator's `SeatView` holds it: no hand, no deck order."""
    return {
        "phase": deal.phase.value,
        "turn": deal.turn,
        "turn_number": deal.turn_number,
        "open_card": card_code(deal.open_card),
        "closed_count": deal.closed_count,
        "cut_joker": card_code(deal.cut_joker),
        "wild_rank": deal.wild_rank,
        "statuses": [status.value for status in deal.statuses],
        "hand_sizes": list(deal.hand_sizes),
        "has_picked": list(deal.has_picked),
    }


def hand_json(hand: HandView) -> Json:
    """A seat's own cards, for that seat's connection alone: the cards, the solver's grouping
    of them (the page shows it until the player groups their own), the card taken this turn,
    what the seat may do now and what that costs, and the turn a move made now is for."""
    seen, legal = hand.seen, hand.legal
    return {
        "seat": hand.seat,
        "cards": [card.code for card in seen.hand],
        "suggested": [[card.code for card in group] for group in _suggestion(seen)],
        "picked": card_code(seen.picked),
        "turn": hand.turn_token,
        "legal": {
            "pick_closed": legal.pick_closed,
            "pick_open": legal.pick_open,
            "discards": sorted({card.code for card in legal.discards}),
            "drop": legal.drop,
            "declare": legal.declare,
            "drop_cost": legal.drop_cost,
            "wrong_show_cost": legal.wrong_show_cost,
        },
    }


def _suggestion(seen: SeatView) -> list[list[Card]]:
    if not seen.hand:
        return []
    return suggested_groups(seen.hand, seen.wild_rank, seen.rules)


def events_json(events: Sequence[TableEvent], seat: int | None) -> list[Json]:
    """The events as `seat` (None: a spectator) may see them."""
    return [event.visible_to(seat).to_json() for event in events]


def _id(value: int | None) -> str | None:
    """Discord ids as text: JavaScript's numbers lose their last digits."""
    return str(value) if value is not None else None


# ----------------------------------------------------------------- moves


@dataclass(frozen=True, slots=True)
class Move:
    """A move as a page sends it: what to do, the turn it was made for (`HandView.turn_token`)
    and the page's own id for it, the same on every retry, so that it is applied once."""

    client_id: str
    turn: str | None
    kind: str
    source: Source | None = None
    card: Card | None = None
    groups: tuple[tuple[Card, ...], ...] | None = None

    @property
    def between_deals(self) -> bool:
        return self.kind in BETWEEN_DEALS

    def seat_command(self, seat: int) -> Command:
        """Pool's rejoin or split for the seat: played between deals, with no hand to read."""
        return BETWEEN_DEALS[self.kind](seat)

    def command(self, seen: SeatView) -> Command:
        """The engine's command for the seat whose view this is; a declaration is the seat's
        own grouping with the finish card the engine judges best (as the Declare button's)."""
        seat = seen.seat
        if seat is None:
            raise BadCommandError("You are not seated at this table.")
        if self.kind == "pick" and self.source is not None:
            return Pick(seat, self.source)
        if self.kind == "discard" and self.card is not None:
            return Discard(seat, self.card)
        if self.kind == "drop":
            return Drop(seat)
        # a declaration, whose groups `read_move` checked
        return best_declaration(seen, self.groups, self.card)


def read_move(raw: object) -> Move:
    """A page's `{"id", "turn", "move": {"kind", ...}}`, every field checked: a
    `BadCommandError` (in players' words) for anything else."""
    if not isinstance(raw, Mapping):
        raise BadCommandError("A command must be a set of named fields.")
    client_id, turn, move = raw.get("id"), raw.get("turn"), raw.get("move")
    if not isinstance(client_id, str) or not 0 < len(client_id) <= MAX_CLIENT_ID:
        raise BadCommandError("A move needs an id.")
    if turn is not None and (not isinstance(turn, str) or len(turn) > MAX_CLIENT_ID):
        raise BadCommandError("A move needs an id.")
    if not isinstance(move, Mapping) or move.get("kind") not in MOVES:
        raise BadCommandError("'{name}' is not a command.", name=str(_text(move, "kind"))[:MAX_TEXT])
    kind = str(move["kind"])
    if kind == "pick":
        source = _text(move, "source")
        if source not in ("closed", "open"):
            raise BadCommandError("'{name}' is not a command.", name=str(source)[:MAX_TEXT])
        return Move(client_id, turn, kind, source=Source(source))
    if kind == "discard":
        return Move(client_id, turn, kind, card=read_card(move.get("card")))
    if kind == "declare":
        finish = _text(move, "finish")
        card = read_card(finish) if finish is not None else None
        return Move(client_id, turn, kind, card=card, groups=_groups(move))
    return Move(client_id, turn, kind)


def _groups(move: Mapping[Any, object]) -> tuple[tuple[Card, ...], ...]:
    groups = move.get("groups")
    if not isinstance(groups, Sequence) or isinstance(groups, str) or len(groups) > MAX_CLIENT_ID:
        raise BadCommandError("A command must be a set of named fields.")
    return tuple(_group(group) for group in groups)


@dataclass(frozen=True, slots=True)
class Judging:
    """A page asks how the engine judges its groups: as they are (the page colours each group by
    its kind), or, with `declare`, as the declaration it is about to confirm (the finish card
    taken out as the Declare button's would be), so that the confirmation says whether it is
    valid before a wrong show costs anything."""

    client_id: str
    groups: tuple[tuple[Card, ...], ...]
    finish: Card | None
    declare: bool


def read_judging(raw: Mapping[str, object]) -> Judging:
    """A page's `{"id", "groups", "finish", "declare"}`, every field checked."""
    client_id, finish = raw.get("id"), raw.get("finish")
    if not isinstance(client_id, str) or not 0 < len(client_id) <= MAX_CLIENT_ID:
        raise BadCommandError("A move needs an id.")
    return Judging(
        client_id,
        _groups(raw),
        read_card(finish) if finish is not None else None,
        raw.get("declare") is True,
    )


def judged_json(
    judging: Judging,
    groups: Sequence[Sequence[Card]],
    finish: Card | None,
    judgement: Judgement,
    _: Words,
) -> Json:
    """The engine's verdict on the groups it judged (a declaration's without its finish card),
    each group's kind, and what to fix first, in the reader's words."""
    return {
        "type": "judged",
        "id": judging.client_id,
        "declare": judging.declare,
        "groups": [[card.code for card in group] for group in groups],
        "kinds": [kind.value for kind in judgement.kinds],
        "finish": card_code(finish),
        "valid": judgement.valid,
        "reason": None if judgement.valid else reason_words(judgement.reason, _),
    }


def _text(move: object, key: str) -> object:
    return move.get(key) if isinstance(move, Mapping) else None


def _group(group: object) -> tuple[Card, ...]:
    if not isinstance(group, Sequence) or isinstance(group, str) or len(group) > MAX_CLIENT_ID:
        raise BadCommandError("A command must be a set of named fields.")
    return tuple(read_card(card) for card in group)
