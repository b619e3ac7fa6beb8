"""Driving tables through the service in tests, and the crash-test player run as a subprocess.

`python tests/service_helpers.py DB SEED TABLES` plays seeded games through the service on the
database DB, printing each command id once the service has returned (so once it is saved);
run again, it resumes the tables and plays on. The crash test kills it at random moments.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.engine.deal import Phase, SeatView
from bot.engine.errors import IllegalActionError
from bot.engine.match import MatchPhase
from bot.service import LiveTable, ManualClock, ServiceSettings, TableService, seeded, simple_policy
from bot.store import Store, open_store

GUILD = 1


def user(channel: int, seat: int) -> int:
    return channel * 100 + seat


def choose(view: SeatView, rng: random.Random, *, drop: float = 0.03, wrong_show: float = 0.03) -> dict:
    """A careless human: picks, discards at random, sometimes drops or shows a hand that is wrong."""
    seat = view.seat
    if view.phase is Phase.PICK:
        if rng.random() < drop and view.rules.drops_allowed:
            return {"command": "drop", "seat": seat}
        source = "open" if view.can_pick_open and rng.random() < 0.3 else "closed"
        return {"command": "pick", "seat": seat, "source": source}
    hand = [card.code for card in view.hand]
    if rng.random() < wrong_show:
        return {"command": "declare", "seat": seat, "groups": [" ".join(hand[1:])], "finish": hand[0]}
    if view.picked_from_open and not view.rules.rediscard_open_pick:
        hand = [code for code in hand if code != view.picked.code] or hand
    return {"command": "discard", "seat": seat, "card": rng.choice(hand)}


def new_service(store: Store, *, seed: int = 1, clock=None, settings=None) -> TableService:
    return TableService(
        store,
        clock=clock or ManualClock(),
        random_source=seeded(seed),
        policy=simple_policy,  # the tests must not depend on how well bot.engine.ai plays
        settings=settings or ServiceSettings(computer_delay_seconds=0.0),
    )


async def open_service(path, *, seed: int = 1, clock=None, settings=None) -> tuple[Store, TableService]:
    store = await open_store(path)
    service = new_service(store, seed=seed, clock=clock, settings=settings)
    await service.resume()
    return store, service


async def open_and_start(
    service: TableService, channel: int, players: int = 3, fmt: str = "points"
) -> LiveTable:
    await service.open_table(GUILD, channel, user(channel, 0), "Host", format=fmt)
    for seat in range(1, players):
        await service.join(channel, user(channel, seat), f"Player {seat}")
    await service.start(channel, user(channel, 0))
    table = service.table_in(channel)
    assert table is not None
    return table


def next_move(table: LiveTable, rng: random.Random, **choices: float) -> tuple[int, dict]:
    """Who acts next at this table, and what they send."""
    match = table.match
    channel = table.record.channel_id
    if match.phase is MatchPhase.BETWEEN_DEALS:
        seat = match.remaining()[0]
        return user(channel, seat), {"command": "next_deal"}
    seat = match.deal.turn
    return user(channel, seat), choose(match.deal.view(seat), rng, **choices)


async def play_one(
    service: TableService,
    table: LiveTable,
    rng: random.Random,
    command_id: str | None = None,
    **choices: float,
):
    who, command = next_move(table, rng, **choices)
    return await service.play(
        table.record.channel_id, who, command, turn=table.turn_token(), command_id=command_id
    )


async def crash_player(path: str, seed: int, tables: int, matches: int) -> None:
    """Plays `matches` matches in each of `tables` channels at once, printing every saved
    command's id; run again after a crash, it resumes the tables and plays on."""
    store, service = await open_service(path, seed=seed)
    run = random.Random().getrandbits(32)

    async def drive(channel: int) -> None:
        rng = random.Random(f"{seed}:{channel}:{run}")
        count = 0
        while True:
            table = service.table_in(channel)
            if table is not None and table.match is None:  # killed while seating: seat them again
                await service.cancel(channel, table.record.host_id)
                table = None
            if table is None:
                history = await store.channel_tables(channel)
                if sum(record.status == "finished" for record in history) >= matches:
                    return
                fmt = ("pool-101", "deals-2")[channel % 2]
                table = await open_and_start(service, channel, players=2 + channel % 3, fmt=fmt)
            command_id = f"{run}-{channel}-{count}"
            count += 1
            try:
                await play_one(service, table, rng, command_id, drop=0.02, wrong_show=0.01)
            except IllegalActionError:
                continue
            print(command_id, flush=True)

    await asyncio.gather(*(drive(channel) for channel in range(1, tables + 1)))
    print("done", flush=True)
    await store.close()


if __name__ == "__main__":
    asyncio.run(crash_player(sys.argv[1], *map(int, sys.argv[2:5])))
