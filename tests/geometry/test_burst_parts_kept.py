"""Burst parts kept once shown, and the cheaper closed form of the ranges.

``search``'s ``parts_capped`` keeps each part the cap shows no better than the best found
(the facings strictly inside its interval) with the ranges already shown, even when a
later part of the same interval is not shown; a later interval, part, seed or middle
facing lying in them is passed over (``_covered``). Intervals up to
``PARTS_WIDE_WITHIN`` either side are also tried on their parts where their middle facing
is capped. All of it changes only the work: the search must find what the search judging
every facing in full finds. An unsound variant, parts kept 2° wider than shown, fails
here.

``_Facings.keep`` takes a fact holding at both ends of the range (with room, and wu > 0)
to hold all over it without taking roots: it must leave the very range the closed form
leaves. A variant without the wu > 0 condition (where the least can lie inside) fails
here.

The helpers made cheaper compiled (``half_width`` walking its edges from the corner
before, ``_extent``, the cap's ``_apart``) give the very floats of the code before."""

from __future__ import annotations

import math
import random

import pytest
from tests.geometry.test_search_culls import _around_a_tall_wall, scatter
from tests.geometry.test_shadow_arc import CAR, burst_search, crowded, matched

from carnage.geometry import allround
from carnage.geometry.allround import KEEP_ROOM, _covered, _extent, _Facings, half_width
from carnage.geometry.cover import CAP_EDGE, _apart
from carnage.geometry.ranges import shooting_template


def test_covered_walks_through_chained_ranges_modulo_360() -> None:
    arcs = [(10.0, 20.0), (19.0, 30.0), (350.0, 372.0)]
    assert _covered(10.0, 30.0, arcs)
    assert _covered(12.0, 12.0, arcs)
    assert not _covered(31.0, 32.0, arcs)  # in no range
    assert not _covered(25.0, 31.0, arcs)  # runs past the last
    assert _covered(355.0, 385.0, arcs)  # 372 is 12: on through the others to 25
    assert not _covered(355.0, 391.0, arcs)
    assert _covered(-5.0, 25.0, arcs)  # -5 is 355
    assert not _covered(30.0, 30.0, arcs)  # a range holds its start, not its end
    assert not _covered(5.0, 5.0, [])
    # a gap of a hair is a gap
    assert not _covered(10.0, 25.0, [(10.0, 20.0), (20.0 + 1e-12, 30.0)])


def _closed_form(lo: float, hi: float, wu: float, wv: float, k: float
                 ) -> tuple[bool, float, float]:
    """``_Facings.keep`` as first written: every fact by its roots."""
    r = math.hypot(wu, wv)
    if k < -r:
        return True, lo, hi
    if k >= r:
        return False, lo, hi
    phi = math.atan2(wv, wu)
    half = math.acos(k / r)
    if not phi - half < 0.0 < phi + half:
        return False, lo, hi
    lo, hi = max(lo, phi - half), min(hi, phi + half)
    return lo < hi, lo, hi


def _ends_only(lo: float, hi: float, wu: float, wv: float, k: float) -> bool | None:
    """A wrong shortcut: the fact taken to hold all over [lo, hi] when it holds at both
    ends with room, whatever the sign of wu (None: no shortcut taken)."""
    room = KEEP_ROOM * (abs(wu) + abs(wv) + abs(k))
    if wu * math.cos(lo) + wv * math.sin(lo) - k > room \
            and wu * math.cos(hi) + wv * math.sin(hi) - k > room:
        return lo < hi
    return None


def test_keep_leaves_the_range_the_closed_form_leaves() -> None:
    rng = random.Random(4)
    shortcut = wrong = 0
    for n in range(200_000):
        f = _Facings(rng.uniform(0.0, 360.0), [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])
        lo = -rng.uniform(0.0, math.pi / 4.0)
        hi = rng.uniform(0.0, math.pi / 4.0)
        if n % 3 == 0:  # a range met before: its ends' cosines remembered
            f.keep(1.0, 0.0, -10.0)
        f.lo, f.hi = lo, hi
        wu, wv = rng.uniform(-50.0, 50.0), rng.uniform(-50.0, 50.0)
        r = math.hypot(wu, wv)
        pick = n % 4
        if pick == 0:  # a root exactly at an end, or a hair inside or out
            end = rng.choice((lo, hi)) + rng.choice((0.0, 1e-12, -1e-12, 1e-7))
            k = wu * math.cos(end) + wv * math.sin(end)
        elif pick == 1:  # the least inside [lo, hi]: wu < 0 and wv about 0
            wu, wv = -abs(wu), rng.uniform(-1.0, 1.0)
            k = rng.uniform(-r, r)
        else:
            k = rng.uniform(-1.2 * r, 1.2 * r)
        want = _closed_form(lo, hi, wu, wv, k)
        got = f.keep(wu, wv, k)
        assert (got, f.lo, f.hi) == want, (n, lo, hi, wu, wv, k)
        if wu > 0.0 and want[1:] == (lo, hi) and want[0]:
            shortcut += 1
        quick = _ends_only(lo, hi, wu, wv, k)
        if quick is not None and (quick, lo, hi) != want:
            wrong += 1
    assert shortcut > 20_000, shortcut
    assert wrong > 100, wrong  # the shortcut without wu > 0 claims too much


def test_a_search_keeping_parts_finds_what_judging_every_facing_finds() -> None:
    # Crowded burst shots (as in the benchmark) on which kept parts and ranges were
    # passed over: the answer, its facing and placement are those of the search judging
    # every facing in full, ending in cover and clear.
    rng = random.Random(21)
    compared = reused = 0
    levels: set[int] = set()
    for _ in range(1500):
        body, target, blockers = crowded(rng)
        tpl = shooting_template(rng.choice(("small_burst", "large_burst")))
        fast = burst_search(body, target, tpl, blockers, True, capped=True)
        if fast is None or not any(f.reused for f in fast):
            continue
        matched(fast, burst_search(body, target, tpl, blockers, False))
        compared += 1
        reused += sum(f.reused for f in fast)
        levels.add(fast[-1].level)
        if compared >= 15:
            break
    assert compared >= 15 and reused >= 30, (compared, reused)
    assert len(levels) >= 2, levels


def test_parts_kept_wider_than_shown_change_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    # Bursts around a Tall wall across the line (low bodies on one side, a way round on
    # the other) compared as above, with every part kept 20° wider than the cap showed it:
    # some search then passes over the facing that does better, and answers differently.
    # (Kept as shown, these searches match: ``test_search_culls``.)
    monkeypatch.setattr(allround, "PART_KEPT_SLACK", -20.0)
    rng = random.Random(3)
    compared = 0
    for _ in range(150):
        tpl = shooting_template(rng.choice(("small_burst", "large_burst")))
        target, blockers = _around_a_tall_wall(rng)
        scatter(rng, blockers)
        fast = burst_search(CAR, target, tpl, blockers, True, capped=True)
        if fast is None or not any(f.parted for f in fast):
            continue
        compared += 1
        try:
            matched(fast, burst_search(CAR, target, tpl, blockers, False))
        except AssertionError:
            return
    raise AssertionError(f"parts kept too wide went unnoticed in {compared} searches")


def _half_width_by_index(shape: list[tuple[float, float]], depth: float) -> float:
    """``half_width`` as written before: each edge by its index."""
    top, bottom = -math.inf, math.inf
    n = len(shape)
    for i in range(n):
        x1, y1 = shape[i]
        x2, y2 = shape[(i + 1) % n]
        if (x1 - depth) * (x2 - depth) > 0.0:
            continue
        if x1 == x2:
            ya, yb = y1, y2
        else:
            ya = yb = y1 + (y2 - y1) * (depth - x1) / (x2 - x1)
        top, bottom = max(top, ya, yb), min(bottom, ya, yb)
    return max(0.0, min(top, -bottom))


def test_the_cheaper_helpers_give_the_same_floats() -> None:
    rng = random.Random(9)
    for name in ("small_burst", "large_burst"):
        shape = list(shooting_template(name).polygon)
        xs = sorted({x for x, _ in shape})
        depths = [rng.uniform(-5.0, 200.0) for _ in range(50_000)]
        depths += [x + e for x in xs for e in (0.0, 1e-12, -1e-12, 1e-9)]
        for d in depths:
            assert half_width(shape, d) == _half_width_by_index(shape, d), (name, d)
    for _ in range(20_000):
        pts = [(rng.uniform(-300, 300), rng.uniform(-300, 300))
               for _ in range(rng.randint(1, 9))]
        us, vs = [u for u, _ in pts], [v for _, v in pts]
        assert _extent(pts) == (min(us), max(us), min(vs), max(vs))
    near = 0
    for _ in range(200_000):
        p = (rng.uniform(-500, 500), rng.uniform(-500, 500))
        r = CAP_EDGE * rng.choice((rng.uniform(0.0, 3.0), 1.0, 1.0 + 1e-12, 1.0 - 1e-12))
        a = rng.uniform(0.0, 2.0 * math.pi)
        q = (p[0] + r * math.cos(a), p[1] + r * math.sin(a))
        if rng.random() < 0.1:  # along an axis: one coordinate alone
            q = (p[0] + r, p[1])
        want = math.dist(p, q) >= CAP_EDGE
        assert _apart(p, q) == want, (p, q)
        near += abs(math.dist(p, q) - CAP_EDGE) < 1e-9
    assert near > 1000, near
