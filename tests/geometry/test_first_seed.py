"""The 360° ruler search judges its first seed (the closest-point line) before its own set-up
(``search``'s ``early``): a clear first seed is the answer at once, with the heading,
placement and count of facings judged the walk gives; ``touch_arc`` and ``beyond_span``
are asked only after a first seed that is not clear. Beside it, cheaper pieces of the
same floats: the hull chains of one facing (``allround._chains``), the prepared outline of
a blocker remembered (``cover._obstacle``), the closest points handed to the reach search."""

from __future__ import annotations

import math
import random

from tests.geometry.test_ruler_walk import beyond_span_shots
from tests.geometry.test_shadow_arc import crowded
from tests.geometry.test_shadow_arc import ruler_search as searches

from carnage.geometry.allround import (
    CLEAR,
    Obstacle,
    RulerFacing,
    _chains,
    beyond_span,
    touch_arc,
)
from carnage.geometry.arcs import REACH_TOL, turret_reach_facing
from carnage.geometry.cover import Blocker, _obstacle
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, closest_points, heading_diff


def _aim(body: Rect, target: list[Point]) -> float:
    p, q, _ = closest_points(body.polygon(), target)
    return math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) if p != q else 0.0


def test_a_clear_first_seed_is_the_answer_the_walk_gives() -> None:
    rng = random.Random(31)
    at_once = covered = 0
    for _ in range(250):
        body, target, blockers = crowded(rng)
        tpl = shooting_template(rng.choice(["short", "medium", "long", "double"]))
        lazy = searches(body, target, tpl, blockers, lazy=True)
        eager = searches(body, target, tpl, blockers, lazy=False)
        assert (lazy is None) == (eager is None)
        if lazy is None or eager is None:
            continue
        for f, g in zip(lazy, eager, strict=True):
            assert (f.level, f.heading, f.placement) == (g.level, g.heading, g.placement)
        first = lazy[0]
        if first.level == CLEAR and first.heading == _aim(body, target) % 360.0:
            # answered at its first facing: one judgement, nothing shadowed
            assert (first.judged, first.shadowed) == (1, 0)
            at_once += 1
        elif first.level < CLEAR:
            covered += 1
    assert at_once >= 60 and covered >= 10


def test_a_touching_first_seed_lies_in_the_touch_arc_and_within_the_span() -> None:
    # what answering at once rests on: wherever a ruler at the first seed touches the
    # target, the seed is not outside ``touch_arc`` and the target not beyond the span
    rng = random.Random(8)
    shots = [(CAR, t, tpl) for CAR, t, tpl in beyond_span_shots()]
    for _ in range(300):
        body, target, _ = crowded(rng)
        shots.append((body, target,
                      shooting_template(rng.choice(["short", "medium", "long", "double"]))))
    touched = 0
    for body, target, tpl in shots:
        aim = _aim(body, target)
        level, _ = RulerFacing(body, tpl).judge(aim, target, [], CLEAR)
        if level == 0:
            continue
        touched += 1
        assert not beyond_span(body.polygon(), target, tpl)
        arc = touch_arc(body.polygon(), target, tpl)
        if arc is not None:
            lo, hi = arc
            assert (aim - lo) % 360.0 <= hi - lo or abs(heading_diff(aim, lo)) < 1e-9
    assert touched > 150


def _chains_as_before(pts: list[Point], a: float) -> tuple[tuple[list[float], list[float]],
                                                          tuple[list[float], list[float]]]:
    """The monotone chain on tuples, as first written."""
    pts = sorted(pts)
    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and (lower[-1][0] - lower[-2][0]) * (p[1] - lower[-2][1]) - \
                (lower[-1][1] - lower[-2][1]) * (p[0] - lower[-2][0]) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and (upper[-1][0] - upper[-2][0]) * (p[1] - upper[-2][1]) - \
                (upper[-1][1] - upper[-2][1]) * (p[0] - upper[-2][0]) <= 0:
            upper.pop()
        upper.append(p)
    upper.reverse()
    while len(lower) >= 2 and lower[-1][0] == lower[-2][0]:
        lower.pop()
    while len(upper) >= 2 and upper[0][0] == upper[1][0]:
        upper.pop(0)

    def swept(chain: list[Point], top: bool) -> tuple[list[float], list[float]]:
        us = [p[1] for p in chain]
        j = us.index(max(us) if top else min(us))
        vs = [p[0] - a for p in chain[:j + 1]] + [p[0] + a for p in chain[j:]]
        return vs, us[:j + 1] + us[j:]

    return swept(lower, False), swept(upper, True)


def test_the_chains_are_those_of_the_monotone_chain_on_tuples() -> None:
    rng = random.Random(5)
    ties = 0
    for _ in range(20000):
        k = rng.choice([3, 4, 4, 5, 8])
        kind = rng.random()
        if kind < 0.4:  # rotated rectangles, as the judgement frames bodies
            cx, cy = rng.uniform(-300, 300), rng.uniform(-300, 300)
            th = rng.uniform(0, 2 * math.pi)
            hl, hw = rng.uniform(0.01, 60), rng.uniform(0.01, 30)
            c, s = math.cos(th), math.sin(th)
            pts = [(cx + x * c - y * s, cy + x * s + y * c)
                   for x, y in ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw))]
        elif kind < 0.6:  # a grid: equal v, collinear points, repeated points
            pts = [(rng.choice([0.0, 1.0, 2.0]), rng.choice([0.0, 1.0, 2.0]))
                   for _ in range(k)]
            ties += 1
        else:
            pts = [(rng.uniform(-100, 100), rng.uniform(-100, 100)) for _ in range(k)]
        a = rng.choice([0.0, 5.0, rng.uniform(0.0, 20.0)])
        assert repr(_chains(list(pts), a)) == repr(_chains_as_before(list(pts), a)), pts
    assert ties > 1000


def test_a_blockers_prepared_outline_is_remembered_and_the_same() -> None:
    rng = random.Random(3)
    for _ in range(200):
        r = Rect(Pose(rng.uniform(-250, 250), rng.uniform(-250, 250), rng.uniform(0, 360)),
                 rng.uniform(20, 80), rng.uniform(20, 50))
        b = Blocker("b", tuple(r.polygon()), tall=rng.random() < 0.5)
        got = _obstacle(b)
        assert got == Obstacle.of(b.polygon, b.tall)
        assert _obstacle(b) is got
        # an equal blocker that is another object is prepared afresh (remembered by identity)
        again = Blocker("b", tuple(r.polygon()), tall=b.tall)
        assert _obstacle(again) == got


def test_the_reach_facing_with_the_closest_points_handed_in_is_the_same() -> None:
    rng = random.Random(21)
    found = 0
    for _ in range(300):
        body, target, _ = crowded(rng)
        target = [(x * 1.2, y * 1.2) for x, y in target]  # some beyond a ruler's length
        tpl = shooting_template(rng.choice(["short", "medium", "long", "large_burst"]))
        plain = turret_reach_facing(body, target, tpl, REACH_TOL)
        given = turret_reach_facing(body, target, tpl, REACH_TOL,
                                    closest_points(body.polygon(), target))
        assert plain == given
        found += plain is not None
    assert found > 50
