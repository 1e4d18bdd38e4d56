"""Savage Highways, Scenario 3: Long Road Home (Refuelled pp.173-175; SH-30 to SH-36).

* **Set-up** (SH-30): a sparse seeded wasteland, every piece beyond Long of every edge; the
  Riggers attach exactly three upgrades (the ``upgrades`` option holds the campaign's
  re-attached ones and the three; played alone with none given, the Riggers choose three),
  and choose the entry edge (decision ``entry_edge``): the table is turned so that it is the
  bottom edge of the rolling road (rolling_road.py), the exit edge the top.
* **Deployment** (SH-31): the rig in the middle of the entry edge; the rest of the Riggers
  within Medium of it (facing up the road, on a grid, ruling SH-R1). The Gangers in seat
  order: each first vehicle touching the entry edge, the rest within Medium of it on that
  edge, none within Double of the rig. Every respawn touches the entry edge.
* **Rolling road** (SH-32; rulings SH-R15, SH-R16): the rig touching the exit edge (its
  template past it, or its Final Position touching it) gives the Riggers 1 VP and leaves the
  table, marked 1. Until the rig has left a table the exit edge is an ordinary edge (a
  vehicle driving past it is disqualified, p.87); from then on a vehicle touching it leaves,
  marked by the Gear Phase counted from the rig's. After the phase marking 6 whatever is
  left is disqualified; an empty table is rebuilt (players take turns, nothing within Long
  of the entry edge) and the marked vehicles come back in their phase, opposite where they
  left, in the gear they left in. Nobody hands Pole Position on as the rig leaves: it swaps
  sides as in every Savage Highways game.
* **Wheeled Army** (SH-33): the Gangers may respawn with vehicles still in play, for 1 vote
  while the Riggers have 0 VP and 2 at 1 VP; at 2 VP no Ganger respawns (ruling SH-R17: the
  price holds whether or not they have vehicles in play).
* **Desperate Flight** (SH-34): the rig may not use Tanker Anchor (the ``may_anchor`` hook).
* **End and victory** (SH-35, SH-36): the Riggers' third VP ends the game at once, a Riggers
  win; a Gear Phase beginning with the rig disqualified or Wrecked ends it, a Gangers win.
"""

from __future__ import annotations

import math
import random
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, Obstacle, Status, VehicleState
from carnage.games.refuelled.engine.table_facts import ask_yes_no
from carnage.games.refuelled.scenarios.base import Line
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.rolling_road import (
    LONG,
    RollingRoad,
    over_exit_edge,
    road,
)
from carnage.games.refuelled.scenarios.savage_highways import (
    EDGES,
    RIGGERS_AND_GANGERS,
    SavageHighways,
    ask_spot,
    bodies_at,
    body_polys,
    clear_at,
    deploy_on_edge,
    deployed_vehicles,
    edge_line,
    edge_spots,
    gangers,
    is_ganger,
    memory,
    riggers,
    team_of,
    the_rig,
    touches_edge,
)
from carnage.geometry.shapes import Point, Pose, Rect, distance
from carnage.geometry.surfaces import Surface, move_pieces
from carnage.kernel.briefing import BriefRule, refuelled

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

PAGE = 173
TARGET_VP = 3
TERRAIN = 4
ESCORT_STEP = 40.0
TURN = {"south": 0.0, "west": 90.0, "north": 180.0, "east": 270.0}
"""Degrees the table turns (anticlockwise) to bring the chosen entry edge to the bottom."""
WHEELED_ARMY = {0: 1, 1: 2}
"""Riggers' VP -> what a Ganger respawn costs (SH-33); none at 2 VP."""


def _turn_point(p: Point, c: Point, deg: float) -> Point:
    r = math.radians(deg)
    dx, dy = p[0] - c[0], p[1] - c[1]
    return (c[0] + dx * math.cos(r) - dy * math.sin(r), c[1] + dx * math.sin(r) + dy * math.cos(r))


def turn_table(state: GameState, deg: float) -> None:
    """Turn every piece of terrain about the table's centre (a square table)."""
    if not deg % 360.0:
        return
    c = (state.width / 2.0, state.height / 2.0)
    for ob in state.obstacles.values():
        x, y = _turn_point((ob.pose.x, ob.pose.y), c, deg)
        ob.pose = Pose(x, y, (ob.pose.heading + deg) % 360.0)
    for sid, s in list(state.surfaces.items()):
        state.surfaces[sid] = Surface(s.id, s.kind, tuple(_turn_point(p, c, deg)
                                                          for p in s.polygon))
    for rp in state.ramps.values():
        x, y = _turn_point((rp.pose.x, rp.pose.y), c, deg)
        rp.pose = Pose(x, y, (rp.pose.heading + deg) % 360.0)


class LongRoadHome(SavageHighways):
    id = "long-road-home"
    name = "Long Road Home"
    page = 173
    summary = ("Savage Highways 3: the War Rig runs a rolling road of tables; three exits win "
               "the campaign for the Riggers, while the Gangers' wheeled army keeps coming.")
    last_page = 175
    how_to_win = ("The Riggers score 1 VP each time the War Rig leaves by the exit edge; three"
                  " win them the game, while the Gangers win by stopping the rig.")
    special_rules = (
        RIGGERS_AND_GANGERS,
        BriefRule("Rolling road",
                  ("A vehicle reaching the exit edge leaves the table and comes back on the "
                   "next one, in the phase it left."),
                  refuelled(174)),
        BriefRule("Wheeled army",
                  "The Gangers may respawn for votes even with vehicles still in play.",
                  refuelled(174)),
    )
    score_title = "Victory Points"
    score_target = "the Riggers to 3 VP"
    score_tallies = (("vp", "VP"),)
    setup_upgrades = 3

    def __init__(self) -> None:
        super().__init__()
        self.road = RollingRoad(source=self.id.replace("-", "_"), page=PAGE,
                                on_exit=self._exited, leader_hands_on_pole=False)

    # -- the table -----------------------------------------------------------------------------
    def generate(self, state: GameState, rng: random.Random) -> None:
        """Sparse: ``TERRAIN`` pieces, each wholly beyond Long of every edge (and clear of the
        rig's place in the middle of any of them: ``FIRST_TABLE_MARGIN``)."""
        kinds = [("rock", 80.0, 70.0, False), ("wreckage", 120.0, 40.0, False),
                 ("crate", 40.0, 40.0, True)]
        placed: list[Obstacle] = []
        for i in range(TERRAIN):
            name, length, width, destructible = kinds[i % len(kinds)]
            ob = Obstacle(f"{name}-{i + 1}", Pose(0.0, 0.0, float(rng.choice((0, 45, 90, 135)))),
                          length, width, destructible=destructible)
            spots = {k: p for k, p in self.road.candidates(state, ob, placed).items()
                     if _clear_of_edges(state, Rect(p, length, width).polygon())}
            if not spots:
                continue
            ob.pose = spots[rng.choice(sorted(spots))]
            state.obstacles[ob.id] = ob
            placed.append(ob)

    def escape_edges(self, state: GameState) -> list[str]:
        return []

    def leave_edges(self, state: GameState) -> list[str]:
        return ["north"]

    # -- set-up ----------------------------------------------------------------------------
    def setup(self, game: Game) -> Flow:
        st = game.state
        road(st)
        yield from self.attach_upgrades(game)
        r = riggers(st)
        pick = str((yield ask(r, "entry_edge", "Which table edge is the entry edge?",
                              [(e, f"the {e} edge (the exit edge is opposite)") for e in EDGES],
                              source=self.source, page=PAGE)))
        turn_table(st, TURN[pick])
        game.emit("entry_edge", source=self.source, page=PAGE, edge=pick, turned=TURN[pick])
        memory(st)["edges"] = {"riggers": ["south"], "gangers": ["south"]}
        rig = the_rig(st)
        assert rig is not None
        yield from ask_spot(game, r, rig, edge_spots(game, rig, ["south"], others=[],
                                                     only=st.width / 2.0),
                            "in the middle of the entry edge", source=self.source, page=PAGE)
        medium = float(game.templates.ranges["medium"])
        for v in team_of(st, r):
            if v.id != rig.id:
                yield from ask_spot(game, r, v, self.escort_spots(game, v, rig, medium),
                                    "within Medium of the War Rig", source=self.source,
                                    page=PAGE)
        double = float(game.templates.ranges["double"])
        for p in gangers(st):
            yield from deploy_on_edge(game, p, ["south"], source=self.source, page=PAGE,
                                      far=body_polys(rig), far_reach=double)
        yield from self.choose_pole(game)

    def escort_spots(self, game: Game, v: VehicleState, rig: VehicleState,
                     reach: float) -> dict[str, Pose]:
        """Poses facing up the road on an ``ESCORT_STEP`` grid within ``reach`` of the rig."""
        st = game.state
        near = body_polys(rig)
        out: dict[str, Pose] = {}
        n = int(st.width // ESCORT_STEP)
        for i in range(1, n):
            for j in range(1, int((LONG + reach) // ESCORT_STEP) + 1):
                pose = Pose(i * ESCORT_STEP, j * ESCORT_STEP, 90.0)
                polys = bodies_at(v, pose)
                if not clear_at(st, v, polys, deployed_vehicles(st)):
                    continue
                if min(distance(p, q) for p in polys for q in near) > reach:
                    continue
                out[f"grid:{pose.x:.0f},{pose.y:.0f}"] = pose
        return out

    # -- play ------------------------------------------------------------------------------
    def install_more(self, game: Game, eff: str) -> None:
        fx = game.effects
        fx.on("off_table", eff, self._road_off_table)
        fx.on("after_move", eff, self._road_after_move)
        if game.facts.people:  # a real table: the people say when it reached the exit edge
            from carnage.kernel.effects import always

            fx.add_flow("table_edge", eff, always(self._edge_told))
            fx.add_flow("table_motion", eff, always(self._final_told))
        fx.on("may_respawn", eff, self._may_respawn, -10)
        fx.on("vote_cost", eff, self._vote_cost)
        fx.on("may_anchor", eff, self._no_anchor)

    def _rig_gone_from_table(self, state: GameState) -> bool:
        return road(state)["leader_phase"] is not None

    def _road_off_table(self, value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        result = ctx.get("result")
        st = game.state
        rig = the_rig(st)
        if value is not True or result is None or not v.in_contention or rig is None:
            return None
        if v.id != rig.id and not self._rig_gone_from_table(st):
            return None
        over = over_exit_edge(move_pieces(result), st)
        game.facts.note("past_exit_edge", over)  # as a real table is asked (CP-8)
        if over:
            self.road.exit(game, v)
            return False
        return None

    def _road_after_move(self, value: Any, ctx: dict[str, Any]) -> None:
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        st = game.state
        if game.facts.people or not self._may_exit(st, v):
            return  # at a real table the people said it before (``_final_told``)
        over = touches_edge(st, v, "north")
        game.facts.note("final_over_exit", over)  # as a real table is asked (CP-8)
        if over:
            self.road.exit(game, v)

    def _may_exit(self, state: GameState, v: VehicleState) -> bool:
        """Whether reaching the exit edge takes ``v`` off this table: the rig, and once it
        has left a table every vehicle in contention (SH-32)."""
        rig = the_rig(state)
        return rig is not None and v.in_contention and (
            v.id == rig.id or self._rig_gone_from_table(state))

    def _edge_told(self, game: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, bool]:
        """At a real table (ruling CP-8): the template went past the table's edge; did it go
        past the exit edge, for a vehicle that leaves by it? Then it exits (SH-32)."""
        v: VehicleState = ctx["vehicle"]
        if not self._may_exit(game.state, v):
            return False
        over = yield from ask_yes_no(
            game, v.player, "past_exit_edge", f"{v.name}: did the template go past the exit "
            "edge?", page=PAGE, vehicle=v.id)
        if over:
            self.road.exit(game, v)
        return over

    def _final_told(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """At a real table, after a Movement Step (CP-8): does the Final Position of a vehicle
        that leaves by the exit edge touch it? Then it exits (SH-32)."""
        v: VehicleState = ctx["vehicle"]
        if ctx.get("motion") != "move" or not self._may_exit(game.state, v):
            return
        over = yield from ask_yes_no(
            game, v.player, "final_over_exit", f"{v.name}: does its Final Position touch the "
            "exit edge?", page=PAGE, vehicle=v.id)
        if over:
            self.road.exit(game, v)

    def _exited(self, game: Game, v: VehicleState) -> None:
        st = game.state
        rig = the_rig(st)
        if rig is None or v.id != rig.id:
            return
        vp = score.add(game, score.VP, 1, player=riggers(st), source=self.source, page=PAGE,
                       reason=f"{v.name} left table {road(st)['table']} by the exit edge")
        if vp >= TARGET_VP:
            game.finish(riggers(st), f"the War Rig reached the end of the road ({vp} VP)")

    def riggers_vp(self, game: Game) -> int:
        return score.total(game, score.VP, riggers(game.state))

    def _may_respawn(self, value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        st = game.state
        if v.status is Status.EXITED or not is_ganger(st, v.player):
            return None
        if self.riggers_vp(game) not in WHEELED_ARMY:
            return False
        from carnage.games.refuelled.engine.votes import was_wrecked

        return v.status in (Status.WRECKED, Status.REMOVED) and was_wrecked(game, v)

    def _vote_cost(self, value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        if ctx.get("effect") != "respawn" or not is_ganger(game.state, int(ctx["player"])):
            return None
        return WHEELED_ARMY.get(self.riggers_vp(game))

    def _no_anchor(self, value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        rig = the_rig(game.state)
        v = ctx.get("vehicle")
        if rig is not None and isinstance(v, VehicleState) and v.id == rig.id:
            game.emit("desperate_flight", source=self.source, page=174, vehicle=rig.id)
            return False
        return None

    def gear_phase_start(self, game: Game) -> Flow:
        yield from self.road.gear_phase_start(game)

    def end_of_gear_phase(self, game: Game) -> Flow | None:
        self.road.disqualify_stragglers(game)
        if not game.state.finished:
            self.road.clear_if_empty(game)
            self.swap_pole(game)
        return None

    def respawn_edges(self, state: GameState, vehicle: VehicleState) -> list[str]:
        return ["south"]

    def respawn_positions(self, game: Game, vehicle: VehicleState) -> dict[str, Pose]:
        if road(game.state)["rebuild"]:
            return {}
        return super().respawn_positions(game, vehicle)

    # -- bots ------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        rig = the_rig(state)
        if rig is not None and (vehicle.id == rig.id or self._rig_gone_from_table(state)):
            x = min(max(vehicle.pose.x, 60.0), state.width - 60.0)
            return Line((x - 60.0, state.height), (x + 60.0, state.height), (0.0, 1.0))
        return super().goal(state, vehicle)  # a Ganger: the rig (savage_highways.py)

    def goal_targets(self, state: GameState, vehicle: VehicleState) -> frozenset[str]:
        if self._rig_gone_from_table(state):
            return frozenset()
        return super().goal_targets(state, vehicle)

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        st = game.state
        values = [str(o.value) for o in decision.options]
        if decision.kind == "entry_edge":
            return "south" if "south" in values else values[0]
        if decision.kind == "place_terrain" and values:
            return min(values, key=lambda v: (min(float(v.split(",")[0]),
                                                  st.width - float(v.split(",")[0])), v))
        if decision.kind == "edge_pose" and values and values[0].startswith("grid:"):
            rig = the_rig(st)
            if rig is not None:
                def near(k: str) -> tuple[float, str]:
                    x, y = (float(t) for t in k[5:].split(","))
                    return (math.dist((x, y), (rig.pose.x, rig.pose.y)), k)

                return min(values, key=near)
        return super().bot_choice(game, decision)

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        out = super().option_poses(game, decision)
        if decision.kind == "edge_pose":
            for o in decision.options:
                k = str(o.value)
                if k.startswith("grid:"):
                    x, y = (float(t) for t in k[5:].split(","))
                    out[k] = Pose(x, y, 90.0)
        return out

    # -- what the table shows ----------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        st = game.state
        r = road(st)
        out = [edge_line(st, "south").drawable("entry-edge", "ENTRY", "start"),
               edge_line(st, "north").drawable("exit-edge", "EXIT", "finish"),
               Drawable("table-count", "label", ((st.width / 2.0, LONG / 2.0),),
                        label=f"Table {r['table']}", number=r["table"])]
        for vid, rec in sorted({**r["exits"], **r["returning"]}.items()):
            out.append(Drawable(f"return-{vid}", "token", ((float(rec["x"]), 12.0),),
                                label=f"{st.vehicles[vid].name} returns in phase {rec['mark']}",
                                number=int(rec["mark"]), owner=int(rec["player"]),
                                style="returning"))
        return out

    def report(self, game: Game) -> list[ReportRow]:
        st = game.state
        rows = super().report(game)
        vp = self.riggers_vp(game)
        rows.append(ReportRow("riggers_vp", "Riggers' VP", vp, f"{vp} of {TARGET_VP}",
                              tally=True))
        rows.append(ReportRow("table", "Table of the road", road(st)["table"],
                              str(road(st)["table"])))
        return rows


FIRST_TABLE_MARGIN = 260.0
"""Mm the first table's terrain keeps from every edge: beyond Long, and room for the rig (cab
and trailer, 230 mm) in the middle of whichever edge becomes the entry edge."""


def _clear_of_edges(state: GameState, poly: list[Point]) -> bool:
    m = FIRST_TABLE_MARGIN
    return all(m < x < state.width - m and m < y < state.height - m for x, y in poly)
