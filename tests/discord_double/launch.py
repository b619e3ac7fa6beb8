"""`python -m bot` in a process of its own, against a Discord double: for tests that run real bot
processes (and kill them). The double lives in the test's process; this points discord.py at
its loopback port, as the `bot_runner` fixture does in-process, then runs the bot's own entry
point unchanged, its settings from the environment:

    DISCORD_DOUBLE_URL=http://127.0.0.1:PORT DISCORD_TOKEN=... RUMMY_... python tests/discord_double/launch.py

Arguments are the bot's command and its options (`invite`, say); none runs the bot. With
DISCORD_DOUBLE_SOURCE_ADDRESS (a loopback address, 127.0.0.2 say), every connection the process
opens to the double comes from there, so that the double's records tell its requests apart
even where no token is sent (interaction answers).

Kept under tests/ so that nothing in the product knows of the double.
"""

from __future__ import annotations

import os
import sys

import aiohttp
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


def main() -> int:
    base = os.environ["DISCORD_DOUBLE_URL"]
    Route.BASE = f"{base}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http://", "ws://", 1) + "/gateway")
    source = os.environ.get("DISCORD_DOUBLE_SOURCE_ADDRESS")
    if source:
        connector = aiohttp.TCPConnector.__init__

        def from_source(self: aiohttp.TCPConnector, *args: object, **kwargs: object) -> None:
            kwargs.setdefault("local_addr", (source, 0))
            connector(self, *args, **kwargs)  # type: ignore[arg-type]

        aiohttp.TCPConnector.__init__ = from_source  # type: ignore[method-assign]
    from bot.__main__ import main as run_bot

    return run_bot(["--env-file", os.devnull, *(sys.argv[1:] or ["run"])])


if __name__ == "__main__":
    raise SystemExit(main())
