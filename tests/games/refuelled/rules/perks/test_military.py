"""Military perks (Refuelled p.109), each with and without the perk."""

from __future__ import annotations

from tests.builders import (
    activate,
    attack,
    drive,
    ev,
    perked,
    play,
    run_step,
    table,
    values,
    vehicle,
)

from carnage.games.refuelled.engine.game import Game, RuleOptions


def _mg(perks: tuple[str, ...], target_y: float, dice: list[int], **answers: object) -> Game:
    v = perked(vehicle("v", "car", 600, 300, weapons=[("machine_gun", "front")]), *perks)
    t = vehicle("t", "car", 600, target_y, player=1)
    g = run_step(table(v, t), attack("v"), dice)
    assert drive(g, attack=["machine_gun#0>t", "stop"], **answers) is None
    return g


def hits(g: Game) -> int:
    return int(str(ev(g, "attack_hits", vehicle="v")[0]["hits"]))


def test_dead_eye_hits_on_3_beyond_medium_within_double() -> None:
    # 3s hit only with the bonus; the target 200 mm away (gap 140 mm) is beyond Medium.
    assert hits(_mg(("dead_eye",), 500, [3, 3, 1, 1])) == 2
    assert hits(_mg((), 500, [3, 3])) == 0
    assert hits(_mg(("dead_eye",), 400, [3, 3])) == 0  # gap 40 mm: within Medium


def test_dead_eye_measures_medium_range_with_the_range_ruler() -> None:
    # "Within Medium" is judged as the attack judges range: the ruler laid from the weapon's
    # body in its arc (p.28), not the gap between footprints.
    def shot(facing: str, x: float, y: float, perks: tuple[str, ...], dice: list[int],
             heading: float = 90.0) -> int:
        v = perked(vehicle("v", "car", 600, 300, weapons=[("machine_gun", facing)]), *perks)
        t = vehicle("t", "car", x, y, heading, player=1)
        g = run_step(table(v, t), attack("v"), dice)
        assert drive(g, attack=["machine_gun#0>t", "stop"]) is None
        return hits(g)

    # 80 mm aside and 145 mm on, turned 135 degrees: a 112 mm gap, but no Medium ruler laid
    # in the front arc reaches it, so it is beyond Medium: 3s hit (a Double ruler does).
    assert shot("front", 680, 445, ("dead_eye",), [3, 3, 1, 1], 135) == 2
    assert shot("front", 680, 445, (), [3, 3, 1, 1], 135) == 0
    # Dead ahead with a 125 mm gap: a turret's Medium ruler, laid slanting from a corner,
    # still reaches it, so it is within Medium: no bonus.
    assert shot("turret", 600, 485, ("dead_eye",), [3, 3, 1, 1]) == 0
    assert shot("turret", 600, 560, ("dead_eye",), [3, 3, 1, 1]) == 2  # 200 mm: beyond


def test_loader_trades_a_crew_attack_for_plus_one_to_hit() -> None:
    def play(answer: str, dice: list[int]) -> Game:
        v = perked(vehicle("v", "car", 600, 300, weapons=[("machine_gun", "front")]), "loader")
        t = vehicle("t", "car", 600, 560, player=1)
        g = run_step(table(v, t), activate("v"), dice)
        assert drive(g, template="short_straight", loader=answer,
                     attack=["machine_gun#0>t", "stop"]) is None
        return g

    g = play("machine_gun#0", [3, 3, 1, 1])
    assert hits(g) == 2
    # Crew 2 - 1: after the Machine Gun no attack is left, so no "stop" was asked.
    assert [d["decision"] for d in ev(g, "decision")][-2:] == ["loader", "attack"]
    assert hits(play("no", [3, 3])) == 0


def test_fully_loaded_adds_a_die_while_three_ammo_remain() -> None:
    def dice(perks: tuple[str, ...], ammo: int) -> int:
        v = perked(vehicle("v", "car", 600, 300, weapons=[("rockets", "front")]), *perks)
        v.weapons[0].ammo = ammo
        t = vehicle("t", "car", 600, 400, player=1)
        g = run_step(table(v, t), attack("v"), [1] * 8)
        drive(g, attack=["rockets#0>t", "stop"])
        report = ev(g, "attack_hits", vehicle="v")[0]["weapons"]
        return len(report[0]["dice"])

    assert dice(("fully_loaded",), 3) == 7
    assert dice(("fully_loaded",), 2) == 6
    assert dice((), 3) == 6


def test_rapid_fire_takes_another_attack_step_with_one_weapon_once_a_round() -> None:
    v = perked(vehicle("v", "car", 600, 300, weapons=[("machine_gun", "front")]), "rapid_fire")
    t = vehicle("t", "car", 600, 560, player=1)
    g = run_step(table(v, t), activate("v"), [1] * 20)
    d = drive(g, template="short_straight", attack=["machine_gun#0>t", "stop"])
    assert d is not None and d.kind == "rapid_fire" and values(d) == ["no", "machine_gun#0"]
    g.apply("machine_gun#0")
    d = g.pending()
    # Only the Machine Gun in the extra Attack Step: no Handgun.
    assert d is not None and d.kind == "attack" and values(d) == ["stop", "machine_gun#0>t"]
    g.apply("machine_gun#0>t")
    assert drive(g) is None  # once per round: not offered again
    assert len(ev(g, "attack_hits", vehicle="v")) == 2
    assert ev(g, "extra_attack_step")[0]["perk"] == "rapid_fire"


def test_headshot_criticals_are_three_hits() -> None:
    def play(perks: tuple[str, ...]) -> int:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        t = vehicle("t", "car", 600, 400, player=1)
        g = run_step(table(v, t), attack("v"), [6, 1])
        drive(g, attack=["handgun>t", "stop"])
        return t.damage

    assert play(("headshot",)) == 3
    assert play(()) == 2


def test_return_fire_shoots_back_for_two_hazards_once_a_gear_phase() -> None:
    def play(perks: tuple[str, ...], answer: str | None) -> tuple[int, int, int]:
        v = perked(vehicle("v", "car", 600, 400), *perks)
        e = vehicle("e", "car", 600, 300, player=1)
        # e's Handgun misses (1); v fires back: 6 hits twice, e evades with 1.
        g = run_step(table(v, e), attack("e"), [1, 6, 1])
        answers: dict[str, object] = {"attack": ["handgun>v", "stop"]}
        if answer is not None:
            answers["return_fire"] = answer
        d = drive(g, **answers)
        if d is not None and d.kind == "attack" and d.player == 0:
            g.apply("handgun>e")
            d = drive(g, attack=["stop"])
        assert d is None
        return v.hazards, e.damage, len(ev(g, "decision", decision="return_fire"))

    assert play(("return_fire",), "yes") == (2, 2, 1)
    assert play(("return_fire",), "no") == (0, 0, 1)
    assert play((), None) == (0, 0, 0)


def test_at_a_real_table_dead_eye_takes_the_range_the_people_give() -> None:
    # 40 mm apart on the virtual table (within Medium, no bonus there); the people say the
    # target is beyond Medium within Double (ruling CP-18): 3s hit.
    v = perked(vehicle("v", "car", 600, 300, weapons=[("machine_gun", "front")]), "dead_eye")
    t = vehicle("t", "car", 600, 400, player=1)
    g = run_step(table(v, t), attack("v"), [3, 3, 1, 1], options=RuleOptions(physical=True))
    d = drive(g, **{"table:touching": "none", "table:in_reach": ["none", "t@double"],
                    "attack": ["machine_gun#0>t", "stop"], "table:cover": "no"})
    assert d is not None and d.kind == "table:dead_eye_range" and d.page == 109
    assert values(d) == ["no", "yes"]
    play(g, "yes")
    assert drive(g) is None and hits(g) == 2
