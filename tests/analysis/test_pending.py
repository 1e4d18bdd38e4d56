"""Odds of a pending decision (pending.py), on exact tables through the real flow:
an attack declaration in and out of cover, a collision reaction before and after the other
party has reacted, and the skid dice count."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

from tests.builders import (
    activate,
    armed,
    attack,
    attack_game,
    collide,
    drive,
    ev,
    perked,
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


def _offered(g: Any, d: Any, ruleset: Any) -> dict[Any, dict[str, Any]]:
    """The pending odds the table shows, through the ruleset's ``TableOffer.pending_odds``."""
    offer = ruleset.table.pending_odds
    assert offer is not None
    return {o["option"]: o for o in offer.odds(g, d)}


def test_in_a_kart_game_attacks_and_collisions_give_hazards() -> None:
    from carnage.games.kart.odds import kart_attack_odds, kart_smash_odds
    from carnage.games.kart.pending import KART_DICE
    from carnage.rulesets import KART, REFUELLED

    # The Item Attack: the same heavy machine gun at red (gear 3, 4 Hazards), no wall.
    car = armed(vehicle("car", "car", 300, 300, 90, player=0, gear=2),
                ("heavy_machine_gun", "front", None))
    red = vehicle("red", "car", 300, 600, 270, player=1, gear=3, hazards=4)
    g = attack_game(table(car, red), "car", ruleset=KART)
    d = g.pending()
    assert d is not None and d.kind == "attack"
    [hmg] = pending_odds(g, d, car, KART_DICE)
    assert hmg.odds == kart_attack_odds(3, evade_gear=3, hazards=4).to_json()
    assert hmg.odds["p_wipeout"] > 0 and "expected_damage" not in hmg.odds
    assert [o["odds"] for o in _offered(g, d, KART).values()] == [hmg.odds]
    assert "expected_damage" in pending_odds(g, d, car)[0].odds  # Refuelled's model: damage
    # The p.57 T-bone between karts: the variant's dice (5 + 1) and the flat Hazard.
    g = run_step(t_bone_table(), collide("car", "buggy"), ruleset=KART)
    kcar = g.state.vehicles["car"]
    d = g.pending()
    assert d is not None and d.kind == "collision_reaction"
    smash = {o.option: o for o in pending_odds(g, d, kcar, KART_DICE)}["smash"]
    want = kart_smash_odds("t_bone", Side(5, 2, "smash"), Side(2, 1, "evade")).to_json()
    assert smash.odds["evade"] == {"self": want["a"], "other": want["b"]}
    assert smash.odds["evade"]["self"]["smash_dice"] == 6
    assert _offered(g, d, KART)["smash"]["odds"] == smash.odds
    # The same table under Refuelled's rules: damage, as before.
    g = run_step(t_bone_table(), collide("car", "buggy"))
    d = g.pending()
    assert d is not None
    plain = {o.option: o for o in pending_odds(g, d, g.state.vehicles["car"])}["smash"]
    assert plain.odds["evade"]["self"]["smash_dice"] == 7
    assert _offered(g, d, REFUELLED)["smash"]["odds"] == plain.odds


def _dead_eye_shot(dice: list[int]) -> Game:
    """A machine gun (2 dice) with Dead Eye at a gear 1 car 140 mm beyond its front edge:
    beyond Medium, within Double, so it hits on 3+ (p.109); one evade die."""
    v = perked(vehicle("v", "car", 600, 300, weapons=[("machine_gun", "front")]), "dead_eye")
    t = vehicle("t", "car", 600, 500, player=1, gear=1)
    return run_step(table(v, t), attack("v"), dice)


def test_attack_odds_include_a_perks_to_hit_bonus_and_equal_the_engines_resolution() -> None:
    g = _dead_eye_shot([])
    d = g.pending()
    assert d is not None and d.kind == "attack"
    [mg] = pending_odds(g, d, g.state.vehicles["v"])
    assert mg.detail["modifiers"] == {"to_hit_bonus": 1, "evade_dice": 1, "evade_bonus": 0,
                                      "evasive": False}
    assert mg.odds == attack_odds(2, evade_gear=1, to_hit_bonus=1).to_json()
    assert mg.odds != attack_odds(2, evade_gear=1).to_json()
    assert g.pending() is d and not g.log.of_kind("roll")  # asking rolled nothing
    # Every roll of the two attack dice and the evade die, through the engine.
    lost: Counter[int] = Counter()
    for roll in product(range(1, 7), repeat=3):
        played = _dead_eye_shot(list(roll))
        assert drive(played, attack=["machine_gun#0>t", "stop"]) is None
        lost[sum(int(str(e["amount"])) for e in ev(played, "damage", vehicle="t"))] += 1
    engine = {str(k): str(Fraction(lost[k], 6 ** 3)) for k in range(max(lost) + 1)}
    assert mg.odds["exact"]["distribution"] == engine


def test_skid_odds_follow_a_perk_that_stops_shifts_discarding_hazards() -> None:
    # Unnerving Eye Contact (p.111): an enemy within Short of it may not spend Shifts to
    # discard Hazard Tokens, so a car on 3 Hazards keeps them whatever it rolls.
    car = vehicle("car", "car", 300, 300, 90, player=0, hazards=3)
    eye = perked(vehicle("eye", "car", 360, 300, 90, player=1), "unnerving_eye_contact")
    g = run_step(table(car, eye), activate("car"), [6] * 10)
    play(g, "short_straight")
    d = g.pending()
    assert d is not None and d.kind == "skid_dice"
    odds = {o.option: o for o in pending_odds(g, d, car)}
    assert odds[2].detail["modifiers"]["hazard_discard"] is False
    # A Short Straight is trivial: a bonus Shift (p.40).
    want = skid_odds(2, trivial=True, hazards=3, hazard_discard=False)
    assert odds[2].odds["exact"] == want.to_json()["exact"]
    assert odds[2].odds != skid_odds(2, trivial=True, hazards=3).to_json()
    assert want.hazards_after.at_least(3) == 1  # the Shifts discard nothing
    # Through the engine: three Shifts (two 6s and the bonus) leave the Hazards on it.
    drive(g, skid_dice=2)
    assert car.hazards == 3
