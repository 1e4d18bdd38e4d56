"""360° cover and Tall (Refuelled pp.30, 42, 87): the search over facings is exact to 0.1 mm.

The old answer scanned facings every 1° (plus the critical ones) and could miss a clear line
narrower than that; these tests build such lines and check the search finds them, and check
the per-facing judgement and the whole answer against independent brute force.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from carnage.geometry.allround import CLEAR, TOUCHING, UNBLOCKED, RulerFacing
from carnage.geometry.arcs import Arc, turret_critical_angles, turret_families
from carnage.geometry.convex import area, clip
from carnage.geometry.cover import Blocker, _burst_judge, check_fire
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, closest_points, distance, penetration

CAR = Rect(Pose(0, 0, 0), 60, 30)
LONG = shooting_template("long")
MEDIUM = shooting_template("medium")
SHORT = shooting_template("short")
SMALL_BURST = shooting_template("small_burst")


def in_frame(phi: float, pts: list[Point]) -> tuple[Point, ...]:
    """Points given as (along, across) the facing ``phi``, in world coordinates."""
    c, s = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    return tuple((u * c - v * s, u * s + v * c) for u, v in pts)


def frame_box(phi: float, u0: float, u1: float, v0: float, v1: float) -> tuple[Point, ...]:
    return in_frame(phi, [(u0, v0), (u1, v0), (u1, v1), (u0, v1)])


def slot_scene(phi: float, play: float) -> tuple[list[Point], list[Blocker]]:
    """Two Tall blocks 100 mm deep across every line from the car to the target, leaving a
    slot along the facing ``phi`` as wide as the Long ruler plus ``play`` mm. A ruler fits
    through only while turned at most about play/100 rad from ``phi``."""
    a = LONG.near_half
    half = a + play / 2.0
    left = Blocker("left", frame_box(phi, 45, 145, half, half + 400), tall=True)
    right = Blocker("right", frame_box(phi, 45, 145, -half - 400, -half), tall=True)
    target = list(frame_box(phi, 150, 180, -40, -5))
    return target, [left, right]


def clear_along(placement: tuple[Point, ...], heading: float, target: list[Point],
                blockers: list[Blocker]) -> bool:
    """Independent check: the placement touches the target (within the tolerance) and no
    obstruction overlaps it with area nearer the shooter than the target."""
    d = (math.cos(math.radians(heading)), math.sin(math.radians(heading)))
    near = min(x * d[0] + y * d[1] for x, y in placement)
    hit = clip(target, list(placement))
    if not hit:  # touching within the engine's 1e-6 mm tolerance overlaps no area
        if distance(list(placement), target) > 1e-6:
            return False
        hit = target
    t_target = min(x * d[0] + y * d[1] for x, y in hit) - near
    for b in blockers:
        part = clip(list(b.polygon), list(placement))
        if len(part) >= 3 and area(part) > 1e-6 and \
                min(x * d[0] + y * d[1] for x, y in part) - near < t_target - 1e-6:
            return False
    return True


def facing_window(judge: RulerFacing, target: list[Point], blockers: list[Blocker],
                  lo: float, hi: float, step: float) -> list[float]:
    obs = [(b.polygon, b.tall) for b in blockers]
    n = round((hi - lo) / step)
    return [lo + i * step for i in range(n + 1)
            if judge.judge(lo + i * step, target, obs, CLEAR)[0] == CLEAR]


def test_a_half_millimetre_slot_the_one_degree_scan_missed_is_found() -> None:
    phi = 10.5
    target, walls = slot_scene(phi, 0.5)
    judge = RulerFacing(CAR, LONG)
    # The clear facings form a window well under a degree that holds no whole degree and
    # no critical facing: the old scan (every 1° plus the critical facings) found none.
    window = facing_window(judge, target, walls, phi - 1.0, phi + 1.0, 0.005)
    assert window and max(window) - min(window) < 0.7
    assert math.floor(max(window)) < min(window)
    obs = [(b.polygon, b.tall) for b in walls]
    old_facings = [*range(360), *turret_critical_angles(CAR, LONG)]
    assert all(judge.judge(th, target, obs, CLEAR)[0] == TOUCHING for th in old_facings
               if judge.judge(th, target, obs, CLEAR)[0] > 0)
    fc = check_fire(CAR, target, Arc.TURRET, LONG, walls)
    assert (fc.in_range, fc.cover, fc.blocked) == (True, False, False)
    assert fc.placement is not None and fc.heading is not None
    assert min(window) - 0.01 <= fc.heading <= max(window) + 0.01
    # found by the search, not by luck: the closest-point line is not in the window
    p, q, _ = closest_points(CAR.polygon(), target)
    aim = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
    assert not min(window) - 0.01 <= aim <= max(window) + 0.01
    assert clear_along(fc.placement, fc.heading, target, walls)
    # the placement lies against the shooter and outside it (GF-2)
    assert distance(list(fc.placement), CAR.polygon()) <= 1e-6
    assert penetration(list(fc.placement), CAR.polygon()) <= 1e-6


def test_a_third_of_a_degree_window_is_found_and_closing_it_blocks() -> None:
    phi = 33.4
    target, walls = slot_scene(phi, 0.3)
    window = facing_window(RulerFacing(CAR, LONG), target, walls, phi - 1.0, phi + 1.0, 0.005)
    assert window and max(window) - min(window) < 0.4
    fc = check_fire(CAR, target, Arc.TURRET, LONG, walls)
    assert (fc.in_range, fc.cover, fc.blocked) == (True, False, False)
    assert fc.placement is not None and fc.heading is not None
    assert clear_along(fc.placement, fc.heading, target, walls)
    # A slot 0.1 mm narrower than the ruler lets nothing through: Tall blocks the shot.
    target, walls = slot_scene(phi, -0.1)
    assert (check_fire(CAR, target, Arc.TURRET, LONG, walls).blocked) is True
    # The same slot with low walls: in range, in cover, not blocked.
    low = [Blocker(b.id, b.polygon, tall=False) for b in walls]
    fc = check_fire(CAR, target, Arc.TURRET, LONG, low)
    assert (fc.in_range, fc.cover, fc.blocked) == (True, True, False)


def test_a_slot_with_one_low_side_is_cover_not_blocked() -> None:
    # Only the left block is Tall: lines through the low right block are unblocked (so the
    # shot may be made) but in cover; the 0.5 mm slot is still a clear line.
    phi = 200.6
    target, (left, right) = slot_scene(phi, 0.5)
    walls = [left, Blocker("right", right.polygon, tall=False)]
    fc = check_fire(CAR, target, Arc.TURRET, LONG, walls)
    assert (fc.in_range, fc.cover, fc.blocked) == (True, False, False)
    target, (left, right) = slot_scene(phi, -0.1)
    fc = check_fire(CAR, target, Arc.TURRET, LONG, [left, Blocker("r", right.polygon)])
    assert (fc.in_range, fc.cover, fc.blocked) == (True, True, False)


# ---------------------------------------------------------------- against brute force


def _family_level(theta: float, target: list[Point], blockers: list[Blocker],
                  tpl_name: str) -> int:
    """The per-family solver (independent of RulerFacing) at one facing."""
    tpl = shooting_template(tpl_name)
    lvl, _ = _burst_judge(CAR, tpl)(theta, target, [(b.polygon, b.tall) for b in blockers],
                                    CLEAR)
    return lvl


scene = st.tuples(
    st.floats(0, 360), st.floats(70, 200), st.floats(0, 360),
    st.lists(st.tuples(st.floats(0.2, 0.9), st.floats(-70, 70), st.floats(10, 120),
                       st.floats(4, 20), st.floats(0, 180), st.booleans()),
             min_size=1, max_size=5))
"""Target bearing, distance and heading; walls (part of the way to the target, offset
across the line, length, width, heading, Tall), most of them in the way."""


MARGIN = 0.2
"""The brute force only counts lines that stay clear with every obstruction this much bigger
(mm): the search is exact to 0.1 mm, so a line thinner than that may be missed."""


def _build(bearing: float, dist: float, spin: float,
           walls: list[tuple[float, float, float, float, float, bool]]
           ) -> tuple[list[Point], list[Blocker], list[Blocker]] | None:
    """Target, obstructions, and the obstructions grown by MARGIN."""
    b = math.radians(bearing)
    target = Rect(Pose(dist * math.cos(b), dist * math.sin(b), spin), 60, 30).polygon()
    if distance(target, CAR.polygon()) <= 1e-6:
        return None
    out, grown = [], []
    for i, (f, off, ln, wd, h, tall) in enumerate(walls):
        x = f * dist * math.cos(b) - off * math.sin(b)
        y = f * dist * math.sin(b) + off * math.cos(b)
        poly = Rect(Pose(x, y, h), ln, wd).polygon()
        if penetration(poly, target) < -1e-6 and penetration(poly, CAR.polygon()) < -1e-6:
            out.append(Blocker(f"w{i}", tuple(poly), tall))
            big = Rect(Pose(x, y, h), ln + 2 * MARGIN, wd + 2 * MARGIN).polygon()
            grown.append(Blocker(f"w{i}", tuple(big), tall))
    return target, out, grown


@settings(max_examples=40, deadline=None)
@given(scene, st.lists(st.floats(0, 360), min_size=3, max_size=3),
       st.sampled_from(["short", "medium", "long"]))
def test_ruler_facing_agrees_with_the_per_family_solver(
    sc: tuple[float, float, float, list[tuple[float, float, float, float, float, bool]]],
    facings: list[float], tpl_name: str,
) -> None:
    built = _build(*sc)
    if built is None:
        return
    target, blockers, _ = built
    tpl = shooting_template(tpl_name)
    judge = RulerFacing(CAR, tpl)
    obs = [(b.polygon, b.tall) for b in blockers]
    critical = turret_critical_angles(CAR, tpl)
    # A drawn facing within a millionth of a degree of a critical angle (where the answer
    # may change) is left out: there the two solvers' float tolerances, not the geometry,
    # decide the side (a facing of 1e-9 degrees once split them: about 1e-9 mm at the
    # template's tip). The critical angles themselves are checked.
    drawn = [th for th in facings
             if all(abs((th - c + 180.0) % 360.0 - 180.0) > 1e-6 for c in critical)]
    for th in [*drawn, *critical]:
        lvl, placed = judge.judge(th, target, obs, CLEAR)
        assert lvl == _family_level(th, target, blockers, tpl_name), th
        if lvl >= TOUCHING:
            assert placed is not None
            assert distance(list(placed), target) <= 1e-6
            assert distance(list(placed), CAR.polygon()) <= 1e-6
            assert penetration(list(placed), CAR.polygon()) <= 1e-6
        if lvl == CLEAR:
            assert placed is not None and clear_along(placed, th, target, blockers)
        if lvl >= UNBLOCKED:
            assert placed is not None
            assert clear_along(placed, th, target, [b for b in blockers if b.tall])


def _dense_oracle(target: list[Point], blockers: list[Blocker], tpl_name: str
                  ) -> tuple[bool, bool]:
    """Brute force over placements at every 1° (half a degree off the old scan's facings)
    and 25 positions along each family: (some placement is clear of ``blockers``, some
    placement is clear of the Tall ones)."""
    tpl = shooting_template(tpl_name)
    tall = [b for b in blockers if b.tall]
    clear = unblocked = False
    for i in range(360):
        th = i + 0.5
        for fam in turret_families(CAR, tpl, th):
            if distance(fam.swept(tpl), target) > 1e-9:
                continue
            for k in range(25):
                placed = tuple(fam.placed(tpl, k / 24))
                if distance(list(placed), target) > 1e-9:
                    continue
                if not unblocked and clear_along(placed, th, target, tall):
                    unblocked = True
                if clear_along(placed, th, target, blockers):
                    return True, True
    return clear, unblocked


@settings(max_examples=25, deadline=None)
@given(scene, st.sampled_from(["short", "medium", "long", "small_burst"]))
def test_360_answer_agrees_with_a_dense_brute_force(
    sc: tuple[float, float, float, list[tuple[float, float, float, float, float, bool]]],
    tpl_name: str,
) -> None:
    built = _build(*sc)
    if built is None:
        return
    target, blockers, grown = built
    fc = check_fire(CAR, target, Arc.TURRET, shooting_template(tpl_name), blockers)
    clear, unblocked = _dense_oracle(target, grown, tpl_name)
    if clear:
        assert fc.in_range and not fc.cover
    if unblocked:
        assert fc.in_range and not fc.blocked
    if fc.in_range:
        assert fc.placement is not None and fc.heading is not None
        assert distance(list(fc.placement), target) <= 0.2
    if fc.in_range and not fc.cover:
        assert fc.placement is not None and fc.heading is not None
        assert clear_along(fc.placement, fc.heading, target, blockers)
    if fc.in_range and not fc.blocked:
        assert fc.placement is not None and fc.heading is not None
        assert clear_along(fc.placement, fc.heading, target, [b for b in blockers if b.tall])


# ---------------------------------------------------------------- the bound's pieces


def _inside(p: Point, poly: tuple[Point, ...] | list[Point], slack: float = 1e-7) -> bool:
    n = len(poly)
    return all((poly[(i + 1) % n][0] - poly[i][0]) * (p[1] - poly[i][1])
               - (poly[(i + 1) % n][1] - poly[i][1]) * (p[0] - poly[i][0]) >= -slack
               for i in range(n))


@settings(max_examples=60, deadline=None)
@given(st.floats(5, 80), st.floats(5, 80), st.floats(0, 360), st.floats(0, 360),
       st.floats(0, 6), st.floats(0, 6))
def test_shrunk_and_grown_outlines_are_a_subset_and_a_superset(
    length: float, width: float, spin: float, facing: float, along: float, across: float
) -> None:
    from carnage.geometry.allround import Obstacle

    poly = Rect(Pose(10, -20, spin), length, width).polygon()
    ob = Obstacle.of(poly, tall=False)
    d = (math.cos(math.radians(facing)), math.sin(math.radians(facing)))
    n = (-d[1], d[0])
    corners = [(su * along * d[0] + sv * across * n[0], su * along * d[1] + sv * across * n[1])
               for su in (-1, 1) for sv in (-1, 1)]
    shrunk = ob.moved(d, along, across)
    if shrunk is not None:
        # every point of the shrunk outline, moved anywhere within the box, stays inside
        assert all(_inside((x + dx, y + dy), poly) for x, y in shrunk for dx, dy in corners)
    else:
        # it only vanishes when the box does not fit: some edge pair is closer than it
        assert min(length, width) <= 2 * max(along, across) * math.sqrt(2) + 1e-9
    grown = ob.moved(d, along, across, grow=True)
    assert grown is not None
    assert all(_inside((x + dx, y + dy), grown) for x, y in poly for dx, dy in corners)


def test_outlines_without_area_do_not_break_the_search() -> None:
    # A target given as a segment is still shot at; a flat "wall" (a segment) obstructs
    # nothing, since overlapping needs some area (GF-4).
    segment = [(120.0, -10.0), (120.0, 10.0)]
    flat = Blocker("flat", ((70.0, -100.0), (70.0, 100.0)), tall=True)
    fc = check_fire(CAR, segment, Arc.TURRET, MEDIUM, [flat])
    assert (fc.in_range, fc.cover, fc.blocked) == (True, False, False)
    wall = Blocker("wall", tuple(Rect(Pose(70, 0, 0), 10, 400).polygon()), tall=True)
    assert check_fire(CAR, segment, Arc.TURRET, MEDIUM, [wall]).blocked is True
