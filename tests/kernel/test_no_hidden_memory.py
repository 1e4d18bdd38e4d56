"""All of a game's memory is in its state: scenarios keep nothing, clones share nothing mutable.

A scenario object is shared by a game and every clone of it (and by a restored copy's
configuration), so anything it kept for one game would leak into the others. For every scenario
of every ruleset a seeded game is played a few decisions while the scenario's own attributes are
watched: none may change, and none may hold a mutable container. A clone and its original, played
on, must not share a mutable object either, outside the shared configuration
(``_shared_config``: the ruleset, the scenario, templates and catalogue: read-only) and the
immutable caches of ``IMMUTABLE_CACHES`` (logged events ...).
"""

from __future__ import annotations

import dataclasses
import random
import types
from collections.abc import Iterator
from typing import Any

import pytest

from carnage.ai import bot_rng, make_bot
from carnage.geometry import movement
from carnage.kernel import effects
from carnage.kernel.events import Event
from carnage.kernel.game import Checkpoint
from carnage.kernel.ruleset import Ruleset
from carnage.rulesets import RULESETS

DECISIONS = 30
"""Decisions played before and after cloning (set-up and the first activations)."""

MUTABLE = (list, dict, set, bytearray)
IMMUTABLE_LEAVES = (str, bytes, int, float, complex, bool, type(None), range, type,
                    types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                    type(effects.ANYONE), type(effects.CANCEL))
"""Values nothing changes; the effect registry's sentinels (``ANYONE``, ``CANCEL``) are one
object each for every game (as plain Python they still carry an empty ``__dict__``)."""

IMMUTABLE_CACHES: tuple[type, ...] = (Event, Checkpoint, movement._Plan)
"""Shared on purpose, never changed: logged events; a checkpoint (a clone copies its state,
never changes it); a move's plan in its own frame (geometry/movement.py's process-wide cache,
a frozen record of read-only geometry)."""

CASES = [(name, sid) for name, rs in RULESETS.items() for sid in rs.scenarios]


def _new_game(ruleset: Ruleset, scenario: str, seed: int) -> Any:
    """A started game of ``scenario`` with its own default teams."""
    return ruleset.new_game(scenario=scenario, seed=seed)


def _bots(ruleset: Ruleset) -> list[Any]:
    return [make_bot("random" if ruleset.name == "devils-run" else "heuristic")] * 2


def _play(game: Any, bots: list[Any], rng: random.Random, n: int) -> None:
    for _ in range(n):
        d = game.pending()
        if d is None:
            return
        game.apply(bots[d.player % len(bots)].choose(game, d, rng))


def _parts(obj: Any) -> Iterator[Any]:
    """What ``obj`` refers to: items, attributes (dict, slots and a compiled class's), a
    closure's cells, a bound method's object, a suspended generator's locals."""
    if isinstance(obj, dict):
        yield from obj.keys()
        yield from obj.values()
        return
    if isinstance(obj, (list, tuple, set, frozenset)):
        yield from obj
        return
    if isinstance(obj, types.MethodType):
        yield obj.__self__
        yield obj.__func__
        return
    if isinstance(obj, types.GeneratorType):
        if obj.gi_frame is not None:
            yield from obj.gi_frame.f_locals.values()
        if obj.gi_yieldfrom is not None:
            yield obj.gi_yieldfrom
        return
    if isinstance(obj, types.FunctionType):
        for cell in obj.__closure__ or ():
            yield cell.cell_contents
        return
    if isinstance(obj, IMMUTABLE_LEAVES):
        return
    d = getattr(obj, "__dict__", None)
    if isinstance(d, dict):
        yield from d.values()
    for klass in type(obj).__mro__:
        for slot in getattr(klass, "__slots__", ()):
            if hasattr(obj, slot):
                yield getattr(obj, slot)
    native = getattr(type(obj), "__mypyc_attrs__", None)  # a compiled (mypyc) class's fields
    for name in native if isinstance(native, tuple) else ():
        if name != "__dict__" and hasattr(obj, name):
            yield getattr(obj, name)


def _shared_config(game: Any) -> list[Any]:
    """What a game and its clones share on purpose: read-only configuration."""
    out = [getattr(game, k, None) for k in ("ruleset", "scenario", "templates", "options",
                                            "setup")]
    ruleset = getattr(game, "ruleset", None)
    if ruleset is not None:
        out += [ruleset.catalog, ruleset.hooks, ruleset.rules]
    effects = getattr(game, "effects", None)
    if effects is not None:
        out.append(getattr(effects, "hooks", None))
    return [o for o in out if o is not None]


def _reachable(roots: list[Any]) -> set[int]:
    """The ids of everything reachable from ``roots``."""
    seen: set[int] = set()
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        todo.extend(_parts(obj))
    return seen


def _is_mutable(obj: Any) -> bool:
    if isinstance(obj, MUTABLE):
        return True
    if isinstance(obj, (*IMMUTABLE_LEAVES, tuple, frozenset, types.MethodType,
                        types.GeneratorType)):
        return False
    if dataclasses.is_dataclass(obj):
        params = getattr(type(obj), "__dataclass_params__", None)
        return not (params is not None and params.frozen)
    return hasattr(obj, "__dict__") or bool(getattr(type(obj), "__slots__", ()))


def _mutables(root: Any, stop: set[int]) -> dict[int, str]:
    """The ids of the mutable objects reachable from ``root`` (not through ``stop``), with a
    path to each."""
    seen: set[int] = set(stop)
    found: dict[int, str] = {}
    todo: list[tuple[Any, str]] = [(root, "game")]
    while todo:
        obj, path = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, IMMUTABLE_CACHES):
            continue
        if _is_mutable(obj):
            found[id(obj)] = path
        for i, part in enumerate(_parts(obj)):
            if not isinstance(part, IMMUTABLE_LEAVES) or isinstance(part, types.FunctionType):
                todo.append((part, f"{path}/{type(part).__name__}[{i}]"))
    return found


def _scenario_memory(scenario: Any) -> dict[str, int]:
    return {k: id(v) for k, v in vars(scenario).items()} if hasattr(scenario, "__dict__") else {}


def _containers_in(scenario: Any) -> list[str]:
    """Mutable containers among the scenario's own attributes and in the objects they hold
    (a rolling road's settings ...), not counting the scenario itself."""
    out = []
    for k, v in (vars(scenario).items() if hasattr(scenario, "__dict__") else ()):
        for path in _mutables(v, {id(scenario)}).values():
            out.append(f"{k}: {path}")
    return out


@pytest.mark.parametrize(("ruleset", "scenario"), CASES, ids=[f"{r}-{s}" for r, s in CASES])
def test_a_scenario_keeps_no_memory_of_its_game(ruleset: str, scenario: str) -> None:
    rs = RULESETS[ruleset]
    game = _new_game(rs, scenario, seed=7)
    sc = getattr(game, "scenario", None) or rs.scenarios[scenario]
    before = _scenario_memory(sc)
    assert _containers_in(sc) == []
    _play(game, _bots(rs), bot_rng(7), DECISIONS)
    clone = game.clone()
    _play(clone, _bots(rs), bot_rng(8), DECISIONS)
    assert _scenario_memory(sc) == before
    assert _containers_in(sc) == []
    if dataclasses.is_dataclass(sc):
        assert type(sc).__dataclass_params__.frozen  # type: ignore[attr-defined]


@pytest.mark.parametrize(("ruleset", "scenario"), CASES, ids=[f"{r}-{s}" for r, s in CASES])
def test_a_clone_shares_nothing_mutable_with_its_game(ruleset: str, scenario: str) -> None:
    rs = RULESETS[ruleset]
    game = _new_game(rs, scenario, seed=3)
    _play(game, _bots(rs), bot_rng(3), DECISIONS)
    clone = game.clone()
    _play(clone, _bots(rs), bot_rng(4), DECISIONS // 3)
    _play(game, _bots(rs), bot_rng(5), DECISIONS // 3)
    stop = _reachable(_shared_config(game) + _shared_config(clone))
    mine, theirs = _mutables(game, stop), _mutables(clone, stop)
    shared = sorted(mine[i] for i in set(mine) & set(theirs))
    assert shared == []


def test_the_walk_finds_what_a_scenario_would_keep() -> None:
    """The checks above can fail: a scenario that kept a list, and a clone that shared one."""
    rs = RULESETS["refuelled"]
    game = _new_game(rs, "street-race", seed=1)
    game.scenario.kept = []
    assert _containers_in(game.scenario) == ["kept: game"]
    clone = game.clone()
    clone.state.scenario["leak"] = game.state.scenario.setdefault("leak", [])
    stop = _reachable(_shared_config(game))
    assert set(_mutables(game, stop)) & set(_mutables(clone, stop))
    del game.scenario.kept
