import os
import sqlite3
import subprocess
import sys


def test_without_a_token_the_bot_says_what_to_set_and_points_to_the_terminal_table(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2  # no restart mends it: systemd and compose do not loop on it
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "DISCORD_TOKEN" in done.stderr and str(tmp_path / ".env") in done.stderr
    assert "python -m bot play" in done.stderr
    assert not (tmp_path / "rummy.db").exists()


def test_a_database_missing_a_table_stops_start_up_with_one_line_naming_it(tmp_path):
    database = tmp_path / "rummy.db"
    conn = sqlite3.connect(database)
    conn.close()
    subprocess.run(  # a database made by the bot, then damaged outside it
        [
            sys.executable,
            "-c",
            f"import asyncio; from bot.store import check_store; asyncio.run(check_store({str(database)!r}))",
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
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "missing its table deals" in done.stderr and str(database) in done.stderr


def run_bot(*args, cwd, env_extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "RUMMY_"))}
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


def test_a_bad_setting_ends_in_one_line_that_names_it(tmp_path):
    for name, value, says in (
        ("RUMMY_DEV_GUILD_ID", "abc", "server id"),
        ("RUMMY_LOG_LEVEL", "verbose", "DEBUG, INFO, WARNING, ERROR, CRITICAL"),
    ):
        done = run_bot(cwd=tmp_path, env_extra={"DISCORD_TOKEN": "x", name: value})
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert name in done.stderr and says in done.stderr


def test_help_and_version_list_the_commands(tmp_path):
    done = run_bot("--help", cwd=tmp_path)
    assert done.returncode == 0
    assert "play" in done.stdout and "run" in done.stdout and "--env-file" in done.stdout
    assert "migrate-db" in done.stdout
    version = run_bot("--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("rummy-bot ")
    play_help = run_bot("play", "--help", cwd=tmp_path)
    assert play_help.returncode == 0 and "--format" in play_help.stdout
    wrong = run_bot("--no-such-flag", cwd=tmp_path)
    assert wrong.returncode == 2 and "unrecognized arguments" in wrong.stderr


def test_the_settings_file_can_be_named(tmp_path):
    settings = tmp_path / "elsewhere.env"
    settings.write_text("RUMMY_LOG_LEVEL=loud\n")
    done = run_bot("--env-file", str(settings), cwd=tmp_path, env_extra={"DISCORD_TOKEN": "x"})
    assert done.returncode == 2 and "RUMMY_LOG_LEVEL" in done.stderr and str(settings) in done.stderr
    # the same file without the token: the bot says where to set it, naming that file
    settings.write_text("RUMMY_LOG_LEVEL=debug\n")
    done = run_bot("run", "--env-file", str(settings), cwd=tmp_path)
    assert done.returncode == 2 and str(settings.resolve()) in done.stderr
