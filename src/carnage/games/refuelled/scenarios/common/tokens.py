"""Tokens on the table or carried on a vehicle's dashboard (M-12, M-13).

Flags, crates, zombies, loot: a token lies on the table at a point, or is carried by a
vehicle. ``CarriedTokens`` (a mixin for a ``TableScenario``) brings the shared rules:

* **pick up**: a vehicle picks up a token when its move template or Final Position touches it,
  judged on every kind of motion (common/motion.py); ``may_pick_up`` says which it may take
  (default: any on the table) and ``token_picked_up`` is the scenario's reaction;
* **drop on a wreck**: when a carrier is wrecked its tokens go back on the table touching the
  wreck (ruling SC-7: behind its rear edge, else beside its left, right or front edge,
  whichever first lies wholly on the table; an exploded carrier drops them where it stood);
* **disqualified carrier**: in a scarper scenario (G-13) it keeps them for scoring; otherwise
  (ruling SC-8) they go back on the table where it stood before the move that took it off
  (moved inside the edge if need be);
* **set down** (optional, at the end of the carrier's activation, within Short; finite
  candidates: ``set_down_points``) and **hand over** to a touching vehicle: the
  ``end_of_activation_tokens`` flow, which a scenario switches on with ``token_set_down`` /
  ``token_hand_over``.

Flags that are **obstacles** (Flag Tag; M-13) are ``Obstacle``s instead: ``flag_obstacle``
makes one (Lightweight, Destructible; optionally Middleweight Volatile).

Memory: ``state.scenario["tokens"]``: token id -> {kind, owner, x, y, carrier, size}. Every
change is an event: ``token_placed``, ``token_picked_up``, ``token_dropped``,
``token_handed_over``, ``token_removed``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from carnage.catalog.models import Weight
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario_view import Drawable
from carnage.games.refuelled.engine.state import Obstacle, Status
from carnage.games.refuelled.scenarios.common.gaps import SLACK, disc_gap_bounds
from carnage.games.refuelled.scenarios.common.motion import (
    motion_facts,
    touches_along,
    watch_motion,
)
from carnage.geometry.shapes import Point, Pose, deeper_than, distance, overlaps
from carnage.kernel.effects import always
from carnage.render.svg import seat_name

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import GameState, VehicleState

KEY = "tokens"
TOKEN_SIZE = 30.0
"""A token's diameter (mm): flags and crates are "30 mm or less" (M-12); we use the largest."""
KEEP = "keep"
DOWN = "down"
"""At a real table: set a token down within Short, wherever the people lay it (CP-6)."""


# -- the tokens ---------------------------------------------------------------------------
def tokens(state: GameState, kind: str | None = None) -> dict[str, dict[str, Any]]:
    """Token id -> its record (the records are live: change them only through the functions
    here; without ``kind`` the dict itself is the state's, once a token exists)."""
    all_: dict[str, dict[str, Any]] = state.scenario.get(KEY, {})  # a read adds nothing
    if kind is None:
        return all_  # the live records
    return {k: t for k, t in all_.items() if t["kind"] == kind}


def on_table(state: GameState, kind: str | None = None) -> dict[str, dict[str, Any]]:
    return {k: t for k, t in tokens(state, kind).items() if t["carrier"] is None}


def carried_by(state: GameState, vehicle_id: str, kind: str | None = None) -> list[str]:
    return sorted(k for k, t in tokens(state, kind).items() if t["carrier"] == vehicle_id)


def token_point(state: GameState, tid: str) -> Point:
    """Where the token is: its table point, or its carrier's centre."""
    t = tokens(state)[tid]
    if t["carrier"] is not None:
        v = state.vehicles[t["carrier"]]
        return (v.pose.x, v.pose.y)
    return (float(t["x"]), float(t["y"]))


_DISC_OFFSETS: dict[tuple[float, int], tuple[tuple[float, float], ...]] = {}
"""(diameter, corners) -> the corners' offsets from the centre, worked out once."""


_DISC_SIDES = 12
"""Sides of the polygon standing for a round token (``disc``)."""


def disc(c: Point, size: float, n: int = _DISC_SIDES) -> list[Point]:
    """A polygon just containing a round token of diameter ``size`` at ``c``."""
    offsets = _DISC_OFFSETS.get((size, n))
    if offsets is None:
        rr = size / 2.0 / math.cos(math.pi / n)
        offsets = tuple((rr * math.cos(2 * math.pi * i / n), rr * math.sin(2 * math.pi * i / n))
                        for i in range(n))
        if len(_DISC_OFFSETS) < 256:
            _DISC_OFFSETS[(size, n)] = offsets
    x, y = c
    return [(x + dx, y + dy) for dx, dy in offsets]


def token_polygon(state: GameState, tid: str) -> list[Point]:
    t = tokens(state)[tid]
    return disc(token_point(state, tid), float(t["size"]))


def add_token(game: Game, tid: str, kind: str, *, at: Point | None = None,
              carrier: VehicleState | None = None, owner: int | None = None,
              size: float = TOKEN_SIZE, source: str, page: int | None) -> None:
    """A new token on the table at ``at`` or on ``carrier``'s dashboard."""
    if (at is None) == (carrier is None):
        raise ValueError("a token is either on the table or carried")
    all_: dict[str, dict[str, Any]] = game.state.scenario.setdefault(KEY, {})
    if tid in all_:
        raise ValueError(f"token {tid!r} already exists")
    x, y = at if at is not None else (None, None)
    all_[tid] = {"kind": kind, "owner": owner, "x": x, "y": y,
                 "carrier": None if carrier is None else carrier.id, "size": size}
    game.emit("token_placed", source=source, page=page, token=tid, token_kind=kind, owner=owner,
              x=None if x is None else round(x, 3), y=None if y is None else round(y, 3),
              vehicle=None if carrier is None else carrier.id)


def pick_up(game: Game, tid: str, v: VehicleState, *, source: str, page: int | None) -> None:
    t = tokens(game.state)[tid]
    t.update(carrier=v.id, x=None, y=None)
    game.emit("token_picked_up", source=source, page=page, token=tid, token_kind=t["kind"],
              vehicle=v.id, player=v.player)


def put_down(game: Game, tid: str, at: Point, *, source: str, page: int | None,
             reason: str) -> None:
    t = tokens(game.state)[tid]
    was = t["carrier"]
    t.update(carrier=None, x=round(at[0], 3), y=round(at[1], 3))
    game.emit("token_dropped", source=source, page=page, token=tid, token_kind=t["kind"],
              vehicle=was, x=round(at[0], 3), y=round(at[1], 3), reason=reason)


def hand_over(game: Game, tid: str, to: VehicleState, *, source: str, page: int | None) -> None:
    t = tokens(game.state)[tid]
    was = t["carrier"]
    t.update(carrier=to.id, x=None, y=None)
    game.emit("token_handed_over", source=source, page=page, token=tid, token_kind=t["kind"],
              vehicle=was, to=to.id, player=to.player)


def remove_token(game: Game, tid: str, *, source: str, page: int | None, reason: str) -> None:
    t = tokens(game.state).pop(tid)
    game.emit("token_removed", source=source, page=page, token=tid, token_kind=t["kind"],
              reason=reason)


# -- where tokens may go ------------------------------------------------------------------
def _clear(state: GameState, c: Point, size: float, ignore: set[str]) -> bool:
    """A token at ``c`` lies wholly on the table and overlaps no terrain and no vehicle in
    play (other than ``ignore``) nor another token on the table (ruling CTF-3 / SC-7)."""
    r = size / 2.0
    if not (r <= c[0] <= state.width - r and r <= c[1] <= state.height - r):
        return False
    poly = disc(c, size)
    # ``deeper_than``: ``penetration(...) > 1e-6``, settled at the first axis that says no
    if any(deeper_than(poly, ob.polygon(), 1e-6) for ob in state.obstacles.values()
           if ob.id not in ignore):
        return False
    for v in state.in_play():
        if v.id in ignore or v.pose.x < 0:
            continue
        if any(deeper_than(poly, r_.polygon(), 1e-6) for _, r_ in v.bodies()):
            return False
    return all(math.hypot(c[0] - float(t["x"]), c[1] - float(t["y"])) >= (size + t["size"]) / 2
               for t in on_table(state).values())


def beside(pose: Pose, length: float, width: float, size: float) -> Iterator[Point]:
    """Token centres touching a body: behind its rear edge, left, right, then in front."""
    h = math.radians(pose.heading)
    fx, fy = math.cos(h), math.sin(h)
    lx, ly = -fy, fx
    for ax, ay, d in ((-fx, -fy, length), (lx, ly, width), (-lx, -ly, width), (fx, fy, length)):
        k = d / 2.0 + size / 2.0
        yield (pose.x + ax * k, pose.y + ay * k)


def drop_points(state: GameState, v: VehicleState, size: float) -> list[Point]:
    """Ruling SC-7: where a wrecked carrier's tokens go, in order of preference (touching the
    wreck; each later token takes the next free place)."""
    out = [c for c in beside(v.pose, v.length, v.width, size)
           if size / 2 <= c[0] <= state.width - size / 2
           and size / 2 <= c[1] <= state.height - size / 2]
    return out or [_inside(state, (v.pose.x, v.pose.y), size)]


def _inside(state: GameState, c: Point, size: float) -> Point:
    r = size / 2.0
    return (min(max(c[0], r), state.width - r), min(max(c[1], r), state.height - r))


def set_down_points(game: Game, v: VehicleState, size: float = TOKEN_SIZE) -> dict[str, Point]:
    """Finite candidates for setting a token down within Short of ``v`` (M-12): on 8
    bearings from its centre, just clear of its body and at the far end of Short, clear of
    terrain, vehicles and tokens. Labelled ``"bearing:gap"``."""
    st = game.state
    short = float(game.templates.ranges["short"])
    body = v.polygon()
    out: dict[str, Point] = {}
    gaps = (5.0, short / 2.0, short - 5.0)
    for b in range(0, 360, 45):
        ux, uy = math.cos(math.radians(v.pose.heading + b)), math.sin(
            math.radians(v.pose.heading + b))
        for gap, c in zip(gaps, _walked_out(v, ux, uy, size, body, gaps), strict=True):
            if _clear(st, c, size, {v.id}):
                out[f"{b}:{gap:.0f}"] = c
    return out


_STEPS = 200
"""The 2 mm steps a token set down is walked out along a bearing (0 … 398 mm)."""


def _walked_out(v: VehicleState, ux: float, uy: float, size: float, body: list[Point],
                gaps: tuple[float, ...]) -> list[Point]:
    """For each gap, the token's centre out along the bearing ``(ux, uy)`` from ``v``'s centre
    in 2 mm steps, at the first step where the token's edge is ``gap`` from the body (at
    most 398 mm out). The body is convex and the walk starts at its centre, so the distance
    only grows on the way out: halving finds the same step as walking every one."""
    seen: dict[int, float] = {}
    near: dict[int, tuple[float, float]] = {}
    # The token's polygon (``disc``) lies between its inscribed circle (radius size/2) and its
    # circumscribed one (``rim``), so the gap from its centre's distance to the body less
    # ``rim`` up to that distance less size/2 holds the exact gap; only a step where ``gap``
    # falls in that band (widened by 1 µm for rounding) needs the exact ``distance``.
    rim = size / 2.0 / math.cos(math.pi / _DISC_SIDES)

    def at_least(mid: int, gap: float) -> bool:
        b = near.get(mid)
        if b is None:
            b = near[mid] = disc_gap_bounds(
                (v.pose.x + ux * (2.0 * mid), v.pose.y + uy * (2.0 * mid)), size / 2.0, rim, body)
        if b[0] >= gap + SLACK:
            return True
        if b[1] < gap - SLACK:
            return False
        if mid not in seen:
            seen[mid] = distance(disc((v.pose.x + ux * (2.0 * mid),
                                       v.pose.y + uy * (2.0 * mid)), size), body)
        return seen[mid] >= gap

    out: list[Point] = []
    for gap in gaps:
        lo, hi = 0, _STEPS - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if at_least(mid, gap):
                hi = mid
            else:
                lo = mid + 1
        out.append((v.pose.x + ux * (2.0 * lo), v.pose.y + uy * (2.0 * lo)))
    return out


def touching_vehicles(game: Game, v: VehicleState) -> list[VehicleState]:
    """Other vehicles in play touching ``v`` (for a hand-over), within the engine's touch
    tolerance (a collision leaves the two up to 0.1 mm apart)."""
    from carnage.games.refuelled.engine.movement import touches

    mine = [r.polygon() for _, r in v.bodies()]
    return [o for o in game.state.in_play() if o.id != v.id and o.pose.x >= 0
            and any(touches(a, r.polygon()) for a in mine for _, r in o.bodies())]


def flag_obstacle(oid: str, at: Point, *, size: float = TOKEN_SIZE,
                  volatile: bool = False) -> Obstacle:
    """M-13: a flag as an obstacle: Lightweight and Destructible, or (a variant) Middleweight
    and Volatile; a square of ``size`` mm."""
    return Obstacle(oid, Pose(at[0], at[1], 0.0), size, size,
                    weight=Weight.MIDDLEWEIGHT if volatile else Weight.LIGHTWEIGHT,
                    destructible=True, volatile=volatile)


# -- the shared rules, for a scenario ------------------------------------------------------
class CarriedTokens:
    """Mixin for a ``TableScenario`` whose tokens are picked up and carried. Call
    ``install_tokens(game)`` from ``install``."""

    id: str
    page: ClassVar[int | None]
    scarper: bool
    token_set_down = False
    """M-12: a carrier may set tokens down within Short at the end of its activation."""
    token_hand_over = False
    """M-12: a carrier may hand tokens to a touching vehicle at the end of its activation."""

    @property
    def token_source(self) -> str:
        return self.id.replace("-", "_")

    def may_pick_up(self, game: Game, v: VehicleState, tid: str) -> bool:
        return True

    def token_picked_up(self, game: Game, v: VehicleState, tid: str) -> None:
        """The scenario's reaction to a pick-up (Capture the Flag: two flags win)."""

    def install_tokens(self, game: Game) -> None:
        eff = f"scenario:{self.id}:tokens"
        watch_motion(game, eff, "token_seen", self._judge_tokens)
        motion_facts(game, eff, self._tokens_told, self._tokens_noted)
        game.effects.on("wrecked", eff, self._carrier_wrecked)
        game.effects.on("logged:disqualified", eff, self._carrier_disqualified)
        if self.token_set_down or self.token_hand_over:
            game.effects.add_flow("after_activation", eff, always(self._end_of_activation))

    def _judge_tokens(self, game: Game, v: VehicleState, poses: list[Pose]) -> None:
        if game.state.finished or not self.scenario_counts(game, v):
            return
        for tid in sorted(on_table(game.state)):
            if (tid in on_table(game.state) and self.may_pick_up(game, v, tid)
                    and touches_along(poses, v.length, v.width,
                                      token_polygon(game.state, tid))):
                pick_up(game, tid, v, source=self.token_source, page=self.page)
                self.token_picked_up(game, v, tid)
                if game.state.finished:
                    return

    def _may_take(self, game: Game, v: VehicleState) -> list[str]:
        """The tokens on the table ``v`` may pick up now (none once the game is over or for a
        vehicle that cannot): the candidates a real table is asked about."""
        if game.state.finished or not v.in_contention or not self.scenario_counts(game, v):
            return []
        return [tid for tid in sorted(on_table(game.state)) if self.may_pick_up(game, v, tid)]

    def _tokens_told(self, game: Game, v: VehicleState) -> Flow:
        """At a real table (ruling CP-6): the people name, in turn, each token on the table
        that the motion's template or final position touched; each is picked up as named."""
        from carnage.games.refuelled.engine.table_facts import ask_list_acting

        def candidates() -> list[tuple[str, str]]:
            return [(tid, self._token_label(game, tid)) for tid in self._may_take(game, v)]

        def take(tid: str) -> None:
            pick_up(game, tid, v, source=self.token_source, page=self.page)
            self.token_picked_up(game, v, tid)

        yield from ask_list_acting(
            game, v.player, "tokens_touched", f"{v.name}: which tokens on the table did its "
            "template or final position touch?", candidates, take, page=self.page,
            vehicle=v.id)

    def _tokens_noted(self, game: Game, v: VehicleState, since: int) -> None:
        """On a recording table: the tokens the geometry had ``v`` pick up in the motion
        just judged, when a real table would have been asked."""
        picked = [str(e.data["token"]) for e in game.log.events[since:]
                  if e.kind == "token_picked_up" and e.data.get("vehicle") == v.id]
        if picked or self._may_take(game, v):
            game.facts.note("tokens_touched", picked)

    @staticmethod
    def _token_label(game: Game, tid: str) -> str:
        t = tokens(game.state)[tid]
        owner = "" if t["owner"] is None else f" ({seat_name(int(t['owner']))})"
        return f"{t['kind']} {tid}{owner}"

    def scenario_counts(self, game: Game, v: VehicleState) -> bool:
        """Which vehicles pick tokens up: those that count for victory (not an RC Car)."""
        return bool(game.scenario.counts(game, v))

    def _carrier_wrecked(self, value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        held = carried_by(game.state, v.id)
        if not held or v.in_play:
            return None
        places = drop_points(game.state, v, TOKEN_SIZE)
        reason = "carrier wrecked"
        if v.status is Status.REMOVED:
            # Exploded, or removed by Twisted Metal (p.44): the log's last word on it says.
            last = next((e for e in reversed(game.log.events) if e.kind == "removed"
                         and e.data.get("vehicle") == v.id), None)
            reason = ("exploded" if last is None or last.source == "explosion"
                      else f"carrier removed ({last.data.get('reason', 'Twisted Metal')})")
        for i, tid in enumerate(held):
            at = places[i % len(places)]
            put_down(game, tid, at, source=self.token_source, page=self.page, reason=reason)
        return None

    def _carrier_disqualified(self, value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        v = game.state.vehicles.get(str(ctx["data"].get("vehicle")))
        if v is None or self.scarper:
            return None  # G-13: a scarpered vehicle keeps its tokens for scoring
        # Where it stood before the move that took it off the table (its last pose seen).
        last = game.state.scenario.get("token_seen", {}).get(v.id, v.pose)
        for tid in carried_by(game.state, v.id):
            put_down(game, tid, _inside(game.state, (last.x, last.y), TOKEN_SIZE),
                     source=self.token_source, page=self.page,
                     reason="carrier disqualified (SC-8)")
        return None

    def _end_of_activation(self, game: Any, ctx: dict[str, Any]) -> Flow:
        yield from self.end_of_activation_tokens(game, ctx["vehicle"])

    def end_of_activation_tokens(self, game: Game, v: VehicleState) -> Flow:
        """For each token ``v`` carries: keep it, set it down within Short, or hand it to a
        touching vehicle (decision ``token_drop``)."""
        for tid in carried_by(game.state, v.id):
            if not v.in_play or game.state.finished:
                return
            options: list[tuple[str, str]] = [(KEEP, "keep it")]
            if game.facts.people:  # a real table (ruling CP-6): where, and to whom, is theirs
                points = {}
                if self.token_set_down:
                    options.append((DOWN, "set it down within Short (where you like)"))
                mates = ([o for o in game.state.in_play() if o.id != v.id]
                         if self.token_hand_over else [])
                options += [(f"give:{o.id}", f"hand it to {o.name} (if it touches)")
                            for o in mates]
            else:
                points = set_down_points(game, v) if self.token_set_down else {}
                options += [(f"down:{k}", f"set it down {k.split(':')[1]} mm out at "
                             f"{k.split(':')[0]} degrees") for k in points]
                mates = touching_vehicles(game, v) if self.token_hand_over else []
                options += [(f"give:{o.id}", f"hand it to {o.name}") for o in mates]
            if len(options) == 1:
                continue
            kind = tokens(game.state)[tid]["kind"]
            pick = str((yield ask(v.player, "token_drop", f"{v.name} carries a {kind}: "
                                  "keep it, set it down or hand it over?", options,
                                  source=self.token_source, page=self.page, vehicle=v.id)))
            if pick == DOWN:  # at a real table: its place is the carrier's notional mark
                put_down(game, tid, _inside(game.state, (v.pose.x, v.pose.y), TOKEN_SIZE),
                         source=self.token_source, page=self.page, reason="set down")
            elif pick.startswith("down:"):
                put_down(game, tid, points[pick[5:]], source=self.token_source,
                         page=self.page, reason="set down")
            elif pick.startswith("give:"):
                hand_over(game, tid, game.state.vehicles[pick[5:]], source=self.token_source,
                          page=self.page)

    def token_drawables(self, game: Game) -> list[Drawable]:
        st = game.state
        out = []
        for tid, t in sorted(tokens(st).items()):
            carried = t["carrier"] is not None
            label = t["kind"] + ("" if t["owner"] is None else f" ({seat_name(int(t['owner']))})")
            out.append(Drawable(f"token-{tid}", "token", (token_point(st, tid),),
                                label=label, owner=t["owner"],
                                style=f"{t['kind']} carried" if carried else str(t["kind"])))
        return out


def reachable_point(state: GameState, tid: str, clearance: float = 30.0) -> Point:
    """A point on the rim of token ``tid`` to drive at (bots' goals): its centre pushed half
    its size away from terrain and table edges closer than ``clearance``, so that a body
    touching the point touches the token without touching what it lies against."""
    from carnage.geometry.shapes import closest_points

    c = token_point(state, tid)
    r = float(tokens(state)[tid]["size"]) / 2.0
    dx = dy = 0.0
    for ob in state.obstacles.values():
        poly = ob.polygon()
        if not overlaps(poly, disc(c, 2 * (r + clearance)), 1e-6):  # penetration < -1e-6
            continue
        q, _, d = closest_points(poly, [c])
        if d > 1e-6:
            dx, dy = dx + (c[0] - q[0]) / d, dy + (c[1] - q[1]) / d
    for near, ux, uy in ((c[0], 1.0, 0.0), (state.width - c[0], -1.0, 0.0),
                         (c[1], 0.0, 1.0), (state.height - c[1], 0.0, -1.0)):
        if near < r + clearance:
            dx, dy = dx + ux, dy + uy
    n = math.hypot(dx, dy)
    if n < 1e-9:
        return c
    return (c[0] + dx / n * r, c[1] + dy / n * r)
