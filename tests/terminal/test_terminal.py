"""The terminal table driven through its real standard input and output, in a subprocess."""

import os
import signal
import subprocess
import sys
import time

import pytest


def play(
    args: list[str], script: list[str], timeout: float = 120, lang: str = "C.UTF-8"
) -> subprocess.CompletedProcess:
    environ = {name: value for name, value in os.environ.items() if not name.startswith(("LC_", "LANG"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", "play", *args],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**environ, "PYTHONIOENCODING": "utf-8", "LANG": lang},
    )


def test_a_points_match_with_mistakes_then_a_drop_ends_with_the_result():
    script = ["xyz", "d 3", "c", "d 99", "d 14", "o", "drop", "d 1", "c", "d 2", "drop"]
    done = play(["--seed", "3", "--players", "2"], script)
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "is not a command" in out
    assert "Pick a card first" in out
    assert "There is no card number 99" in out
    assert "You pick" in out and "You discard" in out
    assert "Match over" in out
    assert "You drop" in out or "declares" in out


def test_a_pool_match_plays_deal_after_deal_until_someone_is_out():
    script = ["drop", ""] * 40
    done = play(["--seed", "5", "--players", "2", "--format", "pool-101"], script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count("──────── Deal") >= 2
    assert "out of the pool" in out and "Match over" in out


def test_bad_options_are_refused_with_a_readable_message():
    done = play(["--players", "11"], [])
    assert done.returncode == 2 and "at most" in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_leaves_cleanly():
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "You left the table" in out and "Traceback" not in err


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
    assert standard.returncode == 2 and "at most 6" in standard.stderr


def test_declare_with_the_suggested_grouping_keeps_the_open_card_just_taken():
    # 000: the card taken from the open pile cannot go into the finish slot. Here the solver's
    # own discard is that AS; the terminal's plain `declare` must still make the valid show.
    import io
    import random

    from deal_helpers import stacked_deal

    from bot.engine import Rules
    from bot.engine.commands import Pick, Source
    from bot.engine.formats import Format
    from bot.engine.match import Match
    from bot.terminal.app import TerminalTable

    hand = "2S 3S 4S 2C 3C 4C 5C 7D 8D 9D 9C 9H 9S"
    other = "5S 6S 7S 8S 5H 6H 7H 8H 3H 10C JC QC 2D"
    match, _ = Match.start(Format.POINTS, 2, random.Random(1))
    match.deal = stacked_deal(Rules(), [hand, other], "AS", "6D")
    match.apply(Pick(0, Source.OPEN))
    out = io.StringIO()
    table = TerminalTable(match, {}, ["You", "Asha"], lambda prompt: "y", out)
    table.layout.follow(match.deal.seats[0].hand, match.deal.wild_rank, match.deal.rules)
    table.your_command("declare")
    assert match.winners == [0], out.getvalue()


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
