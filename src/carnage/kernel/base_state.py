"""``KernelState``: what the driver keeps in every ruleset's state, in a module of its own so
that it can be compiled with the states that extend it (``carnage/compiled.py``: a compiled
class may extend only compiled classes). ``kernel/game.py`` imports it from here.

A compiled dataclass loses its annotations' arguments at run time (mypyc records
``list[list[JsonValue]]`` as ``list``), so the snapshot's type check reads the fields' types
from ``FIELD_TYPES`` (``validate.declare_field_types``), which a test checks against the
annotations written here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from carnage.kernel.events import JsonValue
from carnage.kernel.validate import declare_field_types


@dataclass
class KernelState:
    """What the driver keeps in every ruleset's state (keyword-only, after its own fields)."""

    memory: dict[str, dict[str, Any]] = field(default_factory=dict, kw_only=True)
    """Effects' memory by effect id (``perk:evasive:p1-car``), then by name."""
    counts: dict[str, int] = field(default_factory=dict, kw_only=True)
    """Events logged so far, by kind."""
    installed: list[list[JsonValue]] = field(default_factory=list, kw_only=True)
    """The effect journal: ``[key, *args]`` of every top-level installer run, in order."""
    secrets: dict[str, Any] = field(default_factory=dict, kw_only=True)
    """Hidden information by key (``kernel/secrets.py`` ``Secret``: value and who sees it)."""


FIELD_TYPES: dict[type, dict[str, Any]] = {
    KernelState: {
        "memory": dict[str, dict[str, Any]],
        "counts": dict[str, int],
        "installed": list[list[JsonValue]],
        "secrets": dict[str, Any],
    },
}
"""Each class's own fields' types, as annotated above (``tests/kernel/test_field_types.py``)."""

declare_field_types(FIELD_TYPES)
