"""Resolve a team file against the catalogue, then price each vehicle and derive its stats.

Pure functions: the same spec and catalogue always give the same builds and reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from carnage.catalog.loader import Catalog, UnknownId
from carnage.catalog.models import UpgradeKind
from carnage.team.context import (
    FittedPerk,
    FittedUpgrade,
    FittedWeapon,
    Stats,
    TeamBuild,
    VehicleBuild,
)
from carnage.team.effects import BuildEffect, sponsor_effects, vehicle_effects
from carnage.team.model import Mount, TeamSpec, VehicleSpec
from carnage.team.report import (
    Category,
    PerkLine,
    UpgradeLine,
    VehicleReport,
    Violation,
    WeaponLine,
)
from carnage.team.sections import sections_of

MAX_GEAR_CAP = 6
"""No vehicle's max Gear exceeds 6 (Nuclear Engine, p.83; gears run 1-6, p.11)."""
TURRET_MULTIPLIER = 3
"""Fallback turret price multiple if the catalogue has no turret record (p.85)."""


@dataclass
class Resolution:
    team: TeamBuild
    team_problems: list[Violation] = field(default_factory=list)
    vehicle_problems: list[list[Violation]] = field(default_factory=list)


def _unknown(vehicle: str | None, err: UnknownId) -> Violation:
    return Violation(vehicle, err.given, str(err), None, Category.FILE, "unknown_id")


def _resolve_vehicle(cat: Catalog, spec: VehicleSpec) -> tuple[VehicleBuild, list[Violation]]:
    problems: list[Violation] = []
    vehicle = None
    try:
        vehicle = cat.vehicles.get(spec.type)
    except UnknownId as e:
        problems.append(_unknown(spec.name, e))

    weapons: list[FittedWeapon] = []
    for i, ws in enumerate(spec.weapons):
        try:
            weapons.append(FittedWeapon(i, ws, cat.weapons.get(ws.id)))
        except UnknownId as e:
            problems.append(_unknown(spec.name, e))

    # A built-in upgrade named in the file is the one the type comes with (see rulings TB-3).
    unclaimed = list(vehicle.built_in_upgrades) if vehicle is not None else []
    upgrades: list[FittedUpgrade] = []
    for i, us in enumerate(spec.upgrades):
        try:
            up = cat.upgrades.get(us.id)
        except UnknownId as e:
            problems.append(_unknown(spec.name, e))
            continue
        built_in = up.id in unclaimed
        if built_in:
            unclaimed.remove(up.id)
        upgrades.append(FittedUpgrade(i, us, up, built_in=built_in))
    upgrades += [FittedUpgrade(None, None, cat.upgrades.get(b), built_in=True) for b in unclaimed]

    perks: list[FittedPerk] = []
    for i, pid in enumerate(spec.perks):
        try:
            perks.append(FittedPerk(i, cat.perks.get(pid)))
        except UnknownId as e:
            problems.append(_unknown(spec.name, e))

    vb = VehicleBuild(spec, vehicle, tuple(weapons), tuple(upgrades), tuple(perks))
    return vb, problems


def resolve_team(spec: TeamSpec, cat: Catalog) -> Resolution:
    """Look up every id in the file; unknown ids become violations and are left out."""
    team_problems: list[Violation] = []
    sponsor = None
    if spec.sponsor is not None:
        try:
            sponsor = cat.sponsors.get(spec.sponsor)
        except UnknownId as e:
            team_problems.append(_unknown(None, e))
    vehicles: list[VehicleBuild] = []
    vehicle_problems: list[list[Violation]] = []
    for vs in spec.vehicles:
        vb, problems = _resolve_vehicle(cat, vs)
        vehicles.append(vb)
        vehicle_problems.append(problems)
    team = TeamBuild(spec, cat, sponsor, tuple(vehicles))
    grants = frozenset(g for eff in sponsor_effects(team) for g in eff.grants)
    team = TeamBuild(spec, cat, sponsor, tuple(vehicles), grants)
    return Resolution(team, team_problems, vehicle_problems)


def turret_multiplier(cat: Catalog) -> int:
    """How many times its own cost a turret-mounted weapon costs (p.85), from the catalogue."""
    for up in cat.upgrades:
        if up.cost_multiplier is not None:
            return up.cost_multiplier
    return TURRET_MULTIPLIER


def base_cost(v: VehicleBuild) -> int:
    """The type's cost after upgrades that change it (Prison Car: -4, never below 5; p.96)."""
    if v.vehicle is None:
        return 0
    printed = v.vehicle.cost
    cost = printed
    for u in v.bought():
        if u.upgrade.base_cost_change:
            cost += u.upgrade.base_cost_change
            if u.upgrade.base_cost_floor is not None:
                cost = max(cost, min(printed, u.upgrade.base_cost_floor))
    return cost


def derive_stats(team: TeamBuild, v: VehicleBuild, effects: list[BuildEffect]) -> Stats:
    """Starting Hull, Handling, max Gear, Crew and build slots after upgrades and perks."""
    if v.vehicle is None:
        return Stats(0, 0, 0, 0, 0)
    t = v.vehicle
    s = Stats(t.hull, t.handling, t.max_gear, t.crew, t.build_slots)
    for fu in v.upgrades:
        u = fu.upgrade
        s = s.plus(u.hull_bonus, u.handling_bonus, u.max_gear_bonus, u.crew_bonus, u.slot_bonus)
    for eff in effects:
        s = eff.stats(team, v, s)
    return Stats(
        hull=max(s.hull, 1),
        handling=max(s.handling, 0),
        max_gear=min(max(s.max_gear, 1), MAX_GEAR_CAP),
        crew=max(s.crew, 0),
        slots=max(s.slots, 0),
    )


def _special_rules(v: VehicleBuild) -> tuple[str, ...]:
    """The type's special rules, plus those a towed trailer brings (p.102)."""
    rules = list(v.vehicle.special_rules) if v.vehicle is not None else []
    for fu in v.of_kind(UpgradeKind.TRAILER):
        rules += [r for r in fu.upgrade.special_rules if r not in rules]
    for section, value in sections_of(v.spec):  # a game's section of the vehicle
        if section.special_rules is not None:
            rules += list(section.special_rules(value))
    return tuple(rules)


def price_vehicle(team: TeamBuild, v: VehicleBuild) -> VehicleReport:
    """Cans, slots, ammo and derived stats of one vehicle, with every modifier applied."""
    effects = vehicle_effects(team, v)
    mult = turret_multiplier(team.catalog)

    cost = base_cost(v)
    for eff in effects:
        cost = eff.vehicle_cost(team, v, cost)
    total = cost

    weapons: list[WeaponLine] = []
    for fw in v.weapons:
        w = fw.weapon
        wcost = w.cost * (mult if fw.turret else 1)
        slots = w.build_slots
        ammo = w.ammo
        for eff in effects:
            wcost = eff.weapon_cost(team, v, fw, wcost)
            slots = eff.weapon_slots(team, v, fw, slots)
            ammo = eff.weapon_ammo(team, v, fw, ammo)
        # an articulated vehicle's weapon with no declared mount sits on the cab (TB-5)
        mount = fw.spec.mount or (Mount.CAB if v.tows_trailer else None)
        weapons.append(WeaponLine(
            w.id, w.name, fw.facing, mount, ammo, wcost, slots, w.ranges, w.attack_dice,
            w.special_dice, w.special_rules,
        ))
        total += wcost

    upgrades: list[UpgradeLine] = []
    for fu in v.upgrades:
        u = fu.upgrade
        ucost, uslots = (0, 0) if fu.built_in else (u.cost, u.build_slots)
        if not fu.built_in:
            for eff in effects:
                ucost = eff.upgrade_cost(team, v, fu, ucost)
                uslots = eff.upgrade_slots(team, v, fu, uslots)
        upgrades.append(UpgradeLine(u.id, u.name, fu.facing, u.ammo, ucost, uslots, fu.built_in))
        total += ucost

    perks = []
    for p in v.perks:
        pcost = p.perk.cost
        for eff in effects:  # a free perk (Badass, p.163) costs nothing
            pcost = eff.perk_cost(team, v, p, pcost)
        perks.append(PerkLine(p.perk.id, p.perk.name, p.perk.perk_class, pcost))
    total += sum(p.cans for p in perks)

    s = derive_stats(team, v, effects)
    t = v.vehicle
    return VehicleReport(
        name=v.name,
        type=t.id if t is not None else v.spec.type,
        type_name=t.name if t is not None else v.spec.type,
        weight=v.weight,
        cans=total,
        slots_used=sum(w.slots for w in weapons) + sum(u.slots for u in upgrades),
        slots=s.slots,
        hull=s.hull,
        handling=s.handling,
        max_gear=s.max_gear,
        crew=s.crew,
        weapons=tuple(weapons),
        upgrades=tuple(upgrades),
        perks=tuple(perks),
        special_rules=_special_rules(v),
        articulated=v.tows_trailer,
        career=v.spec.career,
    )
