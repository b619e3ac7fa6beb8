"""The service's own steps (computer players, the clock) give way to people when the event loop
runs late: they start at a rate halved when the loop is late and raised while it keeps time
(`bot.service.pacing`). People's commands never wait for it."""

import asyncio
import time

from service_helpers import GUILD, open_service, user

from bot.engine.events import EventKind
from bot.service import ManualClock, ServiceSettings
from bot.service import service as service_module
from bot.service.pacing import Pacer


def started(pacer, count):
    """`count` steps asking to start, in order; returns the tasks and the list of those started."""
    began = []

    async def step(number):
        await pacer.step()
        began.append(number)

    return [asyncio.create_task(step(number)) for number in range(count)], began


async def test_a_loop_that_keeps_time_holds_no_step_back():
    pacer = Pacer(late=0.01)
    tasks, began = started(pacer, 200)
    await asyncio.gather(*tasks)
    assert began == list(range(200))


async def test_a_late_loop_halves_the_rate_and_steps_start_in_their_turn_in_order():
    pacer = Pacer(late=0.01, most=8)
    pacer.observe(0.05)  # late (a quarter of it, smoothed, is more than 10 ms): 4 steps a probe
    assert pacer.rate == 4
    tasks, began = started(pacer, 10)
    await asyncio.sleep(0)
    assert began == [0, 1, 2, 3]  # what one probe allows, first come first served
    pacer.observe(0.0)  # on time (smoothed: 9 ms): one more a probe
    await asyncio.sleep(0)
    assert pacer.rate == 5 and began == list(range(9))
    pacer.observe(0.0)
    await asyncio.gather(*tasks)
    assert began == list(range(10))


async def test_a_loop_late_beyond_measure_still_lets_a_step_in_every_few_probes():
    pacer = Pacer(late=0.01, least=0.25, most=8)
    for _ in range(10):
        pacer.observe(1.0)
    assert pacer.rate == 0.25
    tasks, began = started(pacer, 4)
    await asyncio.sleep(0)
    assert began == [0]  # the one step still allowed
    for probe in range(1, 13):
        pacer.observe(1.0)
        await asyncio.sleep(0)
        assert len(began) == 1 + probe // 4  # then one every four probes
    await asyncio.gather(*tasks)


async def test_allowance_is_never_saved_up_past_one_probe():
    pacer = Pacer(late=0.01, most=3)
    for _ in range(10):
        pacer.observe(0.0)
    tasks, began = started(pacer, 10)
    await asyncio.sleep(0)
    assert began == [0, 1, 2]  # not the ten probes' thirty
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def test_a_step_cancelled_while_it_waits_takes_no_turn():
    pacer = Pacer(late=0.01, most=1)
    pacer.observe(1.0)  # half a step a probe
    await pacer.step()  # the one step allowed now
    cancelled = asyncio.create_task(pacer.step())
    tasks, began = started(pacer, 1)
    await asyncio.sleep(0)
    cancelled.cancel()
    await asyncio.gather(cancelled, return_exceptions=True)
    pacer.lateness = 0.0  # the loop keeps time again: one step a probe
    pacer.observe(0.0)  # the one still waiting takes it
    await asyncio.wait_for(asyncio.gather(*tasks), 1)
    assert began == [0]


class Watched(Pacer):
    """A pacer that keeps each probe's lateness and the rate it set."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen = []

    def observe(self, lag):
        super().observe(lag)
        self.seen.append((lag, self.rate))


async def test_the_watch_sees_a_hogged_loop_and_lets_every_step_go_once_stopped():
    # The 400 ms hog lands in one probe, which wakes 300-400 ms late (an idle pacer probes
    # every 100 ms): a quarter of that, as the smoothing weighs one probe, is well past `late`.
    pacer = Watched(late=0.02, probe=0.005, most=4)
    stop = asyncio.Event()
    watch = asyncio.create_task(pacer.watch(stop))
    await asyncio.sleep(0.02)
    time.sleep(0.4)  # a callback that keeps the loop for 400 ms
    await asyncio.sleep(0.02)
    assert any(lag >= 0.25 and rate <= 2 for lag, rate in pacer.seen), pacer.seen
    for _ in range(5):
        pacer.observe(1.0)  # late again and again, as a loaded machine may be
    tasks, began = started(pacer, 20)
    await asyncio.sleep(0)
    assert len(began) < 20
    stop.set()
    await watch
    await asyncio.gather(*tasks)
    assert began == list(range(20))


async def test_an_idle_pacer_probes_seldom_and_a_busy_one_often():
    pacer = Watched(late=0.02, probe=0.005)
    stop = asyncio.Event()
    watch = asyncio.create_task(pacer.watch(stop))
    await asyncio.sleep(0.35)
    idle = len(pacer.seen)
    assert 1 <= idle <= 4  # every 100 ms while nothing is asked of it

    async def asking():
        while not stop.is_set():
            await pacer.step()
            await asyncio.sleep(0.001)

    steps = asyncio.create_task(asking())
    await asyncio.sleep(0.35)
    assert len(pacer.seen) - idle >= 20  # every 5 ms while steps are asked for
    stop.set()
    await asyncio.gather(watch, steps)


async def test_the_production_loop_stops_with_computer_players_waiting_at_the_least_rate(tmp_path):
    # A loop late beyond any measure (every probe counts as late): the rate falls to its least,
    # every table's computer players still play, and stopping waits for no step that cannot go.
    # The hosts are away: the clock plays their turns.
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


async def test_steps_still_waiting_for_their_turn_when_the_loop_stops_are_left_for_its_next_start(
    tmp_path, monkeypatch
):
    # A step not begun by the stop is like a table that falls due after it: left for the next
    # start, whose resume gives its clock a grace. Let go all at once instead, every step the
    # pacer had held back (hundreds on a loaded bot) would start together as the bot shuts down.
    pacers = []

    class Loaded(Pacer):
        """A pacer that finds the loop late from the start, at its least rate at once."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.rate = self._allowance = self.least
            pacers.append(self)

    monkeypatch.setattr(service_module, "Pacer", Loaded)
    clock = ManualClock()
    settings = ServiceSettings(
        computer_delay_seconds=0, timer_poll_seconds=0.05, yield_when_late_seconds=-1.0
    )
    store, service = await open_service(tmp_path / "s.db", clock=clock, settings=settings)
    for channel in range(40, 46):
        await service.open_table(GUILD, channel, user(channel, 0), "Host")
        for _ in range(3):
            await service.add_computer(channel, user(channel, 0))
        await service.start(channel, user(channel, 0))
    stop = asyncio.Event()
    begun_after_stop = []
    fire = service._fire_safely

    async def watched(table, now):
        if stop.is_set():
            begun_after_stop.append(table.id)
        return await fire(table, now)

    service._fire_safely = watched
    clock.advance(1000)
    loop = asyncio.create_task(service.run(stop))
    try:
        for _ in range(300):
            await asyncio.sleep(0.01)
            if pacers and len(pacers[0]._waiting) >= 3:
                break
        assert len(pacers[0]._waiting) >= 3  # most tables wait for their turn
    finally:
        stop.set()
        await asyncio.wait_for(loop, 10)
        await store.close()
    assert begun_after_stop == []
