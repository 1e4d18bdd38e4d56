"""Aggression perks (Refuelled pp.104-105): Double-Barreled, Boarding Party, Battlehammer,
Terrifying Lunatic, Grinderman, Murder Tractor."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.attack import HANDGUN, Shot
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.rules.perks._common import (
    PerkFlow,
    Trigger,
    at,
    attack_step_serial,
    is_within,
    maybe_within,
    need,
    yes_no,
)
from carnage.games.refuelled.rules.war_rig import piledriver
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

DOUBLE_BARRELED_WEAPONS = 3
"""Crew-fired weapons that gain +1 to hit in one Attack Step (p.104)."""
CREW_FIRED = "crew_fired"


def _crew_fired(g: Game, v: VehicleState, key: str) -> bool:
    if key == HANDGUN:
        return True
    mount = next((m for m in v.weapons if m.key == key), None)
    cat = g.catalog.weapons
    return mount is not None and mount.weapon in cat.records and \
        CREW_FIRED in cat.get(mount.weapon).special_rules


@RULES.rule("perk", "double_barreled")
def double_barreled(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """+1 to hit for the first three crew-fired attacks declared in each of its Attack Steps
    (ruling PK-1: a bonus with no drawback is always taken); each Handgun attack counts as a
    weapon; a Splash weapon's other targets share their weapon's bonus."""
    v = need(vehicle, "double_barreled")
    granted: list[tuple[str, str]] = g.memory(source, "granted", [])
    step: dict[str, object] = g.memory(source, "step", {"at": None})
    attack_step_serial(g)  # start counting now

    def declared(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        if data.get("vehicle") != v.id or data.get("target") is None:
            return
        here = attack_step_serial(g)
        if step["at"] != here:
            step["at"] = here
            granted.clear()
        key = str(data.get("weapon"))
        if len(granted) < DOUBLE_BARRELED_WEAPONS and _crew_fired(g, v, key):
            granted.append((key, str(data.get("target"))))
            g.emit("perk", perk="double_barreled", source=source, page=104, vehicle=v.id,
                   weapon=key, target=str(data.get("target")))

    def to_hit(value: int, ctx: dict[str, Any]) -> int | None:
        shot: Shot = ctx["shot"]
        if ctx.get("attacker") is not v:
            return None
        if shot.extra and any(k == shot.key for k, _ in granted):
            return value - 1
        if not shot.extra and (shot.key, shot.target) in granted:
            granted.remove((shot.key, shot.target))
            return value - 1
        return None

    g.effects.on("logged:declare_attack", source, declared)
    g.effects.on("to_hit_penalty", source, to_hit)


@RULES.rule("perk", "boarding_party")
def boarding_party(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Never Distracted: it attacks while touching an obstruction (p.104)."""
    v = need(vehicle, "boarding_party")
    g.effects.on("distracted", source, lambda value, ctx: False, priority=-10, about=v)


@RULES.rule("perk", "battlehammer")
def battlehammer(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """+1 smash attack die per Hazard Token it has as it smashes (p.104)."""
    v = need(vehicle, "battlehammer")

    def dice(value: int, ctx: dict[str, Any]) -> int:
        return value + v.hazards

    g.effects.on("smash_dice", source, dice, about=v)


@RULES.rule("perk", "terrifying_lunatic")
def terrifying_lunatic(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """A vehicle of another player ending its Movement Step within Short range of this one
    gains a Hazard Token (p.104)."""
    v = need(vehicle, "terrifying_lunatic")

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        a = ctx.get("vehicle")
        return (isinstance(a, VehicleState) and v.in_play and a.in_play
                and a.player != v.player and maybe_within(game, v, a, "short"))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        a: VehicleState = ctx["vehicle"]
        if not (yield from is_within(game, v, a, "short", page=104,
                                     why="Terrifying Lunatic")):
            return
        game.emit("perk", perk="terrifying_lunatic", source=source, page=104, vehicle=v.id,
                  target=a.id)
        game.add_hazards(a, 1, "terrifying_lunatic", 104)
        yield from ()

    at(g, "movement_end", Trigger(source, f"Terrifying Lunatic ({v.name})", applies, run,
                                  free_order=True))


@RULES.rule("perk", "grinderman")
def grinderman(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Before rolling a smash attack at a vehicle it may choose to give that vehicle one
    Hazard Token per point of damage the smash would do, instead of the damage (p.105). The
    damage turned is at most the hits of this smash (ruling PK-2)."""
    v = need(vehicle, "grinderman")
    grind: dict[str, Any] = g.memory(source, "grind", {})

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return isinstance(ctx.get("other"), VehicleState)

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        other: VehicleState = ctx["other"]
        grind.clear()
        if (yield from yes_no(
                v.player, "grinderman", f"{v.name}: grind {other.name} (Hazards instead of "
                "damage) with this smash?", "Hazard Tokens instead of damage", "damage as usual",
                source=source, page=105, vehicle=v.id, target=other.id)):
            grind.update(target=other.id, hits=0)
            game.emit("perk", perk="grinderman", source=source, page=105, vehicle=v.id,
                      target=other.id)

    def smashed(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        if grind and data.get("attacker") == v.id and data.get("target") == grind["target"]:
            grind["hits"] = int(str(data.get("hits", 0)))

    def damage(value: int, ctx: dict[str, Any]) -> int | None:
        t = ctx.get("vehicle")
        if not grind or not isinstance(t, VehicleState) or t.id != grind["target"] \
                or ctx.get("other") is not v:
            return None
        turned = min(value, int(grind["hits"]))
        grind.clear()
        if turned <= 0:
            return None
        g.add_hazards(t, turned, "grinderman", 105)
        return value - turned

    def over(value: None, ctx: dict[str, Any]) -> None:
        grind.clear()

    at(g, "smash_roll", Trigger(source, f"Grinderman ({v.name})", applies, run, about=v))
    g.effects.on("logged:smash_attack", source, smashed)
    g.effects.on("collision_damage", source, damage)
    g.effects.on("logged:collision_end", source, over)


@RULES.rule("perk", "murder_tractor")
def murder_tractor(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Piledriver attacks like a War Rig (p.105): the War Rig's rule (rules/war_rig.py)."""
    piledriver(g, need(vehicle, "murder_tractor"), source)
