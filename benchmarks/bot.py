"""The real bot under load: stored commands per second, the bot process's CPU, how fast it
acknowledges a button, how soon a person sees their next move, and how many requests it sends
Discord, by kind.

Two processes, so that the bot's CPU is the bot's alone: this one runs the project's Discord
double (`tests/discord_double`) and plays the people; a child process runs the unmodified
`RummyBot` (`python -m bot`'s, with its computer players thinking in worker processes) pointed
at the double, on a fresh SQLite file. Each of `--tables` people opens a table in their own
channel, seats three computer players and starts; then, whenever their hand DM offers them a
move, they make it at once (pick from the closed deck, throw the first card offered), and when
a match ends they open the next, after `--think` seconds each time (0: at once). The computer
players move after `--computer-delay` seconds (the bot's own default is 1.5; 0 is flat out).

After `--warmup` seconds, for `--seconds`: `stored cmd/s` counts the commands the database
holds (read from the file); `bot cpu` is the bot process's CPU time over wall time (all its
threads, but not the thinkers), and with picture workers (`--picture-workers 1`, the bot's
default on more than one core, as `RUMMY_PICTURE_WORKERS`) `pictures cpu` its picture workers'
(`bot.discord.pictures`), each also per stored command;
`ack` is the time from a press sent to the bot's first answer; `turn shown` is from the
person's discard acknowledged to their DM offering the next pick (three computer turns between,
and every edit that carries them), and `discard shown` from their pick acknowledged to the DM
offering the discard (their own step);
`table lag` is, from the bot, how long each table message was behind (from the first change
not shown to the edit that showed it); `requests/s` are those the double received, by kind.
Interaction answers (`callback`, `webhook`) are outside Discord's global limit; the rest
(`global`) is what it counts.

With `--show-now R`, someone watching the channels presses "Show the table now" on a table
message that carries it (it does while table messages run behind) R times a second; `show now`
is from that press to the message's edit through it.

`--discord-limits` makes the double enforce Discord's limits (50 requests/s in all, and per
route, answering 429 with `retry_after` as Discord does) and prints the 429s it gave; the
bot's own request budget is `--budget` (`RUMMY_REQUEST_BUDGET`). `--yield-when-late` is how late
the bot's event loop may run before its computer players wait for people's presses
(`ServiceSettings.yield_when_late_seconds`; 0: they never wait).

    python benchmarks/bot.py [--tables 100] [--seconds 20] [--warmup 8] [--computer-delay 0]
                             [--think 0] [--level easy|computer] [--format pool-101]
                             [--discord-limits] [--budget 40 (0: none)] [--picture-workers 0|1]
                             [--yield-when-late 0.005 (0: never)] [--show-now 0]

Issue 14's figure is flat out without a budget (`--budget 0`); issue 13's is at a person's pace
within Discord's limits (`--discord-limits --computer-delay 1.5 --think 3`, at 100 and 1000
tables). Opening a table costs a few requests against the budget (its message, each person's
first hand DM), so 1,000 tables take minutes to open at 40 a second: for their steady state,
measure after `--warmup 240`.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

TOKEN = "benchmark-token"
TICKS = os.sysconf("SC_CLK_TCK")
SLOW = 600.0  # seconds a person waits for an answer before the run fails (1,000 tables start slowly)
TRIES = 50  # tables the spectator looks at for a message running behind, each press
OVER = "The match is over"  # the result post that ends a match (`Presenter._post_result`)


# ----------------------------------------------------------------- the bot's side (child process)


def serve(
    api_base: str,
    gateway: str,
    db: str,
    delay: float,
    budget: float,
    late: float,
    stats: str,
    pictures: bool,
) -> None:
    """Runs the real bot against the double until SIGTERM; once it is ready, writes its picture
    workers' process ids to `stats` + ".pids"; at SIGTERM, how stale its table messages got
    (seconds from a change to the edit that showed it) to `stats`."""
    import discord
    import discord.gateway
    import discord.http
    import yarl

    from bot.app import runtime
    from bot.discord.bot import RummyBot
    from bot.service import ServiceSettings, TableService
    from bot.service.table_limits import UNLIMITED

    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)

    thinkers = runtime.start_thinkers()

    def service(store: Any, on_events: Any) -> TableService:
        settings = ServiceSettings(  # every table in the double's one server: no limit on them
            computer_delay_seconds=delay,
            between_deals_seconds=1.0,
            yield_when_late_seconds=late or None,
            limits=UNLIMITED,
        )
        return TableService(store, thinkers=thinkers, settings=settings, on_events=on_events)

    logging.basicConfig(level=logging.WARNING, format="bot: %(levelname)s %(name)s: %(message)s")

    async def main() -> None:
        bot = RummyBot(
            db, service_factory=service, tune_gc=True, request_budget=budget or None, picture_workers=pictures
        )
        bot._connection.guild_ready_timeout = 0.05
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        task = asyncio.create_task(bot.start(TOKEN))
        while not bot.is_ready() and not task.done():  # `wait_until_ready` only once logged in
            await asyncio.sleep(0.1)
        workers = [painter.worker for painter in (bot.pictures.hands, bot.pictures.others)]
        pids = [process.pid for worker in workers if worker is not None for process in worker.processes]
        Path(stats + ".pids").write_text(json.dumps(pids))
        await stop.wait()
        Path(stats).write_text(json.dumps(bot.presenter.lags()))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(bot.close(), 10)
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        thinkers.close()

    asyncio.run(main())


# ----------------------------------------------------------------- the people's side (this process)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def stored_commands(db: Path) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as connection:
        return int(connection.execute("SELECT count(*) FROM match_commands").fetchone()[0])


def kind_of(double: Any, method: str, path: str) -> str:
    parts = path.strip("/").split("/")
    if parts[0] == "interactions":
        return "callback"
    if parts[0] == "webhooks":
        return "webhook"
    if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
        dm = double.channels.get(int(parts[1]), {}).get("type") == 1
        verb = {"POST": "post", "PATCH": "edit", "DELETE": "delete"}.get(method, method.lower())
        return f"{'dm' if dm else 'channel'} {verb}"
    return "other"


def make_double(limits: bool) -> Any:
    from discord_double import DiscordDouble
    from discord_double.server import REC

    class Watched(DiscordDouble):
        """The double, telling each person's coroutine when something reached them, counting
        requests by kind, and keeping no request (a long run would hold every picture)."""

        def __init__(self) -> None:
            super().__init__(users=(), channels=())
            self.changed: dict[int, asyncio.Event] = {}
            self.over: set[int] = set()  # channels whose match ended
            self.tally: collections.Counter[str] = collections.Counter()
            if limits:
                self.enforce_limits()  # Discord's: 50/s in all, 5 per 5 s per route

        async def _middleware_impl(self, request: Any, handler: Any) -> Any:
            response = await super()._middleware_impl(request, handler)
            rec = request.get(REC)
            if rec is None:
                return response
            self.requests.clear()
            self.tally["429" if rec.status == 429 else kind_of(self, rec.method, rec.path)] += 1
            if rec.to_user in self.changed:
                self.changed[rec.to_user].set()
            content = rec.body.get("content") if isinstance(rec.body, dict) else None
            if rec.channel_id is not None and content and OVER in content:
                self.over.add(rec.channel_id)
            return response

    return Watched()


class People:
    """The hosts, each playing their table as fast as their DM lets them."""

    def __init__(self, double: Any, fmt: str, level: str, think: float) -> None:
        self.double, self.fmt, self.level, self.think = double, fmt, level, think
        self.hands: dict[int, Any] = {}  # user id -> their hand DM
        self.acks: list[float] = []
        self.turns: list[float] = []  # seconds from a discard to the next pick offered
        self.discards: list[float] = []  # seconds from a pick to the discard offered
        self.table_messages: list[int] = []  # each table's message (its lobby, edited in place)
        self.measuring = False
        self.stop = False

    def seat(self, number: int) -> tuple[Any, int]:
        """A person and their channel, made before the bot connects (READY lists them)."""
        user = self.double.add_user(f"host{number}")
        self.double.changed[user.id] = asyncio.Event()
        return user, self.double.add_channel(f"table-{number}")

    async def host(self, user: Any, channel: int) -> None:
        double = self.double
        changed = double.changed[user.id]
        while not self.stop:
            double.over.discard(channel)
            if not await self.open_table(user, channel):
                await asyncio.sleep(1)
                continue
            acted: set[str] = set()
            # the last move answered: when, in which deal, and which list its wait goes to
            since: tuple[float, list[str], list[float]] | None = None
            while not self.stop and channel not in double.over:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), 1.0)
                changed.clear()
                hand = self.hand_of(user)
                move = self.move(hand, acted) if hand is not None else None
                if move is None:
                    continue
                deal = hand.content.split(" · ")[:2]  # the format and the deal's number
                if since is not None and self.measuring and deal == since[1]:
                    since[2].append(time.perf_counter() - since[0])
                if self.think:
                    await asyncio.sleep(self.think)
                waits = self.turns if move[1] is not None else self.discards
                since = (await self.make(user, hand, move, acted), deal, waits)

    async def open_table(self, user: Any, channel: int) -> bool:
        double = self.double
        ix = await double.slash_command(
            user, "rummy new", options={"format": self.fmt}, channel=channel, timeout=SLOW
        )
        await double.wait_for(lambda: (double.original_response(ix) or _NONE).custom_ids(), timeout=SLOW)
        lobby = double.original_response(ix)
        self.table_messages.append(lobby.id)
        table = next(c for c in lobby.custom_ids() if c.startswith("rummy:lobby:")).split(":")[2]
        for action in (self.level, self.level, self.level, "start"):
            pressed = await double.press_button(user, lobby.id, f"rummy:lobby:{table}:{action}", timeout=SLOW)
            await double.wait_for(lambda p=pressed: p.followup_ids, timeout=SLOW)
            if "starts" not in double.messages[pressed.followup_ids[-1]].content and action == "start":
                return False
        return True

    def hand_of(self, user: Any) -> Any:
        """The person's latest hand DM (each match posts a new one; a refusal sent in the DM
        channel is not one)."""
        double = self.double
        channel = double.dm_channels.get(user.id)
        latest = double.channels[channel].get("last_message_id") if channel is not None else None
        message = double.messages.get(int(latest)) if latest else None
        if message is not None and any(c.startswith("rummy:hand:") for c in message.custom_ids()):
            self.hands[user.id] = message
        return self.hands.get(user.id)

    @staticmethod
    def move(hand: Any, acted: set[str]) -> tuple[str, list[str] | None] | None:
        from discord_double.records import walk_components

        for component in walk_components(hand.payload.get("components", [])):
            custom_id = component.get("custom_id", "")
            if custom_id in acted or component.get("disabled"):
                continue
            if custom_id.startswith("rummy:hand:") and custom_id.endswith(":closed"):
                return custom_id, None
            if custom_id.startswith("rummy:discard:") and component.get("options"):
                return custom_id, [component["options"][0]["value"]]
        return None

    async def make(self, user: Any, hand: Any, move: tuple[str, list[str] | None], acted: set[str]) -> float:
        custom_id, values = move
        acted.add(custom_id)
        started = time.perf_counter()
        if values is None:
            await self.double.press_button(user, hand, custom_id, timeout=SLOW, check=False)
        else:
            await self.double.select(user, hand, custom_id, values, timeout=SLOW, check=False)
        answered = time.perf_counter()
        if self.measuring:
            self.acks.append(answered - started)
        return answered


class Spectator:
    """Someone watching the channels, who asks for the table as it is now on a message that
    runs behind: `rate` presses a second, each on a table message carrying the button."""

    def __init__(self, double: Any, rate: float) -> None:
        self.double, self.rate = double, rate
        self.user = double.add_user("spectator") if rate else None
        self.shown: list[float] = []  # seconds from a press to the message's edit through it
        self.refused = 0  # presses answered with a private refusal instead
        self.rng = random.Random(7)

    async def watch(self, people: People) -> None:
        double = self.double
        while self.rate and not people.stop:
            await asyncio.sleep(1 / self.rate)
            if not people.measuring:
                continue
            # a few tables at random (a look at every message would hold up the double itself)
            ids = self.rng.sample(people.table_messages, min(TRIES, len(people.table_messages)))
            behind = (
                (double.messages[id_], custom_id)
                for id_ in ids
                if id_ in double.messages
                for custom_id in double.messages[id_].custom_ids()
                if custom_id.startswith("rummy:table:")
            )
            found = next(behind, None)
            if found is None:
                continue
            message, custom_id = found
            edited = message.payload.get("edited_timestamp")
            started = time.perf_counter()
            ix = await double.press_button(self.user, message.id, custom_id, timeout=SLOW, check=False)
            with contextlib.suppress(TimeoutError):
                await double.wait_for(
                    lambda m=message, e=edited, i=ix: (
                        m.payload.get("edited_timestamp") != e or i.followup_ids
                    ),
                    timeout=30,
                )
            if ix.followup_ids:  # told privately why not (the table closed or moved on meanwhile)
                self.refused += 1
            elif message.payload.get("edited_timestamp") != edited:
                self.shown.append(time.perf_counter() - started)


class _Empty:
    def custom_ids(self) -> list[str]:
        return []


_NONE = _Empty()


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="rummy-bench-bot-"))
    db, stats = folder / "rummy.db", folder / "lags.json"
    double = make_double(args.discord_limits)
    async with double:
        people = People(double, args.format, args.level, args.think)
        seats = [people.seat(number) for number in range(args.tables)]
        spectator = Spectator(double, args.show_now)
        child = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--serve",
                double.api_base,
                double.gateway_url,
                str(db),
                str(args.computer_delay),
                str(args.budget),
                str(args.yield_when_late),
                str(stats),
                "1" if args.picture_workers else "0",
            ],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        try:
            await double.wait_for(
                lambda: "rummy" in double.global_commands and double.connected, timeout=SLOW
            )
            await asyncio.sleep(1)  # READY, then on_ready
            hosts = []
            for seat in seats:  # the people arrive over the first half of the warm-up
                hosts.append(asyncio.create_task(people.host(*seat)))
                await asyncio.sleep(args.warmup / 2 / len(seats))
            await asyncio.sleep(args.warmup / 2)
            hosts.append(asyncio.create_task(spectator.watch(people)))
            load_before = os.getloadavg()
            double.tally.clear()
            people.measuring = True
            measured_from = asyncio.get_running_loop().time()
            painters = json.loads(Path(f"{stats}.pids").read_text()) if Path(f"{stats}.pids").exists() else []
            commands, cpu, wall = stored_commands(db), cpu_seconds(child.pid), time.perf_counter()
            pictures, ours = sum(map(cpu_seconds, painters)), time.process_time()
            await asyncio.sleep(args.seconds)
            commands = stored_commands(db) - commands
            cpu = cpu_seconds(child.pid) - cpu
            pictures = sum(map(cpu_seconds, painters)) - pictures
            wall = time.perf_counter() - wall
            ours = time.process_time() - ours
            people.measuring = False
            tally = dict(double.tally)
            people.stop = True
            child.send_signal(signal.SIGTERM)  # it writes its lags at once, then closes
            for _ in range(600):
                if stats.exists() or child.poll() is not None:
                    break
                await asyncio.sleep(0.1)
            with contextlib.suppress(subprocess.TimeoutExpired):  # a close that flushes 1,000
                await asyncio.to_thread(child.wait, 60)  # tables' edits may take longer: killed
            for host in hosts:
                host.cancel()
            await asyncio.gather(*hosts, return_exceptions=True)
        finally:
            if child.poll() is None:
                child.kill()
    lags = json.loads(stats.read_text()) if stats.exists() else []
    load = os.getloadavg()
    limits = "Discord's limits enforced" if args.discord_limits else "no limits"
    print(
        f"{args.tables} tables (host + 3 {args.level} computer players, {args.format}), computer delay "
        f"{args.computer_delay:g} s, host thinks {args.think:g} s, budget {args.budget:g} req/s, {limits}, "
        f"computer players yield when the loop is {1000 * args.yield_when_late:g} ms late; "
        "load "
        f"{load_before[0]:.2f} -> {load[0]:.2f} (2 cores, shared)"
    )
    print(f"  stored cmd/s   {commands / wall:8.1f}   ({commands} in {wall:.1f} s)")
    print(f"  double cpu     {100 * ours / wall:8.1f} %   (this process: the double and the people)")
    print(
        f"  bot cpu        {100 * cpu / wall:8.1f} %   ({1000 * cpu / max(commands, 1):.2f} ms per command)"
    )
    if args.picture_workers:
        print(
            f"  pictures cpu   {100 * pictures / wall:8.1f} %   "
            f"({1000 * pictures / max(commands, 1):.2f} ms per command, the picture workers)"
        )
    print(
        f"  ack            p50 {1000 * percentile(people.acks, 0.5):.1f} ms   "
        f"p99 {1000 * percentile(people.acks, 0.99):.1f} ms   max {1000 * max(people.acks, default=0):.1f} ms"
        f"   ({len(people.acks)} presses)"
    )
    for name, waits in (("turn shown", people.turns), ("discard shown", people.discards)):
        print(
            f"  {name:<14} p50 {percentile(waits, 0.5):.2f} s   p99 {percentile(waits, 0.99):.2f} s"
            f"   max {max(waits, default=0):.2f} s"
        )
    if args.show_now:
        shown = spectator.shown
        print(
            f"  show now       p50 {1000 * percentile(shown, 0.5):.1f} ms"
            f"   p99 {1000 * percentile(shown, 0.99):.1f} ms   max {1000 * max(shown, default=0):.1f} ms"
            f"   ({len(shown)} presses on table messages running behind, {spectator.refused} refused)"
        )
    print(
        f"  table lag      p50 {percentile(lags, 0.5):.2f} s   p99 {percentile(lags, 0.99):.2f} s   "
        f"max {max(lags, default=0):.2f} s   ({len(lags)} table edits, change to edit)"
    )
    if double.limits is not None:
        given = [(when, is_global) for when, is_global, _ in double.limits.given if measured_from <= when]
        worst = max(collections.Counter(int(when) for when, _ in given).values(), default=0)
        overall = sum(is_global for _, is_global in given)
        print(
            f"  429s           {len(given)} in the run ({overall} global, {len(given) - overall} route), "
            f"at most {worst} in one second"
        )
    rates = {kind: count / wall for kind, count in sorted(tally.items())}
    counted = sum(rate for kind, rate in rates.items() if kind not in ("callback", "webhook", "429"))
    print(f"  requests/s     global {counted:.1f}   " + "   ".join(f"{k} {v:.1f}" for k, v in rates.items()))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        api_base, gateway, db, delay, budget, late, stats, pictures = sys.argv[2:10]
        serve(api_base, gateway, db, float(delay), float(budget), float(late), stats, pictures == "1")
        return
    from bot.app.config import Settings
    from bot.service import ServiceSettings

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--computer-delay", type=float, default=0.0)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--level", choices=("easy", "computer"), default="easy")
    parser.add_argument("--format", default="pool-101")
    parser.add_argument("--discord-limits", action="store_true")
    parser.add_argument("--budget", type=float, default=40.0)
    workers = int(Settings.load(None, {}).picture_workers)  # the bot's default on this machine
    parser.add_argument("--picture-workers", type=int, choices=(0, 1), default=workers)
    late = ServiceSettings.yield_when_late_seconds or 0.0
    parser.add_argument("--yield-when-late", type=float, default=late)
    parser.add_argument("--show-now", type=float, default=0.0)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
