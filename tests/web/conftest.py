"""Fixtures every browser test module shares: its own served table on a fresh database, and
one Debian chromium for the module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser
from tests.web.test_e2e_support import launch, serve


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory,
         request: pytest.FixtureRequest) -> Iterator[str]:
    """The table served on 127.0.0.1 for this test module."""
    with serve(tmp_path_factory.mktemp(request.module.__name__.split(".")[-1])
               / "carnage.db") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launch() as (_, b):
        yield b
