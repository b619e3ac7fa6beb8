"""The service's own steps give way to people when the event loop runs late.

One event loop serves everything: a person's press (its answer, their move, their new hand) and
every step the service takes by itself (a computer player's move, a clock's timeout, the next
deal), with all that such a step makes the front end show. Under load the loop's queue of ready
work grows, and a press waits behind all of it: with enough busy tables the bot falls behind
the people (`benchmarks/bot.py` measures how far).

So the service's steps are let in at a rate that follows how late the loop runs, as a sender's
rate follows a network's delay. Every `probe` seconds the pacer sleeps and measures how late it
woke, smoothed over the last few probes (one late wake-up is as often the system's scheduler as
the loop's own queue): no later than `late`, and one more step may start per probe; later, and
half as many. People's commands never wait here. Under overload the computer players slow down
and the people do not; without it the rate soon outgrows any demand and nothing waits.

A rate and not a count of steps under way: a step may wait long on something that costs the
loop nothing (a worker's thinking, Discord's request budget), and must not hold up the others
meanwhile.
"""

from __future__ import annotations

import asyncio
import collections

SMOOTHING = 0.25  # the weight of the latest probe in the smoothed lateness: about the last 4
# While no step is asked for and none is held back, the loop is probed this seldom (seconds):
# an idle bot need not wake 200 times a second.
IDLE_PROBE = 0.1


class Pacer:
    """Lets steps start at `rate` per probe (a fraction: one every few probes), raised by one
    while the loop keeps time and halved when it is late. `step()` waits for a step's turn;
    `watch(stop)` measures the loop until `stop`, and lets every step go from then on (a
    stopping service begins none of those that waited, and waits for the steps it began)."""

    def __init__(
        self, late: float, *, probe: float = 0.005, least: float = 0.2, most: float = 1000.0
    ) -> None:
        self.late, self.probe, self.least, self.most = late, probe, least, most
        self.rate = most  # wide open until the loop is first seen late
        self.lag = 0.0  # how late the last probe woke, in seconds
        self.lateness = 0.0  # the probes' lag, smoothed (`SMOOTHING`)
        self._allowance = most  # steps that may start now, never more than one probe's worth
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self._asked = False  # a step was asked for since the last probe

    async def step(self) -> None:
        """Returns once a step may start: at once if the rate allows, else in its turn (first
        come, first served)."""
        self._asked = True
        if not self._waiting and self._allowance >= 1:
            self._allowance -= 1
            return
        turn = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        await turn

    async def watch(self, stop: asyncio.Event) -> None:
        """Measures the loop and sets the rate until `stop` is set; then lets every step go."""
        loop = asyncio.get_running_loop()
        try:
            while not stop.is_set():
                idle = not self._asked and not self._waiting and self.rate >= self.most
                self._asked = False
                pause = IDLE_PROBE if idle else self.probe
                asked = loop.time()
                await asyncio.sleep(pause)
                self.observe(loop.time() - asked - pause)
        finally:
            self.rate = self._allowance = float("inf")
            self._let_in()

    def observe(self, lag: float) -> None:
        """Sets the rate after a probe woke `lag` seconds late (smoothed with the probes before
        it), and lets in what it now allows."""
        self.lag = lag
        self.lateness += (lag - self.lateness) * SMOOTHING
        if self.lateness > self.late:
            self.rate = max(self.least, self.rate / 2)
        else:
            self.rate = min(self.most, self.rate + 1)
        self._allowance = min(self._allowance + self.rate, max(self.rate, 1.0))
        self._let_in()

    def _let_in(self) -> None:
        while self._waiting and self._allowance >= 1:
            turn = self._waiting.popleft()
            if not turn.done():  # one cancelled while it waited takes no allowance
                turn.set_result(None)
                self._allowance -= 1
