"""Aggression perks (Refuelled pp.104-105): each test runs the same table with and without the
perk, so it fails if the perk's effect is removed."""

from __future__ import annotations

from tests.builders import (
    activate,
    attack,
    collide,
    drive,
    ev,
    move,
    perked,
    rock,
    run_step,
    table,
    values,
    vehicle,
)

from carnage.games.refuelled.engine.game import Game


def _handguns(perks: tuple[str, ...], dice: list[int], crew: int = 4) -> Game:
    a = perked(vehicle("a", "car", 600, 300), *perks)
    a.crew = crew
    t = vehicle("t", "car", 600, 400, player=1)
    g = run_step(table(a, t), attack("a"), dice)
    drive(g, attack=["handgun>t"] * crew)
    return g


def test_double_barreled_first_three_crew_fired_attacks_hit_on_3() -> None:
    # Four Handgun attacks all rolling 3: the first three declared hit (3+), the fourth not.
    g = _handguns(("double_barreled",), [3, 3, 3, 3, 1])
    assert ev(g, "attack_hits")[0]["hits"] == 3
    assert len(ev(g, "perk", perk="double_barreled")) == 3
    assert g.state.vehicles["t"].damage == 3
    plain = _handguns((), [3, 3, 3, 3])
    assert ev(plain, "attack_hits")[0]["hits"] == 0


def test_double_barreled_skips_weapons_that_are_not_crew_fired() -> None:
    def shoot(perks: tuple[str, ...]) -> int:
        a = perked(vehicle("a", "car", 600, 300, weapons=[("machine_gun", "front")]), *perks)
        t = vehicle("t", "car", 600, 400, player=1)
        g = run_step(table(a, t), attack("a"), [3, 3, 3])
        drive(g, attack=["machine_gun#0>t", "stop"])
        return int(str(ev(g, "attack_hits")[0]["hits"]))

    assert shoot(("double_barreled",)) == shoot(()) == 0


def test_boarding_party_attacks_while_distracted() -> None:
    def first_decision(perks: tuple[str, ...]) -> list[object] | None:
        a = perked(vehicle("a", "car", 600, 300), *perks)
        t = vehicle("t", "car", 650, 300, player=1)
        g = run_step(table(a, t, obstacles=[rock("r", 600, 350)]), attack("a"))
        d = g.pending()
        return None if d is None else values(d)

    assert first_decision(()) is None  # touching the rock: Distracted, no attack (p.42)
    assert first_decision(("boarding_party",)) == ["stop", "handgun>t"]


def _head_on(a_perks: tuple[str, ...], *, a_gear: int = 2, hazards: int = 0,
             dice: list[int] | None = None) -> Game:
    a = perked(vehicle("a", "car", 600, 300, gear=a_gear, hazards=hazards), *a_perks)
    b = vehicle("b", "car", 600, 360, heading=270, player=1, gear=1)
    return run_step(table(a, b), collide("a", "b", active="a"), dice or [1] * 12)


def test_battlehammer_adds_a_smash_die_per_hazard() -> None:
    g = _head_on(("battlehammer",), hazards=3)
    drive(g, collision_reaction=["smash", "evade"])
    assert ev(g, "smash_attack")[0]["dice"] == 2 + 1 + 3  # head-on gears, +3 Hazards
    g = _head_on((), hazards=3)
    drive(g, collision_reaction=["smash", "evade"])
    assert ev(g, "smash_attack")[0]["dice"] == 3


def _lunatic(lx: float, lunatic_player: int, perk: bool = True) -> int:
    lunatic = vehicle("l", "car", lx, 570, heading=270, player=lunatic_player)
    if perk:
        perked(lunatic, "terrifying_lunatic")
    e = vehicle("e", "car", 600, 300, heading=90, player=1)
    g = run_step(table(e, lunatic), activate("e"))
    drive(g, template="medium_straight")
    assert g.pending() is None
    return g.state.vehicles["e"].hazards


def test_terrifying_lunatic_scares_an_enemy_ending_its_move_within_short_range() -> None:
    # The enemy's Medium Straight ends 30 mm from the lunatic's front edge.
    assert _lunatic(600, 0) == 1
    assert _lunatic(600, 0, perk=False) == 0
    assert _lunatic(900, 0) == 0  # out of Short range
    assert _lunatic(600, 1) == 0  # the same player's vehicle


def test_grinderman_turns_smash_damage_into_hazards() -> None:
    # Gear 3 + gear 1 head-on: 4 smash dice, three hits; the evade cancels none.
    def grind(perks: tuple[str, ...], answer: str | None) -> tuple[int, int]:
        g = _head_on(perks, a_gear=3, dice=[4, 4, 4, 1, 1])
        answers: dict[str, object] = {"collision_reaction": ["smash", "evade"]}
        if answer is not None:
            answers["grinderman"] = answer
        assert drive(g, **answers) is None
        b = g.state.vehicles["b"]
        return b.damage, b.hazards

    assert grind(("grinderman",), "yes") == (0, 3 + 2)
    assert grind(("grinderman",), "no") == (3, 2)
    assert grind((), None) == (3, 2)


def test_murder_tractor_may_declare_a_piledriver() -> None:
    def reactions(perks: tuple[str, ...]) -> list[object]:
        a = perked(vehicle("a", "car", 600, 300), *perks)
        buggy = vehicle("b", "buggy", 600, 400, heading=0, player=1)
        g = run_step(table(a, buggy), move("a"))
        d = drive(g, template="medium_straight")
        assert d is not None and d.kind == "collision_reaction"
        return values(d)

    assert reactions(("murder_tractor",)) == ["smash", "evade", "piledriver"]
    assert reactions(()) == ["smash", "evade"]
