"""Nano-mutations (GL-044..GL-049, GL-107; rulings GL-R6..GL-R12): our 100-entry table, each
vehicle's own sequence, the rating each gain adds, and the rules gains ignore or keep."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from carnage.catalog import Facing, load_catalog
from carnage.games.legacy.digits import LegacyError
from carnage.games.legacy.generator import generate_vehicle, legacy_team, legacy_type
from carnage.games.legacy.mutations import (
    gain_mutations,
    mutation_table,
    next_mutation,
    template_rolls,
    upgrade_candidates,
    weapon_candidates,
)
from carnage.team import VehicleSpec, check_team

GOLDEN = Path(__file__).parent / "golden"


def test_the_table_has_a_hundred_entries_of_every_kind() -> None:
    rows = mutation_table()
    assert [r.roll for r in rows] == list(range(1, 101))
    assert len({r.id for r in rows}) == 100 and len({r.name for r in rows}) == 100
    kinds = Counter(next(iter(g)) for r in rows for g in r.gains)
    # NOTES.md: perks of a class, upgrades, weapons with +1 crew, hull, handling, turret
    # mounts, weight class, hazard tolerance, template improvements
    for kind in ("perk", "upgrade", "weapon", "crew", "hull", "handling", "turret", "trait",
                 "template", "max_gear"):
        assert kinds[kind] > 0, kind
    assert any({"weapon", "crew"} <= {next(iter(g)) for g in r.gains} for r in rows)


@pytest.mark.parametrize("case", json.loads((GOLDEN / "mutations.json").read_text("utf-8")),
                         ids=lambda c: str(c["name"]))
def test_golden_vehicles_gain_exactly_the_committed_mutations(case: dict[str, object]) -> None:
    from carnage.games.legacy.generator import vehicle_json

    spec, gains = gain_mutations(generate_vehicle(str(case["type"]), str(case["name"])), 8)
    assert [g.to_json() for g in gains] == case["gains"]
    assert vehicle_json(spec) == case["vehicle"]


def test_the_same_vehicle_gains_the_same_mutations_in_the_same_order() -> None:
    # GL-044: one at a time (after each game) or all at once, same result.
    start = generate_vehicle("truck", "Big Bertha")
    at_once, gains = gain_mutations(start, 6)
    v = start
    one_by_one = []
    for _ in range(6):
        v, g = next_mutation(v)
        one_by_one.append(g)
    assert v == at_once and tuple(one_by_one) == gains
    assert v.legacy is not None and list(v.legacy.mutations) == [g.mutation for g in gains]
    assert [g.index for g in gains] == list(range(6))
    _other, other_gains = gain_mutations(generate_vehicle("truck", "Big Berta"), 6)
    assert [g.mutation for g in other_gains] != [g.mutation for g in gains]


def _diff_rating(before: VehicleSpec, after: VehicleSpec, template: bool) -> int:
    """GL-049 from the change itself: 2 per Hull, items their cost (a turret mounting twice
    the weapon's), 3 for anything else."""
    cat = load_catalog()
    a, b = before.legacy, after.legacy
    assert a is not None and b is not None
    out = 2 * (b.hull - a.hull)
    out += 3 * (b.handling - a.handling + b.max_gear - a.max_gear + b.crew - a.crew)
    out += 3 * (len(b.traits) - len(a.traits)) + (3 if template else 0)
    out += sum(cat.weapons.get(w.id).cost for w in after.weapons[len(before.weapons):])
    out += sum(cat.upgrades.get(u.id).cost for u in after.upgrades[len(before.upgrades):])
    out += sum(cat.perks.get(p).cost for p in after.perks[len(before.perks):])
    for old, new in zip(before.weapons, after.weapons, strict=False):
        if old.facing is not Facing.TURRET and new.facing is Facing.TURRET:
            out += 2 * cat.weapons.get(new.id).cost
    return out


def test_every_gain_raises_the_rating_by_gl_049() -> None:
    kinds: set[str] = set()
    for i in range(40):
        v = generate_vehicle(("buggy", "car", "performance_car", "truck")[i % 4], f"Mutant {i}")
        for _ in range(8):
            nv, g = next_mutation(v)
            assert v.legacy is not None and nv.legacy is not None
            assert g.rating == _diff_rating(v, nv, g.template_roll is not None) > 0
            assert nv.legacy.rating == v.legacy.rating + g.rating
            row = mutation_table()[g.roll - 1]
            kinds |= {next(iter(x)) for x in row.gains}
            v = nv
        report = check_team(legacy_team("M", [v, generate_vehicle("car", f"Mate {i}")]))
        assert report.valid, [e.message for e in report.errors]  # still a legal Legacy team
    assert {"weapon", "upgrade", "perk", "hull", "turret", "template"} <= kinds


def test_template_improvements_are_recorded_as_d6_intents() -> None:
    rolls: list[int] = []
    for i in range(30):
        _, gains = gain_mutations(generate_vehicle("car", f"Gearhead {i}"), 6)
        rolls += template_rolls(gains)
        for g in gains:
            row = mutation_table()[g.roll - 1]
            assert (g.template_roll is not None) == any("template" in x for x in row.gains)
    assert rolls and all(1 <= r <= 6 for r in rolls)


def test_gains_may_be_electrical_but_never_bigger_than_the_starting_slots() -> None:
    # GL-046: anything of the listed set (electrical too); GL-048: the single-item limit.
    cat = load_catalog()
    perf = legacy_type("performance_car")
    electrical = weapon_candidates(cat, perf, ["electrical"], 6)
    assert {w.id for w in electrical} >= {"death_ray", "grav_gun", "magnetic_jammer"}
    assert all(w.build_slots <= 2 for w in weapon_candidates(cat, perf, ["advanced"], 99))
    assert "125mm_cannon" not in {w.id for w in weapon_candidates(cat, perf, ["advanced"], 99)}
    truck = legacy_type("truck")
    assert "125mm_cannon" in {w.id for w in weapon_candidates(cat, truck, ["advanced"], 99)}
    ups = upgrade_candidates(cat, perf, generate_vehicle("performance_car", "X"),
                             ["electrical"], 7)
    assert {u.id for u in ups} == {"experimental_nuclear_engine", "experimental_teleporter"}


def test_a_mutation_needs_a_legacy_vehicle() -> None:
    with pytest.raises(LegacyError, match="not a Legacy vehicle"):
        next_mutation(VehicleSpec(name="Plain", type="car"))
    with pytest.raises(LegacyError, match="cannot gain -1"):
        gain_mutations(generate_vehicle("car", "A"), -1)
