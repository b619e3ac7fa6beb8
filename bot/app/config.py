"""Settings from the environment and an optional `.env` file (see `.env.example`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

from bot.store.location import database_path, database_url, shown
from bot.store.shards import Shards

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
KEEP_DAYS = 90  # RUMMY_KEEP_DAYS unless set
METRICS_HOST = "127.0.0.1"  # RUMMY_METRICS_HOST unless set: this machine only
REQUEST_BUDGET = 40.0  # RUMMY_REQUEST_BUDGET unless set: of Discord's 50 requests/s per bot
MAX_REQUEST_BUDGET = 50.0  # Discord's global limit for a bot: more would only meet 429s
LEASE_SECONDS = 30  # RUMMY_SHARD_LEASE_SECONDS unless set
# RUMMY_MENTION_WATCHING_AFTER unless set: a person watching their hand DM is mentioned in the
# channel once half their turn's clock has gone without a move
MENTION_WATCHING_AFTER = 0.5
# How many tables one member and one server may take (`bot.service.table_limits`, whose defaults
# these are), each unless its setting says otherwise; 0 switches a limit off.
MEMBER_TABLES = 3  # RUMMY_MEMBER_TABLES: lobbies and tables a member sits at at once
MEMBER_OPENS = 5  # RUMMY_MEMBER_OPENS: tables a member opens within...
MEMBER_OPENS_MINUTES = 10  # RUMMY_MEMBER_OPENS_MINUTES: ...this many minutes (at least 1)
SERVER_TABLES = 50  # RUMMY_SERVER_TABLES: open tables (lobbies and matches) in one server
# RUMMY_TABLE_REPOST_SECONDS unless set: `/rummy table` posts the table message again at most once
# per channel in this time (later calls are pointed to the fresh one)
REPOST_SECONDS = 10


class SettingsError(ValueError):
    """A setting with a value the bot cannot use; the message names the setting and what it takes."""


@dataclass(frozen=True)
class Settings:
    token: str | None
    db_path: Path
    dev_guild_id: int | None
    log_level: str
    database_url: str | None = None  # a PostgreSQL database, used instead of the file at db_path
    keep_days: int = KEEP_DAYS  # finished matches' move logs are deleted after this many days
    metrics_port: int | None = None  # Prometheus metrics and /healthz served here; off if None
    metrics_host: str = METRICS_HOST  # the address they listen on
    request_budget: float = REQUEST_BUDGET  # requests/s to Discord, shared by the bot's processes
    shards: Shards | None = None  # the shards this process runs, when the bot is sharded
    lease_seconds: int = LEASE_SECONDS  # how long a shard's lease outlives its holder's last renewal
    mention_watching_after: float = MENTION_WATCHING_AFTER  # share of the clock (0: at once)
    # pictures drawn in worker processes, not on threads (by default where there are cores for them)
    picture_workers: bool = False
    # how many tables a member sits at and opens (in how many minutes), and a server holds: 0, none
    member_tables: int = MEMBER_TABLES
    member_opens: int = MEMBER_OPENS
    member_opens_minutes: int = MEMBER_OPENS_MINUTES
    server_tables: int = SERVER_TABLES
    repost_seconds: int = REPOST_SECONDS  # `/rummy table` reposts at most once per channel in this time

    @property
    def database(self) -> str | Path:
        """What `open_store` takes: the PostgreSQL URL if one is set, else the SQLite file."""
        return self.database_url or self.db_path

    @property
    def database_shown(self) -> str:
        """The database as a message may name it (a URL without its password)."""
        return shown(self.database)

    @classmethod
    def load(cls, env_file: Path | None = Path(".env"), environ: Mapping[str, str] | None = None) -> Settings:
        """The process environment wins over `.env`, as deploy platforms expect."""
        values: dict[str, str] = {}
        if env_file is not None and env_file.exists():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        guild = (values.get("RUMMY_DEV_GUILD_ID") or "").strip()
        if guild and not (guild.isascii() and guild.isdigit()):
            raise SettingsError(f"RUMMY_DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
        level = (values.get("RUMMY_LOG_LEVEL") or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise SettingsError(
                f"RUMMY_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level.lower()!r}."
            )
        keep = (values.get("RUMMY_KEEP_DAYS") or "").strip() or str(KEEP_DAYS)
        if not (keep.isascii() and keep.isdigit() and int(keep) > 0):
            raise SettingsError(f"RUMMY_KEEP_DAYS must be a whole number of days, 1 or more, not {keep!r}.")
        metrics_port = (values.get("RUMMY_METRICS_PORT") or "").strip()
        if metrics_port and not (
            metrics_port.isascii() and metrics_port.isdigit() and 0 < int(metrics_port) < 65536
        ):
            raise SettingsError(f"RUMMY_METRICS_PORT must be a port number (1-65535), not {metrics_port!r}.")
        budget = (values.get("RUMMY_REQUEST_BUDGET") or "").strip() or str(REQUEST_BUDGET)
        try:
            request_budget = float(budget)
        except ValueError:
            request_budget = 0.0
        if not 0 < request_budget <= MAX_REQUEST_BUDGET:
            raise SettingsError(
                f"RUMMY_REQUEST_BUDGET must be a number of requests per second above 0 and at most "
                f"{MAX_REQUEST_BUDGET:g}, not {budget!r}."
            )
        try:
            url = database_url(values)
        except ValueError as error:
            raise SettingsError(str(error)) from error
        shards = _shards(values, url)
        lease = (values.get("RUMMY_SHARD_LEASE_SECONDS") or "").strip() or str(LEASE_SECONDS)
        if not (lease.isascii() and lease.isdigit() and int(lease) >= 2):
            raise SettingsError(
                f"RUMMY_SHARD_LEASE_SECONDS must be a whole number of seconds, 2 or more, not {lease!r}."
            )
        watching = (values.get("RUMMY_MENTION_WATCHING_AFTER") or "").strip() or str(MENTION_WATCHING_AFTER)
        try:
            mention_watching_after = float(watching)
        except ValueError:
            mention_watching_after = -1.0
        if not 0 <= mention_watching_after <= 1:
            raise SettingsError(
                "RUMMY_MENTION_WATCHING_AFTER must be a share of the turn's clock from 0 to 1, "
                f"not {watching!r}."
            )
        pictures = (values.get("RUMMY_PICTURE_WORKERS") or "").strip() or ("1" if usable_cores() > 1 else "0")
        if pictures not in ("0", "1"):
            raise SettingsError(
                "RUMMY_PICTURE_WORKERS must be 0 (pictures drawn on threads), 1 (in two worker "
                "processes) or empty (workers where the bot may run on more than one core), "
                f"not {pictures!r}."
            )
        return cls(
            token=(values.get("DISCORD_TOKEN") or "").strip() or None,
            db_path=database_path(values),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            database_url=url,
            keep_days=int(keep),
            metrics_port=int(metrics_port) if metrics_port else None,
            metrics_host=(values.get("RUMMY_METRICS_HOST") or "").strip() or METRICS_HOST,
            request_budget=request_budget,
            shards=shards,
            lease_seconds=int(lease),
            mention_watching_after=mention_watching_after,
            picture_workers=pictures == "1",
            member_tables=_count(values, "RUMMY_MEMBER_TABLES", MEMBER_TABLES),
            member_opens=_count(values, "RUMMY_MEMBER_OPENS", MEMBER_OPENS),
            member_opens_minutes=_count(values, "RUMMY_MEMBER_OPENS_MINUTES", MEMBER_OPENS_MINUTES, least=1),
            server_tables=_count(values, "RUMMY_SERVER_TABLES", SERVER_TABLES),
            repost_seconds=_count(values, "RUMMY_TABLE_REPOST_SECONDS", REPOST_SECONDS),
        )


def _count(values: Mapping[str, str], key: str, default: int, least: int = 0) -> int:
    """A whole-number setting, `least` or more (0, where allowed, switches its limit off)."""
    raw = (values.get(key) or "").strip() or str(default)
    if not (raw.isascii() and raw.isdigit() and int(raw) >= least):
        raise SettingsError(f"{key} must be a whole number, {least} or more, not {raw!r}.")
    return int(raw)


def usable_cores() -> int:
    """The cores this process may run on (at least one)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, cores)


def _shards(values: Mapping[str, str], url: str | None) -> Shards | None:
    """`RUMMY_SHARD_COUNT` and `RUMMY_SHARD_IDS` (both or neither). Sharded processes share one
    database, which only PostgreSQL lets several processes write at once."""
    count = (values.get("RUMMY_SHARD_COUNT") or "").strip()
    ids = (values.get("RUMMY_SHARD_IDS") or "").strip()
    if not count and not ids:
        return None
    if not count or not ids:
        missing = "RUMMY_SHARD_IDS" if count else "RUMMY_SHARD_COUNT"
        raise SettingsError(f"{missing} must be set too: a sharded bot needs its shard count and shard ids.")
    if not (count.isascii() and count.isdigit() and int(count) > 0):
        raise SettingsError(f"RUMMY_SHARD_COUNT must be a whole number, 1 or more, not {count!r}.")
    parts = [part.strip() for part in ids.split(",")]
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise SettingsError(f"RUMMY_SHARD_IDS must be shard numbers with commas between (0,1), not {ids!r}.")
    numbers = [int(part) for part in parts]
    outside = [number for number in numbers if number >= int(count)]
    if outside or len(set(numbers)) != len(numbers):
        raise SettingsError(
            f"RUMMY_SHARD_IDS must name different shards from 0 to {int(count) - 1} "
            f"(RUMMY_SHARD_COUNT is {count}), not {ids!r}."
        )
    if url is None:
        raise SettingsError(
            "RUMMY_SHARD_COUNT needs RUMMY_DATABASE_URL: sharded processes share one PostgreSQL "
            "database (the SQLite file serves one process only)."
        )
    return Shards(int(count), tuple(sorted(numbers)))
