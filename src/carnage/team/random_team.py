"""Random legal teams: any vehicles, weapons, upgrades and facings, to a
budget in cans, built and checked by the team builder. Seeded: the same seed and budget give
the same team.

A team is drawn in three passes. A sponsor (or none) first; then vehicles while the budget
lasts; then weapons and upgrades, each drawn from every item the sponsor may buy, with the
sponsor's own items weighted up so that they turn up. The draw already respects what the
catalogue says of each item (cost, slots, facings, weights, per-vehicle limits, needs), so the
team builder's check (``check_team``) rarely finds anything; whatever it finds is removed and
the team checked again. A team that still fails drops its sponsor, and in the end falls back
to a single cheapest vehicle, so the result is always legal.

With ``sponsored=True`` the team also buys perks: some of the item draws
pick a perk of the sponsor's perk classes instead (at most once per vehicle, within budget and
the perk's weight and Handling limits, p.104), checked by the team builder like the rest.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from carnage.catalog import load_catalog
from carnage.catalog.loader import Catalog
from carnage.catalog.models import Facing, Perk, Upgrade, UpgradeKind, Vehicle, Weapon, Weight
from carnage.team.check import check_team
from carnage.team.model import Mount, TeamSpec, UpgradeSpec, VehicleSpec, WeaponSpec
from carnage.team.report import TeamReport

SPONSORED_WEIGHT = 4
"""How much likelier a sponsor's own items are than the rest of the pool."""
MORE_VEHICLES = 0.6
"""Chance of adding another vehicle while the budget can pay for one."""
ITEM_TRIES = 40
"""Draws of weapons and upgrades per team (each kept if it fits)."""
REPAIRS = 8
"""Check-and-remove rounds before the sponsor is dropped."""
PERK_SHARE = 0.35
"""With perks on, the share of item draws that buy a perk instead of a weapon or upgrade."""
TRAILER_TOWING = {Weight.MIDDLEWEIGHT: "trailer_middleweight",
                  Weight.HEAVYWEIGHT: "trailer_heavyweight"}
"""Rusty's Bootleggers must tow something (p.103): a trailer that fits the vehicle."""


class RandomTeamError(ValueError):
    """No team can be built (e.g. a budget below the cheapest vehicle); one-line message."""


Item = Weapon | Upgrade


@dataclass
class _Draft:
    """One vehicle while it is being drawn."""

    vehicle: Vehicle
    name: str
    weapons: list[WeaponSpec] = field(default_factory=list)
    upgrades: list[UpgradeSpec] = field(default_factory=list)
    perks: list[str] = field(default_factory=list)
    slots: int = 0
    cans: int = 0

    def spec(self) -> VehicleSpec:
        return VehicleSpec(name=self.name, type=self.vehicle.id, weapons=tuple(self.weapons),
                           upgrades=tuple(self.upgrades), perks=tuple(self.perks))

    def count(self, item_id: str) -> int:
        return sum(1 for u in self.upgrades if u.id == item_id) + sum(
            1 for w in self.weapons if w.id == item_id)

    def tows(self, cat: Catalog) -> bool:
        return self.vehicle.has_trailer or any(
            cat.upgrades.get(u.id).kind is UpgradeKind.TRAILER for u in self.upgrades)


def random_team(seed: int | str | random.Random, cans: int = 50, *, name: str | None = None,
                catalog: Catalog | None = None, sponsored: bool | None = None,
                perks: bool | None = None, types: frozenset[str] | None = None,
                max_vehicles: int | None = None) -> TeamSpec:
    """A random legal team costing at most ``cans``. ``sponsored``:
    None draws any sponsor or none; True always a sponsor; False never (a team that cannot
    be made legal still drops its sponsor, as below). ``perks``: buy perks from
    the sponsor's perk classes; unset means "when ``sponsored`` is True". ``types``: the
    vehicle types it may field (what a scenario accepts; None: any); ``max_vehicles``: at
    most that many vehicles."""
    cat = catalog or load_catalog()
    rng = seed if isinstance(seed, random.Random) else random.Random(f"team:{seed}")
    pool = [v for v in cat.vehicles if types is None or v.id in types]
    if not pool:
        raise RandomTeamError(f"no vehicle type in the catalogue is one of {sorted(types or ())}")
    cheapest = min(v.cost for v in pool)
    if cans < cheapest:
        raise RandomTeamError(
            f"a random team needs at least {cheapest} cans (the cheapest vehicle"
            f"{'' if types is None else ' it may field'}), not {cans}")
    limit = _Limits(types, max_vehicles)
    title = name or (f"Random {seed}" if not isinstance(seed, random.Random) else "Random")
    sponsors: list[str | None] = [None, *(s.id for s in cat.sponsors)]
    if sponsored is not None:
        sponsors = sponsors[1:] if sponsored else [None]
    sponsor = rng.choice(sponsors)
    buy_perks = sponsored is True if perks is None else perks
    spec = _draw(cat, rng, title, cans, sponsor, buy_perks, fit_sponsor=sponsored is True,
                 limits=limit)
    for attempt in (spec, _draw(cat, rng, title, cans, None, limits=limit)):
        fixed = _repair(cat, attempt)
        if fixed is not None:
            return fixed
    cheap = min(pool, key=lambda v: (v.cost, v.id))
    return TeamSpec(name=title, cans=cans, vehicles=(VehicleSpec(name=f"{cheap.name} 1",
                                                                 type=cheap.id),))


# -- drawing ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Limits:
    types: frozenset[str] | None = None
    max_vehicles: int | None = None


def _draw(cat: Catalog, rng: random.Random, title: str, cans: int,
          sponsor: str | None, buy_perks: bool = False, fit_sponsor: bool = False,
          limits: _Limits = _Limits()) -> TeamSpec:
    """``fit_sponsor`` (for ``sponsored=True``): draw only vehicle types the team
    builder lets the sponsor buy, and for Rusty's Bootleggers a first vehicle that can tow,
    so that few teams lose their sponsor in the repair."""
    left = cans
    drafts: list[_Draft] = []
    names: Counter[str] = Counter()
    types = _sponsor_types(cat, sponsor) if fit_sponsor else None
    while True:
        allowed = [v for v in cat.vehicles if v.cost <= left and _vehicle_ok(v, sponsor)
                   and (types is None or v.id in types)
                   and (limits.types is None or v.id in limits.types)]
        if limits.max_vehicles is not None and len(drafts) >= limits.max_vehicles:
            allowed = []
        if types is not None and sponsor == "rustys_bootleggers" and not drafts:
            allowed = [v for v in allowed if v.has_trailer or v.weight in TRAILER_TOWING]
        if not allowed or (drafts and rng.random() > MORE_VEHICLES):
            break
        v = rng.choice(allowed)
        names[v.name] += 1
        d = _Draft(v, f"{v.name} {names[v.name]}", slots=v.build_slots, cans=v.cost)
        drafts.append(d)
        left -= v.cost
        if types is not None and sponsor == "rustys_bootleggers" and len(drafts) == 1:
            left = _tow_something(cat, rng, drafts, left)  # the trailer before more vehicles
    if sponsor == "rustys_bootleggers" and not any(d.tows(cat) for d in drafts):
        left = _tow_something(cat, rng, drafts, left)
    pool = _pool(cat, sponsor)
    weights = [SPONSORED_WEIGHT if _sponsored(it, sponsor) else 1 for it in pool]
    perk_pool = _perk_pool(cat, sponsor) if buy_perks else []
    for _ in range(ITEM_TRIES):
        if left <= 0 or not drafts:
            break
        d = rng.choice(drafts)
        if perk_pool and rng.random() < PERK_SHARE:
            left -= _fit_perk(d, rng.choice(perk_pool), left)
            continue
        item = rng.choices(pool, weights)[0]
        left -= _try_fit(cat, rng, d, item, left)
    return TeamSpec(name=title, cans=cans, sponsor=sponsor,
                    vehicles=tuple(d.spec() for d in drafts))


def _vehicle_ok(v: Vehicle, sponsor: str | None) -> bool:
    # Sponsored teams may not take restricted vehicles (p.68); Idris: no gyrocopters (p.95).
    if sponsor is not None and v.restricted:
        return False
    return not (sponsor == "idris" and v.id == "gyrocopter")


_SPONSOR_TYPES: dict[tuple[int, str | None], tuple[Catalog, frozenset[str]]] = {}
"""(id of catalogue, sponsor) -> (that catalogue, kept alive so its id stays its own; types)."""


def _sponsor_types(cat: Catalog, sponsor: str | None) -> frozenset[str]:
    """Vehicle type ids a lone vehicle of ``sponsor``'s team may be (the team builder names
    no fault of the vehicle itself); remembered per catalogue and sponsor."""
    key = (id(cat), sponsor)
    if key not in _SPONSOR_TYPES:
        ok: set[str] = set()
        for v in cat.vehicles:
            label = f"{v.name} 1"
            probe = TeamSpec(name="probe", cans=10 * v.cost + 100, sponsor=sponsor,
                             vehicles=(VehicleSpec(name=label, type=v.id),))
            if not any(e.vehicle == label for e in check_team(probe, cat).errors):
                ok.add(v.id)
        _SPONSOR_TYPES[key] = (cat, frozenset(ok))
    return _SPONSOR_TYPES[key][1]


def _sponsored(item: Item, sponsor: str | None) -> bool:
    if sponsor is None:
        return False
    if item.sponsor == sponsor:
        return True
    return isinstance(item, Upgrade) and sponsor == "rustys_bootleggers" and item.kind in (
        UpgradeKind.TRAILER, UpgradeKind.CARGO)


def _pool(cat: Catalog, sponsor: str | None) -> list[Item]:
    """Every weapon and upgrade a team with ``sponsor`` might buy (the Handgun is free and
    everywhere; the Turret Mounting is a facing)."""
    out: list[Item] = []
    for w in cat.weapons:
        if w.standard_issue or (w.sponsor is not None and w.sponsor != sponsor):
            continue
        if w.electrical and sponsor != "mishkin":
            continue
        out.append(w)
    for u in cat.upgrades:
        if u.cost_multiplier is not None:
            continue
        if u.sponsor is not None and u.sponsor != sponsor:
            continue
        if u.electrical and sponsor != "mishkin":
            continue
        out.append(u)
    return out


def _perk_pool(cat: Catalog, sponsor: str | None) -> list[Perk]:
    """The perks of the sponsor's perk classes (none without a sponsor, p.104)."""
    if sponsor is None:
        return []
    classes = set(cat.sponsors.get(sponsor).perk_classes)
    return [p for p in cat.perks if p.perk_class in classes]


def _fit_perk(d: _Draft, p: Perk, left: int) -> int:
    """Buy perk ``p`` for ``d`` if affordable, new to it and allowed for its type; its cost."""
    v = d.vehicle
    if p.cost > left or p.id in d.perks:
        return 0
    if p.allowed_weights and v.weight not in p.allowed_weights:
        return 0
    if p.min_base_handling is not None and v.handling < p.min_base_handling:
        return 0
    d.perks.append(p.id)
    d.cans += p.cost
    return p.cost


def _tow_something(cat: Catalog, rng: random.Random, drafts: list[_Draft], left: int) -> int:
    """Rusty's Bootleggers: fit a trailer to a middle- or heavyweight if there is no War Rig."""
    if any(d.vehicle.has_trailer for d in drafts):
        return left
    towing = [d for d in drafts if d.vehicle.weight in TRAILER_TOWING]
    rng.shuffle(towing)
    for d in towing:
        t = cat.upgrades.get(TRAILER_TOWING[d.vehicle.weight])
        if t.cost <= left:
            d.upgrades.append(UpgradeSpec(id=t.id))
            d.slots += t.slot_bonus
            d.cans += t.cost
            return left - t.cost
    return left


def _try_fit(cat: Catalog, rng: random.Random, d: _Draft, item: Item, left: int) -> int:
    """Fit ``item`` to ``d`` if the catalogue allows it and it is affordable; its cost."""
    if isinstance(item, Weapon):
        return _fit_weapon(cat, rng, d, item, left)
    return _fit_upgrade(cat, rng, d, item, left)


def _fit_weapon(cat: Catalog, rng: random.Random, d: _Draft, w: Weapon, left: int) -> int:
    facing: Facing | None = rng.choice(w.allowed_facings) if w.allowed_facings else None
    cost = w.cost * (_turret_multiplier(cat) if facing is Facing.TURRET else 1)
    if cost > left or w.build_slots > d.slots:
        return 0
    mount = rng.choice((Mount.CAB, Mount.TRAILER)) if d.tows(cat) else None
    d.weapons.append(WeaponSpec(id=w.id, facing=facing, mount=mount))
    d.slots -= w.build_slots
    return cost


def _turret_multiplier(cat: Catalog) -> int:
    return next((u.cost_multiplier for u in cat.upgrades if u.cost_multiplier), 3)


def _fit_upgrade(cat: Catalog, rng: random.Random, d: _Draft, u: Upgrade, left: int) -> int:
    v = d.vehicle
    if u.cost > left or u.build_slots > d.slots:
        return 0
    if v.weight in u.forbidden_weights or v.id in u.forbidden_vehicles:
        return 0
    have = d.count(u.id) + (1 if u.id in v.built_in_upgrades else 0)
    if u.max_per_vehicle is not None and have >= u.max_per_vehicle:
        return 0
    if u.limit_by_base_crew and have >= v.crew:
        return 0
    if u.kind is UpgradeKind.TRAILER and (d.tows(cat) or v.has_trailer):
        return 0
    if u.kind is UpgradeKind.CARGO and (not d.tows(cat) or any(
            cat.upgrades.get(x.id).kind is UpgradeKind.CARGO for x in d.upgrades)):
        return 0
    facing: Facing | None = None
    if u.needs_facing:
        used = {x.facing for x in d.upgrades if x.id == u.id}
        free = [f for f in u.allowed_facings
                if u.max_per_facing is None or f not in used]
        if not free:
            return 0
        facing = rng.choice(free)
    d.upgrades.append(UpgradeSpec(id=u.id, facing=facing))
    d.slots += u.slot_bonus - u.build_slots
    return u.cost


# -- checking --------------------------------------------------------------------------------
def _repair(cat: Catalog, spec: TeamSpec) -> TeamSpec | None:
    """Check ``spec``; remove what the team builder objects to until it passes (or give up)."""
    for _ in range(REPAIRS):
        report = check_team(spec, cat)
        if report.valid:
            return spec if spec.vehicles else None
        spec = _without(spec, report)
    return None


def _without(spec: TeamSpec, report: TeamReport) -> TeamSpec:
    """``spec`` minus the items named by the report's first error (the last weapon or upgrade
    of the costliest vehicle for a team-level error such as the budget)."""
    err = report.errors[0]
    vehicles = list(spec.vehicles)
    if err.vehicle is None or err.item is None:
        if not vehicles:
            return spec
        i = max(range(len(vehicles)), key=lambda k: report.vehicles[k].cans)
        vs = vehicles[i]
        if vs.perks:
            vehicles[i] = vs.model_copy(update={"perks": vs.perks[:-1]})
        elif vs.upgrades or vs.weapons:
            if vs.upgrades and (not vs.weapons or len(vs.upgrades) >= len(vs.weapons)):
                vehicles[i] = vs.model_copy(update={"upgrades": vs.upgrades[:-1]})
            else:
                vehicles[i] = vs.model_copy(update={"weapons": vs.weapons[:-1]})
        else:
            del vehicles[i]
        return spec.model_copy(update={"vehicles": tuple(vehicles)})
    for i, vs in enumerate(vehicles):
        if vs.name != err.vehicle:
            continue
        ups = [u for u in vs.upgrades if u.id != err.item]
        ws = [w for w in vs.weapons if w.id != err.item]
        ps = [p for p in vs.perks if p != err.item]
        if (len(ups), len(ws), len(ps)) == (len(vs.upgrades), len(vs.weapons), len(vs.perks)):
            del vehicles[i]  # the vehicle itself is the problem
        else:
            vehicles[i] = vs.model_copy(update={"upgrades": tuple(ups), "weapons": tuple(ws),
                                                "perks": tuple(ps)})
        break
    return spec.model_copy(update={"vehicles": tuple(vehicles)})
