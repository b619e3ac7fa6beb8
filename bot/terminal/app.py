"""`python -m bot play`: a real match against computer players in the terminal.

It is a real table of the table service (`bot.service`), the one the Discord tables play at, on
a database of its own in a temporary folder (gone when the program ends): so anyone can try the
game on a fresh machine without a Discord token, and tests can drive a whole match through real
input and output. The person's seat is played from the keyboard (`bot.terminal.table`); the
others are the service's computer players, thinking on the event loop, as a table with no worker
processes does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from bot.engine import Rules, RummyError
from bot.engine.ai import Level
from bot.engine.formats import Format
from bot.i18n import ENGLISH, LANGUAGES, Words, language_of, words
from bot.present.game_words import format_title
from bot.present.rules_options import preset, rules_line, with_turn_seconds
from bot.service import ServiceSettings, TableEvent, TableService, seeded, system_random
from bot.store import open_store
from bot.terminal.console import Lines, Screen, TypedLines, quiet_closed_output
from bot.terminal.table import BOT_NAMES, QuitGame, TerminalTable

# The terminal's one table: its server, channel and person, as Discord would number them.
GUILD, CHANNEL, PLAYER = 1, 1, 1
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
        help="whose rules: "
        + "; ".join(f"{name}: {Rules.PRESET_SUMMARIES[name]}" for name in Rules.PRESET_NAMES),
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
    """The table `args` describe, on a database of its own that is removed afterwards, played
    from `lines` (standard input if not given); the exit status."""
    with tempfile.TemporaryDirectory(prefix="rummy-play-") as folder:
        store = await open_store(Path(folder) / "table.db")
        source = seeded(args.seed) if args.seed is not None else system_random
        service = TableService(store, random_source=source, settings=SETTINGS)
        try:
            try:
                opening = await sit_down(service, args)
            except RummyError as error:
                print(f"rummy: {error.render(str, _)}", file=sys.stderr)
                return 2
            return await play_on(service, opening, args.players, screen, _, lines or TypedLines())
        finally:
            await service.shut_down()
            await store.close()


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
    service: TableService, opening: list[TableEvent], players: int, screen: Screen, _: Words, lines: Lines
) -> int:
    """Plays the match just started, the service's clock running, until it is over or the
    person leaves."""
    view = service.view_in(CHANNEL)
    assert view is not None
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
    table.keep(opening)
    stop = asyncio.Event()
    clock = asyncio.create_task(service.run(stop))
    try:
        await table.play()
    except QuitGame:
        screen.say("", _("You left the table. Thanks for playing!"))
    finally:
        stop.set()
        await clock
    return 0
