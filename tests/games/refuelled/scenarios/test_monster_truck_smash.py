"""Monster Truck Smash (Refuelled pp.147-148): scripted dice, exact poses, the real flow.

Default teams: seat 1 is the Monster (two Monster Trucks), seat 2 the Mice (a Car and a
Buggy). Every set-up choice is the first offered; ``before_last`` lays the table out exactly
just before the last vehicle deploys, so the first turn sees it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.builders import DEFAULTS, drive, ev, play, values, wound

from carnage.catalog import Weight
from carnage.games.refuelled.engine.collision import smash_dice
from carnage.games.refuelled.engine.damage import suffer_damage, wreck
from carnage.games.refuelled.engine.game import Flow, Game
from carnage.games.refuelled.engine.state import WEIGHT_CLASS, Obstacle, Status
from carnage.games.refuelled.engine.votes import respawn
from carnage.games.refuelled.scenarios import beast_table as bt
from carnage.games.refuelled.scenarios.common import score, spawn, tokens
from carnage.games.refuelled.scenarios.monster_truck_smash import (
    FLAG,
    MonsterTruckSmash,
    compass_points,
)
from carnage.games.refuelled.setup import GameSetup, SetupError, build_game
from carnage.geometry.shapes import Pose
from carnage.kernel.dice import ScriptedDice
from carnage.team.io import parse_team

MONSTER_A, MONSTER_B = "p1-monster-truck-a", "p1-monster-truck-b"
CAR, BUGGY = "p2-blue-car", "p2-blue-buggy"


def set_up(dice: list[int], after: Callable[[Game], None] | None = None,
           before_last: Callable[[Game], None] | None = None) -> Game:
    """``before_last``: changes made before the last vehicle (the Buggy) deploys, which the
    start of round 1 sees; ``after``: poses set once everything is deployed, before the first
    vehicle is picked."""
    g = build_game(GameSetup(scenario="monster-truck-smash", players=2),
                   dice=ScriptedDice(dice))
    while (d := g.pending()) is not None and d.kind not in ("activate", "spend_votes",
                                                             "commercial_break"):
        if d.kind == "spawn_pose" and d.vehicle == BUGGY and before_last is not None:
            before_last(g)
        g.apply(d.options[0].value)
    if after is not None:
        after(g)
    return g


def place(g: Game, **poses: tuple[float, float, float]) -> None:
    """Put vehicles at exact poses: a placement, not a motion (the motion watchers' memory of
    where each was last seen is set too)."""
    for vid, (x, y, h) in poses.items():
        g.state.vehicles[vid].pose = Pose(x, y, h)
        for key in ("chalk_seen", "token_seen"):
            g.state.scenario.setdefault(key, {})[vid] = Pose(x, y, h)


def test_the_monster_holds_pole_spawns_at_the_centre_and_flags_stand_on_the_compass() -> None:
    g = set_up([1] * 400)
    st = g.state
    assert st.scenario["monster"] == 0 and st.pole == 0
    assert spawn.spawn_point(st, 0) == bt.centre(st)
    cx, cy = bt.centre(st)
    long = g.templates.ranges["long"]
    flags = {t: tokens.token_point(st, t) for t in tokens.on_table(st, "flag")}
    assert len(flags) == 8
    assert flags["flag-N"] == (cx, cy + long)
    assert all(abs(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 - long) < 0.01
               for x, y in flags.values())
    # Carpe Diem cannot take it and it never passes (ruling MTS-3).
    assert not MonsterTruckSmash().move_pole(g, 1, "carpe diem", source="test", page=90)
    assert st.pole == 0


def test_a_team_of_anything_but_monster_trucks_cannot_be_the_monster() -> None:
    mice = parse_team({"name": "Mice", "cans": 50, "vehicles": [
        {"name": "Car", "type": "car"}]}, "mice")
    with pytest.raises(SetupError, match="only Monster Trucks"):
        build_game(GameSetup(scenario="monster-truck-smash", teams=(mice, mice), players=2))


def test_squashed_a_monster_smash_that_damages_a_mouse_wrecks_it_and_scores() -> None:
    # Monster Truck A (gear 1) drives a Short Straight head-on into the Car 20 mm ahead:
    # it smashes with all 6s, the Car evades (1 die in gear 1: a 1): Squashed.
    n = smash_dice("head_on", 1, 1, WEIGHT_CLASS[Weight.HEAVYWEIGHT],
                   WEIGHT_CLASS[Weight.MIDDLEWEIGHT])
    g = set_up([6] * n + [1] * 200, lambda g: place(
        g, **{MONSTER_A: (300.0, 300.0, 90.0), CAR: (300.0, 410.0, 270.0),
              MONSTER_B: (700.0, 900.0, 0.0), BUGGY: (700.0, 200.0, 0.0)}))
    st = g.state
    for choice, kind in ((MONSTER_A, "activate"), ("short_straight", "template"),
                         (0, "skid_dice")):
        d = g.pending()
        assert d is not None and d.kind == kind
        g.apply(choice)
    while (d := g.pending()) is not None and d.kind != "collision_reaction":
        g.apply(d.options[0].value)
    while (d := g.pending()) is not None and d.kind == "collision_reaction":
        g.apply("smash" if d.vehicle == MONSTER_A else "evade")
    car = st.vehicles[CAR]
    assert ev(g, "squashed") == [{"vehicle": CAR, "by": MONSTER_A}]
    assert car.status is not Status.ACTIVE
    assert not any(o.wreck_of == CAR for o in st.obstacles.values())
    assert score.total(g, score.VP, 0) == 1
    assert ev(g, "audience_vote", player=1)  # the Mouse still has its wreck vote (MTS-7)


def _mouse_turn(g: Game) -> None:
    """The Monster's turn: Monster Truck A drives a Short Straight, no attack."""
    for choice in (MONSTER_A, "short_straight", 0):
        g.apply(choice)
    d = drive(g)
    assert d is not None and d.kind == "activate" and d.player == 1


def test_chalk_one_up_banks_carried_flags_and_a_new_flag_goes_on_an_empty_point() -> None:
    def lay(g: Game) -> None:
        st = g.state
        sx, sy = spawn.spawn_point(st, 1) or (0.0, 0.0)
        place(g, **{MONSTER_A: (450.0, 500.0, 180.0), MONSTER_B: (700.0, 900.0, 0.0),
                    BUGGY: (700.0, 200.0, 0.0), CAR: (sx + 135.0, sy + 25.0, 180.0)})
        tokens.pick_up(g, "flag-N", st.vehicles[CAR], source="test", page=148)
        tokens.pick_up(g, "flag-E", st.vehicles[CAR], source="test", page=148)

    g = set_up([1] * 400, lay)
    st = g.state
    _mouse_turn(g)
    for choice in (CAR, "short_straight", 0):
        g.apply(choice)
    d = drive(g)
    assert score.total(g, score.VP, 1) == 4
    assert not tokens.carried_by(st, CAR)
    assert d is not None and d.player == 1
    empty = {str(o.value) for o in d.options}
    assert {"N", "E"} <= empty and "S" not in empty
    g.apply("E")
    new = [t for t in tokens.on_table(st, "flag") if t.startswith("flag-new")]
    assert new and tokens.token_point(st, new[0]) == compass_points(
        st, g.templates.ranges["long"])["E"]


def test_the_monsters_trucks_ignore_flags_and_a_mouse_picks_one_up_by_touching_it() -> None:
    def lay(g: Game) -> None:
        cx, cy = bt.centre(g.state)
        long = g.templates.ranges["long"]
        place(g, **{MONSTER_A: (cx, cy + long - 60.0, 90.0), MONSTER_B: (700.0, 1000.0, 0.0),
                    BUGGY: (700.0, 200.0, 0.0), CAR: (cx - long + 40.0, cy, 180.0)})

    g = set_up([1] * 400, lay)
    st = g.state
    _mouse_turn(g)
    assert "flag-N" in tokens.on_table(st, "flag")  # driven over, not picked up
    for choice in (CAR, "short_straight", 0):
        g.apply(choice)
    drive(g)
    assert tokens.carried_by(st, CAR) == ["flag-W"]


def test_commercial_break_respawns_a_wrecked_vehicle_free_at_its_spawn_point() -> None:
    def lay(g: Game) -> None:
        st = g.state
        b = st.vehicles[CAR]
        b.pose = Pose(600.0, 300.0, 0.0)
        b.status = Status.WRECKED
        st.obstacles[f"wreck:{CAR}"] = Obstacle(f"wreck:{CAR}", b.pose, b.length,
                                                b.width, weight=b.weight, destructible=True,
                                                wreck_of=CAR)
        g.log.emit("wrecked", source="damage", page=43, vehicle=CAR, player=1)

    g = set_up([1] * 400, before_last=lay)
    st = g.state
    d = g.pending()
    assert d is not None and d.kind == "commercial_break" and d.vehicle == CAR
    votes = st.votes[1]
    g.apply("respawn")
    d = g.pending()
    assert d is not None and d.kind == "respawn_position"
    g.apply(d.options[0].value)
    b = st.vehicles[CAR]
    assert b.in_play and st.votes[1] == votes and f"wreck:{CAR}" not in st.obstacles
    assert b.hull_points == max(1, b.hull // 2)
    short = g.templates.ranges["short"]
    from carnage.geometry.shapes import distance
    assert distance(b.polygon(), bt.disc(spawn.spawn_point(st, 1) or (0, 0))) <= short + 1e-6


def test_a_carrier_touching_a_friend_may_pass_its_flags_but_never_to_the_monster() -> None:
    def lay(g: Game) -> None:
        st = g.state
        # The Car drives a Short Straight into the Buggy; Monster Truck B runs alongside
        # the Car, touching its side all the way.
        place(g, **{MONSTER_A: (450.0, 500.0, 180.0), MONSTER_B: (330.0, 835.0, 0.0),
                    CAR: (300.0, 800.0, 0.0), BUGGY: (300.0 + 30.0 + 60.0 + 35.0, 800.0, 0.0)})
        tokens.pick_up(g, "flag-S", st.vehicles[CAR], source="test", page=148)

    g = set_up([1] * 400, lay)
    st = g.state
    _mouse_turn(g)
    for choice in (CAR, "short_straight", 0):
        g.apply(choice)
    d = drive(g, collision_reaction="evade")
    assert d is not None and d.kind == "token_drop"
    from carnage.games.refuelled.engine.movement import touching_ids
    assert {BUGGY, MONSTER_B} <= touching_ids(g, st.vehicles[CAR])
    assert {str(o.value) for o in d.options} == {"keep", f"give:{BUGGY}"}
    g.apply(f"give:{BUGGY}")
    assert tokens.carried_by(st, BUGGY) == ["flag-S"]


def test_five_vp_at_the_end_of_a_gear_phase_ends_the_game() -> None:
    g = set_up([1] * 400, before_last=lambda g: score.add(g, score.VP, 5, player=1,
                                                          source="test", page=148))
    st = g.state
    while (d := g.pending()) is not None:
        g.apply("stop" if d.kind == "attack" else "done" if d.kind == "spend_votes"
                else d.options[0].value)
    assert st.gear_phase == 1 and st.round == 1
    assert st.winner == 1 and "5 Victory Points" in st.reason


def _run(flow: Flow, **answers: Any) -> None:
    """Run ``flow`` outside the turn order, answering its decisions by kind."""
    from carnage.kernel.decisions import Decision

    reply: Any = None
    while True:
        try:
            d = flow.send(reply)
        except StopIteration:
            return
        assert isinstance(d, Decision), d
        reply = answers[d.kind] if d.kind in answers else d.options[0].value


def test_a_mouse_skidding_to_a_halt_picks_up_no_flag() -> None:
    # The Car, one Hull Point left, faces flag N 20 mm beyond its front edge; wrecked, it
    # skids a Short Straight right over the flag, but a wreck skidding to a halt picks
    # nothing up (SC-44). Its explosion check rolls a 1.
    def lay(g: Game) -> None:
        fx, fy = tokens.token_point(g.state, "flag-N")
        car = g.state.vehicles[CAR]
        place(g, **{MONSTER_A: (150.0, 1100.0, 0.0), MONSTER_B: (800.0, 1100.0, 0.0),
                    BUGGY: (800.0, 150.0, 0.0),
                    CAR: (fx, fy - tokens.TOKEN_SIZE / 2 - 20.0 - car.length / 2, 90.0)})
        wound(car, 1)

    g = set_up([1] * 400, lay)
    st = g.state
    car = st.vehicles[CAR]
    _run(suffer_damage(g, car, 1, source="test", page=43))
    assert len(ev(g, "forced_move", vehicle=CAR, source="skid_to_a_halt")) == 1
    _, fy = tokens.token_point(st, "flag-N")
    assert car.status is Status.WRECKED and car.pose.y - car.length / 2 > fy
    assert "flag-N" in tokens.on_table(st, FLAG) and not ev(g, "token_picked_up")
    assert not ev(g, "token_dropped")


def test_a_squashed_mouse_respawned_and_later_shot_down_is_not_squashed_again() -> None:
    # The squash of the test above, then the Car comes back at its spawn point (the flow a
    # Commercial Break runs) and is wrecked by gunfire: the Monster scored its one VP for
    # the squash and scores nothing for the gunfire (MTS-11), and the wreck stays.
    n = smash_dice("head_on", 1, 1, WEIGHT_CLASS[Weight.HEAVYWEIGHT],
                   WEIGHT_CLASS[Weight.MIDDLEWEIGHT])
    g = set_up([6] * n + [1] * 200, lambda g: place(
        g, **{MONSTER_A: (300.0, 300.0, 90.0), CAR: (300.0, 410.0, 270.0),
              MONSTER_B: (700.0, 900.0, 0.0), BUGGY: (700.0, 200.0, 0.0)}))
    st = g.state
    play(g, MONSTER_A, "short_straight", 0)
    while (d := g.pending()) is not None and d.kind != "collision_reaction":
        g.apply(d.options[0].value)
    while (d := g.pending()) is not None and d.kind == "collision_reaction":
        g.apply("smash" if d.vehicle == MONSTER_A else "evade")
    car = st.vehicles[CAR]
    assert ev(g, "squashed") == [{"vehicle": CAR, "by": MONSTER_A}]
    assert score.total(g, score.VP, 0) == 1 and car.status is Status.REMOVED
    _run(respawn(g, car, 1, source="commercial_break", page=148))
    assert car.in_play and st.scenario.get("squashed") == []
    car.pose = Pose(800.0, 600.0, 90.0)  # well clear of everything, its skid too
    _run(suffer_damage(g, car, car.hull_points, source="machine_gun", page=43))
    assert car.status is Status.WRECKED and any(o.wreck_of == CAR
                                                for o in st.obstacles.values())
    assert score.total(g, score.VP, 0) == 1
    assert len(ev(g, "squashed")) == 1


def test_a_wreck_skidding_into_a_monster_is_not_squashed() -> None:
    # The Car, one Hull Point left, is wrecked facing Monster Truck B 20 mm ahead: its skid
    # runs into the truck, which smashes it, but a wreck skidding to a halt is already
    # Wrecked: no squash (SC-44, MTS-7).
    def lay(g: Game) -> None:
        car = g.state.vehicles[CAR]
        place(g, **{MONSTER_A: (150.0, 1100.0, 0.0), BUGGY: (800.0, 150.0, 0.0),
                    CAR: (600.0, 300.0, 90.0), MONSTER_B: (600.0, 300.0 + 20.0 + 100.0, 0.0)})
        wound(car, 1)

    g = set_up([6] * 100, lay)
    st = g.state
    car = st.vehicles[CAR]
    _run(suffer_damage(g, car, 1, source="test", page=43), collision_reaction="smash")
    assert ev(g, "collision") and car.status is not Status.ACTIVE
    assert not ev(g, "squashed") and not st.scenario.get("squashed")
    assert score.total(g, score.VP, 0) == 0


def test_a_carrier_removed_by_twisted_metal_drops_its_flag_not_exploded() -> None:
    # The Car carries flag N and is wrecked in a collision (p.44): its explosion check rolls
    # a 1, so Twisted Metal removes it; the flag is dropped for that, not as an explosion.
    def lay(g: Game) -> None:
        place(g, **{MONSTER_A: (150.0, 1100.0, 0.0), MONSTER_B: (800.0, 1100.0, 0.0),
                    BUGGY: (800.0, 150.0, 0.0), CAR: (600.0, 300.0, 90.0)})
        tokens.pick_up(g, "flag-N", g.state.vehicles[CAR], source="test", page=148)

    g = set_up([1] * 400, lay)
    car = g.state.vehicles[CAR]
    _run(wreck(g, car, in_collision=True))
    assert car.status is Status.REMOVED
    assert [e["explodes"] for e in ev(g, "explosion_check", vehicle=CAR)] == [False]
    [dropped] = ev(g, "token_dropped")
    assert dropped["token"] == "flag-N"
    assert dropped["reason"] == "carrier removed (wrecked in a collision)"


# -- at a real table (companion mode: CP-12) -------------------------------------------------
def at_table(carried: list[str]) -> Game:
    """A companion game set up with every first option, the Car carrying ``carried``; then
    the Monster's turn (Monster Truck A, a Short Straight), every table fact its default."""
    g = build_game(GameSetup(scenario="monster-truck-smash", players=2, physical=True),
                   dice=ScriptedDice([1] * 400))
    while (d := g.pending()) is not None and d.kind not in ("activate", "spend_votes",
                                                             "commercial_break"):
        g.apply(d.options[0].value)
    for tid in carried:
        tokens.pick_up(g, tid, g.state.vehicles[CAR], source="test", page=148)
    for choice in (MONSTER_A, "short_straight", 0):
        _after_facts(g, choice)
    while (d := g.pending()) is not None and d.kind != "activate":
        g.apply(d.options[0].value if d.kind.startswith("table:") else DEFAULTS[d.kind])
    for choice in (CAR, "short_straight", 0):
        _after_facts(g, choice)
    return g


def _after_facts(g: Game, choice: Any) -> None:
    """Answer the table facts pending with their defaults, then make ``choice``."""
    while (d := g.pending()) is not None and d.kind.startswith("table:"):
        g.apply(d.options[0].value)
    g.apply(choice)


def answer_until(g: Game, stop: Callable[[Any], bool], **answers: Any) -> Any:
    """Table facts get their default (first option) unless named; other decisions ``DEFAULTS``;
    stops at the first decision ``stop`` accepts (returned)."""
    while (d := g.pending()) is not None and not stop(d):
        if d.kind in answers:
            g.apply(answers[d.kind])
        else:
            g.apply(d.options[0].value if d.kind.startswith("table:") else DEFAULTS[d.kind])
    return d


def test_at_a_real_table_chalk_one_up_banks_when_the_people_say_home() -> None:
    # The Car stands far from its spawn point on the virtual table; the people say its move
    # came within Short of it: both flags banked, 4 VP (p.148). The new flag: the people say
    # a vehicle stands on the N point, so only E is offered (and taken).
    g = at_table(["flag-N", "flag-E"])
    st = g.state
    d = answer_until(g, lambda d: d.kind == "table:chalk_one_up")
    assert d is not None and d.page == 148 and d.vehicle == CAR and values(d) == ["no", "yes"]
    g.apply("yes")
    assert score.total(g, score.VP, 1) == 4 and not tokens.carried_by(st, CAR)
    d = answer_until(g, lambda d: d.kind == "table:flag_point_blocked")
    assert d is not None and values(d) == ["none", "N", "E"]
    play(g, "N", "none")
    assert ev(g, "forced_choice", decision="new_flag")[0]["choice"] == "E"
    new = [t for t in tokens.on_table(st, "flag") if t.startswith("flag-new")]
    assert new and tokens.token_point(st, new[0]) == compass_points(
        st, g.templates.ranges["long"])["E"]


def test_at_a_real_table_no_chalk_when_the_people_say_not_home() -> None:
    g = at_table(["flag-N"])
    answer_until(g, lambda d: d.kind == "table:chalk_one_up")
    g.apply("no")
    assert score.total(g, score.VP, 1) == 0 and tokens.carried_by(g.state, CAR) == ["flag-N"]


def test_at_a_real_table_a_carrier_passes_flags_to_whom_the_people_say_it_touches() -> None:
    # Apart on the virtual table; the people say the Car touches the Buggy and Monster Truck
    # B at the end of its activation: it may pass its flag to the Buggy, never to the Monster.
    g = at_table(["flag-S"])
    d = answer_until(g, lambda d: d.kind == "table:touching" and "carrying flags" in d.prompt)
    assert d is not None and d.page == 148
    play(g, BUGGY, MONSTER_B, "none")
    d = g.pending()
    assert d is not None and d.kind == "token_drop"
    assert {str(o.value) for o in d.options} == {"keep", f"give:{BUGGY}"}
    g.apply(f"give:{BUGGY}")
    assert tokens.carried_by(g.state, BUGGY) == ["flag-S"]
