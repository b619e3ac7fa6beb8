"""The service's own steps (computer players, the clock) give way to people when the event loop
runs late: a window of steps at once, halved when the loop is late, grown while it keeps time
(`bot.service.pacing`). People's commands never pass through it."""

import asyncio
import time

from service_helpers import GUILD, open_service, user

from bot.engine.events import EventKind
from bot.service import ManualClock, ServiceSettings
from bot.service.pacing import Pacer


async def held_steps(pacer, count):
    """`count` steps that each hold their place until released; returns (release, tasks, started)."""
    release = asyncio.Event()
    started = []

    async def step(number):
        async with pacer.step():
            started.append(number)
            await release.wait()

    tasks = [asyncio.create_task(step(number)) for number in range(count)]
    await asyncio.sleep(0)
    return release, tasks, started


async def test_a_loop_that_keeps_time_holds_no_step_back():
    pacer = Pacer(late=0.01, most=64)
    release, tasks, started = await held_steps(pacer, 40)
    assert started == list(range(40)) and pacer.going == 40
    release.set()
    await asyncio.gather(*tasks)
    assert pacer.going == 0


async def test_a_late_loop_halves_what_is_going_and_later_steps_wait_their_turn_in_order():
    pacer = Pacer(late=0.01, most=64)
    release, tasks, _ = await held_steps(pacer, 8)
    pacer.observe(0.05)  # late: half of the 8 going
    assert pacer.window == 4
    waiting = asyncio.Event()
    later = []

    async def later_step(number):
        async with pacer.step():
            later.append(number)
            await waiting.wait()

    queued = [asyncio.create_task(later_step(number)) for number in range(3)]
    await asyncio.sleep(0)
    assert later == []  # 8 going in a window of 4
    release.set()
    await asyncio.gather(*tasks)
    await asyncio.sleep(0)
    assert later == [0, 1, 2]  # room again, first come first served
    for _ in range(3):
        pacer.observe(0.0)  # keeping time: one more step each probe
    assert pacer.window == 7
    waiting.set()
    await asyncio.gather(*queued)


async def test_the_window_never_closes_nor_grows_past_its_bounds():
    pacer = Pacer(late=0.01, least=1, most=5)
    for _ in range(10):
        pacer.observe(1.0)
    assert pacer.window == 1  # one step at a time still goes, however late the loop
    for _ in range(10):
        pacer.observe(0.0)
    assert pacer.window == 5


async def test_a_step_cancelled_while_waiting_or_just_let_in_gives_its_place_back():
    pacer = Pacer(late=0.01)
    pacer.window = 1
    release, tasks, _ = await held_steps(pacer, 1)
    waiter = asyncio.create_task(pacer.step().__aenter__())
    await asyncio.sleep(0)
    waiter.cancel()  # cancelled while waiting
    admitted = asyncio.create_task(pacer.step().__aenter__())
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(*tasks)
    admitted.cancel()  # let in by the release, cancelled before it ran
    await asyncio.gather(waiter, admitted, return_exceptions=True)
    assert pacer.going == 0
    release2, more, started = await held_steps(pacer, 1)
    assert started == [0]
    release2.set()
    await asyncio.gather(*more)


async def test_the_watch_sees_a_hogged_loop_and_lets_every_step_go_once_stopped():
    pacer = Pacer(late=0.05, probe=0.005)
    stop = asyncio.Event()
    watch = asyncio.create_task(pacer.watch(stop))
    release, tasks, _ = await held_steps(pacer, 4)
    await asyncio.sleep(0.02)
    time.sleep(0.2)  # a callback that keeps the loop for 200 ms
    await asyncio.sleep(0.001)
    assert pacer.lag >= 0.15 and pacer.window < 4
    release_queued, queued, let_in = await held_steps(pacer, 2)
    assert let_in == []
    stop.set()
    await watch
    await asyncio.sleep(0)
    assert let_in == [0, 1] and pacer.going == 6  # all let in, the window open for good
    release.set()
    release_queued.set()
    await asyncio.gather(*tasks, *queued)


async def test_the_production_loop_stops_with_computer_players_waiting_in_a_narrow_window(tmp_path):
    # A loop late beyond any measure (every probe counts as late): the window narrows to one
    # step at a time, every table's computer players still play, and stopping waits for no
    # step that cannot go. The hosts are away: the clock plays their turns.
    clock = ManualClock()
    settings = ServiceSettings(
        computer_delay_seconds=0, timer_poll_seconds=0.05, yield_when_late_seconds=-1.0
    )
    store, service = await open_service(tmp_path / "p.db", clock=clock, settings=settings)
    played = set()

    async def sink(events):
        played.update(event.table_id for event in events if event.kind is EventKind.DISCARDED)

    service.on_events = sink
    for channel in range(30, 36):
        await service.open_table(GUILD, channel, user(channel, 0), "Host")
        for _ in range(3):
            await service.add_computer(channel, user(channel, 0))
        await service.start(channel, user(channel, 0))
    clock.advance(1000)
    stop = asyncio.Event()
    loop = asyncio.create_task(service.run(stop))
    for _ in range(300):
        await asyncio.sleep(0.01)
        if len(played) == 6:
            break
    assert len(played) == 6
    stop.set()
    await asyncio.wait_for(loop, 10)
    await store.close()
