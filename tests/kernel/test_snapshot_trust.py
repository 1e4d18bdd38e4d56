"""Restore refuses a tampered snapshot with ``SnapshotError`` naming the field, for every
ruleset, instead of building a game that crashes on a later legal ``apply``."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

import carnage
from carnage.kernel.game import SnapshotError

Doc = dict[str, Any]


def played(ruleset: str, scenario: str, seed: int, choices: int) -> Doc:
    g = carnage.new_game(ruleset=ruleset, scenario=scenario, seed=seed)
    for _ in range(choices):
        d = g.pending()
        if d is None:
            break
        g.apply(legal(d)[-1])
    doc: Doc = g.snapshot()
    return doc


def legal(d: Any) -> list[Any]:
    """A decision's legal choices: its options, or the ends and middle of its interval."""
    if d.domain is not None:
        return [d.domain.low, (d.domain.low + d.domain.high) / 2, d.domain.high]
    return [o.value for o in d.options]


@cache
def refuelled() -> Doc:
    return played("refuelled", "street-race", 1, 40)


def car(d: Doc) -> dict[str, Any]:
    out: dict[str, Any] = d["state"]["f"]["vehicles"]["p1-red-car"]["f"]
    return out


def state(d: Doc) -> dict[str, Any]:
    out: dict[str, Any] = d["state"]["f"]
    return out


def _set(get: Callable[[Doc], dict[str, Any]], key: str, value: Any) -> Callable[[Doc], None]:
    return lambda d: get(d).__setitem__(key, value)


TAMPERED: list[tuple[str, Callable[[Doc], None], str]] = [
    ("gear 99", _set(car, "gear", 99), "state.vehicles['p1-red-car'].gear"),
    ("gear above max", _set(car, "gear", 6), "state.vehicles['p1-red-car'].gear"),
    ("pose far away", lambda d: car(d)["pose"]["f"].__setitem__("x", 1e300),
     "state.vehicles['p1-red-car'].pose.x"),
    ("pose off the table", lambda d: car(d)["pose"]["f"].__setitem__("y", 1e6),
     "state.vehicles['p1-red-car'].pose.y"),
    ("weapons as text", _set(car, "weapons", "machine_gun"),
     "state.vehicles['p1-red-car'].weapons"),
    ("unknown weapon", lambda d: car(d)["weapons"][0]["f"].__setitem__("weapon", "laser"),
     "state.vehicles['p1-red-car'].weapons[0].weapon"),
    ("hull 3.7", _set(car, "hull", 3.7), "state.vehicles['p1-red-car'].hull"),
    ("hull as a bool", _set(car, "hull", True), "state.vehicles['p1-red-car'].hull"),
    ("99 players", _set(state, "players", 99), "state.players"),
    ("negative width", _set(state, "width", -900.0), "state.width"),
    ("bad flow stage", lambda d: state(d)["flow"]["f"].__setitem__("stage", "nowhere"),
     "state.flow.stage"),
    ("flow turn of no seat", lambda d: state(d)["flow"]["f"].__setitem__("turn", 7),
     "state.flow.turn"),
    ("Death Race config on a Street Race state",
     lambda d: d["config"].__setitem__("scenario", "death-race"), "state.scenario.options"),
    ("out-of-range script",
     lambda d: d.__setitem__("dice", {"kind": "scripted", "results": [4, 9], "at": 0}),
     "dice.results[1]"),
    ("script of text",
     lambda d: d.__setitem__("dice", {"kind": "scripted", "results": ["6"], "at": 0}),
     "dice"),
    ("active vehicle that is not there", _set(state, "active", "nobody"), "state.active"),
    ("checkpoint as a bool", lambda d: d["checkpoint"].__setitem__("log", True),
     "checkpoint.log"),
    ("votes for another table", _set(state, "votes", [0, 0, 0]), "state.votes"),
    ("heading spun far round", lambda d: car(d)["pose"]["f"].__setitem__("heading", 1e5),
     "state.vehicles['p1-red-car'].pose.heading"),
    ("weapon on no part", lambda d: car(d)["weapons"][0]["f"].__setitem__("part", "roof"),
     "state.vehicles['p1-red-car'].weapons[0].part"),
    ("weapon ammo 500", lambda d: car(d)["weapons"][0]["f"].__setitem__("ammo", 500),
     "state.vehicles['p1-red-car'].weapons[0].ammo"),
    ("condition beyond bounds", _set(car, "conditions", {"burning": 10**5}),
     "state.vehicles['p1-red-car'].conditions.burning"),
    ("obstacle off the table",
     lambda d: state(d)["obstacles"]["rock-1"]["f"]["pose"]["f"].__setitem__("x", -2e4),
     "state.obstacles['rock-1'].pose.x"),
    ("obstacle a kilometre long",
     lambda d: state(d)["obstacles"]["crate-1"]["f"].__setitem__("length", 1e6),
     "state.obstacles['crate-1'].length"),
]


@pytest.mark.parametrize("change, field", [(c, f) for _, c, f in TAMPERED],
                         ids=[name for name, _, _ in TAMPERED])
def test_restore_refuses_a_tampered_refuelled_snapshot_naming_the_field(
        change: Callable[[Doc], None], field: str) -> None:
    doc = copy.deepcopy(refuelled())
    carnage.restore(copy.deepcopy(doc))  # untouched, it restores
    change(doc)
    with pytest.raises(SnapshotError) as e:
        carnage.restore(doc)
    assert field in str(e.value)


@pytest.mark.parametrize("version", [True, 1.0, "1", "2", 2.0, 3, 0, None])
def test_only_the_numbers_1_and_2_are_versions(version: Any) -> None:
    doc = copy.deepcopy(refuelled())
    doc["carnage_snapshot"] = version
    with pytest.raises(SnapshotError, match="version 1 or 2"):
        carnage.restore(doc)


@pytest.mark.parametrize("ruleset, scenario", [("kart", "street-race"),
                                               ("legacy", "street-race")])
def test_the_refuelled_family_checks_the_same_invariants(ruleset: str, scenario: str) -> None:
    doc = played(ruleset, scenario, 2, 30)
    carnage.restore(copy.deepcopy(doc))
    vid = next(iter(doc["state"]["f"]["vehicles"]))
    doc["state"]["f"]["vehicles"][vid]["f"]["gear"] = 99
    with pytest.raises(SnapshotError, match=r"state\.vehicles\['[^']+'\]\.gear"):
        carnage.restore(doc)


@cache
def devils_run() -> Doc:
    return played("devils-run", "devils-run", 3, 40)


def dr_vehicle(d: Doc) -> dict[str, Any]:
    out: dict[str, Any] = d["state"]["vehicles"]["law-bike"]
    return out


DR_TAMPERED: list[tuple[str, Callable[[Doc], None], str]] = [
    ("chassis points 99", _set(dr_vehicle, "cp", 99), "state.vehicles['law-bike'].cp"),
    ("square of floats", _set(dr_vehicle, "pos", [3.7, 2]),
     "state.vehicles['law-bike'].pos[0]"),
    ("square off the road", _set(dr_vehicle, "pos", [30, 2]),
     "state.vehicles['law-bike'].pos[0]"),
    ("unknown phase", lambda d: d["state"].__setitem__("phase", "nowhere"), "state.phase"),
    ("turn as text", lambda d: d["state"].__setitem__("turn", "3"), "state.turn"),
    ("seat 5 to act", lambda d: d["state"].__setitem__("to_act", 5), "state.to_act"),
    ("unknown gangs", lambda d: d["state"].__setitem__("gangs", ["x", "y"]), "state.gangs[0]"),
    ("a D12 result",
     lambda d: d.__setitem__("dice", {"kind": "scripted", "results": [11], "at": 0}),
     "dice.results[0]"),
    ("weapons of a vehicle as text", _set(dr_vehicle, "status", 3),
     "state.vehicles['law-bike'].status"),
]


@pytest.mark.parametrize("change, field", [(c, f) for _, c, f in DR_TAMPERED],
                         ids=[name for name, _, _ in DR_TAMPERED])
def test_restore_refuses_a_tampered_devils_run_snapshot_naming_the_field(
        change: Callable[[Doc], None], field: str) -> None:
    doc = copy.deepcopy(devils_run())
    carnage.restore(copy.deepcopy(doc))
    change(doc)
    with pytest.raises(SnapshotError) as e:
        carnage.restore(doc)
    assert field in str(e.value)


def _log(doc: Doc) -> Any:
    return doc["log"]


COMPACT_DAMAGE: list[tuple[str, Callable[[Doc], None], str]] = [
    ("log a list of objects", lambda d: d.__setitem__("log", []), "log"),
    ("log without forms", lambda d: _log(d).pop("forms"), "log"),
    ("log with another member", lambda d: _log(d).__setitem__("extra", 1), "log"),
    ("forms not a list", lambda d: _log(d).__setitem__("forms", {}), "log"),
    ("a form too short", lambda d: _log(d)["forms"][0].pop(), "log.forms[0]"),
    ("a form's kind a number", lambda d: _log(d)["forms"][0].__setitem__(0, 3),
     "log.forms[0]"),
    ("a form's page a string", lambda d: _log(d)["forms"][0].__setitem__(2, "62"),
     "log.forms[0]"),
    ("a form's key a number", lambda d: _log(d)["forms"][0][3].append(1), "log.forms[0]"),
    ("a form's key twice", lambda d: _log(d)["forms"][0][3].append(_log(d)["forms"][0][3][0]),
     "log.forms[0]"),
    ("a line not a list", lambda d: _log(d)["lines"].__setitem__(0, {"seq": 0}),
     "log.lines[0]"),
    ("an empty line", lambda d: _log(d)["lines"].__setitem__(0, []), "log.lines[0]"),
    ("a line's form out of range", lambda d: _log(d)["lines"][1].__setitem__(0, 10**6),
     "log.lines[1]"),
    ("a line's form negative", lambda d: _log(d)["lines"][1].__setitem__(0, -1),
     "log.lines[1]"),
    ("a line's form true", lambda d: _log(d)["lines"][1].__setitem__(0, True),
     "log.lines[1]"),
    ("a line with a value too many", lambda d: _log(d)["lines"][2].append(0), "log.lines[2]"),
    ("a line with a value too few", lambda d: _log(d)["lines"][2].pop(), "log.lines[2]"),
    ("packed dice words not base64", lambda d: d["dice"]["rng"].__setitem__(1, "!?"),
     "dice: bad generator state"),
    ("packed dice words cut short", lambda d: d["dice"]["rng"].__setitem__(
        1, d["dice"]["rng"][1][:-8]), "dice: bad generator state"),
]


@pytest.mark.parametrize("change, field", [(c, f) for _, c, f in COMPACT_DAMAGE],
                         ids=[name for name, _, _ in COMPACT_DAMAGE])
def test_restore_refuses_a_damaged_compact_log_naming_the_part(
        change: Callable[[Doc], None], field: str) -> None:
    doc = copy.deepcopy(refuelled())
    assert doc["carnage_snapshot"] == 2 and isinstance(doc["dice"]["rng"][1], str)
    carnage.restore(copy.deepcopy(doc))  # untouched, it restores
    change(doc)
    with pytest.raises(SnapshotError) as e:
        carnage.restore(doc)
    assert field in str(e.value)
