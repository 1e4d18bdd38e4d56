"""Express Delivery (Refuelled pp.136-138): race off the far edge, table after table.

* **Table** (p.136): a wasteland; ours is seeded: ``TERRAIN`` pieces on the rolling road's
  terrain grid, none within Long of the entry edge (ruling ED-5, as for a rebuilt table).
* **Pole** (p.137): roll-off, passed clockwise after each Gear Phase; the Leader's controller
  hands it on to the player on their left at once (rolling_road.py, ruling ED-2).
* **Deployment** (p.137): the bottom edge is the entry edge, the top the exit edge. In Pole
  order each player puts a spawn point touching the entry edge, more than Medium from every
  other (candidates ``ENTRY_SPAWN_STEP`` mm apart; ruling ED-1); then everyone deploys within
  Short of their own spawn point; respawns come back there (common/spawn.py).
* **Delivery Slips** (p.137): each player's name on a slip; the slips are dealt at random,
  face down (a secret per seat, kernel/secrets.py); whenever vehicles of two players collide
  they swap slips (ruling ED-7).
* **Express Delivery** (p.137): a vehicle whose template or Final Position overlaps the exit
  edge leaves the table; its controller scores 1 VP, at most once per player per table
  (ruling ED-9).
* **Rolling road** (p.138): the Leader, exits marked 1-6, disqualification after the phase
  marking 6, the next table (rolling_road.py).
* **Game end** (p.138): once a player has 2 VP, play goes on until no vehicle is left on the
  table; the first to 2 VP wins (ruling ED-8). The slips are shown then (for the spoils).
* **Spoils** (p.138): as data (``spoils_dice``) for the Televised Season's post-game sequence.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, Obstacle, Status, VehicleState
from carnage.games.refuelled.scenarios.base import SKIRMISH, Line, TableScenario
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.common.spawn import (
    SPAWN_DIAMETER,
    SpawnPoints,
    band,
    deploy_at_spawn_points,
    set_spawn_point,
    spawn_option_poses,
    spawn_points,
)
from carnage.games.refuelled.scenarios.rolling_road import (
    LONG,
    RollingRoad,
    road,
)
from carnage.geometry.shapes import Point, Pose
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.kernel.secrets import keep_secret, reveal, secret, secrets_of

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision
    from carnage.team.model import TeamSpec

PAGE = 137
SOURCE = "express_delivery"
TARGET_VP = 2
"""Victory Points that end the game once the table is empty (p.138)."""
TERRAIN = 6
"""Terrain pieces on our seeded wasteland."""
ENTRY_SPAWN_STEP = 30.0
"""Candidate spawn points along the entry edge lie this many mm apart (ruling ED-1)."""
SLIP = "delivery_slip"
SPOILS: dict[str, str] = {
    "exited_final_table": "1D6 Cans for each vehicle that exits the final table",
    "per_vp": "1D6 Cans for each Victory Point scored",
    "own_slip_bonus": "4D6 Cans for ending on 2 VP holding your own Delivery Slip",
}
"""The Televised Season spoils (p.138), in our words; ``spoils_dice`` counts the dice."""


def slip_key(player: int) -> str:
    return f"slip:{player}"


def memory(state: GameState) -> dict[str, Any]:
    out: dict[str, Any] = state.scenario.setdefault("express", {
        "scored_on": {}, "first_to_target": None,
        "final_exits": {},
    })
    return out


class ExpressDelivery(SpawnPoints, RollOffPole, TableScenario):
    id = "express-delivery"
    name = "Express Delivery"
    page = 136
    min_players = 2
    max_players = None
    summary = ("Carry your sponsor's package off the far edge of table after table; the first "
               "to two deliveries wins, while collisions swap the secret delivery slips.")
    last_page = 138
    how_to_win = ("Drive off the far (exit) edge: each player scores 1 VP for it, once per "
                  "table. Once someone has 2 VP play goes on until the table is empty; the "
                  "first to 2 VP wins.")
    special_rules = (
        BriefRule("Delivery slips",
                  ("Each player secretly holds a slip naming whose package they carry; "
                   "vehicles of two players that collide swap slips."),
                  refuelled(137)),
        BriefRule("Spawn points",
                  ("Each player puts a spawn point on the entry edge and deploys within Short "
                   "of it."),
                  refuelled(137)),
        BriefRule("Rolling road",
                  ("The first vehicle off the table leads; the exits are counted phase by "
                   "phase, stragglers are disqualified after the sixth and a fresh table "
                   "follows."),
                  refuelled(138)),
    )
    score_title = "Deliveries"
    score_target = "first to 2 VP"
    score_tallies = (("vp", "VP"),)
    table = SKIRMISH
    table_rolls = (2,)
    end_checks = frozenset({"gear_phase_end"})

    def __init__(self) -> None:
        self.road = RollingRoad(source=SOURCE, page=PAGE, on_exit=self._delivered,
                                spawn_points=self._spawn_discs)

    # -- the table -------------------------------------------------------------------------------
    def generate(self, state: GameState, rng: random.Random) -> None:
        """A seeded wasteland: ``TERRAIN`` rocks and crates at random spots of the rolling
        road's terrain grid (none within Long of the entry edge)."""
        kinds = [("rock", 70.0, 60.0, False), ("crate", 40.0, 40.0, True),
                 ("barrier", 110.0, 25.0, False)]
        placed: list[Obstacle] = []
        for i in range(TERRAIN):
            name, length, width, destructible = kinds[i % len(kinds)]
            heading = float(rng.choice((0, 30, 60, 90, 120, 150)))
            ob = Obstacle(f"{name}-{i + 1}", Pose(0.0, 0.0, heading), length, width,
                          destructible=destructible)
            spots = self.road.candidates(state, ob, placed)
            if not spots:
                continue
            ob.pose = spots[rng.choice(sorted(spots))]
            state.obstacles[ob.id] = ob
            placed.append(ob)

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        from carnage.games.refuelled.scenarios.street_race import StreetRace

        return StreetRace().default_teams(players)

    def exit_line(self, state: GameState) -> Line:
        return Line((0.0, state.height), (state.width, state.height), (0.0, 1.0))

    def goal(self, state: GameState, vehicle: VehicleState) -> Line:
        """Off the exit edge, straight ahead of where the vehicle is."""
        x = min(max(vehicle.pose.x, 60.0), state.width - 60.0)
        return Line((x - 60.0, state.height), (x + 60.0, state.height), (0.0, 1.0))

    # -- set-up ----------------------------------------------------------------------------------
    def install(self, game: Game) -> None:
        eff = f"scenario:{self.id}"
        self.road.install(game, eff)
        game.effects.add_flow("collision_end", eff, lambda ctx: self._exchange_details)

    def setup(self, game: Game) -> Flow:
        st = game.state
        memory(st)
        road(st)
        st.pole = self.roll_off(game)
        self.deal_slips(game)  # "at the start of the game" (p.137)
        for p in st.clockwise_from(st.pole):
            spots = self.entry_spawn_candidates(game)
            pick = yield self._ask_spawn(p, spots)
            set_spawn_point(game, p, spots[str(pick)], source=SOURCE, page=PAGE)
        yield from deploy_at_spawn_points(game, source=SOURCE, page=PAGE)

    def _ask_spawn(self, player: int, spots: dict[str, Point]) -> Decision:
        from carnage.games.refuelled.engine.game import ask

        return ask(player, "spawn_point", "Where on the entry edge does your spawn point go?",
                   [(k, f"spawn point at {k} mm") for k in spots], source=SOURCE, page=PAGE)

    def entry_spawn_candidates(self, game: Game) -> dict[str, Point]:
        """Ruling ED-1: spawn points touching the entry edge, every ``ENTRY_SPAWN_STEP`` mm,
        more than Medium (disc edge to disc edge) from every spawn point placed, overlapping
        no terrain; if none is that far, the farthest ones."""
        st = game.state
        r = SPAWN_DIAMETER / 2.0
        medium = band(game, "medium")
        others = list(spawn_points(st).values())
        scored: list[tuple[float, str, Point]] = []
        n = int((st.width - 2 * r) // ENTRY_SPAWN_STEP)
        for i in range(n + 1):
            c = (r + i * ENTRY_SPAWN_STEP, r)
            gap = min((math.dist(c, o) - 2 * r for o in others), default=math.inf)
            scored.append((gap, f"{c[0]:.0f},{c[1]:.0f}", c))
        legal = {k: c for g, k, c in scored if g > medium + 1e-9}
        if legal:
            return legal
        best = max(g for g, _, _ in scored)
        return {k: c for g, k, c in scored if g >= best - ENTRY_SPAWN_STEP}

    def deal_slips(self, game: Game) -> None:
        """Each player's name on a slip, shuffled face down and dealt one each (p.137): a
        Fisher-Yates shuffle on dice nobody sees; each player sees only their own slip."""
        st = game.state
        slips = list(range(st.players))
        for i in range(len(slips) - 1, 0, -1):
            j = _uniform(game, i + 1)
            slips[i], slips[j] = slips[j], slips[i]
        for p, name in enumerate(slips):
            self._hold(game, p, name, [p])

    def _hold(self, game: Game, player: int, name: int, seen_by: list[int]) -> None:
        keep_secret(game, slip_key(player), name, seen_by, kind=SLIP, label="Delivery slip",
                    text=f"Player {name + 1}'s name", owner=player, source=SOURCE, page=PAGE)

    def slip_of(self, game: Game, player: int) -> int | None:
        s = secret(game, slip_key(player))
        return None if s is None or not isinstance(s.value, int) else s.value

    # -- play ------------------------------------------------------------------------------------
    def _exchange_details(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """Vehicles of two players collided: those two swap slips at once (p.137)."""
        owners = sorted({p.vehicle.player for p in ctx.get("parties", ())
                         if p.vehicle is not None and p.vehicle.in_contention})
        if len(owners) == 2 and not game.state.finished:
            a, b = owners
            sa, sb = self.slip_of(game, a), self.slip_of(game, b)
            if sa is not None and sb is not None:
                game.emit("slips_swapped", source=SOURCE, page=PAGE, players=[a, b])
                # Each now holds the other's slip; the one who handed a slip over saw it.
                self._hold(game, a, sb, [a, b])
                self._hold(game, b, sa, [a, b])
        yield from ()

    def _delivered(self, game: Game, v: VehicleState) -> None:
        """Express Delivery: 1 VP for leaving by the exit edge, once per player per table
        (ruling ED-9)."""
        st = game.state
        mem = memory(st)
        table = road(st)["table"]
        mem["final_exits"].setdefault(str(table), []).append(v.id)
        if mem["scored_on"].get(str(v.player)) == table or not self.counts(game, v):
            return
        mem["scored_on"][str(v.player)] = table
        vp = score.add(game, score.VP, 1, player=v.player, source=SOURCE, page=PAGE,
                       reason=f"{v.name} made a delivery off table {table}")
        if vp >= TARGET_VP and mem["first_to_target"] is None:
            mem["first_to_target"] = score.side_of(game, v.player)
            game.emit("target_reached", source=SOURCE, page=138, player=v.player,
                      side=mem["first_to_target"])

    def gear_phase_start(self, game: Game) -> Flow:
        yield from self.road.gear_phase_start(game)

    def end_of_gear_phase(self, game: Game) -> Flow | None:
        self.road.disqualify_stragglers(game)
        self.check_end(game)
        if not game.state.finished:
            self.road.clear_if_empty(game)
            self.pass_pole_clockwise(game)
        return None

    def check_end(self, game: Game) -> None:
        """Once a player has 2 VP, the game ends when no vehicle is left on the table; the
        first to 2 VP wins (p.138). Ruling ED-8: a table left empty with nobody waiting to
        come back and no wreck to respawn ends the game too (the most VP wins; a tie is a
        draw). The slips are turned over at the end."""
        st = game.state
        if st.in_play() or st.finished or road(st)["returning"]:
            return  # vehicles still due on this table are part of its play
        mem = memory(st)
        first = mem["first_to_target"]
        if first is None:
            if self.road.waiting(st) or any(v.status is Status.WRECKED
                                            for v in st.vehicles.values()):
                return
            totals = score.side_totals(game, score.VP)
            top = max(totals.values())
            best = [s for s, n in totals.items() if n == top]
            first = best[0] if len(best) == 1 else None
        for key in sorted(k for k, s in secrets_of(game).items() if s.kind == SLIP):
            reveal(game, key, source=SOURCE, page=138, why="the game is over")
        if first is None:
            game.finish(None, "no vehicle left to make a delivery", draw=True)
        elif mem["first_to_target"] is None:
            game.finish(first, f"{score.side_label(game, first)} has the most Victory Points "
                        "and no vehicle is left to make a delivery")
        else:
            game.finish(first, f"{score.side_label(game, first)} reached {TARGET_VP} Victory "
                        "Points first")

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        return spawn_option_poses(game, decision.vehicle, decision.kind,
                                  [o.value for o in decision.options])

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        """Bots put their spawn point and the terrain where they block the others least:
        the spawn point nearest the middle of the entry edge, terrain nearest a side edge."""
        st = game.state
        if decision.kind == "spawn_point":
            return min((o.value for o in decision.options),
                       key=lambda v: abs(float(str(v).split(",")[0]) - st.width / 2.0))
        if decision.kind == "spawn_pose":  # facing up the road, near the spawn point
            return min((o.value for o in decision.options),
                       key=lambda v: (abs(float(str(v).split(":")[2]) - 90.0),
                                      float(str(v).split(":")[1]), str(v)))
        if decision.kind == "place_terrain":
            return min((o.value for o in decision.options),
                       key=lambda v: min(float(str(v).split(",")[0]),
                                         st.width - float(str(v).split(",")[0])))
        return super().bot_choice(game, decision)

    def _spawn_discs(self, state: GameState) -> list[tuple[Point, float]]:
        return [(c, SPAWN_DIAMETER / 2.0) for c in spawn_points(state).values()]

    # -- spoils ----------------------------------------------------------------------------------
    def spoils_dice(self, game: Game) -> dict[int, int]:
        """D6 of Cans each player rolls after the game in a Televised Season (p.138): one per
        own vehicle that left the final table, one per VP, four more for ending on 2 VP with
        their own slip (slips are read from the log once revealed)."""
        st = game.state
        mem = memory(st)
        final = road(st)["table"]
        exits = mem["final_exits"].get(str(final), [])
        held = {int(str(e.data["player"])): e.data.get("value")
                for e in game.log.of_kind("secret_revealed")
                if e.data.get("what") == SLIP and e.data.get("player") is not None}
        out = {}
        for p in range(st.players):
            vp = score.total(game, score.VP, p)
            n = sum(1 for vid in exits if st.vehicles[vid].player == p) + vp
            own = held.get(p, self.slip_of(game, p))
            if vp >= TARGET_VP and own == p:
                n += 4
            out[p] = n
        return out

    # -- what the table shows ----------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        st = game.state
        r = road(st)
        out = [
            Line((0.0, 0.0), (st.width, 0.0), (0.0, 1.0)).drawable("entry-edge", "ENTRY",
                                                                   "start"),
            self.exit_line(st).drawable("exit-edge", "EXIT", "finish"),
            Drawable("table-count", "label", ((st.width / 2.0, LONG / 2.0),),
                     label=f"Table {r['table']}" + (" (next table: being rebuilt)"
                                                    if r["rebuild"] else ""),
                     number=r["table"]),
            Drawable("no-terrain", "zone", ((0.0, 0.0), (st.width, 0.0), (st.width, LONG),
                                            (0.0, LONG)), label="no terrain (Long)",
                     style="keep-clear"),
        ]
        out += self.spawn_drawables(game)
        for vid, rec in sorted({**r["exits"], **r["returning"]}.items()):
            out.append(Drawable(f"return-{vid}", "token", ((float(rec["x"]), 12.0),),
                                label=f"{st.vehicles[vid].name} returns in phase {rec['mark']}",
                                number=int(rec["mark"]), owner=int(rec["player"]),
                                style="returning"))
        return out

    def report(self, game: Game) -> list[ReportRow]:
        st = game.state
        mem = memory(st)
        r = road(st)
        lead = st.vehicles.get(r["leader"] or "")
        rows = score.report_rows(game, score.VP)
        rows.append(ReportRow("table", "Table of the road", r["table"], str(r["table"])))
        rows.append(ReportRow("leader", "Leader", None if lead is None else lead.id,
                              "nobody yet" if lead is None else lead.name))
        first = mem["first_to_target"]
        rows.append(ReportRow("first_to_target", f"First to {TARGET_VP} VP",
                              None if first is None else first + 1,
                              "nobody yet" if first is None else score.side_label(game, first),
                              tally=True))
        return rows


def _uniform(game: Game, m: int) -> int:
    """A uniform integer in [0, m) from D6 rolled face down (rejection sampling)."""
    k = 1
    while 6 ** k < m:
        k += 1
    limit = (int(6 ** k) // m) * m
    while True:
        dice = game.roll(k, "delivery slips dealt", source=SOURCE, page=PAGE,
                         hidden=["dice"], seen_by=[])
        value = sum((d - 1) * int(6 ** i) for i, d in enumerate(dice))
        if value < limit:
            return value % m
