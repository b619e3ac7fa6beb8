"""`python -m bot replay TABLE DEAL`: a finished deal's moves printed from the bot's database,
and a running deal refused in one line; both in the terminal's language (`--lang`, else LANG)."""

import random
import time

from service_helpers import new_service
from test_main import run_bot
from test_store_replays import ASHA, BALU, play_deals, play_one, start

from bot.i18n import words
from bot.service import ManualClock
from bot.store import open_store


async def test_the_terminal_prints_a_finished_deals_moves_and_refuses_a_running_one(tmp_path):
    database = tmp_path / "rummy.db"
    store = await open_store(database)
    service = new_service(store, clock=ManualClock(time.time()))  # the terminal reads the real clock
    rng = random.Random(9)
    finished = await start(service, 10, [ASHA, BALU])
    await play_deals(service, finished, rng)
    running = await start(service, 20, [BALU, ASHA], fmt="deals-2")
    await play_one(service, running, rng)
    await store.close()
    record = finished.match.finished_deals[0]
    env = {"RUMMY_DB_PATH": str(database)}

    done = run_bot("replay", str(finished.id), "1", cwd=tmp_path, env_extra=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"Points · Deal 1 replay · table {finished.id}, deal 1")
    moves = [line for line in lines if line[:5].strip().rstrip(".").isdigit()]
    assert len(moves) == len(record.log)
    assert moves[0].strip().startswith("1. User") and record.log[0].NAME[:4] in moves[0]
    winner = finished.record.seats[record.winner].name
    assert f"{winner} wins the deal." in done.stdout

    assert "replay" in run_bot("--help", cwd=tmp_path).stdout
    refused = run_bot("replay", str(running.id), "1", cwd=tmp_path, env_extra=env)
    assert refused.returncode == 1 and "still being played" in refused.stderr
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr

    hindi = run_bot("replay", str(finished.id), "1", "--lang", "hi", cwd=tmp_path, env_extra=env)
    assert hindi.returncode == 0, hindi.stderr
    assert hindi.stdout.startswith(f"पॉइंट्स · डील 1 का रीप्ले · टेबल {finished.id}, डील 1")
    assert words("hi")("{who} wins the deal.", who=winner) in hindi.stdout
    assert len(hindi.stdout.splitlines()) == len(lines)
    posix_hindi = {**env, "LANG": "hi_IN.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    refused = run_bot("replay", str(running.id), "1", cwd=tmp_path, env_extra=posix_hindi)
    assert refused.returncode == 1 and f"डील `{running.id}-1` अभी चल रही है" in refused.stderr
