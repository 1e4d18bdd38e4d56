"""Convex-polygon helpers used by arcs, cover, surfaces and table edges.

Polygons are sequences of points, counter-clockwise unless noted. Pure maths, no rules.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from carnage.geometry.shapes import Point

_hypot: Final = math.hypot
"""Read once: compiled, each call of ``math.hypot`` would look the name up."""

Poly = Sequence[Point]

TOL: Final = 1e-7


def cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def signed_area(poly: Poly) -> float:
    n = len(poly)
    s = 0.0
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        s += x1 * y2 - x2 * y1
    return s / 2.0


def area(poly: Poly) -> float:
    return abs(signed_area(poly))


def ccw(poly: Poly) -> list[Point]:
    """The polygon with counter-clockwise orientation."""
    pts = list(poly)
    return pts[::-1] if signed_area(pts) < 0 else pts


def convex_hull(points: Sequence[Point]) -> list[Point]:
    """Monotone-chain hull, counter-clockwise, collinear points dropped.

    A point whose turn is within 1e-12 of straight is dropped only when it lies between its
    neighbours: points sorted by x then y that are nearly on one nearly vertical line (a
    rectangle turned by 1e-14 degrees) can make a far corner look collinear with two points
    on the same side of it, and dropping it would lose a real corner of the hull."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts
    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and _drop(lower[-2], lower[-1], p):
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and _drop(upper[-2], upper[-1], p):
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _drop(o: Point, a: Point, b: Point) -> bool:
    """Is ``a`` off the hull chain o -> a -> b: a right turn, or (nearly) straight with ``a``
    between ``o`` and ``b``?"""
    c = cross(o, a, b)
    if c <= 0.0:
        return True
    return c <= 1e-12 and (a[0] - o[0]) * (b[0] - a[0]) + (a[1] - o[1]) * (b[1] - a[1]) >= 0.0


def translate(poly: Poly, dx: float, dy: float) -> list[Point]:
    return [(x + dx, y + dy) for x, y in poly]


def sweep_hull(poly: Poly, a: Point, b: Point) -> list[Point]:
    """``poly`` swept along the segment a→b (its Minkowski sum with the segment), for a
    polygon given at offset zero."""
    return convex_hull([*translate(poly, *a), *translate(poly, *b)])


def clip_halfplane(poly: Poly, nx: float, ny: float, c: float) -> list[Point]:
    """Keep the part of ``poly`` with nx*x + ny*y <= c (boundary included)."""
    n = len(poly)
    if n == 0:
        return []
    vals = [nx * x + ny * y - c for x, y in poly]
    if max(vals) <= TOL:
        return list(poly)
    out: list[Point] = []
    for i in range(n):
        p = poly[i]
        dp = vals[i]
        j = i + 1 if i + 1 < n else 0
        dq = vals[j]
        if dp <= TOL:
            out.append(p)
        if (dp < -TOL and dq > TOL) or (dp > TOL and dq < -TOL):
            q = poly[j]
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def halfplanes(poly: Poly) -> list[tuple[float, float, float]]:
    """Outward half-planes (nx, ny, c) of a counter-clockwise convex polygon: inside is
    nx*x + ny*y <= c. Zero-length edges are skipped."""
    out = []
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        ex, ey = x2 - x1, y2 - y1
        ln = _hypot(ex, ey)
        if ln < 1e-12:
            continue
        nx, ny = ey / ln, -ex / ln
        out.append((nx, ny, nx * x1 + ny * y1))
    return out


def clip(subject: Poly, clipper: Poly) -> list[Point]:
    """Intersection of ``subject`` with the convex counter-clockwise ``clipper``
    (Sutherland–Hodgman). Touching contact yields a degenerate (zero-area) result."""
    return clip_planes(subject, halfplanes(clipper))


def clip_planes(
    subject: Poly, planes: Sequence[tuple[float, float, float]], dx: float = 0.0, dy: float = 0.0
) -> list[Point]:
    """``subject`` clipped by half-planes (as from ``halfplanes``) shifted by (dx, dy)."""
    out = list(subject)
    if not out:
        return out
    # A bounding circle of the subject skips the planes it lies well inside.
    n = len(out)
    cx = sum(p[0] for p in out) / n
    cy = sum(p[1] for p in out) / n
    r = max(_hypot(p[0] - cx, p[1] - cy) for p in out) + TOL
    for nx, ny, c in planes:
        cc = c + nx * dx + ny * dy
        if nx * cx + ny * cy + r <= cc:
            continue
        out = clip_halfplane(out, nx, ny, cc)
        if not out:
            break
    return out


def subtract(subject: Poly, cutter: Poly) -> list[list[Point]]:
    """``subject`` minus the convex ``cutter``, as convex pieces (both counter-clockwise)."""
    pieces: list[list[Point]] = []
    rest = list(subject)
    for nx, ny, c in halfplanes(cutter):
        outside = clip_halfplane(rest, -nx, -ny, -c)
        if len(outside) >= 3 and area(outside) > 1e-9:
            pieces.append(outside)
        rest = clip_halfplane(rest, nx, ny, c)
        if len(rest) < 3 or area(rest) <= 1e-9:
            break
    return pieces


def covered_by_union(subject: Poly, covers: Sequence[Poly], tol_area: float = 1e-6) -> bool:
    """True when the convex ``subject`` lies inside the union of the convex ``covers``
    (uncovered area at most ``tol_area`` mm²)."""
    remaining: list[list[Point]] = [ccw(subject)]
    for cov in covers:
        cc = ccw(cov)
        nxt: list[list[Point]] = []
        for piece in remaining:
            nxt.extend(subtract(piece, cc))
        remaining = nxt
        if not remaining:
            return True
    return sum(area(p) for p in remaining) <= tol_area
