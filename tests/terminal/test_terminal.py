"""The terminal table driven through its real standard input and output, in a subprocess: a real
table of the table service, its clock running, the person's commands going through the service's
door."""

from __future__ import annotations

import io
import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest
from deal_helpers import stacked_deal
from service_helpers import GUILD, open_service

from bot.engine import Rules
from bot.engine.commands import Pick, Source
from bot.engine.match import MatchPhase
from bot.i18n import words
from bot.terminal.console import GivenLines, Screen
from bot.terminal.keyboard_table import TerminalTable

HINDI = words("hi")


def environment(lang: str) -> dict[str, str]:
    environ = {name: value for name, value in os.environ.items() if not name.startswith(("LC_", "LANG"))}
    return {**environ, "PYTHONIOENCODING": "utf-8", "LANG": lang}


def play(
    args: list[str], script: list[str], timeout: float = 120, lang: str = "C.UTF-8"
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", "play", *args],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment(lang),
    )


class Running:
    """The terminal table as a running process, its output read as it comes."""

    def __init__(self, args: list[str], lang: str = "C.UTF-8") -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "play", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment(lang),
        )
        self.seen = b""

    def until(self, text: str, timeout: float = 60, times: int = 1) -> str:
        """The output so far, once `text` is in it `times` times (waiting at most `timeout`
        seconds for it)."""
        deadline = time.monotonic() + timeout
        wanted, fd = text.encode(), self.process.stdout.fileno()
        while self.seen.count(wanted) < times:
            left = deadline - time.monotonic()
            assert left > 0, f"no {text!r} after {timeout} s in:\n{self.seen.decode()}"
            if select.select([fd], [], [], left)[0]:
                chunk = os.read(fd, 65536)
                assert chunk, f"it ended without {text!r}:\n{self.seen.decode()}"
                self.seen += chunk
        return self.seen.decode()

    def type(self, *lines: str) -> None:
        self.process.stdin.write("".join(f"{line}\n" for line in lines).encode())
        self.process.stdin.flush()


def hands(out: str) -> list[dict[int, str]]:
    """Each hand printed, as number -> card (a `*` kept on the card it marks)."""
    blocks = re.findall(r"((?:\n  (?!points)\S.*)+)\n  points as grouped", out)
    return [{int(number): card for number, card in re.findall(r"(\d+):(\S+)", block)} for block in blocks]


def test_a_points_match_with_mistakes_then_a_drop_ends_with_the_result():
    script = ["xyz", "d 3", "c", "d 99", "d 14", "o", "drop", "y", "d 1", "c", "d 2", "drop", "y"]
    done = play(["--seed", "3", "--players", "2"], script)
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "is not a command" in out
    assert "Pick a card first" in out
    assert "There is no card number 99" in out
    assert "You pick" in out and "You discard" in out
    assert "Match over" in out
    assert "You drop" in out or "declares" in out or "drops" in out


def test_a_pool_match_plays_deal_after_deal_until_someone_is_out():
    script = ["drop", "y", ""] * 40
    done = play(["--seed", "5", "--players", "2", "--format", "pool-101"], script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count("──────── Deal") >= 2
    assert "out of the pool" in out and "Match over" in out


def test_bad_options_are_refused_with_a_readable_message():
    done = play(["--players", "11"], [])
    assert done.returncode == 2 and "seats 2 to 6 players" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_leaves_cleanly():
    table = Running(["--seed", "1"])
    table.until("> ")  # at the first prompt
    table.process.send_signal(signal.SIGINT)
    out, err = table.process.communicate(timeout=30)
    assert table.process.returncode == 0, err
    assert "You left the table" in out.decode() and "Traceback" not in err.decode()


def test_a_closed_output_ends_the_program_quietly():
    # `python -m bot play | head`: the reader goes away; the player's next moves print to nobody.
    table = Running(["--seed", "1", "--players", "2"])
    table.until("\n")
    table.process.stdout.close()
    table.type("help", "rules", "c", "d 1", "quit")
    table.process.stdin.close()
    assert table.process.wait(timeout=60) == 0
    err = table.process.stderr.read().decode()
    assert err == "", err


def test_home_rules_seat_ten_and_the_help_says_this_tables_costs():
    # 004: "up to ten players", "seven or more ... three packs", "pack before he has even picked up
    # a card then he must pay 10 points"; 000: the standard table seats 2 to 6.
    done = play(["--seed", "2", "--players", "10", "--rules", "home"], ["help", "rules", "quit"])
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "10 players" in out and "Rules: home" in out
    assert "drop out of this deal (10 before your first pick, 40 after)" in out
    assert "3 decks up to 10 players" in out and "a wrong show costs 80 points" in out
    standard = play(["--players", "7"], [])
    assert standard.returncode == 2 and "seats 2 to 6" in standard.stderr


def test_a_pick_moves_no_card_number_and_marks_only_the_copy_picked():
    # Two decks: this hand holds 2♣ and picks the other 2♣. K♥ is card 10 before the pick, and
    # `d 10` typed from memory after it throws K♥.
    done = play(["--seed", "1", "--players", "2"], ["c", "d 10", "quit"])
    assert done.returncode == 0, done.stderr
    before, after = hands(done.stdout)[:2]
    assert len(before) == 13 and len(after) == 14
    assert before[10] == "K♥" and before[12] == "2♣"
    assert {number: after[number] for number in before} == before  # nothing else moved
    assert after[14] == "2♣*"  # the new card takes the next number, marked
    assert [number for number, card in after.items() if card.endswith("*")] == [14]
    assert "You pick 2♣ from the closed deck." in done.stdout
    assert "You discard K♥." in done.stdout


def test_group_speaks_the_tables_language():
    done = play(["--seed", "1", "--players", "2", "--lang", "hi"], ["group", "group 1 2 3 / 4 5", "quit"])
    out = done.stdout
    assert done.returncode == 0, done.stderr
    grouped = HINDI("points as grouped: {points}", points="")
    assert out.count(grouped) == 3 and "points as grouped" not in out
    assert HINDI("pure sequence") in out and HINDI("loose") in out and "loose" not in out


def test_the_clock_shown_is_the_clock_that_runs():
    # The app preset's two clocks, without a bank (003): 5 s to pick, then 5 s to discard. Nobody
    # types; the table's clock picks from the closed deck, and the discard clock starts.
    table = Running(["--seed", "1", "--players", "2", "--rules", "app", "--turn-seconds", "5"])
    opening = table.until("> ")
    assert "5 s to pick + 5 s to discard" in opening  # the rules line
    assert re.search(r"· [1-5] s to play\n", opening)  # this turn's clock, no bank
    table.until("You ran out of time (1 in a row).", timeout=90)
    out = table.until("discard (d N) or declare > ", timeout=90)
    played = out.split("You ran out of time (1 in a row).")[1]
    assert "You pick 2♣ from the closed deck." in played and re.search(r"· [1-5] s to play\n", played)
    table.type("d 14")
    table.until("Asha discards", timeout=90)
    table.process.stdin.close()
    assert table.process.wait(timeout=60) == 0


def test_a_drop_asks_first_with_what_it_costs_at_this_table():
    # 000: a drop before the first pick costs 20, after it 40; 004 (home): 10 before it.
    done = play(["--seed", "1", "--players", "2"], ["drop", "n", "c", "d 14", "drop", "y"])
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "Drop out of this deal for 20 points? [y/N] Not dropped." in out
    assert "Drop out of this deal for 40 points? [y/N] You drop (middle drop, 40 points)." in out
    home = play(["--seed", "1", "--players", "2", "--rules", "home"], ["drop", "y"])
    assert "Drop out of this deal for 10 points? [y/N] You drop (first drop, 10 points)." in home.stdout
    hindi = play(["--seed", "1", "--players", "2", "--lang", "hi"], ["drop", "n", "quit"])
    assert HINDI("Drop out of this deal for {points} points? [y/N] ", points=20) in hindi.stdout


def test_a_wrong_show_is_named_with_its_cost_and_loose_cards_before_it_is_made():
    done = play(["--seed", "1", "--players", "2"], ["c", "declare", "n", "declare", "y"])
    out = done.stdout
    assert done.returncode == 0, done.stderr
    asked = out.split("Declare anyway (−80)? [y/N] ")
    assert len(asked) == 3, out  # asked twice
    first = asked[0].rsplit("Declare ", 1)[1]
    assert "This is a wrong show: " in first and "A wrong show costs you 80 points." in first
    loose = re.search(r"Not in a valid group: (.+)", first)
    assert loose is not None and "2♥" in loose[1].split()
    assert asked[1].startswith("Not declared.")
    assert "You declared wrongly (80 points)." in asked[2] or "declared wrongly (80 points)" in asked[2]


async def test_declare_with_the_suggested_grouping_keeps_the_open_card_just_taken(tmp_path):
    # 000: the card taken from the open pile cannot go into the finish slot. Here the solver's
    # own discard is that AS; the terminal's plain `declare` must still make the valid show.
    store, service = await open_service(tmp_path / "rummy.db")
    await service.open_table(GUILD, 9, 1, "You")
    await service.add_computer(9, 1, "easy")
    await service.start(9, 1)
    live = service.table_in(9)
    hand = "2S 3S 4S 2C 3C 4C 5C 7D 8D 9D 9C 9H 9S"
    other = "5S 6S 7S 8S 5H 6H 7H 8H 3H 10C JC QC 2D"
    live.match.deal = stacked_deal(Rules(), [hand, other], "AS", "6D")
    live.publish()
    await service.play(9, 1, Pick(0, Source.OPEN), turn=service.view(live.id).turn_token)
    out = io.StringIO()
    table = TerminalTable(service, live.id, 1, ["You", "Asha"], GivenLines(["y"]), Screen(out))
    await table.command("declare", await service.hand(live.id, 1))
    over = service.view(live.id)
    assert over.match.phase is MatchPhase.OVER and over.match.winners == (0,), out.getvalue()
    assert "It is a valid show." in out.getvalue()
    await store.close()


@pytest.mark.parametrize(("args", "lang"), [(["--lang", "hi"], "C.UTF-8"), ([], "hi_IN.UTF-8")])
def test_the_table_speaks_hindi_with_lang_hi_or_a_hindi_locale(args, lang):
    """`--lang hi`, or LANG naming Hindi: the table's words in Hindi, the commands still typed as
    in English (c, d 3, drop)."""
    done = play(
        ["--seed", "3", "--players", "2", *args], ["xyz", "d 3", "c", "d 14", "drop", "d 1"], lang=lang
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "'xyz' कोई कमांड नहीं है।" in out and "कमांड (नंबर" in out  # the help, in Hindi
    assert "पहले एक पत्ता उठाएँ" in out  # a refusal: "Pick a card first ..."
    assert "आपने बंद गड्डी से" in out and "आपने" in out  # "You pick ... from the closed deck"
    assert "मैच खत्म" in out and "Pick a card first" not in out


def test_an_english_locale_keeps_english():
    done = play(["--seed", "3", "--players", "2"], ["c", "d 14", "drop"], lang="en_IN.UTF-8")
    assert "You pick" in done.stdout and "आप" not in done.stdout


def test_a_player_out_of_the_pool_is_offered_to_rejoin_and_plays_on():
    # 000: an eliminated player may rejoin once, at the highest remaining score plus one.
    shows = ["c", "declare", "y"]
    script = [*shows, "", *shows, "", *shows, "rejoin", "", "quit"]
    done = play(["--seed", "5", "--players", "6", "--format", "pool-201"], script)
    out = done.stdout
    assert done.returncode == 0, done.stderr
    out_of_pool = out.index("You are out of the pool with 240 points.")
    offered = out.index("· rejoin · quit > ", out_of_pool)
    assert re.search(r"You rejoin the pool at \d+ points\.", out[offered:])
    assert "──────── Deal 4" in out[offered:]


def test_a_match_kept_with_db_plays_on_where_it_was_left(tmp_path):
    kept = tmp_path / "game.db"
    first = play(["--seed", "1", "--players", "2", "--db", str(kept)], ["c", "quit"])
    assert first.returncode == 0, first.stderr
    assert "You pick 2♣ from the closed deck." in first.stdout
    assert f"Your match is saved: --db {kept} plays on from here." in first.stdout
    again = play(["--seed", "1", "--players", "2", "--db", str(kept)], ["d 2C", "quit"])
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Your saved match plays on: deal 1.")
    assert len(hands(again.stdout)[0]) == 14  # the card picked before is still in hand
    assert "You discard 2♣." in again.stdout and "Asha" in again.stdout.split("You discard 2♣.")[1]


async def test_a_bot_database_is_refused_before_its_tables_are_touched(tmp_path):
    database = tmp_path / "rummy.db"
    store, service = await open_service(database)
    await service.open_table(123456789, 555, 42, "Asha")
    await store.close()
    done = play(["--db", str(database)], [])
    assert done.returncode == 2 and "tables of a Discord bot" in done.stderr, done.stderr
    store, service = await open_service(database)
    assert [view.guild_id for view in service.views()] == [123456789]
    await store.close()


def test_the_terminal_reads_views_and_never_the_live_table():
    # Issue 24: front ends see frozen views; the service keeps its live tables to itself.
    import ast
    from pathlib import Path

    import bot.terminal

    live = {"LiveTable", "Match", "Deal", "TableRecord", "ActiveTable", "StoredMatch"}
    for path in Path(bot.terminal.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "bot.service.live_table", path
                assert not live & {alias.name for alias in node.names}, (path, node.lineno)
            if isinstance(node, ast.Attribute):
                assert node.attr not in {"table", "table_in", "tables"}, (path, node.lineno)
