"""`python -m bot` runs the Discord bot; `python -m bot play` plays a table in the terminal."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

from bot.settings import Settings

NO_TOKEN = """\
rummy-bot: no Discord token is set, so there is nothing to connect to.

Set DISCORD_TOKEN (your application's bot token, from the Discord developer portal:
Applications > your app > Bot > Reset Token) in {env}
(copy .env.example there first: every setting is explained in it), then run
`python -m bot` again. Invite the bot with the `bot` and `applications.commands` scopes.

Meanwhile, play a real table against computer players in this terminal:

    python -m bot play                      (Points, 3 players)
    python -m bot play --format pool-101    (also: deals-2, deals-3, deals-6, pool-61, pool-201)
    python -m bot play --help
"""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "play":
        from bot.terminal.app import main as play

        return play(args[1:])
    env_file = Path(".env")
    settings = Settings.load(env_file)
    if settings.token is None:
        print(NO_TOKEN.format(env=env_file.resolve()), file=sys.stderr)
        return 1
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.discord.bot import RummyBot
    from bot.store import Store, StoreError

    try:  # a database it cannot use is said in one line, before the bot connects to Discord
        asyncio.run(Store.check(settings.db_path))
        bot = RummyBot(settings.db_path, dev_guild_id=settings.dev_guild_id, tune_gc=True)
        bot.run(settings.token, log_handler=None)
    except StoreError as error:
        print(f"rummy-bot: {settings.db_path}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
