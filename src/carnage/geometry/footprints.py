"""Vehicle footprints: base sizes by vehicle type (Refuelled p.177).

The type -> size table lives in the one template data file (``vehicle_types`` and
``footprints``), so a measured or scaled set carries its own footprints.
"""

from __future__ import annotations

from carnage.geometry.shapes import Pose, Rect
from carnage.geometry.templateset import TemplateSet, default_template_set


def vehicle_types(ts: TemplateSet | None = None) -> tuple[str, ...]:
    """Every vehicle type id with a known footprint."""
    ts = ts or default_template_set()
    types = ts.vehicle_types or default_template_set().vehicle_types
    return tuple(sorted(types))


def footprint(vehicle_type: str, ts: TemplateSet | None = None) -> tuple[float, float]:
    """(length, width) in mm of a vehicle type's base. A War Rig's cab is ``war_rig``; its
    trailer is ``war_rig_trailer`` (two linked bodies)."""
    ts = ts or default_template_set()
    # A measured set without its own type table borrows the shipped one.
    types = ts.vehicle_types or default_template_set().vehicle_types
    key = types.get(vehicle_type)
    if key is None:
        known = ", ".join(sorted(types))
        raise ValueError(f"unknown vehicle type {vehicle_type!r} (known: {known})")
    size = ts.footprints.get(key)
    if size is None:
        raise ValueError(f"template set {ts.name!r} has no footprint {key!r} for {vehicle_type}")
    return size


def body(vehicle_type: str, pose: Pose, ts: TemplateSet | None = None) -> Rect:
    """The vehicle's base as an oriented rectangle at ``pose``."""
    length, width = footprint(vehicle_type, ts)
    return Rect(pose, length, width)
