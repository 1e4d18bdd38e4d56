"""The War Rig (Refuelled pp.116-121): cab and trailer, articulated movement, reversing,
pivoting as one body, weapons on the trailer, the Jackknife, Ponderous and the Piledriver.
Exact tables, scripted dice; each rule also run without it."""

from __future__ import annotations

import math
from typing import Any

import pytest
from tests.builders import (
    activate,
    collide,
    ev,
    move,
    noop,
    play,
    rock,
    rolls,
    run_step,
    table,
    values,
    vehicle,
    wipeouts,
)

from carnage.games.refuelled.engine.attack import Sight
from carnage.games.refuelled.engine.damage import suffer_damage
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.movement import obstructions_for, pivot_vehicle
from carnage.games.refuelled.engine.rulebook import unplayed_rules
from carnage.games.refuelled.engine.state import GameState, Status, Trailer, VehicleState
from carnage.games.refuelled.rules.war_rig import shared_centre
from carnage.games.refuelled.setup import vehicle_state
from carnage.geometry.arcs import Arc
from carnage.geometry.shapes import Pose, distance, penetration
from carnage.kernel.effects import run_flows
from carnage.team import TeamSpec, check_team
from carnage.team.model import VehicleSpec, WeaponSpec

SHIFT, HAZARD, SPIN, SLIDE = 4, 1, 2, 3  # skid faces on a D6 (ruling R-1)
RIG_RULES = ("articulated", "ponderous", "piledriver")


def rig(x: float = 600, y: float = 600, heading: float = 90, *, rules: tuple[str, ...] = RIG_RULES,
        **kw: Any) -> VehicleState:
    v = vehicle("rig", "war_rig", x, y, heading, **kw)
    v.special_rules = list(rules)
    return v


def trailer_of(v: VehicleState) -> Any:
    t = v.trailer_rect()
    assert t is not None
    return t


def assert_hitched(v: VehicleState) -> None:
    """Cab and trailer meet without overlapping: in line, the trailer's front edge centred on
    the cab's rear edge; folded, corner to corner on the inside of the bend (VR-20)."""
    cab, t = v.rect(), trailer_of(v)
    assert penetration(cab.polygon(), t.polygon()) <= 1e-6
    assert distance(cab.polygon(), t.polygon()) < 1e-6
    assert v.trailer is not None and abs(v.trailer.hinge) <= 90 + 1e-9
    if abs(v.trailer.hinge) < 1e-9:
        assert math.dist(cab.rear_centre(), t.front_centre()) < 1e-6


# -- cab and trailer on the table (pp.116-117) ------------------------------------------------
def test_war_rig_from_the_team_builder_has_its_trailer_and_rules() -> None:
    spec = TeamSpec(name="t", cans=100, vehicles=(VehicleSpec(
        name="rig", type="war_rig",
        weapons=(WeaponSpec(id="machine_gun", facing="rear", mount="trailer"),
                 WeaponSpec(id="machine_gun", facing="front"))),))
    report = check_team(spec)
    assert report.valid, [e.message for e in report.errors]
    v = vehicle_state(report.vehicles[0], vid="rig", player=0, pose=Pose(600, 600, 90))
    assert [m.part for m in v.weapons] == ["trailer", None]
    g = run_step(table(v), noop)
    assert not {"vehicle_rule:articulated", "vehicle_rule:ponderous",
                "vehicle_rule:piledriver"} & set(unplayed_rules(g))
    t = trailer_of(v)
    assert (t.length, t.width) == (150, 50) and (v.length, v.width) == (80, 50)
    assert (t.pose.x, t.pose.y, t.pose.heading) == pytest.approx((600, 485, 90))
    assert_hitched(v)


def test_the_trailer_is_an_obstruction_and_collides_as_the_rig() -> None:
    r = rig(player=1, gear=2)
    car = vehicle("car", "car", 700, 485, heading=180, player=0)
    g = run_step(table(car, r), move("car"), dice=[1, 1, 1, 1])
    assert "rig/trailer" in {o.id for o in obstructions_for(g, car)}
    play(g, "short_straight", 0, "done", "smash", "evade")
    col = ev(g, "collision")[0]
    assert col["other"] == "rig/trailer" and col["orientation"] == "t_bone"
    assert col["edges"] == {"car": "front", "rig": "side"}
    assert car.pose.x == pytest.approx(655, abs=0.05)  # stopped against the trailer's side
    assert r.hazards == 2 and car.hazards == 2


def test_a_bought_trailer_is_as_big_as_its_vehicle() -> None:
    truck = vehicle("truck", "truck", 600, 600)
    truck.special_rules = ["articulated"]
    run_step(table(truck), noop)
    t = trailer_of(truck)
    assert (t.length, t.width) == (60, 30) and t.pose.y == pytest.approx(540)


# -- Articulated movement (p.118) --------------------------------------------------------------
@pytest.mark.parametrize(("tpl", "extra"), [("medium_straight", 0), ("turn", 1), ("gentle", 1)])
def test_any_template_but_a_straight_costs_a_hazard(tpl: str, extra: int) -> None:
    r = rig()
    g = run_step(table(r), move("rig"))
    play(g, tpl, 0, "done")
    assert r.hazards == extra
    assert len(ev(g, "hazards", source="articulated")) == extra


def test_no_articulated_hazard_without_the_rule() -> None:
    r = rig(rules=())
    g = run_step(table(r), move("rig"))
    play(g, "turn", 0, "done")
    assert r.hazards == 0 and r.trailer is None


def test_trailer_follows_the_cab_over_the_template() -> None:
    r = rig(x=600, y=300)
    g = run_step(table(r), move("rig"))
    play(g, "turn", 0, "done")
    assert g.pending() is None
    assert_hitched(r)
    # The cab turned 60 degrees right; the trailer trails it, angled between the two.
    assert r.pose.heading == pytest.approx(30.0)
    assert r.trailer is not None and 0 < r.trailer.hinge < 60
    t = ev(g, "trailer")[0]
    assert t["vehicle"] == "rig" and t["hinge"] == pytest.approx(r.trailer.hinge, abs=1e-3)


def test_after_a_straight_the_trailer_is_in_line() -> None:
    r = rig(x=600, y=300)
    g = run_step(table(r), move("rig"))
    play(g, "medium_straight", 0, "done")
    assert r.pose.y == pytest.approx(500)
    assert r.trailer is not None and r.trailer.hinge == pytest.approx(0, abs=1e-6)
    assert trailer_of(r).pose.y == pytest.approx(385)


def test_reversing_the_trailer_leads_and_the_cab_follows() -> None:
    r = rig(x=600, y=700)
    g = run_step(table(r), move("rig"))
    play(g, "medium_straight/reverse", 0, "done")
    assert g.pending() is None
    # The trailer's rear takes the template: it backs 120 mm plus its own length.
    assert trailer_of(r).pose.y == pytest.approx(585 - 270)
    assert r.pose.y == pytest.approx(700 - 270)
    assert r.pose.heading == pytest.approx(90)
    assert_hitched(r)


def test_a_laid_trailer_swings_clear_of_an_obstacle() -> None:
    # After a right turn the trailer would sweep over a rock lying just left of its path.
    r = rig(x=600, y=300)
    probe = run_step(table(rig(x=600, y=300)), move("rig"))
    play(probe, "turn", 0, "done")
    free = probe.state.vehicles["rig"]
    laid = trailer_of(free)
    hinge = free.trailer.hinge if free.trailer else 0.0
    # A rock where the freely laid trailer's middle lies.
    g = run_step(table(r, obstacles=[rock("r", laid.pose.x - 40, laid.pose.y, 30, 30)]),
                 move("rig"), dice=[1] * 20)
    play(g, "turn", 0, "done")
    while (d := g.pending()) is not None:
        play(g, values(d)[-1] if d.options else 0.0)
    assert r.trailer is not None and r.trailer.hinge != pytest.approx(hinge)
    assert penetration(trailer_of(r).polygon(), g.state.obstacles["r"].polygon()) <= 0.1


# -- Pivoting as one body (p.119) --------------------------------------------------------------
def test_a_trailer_with_no_room_backs_the_rig_up_along_the_template() -> None:
    # The cab's Medium Straight is clear (the cars beside it touch neither the template nor
    # the Final Position), but the trailer laid in line behind it would lie 7 mm over both,
    # and every swing only drives it into one of them. So the rig backs up along the
    # template until both bodies fit (VR-19); the cab, wider than the template, may not stop
    # over the cars either, so it ends with its front edge at y=370, touching both, which
    # then collide with it.
    r = rig(x=600, y=300)
    left = vehicle("a", "car", 567, 400, heading=90, player=1)
    right = vehicle("b", "car", 633, 400, heading=90, player=1)
    g = run_step(table(r, left, right), move("rig"), dice=[1] * 30)
    play(g, "medium_straight", 0, "done")
    assert r.pose.y == pytest.approx(330, abs=0.01)  # not 500: backed up 170 mm
    assert_hitched(r)
    assert r.trailer is not None and r.trailer.hinge == pytest.approx(0, abs=1e-9)
    for car in (left, right):
        for _, body in r.bodies():
            assert penetration(body.polygon(), car.polygon()) <= 0.1
    m = ev(g, "move", vehicle="rig")[0]
    assert m["touched"] == ["a", "b"] and m["interrupted"]  # short of its Final Position
    d = g.pending()
    assert d is not None and d.kind == "collision_reaction"


def test_a_laid_trailer_swings_clear_only_along_a_clear_path() -> None:
    # After a Medium Straight the trailer laid in line lies over a rock on its right. The
    # nearest clear angle is -55 (swung right), but on the way there it would sweep over the
    # post behind it, so it swings the other way, to +60, whose path is clear (VR-12).
    r = rig(x=600, y=300, gear=2)
    boulder, post = rock("a", 636.5, 374.5, 22, 26, 34), rock("b", 567, 388, 6, 6)
    g = run_step(table(r, obstacles=[boulder, post]), move("rig"))
    play(g, "medium_straight", 0, "done")
    assert g.pending() is None and r.pose.y == pytest.approx(500)  # the cab's move was clear
    cab = r.rect()

    def over(h: float, ob: Any) -> float:
        return penetration(Trailer(150.0, 50.0, h).rect(cab).polygon(), ob.polygon())

    assert over(0, boulder) > 4  # laid in line: on the rock
    assert over(-55, boulder) <= 0.1 and over(-55, post) <= 0.1  # clear at -55 ...
    assert max(over(-h, post) for h in range(56)) > 1  # ... but only through the post
    assert r.trailer is not None and r.trailer.hinge == pytest.approx(60)
    assert all(over(h, post) <= 0.1 for h in range(61))  # the swing it made is clear
    assert over(60, boulder) <= 0.1
    assert_hitched(r)


def test_a_spin_pivots_cab_and_trailer_about_their_shared_centre() -> None:
    r = rig()

    def step(g: Game) -> Flow:
        yield from pivot_vehicle(g, r, 90.0, "spin", 24)

    run_step(table(r), step)
    # Shared centre: (600 * 4000 + 485 * 7500) / 11500 = 525 on the rig's line (x = 600).
    assert (r.pose.x, r.pose.y, r.pose.heading) == pytest.approx((525, 525, 180))
    t = trailer_of(r)
    assert (t.pose.x, t.pose.y, t.pose.heading) == pytest.approx((640, 525, 180))
    assert_hitched(r)
    assert shared_centre(r) == pytest.approx((600, 525))  # it turned about that point


def test_a_pivot_stops_when_the_trailer_meets_something() -> None:
    r = rig()
    post = rock("post", 700, 470, 20, 20)
    g = run_step(table(r, obstacles=[post]), lambda g: pivot_vehicle(g, r, 90.0, "spin", 24),
                 dice=[1] * 10)
    while (d := g.pending()) is not None:
        play(g, values(d)[-1] if d.options else 0.0)
    piv = ev(g, "pivot")[0]
    assert 0 < piv["turned"] < 90 and piv["touched"] == ["post"]
    assert ev(g, "collision")[0]["other"] == "post"


def test_a_pivot_never_drives_the_trailer_into_what_it_touched_at_the_start() -> None:
    r = rig()
    car = vehicle("car", "car", 640, 485, player=1)  # against the trailer's right side
    g = run_step(table(r, car), lambda g: pivot_vehicle(g, r, 30.0, "spin", 24))
    assert g.pending() is None
    # Turning anticlockwise swings the trailer's middle east, into the car: it cannot turn.
    assert ev(g, "pivot")[0]["turned"] == pytest.approx(0, abs=0.2)
    assert penetration(trailer_of(r).polygon(), car.polygon()) <= 0.1
    assert not ev(g, "collision")


def test_without_articulated_a_spin_turns_the_cab_alone() -> None:
    r = rig(rules=())
    run_step(table(r), lambda g: pivot_vehicle(g, r, 90.0, "spin", 24))
    assert (r.pose.x, r.pose.y) == pytest.approx((600, 600))


# -- Arming: weapons on the cab or the trailer (p.117) --------------------------------------------
def test_a_trailer_weapon_measures_from_the_trailer() -> None:
    r = rig(weapons=[("machine_gun", "rear")])
    r.weapons[0].part = "trailer"
    behind = vehicle("behind", "car", 600, 300, player=1)
    g = run_step(table(r, behind), noop)
    sight = Sight(g, r)
    # 80 mm behind the trailer's rear edge, 230 mm behind the cab's.
    assert sight.for_mount(r.weapons[0]).check(behind, Arc.REAR, "medium").in_range
    assert not sight.check(behind, Arc.REAR, "medium").in_range
    r.weapons[0].part = None
    assert sight.for_mount(r.weapons[0]) is sight


@pytest.mark.parametrize("articulated", [True, False])
def test_the_trailer_can_be_shot(articulated: bool) -> None:
    r = rig(player=1, rules=("articulated",) if articulated else ())
    shooter = vehicle("s", "car", 700, 485, heading=180, weapons=[("machine_gun", "front")])
    g = run_step(table(shooter, r), noop)
    assert Sight(g, shooter).check(r, Arc.FRONT, "short").in_range is articulated


def test_a_wrecked_rig_leaves_two_wrecks() -> None:
    r = rig()
    g = run_step(table(r), lambda g: suffer_damage(g, r, 26, source="test", page=43), dice=[1])
    assert r.status is Status.WRECKED
    assert set(g.state.obstacles) == {"wreck:rig", "wreck:rig/trailer"}
    t = g.state.obstacles["wreck:rig/trailer"]
    assert (t.length, t.width, t.wreck_of) == (150, 50, "rig")


# -- Jackknife (p.119) ----------------------------------------------------------------------------
def test_a_flip_becomes_a_jackknife() -> None:
    r = rig(gear=3, hazards=6, player=0)
    g = run_step(table(r), wipeouts("rig"), dice=[1, 6, 4, 3, 1])  # flip check 1, crunch
    d = g.pending()
    assert d is not None and (d.kind, d.player) == ("jackknife_swing", 1)
    assert d.domain is not None and (d.domain.low, d.domain.high) == (-90, 90)
    play(g, 45.0)
    assert r.trailer is not None and r.trailer.hinge == pytest.approx(45)
    d = g.pending()
    assert d is not None and (d.kind, d.player) == ("jackknife_pivot", 1)
    play(g, -90.0)
    assert g.pending() is None  # Ponderous: no lose-control pivot afterwards
    assert r.pose.heading == pytest.approx(0) or r.pose.heading == pytest.approx(360)
    # Crunch: 4D6 against itself (6, 4, 3, 1: 3 hits), never evaded; no Flip, no flip move.
    assert rolls(g) == [("flip check", [1]), ("jackknife crunch", [6, 4, 3, 1])]
    assert r.damage == 3 and not ev(g, "flip") and not ev(g, "evade")
    assert ev(g, "ponderous_wipeout") and (r.gear, r.hazards) == (1, 0)


@pytest.mark.parametrize("swing", [90.0, -90.0, 30.0])
def test_a_jackknife_folds_the_trailer_without_overlapping_the_cab(swing: float) -> None:
    # p.119: the trailer swings about the hitch; folded square it meets the cab corner to
    # corner (VR-20) and never lies over it, then the whole rig pivots as one.
    r = rig(gear=3, hazards=6, player=0)
    g = run_step(table(r), wipeouts("rig"), dice=[1, 1, 1, 1, 1])
    play(g, swing)
    assert r.trailer is not None and r.trailer.hinge == pytest.approx(swing)
    assert_hitched(r)
    play(g, 45.0)
    assert_hitched(r)
    assert r.trailer.hinge == pytest.approx(swing)


def test_without_articulated_the_rig_flips() -> None:
    r = rig(gear=3, hazards=6, rules=())
    g = run_step(table(r), wipeouts("rig"), dice=[1])
    play(g, 0.0)
    assert ev(g, "flip") and r.damage == 2 and not ev(g, "jackknife")


def test_jackknife_swing_stops_at_an_obstacle_and_collides() -> None:
    r = rig(gear=3, hazards=6)
    post = rock("post", 660, 470, 20, 20)
    g = run_step(table(r, obstacles=[post]), wipeouts("rig"), dice=[1] + [1] * 12)
    play(g, 80.0)  # anticlockwise: the trailer's tail swings east into the post
    assert ev(g, "collision")[0]["other"] == "post"
    assert r.trailer is not None and 0 < r.trailer.hinge < 80


def test_jackknife_swing_never_drives_the_trailer_into_what_it_touched() -> None:
    # The trailer starts touching a rock on its right; the Jackknife swing towards it is
    # not a new contact (no Collision), but stops where the trailer meets it, never in it.
    r = rig(gear=3, hazards=6)
    boulder = rock("r", 635, 480, 20, 20)
    g = run_step(table(r, obstacles=[boulder]), wipeouts("rig"), dice=[1] + [1] * 12)
    assert distance(trailer_of(r).polygon(), boulder.polygon()) < 1e-6  # touching
    play(g, 80.0)
    assert r.trailer is not None and 0 < r.trailer.hinge < 5
    assert penetration(trailer_of(r).polygon(), boulder.polygon()) <= 0.1
    assert not ev(g, "collision")
    assert_hitched(r)


# -- Ponderous (p.120) ---------------------------------------------------------------------------
def test_tanker_anchor_skips_the_move_and_may_change_up() -> None:
    r = rig(gear=1)
    g = run_step(table(r), activate("rig"))
    d = g.pending()
    assert d is not None and d.kind == "tanker_anchor" and values(d) == ["move", "anchor"]
    play(g, "anchor", "up")
    assert g.pending() is None
    assert (r.pose.x, r.pose.y) == (600, 600)
    assert (r.gear, r.hazards) == (2, 2)  # 1 for anchoring, 1 for the gear change
    assert not ev(g, "template")


def test_tanker_anchor_declined_moves_as_usual() -> None:
    r = rig(gear=1)
    g = run_step(table(r), activate("rig"))
    play(g, "move")
    d = g.pending()
    assert d is not None and d.kind == "template"


def test_no_tanker_anchor_without_ponderous() -> None:
    r = rig(rules=("articulated",))
    g = run_step(table(r), activate("rig"))
    d = g.pending()
    assert d is not None and d.kind == "template"


@pytest.mark.parametrize("ponderous", [True, False])
def test_ponderous_slides_give_the_hazard_but_no_slide(ponderous: bool) -> None:
    truck = vehicle("truck", "truck", 600, 300)
    truck.special_rules = ["ponderous"] if ponderous else []
    g = run_step(table(truck), move("truck"), dice=[SLIDE])
    play(g, "medium_straight", 1, "no", "done")
    if not ponderous:
        play(g, "left")
    assert g.pending() is None
    assert truck.hazards == 1
    assert bool(ev(g, "ponderous_slide")) is ponderous
    assert (truck.pose.heading == pytest.approx(90)) is ponderous


@pytest.mark.parametrize("ponderous", [True, False])
def test_ponderous_wipeout_is_not_turned(ponderous: bool) -> None:
    truck = vehicle("truck", "truck", 600, 600, gear=2, hazards=6)
    truck.special_rules = ["ponderous"] if ponderous else []
    g = run_step(table(truck), wipeouts("truck"), dice=[6])
    d = g.pending()
    assert (d is None) is ponderous
    if d is not None:
        assert d.kind == "lose_control"


# -- Piledriver (p.121) -------------------------------------------------------------------------
def piledriver_table(rules: tuple[str, ...] = RIG_RULES, other: str = "car") -> GameState:
    r = rig(600, 300, rules=rules)
    car = vehicle("car", other, 600, 400, heading=0, player=1)
    return table(r, car)


def test_piledriver_throws_the_lighter_vehicle_aside_and_the_rig_drives_on() -> None:
    g = run_step(piledriver_table(), move("rig"), dice=[1, 1, 1])
    play(g, "medium_straight", 0, "done")
    d = g.pending()
    assert d is not None and values(d) == ["smash", "evade", "piledriver"]
    play(g, "piledriver", "evade")
    assert ev(g, "reaction")[0]["declared"] == "piledriver"
    assert ev(g, "smash_attack")[0]["dice"] == 3  # a Smash Attack: gear 1, +2 heavier
    d = g.pending()
    assert d is not None and d.kind == "piledriver_place" and d.player == 0
    spots = values(d)
    assert spots[0] == "stay" and "0:60" in spots
    assert "90:60" not in spots  # straight up the rig's path: it would be hit again
    play(g, "0:60")
    d = g.pending()
    assert d is not None and d.kind == "piledriver_facing"
    play(g, 90)
    assert g.pending() is None
    car, r = g.state.vehicles["car"], g.state.vehicles["rig"]
    assert (car.pose.x, car.pose.y, car.pose.heading) == pytest.approx((660, 400, 90))
    # The rig finishes its Medium Straight: 120 mm plus its cab.
    assert r.pose.y == pytest.approx(500)
    assert len(ev(g, "collision")) == 1
    assert ev(g, "piledriver")[0]["target"] == "car"


def test_piledriver_spots_avoid_where_the_rig_started() -> None:
    from carnage.games.refuelled.rules.war_rig import piledriver_spots
    from carnage.geometry.shapes import Rect

    r = rig(600, 300)
    car = vehicle("car", "car", 900, 600, heading=0, player=1)
    g = run_step(table(r, car), noop)
    far = Rect(Pose(600, 900, 90), 80, 50)  # a move laid well away from the car
    move: dict[str, Any] = {"start": far, "template": "short_straight", "mirror": False,
                            "reverse": False, "bodies": []}
    free = piledriver_spots(g, r, car, move)
    assert "0:60" in free and "180:60" in free
    # Had the rig started its move right where the car would go, that spot is out.
    move["bodies"] = [Rect(Pose(960, 600, 90), 80, 50).polygon()]
    assert "0:60" not in piledriver_spots(g, r, car, move)
    assert "180:60" in piledriver_spots(g, r, car, move)


def test_piledriver_target_may_stay_put() -> None:
    g = run_step(piledriver_table(), move("rig"), dice=[1, 1, 1])
    play(g, "medium_straight", 0, "done", "piledriver", "evade", "stay")
    assert g.pending() is None
    assert g.state.vehicles["rig"].pose.y == pytest.approx(345, abs=0.05)


@pytest.mark.parametrize(("rules", "other"), [
    (("articulated", "ponderous"), "car"),  # no Piledriver rule
    (RIG_RULES, "monster_truck"),  # not lighter
])
def test_no_piledriver_without_the_rule_or_on_an_equal(rules: tuple[str, ...],
                                                        other: str) -> None:
    g = run_step(piledriver_table(rules, other), move("rig"), dice=[1] * 12)
    play(g, "medium_straight", 0, "done")
    d = g.pending()
    assert d is not None and values(d) == ["smash", "evade"]


def test_no_piledriver_outside_the_rigs_movement_step() -> None:
    st = piledriver_table()
    st.vehicles["rig"].pose = Pose(600, 345, 90)  # already touching the car

    def step(g: Game) -> Flow:
        g.state.active, g.state.step = "rig", "attack"
        yield from collide("rig", "car")(g)

    g = run_step(st, step, dice=[1] * 6)
    d = g.pending()
    assert d is not None and values(d) == ["smash", "evade"]


def test_start_of_activation_flows_are_the_rules_own() -> None:
    # Only Ponderous adds an activation-start decision to a War Rig.
    r = rig()

    def step(g: Game) -> Flow:
        g.state.active = "rig"
        yield from run_flows(g, "activation_start", {"game": g, "vehicle": r})

    g = run_step(table(r), step)
    d = g.pending()
    assert d is not None and d.kind == "tanker_anchor"


def test_seeded_game_rig_trailer_never_lies_over_another_vehicle() -> None:
    # A random game (seed 60369: a Highway Patrol War Rig against an Idris ambulance) in
    # which the rig's trailer was once laid 36 mm over the ambulance after a clear cab move
    # onto a Glue template, and cab and trailer overlapped. Now the invariants (trailers
    # included) hold after every choice.
    from dataclasses import replace

    from tests.simulation import invariant_problems

    from carnage.ai import bot_rng, make_bot, play_out
    from carnage.games.refuelled.setup import GameSetup, build_game
    from carnage.team.random_team import random_team

    seed = 60369
    teams = tuple(random_team(f"{seed}:{p}", 50, name=f"Random {p + 1}", perks=True)
                  for p in range(2))
    assert [t.sponsor for t in teams] == ["highway_patrol", "idris"]
    assert teams[0].vehicles[0].type == "war_rig"
    g = build_game(replace(GameSetup(max_rounds=8), teams=teams), seed)
    problems: list[str] = []

    def after(game: Any, d: Any) -> None:
        problems.extend(f"after choice {len(game.choices)}: {p}" for p in
                        invariant_problems(game))

    play_out(g, [make_bot("random"), make_bot("random")], bot_rng(seed), after=after)
    assert g.outcome() is not None
    assert not problems, problems[:3]


# -- at a real table (companion mode, engine/table_facts.py) ------------------------------------
AT_TABLE = RuleOptions(physical=True)


def test_at_a_real_table_a_jackknife_swing_meets_what_the_people_say() -> None:
    # The post stands far from the rig on the virtual table; the people say the swung
    # trailer met it: a Collision (p.119, ruling CP-19), then the pivot as one body.
    r = rig(gear=3, hazards=6)
    post = rock("post", 100, 1000, 20, 20)
    g = run_step(table(r, obstacles=[post]), wipeouts("rig"), dice=[1] + [1] * 12,
                 options=AT_TABLE)
    play(g, 80.0)
    d = g.pending()
    assert d is not None and d.kind == "table:trailer_swung_touched" and d.page == 119
    assert values(d) == ["none", "post"] and "80 degrees" in d.prompt
    play(g, "post", "side", "smash")
    assert ev(g, "trailer_swung") == [{"vehicle": "rig", "touched": ["post"]}]
    assert ev(g, "collision")[0]["other"] == "post"
    d = g.pending()
    assert d is not None and d.kind == "jackknife_pivot"
    assert r.trailer is not None and r.trailer.hinge == 0  # a mark (CP-1)


def test_at_a_real_table_a_jackknife_swing_meeting_nothing_collides_with_nothing() -> None:
    r = rig(gear=3, hazards=6)
    boulder = rock("r", 635, 480, 20, 20)  # touching the trailer on the virtual table
    g = run_step(table(r, obstacles=[boulder]), wipeouts("rig"), dice=[1] * 5,
                 options=AT_TABLE)
    play(g, 80.0, "none")
    assert not ev(g, "collision") and ev(g, "trailer_swung")[0]["touched"] == []


def test_at_a_real_table_a_piledriver_target_is_put_down_by_the_people() -> None:
    # No spots are measured: the rig's controller says whether the people put the car down
    # elsewhere (p.121, ruling CP-19); then the rig's move goes on, its facts asked again.
    st = piledriver_table()
    st.vehicles["car"].pose = Pose(100, 1000, 0)  # far away on the virtual table
    g = run_step(st, move("rig"), dice=[1, 1, 1], options=AT_TABLE)
    play(g, "none", "medium_straight", 0, "done", "car", "yes", "no", "front", "side")
    play(g, "piledriver", "evade")
    d = g.pending()
    assert d is not None and d.kind == "piledriver_place" and d.player == 0
    assert values(d) == ["stay", "moved"]
    play(g, "moved")
    assert ev(g, "piledriver") == [{"vehicle": "rig", "target": "car"}]
    d = g.pending()
    assert d is not None and d.kind == "table:move_touched"  # the move goes on (p.121)
    assert st.vehicles["car"].pose == Pose(100, 1000, 0)  # the people moved it (CP-1)


def rig_move_at_a_real_table(room: str) -> Game:
    """The rig makes a Medium Straight at a real table; the people say it touched nothing,
    then whether its trailer found room (``room``)."""
    r = rig(x=600, y=300)
    far = vehicle("a", "car", 100, 1000, heading=90, player=1)
    g = run_step(table(r, far), move("rig"), dice=[1] * 30, options=AT_TABLE)
    play(g, "none", "medium_straight", 0, "done", "none")
    d = g.pending()
    assert d is not None and d.kind == "table:move_trailer_room" and d.page == 118
    assert d.player == 0 and values(d) == ["yes", "no"]  # room, the book's default, first
    play(g, room)
    return g


def test_at_a_real_table_a_rig_with_no_room_for_its_trailer_is_interrupted() -> None:
    # Nothing touched, but the people say the trailer found no room at the template's end:
    # the rig backed up along it (VR-19), so the move counts as interrupted (CP-24).
    g = rig_move_at_a_real_table("no")
    assert ev(g, "move", vehicle="rig") == [{"vehicle": "rig", "interrupted": True,
                                             "touched": []}]


def test_at_a_real_table_a_rig_whose_trailer_found_room_is_not_interrupted() -> None:
    g = rig_move_at_a_real_table("yes")
    assert ev(g, "move", vehicle="rig") == [{"vehicle": "rig", "interrupted": False,
                                             "touched": []}]
