"""The Legacy build mode: how a Gaslands: Legacy team is built and checked (GL-007, GL-013,
GL-018, GL-046..GL-048, GL-052, GL-121).

A team is a Legacy team when its vehicles carry the ``legacy`` section (``LegacySpec``,
registered with the team builder as a vehicle section, ``team/sections.py``): then
``check_team`` hands it here. What differs from a Refuelled team (Legacy excerpt lines 90-190,
366-420; rulings GL-R in docs/rulings.md):

- exactly two vehicles, each a Buggy, Car, Performance Car or Truck (GL-007, GL-008);
- no sponsor, so no sponsor or electrical restrictions and perks of any class (GL-018,
  GL-046: mutations ignore every normal restriction);
- no build-slot total, but no single weapon or upgrade may need more slots on its own than
  the type's starting build slots (GL-013, GL-048);
- Crew gained from mutations is not capped (GL-047): it is the vehicle's ``legacy.crew``;
- Turret Mounting is an upgrade of a weapon already fitted costing twice the weapon's cost,
  for a 360-degree arc (GL-052): with the weapon itself, three times its cost in all, as in
  Refuelled (p.85; ruling GL-R11);
- no budget: a Legacy vehicle is generated, not bought (ruling GL-R4); its price in cans is
  reported all the same, and the Vehicle Rating is its own field;
- the Nano-Cloaking Device is in the catalogue (``legacy.catalog``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from carnage import bounds
from carnage.catalog.loader import Catalog
from carnage.games.legacy import bounds as legacy_bounds
from carnage.games.legacy.bounds import LEGACY_MUTATIONS
from carnage.team.build import price_vehicle, resolve_team
from carnage.team.context import FittedWeapon, Stats, TeamBuild, VehicleBuild
from carnage.team.effects import BuildEffect, vehicle_rule
from carnage.team.model import Ids, NonEmpty, TeamSpec, VehicleSpec
from carnage.team.report import Category, TeamReport, VehicleReport, Violation
from carnage.team.rules import (
    has_vehicles,
    split,
    unique_names,
    upgrade_facing,
    weapon_facing,
    weapon_mount,
)
from carnage.team.sections import VehicleSection, register_vehicle_section, section_of

LEGACY_RULE = "legacy_build"
"""The build effect every Legacy vehicle carries (``effects.vehicle_effects``)."""
LEGACY_TYPES = ("buggy", "car", "performance_car", "truck")
"""The vehicle types the Legacy generator makes (GL-003, GL-008)."""
TEAM_SIZE = 2
"""A Legacy team is exactly two Legacy vehicles (GL-007)."""
TURRET_MULTIPLIER = 2
"""A Legacy Turret Mounting costs twice the weapon's cost (GL-052), on top of the weapon."""
PAGE = 80
"""BLASTER vol.3 page of "Creating a Legacy Team" (Legacy excerpt lines 68-200)."""


def _upto(high: int) -> Any:
    return Field(default=0, ge=0, le=high)


class LegacySpec(BaseModel):
    """A Gaslands: Legacy vehicle's generated and permanent state (Legacy, "Creating a Legacy
    Team", nano-mutations, corrosion). Present: the vehicle is built by the Legacy build rules
    (below); its generator and mutations are carnage/games/legacy/. Written under a
    vehicle's ``legacy`` key in a team file (the section ``LEGACY_SECTION``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hull: StrictInt = _upto(legacy_bounds.LEGACY_MAX_HULL)
    """Hull gained over the type's (the generator's bonus and mutations)."""
    handling: StrictInt = _upto(legacy_bounds.LEGACY_MAX_HANDLING)
    max_gear: StrictInt = _upto(legacy_bounds.LEGACY_MAX_GEAR_GAIN)
    crew: StrictInt = _upto(legacy_bounds.LEGACY_MAX_CREW)
    """Crew gained: never capped (mutations are not the Extra Crewmember upgrade)."""
    rating: StrictInt = _upto(bounds.MAX_RATING)
    """The Vehicle Rating: the generator's, plus what mutations and other rules add."""
    mutations: Annotated[tuple[NonEmpty, ...], Field(max_length=LEGACY_MUTATIONS)] = ()
    """Mutation ids gained, in the order gained (the vehicle's own sequence)."""
    traits: Annotated[tuple[NonEmpty, ...], Field(max_length=LEGACY_MUTATIONS)] = ()
    """Play effects mutations gave that are no item (``heavier``, ``hazard_tolerance``)."""
    corroded: StrictInt = _upto(legacy_bounds.LEGACY_MAX_BOXES)
    """Hull boxes permanently marked with corrosion."""
    filled: StrictInt = _upto(legacy_bounds.LEGACY_MAX_BOXES)
    """Hull boxes permanently filled in by the Nano-Cloaking Device: Hull lost for good."""
    notes: Ids = ()
    """Permanent notes on the dashboard (e.g. ``dinosaur-blood``)."""


SECTION_KEY = "legacy"
"""The key of a Legacy vehicle's section in a team file."""


def legacy_of(v: VehicleSpec) -> LegacySpec | None:
    """``v``'s Legacy section, or None: not a Legacy vehicle."""
    lg = section_of(v, SECTION_KEY)
    if lg is None or isinstance(lg, LegacySpec):
        return lg
    # A value put in with ``model_copy(update=...)`` is not validated: read it now.
    return LegacySpec.model_validate(lg)


def with_legacy(v: VehicleSpec, lg: LegacySpec) -> VehicleSpec:
    """``v`` with its Legacy section replaced by ``lg``."""
    return v.model_copy(update={SECTION_KEY: lg})


def is_legacy(spec: TeamSpec) -> bool:
    """A team built by the Legacy rules: one of its vehicles is a Legacy vehicle."""
    return any(legacy_of(v) is not None for v in spec.vehicles)


@vehicle_rule
class LegacyBuild(BuildEffect):
    """A Legacy vehicle's gains (Hull, Handling, Gear, uncapped Crew) and its boxes filled in
    by the Nano-Cloaking Device; its turret mountings at twice the weapon's cost."""

    id = LEGACY_RULE
    title = "Gaslands: Legacy"
    page = PAGE
    category = Category.BUILD

    def weapon_cost(self, team: TeamBuild, v: VehicleBuild, w: FittedWeapon, cost: int) -> int:
        # the weapon, plus its Turret Mounting at twice its cost (ruling GL-R11)
        return w.weapon.cost * (1 + TURRET_MULTIPLIER) if w.turret else cost

    def stats(self, team: TeamBuild, v: VehicleBuild, s: Stats) -> Stats:
        lg = legacy_of(v.spec)
        if lg is None:
            return s
        return s.plus(hull=lg.hull - lg.filled, handling=lg.handling, max_gear=lg.max_gear,
                      crew=lg.crew)


def _v(v: VehicleBuild, item: str | None, text: str, rule: str) -> Violation:
    return Violation(v.name, item, text, PAGE, Category.BUILD, rule, "Gaslands: Legacy")


def legacy_vehicle(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """GL-007, GL-008: a Legacy vehicle of a generated type."""
    if legacy_of(v.spec) is None:
        yield _v(v, None, "every vehicle of a Legacy team must be a Legacy vehicle (generate "
                 "it with 'carnage legacy generate')", "legacy_vehicle")
    if v.vehicle is not None and v.vehicle.id not in LEGACY_TYPES:
        yield _v(v, v.vehicle.id, f"a Legacy vehicle is a Buggy, Car, Performance Car or "
                 f"Truck, not a {v.vehicle.name}", "legacy_type")


def single_item_slots(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """GL-013, GL-048: no slot total, but no one item needing more than the starting slots."""
    if v.vehicle is None:
        return
    limit = v.vehicle.build_slots
    items = [(w.id, w.name, w.slots) for w in r.weapons]
    items += [(u.id, u.name, u.slots) for u in r.upgrades if not u.built_in]
    for iid, name, slots in items:
        if slots > limit:
            yield _v(v, iid, f"{name} needs {slots} build slots on its own, more than the "
                     f"{v.vehicle.name}'s {limit} starting slots", "legacy_item_slots")


TRAITS = ("heavier", "hazard_tolerance")
"""The play effects a mutation may leave (carnage/games/legacy/rules/, ruling GL-R9)."""


def legacy_state(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """A Legacy vehicle's record must make sense: known traits and mutations, no more corroded
    or filled-in boxes than its outlined Hull (GL-036, GL-099)."""
    from carnage.games.legacy.mutations import mutation_table

    lg = legacy_of(v.spec)
    if lg is None or v.vehicle is None:
        return
    for trait in dict.fromkeys(lg.traits):
        if trait not in TRAITS:
            yield _v(v, trait, f"unknown Legacy trait {trait!r} (known: {', '.join(TRAITS)})",
                     "legacy_trait")
    known = {m.id for m in mutation_table()}
    for mid in dict.fromkeys(lg.mutations):
        if mid not in known:
            yield _v(v, mid, f"unknown mutation {mid!r}", "legacy_mutation")
    if v.spec.career is not None:
        yield _v(v, "career", "a Legacy vehicle takes no wear from the Refuelled campaigns "
                 "(remove 'career'; GL-014, ruling GL-R30)", "legacy_career")
    boxes = v.vehicle.hull + lg.hull
    if lg.corroded > boxes:
        yield _v(v, "corroded", f"{lg.corroded} corroded boxes, but it has only {boxes} hull "
                 "boxes", "legacy_corrosion")
    if lg.filled >= boxes:
        yield _v(v, "filled", f"{lg.filled} filled-in boxes leave none of its {boxes} hull "
                 "boxes", "legacy_filled")


def perk_once(t: TeamBuild, v: VehicleBuild, r: VehicleReport) -> Iterator[Violation]:
    """p.104: each perk at most once per vehicle (classes do not matter: no sponsor)."""
    for pid, n in sorted(Counter(p.perk.id for p in v.perks).items()):
        if n > 1:
            yield _v(v, pid, f"{pid.replace('_', ' ')} may be had only once per vehicle (has "
                     f"{n})", "perk_once")


LEGACY_VEHICLE_CHECKS = (weapon_facing, weapon_mount, upgrade_facing, legacy_vehicle,
                         single_item_slots, perk_once, legacy_state)


def team_rules(t: TeamBuild) -> Iterator[Violation]:
    """GL-007: exactly two vehicles; GL-018: no sponsor."""
    if len(t.vehicles) != TEAM_SIZE:
        yield Violation(None, "vehicles", f"a Legacy team is exactly {TEAM_SIZE} Legacy "
                        f"vehicles, not {len(t.vehicles)}", PAGE, Category.BUILD,
                        "legacy_team_size", "Gaslands: Legacy")
    if t.spec.sponsor is not None:
        yield Violation(None, "sponsor", "Legacy teams have no sponsor (remove "
                        f"'{t.spec.sponsor}')", PAGE, Category.BUILD, "legacy_no_sponsor",
                        "Gaslands: Legacy")


def check_legacy_team(spec: TeamSpec, catalog: Catalog, homebrew: bool = False) -> TeamReport:
    """``check_team`` for a Legacy team: resolve with the Legacy catalogue, price with the
    Legacy effect, check with the Legacy rules."""
    from carnage.games.legacy.catalog import legacy_catalog

    cat = legacy_catalog(catalog)
    res = resolve_team(spec, cat)
    team = res.team
    reports = tuple(price_vehicle(team, v) for v in team.vehicles)
    found: list[Violation] = list(res.team_problems)
    for v, report, problems in zip(team.vehicles, reports, res.vehicle_problems, strict=True):
        found += problems
        for check in LEGACY_VEHICLE_CHECKS:
            found += check(team, v, report)
    found += team_rules(team)
    for team_check in (has_vehicles, unique_names):
        found += team_check(team, reports)
    errors, relaxed = split(found, homebrew)
    return TeamReport(
        name=spec.name, sponsor=None, budget=spec.cans,
        total_cans=sum(r.cans for r in reports), vehicles=reports,
        errors=tuple(errors), relaxed=tuple(relaxed), homebrew=homebrew,
        sponsor_rules=(),
    )


def _trait_rules(lg: LegacySpec) -> list[str]:
    """A Legacy vehicle's mutation traits as special rules, one per gain
    (carnage/games/legacy/rules/)."""
    return [f"legacy_{t}" for t in lg.traits]


LEGACY_SECTION = register_vehicle_section(VehicleSection(
    key=SECTION_KEY, model=LegacySpec, title="Gaslands: Legacy",
    build_mode=check_legacy_team, build_effects=(LEGACY_RULE,), special_rules=_trait_rules))
"""The Legacy vehicle section and build mode, registered with the team builder."""
