"""Flag Tag, a Televised Event (Refuelled p.132).

Arena terrain; roll off for Pole Position, passed clockwise after each Gear Phase; spawn
points and deployment within Short of them (common/spawn.py); respawn at your own spawn
point. Each player then puts a flag within Medium of their own spawn point and more than Medium
from every table edge. Flags are Lightweight Destructible obstacles (30 mm); a vehicle that
collides with another player's flag scores its controller 1 Victory Point, and the flag goes
(it is Destructible). At the start of every Gear Phase each player with no flag on the table
puts it back under the same limits. The first player to 3 VP wins at once. Variant
(``volatile_flags``): Middleweight Volatile flags.

Rulings: FT-1 (A-14) when no point within Medium of the spawn point is more than Medium from
every edge, the flag goes at the points within Medium of the spawn point farthest from the
edges (within ``GRID`` mm of the best); FT-2 a flag is placed clear of terrain, vehicles and
other flags, square to the table; FT-3 (A-15) ramming your own flag (or a teammate's) removes it
and scores nothing; FT-4 in a team game "another player's flag" is a flag of another side and
VP go to the side (G-04e); FT-5 the last player with vehicles in play does not win by that
alone; once no vehicle is in play and none can come back, the most VP win (SC-4 for ties);
FT-6 flags are put back in Pole order.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, ClassVar

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.scenarios.base import TELEVISED, Line, TableScenario
from carnage.games.refuelled.scenarios.common import score, spawn, victory
from carnage.games.refuelled.scenarios.common.gaps import SLACK, disc_gap_bounds
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.common.spawn import SpawnPoints
from carnage.games.refuelled.scenarios.common.table import scatter_terrain
from carnage.games.refuelled.scenarios.common.tokens import TOKEN_SIZE, flag_obstacle
from carnage.geometry.shapes import Point, distance, overlaps
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.render.svg import seat_name

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import GameState, VehicleState
    from carnage.geometry.shapes import Pose
    from carnage.kernel.decisions import Decision
    from carnage.team.model import TeamSpec

PAGE = 132
SOURCE = "flag_tag"
TO_WIN = 3
GRID = 20.0
"""Pitch (mm) of the candidate flag places."""
KEY = "flag_owners"
"""``state.scenario[KEY]``: flag obstacle id -> owner seat."""


def flag_id(player: int) -> str:
    return f"flag-p{player + 1}"


class FlagTag(SpawnPoints, RollOffPole, TableScenario):
    id = "flag-tag"
    name = "Flag Tag"
    page = PAGE
    min_players = 2
    max_players = None
    summary = ("Each player guards a flag near their spawn point; ram a rival's flag for a "
               "Victory Point, and the first to 3 VP wins.")
    how_to_win = "Ram another player's flag for 1 VP; the first to 3 VP wins at once."
    special_rules = (
        BriefRule("Flags",
                  ("Each player puts a flag within Medium of their own spawn point, away from "
                   "the edges; a flag is a small obstacle that breaks when hit."),
                  refuelled(132)),
        BriefRule("Back again",
                  ("At the start of every Gear Phase each player whose flag is gone puts it "
                   "back."),
                  refuelled(132)),
        BriefRule("Spawn points",
                  ("Each player deploys within Short of their own spawn point and respawns "
                   "there."),
                  refuelled(132)),
    )
    score_title = "Victory Points"
    score_target = "first to 3 VP"
    score_tallies = (("vp", "VP"),)
    table = TELEVISED
    table_rolls = (5,)
    options_schema: ClassVar[dict[str, tuple[type, Any]]] = {"volatile_flags": (bool, False)}
    bot_gear = 3

    # -- the table and the teams ---------------------------------------------------------------
    def generate(self, state: GameState, rng: random.Random) -> None:
        scatter_terrain(state, rng, 6, margin=200.0)

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        from carnage.games.refuelled.scenarios.street_race import StreetRace

        return StreetRace().default_teams(players)

    # -- set-up ----------------------------------------------------------------------------------
    def install(self, game: Game) -> None:
        game.effects.on("logged:collision_end", f"scenario:{self.id}", self._collided)

    def setup(self, game: Game) -> Flow:
        st = game.state
        st.pole = self.roll_off(game)
        yield from spawn.place_spawn_points(game, source=SOURCE, page=PAGE)
        yield from spawn.deploy_at_spawn_points(game, source=SOURCE, page=PAGE)
        yield from self.place_flags(game)

    def flag_places(self, game: Game, player: int) -> dict[str, Point]:
        """Where ``player``'s flag may go (FT-1, FT-2), by label ``"x,y"``."""
        st = game.state
        centre = spawn.spawn_point(st, player)
        if centre is None:
            return {}
        medium = spawn.band(game, "medium")
        r = spawn.SPAWN_DIAMETER / 2.0
        disc = spawn._disc(centre, r)
        rr = r / math.cos(math.pi / len(disc))  # the circle through the disc's corners
        half = TOKEN_SIZE / 2.0
        reach = medium + spawn.SPAWN_DIAMETER / 2.0 + TOKEN_SIZE
        blockers = [o.polygon() for o in st.obstacles.values()]
        blockers += [r.polygon() for v in st.in_play() if v.pose.x >= 0 and v.pose.y >= 0
                     for _, r in v.bodies()]
        scored: list[tuple[float, str, Point]] = []
        steps = int(reach // GRID)
        for i in range(-steps, steps + 1):
            for j in range(-steps, steps + 1):
                c = (centre[0] + i * GRID, centre[1] + j * GRID)
                if not (half <= c[0] <= st.width - half and half <= c[1] <= st.height - half):
                    continue
                poly = flag_obstacle("probe", c).polygon()
                # ``distance(poly, disc) > medium + 1e-9``, settled by the disc's circles
                # where they can (``disc_gap_bounds``)
                low, high = disc_gap_bounds(centre, r, rr, poly)
                if low > medium + 1e-9 + SLACK or (
                        high >= medium + 1e-9 - SLACK and distance(poly, disc) > medium + 1e-9):
                    continue
                if any(overlaps(poly, b, 1e-6) for b in blockers):  # penetration >= -1e-6
                    continue
                edge = min(c[0], c[1], st.width - c[0], st.height - c[1]) - half
                scored.append((edge, f"{c[0]:.0f},{c[1]:.0f}", c))
        legal = {k: c for e, k, c in scored if e > medium + 1e-9}
        if legal or not scored:
            return legal
        best = max(e for e, _, _ in scored)
        return {k: c for e, k, c in scored if e >= best - GRID}

    def place_flags(self, game: Game) -> Flow:
        """In Pole order (FT-6), each player with no flag on the table puts it down."""
        st = game.state
        owners: dict[str, int] = st.scenario.setdefault(KEY, {})
        volatile = bool(st.scenario.get("options", {}).get("volatile_flags", False))
        for p in st.clockwise_from(st.pole):
            if flag_id(p) in st.obstacles or not any(v.player == p and v.in_team
                                                      for v in st.vehicles.values()):
                continue
            places = self.flag_places(game, p)
            if not places:
                game.emit("flag_unplaced", source=SOURCE, page=PAGE, player=p,
                          reason="no room near the spawn point")
                continue
            pick = yield ask(p, "flag_place", "Where does your flag go?",
                             [(k, f"flag at {k} mm") for k in places], source=SOURCE,
                             page=PAGE)
            at = places[str(pick)]
            ob = flag_obstacle(flag_id(p), at, volatile=volatile)
            st.obstacles[ob.id] = ob
            owners[ob.id] = p
            game.emit("flag_placed", source=SOURCE, page=PAGE, player=p, obstacle=ob.id,
                      x=round(at[0], 3), y=round(at[1], 3), volatile=volatile)

    # -- play ------------------------------------------------------------------------------------
    def gear_phase_start(self, game: Game) -> Flow:
        yield from self.place_flags(game)

    def _collided(self, value: Any, ctx: dict[str, Any]) -> None:
        game: Game = ctx["game"]
        data = ctx["data"]
        st = game.state
        oid = str(data.get("other"))
        owners: dict[str, int] = st.scenario.get(KEY, {})
        if oid not in owners or oid in st.obstacles or st.finished:
            return  # not a flag, or it is still there
        owner = owners.pop(oid)
        v = st.vehicles.get(str(data.get("vehicle")))
        if v is None:
            return
        if (score.side_of(game, v.player) == score.side_of(game, owner) or not v.in_team
                or not v.in_contention):
            game.emit("flag_lost", source=SOURCE, page=PAGE, player=owner, vehicle=v.id,
                      reason="rammed by its own side (FT-3)" if v.in_team and v.in_contention
                      else "not a scorer" if v.in_contention
                      else "rammed by a wreck skidding to a halt (SC-44)")
            return
        pts = score.add(game, score.VP, 1, player=v.player, source=SOURCE, page=PAGE,
                        reason=f"rammed P{owner + 1}'s flag")
        if pts >= TO_WIN:
            game.finish(score.side_of(game, v.player), f"{TO_WIN} Victory Points first")

    def check_end(self, game: Game) -> None:
        """Ruling FT-5: only VP win; with no vehicle in play and none able to come back, the
        most VP win."""
        from carnage.games.refuelled.engine.votes import respawn_candidates

        st = game.state
        if any(self.counts(game, v) for v in st.in_play()):
            return
        if not any(respawn_candidates(game, p) for p in range(st.players)):
            victory.decide(game, score.side_totals(game, score.VP),
                           "most Victory Points when no vehicle could play on",
                           tie_breaks=self.tie_breaks, source=SOURCE, page=PAGE)

    # -- bots ------------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """Just short of the nearest flag of another side, on the side facing the vehicle."""
        owners: dict[str, int] = state.scenario.get(KEY, {})
        allied = {vehicle.player}
        sides = state.scenario.get("sides") or []
        for side in sides:
            if vehicle.player in side:
                allied = set(side)
        here = (vehicle.pose.x, vehicle.pose.y)
        rivals = [state.obstacles[oid] for oid, p in sorted(owners.items())
                  if p not in allied and oid in state.obstacles]
        if not rivals:
            return None
        ob = min(rivals, key=lambda o: (math.hypot(o.pose.x - here[0], o.pose.y - here[1]),
                                        o.id))
        dx, dy = ob.pose.x - here[0], ob.pose.y - here[1]
        n = math.hypot(dx, dy) or 1.0
        k = TOKEN_SIZE / 2.0 + 1.0
        p = (ob.pose.x - dx / n * k, ob.pose.y - dy / n * k)
        return Line(p, p, (dx / n, dy / n))

    def goal_targets(self, state: GameState, vehicle: VehicleState) -> frozenset[str]:
        """The flags of other sides: bots ram them."""
        goal = self.goal(state, vehicle)
        owners: dict[str, int] = state.scenario.get(KEY, {})
        if goal is None:
            return frozenset()
        near = min((oid for oid in owners if oid in state.obstacles),
                   key=lambda oid: math.hypot(state.obstacles[oid].pose.x - goal.a[0],
                                              state.obstacles[oid].pose.y - goal.a[1]))
        return frozenset({near})

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        if decision.kind == "flag_place":
            # As near the table centre as the limits allow: out in the open, clear of the
            # edges, where rivals can reach it (and games between bots come to an end).
            st = game.state
            values = [str(o.value) for o in decision.options]
            return min(values, key=lambda k: (math.hypot(float(k.split(",")[0]) - st.width / 2,
                                                         float(k.split(",")[1]) - st.height / 2),
                                              k))
        return super().bot_choice(game, decision)

    # -- what the table shows --------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        st = game.state
        owners: dict[str, int] = st.scenario.get(KEY, {})
        flags = [Drawable(oid, "token", ((st.obstacles[oid].pose.x, st.obstacles[oid].pose.y),),
                          label=f"{seat_name(p)} flag", owner=p, style="flag")
                 for oid, p in sorted(owners.items()) if oid in st.obstacles]
        return self.spawn_drawables(game) + flags

    def report(self, game: Game) -> list[ReportRow]:
        rows = score.report_rows(game, score.VP)
        st = game.state
        won = st.winner if st.finished and "Victory Points first" in st.reason else None
        rows.append(ReportRow("three_vp", "First to 3 VP", won,
                              "nobody yet" if won is None else score.side_label(game, won),
                              tally=True))
        return rows

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        return spawn.spawn_option_poses(game, decision.vehicle, decision.kind,
                                        [o.value for o in decision.options])
