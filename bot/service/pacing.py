"""The service's own steps give way to people when the event loop runs late.

One event loop serves everything: a person's press (its answer, their move, their new hand) and
every step the service takes by itself (a computer player's move, a clock's timeout, the next
deal), with all that such a step makes the front end show. Under load the loop's queue of ready
work grows, and a press waits behind all of it: at 100 busy tables flat out a button's
acknowledgement waited p99 175 ms, and at 1,000 tables the bot fell behind the people.

So the service's steps pass through a window that follows how late the loop runs, as a
congestion window follows a network's delay. Every `probe` seconds the pacer sleeps and measures
how late it woke: no later than `late`, and the window grows by one step; later, and it is
halved. People's commands never wait here. Under overload the computer players slow down and
the people do not; without it the window stays wide open and nothing waits. The loop stays
busy, since the window keeps as many steps going as it can serve without running late.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import AsyncIterator


class Pacer:
    """A window of steps at once, grown while the loop keeps time and halved when it is late.
    `step()` is one step; `watch(stop)` measures the loop until `stop`, and lets every step
    through from then on (a stopping service waits for the steps it began)."""

    def __init__(self, late: float, *, probe: float = 0.005, least: int = 1, most: int = 4096) -> None:
        self.late, self.probe, self.least, self.most = late, probe, least, most
        self.window = float(most)  # wide open until the loop is first seen late
        self.going = 0
        self.lag = 0.0  # how late the last probe woke, in seconds
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()

    @contextlib.asynccontextmanager
    async def step(self) -> AsyncIterator[None]:
        """Waits for room in the window (first come, first served), then holds a place in it
        for as long as the step lasts."""
        if self.going >= self.window or self._waiting:
            admitted = asyncio.get_running_loop().create_future()
            self._waiting.append(admitted)
            try:
                await admitted
            except asyncio.CancelledError:
                if admitted.done() and not admitted.cancelled():
                    self.going -= 1  # admitted as it was cancelled: its place goes back
                    self._admit()
                raise
        else:
            self.going += 1
        try:
            yield
        finally:
            self.going -= 1
            self._admit()

    async def watch(self, stop: asyncio.Event) -> None:
        """Measures the loop and moves the window until `stop` is set; then opens it for good."""
        loop = asyncio.get_running_loop()
        try:
            while not stop.is_set():
                asked = loop.time()
                await asyncio.sleep(self.probe)
                self.observe(loop.time() - asked - self.probe)
        finally:
            self.window = float("inf")
            self._admit()

    def observe(self, lag: float) -> None:
        """Moves the window after a probe woke `lag` seconds late, and lets in what now fits.
        A late loop halves what is going (the window may be far wider than that)."""
        self.lag = lag
        if lag > self.late:
            self.window = max(float(self.least), min(self.window, self.going) / 2)
        else:
            self.window = min(float(self.most), self.window + 1)
        self._admit()

    def _admit(self) -> None:
        while self._waiting and self.going < self.window:
            admitted = self._waiting.popleft()
            if not admitted.done():
                admitted.set_result(None)
                self.going += 1
