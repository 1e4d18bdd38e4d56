"""Cover and tall obstructions for a shooting attack (Refuelled p.42, p.87).

Our reading, in short: along a placed template, distance is measured from the shooter
outwards (the template's own axis). An obstruction gives cover to a placement when its
interior meets the template nearer the shooter than the first point where the template
touches the target; a Tall obstacle doing that makes the placement unusable. The attacker
picks the placement: the target has cover only if every usable placement that touches it
is covered, and it is blocked if every placement that touches it is stopped by something
Tall. The shooter and the target never obstruct.

For one placement family (fixed heading, origin sliding along a segment, parameter t) the
answer is exact: the placed template's edges keep their directions, so the shape of
"template ∩ body" only changes at finitely many t where a vertex of one crosses an edge
line of the other. Between two such values each "nearest distance along the template" is
linear in t, so the set of clear t is found exactly from two samples per interval, and the
critical values themselves are checked directly. The fixed arcs are one or two families,
hence exact. The 360° arc is searched over every facing by ``allround.search``: each facing
is judged exactly (``allround.RulerFacing`` for rulers, these families for bursts) and a
proven bound over intervals of facings leaves out only lines thinner than ``tol``.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from mypy_extensions import mypyc_attr

from carnage.geometry.allround import (
    CLEAR,
    TOUCHING,
    UNBLOCKED,
    Cap,
    Judge,
    Obstacle,
    RulerFacing,
    _extent,
    search,
)
from carnage.geometry.arcs import (
    REACH_TOL,
    TOUCH,
    Arc,
    PlacementFamily,
    _critical_angles,
    _rotated,
    _turret_hulls,
    can_reach,
    clear_reach_memo,
    fixed_families,
    turret_critical_angles,
    turret_families,
    turret_reach_facing,
)
from carnage.geometry.convex import TOL as CLIP_TOL
from carnage.geometry.convex import (
    area,
    ccw,
    clip_planes,
    convex_hull,
    halfplanes,
    signed_area,
    sweep_hull,
)
from carnage.geometry.ranges import ShootingTemplate
from carnage.geometry.shapes import (
    Point,
    Rect,
    _axes,
    _project,
    closest_points,
    penetration,
)

_D2R: Final = math.pi / 180.0
"""``math.radians(x)`` is ``x * _D2R`` bit for bit (CPython multiplies by the same constant);
compiled, the product costs no call."""
_R2D: Final = 180.0 / math.pi
"""``math.degrees(x)`` is ``x * _R2D`` bit for bit, likewise."""
_hypot: Final = math.hypot
_atan2: Final = math.atan2
"""Read once: compiled, each call of ``math.hypot`` and the like would look the name up."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Blocker:
    """Anything that may stand between shooter and target: obstacles, wrecks, vehicles."""

    id: str
    polygon: tuple[Point, ...]
    tall: bool = False


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class FireCheck:
    """Answer to "can this template in this arc reach the target, and how well?"."""

    in_range: bool
    """Some legal placement touches the target (Refuelled p.28)."""
    cover: bool
    """Every placement touching the target meets an obstruction first (p.42)."""
    blocked: bool
    """Every placement touching the target meets a Tall obstruction first (p.87)."""
    placement: tuple[Point, ...] | None = None
    """A best placement found (clear if any, else unblocked, else any touching); for
    drawing."""
    heading: float | None = None
    """The facing of ``placement``."""


_PLAIN: Final = tuple(FireCheck(r, c, b) for r in (False, True) for c in (False, True)
                      for b in (False, True))


def plain_check(in_range: bool, cover: bool, blocked: bool) -> FireCheck:
    """``FireCheck(in_range, cover, blocked)`` with no placement: one shared (frozen) value
    for each answer. Compiled, building a ``FireCheck`` (a Python dataclass) is a Python
    call, several thousand instructions."""
    return _PLAIN[(4 if in_range else 0) + (2 if cover else 0) + (1 if blocked else 0)]


@dataclass(frozen=True)
class _FamilyResult:
    touch: bool
    unblocked_t: float | None
    clear_t: float | None
    touch_t: float | None


_INF: Final = math.inf


def _first_along(body: Sequence[Point], planes: list[tuple[float, float, float]], origin: Point,
                 d: Point, need_area: bool, shape: Sequence[Point] = ()) -> float:
    """Distance along the template axis from its origin to the nearest point of ``body``
    inside the template (given by its half-planes at the origin (0, 0), and optionally its
    outline ``shape`` there) placed at ``origin``; inf when they do not meet (or, with
    ``need_area``, only touch). A many-sided template is clipped by the body's few edges
    rather than the other way round (the same intersection, fewer passes)."""
    ox, oy = origin
    if len(shape) > len(body) + 2:
        # in the template's own frame (origin at 0): the body's edges shifted by −origin
        local = _clip_by(shape, _planes_of(tuple(body)), ox, oy)
        if not local:
            return _INF
        if need_area and (len(local) < 3 or area(local) <= 1e-9):
            return _INF
        return _least_along(local, 0.0, 0.0, d)
    inter = clip_planes(body, planes, ox, oy)
    if not inter:
        return _INF
    if need_area and (len(inter) < 3 or area(inter) <= 1e-9):
        return _INF
    return _least_along(inter, ox, oy, d)


def _least_along(pts: Sequence[Point], ox: float, oy: float, d: Point) -> float:
    """The least ``(x - ox) * d[0] + (y - oy) * d[1]`` over ``pts`` (not empty)."""
    dx, dy = d
    x, y = pts[0]
    best = (x - ox) * dx + (y - oy) * dy
    for i in range(1, len(pts)):
        x, y = pts[i]
        v = (x - ox) * dx + (y - oy) * dy
        if v < best:
            best = v
    return best


def _clip_by(poly: Sequence[Point], planes: Sequence[tuple[float, float, float]],
             ox: float = 0.0, oy: float = 0.0) -> list[Point]:
    """``poly`` clipped by half-planes nx*x + ny*y <= c − nx*ox − ny*oy (boundary
    included: the planes moved by −(ox, oy)), as ``convex.clip_halfplane`` does plane by
    plane.

    One pass per plane, each corner's value worked out once: a plane with every corner
    inside keeps them all and adds no crossing, one with every corner outside keeps
    none, so this gives the very points of a first pass deciding those two cases apart
    (the way it was done before; tests/geometry/test_cover_fast.py checks the two
    against each other)."""
    src: Sequence[Point] = poly
    out: list[Point] = [] if planes else list(poly)
    for nx, ny, c0 in planes:
        c = c0 - nx * ox - ny * oy
        n = len(src)
        if n == 0:
            break
        nxt: list[Point] = []
        p = src[0]
        px, py = p
        dp = nx * px + ny * py - c
        first = dp
        for j in range(1, n + 1):
            q = src[j] if j < n else src[0]
            qx, qy = q
            dq = nx * qx + ny * qy - c if j < n else first
            if dp <= CLIP_TOL:
                nxt.append(p)
            if (dp < -CLIP_TOL and dq > CLIP_TOL) or (dp > CLIP_TOL and dq < -CLIP_TOL):
                t = dp / (dp - dq)
                nxt.append((px + t * (qx - px), py + t * (qy - py)))
            p, px, py, dp = q, qx, qy, dq
        out = src = nxt
    return out


@lru_cache(maxsize=4096)
def _planes_of(body: tuple[Point, ...]) -> list[tuple[float, float, float]]:
    return halfplanes(ccw(body))


def _touch_interval(fam: PlacementFamily, shape: list[Point], target: Sequence[Point],
                    msum: list[Point] | None = None) -> tuple[float, float] | None:
    """Parameters t in [0, 1] whose placement touches the target: the segment of origins
    clipped by target ⊕ (−template) (``msum``, when already known)."""
    if msum is None:
        msum = _msum(target, shape)
    sx, sy = fam.start
    ex, ey = fam.end[0] - sx, fam.end[1] - sy
    lo, hi = 0.0, 1.0
    if len(msum) < 3:
        return None
    for nx, ny, c in halfplanes(msum):
        den = nx * ex + ny * ey
        num = c - (nx * sx + ny * sy)
        if abs(den) < 1e-12:
            if num < -TOUCH:
                return None
            continue
        t = num / den
        if den > 0:
            hi = min(hi, t + TOUCH / max(abs(den), 1e-12))
        else:
            lo = max(lo, t - TOUCH / max(abs(den), 1e-12))
        if lo > hi:
            return None
    return (max(0.0, lo), min(1.0, hi))


def _msum(target: Sequence[Point], shape: Sequence[Point]) -> list[Point]:
    """target ⊕ (−shape): the hull of the sums p − q of a corner of each whose normal
    cones meet (every corner of the sum is such a sum; the others are left out before
    the hull is taken, which then comes out the same)."""
    a, b = _cones(target), _cones([(-x, -y) for x, y in shape])
    if a is None or b is None:
        return convex_hull([(p[0] - q[0], p[1] - q[1]) for p in target for q in shape])
    two_pi = 2.0 * math.pi
    pts = []
    for px, py, s1, w1 in a:
        for qx, qy, s2, w2 in b:
            if (s2 - s1) % two_pi <= w1 + 1e-6 or (s1 - s2) % two_pi <= w2 + 1e-6:
                pts.append((px + qx, py + qy))
    return convex_hull(pts)


def _cones(poly: Sequence[Point]) -> list[tuple[float, float, float, float]] | None:
    """Each corner (x, y) of a convex outline with the start and width (radians, counter-
    clockwise) of its cone of outward normals, as (x, y, start, width); None for an
    outline that is not a strictly convex counter-clockwise polygon without repeated
    corners."""
    n = len(poly)
    if n < 3 or signed_area(poly) <= 1e-9:
        return None
    ang = []
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if abs(x2 - x1) + abs(y2 - y1) < 1e-9:
            return None
        ang.append(_atan2(-(x2 - x1), y2 - y1))  # outward normal of edge i
    out = []
    for i in range(n):
        w = (ang[i] - ang[i - 1]) % (2.0 * math.pi)
        if w >= math.pi:  # a reflex or folded-back corner: not strictly convex
            return None
        x, y = poly[i]
        out.append((x, y, ang[i - 1], w))
    return out


def _critical_params(fam: PlacementFamily, shape: list[Point], bodies: Sequence[Sequence[Point]]
                     ) -> list[float]:
    """Parameters t where a vertex of the placed template passes over an edge of a body, or a
    vertex of a body over an edge of the template: the only places where the shape of their
    intersection changes."""
    sx, sy = fam.start
    ex, ey = fam.end[0] - sx, fam.end[1] - sy
    out: list[float] = []
    n_t = len(shape)
    # each edge's two ends flat (compiled, unpacking pairs of pairs costs more than this)
    t_edges = [(shape[i][0], shape[i][1], shape[(i + 1) % n_t][0], shape[(i + 1) % n_t][1])
               for i in range(n_t)]
    for body in bodies:
        # the body in the template's frame at t = 0; it moves by -t*e as t grows
        rel = [(x - sx, y - sy) for x, y in body]
        n_b = len(rel)
        for ax, ay, bx, by in t_edges:
            dx, dy = bx - ax, by - ay
            den = dx * ey - dy * ex
            ll = dx * dx + dy * dy
            if abs(den) < 1e-12 or ll < 1e-18:
                continue
            for x, y in rel:
                t = (dx * (y - ay) - dy * (x - ax)) / den
                px, py = x - t * ex, y - t * ey
                u = ((px - ax) * dx + (py - ay) * dy) / ll
                if -1e-9 <= u <= 1 + 1e-9:
                    out.append(t)
        for i in range(n_b):
            ax, ay = rel[i]
            bx, by = rel[(i + 1) % n_b]
            dx, dy = bx - ax, by - ay
            den = dx * ey - dy * ex
            ll = dx * dx + dy * dy
            if abs(den) < 1e-12 or ll < 1e-18:
                continue
            for qx, qy in shape:
                t = -(dx * (qy - ay) - dy * (qx - ax)) / den
                px, py = qx + t * ex, qy + t * ey
                u = ((px - ax) * dx + (py - ay) * dy) / ll
                if -1e-9 <= u <= 1 + 1e-9:
                    out.append(t)
    return out


def _overlap_deeper(a: Sequence[Point], a_axes: list[Point],
                    a_spans: list[tuple[float, float] | None], b: Sequence[Point],
                    depth: float) -> bool:
    """``penetration(a, b) > depth`` (the separating-axis overlap of two convex outlines),
    stopping at the first axis that separates them enough: ``b``'s few axes first, then
    ``a``'s (``a_axes``), whose spans are worked out only when first needed and kept in
    ``a_spans`` for the next ``b``. Every axis must overlap by more than ``depth``, so
    the order changes nothing but the work."""
    for axis in _axes(b):
        alo, ahi = _project(a, axis)
        blo, bhi = _project(b, axis)
        if min(ahi - blo, bhi - alo) <= depth:
            return False
    for k in range(len(a_axes)):
        axis = a_axes[k]
        blo, bhi = _project(b, axis)
        span = a_spans[k]
        if span is None:
            span = _project(a, axis)
            a_spans[k] = span
        alo, ahi = span
        if min(ahi - blo, bhi - alo) <= depth:
            return False
    return True


def _bbox(poly: Sequence[Point]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


def _feasible(lo: float, hi: float, sa: float, sb: float, tp: tuple[float, float],
              others: list[tuple[float, float]]) -> float | None:
    """A t in [lo, hi] where every linear function through (sa, o_a), (sb, o_b) stays at or
    above the target's, or None."""
    for oa, ob in others:
        ga, gb = oa - tp[0], ob - tp[1]
        slope = (gb - ga) / (sb - sa)
        # g(t) = ga + slope (t - sa) >= -eps
        if abs(slope) < 1e-12:
            if ga < -1e-7:
                return None
            continue
        root = sa - ga / slope
        if slope > 0:
            lo = max(lo, root - 1e-9)
        else:
            hi = min(hi, root + 1e-9)
        if lo > hi:
            return None
    return (lo + hi) / 2.0


@dataclass(frozen=True)
class _Piece:
    lo: float
    hi: float
    line: tuple[float, float] | None
    """(value at 0, slope) of the nearest-distance function on [lo, hi]; None: no contact."""

    def at(self, t: float) -> float:
        if self.line is None:
            return _INF
        return self.line[0] + self.line[1] * t


def _pieces(fam: PlacementFamily, shape: list[Point], planes: list[tuple[float, float, float]],
            body: Sequence[Point], t0: float, t1: float, need_area: bool) -> list[_Piece]:
    """The body's nearest distance along the template, as a piecewise-linear function of the
    family parameter on [t0, t1]: linear between consecutive critical values, so two samples
    inside each stretch give it exactly."""
    d = (math.cos(fam.heading * _D2R), math.sin(fam.heading * _D2R))
    cuts = sorted({t0, t1, *(t for t in _critical_params(fam, shape, [body]) if t0 < t < t1)})
    out: list[_Piece] = []
    for lo, hi in itertools.pairwise(cuts):
        if hi - lo < 1e-12:
            continue
        sa, sb = lo + (hi - lo) / 3.0, lo + 2.0 * (hi - lo) / 3.0
        va = _first_along(body, planes, fam.origin(sa), d, need_area, shape)
        vb = _first_along(body, planes, fam.origin(sb), d, need_area, shape)
        if va == _INF or vb == _INF:
            out.append(_Piece(lo, hi, None))
        else:
            slope = (vb - va) / (sb - sa)
            out.append(_Piece(lo, hi, (va - slope * sa, slope)))
    return out


def _piece_at(pieces: list[_Piece], t: float) -> _Piece | None:
    for p in pieces:
        if p.lo <= t <= p.hi:
            return p
    return None


_AlongKey = tuple[int, float, float, float, bool]
"""(identity of the outline, origin x, origin y, facing, ``need_area``)."""


class _Along:
    """``_first_along`` for the placements of one family, remembered by (outline, origin,
    ``need_area``) while the family is solved: a family with the tip on a corner of the
    shooter has one origin for every parameter, so its middle placement, its ends and
    its stretches are all the same placement (about a fifth of the calls of the
    benchmark's bursts were such repeats). The families of one facing may share ``memo``
    (the end of an edge family is its corner family's origin): the template's outline
    depends on the facing alone, which is in the key. The same pure function of the same
    inputs, so the same numbers."""

    def __init__(self, fam: PlacementFamily, planes: list[tuple[float, float, float]],
                 d: Point, shape: list[Point], memo: dict[_AlongKey, float] | None) -> None:
        self.fam = fam
        self.planes = planes
        self.d = d
        self.shape = shape
        self.memo: dict[_AlongKey, float] = {} if memo is None else memo

    def at(self, body: Sequence[Point], t: float, need_area: bool) -> float:
        """The nearest distance of ``body`` along the placement at ``t`` (``body`` must
        stay alive while this is used: it is known by its identity)."""
        o = self.fam.origin(t)
        key = (id(body), o[0], o[1], self.fam.heading, need_area)
        v = self.memo.get(key)
        if v is None:
            v = _first_along(body, self.planes, o, self.d, need_area, self.shape)
            self.memo[key] = v
        return v


def _solve_family(fam: PlacementFamily, tpl: ShootingTemplate, target: Sequence[Point],
                  blockers: Sequence[Blocker], msum: list[Point] | None = None,
                  *, direct: bool = False, memo: dict[_AlongKey, float] | None = None,
                  need: int = CLEAR, lower: Callable[[], int] | None = None
                  ) -> _FamilyResult:
    """Touch, unblocked and clear parameters of one family (None: there is none).

    Once the middle placement has been judged, the rest is settled by ``_any_free``, which
    strikes out parameters obstruction by obstruction (those in the middle placement's way
    first) and stops as soon as none is left: proving a shot covered usually takes only
    the first obstruction or two. ``direct`` instead works out every obstruction's
    distance function over the whole family first (the same answers; kept to check the
    other against).
    ``memo``: the single placements judged so far at this facing (``_Along``).
    ``need``: the best level (``allround.CLEAR``, ``UNBLOCKED``, ``TOUCHING``) still
    wanted; the search for placements better than that is left out (the parameters
    found up to it are the same). ``lower``, asked once the middle placement is not clear,
    may lower ``need`` (the best level shown possible at this facing)."""
    shape = fam.shape(tpl)
    dom = _touch_interval(fam, shape, target, msum)
    if dom is None:
        return _FamilyResult(False, None, None, None)
    t0, t1 = dom
    d = (math.cos(fam.heading * _D2R), math.sin(fam.heading * _D2R))
    oa, ob = fam.origin(t0), fam.origin(t1)
    # the box of the swept outline: its corners are corners of the outline at either end,
    # and adding an offset keeps the least and the greatest (rounding is monotone), so
    # these are the very floats the hull's corners give; the hull only when needed
    sx0, sx1, sy0, sy1 = _extent(shape)
    rx0, rx1 = min(sx0 + oa[0], sx0 + ob[0]), max(sx1 + oa[0], sx1 + ob[0])
    ry0, ry1 = min(sy0 + oa[1], sy0 + ob[1]), max(sy1 + oa[1], sy1 + ob[1])
    relevant = []
    reach: list[Point] = []
    reach_axes: list[Point] | None = None
    reach_spans: list[tuple[float, float] | None] = []
    for b in blockers:
        bx0, by0, bx1, by1 = _bbox(b.polygon)
        if bx0 < rx1 and rx0 < bx1 and by0 < ry1 and ry0 < by1:
            if reach_axes is None:
                reach = sweep_hull(shape, oa, ob)
                reach_axes = _axes(reach)
                reach_spans = [None] * len(reach_axes)
            if _overlap_deeper(reach, reach_axes, reach_spans, b.polygon, 1e-9):
                relevant.append(b)
    planes = halfplanes(shape)

    along = _Along(fam, planes, d, shape, memo)

    def point_status(t: float) -> tuple[bool, bool, bool]:
        """(touches, unblocked, clear) for the single placement at t."""
        tp = along.at(target, t, False)
        if tp == _INF:
            return False, False, False
        obs = [along.at(b.polygon, t, True) for b in relevant]
        at_mid[:] = [tp - ot for ot in obs]
        pairs = list(zip(relevant, obs, strict=True))
        unblocked = all(not (b.tall and ot < tp - 1e-9) for b, ot in pairs)
        clear = all(ot >= tp - 1e-9 for ot in obs)
        return True, unblocked, clear

    # Cheap first look at the middle of the domain: usually decides it.
    at_mid: list[float] = []
    tm = (t0 + t1) / 2.0
    if not relevant:
        return _FamilyResult(True, tm, tm, tm)
    touch, ub, cl = point_status(tm)
    # the obstructions in the middle placement's way (how far before the target), first;
    # none known when the middle placement misses the target
    ahead = {id(b): gap for b, gap in zip(relevant, at_mid, strict=True)} if at_mid else {}
    if cl:
        return _FamilyResult(True, tm, tm, tm)
    if lower is not None:
        need = min(need, lower())
    touch_t: float | None = tm if touch else None
    unblocked_t: float | None = tm if ub else None
    if t1 - t0 < 1e-12:
        return _FamilyResult(touch, unblocked_t, None, touch_t)
    in_way = sorted(relevant, key=lambda b: -ahead.get(id(b), -_INF))

    def end_status(t: float, want_unblocked: bool) -> tuple[bool, bool]:
        """(unblocked, clear) for the single placement at t, as ``point_status`` gives
        them, stopping at the first obstruction that settles both (the unblocked one
        only when ``want_unblocked``): those in the middle placement's way first."""
        tp = along.at(target, t, False)
        if tp == _INF:
            return False, False
        unblocked = clear = True
        for b in in_way:
            if not clear and not (want_unblocked and unblocked and b.tall):
                continue
            if along.at(b.polygon, t, True) < tp - 1e-9:
                clear = False
                if b.tall:
                    unblocked = False
                if not (want_unblocked and unblocked):
                    break
        return unblocked, clear

    if not direct:
        return _with_ends(end_status, (t0, t1), _settle(
            fam, shape, along, d, target, (t0, t1), tm if touch else None, unblocked_t,
            in_way, need))
    return _with_ends(end_status, (t0, t1), _direct(
        fam, shape, planes, d, target, relevant, (t0, t1), touch_t, unblocked_t))


def _with_ends(end_status: Callable[[float, bool], tuple[bool, bool]],
               dom: tuple[float, float], res: _FamilyResult) -> _FamilyResult:
    """``res``, unless it found no clear placement and one at an end of the touching range
    is clear (or unblocked): a knife-edge line, where the target is only just touched and
    an obstruction's edge lies along the template's, so it touches without overlapping.
    The stretches inside are judged on their inner points and never see it."""
    if res.clear_t is not None:
        return res
    unblocked_t = res.unblocked_t
    for t in dom:
        ub, cl = end_status(t, unblocked_t is None)
        if cl:
            return _FamilyResult(True, t if unblocked_t is None else unblocked_t, t,
                                 res.touch_t if res.touch_t is not None else t)
        if ub and unblocked_t is None:
            unblocked_t = t
    return _FamilyResult(res.touch, unblocked_t, None, res.touch_t)


def _direct(fam: PlacementFamily, shape: list[Point], planes: list[tuple[float, float, float]],
            d: Point, target: Sequence[Point], relevant: list[Blocker],
            dom: tuple[float, float], touch_t: float | None, unblocked_t: float | None
            ) -> _FamilyResult:
    """``_solve_family`` with every obstruction's distance function worked out over the
    whole family first (``direct``)."""
    t0, t1 = dom
    target_fn = _pieces(fam, shape, planes, target, t0, t1, need_area=False)
    # An obstruction whose nearest point is, even from the farthest origin, no nearer than
    # the target ever is cannot come first anywhere.
    t_far = max((max(p.at(p.lo), p.at(p.hi)) for p in target_fn if p.line is not None),
                default=-_INF)
    o_far = max(o[0] * d[0] + o[1] * d[1] for o in (fam.origin(t0), fam.origin(t1)))
    relevant = [b for b in relevant
                if min(x * d[0] + y * d[1] for x, y in b.polygon) - o_far < t_far + 1e-9]
    blocker_fns = [(b.tall, _pieces(fam, shape, planes, b.polygon, t0, t1, need_area=True))
                   for b in relevant]
    cuts = sorted({t0, t1, *(p.hi for p in target_fn),
                   *(p.hi for _, fn in blocker_fns for p in fn)})
    for lo, hi in itertools.pairwise(cuts):
        if hi - lo < 1e-12:
            continue
        mid = (lo + hi) / 2.0
        tp = _piece_at(target_fn, mid)
        if tp is None or tp.line is None:
            continue
        touch_t = mid if touch_t is None else touch_t
        tp_ends = (tp.at(lo), tp.at(hi))
        every: list[tuple[float, float]] = []
        tall: list[tuple[float, float]] = []
        for is_tall, fn in blocker_fns:
            piece = _piece_at(fn, mid)
            if piece is None or piece.line is None:
                continue
            every.append((piece.at(lo), piece.at(hi)))
            if is_tall:
                tall.append(every[-1])
        if unblocked_t is None:
            unblocked_t = _feasible(lo, hi, lo, hi, tp_ends, tall)
        t_cl = _feasible(lo, hi, lo, hi, tp_ends, every)
        if t_cl is not None:
            return _FamilyResult(True, t_cl if unblocked_t is None else unblocked_t, t_cl, touch_t)
    return _FamilyResult(touch_t is not None, unblocked_t, None, touch_t)


Line = tuple[float, float]
"""(value at 0, slope) of a linear function of the family parameter."""


def _settle(fam: PlacementFamily, shape: list[Point], along: _Along, d: Point,
            target: Sequence[Point], dom: tuple[float, float], touch_t: float | None,
            unblocked_t: float | None, blockers: list[Blocker], need: int = CLEAR
            ) -> _FamilyResult:
    """The rest of ``_solve_family`` once the middle placement is judged: the target's
    distance function is worked out only on the stretches some obstruction contests, and
    the Tall obstructions alone first (no unblocked placement, no clear one either).
    Below ``need`` = ``CLEAR`` no clear placement is looked for, below ``UNBLOCKED`` no
    unblocked one."""
    if touch_t is not None and (need <= TOUCHING or (need <= UNBLOCKED
                                                     and unblocked_t is not None)):
        return _FamilyResult(True, unblocked_t, None, touch_t)
    t0, t1 = dom
    # An obstruction whose nearest point is, even from the farthest origin, no nearer than
    # the target's farthest point from the nearest origin cannot come first anywhere.
    o_near, o_far = sorted(o[0] * d[0] + o[1] * d[1] for o in (fam.origin(t0), fam.origin(t1)))
    t_far = max(x * d[0] + y * d[1] for x, y in target) - o_near
    blockers = [b for b in blockers
                if min(x * d[0] + y * d[1] for x, y in b.polygon) - o_far < t_far + 1e-9]
    cuts = sorted({t0, t1, *(t for t in _critical_params(fam, shape, [target]) if t0 < t < t1)})
    stretches = [(lo, hi) for lo, hi in itertools.pairwise(cuts) if hi - lo >= 1e-12]
    lines: dict[int, Line | None] = {}

    def line_of(k: int) -> Line | None:
        """The target's nearest distance on stretch ``k`` (as ``_pieces`` finds it)."""
        if k not in lines:
            lo, hi = stretches[k]
            sa, sb = lo + (hi - lo) / 3.0, lo + 2.0 * (hi - lo) / 3.0
            va = along.at(target, sa, False)
            vb = along.at(target, sb, False)
            if va == _INF or vb == _INF:
                lines[k] = None
            else:
                slope = (vb - va) / (sb - sa)
                lines[k] = (va - slope * sa, slope)
        return lines[k]

    # the target's nearest point along the facing, from the origin at t: below its distance
    floor = (min(x * d[0] + y * d[1] for x, y in target) - (fam.start[0] * d[0] +
             fam.start[1] * d[1]),
             -((fam.end[0] - fam.start[0]) * d[0] + (fam.end[1] - fam.start[1]) * d[1]))
    if touch_t is None:
        touch_t = next(((lo + hi) / 2.0 for k, (lo, hi) in enumerate(stretches)
                        if line_of(k) is not None), None)
        if touch_t is None:
            return _FamilyResult(False, None, None, None)
    if need <= TOUCHING:
        return _FamilyResult(True, unblocked_t, None, touch_t)
    if unblocked_t is None:
        unblocked_t = _any_free(fam, shape, along, stretches, line_of, floor,
                                [b for b in blockers if b.tall])
        if unblocked_t is None:
            return _FamilyResult(True, None, None, touch_t)
    if need <= UNBLOCKED:
        return _FamilyResult(True, unblocked_t, None, touch_t)
    return _FamilyResult(True, unblocked_t,
                         _any_free(fam, shape, along, stretches, line_of, floor, blockers),
                         touch_t)


def _any_free(fam: PlacementFamily, shape: list[Point], along: _Along,
              stretches: list[tuple[float, float]],
              line_of: Callable[[int], Line | None], floor: Line, blockers: Sequence[Blocker]
              ) -> float | None:
    """A parameter of the family where the placement touches the target and none of
    ``blockers`` comes before it (the test and tolerances of the direct solve), or None.
    The candidates start as the target's stretches (``line_of`` gives its distance on
    each, None where it is not touched); each obstruction, on each of its own linear
    stretches that still meets a candidate, strikes out where it comes first, and the
    work stops as soon as nothing is left."""
    dom = [(lo, hi, k) for k, (lo, hi) in enumerate(stretches)]
    for b in blockers:
        if not dom:
            return None
        nxt: list[tuple[float, float, int]] = []
        wide = []
        for lo, hi, k in dom:
            if hi - lo < 1e-12:  # a single parameter left: judge it directly
                line = line_of(k)
                if line is None:
                    continue
                v = along.at(b.polygon, lo, True)
                if v >= line[0] + line[1] * lo - 1e-9:
                    nxt.append((lo, hi, k))
            else:
                wide.append((lo, hi, k))
        if wide:
            span_lo, span_hi = wide[0][0], wide[-1][1]
            cuts = sorted({span_lo, span_hi,
                           *(t for t in _critical_params(fam, shape, [b.polygon])
                             if span_lo < t < span_hi)})
            j = 0
            for a, c in itertools.pairwise(cuts):
                if c - a < 1e-12:
                    continue
                while j < len(wide) and wide[j][1] <= a:
                    j += 1
                over = []
                m = j
                while m < len(wide) and wide[m][0] < c:
                    over.append(wide[m])
                    m += 1
                if not over:
                    continue
                sa, sb = a + (c - a) / 3.0, a + 2.0 * (c - a) / 3.0
                va = along.at(b.polygon, sa, True)
                vb = along.at(b.polygon, sb, True)
                for lo, hi, k in over:
                    p0, p1 = max(a, lo), min(c, hi)
                    if p1 - p0 < 1e-12:
                        continue
                    if va == _INF or vb == _INF:
                        nxt.append((p0, p1, k))
                        continue
                    slope = (vb - va) / (sb - sa)
                    # first a bound: the target is never nearer than its nearest point
                    # along the facing, so well before that is before the target too
                    f0, f1 = floor[0] + floor[1] * p0, floor[0] + floor[1] * p1
                    if va + slope * (p0 - sa) < f0 - 1e-5 and va + slope * (p1 - sa) < f1 - 1e-5:
                        continue
                    line = line_of(k)
                    if line is None:
                        continue
                    g0 = va + slope * (p0 - sa) - (line[0] + line[1] * p0)
                    g1 = va + slope * (p1 - sa) - (line[0] + line[1] * p1)
                    gs = (g1 - g0) / (p1 - p0)
                    if abs(gs) < 1e-12:
                        if g0 >= -1e-7:
                            nxt.append((p0, p1, k))
                        continue
                    root = p0 - g0 / gs
                    q0, q1 = (max(p0, root - 1e-9), p1) if gs > 0 else (p0, min(p1, root + 1e-9))
                    if q0 <= q1:
                        nxt.append((q0, q1, k))
        nxt.sort(key=lambda x: x[0])
        dom = nxt
    return next(((lo + hi) / 2.0 for lo, hi, k in dom if line_of(k) is not None), None)


class _Key:
    """A ``check_fire`` memo key: its inputs (body, target, arc, template, blockers,
    tolerance), equal to another key when their inputs are equal. Hashed once (the memo asks
    for the hash on every look-up, store and move to the end), and without the template
    (a plain class, hashed through Python; equal keys still hash alike, and templates are
    compared when the rest match). Unhashable blockers raise ``TypeError`` here, as they did
    in a tuple key."""

    def __init__(self, values: tuple[object, ...]) -> None:
        self.values = values
        body, pts, arc, _, blockers, tol = values
        self.h = hash((body, pts, arc, blockers, tol))

    def __hash__(self) -> int:
        return self.h

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and self.h == other.h and self.values == other.values


_MEMO: OrderedDict[_Key, FireCheck] = OrderedDict()
_MEMO_SIZE = 4096
"""The latest answers of ``check_fire``, by their exact inputs: a game asks the same
question several times (a bot weighing its shots, then the attack itself, copies of the
game replaying), and the answer is a pure function of the inputs."""


_worked_out = 0
"""How many ``check_fire`` answers were worked out (not taken from memory)."""


def worked_out() -> int:
    """How many ``check_fire`` answers were worked out rather than remembered, so far."""
    return _worked_out


_timings: list[tuple[Arc, bool, float]] | None = None
"""While recording (``record_timings``): each answer worked out, as its arc, whether the
template is a burst, and the CPU milliseconds it took."""


def record_timings(on: bool) -> list[tuple[Arc, bool, float]]:
    """Start (``on``) or stop timing the ``check_fire`` answers worked out (benchmarks: the
    calls come from compiled code, which a wrapper around the function would not see);
    returns what was recorded since the last start."""
    global _timings
    got = _timings or []
    _timings = [] if on else None
    return got


def clear_memo() -> None:
    """Forget the remembered ``check_fire`` answers and the per-shooter geometry behind
    them (benchmarks start each batch cold)."""
    _MEMO.clear()
    clear_reach_memo()
    _turret_hulls.cache_clear()
    _critical_angles.cache_clear()


def check_fire(
    body: Rect,
    target: Sequence[Point],
    arc: Arc,
    tpl: ShootingTemplate,
    blockers: Sequence[Blocker] = (),
    *,
    tol: float = REACH_TOL,
) -> FireCheck:
    """In range, cover and blocked for a shot from ``body`` at ``target`` (see module doc).
    ``tol`` (mm) is the 360° arc's search tolerance, for reach and for cover alike.

    When the target is blocked it is also reported in cover (a Tall obstruction is an
    obstruction too); it cannot be attacked with this template either way.

    Answers are remembered by their exact inputs (the last ``_MEMO_SIZE``), so asking
    again is free; inputs that cannot be hashed are simply worked out each time. The target's
    corners may come as any pairs of numbers (lists from JSON too).
    """
    global _worked_out
    pts = _as_points(target)
    try:
        key: _Key | None = _Key((body, pts, arc, tpl, tuple(blockers), tol))
    except TypeError:  # something inside the blockers is not hashable
        key = None
    fc = None if key is None else _MEMO.get(key)
    if fc is not None:
        _MEMO.move_to_end(key)  # type: ignore[arg-type]
        return fc
    _worked_out += 1
    if _timings is None:
        fc = _check_fire(body, pts, arc, tpl, blockers, tol)
    else:
        t0 = time.process_time()
        fc = _check_fire(body, pts, arc, tpl, blockers, tol)
        _timings.append((arc, tpl.is_burst, 1000.0 * (time.process_time() - t0)))
    if key is not None:
        _MEMO[key] = fc
        if len(_MEMO) > _MEMO_SIZE:
            _MEMO.popitem(last=False)
    return fc


def _within(poly: Sequence[Point], cx: float, cy: float, r: float) -> bool:
    """Whether the nearest corner of ``poly`` is less than ``r`` from (cx, cy), as
    ``min(hypot(...)) < r`` decides it (compiled: a loop, not a generator)."""
    if not poly:
        raise ValueError("an obstruction's outline has no corners")
    for p in poly:  # noqa: SIM110 (compiled, any() over a generator costs more)
        if _hypot(p[0] - cx, p[1] - cy) < r:
            return True
    return False


def _as_points(corners: Sequence[Sequence[float]]) -> tuple[Point, ...]:
    """Corners as a tuple of (x, y) tuples (typed loosely: compiled code checks the type)."""
    return tuple((p[0], p[1]) for p in corners)


def _check_fire(body: Rect, target: Sequence[Point], arc: Arc, tpl: ShootingTemplate,
                blockers: Sequence[Blocker], tol: float) -> FireCheck:
    found: float | None = None
    closest: tuple[Point, Point, float] | None = None
    if arc is Arc.TURRET:
        closest = closest_points(body.polygon(), target)  # asked once, used twice
        found = turret_reach_facing(body, target, tpl, tol, closest)
        in_range = found is not None
    else:
        in_range = can_reach(body, target, arc, tpl)
    if not in_range:
        return plain_check(False, False, False)
    # Nothing farther from the shooter than the template can reach matters.
    horizon = tpl.near_half + tpl.reach + _hypot(body.length, body.width) / 2.0
    cx, cy = body.pose.x, body.pose.y
    shooter = body.polygon()
    blockers = [b for b in blockers
                if _within(b.polygon, cx, cy, horizon)
                or penetration(shooter, b.polygon) > -horizon]
    if arc is not Arc.TURRET:
        fixed = fixed_families(body, arc, tpl)
        return _scan(fixed, tpl, target, blockers) or \
            _scan(fixed, tpl, _grown(target), blockers) or plain_check(True, True, True)
    # Start along the line between the closest points: a clear shot, when there is one,
    # is usually found there.
    assert closest is not None
    p, q, _ = closest  # ``closest_points(shooter, target)``: the same corners
    aim = _atan2(q[1] - p[1], q[0] - p[0]) * _R2D if p != q else 0.0
    seeds = [aim, *([] if found is None else [found])]
    ruler = RulerFacing(body, tpl) if not tpl.is_burst else None
    cap = _burst_cap(body, tpl) if ruler is None else None
    judge = ruler.judge if ruler is not None else _burst_judge(body, tpl, cap)
    pivot = ruler.judge if ruler is not None else None
    # an outline without area never obstructs (GF-4: overlapping needs some area)
    obstacles = [_obstacle(b) for b in blockers
                 if len(b.polygon) >= 3 and area(b.polygon) > 1e-9]
    crit = turret_critical_angles(body, tpl)
    res = search(judge, shooter, tpl, target, obstacles, seeds, crit, tol, pivot, cap=cap)
    if res.level == 0:
        # In reach only within the search tolerance: judge the shot on the target grown by
        # that tolerance.
        res = search(judge, shooter, tpl, _grown(target), obstacles, seeds, crit, tol, pivot,
                     cap=cap)
    if res.level == 0:
        return plain_check(True, True, True)
    return FireCheck(True, res.level < CLEAR, res.level < UNBLOCKED, res.placement,
                     res.heading)


_OBSTACLES: dict[int, tuple[Blocker, Obstacle]] = {}
"""``Obstacle.of`` of a blocker's outline, by the blocker's identity (held with it): the
sight keeps its blockers from one Attack Step to the next (``attack._blocker``), so most
were prepared for an earlier shot."""


def _obstacle(b: Blocker) -> Obstacle:
    """``Obstacle.of(b.polygon, b.tall)``, remembered (a frozen value, shared)."""
    hit = _OBSTACLES.get(id(b))
    if hit is not None and hit[0] is b:
        return hit[1]
    o = Obstacle.of(b.polygon, b.tall)
    if len(_OBSTACLES) >= 4096:
        _OBSTACLES.clear()
    _OBSTACLES[id(b)] = (b, o)
    return o


def _burst_judge(body: Rect, tpl: ShootingTemplate, cap: Cap | None = None) -> Judge:
    """Exact judgement of a burst's 360° placements at one facing: its families (the tip on
    an edge or a corner of the shooter), each solved exactly by ``_solve_family``.

    With ``cap`` (``_burst_cap``), once a family's middle placement is found not clear the
    cap is asked (once) whether any placement at this facing can be; when it shows none
    can (nor, from the Tall ones, be unblocked), the families are solved only up to that
    level and the loop stops once it is reached: the families before were solved in
    full and none after could do better, so the level and placement are those of the
    full judgement."""

    def judge(theta: float, target: Sequence[Point],
              obstacles: Sequence[tuple[Sequence[Point], bool]], want: int
              ) -> tuple[int, tuple[Point, ...] | None]:
        blockers = [Blocker("", tuple(p), tall) for p, tall in obstacles]
        best, placed = 0, None
        ceiling = [want, 0 if cap is not None and want >= CLEAR else 1]

        def lower() -> int:
            """The best level the cap leaves possible (asked once)."""
            if not ceiling[1] and cap is not None:
                ceiling[1] = 1
                if cap(theta, target, obstacles, False):
                    ceiling[0] = TOUCHING if cap(theta, target, obstacles, True) \
                        else UNBLOCKED
            return ceiling[0]

        msum: list[Point] | None = None
        memo: dict[_AlongKey, float] = {}  # shared by the families of this facing
        for fam in turret_families(body, tpl, theta):
            if not _may_touch(tpl, fam, target):
                continue
            if msum is None:
                msum = _msum(target, fam.shape(tpl))
            res = _solve_family(fam, tpl, target, blockers, msum, memo=memo,
                                need=ceiling[0], lower=lower)
            if not res.touch:
                continue
            for level, t in ((CLEAR, res.clear_t), (UNBLOCKED, res.unblocked_t),
                             (TOUCHING, res.touch_t)):
                if t is not None and level > best:
                    best, placed = level, tuple(fam.placed(tpl, t))
                    break
            if best >= ceiling[0]:
                break
        return best, placed

    return judge


CAP_INSET: Final = 0.01
"""How far (mm) inside an obstruction the points ``_burst_cap`` counts lie: a disc this
wide around each lies in the obstruction, so a teardrop holding the point overlaps it
over an area far above the 1e-9 mm² the exact judgement needs."""

CAP_EDGE: Final = 1e-3
"""Edges shorter than this (mm) are left out of ``_burst_cap``'s outlines (their corners
dropped: a smaller outline), so every edge's direction is known to far better than the
margins."""

CAP_MARGIN: Final = 1e-6
"""Slack (mm) of every comparison ``_burst_cap`` makes, far above the rounding of the
judgement it stands in for."""

Plane = tuple[float, float, float]
"""(ax, ay, b): the points T with ax·Tx + ay·Ty ≤ b."""


def _sparse(poly: Sequence[Point]) -> list[Point]:
    """The corners of the convex counter-clockwise ``poly`` less each one within
    ``CAP_EDGE`` of the last kept (and the last if within it of the first): the hull of
    a subset of the corners, so inside ``poly``."""
    out: list[Point] = []
    for p in poly:
        if not out or _apart(p, out[-1]):
            out.append(p)
    while len(out) > 1 and not _apart(out[-1], out[0]):
        out.pop()
    return out


def _apart(p: Point, q: Point) -> bool:
    """``math.dist(p, q) >= CAP_EDGE``, without the root when one coordinate alone is that
    far apart (the distance is faithfully rounded, so then it is at least that too)."""
    dx, dy = abs(p[0] - q[0]), abs(p[1] - q[1])
    if dx >= CAP_EDGE or dy >= CAP_EDGE:
        return True
    return math.dist(p, q) >= CAP_EDGE


def _convex(poly: Sequence[Point]) -> bool:
    """Whether ``poly`` (at least three corners) turns left at every corner."""
    n = len(poly)
    if n < 3:
        return False
    a, b = poly[n - 2], poly[n - 1]
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    for c in poly:  # corners i - 2, i - 1, i (compiled, far cheaper than by index)
        cx, cy = c[0], c[1]
        if (bx - ax) * (cy - by) - (by - ay) * (cx - bx) <= 1e-9:
            return False
        ax, ay, bx, by = bx, by, cx, cy
    return True


def _edge_normals(poly: Sequence[Point]) -> list[Plane]:
    """Outward unit normal and offset of each edge of the convex counter-clockwise
    ``poly`` (edges at least ``CAP_EDGE`` long)."""
    out: list[Plane] = []
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        ln = _hypot(x2 - x1, y2 - y1)
        if ln >= CAP_EDGE:
            nx, ny = (y2 - y1) / ln, -(x2 - x1) / ln
            out.append((nx, ny, nx * x1 + ny * y1))
    return out


def _tips_meeting(region: Sequence[Point], r_planes: list[Plane], shape: Sequence[Point],
                  s_planes: list[Plane], slack: float) -> list[Plane]:
    """The tips T with (shape + T) ∩ region ≠ ∅, as half-planes, each moved out by
    ``slack`` (in, when negative): for convex outlines they meet unless an edge of one
    has the other wholly outside it. With every edge of both this is region ⊕ (−shape);
    with some left out, a larger set."""
    out: list[Plane] = []
    for nx, ny, c in s_planes:  # shape's edge: the region not wholly beyond it
        out.append((-nx, -ny, c - _lowest(nx, ny, region) + slack))
    for mx, my, r in r_planes:  # the region's edge: shape + T not wholly beyond it
        out.append((mx, my, r - _lowest(mx, my, shape) + slack))
    return out


def _lowest(nx: float, ny: float, points: Sequence[Point]) -> float:
    """The least of ``nx x + ny y`` over ``points`` (not empty)."""
    x, y = points[0]
    lo = nx * x + ny * y
    for k in range(1, len(points)):
        x, y = points[k]
        v = nx * x + ny * y
        if v < lo:
            lo = v
    return lo


def _on_segment(planes: list[Plane], start: Point, end: Point) -> tuple[float, float] | None:
    """The parameters t in [0, 1] of the points start + t·(end − start) inside
    ``planes``, or None."""
    sx, sy = start
    ex, ey = end[0] - sx, end[1] - sy
    lo, hi = 0.0, 1.0
    for ax, ay, b in planes:
        den = ax * ex + ay * ey
        num = b - (ax * sx + ay * sy)
        if den > 0.0:
            hi = min(hi, num / den)
        elif den < 0.0:
            lo = max(lo, num / den)
        elif num < 0.0:
            return None
        if lo > hi:
            return None
    return lo, hi


def _inset(poly: Sequence[Point], by: float) -> list[Point] | None:
    """The convex outline ``poly`` with every edge moved ``by`` inwards, or None when
    that is not shown to leave a convex outline whose corners all lie at least ``by``/2
    inside every edge of ``poly``."""
    pts = _sparse(ccw(poly))
    if not _convex(pts):
        return None
    planes = _edge_normals(pts)
    if len(planes) != len(pts):
        return None
    out: list[Point] = []
    n = len(pts)
    for i in range(n):
        ax, ay, _ = planes[i - 1]
        bx, by_, _ = planes[i]
        den = 1.0 + ax * bx + ay * by_
        if den < 0.2:  # too sharp a corner
            return None
        x, y = pts[i]
        out.append((x - by * (ax + bx) / den, y - by * (ay + by_) / den))
    for x, y in out:
        for nx, ny, c in planes:
            if nx * x + ny * y > c - 0.5 * by:
                return None
    return out if _convex(out) else None


@dataclass(frozen=True)
class _Turned:
    """The teardrop turned to one facing, as ``_burst_cap`` uses it there."""

    shape: tuple[Point, ...]
    d: Point
    s_all: list[Plane]
    s_pts: list[Point]
    s_in: list[Plane]
    box: tuple[float, float, float, float]
    """``_extent`` of ``shape``."""


def _burst_cap(body: Rect, tpl: ShootingTemplate) -> Cap:
    """A cheap proof, at one facing, that no burst placement touching the target is clear
    (or unblocked), without clipping: ``_burst_judge`` could only answer less then.

    At facing θ the judgement's families slide the tip T along a segment of the
    shooter's outline (or hold it on a corner). The tips whose teardrop S + T may touch
    the target lie in target ⊕ (−S) grown by more than its touching tolerance (the half-
    planes of both outlines' edges, each moved out): a parameter range per family, a
    superset of the one the judgement solves over. A point x of an obstruction lying
    ``CAP_INSET`` inside it and nearer along θ than the target's nearest point, inside
    S + T, makes the placement at T overlap the obstruction (over a disc's share far
    above the judgement's least area) before any contact with the target. Such points x
    are the obstruction's inset outline cut at the target's nearest point, R, and the tips
    with S + T meeting R are R ⊕ (−S) (half-planes, each moved in by ``CAP_MARGIN``): a
    parameter range per family and obstruction. When these ranges cover every family's
    touching range, no placement at θ is clear (unblocked, from the Tall ones alone).
    Every outline is convex and counter-clockwise, with edges at least ``CAP_EDGE`` long
    (an obstruction that cannot be made so is left out, which only shows less)."""

    last: dict[tuple[float, bool], tuple[Sequence[Point],
                                          Sequence[tuple[Sequence[Point], bool]], bool]] = {}
    turned: dict[float, _Turned | None] = {}
    insets: dict[int, tuple[Sequence[Point], list[Point] | None]] = {}
    """Per outline (by identity, the outline kept with its answer), ``_inset`` of it: the
    search asks the cap about the same obstructions at facing after facing."""
    """Per facing, what depends on it alone (the teardrop turned, its edges, the blocking
    side's corners and edges): the same floats whenever asked again at that facing."""

    def teardrop(theta: float) -> _Turned | None:
        if theta in turned:
            return turned[theta]
        shape = _rotated(tpl.polygon, theta)
        d = (math.cos(theta * _D2R), math.sin(theta * _D2R))
        s_all = _edge_normals(shape)
        # the blocking side takes every other corner of the round end (fewer planes; a
        # smaller outline, within 0.3 mm of the teardrop)
        full = _sparse(shape)
        s_pts = [*full[:2], *full[3:-1:2], full[-1]] if len(full) > 8 else full
        got = _Turned(shape, d, s_all, s_pts, _edge_normals(s_pts), _extent(shape)) \
            if _convex(s_pts) else None
        if len(turned) >= 64:
            turned.clear()
        turned[theta] = got
        return got

    def cap(theta: float, target: Sequence[Point],
            obstacles: Sequence[tuple[Sequence[Point], bool]], tall_only: bool) -> bool:
        """``shown`` for the inputs; again the same answer when asked again at a facing
        for the very same objects (the search, then the judgement, at one facing; the
        search's passes)."""
        got = last.get((theta, tall_only))
        if got is not None and got[0] is target and got[1] is obstacles:
            return got[2]
        answer = shown(theta, target, obstacles, tall_only)
        if len(last) >= 256:
            last.clear()
        last[(theta, tall_only)] = (target, obstacles, answer)
        return answer

    def shown(theta: float, target: Sequence[Point],
              obstacles: Sequence[tuple[Sequence[Point], bool]], tall_only: bool) -> bool:
        fams = turret_families(body, tpl, theta)
        if not fams:
            return True
        tear = teardrop(theta)
        if tear is None:
            return False
        shape, d, s_all, s_pts, s_in = tear.shape, tear.d, tear.s_all, tear.s_pts, tear.s_in
        tgt = ccw(target)
        if len(tgt) < 3:
            return False
        near = _lowest(d[0], d[1], tgt) - CAP_MARGIN
        touch = _tips_meeting(tgt, _edge_normals(tgt) if _convex(tgt) else [], shape,
                              s_all, 10.0 * TOUCH + CAP_MARGIN)
        doms = [(fam, dom) for fam in fams
                if (dom := _on_segment(touch, fam.start, fam.end)) is not None]
        if not doms:
            return True
        # the box every teardrop of a touching tip lies in
        tips = [fam.origin(t) for fam, dom in doms for t in dom]
        tx0, tx1, ty0, ty1 = _extent(tips)
        sx0, sx1, sy0, sy1 = tear.box
        bx0, bx1, by0, by1 = tx0 + sx0, tx1 + sx1, ty0 + sy0, ty1 + sy1
        regions: list[list[Plane]] = []
        for poly, tall in obstacles:
            if tall_only and not tall:
                continue
            if _lowest(d[0], d[1], poly) >= near - CAP_INSET:
                continue
            px0, px1, py0, py1 = _extent(poly)
            if px0 >= bx1 or px1 <= bx0 or py0 >= by1 or py1 <= by0:
                continue  # meets no teardrop that may touch
            known = insets.get(id(poly))
            if known is not None and known[0] is poly:
                inner = known[1]
            else:
                inner = _inset(poly, CAP_INSET)
                if len(insets) >= 512:
                    insets.clear()
                insets[id(poly)] = (poly, inner)
            if inner is None:
                continue
            part = _sparse(_clip_by(inner, [(d[0], d[1], near)]))
            if not _convex(part):
                continue
            regions.append(_tips_meeting(part, _edge_normals(part), s_pts, s_in,
                                         -CAP_MARGIN))
        for fam, dom in doms:
            spans = [sp for r in regions if (sp := _on_segment(r, fam.start, fam.end))]
            spans.sort()
            at, i = dom[0], 0
            while True:
                reach = -_INF
                while i < len(spans) and spans[i][0] <= at:
                    reach = max(reach, spans[i][1])
                    i += 1
                if reach < at:
                    return False
                if reach >= dom[1]:
                    break
                at = reach
        return True

    return cap


def _grown(target: Sequence[Point]) -> list[Point]:
    """The target grown by the reach tolerance (for shots that reach it only within it)."""
    return convex_hull([(x + dx, y + dy) for x, y in target
                        for dx in (-REACH_TOL, REACH_TOL) for dy in (-REACH_TOL, REACH_TOL)])


def _scan(families: Iterable[PlacementFamily], tpl: ShootingTemplate, target: Sequence[Point],
          blockers: Sequence[Blocker]) -> FireCheck | None:
    """Best answer over the families (see ``check_fire``); None if none touches."""
    best_unblocked: tuple[tuple[Point, ...], float] | None = None
    any_touch: tuple[tuple[Point, ...], float] | None = None
    for fam in families:
        res = _solve_family(fam, tpl, target, blockers)
        if not res.touch:
            continue
        if res.clear_t is not None:
            return FireCheck(
                True, False, False, tuple(fam.placed(tpl, res.clear_t)), fam.heading
            )
        if res.unblocked_t is not None and best_unblocked is None:
            best_unblocked = (tuple(fam.placed(tpl, res.unblocked_t)), fam.heading)
        if res.touch_t is not None and any_touch is None:
            any_touch = (tuple(fam.placed(tpl, res.touch_t)), fam.heading)
    if best_unblocked is not None:
        return FireCheck(True, True, False, *best_unblocked)
    if any_touch is not None:
        return FireCheck(True, True, True, *any_touch)
    return None


def _may_touch(tpl: ShootingTemplate, fam: PlacementFamily, target: Sequence[Point]) -> bool:
    """Cheap bound: does the target's extent along/across the facing meet the family's?"""
    th = fam.heading * _D2R
    d = (math.cos(th), math.sin(th))
    nrm = (-d[1], d[0])
    shape = fam.shape(tpl)

    def span(pts: Sequence[Point], ax: Point) -> tuple[float, float]:
        vals = [x * ax[0] + y * ax[1] for x, y in pts]
        return min(vals), max(vals)

    pts = [(x + o[0], y + o[1]) for o in (fam.start, fam.end) for x, y in shape]
    for ax in (d, nrm):
        a0, a1 = span(pts, ax)
        b0, b1 = span(target, ax)
        if a1 < b0 - TOUCH or b1 < a0 - TOUCH:
            return False
    return True
