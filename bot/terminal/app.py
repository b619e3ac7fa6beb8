"""`python -m bot play`: a real match against computer players in the terminal.

It is a real table of the table service (`bot.service`), the one the Discord tables play at, on
a database of its own in a temporary folder (gone when the program ends): so anyone can try the
game on a fresh machine without a Discord token, and tests can drive a whole match through real
input and output. The person's seat is played from the keyboard (`bot.terminal.keyboard_table`); the
others are the service's computer players, thinking on the event loop, as a table with no worker
processes does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from bot.engine import Rules, RummyError
from bot.engine.ai import Level
from bot.engine.formats import Format
from bot.i18n import ENGLISH, LANGUAGES, N_, Words, language_of, words
from bot.present.game_words import format_title
from bot.present.rules_options import preset, preset_summary, rules_line, with_turn_seconds
from bot.service import ServiceSettings, TableEvent, TableService, seeded, system_random
from bot.store import StoreError, open_store
from bot.terminal.console import Lines, Screen, TypedLines, quiet_closed_output
from bot.terminal.keyboard_table import BOT_NAMES, QuitGame, TerminalTable

# The terminal's one table: its server, channel and person, as Discord would number them.
GUILD, CHANNEL, PLAYER = 1, 1, 1
# A database that holds tables of other servers is a bot's: the terminal's clock would play them.
NOT_OURS = N_(
    "this database holds tables of a Discord bot, which this table's clock would play on: give "
    "--db a file of its own."
)
# Computer players move as soon as it is their turn (a person at a terminal reads the moves as
# they scroll by), and one table has no other tables' presses to give way to.
SETTINGS = ServiceSettings(computer_delay_seconds=0.0, yield_when_late_seconds=None)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot play", description="Play Rummy in the terminal.")
    parser.add_argument("--format", default="points", choices=[f.value for f in Format])
    most = ", ".join(f"{preset(name).max_players} with {name}" for name in Rules.PRESET_NAMES)
    parser.add_argument(
        "--players", type=int, default=3, help=f"seats including you, from 2 to what the rules seat ({most})"
    )
    parser.add_argument("--level", default="strong", choices=[level.value for level in Level])
    parser.add_argument("--seed", type=int, help="repeat a game exactly (shuffles and computer moves)")
    parser.add_argument(
        "--rules",
        default="standard",
        choices=Rules.PRESET_NAMES,
        help="whose rules: " + "; ".join(preset_summary(name) for name in Rules.PRESET_NAMES),
    )
    parser.add_argument("--point-value", type=int, default=1)
    parser.add_argument(
        "--turn-seconds",
        type=int,
        metavar="SECONDS",
        help="your time for a turn, instead of the rules' clock (both clocks with two); when it and "
        "your time bank run out, the table plays your turn",
    )
    parser.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help="keep the game in this SQLite file: a match left unfinished plays on when you give it "
        "again (default: a temporary file, removed when you leave)",
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the table's language (default: LANG's, if it is one of these, else English)",
    )
    return parser


def language_from_environment(environ: Mapping[str, str]) -> str:
    """The language POSIX says the terminal speaks (LC_ALL, then LC_MESSAGES, then LANG)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return language_of(environ[name]) or ENGLISH
    return ENGLISH


def main(argv: list[str], out: TextIO = sys.stdout, environ: Mapping[str, str] = os.environ) -> int:
    args = build_parser().parse_args(argv)
    _ = words(args.lang or language_from_environment(environ))
    screen = Screen(out)
    try:
        try:
            return asyncio.run(play(args, screen, _))
        except KeyboardInterrupt:
            screen.say("", _("You left the table. Thanks for playing!"))
            return 0
    except BrokenPipeError:  # the reader went away (`| head`): nobody is left to tell
        quiet_closed_output(out)
        return 0


async def play(args: argparse.Namespace, screen: Screen, _: Words, lines: Lines | None = None) -> int:
    """The table `args` describe, played from `lines` (standard input if not given), on the
    database `--db` names (kept: a match left unfinished plays on when it is given again), or on
    one of its own in a temporary folder, removed afterwards; the exit status."""
    if args.db is not None:
        return await play_at(args.db, args, screen, _, lines)
    with tempfile.TemporaryDirectory(prefix="rummy-play-") as folder:
        return await play_at(Path(folder) / "table.db", args, screen, _, lines)


async def play_at(path: Path, args: argparse.Namespace, screen: Screen, _: Words, lines: Lines | None) -> int:
    try:
        if not path.parent.is_dir():  # said here: SQLite's own error leaves its thread running
            raise StoreError(f"there is no folder {path.parent}")
        store = await open_store(path)
    except (StoreError, sqlite3.Error, OSError) as error:
        print(f"rummy: {path}: {error}", file=sys.stderr)
        return 2
    source = seeded(args.seed) if args.seed is not None else system_random
    service = TableService(store, random_source=source, settings=SETTINGS)
    try:
        await service.resume()  # its clock does not run yet: nothing is played before this check
        if any(view.guild_id != GUILD for view in service.views()):
            print(f"rummy: {path}: {_(NOT_OURS)}", file=sys.stderr)
            return 2
        try:
            opening = await take_seat(service, args)
        except RummyError as error:
            print(f"rummy: {error.render(str, _)}", file=sys.stderr)
            return 2
        kept = path if args.db is not None else None
        return await play_on(service, opening, screen, _, lines or TypedLines(), kept)
    finally:
        await service.shut_down()
        await store.close()


async def take_seat(service: TableService, args: argparse.Namespace) -> list[TableEvent] | None:
    """The match the database holds unfinished, to play on (None), else a new one as `args`
    describe (its opening events)."""
    saved = service.view_in(CHANNEL)
    if saved is not None and saved.match is not None:
        return None
    if saved is not None:  # a table never started, or one whose rows cannot be played on
        await service.cancel(CHANNEL, PLAYER, can_manage=True)
    return await sit_down(service, args)


async def sit_down(service: TableService, args: argparse.Namespace) -> list[TableEvent]:
    """Opens the table with the person as its host, seats the computer players and starts."""
    rules = preset(args.rules)
    if args.turn_seconds is not None:
        rules = with_turn_seconds(rules, args.turn_seconds)
    await service.open_table(
        GUILD,
        CHANNEL,
        PLAYER,
        "You",
        format=args.format,
        rules=rules,
        point_value=args.point_value,
        max_seats=args.players,
    )
    for _seat in range(1, args.players):
        await service.add_computer(CHANNEL, PLAYER, args.level)
    return await service.start(CHANNEL, PLAYER)


async def play_on(
    service: TableService,
    opening: list[TableEvent] | None,
    screen: Screen,
    _: Words,
    lines: Lines,
    kept: Path | None,
) -> int:
    """Plays the match (`opening`: just started; None: saved, playing on), the service's clock
    running, until it is over or the person leaves. `kept`: the database the match stays in."""
    view = service.view_in(CHANNEL)
    assert view is not None and view.match is not None
    players = len(view.seats)
    if opening is None:
        screen.say(_("Your saved match plays on: deal {number}.", number=view.match.deal_number))
    screen.say(
        _("Rules: {rules} (type rules for all of them)", rules=rules_line(view.spec, view.rules, _)),
        _(
            "{format} · {players} players · you are seat 1. Type help for commands.",
            format=format_title(view.spec, _),
            players=players,
        ),
    )
    names = [_("You"), *BOT_NAMES[: players - 1]]
    table = TerminalTable(service, view.id, PLAYER, names, lines, screen, _)
    service.on_events = table.hear
    if opening is not None:
        table.keep(opening)
    stop = asyncio.Event()
    clock = asyncio.create_task(service.run(stop))
    try:
        await table.play()
    except QuitGame:
        screen.say("", _("You left the table. Thanks for playing!"))
        left = service.view(view.id)
        if kept is not None and left is not None and left.active:
            screen.say(_("Your match is saved: --db {path} plays on from here.", path=kept))
    finally:
        stop.set()
        await clock
    return 0
