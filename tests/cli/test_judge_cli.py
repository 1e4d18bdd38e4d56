"""``carnage judge SCENE.json [--svg OUT]``: answers, the example scene, and bad scenes."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from carnage.cli.main import app

runner = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1"})
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "scenes" / "example.json"


def scene(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "table": {"width": 900, "height": 600},
        "vehicles": [
            {"id": "red", "type": "car", "x": 100, "y": 300, "heading": 0},
            {"id": "blue", "type": "car", "x": 400, "y": 300, "heading": 180},
        ],
        "obstacles": [],
        "surfaces": [],
        "queries": [],
    }
    base.update(over)
    return base


def run(tmp_path: Path, data: dict[str, Any] | str, *extra: str) -> Any:
    p = tmp_path / "scene.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return runner.invoke(app, ["judge", str(p), *extra])


def answers(tmp_path: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
    res = run(tmp_path, data)
    assert res.exit_code == 0, res.output
    out: list[dict[str, Any]] = json.loads(res.stdout)["answers"]
    assert len(out) == len(data["queries"])
    return out


def fails(tmp_path: Path, data: dict[str, Any] | str, *needles: str) -> str:
    res = run(tmp_path, data)
    assert res.exit_code == 2, res.output
    err = res.stderr.strip()
    assert res.stdout == ""
    assert "\n" not in err and "Traceback" not in err, err
    assert err.startswith("error: ")
    for n in needles:
        assert n in err, err
    return err


# ------------------------------------------------------------------ answers


def test_example_scene_runs_and_draws(tmp_path: Path) -> None:
    out = tmp_path / "table.svg"
    res = runner.invoke(app, ["judge", str(EXAMPLE), "--svg", str(out)])
    assert res.exit_code == 0, res.output
    ans = json.loads(res.stdout)["answers"]
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert len(ans) == len(data["queries"])
    # red's Medium Straight is stopped by the barrels just ahead of it
    assert ans[0]["interrupted"] is True and ans[0]["touched"] == ["barrels"]
    # black drives through the destructible crates and on into blue
    assert ans[1]["touched"] == ["crates", "blue"]
    assert ans[4] == {"in_range": True, "cover": True, "blocked": False}
    assert ans[7] == {"band": "medium"} and ans[8] == {"band": None}
    assert ans[9] == {"off_table": True}
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    ids = [e.get("data-id") for e in root.iter() if e.get("class") == "vehicle"]
    assert ids == [v["id"] for v in data["vehicles"]]
    assert any(e.get("class") == "path" for e in root.iter())


def test_move_straight_unobstructed(tmp_path: Path) -> None:
    q = [{"move": {"vehicle": "red", "template": "medium_straight"}}]
    (a,) = answers(tmp_path, scene(queries=q))
    # front edge at x=130, template to 250, rear edge there: centre 280
    assert a == {"pose": {"x": 280.0, "y": 300.0, "heading": 0.0}, "interrupted": False,
                 "touched": []}


def test_move_into_another_car(tmp_path: Path) -> None:
    q = [{"move": {"vehicle": "red", "template": "long_straight"}}]
    # Unobstructed, red would end with its front edge at 130 + 180 + 60 = 370: exactly
    # touching blue's front edge is not an interruption.
    (a,) = answers(tmp_path, scene(queries=q))
    assert a == {"pose": {"x": 340.0, "y": 300.0, "heading": 0.0}, "interrupted": False,
                 "touched": ["blue"]}
    vs = scene()["vehicles"]
    vs[1]["x"] = 390  # blue's front edge now at x=360: red stops against it
    (b,) = answers(tmp_path, scene(vehicles=vs, queries=q))
    assert b["interrupted"] is True and b["touched"] == ["blue"]
    assert b["pose"]["x"] == pytest.approx(330.0, abs=0.01) and b["pose"]["heading"] == 0.0


def test_move_reverse_and_mirror(tmp_path: Path) -> None:
    q = [{"move": {"vehicle": "red", "template": "short_straight", "reverse": True}},
         {"move": {"vehicle": "red", "template": "hard", "mirror": True}}]
    back, left = answers(tmp_path, scene(queries=q))
    # rear edge x=70, template to x=10, front edge placed on its far edge: centre -20
    assert back["pose"] == {"x": -20.0, "y": 300.0, "heading": 0.0}
    assert left["pose"]["heading"] == 90.0  # mirrored Hard turns left
    assert left["pose"]["y"] > 300


def test_destructible_obstacle_is_cleared_then_the_move_goes_on(tmp_path: Path) -> None:
    # The p.49 example: the move is interrupted by a destructible obstacle, it is removed
    # after the collision, and the vehicle carries on to its Final Position (ruling GF-9).
    crate = {"id": "crate", "x": 200, "y": 300, "length": 20, "width": 20, "heading": 0,
             "weight": "lightweight", "tall": False, "destructible": True}
    q = [{"move": {"vehicle": "red", "template": "medium_straight"}}]
    (a,) = answers(tmp_path, scene(obstacles=[crate], queries=q))
    assert a == {"pose": {"x": 280.0, "y": 300.0, "heading": 0.0}, "interrupted": True,
                 "touched": ["crate"]}
    solid = dict(crate, destructible=False)
    (b,) = answers(tmp_path, scene(obstacles=[solid], queries=q))
    assert b["pose"]["x"] == pytest.approx(160.0, abs=0.01) and b["touched"] == ["crate"]


def test_orientation(tmp_path: Path) -> None:
    vs = [
        {"id": "a", "type": "car", "x": 100, "y": 300, "heading": 0},
        {"id": "b", "type": "car", "x": 160, "y": 300, "heading": 180},  # nose to nose
        {"id": "c", "type": "car", "x": 400, "y": 300, "heading": 0},
    ]
    q = [{"orientation": {"a": "a", "b": "b"}}, {"orientation": {"a": "a", "b": "c"}}]
    head_on, apart = answers(tmp_path, scene(vehicles=vs, queries=q))
    assert head_on == {"orientation": "head_on"}
    assert apart == {"orientation": None}


def test_in_arc_range_and_cover(tmp_path: Path) -> None:
    # red front edge x=130; blue spans x 370..430: gap 240.
    wall = {"id": "wall", "x": 250, "y": 300, "length": 10, "width": 200, "heading": 0,
            "weight": "heavyweight", "tall": False, "destructible": False}
    q = [
        {"in_arc": {"vehicle": "red", "target": "blue", "arc": "front", "range": "long"}},
        {"in_arc": {"vehicle": "red", "target": "blue", "arc": "front", "range": "double"}},
        {"in_arc": {"vehicle": "red", "target": "blue", "arc": "rear", "range": "double"}},
        {"in_arc": {"vehicle": "red", "target": "blue", "arc": "turret", "range": "double"}},
    ]
    long_, double, rear, turret = answers(tmp_path, scene(queries=q))
    assert long_ == {"in_range": False, "cover": False, "blocked": False}
    assert double == {"in_range": True, "cover": False, "blocked": False}
    assert rear["in_range"] is False
    assert turret["in_range"] is True
    covered = answers(tmp_path, scene(obstacles=[wall], queries=q[1:2]))
    assert covered == [{"in_range": True, "cover": True, "blocked": False}]
    tall = dict(wall, tall=True)
    blocked = answers(tmp_path, scene(obstacles=[tall], queries=q[1:2]))
    assert blocked == [{"in_range": True, "cover": True, "blocked": True}]


def test_other_vehicles_are_obstructions_for_cover(tmp_path: Path) -> None:
    vs = scene()["vehicles"] + [{"id": "bus", "type": "bus", "x": 250, "y": 300, "heading": 90}]
    q = [{"in_arc": {"vehicle": "red", "target": "blue", "arc": "front", "range": "double"}}]
    (a,) = answers(tmp_path, scene(vehicles=vs, queries=q))
    assert a["cover"] is True


def test_range_band_and_off_table(tmp_path: Path) -> None:
    q = [{"range_band": {"a": "red", "b": "blue"}},
         {"off_table": {"vehicle": "red", "template": "short_straight", "reverse": True}},
         {"off_table": {"vehicle": "blue", "template": "long_straight"}}]
    vs = [{"id": "red", "type": "car", "x": 100, "y": 300, "heading": 0},
          {"id": "blue", "type": "car", "x": 400, "y": 300, "heading": 0}]
    band, back, fwd = answers(tmp_path, scene(vehicles=vs, queries=q))
    assert band == {"band": "double"}  # gap 240
    # rear edge x=70, Short reaches x=10: the car itself ends hanging off the table
    # (centre x=-20) but only the template counts (ruling GF-8)
    assert back == {"off_table": False}
    assert fwd == {"off_table": False}  # front edge 430 + 180 = 610 < 900
    q2 = [{"off_table": {"vehicle": "red", "template": "medium_straight", "reverse": True}}]
    assert answers(tmp_path, scene(vehicles=vs, queries=q2)) == [{"off_table": True}]


def test_surfaces_query(tmp_path: Path) -> None:
    road = {"id": "road", "kind": "road", "x": 450, "y": 300, "length": 900, "width": 60,
            "heading": 0}
    mud = {"id": "mud", "kind": "rough", "x": 200, "y": 300, "length": 20, "width": 20,
           "heading": 0}
    q = [{"surfaces": {"vehicle": "red", "template": "medium_straight"}}]
    (a,) = answers(tmp_path, scene(surfaces=[road, mud], queries=q))
    assert a == {"road": True, "rough": ["mud"], "treacherous": []}


# ------------------------------------------------------------------ bad scenes


def test_missing_file_and_bad_json(tmp_path: Path) -> None:
    res = runner.invoke(app, ["judge", str(tmp_path / "nope.json")])
    assert res.exit_code == 2 and "no such file" in res.stderr
    fails(tmp_path, "{not json", "invalid JSON", "line 1")
    fails(tmp_path, "[1, 2]", "must be a JSON object")


@pytest.mark.parametrize(
    ("edit", "needles"),
    [
        (lambda s: s["vehicles"][0].update(type="hovercraft"),
         ("vehicles[0].type", "unknown vehicle type 'hovercraft'")),
        (lambda s: s["vehicles"][1].pop("heading"), ("vehicles[1].heading", "missing field")),
        (lambda s: s.pop("table"), ("table", "missing field")),
        (lambda s: s["vehicles"][0].update(x="left"), ("vehicles[0].x",)),
        (lambda s: s["vehicles"][0].update(colour="red"), ("vehicles[0].colour", "unknown field")),
        (lambda s: s["vehicles"][1].update(id="red"), ("vehicles[1]", "already used")),
        (lambda s: s["table"].update(width=-5), ("table.width",)),
        (lambda s: s["obstacles"].append({"id": "o", "x": 1, "y": 1, "length": 5,
                                          "heading": 0}), ("obstacles[0].width", "missing")),
        (lambda s: s["surfaces"].append({"id": "s", "kind": "lava", "x": 1, "y": 1,
                                         "length": 5, "width": 5, "heading": 0}),
         ("surfaces[0].kind",)),
        (lambda s: s["queries"].append({"teleport": {"vehicle": "red"}}),
         ("queries[0]", "unknown query 'teleport'")),
        (lambda s: s["queries"].append({"move": {"vehicle": "red"}, "extra": {}}),
         ("queries[0]", "exactly one key")),
        (lambda s: s["queries"].append({"move": {"vehicle": "ghost", "template": "turn"}}),
         ("queries[0].move.vehicle", "'ghost'", "not in the scene")),
        (lambda s: s["queries"].append({"move": {"vehicle": "red"}}),
         ("queries[0].move.template", "missing field")),
        (lambda s: s["queries"].append({"move": {"vehicle": "red", "template": "zigzag"}}),
         ("queries[0].move", "zigzag")),
        (lambda s: s["queries"].append({"move": {"vehicle": "red", "template": "turn",
                                                 "slide": "up"}}),
         ("queries[0].move.slide",)),
        (lambda s: s["queries"].append({"in_arc": {"vehicle": "red", "target": "blue",
                                                   "arc": "up", "range": "long"}}),
         ("queries[0].in_arc", "unknown arc 'up'")),
        (lambda s: s["queries"].append({"in_arc": {"vehicle": "red", "target": "blue",
                                                   "arc": "front", "range": "far"}}),
         ("queries[0].in_arc", "unknown shooting template 'far'")),
        (lambda s: s["queries"].append({"range_band": {"a": "red", "b": "moon"}}),
         ("queries[0].range_band.b", "'moon'")),
    ],
)
def test_bad_scenes_exit_2_with_one_line(tmp_path: Path, edit: Any, needles: tuple[str, ...]
                                         ) -> None:
    s = copy.deepcopy(scene())
    edit(s)
    fails(tmp_path, s, *needles)


def test_overlapping_start_positions_matter_for_moves(tmp_path: Path) -> None:
    vs = [{"id": "red", "type": "car", "x": 100, "y": 300, "heading": 0},
          {"id": "blue", "type": "car", "x": 120, "y": 300, "heading": 0}]
    # Overlapping cars are fine until a query needs their positions to be legal.
    assert answers(tmp_path, scene(vehicles=vs, queries=[{"range_band": {"a": "red",
                                                                         "b": "blue"}}]))
    q = [{"move": {"vehicle": "red", "template": "short_straight"}}]
    fails(tmp_path, scene(vehicles=vs, queries=q), "queries[0].move", "overlaps 'blue'")
    q = [{"orientation": {"a": "red", "b": "blue"}}]
    fails(tmp_path, scene(vehicles=vs, queries=q), "queries[0].orientation", "overlap")


def test_a_bad_query_late_in_the_list_prints_no_answers(tmp_path: Path) -> None:
    q = [{"range_band": {"a": "red", "b": "blue"}},
         {"move": {"vehicle": "red", "template": "nope"}}]
    fails(tmp_path, scene(queries=q), "queries[1].move")


# ------------------------------------------------------------------ example scenes


def _example(name: str) -> list[dict[str, Any]]:
    res = runner.invoke(app, ["judge", str(EXAMPLE.parent / name)])
    assert res.exit_code == 0, res.output
    out: list[dict[str, Any]] = json.loads(res.stdout)["answers"]
    return out


def test_ignoring_examples_a_b_c() -> None:
    # p.48: Blue starts touching Red and ignores it. A: it drives on to its Final Position.
    # B: Black blocks the Final Position and Blue collides with it. C: Blue cannot fit
    # between Red and Black, backs up to where it started, and collides with nothing.
    a, b, c = _example("ignoring.json")
    assert a == {"pose": {"x": 280.0, "y": 100.0, "heading": 0.0}, "interrupted": False,
                 "touched": []}
    assert b["interrupted"] is True and b["touched"] == ["black_b"]
    assert b["pose"]["x"] == pytest.approx(255.0, abs=0.01)  # front edge against x=285
    assert c == {"pose": {"x": 100.0, "y": 700.0, "heading": 0.0}, "interrupted": True,
                 "touched": []}


def test_interrupted_turn_and_destructible_examples() -> None:
    from carnage.geometry.movement import final_pose
    from carnage.geometry.shapes import Pose, Rect, distance, penetration

    blue_turn, black_turn, orient = _example("interrupted.json")
    # p.46: Blue's Turn overlaps Red; Blue stops part way round, touching Red.
    p = blue_turn["pose"]
    assert blue_turn["interrupted"] is True and blue_turn["touched"] == ["red"]
    assert 0 < p["heading"] < 90 and p["heading"] != pytest.approx(30.0)
    blue = Rect(Pose(p["x"], p["y"], p["heading"]), 60, 30).polygon()
    red = Rect(Pose(190, 330, 0), 60, 30).polygon()
    assert distance(blue, red) <= 0.01 and penetration(blue, red) <= 0.01
    # p.49: Black runs into the destructible fruit stall, which is removed, and then
    # reaches its Final Position.
    want = final_pose(Rect(Pose(500, 200, 90), 60, 30), "turn")
    assert black_turn["touched"] == ["fruit_stall"] and black_turn["interrupted"] is True
    assert (black_turn["pose"]["x"], black_turn["pose"]["y"]) == pytest.approx(
        (want.x, want.y), abs=1e-3)
    assert orient == {"orientation": None}  # the query sees the table before any move


def test_cover_example() -> None:
    post, front_flank, turret_flank, rear, burst, band = _example("cover.json")
    assert post == {"in_range": True, "cover": False, "blocked": False}  # shot past the post
    assert front_flank["in_range"] is False
    assert turret_flank == {"in_range": True, "cover": True, "blocked": False}  # the wall
    assert rear["in_range"] is False
    assert burst == {"in_range": True, "cover": False, "blocked": False}
    assert band == {"band": "long"}
