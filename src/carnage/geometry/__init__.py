"""Pure 2-D geometry for the Gaslands table: poses, footprints, templates, sweeps, arcs."""

from carnage.geometry.shapes import Point, Pose, Rect, distance, overlaps, penetration

__all__ = ["Point", "Pose", "Rect", "distance", "overlaps", "penetration"]

from carnage.geometry.arcs import Arc, PlacementFamily, can_reach, parse_arc
from carnage.geometry.collision import (
    Obstruction,
    collision_contact,
    collision_orientation,
)
from carnage.geometry.cover import Blocker, FireCheck, check_fire
from carnage.geometry.footprints import body, footprint
from carnage.geometry.movement import (
    MoveResult,
    TemplatePath,
    cab_ahead,
    final_pose,
    hitch_trailer,
    path_for,
    pivot,
    resolve_move,
    spin_body,
    template_path,
    trailer_behind,
)
from carnage.geometry.ranges import ShootingTemplate, range_band, shooting_template
from carnage.geometry.surfaces import Surface, SurfaceKind, SurfaceReport, surface_report
from carnage.geometry.table import Table, off_table, template_off_table

__all__ += [
    "MoveResult",
    "Obstruction",
    "TemplatePath",
    "body",
    "cab_ahead",
    "collision_contact",
    "collision_orientation",
    "final_pose",
    "footprint",
    "hitch_trailer",
    "path_for",
    "pivot",
    "resolve_move",
    "spin_body",
    "template_path",
    "trailer_behind",
]


__all__ += [
    "Arc",
    "Blocker",
    "FireCheck",
    "PlacementFamily",
    "ShootingTemplate",
    "Surface",
    "SurfaceKind",
    "SurfaceReport",
    "Table",
    "can_reach",
    "check_fire",
    "off_table",
    "parse_arc",
    "range_band",
    "shooting_template",
    "surface_report",
    "template_off_table",
]
