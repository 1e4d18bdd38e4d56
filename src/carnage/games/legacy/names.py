"""Our name generator for Legacy vehicles (GL-011, GL-106): OURS, not the official app.

``vehicle_name(seed)`` is a pure function of its seed (MD5 stream, any machine); the CLI draws
a fresh seed from the operating system when none is given.
"""

from __future__ import annotations

import secrets
from functools import cache
from typing import Any

from carnage.games.legacy.catalog import legacy_data
from carnage.games.legacy.digits import Digits


@cache
def name_lists() -> dict[str, Any]:
    data: dict[str, Any] = legacy_data("names.yaml")
    return data


def vehicle_name(seed: int | str | None = None) -> str:
    """A vehicle name from our word lists: the same for the same seed; a new one for None."""
    if seed is None:
        seed = secrets.randbits(64)
    lists = name_lists()
    d = Digits("name", str(lists["version"]), str(seed))
    return f"{d.pick(lists['first'])} {d.pick(lists['second'])}"
