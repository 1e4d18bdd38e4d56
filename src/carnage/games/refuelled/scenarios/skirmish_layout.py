"""Where the Wasteland Skirmishes' objects go: crates on the Double ring (Scavenger Party,
p.139), zombies spread over the table and dropped round a wreck (Zombie Bash, p.142), Salvage
Counters against a vehicle's side edge (Automated Salvage, p.135).

Pure geometry over the game's state: each function returns finite candidate points (the table's
legal choices, shared by humans and bots) or points rolled from dice the caller passes in, so
the scenarios keep every roll in ``game.roll``. Tokens are discs (``radius``) or squares
(``half``); none is an obstruction (rulings SCV-1, AS-4, ZB-2).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from carnage.games.refuelled.engine.scenario_view import ReportRow
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.scenarios.base import Line
from carnage.games.refuelled.scenarios.snl_prizes import point_gap
from carnage.geometry.shapes import Point, Pose, Rect
from carnage.team.io import parse_team
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

COUNTER_RADIUS = 10.0
"""A Salvage Counter is a round counter no larger than a penny (20 mm): we use 20 mm."""
ZOMBIE_RADIUS = 10.0
"""Zombies are 15-20 mm figures: a 20 mm disc (ruling ZB-1)."""
ZOMBIE_EDGE = 40.0
"""Generated zombies keep this far (mm) from the table edges, so chasing one never means
driving nose-first into an edge."""
CRATE_SIZE = 30.0
"""Crates are tokens no larger than 30 mm square: a 30 mm square."""


def disc_clear(state: GameState, p: Point, radius: float, *,
               keep_off: Iterable[Sequence[Point]] = ()) -> bool:
    """A disc at ``p`` lies wholly on the table and on no obstacle (nor on ``keep_off``)."""
    if not (radius <= p[0] <= state.width - radius and radius <= p[1] <= state.height - radius):
        return False
    polys = [ob.polygon() for ob in state.obstacles.values()]
    polys += [list(k) for k in keep_off]
    return all(point_gap(poly, p) >= radius - 1e-9 for poly in polys)


def square(p: Point, size: float = CRATE_SIZE, heading: float = 0.0) -> list[Point]:
    """The outline of a square token of side ``size`` centred on ``p``."""
    return Rect(Pose(p[0], p[1], heading), size, size).polygon()


# -- Scavenger Party: the crate ring (p.139) ----------------------------------------------------
def ring_points(centre: Point, radius: float, n: int, start_deg: float) -> list[Point]:
    """``n`` points evenly round a circle of ``radius`` about ``centre``, the first at
    ``start_deg`` (anticlockwise from +x)."""
    if n < 1:
        raise ValueError(f"a ring needs at least one point, not {n}")
    return [(centre[0] + radius * math.cos(math.radians(start_deg + 360.0 * k / n)),
             centre[1] + radius * math.sin(math.radians(start_deg + 360.0 * k / n)))
            for k in range(n)]


def crate_ring(state: GameState, radius: float, n: int, turn_die: int) -> list[Point]:
    """Ruling SCV-2: the crates' rough circle is ``n`` crates evenly round the ring exactly
    ``radius`` (Double) from the table centre, turned by ``turn_die`` sixths of the spacing.
    A crate that would lie on terrain or off the table slides along the ring (so still exactly
    at ``radius``), 5 degrees at a time either way, to the nearest clear spot."""
    centre = (state.width / 2.0, state.height / 2.0)
    step = 360.0 / n
    start = 90.0 + step * (turn_die - 1) / 6.0
    out: list[Point] = []
    half_diag = CRATE_SIZE * math.sqrt(0.5)
    for k in range(n):
        base = start + step * k
        for shift in sorted(range(-int(step // 2), int(step // 2) + 1, 5),
                            key=lambda s: (abs(s), s)):
            a = math.radians(base + shift)
            p = (centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a))
            if disc_clear(state, p, half_diag) and not any(
                    math.dist(p, q) < CRATE_SIZE * 1.5 for q in out):
                out.append(p)
                break
    return out


# -- Automated Salvage: counters against a side edge (p.135) ------------------------------------
SIDE_STATIONS = (("front", 1.0 / 3.0), ("middle", 0.0), ("rear", -1.0 / 3.0))
"""Where along a side edge a counter may be put: a third of the length from the centre either
way, or at the middle (ruling AS-5)."""


def counter_spots(state: GameState, v: VehicleState,
                  radius: float = COUNTER_RADIUS, *, measured: bool = True) -> dict[str, Point]:
    """Ruling AS-5: the places a Salvage Counter may go, touching ``v``'s left or right side
    edge at its front, middle or rear third, on the table. Counters are no obstruction, so
    terrain and vehicles do not rule a place out; the table edge does. ``measured`` False (a
    real table, ruling CP-11): all six, the people keeping it on the table."""
    out: dict[str, Point] = {}
    pose = v.pose
    for side, sign in (("left", 1.0), ("right", -1.0)):
        for where, frac in SIDE_STATIONS:
            p = pose.to_world((frac * v.length, sign * (v.width / 2.0 + radius)))
            if not measured or (radius <= p[0] <= state.width - radius
                                and radius <= p[1] <= state.height - radius):
                out[f"{side} side, {where}"] = p
    return out


# -- Zombie Bash: zombies spread over the table, dropped round a wreck (p.142) -----------------
def grid_shape(width: float, height: float, n: int) -> tuple[int, int]:
    """Columns and rows of the smallest grid with at least ``n`` cells whose cells are as near
    square as possible on a ``width`` x ``height`` table."""
    cols = max(1, round(math.sqrt(n * width / height)))
    rows = math.ceil(n / cols)
    return cols, rows


def zombie_points(state: GameState, n: int, dice: Sequence[int],
                  radius: float = ZOMBIE_RADIUS) -> list[Point]:
    """Ruling ZB-1: ``n`` zombies roughly evenly: the table less a ``ZOMBIE_EDGE`` margin cut
    into a near-square grid of at least ``n`` cells, a zombie in each of the first ``n``
    cells (row by row), pushed off its cell's centre by two dice (each die 1-6 moves it
    -5/12 to +5/12 of the cell). A spot on terrain moves to the nearest clear point of its
    cell (a 5 mm grid); a cell with none is skipped and the next cell used."""
    if len(dice) < 2 * n:
        raise ValueError(f"{n} zombies need {2 * n} dice, got {len(dice)}")
    m = ZOMBIE_EDGE
    cols, rows = grid_shape(state.width - 2 * m, state.height - 2 * m, n)
    cw, ch = (state.width - 2 * m) / cols, (state.height - 2 * m) / rows
    cells = [(c, r) for r in range(rows) for c in range(cols)]
    if len(cells) < n:
        raise ValueError(f"{n} zombies do not fit on the table")
    out: list[Point] = []
    d = 0
    for c, r in cells:
        if len(out) == n:
            break
        fx = (dice[d % len(dice)] - 3.5) / 6.0
        fy = (dice[(d + 1) % len(dice)] - 3.5) / 6.0
        d += 2
        want = (m + (c + 0.5 + fx) * cw, m + (r + 0.5 + fy) * ch)
        spot = _nearest_clear(state, want, (m + c * cw, m + r * ch, m + (c + 1) * cw,
                                            m + (r + 1) * ch), radius, out)
        if spot is not None:
            out.append(spot)
    return out


def _nearest_clear(state: GameState, want: Point, box: tuple[float, float, float, float],
                   radius: float, placed: Sequence[Point]) -> Point | None:
    def ok(p: Point) -> bool:
        return disc_clear(state, p, radius) and all(math.dist(p, q) >= 2 * radius
                                                    for q in placed)

    if ok(want):
        return want
    x0, y0, x1, y1 = box
    best: tuple[float, Point] | None = None
    x = x0 + radius
    while x <= x1 - radius:
        y = y0 + radius
        while y <= y1 - radius:
            p = (x, y)
            dd = math.dist(p, want)
            if (best is None or dd < best[0]) and ok(p):
                best = (dd, p)
            y += 5.0
        x += 5.0
    return None if best is None else best[1]


DROP_GAPS = (5.0, 30.0, 50.0)
"""Gaps (mm) from the wreck's outline to a dropped zombie's edge tried (all within Short)."""
DROP_BEARINGS = 12
"""Bearings round the wreck tried for each gap."""


def spots_near(state: GameState, poly: Sequence[Point], reach: float,
               taken: Sequence[Point] = (), radius: float = ZOMBIE_RADIUS) -> dict[str, Point]:
    """Ruling ZB-3: the places a zombie may be put within ``reach`` (Short) of the wreck
    outline ``poly``: at a few gaps from the outline on bearings every 30 degrees, wholly on
    the table, on no obstacle, clear of zombies already there (``taken``).
    Labelled by bearing and gap. They may touch vehicles (zombies obstruct nothing)."""
    cx = sum(x for x, _ in poly) / len(poly)
    cy = sum(y for _, y in poly) / len(poly)
    out: dict[str, Point] = {}
    for gap in DROP_GAPS:
        if gap > reach:
            continue  # the zombie's nearest point must be within reach
        for k in range(DROP_BEARINGS):
            bearing = 360.0 * k / DROP_BEARINGS
            ux, uy = math.cos(math.radians(bearing)), math.sin(math.radians(bearing))
            # walk out from the centre until the disc's edge is ``gap`` from the outline
            lo, hi = 0.0, 2000.0
            for _ in range(40):
                mid = (lo + hi) / 2.0
                if point_gap(poly, (cx + ux * mid, cy + uy * mid)) < gap + radius:
                    lo = mid
                else:
                    hi = mid
            p = (cx + ux * hi, cy + uy * hi)
            if point_gap(poly, p) - radius > reach + 1e-6:
                continue
            if not disc_clear(state, p, radius):
                continue
            if any(math.dist(p, q) < 2 * radius - 1e-6 for q in taken):
                continue
            out[f"{int(bearing)}deg {int(gap)}mm"] = p
    return out


ARENA_PIECES = 6
"""Pieces of terrain on a generated arena (Saturday Night Live)."""
WASTELAND_PIECES = 7
"""Pieces of terrain on a generated wasteland (the Wasteland Skirmishes)."""


def circle(centre: Point, radius: float, n: int = 24) -> tuple[Point, ...]:
    """A polygon of ``n`` points on the circle (to draw a zone)."""
    return tuple((centre[0] + radius * math.cos(2 * math.pi * k / n),
                  centre[1] + radius * math.sin(2 * math.pi * k / n)) for k in range(n))


GOAL_GRID = 60.0
"""Bot goals at moving things are snapped to this grid (mm), so the bot's distance fields,
cached by goal, are reused while the target stays near."""


def point_goal(v: VehicleState, p: Point) -> Line:
    """A bot goal at point ``p`` (a zero-length line), reached from ``v``'s side."""
    gx = round(p[0] / GOAL_GRID) * GOAL_GRID
    gy = round(p[1] / GOAL_GRID) * GOAL_GRID
    dx, dy = gx - v.pose.x, gy - v.pose.y
    n = math.hypot(dx, dy)
    normal = (0.0, 1.0) if n < 1e-9 else (dx / n, dy / n)
    return Line((gx, gy), (gx, gy), normal)


COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Teal")


def skirmish_teams(players: int, label: str) -> tuple[TeamSpec, ...]:
    """Default teams when the players bring none: a Car and a Buggy each, both with a front
    machine gun (as Street Race's, p.62)."""
    teams = []
    for p in range(players):
        colour = COLOURS[p % len(COLOURS)] + ("" if p < len(COLOURS) else f" {p + 1}")
        teams.append(parse_team({
            "name": f"{colour} {label}",
            "cans": 25,
            "vehicles": [
                {"name": f"{colour} Car", "type": "car",
                 "weapons": [{"id": "machine_gun", "facing": "front"}]},
                {"name": f"{colour} Buggy", "type": "buggy",
                 "weapons": [{"id": "machine_gun", "facing": "front"}]},
            ],
        }, f"{label.lower()} team {p + 1}"))
    return tuple(teams)


# -- Televised Season spoils (G-16), as data for the campaign layer ------------------------------
@dataclass(frozen=True)
class Spoils:
    """What a Wasteland Skirmish pays each team in Cans after the game in a Televised Season:
    for each ``unit`` of ``tally`` it holds, ``dice`` D6 plus ``per_unit``; at most ``cap``
    Cans in all (None: no cap). The campaign layer rolls the dice; the scenario only says."""

    tally: str
    unit: str
    per_unit: int = 0
    dice: int = 0
    cap: int | None = None
    page: int | None = None

    def formula(self, units: int) -> str:
        """The Cans due for ``units`` in words: ``"3D6+3 Cans (at most 20)"``."""
        parts = []
        if self.dice:
            parts.append(f"{self.dice * units}D6")
        if self.per_unit or not self.dice:
            parts.append(str(self.per_unit * units))
        text = "+".join(parts) + " Cans"
        return text + (f" (at most {self.cap})" if self.cap is not None else "")

    def to_json(self) -> dict[str, object]:
        return {"tally": self.tally, "unit": self.unit, "per_unit": self.per_unit,
                "dice": self.dice, "cap": self.cap, "page": self.page}


def spoils_rows(game: Game, spoils: Spoils, held: dict[int, int]) -> list[ReportRow]:
    """One report row per side: the spoils its holdings would pay now."""
    from carnage.games.refuelled.scenarios.common import score

    return [ReportRow(f"spoils_{score.side_label(game, s).lower().replace(' ', '_')}",
                      f"{score.side_label(game, s)} Televised spoils", n,
                      f"{n} {spoils.unit}(s): {spoils.formula(n)}")
            for s, n in sorted(held.items())]


