"""Zombie Bash (Refuelled pp.142-143): mow down the undead hordes.

A wasteland with more than ten zombies per player spread over it. Players roll off for Pole
Position, which passes clockwise after every Gear Phase; spawn points and deployment follow the
usual pattern, respawning at one's own spawn point. Zombies are neither targets nor
obstructions: a vehicle whose template or Final Position touches one collects it for its
controller. When a vehicle is Wrecked its controller puts 5 of their zombies back within Short
of the wreck. A vehicle leaving the table has scarpered: not destroyed, and it never respawns.
The game ends when fewer than 10 zombies are left on the table, when a player has 20, when only
one player has vehicles in play, or after round 3; the most zombies wins. Televised Season
spoils: a Can per zombie, at most 20.

Rulings ZB-1 to ZB-7 in docs/rulings.md.
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
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.common.spawn import (
    SpawnPoints,
    deploy_at_spawn_points,
    place_spawn_points,
    spawn_option_poses,
)
from carnage.games.refuelled.scenarios.common.table import scatter_terrain
from carnage.games.refuelled.scenarios.common.tokens import (
    CarriedTokens,
    add_token,
    on_table,
    remove_token,
    tokens,
)
from carnage.games.refuelled.scenarios.skirmish_layout import (
    WASTELAND_PIECES,
    ZOMBIE_RADIUS,
    Spoils,
    point_goal,
    skirmish_teams,
    spoils_rows,
    spots_near,
    zombie_points,
)
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.geometry.shapes import Point, Pose
    from carnage.kernel.decisions import Decision

PAGE = 142
SOURCE = "zombie_bash"
ZOMBIE = "zombie"
ZOMBIES = "zombies"
"""The tally of zombies collected, per side (common/score.py)."""
PER_PLAYER = 12
"""Zombies on the table per player: "more than 10" (ruling ZB-1)."""
DROP = 5
"""Zombies a Wrecked vehicle's controller puts back round the wreck."""
FEWER_THAN = 10
WIN_AT = 20
KEY = "zombie_bash"
EDGE_WARY = 100.0
"""Bots count a zombie closer than this (mm) to an edge as farther away than it is."""


class ZombieBash(SpawnPoints, CarriedTokens, RollOffPole, TableScenario):
    id = "zombie-bash"
    name = "Zombie Bash"
    page = PAGE
    summary = ("Run down the zombies roaming the wasteland; a wreck spills five of yours "
               "back. Most zombies after three rounds wins, 20 at once.")
    last_page = 143
    how_to_win = ("The game ends when fewer than 10 zombies are left, a player has 20, only "
                  "one player has vehicles in play, or round 3 is over; the most zombies wins.")
    special_rules = (
        BriefRule("Zombies",
                  ("Zombies are neither targets nor obstacles: touching one with a template or"
                   " final position collects it."),
                  refuelled(142)),
        BriefRule("Spilled",
                  "A wrecked vehicle's player puts 5 of their zombies back beside the wreck.",
                  refuelled(143)),
        BriefRule("Scarpered",
                  "A vehicle that leaves the table is not destroyed but never comes back.",
                  refuelled(142)),
    )
    score_title = "Zombies collected"
    score_target = "20, or most after round 3"
    score_tallies = ((ZOMBIES, "zombies"),)
    table = SKIRMISH
    table_rolls = (6,)
    round_limit = 3
    scarper = True
    spoils = Spoils(ZOMBIES, "zombie", per_unit=1, cap=20, page=143)
    """Televised Season (p.143): a Can per zombie held, at most 20."""

    # -- the table -------------------------------------------------------------------------------
    def generate(self, state: GameState, rng: random.Random) -> None:
        """A wasteland, then ``PER_PLAYER`` zombies per player spread evenly (ruling ZB-1)."""
        scatter_terrain(state, rng, WASTELAND_PIECES)
        n = PER_PLAYER * state.players
        dice = [rng.randint(1, 6) for _ in range(2 * n)]
        state.scenario.setdefault(KEY, {})["layout"] = [list(p) for p in
                                                        zombie_points(state, n, dice)]

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        return skirmish_teams(players, "Bashers")

    def setup(self, game: Game) -> Flow:
        st = game.state
        st.scenario.setdefault("tokens", {})
        self.memo(st)
        # The generated points become tokens here, so that each is logged as it is placed.
        layout = st.scenario.setdefault(KEY, {}).pop("layout", None)
        if layout is None:  # a table laid out by hand: zombies spread over it now
            n = PER_PLAYER * st.players
            layout = zombie_points(st, n, [(i * 5) % 6 + 1 for i in range(2 * n)])
        for i, p in enumerate(layout):
            add_token(game, f"zombie-{i + 1}", ZOMBIE, at=(float(p[0]), float(p[1])),
                      size=2 * ZOMBIE_RADIUS, source=SOURCE, page=PAGE)
        st.scenario[KEY]["n"] = len(layout)
        st.scenario[KEY]["start"] = len(layout)
        st.pole = self.roll_off(game)
        yield from place_spawn_points(game, source=SOURCE, page=PAGE)
        yield from deploy_at_spawn_points(game, source=SOURCE, page=PAGE)

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        return spawn_option_poses(game, decision.vehicle, decision.kind,
                                  [o.value for o in decision.options])

    # -- the special rules -----------------------------------------------------------------------
    def install(self, game: Game) -> None:
        effect = f"scenario:{self.id}"
        self.install_tokens(game)
        game.effects.on("logged:wrecked", effect, self._wrecked)
        game.effects.add_flow("step_end", effect, lambda ctx: self._drops, priority=-40)

    @staticmethod
    def memo(state: GameState) -> dict[str, Any]:
        m: dict[str, Any] = state.scenario.setdefault(KEY, {})
        m.setdefault("drops", [])
        m.setdefault("n", 0)
        return m

    def may_pick_up(self, game: Game, v: VehicleState, tid: str) -> bool:
        return tid in on_table(game.state, ZOMBIE)

    def token_picked_up(self, game: Game, v: VehicleState, tid: str) -> None:
        """Collected (ruling ZB-4: always; the zombie leaves the table for its controller's
        pile, it is not carried by the vehicle)."""
        remove_token(game, tid, source=SOURCE, page=PAGE, reason=f"collected by {v.id}")
        total = score.add(game, ZOMBIES, 1, player=v.player, source=SOURCE, page=PAGE,
                          reason=f"{v.name} collected a zombie")
        if total >= WIN_AT:
            self.final_scores(game, f"{WIN_AT} zombies collected")

    def _wrecked(self, value: Any, ctx: dict[str, Any]) -> None:
        game: Game = ctx["game"]
        vid = str(ctx["data"].get("vehicle"))
        v = game.state.vehicles.get(vid)
        if v is not None and self.counts(game, v):
            self.memo(game.state)["drops"].append(vid)

    def _drops(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """Ruling ZB-3: at the end of the step in which a vehicle was Wrecked (once it has
        skidded to a halt), its controller puts 5 of their zombies (all, if fewer) one by one
        within Short of the wreck (or where it stood, if it exploded)."""
        st = game.state
        m = self.memo(st)
        due, m["drops"] = list(m["drops"]), []
        short = game.templates.ranges["short"]
        for vid in due:
            v = st.vehicles[vid]
            wreck = next((o for o in st.obstacles.values() if o.wreck_of == vid), None)
            poly = wreck.polygon() if wreck is not None else v.polygon()
            n = min(DROP, score.total(game, ZOMBIES, v.player))
            for _ in range(n):
                if st.finished:
                    return
                taken = [(float(t["x"]), float(t["y"])) for t in on_table(st, ZOMBIE).values()]
                spots = spots_near(st, poly, short, taken)
                if not spots:
                    game.emit("zombies_kept", source=SOURCE, page=PAGE, vehicle=vid,
                              reason="no room within Short of the wreck")
                    break
                pick = yield ask(v.player, "zombie_drop",
                                 f"{v.name} is wrecked: where does a zombie go?",
                                 [(k, f"{k.split()[1]} from the wreck at {k.split()[0]}")
                                  for k in spots], source=SOURCE, page=PAGE, vehicle=vid)
                m["n"] += 1
                while f"zombie-{m['n']}" in tokens(st):
                    m["n"] += 1
                add_token(game, f"zombie-{m['n']}", ZOMBIE, at=spots[str(pick)],
                          size=2 * ZOMBIE_RADIUS, source=SOURCE, page=PAGE)
                score.add(game, ZOMBIES, -1, player=v.player, source=SOURCE, page=PAGE,
                          reason=f"{v.name} wrecked: a zombie back on the table")

    # -- the end ---------------------------------------------------------------------------------
    def check_end(self, game: Game) -> None:
        st = game.state
        if st.finished:
            return
        if len(on_table(st, ZOMBIE)) < FEWER_THAN:
            self.final_scores(game, f"fewer than {FEWER_THAN} zombies left")
            return
        fielding = {score.side_of(game, v.player) for v in st.in_play() if self.counts(game, v)}
        if len(fielding) <= 1:
            # Ruling ZB-6: "only one player" (side) left fielding vehicles, or none at all.
            self.final_scores(game, "only one player left with vehicles in play"
                              if fielding else "no vehicles left in play")

    def final_scores(self, game: Game, why: str | None = None) -> None:
        reason = why or f"after {self.round_limit} rounds"
        victory.decide(game, score.side_totals(game, ZOMBIES), f"most zombies ({reason})",
                       tie_breaks=self.tie_breaks, source=SOURCE, page=143)

    # -- bots ------------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """The nearest zombie on the table, those near an edge counted farther (a bot
        driving hard at the edge may leave the table)."""
        here = (vehicle.pose.x, vehicle.pose.y)
        pts: list[Point] = [(float(t["x"]), float(t["y"]))
                            for t in on_table(state, ZOMBIE).values()]
        if not pts:
            return None

        def cost(p: Point) -> tuple[float, Point]:
            edge = min(p[0], p[1], state.width - p[0], state.height - p[1])
            return (math.dist(p, here) + max(0.0, EDGE_WARY - edge) * 3.0, p)
        return point_goal(vehicle, min(pts, key=cost))

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        """A dropped zombie goes where the nearest enemy vehicle is farthest from it."""
        if decision.kind != "zombie_drop":
            return super().bot_choice(game, decision)
        st = game.state
        v = st.vehicles.get(decision.vehicle or "")
        if v is None:
            return None
        wreck = next((o for o in st.obstacles.values() if o.wreck_of == v.id), None)
        poly = wreck.polygon() if wreck is not None else v.polygon()
        taken = [(float(t["x"]), float(t["y"])) for t in on_table(st, ZOMBIE).values()]
        spots = spots_near(st, poly, game.templates.ranges["short"], taken)
        mine = score.side_of(game, v.player)
        enemies = [(e.pose.x, e.pose.y) for e in st.in_play()
                   if score.side_of(game, e.player) != mine]
        if not enemies:
            return None
        return max((str(o.value) for o in decision.options if str(o.value) in spots),
                   key=lambda k: (min(math.dist(spots[k], e) for e in enemies), k),
                   default=None)

    # -- what the table shows --------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        return self.spawn_drawables(game) + self.token_drawables(game)

    def report(self, game: Game) -> list[ReportRow]:
        st = game.state
        rows = score.report_rows(game, ZOMBIES, "zombies")
        left = len(on_table(st, ZOMBIE))
        rows.append(ReportRow("zombies_left", "Zombies on the table", left, f"{left} left"))
        rows += spoils_rows(game, self.spoils, score.side_totals(game, ZOMBIES))
        return rows
