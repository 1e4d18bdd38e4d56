"""Campaign store tests run against SQLite and a real PostgreSQL server (started here)."""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.campaign.pg import NoPostgres, Server, start_server

_names = itertools.count()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server | str]:
    """The session's PostgreSQL server, or the reason none could be started."""
    try:
        server = start_server()
    except NoPostgres as e:
        yield str(e)
        return
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'carnage.db'}"
    server = request.getfixturevalue("pg_server")
    if isinstance(server, str):
        pytest.fail(f"no PostgreSQL server could be started (make test installs it): "
                    f"{server}")
    return server.fresh_database(f"carnage_{next(_names)}")
