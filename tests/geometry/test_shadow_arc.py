"""Ranges of 360° facings judged at once (``allround.shadow_arc`` for rulers,
``allround.burst_shadow_arc`` for bursts).

The search passes over the facings that a range shown blocked proves cannot improve its
answer; these tests check that the ranges are sound (the exact judgement at facings
inside never does better than they claim) and that the search gives the very same
answers, headings and placements with and without them, on crowded random shots and the
seeded golden scenes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.geometry.allround_scenes import scenes
from tests.geometry.test_cover_360 import frame_box

from carnage.geometry.allround import (
    CLEAR,
    TOUCHING,
    UNBLOCKED,
    Found,
    Obstacle,
    RulerFacing,
    burst_shadow_arc,
    half_width,
    search,
    shadow_arc,
)
from carnage.geometry.arcs import (
    REACH_TOL,
    _reach_search,
    turret_critical_angles,
    turret_reach_facing,
    turret_span,
)
from carnage.geometry.convex import area
from carnage.geometry.cover import Blocker, _burst_cap, _burst_judge, _grown
from carnage.geometry.ranges import ShootingTemplate, shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, closest_points, penetration

CAR = Rect(Pose(0, 0, 0), 60, 30)
LONG = shooting_template("long")
MEDIUM = shooting_template("medium")


def crowded(rng: random.Random) -> tuple[Rect, list[Point], list[Blocker]]:
    """A shot among 18 bodies within 250 mm, a third of them Tall (as in the benchmark)."""
    while True:
        shooter = Rect(Pose(0, 0, rng.uniform(0, 360)), 60, 30)
        bearing = math.radians(rng.uniform(0, 360))
        dist = rng.uniform(60, 220)
        target = Rect(Pose(dist * math.cos(bearing), dist * math.sin(bearing),
                           rng.uniform(0, 360)), 60, 30)
        if penetration(target.polygon(), shooter.polygon()) <= -1.0:
            break
    blockers: list[Blocker] = []
    while len(blockers) < 18:
        r = Rect(Pose(rng.uniform(-250, 250), rng.uniform(-250, 250), rng.uniform(0, 360)),
                 rng.uniform(20, 80), rng.uniform(20, 50))
        if all(penetration(r.polygon(), b.polygon()) < -1.0 for b in (shooter, target)):
            blockers.append(Blocker(f"b{len(blockers)}", tuple(r.polygon()),
                                    tall=len(blockers) % 3 == 0))
    return shooter, list(target.polygon()), blockers


def ruler_search(body: Rect, target: list[Point], tpl: ShootingTemplate,
                 blockers: Sequence[Blocker], **how: bool) -> tuple[Found, Found] | None:
    """The two searches ``check_fire`` runs for a 360° ruler (the target as it is, then
    grown by the tolerance), set up the same way; None when out of reach. ``how``: the
    search's switches (``shadow``, ``lazy``)."""
    found = turret_reach_facing(body, target, tpl, REACH_TOL)
    if found is None:
        return None
    shooter = body.polygon()
    p, q, _ = closest_points(shooter, target)
    aim = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) if p != q else 0.0
    ruler = RulerFacing(body, tpl)
    obstacles = [Obstacle.of(b.polygon, b.tall) for b in blockers
                 if len(b.polygon) >= 3 and area(b.polygon) > 1e-9]
    crit = turret_critical_angles(body, tpl)
    first = search(ruler.judge, shooter, tpl, target, obstacles, [aim, found], crit,
                   REACH_TOL, ruler.judge, **how)
    second = search(ruler.judge, shooter, tpl, _grown(target), obstacles, [aim, found],
                    crit, REACH_TOL, ruler.judge, **how)
    return first, second


def same(a: Found, b: Found) -> bool:
    return (a.level, a.heading, a.placement) == (b.level, b.heading, b.placement)


def matched(fast: list[Found] | None, full: list[Found] | None) -> int | None:
    """Assert two searches of one shot found the same (facings, placements, levels): None
    when neither found anything, else how many facings the first passed over in ranges."""
    assert (fast is None) == (full is None)
    if fast is None or full is None:
        return None
    assert len(fast) == len(full)
    for a, b in zip(fast, full, strict=True):
        assert same(a, b)
    return sum(a.shadowed for a in fast)


def test_a_wall_before_the_target_shadows_a_wide_range_of_facings() -> None:
    # A Tall wall 200 mm wide lies across the way, 40 mm before the target: every ruler
    # facing near the bearing that touches the target meets it first.
    target = list(frame_box(0.0, 130, 160, -15, 15))
    wall = Obstacle.of(frame_box(0.0, 80, 90, -100, 100), True)
    got = shadow_arc(CAR.polygon(), target, [wall], LONG.near_half, LONG.length, 0.0, True)
    assert got is not None
    lo, hi = got
    assert lo < -10.0 and hi > 10.0
    # and the exact judgement agrees at every whole degree inside
    judge = RulerFacing(CAR, LONG)
    for k in range(math.ceil(lo), math.floor(hi) + 1):
        level, _ = judge.judge(float(k), target, [(wall.polygon, True)], CLEAR)
        assert level <= TOUCHING, k


def test_a_gap_wider_than_the_ruler_is_not_shadowed_and_a_narrower_one_is() -> None:
    target = list(frame_box(0.0, 130, 160, -15, 15))
    half = MEDIUM.near_half

    def walls(gap: float) -> list[Obstacle]:
        return [Obstacle.of(frame_box(0.0, 80, 90, gap / 2.0, 100), True),
                Obstacle.of(frame_box(0.0, 80, 90, -100, -gap / 2.0), True)]

    body = CAR.polygon()
    wide = walls(2.0 * half + 0.5)
    assert shadow_arc(body, target, wide, half, MEDIUM.length, 0.0, True) is None
    level, _ = RulerFacing(CAR, MEDIUM).judge(0.0, target, [(w.polygon, True) for w in wide],
                                              CLEAR)
    assert level == CLEAR
    narrow = walls(2.0 * half - 0.5)
    assert shadow_arc(body, target, narrow, half, MEDIUM.length, 0.0, True) is not None
    # a low wall shadows only for the question "anything at all in the way"
    low = [Obstacle.of(w.polygon, False) for w in narrow]
    assert shadow_arc(body, target, low, half, MEDIUM.length, 0.0, True) is None
    assert shadow_arc(body, target, low, half, MEDIUM.length, 0.0, False) is not None


def test_shadowed_ranges_never_hide_a_better_facing() -> None:
    # Wherever a range is shown, the exact judgement at random facings inside it (and at
    # its ends) never reaches the level the range rules out.
    rng = random.Random(7)
    shown = 0
    for _ in range(120):
        body, target, blockers = crowded(rng)
        tpl = shooting_template(rng.choice(["short", "medium", "long", "double"]))
        judge = RulerFacing(body, tpl)
        obs = [Obstacle.of(b.polygon, b.tall) for b in blockers]
        tgt = Obstacle.of(target, False).polygon
        exact = [(o.polygon, o.tall) for o in obs]
        for _ in range(6):
            theta = rng.uniform(0, 360)
            tall_only = rng.random() < 0.5
            got = shadow_arc(body.polygon(), tgt, obs, tpl.near_half, tpl.length, theta,
                             tall_only)
            if got is None:
                continue
            shown += 1
            lo, hi = got
            assert lo <= theta <= hi
            for th in (lo, hi, *(rng.uniform(lo, hi) for _ in range(5))):
                level, _ = judge.judge(th, tgt, exact, CLEAR)
                assert level <= (TOUCHING if tall_only else UNBLOCKED), (theta, th)
    assert shown > 100


def test_the_search_gives_the_same_answers_with_and_without_ranges_on_crowded_shots() -> None:
    rng = random.Random(2026)
    passed_over = 0
    for _ in range(150):
        body, target, blockers = crowded(rng)
        tpl = shooting_template(rng.choice(["short", "medium", "long", "double"]))
        shadowed = matched(ruler_search(body, target, tpl, blockers, shadow=True),
                           ruler_search(body, target, tpl, blockers, shadow=False))
        passed_over += shadowed or 0
    assert passed_over > 50


def test_the_search_gives_the_same_answers_with_and_without_ranges_on_golden_scenes() -> None:
    checked = 0
    for body, target, tpl_name, blockers in scenes()[:300]:
        tpl = shooting_template(tpl_name)
        if tpl.is_burst:
            continue
        if matched(ruler_search(body, target, tpl, blockers, shadow=True),
                   ruler_search(body, target, tpl, blockers, shadow=False)) is not None:
            checked += 1
    assert checked > 100


def test_out_of_reach_at_once_only_where_the_search_finds_nothing() -> None:
    # Targets just beyond a ruler's span (hypot(L, 2a)) used to need the whole reach
    # search; they are answered at once now, and the search agrees wherever that is so.
    rng = random.Random(3)
    early = 0
    for _ in range(400):
        tpl = shooting_template(rng.choice(["short", "medium", "long", "small_burst"]))
        body = Rect(Pose(0, 0, rng.uniform(0, 360)), 60, 30)
        bearing = math.radians(rng.uniform(0, 360))
        dist = rng.uniform(tpl.length, tpl.near_half + tpl.reach + 50.0)
        target = list(Rect(Pose(dist * math.cos(bearing), dist * math.sin(bearing),
                                rng.uniform(0, 360)), 40, 20).polygon())
        _, _, gap = closest_points(body.polygon(), target)
        if gap <= tpl.length + 1e-6:
            continue
        searched = _reach_search(body, target, tpl, REACH_TOL, gap)
        if gap > turret_span(tpl) + REACH_TOL + 1e-6:
            early += 1
            assert searched is None
            assert turret_reach_facing(body, target, tpl) is None
        else:
            assert turret_reach_facing(body, target, tpl) == searched
    assert early > 40


def test_a_ruler_reaches_almost_its_span() -> None:
    # The span is not loose by much: a long ruler laid against the car's corner reaches
    # a target placed just inside hypot(L, 2a) from the corner, found by the search.
    tpl = LONG
    span = turret_span(tpl)
    body = CAR.polygon()
    corner = max(body, key=lambda p: (p[0], p[1]))
    reached = 0
    for k in range(36):
        ang = math.radians(10.0 * k)
        tip = (corner[0] + (span - 2.0) * math.cos(ang), corner[1] + (span - 2.0) * math.sin(ang))
        target = list(Rect(Pose(tip[0] + 5.0 * math.cos(ang), tip[1] + 5.0 * math.sin(ang),
                                math.degrees(ang)), 10, 10).polygon())
        _, _, gap = closest_points(body, target)
        if gap > span - 2.5 and turret_reach_facing(CAR, target, tpl) is not None:
            reached += 1
    assert reached > 0


def burst_search(body: Rect, target: list[Point], tpl: ShootingTemplate,
                 blockers: list[Blocker], shadow: bool, capped: bool = False
                 ) -> list[Found] | None:
    """The searches ``check_fire`` runs for a 360° burst (the target as it is, then grown
    by the tolerance when it is not reached), set up the same way, with ranges of facings
    (``shadow``) and the burst cap (``capped``) or without; None when out of reach."""
    found = turret_reach_facing(body, target, tpl, REACH_TOL)
    if found is None:
        return None
    shooter = body.polygon()
    p, q, _ = closest_points(shooter, target)
    aim = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) if p != q else 0.0
    cap = _burst_cap(body, tpl) if capped else None
    judge = _burst_judge(body, tpl, cap)
    obstacles = [Obstacle.of(b.polygon, b.tall) for b in blockers
                 if len(b.polygon) >= 3 and area(b.polygon) > 1e-9]
    crit = turret_critical_angles(body, tpl)
    out = [search(judge, shooter, tpl, target, obstacles, [aim, found], crit, REACH_TOL,
                  shadow=shadow, cap=cap)]
    if out[0].level == 0:
        out.append(search(judge, shooter, tpl, _grown(target), obstacles, [aim, found],
                          crit, REACH_TOL, shadow=shadow, cap=cap))
    return out


def test_a_teardrop_is_as_wide_as_its_outline_at_every_depth() -> None:
    tpl = shooting_template("large_burst")
    r = max(y for _, y in tpl.polygon)
    wedge = math.tan(math.radians(tpl.tip_half_angle))
    assert half_width(tpl.polygon, 0.0) == 0.0
    assert half_width(tpl.polygon, 50.0) == pytest.approx(50.0 * wedge)
    assert half_width(tpl.polygon, tpl.length - r) == pytest.approx(r, abs=0.1)
    assert half_width(tpl.polygon, tpl.length + 1.0) == 0.0
    assert half_width(tpl.polygon, -1.0) == 0.0


def test_a_wall_before_the_target_shadows_a_burst_and_a_gap_wider_than_it_does_not() -> None:
    tpl = shooting_template("large_burst")
    target = list(frame_box(0.0, 110, 140, -15, 15))
    judge = _burst_judge(CAR, tpl)
    wall = [Obstacle.of(frame_box(0.0, 70, 80, -100, 100), True)]
    got = burst_shadow_arc(CAR.polygon(), target, wall, tpl.polygon, tpl.length, 0.0, True)
    assert got is not None and got[0] < -10.0 and got[1] > 10.0
    for k in range(math.ceil(got[0]), math.floor(got[1]) + 1):
        level, _ = judge(float(k), target, [(wall[0].polygon, True)], CLEAR)
        assert level <= TOUCHING, k
    # a gap 10 mm wide, 40 mm past the car's front: the teardrop there is wider than the
    # gap (but a line of sight would pass), so it is still shadowed
    slot = [Obstacle.of(frame_box(0.0, 70, 80, 5, 100), True),
            Obstacle.of(frame_box(0.0, 70, 80, -100, -5), True)]
    assert half_width(tpl.polygon, 70.0 - 30.0) > 10.0
    got = burst_shadow_arc(CAR.polygon(), target, slot, tpl.polygon, tpl.length, 0.0, True)
    assert got is not None
    level, _ = judge(0.0, target, [(o.polygon, True) for o in slot], CLEAR)
    assert level == TOUCHING
    # a gap wider than the teardrop at that depth: a burst gets through, nothing shown
    wide = [Obstacle.of(frame_box(0.0, 70, 80, 40, 100), True),
            Obstacle.of(frame_box(0.0, 70, 80, -100, -40), True)]
    assert burst_shadow_arc(CAR.polygon(), target, wide, tpl.polygon, tpl.length, 0.0,
                            True) is None
    level, _ = judge(0.0, target, [(o.polygon, True) for o in wide], CLEAR)
    assert level == CLEAR
    # a low wall shadows for cover only
    low = [Obstacle.of(frame_box(0.0, 70, 80, -100, 100), False)]
    assert burst_shadow_arc(CAR.polygon(), target, low, tpl.polygon, tpl.length, 0.0,
                            True) is None
    assert burst_shadow_arc(CAR.polygon(), target, low, tpl.polygon, tpl.length, 0.0,
                            False) is not None


def test_a_slot_just_narrower_than_the_teardrop_is_shadowed_and_one_just_wider_is_not() -> None:
    # The car's front is at 30 mm, the walls from 70 to 80 mm: 40 to 50 mm from a tip on
    # the front, where the teardrop's half-width grows from ~12.8 to ~16 mm. A slot of
    # half-width 12 stops every burst; one of 17 lets the burst straight ahead through.
    tpl = shooting_template("large_burst")
    target = list(frame_box(0.0, 110, 140, -15, 15))
    judge = _burst_judge(CAR, tpl)
    assert 12.0 < half_width(tpl.polygon, 40.0) < half_width(tpl.polygon, 50.0) < 17.0

    def slot(half: float) -> list[Obstacle]:
        return [Obstacle.of(frame_box(0.0, 70, 80, half, 100), True),
                Obstacle.of(frame_box(0.0, 70, 80, -100, -half), True)]

    narrow = slot(12.0)
    got = burst_shadow_arc(CAR.polygon(), target, narrow, tpl.polygon, tpl.length, 0.0, True)
    assert got is not None
    for th in (got[0], 0.0, got[1]):
        level, _ = judge(th, target, [(o.polygon, True) for o in narrow], CLEAR)
        assert level == TOUCHING
    wide = slot(17.0)
    assert burst_shadow_arc(CAR.polygon(), target, wide, tpl.polygon, tpl.length, 0.0,
                            True) is None
    level, _ = judge(0.0, target, [(o.polygon, True) for o in wide], CLEAR)
    assert level == CLEAR


def test_shadowed_burst_ranges_never_hide_a_better_facing() -> None:
    rng = random.Random(11)
    shown = 0
    for _ in range(100):
        body, target, blockers = crowded(rng)
        tpl = shooting_template(rng.choice(["small_burst", "large_burst"]))
        judge = _burst_judge(body, tpl)
        obs = [Obstacle.of(b.polygon, b.tall) for b in blockers]
        tgt = Obstacle.of(target, False).polygon
        exact = [(o.polygon, o.tall) for o in obs]
        for _ in range(6):
            theta = rng.uniform(0, 360)
            tall_only = rng.random() < 0.5
            got = burst_shadow_arc(body.polygon(), tgt, obs, tpl.polygon, tpl.length, theta,
                                   tall_only)
            if got is None:
                continue
            shown += 1
            lo, hi = got
            assert lo <= theta <= hi
            for th in (lo, hi, *(rng.uniform(lo, hi) for _ in range(3))):
                level, _ = judge(th, tgt, exact, CLEAR)
                assert level <= (TOUCHING if tall_only else UNBLOCKED), (theta, th)
    assert shown > 50


def test_the_burst_search_gives_the_same_answers_with_and_without_ranges() -> None:
    # The benchmark's kind of crowded shot, then the golden scenes' bursts (slots a
    # little wider or narrower than the teardrop among them).
    rng = random.Random(2027)
    passed_over = 0
    checked = 0
    shots = [(*crowded(rng), shooting_template(rng.choice(["small_burst", "large_burst"])))
             for _ in range(50)]
    shots += [(body, target, blockers, shooting_template(name))
              for body, target, name, blockers in scenes()[:300]
              if name in ("small_burst", "large_burst")]
    for body, target, blockers, tpl in shots:
        shadowed = matched(burst_search(body, target, tpl, blockers, shadow=True),
                           burst_search(body, target, tpl, blockers, shadow=False))
        if shadowed is not None:
            passed_over += shadowed
            checked += 1
    assert checked > 80
    assert passed_over > 50


def walled_slot(tpl: ShootingTemplate, phi: float, near: float, depth: float, centre: float,
                aside: float, play: float) -> tuple[list[Point], list[tuple[list[Point], bool]]]:
    """A target beyond two walls across the way at bearing ``phi`` (one Tall, one low) that
    leave a slot ``play`` mm wider than the teardrop where it leaves them; the walls as
    (outline, Tall)."""
    far = near + depth + 20.0
    target = list(frame_box(phi, far, far + 30.0, aside - 15.0, aside + 15.0))
    gap = 2.0 * half_width(tpl.polygon, near + depth - 30.0) + play
    return target, [(frame_box(phi, near, near + depth, centre + gap / 2.0, 120.0), True),
                    (frame_box(phi, near, near + depth, -120.0, centre - gap / 2.0), False)]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["small_burst", "large_burst"]), st.floats(0.0, 360.0),
       st.floats(45.0, 80.0), st.floats(2.0, 10.0), st.floats(-5.0, 5.0),
       st.floats(-4.0, 4.0), st.floats(-20.0, 20.0), st.booleans())
def test_burst_ranges_hold_at_facings_inside_them_on_walled_slots(
        name: str, phi: float, near: float, depth: float, centre: float, turn: float,
        aside: float, tall_only: bool) -> None:
    # Two walls across the way (one Tall, one low) leave a slot about as wide as the
    # teardrop where it leaves them; wherever a range is shown, the exact judgement
    # inside it agrees.
    tpl = shooting_template(name)
    target, boxes = walled_slot(tpl, phi, near, depth, centre, aside, turn)
    walls = [Obstacle.of(box, tall) for box, tall in boxes]
    judge = _burst_judge(CAR, tpl)
    exact = [(o.polygon, o.tall) for o in walls]
    got = burst_shadow_arc(CAR.polygon(), target, walls, tpl.polygon, tpl.length, phi,
                           tall_only)
    if got is None:
        return
    lo, hi = got
    assert lo <= phi <= hi
    for th in (lo, (lo + phi) / 2.0, phi, (phi + hi) / 2.0, hi):
        level, _ = judge(th, target, exact, CLEAR)
        assert level <= (TOUCHING if tall_only else UNBLOCKED), th
