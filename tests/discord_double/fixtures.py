"""pytest fixtures: a running `DiscordDouble` and a runner that starts real discord.py clients on it.

tests/conftest.py is not ours to edit, so a test module opts in with

    from discord_double.fixtures import bot_runner, discord_double  # noqa: F401
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
import discord.gateway
import discord.http
import pytest
import yarl

from .server import DiscordDouble

FAKE_TOKEN = "fake-bot-token"


class BotRunner:
    """Starts clients against the double and makes sure each one is closed by the end of the test."""

    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self._tasks: dict[discord.Client, asyncio.Task[None]] = {}

    async def start(
        self, bot: discord.Client, *, token: str = FAKE_TOKEN, timeout: float = 5.0
    ) -> discord.Client:
        """Log in, connect, and return once `on_ready` fired and the double's guild is cached.

        discord.py waits `guild_ready_timeout` (2 s by default) after the last GUILD_CREATE before
        `on_ready`; the double sends its only guild at once, so a default value is cut to 50 ms.
        """
        state = bot._connection
        if state.guild_ready_timeout == 2.0:
            state.guild_ready_timeout = 0.05
        task = asyncio.create_task(bot.start(token), name=f"bot-{id(bot)}")
        self._tasks[bot] = task
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raise why the client stopped
            raise AssertionError(f"bot not ready within {timeout}s")
        for _ in range(int(timeout / 0.01)):
            if bot.get_guild(self.double.guild_id) is not None:
                break
            await asyncio.sleep(0.01)
        return bot

    async def stop(self, bot: discord.Client, *, timeout: float = 5.0) -> None:
        """Close the client as a process exit would; the double keeps all its state."""
        task = self._tasks.pop(bot, None)
        await bot.close()
        if task is not None:
            await asyncio.wait_for(task, timeout)

    async def restart(self, old: discord.Client, new: discord.Client) -> discord.Client:
        """Stop `old` and start `new` (a fresh instance, fresh IDENTIFY) on the same double."""
        await self.stop(old)
        return await self.start(new)

    async def close_all(self) -> None:
        for bot in list(self._tasks):
            with contextlib.suppress(Exception):
                await self.stop(bot)


@pytest.fixture
async def discord_double() -> AsyncIterator[DiscordDouble]:
    """A double for the test; its teardown fails the test if the bot sent anything Discord
    refuses that the test did not expect (`DiscordDouble.expect_violations`)."""
    async with DiscordDouble() as double:
        yield double


@pytest.fixture
async def bot_runner(
    discord_double: DiscordDouble, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[BotRunner]:
    """Points discord.py's REST base and default gateway at the double for this test only."""
    monkeypatch.setattr(discord.http.Route, "BASE", discord_double.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(discord_double.gateway_url)
    )
    runner = BotRunner(discord_double)
    yield runner
    await runner.close_all()
