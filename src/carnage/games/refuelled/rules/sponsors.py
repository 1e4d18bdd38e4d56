"""Sponsors in play (Refuelled pp.91-103): every sponsored perk that acts during a game.

Each sponsor is an installer (``@RULES.rule("sponsor", id)``) called once for the player it
sponsors (source ``sponsor:<id>:<seat>``); it installs that sponsor's perks, which reach every
vehicle of the player's team (RC Cars are not part of it, p.79). Team-building perks (Military
Hardware, Well Stocked, Elegance, Thumpermonkey, N2O Addict, Spiked Fist, Prison Cars, Crew
Quarters, MicroPlate Armour, Trailer Trash, Haulage ...) act in the team builder, not here.

Moments the rules use (docs/events.md): logged events (``logged:<kind>``), the ``attack``,
``template_chosen``, ``nitro_hazards``, ``dropped_per_step``, ``evade_bonus``, ``damage_amount``,
``wipeout_threshold``, ``template_use``, ``articulated_hazards``, ``obstructions``,
``collides``, ``targetable``, ``counts_for_victory``, ``collision_orientation``, ``vote_effects``,
``may_respawn`` hooks; the flow hooks ``game_start``, ``activation_start``, ``skid_rolled``,
``skid_finish``, ``slide_template``, ``spin_start``, ``movement_end``, ``attack_start``,
``attack_end``, ``wipeout_step_start``, ``after_activation``, ``collision_end``, ``wreck``,
``move_window``, ``respawned``; and the notices ``activation_end``, ``gear_phase_end``,
``hits_taken``, ``after_move``, ``wrecked``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from carnage.catalog import TemplateUse, Weight
from carnage.games.refuelled.engine.attack import AttackResolution
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.skid import SkidResolution
from carnage.games.refuelled.engine.state import (
    Status,
    UpgradeMount,
    VehicleState,
    WeaponMount,
    body_owner,
)
from carnage.games.refuelled.engine.votes import VoteEffect, gain_votes, respawn, respawn_candidates
from carnage.geometry.arcs import Arc
from carnage.geometry.cover import Blocker, check_fire
from carnage.geometry.ranges import ShootingTemplate
from carnage.geometry.shapes import Point, distance
from carnage.geometry.surfaces import move_pieces
from carnage.geometry.templateset import TemplateSet
from carnage.kernel.dice import SkidFace
from carnage.kernel.effect_ids import EffectId
from carnage.kernel.effects import FlowFactory
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

YES = "yes"
NO = "no"
Handler = Callable[[Any, dict[str, Any]], Any]
Pick = Callable[[dict[str, Any]], FlowFactory | None]


# -- shared helpers -------------------------------------------------------------------------------
def _player(eid: EffectId) -> int:
    """The seat a sponsor installer was called for (``sponsor:<id>:<seat>``)."""
    seat = eid.subject
    if seat is None or not seat.isdigit():
        raise ValueError(f"{eid}: a sponsor's effect id ends with its seat")
    return int(seat)


def on_team(v: VehicleState | None, player: int) -> bool:
    """``v`` is one of ``player``'s team vehicles (not an RC Car, p.79)."""
    return isinstance(v, VehicleState) and v.player == player and v.in_team


def team(g: Game, player: int) -> list[VehicleState]:
    """``player``'s team vehicles in play, in table order."""
    return [v for v in g.state.in_play() if on_team(v, player)]


def for_team(player: int, fn: FlowFactory) -> Pick:
    """A flow hook's pick: ``fn`` when the hook's vehicle is on ``player``'s team."""
    return lambda ctx: fn if on_team(ctx.get("vehicle"), player) else None




def _logged(g: Game, kind: str, effect: str, fn: Callable[[Game, dict[str, Any]], None]) -> None:
    """Run ``fn(game, data)`` whenever an event of ``kind`` is logged."""

    def handler(value: Any, ctx: dict[str, Any]) -> None:
        fn(ctx["game"], ctx["data"])

    g.effects.on(f"logged:{kind}", effect, handler)


def _last_source(g: Game) -> str:
    """The source of the event just logged (for ``logged:`` handlers)."""
    return g.log.events[-1].source if g.log.events else ""


class Activations:
    """Counts activations as they start, so a rule can tell one activation from the next
    (the game's own count of ``activation`` events, kept in its state)."""

    def __init__(self, g: Game, effect: str) -> None:
        self._g = g

    @property
    def n(self) -> int:
        return self._g.count("activation")


def yes_no(player: int, kind: str, prompt: str, *, source: str, page: int,
           vehicle: str | None = None, target: str | None = None, weapon: str | None = None,
           ) -> Generator[Any, Any, bool]:
    pick = yield ask(player, kind, prompt, [(YES, "yes"), (NO, "no")], source=source, page=page,
                     vehicle=vehicle, target=target, weapon=weapon)
    return bool(pick == YES)


def gap(a: VehicleState, b: VehicleState) -> float:
    """The gap between two vehicles' footprints (a trailer is part of its vehicle)."""
    return min(distance(ra.polygon(), rb.polygon()) for _, ra in a.bodies()
               for _, rb in b.bodies())


def within(g: Game, a: VehicleState, b: VehicleState, band: str) -> bool:
    return gap(a, b) <= g.templates.ranges[band] + 1e-9


def others_in_play(g: Game, v: VehicleState) -> list[VehicleState]:
    """Every other vehicle in play: those a real table's people may say ``v`` touches."""
    return [o for o in g.state.in_play() if o.id != v.id]


def _bogey_ahead(g: Game, v: VehicleState, b: VehicleState) -> Callable[[], bool]:
    """The exact table's answer: the bogey beyond Double range, in ``v``'s front arc and in
    sight (p.98)."""
    return lambda: gap(v, b) > g.templates.ranges["double"] + 1e-9 and in_arc(
        g, v, b, Arc.FRONT, seen=True)


def _in_contact(g: Game, a: VehicleState, b: VehicleState) -> Callable[[], bool]:
    """The exact table's answer: is ``b`` in base contact with ``a``?"""
    return lambda: b in touching_vehicles(g, a)


def touching_vehicles(g: Game, v: VehicleState) -> list[VehicleState]:
    """Other vehicles in play in base contact with ``v``."""
    from carnage.games.refuelled.engine.movement import touching_ids

    ids = {body_owner(i) for i in touching_ids(g, v)}
    return [o for o in g.state.in_play() if o.id in ids and o.id != v.id]


def change_crew(g: Game, v: VehicleState, delta: int, *, source: str, page: int) -> None:
    """Change the vehicle's Crew Value for good (never below 0); at 0 the Zero Crew rule of
    p.82 (rules/weapons.py) takes over."""
    new = max(0, v.crew + delta)
    if new == v.crew:
        return
    v.crew = new
    g.emit("crew", source=source, page=page, vehicle=v.id, crew=new, change=delta)
    if new == 0:
        from carnage.games.refuelled.rules.weapons import install_zero_crew

        install_zero_crew(g)


def mounts(v: VehicleState) -> list[WeaponMount | UpgradeMount]:
    """The vehicle's weapons and fitted upgrades (both may carry Ammo Tokens)."""
    return [*v.weapons, *v.fitted]


def unlimited_ruler(g: Game) -> ShootingTemplate:
    """A straight ruler longer than the table: for arcs "regardless of range"."""
    length = 2.0 * math.hypot(g.state.width, g.state.height) + 1000.0
    hw = g.templates.width / 2.0
    poly: tuple[Point, ...] = ((0.0, -hw), (length, -hw), (length, hw), (0.0, hw))
    return ShootingTemplate("unlimited", poly, hw, 0.0, length)


def in_arc(g: Game, shooter: VehicleState, target: VehicleState, arc: Arc, *,
           seen: bool = False) -> bool:
    """``target`` lies in ``shooter``'s ``arc`` at any range; with ``seen``, at least one
    placement reaches it without a Tall obstacle in the way (p.87)."""
    tpl = unlimited_ruler(g)
    blockers = [Blocker(o.id, tuple(o.polygon()), True)
                for o in g.state.obstacles.values() if o.tall] if seen else []
    for _, body in target.bodies():
        fc = check_fire(shooter.rect(), body.polygon(), arc, tpl, blockers)
        if fc.in_range and not (seen and fc.blocked):
            return True
    return False


# ==================================================================================================
# Rutherford (p.91): Televised Carnage
# ==================================================================================================
TELEVISED_HITS = 6


def televised_carnage(g: Game, player: int, eff: str) -> None:
    """6+ hits caused in one Attack Step (counted before evades: attack dice, smash attacks,
    dropped templates it laid) earn its controller a vote, once per Attack Step."""
    acts = Activations(g, eff)
    tally: dict[tuple[str, int], int] = g.memory(eff, "tally", {})

    def count(g: Game, vid: str, hits: int) -> None:
        st = g.state
        v = st.vehicles.get(vid)
        if not on_team(v, player) or st.active != vid or st.step != "attack" or hits <= 0:
            return
        key = (vid, acts.n)
        before = tally.get(key, 0)
        tally[key] = before + hits
        if before < TELEVISED_HITS <= tally[key]:
            gain_votes(g, player, 1, source="televised_carnage", page=91, vehicle=vid)

    def hits(g: Game, data: dict[str, Any]) -> None:
        vid = data.get("vehicle")
        origin = data.get("origin")
        if vid is None and isinstance(origin, str) and origin in g.state.dropped:
            vid = g.state.dropped[origin].placed_by
        if isinstance(vid, str):
            count(g, vid, int(data.get("hits") or 0))

    def smash(g: Game, data: dict[str, Any]) -> None:
        count(g, str(data.get("attacker")), int(data.get("hits") or 0))

    _logged(g, "attack_hits", eff, hits)
    _logged(g, "smash_attack", eff, smash)



# ==================================================================================================
# Miyazaki (p.92): Virtuoso, Showing Off
# ==================================================================================================
SHOWING_OFF = "showing_off"


def virtuoso(g: Game, player: int, eff: str) -> None:
    """The first Push It of each activation costs no Hazard."""
    acts = Activations(g, eff)
    used: dict[str, int] = g.memory(eff, "used", {})

    def refund(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        sk: SkidResolution = ctx["sk"]
        used[v.id] = acts.n
        before = v.hazards
        g.add_hazards(v, -1, "virtuoso", 92)
        sk.hazards -= before - v.hazards
        yield from ()

    def pick(ctx: dict[str, Any]) -> FlowFactory | None:
        v = ctx.get("vehicle")
        sk = ctx.get("sk")
        if (on_team(v, player) and isinstance(sk, SkidResolution) and sk.pushes > 0
                and isinstance(v, VehicleState) and used.get(v.id) != acts.n and v.hazards > 0):
            return refund
        return None

    g.effects.add_flow("skid_rolled", eff, pick, 50)


def showing_off(g: Game, player: int, eff: str) -> None:
    """A token for an activation with a Spin, a Slide and a gear change and no Wipeout; when
    every team vehicle in play holds one, they are cashed in for a vote each. Tokens go at the
    end of each Gear Phase, and with a Wipeout."""
    did: dict[str, set[str]] = g.memory(eff, "did", {})

    def mark(vid: str, what: str) -> None:
        st = g.state
        v = st.vehicles.get(vid)
        if on_team(v, player) and st.active == vid:
            did.setdefault(vid, set()).add(what)

    def started(g: Game, data: dict[str, Any]) -> None:
        did.pop(str(data.get("vehicle")), None)

    def pivot(g: Game, data: dict[str, Any]) -> None:
        if _last_source(g) == "spin":
            mark(str(data.get("vehicle")), "spin")

    def gear(g: Game, data: dict[str, Any]) -> None:
        mark(str(data.get("vehicle")), "gear")

    def wipeout(g: Game, data: dict[str, Any]) -> None:
        v = g.state.vehicles.get(str(data.get("vehicle")))
        if v is None or not on_team(v, player):
            return
        did.setdefault(v.id, set()).add("wipeout")
        if v.conditions.pop(SHOWING_OFF, None):
            g.emit("showing_off", source="showing_off", page=92, vehicle=v.id, tokens=0)

    def slid(g: Game, ctx: dict[str, Any]) -> Flow:
        mark(ctx["vehicle"].id, "slide")
        yield from ()

    def ended(value: Any, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        if not on_team(v, player):
            return
        done = did.pop(v.id, set())
        if v.in_play and {"spin", "slide", "gear"} <= done and "wipeout" not in done:
            v.conditions[SHOWING_OFF] = 1
            g.emit("showing_off", source="showing_off", page=92, vehicle=v.id, tokens=1)
        mine = team(g, player)
        if mine and all(SHOWING_OFF in o.conditions for o in mine):
            for o in mine:
                del o.conditions[SHOWING_OFF]
            gain_votes(g, player, len(mine), source="showing_off", page=92)

    def phase_end(value: Any, ctx: dict[str, Any]) -> None:
        for o in g.state.vehicles.values():
            if on_team(o, player):
                o.conditions.pop(SHOWING_OFF, None)

    _logged(g, "activation", eff, started)
    _logged(g, "pivot", eff, pivot)
    _logged(g, "gear", eff, gear)
    _logged(g, "wipeout", eff, wipeout)
    g.effects.add_flow("slide_template", eff, for_team(player, slid))
    g.effects.on("activation_end", eff, ended)
    g.effects.on("gear_phase_end", eff, phase_end)



# ==================================================================================================
# Mishkin (p.93): Dynamo, All the Toys
# ==================================================================================================
DYNAMO_PHASES = (4, 5, 6)


def electrical_mounts(g: Game, v: VehicleState) -> list[tuple[str, str]]:
    """(key, label) of the vehicle's electrical weapons and upgrades that use Ammo Tokens."""
    cat = g.catalog
    out = [(m.key, f"{cat.weapons.get(m.weapon).name} ({m.ammo} ammo)") for m in v.weapons
           if m.ammo is not None and cat.weapons.get(m.weapon).electrical]
    out += [(u.key, f"{cat.upgrades.get(u.upgrade).name} ({u.ammo} ammo)") for u in v.fitted
            if u.ammo is not None and cat.upgrades.get(u.upgrade).electrical]
    return out


def dynamo(g: Game, player: int, eff: str) -> None:
    """After activating in Gear Phase 4-6, +1 Ammo Token on one electrical weapon or upgrade
    of that vehicle (its controller picks, or none)."""

    def charge(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        pick = yield ask(v.player, "dynamo", f"{v.name}: Dynamo charges which weapon?",
                         [(NO, "none"), *electrical_mounts(g, v)], source="dynamo", page=93,
                         vehicle=v.id)
        for m in mounts(v):
            if m.key == pick and m.ammo is not None:
                m.ammo += 1
                g.emit("ammo", source="dynamo", page=93, vehicle=v.id, weapon=m.key, ammo=m.ammo)

    def pick(ctx: dict[str, Any]) -> FlowFactory | None:
        v = ctx.get("vehicle")
        if (on_team(v, player) and isinstance(v, VehicleState) and v.in_play
                and g.state.gear_phase in DYNAMO_PHASES and electrical_mounts(g, v)):
            return charge
        return None

    g.effects.add_flow("after_activation", eff, pick)


def weapon_id(v: VehicleState, key: str) -> str:
    """The catalogue id of the weapon behind a mount key (``handgun`` stays itself)."""
    for m in v.weapons:
        if m.key == key:
            return m.weapon
    return key.split("#", 1)[0]


def all_the_toys(g: Game, player: int, eff: str) -> None:
    """A vote each time a team vehicle attacks with a weapon no vehicle has attacked with yet
    this game (Handguns count as a named weapon)."""
    seen: set[str] = g.memory(eff, "seen", set())

    def declared(g: Game, data: dict[str, Any]) -> None:
        v = g.state.vehicles.get(str(data.get("vehicle")))
        key = data.get("weapon")
        if v is None or not isinstance(key, str):
            return
        wid = weapon_id(v, key)
        if wid in seen:
            return
        seen.add(wid)
        if on_team(v, player):
            gain_votes(g, player, 1, source="all_the_toys", page=93, weapon=wid)

    _logged(g, "declare_attack", eff, declared)



# ==================================================================================================
# Idris (p.94): Speed Demon, Cult of Speed
# ==================================================================================================
SPEED_DEMON_HAZARDS = 3
CULT_PHASES = (1, 2, 3)


def speed_demon(g: Game, player: int, eff: str) -> None:
    """A Nitro Booster tops Hazards up to 3, not 5."""

    def level(value: Any, ctx: dict[str, Any]) -> Any:
        return SPEED_DEMON_HAZARDS if on_team(ctx.get("vehicle"), player) else None

    g.effects.on("nitro_hazards", eff, level)


def cult_of_speed(g: Game, player: int, eff: str) -> None:
    """Selecting the Long Straight in Gear Phase 1-3 (a Nitro Booster's too) earns a vote,
    even if the template is not permitted and another player then picks (p.94)."""
    from carnage.games.refuelled.engine.movement import parse_template_value

    passed: set[str] = g.memory(eff, "passed", set())

    def early() -> bool:
        return g.state.gear_phase in CULT_PHASES

    def picked(g: Game, data: dict[str, Any]) -> None:
        v = g.state.vehicles.get(str(data.get("vehicle")))
        if v is None or not on_team(v, player):
            return
        passed.add(v.id)  # the template placed next is the other player's pick
        tid = parse_template_value(str(data.get("picked")))[0]
        if tid == "long_straight" and early():
            gain_votes(g, player, 1, source="cult_of_speed", page=94, vehicle=v.id)

    def chosen(value: Any, ctx: dict[str, Any]) -> None:
        v = ctx.get("vehicle")
        if not isinstance(v, VehicleState) or not on_team(v, player):
            return
        if v.id in passed:
            passed.discard(v.id)
            return
        if ctx.get("template") == "long_straight" and early():
            gain_votes(g, player, 1, source="cult_of_speed", page=94, vehicle=v.id)

    def nitro(g: Game, data: dict[str, Any]) -> None:
        v = g.state.vehicles.get(str(data.get("vehicle")))
        if v is not None and on_team(v, player) and early():
            gain_votes(g, player, 1, source="cult_of_speed", page=94, vehicle=v.id)

    _logged(g, "touch_it_use_it", eff, picked)
    g.effects.on("template_chosen", eff, chosen)
    _logged(g, "nitro", eff, nitro)



# ==================================================================================================
# Extra Movement Steps (Pinball p.95, Bogey at 12 o'Clock p.98)
# ==================================================================================================
def extra_movement_step(g: Game, v: VehicleState, why: str, page: int) -> Flow:
    """Another Movement Step straight after this one, ending like any Movement Step (its
    ``movement_end`` flows run again)."""
    from carnage.games.refuelled.engine.movement import movement_step
    from carnage.kernel.effects import run_flows

    g.emit("extra_movement_step", source=why, page=page, vehicle=v.id)
    yield from movement_step(g, v)
    if v.in_play and not g.state.finished:
        yield from run_flows(g, "movement_end", {"game": g, "vehicle": v})


# ==================================================================================================
# Slime (p.95): Pinball, Live Fast
# ==================================================================================================
def pinball(g: Game, player: int, eff: str) -> None:
    """A side-to-side Collision in its own Movement Step in which it smashed: it may take
    another Movement Step once this one ends (which may earn another)."""
    acts = Activations(g, eff)
    due: dict[str, int] = g.memory(eff, "due", {})

    def pick_collision(ctx: dict[str, Any]) -> FlowFactory | None:
        st = g.state
        parties = ctx.get("parties") or ()
        if st.step != "movement" or len(parties) != 2:
            return None
        if any(p.vehicle is None or p.edge != "side" for p in parties):
            return None
        mine = [p.vehicle for p in parties if p.vehicle is not None
                and p.vehicle.id == st.active and on_team(p.vehicle, player)
                and p.reaction == "smash"]
        return collided if mine else None

    def collided(g: Game, ctx: dict[str, Any]) -> Flow:
        vid = g.state.active
        if vid is not None:
            due[vid] = acts.n
        yield from ()

    def again(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        del due[v.id]
        if (yield from yes_no(v.player, "pinball", f"{v.name}: Pinball into another Movement "
                              "Step?", source="pinball", page=95, vehicle=v.id)):
            yield from extra_movement_step(g, v, "pinball", 95)

    def pick_end(ctx: dict[str, Any]) -> FlowFactory | None:
        v = ctx.get("vehicle")
        if isinstance(v, VehicleState) and due.get(v.id) == acts.n and v.in_play:
            return again
        return None

    g.effects.add_flow("collision_end", eff, pick_collision)
    g.effects.add_flow("movement_end", eff, pick_end, -50)


def live_fast(g: Game, player: int, eff: str) -> None:
    """Starting its Wipeout Step with more Hazards than Hull Points earns a vote."""

    def cheer(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        gain_votes(g, player, 1, source="live_fast", page=95, vehicle=v.id)
        yield from ()

    def pick(ctx: dict[str, Any]) -> FlowFactory | None:
        v = ctx.get("vehicle")
        if isinstance(v, VehicleState) and on_team(v, player) and v.hazards > v.hull_points:
            return cheer
        return None

    g.effects.add_flow("wipeout_step_start", eff, pick)



# ==================================================================================================
# The Warden (p.96): Fireworks
# ==================================================================================================
FIREWORKS_VOTES = {Weight.LIGHTWEIGHT: 0, Weight.MIDDLEWEIGHT: 1, Weight.HEAVYWEIGHT: 2}


def fireworks(g: Game, player: int, eff: str) -> None:
    """An exploding team vehicle earns 1 vote (middleweight) or 2 (heavyweight) on top of the
    wreck's vote; then its Ammo Tokens are discarded (so a respawn does not bring them back)."""

    def checked(g: Game, data: dict[str, Any]) -> None:
        v = g.state.vehicles.get(str(data.get("vehicle")))
        if v is None or not on_team(v, player) or data.get("explodes") is not True:
            return
        # The weight it explodes as (``explosion_weight``: Powder Keg, Nuclear Engine, p.105).
        weight = g.effects.run_event("explosion_weight", v.weight, {"game": g, "vehicle": v})
        gain_votes(g, player, FIREWORKS_VOTES[Weight(weight)], source="fireworks", page=96,
                   vehicle=v.id)
        for m in mounts(v):
            if m.ammo:
                m.ammo = 0
                g.emit("ammo", source="fireworks", page=96, vehicle=v.id, weapon=m.key, ammo=0)

    _logged(g, "explosion_check", eff, checked)



@RULES.rule("upgrade", "prison_car")
@RULES.rule("upgrade", "microplate_armour")
def _stat_upgrade(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """Prison Car (p.96) and MicroPlate Armour (p.99) only change cost and Hull Value, which
    the team builder has already applied to the vehicle's starting stats."""


# ==================================================================================================
# Scarlett (p.97): Raiders, Raise the Sails, Press Gang or Keelhaul
# ==================================================================================================
PRESS_GANG_VOTES = 2


def raiders(g: Game, player: int, eff: str) -> None:
    """At the end of its Attack Step it may give up crew for good; each crew given up takes a
    Hull Point off a vehicle in base contact (its controller picks which, one at a time)."""
    from carnage.games.refuelled.engine.damage import suffer_damage

    def raid(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.engine.table_facts import reached

        v: VehicleState = ctx["vehicle"]
        # At a real table the people say who is in base contact first (ruling CP-18).
        told = yield from reached(
            g, v.player, "raiders_touching", f"{v.name}: which vehicles are in base contact "
            "with it (Raiders)?", [(o.id, o.name) for o in g.state.in_play() if o.id != v.id],
            lambda: [o.id for o in touching_vehicles(g, v)], page=97, vehicle=v.id)
        if not told:
            return
        n = int((yield ask(
            v.player, "raiders", f"{v.name}: Raiders: give up how many crew (of {v.crew})?",
            [(i, f"{i} crew") for i in range(v.crew + 1)], source="raiders", page=97,
            vehicle=v.id)))
        if n <= 0:
            return
        change_crew(g, v, -n, source="raiders", page=97)
        for _ in range(n):
            near = [o for i in told if (o := g.state.vehicles[i]).in_play] \
                if g.facts.people else touching_vehicles(g, v)
            if not near or g.state.finished:
                break
            tid = yield ask(v.player, "raiders_target", f"{v.name}: Raiders take a Hull Point "
                            "from which vehicle?", [(o.id, o.name) for o in near],
                            source="raiders", page=97, vehicle=v.id)
            yield from suffer_damage(g, g.state.vehicles[str(tid)], 1, source="raiders",
                                     page=97)

    def pick(ctx: dict[str, Any]) -> FlowFactory | None:
        v = ctx.get("vehicle")
        if (isinstance(v, VehicleState) and on_team(v, player) and v.crew > 0
                and (others_in_play(g, v) if g.facts.people else touching_vehicles(g, v))):
            return raid
        return None

    g.effects.add_flow("attack_end", eff, pick)


def raise_the_sails(g: Game, player: int, eff: str) -> None:
    """After rolling skid dice it may give up one crew for good for a free Shift result."""

    def sails(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        sk: SkidResolution = ctx["sk"]
        if (yield from yes_no(v.player, "raise_the_sails",
                              f"{v.name}: give up a crew member for a free Shift?",
                              source="raise_the_sails", page=97, vehicle=v.id)):
            sk.faces.append(SkidFace.SHIFT)
            g.emit("free_shift", source="raise_the_sails", page=97, vehicle=v.id)
            change_crew(g, v, -1, source="raise_the_sails", page=97)

    def pick(ctx: dict[str, Any]) -> FlowFactory | None:
        v = ctx.get("vehicle")
        sk = ctx.get("sk")
        if (isinstance(v, VehicleState) and on_team(v, player) and v.crew > 0
                and isinstance(sk, SkidResolution) and sk.rolled):
            return sails
        return None

    g.effects.add_flow("skid_rolled", eff, pick)


def press_gang(g: Game, player: int, eff: str) -> None:
    """When another vehicle in contact with a team vehicle is Wrecked, that team vehicle gains
    a crew member or its controller 2 votes (their choice), judged as the wreck happens."""

    def press(g: Game, ctx: dict[str, Any]) -> Generator[Any, Any, bool]:
        from carnage.games.refuelled.engine.table_facts import judged

        w: VehicleState = ctx["vehicle"]
        for s in team(g, player):
            if s.id == w.id:
                continue
            # At a real table: is it in contact with the wreck? (ruling CP-18)
            if not (yield from judged(
                    g, s.player, "press_gang_touching", f"{s.name}: is it in base contact "
                    f"with {w.name}, now wrecked (Press Gang)?", _in_contact(g, s, w),
                    page=97, vehicle=s.id, target=w.id)):
                continue
            pick = yield ask(
                s.player, "press_gang", f"{w.name} is wrecked beside {s.name}: Press Gang "
                "(+1 crew) or Keelhaul (+2 votes)?",
                [("crew", "gain 1 crew"), ("votes", "gain 2 Audience Votes")],
                source="press_gang_or_keelhaul", page=97, vehicle=s.id, target=w.id)
            if pick == "crew":
                change_crew(g, s, 1, source="press_gang_or_keelhaul", page=97)
            else:
                gain_votes(g, player, PRESS_GANG_VOTES, source="press_gang_or_keelhaul",
                           page=97, vehicle=s.id)
        return False

    def pick(ctx: dict[str, Any]) -> FlowFactory | None:
        w = ctx.get("vehicle")
        if not isinstance(w, VehicleState) or not w.in_play:
            return None
        near = any(s.id != w.id and (g.facts.people or w in touching_vehicles(g, s))
                   for s in team(g, player))
        return press if near else None

    # After a rule that replaces the whole wreck (an RC Car explodes instead, p.79).
    g.effects.add_flow("wreck", eff, pick, -10)



# ==================================================================================================
# Highway Patrol (p.98): Hot Pursuit, Bogey at 12 o'Clock, Siren, Steel Justice, Louder Siren
# ==================================================================================================
WIPEOUT_JUSTICE = 2
WRECK_JUSTICE = 4
SIREN_HAZARDS = 2


@dataclasses.dataclass
class Bogey:
    """The Highway Patrol's bogey: one enemy team vehicle, named after deployment and again
    whenever it leaves play (ruling SP-6: at the next moment the game can ask). Kept in the
    game's state (the Hot Pursuit effect's memory)."""

    player: int
    id: str | None = None
    need: bool = True

    def vehicle(self, g: Game) -> VehicleState | None:
        v = g.state.vehicles.get(self.id) if self.id else None
        return v if v is not None and v.in_play else None

    def nominate(self, g: Game) -> Flow:
        if not self.need:
            return
        self.need = False
        foes = [v for v in g.state.in_play() if v.player != self.player and v.in_team]
        if not foes:
            self.id = None
            self.need = True  # try again once an enemy is in play (a respawn)
            return
        pick = yield ask(self.player, "bogey", "Hot Pursuit: name the bogey",
                         [(v.id, v.name) for v in foes], source="hot_pursuit", page=98)
        self.id = str(pick)
        g.emit("bogey", source="hot_pursuit", page=98, player=self.player, vehicle=self.id)


def highway_patrol_rules(g: Game, player: int, eff: str) -> None:
    bogey = g.memory(eff, "bogey", Bogey(player))
    acts = Activations(g, eff)
    bonus: dict[str, int] = g.memory(eff, "bonus", {})

    def nominate(g: Game, ctx: dict[str, Any]) -> Flow:
        yield from bogey.nominate(g)

    # Hot Pursuit: after deployment, and whenever the bogey has gone, before the next
    # activation.
    g.effects.add_flow("game_start", eff, lambda ctx: nominate, 10)
    g.effects.add_flow("activation_start", eff, lambda ctx: nominate if bogey.need else None, 100)

    def gone(g: Game, data: dict[str, Any]) -> None:
        if bogey.id is not None and data.get("vehicle") == bogey.id:
            bogey.need = True

    def wrecked(g: Game, data: dict[str, Any]) -> None:
        if bogey.id is not None and data.get("vehicle") == bogey.id:
            gain_votes(g, player, WRECK_JUSTICE, source="steel_justice", page=98,
                       vehicle=bogey.id)
            bogey.need = True

    def wiped(g: Game, data: dict[str, Any]) -> None:
        if bogey.id is not None and data.get("vehicle") == bogey.id:
            gain_votes(g, player, WIPEOUT_JUSTICE, source="steel_justice", page=98,
                       vehicle=bogey.id)

    _logged(g, "wrecked", eff, wrecked)
    _logged(g, "removed", eff, gone)
    _logged(g, "disqualified", eff, gone)
    _logged(g, "wipeout", eff, wiped)

    # Bogey at 12 o'Clock: the bogey ahead, beyond Double range and in sight.
    def chase(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.engine.table_facts import judged

        v: VehicleState = ctx["vehicle"]
        b = bogey.vehicle(g)
        assert b is not None
        # At a real table the people judge where the bogey is (ruling CP-18).
        if not (yield from judged(
                g, v.player, "bogey_ahead", f"{v.name}: is the bogey {b.name} in its front "
                "arc, beyond Double range and in sight (Bogey at 12 o'Clock)?",
                _bogey_ahead(g, v, b), page=98, vehicle=v.id, target=b.id)):
            return
        bonus[v.id] = acts.n
        if (yield from yes_no(v.player, "bogey_at_12", f"{v.name}: the bogey is dead ahead: "
                              "take another Movement Step?", source="bogey_at_12_oclock",
                              page=98, vehicle=v.id, target=bogey.id)):
            yield from extra_movement_step(g, v, "bogey_at_12_oclock", 98)

    def pick_chase(ctx: dict[str, Any]) -> FlowFactory | None:
        v = ctx.get("vehicle")
        b = bogey.vehicle(g)
        if (not isinstance(v, VehicleState) or not on_team(v, player) or b is None
                or bonus.get(v.id) == acts.n or not v.in_play):
            return None
        if g.facts.people or g.facts.recording or _bogey_ahead(g, v, b)():
            return chase
        return None

    g.effects.add_flow("movement_end", eff, pick_chase, -50)

    # Siren: in the bogey's rear arc at the end of the Attack Step.
    def wail(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.engine.table_facts import reached

        v: VehicleState = ctx["vehicle"]
        # At a real table the people say who is in its rear arc (ruling CP-18).
        told = yield from reached(
            g, v.player, "siren_behind", f"{v.name}: which of these have it in their rear "
            "arc (Siren)?", [(t.id, t.name) for t in siren_pool(g, v)],
            lambda: [t.id for t in siren_targets(g, v)], page=98, vehicle=v.id)
        for t in [g.state.vehicles[i] for i in told]:
            if not t.in_play or g.state.finished:
                continue
            low = max(1, int(g.effects.run_event("min_gear", 1, {"game": g, "vehicle": t})))
            opts = [("hazards", f"gain {SIREN_HAZARDS} Hazard Tokens")]
            if t.gear > low:
                opts.insert(0, ("gear", f"drop to gear {t.gear - 1}"))
            pick = yield ask(t.player, "siren", f"{v.name}'s siren behind {t.name}: lose a "
                             "gear or take Hazards?", opts, source="siren", page=98,
                             vehicle=t.id, target=v.id)
            g.emit("siren", source="siren", page=98, vehicle=v.id, target=t.id,
                   choice=str(pick))
            if pick == "gear":
                t.gear -= 1  # no Hazard for this change (ruling SP-7)
                g.emit("gear", source="siren", page=98, vehicle=t.id, gear=t.gear)
            else:
                g.add_hazards(t, SIREN_HAZARDS, "siren", 98)

    def siren_pool(g: Game, v: VehicleState) -> list[VehicleState]:
        if "louder_siren" in v.upgrades:
            return [t for t in g.state.in_play() if t.player != player and t.in_team]
        b = bogey.vehicle(g)
        return [] if b is None else [b]

    def siren_targets(g: Game, v: VehicleState) -> list[VehicleState]:
        return [t for t in siren_pool(g, v) if in_arc(g, t, v, Arc.REAR)]

    def pick_siren(ctx: dict[str, Any]) -> FlowFactory | None:
        v = ctx.get("vehicle")
        if isinstance(v, VehicleState) and on_team(v, player) and (
                siren_pool(g, v) if g.facts.people or g.facts.recording
                else siren_targets(g, v)):
            return wail
        return None

    g.effects.add_flow("attack_end", eff, pick_siren)



@RULES.rule("upgrade", "louder_siren")
def louder_siren(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """Louder Siren (p.98): read by the Highway Patrol's Siren (``louder_siren`` among the
    vehicle's upgrades makes every enemy vehicle a bogey for it); nothing else to install."""


# ==================================================================================================
# Verney (pp.98-99): Trunk of Junk, Tombstone, That's Entertainment
# ==================================================================================================
TOMBSTONE = "tombstone"
TOMBSTONE_HAZARDS = 2
UNLIMITED_DROPS = 1000
TOMBSTONE_TOLD = "table:tombstone"
"""The memory of what the people said of each attack's template and a Tombstone vehicle's
rear edge (companion mode, ruling CP-18)."""


def trunk_of_junk(g: Game, player: int, eff: str) -> None:
    """Any number of dropped weapon attacks in one activation."""

    def drops(value: Any, ctx: dict[str, Any]) -> Any:
        return UNLIMITED_DROPS if on_team(ctx.get("vehicle"), player) else None

    g.effects.on("dropped_per_step", eff, drops, priority=-10)


def rear_edge(v: VehicleState) -> list[Point]:
    """The two corners of the vehicle's rear edge."""
    p = v.pose
    r = math.radians(p.heading)
    dx, dy = math.cos(r), math.sin(r)
    cx, cy = p.x - dx * v.length / 2.0, p.y - dy * v.length / 2.0
    hw = v.width / 2.0
    return [(cx - dy * hw, cy + dx * hw), (cx + dy * hw, cy - dx * hw)]


def template_at_rear(attacker: VehicleState, target: VehicleState) -> bool:
    """Ruling SP-8: a shooting template touches the target's rear edge when the rear edge is
    (one of) the target's nearest parts to the attacker."""
    a = attacker.polygon()
    return distance(a, rear_edge(target)) <= distance(a, target.polygon()) + 0.1


def tombstone(g: Game, player: int, eff: str) -> None:
    """+1 to evade rolls against a shooting attack whose template touches its rear edge; in
    its Attack Step it may take 2 Hazards to make its Collisions Head-on until it next
    activates."""
    # Both only last while one attack is resolved (it never spans a checkpoint), so they are
    # not the game's memory: ``marked`` holds the attack's identity, which is no state.
    marked: dict[str, int] = {}
    live: set[str] = set()

    def at_rear(res: AttackResolution) -> bool:
        if g.facts.people:  # what the people said as the dice were about to be rolled
            told: dict[str, bool] = g.memory(TOMBSTONE_TOLD, "rear", {})
            return told.pop(res.target.id, False)
        return template_at_rear(res.attacker, res.target)

    def attacked(res: AttackResolution, ctx: dict[str, Any]) -> None:
        t = res.target
        if on_team(t, player) and at_rear(res):
            marked[t.id] = id(res.groups)
        else:
            marked.pop(t.id, None)

    def evading(value: Any, ctx: dict[str, Any]) -> None:
        t = ctx.get("target")
        if isinstance(t, VehicleState) and marked.get(t.id) == id(ctx.get("groups")):
            live.add(t.id)
        elif isinstance(t, VehicleState):
            live.discard(t.id)

    def bonus(value: Any, ctx: dict[str, Any]) -> Any:
        v = ctx.get("vehicle")
        if isinstance(v, VehicleState) and v.id in live:
            live.discard(v.id)
            marked.pop(v.id, None)
            return int(value) + 1
        return None

    def done(value: Any, ctx: dict[str, Any]) -> None:
        t = ctx.get("target")
        if isinstance(t, VehicleState):
            live.discard(t.id)
            marked.pop(t.id, None)

    def rear_asked(game: Game, ctx: dict[str, Any]) -> Flow:
        a: VehicleState = ctx["attacker"]
        t: VehicleState = ctx["target"]
        from carnage.games.refuelled.engine.table_facts import judged

        rear = yield from judged(
            game, t.player, "rear_edge", f"{t.name} (Tombstone): does the template of "
            f"{a.name}'s attack touch its rear edge?", lambda: template_at_rear(a, t),
            page=99, vehicle=t.id, target=a.id)
        if game.facts.people:  # kept in the state: a copy of the game knows it too
            game.memory(TOMBSTONE_TOLD, "rear", {})[t.id] = rear

    def rear_asks(ctx: dict[str, Any]) -> FlowFactory | None:
        # At a real table, as the dice of an attack on a team vehicle are about to be
        # rolled: does its template touch the rear edge? (rulings SP-8, CP-18)
        game: Game = ctx["game"]
        t = ctx.get("target")
        if (game.facts.people or game.facts.recording) and isinstance(t, VehicleState) \
                and on_team(t, player) and isinstance(ctx.get("attacker"), VehicleState):
            return rear_asked
        return None

    g.effects.on("attack", eff, attacked)
    g.effects.add_flow("attack_roll", eff, rear_asks)
    g.effects.on("can_evade", eff, evading, priority=-100)
    g.effects.on("evade_bonus", eff, bonus)
    g.effects.on("hits_taken", eff, done)

    def brace(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        if (yield from yes_no(v.player, "tombstone", f"{v.name}: Tombstone: take "
                              f"{TOMBSTONE_HAZARDS} Hazards to meet every Collision head-on "
                              "until your next activation?", source="tombstone", page=99,
                              vehicle=v.id)):
            g.add_hazards(v, TOMBSTONE_HAZARDS, "tombstone", 99)
            v.conditions[TOMBSTONE] = 1
            g.emit("tombstone", source="tombstone", page=99, vehicle=v.id)

    def pick(ctx: dict[str, Any]) -> FlowFactory | None:
        v = ctx.get("vehicle")
        return brace if isinstance(v, VehicleState) and on_team(v, player) else None

    def head_on(value: Any, ctx: dict[str, Any]) -> Any:
        if any(p.vehicle is not None and TOMBSTONE in p.vehicle.conditions
               and on_team(p.vehicle, player) for p in ctx["parties"]):
            return "head_on"
        return None

    def started(g: Game, data: dict[str, Any]) -> None:
        v = g.state.vehicles.get(str(data.get("vehicle")))
        if v is not None and on_team(v, player) and TOMBSTONE in v.conditions:
            del v.conditions[TOMBSTONE]
            g.emit("tombstone_ends", source="tombstone", page=99, vehicle=v.id)

    g.effects.add_flow("attack_start", eff, pick)
    g.effects.on("collision_orientation", eff, head_on)
    _logged(g, "activation", eff, started)


def thats_entertainment(g: Game, player: int, eff: str) -> None:
    """A vote whenever a dropped weapon template the team laid is taken off the table."""
    laid: dict[str, int | None] = g.memory(eff, "laid", {})

    def placed(g: Game, data: dict[str, Any]) -> None:
        tid = str(data.get("template"))
        t = g.state.dropped.get(tid)
        laid[tid] = None if t is None else t.player

    def removed(g: Game, data: dict[str, Any]) -> None:
        tid = str(data.get("template"))
        if laid.pop(tid, None) == player:
            gain_votes(g, player, 1, source="thats_entertainment", page=99, template=tid)

    _logged(g, "dropped_template", eff, placed)
    _logged(g, "dropped_template_removed", eff, removed)



# ==================================================================================================
# Maxxine (p.99): Dizzy, Maxximum Drift, Meshuggah
# ==================================================================================================
_DERIVED: dict[tuple[int, str], tuple[TemplateSet, TemplateSet]] = {}


def straight_as_slide(ts: TemplateSet, straight: str) -> TemplateSet:
    """``ts`` with ``straight`` (a Straight movement template) in place of the Slide
    template. Cached per template set; the base set is kept alive with it."""
    key = (id(ts), straight)
    hit = _DERIVED.get(key)
    if hit is not None and hit[0] is ts:
        return hit[1]
    length = sum(s.arc_length for s in ts.movement[straight].segments)
    out = dataclasses.replace(ts, slide_length=length, slide_width=ts.width)
    _DERIVED[key] = (ts, out)
    return out


def maxxine_rules(g: Game, player: int, eff: str) -> None:
    counts: dict[str, tuple[int, int]] = g.memory(eff, "counts", {})
    """Uncancelled (spins, slides) of each team vehicle's current Movement Step."""
    slid: set[str] = g.memory(eff, "slid", set())

    def tally(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        sk: SkidResolution = ctx["sk"]
        counts[v.id] = (sk.uncancelled(SkidFace.SPIN), sk.uncancelled(SkidFace.SLIDE))
        slid.discard(v.id)
        yield from ()

    g.effects.add_flow("skid_finish", eff, for_team(player, tally), -100)

    # Dizzy: each Spin result its own spin, one after another.
    def dizzy(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        ctx["spins"] = max(int(ctx.get("spins", 1)), counts.get(v.id, (1, 0))[0])
        yield from ()

    g.effects.add_flow("spin_start", eff, for_team(player, dizzy))

    # Maxximum Drift: two Slides may use the Medium Straight, three or more the Long.
    def drift(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        slid.add(v.id)
        n = counts.get(v.id, (0, 0))[1]
        if n < 2:
            return
        opts = [("slide", "the Slide template"), ("medium_straight", "the Medium Straight")]
        if n >= 3:
            opts.append(("long_straight", "the Long Straight"))
        pick = yield ask(v.player, "maxximum_drift", f"{v.name}: slide with which template?",
                         opts, source="maxximum_drift", page=99, vehicle=v.id)
        if pick != "slide":
            ctx["templates"] = straight_as_slide(ctx["templates"], str(pick))
            g.emit("maxximum_drift", source="maxximum_drift", page=99, vehicle=v.id,
                   template=str(pick))

    g.effects.add_flow("slide_template", eff, for_team(player, drift), -10)

    # Meshuggah: a Slide or Spin ending near a friend without a Collision.
    def friends(v: VehicleState) -> list[VehicleState]:
        return [o for o in team(g, player) if o.id != v.id]

    def near_friend(v: VehicleState) -> bool:
        near = [o.id for o in friends(v) if within(g, v, o, "medium")]
        if g.facts.recording and friends(v):  # what a real table asks here (CP-18)
            g.facts.note("within_medium", near)
        return bool(near)

    def moved(value: Any, ctx: dict[str, Any]) -> None:
        v = ctx.get("vehicle")
        result = ctx.get("result")
        if not isinstance(v, VehicleState) or v.id not in slid or result is None:
            return
        slid.discard(v.id)
        if v.in_play and not result.touched and near_friend(v):
            gain_votes(g, player, 1, source="meshuggah", page=99, vehicle=v.id)

    def spun(g: Game, data: dict[str, Any]) -> None:
        v = g.state.vehicles.get(str(data.get("vehicle")))
        if (g.facts.people or v is None or not on_team(v, player)
                or _last_source(g) != "spin" or data.get("touched")):
            return
        if v.in_play and near_friend(v):
            gain_votes(g, player, 1, source="meshuggah", page=99, vehicle=v.id)

    def told_near(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.rules.perks._common import near_told

        v: VehicleState = ctx["vehicle"]
        if (yield from near_told(g, v, "medium", friends(v), page=99, why="Meshuggah")):
            gain_votes(g, player, 1, source="meshuggah", page=99, vehicle=v.id)

    def at_table(ctx: dict[str, Any]) -> FlowFactory | None:
        # At a real table, after a move that slid or a Spin, with no Collision: which
        # friends are within Medium? (ruling CP-18)
        game: Game = ctx["game"]
        v = ctx.get("vehicle")
        if not game.facts.people or not isinstance(v, VehicleState) or not on_team(v, player):
            return None
        motion = ctx.get("motion")
        if motion == "move" and v.id in slid:
            slid.discard(v.id)
        elif motion != "pivot":
            return None
        last = next((e for e in reversed(game.log.events)
                     if e.kind == motion and e.data.get("vehicle") == v.id), None)
        if (last is None or last.data.get("touched") or not v.in_play
                or (motion == "pivot" and last.source != "spin")):
            return None
        return told_near

    g.effects.on("after_move", eff, moved)
    _logged(g, "pivot", eff, spun)
    g.effects.add_flow("table_motion", eff, at_table, priority=100)



# ==================================================================================================
# The Order of the Inferno (p.100): Fire Walk With Me, Burning Man, Cult of Flame
# ==================================================================================================
ON_FIRE = "on_fire"
FIRE_WALK = 3
FIRE_SOURCES = frozenset({"on_fire"})
"""Damage sources that carry the Fire rule outside an attack's hit groups."""
NEVER_REDUCED = "perk:purifying_flames"
"""Fire damage that may not be reduced (Purifying Flames, p.108)."""


def fire_walk_with_me(g: Game, player: int, eff: str) -> None:
    """Damage from a Fire weapon or effect is cut by up to 3, never below 1 (always taken:
    ruling SP-9)."""
    pending: dict[str, int] = g.memory(eff, "pending", {})

    def hits(value: Any, ctx: dict[str, Any]) -> None:
        t = ctx.get("target")
        if not isinstance(t, VehicleState) or not on_team(t, player):
            return
        fire = sum(grp.uncancelled for grp in ctx["groups"]
                   if grp.damaging and "fire" in grp.rules)
        cut = min(FIRE_WALK, fire - 1)
        if cut > 0:
            pending[t.id] = cut
        else:
            pending.pop(t.id, None)

    def damage(value: Any, ctx: dict[str, Any]) -> Any:
        v = ctx.get("vehicle")
        if not isinstance(v, VehicleState) or not on_team(v, player):
            return None
        amount = int(value)
        cut = pending.pop(v.id, 0)
        # Fire damage outside an attack: burning (p.81) and the perks that burn (p.108), but
        # not Purifying Flames, whose damage may not be reduced (p.108).
        burning = ctx.get("source") in FIRE_SOURCES or (
            ctx.get("fire") and not str(ctx.get("source", "")).startswith(NEVER_REDUCED))
        if not cut and burning:
            cut = min(FIRE_WALK, amount - 1)
        cut = min(cut, amount - 1)
        if cut <= 0:
            return None
        g.emit("fire_walk_with_me", source="fire_walk_with_me", page=100, vehicle=v.id,
               damage=amount, reduced_to=amount - cut)
        return amount - cut

    g.effects.on("hits_taken", eff, hits, priority=-100)
    g.effects.on("damage_amount", eff, damage, priority=-10)


def burning_man(g: Game, player: int, eff: str) -> None:
    """+1 to every evade die while On Fire."""

    def bonus(value: Any, ctx: dict[str, Any]) -> Any:
        v = ctx.get("vehicle")
        if on_team(v, player) and isinstance(v, VehicleState) and ON_FIRE in v.conditions:
            return int(value) + 1
        return None

    g.effects.on("evade_bonus", eff, bonus)


def cult_of_flame(g: Game, player: int, eff: str) -> None:
    """At the end of each Gear Phase: more enemies than friends On Fire (or every enemy On
    Fire) earns a vote per friendly vehicle On Fire."""

    def phase_end(value: Any, ctx: dict[str, Any]) -> None:
        st = g.state
        friends = [v for v in team(g, player) if ON_FIRE in v.conditions]
        foes = [v for v in st.in_play() if v.player != player and v.in_team]
        burning = [v for v in foes if ON_FIRE in v.conditions]
        if friends and (len(burning) > len(friends) or (foes and len(burning) == len(foes))):
            gain_votes(g, player, len(friends), source="cult_of_flame", page=100)

    g.effects.on("gear_phase_end", eff, phase_end)



# ==================================================================================================
# Beverly (pp.100-101): Graveyard Shift, Ghost Rider, Soul Anchor, At the Crossroads,
# Inexorable, Soul Harvest
# ==================================================================================================
GHOST = "ghost_rider"
SOUL_TOKENS = "soul_tokens"
CROSSROADS_COST = 1
HARVEST_REPAIR = 2


def is_ghost(v: VehicleState | None) -> bool:
    return isinstance(v, VehicleState) and GHOST in v.conditions


@RULES.journaled('ghost_riders')
def install_ghost_riders(g: Game) -> None:
    """Ghost Rider (p.101), once per game: it and other vehicles ignore each other (no
    obstruction, no cover, no Collision), it neither shoots nor is shot at, and it never counts
    towards a scenario's victory conditions."""
    eff = "ghost_rider"
    if any(h.effect == eff for h in g.effects.handlers("collides")):
        return

    def obstructions(value: Any, ctx: dict[str, Any]) -> Any:
        v = ctx.get("vehicle")
        vehicles = g.state.vehicles

        def keep(oid: str) -> bool:
            o = vehicles.get(body_owner(oid))
            if o is None:
                return True  # terrain and wrecks
            return not (is_ghost(o) or is_ghost(v))

        return [ob for ob in value if keep(ob.id)]

    def collides(value: Any, ctx: dict[str, Any]) -> Any:
        v = ctx.get("vehicle")
        other = g.state.vehicles.get(body_owner(str(ctx.get("other"))))
        if other is not None and (is_ghost(v) or is_ghost(other)):
            return False
        return None

    def blockers(value: Any, ctx: dict[str, Any]) -> Any:
        return [b for b in value if not is_ghost(g.state.vehicles.get(body_owner(b.id)))]

    def targetable(value: Any, ctx: dict[str, Any]) -> Any:
        return False if is_ghost(ctx.get("target")) or is_ghost(ctx.get("attacker")) else None

    def counts(value: Any, ctx: dict[str, Any]) -> Any:
        return False if is_ghost(ctx.get("vehicle")) else None

    g.effects.on("obstructions", eff, obstructions, priority=-50)
    g.effects.on("collides", eff, collides)
    g.effects.on("cover_blockers", eff, blockers)
    g.effects.on("targetable", eff, targetable)
    g.effects.on("counts_for_victory", eff, counts)


def make_ghost(g: Game, v: VehicleState, source: str, page: int) -> None:
    install_ghost_riders(g)
    if GHOST not in v.conditions:
        v.conditions[GHOST] = 1
        g.emit("ghost_rider", source=source, page=page, vehicle=v.id)


def beverly_rules(g: Game, player: int, eff: str) -> None:
    install_ghost_riders(g)

    # Graveyard Shift: after deployment, all but one team vehicle become Ghost Riders.
    def shift(g: Game, ctx: dict[str, Any]) -> Flow:
        mine = team(g, player)
        if len(mine) < 2:
            return
        keep = yield ask(player, "graveyard_shift", "Graveyard Shift: which vehicle stays "
                         "among the living?", [(v.id, v.name) for v in mine],
                         source="graveyard_shift", page=100)
        for v in mine:
            if v.id != keep:
                make_ghost(g, v, "graveyard_shift", 100)
        soul_anchor(g)

    g.effects.add_flow("game_start", eff, lambda ctx: shift)

    # Soul Anchor: nothing but Ghost Riders left in play removes the whole team.
    def soul_anchor(g: Game) -> None:
        mine = team(g, player)
        if mine and all(is_ghost(v) for v in mine):
            for v in mine:
                v.status = Status.REMOVED
                g.emit("removed", source="soul_anchor", page=101, vehicle=v.id,
                       reason="soul anchor")

    def check(value: Any, ctx: dict[str, Any]) -> None:
        soul_anchor(ctx["game"])

    def check_logged(g: Game, data: dict[str, Any]) -> None:
        if _last_source(g) != "soul_anchor":
            soul_anchor(g)

    g.effects.on("wrecked", eff, check)
    _logged(g, "removed", eff, check_logged)
    _logged(g, "disqualified", eff, check_logged)

    # Inexorable: any team vehicle out of play may be respawned, even with others in play.
    def inexorable(value: Any, ctx: dict[str, Any]) -> Any:
        v = ctx.get("vehicle")
        return True if on_team(v, player) and isinstance(v, VehicleState) and not v.in_play \
            else None

    g.effects.on("may_respawn", eff, inexorable, priority=-10)

    # At the Crossroads: a respawn for 1 vote that comes back as a Ghost Rider.
    def crossroads_targets(g: Game, p: int) -> list[tuple[str, str]]:
        return [(v.id, f"{v.name} (as a Ghost Rider)") for v in respawn_candidates(g, p)]

    def crossroads(g: Game, p: int, target: str) -> Flow:
        v = g.state.vehicles[target]
        yield from respawn(g, v, p, source="at_the_crossroads", page=101)
        if v.in_play:
            make_ghost(g, v, "at_the_crossroads", 101)
            soul_anchor(g)

    offer = VoteEffect("at_the_crossroads", "At the Crossroads (respawn as a Ghost Rider)",
                       CROSSROADS_COST, 101, crossroads_targets, crossroads)

    def effects(value: Any, ctx: dict[str, Any]) -> Any:
        return [*value, offer] if ctx.get("player") == player else None

    g.effects.on("vote_effects", eff, effects)

    # A respawn (of any kind) may leave only Ghost Riders in play.
    def respawned(g: Game, ctx: dict[str, Any]) -> Flow:
        soul_anchor(g)
        yield from ()

    g.effects.add_flow("respawned", eff, for_team(player, respawned), -50)

    # Soul Harvest.
    def exact_met(g: Game, v: VehicleState, result: Any) -> list[str]:
        """The vehicles the move's template met (not its Final Position), nearest to where
        it began first; a friend it was touching as the move began is left out."""
        pieces = move_pieces(result)[:-1]
        if not pieces:
            return []
        start = [r.polygon() for r in _start_bodies(v, result)]

        def met(o: VehicleState) -> bool:
            return any(distance(p, b.polygon()) <= 0.1 for p in pieces for _, b in o.bodies())

        def began_touching(o: VehicleState) -> bool:
            return any(distance(s, b.polygon()) <= 0.1 for s in start for _, b in o.bodies())

        order = sorted((min(distance(s, b.polygon()) for s in start for _, b in o.bodies()),
                        o.id) for o in g.state.in_play() if o.id != v.id and met(o))
        return [oid for _, oid in order
                if not (on_team(g.state.vehicles[oid], player)
                        and began_touching(g.state.vehicles[oid]))]

    def harvest(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.engine.table_facts import reached

        v: VehicleState = ctx["vehicle"]
        result = ctx["result"]
        if result is None and not g.facts.people:
            return
        others = [(o.id, o.name) for o in g.state.in_play() if o.id != v.id]
        # At a real table the mover's controller names them (ruling CP-18).
        order = yield from reached(
            g, v.player, "harvest_met", f"{v.name} (Soul Harvest): which vehicles did its "
            "move's template meet (not where it ended), nearest to where it began first? "
            "Leave out a friend it was touching as the move began.", others,
            lambda: exact_met(g, v, result), page=101, vehicle=v.id)
        for oid in order:
            o = g.state.vehicles[oid]
            if not o.in_play or g.state.finished:
                continue
            if o.player != player and o.in_team:
                v.conditions[SOUL_TOKENS] = v.conditions.get(SOUL_TOKENS, 0) + 1
                g.emit("soul_token", source="soul_harvest", page=101, vehicle=v.id,
                       tokens=v.conditions[SOUL_TOKENS], victim=o.id)
            elif (on_team(o, player) and not is_ghost(o)
                  and v.conditions.get(SOUL_TOKENS, 0) > 0):
                n = v.conditions.pop(SOUL_TOKENS)
                opts = [("votes", f"{n} Audience Vote(s)")]
                if o.damage > 0:
                    opts.append(("repair", f"repair {HARVEST_REPAIR * n} Hull Points on "
                                 f"{o.name}"))
                pick = yield ask(player, "soul_harvest", f"{v.name} delivers {n} soul(s) to "
                                 f"{o.name}", opts, source="soul_harvest", page=101,
                                 vehicle=v.id, target=o.id)
                if pick == "repair":
                    fixed = min(o.damage, HARVEST_REPAIR * n)
                    o.damage -= fixed
                    g.emit("repair", source="soul_harvest", page=101, vehicle=o.id,
                           amount=fixed, hull_points=o.hull_points)
                else:
                    gain_votes(g, player, n, source="soul_harvest", page=101, vehicle=v.id)

    g.effects.add_flow("move_window", eff,
        lambda ctx: harvest if on_team(ctx.get("vehicle"), player)
          and (ctx.get("result") is not None or ctx["game"].facts.people) else None)


def _start_bodies(v: VehicleState, result: Any) -> list[Any]:
    from carnage.geometry.shapes import Rect

    return [Rect(result.start, v.length, v.width)]



# ==================================================================================================
# Rusty's Bootleggers (p.102): Party Hard, Dutch Courage, As Straight as I'm Able, Over the Limit
# ==================================================================================================
DUTCH_COURAGE = 8
STRAIGHTS = ("short_straight", "medium_straight", "long_straight")


def rusty_rules(g: Game, player: int, eff: str) -> None:
    # Party Hard: more Hazards than every enemy within Medium range together.
    def party(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.rules.perks._common import near_told

        v: VehicleState = ctx["vehicle"]
        foes = [o for o in g.state.in_play() if o.player != player and o.in_team]
        if not v.hazards or not any(o.hazards > 0 for o in foes):
            return  # nothing to win, whoever is near: nothing asked
        # At a real table the people say which enemies are within Medium (ruling CP-18).
        near = yield from near_told(g, v, "medium", foes, page=102, why="Party Hard")
        hot = [o for o in near if o.hazards > 0]
        if hot and v.hazards > sum(o.hazards for o in near):
            gain_votes(g, player, len(hot), source="party_hard", page=102, vehicle=v.id)

    g.effects.add_flow("attack_end", eff, for_team(player, party))

    # Dutch Courage: Wipeout at 8 Hazards.
    def threshold(value: Any, ctx: dict[str, Any]) -> Any:
        return DUTCH_COURAGE if on_team(ctx.get("vehicle"), player) else None

    g.effects.on("wipeout_threshold", eff, threshold)

    # As Straight as I'm Able: no Articulated Hazard off a Straight.
    def articulated(value: Any, ctx: dict[str, Any]) -> Any:
        return 0 if on_team(ctx.get("vehicle"), player) else None

    g.effects.on("articulated_hazards", eff, articulated, priority=-10)

    # Over the Limit: no Straight is permitted; the Veer is permitted and trivial in any gear.
    def use(value: Any, ctx: dict[str, Any]) -> Any:
        if not on_team(ctx.get("vehicle"), player):
            return None
        if ctx.get("template") in STRAIGHTS:
            return TemplateUse.NOT_PERMITTED
        if ctx.get("template") == "veer":
            return TemplateUse.TRIVIAL
        return None

    g.effects.on("template_use", eff, use, priority=-50)


# ==================================================================================================
# Every sponsor: its sponsored perks, as the catalogue lists them
# ==================================================================================================
SponsoredPerk = Callable[["Game", int, str], None]
"""``fn(game, player, effect)``: one sponsored perk (or the group it leads) for a team."""

SPONSORED: dict[str, SponsoredPerk] = {
    "televised_carnage": televised_carnage,
    "virtuoso": virtuoso, "showing_off": showing_off,
    "dynamo": dynamo, "all_the_toys": all_the_toys,
    "speed_demon": speed_demon, "cult_of_speed": cult_of_speed,
    "pinball": pinball, "live_fast": live_fast,
    "fireworks": fireworks,
    "raiders": raiders, "raise_the_sails": raise_the_sails, "press_gang_or_keelhaul": press_gang,
    "hot_pursuit": highway_patrol_rules,
    "trunk_of_junk": trunk_of_junk, "tombstone": tombstone,
    "thats_entertainment": thats_entertainment,
    "dizzy": maxxine_rules,
    "fire_walk_with_me": fire_walk_with_me, "burning_man": burning_man,
    "cult_of_flame": cult_of_flame,
    "graveyard_shift": beverly_rules,
    "party_hard": rusty_rules,
}
"""The sponsored perks played in a game, by id. A perk that leads a group plays the group:
Hot Pursuit with Bogey at 12 o'Clock, Siren and Steel Justice; Dizzy with Maxximum Drift and
Meshuggah; Graveyard Shift with Beverly's others; Party Hard with Rusty's others."""

PLAYED_WITH = {
    "bogey_at_12_oclock": "hot_pursuit", "siren": "hot_pursuit", "steel_justice": "hot_pursuit",
    "maxximum_drift": "dizzy", "meshuggah": "dizzy",
    "ghost_rider": "graveyard_shift", "soul_anchor": "graveyard_shift",
    "at_the_crossroads": "graveyard_shift", "inexorable": "graveyard_shift",
    "soul_harvest": "graveyard_shift",
    "dutch_courage": "party_hard", "as_straight_as_im_able": "party_hard",
    "over_the_limit": "party_hard",
}
"""Sponsored perks played by the perk leading their group."""

TEAM_BUILDING = frozenset({
    "military_hardware", "well_stocked", "might_is_right", "elegance", "thumpermonkey",
    "n2o_addict", "kiss_my_asphalt", "spiked_fist", "prison_cars", "crew_quarters",
    "microplate_armour", "trailer_trash", "haulage",
})
"""Sponsored perks that act in the team builder (team/sponsors.py), not in play."""


def play_sponsored_perks(game: Game, vehicle: VehicleState | None, eid: EffectId) -> None:
    """A sponsor's installer: for the player ``eid`` names, every sponsored perk the game's
    catalogue lists for the sponsor, in book order (``sponsor:<id>:<seat>``)."""
    sponsor = game.catalog.sponsors.get(eid.name)
    player = _player(eid)
    for perk in sponsor.sponsored_perks:
        fn = SPONSORED.get(perk)
        if fn is not None:
            fn(game, player, str(eid.part(perk)))


def sponsor_rules(catalog: Any) -> RuleTable:
    """The installer of every sponsor in ``catalog`` (a ruleset's own)."""
    out = RuleTable()
    for sponsor in catalog.sponsors:
        out.rule_with_id("sponsor", sponsor.id)(play_sponsored_perks)
    return out

