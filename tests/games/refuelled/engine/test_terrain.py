"""Ramps (jump, tumble) and volatile obstacles (Refuelled pp.87-88)."""

from __future__ import annotations

import pytest
from tests.builders import (
    drive,
    ev,
    move_and_wipeout,
    play,
    ramp,
    rock,
    rolls,
    run_step,
    table,
    values,
    vehicle,
    wipeouts,
)

from carnage.games.refuelled.engine.game import RuleOptions
from carnage.games.refuelled.engine.state import Ramp
from carnage.games.refuelled.engine.terrain import edge_strips, parse_ramp_edge, ramp_edge_id
from carnage.geometry.shapes import Pose

# The ramp used below: centred at (600, 420), heading north, 100 long and 60 wide, so its entry
# edge is y = 370, its far edge y = 470 and its sides x = 570 and x = 630.
FAR_EDGE = 470.0


def straight_up(gear: int, template: str = "medium_straight") -> list[object]:
    """Choices for a car driving straight ahead: the template, no skid dice, and the free
    Shift of a trivial Medium Straight (gears 1-4) left unspent."""
    out: list[object] = [template, 0]
    if template == "medium_straight" and gear <= 4:
        out.append("done")
    return out


def test_jump_medium_straight_two_hazards_and_a_vote() -> None:
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=3)
    st = table(car)
    st.ramps["r"] = ramp("r", 600, 420)
    g = run_step(st, move_and_wipeout("car"), dice=[3])  # ramp check 3 <= gear 3: jump
    play(g, *straight_up(3))
    assert g.pending() is None
    move = ev(g, "move", vehicle="car")[0]
    assert move["interrupted"] and move["touched"] == [ramp_edge_id("r", "front")]
    assert ev(g, "ramp") == [{"vehicle": "car", "ramp": "r", "edge": "front", "gear": 3}]
    assert rolls(g)[-1] == ("ramp check", [3])
    jump = ev(g, "forced_move", source="jump")[0]
    assert jump["template"] == "medium_straight"
    # Stopped with its front at the far edge (centre 30 mm back), then 180 mm on.
    assert jump["y"] == pytest.approx(FAR_EDGE - 30 + 180, abs=0.2)
    assert car.pose.y == pytest.approx(FAR_EDGE - 30 + 180, abs=0.2)
    assert car.hazards == 2 and g.state.votes == [1, 0]
    assert ev(g, "audience_vote", source="jump") == [{"player": 0, "gained": 1, "votes": 1}]


def test_jump_in_gear_five_is_a_long_straight() -> None:
    car = vehicle("car", "car", 600, 240, heading=90, player=1, gear=5)
    st = table(car)
    st.ramps["r"] = ramp("r", 600, 420)
    g = run_step(st, move_and_wipeout("car"), dice=[5])
    play(g, *straight_up(5, "long_straight"))
    jump = ev(g, "forced_move", source="jump")[0]
    assert jump["template"] == "long_straight"
    assert car.pose.y == pytest.approx(FAR_EDGE - 30 + 240, abs=0.2)
    assert g.state.votes == [0, 1]


def test_tumble_short_straight_4d6_attack_and_six_hazards() -> None:
    # Gear 2, ramp check 4: tumble. Short Straight on, then 4 attack dice 4,6,1,1 = 3 hits;
    # two evade dice 6,1 cancel one: 2 damage; +6 Hazards.
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=2)
    st = table(car)
    st.ramps["r"] = ramp("r", 600, 420)
    # The 6 Hazards put it over the top in its own Wipeout Step: flip check 6, no flip.
    g = run_step(st, move_and_wipeout("car"), dice=[4, 4, 6, 1, 1, 6, 1, 6])
    play(g, *straight_up(2))
    tumble = ev(g, "forced_move", source="tumble")[0]
    assert tumble["template"] == "short_straight"
    assert tumble["y"] == pytest.approx(FAR_EDGE - 30 + 120, abs=0.2)
    assert rolls(g)[2:5] == [("tumble attack", [4, 6, 1, 1]), ("evade", [6, 1]),
                             ("flip check", [6])]
    assert car.damage == 2
    assert ev(g, "hazards", source="tumble")[0]["change"] == 6
    assert ev(g, "wipeout")[0]["hazards"] == 6
    assert g.state.votes == [0, 0]


def test_entry_edge_alone_does_not_trigger() -> None:
    # A long ramp: the Medium Straight ends on it, short of the far edge.
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=2)
    st = table(car)
    st.ramps["r"] = Ramp("r", Pose(600, 500, 90), 300, 60)  # y 350..650
    g = run_step(st, move_and_wipeout("car"))
    play(g, *straight_up(2))
    assert g.pending() is None
    assert not ev(g, "ramp") and rolls(g) == [("skid dice", [])]
    assert car.pose.y == pytest.approx(480)


def test_side_edge_triggers_and_the_jump_goes_straight_on() -> None:
    # Driving east across a north-facing ramp, it first reaches the ramp's left side (x = 570).
    car = vehicle("car", "car", 470, 420, heading=0, player=0, gear=2)
    st = table(car)
    st.ramps["r"] = ramp("r", 600, 420)
    g = run_step(st, move_and_wipeout("car"), dice=[1])
    play(g, *straight_up(2))
    assert ev(g, "ramp")[0]["edge"] == "left"
    # Front at x = 570, centre at 540, then a Medium Straight: 540 + 180.
    assert car.pose.x == pytest.approx(540 + 180, abs=0.2)
    assert car.pose.heading == pytest.approx(0.0)


def test_ramp_edge_stops_the_move_before_an_obstacle_beyond_it() -> None:
    # A rock sits on the template just past the far edge: the car stops at the edge first,
    # and the jump (ignoring everything) lands clear beyond the rock.
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=3)
    boulder = rock("rock", 600, 500, 40, 40)  # y 480..520
    st = table(car, obstacles=[boulder])
    st.ramps["r"] = ramp("r", 600, 420)
    g = run_step(st, move_and_wipeout("car"), dice=[1])
    play(g, *straight_up(3))
    assert g.pending() is None
    assert not ev(g, "collision")
    assert car.pose.y == pytest.approx(FAR_EDGE - 30 + 180, abs=0.2)
    assert car.pose.y - 30 > 520  # landed past the rock


def test_jump_landing_on_a_vehicle_backs_up_and_collides() -> None:
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=3)
    other = vehicle("other", "car", 600, 620, heading=0, player=1, gear=2)  # y 605..635
    st = table(car, other)
    st.ramps["r"] = ramp("r", 600, 420)
    g = run_step(st, move_and_wipeout("car"), dice=[1])
    play(g, *straight_up(3))
    d = g.pending()
    assert d is not None and d.kind == "collision_reaction" and d.player == 0
    # Backed up along the template until clear: its front now on the other car's side.
    assert car.pose.y + 30 == pytest.approx(605, abs=0.2)
    play(g, "evade", "evade")
    assert ev(g, "collision")[0]["orientation"] == "t_bone"
    assert car.hazards == 1 + 2  # the collision (both evaded), then the jump's 2


def test_flip_forced_move_ignores_ramps() -> None:
    # FAQ: a flip's forced move ignores ramps, even across the far edge.
    car = vehicle("car", "car", 600, 400, heading=90, player=0, gear=5, hazards=6)
    st = table(car)
    st.ramps["r"] = ramp("r", 600, 420)
    g = run_step(st, wipeouts("car"), dice=[1])
    assert not ev(g, "ramp")
    assert car.pose.y == pytest.approx(580)


def test_ramp_edges_and_ids() -> None:
    r = ramp("r", 0, 0, heading=0, length=100, width=60)
    strips = dict(edge_strips(r))
    assert set(strips) == {"front", "left", "right"}  # no strip on the entry (rear) edge
    assert strips["front"].pose.x == pytest.approx(50) and strips["front"].width == 60
    assert strips["left"].pose.y == pytest.approx(30) and strips["left"].length == 100
    assert parse_ramp_edge(ramp_edge_id("ramp:1", "left")) == ("ramp:1", "left")
    assert parse_ramp_edge("rock") is None
    with pytest.raises(ValueError, match="ramp 'bad': length and width must be positive"):
        Ramp("bad", Pose(0, 0, 0), 0, 60)


def test_jump_landing_that_wrecks_still_earns_the_vote() -> None:
    # Ruling CO-9: on 1 hull point, the car lands against another car, which smashes it to a
    # wreck (Twisted Metal). The player still gets the jump's vote, plus the wreck's.
    car = vehicle("car", "car", 600, 300, heading=90, player=0, gear=3)
    car.damage = 9
    other = vehicle("other", "car", 600, 620, heading=0, player=1, gear=2)
    st = table(car, other)
    st.ramps["r"] = ramp("r", 600, 420)
    # Ramp check 1; car smash (T-bone, own gear 3) 1,1,1; other's smash (gear 2) 4,1;
    # explosion check 1.
    g = run_step(st, move_and_wipeout("car"), dice=[1, 1, 1, 1, 4, 1, 1])
    play(g, *straight_up(3), "smash", "smash")
    assert g.pending() is None
    assert not car.in_play
    assert not ev(g, "hazards", source="jump")
    assert [v["votes"] for v in ev(g, "audience_vote", player=0)] == [1, 2]
    assert g.state.votes == [2, 0]


def test_at_a_real_table_a_move_reported_at_a_ramp_edge_jumps() -> None:
    # The ramp lies far from the car on the virtual table; the people say the move met its
    # far edge and stopped there (ruling CP-19): ramp check 3 <= gear 3, a jump (p.88): a
    # forced Medium Straight the people report, +2 Hazards and an Audience Vote.
    car = vehicle("car", "car", 100, 100, heading=90, player=0, gear=3)
    st = table(car)
    st.ramps["r"] = ramp("r", 600, 420)
    g = run_step(st, move_and_wipeout("car"), dice=[3], options=RuleOptions(physical=True))
    far = ramp_edge_id("r", "front")
    play(g, *straight_up(3))
    d = g.pending()
    assert d is not None and d.kind == "table:move_touched" and far in values(d)
    play(g, far, "none", "yes", "no")  # met the far edge, stopped there, on the table
    assert ev(g, "ramp") == [{"vehicle": "car", "ramp": "r", "edge": "front", "gear": 3}]
    d = g.pending()
    assert d is not None and d.kind == "table:forced_move_backed_up" and d.page == 88
    drive(g, **{"table:forced_move_backed_up": "no", "table:off_table": "no"})
    assert [e["template"] for e in ev(g, "forced_move", source="jump")] == ["medium_straight"]
    assert car.hazards == 2 and g.state.votes == [1, 0]
    assert car.pose == Pose(100, 100, 90)  # the people moved it (CP-1)
