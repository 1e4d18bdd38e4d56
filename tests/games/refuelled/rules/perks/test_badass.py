"""Badass perks (Refuelled p.105), each with and without the perk."""

from __future__ import annotations

from collections.abc import Callable

from tests.builders import (
    SLIDE,
    activate,
    drive,
    ev,
    perked,
    run_step,
    table,
    values,
    vehicle,
    wipeouts,
)

from carnage.games.refuelled.engine.damage import suffer_damage
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.state import Status


def wreck(vid: str) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        v = g.state.vehicles[vid]
        yield from suffer_damage(g, v, v.hull, source="test", page=43)

    return step


def _keg(perks: tuple[str, ...], die: int, answer: str | None = None) -> Game:
    v = perked(vehicle("v", "car", 600, 300), *perks)
    n = vehicle("n", "car", 700, 300, player=1)
    g = run_step(table(v, n), wreck("v"), [die] + [1] * 6)
    d = drive(g, **({"powder_keg": answer} if answer else {}))
    assert d is None
    return g


def test_powder_keg_may_turn_a_five_into_an_explosion_as_a_heavier_vehicle() -> None:
    g = _keg(("powder_keg",), 5, "yes")
    check = ev(g, "explosion_check")[0]
    assert (check["roll"], check["total"], check["explodes"]) == (5, 6, True)
    assert ev(g, "explosion")[0]["weight"] == "heavyweight"  # a car, one class heavier
    assert ev(g, "explosion")[0]["dice"] == 6
    assert g.state.vehicles["v"].status is Status.REMOVED
    declined = _keg(("powder_keg",), 5, "no")
    assert not ev(declined, "explosion")
    plain = _keg((), 5)
    assert not ev(plain, "explosion") and plain.state.vehicles["v"].status is Status.WRECKED


def test_powder_keg_is_not_offered_when_it_changes_nothing() -> None:
    g = _keg(("powder_keg",), 3)  # 3 + 1 is still no explosion: no question asked
    assert not ev(g, "decision") and not ev(g, "explosion")


def test_crowd_pleaser_gains_a_vote_on_a_wipeout() -> None:
    def votes(perks: tuple[str, ...]) -> int:
        v = perked(vehicle("v", "car", 600, 300, hazards=6), *perks)
        g = run_step(table(v), wipeouts("v"), [6])
        drive(g, lose_control=0.0)
        return g.state.votes[0]

    assert votes(("crowd_pleaser",)) == 1
    assert votes(()) == 0



def test_road_warrior_discards_a_hazard_after_hitting_an_enemy() -> None:
    def play(perks: tuple[str, ...], die: int) -> tuple[int, list[str]]:
        v = perked(vehicle("v", "car", 600, 300, hazards=2), *perks)
        e = vehicle("e", "car", 660, 450, player=1)
        g = run_step(table(v, e), activate("v"), [die, 1])
        d = drive(g, template="short_straight", attack=["handgun>e", "stop"],
                  road_warrior="yes")
        assert d is None
        return v.hazards, [str(x["decision"]) for x in ev(g, "decision")]

    hazards, asked = play(("road_warrior",), 6)  # a critical: two hits
    assert hazards == 1 and "road_warrior" in asked
    hazards, asked = play(("road_warrior",), 1)  # a miss: not offered
    assert hazards == 2 and "road_warrior" not in asked
    assert play((), 6)[0] == 2


def test_cover_me_passes_a_hazard_to_a_friend_within_double_range_once() -> None:
    v = perked(vehicle("v", "car", 600, 300, hazards=2), "cover_me")
    f = vehicle("f", "car", 800, 300)
    far = vehicle("far", "car", 100, 1000, player=1)  # keeps the game going
    g = run_step(table(v, f, far), activate("v"))
    d = drive(g, template="short_straight")
    assert d is not None and d.kind == "cover_me" and values(d) == ["no", "f"]
    g.apply("no")  # not now: offered again at the end of the Attack Step
    d = drive(g)
    assert d is not None and d.kind == "cover_me"
    g.apply("f")
    assert drive(g) is None
    assert (v.hazards, f.hazards) == (1, 1)
    plain = vehicle("v", "car", 600, 300, hazards=2)
    g = run_step(table(plain, vehicle("f", "car", 800, 300), far), activate("v"))
    assert drive(g, template="short_straight") is None and plain.hazards == 2


def test_madman_passes_a_hazard_with_four_or_more() -> None:
    def play(perks: tuple[str, ...], hazards: int) -> tuple[int, int, bool]:
        v = perked(vehicle("v", "car", 600, 300, hazards=hazards), *perks)
        e = vehicle("e", "car", 700, 420, player=1)
        g = run_step(table(v, e), activate("v"))
        d = drive(g, template="short_straight", madman="e")
        assert d is None
        asked = any(x["decision"] == "madman" for x in ev(g, "decision"))
        return v.hazards, e.hazards, asked

    assert play(("madman",), 4) == (3, 1, True)
    assert play(("madman",), 3) == (3, 0, False)
    assert play((), 4) == (4, 0, False)


def test_bullet_time_turns_a_weapon_into_a_turret_after_a_slide() -> None:
    def shots(perks: tuple[str, ...]) -> list[object]:
        v = perked(vehicle("v", "car", 600, 300, weapons=[("machine_gun", "front")]), *perks)
        t = vehicle("t", "car", 600, 200, player=1)
        g = run_step(table(v, t), activate("v"), [SLIDE])
        d = drive(g, template="short_straight", skid_dice=1, slide="left",
                  bullet_time="machine_gun#0", attack=[])
        # The slide leaves it at (600, 450) facing west: the target lies off its left side.
        assert (v.pose.x, v.pose.y, v.pose.heading) == (600, 450, 180)
        if d is None:
            return []
        assert d.kind == "attack"
        out = values(d)
        g.apply("stop")
        assert drive(g) is None
        assert v.weapons[0].facing == "front"  # back to its own facing after the activation
        return out

    assert shots(("bullet_time",)) == ["stop", "machine_gun#0>t"]
    assert shots(()) == []
