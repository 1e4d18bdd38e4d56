"""Arena of Death, a Televised Event (Refuelled p.130).

Players roll off for Pole Position, passed clockwise after every Gear Phase. In Pole order
each places a spawn point and then deploys all their vehicles within Short of it (the shared
spawn-point pattern, scenarios/common/spawn.py). Then 2D6 gun turrets go down, one per
player in Pole order until all are placed, anywhere not touching a vehicle, terrain or a spawn
point (ruling AOD-3), offered as the points of a grid (``TURRET_GRID``). Nobody may respawn in
this game, by votes or any other rule (AOD-6). Gun turrets (scenarios/emplacements.py)
shoot the first vehicle each Gear Phase to end its Movement Step within Medium of them and can
be shot down (4 Hull Points) or rammed away. The game is judged only at the end of a Gear
Phase: one player (side) left with vehicles in play wins; nobody left is a draw (AOD-7).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.scenarios.arena import arena_terrain, grid_points
from carnage.games.refuelled.scenarios.base import TELEVISED, Line, TableScenario
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.common.spawn import (
    SPAWN_DIAMETER,
    SpawnPoints,
    deploy_at_spawn_points,
    place_spawn_points,
    spawn_option_poses,
    spawn_points,
)
from carnage.games.refuelled.scenarios.common.tokens import disc
from carnage.games.refuelled.scenarios.emplacements import (
    GUN_TURRET,
    TURRET_SIZE,
    add_turret,
    clear_of,
    cover_penalty,
    install_emplacements,
    solids,
    turret_drawables,
    turret_shot_pick,
    turrets,
)
from carnage.geometry.shapes import Point, Pose, Rect
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.team import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

PAGE = 130
SOURCE = "arena_of_death"
TURRET_GRID = 60.0
"""Pitch (mm) of the grid of places offered for a gun turret (AOD-3)."""
NO_RESPAWN = "arena_of_death:no_respawn"

__all__ = ["ArenaOfDeath", "turret_places"]


def turret_places(game: Game) -> dict[str, Point]:
    """Where a gun turret may go now: grid points whose 30 mm footprint lies on the table and
    touches no vehicle, terrain (turrets included), dropped template or spawn point (AOD-3)."""
    st = game.state
    spawns = [disc(c, SPAWN_DIAMETER) for c in spawn_points(st).values()]
    others = solids(game, spawns)

    def ok(p: Point) -> bool:
        poly = Rect(Pose(p[0], p[1], 0.0), TURRET_SIZE, TURRET_SIZE).polygon()
        return clear_of(game, poly, others=others)

    return grid_points(st, TURRET_GRID, ok)


class ArenaOfDeath(SpawnPoints, RollOffPole, TableScenario):
    id = "arena-of-death"
    name = "Arena of Death"
    page = PAGE
    width = 900.0
    height = 1200.0
    summary = ("A demolition derby under 2D6 automatic gun turrets: no respawns, the last "
               "player with vehicles in play at the end of a Gear Phase wins.")
    how_to_win = ("Judged at the end of each Gear Phase: the last player (or side) with "
                  "vehicles in play wins; if nobody is left it is a draw.")
    special_rules = (
        BriefRule("Gun turrets",
                  ("2D6 automatic turrets are placed by the players; each shoots the first "
                   "vehicle a Gear Phase that ends its move within Medium of it, and can be "
                   "shot or rammed away."),
                  refuelled(130)),
        BriefRule("No respawns",
                  ("Nothing brings a wrecked vehicle back in this game, not even Audience "
                   "Votes."),
                  refuelled(130)),
        BriefRule("Spawn points",
                  "Each player deploys within Short of their own spawn point.",
                  refuelled(130)),
    )
    score_title = "Vehicles in play"
    score_target = "last one driving"
    table = TELEVISED
    table_rolls = (3,)
    end_checks = frozenset({"gear_phase_end"})

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        """Normal teams (p.130); with none brought, Street Race's Car and Buggy each with a
        front machine gun (p.62)."""
        from carnage.games.refuelled.scenarios.street_race import StreetRace

        return StreetRace().default_teams(players)

    # -- the table -------------------------------------------------------------------------------
    def generate(self, state: GameState, rng: random.Random) -> None:
        arena_terrain(state, rng)

    def lay_out(self, state: GameState) -> None:
        arena_terrain(state, random.Random(0))

    # -- set-up ------------------------------------------------------------------------------------
    def install(self, game: Game) -> None:
        install_emplacements(game)

        def no_respawn(value: Any, ctx: dict[str, Any]) -> Any:
            return False  # no respawning of any kind in this game (p.130; AOD-6)

        # Last of all, so no sponsor or perk may widen it again.
        game.effects.on("may_respawn", NO_RESPAWN, no_respawn, priority=-1000)

    def setup(self, game: Game) -> Flow:
        st = game.state
        st.pole = self.roll_off(game)
        yield from place_spawn_points(game, source=SOURCE, page=PAGE)
        yield from deploy_at_spawn_points(game, source=SOURCE, page=PAGE)
        dice = game.roll(2, "gun turrets", source=SOURCE, page=PAGE)
        count = sum(dice)
        game.emit("gun_turrets", source=SOURCE, page=PAGE, count=count)
        # "Players (or teams)": in a team game each side places in turn, by the seat of it
        # that comes first in Pole order (AOD-3).
        order: list[int] = []
        for p in st.clockwise_from(st.pole):
            if score.side_of(game, p) not in {score.side_of(game, q) for q in order}:
                order.append(p)
        for i in range(count):
            p = order[i % len(order)]
            places = turret_places(game)
            if not places:
                game.emit("turret_skipped", source=SOURCE, page=PAGE, player=p,
                          reason="no free place on the table")
                break
            pick = yield ask(p, "turret_place",
                             f"Arena of Death: place gun turret {i + 1} of {count}",
                             [(k, f"gun turret at {k} mm") for k in places],
                             source=SOURCE, page=PAGE)
            add_turret(game, GUN_TURRET, places[str(pick)], player=p, source=SOURCE, page=PAGE)

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        return spawn_option_poses(game, decision.vehicle, decision.kind,
                                  [o.value for o in decision.options])

    # -- what the table shows --------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        return [*self.spawn_drawables(game), *turret_drawables(game)]

    def report(self, game: Game) -> list[ReportRow]:
        st = game.state
        rows = []
        for p in range(st.players):
            n = sum(1 for v in st.in_play() if v.player == p and self.counts(game, v))
            rows.append(ReportRow(f"in_play_p{p + 1}", f"P{p + 1} vehicles in play", n,
                                  f"{n} in play"))
        left = turrets(game)
        rows.append(ReportRow("gun_turrets", "Gun turrets standing", len(left),
                              f"{len(left)} standing"))
        return rows

    # -- bots -------------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """Hunt: the nearest enemy vehicle in play (a point goal), driven to round terrain."""
        enemies = [o for o in state.in_play() if o.player != vehicle.player
                   and 0 <= o.pose.x <= state.width and 0 <= o.pose.y <= state.height]
        if not enemies:
            return None
        e = min(enemies, key=lambda o: (math.hypot(o.pose.x - vehicle.pose.x,
                                                   o.pose.y - vehicle.pose.y), o.id))
        p = (round(e.pose.x / 30.0) * 30.0, round(e.pose.y / 30.0) * 30.0)
        return Line(p, p, (0.0, 1.0))

    has_move_penalty = True
    move_penalty_only_costs = True  # attack dice times a positive cost

    def move_penalty(self, game: Game, vehicle: VehicleState, pose: Pose) -> float:
        """Bots take cover: a move ending in a turret's reach and line of fire costs."""
        return cover_penalty(game, vehicle, pose)

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        if decision.kind == "turret_place":
            return _turret_pick(game, decision)
        if decision.kind == "attack":
            return turret_shot_pick(game, decision)
        return super().bot_choice(game, decision)


def _turret_pick(game: Game, decision: Decision) -> Any:
    """Put the turret where it threatens the enemies most and oneself least: nearest the
    enemies' vehicles for the distance from one's own."""
    st = game.state
    mine = [v for v in st.in_play() if v.player == decision.player]
    theirs = [v for v in st.in_play() if v.player != decision.player]
    if not theirs:
        return None

    def value(k: str) -> tuple[float, str]:
        x, y = (float(c) for c in k.split(","))
        near_them = min(math.hypot(v.pose.x - x, v.pose.y - y) for v in theirs)
        near_me = min((math.hypot(v.pose.x - x, v.pose.y - y) for v in mine), default=1e9)
        return (near_them - min(near_me, 400.0), k)

    keys = [str(o.value) for o in decision.options]
    return min(keys, key=value) if keys else None
