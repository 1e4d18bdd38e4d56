"""Vehicles, weapons and upgrades data against the book (Refuelled pp.66-87, 96-103, 183-185)."""

from __future__ import annotations

from collections import Counter

import pytest

from carnage.catalog import (
    Catalog,
    Facing,
    RangeBand,
    UnknownId,
    UpgradeKind,
    WeaponKind,
    Weight,
    load_catalog,
    normalise_id,
)

ALL_FACINGS = (Facing.FRONT, Facing.REAR, Facing.SIDE, Facing.TURRET)


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog()


# --- counts ----------------------------------------------------------------------------------


def test_sixteen_vehicle_types_six_basic_ten_advanced(cat: Catalog) -> None:
    assert len(cat.vehicles) == 16
    kinds = Counter(v.advanced for v in cat.vehicles)
    assert kinds == {False: 6, True: 10}
    basic = {v.id for v in cat.vehicles if not v.advanced}
    assert basic == {"buggy", "car", "performance_car", "truck", "heavy_truck", "bus"}


def test_thirty_eight_weapons_by_kind(cat: Catalog) -> None:
    assert len(cat.weapons) == 38
    kinds = Counter(w.kind for w in cat.weapons)
    assert kinds == {
        WeaponKind.BASIC: 4,
        WeaponKind.ADVANCED: 18,
        WeaponKind.CREW_FIRED: 8,
        WeaponKind.DROPPED: 8,
    }


def test_upgrade_counts_by_kind(cat: Catalog) -> None:
    kinds = Counter(u.kind for u in cat.upgrades)
    assert kinds == {
        UpgradeKind.UPGRADE: 11,
        UpgradeKind.TRAILER: 3,
        UpgradeKind.CARGO: 5,
        UpgradeKind.SPONSOR: 3,
    }
    sponsor_only = {u.id: u.sponsor for u in cat.upgrades if u.kind is UpgradeKind.SPONSOR}
    assert sponsor_only == {
        "prison_car": "warden",
        "louder_siren": "highway_patrol",
        "microplate_armour": "verney",
    }


# --- vehicles --------------------------------------------------------------------------------

# (id, weight, hull, handling, max gear, crew, build slots, cost, page) — pp.66, 68, 183
VEHICLE_LINES = [
    ("buggy", "lightweight", 6, 4, 6, 2, 2, 6, 66),
    ("car", "middleweight", 10, 3, 5, 2, 2, 12, 66),
    ("performance_car", "middleweight", 8, 4, 6, 1, 2, 15, 66),
    ("truck", "middleweight", 12, 2, 4, 3, 3, 15, 66),
    ("heavy_truck", "heavyweight", 14, 2, 3, 4, 5, 25, 66),
    ("bus", "heavyweight", 16, 2, 3, 8, 3, 30, 66),
    ("drag_racer", "lightweight", 4, 4, 6, 1, 2, 5, 68),
    ("bike", "lightweight", 4, 5, 6, 1, 1, 5, 68),
    ("bike_with_sidecar", "lightweight", 4, 5, 6, 2, 2, 8, 68),
    ("ice_cream_truck", "middleweight", 10, 2, 4, 2, 2, 8, 68),
    ("gyrocopter", "middleweight", 4, 4, 6, 1, 0, 10, 68),
    ("ambulance", "middleweight", 12, 2, 5, 3, 3, 20, 68),
    ("monster_truck", "heavyweight", 10, 3, 4, 2, 2, 25, 68),
    ("helicopter", "heavyweight", 8, 3, 4, 3, 4, 30, 68),
    ("tank", "heavyweight", 20, 4, 3, 3, 4, 40, 68),
    ("war_rig", "heavyweight", 26, 2, 4, 5, 5, 40, 68),
]


@pytest.mark.parametrize("line", VEHICLE_LINES, ids=[line[0] for line in VEHICLE_LINES])
def test_vehicle_stat_line(
    cat: Catalog, line: tuple[str, str, int, int, int, int, int, int, int]
) -> None:
    vid, weight, hull, handling, gear, crew, slots, cost, page = line
    v = cat.vehicles.get(vid)
    got = (v.weight.value, v.hull, v.handling, v.max_gear, v.crew, v.build_slots, v.cost, v.page)
    assert got == (weight, hull, handling, gear, crew, slots, cost, page)


def test_every_vehicle_type_has_a_stat_line_pinned(cat: Catalog) -> None:
    assert {line[0] for line in VEHICLE_LINES} == set(cat.vehicles.records)


@pytest.mark.parametrize(
    ("vid", "rules"),
    [
        ("buggy", {"roll_cage"}),
        ("car", set()),
        ("performance_car", {"slip_away"}),
        ("drag_racer", {"jet_engine"}),
        ("bike", {"full_throttle", "pivot"}),
        ("bike_with_sidecar", {"full_throttle", "pivot"}),
        ("ice_cream_truck", {"infuriating_jingle"}),
        ("ambulance", {"uppers", "downers"}),
        ("monster_truck", {"all_terrain", "up_and_over"}),
        ("tank", {"pivot", "up_and_over", "all_terrain", "turret"}),
        ("war_rig", {"articulated", "ponderous", "piledriver"}),
    ],
)
def test_vehicle_special_rules(cat: Catalog, vid: str, rules: set[str]) -> None:
    assert set(cat.vehicles.get(vid).special_rules) == rules


def test_only_helicopter_and_tank_are_restricted(cat: Catalog) -> None:
    assert {v.id for v in cat.vehicles if v.restricted} == {"helicopter", "tank"}


def test_buggy_roll_cage_is_built_in_and_names_a_real_upgrade(cat: Catalog) -> None:
    buggy = cat.vehicles.get("buggy")
    assert buggy.built_in_upgrades == ("roll_cage",)
    assert cat.upgrades.get("roll_cage").cost == 4
    assert [v.id for v in cat.vehicles if v.built_in_upgrades] == ["buggy"]


def test_war_rig_tows_its_own_trailer_and_no_other_type_does(cat: Catalog) -> None:
    assert [v.id for v in cat.vehicles if v.has_trailer] == ["war_rig"]


def test_bombs_away_on_both_aircraft(cat: Catalog) -> None:
    # ruling: the rule sits under the shared Helicopter and Gyrocopter heading (p.70)
    fliers = {v.id for v in cat.vehicles if "bombs_away" in v.special_rules}
    assert fliers == {"gyrocopter", "helicopter"}
    assert fliers == {v.id for v in cat.vehicles if "airborne" in v.special_rules}


# --- weapons ---------------------------------------------------------------------------------

# (id, ranges, attack dice, special dice, ammo, build slots, cost, page) — pp.67, 72, 76, 77
WEAPON_LINES = [
    ("handgun", ("medium",), 1, False, None, 0, 0, 67),
    ("machine_gun", ("double",), 2, False, None, 1, 2, 67),
    ("heavy_machine_gun", ("double",), 3, False, None, 1, 3, 67),
    ("minigun", ("double",), 4, False, None, 1, 5, 67),
    ("125mm_cannon", ("double",), 8, False, 3, 3, 6, 72),
    ("arc_lightning_projector", ("double",), 6, False, 1, 2, 6, 72),
    ("bazooka", ("double",), 3, False, 3, 2, 4, 72),
    ("bfg", ("double",), 10, False, 1, 3, 1, 72),
    ("combat_laser", ("double",), 3, False, None, 1, 5, 72),
    ("death_ray", ("double",), 3, False, 1, 1, 3, 72),
    ("flamethrower", ("large_burst",), 6, False, 3, 2, 4, 72),
    ("grabber_arm", ("short",), 3, False, None, 1, 6, 72),
    ("grav_gun", ("double",), 3, True, 1, 1, 2, 72),
    ("harpoon", ("double",), 5, True, None, 1, 2, 72),
    ("kinetic_super_booster", ("double",), 6, True, 1, 2, 6, 72),
    ("magnetic_jammer", ("double",), None, False, None, 0, 2, 72),
    ("mortar", ("double",), 4, False, 3, 1, 4, 72),
    ("rockets", ("double",), 6, False, 3, 2, 5, 72),
    ("thumper", ("medium",), None, False, 1, 2, 4, 72),
    ("wall_of_amplifiers", ("medium",), None, False, None, 3, 4, 72),
    ("wreck_lobber", ("double", "dropped"), None, False, 3, 4, 4, 72),
    ("wrecking_ball", ("short",), None, True, None, 3, 2, 72),
    ("blunderbuss", ("small_burst",), 2, False, None, 0, 2, 76),
    ("gas_grenades", ("medium",), 1, True, 5, 0, 1, 76),
    ("grenades", ("medium",), 1, False, 5, 0, 1, 76),
    ("magnum", ("double",), 1, False, None, 0, 3, 76),
    ("molotov_cocktails", ("medium",), 1, False, 5, 0, 1, 76),
    ("shotgun", ("long",), None, True, None, 0, 4, 76),
    ("steel_nets", ("short",), 3, True, None, 0, 2, 76),
    ("submachine_gun", ("medium",), 3, False, None, 0, 5, 76),
    ("caltrop_dropper", ("dropped",), 2, False, 3, 1, 1, 77),
    ("glue_dropper", ("dropped",), None, False, 1, 1, 1, 77),
    ("mine_dropper", ("dropped",), 4, False, 3, 1, 1, 77),
    ("napalm_dropper", ("dropped",), 4, False, 3, 1, 1, 77),
    ("oil_slick_dropper", ("dropped",), None, False, 3, 0, 2, 77),
    ("rc_car_bombs", ("dropped",), 4, False, 3, 0, 3, 77),
    ("sentry_gun", ("dropped",), 2, False, 3, 0, 3, 77),
    ("smoke_dropper", ("dropped",), None, False, 3, 0, 1, 77),
]

WeaponLine = tuple[str, tuple[str, ...], int | None, bool, int | None, int, int, int]


@pytest.mark.parametrize("line", WEAPON_LINES, ids=[line[0] for line in WEAPON_LINES])
def test_weapon_stat_line(cat: Catalog, line: WeaponLine) -> None:
    wid, ranges, dice, special, ammo, slots, cost, page = line
    w = cat.weapons.get(wid)
    got = (
        tuple(r.value for r in w.ranges),
        w.attack_dice,
        w.special_dice,
        w.ammo,
        w.build_slots,
        w.cost,
        w.page,
    )
    assert got == (ranges, dice, special, ammo, slots, cost, page)


def test_every_weapon_has_a_stat_line_pinned(cat: Catalog) -> None:
    assert {line[0] for line in WEAPON_LINES} == set(cat.weapons.records)


def test_ammo_rule_matches_ammo_value(cat: Catalog) -> None:
    for w in cat.weapons:
        assert ("ammo" in w.special_rules) == (w.ammo is not None), w.id
    for u in cat.upgrades:
        assert ("ammo" in u.special_rules) == (u.ammo is not None), u.id


def test_electrical_flag_matches_rule_and_is_mishkin_only(cat: Catalog) -> None:
    electric = {w.id for w in cat.weapons if w.electrical}
    assert electric == {w.id for w in cat.weapons if "electrical" in w.special_rules}
    assert electric == {
        "arc_lightning_projector",
        "death_ray",
        "grav_gun",
        "kinetic_super_booster",
        "magnetic_jammer",
        "thumper",
    }
    assert {w.id for w in cat.weapons if w.sponsor == "mishkin"} == electric
    assert {u.id for u in cat.upgrades if u.electrical} == {
        "experimental_nuclear_engine",
        "experimental_teleporter",
    }


@pytest.mark.parametrize(
    ("wid", "rules"),
    [
        ("125mm_cannon", {"ammo", "blast"}),
        ("flamethrower", {"ammo", "splash", "fire", "indirect"}),
        ("combat_laser", {"splash"}),  # FAQ v1.2: nothing beyond Splash
        ("grenades", {"ammo", "crew_fired", "blast", "indirect", "blitz"}),
        ("molotov_cocktails", {"ammo", "crew_fired", "fire", "indirect", "blitz"}),
        ("gas_grenades", {"ammo", "crew_fired", "indirect", "blitz"}),
        ("thumper", {"ammo", "electrical", "indirect", "all_round_arc"}),
        ("mine_dropper", {"ammo", "small_burst", "blast"}),
        ("napalm_dropper", {"ammo", "small_burst", "fire"}),
    ],
)
def test_weapon_special_rules(cat: Catalog, wid: str, rules: set[str]) -> None:
    assert set(cat.weapons.get(wid).special_rules) == rules


def test_crew_fired_weapons_declare_no_facing_and_use_no_slots(cat: Catalog) -> None:
    crew_fired = [w for w in cat.weapons if "crew_fired" in w.special_rules]
    assert len(crew_fired) == 9  # the 8 crew-fired weapons plus the Handgun
    for w in crew_fired:
        assert w.allowed_facings == (), w.id
        assert w.build_slots == 0, w.id


def test_dropped_weapons_are_never_front_mounted(cat: Catalog) -> None:
    for w in cat.weapons:
        if w.kind is WeaponKind.DROPPED:
            assert Facing.FRONT not in w.allowed_facings, w.id
            assert Facing.REAR in w.allowed_facings, w.id
            assert w.ranges == (RangeBand.DROPPED,), w.id


def test_dropped_weapons_may_be_turret_mounted(cat: Catalog) -> None:
    # ruling: the book forbids only the front facing for dropped weapons (p.78)
    dropped = [w for w in cat.weapons if w.kind is WeaponKind.DROPPED]
    assert all(w.allowed_facings == (Facing.REAR, Facing.SIDE, Facing.TURRET) for w in dropped)


def test_bfg_front_only_and_ordinary_guns_any_facing(cat: Catalog) -> None:
    assert cat.weapons.get("bfg").allowed_facings == (Facing.FRONT,)
    for wid in ("machine_gun", "minigun", "rockets", "wreck_lobber", "wrecking_ball"):
        assert cat.weapons.get(wid).allowed_facings == ALL_FACINGS


def test_three_hundred_sixty_degree_weapons_take_no_facing(cat: Catalog) -> None:
    # Thumper (p.74) and, by ruling, Wall of Amplifiers
    for wid in ("thumper", "wall_of_amplifiers"):
        w = cat.weapons.get(wid)
        assert w.allowed_facings == ()
        assert "all_round_arc" in w.special_rules


def test_dropped_templates_follow_the_faq(cat: Catalog) -> None:
    templates = {w.id: w.dropped_template for w in cat.weapons if w.dropped_template}
    assert templates == {
        "caltrop_dropper": RangeBand.SMALL_BURST,
        "mine_dropper": RangeBand.SMALL_BURST,
        "napalm_dropper": RangeBand.SMALL_BURST,
        "glue_dropper": RangeBand.LARGE_BURST,
        "oil_slick_dropper": RangeBand.LARGE_BURST,
        "smoke_dropper": RangeBand.LARGE_BURST,
    }
    for wid, band in templates.items():
        assert band.value in cat.weapons.get(wid).special_rules


def test_handgun_is_standard_issue_and_the_only_one(cat: Catalog) -> None:
    assert [w.id for w in cat.weapons if w.standard_issue] == ["handgun"]
    handgun = cat.weapons.get("handgun")
    assert (handgun.cost, handgun.build_slots, handgun.kind) == (0, 0, WeaponKind.BASIC)


# --- upgrades --------------------------------------------------------------------------------

# (id, build slots, cost, page) — pp.83, 96, 98, 99, 103, 185
UPGRADE_LINES = [
    ("armour_plating", 1, 4, 83),
    ("experimental_nuclear_engine", 0, 5, 83),
    ("experimental_teleporter", 0, 7, 83),
    ("exploding_ram", 0, 3, 84),
    ("extra_crewmember", 0, 4, 84),
    ("improvised_sludge_thrower", 1, 2, 84),
    ("nitro_booster", 0, 6, 84),
    ("ram", 1, 4, 85),
    ("roll_cage", 1, 4, 85),
    ("tank_tracks", 1, 4, 85),
    ("turret_mounting", 0, 0, 85),
    ("trailer_lightweight", 0, 4, 103),
    ("trailer_middleweight", 0, 8, 103),
    ("trailer_heavyweight", 0, 12, 103),
    ("peach_moonshine", 0, 0, 103),
    ("sourmash_jet_booster", 0, 0, 103),
    ("siphon_pump", 0, 0, 103),
    ("old_fashioned_corn_liquor", 0, 0, 103),
    ("cattle_hammer", 0, 0, 103),
    ("prison_car", 0, 0, 96),
    ("louder_siren", 0, 2, 98),
    ("microplate_armour", 0, 6, 99),
]


@pytest.mark.parametrize("line", UPGRADE_LINES, ids=[line[0] for line in UPGRADE_LINES])
def test_upgrade_slots_and_cost(cat: Catalog, line: tuple[str, int, int, int]) -> None:
    uid, slots, cost, page = line
    u = cat.upgrades.get(uid)
    assert (u.build_slots, u.cost, u.page) == (slots, cost, page)


def test_every_upgrade_has_slots_and_cost_pinned(cat: Catalog) -> None:
    assert {line[0] for line in UPGRADE_LINES} == set(cat.upgrades.records)


def test_upgrade_stat_changes(cat: Catalog) -> None:
    def bonuses(uid: str) -> tuple[int, int, int, int, int]:
        u = cat.upgrades.get(uid)
        return (u.hull_bonus, u.handling_bonus, u.max_gear_bonus, u.crew_bonus, u.slot_bonus)

    assert bonuses("armour_plating") == (2, 0, 0, 0, 0)
    assert bonuses("tank_tracks") == (0, 1, -1, 0, 0)
    assert bonuses("experimental_nuclear_engine") == (0, 0, 2, 0, 0)
    assert bonuses("extra_crewmember") == (0, 0, 0, 1, 0)
    assert bonuses("prison_car") == (-2, 0, 0, 0, 0)
    assert bonuses("microplate_armour") == (2, 0, 0, 0, 0)
    assert bonuses("trailer_lightweight") == (0, 0, 0, 0, 0)
    assert bonuses("trailer_middleweight") == (0, 0, 0, 0, 1)
    assert bonuses("trailer_heavyweight") == (0, 0, 0, 0, 3)


def test_upgrade_limits(cat: Catalog) -> None:
    up = cat.upgrades
    assert up.get("armour_plating").max_per_vehicle is None  # stacks
    assert up.get("extra_crewmember").limit_by_base_crew
    assert up.get("exploding_ram").max_per_vehicle == 1
    assert up.get("exploding_ram").forbidden_weights == (Weight.LIGHTWEIGHT,)
    assert up.get("tank_tracks").max_per_vehicle == 1
    assert set(up.get("tank_tracks").forbidden_vehicles) == {"tank", "helicopter", "gyrocopter"}
    assert up.get("experimental_nuclear_engine").max_per_vehicle == 1
    assert up.get("experimental_nuclear_engine").forbidden_weights == (Weight.LIGHTWEIGHT,)
    assert up.get("experimental_teleporter").max_per_vehicle == 1
    assert up.get("ram").max_per_facing == 1
    assert up.get("ram").max_per_vehicle is None
    assert up.get("turret_mounting").cost_multiplier == 3
    for uid in ("ram", "exploding_ram"):
        u = up.get(uid)
        assert u.needs_facing
        assert Facing.TURRET not in u.allowed_facings
        assert Facing.FRONT in u.allowed_facings


def test_forbidden_vehicle_ids_are_real(cat: Catalog) -> None:
    for u in cat.upgrades:
        for vid in u.forbidden_vehicles:
            assert vid in cat.vehicles.records, (u.id, vid)


def test_mishkin_upgrades(cat: Catalog) -> None:
    assert {u.id for u in cat.upgrades if u.sponsor == "mishkin"} == {
        "experimental_nuclear_engine",
        "experimental_teleporter",
    }


def test_trailers_and_cargo_belong_to_rustys_bootleggers(cat: Catalog) -> None:
    for u in cat.upgrades:
        if u.kind in (UpgradeKind.TRAILER, UpgradeKind.CARGO):
            assert u.sponsor == "rustys_bootleggers", u.id
            assert u.max_per_vehicle == 1, u.id
    for u in cat.upgrades:
        if u.kind is UpgradeKind.TRAILER:
            assert u.forbidden_vehicles == ("war_rig",), u.id
        if u.kind is UpgradeKind.CARGO:
            assert u.requires == ("trailer",), u.id
            assert u.cost == 0, u.id  # ruling: no price is printed


def test_trailer_weight_limits(cat: Catalog) -> None:
    up = cat.upgrades
    assert up.get("trailer_lightweight").forbidden_weights == ()
    assert up.get("trailer_middleweight").forbidden_weights == (Weight.LIGHTWEIGHT,)
    assert set(up.get("trailer_heavyweight").forbidden_weights) == {
        Weight.LIGHTWEIGHT,
        Weight.MIDDLEWEIGHT,
    }


def test_prison_car_is_middleweight_only_with_a_floored_rebate(cat: Catalog) -> None:
    pc = cat.upgrades.get("prison_car")
    assert set(pc.forbidden_weights) == {Weight.LIGHTWEIGHT, Weight.HEAVYWEIGHT}
    assert (pc.base_cost_change, pc.base_cost_floor, pc.max_per_vehicle) == (-4, 5, 1)
    floor = pc.base_cost_floor
    assert floor is not None
    # a Car (12) drops to 8; an Ice Cream Truck (8) is held at the floor of 5
    for vid, expected in (("car", 8), ("ice_cream_truck", 5)):
        base = cat.vehicles.get(vid).cost
        assert max(base + pc.base_cost_change, floor) == expected


def test_sponsor_only_upgrades_once_per_vehicle(cat: Catalog) -> None:
    # rulings: Louder Siren and MicroPlate Armour may each be fitted once per vehicle
    assert cat.upgrades.get("louder_siren").max_per_vehicle == 1
    assert cat.upgrades.get("microplate_armour").max_per_vehicle == 1


# --- ids, aliases, did-you-mean --------------------------------------------------------------


def test_ids_follow_the_naming_rule(cat: Catalog) -> None:
    for section in (cat.vehicles, cat.weapons, cat.upgrades):
        for rec in section:
            # the book name normalises to the id, or resolves to it as an alias
            assert section.resolve(rec.name) == rec.id, rec.name
    assert "125mm_cannon" in cat.weapons.records
    assert normalise_id("125mm Cannon") == "125mm_cannon"
    assert normalise_id("Rusty's Bootleggers") == "rustys_bootleggers"
    assert normalise_id("Cattle-Hammer") == "cattle_hammer"
    assert normalise_id("Trailer (Heavyweight)") == "trailer_heavyweight"


@pytest.mark.parametrize(
    ("section", "alias", "target"),
    [
        ("weapons", "hmg", "heavy_machine_gun"),
        ("weapons", "mg", "machine_gun"),
        ("weapons", "smg", "submachine_gun"),
        ("weapons", "Molotovs", "molotov_cocktails"),
        ("weapons", "125mm Cannon", "125mm_cannon"),
        ("upgrades", "nuclear_engine", "experimental_nuclear_engine"),
        ("upgrades", "teleporter", "experimental_teleporter"),
        ("upgrades", "sludge_thrower", "improvised_sludge_thrower"),
        ("upgrades", "Turret Mounting for Weapon", "turret_mounting"),
        ("upgrades", "armor plating", "armour_plating"),
        ("upgrades", "heavy_trailer", "trailer_heavyweight"),
        ("upgrades", "microplate", "microplate_armour"),
        ("vehicles", "ice_cream_van", "ice_cream_truck"),
        ("vehicles", "Ice-cream Truck", "ice_cream_truck"),
        ("vehicles", "rig", "war_rig"),
    ],
)
def test_aliases_resolve(cat: Catalog, section: str, alias: str, target: str) -> None:
    assert cat.sections()[section].get(alias).id == target


def test_unknown_id_suggests_the_nearest(cat: Catalog) -> None:
    with pytest.raises(UnknownId) as info:
        cat.weapons.get("minigunn")
    assert info.value.suggestion == "minigun"
    assert "did you mean 'minigun'" in str(info.value)
    with pytest.raises(UnknownId) as info2:
        cat.upgrades.get("nuclear_engin")
    assert info2.value.suggestion == "experimental_nuclear_engine"
    with pytest.raises(UnknownId) as info3:
        cat.vehicles.get("zeppelin")
    assert info3.value.suggestion is None
