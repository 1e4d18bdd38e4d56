"""Scavenger Party (Refuelled pp.139-140): grab the crates from a buried fuel dump.

A wasteland, with D6+6 crates in a rough circle, each exactly Double from the centre of the
table. Players roll off for Pole Position, which passes clockwise after every Gear Phase; spawn
points and deployment follow the usual pattern, respawning at one's own spawn point. A vehicle
whose template or Final Position touches a crate, or that spins or pivots into one, picks it up
and carries it on its dashboard, and gains a loot box item (loot.py). A Wrecked carrier's crates
go back on the table touching the wreck; a vehicle leaving the table has scarpered and keeps
its crates. The game ends as soon as a player holds more than half the starting crates, or
after round 3; the player holding the most crates wins. Televised Season spoils: D6+1 Cans per
crate held, at most 20.

Rulings SCV-1 to SCV-9 in docs/rulings.md.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
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
    carried_by,
    on_table,
    tokens,
)
from carnage.games.refuelled.scenarios.loot import grant, held, install_loot, loot
from carnage.games.refuelled.scenarios.skirmish_layout import (
    CRATE_SIZE,
    WASTELAND_PIECES,
    Spoils,
    circle,
    crate_ring,
    point_goal,
    skirmish_teams,
    spoils_rows,
)
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.geometry.shapes import Point, Pose
    from carnage.kernel.decisions import Decision

PAGE = 139
SOURCE = "scavenger_party"
CRATE = "crate"
KEY = "scavenger_party"
RING_CLEAR = 15.0
"""Generated terrain keeps this far (mm), plus its usual gap, from the crate ring (ruling
SCV-2)."""


class ScavengerParty(SpawnPoints, CarriedTokens, RollOffPole, TableScenario):
    id = "scavenger-party"
    name = "Scavenger Party"
    page = PAGE
    summary = ("Grab the crates ringed round the centre, each with a one-shot loot box "
               "weapon; hold the most after three rounds, or more than half at once.")
    last_page = 140
    how_to_win = ("Hold more than half of the starting crates to win at once; otherwise, after"
                  " round 3, whoever holds the most crates wins.")
    special_rules = (
        BriefRule("Crates",
                  ("D6+6 crates lie in a ring Double from the centre; touching one picks it "
                   "up."),
                  refuelled(139)),
        BriefRule("Loot",
                  "Each crate picked up gives its vehicle a one-shot loot item.",
                  refuelled(140)),
        BriefRule("Dropped",
                  ("A wrecked carrier's crates fall beside the wreck; a vehicle that leaves "
                   "the table keeps them."),
                  refuelled(139)),
    )
    score_title = "Crates held"
    score_target = "most after round 3"
    score_tokens = (CRATE, "crates")
    table = SKIRMISH
    table_rolls = (3, 4)
    round_limit = 3
    scarper = True
    spoils = Spoils("crates", "crate", per_unit=1, dice=1, cap=20, page=140)
    """Televised Season (p.140): D6+1 Cans per crate held at the end, at most 20."""

    # -- the table -------------------------------------------------------------------------------
    def generate(self, state: GameState, rng: random.Random) -> None:
        """A wasteland kept clear of the ring, then D6+6 crates on it (ruling SCV-2)."""
        centre = (state.width / 2.0, state.height / 2.0)
        double = 300.0  # the ring's radius; the template set's Double (checked in setup)
        count = rng.randint(1, 6) + 6
        turn = rng.randint(1, 6)
        ring = [(p, RING_CLEAR) for p in circle(centre, double, 48)]
        scatter_terrain(state, rng, WASTELAND_PIECES, keep_out=ring)
        state.scenario.setdefault(KEY, {}).update(count=count, turn=turn)

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        return skirmish_teams(players, "Scavengers")

    def setup(self, game: Game) -> Flow:
        st = game.state
        st.scenario.setdefault("tokens", {})
        loot(st)  # read by the table and bots: there from the start
        memo = st.scenario.setdefault(KEY, {})
        if "count" not in memo:  # a table laid out by hand: roll for the crates now
            memo["count"] = game.roll(1, "crates", source=SOURCE, page=PAGE)[0] + 6
            memo["turn"] = 1
        points = crate_ring(st, float(game.templates.ranges["double"]), int(memo["count"]),
                            int(memo["turn"]))
        for i, p in enumerate(points):
            add_token(game, f"crate-{i + 1}", CRATE, at=p, size=CRATE_SIZE, source=SOURCE,
                      page=PAGE)
        memo["start"] = len(points)
        st.pole = self.roll_off(game)
        yield from place_spawn_points(game, source=SOURCE, page=PAGE)
        yield from deploy_at_spawn_points(game, source=SOURCE, page=PAGE)

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        return spawn_option_poses(game, decision.vehicle, decision.kind,
                                  [o.value for o in decision.options])

    # -- the special rules -----------------------------------------------------------------------
    def install(self, game: Game) -> None:
        self.install_tokens(game)
        install_loot(game, f"scenario:{self.id}:loot")

    def token_picked_up(self, game: Game, v: VehicleState, tid: str) -> None:
        """A loot box with every crate picked up (ruling SCV-3: always picked up)."""
        die = game.roll(1, "loot box", source="loot_box", page=140, vehicle=v.id)[0]
        grant(game, v, die)
        self.check_end(game)

    def crates_held(self, game: Game) -> dict[int, int]:
        """Side -> crates held by its vehicles: on a vehicle in play, or on one that
        scarpered (G-13)."""
        st = game.state
        out = {s: 0 for s in score.sides(game)}
        for t in tokens(st, CRATE).values():
            carrier = st.vehicles.get(t["carrier"] or "")
            if carrier is not None and carrier.status in (Status.ACTIVE, Status.DISQUALIFIED):
                side = score.side_of(game, carrier.player)
                out[side] = out.get(side, 0) + 1
        return out

    # -- the end ---------------------------------------------------------------------------------
    def check_end(self, game: Game) -> None:
        st = game.state
        if st.finished:
            return
        start = int(st.scenario.get(KEY, {}).get("start", 0))
        held_now = self.crates_held(game)
        if any(2 * n > start for n in held_now.values()):
            self.final_scores(game, "more than half the crates held")

    def final_scores(self, game: Game, why: str | None = None) -> None:
        reason = why or f"after {self.round_limit} rounds"
        victory.decide(game, self.crates_held(game), f"most crates held ({reason})",
                       tie_breaks=self.tie_breaks, source=SOURCE, page=140)

    # -- bots ------------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """The nearest crate on the table; else the nearest enemy carrying one."""
        here = (vehicle.pose.x, vehicle.pose.y)
        pts: list[Point] = [(float(t["x"]), float(t["y"]))
                            for t in on_table(state, CRATE).values()]
        if not pts:
            pts = [(v.pose.x, v.pose.y) for v in state.in_play()
                   if v.player != vehicle.player and carried_by(state, v.id, CRATE)]
        if not pts:
            return None
        return point_goal(vehicle, min(pts, key=lambda p: (math.dist(p, here), p)))

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        return super().bot_choice(game, decision)

    # -- what the table shows --------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        st = game.state
        centre = (st.width / 2.0, st.height / 2.0)
        ring = Drawable("crate-ring", "zone", circle(centre, game.templates.ranges["double"], 48),
                        label="Double from the centre", style="ring")
        return [*self.spawn_drawables(game), ring, *self.token_drawables(game)]

    def report(self, game: Game) -> list[ReportRow]:
        st = game.state
        held_now = self.crates_held(game)
        rows = [ReportRow(f"crates_{score.side_label(game, s).lower().replace(' ', '_')}",
                          f"{score.side_label(game, s)} crates", n, f"{n} held")
                for s, n in sorted(held_now.items())]
        left = len(on_table(st, CRATE))
        rows.append(ReportRow("crates_left", "Crates on the table", left, f"{left} left"))
        for v in st.vehicles.values():
            items = held(st, v.id)
            if items:
                rows.append(ReportRow(f"loot_{v.id}", f"{v.name} loot", len(items),
                                      ", ".join(str(i["item"]) for i in items)))
        rows += spoils_rows(game, self.spoils, held_now)
        return rows
