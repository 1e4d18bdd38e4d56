"""Daring perks (Refuelled p.107): Chrome-Whisperer, Slippery, Handbrake Artist, Evasive,
Powerslide, Stunt Driver."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.skid import SkidResolution
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.engine.terrain import parse_ramp_edge
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
from carnage.geometry.templateset import TemplateSet
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

ANY_NUMBER = 1_000
"""Push It "any number of times" (Chrome-Whisperer, p.107)."""
SLIPPERY_DICE = 2
ANY_FACING = 180.0
EVASIVE_MAX = 5
"""More than +5 cannot matter: a natural 1 always fails and 2 + 5 already succeeds (p.107)."""
POWERSLIDE_BANNED = frozenset({"long_straight"})
"""The one template that may not stand in for the Slide template (p.107; ruling PK-8)."""
SLIDE = "slide"
STUNT_HAZARDS = 3


@RULES.rule("perk", "chrome_whisperer")
def chrome_whisperer(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """It may Push It any number of times in one Movement Step, +1 Hazard each (p.107)."""
    v = need(vehicle, "chrome_whisperer")

    def setup(value: SkidResolution, ctx: dict[str, Any]) -> None:
        value.push_limit = ANY_NUMBER

    g.effects.on("skid_setup", source, setup, about=v)


@RULES.rule("perk", "slippery")
def slippery(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Smash attacks at it roll 2 dice fewer (p.107)."""
    v = need(vehicle, "slippery")

    def dice(value: int, ctx: dict[str, Any]) -> int | None:
        return value - SLIPPERY_DICE

    g.effects.on("smash_dice", source, dice, priority=-10, about=v, key="other")


@RULES.rule("perk", "handbrake_artist")
def handbrake_artist(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """A Spin may leave it facing any way: the spin decision runs from -180 to 180 degrees
    (p.107), so turning less is still the player's choice."""
    v = need(vehicle, "handbrake_artist")

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        ctx["limit"] = max(float(ctx["limit"]), ANY_FACING)
        yield from ()

    at(g, "spin_start", Trigger(source, f"Handbrake Artist ({v.name})", own(v), run,
                                free_order=True))


@RULES.rule("perk", "evasive")
def evasive(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Before an evade roll it may take Hazard Tokens, +1 to every evade die for each; a
    natural 1 on its evade dice always fails (p.107)."""
    v = need(vehicle, "evasive")
    state = g.memory(source, "state", {"bonus": 0})

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        n = yield ask(
            v.player, "evasive", f"{v.name}: take Hazard Tokens for +1 on each evade die?",
            [(i, f"+{i} ({i} Hazards)" if i else "none") for i in range(EVASIVE_MAX + 1)],
            source=source, page=107, vehicle=v.id)
        state["bonus"] = gain(game, v, int(n), source, 107) if int(n) else 0
        if state["bonus"]:
            game.emit("perk", perk="evasive", source=source, page=107, vehicle=v.id,
                      bonus=state["bonus"])

    def bonus(value: int, ctx: dict[str, Any]) -> int | None:
        return value + state["bonus"] if state["bonus"] else None

    def saves(value: int, ctx: dict[str, Any]) -> int | None:
        state["bonus"] = 0  # this roll used it
        return sum(1 for d in ctx["dice"] if d != 1 and d + int(ctx["bonus"]) >= 6)

    at(g, "before_evade", Trigger(source, f"Evasive ({v.name})", own(v), run))
    g.effects.on("evade_bonus", source, bonus, about=v)
    g.effects.on("evade_saves", source, saves, priority=-10, about=v)


@RULES.rule("perk", "powerslide")
def powerslide(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """A Slide may use any other template in place of the Slide template but the Long
    Straight, laid as the Slide template is, curves either way up (p.107; ruling PK-8)."""
    v = need(vehicle, "powerslide")
    sets: dict[tuple[int, str], TemplateSet] = {}

    def choices(base: TemplateSet) -> list[tuple[str | int, str]]:
        out: list[tuple[str | int, str]] = [(SLIDE, "the Slide template")]
        for tid, spec in base.movement.items():
            if tid in POWERSLIDE_BANNED:
                continue
            name = tid.replace("_", " ")
            out.append((tid, name if spec.is_straight else f"{name}, turning right"))
            if not spec.is_straight:
                out.append((f"{tid}/left", f"{name}, turning left"))
        return out

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        base: TemplateSet = ctx["templates"]
        pick = str((yield ask(v.player, "powerslide", f"{v.name}: slide on which template?",
                              choices(base), source=source, page=107, vehicle=v.id)))
        if pick == SLIDE:
            return
        key = (id(base), pick)
        if key not in sets:
            tid, _, side = pick.partition("/")
            sets[key] = replace(base, slide_as=tid, slide_mirror=side == "left")
        ctx["templates"] = sets[key]
        game.emit("perk", perk="powerslide", source=source, page=107, vehicle=v.id,
                  template=pick)

    at(g, "slide_template", Trigger(source, f"Powerslide ({v.name})", own(v), run))


@RULES.rule("perk", "stunt_driver")
def stunt_driver(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """In its Movement Step it may ignore any obstruction its move touches (asked as each is
    touched, before any Collision); after a Movement Step in which it did, +3 Hazards
    (p.107)."""
    v = need(vehicle, "stunt_driver")
    state: dict[str, Any] = g.memory(source, "state", {"at": None, "asked": set(), "used": None})

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        if game.state.active != v.id:
            return False
        if state["at"] != activation_serial(game):
            state.update(at=activation_serial(game), asked=set())
        return any(parse_ramp_edge(i) is None and i not in state["asked"]
                   for i in ctx["touched"])

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        for oid in ctx["touched"]:
            if parse_ramp_edge(oid) is not None or oid in state["asked"]:
                continue
            state["asked"].add(oid)
            if (yield from yes_no(v.player, "stunt_driver", f"{v.name}: ignore {oid}?",
                                  f"drive through {oid}", "collide", source=source, page=107,
                                  vehicle=v.id, target=oid)):
                ctx["ignore"].add(oid)
                state["used"] = activation_serial(game)
                game.emit("perk", perk="stunt_driver", source=source, page=107, vehicle=v.id,
                          target=oid)

    def after(game: Game, ctx: dict[str, Any]) -> bool:
        return bool(state["used"] == activation_serial(game))

    def hazards(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        state["used"] = None
        game.add_hazards(v, STUNT_HAZARDS, source, 107)
        yield from ()

    at(g, "move_contact", Trigger(source, f"Stunt Driver ({v.name})", applies, run, about=v))
    at(g, "movement_end", Trigger(source, f"Stunt Driver ({v.name})", after, hazards,
                                  free_order=True, about=v))
