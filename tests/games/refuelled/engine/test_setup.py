"""Setting up games from teams; game logs; replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from carnage.catalog import Weight
from carnage.games.refuelled.engine.state import GameState
from carnage.games.refuelled.setup import (
    GameSetup,
    SetupError,
    add_team,
    build_game,
    checked_team,
    log_text,
    make_setup,
    parse_log,
    read_log,
    record_game,
    replay,
    vehicle_state,
    write_log,
)
from carnage.geometry.shapes import Pose
from carnage.team import check_team, load_team, parse_team

ROOT = Path(__file__).resolve().parents[4]
INTRO = ROOT / "examples" / "teams" / "intro.yaml"


def team(*vehicles: dict[str, Any], name: str = "Test", cans: int = 100) -> Any:
    return parse_team({"name": name, "cans": cans, "vehicles": list(vehicles)})


def play_first(game: Any, n: int) -> None:
    """Apply the first option of the next ``n`` decisions."""
    for _ in range(n):
        d = game.pending()
        assert d is not None
        game.apply(d.options[0].value if d.domain is None else d.domain.low)


def test_vehicle_state_carries_the_derived_stats_of_the_intro_car_and_buggy() -> None:
    report = check_team(load_team(INTRO))
    car, buggy = report.vehicles
    v = vehicle_state(car, vid="p1-car", player=0, pose=Pose(100, 200, 90))
    assert (v.hull, v.handling, v.max_gear, v.crew, v.weight) == (10, 3, 5, 2, Weight.MIDDLEWEIGHT)
    assert (v.length, v.width) == (60.0, 30.0)
    assert [(w.key, w.weapon, w.facing, w.ammo) for w in v.weapons] == [
        ("machine_gun#0", "machine_gun", "front", None)
    ]
    assert (v.gear, v.hazards, v.damage, v.hull_points) == (1, 0, 0, 10)
    b = vehicle_state(buggy, vid="p1-buggy", player=0, pose=Pose(0, 0, 0))
    assert (b.hull, b.handling, b.max_gear, b.weight) == (6, 4, 6, Weight.LIGHTWEIGHT)
    assert b.upgrades == ["roll_cage"] and "roll_cage" in b.special_rules


def test_vehicle_state_takes_build_modifiers_ammo_and_footprint() -> None:
    report = checked_team(team(
        {"name": "Big Truck", "type": "truck", "upgrades": ["armour_plating"],
         "weapons": [{"id": "rockets", "facing": "front"}]},
        {"name": "Bus", "type": "bus"},
        {"name": "Bike", "type": "bike", "weapons": [{"id": "machine_gun", "facing": "front"}]},
    ), "player 1")
    truck, bus, bike = (vehicle_state(r, vid=r.name, player=1, pose=Pose(0, 0, 0))
                        for r in report.vehicles)
    assert truck.hull == 14  # 12 + Armour Plating 2 (p.83)
    assert truck.weapons[0].ammo == 3 and truck.weapons[0].facing == "front"
    assert (bus.length, bus.width, bus.weight) == (100.0, 40.0, Weight.HEAVYWEIGHT)
    assert (bike.length, bike.width) == (30.0, 20.0)
    assert truck.player == 1


def test_add_team_gives_unique_ids_and_parks_vehicles_off_the_table() -> None:
    st = GameState(900, 1200, 2)
    spec = load_team(INTRO)
    a = add_team(st, checked_team(spec, "p1"), 0)
    b = add_team(st, checked_team(spec, "p2"), 1)
    assert [v.id for v in a] == ["p1-red-car", "p1-red-buggy"]
    assert [v.id for v in b] == ["p2-red-car", "p2-red-buggy"]
    assert all(v.pose.x < 0 and v.pose.y < 0 for v in a + b)
    assert len({(v.pose.x, v.pose.y) for v in a + b}) == 4
    twins = team({"name": "A!", "type": "car"}, {"name": "a?", "type": "car"})
    ids = [v.id for v in add_team(GameState(900, 1200, 2), checked_team(twins, "p1"), 0)]
    assert ids == ["p1-a", "p1-a-2"]


def test_illegal_team_is_one_clear_line() -> None:
    over = team({"name": "Tank", "type": "tank"}, cans=10)
    with pytest.raises(SetupError) as e:
        checked_team(over, "player 2")
    msg = str(e.value)
    assert msg.startswith("player 2 (Test): ") and "\n" not in msg
    with pytest.raises(SetupError, match="at least one vehicle"):
        checked_team(team(), "player 1")


def test_game_setup_json_roundtrip_and_bad_input() -> None:
    s = GameSetup(teams=(load_team(INTRO), load_team(INTRO)), max_rounds=7,
                  touch_it_use_it=False)
    back = GameSetup.from_json(json.loads(json.dumps(s.to_json())))
    assert back == s
    with pytest.raises(SetupError, match="expected a JSON object"):
        GameSetup.from_json([1])
    with pytest.raises(SetupError, match="missing or bad field"):
        GameSetup.from_json({"teams": []})
    with pytest.raises(SetupError, match="setup team 1"):
        GameSetup.from_json({"scenario": "street-race", "teams": [{"name": "x"}]})


def test_build_game_checks_its_setup() -> None:
    with pytest.raises(SetupError, match=r"unknown scenario 'moon-race'.*street-race"):
        build_game(GameSetup(scenario="moon-race"))
    with pytest.raises(SetupError, match="2 players need 2 teams, got 1"):
        build_game(GameSetup(teams=(load_team(INTRO),)))
    with pytest.raises(SetupError, match="at least 2 players"):
        build_game(GameSetup(players=1))
    with pytest.raises(SetupError, match="max rounds"):
        build_game(GameSetup(max_rounds=0))
    g = build_game(GameSetup(players=3), seed=1)
    assert g.state.players == 3 and len(g.state.vehicles) == 6
    assert g.options.max_rounds == GameSetup().max_rounds


def test_make_setup_from_team_files(tmp_path: Path) -> None:
    s = make_setup("street-race", [INTRO, INTRO], max_rounds=5)
    assert s.players == 2 and s.teams[0].name == "Street Race starters"
    g = build_game(s)
    assert sorted(g.state.vehicles) == ["p1-red-buggy", "p1-red-car", "p2-red-buggy",
                                        "p2-red-car"]
    with pytest.raises(SetupError, match="no such file"):
        make_setup("street-race", [tmp_path / "nope.yaml", INTRO])
    with pytest.raises(SetupError, match="3 players need 3 team files, got 2"):
        make_setup("street-race", [INTRO, INTRO], players=3)


def test_same_seed_same_game_and_log_replays(tmp_path: Path) -> None:
    setup = GameSetup(max_rounds=3)
    a, b = build_game(setup, 11), build_game(setup, 11)
    play_first(a, 12)
    play_first(b, 12)
    assert [e.to_json() for e in a.log] == [e.to_json() for e in b.log]
    path = tmp_path / "game.jsonl"
    write_log(path, record_game(a, setup, 11))
    header = json.loads(path.read_text().splitlines()[0])
    assert header["carnage_log"] == 1 and header["seed"] == 11
    assert header["scenario"] == "street-race" and len(header["choices"]) == 12
    rec = read_log(path)
    assert rec.choices == a.choices and len(rec.events) == len(a.log)
    result = replay(rec)
    assert result.identical and result.crash is None
    assert [e.to_json() for e in result.game.log] == [e.to_json() for e in a.log]


def test_replay_reports_the_first_differing_event() -> None:
    setup = GameSetup(max_rounds=2)
    g = build_game(setup, 5)
    play_first(g, 6)
    rec = record_game(g, setup, 5)
    assert rec.events[1]["kind"] == "roll"
    rec.events[1]["data"]["dice"] = [7]
    result = replay(rec)
    assert not result.identical
    assert result.difference is not None and result.difference[0] == 1
    assert result.difference[1] is not None and result.difference[1]["data"]["dice"] == [7]
    rec2 = record_game(g, setup, 5)
    rec2.events.append({"seq": 999, "kind": "extra", "source": "core", "data": {}})
    diff = replay(rec2).difference
    assert diff is not None and diff[0] == len(g.log) and diff[2] is None


def test_replay_rejects_choices_that_no_longer_apply() -> None:
    setup = GameSetup()
    g = build_game(setup, 5)
    play_first(g, 2)
    rec = record_game(g, setup, 5)
    rec.choices[1] = "no-such-slot"
    with pytest.raises(SetupError, match=r"choice 2 of 2: .*not a legal choice"):
        replay(rec)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty log"),
        ("{nope\n", "log:1: not JSON"),
        ('{"carnage_log": 2}\n', "not a carnage log header"),
        ('{"carnage_log": 1, "seed": true, "choices": []}\n', "seed must be"),
        ('{"carnage_log": 1, "seed": 1, "choices": {}}\n', "choices must be a list"),
        ('{"carnage_log": 1, "seed": 1, "choices": [], "setup": {"scenario": "street-race"}}\n'
         '{"kind": 3}\n', "log:2: malformed event"),
    ],
)
def test_bad_logs_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(SetupError, match=message) as e:
        parse_log(text)
    assert "\n" not in str(e.value)


def test_log_text_is_header_then_events() -> None:
    setup = GameSetup()
    g = build_game(setup, 2)
    text = log_text(record_game(g, setup, 2))
    lines = [json.loads(ln) for ln in text.splitlines()]
    assert lines[0]["carnage_log"] == 1
    assert [ln["seq"] for ln in lines[1:]] == list(range(len(g.log)))
    assert parse_log(text).events == [e.to_json() for e in g.log]


def test_every_event_kind_is_documented() -> None:
    """docs/events.md has a row for every event kind the code emits."""
    import ast
    import re

    # the kernel logs a forced choice through ``KernelGame._emit`` (Devil's Run's own ``_emit``
    # events are documented with that ruleset)
    emitted: set[str] = {"forced_choice"}
    for path in (ROOT / "src" / "carnage").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and (node.func.attr == "emit"
                         or (node.func.attr == "add" and isinstance(node.func.value, ast.Attribute)
                             and node.func.value.attr == "log"))  # ``game.log.add(kind, ...)``
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                emitted.add(node.args[0].value)
    doc = (ROOT / "docs" / "events.md").read_text(encoding="utf-8").split("## Hooks")[0]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", doc, flags=re.MULTILINE))
    assert {"move", "decision", "finish_line", "deploy"} <= emitted
    assert emitted - documented == set()
