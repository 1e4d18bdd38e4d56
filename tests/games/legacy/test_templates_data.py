"""A team's own movement templates as data: icons per gear, template improvements, new slide
exit points, combined templates and our Doughnut (Gaslands: Legacy; GL-039..GL-043,
GL-069, GL-090..GL-094, GL-110, GL-111)."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import Polygon

from carnage.games.legacy.templates import (
    ADD_EXIT,
    ADD_GEAR,
    ADD_SHIFT,
    CROSS_OUT_HAZARD,
    ExitPoint,
    GearIcons,
    Improvement,
    TemplateError,
    add_exit,
    add_gear,
    add_shift,
    apply_improvement,
    combine,
    combine_candidates,
    cross_out_hazard,
    describe,
    dotted_line,
    improvement_kind,
    improvement_options,
    main_exit,
    merged_template_set,
    movement_specs,
    parse_template_set,
    standard_set,
    with_doughnut,
)
from carnage.geometry.compose import cut_segments, end_of_run, joined_segments, run_length
from carnage.geometry.movement import template_path
from carnage.geometry.shapes import Pose
from carnage.geometry.templateset import Segment, default_template_set
from carnage.team.io import TeamFileError, parse_team

W = 35.0  # template width


def codes(tset, tid, icon_set=0):
    t = tset.require(tid)
    return [("-" if g is None else g.code) for g in t.icon_sets[icon_set]]


# -- the standard set -----------------------------------------------------------------------
def test_standard_set_takes_its_icons_from_the_core_table() -> None:
    s = standard_set()
    assert s.ids == ("short_straight", "medium_straight", "long_straight", "gentle", "turn",
                     "hard", "hairpin", "veer", "swerve")
    # T is one Shift icon, H one Hazard icon, P plain (GL-110).
    assert codes(s, "gentle") == ["T", "T", "P", "P", "H", "-"]
    assert codes(s, "long_straight") == ["-", "-", "-", "-", "P", "P"]
    assert s.require("hard").icons(3) == GearIcons(hazards=1, shifts=0)
    assert s.require("hard").icons(4) is None


def test_a_set_round_trips_through_its_json_form() -> None:
    s = with_doughnut(combine(add_exit(add_shift(standard_set(), "turn", 2), "turn", "end"),
                              "gentle", "hard", upper_mirrored=True))
    assert parse_template_set(s.to_json()) == s
    assert parse_template_set(s.to_json()["templates"]) == s  # the list alone


@pytest.mark.parametrize(("raw", "message"), [
    ({"templates": []}, "at least one movement template"),
    ({"templates": [{"id": "warp", "gears": ["P"] * 6}]}, "unknown template 'warp'"),
    ({"templates": [{"id": "turn", "gears": ["P"] * 5}]}, "templates.templates[0].gears"),
    ({"templates": [{"id": "turn", "gears": ["P", "X", "P", "P", "P", "P"]}]},
     "gears[1] (gear 2): 'X' is not a gear code"),
    ({"templates": [{"id": "turn", "gears": ["P"] * 6}, {"id": "turn", "gears": ["P"] * 6}]},
     "'turn' is listed twice"),
    ({"templates": [{"id": "turn", "gears": ["P"] * 6, "alt_gears": ["P"] * 6}]},
     "only a combined template has alt_gears"),
    ({"templates": [{"id": "turn", "gears": ["P"] * 6, "exits": [{"edge": "start"}]}]},
     "starting short edge"),
    ({"templates": [{"id": "turn", "gears": ["P"] * 6, "exits": [{"edge": "left", "at": 0}]}]},
     "past the starting edge"),
    ({"templates": [{"id": "turn", "gears": ["P"] * 6, "exits": [{"edge": "top"}]}]},
     "edge must be left, right or end"),
    ({"templates": [{"id": "turn", "base": "hard", "gears": ["P"] * 6}]},
     "must keep its own id"),
    ({"templates": [{"id": "turn", "gears": ["P"] * 6}], "colour": "pink"},
     "unknown key 'colour'"),
])
def test_a_bad_set_is_refused_naming_what_is_wrong(raw, message) -> None:
    with pytest.raises(TemplateError, match=None) as e:
        parse_template_set(raw)
    assert message in str(e.value)


def test_a_combined_entry_must_carry_its_composed_id() -> None:
    doc = combine(standard_set(), "turn", "hard").to_json()
    entry = next(t for t in doc["templates"] if "combine" in t)
    entry["id"] = "my-combo"
    with pytest.raises(TemplateError, match=r"combined template's id is 'turn\+hard'"):
        parse_template_set(doc)


def test_team_file_carries_templates_and_reports_errors_in_one_line() -> None:
    team = {"name": "Rust", "cans": 50, "vehicles": [{"name": "A", "type": "car"}],
            "templates": add_shift(standard_set(), "turn", 2).to_json()}
    spec = parse_team(team, "rust.yaml")
    assert spec.templates is not None and codes(spec.templates, "turn")[1] == "T"
    assert hash(spec)  # team specs stay hashable (their reports are cached)
    dumped = spec.model_dump(mode="json", exclude_none=True)
    assert parse_team(dumped, "again") == spec
    assert "templates" not in parse_team({**team, "templates": None}, "x").model_dump(
        mode="json", exclude_none=True)
    bad = {**team, "templates": {"templates": [{"id": "turn", "gears": ["P"] * 7}]}}
    with pytest.raises(TeamFileError) as e:
        parse_team(bad, "rust.yaml")
    assert e.value.problems == [
        "rust.yaml: templates.templates[0].gears: expected a list of 6 gear codes (gears 1..6)"]


# -- improvements (Junkyard Cybernetics) --------------------------------------------------------
def test_the_improvement_table() -> None:
    assert [improvement_kind(r) for r in range(1, 7)] == [
        CROSS_OUT_HAZARD, ADD_SHIFT, ADD_SHIFT, ADD_GEAR, ADD_GEAR, ADD_EXIT]
    with pytest.raises(TemplateError, match="D6, not 7"):
        improvement_kind(7)


def test_cross_out_a_hazard_icon() -> None:
    s = cross_out_hazard(standard_set(), "hard", 3)
    assert codes(s, "hard") == ["T", "P", "P", "-", "-", "-"]
    with pytest.raises(TemplateError, match="Hard shows no Hazard icon in gear 3"):
        cross_out_hazard(s, "hard", 3)
    with pytest.raises(TemplateError, match="no Hazard icon in gear 5"):
        cross_out_hazard(s, "hard", 5)  # not permitted there at all


def test_shift_icons_stack() -> None:
    s = add_shift(add_shift(standard_set(), "turn", 2), "turn", 2)
    assert codes(s, "turn")[1] == "TT"
    # A hazardous gear may gain a Shift icon and keeps its Hazard icon.
    s = add_shift(s, "turn", 4)
    assert s.require("turn").icons(4) == GearIcons(hazards=1, shifts=1)
    with pytest.raises(TemplateError, match="not permitted in gear 5"):
        add_shift(s, "turn", 5)


def test_a_new_permitted_gear_has_no_icons() -> None:
    s = add_gear(standard_set(), "veer", 1)
    assert codes(s, "veer") == ["P", "T", "P", "H", "-", "-"]
    with pytest.raises(TemplateError, match="already permitted in gear 1"):
        add_gear(s, "veer", 1)
    with pytest.raises(TemplateError, match=r"gear must be 1\.\.6"):
        add_gear(s, "veer", 7)


def test_new_slide_exit_points() -> None:
    s = add_exit(standard_set(), "medium_straight", "left", 60)
    assert s.require("medium_straight").exits == (ExitPoint("left", 60.0),)
    s = add_exit(s, "turn", "end")  # on the far short edge: facing chosen (GL-041)
    assert s.require("turn").exits == (ExitPoint("end"),)
    with pytest.raises(TemplateError, match="starting short edge"):
        add_exit(s, "hard", "start")
    with pytest.raises(TemplateError, match=r"0 < at <= 120"):
        add_exit(s, "medium_straight", "right", 121)
    with pytest.raises(TemplateError, match="already has a slide exit point on the far short"):
        add_exit(s, "medium_straight", "end")  # a straight's own exit is its far end
    with pytest.raises(TemplateError, match="already has a slide exit point on the left edge"):
        add_exit(s, "medium_straight", "left", 60)


def test_improvement_options_follow_the_roll() -> None:
    s = standard_set()
    hazards = improvement_options(s, 1)
    assert {(i.template, i.gear) for i in hazards} == {
        ("gentle", 5), ("turn", 4), ("hard", 3), ("hairpin", 3), ("veer", 4), ("swerve", 4),
        ("swerve", 5)}
    for imp in hazards:
        s = apply_improvement(s, imp)
    assert improvement_options(s, 1) == []  # nothing left to cross out: the 1 is lost
    gears = improvement_options(s, 4)
    assert Improvement(ADD_GEAR, "long_straight", 1) in gears
    assert all(i.kind == ADD_GEAR for i in gears)
    exits = improvement_options(s, 6)
    assert Improvement(ADD_EXIT, "turn", exit=ExitPoint("end")) in exits
    assert all(i.exit != main_exit(s.require(i.template)) for i in exits)
    shifted = apply_improvement(s, Improvement(ADD_SHIFT, "hairpin", 1))
    assert codes(shifted, "hairpin")[0] == "T"
    assert apply_improvement(s, 3, Improvement(ADD_SHIFT, "hairpin", 1)) == shifted
    with pytest.raises(TemplateError, match="a roll of 4 gives add_gear, not add_shift"):
        apply_improvement(s, 4, Improvement(ADD_SHIFT, "hairpin", 1))
    with pytest.raises(TemplateError, match="needs the improvement chosen"):
        apply_improvement(s, 4)


# -- geometry: joining, cutting -----------------------------------------------------------------
def cw(p, h, r, theta):
    """Exact end of a clockwise (right-turning) arc: from point p heading h (degrees)."""
    h0, h1 = math.radians(h), math.radians(h - theta)
    return (p[0] + r * (math.sin(h0) - math.sin(h1)), p[1] + r * (math.cos(h1) - math.cos(h0)),
            h - theta)


def test_cut_and_join_centrelines() -> None:
    turn = (Segment(angle=60.0, radius=115.0),)
    cut = cut_segments(turn, run_length(turn) / 2.0)
    assert cut == (Segment(angle=30.0, radius=115.0),)
    veer = default_template_set().movement["veer"].segments
    assert cut_segments(veer, 20.0) == (Segment(length=20.0),)
    with pytest.raises(ValueError, match="outside the template"):
        cut_segments(turn, 500.0)
    joined = joined_segments(turn, run_length(turn) / 2.0, turn, upper_mirrored=True)
    assert joined == (Segment(angle=30.0, radius=115.0), Segment(angle=-60.0, radius=115.0))


def test_combined_turn_and_hard_has_the_exact_shape() -> None:
    s = combine(standard_set(), "turn", "hard")
    assert "turn" not in s.ids and "hard" not in s.ids  # the originals are gone
    assert s.ids.index("turn+hard") == 4  # in the lower template's place
    t = s.require("turn+hard")
    assert t.name == "Turn + Hard"
    # Either set of gear icons: the Turn's and the Hard's.
    assert codes(s, "turn+hard", 0) == ["T", "P", "P", "H", "-", "-"]
    assert codes(s, "turn+hard", 1) == ["T", "P", "H", "-", "-", "-"]
    # Our dotted line is two thirds along the lower template: 40 degrees of the Turn.
    cut = dotted_line(standard_set().require("turn"))
    assert cut == pytest.approx(115.0 * math.radians(40.0))
    ts = merged_template_set(default_template_set(), [s.to_json()])
    path = template_path("turn+hard", Pose(0.0, 0.0, 0.0), ts=ts)
    x, y, h = cw((0.0, 0.0), 0.0, 115.0, 40.0)
    x, y, h = cw((x, y), h, 60.0, 90.0)
    assert (path.end.x, path.end.y) == (pytest.approx(x), pytest.approx(y))
    assert path.end.heading == pytest.approx(h % 360.0)
    end = end_of_run(ts.movement["turn+hard"].segments)
    assert (end.x, end.y, end.heading) == (pytest.approx(x), pytest.approx(y),
                                           pytest.approx(h % 360.0))
    # Area: a 35 mm band along the joined centreline, and exactly the cut Turn plus the whole
    # Hard laid on the dotted line.
    length = 115.0 * math.radians(40.0) + 60.0 * math.pi / 2.0
    shape = Polygon(path.outline(step_deg=0.1))
    assert shape.area == pytest.approx(length * W, rel=1e-5)
    lower = Polygon(template_path("turn", Pose(0.0, 0.0, 0.0)).outline(upto=cut, step_deg=0.1))
    upper = Polygon(template_path("hard", path.pose_at(cut)).outline(step_deg=0.1))
    assert shape.symmetric_difference(lower.union(upper)).area < 1e-3 * shape.area


def test_combined_exit_points_survive_the_cut() -> None:
    s = combine(add_exit(standard_set(), "medium_straight", "right", 100), "medium_straight",
                "turn", upper_mirrored=True)
    t = s.require("medium_straight+turn~")
    cut = 80.0  # two thirds of the Medium Straight
    # The Medium's far end and its exit at 100 mm are cut off; the Turn's own exit (outer
    # edge, at its middle) comes along turned over: on the right, 80 + 60.2 mm along
    # (positions kept to the micrometre).
    own = main_exit(t)
    assert own.edge == "right" and own.at == pytest.approx(cut + 115.0 * math.radians(30.0),
                                                           abs=1e-3)
    assert t.exits == ()
    s2 = combine(add_exit(standard_set(), "turn", "right", 40), "turn", "medium_straight")
    t2 = s2.require("turn+medium_straight")
    half = 115.0 * math.radians(30.0)
    assert main_exit(t2) == ExitPoint("end")  # the Medium's far end
    assert t2.exits == (ExitPoint("left", pytest.approx(half, abs=1e-3)),
                        ExitPoint("right", 40.0))
    specs = movement_specs(s2)
    assert specs["turn+medium_straight"].slide_side == "end"
    assert specs["turn+medium_straight@right40"].slide_exit == pytest.approx(40.0)


def test_combined_templates_can_be_combined_again() -> None:
    s = combine(standard_set(), "turn", "hard")
    s = combine(s, "turn+hard", "gentle")
    t = s.require("(turn+hard)+gentle")
    # Two icon sets still: the Turn's (the first of Turn + Hard) and the Gentle's.
    assert t.gears == standard_set().require("turn").gears
    assert t.alt_gears == standard_set().require("gentle").gears
    cut = dotted_line(standard_set().require("turn")) + dotted_line(standard_set().require(
        "hard"))
    assert dotted_line(t.combined.lower) == pytest.approx(cut)
    ts = merged_template_set(default_template_set(), [s.to_json()])
    assert ts.movement["(turn+hard)+gentle"].length == pytest.approx(
        cut + 230.0 * math.radians(30.0))


def test_which_templates_the_dice_allow() -> None:
    s = standard_set()
    pairs = combine_candidates(s, 5, 1)
    firsts = {a for a, _ in pairs}
    assert firsts == {"long_straight", "gentle", "swerve"}  # permitted in gear 5
    assert ("gentle", "gentle") not in pairs  # two different templates
    assert ("long_straight", "hard") in pairs and ("long_straight", "veer") not in pairs
    assert len(combine_candidates(s, 6, 6)) == 9 * 8  # a 6 chooses any template
    # Improvements count: the Long Straight newly permitted in gear 1.
    assert ("long_straight", "turn") in combine_candidates(add_gear(s, "long_straight", 1), 1, 1)
    with pytest.raises(TemplateError, match="do not allow Hard and Veer"):
        combine(s, "hard", "veer", dice=(5, 1))
    assert "veer+gentle" in combine(s, "veer", "gentle", dice=(5, 2)).ids
    with pytest.raises(TemplateError, match="two D6"):
        combine_candidates(s, 0, 3)


def test_improving_one_icon_set_of_a_combined_template() -> None:
    s = combine(standard_set(), "turn", "hard")
    s = cross_out_hazard(s, "turn+hard", 3, icon_set=1)
    assert codes(s, "turn+hard", 1)[2] == "P"
    assert codes(s, "turn+hard", 0)[2] == "P"
    with pytest.raises(TemplateError, match="no icon set 2"):
        add_shift(s, "turn+hard", 1, icon_set=2)


# -- our Doughnut -----------------------------------------------------------------------------
def test_the_doughnut_is_a_full_ring() -> None:
    s = with_doughnut(standard_set())
    assert codes(s, "doughnut") == ["-", "-", "P", "H", "H", "HH"]
    with pytest.raises(TemplateError, match="already has the Doughnut"):
        with_doughnut(s)
    ts = merged_template_set(default_template_set(), [s.to_json()])
    path = template_path("doughnut", Pose(100.0, 50.0, 90.0), ts=ts)
    # One full loop: it ends where it starts, facing the same way.
    assert (path.end.x, path.end.y, path.end.heading) == (
        pytest.approx(100.0), pytest.approx(50.0), pytest.approx(90.0))
    ring = abs(Polygon(path.outline(step_deg=0.1)).area)
    assert ring == pytest.approx(math.pi * (62.5 ** 2 - 27.5 ** 2), rel=1e-5)
    # Its own slide exit point: the outer edge half-way round (a right-hand loop: its far
    # side lies 90 mm to the right of the start, the outer edge 17.5 mm beyond).
    assert path.slide_exit_point() == (pytest.approx(100.0 + 2 * 45.0 + 17.5),
                                       pytest.approx(50.0))


def test_ranges_and_the_standard_templates_are_untouched_by_a_merge() -> None:
    std = default_template_set()
    s = with_doughnut(combine(add_exit(standard_set(), "turn", "end"), "gentle", "hard"))
    ts = merged_template_set(std, [s.to_json()])
    assert ts.ranges == std.ranges and ts.bursts == std.bursts
    assert (ts.slide_length, ts.slide_width, ts.width) == (std.slide_length, std.slide_width,
                                                           std.width)
    assert all(ts.movement[k] == v for k, v in std.movement.items())  # lost ones stay too
    assert {"gentle+hard", "doughnut", "turn@end"} <= set(ts.movement)
    assert merged_template_set(ts, [s.to_json()]) is ts  # a copy of a game merges the same
    assert merged_template_set(std, []) is std


def test_describe_lists_each_template() -> None:
    rows = describe(add_exit(standard_set(), "hard", "left", 30))
    hard = next(r for r in rows if r["id"] == "hard")
    assert hard["icons"] == ["1:T 2:P 3:H"]
    assert hard["exits"] == ["on the left edge 47.1239 mm along", "on the left edge 30 mm along"]
