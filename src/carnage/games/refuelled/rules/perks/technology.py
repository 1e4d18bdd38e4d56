"""Technology perks (Refuelled p.114): Rocket Thrusters, Whizbang, Gyroscope, Satellite
Navigation, Mobile Mechanic, Eureka!."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.catalog import RangeBand
from carnage.games.refuelled.engine.attack import HANDGUN, weapon_playable
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.skid import SkidResolution
from carnage.games.refuelled.engine.state import VehicleState, WeaponMount
from carnage.games.refuelled.rules.perks._common import (
    NO,
    PerkFlow,
    Trigger,
    activation_serial,
    at,
    attack_step_serial,
    drop_face,
    has_trigger,
    install_flip_choices,
    need,
    once_per,
    yes_no,
)
from carnage.kernel.dice import SkidFace
from carnage.kernel.effect_ids import EffectId
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

DRAW_TRIES = 50
"""Rerolls allowed while drawing a random perk before giving up (none may be left)."""
BANK = "sat_nav_shifts"
"""Condition: Shift results a vehicle's Satellite Navigation has set aside for its team."""
EUREKA = "eureka#"


@RULES.rule("perk", "rocket_thrusters")
def rocket_thrusters(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """As it flips it may use the Long Straight, the Veer or the Gentle instead of the Medium
    Straight (p.114; the shared flip choice in _common.py)."""
    install_flip_choices(g, need(vehicle, "rocket_thrusters"))


def _eligible(g: Game, v: VehicleState, pid: str) -> bool:
    """May ``v``'s type take perk ``pid`` (Stunt Driver's limits, p.107)?"""
    cat = g.catalog
    perk = cat.perks.get(pid)
    spec = cat.vehicles.records.get(v.type)
    if spec is None:
        return not perk.allowed_weights and perk.min_base_handling is None
    if perk.allowed_weights and spec.weight not in perk.allowed_weights:
        return False
    return perk.min_base_handling is None or spec.handling >= perk.min_base_handling


def _random_perk(g: Game, v: VehicleState, perk_class: str, eid: EffectId, page: int) -> None:
    """Draw a perk of ``perk_class`` with a D6 (the class's six in book order), rolling again
    for one the vehicle has or may not take (ruling PK-20); install it for this game."""
    source = str(eid)
    pool = [p.id for p in g.catalog.perks if p.perk_class == perk_class]
    if not any(p not in v.perks and _eligible(g, v, p) for p in pool):
        return
    for _ in range(DRAW_TRIES):
        die = g.roll(1, f"random {perk_class} perk", source=source, page=page, vehicle=v.id)[0]
        pid = pool[(die - 1) % len(pool)]
        if pid not in v.perks and _eligible(g, v, pid):
            break
    else:
        return
    v.perks.append(pid)
    g.emit("perk", perk=eid.name, source=source, page=page, vehicle=v.id,
           gained=pid)
    g.install_rule("perk", pid, v, EffectId("perk", pid, v.id))


def _drawing(g: Game, v: VehicleState, eid: EffectId, perk_class: str, page: int) -> None:
    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return v.in_play

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        _random_perk(game, v, perk_class, eid, page)
        yield from ()

    at(g, "game_start", Trigger(str(eid), f"{eid.name} ({v.name})", applies, run,
                                free_order=True))


@RULES.rule_with_id("perk", "whizbang")
def whizbang(g: Game, vehicle: VehicleState | None, eid: EffectId) -> None:
    """At the start of each game it gains a random Speed perk for that game (p.114)."""
    _drawing(g, need(vehicle, "whizbang"), eid, "speed", 114)


@RULES.rule_with_id("perk", "gyroscope")
def gyroscope(g: Game, vehicle: VehicleState | None, eid: EffectId) -> None:
    """At the start of each game it gains a random Daring perk for that game (p.114)."""
    _drawing(g, need(vehicle, "gyroscope"), eid, "daring", 114)


def _bank(g: Game, player: int) -> list[VehicleState]:
    return [t for t in g.state.vehicles.values() if t.player == player and t.conditions.get(BANK)]


@RULES.rule("perk", "satellite_navigation")
def satellite_navigation(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Resolving its skid dice it may set one Shift aside; any vehicle of its team may use the
    Shifts set aside in a later Movement Step as if it had rolled them (p.114)."""
    v = need(vehicle, "satellite_navigation")
    banked: dict[str, Any] = g.memory(source, "banked", {"at": None})

    def shifts(sk: SkidResolution) -> list[int]:
        return [i for i, f in enumerate(sk.faces) if f is SkidFace.SHIFT and i not in sk.locked]

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return bool(shifts(ctx["sk"]))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        sk: SkidResolution = ctx["sk"]
        if not (yield from yes_no(v.player, "satellite_navigation",
                                  f"{v.name}: set a Shift aside for the team?", "set one aside",
                                  "no", source=source, page=114, vehicle=v.id)):
            return
        drop_face(sk, shifts(sk)[0])
        v.conditions[BANK] = v.conditions.get(BANK, 0) + 1
        banked["at"] = activation_serial(game)
        game.emit("perk", perk="satellite_navigation", source=source, page=114, vehicle=v.id,
                  banked=v.conditions[BANK])

    at(g, "skid_rolled", Trigger(source, f"Satellite Navigation ({v.name})", applies, run,
                                 about=v))
    name = f"perks@sat_nav:{v.player}"
    if has_trigger(g, "skid_rolled", name):
        return
    player = v.player
    fresh: dict[str, Any] = g.memory(source, "fresh", {"at": None, "n": 0})

    def usable(game: Game, ctx: dict[str, Any]) -> int:
        m = ctx.get("vehicle")
        if not isinstance(m, VehicleState) or m.player != player:
            return 0
        total = sum(t.conditions[BANK] for t in _bank(game, player))
        if fresh["at"] == activation_serial(game):
            total -= fresh["n"]  # set aside in this very step: for a later one
        return max(0, total)

    def watch(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        if data.get("perk") == "satellite_navigation" and "banked" in data:
            if fresh["at"] != activation_serial(g):
                fresh.update(at=activation_serial(g), n=0)
            fresh["n"] += 1

    def use(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        m: VehicleState = ctx["vehicle"]
        sk: SkidResolution = ctx["sk"]
        n = int((yield ask(m.player, "satellite_navigation_use",
                           f"{m.name}: use how many of the team's set-aside Shifts?",
                           [(i, str(i)) for i in range(usable(game, ctx) + 1)],
                           source=source, page=114, vehicle=m.id)))
        for _ in range(n):
            t = _bank(game, player)[0]
            t.conditions[BANK] -= 1
            if not t.conditions[BANK]:
                del t.conditions[BANK]
            sk.faces.append(SkidFace.SHIFT)
        if n:
            game.emit("perk", perk="satellite_navigation", source=source, page=114,
                      vehicle=m.id, used=n)

    g.effects.on("logged:perk", name, watch)
    at(g, "skid_rolled", Trigger(name, "Satellite Navigation: set-aside Shifts",
                                 lambda game, ctx: usable(game, ctx) > 0, use))


@RULES.rule("perk", "mobile_mechanic")
def mobile_mechanic(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Once per activation, at the start of its Attack Step, one crew member may work on it
    for the step instead of attacking: +1 Hull Point, never above its Hull Value (p.114)."""
    v = need(vehicle, "mobile_mechanic")
    state: dict[str, Any] = g.memory(source, "state", {"at": None})

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return v.damage > 0 and game.stat(v, "crew") >= 1

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        if not (yield from yes_no(v.player, "mobile_mechanic",
                                  f"{v.name}: a crew member repairs 1 Hull Point this step?",
                                  "repair", "no", source=source, page=114, vehicle=v.id)):
            return
        state["at"] = attack_step_serial(game)
        v.damage -= 1
        game.emit("repair", source=source, page=114, vehicle=v.id, amount=1,
                  hull_points=v.hull_points)

    def crew(value: int, ctx: dict[str, Any]) -> int | None:
        st = g.state
        if state["at"] == attack_step_serial(g) and st.step == "attack":
            return value - 1
        return None

    attack_step_serial(g)
    at(g, "attack_start", Trigger(source, f"Mobile Mechanic ({v.name})", applies, run,
                                  about=v))
    g.effects.on("stat:crew", source, crew, priority=-5, about=v)


def _eureka_weapons(g: Game, v: VehicleState, fired: set[str]) -> list[str]:
    """Weapons Eureka! may conjure: every shooting weapon the engine plays (not the Handgun,
    always carried) that the vehicle has not attacked with this game (ruling PK-21)."""
    out = []
    for w in g.catalog.weapons:
        if w.id == HANDGUN or w.id in fired or not weapon_playable(g.rules, w):
            continue
        if all(b is RangeBand.DROPPED for b in w.ranges):
            continue
        out.append(w.id)
    return out


@RULES.rule("perk", "eureka")
def eureka(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Once per game, at the start of its Attack Step, its controller names a weapon it has
    not attacked with this game: it counts as armed with it, on a facing of their choice, for
    its next attack (p.114), in this Attack Step (ruling PK-21)."""
    v = need(vehicle, "eureka")
    free, use = once_per(g, "game", source)
    fired: set[str] = g.memory(source, "fired", set())
    state: dict[str, Any] = g.memory(source, "state", {"mount": None})

    def declared(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        if data.get("vehicle") != v.id:
            return
        key = str(data.get("weapon"))
        m = next((x for x in v.weapons if x.key == key), None)
        fired.add(m.weapon if m is not None else key)
        if m is not None and m is state["mount"]:
            state["used"] = True

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return free() and bool(_eureka_weapons(game, v, fired))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        cat = game.catalog.weapons
        pick = yield ask(v.player, "eureka", f"{v.name}: Eureka! - which weapon?",
                         [(NO, "not now")] + [(w, cat.get(w).name)
                                              for w in _eureka_weapons(game, v, fired)],
                         source=source, page=114, vehicle=v.id)
        if pick == NO:
            return
        use()
        w = cat.get(str(pick))
        facing: str | None = None
        if w.allowed_facings and "crew_fired" not in w.special_rules:
            facing = str((yield ask(v.player, "eureka_facing", f"{v.name}: facing for the "
                                    f"{w.name}?", [(f.value, f.value) for f in w.allowed_facings],
                                    source=source, page=114, vehicle=v.id)))
        # Its rules are installed for this vehicle unless a weapon it carries brought them.
        have = {("weapon", m.weapon) for m in v.weapons} | {
            ("weapon_rule", r) for m in v.weapons if m.weapon in cat.records
            for r in cat.get(m.weapon).special_rules}
        m = WeaponMount(f"{EUREKA}{w.id}", w.id, facing, ammo=1 if w.ammo else None)
        v.weapons.append(m)
        state.update(mount=m, used=False)
        for family, rid in [("weapon", w.id)] + [("weapon_rule", r) for r in w.special_rules]:
            if (family, rid) not in have:
                game.install_rule(family, rid, v, EffectId(family, rid, v.id))
        game.emit("perk", perk="eureka", source=source, page=114, vehicle=v.id, weapon=w.id,
                  facing=facing)

    def uses(value: int, ctx: dict[str, Any]) -> int | None:
        m = state["mount"]
        if m is not None and ctx.get("key") == m.key and state.get("used"):
            return 0  # its one attack is made
        return None

    def gone(value: None, ctx: dict[str, Any]) -> None:
        m = state["mount"]
        if isinstance(m, WeaponMount) and m in v.weapons:
            v.weapons.remove(m)
            state["mount"] = None

    g.effects.on("logged:declare_attack", source, declared)
    at(g, "attack_start", Trigger(source, f"Eureka! ({v.name})", applies, run, about=v))
    g.effects.on("weapon_uses", source, uses, priority=-50, about=v)
    g.effects.on("activation_end", source, gone, about=v)
