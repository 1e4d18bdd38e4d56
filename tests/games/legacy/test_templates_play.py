"""A team's own templates in play, through the real flow with scripted dice and exact poses:
gear icons change the skid dice and Hazards, new slide exit points, the starting-position
rule, combined templates' two icon sets, forced moves, ranges, copies and replays
(Gaslands: Legacy; GL-023, GL-039..GL-043, GL-075, GL-090..GL-092)."""

from __future__ import annotations

import math
import random

import pytest
from tests.builders import ev, move, on, perked, play, run_step, table, values, vehicle
from tests.copies import copies_diverge

from carnage.ai import bot_rng, make_bot, play_out
from carnage.games.legacy.templates import (
    add_exit,
    add_gear,
    add_shift,
    combine,
    cross_out_hazard,
    standard_set,
    with_doughnut,
)
from carnage.games.refuelled.engine.movement import forced_move, template_options
from carnage.games.refuelled.engine.team_templates import set_seat_templates, team_set
from carnage.games.refuelled.setup import GameSetup, build_game, record_game, replay
from carnage.geometry.ranges import range_band
from carnage.geometry.templateset import default_template_set
from carnage.team.io import parse_team

HAZ, SPIN, SLIDE, SHIFT = 1, 2, 3, 4


def with_set(tset, *vehicles, seat: int = 0):
    st = table(*vehicles)
    set_seat_templates(st, seat, tset)
    return st


def car(gear: int = 1, vtype: str = "car", player: int = 0):
    return vehicle("car", vtype, 600, 300, heading=90, gear=gear, player=player)


def permitted(g):
    """Templates the pending choice offers as permitted (touch it, use it offers all)."""
    return {o.value.split("/")[0] for o in g.pending().options if not o.label.endswith("[-]")}


def pose(g):
    p = g.state.vehicles["car"].pose
    return (round(p.x, 6), round(p.y, 6), round(p.heading, 6))


def cw(p, h, r, theta):
    """Exact end of a clockwise (right-turning) arc from point p heading h (degrees)."""
    h0, h1 = math.radians(h), math.radians(h - theta)
    return (p[0] + r * (math.sin(h0) - math.sin(h1)), p[1] + r * (math.cos(h1) - math.cos(h0)),
            h - theta)


# -- gear icons ---------------------------------------------------------------------------------
def test_two_shift_icons_give_two_bonus_shifts() -> None:
    tset = add_shift(add_shift(standard_set(), "turn", 2), "turn", 2)
    g = run_step(with_set(tset, car(gear=2)), move("car"), dice=[HAZ])
    d = g.pending()
    assert d is not None and "turn" in values(d)
    assert any(o.value == "turn" and o.label.endswith("(TT) [T]") for o in d.options)
    play(g, "turn", 1, "no")  # one skid die: a Hazard; no Push It
    assert g.pending().kind == "spend_shift"
    play(g, "cancel:0", "gear_up")  # the two icons: cancel the Hazard and change up
    c = g.state.vehicles["car"]
    assert (c.gear, c.hazards) == (3, 1)  # only the change up's Hazard
    assert g.pending() is None
    x, y, h = cw((600.0, 330.0), 90.0, 115.0, 60.0)  # the Turn from the front edge
    assert pose(g) == (pytest.approx(x + 30 * math.cos(math.radians(h))),
                       pytest.approx(y + 30 * math.sin(math.radians(h))), pytest.approx(h))
    # The standard Turn in gear 2 is plain: the Hazard stays and no Shift is offered.
    std = run_step(table(car(gear=2)), move("car"), dice=[HAZ])
    play(std, "turn", 1, "no")
    assert std.pending() is None
    assert (std.state.vehicles["car"].gear, std.state.vehicles["car"].hazards) == (2, 1)
    assert pose(std) == pose(g)


def test_crossed_out_hazard_and_a_doubly_hazardous_doughnut() -> None:
    tset = with_doughnut(cross_out_hazard(standard_set(), "hard", 3))
    g = run_step(with_set(tset, car(gear=3)), move("car"))
    play(g, "hard/left", 0)
    assert g.state.vehicles["car"].hazards == 0
    assert ev(g, "template", template="hard")[0]["use"] == "P"
    std = run_step(table(car(gear=3)), move("car"))
    play(std, "hard/left", 0)
    assert std.state.vehicles["car"].hazards == 1
    assert pose(std) == pose(g)
    # Gear 6: our Doughnut shows two Hazard icons; it loops back and rolls on one length.
    d6 = run_step(with_set(tset, car(gear=6, vtype="performance_car")), move("car"))
    assert permitted(d6) == {"long_straight", "doughnut"}
    play(d6, "doughnut", 0)
    assert d6.state.vehicles["car"].hazards == 2
    assert pose(d6) == (pytest.approx(600.0), pytest.approx(360.0), pytest.approx(90.0))


def test_a_newly_permitted_gear_is_offered_plain() -> None:
    tset = add_gear(standard_set(), "long_straight", 2)
    g = run_step(with_set(tset, car(gear=2)), move("car"))
    opts = {o.value: o.label for o in g.pending().options}
    assert opts["long_straight"] == "Long Straight [P]"
    assert "long_straight/left" not in opts  # a straight is laid one way up
    play(g, "long_straight", 0)
    assert pose(g) == (pytest.approx(600.0), pytest.approx(300.0 + 30.0 + 180.0 + 30.0),
                       pytest.approx(90.0))
    std = run_step(table(car(gear=2)), move("car"))
    assert "long_straight" not in permitted(std)


# -- new slide exit points ------------------------------------------------------------------------
def test_sliding_from_a_new_exit_on_a_long_edge() -> None:
    tset = add_exit(standard_set(), "medium_straight", "left", 60)
    g = run_step(with_set(tset, car(gear=1)), move("car"), dice=[SLIDE])
    # A straight with an exit on one long edge may be laid either way up.
    assert {"medium_straight", "medium_straight/left"} <= set(values(g.pending()))
    play(g, "medium_straight", 1, "no", "done")
    d = g.pending()
    assert d is not None and d.kind == "slide_exit"
    assert values(d) == ["medium_straight", "medium_straight@left60"]
    play(g, "medium_straight@left60")
    # Out of the left edge 60 mm along: across half the template, the Slide template and half
    # the car, keeping its facing (no facing choice off a long edge).
    assert g.pending() is None
    assert pose(g) == (pytest.approx(600.0 - 17.5 - 45.0 - 15.0), pytest.approx(330.0 + 60.0),
                       pytest.approx(90.0))
    assert ev(g, "slide_exit")[0]["laid"] == "medium_straight@left60"
    # Turned over, the same exit is on the right.
    r = run_step(with_set(tset, car(gear=1)), move("car"), dice=[SLIDE])
    play(r, "medium_straight/left", 1, "no", "done", "medium_straight@left60")
    assert pose(r) == (pytest.approx(600.0 + 77.5), pytest.approx(390.0), pytest.approx(90.0))


def test_its_own_exit_point_still_slides_as_before() -> None:
    tset = add_exit(standard_set(), "medium_straight", "left", 60)
    g = run_step(with_set(tset, car(gear=1)), move("car"), dice=[SLIDE])
    play(g, "medium_straight", 1, "no", "done", "medium_straight", "right")
    std = run_step(table(car(gear=1)), move("car"), dice=[SLIDE])
    play(std, "medium_straight", 1, "no", "done", "right")
    assert pose(g) == pose(std)


def test_a_short_edge_exit_lets_the_vehicle_choose_its_facing() -> None:
    tset = add_exit(standard_set(), "turn", "end")
    g = run_step(with_set(tset, car(gear=2)), move("car"), dice=[SLIDE])
    play(g, "turn", 1, "no")
    assert values(g.pending()) == ["turn", "turn@end"]
    play(g, "turn@end")
    d = g.pending()
    assert d is not None and d.kind == "slide" and values(d) == ["left", "right"]
    play(g, "left")
    # The Turn's far end, then a quarter turn to the left and across the Slide template.
    x, y, h = cw((600.0, 330.0), 90.0, 115.0, 60.0)
    assert pose(g) == (pytest.approx(x + 60.0 * math.cos(math.radians(h))),
                       pytest.approx(y + 60.0 * math.sin(math.radians(h))),
                       pytest.approx(h + 90.0))
    assert g.state.vehicles["car"].hazards == 1


def test_no_template_with_an_exit_touching_the_starting_position() -> None:
    # Our Doughnut ends where it starts: an exit on its far short edge would touch the car.
    ring = with_doughnut(standard_set())
    g = run_step(with_set(ring, car(gear=3)), move("car"))
    assert {"doughnut", "doughnut/left"} <= set(values(g.pending()))
    touching = add_exit(ring, "doughnut", "end")
    g2 = run_step(with_set(touching, car(gear=3)), move("car"))
    assert not any(v.startswith("doughnut") for v in values(g2.pending()))
    # An exit on the long edge at the very end lies beside the car's corner, not on it.
    beside = add_exit(ring, "doughnut", "left", 2 * math.pi * 45.0)
    g3 = run_step(with_set(beside, car(gear=3)), move("car"))
    assert "doughnut" in values(g3.pending())


# -- combined templates ----------------------------------------------------------------------------
def test_a_combined_template_offers_either_set_of_icons() -> None:
    tset = combine(standard_set(), "gentle", "hard")
    g = run_step(with_set(tset, car(gear=3)), move("car"))
    opts = {o.value: o.label for o in g.pending().options}
    assert opts["gentle+hard"] == "Gentle + Hard [P]"
    assert opts["gentle+hard/alt"] == "Gentle + Hard with its second icons [H]"
    assert not any(v.split("/")[0] in ("gentle", "hard") for v in opts)  # originals gone
    play(g, "gentle+hard/alt", 0)
    assert g.state.vehicles["car"].hazards == 1
    x, y, h = cw((600.0, 330.0), 90.0, 230.0, 20.0)  # two thirds of the Gentle
    x, y, h = cw((x, y), h, 60.0, 90.0)  # then the whole Hard
    assert pose(g) == (pytest.approx(x + 30 * math.cos(math.radians(h))),
                       pytest.approx(y + 30 * math.sin(math.radians(h))),
                       pytest.approx(h % 360.0))
    plain = run_step(with_set(tset, car(gear=3)), move("car"))
    play(plain, "gentle+hard", 0)
    assert plain.state.vehicles["car"].hazards == 0 and pose(plain) == pose(g)
    # Gear 1: both sets show one Shift icon, so there is one choice.
    g1 = run_step(with_set(tset, car(gear=1)), move("car"))
    assert "gentle+hard" in values(g1.pending())
    assert "gentle+hard/alt" not in values(g1.pending())


def test_forced_moves_use_the_seats_templates_and_a_lost_one_is_the_standard() -> None:
    tset = combine(standard_set(), "medium_straight", "turn")
    st = with_set(tset, car(gear=2))
    g = run_step(st, on("car", lambda g, v: forced_move(g, v, "medium_straight", source="flip",
                                                        page=35)))
    assert pose(g) == (pytest.approx(600.0), pytest.approx(300.0 + 60.0 + 120.0),
                       pytest.approx(90.0))
    assert ev(g, "forced_move")[0]["template"] == "medium_straight"


def test_a_creature_moves_on_the_templates_of_the_seat_activating_it() -> None:
    st = table(car(gear=3, player=1))
    set_seat_templates(st, 1, with_doughnut(standard_set()))
    g = run_step(st, move("car"))
    assert any(v.startswith("doughnut") for v in values(g.pending()))
    c = g.state.vehicles["car"]
    c.player = 0  # now controlled from a seat with the standard templates
    assert team_set(g, c) is None
    assert not any(v.startswith("doughnut") for v, _ in template_options(g, c,
                                                                           permitted_only=True))


# -- whole games ----------------------------------------------------------------------------------
def legacy_team(tset) -> object:
    return parse_team({"name": "Rust Bucket", "cans": 50,
                       "vehicles": [{"name": "Rust", "type": "car"},
                                    {"name": "Bucket", "type": "buggy"}],
                       "templates": tset.to_json()}, "legacy team")


PLAIN = {"name": "Plain", "cans": 50, "vehicles": [{"name": "Blue", "type": "car"},
                                                   {"name": "Grey", "type": "buggy"}]}

CHANGED = with_doughnut(combine(add_exit(add_shift(standard_set(), "turn", 2), "turn", "end"),
                                "gentle", "hard"))


def test_ranges_stay_the_standard_ones() -> None:
    g = build_game(GameSetup(teams=(legacy_team(CHANGED), parse_team(PLAIN, "plain"))), 3)
    std = default_template_set()
    assert g.templates.ranges == std.ranges and g.templates.bursts == std.bursts
    a = [(0.0, 0.0), (30.0, 0.0), (30.0, 60.0), (0.0, 60.0)]
    for gap in (50.0, 110.0, 170.0, 290.0, 310.0):
        b = [(30.0 + gap, 0.0), (60.0 + gap, 0.0), (60.0 + gap, 60.0), (30.0 + gap, 60.0)]
        assert range_band(a, b, g.templates) == range_band(a, b, std)
    assert g.state.templates == {"0": CHANGED.to_json()}


def test_copies_snapshots_and_replays_keep_the_seats_templates() -> None:
    setup = GameSetup(teams=(legacy_team(CHANGED), parse_team(PLAIN, "plain")))
    bots = [make_bot("heuristic"), make_bot("heuristic")]
    for seed in (1, 5):
        g = build_game(setup, seed)
        rng = bot_rng(seed)
        for _ in range(12):
            d = g.pending()
            if d is None:
                break
            g.apply(bots[d.player].choose(g, d, rng))
        assert copies_diverge(g, bots, random.Random(seed), steps=40) is None
        play_out(g, bots, rng)
        assert g.outcome() is not None
        assert replay(record_game(g, setup, seed)).identical
        # Seat 0 only ever chose templates of its own set; seat 1 the standard ones.
        own = set(CHANGED.ids)
        for e in g.log.of_kind("template"):
            v = g.state.vehicles[str(e.data["vehicle"])]
            if v.player == 0:
                assert e.data["template"] in own
            else:
                assert e.data["template"] in standard_set().ids


def test_bots_play_the_seats_own_templates() -> None:
    setup = GameSetup(teams=(legacy_team(CHANGED), parse_team(PLAIN, "plain")))
    used: set[str] = set()
    for seed in range(4):
        g = play_out(build_game(setup, seed), [make_bot("heuristic")] * 2, bot_rng(seed))
        used |= {str(e.data["template"]) for e in g.log.of_kind("template")}
    assert "gentle+hard" in used
    # Gear 6, nose to the table edge: the Long Straight would leave the table, so the bot
    # takes our Doughnut (scored on its own geometry through the game's template set).
    st = with_set(CHANGED, vehicle("car", "performance_car", 600, 1100, heading=90, gear=6))
    g = run_step(st, move("car"))
    pick = make_bot("heuristic").choose(g, g.pending(), random.Random(0))
    assert str(pick).split("/")[0] == "doughnut"
    play(g, pick, 0)
    assert g.state.vehicles["car"].in_play and g.state.vehicles["car"].hazards == 2


def test_the_template_event_names_the_team_template_and_its_icons() -> None:
    tset = add_shift(add_shift(standard_set(), "turn", 2), "turn", 2)
    g = run_step(with_set(tset, car(gear=2)), move("car"))
    play(g, "turn/left", 0)
    assert ev(g, "template")[0] == {"vehicle": "car", "template": "turn", "mirror": True,
                                    "reverse": False, "use": "T", "name": "Turn",
                                    "hazard_icons": 0, "shift_icons": 2}
    std = run_step(table(car(gear=2)), move("car"))
    play(std, "turn/left", 0)
    assert "name" not in ev(std, "template")[0]  # standard games log exactly as before


def test_touch_it_use_it_hands_over_among_the_teams_permitted_templates() -> None:
    tset = with_doughnut(combine(standard_set(), "gentle", "hard"))
    g = run_step(with_set(tset, car(gear=1)), move("car"))
    opts = {o.value: o.label for o in g.pending().options}
    assert opts["doughnut"] == "Doughnut [-]"  # touchable, not permitted in gear 1
    play(g, "doughnut")
    d = g.pending()
    assert d is not None and d.player == 1 and d.source == "touch_it_use_it"
    handed = {v.split("/")[0] for v in values(d)}
    assert "doughnut" not in handed and "gentle+hard" in handed and "gentle" not in handed
    play(g, "gentle+hard/left")
    assert ev(g, "template")[0]["template"] == "gentle+hard"


def test_trick_driving_reads_the_teams_own_icons() -> None:
    # Trick Driving (p.107): a template counts as its best use a gear up or down; for a
    # team's own template that is its own icons (our Doughnut is plain in gear 3).
    tset = with_doughnut(standard_set())
    driver = perked(car(gear=2), "trick_driving")
    g = run_step(with_set(tset, driver), move("car"))
    assert "doughnut" in permitted(g)
    plain = run_step(with_set(tset, car(gear=2)), move("car"))
    assert "doughnut" not in permitted(plain)


def test_the_team_templates_hook_chooses_whose_set_a_vehicle_uses() -> None:
    # A rule (or ruleset) may say whose set a vehicle moves with: here seat 1's Doughnut for
    # seat 0's car, as a scenario might for a creature it hands to a player.
    st = table(car(gear=3, player=0))
    set_seat_templates(st, 1, with_doughnut(standard_set()))

    def step(g):
        with g.temporary("lend"):
            g.effects.on("team_templates", "lend", lambda seat, ctx: 1)
            assert team_set(g, g.state.vehicles["car"]) is not None
            yield from move("car")(g)

    g = run_step(st, step)
    assert "doughnut" in permitted(g)
    play(g, "doughnut", 0)
    assert pose(g) == (pytest.approx(600.0), pytest.approx(360.0), pytest.approx(90.0))
