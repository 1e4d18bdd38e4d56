"""A Refuelled table game as a fixed-size vector per seat (``kernel/observation.py``), for the
reinforcement-learning environment; the Kart variant and Legacy, which play on this engine,
offer it too. The layout (``docs/rl.md``), every value scaled to about [-1, 1]:

* global (``GLOBAL``): round / max rounds, gear phase / 6, then the pending decision
  (``kernel.observation.decision_features``: this seat decides, continuous, its low and high
  ends / 180, actions / 128, a one-hot of its kind over ``KINDS`` and any other kind).
* ``MAX_VEHICLES`` vehicle slots of ``VEHICLE`` values each, the seat's own vehicles first,
  then the others by seat after this one, each in id order, then those no seat owns (Big
  Game Hunter's creatures): present, own, in play, x / table width, y / table height, cos and
  sin of the heading, gear / 6, hazards / 6, hull points left / 20, hull points left / hull
  (both 0 in a ruleset without a Hull track: the Kart variant), the decision is about it, it
  is its target, length / 100 mm, width / 100 mm, and the goal line's two ends (x / width,
  y / height) from the scenario (0 when it has none), one spare.
* ``MAX_OBSTACLES`` obstacle slots of ``OBSTACLE`` values each, in id order: present, x, y,
  cos and sin of the heading, length / 100 mm, width / 100 mm, tall.
"""

from __future__ import annotations

import math
from typing import Any

from carnage.kernel.observation import (
    ObservationOffer,
    decision_features,
    decision_features_size,
)

MAX_VEHICLES = 8
MAX_OBSTACLES = 24
KINDS = ("activate", "deploy", "grid", "template", "skid_dice", "push_it", "spend_shift",
         "slide", "spin", "attack", "collision_reaction", "lose_control", "spend_votes",
         "vote_target", "effect_order")
"""Decision kinds with an entry of their own in the one-hot (any other shares the last)."""
GLOBAL = 2 + decision_features_size(KINDS)
VEHICLE = 20
OBSTACLE = 8
OBS_SIZE = GLOBAL + MAX_VEHICLES * VEHICLE + MAX_OBSTACLES * OBSTACLE


def encode(game: Any, seat: int) -> list[float]:
    """``game`` (a Refuelled engine ``Game``) from ``seat``'s point of view (module
    docstring)."""
    st = game.state
    d = game.pending()
    rounds = max(1, int(game.options.max_rounds))
    out = [st.round / rounds, st.gear_phase / 6.0, *decision_features(d, seat, KINDS)]
    hull = bool(game.ruleset.view.get("hull", True))
    w, h = float(st.width), float(st.height)
    players = int(st.players)
    vehicles = sorted(st.vehicles.values(),
                      key=lambda v: (_turn_order(v.player, seat, players), v.id))[:MAX_VEHICLES]
    for v in vehicles:
        r = math.radians(v.pose.heading)
        goal = _goal(game, v)
        out += [1.0, 1.0 if v.player == seat else 0.0, 1.0 if v.in_play else 0.0,
                v.pose.x / w, v.pose.y / h, math.cos(r), math.sin(r), v.gear / 6.0,
                v.hazards / 6.0,
                v.hull_points / 20.0 if hull else 0.0,
                v.hull_points / max(1, v.hull) if hull else 0.0,
                1.0 if d is not None and d.vehicle == v.id else 0.0,
                1.0 if d is not None and d.target == v.id else 0.0,
                v.length / 100.0, v.width / 100.0]
        if goal is not None:
            out += [goal[0] / w, goal[1] / h, goal[2] / w, goal[3] / h]
        else:
            out += [0.0, 0.0, 0.0, 0.0]
        out.append(0.0)  # spare (keeps VEHICLE fixed for later fields)
    out += [0.0] * ((MAX_VEHICLES - len(vehicles)) * VEHICLE)
    obstacles = sorted(st.obstacles.values(), key=lambda o: o.id)[:MAX_OBSTACLES]
    for ob in obstacles:
        r = math.radians(ob.pose.heading)
        out += [1.0, ob.pose.x / w, ob.pose.y / h, math.cos(r), math.sin(r),
                ob.length / 100.0, ob.width / 100.0, 1.0 if ob.tall else 0.0]
    out += [0.0] * ((MAX_OBSTACLES - len(obstacles)) * OBSTACLE)
    return out


def _turn_order(player: int, seat: int, players: int) -> int:
    """0 for ``seat``'s own vehicles, then 1, 2 ... for the next seats; ``players`` for a
    vehicle no seat owns (player -1: Big Game Hunter's creatures), after every seat's."""
    return (player - seat) % players if player >= 0 else players


def _goal(game: Any, v: Any) -> tuple[float, float, float, float] | None:
    goal_fn = getattr(game.scenario, "goal", None)
    if goal_fn is None:
        return None
    line = goal_fn(game.state, v)
    if line is None:
        return None
    return (line.a[0], line.a[1], line.b[0], line.b[1])


def text(game: Any) -> str:
    """The round, who decides what, and every vehicle's seat, place, gear, hazards and hull."""
    st = game.state
    d = game.pending()
    lines = [f"round {st.round}, gear phase {st.gear_phase}"
             + ("" if d is None else f"; seat {d.player + 1} decides {d.kind}")]
    for v in st.vehicles.values():
        lines.append(f"  {v.name}: seat {v.player + 1}, ({v.pose.x:.0f}, {v.pose.y:.0f}) "
                     f"{v.pose.heading:.0f}°, gear {v.gear}, hazards {v.hazards}, "
                     f"hull {v.hull_points}/{v.hull}, {v.status}")
    return "\n".join(lines)


REFUELLED_OBSERVATION = ObservationOffer(size=OBS_SIZE, encode=encode,
                                         default_scenario="street-race", text=text)
"""What Refuelled (and the Kart variant and Legacy, on its engine) offers the environment."""
