"""Shortcuts of the 360° search that must change no answer: a burst searched in passes
(a clear placement first, passing over facings shown to have none, then an unblocked
one, then any), the facings outside which no placement comes near the target
(``allround.touch_arc``), the bounding circle deciding
which obstructions a range of facings can leave out (``allround._beyond``), the burst
cap remembering what depends on the facing alone, and burst intervals too wide for the
box bound's judgement (``allround.BOUND_JUDGED_WITHIN``).
The passes are also checked on shots where their ceilings decide the answer (a first
pass must go on past unblocked facings, a second past touching ones).

Each is checked against what it stands in for: the passes against the search judging
every facing in full on crowded shots of each kind, the arc against the exact judgement at
facings just outside it, ``_beyond`` against the cut it saves
(``_slab`` of the framed outline is empty wherever it says so), the remembering cap
against a new cap asked once per facing, and the search with all of them against the
search judging every facing in full (``test_burst_cap``, ``test_shadow_arc``)."""

from __future__ import annotations

import math
import random

from tests.geometry.test_cover_360 import frame_box
from tests.geometry.test_shadow_arc import CAR, burst_search, crowded, matched

from carnage.geometry.allround import (
    CLEAR,
    SHADOW_CLIP,
    Obstacle,
    RulerFacing,
    _beyond,
    _Facings,
    _in_the_way,
    _slab,
    touch_arc,
)
from carnage.geometry.cover import Blocker, _burst_cap, _burst_judge
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, closest_points


def _random_obstacle(rng: random.Random) -> Obstacle:
    r = Rect(Pose(rng.uniform(-300, 300), rng.uniform(-300, 300), rng.uniform(0, 360)),
             rng.uniform(1, 80), rng.uniform(1, 50))
    return Obstacle.of(r.polygon(), rng.random() < 0.3)


def scatter(rng: random.Random, blockers: list[Blocker]) -> None:
    """Up to three more boxes, turned any way and Tall or not, scattered ahead (the same
    draws from ``rng`` whoever calls it)."""
    for k in range(rng.randint(0, 3)):
        x, y = rng.uniform(35, 150), rng.uniform(-80, 80)
        blockers.append(Blocker(f"o{k}", frame_box(rng.uniform(0, 90), x,
                                                   x + rng.uniform(3, 20), y,
                                                   y + rng.uniform(3, 20)),
                                rng.random() < 0.5))


def test_the_circle_leaves_out_only_outlines_with_nothing_in_the_stretch() -> None:
    # Every outline the circle test leaves out has an empty part between the two depths,
    # also with the stretch's ends through, just beside or just past a corner.
    rng = random.Random(5)
    left_out = kept_empty = 0
    for _ in range(4000):
        b = _random_obstacle(rng)
        target = Rect(Pose(rng.uniform(-50, 50), rng.uniform(-50, 50), 0), 60, 30).polygon()
        f = _Facings(rng.uniform(0.0, 360.0), target)
        us = [u for u, _ in f.frame(b.polygon)]
        lo = rng.choice([rng.uniform(-400, 400), min(us), max(us), max(us) + 1e-9,
                         max(us) + rng.uniform(0.0, 1e-5)])
        hi = lo + rng.choice([rng.uniform(0, 300), SHADOW_CLIP, 0.0])
        if rng.random() < 0.3:
            hi = min(us) - rng.choice([0.0, 1e-9, rng.uniform(0.0, 1e-5)])
            lo = hi - rng.uniform(0, 300)
        empty = not _slab(f.frame(b.polygon), lo, hi)
        if _beyond(f, b, lo, hi):
            left_out += 1
            assert empty, (lo, hi, us)
        elif empty:
            kept_empty += 1
    assert left_out > 300  # it leaves out a good share, not only trivia
    assert kept_empty > 0  # and is a sufficient test only, near the ends


def test_the_cap_remembering_the_turned_teardrop_answers_as_a_new_one() -> None:
    # One cap asked again and again (the same facings with other targets and
    # obstructions, as the search and the judgement ask it) answers as a cap built anew
    # for each question.
    rng = random.Random(17)
    asked = shown = 0
    for _ in range(12):
        body, target, blockers = crowded(rng)
        tpl = shooting_template(rng.choice(("small_burst", "large_burst")))
        obs = [(b.polygon, b.tall) for b in blockers]
        cx = sum(x for x, _ in target) / len(target)
        cy = sum(y for _, y in target) / len(target)
        aim = math.degrees(math.atan2(cy, cx))
        facings = [aim + rng.uniform(-40.0, 40.0) for _ in range(6)]
        grown: list[Point] = [(x * 1.02, y * 1.02) for x, y in target]
        fewer = obs[: len(obs) // 2]
        cap = _burst_cap(body, tpl)
        for theta in facings * 2 + facings[::-1]:
            for tgt, some in ((target, obs), (grown, fewer), (target, fewer)):
                for tall_only in (False, True):
                    got = cap(theta, tgt, some, tall_only)
                    assert got == _burst_cap(body, tpl)(theta, tgt, some, tall_only)
                    asked += 1
                    shown += got
    assert asked == 12 * 18 * 6 and shown > 100


def test_no_placement_touches_the_target_at_facings_outside_its_arc() -> None:
    # Facings a hair to a few degrees outside either end of the arc, and anywhere
    # outside it: the exact judgement finds no placement touching the target there, for
    # bursts and rulers, on shots from touching distance to beyond reach.
    rng = random.Random(23)
    judged = inside = 0
    for k in range(60):
        name = ("small_burst", "large_burst", "long", "medium", "short", "double")[k % 6]
        tpl = shooting_template(name)
        body = Rect(Pose(0, 0, rng.uniform(0, 360)), 60, 30)
        bearing = rng.uniform(0.0, 2.0 * math.pi)
        dist = rng.uniform(35.0, 120.0) if k % 2 else rng.uniform(120.0, 250.0)
        target = list(Rect(Pose(dist * math.cos(bearing), dist * math.sin(bearing),
                                rng.uniform(0, 360)), rng.uniform(5, 60),
                           rng.uniform(5, 30)).polygon())
        arc = touch_arc(body.polygon(), target, tpl)
        if arc is None:
            continue
        lo, hi = arc
        judge = _burst_judge(body, tpl) if tpl.is_burst else RulerFacing(body, tpl).judge
        facings = [hi + e for e in (1e-7, 1e-3, 0.1, 1.0, 5.0)]
        facings += [lo - e for e in (1e-7, 1e-3, 0.1, 1.0, 5.0)]
        facings += [hi + rng.uniform(0.0, 360.0 - (hi - lo)) for _ in range(6)]
        for theta in facings:
            assert judge(theta, target, [], 3)[0] == 0, (k, name, theta, arc)
            judged += 1
        # and it is not empty: some facing inside touches
        inside += any(judge(lo + (hi - lo) * j / 40.0, target, [], 3)[0] > 0
                      for j in range(41))
    assert judged > 600 and inside > 15


def test_a_burst_searched_in_passes_finds_what_judging_every_facing_finds() -> None:
    # A wall (Tall or low) across the line between the closest points, sometimes a Tall
    # body beside the target, a few others: where the first seed has no clear
    # placement the search passes over every facing shown no better than a floor
    # first. Its answers, facings and placements are those of the search judging every
    # facing, for shots ending clear elsewhere, unblocked and blocked.
    rng = random.Random(2)
    kinds: dict[tuple[int, int], int] = {}
    for _ in range(120):
        tpl = shooting_template(rng.choice(("small_burst", "large_burst")))
        near = rng.uniform(60, 110)
        target = list(frame_box(0.0, near, near + rng.uniform(10, 40), -rng.uniform(5, 20),
                                rng.uniform(5, 20)))
        x0, lo, hi = rng.uniform(35, near - 8), rng.uniform(-60, 0), rng.uniform(-5, 40)
        wall = frame_box(0.0, x0, x0 + rng.uniform(3, 8), lo, hi)
        blockers = [Blocker("wall", wall, rng.random() < 0.7)]
        if rng.random() < 0.5:
            y = rng.uniform(-25, 5)
            blockers = [Blocker("wall", wall, False),
                        Blocker("beside", frame_box(0.0, near + rng.uniform(0.5, 5),
                                                    near + rng.uniform(6, 30), y,
                                                    y + rng.uniform(5, 30)), True)]
        scatter(rng, blockers)
        fast = burst_search(CAR, target, tpl, blockers, True, capped=True)
        matched(fast, burst_search(CAR, target, tpl, blockers, False))
        if fast is None:
            continue
        p, q, _ = closest_points(CAR.polygon(), target)
        aim = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
        first, _ = _burst_judge(CAR, tpl)(aim, target, [(b.polygon, b.tall)
                                                         for b in blockers], CLEAR)
        key = (first, fast[-1].level)
        kinds[key] = kinds.get(key, 0) + 1
    # clear elsewhere after a Tall wall or a low one at the first seed, unblocked
    # elsewhere or there, blocked
    for key in ((1, 3), (2, 3), (2, 2), (1, 1)):
        assert kinds.get(key, 0) >= 3, kinds


def test_the_guess_that_the_first_seed_is_covered_sees_the_line_between_the_closest_points(
) -> None:
    # Only the work done depends on it; it says what it claims: an outline across the
    # segment between the closest points (either way round), not one beside it.
    shooter = CAR.polygon()
    target = [(110.0, 0.0), (140.0, -20.0), (170.0, 0.0), (140.0, 20.0)]  # a corner nearest
    across = frame_box(0.0, 70, 80, -5, 5)
    beside = frame_box(0.0, 70, 80, 6, 30)
    assert _in_the_way(shooter, target, [(across, False)])
    assert _in_the_way(shooter, target, [(tuple(reversed(across)), True)])
    assert not _in_the_way(shooter, target, [(beside, False)])
    assert _in_the_way(shooter, target, [(beside, False), (across, True)])


def _around_a_tall_wall(rng: random.Random) -> tuple[list[Point], list[Blocker]]:
    """A Tall wall across the line between the closest points, low bodies on one side of
    it (unblocked facings) and a way round on the other (clear ones): the first pass,
    from a floor of touching, meets unblocked facings before the clear one it must find."""
    near = rng.uniform(70, 110)
    target = list(frame_box(0.0, near, near + rng.uniform(10, 40), -rng.uniform(5, 20),
                            rng.uniform(5, 20)))
    x0, w, side = rng.uniform(35, near - 15), rng.uniform(4, 25), rng.choice((-1.0, 1.0))
    blockers = [Blocker("wall", frame_box(0.0, x0, x0 + rng.uniform(3, 8), -w, w), True)]
    for k in range(rng.randint(1, 3)):
        y0 = w + rng.uniform(0, 10)
        y1 = y0 + rng.uniform(10, 60)
        x = rng.uniform(30, near - 5)
        lo, hi = (y0, y1) if side > 0 else (-y1, -y0)
        blockers.append(Blocker(f"low{k}", frame_box(0.0, x, x + rng.uniform(3, 10), lo, hi),
                                False))
    return target, blockers


def _behind_a_low_wall(rng: random.Random) -> tuple[list[Point], list[Blocker]]:
    """A low wall across every way (nothing clear anywhere) and, before the target's
    nearest corner, a Tall sliver too thin for the cap's inset: the first seed is only
    touching while the cap does not show it (the floor is unblocked), and unblocked
    facings lie elsewhere, so the second pass must go on past touching ones."""
    near = rng.uniform(70, 100)
    r = rng.uniform(12, 30)
    target = [(near, 0.0), (near + r, -r * rng.uniform(0.6, 1.2)), (near + 2 * r, 0.0),
              (near + r, r * rng.uniform(0.6, 1.2))]
    x0 = rng.uniform(35, near - 20)
    fx = near - rng.uniform(0.5, 8)
    blockers = [Blocker("wall", frame_box(0.0, x0, x0 + rng.uniform(3, 8), -150, 150), False),
                Blocker("sliver", frame_box(0.0, fx, fx + 0.012, -rng.uniform(1, 30),
                                            rng.uniform(1, 30)), True)]
    for k in range(rng.randint(1, 2)):
        y0, y1 = rng.uniform(0, r), rng.uniform(r, 2 * r)
        lo, hi = (y0, y1) if rng.random() < 0.5 else (-y1, -y0)
        x = near + rng.uniform(0.5, r)
        blockers.append(Blocker(f"beside{k}", frame_box(0.0, x, x + rng.uniform(2, 10), lo,
                                                        hi), True))
    return target, blockers


def test_each_pass_searches_up_to_its_own_ceiling() -> None:
    # Shots where the passes' ceilings decide the answer: a first pass stopping at an
    # unblocked facing, or a second stopping at a touching one, answers less than the
    # search without passes (checked: each such wrong ceiling fails here). The shots
    # behind a low wall ending touching cost the search seconds (the sliver defeats the
    # bounds): a few ending unblocked.
    ends: dict[tuple[str, int], int] = {}
    for make, seed, shots in ((_around_a_tall_wall, 3, 40), (_behind_a_low_wall, 6, 3)):
        rng = random.Random(seed)
        for _ in range(shots):
            tpl = shooting_template(rng.choice(("small_burst", "large_burst")))
            target, blockers = make(rng)
            fast = burst_search(CAR, target, tpl, blockers, True, capped=True)
            matched(fast, burst_search(CAR, target, tpl, blockers, True))
            assert fast is not None
            key = (make.__name__, fast[-1].level)
            ends[key] = ends.get(key, 0) + 1
    assert ends.get(("_around_a_tall_wall", 3), 0) >= 8, ends
    assert ends.get(("_behind_a_low_wall", 2), 0) >= 2, ends
