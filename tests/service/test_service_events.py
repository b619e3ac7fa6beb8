"""The service's own events are typed records too: each keeps the form it was always written in,
and a table event is shown to a seat as the engine's event is."""

import pytest

from bot.engine.cards import parse_card
from bot.engine.commands import Source
from bot.engine.events import Picked
from bot.engine.formats import Format
from bot.service import TableEvent, visible_events
from bot.service.table_events import (
    Cancelled,
    CancelReason,
    Damaged,
    Deadline,
    Finished,
    Joined,
    LeftTable,
    MatchStarted,
    Resumed,
    RulesChanged,
    ServiceEventKind,
    TableOpened,
)
from bot.store import SeatRecord

ASHA = SeatRecord(11, "Asha")
COMPUTER = SeatRecord(None, "Computer 1 (easy)", "easy")
CLOCK = Deadline(1, (2, 7), 100.0, 130.0)

FORMS = [
    (
        TableOpened(Format.POOL_101, 11, 6, 1),
        {
            "kind": "table_opened",
            "seat": 0,
            "data": {"format": "pool-101", "host": 11, "max_seats": 6, "point_value": 1},
        },
    ),
    (
        Joined(1, COMPUTER),
        {
            "kind": "joined",
            "seat": 1,
            "data": {"user_id": None, "name": "Computer 1 (easy)", "computer": "easy"},
        },
    ),
    (LeftTable(1, 12), {"kind": "left_table", "seat": 1, "data": {"user_id": 12}}),
    (
        RulesChanged(("first_drop", "turn_seconds"), 4),
        {"kind": "rules_changed", "data": {"changed": ["first_drop", "turn_seconds"], "max_seats": 4}},
    ),
    (
        MatchStarted((ASHA, COMPUTER)),
        {"kind": "match_started", "data": {"seats": [ASHA.to_json(), COMPUTER.to_json()]}},
    ),
    (Cancelled(by=11), {"kind": "cancelled", "data": {"by": 11}}),
    (Cancelled(reason=CancelReason.EMPTY), {"kind": "cancelled", "data": {"reason": "empty"}}),
    (Finished(None), {"kind": "finished", "data": {"winner": None}}),
    (
        CLOCK,
        {"kind": "clock", "seat": 1, "data": {"seat": 1, "turn": [2, 7], "base": 100.0, "deadline": 130.0}},
    ),
    (
        Resumed(CLOCK),
        {"kind": "resumed", "data": {"clock": {"seat": 1, "turn": [2, 7], "base": 100.0, "deadline": 130.0}}},
    ),
    (Resumed(None), {"kind": "resumed", "data": {"clock": None}}),
    (Damaged(5001), {"kind": "damaged", "data": {"channel_id": 5001}}),
]


def test_every_service_kind_has_a_record():
    assert {event.kind for event, _ in FORMS} == set(ServiceEventKind)


@pytest.mark.parametrize(("event", "form"), FORMS, ids=[event.KIND.value for event, _ in FORMS])
def test_each_service_event_keeps_its_form(event, form):
    table_event = TableEvent(7, event)
    assert table_event.to_json() == {"table_id": 7, **form}
    assert (table_event.kind, table_event.seat) == (event.kind, event.seat)
    assert table_event.visible_to(None) is table_event


def test_a_table_event_hides_the_closed_deck_card_from_the_other_seats_only():
    picked = TableEvent(7, Picked(0, Source.CLOSED, parse_card("QC")))
    assert visible_events([picked], 0) == [picked]
    (seen,) = visible_events([picked], 1)
    assert seen.table_id == 7 and seen.event == Picked(0, Source.CLOSED, None)
    assert "card" not in seen.to_json()
