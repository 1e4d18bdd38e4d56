"""Dropped weapons in play (Refuelled pp.77-80): exact tables (mm), scripted dice. Each rule is
checked against the same table without it (no template, no weapon, no hook) so that the test
fails if the rule is removed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest
from tests.builders import (
    activate,
    armed,
    attack,
    ev,
    move_with_hooks,
    play,
    rock,
    run_step,
    table,
    values,
    vehicle,
)
from tests.builders import rolls as all_rolls

from carnage.games.refuelled.engine.attack import attack_step
from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.hazards_on_table import lay
from carnage.games.refuelled.engine.movement import forced_move, movement_step
from carnage.games.refuelled.engine.scenario import Scenario
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.engine.wipeout import wipeout_step
from carnage.games.refuelled.rules.dropped import body_at_gap, sentries
from carnage.geometry.shapes import Pose
from carnage.geometry.surfaces import Surface, SurfaceKind
from carnage.kernel.effects import run_flows
from carnage.rulesets import REFUELLED

Layout = tuple[str, str, Pose]


def game(state: GameState, step: Callable[[Game], Flow], dice: Iterable[int] = (),
         templates: Iterable[Layout] = ()) -> Game:
    """A game whose only step is ``step``, with ``templates`` (kind, shape, tip pose) laid
    first, bottom of the stack first."""

    def run(g: Game) -> Flow:
        for kind, shape, pose in templates:
            lay(g, kind, shape, pose, placed_by=None, player=None, source="test", page=78)
        yield from step(g)

    return run_step(state, run, dice)


def rolls(g: Game) -> list[tuple[str, list[int]]]:
    """The dice rolled, leaving out empty rolls (no skid dice)."""
    return [r for r in all_rolls(g) if r[1]]


def straight_on(g: Game, template: str = "medium_straight") -> None:
    """Answer a Movement Step: ``template`` ahead, no skid dice, any free Shift unspent."""
    play(g, template)
    for _ in range(3):
        d = g.pending()
        if d is None or d.kind not in ("skid_dice", "spend_shift"):
            return
        g.apply(0 if d.kind == "skid_dice" else "done")


def mine_at(x: float, y: float, heading: float = 270.0, kind: str = "mine_dropper",
            shape: str = "small_burst") -> Layout:
    return (kind, shape, Pose(x, y, heading))


def close(p: Pose, x: float, y: float, heading: float) -> bool:
    return (abs(p.x - x) < 1e-6 and abs(p.y - y) < 1e-6
            and abs((p.heading - heading + 180) % 360 - 180) < 1e-6)


# -- dropping (p.78) ------------------------------------------------------------------------------
def test_dropping_a_mine_lays_a_small_burst_against_the_rear_edge_and_spends_ammo() -> None:
    a = armed(vehicle("a", "car", 600, 600, 90), ("mine_dropper", "rear", 3))
    g = game(table(a), attack("a"))
    d = g.pending()
    assert d is not None and "drop:mine_dropper#0" in values(d)
    play(g, "drop:mine_dropper#0")
    d = g.pending()  # the rear edge is the only edge: taken for the player
    assert d is not None and d.kind == "drop_offset" and d.domain is not None
    assert (d.domain.low, d.domain.high) == (-15.0, 15.0)
    g.apply(10.0)
    (t,) = g.state.dropped.values()
    # Tip on the rear edge 10 mm to the car's left (west, as it faces north), pointing back.
    assert t.kind == "mine_dropper" and t.template == "small_burst"
    assert close(t.pose, 590, 570, 270)
    assert min(y for _, y in t.polygon) == pytest.approx(490)  # 80 mm long
    assert a.weapons[0].ammo == 2
    assert ev(g, "dropped_template")[0]["template"] == "mine_dropper:1"


def test_one_dropped_weapon_per_attack_step_unless_a_hook_allows_more() -> None:
    def drops(allowed: int | None) -> list[list[str]]:
        a = armed(vehicle("a", "truck", 600, 600, 90), ("mine_dropper", "rear", 3),
                ("caltrop_dropper", "rear", 3))
        a.crew = 3

        def step(g: Game) -> Flow:
            if allowed is not None:
                g.attach_untracked("dropped_per_step", "test", lambda v, ctx: allowed)
            yield from attack_step(g, g.state.vehicles["a"])

        g = game(table(a), step)
        seen = [[str(x) for x in values(g.pending()) if str(x).startswith("drop:")]]
        play(g, "drop:mine_dropper#0", 0.0)
        d = g.pending()  # with nothing else to declare, the Attack Step simply ends
        seen.append([] if d is None else [str(x) for x in values(d)
                                          if str(x).startswith("drop:")])
        return seen

    assert drops(None) == [["drop:mine_dropper#0", "drop:caltrop_dropper#1"], []]
    assert drops(2) == [["drop:mine_dropper#0", "drop:caltrop_dropper#1"],
                        ["drop:caltrop_dropper#1"]]


def test_the_dumper_counts_as_the_steps_dropped_weapon() -> None:
    a = armed(vehicle("a", "truck", 600, 600, 90), ("mine_dropper", "rear", 3),
            ("wreck_lobber", "front", 3))
    g = game(table(a, vehicle("far", "car", 100, 100, player=1)), attack("a"))
    first = [str(x) for x in values(g.pending())]
    assert "drop:mine_dropper#0" in first and "wreck_lobber#1>dump" in first
    play(g, "drop:mine_dropper#0", 0.0)
    assert g.pending() is None  # the Dumper is withdrawn and nothing else is left to declare


def test_a_distracted_vehicle_drops_nothing() -> None:
    a = armed(vehicle("a", "car", 600, 600, 90), ("mine_dropper", "rear", 3))
    g = game(table(a, obstacles=[rock("r", 600, 650, 40, 40)]), attack("a"))
    assert g.pending() is None and ev(g, "distracted") and not g.state.dropped
    free = armed(vehicle("a", "car", 600, 600, 90), ("mine_dropper", "rear", 3))
    assert "drop:mine_dropper#0" in values(game(table(free), attack("a")).pending())


def test_side_drops_choose_the_edge_and_fire_straight_out() -> None:
    a = armed(vehicle("a", "car", 600, 600, 90), ("oil_slick_dropper", "side", 3))
    g = game(table(a), attack("a"))
    play(g, "drop:oil_slick_dropper#0")
    assert values(g.pending()) == ["left", "right"]
    play(g, "right", -30.0)  # right edge (east), 30 mm behind the middle
    oil = g.state.dropped["oil_slick_dropper:1"]
    assert oil.template == "large_burst" and close(oil.pose, 615, 570, 0)


def test_360_degree_drops_choose_any_edge_and_may_turn_the_burst() -> None:
    from carnage.geometry.shapes import penetration

    a = armed(vehicle("a", "car", 600, 600, 90), ("smoke_dropper", "turret", 3))
    g = game(table(a), attack("a"))
    play(g, "drop:smoke_dropper#0")
    assert values(g.pending()) == ["front", "rear", "left", "right"]
    play(g, "front", 0.0)
    d = g.pending()
    assert d is not None and d.kind == "drop_angle" and d.domain is not None
    assert 0 < d.domain.high < 90
    g.apply(d.domain.high)  # turned as far as the burst's sides allow
    smoke = g.state.dropped["smoke_dropper:1"]
    assert close(smoke.pose, 600, 630, 90 + d.domain.high)
    # The turned burst still only touches the car at its tip.
    assert penetration(a.polygon(), smoke.polygon) <= 1e-6


def test_a_drop_placer_hook_takes_over_placement() -> None:
    a = armed(vehicle("a", "car", 600, 600, 90), ("mine_dropper", "rear", 3))

    def step(g: Game) -> Flow:
        def placer(game: Game, ctx: dict[str, Any]) -> Any:
            yield from ()
            return Pose(300, 300, 45)

        g.attach_untracked("drop_placer", "test", lambda value, ctx: placer)
        yield from attack_step(g, g.state.vehicles["a"])

    g = game(table(a), step)
    play(g, "drop:mine_dropper#0")
    assert close(g.state.dropped["mine_dropper:1"].pose, 300, 300, 45)


# -- templates on the table (p.78) ----------------------------------------------------------------
def test_a_mine_dropped_onto_a_vehicle_goes_off_at_once_but_never_under_the_dropper() -> None:
    a = armed(vehicle("a", "car", 600, 600, 90), ("mine_dropper", "rear", 3))
    b = vehicle("b", "car", 600, 520, 0, player=1)  # across the car's tail, under the burst
    # Mine dice 6, 4, 2, 1: three hits (a natural 6 is two); b's evade die (gear 1) a 1.
    g = game(table(a, b), attack("a"), dice=[6, 4, 2, 1, 1])
    play(g, "drop:mine_dropper#0", 0.0)
    assert ev(g, "dropped_effect") == [{"template": "mine_dropper:1", "vehicle": "b"}]
    assert rolls(g) == [("dropped weapon", [6, 4, 2, 1]), ("evade", [1])]
    assert b.damage == 3 and b.hazards == 3  # Blast: a Hazard per un-cancelled hit
    assert a.damage == 0 and not g.state.dropped  # gone after the first vehicle
    assert ev(g, "dropped_template_removed")[0]["template"] == "mine_dropper:1"


def test_a_vehicle_moving_over_a_mine_sets_it_off_and_it_is_gone_for_the_next() -> None:
    b = vehicle("b", "car", 600, 300, 90, player=1)
    c = vehicle("c", "car", 700, 300, 90, player=1)

    def step(g: Game) -> Flow:
        yield from move_with_hooks("b")(g)
        g.state.vehicles["c"].pose = Pose(600, 300, 90)
        yield from move_with_hooks("c")(g)

    # The mine's tip 10 mm beyond where b's Medium Straight ends; its template overlaps it.
    g = game(table(b, c), step, dice=[5, 3, 3, 1, 6], templates=[mine_at(600, 460)])
    straight_on(g)
    assert rolls(g) == [("dropped weapon", [5, 3, 3, 1]), ("evade", [6])]
    assert b.damage == 0 and b.hazards == 0  # the one hit was evaded
    straight_on(g)
    assert len(ev(g, "dropped_effect")) == 1 and c.damage == 0


def test_a_move_past_a_template_is_not_affected() -> None:
    b = vehicle("b", "car", 600, 300, 90, player=1)
    g = game(table(b), move_with_hooks("b"), templates=[mine_at(660, 460)])
    straight_on(g)
    assert not ev(g, "dropped_effect") and len(g.state.dropped) == 1


def test_stacked_templates_resolve_from_the_top_of_the_stack_down() -> None:
    b = vehicle("b", "car", 600, 300, 90, player=1)
    # Mines laid first, Caltrops on top: caltrops (2D6) first, then mines (4D6).
    stack = [mine_at(600, 460), mine_at(600, 455, kind="caltrop_dropper")]
    g = game(table(b), move_with_hooks("b"), dice=[1, 1, 1, 1, 1, 1], templates=stack)
    straight_on(g)
    assert [e["template"] for e in ev(g, "dropped_effect")] == [
        "caltrop_dropper:1", "mine_dropper:1"]
    assert [r for r in rolls(g) if r[0] == "dropped weapon"] == [
        ("dropped weapon", [1, 1]), ("dropped weapon", [1, 1, 1, 1])]


def test_a_forced_move_over_a_mine_sets_it_off() -> None:
    b = vehicle("b", "car", 600, 300, 90, player=1)

    def step(g: Game) -> Flow:
        yield from forced_move(g, g.state.vehicles["b"], "short_straight", source="test",
                               page=39)

    g = game(table(b), step, dice=[4, 4, 4, 4, 1], templates=[mine_at(600, 400)])
    assert ev(g, "dropped_effect") == [{"template": "mine_dropper:1", "vehicle": "b"}]
    assert b.damage == 4 and b.hazards == 4


def test_the_ignores_dropped_hook_lets_a_vehicle_pass_over() -> None:
    b = vehicle("b", "car", 600, 300, 90, player=1)

    def step(g: Game) -> Flow:
        g.attach_untracked("ignores_dropped", "test", lambda value, ctx: True)
        yield from move_with_hooks("b")(g)

    g = game(table(b), step, templates=[mine_at(600, 460)])
    straight_on(g)
    assert not ev(g, "dropped_effect") and len(g.state.dropped) == 1


def test_airborne_vehicles_ignore_dropped_templates() -> None:
    heli = vehicle("h", "helicopter", 600, 300, 90, player=1)
    heli.special_rules = ["airborne"]
    g = game(table(heli), move_with_hooks("h"), templates=[mine_at(600, 460)])
    straight_on(g)
    assert not ev(g, "dropped_effect") and len(g.state.dropped) == 1


# -- the templates one by one (pp.79-80) ----------------------------------------------------------
def test_caltrops_attack_with_two_dice_and_count_as_treacherous() -> None:
    b = vehicle("b", "car", 600, 300, 90, player=1)
    g = game(table(b), move_with_hooks("b"), dice=[4, 2, 1],
             templates=[mine_at(600, 460, kind="caltrop_dropper")])
    straight_on(g)
    assert rolls(g) == [("dropped weapon", [4, 2]), ("evade", [1])]
    assert b.damage == 1
    # The caltrops went with their attack, but the move crossed them: +2 Hazards (DW-4).
    assert ev(g, "hazards", source="treacherous_surface") == [
        {"vehicle": "b", "change": 2, "hazards": 2}]


def test_an_oil_slick_is_a_treacherous_surface_that_stays() -> None:
    b = vehicle("b", "car", 600, 300, 90, player=1)
    oil = ("oil_slick_dropper", "large_burst", Pose(600, 500, 270))
    g = game(table(b), move_with_hooks("b"), templates=[oil])
    straight_on(g)
    assert b.hazards == 2 and "oil_slick_dropper:1" in g.state.dropped
    clean = game(table(vehicle("b", "car", 600, 300, 90, player=1)), move_with_hooks("b"))
    straight_on(clean)
    assert clean.state.vehicles["b"].hazards == 0


def test_treacherous_templates_on_treacherous_ground_still_give_two_hazards() -> None:
    b = vehicle("b", "car", 600, 300, 90, player=1)
    st = table(b)
    st.surfaces["mud"] = Surface("mud", SurfaceKind.TREACHEROUS,
                                 ((560.0, 400.0), (640.0, 400.0), (640.0, 440.0), (560.0, 440.0)))
    oil = ("oil_slick_dropper", "large_burst", Pose(600, 500, 270))
    g = game(st, move_with_hooks("b"), templates=[oil])
    straight_on(g)
    assert b.hazards == 2


def test_napalm_attacks_with_fire() -> None:
    b = vehicle("b", "car", 600, 300, 90, player=1)
    # The fire rule is installed with the weapon that carries it: a napalm dropper on board.
    a = armed(vehicle("a", "car", 100, 100, 90), ("napalm_dropper", "rear", 3))
    g = game(table(a, b), move_with_hooks("b"), dice=[5, 1, 1, 1, 1],
             templates=[mine_at(600, 460, kind="napalm_dropper")])
    straight_on(g)
    assert b.damage == 1 and b.hazards == 0  # Fire, not Blast
    assert ev(g, "on_fire") == [{"vehicle": "b"}]
    # A Napalm template laid with no Napalm Dropper in the game (a perk's) burns all the same.
    c = vehicle("c", "car", 600, 300, 90, player=1)
    g = game(table(c), move_with_hooks("c"), dice=[5, 1, 1, 1, 1],
             templates=[mine_at(600, 460, kind="napalm_dropper")])
    straight_on(g)
    assert ev(g, "on_fire") == [{"vehicle": "c"}]


def glue_run(*gears: int) -> Game:
    """b (gear 3) drives a Medium Straight north in each of two activations; Glue lies across
    each move. ``gears``: b's gear at the start of each activation."""
    b = vehicle("b", "car", 600, 300, 90, player=1, gear=gears[0])
    # A move ends with the car's rear on the template's far end (GM-1): the first move covers
    # y 330-510, the second 510-690; each Glue lies across one of them.
    glue = [("glue_dropper", "large_burst", Pose(600, 500, 270)),
            ("glue_dropper", "large_burst", Pose(600, 700, 270))]
    a = armed(vehicle("a", "car", 100, 100, 90), ("glue_dropper", "rear", 1))
    g = game(table(a, b), activate("b", "b"), templates=glue)
    for _ in gears:
        straight_on(g)
        while (d := g.pending()) is not None and d.kind == "attack":
            g.apply("stop")
    return g


def test_glue_costs_two_gears_at_the_end_of_the_movement_step_once_in_a_row() -> None:
    g = glue_run(3, 1)
    b = g.state.vehicles["b"]
    (loss,) = ev(g, "glue_gear_loss")
    assert loss == {"vehicle": "b", "before": 3, "gear": 1}
    # First activation: treacherous +2 and two gear changes +1 each (p.23; DW-5). The second
    # move crosses the other Glue but is not affected: no gear loss, no treacherous Hazards.
    assert b.gear == 1 and b.hazards == 4
    assert [e["vehicle"] for e in ev(g, "dropped_effect")] == ["b"]


def test_smoke_gives_cover_and_distracts_a_vehicle_touching_it() -> None:
    a = vehicle("a", "car", 600, 300, 90)
    b = vehicle("b", "car", 600, 460, 90, player=1)  # 100 mm apart: Medium range
    smoke = ("smoke_dropper", "large_burst", Pose(530, 380, 0))  # across the gap
    g = game(table(a, b), attack("a"), templates=[smoke])
    play(g, "handgun>b")
    assert ev(g, "declare_attack")[0]["cover"] is True
    clear = game(table(vehicle("a", "car", 600, 300, 90),
                       vehicle("b", "car", 600, 460, 90, player=1)), attack("a"))
    play(clear, "handgun>b")
    assert ev(clear, "declare_attack")[0]["cover"] is False
    # Touching the smoke (its tip on a's front edge): Distracted, no attacks at all.
    touching = ("smoke_dropper", "large_burst", Pose(600, 330, 90))
    d = game(table(vehicle("a", "car", 600, 300, 90), vehicle("b", "car", 600, 460, 90,
                                                               player=1)),
             attack("a"), templates=[touching])
    assert d.pending() is None and ev(d, "distracted")


def test_a_move_touching_smoke_gains_one_hazard() -> None:
    b = vehicle("b", "car", 600, 300, 90, player=1)
    # The smoke's tip just touches b's front edge in its Final Position (y 450-510).
    g = game(table(b), move_with_hooks("b"), templates=[("smoke_dropper", "large_burst",
                                                Pose(600, 510, 90))])
    straight_on(g)
    assert ev(g, "hazards", source="smoke_dropper") == [
        {"vehicle": "b", "change": 1, "hazards": 1}]


# -- RC Car Bombs (p.79) ---------------------------------------------------------------------------
def test_rc_car_is_placed_within_short_range_as_a_tiny_vehicle_not_of_the_team() -> None:
    a = armed(vehicle("a", "car", 600, 600, 90), ("rc_car_bombs", "rear", 3))
    g = game(table(a, vehicle("far", "car", 100, 100, player=1)), attack("a"))
    play(g, "drop:rc_car_bombs#0")
    d = g.pending()
    assert d is not None and d.kind == "place_bearing"
    g.apply(180.0)  # straight behind
    d = g.pending()
    assert d is not None and d.kind == "place_gap" and d.domain is not None
    assert d.domain.high == 60.0  # Short range
    play(g, 10.0, 0.0)  # 10 mm behind, facing as the car does
    rc = g.state.vehicles["rc_car:1"]
    assert close(rc.pose, 600, 550, 90)  # rear edge 570, a 10 mm gap, 20 mm square
    assert (rc.player, rc.gear, rc.hull, rc.crew, rc.handling) == (0, 3, 1, 1, 0)
    assert not rc.in_team and rc.summoned_by == "a" and a.weapons[0].ammo == 2


def test_rc_car_placement_slides_back_to_touch_what_was_in_the_way() -> None:
    a = armed(vehicle("a", "car", 600, 600, 90), ("rc_car_bombs", "rear", 3))
    wall = rock("r", 600, 520, 100, 20)  # its north face at y = 530
    g = game(table(a, vehicle("far", "car", 100, 100, player=1), obstacles=[wall]),
             attack("a"), dice=[1, 1, 1, 1])
    play(g, "drop:rc_car_bombs#0", 180.0, 40.0, 0.0)
    # The RC car would overlap the rock: it stops touching it, and that is a Collision, in
    # which it suffers one damage first and explodes (a is within Medium range: 4 misses).
    (placed,) = ev(g, "rc_car")
    assert placed["y"] == pytest.approx(540.0, abs=0.05)
    assert ev(g, "rc_car_explodes") == [{"vehicle": "rc_car:1"}]
    assert g.state.vehicles["rc_car:1"].status is Status.REMOVED


def test_rc_car_explodes_as_a_middleweight_when_it_collides() -> None:
    a = armed(vehicle("a", "car", 600, 900, 90), ("rc_car_bombs", "rear", 3))
    b = vehicle("b", "car", 600, 300, 0, player=1)  # across the RC car's path
    c = vehicle("c", "car", 900, 300, 90, player=1)  # well out of Medium range

    def step(g: Game) -> Flow:
        yield from attack_step(g, g.state.vehicles["a"])
        rc = g.state.vehicles["rc_car:1"]
        rc.pose = Pose(600, 270, 90)  # drive it up to b
        g.state.active = rc.id
        yield from movement_step(g, rc)

    # Explosion on b: 4D6 (middleweight) 6, 5, 4, 1 = 4 hits; b evades with one die (gear 1).
    g = game(table(a, b, c), step, dice=[6, 5, 4, 1, 2])
    play(g, "drop:rc_car_bombs#0", 0.0, 30.0, 0.0, "stop")
    straight_on(g)  # gear 3: a Medium Straight, straight into b
    assert ev(g, "explosion")[0] == {"origin": "rc_car:1", "weight": "middleweight", "dice": 4,
                                     "targets": ["b"]}
    assert b.damage == 4 and b.hazards == 4  # explosions are Blast
    assert g.state.vehicles["rc_car:1"].status is Status.REMOVED
    assert not ev(g, "wrecked") and g.state.votes == [0, 0]  # no wreck, no Audience Vote
    assert ev(g, "collision_skipped")[0]["reason"].startswith("rc_car:1 left play")


def test_rc_car_wipeout_costs_it_one_damage_first() -> None:
    rc = vehicle("rc", "car", 600, 600, 90)
    rc.type, rc.summoned_by, rc.hull, rc.hazards = "rc_car", "a", 1, 6
    a = armed(vehicle("a", "car", 100, 100, 90), ("rc_car_bombs", "rear", 3))

    def step(g: Game) -> Flow:
        yield from wipeout_step(g, g.state.vehicles["rc"])

    g = game(table(a, rc), step)
    assert ev(g, "wipeout") and not ev(g, "flip_check")
    assert ev(g, "rc_car_explodes") == [{"vehicle": "rc"}] and rc.status is Status.REMOVED


def test_rc_car_cannot_change_gear() -> None:
    rc = vehicle("rc", "car", 600, 300, 90, gear=3)
    rc.type, rc.summoned_by, rc.handling, rc.max_gear = "rc_car", "a", 0, 3
    a = armed(vehicle("a", "car", 100, 100, 90), ("rc_car_bombs", "rear", 3))
    g = game(table(a, rc), move_with_hooks("rc"))
    play(g, "medium_straight")  # trivial in gear 3: a free Shift
    d = g.pending()
    assert d is not None and d.kind == "spend_shift"
    assert not any(str(x).startswith("gear") for x in values(d))
    plain = vehicle("p", "car", 600, 300, 90, gear=3)
    g2 = game(table(plain), move_with_hooks("p"))
    play(g2, "medium_straight", 0)
    assert "gear_down" in values(g2.pending())


def test_scenarios_ignore_rc_cars() -> None:
    a = vehicle("a", "car", 600, 600, 90)
    a.status = Status.WRECKED
    rc = vehicle("rc", "car", 300, 300, 90)
    rc.type, rc.summoned_by = "rc_car", "a"
    st = table(a, rc, vehicle("b", "car", 900, 900, player=1))
    g = Game(ruleset=REFUELLED, state=st, scenario=Scenario())
    out = g.outcome()
    assert out is not None and out.winner == 1


# -- Sentry Gun (p.80) -----------------------------------------------------------------------------
def sentry_game(step: Callable[[Game], Flow], *others: VehicleState,
                dice: Iterable[int] = ()) -> Game:
    a = armed(vehicle("a", "car", 600, 600, 90), ("sentry_gun", "rear", 3))
    g = game(table(a, *others), lambda g: _drop_then(g, step), dice=dice)
    play(g, "drop:sentry_gun#0", 180.0, 0.0)  # touching a's rear edge
    d = g.pending()
    if d is not None and d.kind == "attack" and d.player == 0:
        g.apply("stop")  # a's second crew member makes no attack
    return g


def _drop_then(g: Game, step: Callable[[Game], Flow]) -> Flow:
    yield from attack_step(g, g.state.vehicles["a"])
    yield from step(g)


def test_sentry_gun_is_a_lightweight_destructible_obstacle_with_two_hull() -> None:
    def nothing(g: Game) -> Flow:
        yield from ()

    g = sentry_game(nothing, vehicle("far", "car", 100, 100, player=1))
    (s,) = sentries(g)
    assert (s.hull, s.destructible, s.weight.value, s.placed_by) == (
        2, True, "lightweight", "a")
    assert close(s.pose, 600, 560, 270)


def test_sentry_gun_shoots_an_enemy_ending_its_move_within_medium_range() -> None:
    b = vehicle("b", "car", 700, 380, 90, player=1)
    friend = vehicle("f", "car", 500, 380, 90)

    def step(g: Game) -> Flow:
        yield from activation(g, g.state.vehicles["f"])
        yield from activation(g, g.state.vehicles["b"])

    # Sentry dice 6, 4 = 3 hits; b evades with one die (gear 1): 1.
    g = sentry_game(step, b, friend, dice=[6, 4, 1])
    straight_on(g, "short_straight")  # the friend: never a target
    play(g, "stop")
    straight_on(g, "short_straight")  # b ends about 80 mm from the gun
    assert ev(g, "sentry_attack") == [{"obstacle": "sentry_gun:1", "target": "b",
                                       "cover": False}]
    assert b.damage == 3 and friend.damage == 0


def test_vehicles_may_shoot_a_sentry_gun_down() -> None:
    b = vehicle("b", "car", 600, 470, 90, player=1)

    def step(g: Game) -> Flow:
        yield from attack_step(g, g.state.vehicles["b"])

    g = sentry_game(step, b, dice=[6])
    d = g.pending()
    assert d is not None and "handgun>sentry_gun:1" in values(d)
    play(g, "handgun>sentry_gun:1")
    assert ev(g, "obstacle_damage") == [{"obstacle": "sentry_gun:1", "amount": 2,
                                         "hull_points": 0}]
    assert not sentries(g)


# -- geometry helper ------------------------------------------------------------------------------
def test_body_at_gap_leaves_exactly_the_gap() -> None:
    from carnage.geometry.shapes import Rect, distance

    car = Rect(Pose(0, 0, 30), 60, 30)
    for bearing in (0.0, 45.0, 100.0, 200.0):
        p = body_at_gap(car, bearing, 25.0, 20, 20, 10)
        assert distance(car.polygon(), Rect(p, 20, 20).polygon()) == pytest.approx(25, abs=1e-6)


def test_each_smoke_template_touched_gives_a_hazard() -> None:
    b = vehicle("b", "car", 600, 300, 90, player=1)
    two = [("smoke_dropper", "large_burst", Pose(600, 510, 90)),
           ("smoke_dropper", "large_burst", Pose(615, 480, 0))]  # b's front and right side
    g = game(table(b), move_with_hooks("b"), templates=two)
    straight_on(g)
    assert b.hazards == 2


def test_smoke_dropped_first_covers_a_shot_declared_after_it() -> None:
    a = armed(vehicle("a", "car", 600, 300, 90), ("smoke_dropper", "turret", 3))
    b = vehicle("b", "car", 600, 460, 90, player=1)
    g = game(table(a, b), attack("a"), dice=[1])  # the handgun misses
    play(g, "drop:smoke_dropper#0", "front", 0.0, 0.0)  # straight ahead, between a and b
    play(g, "handgun>b")
    assert ev(g, "declare_attack")[-1]["cover"] is True


# -- drawing the table -----------------------------------------------------------------------------
def test_dropped_templates_are_drawn_and_in_the_web_view() -> None:
    from carnage.cli.play_cmd import table_view
    from carnage.games.refuelled.table_view import SeatControl, game_view, table_svg
    from carnage.render import render_svg

    b = vehicle("b", "car", 600, 300, 90, player=1)
    g = game(table(b), move_with_hooks("b"), templates=[("oil_slick_dropper", "large_burst",
                                                Pose(200, 200, 0))])
    shapes = [t for t in table_view(g).templates if t.kind == "dropped"]
    assert [(t.label, t.polygons) for t in shapes] == [
        ("oil_slick_dropper:1", (g.state.dropped["oil_slick_dropper:1"].polygon,))]
    assert 'class="template dropped" data-label="oil_slick_dropper:1"' in render_svg(
        table_view(g))
    assert 'data-label="oil_slick_dropper:1"' in table_svg(g)
    view = game_view(g, "g1", [SeatControl(0, "human"), SeatControl(1, "human")])
    (d,) = view.dropped
    assert (d.id, d.kind, d.shape) == ("oil_slick_dropper:1", "oil_slick_dropper",
                                       "large_burst")
    assert d.polygon[0] == (200.0, 200.0)  # the burst's tip


# -- whole games -----------------------------------------------------------------------------------
def dropping_team(name: str) -> Any:
    from carnage.team.model import TeamSpec, VehicleSpec, WeaponSpec

    def w(wid: str, facing: str = "rear") -> WeaponSpec:
        return WeaponSpec(id=wid, facing=facing)

    return TeamSpec(name=name, cans=200, vehicles=(
        VehicleSpec(name="Layer", type="truck", weapons=(
            w("mine_dropper"), w("caltrop_dropper", "side"), w("glue_dropper"))),
        VehicleSpec(name="Slicker", type="car", weapons=(
            w("oil_slick_dropper"), w("smoke_dropper", "side"), w("rc_car_bombs"),
            w("sentry_gun"), w("napalm_dropper", "side"))),
    ))


@pytest.mark.parametrize("bots", [("random", "random"), ("heuristic", "random")])
def test_bots_play_whole_games_with_dropped_weapons_and_replay_them(
        bots: tuple[str, str]) -> None:
    from tests.simulation import invariant_problems

    from carnage.ai import bot_rng, make_bot
    from carnage.ai.runner import play_out
    from carnage.games.refuelled.setup import (
        GameSetup,
        log_text,
        parse_log,
        record_game,
    )
    from carnage.rulesets import build_game, replay

    setup = GameSetup(teams=(dropping_team("A"), dropping_team("B")), max_rounds=5)
    laid: set[str] = set()
    for seed in range(6):
        g = build_game(setup, seed)
        problems: list[str] = []

        def after(game: Game, d: Any, problems: list[str] = problems) -> None:
            if not problems:
                problems.extend(invariant_problems(game))

        play_out(g, [make_bot(b) for b in bots], bot_rng(seed), after=after)
        assert not problems, (seed, problems[:3])
        assert g.outcome() is not None
        laid |= {str(e.data["weapon"]) for e in g.log.of_kind("dropped_template")}
        laid |= {e.kind for e in g.log if e.kind in ("rc_car", "sentry_gun")}
        if seed == 0:
            again = replay(parse_log(log_text(record_game(g, setup, seed))))
            assert again.identical and again.crash is None
    if bots[0] == "random":
        assert {"mine_dropper", "oil_slick_dropper", "rc_car", "sentry_gun"} <= laid


# -- the heuristic bot -----------------------------------------------------------------------------
def test_heuristic_bot_drops_on_a_foe_close_behind_and_aims_at_it() -> None:
    import random

    from carnage.games.refuelled.ai.bots import HeuristicBot

    bot, rng = HeuristicBot(), random.Random(0)

    def first_answer(foe_at: Pose, *mounts: tuple[str, str | None, int | None]) -> Any:
        a = armed(vehicle("a", "car", 600, 600, 90), *mounts)
        foe = vehicle("b", "car", foe_at.x, foe_at.y, foe_at.heading, player=1)
        g = game(table(a, foe), attack("a"))
        d = g.pending()
        assert d is not None
        return g, bot.choose(g, d, rng)

    # A foe 40 mm behind, out of the rear arc of nothing but the dropper: drop.
    g, pick = first_answer(Pose(620, 500, 90), ("mine_dropper", "rear", 3))
    assert pick == "drop:mine_dropper#0"
    g.apply(pick)
    d = g.pending()
    assert d is not None and d.kind == "drop_offset"
    assert bot.choose(g, d, rng) == -15.0  # slid towards the foe (east: the car's right)
    # A foe far away: no drop.
    _, pick = first_answer(Pose(600, 100, 90), ("mine_dropper", "rear", 3))
    assert pick == "stop"
    # An RC Car goes towards the foe, as close as Short range allows.
    g, pick = first_answer(Pose(700, 700, 0), ("rc_car_bombs", "rear", 3))
    assert pick == "drop:rc_car_bombs#0"
    g.apply(pick)
    answers = []
    for _ in range(2):  # bearing, then gap
        d = g.pending()
        assert d is not None
        answers.append(bot.choose(g, d, rng))
        g.apply(answers[-1])
    assert answers[0] == pytest.approx(-45.0)  # north-east of a car facing north
    assert answers[1] == 60.0


def test_a_sentry_gun_is_not_put_down_off_the_table() -> None:
    a = armed(vehicle("a", "car", 600, 55, 90), ("sentry_gun", "rear", 3))  # rear edge 25 mm in
    g = game(table(a, vehicle("far", "car", 900, 900, player=1)), attack("a"))
    play(g, "drop:sentry_gun#0", 180.0, 30.0)  # asked for 30 mm behind: past the edge
    (s,) = sentries(g)
    assert min(y for _, y in s.polygon()) == pytest.approx(0.0, abs=0.05)  # at the edge


# -- at a real table (companion mode, engine/table_facts.py) ------------------------------------
def opening_at_table(state: GameState, vid: str, templates: Iterable[Layout]) -> Game:
    """``vid``'s Attack Step with the rules that open it, at a real table, ``templates``
    laid first."""

    def step(g: Game) -> Flow:
        for kind, shape, pose in templates:
            lay(g, kind, shape, pose, placed_by=None, player=None, source="test", page=78)
        v = g.state.vehicles[vid]
        g.state.active, g.state.step = vid, "attack"
        yield from run_flows(g, "attack_start", {"game": g, "vehicle": v})
        yield from attack_step(g, v)

    return run_step(state, step, options=RuleOptions(physical=True))


def test_at_a_real_table_smoke_reported_touching_distracts() -> None:
    # The smoke lies far from a on the virtual table; the people say a touches it: Distracted
    # (p.80), so no shooting attack is offered at all, though b is said to be in reach.
    smoke = ("smoke_dropper", "large_burst", Pose(100, 1000, 0))
    g = opening_at_table(table(vehicle("a", "car", 600, 300, 90),
                               vehicle("b", "car", 600, 460, 90, player=1)), "a", [smoke])
    d = g.pending()
    assert d is not None and d.kind == "table:smoke_touching" and d.page == 80
    assert values(d) == ["none", "smoke_dropper:1"]
    play(g, "smoke_dropper:1", "none")  # then: touching no obstruction
    assert g.pending() is None
    assert ev(g, "distracted") == [{"vehicle": "a", "touching": []}]


def test_at_a_real_table_smoke_not_reported_leaves_it_free_to_shoot() -> None:
    # Its tip on a's front edge on the virtual table (Distracted there); the people say a
    # does not touch it: a may shoot.
    touching = ("smoke_dropper", "large_burst", Pose(600, 330, 90))
    g = opening_at_table(table(vehicle("a", "car", 600, 300, 90),
                               vehicle("b", "car", 600, 460, 90, player=1)), "a", [touching])
    play(g, "none", "none", "b@medium")
    d = g.pending()
    assert d is not None and d.kind == "attack" and values(d) == ["stop", "handgun>b"]
    assert not ev(g, "distracted")


def test_at_a_real_table_an_rc_car_laid_touching_what_the_people_say_collides() -> None:
    # The people lay the RC Car within Short (no bearing or gap is asked, ruling CP-19) and
    # say it touches the rock: a Collision, in which it first suffers one damage and
    # explodes (p.79); the people then say the blast reaches a (4 dice: 1, 1, 1, 1 miss).
    a = armed(vehicle("a", "car", 600, 600, 90), ("rc_car_bombs", "rear", 3))
    far = rock("r", 100, 1000, 100, 20)
    g = run_step(table(a, vehicle("far", "car", 100, 100, player=1), obstacles=[far]),
                 attack("a"), dice=[1, 1, 1, 1], options=RuleOptions(physical=True))
    play(g, "none", "none")  # a touches nothing; its handgun reaches nobody
    play(g, "drop:rc_car_bombs#0")
    d = g.pending()
    assert d is not None and d.kind == "table:rc_car_touching" and d.page == 79
    assert d.player == 0 and values(d) == ["none", "a", "far", "r"]
    play(g, "r", "none")
    d = g.pending()
    assert d is not None and d.kind == "table:collision_edge"
    play(g, "front")
    d = g.pending()
    assert d is not None and d.kind == "table:explosion_reach"
    play(g, "a", "none")
    assert ev(g, "rc_car_explodes") == [{"vehicle": "rc_car:1"}]
    assert ev(g, "explosion")[0]["targets"] == ["a"]


def test_at_a_real_table_an_rc_car_laid_over_a_mine_sets_it_off() -> None:
    a = armed(vehicle("a", "car", 600, 600, 90), ("rc_car_bombs", "rear", 3))
    mine = ("mine_dropper", "small_burst", Pose(100, 1000, 0))  # far away on the virtual table
    g = run_step(table(a), lambda g: _laid_then(g, [mine], attack_step(g, a)),
                 dice=[6, 1, 1, 1, 1, 1, 1], options=RuleOptions(physical=True))
    play(g, "drop:rc_car_bombs#0", "none")  # it touches nothing
    d = g.pending()
    assert d is not None and d.kind == "table:rc_car_under"
    assert values(d) == ["none", "mine_dropper:1"]
    play(g, "mine_dropper:1")
    assert [e["vehicle"] for e in ev(g, "dropped_effect")] == ["rc_car:1"]


def _laid_then(g: Game, templates: Iterable[Layout], then: Flow) -> Flow:
    for kind, shape, pose in templates:
        lay(g, kind, shape, pose, placed_by=None, player=None, source="test", page=78)
    yield from then


def sentry_at_a_real_table(dice: Iterable[int]) -> Game:
    """a sets a Sentry Gun at a real table, then b (far off on the virtual table) moves, the
    people saying it touched nothing and stayed on the table."""
    a = armed(vehicle("a", "car", 600, 600, 90), ("sentry_gun", "rear", 3))
    b = vehicle("b", "car", 100, 1000, 90, player=1)
    mv = move_with_hooks("b")

    def step(g: Game) -> Flow:
        yield from attack_step(g, g.state.vehicles["a"])
        yield from mv(g)

    g = run_step(table(a, b), step, dice=dice, options=RuleOptions(physical=True))
    play(g, "none", "none", "drop:sentry_gun#0")  # no bearing or gap asked (CP-19)
    play(g, "none")  # a's handgun reaches nobody
    d = g.pending()
    assert d is not None and d.kind == "table:sentry_in_reach"
    play(g, "none", "none")  # nor its own Sentry Gun; b touches nothing
    straight_on(g, "short_straight")
    play(g, "none", "no")  # its move met nothing and stayed on the table
    return g


def test_at_a_real_table_a_sentry_gun_shoots_whom_the_people_say_it_reaches() -> None:
    # The people say b ended its move within Medium of the gun, in sight, not in cover: the
    # gun's 2 dice (6, 4) score 3 hits, b evades with one die (1) and takes 3 (p.80, CP-19).
    g = sentry_at_a_real_table([6, 4, 1])
    d = g.pending()
    assert d is not None and d.kind == "table:sentry_reach" and d.page == 80
    assert d.player == 0 and values(d) == ["no", "yes"]
    assert "Medium range of Sentry Gun 1," in d.prompt and "sentry_gun" not in d.prompt
    play(g, "yes")
    d = g.pending()
    assert d is not None and d.kind == "table:sentry_cover" and values(d) == ["no", "yes"]
    play(g, "no")
    assert ev(g, "sentry_attack") == [{"obstacle": "sentry_gun:1", "target": "b",
                                       "cover": False}]
    assert g.state.vehicles["b"].damage == 3


def test_at_a_real_table_a_sentry_gun_holds_fire_when_the_people_say_out_of_reach() -> None:
    g = sentry_at_a_real_table([])
    play(g, "no")
    assert g.pending() is None and ev(g, "sentry_attack") == []
    assert g.state.vehicles["b"].damage == 0 and len(sentries(g)) == 1


def sentry_shot_at_a_real_table(dice: Iterable[int]) -> Game:
    """a sets a Sentry Gun at a real table, then b (far off on the virtual table) begins its
    Attack Step, the people saying it touches nothing and its Handgun reaches no vehicle."""
    a = armed(vehicle("a", "car", 600, 600, 90), ("sentry_gun", "rear", 3))
    b = vehicle("b", "car", 100, 1000, 90, player=1)

    def step(g: Game) -> Flow:
        yield from attack_step(g, g.state.vehicles["a"])
        yield from attack_step(g, g.state.vehicles["b"])

    g = run_step(table(a, b), step, dice=dice, options=RuleOptions(physical=True))
    play(g, "none", "none", "drop:sentry_gun#0")  # no bearing or gap asked (CP-19)
    play(g, "none", "none")  # a's handgun reaches nobody, nor its own Sentry Gun
    play(g, "none", "none")  # b touches nothing; its handgun reaches no vehicle
    return g


def test_at_a_real_table_a_weapon_shoots_the_sentry_gun_the_people_say_it_reaches() -> None:
    # Far off on the virtual table, b's controller names the Sentry Gun within range and arc
    # of its Handgun, not in cover: the shot is offered and its 6 takes both Hull Points
    # (p.80, CP-19).
    g = sentry_shot_at_a_real_table([6])
    d = g.pending()
    assert d is not None and d.kind == "table:sentry_in_reach" and d.page == 80
    assert d.player == 1 and values(d) == ["none", "sentry_gun:1", "sentry_gun:1@cover"]
    play(g, "sentry_gun:1")
    d = g.pending()
    assert d is not None and d.kind == "attack"
    assert values(d) == ["stop", "handgun>sentry_gun:1"]
    assert d.options[1].label == "Handgun at Sentry Gun 1"  # in words, as it was asked
    play(g, "handgun>sentry_gun:1")
    assert ev(g, "obstacle_damage") == [{"obstacle": "sentry_gun:1", "amount": 2,
                                         "hull_points": 0}]
    assert not sentries(g)


def test_at_a_real_table_a_sentry_gun_named_by_nobody_is_not_offered() -> None:
    # The virtual b is right behind the gun, but the people name no Sentry Gun in reach: no
    # shot at it is offered, nothing is rolled and the gun stands (CP-19).
    a = armed(vehicle("a", "car", 600, 600, 90), ("sentry_gun", "rear", 3))
    b = vehicle("b", "car", 600, 470, 90, player=1)

    def step(g: Game) -> Flow:
        yield from attack_step(g, g.state.vehicles["a"])
        yield from attack_step(g, g.state.vehicles["b"])

    g = run_step(table(a, b), step, dice=[6], options=RuleOptions(physical=True))
    play(g, "none", "none", "drop:sentry_gun#0")
    play(g, "none", "none")  # a's handgun reaches nobody, nor its own Sentry Gun
    play(g, "none", "none")  # b touches nothing; its handgun reaches no vehicle
    d = g.pending()
    assert d is not None and d.kind == "table:sentry_in_reach"
    play(g, "none")
    assert g.pending() is None  # nothing to shoot: b's Attack Step ends
    assert rolls(g) == [] and ev(g, "obstacle_damage") == [] and len(sentries(g)) == 1


def test_a_sentry_gun_keeps_its_number_when_another_is_destroyed() -> None:
    """The people know each Sentry Gun by the number it was given when set down: a second gun
    stays "Sentry Gun 2" after the first is gone (no gun is renamed under their eyes)."""
    import dataclasses

    from carnage.games.refuelled.rules.dropped import sentry_words

    g = sentry_shot_at_a_real_table([6])
    first = g.state.obstacles["sentry_gun:1"]
    g.state.obstacles["sentry_gun:2"] = dataclasses.replace(first, id="sentry_gun:2")
    assert [sentry_words(g, s.id) for s in sentries(g)] == ["Sentry Gun 1", "Sentry Gun 2"]
    del g.state.obstacles["sentry_gun:1"]
    assert sentry_words(g, "sentry_gun:2") == "Sentry Gun 2"
    assert sentry_words(g, "sentry_gun:1") == "the Sentry Gun"  # gone: no number to name


def test_a_new_sentry_gun_never_takes_the_number_of_a_gun_gone() -> None:
    """Sentry Gun 1 is shot down; the next gun set down is Sentry Gun 2, not a second
    "Sentry Gun 1", so each number in the log means one gun."""
    from carnage.games.refuelled.rules.dropped import sentry_words

    b = vehicle("b", "car", 600, 470, 90, player=1)

    def step(g: Game) -> Flow:
        yield from attack_step(g, g.state.vehicles["b"])
        yield from activation(g, g.state.vehicles["a"])

    g = sentry_game(step, b, dice=[6])
    play(g, "handgun>sentry_gun:1")
    assert not sentries(g)  # the first gun is gone
    d = g.pending()
    while d is not None and d.player == 1:  # b has nothing more to do
        play(g, "stop")
        d = g.pending()
    straight_on(g, "short_straight")  # a's next activation: a move, then its Attack Step
    d = g.pending()
    assert d is not None and "drop:sentry_gun#0" in values(d)
    play(g, "drop:sentry_gun#0", 180.0, 0.0)
    assert [s.id for s in sentries(g)] == ["sentry_gun:2"]
    assert [e["obstacle"] for e in ev(g, "sentry_gun")] == ["sentry_gun:1", "sentry_gun:2"]
    assert sentry_words(g, "sentry_gun:2") == "Sentry Gun 2"
