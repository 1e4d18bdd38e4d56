"""Reckless perks (Refuelled p.112), each with and without the perk."""

from __future__ import annotations

from tests.builders import (
    SHIFT,
    activate,
    attack,
    collide,
    drive,
    ev,
    perked,
    run_step,
    table,
    vehicle,
)

from carnage.games.refuelled.engine.collision import resolve_collisions
from carnage.games.refuelled.engine.game import Flow, Game


def test_drive_angry_starts_each_activation_with_a_hazard() -> None:
    def hazards(perks: tuple[str, ...]) -> int:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), activate("v"))
        assert drive(g, template="short_straight") is None
        return v.hazards

    assert hazards(("drive_angry",)) == 1
    assert hazards(()) == 0


def _smash(a_perks: tuple[str, ...], *, step: str | None = None, hazards: int = 0,
           b_type: str = "car", **answers: object) -> Game:
    a = perked(vehicle("a", "car", 600, 300, gear=2), *a_perks)
    b = vehicle("b", b_type, 600, 360, heading=270, player=1, gear=1)

    def go(g: Game) -> Flow:
        g.state.active = "a"
        g.state.step = step
        if hazards:
            g.add_hazards(a, hazards, "test", 0)
        yield from resolve_collisions(g, a, ["b"])

    g = run_step(table(a, b), go, [1] * 30)
    assert drive(g, collision_reaction="smash", **answers) is None
    return g


def smash_dice(g: Game, who: str = "a") -> int:
    return int(str(ev(g, "smash_attack", attacker=who)[0]["dice"]))


def test_hog_wild_smashes_harder_in_a_wipeout_step() -> None:
    assert smash_dice(_smash(("hog_wild",), step="wipeout")) == 3 + 2
    assert smash_dice(_smash(("hog_wild",), step="movement")) == 3
    assert smash_dice(_smash((), step="wipeout")) == 3


def test_in_for_a_penny_doubles_smash_dice_after_six_hazards() -> None:
    assert smash_dice(_smash(("in_for_a_penny",), hazards=6, in_for_a_penny="yes")) == 6
    assert smash_dice(_smash(("in_for_a_penny",), hazards=6, in_for_a_penny="no")) == 3
    g = _smash(("in_for_a_penny",), hazards=5)
    assert smash_dice(g) == 3 and not ev(g, "decision", decision="in_for_a_penny")
    assert smash_dice(_smash((), hazards=6)) == 3


def test_dont_come_knocking_freezes_its_hazards() -> None:
    def play(perks: tuple[str, ...], answer: str | None) -> tuple[int, list[object]]:
        v = perked(vehicle("v", "car", 600, 300, gear=4), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), activate("v"), [SHIFT])
        answers: dict[str, object] = {"template": "turn", "skid_dice": 1, "spend_shift": []}
        if answer is not None:
            answers["dont_come_knocking"] = answer
        d = drive(g, **answers)
        assert d is not None and d.kind == "spend_shift"
        offered = [o.value for o in d.options]
        g.apply("done")
        assert drive(g) is None
        return v.hazards, offered

    # The Turn is hazardous in gear 4: no Hazard while frozen, and no Shift discards one.
    hazards, offered = play(("dont_come_knocking",), "yes")
    assert hazards == 4 and "discard_hazard" not in offered
    hazards, offered = play(("dont_come_knocking",), "no")
    assert hazards == 1 and "discard_hazard" in offered
    assert play((), None)[0] == 1


def test_biggern_you_doubles_the_weight_bonus_both_ways() -> None:
    g = _smash(("biggern_you",), b_type="buggy")
    # Head-on gears 2 + 1 = 3; a car is one class heavier than a buggy: +2 (x2), -1 (x2).
    assert (smash_dice(g), smash_dice(g, "b")) == (3 + 4, 3 - 2)
    g = _smash((), b_type="buggy")
    assert (smash_dice(g), smash_dice(g, "b")) == (3 + 2, 3 - 1)


def test_beerserker_shrugs_off_a_point_outside_its_activation() -> None:
    def damage(perks: tuple[str, ...], dice: list[int]) -> int:
        v = perked(vehicle("v", "car", 600, 400), *perks)
        e = vehicle("e", "car", 600, 300, player=1)
        g = run_step(table(v, e), attack("e"), dice)
        assert drive(g, attack=["handgun>v", "stop"]) is None
        return v.damage

    assert damage(("beerserker",), [6, 1]) == 1  # 2 damage, 1 less
    assert damage(("beerserker",), [4, 1]) == 1  # never below 1
    assert damage((), [6, 1]) == 2


def test_beerserker_takes_full_damage_in_its_own_activation() -> None:
    a = perked(vehicle("a", "car", 600, 300, gear=2), "beerserker")
    b = vehicle("b", "car", 600, 360, heading=270, player=1, gear=1)
    g = run_step(table(a, b), collide("a", "b", active="a"), [4, 4, 4, 1, 1, 1])
    assert drive(g, collision_reaction=["evade", "smash"]) is None
    assert a.damage == 3  # its own activation: no reduction
