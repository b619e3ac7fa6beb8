"""Computer players thinking off the event loop: in a real process pool as production runs them,
a pool that dies, and commands that arrive while a computer player thinks."""

import asyncio
import logging
import os
import pickle
import random
import threading
from multiprocessing.reduction import ForkingPickler

import pytest
from service_helpers import GUILD, choose, user

from bot.app.runtime import start_thinkers
from bot.engine import ai
from bot.engine.commands import Pick, Source, Timeout
from bot.engine.match import MatchPhase
from bot.service import ManualClock, ServiceSettings, TableService, seeded, simple_policy
from bot.service.thinkers import ThinkersBroken
from bot.store import open_store

SETTINGS = ServiceSettings(computer_delay_seconds=1.0, between_deals_seconds=1.0)
CHANNEL = 7
HOST = user(CHANNEL, 0)


@pytest.fixture
def pool():
    thinkers = start_thinkers(1)
    yield thinkers
    thinkers.close()


class InAThread:
    """Thinkers that think in a thread, for a policy that must not travel to a process."""

    async def run(self, fn, *args):
        return await asyncio.to_thread(fn, *args)


class Pickling:
    """Thinkers that send each request through pickle as the worker pool does, and keep it."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    async def run(self, fn, *args):
        self.sent.append(bytes(ForkingPickler.dumps((fn, args))))
        fn, args = pickle.loads(self.sent[-1])
        return fn(*args)


async def seat_computers(service: TableService, *levels: str) -> None:
    await service.open_table(GUILD, CHANNEL, HOST, "Host")
    for level in levels:
        await service.add_computer(CHANNEL, HOST, level)
    await service.start(CHANNEL, HOST)


async def play_to_the_end(path, *, thinkers=None, policy=ai.decide) -> list[dict]:
    """Host and two computer players, all seeded, until the match is over; returns its log."""
    clock = ManualClock()
    store = await open_store(path)
    service = TableService(
        store, clock=clock, random_source=seeded(5), policy=policy, thinkers=thinkers, settings=SETTINGS
    )
    await seat_computers(service, "easy", "strong")
    table = service.table_in(CHANNEL)
    rng = random.Random(5)
    for _ in range(3000):
        match = table.match
        if match.phase is MatchPhase.OVER:
            break
        if match.deal is not None and match.deal.turn == 0:
            await service.play(CHANNEL, HOST, choose(match.deal.view(0), rng))
        else:
            clock.advance(1.0)
            assert await service.fire_due(), "the service did not act for a computer player"
    await store.close()
    assert table.match.phase is MatchPhase.OVER and service.table_in(CHANNEL) is None
    return table.match.log


async def test_computer_players_in_worker_processes_play_a_table_to_the_end_as_they_would_here(
    tmp_path, pool
):
    in_workers = await play_to_the_end(tmp_path / "workers.db", thinkers=pool)
    on_the_loop = await play_to_the_end(tmp_path / "loop.db")
    assert in_workers == on_the_loop  # the seeded generator decides wherever the thinking happens


async def test_a_seed_travels_to_the_worker_not_a_generator(tmp_path):
    thinkers = Pickling()
    in_workers = await play_to_the_end(tmp_path / "workers.db", thinkers=thinkers)
    assert in_workers == await play_to_the_end(tmp_path / "loop.db")
    for request in thinkers.sent:
        _, args = pickle.loads(request)
        assert not any(isinstance(arg, random.Random) for arg in args)
        assert len(request) < 2500  # a generator's state alone pickles to some 3.8 kB


async def test_when_the_worker_processes_die_the_table_thinks_here_and_says_so(tmp_path, pool, caplog):
    with pytest.raises(ThinkersBroken):
        await pool.run(os._exit, 1)  # a worker killed under the bot's feet
    store = await open_store(tmp_path / "t.db")
    clock = ManualClock()
    service = TableService(store, clock=clock, random_source=seeded(1), thinkers=pool, settings=SETTINGS)
    await seat_computers(service, "easy")
    table = service.table_in(CHANNEL)
    for _ in range(4):  # the computer player's turns go on: never a stall
        if table.match.deal.turn == 0:
            hand = table.match.deal.seats[0].hand
            await service.play(CHANNEL, HOST, {"command": "pick", "source": "closed"})
            await service.play(CHANNEL, HOST, {"command": "discard", "card": hand[-1].code})
        clock.advance(1.0)
        with caplog.at_level(logging.ERROR):
            assert await service.fire_due()
    assert service.thinkers is None
    assert [r.message for r in caplog.records].count(
        "computer players' worker processes died: thinking on the event loop"
    ) == 1
    assert not any(isinstance(command, Timeout) for command in table.match.log)
    await store.close()


async def test_a_command_sent_while_a_computer_player_thinks_waits_for_its_move(tmp_path):
    thinking, answer = threading.Event(), threading.Event()

    def slow_policy(level, view, rng):
        thinking.set()
        answer.wait(10)
        return simple_policy(level, view, rng)

    store = await open_store(tmp_path / "t.db")
    clock = ManualClock()
    service = TableService(
        store,
        clock=clock,
        random_source=seeded(1),
        policy=slow_policy,
        thinkers=InAThread(),
        settings=SETTINGS,
    )
    await seat_computers(service, "easy")
    table = service.table_in(CHANNEL)
    if table.match.deal.turn == 0:
        await service.play(CHANNEL, HOST, {"command": "drop"})
    else:
        clock.advance(1.0)
        firing = asyncio.create_task(service.fire_due())
        await asyncio.to_thread(thinking.wait, 10)
        cancelling = asyncio.create_task(service.cancel(CHANNEL, HOST))
        await asyncio.sleep(0.05)
        assert not cancelling.done()  # the table's lock is held while the computer thinks
        answer.set()
        await firing
        await cancelling
        assert table.match.log[-1] == Pick(1, Source.CLOSED)
        assert service.table_in(CHANNEL) is None
    await store.close()
