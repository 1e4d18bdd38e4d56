"""The team-file input schema: what a player writes, before any checking.

A team file names a budget in cans, an optional sponsor and a list of vehicles. Weapons and
upgrades may be written as a bare id or as ``{id, facing}``; perks are bare ids. Ids are looked
up in the catalogue later (by id, alias or book name), so this layer only checks shapes and types.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator, model_validator

from carnage.catalog.models import Facing

NonEmpty = Annotated[str, Field(min_length=1)]


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


class VehicleSpec(_Spec):
    name: NonEmpty
    type: NonEmpty
    weapons: tuple[WeaponSpec, ...] = ()
    upgrades: tuple[UpgradeSpec, ...] = ()
    perks: tuple[NonEmpty, ...] = ()


class TeamSpec(_Spec):
    name: NonEmpty
    cans: StrictInt = Field(ge=1)
    """The agreed team size: the most the whole team may cost (p.64)."""
    sponsor: NonEmpty | None = None
    """No sponsor means sponsor rules are not in use (p.64, p.68, p.91)."""
    vehicles: tuple[VehicleSpec, ...] = ()
