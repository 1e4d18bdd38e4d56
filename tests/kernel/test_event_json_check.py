"""The event log refuses what would not replay as JSON, with or without the quick check."""

from __future__ import annotations

import json
import math
from enum import StrEnum

import pytest

from carnage.kernel.events import EventLog


class Colour(StrEnum):
    RED = "red"


def test_plain_values_are_logged_as_given() -> None:
    log = EventLog()
    ev = log.emit("roll", source="skid", page=12, a=1, b=2.5, c="x", d=None, e=True,
                  f=math.inf, g=Colour.RED, h=[1, {"k": (2, 3)}])
    assert ev.data["g"] == "red" and len(log) == 1
    json.dumps(ev.to_json())


@pytest.mark.parametrize("bad", [{1, 2}, object(), [1, {2}], {"k": object()}, {(1, 2): 3}])
def test_values_json_cannot_hold_are_refused(bad: object) -> None:
    log = EventLog()
    with pytest.raises(TypeError):
        log.emit("roll", value=bad)
    assert len(log) == 0


def test_a_kind_or_page_that_is_not_json_is_refused() -> None:
    log = EventLog()
    with pytest.raises(TypeError):
        log.emit(object(), value=1)
    with pytest.raises(TypeError):
        log.emit("roll", page=object(), value=1)
    assert len(log) == 0


def test_an_int_too_long_to_print_is_refused_as_json_refuses_it() -> None:
    huge = 10 ** 5000
    with pytest.raises(ValueError):
        json.dumps(huge)
    with pytest.raises(ValueError):
        EventLog().emit("roll", value=huge)


def test_lists_of_plain_values_pass_the_quick_check_and_bad_items_are_still_refused() -> None:
    log = EventLog()
    ev = log.emit("roll", dice=[1, 6, 3], faces=["shift", "hazard"], mixed=[None, 2.5, True])
    assert ev.data["dice"] == [1, 6, 3]
    with pytest.raises(TypeError):
        log.emit("roll", dice=[1, object()])
    with pytest.raises(ValueError):
        log.emit("roll", dice=[1, 10 ** 5000])
    assert len(log) == 1


def test_lists_of_dicts_pass_the_quick_check_and_bad_values_inside_are_still_refused() -> None:
    log = EventLog()
    hits = [{"weapon": "machine_gun#0", "hits": 2, "crits": [6, 6]}, {"weapon": "ram", "hits": 0}]
    ev = log.emit("attack_hits", weapons=hits, edges={"front": 1.5, "side": None})
    assert ev.data["weapons"] == hits and ev.data["edges"] == {"front": 1.5, "side": None}
    json.dumps(ev.to_json())
    for bad in ([{"weapon": object()}], [{"hits": [1, {2}]}], {"k": [object()]},
                [{"big": 10 ** 5000}], [[[[{1, 2}]]]]):
        with pytest.raises((TypeError, ValueError)):
            log.emit("attack_hits", weapons=bad)
    # Deeper than the quick check looks, or keyed by ints: left to json.dumps, as before.
    deep = log.emit("nested", value=[[[[1, 2]]]], counts={1: 2})
    assert deep.data["value"] == [[[[1, 2]]]] and deep.data["counts"] == {1: 2}
    assert len(log) == 2


def test_a_game_logs_its_own_data_and_hands_watchers_a_copy() -> None:
    from tests.builders import table, vehicle

    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.scenario import Scenario
    from carnage.rulesets import REFUELLED

    seen: list[dict[str, object]] = []

    def watcher(_: object, ctx: dict[str, object]) -> None:
        data = ctx["data"]
        assert isinstance(data, dict)
        seen.append(data)
        data["changed"] = True  # a watcher's own copy: the logged event keeps what was logged

    g = Game(ruleset=REFUELLED, state=table(vehicle("car", "car", 600, 300)), scenario=Scenario())
    g.attach_untracked("logged:pivot", "test", watcher)
    g.emit("pivot", source="test", vehicle="car", heading=90.0)
    g.emit("gear", source="test", vehicle="car")  # no watcher: nothing is called
    ev = g.log.of_kind("pivot")[0]
    assert ev.data == {"vehicle": "car", "heading": 90.0}
    assert seen == [{"vehicle": "car", "heading": 90.0, "changed": True}]
    assert g.count("pivot") == 1 and g.count("gear") >= 1
