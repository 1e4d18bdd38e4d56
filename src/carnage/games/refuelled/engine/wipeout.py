"""The Wipeout Step (Refuelled pp.34-35): the last step of every activation.

Every vehicle on 6+ Hazards wipes out, whoever is active: the active vehicle first, then the
others in clockwise order of their controllers from the active player, re-checked after each
Wipeout since Collisions during the step can push others over (p.34). A Wipeout is: 3.1 flip
check (D6 below the current gear flips: 2 unevadable hits, then a forced Medium Straight ignoring
every obstruction, with a collision window); 3.2 reset to gear 1 and no Hazards; 3.3 lose control:
the next player clockwise pivots the vehicle about its centre to any facing (collision window).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carnage.kernel.decisions import Decision, Interval, Option
from carnage.kernel.effects import CANCEL

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import VehicleState

WIPEOUT_AT = 6
"""A vehicle with this many Hazard Tokens or more wipes out (p.34)."""
FLIP_HITS = 2
"""Hits a flipping vehicle suffers; they cannot be evaded (p.35)."""


def _hook(g: Game, name: str, value: int, v: VehicleState) -> int:
    if g.effects.idle(name):
        return value
    out = g.effects.run_event(name, value, {"game": g, "vehicle": v})
    return value if out is CANCEL else int(out)


def wipeout_threshold(g: Game, v: VehicleState) -> int:
    return _hook(g, "wipeout_threshold", WIPEOUT_AT, v)


def wipeout_order(g: Game, active: VehicleState, done: set[str]) -> list[VehicleState]:
    """Vehicles due a Wipeout now: ``active`` first, then clockwise by controller from the
    active player; one player's vehicles in table order (ruling CO-6). A vehicle wipes out at
    most once per Wipeout Step (ruling CO-5): ``done`` lists those that already have."""
    due = [
        v for v in g.state.in_play()
        if v.id not in done and v.hazards >= wipeout_threshold(g, v)
    ]
    seats = {p: i for i, p in enumerate(g.state.clockwise_from(active.player))}
    table = {vid: i for i, vid in enumerate(g.state.vehicles)}
    due.sort(key=lambda v: (v.id != active.id, seats.get(v.player, len(seats)), table[v.id]))
    return due


def wipeout_step(g: Game, active: VehicleState) -> Flow:
    """Resolve every Wipeout due in ``active``'s Wipeout Step (p.34)."""
    done: set[str] = set()
    while not g.state.finished:
        due = wipeout_order(g, active, done)
        if not due:
            return
        v = due[0]
        done.add(v.id)
        yield from wipeout(g, v, active)


def lose_control_chooser(g: Game, v: VehicleState, active: VehicleState) -> int:
    """Who pivots a vehicle losing control: the player clockwise of that vehicle's controller
    (p.35; ruling CO-7), through the ``lose_control_chooser`` hook."""
    default = (v.player + 1) % g.state.players
    out = g.effects.run_event("lose_control_chooser", default,
                              {"game": g, "vehicle": v, "active": active})
    return default if out is CANCEL else int(out)


def wipeout(g: Game, v: VehicleState, active: VehicleState) -> Flow:
    g.emit("wipeout", source="wipeout", page=34, vehicle=v.id, hazards=v.hazards, gear=v.gear)
    # ``wipeout_start`` flow hook: rules acting before the Wipeout is resolved (an RC Car
    # suffers one damage, p.79); the Wipeout ends if the vehicle leaves play, or when a flow
    # returning True resolved the Wipeout itself (a ruleset's own wipeout: the Kart variant).
    from carnage.kernel.effects import run_flows

    if (yield from run_flows(g, "wipeout_start", {"game": g, "vehicle": v, "active": active})):
        return
    if not v.in_play or g.state.finished:
        return
    # 3.1 Flip check: a D6 lower than the current gear flips the vehicle (p.34). A
    # ``flip_check_start`` flow returning True flips it without rolling (p.160).
    if (yield from run_flows(g, "flip_check_start", {"game": g, "vehicle": v})):
        flipped = True
    else:
        roll = g.roll(1, "flip check", source="flip_check", page=34, vehicle=v.id)[0]
        score = _hook(g, "flip_check", roll, v)
        flipped = score < v.gear
        g.emit("flip_check", source="flip_check", page=34, vehicle=v.id, roll=roll,
               score=score, gear=v.gear, flipped=flipped)
    if flipped:
        yield from flip(g, v)
        if not v.in_play or g.state.finished:
            return
    # 3.2 Reset (p.34).
    reset_gear_and_hazards(g, v, source="wipeout", page=34)
    # ``wipeout_reset`` flow hook: rules looking again once the vehicle is reset, after any
    # Flip (Schadenfreude at a real table, p.111).
    yield from run_flows(g, "wipeout_reset", {"game": g, "vehicle": v})
    # ``lose_control`` hook: False leaves the vehicle facing as it is (Ponderous,
    # p.120).
    if g.effects.run_event("lose_control", True, {"game": g, "vehicle": v}) is not True:
        return
    # 3.3 Lose control (p.35): any facing, as a pivot about the centre (anticlockwise degrees).
    chooser = lose_control_chooser(g, v, active)
    from carnage.games.refuelled.engine.movement import SPIN_DONE, SPUN_AT_TABLE, pivot_vehicle

    if g.facts.people:  # the chooser turns the real car; no rule needs its angle (CP-25)
        yield Decision(
            chooser, "lose_control", f"{v.name} loses control: turn it to face any way about "
            "its centre, then tap Done", options=(Option(SPIN_DONE, "Done"),),
            source="lose_control", page=35, vehicle=v.id, confirm=True)
        yield from pivot_vehicle(g, v, SPUN_AT_TABLE, "lose_control", 35,
                                 turn="to face any way about its centre")
        return
    angle = yield Decision(
        chooser, "lose_control",
        f"{v.name} loses control: pivot it about its centre (degrees anticlockwise from "
        f"heading {v.pose.heading:g})",
        domain=Interval(-180.0, 180.0), source="lose_control", page=35, vehicle=v.id,
    )
    yield from pivot_vehicle(g, v, float(angle), "lose_control", 35)


def flip(g: Game, v: VehicleState) -> Flow:
    """2 hits that cannot be evaded, then a forced Medium Straight ignoring all obstructions,
    with a collision window (p.35). The forced move ignores ramps too (FAQ)."""
    from carnage.games.refuelled.engine.damage import suffer_damage
    from carnage.games.refuelled.engine.movement import forced_move
    from carnage.kernel.effects import run_flows

    # ``flip`` flow hook: rules acting as a vehicle flips (Roll Cage asks, p.85); one
    # returning True resolves the Flip itself (Nuclear Engine p.83, Jackknife p.119).
    if (yield from run_flows(g, "flip", {"game": g, "vehicle": v})):
        return
    hits = max(0, _hook(g, "flip_hits", FLIP_HITS, v))
    g.emit("flip", source="flip", page=35, vehicle=v.id, hits=hits)
    yield from suffer_damage(g, v, hits, source="flip", page=35)
    if v.in_play and not g.state.finished:
        yield from forced_move(g, v, "medium_straight", source="flip", page=35,
                               ignore_obstructions=True)


def reset_gear_and_hazards(g: Game, v: VehicleState, *, source: str, page: int) -> None:
    """Current gear to 1 and every Hazard Token discarded (no Hazard for this gear change)."""
    if v.gear != 1:
        v.gear = 1
        g.emit("gear", source=source, page=page, vehicle=v.id, gear=1)
    if v.hazards:
        g.emit("hazards", source=source, page=page, vehicle=v.id, change=-v.hazards, hazards=0)
        v.hazards = 0
