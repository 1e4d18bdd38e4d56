"""Arcs of fire: where a shooting template may be laid against the shooter
(Refuelled pp.28–30), and whether any such placement can touch a target.

Placement rules, in our words:

* front: the template's near edge lies on the line of the shooter's front edge, facing
  straight ahead, and touches the front edge somewhere (it may overhang a corner);
* rear: the same against the rear edge, facing straight back;
* left / right ("side"): the near edge lies on the line of a side edge, facing straight
  out, touching that edge somewhere;
* 360° (turret, crew-fired): the near edge touches the shooter anywhere, the template
  facing any direction and lying outside the shooter.

Bursts have a point where rulers have a near edge, so "touching" means the tip touches;
a burst must also not cut into the shooter (see ``turret_families``).

Each rule gives *families*: the template at one fixed heading, its origin sliding along a
segment. A family's placements together cover a convex region (the template swept along
the segment), so for the fixed arcs "can any placement touch the target" is one exact
convex overlap test. The 360° arc is a two-parameter family; see ``turret_reach``.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Final

from mypy_extensions import mypyc_attr

from carnage.geometry.convex import convex_hull, sweep_hull, translate
from carnage.geometry.ranges import ShootingTemplate
from carnage.geometry.shapes import (
    Point,
    Rect,
    closest_points,
    distance,
    heading_diff,
    norm_heading,
    overlaps,
)
from carnage.geometry.shapes import rotate as rotate_point

_D2R: Final = math.pi / 180.0
"""``math.radians(x)`` is ``x * _D2R`` bit for bit (CPython multiplies by the same constant);
compiled, the product costs no call."""
_R2D: Final = 180.0 / math.pi
"""``math.degrees(x)`` is ``x * _R2D`` bit for bit, likewise."""
_hypot: Final = math.hypot
_atan2: Final = math.atan2
"""Read once: compiled, each call of ``math.hypot`` and the like would look the name up."""

TOUCH: Final = 1e-6
"""Gap (mm) at or below which two shapes count as touching."""

REACH_TOL: Final = 0.1
"""Tolerance (mm) of the 360° reach search."""


class Arc(StrEnum):
    FRONT = "front"
    REAR = "rear"
    LEFT = "left"
    RIGHT = "right"
    SIDE = "side"
    """Either side: the left and right families together."""
    TURRET = "360"


_ALIASES = {
    "front": Arc.FRONT,
    "rear": Arc.REAR,
    "back": Arc.REAR,
    "left": Arc.LEFT,
    "right": Arc.RIGHT,
    "side": Arc.SIDE,
    "sides": Arc.SIDE,
    "360": Arc.TURRET,
    "turret": Arc.TURRET,
    "crew": Arc.TURRET,
    "crew_fired": Arc.TURRET,
    "all": Arc.TURRET,
}


def parse_arc(name: str) -> Arc:
    """Arc from a user-facing name; ``ValueError`` naming the choices otherwise."""
    key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
    key = key.removesuffix("_degree").removesuffix("_degrees").removesuffix("°")
    if key in _ALIASES:
        return _ALIASES[key]
    raise ValueError(
        f"unknown arc {name!r} (known: front, rear, left, right, side, 360/turret)"
    )


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class PlacementFamily:
    """The template at a fixed ``heading`` with its origin anywhere on ``start``→``end``."""

    heading: float
    start: Point
    end: Point

    def origin(self, t: float) -> Point:
        return (
            self.start[0] + t * (self.end[0] - self.start[0]),
            self.start[1] + t * (self.end[1] - self.start[1]),
        )

    def shape(self, tpl: ShootingTemplate) -> list[Point]:
        """The template outline rotated to the heading, origin at (0, 0)."""
        return list(_rotated(tpl.polygon, self.heading))

    def placed(self, tpl: ShootingTemplate, t: float) -> list[Point]:
        """The template in world coordinates at parameter ``t`` in [0, 1]."""
        return translate(self.shape(tpl), *self.origin(t))

    def swept(self, tpl: ShootingTemplate) -> list[Point]:
        """Every placement of the family together (a convex polygon)."""
        return sweep_hull(self.shape(tpl), self.start, self.end)


@lru_cache(maxsize=1024)
def _rotated(polygon: tuple[Point, ...], heading: float) -> tuple[Point, ...]:
    """``polygon`` turned by ``heading`` degrees about (0, 0); remembered, since every family
    of one facing (and every question asked of it) turns the same outline the same way."""
    return tuple(rotate_point(p, heading) for p in polygon)


def fixed_families(body: Rect, arc: Arc, tpl: ShootingTemplate) -> list[PlacementFamily]:
    """Placement families of the front, rear and side arcs (Refuelled p.29)."""
    if arc is Arc.TURRET:
        raise ValueError("the 360-degree arc has no fixed families; use turret_families")
    p = body.pose
    hl, hw, a = body.length / 2.0, body.width / 2.0, tpl.near_half
    out: list[PlacementFamily] = []
    if arc is Arc.FRONT:
        out.append(PlacementFamily(p.heading, p.to_world((hl, -hw - a)), p.to_world((hl, hw + a))))
    if arc is Arc.REAR:
        out.append(
            PlacementFamily(
                norm_heading(p.heading + 180), p.to_world((-hl, hw + a)), p.to_world((-hl, -hw - a))
            )
        )
    if arc in (Arc.LEFT, Arc.SIDE):
        out.append(
            PlacementFamily(
                norm_heading(p.heading + 90), p.to_world((hl + a, hw)), p.to_world((-hl - a, hw))
            )
        )
    if arc in (Arc.RIGHT, Arc.SIDE):
        out.append(
            PlacementFamily(
                norm_heading(p.heading - 90), p.to_world((-hl - a, -hw)), p.to_world((hl + a, -hw))
            )
        )
    return out


def _angle(v: Point) -> float:
    return _atan2(v[1], v[0]) * _R2D


def _edges_with_normals(poly: Sequence[Point]) -> list[tuple[Point, Point, float]]:
    """Edges (p, q, outward-normal angle) of a counter-clockwise polygon."""
    out = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        ex, ey = q[0] - p[0], q[1] - p[1]
        if _hypot(ex, ey) < 1e-12:
            continue
        out.append((p, q, _angle((ey, -ex))))
    return out


def turret_families(body: Rect, tpl: ShootingTemplate, theta: float) -> list[PlacementFamily]:
    """Placement families of the 360° arc for the template facing ``theta``.

    A ruler's near edge is a segment S of half-length ``a`` across the facing. Its middle
    may sit exactly on the front boundary (seen from the facing) of V ⊕ S, V the shooter:
    there the near edge touches V and the ruler lies clear of V. A burst's tip sits on the
    boundary of V itself, and only where the burst's wedge at the tip stays clear of V
    (the facing within 90° − half-wedge of an outward normal at that point).
    """
    return [PlacementFamily(theta, p, q) for p, q in _turret_segments(body, tpl, theta)]


def _turret_segments(body: Rect, tpl: ShootingTemplate, theta: float
                     ) -> list[tuple[Point, Point]]:
    """``turret_families`` as the (start, end) of each family's origin segment."""
    d = (math.cos(theta * _D2R), math.sin(theta * _D2R))
    a = tpl.near_half
    verts = body.polygon()
    if a > 0:
        nx, ny = -d[1] * a, d[0] * a
        m = convex_hull(
            [pt for v in verts for pt in ((v[0] + nx, v[1] + ny), (v[0] - nx, v[1] - ny))]
        )
    else:
        m = convex_hull(verts)
    edges = _edges_with_normals(m)
    out: list[tuple[Point, Point]] = []
    if a > 0:
        for p, q, nang in edges:
            if abs(heading_diff(nang, theta)) <= 90.0 + 1e-9:
                out.append((p, q))
        return out
    lim = 90.0 - tpl.tip_half_angle
    k = len(edges)
    for i, (p, q, nang) in enumerate(edges):
        if abs(heading_diff(nang, theta)) <= lim + 1e-9:
            out.append((p, q))
        prev_n = edges[i - 1][2] if k else nang
        turn = norm_heading(nang - prev_n)
        off = norm_heading(theta - (prev_n - lim))
        if off <= turn + 2 * lim + 1e-9 or off >= 360.0 - 1e-9:
            out.append((p, p))
    return out


def turret_critical_angles(body: Rect, tpl: ShootingTemplate) -> list[float]:
    """Facings where the 360° families change shape; between two of them every family
    keeps its identity and its ends move smoothly with the facing."""
    return list(_critical_angles(body, tpl.near_half, tpl.tip_half_angle))


@lru_cache(maxsize=1024)
def _critical_angles(body: Rect, near_half: float, tip_half_angle: float
                     ) -> tuple[float, ...]:
    """``turret_critical_angles`` by the only template figures it reads, remembered."""
    tpl = ShootingTemplate("", (), near_half, tip_half_angle, 0.0)
    crit: set[float] = set()
    poly = body.polygon()
    lim = 90.0 - tpl.tip_half_angle
    for _p, _q, nang in _edges_with_normals(poly):
        for k in range(4):
            crit.add(round(norm_heading(nang + 90.0 * k), 9))
        if tpl.near_half == 0:
            crit.add(round(norm_heading(nang + lim), 9))
            crit.add(round(norm_heading(nang - lim), 9))
    return tuple(sorted(crit))


def family_gap(
    families: Sequence[PlacementFamily], tpl: ShootingTemplate, target: Sequence[Point]
) -> float:
    """Smallest gap between the target and any placement of the families."""
    best = math.inf
    for f in families:
        g = distance(f.swept(tpl), target)
        if g < best:
            best = g
            if best <= 0.0:
                break
    return best


def turret_reach(
    body: Rect, target: Sequence[Point], tpl: ShootingTemplate, tol: float = REACH_TOL
) -> bool:
    """Can some 360° placement of ``tpl`` touch ``target``?

    Proof sketch. Quick answers first: if the bodies' gap is at most the template's length,
    the placement along the closest-point line touches (the shooter's closest point is a
    support point in that direction, so the placement is legal); if the gap exceeds
    ``a + reach`` (every template point is within that of the shooter) nothing can.

    Otherwise let G(θ) be the gap between the target and all placements facing θ; for a
    fixed θ that region is a union of convex polygons (the template swept along each edge
    of the front chain), so G(θ) is computed exactly. Between two critical facings
    (``turret_critical_angles``) every chain vertex moves with speed at most ``a`` per
    radian and every template point rotates about its origin with speed at most
    ``reach``, so G is K-Lipschitz with K = a + reach. On [θ₁, θ₂] the minimum of G is
    therefore at least (G(θ₁) + G(θ₂) − K·(θ₂ − θ₁))/2 (also when G at an end is the
    smaller value of the closed chain at a critical facing). Best-first branch and bound
    discards intervals whose bound is positive and splits the rest; it answers True on an
    exact touch, False when every interval is discarded, and True when an undiscarded
    interval has shrunk below 2·tol/K — then a placement misses by at most ``tol``.
    """
    return turret_reach_facing(body, target, tpl, tol) is not None


def turret_reach_facing(
    body: Rect, target: Sequence[Point], tpl: ShootingTemplate, tol: float = REACH_TOL,
    closest: tuple[Point, Point, float] | None = None,
) -> float | None:
    """A facing at which a 360° placement touches ``target`` (within ``tol``), or None when
    none can; the search of ``turret_reach``. ``closest``: ``closest_points`` of the body's
    outline and ``target`` when the caller has it already (the same answer)."""
    p, q, gap = closest_points(body.polygon(), target) if closest is None else closest
    if gap <= tpl.length + TOUCH:
        # along the closest-point line (any facing if the bodies already touch)
        return _angle((q[0] - p[0], q[1] - p[1])) % 360.0 if gap > TOUCH else 0.0
    if gap > turret_span(tpl) + tol + REACH_SLACK:
        return None
    key = (body, tuple([(c[0], c[1]) for c in target]), tpl, tol)
    if key in _REACHED:
        return _REACHED[key]
    got = _reach_search(body, target, tpl, tol, gap)
    if len(_REACHED) >= 1024:
        _REACHED.clear()
    _REACHED[key] = got
    return got


_REACHED: dict[tuple[Rect, tuple[Point, ...], ShootingTemplate, float], float | None] = {}
"""``_reach_search``'s answers by their exact inputs (body, target corners, template,
tolerance): an Attack Step asks for a shot's range with the Tall obstructions, then for its
cover with all of them, and a target beyond the ruler's length needs the search both
times (a pure function of these inputs). ``clear_reach_memo`` forgets them."""


def clear_reach_memo() -> None:
    """Forget the remembered reach searches (benchmarks start each batch cold)."""
    _REACHED.clear()


REACH_SLACK: Final = 1e-6
"""Margin (mm) of the early answer of ``turret_reach_facing``, far above the rounding of
the gaps the search would measure."""


def turret_span(tpl: ShootingTemplate) -> float:
    """How far any point of a 360° placement of ``tpl`` can be from the shooter.

    A ruler's near edge (2a long) touches the shooter at some point of it; every point of
    the ruler is within its length L along and 2a across of that point, so within
    _hypot(L, 2a). A burst's tip is on the shooter, every point within its reach of it.
    So when the bodies' gap exceeds this by more than the tolerance (and a hair), every
    placement misses the target by more than the tolerance at every facing, and the
    search (``_reach_search``) could only answer None: it answers a facing only where the
    gap is within ``TOUCH`` or where an interval narrower than 2·tol/K still has a lower
    bound within ``TOUCH``, whose ends then miss by at most tol + ``TOUCH``."""
    if tpl.near_half > 0.0:
        return _hypot(tpl.length, 2.0 * tpl.near_half)
    return tpl.reach


def _reach_search(body: Rect, target: Sequence[Point], tpl: ShootingTemplate, tol: float,
                  gap: float, fan: bool = True) -> float | None:
    """The branch and bound of ``turret_reach`` over the facings (``gap``: between the
    bodies); with ``fan`` (rulers) it passes over the intervals ``ReachFan`` shows answer
    nothing, which leaves the answer as it is."""
    k = tpl.near_half + tpl.reach
    if gap > k + TOUCH:
        return None
    kr = k * math.pi / 180.0  # per degree
    crit = turret_critical_angles(body, tpl)

    def g(theta: float) -> float:  # family_gap over the facing's families, the same float
        return facing_gap(body, tpl, theta, target)

    shown = ReachFan.of(body.polygon(), target, tpl, tol, gap) if fan else None
    m = len(crit)
    spans: list[tuple[float, float]] = []
    for i in range(m):
        lo, hi = crit[i], crit[(i + 1) % m]
        if hi <= lo:
            hi += 360.0
        spans.append((lo, hi))
    # An interval the fan passes over answers nothing, nor do its parts: it is left out
    # (see ``ReachFan``), and so is the measure of a critical facing that no interval
    # kept ends at and that the fan shows cannot touch.
    kept = [shown is None or not shown.misses(lo, hi) for lo, hi in spans]
    values: list[float] = []
    for i, c in enumerate(crit):  # the first critical facing that touches
        if shown is not None and not kept[i - 1] and not kept[i] and shown.misses(c, c):
            values.append(math.inf)  # never read
            continue
        v = g(c)
        if v <= TOUCH:
            return c
        values.append(v)
    heap: list[tuple[float, float, float, float, float]] = []
    for i in range(m):
        if kept[i]:
            lo, hi = spans[i]
            glo, ghi = values[i], values[(i + 1) % m]
            heapq.heappush(heap, ((glo + ghi - kr * (hi - lo)) / 2.0, lo, hi, glo, ghi))
    while heap:
        bound, lo, hi, glo, ghi = heapq.heappop(heap)
        if bound > TOUCH:
            return None
        mid = (lo + hi) / 2.0
        if kr * (hi - lo) / 2.0 <= tol:
            return mid % 360.0
        gm = g(mid)
        if gm <= TOUCH:
            return mid % 360.0
        if shown is None or not shown.misses(lo, mid):
            heapq.heappush(heap, ((glo + gm - kr * (mid - lo)) / 2.0, lo, mid, glo, gm))
        if shown is None or not shown.misses(mid, hi):
            heapq.heappush(heap, ((gm + ghi - kr * (hi - mid)) / 2.0, mid, hi, gm, ghi))
    return None


FAN_SLACK: Final = 1e-6
"""Margin (mm) added to the touching tolerance and the search tolerance in ``ReachFan``:
far above the rounding of the gaps measured and of the search's bounds."""

FAN_ANGLE_SLACK: Final = 1e-9
"""Margin (degrees) on every angle ``ReachFan`` compares, far above their rounding."""


class ReachFan:
    """Intervals of 360° ruler facings that the reach search (``_reach_search``) can pass
    over: none of their facings comes within ``TOUCH`` + tol of the target.

    Why passing over them leaves the answer as it was. The search answers the middle of
    an interval it takes off its heap when the gap measured there is within ``TOUCH``, or
    when the interval is narrower than 2·tol/K and its bound (G(lo) + G(hi) − K·(hi − lo))/2
    is within ``TOUCH``, which needs G within ``TOUCH`` + tol at one of its ends. An
    interval none of whose facings comes that near answers nothing, nor do its parts; the
    other intervals come off the heap in the same order without it (a heap pops in the
    order of its keys), so the search answers the same facing, or None as before.

    Why none comes near. A ruler's near edge touches the shooter S at a point P, so the
    ruler facing θ lies in P + R(θ)·B with B = [0, L] × [−2a, 2a] (L along the facing,
    across it the 2a to either side the near edge can reach from P). A placement within
    δ of a target point y gives z = y − P in D = target ⊕ (−S) and f in R(θ)·B with
    |z − f| ≤ δ. Then |f| ≥ |z| − δ ≥ r0 = gap − δ (D's nearest point is the outlines'
    gap away), and the points of B that far from its origin point at angles β from its
    axis with acos(L / r0) ≤ |β| ≤ asin(2a / r0); so for θ within h of the middle m the
    direction of f lies in m ± [β_lo − h, β_hi + h]. The direction of z is within
    asin(δ / r0) of f's, and z lies in D within span + δ of the origin: its direction is in
    the angular extent of that part of D (its corners inside the circle and the points
    where its edges cross it). When the two sets of directions do not meet, no facing
    within h of m comes within δ of the target. With δ = ``TOUCH`` + tol + ``FAN_SLACK``
    and every angle widened by ``FAN_ANGLE_SLACK``, the intervals shown so are passed over.
    The tighter the target is to the ruler's span, the narrower both sets: a target just
    beyond the span is reached, within the tolerance, only at two narrow bands of facings.
    """

    def __init__(self, beta_lo: float, beta_hi: float, z_lo: float, z_hi: float) -> None:
        self.beta_lo = beta_lo
        self.beta_hi = beta_hi
        self.z_lo = z_lo
        self.z_hi = z_hi

    @staticmethod
    def of(shooter: Sequence[Point], target: Sequence[Point], tpl: ShootingTemplate,
           tol: float, gap: float, wide: float | None = None) -> ReachFan | None:
        """The fan of a ruler shot (None for a burst, or when nothing can be shown);
        ``wide`` (for tests) replaces 2a, how far across the near edge reaches from P."""
        a = tpl.near_half
        if a <= 0.0:
            return None
        across = 2.0 * a if wide is None else wide
        delta = TOUCH + tol + FAN_SLACK
        r0 = gap - delta
        if r0 <= delta:
            return None
        span = _hypot(tpl.length, across)
        far = span + delta
        beta_lo = math.acos(min(1.0, tpl.length / r0)) * _R2D
        beta_hi = math.asin(min(1.0, across / r0)) * _R2D
        d = convex_hull([(y[0] - p[0], y[1] - p[1]) for y in target for p in shooter])
        # the direction of D's nearest point, from which the others are measured
        k = len(d)
        near = d[0]
        best = math.inf
        for i in range(k):
            x0, y0 = d[i]
            x1, y1 = d[(i + 1) % k]
            ex, ey = x1 - x0, y1 - y0
            ll = ex * ex + ey * ey
            t = 0.0 if ll <= 0.0 else max(0.0, min(1.0, -(x0 * ex + y0 * ey) / ll))
            q = (x0 + t * ex, y0 + t * ey)
            r = _hypot(*q)
            if r < best:
                best, near = r, q
        ref = _atan2(near[1], near[0]) * _R2D
        pts = [near]
        for i in range(k):
            x0, y0 = d[i]
            x1, y1 = d[(i + 1) % k]
            if _hypot(x0, y0) <= far:
                pts.append((x0, y0))
            # where the edge crosses the circle of radius ``far``
            ex, ey = x1 - x0, y1 - y0
            aa = ex * ex + ey * ey
            bb = 2.0 * (x0 * ex + y0 * ey)
            cc = x0 * x0 + y0 * y0 - far * far
            disc = bb * bb - 4.0 * aa * cc
            if aa > 0.0 and disc >= 0.0:
                root = math.sqrt(disc)
                for t in ((-bb - root) / (2.0 * aa), (-bb + root) / (2.0 * aa)):
                    if 0.0 <= t <= 1.0:
                        pts.append((x0 + t * ex, y0 + t * ey))
        rel = [(_atan2(y, x) * _R2D - ref + 180.0) % 360.0 - 180.0 for x, y in pts]
        widen = math.asin(min(1.0, delta / r0)) * _R2D + FAN_ANGLE_SLACK
        return ReachFan(beta_lo, beta_hi, ref + min(rel) - widen, ref + max(rel) + widen)

    def misses(self, lo: float, hi: float) -> bool:
        """Whether no facing from ``lo`` to ``hi`` (degrees, hi − lo under 180) comes
        within ``TOUCH`` + tol + ``FAN_SLACK`` of the target."""
        m = (lo + hi) / 2.0
        h = (hi - lo) / 2.0 + FAN_ANGLE_SLACK
        if self.beta_lo > self.beta_hi:
            return True  # no point of the ruler is far enough out
        z0, z1 = self.z_lo, self.z_hi
        arcs: tuple[tuple[float, float], ...]
        if self.beta_lo - h <= 0.0:
            arcs = ((m - self.beta_hi - h, m + self.beta_hi + h),)
        else:
            arcs = ((m + self.beta_lo - h, m + self.beta_hi + h),
                    (m - self.beta_hi - h, m - self.beta_lo + h))
        for f0, f1 in arcs:
            if f1 - f0 >= 360.0 or z1 - z0 >= 360.0:
                return False
            if (f0 - z0) % 360.0 <= z1 - z0 or (z0 - f0) % 360.0 <= f1 - f0:
                return False
        return True


GAP_BOX_SLACK: Final = 1e-6
"""Margin (mm) by which a family's box gap must exceed the least gap found before
``facing_gap`` leaves the family out: far above the rounding of either (coordinates of a
few metres, errors of about 1e-12 mm)."""


def facing_gap(body: Rect, tpl: ShootingTemplate, theta: float,
               target: Sequence[Point]) -> float:
    """``family_gap(turret_families(body, tpl, theta), tpl, target)``, the very same float,
    measuring fewer families.

    In the frame of the facing (u along it, v across) the template spans [x0, x1] along
    and [y0, y1] across its origin, so the swept family with its origin on p→q lies in
    the box u ∈ [min(p·d, q·d) + x0, max(p·d, q·d) + x1], v likewise; its distance to the
    target is at least the gap between that box and the target's extents along u and
    across (projections do not lengthen). Families are measured in order of that gap, and
    once it exceeds the least distance found by more than ``GAP_BOX_SLACK`` none of the
    rest can lower it: the least is the same value ``family_gap`` finds (which ends at
    the first overlap, as this does: every overlap measures 0.0)."""
    ff = _turret_hulls(body, tpl, theta)
    dx, dy = ff.d
    tu_lo = tv_lo = math.inf
    tu_hi = tv_hi = -math.inf
    for x, y in target:
        u = x * dx + y * dy
        v = y * dx - x * dy
        tu_lo = min(tu_lo, u)
        tu_hi = max(tu_hi, u)
        tv_lo = min(tv_lo, v)
        tv_hi = max(tv_hi, v)
    order: list[tuple[float, int]] = []
    for i, (u_lo, u_hi, v_lo, v_hi) in enumerate(ff.boxes):
        gu = max(tu_lo - u_hi, u_lo - tu_hi)
        gv = max(tv_lo - v_hi, v_lo - tv_hi)
        order.append((max(gu, gv, 0.0), i))
    order.sort()
    best = math.inf
    for lb, i in order:
        if lb - GAP_BOX_SLACK > best:
            break
        d = distance(ff.hull(i, tpl), target)
        if d < best:
            best = d
            if best <= 0.0:
                break
    return best


class _FacingFamilies:
    """The 360° families at one facing, each with its box in the facing's frame (see
    ``facing_gap``) and its swept hull (``PlacementFamily.swept``) built when first asked."""

    def __init__(self, body: Rect, tpl: ShootingTemplate, theta: float) -> None:
        self.theta = theta
        self.segments = _turret_segments(body, tpl, theta)
        r = theta * _D2R
        self.d = (math.cos(r), math.sin(r))
        dx, dy = self.d
        x0, x1, y0, y1 = _template_box(tpl.polygon)
        self.boxes: list[tuple[float, float, float, float]] = []
        for start, end in self.segments:
            sx, sy = start
            ex, ey = end
            su, eu = sx * dx + sy * dy, ex * dx + ey * dy
            sv, ev = sy * dx - sx * dy, ey * dx - ex * dy
            self.boxes.append((min(su, eu) + x0, max(su, eu) + x1,
                               min(sv, ev) + y0, max(sv, ev) + y1))
        self.hulls: list[list[Point] | None] = [None] * len(self.segments)

    def hull(self, i: int, tpl: ShootingTemplate) -> list[Point]:
        """Family ``i`` swept (``PlacementFamily.swept``, the same points), built once.
        Read it, never change it."""
        h = self.hulls[i]
        if h is None:
            start, end = self.segments[i]
            h = sweep_hull(list(_rotated(tpl.polygon, self.theta)), start, end)
            self.hulls[i] = h
        return h


@lru_cache(maxsize=64)
def _template_box(polygon: tuple[Point, ...]) -> tuple[float, float, float, float]:
    """The least and greatest x and y of a template's outline in its own frame."""
    xs = [x for x, _ in polygon]
    ys = [y for _, y in polygon]
    return min(xs), max(xs), min(ys), max(ys)


@lru_cache(maxsize=4096)
def _turret_hulls(body: Rect, tpl: ShootingTemplate, theta: float) -> _FacingFamilies:
    """The 360° families at ``theta`` with their boxes and (when asked) swept hulls,
    remembered: they depend only on the shooter and the template, so every target asks
    the same ones."""
    return _FacingFamilies(body, tpl, theta)


def can_reach(
    body: Rect, target: Sequence[Point], arc: Arc, tpl: ShootingTemplate, tol: float = REACH_TOL
) -> bool:
    """Can any legal placement of ``tpl`` in ``arc`` touch ``target``? Exact for the fixed
    arcs; within ``tol`` mm for the 360° arc (``turret_reach``)."""
    if arc is Arc.TURRET:
        return turret_reach(body, target, tpl, tol)
    return any(overlaps(hull, target, TOUCH) for hull in _fixed_hulls(body, arc, tpl))


@lru_cache(maxsize=32)
def _fixed_hulls(body: Rect, arc: Arc, tpl: ShootingTemplate) -> tuple[list[Point], ...]:
    """Each fixed-arc family swept (``PlacementFamily.swept``), remembered for the few
    shooters asked about last: one shooter's weapon is asked about every target in turn.
    Read them, never change them."""
    return tuple(f.swept(tpl) for f in fixed_families(body, arc, tpl))


def arc_region(body: Rect, arc: Arc, tpl: ShootingTemplate, steps: int = 72) -> list[list[Point]]:
    """Convex pieces covering the arc's reach, for drawing. Exact for fixed arcs; for the
    360° arc the union of families at ``steps`` facings (a drawing, not a test)."""
    if arc is not Arc.TURRET:
        return [f.swept(tpl) for f in fixed_families(body, arc, tpl)]
    out: list[list[Point]] = []
    for i in range(steps):
        out.extend(f.swept(tpl) for f in turret_families(body, tpl, 360.0 * i / steps))
    return out
