"""The Revolution Will Be Televised (Refuelled pp.141-142): hit the uplink, noted in secret.

* **Table** (p.141): a seeded wasteland (``TERRAIN`` pieces). Each player notes one terrain
  piece in secret (a hidden decision and a secret per seat, kernel/secrets.py); only pieces a
  vehicle can collide with may be noted (obstacles, not surfaces or ramps: ruling RWBT-1).
* **Pole** (p.141): roll-off, passed clockwise after each Gear Phase.
* **Deployment** (p.141): spawn points within Medium of an edge, more than Double apart,
  placed in Pole order (ruling RWBT-5); vehicles deploy within Short of their own in Pole
  order; respawns come back there (common/spawn.py).
* **The Uplink** (p.141, M-27): when the game begins, and each time the next uplink is due,
  the player with Pole Position reveals their noted piece: it becomes the uplink, and that
  player notes a new piece (ruling RWBT-2). Once per Gear Phase for the whole table (ruling
  RWBT-3), a vehicle colliding with the uplink scores its controller 1 VP, and a new uplink
  is revealed.
* **Game end** (p.141): a player reaching 3 VP ends it at once; else after round 3.
* **Victory** (p.142): the most VP (ties: ruling RWBT-6).
* **Resistance Broadcast / Censorship** (pp.141-142): Televised Season rules, kept as data
  (``RESISTANCE``) for the campaign layer.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, Obstacle, VehicleState
from carnage.games.refuelled.scenarios.base import SKIRMISH, Line, TableScenario
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.common.spawn import (
    SpawnPoints,
    deploy_at_spawn_points,
    place_spawn_points,
    spawn_option_poses,
)
from carnage.games.refuelled.scenarios.common.table import scatter_terrain
from carnage.geometry.shapes import Pose
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.kernel.secrets import keep_secret, reveal, secret

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision
    from carnage.team.model import TeamSpec

PAGE = 141
SOURCE = "revolution_televised"
TARGET_VP = 3
ROUNDS = 3
TERRAIN = 8
NOTE = "noted_terrain"
RESISTANCE: dict[str, str] = {
    "resistance_broadcast": "In a Televised Season, a player about to gain a Victory Point may "
                            "take a Resistance Point instead (p.141).",
    "censorship": "In a Televised Season, a player who gained any Resistance Points in this "
                  "game earns no Championship Points from it (p.142).",
}
"""The Televised Season's Resistance rules of this scenario, for the campaign layer."""


def note_key(player: int) -> str:
    return f"note:{player}"


def memory(state: GameState) -> dict[str, Any]:
    out: dict[str, Any] = state.scenario.setdefault("uplink", {
        "uplink": None, "scored_phase": None, "uplinks": [],
    })
    return out


def _phase(state: GameState) -> int:
    return (state.round - 1) * 6 + state.gear_phase


class RevolutionWillBeTelevised(SpawnPoints, RollOffPole, TableScenario):
    id = "the-revolution-will-be-televised"
    name = "The Revolution Will Be Televised"
    page = PAGE
    min_players = 2
    max_players = None
    summary = ("Ram the uplink the Pole holder picked in secret to broadcast for the "
               "Resistance; 3 VP or the most after three rounds wins.")
    last_page = 142
    how_to_win = "Reach 3 VP to win at once; otherwise, after round 3, the most VP wins."
    special_rules = (
        BriefRule("Secret pieces",
                  "Each player notes one piece of terrain in secret.",
                  refuelled(141)),
        BriefRule("The uplink",
                  ("The Pole holder reveals their piece as the uplink; the first vehicle to "
                   "collide with it each Gear Phase scores 1 VP and a new uplink is revealed."),
                  refuelled(141)),
        BriefRule("Spawn points",
                  ("Spawn points go near the edges, far apart; vehicles deploy and respawn by "
                   "their own."),
                  refuelled(141)),
    )
    score_title = "Victory Points"
    score_target = "first to 3 VP"
    score_tallies = (("vp", "VP"),)
    table = SKIRMISH
    table_rolls = (5,)
    end_checks: frozenset[str] = frozenset()
    """No elimination victory: 3 VP end it at once, else the round limit (p.141)."""
    round_limit = ROUNDS

    # -- the table -------------------------------------------------------------------------------
    def generate(self, state: GameState, rng: random.Random) -> None:
        """A seeded wasteland: ``TERRAIN`` pieces clear of each other and of the edges' spawn
        band (common/table.py)."""
        scatter_terrain(state, rng, TERRAIN, margin=140.0, gap=60.0)

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        from carnage.games.refuelled.scenarios.street_race import StreetRace

        return StreetRace().default_teams(players)

    def uplink(self, state: GameState) -> Obstacle | None:
        uid = memory(state)["uplink"]
        return None if uid is None else state.obstacles.get(uid)

    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """The uplink, for bots: a line across its near side, square to the way there, as
        wide as the piece (crossing it means driving into the uplink)."""
        ob = self.uplink(state)
        if ob is None:
            return None
        p = (ob.pose.x, ob.pose.y)
        dx, dy = p[0] - vehicle.pose.x, p[1] - vehicle.pose.y
        n = math.hypot(dx, dy) or 1.0
        ux, uy = dx / n, dy / n
        half = math.hypot(ob.length, ob.width) / 2.0
        c = (p[0] - ux * half, p[1] - uy * half)
        return Line((c[0] + uy * half, c[1] - ux * half), (c[0] - uy * half, c[1] + ux * half),
                    (ux, uy))

    def goal_targets(self, state: GameState, vehicle: VehicleState) -> frozenset[str]:
        """Bots drive into the uplink: touching it scores (p.141)."""
        up = memory(state)["uplink"] if "uplink" in state.scenario else None
        return frozenset() if up is None else frozenset({str(up)})

    # -- set-up ----------------------------------------------------------------------------------
    def install(self, game: Game) -> None:
        game.effects.add_flow("collision_end", f"scenario:{self.id}", self._pick_collision)

    def setup(self, game: Game) -> Flow:
        st = game.state
        memory(st)
        for p in range(st.players):  # "each player notes a piece of terrain" (p.141)
            yield from self.note(game, p)
        st.pole = self.roll_off(game)
        yield from place_spawn_points(game, source=SOURCE, page=PAGE)
        yield from deploy_at_spawn_points(game, source=SOURCE, page=PAGE)
        yield from self.new_uplink(game, "the game begins")

    def notable(self, state: GameState) -> list[str]:
        """Ruling RWBT-1: pieces that may be noted: obstacles a vehicle can collide with
        (not wrecks), other than the uplink now."""
        up = memory(state)["uplink"]
        return sorted(k for k, ob in state.obstacles.items() if ob.wreck_of is None and k != up)

    def note(self, game: Game, player: int) -> Flow:
        """``player`` notes a terrain piece in secret."""
        pieces = self.notable(game.state)
        if not pieces:
            return
        pick = yield ask(player, "note_terrain", "Note a terrain piece in secret: it may "
                         "become the uplink", [(k, k) for k in pieces], source=SOURCE,
                         page=PAGE, hidden=True)
        keep_secret(game, note_key(player), str(pick), [player], kind=NOTE,
                    label="Noted terrain piece", text=str(pick), owner=player,
                    source=SOURCE, page=PAGE)

    def new_uplink(self, game: Game, why: str) -> Flow:
        """The Pole holder reveals their note: the uplink; they note a new piece (ruling
        RWBT-2). A note naming a piece gone from the table is void: they note again at once
        and reveal that (ruling RWBT-4)."""
        st = game.state
        mem = memory(st)
        p = st.pole
        s = secret(game, note_key(p))
        if s is None or str(s.value) not in st.obstacles:
            if s is not None:
                reveal(game, note_key(p), source=SOURCE, page=PAGE, why="no longer on the table")
            yield from self.note(game, p)
            s = secret(game, note_key(p))
            if s is None:
                return
        reveal(game, note_key(p), source=SOURCE, page=PAGE, why=why)
        mem["uplink"] = str(s.value)
        mem["uplinks"].append(str(s.value))
        game.emit("uplink", source=SOURCE, page=PAGE, obstacle=str(s.value), player=p,
                  reason=why)
        yield from self.note(game, p)

    # -- play ------------------------------------------------------------------------------------
    def _pick_collision(self, ctx: dict[str, Any]) -> Any:
        ob = ctx.get("obstacle")
        if ob is None or ob.id != memory(ctx["game"].state)["uplink"]:
            return None
        return self._uplink_hit

    def _uplink_hit(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """A vehicle collided with the uplink: 1 VP, at most once per Gear Phase (p.141)."""
        st = game.state
        mem = memory(st)
        v: VehicleState = ctx["vehicle"]
        if (st.finished or mem["scored_phase"] == _phase(st) or not self.counts(game, v)
                or not v.in_contention):
            return
        mem["scored_phase"] = _phase(st)
        vp = score.add(game, score.VP, 1, player=v.player, source=SOURCE, page=PAGE,
                       reason=f"{v.name} hit the uplink")
        if vp >= TARGET_VP:
            w = score.side_of(game, v.player)
            game.finish(w, f"{score.side_label(game, w)} reached {TARGET_VP} Victory Points")
            return
        yield from self.new_uplink(game, "the uplink was hit")

    def check_end(self, game: Game) -> None:
        """Nothing but 3 VP (``_uplink_hit``) and the round limit ends the game (p.141):
        after round 3 the most VP win, ties broken as the shared machinery does (common/
        victory.py ``decide``, ruling SC-4; RWBT-6)."""
        return None

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        return spawn_option_poses(game, decision.vehicle, decision.kind,
                                  [o.value for o in decision.options])

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        """A bot notes the piece nearest its own spawn point (it wants to reach it first)."""
        if decision.kind != "note_terrain":
            return super().bot_choice(game, decision)
        from carnage.games.refuelled.scenarios.common.spawn import spawn_point

        st = game.state
        home = spawn_point(st, decision.player) or (st.width / 2.0, st.height / 2.0)
        return min((o.value for o in decision.options),
                   key=lambda k: (math.dist(home, (st.obstacles[str(k)].pose.x,
                                                   st.obstacles[str(k)].pose.y)), str(k)))

    # -- what the table shows ----------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        out = list(self.spawn_drawables(game))
        ob = self.uplink(game.state)
        if ob is not None:
            out.append(Drawable("uplink", "zone", tuple(ob.polygon()), label="UPLINK",
                                style="objective"))
        return out

    def report(self, game: Game) -> list[ReportRow]:
        st = game.state
        mem = memory(st)
        rows = score.report_rows(game, score.VP)
        up = mem["uplink"]
        rows.append(ReportRow("uplink", "Uplink", up, "none" if up is None
                              else up.replace("-", " ")))
        rows.append(ReportRow("uplinks_hit", "Uplinks hit", len(mem["uplinks"]) - 1,
                              str(len(mem["uplinks"]) - 1), tally=True))
        return rows

