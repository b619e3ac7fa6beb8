"""The worker pool computer players think in, on its own: real spawned processes, answers in
order, errors that travel back, a worker killed mid-request, and nothing left running after."""

import asyncio
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.app.runtime import THINKER_NICENESS, start_thinkers, thinker_count
from bot.service.thinkers import ThinkersBroken, bytes_waiting


@pytest.fixture
def one():
    pool = start_thinkers(1)
    yield pool
    pool.close()
    assert not any(process.is_alive() for process in pool.processes)


def worker_pid() -> int:
    return os.getpid()


async def test_a_request_runs_in_a_worker_process_and_comes_back(one):
    assert await one.run(divmod, 17, 5) == (3, 2)
    assert await one.run(worker_pid) == one.processes[0].pid != os.getpid()


async def test_workers_think_at_a_lower_priority_than_the_bot_one_per_core(one):
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    worker = await one.run(os.getpriority, os.PRIO_PROCESS, 0)  # asked once it has booted
    assert worker == min(19, ours + THINKER_NICENESS) > ours  # the loop comes first on a busy core
    assert thinker_count() == len(os.sched_getaffinity(0))


async def test_requests_beyond_the_workers_wait_their_turn_and_each_gets_its_own_answer(one):
    answers = await asyncio.gather(*(one.run(pow, n, 2) for n in range(20)))
    assert answers == [n * n for n in range(20)]


async def test_a_worker_is_handed_the_next_requests_while_it_thinks_so_a_busy_loop_does_not_slow_it(one):
    await one.run(abs, 0)  # the worker is up
    asked = [asyncio.ensure_future(one.run(time.monotonic)) for _ in range(20)]
    await asyncio.sleep(0)  # each request is sent
    time.sleep(0.5)  # the loop is busy with other work meanwhile: it reads no reply
    busy_until = time.monotonic()
    answered = await asyncio.gather(*asked)
    assert answered == sorted(answered) and answered[-1] < busy_until  # all thought out meanwhile


def test_the_bytes_waiting_on_a_pipe_are_counted_as_this_machine_writes_numbers():
    ours, theirs = multiprocessing.Pipe()
    theirs.send_bytes(b"x" * 300)  # 4 bytes of size, then 300
    assert bytes_waiting(ours.fileno()) == 304  # read in the wrong byte order: 805,371,904
    ours.close()
    theirs.close()


def large(size: int) -> bytes:
    return b"x" * size


async def test_a_reply_larger_than_the_pipe_is_read_as_it_comes_and_the_loop_never_waits_for_the_rest(one):
    # A picture's reply is larger than the pipe holds: the worker writes it in parts, and a
    # loop that read it whole would stand still until the worker is scheduled to write the rest.
    await one.run(abs, 0)
    worker = one.processes[0]
    size = 16_000_000
    reply = asyncio.ensure_future(one.run(large, size))
    while not one._workers[0].inbox:  # some of it has come
        await asyncio.sleep(0.001)
    os.kill(worker.pid, signal.SIGSTOP)  # the worker stops mid-write, as on a busy machine
    resume = threading.Timer(1.0, os.kill, (worker.pid, signal.SIGCONT))
    resume.start()
    began = time.monotonic()
    await asyncio.sleep(0.05)
    assert time.monotonic() - began < 0.5  # the loop went on meanwhile
    small = asyncio.ensure_future(one.run(abs, -3))  # and a request after it waits its turn
    assert await reply == b"x" * size and await small == 3
    resume.join()


async def test_what_the_function_raises_is_raised_here_and_the_worker_goes_on(one):
    with pytest.raises(ValueError, match="invalid literal"):
        await one.run(int, "seven")
    assert await one.run(int, "7") == 7


async def test_a_request_cancelled_while_in_a_worker_does_not_answer_the_next_one(one):
    slow = asyncio.create_task(one.run(time.sleep, 0.2))
    await asyncio.sleep(0.05)
    slow.cancel()
    with pytest.raises(asyncio.CancelledError):
        await slow
    assert await one.run(abs, -3) == 3  # not the sleep's None


async def test_a_worker_killed_mid_request_fails_it_and_every_one_waiting_or_to_come():
    pool = start_thinkers(2)
    try:
        both = await asyncio.gather(pool.run(worker_pid), pool.run(worker_pid))
        assert set(both) == {process.pid for process in pool.processes}
        in_hand = asyncio.create_task(pool.run(time.sleep, 30))
        also = asyncio.create_task(pool.run(time.sleep, 30))
        waiting = asyncio.create_task(pool.run(abs, -1))
        await asyncio.sleep(0.1)
        os.kill(pool.processes[0].pid, signal.SIGKILL)
        for request in (in_hand, also, waiting):
            with pytest.raises(ThinkersBroken):
                await asyncio.wait_for(request, 5)
        with pytest.raises(ThinkersBroken):
            await pool.run(abs, -1)
    finally:
        started = time.monotonic()
        pool.close()
    assert time.monotonic() - started < 5  # the live worker, mid-sleep, was not waited for long
    assert not any(process.is_alive() for process in pool.processes)
    assert not multiprocessing.active_children()


def test_the_pool_serves_one_event_loop_after_another():
    """As the benchmark's `asyncio.run` per table count does, one left thinking at the end."""
    pool = start_thinkers(1)

    async def leave_one_thinking() -> None:
        thinking = asyncio.create_task(pool.run(time.sleep, 0.2))
        await asyncio.sleep(0.05)
        assert not thinking.done()  # and it never will be: the loop ends, cancelling it

    try:
        assert asyncio.run(pool.run(abs, -2)) == 2
        asyncio.run(leave_one_thinking())
        assert asyncio.run(pool.run(abs, -5)) == 5  # not the sleep's None
    finally:
        pool.close()


class _NoPipeWatching(asyncio.SelectorEventLoop):
    """A loop that cannot watch pipes, as Windows' default proactor loop cannot."""

    def add_reader(self, fd, callback, *args):
        raise NotImplementedError


def test_a_loop_that_cannot_watch_pipes_is_served_by_reading_threads():
    pool = start_thinkers(2)

    async def think() -> None:
        assert await pool.run(divmod, 17, 5) == (3, 2)
        answers = await asyncio.gather(*(pool.run(pow, n, 2) for n in range(10)))
        assert answers == [n * n for n in range(10)]
        with pytest.raises(ValueError, match="invalid literal"):
            await pool.run(int, "seven")
        in_hand = asyncio.create_task(pool.run(time.sleep, 30))
        await asyncio.sleep(0.1)
        os.kill(pool.processes[0].pid, signal.SIGKILL)
        os.kill(pool.processes[1].pid, signal.SIGKILL)
        with pytest.raises(ThinkersBroken):
            await asyncio.wait_for(in_hand, 5)

    loop = _NoPipeWatching()
    try:
        loop.run_until_complete(think())
    finally:
        loop.close()
        pool.close()
    assert not any(process.is_alive() for process in pool.processes)


# A bot process whose workers have requests in hand, each answer to be written after it dies.
ORPHANING_BOT = """
import asyncio, sys, time
from bot.app.runtime import start_picture_worker, start_thinkers

async def main():
    pools = [start_thinkers(2), start_picture_worker()]
    for pool in pools:
        for _ in range(3):
            asyncio.ensure_future(pool.run(time.sleep, 0.3))
    await asyncio.sleep(0.1)
    print(" ".join(str(p.pid) for pool in pools for p in pool.processes), flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_workers_leave_without_a_word_when_the_bot_process_is_killed():
    """A SIGKILL of the bot leaves its thinkers and picture worker mid-request: each finds the
    pipe gone when it answers or asks for more, and leaves quietly (no traceback in the log for
    a death the service manager already reports)."""
    bot = subprocess.Popen(
        [sys.executable, "-c", ORPHANING_BOT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    workers = [int(pid) for pid in bot.stdout.readline().split()]
    assert len(workers) == 3
    bot.kill()
    _, said = bot.communicate(timeout=60)  # the workers share its stderr: read to its end, they are gone
    assert said == ""
    for pid in workers:
        status = Path(f"/proc/{pid}/status")
        assert not status.exists() or "zombie" in status.read_text()
