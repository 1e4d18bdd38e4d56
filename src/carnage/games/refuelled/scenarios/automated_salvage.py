"""Automated Salvage (Refuelled pp.135-136): scrape Salvage Points off the other teams.

A wasteland. Players roll off for Pole Position, which passes clockwise after every Gear Phase;
spawn points and deployment follow the usual pattern, respawning at one's own spawn point.
A vehicle scores Salvage Points (SP) of its own: 1 whenever its move comes within Short of an
enemy vehicle (Magnetic Scavenger Hooks) and 1 for each Salvage Counter it drives over. A
vehicle that suffers damage puts a counter against its side edge, at most once per step
(Ramshackle). A destroyed vehicle loses all its SP (this scenario's Twisted Metal); one that
leaves the table has scarpered and keeps them. The game ends when a single vehicle is left or
after round 3; the player whose vehicles hold the most SP wins. Televised Season spoils: a Can
per SP.

Rulings AS-1 to AS-8 in docs/rulings.md.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.scenarios.base import SKIRMISH, Line, TableScenario
from carnage.games.refuelled.scenarios.common import score, victory
from carnage.games.refuelled.scenarios.common.motion import (
    motion_facts,
    swept_polygons,
    watch_motion,
)
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.common.spawn import (
    SpawnPoints,
    deploy_at_spawn_points,
    place_spawn_points,
    spawn_option_poses,
)
from carnage.games.refuelled.scenarios.common.table import scatter_terrain
from carnage.games.refuelled.scenarios.common.tokens import (
    add_token,
    on_table,
    remove_token,
    tokens,
)
from carnage.games.refuelled.scenarios.skirmish_layout import (
    COUNTER_RADIUS,
    WASTELAND_PIECES,
    Spoils,
    counter_spots,
    point_goal,
    skirmish_teams,
    spoils_rows,
)
from carnage.games.refuelled.scenarios.snl_prizes import point_gap
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.geometry.shapes import Pose
    from carnage.kernel.decisions import Decision

PAGE = 135
SOURCE = "automated_salvage"
SALVAGE = "salvage"
"""The Salvage Points tally, kept per vehicle (common/score.py)."""
COUNTER = "salvage_counter"
KEY = "salvage"
OVERLAP = 0.5
"""A move overlaps a counter when it covers more than this (mm) of the counter's width:
touching its edge is not enough (ruling AS-4)."""


class AutomatedSalvage(SpawnPoints, RollOffPole, TableScenario):
    id = "automated-salvage"
    name = "Automated Salvage"
    page = PAGE
    summary = ("Hook Salvage Points off enemies you pass close to and counters knocked off "
               "damaged cars; lose them all if you are destroyed. Three rounds.")
    last_page = 136
    how_to_win = ("After round 3, or when a single vehicle is left, the player whose vehicles "
                  "hold the most Salvage Points wins.")
    special_rules = (
        BriefRule("Magnetic hooks",
                  ("A vehicle scores 1 Salvage Point whenever its move passes within Short of "
                   "an enemy vehicle."),
                  refuelled(135)),
        BriefRule("Ramshackle",
                  ("A vehicle that takes damage drops a Salvage Counter beside it; driving "
                   "over one scores a point."),
                  refuelled(135)),
        BriefRule("Twisted metal",
                  ("A destroyed vehicle loses all its points; one that drives off the table "
                   "keeps them."),
                  refuelled(135)),
    )
    score_title = "Salvage Points"
    score_target = "most after round 3"
    score_tallies = ((SALVAGE, "SP"),)
    table = SKIRMISH
    table_rolls = (1,)
    round_limit = 3
    scarper = True
    spoils = Spoils(SALVAGE, "Salvage Point", per_unit=1, page=136)
    """Televised Season (p.136): a Can for each Salvage Point collected."""

    # -- the table -------------------------------------------------------------------------------
    def generate(self, state: GameState, rng: random.Random) -> None:
        scatter_terrain(state, rng, WASTELAND_PIECES)

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        return skirmish_teams(players, "Scrappers")

    def setup(self, game: Game) -> Flow:
        # Every memory this scenario reads exists from the start, so reading it (bots, the
        # table) never changes the state.
        game.state.scenario.setdefault("tokens", {})
        self.memo(game.state)
        game.state.pole = self.roll_off(game)
        yield from place_spawn_points(game, source=SOURCE, page=PAGE)
        yield from deploy_at_spawn_points(game, source=SOURCE, page=PAGE)

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        return spawn_option_poses(game, decision.vehicle, decision.kind,
                                  [o.value for o in decision.options])

    # -- the special rules -----------------------------------------------------------------------
    def install(self, game: Game) -> None:
        effect = f"scenario:{self.id}"
        game.effects.add_flow("move_window", effect, lambda ctx: self._hooks)
        game.effects.on("logged:damage", effect, self._damaged)
        game.effects.on("logged:wrecked", effect, self._twisted_metal)
        game.effects.add_flow("step_end", effect, lambda ctx: self._ramshackle, priority=-40)
        watch_motion(game, effect, "salvage_seen", self._over_counters)
        motion_facts(game, effect, self._counters_told, self._counters_noted)

    @staticmethod
    def memo(state: GameState) -> dict[str, Any]:
        """``damaged``: vehicles owed a counter for damage this step; ``n``: counters made."""
        m: dict[str, Any] = state.scenario.setdefault(KEY, {})
        m.setdefault("damaged", [])
        m.setdefault("n", 0)
        return m

    def _hooks(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """Magnetic Scavenger Hooks (ruling AS-2): once per move of the active vehicle (any
        template: its Movement Step or a forced move), 1 SP if the template or the Final
        Position comes within Short of an enemy vehicle."""
        from carnage.geometry.shapes import distance
        from carnage.geometry.surfaces import move_pieces

        st = game.state
        v: VehicleState = ctx["vehicle"]
        if v.id != st.active or not v.in_contention or not self.counts(game, v):
            yield from ()
            return
        mine = score.side_of(game, v.player)
        enemies = [e for e in st.in_play() if self.counts(game, e)
                   and score.side_of(game, e.player) != mine]
        if game.facts.people:  # a real table: the people say who came within Short
            from carnage.games.refuelled.engine.table_facts import ask_list

            ids = yield from ask_list(
                game, v.player, "within_short", f"{v.name}: which enemy vehicles did its "
                "move's template or final position come within Short of?",
                [(e.id, e.name) for e in enemies], page=PAGE, vehicle=v.id)
            near = [st.vehicles[i] for i in ids]
        else:
            pieces = move_pieces(ctx["result"])
            reach = game.templates.ranges["short"] + 1e-9
            near = [e for e in enemies
                    if any(distance(p, r.polygon()) <= reach for p in pieces
                           for _, r in e.bodies())]
            if enemies:
                game.facts.note("within_short", [e.id for e in near])
        if near:
            score.add(game, SALVAGE, 1, vehicle=v, source=SOURCE, page=PAGE,
                      reason=f"Magnetic Scavenger Hooks ({near[0].name} within Short)")
        yield from ()

    def _damaged(self, value: Any, ctx: dict[str, Any]) -> None:
        game: Game = ctx["game"]
        data = ctx["data"]
        vid = str(data.get("vehicle"))
        if int(data.get("amount", 0)) <= 0 or vid not in game.state.vehicles:
            return
        owed = self.memo(game.state)["damaged"]
        if vid not in owed:
            owed.append(vid)  # Ramshackle: at most once per step (placed as the step ends)

    def _ramshackle(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """Ramshackle (ruling AS-5): each vehicle damaged during the step gets one counter
        touching its side edge, its controller choosing where."""
        st = game.state
        m = self.memo(st)
        owed, m["damaged"] = list(m["damaged"]), []
        for vid in owed:
            if st.finished:
                return
            v = st.vehicles[vid]
            spots = counter_spots(st, v, measured=not game.facts.people)
            if not spots:
                game.emit("salvage_counter_lost", source=SOURCE, page=PAGE, vehicle=vid,
                          reason="no room on the table beside it")
                continue
            pick = yield ask(v.player, "salvage_counter",
                             f"{v.name} took damage: where does its Salvage Counter go?",
                             [(k, f"touching its {k}") for k in spots], source=SOURCE,
                             page=PAGE, vehicle=vid)
            m["n"] += 1
            add_token(game, f"salvage-{m['n']}", COUNTER, at=spots[str(pick)],
                      size=2 * COUNTER_RADIUS, source=SOURCE, page=PAGE)

    def _over_counters(self, game: Game, v: VehicleState, poses: list[Pose]) -> None:
        """A vehicle whose move (any motion) or Final Position overlaps a counter gains 1 SP
        and the counter leaves play (ruling AS-4: overlapping, not merely touching)."""
        st = game.state
        if st.finished or not v.in_contention or not self.counts(game, v):
            return
        pieces = swept_polygons(poses, v.length, v.width)
        for tid, t in sorted(on_table(st, COUNTER).items()):
            c = (float(t["x"]), float(t["y"]))
            r = float(t["size"]) / 2.0
            if any(point_gap(p, c) < r - OVERLAP for p in pieces):
                self._salvage(game, v, tid)

    def _may_salvage(self, game: Game, v: VehicleState) -> list[str]:
        """The counters ``v``'s motion may salvage: every one on the table, for a vehicle in
        contention that counts, while the game goes on."""
        st = game.state
        if st.finished or not v.in_contention or not self.counts(game, v):
            return []
        return sorted(on_table(st, COUNTER))

    def _counters_told(self, game: Game, v: VehicleState) -> Flow:
        """At a real table (ruling CP-11): after each move, forced move and pivot the people
        name the Salvage Counters its template or Final Position overlapped (not merely
        touched, AS-4); each is salvaged."""
        from carnage.games.refuelled.engine.table_facts import ask_list

        names = yield from ask_list(
            game, v.player, "counters_overlapped", f"{v.name}: which Salvage Counters did its "
            "template or final position overlap (not just touch)?",
            [(tid, tid.replace("-", " ")) for tid in self._may_salvage(game, v)], page=PAGE,
            vehicle=v.id)
        for tid in names:
            self._salvage(game, v, tid)

    def _counters_noted(self, game: Game, v: VehicleState, since: int) -> None:
        """On a recording table: the counters the motion just judged salvaged."""
        got = [str(e.data["token"]) for e in game.log.events[since:]
               if e.kind == "token_removed" and e.data.get("reason") == f"salvaged by {v.id}"]
        if got or self._may_salvage(game, v):
            game.facts.note("counters_overlapped", got)

    def _salvage(self, game: Game, v: VehicleState, tid: str) -> None:
        remove_token(game, tid, source=SOURCE, page=PAGE, reason=f"salvaged by {v.id}")
        score.add(game, SALVAGE, 1, vehicle=v, source=SOURCE, page=PAGE,
                  reason="Salvage Counter")

    def _twisted_metal(self, value: Any, ctx: dict[str, Any]) -> None:
        """This scenario's Twisted Metal (ruling AS-6): a Wrecked vehicle loses all its SP."""
        game: Game = ctx["game"]
        v = game.state.vehicles.get(str(ctx["data"].get("vehicle")))
        if v is None:
            return
        held = score.vehicle_total(game, SALVAGE, v)
        if held:
            score.add(game, SALVAGE, -held, vehicle=v, source=SOURCE, page=PAGE,
                      reason="Twisted Metal: destroyed")

    # -- the end ---------------------------------------------------------------------------------
    def check_end(self, game: Game) -> None:
        """Ruling AS-1: the game stops when at most one counting vehicle (of anyone) is left
        in play."""
        left = [v for v in game.state.in_play() if self.counts(game, v)]
        if len(left) <= 1:
            self.final_scores(game, "only one vehicle left" if left else "no vehicle left")

    def final_scores(self, game: Game, why: str | None = None) -> None:
        reason = why or f"after {self.round_limit} rounds"
        victory.decide(game, score.side_totals(game, SALVAGE, with_vehicles=True),
                       f"most Salvage Points ({reason})", tie_breaks=self.tie_breaks,
                       source=SOURCE, page=136)

    # -- bots ------------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """The nearest counter or enemy vehicle."""
        here = (vehicle.pose.x, vehicle.pose.y)
        targets = [(float(t["x"]), float(t["y"])) for t in on_table(state, COUNTER).values()]
        targets += [(e.pose.x, e.pose.y) for e in state.in_play()
                    if e.player != vehicle.player and e.pose.x >= 0 and e.pose.y >= 0]
        if not targets:
            return None
        return point_goal(vehicle, min(targets, key=lambda p: (math.dist(p, here), p)))

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        """A counter goes where the nearest enemy is farthest from it."""
        if decision.kind != "salvage_counter":
            return super().bot_choice(game, decision)
        st = game.state
        v = st.vehicles.get(decision.vehicle or "")
        if v is None:
            return None
        spots = counter_spots(st, v)
        enemies = [e for e in st.in_play() if e.player != v.player]
        if not enemies:
            return None
        return max((str(o.value) for o in decision.options if str(o.value) in spots),
                   key=lambda k: (min(math.dist(spots[k], (e.pose.x, e.pose.y))
                                      for e in enemies), k), default=None)

    # -- what the table shows --------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        out = self.spawn_drawables(game)
        for tid, t in sorted(tokens(game.state, COUNTER).items()):
            out.append(Drawable(f"token-{tid}", "token", ((float(t["x"]), float(t["y"])),),
                                label="salvage", style="salvage"))
        return out

    def report(self, game: Game) -> list[ReportRow]:
        st = game.state
        rows = score.report_rows(game, SALVAGE, "SP", with_vehicles=True)
        for v in st.vehicles.values():
            n = score.vehicle_total(game, SALVAGE, v)
            if n:
                rows.append(ReportRow(f"sp_{v.id}", f"{v.name} SP", n, f"{n} SP"))
        left = len(on_table(st, COUNTER))
        rows.append(ReportRow("salvage_counters", "Salvage Counters on the table", left,
                              f"{left} on the table"))
        rows += spoils_rows(game, self.spoils, score.side_totals(game, SALVAGE,
                                                                  with_vehicles=True))
        return rows

