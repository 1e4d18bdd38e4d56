"""Carnage's compiled modules: which are in use, and the guard against a stale build.

``scripts/compile.py`` (run by ``make install`` and ``make test``) compiles the hot modules
named in ``COMPILED`` with mypyc, in place (a C extension next to each source), and
records each source's SHA-256 in ``_compiled.json``. Compiled code does the same IEEE float
operations with the same C library as the interpreter, so it gives the same answers (the golden
seeded games of the test suite replay identically either way); it is only faster. Where there
is no C compiler, Carnage runs as plain Python.

A compiled module whose source was edited after the build would run the old code. So when any
recorded source no longer matches its digest, none of the compiled modules is used: Python
imports every one of them from source instead (compiled modules call each other directly, so
they are used all together or not at all) and a warning says to rebuild (``make compile``).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
STAMP = PACKAGE / "_compiled.json"

COMPILED: tuple[str, ...] = (
    "carnage.games.refuelled.ai.field",
    "carnage.games.refuelled.ai.bots",
    "carnage.games.refuelled.engine.movement",
    "carnage.games.refuelled.engine.attack",
    "carnage.games.refuelled.engine.skid",
    "carnage.games.refuelled.engine.bot_facing",
    "carnage.games.refuelled.engine.combat",
    "carnage.games.refuelled.engine.damage",
    "carnage.games.refuelled.engine.collision",
    "carnage.games.refuelled.engine.wipeout",
    "carnage.games.refuelled.engine.votes",
    "carnage.games.refuelled.engine.state",
    "carnage.games.refuelled.engine.flow",
    "carnage.games.refuelled.engine.game",
    "carnage.kernel.game",
    "carnage.kernel.base_state",
    "carnage.kernel.codec",
    "carnage.kernel.validate",
    "carnage.games.refuelled.snapshot_checks",
    "carnage.kernel.events",
    "carnage.kernel.effects",
    "carnage.kernel.decisions",
    "carnage.geometry.allround",
    "carnage.geometry.arcs",
    "carnage.geometry.collision",
    "carnage.geometry.compose",
    "carnage.geometry.convex",
    "carnage.geometry.cover",
    "carnage.geometry.footprints",
    "carnage.geometry.movement",
    "carnage.geometry.ranges",
    "carnage.geometry.shapes",
    "carnage.geometry.surfaces",
    "carnage.geometry.sweep",
    "carnage.geometry.table",
)
"""Modules compiled when a compiler is at hand: geometry (pure maths, no rules), the heuristic bot
and its distance field, the Movement and Attack Steps, the rules modules those steps call
(skids, combat rolls, damage, collisions, the Wipeout Step, Audience Votes, the scenarios'
bot-facing lines), the flow of rounds, Gear Phases and activations (``engine.flow``: its tests
record activations through an ``activation_start`` flow, not by replacing ``activation``),
the event log and the effect registry, and Refuelled's state classes
(``engine.state`` with the ``KernelState`` it extends, ``kernel.base_state``): mypyc replaces a
compiled dataclass's annotations by erased types (``str | None`` by ``type``), so these modules
declare their fields' types in a table the snapshot's type check reads
(``validate.declare_field_types``), and a compiled class's fields check their types when set
(the codec words a refusal as the type check would); the snapshot's codec and type check
(``kernel.codec``, ``kernel.validate``), which walk a state field by field, and the Refuelled
family's invariants of a restored state (``snapshot_checks``). ``geometry.scene``
(pydantic models) and ``geometry.templateset`` (a nested function mypyc cannot compile in a
plain class) stay Python. The game classes are compiled (``kernel.game``'s ``KernelGame`` and
Refuelled's ``engine.game`` ``Game``, which the Kart variant and Legacy play too), so that
compiled rules code reads ``game.state`` and calls ``emit``, ``roll`` and ``stat`` directly:
mypyc makes no dataclass of a generic or abstract class, so both write their ``__init__``
(keywords as before); ``KernelGame`` is generic in its state class (``KernelGame[GameState]``),
a compiled attribute keeping one type in every subclass; names imported only for type checking
(the scenario, the ruleset, the catalogue) are plain objects to it; ``Outcome`` and
``Checkpoint`` stay plain Python classes (pickled results; a test replaces ``Checkpoint.of``).
Every module whose classes other code extends (the scenarios, Devil's Run's game) stays
Python: compiled code may call a compiled
class's method without looking it up on the object, which would pass an override by
(``tests/kernel/test_compiled.py`` checks that no class of these modules is subclassed). The
value classes made by the million (``Pose``, ``Rect``, ``Event``, ``kernel.decisions``'
``Decision`` and ``Option``) are compiled classes that
behave as the frozen dataclasses they replaced: compared and hashed by their fields, pickled
and copied through ``__reduce__``, saved by the codec through ``VALUE_FIELDS``
(``tests/kernel/test_compiled.py``). ``Decision``, which the table's ``DiceEntry`` extends, is
marked ``allow_interpreted_subclasses``: compiled code looks its methods up on the object.
Other classes that are kept, pickled or copied (``EventLog``, the geometry's results ...)
stay plain Python classes (``@mypyc_attr(native_class=False)``) so that they copy as
before."""


def source(name: str) -> Path:
    """The source file of module ``name`` (``carnage.x.y`` -> ``.../carnage/x/y.py``)."""
    return PACKAGE.joinpath(*name.split(".")[1:]).with_suffix(".py")


def digest(name: str) -> str:
    return hashlib.sha256(source(name).read_bytes()).hexdigest()


def recorded() -> dict[str, str]:
    """Module -> source digest of the last build (empty: never built, or cleaned)."""
    try:
        doc = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    mods = doc.get("modules") if isinstance(doc, dict) else None
    return {str(k): str(v) for k, v in mods.items()} if isinstance(mods, dict) else {}


def stale(record: dict[str, str] | None = None) -> list[str]:
    """Recorded modules whose source differs from the build's (or is gone)."""
    out = []
    for name, want in sorted((recorded() if record is None else record).items()):
        try:
            if digest(name) != want:
                out.append(name)
        except OSError:
            out.append(name)
    return out


class _FromSource(importlib.abc.MetaPathFinder):
    """Imports the named modules from their ``.py`` files, never from a compiled build."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, source(fullname))


def extension_modules() -> list[str]:
    """Modules of the package that have a C extension file next to their source."""
    suffixes = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)
    out = set()
    for suf in suffixes:
        for p in PACKAGE.rglob(f"*{suf}"):
            name = p.name[: -len(suf)]
            if "." not in name:  # the longest suffix that fits: "x.cpython-311-....so" -> x
                rel = p.relative_to(PACKAGE).with_name(name)
                out.add(".".join(("carnage", *rel.parts)))
    return sorted(out)


def guard() -> None:
    """Called first thing by ``import carnage``: use a stale build's modules from source, and
    any extension file the build did not record (a module dropped from the list) never."""
    record = recorded()
    stray = [m for m in extension_modules() if m not in record]
    old = stale(record) if record else []
    if old or stray:
        sys.meta_path.insert(0, _FromSource(sorted(set(record) | set(stray))))
        warnings.warn(
            "carnage: compiled modules are older than their sources or not of the last build "
            f"({', '.join(old + stray)}); running them as Python. Rebuild with `make compile`.",
            stacklevel=2)


def in_use() -> list[str]:
    """Compiled modules loaded now from their C extension (imports them)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return [name for name in COMPILED
            if str(getattr(importlib.import_module(name), "__file__", "")).endswith(suffixes)]


def describe() -> str:
    """One line for benchmarks: how much of Carnage runs compiled."""
    n = len(in_use())
    if n == 0:
        return "pure Python (no compiled modules: see scripts/compile.py)"
    return f"compiled with mypyc: {n} of {len(COMPILED)} modules"
