"""A clean stop: the service saves what it took and refuses the rest; the bot refuses new
interactions while the ones at work finish; `python -m bot`, run as a process against the Discord
double, exits 0 on SIGTERM with its tables saved. Real SQLite files throughout."""

import asyncio
import os
import random
import signal
import socket
import sys

import aiohttp
import pytest
from service_helpers import next_move, open_and_start, open_service, user
from test_discord_frontend import answer, button, hand_message, make_bot, start_table

from bot.discord import bot as bot_module
from bot.service import ManualClock
from bot.service.refusals import ShuttingDownError
from bot.store import open_store

pytest_plugins = ("discord_double.fixtures",)


async def test_shutting_down_saves_the_move_in_flight_and_refuses_every_new_one(tmp_path):
    path = tmp_path / "rummy.db"
    clock = ManualClock()
    store, service = await open_service(path, clock=clock)
    table = await open_and_start(service, 1)
    rng = random.Random(2)
    player, move = next_move(table, rng, drop=0, wrong_show=0)
    async with table.lock:  # the table is busy (a computer player thinking, say)
        in_flight = asyncio.create_task(service.play(1, player, move))
        await asyncio.sleep(0)  # the move is taken: it waits for the table
        shutting = asyncio.create_task(service.shut_down())
        await asyncio.sleep(0)
    await shutting
    assert in_flight.done()  # shut_down returned once the move taken was saved
    await store.close()
    await in_flight
    taken = len(table.match.log)

    player, move = next_move(table, rng, drop=0, wrong_show=0)
    with pytest.raises(ShuttingDownError, match="restarting"):
        await service.play(1, player, move)
    with pytest.raises(ShuttingDownError):
        await service.open_table(1, 2, user(2, 0), "Host")
    clock.advance(3600)  # every deadline long past: the clocks do nothing either
    assert await service.fire_due() == []
    assert len(table.match.log) == taken

    store, service = await open_service(path)
    assert len(service.table_in(1).match.log) == taken
    await store.close()


async def test_a_closing_bot_refuses_new_interactions_and_finishes_the_one_at_work(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    mover, waiter = (alice, bob) if table.match.deal.turn == 0 else (bob, alice)
    moves = len(table.match.log)
    async with table.lock:  # the move waits here, as behind a slow disk
        hand = hand_message(double, mover)
        await double.press_button(mover, hand, button(hand, "closed"))  # acknowledged, at work
        closing = asyncio.create_task(bot_runner.stop(bot))
        while not bot.closing:
            await asyncio.sleep(0)
        for command in ("rummy leave", "rummy stats"):  # a move, and a question
            refused = await double.slash_command(waiter, command)
            assert "restarting" in await answer(double, refused)
    await closing
    assert not double.connected
    assert len(table.match.log) == moves + 1 and table.seat_of(waiter.id) is not None

    store = await open_store(tmp_path / "rummy.db")  # the pick was saved before the store closed
    assert (await store.load_match(table.id)).seq == moves + 1
    await store.close()


async def test_a_close_stuck_behind_a_save_gives_up_after_its_bound(
    discord_double, bot_runner, tmp_path, monkeypatch, caplog
):
    monkeypatch.setattr(bot_module, "SHUTDOWN_SECONDS", 0.2)
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    table = await start_table(double, bot, double.user("alice"), double.user("bob"))
    async with table.lock:  # a save that never ends
        await bot_runner.stop(bot)
    assert "work unfinished" in caplog.text and bot.is_closed()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# `python -m bot` as it runs for good, its Discord URLs pointed at the double (nothing else changed).
RUN_AGAINST = """
import sys, discord.gateway, discord.http, yarl
discord.http.Route.BASE = sys.argv[1]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
from bot.__main__ import main
raise SystemExit(main([]))
"""


async def test_python_m_bot_exits_0_on_sigterm_with_its_tables_saved(discord_double, tmp_path):
    double = discord_double
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "RUMMY_"))}
    env |= {"DISCORD_TOKEN": "fake-bot-token", "RUMMY_DB_PATH": str(tmp_path / "rummy.db")}
    env["RUMMY_METRICS_PORT"] = str(port)
    log = tmp_path / "bot.log"
    with log.open("w") as output:
        bot = await asyncio.create_subprocess_exec(
            *(sys.executable, "-c", RUN_AGAINST, double.api_base, double.gateway_url),
            cwd=tmp_path,
            env=env,
            stdout=output,
            stderr=output,
        )
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(300):  # ready once connected (discord.py waits 2 s for the guilds)
                try:
                    async with http.get(f"http://127.0.0.1:{port}/healthz") as health:
                        if health.status == 200:
                            break
                except aiohttp.ClientConnectionError:
                    pass
                await asyncio.sleep(0.1)
            else:
                raise AssertionError(f"the bot never became healthy:\n{log.read_text()}")

            alice, bob = double.user("alice"), double.user("bob")
            ix = await double.slash_command(alice, "rummy new", options={"format": "points"})
            await double.wait_for(lambda: double.original_response(ix).custom_ids())
            lobby = double.original_response(ix)
            table_id = next(c.split(":")[2] for c in lobby.custom_ids() if c.startswith("rummy:lobby:"))
            for user_, action in ((bob, "join"), (alice, "easy"), (alice, "start")):
                await double.press_button(user_, lobby, f"rummy:lobby:{table_id}:{action}")
            await double.wait_for(lambda: double.dms_to(alice) and double.dms_to(bob), timeout=15)
            left = await double.slash_command(bob, "rummy leave")  # a middle drop, and out
            await double.wait_for(lambda: double.followups(left), timeout=15)

            async with http.get(f"http://127.0.0.1:{port}/metrics") as scraped:
                metrics = await scraped.text()
            assert 'rummy_commands_total{kind="leave"} 1.0' in metrics
            assert 'rummy_open_tables{state="playing"} 1.0' in metrics

        bot.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(bot.wait(), timeout=30) == 0
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
    said = log.read_text()
    assert "SIGTERM received: shutting down" in said and "Traceback" not in said, said

    store = await open_store(tmp_path / "rummy.db")
    try:
        playing = await store.active_tables()
        assert [active.table.id for active in playing] == [int(table_id)]
        assert playing[0].match is not None  # the match and its moves, bob's leaving among them
    finally:
        await store.close()
