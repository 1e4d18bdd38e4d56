"""Helpers for team tests: build a team from plain dicts and check it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from carnage.team import TeamReport, check_team, parse_team

CheckFn = Callable[..., TeamReport]


@pytest.fixture
def check() -> CheckFn:
    def run(
        *vehicles: dict[str, Any],
        sponsor: str | None = None,
        cans: int = 500,
        homebrew: bool = False,
    ) -> TeamReport:
        data: dict[str, Any] = {"name": "Test Team", "cans": cans, "vehicles": list(vehicles)}
        if sponsor is not None:
            data["sponsor"] = sponsor
        return check_team(parse_team(data), homebrew=homebrew)

    return run

