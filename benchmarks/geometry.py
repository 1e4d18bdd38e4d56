"""Geometry benchmark: how fast Carnage answers table questions, on one core.

    .venv/bin/python benchmarks/geometry.py [--quick] [--arcs]

Prints rectangle-overlap tests per second and full template sweeps per second against 20
obstructions, for the hand-written separating-axis code that Carnage uses and for the same
algorithms built on Shapely 2 / GEOS (see docs/design.md, "Geometry"). Each figure is the best
of five runs over a fixed, seeded set of cases (best-of, because a shared machine adds noise).
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import shapely

from carnage.geometry import Obstruction, Pose, Rect, resolve_move
from carnage.geometry.arcs import Arc, can_reach, parse_arc
from carnage.geometry.cover import Blocker, FireCheck, check_fire, clear_memo
from carnage.geometry.movement import SlideSide, _prepare
from carnage.geometry.ranges import ShootingTemplate, shooting_template
from carnage.geometry.shapes import overlaps, penetration
from carnage.geometry.sweep import MIN_STEP, RESOLUTION, Kin, Motion, sat

TEMPLATES = ["gentle", "hairpin", "hard", "long_straight", "medium_straight",
             "short_straight", "swerve", "turn", "veer"]
TABLE = 1200.0  # a 4' x 4' table, in mm


def best_of(fn: Callable[[], object], repeats: int = 5) -> float:
    """Seconds for one call of ``fn`` (which runs a whole batch): the best of ``repeats``."""
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


# ---------------------------------------------------------------------- rectangle overlap


def random_rect(rng: random.Random, spread: float) -> Rect:
    return Rect(Pose(rng.uniform(-spread, spread), rng.uniform(-spread, spread),
                     rng.uniform(0, 360)), rng.uniform(20, 100), rng.uniform(20, 50))


def bench_rect_overlap(n: int = 20000) -> dict[str, float]:
    """Overlap tests per second between two oriented rectangles (about half the pairs touch)."""
    rng = random.Random(1)
    pairs = [(random_rect(rng, 60), random_rect(rng, 60)) for _ in range(n)]
    polys = [(a.polygon(), b.polygon()) for a, b in pairs]
    kern = [(a.length / 2, a.width / 2, (a.pose.x, a.pose.y, math.radians(a.pose.heading)),
             Obstruction.from_rect("b", b)) for a, b in pairs]
    shp = [(shapely.Polygon(pa), shapely.Polygon(pb)) for pa, pb in polys]
    arr_a = np.array([s[0] for s in shp], dtype=object)
    arr_b = np.array([s[1] for s in shp], dtype=object)

    def hand_generic() -> None:
        for pa, pb in polys:
            overlaps(pa, pb)

    def hand_kernel() -> None:
        for hl, hw, kin, ob in kern:
            sat(hl, hw, kin, ob) >= 0.0  # noqa: B015

    def shapely_scalar() -> None:
        for a, b in shp:
            a.intersects(b)

    def shapely_build() -> None:
        for pa, pb in polys:
            shapely.Polygon(pa).intersects(shapely.Polygon(pb))

    def shapely_bulk() -> None:
        shapely.intersects(arr_a, arr_b)

    # Both sides agree on every pair (touching within 1e-6 mm counts as overlapping).
    agree = sum(overlaps(pa, pb) == a.intersects(b) for (pa, pb), (a, b) in zip(polys, shp,
                                                                                 strict=True))
    assert agree >= n - 2, agree
    return {
        "hand SAT, generic polygons": n / best_of(hand_generic),
        "hand SAT, sweep kernel (rect vs prepared obstruction)": n / best_of(hand_kernel),
        "Shapely intersects, prebuilt polygons": n / best_of(shapely_scalar),
        "Shapely intersects, building the polygons": n / best_of(shapely_build),
        "Shapely intersects, vectorised over all pairs": n / best_of(shapely_bulk),
    }


# ---------------------------------------------------------------------- full sweeps


@dataclass(frozen=True)
class Case:
    body: Rect
    template: str
    mirror: bool
    reverse: bool
    slide: SlideSide | None
    obstructions: tuple[Obstruction, ...]


def sweep_cases(n: int, crowded: bool, seed: int = 7) -> list[Case]:
    """``n`` moves, each among 20 obstructions (10 cars and 10 obstacles). Spread: anywhere on a
    4' table; crowded: all within 250 mm of the moving car, so most moves are interrupted."""
    rng = random.Random(seed)
    out: list[Case] = []
    while len(out) < n:
        body = Rect(Pose(rng.uniform(200, TABLE - 200), rng.uniform(200, TABLE - 200),
                         rng.uniform(0, 360)), 60, 30)
        obs: list[Obstruction] = []
        while len(obs) < 20:
            if crowded:
                x = body.pose.x + rng.uniform(-250, 250)
                y = body.pose.y + rng.uniform(-250, 250)
            else:
                x, y = rng.uniform(0, TABLE), rng.uniform(0, TABLE)
            size = (60.0, 30.0) if len(obs) < 10 else (rng.uniform(20, 100), rng.uniform(20, 60))
            r = Rect(Pose(x, y, rng.uniform(0, 360)), *size)
            if penetration(r.polygon(), body.polygon()) < -1.0:
                obs.append(Obstruction.from_rect(f"o{len(obs)}", r))
        template = rng.choice(TEMPLATES)
        mirror = rng.random() < 0.5
        slide: SlideSide | None = None
        if rng.random() < 0.2:
            if template.endswith("straight"):
                slide = "left" if rng.random() < 0.5 else "right"
            else:
                slide = "right" if mirror else "left"
        out.append(Case(body, template, mirror, rng.random() < 0.15, slide, tuple(obs)))
    return out


def _batch(fn: Callable[[Case], object], cases: Sequence[Case]) -> None:
    for c in cases:
        fn(c)


def _run_hand(c: Case) -> tuple[Pose, bool, list[str]]:
    r = resolve_move(c.body, c.template, c.obstructions, mirror=c.mirror, reverse=c.reverse,
                     slide=c.slide)
    return r.pose, r.interrupted, r.touched


def bench_sweeps(n: int = 1000) -> dict[str, float]:
    """Full moves (placement, interruption test, continuous first contact, back-up, contacts)
    per second against 20 obstructions, for spread and crowded tables."""
    out: dict[str, float] = {}
    for label, crowded in (("spread", False), ("crowded", True)):
        cases = sweep_cases(n, crowded)
        t = best_of(partial(_batch, _run_hand, cases), repeats=7)
        interrupted = sum(_run_hand(c)[1] for c in cases) / n
        per = []
        for c in cases:
            t0 = time.perf_counter()
            _run_hand(c)
            per.append(time.perf_counter() - t0)
        per.sort()
        out[f"hand SAT, {label} table: sweeps/s"] = n / t
        out[f"hand SAT, {label} table: mean us/sweep"] = t / n * 1e6
        out[f"hand SAT, {label} table: p95 us/sweep"] = per[int(0.95 * n)] * 1e6
        out[f"hand SAT, {label} table: share interrupted"] = interrupted
    return out


# ---------------------------------------------------------------------- Shapely version


def _body_coords(kin: Kin, hl: float, hw: float) -> list[tuple[float, float]]:
    x, y, h = kin
    c, s = math.cos(h), math.sin(h)
    return [(x + dx * c - dy * s, y + dx * s + dy * c)
            for dx, dy in ((-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw))]


def _shapely_first_contact(m: Motion, ob: shapely.Polygon, limit: float) -> float | None:
    """The same conservative advancement as carnage.geometry.sweep, with GEOS distances."""
    u = 0.0
    g = shapely.distance(shapely.Polygon(_body_coords(m.at(0.0), m.hl, m.hw)), ob)
    while u < limit:
        if g <= RESOLUTION:
            return u
        un = min(u + max(g - RESOLUTION / 2, MIN_STEP), limit)
        gn = shapely.distance(shapely.Polygon(_body_coords(m.at(un), m.hl, m.hw)), ob)
        if gn <= 0.0:
            lo, hi = u, un
            while hi - lo > RESOLUTION:
                mid = (lo + hi) / 2
                if shapely.distance(shapely.Polygon(_body_coords(m.at(mid), m.hl, m.hw)),
                                    ob) <= 0.0:
                    hi = mid
                else:
                    lo = mid
            return lo
        u, g = un, gn
    return None


def _run_shapely(c: Case) -> tuple[bool, float]:
    """Shapely/GEOS edition of resolve_move's pipeline in the body's frame: ignore what touches
    at the start, test the template outline and final position, sweep, back up."""
    plan = _prepare(c.body, c.template, c.mirror, c.reverse, c.slide, None, None)
    m = plan.motion
    p = c.body.pose
    hr = math.radians(p.heading)
    cs, sn = math.cos(hr), math.sin(hr)
    local = [shapely.Polygon([((x - p.x) * cs + (y - p.y) * sn, (y - p.y) * cs - (x - p.x) * sn)
                              for x, y in ob.polygon]) for ob in c.obstructions]
    start = shapely.Polygon(_body_coords((0.0, 0.0, 0.0), m.hl, m.hw))
    live = [g for g in local if shapely.distance(start, g) > 0.1]
    upto = plan.path.slide_exit if c.slide else None
    area = shapely.Polygon(plan.path.outline(upto))
    area = area.union(shapely.Polygon(_body_coords(m.at(m.length), m.hl, m.hw)))
    if plan.slide_rect is not None:
        area = area.union(shapely.Polygon(plan.slide_rect.polygon()))
    shapely.prepare(area)
    blocked = any(area.intersects(g) and area.intersection(g).area > 1e-9 for g in live)
    u_stop = m.length
    if blocked:
        for g in live:
            hit = _shapely_first_contact(m, g, u_stop)
            if hit is not None:
                u_stop = min(u_stop, hit)
    body = shapely.Polygon(_body_coords(m.at(u_stop), m.hl, m.hw))
    while u_stop > 0 and any(body.intersection(g).area > 1e-9 for g in local):
        u_stop = max(u_stop - 1.0, 0.0)
        body = shapely.Polygon(_body_coords(m.at(u_stop), m.hl, m.hw))
    return blocked, u_stop


def bench_shapely_sweeps(n: int = 200) -> dict[str, float]:
    out: dict[str, float] = {}
    for label, crowded in (("spread", False), ("crowded", True)):
        cases = sweep_cases(n, crowded)
        t = best_of(partial(_batch, _run_shapely, cases), repeats=2)
        out[f"Shapely/GEOS, {label} table: sweeps/s"] = n / t
        out[f"Shapely/GEOS, {label} table: mean us/sweep"] = t / n * 1e6
    return out


# ---------------------------------------------------------------------- arcs and cover


FireCase = tuple[Rect, list[tuple[float, float]], str, str, list[Blocker]]


def fire_cases(n: int, seed: int = 11) -> list[FireCase]:
    """``n`` shots: a car, a target within about Long range, 18 other bodies (a third of them
    Tall) within 250 mm of the shooter; a random arc and range ruler."""
    rng = random.Random(seed)
    out: list[FireCase] = []
    while len(out) < n:
        shooter = Rect(Pose(600, 600, rng.uniform(0, 360)), 60, 30)
        bearing = math.radians(rng.uniform(0, 360))
        dist = rng.uniform(60, 220)
        target = Rect(Pose(600 + dist * math.cos(bearing), 600 + dist * math.sin(bearing),
                           rng.uniform(0, 360)), 60, 30)
        if penetration(target.polygon(), shooter.polygon()) > -1.0:
            continue
        blockers: list[Blocker] = []
        while len(blockers) < 18:
            r = Rect(Pose(600 + rng.uniform(-250, 250), 600 + rng.uniform(-250, 250),
                          rng.uniform(0, 360)), rng.uniform(20, 80), rng.uniform(20, 50))
            if all(penetration(r.polygon(), b.polygon()) < -1.0 for b in (shooter, target)):
                blockers.append(Blocker(f"b{len(blockers)}", tuple(r.polygon()),
                                        tall=len(blockers) % 3 == 0))
        arc = rng.choice(["front", "front", "rear", "side", "360"])
        rng_name = rng.choice(["short", "medium", "long", "double", "large_burst"])
        out.append((shooter, target.polygon(), arc, rng_name, blockers))
    return out


def bench_arcs(n: int = 1000) -> dict[str, float]:
    """Arc-and-cover checks per second: "can this weapon's template reach the target" alone,
    and the full in range / cover / Tall answer against 18 obstructions, split by arc."""
    cases = fire_cases(n)
    prepared = [(s, t, parse_arc(a), shooting_template(r), b) for s, t, a, r, b in cases]
    fixed = [c for c in prepared if c[2] is not Arc.TURRET]
    turret = [c for c in prepared if c[2] is Arc.TURRET]
    out: dict[str, float] = {}

    def reach(batch: Sequence[tuple[Rect, list[tuple[float, float]], Arc, ShootingTemplate,
                                    list[Blocker]]]) -> None:
        for s, t, a, tpl, _ in batch:
            can_reach(s, t, a, tpl)

    def full(batch: Sequence[tuple[Rect, list[tuple[float, float]], Arc, ShootingTemplate,
                                   list[Blocker]]]) -> None:
        clear_memo()  # every check worked out, none answered from memory
        for s, t, a, tpl, b in batch:
            check_fire(s, t, a, tpl, b)

    out["reach only, front/rear/side arcs: checks/s"] = len(fixed) / best_of(lambda: reach(fixed))
    out["reach only, 360 arc: checks/s"] = len(turret) / best_of(lambda: reach(turret))
    out["reach + cover + Tall, front/rear/side: checks/s"] = \
        len(fixed) / best_of(lambda: full(fixed), repeats=3)
    out["reach + cover + Tall, 360 arc: checks/s"] = \
        len(turret) / best_of(lambda: full(turret), repeats=1)
    # Per check: CPU time of this process (the machine is shared), the best of three runs,
    # each with nothing remembered; split by template kind.
    per: list[tuple[float, bool, FireCheck]] = []
    for s, t, a, tpl, b in turret:
        best = math.inf
        for _ in range(3):
            clear_memo()
            t0 = time.process_time()
            fc = check_fire(s, t, a, tpl, b)
            best = min(best, time.process_time() - t0)
        per.append((best, tpl.is_burst, fc))
    for s, t, a, tpl, b in turret:
        check_fire(s, t, a, tpl, b)
    t0 = time.process_time()
    for s, t, a, tpl, b in turret:
        check_fire(s, t, a, tpl, b)
    out["360 arc, the same check asked again (remembered): us/check"] = \
        (time.process_time() - t0) / max(1, len(turret)) * 1e6
    for label, kinds in (("360 arc", (False, True)), ("360 arc, rulers", (False,)),
                         ("360 arc, bursts", (True,))):
        times = sorted(x[0] for x in per if x[1] in kinds)
        if not times:
            continue
        out[f"reach + cover + Tall, {label}: median ms/check"] = times[len(times) // 2] * 1e3
        out[f"reach + cover + Tall, {label}: p95 ms/check"] = times[int(0.95 * len(times))] * 1e3
        out[f"reach + cover + Tall, {label}: max ms/check"] = times[-1] * 1e3
    slow = [x for x in per if x[0] > 1e-3]
    out["360 arc: shots over 1 ms (a p95 under 1 ms allows 5 %)"] = float(len(slow))
    out["360 arc: shots over 1 ms that end in cover"] = float(
        sum(x[2].in_range and x[2].cover for x in slow))
    hard = sorted(x[0] for x in per if x[2].in_range and x[2].cover)
    if hard:
        out["reach + cover + Tall, 360 arc, in cover: median ms/check"] = \
            hard[len(hard) // 2] * 1e3
    out["360 arc: share in range"] = sum(x[2].in_range for x in per) / max(1, len(per))
    out["360 arc: share in cover (of in range)"] = (
        sum(x[2].cover for x in per) / max(1, sum(x[2].in_range for x in per)))
    answers = [check_fire(s, t, a, tpl, b) for s, t, a, tpl, b in prepared]
    out["share in range"] = sum(f.in_range for f in answers) / n
    out["share in cover (of in range)"] = (
        sum(f.cover for f in answers) / max(1, sum(f.in_range for f in answers)))
    return out


def _fmt(v: float, key: str = "") -> str:
    if "share" in key:
        return f"{v:.0%}"
    if "shots" in key:
        return f"{v:.0f}"
    if v < 10.0:
        return f"{v:.2f}"
    return f"{v:,.0f}" if v >= 100 else f"{v:,.1f}"


def _print(title: str, figures: dict[str, float]) -> None:
    print(title)
    for k, v in figures.items():
        print(f"  {k:<62} {_fmt(v, k):>12}")


def main(argv: Sequence[str] = ()) -> None:
    quick = "--quick" in argv
    if "--arcs" in argv:  # only the arc-and-cover checks
        _print("Arc-and-cover checks (a shot among 18 obstructions)",
               bench_arcs(200 if quick else 1000))
        return
    print(f"Carnage geometry benchmark (Python {sys.version.split()[0]}, "
          f"Shapely {shapely.__version__}, GEOS {shapely.geos_version_string}, one core)")
    _print("Rectangle overlap tests per second", bench_rect_overlap(4000 if quick else 20000))
    _print("Full template sweeps against 20 obstructions", bench_sweeps(300 if quick else 1000))
    _print("Same sweeps built on Shapely", bench_shapely_sweeps(60 if quick else 200))
    _print("Arc-and-cover checks (a shot among 18 obstructions)",
           bench_arcs(200 if quick else 1000))


if __name__ == "__main__":
    main(sys.argv[1:])
