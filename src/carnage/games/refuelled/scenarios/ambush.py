"""Savage Highways, Scenario 2B: Ambush (Refuelled pp.172-173; SH-25 to SH-29).

* **Set-up** (SH-25): a seeded wasteland; the Riggers attach one upgrade; **Swamps**: the
  Riggers may place three Treacherous pieces, each a disc ``SWAMP`` mm across (Medium, the
  largest allowed), anywhere clear of terrain and of each other (decision ``swamp``: a grid
  of spots, or none).
* **Deployment** (SH-26): the rig in the centre of the table (cab and trailer together
  centred on it), facing one edge squarely, which becomes the Riggers' edge (decision
  ``rig_facing``); the rest of the Riggers touch that edge. The Gangers' edges are the two at
  right angles to it: each Ganger's first vehicle touches either, the rest within Medium of
  it on that edge. Respawns touch any of one's side's edges.
* **The rig starts Wrecked** (SH-27): its wrecks (cab and trailer) are on the table and may
  not be removed: a Collision that would clear one leaves it (``wreck_kept``). As soon as a
  Rigger vehicle ends its Movement Step within Short of a wreck (ruling SH-R14), the rig is
  respawned where it lies (p.90: half its Hull Value) and activates as usual from then on.
  Votes cannot respawn it before that.
* **End and victory** (SH-28, SH-29; ruling SH-R14 for A-68): the rig touching either of the
  Gangers' edges escapes (a Riggers win). A Gear Phase beginning with the rig disqualified or
  Wrecked after it was restarted, or with it never restarted and no other Rigger vehicle in
  play to restart it, ends the game: a Gangers win.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import GameState, Obstacle, Status, VehicleState
from carnage.games.refuelled.scenarios.base import Line
from carnage.games.refuelled.scenarios.common.table import scatter_terrain
from carnage.games.refuelled.scenarios.savage_highways import (
    EDGES,
    INWARD,
    NONE,
    RIGGERS_AND_GANGERS,
    SQUARE_TO,
    SavageHighways,
    ask_spot,
    bodies_at,
    clear_at,
    deploy_on_edge,
    deployed_vehicles,
    edge_spots,
    gangers,
    memory,
    place,
    riggers,
    team_of,
    the_rig,
)
from carnage.geometry.shapes import Point, Pose, distance, penetration
from carnage.geometry.surfaces import Surface, SurfaceKind
from carnage.kernel.briefing import BriefRule, refuelled

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

SWAMPS = 3
SWAMP = 120.0
"""Diameter (mm) of a swamp: Medium."""
SWAMP_STEP = 120.0
SWAMP_SIDES = 16
TERRAIN = 6


def swamp_polygon(c: Point, diameter: float = SWAMP) -> tuple[Point, ...]:
    r = diameter / 2.0
    return tuple((c[0] + r * math.cos(2 * math.pi * i / SWAMP_SIDES),
                  c[1] + r * math.sin(2 * math.pi * i / SWAMP_SIDES)) for i in range(SWAMP_SIDES))


def swamp_spots(state: GameState) -> dict[str, Point]:
    """Centres on a ``SWAMP_STEP`` grid where a swamp lies wholly on the table, clear of
    terrain and of the swamps placed."""
    out: dict[str, Point] = {}
    n = int(state.width // SWAMP_STEP)
    m = int(state.height // SWAMP_STEP)
    ox = (state.width - n * SWAMP_STEP) / 2.0
    oy = (state.height - m * SWAMP_STEP) / 2.0
    for i in range(n):
        for j in range(m):
            c = (ox + (i + 0.5) * SWAMP_STEP, oy + (j + 0.5) * SWAMP_STEP)
            poly = list(swamp_polygon(c))
            if any(penetration(poly, ob.polygon()) >= -1e-6 for ob in state.obstacles.values()):
                continue
            if any(penetration(poly, list(s.polygon)) >= -1e-6 for s in state.surfaces.values()):
                continue
            out[f"{c[0]:.0f},{c[1]:.0f}"] = c
    return out


def centre_pose(state: GameState, v: VehicleState, facing: str) -> Pose:
    """``v`` in the centre of the table facing ``facing``: cab and trailer centred on it."""
    h = INWARD[facing] + 180.0
    tl = 0.0 if v.trailer is None else v.trailer.length
    shift = tl / 2.0  # the cab's centre lies this far ahead of the pair's middle
    rad = math.radians(h)
    return Pose(state.width / 2.0 + shift * math.cos(rad),
                state.height / 2.0 + shift * math.sin(rad), h % 360.0)


class Ambush(SavageHighways):
    id = "ambush"
    name = "Ambush"
    page = 172
    summary = ("Savage Highways 2B: the War Rig stands wrecked in the middle of the swamps; "
               "the Riggers must restart it and break out past the Gangers' edges.")
    last_page = 173
    how_to_win = ("The Riggers win when the restarted War Rig touches either Gangers' edge; "
                  "the Gangers win if a Gear Phase starts with the rig wrecked again, or "
                  "unrestarted with no Rigger left to restart it.")
    special_rules = (
        RIGGERS_AND_GANGERS,
        BriefRule("Swamps",
                  "The Riggers may place three treacherous swamps.",
                  refuelled(172)),
        BriefRule("Wrecked rig",
                  ("The rig starts wrecked in the centre; a Rigger vehicle that ends its move "
                   "close to it restarts it."),
                  refuelled(172)),
    )
    score_title = "Vehicles in play"
    score_target = "the rig breaks out"

    def generate(self, state: GameState, rng: random.Random) -> None:
        centre = ((state.width / 2.0, state.height / 2.0), 200.0)
        scatter_terrain(state, rng, TERRAIN, margin=200.0, gap=90.0, keep_out=[centre])

    def escape_edges(self, state: GameState) -> list[str]:
        return list(memory(state)["edges"].get("gangers", []))

    # -- set-up ------------------------------------------------------------------------------
    def setup(self, game: Game) -> Flow:
        st = game.state
        yield from self.attach_upgrades(game)
        r = riggers(st)
        yield from self.swamps(game, r)
        rig = the_rig(st)
        assert rig is not None
        poses = {e: centre_pose(st, rig, e) for e in EDGES}
        poses = {e: p for e, p in poses.items() if clear_at(st, rig, bodies_at(rig, p), [])}
        pick = str((yield ask(r, "rig_facing",
                              "The War Rig stands in the centre of the table, facing which "
                              "edge (the Riggers' edge)?", [(e, f"facing the {e} edge")
                                                            for e in poses],
                              source=self.source, page=self.page, vehicle=rig.id)))
        place(game, rig, poses[pick], f"centre:{pick}", source=self.source, page=self.page)
        mem = memory(st)
        mem["edges"] = {"riggers": [pick], "gangers": list(SQUARE_TO[pick])}
        for v in team_of(st, r):
            if v.id != rig.id:
                yield from ask_spot(game, r, v, edge_spots(game, v, [pick],
                                                           others=deployed_vehicles(st)),
                                    "touching the Riggers' edge", source=self.source,
                                    page=self.page)
        for p in gangers(st):
            yield from deploy_on_edge(game, p, list(SQUARE_TO[pick]), source=self.source,
                                      page=self.page)
        self.wreck_the_rig(game, rig)
        yield from self.choose_pole(game)

    def swamps(self, game: Game, player: int) -> Flow:
        st = game.state
        for n in range(SWAMPS):
            spots = swamp_spots(st)
            if not spots:
                break
            pick = str((yield ask(player, "swamp", f"Swamp {n + 1} of {SWAMPS}: where?",
                                  [(NONE, "no swamp")] + [(k, f"centred at {k} mm")
                                                          for k in spots],
                                  source=self.source, page=self.page)))
            if pick == NONE:
                continue
            sid = f"swamp-{n + 1}"
            st.surfaces[sid] = Surface(sid, SurfaceKind.TREACHEROUS, swamp_polygon(spots[pick]))
            game.emit("swamp", source=self.source, page=self.page, surface=sid, player=player,
                      x=round(spots[pick][0], 3), y=round(spots[pick][1], 3))

    def wreck_the_rig(self, game: Game, rig: VehicleState) -> None:
        """SH-27: the rig begins Wrecked: 0 Hull Points, its wrecks on the table."""
        st = game.state
        rig.damage = rig.hull
        rig.status = Status.WRECKED
        ids = []
        for bid, rect in rig.bodies():
            oid = f"wreck:{bid}"
            st.obstacles[oid] = Obstacle(oid, rect.pose, rect.length, rect.width,
                                         weight=rig.weight, destructible=True, wreck_of=rig.id)
            ids.append(oid)
        memory(st)["rig_wrecks"] = ids
        memory(st)["restarted"] = False
        game.emit("rig_starts_wrecked", source=self.source, page=self.page, vehicle=rig.id,
                  obstacles=ids)

    # -- play --------------------------------------------------------------------------------
    def install_more(self, game: Game, eff: str) -> None:
        game.effects.on("may_respawn", eff, self._may_respawn, -10)
        game.effects.add_flow("movement_end", eff, lambda ctx: self._restart)
        game.effects.add_flow("collision_end", eff, lambda ctx: self._keep_wreck, 50)

    def _may_respawn(self, value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        rig = the_rig(game.state)
        if rig is not None and ctx.get("vehicle") is rig and not memory(game.state).get(
                "restarted", True):
            return False
        return None

    def _restart(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """A Rigger vehicle within Short of the wreck restarts the rig (SH-27)."""
        from carnage.games.refuelled.engine.votes import respawn

        st = game.state
        mem = memory(st)
        v: VehicleState = ctx["vehicle"]
        rig = the_rig(st)
        if (rig is None or mem.get("restarted", True) or v.player != riggers(st)
                or v.id == rig.id or not v.in_play or st.finished):
            return
        short = float(game.templates.ranges["short"])
        wrecks = [st.obstacles[o].polygon() for o in mem.get("rig_wrecks", [])
                  if o in st.obstacles]
        mine = [r.polygon() for _, r in v.bodies()]
        if not wrecks:
            return
        from carnage.games.refuelled.engine.table_facts import judged

        # At a real table the people say whether it is within Short of the wreck (CP-22).
        if not (yield from judged(
                game, v.player, "near_rig_wreck", f"{v.name}: is it within Short of the War "
                "Rig's wreck (to restart it)?",
                lambda: min(distance(a, b) for a in mine for b in wrecks) <= short + 1e-6,
                page=self.page, vehicle=v.id, target=rig.id)):
            return
        mem["restarted"] = True
        for oid in mem.get("rig_wrecks", []):  # the cab's wreck first: it comes back there
            if oid in st.obstacles:
                st.obstacles[oid] = st.obstacles.pop(oid)
        game.emit("rig_restarted", source=self.source, page=self.page, vehicle=rig.id,
                  by=v.id)
        yield from respawn(game, rig, rig.player, source=self.source, page=self.page)

    def _keep_wreck(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """The rig's wreck may not be removed (SH-27): put back what a Collision cleared."""
        st = game.state
        ob = ctx.get("obstacle")
        mem = memory(st)
        if (isinstance(ob, Obstacle) and ob.id in mem.get("rig_wrecks", [])
                and not mem.get("restarted", True) and ob.id not in st.obstacles):
            st.obstacles[ob.id] = ob
            game.emit("wreck_kept", source=self.source, page=self.page, obstacle=ob.id)
        yield from ()

    def check_end(self, game: Game) -> None:
        st = game.state
        if memory(st).get("restarted", True):
            super().check_end(game)
            return
        r = riggers(st)
        if not any(v.in_play for v in team_of(st, r)):
            self.gangers_win(game, "a Gear Phase began with the War Rig still a wreck and no "
                             "Rigger vehicle left to restart it")

    # -- bots --------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        mem = memory(state)
        rig = the_rig(state)
        if (rig is not None and vehicle.player == riggers(state) and vehicle.id != rig.id
                and not mem.get("restarted", True)):
            wrecks = [state.obstacles[o] for o in mem.get("rig_wrecks", [])
                      if o in state.obstacles]
            if wrecks:
                c = (wrecks[0].pose.x, wrecks[0].pose.y)
                return Line(c, c, (0.0, 1.0))
        return super().goal(state, vehicle)

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        st = game.state
        if decision.kind == "swamp":
            # Swamps across the Gangers' way in: nearest the middle of a side edge.
            values = [str(o.value) for o in decision.options if o.value != NONE]
            if not values:
                return NONE
            return min(values, key=lambda k: (abs(float(k.split(",")[1]) - st.height / 2.0)
                                              + abs(abs(float(k.split(",")[0]) - st.width / 2.0)
                                                    - st.width / 4.0), k))
        if decision.kind == "rig_facing":
            return sorted(str(o.value) for o in decision.options)[0]
        return super().bot_choice(game, decision)
