"""Special rules plug in through the rulebook registry, never through the core."""

from __future__ import annotations

from typing import Any

import pytest
from tests.builders import run_step, table, vehicle

from carnage.engine import rulebook
from carnage.engine.game import Game
from carnage.engine.rulebook import install_rules, special_rule, unplayed_rules
from carnage.engine.state import VehicleState


def test_installers_run_once_per_vehicle_and_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulebook, "_RULES", {})
    calls: list[str] = []

    @special_rule("vehicle_rule", "test_nitrous")
    def nitrous(game: Game, v: VehicleState | None, source: str) -> None:
        calls.append(source)

        def plus_one(value: Any, ctx: dict[str, Any]) -> Any:
            return value + 1 if ctx["vehicle"] is v else None

        game.effects.on("stat:handling", source, plus_one)

    a = vehicle("a", "car", 100, 100, weapons=[("machine_gun", "front")])
    a.special_rules = ["test_nitrous", "test_nitrous"]
    b = vehicle("b", "car", 300, 100)
    st = table(a, b)
    g = run_step(st, lambda g: iter(()))
    assert calls == ["vehicle_rule:test_nitrous:a"]
    assert g.stat(a, "handling") == a.handling + 1
    assert g.stat(b, "handling") == b.handling
    assert "vehicle_rule:test_nitrous" not in unplayed_rules(g)
    assert "weapon:machine_gun" in unplayed_rules(g)


def test_sponsor_installers_run_per_player(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulebook, "_RULES", {})
    seen: list[str] = []
    special_rule("sponsor", "test_sponsor")(lambda g, v, s: seen.append(s))
    st = table(vehicle("a", "car", 100, 100))
    st.sponsors = [None, "test_sponsor"]
    run_step(st, lambda g: iter(()))
    assert seen == ["sponsor:test_sponsor:1"]


def test_double_registration_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulebook, "_RULES", {})
    special_rule("perk", "x")(lambda g, v, s: None)
    with pytest.raises(ValueError, match="registered twice"):
        special_rule("perk", "x")(lambda g, v, s: None)
    assert install_rules is rulebook.install_rules
