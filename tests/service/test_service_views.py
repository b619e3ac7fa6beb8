"""The service's read model: front ends read frozen views of its tables, made anew after every
saved change, never its live objects; a seat's cards only in that seat's hand view."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest
from service_helpers import GUILD, new_service, open_and_start, open_service, play_one, user

from bot.engine.errors import IllegalActionError, RummyError
from bot.engine.match import MatchPhase
from bot.service import ServiceError
from bot.service.views import TableView
from bot.store import TableStatus, open_store


def same_state(view: TableView | None, other: TableView | None) -> bool:
    assert view is not None and other is not None
    return dataclasses.replace(view, version=0) == dataclasses.replace(other, version=0)


def freshly_made(service, table_id: int) -> TableView:
    """What the table's view would be if it were made from memory now."""
    table = service.table(table_id)
    kept = table.view
    try:
        return table.publish()
    finally:
        table.view = kept


async def test_every_saved_change_makes_the_view_anew_and_a_view_never_changes_after(tmp_path):
    store, service = await open_service(tmp_path / "rummy.db", seed=3)
    channel = 7
    await service.open_table(GUILD, channel, user(channel, 0), "Asha", format="pool-101")
    lobby = service.view_in(channel)
    assert lobby is not None and lobby.status is TableStatus.OPEN and lobby.match is None
    assert lobby.names == ("Asha",) and lobby.seat_of(user(channel, 0)) == 0
    await service.join(channel, user(channel, 1), "Ravi")
    await service.add_computer(channel, user(channel, 0), "easy")
    await service.change_rules(channel, user(channel, 0), {"turn_seconds": 45})
    seated = service.view_in(channel)
    assert lobby.names == ("Asha",)  # the old view is as it was
    assert seated.names == ("Asha", "Ravi", "Computer 1 (easy)") and seated.rules.turn_seconds == 45
    assert seated.version > lobby.version
    await service.start(channel, user(channel, 0))
    table = service.table_in(channel)
    rng = random.Random(5)
    seen: list[TableView] = []
    while table.match.phase is not MatchPhase.OVER and len(seen) < 400:
        view = service.view(table.id)
        assert same_state(view, freshly_made(service, table.id))
        seen.append(view)
        if table.match.deal is not None and table.record.seats[table.match.deal.turn].computer:
            await service.fire_due()  # the computer's move
            continue
        await play_one(service, table, rng, drop=0.05)
    versions = [view.version for view in seen]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    # The first view of a deal still shows that deal as it began, whatever came after.
    first = next(view for view in seen if view.match is not None and view.match.deal is not None)
    assert first.match.deal.turn_number == 1
    await store.close()


async def test_a_view_shows_no_hand_and_a_hand_view_is_its_seat_s_alone(tmp_path):
    store, service = await open_service(tmp_path / "rummy.db")
    table = await open_and_start(service, 3, players=3)
    view = service.view(table.id)
    deal = table.match.deal
    assert view.match.deal.seat is None and view.match.deal.hand == ()
    assert view.match.deal.hand_sizes == tuple(len(seat.hand) for seat in deal.seats)
    assert "closed" not in {field.name for field in dataclasses.fields(view.match.deal)}
    for seat in range(3):
        hand = await service.hand(table.id, user(3, seat))
        assert hand.seat == seat and hand.seen.hand == tuple(deal.seats[seat].hand)
        assert hand.turn_token == view.turn_token
        assert hand.legal.pick_closed is (seat == deal.turn)
    assert await service.hand(table.id, 999_999) is None  # not seated there
    await store.close()


async def test_a_drop_is_offered_at_its_price_only_to_the_seat_that_may_drop(tmp_path):
    store, service = await open_service(tmp_path / "rummy.db")
    table = await open_and_start(service, 3, players=3)
    turn = table.match.deal.turn
    hand = await service.hand_to_drop(table.id, user(3, turn))
    assert hand.seat == turn and hand.legal.drop_cost == hand.seen.rules.first_drop  # before a pick
    with pytest.raises(IllegalActionError):  # not their turn: the engine's refusal, nothing changed
        await service.hand_to_drop(table.id, user(3, (turn + 1) % 3))
    with pytest.raises(RummyError):
        await service.hand_to_drop(table.id, 999_999)  # not seated there
    await store.close()


async def test_while_a_move_is_being_saved_readers_see_the_state_before_it(tmp_path):
    store, service = await open_service(tmp_path / "rummy.db")
    table = await open_and_start(service, 4, players=2)
    before = service.view(table.id)
    seat = table.match.deal.turn
    to_act = user(4, seat)
    saving, release = asyncio.Event(), asyncio.Event()
    queue = store.queue_command

    async def slow(record):
        saving.set()
        await release.wait()
        return await queue(record)

    store.queue_command = slow
    move = asyncio.create_task(service.play(4, to_act, {"command": "pick", "source": "closed"}))
    await saving.wait()
    assert len(table.match.deal.seats[seat].hand) == 14  # memory ran ahead of the database
    assert service.view(table.id) is before  # memory has the pick; the view is what is saved
    hand = asyncio.create_task(service.hand(table.id, to_act))
    await asyncio.sleep(0)
    assert not hand.done()  # a hand view waits for the save, so it never shows an unsaved card
    release.set()
    await move
    after = await hand
    assert len(after.seen.hand) == 14 and service.view(table.id).version == before.version + 1
    await store.close()


async def test_a_hand_is_read_at_once_while_the_lock_is_held_but_nothing_is_being_saved(tmp_path):
    """A computer player thinks with its table's lock held: a person's own hand, which is what
    was saved, must not wait for it."""
    store, service = await open_service(tmp_path / "rummy.db")
    table = await open_and_start(service, 4, players=2)
    async with table.lock:  # as while a computer player thinks
        hand = asyncio.create_task(service.hand(table.id, user(4, 0)))
        await asyncio.sleep(0)
        assert hand.done() and hand.result().seen.hand == tuple(table.match.deal.seats[0].hand)
    await store.close()


async def test_a_failed_save_leaves_the_view_at_what_is_saved(tmp_path):
    store, service = await open_service(tmp_path / "rummy.db")
    table = await open_and_start(service, 5, players=2)
    before = service.view(table.id)

    async def refuse(record):
        raise OSError("the disk is gone")

    store.queue_command = refuse
    with pytest.raises(OSError, match="disk is gone"):
        await service.play(5, user(5, table.match.deal.turn), {"command": "pick", "source": "closed"})
    assert same_state(service.view(table.id), before)
    await store.close()


async def test_a_closed_table_keeps_its_last_view_for_the_front_ends_last_edits(tmp_path):
    store, service = await open_service(tmp_path / "rummy.db")
    table = await open_and_start(service, 6, players=2)
    await service.cancel(6, user(6, 0))
    assert service.view_in(6) is None and service.table(table.id) is None
    last = service.view(table.id)
    assert last.status is TableStatus.CANCELLED and not last.active and last.clock is None
    assert last.turn_token is None and last.to_act is None
    await store.close()


async def test_listeners_hear_every_saved_batch_in_order_with_who_caused_it(tmp_path):
    store, service = await open_service(tmp_path / "rummy.db")
    heard: list[tuple[list[str], int | None]] = []
    service.listen(lambda events, actor: heard.append(([event.kind.value for event in events], actor)))

    def broken(events, actor):
        raise RuntimeError("a listener's own bug")

    service.listen(broken)  # heard after the first, and its failure reaches nobody else
    channel = 8
    await service.open_table(GUILD, channel, user(channel, 0), "Asha")
    await service.add_computer(channel, user(channel, 0), "easy")
    await service.start(channel, user(channel, 0))
    table = service.table_in(channel)
    with pytest.raises(ServiceError, match="already started"):  # refused: nothing saved, nothing heard
        await service.join(channel, user(channel, 0), "Asha")
    while table.record.seats[table.match.deal.turn].computer:
        await service.fire_due()
    await play_one(service, table, random.Random(1))
    actors = [actor for _, actor in heard]
    assert actors[:3] == [user(channel, 0)] * 3
    assert heard[0][0] == ["table_opened"] and heard[1][0] == ["joined"]
    assert heard[2][0][0] == "match_started"
    assert set(actors[3:-1]) <= {None} and actors[-1] == user(channel, 0)  # the computer's, then hers
    assert len(heard) == 4 + len(actors[3:-1])
    await store.close()
    store = await open_store(tmp_path / "rummy.db")
    again = new_service(store)
    after_restart: list[tuple[list[str], int | None]] = []
    again.listen(lambda events, actor: after_restart.append(([event.kind.value for event in events], actor)))
    await again.resume()
    assert after_restart == [(["resumed"], None)]
    await store.close()
