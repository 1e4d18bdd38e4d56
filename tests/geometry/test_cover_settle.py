"""The family solver that strikes out parameters obstruction by obstruction gives the same
in range / cover / Tall answers as the direct solve over every obstruction's distance
function, on seeded random crowded scenes (every arc, rulers and bursts)."""

from __future__ import annotations

import functools
import math
import random

import pytest

from carnage.geometry import cover
from carnage.geometry.arcs import Arc
from carnage.geometry.cover import Blocker, FireCheck, check_fire, clear_memo
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, penetration

Scene = tuple[Rect, list[Point], Arc, str, list[Blocker]]


def scenes(n: int, seed: int) -> list[Scene]:
    """A car, a target up to about Long range away, 14 bodies within 200 mm of the shooter
    (a half or a third of them Tall)."""
    rng = random.Random(seed)
    out: list[Scene] = []
    while len(out) < n:
        shooter = Rect(Pose(0, 0, rng.uniform(0, 360)), 60, 30)
        bearing = math.radians(rng.uniform(0, 360))
        dist = rng.uniform(50, 200)
        target = Rect(Pose(dist * math.cos(bearing), dist * math.sin(bearing),
                           rng.uniform(0, 360)), 60, 30)
        if penetration(target.polygon(), shooter.polygon()) > -1.0:
            continue
        blockers: list[Blocker] = []
        while len(blockers) < 14:
            r = Rect(Pose(rng.uniform(-200, 200), rng.uniform(-200, 200), rng.uniform(0, 360)),
                     rng.uniform(15, 70), rng.uniform(10, 40))
            if all(penetration(r.polygon(), b.polygon()) < -1.0 for b in (shooter, target)):
                blockers.append(Blocker(f"b{len(blockers)}", tuple(r.polygon()),
                                        tall=len(blockers) % (2 + len(out) % 2) == 0))
        arc = rng.choice([Arc.TURRET, Arc.TURRET, Arc.TURRET, Arc.FRONT, Arc.SIDE, Arc.REAR])
        tpl = rng.choice(["short", "medium", "long", "small_burst", "large_burst"])
        out.append((shooter, target.polygon(), arc, tpl, blockers))
    return out


def answer(fc: FireCheck) -> tuple[bool, bool, bool]:
    return fc.in_range, fc.cover, fc.blocked


def test_same_answers_as_the_direct_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = [c for seed in (1, 2, 3) for c in scenes(70, seed)]
    clear_memo()
    new = [answer(check_fire(s, t, a, shooting_template(k), b)) for s, t, a, k, b in cases]
    monkeypatch.setattr(cover, "_solve_family",
                        functools.partial(cover._solve_family, direct=True))
    clear_memo()
    old = [answer(check_fire(s, t, a, shooting_template(k), b)) for s, t, a, k, b in cases]
    clear_memo()
    assert new == old
    # the scenes exercise every answer: clear, in cover, blocked, out of range
    assert {(True, False, False), (True, True, False), (True, True, True),
            (False, False, False)} <= set(new)
