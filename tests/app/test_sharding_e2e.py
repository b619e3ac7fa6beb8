"""Two sharded bot processes end to end: real `python -m bot` processes (shards 0 and 1 of 2,
through `discord_double/launch.py`) against the Discord double and one real PostgreSQL, a table in
a server on each shard. One process is killed (SIGKILL) mid-deal: the other's table plays on;
while it lived, a second process for its shard was refused; once its lease expired, a process
started again for that shard resumes its table, whose old buttons work. Presses in DMs reach
Discord's shard 0 only, so the table of shard 1 is played through the relay between processes.

Which process did what is read from the bot token each one was given (the double accepts any):
a server's channel and its players' DMs only ever hear from the process of its shard, and the
killed process never again."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest
from discord_double import DiscordDouble
from discord_double.records import walk_components

pytestmark = pytest.mark.postgres

LAUNCHER = Path(__file__).resolve().parents[1] / "discord_double" / "launch.py"
CHECKOUT = Path(__file__).resolve().parents[2]  # the bot the processes run: this one's
# RUMMY_SHARD_LEASE_SECONDS: short, so a killed process's shard frees soon; not so short that a
# busy machine misses a renewal
LEASE_SECONDS = 5


class BotProcess:
    """`python -m bot` for one shard of `count`, in a process group of its own (so that killing
    it takes its computer players' worker processes too); its log in a file. With a `source`
    address, its requests come from there (`discord_double/launch.py`); `settings`: more of its
    environment's."""

    def __init__(
        self,
        double: DiscordDouble,
        url: str,
        shard: int,
        token: str,
        folder: Path,
        *,
        count: int = 2,
        lease: int = LEASE_SECONDS,
        source: str = "",
        settings: dict[str, str] | None = None,
    ) -> None:
        self.token = token
        self.log = folder / f"{token}.log"
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(CHECKOUT), os.environ.get("PYTHONPATH")])),
            "DISCORD_DOUBLE_URL": double.base_url,
            "DISCORD_DOUBLE_SOURCE_ADDRESS": source,
            "DISCORD_TOKEN": token,
            "RUMMY_DATABASE_URL": url,
            "RUMMY_SHARD_COUNT": str(count),
            "RUMMY_SHARD_IDS": str(shard),
            "RUMMY_SHARD_LEASE_SECONDS": str(lease),
            "RUMMY_LOG_LEVEL": "INFO",
            **(settings or {}),
        }
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, str(LAUNCHER)],
                env=env,
                cwd=folder,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def said(self) -> str:
        return self.log.read_text()

    async def ready(self, timeout: float = 30.0) -> None:
        for _ in range(int(timeout / 0.05)):
            if "logged in as" in self.said():
                return
            if self.process.poll() is not None:
                raise AssertionError(f"{self.token} exited {self.process.returncode}:\n{self.said()}")
            await asyncio.sleep(0.05)
        raise AssertionError(f"{self.token} not ready within {timeout} s:\n{self.said()}")

    async def exit_code(self, timeout: float = 30.0) -> int:
        for _ in range(int(timeout / 0.05)):
            if self.process.poll() is not None:
                return self.process.returncode
            await asyncio.sleep(0.05)
        raise AssertionError(f"{self.token} still running after {timeout} s:\n{self.said()}")

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def signal(self, number: signal.Signals) -> None:
        os.killpg(self.process.pid, number)


def hand(double: DiscordDouble, user) -> object:
    """The user's latest hand DM."""
    hands = [m for m in double.dms_to(user) if any(c.startswith("rummy:hand:") for c in m.custom_ids())]
    assert hands, f"{user.name} has no hand DM"
    return max(hands, key=lambda m: m.id)


def control(message, prefix: str, suffix: str = "") -> str:
    return next(c for c in message.custom_ids() if c.startswith(prefix) and c.endswith(suffix))


def first_card(message) -> str:
    menu = next(
        c
        for c in walk_components(message.payload["components"])
        if c.get("custom_id", "").startswith("rummy:discard:")
    )
    return menu["options"][0]["value"]


async def whose_turn(double: DiscordDouble, players: tuple) -> object:
    def mover():
        for user in players:
            if double.dms_to(user) and "Your turn" in hand(double, user).content:
                return user
        return None

    return await double.wait_for(mover, timeout=15)


async def take_a_turn(double: DiscordDouble, players: tuple) -> None:
    """The player to act picks from the closed deck and throws a card, with their hand DM's
    button and menu; the other player's DM then says it is their turn."""
    mover = await whose_turn(double, players)
    other = next(user for user in players if user is not mover)
    shown = hand(double, mover)
    await double.press_button(mover, shown, control(shown, "rummy:hand:", ":closed"), timeout=15)
    await double.wait_for(lambda: "Discard a card" in hand(double, mover).content, timeout=15)
    shown = hand(double, mover)
    await double.select(mover, shown, control(shown, "rummy:discard:"), [first_card(shown)], timeout=15)
    await double.wait_for(lambda: "Your turn" in hand(double, other).content, timeout=15)


async def open_and_start(double: DiscordDouble, channel: int, host, guest) -> None:
    ix = await double.slash_command(
        host, "rummy new", options={"format": "points"}, channel=channel, timeout=15
    )
    await double.wait_for(lambda: double.original_response(ix).custom_ids(), timeout=15)
    lobby = double.original_response(ix)
    table_id = re.match(r"rummy:lobby:(\d+):", lobby.custom_ids()[0])[1]
    await double.press_button(guest, lobby, f"rummy:lobby:{table_id}:join", timeout=15)
    await double.wait_for(lambda: guest.name in double.message(lobby.id).content, timeout=15)
    await double.press_button(host, lobby, f"rummy:lobby:{table_id}:start", timeout=15)


async def query(url: str, sql: str, *args: object) -> object:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchrow(sql, *args)
    finally:
        await conn.close()


async def lease_expired(url: str, shard: int) -> bool:
    conn = await asyncpg.connect(url)
    try:
        return bool(
            await conn.fetchval(
                "SELECT coalesce(bool_and(expires_at < extract(epoch FROM clock_timestamp())), true) "
                "FROM shard_leases WHERE shard_id = $1",
                shard,
            )
        )
    finally:
        await conn.close()


async def test_two_shard_processes_survive_a_kill_and_a_restart_resumes_its_table(postgres_url, tmp_path):
    processes: list[BotProcess] = []
    async with DiscordDouble() as double:
        double.shard_count = 2
        alice, bob, carol, dave = (double.user(name) for name in ("alice", "bob", "carol", "dave"))
        zero = double.add_channel("zero", guild_id=double.add_guild("Shard Zero", shard=(0, 2)))
        one = double.add_channel("one", guild_id=double.add_guild("Shard One", shard=(1, 2)))

        def start(shard: int, token: str) -> BotProcess:
            processes.append(BotProcess(double, postgres_url, shard, token, tmp_path))
            return processes[-1]

        try:
            first, second = start(0, "first-0"), start(1, "first-1")
            await asyncio.gather(first.ready(), second.ready())
            await double.wait_for(lambda: "rummy" in double.global_commands, timeout=15)

            # A second process for shard 1 while the first lives is refused, naming the shard.
            intruder = start(1, "intruder-1")
            assert await intruder.exit_code() == 1
            assert "shard 1 of 2 is run by another process" in intruder.said()

            await asyncio.gather(
                open_and_start(double, zero, alice, bob), open_and_start(double, one, carol, dave)
            )
            await take_a_turn(double, (alice, bob))
            await take_a_turn(double, (carol, dave))  # its DMs' presses relayed from shard 0's process

            second.kill()
            await asyncio.sleep(0.3)  # requests it sent before it died are still being read
            killed_at = asyncio.get_running_loop().time()
            await take_a_turn(double, (alice, bob))  # the other shard's table plays on
            await take_a_turn(double, (alice, bob))

            while not await lease_expired(postgres_url, 1):
                await asyncio.sleep(0.1)
            again = start(1, "again-1")
            await again.ready()
            await take_a_turn(double, (carol, dave))  # resumed, with the buttons of before the kill
            await take_a_turn(double, (alice, bob))
        finally:
            for process in processes:
                process.kill()

        dms = {user: double.dm_channels.get(user.id) for user in (alice, bob, carol, dave)}
        heard_from: dict[int, set[str]] = {}
        for request in double.requests:
            channel = re.match(r"/channels/(\d+)/", request.path)
            if channel and request.token:
                heard_from.setdefault(int(channel[1]), set()).add(request.token)
            if request.token == "first-1":
                assert request.at <= killed_at, f"the killed process made {request.method} {request.path}"
        assert heard_from[zero] == {"first-0"}
        assert heard_from[one] == {"first-1", "again-1"}
        assert heard_from[dms[alice]] | heard_from[dms[bob]] == {"first-0"}
        assert heard_from[dms[carol]] | heard_from[dms[dave]] == {"first-1", "again-1"}
        assert not any(
            request.token == "intruder-1" and "/channels/" in request.path for request in double.requests
        )
        synced = {request.token for request in double.requests_matching("PUT", r"/applications/\d+/commands")}
        assert synced == {"first-0"}  # only the process of shard 0 syncs slash commands


async def test_a_process_that_wakes_after_its_lease_sends_discord_nothing_more(postgres_url, tmp_path):
    """Issue 23: shard 1's process is stopped (SIGSTOP) past its lease, a new process takes the
    shard over and plays on, and the first is let run again (SIGCONT) with work waiting for it:
    a command in its server its gateway took in while stopped, its clocks' timers. By its own
    clock its lease ended, so it answers nothing, edits and posts nothing, and shuts down
    saying it lost the shard. Its requests are told apart by the address they come from."""
    stale_address = "127.0.0.2"
    processes: list[BotProcess] = []
    async with DiscordDouble() as double:
        double.shard_count = 2
        carol, dave = double.user("carol"), double.user("dave")
        double.add_guild("Shard Zero", shard=(0, 2))
        one = double.add_channel("one", guild_id=double.add_guild("Shard One", shard=(1, 2)))
        try:
            zero = BotProcess(double, postgres_url, 0, "zero-0", tmp_path)
            stale = BotProcess(double, postgres_url, 1, "stale-1", tmp_path, source=stale_address)
            processes += [zero, stale]
            await asyncio.gather(zero.ready(), stale.ready())
            await double.wait_for(lambda: "rummy" in double.global_commands, timeout=15)
            await open_and_start(double, one, carol, dave)
            await take_a_turn(double, (carol, dave))
            assert any(request.peer == stale_address for request in double.requests)

            stale.signal(signal.SIGSTOP)
            while not await lease_expired(postgres_url, 1):
                await asyncio.sleep(0.1)
            again = BotProcess(double, postgres_url, 1, "again-1", tmp_path)
            processes.append(again)
            await again.ready()
            await take_a_turn(double, (carol, dave))  # the new holder plays the table on
            # A command in shard 1's server: both gateway sessions of shard 1 get it, the
            # stopped process in its socket's buffer; the new holder answers it.
            asked = await double.slash_command(carol, "rummy hand", channel=one, timeout=15)
            await double.wait_for(lambda: double.original_response(asked) is not None, timeout=15)

            continued_at = asyncio.get_running_loop().time()
            stale.signal(signal.SIGCONT)
            assert await stale.exit_code() == 1
            assert "lost shard 1 of 2" in stale.said()
            late = [r for r in double.requests if r.peer == stale_address and r.at >= continued_at]
            assert not late, "the stale process sent " + ", ".join(f"{r.method} {r.path}" for r in late)
            await take_a_turn(double, (carol, dave))  # what players see is the new holder's
        finally:
            for process in processes:
                process.kill()


async def test_a_process_restarted_after_a_crash_takes_its_shard_back_before_the_lease_ends(
    postgres_url, tmp_path
):
    """A killed process's database session ends with it, and so does the lock that said it
    lived: the process started after it takes the shard over while the dead one's lease still
    had most of its length to run, rather than exiting until it has run out."""
    lease = 60
    processes: list[BotProcess] = []
    async with DiscordDouble() as double:
        alice = double.user("alice")
        channel = double.add_channel("table", guild_id=double.add_guild("Server"))

        def start(token: str) -> BotProcess:
            processes.append(BotProcess(double, postgres_url, 0, token, tmp_path, count=1, lease=lease))
            return processes[-1]

        try:
            first = start("first")
            await first.ready()
            first.kill()
            row = "SELECT holder, acquired_at, expires_at FROM shard_leases WHERE shard_id = 0"
            dead = await query(postgres_url, row)
            again = start("again")
            await again.ready()
            taken = await query(postgres_url, row)
            assert taken["holder"] != dead["holder"]
            # Renewed every quarter of the lease, the dead one had three quarters of it left at
            # least: taken in the first half of them.
            assert taken["acquired_at"] < dead["expires_at"] - lease / 4
            assert "taken over at once: its database session had ended" in again.said()
            await double.wait_for(lambda: "rummy" in double.global_commands, timeout=15)
            opened = await double.slash_command(
                alice, "rummy new", options={"format": "points"}, channel=channel, timeout=15
            )
            await double.wait_for(lambda: double.original_response(opened).custom_ids(), timeout=15)
        finally:
            for process in processes:
                process.kill()
