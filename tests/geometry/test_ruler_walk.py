"""The 360° ruler search's lazy walk (``search(lazy=True)``: intervals bounded only when a
part of them is about to be judged, the first facings near the aim judged at once) and its
answer at once for targets beyond the ruler's span (``allround.beyond_span``) give the very
answers, headings and placements of the search without them."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from tests.geometry.allround_scenes import scenes
from tests.geometry.test_shadow_arc import crowded
from tests.geometry.test_shadow_arc import ruler_search as searches

from carnage.geometry.allround import (
    CLEAR,
    SPAN_SLACK,
    Found,
    RulerFacing,
    beyond_span,
    search,
)
from carnage.geometry.arcs import (
    REACH_TOL,
    turret_critical_angles,
    turret_span,
)
from carnage.geometry.ranges import ShootingTemplate, shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, closest_points

CAR = Rect(Pose(0, 0, 0), 60, 30)


def answers(got: tuple[Found, Found] | None) -> list[tuple[object, ...]] | None:
    return None if got is None else [(f.level, f.heading, f.placement) for f in got]


def test_the_lazy_walk_gives_the_same_answers_on_crowded_shots() -> None:
    rng = random.Random(77)
    fewer = clear = 0
    for _ in range(300):
        body, target, blockers = crowded(rng)
        tpl = shooting_template(rng.choice(["short", "medium", "long", "double"]))
        lazy = searches(body, target, tpl, blockers, lazy=True)
        eager = searches(body, target, tpl, blockers, lazy=False)
        assert answers(lazy) == answers(eager)
        if lazy is None or eager is None:
            continue
        # shots where the walk had work to do, and the lazy one did less of it
        if sum(a.judged for a in lazy) < sum(b.judged for b in eager):
            fewer += 1
            clear += lazy[0].level == CLEAR
    assert fewer >= 10 and clear >= 5


def test_the_lazy_walk_gives_the_same_answers_on_golden_scenes() -> None:
    checked = 0
    for body, target, tpl_name, blockers in scenes()[:300]:
        tpl = shooting_template(tpl_name)
        if tpl.is_burst:
            continue
        got = searches(body, target, tpl, blockers, lazy=True)
        assert answers(got) == answers(searches(body, target, tpl, blockers, lazy=False))
        checked += got is not None
    assert checked > 100


def beyond_span_shots() -> list[tuple[Rect, list[Point], ShootingTemplate]]:
    """Small targets at about the span of a ruler from a corner of the car (out from the
    corner, so that it is the car's nearest point), 2 mm short of it to 0.3 mm beyond."""
    rng = random.Random(12)
    body = CAR.polygon()
    out = []
    for _ in range(200):
        tpl = shooting_template(rng.choice(["short", "medium", "long", "double"]))
        corner = body[rng.randrange(4)]
        out_from = math.atan2(math.copysign(1.0, corner[1]), math.copysign(1.0, corner[0]))
        ang = out_from + math.radians(rng.uniform(-44.0, 44.0))
        d = turret_span(tpl) + rng.uniform(-0.5, 0.5)
        tip = (corner[0] + d * math.cos(ang), corner[1] + d * math.sin(ang))
        side = 8.0
        target = list(Rect(Pose(tip[0] + side / 2 * math.cos(ang),
                                tip[1] + side / 2 * math.sin(ang), math.degrees(ang)),
                           side, side).polygon())
        out.append((CAR, target, tpl))
    return out


def check_answered_at_once(rule: Callable[[list[Point], list[Point], ShootingTemplate],
                                          bool]) -> int:
    """Assert that the full search (without ranges, nothing answered at once) finds no
    touching placement wherever ``rule`` holds; how many shots it held for."""
    held = 0
    for body, target, tpl in beyond_span_shots():
        if not rule(body.polygon(), target, tpl):
            continue
        held += 1
        ruler = RulerFacing(body, tpl)
        crit = turret_critical_angles(body, tpl)
        p, q, _ = closest_points(body.polygon(), target)
        aim = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
        full = search(ruler.judge, body.polygon(), tpl, target, [], [aim], crit, REACH_TOL,
                      ruler.judge, shadow=False)
        assert full.level == 0, (tpl.id, target)
    return held


def test_a_target_beyond_the_span_is_answered_at_once_only_where_nothing_touches() -> None:
    assert check_answered_at_once(beyond_span) > 40


def test_a_span_half_a_millimetre_too_short_would_answer_shots_a_ruler_touches() -> None:
    # the check above can fail: with the span taken 0.5 mm short some shots it would answer
    # at once are touched
    def short(shooter: list[Point], target: list[Point], tpl: ShootingTemplate) -> bool:
        _, _, gap = closest_points(shooter, target)
        return gap > turret_span(tpl) - 0.5 + SPAN_SLACK

    with pytest.raises(AssertionError):
        check_answered_at_once(short)


def test_the_searches_agree_on_targets_about_the_span() -> None:
    # with blockers about, the search answering at once and the one searching in full
    # (both searches ``check_fire`` runs, the target grown by the tolerance the second time)
    rng = random.Random(4)
    at_once = 0
    for body, target, tpl in beyond_span_shots():
        _, _, blockers = crowded(rng)
        fast = searches(body, target, tpl, blockers)
        assert answers(fast) == answers(searches(body, target, tpl, blockers, shadow=False))
        at_once += beyond_span(body.polygon(), target, tpl)
    assert at_once > 40
