"""How much one address or one user may ask of the Activity: every sign-in and every hello
costs a request to Discord's API (the code exchange, `/users/@me`), so both are counted in a
sliding window per address and per user, and open connections are capped per user and per
table. Discord's own limits are the bot's, shared by everyone: one page must not spend them.
An open connection's messages are metered too (`Bucket`): each may save a move, so one page
must not spend the store and the presenter either."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from bot.i18n import N_

TOO_OFTEN = N_("Too many sign-ins: wait a minute, then open the table again.")
TOO_MANY_PAGES = N_("You have too many pages open on this table: close one, then try again.")
TABLE_FULL_OF_PAGES = N_("Too many pages watch this table now: try again later.")
TOO_FAST = N_("Too many moves too fast: the table is closed on this page; open it again.")
MESSAGES_PER_SECOND = 5.0  # an open page's messages, on average ...
MESSAGE_BURST = 20  # ... and at once (quick clicks, or a hand regrouped card by card: each asks the engine)
SWEEP_AT = 4096  # keys kept before the stale ones are swept out


@dataclass(frozen=True, slots=True)
class Limits:
    """Tries per window (per address: everyone behind one proxy shares it, so it is wider),
    and open connections."""

    per_address: int = 300
    per_user: int = 12
    window_seconds: float = 60.0
    pages_per_user: int = 4
    pages_per_table: int = 64
    messages_per_second: float = MESSAGES_PER_SECOND
    message_burst: int = MESSAGE_BURST


class Window:
    """At most `count` tries per key in any `seconds` (a refused try is not counted)."""

    def __init__(self, count: int, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.count = count
        self.seconds = seconds
        self.clock = clock
        self._tries: dict[Hashable, deque[float]] = {}

    def allow(self, key: Hashable) -> bool:
        now = self.clock()
        if len(self._tries) >= SWEEP_AT:
            self._sweep(now)
        tries = self._tries.setdefault(key, deque())
        while tries and tries[0] <= now - self.seconds:
            tries.popleft()
        if len(tries) >= self.count:
            return False
        tries.append(now)
        return True

    def _sweep(self, now: float) -> None:
        stale = [key for key, tries in self._tries.items() if not tries or tries[-1] <= now - self.seconds]
        for key in stale:
            del self._tries[key]


class Bucket:
    """At most `burst` tries at once, refilled at `rate` a second (a token bucket)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._tokens = float(burst)
        self._at = clock()

    def allow(self) -> bool:
        now = self.clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


LIMITS = Limits()
