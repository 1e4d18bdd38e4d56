"""Built perks (Refuelled p.106): Dead Weight, Barrel Roll, Bruiser, Splashback, Crusher,
Feel No Pain."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.catalog import Weight
from carnage.games.refuelled.engine.collision import EVADE, weight_class
from carnage.games.refuelled.engine.combat import roll_attack
from carnage.games.refuelled.engine.damage import HitGroup, take_hits
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.rules.perks._common import (
    PerkFlow,
    Trigger,
    activation_serial,
    at,
    enemies,
    gain,
    install_flip_choices,
    near_told,
    need,
    yes_no,
)
from carnage.games.refuelled.rules.vehicles import up_and_over
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

DEAD_WEIGHT = "dead_weight"
DEAD_WEIGHT_HAZARDS = 2
HEAVY = 3
HEAVIER = {Weight.LIGHTWEIGHT: Weight.MIDDLEWEIGHT, Weight.MIDDLEWEIGHT: Weight.HEAVYWEIGHT,
           Weight.HEAVYWEIGHT: Weight.HEAVYWEIGHT}
SPLASHBACK_DICE = 1
FEEL_NO_PAIN_MAX = 2
"""Feel No Pain cancels an enemy's attack that leaves this many hits or fewer (p.106)."""


@RULES.rule("perk", "dead_weight")
def dead_weight(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """In its Attack Step it may take 2 Hazard Tokens to count one weight class heavier (for
    collisions and explosions) until its next activation starts (p.106)."""
    v = need(vehicle, "dead_weight")

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return DEAD_WEIGHT not in v.conditions and weight_class(game, v) < HEAVY

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        take = yield from yes_no(v.player, DEAD_WEIGHT,
                                 f"{v.name}: take 2 Hazard Tokens to count one class heavier?",
                                 "take them", "no", source=source, page=106, vehicle=v.id)
        if take and gain(game, v, DEAD_WEIGHT_HAZARDS, source, 106) == DEAD_WEIGHT_HAZARDS:
            v.conditions[DEAD_WEIGHT] = 1
            game.emit("perk", perk=DEAD_WEIGHT, source=source, page=106, vehicle=v.id)

    def heavier(value: int, ctx: dict[str, Any]) -> int | None:
        if DEAD_WEIGHT in v.conditions:
            return min(HEAVY, int(value) + 1)
        return None

    def explodes_heavier(value: Weight, ctx: dict[str, Any]) -> Weight | None:
        if DEAD_WEIGHT in v.conditions:
            return HEAVIER[value]
        return None

    def activates(value: None, ctx: dict[str, Any]) -> None:
        if ctx["data"].get("vehicle") == v.id:
            v.conditions.pop(DEAD_WEIGHT, None)

    at(g, "attack_start", Trigger(source, f"Dead Weight ({v.name})", applies, run, about=v))
    g.effects.on("weight_class", source, heavier, priority=-10, about=v)
    g.effects.on("explosion_weight", source, explodes_heavier, priority=-5, about=v)
    g.effects.on("logged:activation", source, activates)


@RULES.rule("perk", "barrel_roll")
def barrel_roll(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """As it flips it may lay the Flip template at the centre of a side or the rear edge,
    square to it, instead of the front (p.106; the shared flip choice in _common.py)."""
    install_flip_choices(g, need(vehicle, "barrel_roll"))


@RULES.rule("perk", "bruiser")
def bruiser(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Declaring any reaction but Evade in a Collision with an enemy vehicle gives that vehicle
    a Hazard Token at once (p.106)."""
    v = need(vehicle, "bruiser")

    def reacted(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        other = g.state.vehicles.get(str(data.get("other")))
        if (data.get("vehicle") == v.id and data.get("reaction") != EVADE
                and data.get("why") == "declared" and other is not None and other.in_play
                and enemies(g, v, other)):
            g.emit("perk", perk="bruiser", source=source, page=106, vehicle=v.id,
                   target=other.id)
            g.add_hazards(other, 1, "bruiser", 106)

    g.effects.on("logged:reaction", source, reacted)


@RULES.rule("perk", "splashback")
def splashback(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Once per step, after it loses Hull Points, a 1D6 attack on every other vehicle within
    Medium range at the end of that step (p.106); it must still be in play (ruling PK-7)."""
    v = need(vehicle, "splashback")
    state: dict[str, object] = g.memory(source, "state", {"hurt": None, "used": None})

    def stamp(game: Game) -> tuple[int, str | None]:
        return activation_serial(game), game.state.step

    def hurt(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        if data.get("vehicle") == v.id and int(str(data.get("amount", 0))) > 0 \
                and state["used"] != stamp(g):
            state["hurt"] = stamp(g)

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        if not v.in_play:
            state["hurt"] = None
        return state["hurt"] is not None

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        state["used"], state["hurt"] = state["hurt"], None
        targets = yield from near_told(game, v, "medium", [
            t for t in game.state.in_play() if t.id != v.id], page=106, why="Splashback")
        if not targets:
            return
        game.emit("perk", perk="splashback", source=source, page=106, vehicle=v.id,
                  targets=[t.id for t in targets])
        for t in targets:
            if not (t.in_play and v.in_play) or game.state.finished:
                continue
            hit = roll_attack(game, SPLASHBACK_DICE, why="splashback", source=source,
                              page=106, vehicle=v.id, target=t.id)
            game.emit("attack_hits", source=source, page=106, vehicle=v.id, target=t.id,
                      hits=hit.hits, criticals=hit.criticals)
            yield from take_hits(game, t, [HitGroup("splashback", hit.hits)], source=source,
                                 page=106)

    g.effects.on("logged:damage", source, hurt)
    at(g, "step_end", Trigger(source, f"Splashback ({v.name})", applies, run))


@RULES.rule("perk", "crusher")
def crusher(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """The Monster Truck's Up and Over (p.106, p.71): the rule in rules/vehicles.py."""
    up_and_over(g, need(vehicle, "crusher"), source)


@RULES.rule("perk", "feel_no_pain")
def feel_no_pain(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """In an enemy's Attack Step, when that attacker's dice against it leave 2 or fewer
    uncancelled hits, those are cancelled too (p.106)."""
    v = need(vehicle, "feel_no_pain")

    def hits(value: None, ctx: dict[str, Any]) -> None:
        st = g.state
        active = st.vehicles.get(st.active or "")
        if (ctx.get("target") is not v or ctx.get("source") != "attack" or st.step != "attack"
                or active is None or not enemies(g, v, active)):
            return
        groups: list[HitGroup] = ctx["groups"]
        left = sum(grp.uncancelled for grp in groups)
        if 0 < left <= FEEL_NO_PAIN_MAX:
            for grp in groups:
                grp.uncancelled = 0
            g.emit("perk", perk="feel_no_pain", source=source, page=106, vehicle=v.id,
                   cancelled=left)

    g.effects.on("hits_taken", source, hits, priority=-50)
