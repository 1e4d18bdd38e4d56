"""The team-file input schema: what a player writes, before any checking.

A team file names a budget in cans, an optional sponsor and a list of vehicles. Weapons and
upgrades may be written as a bare id or as ``{id, facing}``; perks are bare ids. Ids are looked
up in the catalogue later (by id, alias or book name), so this layer only checks shapes and types.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    field_serializer,
    field_validator,
    model_validator,
)

from carnage import bounds
from carnage.catalog.models import Facing

NonEmpty = Annotated[str, Field(min_length=1, max_length=200)]
Career = Annotated[int, Field(strict=True, ge=0, le=bounds.MAX_CAREER)]
"""A career count (dents, wear, losses): bounded by ruling IN-3."""
Ids = Annotated[tuple[NonEmpty, ...], Field(max_length=bounds.MAX_LIST)]
"""A list of ids in a team file: at most ``bounds.MAX_LIST`` (ruling IN-4)."""


def _upto(high: int) -> Any:
    return Field(default=0, ge=0, le=high)


class Mount(StrEnum):
    """Which part of an articulated vehicle carries a weapon (War Rig, trailers; p.117, p.103)."""

    CAB = "cab"
    TRAILER = "trailer"


def _lower(v: Any) -> Any:
    return v.strip().lower() if isinstance(v, str) else v


def _bare_id(v: Any) -> Any:
    """A bare string item is shorthand for ``{id: <string>}``."""
    return {"id": v} if isinstance(v, str) else v


class _Spec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class WeaponSpec(_Spec):
    id: NonEmpty
    facing: Facing | None = None
    """Omitted for weapons that need no facing (crew-fired, 360-degree)."""
    mount: Mount | None = None
    """Cab or trailer, for articulated vehicles only; omitted means the cab."""

    @field_validator("facing", "mount", mode="before")
    @classmethod
    def _case(cls, v: Any) -> Any:
        return _lower(v)

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, v: Any) -> Any:
        return _bare_id(v)


class UpgradeSpec(_Spec):
    id: NonEmpty
    facing: Facing | None = None
    """Only for upgrades fitted to a facing (Ram, Exploding Ram)."""

    @field_validator("facing", mode="before")
    @classmethod
    def _case(cls, v: Any) -> Any:
        return _lower(v)

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, v: Any) -> Any:
        return _bare_id(v)


class CareerSpec(_Spec):
    """What a vehicle carries from game to game in a campaign (Refuelled pp.162-167): its
    dents, injuries and permanent wear. Absent on a vehicle that has no campaign behind it."""

    dents: Career = 0
    """Dents on the dashboard (p.162): no effect in play; raise the wreck roll; buy injuries."""
    injuries: Ids = ()
    """Injury ids bought with dents (p.163), each at most once."""
    free_perks: Ids = ()
    """Perks in ``perks`` that cost nothing and ignore the sponsor's classes (Badass, p.163)."""
    crew_loss: Career = 0
    """Crew lost for good (Upholstery ruined, p.162); Crew never drops below 1."""
    hull_loss: Career = 0
    """Hull Value lost for good (Ride Eternal, p.167); Hull never drops below 1."""
    weakened_chassis: Career = 0
    """Extra Hazards in every Collision (Weakened chassis, p.162)."""
    audience_favourite: Career = 0
    """Votes its controller discards whenever it is Wrecked, in threes (p.162)."""
    lost: Ids = ()
    """Weapons, upgrades and perks lost for good, for the record (they may be bought again)."""

    @field_validator("injuries", "free_perks", "lost", mode="before")
    @classmethod
    def _ids(cls, v: Any) -> Any:
        return tuple(_lower(x) for x in v) if isinstance(v, list | tuple) else v


class LegacySpec(_Spec):
    """A Gaslands: Legacy vehicle's generated and permanent state (Legacy, "Creating a Legacy
    Team", nano-mutations, corrosion). Present: the vehicle is built by the Legacy build rules
    (carnage/games/legacy/team.py); its generator and mutations are carnage/games/legacy/."""

    hull: StrictInt = _upto(bounds.LEGACY_MAX_HULL)
    """Hull gained over the type's (the generator's bonus and mutations)."""
    handling: StrictInt = _upto(bounds.LEGACY_MAX_HANDLING)
    max_gear: StrictInt = _upto(bounds.LEGACY_MAX_GEAR_GAIN)
    crew: StrictInt = _upto(bounds.LEGACY_MAX_CREW)
    """Crew gained: never capped (mutations are not the Extra Crewmember upgrade)."""
    rating: StrictInt = _upto(bounds.MAX_RATING)
    """The Vehicle Rating: the generator's, plus what mutations and other rules add."""
    mutations: Annotated[tuple[NonEmpty, ...], Field(max_length=bounds.LEGACY_MUTATIONS)] = ()
    """Mutation ids gained, in the order gained (the vehicle's own sequence)."""
    traits: Annotated[tuple[NonEmpty, ...], Field(max_length=bounds.LEGACY_MUTATIONS)] = ()
    """Play effects mutations gave that are no item (``heavier``, ``hazard_tolerance``)."""
    corroded: StrictInt = _upto(bounds.LEGACY_MAX_BOXES)
    """Hull boxes permanently marked with corrosion."""
    filled: StrictInt = _upto(bounds.LEGACY_MAX_BOXES)
    """Hull boxes permanently filled in by the Nano-Cloaking Device: Hull lost for good."""
    notes: Ids = ()
    """Permanent notes on the dashboard (e.g. ``dinosaur-blood``)."""


class VehicleSpec(_Spec):
    name: NonEmpty
    type: NonEmpty
    weapons: Annotated[tuple[WeaponSpec, ...], Field(max_length=bounds.MAX_LIST)] = ()
    upgrades: Annotated[tuple[UpgradeSpec, ...], Field(max_length=bounds.MAX_LIST)] = ()
    perks: Ids = ()
    career: CareerSpec | None = None
    """Campaign wear (dents, injuries, losses); None outside a campaign."""
    legacy: LegacySpec | None = None
    """A Gaslands: Legacy vehicle (generated, mutated, corroded); None for any other."""


class TeamSpec(_Spec):
    name: NonEmpty
    cans: StrictInt = Field(ge=1, le=bounds.MAX_RATING)
    """The agreed team size: the most the whole team may cost (p.64)."""
    sponsor: NonEmpty | None = None
    """No sponsor means sponsor rules are not in use (p.64, p.68, p.91)."""
    vehicles: Annotated[tuple[VehicleSpec, ...], Field(max_length=bounds.MAX_LIST)] = ()
    templates: Any = None
    """The team's own movement templates (a ``TeamTemplateSet`` of
    carnage/geometry/team_templates.py, written as its ``to_json`` form; Gaslands: Legacy, "Legacy
    Templates"); None: the standard set."""

    @field_validator("templates", mode="before")
    @classmethod
    def _templates(cls, v: Any) -> Any:
        if v is None:
            return None
        from carnage.geometry.team_templates import TemplateError, parse_template_set

        try:
            return parse_template_set(v)
        except TemplateError as e:
            raise ValueError(str(e)) from None

    @field_serializer("templates")
    def _dump_templates(self, v: Any) -> Any:
        return None if v is None else v.to_json()
