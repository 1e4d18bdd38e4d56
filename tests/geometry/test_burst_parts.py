"""A burst interval shown no better than the best found by the cap on the box bound's
inputs of its parts (``allround.burst_parts``, used by ``search``'s box bound when the
cap does not show the whole interval): the parts must cover the interval, and the search
using them must find what the search judging every facing finds. An unsound variant
fails here: parts each a tenth narrower (or one left out) leave facings of the interval
in no part.

Also the guess that a burst's first seed is covered by a body beside the line between
the closest points, within the teardrop's width (``allround._in_the_teardrop``): it says
what it claims, and the searches it sends into passes find what judging every facing
finds."""

from __future__ import annotations

import random

from tests.geometry.test_cover_360 import frame_box
from tests.geometry.test_search_culls import scatter
from tests.geometry.test_shadow_arc import CAR, burst_search, crowded, matched

from carnage.geometry.allround import (
    PARTS_CAPPED_MOST,
    PARTS_CAPPED_WITHIN,
    PARTS_OVERLAP,
    _in_the_teardrop,
    _in_the_way,
    burst_parts,
)
from carnage.geometry.cover import Blocker
from carnage.geometry.ranges import shooting_template


def test_the_parts_cover_their_interval() -> None:
    # Every facing of the interval, its ends and the parts' meeting points included (and
    # a hair either side of them), lies within some part; no part is wider than allowed.
    rng = random.Random(31)
    cut = 0
    for k in range(3000):
        mid = rng.choice([rng.uniform(-400.0, 400.0), 0.0, 359.9999, 123.456789])
        h = rng.choice([rng.uniform(0.0, 9.0), PARTS_CAPPED_WITHIN,
                        PARTS_CAPPED_WITHIN * 2.0, PARTS_CAPPED_WITHIN * 2.0 + 1e-12,
                        PARTS_CAPPED_WITHIN * PARTS_CAPPED_MOST,
                        PARTS_CAPPED_WITHIN * PARTS_CAPPED_MOST + 1e-9])
        parts = burst_parts(mid, h)
        n = len(parts)
        if h <= PARTS_CAPPED_WITHIN or h > PARTS_CAPPED_WITHIN * PARTS_CAPPED_MOST:
            assert not parts, (mid, h)
            continue
        assert n in (2, 4, 8) and h / n <= PARTS_CAPPED_WITHIN, (mid, h, n)
        cut += 1
        lo, hi = mid - h, mid + h
        w = (hi - lo) / n
        facings = [lo, hi, mid, *(rng.uniform(lo, hi) for _ in range(20))]
        for j in range(1, n):
            edge = lo + j * w
            facings += [edge, edge - 1e-12, edge + 1e-12]
        for theta in facings:
            if not lo <= theta <= hi:
                continue
            assert any(abs(theta - m) <= hw for m, hw in parts), (k, mid, h, theta, parts)
        for _, hw in parts:
            assert hw <= PARTS_OVERLAP * PARTS_CAPPED_WITHIN
    assert cut > 1000


def test_a_search_using_the_parts_finds_what_judging_every_facing_finds() -> None:
    # Crowded burst shots (as in the benchmark) on which the cap showed some interval on
    # its parts: the answer, its facing and placement are those of the search judging
    # every facing in full, ending in cover and clear.
    rng = random.Random(8)
    compared = used = 0
    levels: set[int] = set()
    for _ in range(900):
        body, target, blockers = crowded(rng)
        tpl = shooting_template(rng.choice(("small_burst", "large_burst")))
        fast = burst_search(body, target, tpl, blockers, True, capped=True)
        if fast is None or not any(f.parted for f in fast):
            continue
        matched(fast, burst_search(body, target, tpl, blockers, False))
        compared += 1
        used += sum(f.parted for f in fast)
        levels.add(fast[-1].level)
        if compared >= 12:
            break
    assert compared >= 12 and used >= 20, (compared, used)
    assert len(levels) >= 2, levels


def test_the_teardrop_guess_sees_bodies_beside_the_line_within_its_width() -> None:
    # The car's front at x = 30, the target's nearest corner at (110, 0): the Large
    # Burst's teardrop facing it is 12.8 mm wide each side 40 mm from its tip.
    shooter = CAR.polygon()
    target = [(110.0, 0.0), (140.0, -20.0), (170.0, 0.0), (140.0, 20.0)]
    shape = shooting_template("large_burst").polygon
    beside = frame_box(0.0, 65, 75, 6, 30)  # off the line, within the width
    wide = frame_box(0.0, 65, 75, 20, 40)  # beyond the width there
    behind = frame_box(0.0, 112, 120, 6, 30)  # beside, but past the target's nearest
    assert not _in_the_way(shooter, target, [(beside, False)])
    assert _in_the_teardrop(shooter, target, shape, 0.0, [(beside, False)])
    assert _in_the_teardrop(shooter, target, shape, 0.0, [(tuple(reversed(beside)), True)])
    assert not _in_the_teardrop(shooter, target, shape, 0.0, [(wide, False)])
    assert not _in_the_teardrop(shooter, target, shape, 0.0, [(behind, False)])
    assert _in_the_teardrop(shooter, target, shape, 0.0, [(wide, False), (beside, True)])


def test_searches_sent_into_passes_by_a_body_beside_the_line_find_what_judging_finds(
) -> None:
    # A body beside the line between the closest points, within the teardrop's width
    # (Tall or low), others about: the answers, facings and placements are those of the
    # search judging every facing, ending clear elsewhere, unblocked and blocked.
    rng = random.Random(12)
    ends: dict[int, int] = {}
    for _ in range(60):
        tpl = shooting_template(rng.choice(("small_burst", "large_burst")))
        near = rng.uniform(70, 110)
        target = list(frame_box(0.0, near, near + rng.uniform(10, 40), -rng.uniform(5, 20),
                                rng.uniform(5, 20)))
        x0 = rng.uniform(40, near - 10)
        side = rng.choice((-1.0, 1.0))
        y0 = rng.uniform(0.5, 6.0)
        y1 = y0 + rng.uniform(5, 40)
        lo, hi = (y0, y1) if side > 0 else (-y1, -y0)
        blockers = [Blocker("beside", frame_box(0.0, x0, x0 + rng.uniform(3, 10), lo, hi),
                            rng.random() < 0.5)]
        scatter(rng, blockers)
        fast = burst_search(CAR, target, tpl, blockers, True, capped=True)
        matched(fast, burst_search(CAR, target, tpl, blockers, False))
        if fast is not None:
            ends[fast[-1].level] = ends.get(fast[-1].level, 0) + 1
    assert ends.get(3, 0) >= 10 and ends.get(2, 0) + ends.get(1, 0) >= 3, ends
