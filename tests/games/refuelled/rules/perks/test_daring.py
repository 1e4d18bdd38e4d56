"""Daring perks (Refuelled p.107), each with and without the perk."""

from __future__ import annotations

import math

import pytest
from tests.builders import (
    HAZ,
    SHIFT,
    SLIDE,
    SPIN,
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

from carnage.kernel.decisions import Interval


def test_chrome_whisperer_pushes_it_again_and_again() -> None:
    def pushes(perks: tuple[str, ...]) -> int:
        v = perked(vehicle("v", "car", 600, 300, gear=2), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"),
                [HAZ, HAZ, HAZ, SPIN, SHIFT])
        drive(g, template="medium_straight", skid_dice=2, push_it=["0", "0", "0", "no"])
        return len(ev(g, "skid", source="push_it"))

    assert pushes(("chrome_whisperer",)) == 3  # three rerolls of die 0, each +1 Hazard
    assert pushes(()) == 1


def test_slippery_takes_two_dice_off_smash_attacks_at_it() -> None:
    def dice(perks: tuple[str, ...]) -> int:
        a = vehicle("a", "car", 600, 300, gear=3)
        b = perked(vehicle("b", "car", 600, 360, heading=270, player=1, gear=2), *perks)
        g = run_step(table(a, b), collide("a", "b", active="a"), [1] * 12)
        drive(g, collision_reaction=["smash", "smash"])
        return int(str(ev(g, "smash_attack", attacker="a")[0]["dice"]))

    assert dice(("slippery",)) == 5 - 2
    assert dice(()) == 5


def test_handbrake_artist_may_spin_to_any_facing() -> None:
    def domain(perks: tuple[str, ...]) -> Interval | None:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"), [SPIN])
        d = drive(g, template="short_straight", skid_dice=1)
        assert d is not None and d.kind == "spin"
        return d.domain

    assert domain(("handbrake_artist",)) == Interval(-180.0, 180.0)
    assert domain(()) == Interval(-90.0, 90.0)


def test_evasive_buys_evade_bonus_with_hazards_and_ones_still_fail() -> None:
    def play(perks: tuple[str, ...], answer: int | None) -> tuple[int, int]:
        v = perked(vehicle("v", "car", 600, 400, gear=2), *perks)
        e = vehicle("e", "car", 600, 300, player=1)
        # Handgun 6: two hits. Evade dice (gear 2): 3 and 1.
        g = run_step(table(v, e), attack("e"), [6, 3, 1])
        answers: dict[str, object] = {"attack": ["handgun>v", "stop"]}
        if answer is not None:
            answers["evasive"] = answer
        assert drive(g, **answers) is None
        return v.damage, v.hazards

    assert play(("evasive",), 3) == (1, 3)  # 3 + 3 cancels one hit; the 1 fails
    assert play(("evasive",), 5) == (1, 5)  # even +5 cannot save a natural 1
    assert play(("evasive",), 0) == (2, 0)
    assert play((), None) == (2, 0)


def test_powerslide_slides_on_a_medium_straight() -> None:
    def end(perks: tuple[str, ...], pick: str | None) -> tuple[float, float, float]:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"), [SLIDE])
        answers: dict[str, object] = {"template": "short_straight", "skid_dice": 1,
                                      "slide": "left"}
        if pick is not None:
            answers["powerslide"] = pick
        assert drive(g, **answers) is None
        return v.pose.x, v.pose.y, v.pose.heading

    # The Slide template is 45 mm long, the Medium Straight 120: 75 mm further.
    assert end(("powerslide",), "medium_straight") == (600, 525, 180)
    assert end(("powerslide",), "slide") == end((), None) == (600, 450, 180)


def test_powerslide_offers_every_template_but_the_long_straight() -> None:
    v = perked(vehicle("v", "car", 600, 300), "powerslide")
    g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"), [SLIDE])
    d = drive(g, template="short_straight", skid_dice=1, slide="left")
    assert d is not None and values(d) == [
        "slide", "short_straight", "medium_straight", "gentle", "gentle/left", "turn",
        "turn/left", "hard", "hard/left", "hairpin", "hairpin/left", "veer", "veer/left",
        "swerve", "swerve/left"]


def test_powerslide_on_a_turn_template() -> None:
    # The Short Straight ends at y=390; the car slides off it turned to face left (180). The
    # Turn (60 degrees, radius 115) laid there as the Slide template, running on up the
    # table and bending right, ends at (657.5, 489.6) heading 30; the car ends with its side
    # edge centred on that end: 15 mm (half its width) on, turned 60 degrees with it.
    def end(pick: str) -> tuple[float, float, float]:
        v = perked(vehicle("v", "car", 600, 300), "powerslide")
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1)), move("v"), [SLIDE])
        assert drive(g, template="short_straight", skid_dice=1, slide="left",
                     powerslide=pick) is None
        return v.pose.x, v.pose.y, v.pose.heading

    x, y, h = end("turn")
    assert (x, y, h) == (pytest.approx(657.5 + 15 * math.cos(math.radians(30))),
                         pytest.approx(390 + 115 * math.sin(math.radians(60)) + 7.5),
                         pytest.approx(120))
    x, y, h = end("turn/left")  # bending left instead: the mirror image
    assert (x, y, h) == (pytest.approx(542.5 - 15 * math.cos(math.radians(30))),
                         pytest.approx(390 + 115 * math.sin(math.radians(60)) + 7.5),
                         pytest.approx(240))


def test_powerslide_on_a_curve_is_interrupted_by_what_lies_on_it() -> None:
    # A rock on the Turn laid as the Slide template (but clear of the plain Slide template)
    # interrupts the move (p.45): the car stops touching it.
    def play(pick: str) -> tuple[bool, list[str]]:
        v = perked(vehicle("v", "car", 600, 300), "powerslide")
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1),
                           obstacles=[rock("r", 650, 470, 20, 20)]), move("v"), [SLIDE] + [1] * 8)
        drive(g, template="short_straight", skid_dice=1, slide="left", powerslide=pick,
              collision_reaction="evade")
        m = ev(g, "move", vehicle="v")[0]
        return bool(m["interrupted"]), list(m["touched"])

    assert play("turn") == (True, ["r"])
    assert play("slide") == (False, [])


def test_stunt_driver_drives_through_an_obstruction_for_three_hazards() -> None:
    def play(perks: tuple[str, ...], answer: str | None) -> tuple[float, int, bool]:
        v = perked(vehicle("v", "car", 600, 300), *perks)
        g = run_step(table(v, vehicle("far", "car", 100, 1000, player=1),
                      obstacles=[rock("r", 600, 420)]), activate("v"), [1] * 8)
        answers: dict[str, object] = {"template": "medium_straight",
                                      "collision_reaction": "evade"}
        if answer is not None:
            answers["stunt_driver"] = answer
        assert drive(g, **answers) is None
        return v.pose.y, v.hazards, bool(ev(g, "collision"))

    assert play(("stunt_driver",), "yes") == (480, 3, False)  # through the rock, +3 Hazards
    y, hazards, collided = play(("stunt_driver",), "no")
    assert collided and y < 480 and hazards == 2  # stopped at the rock: +2 from the Collision
    assert play((), None)[2]
