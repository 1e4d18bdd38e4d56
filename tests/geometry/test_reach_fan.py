"""The 360° reach search passes over intervals of ruler facings that ``arcs.ReachFan``
shows come nowhere near the target: the fan must be sound (no facing inside such an
interval comes within the touching tolerance plus the search tolerance), and the search
must answer the very facing it answered measuring every interval (``plain_reach_facing``,
the search as first written)."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from tests.geometry.test_arcs_exact import plain_reach_facing

import carnage.geometry.arcs as arcs
from carnage.geometry.arcs import (
    REACH_TOL,
    TOUCH,
    ReachFan,
    _reach_search,
    facing_gap,
    turret_reach_facing,
    turret_span,
)
from carnage.geometry.ranges import ShootingTemplate, shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, closest_points

RULERS = ["short", "medium", "long", "double"]


def shots(seed: int, n: int) -> Iterator[tuple[Rect, list[Point], ShootingTemplate, float]]:
    """Ruler shots with the target about the edge of reach: half of them from 0.8 L out to
    the span plus 120 mm, half within the search tolerance either side of the span."""
    rng = random.Random(seed)
    for k in range(n):
        tpl = shooting_template(rng.choice(RULERS))
        body = Rect(Pose(0.0, 0.0, rng.uniform(0, 360)), rng.uniform(40, 110),
                    rng.uniform(20, 50))
        w, d = rng.uniform(5, 80), rng.uniform(5, 40)
        a = rng.uniform(0.0, 2 * math.pi)
        pose = Pose(0.0, 0.0, rng.uniform(0, 360))
        target = Rect(pose, w, d).polygon()
        # place the target so that its gap to the car is as wanted
        want = (rng.uniform(tpl.length * 0.8, turret_span(tpl) + 120.0) if k % 2 == 0
                else turret_span(tpl) + rng.uniform(-REACH_TOL, REACH_TOL))
        r = want
        for _ in range(30):
            moved = [(x + r * math.cos(a), y + r * math.sin(a)) for x, y in target]
            _, _, gap = closest_points(body.polygon(), moved)
            r += want - gap
        moved = [(x + r * math.cos(a), y + r * math.sin(a)) for x, y in target]
        _, _, gap = closest_points(body.polygon(), moved)
        yield body, moved, tpl, gap


def check_fan_sound(wide: float | None) -> int:
    """Assert that no facing of an interval the fan passes over comes within ``TOUCH`` +
    tol of the target (facings at both ends, the middle and at random inside); how many
    intervals were passed over. ``wide`` replaces 2a in the fan (unsound when smaller)."""
    rng = random.Random(9)
    missed = 0
    for body, target, tpl, gap in shots(3, 160):
        if gap <= tpl.length + TOUCH or gap > turret_span(tpl) + REACH_TOL + 1e-6:
            continue  # answered without the search
        fan = ReachFan.of(body.polygon(), target, tpl, REACH_TOL,
                          gap, None if wide is None else wide * tpl.near_half)
        if fan is None:
            continue
        for _ in range(12):
            lo = rng.uniform(0.0, 360.0)
            hi = lo + rng.choice([0.05, 0.3, 1.0, 3.0, 11.25, 45.0, 90.0]) * rng.random()
            if not fan.misses(lo, hi):
                continue
            missed += 1
            for th in (lo, hi, (lo + hi) / 2.0, *(rng.uniform(lo, hi) for _ in range(6))):
                assert facing_gap(body, tpl, th % 360.0, target) > TOUCH + REACH_TOL, \
                    (tpl.id, lo, hi, th)
    return missed


def test_no_facing_of_an_interval_the_fan_passes_over_comes_near_the_target() -> None:
    assert check_fan_sound(None) > 200


def test_a_fan_reaching_only_half_as_far_across_passes_over_facings_that_come_near() -> None:
    # the check above can fail: with the near edge reaching a rather than 2a across from
    # where it touches the car, the fan passes over facings that come within the tolerance
    with pytest.raises(AssertionError):
        check_fan_sound(1.0)


def _from_source(module: ModuleType) -> ModuleType:
    """``module`` run again from its ``.py`` source as a module of its own (whether or not
    the build compiled it), so that its functions call each other through its globals."""
    path = Path(str(module.__file__)).with_name(module.__name__.rpartition(".")[2] + ".py")
    name = f"{module.__name__}_from_source"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    fresh = importlib.util.module_from_spec(spec)
    sys.modules[name] = fresh  # dataclasses look their module up while the class is made
    spec.loader.exec_module(fresh)
    return fresh


def test_the_reach_search_answers_the_same_facing_measuring_fewer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    measured = [0]

    def counted(body: Rect, tpl: ShootingTemplate, theta: float,
                target: list[Point]) -> float:
        measured[0] += 1
        return facing_gap(body, tpl, theta, target)

    # counted in the module run from its source: compiled code calls facing_gap directly
    plain_arcs = _from_source(arcs)
    monkeypatch.setattr(plain_arcs, "facing_gap", counted)
    fewer = searched = 0
    for body, target, tpl, gap in shots(5, 240):
        plain = plain_reach_facing(body, target, tpl)
        assert turret_reach_facing(body, target, tpl) == plain
        if gap <= tpl.length + TOUCH or gap > turret_span(tpl) + REACH_TOL + 1e-6:
            continue  # answered without the search
        searched += 1
        measured[0] = 0
        with_fan = plain_arcs._reach_search(body, target, tpl, REACH_TOL, gap)
        n_fan = measured[0]
        measured[0] = 0
        without = plain_arcs._reach_search(body, target, tpl, REACH_TOL, gap, fan=False)
        assert _reach_search(body, target, tpl, REACH_TOL, gap) == with_fan
        assert with_fan == without == plain
        assert n_fan <= measured[0]
        fewer += n_fan < measured[0]
    assert searched > 80 and fewer > 40
