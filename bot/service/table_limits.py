"""How many tables one member, and one server, may take (issue 23): a member sits at a few tables
at once and opens a few in a while, a server holds a bounded number of open tables. Defaults that
a big community would not notice, and that keep one member from filling the bot: without them,
one member sat at 20 lobbies at once and opened 30 tables in 30 channels in 2 seconds.

Game policy, so the table service enforces it for every front end (Discord, the terminal);
members' own tables only: a league seats its signed-up members itself. Counted in this process:
a server's tables all run in the process of its shard, and a member's tables of servers on other
shards are not seen (a member of many servers on many shards sits at a few tables per shard).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass

from bot.engine.match import Standing
from bot.service.live_table import LiveTable
from bot.service.refusals import ServiceError

SEATS_PER_MEMBER = 3
OPENS_PER_MEMBER = 5
OPENS_WINDOW_SECONDS = 600.0
TABLES_PER_SERVER = 50


@dataclass(frozen=True)
class TableLimits:
    """Each limit, or None for none."""

    seats_per_member: int | None = SEATS_PER_MEMBER  # lobbies and tables a member sits at at once
    opens_per_member: int | None = OPENS_PER_MEMBER  # tables a member opens within the window
    opens_window_seconds: float = OPENS_WINDOW_SECONDS
    tables_per_server: int | None = TABLES_PER_SERVER  # open tables (lobbies and matches) per server


DEFAULT_LIMITS = TableLimits()
UNLIMITED = TableLimits(None, None, OPENS_WINDOW_SECONDS, None)  # benchmarks that fill one server


def _sits_at(table: LiveTable, user_id: int) -> bool:
    """Whether the member holds a seat at this table: seated, and not gone from its match."""
    seat = table.seat_of(user_id)
    if seat is None or table.damage is not None:
        return False
    match = table.match
    return match is None or match.seat_status[seat] is not Standing.LEFT


class TableQuota:
    """The limits, and when each member last opened tables (in memory: a restart forgets them)."""

    def __init__(self, limits: TableLimits) -> None:
        self.limits = limits
        self._opened: defaultdict[int, deque[float]] = defaultdict(deque)

    def check_seat(self, tables: Iterable[LiveTable], user_id: int) -> None:
        """Refuses one more seat to a member who sits at as many tables as one may."""
        most = self.limits.seats_per_member
        if most is not None and sum(1 for table in tables if _sits_at(table, user_id)) >= most:
            raise ServiceError(
                "You're at {count} tables, the most at once. Leave one first (`/rummy leave` there).",
                count=most,
            )

    def check_open(self, tables: Iterable[LiveTable], guild_id: int, host_id: int, now: float) -> None:
        """Refuses a new table to a server that has as many open as it may, to a member who opened
        as many lately as one may, or who sits at as many as one may (the host takes a seat)."""
        tables = list(tables)
        most = self.limits.tables_per_server
        if most is not None and sum(1 for table in tables if table.record.guild_id == guild_id) >= most:
            raise ServiceError(
                "This server has its most open tables ({count}). Finish or cancel one first.",
                count=most,
            )
        opened, most = self._recent(host_id, now), self.limits.opens_per_member
        if most is not None and len(opened) >= most:
            minutes = max(1, round((opened[0] + self.limits.opens_window_seconds - now) / 60))
            raise ServiceError(
                "You opened {count} tables in {window} minutes. Open another in about {minutes} minutes.",
                count=most,
                window=round(self.limits.opens_window_seconds / 60),
                minutes=minutes,
            )
        self.check_seat(tables, host_id)

    def opened(self, host_id: int, now: float) -> None:
        """Counts a table the member opened (from now, for the window)."""
        self._opened[host_id].append(now)

    def unopened(self, host_id: int, now: float) -> None:
        """Takes back a count whose table could not be saved."""
        with_it = self._opened.get(host_id)
        if with_it and now in with_it:
            with_it.remove(now)

    def _recent(self, host_id: int, now: float) -> deque[float]:
        opened = self._opened.get(host_id, deque())
        while opened and opened[0] <= now - self.limits.opens_window_seconds:
            opened.popleft()
        if not opened:
            self._opened.pop(host_id, None)
        return opened
