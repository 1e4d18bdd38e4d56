"""Continuous motion of a rectangular body and its first contact with convex obstructions.

A ``Motion`` is a chain of pieces (ride along a straight, ride along an arc, translate, pivot),
each parametrised so that no point of the body moves more than 1 mm per unit of the parameter.
That makes the separating-axis gap (a lower bound on the true distance) a safe step length:
``first_contact`` advances by the gap, so it cannot step over a contact, then bisects the
parameter once contact is bracketed. Positions come out within ``RESOLUTION`` mm.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from carnage.geometry.collision import Obstruction
from carnage.geometry.shapes import Point, Pose

_R2D: Final = 180.0 / math.pi
"""``math.degrees(x)`` is ``x * _R2D`` bit for bit, likewise."""
_hypot: Final = math.hypot
"""Read once: compiled, each call of ``math.hypot`` would look the name up."""

RESOLUTION: Final = 0.01
"""Bisection stops when the bracket is this short (mm of body-point travel)."""

MIN_STEP: Final = 0.05
"""Smallest advance while grazing: a touch shallower than this may be stepped over."""

OVERLAP_EPS: Final = 1e-6
"""Penetration (mm) above which two outlines overlap rather than touch."""

Kin = tuple[float, float, float]
"""Body centre x, y and heading in radians."""


class Convex(Protocol):
    """What the fast tests need of an outline: vertices (counter-clockwise), each distinct edge
    normal with the outline's projection on it, and a bounding circle."""

    @property
    def id(self) -> str: ...
    @property
    def polygon(self) -> tuple[Point, ...]: ...
    @property
    def axes(self) -> tuple[tuple[float, float, float, float], ...]: ...
    @property
    def centre(self) -> Point: ...
    @property
    def radius(self) -> float: ...


class Outline:
    """An obstruction expressed in another frame (e.g. the moving body's starting frame)."""

    __slots__ = ("axes", "centre", "id", "polygon", "radius")

    def __init__(self, id: str, polygon: tuple[Point, ...],
                 axes: tuple[tuple[float, float, float, float], ...], centre: Point,
                 radius: float) -> None:
        self.id = id
        self.polygon = polygon
        self.axes = axes
        self.centre = centre
        self.radius = radius

    @staticmethod
    def local(ob: Obstruction, ox: float, oy: float, c: float, s: float) -> Outline:
        """``ob`` in the frame with origin (ox, oy) and x axis (c, s)."""
        poly = tuple(((x - ox) * c + (y - oy) * s, (y - oy) * c - (x - ox) * s)
                     for x, y in ob.polygon)
        axes = tuple((nx * c + ny * s, ny * c - nx * s, lo - (nx * ox + ny * oy),
                      hi - (nx * ox + ny * oy)) for nx, ny, lo, hi in ob.axes)
        x, y = ob.centre
        centre = ((x - ox) * c + (y - oy) * s, (y - oy) * c - (x - ox) * s)
        return Outline(ob.id, poly, axes, centre, ob.radius)


@dataclass(frozen=True)
class Piece:
    """One stretch of a motion: ``at(u)`` for ``u`` in [0, length] gives the body's centre and
    heading; body points move at most 1 mm per unit ``u``. ``circle`` bounds every body point
    over the piece (x, y, radius) for the broad phase."""

    length: float
    at: Callable[[float], Kin]
    circle: tuple[float, float, float]
    line: tuple[float, float, float, float, float] | None = None
    """For a pure translation: start x, y, unit direction dx, dy, and the fixed heading."""
    ring: tuple[float, float, float, float] | None = None
    """For a ride along an arc: centre x, y and the radii between which every body point
    stays (a tighter bound than ``circle`` for the broad phase)."""


def line_piece(x0: float, y0: float, dx: float, dy: float, dist: float, head: float,
               rho: float) -> Piece:
    """Centre from (x0, y0) along unit (dx, dy) for ``dist`` mm, heading fixed (radians)."""

    def at(u: float) -> Kin:
        return (x0 + dx * u, y0 + dy * u, head)

    mid = dist / 2.0
    return Piece(dist, at, (x0 + dx * mid, y0 + dy * mid, mid + rho), (x0, y0, dx, dy, head))


def arc_piece(cx: float, cy: float, r: float, a0: float, k: int, span: float, hoff: float,
              rho: float) -> Piece:
    """Centre along the circle (cx, cy, r) from polar angle ``a0`` turning ``k`` (+1 counter-
    clockwise, -1 clockwise) through ``span`` radians (<= pi), heading tangent + ``hoff``."""
    v = 1.0 + rho / r
    length = span * r * v
    inv = 1.0 / (r * v)
    half_pi = k * math.pi / 2.0

    def at(u: float) -> Kin:
        a = a0 + k * u * inv
        return (cx + r * math.cos(a), cy + r * math.sin(a), a + half_pi + hoff)

    a1 = a0 + k * span
    sx, sy = cx + r * math.cos(a0), cy + r * math.sin(a0)
    ex, ey = cx + r * math.cos(a1), cy + r * math.sin(a1)
    half_chord = _hypot(ex - sx, ey - sy) / 2.0
    return Piece(length, at, ((sx + ex) / 2.0, (sy + ey) / 2.0, half_chord + rho), None,
                 (cx, cy, max(r - rho, 0.0), r + rho))


def rot_piece(qx: float, qy: float, rx: float, ry: float, h0: float, turn: float,
              rho_q: float) -> Piece:
    """Pivot about (qx, qy) by ``turn`` radians; the centre starts at q + (rx, ry), heading
    ``h0``; ``rho_q`` is the farthest body point from q."""
    length = abs(turn) * rho_q
    k = 1.0 if turn >= 0 else -1.0
    inv = k / rho_q if rho_q > 0 else 0.0

    def at(u: float) -> Kin:
        t = u * inv
        c, s = math.cos(t), math.sin(t)
        return (qx + rx * c - ry * s, qy + rx * s + ry * c, h0 + t)

    return Piece(length, at, (qx, qy, rho_q))


class Motion:
    """A body (half length ``hl``, half width ``hw``) moving through a chain of pieces."""

    __slots__ = ("bounds", "hl", "hw", "length", "pieces", "rho", "starts")

    def __init__(self, hl: float, hw: float, pieces: Sequence[Piece]) -> None:
        self.hl = hl
        self.hw = hw
        self.rho = _hypot(hl, hw)
        self.pieces = [p for p in pieces if p.length > 0.0] or list(pieces[:1])
        starts = []
        acc = 0.0
        for p in self.pieces:
            starts.append(acc)
            acc += p.length
        self.starts = starts
        self.length = acc
        xs = [p.circle[0] - p.circle[2] for p in self.pieces]
        xs2 = [p.circle[0] + p.circle[2] for p in self.pieces]
        ys = [p.circle[1] - p.circle[2] for p in self.pieces]
        ys2 = [p.circle[1] + p.circle[2] for p in self.pieces]
        self.bounds = (min(xs), min(ys), max(xs2), max(ys2))

    def at(self, u: float) -> Kin:
        u = min(max(u, 0.0), self.length)
        i = len(self.starts) - 1
        while i > 0 and self.starts[i] > u:
            i -= 1
        p = self.pieces[i]
        return p.at(min(u - self.starts[i], p.length))

    def pose(self, u: float) -> Pose:
        x, y, h = self.at(u)
        return Pose(x, y, h * _R2D % 360.0)

    def near(self, ob: Convex) -> list[int]:
        """Indices of pieces whose swept circle meets the obstruction's circle."""
        if isinstance(ob, Outline):  # compiled: its fields without a look-up
            ox, oy = ob.centre
            orad = ob.radius
        else:
            ox, oy = ob.centre
            orad = ob.radius
        b = self.bounds
        if ox + orad < b[0] or ox - orad > b[2] or oy + orad < b[1] or oy - orad > b[3]:
            return []
        out = []
        for i, p in enumerate(self.pieces):
            cx, cy, r = p.circle
            rr = r + orad
            dx, dy = ox - cx, oy - cy
            if dx * dx + dy * dy > rr * rr:
                continue
            if p.ring is not None:
                d = _hypot(ox - p.ring[0], oy - p.ring[1])
                if d + orad < p.ring[2] or d - orad > p.ring[3]:
                    continue
            out.append(i)
        return out


def sat(hl: float, hw: float, kin: Kin, ob: Convex) -> float:
    """Separating-axis depth of the body at ``kin`` against ``ob``: positive is penetration
    depth (the minimum translation to separate), negative a lower bound on the gap."""
    cx, cy, h = kin
    fx, fy = math.cos(h), math.sin(h)
    best = math.inf
    # an ``Outline`` (the common case) read as one: compiled, its fields without a look-up
    if isinstance(ob, Outline):
        axes, poly = ob.axes, ob.polygon
    else:
        axes, poly = ob.axes, ob.polygon
    for ax, ay, lo, hi in axes:
        cp = cx * ax + cy * ay
        r = hl * abs(fx * ax + fy * ay) + hw * abs(fy * ax - fx * ay)
        d = cp + r - lo
        d2 = hi - cp + r
        if d2 < d:
            d = d2
        if d < best:
            best = d
    # the body's own two axes, (fx, fy) with half size hl, then (-fy, fx) with hw, written
    # out (the same operations in the same order) rather than looped over a tuple of them
    ax, ay = fx, fy
    cp = cx * ax + cy * ay
    x, y = poly[0]
    lo = hi = x * ax + y * ay
    for x, y in poly:
        t = x * ax + y * ay
        if t < lo:
            lo = t
        elif t > hi:
            hi = t
    d = cp + hl - lo
    d2 = hi - cp + hl
    if d2 < d:
        d = d2
    if d < best:
        best = d
    ax, ay = -fy, fx
    cp = cx * ax + cy * ay
    x, y = poly[0]
    lo = hi = x * ax + y * ay
    for x, y in poly:
        t = x * ax + y * ay
        if t < lo:
            lo = t
        elif t > hi:
            hi = t
    d = cp + hw - lo
    d2 = hi - cp + hw
    if d2 < d:
        d = d2
    if d < best:
        best = d
    return best


def first_contact(motion: Motion, ob: Convex, limit: float | None = None,
                  thr: float = 0.0) -> tuple[float, float] | None:
    """The first contact with ``ob`` within [0, limit] as a bracket (clear u, touching u) at
    most ``RESOLUTION`` long, or None. "Touching" means a separating-axis gap of at most
    ``thr`` mm; a body that passes within ``RESOLUTION`` of ``ob`` counts as touching it.
    Assumes the body is clear of ``ob`` at u = 0 (else returns (0, 0))."""
    end = motion.length if limit is None else min(limit, motion.length)
    hl, hw = motion.hl, motion.hw
    half_res = RESOLUTION / 2.0
    for i in motion.near(ob):
        base = motion.starts[i]
        if base > end:
            break
        piece = motion.pieces[i]
        top = min(piece.length, end - base)
        if piece.line is not None:
            # Translation: solved exactly. Coming within RESOLUTION counts as touching, as in
            # the stepping below; the clear pose returned is within half of it.
            near = _line_contact(hl, hw, piece.line, ob, top, thr + RESOLUTION)
            if near is None:
                continue
            touch = _line_contact(hl, hw, piece.line, ob, top, thr)
            if touch is None:
                return (base + near, base + near)
            return (base + max(near, touch - half_res), base + touch)
        at = piece.at
        u = 0.0
        v = sat(hl, hw, at(0.0), ob) + thr
        if v >= 0.0:
            return (base, base)
        while True:
            gap = -v
            if gap <= RESOLUTION:
                return (base + u, base + u + gap)
            if u >= top:
                break
            # Points move at most 1 mm per unit u and the gap is a lower bound on the distance,
            # so a step just short of the gap cannot pass through the obstruction.
            un = u + (gap - half_res if gap - half_res > MIN_STEP else MIN_STEP)
            if un > top:
                un = top
            vn = sat(hl, hw, at(un), ob) + thr
            if vn >= 0.0:
                lo, hi = u, un
                while hi - lo > RESOLUTION:
                    mid = (lo + hi) / 2.0
                    if sat(hl, hw, at(mid), ob) + thr >= 0.0:
                        hi = mid
                    else:
                        lo = mid
                return (base + lo, base + hi)
            u, v = un, vn
    return None


def _line_contact(hl: float, hw: float, line: tuple[float, float, float, float, float],
                  ob: Convex, top: float, pad: float) -> float | None:
    """Exact first u in [0, top] at which a translating body comes within ``pad`` of ``ob``
    on every separating axis (swept separating-axis test), or None."""
    x0, y0, dx, dy, h = line
    fx, fy = math.cos(h), math.sin(h)
    t0, t1 = 0.0, top
    axes = [(ax, ay, lo, hi, hl * abs(fx * ax + fy * ay) + hw * abs(fy * ax - fx * ay))
            for ax, ay, lo, hi in ob.axes]
    for ax, ay, half in ((fx, fy, hl), (-fy, fx, hw)):
        proj = [x * ax + y * ay for x, y in ob.polygon]
        axes.append((ax, ay, min(proj), max(proj), half))
    for ax, ay, lo, hi, half in axes:
        # The body's projection centre moves linearly: p0 + k u; it meets [lo, hi] when it is
        # within lo - half - pad .. hi + half + pad.
        p0 = x0 * ax + y0 * ay
        k = dx * ax + dy * ay
        a = lo - half - pad - p0
        b = hi + half + pad - p0
        if abs(k) < 1e-12:
            if a > 0.0 or b < 0.0:
                return None
            continue
        ua, ub = a / k, b / k
        if ua > ub:
            ua, ub = ub, ua
        if ua > t0:
            t0 = ua
        if ub < t1:
            t1 = ub
        if t0 > t1:
            return None
    return t0


def max_penetration(motion: Motion, u: float, obs: Sequence[Convex]) -> float:
    """Deepest overlap of the body at ``u`` with any of ``obs`` (negative if clear of all)."""
    kin = motion.at(u)
    x, y = kin[0], kin[1]
    rho = motion.rho
    best = -math.inf
    for ob in obs:
        if isinstance(ob, Outline):  # compiled: its fields without a look-up
            ox, oy = ob.centre
            rr = rho + ob.radius
        else:
            ox, oy = ob.centre
            rr = rho + ob.radius
        if math.pow(ox - x, 2.0) + math.pow(oy - y, 2.0) > rr * rr:
            continue
        d = sat(motion.hl, motion.hw, kin, ob)
        if d > best:
            best = d
    return best


def last_clear(motion: Motion, u: float, obs: Sequence[Convex]) -> float:
    """The largest u' <= u at which the body overlaps none of ``obs`` (touching allowed),
    backing up along the motion; 0 if even the start overlaps."""
    pen = max_penetration(motion, u, obs)
    while pen > OVERLAP_EPS:
        if u <= 0.0:
            return 0.0
        # Overlap depth is the minimum translation to separate, so it cannot clear faster
        # than the body moves: stepping back by it never skips the first clear point.
        un = max(u - max(pen, MIN_STEP), 0.0)
        pn = max_penetration(motion, un, obs)
        if pn <= OVERLAP_EPS:
            lo, hi = un, u
            while hi - lo > RESOLUTION:
                mid = (lo + hi) / 2.0
                if max_penetration(motion, mid, obs) <= OVERLAP_EPS:
                    lo = mid
                else:
                    hi = mid
            return lo
        u, pen = un, pn
    return u
