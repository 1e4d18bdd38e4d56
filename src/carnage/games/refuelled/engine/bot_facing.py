"""What a scenario offers the bots, and what a bot offers a scenario (the bot-facing part of
a scenario, declared once).

A scenario tells bots where each vehicle is heading (``goal``, a ``Line``), what it should drive
into (``goal_targets``), what a move ending at a pose costs (``move_penalty``, declared by
``has_move_penalty``), the highest gear to aim for (``bot_gear``) and its advice on a decision
(``bot_choice``): a legal option value, ``Among`` (the bot's own pick among some options), or
None. ``BotFacing`` is that interface; the engine's ``Scenario`` implements it with neutral
defaults and every scenario overrides what it needs. Bots read it; they never test a scenario's
class or whether a method was overridden. A scenario never makes or keeps a bot of its own.

``Line`` and ``crosses`` (ruling SR-1) are the goal and finish lines both scenarios and bots
measure with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import atan2, degrees, hypot
from typing import TYPE_CHECKING, Protocol

from mypy_extensions import mypyc_attr

from carnage.games.refuelled.engine.scenario_view import Drawable
from carnage.geometry.convex import convex_hull
from carnage.geometry.shapes import Point, Pose, Rect, overlaps, penetration
from carnage.kernel.decisions import Option

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import GameState, VehicleState
    from carnage.kernel.decisions import Decision

Choice = str | int | float
"""A decision's answer: an option value, or a number within its domain."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Line:
    """A line between two markers (flags, gate posts) crossed in the direction ``normal``."""

    a: Point
    b: Point
    normal: Point
    """Unit vector: the way a vehicle must travel to cross this line."""

    @property
    def centre(self) -> Point:
        return ((self.a[0] + self.b[0]) / 2.0, (self.a[1] + self.b[1]) / 2.0)

    @property
    def length(self) -> float:
        return hypot(self.b[0] - self.a[0], self.b[1] - self.a[1])

    @property
    def along(self) -> Point:
        """Unit vector from ``a`` to ``b`` (a point goal, of zero length: square to its
        ``normal``)."""
        n = self.length
        if n < 1e-9:
            return (-self.normal[1], self.normal[0])
        return ((self.b[0] - self.a[0]) / n, (self.b[1] - self.a[1]) / n)

    def heading(self) -> float:
        """Heading (degrees) of travel across the line."""
        return degrees(atan2(self.normal[1], self.normal[0])) % 360.0

    def touches(self, polygon: Sequence[Point], tol: float = 1e-6) -> bool:
        """Does the convex ``polygon`` touch or overlap the segment between the markers?"""
        return penetration(list(polygon), [self.a, self.b]) >= -tol

    def drawable(self, id: str, label: str, style: str = "") -> Drawable:
        """The line as a table mark: from ``a`` to ``b``, crossed along ``normal``."""
        return Drawable(id, "line", (self.a, self.b), label=label, direction=self.normal,
                        style=style)


def _side(v: float, lo: float, hi: float) -> int:
    """Below ``lo`` (-1), above ``hi`` (1) or between (0): ``crosses``' test of a centre
    (a module function: compiled, a nested one is a closure object called generically)."""
    return -1 if v < lo else (1 if v > hi else 0)


def crosses(line: Line, poses: Sequence[Pose], length: float, width: float) -> bool:
    """Ruling SR-1: a body moving through ``poses`` (in order, densely sampled along the way
    it actually went) crosses ``line`` when, between two consecutive poses that carry it
    towards the line's far side, the area it sweeps touches the segment between the
    markers. Turning on the spot never crosses."""
    if line.length < 1e-9:
        # A point goal (a zero-length line: a flag, a crate): reached when the body touches
        # it on the way, whichever way it travels.
        (px, py), e = line.a, 0.5
        dot = [(px - e, py - e), (px + e, py - e), (px + e, py + e), (px - e, py + e)]
        x0, y0, x1, y1 = px - e, py - e, px + e, py + e
        polys = [Rect(p, length, width).polygon() for p in poses]
        boxes = [(min(x for x, _ in q), min(y for _, y in q), max(x for x, _ in q),
                  max(y for _, y in q)) for q in polys]
        # The dot's sides lie along the axes, so its own axes measure exactly: a piece whose
        # corners all lie beyond one of its sides has a negative depth there, and
        # ``penetration(piece, dot) >= 0.0`` is False without building the piece.
        if polys and not (boxes[0][2] < x0 or boxes[0][0] > x1 or boxes[0][3] < y0
                          or boxes[0][1] > y1) and overlaps(polys[0], dot, 0.0):
            return True
        for i in range(len(polys) - 1):
            b0, b1 = boxes[i], boxes[i + 1]
            if (max(b0[2], b1[2]) < x0 or min(b0[0], b1[0]) > x1 or max(b0[3], b1[3]) < y0
                    or min(b0[1], b1[1]) > y1):
                continue
            if overlaps(convex_hull([*polys[i], *polys[i + 1]]), dot, 0.0):
                return True
        return False
    nx, ny = line.normal
    (ax, ay), (bx, by) = line.a, line.b
    ux, uy = line.along
    reach = hypot(length, width) / 2.0 + 1e-6
    lo_n = min(ax * nx + ay * ny, bx * nx + by * ny) - reach
    hi_n = max(ax * nx + ay * ny, bx * nx + by * ny) + reach
    lo_u = min(ax * ux + ay * uy, bx * ux + by * uy) - reach
    hi_u = max(ax * ux + ay * uy, bx * ux + by * uy) + reach
    # Which side of the segment's reach each centre lies, across and along the line: a pair
    # of bodies both wholly to one side cannot touch the segment. (Walked pose by pose, each
    # centre's sides worked out once and carried to the next pair: no list of pairs.)
    prev: Pose | None = None
    n0 = u0 = 0
    for p1 in poses:
        n1 = _side(p1.x * nx + p1.y * ny, lo_n, hi_n)
        u1 = _side(p1.x * ux + p1.y * uy, lo_u, hi_u)
        p0, m0, v0 = prev, n0, u0
        prev, n0, u0 = p1, n1, u1
        if p0 is None or (m0 == n1 != 0) or (v0 == u1 != 0):
            continue
        if (p1.x - p0.x) * nx + (p1.y - p0.y) * ny <= 1e-9:
            continue
        swept = convex_hull(
            [*Rect(p0, length, width).polygon(), *Rect(p1, length, width).polygon()]
        )
        if line.touches(swept):
            return True
    return False


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Among:
    """A scenario's advice to choose among ``options`` only (a subset of the decision's): the
    bot answers the decision narrowed to them with its own judgement."""

    options: tuple[Option, ...]
    unless_off_table: bool = False
    """True: when the bot's pick among them would take its vehicle off the table, the advice
    is dropped and the bot chooses among all the options."""


Advice = Choice | Among | None
"""What ``bot_choice`` may answer: an option value, ``Among`` some options, or None (no
advice: the bot decides as usual)."""


class BotFacing(Protocol):
    """The part of a scenario bots read (see the module docstring)."""

    bot_gear: int | None
    """The highest gear heuristic bots aim for here (None: their own choice)."""
    has_move_penalty: bool
    """Whether ``move_penalty`` can be other than 0 (the heuristic bot's bounds on a move's
    score hold only without one, or with one that only costs)."""
    move_penalty_only_costs: bool
    """Whether ``move_penalty`` is never below 0: it only lowers a move's score, so the
    heuristic bot's bounds on a score (made without it) still hold."""

    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """Where ``vehicle`` is heading; None when the scenario has no place to go."""
        ...

    def goals_reached(self, state: GameState, vehicle: VehicleState) -> int:
        """How many of its goals ``vehicle`` has reached so far (gates passed), each worth
        more than the way to the next."""
        ...

    def goal_targets(self, state: GameState, vehicle: VehicleState) -> frozenset[str]:
        """Obstacles or vehicles ``vehicle`` should drive into (a rival's flag): touching one
        counts as reaching the goal, and routes do not go round them."""
        ...

    def move_penalty(self, game: Game, vehicle: VehicleState, pose: Pose) -> float:
        """How much worse it is that ``vehicle`` ends a move at ``pose`` (in a turret's
        reach ...); 0 unless ``has_move_penalty``."""
        ...

    def bot_choice(self, game: Game, decision: Decision) -> Advice:
        """The scenario's advice on ``decision`` (see ``Advice``)."""
        ...

