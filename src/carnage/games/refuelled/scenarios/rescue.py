"""Savage Highways, Scenario 2A: Rescue (Refuelled pp.169-170; SH-20 to SH-24).

* **Set-up** (SH-20): a seeded wasteland; the **Gangers** choose the rig's upgrade, one never
  attached before in the campaign (the campaign passes it in the ``upgrades`` option; played
  alone, the lowest-seated Ganger chooses among all five).
* **Deployment** (SH-21, ruling SH-R13): the rig in the middle of any edge, square to it and
  facing in (the text gives no facing); the rest of the Riggers touch the opposite edge, the
  Riggers' edge. Each Ganger's first vehicle touches either of the two other edges, the rest
  within Medium of it on that edge, which is that Ganger's own edge for respawns.
* **Sandstorm** (SH-22, ruling SH-R13): when round 1 ends, the Gangers (the lowest-seated
  Ganger decides) may pivot the rig up to 90 degrees either way, in 15-degree steps (decision
  ``sandstorm``); the pivot has its collision window.
* **End and victory** (SH-23, SH-24): the rig touching the Riggers' edge escapes (a Riggers
  win); a Gear Phase beginning with the rig disqualified or Wrecked ends the game, a Gangers
  win.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.movement import pivot_vehicle
from carnage.games.refuelled.engine.state import GameState
from carnage.games.refuelled.scenarios.common.table import scatter_terrain
from carnage.games.refuelled.scenarios.savage_highways import (
    EDGES,
    INWARD,
    OPPOSITE,
    RIGGERS_AND_GANGERS,
    SQUARE_TO,
    SavageHighways,
    _edge_of,
    ask_spot,
    deploy_on_edge,
    deployed_vehicles,
    edge_length,
    edge_spots,
    gangers,
    memory,
    riggers,
    team_of,
    the_rig,
)
from carnage.kernel.briefing import BriefRule, refuelled

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

SANDSTORM_STEP = 15
SANDSTORM_MAX = 90
TERRAIN = 7


class Rescue(SavageHighways):
    id = "rescue"
    name = "Rescue"
    page = 169
    summary = ("Savage Highways 2A: the Riggers win back their War Rig from the Gangers' guard "
               "and drive it off their own edge through a sandstorm.")
    last_page = 170
    how_to_win = ("The Riggers win when the War Rig touches their own edge; a Gear Phase that "
                  "starts with the rig wrecked or disqualified is a Gangers win.")
    special_rules = (
        RIGGERS_AND_GANGERS,
        BriefRule("Deployment",
                  ("The rig starts in the middle of an edge facing in, the Riggers on the "
                   "opposite edge, the Gangers on the other two."),
                  refuelled(169)),
        BriefRule("Sandstorm",
                  "After round 1 the Gangers may turn the rig up to 90 degrees.",
                  refuelled(170)),
    )
    score_title = "Vehicles in play"
    score_target = "the rig reaches the Riggers' edge"
    gangers_choose_upgrade = True

    def generate(self, state: GameState, rng: random.Random) -> None:
        # Clear of every edge by more than the rig's length: its place in any edge's middle.
        scatter_terrain(state, rng, TERRAIN, margin=260.0, gap=90.0)

    def escape_edges(self, state: GameState) -> list[str]:
        return list(memory(state)["edges"].get("riggers", []))

    def setup(self, game: Game) -> Flow:
        st = game.state
        yield from self.attach_upgrades(game)
        r = riggers(st)
        rig = the_rig(st)
        assert rig is not None
        spots = {}
        for e in EDGES:
            spots.update(edge_spots(game, rig, [e], others=[], only=edge_length(st, e) / 2.0))
        yield from ask_spot(game, r, rig, spots, "in the middle of an edge",
                            source=self.source, page=self.page)
        rig_edge = _edge_of(st, rig)
        own = OPPOSITE[rig_edge]
        mem = memory(st)
        mem["edges"] = {"riggers": [own], "rig_start": [rig_edge]}
        for v in team_of(st, r):
            if v.id != rig.id:
                yield from ask_spot(game, r, v, edge_spots(game, v, [own],
                                                           others=deployed_vehicles(st)),
                                    "touching the Riggers' edge", source=self.source,
                                    page=self.page)
        for p in gangers(st):
            edge = yield from deploy_on_edge(game, p, list(SQUARE_TO[rig_edge]),
                                             source=self.source, page=self.page)
            mem["edges"][f"p{p}"] = [edge]
        yield from self.choose_pole(game)

    def end_of_gear_phase(self, game: Game) -> Flow | None:
        st = game.state
        if st.round == 1 and st.gear_phase == 6 and not memory(st).get("sandstorm"):
            return self._sandstorm(game)
        self.swap_pole(game)
        return None

    def _sandstorm(self, game: Game) -> Flow:
        """SH-22: the Gangers may pivot the rig up to 90 degrees either way."""
        st = game.state
        memory(st)["sandstorm"] = True
        rig = the_rig(st)
        if rig is not None and rig.in_play:
            angles = [a for a in range(-SANDSTORM_MAX, SANDSTORM_MAX + 1, SANDSTORM_STEP)]
            pick = int((yield ask(gangers(st)[0], "sandstorm",
                                  f"Sandstorm: pivot {rig.name} (degrees, anticlockwise "
                                  "positive; 0: leave it)?",
                                  [(a, f"{a:+d} degrees" if a else "leave it") for a in angles],
                                  source=self.source, page=170, vehicle=rig.id)))
            game.emit("sandstorm", source=self.source, page=170, vehicle=rig.id, angle=pick)
            if pick:
                yield from pivot_vehicle(game, rig, float(pick), self.source, 170)
        if not st.finished:
            self.swap_pole(game)

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        if decision.kind == "sandstorm":
            return sandstorm_advice(game, decision, self.escape_edges(game.state))
        return super().bot_choice(game, decision)


def sandstorm_advice(game: Game, decision: Decision, escape: list[str]) -> Any:
    """Bots turn the rig as far from its escape edge as they may."""
    rig = the_rig(game.state)
    values = [int(o.value) for o in decision.options]
    if rig is None or not escape:
        return 0
    want = INWARD[OPPOSITE[escape[0]]]  # the way out of the table through the escape edge

    def off(a: int) -> tuple[float, int]:
        h = rig.pose.heading + a
        return (math.cos(math.radians(h - want)), abs(a))

    return min(values, key=off)
