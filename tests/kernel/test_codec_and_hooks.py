"""The kernel's pieces on their own: the state codec, declared hooks, dice as JSON."""

from __future__ import annotations

import json

import pytest

import carnage
from carnage.games.refuelled.engine.state import Status
from carnage.geometry.shapes import Pose
from carnage.kernel.codec import CodecError, decode, encode
from carnage.kernel.dice import ScriptedDice, SeededDice, dice_from_json, dice_to_json
from carnage.kernel.effects import EffectRegistry
from carnage.kernel.hooks import HookRegistry, UnknownHook, hooks


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
