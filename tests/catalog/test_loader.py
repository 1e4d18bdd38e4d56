"""The catalogue loader: validation of bad data, cross-references, id lookups."""

from __future__ import annotations

import copy
from importlib import resources
from typing import Any

import pytest
import yaml

from carnage.catalog import (
    CatalogError,
    UnknownId,
    load_catalog,
    load_catalog_from,
    normalise_id,
)

SECTIONS = ("vehicles", "weapons", "upgrades", "perk_classes", "perks", "sponsors", "templates")


def _shipped() -> dict[str, Any]:
    base = resources.files("carnage.catalog") / "data"
    return {k: yaml.safe_load((base / f"{k}.yaml").read_text(encoding="utf-8")) for k in SECTIONS}


@pytest.fixture()
def raw() -> dict[str, Any]:
    """A fresh, mutable copy of the shipped YAML data."""
    return copy.deepcopy(_SHIPPED)


_SHIPPED = _shipped()

MG: dict[str, Any] = {
    "id": "machine_gun",
    "name": "Machine Gun",
    "page": 67,
    "kind": "basic",
    "ranges": ["double"],
    "attack_dice": 2,
    "build_slots": 1,
    "cost": 2,
}


def _minimal(**overrides: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {k: [] for k in SECTIONS}
    raw.update(overrides)
    return raw


def test_shipped_data_loads_and_is_cached() -> None:
    first = load_catalog()
    assert first is load_catalog()
    assert {k: len(s) for k, s in first.sections().items()}["weapons"] == 38


def test_shipped_yaml_round_trips_through_the_loader(raw: dict[str, Any]) -> None:
    cat = load_catalog_from(raw)
    assert len(cat.vehicles) == 16
    assert len(cat.upgrades) == 22


def test_minimal_catalogue_with_one_weapon() -> None:
    cat = load_catalog_from(_minimal(weapons=[MG]))
    assert cat.weapons.get("Machine Gun").cost == 2
    assert len(cat.vehicles) == 0


def test_duplicate_id_is_rejected(raw: dict[str, Any]) -> None:
    raw["weapons"].append(dict(MG))
    with pytest.raises(CatalogError, match=r"weapons\.yaml: duplicate id 'machine_gun'"):
        load_catalog_from(raw)


@pytest.mark.parametrize("bad", ["Machine Gun", "machine-gun", "_mg", "mg__x", "MG"])
def test_bad_id_is_rejected(bad: str) -> None:
    with pytest.raises(CatalogError, match=r"weapons\.yaml item 0: id: .*snake_case"):
        load_catalog_from(_minimal(weapons=[{**MG, "id": bad}]))


def test_wrong_type_is_rejected_with_its_field() -> None:
    with pytest.raises(CatalogError, match=r"weapons\.yaml item 0: cost: "):
        load_catalog_from(_minimal(weapons=[{**MG, "cost": "cheap"}]))


def test_unknown_field_is_rejected() -> None:
    with pytest.raises(CatalogError, match=r"item 0: colour: "):
        load_catalog_from(_minimal(weapons=[{**MG, "colour": "red"}]))


def test_bad_enum_value_is_rejected() -> None:
    with pytest.raises(CatalogError, match=r"item 0: ranges\.0: "):
        load_catalog_from(_minimal(weapons=[{**MG, "ranges": ["very_far"]}]))


def test_missing_required_field_is_rejected() -> None:
    rec = {k: v for k, v in MG.items() if k != "build_slots"}
    with pytest.raises(CatalogError, match=r"item 0: build_slots: "):
        load_catalog_from(_minimal(weapons=[rec]))


def test_section_must_be_a_list() -> None:
    with pytest.raises(CatalogError, match=r"weapons\.yaml: expected a list"):
        load_catalog_from(_minimal(weapons={"machine_gun": MG}))


def test_missing_section_is_rejected() -> None:
    raw = _minimal()
    del raw["upgrades"]
    with pytest.raises(CatalogError, match=r"upgrades\.yaml: expected a list"):
        load_catalog_from(raw)


def test_unknown_sponsor_on_a_weapon(raw: dict[str, Any]) -> None:
    for rec in raw["weapons"]:
        if rec["id"] == "death_ray":
            rec["sponsor"] = "mishkinn"
    with pytest.raises(CatalogError, match=r"weapon 'death_ray': unknown sponsor 'mishkinn'"):
        load_catalog_from(raw)


def test_unknown_sponsor_on_an_upgrade(raw: dict[str, Any]) -> None:
    for rec in raw["upgrades"]:
        if rec["id"] == "prison_car":
            rec["sponsor"] = "the_warden"
    with pytest.raises(CatalogError, match=r"upgrade 'prison_car': unknown sponsor"):
        load_catalog_from(raw)


def test_unknown_built_in_upgrade(raw: dict[str, Any]) -> None:
    for rec in raw["vehicles"]:
        if rec["id"] == "buggy":
            rec["built_in_upgrades"] = ["rollcage_deluxe"]
    with pytest.raises(CatalogError, match=r"vehicle 'buggy': unknown built-in upgrade"):
        load_catalog_from(raw)


def test_built_in_upgrade_must_be_an_id_not_an_alias(raw: dict[str, Any]) -> None:
    for rec in raw["vehicles"]:
        if rec["id"] == "buggy":
            rec["built_in_upgrades"] = ["rollcage"]  # an alias of roll_cage
    with pytest.raises(CatalogError, match=r"unknown built-in upgrade 'rollcage'"):
        load_catalog_from(raw)


def test_unknown_perk_class_on_a_perk(raw: dict[str, Any]) -> None:
    raw["perks"][0]["perk_class"] = "sorcery"
    with pytest.raises(CatalogError, match=r"unknown perk class 'sorcery'"):
        load_catalog_from(raw)


def test_alias_naming_two_records_is_rejected(raw: dict[str, Any]) -> None:
    for rec in raw["weapons"]:
        if rec["id"] == "minigun":
            rec["aliases"] = ["mg"]  # already the Machine Gun's alias
    with pytest.raises(CatalogError, match=r"alias 'mg' names two records"):
        load_catalog_from(raw)


def test_page_out_of_range_is_rejected() -> None:
    with pytest.raises(CatalogError, match=r"item 0: page: "):
        load_catalog_from(_minimal(weapons=[{**MG, "page": 0}]))


def test_negative_cost_is_rejected() -> None:
    with pytest.raises(CatalogError, match=r"item 0: cost: "):
        load_catalog_from(_minimal(weapons=[{**MG, "cost": -1}]))


def test_lookup_by_id_alias_and_book_name() -> None:
    cat = load_catalog()
    w = cat.weapons
    assert w.resolve("heavy_machine_gun") == "heavy_machine_gun"
    assert w.resolve("HMG") == "heavy_machine_gun"
    assert w.resolve("Heavy Machine Gun") == "heavy_machine_gun"
    assert w.resolve("laser cannon") is None
    assert "Minigun" in w
    assert "Laser Cannon" not in w
    assert 3 not in w


def test_unknown_id_message_is_one_line() -> None:
    cat = load_catalog()
    with pytest.raises(UnknownId) as info:
        cat.vehicles.get("monster trukc")
    message = str(info.value)
    assert message == "unknown vehicle 'monster trukc' (did you mean 'monster_truck'?)"
    assert "\n" not in message


def test_did_you_mean_through_an_alias() -> None:
    # 'teleportr' is closest to the alias 'teleporter'; the suggestion is the canonical id
    with pytest.raises(UnknownId) as info:
        load_catalog().upgrades.get("teleportr")
    assert info.value.suggestion == "experimental_teleporter"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Rusty's Bootleggers", "rustys_bootleggers"),
        ("Rusty\u2019s Bootleggers", "rustys_bootleggers"),
        ("The Order of the Inferno", "order_of_the_inferno"),
        ("Don't Come Knocking!", "dont_come_knocking"),
        ("  Bike with Sidecar ", "bike_with_sidecar"),
        ("Trailer (Middleweight)", "trailer_middleweight"),
    ],
)
def test_normalise_id(text: str, expected: str) -> None:
    assert normalise_id(text) == expected
