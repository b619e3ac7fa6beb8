"""Runs the Discord bot until it stops or is asked to stop: SIGTERM (`docker stop`, `systemctl
stop`) or SIGINT (Ctrl-C) closes it cleanly (`RummyBot.close`: no new interactions, moves in
flight saved and shown, the gateway and the store closed), and the process exits 0. A second
signal has its usual effect at once, for an admin who will not wait.

discord.py's own `Client.run` only stops on Ctrl-C, and a SIGTERM would kill the process mid-save.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

import discord

log = logging.getLogger(__name__)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


async def serve(bot: discord.Client, token: str) -> None:
    """Logs in and runs `bot` until a stop signal or its own end; re-raises why it ended on its
    own (a token Discord refuses, a database the store refuses)."""
    loop = asyncio.get_running_loop()
    asked = asyncio.Event()

    def stop(signum: int) -> None:
        log.info("%s received: shutting down", signal.Signals(signum).name)
        for each in STOP_SIGNALS:
            loop.remove_signal_handler(each)
        asked.set()

    for each in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl-C ends `asyncio.run` instead
            loop.add_signal_handler(each, stop, each)
    async with bot:
        running = asyncio.create_task(bot.start(token))
        waiting = asyncio.create_task(asked.wait())
        await asyncio.wait({running, waiting}, return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        await bot.close()
        await running
