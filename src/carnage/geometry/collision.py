"""Obstructions and collision orientation (Refuelled pp.52–53).

Pure geometry: an ``Obstruction`` is any convex outline on the table (vehicle, obstacle,
wreck); ``collision_orientation`` classifies a contact between two vehicle bodies by the
edges that touch, with the book's corner and reversing rules.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Final, Literal

from mypy_extensions import mypyc_attr

from carnage.geometry.shapes import Point, Rect, closest_points, penetration

_hypot: Final = math.hypot
"""Read once: compiled, each call of ``math.hypot`` would look the name up."""

TOUCH_TOL: Final = 0.1
"""Two outlines closer than this (mm) are touching."""

CORNER_TOL: Final = 0.5
"""A contact point within this (mm) of two edges is on the corner between them."""

Edge = Literal["front", "side", "rear"]
Orientation = Literal["head_on", "t_bone", "tailgate"]


def _signed_area(poly: tuple[Point, ...]) -> float:
    a = 0.0
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        a += x1 * y2 - x2 * y1
    return a / 2.0


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Obstruction:
    """A convex outline on the table, vertices counter-clockwise (clockwise input is reversed).

    ``axes`` holds each distinct edge normal with the outline's projection on it, and
    ``centre``/``radius`` a bounding circle: both precomputed for the sweep's fast tests.
    """

    id: str
    polygon: tuple[Point, ...]
    axes: tuple[tuple[float, float, float, float], ...] = field(
        init=False, repr=False, compare=False
    )
    centre: Point = field(init=False, repr=False, compare=False)
    radius: float = field(init=False, repr=False, compare=False)
    circle: tuple[float, float, float] = field(init=False, repr=False, compare=False)
    """``centre`` and ``radius`` in one tuple, for the broad phase's tight loop."""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise ValueError("obstruction id must be a non-empty string")
        try:
            poly = tuple((float(x), float(y)) for x, y in self.polygon)
        except (TypeError, ValueError) as e:
            raise ValueError(f"obstruction {self.id}: polygon must be (x, y) pairs") from e
        if len(poly) < 3:
            raise ValueError(f"obstruction {self.id}: polygon needs at least 3 vertices")
        if not all(math.isfinite(c) for p in poly for c in p):
            raise ValueError(f"obstruction {self.id}: polygon has a non-finite coordinate")
        area = _signed_area(poly)
        if abs(area) < 1e-9:
            raise ValueError(f"obstruction {self.id}: polygon has no area")
        if area < 0:
            poly = poly[::-1]
        n = len(poly)
        for i in range(n):
            ax, ay = poly[i]
            bx, by = poly[(i + 1) % n]
            cx, cy = poly[(i + 2) % n]
            if (bx - ax) * (cy - by) - (by - ay) * (cx - bx) < -1e-9:
                raise ValueError(f"obstruction {self.id}: polygon is not convex")
        object.__setattr__(self, "polygon", poly)
        axes: list[tuple[float, float, float, float]] = []
        for i in range(n):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % n]
            ex, ey = x2 - x1, y2 - y1
            ln = _hypot(ex, ey)
            if ln < 1e-9:
                continue
            nx, ny = ey / ln, -ex / ln
            if any(abs(nx * a[0] + ny * a[1]) > 1.0 - 1e-12 for a in axes):
                continue
            proj = [x * nx + y * ny for x, y in poly]
            axes.append((nx, ny, min(proj), max(proj)))
        object.__setattr__(self, "axes", tuple(axes))
        mx = sum(p[0] for p in poly) / n
        my = sum(p[1] for p in poly) / n
        object.__setattr__(self, "centre", (mx, my))
        object.__setattr__(self, "radius", max(_hypot(x - mx, y - my) for x, y in poly))
        object.__setattr__(self, "circle", (mx, my, self.radius))

    @staticmethod
    def from_rect(id: str, rect: Rect) -> Obstruction:
        """A rectangular obstruction (a vehicle body or a box-shaped obstacle)."""
        return Obstruction(id, tuple(rect.polygon()))


# ------------------------------------------------------------------ collision orientation


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Contact:
    """Where two touching bodies meet: a representative point and the edge hit on each."""

    point_a: Point
    point_b: Point
    edge_a: Edge
    edge_b: Edge
    orientation: Orientation


def _clip(poly: list[Point], a: Point, b: Point) -> list[Point]:
    """Keep the part of convex ``poly`` left of the directed line a->b."""
    out: list[Point] = []
    n = len(poly)
    if n == 0:
        return out
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay

    def side(p: Point) -> float:
        return dx * (p[1] - ay) - dy * (p[0] - ax)

    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        sp, sq = side(p), side(q)
        if sp >= 0:
            out.append(p)
        if (sp >= 0) != (sq >= 0):
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _patch_mid(points: list[Point]) -> Point:
    """Midpoint of the two most distant points of a contact patch."""
    best = (points[0], points[0])
    bd = -1.0
    for i, p in enumerate(points):
        for q in points[i:]:
            d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2
            if d > bd:
                bd, best = d, (p, q)
    return ((best[0][0] + best[1][0]) / 2.0, (best[0][1] + best[1][1]) / 2.0)


def _on_segment_near(p: Point, poly: list[Point], tol: float) -> bool:
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ll = dx * dx + dy * dy
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll))
        if _hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy) <= tol:
            return True
    return False


def _project_to_boundary(p: Point, poly: list[Point]) -> Point:
    best = p
    bd = math.inf
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ll = dx * dx + dy * dy
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll))
        q = (a[0] + t * dx, a[1] + t * dy)
        d = _hypot(p[0] - q[0], p[1] - q[1])
        if d < bd:
            bd, best = d, q
    return best


def _contact_points(a: Rect, b: Rect) -> tuple[Point, Point] | None:
    """Representative contact point on each body's outline, or None if not touching."""
    pa, pb = a.polygon(), b.polygon()
    pen = penetration(pa, pb)
    if pen > 1e-6:
        # Overlapping: the patch is the intersection; its centre, pushed to each outline.
        inter: list[Point] = list(pa)
        for i in range(len(pb)):
            inter = _clip(inter, pb[i], pb[(i + 1) % len(pb)])
        if not inter:
            return None
        cx = sum(p[0] for p in inter) / len(inter)
        cy = sum(p[1] for p in inter) / len(inter)
        return _project_to_boundary((cx, cy), pa), _project_to_boundary((cx, cy), pb)
    _, _, gap = closest_points(pa, pb)
    if gap > TOUCH_TOL:
        return None
    tol = gap + 1e-3
    patch_a: list[Point] = [p for p in pa if _on_segment_near(p, pb, tol)]
    patch_a += [_project_to_boundary(q, pa) for q in pb if _on_segment_near(q, pa, tol)]
    patch_b: list[Point] = [q for q in pb if _on_segment_near(q, pa, tol)]
    patch_b += [_project_to_boundary(p, pb) for p in pa if _on_segment_near(p, pb, tol)]
    if not patch_a or not patch_b:
        p_a, p_b, _ = closest_points(pa, pb)
        return p_a, p_b
    return _patch_mid(patch_a), _patch_mid(patch_b)


def contact_edge(body: Rect, point: Point, *, reversing: bool = False) -> Edge:
    """Which edge of ``body`` a contact point is on (Refuelled p.53): a front/side corner
    counts as front, a rear/side corner as side; a reversing body swaps front and rear."""
    lx, ly = body.pose.to_local(point)
    hl, hw = body.length / 2.0, body.width / 2.0
    if reversing:
        lx = -lx
    d_front, d_rear, d_side = hl - lx, hl + lx, hw - abs(ly)
    on_front = d_front <= CORNER_TOL
    on_rear = d_rear <= CORNER_TOL
    on_side = d_side <= CORNER_TOL
    if on_front and not on_rear:
        return "front"
    if on_side:
        return "side"
    if on_rear:
        return "rear"
    nearest = min(d_front, d_rear, d_side)
    if nearest == d_front:
        return "front"
    return "side" if nearest == d_side else "rear"


def _orientation(ea: Edge, eb: Edge) -> Orientation:
    # Refuelled p.53: both fronts -> head-on; any side -> T-bone; otherwise a rear -> tailgate.
    if ea == "front" and eb == "front":
        return "head_on"
    if "side" in (ea, eb):
        return "t_bone"
    return "tailgate"


def collision_contact(
    a: Rect, b: Rect, *, a_reversing: bool = False, b_reversing: bool = False
) -> Contact | None:
    """The contact between two vehicle bodies (``a`` active), or None if not touching."""
    pts = _contact_points(a, b)
    if pts is None:
        return None
    ea = contact_edge(a, pts[0], reversing=a_reversing)
    eb = contact_edge(b, pts[1], reversing=b_reversing)
    return Contact(pts[0], pts[1], ea, eb, _orientation(ea, eb))


def collision_orientation(
    a: Rect, b: Rect, *, a_reversing: bool = False, b_reversing: bool = False
) -> str | None:
    """``head_on``, ``t_bone`` or ``tailgate`` for two touching vehicles (Refuelled pp.52–53),
    seen from ``a`` (the active vehicle); None when they do not touch."""
    c = collision_contact(a, b, a_reversing=a_reversing, b_reversing=b_reversing)
    return None if c is None else c.orientation
