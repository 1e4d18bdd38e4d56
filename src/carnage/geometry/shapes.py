"""Pure 2-D primitives: poses, oriented rectangles, convex polygons.

Units are millimetres and degrees; x right, y up; headings counter-clockwise from +x
(heading 90 faces +y). Positions are centres. Knows nothing of rules.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar, Final

_D2R: Final = math.pi / 180.0
"""``math.radians(x)`` is ``x * _D2R`` bit for bit (CPython multiplies by the same constant);
compiled, the product costs no call."""
_hypot: Final = math.hypot
_fmod: Final = math.fmod
"""Read once: compiled, each call of ``math.hypot`` and the like would look the name up."""

Point = tuple[float, float]

EPS: Final = 1e-9


_TOP: Final = 360.0 - 1e-12
"""Headings from here up to 360 are taken as 0."""


def norm_heading(deg: float) -> float:
    """Heading in [0, 360)."""
    if type(deg) is float and 0.0 <= deg < _TOP:
        return deg  # what the remainder below gives such a heading, bit for bit
    h = _fmod(deg, 360.0)
    if h < 0:
        h += 360.0
    return 0.0 if h >= _TOP else h


def heading_diff(a: float, b: float) -> float:
    """Signed smallest difference b - a in (-180, 180]."""
    d = _fmod(b - a, 360.0)
    if d <= -180.0:
        d += 360.0
    elif d > 180.0:
        d -= 360.0
    return d


def unit(deg: float) -> Point:
    r = deg * _D2R
    return (math.cos(r), math.sin(r))


def rotate(p: Point, deg: float) -> Point:
    c, s = unit(deg)
    return (p[0] * c - p[1] * s, p[0] * s + p[1] * c)


class Pose:
    """A position (centre, mm) and heading (degrees, CCW from +x). Immutable, compared and
    hashed by value like a frozen dataclass of its three fields (``VALUE_FIELDS``: how the
    snapshot codec saves it). A plain compiled class rather than a dataclass: made and read
    by the million in play, its fields are read straight from the object."""

    VALUE_FIELDS: ClassVar[tuple[str, ...]] = ("x", "y", "heading")
    __match_args__ = ("x", "y", "heading")

    def __init__(self, x: float, y: float, heading: float) -> None:
        # floats whether compiled or not (an int given is kept as the float it equals)
        self.x: Final = float(x)
        self.y: Final = float(y)
        self.heading: Final = float(heading)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pose):
            return NotImplemented
        return self.x == other.x and self.y == other.y and self.heading == other.heading

    def __hash__(self) -> int:
        return hash((self.x, self.y, self.heading))

    def __repr__(self) -> str:
        return f"Pose(x={self.x!r}, y={self.y!r}, heading={self.heading!r})"

    def __reduce__(self) -> tuple[type[Pose], tuple[float, float, float]]:
        return (Pose, (self.x, self.y, self.heading))

    def __copy__(self) -> Pose:
        return self  # immutable

    def __deepcopy__(self, memo: dict[int, object]) -> Pose:
        return self

    def forward(self) -> Point:
        return unit(self.heading)

    def to_world(self, local: Point) -> Point:
        """Local frame: +x forward along the heading, +y to the left."""
        wx, wy = rotate(local, self.heading)
        return (self.x + wx, self.y + wy)

    def to_local(self, world: Point) -> Point:
        return rotate((world[0] - self.x, world[1] - self.y), -self.heading)

    def compose(self, local: Pose) -> Pose:
        """The pose ``local`` expressed in this pose's frame, returned in world coordinates."""
        x, y = self.to_world((local.x, local.y))
        return Pose(x, y, norm_heading(self.heading + local.heading))

    def relative(self, other: Pose) -> Pose:
        """``other`` expressed in this pose's local frame (inverse of ``compose``)."""
        x, y = self.to_local((other.x, other.y))
        return Pose(x, y, norm_heading(other.heading - self.heading))


class Rect:
    """An oriented rectangle: ``length`` runs along the heading, ``width`` across it.
    Immutable and compared by value, as ``Pose`` is."""

    VALUE_FIELDS: ClassVar[tuple[str, ...]] = ("pose", "length", "width")
    __match_args__ = ("pose", "length", "width")

    def __init__(self, pose: Pose, length: float, width: float) -> None:
        self.pose: Final = pose
        self.length: Final = float(length)
        self.width: Final = float(width)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rect):
            return NotImplemented
        return self.pose == other.pose and self.length == other.length and \
            self.width == other.width

    def __hash__(self) -> int:
        return hash((self.pose, self.length, self.width))

    def __repr__(self) -> str:
        return f"Rect(pose={self.pose!r}, length={self.length!r}, width={self.width!r})"

    def __reduce__(self) -> tuple[type[Rect], tuple[Pose, float, float]]:
        return (Rect, (self.pose, self.length, self.width))

    def __copy__(self) -> Rect:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Rect:
        return self

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Front-left, front-right, rear-right, rear-left (counter-clockwise order reversed:
        the list is clockwise starting front-left)."""
        hl, hw = self.length / 2.0, self.width / 2.0
        p = self.pose
        # ``p.to_world`` of each corner, with the heading's cosine and sine worked out once
        c, s = unit(p.heading)
        x, y = p.x, p.y
        nl, nw = -hl, -hw
        return (
            (x + (hl * c - hw * s), y + (hl * s + hw * c)),
            (x + (hl * c - nw * s), y + (hl * s + nw * c)),
            (x + (nl * c - nw * s), y + (nl * s + nw * c)),
            (x + (nl * c - hw * s), y + (nl * s + hw * c)),
        )

    def polygon(self) -> list[Point]:
        """Corners counter-clockwise (rear-left, rear-right, front-right, front-left)."""
        p = self.pose
        x, y, h, ln, wd = p.x, p.y, p.heading, self.length, self.width
        if x and y and h and ln and wd:
            # remembered by value (no zero among them, so equal values are the same bits)
            return list(_rect_polygon(x, y, h, ln, wd))
        fl, fr, rr, rl = self.corners()
        return [rl, rr, fr, fl]

    def front_centre(self) -> Point:
        return self.pose.to_world((self.length / 2.0, 0.0))

    def rear_centre(self) -> Point:
        return self.pose.to_world((-self.length / 2.0, 0.0))

    def side_centre(self, left: bool) -> Point:
        return self.pose.to_world((0.0, self.width / 2.0 if left else -self.width / 2.0))

    def contains(self, pt: Point, tol: float = 0.0) -> bool:
        lx, ly = self.pose.to_local(pt)
        return abs(lx) <= self.length / 2.0 + tol and abs(ly) <= self.width / 2.0 + tol


@lru_cache(maxsize=8192)
def _rect_polygon(x: float, y: float, heading: float, length: float, width: float
                  ) -> tuple[Point, ...]:
    """``Rect.polygon`` of the rectangle with these figures (worked out as it does)."""
    fl, fr, rr, rl = Rect(Pose(x, y, heading), length, width).corners()
    return (rl, rr, fr, fl)


def _axes(poly: Sequence[Point]) -> list[Point]:
    out = []
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        ex, ey = x2 - x1, y2 - y1
        ln = _hypot(ex, ey)
        if ln > EPS:
            out.append((-ey / ln, ex / ln))
    return out


def _project(poly: Sequence[Point], axis: Point) -> tuple[float, float]:
    ax, ay = axis
    lo = hi = poly[0][0] * ax + poly[0][1] * ay
    for x, y in poly[1:]:
        d = x * ax + y * ay
        if d < lo:
            lo = d
        elif d > hi:
            hi = d
    return lo, hi


def penetration(a: Sequence[Point], b: Sequence[Point]) -> float:
    """Separating-axis test for convex polygons: the minimum overlap depth along any axis.

    Positive means the interiors overlap by that much; zero means they touch; negative is the
    separation gap along the best separating axis (a lower bound on the true distance).
    """
    return _least_depth(a, b, -math.inf)


def _rect_depth(x1: float, y1: float, x2: float, y2: float,
                a0: float, a1: float, a2: float, a3: float,
                a4: float, a5: float, a6: float, a7: float,
                b0: float, b1: float, b2: float, b3: float,
                b4: float, b5: float, b6: float, b7: float) -> float:
    """The overlap depth of rectangles ``a`` and ``b`` (corners ``a0, a1`` ... ``a6, a7``)
    over the normal of the edge from ``(x1, y1)`` to ``(x2, y2)``, as ``_least_depth`` works
    it out; inf when the edge is too short to give an axis."""
    ex = x2 - x1
    ey = y2 - y1
    ln = _hypot(ex, ey)
    if not ln > EPS:
        return math.inf
    ax = -ey / ln
    ay = ex / ln
    alo = ahi = a0 * ax + a1 * ay
    d = a2 * ax + a3 * ay
    if d < alo:
        alo = d
    elif d > ahi:
        ahi = d
    d = a4 * ax + a5 * ay
    if d < alo:
        alo = d
    elif d > ahi:
        ahi = d
    d = a6 * ax + a7 * ay
    if d < alo:
        alo = d
    elif d > ahi:
        ahi = d
    blo = bhi = b0 * ax + b1 * ay
    d = b2 * ax + b3 * ay
    if d < blo:
        blo = d
    elif d > bhi:
        bhi = d
    d = b4 * ax + b5 * ay
    if d < blo:
        blo = d
    elif d > bhi:
        bhi = d
    d = b6 * ax + b7 * ay
    if d < blo:
        blo = d
    elif d > bhi:
        bhi = d
    d = ahi - blo
    depth = bhi - alo
    if not depth < d:  # min(ahi - blo, bhi - alo), as the builtin picks
        depth = d
    return depth


def _least_depth(a: Sequence[Point], b: Sequence[Point], stop: float) -> float:
    """The least overlap depth over the edge normals of ``a`` then ``b`` (as ``_axes`` lists
    them, each projected as ``_project`` does), or the first depth below ``stop``: a caller
    that only needs to know whether the least depth is below ``stop`` learns it from the
    first axis that shows it. Every depth is worked out with the same operations in the same
    order as the plain loop over ``_axes``/``_project``, so the answer is the same float."""
    best = math.inf
    if len(a) == 4 and len(b) == 4:
        # two rectangles (the common case), unrolled: one native call per edge, its floats
        # never boxed (an edge too short to give an axis gives inf, which changes nothing)
        (a0, a1), (a2, a3), (a4, a5), (a6, a7) = a
        (b0, b1), (b2, b3), (b4, b5), (b6, b7) = b
        depth = _rect_depth(a0, a1, a2, a3, a0, a1, a2, a3, a4, a5, a6, a7,
                            b0, b1, b2, b3, b4, b5, b6, b7)
        if depth < best:
            best = depth
            if depth < stop:
                return depth
        depth = _rect_depth(a2, a3, a4, a5, a0, a1, a2, a3, a4, a5, a6, a7,
                            b0, b1, b2, b3, b4, b5, b6, b7)
        if depth < best:
            best = depth
            if depth < stop:
                return depth
        depth = _rect_depth(a4, a5, a6, a7, a0, a1, a2, a3, a4, a5, a6, a7,
                            b0, b1, b2, b3, b4, b5, b6, b7)
        if depth < best:
            best = depth
            if depth < stop:
                return depth
        depth = _rect_depth(a6, a7, a0, a1, a0, a1, a2, a3, a4, a5, a6, a7,
                            b0, b1, b2, b3, b4, b5, b6, b7)
        if depth < best:
            best = depth
            if depth < stop:
                return depth
        depth = _rect_depth(b0, b1, b2, b3, a0, a1, a2, a3, a4, a5, a6, a7,
                            b0, b1, b2, b3, b4, b5, b6, b7)
        if depth < best:
            best = depth
            if depth < stop:
                return depth
        depth = _rect_depth(b2, b3, b4, b5, a0, a1, a2, a3, a4, a5, a6, a7,
                            b0, b1, b2, b3, b4, b5, b6, b7)
        if depth < best:
            best = depth
            if depth < stop:
                return depth
        depth = _rect_depth(b4, b5, b6, b7, a0, a1, a2, a3, a4, a5, a6, a7,
                            b0, b1, b2, b3, b4, b5, b6, b7)
        if depth < best:
            best = depth
            if depth < stop:
                return depth
        depth = _rect_depth(b6, b7, b0, b1, a0, a1, a2, a3, a4, a5, a6, a7,
                            b0, b1, b2, b3, b4, b5, b6, b7)
        if depth < best:
            best = depth
            if depth < stop:
                return depth
        return best
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % n]
            ex = x2 - x1
            ey = y2 - y1
            ln = _hypot(ex, ey)
            if not ln > EPS:
                continue
            ax = -ey / ln
            ay = ex / ln
            px, py = a[0]
            alo = ahi = px * ax + py * ay
            for px, py in a:  # the first again changes nothing
                d = px * ax + py * ay
                if d < alo:
                    alo = d
                elif d > ahi:
                    ahi = d
            px, py = b[0]
            blo = bhi = px * ax + py * ay
            for px, py in b:
                d = px * ax + py * ay
                if d < blo:
                    blo = d
                elif d > bhi:
                    bhi = d
            d = ahi - blo
            depth = bhi - alo
            if not depth < d:
                depth = d
            if depth < best:
                best = depth
                if depth < stop:
                    return depth
    return best


def overlaps(a: Sequence[Point], b: Sequence[Point], tol: float = 1e-6) -> bool:
    """True when convex polygons ``a`` and ``b`` touch or overlap (within ``tol`` mm)."""
    return _least_depth(a, b, -tol) >= -tol


def deeper_than(a: Sequence[Point], b: Sequence[Point], depth: float) -> bool:
    """``penetration(a, b) > depth``, stopping at the first axis whose depth is not greater."""
    return _least_depth(a, b, math.nextafter(depth, math.inf)) > depth


def _seg_point_dist(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll < EPS else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / ll))
    cx, cy = ax + t * dx, ay + t * dy
    return _hypot(px - cx, py - cy)


def distance(a: Sequence[Point], b: Sequence[Point]) -> float:
    """Exact Euclidean distance between convex polygons (0 when they touch or overlap).

    The least of ``_seg_point_dist`` over every vertex of each polygon and every edge of
    the other, worked out inline with the same operations (so the same float)."""
    if _least_depth(a, b, 0.0) >= 0.0:
        return 0.0
    best = math.inf
    for poly, other in ((a, b), (b, a)):
        n = len(other)
        edges = []
        for i in range(n):
            sx, sy = other[i]
            ex, ey = other[(i + 1) % n]
            dx = ex - sx
            dy = ey - sy
            edges.append((sx, sy, dx, dy, dx * dx + dy * dy))
        for px, py in poly:
            for sx, sy, dx, dy, ll in edges:
                if ll < EPS:
                    t = 0.0
                else:
                    # max(0.0, min(1.0, u)), as the builtins pick
                    t = ((px - sx) * dx + (py - sy) * dy) / ll
                    if not t < 1.0:
                        t = 1.0
                    if not t > 0.0:
                        t = 0.0
                d = _hypot(px - (sx + t * dx), py - (sy + t * dy))
                if d < best:
                    best = d
    return best


def closest_points(a: Sequence[Point], b: Sequence[Point]) -> tuple[Point, Point, float]:
    """A closest pair (point on a, point on b) and their distance; for separated polygons."""
    best = (a[0], b[0], math.inf)
    for poly, other, swap in ((a, b, False), (b, a, True)):
        n = len(other)
        for p in poly:
            for i in range(n):
                s0, s1 = other[i], other[(i + 1) % n]
                dx, dy = s1[0] - s0[0], s1[1] - s0[1]
                ll = dx * dx + dy * dy
                t = 0.0
                if ll > EPS:
                    t = max(0.0, min(1.0, ((p[0] - s0[0]) * dx + (p[1] - s0[1]) * dy) / ll))
                q = (s0[0] + t * dx, s0[1] + t * dy)
                d = _hypot(p[0] - q[0], p[1] - q[1])
                if d < best[2]:
                    best = (q, p, d) if swap else (p, q, d)
    return best


def bounding_circle(poly: Sequence[Point]) -> tuple[float, float, float]:
    """Centre (the mean of the corners, summed as ``sum`` sums: 0 + x0 + x1 + ...) and radius
    (the farthest corner) of a circle holding ``poly``: a cheap first test before an exact
    one."""
    sx = sy = 0.0
    for x, y in poly:
        sx += x
        sy += y
    cx = sx / len(poly)
    cy = sy / len(poly)
    x, y = poly[0]
    r = _hypot(x - cx, y - cy)
    for x, y in poly:
        d = _hypot(x - cx, y - cy)
        if d > r:
            r = d
    return cx, cy, r
