"""Damaged rows at start-up: each kind of stored row damaged outside the bot (as a bad disk, a
hand-edited file or a half-restored backup would) sets aside that one table, which is kept as it
is, reported once and cancellable; every other table resumes and plays on."""

import json
import random
import sqlite3

import pytest
from service_helpers import GUILD, new_service, open_and_start, play_one, user

from bot.engine.cards import parse_cards
from bot.service import (
    ManualClock,
    ServiceError,
    ServiceEventKind,
)
from bot.service.refusals import TableDamagedError
from bot.store import StoreError, TableStatus, open_store

DAMAGED, PLAYING, LOBBY = 21, 22, 23  # channels


def _snapshot(conn, table_id, change):
    (text,) = conn.execute("SELECT snapshot FROM matches WHERE table_id = ?", (table_id,)).fetchone()
    snapshot = json.loads(text)
    change(snapshot)
    conn.execute("UPDATE matches SET snapshot = ? WHERE table_id = ?", (json.dumps(snapshot), table_id))


def _hand(snapshot, seat, change):
    hand = parse_cards(snapshot["deal"]["seats"][seat]["hand"])
    snapshot["deal"]["seats"][seat]["hand"] = " ".join(change([card.code for card in hand], snapshot))


def _other_seats_card(codes, snapshot):
    """Seat 0 holds a copy of seat 1's first card instead of its own: cards are not conserved."""
    return [parse_cards(snapshot["deal"]["seats"][1]["hand"])[0].code, *codes[1:]]


CORRUPTIONS = {
    "snapshot is not JSON": lambda c, t: c.execute(
        "UPDATE matches SET snapshot = '{\"format\": ' WHERE table_id = ?", (t,)
    ),
    "clock is not JSON": lambda c, t: c.execute("UPDATE matches SET clock = 'tick' WHERE table_id = ?", (t,)),
    "clock of the wrong kind": lambda c, t: c.execute(
        "UPDATE matches SET clock = json_set(clock, '$.banks', json('[\"x\", \"y\"]')) WHERE table_id = ?",
        (t,),
    ),
    "a command is not JSON": lambda c, t: c.execute(
        "UPDATE match_commands SET command = '{' "
        "WHERE match_id = (SELECT id FROM matches WHERE table_id = ?) AND seq = 1",
        (t,),
    ),
    "seats are not JSON": lambda c, t: c.execute("UPDATE tables SET seats = '[{' WHERE id = ?", (t,)),
    "a seat without its name": lambda c, t: c.execute(
        "UPDATE tables SET seats = json_remove(seats, '$[0].name') WHERE id = ?", (t,)
    ),
    "rules are not JSON": lambda c, t: c.execute("UPDATE tables SET rules = 'house' WHERE id = ?", (t,)),
    "rules of the wrong kind": lambda c, t: c.execute(
        "UPDATE tables SET rules = json_set(rules, '$.turn_seconds', 'slow') WHERE id = ?", (t,)
    ),
    "the snapshot lacks a key": lambda c, t: _snapshot(c, t, lambda s: s.pop("standings")),
    "the deal lacks a key": lambda c, t: _snapshot(c, t, lambda s: s["deal"].pop("closed")),
    "a card no deck has": lambda c, t: _snapshot(c, t, lambda s: _hand(s, 0, lambda h, _: ["1Z", *h[1:]])),
    "cards not conserved": lambda c, t: _snapshot(c, t, lambda s: _hand(s, 0, _other_seats_card)),
    "a finished deal is gone": lambda c, t: c.execute(
        "UPDATE matches SET snapshot = json_set(snapshot, '$.history', json('[[0, 0]]')) WHERE table_id = ?",
        (t,),
    ),
}


async def open_tables(path, clock):
    """A service on `path` as start-up makes it, with the events its resume returned."""
    store = await open_store(path)
    service = new_service(store, seed=5, clock=clock)
    return store, service, await service.resume()


async def three_tables(path, clock):
    """The table to damage and a playing table, both started, and a lobby; the bot then stops."""
    store, service, _ = await open_tables(path, clock)
    damaged = await open_and_start(service, DAMAGED, players=2)
    await open_and_start(service, PLAYING, players=3)
    await service.open_table(GUILD, LOBBY, user(LOBBY, 0), "Host")
    await store.close()
    return damaged.id


def damage(path, corrupt, table_id):
    conn = sqlite3.connect(path)
    with conn:
        corrupt(conn, table_id)
    conn.close()


def stored_rows(path, table_id):
    """What a table's rows hold, less their status and times."""
    conn = sqlite3.connect(path)
    try:
        return (
            conn.execute("SELECT seats, rules FROM tables WHERE id = ?", (table_id,)).fetchall(),
            conn.execute("SELECT snapshot, clock FROM matches WHERE table_id = ?", (table_id,)).fetchall(),
            conn.execute(
                "SELECT c.seq, c.command FROM match_commands c JOIN matches m ON c.match_id = m.id "
                "WHERE m.table_id = ?",
                (table_id,),
            ).fetchall(),
        )
    finally:
        conn.close()


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
async def test_a_damaged_table_is_set_aside_reported_once_and_the_others_play_on(tmp_path, corruption):
    path, clock = tmp_path / "r.db", ManualClock()
    table_id = await three_tables(path, clock)
    damage(path, CORRUPTIONS[corruption], table_id)
    as_damaged = stored_rows(path, table_id)

    store, service, events = await open_tables(path, clock)
    try:
        told = [e for e in events if e.kind == ServiceEventKind.DAMAGED]
        assert [(e.table_id, e.event.channel_id) for e in told] == [(table_id, DAMAGED)]
        assert service.table_in(DAMAGED).damage is not None
        # Every other table resumed and plays.
        assert {e.table_id for e in events if e.kind == ServiceEventKind.RESUMED} == {
            service.table_in(PLAYING).id,
            service.table_in(LOBBY).id,
        }
        await play_one(service, service.table_in(PLAYING), random.Random(1))
        await service.join(LOBBY, user(LOBBY, 1), "Player 1")
        await service.start(LOBBY, user(LOBBY, 0))
        # The damaged one refuses every command, with why, and holds its channel.
        for attempt in (
            service.play(DAMAGED, user(DAMAGED, 0), {"command": "drop"}),
            service.join(DAMAGED, 77, "Newcomer"),
            service.open_table(GUILD, DAMAGED, 77, "Newcomer"),
        ):
            with pytest.raises(TableDamagedError, match="game is damaged and can"):
                await attempt
    finally:
        await store.close()

    store, service, events = await open_tables(path, clock)  # the next start: not told again
    try:
        assert not [e for e in events if e.kind == ServiceEventKind.DAMAGED]
        assert service.table_in(DAMAGED).damage is not None
        with pytest.raises(ServiceError, match="Only the host or a member with Manage Server"):
            await service.cancel(DAMAGED, 77)
        (cancelled,) = await service.cancel(DAMAGED, user(DAMAGED, 0))
        assert cancelled.kind == ServiceEventKind.CANCELLED and service.table_in(DAMAGED) is None
        row = await store._one("SELECT status, damage FROM tables WHERE id = ?", (table_id,))
        assert row[0] == TableStatus.CANCELLED and row[1]  # closed, and still marked with why
        await service.open_table(GUILD, DAMAGED, 77, "Newcomer")  # the channel is free again
    finally:
        await store.close()
    assert stored_rows(path, table_id) == as_damaged  # kept as they were, for someone to look at


async def test_a_manager_cancels_a_damaged_table_and_its_rows_stay_as_they_were(tmp_path):
    path, clock = tmp_path / "r.db", ManualClock()
    table_id = await three_tables(path, clock)
    damage(path, CORRUPTIONS["seats are not JSON"], table_id)
    store, service, _ = await open_tables(path, clock)
    try:
        await service.cancel(DAMAGED, 999, can_manage=True)
        row = await store._one("SELECT seats FROM tables WHERE id = ?", (table_id,))
        assert row[0] == "[{"
        match = await store._one("SELECT status FROM matches WHERE table_id = ?", (table_id,))
        assert match[0] == "abandoned"
    finally:
        await store.close()


async def test_a_database_missing_one_of_its_tables_names_it_and_does_not_start(tmp_path):
    path = tmp_path / "r.db"
    await three_tables(path, ManualClock())
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE deals")
    conn.close()
    with pytest.raises(StoreError) as refused:
        await open_store(path)
    assert "missing its table deals" in str(refused.value) and "Restore a backup" in str(refused.value)
    conn = sqlite3.connect(path)  # nothing was made again behind the admin's back
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'deals'").fetchone() == (0,)
    conn.close()
