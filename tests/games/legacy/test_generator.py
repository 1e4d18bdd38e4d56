"""Our Legacy vehicle generator (GL-008, GL-012, GL-013, GL-105, GL-108; rulings GL-R1..R5):
golden names give exactly the committed vehicles, on any Python; the stats, items and rating
follow our tables; every generated vehicle passes the Legacy team checks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from carnage.catalog import Facing, load_catalog
from carnage.games.legacy.digits import Digits, LegacyError, normalise_name
from carnage.games.legacy.generator import (
    generate_vehicle,
    item_rating,
    legacy_team,
    legacy_type,
    tables,
    vehicle_json,
)
from carnage.games.legacy.names import vehicle_name
from carnage.team import check_team

GOLDEN = Path(__file__).parent / "golden"
TYPES = ("buggy", "car", "performance_car", "truck")


def golden(name: str) -> list[dict[str, object]]:
    data: list[dict[str, object]] = json.loads((GOLDEN / name).read_text("utf-8"))
    return data


@pytest.mark.parametrize("case", golden("vehicles.json"), ids=lambda c: str(c["name"]))
def test_golden_names_give_exactly_the_committed_vehicles(case: dict[str, object]) -> None:
    spec = generate_vehicle(str(case["type"]), str(case["name"]))
    assert vehicle_json(spec) == case["vehicle"]


def test_the_generator_does_not_depend_on_the_interpreter_hash_seed() -> None:
    # GL-012: the same name and type always give the same vehicle, so str hashing (which
    # PYTHONHASHSEED randomises) must play no part.
    code = ("import json; from carnage.games.legacy.generator import generate_vehicle, vehicle_json;"
            "print(json.dumps(vehicle_json(generate_vehicle('car', 'Rust Bucket'))))")
    outs = set()
    for seed in ("1", "2", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True).stdout
        outs.add(out)
    assert len(outs) == 1
    assert json.loads(outs.pop()) == golden("vehicles.json")[0]["vehicle"]


def test_the_digit_stream_is_md5_of_the_key() -> None:
    import hashlib

    d = Digits("a", "b")
    first = hashlib.md5(b"a\x1fb\x1f0").digest()
    assert d.below(65536) == (first[0] << 8) | first[1]
    assert [Digits("x").d6() for _ in range(3)] == [Digits("x").d6()] * 3


def test_names_are_normalised_before_hashing_but_kept_as_written() -> None:
    a = generate_vehicle("car", "Rust Bucket")
    b = generate_vehicle("Car", "  rust   BUCKET ")
    assert a.model_copy(update={"name": "x"}) == b.model_copy(update={"name": "x"})
    assert (a.name, b.name) == ("Rust Bucket", "rust BUCKET")
    assert normalise_name("Ｒust  Bucket") == "rust bucket"  # NFKC folds the full-width R
    assert generate_vehicle("car", "Rust Buckets") != a


def test_types_are_the_four_and_accept_book_names_and_aliases() -> None:
    assert legacy_type("Performance Car").id == "performance_car"
    assert legacy_type("perf_car").id == "performance_car"
    assert generate_vehicle("truck", "A").type != generate_vehicle("car", "A").type
    with pytest.raises(LegacyError, match=r"unknown Legacy vehicle type 'tank' \(known: buggy"):
        generate_vehicle("tank", "Rust Bucket")
    with pytest.raises(LegacyError, match="needs a name"):
        generate_vehicle("car", "   ")


def _names(n: int) -> list[str]:
    return [f"{vehicle_name(i)} {i}" for i in range(n)]


def test_generated_vehicles_keep_to_our_tables() -> None:
    cat = load_catalog()
    t = tables()
    seen_counts: set[tuple[int, int, int]] = set()
    for vt in TYPES:
        base = cat.vehicles.get(vt)
        for name in _names(60):
            v = generate_vehicle(vt, name)
            lg = v.legacy
            assert lg is not None
            assert 1 <= len(v.weapons) <= 4 and len(v.upgrades) <= 2 and len(v.perks) <= 3
            seen_counts.add((len(v.weapons), len(v.upgrades), len(v.perks)))
            assert lg.hull in t["bonuses"]["hull"] and lg.crew in t["bonuses"]["crew"]
            assert base.max_gear + lg.max_gear <= 6
            assert len(set(v.perks)) == len(v.perks)
            assert len({u.id for u in v.upgrades}) == len(v.upgrades)
            for w in v.weapons:  # GL-013: no single item over the starting slots
                weapon = cat.weapons.get(w.id)
                assert weapon.build_slots <= base.build_slots
                assert not weapon.electrical and weapon.sponsor is None  # ruling GL-R2
                if weapon.kind == "dropped":
                    assert w.facing is not Facing.FRONT
            # ruling GL-R3: price in cans (a turret mounting 2x its weapon) + 2/Hull + 3/other
            extra = 2 * lg.hull + 3 * (lg.handling + lg.max_gear + lg.crew)
            assert lg.rating == item_rating(v, cat) + extra
    assert {w for w, _, _ in seen_counts} == {1, 2, 3, 4}
    assert {u for _, u, _ in seen_counts} == {0, 1, 2}
    assert {p for _, _, p in seen_counts} == {0, 1, 2, 3}


def test_a_turret_mounting_rates_twice_its_weapon_on_top_of_the_weapon() -> None:
    cat = load_catalog()
    found = None
    for name in _names(200):
        v = generate_vehicle("car", name)
        if any(w.facing is Facing.TURRET for w in v.weapons):
            found = v
            break
    assert found is not None and found.legacy is not None
    turret = next(w for w in found.weapons if w.facing is Facing.TURRET)
    plain = found.model_copy(update={"weapons": tuple(
        w.model_copy(update={"facing": Facing.FRONT}) if w is turret else w
        for w in found.weapons)})
    cost = cat.weapons.get(turret.id).cost
    assert item_rating(found, cat) - item_rating(plain, cat) == 2 * cost  # GL-052, GL-R11
    report = check_team(legacy_team("T", [found, generate_vehicle("buggy", "Mate")]))
    line = next(w for w in report.vehicles[0].weapons if w.facing is Facing.TURRET)
    assert line.cans == cost + 2 * cost


def test_every_generated_pair_passes_the_legacy_team_checks() -> None:
    names = _names(80)
    for i in range(0, len(names), 2):
        a = generate_vehicle(TYPES[i % 4], names[i])
        b = generate_vehicle(TYPES[(i + 1) % 4], names[i + 1])
        report = check_team(legacy_team(f"team {i}", [a, b]))
        assert report.valid, [e.message for e in report.errors]
        assert report.sponsor is None


def test_the_name_generator_uses_our_lists_and_its_seed() -> None:
    assert vehicle_name(7) == vehicle_name(7)
    assert vehicle_name("seat 1") == vehicle_name("seat 1")
    assert len({vehicle_name(i) for i in range(50)}) > 40
    first, second = vehicle_name(3).split(" ")
    from carnage.games.legacy.names import name_lists

    assert first in name_lists()["first"] and second in name_lists()["second"]
    assert vehicle_name() != "" and len(vehicle_name().split(" ")) == 2


def test_our_tables_say_they_are_ours() -> None:
    from carnage.games.legacy.catalog import legacy_data

    for f in ("generator.yaml", "mutations.yaml", "names.yaml"):
        assert "not the official app" in legacy_data(f)["source"]
