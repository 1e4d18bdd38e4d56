"""The 360° cover search gives the same answers as the version it replaced, on 600 seeded
scenes (``allround_scenes``: spread and crowded tables, narrow slots, every ruler and
burst; answers recorded from the earlier search in ``data/allround_golden.json``), and
every placement it offers is what it claims."""

from __future__ import annotations

import json
import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.geometry.allround_scenes import GOLDEN, scenes
from tests.geometry.test_cover_360 import clear_along

from carnage.geometry.allround import CLEAR, Obstacle, RulerFacing, pivot_relaxation
from carnage.geometry.arcs import Arc, _rotated
from carnage.geometry.convex import convex_hull
from carnage.geometry.cover import _msum, check_fire, clear_memo
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Pose, Rect, closest_points, distance


def test_answers_match_the_recorded_ones_and_placements_hold() -> None:
    golden = json.loads(GOLDEN.read_text())["answers"]
    cases = scenes()
    assert len(golden) == len(cases) == 600
    clear_memo()
    kinds = set()
    for k, ((shooter, target, tpl, blockers), want) in enumerate(zip(cases, golden,
                                                                     strict=True)):
        fc = check_fire(shooter, target, Arc.TURRET, shooting_template(tpl), blockers)
        got = [int(fc.in_range), int(fc.cover), int(fc.blocked)]
        assert got == want, (k, tpl)
        kinds.add(tuple(got))
        if not fc.in_range:
            continue
        assert fc.placement is not None and fc.heading is not None
        assert distance(list(fc.placement), target) <= 0.2
        assert distance(list(fc.placement), shooter.polygon()) <= 1e-6
        if not fc.cover:
            assert clear_along(fc.placement, fc.heading, target, blockers), k
        if not fc.blocked:
            assert clear_along(fc.placement, fc.heading, target,
                               [b for b in blockers if b.tall]), k
    # every kind of answer is among them
    assert kinds == {(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)}


@settings(max_examples=200, deadline=None)
@given(st.floats(-300, 300), st.floats(-300, 300), st.floats(0, 360), st.floats(1, 90),
       st.floats(1, 50), st.sampled_from(["small_burst", "large_burst", "long"]),
       st.one_of(st.floats(0, 360), st.sampled_from([0.0, 45.0, 90.0, 180.0])))
def test_touch_region_from_meeting_normal_cones_is_the_full_hull(
    x: float, y: float, spin: float, length: float, width: float, tpl: str, facing: float
) -> None:
    # Only corner sums whose normal cones meet are hulled: the same outline as the hull
    # of every corner sum, also with edges parallel between the two.
    target = Rect(Pose(x, y, spin), length, width).polygon()
    shape = list(_rotated(shooting_template(tpl).polygon, facing))
    full = convex_hull([(p[0] - q[0], p[1] - q[1]) for p in target for q in shape])
    assert _msum(target, shape) == full


def test_the_pivot_bound_is_never_below_an_exact_level_inside_its_interval() -> None:
    # The relaxed rulers judged at an interval's middle do at least as well as the real
    # rulers at any facing inside it, on the seeded scenes' ruler shots.
    rng = random.Random(5)
    checked = raised = 0
    for shooter, target, tpl_name, blockers in scenes()[:300]:
        tpl = shooting_template(tpl_name)
        if tpl.is_burst:
            continue
        judge = RulerFacing(shooter, tpl)
        body = shooter.polygon()
        obs = [(b.polygon, b.tall) for b in blockers]
        prepared = [Obstacle.of(b.polygon, b.tall) for b in blockers]
        rho_t = min(tpl.reach, max(math.dist(p, q) for p in body for q in target)
                    + tpl.near_half)
        p, q, _ = closest_points(body, target)
        aim = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
        for _ in range(3):
            mid = aim + rng.uniform(-25, 25)
            h = rng.choice([0.05, 0.3, 1.0, 4.0])
            grown, relaxed, params = pivot_relaxation(body, tpl.near_half, rho_t,
                                                      Obstacle.of(target, False),
                                                      prepared, mid, h)
            bound, _ = judge.judge(mid, grown, relaxed, CLEAR, params)
            for _ in range(5):
                theta = mid + rng.uniform(-h, h)
                level, _ = judge.judge(theta, target, obs, CLEAR)
                assert bound >= level, (mid, h, theta)
                checked += level > 0
                raised += bound > level
    assert checked > 500 and raised > 0
