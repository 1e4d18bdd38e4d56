"""A Devil's Run game as a fixed-size vector per seat (``kernel/observation.py``), for the
reinforcement-learning environment. The layout (``docs/rl.md``), every value scaled to about
[-1, 1]; rows count from the road's back row (the back tile's first), lanes across it:

* global (``GLOBAL``): the turn / the mission's turns, this seat activates first this turn,
  this seat is to activate, chassis tokens collected by this seat and by the other / 20
  (Hell on Wheels), tiles recycled so far / 10, the mission (one-hot over ``MISSIONS`` and any
  other), this seat's gang (one-hot over ``GANGS`` and any other), the stash (one-hot of its
  status over ``STASH``; lane / 7 and row / 23 when it lies on the road; carried by this
  seat, by the other; the row / 23 where the fresh tile its carrier must reach begins,
  DR-109), the chance / 10 that the game disengages at the end of this turn (DR-110), the
  activation under way (one-hot of its action over ``ACTIONS``; allowance, spent and minimum
  / 6; the kept D3 / 3; movement modifier lost), then the pending decision
  (``kernel.observation.decision_features`` over ``KINDS``).
* ``MAX_VEHICLES`` vehicle slots of ``VEHICLE`` values, the seat's own first, then the other
  seat's, each in id order: what its dashboard shows and where it is (``vehicle_row``).
* the road, ``ROWS`` rows x ``LANES`` lanes in four planes (row by row from the back, lanes 0
  to 7): debris, impassable, this seat's vehicles, the other seat's (1 a running vehicle's
  square, 0.5 a wreck's).
"""

from __future__ import annotations

from typing import Any

from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.data import TILE, missions
from carnage.games.devilsrun.state import RESERVE, RUNNING, WRECK, GameState, VehicleState
from carnage.kernel.observation import (
    ObservationOffer,
    decision_features,
    decision_features_size,
)

MISSIONS = ("devils-run", "hell-on-wheels")
GANGS = ("law", "haul-angels")
STASH = ("waiting", "placed", "carried", "gone", "reenter")
ACTIONS = ("peddle", "brake", "ram", "ram_on_the_brakes", "side_swipe", "t_bone", "repair",
           "pass")
KINDS = ("deploy_side", "deploy", "first_player", "stash_square", "activate", "action",
         "keep_d3", "step", "offensive_target", "evade", "evade_square", "second_action",
         "shoot_target")
"""Decision kinds with an entry of their own in the one-hot (any other shares the last)."""
SKILLS = ("manoeuvrable", "hard_to_steer", "rough_rider")
MOUNTS = 2
"""Weapon mounts a slot shows (a driver's and a gunner's)."""
LANES = B.WIDTH
ROWS = 3 * TILE
"""The road on the table: three tiles (DR-007)."""
MAX_VEHICLES = 6
"""Three a side (Hell on Wheels)."""
GLOBAL = (6 + len(MISSIONS) + 1 + len(GANGS) + 1 + len(STASH) + 6 + len(ACTIONS) + 5
          + decision_features_size(KINDS))
VEHICLE = 23 + 3 * MOUNTS + len(SKILLS)
PLANES = 4
OBS_SIZE = GLOBAL + MAX_VEHICLES * VEHICLE + PLANES * ROWS * LANES

_LAST_LANE = float(LANES - 1)
_LAST_ROW = float(ROWS - 1)


def _one_hot(value: str, known: tuple[str, ...], other: bool = True) -> list[float]:
    out = [0.0] * (len(known) + (1 if other else 0))
    if value in known:
        out[known.index(value)] = 1.0
    elif other:
        out[-1] = 1.0
    return out


def encode(game: Any, seat: int) -> list[float]:
    """``game`` (a ``DevilsRunGame``) from ``seat``'s point of view (module docstring)."""
    st: GameState = game.state
    m = missions()[st.mission]
    back = B.back_row(st)
    other = [p for p in range(len(st.gangs)) if p != seat]
    out = [st.turn / max(1, m.turns),
           1.0 if st.first_player == seat else 0.0,
           1.0 if st.to_act == seat else 0.0,
           st.collected[seat] / 20.0 if seat < len(st.collected) else 0.0,
           sum(st.collected[p] for p in other if p < len(st.collected)) / 20.0,
           (st.next_tile - len(st.tiles)) / 10.0,
           *_one_hot(st.mission, MISSIONS),
           *_one_hot(st.gangs[seat] if seat < len(st.gangs) else "", GANGS)]
    s = st.stash
    carrier = st.vehicles.get(s.carrier or "")
    out += _one_hot(s.status, STASH, other=False)
    out += ([s.pos[0] / _LAST_LANE, (s.pos[1] - back) / _LAST_ROW] if s.pos is not None
            else [0.0, 0.0])
    out += [1.0 if carrier is not None and carrier.player == seat else 0.0,
            1.0 if carrier is not None and carrier.player != seat else 0.0,
            _fresh_row(st) / _LAST_ROW if carrier is not None else 0.0,
            m.disengage.get(st.turn, 0) / 10.0]
    act = st.act
    if act is None:
        out += [0.0] * (len(ACTIONS) + 5)
    else:
        out += _one_hot(act.action, ACTIONS, other=False)
        out += [act.allowance / 6.0, act.spent / 6.0, act.min_required / 6.0, act.d3 / 3.0,
                1.0 if act.lost_mm else 0.0]
    d = game.pending()
    out += decision_features(d, seat, KINDS)
    players = max(1, len(st.gangs))
    vehicles = sorted(st.vehicles.values(),
                      key=lambda v: ((v.player - seat) % players, v.id))[:MAX_VEHICLES]
    for v in vehicles:
        out += vehicle_row(st, v, seat, d)
    out += [0.0] * ((MAX_VEHICLES - len(vehicles)) * VEHICLE)
    out += _road(st, seat)
    return out


def vehicle_row(st: GameState, v: VehicleState, seat: int, d: Any) -> list[float]:
    """One vehicle slot: present, own, reserve, running, wreck, gone (removed, wiped out or
    destroyed), lane / 7 and row / 23 of its front square (0 off the road), footprint / 2,
    movement modifier / 3, chassis points left / 10 and / its chassis points, armour / 6,
    evade / 10, the driver's and the gunner's BS / 10 (0: no gunner), each weapon mount's
    range / 4, rate of fire / 3 and flamer (0: no such mount), a skill flag each of
    ``SKILLS``, carries the stash, may never repair, missed the stash, activated this turn,
    is activating, the pending decision is about it, it is the decision's target."""
    vt = B.vtype(v)
    on_road = B.in_play(v) and v.pos is not None
    row = [1.0, 1.0 if v.player == seat else 0.0,
           1.0 if v.status == RESERVE else 0.0, 1.0 if v.status == RUNNING else 0.0,
           1.0 if v.status == WRECK else 0.0,
           1.0 if v.status not in (RESERVE, RUNNING, WRECK) else 0.0]
    if on_road and v.pos is not None:
        row += [v.pos[0] / _LAST_LANE, (v.pos[1] - B.back_row(st)) / _LAST_ROW]
    else:
        row += [0.0, 0.0]
    row += [vt.footprint / 2.0, vt.mm / 3.0, v.cp / 10.0, v.cp / max(1, vt.cp), vt.a / 6.0,
            vt.e / 10.0, vt.bs1 / 10.0, 0.0 if vt.bs2 is None else vt.bs2 / 10.0]
    for i in range(MOUNTS):
        if i < len(vt.mounts):
            w = vt.mounts[i].weapon
            row += [w.range / 4.0, w.rof / 3.0, 1.0 if w.flamer else 0.0]
        else:
            row += [0.0, 0.0, 0.0]
    row += [1.0 if s in vt.skills else 0.0 for s in SKILLS]
    act = st.act
    row += [1.0 if v.carrying else 0.0, 1.0 if v.no_repair else 0.0,
            1.0 if v.missed_stash else 0.0, 1.0 if v.id in st.activated else 0.0,
            1.0 if act is not None and act.vid == v.id else 0.0,
            1.0 if d is not None and d.vehicle == v.id else 0.0,
            1.0 if d is not None and d.target == v.id else 0.0]
    return row


def _fresh_row(st: GameState) -> float:
    """The first row (from the back) of a tile placed after the stash was picked up: where
    its carrier wins (DR-109); the front end when that tile is not on the road yet."""
    for t in st.tiles:
        if t.placed > st.stash.pickup_tile:
            return float(t.origin - B.back_row(st))
    return float(B.front_end(st) - B.back_row(st))


def _road(st: GameState, seat: int) -> list[float]:
    plane = ROWS * LANES
    out = [0.0] * (PLANES * plane)
    back = B.back_row(st)

    def put(p: int, x: int, y: int, value: float) -> None:
        r = y - back
        if 0 <= r < ROWS and 0 <= x < LANES:
            i = p * plane + r * LANES + x
            out[i] = max(out[i], value)

    for t in st.tiles:
        lay = B.layout(st, t)
        for x, r in lay.debris:
            put(0, x, t.origin + r, 1.0)
        for x, r in lay.impassable:
            put(1, x, t.origin + r, 1.0)
    for v in st.vehicles.values():
        if not B.in_play(v):
            continue
        value = 1.0 if v.status == RUNNING else 0.5
        for x, y in B.footprint(v):
            put(2 if v.player == seat else 3, x, y, value)
    return out


def text(game: Any) -> str:
    """The turn, who decides what, the stash and every vehicle's seat, square and chassis."""
    st: GameState = game.state
    d = game.pending()
    lines = [f"{st.mission}, turn {st.turn}, road rows {B.back_row(st)}-{B.front_end(st) - 1}"
             + ("" if d is None else f"; seat {d.player + 1} decides {d.kind}")
             + f"; stash {st.stash.status}"
             + ("" if st.stash.pos is None else f" at {st.stash.pos}")]
    for v in st.vehicles.values():
        where = f"at {v.pos}" if B.in_play(v) and v.pos is not None else "off the road"
        lines.append(f"  {v.id}: seat {v.player + 1}, {v.status} {where}, "
                     f"chassis {v.cp}/{B.vtype(v).cp}" + (", carries the stash"
                                                          if v.carrying else ""))
    return "\n".join(lines)


DEVILS_RUN_OBSERVATION = ObservationOffer(size=OBS_SIZE, encode=encode,
                                          default_scenario="devils-run", text=text)
"""What Devil's Run offers the environment."""
