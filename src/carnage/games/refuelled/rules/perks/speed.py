"""Speed perks (Refuelled p.113): Hot Start, Slipstream, Overload, Downshift, Time Extended!,
Hell for Leather."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.catalog import TemplateUse
from carnage.games.refuelled.engine.collision import EVADE
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.movement import forced_move
from carnage.games.refuelled.engine.skid import SkidResolution
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.rules.perks._common import (
    NO,
    PerkFlow,
    Trigger,
    activation_serial,
    at,
    discard,
    need,
    yes_no,
)
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

SLIPSTREAM = "slipstream"
NO_REACTION = "no_reaction"
"""The only 'reaction' left to a vehicle slipstreamed (p.113): no dice, no evade."""
GATE_PASSED = "gate_passed"
"""The event a scenario with race gates logs when a vehicle passes one (``vehicle``, ``gate``):
what Time Extended! listens for (p.113)."""
LONG = "long_straight"


@RULES.rule("perk", "hot_start")
def hot_start(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the start of the game a D6 sets its gear, rolled again while above its max gear
    (p.113)."""
    v = need(vehicle, "hot_start")

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return v.in_play

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        top = game.stat(v, "max_gear")
        while True:
            die = game.roll(1, "hot start", source=source, page=113, vehicle=v.id)[0]
            if die <= top:
                break
        v.gear = die
        game.emit("gear", source=source, page=113, vehicle=v.id, gear=die)
        yield from ()

    at(g, "game_start", Trigger(source, f"Hot Start ({v.name})", applies, run,
                                free_order=True))


@RULES.rule("perk", SLIPSTREAM)
def slipstream(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Tailgating or tailgated in its own activation as the moving vehicle, it may react with
    a Slipstream: the other vehicle makes no reaction, no smash dice are rolled, neither gains
    the Collision's Hazards; it may change up or down a gear and gains one Hazard Token
    (p.113; ruling PK-19)."""
    v = need(vehicle, SLIPSTREAM)
    forced: dict[str, bool] = g.memory(source, "forced", {"on": False})

    def eligible(ctx: dict[str, Any]) -> bool:
        return (ctx.get("vehicle") is v and g.state.active == v.id
                and ctx.get("orientation") == "tailgate"
                and isinstance(ctx.get("other"), VehicleState) and not ctx.get("other_reaction"))

    def tailgate(value: bool, ctx: dict[str, Any]) -> bool | None:
        if eligible(ctx):
            forced["on"] = True
            return False
        if ctx.get("other_declared") == SLIPSTREAM:
            return False
        return None

    def reactions(value: list[str], ctx: dict[str, Any]) -> list[str] | None:
        if ctx.get("other_declared") == SLIPSTREAM:
            return [NO_REACTION]
        if eligible(ctx):
            out = [EVADE, SLIPSTREAM] if forced["on"] else [*value, SLIPSTREAM]
            forced["on"] = False
            return out
        return None

    def labels(value: dict[str, str], ctx: dict[str, Any]) -> dict[str, str]:
        return {**value, SLIPSTREAM: "Slipstream (no reaction for the other; +/-1 gear)",
                NO_REACTION: "no reaction (slipstreamed)"}

    def dice(value: int, ctx: dict[str, Any]) -> int | None:
        return 0 if ctx.get("declared") in (SLIPSTREAM, NO_REACTION) else None

    def hazards(value: int, ctx: dict[str, Any]) -> int | None:
        return 0 if SLIPSTREAM in (ctx.get("declared"), ctx.get("other_declared")) else None

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return any(p.vehicle is v and p.declared == SLIPSTREAM for p in ctx.get("parties", ()))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        if not v.in_play:
            return
        top = game.stat(v, "max_gear")
        options: list[tuple[str | int, str]] = [(NO, "stay in gear")]
        if v.gear < top:
            options.append(("up", f"change up to {v.gear + 1}"))
        if v.gear > 1:
            options.append(("down", f"change down to {v.gear - 1}"))
        pick = yield ask(v.player, SLIPSTREAM, f"{v.name}: slipstream into which gear?",
                         options, source=source, page=113, vehicle=v.id)
        if pick != NO:
            v.gear += 1 if pick == "up" else -1
            game.emit("gear", source=source, page=113, vehicle=v.id, gear=v.gear)
        game.emit("perk", perk=SLIPSTREAM, source=source, page=113, vehicle=v.id,
                  gear=v.gear)
        game.add_hazards(v, 1, source, 113)

    g.effects.on("tailgate_evade", source, tailgate, priority=-10)
    g.effects.on("collision_reactions", source, reactions, priority=-10)
    if not any(h.effect == "perks@slipstream" for h in g.effects.handlers("smash_dice")):
        g.effects.on("reaction_labels", "perks@slipstream", labels)
        g.effects.on("smash_dice", "perks@slipstream", dice, priority=-200)
        g.effects.on("collision_hazards", "perks@slipstream", hazards, priority=-200)
    at(g, "collision_end", Trigger(source, f"Slipstream ({v.name})", applies, run))


@RULES.rule("perk", "overload")
def overload(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """It may roll one skid die more than its Handling; if it does, it must change up at
    least one gear in that Movement Step or gain a Hazard Token (p.113; checked when its
    Shifts are spent: ruling PK-19)."""
    v = need(vehicle, "overload")
    state: dict[str, Any] = g.memory(
        source, "state", {"handling": 0, "gear": 0, "n": None, "at": None})

    def setup(value: SkidResolution, ctx: dict[str, Any]) -> None:
        value.extra_dice += 1
        state.update(handling=value.handling, gear=value.gear, n=None, at=activation_serial(g))

    def rolled(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]  # the first ``skid`` event of the step: the dice as rolled
        if data.get("vehicle") == v.id and state["n"] is None \
                and isinstance(data.get("faces"), list):
            state["n"] = len(data["faces"])

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        sk: SkidResolution = ctx["sk"]
        return bool(state["at"] == activation_serial(game)
                    and (state["n"] or 0) > state["handling"] and sk.gear <= state["gear"])

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        sk: SkidResolution = ctx["sk"]
        state["n"] = None
        sk.hazards += 1
        game.emit("perk", perk="overload", source=source, page=113, vehicle=v.id)
        yield from ()

    g.effects.on("skid_setup", source, setup, about=v)
    g.effects.on("logged:skid", source, rolled)
    at(g, "skid_finish", Trigger(source, f"Overload ({v.name})", applies, run,
                                 free_order=True, about=v))


@RULES.rule("perk", "downshift")
def downshift(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the end of a Movement Step in which it changed down, it may make a forced move
    straight ahead on the Short Straight (p.113)."""
    v = need(vehicle, "downshift")
    state: dict[str, Any] = g.memory(source, "state", {"gear": None, "down": None})

    def setup(value: SkidResolution, ctx: dict[str, Any]) -> None:
        state["gear"] = v.gear

    def gear(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        st = g.state
        if data.get("vehicle") != v.id or st.active != v.id or st.step != "movement":
            return
        new = int(str(data.get("gear")))
        if state["gear"] is not None and new < int(state["gear"]):
            state["down"] = activation_serial(g)
        state["gear"] = new

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return bool(state["down"] == activation_serial(game))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        state["down"] = None
        if (yield from yes_no(v.player, "downshift", f"{v.name}: Downshift (forced Short "
                              "Straight forward)?", "go", "no", source=source, page=113,
                              vehicle=v.id)):
            game.emit("perk", perk="downshift", source=source, page=113, vehicle=v.id)
            yield from forced_move(game, v, "short_straight", source=source, page=113)

    g.effects.on("skid_setup", source, setup, about=v)
    g.effects.on("logged:gear", source, gear)
    at(g, "movement_end", Trigger(source, f"Downshift ({v.name})", applies, run, about=v))


@RULES.rule("perk", "time_extended")
def time_extended(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the end of a Movement Step in which it passed a race gate (a scenario's
    ``gate_passed`` event) it may discard any number of Hazard Tokens (p.113)."""
    v = need(vehicle, "time_extended")
    passed: dict[str, Any] = g.memory(source, "passed", {"at": None})

    def gate(value: None, ctx: dict[str, Any]) -> None:
        if ctx["data"].get("vehicle") == v.id and g.state.active == v.id:
            passed["at"] = activation_serial(g)

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return passed["at"] == activation_serial(game) and v.hazards > 0

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        passed["at"] = None
        n = int((yield ask(v.player, "time_extended", f"{v.name}: discard how many Hazards?",
                           [(i, str(i)) for i in range(v.hazards + 1)], source=source,
                           page=113, vehicle=v.id)))
        if n:
            discard(game, v, n, source, 113)

    g.effects.on(f"logged:{GATE_PASSED}", source, gate)
    at(g, "movement_end", Trigger(source, f"Time Extended! ({v.name})", applies, run,
                                  about=v))


@RULES.rule("perk", "hell_for_leather")
def hell_for_leather(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """The Long Straight is permitted in every gear, neither hazardous nor trivial (p.113)."""
    v = need(vehicle, "hell_for_leather")

    def use(value: TemplateUse, ctx: dict[str, Any]) -> TemplateUse | None:
        return TemplateUse.PERMITTED if ctx.get("template") == LONG else None

    g.effects.on("template_use", source, use, priority=-30, about=v)
