"""`python -m bot` runs the Discord bot; `python -m bot play` plays a table in the terminal;
`python -m bot migrate-db --to postgresql://...` copies the SQLite database into PostgreSQL;
`python -m bot replay TABLE DEAL` prints a finished deal's moves.

`python -m bot --help` lists the commands; each says what it takes with `--help` after it.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from bot.app.config import Settings, SettingsError
from bot.i18n import LANGUAGES

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


def _version() -> str:
    try:
        return metadata.version("rummy-bot")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="A Discord bot that hosts Indian 13-card Rummy tables, and a terminal table.",
    )
    parser.add_argument("--version", action="version", version=f"rummy-bot {_version()}")
    env_file = "the settings file to read (default: .env here; the environment wins over it)"
    parser.add_argument("--env-file", type=Path, default=Path(".env"), help=env_file)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = commands.add_parser("run", help="run the Discord bot (what `python -m bot` alone does)")
    run.add_argument("--env-file", type=Path, default=argparse.SUPPRESS, help=env_file)
    # The terminal table parses its own options: `python -m bot play --help` lists them.
    commands.add_parser("play", help="play a table against computer players here", add_help=False)
    move = commands.add_parser(
        "migrate-db",
        help="copy the SQLite database into an empty PostgreSQL database and check the copy",
        description="Copies the SQLite database (RUMMY_DB_PATH, or --from) into an empty PostgreSQL "
        "database, then checks that every table holds as many rows and every open table's match "
        "replays the same. Stop the bot first.",
    )
    move.add_argument("--to", required=True, metavar="URL", help="the PostgreSQL database: postgresql://...")
    move.add_argument(
        "--from", dest="source", type=Path, metavar="PATH", help="the SQLite file (default: RUMMY_DB_PATH)"
    )
    move.add_argument("--env-file", type=Path, default=argparse.SUPPRESS, help=env_file)
    replay = commands.add_parser(
        "replay",
        help="print a finished deal's moves, every hand shown (from the bot's database)",
        description="Prints deal DEAL (1 for the first) of table TABLE move by move, as `/rummy replay` "
        "shows it, from the database in the settings (RUMMY_DATABASE_URL or RUMMY_DB_PATH).",
    )
    replay.add_argument(
        "table", type=int, help="the table's id (as `/rummy history` names deals: TABLE-DEAL)"
    )
    replay.add_argument("deal", type=int, help="the deal's number in the match")
    replay.add_argument("--env-file", type=Path, default=argparse.SUPPRESS, help=env_file)
    replay.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the moves' language (default: LANG's, if it is one of these, else English)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args, rest = _parser().parse_known_args(sys.argv[1:] if argv is None else argv)
    if args.command == "play":
        from bot.terminal.app import main as play

        return play(rest)
    if rest:
        _parser().error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "migrate-db":
        return migrate_db(args.env_file, args.source, args.to)
    if args.command == "replay":
        return replay(args.env_file, args.table, args.deal, args.lang)
    return run(args.env_file)


def migrate_db(env_file: Path, source: Path | None, url: str) -> int:
    """Copies the SQLite database into PostgreSQL; one line, not a traceback, for what it refuses."""
    from bot.app.migrate import run as copy_and_check
    from bot.store import StoreError
    from bot.store.location import URL_SCHEMES, shown

    if not url.startswith(URL_SCHEMES):
        print(
            f"rummy-bot migrate-db: --to must be a postgresql:// URL, not {url.split(':')[0]!r}",
            file=sys.stderr,
        )
        return 2
    if source is None:
        try:
            source = Settings.load(env_file).db_path
        except SettingsError as error:
            print(f"rummy-bot migrate-db: {error} (set in the environment or {env_file})", file=sys.stderr)
            return 2
    try:
        copy_and_check(source, url)
    except StoreError as error:
        print(f"rummy-bot migrate-db: {source} -> {shown(url)}: {error}", file=sys.stderr)
        return 1
    return 0


def replay(env_file: Path, table: int, deal: int, lang: str | None = None) -> int:
    """A finished deal's move list on standard output, in `lang` or the terminal's language (as
    `python -m bot play`); one line, not a traceback, for a refusal."""
    from bot.i18n import words
    from bot.present.replay_text import move_list, refusal_text
    from bot.service import SystemClock
    from bot.service.replay_access import DealRef, ReplayRefused, Replays
    from bot.store import StoreError, open_store
    from bot.terminal.app import language_from_environment

    try:
        settings = Settings.load(env_file)
    except SettingsError as error:
        print(f"rummy-bot replay: {error} (set in the environment or {env_file})", file=sys.stderr)
        return 2
    _ = words(lang or language_from_environment(os.environ))

    async def lines() -> list[str]:
        store = await open_store(settings.database)
        try:
            replays = Replays(store, SystemClock(), settings.keep_days)
            return move_list(await replays.load(DealRef(table, deal)), _)
        finally:
            await store.close()

    try:
        print("\n".join(asyncio.run(lines())))
    except ReplayRefused as refused:
        print(f"rummy-bot replay: {refusal_text(refused, _)}", file=sys.stderr)
        return 1
    except StoreError as error:
        print(f"rummy-bot replay: {settings.database_shown}: {error}", file=sys.stderr)
        return 1
    return 0


def run(env_file: Path) -> int:
    """The Discord bot, with one clear line (not a traceback) for a setting it cannot use."""
    try:
        settings = Settings.load(env_file)
    except SettingsError as error:
        print(f"rummy-bot: {error} (set in the environment or {env_file})", file=sys.stderr)
        return 2
    if settings.token is None:
        print(NO_TOKEN.format(env=env_file.resolve()), file=sys.stderr)
        return 1
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from render.fonts import check_complex_layout

    if problem := check_complex_layout():  # English pictures still draw: said, not fatal
        logging.getLogger("rummy-bot").warning(problem)
    from bot.discord.bot import RummyBot, ShardedRummyBot
    from bot.discord.serve import serve
    from bot.service.table_limits import TableLimits
    from bot.store import StoreError, check_store

    try:  # a database it cannot use is said in one line, before the bot connects to Discord
        asyncio.run(check_store(settings.database))
        options: dict[str, Any] = {
            "dev_guild_id": settings.dev_guild_id,
            "keep_days": settings.keep_days,
            "request_budget": settings.request_budget,
            "mention_watching_after": settings.mention_watching_after,
            "tune_gc": True,
            "picture_workers": settings.picture_workers,
            "metrics_port": settings.metrics_port,
            "metrics_host": settings.metrics_host,
            "table_limits": TableLimits(
                seats_per_member=settings.member_tables or None,
                opens_per_member=settings.member_opens or None,
                opens_window_seconds=60.0 * settings.member_opens_minutes,
                tables_per_server=settings.server_tables or None,
            ),
            "repost_seconds": settings.repost_seconds,
        }
        if settings.shards is None:
            bot = RummyBot(settings.database, **options)
        else:  # a shard another process holds is refused in one line too, before any gateway
            bot = ShardedRummyBot(
                settings.database, shards=settings.shards, lease_seconds=settings.lease_seconds, **options
            )
        asyncio.run(serve(bot, settings.token))  # until SIGTERM or Ctrl-C, which close it cleanly
    except StoreError as error:
        print(f"rummy-bot: {settings.database_shown}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # where signals cannot be handled on the loop (Windows)
        pass
    if bot.failure is not None:  # it stopped itself (a shard's lease lost)
        print(f"rummy-bot: {settings.database_shown}: {bot.failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
