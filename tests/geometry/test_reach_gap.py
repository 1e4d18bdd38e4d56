"""The 360° reach search measuring fewer families (``arcs.facing_gap``) must measure the
very gap it stands in for: ``family_gap`` over every family at the facing, bit for bit,
so the search visits the same facings in the same order and answers the same facing
(``test_arcs_exact`` compares the whole search with one measuring every family)."""

from __future__ import annotations

import math
import random

from carnage.geometry.arcs import (
    _critical_angles,
    _turret_hulls,
    facing_gap,
    family_gap,
    turret_critical_angles,
    turret_families,
)
from carnage.geometry.ranges import ShootingTemplate, shooting_template
from carnage.geometry.shapes import Point, Pose, Rect

KINDS = ("short", "medium", "long", "double", "small_burst", "large_burst")


def _shot(rng: random.Random, tpl: ShootingTemplate) -> tuple[Rect, list[Point]]:
    """A shooter and a target whose gap is about the template's length: the facings that
    reach lie in a narrow window, where the search measures most."""
    body = Rect(Pose(0.0, 0.0, rng.uniform(0, 360)), rng.uniform(30, 80), rng.uniform(20, 40))
    bearing = math.radians(rng.uniform(0, 360))
    dist = tpl.length * rng.uniform(0.8, 1.4) + 40.0
    target = Rect(Pose(dist * math.cos(bearing), dist * math.sin(bearing), rng.uniform(0, 360)),
                  rng.uniform(20, 80), rng.uniform(10, 40)).polygon()
    return body, target


def test_the_gap_measured_by_boxes_is_the_gap_over_every_family() -> None:
    # At random, critical and nearly critical facings, for every template, with targets
    # far off, near the end of the template's reach and overlapping it.
    rng = random.Random(23)
    left_out = 0
    for _ in range(300):
        tpl = shooting_template(rng.choice(KINDS))
        body, target = _shot(rng, tpl)
        crit = turret_critical_angles(body, tpl)
        for _ in range(12):
            theta = rng.choice([rng.uniform(0, 360), rng.choice(crit),
                                rng.choice(crit) + rng.choice([-1e-7, 1e-7, 1e-3])])
            want = family_gap(turret_families(body, tpl, theta), tpl, target)
            assert facing_gap(body, tpl, theta, target) == want, (tpl.id, theta)
            left_out += sum(h is None for h in _turret_hulls(body, tpl, theta).hulls)
        _turret_hulls.cache_clear()
        _critical_angles.cache_clear()
    assert left_out > 1000  # it does leave families out

