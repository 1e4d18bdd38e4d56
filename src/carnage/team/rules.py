"""The generic team-building checks, one small function per rule, each citing its page.

They read catalogue data (facings, limits, weights, sponsor flags) and never name a particular
sponsor, vehicle or perk; sponsor rules live in ``sponsors.py`` and are found by registry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from carnage.catalog.models import Facing, Upgrade, UpgradeKind, Weapon, WeaponKind
from carnage.team.context import FittedUpgrade, TeamBuild, VehicleBuild
from carnage.team.effects import SPONSOR_RULES, vehicle_effects
from carnage.team.report import Category, VehicleReport, Violation

VehicleCheck = Callable[[TeamBuild, VehicleBuild, VehicleReport], Iterator[Violation]]
TeamCheck = Callable[[TeamBuild, tuple[VehicleReport, ...]], Iterator[Violation]]

VEHICLE_CHECKS: list[VehicleCheck] = []
TEAM_CHECKS: list[TeamCheck] = []


def vehicle_check(fn: VehicleCheck) -> VehicleCheck:
    VEHICLE_CHECKS.append(fn)
    return fn


def team_check(fn: TeamCheck) -> TeamCheck:
    TEAM_CHECKS.append(fn)
    return fn


def _facings(fs: tuple[Facing, ...]) -> str:
    names = [str(f) for f in fs]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _v(v: VehicleBuild, item: str | None, text: str, page: int | None, cat: Category,
       rule: str = "", title: str = "") -> Violation:
    return Violation(v.name, item, text, page, cat, rule, title)


# --- vehicle types -----------------------------------------------------------------------------


@vehicle_check
def restricted_vehicle(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """p.68: with sponsors in use, restricted types need a sponsor rule that allows them."""
    if v.vehicle is None or not v.vehicle.restricted or not t.sponsors_in_use:
        return
    if f"vehicle:{v.vehicle.id}" not in t.grants:
        yield _v(v, v.vehicle.id,
                 f"the {v.vehicle.name} is restricted: a sponsored team may buy one only if its "
                 "sponsor allows it", 68, Category.RESTRICTED, "restricted_vehicle")


# --- weapons -----------------------------------------------------------------------------------


def _needs_no_facing(w: Weapon) -> bool:
    return not w.allowed_facings


@vehicle_check
def weapon_facing(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """p.65: every weapon declares one facing, except crew-fired and all-round weapons
    (p.67, p.76); dropped weapons never face front (p.78); some weapons allow fewer facings."""
    for fw in v.weapons:
        w, facing = fw.weapon, fw.facing
        if _needs_no_facing(w):
            if facing is not None:
                why = "is crew-fired" if w.kind is WeaponKind.CREW_FIRED else "fires all round"
                page = 67 if w.kind is WeaponKind.CREW_FIRED else w.page
                yield _v(v, w.id, f"{w.name} {why} and takes no facing (remove '{facing}')", page,
                         Category.BUILD, "no_facing")
            continue
        if facing is None:
            yield _v(v, w.id, f"{w.name} needs a facing: {_facings(w.allowed_facings)}", 65,
                     Category.BUILD, "facing_required")
        elif w.kind is WeaponKind.DROPPED and facing is Facing.FRONT:
            yield _v(v, w.id, f"{w.name} is a dropped weapon and cannot face front", 78,
                     Category.BUILD, "dropped_not_front")
        elif facing not in w.allowed_facings:
            yield _v(v, w.id, f"{w.name} cannot be mounted {facing}; allowed: "
                     f"{_facings(w.allowed_facings)}", w.page, Category.BUILD, "facing")


@vehicle_check
def weapon_mount(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """p.117, p.103: only an articulated vehicle puts a weapon on its cab or its trailer."""
    if v.tows_trailer:
        return
    for fw in v.weapons:
        if fw.spec.mount is not None:
            yield _v(v, fw.weapon.id, f"{fw.weapon.name} is mounted on a '{fw.spec.mount}', but "
                     "only a War Rig or a vehicle towing a trailer has a cab and a trailer", 117,
                     Category.BUILD, "mount")


# --- sponsor access (weapons and upgrades) ------------------------------------------------------


def _access_rule(sponsor_id: str, key: str) -> tuple[str, int] | None:
    """Title and page of the sponsor rule that unlocks ``key`` (an item id, kind or flag)."""
    for rule in SPONSOR_RULES.get(sponsor_id, {}).values():
        if key in rule.grants:
            return rule.title, rule.page
    return None


def _sponsor_name(t: TeamBuild, sid: str) -> str:
    return t.catalog.sponsors.get(sid).name if sid in t.catalog.sponsors else sid


def _access(t: TeamBuild, v: VehicleBuild, item: Weapon | Upgrade) -> Iterator[Violation]:
    team_sponsor = t.sponsor.id if t.sponsor is not None else None
    if t.sponsors_in_use and t.sponsor is None:
        return  # unknown sponsor: already reported, do not guess what it allows
    if item.sponsor is not None and item.sponsor != team_sponsor:
        keys = [item.id, str(getattr(item, "kind", "")), "electrical" if item.electrical else ""]
        found = next((a for k in keys if k and (a := _access_rule(item.sponsor, k))), None)
        title, page = found if found is not None else ("", item.page)
        yield _v(v, item.id, f"{item.name} is only for {_sponsor_name(t, item.sponsor)} teams",
                 page, Category.SPONSOR, "sponsor_only", title)
    elif item.electrical and "electrical" not in t.grants:
        yield _v(v, item.id, f"{item.name} is electrical: only a sponsor allowing electrical "
                 "items may buy it", 93, Category.SPONSOR, "electrical")


@vehicle_check
def sponsor_access(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """pp.72-74, 83, 93, 96, 98, 99, 102: sponsor-only (``**``) and electrical items."""
    seen: set[str] = set()
    items: list[Weapon | Upgrade] = [fw.weapon for fw in v.weapons]
    items += [fu.upgrade for fu in v.bought()]
    for item in items:
        if item.id not in seen:
            seen.add(item.id)
            yield from _access(t, v, item)


# --- upgrades ----------------------------------------------------------------------------------


def _first_of_each(v: VehicleBuild) -> list[FittedUpgrade]:
    out: dict[str, FittedUpgrade] = {}
    for fu in v.bought():
        out.setdefault(fu.upgrade.id, fu)
    return list(out.values())


@vehicle_check
def upgrade_facing(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """p.84, p.85: Rams declare a facing like a weapon; other upgrades take none; the turret
    mounting is bought by giving a weapon the turret facing."""
    for fu in v.bought():
        u, facing = fu.upgrade, fu.facing
        if u.cost_multiplier is not None:
            yield _v(v, u.id, f"{u.name} is not bought on its own: give the weapon "
                     "'facing: turret' instead", 85, Category.BUILD, "turret_mounting")
        elif u.needs_facing and facing is None:
            allowed = u.allowed_facings or (Facing.FRONT, Facing.REAR, Facing.SIDE)
            yield _v(v, u.id, f"{u.name} needs a facing: {_facings(allowed)}", u.page,
                     Category.BUILD, "facing_required")
        elif u.needs_facing and u.allowed_facings and facing not in u.allowed_facings:
            yield _v(v, u.id, f"{u.name} cannot be fitted {facing}; allowed: "
                     f"{_facings(u.allowed_facings)}", u.page, Category.BUILD, "facing")
        elif not u.needs_facing and facing is not None:
            yield _v(v, u.id, f"{u.name} takes no facing (remove '{facing}')", u.page,
                     Category.BUILD, "no_facing")


@vehicle_check
def upgrade_limits(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """Per-item limits from the upgrade data: how many per vehicle or per facing, how many by
    base Crew, which weights and types may take it (pp.83-85, 96, 103)."""
    if v.vehicle is None:
        return
    vt = v.vehicle
    for fu in _first_of_each(v):
        u = fu.upgrade
        n = v.count(u.id)
        if u.kind is UpgradeKind.TRAILER and vt.has_trailer:
            yield _v(v, u.id, f"a {vt.name} already has its own trailer and cannot buy "
                     f"{u.name}", 102, Category.BUILD, "trailer_on_war_rig")
            continue
        if u.max_per_vehicle is not None and n > u.max_per_vehicle:
            times = "once" if u.max_per_vehicle == 1 else f"{u.max_per_vehicle} times"
            yield _v(v, u.id, f"{u.name} may be bought only {times} per vehicle (has {n})",
                     u.page, Category.BUILD, "max_per_vehicle")
        if u.limit_by_base_crew and n > vt.crew:
            yield _v(v, u.id, f"{n} x {u.name} is more than the {vt.name}'s starting Crew of "
                     f"{vt.crew}", u.page, Category.BUILD, "limit_by_base_crew")
        if u.max_per_facing is not None:
            per = Counter(f.facing for f in v.bought() if f.upgrade.id == u.id and f.facing)
            for facing, k in sorted(per.items()):
                if k > u.max_per_facing:
                    yield _v(v, u.id, f"{k} x {u.name} on the {facing} facing; at most "
                             f"{u.max_per_facing} per facing", u.page, Category.BUILD,
                             "max_per_facing")
        if vt.weight in u.forbidden_weights:
            yield _v(v, u.id, f"{u.name} cannot be fitted to a {vt.weight} vehicle", u.page,
                     Category.BUILD, "forbidden_weight")
        if vt.id in u.forbidden_vehicles:
            yield _v(v, u.id, f"{u.name} cannot be fitted to a {vt.name}", u.page,
                     Category.BUILD, "forbidden_vehicle")
        for need in u.requires:
            if not v.has(need):
                what = "a trailer (or be a War Rig)" if need == "trailer" else f"'{need}'"
                yield _v(v, u.id, f"{u.name} needs {what} on the same vehicle", u.page,
                         Category.BUILD, "requires")


@vehicle_check
def one_trailer_one_cargo(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """p.102: a vehicle tows at most one trailer and carries at most one trailer cargo."""
    for kind, what in ((UpgradeKind.TRAILER, "trailer"), (UpgradeKind.CARGO, "trailer cargo")):
        ids = {fu.upgrade.id for fu in v.of_kind(kind)}
        if len(ids) > 1:
            yield _v(v, kind, f"a vehicle may have only one {what}, not "
                     f"{len(v.of_kind(kind))}", 102, Category.BUILD, f"one_{kind}")


# --- perks -------------------------------------------------------------------------------------


@vehicle_check
def perk_rules(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """p.104: perks come from the sponsor's perk classes (so a team needs a sponsor to buy
    any, see rulings TB-1), and each perk is bought at most once per vehicle. Some perks
    restrict the vehicle type (Stunt Driver, p.107)."""
    counts = Counter(p.perk.id for p in v.perks)
    seen: set[str] = set()
    for fp in v.perks:
        p = fp.perk
        if p.id in seen:
            continue
        seen.add(p.id)
        if counts[p.id] > 1:
            yield _v(v, p.id, f"{p.name} may be bought only once per vehicle (has "
                     f"{counts[p.id]})", 104, Category.BUILD, "perk_once")
        if any(e.perk_class_exempt(t, v, fp) for e in vehicle_effects(t, v)):
            pass  # a free perk ignores the sponsor's classes (Badass, p.163)
        elif not t.sponsors_in_use:
            yield _v(v, p.id, f"{p.name}: perks come from a sponsor's perk classes, and this "
                     "team has no sponsor", 104, Category.PERK_CLASS, "perk_needs_sponsor")
        elif t.sponsor is not None and p.perk_class not in t.sponsor.perk_classes:
            offered = " and ".join(t.sponsor.perk_classes)
            yield _v(v, p.id, f"{p.name} is a {p.perk_class} perk; {t.sponsor.name} offers "
                     f"{offered}", 104, Category.PERK_CLASS, "perk_class")
        vt = v.vehicle
        if vt is None:
            continue
        if p.allowed_weights and vt.weight not in p.allowed_weights:
            yield _v(v, p.id, f"{p.name} cannot be taken by a {vt.weight} vehicle", p.page,
                     Category.BUILD, "perk_weight")
        if p.min_base_handling is not None and vt.handling < p.min_base_handling:
            yield _v(v, p.id, f"{p.name} needs a base Handling of {p.min_base_handling} or more "
                     f"(the {vt.name} has {vt.handling})", p.page, Category.BUILD,
                     "perk_handling")


# --- arithmetic --------------------------------------------------------------------------------


@vehicle_check
def build_slots(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """p.65: weapons and upgrades fit only while build slots remain."""
    if v.vehicle is not None and r.slots_used > r.slots:
        yield _v(v, "build_slots", f"weapons and upgrades need {r.slots_used} build slots but "
                 f"the vehicle has {r.slots}", 65, Category.ARITHMETIC, "build_slots")


@team_check
def has_vehicles(t: TeamBuild, reports: tuple[VehicleReport, ...]) -> Iterator[Violation]:
    """p.64: a team is one or more vehicles."""
    if not t.vehicles:
        yield Violation(None, "vehicles", "a team needs at least one vehicle", 64,
                        Category.BUILD, "no_vehicles")


@team_check
def unique_names(t: TeamBuild, reports: tuple[VehicleReport, ...]) -> Iterator[Violation]:
    """Our file rule: vehicle names are unique, so every message names one vehicle."""
    counts = Counter(v.name for v in t.vehicles)
    for name, n in counts.items():
        if n > 1:
            yield Violation(name, "name", f"{n} vehicles share this name; give each its own",
                            None, Category.FILE, "unique_names")


@team_check
def budget(t: TeamBuild, reports: tuple[VehicleReport, ...]) -> Iterator[Violation]:
    """p.64: the whole team costs no more than the agreed number of cans."""
    total = sum(r.cans for r in reports)
    if total > t.spec.cans:
        yield Violation(None, "cans", f"the team costs {total} cans, over its budget of "
                        f"{t.spec.cans} by {total - t.spec.cans}", 64, Category.ARITHMETIC,
                        "budget")


def split(violations: list[Violation], homebrew: bool) -> tuple[list[Violation], list[Violation]]:
    """(errors, relaxed): with homebrew, relaxable violations become notes."""
    errors = [x for x in violations if not (homebrew and x.category.relaxable)]
    relaxed = [x for x in violations if homebrew and x.category.relaxable]
    return errors, relaxed

