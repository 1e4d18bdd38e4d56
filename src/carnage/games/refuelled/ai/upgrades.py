"""Heuristic answers to the upgrades' and trailer cargoes' decisions (rules/upgrades.py,
rules/trailers.py). Each takes (game, decision, rng) and returns a choice, or None to let the
bot fall back."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from carnage.geometry.shapes import Pose, Rect, distance, norm_heading
from carnage.geometry.table import Table, off_table
from carnage.kernel.decisions import Decision

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import VehicleState

Choice = str | int | float

NITRO_MAX_HAZARDS = 2
"""Fire the Nitro Booster only this cool: it leaves the vehicle one Hazard from a Wipeout."""
SIPHON_MAX_HAZARDS = 3
"""Take Hazards off friends only while the vehicle itself stays this cool."""
BOOST = 180.0
"""A Nitro boost's Long Straight, mm."""


def _active(game: Game) -> VehicleState | None:
    vid = game.state.active
    return None if vid is None else game.state.vehicles.get(vid)


def nitro(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Fire it when cool and the boost ends on the table."""
    v = _active(game)
    if v is None:
        return None
    if "no" not in [o.value for o in d.options]:
        return None  # it must fire (a Jet Engine): nothing to choose
    if v.hazards > NITRO_MAX_HAZARDS:
        return "no"
    r = math.radians(v.pose.heading)
    step = BOOST + v.length
    end = Rect(Pose(v.pose.x + step * math.cos(r), v.pose.y + step * math.sin(r),
                    v.pose.heading), v.length, v.width)
    on_table = not off_table([end.polygon()], Table(game.state.width, game.state.height))
    return "yes" if on_table else "no"


def siphon(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Relieve the hottest friend while the vehicle is cool; never take from a foe."""
    v = _active(game)
    if v is None or v.hazards >= SIPHON_MAX_HAZARDS:
        return "done"
    friends = [game.state.vehicles[str(o.value)] for o in d.options
               if str(o.value) in game.state.vehicles
               and game.state.vehicles[str(o.value)].player == d.player]
    if not friends:
        return "done"
    return max(friends, key=lambda o: (o.hazards, o.id)).id


def cattle_hammer(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Count the highest gear: most evade dice, most smash dice in a T-bone."""
    return max((o.value for o in d.options), key=lambda x: int(x))


def _nearest_foe(game: Game, v: VehicleState) -> VehicleState | None:
    foes = [o for o in game.state.in_play() if o.player != v.player]
    if not foes:
        return None
    poly = v.polygon()
    return min(foes, key=lambda o: (distance(poly, o.polygon()), o.id))


def sludge_bearing(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Throw towards the nearest foe."""
    v = _active(game)
    foe = None if v is None else _nearest_foe(game, v)
    if v is None or foe is None:
        return None
    angle = math.degrees(math.atan2(foe.pose.y - v.pose.y, foe.pose.x - v.pose.x))
    rel = norm_heading(angle - v.pose.heading)
    return rel - 360.0 if rel > 180.0 else rel


def sludge_gap(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Start the burst just short of the nearest foe, within reach."""
    v = _active(game)
    foe = None if v is None else _nearest_foe(game, v)
    if v is None or foe is None or d.domain is None:
        return None
    gap = distance(v.polygon(), foe.polygon()) - 10.0
    return min(max(gap, d.domain.low), d.domain.high)


UPGRADE_HANDLERS = {
    "nitro": nitro,
    "teleporter": lambda game, d, rng: "no",  # 3 Hazards and a place picked blind: not worth it
    "roll_cage": lambda game, d, rng: "yes",  # ignoring the hits never hurts
    "siphon_pump": siphon,
    "cattle_hammer": cattle_hammer,
    "sludge_bearing": sludge_bearing,
    "sludge_gap": sludge_gap,
    "sludge_angle": lambda game, d, rng: 0.0,
}
"""Decision kind -> handler, merged into the heuristic bot's own."""
