"""Reckless perks (Refuelled p.112): Drive Angry, Hog Wild, In for a Penny, Don't Come Knocking,
Bigger'n You, Beerserker."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.collision import weight_bonus, weight_class
from carnage.games.refuelled.engine.skid import SkidResolution
from carnage.games.refuelled.engine.state import WEIGHT_CLASS, Obstacle, VehicleState
from carnage.games.refuelled.rules.perks._common import (
    PerkFlow,
    Trigger,
    activation_serial,
    at,
    gain,
    need,
    own,
    yes_no,
)
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

HOG_WILD_DICE = 2
PENNY_HAZARDS = 6
"""Hazard Tokens gained in the activation before In for a Penny doubles smash dice (p.112)."""
KNOCKING = "dont_come_knocking"
KNOCKING_HAZARDS = 4
BIGGER = "biggern_you"


@RULES.rule("perk", "drive_angry")
def drive_angry(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """+1 Hazard Token as each of its activations starts (p.112)."""
    v = need(vehicle, "drive_angry")

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        game.add_hazards(v, 1, source, 112)
        yield from ()

    at(g, "activation_start", Trigger(source, f"Drive Angry ({v.name})", own(v), run,
                                      free_order=True))


@RULES.rule("perk", "hog_wild")
def hog_wild(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """+2 smash attack dice in Collisions during a Wipeout Step (p.112)."""
    v = need(vehicle, "hog_wild")

    def dice(value: int, ctx: dict[str, Any]) -> int | None:
        return value + HOG_WILD_DICE if g.state.step == "wipeout" else None

    g.effects.on("smash_dice", source, dice, about=v)


@RULES.rule("perk", "in_for_a_penny")
def in_for_a_penny(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Once it has gained 6+ Hazard Tokens in the current activation it may double the dice
    of each smash attack it makes for the rest of that activation (p.112)."""
    v = need(vehicle, "in_for_a_penny")
    gained: dict[str, int] = g.memory(source, "gained", {"at": -1, "n": 0})

    def count(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        change = int(str(data.get("change", 0)))
        if data.get("vehicle") == v.id and change > 0:
            if gained["at"] != activation_serial(g):
                gained.update(at=activation_serial(g), n=0)
            gained["n"] += change

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return (int(ctx["dice"]) > 0
                and gained["at"] == activation_serial(game) and gained["n"] >= PENNY_HAZARDS)

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        if (yield from yes_no(v.player, "in_for_a_penny",
                              f"{v.name}: double this smash attack's dice?", "double them",
                              "no", source=source, page=112, vehicle=v.id)):
            ctx["dice"] = int(ctx["dice"]) * 2
            game.emit("perk", perk="in_for_a_penny", source=source, page=112, vehicle=v.id,
                      dice=ctx["dice"])

    g.effects.on("logged:hazards", source, count)
    at(g, "smash_roll", Trigger(source, f"In for a Penny ({v.name})", applies, run, about=v))


@RULES.rule("perk", "dont_come_knocking")
def dont_come_knocking(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """As its activation starts it may take 4 Hazard Tokens; then it gains and loses none by
    any rule or Shift until its next activation starts (p.112). A Wipeout's or a wreck's reset
    still clears them (ruling PK-18)."""
    v = need(vehicle, KNOCKING)

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        if (yield from yes_no(v.player, KNOCKING,
                              f"{v.name}: take 4 Hazard Tokens and hold them fast?",
                              "take 4", "no", source=source, page=112, vehicle=v.id)) \
                and gain(game, v, KNOCKING_HAZARDS, source, 112) == KNOCKING_HAZARDS:
            v.conditions[KNOCKING] = 1
            game.emit("perk", perk=KNOCKING, source=source, page=112, vehicle=v.id)

    def frozen(value: int, ctx: dict[str, Any]) -> int | None:
        return 0 if KNOCKING in v.conditions else None

    def setup(value: SkidResolution, ctx: dict[str, Any]) -> None:
        if KNOCKING in v.conditions:
            value.hazard_discard = False
            value.down_hazard = max(0, value.down_hazard)

    def unlock(value: None, ctx: dict[str, Any]) -> None:
        if ctx["data"].get("vehicle") == v.id:
            v.conditions.pop(KNOCKING, None)

    at(g, "activation_start", Trigger(source, f"Don't Come Knocking ({v.name})", own(v), run))
    g.effects.on("hazards_gained", source, frozen, priority=-100, about=v)
    g.effects.on("hazards_lost", source, frozen, priority=-100, about=v)
    g.effects.on("skid_setup", source, setup, priority=-100, about=v)
    g.effects.on("logged:activation", source, unlock)


def _weight(g: Game, v: object, ob: object) -> int | None:
    if isinstance(v, VehicleState):
        return weight_class(g, v)
    if isinstance(ob, Obstacle):
        return WEIGHT_CLASS[ob.weight]
    return None


@RULES.rule("perk", BIGGER)
def biggern_you(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """In a Collision involving it, the smash dice gained or lost for weight are doubled, for
    both parties; once, even if both have the perk (p.112)."""
    need(vehicle, BIGGER)
    effect = "perks@biggern_you"
    if any(h.effect == effect for h in g.effects.handlers("smash_dice")):
        return

    def dice(value: int, ctx: dict[str, Any]) -> int | None:
        me, other = ctx.get("vehicle"), ctx.get("other")
        if not any(isinstance(x, VehicleState) and BIGGER in x.perks for x in (me, other)):
            return None
        mine = _weight(g, me, ctx.get("obstacle"))
        theirs = _weight(g, other, ctx.get("other_obstacle"))
        if mine is None or theirs is None:
            return None
        return value + weight_bonus(mine, theirs)

    g.effects.on("smash_dice", effect, dice, priority=50)


@RULES.rule("perk", "beerserker")
def beerserker(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Damage it would suffer outside its own activation is 1 less, to a minimum of 1
    (p.112); Purifying Flames' damage is never reduced (p.108)."""
    v = need(vehicle, "beerserker")

    def less(value: int, ctx: dict[str, Any]) -> int | None:
        if (g.state.active == v.id or value <= 1
                or str(ctx.get("source", "")).startswith("perk:purifying_flames")):
            return None
        g.emit("perk", perk="beerserker", source=source, page=112, vehicle=v.id,
               damage=value - 1)
        return value - 1

    g.effects.on("damage_amount", source, less, priority=-50, about=v)
