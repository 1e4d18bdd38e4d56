"""A burst interval shown no better than the best found by the cap on the box bound's
inputs of its parts (``allround.burst_parts``, used by ``search``'s box bound when the
cap does not show the whole interval): the parts must cover the interval, and the search
using them must find what the search judging every facing finds.

An unsound variant fails here: parts each a tenth narrower (or one left out) leave
facings of the interval in no part."""

from __future__ import annotations

import random

from tests.geometry.test_shadow_arc import burst_search, crowded, matched

from carnage.geometry.allround import (
    PARTS_CAPPED_MOST,
    PARTS_CAPPED_WITHIN,
    PARTS_OVERLAP,
    burst_parts,
)
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
