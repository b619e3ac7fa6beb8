"""Kills a process playing through the service with SIGKILL at random moments, many times, and
checks after each kill that every table resumes with nothing lost, nothing applied twice and
every card in its place. On both databases: a killed bot process must lose nothing that
PostgreSQL acknowledged either."""

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from bot.engine.match import Match
from bot.store import open_store

ROOT = Path(__file__).resolve().parents[2]
PLAYER = [sys.executable, str(ROOT / "tests" / "service_helpers.py")]
KILLS = 15
SEED, TABLES, MATCHES = "7", "6", "2"  # about 7,900 commands: more than 15 kills can use up on a fast machine


ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def command(db: Path | str) -> list[str]:
    return [*PLAYER, str(db), SEED, TABLES, MATCHES]


def start(db: Path | str) -> subprocess.Popen:
    return subprocess.Popen(command(db), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)


async def check(db: Path | str, printed: list[str]) -> dict[int, int]:
    """Every table resumes and agrees with its log; returns each match's command count."""
    store = await open_store(db)
    try:
        logged: Counter[str] = Counter()
        counts = {}
        for table_id, match_id in (await store.match_ids()).items():
            stored = await store.load_match(table_id)  # refuses a snapshot that disagrees with the log
            match = Match.restore(stored.snapshot, stored.pending)  # the commands since its snapshot
            match.check_invariants()  # cards and chips conserved
            assert Match.replay(match.to_json()).to_json() == match.to_json()
            log = await store.command_log(match_id)
            assert [row["seq"] for row in log] == list(range(1, len(log) + 1)), "a gap in the log"
            assert [row["command"] for row in log] == match.to_json()["log"]
            logged.update(row["command_id"] for row in log if row["command_id"])
            counts[match_id] = len(log)
        assert not [command for command, times in logged.items() if times > 1], "applied twice"
        assert set(printed) <= set(logged), "an acknowledged command was lost"
        return counts
    finally:
        await store.close()


def play_then_kill(db: Path | str, rng: random.Random, kill: int) -> tuple[list[str], bool]:
    """Starts the player and kills it: every fourth time at a random moment of its start-up
    (migrating, resuming), otherwise a random few milliseconds after a random number of
    acknowledged commands, so kills land anywhere in a command's life whatever the machine's
    speed. Returns the ids it printed and whether it was still playing when killed."""
    player = start(db)
    lines: list[str] = []
    if kill % 4 == 3:
        time.sleep(rng.uniform(0.05, 0.6))
    else:
        wanted = rng.randint(20, 250)
        while len(lines) < wanted and (line := player.stdout.readline().decode().strip()):
            lines.append(line)
            if line == "done":
                break
        time.sleep(rng.uniform(0, 0.02))
    player.send_signal(signal.SIGKILL)
    # The rest is read through the same buffered file as the lines above. `communicate` would
    # read the pipe's descriptor itself and drop what `readline` had already buffered: a loaded
    # machine lets more than that buffer pile up in the pipe, so its last line was cut in two
    # and its tail ("70787-3-57" of, say, "3123670787-3-57") taken for a lost command.
    with player:
        lines += player.stdout.read().decode().split()
        err = player.stderr.read()
    runs = {line.rsplit("-", 2)[0] for line in lines if line != "done"}
    assert len(runs) <= 1, f"the lines were misread: ids of several runs {sorted(runs)}"
    done = "done" in lines
    # a kill that lands after "done" may still find the process exiting
    assert player.returncode in ((0, -signal.SIGKILL) if done else (-signal.SIGKILL,)), err.decode()[-2000:]
    return [line for line in lines if line != "done"], not done


def test_sigkill_at_random_moments_loses_nothing_and_repeats_nothing(database):
    db = database
    rng = random.Random(2024)
    printed: list[str] = []
    counts: dict[int, int] = {}
    interrupted = 0
    for kill in range(KILLS):
        lines, playing = play_then_kill(db, rng, kill)
        printed += lines
        interrupted += playing
        latest = asyncio.run(check(db, printed))
        assert all(latest[match] >= count for match, count in counts.items()), "a command disappeared"
        counts = latest
    assert interrupted == KILLS, f"only {interrupted} kills landed before the games were over"
    assert len(printed) == len(set(printed)) and len(printed) > 500
    finished = subprocess.run(command(db), capture_output=True, timeout=120, cwd=ROOT, env=ENV)
    assert finished.returncode == 0, finished.stderr.decode()[-2000:]
    assert finished.stdout.decode().split()[-1] == "done"
    asyncio.run(check(db, printed + finished.stdout.decode().split()[:-1]))
