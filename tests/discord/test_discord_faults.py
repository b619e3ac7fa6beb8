"""Faults as players meet them on Discord (the real client against the double, a real SQLite
file): a damaged table told once in its channel, the database file deleted or replaced, a
read-only or full disk, and buttons whose custom_id no button of ours has."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sqlite3

import pytest
from disk_faults import disk_full, empty_wal, linux_only, read_only
from test_discord_frontend import answer, button, hand_message, make_bot, settle, start_table
from test_discord_league import NOW, create_league

from bot.discord.components import NO_LONGER_VALID
from bot.discord.table_message import damaged_words
from bot.engine.rules import Rules
from bot.service import LiveTable, ManualClock
from bot.store import TableRecord

pytest_plugins = ("discord_double.fixtures",)

CANNOT_SAVE = "I can't save moves right now"
STOPPED = "I can't take moves until I'm restarted"


async def pick_refused(double, bot, user, hand) -> str:
    """The player presses Pick closed; what the bot tells them privately."""
    press = await double.press_button(user, hand, button(hand, "closed"))
    await settle(bot)
    return await answer(double, press)


async def a_table_to_act_at(double, bot_runner, tmp_path, clock):
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    mover = {0: alice, 1: bob}[table.match.deal.turn]
    return bot, table, mover, hand_message(double, mover)


# ------------------------------------------------------------------------- the database file


@pytest.mark.parametrize("how", ["deleted", "replaced", "written by another program"])
async def test_a_database_file_gone_from_under_the_bot_stops_every_move_with_a_clear_message(
    discord_double, bot_runner, tmp_path, caplog, how
):
    double, clock = discord_double, ManualClock()
    bot, table, mover, hand = await a_table_to_act_at(double, bot_runner, tmp_path, clock)
    path = tmp_path / "rummy.db"
    before = table.match.to_json()
    if how == "deleted":
        os.remove(path)
    elif how == "replaced":  # a backup restored over it while the bot runs
        shutil.copy(path, tmp_path / "backup.db")
        os.replace(tmp_path / "backup.db", path)
    else:
        other = sqlite3.connect(path)
        with other:
            other.execute("INSERT INTO dm_refusals VALUES (1, 0)")
        other.close()

    with caplog.at_level(logging.CRITICAL, logger="bot.store.health"):
        told = await pick_refused(double, bot, mover, hand)
    assert STOPPED in told and "The game is saved" in told
    assert [r for r in caplog.records if r.levelno == logging.CRITICAL], "no critical log line"
    assert bot.service.table_in(double.channel_id).match.to_json() == before  # nothing moved
    # The clocks stop too: a turn running out is not played for anyone while nothing is saved.
    clock.advance(3600)
    assert await bot.service.fire_due() == []
    ix = await double.slash_command(mover, "rummy drop")
    assert STOPPED in await answer(double, ix)


# ------------------------------------------------------------------------- the disk


@linux_only
@pytest.mark.parametrize("fault", ["full disk", "read-only disk"])
async def test_a_disk_refusing_writes_is_said_to_players_and_play_resumes_by_itself(
    discord_double, bot_runner, tmp_path, fault
):
    double, clock = discord_double, ManualClock()
    bot, table, mover, hand = await a_table_to_act_at(double, bot_runner, tmp_path, clock)
    path = tmp_path / "rummy.db"
    before = table.match.to_json()
    await empty_wal(bot.store)
    refusing = disk_full(path) if fault == "full disk" else read_only(path)
    with refusing:
        told = await pick_refused(double, bot, mover, hand)
        assert CANNOT_SAVE in told and "the game is safe" in told
        assert "something went wrong" not in told  # not the generic apology
        live = bot.service.table_in(double.channel_id)
        assert live.match.to_json() == before  # memory rolled back to what is saved
        # The clock cannot play for the absent player either; it keeps trying.
        clock.advance(3600)
        await bot.service.fire_due()
        assert live.match.to_json() == before
    # Writes work again: the clock's pending move goes through at its next pass, then players'.
    await bot.service.fire_due()
    await settle(bot)
    assert len(live.match.log) > len(before["log"])
    assert (await bot.store.load_match(live.id)).seq == len(live.match.log)


# ------------------------------------------------------------------------- a damaged table


async def test_a_damaged_table_is_told_once_in_its_channel_and_cancelled_by_its_host(
    discord_double, bot_runner, tmp_path
):
    double, clock = discord_double, ManualClock()
    bot, _, mover, hand = await a_table_to_act_at(double, bot_runner, tmp_path, clock)
    alice = double.user("alice")
    await bot_runner.stop(bot)
    conn = sqlite3.connect(tmp_path / "rummy.db")
    with conn:
        conn.execute("UPDATE matches SET snapshot = json_remove(snapshot, '$.deal.seats')")
    conn.close()

    bot = await bot_runner.start(make_bot(tmp_path, clock))
    await settle(bot)
    notices = [m for m in double.messages_to(double.channel_id) if "set aside" in m.content]
    assert len(notices) == 2  # the notice, and the table message edited to say so
    table_message = next(m for m in notices if not m.content.startswith("⚠️"))
    assert not table_message.custom_ids() and not table_message.files
    told = await pick_refused(double, bot, mover, hand)
    assert "game is damaged and can't go on" in told
    ix = await double.slash_command(mover, "rummy hand")
    assert "game is damaged and can't go on" in await answer(double, ix)

    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock))
    await settle(bot)
    assert len([m for m in double.messages_to(double.channel_id) if "set aside" in m.content]) == 2  # once
    ix = await double.slash_command(alice, "rummy cancel")
    await settle(bot)
    assert "cancelled" in await answer(double, ix)
    assert bot.service.table_in(double.channel_id) is None
    ix = await double.slash_command(alice, "rummy new", options={"format": "points"})
    await double.wait_for(lambda: double.original_response(ix).custom_ids())  # the channel is free


# ------------------------------------------------------------------------- forged buttons


@pytest.mark.parametrize(
    ("pressed", "fmt"), [("rummy:lobby:{table}:1", "lobby"), ("rummy:hand:{table}:1.1:computer", "hand")]
)
async def test_a_forged_or_unknown_button_is_answered_privately_as_no_longer_valid(
    discord_double, bot_runner, tmp_path, pressed, fmt
):
    """A client that sends a custom_id no button of ours has, on a message that carries it (as
    only a forged message can), gets an answer and changes nothing."""
    double, clock = discord_double, ManualClock()
    _, table, mover, hand = await a_table_to_act_at(double, bot_runner, tmp_path, clock)
    before = table.match.to_json()
    custom_id = pressed.format(table=table.id)
    forged = hand.snapshot()
    forged["id"] = str(int(forged["id"]) + 10_000)  # a message the double does not hold: sent as is
    forged["components"] = [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "?", "custom_id": custom_id}]}
    ]
    ix = await double.press_button(mover, forged, custom_id, check=False)
    assert ix.ephemeral and NO_LONGER_VALID in await answer(double, ix)
    assert table.match.to_json() == before


async def test_a_damaged_league_is_told_once_in_its_channel_and_refuses_its_commands(
    discord_double, bot_runner, tmp_path
):
    double, clock = discord_double, ManualClock(NOW.timestamp())
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    await create_league(double, bot)
    await bot_runner.stop(bot)
    conn = sqlite3.connect(tmp_path / "rummy.db")
    with conn:  # its seasons unreadable; its channel still named
        conn.execute("UPDATE leagues SET state = json_set(state, '$.league.seasons', 'lost')")
    conn.close()

    def notices():
        public = [m for m in double.messages_to(double.channel_id) if m.to_user is None]
        return [m for m in public if "saved state is damaged" in m.content]

    bot = await bot_runner.start(make_bot(tmp_path, clock))
    await settle(bot)
    assert len(notices()) == 1 and "Friday Pool" in notices()[0].content
    ix = await double.slash_command(double.user("bob"), "league join")
    assert "is damaged and set aside" in await answer(double, ix)
    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock))
    await settle(bot)
    assert len(notices()) == 1  # once
    # an admin deletes it; its name is free again
    alice = double.user("alice")
    options = {"league": "friday pool", "confirm": "Friday Pool"}
    ix = await double.slash_command(alice, "league-admin delete", options=options)
    assert "Deleted **Friday Pool**" in await answer(double, ix)
    await settle(bot)
    public = [m for m in double.messages_to(double.channel_id) if m.to_user is None]
    assert "was deleted by an admin" in public[-1].content
    assert "is created" in await create_league(double, bot)


# ------------------------------------------------------------------------- settings


@linux_only
@pytest.mark.parametrize("fault", ["deleted", "read-only disk"])
async def test_a_setting_that_cannot_be_saved_is_not_said_to_be_saved(
    discord_double, bot_runner, tmp_path, fault
):
    """`/rummy settings` writes like a move does: when the database takes nothing, the member is
    told why in the same words as players, never "Saved" nor the generic apology."""
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice = double.user("alice")
    path = tmp_path / "rummy.db"
    await empty_wal(bot.store)
    refusing = read_only(path) if fault == "read-only disk" else contextlib.nullcontext()
    if fault == "deleted":
        os.remove(path)
    expected = CANNOT_SAVE if fault == "read-only disk" else STOPPED
    with refusing:
        for options in ({"scope": "user", "deck": "four-colour"}, {"scope": "server", "rules": "home"}):
            ix = await double.slash_command(alice, "rummy settings", options=options)
            told = await answer(double, ix)
            assert expected in told and "Saved" not in told
        ix = await double.slash_command(alice, "rummy settings", options={"scope": "user"})
        assert "**two-colour**" in await answer(double, ix)  # memory holds only what was kept
        ix = await double.slash_command(alice, "rummy settings", options={"scope": "server"})
        assert "**standard**" in await answer(double, ix)


def test_a_damaged_league_tables_notice_names_who_can_close_it():
    """A league table's host is refused `/rummy cancel` (the league ends its tables), so its
    notice does not send them there; a casual table's host may cancel it."""

    def table(league_id):
        record = TableRecord(
            id=1, guild_id=2, channel_id=3, format="pool-61", rules={}, point_value=1, host_id=4,
            max_seats=6, seats=[], league_id=league_id, created_at=0.0,
        )  # fmt: skip
        return LiveTable(record, Rules(), damage="table 1 is damaged").publish()

    assert "The host or a member with Manage Server can close it" in damaged_words(table(None))
    league = damaged_words(table(7))
    assert "host" not in league and "A member with Manage Server can close it" in league
