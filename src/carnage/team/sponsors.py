"""Sponsors' team-building rules (Refuelled pp.91-103), registered by sponsor id.

Each class is one named sponsored perk that changes what a team may buy, what it costs or how it
is built. ``sponsors.yaml`` lists the same ids under each sponsor's ``team_rules``; a test keeps
the two in step. Rules that only act during play are not here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from carnage.catalog.models import UpgradeKind, Weight
from carnage.team.context import FittedUpgrade, FittedWeapon, TeamBuild, VehicleBuild
from carnage.team.effects import BuildEffect, sponsor_rule
from carnage.team.report import Violation

TANK = "tank"
HELICOPTER = "helicopter"
GYROCOPTER = "gyrocopter"
NITRO_BOOSTER = "nitro_booster"
EXTRA_CREWMEMBER = "extra_crewmember"
RAM = "ram"


def _half(cost: int) -> int:
    """Half price, rounded down (every halved price in the book is even)."""
    return cost // 2


# --- Rutherford (p.91) -------------------------------------------------------------------------


@sponsor_rule("rutherford")
class MilitaryHardware(BuildEffect):
    """One Tank and one Helicopter may be bought despite being restricted."""

    id = "military_hardware"
    title = "Military Hardware"
    page = 91
    grants = frozenset({f"vehicle:{TANK}", f"vehicle:{HELICOPTER}"})

    def check_team(self, team: TeamBuild) -> Iterator[Violation]:
        counts = Counter(v.vehicle.id for v in team.vehicles if v.vehicle is not None)
        for vid in (TANK, HELICOPTER):
            if counts[vid] > 1:
                name = team.catalog.vehicles.get(vid).name
                yield self.violation(
                    None, vid, f"a Rutherford team may field one {name}, not {counts[vid]}"
                )


@sponsor_rule("rutherford")
class WellStocked(BuildEffect):
    """Weapons bought with Ammo 3 carry Ammo 4."""

    id = "well_stocked"
    title = "Well Stocked"
    page = 91

    def weapon_ammo(
        self, team: TeamBuild, v: VehicleBuild, w: FittedWeapon, ammo: int | None
    ) -> int | None:
        return 4 if ammo == 3 else ammo


@sponsor_rule("rutherford")
class MightIsRight(BuildEffect):
    """No lightweight vehicles."""

    id = "might_is_right"
    title = "Might Is Right"
    page = 91

    def check_vehicle(self, team: TeamBuild, v: VehicleBuild) -> Iterator[Violation]:
        if v.weight is Weight.LIGHTWEIGHT and v.vehicle is not None:
            yield self.violation(
                v.name, v.vehicle.id,
                f"a Rutherford team may not buy a lightweight vehicle ({v.vehicle.name})",
            )


# --- Miyazaki (p.92) ---------------------------------------------------------------------------


@sponsor_rule("miyazaki")
class Elegance(BuildEffect):
    """No vehicle types whose printed Handling is 2 or less."""

    id = "elegance"
    title = "Elegance"
    page = 92

    def check_vehicle(self, team: TeamBuild, v: VehicleBuild) -> Iterator[Violation]:
        if v.vehicle is not None and v.vehicle.handling <= 2:
            yield self.violation(
                v.name, v.vehicle.id,
                f"a Miyazaki team may not buy a {v.vehicle.name} (base Handling "
                f"{v.vehicle.handling}, needs 3 or more)",
            )


# --- Mishkin (p.93) ----------------------------------------------------------------------------


@sponsor_rule("mishkin")
class Thumpermonkey(BuildEffect):
    """Electrical weapons and upgrades may be bought."""

    id = "thumpermonkey"
    title = "Thumpermonkey"
    page = 93
    grants = frozenset({"electrical"})


# --- Idris (p.94) ------------------------------------------------------------------------------


class _HalfPrice(BuildEffect):
    """One upgrade bought at half price (rounded as ``_half``)."""

    upgrade_id = ""

    def upgrade_cost(self, team: TeamBuild, v: VehicleBuild, u: FittedUpgrade, cost: int) -> int:
        return _half(cost) if u.upgrade.id == self.upgrade_id else cost


@sponsor_rule("idris")
class N2OAddict(_HalfPrice):
    """Nitro Boosters at half price."""

    id = "n2o_addict"
    title = "N2O Addict"
    page = 94
    upgrade_id = NITRO_BOOSTER


@sponsor_rule("idris")
class KissMyAsphalt(BuildEffect):
    """No Gyrocopters."""

    id = "kiss_my_asphalt"
    title = "Kiss My Asphalt"
    page = 94

    def check_vehicle(self, team: TeamBuild, v: VehicleBuild) -> Iterator[Violation]:
        if v.vehicle is not None and v.vehicle.id == GYROCOPTER:
            yield self.violation(v.name, GYROCOPTER, "an Idris team may not buy a Gyrocopter")


# --- Slime (p.95) ------------------------------------------------------------------------------


@sponsor_rule("slime")
class SpikedFist(BuildEffect):
    """Rams take no build slots."""

    id = "spiked_fist"
    title = "Spiked Fist"
    page = 95

    def upgrade_slots(
        self, team: TeamBuild, v: VehicleBuild, u: FittedUpgrade, slots: int
    ) -> int:
        return 0 if u.upgrade.id == RAM else slots


# --- The Warden (p.96) -------------------------------------------------------------------------


@sponsor_rule("warden")
class PrisonCars(BuildEffect):
    """Access to the Prison Car upgrade; its price and Hull changes are upgrade data."""

    id = "prison_cars"
    title = "Prison Cars"
    page = 96
    grants = frozenset({"prison_car"})


# --- Scarlett (p.97) ---------------------------------------------------------------------------


@sponsor_rule("scarlett")
class CrewQuarters(_HalfPrice):
    """Extra Crewmembers at half price."""

    id = "crew_quarters"
    title = "Crew Quarters"
    page = 97
    upgrade_id = EXTRA_CREWMEMBER


# --- Highway Patrol (p.98) ---------------------------------------------------------------------


@sponsor_rule("highway_patrol")
class LouderSiren(BuildEffect):
    """Access to the Louder Siren upgrade."""

    id = "louder_siren"
    title = "Louder Siren"
    page = 98
    grants = frozenset({"louder_siren"})


# --- Verney (p.99) -----------------------------------------------------------------------------


@sponsor_rule("verney")
class MicroPlateArmour(BuildEffect):
    """Access to the MicroPlate Armour upgrade."""

    id = "microplate_armour"
    title = "MicroPlate Armour"
    page = 99
    grants = frozenset({"microplate_armour"})


# --- Rusty's Bootleggers (p.102) ---------------------------------------------------------------


@sponsor_rule("rustys_bootleggers")
class TrailerTrash(BuildEffect):
    """Trailers may be bought, and the team must tow something: a middle- or heavyweight with a
    trailer, or a War Rig."""

    id = "trailer_trash"
    title = "Trailer Trash"
    page = 102
    grants = frozenset({str(UpgradeKind.TRAILER)})

    def check_team(self, team: TeamBuild) -> Iterator[Violation]:
        def hauls(v: VehicleBuild) -> bool:
            if v.vehicle is None:
                return False
            if v.vehicle.has_trailer:
                return True
            return v.weight is not Weight.LIGHTWEIGHT and bool(v.of_kind(UpgradeKind.TRAILER))

        if team.vehicles and not any(hauls(v) for v in team.vehicles):
            yield self.violation(
                None, None,
                "a Rusty's Bootleggers team needs a War Rig or a middle- or heavyweight "
                "vehicle towing a trailer",
            )


@sponsor_rule("rustys_bootleggers")
class Haulage(BuildEffect):
    """One trailer cargo free on each trailer-towing vehicle and War Rig."""

    id = "haulage"
    title = "Haulage"
    page = 102
    grants = frozenset({str(UpgradeKind.CARGO)})

    def upgrade_cost(self, team: TeamBuild, v: VehicleBuild, u: FittedUpgrade, cost: int) -> int:
        if u.upgrade.kind is not UpgradeKind.CARGO or not v.tows_trailer:
            return cost
        first = next(c for c in v.bought() if c.upgrade.kind is UpgradeKind.CARGO)
        return 0 if first is u else cost
