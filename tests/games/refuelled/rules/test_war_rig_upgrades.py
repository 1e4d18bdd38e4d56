"""The War Rig Upgrades, Unlikely Stamina and Plot Immunity (Refuelled p.167) through the real
flow of a Savage Highways game, with scripted dice and exact poses."""

from __future__ import annotations

import pytest
from tests.builders import HAZ, SLIDE, armed, drive, ev, rock, vehicle
from tests.games.refuelled.rules.savage_table import placed, rig

from carnage.games.refuelled.engine.state import Status
from carnage.games.refuelled.rules import war_rig_upgrades as wru

FILL = [3] * 60
"""Dice nobody looks at (3: a miss, a failed evade, a Slide on a skid die)."""


def lost(g: object) -> list[str]:
    return [e["upgrade"] for e in ev(g, "war_rig_upgrade_lost")]


def test_upgrade_lists_are_checked_and_never_hold_two_of_the_same() -> None:
    assert wru.check_upgrades(["Fuel Pod", "cow-catcher"]) == ["fuel_pod", "cow_catcher"]
    with pytest.raises(wru.UpgradeError, match="not a War Rig Upgrade"):
        wru.check_upgrades(["turbo"])
    with pytest.raises(wru.UpgradeError, match="listed twice"):
        wru.check_upgrades(["selvaggio", "selvaggio"])
    g = placed("escape-the-city", rig(), dice=FILL, upgrades=("selvaggio",))
    with pytest.raises(wru.UpgradeError, match="has Selvaggio already"):
        wru.attach(g, "selvaggio")
    assert wru.attached(g) == ["selvaggio"]
    assert [e["upgrade"] for e in ev(g, "war_rig_upgrade")] == ["selvaggio"]


def two_cars_ahead(gear: int = 2, **kw: object) -> tuple[object, ...]:
    r = rig(600, 300, gear=gear, **kw)
    a = vehicle("a", "car", 585, 480, 270, player=1)
    b = vehicle("b", "car", 615, 480, 270, player=1)
    return r, a, b


def test_hangers_on_adds_four_crew_and_drops_off_after_two_collisions_in_one_move() -> None:
    r, a, b = two_cars_ahead()
    g = placed("escape-the-city", r, a, b, dice=FILL, upgrades=("hangers_on",))
    assert g.stat(r, "crew") == 5 + 4
    d = drive(g, tanker_anchor="move", template="medium_straight", collision_reaction="evade")
    assert d is not None and d.player == 1  # the rig's activation is over
    assert [e["other"] for e in ev(g, "collision")] == ["a", "b"]
    assert lost(g) == ["hangers_on"]
    assert ev(g, "war_rig_upgrade_lost")[0]["reason"] == "two Collisions in one activation"
    assert g.stat(r, "crew") == 5


def test_one_collision_keeps_the_hangers_on() -> None:
    r = rig(600, 300, gear=2)
    a = vehicle("a", "car", 600, 480, 270, player=1)
    g = placed("escape-the-city", r, a, dice=FILL, upgrades=("hangers_on",))
    drive(g, tanker_anchor="move", template="medium_straight", collision_reaction="evade")
    assert len(ev(g, "collision")) == 1 and lost(g) == [] and wru.has(g, "hangers_on")


def test_only_one_upgrade_is_removed_in_an_activation() -> None:
    r, a, b = two_cars_ahead()
    g = placed("escape-the-city", r, a, b, dice=FILL, upgrades=("hangers_on", "cow_catcher"))
    drive(g, tanker_anchor="move", template="medium_straight", collision_reaction="evade")
    # The first Head-on Collision with a Ganger takes the Cow Catcher; the second Collision
    # would take the Hangers On, but one upgrade has gone in this activation already.
    assert lost(g) == ["cow_catcher"]
    kept = ev(g, "war_rig_upgrade_kept")
    assert [k["upgrade"] for k in kept] == ["hangers_on"]
    assert wru.attached(g) == ["hangers_on"]


def test_selvaggio_trades_a_hull_point_for_every_hazard_once_per_round() -> None:
    r = rig(600, 300, hazards=3)
    g = placed("escape-the-city", r, vehicle("a", "car", 100, 1000, 270, player=1),
               dice=FILL, upgrades=("selvaggio",))
    drive(g, tanker_anchor="move", template="short_straight", selvaggio="yes")
    assert r.hazards == 0 and r.hull_points == 26 - 1
    assert ev(g, "selvaggio")[0]["hazards"] == 3
    # Once per round: in Gear Phase 2 (still round 1) it is not offered again.
    r.hazards = 2
    r.gear = 2
    d = drive(g, tanker_anchor="move", template=["short_straight", "short_straight"],
              activate="a", selvaggio="yes")
    assert d is None or d.kind != "selvaggio"
    assert sum(1 for e in g.log if e.kind == "decision" and e.data["decision"] == "selvaggio") \
        == 1


def test_selvaggio_goes_after_two_uncovered_shots_in_one_gear_phase() -> None:
    r = rig(600, 300)
    a = armed(vehicle("a", "car", 560, 700, 270, player=1), ("machine_gun", "front", None))
    b = armed(vehicle("b", "car", 640, 700, 270, player=1), ("machine_gun", "front", None))
    g = placed("escape-the-city", r, a, b, dice=FILL, upgrades=("selvaggio",), pole=1)
    drive(g, activate=["a", "b"], template="short_straight", tanker_anchor="move",
          attack=["machine_gun#0>rig", "stop", "stop", "machine_gun#0>rig", "stop"],
          selvaggio="no")
    shots = [e for e in ev(g, "declare_attack") if e["target"] == "rig"]
    assert len(shots) == 2 and not any(s["cover"] for s in shots)
    assert lost(g) == ["selvaggio"]


def test_fuel_pod_discards_a_skid_die() -> None:
    r = rig(600, 300)
    g = placed("escape-the-city", r, vehicle("a", "car", 100, 1000, 270, player=1),
               dice=[HAZ, SLIDE, *FILL], upgrades=("fuel_pod",))
    d = drive(g, tanker_anchor="move", template="short_straight", skid_dice=2, push_it="no")
    assert d is not None and d.kind == "fuel_pod"
    assert [o.value for o in d.options] == ["no", "discard:0", "discard:1", "reroll:0",
                                            "reroll:1"]
    g.apply("discard:1")
    drive(g)
    assert ev(g, "fuel_pod")[0] == {"vehicle": "rig", "die": 1, "discarded": "slide"}
    # the Hazard only: the Slide is gone
    assert ev(g, "skid_hazards", vehicle="rig")[0]["gained"] == 1


def test_fuel_pod_rerolls_a_skid_die() -> None:
    r = rig(600, 300)
    g = placed("escape-the-city", r, vehicle("a", "car", 100, 1000, 270, player=1),
               dice=[SLIDE, 5, *FILL], upgrades=("fuel_pod",))
    drive(g, tanker_anchor="move", template="short_straight", skid_dice=1, push_it="no",
          fuel_pod="reroll:0")
    assert ev(g, "fuel_pod")[0] == {"vehicle": "rig", "die": 0, "rerolled": "slide",
                                    "now": "shift"}
    assert not ev(g, "skid_hazards", vehicle="rig")


def test_fuel_pod_goes_after_a_tailgate_smash_with_no_dice() -> None:
    r = rig(600, 400)  # the trailer's rear edge at y = 210
    a = vehicle("a", "car", 600, 150, 90, player=1)  # front at 180: a Short Straight reaches
    g = placed("escape-the-city", r, a, dice=FILL, upgrades=("fuel_pod",), pole=1)
    drive(g, template="short_straight", collision_reaction="smash")
    col = ev(g, "collision")[0]
    assert col["orientation"] == "tailgate"
    assert ev(g, "smash_attack")[0]["dice"] == 0
    assert lost(g) == ["fuel_pod"]


def test_grease_monkey_gives_back_a_hull_point_for_an_evaded_hit() -> None:
    r = rig(600, 300)
    r.damage = 3
    a = armed(vehicle("a", "car", 600, 700, 270, player=1), ("machine_gun", "front", None))
    # two hits (4s), the rig's one evade die a 6
    g = placed("escape-the-city", r, a, dice=[4, 4, 6, *FILL], upgrades=("grease_monkey",),
               pole=1)
    drive(g, template="short_straight", attack=["machine_gun#0>rig", "stop"])
    rep = ev(g, "repair")
    assert rep == [{"vehicle": "rig", "amount": 1, "hull_points": 26 - 2}]
    assert r.damage == 3 - 1 + 1  # one back, then the hit it did not evade
    assert lost(g) == []


def test_grease_monkey_goes_when_blast_gives_the_rig_a_hazard() -> None:
    r = rig(600, 300)
    a = armed(vehicle("a", "car", 600, 500, 270, player=1), ("grenades", None, 5))
    g = placed("escape-the-city", r, a, dice=[5, 1, *FILL], upgrades=("grease_monkey",),
               pole=1)
    drive(g, template="short_straight", attack=["grenades#0>rig", "stop"])
    assert ev(g, "hazards", vehicle="rig")[0]["change"] == 1
    assert lost(g) == ["grease_monkey"]


def test_cow_catcher_makes_a_rock_destructible_once_per_round() -> None:
    r = rig(600, 300, gear=2)
    g = placed("escape-the-city", r, vehicle("a", "car", 100, 1000, 270, player=1),
               dice=FILL, upgrades=("cow_catcher",))
    g.state.obstacles["rock"] = rock("rock", 600, 420)
    d = drive(g, tanker_anchor="move", template="medium_straight")
    assert d is not None and d.kind == "cow_catcher" and d.target == "rock"
    g.apply("yes")
    drive(g, collision_reaction="evade")
    assert "rock" not in g.state.obstacles
    assert ev(g, "cow_catcher") == [{"vehicle": "rig", "obstacle": "rock"}]
    assert ev(g, "obstacle_removed")[0]["obstacle"] == "rock"
    assert wru.has(g, "cow_catcher")  # a rock is no Ganger vehicle


def test_unlikely_stamina_holds_the_rig_at_zero_until_its_last_upgrade_goes() -> None:
    r, a, b = two_cars_ahead()
    r.damage = 25  # 1 Hull Point left
    g = placed("escape-the-city", r, a, b, dice=[6] * 8 + [1] * 60, upgrades=("hangers_on",))
    drive(g, tanker_anchor="move", template="medium_straight",
          collision_reaction=["evade", "smash", "evade", "smash"])
    held = [e for e in ev(g, "unlikely_stamina") if e["held"]]
    assert held and held[0]["upgrades"] == ["hangers_on"]
    # The second Collision took the Hangers On: no upgrade and no Hull Points: Wrecked.
    assert lost(g) == ["hangers_on"]
    assert [e for e in ev(g, "unlikely_stamina") if not e["held"]]
    assert ev(g, "wrecked")[0]["vehicle"] == "rig"
    assert r.status in (Status.WRECKED, Status.REMOVED)
    assert g.outcome() is not None and g.outcome().winner == 1


def test_a_rig_at_zero_with_no_upgrade_is_wrecked_at_once() -> None:
    r = rig(600, 300)
    r.damage = 25
    a = armed(vehicle("a", "car", 600, 700, 270, player=1), ("machine_gun", "front", None))
    g = placed("escape-the-city", r, a, dice=[4, 4, 1, *FILL], pole=1)
    d = g.pending()  # no upgrade given: the set-up asks the Riggers for one
    assert d is not None and d.kind == "war_rig_upgrade" and d.player == 0
    assert [o.value for o in d.options] == list(wru.UPGRADES)
    g.apply("fuel_pod")
    wru.memory(g)["attached"].clear()  # and it is gone before the shot
    drive(g, template="short_straight", attack=["machine_gun#0>rig", "stop"])
    assert not ev(g, "unlikely_stamina")
    assert ev(g, "wrecked")[0]["vehicle"] == "rig"
    assert g.outcome() is not None and g.outcome().reason == "the War Rig was Wrecked"


def test_plot_immunity_the_death_ray_does_nothing_to_the_rig() -> None:
    r = rig(600, 300)
    a = armed(vehicle("a", "car", 600, 700, 270, player=1), ("death_ray", "front", 1))
    g = placed("escape-the-city", r, a, dice=[6, 6, 6, 1, *FILL], upgrades=("fuel_pod",),
               pole=1)
    drive(g, template="short_straight", attack=["death_ray#0>rig", "stop"])
    assert ev(g, "plot_immunity") == [{"vehicle": "rig", "hits": 6}]
    assert not ev(g, "death_ray") and not ev(g, "damage")
    assert r.in_play and r.hull_points == 26


def test_bots_answer_the_upgrades_questions_sensibly() -> None:
    r = rig(600, 300, hazards=5)
    g = placed("escape-the-city", r, vehicle("a", "car", 100, 1000, 270, player=1),
               dice=FILL, upgrades=("selvaggio",))
    d = drive(g, tanker_anchor="move", template="short_straight")
    assert d is not None and d.kind == "selvaggio"
    assert g.scenario.bot_choice(g, d) == "yes"
    r.hazards = 1
    assert g.scenario.bot_choice(g, d) == "no"
