"""Vehicle sections: the extension point a game uses to add its own part to a vehicle of a
team file, and the build mode that part brings.

A game whose vehicles carry state of their own (generated, mutated, corroded ...) declares a
``VehicleSection``: the key it is written under in a vehicle of a team file, the model that
reads it, and what it changes in the team builder: a build mode (a team with such a vehicle
is checked by the game's own build rules), the build effects every such vehicle carries, and
the special rules it adds in play. The game registers it when its package is imported
(importing ``carnage.rulesets`` imports every game). The team builder itself names no game:
a key in a vehicle that is neither a vehicle field nor a registered section is refused, and
the message says that no loaded game declares that section.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from carnage.catalog.loader import Catalog
    from carnage.team.model import TeamSpec, VehicleSpec
    from carnage.team.report import TeamReport

BuildMode = Callable[["TeamSpec", "Catalog", bool], "TeamReport"]
"""``check_team`` for a team built by a game's own rules: (spec, catalogue, homebrew)."""


@dataclass(frozen=True)
class VehicleSection:
    """One game's section of a vehicle in a team file."""

    key: str
    """The key the section is written under in a vehicle (the file format: never changes)."""
    model: type[BaseModel]
    """The model that reads the section (frozen, ``extra="forbid"``)."""
    title: str
    """The game's name, for messages."""
    build_mode: BuildMode | None = None
    """How a team with a vehicle carrying this section is resolved, priced and checked
    instead of the core build rules; None: the core rules."""
    build_effects: tuple[str, ...] = ()
    """Ids of vehicle build effects (``effects.VEHICLE_RULES``) every vehicle carrying the
    section has."""
    special_rules: Callable[[Any], Iterable[str]] | None = None
    """The special rules the section adds to its vehicle in play (from the section's value)."""


SECTIONS: dict[str, VehicleSection] = {}
"""Registered sections by key, in registration order."""

class SectionError(ValueError):
    """A section cannot be registered, or a vehicle's section cannot be read."""


def register_vehicle_section(section: VehicleSection) -> VehicleSection:
    """Declare ``section``; registering the same key again replaces it (a module reloaded).
    No section may take a key of the vehicle's own (``model.VehicleSpec``)."""
    from carnage.team.model import VehicleSpec

    if section.key in VehicleSpec.model_fields:
        raise SectionError(f"{section.key!r} is a field of every vehicle, not a section")
    if not section.key.isidentifier():
        raise SectionError(f"a section key is a plain name, not {section.key!r}")
    SECTIONS[section.key] = section
    return section


def unregister_vehicle_section(key: str) -> VehicleSection | None:
    """Forget the section ``key`` (tests of the unregistered case); what was registered."""
    return SECTIONS.pop(key, None)


def section_of(v: VehicleSpec, key: str) -> Any:
    """The value of ``v``'s section ``key`` (the section model's instance), or None."""
    extra = v.__pydantic_extra__
    return None if extra is None else extra.get(key)


def sections_of(v: VehicleSpec) -> list[tuple[VehicleSection, Any]]:
    """Every registered section ``v`` carries, with its value, in registration order."""
    extra = v.__pydantic_extra__
    if not extra:
        return []
    return [(s, extra[k]) for k, s in SECTIONS.items() if extra.get(k) is not None]


def build_mode_for(spec: TeamSpec) -> BuildMode | None:
    """The build mode of the first registered section one of ``spec``'s vehicles carries
    that has one; None: the core build rules."""
    for s in SECTIONS.values():
        if s.build_mode is not None and any(section_of(v, s.key) is not None
                                            for v in spec.vehicles):
            return s.build_mode
    return None


def unknown_key_message(key: str) -> str:
    """Why ``key`` in a vehicle is refused: no vehicle field and no loaded section."""
    loaded = ", ".join(f"{k} ({s.title})" for k, s in SECTIONS.items()) or "none"
    return (f"unknown key (not part of a team file: no loaded game declares a vehicle section "
            f"{key!r}; sections loaded: {loaded})")
