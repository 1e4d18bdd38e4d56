"""Scenarios: set-up, deployment, pole position and victory (Refuelled pp.62, 122-151).

A scenario is installed into a game: it may register effects and it provides the set-up flow
and the end-of-phase and victory checks. Scenarios are found by id in ``SCENARIOS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from carnage.kernel.effects import CANCEL

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.bot_facing import Advice, Line
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset
    from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
    from carnage.games.refuelled.engine.state import GameState, VehicleState
    from carnage.geometry.shapes import Pose
    from carnage.kernel.decisions import Decision
    from carnage.team.model import TeamSpec


@dataclass(frozen=True)
class TeamDemand:
    """What a scenario accepts of the team in one seat, declared for drawing random teams
    (``Scenario.random_team``); the scenario's ``check_team`` and set-up still judge the team
    drawn."""

    types: frozenset[str] | None = None
    """The vehicle types the team may field (None: any the team builder allows)."""
    max_vehicles: int | None = None
    """At most this many vehicles (a starting grid's room)."""
    cans: int | None = None
    """The team's budget when the scenario sets it (None: the one asked for)."""
    team: TeamSpec | None = None
    """The team the scenario prescribes for this seat (a War Rig's Riggers, two Tanks)."""


class Scenario:
    """Base scenario: no deployment decisions, pole stays put, last player standing wins."""

    id = "skirmish"
    name = "Skirmish"
    page: ClassVar[int | None] = None
    bot_gear: int | None = None
    """For bots (``engine/bot_facing.py``): the highest gear to aim for (None: their own)."""
    has_move_penalty = False
    """For bots: True when ``move_penalty`` can be other than 0."""
    move_penalty_only_costs = False
    """For bots: True when ``move_penalty`` is never below 0 (it only lowers a move's score,
    so the heuristic bot's bounds on a score still hold with it)."""
    end_checks: frozenset[str] = frozenset({"step"})
    """When ``check_end`` runs (M-10): ``step`` (after set-up and after every step of an
    activation), ``gear_phase_end`` and/or ``gear_phase_start``."""

    def install(self, game: Game) -> None:
        """Register the scenario's effects on the game's hooks."""

    def setup(self, game: Game) -> Flow:
        """Deployment and anything else decided before round 1."""
        yield from ()

    def end_of_gear_phase(self, game: Game) -> Flow | None:
        """Called after each gear phase (e.g. passing pole position). It may be a flow (a
        generator asking decisions) or a plain method returning None."""
        return None

    def gear_phase_start(self, game: Game) -> Flow | None:
        """Called as each Gear Phase begins, after the ``gear_phase_start`` flow hook and
        before the pole acts (Flag Tag's flags, p.132). A flow, or a plain method."""
        return None

    def table_facts(self, game: Game, vehicle: VehicleState) -> Flow:
        """At a real table (companion mode, engine/table_facts.py), after ``vehicle``'s
        Movement Step: ask the people what the scenario needs to know of the move (a line
        crossed, a gate passed ...) and act on it as its own ``after_move`` handler would on
        the exact table. Nothing by default; on the exact table this is never asked."""
        yield from ()

    def check_end_at(self, game: Game, moment: str) -> None:
        """Run ``check_end`` if ``moment`` is one of ``end_checks`` (M-10)."""
        if moment in self.end_checks and not game.state.finished:
            self.check_end(game)

    # Pole moves and respawn placement go through the scenario so that
    # Audience Votes can hold the pole (Carpe Diem, p.90) and respawn vehicles (p.90).
    def move_pole(self, game: Game, to: int, reason: str, *, source: str,
                  page: int | None) -> bool:
        """Pass Pole Position to ``to`` through the ``pole_moves`` hook, which may hold it
        (Carpe Diem) or send it elsewhere (team games, p.123). False if it did not move."""
        st = game.state
        out = game.effects.run_event("pole_moves", to, {"game": game, "reason": reason})
        if out is CANCEL:
            return False
        st.pole = int(out) % st.players
        game.emit("pole", source=source, page=page, player=st.pole, reason=reason)
        return True

    respawns_where_wrecked = True
    """p.90: a wreck still on the table is turned back over where it lies. A scenario whose
    rule says where a respawned vehicle *must* come back (within Short of its controller's
    spawn point, G-11) sets this False (ruling SC-45): every respawned vehicle, a wreck on the
    table too, is then placed by ``respawn_positions`` and its wreck cleared away."""

    def respawn_positions(self, game: Game, vehicle: VehicleState) -> dict[str, Pose]:
        """Where a respawned vehicle that is not on the table as a wreck may be placed (p.90),
        by label. Base rule (ruling SP-1): where it last stood, if that spot is on the table
        and clear of every obstacle and vehicle in play; else nowhere."""
        from carnage.geometry.shapes import Rect, penetration

        st = game.state
        poly = Rect(vehicle.pose, vehicle.length, vehicle.width).polygon()
        if not all(0.0 <= x <= st.width and 0.0 <= y <= st.height for x, y in poly):
            return {}
        others = [ob.polygon() for ob in st.obstacles.values()]
        others += [r.polygon() for o in st.in_play() if o.id != vehicle.id
                   for _, r in o.bodies()]
        if any(penetration(poly, o) >= -1e-6 for o in others):
            return {}
        return {"where it last stood": vehicle.pose}

    # What the scenario shows (engine/scenario_view.py): tables and the CLI draw and print any
    # scenario from these, never from the scenario's own attributes.
    def drawables(self, game: Game) -> list[Drawable]:
        """The marks the scenario puts on the table now (lines, gates, zones, tokens ...)."""
        return []

    def report(self, game: Game) -> list[ReportRow]:
        """The scenario's progress now, row by row (who crossed the finish line ...)."""
        return []

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        """For a decision placing its vehicle (a starting grid), the pose each option puts it
        in, by option value; empty for other decisions."""
        return {}

    # What the scenario accepts of each seat's team (random teams draw from it).
    def team_demand(self, seat: int, players: int,
                    options: Mapping[str, Any] | None = None) -> TeamDemand:
        """What the team in ``seat`` may be (default: anything the team builder allows);
        ``options``: the scenario options of the game (who the Riggers are ...)."""
        return TeamDemand()

    def random_team(self, seed: str, cans: int, seat: int, players: int, *,
                    ruleset: RefuelledRuleset | None = None, sponsored: bool | None = None,
                    name: str | None = None,
                    options: Mapping[str, Any] | None = None) -> TeamSpec:
        """A random team for ``seat`` drawn from what ``team_demand`` accepts: the prescribed
        team, else a random legal team of the accepted types within the scenario's budget
        (``RandomTeamError`` if none can be drawn)."""
        from carnage.team.random_team import random_team

        demand = self.team_demand(seat, players, options)
        if demand.team is not None:
            return demand.team if name is None else demand.team.model_copy(
                update={"name": name})
        return random_team(seed, demand.cans if demand.cans is not None else cans, name=name,
                           catalog=None if ruleset is None else ruleset.catalog,
                           sponsored=sponsored, types=demand.types,
                           max_vehicles=demand.max_vehicles)

    def counts(self, game: Game, vehicle: VehicleState) -> bool:
        """Does ``vehicle`` count towards victory conditions? Not an RC Car (p.79), nor what
        the ``counts_for_victory`` hook rules out (a Ghost Rider, p.101)."""
        if not vehicle.in_team:
            return False
        fx = game.effects
        if not fx.checking and not fx.watched("counts_for_victory"):
            return True  # what the hook gives with no handler (checked contexts: run it)
        return fx.run_event("counts_for_victory", True,
                            {"game": game, "vehicle": vehicle}) is True

    def check_end(self, game: Game) -> None:
        """Default victory: one player left with vehicles in play wins (p.62's last clause)."""
        st = game.state
        fx = game.effects
        if type(self).counts is Scenario.counts and not fx.checking \
                and not fx.watched("counts_for_victory"):
            # ``counts`` as it stands, without a call per vehicle: a team vehicle counts
            alive = {v.player for v in st.in_play() if v.in_team}
        else:
            alive = {v.player for v in st.in_play() if self.counts(game, v)}
        if len(alive) == 1 and st.players > 1:
            game.finish(next(iter(alive)), "last player with vehicles in play")
        elif not alive:
            game.finish(None, "no vehicles left in play", draw=True)
        elif len(alive) > 1 and not game.effects.idle("allies"):
            # Team games (p.123): one side left wins, named by its first seat. (With no
            # ``allies`` handler each seat is a side of its own: no side is left alone.)
            first = min(alive)
            side = game.effects.run_event("allies", frozenset({first}),
                                          {"game": game, "player": first})
            if isinstance(side, frozenset | set) and alive <= side:
                game.finish(first, "last team with vehicles in play")

    # The bot-facing part (engine/bot_facing.py ``BotFacing``): neutral defaults.
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """Where ``vehicle`` is heading, for bots; None when the scenario has no place to go."""
        return None

    def goals_reached(self, state: GameState, vehicle: VehicleState) -> int:
        """How many of its goals ``vehicle`` has reached on its way (Death Race: gates
        passed; Capture the Flag: flags held), for bots valuing a position: reaching one
        moves ``goal`` on to the next, so the distance to the goal alone would count passing
        a gate as going back. 0 by default."""
        return 0

    def goal_targets(self, state: GameState, vehicle: VehicleState) -> frozenset[str]:
        """Obstacles or vehicles ``vehicle`` should drive into (a rival's flag, for bots):
        touching one counts as reaching the goal, and bots' routes do not go round them."""
        return frozenset()

    def move_penalty(self, game: Game, vehicle: VehicleState, pose: Pose) -> float:
        """How much worse it is, for bots, that ``vehicle`` ends a move at ``pose`` (in the
        reach of a turret ...); 0 by default. A scenario that overrides it sets
        ``has_move_penalty``."""
        return 0.0

    def bot_choice(self, game: Game, decision: Decision) -> Advice:
        """The scenario's advice on ``decision`` for bots; None: no advice."""
        return None
