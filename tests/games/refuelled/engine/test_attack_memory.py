"""What a ``Sight`` remembers (templates, gaps, fire checks) answers exactly as asking afresh,
in either order of questions, and lives only as long as the sight: a sight made after the
table changed (a vehicle moved or wrecked, an obstruction added) sees the change."""

from __future__ import annotations

import math
import random
import struct

import pytest
from tests.builders import armed, attack_game, rock, table, vehicle

from carnage.games.refuelled.engine.attack import Sight, legal_shots
from carnage.games.refuelled.engine.state import Obstacle, Status
from carnage.geometry.arcs import Arc
from carnage.geometry.cover import Blocker, check_fire, clear_memo
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Pose, distance
from carnage.geometry.shapes import bounding_circle as _circle

CHECKS = ((Arc.TURRET, "medium"), (Arc.FRONT, "double"), (Arc.SIDE, "long"),
          (Arc.REAR, "short"), (Arc.TURRET, "small_burst"))


def _crowded(seed: int, tall_only: bool) -> tuple[list, list]:
    rng = random.Random(seed)
    cars = [vehicle(f"v{i}", "car", rng.uniform(250, 550), rng.uniform(250, 550),
                    rng.uniform(0, 360), player=i % 2) for i in range(4)]
    walls = [rock(f"r{j}", rng.uniform(250, 550), rng.uniform(250, 550), length=60, width=15,
                  heading=rng.uniform(0, 180), tall=tall_only or j == 0) for j in range(4)]
    return cars, walls


def _exact(shooter, t, cars, walls, arc, tid):
    blockers = [Blocker(o.id, tuple(o.polygon()), o.tall) for o in walls]
    blockers += [Blocker(o.id, tuple(o.polygon())) for o in cars if o not in (shooter, t)]
    clear_memo()
    return check_fire(shooter.rect(), t.polygon(), arc, shooting_template(tid), blockers)


@pytest.mark.parametrize("reach_first", [True, False])
@pytest.mark.parametrize("seed", range(10))
def test_remembered_checks_match_fresh_ones_in_any_order(seed: int, reach_first: bool) -> None:
    cars, walls = _crowded(seed, tall_only=seed % 3 == 0)
    g = attack_game(table(*cars, obstacles=walls), "v0")
    shooter = cars[0]
    sight = Sight(g, shooter)
    for t in cars[1:]:
        for arc, tid in CHECKS:
            exact = _exact(shooter, t, cars, walls, arc, tid)
            for cover in ((False, True) if reach_first else (True, False)):
                got = sight.check(t, arc, tid, cover=cover)
                assert (got.in_range, got.blocked) == (exact.in_range, exact.blocked)
                assert got.cover is (exact.cover if cover else False), (t.id, arc, tid)
            # asked again: the same answers
            assert sight.check(t, arc, tid).cover is exact.cover


def test_a_sight_made_after_the_table_changed_sees_the_change() -> None:
    car = armed(vehicle("car", "car", 300, 300, 90, player=0), ("machine_gun", "front", None))
    red = vehicle("red", "car", 300, 450, 270, player=1)
    far = vehicle("far", "car", 700, 300, 0, player=1)
    g = attack_game(table(car, red, far), "car")
    old = Sight(g, car)
    assert old.check(red, Arc.FRONT, "double").in_range
    assert old.check(red, Arc.FRONT, "double").cover is False
    assert {s.target for s in legal_shots(g, car, old) if s.key != "handgun"} == {"red"}

    # a new obstruction: a wall across the line gives cover, a Tall one blocks
    g.state.obstacles["wall"] = Obstacle("wall", Pose(300, 375, 0), 120, 10)
    assert Sight(g, car).check(red, Arc.FRONT, "double").cover is True
    assert old.check(red, Arc.FRONT, "double").cover is False  # the old sight is of before
    g.state.obstacles["wall"] = Obstacle("wall", Pose(300, 375, 0), 120, 10, tall=True)
    assert Sight(g, car).check(red, Arc.FRONT, "double", cover=False).blocked
    del g.state.obstacles["wall"]

    # a moved vehicle: out of the front arc now, and the other one in it
    red.pose = Pose(300, 150, 90)
    far.pose = Pose(300, 480, 270)
    moved = Sight(g, car)
    assert not moved.check(red, Arc.FRONT, "double").in_range
    assert moved.check(far, Arc.FRONT, "double").in_range
    assert {s.target for s in legal_shots(g, car) if s.key != "handgun"} == {"far"}

    # a wrecked vehicle is no target, and no longer in the way
    far.status = Status.WRECKED
    assert all(s.target != "far" for s in legal_shots(g, car))


@pytest.mark.parametrize("seed", range(6))
def test_gaps_settled_by_inscribed_discs_agree_with_the_exact_gap(seed: int) -> None:
    # Bodies at random, some touching or overlapping, each asked against limits just either
    # side of the exact gap: the disc shortcut never answers differently from ``distance``.
    rng = random.Random(seed)
    for _ in range(60):
        kinds = ["car", "bus", "bike", "war_rig"]
        shooter = vehicle("s", rng.choice(kinds), 500, 500, rng.uniform(0, 360), player=0)
        others = [vehicle(f"t{i}", rng.choice(kinds), 500 + rng.uniform(-250, 250),
                          500 + rng.uniform(-250, 250), rng.uniform(0, 360), player=1)
                  for i in range(3)]
        g = attack_game(table(shooter, *others), "s")
        for t in others:
            rect = t.rect()
            exact = distance(shooter.polygon(), rect.polygon())
            for limit in (exact, exact - 1e-12, exact + 1e-12, exact + 1e-6, exact - 1e-6,
                          exact + 5.0, exact - 5.0, 0.0, 1000.0):
                sight = Sight(g, shooter)
                assert sight._gap_at_most(t.id, rect.polygon(), rect, limit) is (
                    exact <= limit), (t.id, limit)
                # in reach: the circles first, then the exact gap
                rough = Sight(g, shooter)._gap(t.id, rect.polygon(), limit)
                assert Sight(g, shooter)._in_reach(t.id, rect.polygon(), rect, limit) is (
                    rough <= limit)
            # the public gap stays exact once it has been asked for
            sight = Sight(g, shooter)
            sight._in_reach(t.id, rect.polygon(), rect, 1e9)
            assert sight.gap(t) == exact


def test_bounding_circles_as_the_plain_sums() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        n = rng.randint(1, 9)
        poly = [(rng.choice([0.0, -0.0, rng.uniform(-1e3, 1e3)]), rng.uniform(-1e3, 1e3))
                for _ in range(n)]
        cx = sum(x for x, _ in poly) / len(poly)
        cy = sum(y for _, y in poly) / len(poly)
        plain = (cx, cy, max(math.hypot(x - cx, y - cy) for x, y in poly))
        assert [struct.pack("<d", v) for v in _circle(poly)] == [
            struct.pack("<d", v) for v in plain]


@pytest.mark.parametrize("seed", range(4))
def test_blockers_kept_between_sights_are_the_ones_built_afresh(seed: int) -> None:
    # Blockers (and their circles) are kept by id, pose, size and tallness from one sight to
    # the next: over tables whose pieces move, turn, grow and turn Tall between sights, each
    # sight's blockers and circles are, bit for bit, those built from the table as it is.
    rng = random.Random(seed)
    cars, walls = _crowded(seed, tall_only=False)
    g = attack_game(table(*cars, obstacles=walls), "v0")
    for _ in range(40):
        for o in rng.sample(walls, 2):
            o.pose = Pose(rng.choice([o.pose.x, rng.uniform(250, 550)]), o.pose.y,
                          rng.choice([o.pose.heading, rng.uniform(0, 360)]))
            o.length = rng.choice([o.length, rng.uniform(10, 80)])
            o.tall = rng.random() < 0.5
        car = rng.choice(cars)
        car.pose = Pose(rng.uniform(250, 550), rng.uniform(250, 550), rng.uniform(0, 360))
        shooter = rng.choice(cars)
        sight = Sight(g, shooter)
        fresh = [Blocker(o.id, tuple(o.polygon()), o.tall) for o in walls]
        fresh += [Blocker(o.id, tuple(o.polygon())) for o in cars if o is not shooter]
        assert sight.blockers == fresh
        assert [[struct.pack("<d", v) for v in c] for c in sight.circles] == [
            [struct.pack("<d", v) for v in _circle(b.polygon)] for b in fresh]


def test_shooting_templates_kept_between_sights_are_the_ones_made_afresh() -> None:
    from carnage.games.refuelled.engine.attack import _diameter
    from carnage.geometry.templateset import default_template_set

    car = vehicle("car", "car", 300, 300, 90, player=0)
    g = attack_game(table(car, vehicle("red", "car", 300, 450, 270, player=1)), "car")
    names = [*default_template_set().ranges, *default_template_set().bursts]
    for _ in range(2):  # a second sight reads them from memory
        sight = Sight(g, car)
        for name in names:
            tpl, span = sight._template(name)
            fresh = shooting_template(name, g.templates)
            assert tpl == fresh and span == _diameter(fresh)


@pytest.mark.parametrize("seed", range(6))
def test_rough_gaps_taken_from_the_obstructions_are_the_ones_worked_out_afresh(
        seed: int) -> None:
    # a sight takes a target body's rough gap (bounding circles) from that body as an
    # obstruction, and keeps each target's bodies and outlines: the very floats and
    # corners a fresh look gives, and every vehicle in play has its gap taken so
    cars, walls = _crowded(seed, tall_only=False)
    g = attack_game(table(*cars, obstacles=walls), "v0")
    for shooter in cars:
        sight = Sight(g, shooter)
        cx, cy, cr = _circle(shooter.polygon())
        others = [c for c in cars if c is not shooter]
        assert sorted(sight._roughs) == sorted(c.id for c in others)
        for t in others:
            tx, ty, tr = _circle(t.polygon())
            fresh = math.hypot(tx - cx, ty - cy) - tr - cr
            assert struct.pack("<d", sight._roughs[t.id]) == struct.pack("<d", fresh)
            for arc, tid in CHECKS:
                sight.check(t, arc, tid, cover=False)
            assert sight._bodies[t.id] == t.bodies()
            assert sight._polys[t.id] == t.polygon()
