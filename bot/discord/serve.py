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


class OneLineReconnects(logging.Filter):
    """discord.py logs each gateway reconnection with the traceback of what dropped (Discord
    unreachable for a while: one every few seconds). The admin needs the line and the reason,
    not the stack: the exception is folded into the message. Its line for each login is left
    out: the bot's own says each try at start-up, and why it failed."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == "logging in using static token":  # every try at start-up: ours say more
            return False
        if record.exc_info and str(record.msg).startswith("Attempting a reconnect"):
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
            record.args = None
            record.exc_info = record.exc_text = None
        return True


RECONNECTING_LOGGERS = ("discord.client", "discord.shard")


async def serve(bot: discord.Client, token: str) -> None:
    """Logs in and runs `bot` until a stop signal or its own end; re-raises why it ended on its
    own (a token Discord refuses, a database the store refuses)."""
    for name in RECONNECTING_LOGGERS:
        logging.getLogger(name).addFilter(OneLineReconnects())
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
