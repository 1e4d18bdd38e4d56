"""Pure 2-D geometry for the Gaslands table: poses, footprints, templates, sweeps, arcs."""

from carnage.geometry.shapes import Point, Pose, Rect, distance, overlaps, penetration

__all__ = ["Point", "Pose", "Rect", "distance", "overlaps", "penetration"]

from carnage.geometry.collision import (
    Obstruction,
    collision_contact,
    collision_orientation,
)
from carnage.geometry.footprints import body, footprint
from carnage.geometry.movement import (
    MoveResult,
    TemplatePath,
    final_pose,
    path_for,
    pivot,
    resolve_move,
    template_path,
)

__all__ += [
    "MoveResult",
    "Obstruction",
    "TemplatePath",
    "body",
    "collision_contact",
    "collision_orientation",
    "final_pose",
    "footprint",
    "path_for",
    "pivot",
    "resolve_move",
    "template_path",
]
