"""Time for turn deadlines: an injectable clock, and each table's turn clock.

Deadlines are wall-clock timestamps (UNIX seconds), not event-loop times, because they are
stored and must still mean something after a restart. Tests use `ManualClock` and call the
service's `fire_due()` themselves, so no test ever sleeps.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.engine.match import Match, MatchPhase
from bot.service.table_events import Deadline


class Clock(Protocol):
    def now(self) -> float: ...


class SystemClock:
    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told to."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.time = start

    def now(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds


@dataclass(frozen=True)
class Timing:
    turn_seconds: float  # a turn's own time (the rules' turn_seconds), or its time to pick
    extra_seconds: float  # each player's bank for the whole match
    between_deals: float  # before the next deal starts on its own
    computer_delay: float  # how long a computer player "thinks"
    grace: float  # the fresh deadline a player gets when the bot comes back after a restart
    discard_seconds: float | None = None  # with two clocks (003), the time to discard after a pick


@dataclass
class TurnClock:
    """Who must act by when. `base` ends the turn's own time; from there the player spends
    their extra-time bank until `deadline`, when the service acts for them. A turn is keyed by
    deal and turn number (and, with two clocks, whether the discard clock runs), so the clock
    restarts exactly when the turn passes, or when a pick starts the discard clock."""

    banks: list[float]
    key: list[int] = field(default_factory=list)  # [deal number, turn number], [] between deals
    seat: int | None = None
    base: float | None = None
    deadline: float | None = None

    @classmethod
    def new(cls, players: int, timing: Timing) -> TurnClock:
        return cls(banks=[timing.extra_seconds] * players)

    def follow(self, match: Match, now: float, timing: Timing, computers: set[int]) -> bool:
        """Moves the clock on after a command; returns whether a new deadline was set. The seat
        that just acted pays from its bank for any time past its own turn time."""
        key = _turn_key(match)
        if key == self.key and self.deadline is not None:
            return False
        if self.seat is not None and self.base is not None:
            used = min(max(0.0, now - self.base), self.banks[self.seat])
            self.banks[self.seat] -= used
        self.key = key
        if match.phase is MatchPhase.OVER:
            self.seat = self.base = self.deadline = None
        elif match.deal is None:
            self.seat = None
            self.base = self.deadline = now + timing.between_deals
        else:
            self.seat = match.deal.turn
            if self.seat in computers:
                self.base = self.deadline = now + timing.computer_delay
            else:
                discard_seconds = timing.discard_seconds if match.deal.on_discard_clock else None
                self.base = now + (timing.turn_seconds if discard_seconds is None else discard_seconds)
                self.deadline = self.base + self.banks[self.seat]
        return True

    def give_grace(self, now: float, timing: Timing, computers: set[int]) -> bool:
        """After a restart: a deadline that passed, or is about to, while the bot was down
        becomes a fresh short one (plus the player's bank), rather than an instant penalty. A
        computer player's turn only waits its usual moment: it was not away."""
        computer = self.seat is not None and self.seat in computers
        grace = timing.computer_delay if computer else timing.grace  # nobody to wait for
        if self.deadline is None or self.deadline >= now + grace:
            return False
        self.base = now + grace
        bank = self.banks[self.seat] if self.seat is not None and not computer else 0.0
        self.deadline = self.base + bank
        return True

    def due(self, now: float) -> bool:
        return self.deadline is not None and self.deadline <= now

    def announce(self) -> Deadline:
        return Deadline(self.seat, tuple(self.key), self.base, self.deadline)

    def to_json(self) -> dict[str, Any]:
        return {
            "banks": list(self.banks),
            "key": list(self.key),
            "seat": self.seat,
            "base": self.base,
            "deadline": self.deadline,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> TurnClock:
        """Raises KeyError or TypeError for anything that is not a clock this class wrote."""
        clock = cls(list(raw["banks"]), list(raw["key"]), raw["seat"], raw["base"], raw["deadline"])
        times = [*clock.banks, *(t for t in (clock.base, clock.deadline) if t is not None)]
        numbers = [*clock.key, *([] if clock.seat is None else [clock.seat])]
        if not all(isinstance(t, int | float) for t in times) or not all(isinstance(n, int) for n in numbers):
            raise TypeError(f"not a turn clock: {raw!r}")
        return clock


def _turn_key(match: Match) -> list[int]:
    if match.phase is MatchPhase.OVER:
        return [-1, -1]
    if match.deal is None:
        return [len(match.finished_deals), 0]
    key = [len(match.finished_deals) + 1, match.deal.turn_number]
    return [*key, 1] if match.deal.on_discard_clock else key


def turn_token(match: Match) -> str:
    """What a button carries to prove it belongs to the current turn (whichever clock runs)."""
    deal, turn = _turn_key(match)[:2]
    return f"{deal}.{turn}"
