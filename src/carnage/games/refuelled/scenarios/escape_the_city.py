"""Savage Highways, Scenario 1: Escape the City (Refuelled pp.168-169; SH-15 to SH-19).

* **Set-up** (SH-15): a seeded wasteland; the Riggers attach one War Rig Upgrade (the
  ``upgrades`` option, or a ``war_rig_upgrade`` decision).
* **Deployment** (SH-16): the Riggers put the rig touching any edge, which becomes their
  edge (decision ``edge_pose`` over every edge), then the rest of their team touching it. The
  Gangers, in seat order (ruling SH-R11 for "an order they agree"), deploy on the opposite
  edge: each one's first vehicle anywhere touching it, the rest within Medium of that
  vehicle, touching it too. Respawns touch one's own edge.
* **Road Blocks** (SH-17): then the Gangers may put down two pieces of scenery, each
  ``ROAD_BLOCK`` (at most Medium long and Short wide), wholly beyond Long of the rig
  (decision ``road_block``: a grid of spots, or none; the Gangers take turns in seat order).
* **Pole** (SH-13): savage_highways.py.
* **End and victory** (SH-18): the rig touching the Gangers' edge escapes and the Riggers
  win; the rig disqualified or Wrecked ends the game at once, a Gangers win (ruling SH-R12:
  checked after every step, unlike the later scenarios).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import GameState, Obstacle
from carnage.games.refuelled.scenarios.common.table import scatter_terrain
from carnage.games.refuelled.scenarios.savage_highways import (
    EDGES,
    NONE,
    OPPOSITE,
    RIGGERS_AND_GANGERS,
    SavageHighways,
    _edge_of,
    ask_spot,
    body_polys,
    deploy_on_edge,
    deployed_vehicles,
    edge_spots,
    gangers,
    memory,
    obstacle_spots,
    riggers,
    team_of,
    the_rig,
)
from carnage.geometry.shapes import Pose
from carnage.kernel.briefing import BriefRule, refuelled

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

ROAD_BLOCKS = 2
ROAD_BLOCK = (120.0, 60.0)
"""Length and width (mm) of a Road Block: Medium by Short, the largest allowed."""
ROAD_BLOCK_STEP = 100.0
TERRAIN = 7


class EscapeTheCity(SavageHighways):
    id = "escape-the-city"
    name = "Escape the City"
    page = 168
    summary = ("Savage Highways 1: the Riggers' War Rig must cross the table to the Gangers' "
               "edge through their road blocks; if the rig falls, the Gangers win.")
    last_page = 169
    how_to_win = ("The Riggers win when their War Rig touches the Gangers' edge; the Gangers "
                  "win the moment the rig is wrecked or disqualified.")
    special_rules = (
        RIGGERS_AND_GANGERS,
        BriefRule("Deployment",
                  ("The rig starts on an edge of the Riggers' choosing; the Gangers deploy on "
                   "the opposite edge."),
                  refuelled(168)),
        BriefRule("Road blocks",
                  "The Gangers may put down two road blocks well ahead of the rig.",
                  refuelled(168)),
    )
    score_title = "Vehicles in play"
    score_target = "the rig reaches the far edge"
    end_checks = frozenset({"step"})

    def generate(self, state: GameState, rng: random.Random) -> None:
        scatter_terrain(state, rng, TERRAIN, margin=200.0, gap=90.0)

    def escape_edges(self, state: GameState) -> list[str]:
        return list(memory(state)["edges"].get("gangers", []))

    def setup(self, game: Game) -> Flow:
        st = game.state
        yield from self.attach_upgrades(game)
        r = riggers(st)
        rig = the_rig(st)
        assert rig is not None
        spots = edge_spots(game, rig, EDGES, others=[])
        yield from ask_spot(game, r, rig, spots, "touching any edge: the Riggers' edge",
                            source=self.source, page=self.page)
        edge = _edge_of(st, rig)
        mem = memory(st)
        mem["edges"] = {"riggers": [edge], "gangers": [OPPOSITE[edge]]}
        for v in team_of(st, r):
            if v.id != rig.id:
                yield from ask_spot(game, r, v, edge_spots(game, v, [edge],
                                                           others=deployed_vehicles(st)),
                                    "touching the Riggers' edge", source=self.source,
                                    page=self.page)
        for p in gangers(st):
            yield from deploy_on_edge(game, p, [OPPOSITE[edge]], source=self.source,
                                      page=self.page)
        yield from self.road_blocks(game)
        yield from self.choose_pole(game)

    def road_blocks(self, game: Game) -> Flow:
        """SH-17: up to two pieces, the Gangers taking turns (seat order)."""
        st = game.state
        rig = the_rig(st)
        assert rig is not None
        long = float(game.templates.ranges["long"])
        gs = gangers(st)
        for n in range(ROAD_BLOCKS):
            spots = obstacle_spots(st, *ROAD_BLOCK, step=ROAD_BLOCK_STEP, headings=(0.0, 90.0),
                                   keep_clear=body_polys(rig), keep_reach=long)
            if not spots:
                break
            p = gs[n % len(gs)]
            pick = str((yield ask(p, "road_block",
                                  f"Road Block {n + 1} of {ROAD_BLOCKS}: where does it go "
                                  "(wholly beyond Long of the War Rig)?",
                                  [(NONE, "no road block")] + [
                                      (k, f"at {k.rsplit(',', 1)[0]} mm, turned "
                                          f"{k.rsplit(',', 1)[1]} degrees") for k in spots],
                                  source=self.source, page=self.page)))
            if pick == NONE:
                continue
            oid = f"road-block-{n + 1}"
            st.obstacles[oid] = Obstacle(oid, spots[pick], *ROAD_BLOCK)
            game.emit("road_block", source=self.source, page=self.page, obstacle=oid,
                      player=p, x=round(spots[pick].x, 3), y=round(spots[pick].y, 3),
                      heading=round(spots[pick].heading, 3))

    def check_end(self, game: Game) -> None:
        """SH-18: the rig disqualified or Wrecked ends the game at once."""
        lost = self.rig_lost(game)
        if lost is not None:
            self.gangers_win(game, f"the War Rig was {lost}")

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        if decision.kind == "road_block":
            return road_block_advice(game, decision)
        return super().bot_choice(game, decision)


def road_block_advice(game: Game, decision: Decision) -> Any:
    """Bots narrow the rig's road without plugging it: the spot nearest a point well ahead
    of the rig and off to one side (the first block to its left, the second to its right),
    lying along its way."""
    rig = the_rig(game.state)
    values = [str(o.value) for o in decision.options if o.value != NONE]
    if rig is None or not values:
        return NONE
    h = math.radians(rig.pose.heading)
    side = 1.0 if not ev_blocks(game) else -1.0
    ahead = (rig.pose.x + 450.0 * math.cos(h) - side * 220.0 * math.sin(h),
             rig.pose.y + 450.0 * math.sin(h) + side * 220.0 * math.cos(h))

    def score(k: str) -> tuple[float, str]:
        x, y, turn = (float(t) for t in k.split(","))
        across = abs(math.sin(math.radians(turn - rig.pose.heading)))
        return (math.dist((x, y), ahead) + 100.0 * across, k)

    return min(values, key=score)


def ev_blocks(game: Game) -> list[str]:
    """The Road Blocks placed so far."""
    return sorted(k for k in game.state.obstacles if k.startswith("road-block-"))


def road_block_pose(key: str) -> Pose:
    x, y, h = (float(t) for t in key.split(","))
    return Pose(x, y, h)
