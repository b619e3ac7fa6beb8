"""The table service: tables per channel, commands under a per-table lock, persisted before they
are reported, turn clocks and computer players; and the league service that runs league nights
on it. No Discord here: front ends call `TableService` and `LeagueService`."""

from bot.service.clock import Clock, ManualClock, SystemClock, TurnClock
from bot.service.computer import Policy, simple_policy
from bot.service.league_events import LeagueEvent, LeagueEventKind, LeagueRecord, ThreadOpener
from bot.service.league_service import LeagueService
from bot.service.live_table import LiveTable
from bot.service.randomness import RandomSource, seeded, system_random
from bot.service.refusals import ServiceError, StaleCommandError
from bot.service.retention import Retention, RetentionSettings
from bot.service.service import ServiceSettings, TableService
from bot.service.table_events import ServiceEventKind, TableEvent, visible_events

__all__ = [
    "Clock",
    "LeagueEvent",
    "LeagueEventKind",
    "LeagueRecord",
    "LeagueService",
    "LiveTable",
    "ManualClock",
    "Policy",
    "RandomSource",
    "Retention",
    "RetentionSettings",
    "ServiceError",
    "ServiceEventKind",
    "ServiceSettings",
    "StaleCommandError",
    "SystemClock",
    "TableEvent",
    "TableService",
    "ThreadOpener",
    "TurnClock",
    "seeded",
    "simple_policy",
    "system_random",
    "visible_events",
]
