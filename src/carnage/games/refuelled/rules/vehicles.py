"""Vehicle special rules (Refuelled pp.66-71), as effects on the engine's hooks.

Each rule is registered by the id the vehicle records carry (catalog/data/vehicles.yaml):
roll_cage, slip_away, jet_engine, full_throttle, pivot, infuriating_jingle, airborne, airwolf,
bombs_away, uppers, downers, all_terrain, up_and_over, turret. The War Rig's rules
(articulated, ponderous, piledriver) live in rules/war_rig.py.

Shared with the upgrades (rules/upgrades.py): ``roll_cage`` is the Buggy's type rule (p.66);
the upgrade (p.85) may install the same function, which installs once per vehicle whichever way
it comes; ``full_throttle`` and ``all_terrain`` are plain installers an upgrade carrying the same
rule (Nuclear Engine p.83, Tank Tracks p.85) calls, also installing once per vehicle; ``nitro``
and ``top_up_hazards`` are the Nitro Booster's boost (p.84), which the Jet Engine must use
every activation (p.70).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from carnage.catalog import TemplateUse
from carnage.games.refuelled.engine.collision import EVADE, SMASH, Party, weight_class
from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.movement import (
    obstructions_for,
    pivot_vehicle,
    touches,
    touching_ids,
)
from carnage.games.refuelled.engine.state import (
    TRAILER_PART,
    WEIGHT_CLASS,
    VehicleState,
    body_owner,
)
from carnage.games.refuelled.engine.terrain import parse_ramp_edge
from carnage.geometry.movement import spin_body
from carnage.geometry.shapes import Pose, norm_heading
from carnage.kernel.decisions import Decision, Interval
from carnage.kernel.effects import always
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

FlowFn = Callable[["Game", dict[str, Any]], Generator[Any, Any, Any]]
"""A rule's flow at a flow hook (returning True claims the moment, see ``run_flows``)."""

NITRO_HAZARDS = 5
"""A Nitro boost tops the vehicle's Hazards up to this many, before and after the move (p.84)."""
PIVOT_BACK_OFF = 0.5
"""Degrees a contact-free pivot steps back from the first contact, up to ``PIVOT_TRIES`` times."""
PIVOT_TRIES = 20
AIRWOLF_HAZARDS = 2
AIRWOLF_MAX_TURN = 90.0
DOWNERS_DISCARD = 2


# -- helpers -----------------------------------------------------------------------------------
def _vehicle(v: VehicleState | None, rule: str) -> VehicleState:
    if v is None:
        raise ValueError(f"{rule} is a vehicle rule: it needs a vehicle")
    return v


def installed(g: Game, event: str, effect: str) -> bool:
    """Has ``effect`` already a handler on ``event``? (A rule reaching a vehicle two ways, e.g.
    the Buggy's Roll Cage as a type rule and as a built-in upgrade, installs once.)"""
    return any(h.effect == effect for h in g.effects.handlers(event))




def _pose_touches(g: Game, v: VehicleState, pose: Pose, skip: set[str]) -> set[str]:
    """What ``v`` would touch at ``pose`` (its trailer comes along), minus ``skip``."""
    old = v.pose
    v.pose = pose
    try:
        polys = [r.polygon() for _, r in v.bodies()]
        return {o.id for o in obstructions_for(g, v)
                if o.id not in skip and any(touches(p, o.polygon) for p in polys)}
    finally:
        v.pose = old


def pivot_without_contact(g: Game, v: VehicleState, angle: float, *, source: str,
                          page: int) -> float:
    """Turn ``v`` about its centre towards ``angle`` degrees without a Collision and without
    ending up touching anything (Pivot, p.69): the turn stops just short of the first thing it
    would touch, and is not made at all if the vehicle would still end touching an obstruction
    (ruling VR-3). Returns the angle turned. At a real table the people turn it so, by the
    same rule, and nothing is measured or asked: its facing is a mark, as after any pivot
    there (CP-1, CP-19); the angle asked is returned."""
    if g.facts.people:
        g.emit("pivot", source=source, page=page, vehicle=v.id, requested=round(angle, 3),
               touched=[])
        return angle
    ignoring = touching_ids(g, v)
    obs = obstructions_for(g, v)
    custom = g.effects.run_event("pivot", None, {
        "game": g, "vehicle": v, "angle": angle, "obstructions": obs, "ignoring": ignoring})
    if isinstance(custom, tuple):
        _, turned, touched = custom
    else:
        _, turned, touched = spin_body(v.rect(), angle, obs, ignoring=ignoring)
    turned = float(turned)
    start = v.pose
    for _ in range(PIVOT_TRIES + 1):
        pose = Pose(start.x, start.y, norm_heading(start.heading + turned))
        if not _pose_touches(g, v, pose, set()):
            break
        if not touched or abs(turned) <= PIVOT_BACK_OFF:
            turned = 0.0
            break
        turned -= PIVOT_BACK_OFF if turned > 0 else -PIVOT_BACK_OFF
    else:
        turned = 0.0
    if turned:
        v.pose = Pose(start.x, start.y, norm_heading(start.heading + turned))
    g.emit("pivot", source=source, page=page, vehicle=v.id, requested=round(angle, 3),
           turned=round(turned, 3), heading=round(v.pose.heading, 3), touched=[])
    return turned


# -- Roll Cage (Buggy p.66; upgrade p.85) ------------------------------------------------------
@RULES.rule("vehicle_rule", "roll_cage")
def roll_cage(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """When the vehicle flips its controller may ignore the Flip's 2 hits."""
    v = _vehicle(vehicle, "roll_cage")
    effect = f"roll_cage:{v.id}"
    if installed(g, "flip_hits", effect):
        return
    state = g.memory(source, "state", {"ignore": False})

    def choose(game: Game, ctx: dict[str, Any]) -> Flow:
        pick = yield ask(
            v.player, "roll_cage", f"{v.name} flips: use the Roll Cage to ignore the hits?",
            [("ignore", "ignore the Flip's hits"), ("take", "take the hits")],
            source="roll_cage", page=66, vehicle=v.id,
        )
        state["ignore"] = pick == "ignore"
        if state["ignore"]:
            game.emit("roll_cage", source="roll_cage", page=66, vehicle=v.id)

    def hits(value: int, ctx: dict[str, Any]) -> int | None:
        if state["ignore"]:
            state["ignore"] = False
            return 0
        return None

    g.effects.add_flow("flip", effect, always(choose), 10, about=v)
    g.effects.on("flip_hits", effect, hits, about=v)


# -- Slip Away (Performance Car p.66) ----------------------------------------------------------
@RULES.rule("vehicle_rule", "slip_away")
def slip_away(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Evading a tailgate or T-bone Smash Attack earns a free activation once the active vehicle
    has finished its activation (it does not count as this vehicle's activation)."""
    v = _vehicle(vehicle, "slip_away")
    state = g.memory(source, "state", {"due": False})

    def after_collision(game: Game, ctx: dict[str, Any]) -> Flow:
        parties: tuple[Party, Party] = ctx["parties"]
        for me, other in (parties, parties[::-1]):
            if (me.vehicle is v and me.reaction == EVADE and other.vehicle is not None
                    and other.reaction == SMASH
                    and ctx.get("orientation") in ("tailgate", "t_bone")):
                state["due"] = True
                game.emit("slip_away", source="slip_away", page=66, vehicle=v.id,
                          other=other.id)
        yield from ()

    def free_activation(game: Game, ctx: dict[str, Any]) -> Flow:
        if not state["due"]:
            return
        state["due"] = False
        if not v.in_play or game.state.finished:
            return
        pick = yield ask(
            v.player, "slip_away", f"{v.name}: take the free Slip Away activation now?",
            [("activate", "activate now (a free activation)"), ("decline", "decline")],
            source="slip_away", page=66, vehicle=v.id,
        )
        if pick == "activate":
            yield from activation(game, v, free=True)

    def on_collision(flows: list[FlowFn], ctx: dict[str, Any]) -> list[FlowFn] | None:
        parties = ctx.get("parties", ())
        return [*flows, after_collision] if any(p.vehicle is v for p in parties) else None

    g.effects.on("collision_end", source, on_collision)
    g.effects.add_flow("after_activation", source, always(free_activation))


# -- Nitro and the Jet Engine (Drag Racer p.70; Nitro Booster p.84) ------------------------
def nitro(g: Game, v: VehicleState, *, source: str, page: int) -> Flow:
    """A Nitro boost at the start of a Movement Step: a forced Long Straight forward, then
    Hazards up to 5 (p.84). The caller forbids reversing for the rest of the Movement Step and
    tops the Hazards up again at its end (``top_up_hazards``)."""
    from carnage.games.refuelled.engine.movement import forced_move

    g.emit("nitro", source=source, page=page, vehicle=v.id)
    yield from forced_move(g, v, "long_straight", source=source, page=page)
    if v.in_play and not g.state.finished:
        top_up_hazards(g, v, source=source, page=page)


def top_up_hazards(g: Game, v: VehicleState, *, source: str, page: int) -> None:
    """Hazards up to the Nitro level, 5 (p.84)."""
    if v.in_play and v.hazards < NITRO_HAZARDS:
        g.add_hazards(v, NITRO_HAZARDS - v.hazards, source, page)


@RULES.rule("vehicle_rule", "jet_engine")
def jet_engine(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """A Nitro Booster with endless ammo that must be used every activation (no choice); the
    vehicle always explodes when wrecked."""
    v = _vehicle(vehicle, "jet_engine")
    state = g.memory(source, "state", {"boosted": False})

    def boost(game: Game, ctx: dict[str, Any]) -> Flow:
        state["boosted"] = True
        yield from nitro(game, v, source="jet_engine", page=70)

    def after(game: Game, ctx: dict[str, Any]) -> Flow:
        if state["boosted"]:
            state["boosted"] = False
            top_up_hazards(game, v, source="jet_engine", page=70)
        yield from ()

    def no_reverse(value: bool, ctx: dict[str, Any]) -> bool | None:
        return False if state["boosted"] else None

    def explodes(value: bool, ctx: dict[str, Any]) -> bool | None:
        return True

    g.effects.add_flow("movement_start", source, always(boost), about=v)
    g.effects.add_flow("movement_end", source, always(after), 10, about=v)
    g.effects.on("may_reverse", source, no_reverse, about=v)
    g.effects.on("explosion_check", source, explodes, about=v)


# -- Full Throttle (Bikes p.69) ----------------------------------------------------------------
@RULES.rule("vehicle_rule", "full_throttle")
def full_throttle(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """The Long Straight is permitted in every gear, never Hazardous nor Trivial."""
    v = _vehicle(vehicle, "full_throttle")
    effect = f"full_throttle:{v.id}"
    if installed(g, "template_use", effect):
        return

    def use(value: TemplateUse, ctx: dict[str, Any]) -> TemplateUse | None:
        return TemplateUse.PERMITTED if ctx.get("template") == "long_straight" else None

    g.effects.on("template_use", effect, use, about=v)


# -- Pivot (Bikes p.69, Tank p.71) -------------------------------------------------------------
@RULES.rule("vehicle_rule", "pivot")
def pivot(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """In gear 1 at the start of its activation the vehicle may turn on the spot to any
    facing, without a Collision and without ending up touching anything."""
    v = _vehicle(vehicle, "pivot")

    def turn(game: Game, ctx: dict[str, Any]) -> Flow:
        if v.gear != 1:
            return
        angle = yield Decision(
            v.player, "pivot",
            f"{v.name}: pivot on the spot before moving (degrees anticlockwise; 0 stays)",
            domain=Interval(-180.0, 180.0), source="pivot", page=69, vehicle=v.id,
        )
        if float(angle) != 0.0:
            pivot_without_contact(game, v, float(angle), source="pivot", page=69)

    g.effects.add_flow("activation_start", source, always(turn), 20, about=v)


# -- Infuriating Jingle (Ice Cream Truck p.70) -------------------------------------------------
@RULES.rule("vehicle_rule", "infuriating_jingle")
def infuriating_jingle(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """A vehicle that smashes into the ice cream truck gains no Hazards from that Collision."""
    v = _vehicle(vehicle, "infuriating_jingle")

    def hazards(value: int, ctx: dict[str, Any]) -> int | None:
        if ctx.get("other") is v and ctx.get("vehicle") is not None \
                and ctx.get("reaction") == SMASH and value > 0:
            ctx["game"].emit("infuriating_jingle", source="infuriating_jingle", page=70,
                             vehicle=ctx["vehicle"].id, other=v.id)
            return 0
        return None

    g.effects.on("collision_hazards", source, hazards, priority=-10)


# -- Airborne (Helicopter, Gyrocopter p.70) ----------------------------------------------------
@RULES.rule("vehicle_rule", "airborne")
def airborne(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """The aircraft ignores everything but Tall terrain (except for cover and its own
    targets); everyone else ignores it except to shoot at it; it is never in a Collision."""
    v = _vehicle(vehicle, "airborne")
    mine = {v.id, v.id + TRAILER_PART}

    def obstructions(value: list[Any], ctx: dict[str, Any]) -> list[Any] | None:
        me = ctx.get("vehicle")
        if me is v:
            tall = {o.id for o in ctx["game"].state.obstacles.values() if o.tall}
            return [o for o in value if o.id in tall]
        return [o for o in value if o.id not in mine]


    def collides(value: bool, ctx: dict[str, Any]) -> bool | None:
        if ctx.get("vehicle") is v or body_owner(str(ctx.get("other", ""))) == v.id:
            return False
        return None

    def blockers(value: list[Any], ctx: dict[str, Any]) -> list[Any] | None:
        # Others ignore it for cover; it still checks cover as usual for its own attacks.
        if ctx.get("vehicle") is v:
            return None
        return [b for b in value if b.id not in mine]

    g.effects.on("obstructions", source, obstructions)
    g.effects.on("ramp_edges", source, lambda value, ctx: [], about=v)
    g.effects.on("surface_hazards", source, lambda value, ctx: 0, about=v)
    g.effects.on("collides", source, collides)
    g.effects.on("cover_blockers", source, blockers)
    # Dropped weapon templates (rules/dropped.py) ask the ``ignores_dropped`` hook.
    g.effects.on("ignores_dropped", source, lambda value, ctx: True, about=v)


# -- Airwolf (Helicopter, Gyrocopter p.70) -----------------------------------------------------
@RULES.rule("vehicle_rule", "airwolf")
def airwolf(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the start of its activation the aircraft may take 2 Hazards to pivot up to 90°."""
    v = _vehicle(vehicle, "airwolf")

    def turn(game: Game, ctx: dict[str, Any]) -> Flow:
        pick = yield ask(
            v.player, "airwolf", f"{v.name}: gain 2 Hazards to pivot up to 90 degrees?",
            [("no", "no pivot"), ("pivot", "gain 2 Hazards and pivot")],
            source="airwolf", page=70, vehicle=v.id,
        )
        if pick != "pivot":
            return
        game.add_hazards(v, AIRWOLF_HAZARDS, "airwolf", 70)
        angle = yield Decision(
            v.player, "airwolf_pivot", f"{v.name}: pivot (degrees anticlockwise, up to 90)",
            domain=Interval(-AIRWOLF_MAX_TURN, AIRWOLF_MAX_TURN), source="airwolf", page=70,
            vehicle=v.id,
        )
        yield from pivot_vehicle(game, v, float(angle), "airwolf", 70)

    g.effects.add_flow("activation_start", source, always(turn), 10, about=v)


# -- Bombs Away (Helicopter, Gyrocopter p.70) --------------------------------------------------
@RULES.rule("vehicle_rule", "bombs_away")
def bombs_away(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Any number of dropped weapon attacks in one Attack Step (the 0-slot half is applied by
    the team builder). Dropped weapons (rules/dropped.py) read the ``dropped_per_step`` hook."""
    v = _vehicle(vehicle, "bombs_away")

    g.effects.on("dropped_per_step", source, lambda value, ctx: 1_000_000, about=v)


# -- Uppers and Downers (Ambulance p.69) -------------------------------------------------------
@RULES.rule("vehicle_rule", "uppers")
def uppers(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """After a Collision with the ambulance in which both vehicles evaded, both change gear up
    (a Hazard each, as usual; at max gear only the Hazard)."""
    v = _vehicle(vehicle, "uppers")

    def shift_up(game: Game, ctx: dict[str, Any]) -> Flow:
        if ctx.get("uppers_done"):
            return
        ctx["uppers_done"] = True
        for p in ctx["parties"]:
            w = p.vehicle
            if w is None or not w.in_play:
                continue
            game.emit("uppers", source="uppers", page=69, vehicle=w.id)
            if w.gear < game.stat(w, "max_gear"):
                game.add_gear(w, 1, "uppers", 69)
            else:
                game.add_hazards(w, 1, "uppers", 69)
        yield from ()

    def on_collision(flows: list[FlowFn], ctx: dict[str, Any]) -> list[FlowFn] | None:
        parties = ctx.get("parties", ())
        if any(p.vehicle is v for p in parties) and all(
                p.vehicle is not None and p.reaction == EVADE for p in parties):
            return [*flows, shift_up]
        return None

    g.effects.on("collision_end", source, on_collision)


@RULES.rule("vehicle_rule", "downers")
def downers(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """When the ambulance smashes during its own activation, the other vehicle gains no
    Hazards from the Collision, discards 2 instead, and has 1 less Crew to the end of the Gear
    Phase."""
    v = _vehicle(vehicle, "downers")
    crew_loss: dict[str, int] = g.memory(source, "crew_loss", {})

    def hazards(value: int, ctx: dict[str, Any]) -> int | None:
        game: Game = ctx["game"]
        target = ctx.get("vehicle")
        if (ctx.get("other") is not v or target is None or game.state.active != v.id
                or ctx.get("other_reaction") != SMASH):
            return None
        gone = min(DOWNERS_DISCARD, target.hazards)
        if gone:
            game.add_hazards(target, -gone, "downers", 69)
        crew_loss[target.id] = crew_loss.get(target.id, 0) + 1
        game.emit("downers", source="downers", page=69, vehicle=target.id,
                  crew=game.stat(target, "crew"))
        return 0

    def crew(value: int, ctx: dict[str, Any]) -> int | None:
        w = ctx.get("vehicle")
        if w is None or w.id not in crew_loss:
            return None
        return max(0, value - crew_loss[w.id])

    def phase_end(value: None, ctx: dict[str, Any]) -> None:
        crew_loss.clear()

    g.effects.on("collision_hazards", source, hazards, priority=-20)
    g.effects.on("stat:crew", source, crew, priority=-10)
    g.effects.on("gear_phase_end", source, phase_end)


# -- All Terrain (Monster Truck, Tank p.71) ----------------------------------------------------
@RULES.rule("vehicle_rule", "all_terrain")
def all_terrain(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Rough and treacherous surfaces give no Hazards (ruling VR-2: always used)."""
    v = _vehicle(vehicle, "all_terrain")
    effect = f"all_terrain:{v.id}"
    if installed(g, "surface_hazards", effect):
        return
    g.effects.on("surface_hazards", effect, lambda value, ctx: 0, about=v)


# -- Up and Over (Monster Truck, Tank p.71) ----------------------------------------------------
def _weight_of(g: Game, oid: str) -> tuple[int, VehicleState | None] | None:
    """Weight class of an obstruction still on the table, with its vehicle if it is one."""
    if parse_ramp_edge(oid) is not None:
        return None
    other = g.state.vehicles.get(body_owner(oid))
    if other is not None:
        return (weight_class(g, other), other) if other.in_play else None
    ob = g.state.obstacles.get(oid)
    return None if ob is None else (WEIGHT_CLASS[ob.weight], None)


@RULES.rule("vehicle_rule", "up_and_over")
def up_and_over(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """After a Collision in its Movement Step with a lighter obstruction the vehicle may drive
    over it, ignoring it for the rest of that Movement Step (never over another vehicle with
    this rule)."""
    v = _vehicle(vehicle, "up_and_over")

    def drive_over(game: Game, ctx: dict[str, Any]) -> Flow:
        for oid in ctx["touched"]:
            found = _weight_of(game, oid)
            if found is None or found[0] >= weight_class(game, v):
                continue
            if found[1] is not None and "up_and_over" in found[1].special_rules:
                continue
            pick = yield ask(
                v.player, "up_and_over", f"{v.name}: go Up and Over {oid}?",
                [("over", f"drive over {oid}"), ("no", "stay where it stopped")],
                source="up_and_over", page=71, vehicle=v.id, target=oid,
            )
            if pick == "over":
                ctx["ignore"].add(oid)
                game.emit("up_and_over", source="up_and_over", page=71, vehicle=v.id,
                          other=oid)

    g.effects.add_flow("move_collided", source, always(drive_over), about=v)


# -- Turret (Tank p.71) ------------------------------------------------------------------------
@RULES.rule("vehicle_rule", "turret")
def turret(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """A team-building rule: one weapon is turret-mounted free (ruling TB-2). In play that
    weapon simply has the ``turret`` facing (360°), which the Attack Step reads from the
    mount; nothing else changes, so no handler is needed."""
    _vehicle(vehicle, "turret")
