"""`python -m bot` in a process of its own, against a Discord double: for tests that run real bot
processes (and kill them). The double lives in the test's process; this points discord.py at
its loopback port, as the `bot_runner` fixture does in-process, then runs the bot's own entry
point unchanged, its settings from the environment:

    DISCORD_DOUBLE_URL=http://127.0.0.1:PORT DISCORD_TOKEN=... RUMMY_... python tests/discord_double/launch.py

Arguments are the bot's command and its options (`invite`, say); none runs the bot.

Kept under tests/ so that nothing in the product knows of the double.
"""

from __future__ import annotations

import os
import sys

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


def main() -> int:
    base = os.environ["DISCORD_DOUBLE_URL"]
    Route.BASE = f"{base}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http://", "ws://", 1) + "/gateway")
    from bot.__main__ import main as run_bot

    return run_bot(["--env-file", os.devnull, *(sys.argv[1:] or ["run"])])


if __name__ == "__main__":
    raise SystemExit(main())
