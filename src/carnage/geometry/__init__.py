"""Pure 2-D geometry for the Gaslands table: poses, footprints, templates, sweeps, arcs."""

from carnage.geometry.shapes import Point, Pose, Rect, distance, overlaps, penetration

__all__ = ["Point", "Pose", "Rect", "distance", "overlaps", "penetration"]
