"""Fixtures for tests that run on both databases: `database` is a SQLite file's path or the URL
of a PostgreSQL schema of its own, on a server the session starts (see `backends`).

Where the server's binaries are missing, the PostgreSQL half skips, saying why, unless
`RUMMY_REQUIRE_POSTGRES` is set (CI sets it), when it fails instead.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from backends import PostgresServer, server_binaries

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server():
    binaries = server_binaries()
    if binaries is None:
        reason = "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"
        if os.environ.get("RUMMY_REQUIRE_POSTGRES"):
            pytest.fail(f"{reason}, and RUMMY_REQUIRE_POSTGRES is set", pytrace=False)
        pytest.skip(reason)
    server = PostgresServer(binaries)
    server.start()
    yield server
    server.stop()


BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def databases(request, tmp_path):
    """Once for each database: makes new, empty ones of that kind, one a call (SQLite files, or
    schemas of their own on the session's PostgreSQL server, dropped after the test)."""
    server = request.getfixturevalue("postgres_server") if request.param == "postgres" else None
    made: list[str] = []

    def new() -> Path | str:
        number = next(_numbers)
        if server is None:
            return tmp_path / f"rummy{number}.db"
        name = f"test_{number}"
        server.sql(f"CREATE SCHEMA {name}")
        made.append(name)
        return server.url(search_path=name)

    yield new
    for name in made:
        server.sql(f"DROP SCHEMA {name} CASCADE")


@pytest.fixture
def database(databases):
    """Where a store is opened (`open_store(database)`): once a SQLite file, once PostgreSQL."""
    return databases()


@pytest.fixture
def postgres_url(postgres_server, tmp_path):
    """A PostgreSQL URL whose tables live in a schema of this test's own."""
    name = f"test_{next(_numbers)}"
    postgres_server.sql(f"CREATE SCHEMA {name}")
    yield postgres_server.url(search_path=name)
    postgres_server.sql(f"DROP SCHEMA {name} CASCADE")
