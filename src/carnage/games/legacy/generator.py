"""Our Gaslands: Legacy vehicle generator (GL-008, GL-012, GL-105, GL-108; rulings GL-R1..R5).

OURS, not the official web app (whose algorithm and tables are not in the text): from a type
and a name it makes the same vehicle on any machine, always (``Digits``, MD5 of the normalised
name). The tables are data (``legacy/data/generator.yaml``). The steps, each drawing from the
vehicle's own stream:

1. Hull, Handling, max Gear and Crew bonuses over the type's Refuelled stats (max Gear never
   above 6);
2. 1-4 weapons, each with a facing (front unless the weapon may not face front; one in ten
   turret-mounted with the Legacy Turret Mounting of GL-052); none needs more slots alone than
   the type's starting slots (GL-013);
3. 0-2 different upgrades the type may take;
4. 0-3 different perks of any class (no sponsor, GL-018);
5. the Vehicle Rating: the vehicle's price in cans (a turret mounting twice its weapon), plus 2 per
   bonus Hull point and 3 per other bonus point (ruling GL-R3, the scale of GL-049).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from carnage.catalog.loader import Catalog, load_catalog
from carnage.catalog.models import Facing, Upgrade, Vehicle, Weapon, WeaponKind
from carnage.games.legacy.catalog import legacy_catalog, legacy_data
from carnage.games.legacy.digits import Digits, LegacyError, display_name, normalise_name
from carnage.games.legacy.team import LegacySpec, legacy_of, with_legacy
from carnage.team.model import TeamSpec, UpgradeSpec, VehicleSpec, WeaponSpec

MAX_GEAR = 6
TURRET_MULTIPLIER = 2


@cache
def tables() -> dict[str, Any]:
    """Our generator tables (games/legacy/data/generator.yaml)."""
    data: dict[str, Any] = legacy_data("generator.yaml")
    return data


def catalog() -> Catalog:
    return legacy_catalog(load_catalog())


def legacy_type(text: str) -> Vehicle:
    """The base type named by ``text`` (an id, alias or book name); ``LegacyError`` naming
    the four types otherwise."""
    types: dict[str, str] = tables()["types"]
    cat = catalog()
    rid = cat.vehicles.resolve(text) if text.strip() else None
    if rid is None or rid not in types.values():
        known = ", ".join(sorted(types))
        raise LegacyError(f"unknown Legacy vehicle type {text!r} (known: {known})")
    return cat.vehicles.get(rid)


def facing_for(d: Digits, w: Weapon, turret_ok: bool = True) -> Facing | None:
    """A generated weapon's facing: None when it takes none; turret one time in ten; else
    from the facings table, dropped weapons never front (p.78)."""
    if not w.allowed_facings:
        return None
    t = tables()
    if turret_ok and Facing.TURRET in w.allowed_facings and d.below(10) < t["turret_in_ten"]:
        return Facing.TURRET
    facing = Facing(d.pick(t["facings"]))
    if w.kind is WeaponKind.DROPPED and facing is Facing.FRONT:
        facing = Facing.REAR
    if facing not in w.allowed_facings:
        facing = next(f for f in w.allowed_facings if f is not Facing.TURRET)
    return facing


def weapon_fits(w: Weapon, vt: Vehicle) -> bool:
    """GL-013: no single item needing more slots than the type's starting slots."""
    return w.build_slots <= vt.build_slots


def upgrade_fits(u: Upgrade, vt: Vehicle) -> bool:
    return u.build_slots <= vt.build_slots


def weapon_price(w: Weapon, facing: Facing | None) -> int:
    """A weapon's Legacy price with its mounting: a Turret Mounting costs twice the weapon
    (GL-052), on top of the weapon itself (ruling GL-R11)."""
    return w.cost * (1 + (TURRET_MULTIPLIER if facing is Facing.TURRET else 0))


def mounting_price(w: Weapon) -> int:
    """GL-052: the Legacy Turret Mounting of ``w`` costs twice the weapon's cost."""
    return w.cost * TURRET_MULTIPLIER


@dataclass(frozen=True)
class Bonuses:
    hull: int
    handling: int
    max_gear: int
    crew: int


def _bonuses(d: Digits, vt: Vehicle) -> Bonuses:
    b = tables()["bonuses"]
    hull = int(d.pick(b["hull"]))
    handling = int(d.pick(b["handling"]))
    gear = min(int(d.pick(b["max_gear"])), MAX_GEAR - vt.max_gear)
    crew = int(d.pick(b["crew"]))
    return Bonuses(hull, handling, max(0, gear), crew)


def _weapons(d: Digits, vt: Vehicle, cat: Catalog) -> list[WeaponSpec]:
    t = tables()
    pool = [cat.weapons.get(w) for w in t["weapons"]]
    pool = [w for w in pool if weapon_fits(w, vt)]
    out = []
    for _ in range(int(d.pick(t["counts"]["weapons"]))):
        w = d.pick(pool)
        out.append(WeaponSpec(id=w.id, facing=facing_for(d, w)))
    return out


def upgrade_facing(d: Digits, u: Upgrade) -> Facing | None:
    if not u.needs_facing:
        return None
    allowed = u.allowed_facings or (Facing.FRONT, Facing.REAR, Facing.SIDE)
    return allowed[0] if d.below(10) < 6 else d.pick(allowed)


def upgrade_allowed(u: Upgrade, vt: Vehicle) -> bool:
    """A generated upgrade: fits alone, is not already built into the type, and suits its
    weight (ruling GL-R2: a fresh vehicle is one the Refuelled rules could field)."""
    return (upgrade_fits(u, vt) and u.id not in vt.built_in_upgrades
            and vt.weight not in u.forbidden_weights and vt.id not in u.forbidden_vehicles)


def _upgrades(d: Digits, vt: Vehicle, cat: Catalog) -> list[UpgradeSpec]:
    t = tables()
    pool = [cat.upgrades.get(u) for u in t["upgrades"]]
    pool = [u for u in pool if upgrade_allowed(u, vt)]
    out: list[UpgradeSpec] = []
    for _ in range(int(d.pick(t["counts"]["upgrades"]))):
        left = [u for u in pool if all(u.id != o.id for o in out)]
        if not left:
            break
        u = d.pick(left)
        out.append(UpgradeSpec(id=u.id, facing=upgrade_facing(d, u)))
    return out


def perk_allowed(p: Any, vt: Vehicle) -> bool:
    return ((not p.allowed_weights or vt.weight in p.allowed_weights)
            and (p.min_base_handling is None or vt.handling >= p.min_base_handling))


def _perks(d: Digits, vt: Vehicle, cat: Catalog) -> list[str]:
    t = tables()
    classes = set(t["perk_classes"])
    pool = sorted((p for p in cat.perks if p.perk_class in classes and perk_allowed(p, vt)),
                  key=lambda p: p.id)
    out: list[str] = []
    for _ in range(int(d.pick(t["counts"]["perks"]))):
        left = [p for p in pool if p.id not in out]
        out.append(d.pick(left).id)
    return out


def item_rating(spec: VehicleSpec, cat: Catalog) -> int:
    """What the vehicle's type, weapons (Legacy turret price), upgrades and perks cost."""
    vt = cat.vehicles.get(spec.type)
    total = vt.cost
    total += sum(weapon_price(cat.weapons.get(w.id), w.facing) for w in spec.weapons)
    total += sum(cat.upgrades.get(u.id).cost for u in spec.upgrades)
    total += sum(cat.perks.get(p).cost for p in spec.perks)
    return total


def generate_vehicle(vtype: str, name: str) -> VehicleSpec:
    """The Legacy vehicle of type ``vtype`` called ``name``: the same one, always."""
    vt = legacy_type(vtype)
    shown = display_name(name)
    t = tables()
    d = Digits("vehicle", str(t["version"]), vt.id, normalise_name(name))
    cat = catalog()
    b = _bonuses(d, vt)
    weapons = _weapons(d, vt, cat)
    upgrades = _upgrades(d, vt, cat)
    perks = _perks(d, vt, cat)
    bare = VehicleSpec(name=shown, type=vt.id, weapons=tuple(weapons),
                       upgrades=tuple(upgrades), perks=tuple(perks))
    r = t["rating"]
    rating = (item_rating(bare, cat) + r["per_hull"] * b.hull
              + r["per_other"] * (b.handling + b.max_gear + b.crew))
    legacy = LegacySpec(hull=b.hull, handling=b.handling, max_gear=b.max_gear, crew=b.crew,
                        rating=rating)
    return with_legacy(bare, legacy)


def legacy_team(name: str, vehicles: list[VehicleSpec] | tuple[VehicleSpec, ...]) -> TeamSpec:
    """A Legacy team of ``vehicles`` (no sponsor; its cans are what its vehicles rate)."""
    total = sum(lg.rating for lg in map(legacy_of, vehicles) if lg is not None)
    return TeamSpec(name=name, cans=max(1, total), vehicles=tuple(vehicles))


def vehicle_json(spec: VehicleSpec) -> dict[str, Any]:
    """The vehicle as team-file JSON (what ``--json`` prints and the golden files hold)."""
    out: dict[str, Any] = spec.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    out["type"] = spec.type
    lg = legacy_of(spec)
    if lg is not None:
        out["legacy"] = lg.model_dump(mode="json")
    return out
