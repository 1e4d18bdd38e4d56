"""Sponsors in play (Refuelled pp.91-103): each sponsored perk on an exact table with scripted
dice, with and without the sponsor, so that every test fails if its rule is removed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.builders import (
    armed,
    drive,
    ev,
    fit,
    play,
    rock,
    run_step,
    table,
    values,
    vehicle,
)

from carnage.catalog import TemplateUse, Weight
from carnage.games.refuelled.engine.attack import attack_step, targets_for
from carnage.games.refuelled.engine.collision import resolve_collisions
from carnage.games.refuelled.engine.damage import HitGroup, take_hits, wreck
from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.hazards_on_table import lay, remove
from carnage.games.refuelled.engine.movement import movement_step, obstructions_for, template_use
from carnage.games.refuelled.engine.scenario import Scenario
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.engine.votes import spend_opportunity
from carnage.games.refuelled.engine.wipeout import wipeout_threshold
from carnage.games.refuelled.rules.dropped import drops_allowed
from carnage.games.refuelled.rules.sponsors import (
    SHOWING_OFF,
    SOUL_TOKENS,
    TOMBSTONE,
    in_arc,
    template_at_rear,
)
from carnage.geometry.arcs import Arc
from carnage.geometry.shapes import Pose
from carnage.kernel.effects import run_flows
from carnage.rulesets import REFUELLED

HAZARD, SPIN, SLIDE, SHIFT = 1, 2, 3, 4  # skid faces on a D6 (ruling R-1)


def sponsored(st: GameState, *sponsors: str | None) -> GameState:
    st.sponsors = list(sponsors) + [None] * (st.players - len(sponsors))
    return st


def both(test: Callable[[bool], None]) -> None:
    """Run ``test`` with the sponsor and without."""
    for on in (True, False):
        test(on)


def flows(event: str, vid: str, **extra: Any) -> Callable[[Game], Flow]:
    """A step running the flow hook ``event`` for vehicle ``vid``."""

    def step(g: Game) -> Flow:
        v = g.state.vehicles[vid]
        yield from run_flows(g, event, {"game": g, "vehicle": v, **extra})

    return step


def acting(vid: str, step: str, body: Callable[[Game, VehicleState], Flow]
           ) -> Callable[[Game], Flow]:
    """A step in which ``vid`` is the active vehicle in ``step``."""

    def run(g: Game) -> Flow:
        v = g.state.vehicles[vid]
        g.state.active, g.state.step = vid, step
        yield from body(g, v)

    return run


def votes(g: Game) -> list[int]:
    return list(g.state.votes)


# == Rutherford (p.91) ===========================================================================
def test_televised_carnage_six_hits_in_one_attack_step_earn_a_vote() -> None:
    def run(on: bool) -> None:
        a = vehicle("a", "car", 600, 300, 90, weapons=[("heavy_machine_gun", "front")])
        b = vehicle("b", "car", 600, 420, 90, player=1)
        st = sponsored(table(a, b), "rutherford" if on else None)
        # Three 6s: six hits before evades; b evades with one die (gear 1) and saves one.
        g = run_step(st, acting("a", "attack", attack_step), dice=[6, 6, 6, 6])
        play(g, "heavy_machine_gun#0>b", "stop")
        assert ev(g, "attack_hits")[0]["hits"] == 6
        assert votes(g) == ([1, 0] if on else [0, 0])

    both(run)


def test_televised_carnage_five_hits_are_not_enough_and_only_in_its_attack_step() -> None:
    a = vehicle("a", "car", 600, 300, 90, weapons=[("heavy_machine_gun", "front")])
    b = vehicle("b", "car", 600, 420, 90, player=1)
    g = run_step(sponsored(table(a, b), "rutherford"), acting("a", "attack", attack_step),
                 dice=[6, 6, 5, 1])
    play(g, "heavy_machine_gun#0>b", "stop")
    assert votes(g) == [0, 0]
    # Six hits outside its own Attack Step (here: the movement step) earn nothing.
    a2 = vehicle("a", "car", 600, 300, 90, weapons=[("heavy_machine_gun", "front")])
    b2 = vehicle("b", "car", 600, 420, 90, player=1)
    g = run_step(sponsored(table(a2, b2), "rutherford"), acting("a", "movement", attack_step),
                 dice=[6, 6, 6, 1])
    play(g, "heavy_machine_gun#0>b", "stop")
    assert votes(g) == [0, 0]


# == Miyazaki (p.92) =============================================================================
def push_twice(g: Game) -> Flow:
    v = g.state.vehicles["a"]
    yield from movement_step(g, v)
    yield from movement_step(g, v)


def test_virtuoso_first_push_it_of_an_activation_is_free() -> None:
    def run(on: bool) -> None:
        a = vehicle("a", "car", 600, 300, 90)
        st = sponsored(table(a), "miyazaki" if on else None)
        # Two Movement Steps in one activation: roll a Hazard, push it into a Shift each time.
        g = run_step(st, push_twice, dice=[HAZARD, SHIFT, HAZARD, SHIFT])
        play(g, "short_straight", 1, "0", "done", "short_straight", 1, "0", "done")
        assert a.hazards == (1 if on else 2)
        assert len(ev(g, "hazards", source="virtuoso")) == (1 if on else 0)

    both(run)


def showing_off_activation(g: Game) -> Flow:
    g.state.gear_phase = 1
    yield from activation(g, g.state.vehicles["a"])


SHOW = ("gentle", 3, "no", "gear_up", "done", 30.0)
"""Gentle (trivial in gear 1: a bonus Shift) with Spin, Slide and Shift; change up; spin."""


def test_showing_off_spin_slide_and_gear_change_earn_a_token_then_votes() -> None:
    def run(on: bool) -> None:
        a = vehicle("a", "car", 600, 300, 90)
        far = vehicle("z", "car", 100, 1100, 0, player=1)
        st = sponsored(table(a, far), "miyazaki" if on else None)
        g = run_step(st, showing_off_activation, dice=[SPIN, SLIDE, SHIFT])
        play(g, *SHOW)
        assert g.pending() is None
        assert len(ev(g, "pivot", source="spin")) == 1
        # The only team vehicle in play holds a token: cashed in at once for one vote.
        assert votes(g) == ([1, 0] if on else [0, 0])
        assert SHOWING_OFF not in a.conditions

    both(run)


def test_showing_off_waits_for_every_team_vehicle_and_tokens_go_at_phase_end() -> None:
    a = vehicle("a", "car", 600, 300, 90)
    mate = vehicle("m", "car", 200, 300, 90)
    far = vehicle("z", "car", 100, 1100, 0, player=1)
    st = sponsored(table(a, mate, far), "miyazaki")
    g = run_step(st, showing_off_activation, dice=[SPIN, SLIDE, SHIFT])
    play(g, *SHOW)
    assert a.conditions.get(SHOWING_OFF) == 1 and votes(g) == [0, 0]
    g.effects.run_event("gear_phase_end", None, {"game": g, "phase": 1})
    assert SHOWING_OFF not in a.conditions


def test_showing_off_token_lost_on_a_wipeout() -> None:
    a = vehicle("a", "car", 600, 300, 90)
    a.conditions[SHOWING_OFF] = 1

    def step(g: Game) -> Flow:
        g.emit("wipeout", source="wipeout", page=34, vehicle="a", hazards=6, gear=1)
        yield from ()

    g = run_step(sponsored(table(a), "miyazaki"), step)
    assert SHOWING_OFF not in a.conditions and votes(g) == [0, 0]


def test_showing_off_needs_all_three() -> None:
    a = vehicle("a", "car", 600, 300, 90)
    far = vehicle("z", "car", 100, 1100, 0, player=1)
    g = run_step(sponsored(table(a, far), "miyazaki"), showing_off_activation,
                 dice=[SPIN, SLIDE, SHIFT])
    play(g, "gentle", 3, "no", "discard", "done", 30.0)  # no gear change
    assert votes(g) == [0, 0] and SHOWING_OFF not in a.conditions


# == Mishkin (p.93) ==============================================================================
def test_dynamo_charges_an_electrical_weapon_after_activating_in_phase_4_to_6() -> None:
    def run(on: bool) -> None:
        a = vehicle("a", "car", 600, 300, 90, weapons=[("arc_lightning_projector", "front"),
                                                       ("rockets", "front")])
        a.weapons[0].ammo, a.weapons[1].ammo = 0, 0
        st = sponsored(table(a), "mishkin" if on else None)

        def step(g: Game) -> Flow:
            for phase in (3, 4):
                g.state.gear_phase = phase
                yield from run_flows(g, "after_activation", {"game": g, "vehicle": a})

        g = run_step(st, step)
        if on:
            d = g.pending()
            assert d is not None and d.kind == "dynamo"  # phase 4 only, not phase 3
            assert values(d) == ["no", "arc_lightning_projector#0"]  # rockets: not electrical
            g.apply("arc_lightning_projector#0")
        assert g.pending() is None
        assert a.weapons[0].ammo == (1 if on else 0) and a.weapons[1].ammo == 0

    both(run)


def test_all_the_toys_a_vote_for_each_weapon_first_used_in_the_game() -> None:
    a = vehicle("a", "car", 600, 300, 90, weapons=[("machine_gun", "front")])
    b = vehicle("b", "car", 600, 420, 90, player=1, weapons=[("machine_gun", "rear")])
    c = vehicle("c", "car", 600, 540, 90, weapons=[("machine_gun", "front")])

    def step(g: Game) -> Flow:
        for vid in ("b", "a", "c"):
            g.state.active, g.state.step = vid, "attack"
            yield from attack_step(g, g.state.vehicles[vid])

    g = run_step(sponsored(table(a, b, c), "mishkin"), step, dice=[1] * 20)
    # b (the other team) fires its machine gun first; a's machine gun is then no longer new,
    # its handgun is; c's handgun is not new either.
    play(g, "machine_gun#0>a", "stop", "machine_gun#0>b", "handgun>b", "handgun>b", "stop")
    assert votes(g) == [1, 0]
    assert [e["weapon"] for e in ev(g, "audience_vote", source="all_the_toys")] == ["handgun"]


# == Idris (p.94) ================================================================================
def test_speed_demon_nitro_tops_hazards_up_to_three() -> None:
    def run(on: bool) -> None:
        a = fit(vehicle("a", "car", 600, 300, 90), "nitro_booster", ammo=1)
        st = sponsored(table(a), "idris" if on else None)
        g = run_step(st, lambda g: run_flows(g, "movement_start", {"game": g, "vehicle": a}))
        play(g, "yes")
        assert ev(g, "nitro") == [{"vehicle": "a"}]
        assert a.hazards == (3 if on else 5)

    both(run)


def test_cult_of_speed_long_straight_selected_in_phases_1_to_3() -> None:
    def run(phase: int, gear: int, *choices: Any) -> Game:
        a = vehicle("a", "car", 600, 200, 90, gear=gear)
        st = sponsored(table(a), "idris")

        def step(g: Game) -> Flow:
            g.state.gear_phase = phase
            yield from movement_step(g, a)

        g = run_step(st, step, dice=[SHIFT] * 6)
        play(g, *choices)
        return g

    # Gear 5 in phase 2: permitted, a vote.
    assert votes(run(2, 5, "long_straight", 0)) == [1, 0]
    # Phase 4: none.
    assert votes(run(4, 5, "long_straight", 0)) == [0, 0]
    # Not permitted in gear 1: touched anyway, a vote; the next player's pick earns nothing.
    g = run(1, 1, "long_straight", "medium_straight")
    assert votes(g) == [1, 0]
    assert ev(g, "touch_it_use_it")[0]["chooser"] == 1


def test_cult_of_speed_counts_the_nitro_boosters_long_straight() -> None:
    def run(on: bool) -> None:
        a = fit(vehicle("a", "car", 600, 300, 90), "nitro_booster", ammo=1)
        st = sponsored(table(a), "idris" if on else None)

        def step(g: Game) -> Flow:
            g.state.gear_phase = 2
            yield from run_flows(g, "movement_start", {"game": g, "vehicle": a})

        g = run_step(st, step)
        play(g, "yes")
        assert votes(g) == ([1, 0] if on else [0, 0])

    both(run)


# == Slime (p.95) ================================================================================
def side_by_side() -> tuple[VehicleState, VehicleState]:
    """Two cars parallel, side edges touching."""
    a = vehicle("a", "car", 600, 300, 90, gear=2)
    b = vehicle("b", "car", 630, 300, 90, player=1, gear=2)
    return a, b


def pinball_step(g: Game) -> Flow:
    g.state.active, g.state.step = "a", "movement"
    a = g.state.vehicles["a"]
    yield from resolve_collisions(g, a, ["b"])
    yield from run_flows(g, "movement_end", {"game": g, "vehicle": a})


def test_pinball_side_swipe_smash_gives_another_movement_step() -> None:
    def run(on: bool) -> None:
        a, b = side_by_side()
        g = run_step(sponsored(table(a, b), "slime" if on else None), pinball_step,
                     dice=[1] * 10)
        play(g, "smash", "evade")
        assert ev(g, "collision")[0]["edges"] == {"a": "side", "b": "side"}
        d = g.pending()
        if on:
            assert d is not None and d.kind == "pinball"
            g.apply("yes")
            d = g.pending()
            assert d is not None and d.kind == "template"  # the extra Movement Step
            assert ev(g, "extra_movement_step") == [{"vehicle": "a"}]
        else:
            assert d is None

    both(run)


def test_pinball_needs_a_smash() -> None:
    a, b = side_by_side()
    g = run_step(sponsored(table(a, b), "slime"), pinball_step, dice=[1] * 10)
    play(g, "evade", "smash")
    assert g.pending() is None


def test_live_fast_more_hazards_than_hull_points_at_the_wipeout_step() -> None:
    def run(on: bool) -> None:
        a = vehicle("a", "car", 600, 300, 90, hazards=5)
        a.damage = a.hull - 4
        far = vehicle("z", "car", 100, 1100, 0, player=1)
        st = sponsored(table(a, far), "slime" if on else None)

        def step(g: Game) -> Flow:
            g.state.gear_phase = 1
            yield from activation(g, a)

        g = run_step(st, step, dice=[])
        play(g, "short_straight", 0, "done")  # trivial in gear 1: a bonus Shift, unspent
        assert g.pending() is None and len(ev(g, "activation_end")) == 1
        assert votes(g) == ([1, 0] if on else [0, 0])

    both(run)


# == The Warden (p.96) ===========================================================================
def test_fireworks_votes_for_an_explosion_by_weight_and_ammo_discarded() -> None:
    def run(on: bool) -> None:
        a = vehicle("a", "car", 600, 300, 90, weapons=[("rockets", "front")])
        a.weapons[0].ammo = 2
        far = vehicle("z", "car", 100, 1100, 0, player=1)
        st = sponsored(table(a, far), "warden" if on else None)
        g = run_step(st, lambda g: wreck(g, a), dice=[6])  # explosion check 6 + 2 ammo
        assert a.status is Status.REMOVED
        assert votes(g) == ([2, 0] if on else [1, 0])  # the wreck's vote, + 1 middleweight
        assert a.weapons[0].ammo == (0 if on else 2)

    both(run)


def test_fireworks_heavyweight_two_votes_none_without_an_explosion() -> None:
    t = vehicle("t", "heavy_truck", 600, 300, 90)
    far = vehicle("z", "car", 100, 1100, 0, player=1)
    assert t.weight is Weight.HEAVYWEIGHT
    g = run_step(sponsored(table(t, far), "warden"), lambda g: wreck(g, t), dice=[6])
    assert votes(g) == [3, 0]
    t2 = vehicle("t", "heavy_truck", 600, 300, 90)
    g = run_step(sponsored(table(t2, vehicle("z", "car", 100, 1100, player=1)), "warden"),
                 lambda g: wreck(g, t2), dice=[1])
    assert votes(g) == [1, 0]


def test_fireworks_counts_the_weight_it_explodes_as() -> None:
    # Powder Keg (p.105): the car explodes as if one class heavier, so Fireworks pays 2 votes.
    a = vehicle("a", "car", 600, 300, 90)
    a.perks = ["powder_keg"]
    far = vehicle("z", "car", 100, 1100, 0, player=1)
    g = run_step(sponsored(table(a, far), "warden"), lambda g: wreck(g, a), dice=[6])
    assert a.status is Status.REMOVED
    assert votes(g) == [3, 0]  # the wreck's vote + 2 as a heavyweight


# == Scarlett (p.97) =============================================================================
def test_raiders_crew_given_up_for_hull_points_of_vehicles_in_contact() -> None:
    def run(on: bool) -> None:
        a, b = side_by_side()
        a.crew = 2
        st = sponsored(table(a, b), "scarlett" if on else None)
        g = run_step(st, flows("attack_end", "a"))
        if on:
            d = g.pending()
            assert d is not None and d.kind == "raiders" and values(d) == [0, 1, 2]
            play(g, 2)  # the only vehicle in contact takes both (forced)
        assert g.pending() is None
        assert (a.crew, b.hull_points) == ((0, b.hull - 2) if on else (2, b.hull))

    both(run)


def test_raise_the_sails_a_crew_member_for_a_free_shift() -> None:
    def run(on: bool) -> None:
        a = vehicle("a", "car", 600, 300, 90, gear=2)
        st = sponsored(table(a), "scarlett" if on else None)
        g = run_step(st, lambda g: movement_step(g, a), dice=[HAZARD])
        play(g, "short_straight", 1, "no")
        if on:
            play(g, "yes")
            d = g.pending()
            assert d is not None and "cancel:0" in values(d)  # the free Shift cancels it
            play(g, "cancel:0")
        assert a.hazards == (0 if on else 1)
        assert a.crew == (1 if on else 2)  # a car has 2 crew

    both(run)


def test_press_gang_or_keelhaul_when_a_vehicle_in_contact_is_wrecked() -> None:
    def run(choice: str | None) -> tuple[VehicleState, Game]:
        a, b = side_by_side()
        st = sponsored(table(a, b), "scarlett" if choice else None)
        g = run_step(st, lambda g: wreck(g, b), dice=[1])
        if choice:
            d = g.pending()
            assert d is not None and d.kind == "press_gang"
            g.apply(choice)
        assert g.pending() is None
        return a, g

    a, g = run("crew")
    assert a.crew == 3 and votes(g) == [0, 1]  # a car has 2 crew
    a, g = run("votes")
    assert a.crew == 2 and votes(g) == [2, 1]
    a, g = run(None)
    assert a.crew == 2 and votes(g) == [0, 1]


# == Highway Patrol (p.98) =======================================================================
def patrol_table(bogey_y: float = 800.0, *others: VehicleState) -> GameState:
    cop = vehicle("cop", "car", 600, 200, 90)
    b = vehicle("b", "car", 600, bogey_y, 90, player=1)
    c = vehicle("c", "car", 1000, 200, 90, player=1)
    return sponsored(table(cop, b, c, *others), "highway_patrol")


def nominate_then(event: str, vid: str) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        yield from run_flows(g, "game_start", {"game": g})
        g.state.active = vid
        yield from run_flows(g, event, {"game": g, "vehicle": g.state.vehicles[vid]})

    return step


def test_hot_pursuit_names_an_enemy_bogey() -> None:
    g = run_step(patrol_table(), nominate_then("attack_end", "cop"))
    d = g.pending()
    assert d is not None and d.kind == "bogey" and d.player == 0 and values(d) == ["b", "c"]
    g.apply("b")
    assert ev(g, "bogey") == [{"player": 0, "vehicle": "b"}]


def test_bogey_at_12_oclock_far_ahead_and_seen() -> None:
    g = run_step(patrol_table(800.0), nominate_then("movement_end", "cop"))
    play(g, "b")
    d = g.pending()
    assert d is not None and d.kind == "bogey_at_12"
    play(g, "yes")
    d = g.pending()
    assert d is not None and d.kind == "template"
    # Ruling SP-5: once per activation; the bogey is still far ahead after the extra step.
    play(g, "short_straight", 0, "done")
    assert g.pending() is None
    assert len(ev(g, "extra_movement_step")) == 1


@pytest.mark.parametrize("where", ["near", "behind", "tall_wall"])
def test_bogey_at_12_oclock_not_within_double_range_behind_or_out_of_sight(where: str) -> None:
    y = {"near": 500.0, "behind": 100.0, "tall_wall": 900.0}[where]
    st = patrol_table(y if where != "behind" else 900.0)
    if where == "behind":
        st.vehicles["cop"].pose = Pose(600, 1100, 90)
    if where == "tall_wall":
        st.obstacles["wall"] = rock("wall", 600, 600, 300, 20, tall=True)
    g = run_step(st, nominate_then("movement_end", "cop"))
    play(g, "b")
    assert g.pending() is None


def test_siren_the_bogey_loses_a_gear_or_takes_two_hazards() -> None:
    for choice in ("gear", "hazards"):
        st = patrol_table(400.0)  # the cop sits in b's rear arc
        st.vehicles["b"].gear = 3
        g = run_step(st, nominate_then("attack_end", "cop"))
        play(g, "b")
        d = g.pending()
        assert d is not None and d.kind == "siren" and d.player == 1
        g.apply(choice)
        b = st.vehicles["b"]
        assert (b.gear, b.hazards) == ((2, 0) if choice == "gear" else (3, 2))


def test_siren_only_for_the_bogey_unless_the_siren_is_louder() -> None:
    for louder in (False, True):
        st = patrol_table(400.0)
        if louder:
            fit(st.vehicles["cop"], "louder_siren")
        g = run_step(st, nominate_then("attack_end", "cop"))
        play(g, "c")  # the bogey is c, off to the side; b is the one in front
        # b is in gear 1: it cannot lose a gear, so it takes the Hazards (a forced choice).
        assert ev(g, "siren") == ([{"vehicle": "cop", "target": "b", "choice": "hazards"}]
                                  if louder else [])
        assert st.vehicles["b"].hazards == (2 if louder else 0)


def test_steel_justice_votes_for_the_bogey_wiping_out_and_wrecked_then_a_new_bogey() -> None:
    st = patrol_table(800.0)

    def step(g: Game) -> Flow:
        yield from run_flows(g, "game_start", {"game": g})
        b = g.state.vehicles["b"]
        g.emit("wipeout", source="wipeout", page=34, vehicle="b", hazards=6, gear=1)
        yield from wreck(g, b)
        yield from run_flows(g, "activation_start", {"game": g, "vehicle": st.vehicles["c"]})

    g = run_step(st, step, dice=[1])
    play(g, "b")
    assert votes(g) == [2 + 4, 1]
    # Ruling SP-6: a new bogey is named as the next activation starts (c, the only one left:
    # a forced choice).
    assert g.pending() is None
    assert ev(g, "bogey")[-1] == {"player": 0, "vehicle": "c"}


def test_arcs_regardless_of_range() -> None:
    st = patrol_table(1100.0)
    g = run_step(st, lambda g: iter(()))
    cop, b = st.vehicles["cop"], st.vehicles["b"]
    assert in_arc(g, cop, b, Arc.FRONT) and in_arc(g, b, cop, Arc.REAR)
    assert not in_arc(g, cop, b, Arc.REAR) and not in_arc(g, b, cop, Arc.FRONT)
    assert not in_arc(g, cop, st.vehicles["c"], Arc.FRONT)  # c is off to the side


# == Verney (pp.98-99) ===========================================================================
def test_trunk_of_junk_any_number_of_dropped_weapons() -> None:
    for on in (True, False):
        a = vehicle("a", "car", 600, 300, 90)
        g = run_step(sponsored(table(a), "verney" if on else None), lambda g: iter(()))
        assert drops_allowed(g, a) == (1000 if on else 1)


def shot_from(y: float) -> tuple[VehicleState, VehicleState]:
    a = vehicle("a", "car", 600, y, 90, weapons=[("machine_gun", "front")])
    t = vehicle("t", "car", 600, 500, 90, player=1, gear=1)
    if y > 500:
        a.pose = Pose(600, y, 270)
    return a, t


def test_tombstone_plus_one_to_evade_when_the_template_touches_the_rear_edge() -> None:
    def run(on: bool, y: float) -> int:
        a, t = shot_from(y)
        st = sponsored(table(a, t), None, "verney" if on else None)
        # Two hits (4, 4); t evades with one die: a 5 saves only with the +1.
        g = run_step(st, acting("a", "attack", attack_step), dice=[4, 4, 5])
        play(g, "machine_gun#0>t", "stop")
        return t.hull_points

    full = vehicle("t", "car", 0, 0).hull
    assert run(True, 380.0) == full - 1   # from behind: 5 + 1 saves one hit
    assert run(False, 380.0) == full - 2
    assert run(True, 620.0) == full - 2   # from the front: no bonus


def test_template_at_rear_is_the_nearest_part() -> None:
    a, t = shot_from(380.0)
    assert template_at_rear(a, t)
    a, t = shot_from(620.0)
    assert not template_at_rear(a, t)


def test_tombstone_two_hazards_for_head_on_collisions_until_next_activation() -> None:
    def run(on: bool) -> Game:
        a = vehicle("a", "car", 600, 555, heading=90, gear=2)
        b = vehicle("b", "car", 600, 600, heading=0, player=1, gear=3)
        st = sponsored(table(a, b), None, "verney" if on else None)

        def step(g: Game) -> Flow:
            g.state.active, g.state.step = "b", "attack"
            yield from run_flows(g, "attack_start", {"game": g, "vehicle": b})
            g.state.active, g.state.step = "a", "movement"
            yield from resolve_collisions(g, a, ["b"])

        g = run_step(st, step, dice=[1] * 20)
        if on:
            play(g, "yes")
            assert b.hazards == 2 and TOMBSTONE in b.conditions
        play(g, "smash", "smash")
        return g

    assert ev(run(True), "collision")[0]["orientation"] == "head_on"
    assert ev(run(False), "collision")[0]["orientation"] == "t_bone"
    # Head-on smash dice: both gears (2 + 3), not a T-bone's own gear (2).
    assert ev(run(True), "smash_attack")[0]["dice"] == 5


def test_tombstone_ends_at_the_start_of_its_next_activation() -> None:
    b = vehicle("b", "car", 600, 600, heading=0, player=1)
    b.conditions[TOMBSTONE] = 1

    def step(g: Game) -> Flow:
        g.state.gear_phase = 1
        yield from activation(g, b)

    g = run_step(sponsored(table(b), None, "verney"), step)
    assert TOMBSTONE not in b.conditions
    assert ev(g, "tombstone_ends") == [{"vehicle": "b"}]


def test_thats_entertainment_a_vote_when_a_teams_template_leaves_the_table() -> None:
    def run(on: bool) -> list[int]:
        a = vehicle("a", "car", 600, 300, 90)
        g = run_step(sponsored(table(a), "verney" if on else None), lambda g: iter(()))
        lay(g, "oil_slick_dropper", "small_burst", Pose(600, 200, 270), placed_by="a",
            player=0, source="test", page=79)
        lay(g, "oil_slick_dropper", "small_burst", Pose(300, 200, 270), placed_by=None,
            player=1, source="test", page=79)
        for tid in list(g.state.dropped):
            remove(g, tid, reason="test", source="test", page=79)
        return votes(g)

    assert run(True) == [1, 0]
    assert run(False) == [0, 0]


# == Maxxine (p.99) ==============================================================================
def test_dizzy_each_spin_result_is_its_own_spin() -> None:
    def run(on: bool) -> None:
        a = vehicle("a", "car", 600, 300, 90, gear=2)
        st = sponsored(table(a), "maxxine" if on else None)
        g = run_step(st, lambda g: movement_step(g, a), dice=[SPIN, SPIN])
        play(g, "short_straight", 2, "no", 90.0)
        if on:
            d = g.pending()
            assert d is not None and d.kind == "spin"
            g.apply(90.0)
        assert g.pending() is None
        assert a.pose.heading % 360 == pytest.approx(270.0 if on else 180.0)

    both(run)


def test_maxximum_drift_two_slides_may_slide_a_medium_straight() -> None:
    def final(on: bool, pick: str | None) -> Pose:
        a = vehicle("a", "car", 600, 300, 90, gear=2)
        st = sponsored(table(a), "maxxine" if on else None)
        g = run_step(st, lambda g: movement_step(g, a), dice=[SLIDE, SLIDE])
        play(g, "turn", 2, "no")
        if pick is not None:
            d = g.pending()
            assert d is not None and d.kind == "maxximum_drift"
            assert values(d) == ["slide", "medium_straight"]  # two Slides: no Long Straight
            g.apply(pick)
        assert g.pending() is None
        return a.pose

    plain = final(False, None)
    assert final(True, "slide") == plain
    drift = final(True, "medium_straight")
    assert drift != plain
    # The Medium Straight (120 mm) carries it 75 mm further than the Slide template (45 mm).
    assert abs(complex(drift.x - plain.x, drift.y - plain.y)) == pytest.approx(75.0, abs=0.5)


def test_meshuggah_spin_or_slide_ending_near_a_friend_without_collision() -> None:
    def run(on: bool, friend_x: float) -> list[int]:
        a = vehicle("a", "car", 600, 300, 90, gear=2)
        mate = vehicle("m", "car", friend_x, 420, 90)
        st = sponsored(table(a, mate), "maxxine" if on else None)
        g = run_step(st, lambda g: movement_step(g, a), dice=[SPIN])
        play(g, "short_straight", 1, "no", 10.0)
        return votes(g)

    assert run(True, 700.0) == [1, 0]
    assert run(False, 700.0) == [0, 0]
    assert run(True, 1100.0) == [0, 0]  # the friend is beyond Medium range


# == The Order of the Inferno (p.100) ============================================================
def fire_hits(n: int, extra: int = 0) -> Callable[[Game], Flow]:
    def step(g: Game) -> Flow:
        groups = [HitGroup("flamethrower#0", n, rules=("fire",))]
        if extra:
            groups.append(HitGroup("machine_gun#0", extra))
        yield from take_hits(g, g.state.vehicles["a"], groups, source="attack", page=33,
                             evadable=False)

    return step


@pytest.mark.parametrize(("fire", "plain", "taken"), [(5, 0, 2), (2, 0, 1), (1, 0, 1),
                                                      (4, 2, 3)])
def test_fire_walk_with_me_cuts_fire_damage_by_up_to_three_never_below_one(
        fire: int, plain: int, taken: int) -> None:
    for on in (True, False):
        a = vehicle("a", "truck", 600, 300, 90)
        run_step(sponsored(table(a), "order_of_the_inferno" if on else None),
                 fire_hits(fire, plain))
        assert a.damage == (taken if on else fire + plain)


def test_fire_walk_with_me_cuts_the_fire_damage_perks_deal() -> None:
    # Highway to Hell burns its own car for 2 (Fire, p.108): cut to 1 (never below 1).
    # Sympathy for the Devil passes a Flamethrower's unsaved hits to the friend as Fire
    # damage (p.108): 3 cut to 1 as well.
    from tests.builders import activate, attack, drive, perked

    def highway(on: bool) -> int:
        v = perked(vehicle("v", "car", 600, 300, gear=2), "highway_to_hell")
        st = sponsored(table(v, vehicle("far", "car", 100, 1000, player=1)),
                       "order_of_the_inferno" if on else None)
        g = run_step(st, activate("v"))
        assert drive(g, template="medium_straight", highway_to_hell="yes",
                     highway_to_hell_napalm="no") is None
        assert "on_fire" in v.conditions
        return v.damage

    assert (highway(True), highway(False)) == (1, 2)

    def sympathy(on: bool) -> tuple[int, int]:
        v = perked(vehicle("v", "car", 600, 400, gear=1), "sympathy_for_the_devil")
        f = vehicle("f", "car", 700, 400, gear=1)
        e = armed(vehicle("e", "car", 600, 300, player=1), ("flamethrower", "front", 3))
        st = sponsored(table(v, f, e), "order_of_the_inferno" if on else None)
        # Flamethrower: 6 dice, hits 4+: 4, 4, 4, 1, 1, 1 -> 3 hits; two evade dice miss.
        g = run_step(st, attack("e"), dice=[4, 4, 4, 1, 1, 1, 1, 1, 1, 1])
        assert drive(g, attack=["flamethrower#0>v", "stop"], sympathy_for_the_devil="f",
                     fire_walk_with_me="yes") is None
        return v.damage, f.damage

    assert sympathy(False) == (3, 3)
    assert sympathy(True) == (1, 1)

    # Purifying Flames is Fire too, but its damage may not be reduced (p.108).
    v = perked(vehicle("v", "car", 600, 300), "purifying_flames")
    mate = vehicle("f", "car", 800, 300)
    mate.damage = 3
    st = sponsored(table(v, mate, vehicle("far", "car", 100, 1000, player=1)),
                   "order_of_the_inferno")
    g = run_step(st, activate("v"))
    assert drive(g, template="short_straight", purifying_flames="f",
                 purifying_flames_damage=2) is None
    assert (v.damage, mate.damage) == (2, 1)


def test_burning_man_plus_one_evade_while_on_fire() -> None:
    def run(on: bool, burning: bool) -> int:
        a = vehicle("a", "car", 600, 300, 90, gear=1)
        if burning:
            a.conditions["on_fire"] = 1
        run_step(sponsored(table(a), "order_of_the_inferno" if on else None),
                 lambda g: take_hits(g, a, [HitGroup("x", 1)], source="attack", page=33),
                 dice=[5])
        return a.damage

    assert run(True, True) == 0
    assert run(False, True) == 1
    assert run(True, False) == 1


def test_cult_of_flame_votes_per_friend_on_fire_when_more_foes_burn() -> None:
    def run(friends_on_fire: int, foes_on_fire: int, foes: int = 3) -> list[int]:
        mine = [vehicle(f"m{i}", "car", 100 + 100 * i, 100) for i in range(2)]
        theirs = [vehicle(f"f{i}", "car", 100 + 100 * i, 900, player=1) for i in range(foes)]
        for v in mine[:friends_on_fire]:
            v.conditions["on_fire"] = 1
        for v in theirs[:foes_on_fire]:
            v.conditions["on_fire"] = 1
        g = run_step(sponsored(table(*mine, *theirs), "order_of_the_inferno"),
                     lambda g: iter(()))
        g.effects.run_event("gear_phase_end", None, {"game": g, "phase": 1})
        return votes(g)

    assert run(2, 3) == [2, 0]
    assert run(2, 2) == [0, 0]  # as many, not all
    assert run(1, 1, foes=1) == [1, 0]  # every enemy on fire
    assert run(0, 3) == [0, 0]


# == Beverly (pp.100-101) ========================================================================
def beverly_table(*extra: VehicleState) -> GameState:
    a = vehicle("a", "car", 600, 300, 90)
    m = vehicle("m", "car", 300, 300, 90)
    foe = vehicle("f", "car", 600, 700, 90, player=1)
    return sponsored(table(a, m, foe, *extra), "beverly")


def test_graveyard_shift_all_but_one_become_ghost_riders() -> None:
    st = beverly_table()
    g = run_step(st, lambda g: run_flows(g, "game_start", {"game": g}))
    d = g.pending()
    assert d is not None and d.kind == "graveyard_shift" and values(d) == ["a", "m"]
    g.apply("a")
    assert "ghost_rider" in st.vehicles["m"].conditions
    assert "ghost_rider" not in st.vehicles["a"].conditions


def ghost(st: GameState, vid: str) -> VehicleState:
    v = st.vehicles[vid]
    v.conditions["ghost_rider"] = 1
    return v


def test_ghost_rider_ignores_and_is_ignored_no_shots_no_victory() -> None:
    st = beverly_table()
    m = ghost(st, "m")
    g = run_step(st, lambda g: iter(()))
    a, f = st.vehicles["a"], st.vehicles["f"]
    assert "m" not in {o.id for o in obstructions_for(g, a)}
    assert not any(st.vehicles.get(o.id) for o in obstructions_for(g, m))
    assert m not in targets_for(g, f) and targets_for(g, m) == []
    assert g.scenario.counts(g, a) and not g.scenario.counts(g, m)


def test_ghost_rider_is_never_in_a_collision() -> None:
    st = beverly_table()
    ghost(st, "m")
    st.vehicles["f"].pose = Pose(330, 300, 90)  # side by side with the ghost
    g = run_step(st, lambda g: resolve_collisions(g, st.vehicles["f"], ["m"]))
    assert g.pending() is None
    assert ev(g, "collision_skipped")[0]["reason"] == "cannot be involved in a Collision"


def test_ghost_riders_without_beverly_are_ordinary() -> None:
    st = beverly_table()
    st.sponsors = [None, None]
    ghost(st, "m")
    g = run_step(st, lambda g: iter(()))
    assert "m" in {o.id for o in obstructions_for(g, st.vehicles["a"])}


def test_soul_anchor_only_ghosts_left_removes_the_team() -> None:
    st = beverly_table()
    ghost(st, "m")
    g = run_step(st, lambda g: wreck(g, st.vehicles["a"]), dice=[1])
    assert st.vehicles["m"].status is Status.REMOVED
    assert ev(g, "removed", source="soul_anchor") == [{"vehicle": "m", "reason": "soul anchor"}]


def test_at_the_crossroads_and_inexorable_respawn_for_one_vote_as_a_ghost() -> None:
    st = beverly_table()
    a = st.vehicles["a"]
    st.votes = [1, 0]

    def step(g: Game) -> Flow:
        yield from wreck(g, a)  # +1 vote: 2 in all
        yield from spend_opportunity(g, 0)

    g = run_step(st, step, dice=[1])
    d = g.pending()
    # m is still in play, yet Inexorable lets a respawn; Respawn itself costs 3.
    assert d is not None and "at_the_crossroads" in values(d) and "respawn" not in values(d)
    g.apply("at_the_crossroads")
    assert a.in_play and "ghost_rider" in a.conditions
    assert st.votes == [1, 0]


def test_inexorable_even_a_disqualified_vehicle() -> None:
    st = beverly_table()
    st.vehicles["a"].status = Status.DISQUALIFIED
    st.votes = [3, 0]
    g = run_step(st, lambda g: spend_opportunity(g, 0))
    d = g.pending()
    assert d is not None and "respawn" in values(d)
    st2 = beverly_table()
    st2.sponsors = [None, None]
    st2.vehicles["a"].status = Status.DISQUALIFIED
    st2.votes = [3, 0]
    g = run_step(st2, lambda g: spend_opportunity(g, 0))
    d = g.pending()
    assert d is not None and "respawn" not in values(d)


def test_soul_harvest_souls_from_enemies_delivered_to_a_living_friend() -> None:
    def run(pick: str) -> tuple[GameState, Game]:
        # The ghost g drives a Long Straight through an enemy, then past a wounded friend.
        gh = vehicle("g", "car", 600, 200, 90)
        foe = vehicle("f", "car", 620, 290, 90, player=1)
        friend = vehicle("m", "car", 570, 340, 90)
        friend.damage = 5
        st = sponsored(table(gh, foe, friend), "beverly")
        gh.conditions["ghost_rider"] = 1
        g = run_step(st, lambda g: movement_step(g, gh), dice=[])
        play(g, "medium_straight", 0, "done")  # trivial in gear 1: a Shift left unspent
        d = g.pending()
        assert d is not None and d.kind == "soul_harvest"
        g.apply(pick)
        return st, g

    st, g = run("repair")
    assert st.vehicles["m"].damage == 3 and SOUL_TOKENS not in st.vehicles["g"].conditions
    st, g = run("votes")
    assert votes(g) == [1, 0] and st.vehicles["m"].damage == 5


# == Rusty's Bootleggers (p.102) =================================================================
def test_party_hard_more_hazards_than_the_enemies_nearby() -> None:
    def run(on: bool, mine: int, theirs: tuple[int, ...]) -> list[int]:
        a = vehicle("a", "car", 600, 300, 90, hazards=mine)
        foes = [vehicle(f"f{i}", "car", 650 + 40 * i, 300, 90, player=1, hazards=h)
                for i, h in enumerate(theirs)]
        g = run_step(sponsored(table(a, *foes), "rustys_bootleggers" if on else None),
                     flows("attack_end", "a"))
        return votes(g)

    assert run(True, 4, (1, 2, 0)) == [2, 0]  # two enemies with Hazards nearby
    assert run(False, 4, (1, 2, 0)) == [0, 0]
    assert run(True, 3, (1, 2)) == [0, 0]  # not more than their 3


def test_dutch_courage_wipe_out_at_eight() -> None:
    for on in (True, False):
        a = vehicle("a", "car", 600, 300, 90)
        g = run_step(sponsored(table(a), "rustys_bootleggers" if on else None),
                     lambda g: iter(()))
        assert wipeout_threshold(g, a) == (8 if on else 6)


def test_as_straight_as_im_able_no_articulated_hazard() -> None:
    for on in (True, False):
        a = vehicle("a", "car", 600, 300, 90)
        g = run_step(sponsored(table(a), "rustys_bootleggers" if on else None),
                     lambda g: iter(()))
        n = g.effects.run_event("articulated_hazards", 1, {"game": g, "vehicle": a})
        assert n == (0 if on else 1)


def test_over_the_limit_no_straights_and_veer_trivial_in_every_gear() -> None:
    a = vehicle("a", "car", 600, 300, 90)
    g = run_step(sponsored(table(a), "rustys_bootleggers"), lambda g: iter(()))
    for gear in range(1, 7):
        assert template_use(g, a, "veer", gear) is TemplateUse.TRIVIAL
        for s in ("short_straight", "medium_straight", "long_straight"):
            assert template_use(g, a, s, gear) is TemplateUse.NOT_PERMITTED
    g = run_step(table(vehicle("a", "car", 600, 300, 90)), lambda g: iter(()))
    assert template_use(g, g.state.vehicles["a"], "medium_straight", 1) is TemplateUse.TRIVIAL


# == sponsors through a whole game ===============================================================
def test_every_sponsor_has_an_installer() -> None:
    from carnage.catalog import load_catalog
    from carnage.rulesets import REFUELLED

    assert all(REFUELLED.rules.get("sponsor", s.id) is not None for s in load_catalog().sponsors)


def test_scenario_victory_ignores_ghost_riders() -> None:
    st = beverly_table()
    ghost(st, "m")
    st.vehicles["a"].status = Status.WRECKED

    class Plain(Scenario):
        pass

    from carnage.kernel.dice import ScriptedDice

    g = Game(ruleset=REFUELLED, state=st, scenario=Plain(), dice=ScriptedDice([]))
    assert g.scenario.counts(g, st.vehicles["f"])
    assert not g.scenario.counts(g, st.vehicles["m"])


# == bots ========================================================================================
def test_heuristic_bot_raises_the_sails_only_with_crew_to_spare_and_a_bad_die() -> None:
    import random

    from carnage.games.refuelled.ai.bots import HeuristicBot

    for crew, dice, want in ((2, [HAZARD], "yes"), (1, [HAZARD], "no"), (2, [SHIFT], "no")):
        a = vehicle("a", "car", 600, 300, 90, gear=2)
        a.crew = crew
        g = run_step(sponsored(table(a), "scarlett"), acting("a", "movement",
                                                             movement_step), dice=dice)
        play(g, "short_straight", 1, "no")
        d = g.pending()
        assert d is not None and d.kind == "raise_the_sails"
        assert HeuristicBot().choose(g, d, random.Random(0)) == want


def test_heuristic_bot_braces_with_tombstone_only_while_cool() -> None:
    import random

    from carnage.games.refuelled.ai.bots import HeuristicBot

    for hazards, want in ((0, "yes"), (3, "no")):
        b = vehicle("b", "car", 600, 600, heading=0, hazards=hazards)
        g = run_step(sponsored(table(b), "verney"), acting("b", "attack", lambda g, v: run_flows(
            g, "attack_start", {"game": g, "vehicle": v})))
        d = g.pending()
        assert d is not None and d.kind == "tombstone"
        assert HeuristicBot().choose(g, d, random.Random(0)) == want


# == random sponsored teams ===================================================================
def test_random_teams_sponsored_option() -> None:
    from carnage.catalog import load_catalog
    from carnage.team import check_team
    from carnage.team.random_team import random_team

    drawn = [random_team(f"sp:{i}", 50, sponsored=True) for i in range(60)]
    assert all(check_team(t).valid for t in drawn)
    # Every sponsor turns up; a team that could not be made legal drops its sponsor.
    assert {t.sponsor for t in drawn} - {None} == {s.id for s in load_catalog().sponsors}
    assert sum(t.sponsor is None for t in drawn) <= len(drawn) // 5
    assert all(random_team(f"sp:{i}", 50, sponsored=False).sponsor is None for i in range(10))
    # Left unset, the draw is the same as before the option existed (None among the choices).
    assert [random_team(f"sp:{i}", 50).sponsor for i in range(30)].count(None) > 0


def test_games_between_random_sponsored_teams_play_out_and_replay() -> None:
    from tests.simulation import invariant_problems

    from carnage.ai import bot_rng, make_bot, play_out
    from carnage.games.refuelled.setup import (
        GameSetup,
        log_text,
        parse_log,
        record_game,
    )
    from carnage.rulesets import build_game, replay
    from carnage.team.random_team import random_team

    for seed in range(4):
        teams = tuple(random_team(f"game:{seed}:{p}", 50, sponsored=True) for p in range(2))
        setup = GameSetup(teams=teams, max_rounds=6)
        g = build_game(setup, seed)
        assert g.state.sponsors == [t.sponsor for t in teams]
        problems: list[str] = []

        def after(game: Game, d: Any, problems: list[str] = problems) -> None:
            problems.extend(invariant_problems(game))

        play_out(g, [make_bot("heuristic"), make_bot("random")], bot_rng(seed), after=after)
        assert not problems and g.outcome() is not None
        again = replay(parse_log(log_text(record_game(g, setup, seed))))
        assert again.identical and again.crash is None


def test_sponsor_installers_play_the_sponsored_perks_the_catalogue_lists() -> None:
    import dataclasses

    from carnage.catalog import load_catalog
    from carnage.games.refuelled.rules.sponsors import PLAYED_WITH, SPONSORED, TEAM_BUILDING
    from carnage.rulesets import REFUELLED, refuelled_ruleset

    cat = load_catalog()
    listed = {p for s in cat.sponsors for p in s.sponsored_perks}
    # Every sponsored perk is played in the game, played by the perk leading its group, or
    # acts in the team builder; and nothing else is claimed.
    assert listed == set(SPONSORED) | set(PLAYED_WITH) | TEAM_BUILDING
    assert set(PLAYED_WITH.values()) <= set(SPONSORED)

    # A catalogue whose Idris lists only Speed Demon: its ruleset plays only that.
    idris = cat.sponsors.records["idris"]
    fewer = dataclasses.replace(cat, sponsors=dataclasses.replace(
        cat.sponsors, records={**cat.sponsors.records,
                               "idris": idris.model_copy(update={"sponsored_perks": (
                                   "n2o_addict", "speed_demon")})}))
    ruleset = refuelled_ruleset(name="fewer", catalog=fewer)

    def effects(r: Any) -> set[str]:
        st = table(vehicle("a", "car", 100, 100))
        st.sponsors = ["idris", None]
        g = run_step(st, lambda g: iter(()), ruleset=r)
        return {h.effect for hs in g.effects._handlers.values() for h in hs}

    assert "sponsor:idris:0:cult_of_speed" in effects(REFUELLED)
    mine = effects(ruleset)
    assert "sponsor:idris:0:cult_of_speed" not in mine
    assert any(e.startswith("sponsor:idris:0:speed_demon") for e in mine)


# == at a real table (companion mode, engine/table_facts.py, ruling CP-18) =====================
def at_table(st: GameState, step: Callable[[Game], Flow], dice: list[int] | None = None
             ) -> Game:
    return run_step(st, step, dice or [], options=RuleOptions(physical=True))


def test_at_a_real_table_raiders_take_hull_points_from_whom_the_people_say_touches() -> None:
    # a and c stand apart on the virtual table, b touches a; the people say only c is in
    # base contact: the crew given up take c's Hull Points.
    a = vehicle("a", "car", 600, 300, 90, gear=2)
    b = vehicle("b", "car", 630, 300, 90, player=1, gear=2)
    c = vehicle("c", "car", 100, 1000, 90, player=1)
    a.crew = 2
    g = at_table(sponsored(table(a, b, c), "scarlett"), flows("attack_end", "a"))
    d = g.pending()
    assert d is not None and d.kind == "table:raiders_touching" and d.page == 97
    assert values(d) == ["none", "b", "c"]
    play(g, "c", "none", 2)
    assert g.pending() is None
    assert (a.crew, b.hull_points, c.hull_points) == (0, b.hull, c.hull - 2)


def test_at_a_real_table_raiders_touching_nothing_ask_no_crew() -> None:
    a, b = side_by_side()
    g = at_table(sponsored(table(a, b), "scarlett"), flows("attack_end", "a"))
    play(g, "none")
    assert g.pending() is None and a.crew == 2


def test_at_a_real_table_press_gang_asks_whether_the_wreck_was_in_contact() -> None:
    a = vehicle("a", "car", 600, 300, 90, gear=2)
    b = vehicle("b", "car", 100, 1000, 90, player=1, gear=2)  # far off on the virtual table
    g = at_table(sponsored(table(a, b), "scarlett"), lambda g: wreck(g, b), dice=[1])
    d = g.pending()
    assert d is not None and d.kind == "table:press_gang_touching" and d.target == "b"
    assert values(d) == ["no", "yes"]
    play(g, "yes", "crew")
    assert a.crew == 3


def test_at_a_real_table_party_hard_counts_the_enemies_the_people_name() -> None:
    # Both enemies far off on the virtual table; the people say only f1 (2 Hazards) is within
    # Medium: 4 > 2, one vote for the one enemy with Hazards named.
    a = vehicle("a", "car", 600, 300, 90, hazards=4)
    f0 = vehicle("f0", "car", 100, 1000, 90, player=1, hazards=3)
    f1 = vehicle("f1", "car", 1000, 1000, 90, player=1, hazards=2)
    g = at_table(sponsored(table(a, f0, f1), "rustys_bootleggers"), flows("attack_end", "a"))
    d = g.pending()
    assert d is not None and d.kind == "table:within_medium" and d.page == 102
    play(g, "f1", "none")
    assert g.pending() is None and votes(g) == [1, 0]


def test_at_a_real_table_bogey_at_12_oclock_is_where_the_people_say() -> None:
    # Within Double on the virtual table; the people say the bogey is far ahead and seen.
    g = at_table(patrol_table(500.0), nominate_then("movement_end", "cop"))
    play(g, "b")
    d = g.pending()
    assert d is not None and d.kind == "table:bogey_ahead" and d.page == 98
    assert values(d) == ["no", "yes"]
    play(g, "yes")
    d = g.pending()
    assert d is not None and d.kind == "bogey_at_12"
    # Said not ahead: no extra Movement Step is offered, though far ahead on the virtual table.
    g = at_table(patrol_table(800.0), nominate_then("movement_end", "cop"))
    play(g, "b", "no")
    assert g.pending() is None


def test_at_a_real_table_the_siren_wails_at_whom_the_people_say_is_ahead() -> None:
    # The cop sits in b's rear arc on the virtual table; the people say it is not.
    st = patrol_table(400.0)
    st.vehicles["b"].gear = 3
    g = at_table(st, nominate_then("attack_end", "cop"))
    play(g, "b")
    d = g.pending()
    assert d is not None and d.kind == "table:siren_behind" and values(d) == ["none", "b"]
    play(g, "none")
    assert g.pending() is None and not ev(g, "siren")


def test_at_a_real_table_tombstone_asks_whether_the_template_touches_the_rear_edge() -> None:
    # Shot from the front on the virtual table; the target's controller says the template
    # touches its rear edge: +1 to evade, the 5 saves one of the two hits (p.99, SP-8).
    def hull(answer: str) -> int:
        a, t = shot_from(620.0)
        g = at_table(sponsored(table(a, t), None, "verney"),
                     acting("a", "attack", attack_step), [4, 4, 5])
        d = drive(g, attack=["machine_gun#0>t", "stop"], **{
            "table:touching": "none", "table:in_reach": ["none", "t@double"],
            "table:cover": "no"})
        assert d is not None and d.kind == "table:rear_edge" and d.player == 1
        assert d.page == 99 and d.target == "a" and values(d) == ["no", "yes"]
        play(g, answer)
        assert drive(g) is None
        return t.hull_points

    full = vehicle("t", "car", 0, 0).hull
    assert hull("yes") == full - 1
    assert hull("no") == full - 2


def test_at_a_real_table_soul_harvest_reaps_the_vehicles_the_people_say_the_move_met() -> None:
    # Far from both on the virtual table; the mover's controller says its template met the
    # enemy, then the wounded friend: a soul taken, then delivered (p.101, CP-18).
    def run(named: list[str]) -> tuple[VehicleState, Game]:
        gh = vehicle("g", "car", 100, 1000, 90)
        foe = vehicle("f", "car", 620, 290, 90, player=1)
        friend = vehicle("m", "car", 570, 340, 90)
        friend.damage = 5
        st = sponsored(table(gh, foe, friend), "beverly")
        gh.conditions["ghost_rider"] = 1
        g = at_table(st, lambda g: movement_step(g, gh))
        play(g, "medium_straight", 0, "done")
        d = drive(g, **{"table:off_table": "no"})
        assert d is not None and d.kind == "table:harvest_met" and d.page == 101
        assert values(d) == ["none", "f", "m"]
        play(g, *named)
        return friend, g

    friend, g = run(["f", "m"])
    d = g.pending()
    assert d is not None and d.kind == "soul_harvest" and d.target == "m"
    g.apply("repair")
    assert friend.damage == 3
    friend, g = run(["m", "f"])  # the friend first: no soul yet to deliver
    assert g.pending() is None and friend.damage == 5
    assert g.state.vehicles["g"].conditions[SOUL_TOKENS] == 1


def test_at_a_real_table_meshuggah_asks_which_friends_are_near_after_a_spin() -> None:
    # The friend is beyond Medium on the virtual table; after a Spin that met nothing the
    # driver names the friends within Medium: one named, one vote (p.99, CP-18).
    def run(named: str, met: str = "none") -> list[int]:
        a = vehicle("a", "car", 600, 300, 90, gear=2)
        mate = vehicle("m", "car", 1100, 420, 90)
        g = at_table(sponsored(table(a, mate), "maxxine"),
                     lambda g: movement_step(g, a), dice=[SPIN])
        d = drive(g, template="short_straight", skid_dice=1, push_it="no", spin="done", **{
            "table:touching": "none", "table:move_touched": "none", "table:off_table": "no",
            "table:pivot_touched": met, "collision_reaction": "evade"})
        if met != "none":  # the Spin met the friend: nothing asked, no vote
            assert d is not None and d.kind == "table:collision_edge"
            assert drive(g, **{"table:collision_edge": "apart"}) is None
        else:
            assert d is not None and d.kind == "table:within_medium" and d.page == 99
            assert values(d) == ["none", "m"]
            play(g, named)
        return votes(g)

    assert run("m") == [1, 0]
    assert run("none") == [0, 0]
    assert run("m", met="m") == [0, 0]  # the Spin met the friend: a Collision, not asked
