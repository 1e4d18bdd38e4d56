"""The rolling road: exit edges, the Leader, exits marked by Gear Phase, and the next table
(Refuelled pp.137-138, Express Delivery; the shape Savage Highways' last chapter reuses).

Our table runs bottom to top: the **entry edge** is the bottom edge (y = 0), the **exit
edge** the top one (y = height), so vehicles travel up the table (heading 90).

* A vehicle whose movement template or Final Position overlaps the exit edge **exits** this
  table (M-23): it is taken off (status ``exited``), neither wrecked nor disqualified, and
  where it left (its exit point, ruling ED-6) and the gear it was in are recorded.
* The first vehicle off a table is the **Leader** (ruling ED-2). Exits are marked by Gear
  Phase: "1" for the Leader's phase, "2" for the next (even across a round), and so on;
  after the Gear Phase that marks "6" whatever is still on the table is disqualified.
* Once no vehicle is left on the table (checked at the end of each Gear Phase, ruling ED-4),
  the table is **rebuilt**: wrecks and dropped templates are cleared (ruling ED-3), the
  players take turns placing the terrain pieces again (Pole order, one piece each turn,
  chosen among finite legal spots wholly beyond Long of the entry edge, clear of the spawn
  points and of each other), the rest of the round is skipped and a new round begins
  (ruling ED-4).
* At the start of Gear Phase *k* of the new table, the vehicles marked *k* come back on the
  entry edge exactly opposite their exit point, facing straight in, in the gear they left
  in (ruling ED-6 for heading and clashes).

All of it lives in ``state.scenario["road"]``; ``RollingRoad`` holds only its settings.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.movement import disqualify
from carnage.games.refuelled.engine.state import GameState, Obstacle, Status, VehicleState
from carnage.games.refuelled.engine.table_facts import ask_yes_no
from carnage.geometry.shapes import Point, Pose, Rect, penetration
from carnage.kernel.effects import CANCEL, always

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

PAGE = 137
SOURCE = "rolling_road"
LONG = 180.0
"""Long range (mm): no terrain is placed this close to the entry edge (p.137)."""
LAST_MARK = 6
"""After the Gear Phase that marks this number, the vehicles still on the table are out."""
CANDIDATE_STEP = 60.0
"""Terrain candidates lie on a grid this many mm apart (ruling ED-5)."""
SLIDE_STEP = 5.0
"""A re-entering vehicle whose spot is taken moves along the entry edge by this step."""
EDGE_TOL = 1e-6
ENTRY_HEADING = 90.0


def road(state: GameState) -> dict[str, Any]:
    """The rolling road's memory in the state."""
    out: dict[str, Any] = state.scenario.setdefault("road", {
        "table": 1, "leader": None, "leader_phase": None, "exits": {}, "returning": {},
        "rebuild": False,
    })
    return out


def phase_index(state: GameState) -> int:
    """Gear Phases played so far, counted across rounds (round 1 phase 1 = 1)."""
    return (state.round - 1) * 6 + state.gear_phase


def current_mark(state: GameState) -> int | None:
    """The mark a vehicle exiting now would get (None before the Leader has left)."""
    r = road(state)
    if r["leader_phase"] is None:
        return None
    return phase_index(state) - int(r["leader_phase"]) + 1


def over_exit_edge(parts: Sequence[Sequence[Point]], state: GameState) -> bool:
    """Does any of the convex ``parts`` overlap the exit edge (reach past y = height)?"""
    return any(y > state.height + EDGE_TOL for part in parts for _, y in part)


def exit_point(v: VehicleState, state: GameState) -> float:
    """Ruling ED-6: where ``v`` left, along the exit edge: where the line through its centre
    along its heading meets the edge (its centre's x when it runs along the edge), kept far
    enough from the corners that the vehicle fits on the table."""
    h = math.radians(v.pose.heading)
    x = v.pose.x
    if abs(math.sin(h)) > 1e-6:
        x = v.pose.x + (state.height - v.pose.y) * math.cos(h) / math.sin(h)
    half = v.width / 2.0
    return min(max(x, half), state.width - half)


def entry_pose(v: VehicleState, x: float) -> Pose:
    """Touching the entry edge at ``x``, facing straight up the table (ruling ED-6); a
    trailer follows behind the cab on the table too."""
    behind = 0.0 if v.trailer is None else v.trailer.length
    return Pose(x, v.length / 2.0 + behind + EDGE_TOL, ENTRY_HEADING)


@dataclass(frozen=True, kw_only=True)
class RollingRoad:
    """The rolling road's rules for a scenario (settings only; memory in the state).
    ``on_exit(game, vehicle)`` runs after each exit (a scenario's points for leaving);
    ``spawn_points(state)`` lists the spawn discs terrain must keep clear of."""

    source: str = SOURCE
    page: int = PAGE
    on_exit: Callable[[Game, VehicleState], None] | None = None
    spawn_points: Callable[[GameState], list[tuple[Point, float]]] | None = None
    leader_hands_on_pole: bool = True
    """Express Delivery's Leader hands Pole Position on as it exits (p.137)."""

    # -- attaching ---------------------------------------------------------------------------
    def install(self, game: Game, effect: str) -> None:
        game.effects.on("off_table", effect, self._off_table)
        game.effects.on("after_move", effect, self._after_move)
        if game.facts.people:  # a real table: the people say when it went over the exit edge
            game.effects.add_flow("table_edge", effect, always(self._edge_told))
            game.effects.add_flow("table_motion", effect, always(self._final_told))
        game.effects.on("may_respawn", effect, self._may_respawn)
        game.effects.on("pole_moves", effect, self._pole_moves)

    def _off_table(self, value: Any, ctx: dict[str, Any]) -> Any:
        """The template went past an edge: past the exit edge it exits instead (M-23; ruling
        ED-10: even if it also went past a side edge); past another edge only, it is
        disqualified as usual (p.87)."""
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        result = ctx.get("result")
        if value is not True or result is None or not v.in_contention:
            return None  # a wreck skidding past the exit edge is disqualified (SC-44)
        from carnage.geometry.surfaces import move_pieces

        over = over_exit_edge(move_pieces(result), game.state)
        game.facts.note("past_exit_edge", over)  # as a real table is asked (CP-8)
        if over:
            self.exit(game, v)
            return False
        return None

    def _edge_told(self, game: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, bool]:
        """At a real table (ruling CP-8): the template went past the table's edge; was the
        exit edge among them? Then it exits instead of leaving the table (M-23, ED-10)."""
        v: VehicleState = ctx["vehicle"]
        if not v.in_contention:
            return False
        over = yield from ask_yes_no(
            game, v.player, "past_exit_edge", f"{v.name}: did the template go past the exit "
            "edge?", page=self.page, vehicle=v.id)
        if over:
            self.exit(game, v)
        return over

    def _final_told(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """At a real table, after a Movement Step (CP-8): does the Final Position overlap
        the exit edge? Then it exits (p.137)."""
        v: VehicleState = ctx["vehicle"]
        if ctx.get("motion") != "move" or not v.in_contention:
            return
        over = yield from ask_yes_no(
            game, v.player, "final_over_exit", f"{v.name}: does its Final Position overlap "
            "the exit edge?", page=self.page, vehicle=v.id)
        if over:
            self.exit(game, v)

    def _after_move(self, value: Any, ctx: dict[str, Any]) -> None:
        """The Final Position overlapping the exit edge exits too (p.137)."""
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        if not v.in_contention or game.facts.people:
            return  # at a real table the people said it before (``_final_told``)
        over = any(over_exit_edge([r.polygon()], game.state) for _, r in v.bodies())
        game.facts.note("final_over_exit", over)
        if over:
            self.exit(game, v)

    def _may_respawn(self, value: Any, ctx: dict[str, Any]) -> Any:
        """A vehicle waiting to come back on the next table is not respawned by votes."""
        v: VehicleState = ctx["vehicle"]
        if v.status is Status.EXITED:
            return False
        return None

    def _pole_moves(self, value: Any, ctx: dict[str, Any]) -> Any:
        """The Leader's controller never keeps Pole Position: it goes on to the player on
        their left (the next seat clockwise, p.137; ruling ED-2)."""
        game: Game = ctx["game"]
        if value is CANCEL or not isinstance(value, int):
            return None
        lead = self.leader_player(game.state)
        if lead is not None and value % game.state.players == lead and game.state.players > 1:
            return (lead + 1) % game.state.players
        return None

    # -- exits -------------------------------------------------------------------------------
    def leader_player(self, state: GameState) -> int | None:
        lead = road(state)["leader"]
        v = state.vehicles.get(lead) if lead is not None else None
        return None if v is None else v.player

    def exit(self, game: Game, v: VehicleState) -> None:
        """``v`` leaves this table by the exit edge: marked, recorded, taken off."""
        st = game.state
        r = road(st)
        if r["leader_phase"] is None:
            r["leader"] = v.id
            r["leader_phase"] = phase_index(st)
        mark = current_mark(st)
        assert mark is not None
        x = exit_point(v, st)
        r["exits"][v.id] = {"mark": mark, "x": round(x, 3), "gear": v.gear, "player": v.player}
        v.status = Status.EXITED
        game.emit("exit", source=self.source, page=self.page, vehicle=v.id, player=v.player,
                  mark=mark, x=round(x, 3), gear=v.gear, table=r["table"],
                  leader=r["leader"] == v.id)
        if r["leader"] == v.id and st.pole == v.player and self.leader_hands_on_pole:
            # The Leader's controller hands Pole Position on at once (p.137).
            game.scenario.move_pole(game, (st.pole + 1) % st.players, "the Leader hands it on",
                                    source=self.source, page=self.page)
        if self.on_exit is not None:
            self.on_exit(game, v)

    def end_of_gear_phase(self, game: Game) -> None:
        """After the Gear Phase marking 6, the vehicles still here are disqualified; a table
        with no vehicle left is cleared for rebuilding and the round ends (p.138)."""
        self.disqualify_stragglers(game)
        self.clear_if_empty(game)

    def disqualify_stragglers(self, game: Game) -> None:
        """After the Gear Phase marking 6, the vehicles still on the table are out (p.138)."""
        st = game.state
        mark = current_mark(st)
        if mark is not None and mark >= LAST_MARK:
            for v in st.in_play():
                disqualify(game, v, "still on the table after the Gear Phase marked 6")

    def clear_if_empty(self, game: Game) -> None:
        """No vehicle left on a table someone has left by the exit edge, and none still due
        to come back onto it: clear it."""
        st = game.state
        r = road(st)
        if not st.in_play() and r["exits"] and not r["returning"] and not r["rebuild"]:
            self.clear_table(game)

    def clear_table(self, game: Game) -> None:
        """The table is empty: wrecks and dropped templates go (ruling ED-3), the vehicles
        marked come back on the next table, the rest of this round is skipped (ED-4)."""
        st = game.state
        r = road(st)
        for oid in [k for k, ob in st.obstacles.items() if ob.wreck_of is not None]:
            del st.obstacles[oid]
            game.emit("obstacle_removed", source=self.source, page=self.page, obstacle=oid)
        from carnage.games.refuelled.engine.hazards_on_table import remove

        for tid in list(st.dropped):
            remove(game, tid, reason="the table is rebuilt", source=self.source, page=self.page)
        r["returning"] = dict(r["exits"])
        r["exits"] = {}
        r["rebuild"] = True
        game.emit("table_cleared", source=self.source, page=self.page, table=r["table"],
                  returning=sorted(r["returning"]))
        st.gear_phase = 6  # the round ends here: a new round begins on the new table

    # -- the next table ----------------------------------------------------------------------
    def terrain_pieces(self, state: GameState) -> list[str]:
        """The terrain to place again: every obstacle that is not a wreck, in id order."""
        return sorted(k for k, ob in state.obstacles.items() if ob.wreck_of is None)

    def candidates(self, state: GameState, piece: Obstacle,
                   placed: Sequence[Obstacle]) -> dict[str, Pose]:
        """Ruling ED-5: where ``piece`` may go: grid points ``CANDIDATE_STEP`` apart, the
        piece (in its own heading) wholly on the table and wholly beyond Long of the entry
        edge, overlapping no spawn point and no piece placed already."""
        out: dict[str, Pose] = {}
        spawns = [] if self.spawn_points is None else self.spawn_points(state)
        others = [o.polygon() for o in placed]
        step = CANDIDATE_STEP
        nx = int(state.width // step)
        ny = int(state.height // step)
        for j in range(1, ny):
            for i in range(1, nx):
                pose = Pose(i * step, j * step, piece.pose.heading)
                poly = Rect(pose, piece.length, piece.width).polygon()
                if any(not (0.0 <= x <= state.width and 0.0 <= y <= state.height)
                       for x, y in poly):
                    continue
                if min(y for _, y in poly) <= LONG + EDGE_TOL:
                    continue
                if any(penetration(poly, o) >= -EDGE_TOL for o in others):
                    continue
                if any(_disc_meets(poly, c, rad) for c, rad in spawns):
                    continue
                out[f"{pose.x:.0f},{pose.y:.0f}"] = pose
        return out

    def rebuild(self, game: Game) -> Flow:
        """Players take turns, in Pole order, placing the terrain pieces one each (p.138)."""
        st = game.state
        r = road(st)
        pieces = self.terrain_pieces(st)
        lifted = {k: st.obstacles.pop(k) for k in pieces}
        # Surfaces and ramps within Long of the entry edge are cleared too (ruling ED-5).
        for sid in [k for k, s in st.surfaces.items() if min(y for _, y in s.polygon) <= LONG]:
            del st.surfaces[sid]
        for rid in [k for k, rp in st.ramps.items() if rp.pose.y <= LONG + rp.length]:
            del st.ramps[rid]
        placed: list[Obstacle] = []
        order = st.clockwise_from(st.pole)
        for n, k in enumerate(pieces):
            ob = lifted[k]
            p = order[n % len(order)]
            spots = self.candidates(st, ob, placed)
            if not spots:
                game.emit("terrain_left_out", source=self.source, page=self.page, obstacle=k)
                continue
            pick = yield ask(p, "place_terrain",
                             f"New table: where does {k.replace('-', ' ')} go?",
                             [(s, f"at {s} mm") for s in spots], source=self.source,
                             page=138, target=k)
            ob.pose = spots[str(pick)]
            st.obstacles[k] = ob
            placed.append(ob)
            game.emit("terrain_placed", source=self.source, page=138, obstacle=k, player=p,
                      x=round(ob.pose.x, 3), y=round(ob.pose.y, 3))
        r["table"] += 1
        r["leader_phase"] = None
        r["rebuild"] = False
        game.emit("new_table", source=self.source, page=138, table=r["table"])

    def gear_phase_start(self, game: Game) -> Flow:
        """At the start of each Gear Phase: rebuild a cleared table (before Gear Phase 1),
        then bring back the vehicles marked with this phase's number."""
        st = game.state
        r = road(st)
        if r["rebuild"] and st.gear_phase == 1:
            yield from self.rebuild(game)
        if r["rebuild"]:
            return
        due = sorted((vid for vid, e in r["returning"].items() if e["mark"] == st.gear_phase),
                     key=lambda vid: (r["returning"][vid]["x"], vid))
        for vid in due:
            self.re_enter(game, st.vehicles[vid], r["returning"].pop(vid))

    def re_enter(self, game: Game, v: VehicleState, rec: dict[str, Any]) -> None:
        """``v`` comes back opposite its exit point, in the gear it left in (p.138); if that
        spot is taken, at the nearest clear spot along the entry edge (ruling ED-6)."""
        st = game.state
        x0 = float(rec["x"])
        pose = self.entry_spot(st, v, x0)
        if pose is None:
            game.emit("no_room", source=self.source, page=138, vehicle=v.id)
            disqualify(game, v, "no room on the entry edge")
            return
        v.pose = pose
        if v.trailer is not None:
            v.trailer.hinge = 0.0
        v.status = Status.ACTIVE
        v.gear = int(rec["gear"])
        v.reversing = False
        game.emit("enter", source=self.source, page=138, vehicle=v.id, player=v.player,
                  x=round(pose.x, 3), y=round(pose.y, 3), heading=round(pose.heading, 3),
                  gear=v.gear, table=road(st)["table"])

    def entry_spot(self, state: GameState, v: VehicleState, x0: float) -> Pose | None:
        others = [ob.polygon() for ob in state.obstacles.values()]
        others += [b.polygon() for o in state.in_play() if o.id != v.id for _, b in o.bodies()]
        half = v.width / 2.0
        k = 0
        while True:
            tried = False
            for x in ((x0,) if k == 0 else (x0 - k * SLIDE_STEP, x0 + k * SLIDE_STEP)):
                if not half <= x <= state.width - half:
                    continue
                tried = True
                pose = entry_pose(v, x)
                bodies = [Rect(pose, v.length, v.width).polygon()]
                if v.trailer is not None:
                    bodies.append(v.trailer.rect(Rect(pose, v.length, v.width)).polygon())
                if not any(penetration(b, o) >= -EDGE_TOL for b in bodies for o in others):
                    return pose
            if not tried and k > 0:
                return None
            k += 1

    def waiting(self, state: GameState) -> list[str]:
        """Vehicles off this table that will come back (exited, or marked for the next)."""
        r = road(state)
        return sorted(set(r["exits"]) | set(r["returning"]))


def _disc_meets(poly: Sequence[Point], centre: Point, radius: float) -> bool:
    """Does the convex ``poly`` come within ``radius`` of ``centre``?"""
    r = radius + EDGE_TOL
    cx, cy = centre
    disc = [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in range(0, 360, 15)]
    return penetration(list(poly), disc) >= 0.0
