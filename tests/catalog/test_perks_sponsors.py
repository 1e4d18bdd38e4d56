"""Perk classes, perks and sponsors catalogue data (Refuelled pp.91-115)."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from typing import Any

import pytest
import yaml

from carnage.catalog.loader import (
    Catalog,
    CatalogError,
    UnknownId,
    load_catalog,
    load_catalog_from,
    normalise_id,
)
from carnage.catalog.models import Sponsor, Weight

MINE = ("perk_classes", "perks", "sponsors")
OTHERS = ("vehicles", "weapons", "upgrades", "templates")


def _raw(name: str) -> Any:
    base = resources.files("carnage.catalog") / "data"
    return yaml.safe_load((base / f"{name}.yaml").read_text(encoding="utf-8"))


def _raw_mine() -> dict[str, Any]:
    """Our three files with every other section empty, so other data cannot break these tests."""
    raw: dict[str, Any] = {k: [] for k in OTHERS}
    for k in MINE:
        raw[k] = _raw(k)
    return raw


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog_from(_raw_mine())


# --- counts -------------------------------------------------------------------------------


def test_counts(cat: Catalog) -> None:
    assert len(cat.perk_classes) == 12
    assert len(cat.perks) == 72
    assert len(cat.sponsors) == 13
    per_class = Counter(p.perk_class for p in cat.perks)
    assert set(per_class) == set(cat.perk_classes.records)
    assert set(per_class.values()) == {6}


def test_perk_class_ids_and_pages(cat: Catalog) -> None:
    # Refuelled contents page: where each class list starts.
    ids = ["aggression", "badass", "built", "daring", "horror", "military", "precision",
           "pursuit", "reckless", "speed", "technology", "tuning"]  # fmt: skip
    pages = [104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 114]
    assert {pc.id: pc.page for pc in cat.perk_classes} == dict(zip(ids, pages, strict=True))


# --- perk costs ---------------------------------------------------------------------------

# Read off pp.104-115 by hand: (id, class, cans).
BOOK_COSTS = [
    ("double_barreled", "aggression", 2),
    ("battlehammer", "aggression", 4),
    ("terrifying_lunatic", "aggression", 5),
    ("murder_tractor", "aggression", 5),
    ("powder_keg", "badass", 1),
    ("madman", "badass", 3),
    ("bullet_time", "badass", 3),
    ("bruiser", "built", 4),
    ("crusher", "built", 7),
    ("feel_no_pain", "built", 8),
    ("chrome_whisperer", "daring", 2),
    ("evasive", "daring", 5),
    ("stunt_driver", "daring", 7),
    ("sympathy_for_the_devil", "horror", 1),
    ("violent_manifestation", "horror", 3),
    ("angel_of_death", "horror", 4),
    ("rapid_fire", "military", 2),
    ("headshot", "military", 4),
    ("return_fire", "military", 5),
    ("expertise", "precision", 3),
    ("easy_rider", "precision", 5),
    ("pit", "pursuit", 4),
    ("unnerving_eye_contact", "pursuit", 5),
    ("drive_angry", "reckless", 1),
    ("dont_come_knocking", "reckless", 4),
    ("biggern_you", "reckless", 4),
    ("beerserker", "reckless", 5),
    ("hot_start", "speed", 1),
    ("time_extended", "speed", 3),
    ("hell_for_leather", "speed", 5),
    ("whizbang", "technology", 1),
    ("eureka", "technology", 4),
    ("fenderkiss", "tuning", 2),
    ("purring", "tuning", 6),
    ("skiing", "tuning", 6),
]


@pytest.mark.parametrize(("perk_id", "perk_class", "cost"), BOOK_COSTS)
def test_sample_perk_costs(cat: Catalog, perk_id: str, perk_class: str, cost: int) -> None:
    perk = cat.perks.get(perk_id)
    assert perk.id == perk_id
    assert perk.perk_class == perk_class
    assert perk.cost == cost


def test_class_cost_totals(cat: Catalog) -> None:
    """Sum of the six printed costs per class, added up by hand from the book."""
    totals: Counter[str] = Counter()
    for p in cat.perks:
        totals[p.perk_class] += p.cost
    assert totals == {
        "aggression": 23, "badass": 12, "built": 28, "daring": 25, "horror": 12,
        "military": 17, "precision": 17, "pursuit": 17, "reckless": 18, "speed": 16,
        "technology": 12, "tuning": 22,
    }  # fmt: skip


def test_book_lists_each_class_cheapest_first(cat: Catalog) -> None:
    """The book prints every class in non-decreasing cost; our file keeps book order."""
    by_class: dict[str, list[int]] = {}
    for p in cat.perks:
        by_class.setdefault(p.perk_class, []).append(p.cost)
    for costs in by_class.values():
        assert costs == sorted(costs)


def test_perk_pages_within_perk_chapter(cat: Catalog) -> None:
    for p in cat.perks:
        class_page = cat.perk_classes.get(p.perk_class).page
        assert class_page <= p.page <= class_page + 1 <= 116
    assert cat.perks.get("grinderman").page == 105  # Aggression runs onto p.105
    assert cat.perks.get("rear_drive").page == 115


def test_stunt_driver_purchase_restriction(cat: Catalog) -> None:
    # Refuelled p.107: lightweight or middleweight type with base Handling 3+.
    sd = cat.perks.get("stunt_driver")
    assert set(sd.allowed_weights) == {Weight.LIGHTWEIGHT, Weight.MIDDLEWEIGHT}
    assert sd.min_base_handling == 3
    restricted = [p.id for p in cat.perks if p.allowed_weights or p.min_base_handling]
    assert restricted == ["stunt_driver"]


# --- sponsors -----------------------------------------------------------------------------

SPONSOR_CLASSES = {
    "rutherford": {"badass", "military"},
    "miyazaki": {"daring", "precision"},
    "mishkin": {"military", "technology"},
    "idris": {"precision", "speed"},
    "slime": {"tuning", "reckless"},
    "warden": {"aggression", "badass"},
    "scarlett": {"tuning", "aggression"},
    "highway_patrol": {"speed", "pursuit"},
    "verney": {"technology", "built"},
    "maxxine": {"tuning", "pursuit"},
    "order_of_the_inferno": {"horror", "speed"},
    "beverly": {"horror", "built"},
    "rustys_bootleggers": {"reckless", "built"},
}


def test_sponsor_ids_and_perk_classes(cat: Catalog) -> None:
    assert {s.id: set(s.perk_classes) for s in cat.sponsors} == SPONSOR_CLASSES
    used = {pc for classes in SPONSOR_CLASSES.values() for pc in classes}
    assert used == set(cat.perk_classes.records)  # every class is reachable by some sponsor


def test_sponsor_names_and_pages(cat: Catalog) -> None:
    assert cat.sponsors.get("beverly").name == "Beverly, the Devil on the Highway"
    assert cat.sponsors.get("rustys_bootleggers").name == "Rusty's Bootleggers"
    assert cat.sponsors.get("order_of_the_inferno").name == "The Order of the Inferno"
    assert cat.sponsors.get("warden").name == "The Warden"
    pages = {s.id: s.page for s in cat.sponsors}
    assert pages["rutherford"] == 91
    assert pages["idris"] == 94
    assert pages["highway_patrol"] == pages["verney"] == 98
    assert pages["rustys_bootleggers"] == 102
    assert all(91 <= p <= 103 for p in pages.values())


def test_sponsor_name_normalises_to_its_id(cat: Catalog) -> None:
    for s in cat.sponsors:
        if s.id != "beverly":  # the book's full title is longer than the id
            assert normalise_id(s.name) == s.id


@pytest.mark.parametrize(
    ("sponsor", "expected"),
    [
        (
            "rutherford",
            ["military_hardware", "well_stocked", "might_is_right", "televised_carnage"],
        ),
        ("miyazaki", ["virtuoso", "elegance", "showing_off"]),
        ("mishkin", ["thumpermonkey", "dynamo", "all_the_toys"]),
        ("idris", ["n2o_addict", "speed_demon", "cult_of_speed", "kiss_my_asphalt"]),
        ("slime", ["pinball", "spiked_fist", "live_fast"]),
        ("warden", ["prison_cars", "fireworks"]),
        ("scarlett", ["crew_quarters", "raiders", "raise_the_sails", "press_gang_or_keelhaul"]),
        ("highway_patrol", ["hot_pursuit", "bogey_at_12_oclock", "siren", "steel_justice"]),
        ("verney", ["microplate_armour", "trunk_of_junk", "tombstone", "thats_entertainment"]),
        ("maxxine", ["dizzy", "maxximum_drift", "meshuggah"]),
        ("order_of_the_inferno", ["fire_walk_with_me", "burning_man", "cult_of_flame"]),
        (
            "beverly",
            ["graveyard_shift", "ghost_rider", "soul_anchor", "at_the_crossroads", "inexorable",
             "soul_harvest"],
        ),
        (
            "rustys_bootleggers",
            ["party_hard", "dutch_courage", "as_straight_as_im_able", "over_the_limit",
             "trailer_trash", "haulage"],
        ),
    ],
)  # fmt: skip
def test_sponsored_perks(cat: Catalog, sponsor: str, expected: list[str]) -> None:
    assert list(cat.sponsors.get(sponsor).sponsored_perks) == expected


def test_sponsored_perk_ids_match_book_names() -> None:
    # normalisation of the printed rule names gives the stored ids
    assert normalise_id("Bogey at 12 o\u2019Clock") == "bogey_at_12_oclock"
    assert normalise_id("As Straight as I\u2019m Able") == "as_straight_as_im_able"
    assert normalise_id("That\u2019s Entertainment") == "thats_entertainment"
    assert normalise_id("N2O Addict") == "n2o_addict"


def test_team_rules(cat: Catalog) -> None:
    rules = {s.id: set(s.team_rules) for s in cat.sponsors}
    assert rules == {
        "rutherford": {"military_hardware", "well_stocked", "might_is_right"},
        "miyazaki": {"elegance"},
        "mishkin": {"thumpermonkey"},
        "idris": {"n2o_addict", "kiss_my_asphalt"},
        "slime": {"spiked_fist"},
        "warden": {"prison_cars"},
        "scarlett": {"crew_quarters"},
        "highway_patrol": {"louder_siren"},
        "verney": {"microplate_armour"},
        "maxxine": set(),
        "order_of_the_inferno": set(),
        "beverly": set(),
        "rustys_bootleggers": {"trailer_trash", "haulage"},
    }
    for s in cat.sponsors:
        extra = set(s.team_rules) - set(s.sponsored_perks)
        # Louder Siren is an upgrade Highway Patrol may buy, not one of its sponsored perks
        assert extra == ({"louder_siren"} if s.id == "highway_patrol" else set())


def test_perks_buyable_by_sponsor(cat: Catalog) -> None:
    def buyable(sponsor: str) -> set[str]:
        classes = set(cat.sponsors.get(sponsor).perk_classes)
        return {p.id for p in cat.perks if p.perk_class in classes}

    assert len(buyable("rutherford")) == 12
    assert "headshot" in buyable("rutherford")
    assert "expertise" not in buyable("rutherford")
    assert "stunt_driver" in buyable("miyazaki")
    assert "dont_come_knocking" in buyable("rusty")


# --- lookups ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "sponsor_id"),
    [
        ("beverly", "beverly"),
        ("Beverly, The Devil on the Highway", "beverly"),
        ("rusty", "rustys_bootleggers"),
        ("Rusty\u2019s Bootleggers", "rustys_bootleggers"),
        ("inferno", "order_of_the_inferno"),
        ("The Order of the Inferno", "order_of_the_inferno"),
        ("patrol", "highway_patrol"),
        ("Highway Patrol", "highway_patrol"),
        ("The Warden", "warden"),
        ("RUTHERFORD", "rutherford"),
    ],
)
def test_sponsor_aliases(cat: Catalog, key: str, sponsor_id: str) -> None:
    assert cat.sponsors.get(key).id == sponsor_id
    assert key in cat.sponsors


@pytest.mark.parametrize(
    ("book_name", "perk_id"),
    [
        ("Don\u2019t Come Knocking", "dont_come_knocking"),
        ("DON'T COME KNOCKING", "dont_come_knocking"),
        ("Time Extended!", "time_extended"),
        ("Eureka!", "eureka"),
        ("Bigger\u2019n You", "biggern_you"),
        ("Double-Barreled", "double_barreled"),
        ("Double-Barrelled", "double_barreled"),
        ("Bullet-Time", "bullet_time"),
        ("Dead-Eye", "dead_eye"),
        ("Mr Fahrenheit", "mister_fahrenheit"),
        ("Pursuit Intervention Technique", "pit"),
        ("Sat Nav", "satellite_navigation"),
        ("Outrun", "out_run"),
    ],
)
def test_perk_book_names_and_aliases(cat: Catalog, book_name: str, perk_id: str) -> None:
    assert cat.perks.get(book_name).id == perk_id


def test_perk_ids_are_normalised_book_names(cat: Catalog) -> None:
    for p in cat.perks:
        assert normalise_id(p.name) == p.id


def test_did_you_mean(cat: Catalog) -> None:
    with pytest.raises(UnknownId) as e:
        cat.sponsors.get("rutherfurd")
    assert e.value.suggestion == "rutherford"
    assert str(e.value) == "unknown sponsor 'rutherfurd' (did you mean 'rutherford'?)"
    with pytest.raises(UnknownId) as e2:
        cat.perks.get("dont_come_knockin")
    assert e2.value.suggestion == "dont_come_knocking"
    with pytest.raises(UnknownId) as e3:
        cat.sponsors.get("bevrly")
    assert e3.value.suggestion == "beverly"
    with pytest.raises(UnknownId) as e4:
        cat.perk_classes.get("xyzzy")
    assert e4.value.suggestion is None
    assert "did you mean" not in str(e4.value)


def test_perk_class_lookup(cat: Catalog) -> None:
    assert cat.perk_classes.get("Technology").id == "technology"
    assert cat.perk_classes.get("tech").id == "technology"


# --- validation of the data shape ---------------------------------------------------------


def test_unknown_perk_class_is_rejected() -> None:
    raw = _raw_mine()
    raw["perks"] = [*raw["perks"], {"id": "x", "name": "X", "perk_class": "juggling",
                                    "cost": 1, "page": 104}]  # fmt: skip
    with pytest.raises(CatalogError, match="perk 'x': unknown perk class 'juggling'"):
        load_catalog_from(raw)


def test_sponsor_with_unknown_class_is_rejected() -> None:
    raw = _raw_mine()
    raw["sponsors"] = [{**raw["sponsors"][0], "perk_classes": ["badass", "juggling"]}]
    with pytest.raises(CatalogError, match="unknown perk class 'juggling'"):
        load_catalog_from(raw)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("sponsored_perks", ["Might Is Right"], "not lowercase snake_case"),
        ("team_rules", ["elegance", "elegance"], "must not repeat"),
        ("perk_classes", [], "at least 1"),
    ],
)
def test_sponsor_field_validation(field: str, value: list[str], message: str) -> None:
    base = {"id": "s", "name": "S", "page": 91, "perk_classes": ["speed"]}
    with pytest.raises(ValueError, match=message):
        Sponsor.model_validate({**base, field: value})


def test_negative_perk_cost_is_rejected() -> None:
    raw = _raw_mine()
    raw["perks"] = [{**raw["perks"][0], "cost": -1}]
    with pytest.raises(CatalogError, match=r"perks\.yaml item 0: cost"):
        load_catalog_from(raw)


# --- against the whole shipped catalogue (vehicles, weapons, upgrades from the other files) --


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog()


def test_shipped_catalogue_carries_our_sections(shipped: Catalog) -> None:
    assert len(shipped.perk_classes) == 12
    assert len(shipped.perks) == 72
    assert len(shipped.sponsors) == 13
    assert shipped.sponsors.get("rusty").id == "rustys_bootleggers"
    assert shipped.perks.get("Don't Come Knocking").cost == 4


def test_stunt_driver_eligibility_uses_printed_type_stats(shipped: Catalog) -> None:
    """Ruling PS-1: judged on the vehicle type's printed weight and Handling (p.107)."""
    sd = shipped.perks.get("stunt_driver")
    assert sd.min_base_handling is not None
    eligible = {
        v.id
        for v in shipped.vehicles
        if v.weight in sd.allowed_weights and v.handling >= sd.min_base_handling
    }
    assert eligible == {
        "buggy", "car", "performance_car", "drag_racer", "bike", "bike_with_sidecar", "gyrocopter",
    }  # fmt: skip
    # Expertise (+1 Handling) is a perk, not a type stat: a Truck stays ineligible
    assert shipped.vehicles.get("truck").handling == 2
    assert shipped.perks.get("expertise").perk_class == "precision"


def test_sponsor_only_items_have_an_access_rule(shipped: Catalog) -> None:
    """Every weapon or upgrade restricted to a sponsor is unlocked by one of its team rules."""
    gated = [w.sponsor for w in shipped.weapons if w.sponsor]
    gated += [u.sponsor for u in shipped.upgrades if u.sponsor]
    assert set(gated) == {"mishkin", "rustys_bootleggers", "warden", "highway_patrol", "verney"}
    for sponsor_id in gated:
        assert shipped.sponsors.get(sponsor_id).team_rules


def test_team_rules_naming_upgrades_resolve(shipped: Catalog) -> None:
    # Refuelled p.98, p.99: the two sponsor upgrades named directly by a team rule
    siren = shipped.upgrades.get("louder_siren")
    assert (siren.sponsor, siren.cost) == ("highway_patrol", 2)
    plate = shipped.upgrades.get("microplate_armour")
    assert (plate.sponsor, plate.cost) == ("verney", 6)
    # rules that halve a price point at upgrades with even costs (p.94 Nitro, p.97 crew)
    assert shipped.upgrades.get("nitro_booster").cost % 2 == 0
    assert shipped.upgrades.get("extra_crewmember").cost % 2 == 0
