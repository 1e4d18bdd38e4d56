"""Cover and Tall for the 360° arc, searched over every facing (Refuelled pp.30, 42, 87).

A 360° placement has two degrees of freedom: the facing θ and where along the shooter the
near edge touches. For one facing the question is one-dimensional and is answered exactly
(``RulerFacing`` for rulers, the per-family solver of ``cover`` for bursts). Over the
facings the search is a branch and bound with a proof, not a sampling:

* **Seeds.** The facing along the closest-point line, the reach search's facing and the
  critical facings (``turret_critical_angles``) within 90° of the first are judged exactly
  first, the other critical facings last.
* **Bound.** Between two critical facings every placement family keeps its identity.
  Turning the facing by δ moves a template point at distance ρ from its origin, with
  lateral offset at most w (the template's half-width), by at most ρ(1 − cos δ) +
  (w + a)·sin δ along the facing and ρ·sin δ + (w + a)(1 − cos δ) across it, a ruler's
  origin (the near edge's middle, sliding with the facing) accounting for the a terms. So
  if some placement at θ′ is clear, the placement at θ (|θ − θ′| ≤ h) with the same
  template-frame coordinates moves each relevant point by at most that box: it touches
  the target grown by the box, and no obstruction shrunk by the box meets it before that
  contact (a point inside the shrunk obstruction has the whole box around it inside the
  real one, so the real placement would have met it). Judging the facing θ in the middle
  of an interval of half-width h against "target grown, obstructions shrunk" (a grown
  superset and shrunk subsets are enough: both only make a shot easier; each with its own
  ρ, see ``search``) therefore bounds the best answer over the whole interval.
* **Pivot bound (rulers).** The box above turns every placement about its origin, so a
  target ρ_T away needs boxes of ρ_T·sin h. For rulers the bound turns each placement P′
  at θ′ instead about the point Q at x* along its axis (x* a quarter into the range the
  target contact can have along the ruler, worked out along the middle facing). The
  turned ruler P″ faces the middle θ; a template point at (x, y) moves by at most
  |x − x*|(1 − cos h) + a·sin h along θ and |x − x*| sin h + a(1 − cos h) across it. The
  origin of P″ is not on the shooter's front any more: across θ it is within x*·sin h of
  the origin of P′, whose near edge touches the shooter, and along θ it is no farther
  out than the front chain of the shooter swept a + x*·sin h across (instead of a),
  lifted by a·sin h; nor farther back than the shooter's back, less a·sin h +
  x*(1 − cos h). The relaxed rulers (``RulerFacing.judge`` with ``pivot``) start
  anywhere up to that lifted chain and only need the target beyond that back; the
  target is grown and each obstruction shrunk by its own box, worked out from the range
  of x its points before the contact can have (an obstruction with none is left out).
  P′ clear ⟹ its P″ is a clear relaxed ruler: a point of P″ inside a shrunk obstruction
  before the grown target's contact has its partner point of P′ inside the real one,
  before P′'s contact. Obstructions near the target, where the origin bound is weakest,
  now count with boxes of a few times the target's depth instead of its distance.
* **Search.** Intervals whose bound is no better than the best answer found are dropped
  (rulers: the pivot bound; bursts: the box bound); the others are split (for rulers,
  once at most ``EXACT_WITHIN`` from their middle, and for bursts always, also judged
  exactly at their middle) until the box is within ``tol``.
* **Ranges shown blocked.** ``shadow_arc`` (rulers) and ``burst_shadow_arc`` (bursts,
  with the teardrop's width growing from its tip) show, in closed form, a range of
  facings around a given one over which no placement touching the target is clear (or
  unblocked). The search walks such ranges as it needs them and passes over intervals,
  seeds and critical facings lying wholly in them for the level it would have to beat:
  nothing passed over could improve the answer, so the same facings improve it in the
  same order and the answer, facing and placement are those without them.
* **Culling.** An obstruction farther from the shooter (bounding circles) than a + ρ_B
  is dropped once (no point of it is within ρ_B of any origin). Per interval, one that
  lies wholly outside the band every placement at the middle facing covers across it
  (the shooter's extent widened by a + w), widened by its own box, or wholly beyond the
  target's far side (widened by both boxes) or behind the shooter, meets no placement of
  the interval before the target; it is left out of the interval's bound, its exact
  judgement and every part of it. The answers are the same: a culled obstruction could
  not have counted.

What it guarantees: a reported clear (or unblocked) placement is genuinely clear (or
unblocked), checked exactly at its facing; and any placement that stays clear with every
obstruction grown by ``tol`` and the target shrunk by ``tol`` is found (its interval can
never be dropped, whichever bound is used, both being proofs, and the exact judgement at
the middle of the last interval, at most ``tol`` away point for point, is then clear).
Culling and the pivot bound change which facings are judged, never what counts: the
answers on 600 seeded scenes are those of the search without them
(``tests/geometry/test_allround_golden.py``). Only a clear line thinner than ``tol``
(0.1 mm) can be missed — the same tolerance as the reach search.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from carnage.geometry.arcs import TOUCH, _rotated, turret_span
from carnage.geometry.convex import area, ccw, clip_halfplane, convex_hull
from carnage.geometry.ranges import ShootingTemplate
from carnage.geometry.shapes import (
    Point,
    Rect,
    closest_points,
    deeper_than,
    distance,
    heading_diff,
)

_D2R: Final = math.pi / 180.0
"""``math.radians(x)`` is ``x * _D2R`` bit for bit (CPython multiplies by the same constant);
compiled, the product costs no call."""
_R2D: Final = 180.0 / math.pi
"""``math.degrees(x)`` is ``x * _R2D`` bit for bit, likewise."""
_hypot: Final = math.hypot
_atan2: Final = math.atan2
"""Read once: compiled, each call of ``math.hypot`` and the like would look the name up."""

EPS: Final = 1e-9
"""Slack (mm) of the comparisons: an obstruction must start more than this nearer the
shooter than the target to count."""

EXACT_WITHIN: Final = 1.5
"""Half-width (degrees) from which an interval of ruler facings that its bound keeps is
also judged exactly at its middle; wider ones are only split (their bound, with boxes that
big, hardly ever drops them, and the middles of their parts are judged soon enough).
Bursts judge every kept interval's middle: their clear placements are often found there,
and each judgement costs more than a bound saves."""

DIRECT_FIRST: Final = 16
"""How many ruler intervals narrow enough to be judged exactly the lazy walk judges at
once, without their bounds, when their middle lies within ``DIRECT_WITHIN`` of the first
seed (a clear line, when there is one, is most often found near it). Such a facing is
passed over when ranges already shown cover it; new ranges are asked for it only while
they have been found more often than not (each costs about a judgement)."""

DIRECT_WITHIN: Final = 25.0
"""Degrees from the first seed within which ``DIRECT_FIRST`` applies."""

TOUCHING, UNBLOCKED, CLEAR = 1, 2, 3
"""Levels of a placement: touches the target; also meets nothing Tall first; also meets
nothing at all first (0: touches nothing)."""


@dataclass(frozen=True)
class Obstacle:
    """A convex outline prepared for moving its edges in or out: counter-clockwise
    vertices, each edge's inward unit normal, and per vertex the inverse of the 2×2 system
    that places it where its two edges' moved lines meet."""

    polygon: tuple[Point, ...]
    tall: bool
    normals: tuple[Point, ...]
    solve: tuple[tuple[float, float, float, float], ...]
    centre: Point
    """The mean of the corners; every corner is within ``radius`` of it."""
    radius: float

    @staticmethod
    def of(polygon: Sequence[Point], tall: bool) -> Obstacle:
        """Prepared outline of a convex polygon; one with no area (a point or a segment)
        is taken as the hull of its corners grown by 1e-9 mm, well inside the touching
        tolerance."""
        if not polygon:
            raise ValueError("an outline needs at least one corner")
        if len(polygon) < 3 or area(polygon) <= 1e-12:
            polygon = convex_hull([(x + dx, y + dy) for x, y in polygon
                                   for dx in (-1e-9, 1e-9) for dy in (-1e-9, 1e-9)])
        pts = ccw(polygon)
        kept: list[Point] = []  # (compiled: loops rather than generators, the same floats)
        for i in range(len(pts)):
            if math.dist(pts[i], pts[i - 1]) > 1e-12:
                kept.append(pts[i])
        poly = tuple(kept)
        n = len(poly)
        # (one tuple unpacked at a time, and loops rather than generators: compiled,
        # unpacking a pair of pairs or a generator costs more than the arithmetic; the
        # very same operations in the same order)
        normals: list[Point] = []
        for i in range(n):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % n]
            ln = _hypot(x2 - x1, y2 - y1)
            normals.append((-(y2 - y1) / ln, (x2 - x1) / ln))
        solve: list[tuple[float, float, float, float]] = []
        for i in range(n):
            ax, ay = normals[i - 1]
            bx, by = normals[i]
            det = ax * by - ay * bx
            if abs(det) < 1e-9:  # collinear edges: the vertex moves with the second
                solve.append((0.0, bx, 0.0, by))
            else:
                solve.append((by / det, -ay / det, -bx / det, ax / det))
        sx = sy = 0.0  # as sum() adds them, in order
        for p in poly:
            sx += p[0]
            sy += p[1]
        cx, cy = sx / n, sy / n
        rad = -math.inf
        for p in poly:
            r = _hypot(p[0] - cx, p[1] - cy)
            if r > rad:
                rad = r
        return Obstacle(poly, tall, tuple(normals), tuple(solve), (cx, cy), rad)

    def moved(self, d: Point, along: float, across: float, *, grow: bool = False
              ) -> tuple[Point, ...] | None:
        """The outline shrunk (or with ``grow`` grown) by the box ±``along`` × ±``across``
        (axes along the unit vector ``d`` and across it): every edge moves by the box's
        reach in its normal's direction. Shrunk, it is the exact erosion while no edge
        vanishes, else None (nothing: a subset, as a bound needs); grown, a convex
        superset of the outline grown by the box."""
        dx, dy = d
        sign = -1.0 if grow else 1.0
        shift = [sign * (along * abs(nx * dx + ny * dy) + across * abs(ny * dx - nx * dy))
                 for nx, ny in self.normals]
        n = len(self.polygon)
        out: list[Point] = []
        for i in range(n):
            x, y = self.polygon[i]
            s1, s2 = shift[i - 1], shift[i]
            m00, m01, m10, m11 = self.solve[i]
            out.append((x + m00 * s1 + m01 * s2, y + m10 * s1 + m11 * s2))
        if not grow:
            for i in range(n):  # a shrunk edge must still point the same way
                x1, y1 = out[i]
                x2, y2 = out[(i + 1) % n]
                p1, q1 = self.polygon[i]
                p2, q2 = self.polygon[(i + 1) % n]
                if (x2 - x1) * (p2 - p1) + (y2 - y1) * (q2 - q1) <= 0.0:
                    return None
        return tuple(out)


# ---------------------------------------------------------------- one facing, rulers

Chain = tuple[list[float], list[float]]
"""A piecewise-linear function as breakpoints (increasing v) and values."""


def _chains(pts: list[Point], a: float) -> tuple[Chain, Chain]:
    """Lower (least u) and upper (greatest u) boundary, as functions of v, of the convex
    hull of ``pts`` (given as (v, u)) swept a either way along v.

    The monotone chain over the points sorted, the lower hull from the left and the upper
    from the right, each dropping a point that does not turn (cross product <= 0); then
    the ends of equal v trimmed. (Compiled: the coordinates kept in lists of floats and
    the hulls as indices, not tuples indexed twice; the very same floats.)"""
    srt = sorted(pts)
    n = len(srt)
    vs: list[float] = []
    us: list[float] = []
    for p in srt:
        vs.append(p[0])
        us.append(p[1])
    lower: list[int] = []
    for k in range(n):
        pv, pu = vs[k], us[k]
        while len(lower) >= 2:
            i1, i2 = lower[-1], lower[-2]
            v2, u2 = vs[i2], us[i2]
            if (vs[i1] - v2) * (pu - u2) - (us[i1] - u2) * (pv - v2) <= 0.0:
                lower.pop()
            else:
                break
        lower.append(k)
    upper: list[int] = []
    for k in range(n - 1, -1, -1):
        pv, pu = vs[k], us[k]
        while len(upper) >= 2:
            i1, i2 = upper[-1], upper[-2]
            v2, u2 = vs[i2], us[i2]
            if (vs[i1] - v2) * (pu - u2) - (us[i1] - u2) * (pv - v2) <= 0.0:
                upper.pop()
            else:
                break
        upper.append(k)
    upper.reverse()
    while len(lower) >= 2 and vs[lower[-1]] == vs[lower[-2]]:
        lower.pop()
    while len(upper) >= 2 and vs[upper[0]] == vs[upper[1]]:
        upper.pop(0)
    return _swept(lower, vs, us, a, False), _swept(upper, vs, us, a, True)


def _swept(chain: list[int], vs: list[float], us: list[float], a: float, top: bool
           ) -> Chain:
    """The chain's running min (or with ``top`` max) over a window of ±a: the part before
    its extreme (the first, as ``list.index`` finds it) shifts back by a, the part after it
    forward, with a flat step of 2a between."""
    j = 0
    ext = us[chain[0]]
    for k in range(1, len(chain)):
        u = us[chain[k]]
        if (u > ext) if top else (u < ext):
            ext = u
            j = k
    out_v: list[float] = []
    out_u: list[float] = []
    for k in range(j + 1):
        i = chain[k]
        out_v.append(vs[i] - a)
        out_u.append(us[i])
    for k in range(j, len(chain)):
        i = chain[k]
        out_v.append(vs[i] + a)
        out_u.append(us[i])
    return out_v, out_u


def _at(ch: Chain, c: float) -> float:
    vs, us = ch
    i = bisect_right(vs, c)
    if i <= 0:
        return us[0]
    if i >= len(vs):
        return us[-1]
    v0, v1 = vs[i - 1], vs[i]
    if v1 - v0 < 1e-15:
        return us[i]
    return us[i - 1] + (us[i] - us[i - 1]) * (c - v0) / (v1 - v0)


def _ge(c0: float, c1: float, g0: float, g1: float) -> tuple[float, float] | None:
    """Where on [c0, c1] the linear function through (c0, g0), (c1, g1) is ≥ −TOUCH."""
    if g0 >= -TOUCH and g1 >= -TOUCH:
        return c0, c1
    if g0 < -TOUCH and g1 < -TOUCH:
        return None
    root = c0 + (c1 - c0) * (-TOUCH - g0) / (g1 - g0)
    return (root, c1) if g1 >= -TOUCH else (c0, root)


def _gt(c0: float, c1: float, g0: float, g1: float) -> tuple[float, float] | None:
    """Where on (c0, c1) the linear function is > EPS (an open interval)."""
    if g0 > EPS and g1 > EPS:
        return c0, c1
    if g0 <= EPS and g1 <= EPS:
        return None
    root = c0 + (c1 - c0) * (EPS - g0) / (g1 - g0)
    return (root, c1) if g1 > EPS else (c0, root)


def _cut(lo: float, hi: float, opens: list[tuple[float, float]]) -> tuple[float, float] | None:
    """The widest closed piece of [lo, hi] left after removing the open intervals."""
    best: tuple[float, float] | None = None
    cur = lo
    for a, b in sorted(opens):
        if b <= cur:
            continue
        if a >= cur:
            end = min(a, hi)
            if end >= cur and (best is None or end - cur > best[1] - best[0]):
                best = (cur, end)
        cur = max(cur, b)
        if cur > hi:
            return best
    if cur <= hi and (best is None or hi - cur > best[1] - best[0]):
        best = (cur, hi)
    return best


class RulerFacing:
    """Exact judgement of every 360° placement of a ruler at one facing.

    In the facing's frame (u along it, v across) a ruler of half-width a at lateral offset
    c covers the strip |v − c| ≤ a from u = o(c) (where its near edge meets the shooter's
    front: the upper boundary of shooter ⊕ [−a, a] along v) to o(c) + L. For any convex
    body X the nearest and farthest u of X inside the strip are the lower and upper
    boundaries of X ⊕ [−a, a] at c. Every test is then a comparison of piecewise-linear
    functions of c:

    * touches the target T: low_T(c) ≤ o(c) + L and high_T(c) ≥ o(c);
    * an obstruction B meets it before T (with area): c strictly inside B's strip range,
      high_B(c) > o(c), low_B(c) < low_T(c) and o(c) < low_T(c).

    Between consecutive breakpoints of the functions involved each test is linear in c,
    so the sets are unions of intervals computed exactly. At a facing square to a shooter
    edge the ruler may also slide back along that edge (its near corner on it); that
    family (c fixed, near edge anywhere along the edge) is judged the same way.
    """

    def __init__(self, body: Rect, tpl: ShootingTemplate) -> None:
        self.shooter = body.polygon()
        self.a = tpl.near_half
        self.length = tpl.length
        self.shape = tpl.polygon
        self._fronts: dict[float, tuple[list[Point], Chain]] = {}
        """The shooter in a facing's frame and its front chain, by facing: the bound and
        the exact judgement at one facing share them."""

    def judge(self, theta: float, target: Sequence[Point],
              obstacles: Sequence[tuple[Sequence[Point], bool]], want: int = CLEAR,
              pivot: tuple[float, float, float] | None = None
              ) -> tuple[int, tuple[Point, ...] | None]:
        """Best level at facing ``theta`` and a placement reaching it (None at level 0).
        Stops looking once ``want`` is reached.

        With ``pivot`` = (e, lift, low) it judges the relaxed rulers of the pivot bound
        (``search``) instead: the near edge's middle anywhere up to the shooter's front
        chain swept a further e across the facing and lifted by ``lift`` along it, the
        target's far side only required beyond ``low``, no sliding along a side."""
        th = theta * _D2R
        cs, sn = math.cos(th), math.sin(th)
        a, length = self.a, self.length

        def frame(poly: Sequence[Point]) -> list[Point]:
            return [(-x * sn + y * cs, x * cs + y * sn) for x, y in poly]

        front = self._fronts.get(theta)
        if front is None:
            shooter = frame(self.shooter)
            front = self._fronts[theta] = (shooter, _chains(shooter, a)[1])
        shooter, o_ch = front
        if pivot is not None:
            e, lift, low = pivot
            vs_, us_ = _chains(shooter, a + e)[1]
            o_ch = (vs_, [u + lift for u in us_])
        tpts = frame(target)
        t_lo, t_hi = _chains(tpts, a)
        lo = max(o_ch[0][0], t_lo[0][0])
        hi = min(o_ch[0][-1], t_lo[0][-1])
        if lo > hi + TOUCH:
            return 0, None
        hi = max(hi, lo)
        # touching stretches of c
        cuts = sorted({lo, hi, *(v for v in (*o_ch[0], *t_lo[0], *t_hi[0]) if lo < v < hi)})
        vals = [(_at(o_ch, c), _at(t_lo, c), _at(t_hi, c)) for c in cuts]
        touch: list[tuple[float, float]] = []
        if len(cuts) == 1:
            o, tl, th_ = vals[0]
            if th_ - (o if pivot is None else low) >= -TOUCH and o + length - tl >= -TOUCH:
                touch.append((lo, lo))
        for i in range(len(cuts) - 1):
            c0, c1 = cuts[i], cuts[i + 1]
            o0, tl0, th0 = vals[i]
            o1, tl1, th1 = vals[i + 1]
            s1 = _ge(c0, c1, th0 - o0, th1 - o1) if pivot is None else \
                _ge(c0, c1, th0 - low, th1 - low)
            if s1 is None:
                continue
            s2 = _ge(c0, c1, o0 + length - tl0, o1 + length - tl1)
            if s2 is None:
                continue
            s = (max(s1[0], s2[0]), min(s1[1], s2[1]))
            if s[0] <= s[1]:
                if touch and s[0] - touch[-1][1] <= 1e-12:
                    touch[-1] = (touch[-1][0], s[1])
                else:
                    touch.append(s)
        sides = self._side_families(shooter, lo, hi) if pivot is None else []
        if not touch and not sides:
            return 0, None
        # obstructions that could matter here: strip range overlapping, nearer than T's far
        # side, beyond the shooter's back
        t_far = max(u for _, u in tpts)
        s_back = min(u for _, u in shooter)
        span_lo = touch[0][0] if touch else lo
        span_hi = touch[-1][1] if touch else hi
        for _, c, _ in sides:
            span_lo, span_hi = min(span_lo, c), max(span_hi, c)
        near: list[tuple[Chain, Chain, bool]] = []
        for poly, tall in obstacles:
            pts = frame(poly)
            vmin = min(v for v, _ in pts) - a
            vmax = max(v for v, _ in pts) + a
            if vmax <= span_lo or vmin >= span_hi:
                continue
            if min(u for _, u in pts) >= t_far or max(u for _, u in pts) <= s_back:
                continue
            lo_b, hi_b = _chains(pts, a)
            near.append((lo_b, hi_b, tall))
        best = 0
        best_c: tuple[float, float] | None = None
        if touch:
            best, best_c = self._front(touch, o_ch, t_lo, near)
        if best < want:
            for cand in sides:
                lvl, pick = self._side(cand, t_lo, t_hi, near)
                if lvl > best:
                    best, best_c = lvl, pick
                    if best >= want:
                        break
        if best == 0 or best_c is None:
            return 0, None
        u0, c = best_c
        ox, oy = u0 * cs - c * sn, u0 * sn + c * cs
        placed = tuple((ox + x * cs - y * sn, oy + x * sn + y * cs) for x, y in self.shape)
        return best, placed

    def _front(self, touch: list[tuple[float, float]], o_ch: Chain, t_lo: Chain,
               near: list[tuple[Chain, Chain, bool]]) -> tuple[int, tuple[float, float]]:
        """Best level over the front chain and (u, c) of a placement reaching it: the
        middle of the widest stretch of c left clear."""
        lo, hi = touch[0][0], touch[-1][1]
        every: list[tuple[float, float]] = []
        tall: list[tuple[float, float]] = []
        for b_lo, b_hi, is_tall in near:
            blo, bhi = b_lo[0][0], b_lo[0][-1]
            # Look a little past the touching stretch (the functions are continued flat
            # there) so that its ends count as blocked when B covers them.
            p0, p1 = max(lo - 1.0, blo), min(hi + 1.0, bhi)
            if p1 <= p0:
                continue
            cuts = sorted({p0, p1, *(v for v in (*o_ch[0], *t_lo[0], *b_lo[0], *b_hi[0])
                                     if p0 < v < p1)})
            prev: list[float] | None = None
            mine: list[tuple[float, float]] = []
            for c in cuts:
                o, tl = _at(o_ch, c), _at(t_lo, c)
                cur = [c, _at(b_hi, c) - o, tl - _at(b_lo, c), tl - o]
                if prev is not None:
                    c0, c1 = prev[0], c
                    span: tuple[float, float] | None = (c0, c1)
                    for k in (1, 2, 3):
                        assert span is not None
                        s = _gt(c0, c1, prev[k], cur[k])
                        if s is None:
                            span = None
                            break
                        span = (max(span[0], s[0]), min(span[1], s[1]))
                        if span[0] >= span[1]:
                            span = None
                            break
                    if span is not None:
                        if mine and span[0] - mine[-1][1] <= 1e-12:
                            mine[-1] = (mine[-1][0], span[1])
                        else:
                            mine.append(span)
                prev = cur
            every.extend(mine)
            if is_tall:
                tall.extend(mine)
        best, best_c = TOUCHING, (touch[0][0] + touch[0][1]) / 2.0
        for level, opens in ((CLEAR, every), (UNBLOCKED, tall)):
            widest: tuple[float, float] | None = None
            for s0, s1 in touch:
                piece = _cut(s0, s1, opens)
                if piece is not None and (widest is None or
                                          piece[1] - piece[0] > widest[1] - widest[0]):
                    widest = piece
            if widest is not None:
                best, best_c = level, (widest[0] + widest[1]) / 2.0
                break
        return best, (_at(o_ch, best_c), best_c)

    def _side_families(self, shooter: list[Point], lo: float, hi: float
                       ) -> list[tuple[float, float, float]]:
        """At a facing square to a shooter edge: (u_from, c, u_to) for the ruler sliding
        back along that edge with its near corner on it, c its fixed lateral offset."""
        out: list[tuple[float, float, float]] = []
        vs = [v for v, _ in shooter]
        for side, extreme in ((-1, min(vs)), (1, max(vs))):
            on = [u for v, u in shooter if abs(v - extreme) <= 1e-9]
            if len(on) < 2:
                continue
            c = extreme + side * self.a
            if lo - TOUCH <= c <= hi + TOUCH:
                out.append((min(on), c, max(on)))
        return out

    def _side(self, fam: tuple[float, float, float], t_lo: Chain, t_hi: Chain,
              near: list[tuple[Chain, Chain, bool]]) -> tuple[int, tuple[float, float] | None]:
        """Best level of a side family and (u, c) of a placement reaching it. With c fixed,
        an obstruction meeting the strip before the target (low_B < low_T) rules out
        every near-edge position u below min(high_B, low_T)."""
        u_from, c, u_to = fam
        tl, th = _at(t_lo, c), _at(t_hi, c)
        lo, hi = max(u_from, tl - self.length), min(u_to, th)
        if lo > hi + TOUCH:
            return 0, None
        hi = max(lo, hi)
        stop_all = lo - 1.0
        stop_tall = lo - 1.0
        for b_lo, b_hi, is_tall in near:
            if not b_lo[0][0] < c < b_lo[0][-1]:
                continue
            if _at(b_lo, c) < tl - EPS:
                m = min(_at(b_hi, c), tl)
                stop_all = max(stop_all, m)
                if is_tall:
                    stop_tall = max(stop_tall, m)
        if stop_all <= hi:
            return CLEAR, ((max(lo, stop_all) + hi) / 2.0, c)
        if stop_tall <= hi:
            return UNBLOCKED, ((max(lo, stop_tall) + hi) / 2.0, c)
        return TOUCHING, ((lo + hi) / 2.0, c)


# ---------------------------------------------------------------- the search


Judge = Callable[[float, Sequence[Point], Sequence[tuple[Sequence[Point], bool]], int],
                 tuple[int, "tuple[Point, ...] | None"]]
PivotJudge = Callable[[float, Sequence[Point], Sequence[tuple[Sequence[Point], bool]], int,
                       "tuple[float, float, float] | None"],
                      tuple[int, "tuple[Point, ...] | None"]]
Cap = Callable[[float, Sequence[Point], Sequence[tuple[Sequence[Point], bool]], bool], bool]
"""(facing, target, obstructions, Tall only) → whether it is shown, without the judgement,
that no placement at that facing touching the target is clear (with Tall only: unblocked)
as the judgement counts it; False when not shown."""


@dataclass
class Found:
    level: int = 0
    heading: float | None = None
    placement: tuple[Point, ...] | None = None
    judged: int = 0
    """Facings judged (exactly or as a bound): what the search cost."""
    shadowed: int = 0
    """Facings and ranges of facings passed over, lying in ranges ``shadow_arc`` showed
    blocked."""
    parted: int = 0
    """Burst intervals shown no better than the best found by the cap on their parts."""
    reused: int = 0
    """Burst facings, intervals and parts passed over as lying in ranges and parts shown
    before (a part kept from an interval not shown whole, a range found since)."""


def search(judge: Judge, shooter: Sequence[Point], tpl: ShootingTemplate,
           target: Sequence[Point], blockers: Sequence[Obstacle], seeds: Sequence[float],
           critical: Sequence[float], tol: float, pivot: PivotJudge | None = None,
           shadow: bool = True, cap: Cap | None = None, lazy: bool = True) -> Found:
    """Best level over every facing (see the module doc); ``pivot`` (rulers) judges the
    relaxed rulers of the pivot bound. With ``shadow`` facings and ranges of facings
    that ``shadow_arc`` (or for a burst ``burst_shadow_arc``) shows cannot do better
    than the best found are passed over; without it (for comparison) every one is
    judged as before. The answer is the same either way: only judgements that could not
    improve it are left out, so the same facings improve it in the same order.

    ``cap`` (bursts) shows at one facing that no placement is clear (unblocked): a facing
    so shown no better than the best found is passed over, as is an interval whose bound
    it so shows; a facing judged is judged only up to the level so shown (``want``), which
    gives the very level and placement the full judgement would. With ``shadow`` off it
    is not used either.

    ``lazy`` (rulers, with ``shadow``): an interval is bounded only once a part of it is
    about to be judged exactly, not when it is split, and the first few facings near the
    first seed are judged without their bounds (``ruler_walk``); the same facings improve
    the answer in the same order either way."""
    best = Found()
    # A ruler's first seed is judged before the search's own set-up (``early``): when it
    # is clear, that is the answer, and the facts only the rest of the search asks for
    # (``beyond_span``, ``touch_arc``, the obstructions' reach) are never worked out.
    early = pivot is not None and shadow and lazy and cap is None and bool(seeds)
    if pivot is not None and shadow and not early and beyond_span(shooter, target, tpl):
        return best  # no ruler comes near the target at any facing: level 0 everywhere
    tgt = Obstacle.of(target, False)
    a = tpl.near_half
    # How far from the template's origin the points that matter can be. The target contact
    # y: within ρ_T (the origin is within a of the shooter). A point of an obstruction
    # before that contact: no farther along the template than y, and at most the half-width
    # w across it, so within hypot(ρ_T, w); and within the obstruction's own farthest
    # distance from the shooter, + a.
    wide = max(abs(y) for _, y in tpl.polygon)
    reach = tpl.reach
    rho_t = min(reach, _farthest(shooter, target) + a)
    rho_b = min(reach, _hypot(rho_t, wide))
    # An obstruction farther from the shooter than a + rho_b has no point within rho_b of
    # any origin: it never comes before the target.
    sx = sum(x for x, _ in shooter) / len(shooter)
    sy = sum(y for _, y in shooter) / len(shooter)
    s_rad = max(_hypot(x - sx, y - sy) for x, y in shooter)
    blockers = [b for b in blockers
                if _hypot(b.centre[0] - sx, b.centre[1] - sy) - b.radius
                <= s_rad + a + rho_b + 1e-6]
    exact = [(b.polygon, b.tall) for b in blockers]
    rhos: list[float] = []
    """How far from an origin each obstruction's points before the target can be (worked
    out when first needed: a facing judged alone does not need them)."""

    def rho_all() -> list[float]:
        if len(rhos) < len(blockers):
            rhos.extend([min(rho_b, _farthest(shooter, b.polygon) + a) for b in blockers])
        return rhos

    widest: list[float] = []

    def rho_max() -> float:
        """The greatest of them and the target's (worked out once)."""
        if not widest:
            widest.append(max([rho_t, *rho_all()]))
        return widest[0]

    def box(rho: float, h: float) -> tuple[float, float]:
        """How far, along and across the facing, a template point within ``rho`` of the
        origin can move when the facing turns by at most ``h`` degrees."""
        dl = h * _D2R
        sn, vers = math.sin(dl), 1.0 - math.cos(dl)
        return (rho * vers + wide * sn + a * sn, rho * sn + wide * vers + a * vers)

    burst = tpl.is_burst
    bar = [0, CLEAR]
    """The level a facing must beat to count (a pass's floor) and the best level still
    possible (its ceiling)."""

    def need() -> int:
        """The level a facing must beat: the best found, or the pass's floor."""
        return max(best.level, bar[0])

    # the facings outside which no placement comes near the target (level 0 there),
    # worked out when first asked about
    arcs_: list[tuple[float, float] | None] = []

    def untouched(lo: float, hi: float) -> bool:
        """Whether every facing from ``lo`` to ``hi`` lies outside ``touch_arc``."""
        if not arcs_:
            arcs_.append(touch_arc(shooter, target, tpl) if shadow else None)
        arc = arcs_[0]
        if arc is None:
            return False
        start = (lo - arc[1]) % 360.0
        return start > 0.0 and start + (hi - lo) < 360.0 - (arc[1] - arc[0])

    shown: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    """Ranges of facings ``shadow_arc`` has shown blocked (by Tall obstructions: True;
    by any: False), found as the search needs them."""
    unshown: dict[bool, list[float]] = {True: [], False: []}
    """Facings at which it found no such range."""
    lead: dict[bool, float] = {True: 0.0, False: 0.0}
    """How far ahead of where a walk has got to the next range is asked for first."""

    shaded: dict[tuple[float, bool], tuple[float, float] | None] = {}
    """``shadow_arc``'s answers by facing and kind (a walk may ask again)."""
    asked = [0, 0]
    """How many of those found no range, and how many found one."""
    known_only = [False]
    """Whether ``proven`` walks only through ranges already shown (asks for none)."""

    def shade(theta: float, tall_only: bool) -> tuple[float, float] | None:
        """``shadow_arc`` (``burst_shadow_arc``) at ``theta``."""
        if burst:
            return burst_shadow_arc(shooter, tgt.polygon, blockers, tpl.polygon,
                                    tpl.length, theta, tall_only)
        key = (theta, tall_only)
        if key not in shaded:
            got = shadow_arc(shooter, tgt.polygon, blockers, a, tpl.length, theta, tall_only)
            shaded[key] = got
            asked[0 if got is None else 1] += 1
        return shaded[key]

    def proven(lo: float, hi: float) -> bool:
        """Whether ``shadow_arc`` (``burst_shadow_arc``) shows that no facing from ``lo``
        to ``hi`` does better than the best found: then judging them could change
        nothing. Walks from
        ``lo``, through ranges already shown or shown now, each new one found just past
        the end of the last and starting at or before it."""
        lv = need()
        if not shadow or (pivot is None and not burst) or lv < TOUCHING or lv >= CLEAR:
            return False
        tall_only = lv == TOUCHING
        arcs, misses = shown[tall_only], unshown[tall_only]
        if burst and (_covered(lo, hi, arcs) if lo == hi
                      else _covered(lo + 2.0 * PART_KEPT_SLACK, hi - 2.0 * PART_KEPT_SLACK,
                                    arcs)):
            # ranges and parts shown already cover it (for an interval, every facing
            # strictly inside: its ends are judged on their own), even where a range
            # was looked for and not found
            best.shadowed += 1
            best.reused += 1
            return True
        if len(misses) >= SHADOW_TRIES or any((f - lo) % 360.0 <= hi - lo for f in misses):
            return False
        at = lo
        ahead_ok = True
        for _ in range(8):
            step = at
            for a0, a1 in arcs:
                if (at - a0) % 360.0 < a1 - a0:
                    step = max(step, at + (a1 - a0) - (at - a0) % 360.0)
            if step > at:
                at = step
            elif known_only[0]:
                return False
            else:
                probe = at if at == lo else at + 1e-7
                got = None
                ahead = min(hi, at + lead[tall_only])
                if burst:
                    ahead = _before_known(at, ahead, arcs)
                if ahead_ok and ahead > at and not any((ahead - a0) % 360.0 <= a1 - a0
                                                       for a0, a1 in arcs):
                    # ranges found reach back from their facing much farther than ahead
                    # of it (the facts are picked there): asked as far ahead as the last
                    # one reached back, one often covers ``at`` and much past it
                    got = shade(ahead, tall_only)
                    ahead_ok = got is not None  # not again in this walk when none found
                    if got is not None:
                        arcs.append(got)
                        lead[tall_only] = ahead - got[0]
                        if got[0] > at:
                            got = None
                if got is None:
                    got = shade(probe, tall_only)
                    if got is None or got[0] > at:
                        misses.append(probe % 360.0)
                        return False
                    arcs.append(got)
                    lead[tall_only] = 0.9 * (probe - got[0])
                    if got[1] - at < SHADOW_CREEP:
                        # ranges creeping up on a facing they do not reach
                        misses.append(probe % 360.0)
                        return False
                at = got[1]
            if at >= hi:
                best.shadowed += 1
                return True
        return False

    def capped(theta: float, target: Sequence[Point],
               obs: Sequence[tuple[Sequence[Point], bool]]) -> int:
        """The best level ``cap`` leaves possible at ``theta``, asking no more than needed
        to show it no better than the best found (``CLEAR`` when not shown lower)."""
        lv = need()
        if cap is None or not shadow or lv < TOUCHING:
            return CLEAR  # nothing to pass over (the judgement may ask the cap itself)
        if not cap(theta, target, obs, False):
            return CLEAR
        if lv >= UNBLOCKED or not cap(theta, target, obs, True):
            return UNBLOCKED
        return TOUCHING

    lists: dict[tuple[int, ...], list[tuple[Sequence[Point], bool]]] = {}
    aim = seeds[0] if seeds else 0.0
    capped_first: list[list[tuple[Sequence[Point], bool]] | None] = [None]
    """The obstructions the cap was asked about at the first seed before the passes (the
    same list ``among`` gives for them), if it was."""

    def among(live: Sequence[int]) -> list[tuple[Sequence[Point], bool]]:
        """The obstructions ``live`` as the judgement takes them: the same list for the
        same ones (the cap remembers its answers by the very objects)."""
        key = tuple(live)
        got = lists.get(key)
        if got is None:
            got = [exact[i] for i in live]
            lists[key] = got
        return got

    judged_first: list[tuple[int, tuple[Point, ...] | None]] = []
    """The first seed's judgement when made before the walk (``early``)."""

    def consider(theta: float, live: Sequence[int]) -> None:
        if judged_first and theta == aim:
            # the walk's first facing, the first seed, judged already (``early``) with
            # the same obstructions and wanting CLEAR, as below: only a judgement that
            # touches the target counts (a facing it touches at is not ``untouched``)
            lvl, placed = judged_first.pop()
            if lvl == 0 and untouched(theta, theta):
                return
            best.judged += 1
            if lvl > need():
                best.level, best.heading, best.placement = lvl, theta % 360.0, placed
            return
        if untouched(theta, theta):
            return
        obs = among(live)
        if capped_first[0] is obs and theta == aim:
            # the cap's answer here is known already (asked before the passes): the
            # range would cost a walk for nothing
            want = capped(theta, tgt.polygon, obs)
            if want <= need():
                best.shadowed += 1
                return
            if proven(theta, theta):
                return
        else:
            if proven(theta, theta):
                return
            want = capped(theta, tgt.polygon, obs)
            if want <= need():
                best.shadowed += 1
                return
        lvl, placed = judge(theta, tgt.polygon, obs, want)
        best.judged += 1
        if lvl > need():
            best.level, best.heading, best.placement = lvl, theta % 360.0, placed

    def alive(live: Sequence[int], mid: float, h: float) -> list[int]:
        """The obstructions of ``live`` that may meet, before the target, a placement at
        some facing within ``h`` of ``mid``. Every placement at ``mid`` lies in the band
        of the shooter's extent across the facing, widened by a + w, and no farther back
        than the shooter; a point of a placement at a facing within ``h`` is within the
        box of the point with the same template coordinates at ``mid``; and a point before
        the target contact is, along ``mid``, before the target's far side widened by the
        target's box. An obstruction outside all that meets no placement of the interval
        before the target, nor of any part of it."""
        th = mid * _D2R
        cs, sn = math.cos(th), math.sin(th)
        vs = [-x * sn + y * cs for x, y in shooter]
        us = [x * cs + y * sn for x, y in shooter]
        band_lo, band_hi = min(vs) - a - wide, max(vs) + a + wide
        back = min(us)
        eu_t, _ = box(rho_t, h)
        t_far = max(x * cs + y * sn for x, y in tgt.polygon) + eu_t
        dl = h * _D2R
        hs, hv = math.sin(dl), 1.0 - math.cos(dl)
        out = []
        reach_of = rho_all() if h != 0.0 else rhos
        for i in live:
            if h != 0.0:
                rho = reach_of[i]  # box(rho, h), the same floats
                eu, ev = rho * hv + wide * hs + a * hs, rho * hs + wide * hv + a * hv
            else:
                eu = ev = 0.0  # at one facing the box is empty whatever rho (finite)
            b = blockers[i]
            # decided from the bounding circle when it can be (every corner within the
            # radius of the centre, the centre among the corners' least and greatest)
            v_hi, v_lo = band_hi + ev + 1e-6, band_lo - ev - 1e-6
            u_hi, u_lo = t_far + eu + 1e-6, back - eu - 1e-6
            cx, cy = b.centre
            cu, cv = cx * cs + cy * sn, -cx * sn + cy * cs
            r = b.radius + CIRCLE_SLACK
            if cv - r >= v_hi or cv + r <= v_lo or cu - r >= u_hi or cu + r <= u_lo:
                continue
            if v_lo + CIRCLE_SLACK < cv < v_hi - CIRCLE_SLACK \
                    and u_lo + CIRCLE_SLACK < cu < u_hi - CIRCLE_SLACK:
                out.append(i)
                continue
            poly = b.polygon
            bv = [-x * sn + y * cs for x, y in poly]
            if min(bv) >= v_hi or max(bv) <= v_lo:
                continue
            bu = [x * cs + y * sn for x, y in poly]
            if min(bu) >= u_hi or max(bu) <= u_lo:
                continue
            out.append(i)
        return out

    def loosened(d: Point, h: float, live: Sequence[int]
                 ) -> tuple[tuple[Point, ...], list[tuple[Sequence[Point], bool]]]:
        """The box bound's inputs over the facings within ``h`` of the one along ``d``:
        the target grown and the obstructions of ``live`` shrunk by their boxes."""
        relaxed: list[tuple[Sequence[Point], bool]] = []
        reach_of = rho_all()
        for i in live:
            b = blockers[i]
            eu, ev = box(reach_of[i], h)
            if (p := b.moved(d, eu, ev)) is not None:
                relaxed.append((p, b.tall))
        eu, ev = box(rho_t, h)
        grown = tgt.moved(d, eu, ev, grow=True)
        assert grown is not None
        return grown, relaxed

    def parts_capped(mid: float, h: float, live: Sequence[int], lv: int) -> bool:
        """Whether the cap shows, on the box bound's inputs of each part of the facings
        within ``h`` of ``mid`` (``burst_parts``), that no facing there does better than
        ``lv``: the parts cover the interval, so then none of it does. Stops at the first
        part not so shown."""
        parts = burst_parts(mid, h)
        arcs = shown[lv == TOUCHING]
        for m, hw in parts:
            # the facings of the part strictly inside the interval (whose ends may be
            # critical facings, where other families start): shown, or kept when shown
            p0 = max(m - hw, mid - h) + PART_KEPT_SLACK
            p1 = min(m + hw, mid + h) - PART_KEPT_SLACK
            if _covered(p0, p1, arcs):
                best.reused += 1
                continue  # a part of an interval asked before
            th = m * _D2R
            grown, relaxed = loosened((math.cos(th), math.sin(th)), hw, live)
            if capped(m, grown, relaxed) > lv:
                return False
            arcs.append((p0, p1))
        if parts:
            best.parted += 1
        return bool(parts)

    def box_bound(mid: float, h: float, d: Point, live: Sequence[int]) -> int:
        """Upper bound on the level over the facings within ``h`` of ``mid``: the target
        grown and the obstructions shrunk by their boxes (see the module doc); for a
        burst, when the cap does not show it on the whole interval, on its parts."""
        grown, relaxed = loosened(d, h, live)
        lv = need()
        if lv >= TOUCHING and capped(mid, grown, relaxed) <= lv:
            best.shadowed += 1
            return lv
        if burst and lv >= TOUCHING and h > BOUND_JUDGED_WITHIN:
            # no relaxed judgement; the parts' caps only where the middle facing itself
            # is capped (its judgement, next, asks that cap anyway)
            if h <= PARTS_WIDE_WITHIN and capped(mid, tgt.polygon, among(live)) <= lv \
                    and parts_capped(mid, h, live, lv):
                best.shadowed += 1
                return lv
            return CLEAR  # no bound: the interval is judged at its middle and halved
        if burst and lv >= TOUCHING and parts_capped(mid, h, live, lv):
            best.shadowed += 1
            return lv
        bound, _ = judge(mid, grown, relaxed, lv + 1)
        best.judged += 1
        return bound

    def pivot_bound(mid: float, h: float, live: Sequence[int]) -> int:
        """Upper bound on the level over the facings within ``h`` of ``mid`` by the pivot
        argument (``pivot_relaxation``)."""
        assert pivot is not None
        grown, relaxed, params = pivot_relaxation(shooter, a, rho_t, tgt,
                                                  [blockers[i] for i in live], mid, h)
        lvl, _ = pivot(mid, grown, relaxed, need() + 1, params)
        best.judged += 1
        return lvl

    first = [c for c in critical if abs(heading_diff(c, aim)) < 90.0]
    everyone = list(range(len(blockers)))

    def walk() -> None:
        """Seeds, intervals, critical facings, until a level of ``bar[1]`` is found."""
        top = bar[1]
        for th in dict.fromkeys((*seeds, *first)):  # each once (the seeds may coincide)
            consider(th, alive(everyone, th, 0.0))
            if best.level >= top:
                return
        crit = sorted({c % 360.0 for c in critical}) or [0.0]
        heap: list[tuple[float, float, float, float, list[int]]] = []
        for i, c in enumerate(crit):
            nxt = crit[(i + 1) % len(crit)] + (360.0 if i + 1 == len(crit) else 0.0)
            if nxt - c > 1e-12:
                heap.append((-(nxt - c), abs(heading_diff((c + nxt) / 2.0, aim)), c, nxt,
                             everyone))
        heapq.heapify(heap)
        while heap:
            _, _, lo, hi, live = heapq.heappop(heap)
            if untouched(lo, hi):
                continue
            mid = (lo + hi) / 2.0
            h = (hi - lo) / 2.0
            live = alive(live, mid, h)
            if proven(lo, hi):
                continue
            d = (math.cos(mid * _D2R), math.sin(mid * _D2R))
            if pivot is not None:
                if pivot_bound(mid, h, live) <= need():
                    continue
            elif box_bound(mid, h, d, live) <= need():
                continue
            if h <= EXACT_WITHIN or pivot is None:
                consider(mid, live)
                if best.level >= top:
                    return
            if _hypot(*box(rho_max(), h)) <= tol:
                continue
            for lo2, hi2 in ((lo, mid), (mid, hi)):
                heapq.heappush(heap, (-(hi2 - lo2),
                                      abs(heading_diff((lo2 + hi2) / 2.0, aim)),
                                      lo2, hi2, live))
        # The critical facings themselves (where families appear or vanish) last: the
        # bound covers every facing strictly between them.
        for th in critical:
            if th in first:
                continue
            consider(th, alive(everyone, th, 0.0))
            if best.level >= top:
                return

    def lived(node: _Interval | None) -> list[int]:
        """The obstructions that may matter in ``node`` (``alive``, interval by interval
        from the widest, as ``walk`` works them out)."""
        if node is None:
            return everyone
        if node.live is None:
            node.live = alive(lived(node.parent), (node.lo + node.hi) / 2.0,
                              (node.hi - node.lo) / 2.0)
        return node.live

    def settled(node: _Interval | None) -> bool:
        """Whether no bound drops ``node`` or an interval it lies in, bounding them (the
        widest first) when not yet done."""
        if node is None:
            return True
        if node.state == 0:
            ok = settled(node.parent)
            if ok:
                mid, h = (node.lo + node.hi) / 2.0, (node.hi - node.lo) / 2.0
                pv = node.shown == 2 or (node.shown == 0 and proven(node.lo, node.hi))
                ok = not pv and pivot_bound(mid, h, lived(node)) > need()
            node.state = 1 if ok else 2
        return node.state == 1

    def dropped(node: _Interval | None) -> bool:
        """Whether a bound or a range already drops ``node`` or an interval it lies in."""
        while node is not None:
            if node.state == 2 or node.shown == 2:
                return True
            node = node.parent
        return False

    def unproven(node: _Interval | None) -> bool:
        """Whether no range ``proven`` shows drops ``node`` or an interval it lies in,
        asking (the widest first) where not yet asked."""
        if node is None:
            return True
        if node.shown == 0:
            ok = unproven(node.parent)
            if ok and node.state == 0:
                ok = not proven(node.lo, node.hi)
            node.shown = 1 if ok else 2
        return node.shown == 1

    def ruler_walk() -> None:
        """``walk`` for rulers, bounding an interval only when a part of it is about to be
        judged exactly, not when it is split (and the first few judged at once, bounded
        only if their parts come up). Intervals come off the heap in the order of their
        keys whatever is dropped (a part's key always comes after its interval's), so the
        facings judged are those ``walk`` judges, in the same order, less those a bound
        drops, plus a few judged without their bound: a facing that cannot do better
        changes nothing when judged, a bound asked later drops at least as much (the best
        found can only have grown), and only what cannot do better. A clear shot found
        near the first facings pays for those facings, not for every interval as wide."""
        top = bar[1]
        for th in dict.fromkeys((*seeds, *first)):  # each once (the seeds may coincide)
            consider(th, alive(everyone, th, 0.0))
            if best.level >= top:
                return
        crit = sorted({c % 360.0 for c in critical}) or [0.0]
        heap: list[tuple[float, float, float, float, _Interval]] = []
        for i, c in enumerate(crit):
            nxt = crit[(i + 1) % len(crit)] + (360.0 if i + 1 == len(crit) else 0.0)
            if nxt - c > 1e-12:
                heap.append((-(nxt - c), abs(heading_diff((c + nxt) / 2.0, aim)), c, nxt,
                             _Interval(c, nxt, None)))
        heapq.heapify(heap)
        direct = 0
        while heap:
            _, _, lo, hi, node = heapq.heappop(heap)
            if untouched(lo, hi) or dropped(node.parent):
                continue
            mid = (lo + hi) / 2.0
            h = (hi - lo) / 2.0
            if h <= EXACT_WITHIN:
                if direct < DIRECT_FIRST and abs(heading_diff(mid, aim)) <= DIRECT_WITHIN:
                    # judged at once; its bounds are asked if its parts come up. New
                    # ranges are asked for only while they are found more often than not
                    known_only[0] = asked[0] > asked[1]
                    open_ = unproven(node)
                    if open_:
                        direct += 1
                        consider(mid, lived(node))
                    known_only[0] = False
                    if not open_:
                        continue
                else:
                    if not settled(node):
                        continue
                    consider(mid, lived(node))
                if best.level >= top:
                    return
            if _hypot(*box(rho_max(), h)) <= tol:
                continue
            for lo2, hi2 in ((lo, mid), (mid, hi)):
                heapq.heappush(heap, (-(hi2 - lo2),
                                      abs(heading_diff((lo2 + hi2) / 2.0, aim)),
                                      lo2, hi2, _Interval(lo2, hi2, node)))
        # The critical facings themselves last, as in ``walk``.
        for th in critical:
            if th in first:
                continue
            consider(th, alive(everyone, th, 0.0))
            if best.level >= top:
                return

    passes: tuple[tuple[int, int], ...] = ((0, CLEAR),)
    at_aim = among(alive(everyone, aim, 0.0)) if shadow and cap is not None and seeds \
        else None
    capped_first[0] = at_aim
    if cap is not None and at_aim is not None \
            and (_in_the_way(shooter, target, at_aim)
                 or _in_the_teardrop(shooter, target, tpl.polygon, aim, at_aim)) \
            and cap(aim, tgt.polygon, at_aim, False):
        # The first seed has no clear placement, and a burst facing judged to less than
        # clear costs most. So the first pass passes over every facing shown to be no
        # better than a floor (the first seed too), as if a placement of that level had
        # been found: it finds the first facing doing better, as the search from nothing
        # would (every facing it passes over is no better, so the same facings improve
        # the answer in the same order). When none is better, the second pass is the
        # search from nothing, knowing none is. The floor is unblocked, or where a Tall
        # obstruction covers the first seed (the shot is likely blocked: proving no
        # clear placement anywhere would be work thrown away) touching.
        # (Asked only when an obstruction lies across the line between the closest
        # points: else the first seed is usually clear, found at once without it.)
        floor = TOUCHING if cap(aim, tgt.polygon, at_aim, True) else UNBLOCKED
        passes = ((floor, CLEAR), (0, floor))
    if early:
        # The walk's first facing is the first seed (``ruler_walk``), judged by
        # ``consider`` with nothing found yet: not ``untouched``, no range asked (the
        # level to beat is 0), no cap (rulers), wanting CLEAR. A judgement touching the
        # target at it shows it is within ``touch_arc`` and within the span, so when
        # clear that is the answer; at level 0 the span is asked as the search asks it
        # first.
        lvl0, placed0 = judge(aim, tgt.polygon, among(alive(everyone, aim, 0.0)), CLEAR)
        if lvl0 >= CLEAR:
            best.level, best.heading, best.placement = lvl0, aim % 360.0, placed0
            best.judged = 1
            return best
        if lvl0 == 0 and beyond_span(shooter, target, tpl):
            return best
        judged_first.append((lvl0, placed0))
    for low, top in passes:
        best.level, best.heading, best.placement = 0, None, None
        bar[0], bar[1] = low, top
        if pivot is not None and lazy and shadow:
            ruler_walk()
        else:
            walk()
        if best.level > low:
            break
    return best

AHEAD_OF_KNOWN: Final = 0.5
"""How far (degrees) before the start of a range already shown a burst walk asks for the
next range when the facing it would ask at lies in that known range: ranges reach back
from their facing much farther than ahead of it, so one asked just before the known range
often covers the walk's position and meets the known range."""


def _covered(lo: float, hi: float, arcs: Sequence[tuple[float, float]]) -> bool:
    """Whether ``arcs`` (ranges of facings, each from its start to its end) together hold
    every facing from ``lo`` to ``hi``, walked from ``lo`` as ``search``'s ``proven``
    walks them (modulo 360)."""
    at = lo
    while True:
        step = at
        for a0, a1 in arcs:
            off = (at - a0) % 360.0
            if off < a1 - a0:
                end = at + (a1 - a0) - off
                if end > step:
                    step = end
        if step <= at:
            return False
        if step >= hi:
            return True
        at = step


def _before_known(at: float, ahead: float, arcs: Sequence[tuple[float, float]]) -> float:
    """``ahead``, or when it lies in one of ``arcs`` (a range shown already, starting past
    ``at``) a facing just before the first such range's start: there a range found may
    reach back to ``at`` and on into the known one (only the work done depends on it)."""
    first = None
    for a0, _ in arcs:
        start = at + (a0 - at) % 360.0
        if at < start <= ahead and (first is None or start < first):
            first = start
    if first is None:
        return ahead
    return max(first - AHEAD_OF_KNOWN, at + 0.5 * (first - at))


SPAN_SLACK: Final = 1e-3
"""Margin (mm) beyond a ruler's span (``arcs.turret_span``) from which ``beyond_span``
holds: a thousand times the judgement's touching tolerance, far above the rounding of the
gap."""


def beyond_span(shooter: Sequence[Point], target: Sequence[Point],
                tpl: ShootingTemplate) -> bool:
    """Whether every 360° ruler placement misses ``target`` by more than ``SPAN_SLACK``.

    A ruler's near edge (2a long) touches the shooter at some point of it, and every point
    of the ruler is within L along and 2a across of that point, so within _hypot(L, 2a) of
    the shooter (``turret_span``). The exact judgement counts a placement touching within
    ``TOUCH`` (1e-6 mm) along and across the facing, so when the outlines' gap exceeds the
    span by ``SPAN_SLACK`` it finds level 0 at every facing, and the search could only
    answer 0. (The reach search still answers a facing within its tolerance beyond the
    span: the shot is then judged against the target grown by that tolerance.)"""
    _, _, gap = closest_points(shooter, target)
    return gap > turret_span(tpl) + SPAN_SLACK


class _Interval:
    """An interval of ruler facings in ``search``'s lazy walk: the interval it was split
    from (None for one between two critical facings), the obstructions that may matter in
    it once worked out (``live``), whether its bound and ranges dropped it (``state``)
    and whether ranges alone did (``shown``): 0 not asked yet, 1 kept, 2 dropped."""

    def __init__(self, lo: float, hi: float, parent: _Interval | None) -> None:
        self.lo = lo
        self.hi = hi
        self.parent = parent
        self.live: list[int] | None = None
        self.state = 0
        self.shown = 0


def _in_the_way(shooter: Sequence[Point], target: Sequence[Point],
                obstacles: Sequence[tuple[Sequence[Point], bool]]) -> bool:
    """Whether one of ``obstacles`` (convex, either way round) meets the segment between
    the closest points of ``shooter`` and ``target``: a guess (nothing depends on it but
    the work done) that the first seed of a 360° search is not clear."""
    p, q, _ = closest_points(shooter, target)
    dx, dy = q[0] - p[0], q[1] - p[1]
    for poly, _tall in obstacles:
        n = len(poly)
        turn = 0.0
        for i in range(n):
            ax, ay = poly[i - 1]
            bx, by = poly[i]
            turn += ax * by - ay * bx
        sign = 1.0 if turn > 0.0 else -1.0
        lo, hi = 0.0, 1.0
        for i in range(n):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % n]
            # inside: left of every edge, the outline taken counter-clockwise
            nx, ny = -(y2 - y1) * sign, (x2 - x1) * sign
            num = nx * (p[0] - x1) + ny * (p[1] - y1)
            den = nx * dx + ny * dy
            if den == 0.0:
                if num < 0.0:
                    hi = -1.0
            elif den > 0.0:
                lo = max(lo, -num / den)
            else:
                hi = min(hi, -num / den)
            if lo > hi:
                break
        if lo <= hi:
            return True
    return False


TEARDROP_GUESS_DEPTH: Final = 0.01
"""How deep (mm) an obstruction must reach into the teardrop for ``_in_the_teardrop``."""


def _in_the_teardrop(shooter: Sequence[Point], target: Sequence[Point],
                     shape: tuple[Point, ...], aim: float,
                     obstacles: Sequence[tuple[Sequence[Point], bool]]) -> bool:
    """Whether one of ``obstacles`` reaches more than ``TEARDROP_GUESS_DEPTH`` into the
    teardrop ``shape`` facing ``aim`` with its tip on the shooter's point closest to the
    target, cut at the target's closest point along ``aim``: a guess (nothing depends on
    it but the work done), beside ``_in_the_way``, that the first seed of a 360° burst
    search is not clear, catching obstructions beside the line that the teardrop's width
    meets."""
    p, q, _ = closest_points(shooter, target)
    th = aim * _D2R
    dx, dy = math.cos(th), math.sin(th)
    tear = [(x + p[0], y + p[1]) for x, y in _rotated(shape, aim)]
    cut = clip_halfplane(tear, dx, dy, q[0] * dx + q[1] * dy)
    if len(cut) < 3:
        return False
    return any(deeper_than(cut, poly, TEARDROP_GUESS_DEPTH) for poly, _tall in obstacles)


TOUCH_ARC_SLACK: Final = 1e-3
"""How near (mm) the target a placement may come and still count as not touching it for
``touch_arc``: a thousand times the judgement's touching tolerance."""


def touch_arc(shooter: Sequence[Point], target: Sequence[Point], tpl: ShootingTemplate
              ) -> tuple[float, float] | None:
    """Facings (degrees, lo < hi < lo + 360) outside which no 360° placement of ``tpl``
    comes within ``TOUCH_ARC_SLACK`` of ``target``; None when not shown (the two outlines
    too close, or the template too wide for it).

    A placement touches at a point y (within the slack of the target) and meets the
    shooter at a point P: a burst's tip, or for a ruler a point of its near edge. Seen
    from P, y lies within the template's spread of the facing: for a burst the teardrop's
    corners' greatest angle from its axis (it is convex, with a corner at its tip); for a
    ruler, whose points lie ahead of its near edge and within 2a of P across the facing,
    asin(2a / |y − P|), |y − P| being at least the outlines' gap less the slack. The
    directions from the shooter's points to the target's lie between those of corner
    pairs (the directions of target ⊕ (−shooter), which holds no origin), and the slack
    turns them by at most asin(slack / gap)."""
    gap = distance(shooter, target)
    slack = TOUCH_ARC_SLACK
    if gap <= 10.0 * slack:
        return None
    if tpl.is_burst:
        pts = [(x, y) for x, y in tpl.polygon if (x, y) != (0.0, 0.0)]
        if len(pts) != len(tpl.polygon) - 1 or any(x <= 0.0 for x, _ in pts):
            return None
        spread = max(abs(_atan2(y, x) * _R2D) for x, y in pts)
    else:
        far = 2.0 * tpl.near_half / (gap - slack)
        if far >= 0.5:
            return None
        spread = math.asin(far) * _R2D
    sx = sum(x for x, _ in shooter) / len(shooter)
    sy = sum(y for _, y in shooter) / len(shooter)
    tx = sum(x for x, _ in target) / len(target)
    ty = sum(y for _, y in target) / len(target)
    phi = _atan2(ty - sy, tx - sx) * _R2D
    offs = [(_atan2(qy - py, qx - px) * _R2D - phi + 180.0) % 360.0 - 180.0
            for px, py in shooter for qx, qy in target]
    turn = spread + math.asin(slack / gap) * _R2D + 1e-6
    lo, hi = phi + min(offs) - turn, phi + max(offs) + turn
    if hi - lo >= 350.0:
        return None
    return lo, hi


BOUND_JUDGED_WITHIN: Final = 3.0
"""Half-width (degrees) above which a burst interval's box bound is only the cap on its
relaxed inputs, not their whole judgement, once a best level is found: on so wide an
interval the target grown by the turn's box is nearly always touched clear (on the 360°
benchmark's bursts none of 41 such judgements bounded anything; on the golden scenes'
bursts about a fifth did, and they take no longer without them), and the judgement of a
relaxed facing costs as much as an exact one. Leaving a bound out only leaves an interval
to be judged at its middle and halved, so the answer is the same."""

PARTS_CAPPED_WITHIN: Final = 1.0
"""Half-width (degrees) of the parts a burst interval is cut into when the cap does not
show its box bound's inputs no better than the best found: the box grows with the turn,
so the cap shows on narrow parts what it cannot on the whole (on the 360° benchmark's
slowest burst, intervals 3.4° wide are not shown, their halves are), and a cap on each
part costs far less than the judgement of the relaxed facing it saves."""

PARTS_CAPPED_MOST: Final = 8
"""The most parts an interval is cut into for the cap (wider intervals are halved by the
search first)."""

PARTS_WIDE_WITHIN: Final = 4.0
"""Half-width (degrees) up to which a burst interval wider than ``BOUND_JUDGED_WITHIN``
is also tried on its parts (four), when the cap shows its middle facing no better than
the best found: on the 360° benchmark's slowest burst, intervals 6.8° wide whose
middles are covered are shown on their quarters, where halving them asked each half's
cap, range and middle first."""

PART_KEPT_SLACK = 1e-11
"""How far (degrees) inside the part the cap showed, and inside its interval, the facings
kept shown lie (``search``'s ``parts_capped``): far above the rounding of the facings
(under 720°) and of a walk through ranges, far below the parts' own overlap
(``PARTS_OVERLAP`` of half-widths over half a degree), so neighbouring parts still
meet. A part is shown only for facings strictly inside its interval, whose families are
those at its middle; the interval's ends are judged on their own."""

PARTS_OVERLAP: Final = 1.0 + 1e-9
"""Each part's half-width taken this much wider, so the parts cover the interval whatever
the rounding of their middles."""

def burst_parts(mid: float, h: float) -> list[tuple[float, float]]:
    """The parts (middle, half-width) a burst interval of the facings within ``h`` of
    ``mid`` is cut into for the cap: 2, 4 or 8 equal ones of half-width at most
    ``PARTS_CAPPED_WITHIN``, each taken ``PARTS_OVERLAP`` wider so that together they
    cover the interval whatever the rounding of their middles; none when the interval is
    no wider than one part or would need more than ``PARTS_CAPPED_MOST``."""
    n = 1
    while h / n > PARTS_CAPPED_WITHIN:
        n *= 2
    if n == 1 or n > PARTS_CAPPED_MOST:
        return []
    w = 2.0 * h / n
    return [(mid - h + (k + 0.5) * w, PARTS_OVERLAP * w / 2.0) for k in range(n)]


CIRCLE_SLACK: Final = 1e-7
"""Slack (mm) when an obstruction's bounding circle (``Obstacle.centre``, ``radius``)
decides a comparison its corners would: far above the rounding of either, so the circle
decides only what the corners would decide the same way."""


def _beyond(f: _Facings, b: Obstacle, lo: float, hi: float) -> bool:
    """Whether every corner of ``b`` lies, along ``f``'s facing (from the target's
    centre, as ``f.frame`` puts it), below ``lo`` or every corner above ``hi``, shown from
    its bounding circle: then its part between them (``_slab``) is empty."""
    cu = (b.centre[0] - f.tx) * f.cs + (b.centre[1] - f.ty) * f.sn
    return cu + b.radius + CIRCLE_SLACK < lo or cu - b.radius - CIRCLE_SLACK > hi


def pivot_relaxation(shooter: Sequence[Point], a: float, rho_t: float, target: Obstacle,
                     blockers: Sequence[Obstacle], mid: float, h: float
                     ) -> tuple[tuple[Point, ...], list[tuple[tuple[Point, ...], bool]],
                                tuple[float, float, float]]:
    """The relaxed problem of the pivot bound for the ruler facings within ``h`` of
    ``mid`` (see the module doc): the target grown, the obstructions shrunk (those
    that cannot come before the contact left out) and the ``pivot`` argument of
    ``RulerFacing.judge``. ``rho_t``: how far from an origin the target contact can
    be."""
    hr = h * _D2R
    k, sh, vers = 2.0 * math.sin(hr / 2.0), math.sin(hr), 1.0 - math.cos(hr)
    d = (math.cos(mid * _D2R), math.sin(mid * _D2R))
    cs, sn = d
    us = [x * cs + y * sn for x, y in shooter]
    front, back = max(us), min(us)
    # the contact's distance x along the ruler: the origin is between back − a·sin h
    # and front + a·sin h along mid, and turning to mid changes x by at most ρ_T·k
    tu = [x * cs + y * sn for x, y in target.polygon]
    xt_lo = max(0.0, min(tu) - front - a * sh - rho_t * k)
    xt_hi = min(rho_t, max(tu) - back + a * sh + rho_t * k)
    x_star = xt_lo + (xt_hi - xt_lo) / 4.0
    x_t = max(x_star - xt_lo, xt_hi - x_star)
    relaxed = []
    for b in blockers:
        bu = [x * cs + y * sn for x, y in b.polygon]
        x_lo = max(0.0, min(bu) - front - a * sh)
        x_hi = min(rho_t, max(bu) - back + a * sh + x_star * vers)
        if x_lo > x_hi:
            continue  # no point of it can come before the contact
        x_b = max(abs(x_lo - x_star), abs(x_hi - x_star))
        if (p := b.moved(d, x_b * vers + a * sh + 1e-9, x_b * sh + a * vers + 1e-9)
            ) is not None:
            relaxed.append((p, b.tall))
    grown = target.moved(d, x_t * vers + a * sh + 1e-9, x_t * sh + a * vers + 1e-9,
                         grow=True)
    assert grown is not None
    return grown, relaxed, (x_star * sh + 1e-9, a * sh + 1e-9,
                            back - a * sh - x_star * vers - 1e-9)


SHADOW_MARGIN: Final = 1e-6
"""Slack (mm) of ``shadow_arc``: every comparison it makes holds by at least this much, far
above the rounding of the judgement it stands in for, so the exact judgement could not
find the other answer."""


SHADOW_TRIES: Final = 16
"""Facings at which ``shadow_arc`` may find nothing before a search stops asking it (a
shot that is not shadowed, such as one through a narrow slot, would pay for every try)."""

SHADOW_CREEP: Final = 0.01
"""Least turn (degrees) a new range must take a walk past the last one's end; one that
gets less counts as a facing where none was found (ranges creeping up on a facing they
never reach would be asked for again and again)."""

SHADOW_CLIP: Final = 3.0
"""How far (mm) inside the stretch between the shooter's farthest point and the target's
nearest the blocking parts of obstructions are taken (and beyond the length the target's
unreachable part): the margin that lets a part found at one facing hold over a range."""


KEEP_ROOM: Final = 1e-9
"""Room (relative to the sizes in the fact) with which ``_Facings.keep`` takes a fact to
hold at both ends of its range without narrowing it: far above the rounding of the
cosines, so the closed form would leave the very same ends."""


class _Facings:
    """The facings near ``theta`` (turns δ from it, radians, at most 45° either way) over
    which every fact asked so far holds, each fact "w · e(θ + δ) > k" for a fixed vector w
    (given by its components along and across ``theta``): one range [lo, hi] around 0,
    found in closed form (``shadow_arc``, ``burst_shadow_arc``). Points are framed as (u, v)
    along and across ``theta`` from the target's centre."""

    def __init__(self, theta: float, target: Sequence[Point]) -> None:
        th = theta * _D2R
        self.cs, self.sn = math.cos(th), math.sin(th)
        sx = sy = 0.0  # as sum() over them (Python 3.11: added in turn), no generator
        for p in target:
            sx += p[0]
            sy += p[1]
        self.tx = sx / len(target)
        self.ty = sy / len(target)
        self.lo, self.hi = -math.pi / 4.0, math.pi / 4.0
        # cos and sin of the ends, and the ends they are of (worked out when asked)
        self.at_lo, self.clo, self.slo = math.nan, 1.0, 0.0
        self.at_hi, self.chi, self.shi = math.nan, 1.0, 0.0

    def frame(self, poly: Sequence[Point]) -> list[Point]:
        """(u, v) along and across ``theta``, from the target's centre."""
        cs, sn, tx, ty = self.cs, self.sn, self.tx, self.ty
        return [((x - tx) * cs + (y - ty) * sn, (y - ty) * cs - (x - tx) * sn)
                for x, y in poly]

    def keep(self, wu: float, wv: float, k: float) -> bool:
        """Narrow [lo, hi] (turns δ from ``theta``) to where wu cos δ + wv sin δ > k, for
        a w with components (wu, wv) along and across ``theta``; False when that fails
        at ``theta`` itself.

        With wu > 0 the least of wu cos δ + wv sin δ over [lo, hi] (within 45° of 0) is
        at one end (the least over every δ is at a turn beyond 90°): when it holds at
        both with room (``KEEP_ROOM``) it holds all over [lo, hi], which the closed form
        would leave as it is; then no root is taken."""
        if wu > 0.0:
            lo, hi = self.lo, self.hi
            if lo != self.at_lo:
                self.at_lo, self.clo, self.slo = lo, math.cos(lo), math.sin(lo)
            if hi != self.at_hi:
                self.at_hi, self.chi, self.shi = hi, math.cos(hi), math.sin(hi)
            room = KEEP_ROOM * (wu + abs(wv) + abs(k))
            if wu * self.clo + wv * self.slo - k > room \
                    and wu * self.chi + wv * self.shi - k > room:
                return lo < hi
        r = _hypot(wu, wv)
        if k < -r:
            return True
        if k >= r:
            return False
        phi = _atan2(wv, wu)
        half = math.acos(k / r)
        if not phi - half < 0.0 < phi + half:
            return False
        self.lo, self.hi = max(self.lo, phi - half), min(self.hi, phi + half)
        return self.lo < self.hi

    def along(self, p: Point, q: Point, k: float) -> bool:
        """p lies more than k beyond q along the facing."""
        return self.keep(p[0] - q[0], p[1] - q[1], k)

    def across(self, p: Point, q: Point, k: float) -> bool:
        """q lies more than k beyond p across the facing."""
        return self.keep(p[1] - q[1], q[0] - p[0], k)


def shadow_arc(shooter: Sequence[Point], target: Sequence[Point],
               blockers: Sequence[Obstacle], a: float, length: float, theta: float,
               tall_only: bool) -> tuple[float, float] | None:
    """A range of facings (degrees, lo ≤ ``theta`` ≤ hi) over which every ruler
    placement (half-width ``a``, ``length`` long) that touches ``target`` meets one of
    ``blockers`` (only the Tall ones with ``tall_only``) before the target, as
    ``RulerFacing.judge`` counts it; None when that is not shown at ``theta``. It judges
    the whole range at once, exactly, without judging any one facing in it.

    A ruler facing θ at lateral offset c covers the strip |v − c| ≤ a (v across θ, u along
    it) from its origin, which is no farther along θ than the shooter's farthest point, to
    its contact with the target. It touches the target only if c is within the shooter's
    extent across θ widened by a (where its near edge can meet the shooter) and within
    the extent across θ of the target's points it can reach (no farther than its length
    beyond the shooter's farthest point) widened by a. A point of an obstruction lying
    beyond the shooter's farthest point and nearer than the target's nearest point is,
    for every ruler whose strip holds it, past the origin and before the contact: that
    ruler meets the obstruction before the target. So a segment of such points blocks
    every offset between its ends' offsets, widened by a, and if such stretches cover
    the offsets that may touch, no placement touching the target is clear.

    At ``theta`` the stretches are chained (least first, each reaching farthest) from
    fixed points: for each obstruction of the chain the corners least and farthest
    across of its part between the shooter's farthest point and the target's nearest
    (each ``SHADOW_CLIP`` inside). Every fact the chain needs is then "w · e(θ) > k" for
    a fixed vector w between two such points (or corners of the shooter and target) and
    e(θ) the unit vector along or across the facing: w · e(θ) = |w| cos(θ − φ), which
    holds on one range of facings found in closed form (φ ± acos(k/|w|)). The answer is
    the intersection of those ranges around ``theta`` (at most 45° either way). Each
    comparison has ``SHADOW_MARGIN`` to spare, far above the rounding of the judgement
    it stands in for."""
    m = SHADOW_MARGIN
    clip = SHADOW_CLIP
    slack = m + 10.0 * TOUCH
    f = _Facings(theta, target)

    spts = f.frame(shooter)
    s_top = max(spts)
    s_umax = s_top[0]
    tpts = f.frame(target)
    t_low = min(tpts)
    t_umin = t_low[0]
    # The target's points beyond the length past the shooter's farthest point (and a
    # margin) are out of reach: every corner of that part more than the length beyond
    # every corner of the shooter.
    far = s_umax + length + clip
    reach = _slab(tpts, -math.inf, far)
    beyond = _slab(tpts, far, math.inf)
    for c in beyond:
        for s_ in spts:
            if not f.along(c, s_, length + slack):
                return None
    if not reach:
        return _degrees(theta, f.lo, f.hi)
    # the offsets that may touch, at theta
    r0 = max(min(v for _, v in reach), min(v for _, v in spts)) - a - slack
    r1 = min(max(v for _, v in reach), max(v for _, v in spts)) + a + slack
    if r0 > r1:
        # the reachable target wholly to one side of the shooter, each widened by a
        left = max(reach, key=lambda p: p[1])[1] < min(v for _, v in spts)
        for t in reach:
            for s_ in spts:
                if not (f.across(s_, t, 2.0 * a + 2.0 * slack) if left
                        else f.across(t, s_, 2.0 * a + 2.0 * slack)):
                    return None
        return _degrees(theta, f.lo, f.hi)
    parts: list[tuple[float, float, Point, Point]] = []
    for b in blockers:
        if (tall_only and not b.tall) or _beyond(f, b, s_umax + clip, t_umin - clip):
            continue
        part = _slab(f.frame(b.polygon), s_umax + clip, t_umin - clip)
        if not part:
            continue
        first = min(part, key=lambda p: p[1])
        last = max(part, key=lambda p: p[1])
        parts.append((first[1] - a + m, last[1] + a - m, first, last))
    parts.sort()
    chain: list[tuple[float, float, Point, Point]] = []
    cur, i = r0, 0
    pick: tuple[float, float, Point, Point] | None = None
    while cur <= r1:
        while i < len(parts) and parts[i][0] < cur:
            if pick is None or parts[i][1] > pick[1]:
                pick = parts[i]
            i += 1
        if pick is None or pick[1] <= cur:
            return None
        chain.append(pick)
        cur = pick[1]
    # every corner used lies beyond the shooter and before the target
    for _, _, p, q in chain:
        for c in (p, q):
            for s_ in spts:
                if not f.along(c, s_, m):
                    return None
            for t in tpts:
                if not f.along(t, c, EPS + m):
                    return None
    for k in range(len(chain) - 1):
        if not f.across(chain[k][3], chain[k + 1][2], -2.0 * a + 2.0 * m):
            return None
    # the chain starts before the offsets that may touch and ends after them: either
    # bound of theirs (the target's or the shooter's) will do
    for end, sign in ((chain[0][2], 1.0), (chain[-1][3], -1.0)):
        saved = f.lo, f.hi
        got: tuple[float, float] | None = None
        for side in (reach, spts):
            f.lo, f.hi = saved
            if all((f.across(q, end, slack) if sign > 0 else f.across(end, q, slack))
                   for q in side):
                got = (f.lo, f.hi) if got is None else (min(got[0], f.lo),
                                                        max(got[1], f.hi))
        if got is None:
            return None
        f.lo, f.hi = got
    return _degrees(theta, f.lo, f.hi)


def _degrees(theta: float, lo: float, hi: float) -> tuple[float, float] | None:
    """The turns [lo, hi] (radians) from ``theta`` as facings in degrees, drawn in by a
    hair for the rounding of the closed forms."""
    lo_d, hi_d = theta + lo * _R2D + 1e-9, theta + hi * _R2D - 1e-9
    if not lo_d <= theta <= hi_d:
        return None
    return lo_d, hi_d


BURST_GAPS = (2.0, 6.0, 15.0)
"""How far (mm) the depths (along the facing, from any tip) of the points ``burst_shadow_arc``
uses may change over the range it shows: the teardrop's width is taken at depths this
much outside those at the given facing, so the facts hold over a range of turns. A
wider gap gives more turn but a narrower teardrop near the shooter; each is tried and
the ranges shown are joined (each holds on its own, and all contain the facing)."""

BURST_INSET: Final = 0.01
"""How far (mm) inside an obstruction, and inside the teardrop (along and across), the
points ``burst_shadow_arc`` uses lie: every placement it counts blocked overlaps the
obstruction over a square of this half-size, far above the area (1e-9 mm²) the exact
judgement needs."""


def half_width(shape: Sequence[Point], depth: float) -> float:
    """Half-width about the axis of the template ``shape`` (its own frame: x along the
    axis, from its origin) at ``depth`` along it: the least of how far it reaches to
    either side there; 0 where it does not reach. For a convex shape this is a concave
    function of the depth, so its least over an interval is at one end."""
    top, bottom = -math.inf, math.inf
    last = shape[len(shape) - 1]
    x2, y2 = last[0], last[1]
    for c in shape:  # the edge from the corner before (compiled, cheaper than by index)
        x1, y1 = x2, y2
        x2, y2 = c[0], c[1]
        if (x1 - depth) * (x2 - depth) > 0.0:
            continue
        if x1 == x2:
            ya, yb = y1, y2
        else:
            ya = yb = y1 + (y2 - y1) * (depth - x1) / (x2 - x1)
        # as max(top, ya, yb) and min(bottom, ya, yb), without building their arguments
        # (compiled, a call with unpacked arguments costs more than the rest)
        if ya > top:
            top = ya
        if yb > top:
            top = yb
        if ya < bottom:
            bottom = ya
        if yb < bottom:
            bottom = yb
    return max(0.0, min(top, -bottom))


def burst_shadow_arc(shooter: Sequence[Point], target: Sequence[Point],
                     blockers: Sequence[Obstacle], shape: Sequence[Point], length: float,
                     theta: float, tall_only: bool) -> tuple[float, float] | None:
    """A range of facings (degrees, lo ≤ ``theta`` ≤ hi) over which every placement of the
    burst ``shape`` (a teardrop, tip at its origin, ``length`` its reach along its axis)
    touching ``target`` meets one of ``blockers`` (only the Tall ones with ``tall_only``)
    before the target, as the burst judgement counts it; None when that is not shown at
    ``theta``. The argument of ``shadow_arc`` with the teardrop's width instead of the
    ruler's.

    A burst facing θ has its tip on the shooter's outline: no farther along θ (u) than
    the shooter's farthest point, no nearer than its nearest nor than the target's
    nearest less the length (else it cannot touch), and across θ (v) within the
    shooter's extent. It touches the target only if the tip's offset c is within the
    teardrop's widest half-width of the target's reachable points. A point x of an
    obstruction at depth δ = u(x) − u(tip) lies in the teardrop whenever |v(x) − c| is
    within the teardrop's half-width w(δ); beyond the shooter's farthest point and
    before the target's nearest it comes before any contact. Along a segment pq of
    points inside an obstruction, every depth from any tip lies between g (the least u
    of p, q beyond the shooter's farthest point) and G (the greatest beyond the least
    tip), and w is concave, so each point blocks every offset within min(w(g), w(G)) of
    its own: the segment blocks the offsets from v(p) − W to v(q) + W. The segments
    (taken ``BURST_INSET`` inside the obstruction, from the corners least and farthest
    across of its part ``SHADOW_CLIP`` inside the stretch) are chained as the rulers'
    are, and every fact needed, the depth bounds too (g and G taken ``BURST_GAP`` wider
    than at ``theta``), is "w · e(θ) > k" for fixed points: a range of facings in
    closed form."""
    m = SHADOW_MARGIN
    clip = SHADOW_CLIP
    ins = BURST_INSET
    slack = m + 10.0 * TOUCH
    widest = _widest(shape) + slack
    f = _Facings(theta, target)

    spts = f.frame(shooter)
    s_umin, s_umax, s_vmin, s_vmax = _extent(spts)
    tpts = f.frame(target)
    t_umin = _extent(tpts)[0]
    # the target's part beyond the length past the shooter's farthest point (its corners
    # and those of the cut) stays out of reach: nothing there can be touched
    far = s_umax + length + clip
    reach = _slab(tpts, -math.inf, far)
    beyond = _slab(tpts, far, math.inf)
    for c in beyond:
        for s_ in spts:
            if not f.along(c, s_, length + slack):
                return None
    if not reach:
        return _degrees(theta, f.lo, f.hi)
    _, _, r_vmin, r_vmax = _extent(reach)
    if r_vmin - widest > s_vmax or r_vmax + widest < s_vmin:
        # the reachable target wholly to one side, beyond the teardrop's widest reach
        left = r_vmax + widest < s_vmin
        for t in reach:
            for s_ in spts:
                if not (f.across(s_, t, widest + slack) if left
                        else f.across(t, s_, widest + slack)):
                    return None
        return _degrees(theta, f.lo, f.hi)
    r0 = max(r_vmin - widest, s_vmin) - slack
    r1 = min(r_vmax + widest, s_vmax) + slack
    # the least tip that may touch: the shooter's nearest point, or the target's less
    # the length, whichever is farther
    by_target = t_umin - length - slack > s_umin
    tip_min = t_umin - length - slack if by_target else s_umin

    # per obstruction, the segment between the corners least and farthest across of its
    # part in the stretch (and in the band of offsets that matter), pulled inside it
    segments: list[tuple[Point, Point]] = []
    for b in blockers:
        if (tall_only and not b.tall) or _beyond(f, b, s_umax + clip, t_umin - clip):
            continue
        # how deep inside the outline its centre is (inset points need room)
        bcx, bcy = b.centre
        depth_in = math.inf  # as min() over the corners, without pairs of pairs
        for k in range(len(b.polygon)):
            nrm, crn = b.normals[k], b.polygon[k]
            dv = nrm[0] * (bcx - crn[0]) + nrm[1] * (bcy - crn[1])
            if dv < depth_in:
                depth_in = dv
        if depth_in < 4.0 * ins:
            continue
        part = _slab(f.frame(b.polygon), s_umax + clip, t_umin - clip)
        if part:  # only the offsets that may touch need blocking: nearer points turn less
            band = _slab([(v, u) for u, v in part], r0 - widest, r1 + widest)
            part = [(u, v) for v, u in band]
        if not part:
            continue
        cu, cv = f.frame([b.centre])[0]
        pull = 2.0 * ins / depth_in
        p = q = part[0]  # the first corner least and the first farthest across
        for c in part:
            if c[1] < p[1]:
                p = c
            if c[1] > q[1]:
                q = c
        segments.append(((p[0] + pull * (cu - p[0]), p[1] + pull * (cv - p[1])),
                         (q[0] + pull * (cu - q[0]), q[1] + pull * (cv - q[1]))))

    def attempt(gap: float) -> tuple[float, float] | None:
        """The range (turns from ``theta``, radians) shown with depths taken ``gap``
        wider than at ``theta``; None if none is."""
        f.lo, f.hi = base
        parts: list[tuple[float, float, Point, Point, float, float, float]] = []
        for p, q in segments:
            g = min(p[0], q[0]) - s_umax - gap
            big = max(p[0], q[0]) - tip_min + gap
            if g <= ins:
                continue
            w = min(half_width(shape, g - ins), half_width(shape, big + ins)) - ins
            if w <= m:
                continue
            parts.append((p[1] - w + m, q[1] + w - m, p, q, g, big, w))
        parts.sort()
        chain: list[tuple[float, float, Point, Point, float, float, float]] = []
        cur, i = r0, 0
        pick: tuple[float, float, Point, Point, float, float, float] | None = None
        while cur <= r1:
            while i < len(parts) and parts[i][0] < cur:
                if pick is None or parts[i][1] > pick[1]:
                    pick = parts[i]
                i += 1
            if pick is None or pick[1] <= cur:
                covered[0] = False
                return None
            chain.append(pick)
            cur = pick[1]
        # every point used lies beyond the shooter's farthest point by more than g, before
        # the target, and less than G beyond the least tip that may touch
        for _, _, p, q, g, big, _ in chain:
            for c in (p, q):
                for s_ in spts:
                    if not f.along(c, s_, g):
                        return None
                for t in tpts:
                    if not f.along(t, c, EPS + m):
                        return None
                if by_target:
                    for t in tpts:
                        if not f.along(t, c, length + slack - big):
                            return None
                else:
                    for s_ in spts:
                        if not f.along(s_, c, -big):
                            return None
        for k in range(len(chain) - 1):
            if not f.across(chain[k][3], chain[k + 1][2],
                          -(chain[k][6] + chain[k + 1][6]) + 2.0 * m):
                return None
        # the chain starts before the offsets that may touch and ends after them: either
        # bound of theirs (the target's widened by the widest half-width, or the shooter's)
        for end, sign, w in ((chain[0][2], 1.0, chain[0][6]),
                             (chain[-1][3], -1.0, chain[-1][6])):
            saved = f.lo, f.hi
            got: tuple[float, float] | None = None
            for side, wide in ((reach, widest), (spts, 0.0)):
                f.lo, f.hi = saved
                need = wide - w + slack
                held = True  # as all() over ``side``, stopping at the first that fails
                for q in side:
                    if not (f.across(q, end, need) if sign > 0 else f.across(end, q, need)):
                        held = False
                        break
                if held:
                    got = (f.lo, f.hi) if got is None else (min(got[0], f.lo),
                                                            max(got[1], f.hi))
            if got is None:
                return None
            f.lo, f.hi = got
        return f.lo, f.hi

    base = f.lo, f.hi
    covered = [True]
    got: tuple[float, float] | None = None
    for gap in BURST_GAPS:
        shown = attempt(gap)
        if not covered[0]:
            # the segments' blocked offsets do not cover those that may touch: with the
            # depths taken wider each teardrop width is no wider (w is concave), so no
            # wider gap covers them either
            break
        if shown is not None:
            got = shown if got is None else (min(got[0], shown[0]), max(got[1], shown[1]))
    if got is None:
        return None
    return _degrees(theta, *got)

def _extent(pts: Sequence[Point]) -> tuple[float, float, float, float]:
    """The least and greatest first, then second, coordinate of ``pts`` (not empty): as
    min() and max() over them, in one pass without generators (compiled, far cheaper)."""
    u0 = u1 = pts[0][0]
    v0 = v1 = pts[0][1]
    for p in pts:
        u, v = p[0], p[1]
        if u < u0:
            u0 = u
        if u > u1:
            u1 = u
        if v < v0:
            v0 = v
        if v > v1:
            v1 = v
    return u0, u1, v0, v1


def _widest(shape: Sequence[Point]) -> float:
    """The greatest |y| over ``shape`` (not empty), as max() over them, without a
    generator."""
    out = abs(shape[0][1])
    for p in shape:
        y = abs(p[1])
        if y > out:
            out = y
    return out


def _slab(pts: Sequence[Point], lo: float, hi: float) -> list[Point]:
    """The corners of the convex polygon ``pts`` (as (u, v)) clipped to lo ≤ u ≤ hi."""
    out = list(pts)
    if out:
        out = _cut_at(out, lo, 1.0)
    if out:
        out = _cut_at(out, hi, -1.0)
    return out


def _cut_at(src: list[Point], bound: float, sign: float) -> list[Point]:
    """``_slab``'s clip by one bound: the part of ``src`` where sign·(u − bound) ≥ 0;
    ``src`` itself when every corner is there (the clip would keep each, adding none)."""
    n = len(src)
    fs: list[float] = []
    inside = True
    for c in src:
        f = sign * (c[0] - bound)
        if f < 0.0:
            inside = False
        fs.append(f)
    if inside:
        return src
    out: list[Point] = []
    for i in range(n):
        p, q = src[i], src[(i + 1) % n]
        fp, fq = fs[i], fs[(i + 1) % n]
        if fp >= 0.0:
            out.append(p)
        if (fp >= 0.0) != (fq >= 0.0):
            k = fp / (fp - fq)
            out.append((bound, p[1] + k * (q[1] - p[1])))
    return out


def _farthest(a: Sequence[Point], b: Sequence[Point]) -> float:
    """Largest distance between a point of ``a`` and a point of ``b`` (convex outlines)."""
    out = -math.inf  # as max() over the pairs (compiled: a loop, not a generator)
    for p in a:
        for q in b:
            d = _hypot(p[0] - q[0], p[1] - q[1])
            if d > out:
                out = d
    return out
