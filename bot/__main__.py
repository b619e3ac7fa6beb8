"""`python -m bot` runs the Discord bot; `python -m bot play` plays a table in the terminal;
`python -m bot migrate-db --to postgresql://...` copies the SQLite database into PostgreSQL;
`python -m bot replay TABLE DEAL` prints a finished deal's moves; `python -m bot forget-user ID`
erases what the bot keeps about a player; `python -m bot invite` prints the bot's invite link.

`python -m bot --help` lists the commands; each says what it takes with `--help` after it.

What goes wrong is one line on standard error, never a traceback, and the exit status says
whether trying again can help: 2 for what no retry mends (a setting the bot cannot use, a token
Discord refuses, a database that cannot be used as it is or is not there), which the deployment
files do not restart (`RestartPreventExitStatus=2`), and 1 for the rest.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.app.config import FIELDS, Settings, SettingsError
from bot.i18n import LANGUAGES
from bot.store.forgetting import FORMER_PLAYER

if TYPE_CHECKING:
    from bot.store import StoreError
    from bot.store.forgetting import Forgetting

NO_TOKEN = (
    "rummy-bot: DISCORD_TOKEN is not set: put your bot's token (Discord developer portal: Applications "
    "> your app > Bot > Reset Token) in {env} (copy .env.example there first: every setting is "
    "explained in it) or the environment; meanwhile `python -m bot play` plays a table here."
)
BAD_TOKEN = (
    "rummy-bot: Discord refused DISCORD_TOKEN (401 Unauthorized): copy the bot's token again from the "
    "developer portal (Applications > your app > Bot > Reset Token) into {env} or the environment."
)


def _version() -> str:
    try:
        return metadata.version("rummy-bot")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def _settings_help() -> str:
    width = max(len(field.env) for field in FIELDS)
    lines = [f"  {field.env:<{width}}  {field.help}" for field in FIELDS]
    return "settings (the environment, else --env-file; see .env.example):\n" + "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="A Discord bot that hosts Indian 13-card Rummy tables, and a terminal table.",
    )
    parser.add_argument("--version", action="version", version=f"rummy-bot {_version()}")
    env_file = "the settings file to read (default: .env here; the environment wins over it)"
    parser.add_argument("--env-file", type=Path, default=Path(".env"), help=env_file)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, **options: Any) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, **options)
        sub.add_argument("--env-file", type=Path, default=argparse.SUPPRESS, help=env_file)
        return sub

    command(
        "run",
        help="run the Discord bot (what `python -m bot` alone does)",
        epilog=_settings_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # The terminal table parses its own options: `python -m bot play --help` lists them.
    commands.add_parser("play", help="play a table against computer players here", add_help=False)
    move = command(
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
    replay = command(
        "replay",
        help="print a finished deal's moves, every hand shown (from the bot's database)",
        description="Prints deal DEAL (1 for the first) of table TABLE move by move, as `/rummy replay` "
        "shows it, from the database in the settings (RUMMY_DATABASE_URL or RUMMY_DB_PATH).",
    )
    replay.add_argument(
        "table", type=int, help="the table's id (as `/rummy history` names deals: TABLE-DEAL)"
    )
    replay.add_argument("deal", type=int, help="the deal's number in the match")
    replay.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the moves' language (default: LANG's, if it is one of these, else English)",
    )
    forget = command(
        "forget-user",
        help="erase what the bot keeps about a player (on their request)",
        description="Deletes a player's statistics, settings and DM records, and shows them as "
        f"{FORMER_PLAYER!r} in the other players' results, histories, replays and leagues, in the "
        "database in the settings. Says what it changes and asks first (--yes: it does not ask). "
        "Refused while they sit at an open table. See docs/privacy.md.",
    )
    forget.add_argument("user_id", type=_user_id, metavar="USER_ID", help="the player's Discord user id")
    forget.add_argument("--yes", action="store_true", help="change it without asking")
    invite = command(
        "invite",
        help="print the link that adds the bot to a server, with the permissions it needs",
        description="Prints the invite link of the application whose token is DISCORD_TOKEN (Discord is "
        "asked which application that is), or of --client-id, with the permissions the bot uses.",
    )
    invite.add_argument(
        "--client-id", type=_user_id, metavar="ID", help="the application's id (then no token is needed)"
    )
    return parser


def _user_id(text: str) -> int:
    """A Discord id on the command line: digits only."""
    if not (text.isascii() and text.isdigit() and int(text) > 0):
        raise argparse.ArgumentTypeError(f"a Discord id is digits, not {text!r}")
    return int(text)


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
    if args.command == "forget-user":
        return forget_user(args.env_file, args.user_id, args.yes)
    if args.command == "invite":
        return invite(args.env_file, args.client_id)
    return run(args.env_file)


def _settings(command: str, env_file: Path) -> Settings | None:
    """The settings, or None once the setting that cannot be used is said in one line."""
    try:
        return Settings.load(env_file)
    except SettingsError as error:
        _say(command, f"{error} (set in the environment or {env_file})")
        return None


def _say(command: str, words: str) -> None:
    print(f"rummy-bot{' ' + command if command else ''}: {words}", file=sys.stderr)


def _refused(command: str, database: str, error: StoreError) -> int:
    """A store's refusal in one line; 2 for a database no retry makes usable, else 1."""
    from bot.store import UnusableDatabaseError

    _say(command, f"{database}: {error}")
    return 2 if isinstance(error, UnusableDatabaseError) else 1


def migrate_db(env_file: Path, source: Path | None, url: str) -> int:
    """Copies the SQLite database into PostgreSQL; one line, not a traceback, for what it refuses."""
    from bot.app.migrate import run as copy_and_check
    from bot.store import StoreError
    from bot.store.location import URL_SCHEMES, shown

    if not url.startswith(URL_SCHEMES):
        _say("migrate-db", f"--to must be a postgresql:// URL, not {url.split(':')[0]!r}")
        return 2
    if source is None:
        settings = _settings("migrate-db", env_file)
        if settings is None:
            return 2
        source = settings.db_path
    try:
        copy_and_check(source, url)
    except StoreError as error:
        return _refused("migrate-db", f"{source} -> {shown(url)}", error)
    return 0


def replay(env_file: Path, table: int, deal: int, lang: str | None = None) -> int:
    """A finished deal's move list on standard output, in `lang` or the terminal's language (as
    `python -m bot play`); one line, not a traceback, for a refusal. The database must exist."""
    from bot.i18n import words
    from bot.present.replay_text import move_list, refusal_text
    from bot.service import SystemClock
    from bot.service.replay_access import Replays
    from bot.service.replay_views import DealRef, ReplayRefused
    from bot.store import StoreError, open_store
    from bot.terminal.app import language_from_environment

    settings = _settings("replay", env_file)
    if settings is None:
        return 2
    _ = words(lang or language_from_environment(os.environ))

    async def lines() -> list[str]:
        store = await open_store(settings.database, create=False)
        try:
            replays = Replays(store, SystemClock(), settings.keep_days)
            return move_list(await replays.load(DealRef(table, deal)), _)
        finally:
            await store.close()

    try:
        print("\n".join(asyncio.run(lines())))
    except ReplayRefused as refused:
        _say("replay", refusal_text(refused, _))
        return 1
    except StoreError as error:
        return _refused("replay", settings.database_shown, error)
    return 0


def forget_user(env_file: Path, user_id: int, yes: bool) -> int:
    """Forgets a player (`Store.forget_user`): says what it would change, asks unless `yes`
    (refusing to guess where nobody can answer), changes it and says so."""
    import time

    from bot.store import StoreError, open_store

    settings = _settings("forget-user", env_file)
    if settings is None:
        return 2

    async def forget(apply: bool) -> Forgetting:
        store = await open_store(settings.database, create=False)
        try:
            return await store.forget_user(user_id, time.time(), apply=apply)
        finally:
            await store.close()

    try:
        found = asyncio.run(forget(apply=False))
        if not found.found():
            print(f"The bot keeps nothing about user {user_id} in {settings.database_shown}: nothing to do.")
            return 0
        print(f"Forgetting user {user_id} in {settings.database_shown}:")
        print("\n".join(f"  {line}" for line in found.lines()))
        if not yes and not _confirmed():
            print("Nothing changed (run again with --yes to change it without asking).")
            return 1
        done = asyncio.run(forget(apply=True))
    except StoreError as error:
        return _refused("forget-user", settings.database_shown, error)
    print(f"Done: user {user_id} is forgotten ({len(done.lines())} kind(s) of record changed).")
    return 0


def _confirmed() -> bool:
    if not sys.stdin.isatty():
        return False
    return input("Forget them? Type yes: ").strip().lower() == "yes"


def invite(env_file: Path, client_id: int | None) -> int:
    """The invite link, for `--client-id` or the application of the token in the settings."""
    import aiohttp
    import discord

    from bot.discord.invite import application_id, invite_url

    if client_id is None:
        settings = _settings("invite", env_file)
        if settings is None:
            return 2
        if settings.token is None:
            _say("invite", f"set DISCORD_TOKEN in {env_file} or the environment, or give --client-id")
            return 2
        try:
            client_id = asyncio.run(application_id(settings.token))
        except discord.LoginFailure:
            _say("", BAD_TOKEN.removeprefix("rummy-bot: ").format(env=env_file))
            return 2
        except (OSError, aiohttp.ClientError, discord.HTTPException) as error:
            why = f"{type(error).__name__}: {error}"
            _say("invite", f"Discord cannot be reached ({why}); or give --client-id")
            return 1
    print(invite_url(client_id))
    return 0


def run(env_file: Path) -> int:
    """The Discord bot, with one clear line (not a traceback) for what stops it: a setting, a
    token or a database it cannot use (exit 2), or a failure a restart may mend (exit 1)."""
    settings = _settings("", env_file)
    if settings is None:
        return 2
    if settings.token is None:
        print(NO_TOKEN.format(env=env_file.resolve()), file=sys.stderr)
        return 2
    if settings.activity_secret is not None:
        from bot.discord.activity import web_client_missing

        if problem := web_client_missing(settings.activity_web):
            _say("", problem)
            return 2
    import discord

    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from render.fonts import check_complex_layout

    if problem := check_complex_layout():  # English pictures still draw: said, not fatal
        logging.getLogger("rummy-bot").warning(problem)
    from bot.discord.activity import ActivitySettings
    from bot.discord.bot import RummyBot, ShardedRummyBot
    from bot.discord.serve import serve
    from bot.service.table_limits import TableLimits
    from bot.store import StoreError

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
        "table_activity": None
        if settings.activity_secret is None
        else ActivitySettings(
            settings.activity_secret, settings.activity_host, settings.activity_port, settings.activity_web
        ),
    }
    if settings.shards is None:
        bot = RummyBot(settings.database, **options)
    else:  # a shard another process holds is refused in one line too, before any gateway
        bot = ShardedRummyBot(
            settings.database, shards=settings.shards, lease_seconds=settings.lease_seconds, **options
        )
    try:  # until SIGTERM or Ctrl-C, which close it cleanly
        asyncio.run(serve(bot, settings.token))
    except discord.LoginFailure:
        print(BAD_TOKEN.format(env=env_file.resolve()), file=sys.stderr)
        return 2
    except StoreError as error:
        return _refused("", settings.database_shown, error)
    except KeyboardInterrupt:  # where signals cannot be handled on the loop (Windows)
        pass
    if bot.failure is not None:  # it stopped itself (a shard's lease lost)
        return _refused("", settings.database_shown, bot.failure)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
