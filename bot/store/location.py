"""Where the database lives: a PostgreSQL database when `RUMMY_DATABASE_URL` names one
(`postgresql://...`), else the SQLite file `RUMMY_DB_PATH` (see .env.example), `./rummy.db`
when unset."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

DEFAULT_DB_PATH = "./rummy.db"
URL_SCHEMES = ("postgresql://", "postgres://")


def database_path(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    return Path(env.get("RUMMY_DB_PATH") or DEFAULT_DB_PATH)


def database_url(environ: Mapping[str, str] | None = None) -> str | None:
    """`RUMMY_DATABASE_URL`, or None when unset or empty; ValueError for one that is not PostgreSQL's."""
    env = os.environ if environ is None else environ
    url = (env.get("RUMMY_DATABASE_URL") or "").strip()
    if url and not url.startswith(URL_SCHEMES):
        raise ValueError(f"RUMMY_DATABASE_URL must be a postgresql:// URL, not {url.split(':')[0]!r}.")
    return url or None


def database_target(environ: Mapping[str, str] | None = None) -> str | Path:
    """What `open_store` takes: the PostgreSQL URL if one is set, else the SQLite file's path."""
    return database_url(environ) or database_path(environ)


def shown(target: str | Path) -> str:
    """A database as a message or a log line may name it: a URL's password left out."""
    if isinstance(target, Path):
        return str(target)
    parts = urlsplit(target)
    if parts.password is None:
        return target
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
