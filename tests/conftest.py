"""Fixtures for tests that run on both databases: `database` is a SQLite file's path or the URL
of a PostgreSQL schema of its own, on a server the session starts (see `backends`).

Where the server's binaries are missing, the PostgreSQL half skips, saying why, unless
`RUMMY_REQUIRE_POSTGRES` is set (CI sets it), when it fails instead.
"""

from __future__ import annotations

import asyncio
import itertools
import os

import asyncpg
import pytest
from backends import PostgresServer, server_binaries

_schemas = itertools.count(1)


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


async def _admin(server: PostgresServer, sql: str) -> None:
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture
def postgres_url(postgres_server):
    """A URL whose tables live in a schema of this test's own, dropped after it."""
    name = f"test_{next(_schemas)}"
    asyncio.run(_admin(postgres_server, f"CREATE SCHEMA {name}"))
    yield postgres_server.url(search_path=name)
    asyncio.run(_admin(postgres_server, f"DROP SCHEMA {name} CASCADE"))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request, tmp_path):
    """Where a store is opened (`Store.open(database)`): once a SQLite file, once PostgreSQL."""
    if request.param == "sqlite":
        return tmp_path / "rummy.db"
    return request.getfixturevalue("postgres_url")
