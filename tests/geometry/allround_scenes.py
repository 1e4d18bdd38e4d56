"""Seeded scenes for checking the 360° cover search against answers recorded from an
earlier, independently written version of it (``data/allround_golden.json``).

Run as a script to write that file again (only ever from a version trusted to be right):

    .venv/bin/python tests/geometry/allround_scenes.py
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

from carnage.geometry.cover import Blocker
from carnage.geometry.shapes import Point, Pose, Rect, penetration

GOLDEN = Path(__file__).parent / "data" / "allround_golden.json"
TEMPLATES = ["short", "medium", "long", "double", "small_burst", "large_burst"]

Scene = tuple[Rect, list[Point], str, list[Blocker]]


def _frame_box(phi: float, u0: float, u1: float, v0: float, v1: float) -> tuple[Point, ...]:
    c, s = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    return tuple((u * c - v * s, u * s + v * c)
                 for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1)))


def _slot(rng: random.Random, shooter: Rect, tpl: str) -> tuple[list[Point], list[Blocker]]:
    """Two blocks across the way to the target, leaving a slot along a random facing a
    little wider or narrower than a ruler (a window of a fraction of a degree)."""
    phi = rng.uniform(0, 360)
    half = 12.7 + rng.uniform(-0.3, 0.6) / 2.0 if tpl not in ("small_burst", "large_burst") \
        else rng.uniform(5, 30)
    x0, y0 = shooter.pose.x, shooter.pose.y
    near, deep = rng.uniform(40, 70), rng.uniform(20, 100)

    def moved(poly: tuple[Point, ...]) -> tuple[Point, ...]:
        return tuple((x + x0, y + y0) for x, y in poly)

    walls = [Blocker("left", moved(_frame_box(phi, near, near + deep, half, half + 300)),
                     tall=rng.random() < 0.7),
             Blocker("right", moved(_frame_box(phi, near, near + deep, -half - 300, -half)),
                     tall=rng.random() < 0.7)]
    far = near + deep + rng.uniform(5, 40)
    off = rng.uniform(-30, 10)
    target = list(moved(_frame_box(phi, far, far + 30, off, off + 35)))
    return target, walls


def scenes(n: int = 600, seed: int = 20261201) -> list[Scene]:
    """``n`` shots in the 360° arc: spread and crowded tables (0 to 24 obstructions, a
    random share of them Tall), every ruler and burst, and narrow slots."""
    rng = random.Random(seed)
    out: list[Scene] = []
    while len(out) < n:
        shooter = Rect(Pose(rng.uniform(-50, 50), rng.uniform(-50, 50), rng.uniform(0, 360)),
                       rng.choice([60.0, 50.0, 80.0]), rng.choice([30.0, 25.0, 40.0]))
        tpl = rng.choice(TEMPLATES)
        kind = rng.random()
        if kind < 0.15:
            target, blockers = _slot(rng, shooter, tpl)
            if penetration(target, shooter.polygon()) > -1.0 or any(
                    penetration(list(b.polygon), shooter.polygon()) > -0.5 for b in blockers):
                continue
            out.append((shooter, target, tpl, blockers))
            continue
        bearing = math.radians(rng.uniform(0, 360))
        dist = rng.uniform(40, 230)
        tgt = Rect(Pose(shooter.pose.x + dist * math.cos(bearing),
                        shooter.pose.y + dist * math.sin(bearing), rng.uniform(0, 360)),
                   rng.choice([60.0, 40.0, 90.0]), rng.choice([30.0, 25.0, 40.0]))
        if penetration(tgt.polygon(), shooter.polygon()) > -1.0:
            continue
        crowded = kind < 0.75
        count = rng.randint(0, 24)
        tall_share = rng.choice([0.0, 0.33, 0.6, 1.0])
        blockers: list[Blocker] = []
        tries = 0
        while len(blockers) < count and tries < 400:
            tries += 1
            if crowded:  # mostly between the two
                f = rng.uniform(0.1, 1.0)
                x = shooter.pose.x + f * dist * math.cos(bearing) + rng.uniform(-60, 60)
                y = shooter.pose.y + f * dist * math.sin(bearing) + rng.uniform(-60, 60)
            else:
                x = shooter.pose.x + rng.uniform(-350, 350)
                y = shooter.pose.y + rng.uniform(-350, 350)
            r = Rect(Pose(x, y, rng.uniform(0, 360)), rng.uniform(5, 90), rng.uniform(5, 50))
            if all(penetration(r.polygon(), p) < -0.5 for p in (shooter.polygon(),
                                                                  tgt.polygon())):
                blockers.append(Blocker(f"b{len(blockers)}", tuple(r.polygon()),
                                        tall=rng.random() < tall_share))
        out.append((shooter, tgt.polygon(), tpl, blockers))
    return out


def answers() -> list[list[int]]:
    from carnage.geometry.arcs import Arc
    from carnage.geometry.cover import check_fire, clear_memo
    from carnage.geometry.ranges import shooting_template

    clear_memo()
    out = []
    for shooter, target, tpl, blockers in scenes():
        fc = check_fire(shooter, target, Arc.TURRET, shooting_template(tpl), blockers)
        out.append([int(fc.in_range), int(fc.cover), int(fc.blocked)])
    return out


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({"answers": answers()}, separators=(",", ":")) + "\n")
    print(f"wrote {GOLDEN}")
