"""Odds of a pending decision (pending.py), on exact tables through the real flow:
an attack declaration in and out of cover, a collision reaction before and after the other
party has reacted, and the skid dice count."""

from __future__ import annotations

from tests.builders import (
    activate,
    armed,
    attack_game,
    collide,
    play,
    rock,
    run_step,
    table,
    vehicle,
)
from tests.games.refuelled.engine.test_collision import t_bone_table

from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.odds import Side, attack_odds, skid_odds, smash_odds
from carnage.games.refuelled.pending import pending_odds


def shooting(wall: bool) -> tuple[Game, VehicleState]:
    car = armed(vehicle("car", "car", 300, 300, 90, player=0, gear=2),
                ("heavy_machine_gun", "front", None))
    red = vehicle("red", "car", 300, 600, 270, player=1, gear=3)
    obstacles = [rock("wall", 300, 420, length=200, width=20)] if wall else []
    return attack_game(table(car, red, obstacles=obstacles), "car"), car


def test_attack_declaration_odds_in_and_out_of_cover() -> None:
    for wall in (False, True):
        g, car = shooting(wall)
        d = g.pending()
        assert d is not None and d.kind == "attack"
        assert [o.value for o in d.options] == ["stop", "heavy_machine_gun#0>red"]
        [hmg] = pending_odds(g, d, car)
        assert (hmg.option, hmg.detail["dice"], hmg.detail["cover"]) == (
            "heavy_machine_gun#0>red", 3, wall)
        assert hmg.detail["evade_gear"] == 3  # red's gear: its evade dice
        assert hmg.odds == attack_odds(3, evade_gear=3, cover=wall).to_json()


def test_collision_reaction_odds_before_and_after_the_other_reacts() -> None:
    # p.57: a gear 5 middleweight car T-bones a gear 2 lightweight buggy.
    g = run_step(t_bone_table(), collide("car", "buggy"))
    car, buggy = g.state.vehicles["car"], g.state.vehicles["buggy"]
    d = g.pending()
    assert d is not None and d.kind == "collision_reaction"
    first = {o.option: o for o in pending_odds(g, d, car)}
    assert set(first) == {"smash", "evade"}
    smash = first["smash"]
    assert smash.detail == {"orientation": "t_bone", "other": "buggy", "obstacle": False,
                            "other_reaction": None}
    assert set(smash.odds) == {"smash", "evade"}  # the buggy has yet to react
    want = smash_odds("t_bone", Side(5, 2, "smash"), Side(2, 1, "evade"))
    assert smash.odds["evade"]["other"] == want.b.to_json()
    assert smash.odds["evade"]["other"]["distribution"] == \
        attack_odds(7, evade_gear=2).damage.floats()
    play(g, "smash")
    d2 = g.pending()
    assert d2 is not None and d2.kind == "collision_reaction" and d2.player == 1
    second = {o.option: o for o in pending_odds(g, d2, buggy)}
    assert second["evade"].detail["other_reaction"] == "smash"
    assert set(second["evade"].odds) == {"smash"}
    mine = second["smash"].odds["smash"]["self"]
    assert mine == smash_odds("t_bone", Side(2, 1), Side(5, 2)).a.to_json()
    assert mine["smash_dice"] == 1  # T-bone: its own gear 2, one class lighter -1


def test_skid_dice_odds_per_count_from_the_hazards_on_the_vehicle() -> None:
    v = vehicle("car", "car", 600, 300, 90, player=0, gear=2, hazards=3)
    g = run_step(table(v), activate("car"))
    d = g.pending()
    assert d is not None and d.kind == "template"
    g.apply(d.options[0].value)
    d = g.pending()
    assert d is not None and d.kind == "skid_dice"
    use = g.log.of_kind("template")[-1].data["use"]
    out = pending_odds(g, d, v)
    assert [o.option for o in out] == [o.value for o in d.options] == [0, 1, 2, 3]  # Handling 3
    for o in out:
        assert o.detail["hazards"] == v.hazards == 3 + (1 if use == "H" else 0)
        assert o.detail["trivial"] is (use == "T")
        want = skid_odds(int(o.option), hazards=v.hazards, trivial=use == "T")
        assert {k: x for k, x in o.odds.items() if k != "push_it"} == want.to_json()
        assert o.odds["push_it"] == skid_odds(int(o.option), push_it=True, hazards=v.hazards,
                                              trivial=use == "T").to_json()


def test_decisions_without_dice_have_no_odds() -> None:
    v = vehicle("car", "car", 600, 300, 90, player=0, gear=2)
    g = run_step(table(v), activate("car"))
    d = g.pending()
    assert d is not None and d.kind == "template"
    assert pending_odds(g, d, v) == []
    assert pending_odds(g, d, None) == []


def test_in_a_kart_game_attacks_and_collisions_give_hazards() -> None:
    from carnage.games.kart.odds import kart_attack_odds, kart_smash_odds
    from carnage.rulesets import KART

    # The Item Attack: the same heavy machine gun at red (gear 3, 4 Hazards), no wall.
    car = armed(vehicle("car", "car", 300, 300, 90, player=0, gear=2),
                ("heavy_machine_gun", "front", None))
    red = vehicle("red", "car", 300, 600, 270, player=1, gear=3, hazards=4)
    g = attack_game(table(car, red), "car", ruleset=KART)
    d = g.pending()
    assert d is not None and d.kind == "attack"
    [hmg] = pending_odds(g, d, car)
    assert hmg.odds == kart_attack_odds(3, evade_gear=3, hazards=4).to_json()
    assert hmg.odds["p_wipeout"] > 0 and "expected_damage" not in hmg.odds
    # The p.57 T-bone between karts: the variant's dice (5 + 1) and the flat Hazard.
    g = run_step(t_bone_table(), collide("car", "buggy"), ruleset=KART)
    kcar = g.state.vehicles["car"]
    d = g.pending()
    assert d is not None and d.kind == "collision_reaction"
    smash = {o.option: o for o in pending_odds(g, d, kcar)}["smash"]
    want = kart_smash_odds("t_bone", Side(5, 2, "smash"), Side(2, 1, "evade")).to_json()
    assert smash.odds["evade"] == {"self": want["a"], "other": want["b"]}
    assert smash.odds["evade"]["self"]["smash_dice"] == 6
    # The same table under Refuelled's rules: damage, as before.
    g = run_step(t_bone_table(), collide("car", "buggy"))
    d = g.pending()
    assert d is not None
    plain = {o.option: o for o in pending_odds(g, d, g.state.vehicles["car"])}["smash"]
    assert plain.odds["evade"]["self"]["smash_dice"] == 7
