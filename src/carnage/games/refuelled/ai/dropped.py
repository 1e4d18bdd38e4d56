"""Heuristic answers for dropped weapons (rules/dropped.py): drop when a foe is close behind or
beside, lay the burst towards the nearest foe, send an RC Car at it, keep a Sentry Gun near.
Each takes (game, decision, rng) and returns a choice, or None to let the bot fall back."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from carnage.geometry.shapes import Point, distance, heading_diff
from carnage.kernel.decisions import Decision

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import VehicleState

Choice = str | int | float
NEAR = "medium"
"""A foe this close (gap between footprints) is worth dropping something on."""


def _active(game: Game) -> VehicleState | None:
    st = game.state
    return None if st.active is None else st.vehicles.get(st.active)


def nearest_foe(game: Game, v: VehicleState) -> VehicleState | None:
    return _nearest(game, v)[0]


def _nearest(game: Game, v: VehicleState) -> tuple[VehicleState | None, float]:
    """The nearest foe (as ``nearest_foe``) and the gap to it (inf when there is none)."""
    foes = [o for o in game.state.in_play() if o.player != v.player]
    if not foes:
        return None, math.inf
    poly = v.polygon()
    # The first foe at the least distance, as ``min`` picks it; a foe whose bounding-circle
    # lower bound is already farther than the best so far cannot be it, and is skipped.
    rad = math.hypot(v.length, v.width) / 2.0
    best: VehicleState | None = None
    best_d = math.inf
    for o in foes:
        if best is not None:
            bound = math.hypot(o.pose.x - v.pose.x, o.pose.y - v.pose.y) - rad \
                - math.hypot(o.length, o.width) / 2.0 - 1e-6
            if bound > best_d:
                continue
        d = distance(poly, o.polygon())
        if best is None or d < best_d:
            best, best_d = o, d
    return best, best_d


def _bearing(v: VehicleState, p: Point) -> float:
    """Direction of ``p`` from ``v``'s centre, degrees anticlockwise from its heading."""
    ang = math.degrees(math.atan2(p[1] - v.pose.y, p[0] - v.pose.x))
    return heading_diff(v.pose.heading, ang)


def drop_pick(game: Game, d: Decision, v: VehicleState) -> Choice | None:
    """A drop option when a foe is within Medium range and not dead ahead (an RC Car or a
    Sentry Gun whatever the direction); None otherwise."""
    drops = [o.value for o in d.options if str(o.value).startswith("drop:")]
    if not drops:
        return None  # (before looking for the foe: nothing to drop, nothing to measure)
    foe, gap = _nearest(game, v)
    if foe is None or gap > game.templates.ranges[NEAR]:
        return None
    behind = abs(_bearing(v, (foe.pose.x, foe.pose.y))) > 45.0
    for value in drops:
        weapon = str(value).split(":", 1)[1].split("#", 1)[0]
        if behind or weapon in ("rc_car_bombs", "sentry_gun"):
            return value
    return None


def _foe_point(game: Game, d: Decision) -> tuple[VehicleState, Point] | None:
    v = _active(game)
    foe = None if v is None else nearest_foe(game, v)
    if v is None or foe is None:
        return None
    return v, (foe.pose.x, foe.pose.y)


def drop_edge(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """The edge facing the nearest foe."""
    got = _foe_point(game, d)
    if got is None:
        return None
    v, p = got
    normal = {"front": 0.0, "left": 90.0, "rear": 180.0, "right": -90.0}
    b = _bearing(v, p)
    return min((o.value for o in d.options),
               key=lambda e: abs(heading_diff(b, normal.get(str(e), 0.0))), default=None)


def drop_offset(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Slide along the edge towards the nearest foe (the offset runs to the vehicle's left on
    the front and rear edges, forwards on the sides)."""
    got = _foe_point(game, d)
    if got is None or d.domain is None:
        return None
    v, p = got
    lx, ly = v.pose.to_local(p)
    along = lx if _last_edge(game) in ("left", "right") else ly
    return max(d.domain.low, min(d.domain.high, along))


def drop_angle(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Turn the burst towards the nearest foe, as far as allowed."""
    got = _foe_point(game, d)
    if got is None or d.domain is None:
        return None
    v, p = got
    edge = _last_edge(game)
    normal = {"front": 0.0, "left": 90.0, "rear": 180.0, "right": -90.0}.get(edge, 0.0)
    turn = heading_diff(normal, _bearing(v, p))
    return max(d.domain.low, min(d.domain.high, turn))


def _last_edge(game: Game) -> str:
    for e in reversed(game.log.events):
        if e.kind in ("decision", "forced_choice") and e.data.get("decision") == "drop_edge":
            return str(e.data.get("choice"))
    return "front"


def _dropping(d: Decision) -> str:
    """The weapon id of the drop being placed (its mount key is ``<weapon>#<n>``)."""
    return (d.weapon or "").split("#", 1)[0]


def place_bearing(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Towards the nearest foe."""
    got = _foe_point(game, d)
    if got is None or d.domain is None:
        return None
    v, p = got
    return max(d.domain.low, min(d.domain.high, _bearing(v, p)))


def place_gap(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """An RC Car as close to the foe as Short range allows; a Sentry Gun right by the car."""
    if d.domain is None:
        return None
    if _dropping(d) != "rc_car_bombs":
        return d.domain.low
    v = _active(game)
    if v is None:
        return None
    foe, gap = _nearest(game, v)
    if foe is None:
        return None
    return max(d.domain.low, min(d.domain.high, gap))


def place_facing(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Face the RC Car the way it was sent (towards the foe)."""
    got = _foe_point(game, d)
    if got is None or d.domain is None:
        return None
    v, p = got
    return max(d.domain.low, min(d.domain.high, _bearing(v, p)))


HANDLERS = {
    "drop_edge": drop_edge,
    "drop_offset": drop_offset,
    "drop_angle": drop_angle,
    "place_bearing": place_bearing,
    "place_gap": place_gap,
    "place_facing": place_facing,
}
