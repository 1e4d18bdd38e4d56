"""Surfaces under a move (Refuelled p.86) and the pieces a move covers on the table.

Geometry only: which surfaces a move's template and final position lie on. Our reading:
a Road counts only when every part of template and final position is on road (the union
of all road pieces); Rough and Treacherous count when any part overlaps one with some
area (touching an edge is not overlapping). What that costs in hazards is a rule, not here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from carnage.geometry.convex import covered_by_union
from carnage.geometry.shapes import Point, Rect, penetration, unit

if TYPE_CHECKING:
    from carnage.geometry.movement import MoveResult, TemplatePath

PIECE_STEP_DEG: Final = 0.5
"""Angular step of the pieces standing in for curved templates. Their corners lie on the
template's true outline, so they fall inside it by at most (r + w/2)·(1 − cos 0.25°),
under 0.003 mm for the shipped templates."""

OVERLAP: Final = 1e-6
"""Depth (mm) above which two shapes overlap rather than touch."""


class SurfaceKind(StrEnum):
    ROAD = "road"
    ROUGH = "rough"
    TREACHEROUS = "treacherous"


def parse_surface_kind(kind: str) -> SurfaceKind:
    try:
        return SurfaceKind(str(kind).strip().lower())
    except ValueError:
        raise ValueError(
            f"unknown surface kind {kind!r} (known: road, rough, treacherous)"
        ) from None


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Surface:
    id: str
    kind: SurfaceKind
    polygon: tuple[Point, ...]
    """A convex outline."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class SurfaceReport:
    """Where a move ran: all on road, and which rough / treacherous surfaces it touched."""

    road: bool
    rough: tuple[str, ...]
    treacherous: tuple[str, ...]

    @property
    def on_rough(self) -> bool:
        return bool(self.rough)

    @property
    def on_treacherous(self) -> bool:
        return bool(self.treacherous)


def template_pieces(
    path: TemplatePath, upto: float | None = None, step_deg: float = PIECE_STEP_DEG
) -> list[list[Point]]:
    """Convex quadrilaterals covering a laid movement template from its start to ``upto``
    mm along the centreline (default: all of it). Straights give one piece each; arcs a
    piece every ``step_deg`` degrees of turn."""
    end = path.length if upto is None else min(max(upto, 0.0), path.length)
    stations = [0.0]
    s0 = 0.0
    for seg in path.spec.segments:
        s1 = s0 + seg.arc_length
        a, b = s0, min(s1, end)
        if b > a + 1e-12:
            n = 1
            if seg.radius is not None:
                n = max(1, math.ceil(math.degrees((b - a) / seg.radius) / step_deg))
            stations += [a + (b - a) * i / n for i in range(1, n + 1)]
        s0 = s1
    hw = path.width / 2.0
    left: list[Point] = []
    right: list[Point] = []
    for s in stations:
        p = path.pose_at(s)
        c, sn = unit(p.heading)  # Pose.to_world of (0, ±hw), the turn worked out once
        left.append((p.x + (0.0 * c - hw * sn), p.y + (0.0 * sn + hw * c)))
        right.append((p.x + (0.0 * c - -hw * sn), p.y + (0.0 * sn + -hw * c)))
    return [[right[i], right[i + 1], left[i + 1], left[i]] for i in range(len(stations) - 1)]


def move_pieces(result: MoveResult) -> list[list[Point]]:
    """Everything a resolved move covers for surface and edge checks: the template (only up
    to the slide exit point when the vehicle slid, Refuelled p.50), the Slide template, and
    the final position."""
    path = result.path
    if result.slide_template is not None:
        parts = template_pieces(path, path.slide_exit)
        parts.extend(result.slide_pieces)
    else:
        parts = template_pieces(path)
    parts.append(result.body.polygon())
    return parts


def surface_report(parts: Sequence[Sequence[Point]], surfaces: Sequence[Surface]) -> SurfaceReport:
    """Which surfaces the convex ``parts`` (template pieces, final body) lie on."""
    roads = [s.polygon for s in surfaces if s.kind is SurfaceKind.ROAD]
    on_road = bool(parts) and bool(roads) and all(covered_by_union(p, roads) for p in parts)

    def hit(kind: SurfaceKind) -> tuple[str, ...]:
        return tuple(
            s.id
            for s in surfaces
            if s.kind is kind and any(penetration(p, s.polygon) > OVERLAP for p in parts)
        )

    return SurfaceReport(on_road, hit(SurfaceKind.ROUGH), hit(SurfaceKind.TREACHEROUS))


def surface_from_rect(id: str, kind: str | SurfaceKind, rect: Rect) -> Surface:
    k = kind if isinstance(kind, SurfaceKind) else parse_surface_kind(kind)
    return Surface(id, k, tuple(rect.polygon()))
