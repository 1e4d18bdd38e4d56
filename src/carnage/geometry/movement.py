"""Movement templates on the table: placement, final positions, interrupted movement.

Rules encoded here (our words; see docs/rulings.md for the readings we chose):
- A movement template is placed centred on the vehicle's front edge, either way up (mirror
  for a left turn); in reverse, centred on the rear edge, travelling backwards (Refuelled
  p.22, p.39).
- Final position: rear edge centred on, and parallel with, the template's far end; reversing,
  the front edge on the far end (p.25, p.39). A slide puts the vehicle's side edge on the far
  end of the Slide template placed at the slide exit point; off a straight the player picks
  which way the vehicle faces (p.24, p.26). A spin pivots up to 90 degrees (p.24).
- Interrupted movement (pp.45–51): the move is interrupted when the template (up to the slide
  exit point, plus the Slide template, when sliding) or the final position overlaps an
  obstruction not being ignored. The vehicle then rides the template until it first touches
  such an obstruction, and backs up until it overlaps nothing, ignored obstructions included.

How the body rides a template: its centre follows the template's centreline, extended
straight back from the start and straight on past the far end, heading along the centreline's
tangent (reversing: facing away from it). The ride starts with the centre half a body length
behind the template (the starting position) and ends half a length past the far end (the
final position), so the body stays centred on and parallel with the template throughout.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from math import isfinite, remainder
from typing import Final, Literal

from mypy_extensions import mypyc_attr

from carnage.geometry.collision import TOUCH_TOL, Obstruction
from carnage.geometry.shapes import Point, Pose, Rect, distance, norm_heading
from carnage.geometry.sweep import (
    OVERLAP_EPS,
    Convex,
    Kin,
    Motion,
    Outline,
    Piece,
    arc_piece,
    first_contact,
    last_clear,
    line_piece,
    max_penetration,
    rot_piece,
    sat,
)
from carnage.geometry.templateset import MovementSpec, TemplateSet, default_template_set

_D2R: Final = math.pi / 180.0
"""``math.radians(x)`` is ``x * _D2R`` bit for bit (CPython multiplies by the same constant);
compiled, the product costs no call."""
_R2D: Final = 180.0 / math.pi
"""``math.degrees(x)`` is ``x * _R2D`` bit for bit, likewise."""
_hypot: Final = math.hypot
_atan2: Final = math.atan2
"""Read once: compiled, each call of ``math.hypot`` and the like would look the name up."""

SlideSide = Literal["left", "right"]

MAX_SPIN: Final = 90.0
"""A spin pivots at most this many degrees either way (Refuelled p.24)."""


@dataclass(frozen=True, slots=True)
class _Seg:
    """A world-frame stretch of centreline: straight (k = 0) or arc turning k (+1 counter-
    clockwise, -1 clockwise) about (cx, cy) with radius r. Angles in radians."""

    s0: float
    length: float
    x0: float
    y0: float
    h0: float
    k: int
    r: float
    cx: float
    cy: float
    a0: float

    def at(self, s: float) -> tuple[float, float, float]:
        d = s - self.s0
        if self.k == 0:
            return (self.x0 + d * math.cos(self.h0), self.y0 + d * math.sin(self.h0), self.h0)
        a = self.a0 + self.k * d / self.r
        return (
            self.cx + self.r * math.cos(a),
            self.cy + self.r * math.sin(a),
            a + self.k * math.pi / 2.0,
        )


def _spec(template_id: str, ts: TemplateSet) -> MovementSpec:
    spec = ts.movement.get(template_id)
    if spec is None:
        known = ", ".join(sorted(ts.movement))
        raise ValueError(f"unknown movement template {template_id!r} (known: {known})")
    return spec


class TemplatePath:
    """A movement template laid on the table.

    ``start`` is where the template touches the vehicle (the centre of its front edge, or of
    its rear edge when reversing) with the heading of travel along the template. Distances
    ``s`` run along the centreline from 0 to ``length``; ``pose_at`` extends the centreline
    straight on beyond both ends.
    """

    def __init__(self, spec: MovementSpec, start: Pose, *, width: float, mirror: bool,
                 reverse: bool, slide_length: float, slide_width: float,
                 slide_as: MovementSpec | None = None, slide_mirror: bool = False) -> None:
        self.spec = spec
        self.slide_as = slide_as
        self.slide_mirror = slide_mirror
        self.template_id = spec.id
        self.start = start
        self.width = width
        self.mirror = mirror
        self.reverse = reverse
        self.slide_length = slide_length
        self.slide_width = slide_width
        self.length = spec.length
        self.slide_exit = min(max(spec.slide_exit, 0.0), self.length)
        side = spec.slide_side
        if mirror and side != "end":
            side = "left" if side == "right" else "right"
        self.slide_side: Literal["end", "left", "right"] = (
            "end" if side == "end" else ("left" if side == "left" else "right")
        )
        segs: list[_Seg] = []
        x, y, h = start.x, start.y, start.heading * _D2R
        s0 = 0.0
        flip = 1 if mirror else -1  # right way up, a positive arc turns clockwise
        for sg in spec.segments:
            if sg.radius is None:
                seg = _Seg(s0, sg.length, x, y, h, 0, 0.0, 0.0, 0.0, 0.0)
            else:
                k = flip if sg.angle > 0 else -flip
                r = sg.radius
                cx = x - k * r * math.sin(h)
                cy = y + k * r * math.cos(h)
                seg = _Seg(s0, sg.arc_length, x, y, h, k, r, cx, cy, _atan2(y - cy, x - cx))
            segs.append(seg)
            s0 += seg.length
            x, y, h = seg.at(s0)
        self.segs = tuple(segs)
        self.end = Pose(x, y, norm_heading(h * _R2D))

    # ------------------------------------------------------------------ centreline
    def _kin(self, s: float) -> tuple[float, float, float]:
        if s <= 0.0 or not self.segs:
            h = self.start.heading * _D2R
            return (self.start.x + s * math.cos(h), self.start.y + s * math.sin(h), h)
        if s >= self.length:
            h = self.end.heading * _D2R
            d = s - self.length
            return (self.end.x + d * math.cos(h), self.end.y + d * math.sin(h), h)
        for seg in reversed(self.segs):
            if s >= seg.s0:
                return seg.at(s)
        return self.segs[0].at(s)

    def pose_at(self, s: float) -> Pose:
        """Centreline point ``s`` mm from the start, with the heading of travel there."""
        x, y, h = self._kin(s)
        return Pose(x, y, norm_heading(h * _R2D))

    def normal(self, s: float, side: SlideSide) -> Point:
        """Unit vector across the template at ``s`` towards ``side`` of the travel direction."""
        h = self._kin(s)[2] + (math.pi / 2.0 if side == "left" else -math.pi / 2.0)
        return (math.cos(h), math.sin(h))

    # ------------------------------------------------------------------ slide
    def slide_exit_point(self) -> Point:
        """The slide exit point: on the centreline for an end exit, else on that edge."""
        x, y, _ = self._kin(self.slide_exit)
        if self.slide_side == "end":
            return (x, y)
        nx, ny = self.normal(self.slide_exit, self.slide_side)
        return (x + nx * self.width / 2.0, y + ny * self.width / 2.0)

    def slide_direction(self) -> Point:
        """Which way the Slide template sticks out from the slide exit point."""
        if self.slide_side == "end":
            h = self._kin(self.slide_exit)[2]
            return (math.cos(h), math.sin(h))
        return self.normal(self.slide_exit, self.slide_side)

    def slide_path(self) -> TemplatePath | None:
        """A movement template laid as the Slide template (Powerslide, p.107): its start at
        the slide exit point, running the way the slide goes; None for the Slide template."""
        if self.slide_as is None:
            return None
        px, py = self.slide_exit_point()
        dx, dy = self.slide_direction()
        heading = norm_heading(_atan2(dy, dx) * _R2D)
        return TemplatePath(self.slide_as, Pose(px, py, heading), width=self.width,
                            mirror=self.slide_mirror, reverse=False,
                            slide_length=self.slide_length, slide_width=self.slide_width)

    def slide_template(self) -> Rect:
        """The Slide template placed at the slide exit point (length along the slide)."""
        px, py = self.slide_exit_point()
        dx, dy = self.slide_direction()
        half = self.slide_length / 2.0
        heading = norm_heading(_atan2(dy, dx) * _R2D)
        return Rect(Pose(px + dx * half, py + dy * half, heading), self.slide_length,
                    self.slide_width)

    # ------------------------------------------------------------------ outlines
    def _ranges(self, upto: float) -> list[tuple[_Seg, float, float]]:
        out = []
        for seg in self.segs:
            a, b = seg.s0, min(seg.s0 + seg.length, upto)
            if b > a + 1e-12:
                out.append((seg, a, b))
        return out

    def outline(self, upto: float | None = None, step_deg: float = 3.0) -> list[Point]:
        """The template's outline (counter-clockwise, not convex for curves) from the start to
        ``upto`` mm (default: the whole template), arcs sampled every ``step_deg``."""
        upto = self.length if upto is None else min(max(upto, 0.0), self.length)
        ss = [0.0]
        for seg, a, b in self._ranges(upto):
            n = 1 if seg.k == 0 else max(1, math.ceil(((b - a) / seg.r) * _R2D / step_deg))
            ss += [a + (b - a) * i / n for i in range(1, n + 1)]
        w = self.width / 2.0
        left: list[Point] = []
        right: list[Point] = []
        for s in ss:
            x, y, h = self._kin(s)
            nx, ny = -math.sin(h), math.cos(h)
            left.append((x + nx * w, y + ny * w))
            right.append((x - nx * w, y - ny * w))
        return right + left[::-1]

    def convex_pieces(self, upto: float | None = None) -> list[tuple[Point, ...]]:
        """Convex polygons covering the template up to ``upto`` mm: each straight is one
        rectangle; arcs are cut into 3-degree pieces whose outer chords are pushed out to
        contain the arc (for rendering and for callers that want plain polygons)."""
        upto = self.length if upto is None else min(max(upto, 0.0), self.length)
        out: list[tuple[Point, ...]] = []
        w = self.width / 2.0
        for seg, a, b in self._ranges(upto):
            if seg.k == 0:
                xm, ym, h = seg.at((a + b) / 2.0)
                out.append(tuple(Rect(Pose(xm, ym, h * _R2D), b - a, self.width)
                                 .polygon()))
                continue
            n = max(1, math.ceil(((b - a) / seg.r) * _R2D / 3.0))
            dphi = (b - a) / seg.r / n
            grow = 1.0 / math.cos(dphi / 2.0)
            ri, ro = max(seg.r - w, 0.0), (seg.r + w)
            for i in range(n):
                a0 = seg.a0 + seg.k * (a - seg.s0) / seg.r + seg.k * i * dphi
                a1 = a0 + seg.k * dphi
                am = (a0 + a1) / 2.0
                ro_mid = ro * grow
                pts = [
                    (seg.cx + ri * math.cos(a0), seg.cy + ri * math.sin(a0)),
                    (seg.cx + ro * math.cos(a0), seg.cy + ro * math.sin(a0)),
                    (seg.cx + ro_mid * math.cos(am), seg.cy + ro_mid * math.sin(am)),
                    (seg.cx + ro * math.cos(a1), seg.cy + ro * math.sin(a1)),
                    (seg.cx + ri * math.cos(a1), seg.cy + ri * math.sin(a1)),
                ]
                if seg.k < 0:
                    pts.reverse()
                out.append(tuple(pts))
        return out

    def area(self, upto: float | None = None) -> list[_Area]:
        """Exact pieces of the template surface up to ``upto`` mm, for overlap tests."""
        upto = self.length if upto is None else min(max(upto, 0.0), self.length)
        out: list[_Area] = []
        w = self.width / 2.0
        for seg, a, b in self._ranges(upto):
            if seg.k == 0:
                xm, ym, h = seg.at((a + b) / 2.0)
                out.append(_RectArea(xm, ym, h, (b - a) / 2.0, w))
                continue
            start = seg.a0 + seg.k * (a - seg.s0) / seg.r
            span = (b - a) / seg.r
            n = max(1, math.ceil(span / (math.pi / 2.0) - 1e-9))
            for i in range(n):
                p0 = start + seg.k * span * i / n
                p1 = start + seg.k * span * (i + 1) / n
                lo = min(p0, p1)
                out.append(_SectorArea(seg.cx, seg.cy, max(seg.r - w, 0.0), seg.r + w, lo,
                                       span / n))
        return out


def template_path(template_id: str, start: Pose, *, mirror: bool = False, reverse: bool = False,
                  ts: TemplateSet | None = None) -> TemplatePath:
    """Lay template ``template_id`` at ``start``: the centre of the vehicle's front edge with
    the vehicle's heading (``reverse``: the centre of its rear edge, still with the vehicle's
    heading; the template then runs backwards). ``mirror`` turns it over (left turns)."""
    ts = ts or default_template_set()
    spec = _spec(template_id, ts)
    travel = Pose(start.x, start.y, norm_heading(start.heading + (180.0 if reverse else 0.0)))
    slide_as = _spec(ts.slide_as, ts) if ts.slide_as is not None else None
    return TemplatePath(spec, travel, width=ts.width, mirror=mirror, reverse=reverse,
                        slide_length=ts.slide_length, slide_width=ts.slide_width,
                        slide_as=slide_as, slide_mirror=ts.slide_mirror)


def path_for(body: Rect, template_id: str, *, mirror: bool = False, reverse: bool = False,
             ts: TemplateSet | None = None) -> TemplatePath:
    """The template placed against ``body`` (front edge, or rear edge when reversing)."""
    edge = body.rear_centre() if reverse else body.front_centre()
    return template_path(template_id, Pose(edge[0], edge[1], body.pose.heading), mirror=mirror,
                         reverse=reverse, ts=ts)


# ---------------------------------------------------------------------- exact area tests


@dataclass(frozen=True, slots=True)
class _RectArea:
    x: float
    y: float
    h: float
    hl: float
    hw: float

    def circle(self) -> tuple[float, float, float]:
        return (self.x, self.y, _hypot(self.hl, self.hw))

    def overlaps(self, ob: Convex) -> bool:
        return sat(self.hl, self.hw, (self.x, self.y, self.h), ob) > OVERLAP_EPS


def _clip_halfplane(poly: list[Point], nx: float, ny: float, c: float) -> list[Point]:
    """Part of convex ``poly`` where n . p >= c."""
    out: list[Point] = []
    m = len(poly)
    for i in range(m):
        p, q = poly[i], poly[(i + 1) % m]
        sp = p[0] * nx + p[1] * ny - c
        sq = q[0] * nx + q[1] * ny - c
        if sp >= 0:
            out.append(p)
        if (sp >= 0) != (sq >= 0):
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


@dataclass(frozen=True, slots=True)
class _SectorArea:
    """Annular sector: radii [ri, ro] about (cx, cy), polar angles [a0, a0 + span], span <=
    pi/2 (radians, counter-clockwise)."""

    cx: float
    cy: float
    ri: float
    ro: float
    a0: float
    span: float

    def circle(self) -> tuple[float, float, float]:
        am = self.a0 + self.span / 2.0
        mr = (self.ri + self.ro) / 2.0
        mx, my = self.cx + mr * math.cos(am), self.cy + mr * math.sin(am)
        far = self.ro - mr
        for a in (self.a0, self.a0 + self.span):
            for r in (self.ri, self.ro):
                far = max(far, _hypot(self.cx + r * math.cos(a) - mx,
                                          self.cy + r * math.sin(a) - my))
        return (mx, my, far)

    def overlaps(self, ob: Convex) -> bool:
        # Clip the outline to the wedge, then compare its range of distances from the centre
        # with the ring: a connected set meets the ring iff the two ranges overlap.
        eps = OVERLAP_EPS
        a1 = self.a0 + self.span
        s0, c0 = math.sin(self.a0), math.cos(self.a0)
        s1, c1 = math.sin(a1), math.cos(a1)
        poly = _clip_halfplane(list(ob.polygon), -s0, c0, -s0 * self.cx + c0 * self.cy + eps)
        if len(poly) < 3:
            return False
        poly = _clip_halfplane(poly, s1, -c1, s1 * self.cx - c1 * self.cy + eps)
        if len(poly) < 3:
            return False
        if max(_hypot(x - self.cx, y - self.cy) for x, y in poly) <= self.ri + eps:
            return False
        m = len(poly)
        inside = True
        dmin = math.inf
        for i in range(m):
            ax, ay = poly[i]
            bx, by = poly[(i + 1) % m]
            ex, ey = bx - ax, by - ay
            px, py = self.cx - ax, self.cy - ay
            if ex * py - ey * px < 0:
                inside = False
            ll = ex * ex + ey * ey
            t = 0.0 if ll == 0 else max(0.0, min(1.0, (px * ex + py * ey) / ll))
            dmin = min(dmin, _hypot(px - t * ex, py - t * ey))
        return inside or dmin < self.ro - eps


_Area = _RectArea | _SectorArea


# ---------------------------------------------------------------------- plans (local frame)


@dataclass(frozen=True)
class _Plan:
    """Everything about a move that does not depend on where the body is: worked out once in
    the body's own frame (centre at the origin, heading 0) and cached."""

    ts: TemplateSet
    path: TemplatePath
    motion: Motion
    areas: tuple[tuple[tuple[float, float, float], _Area], ...]
    area_bounds: tuple[float, float, float, float]
    slide_rect: Rect | None
    bounds: tuple[float, float, float, float]
    """Box around everything the move can touch: the swept body and the template areas."""


def _bounding_rect(path: TemplatePath) -> Rect:
    """The smallest rectangle along the template's start heading holding all of it."""
    h = path.start.heading * _D2R
    c, s = math.cos(h), math.sin(h)
    pts = [p for piece in path.convex_pieces() for p in piece]
    us = [(x - path.start.x) * c + (y - path.start.y) * s for x, y in pts]
    vs = [(y - path.start.y) * c - (x - path.start.x) * s for x, y in pts]
    u0, u1, v0, v1 = min(us), max(us), min(vs), max(vs)
    um, vm = (u0 + u1) / 2.0, (v0 + v1) / 2.0
    return Rect(Pose(path.start.x + um * c - vm * s, path.start.y + um * s + vm * c,
                     path.start.heading), u1 - u0, v1 - v0)


def _build_motion(hl: float, hw: float, path: TemplatePath, slide: SlideSide | None,
                  turn: float) -> tuple[Motion, Rect | None]:
    rho = _hypot(hl, hw)
    hoff = math.pi if path.reverse else 0.0
    pieces: list[Piece] = []

    def ride(a: float, b: float, path: TemplatePath = path, hoff: float = hoff) -> None:
        """Centre from centreline distance a to b (extended beyond the ends)."""
        cuts = sorted({a, b, *(min(max(sg.s0, a), b) for sg in path.segs),
                       min(max(path.length, a), b), min(max(0.0, a), b)})
        for s0, s1 in pairwise(cuts):
            if s1 <= s0:
                continue
            mid = (s0 + s1) / 2.0
            seg = None
            if 0.0 < mid < path.length:
                for sg in reversed(path.segs):
                    if mid >= sg.s0:
                        seg = sg
                        break
            if seg is None or seg.k == 0:
                x, y, h = path._kin(s0)
                pieces.append(line_piece(x, y, math.cos(h), math.sin(h), s1 - s0, h + hoff, rho))
            else:
                a_start = seg.a0 + seg.k * (s0 - seg.s0) / seg.r
                span = (s1 - s0) / seg.r
                n = max(1, math.ceil(span / (math.pi / 4.0) - 1e-9))
                for i in range(n):
                    pieces.append(arc_piece(seg.cx, seg.cy, seg.r,
                                            a_start + seg.k * span * i / n, seg.k, span / n,
                                            hoff, rho))

    slide_rect: Rect | None = None
    curve = path.slide_path()
    if slide is None:
        ride(-hl, path.length + hl)
    elif curve is not None:
        # Powerslide (p.107): the chosen template is the Slide template. The body rides it
        # sideways, as it would the Slide template: off a straight after its quarter turn,
        # off a curve from the centreline out to the template's edge; it ends with its side
        # edge centred on the far end.
        ride(-hl, path.slide_exit)
        x, y, h = path._kin(path.slide_exit)
        body_h = h + hoff
        back = 0.0
        if path.slide_side == "end":
            pieces.append(rot_piece(x, y, 0.0, 0.0, body_h, turn, rho))
            body_h += turn
        else:
            back = path.width / 2.0
        ch = curve.start.heading * _D2R
        ride(-back, curve.length + hw, curve, body_h - ch)
        slide_rect = _bounding_rect(curve)
    elif path.slide_side == "end":
        # Off a straight: ride until the centre is over the exit, pivot a quarter turn to the
        # chosen facing, then slide across the Slide template (p.50).
        ride(-hl, path.slide_exit)
        x, y, h = path._kin(path.slide_exit)
        body_h = h + hoff
        pieces.append(rot_piece(x, y, 0.0, 0.0, body_h, turn, rho))
        pieces.append(line_piece(x, y, math.cos(h), math.sin(h), path.slide_length + hw,
                                 body_h + turn, rho))
        slide_rect = path.slide_template()
    else:
        # Off a curve: ride to the slide exit point, then straight out sideways (p.50).
        ride(-hl, path.slide_exit)
        x, y, h = path._kin(path.slide_exit)
        nx, ny = path.slide_direction()
        pieces.append(line_piece(x, y, nx, ny, path.width / 2.0 + path.slide_length + hw,
                                 h + hoff, rho))
        slide_rect = path.slide_template()
    return Motion(hl, hw, pieces), slide_rect


class _Planned:
    """A plan remembered with what it was made for (the template set by identity)."""

    def __init__(self, ts: TemplateSet, mirror: bool, reverse: bool, slide: str | None,
                 turn: float, length: float, width: float, plan: _Plan) -> None:
        self.ts = ts
        self.mirror = mirror
        self.reverse = reverse
        self.slide = slide
        self.turn = turn
        self.length = length
        self.width = width
        self.plan = plan


_PLANS: dict[str, list[_Planned]] = {}
"""Plans by template id, each with what else it was made for: found by comparing those
fields (compiled, natively) instead of hashing a key of eight values for every move."""
_PLAN_COUNT: list[int] = [0]
"""How many plans ``_PLANS`` holds."""


def _plan(ts: TemplateSet, template_id: str, mirror: bool, reverse: bool,
          slide: SlideSide | None, turn: float, length: float, width: float) -> _Plan:
    known = _PLANS.get(template_id)
    if known is not None:
        for e in known:
            if (e.ts is ts and e.mirror == mirror and e.reverse == reverse and e.slide == slide
                    and e.turn == turn and e.length == length and e.width == width):
                return e.plan
    hl, hw = length / 2.0, width / 2.0
    edge = -hl if reverse else hl
    path = template_path(template_id, Pose(edge, 0.0, 0.0), mirror=mirror, reverse=reverse,
                         ts=ts)
    motion, slide_rect = _build_motion(hl, hw, path, slide, turn)
    areas: list[_Area] = list(path.area(path.slide_exit if slide is not None else None))
    curve = path.slide_path() if slide is not None else None
    if curve is not None:
        areas.extend(curve.area())
    elif slide_rect is not None:
        sp = slide_rect.pose
        areas.append(_RectArea(sp.x, sp.y, sp.heading * _D2R, slide_rect.length / 2.0,
                               slide_rect.width / 2.0))
    fx, fy, fh = motion.at(motion.length)
    areas.append(_RectArea(fx, fy, fh, hl, hw))
    circled = tuple((a.circle(), a) for a in areas)
    bounds = (
        min(c[0] - c[2] for c, _ in circled), min(c[1] - c[2] for c, _ in circled),
        max(c[0] + c[2] for c, _ in circled), max(c[1] + c[2] for c, _ in circled),
    )
    mb = motion.bounds
    both = (min(mb[0], bounds[0]), min(mb[1], bounds[1]), max(mb[2], bounds[2]),
            max(mb[3], bounds[3]))
    plan = _Plan(ts, path, motion, circled, bounds, slide_rect, both)
    if _PLAN_COUNT[0] > 4096:
        _PLANS.clear()
        _PLAN_COUNT[0] = 0
    _PLANS.setdefault(template_id, []).append(
        _Planned(ts, mirror, reverse, slide, turn, length, width, plan))
    _PLAN_COUNT[0] += 1
    return plan


def _area_hits(plan: _Plan, ob: Convex) -> bool:
    if isinstance(ob, Outline):  # compiled: its fields without a look-up
        ox, oy = ob.centre
        orad = ob.radius
    else:
        ox, oy = ob.centre
        orad = ob.radius
    b = plan.area_bounds
    if ox + orad < b[0] or ox - orad > b[2] or oy + orad < b[1] or oy - orad > b[3]:
        return False
    for (x, y, r), ar in plan.areas:
        rr = r + orad
        if math.pow(x - ox, 2.0) + math.pow(y - oy, 2.0) <= rr * rr and ar.overlaps(ob):
            return True
    return False


# ---------------------------------------------------------------------- moves


def _to_world(start: Pose, x: float, y: float, h_rad: float) -> Pose:
    c, s = math.cos(start.heading * _D2R), math.sin(start.heading * _D2R)
    return Pose(start.x + x * c - y * s, start.y + x * s + y * c,
                norm_heading(start.heading + h_rad * _R2D))


@mypyc_attr(native_class=False)
@dataclass(slots=True)
class MoveResult:
    """Outcome of a move: the final ``pose``; whether the movement was ``interrupted``; the
    obstructions (not ignored) the vehicle ``touched`` at the end, in order of contact.

    ``path``, ``intended``, ``slide_template`` and ``swept`` describe the move for rendering.
    Treat it as read-only (it is not frozen only because frozen construction costs time).
    """

    pose: Pose
    interrupted: bool
    touched: list[str]
    start: Pose = field(compare=False)
    length: float = field(compare=False)
    width: float = field(compare=False)
    ignored: list[str] = field(default_factory=list, compare=False)
    """Obstructions touching the vehicle at the start (ignored for this move, p.45)."""
    travel: float = field(default=1.0, compare=False)
    """Fraction of the way to the intended final position actually travelled."""
    spin_applied: float = field(default=0.0, compare=False)
    plan: _Plan | None = field(default=None, repr=False, compare=False)

    @property
    def body(self) -> Rect:
        return Rect(self.pose, self.length, self.width)

    @property
    def path(self) -> TemplatePath:
        """The movement template as placed on the table."""
        assert self.plan is not None
        p = self.plan.path
        return template_path(p.template_id, _to_world(self.start, p.start.x, p.start.y, 0.0),
                             mirror=p.mirror, reverse=p.reverse, ts=self.plan.ts)

    def pose_at(self, travel: float) -> Pose:
        """Where the body is ``travel`` (a fraction, 0 at the start) of the way along the
        move to its intended final position (before any spin)."""
        if self.plan is None:
            return self.pose
        m = self.plan.motion
        x, y, h = m.at(min(max(travel, 0.0), 1.0) * m.length)
        return _to_world(self.start, x, y, h)

    @property
    def intended(self) -> Pose:
        """The final position the move would reach unobstructed (before any spin)."""
        if self.plan is None:
            return self.pose
        m = self.plan.motion
        x, y, h = m.at(m.length)
        return _to_world(self.start, x, y, h)

    @property
    def slide_template(self) -> Rect | None:
        if self.plan is None or self.plan.slide_rect is None:
            return None
        r = self.plan.slide_rect
        return Rect(self.start.compose(r.pose), r.length, r.width)

    @property
    def slide_pieces(self) -> list[list[Point]]:
        """Convex pieces covering the Slide template as laid (a Powerslide's template, or the
        Slide template itself); none without a slide."""
        if self.plan is None or self.plan.slide_rect is None:
            return []
        p = self.plan.path
        curve = p.slide_path()
        if curve is None:
            st = self.slide_template
            return [] if st is None else [st.polygon()]
        out = []
        for piece in curve.convex_pieces():
            poses = [_to_world(self.start, x, y, 0.0) for x, y in piece]
            out.append([(q.x, q.y) for q in poses])
        return out

    def swept_box(self) -> list[Point]:
        """The corners (counter-clockwise) of a box holding every point of the body at every
        pose ``swept`` gives, whatever ``n``: the motion's bounds (each piece's swept circle,
        in the body's frame at the start) placed at the start."""
        if self.plan is None:
            return self.body.polygon()
        x0, y0, x1, y1 = self.plan.motion.bounds
        corners = [_to_world(self.start, x, y, 0.0)
                   for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        return [(q.x, q.y) for q in corners]

    def swept(self, n: int = 24) -> list[Pose]:
        """``n`` + 1 poses along the way the vehicle actually moved (for rendering)."""
        if self.plan is None or n < 1:
            return [self.pose]
        m = self.plan.motion
        stop = self.travel * m.length
        st = self.start
        c, s = math.cos(st.heading * _D2R), math.sin(st.heading * _D2R)
        out = []
        for x, y, h in _local_kins(m, stop, n):  # _to_world with the start's turn once
            out.append(Pose(st.x + x * c - y * s, st.y + x * s + y * c,
                            norm_heading(st.heading + h * _R2D)))
        return out


_KINS: dict[tuple[int, float, int], tuple[Motion, tuple[Kin, ...]]] = {}
"""``n`` + 1 body-frame poses along a cached plan's motion up to ``stop``, by the motion's
identity (the motion is held with them, so the identity cannot be reused): moves from
different places share them, since the plan is the same in the body's own frame."""


def _local_kins(m: Motion, stop: float, n: int) -> tuple[Kin, ...]:
    key = (id(m), stop, n)
    hit = _KINS.get(key)
    if hit is not None and hit[0] is m:
        return hit[1]
    kins = tuple(m.at(stop * i / n) for i in range(n + 1))
    if len(_KINS) >= 4096:
        _KINS.clear()
    _KINS[key] = (m, kins)
    return kins


def _finite(x: float) -> bool:
    """``math.isfinite(x)`` (neither infinite nor NaN); compiled, with no call through Python."""
    return not (math.isinf(x) or math.isnan(x))


def _validate_body(body: Rect) -> None:
    p = body.pose
    try:
        ok = (_finite(p.x) and _finite(p.y) and _finite(p.heading) and _finite(body.length)
              and _finite(body.width))
    except (TypeError, AttributeError):
        ok = False
    if not ok:
        raise ValueError("vehicle body has a non-finite position, heading or size")
    if body.length <= 0 or body.width <= 0:
        raise ValueError("vehicle body needs a positive length and width")


def _slide_turn(template_id: str, side: str, slide: str | None, slide_facing: float | None,
                body: Rect) -> float:
    """Check the slide arguments; for a slide off a straight return the quarter turn (radians,
    anticlockwise positive) the vehicle makes to its chosen facing, else 0."""
    if slide is None:
        if slide_facing is not None:
            raise ValueError("slide_facing given without a slide")
        return 0.0
    if slide not in ("left", "right"):
        raise ValueError(f"slide must be 'left', 'right' or None, not {slide!r}")
    if side == "end":
        turn = math.pi / 2.0 if slide == "left" else -math.pi / 2.0
        if slide_facing is not None:
            if not isinstance(slide_facing, (int, float)) or not isfinite(slide_facing):
                raise ValueError("slide_facing must be a finite heading")
            off = remainder(slide_facing - body.pose.heading, 360.0)
            if abs(abs(off) - 90.0) > 1e-6:
                raise ValueError(
                    f"slide_facing {slide_facing:g} must be square to the vehicle "
                    f"({norm_heading(body.pose.heading + 90):g} or "
                    f"{norm_heading(body.pose.heading - 90):g})"
                )
            turn = math.pi / 2.0 if off > 0 else -math.pi / 2.0
        return turn
    if slide_facing is not None:
        raise ValueError(f"slide_facing only applies to straights, not {template_id}")
    if slide != side:
        raise ValueError(
            f"{template_id} laid this way up slides to the {side}, where its slide exit "
            f"point is, not to the {slide}"
        )
    return 0.0


def _check_obstructions(obstructions: Sequence[object]) -> None:
    seen: set[str] = set()
    for item in obstructions:  # typed ``object``: compiled, a wrong type must reach the check
        if not isinstance(item, Obstruction):
            raise ValueError(
                f"obstructions must be Obstruction objects, not {type(item).__name__}")
        ob = item
        if ob.id in seen:
            raise ValueError(f"duplicate obstruction id {ob.id!r}")
        seen.add(ob.id)


def _touching(hl: float, hw: float, kin: Kin, ob: Convex) -> bool:
    """Within TOUCH_TOL: bounding circles and the separating-axis gap rule most out; the
    exact distance settles the rest."""
    x, y, _ = kin
    if isinstance(ob, Outline):  # compiled: its fields without a look-up
        ox, oy = ob.centre
        orad = ob.radius
    else:
        ox, oy = ob.centre
        orad = ob.radius
    rr = _hypot(hl, hw) + orad + TOUCH_TOL
    if (ox - x) * (ox - x) + (oy - y) * (oy - y) > rr * rr:
        return False
    g = -sat(hl, hw, kin, ob)
    if g > TOUCH_TOL:
        return False
    if g <= TOUCH_TOL / 1.5:
        # Rectangle corners are right angles, so the true distance is at most sqrt(2) times
        # the best separating-axis gap.
        return True
    x, y, h = kin
    poly = Rect(Pose(x, y, h * _R2D), 2.0 * hl, 2.0 * hw).polygon()
    return distance(poly, ob.polygon) <= TOUCH_TOL


def _prepare(body: Rect, template_id: str, mirror: bool, reverse: bool,
             slide: SlideSide | None, slide_facing: float | None,
             ts: TemplateSet | None) -> _Plan:
    _validate_body(body)
    ts = ts or default_template_set()
    spec = _spec(template_id, ts)
    if slide is None and slide_facing is None:
        turn = 0.0  # what ``_slide_turn`` answers, without reading the spec's side
    else:
        side = spec.slide_side
        if mirror and side != "end":
            side = "left" if side == "right" else "right"
        turn = _slide_turn(spec.id, side, slide, slide_facing, body)
    return _plan(ts, template_id, bool(mirror), bool(reverse), slide, turn, float(body.length),
                 float(body.width))


def motion_bounds(body: Rect, template_id: str, *, mirror: bool = False, reverse: bool = False,
                  ts: TemplateSet | None = None) -> tuple[float, float, float, float]:
    """A box (x0, y0, x1, y1) in the body's own frame (its centre at the origin, heading
    along +x) holding every point of the body all along the unobstructed move, so also
    wherever an interrupted or backed-up move of it ends (no slide, no spin)."""
    return _prepare(body, template_id, mirror, reverse, None, None, ts).motion.bounds


def final_pose(body: Rect, template_id: str, *, mirror: bool = False, reverse: bool = False,
               slide: SlideSide | None = None, slide_facing: float | None = None,
               ts: TemplateSet | None = None) -> Pose:
    """The unobstructed final position (Refuelled pp.25–26, 39)."""
    plan = _prepare(body, template_id, mirror, reverse, slide, slide_facing, ts)
    m = plan.motion
    x, y, h = m.at(m.length)
    return _to_world(body.pose, x, y, h)


def clear_of(body: Rect, template_id: str, obstructions: Sequence[Obstruction], *,
             mirror: bool = False, reverse: bool = False,
             ts: TemplateSet | None = None) -> bool:
    """Does no obstruction come near the move at all (no slide, no spin)? ``resolve_move``'s
    own first test, the same arithmetic: True when none of ``obstructions`` reaches the box
    round everything the move can touch, so that ``resolve_move`` finds nothing near and the
    move is not interrupted, touches and ignores nothing and ends at ``final_pose``. False
    says nothing (the move may still be clear)."""
    plan = _prepare(body, template_id, mirror, reverse, None, None, ts)
    return _clear(plan, body.pose, obstructions)


def unobstructed(body: Rect, template_id: str, obstructions: Sequence[Obstruction], *,
                 mirror: bool = False, reverse: bool = False, ts: TemplateSet | None = None
                 ) -> tuple[Pose, tuple[float, float, float, float], bool]:
    """``final_pose``, ``motion_bounds`` and ``clear_of`` of one move (no slide, no spin),
    the move's plan looked up once."""
    end, m, clear = unobstructed_motion(body, template_id, obstructions, mirror=mirror,
                                        reverse=reverse, ts=ts)
    return end, m.bounds, clear


def unobstructed_motion(body: Rect, template_id: str, obstructions: Sequence[Obstruction], *,
                        mirror: bool = False, reverse: bool = False,
                        ts: TemplateSet | None = None) -> tuple[Pose, Motion, bool]:
    """``unobstructed`` with the move's whole ``Motion`` (in the body's own frame at the
    start) in place of its bounds: wherever ``resolve_move`` stops the body without a slide
    or spin (interrupted or backed up), it stands at ``motion.at(u)`` for some ``u`` in
    [0, ``motion.length``], placed at the start."""
    plan = _prepare(body, template_id, mirror, reverse, None, None, ts)
    m = plan.motion
    x, y, h = m.at(m.length)
    return _to_world(body.pose, x, y, h), m, _clear(plan, body.pose, obstructions)


def _clear(plan: _Plan, start: Pose, obstructions: Sequence[Obstruction]) -> bool:
    """``resolve_move``'s broad phase finds none of ``obstructions`` near ``plan`` at
    ``start`` (the same functions)."""
    c, s, wx, wy, prad = _broad_frame(plan, start)
    for ob in obstructions:  # noqa: SIM110 (compiled, a loop costs less than a generator)
        if _broad_near(ob, start, plan.bounds, c, s, wx, wy, prad):
            return False
    return True


def _broad_frame(plan: _Plan, start: Pose) -> tuple[float, float, float, float, float]:
    """The broad phase's frame of ``plan`` at ``start``: the cosine and sine of the start's
    heading, and the plan's bounding circle in the world (centre x, y and radius, grown by
    the touching tolerance)."""
    hr = start.heading * _D2R
    c, s = math.cos(hr), math.sin(hr)
    bx0, by0, bx1, by1 = plan.bounds
    pcx, pcy = (bx0 + bx1) / 2.0, (by0 + by1) / 2.0
    prad = _hypot(bx1 - bx0, by1 - by0) / 2.0 + TOUCH_TOL
    return c, s, start.x + pcx * c - pcy * s, start.y + pcx * s + pcy * c, prad


def _broad_near(ob: Obstruction, start: Pose, bounds: tuple[float, float, float, float],
                c: float, s: float, wx: float, wy: float, prad: float) -> bool:
    """Whether ``ob`` passes the broad phase (``_broad_frame``): its circle meets the
    plan's bounding circle, then the plan's bounding box in the start's frame."""
    ox, oy, r = ob.circle
    dx = ox - wx
    dy = oy - wy
    rr = prad + r
    if dx * dx + dy * dy > rr * rr:
        return False
    dx, dy = ox - start.x, oy - start.y
    lx, ly = dx * c + dy * s, dy * c - dx * s
    r += TOUCH_TOL
    bx0, by0, bx1, by1 = bounds
    return not (lx + r < bx0 or lx - r > bx1 or ly + r < by0 or ly - r > by1)


def trailer_behind(cab: Rect, length: float, width: float, hinge: float) -> Rect:
    """The trailer hitched behind ``cab`` at ``hinge`` degrees (its heading minus the cab's).
    In line (hinge 0) its front edge is centred on the cab's rear edge centre; folded, the
    two bodies meet corner to corner on the inside of the bend (ruling VR-20), so the trailer
    stays behind the cab's rear edge and the two never overlap (for hinges within 90)."""
    cr, tr = cab.pose.heading * _D2R, (cab.pose.heading + hinge) * _D2R
    rx, ry = cab.rear_centre()
    fx, fy = _hitch_offset(rx, ry, cr, tr, hinge, min(cab.width, width) / 2.0)
    half = length / 2.0
    return Rect(Pose(fx - half * math.cos(tr), fy - half * math.sin(tr),
                     norm_heading(cab.pose.heading + hinge)), length, width)


def cab_ahead(trailer: Rect, length: float, width: float, hinge: float) -> Pose:
    """The cab's pose when its trailer lies at ``trailer`` with ``hinge`` (the inverse of
    ``trailer_behind``)."""
    tr = trailer.pose.heading * _D2R
    cr = (trailer.pose.heading - hinge) * _D2R
    fx, fy = trailer.front_centre()
    w = min(width, trailer.width) / 2.0
    ox, oy = _hitch_offset(0.0, 0.0, cr, tr, hinge, w)
    rx, ry = fx - ox, fy - oy
    half = length / 2.0
    return Pose(rx + half * math.cos(cr), ry + half * math.sin(cr),
                norm_heading(trailer.pose.heading - hinge))


def _hitch_offset(rx: float, ry: float, cr: float, tr: float, hinge: float,
                  half_w: float) -> Point:
    """The trailer's front edge centre: the cab's rear edge centre (rx, ry), moved so that
    the trailer's front corner on the inside of the bend sits on the cab's rear corner."""
    if abs(hinge) < 1e-12:
        return rx, ry
    s = 1.0 if hinge > 0 else -1.0
    # Left normals of cab (cr) and trailer (tr): the corner on the side -s of each.
    return (rx + s * half_w * (-math.sin(tr) + math.sin(cr)),
            ry + s * half_w * (math.cos(tr) - math.cos(cr)))


def hitch_trailer(cab: Rect, length: float, width: float,
                  path: TemplatePath | None = None) -> Rect:
    """Place an articulated vehicle's trailer behind its cab (Refuelled p.117): hitched as
    ``trailer_behind`` lays it, turned so that its rear edge centre lies on the template's
    centreline (extended straight back past the start), which keeps it over
    as much of the template as it can reach. Without a path, or when the centreline never gets
    that far from the hitch, the trailer lines up with the cab."""
    if not (isfinite(length) and isfinite(width)) or length <= 0 or width <= 0:
        raise ValueError("trailer needs a finite positive length and width")
    heading = cab.pose.heading
    if path is not None:
        # The front edge centre moves a little as the trailer folds (``trailer_behind``):
        # aim from where it sits at the angle found so far until the angle settles.
        for _ in range(40):
            hinge = (heading - cab.pose.heading + 180.0) % 360.0 - 180.0
            hx, hy = trailer_behind(cab, length, width, hinge).front_centre()
            was, heading = heading, _aim_trailer(cab, length, path, hx, hy)
            if abs((heading - was + 180.0) % 360.0 - 180.0) < 1e-10:
                break
    hinge = (heading - cab.pose.heading + 180.0) % 360.0 - 180.0
    return trailer_behind(cab, length, width, hinge)


def _aim_trailer(cab: Rect, length: float, path: TemplatePath, hx: float, hy: float) -> float:
    """The heading that puts the rear edge centre of a trailer hitched at (hx, hy) on the
    template's centreline (extended straight back), else the cab's heading."""
    heading = cab.pose.heading
    # From the centreline point nearest the hitch, walk back along the centreline to the
    # first point ``length`` away from the hitch, then bisect.
    def far(s: float) -> float:
        x, y, _ = path._kin(s)
        return _hypot(x - hx, y - hy) - length

    lowest = -(length + cab.length)
    samples = [lowest + 2.0 * i for i in range(int((path.length - lowest) / 2.0) + 1)]
    s_hi = min(samples, key=far)
    if far(s_hi) < 0:
        s_lo = s_hi - 1.0
        while far(s_lo) < 0:
            s_hi, s_lo = s_lo, s_lo - 1.0
        for _ in range(50):
            mid = (s_lo + s_hi) / 2.0
            if far(mid) >= 0:
                s_lo = mid
            else:
                s_hi = mid
        x, y, _ = path._kin(s_lo)
        heading = norm_heading(_atan2(hy - y, hx - x) * _R2D)
    return heading


def pivot(body: Rect, angle: float, *, about_front: bool = False) -> Rect:
    """``body`` turned ``angle`` degrees anticlockwise about its centre (or the centre of its
    front edge): a free pivot, with no range limit and no obstruction check."""
    if not isinstance(angle, (int, float)) or not isfinite(angle):
        raise ValueError("pivot angle must be a finite number")
    p = body.pose
    if not about_front:
        return Rect(Pose(p.x, p.y, norm_heading(p.heading + angle)), body.length, body.width)
    qx, qy = body.front_centre()
    r = angle * _D2R
    rx, ry = p.x - qx, p.y - qy
    nx = qx + rx * math.cos(r) - ry * math.sin(r)
    ny = qy + rx * math.sin(r) + ry * math.cos(r)
    return Rect(Pose(nx, ny, norm_heading(p.heading + angle)), body.length, body.width)


def _start_clear(motion: Motion, obs: Sequence[Convex]) -> list[Convex]:
    """The outlines the body does not already overlap at the start of ``motion``: backing up
    can only ever clear those. One it only touches at the start (overlapping by no more than
    the touch tolerance, GM-7) counts as clear, so the move never ends deeper in it (p.46)."""
    kin = motion.at(0.0)
    out = []
    for ob in obs:
        if isinstance(ob, Outline):  # compiled: its fields without a look-up
            ox, oy = ob.centre
            rr = motion.rho + ob.radius
        else:
            ox, oy = ob.centre
            rr = motion.rho + ob.radius
        if math.pow(ox - kin[0], 2.0) + math.pow(oy - kin[1], 2.0) > rr * rr or \
                sat(motion.hl, motion.hw, kin, ob) <= TOUCH_TOL:
            out.append(ob)
    return out


def _back_up(motion: Motion, u: float, near: Sequence[Convex]) -> float:
    """Where the body ends after backing up from ``u`` until it overlaps nothing."""
    if not near or max_penetration(motion, u, near) <= OVERLAP_EPS:
        return u
    clear_of = _start_clear(motion, near)
    return last_clear(motion, u, clear_of) if clear_of else u


def resolve_move(
    body: Rect,
    template_id: str,
    obstructions: Sequence[Obstruction] = (),
    *,
    mirror: bool = False,
    reverse: bool = False,
    slide: SlideSide | None = None,
    slide_facing: float | None = None,
    spin: float = 0.0,
    spin_about_front: bool = False,
    ignoring: Collection[str] = (),
    ts: TemplateSet | None = None,
) -> MoveResult:
    """Move ``body`` along a template among ``obstructions`` (Refuelled pp.22–26, 39, 45–51).

    ``slide``: for curves the side the Slide template goes on (it must be the side holding
    the slide exit point); for straights the way the vehicle turns to face (left =
    anticlockwise), or give the facing as a heading in ``slide_facing``. ``spin``: degrees
    anticlockwise within -90..90 about the centre (or the front-edge centre), made only if
    the move is not interrupted. ``ignoring``: extra obstruction ids to ignore, on top of
    those touching the body at the start.
    """
    if not isinstance(spin, (int, float)) or not isfinite(spin):
        raise ValueError("spin must be a finite number of degrees")
    if abs(spin) > MAX_SPIN + 1e-9:
        raise ValueError(f"spin {spin:g} is outside -90..90 degrees")
    plan = _prepare(body, template_id, mirror, reverse, slide, slide_facing, ts)
    motion = plan.motion
    hl, hw, rho = motion.hl, motion.hw, motion.rho
    start = body.pose

    # Work in the body's starting frame: only obstructions near the plan are converted. The
    # broad phase is the plan's bounding circle, then its bounding box.
    c, s, wx, wy, prad = _broad_frame(plan, start)
    bounds = plan.bounds
    near: list[Outline] = []
    entries: list[_LocalEntry] = []
    try:
        for ob in obstructions:
            if not _broad_near(ob, start, bounds, c, s, wx, wy, prad):
                continue
            entry = _local_entry(ob, start, c, s)
            near.append(entry[1])
            entries.append(entry)
    except (AttributeError, TypeError):
        _check_obstructions(obstructions)
        raise
    if len({ob.id for ob in obstructions}) != len(obstructions):
        _check_obstructions(obstructions)

    ignored_set = {e[1].id for e in entries
                   if e[1].id in ignoring or _touching_at_start(hl, hw, e)}
    if ignoring:
        ignored_set |= {ob.id for ob in obstructions if ob.id in ignoring}
    live = [o for o in near if o.id not in ignored_set]
    u_end = motion.length

    # Interrupted? The template (up to the slide exit when sliding), the Slide template and
    # the final position against what is not ignored (p.45, p.50).
    blocked = any(_area_hits(plan, o) for o in live)
    first_at: dict[str, float] = {}
    u_stop = u_end
    if blocked:
        # Ride until the body first touches anything not ignored, however wide it is (p.47).
        cands = [(idx[0], o) for o in live if (idx := motion.near(o))]
        cands.sort(key=lambda t: t[0])
        for _, o in cands:
            hit = first_contact(motion, o, u_stop)
            if hit is not None:
                first_at[o.id] = hit[1]
                u_stop = min(u_stop, hit[0])
    # Back up until clear of everything, ignored obstructions too (pp.46, 48).
    u_final = _back_up(motion, u_stop, near)
    interrupted = u_final < u_end - 1e-9
    kin = motion.at(u_final)
    touched = [o.id for o in live if _touching(hl, hw, kin, o)]
    if len(touched) > 1:
        index = {ob.id: i for i, ob in enumerate(obstructions)}
        touched.sort(key=lambda i: (min(first_at.get(i, u_final), u_final), index[i]))

    spun = 0.0
    if spin and not interrupted:
        skip = ignored_set | set(touched)
        kin, spun, spin_touched = _spin(kin, hl, hw, rho, spin, spin_about_front, near, skip)
        touched += [i for i in spin_touched if i not in touched]

    return MoveResult(
        pose=_to_world(start, kin[0], kin[1], kin[2]),
        interrupted=interrupted,
        touched=touched,
        start=start,
        length=body.length,
        width=body.width,
        ignored=[ob.id for ob in obstructions if ob.id in ignored_set] if ignoring
        else [o.id for o in near if o.id in ignored_set],
        travel=(u_final / u_end) if u_end > 0 else 1.0,
        spin_applied=spun,
        plan=plan,
    )


_LocalEntry = tuple[Obstruction, Outline, dict[tuple[float, float], bool]]

_LOCAL: dict[tuple[int, float, float, float], _LocalEntry] = {}
"""Obstructions already put in a body's starting frame, by the obstruction's identity (held
in the entry, so it cannot be reused) and the exact start pose, with whether a body of given
half sizes touches each at the start: the candidate moves a bot weighs from one place, and
the move then made, share them."""

_LAST_START: list[tuple[Pose, dict[int, _LocalEntry]]] = []
"""The last start pose asked for (by identity: the candidate moves from one place share
their start pose) with its entries by obstruction identity (each entry holds its
obstruction): the same entries ``_LOCAL`` gives, without building and hashing its key."""


def _local_entry(ob: Obstruction, start: Pose, c: float, s: float) -> _LocalEntry:
    """``ob``, ``Outline.local(ob, start.x, start.y, c, s)`` (c, s: the start heading's
    cosine and sine) and its start-touch answers so far, remembered."""
    last = _LAST_START
    if last and last[0][0] is start:
        by_id = last[0][1]
        got = by_id.get(id(ob))
        if got is not None and got[0] is ob:
            return got
    else:
        by_id = {}
        last[:] = [(start, by_id)]
    key = (id(ob), start.x, start.y, start.heading)
    hit = _LOCAL.get(key)
    if hit is None or hit[0] is not ob:
        hit = (ob, Outline.local(ob, start.x, start.y, c, s), {})
        if len(_LOCAL) >= 8192:
            _LOCAL.clear()
        _LOCAL[key] = hit
    by_id[id(ob)] = hit
    return hit


def _touching_at_start(hl: float, hw: float, entry: _LocalEntry) -> bool:
    """``_touching(hl, hw, (0, 0, 0), outline)`` for the entry's outline, remembered."""
    memo = entry[2]
    hit = memo.get((hl, hw))
    if hit is None:
        hit = memo[(hl, hw)] = _touching(hl, hw, (0.0, 0.0, 0.0), entry[1])
    return hit


def _spin(kin: Kin, hl: float, hw: float, rho: float, spin: float, about_front: bool,
          near: Sequence[Convex], skip: set[str]) -> tuple[Kin, float, list[str]]:
    """Pivot the body at ``kin`` by ``spin`` degrees, stopping at the first touch of an
    obstruction it was not already touching (p.24): the new kin, the angle turned, and what
    it touched."""
    x, y, h = kin
    if about_front:
        qx, qy = x + hl * math.cos(h), y + hl * math.sin(h)
        rho_q = _hypot(2.0 * hl, hw)
    else:
        qx, qy, rho_q = x, y, rho
    motion = Motion(hl, hw, [rot_piece(qx, qy, x - qx, y - qy, h, spin * _D2R, rho_q)])
    live = [o for o in near if o.id not in skip]
    u_stop = motion.length
    for o in live:
        hit = first_contact(motion, o, u_stop)
        if hit is not None:
            u_stop = min(u_stop, hit[0])
    u_final = _back_up(motion, u_stop, near)
    end = motion.at(u_final)
    turned = spin * (u_final / motion.length) if motion.length > 0 else 0.0
    return end, turned, [o.id for o in live if _touching(hl, hw, end, o)]


def spin_body(
    body: Rect,
    angle: float,
    obstructions: Sequence[Obstruction] = (),
    *,
    about_front: bool = False,
    ignoring: Collection[str] = (),
) -> tuple[Pose, float, list[str]]:
    """Pivot ``body`` by ``angle`` degrees (anticlockwise positive, any size) about its centre
    or its front-edge centre, stopping where it first touches an obstruction it was not
    touching at the start nor ignoring (Spin p.24, Lose Control p.35). Returns the pose, the
    angle actually turned and the obstructions touched at the end (not ignored ones)."""
    _validate_body(body)
    _check_obstructions(obstructions)
    if not isinstance(angle, (int, float)) or not isfinite(angle):
        raise ValueError("pivot angle must be a finite number of degrees")
    hl, hw = body.length / 2.0, body.width / 2.0
    p = body.pose
    kin: Kin = (p.x, p.y, p.heading * _D2R)
    skip = set(ignoring) | {
        ob.id for ob in obstructions if _touching(hl, hw, kin, ob)
    }
    if angle == 0:
        return p, 0.0, []
    end, turned, touched = _spin(kin, hl, hw, _hypot(hl, hw), float(angle), about_front,
                                 obstructions, skip)
    return Pose(end[0], end[1], norm_heading(end[2] * _R2D)), turned, touched
