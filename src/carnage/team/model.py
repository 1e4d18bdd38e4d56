"""The team-file input schema: what a player writes, before any checking.

A team file names a budget in cans, an optional sponsor and a list of vehicles. Weapons and
upgrades may be written as a bare id or as ``{id, facing}``; perks are bare ids. Ids are looked
up in the catalogue later (by id, alias or book name), so this layer only checks shapes and types.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    ValidationError,
    field_serializer,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from carnage import bounds
from carnage.catalog.models import Facing
from carnage.team.sections import SECTIONS, unknown_key_message

SECTION_UNKNOWN = "vehicle_section_unknown"
"""Error type of a vehicle key that is no field and no registered section."""
SECTION_INVALID = "vehicle_section_invalid"
"""Error type of a registered section its model refuses (``errors`` in the context)."""

NonEmpty = Annotated[str, Field(min_length=1, max_length=200)]
Career = Annotated[int, Field(strict=True, ge=0, le=bounds.MAX_CAREER)]
"""A career count (dents, wear, losses): bounded by ruling IN-3."""
Ids = Annotated[tuple[NonEmpty, ...], Field(max_length=bounds.MAX_LIST)]
"""A list of ids in a team file: at most ``bounds.MAX_LIST`` (ruling IN-4)."""


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


class VehicleSpec(_Spec):
    """One vehicle of a team file. Beside its own keys, a vehicle may carry a game's section
    (``team/sections.py``: a key a loaded game registered, read by that game's model); a
    section is kept as an extra of the model: ``sections.section_of(v, key)``, or ``v.<key>``
    (None when the vehicle has no such section)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    name: NonEmpty
    type: NonEmpty
    weapons: Annotated[tuple[WeaponSpec, ...], Field(max_length=bounds.MAX_LIST)] = ()
    upgrades: Annotated[tuple[UpgradeSpec, ...], Field(max_length=bounds.MAX_LIST)] = ()
    perks: Ids = ()
    career: CareerSpec | None = None
    """Campaign wear (dents, injuries, losses); None outside a campaign."""

    @model_validator(mode="before")
    @classmethod
    def _sections(cls, v: Any) -> Any:
        """Read every registered section with its model; refuse any other unknown key."""
        if not isinstance(v, Mapping):
            return v
        keys = [k for k in v if k not in cls.model_fields]
        if not keys:
            return v
        unknown = [k for k in keys if not (isinstance(k, str) and k in SECTIONS)]
        if unknown:
            raise PydanticCustomError(
                SECTION_UNKNOWN, "{message}",
                {"keys": unknown, "message": "; ".join(
                    f"{k}: {unknown_key_message(str(k))}" for k in unknown)})
        out = dict(v)
        for k in keys:
            section = SECTIONS[k]
            if out[k] is None:
                del out[k]
                continue
            try:
                out[k] = section.model.model_validate(out[k])
            except ValidationError as e:
                raise PydanticCustomError(
                    SECTION_INVALID, "{key}: {message}",
                    {"key": k, "message": str(e), "errors": e.errors()}) from None
        return out

    if not TYPE_CHECKING:
        def __getattr__(self, name: str) -> Any:
            # A registered section the vehicle does not carry reads as None.
            try:
                return super().__getattr__(name)
            except AttributeError:
                if name in SECTIONS:
                    return None
                raise


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
