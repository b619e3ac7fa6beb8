import os
import sqlite3
import subprocess
import sys


def test_without_a_token_the_bot_says_what_to_set_and_points_to_the_terminal_table(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "DISCORD_TOKEN" in done.stderr and str(tmp_path / ".env") in done.stderr
    assert "python -m bot play" in done.stderr


def test_a_database_missing_a_table_stops_start_up_with_one_line_naming_it(tmp_path):
    database = tmp_path / "rummy.db"
    conn = sqlite3.connect(database)
    conn.close()
    subprocess.run(  # a database made by the bot, then damaged outside it
        [
            sys.executable,
            "-c",
            f"import asyncio; from bot.store import Store; asyncio.run(Store.check({str(database)!r}))",
        ],
        check=True,
        timeout=60,
    )
    conn = sqlite3.connect(database)
    conn.execute("DROP TABLE deals")
    conn.close()
    env = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", "RUMMY_DB_PATH": str(database)}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "missing its table deals" in done.stderr and str(database) in done.stderr
