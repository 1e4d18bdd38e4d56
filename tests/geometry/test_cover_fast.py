"""The burst solver's inner steps made cheaper give the very same numbers.

``cover._clip_by`` (the teardrop clipped by a body's edges) now decides each plane in one
pass, and ``cover._overlap_deeper`` (is a body in a family's reach at all) works out the
reach's spans only when first needed. Both are compared here with the way they were done
before (kept below as oracles) on inputs of the solver's own kind, bit for bit, and the
whole burst check is compared with the old clipping on crowded random shots.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence

import pytest
from tests.geometry.test_shadow_arc import crowded

from carnage.geometry import cover
from carnage.geometry.arcs import Arc, turret_families
from carnage.geometry.convex import TOL as CLIP_TOL
from carnage.geometry.convex import sweep_hull
from carnage.geometry.cover import (
    Blocker,
    _clip_by,
    _overlap_deeper,
    _planes_of,
    check_fire,
    clear_memo,
)
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, _axes, _project

BURSTS = [shooting_template("large_burst"), shooting_template("small_burst")]


def clip_two_pass(poly: Sequence[Point], planes: Sequence[tuple[float, float, float]]
                  ) -> list[Point]:
    """``_clip_by`` as it was: a first pass over each plane's values keeping or dropping
    the whole outline at once, then the clip."""
    out = list(poly)
    for nx, ny, c in planes:
        vals = [nx * x + ny * y - c for x, y in out]
        if not vals or max(vals) <= CLIP_TOL:
            continue
        if min(vals) > CLIP_TOL:
            return []
        n = len(out)
        nxt: list[Point] = []
        for i in range(n):
            dp = vals[i]
            j = i + 1 if i + 1 < n else 0
            dq = vals[j]
            if dp <= CLIP_TOL:
                nxt.append(out[i])
            if (dp < -CLIP_TOL and dq > CLIP_TOL) or (dp > CLIP_TOL and dq < -CLIP_TOL):
                (px, py), (qx, qy) = out[i], out[j]
                t = dp / (dp - dq)
                nxt.append((px + t * (qx - px), py + t * (qy - py)))
        out = nxt
        if not out:
            break
    return out


def overlap_all_axes(a: Sequence[Point], b: Sequence[Point], depth: float) -> bool:
    """``_overlap_deeper`` as it was: ``a``'s spans all worked out first, its axes first."""
    a_axes = [(ax, *_project(a, ax)) for ax in _axes(a)]
    for axis, alo, ahi in a_axes:
        blo, bhi = _project(b, axis)
        if min(ahi - blo, bhi - alo) <= depth:
            return False
    for axis in _axes(b):
        alo, ahi = _project(a, axis)
        blo, bhi = _project(b, axis)
        if min(ahi - blo, bhi - alo) <= depth:
            return False
    return True


def teardrops(rng: random.Random, n: int) -> list[tuple[list[Point], list[Point]]]:
    """``n`` (outline at offset zero, outline swept along its family) of bursts placed
    round a car at random facings, as the solver clips and sweeps them."""
    out = []
    while len(out) < n:
        car = Rect(Pose(rng.uniform(-50, 50), rng.uniform(-50, 50), rng.uniform(0, 360)),
                   60, 30)
        tpl = rng.choice(BURSTS)
        for fam in turret_families(car, tpl, rng.uniform(0, 360)):
            shape = fam.shape(tpl)
            out.append((shape, sweep_hull(shape, fam.start, fam.end)))
    return out


def body(rng: random.Random, near: Point, spread: float, big: bool = False
         ) -> tuple[Point, ...]:
    """A body about ``spread`` from ``near``; ``big``: one that may hold a whole teardrop."""
    size = 800.0 if big else 1.0
    r = Rect(Pose(near[0] + rng.uniform(-spread, spread), near[1] + rng.uniform(-spread, spread),
                  rng.uniform(0, 360)), size * rng.uniform(5, 80), size * rng.uniform(5, 50))
    return tuple(r.polygon())


def test_clipping_in_one_pass_gives_the_very_points_of_two() -> None:
    rng = random.Random(7)
    cases = 0
    kinds = {"empty": 0, "whole": 0, "cut": 0}
    for shape, _ in teardrops(rng, 400):
        for _ in range(6):
            ox, oy = rng.uniform(-60, 60), rng.uniform(-60, 60)
            big = rng.random() < 0.2
            b = body(rng, (ox + shape[len(shape) // 2][0], oy + shape[len(shape) // 2][1]),
                     rng.choice([5.0, 60.0, 200.0]), big)
            planes = [(nx, ny, c - nx * ox - ny * oy) for nx, ny, c in _planes_of(b)]
            got, want = _clip_by(shape, _planes_of(b), ox, oy), clip_two_pass(shape, planes)
            assert got == want
            cases += 1
            kinds["empty" if not want else "whole" if len(want) == len(shape) else "cut"] += 1
    # the planes also come edge-on and through corners: on a corner, along an edge
    for shape, _ in teardrops(rng, 100):
        n = len(shape)
        i = rng.randrange(n)
        (x1, y1), (x2, y2) = shape[i], shape[(i + 1) % n]
        ln = math.hypot(x2 - x1, y2 - y1)
        nx, ny = (y2 - y1) / ln, -(x2 - x1) / ln
        c = nx * x1 + ny * y1
        for sign, shift in ((1.0, 0.0), (-1.0, 0.0), (1.0, 5e-8), (-1.0, -5e-8), (1.0, 3.0)):
            planes = [(sign * nx, sign * ny, sign * c + shift)]
            assert _clip_by(shape, planes) == clip_two_pass(shape, planes)
        assert _clip_by([], [(1.0, 0.0, 0.0)]) == clip_two_pass([], [(1.0, 0.0, 0.0)]) == []
    assert cases == 2400
    assert min(kinds.values()) > 100, kinds


def test_spans_worked_out_when_needed_give_the_same_overlaps() -> None:
    rng = random.Random(11)
    seen = {True: 0, False: 0}
    for _, reach in teardrops(rng, 300):
        axes = _axes(reach)
        spans: list[tuple[float, float] | None] = [None] * len(axes)
        cx = sum(x for x, _ in reach) / len(reach)
        cy = sum(y for _, y in reach) / len(reach)
        for _ in range(8):
            b = body(rng, (cx, cy), rng.choice([30.0, 120.0, 250.0]))
            want = overlap_all_axes(reach, b, 1e-9)
            assert _overlap_deeper(reach, axes, spans, b, 1e-9) is want
            seen[want] += 1
    assert min(seen.values()) > 200, seen


@pytest.mark.parametrize("seed", range(3))
def test_burst_checks_on_crowded_shots_are_the_same_with_the_old_clipping(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end: every answer, placement and facing of a burst in the 360° arc among 18
    bodies is the same with the two-pass clipping (plain Python; a compiled build calls
    its own ``_clip_by`` and compares it with itself)."""
    rng = random.Random(300 + seed)
    shots: list[tuple[Rect, list[Point], list[Blocker]]] = [crowded(rng) for _ in range(15)]
    new = []
    for shooter, target, blockers in shots:
        clear_memo()
        new.append(check_fire(shooter, target, Arc.TURRET, BURSTS[0], blockers))
    def old_clip(poly: Sequence[Point], planes: Sequence[tuple[float, float, float]],
                 ox: float = 0.0, oy: float = 0.0) -> list[Point]:
        return clip_two_pass(poly, [(nx, ny, c - nx * ox - ny * oy) for nx, ny, c in planes])

    monkeypatch.setattr(cover, "_clip_by", old_clip)
    for (shooter, target, blockers), got in zip(shots, new, strict=True):
        clear_memo()
        assert check_fire(shooter, target, Arc.TURRET, BURSTS[0], blockers) == got
    assert any(fc.cover for fc in new) and any(fc.in_range and not fc.cover for fc in new)


OLD_DIGEST = "8e7ee3080f7a73ade60b8d76405a33c49800d40e118f8d82885a9dc58cd79bcd"
"""SHA-256 of the answers (``repr`` of each ``FireCheck``: in range, cover, blocked,
placement, facing) below, as the solver gave them before these changes (main at
5f8e7ab, plain Python): the oracle for the steps that cannot be swapped in from here
(the ends of a family judged obstruction by obstruction, stopping once settled)."""


def test_burst_checks_on_crowded_shots_are_those_of_the_solver_before() -> None:
    rng = random.Random(2026)
    h = hashlib.sha256()
    answers = []
    for i in range(120):
        shooter, target, blockers = crowded(rng)
        tpl = BURSTS[0] if i % 3 else BURSTS[1]
        clear_memo()
        fc = check_fire(shooter, target, Arc.TURRET, tpl, blockers)
        answers.append(fc)
        h.update(repr(fc).encode())
    assert sum(fc.cover for fc in answers) == 11
    assert sum(fc.in_range and not fc.cover for fc in answers) > 11
    assert h.hexdigest() == OLD_DIGEST
