"""The 360° reach search measures the critical facings one by one and stops at the first that
touches: the facing it answers is the one the measure-them-all search answered. The fixed
arcs' swept families are remembered for the last few shooters: the same answers."""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence

import pytest

from carnage.geometry.arcs import (
    REACH_TOL,
    TOUCH,
    Arc,
    _angle,
    _fixed_hulls,
    can_reach,
    fixed_families,
    turret_critical_angles,
    turret_families,
    turret_reach_facing,
)
from carnage.geometry.ranges import ShootingTemplate, shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, closest_points, distance, overlaps


def plain_reach_facing(body: Rect, target: Sequence[Point], tpl: ShootingTemplate,
                       tol: float = REACH_TOL) -> float | None:
    """The search as it was written first: every critical facing measured, then scanned."""
    p, q, gap = closest_points(body.polygon(), target)
    if gap <= tpl.length + TOUCH:
        return _angle((q[0] - p[0], q[1] - p[1])) % 360.0 if gap > TOUCH else 0.0
    k = tpl.near_half + tpl.reach
    if gap > k + TOUCH:
        return None
    kr = k * math.pi / 180.0
    crit = turret_critical_angles(body, tpl)

    def g(theta: float) -> float:
        return min(distance(f.swept(tpl), target) for f in turret_families(body, tpl, theta))

    values = [g(c) for c in crit]
    for c, v in zip(crit, values, strict=True):
        if v <= TOUCH:
            return c
    heap: list[tuple[float, float, float, float, float]] = []
    m = len(crit)
    for i in range(m):
        lo, hi = crit[i], crit[(i + 1) % m]
        if hi <= lo:
            hi += 360.0
        heapq.heappush(heap, ((values[i] + values[(i + 1) % m] - kr * (hi - lo)) / 2.0, lo, hi,
                              values[i], values[(i + 1) % m]))
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
        heapq.heappush(heap, ((glo + gm - kr * (mid - lo)) / 2.0, lo, mid, glo, gm))
        heapq.heappush(heap, ((gm + ghi - kr * (hi - mid)) / 2.0, mid, hi, gm, ghi))
    return None


@pytest.mark.parametrize("tid", ["short", "medium", "small_burst", "large_burst"])
def test_turret_reach_facing_is_the_measure_them_all_answer(tid: str) -> None:
    tpl = shooting_template(tid)
    rng = random.Random(tid)
    body = Rect(Pose(0.0, 0.0, 30.0), 100.0, 40.0)
    answered = missed = 0
    for _ in range(150):
        # targets around the edge of the template's reach, where the search has work to do
        r = rng.uniform(tpl.length * 0.8, tpl.near_half + tpl.reach + 120.0)
        a = rng.uniform(0.0, 2 * math.pi)
        target = Rect(Pose(r * math.cos(a), r * math.sin(a), rng.uniform(0, 360)),
                      rng.uniform(20, 120), rng.uniform(20, 60)).polygon()
        got = turret_reach_facing(body, target, tpl)
        assert got == plain_reach_facing(body, target, tpl)
        answered += got is not None
        missed += got is None
    assert answered > 10 and missed > 10


def test_fixed_arc_reach_from_remembered_hulls_is_the_plain_test() -> None:
    rng = random.Random(5)
    tpls = [shooting_template(t) for t in ("short", "double", "small_burst")]
    for _ in range(40):
        body = Rect(Pose(rng.uniform(-50, 50), rng.uniform(-50, 50), rng.uniform(0, 360)),
                    rng.uniform(40, 120), rng.uniform(20, 50))
        for _ in range(8):  # one shooter asked about several targets, as in play
            target = Rect(Pose(rng.uniform(-400, 400), rng.uniform(-400, 400),
                               rng.uniform(0, 360)), 90, 40).polygon()
            for arc in (Arc.FRONT, Arc.REAR, Arc.LEFT, Arc.RIGHT, Arc.SIDE):
                for tpl in tpls:
                    plain = any(overlaps(f.swept(tpl), target, TOUCH)
                                for f in fixed_families(body, arc, tpl))
                    assert can_reach(body, target, arc, tpl) is plain
        # the shooter moved a hair: its own hulls, not the remembered ones
        moved = Rect(Pose(body.pose.x + 1e-9, body.pose.y, body.pose.heading), body.length,
                     body.width)
        assert _fixed_hulls(moved, Arc.FRONT, tpls[0]) == tuple(
            f.swept(tpls[0]) for f in fixed_families(moved, Arc.FRONT, tpls[0]))
