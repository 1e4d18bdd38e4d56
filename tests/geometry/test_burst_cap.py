"""A burst facing shown without clipping to hold no clear (unblocked) placement
(``cover._burst_cap``), the search using it (``allround.search(cap=...)``) and the
judgement asking it itself (``cover._burst_judge(body, tpl, cap)``).

The cap is a proof: wherever it holds, the exact judgement (``cover._burst_judge``, the
per-family solver) finds nothing better, and the judgement asked only up to the level it
leaves gives the very level and placement the full judgement gives. These tests check
both on crowded random shots at random, critical and nearly critical facings, on walled
slots about as wide as the teardrop (hypothesis), and that the search gives the very
same answers, headings and placements with the cap as the full search without it.
"""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.geometry.allround_scenes import scenes
from tests.geometry.test_cover_360 import frame_box
from tests.geometry.test_shadow_arc import CAR, burst_search, crowded, matched, walled_slot

from carnage.geometry.allround import (
    CLEAR,
    TOUCHING,
    UNBLOCKED,
    Obstacle,
)
from carnage.geometry.arcs import turret_critical_angles
from carnage.geometry.convex import area
from carnage.geometry.cover import (
    CAP_INSET,
    _burst_cap,
    _burst_judge,
    _inset,
)
from carnage.geometry.ranges import ShootingTemplate, shooting_template
from carnage.geometry.shapes import Point, Rect

BURSTS = ("small_burst", "large_burst")


def agrees(body: Rect, tpl: ShootingTemplate, target: list[Point],
           obs: list[tuple[tuple[Point, ...], bool]], theta: float) -> tuple[int, int]:
    """Checks the cap at ``theta`` against the full judgement; returns how often it held
    (all obstructions, Tall ones)."""
    cap = _burst_cap(body, tpl)
    judge = _burst_judge(body, tpl)
    level, placed = judge(theta, target, obs, CLEAR)
    # the judgement asking the cap itself once a middle placement is not clear
    assert _burst_judge(body, tpl, _burst_cap(body, tpl))(theta, target, obs, CLEAR) == \
        (level, placed), theta
    held = [0, 0]
    for tall_only in (False, True):
        if not cap(theta, target, obs, tall_only):
            continue
        held[tall_only] += 1
        ceiling = TOUCHING if tall_only else UNBLOCKED
        assert level <= ceiling, (theta, tall_only, level)
        # judged only up to the level the cap leaves: the same level and placement
        assert judge(theta, target, obs, ceiling) == (level, placed), (theta, tall_only)
    return held[0], held[1]


def test_the_cap_never_shows_a_facing_the_judgement_finds_better() -> None:
    # Random facings near the bearing, the critical facings (where families appear or
    # vanish) and turns of a millionth of a degree either side of them.
    rng = random.Random(41)
    held = [0, 0]
    judged = 0
    for _ in range(40):
        body, target, blockers = crowded(rng)
        tpl = shooting_template(rng.choice(BURSTS))
        obs = [(b.polygon, b.tall) for b in blockers]
        cx = sum(x for x, _ in target) / len(target)
        cy = sum(y for _, y in target) / len(target)
        aim = math.degrees(math.atan2(cy, cx))
        crit = turret_critical_angles(body, tpl)
        facings = [aim + rng.uniform(-50.0, 50.0) for _ in range(8)]
        facings += [c + e for c in rng.sample(crit, 3) for e in (-1e-6, 0.0, 1e-6)]
        for theta in facings:
            a, b = agrees(body, tpl, target, obs, theta)
            held[0] += a
            held[1] += b
            judged += 1
    assert judged == 40 * 17
    assert held[0] > 150 and held[1] > 100  # it shows a good share, not only trivia


def test_a_wall_before_the_target_is_shown_and_a_slot_wider_than_the_teardrop_is_not() -> None:
    tpl = shooting_template("large_burst")
    cap = _burst_cap(CAR, tpl)
    target = list(frame_box(0.0, 110, 140, -15, 15))
    wall = [(frame_box(0.0, 70, 80, -100, 100), True)]
    assert cap(0.0, target, wall, False) and cap(0.0, target, wall, True)
    low = [(frame_box(0.0, 70, 80, -100, 100), False)]
    assert cap(0.0, target, low, False) and not cap(0.0, target, low, True)
    # the slot of test_shadow_arc: a half-width of 12 mm stops every burst, 17 does not
    for half, shown in ((12.0, True), (17.0, False)):
        slot = [(frame_box(0.0, 70, 80, half, 100), True),
                (frame_box(0.0, 70, 80, -100, -half), True)]
        assert cap(0.0, target, slot, True) is shown
        agrees(CAR, tpl, target, slot, 0.0)
    # beside the target's nearest point nothing is shown (the cap does not claim it)
    beside = [(frame_box(0.0, 115, 135, -100, -16), True),
              (frame_box(0.0, 115, 135, 16, 100), True)]
    assert not cap(0.0, target, beside, True)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(BURSTS), st.floats(0.0, 360.0), st.floats(35.0, 80.0),
       st.floats(2.0, 10.0), st.floats(-5.0, 5.0), st.floats(-0.5, 0.5),
       st.floats(-20.0, 20.0), st.floats(-3.0, 3.0))
def test_the_cap_holds_on_slots_about_as_wide_as_the_teardrop(
        name: str, phi: float, near: float, depth: float, centre: float, play: float,
        aside: float, turn: float) -> None:
    # Two walls (one Tall, one low) leave a slot within half a millimetre of the
    # teardrop's width where it leaves them: tips at the edge of fitting through.
    tpl = shooting_template(name)
    target, walls = walled_slot(tpl, phi, near, depth, centre, aside, play)
    agrees(CAR, tpl, target, walls, phi + turn)
    agrees(CAR, tpl, target, walls, phi)


def test_an_inset_outline_lies_inside_by_its_margin() -> None:
    rng = random.Random(5)
    for _ in range(200):
        body = Obstacle.of(frame_box(rng.uniform(0, 360), rng.uniform(-50, 50),
                                     rng.uniform(51, 120), rng.uniform(-50, 0),
                                     rng.uniform(0.1, 50)), False).polygon
        inner = _inset(body, CAP_INSET)
        assert inner is not None and area(inner) > 0.0
        n = len(body)
        for x, y in inner:
            for i in range(n):
                (x1, y1), (x2, y2) = body[i], body[(i + 1) % n]
                ln = math.hypot(x2 - x1, y2 - y1)
                # inside, at least half the margin from every edge
                assert ((x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)) / ln >= CAP_INSET / 2.0
    # too thin to move its edges in: left out
    assert _inset(((0.0, 0.0), (10.0, 0.0), (10.0, 0.005), (0.0, 0.005)), CAP_INSET) is None


def test_the_burst_search_gives_the_same_answers_with_the_cap_as_judging_every_facing() -> None:
    rng = random.Random(8)
    shots = [(*crowded(rng), shooting_template(rng.choice(BURSTS))) for _ in range(60)]
    shots += [(body, target, blockers, shooting_template(name))
              for body, target, name, blockers in scenes()[:300] if name in BURSTS]
    checked = passed_over = 0
    for body, target, blockers, tpl in shots:
        shadowed = matched(burst_search(body, target, tpl, blockers, True, capped=True),
                           burst_search(body, target, tpl, blockers, False))
        if shadowed is not None:
            passed_over += shadowed
            checked += 1
    assert checked > 90
    assert passed_over > 60
