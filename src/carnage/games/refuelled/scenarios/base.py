"""What a playable scenario adds to the engine's ``Scenario``: a table, terrain, default
teams and a goal for bots (Refuelled pp.62, 122-151)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any, ClassVar

from carnage.games.refuelled.engine.scenario import Scenario
from carnage.games.refuelled.engine.scenario_view import Drawable
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.geometry.convex import convex_hull
from carnage.geometry.shapes import Point, Pose, Rect, penetration
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    import random

    from carnage.games.refuelled.engine.game import Game
    from carnage.kernel.decisions import Decision
    from carnage.kernel.ruleset import Ruleset
    from carnage.team import TeamReport

TELEVISED = "Televised Event"
SKIRMISH = "Wasteland Skirmish"
SPECIAL = "Special Event"
TABLES = (TELEVISED, SKIRMISH, SPECIAL)
"""The three scenario tables of Refuelled p.122 (G-03)."""


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
        return math.hypot(self.b[0] - self.a[0], self.b[1] - self.a[1])

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
        return math.degrees(math.atan2(self.normal[1], self.normal[0])) % 360.0

    def touches(self, polygon: Sequence[Point], tol: float = 1e-6) -> bool:
        """Does the convex ``polygon`` touch or overlap the segment between the markers?"""
        return penetration(list(polygon), [self.a, self.b]) >= -tol

    def drawable(self, id: str, label: str, style: str = "") -> Drawable:
        """The line as a table mark: from ``a`` to ``b``, crossed along ``normal``."""
        return Drawable(id, "line", (self.a, self.b), label=label, direction=self.normal,
                        style=style)


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
        pieces = [Rect(p, length, width).polygon() for p in poses[:1]] + [
            convex_hull([*Rect(p0, length, width).polygon(), *Rect(p1, length, width).polygon()])
            for p0, p1 in pairwise(poses)]
        return any(penetration(piece, dot) >= 0.0 for piece in pieces)
    nx, ny = line.normal
    (ax, ay), (bx, by) = line.a, line.b
    ux, uy = line.along
    reach = math.hypot(length, width) / 2.0 + 1e-6
    lo_n = min(ax * nx + ay * ny, bx * nx + by * ny) - reach
    hi_n = max(ax * nx + ay * ny, bx * nx + by * ny) + reach
    lo_u = min(ax * ux + ay * uy, bx * ux + by * uy) - reach
    hi_u = max(ax * ux + ay * uy, bx * ux + by * uy) + reach
    def side(v: float, lo: float, hi: float) -> int:
        return -1 if v < lo else (1 if v > hi else 0)

    # Which side of the segment's reach each centre lies, across and along the line: a pair
    # of bodies both wholly to one side cannot touch the segment.
    sides = [
        (side(p.x * nx + p.y * ny, lo_n, hi_n), side(p.x * ux + p.y * uy, lo_u, hi_u))
        for p in poses
    ]
    for i, (p0, p1) in enumerate(pairwise(poses)):
        (n0, u0), (n1, u1) = sides[i], sides[i + 1]
        if (n0 == n1 != 0) or (u0 == u1 != 0):
            continue
        if (p1.x - p0.x) * nx + (p1.y - p0.y) * ny <= 1e-9:
            continue
        swept = convex_hull(
            [*Rect(p0, length, width).polygon(), *Rect(p1, length, width).polygon()]
        )
        if line.touches(swept):
            return True
    return False


class TableScenario(Scenario):
    """A scenario that lays out its own table: size, terrain, default teams, bot goal."""

    width = 900.0
    height = 1200.0
    min_players = 2
    max_players: int | None = None
    """None: no upper limit."""
    summary = ""
    """One line in our own words (``carnage scenarios``, the lobby)."""
    table: str | None = None
    """The random table of p.122 the scenario is on (``TELEVISED``, ``SKIRMISH``,
    ``SPECIAL``), None for none (Street Race)."""
    table_rolls: tuple[int, ...] = ()
    """The D6 results that pick it on its table (G-03)."""
    options_schema: ClassVar[dict[str, tuple[type, Any]]] = {}
    """Scenario variants a ``GameSetup.scenario_options`` may set: name -> (type, default)
    (e.g. Flag Tag's ``{"volatile_flags": (bool, False)}``)."""

    round_limit: int | None = None
    """G-14: the game ends at the end of this round and ``final_scores`` decides it."""
    tie_breaks: tuple[str, ...] = ("vehicles_in_play", "hull_left")
    """Ruling SC-4: what separates sides tied on score (common/victory.py)."""
    scarper = False
    bot_gear: int | None = None
    """The highest gear heuristic bots aim for here (None: their own choice)."""
    """G-13: a disqualified vehicle is not destroyed and keeps what it carries."""

    def check_end_at(self, game: Game, moment: str) -> None:
        super().check_end_at(game, moment)
        st = game.state
        if (moment == "gear_phase_end" and self.round_limit is not None and not st.finished
                and st.round >= self.round_limit and st.gear_phase >= 6):
            self.final_scores(game)

    def final_scores(self, game: Game) -> None:
        """The end of the game at the round limit: by default the side with the most Victory
        Points wins (common/victory.py ``decide``; ties by ruling SC-4)."""
        from carnage.games.refuelled.scenarios.common import score, victory

        victory.decide(game, score.side_totals(game, score.VP),
                       f"most Victory Points after {self.round_limit} rounds",
                       tie_breaks=self.tie_breaks, source=self.id.replace("-", "_"),
                       page=self.page)

    def lay_out(self, state: GameState) -> None:
        """Put the scenario's fixed terrain on ``state`` (called once, before the game
        starts, unless a table laid out by hand is loaded)."""

    def generate(self, state: GameState, rng: random.Random) -> None:
        """Lay out the table from ``rng`` (a ``random.Random`` seeded from the game's table
        seed, ``state.scenario["table_seed"]``, so a replay lays out the same table). The
        default lays out the fixed terrain of ``lay_out``. Scenario options are in
        ``state.scenario["options"]`` already."""
        self.lay_out(state)

    def check_team(self, spec: TeamSpec, who: str, ruleset: Ruleset | None = None) -> TeamReport:
        """The team's report for this scenario; ``SetupError`` if it is not legal here. The
        default is the builder's rules (``rulesets.setup.checked_team``); a scenario that sets
        its own team composition (M-32) overrides it."""
        from carnage.games.refuelled.setup import checked_team

        return checked_team(spec, who, ruleset)

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        """The scenario's advice for a decision it asks (which flag to set down, where to put
        a spawn point): a legal option value, or None to let the bot decide as usual. Bots
        ask this first (ai/bots.py). The default advises on spawn points (common/spawn.py);
        call ``super().bot_choice`` for decisions you do not advise on."""
        from carnage.games.refuelled.scenarios.common.spawn import spawn_advice

        return spawn_advice(game, decision)

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        """Teams the scenario prescribes when the players bring none."""
        return ()

    def move_penalty(self, game: Game, vehicle: VehicleState, pose: Pose) -> float:
        """How much worse it is, for bots, that ``vehicle`` ends a move at ``pose`` (in the
        reach of a turret ...); 0 by default. Subtracted from the heuristic bot's score."""
        return 0.0

    def goal_targets(self, state: GameState, vehicle: VehicleState) -> frozenset[str]:
        """Obstacles or vehicles ``vehicle`` should drive into (a rival's flag, for bots):
        touching one counts as reaching the goal, and bots' routes do not go round them."""
        return frozenset()

    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """Where ``vehicle`` is heading, for bots; None when the scenario has no place to go."""
        return None
