"""How many tables a member and a server may take (issue 23), enforced by the table service for
every front end: a refusal is a `ServiceError` in words and changes nothing."""

from __future__ import annotations

import pytest
from service_helpers import GUILD, open_service

from bot.service import ManualClock, ServiceError, ServiceSettings
from bot.service.table_limits import TableLimits
from bot.store import SeatRecord, WritesRefusedError

ALICE, BOB, CAROL = 11, 12, 13


@pytest.fixture
async def limited(tmp_path):
    """A service with small limits: 2 tables at once a member, 3 opened in 60 s, 4 per server."""
    clock = ManualClock()
    limits = TableLimits(seats_per_member=2, opens_per_member=3, opens_window_seconds=60, tables_per_server=4)
    settings = ServiceSettings(computer_delay_seconds=0.0, limits=limits)
    store, service = await open_service(tmp_path / "limits.db", clock=clock, settings=settings)
    yield clock, service
    await store.close()


async def test_a_member_sits_at_so_many_tables_at_once_whether_opened_or_joined(limited):
    _, service = limited
    await service.open_table(GUILD, 1, ALICE, "Alice")
    await service.open_table(GUILD, 2, BOB, "Bob")
    await service.join(2, ALICE, "Alice")
    with pytest.raises(ServiceError, match="at 2 tables, the most"):
        await service.open_table(GUILD, 3, ALICE, "Alice")
    assert service.table_in(3) is None
    await service.open_table(GUILD, 3, CAROL, "Carol")
    with pytest.raises(ServiceError, match="at 2 tables, the most"):
        await service.join(3, ALICE, "Alice")
    assert service.table_in(3).seat_of(ALICE) is None
    await service.leave(1, ALICE)  # a seat given up is a seat free
    await service.join(3, ALICE, "Alice")


async def test_a_seat_left_in_a_match_no_longer_counts(limited):
    _, service = limited
    await service.open_table(GUILD, 1, ALICE, "Alice")
    await service.open_table(GUILD, 2, BOB, "Bob")
    await service.join(2, ALICE, "Alice")
    for channel, host in ((1, ALICE), (2, BOB)):
        await service.add_computer(channel, host)
        await service.add_computer(channel, host)
        await service.start(channel, host)
    await service.leave(1, ALICE)  # out of the match, which the computers play on
    assert service.table_in(1).seat_of(ALICE) is not None
    await service.open_table(GUILD, 3, ALICE, "Alice")


async def test_a_member_opens_so_many_tables_in_the_window(limited):
    clock, service = limited
    for _ in range(3):  # opened and left at once: no seat held, every open counted
        await service.open_table(GUILD, 1, ALICE, "Alice")
        await service.leave(1, ALICE)
    clock.advance(30)
    with pytest.raises(ServiceError, match="opened 3 tables in 1 minutes") as refused:
        await service.open_table(GUILD, 1, ALICE, "Alice")
    assert refused.value.values["minutes"] == 1 and service.table_in(1) is None
    await service.open_table(GUILD, 2, BOB, "Bob")  # others are not held up
    clock.advance(31)
    await service.open_table(GUILD, 1, ALICE, "Alice")


async def test_a_server_holds_so_many_open_tables_and_its_league_seats_its_own(limited):
    _, service = limited
    for channel in range(1, 5):
        await service.open_table(GUILD, channel, 100 + channel, "Host")
    with pytest.raises(ServiceError, match=r"This server has its most open tables \(4\)"):
        await service.open_table(GUILD, 5, ALICE, "Alice")
    await service.open_table(GUILD + 1, 5, ALICE, "Alice")  # another server counts its own
    seats = [SeatRecord(BOB, "Bob"), SeatRecord(CAROL, "Carol")]
    await service.open_table(GUILD, 6, BOB, "Bob", seats=seats, league_id=7)  # a league's night
    assert service.table_in(6) is not None


async def test_a_table_that_could_not_be_saved_is_not_counted(limited, monkeypatch):
    _, service = limited

    async def refused(*args: object) -> None:
        raise WritesRefusedError("disk full")

    monkeypatch.setattr(service.store, "create_table", refused)
    for _ in range(3):
        with pytest.raises(ServiceError):
            await service.open_table(GUILD, 1, ALICE, "Alice")
    monkeypatch.undo()
    await service.open_table(GUILD, 1, ALICE, "Alice")
