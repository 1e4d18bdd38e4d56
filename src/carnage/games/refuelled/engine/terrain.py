"""Terrain with rules of its own: ramps (jump, tumble) and volatile obstacles (Refuelled pp.87-88).

Ramps are not obstructions. During a Movement Step each edge of a ramp other than its entry edge
(the rear edge of ``Ramp``) is offered to the move as a hair-thin obstruction, so the vehicle
stops where it first reaches such an edge, exactly like an interrupted move. The collision window
that follows hands these ids to ``ramp_flow`` instead of resolving a Collision: roll a D6, at or
under the current gear the vehicle jumps, otherwise it tumbles. Forced moves never see ramp edges
(a flip ignores ramps: FAQ; jumps and tumbles ignore all terrain; ruling CO-8).

Volatile obstacles roll a D6 when hit, before reactions: 4+ blows them up (p.87).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.combat import roll_attack
from carnage.games.refuelled.engine.state import Obstacle, Ramp
from carnage.geometry.collision import Obstruction
from carnage.geometry.shapes import Pose, Rect
from carnage.kernel.decisions import Decision

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import VehicleState

RAMP_EDGE = "ramp-edge:"
"""Prefix of the obstruction ids standing for a ramp's non-entry edges."""
EDGE_THICKNESS = 0.2
"""Width (mm) of the thin strip laid along a ramp edge so the sweep can find it."""
VOLATILE_EXPLODES_ON = 4
"""A volatile obstacle explodes on a D6 roll of 4+ (p.87)."""
JUMP_LONG_FROM_GEAR = 5
"""Gears 1-4 jump a Medium Straight, gears 5-6 a Long Straight (p.88)."""
JUMP_HAZARDS = 2
TUMBLE_HAZARDS = 6
TUMBLE_ATTACK_DICE = 4


def ramp_edge_id(ramp_id: str, edge: str) -> str:
    return f"{RAMP_EDGE}{ramp_id}:{edge}"


def parse_ramp_edge(oid: str) -> tuple[str, str] | None:
    """``(ramp id, edge)`` for a ramp-edge obstruction id, else None."""
    if not oid.startswith(RAMP_EDGE):
        return None
    rid, sep, edge = oid[len(RAMP_EDGE):].rpartition(":")
    return (rid, edge) if sep else None


def edge_strips(ramp: Ramp) -> list[tuple[str, Rect]]:
    """The far edge and both side edges of ``ramp`` as thin rectangles centred on them."""
    hl, hw = ramp.length / 2.0, ramp.width / 2.0
    t = EDGE_THICKNESS
    return [
        ("front", Rect(ramp.pose.compose(Pose(hl, 0.0, 0.0)), t, ramp.width)),
        ("left", Rect(ramp.pose.compose(Pose(0.0, hw, 0.0)), ramp.length, t)),
        ("right", Rect(ramp.pose.compose(Pose(0.0, -hw, 0.0)), ramp.length, t)),
    ]


def ramp_obstructions(g: Game) -> list[Obstruction]:
    """Every ramp's non-entry edges, as obstructions for a Movement Step's move (p.87)."""
    return [
        Obstruction.from_rect(ramp_edge_id(r.id, edge), rect)
        for r in g.state.ramps.values()
        for edge, rect in edge_strips(r)
    ]


def ramp_flow(g: Game, v: VehicleState, ramp_id: str, edge: str) -> Flow:
    """The vehicle has stopped at a ramp's ``edge``: D6 at or under its gear jumps, above it
    tumbles (p.87)."""
    if ramp_id not in g.state.ramps or not v.in_play:
        return
    g.emit("ramp", source="ramp", page=87, vehicle=v.id, ramp=ramp_id, edge=edge, gear=v.gear)
    roll = g.roll(1, "ramp check", source="ramp", page=87, vehicle=v.id, ramp=ramp_id)[0]
    if roll <= v.gear:
        yield from jump(g, v)
    else:
        yield from tumble(g, v)


def jump(g: Game, v: VehicleState) -> Flow:
    """Forced Medium (gears 1-4) or Long (5-6) Straight ignoring everything, a collision
    window, then +2 Hazards and an Audience Vote for the controller (p.88)."""
    from carnage.games.refuelled.engine.movement import forced_move

    tid = "long_straight" if v.gear >= JUMP_LONG_FROM_GEAR else "medium_straight"
    g.emit("jump", source="jump", page=88, vehicle=v.id, template=tid)
    yield from forced_move(g, v, tid, source="jump", page=88, ignore_obstructions=True)
    if v.in_play:
        g.add_hazards(v, JUMP_HAZARDS, "jump", 88)
    # The vote is the player's, so it is earned even if the landing wrecked the car (CO-9).
    if not v.in_team:
        return  # an RC Car earns no Audience Votes (p.79)
    g.state.votes[v.player] += 1
    g.emit("audience_vote", source="jump", page=88, player=v.player, gained=1,
           votes=g.state.votes[v.player])


def tumble(g: Game, v: VehicleState) -> Flow:
    """Forced Short Straight ignoring everything, a collision window, then a 4D6 attack (which
    may be evaded, ruling CO-10) and +6 Hazards (p.88)."""
    from carnage.games.refuelled.engine.damage import HitGroup, take_hits
    from carnage.games.refuelled.engine.movement import forced_move

    g.emit("tumble", source="tumble", page=88, vehicle=v.id)
    yield from forced_move(g, v, "short_straight", source="tumble", page=88,
                           ignore_obstructions=True)
    if not v.in_play or g.state.finished:
        return
    hit = roll_attack(g, TUMBLE_ATTACK_DICE, why="tumble attack", source="tumble", page=88,
                      vehicle=v.id)
    g.emit("attack_hits", source="tumble", page=88, target=v.id, origin=v.id, hits=hit.hits,
           criticals=hit.criticals)
    yield from take_hits(g, v, [HitGroup("tumble", hit.hits)], source="tumble", page=88)
    if v.in_play:
        g.add_hazards(v, TUMBLE_HAZARDS, "tumble", 88)


def volatile_check(g: Game, v: VehicleState, ob: Obstacle) -> Generator[Decision, Any, bool]:
    """Before reactions in a Collision with a volatile obstacle: D6, 4+ and it explodes like a
    wreck of its weight and is removed (p.87). Returns True if it exploded."""
    roll = g.roll(1, "volatile obstacle", source="volatile", page=87, vehicle=v.id,
                  obstacle=ob.id)[0]
    if roll < VOLATILE_EXPLODES_ON:
        return False
    from carnage.games.refuelled.engine.damage import explode

    g.emit("volatile_explodes", source="volatile", page=87, obstacle=ob.id)
    yield from explode(g, ob.id, ob.polygon(), ob.weight, page=87)
    if g.state.obstacles.pop(ob.id, None) is not None:
        g.emit("obstacle_removed", source="volatile", page=87, obstacle=ob.id)
    return True
