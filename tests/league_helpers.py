"""Running league nights in tests: a bot made of a store, a table service and a league service on
a `ManualClock`, a thread opener standing in for Discord, and computer players deciding for the
members seated at league tables (through `TableService.play`, as a member's buttons would)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.engine.ai import ComputerPlayer
from bot.engine.match import MatchPhase
from bot.leagues import Night, NightTable
from bot.service import (
    LeagueEvent,
    LeagueRecord,
    LeagueService,
    ManualClock,
    ServiceSettings,
    TableEvent,
    TableService,
    seeded,
    simple_policy,
)
from bot.store import Store, open_store

GUILD = 5
ADMIN = 1
LEAGUE_CHANNEL = 900
MONDAY = datetime(2026, 3, 16, 12, tzinfo=UTC)
FIRST = datetime(2026, 3, 20, 20, tzinfo=UTC)  # Friday 20:00 in London, still GMT
MEMBERS = (11, 12, 13, 14, 15, 16)


@dataclass
class Threads:
    """The front end's thread opener: a new channel id per table, each call remembered."""

    opened: list[tuple[int, int, int, int]] = field(default_factory=list)  # night, round, table, channel
    refuse: set[int] = field(default_factory=set)  # numbers of the tables Discord fails to open

    async def __call__(self, record: LeagueRecord, night: Night, table: NightTable) -> int:
        if table.number in self.refuse:
            raise RuntimeError("Discord is down")
        channel = 5000 + len(self.opened) + 1
        self.opened.append((night.number, table.round, table.number, channel))
        return channel


@dataclass
class Bot:
    store: Store
    tables: TableService
    leagues: LeagueService
    clock: ManualClock
    threads: Threads
    loaded: list[LeagueEvent | TableEvent]


class Bots:
    """Starts bots on one database file and closes whatever is still open at the end of a test
    (an open aiosqlite connection would keep pytest from exiting after a failure)."""

    def __init__(self, path) -> None:
        self.path = path
        self.open: list[Store] = []

    async def start(self, clock: ManualClock, threads: Threads | None = None) -> Bot:
        bot = await start_bot(self.path, clock, threads)
        self.open.append(bot.store)
        return bot

    async def stop(self, bot: Bot) -> None:
        """The bot going down: nothing in memory survives, only the database."""
        self.open.remove(bot.store)
        await bot.store.close()

    async def close(self) -> None:
        for store in self.open:
            await store.close()


async def start_bot(path, clock: ManualClock, threads: Threads | None = None) -> Bot:
    """What `python -m bot` does at start-up: resume the tables, then load the leagues."""
    store = await open_store(path)
    tables = TableService(
        store,
        clock=clock,
        random_source=seeded(3),
        policy=simple_policy,
        settings=ServiceSettings(computer_delay_seconds=0.0),
    )
    await tables.resume()
    threads = threads or Threads()
    leagues = LeagueService(store, tables, open_thread=threads, clock=clock)
    loaded = await leagues.load()
    return Bot(store, tables, leagues, clock, threads, loaded)


def clock_at(instant: datetime) -> ManualClock:
    return ManualClock(instant.timestamp())


def move_to(clock: ManualClock, instant: datetime) -> None:
    clock.time = instant.timestamp()


async def create(bot: Bot, **overrides) -> list[LeagueEvent]:
    args = {
        "guild_id": GUILD,
        "by": ADMIN,
        "name": "Friday Pool",
        "format": "pool-61",
        "schedule": "every Friday 20:00",
        "timezone": "Europe/London",
        "seats_per_table": 3,
        "channel_id": LEAGUE_CHANNEL,
    }
    return await bot.leagues.create(**(args | overrides))


async def join_all(bot: Bot, members=MEMBERS) -> None:
    for user in members:
        await bot.leagues.join(GUILD, None, user, f"Member {user}")


def kinds(events) -> list[str]:
    return [str(event.kind) for event in events]


def league_events(events, kind) -> list[LeagueEvent]:
    return [e for e in events if isinstance(e, LeagueEvent) and e.kind == kind]


async def play_moves(
    bot: Bot, moves: int | None = None, *, forward: bool = True
) -> list[LeagueEvent | TableEvent]:
    """Plays `moves` commands (all, when None) at the league tables, round-robin, each decided
    by a strong computer player for the member whose turn it is, seeded by the table and the
    move so that a run and its restarted copy play the same games. Every batch of table events
    goes to the league service, as the front end forwards it (unless `forward` is off: the bot
    going down before it could)."""
    out: list[LeagueEvent | TableEvent] = []
    played = 0
    while moves is None or played < moves:
        live = [t for t in bot.tables.tables() if t.record.league_id is not None and t.match is not None]
        if not live:
            return out
        for table in live:
            match = table.match
            if match.phase is MatchPhase.BETWEEN_DEALS:
                seat, command = match.remaining()[0], {"command": "next_deal"}
            else:
                seat = match.deal.turn
                rng = random.Random(f"{table.id}:{len(match.log)}")
                command = ComputerPlayer("strong", rng).decide(match.deal.view(seat))
            user = table.record.seats[seat].user_id
            events = await bot.tables.play(table.record.channel_id, user, command, turn=table.turn_token())
            out += events + (await bot.leagues.table_events(events) if forward else [])
            played += 1
    return out
