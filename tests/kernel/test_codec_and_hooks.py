"""The kernel's pieces on their own: the state codec, declared hooks, dice as JSON."""

from __future__ import annotations

import json
from collections.abc import Generator
from typing import Any

import pytest

import carnage
from carnage.games.refuelled.engine.state import Status
from carnage.geometry.shapes import Pose
from carnage.kernel.codec import CodecError, decode, encode
from carnage.kernel.dice import ScriptedDice, SeededDice, dice_from_json, dice_to_json
from carnage.kernel.effects import EffectRegistry, always
from carnage.kernel.hooks import (
    HookContextError,
    HookRegistry,
    UnknownHook,
    check_contexts,
    contexts_checked,
    hooks,
)


def test_codec_round_trips_dataclasses_enums_sets_tuples_and_int_keys() -> None:
    g = carnage.new_game(seed=2)
    for _ in range(12):
        d = g.pending()
        assert d is not None
        g.apply(d.options[0].value)
    g.state.memory["test"] = {"tags": {"x", "y"}, "pair": (3, 4), "by_seat": {0: "zero"},
                              "pose": Pose(1.5, -2.0, 90.0), "status": Status.WRECKED}
    back = decode(json.loads(json.dumps(encode(g.state))))
    assert back == g.state
    mem = back.memory["test"]
    assert isinstance(mem["pair"], tuple) and isinstance(mem["tags"], set)
    # A StrEnum stays an enum (not its string): identity checks on it keep working.
    assert mem["status"] is Status.WRECKED
    assert all(v.status is Status.ACTIVE for v in back.vehicles.values())


def test_codec_refuses_what_it_cannot_save_and_classes_outside_carnage() -> None:
    with pytest.raises(CodecError, match=r"state\.f: cannot save a function"):
        encode({"f": lambda: None})
    with pytest.raises(CodecError, match="not a finite number"):
        encode(float("inf"))
    with pytest.raises(CodecError, match="not a carnage class"):
        decode({"$d": "os:system", "f": {}})
    with pytest.raises(CodecError, match="fields do not match"):
        decode({"$d": "carnage.geometry.shapes:Pose", "f": {"x": 1}})


def test_a_registry_with_declared_hooks_refuses_misspelt_names() -> None:
    reg = HookRegistry(hooks(("movement_end", "flow", "vehicle", "the step is over"),
                             ("stat:*", "value", "vehicle", "derived values")))
    fx = EffectRegistry(hooks=reg)
    fx.on("movement_end", "x", lambda v, c: None)
    fx.on("stat:handling", "x", lambda v, c: None)  # a declared family
    with pytest.raises(UnknownHook, match="did you mean 'movement_end'"):
        fx.on("movment_end", "x", lambda v, c: None)
    with pytest.raises(UnknownHook):
        fx.run_event("nowhere", None)
    with pytest.raises(ValueError, match="declared twice"):
        HookRegistry(hooks(("a", "notice", "", ""), ("a", "notice", "", "")))
    wider = reg.extended(hooks(("gate", "notice", "vehicle", "a gate passed")))
    assert "gate" in wider and "gate" not in reg


def test_dice_save_where_they_stand() -> None:
    d = SeededDice(7)
    d.roll(5)
    doc = json.loads(json.dumps(dice_to_json(d, d.state())))
    again, _ = dice_from_json(doc)
    assert again.roll(10) == d.roll(10)
    s = ScriptedDice([1, 2, 3])
    s.roll(1)
    back, _ = dice_from_json(dice_to_json(s, s.state()))
    assert back.roll(2) == [2, 3]
    for bad in ({"kind": "loaded"}, {"kind": "seeded", "seed": True, "rng": []},
                {"kind": "scripted", "results": [1], "at": 5}, []):
        with pytest.raises(ValueError, match="dice"):
            dice_from_json(bad)


def _checked(*rows: tuple[str, Any, str, str]) -> EffectRegistry:
    fx = EffectRegistry(hooks=HookRegistry(hooks(*rows)))
    fx.checking = True
    return fx


def test_a_hook_run_with_a_field_it_does_not_declare_names_the_hook_and_the_field() -> None:
    fx = _checked(("evade_dice", "value", "vehicle", "evade dice"),
                  ("attack_roll", "flow", "attacker target", "dice rolled"))
    assert fx.run_event("evade_dice", 2, {"game": None, "vehicle": "car"}) == 2
    with pytest.raises(HookContextError,
                       match=r"hook 'evade_dice' was run with the field 'gear', which it does "
                             r"not declare \(declared: vehicle"):
        fx.run_event("evade_dice", 2, {"game": None, "vehicle": "car", "gear": 3})
    with pytest.raises(HookContextError, match=r"hook 'attack_roll' .* field 'weapon'"):
        fx.due("attack_roll", {"game": None, "attacker": 1, "target": 2, "weapon": "x"})


def test_a_hook_run_without_a_required_field_names_the_hook_and_the_field() -> None:
    fx = _checked(("min_gear", "value", "forced? vehicle", "the lowest gear"),
                  ("stat:*", "value", "vehicle", "derived values"))
    # An optional field may be left out or passed.
    assert fx.run_event("min_gear", 1, {"game": None, "vehicle": "car"}) == 1
    assert fx.run_event("min_gear", 1, {"game": None, "vehicle": "car", "forced": True}) == 1
    with pytest.raises(HookContextError,
                       match="hook 'min_gear' was run without its required field 'vehicle'"):
        fx.run_event("min_gear", 1, {"game": None, "forced": True})
    with pytest.raises(HookContextError, match=r"hook 'min_gear' .* required field 'game'"):
        fx.run_event("min_gear", 1, {"vehicle": "car"})
    # A family of hooks is checked under the name it was run with.
    with pytest.raises(HookContextError, match=r"hook 'stat:crew' .* required field 'vehicle'"):
        fx.run_event("stat:crew", 2, {"game": None})


def test_context_checking_is_off_unless_switched_on() -> None:
    try:
        check_contexts(False)
        fx = EffectRegistry(hooks=HookRegistry(hooks(("gate", "notice", "vehicle", ""))))
        assert not fx.checking
        fx.run_event("gate", None, {"game": None, "anything": 1})  # not checked: no error
    finally:
        check_contexts(True)
    assert EffectRegistry().checking  # the test suite checks every game it plays


def test_the_test_suite_plays_with_checked_contexts() -> None:
    g = carnage.new_game(seed=3)
    assert g.effects.checking and contexts_checked()


def test_a_handler_about_a_vehicle_runs_only_for_that_vehicle() -> None:
    fx = EffectRegistry()
    mine, other = object(), object()
    seen: list[object] = []

    def plus_one(value: int, ctx: dict[str, Any]) -> int:
        seen.append(ctx.get("vehicle"))
        return value + 1

    fx.on("evade_dice", "perk:x:a", plus_one, about=mine)
    assert fx.run_event("evade_dice", 2, {"vehicle": mine}) == 3
    assert fx.run_event("evade_dice", 2, {"vehicle": other}) == 2
    assert fx.run_event("evade_dice", 2, {}) == 2
    assert seen == [mine]  # not even called for the other vehicle
    # ``about=None``: the contexts without a vehicle (as ``ctx.get("vehicle") is None``).
    fx.on("cover", "scenario:y", lambda v, c: v + 10, about=None)
    assert fx.run_event("cover", 0, {"vehicle": None}) == 10
    assert fx.run_event("cover", 0, {}) == 10
    assert fx.run_event("cover", 0, {"vehicle": mine}) == 0
    # Another field of the context: ``key``.
    fx.on("to_hit", "perk:z:a", lambda v, c: v - 1, about=mine, key="attacker")
    assert fx.run_event("to_hit", 1, {"attacker": mine, "vehicle": other}) == 0
    assert fx.run_event("to_hit", 1, {"attacker": other, "vehicle": mine}) == 1


def test_a_flow_about_a_vehicle_is_due_only_for_that_vehicle() -> None:
    fx = EffectRegistry()
    mine, other = object(), object()

    def flow(g: Any, ctx: dict[str, Any]) -> Generator[Any, Any, bool]:
        return False
        yield

    fx.add_flow("movement_start", "vehicle_rule:jet:a", always(flow), about=mine)
    assert [f for _, _, f in fx.due("movement_start", {"vehicle": mine})] == [flow]
    assert fx.due("movement_start", {"vehicle": other}) == []


def test_a_hook_is_idle_only_with_no_handler_and_unchecked_contexts() -> None:
    # Hot callers skip an idle hook without building its context (EffectRegistry.idle): it
    # must be idle only when running it would hand the value back unchanged and check nothing.
    try:
        check_contexts(False)
        fx = EffectRegistry(hooks=HookRegistry(hooks(("gate", "value", "vehicle", ""))))
        assert fx.idle("gate")
        assert fx.run_event("gate", 3, {"game": None, "vehicle": "car"}) == 3
        with pytest.raises(UnknownHook):
            fx.idle("gat")  # a misspelt name is refused as run_event refuses it
        fx.on("gate", "test", lambda value, ctx: value + 1)
        assert not fx.idle("gate")
        assert fx.run_event("gate", 3, {"game": None, "vehicle": "car"}) == 4
        fx.remove_effect("test")
        assert fx.idle("gate")  # its handlers gone, the hook is idle again
    finally:
        check_contexts(True)
    checked = EffectRegistry(hooks=HookRegistry(hooks(("gate", "value", "vehicle", ""))))
    assert not checked.idle("gate")  # checked contexts: the hook runs, and its context is checked
    assert EffectRegistry().idle("anything")  # a bare registry declares (and checks) nothing
