"""Build-time effects: rules that change what a vehicle costs, holds or may buy.

Each rule is a small class with hooks; every hook's default leaves the value unchanged. Rules are
registered by the id they answer to: sponsor rules by sponsor id (and their own rule id, which
``sponsors.yaml`` lists under ``team_rules``), vehicle special rules by special-rule id, perks by
perk id. The checker never names a sponsor, vehicle or perk: it asks the registries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import ClassVar, TypeVar

from carnage.team.context import (
    FittedPerk,
    FittedUpgrade,
    FittedWeapon,
    Stats,
    TeamBuild,
    VehicleBuild,
)
from carnage.team.report import Category, Violation
from carnage.team.sections import sections_of


class BuildEffect:
    """A rule with a name and page, and hooks into pricing, slots, ammo, stats and checks."""

    id: ClassVar[str]
    title: ClassVar[str]
    page: ClassVar[int]
    grants: ClassVar[frozenset[str]] = frozenset()
    """Permissions the rule gives a team: ``electrical``, ``vehicle:<id>``, ``trailers``..."""
    category: ClassVar[Category] = Category.SPONSOR
    """Category of the violations this rule reports."""

    def vehicle_cost(self, team: TeamBuild, v: VehicleBuild, cost: int) -> int:
        return cost

    def weapon_cost(self, team: TeamBuild, v: VehicleBuild, w: FittedWeapon, cost: int) -> int:
        return cost

    def upgrade_cost(self, team: TeamBuild, v: VehicleBuild, u: FittedUpgrade, cost: int) -> int:
        return cost

    def weapon_slots(self, team: TeamBuild, v: VehicleBuild, w: FittedWeapon, slots: int) -> int:
        return slots

    def upgrade_slots(
        self, team: TeamBuild, v: VehicleBuild, u: FittedUpgrade, slots: int
    ) -> int:
        return slots

    def weapon_ammo(
        self, team: TeamBuild, v: VehicleBuild, w: FittedWeapon, ammo: int | None
    ) -> int | None:
        return ammo

    def stats(self, team: TeamBuild, v: VehicleBuild, s: Stats) -> Stats:
        return s

    def perk_cost(self, team: TeamBuild, v: VehicleBuild, p: FittedPerk, cost: int) -> int:
        return cost

    def perk_class_exempt(self, team: TeamBuild, v: VehicleBuild, p: FittedPerk) -> bool:
        """True when this perk may be taken whatever the sponsor's perk classes (Badass's
        free perk, p.163)."""
        return False

    def check_vehicle(self, team: TeamBuild, v: VehicleBuild) -> Iterator[Violation]:
        return iter(())

    def check_team(self, team: TeamBuild) -> Iterator[Violation]:
        return iter(())

    def violation(self, vehicle: str | None, item: str | None, text: str) -> Violation:
        """A violation of this rule, citing its title and page."""
        return Violation(vehicle, item, text, self.page, self.category, self.id, self.title)


E = TypeVar("E", bound=type[BuildEffect])

SPONSOR_RULES: dict[str, dict[str, BuildEffect]] = {}
"""sponsor id -> rule id -> rule."""
VEHICLE_RULES: dict[str, BuildEffect] = {}
"""vehicle special-rule id -> rule (e.g. the Tank's ``turret``)."""
PERK_RULES: dict[str, BuildEffect] = {}
"""perk id -> rule, for perks that change a vehicle's starting stats."""
CAREER_RULES: list[BuildEffect] = []
"""Rules acting on every vehicle with a campaign career (team/career.py), applied last."""


def sponsor_rule(sponsor_id: str) -> Callable[[E], E]:
    """Register a sponsor's team-building rule under the sponsor's id."""

    def deco(cls: E) -> E:
        rules = SPONSOR_RULES.setdefault(sponsor_id, {})
        if cls.id in rules:
            raise ValueError(f"sponsor rule {sponsor_id}/{cls.id} registered twice")
        rules[cls.id] = cls()
        return cls

    return deco


def _keyed(registry: dict[str, BuildEffect]) -> Callable[[E], E]:
    def deco(cls: E) -> E:
        if cls.id in registry:
            raise ValueError(f"rule {cls.id} registered twice")
        registry[cls.id] = cls()
        return cls

    return deco


vehicle_rule = _keyed(VEHICLE_RULES)
"""Register a vehicle special rule by its special-rule id."""
perk_rule = _keyed(PERK_RULES)
"""Register a perk's build-time effect by its perk id."""


def sponsor_effects(team: TeamBuild) -> list[BuildEffect]:
    if team.sponsor is None:
        return []
    return list(SPONSOR_RULES.get(team.sponsor.id, {}).values())


def vehicle_effects(team: TeamBuild, v: VehicleBuild) -> list[BuildEffect]:
    """Every effect acting on one vehicle: its sponsor's, its type's and its perks'."""
    out = sponsor_effects(team)
    if v.vehicle is not None:
        out += [VEHICLE_RULES[r] for r in v.vehicle.special_rules if r in VEHICLE_RULES]
    out += [PERK_RULES[p.perk.id] for p in v.perks if p.perk.id in PERK_RULES]
    if v.spec.career is not None:
        out += CAREER_RULES
    for section, _ in sections_of(v.spec):  # a game's section of the vehicle
        out += [VEHICLE_RULES[r] for r in section.build_effects if r in VEHICLE_RULES]
    return out
