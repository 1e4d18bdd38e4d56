"""A game's own section of a vehicle in a team file (team/sections.py): read by the model the
game registered, written back under the same key, bringing its build mode, build effects and
special rules; refused with a message naming the section when no loaded game declares it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from carnage.games.legacy.team import LEGACY_SECTION, LegacySpec, legacy_of
from carnage.team import TeamFileError, check_team, parse_team
from carnage.team.sections import (
    SECTIONS,
    SectionError,
    VehicleSection,
    register_vehicle_section,
    section_of,
    unregister_vehicle_section,
)


def legacy_raw() -> dict[str, Any]:
    return {"name": "L", "cans": 20, "vehicles": [
        {"name": "A", "type": "car", "legacy": {"rating": 12, "hull": 1, "traits": ["heavier"]}},
        {"name": "B", "type": "car", "legacy": {"rating": 8}}]}


@pytest.fixture
def no_legacy() -> Iterator[None]:
    saved = unregister_vehicle_section("legacy")
    assert saved is LEGACY_SECTION
    try:
        yield
    finally:
        register_vehicle_section(saved)


def test_a_section_no_loaded_game_declares_is_refused_naming_it(no_legacy: None) -> None:
    with pytest.raises(TeamFileError) as e:
        parse_team(legacy_raw(), "t.yaml")
    assert len(e.value.problems) == 2
    for i, line in enumerate(e.value.problems):
        assert line.startswith(f"t.yaml: vehicles[{i}].legacy: unknown key (not part of a team "
                               "file: no loaded game declares a vehicle section 'legacy'")
    # Another unknown key is still refused, named by its own place.
    raw = {"name": "X", "cans": 10, "vehicles": [{"name": "A", "type": "car", "colour": "red"}]}
    with pytest.raises(TeamFileError, match=r"vehicles\[0\]\.colour: unknown key"):
        parse_team(raw)


def test_the_registered_section_reads_and_writes_the_same_key() -> None:
    spec = parse_team(legacy_raw())
    a, b = spec.vehicles
    assert isinstance(a.legacy, LegacySpec) and a.legacy.hull == 1
    assert legacy_of(b) == LegacySpec(rating=8)
    dumped = spec.model_dump(mode="json", exclude_none=True)
    assert dumped["vehicles"][0]["legacy"]["traits"] == ["heavier"]
    assert list(dumped["vehicles"][1])[-1] == "legacy"
    assert parse_team(dumped) == spec
    # A vehicle without the section reads None for it; ``null`` in a file is no section.
    plain = parse_team({"name": "P", "cans": 10, "vehicles": [
        {"name": "C", "type": "car", "legacy": None}]}).vehicles[0]
    assert plain.legacy is None and section_of(plain, "legacy") is None
    assert "legacy" not in plain.model_dump(mode="json", exclude_none=True)


def test_a_section_value_put_in_by_copy_is_read_by_its_model() -> None:
    v = parse_team(legacy_raw()).vehicles[1]
    copied = v.model_copy(update={"legacy": {"rating": 30, "crew": 2}})
    assert legacy_of(copied) == LegacySpec(rating=30, crew=2)


def test_the_section_brings_its_build_mode() -> None:
    one = parse_team({**legacy_raw(), "vehicles": legacy_raw()["vehicles"][:1]})
    assert [e.rule for e in check_team(one).errors] == ["legacy_team_size"]
    report = check_team(parse_team(legacy_raw()))
    assert report.valid, [e.message for e in report.errors]
    assert report.vehicles[0].hull == 10 + 1
    assert "legacy_heavier" in report.vehicles[0].special_rules


class Stickers(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    count: int = 0


def test_any_game_may_declare_a_section_with_special_rules() -> None:
    """The extension point is generic: a section with no build mode keeps the core rules and
    adds its special rules to the vehicle."""
    raw = {"name": "S", "cans": 50, "vehicles": [
        {"name": "A", "type": "car", "stickers": {"count": 2}}]}
    with pytest.raises(TeamFileError, match="vehicle section 'stickers'"):
        parse_team(raw)
    register_vehicle_section(VehicleSection(
        "stickers", Stickers, "A test game",
        special_rules=lambda s: ["sticker"] * s.count))
    try:
        spec = parse_team(raw)
        with pytest.raises(TeamFileError, match=r"vehicles\[0\]\.stickers\.count: input should "
                                                "be a valid integer"):
            parse_team({**raw, "vehicles": [{"name": "A", "type": "car",
                                             "stickers": {"count": "many"}}]})
        report = check_team(spec)
    finally:
        unregister_vehicle_section("stickers")
    assert report.valid and report.budget == 50
    assert report.vehicles[0].special_rules.count("sticker") == 2


def test_a_section_may_not_take_a_vehicle_key() -> None:
    with pytest.raises(SectionError, match="'career' is a field of every vehicle"):
        register_vehicle_section(VehicleSection("career", Stickers, "A test game"))
    with pytest.raises(SectionError, match="plain name"):
        register_vehicle_section(VehicleSection("two words", Stickers, "A test game"))
    assert "career" not in SECTIONS and "two words" not in SECTIONS
