"""The War Rig's rules (Refuelled pp.116-121): Articulated, Ponderous, Piledriver, Jackknife.

A trailer (``engine.state.Trailer``) is the second body of an articulated vehicle, hitched to
the centre of the cab's rear edge and kept as a hinge angle, so whatever moves the cab drags
the trailer along. The engine sees it everywhere through ``VehicleState.bodies()``: as an
obstruction (its id is the vehicle id + ``/trailer``), in collisions (orientation from the
body that touched), as a target and, for weapons mounted on it, as the shooter (p.117).

Articulated (p.118): any template but a Straight costs a Hazard; the cab moves as a normal
vehicle and the trailer is then laid back behind it over the template (``hitch_trailer``,
ruling GM-11); in reverse the trailer leads and the cab follows (p.119); pivots turn both
bodies as one about their shared centre (p.119); a Flip becomes a Jackknife (p.119).
Ponderous (p.120): Tanker Anchor, no Slide template, no lose-control pivot. Piledriver
(p.121): a Smash Attack on a lighter vehicle in its Movement Step after which the target may
be put down elsewhere within Short range.

Trailer upgrades (p.102) give a vehicle the same three rules; such a trailer is as long and as
wide as its vehicle (ruling VR-10).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.collision import SMASH, Party, weight_class
from carnage.games.refuelled.engine.combat import roll_attack
from carnage.games.refuelled.engine.damage import HitGroup, take_hits
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.movement import (
    STRAIGHTS,
    collision_window,
    obstructions_for,
    pivot_vehicle,
    touches,
)
from carnage.games.refuelled.engine.state import (
    TRAILER_PART,
    Obstacle,
    Status,
    Trailer,
    VehicleState,
)
from carnage.games.refuelled.engine.wipeout import lose_control_chooser
from carnage.geometry.collision import Obstruction
from carnage.geometry.footprints import footprint
from carnage.geometry.movement import (
    MoveResult,
    cab_ahead,
    hitch_trailer,
    resolve_move,
)
from carnage.geometry.shapes import Point, Pose, Rect, norm_heading, penetration
from carnage.geometry.table import Table
from carnage.kernel.decisions import Decision, Interval
from carnage.kernel.effects import always
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

PILEDRIVER = "piledriver"
MOVED = "moved"
"""At a real table a Piledriver's target is put down elsewhere by the people (ruling CP-19)."""
MAX_HINGE = 90.0
"""The trailer never folds further than square to the cab (rulings VR-11, VR-13)."""
SETTLE_STEP = 5
"""Degrees between the hinge angles tried when a laid trailer would overlap something."""
OVERLAP_TOL = 0.1
"""Overlap (mm) that counts as overlapping, as for the engine's invariants (GM-7)."""
PIVOT_STEP = 1.0
"""Degrees per step when sweeping cab and trailer round together; contact is then bisected."""
CRUNCH_DICE = 4
PILEDRIVER_BEARINGS = 12
"""Directions offered for a Piledriver placement, every 30 degrees (ruling VR-15)."""
PILEDRIVER_DISTANCES = (0.5, 1.0)
"""Fractions of Short range the target's centre may be moved (ruling VR-15)."""
PILEDRIVER_FACINGS = 8
"""Facings offered after a Piledriver placement, every 45 degrees."""
STAY = "stay"


# -- the trailer's geometry -------------------------------------------------------------------
def trailer_size(v: VehicleState) -> tuple[float, float]:
    """(length, width) of the vehicle's trailer: a War Rig's from the base sizes (p.177);
    a trailer upgrade is as long and as wide as its vehicle (ruling VR-10)."""
    try:
        return footprint(f"{v.type}_trailer")
    except ValueError:
        return v.length, v.width


def ensure_trailer(v: VehicleState) -> Trailer:
    if v.trailer is None:
        length, width = trailer_size(v)
        v.trailer = Trailer(length, width, 0.0)
    return v.trailer


def _clamp_hinge(h: float) -> float:
    """A hinge angle in -90..90 degrees (headings wrap, so reduce to -180..180 first)."""
    h = (h + 180.0) % 360.0 - 180.0
    return max(-MAX_HINGE, min(MAX_HINGE, h))


def _cab_from_trailer(v: VehicleState, trailer: Rect, hinge: float) -> Pose:
    """The cab's pose when the trailer lies at ``trailer`` and the hinge is ``hinge``."""
    return cab_ahead(trailer, v.length, v.width, hinge)


def _overlaps(polys: list[list[Point]], obs: list[Obstruction]) -> bool:
    return any(penetration(p, o.polygon) > OVERLAP_TOL for p in polys for o in obs)


def _settle(g: Game, v: VehicleState, trailer: Trailer, cab_leads: bool) -> bool:
    """If the body that was just laid behind (the trailer, or the cab when reversing) overlaps
    something, swing it about the hitch to the nearest hinge angle where it overlaps nothing
    and which it reaches without sweeping through anything it did not already overlap
    (ruling VR-12). False when there is no such angle (it then stays as laid)."""
    obs = obstructions_for(g, v)
    lead = v.rect() if cab_leads else trailer.rect(v.rect())
    near = [o for o in obs if math.dist(o.centre, (lead.pose.x, lead.pose.y))
            <= o.radius + v.length + trailer.length]
    if not near:
        return True

    def follower(h: float) -> Rect:
        if cab_leads:
            return Trailer(trailer.length, trailer.width, h).rect(lead)
        return Rect(_cab_from_trailer(v, lead, h), v.length, v.width)

    h0 = trailer.hinge
    laid = follower(h0).polygon()
    if not _overlaps([laid], near):
        return True
    fresh = [o for o in near if not _overlaps([laid], [o])]

    def swings_clear(h: float) -> bool:
        steps = max(1, math.ceil(abs(h - h0) / PIVOT_STEP))
        return not any(_overlaps([follower(h0 + (h - h0) * i / steps).polygon()], fresh)
                       for i in range(1, steps))

    tries = sorted(range(-int(MAX_HINGE), int(MAX_HINGE) + 1, SETTLE_STEP),
                   key=lambda h: (abs(h - h0), h))
    for h in tries:
        if not _overlaps([follower(float(h)).polygon()], near) and swings_clear(float(h)):
            if not cab_leads:
                v.pose = _cab_from_trailer(v, lead, float(h))
            trailer.hinge = float(h)
            return True
    return False


def _lay(g: Game, v: VehicleState, lead: Rect, path: Any, reverse: bool) -> bool:
    """Lay cab and trailer with the leading body at ``lead``; False if the follower cannot be
    put anywhere clear."""
    trailer = ensure_trailer(v)
    if reverse:
        flipped = Rect(Pose(lead.pose.x, lead.pose.y, norm_heading(lead.pose.heading + 180.0)),
                       lead.length, lead.width)
        cab = hitch_trailer(flipped, v.length, v.width, path)
        v.pose = Pose(cab.pose.x, cab.pose.y, norm_heading(cab.pose.heading + 180.0))
        hinge = _clamp_hinge(lead.pose.heading - v.pose.heading)
        v.pose = _cab_from_trailer(v, lead, hinge)
    else:
        v.pose = lead.pose
        laid = hitch_trailer(v.rect(), trailer.length, trailer.width, path)
        hinge = _clamp_hinge(laid.pose.heading - v.pose.heading)
    trailer.hinge = hinge
    return _settle(g, v, trailer, cab_leads=not reverse)


BACK_UP_STEP = 0.01
"""Fraction of the move a rig backs up by at a time when its trailer finds no room."""


def lay_out(g: Game, v: VehicleState, result: MoveResult, reverse: bool,
            before: tuple[Pose, float]) -> bool:
    """After a move: the leading body is where ``result`` ends; lay the other one back along
    the template (p.118), in reverse the cab behind the trailer (p.119). If the follower finds
    no clear place, the move backs up along the template until it does, as a vehicle backs up
    out of an overlap (p.46; ruling VR-12), at worst to where it started (``before``: the
    cab's pose and hinge then). True if it had to back up."""
    trailer = ensure_trailer(v)
    path = result.path if result.plan is not None else None
    if _lay(g, v, result.body, path, reverse) or result.plan is None:
        return False
    travel = result.travel
    obs = obstructions_for(g, v)
    while travel > 0.0:
        travel = max(0.0, travel - BACK_UP_STEP)
        lead = Rect(result.pose_at(travel), result.length, result.width)
        # The way back may cross what the move ignored: only a clear spot will do.
        if not _overlaps([lead.polygon()], obs) and _lay(g, v, lead, path, reverse):
            return True
    v.pose, trailer.hinge = before
    return True


def _emit_trailer(g: Game, v: VehicleState, source: str, page: int) -> None:
    t = v.trailer_rect()
    if t is None or v.trailer is None:
        return
    g.emit("trailer", source=source, page=page, vehicle=v.id, hinge=round(v.trailer.hinge, 3),
           x=round(t.pose.x, 3), y=round(t.pose.y, 3), heading=round(t.pose.heading, 3))


def _touching(g: Game, v: VehicleState, rects: list[Rect], skip: set[str]) -> list[str]:
    polys = [r.polygon() for r in rects]
    return [o.id for o in obstructions_for(g, v)
            if o.id not in skip and any(touches(p, o.polygon) for p in polys)]


def _rotate(pose: Pose, centre: Point, angle: float) -> Pose:
    r = math.radians(angle)
    dx, dy = pose.x - centre[0], pose.y - centre[1]
    return Pose(centre[0] + dx * math.cos(r) - dy * math.sin(r),
                centre[1] + dx * math.sin(r) + dy * math.cos(r),
                norm_heading(pose.heading + angle))


def shared_centre(v: VehicleState) -> Point:
    """The centre of cab and trailer taken together: the centre of their combined area."""
    parts = [r for _, r in v.bodies()]
    area = sum(r.length * r.width for r in parts)
    return (sum(r.pose.x * r.length * r.width for r in parts) / area,
            sum(r.pose.y * r.length * r.width for r in parts) / area)


def _first_contact(hits: Callable[[float], Any], clear: float, hit: float
                   ) -> tuple[float, float]:
    """Bisect between an angle that touches nothing new (``clear``) and one that does
    (``hit``): the bracket (clear side, touching side) around the first contact."""
    lo, hi = clear, hit
    for _ in range(30):
        mid = (lo + hi) / 2.0
        if hits(mid):
            hi = mid
        else:
            lo = mid
    return lo, hi



def pivot_as_one(g: Game, v: VehicleState, angle: float, obs: list[Obstruction],
                 ignoring: set[str]) -> tuple[Pose, float, list[str]]:
    """Turn cab and trailer together as one rigid object about their shared centre (p.119),
    stopping where either first touches something it was not touching (or ignoring) at the
    start. Returns the cab's pose, the angle turned and what it touches there."""
    trailer = ensure_trailer(v)
    centre = shared_centre(v)
    start = v.pose
    reach = max(math.dist(centre, c) for _, r in v.bodies() for c in r.polygon())
    live = [o for o in obs if o.id not in ignoring
            and math.dist(o.centre, centre) <= o.radius + reach + 1.0]

    def rects(a: float) -> list[Rect]:
        cab = Rect(_rotate(start, centre, a), v.length, v.width)
        return [cab, trailer.rect(cab)]

    def hits(a: float) -> list[str]:
        polys = [r.polygon() for r in rects(a)]
        return [o.id for o in live if any(touches(p, o.polygon) for p in polys)]

    sign = 1.0 if angle >= 0 else -1.0
    prev = 0.0
    end, touched = angle, []
    while abs(prev) < abs(angle) - 1e-12:
        a = sign * min(abs(prev) + PIVOT_STEP, abs(angle))
        if hits(a):
            _, hi = _first_contact(hits, prev, a)
            end, touched = hi, hits(hi)
            break
        prev = a
    end = _back_off(end, rects, [o for o in obs if math.dist(o.centre, centre)
                                 <= o.radius + reach + 1.0])
    return _rotate(start, centre, end), end, touched if end else []


def _back_off(angle: float, rects: Any, near: list[Obstruction]) -> float:
    """Turn back from ``angle`` towards 0 until the bodies overlap nothing they did not
    overlap at the start (something touched at the start is ignored by the sweep, as for a
    single body, but may not be driven into)."""
    clear = [o for o in near if not _overlaps([r.polygon() for r in rects(0.0)], [o])]

    def bad(a: float) -> bool:
        return _overlaps([r.polygon() for r in rects(a)], clear)

    if not clear or not bad(angle):
        return angle
    lo, hi = 0.0, angle  # lo clear, hi overlapping
    step = PIVOT_STEP if angle > 0 else -PIVOT_STEP
    a = angle
    while abs(a) > PIVOT_STEP:
        a -= step
        if not bad(a):
            lo = a
            break
        hi = a
    else:
        lo = 0.0
    for _ in range(30):
        mid = (lo + hi) / 2.0
        if bad(mid):
            hi = mid
        else:
            lo = mid
    return lo


# -- Articulated (pp.117-119) -------------------------------------------------------------------
@RULES.rule("vehicle_rule", "articulated")
def articulated(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Cab and trailer: the Hazard off a Straight, laying the trailer after each move, reversing
    trailer first, pivoting as one body, the Jackknife, and a wrecked trailer left behind."""
    if vehicle is None:
        raise ValueError("articulated is a vehicle rule: it needs a vehicle")
    v = vehicle
    ensure_trailer(v)

    def template(value: None, ctx: dict[str, Any]) -> None:
        if ctx.get("template") not in STRAIGHTS:
            n = int(g.effects.run_event("articulated_hazards", 1, {"game": g, "vehicle": v}))
            if n > 0:
                g.add_hazards(v, n, "articulated", 118)

    def moving_body(value: Rect, ctx: dict[str, Any]) -> Rect | None:
        # Backing up, the rear of the trailer is the front (p.119).
        return v.trailer_rect() if ctx.get("reverse") else None

    def placed(value: list[str], ctx: dict[str, Any]) -> list[str] | None:
        reverse = bool(ctx.get("reverse"))
        result: MoveResult = ctx["result"]
        hinge = ensure_trailer(v).hinge  # not yet laid: as before the move
        start = result.start if not reverse else _cab_from_trailer(
            v, Rect(result.start, result.length, result.width), hinge)
        backed = lay_out(g, v, result, reverse, (start, hinge))
        ctx["backed_up"] = backed
        _emit_trailer(g, v, "articulated", 118)
        follower = v.rect() if reverse else v.trailer_rect()
        assert follower is not None
        skip = set(ctx.get("ignoring", ()))
        if backed:  # backed up: what the leading body touches there is new
            lead = v.trailer_rect() if reverse else v.rect()
            assert lead is not None
            value = _touching(g, v, [lead], skip)
        skip |= set(value)
        return [*value, *_touching(g, v, [follower], skip)]

    def pivot(value: Any, ctx: dict[str, Any]) -> tuple[Pose, float, list[str]] | None:
        return pivot_as_one(g, v, float(ctx["angle"]), list(ctx["obstructions"]),
                            set(ctx["ignoring"]))

    def jackknife_instead(flows: list[Any], ctx: dict[str, Any]) -> list[Any] | None:
        # The Jackknife replaces the Flip (p.119): it runs first and claims the moment, so no
        # other flip flow (a Roll Cage's question) follows.
        return [jackknife, *flows]

    def wrecked(value: None, ctx: dict[str, Any]) -> None:
        t = v.trailer_rect()
        if v.status is not Status.WRECKED or t is None:
            return
        oid = f"wreck:{v.id}{TRAILER_PART}"
        g.state.obstacles[oid] = Obstacle(oid, t.pose, t.length, t.width, weight=v.weight,
                                          destructible=True, wreck_of=v.id)
        g.emit("wreck", source="get_wrecked", page=44, vehicle=v.id, obstacle=oid,
               weight=v.weight.value, x=round(t.pose.x, 3), y=round(t.pose.y, 3),
               heading=round(t.pose.heading, 3))

    def jackknife(game: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, bool]:
        yield from jackknife_flow(game, v)
        return True

    g.effects.on("template_chosen", source, template, about=v)
    g.effects.on("moving_body", source, moving_body, about=v)
    g.effects.on("vehicle_placed", source, placed, about=v)
    g.effects.on("pivot", source, pivot, about=v)
    g.effects.on("flip", source, jackknife_instead, priority=100, about=v)
    g.effects.on("wrecked", source, wrecked, about=v)


def jackknife_flow(g: Game, v: VehicleState) -> Flow:
    """Instead of a Flip (p.119): the player to the left swings the trailer to any angle
    (collision window), then pivots the whole vehicle to any facing (collision window); then
    a 4D6 attack on itself that cannot be evaded."""
    trailer = ensure_trailer(v)
    active = g.state.vehicles.get(g.state.active or "", v)
    chooser = lose_control_chooser(g, v, active)
    g.emit("jackknife", source="jackknife", page=119, vehicle=v.id, chooser=chooser)
    hinge = yield Decision(
        chooser, "jackknife_swing",
        f"{v.name} jackknifes: swing its trailer (degrees from straight behind the cab, "
        f"now {trailer.hinge:g})",
        domain=Interval(-MAX_HINGE, MAX_HINGE), source="jackknife", page=119, vehicle=v.id,
    )
    yield from swing_trailer(g, v, float(hinge))
    if not v.in_play or g.state.finished:
        return
    angle = yield Decision(
        chooser, "jackknife_pivot",
        f"{v.name} jackknifes: pivot it as one body (degrees anticlockwise)",
        domain=Interval(-180.0, 180.0), source="jackknife", page=119, vehicle=v.id,
    )
    yield from pivot_vehicle(g, v, float(angle), "jackknife", 119)
    if not v.in_play or g.state.finished:
        return
    hit = roll_attack(g, CRUNCH_DICE, why="jackknife crunch", source="jackknife", page=119,
                      vehicle=v.id)
    g.emit("attack_hits", source="jackknife", page=119, target=v.id, origin=v.id, hits=hit.hits,
           criticals=hit.criticals)
    yield from take_hits(g, v, [HitGroup("jackknife", hit.hits)], source="jackknife", page=119,
                         evadable=False)


def swing_trailer(g: Game, v: VehicleState, hinge: float) -> Flow:
    """Hinge the trailer about the hitch to ``hinge`` degrees from the cab's line, stopping at
    the first thing it touches (that it was not touching already); a collision window
    follows (p.119). At a real table the people swing it and say what it met (ruling
    CP-19); its hinge is then a mark (CP-1)."""
    trailer = ensure_trailer(v)
    if g.facts.people:
        from carnage.games.refuelled.engine.movement import obstruction_choices
        from carnage.games.refuelled.engine.table_facts import ask_list

        met = yield from ask_list(
            g, v.player, "trailer_swung_touched", f"{v.name}: its trailer swung to {hinge:g} "
            "degrees from straight behind the cab (Jackknife); what did it meet that it was "
            "not touching before, in order?",
            obstruction_choices(g, [o.id for o in obstructions_for(g, v)]), page=119,
            vehicle=v.id)
        g.emit("trailer_swung", source="jackknife", page=119, vehicle=v.id, touched=list(met))
        if met:
            yield from collision_window(g, v, met)
        return
    start = trailer.rect(v.rect())
    already = set(_touching(g, v, [start], set()))
    cab = v.rect()
    near = [o for o in obstructions_for(g, v)
            if math.dist(o.centre, cab.rear_centre()) <= o.radius + trailer.length + 1.0]
    live = [o for o in near if o.id not in already]
    # What it touched at the start stops it only when it would be driven into it.
    start_poly = start.polygon()
    depth = {o.id: max(OVERLAP_TOL, penetration(start_poly, o.polygon))
             for o in near if o.id in already}
    h0, h1 = trailer.hinge, _clamp_hinge(hinge)

    def hits(h: float) -> list[str]:
        poly = Trailer(trailer.length, trailer.width, h).rect(cab).polygon()
        return [o.id for o in live if touches(poly, o.polygon)] + [
            o.id for o in near if o.id in depth and penetration(poly, o.polygon) > depth[o.id]]

    # Swept in small steps (the hitch moves as the trailer folds, so it is no plain turn);
    # the first contact is then bisected.
    steps = max(1, math.ceil(abs(h1 - h0) / PIVOT_STEP))
    prev, end, touched = h0, h1, []
    for i in range(1, steps + 1):
        h = h0 + (h1 - h0) * i / steps
        if hits(h):
            lo, hi = _first_contact(hits, prev, h)
            touched = hits(hi)
            # Met something new: stop touching it; else stop just short of going deeper.
            end = hi if any(i not in depth for i in touched) else lo
            break
        prev = h
    trailer.hinge = end
    _emit_trailer(g, v, "jackknife", 119)
    fresh = [i for i in touched if i not in already]
    if g.facts.recording and obstructions_for(g, v):  # as a real table is asked
        g.facts.note("trailer_swung_touched", list(fresh))
    if fresh:
        yield from collision_window(g, v, fresh)


# -- Ponderous (p.120) ----------------------------------------------------------------------------
@RULES.rule("vehicle_rule", "ponderous")
def ponderous(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Tanker Anchor; Slide results give their Hazard but no Slide template; a Wipeout leaves
    it facing as it was."""
    if vehicle is None:
        raise ValueError("ponderous is a vehicle rule: it needs a vehicle")
    v = vehicle

    def anchor(game: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, bool]:
        # ``may_anchor`` hook: a scenario may forbid it (Desperate Flight, p.174).
        if game.effects.run_event("may_anchor", True, {"game": game, "vehicle": v}) is not True:
            return False
        pick = yield ask(
            v.player, "tanker_anchor",
            f"{v.name}: Tanker Anchor (gain 1 Hazard, skip the Movement Step)?",
            [("move", "move as usual"), ("anchor", "gain 1 Hazard and skip the Movement Step")],
            source="tanker_anchor", page=120, vehicle=v.id,
        )
        if pick != "anchor":
            return False
        game.emit("tanker_anchor", source="tanker_anchor", page=120, vehicle=v.id)
        game.add_hazards(v, 1, "tanker_anchor", 120)
        if v.gear < game.stat(v, "max_gear"):
            up = yield ask(
                v.player, "tanker_anchor_gear", f"{v.name}: go up a gear (+1 Hazard)?",
                [("stay", f"stay in gear {v.gear}"), ("up", f"change up to gear {v.gear + 1}")],
                source="tanker_anchor", page=120, vehicle=v.id,
            )
            if up == "up":
                game.add_gear(v, 1, "tanker_anchor", 120)
        return True

    def slide(value: bool, ctx: dict[str, Any]) -> bool:
        g.emit("ponderous_slide", source="ponderous", page=120, vehicle=v.id)
        return False

    def lose_control(value: bool, ctx: dict[str, Any]) -> bool:
        g.emit("ponderous_wipeout", source="ponderous", page=120, vehicle=v.id)
        return False

    # Last of the activation-start rules: anchoring skips the Movement Step (it claims it).
    g.effects.add_flow("activation_start", source, always(anchor), -100, about=v)
    g.effects.on("place_slide", source, slide, about=v)
    g.effects.on("lose_control", source, lose_control, about=v)


# -- Piledriver (p.121) ---------------------------------------------------------------------------
@RULES.rule("vehicle_rule", "piledriver")
def piledriver(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """In its Movement Step, colliding with a lighter vehicle, it may declare a Piledriver
    Attack (a Smash Attack); afterwards its controller may put the target down anywhere within
    Short range of where it was, facing any way, clear of the rest of this move."""
    if vehicle is None:
        raise ValueError("piledriver is a vehicle rule: it needs a vehicle")
    v = vehicle
    move: dict[str, Any] = g.memory(source, "move", {})
    state = g.memory(source, "state", {"moved": False})

    def remember(value: None, ctx: dict[str, Any]) -> None:
        move.clear()
        start = v.trailer_rect() if ctx.get("reverse") else None
        move.update(start=start or v.rect(), template=ctx["template"],
                    bodies=[r.polygon() for _, r in v.bodies()],
                    mirror=bool(ctx.get("mirror")), reverse=bool(ctx.get("reverse")))
        state["moved"] = False

    def reactions(value: list[str], ctx: dict[str, Any]) -> list[str] | None:
        other = ctx.get("other")
        st = g.state
        if (isinstance(other, VehicleState)
                and st.active == v.id and st.step == "movement" and move
                and SMASH in value and weight_class(g, other) < weight_class(g, v)):
            return [*value, PILEDRIVER]
        return None

    def after(flows: list[Any], ctx: dict[str, Any]) -> list[Any] | None:
        parties: tuple[Party, Party] = ctx.get("parties", ())
        if len(parties) != 2:
            return None
        for me, other in (parties, parties[::-1]):
            if me.vehicle is v and me.declared == PILEDRIVER and other.vehicle is not None:
                return [*flows, _placer(v, other.vehicle, move, state)]
        return None

    def carry_on(game: Game, ctx: dict[str, Any]) -> Flow:
        if state["moved"]:
            state["moved"] = False
            ctx["rerun"] = True
        yield from ()

    g.effects.on("template_chosen", source, remember, about=v)
    g.effects.on("collision_reactions", source, reactions, about=v)
    g.effects.on("collision_end", source, after)
    g.effects.add_flow("move_collided", source, always(carry_on), about=v)


def _placer(rig: VehicleState, target: VehicleState, move: dict[str, Any],
            state: dict[str, bool]) -> Any:
    def place(game: Game, ctx: dict[str, Any]) -> Flow:
        if (yield from piledriver_place(game, rig, target, move)):
            state["moved"] = True

    return place


def piledriver_spots(g: Game, rig: VehicleState, target: VehicleState,
                     move: dict[str, Any]) -> dict[str, list[int]]:
    """Legal placements for a Piledriver's target: its centre moved by half or all of Short
    range in one of 12 directions (or left where it is), turned by a multiple of 45 degrees;
    on the table, overlapping nothing, and clear of the rig's move laid again from its start
    (ruling VR-15). Maps a spot value (``bearing:distance`` mm) to its legal turns."""
    short = g.templates.ranges["short"]
    home = target.pose
    old = target.pose
    table = Table(g.state.width, g.state.height)
    out: dict[str, list[int]] = {}
    try:
        for b in range(PILEDRIVER_BEARINGS):
            bearing = b * 360 // PILEDRIVER_BEARINGS
            for frac in PILEDRIVER_DISTANCES:
                d = short * frac
                r = math.radians(bearing)
                turns: list[int] = []
                for f in range(PILEDRIVER_FACINGS):
                    turn = f * 360 // PILEDRIVER_FACINGS
                    target.pose = Pose(home.x + d * math.cos(r), home.y + d * math.sin(r),
                                       norm_heading(home.heading + turn))
                    if _spot_ok(g, rig, target, move, table):
                        turns.append(turn)
                if turns:
                    out[f"{bearing}:{round(d, 3):g}"] = turns
    finally:
        target.pose = old
    return out


def _spot_ok(g: Game, rig: VehicleState, target: VehicleState, move: dict[str, Any],
             table: Table) -> bool:
    rects = [r for _, r in target.bodies()]
    for r in rects:
        if any(not (0.0 <= x <= table.width and 0.0 <= y <= table.height)
               for x, y in r.polygon()):
            return False
    polys = [r.polygon() for r in rects]
    if _overlaps(polys, obstructions_for(g, target)):
        return False
    if not move:
        return True
    # Not where the rig started its move (it would drive through it unseen) ...
    if any(touches(p, q) for p in polys for q in move["bodies"]):
        return False
    # ... nor anywhere its template, laid again from there, would meet it.
    mine = [Obstruction.from_rect(bid, r) for bid, r in target.bodies()]
    res = resolve_move(move["start"], move["template"], mine, mirror=move["mirror"],
                       reverse=move["reverse"], ts=g.templates)
    return not res.touched and not res.interrupted


def piledriver_place(g: Game, rig: VehicleState, target: VehicleState,
                     move: dict[str, Any]) -> Generator[Decision, Any, bool]:
    """The rig's controller may put the target down elsewhere (p.121). Returns True if moved."""
    if not (rig.in_play and target.in_play) or g.state.finished:
        return False
    if g.facts.people:  # the people put it down where the book allows (ruling CP-19)
        pick = str((yield ask(
            rig.player, "piledriver_place", f"{rig.name}: Piledriver - put {target.name} "
            "down elsewhere (its centre moved up to Short range, any facing, on the table, "
            "overlapping nothing, clear of the rig's move)?",
            [(STAY, "leave it where it is"), (MOVED, "put it down elsewhere")],
            source=PILEDRIVER, page=121, vehicle=rig.id, target=target.id)))
        if pick == STAY:
            return False
        g.emit("piledriver", source=PILEDRIVER, page=121, vehicle=rig.id, target=target.id)
        return True
    spots = piledriver_spots(g, rig, target, move)
    opts: list[tuple[str | int, str]] = [(STAY, "leave it where it is")]
    for value in spots:
        b_txt, d_txt = value.split(":")
        opts.append((value, f"move it {d_txt} mm at {b_txt} degrees"))
    pick = str((yield ask(
        rig.player, "piledriver_place", f"{rig.name}: Piledriver - put {target.name} where?",
        opts, source=PILEDRIVER, page=121, vehicle=rig.id, target=target.id,
    )))
    if pick == STAY:
        return False
    turns = spots[pick]
    turn = yield ask(
        rig.player, "piledriver_facing", f"{rig.name}: turn {target.name} by how much?",
        [(t, f"{t} degrees anticlockwise") for t in turns], source=PILEDRIVER, page=121,
        vehicle=rig.id, target=target.id,
    )
    deg, dist = (float(x) for x in pick.split(":"))
    r = math.radians(deg)
    home = target.pose
    target.pose = Pose(home.x + dist * math.cos(r), home.y + dist * math.sin(r),
                       norm_heading(home.heading + int(turn)))
    g.emit("piledriver", source=PILEDRIVER, page=121, vehicle=rig.id, target=target.id,
           x=round(target.pose.x, 3), y=round(target.pose.y, 3),
           heading=round(target.pose.heading, 3))
    return True

