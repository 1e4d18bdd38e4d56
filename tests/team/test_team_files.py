"""Team files: shapes, bad input, every problem reported, and the shipped examples."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from carnage.team import TeamFileError, TeamReport, check_team, load_team, parse_team

CheckFn = Callable[..., TeamReport]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "teams"


def rules(r: TeamReport) -> list[str]:
    return [e.rule for e in r.errors]


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_yaml_and_json_give_the_same_team(tmp_path: Path) -> None:
    data = {"name": "Duo", "cans": 30, "vehicles": [
        {"name": "A", "type": "car", "weapons": [{"id": "mg", "facing": "front"}]}]}
    y = write(tmp_path, "t.yaml", "name: Duo\ncans: 30\nvehicles:\n"
              "  - {name: A, type: car, weapons: [{id: mg, facing: front}]}\n")
    j = write(tmp_path, "t.json", json.dumps(data))
    assert load_team(y) == load_team(j)
    # car 12 + MG 2 = 14
    assert check_team(load_team(j)).total_cans == 14


def test_bare_ids_and_facing_case(tmp_path: Path) -> None:
    p = write(tmp_path, "t.yaml", "name: X\ncans: 50\nvehicles:\n  - name: A\n    type: Car\n"
              "    weapons: [grenades, {id: Machine Gun, facing: FRONT}]\n"
              "    upgrades: [nitro, {id: ram, facing: Rear}]\n")
    r = check_team(load_team(p))
    # car 12 + grenades 1 + MG 2 + nitro 6 + ram 4 = 25
    assert r.valid and r.total_cans == 25
    assert [w.id for w in r.vehicles[0].weapons] == ["grenades", "machine_gun"]


@pytest.mark.parametrize(("text", "expected"), [
    ("name: X\ncans: [1\n", "invalid YAML at line"),
    ("- 1\n- 2\n", "expected a mapping with name, cans and vehicles, got list"),
    ("", "got nothing"),
    ("name: X\ncans: fifty\n", "cans: input should be a valid integer (got 'fifty')"),
    ("name: X\ncans: 50\nvehicles: {a: 1}\n", "vehicles: expected a list"),
    ("name: X\ncans: 50\ncolour: red\n", "colour: unknown key"),
    ("name: X\ncans: 50\nvehicles:\n  - {name: A}\n", "vehicles[0].type: missing"),
    ("name: X\ncans: 50\nvehicles:\n  - {name: A, type: car, weapons: [{id: mg, facing: up}]}\n",
     "vehicles[0].weapons[0].facing: input should be 'front', 'rear', 'side' or 'turret'"),
    ("name: X\ncans: 50\nvehicles:\n  - {name: A, type: car, weapons: [3]}\n",
     "vehicles[0].weapons[0]: expected an id or a mapping with id and facing, got 3"),
])
def test_malformed_files_give_one_clear_line(tmp_path: Path, text: str, expected: str) -> None:
    p = write(tmp_path, "bad.yaml", text)
    with pytest.raises(TeamFileError) as info:
        load_team(p)
    assert expected in str(info.value)
    assert all(line.startswith(str(p)) and "\n" not in line for line in info.value.problems)


def test_malformed_json_and_missing_paths(tmp_path: Path) -> None:
    with pytest.raises(TeamFileError, match="invalid JSON at line 1"):
        load_team(write(tmp_path, "bad.json", "{name: 1}"))
    with pytest.raises(TeamFileError, match="no such file"):
        load_team(tmp_path / "nope.yaml")
    with pytest.raises(TeamFileError, match="is a directory"):
        load_team(tmp_path)
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(TeamFileError, match="not a UTF-8 text file"):
        load_team(binary)


def test_every_shape_problem_is_listed() -> None:
    with pytest.raises(TeamFileError) as info:
        parse_team({"cans": "x", "vehicles": [{"name": "A", "type": "car", "wheels": 4}]})
    text = str(info.value)
    assert len(info.value.problems) == 3
    assert "name: missing" in text and "cans:" in text and "vehicles[0].wheels" in text


def test_unknown_ids_with_did_you_mean(check: CheckFn) -> None:
    r = check({"name": "A", "type": "carr", "weapons": [{"id": "machine_gn", "facing": "front"}],
               "upgrades": ["armor_platin"], "perks": ["expertice"]}, sponsor="miyazaki")
    msgs = [e.message for e in r.errors]
    assert rules(r) == ["unknown_id"] * 4
    assert "A: unknown vehicle 'carr' (did you mean 'car'?)" in msgs
    assert any("'machine_gn' (did you mean 'machine_gun'?)" in m for m in msgs)
    assert any("did you mean 'armour_plating'?" in m for m in msgs)
    assert any("did you mean 'expertise'?" in m for m in msgs)


def test_all_violations_are_reported_not_just_the_first(check: CheckFn) -> None:
    # one vehicle breaking five rules, another breaking one, plus the budget:
    # buggy 6 + exploding ram 3 + MG (no facing) 2 + BFG side 1 + 2 perks 2 + 2 = 16
    # bike 5; team 21 > 20
    r = check(
        {"name": "Big Mama", "type": "buggy",
         "weapons": ["machine_gun", {"id": "bfg", "facing": "side"}],
         "upgrades": [{"id": "exploding_ram", "facing": "front"}],
         "perks": ["dead_weight", "dead_weight"]},
        {"name": "Zip", "type": "bike", "weapons": [{"id": "mines", "facing": "front"}]},
        sponsor="rutherford", cans=20,
    )
    assert rules(r) == [
        "facing_required", "facing", "forbidden_weight", "perk_once", "perk_class",
        "build_slots", "might_is_right",
        "dropped_not_front", "might_is_right",
        "budget",
    ]
    assert r.total_cans == 6 + 3 + 2 + 1 + 2 + 2 + 5 + 1


def test_duplicate_names_and_empty_team(check: CheckFn) -> None:
    dup = check({"name": "Twin", "type": "car"}, {"name": "Twin", "type": "bike"})
    empty = check()
    assert rules(dup) == ["unique_names"]
    assert rules(empty) == ["no_vehicles"]


def test_json_report_shape(check: CheckFn) -> None:
    r = check({"name": "A", "type": "car", "weapons": [{"id": "rockets", "facing": "turret"}]},
              cans=20)
    j = r.to_json()
    assert {"valid", "total_cans", "budget", "errors", "vehicles"} <= set(j)
    v = j["vehicles"][0]
    for key in ("name", "type", "cans", "slots_used", "slots", "hull", "handling", "max_gear",
                "crew", "weight", "weapons", "upgrades", "perks"):
        assert key in v
    # car 12 + rockets 5 x 3 = 27 > 20
    assert (j["valid"], j["total_cans"], v["cans"]) == (False, 27, 27)
    assert v["weapons"] == [{"id": "rockets", "facing": "turret", "ammo": 3, "mount": None,
                             "cans": 15, "slots": 2}]
    assert j["errors"][0]["item"] == "cans" and j["errors"][0]["vehicle"] is None
    json.dumps(j)  # serialisable


# Totals worked out by hand in each file's header comment (the JSON one: Tesla car 12 +
# Death Ray 3 + Magnetic Jammer 2 + Nuclear Engine 5 + Rocket Thrusters 1 = 23; Boom Box
# truck 15 + Thumper 4 + Teleporter 7 = 26; 23 + 26 = 49).
EXAMPLE_TOTALS = {
    "intro.yaml": 22,
    "rutherford_armour.yaml": 88,
    "rustys_convoy.yaml": 83,
    "warden_coffins.yaml": 47,
    "idris_cult_of_speed.yaml": 49,
    "slime_spikes.yaml": 40,
    "mishkin_lab.json": 49,
    # War Rig 40 + HMG 3 + MG 2 + Armour Plating 4; car 12 + HMG 3 + Armour Plating 4;
    # buggy 6 + MG 2 (as an ordinary team: the Savage Highways rig is free only in its games)
    "savage_riggers.yaml": 76,
    "savage_gangers.yaml": 42,  # three cars 12 + MG 2
}


def test_every_example_has_a_hand_computed_total() -> None:
    shipped = {p.name for p in EXAMPLES.iterdir() if p.suffix in {".yaml", ".json"}}
    assert shipped == set(EXAMPLE_TOTALS)


@pytest.mark.parametrize(("name", "total"), sorted(EXAMPLE_TOTALS.items()))
def test_shipped_examples_are_valid(name: str, total: int) -> None:
    r = check_team(load_team(EXAMPLES / name))
    assert r.valid, [e.message for e in r.errors]
    assert r.total_cans == total <= r.budget


def test_intro_example_is_the_books_team() -> None:
    # p.62: a Car and a Buggy, each with a front-mounted machine gun; 14 + 8 = 22
    r = check_team(load_team(EXAMPLES / "intro.yaml"))
    assert [(v.type, [(w.id, str(w.facing)) for w in v.weapons]) for v in r.vehicles] == [
        ("car", [("machine_gun", "front")]), ("buggy", [("machine_gun", "front")])]
    assert r.total_cans == 22 and r.sponsor is None
