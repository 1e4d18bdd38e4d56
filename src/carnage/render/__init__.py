"""Carnage render layer: pure functions from a table description to SVG."""

from carnage.render.svg import (
    ArcShape,
    ObstacleShape,
    PathShape,
    SurfaceShape,
    TableView,
    TemplateShape,
    VehicleShape,
    render_svg,
)

__all__ = [
    "ArcShape",
    "ObstacleShape",
    "PathShape",
    "SurfaceShape",
    "TableView",
    "TemplateShape",
    "VehicleShape",
    "render_svg",
]
