"""Special rules plug in through the ruleset's rule table, never through the core; two rulesets
never see each other's rules."""

from __future__ import annotations

from typing import Any

import pytest
from tests.builders import run_step, table, vehicle

from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.rulebook import unplayed_rules
from carnage.games.refuelled.engine.state import VehicleState
from carnage.kernel.rules import RuleTable
from carnage.rulesets import REFUELLED, RULESETS, refuelled_ruleset


def test_installers_run_once_per_vehicle_and_id() -> None:
    table_ = RuleTable()
    calls: list[str] = []

    @table_.rule("vehicle_rule", "test_nitrous")
    def nitrous(game: Game, v: VehicleState | None, source: str) -> None:
        calls.append(source)

        def plus_one(value: Any, ctx: dict[str, Any]) -> Any:
            return value + 1 if ctx["vehicle"] is v else None

        game.effects.on("stat:handling", source, plus_one)

    ruleset = refuelled_ruleset(name="test", rules=table_)
    a = vehicle("a", "car", 100, 100, weapons=[("machine_gun", "front")])
    a.special_rules = ["test_nitrous", "test_nitrous"]
    b = vehicle("b", "car", 300, 100)
    g = run_step(table(a, b), lambda g: iter(()), ruleset=ruleset)
    assert calls == ["vehicle_rule:test_nitrous:a"]
    assert g.stat(a, "handling") == a.handling + 1
    assert g.stat(b, "handling") == b.handling
    assert "vehicle_rule:test_nitrous" not in unplayed_rules(g)
    assert "weapon:machine_gun" in unplayed_rules(g)
    # Refuelled itself never heard of it, and plays the machine gun.
    a2 = vehicle("a", "car", 100, 100, weapons=[("machine_gun", "front")])
    a2.special_rules = ["test_nitrous"]
    g2 = run_step(table(a2, vehicle("b", "car", 300, 100)), lambda g: iter(()))
    assert g2.stat(a2, "handling") == a2.handling and calls == ["vehicle_rule:test_nitrous:a"]
    assert unplayed_rules(g2) == ["vehicle_rule:test_nitrous"]


def test_sponsor_installers_run_per_player() -> None:
    table_ = RuleTable()
    seen: list[str] = []
    table_.rule("sponsor", "test_sponsor")(lambda g, v, s: seen.append(s))
    st = table(vehicle("a", "car", 100, 100))
    st.sponsors = [None, "test_sponsor"]
    run_step(st, lambda g: iter(()), ruleset=refuelled_ruleset(rules=table_))
    assert seen == ["sponsor:test_sponsor:1"]


def test_double_registration_is_an_error() -> None:
    table_ = RuleTable()
    table_.rule("perk", "x")(lambda g, v, s: None)
    with pytest.raises(ValueError, match="registered twice"):
        table_.rule("perk", "x")(lambda g, v, s: None)


def test_a_second_ruleset_registers_beside_refuelled_without_touching_it() -> None:
    variant = refuelled_ruleset(name="variant", title="A variant",
                                rules=REFUELLED.rules.with_rules({("weapon", "handgun"): None}),
                                parent="refuelled")
    both = RULESETS.with_ruleset(variant)
    assert set(both) == set(RULESETS) | {"variant"} and "variant" not in RULESETS
    assert both["variant"].rules.get("weapon", "handgun") is None
    assert REFUELLED.rules.get("weapon", "handgun") is not None
    with pytest.raises(KeyError, match="unknown ruleset 'nope'"):
        both["nope"]


def test_a_misspelt_hook_fails_where_it_is_installed() -> None:
    table_ = RuleTable()

    @table_.rule("vehicle_rule", "typo")
    def typo(game: Game, v: VehicleState | None, source: str) -> None:
        game.effects.on("movment_end", source, lambda value, ctx: None)

    a = vehicle("a", "car", 100, 100)
    a.special_rules = ["typo"]
    with pytest.raises(ValueError, match=r"no hook named .movment_end.*movement_end"):
        run_step(table(a), lambda g: iter(()), ruleset=refuelled_ruleset(rules=table_))


def test_rules_of_different_families_at_one_moment_are_ordered_by_the_active_player() -> None:
    # p.14: effects that happen at the same moment resolve in the order the active player
    # chooses, whichever family they come from (here a vehicle rule and an upgrade).
    from carnage.games.refuelled.engine.game import Flow
    from carnage.kernel.effects import always, run_flows

    table_ = RuleTable()

    def says(word: str) -> Any:
        def flow(g: Game, ctx: dict[str, Any]) -> Flow:
            g.emit("said", source=word, word=word)
            yield from ()
        return flow

    @table_.rule("vehicle_rule", "shout")
    def shout(game: Game, v: VehicleState | None, source: str) -> None:
        game.effects.add_flow("movement_end", source, always(says("shout")), about=v)

    @table_.rule("upgrade", "horn")
    def horn(game: Game, v: VehicleState | None, source: str) -> None:
        game.effects.add_flow("movement_end", source, always(says("horn")), about=v)

    ruleset = refuelled_ruleset(rules=table_)

    def step(g: Game) -> Flow:
        g.state.active = "a"
        yield from run_flows(g, "movement_end", {"game": g, "vehicle": g.state.vehicles["a"]})

    def game(order: int | None) -> tuple[Game, list[str]]:
        a = vehicle("a", "car", 100, 100, player=1)
        a.special_rules, a.upgrades = ["shout"], ["horn"]
        g = run_step(table(vehicle("b", "car", 400, 400), a), step, ruleset=ruleset)
        d = g.pending()
        assert d is not None and d.kind == "effect_order" and d.player == 1 and d.page == 14
        assert d.vehicle == "a" and len(d.options) == 2
        g.apply(order)
        return g, [str(e.data["word"]) for e in g.log.of_kind("said")]

    first = game(0)
    assert first[1] == ["shout", "horn"]
    assert game(1)[1] == ["horn", "shout"]
    # One rule alone at the moment asks nothing.
    a = vehicle("a", "car", 100, 100, player=1)
    a.special_rules = ["shout"]
    g = run_step(table(vehicle("b", "car", 400, 400), a), step, ruleset=ruleset)
    assert g.pending() is None and [e.data["word"] for e in g.log.of_kind("said")] == ["shout"]
