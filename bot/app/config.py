"""Settings from the environment and an optional `.env` file (see `.env.example`).

Every setting is one row of `FIELDS`: its variable, the `Settings` attribute it fills, how its
text is read (a parser that raises `ValueError` for a value it refuses), its default and a line
of help. `Settings.load` reads them all the same way, so a new setting is a new row (and its
entry in `.env.example`, which a test keeps in step with this table). What depends on two
settings at once (a shard count with its shard ids and a PostgreSQL database) is checked after.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from dotenv import dotenv_values

from bot.store.location import DEFAULT_DB_PATH, URL_SCHEMES, shown
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
ACTIVITY_PORT = 8091  # RUMMY_ACTIVITY_PORT unless set: the Activity's page and live connections
ACTIVITY_HOST = "127.0.0.1"  # RUMMY_ACTIVITY_HOST unless set: behind a proxy on this machine
# The built web client (`npm run build` in web/) unless RUMMY_ACTIVITY_WEB says otherwise
ACTIVITY_WEB = Path(__file__).resolve().parents[2] / "web" / "dist"


class SettingsError(ValueError):
    """A setting with a value the bot cannot use; the message names the setting and what it takes."""


# ----------------------------------------------------------------- how a setting's text is read


def text(value: str) -> str:
    return value


def digits(value: str) -> int:
    """A Discord id: digits only (`int` would also take `+5`, `1_000` or Arabic-Indic digits)."""
    if not (value.isascii() and value.isdigit()):
        raise ValueError(value)
    return int(value)


def whole(least: int, most: int | None = None) -> Callable[[str], int]:
    def parse(value: str) -> int:
        number = digits(value)
        if number < least or (most is not None and number > most):
            raise ValueError(value)
        return number

    return parse


def number(
    above: float | None = None, least: float | None = None, most: float = math.inf
) -> Callable[[str], float]:
    """A decimal number above `above` (or from `least`) and at most `most`."""

    def parse(value: str) -> float:
        found = float(value)  # ValueError for words; "nan" fails every comparison below
        if not (found <= most and (above is None or found > above) and (least is None or found >= least)):
            raise ValueError(value)
        return found

    return parse


def one_of(*choices: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if value.upper() not in choices:
            raise ValueError(value)
        return value.upper()

    return parse


def flag(value: str) -> bool:
    if value not in ("0", "1"):
        raise ValueError(value)
    return value == "1"


def postgres_url(value: str) -> str:
    """A `postgresql://` URL whose parts can be read (a port that is a number)."""
    if not value.startswith(URL_SCHEMES):
        raise ValueError(value)
    urlsplit(value).port  # noqa: B018 -- ValueError for a port that is not a number
    return value


def shard_ids(value: str) -> tuple[int, ...]:
    return tuple(sorted(digits(part.strip()) for part in value.split(",")))


def usable_cores() -> int:
    """The cores this process may run on (at least one)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, cores)


@dataclass(frozen=True)
class Field:
    """One setting: `env` read by `parse` into `Settings.<attr>`. Unset or empty, it is `default`
    (text parsed like a value given, a callable's text worked out at load, or None: not set).
    `must_be` ends the refusal of a bad value, `help` says what it is for."""

    env: str
    attr: str
    parse: Callable[[str], Any]
    default: str | Callable[[], str] | None
    must_be: str
    help: str
    quoted: Callable[[str], str] = repr  # a refused value as the refusal shows it

    def read(self, values: Mapping[str, str]) -> Any:
        raw = (values.get(self.env) or "").strip()
        if not raw:
            if self.default is None:
                return None
            raw = self.default() if callable(self.default) else self.default
        try:
            return self.parse(raw)
        except ValueError:
            raise SettingsError(f"{self.env} must be {self.must_be}, not {self.quoted(raw)}.") from None


def _picture_workers_default() -> str:
    return "1" if usable_cores() > 1 else "0"


FIELDS: tuple[Field, ...] = (
    Field("DISCORD_TOKEN", "token", text, None, "the bot's token", "the bot's token (developer portal)"),
    Field("RUMMY_DB_PATH", "db_path", Path, DEFAULT_DB_PATH, "a file path", "the SQLite database file"),
    Field(
        "RUMMY_DATABASE_URL",
        "database_url",
        postgres_url,
        None,
        "a postgresql:// URL (postgresql://user:password@host:5432/rummy)",
        "a PostgreSQL database used instead of the SQLite file",
        lambda url: repr(shown(url)),  # never its password
    ),
    Field(
        "RUMMY_SHARD_COUNT",
        "shard_count",
        whole(1),
        None,
        "a whole number, 1 or more",
        "how many shards the bot has in all (with RUMMY_SHARD_IDS)",
    ),
    Field(
        "RUMMY_SHARD_IDS",
        "shard_ids",
        shard_ids,
        None,
        "shard numbers with commas between (0,1)",
        "the shards this process runs",
    ),
    Field(
        "RUMMY_SHARD_LEASE_SECONDS",
        "lease_seconds",
        whole(5),  # a holder stops sending 2 s before its lease ends (`bot.store.leases.LeaseClock`)
        str(LEASE_SECONDS),
        "a whole number of seconds, 5 or more",
        "how long a shard's lease outlives its process",
    ),
    Field(
        "RUMMY_KEEP_DAYS",
        "keep_days",
        whole(1),
        str(KEEP_DAYS),
        "a whole number of days, 1 or more",
        "days a finished match's moves are kept",
    ),
    Field(
        "RUMMY_REQUEST_BUDGET",
        "request_budget",
        number(above=0, most=MAX_REQUEST_BUDGET),
        str(REQUEST_BUDGET),
        f"a number of requests per second above 0 and at most {MAX_REQUEST_BUDGET:g}",
        "requests per second to Discord, shared by the bot's processes",
    ),
    Field(
        "RUMMY_MENTION_WATCHING_AFTER",
        "mention_watching_after",
        number(least=0, most=1),
        str(MENTION_WATCHING_AFTER),
        "a share of the turn's clock from 0 to 1",
        "when a player watching their hand DM is mentioned in the channel",
    ),
    Field(
        "RUMMY_PICTURE_WORKERS",
        "picture_workers",
        flag,
        _picture_workers_default,
        "0 (pictures drawn on threads), 1 (in two worker processes) or empty (workers where the "
        "bot may run on more than one core)",
        "where the pictures are drawn",
    ),
    Field(
        "RUMMY_DEV_GUILD_ID",
        "dev_guild_id",
        digits,
        None,
        "a server id (digits)",
        "a server where slash commands sync at once (development)",
    ),
    Field(
        "RUMMY_LOG_LEVEL",
        "log_level",
        one_of(*LOG_LEVELS),
        "INFO",
        f"one of {', '.join(LOG_LEVELS)}",
        "how much the log says",
    ),
    Field(
        "RUMMY_METRICS_PORT",
        "metrics_port",
        whole(1, 65535),
        None,
        "a port number (1-65535)",
        "serve /metrics and /healthz on this port (off unless set)",
    ),
    Field(
        "RUMMY_METRICS_HOST",
        "metrics_host",
        text,
        METRICS_HOST,
        "an address",
        "the address /metrics and /healthz listen on",
    ),
    Field(
        "RUMMY_MEMBER_TABLES",
        "member_tables",
        whole(0),
        str(MEMBER_TABLES),
        "a whole number, 0 or more",
        "lobbies and tables one member may sit at at once (0: no limit)",
    ),
    Field(
        "RUMMY_MEMBER_OPENS",
        "member_opens",
        whole(0),
        str(MEMBER_OPENS),
        "a whole number, 0 or more",
        "tables one member may open within RUMMY_MEMBER_OPENS_MINUTES (0: no limit)",
    ),
    Field(
        "RUMMY_MEMBER_OPENS_MINUTES",
        "member_opens_minutes",
        whole(1),
        str(MEMBER_OPENS_MINUTES),
        "a whole number of minutes, 1 or more",
        "the time RUMMY_MEMBER_OPENS counts over",
    ),
    Field(
        "RUMMY_SERVER_TABLES",
        "server_tables",
        whole(0),
        str(SERVER_TABLES),
        "a whole number, 0 or more",
        "open tables one server may hold (0: no limit)",
    ),
    Field(
        "RUMMY_TABLE_REPOST_SECONDS",
        "repost_seconds",
        whole(0),
        str(REPOST_SECONDS),
        "a whole number of seconds, 0 or more",
        "`/rummy table` posts the table message again at most once per channel in this time",
    ),
    Field(
        "RUMMY_ACTIVITY_CLIENT_SECRET",
        "activity_secret",
        text,
        None,
        "the application's OAuth2 client secret",
        "serve the table as a Discord Activity (off unless set): the OAuth2 client secret",
    ),
    Field(
        "RUMMY_ACTIVITY_PORT",
        "activity_port",
        whole(1, 65535),
        str(ACTIVITY_PORT),
        "a port number (1-65535)",
        "the port the Activity's page and live connections are served on",
    ),
    Field(
        "RUMMY_ACTIVITY_HOST",
        "activity_host",
        text,
        ACTIVITY_HOST,
        "an address",
        "the address the Activity is served on (behind an HTTPS proxy)",
    ),
    Field(
        "RUMMY_ACTIVITY_WEB",
        "activity_web",
        Path,
        str(ACTIVITY_WEB),
        "a folder",
        "the built web client (`npm ci && npm run build` in web/ makes web/dist)",
    ),
)


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
    shard_count: int | None = None  # with shard_ids: the shards this process runs (`shards`)
    shard_ids: tuple[int, ...] | None = None
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
    activity_secret: str | None = None  # the Activity is served (`bot.activity`) only with it
    activity_port: int = ACTIVITY_PORT
    activity_host: str = ACTIVITY_HOST
    activity_web: Path = ACTIVITY_WEB  # the built web client the Activity serves

    @property
    def database(self) -> str | Path:
        """What `open_store` takes: the PostgreSQL URL if one is set, else the SQLite file."""
        return self.database_url or self.db_path

    @property
    def database_shown(self) -> str:
        """The database as a message may name it (a URL without its password)."""
        return shown(self.database)

    @property
    def shards(self) -> Shards | None:
        """The shards this process runs, when the bot is sharded."""
        if self.shard_count is None or self.shard_ids is None:
            return None
        return Shards(self.shard_count, self.shard_ids)

    @classmethod
    def load(cls, env_file: Path | None = Path(".env"), environ: Mapping[str, str] | None = None) -> Settings:
        """The process environment wins over `.env`, as deploy platforms expect."""
        values: dict[str, str] = {}
        if env_file is not None and env_file.exists():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        settings = cls(**{field.attr: field.read(values) for field in FIELDS})
        settings.check_shards()
        settings.check_activity()
        return settings

    def check_activity(self) -> None:
        """The Activity needs a port of its own (never the metrics port); whether its web client
        was built is checked where the bot starts (`python -m bot`)."""
        if self.activity_secret is not None and self.activity_port == self.metrics_port:
            raise SettingsError(
                f"RUMMY_ACTIVITY_PORT must differ from RUMMY_METRICS_PORT ({self.metrics_port}): "
                "the Activity is served on a port of its own."
            )

    def check_shards(self) -> None:
        """`RUMMY_SHARD_COUNT` and `RUMMY_SHARD_IDS` (both or neither), the ids below the count.
        Sharded processes share one database, which only PostgreSQL lets several write at once."""
        count, ids = self.shard_count, self.shard_ids
        if count is None and ids is None:
            return
        if count is None or ids is None:
            missing = "RUMMY_SHARD_IDS" if count else "RUMMY_SHARD_COUNT"
            raise SettingsError(
                f"{missing} must be set too: a sharded bot needs its shard count and shard ids."
            )
        if ids[-1] >= count or len(set(ids)) != len(ids):
            raise SettingsError(
                f"RUMMY_SHARD_IDS must name different shards from 0 to {count - 1} "
                f"(RUMMY_SHARD_COUNT is {count}), not {','.join(map(str, ids))!r}."
            )
        if self.database_url is None:
            raise SettingsError(
                "RUMMY_SHARD_COUNT needs RUMMY_DATABASE_URL: sharded processes share one PostgreSQL "
                "database (the SQLite file serves one process only)."
            )
