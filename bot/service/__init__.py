"""The table service: tables per channel, commands under a per-table lock, persisted before they
are reported, turn clocks and computer players. No Discord here: front ends call `TableService`."""

from bot.service.clock import Clock, ManualClock, SystemClock, TurnClock
from bot.service.computer import Policy, simple_policy
from bot.service.errors import ServiceError, StaleCommandError
from bot.service.events import ServiceEventKind, TableEvent, visible_events
from bot.service.randomness import RandomSource, seeded, system_random
from bot.service.service import ServiceSettings, TableService
from bot.service.table import Table

__all__ = [
    "Clock",
    "ManualClock",
    "Policy",
    "RandomSource",
    "ServiceError",
    "ServiceEventKind",
    "ServiceSettings",
    "StaleCommandError",
    "SystemClock",
    "Table",
    "TableEvent",
    "TableService",
    "TurnClock",
    "seeded",
    "simple_policy",
    "system_random",
    "visible_events",
]
