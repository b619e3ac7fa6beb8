"""The operator's first hour, with real `python -m bot` processes: what stops the bot is one line
on standard error and exit 2 when no restart mends it (a setting, a token Discord refuses, a
database path or file it cannot use), which the deployment files do not restart; Discord out of
reach is tried again with one log line a try while `/healthz` says so; the health check and the
metrics answer before login; the commands that read the bot's database never make one.

Against Discord the bot runs through `discord_double/launch.py`: the double in this process, or
no double at all (a port nothing listens on) for Discord out of reach."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
from discord_double import DiscordDouble

LAUNCHER = Path(__file__).resolve().parents[1] / "discord_double" / "launch.py"


def clean_env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "RUMMY_"))}
    return {**env, **settings}


def bot(*args: str, cwd: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean_env(**settings),
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_line(done: subprocess.CompletedProcess[str], code: int, *says: str) -> None:
    assert done.returncode == code, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    for words in says:
        assert words in done.stderr, done.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def healthz(port: int) -> tuple[int, str] | None:
    """What `/healthz` answers, or None while nothing listens."""
    try:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/healthz", timeout=aiohttp.ClientTimeout(total=2)) as answer,
        ):
            return answer.status, (await answer.text()).strip()
    except aiohttp.ClientConnectionError:
        return None


async def answered(port: int, process: subprocess.Popen[str], want: int, within: float) -> str:
    """`/healthz`'s text once it answers `want`, polled while the bot runs."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    last = None
    while loop.time() < deadline:
        assert process.poll() is None, "the bot exited"
        last = await healthz(port)
        if last is not None and last[0] == want:
            return last[1]
        await asyncio.sleep(0.1)
    raise AssertionError(f"/healthz did not answer {want} within {within} s (last: {last})")


def launch(folder: Path, double_url: str, **settings: str) -> tuple[subprocess.Popen[str], Path]:
    log = folder / "bot.log"
    env = clean_env(DISCORD_DOUBLE_URL=double_url, RUMMY_DB_PATH=str(folder / "rummy.db"), **settings)
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, str(LAUNCHER)],
            env=env,
            cwd=folder,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
    return process, log


def stop(process: subprocess.Popen[str]) -> int:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    return process.wait(timeout=30)


def test_what_no_restart_mends_is_one_line_and_exit_2(tmp_path):
    one_line(bot(cwd=tmp_path), 2, "DISCORD_TOKEN is not set")
    one_line(
        bot(cwd=tmp_path, DISCORD_TOKEN="x", RUMMY_DB_PATH="/nonexistent/dir/rummy.db"),
        2,
        "/nonexistent/dir/rummy.db",
        "there is no folder /nonexistent/dir",
    )
    (tmp_path / "notes.db").write_text("not a database, a text file\n" * 50)
    one_line(bot(cwd=tmp_path, DISCORD_TOKEN="x", RUMMY_DB_PATH="notes.db"), 2, "notes.db", "not a database")
    (tmp_path / "folder.db").mkdir()
    one_line(bot(cwd=tmp_path, DISCORD_TOKEN="x", RUMMY_DB_PATH="folder.db"), 2, "it is a folder")
    bad_url = "postgresql://rummy:hunter2@db:port/rummy"
    done = bot(cwd=tmp_path, DISCORD_TOKEN="x", RUMMY_DATABASE_URL=bad_url)
    one_line(done, 2, "RUMMY_DATABASE_URL")
    assert "hunter2" not in done.stderr
    assert not (tmp_path / "rummy.db").exists()


def test_the_commands_that_read_the_database_never_make_one(tmp_path):
    for args in (
        ("replay", "1", "1"),
        ("forget-user", "42", "--yes"),
        ("migrate-db", "--to", "postgresql://h/db"),
    ):
        one_line(bot(*args, cwd=tmp_path), 2, "rummy.db", "There is no database there")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "empty.db").touch()  # an empty file is no database of the bot's either
    one_line(bot("replay", "1", "1", cwd=tmp_path, RUMMY_DB_PATH="empty.db"), 2, "There is no database there")
    assert (tmp_path / "empty.db").stat().st_size == 0


async def test_a_token_discord_refuses_is_one_line_and_exit_2(tmp_path):
    async with DiscordDouble() as double:
        double.inject("GET", "/users/@me", 401, {"message": "401: Unauthorized", "code": 0})
        process, log = launch(tmp_path, double.base_url, DISCORD_TOKEN="revoked-token")
        code = await asyncio.to_thread(process.wait, 60)
    said = log.read_text()
    assert code == 2, said
    assert "Traceback" not in said
    assert [line for line in said.splitlines() if "rummy-bot:" in line] == [
        line for line in said.splitlines() if "Discord refused DISCORD_TOKEN (401 Unauthorized)" in line
    ]
    assert "revoked-token" not in said


async def test_discord_out_of_reach_is_tried_again_while_healthz_says_so(tmp_path):
    """Nothing listens where Discord should be: the bot keeps trying, a line a try and no
    traceback, `/healthz` answers 503 within 10 s, and SIGTERM still stops it cleanly."""
    port = free_port()
    process, log = launch(
        tmp_path, f"http://127.0.0.1:{free_port()}", DISCORD_TOKEN="x", RUMMY_METRICS_PORT=str(port)
    )
    try:
        said = await answered(port, process, 503, within=10)
        assert said.startswith("connecting to Discord")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while log.read_text().count("Discord cannot be reached") < 3 and loop.time() < deadline:
            await asyncio.sleep(0.1)
    finally:
        code = stop(process)
    text = log.read_text()
    tries = [line for line in text.splitlines() if "Discord cannot be reached" in line]
    assert len(tries) >= 3, text
    assert all("trying again in" in line for line in tries)
    assert "Traceback" not in text and "PyNaCl" not in text and "davey" not in text
    assert code == 0, text


async def test_healthz_answers_before_login_and_ok_once_connected(tmp_path):
    """The metrics endpoint serves before the bot logs in (Discord holds the login back here),
    says it is connecting, then `ok`; a start-up warns of nothing (no voice libraries needed)."""
    port = free_port()
    async with DiscordDouble() as double:
        login = double.hold("GET", "/users/@me")
        process, log = launch(tmp_path, double.base_url, DISCORD_TOKEN="good", RUMMY_METRICS_PORT=str(port))
        try:
            assert await answered(port, process, 503, within=20) == "connecting to Discord"
            login.set()
            assert await answered(port, process, 200, within=30) == "ok"
        finally:
            code = stop(process)
    text = log.read_text()
    assert code == 0, text
    assert "WARNING" not in text and "Traceback" not in text, text


async def test_invite_prints_the_link_of_the_tokens_application_with_the_permissions_used(tmp_path):
    async with DiscordDouble() as double:
        env = clean_env(DISCORD_DOUBLE_URL=double.base_url, DISCORD_TOKEN="good")
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(LAUNCHER), "invite", env=env, cwd=tmp_path, stdout=subprocess.PIPE
        )
        out, _ = await process.communicate()
    assert process.returncode == 0
    link = out.decode().strip()
    assert link.startswith("https://discord.com/oauth2/authorize?")
    assert f"client_id={double.bot_user.id}" in link and "scope=bot+applications.commands" in link
    # View Channel, Send Messages, Attach Files, Read Message History, Manage Events, Create
    # Public Threads, Send Messages in Threads: what the bot checks before it opens a table or a
    # league.
    wanted = (1 << 10) | (1 << 11) | (1 << 15) | (1 << 16) | (1 << 33) | (1 << 35) | (1 << 38)
    assert f"permissions={wanted}" in link
    given = bot("invite", "--client-id", "1234", cwd=tmp_path)
    assert given.returncode == 0 and "client_id=1234" in given.stdout
    one_line(bot("invite", cwd=tmp_path), 2, "DISCORD_TOKEN", "--client-id")


async def test_a_database_server_out_of_reach_is_waited_for_while_healthz_says_so(tmp_path):
    """PostgreSQL not up yet (nothing at its socket): the bot waits for it, a line a try, and
    `/healthz` says the database is unavailable; it never gets as far as Discord."""
    port = free_port()
    url = f"postgresql://rummy:hunter2@/rummy?host={tmp_path / 'no-server-here'}"
    process, log = launch(
        tmp_path,
        f"http://127.0.0.1:{free_port()}",
        DISCORD_TOKEN="x",
        RUMMY_DATABASE_URL=url,
        RUMMY_METRICS_PORT=str(port),
    )
    try:
        said = await answered(port, process, 503, within=10)
        assert said.startswith("database unavailable")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while log.read_text().count("the database cannot be reached") < 2 and loop.time() < deadline:
            await asyncio.sleep(0.1)
    finally:
        code = stop(process)
    text = log.read_text()
    assert text.count("the database cannot be reached") >= 2, text
    assert "Traceback" not in text and "hunter2" not in text and "Discord cannot be reached" not in text
    assert code == 0, text
