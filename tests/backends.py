"""The two databases the store runs on, for tests that run on both: a throwaway PostgreSQL
server (`PostgresServer`), and raw SQL on either store to damage rows behind its back.

The server is a real one: `initdb` makes a cluster in a temporary directory and `pg_ctl` starts
it listening on a Unix socket in that directory only (no TCP port, so nothing else on the
machine can reach it or clash with it). PostgreSQL refuses to run as root, so as root (CI) the
cluster belongs to the `postgres` system user the Debian package makes, or `nobody`. fsync is
off: the tests kill processes, never the machine, and a killed server process loses nothing
committed either way.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bot.store.postgres import PostgresStore, postgres_sql

ADMIN = "postgres"  # the cluster's superuser


def server_binaries() -> Path | None:
    """The directory with `initdb` and `pg_ctl`: on PATH, or Debian's newest under /usr/lib/postgresql."""
    found = shutil.which("initdb")
    if found and (Path(found).resolve().parent / "pg_ctl").exists():
        return Path(found).resolve().parent
    versions = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    versions.sort(key=lambda path: int(re.sub(r"\D", "", Path(path).parent.parent.name) or 0))
    return Path(versions[-1]).parent if versions else None


class PostgresServer:
    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.root = Path(tempfile.mkdtemp(prefix="rummy-pg-"))
        self.data = self.root / "data"
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = "postgres" if _user_exists("postgres") else "nobody"
            shutil.chown(self.root, user)
            self._as = ["runuser", "-u", user, "--"]

    def _run(self, *command: str) -> None:
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
        subprocess.run([*self._as, *command], cwd=self.root, check=True, **quiet)

    def start(self) -> None:
        bin_ = self.binaries
        self._run(
            str(bin_ / "initdb"), "-D", str(self.data), "-U", ADMIN, "-A", "trust", "-E", "UTF8",
            "--locale=C", "--no-sync",
        )  # fmt: skip
        options = f"-k {self.root} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        try:
            self._run(str(bin_ / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.root / "log"),
                      "-w", "-t", "60", "start")  # fmt: skip
        except subprocess.CalledProcessError:
            log = self.root / "log"
            said = log.read_text() if log.exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {said}") from None

    def url(self, database: str = "postgres", **settings: str) -> str:
        """A URL for `open_store`; `settings` become the session's (search_path=...)."""
        settings = {"host": str(self.root), **settings}
        query = "&".join(f"{key}={quote(value)}" for key, value in settings.items())
        return f"postgresql://{ADMIN}@/{database}?{query}"

    def sql(self, statement: str) -> None:
        """Runs one statement as the superuser (psql: callable with or without an event loop)."""
        psql = [str(self.binaries / "psql"), "-h", str(self.root), "-U", ADMIN, "-d", "postgres", "-q"]
        subprocess.run([*psql, "-v", "ON_ERROR_STOP=1", "-c", statement], check=True, capture_output=True)

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


async def execute(store: Any, sql: str, *params: Any) -> None:
    """Raw SQL (`?` parameters) on the store's own database, behind its back."""
    if isinstance(store, PostgresStore):
        await store._pool.execute(postgres_sql(sql), *params)
    else:
        await store._conn.execute(sql, params)


async def fetchone(store: Any, sql: str, *params: Any) -> Any:
    if isinstance(store, PostgresStore):
        return await store._pool.fetchrow(postgres_sql(sql), *params)
    async with store._conn.execute(sql, params) as cursor:
        return await cursor.fetchone()
