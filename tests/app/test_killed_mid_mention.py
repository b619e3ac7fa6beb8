"""Issue #23, "a crash leaves a mention": `python -m bot`, run as a process against the Discord
double, is killed (SIGKILL: no clean shutdown) with a turn mention in the channel whose id it
had not stored; once it is back, that mention is gone and only the current one is left."""

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import aiohttp
from test_shutdown import RUN_AGAINST, free_port

from bot.store import open_store

pytest_plugins = ("discord_double.fixtures",)


async def launch(double, tmp_path: Path, log: Path) -> tuple[asyncio.subprocess.Process, int]:
    """`python -m bot` against the double, every person mentioned at once; returns once healthy."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "RUMMY_"))}
    env |= {"DISCORD_TOKEN": "fake-bot-token", "RUMMY_DB_PATH": str(tmp_path / "rummy.db")}
    env |= {"RUMMY_METRICS_PORT": str(port), "RUMMY_MENTION_WATCHING_AFTER": "0"}
    with log.open("a") as output:
        bot = await asyncio.create_subprocess_exec(
            *(sys.executable, "-c", RUN_AGAINST, double.api_base, double.gateway_url),
            cwd=tmp_path,
            env=env,
            stdout=output,
            stderr=output,
        )
    async with aiohttp.ClientSession() as http:
        for _ in range(300):  # ready once connected (discord.py waits 2 s for the guilds)
            try:
                async with http.get(f"http://127.0.0.1:{port}/healthz") as health:
                    if health.status == 200:
                        return bot, port
            except aiohttp.ClientConnectionError:
                pass
            await asyncio.sleep(0.1)
    bot.kill()
    await bot.wait()
    raise AssertionError(f"the bot never became healthy:\n{log.read_text()}")


def mentions(double) -> list:
    return [m for m in double.messages_to(double.channel_id) if ", your turn" in m.content]


async def test_a_mention_left_by_a_killed_process_is_deleted_once_the_bot_is_back(discord_double, tmp_path):
    double = discord_double
    log = tmp_path / "bot.log"
    bot, _ = await launch(double, tmp_path, log)
    try:
        alice, bob = double.user("alice"), double.user("bob")
        ix = await double.slash_command(alice, "rummy new", options={"format": "points"})
        await double.wait_for(lambda: double.original_response(ix).custom_ids())
        lobby = double.original_response(ix)
        table_id = int(next(c.split(":")[2] for c in lobby.custom_ids() if c.startswith("rummy:lobby:")))
        for user, action in ((bob, "join"), (alice, "start")):
            await double.press_button(user, lobby, f"rummy:lobby:{table_id}:{action}")
        (leftover,) = await double.wait_for(lambda: mentions(double), timeout=15)
        bot.send_signal(signal.SIGKILL)
        await bot.wait()
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()

    # The kill came between the post and storing its id: the store knows no mention of the table.
    store = await open_store(tmp_path / "rummy.db")
    try:
        await store.forget_messages(f"table:{table_id}:ping")
    finally:
        await store.close()

    bot, _ = await launch(double, tmp_path, log)
    healthy = time.monotonic()
    try:
        await double.wait_for(lambda: leftover.id in double.deleted_messages, timeout=15)
        print(f"the leftover mention went {time.monotonic() - healthy:.2f} s after the bot was healthy")
        (current,) = await double.wait_for(lambda: mentions(double), timeout=15)
        assert current.id != leftover.id
        assert list(double.deleted_messages) == [leftover.id]  # nothing else of the channel's
    finally:
        bot.send_signal(signal.SIGTERM)
        await asyncio.wait_for(bot.wait(), timeout=30)
    assert "Traceback" not in log.read_text(), log.read_text()
