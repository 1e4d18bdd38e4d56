"""Nano-mutations: our own 100-entry table and each vehicle's sequence (GL-044..GL-049,
GL-107; rulings GL-R6..GL-R12).

OURS, not the official web app. The k-th mutation a vehicle gains (k = 0, 1, ...) is drawn
from the MD5 stream of (type, normalised name, k): the row of the table, then every pick the
row needs (which weapon, which facing, which perk...). So the same vehicle always gains the
same mutations in the same order (GL-044), on any machine. A gain:

- ignores the normal restrictions (sponsor-only and electrical items included, GL-046) but
  never gives one item needing more slots alone than the type's starting slots (GL-048);
- may raise Crew without any cap (GL-047);
- raises the Vehicle Rating (GL-049): 2 per Hull point, an item's cost in cans (a turret
  mounting: twice the weapon's cost), 3 for anything else;
- a template improvement is recorded as intent (``template_roll``, a D6 of the GL-039
  table): the team's template set applies it (``legacy/templates*.py``).

A gain that finds nothing to give (every perk of the class already had, max Gear already 6,
no weapon left to turret-mount...) gives +1 Hull instead (ruling GL-R8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from carnage.catalog.loader import Catalog
from carnage.catalog.models import Facing, Upgrade, UpgradeKind, Vehicle, Weapon
from carnage.games.legacy.catalog import NANO_CLOAK, legacy_data
from carnage.games.legacy.digits import Digits, LegacyError, normalise_name
from carnage.games.legacy.generator import (
    MAX_GEAR,
    catalog,
    facing_for,
    legacy_type,
    mounting_price,
    upgrade_facing,
)
from carnage.games.legacy.team import SECTION_KEY, LegacySpec, legacy_of
from carnage.team.model import UpgradeSpec, VehicleSpec, WeaponSpec

TABLE_SIZE = 100
PER_HULL = 2
"""GL-049: +2 rating per Hull point gained."""
PER_OTHER = 3
"""GL-049: +3 rating for a gain that is no Hull and no item."""
MAX_WEIGHT_STEPS = {"lightweight": 2, "middleweight": 1, "heavyweight": 0}
"""How many ``heavier`` traits a type can take before it is a heavyweight (ruling GL-R9)."""
TRAITS = ("heavier", "hazard_tolerance")


@dataclass(frozen=True)
class Mutation:
    roll: int
    id: str
    name: str
    gains: tuple[dict[str, Any], ...]


@cache
def mutation_table() -> tuple[Mutation, ...]:
    """Our 100 mutations (games/legacy/data/mutations.yaml), by roll 1..100."""
    raw = legacy_data("mutations.yaml")["mutations"]
    rows = tuple(Mutation(int(m["roll"]), str(m["id"]), str(m["name"]),
                          tuple(dict(g) for g in m["gains"])) for m in raw)
    if [m.roll for m in rows] != list(range(1, TABLE_SIZE + 1)):
        raise LegacyError("the mutation table must have rolls 1 to 100 in order")
    return rows


@dataclass(frozen=True)
class Gain:
    """One mutation gained: which, what it changed (in plain words), the rating it added."""

    index: int
    """0 for the vehicle's first mutation."""
    roll: int
    mutation: str
    name: str
    changes: tuple[str, ...]
    rating: int
    template_roll: int | None = None
    """A template improvement to apply (the D6 result of GL-039), or None."""

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "roll": self.roll, "mutation": self.mutation,
                "name": self.name, "changes": list(self.changes), "rating": self.rating,
                "template_roll": self.template_roll}


def _digits(spec: VehicleSpec, k: int) -> Digits:
    return Digits("mutation", str(legacy_data_version()), spec.type, normalise_name(spec.name),
                  str(k))


@cache
def legacy_data_version() -> int:
    return int(legacy_data("mutations.yaml")["version"])


def weapon_candidates(cat: Catalog, vt: Vehicle, sets: Sequence[str], max_cost: int
                      ) -> list[Weapon]:
    """Weapons a mutation may give: in one of ``sets`` (a kind, ``electrical`` or an id), at
    most ``max_cost`` cans, none needing more slots alone than the type starts with."""
    out = []
    for w in sorted(cat.weapons, key=lambda w: w.id):
        if w.id == "handgun" or w.cost > max_cost or w.build_slots > vt.build_slots:
            continue
        tags = {str(w.kind), w.id} | ({"electrical"} if w.electrical else set())
        if tags & set(sets):
            out.append(w)
    return out


def upgrade_candidates(cat: Catalog, vt: Vehicle, spec: VehicleSpec, sets: Sequence[str],
                       max_cost: int) -> list[Upgrade]:
    """Upgrades a mutation may give: ``any`` plain upgrade, the ``electrical`` ones or named
    ids, at most ``max_cost``, fitting alone, not one it already has as often as it may."""
    out = []
    have = [u.id for u in spec.upgrades] + list(vt.built_in_upgrades)
    for u in sorted(cat.upgrades, key=lambda u: u.id):
        if (u.kind is not UpgradeKind.UPGRADE or u.cost_multiplier is not None
                or u.id == NANO_CLOAK or u.cost > max_cost or u.build_slots > vt.build_slots):
            continue
        if u.max_per_vehicle is not None and have.count(u.id) >= u.max_per_vehicle:
            continue
        if u.id in vt.built_in_upgrades:
            continue
        tags = {u.id} | ({"electrical"} if u.electrical else {"any"})
        if tags & set(sets):
            out.append(u)
    return out


class _Work:
    """A vehicle being changed by one mutation."""

    def __init__(self, spec: VehicleSpec, vt: Vehicle) -> None:
        lg = legacy_of(spec)
        assert lg is not None
        self.spec = spec
        self.vt = vt
        self.lg: dict[str, Any] = lg.model_dump()
        self.weapons = list(spec.weapons)
        self.upgrades = list(spec.upgrades)
        self.perks = list(spec.perks)
        self.changes: list[str] = []
        self.rating = 0
        self.template_roll: int | None = None

    def stat(self, name: str, n: int, label: str) -> None:
        self.lg[name] += n
        self.rating += (PER_HULL if name == "hull" else PER_OTHER) * n
        self.changes.append(f"+{n} {label}")

    def fallback(self, why: str) -> None:
        """Ruling GL-R8: nothing to give, +1 Hull instead."""
        self.stat("hull", 1, f"Hull (nothing to give: {why})")

    def done(self) -> VehicleSpec:
        lg = LegacySpec.model_validate({**self.lg, "rating": self.lg["rating"] + self.rating})
        return self.spec.model_copy(update={
            "weapons": tuple(self.weapons), "upgrades": tuple(self.upgrades),
            "perks": tuple(self.perks), SECTION_KEY: lg})


def _gain(w: _Work, d: Digits, gain: dict[str, Any], cat: Catalog) -> None:
    vt = w.vt
    if "weapon" in gain:
        opts = weapon_candidates(cat, vt, gain["weapon"]["from"], int(gain["weapon"]["max_cost"]))
        if not opts:
            w.fallback("no weapon fits")
            return
        weapon = d.pick(opts)
        facing = facing_for(d, weapon, turret_ok=False)
        w.weapons.append(WeaponSpec(id=weapon.id, facing=facing))
        w.rating += weapon.cost
        where = f" ({facing})" if facing is not None else ""
        w.changes.append(f"gains a {weapon.name}{where}")
    elif "upgrade" in gain:
        uopts = upgrade_candidates(cat, vt, w.spec.model_copy(update={
            "upgrades": tuple(w.upgrades)}), gain["upgrade"]["from"],
            int(gain["upgrade"]["max_cost"]))
        if not uopts:
            w.fallback("no upgrade fits")
            return
        up = d.pick(uopts)
        ufacing = upgrade_facing(d, up)
        if up.max_per_facing is not None and ufacing is not None:
            # one Ram per facing (p.85): the next free facing, or nothing to give
            used = [u.facing for u in w.upgrades if u.id == up.id]
            free = [f for f in (up.allowed_facings or (Facing.FRONT, Facing.REAR, Facing.SIDE))
                    if used.count(f) < up.max_per_facing]
            if not free:
                w.fallback(f"no facing left for another {up.name}")
                return
            if ufacing not in free:
                ufacing = free[0]
        w.upgrades.append(UpgradeSpec(id=up.id, facing=ufacing))
        w.rating += up.cost
        w.changes.append(f"gains {up.name}" + (f" ({ufacing})" if ufacing else ""))
    elif "perk" in gain:
        popts = sorted((p for p in cat.perks if p.perk_class == gain["perk"]
                        and p.id not in w.perks), key=lambda p: p.id)
        if not popts:
            popts = sorted((p for p in cat.perks if p.id not in w.perks), key=lambda p: p.id)
        if not popts:
            w.fallback("every perk already had")
            return
        perk = d.pick(popts)
        w.perks.append(perk.id)
        w.rating += perk.cost
        w.changes.append(f"gains the {perk.name} perk ({perk.perk_class})")
    elif "turret" in gain:
        idx = [i for i, ws in enumerate(w.weapons)
               if ws.facing is not Facing.TURRET
               and Facing.TURRET in cat.weapons.get(ws.id).allowed_facings]
        if not idx:
            w.fallback("no weapon to turret-mount")
            return
        i = d.pick(idx)
        weapon = cat.weapons.get(w.weapons[i].id)
        # the mounting is an upgrade costing twice the weapon (GL-052): the weapon's own
        # cost is already in the rating, so the mounting adds 2x on top (ruling GL-R11)
        w.rating += mounting_price(weapon)
        w.weapons[i] = w.weapons[i].model_copy(update={"facing": Facing.TURRET})
        w.changes.append(f"turret-mounts its {weapon.name} (360 degrees)")
    elif "trait" in gain:
        trait = str(gain["trait"])
        if trait not in TRAITS:
            raise LegacyError(f"unknown mutation trait {trait!r}")
        traits = list(w.lg["traits"])
        if trait == "heavier" and traits.count("heavier") >= MAX_WEIGHT_STEPS[str(vt.weight)]:
            w.fallback("already a heavyweight")
            return
        w.lg["traits"] = (*traits, trait)
        w.rating += PER_OTHER
        w.changes.append("counts one weight class heavier" if trait == "heavier"
                         else "wipes out at one more Hazard Token")
    elif "template" in gain:
        w.template_roll = d.d6()
        w.rating += PER_OTHER
        w.changes.append(f"a template improvement for its team (D6: {w.template_roll})")
    else:
        for name, label in (("hull", "Hull"), ("handling", "Handling"), ("crew", "Crew"),
                            ("max_gear", "max Gear")):
            if name in gain:
                n = int(gain[name])
                if name == "max_gear":
                    room = MAX_GEAR - vt.max_gear - int(w.lg["max_gear"])
                    if room <= 0:
                        w.fallback("max Gear already 6")
                        return
                    n = min(n, room)
                w.stat(name, n, label)
                return
        raise LegacyError(f"unknown mutation gain {gain!r}")


def next_mutation(spec: VehicleSpec) -> tuple[VehicleSpec, Gain]:
    """The vehicle after gaining its next mutation (its ``len(legacy.mutations)``-th)."""
    lg = legacy_of(spec)
    if lg is None:
        raise LegacyError(f"{spec.name} is not a Legacy vehicle: only they gain mutations")
    vt = legacy_type(spec.type)
    cat = catalog()
    k = len(lg.mutations)
    d = _digits(spec, k)
    row = mutation_table()[d.below(TABLE_SIZE)]
    w = _Work(spec, vt)
    w.lg["mutations"] = (*w.lg["mutations"], row.id)
    for g in row.gains:
        _gain(w, d, g, cat)
    gain = Gain(k, row.roll, row.id, row.name, tuple(w.changes), w.rating, w.template_roll)
    return w.done(), gain


def gain_mutations(spec: VehicleSpec, count: int) -> tuple[VehicleSpec, tuple[Gain, ...]]:
    """``count`` mutations in sequence (a pure function: the campaign records the gains)."""
    if count < 0:
        raise LegacyError(f"cannot gain {count} mutations")
    gains = []
    for _ in range(count):
        spec, g = next_mutation(spec)
        gains.append(g)
    return spec, tuple(gains)


def template_rolls(gains: Sequence[Gain]) -> list[int]:
    """The template improvements ``gains`` owe the team's template set, in order."""
    return [g.template_roll for g in gains if g.template_roll is not None]
