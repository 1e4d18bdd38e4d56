"""Trailers and trailer cargo in play (Rusty's Bootleggers, Refuelled pp.102-103).

A trailer upgrade gives its vehicle the War Rig's Articulated, Ponderous and Piledriver rules:
the team builder adds those rule ids to the vehicle (``team/build.py``) and rules/war_rig.py
plays them, trailer body included (ruling VR-10). Stowage is build slots, counted by the team
builder. So the trailer upgrades and the ``trailer`` and ``stowage`` rule ids have nothing more
to install here.

The five cargoes are effects on the engine's hooks (docs/events.md):

* Peach Moonshine: the vehicle's Molotov Cocktails never run out (ruling UP-6).
* Sourmash Jet Booster: 5+ Hazards at the end of its Movement Step force a Long Straight.
* Siphon Pump: at the start of its Attack Step, one Hazard from each vehicle in Short range.
* Old Fashioned Corn Liquor: vehicles in Medium range gain one Hazard more (ruling UP-7).
* Cattle-Hammer: during a Wipeout Step the vehicle counts whichever gear it likes (UP-8).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import VehicleState
from carnage.geometry.shapes import Point, distance
from carnage.kernel.effects import always
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.collision import Party
    from carnage.games.refuelled.engine.game import Flow, Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

PAGE = 103
MOLOTOVS = "molotov_cocktails"
SOURMASH_AT = 5
"""Hazards at which the Sourmash Jet Booster fires (p.103)."""
DONE = "done"




def _polys(v: VehicleState) -> list[list[Point]]:
    return [r.polygon() for _, r in v.bodies()]


def gap(a: VehicleState, b: VehicleState) -> float:
    """The gap between two vehicles (trailers included), for range (p.29)."""
    return min(distance(p, q) for p in _polys(a) for q in _polys(b))


def within(g: Game, a: VehicleState, b: VehicleState, band: str) -> bool:
    return gap(a, b) <= float(g.templates.ranges[band]) + 1e-9


def _applied_elsewhere(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """A trailer's rules are the Articulated, Ponderous and Piledriver vehicle rules the team
    builder gives the vehicle (rules/war_rig.py plays them); Stowage is build slots, counted
    when the team is built (p.103). Nothing more to install."""


for _rid in ("trailer_lightweight", "trailer_middleweight", "trailer_heavyweight"):
    RULES.rule("upgrade", _rid)(_applied_elsewhere)
for _rid in ("trailer", "stowage"):
    RULES.rule("vehicle_rule", _rid)(_applied_elsewhere)


# -- Peach Moonshine ----------------------------------------------------------------------------
@RULES.rule("upgrade", "peach_moonshine")
def peach_moonshine(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """The vehicle's Molotov Cocktails have endless ammo: they never spend a token. Endless
    ammo tokens also mean the vehicle always explodes when wrecked, as the book says of the
    Jet Engine's endless Nitro (p.70; ruling UP-6)."""
    assert vehicle is not None
    v = vehicle
    molotovs = [m for m in v.weapons if m.weapon == MOLOTOVS]
    if not molotovs:
        return
    for m in molotovs:
        m.ammo = None  # no token to spend, none to run out of

    game.effects.on("explosion_check", source, lambda value, ctx: True, about=v)


# -- Sourmash Jet Booster -----------------------------------------------------------------------
@RULES.rule("upgrade", "sourmash_jet_booster")
def sourmash_jet_booster(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the end of its Movement Step, on 5 or more Hazards, a forced Long Straight forward
    (after a Nitro Booster's top-up, which runs first)."""
    assert vehicle is not None
    v = vehicle

    def boost(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.engine.movement import forced_move

        if v.hazards < SOURMASH_AT or not v.in_play:
            return
        g.emit("sourmash", source=source, page=PAGE, vehicle=v.id)
        yield from forced_move(g, v, "long_straight", source=source, page=PAGE)

    game.effects.add_flow("movement_end", source, always(boost), about=v)


# -- Siphon Pump --------------------------------------------------------------------------------
@RULES.rule("upgrade", "siphon_pump")
def siphon_pump(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the start of its Attack Step, Distracted or not, the controller may move one Hazard
    from each vehicle within Short range onto this vehicle, one vehicle at a time."""
    assert vehicle is not None
    v = vehicle

    def siphon(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.rules.perks._common import near_told

        done: set[str] = set()
        # Who is within Short: asked once of the people at a real table (ruling CP-18).
        reach = yield from near_told(g, v, "short", [
            o for o in g.state.in_play() if o.id != v.id and o.hazards > 0], page=PAGE,
            why="Siphon Pump")
        while v.in_play and not g.state.finished:
            near = [o for o in reach if o.in_play and o.id not in done and o.hazards > 0]
            if not near:
                return
            pick = yield ask(
                v.player, "siphon_pump", f"{v.name}: take a Hazard from a vehicle in Short "
                "range (Siphon Pump)?",
                [(DONE, "take no more")] + [(o.id, f"take one from {o.name} "
                                                   f"({o.hazards} Hazards)") for o in near],
                source=source, page=PAGE, vehicle=v.id,
            )
            if pick == DONE:
                return
            other = g.state.vehicles[str(pick)]
            done.add(other.id)
            g.emit("siphon", source=source, page=PAGE, vehicle=v.id, source_vehicle=other.id)
            before = other.hazards
            g.add_hazards(other, -1, source, PAGE)  # a rule may keep it there (hazards_lost)
            if other.hazards < before:
                g.add_hazards(v, 1, source, PAGE)

    game.effects.add_flow("attack_start", source, always(siphon), about=v)


# -- Old Fashioned Corn Liquor ------------------------------------------------------------------
@RULES.rule("upgrade", "old_fashioned_corn_liquor")
def corn_liquor(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """Another vehicle within Medium range that gains Hazards gains one more each time (ruling
    UP-7: other vehicles only, friend or foe)."""
    assert vehicle is not None
    liquor = vehicle
    # At a real table (ruling CP-18): which vehicles are within Medium, as the people last
    # said; asked after deployment and again after every motion of the still or another.
    def told(g: Game) -> dict[str, bool]:
        near: dict[str, bool] = g.memory(source, "near", {})
        return near

    def is_near(g: Game, other: VehicleState) -> bool:
        if g.facts.people:
            return told(g).get(other.id, False)
        return within(g, liquor, other, "medium")

    def more(value: Any, ctx: dict[str, Any]) -> Any:
        other = ctx.get("vehicle")
        if not isinstance(other, VehicleState) or other is liquor or int(value) <= 0:
            return None
        if not (liquor.in_play and other.in_play) or not is_near(ctx["game"], other):
            return None
        ctx["game"].emit("corn_liquor", source=source, page=PAGE, vehicle=other.id,
                         liquor=liquor.id)
        return int(value) + 1

    def others(g: Game) -> list[VehicleState]:
        return [o for o in g.state.in_play() if o is not liquor]

    def all_round(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.rules.perks._common import near_told

        named = yield from near_told(g, liquor, "medium", others(g), page=PAGE,
                                     why="Old Fashioned Corn Liquor")
        told(g).clear()
        told(g).update({o.id: True for o in named})

    def one(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.rules.perks._common import is_within

        o: VehicleState = ctx["vehicle"]
        told(g)[o.id] = yield from is_within(g, liquor, o, "medium", page=PAGE,
                                          why="Old Fashioned Corn Liquor")

    def asks(ctx: dict[str, Any]) -> Any:
        g: Game = ctx["game"]
        if not g.facts.people or not liquor.in_play:
            return None
        moved = ctx.get("vehicle")
        if moved is None or moved is liquor:
            return all_round
        return one if isinstance(moved, VehicleState) and moved.in_play else None

    def noted(value: Any, ctx: dict[str, Any]) -> None:
        # A recording table notes what a real table is asked at the same moments.
        g: Game = ctx["game"]
        moved = ctx.get("vehicle")
        if not g.facts.recording or not liquor.in_play:
            return
        if moved is None or moved is liquor:
            if others(g):
                g.facts.note("within_medium", [o.id for o in others(g)
                                               if within(g, liquor, o, "medium")])
        elif isinstance(moved, VehicleState) and moved.in_play:
            g.facts.note("within_medium", within(g, liquor, moved, "medium"))

    def noted_flow(g: Game, ctx: dict[str, Any]) -> Flow:
        noted(None, ctx)
        yield from ()

    def placed(ctx: dict[str, Any]) -> Any:
        # After deployment and after a respawn: asked at a real table, noted on a recording one.
        g: Game = ctx["game"]
        return asks(ctx) if g.facts.people else noted_flow if g.facts.recording else None

    game.effects.on("hazards_gained", source, more)
    game.effects.add_flow("game_start", source, placed, priority=90)
    game.effects.add_flow("respawned", source, placed, priority=90)
    game.effects.add_flow("table_motion", source, asks, priority=90)
    game.effects.on("table_motion_noted", source, noted, priority=90)


# -- Cattle-Hammer ------------------------------------------------------------------------------
@RULES.rule("upgrade", "cattle_hammer")
def cattle_hammer(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """During any Wipeout Step the vehicle counts its gear as any value up to its max gear
    (ruling UP-8): as 1 for a flip check (it never flips), as its controller chooses for each
    Collision (smash and evade dice), and as its max gear for any other evade."""
    assert vehicle is not None
    v = vehicle
    chosen: list[int] = game.memory(source, "chosen", [])

    def wiping(g: Game) -> bool:
        return g.state.step == "wipeout"

    def flip(value: Any, ctx: dict[str, Any]) -> Any:
        g: Game = ctx["game"]
        if not wiping(g) or int(value) >= v.gear:
            return None
        g.emit("cattle_hammer", source=source, page=PAGE, vehicle=v.id, gear=1,
               what="flip check")
        return v.gear  # scored as if in gear 1: no flip

    def collision(g: Game, ctx: dict[str, Any]) -> Flow:
        chosen.clear()
        if not wiping(g):
            return
        parties: Sequence[Party] = ctx.get("parties", ())
        mine = next((p for p in parties if p.vehicle is v), None)
        if mine is None or not v.in_play:
            return
        top = max(1, g.stat(v, "max_gear"))
        gear = yield ask(
            v.player, "cattle_hammer",
            f"{v.name} collides during a Wipeout Step: count which gear (Cattle-Hammer)?",
            [(n, f"gear {n}") for n in range(1, top + 1)], source=source, page=PAGE, vehicle=v.id,
        )
        mine.gear = int(gear)
        chosen.append(int(gear))
        g.emit("cattle_hammer", source=source, page=PAGE, vehicle=v.id, gear=int(gear),
               what="collision")

    def on_collision(flows: Any, ctx: dict[str, Any]) -> Any:
        parties = ctx.get("parties", ())
        return [*flows, collision] if any(p.vehicle is v for p in parties) else None

    def evade(value: Any, ctx: dict[str, Any]) -> Any:
        g: Game = ctx["game"]
        if not wiping(g):
            return None
        gear = chosen[0] if chosen else max(1, g.stat(v, "max_gear"))
        if gear == v.gear:
            return None
        g.emit("cattle_hammer", source=source, page=PAGE, vehicle=v.id, gear=gear,
               what="evade")
        return int(value) - v.gear + gear

    def collision_over(value: Any, ctx: dict[str, Any]) -> Any:
        chosen.clear()
        return None

    def activation_over(value: Any, ctx: dict[str, Any]) -> Any:
        chosen.clear()
        return None

    game.effects.on("flip_check", source, flip, priority=-10, about=v)
    game.effects.on("collision_start", source, on_collision)
    game.effects.on("evade_dice", source, evade, priority=-10, about=v)
    game.effects.on("collision_hazards", source, collision_over, priority=-30, about=v)
    game.effects.on("activation_end", source, activation_over)
