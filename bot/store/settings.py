"""Where the database lives: `RUMMY_DB_PATH` (see .env.example), `./rummy.db` when unset."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DEFAULT_DB_PATH = "./rummy.db"


def database_path(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    return Path(env.get("RUMMY_DB_PATH") or DEFAULT_DB_PATH)
