"""Badass perks (Refuelled p.105): Powder Keg, Crowd Pleaser, Road Warrior, Cover Me, Madman,
Bullet-Time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.catalog import RangeBand, Weight
from carnage.games.refuelled.engine.damage import EXPLODES_ON
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import VehicleState, WeaponMount
from carnage.games.refuelled.rules.perks._common import (
    NO,
    PerkFlow,
    Trigger,
    activation_serial,
    at,
    discard,
    enemies,
    friends,
    gain_vote,
    maybe_within,
    near_told,
    need,
    once_per,
    own,
    yes_no,
)
from carnage.geometry.arcs import Arc, parse_arc
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

HEAVIER = {Weight.LIGHTWEIGHT: Weight.MIDDLEWEIGHT, Weight.MIDDLEWEIGHT: Weight.HEAVYWEIGHT,
           Weight.HEAVYWEIGHT: Weight.HEAVYWEIGHT}
TURRET = "turret"
MADMAN_HAZARDS = 4
"""Madman needs this many Hazard Tokens at the end of its Movement Step (p.105)."""


@RULES.rule("perk", "powder_keg")
def powder_keg(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """It may add 1 to its explosion check, and explodes as one weight class heavier (p.105).
    The +1 is offered only when it would change the result (ruling PK-3)."""
    v = need(vehicle, "powder_keg")

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        total = int(ctx["roll"]) + int(ctx["ammo"]) + int(ctx["bonus"])
        return total == EXPLODES_ON - 1

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        if (yield from yes_no(v.player, "powder_keg",
                              f"{v.name}: add 1 to the explosion check (it then explodes)?",
                              "add 1: explode", "leave it", source=source, page=105, vehicle=v.id)):
            ctx["bonus"] = int(ctx["bonus"]) + 1
            game.emit("perk", perk="powder_keg", source=source, page=105, vehicle=v.id)

    def weight(value: Weight, ctx: dict[str, Any]) -> Weight:
        return HEAVIER[value]

    at(g, "explosion_roll", Trigger(source, f"Powder Keg ({v.name})", applies, run, about=v))
    g.effects.on("explosion_weight", source, weight, priority=-10, about=v)


@RULES.rule("perk", "crowd_pleaser")
def crowd_pleaser(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Its controller gains an Audience Vote whenever it wipes out (p.105)."""
    v = need(vehicle, "crowd_pleaser")

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        gain_vote(game, v.player, source, 105)
        yield from ()

    at(g, "wipeout_start", Trigger(source, f"Crowd Pleaser ({v.name})", own(v), run,
                                   free_order=True))


@RULES.rule("perk", "road_warrior")
def road_warrior(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Once per activation, having hit an enemy vehicle during this activation (with a weapon
    or a smash attack), it may discard a Hazard Token at the end of its Attack Step (p.105)."""
    v = need(vehicle, "road_warrior")
    free, use = once_per(g, "activation", source)
    hit: dict[str, int] = g.memory(source, "hit", {"at": -1})

    def hits(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        who = data.get("vehicle", data.get("attacker"))
        t = g.state.vehicles.get(str(data.get("target")))
        if (who == v.id and g.state.active == v.id and t is not None and enemies(g, v, t)
                and int(str(data.get("hits", 0))) > 0):
            hit["at"] = activation_serial(g)

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return free() and v.hazards > 0 and hit["at"] == activation_serial(game)

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        use()
        if (yield from yes_no(v.player, "road_warrior", f"{v.name}: discard a Hazard Token?",
                              "discard one", "keep them", source=source, page=105, vehicle=v.id)):
            discard(game, v, 1, source, 105)

    g.effects.on("logged:attack_hits", source, hits)
    g.effects.on("logged:smash_attack", source, hits)
    at(g, "attack_end", Trigger(source, f"Road Warrior ({v.name})", applies, run, about=v))


@RULES.rule("perk", "cover_me")
def cover_me(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Once in its activation it may move one of its Hazard Tokens onto another friendly
    vehicle within Double range; offered at the end of its Movement Step and again at the end
    of its Attack Step (ruling PK-4)."""
    v = need(vehicle, "cover_me")
    free, use = once_per(g, "activation", source)

    def friends_of(game: Game) -> list[VehicleState]:
        return [t for t in game.state.in_play() if t.id != v.id and friends(game, v, t)]

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return v.in_play and free() and v.hazards > 0 and any(
            maybe_within(game, v, t, "double") for t in friends_of(game))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        near = yield from near_told(game, v, "double", friends_of(game), page=105,
                                    why="Cover Me")
        if not near:
            return
        pick = yield ask(
            v.player, "cover_me", f"{v.name}: pass a Hazard Token to a friendly vehicle?",
            [(NO, "not now")] + [(t.id, f"to {t.name}") for t in near],
            source=source, page=105, vehicle=v.id)
        if pick == NO:
            return
        use()
        t = game.state.vehicles[str(pick)]
        if discard(game, v, 1, source, 105):
            game.add_hazards(t, 1, source, 105)

    for moment in ("movement_end", "attack_end"):
        at(g, moment, Trigger(source, f"Cover Me ({v.name})", applies, run, about=v))


@RULES.rule("perk", "madman")
def madman(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the end of its Movement Step, with 4+ Hazard Tokens, it may move one onto another
    vehicle within Medium range (p.105)."""
    v = need(vehicle, "madman")

    def others(game: Game) -> list[VehicleState]:
        return [t for t in game.state.in_play() if t.id != v.id]

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return v.hazards >= MADMAN_HAZARDS and any(
            maybe_within(game, v, t, "medium") for t in others(game))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        near = yield from near_told(game, v, "medium", others(game), page=105, why="Madman")
        if not near:
            return
        pick = yield ask(
            v.player, "madman", f"{v.name}: pass a Hazard Token to a vehicle within Medium?",
            [(NO, "keep it")] + [(t.id, f"to {t.name}") for t in near],
            source=source, page=105, vehicle=v.id)
        if pick != NO and discard(game, v, 1, source, 105):
            game.add_hazards(game.state.vehicles[str(pick)], 1, source, 105)

    at(g, "movement_end", Trigger(source, f"Madman ({v.name})", applies, run, about=v))


def _turnable(g: Game, m: WeaponMount) -> bool:
    """A shooting weapon with a fixed facing (crew-fired ones already fire all round)."""
    cat = g.catalog.weapons
    if m.weapon not in cat.records or m.facing is None or parse_arc(m.facing) is Arc.TURRET:
        return False
    w = cat.get(m.weapon)
    return "crew_fired" not in w.special_rules and any(
        b is not RangeBand.DROPPED for b in w.ranges)


@RULES.rule("perk", "bullet_time")
def bullet_time(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """After a Slide in its Movement Step it may pick one of its shooting weapons to fire as
    if turret-mounted until its activation ends (p.105)."""
    v = need(vehicle, "bullet_time")
    state: dict[str, Any] = g.memory(source, "state", {"slid": -1, "mount": None, "facing": None})

    def slid(value: bool, ctx: dict[str, Any]) -> None:
        if value is True:
            state["slid"] = activation_serial(g)

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return (state["slid"] == activation_serial(game)
                and any(_turnable(game, m) for m in v.weapons))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        state["slid"] = -1
        pick = yield ask(
            v.player, "bullet_time", f"{v.name}: which weapon fires all round this activation?",
            [(NO, "none")] + [(m.key, f"{m.key} ({m.facing})") for m in v.weapons
                              if _turnable(game, m)], source=source, page=105, vehicle=v.id)
        if pick == NO:
            return
        m = next(m for m in v.weapons if m.key == pick)
        state.update(mount=m, facing=m.facing)
        m.facing = TURRET
        game.emit("perk", perk="bullet_time", source=source, page=105, vehicle=v.id,
                  weapon=m.key)

    def over(value: None, ctx: dict[str, Any]) -> None:
        m = state["mount"]
        if isinstance(m, WeaponMount):
            m.facing = state["facing"]
            state.update(mount=None, facing=None)

    g.effects.on("place_slide", source, slid, priority=-100, about=v)
    at(g, "movement_end", Trigger(source, f"Bullet-Time ({v.name})", applies, run, about=v))
    g.effects.on("activation_end", source, over, about=v)
