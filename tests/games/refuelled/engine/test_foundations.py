"""Dice sources, the event log, effects on hooks and decisions."""

from __future__ import annotations

from pathlib import Path

import pytest

from carnage.kernel.decisions import Decision, IllegalChoice, Interval, Option
from carnage.kernel.dice import DiceExhausted, ScriptedDice, SeededDice, SkidFace, skid_face
from carnage.kernel.effects import CANCEL, EffectRegistry
from carnage.kernel.events import Event, EventLog


def test_seeded_dice_reproducible_and_restorable() -> None:
    a, b = SeededDice(42), SeededDice(42)
    assert a.roll(10) == b.roll(10)
    saved = a.state()
    first = a.roll(5)
    a.restore(saved)
    assert a.roll(5) == first
    assert all(1 <= v <= 6 for v in SeededDice(1).roll(200))
    assert SeededDice(1).roll(20) != SeededDice(2).roll(20)


def test_scripted_dice_in_order_and_exhaustion() -> None:
    d = ScriptedDice([6, 1, 4])
    assert d.roll(2) == [6, 1]
    assert d.remaining == 1
    with pytest.raises(DiceExhausted, match="1 dice left, 2 were rolled"):
        d.roll(2)
    with pytest.raises(ValueError, match="not a face of a D6"):
        ScriptedDice([7]).roll(1)


def test_skid_faces_three_shifts() -> None:
    faces = [skid_face(i) for i in range(1, 7)]
    assert faces.count(SkidFace.SHIFT) == 3
    assert {SkidFace.HAZARD, SkidFace.SPIN, SkidFace.SLIDE} <= set(faces)
    with pytest.raises(ValueError):
        skid_face(0)


def test_event_log_roundtrip(tmp_path: Path) -> None:
    log = EventLog()
    log.emit("roll", source="skid_dice", page=21, dice=[4, 2], vehicle="car")
    log.emit("gear_change", source="shift", page=22, vehicle="car", gear=2)
    p = tmp_path / "game.jsonl"
    log.write(p)
    back = EventLog.read(p)
    assert [e.to_json() for e in back] == [e.to_json() for e in log]
    assert back.of_kind("roll")[0].data["dice"] == [4, 2]
    assert back.events[1].page == 22
    with pytest.raises(TypeError):
        log.emit("bad", thing=object())
    assert len(log) == 2  # the bad event was not appended
    with pytest.raises(ValueError, match="malformed event"):
        Event.from_json({"kind": "x"})


def test_run_event_priorities_replace_and_cancel() -> None:
    reg = EffectRegistry()
    reg.on("handling", "base", lambda v, c: v + 1)
    reg.on("handling", "first", lambda v, c: v * 10, priority=5)
    assert reg.run_event("handling", 2) == 21  # (2 * 10) + 1
    reg.on("handling", "noop", lambda v, c: None)
    assert reg.run_event("handling", 2) == 21
    reg.on("handling", "stop", lambda v, c: CANCEL if c.get("stop") else None, priority=9)
    assert reg.run_event("handling", 2, {"stop": True}) is CANCEL
    assert reg.remove_effect("stop") == 1
    assert reg.run_event("handling", 2, {"stop": True}) == 21
    assert reg.run_event("unknown", "same") == "same"


def test_decisions_validate_options_and_domains() -> None:
    d = Decision(0, "template", "pick", options=(Option("gentle"), Option("turn")))
    assert d.validate("turn") == "turn"
    with pytest.raises(IllegalChoice, match="'hairpin' is not a legal choice"):
        d.validate("hairpin")
    s = Decision(1, "spin", "angle", domain=Interval(-90, 90))
    assert s.validate(45) == 45.0
    with pytest.raises(IllegalChoice, match="outside"):
        s.validate(91)
    with pytest.raises(IllegalChoice, match="expected a number"):
        s.validate(True)
    with pytest.raises(ValueError):
        Decision(0, "x", "y")
