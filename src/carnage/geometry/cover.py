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
hence exact. The 360° arc is searched over facings every ``turret_step`` degrees plus the
critical facings, each facing exact along its families.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from carnage.geometry.arcs import (
    TOUCH,
    Arc,
    PlacementFamily,
    can_reach,
    fixed_families,
    turret_critical_angles,
    turret_families,
)
from carnage.geometry.convex import area, clip_planes, convex_hull, halfplanes, sweep_hull
from carnage.geometry.ranges import ShootingTemplate
from carnage.geometry.shapes import Point, Rect, penetration


@dataclass(frozen=True)
class Blocker:
    """Anything that may stand between shooter and target: obstacles, wrecks, vehicles."""

    id: str
    polygon: tuple[Point, ...]
    tall: bool = False


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


@dataclass(frozen=True)
class _FamilyResult:
    touch: bool
    unblocked_t: float | None
    clear_t: float | None
    touch_t: float | None


_INF = math.inf


def _first_along(body: Sequence[Point], planes: list[tuple[float, float, float]], origin: Point,
                 d: Point, need_area: bool) -> float:
    """Distance along the template axis from its origin to the nearest point of ``body``
    inside the template (given by its half-planes at the origin (0, 0)) placed at
    ``origin``; inf when they do not meet (or, with ``need_area``, only touch)."""
    inter = clip_planes(body, planes, origin[0], origin[1])
    if not inter:
        return _INF
    if need_area and (len(inter) < 3 or area(inter) <= 1e-9):
        return _INF
    ox, oy = origin
    return min((x - ox) * d[0] + (y - oy) * d[1] for x, y in inter)


def _touch_interval(fam: PlacementFamily, shape: list[Point], target: Sequence[Point]
                    ) -> tuple[float, float] | None:
    """Parameters t in [0, 1] whose placement touches the target: the segment of origins
    clipped by target ⊕ (−template)."""
    msum = convex_hull([(p[0] - q[0], p[1] - q[1]) for p in target for q in shape])
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


def _critical_params(fam: PlacementFamily, shape: list[Point], bodies: Sequence[Sequence[Point]]
                     ) -> list[float]:
    sx, sy = fam.start
    ex, ey = fam.end[0] - sx, fam.end[1] - sy
    out: list[float] = []
    tpl_planes = halfplanes(shape)
    for body in bodies:
        for nx, ny, c in tpl_planes:
            den = nx * ex + ny * ey
            if abs(den) < 1e-12:
                continue
            for x, y in body:
                out.append((nx * (x - sx) + ny * (y - sy) - c) / den)
        for mx, my, c in halfplanes(body):
            den = mx * ex + my * ey
            if abs(den) < 1e-12:
                continue
            for qx, qy in shape:
                out.append((c - mx * (sx + qx) - my * (sy + qy)) / den)
    return out


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


def _solve_family(fam: PlacementFamily, tpl: ShootingTemplate, target: Sequence[Point],
                  blockers: Sequence[Blocker]) -> _FamilyResult:
    shape = fam.shape(tpl)
    dom = _touch_interval(fam, shape, target)
    if dom is None:
        return _FamilyResult(False, None, None, None)
    t0, t1 = dom
    d = (math.cos(math.radians(fam.heading)), math.sin(math.radians(fam.heading)))
    reach = sweep_hull(shape, fam.origin(t0), fam.origin(t1))
    relevant = [b for b in blockers if penetration(reach, b.polygon) > 1e-9]

    planes = halfplanes(shape)

    def eval_at(t: float) -> tuple[float, list[float], list[bool]]:
        o = fam.origin(t)
        tp = _first_along(target, planes, o, d, need_area=False)
        obs = [_first_along(b.polygon, planes, o, d, need_area=True) for b in relevant]
        return tp, obs, [b.tall for b in relevant]

    def status(tp: float, obs: list[float]) -> tuple[bool, bool]:
        pairs = zip(relevant, obs, strict=True)
        unblocked = all(not (b.tall and ot < tp - 1e-9) for b, ot in pairs)
        clear = all(ot >= tp - 1e-9 for ot in obs)
        return unblocked, clear

    unblocked_t: float | None = None
    touch_t: float | None = None
    # Cheap first look at the middle of the domain: usually decides it.
    probes = [(t0 + t1) / 2.0]
    if not relevant:
        tm = probes[0]
        return _FamilyResult(True, tm, tm, tm)
    crit = sorted({t0, t1, *(t for t in _critical_params(
        fam, shape, [target, *(b.polygon for b in relevant)]) if t0 < t < t1)})
    for t in probes + crit:
        tp, obs, _ = eval_at(t)
        if tp == _INF:
            continue
        touch_t = t if touch_t is None else touch_t
        ub, cl = status(tp, obs)
        if ub and unblocked_t is None:
            unblocked_t = t
        if cl:
            return _FamilyResult(True, t, t, t)
    for lo, hi in itertools.pairwise(crit):
        if hi - lo < 1e-12:
            continue
        sa, sb = lo + (hi - lo) / 3.0, lo + 2.0 * (hi - lo) / 3.0
        tpa, obsa, _ = eval_at(sa)
        tpb, obsb, _ = eval_at(sb)
        if tpa == _INF or tpb == _INF:
            continue
        touch_t = sa if touch_t is None else touch_t
        pairs = [(a, b) for a, b in zip(obsa, obsb, strict=True)]
        finite = [(a, b) for a, b in pairs if a != _INF and b != _INF]
        tall_finite = [
            (a, b) for (a, b), bl in zip(pairs, relevant, strict=True)
            if bl.tall and a != _INF and b != _INF
        ]
        if unblocked_t is None:
            t_ub = _feasible(lo, hi, sa, sb, (tpa, tpb), tall_finite)
            if t_ub is not None:
                unblocked_t = t_ub
        t_cl = _feasible(lo, hi, sa, sb, (tpa, tpb), finite)
        if t_cl is not None:
            return _FamilyResult(True, t_cl if unblocked_t is None else unblocked_t, t_cl, touch_t)
    return _FamilyResult(touch_t is not None, unblocked_t, None, touch_t)


def check_fire(
    body: Rect,
    target: Sequence[Point],
    arc: Arc,
    tpl: ShootingTemplate,
    blockers: Sequence[Blocker] = (),
    *,
    turret_step: float = 1.0,
) -> FireCheck:
    """In range, cover and blocked for a shot from ``body`` at ``target`` (see module doc).

    When the target is blocked it is also reported in cover (a Tall obstruction is an
    obstruction too); it cannot be attacked with this template either way.
    """
    in_range = can_reach(body, target, arc, tpl)
    if not in_range:
        return FireCheck(False, False, False, None)
    if arc is Arc.TURRET:
        crit = turret_critical_angles(body, tpl)
        n = max(1, round(360.0 / turret_step))
        facings = sorted({*crit, *(360.0 * i / n for i in range(n))})
        families = (f for th in facings for f in turret_families(body, tpl, th)
                    if _may_touch(tpl, f, target))
    else:
        families = (f for f in fixed_families(body, arc, tpl))
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
    # Everything touching is blocked. (Also reached if the 360° reach was decided within
    # its tolerance and the facing scan found no touching placement.)
    if any_touch is not None:
        return FireCheck(True, True, True, *any_touch)
    return FireCheck(True, True, True)


def _may_touch(tpl: ShootingTemplate, fam: PlacementFamily, target: Sequence[Point]) -> bool:
    """Cheap bound: does the target's extent along/across the facing meet the family's?"""
    th = math.radians(fam.heading)
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
