"""Pursuit perks (Refuelled p.111): On Your Tail, Schadenfreude, Taunt, Out Run, PIT,
Unnerving Eye Contact."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.catalog import TemplateUse
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.movement import (
    STRAIGHTS,
    forced_move,
    template_use,
    template_value,
)
from carnage.games.refuelled.engine.skid import SkidResolution
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.rules.perks._common import (
    NO,
    PerkFlow,
    Trigger,
    activation_serial,
    at,
    discard,
    enemies,
    has_trigger,
    is_within,
    maybe_within,
    near_told,
    need,
    within,
)
from carnage.kernel.dice import SkidFace, skid_face
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

PIT = "pit"
EYE_CONTACT_FIRST = 60
"""Where Unnerving Eye Contact's question sits among the rules acting once skid dice are
rolled (higher first): before them, never at the same moment (ruling CP-18)."""
TAUNTED = "taunted:"
"""Condition prefix: skid results another vehicle's Taunt left on this one's dashboard."""


@RULES.rule("perk", "on_your_tail")
def on_your_tail(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """An enemy vehicle ending a Movement Step within Short range of this one after resolving
    a Spin or a Slide in it gains a Hazard Token (p.111; once a step, judged where its
    Movement Step ends: ruling PK-15)."""
    v = need(vehicle, "on_your_tail")
    moved: dict[str, int] = g.memory(source, "moved", {})

    def slid(value: bool, ctx: dict[str, Any]) -> None:
        m = ctx.get("vehicle")
        if value is True and isinstance(m, VehicleState):
            moved[m.id] = activation_serial(g)

    def spinning(game: Game, ctx: dict[str, Any]) -> bool:
        m = ctx.get("vehicle")
        if isinstance(m, VehicleState):
            moved[m.id] = activation_serial(game)
        return False  # only remembers

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        m = ctx.get("vehicle")
        return (isinstance(m, VehicleState) and v.in_play and m.in_play
                and moved.get(m.id) == activation_serial(game) and enemies(game, v, m)
                and maybe_within(game, v, m, "short"))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        m: VehicleState = ctx["vehicle"]
        moved.pop(m.id, None)
        if not (yield from is_within(game, v, m, "short", page=111, why="On Your Tail")):
            return
        game.emit("perk", perk="on_your_tail", source=source, page=111, vehicle=v.id,
                  target=m.id)
        game.add_hazards(m, 1, source, 111)
        yield from ()

    def nothing(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        yield from ()

    g.effects.on("place_slide", source, slid, priority=-100)
    at(g, "spin_start", Trigger(source, f"On Your Tail ({v.name})", spinning, nothing,
                                free_order=True))
    at(g, "movement_end", Trigger(source, f"On Your Tail ({v.name})", applies, run,
                                  free_order=True))


@RULES.rule("perk", "schadenfreude")
def schadenfreude(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Another vehicle wiping out within Short range of it, before or after a Flip, clears all
    its Hazard Tokens (p.111)."""
    v = need(vehicle, "schadenfreude")
    later: set[str] = g.memory(source, "later", set())

    def clear(game: Game, w: VehicleState) -> None:
        game.emit("perk", perk="schadenfreude", source=source, page=111, vehicle=v.id,
                  target=w.id)
        discard(game, v, v.hazards, source, 111)

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        w = ctx.get("vehicle")
        return isinstance(w, VehicleState) and w is not v and v.in_play

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        w: VehicleState = ctx["vehicle"]
        if (yield from is_within(game, v, w, "short", page=111, why="Schadenfreude")):
            if v.hazards:
                clear(game, w)
        else:
            later.add(w.id)  # looked at again once it is reset, after any Flip

    def after_flip(value: bool, ctx: dict[str, Any]) -> None:
        w = ctx.get("vehicle")
        if not g.facts.people and isinstance(w, VehicleState) and w.id in later:
            later.discard(w.id)
            if v.in_play and v.hazards:
                near = within(g, v, w, "short")
                g.facts.note("within_short", near)
                if near:
                    clear(g, w)

    def again(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        w: VehicleState = ctx["vehicle"]
        later.discard(w.id)
        if v.in_play and v.hazards and (yield from is_within(
                game, v, w, "short", page=111, why="Schadenfreude, after its Flip")):
            clear(game, w)

    def asks_again(ctx: dict[str, Any]) -> Any:
        # At a real table, asked again once the other vehicle is reset (ruling CP-18).
        w = ctx.get("vehicle")
        if ctx["game"].facts.people and isinstance(w, VehicleState) and w.id in later:
            return again
        return None

    at(g, "wipeout_start", Trigger(source, f"Schadenfreude ({v.name})", applies, run,
                                   free_order=True))
    g.effects.on("lose_control", source, after_flip, priority=-100)
    g.effects.add_flow("wipeout_reset", source, asks_again)


@RULES.rule("perk", "taunt")
def taunt(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the start of its Attack Step it rolls a skid die; anything but a Shift it may put on
    the dashboard of a vehicle within Short range, which must resolve it in its next Movement
    Step without rerolling it (p.111). With nobody in range no die is rolled; the die joins
    that step's skid dice and no Shift may cancel it (ruling PK-16)."""
    v = need(vehicle, "taunt")

    def others(game: Game) -> list[VehicleState]:
        return [t for t in game.state.in_play() if t.id != v.id]

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return any(maybe_within(game, v, t, "short") for t in others(game))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        near = yield from near_told(game, v, "short", others(game), page=111, why="Taunt")
        if not near:
            return  # nobody in range: no die is rolled (ruling PK-16)
        face = skid_face(game.roll(1, "taunt", source=source, page=111, vehicle=v.id)[0])
        if face is SkidFace.SHIFT:
            return
        pick = yield ask(v.player, "taunt", f"{v.name}: put the {face.value} on whose dashboard?",
                         [(NO, "nobody")] + [(t.id, t.name) for t in near],
                         source=source, page=111, vehicle=v.id)
        if pick == NO:
            return
        t = game.state.vehicles[str(pick)]
        key = TAUNTED + face.value
        t.conditions[key] = t.conditions.get(key, 0) + 1
        game.emit("perk", perk="taunt", source=source, page=111, vehicle=v.id, target=t.id,
                  faces=[face.value])

    at(g, "attack_start", Trigger(source, f"Taunt ({v.name})", applies, run, about=v))
    if not has_trigger(g, "skid_rolled", "perks@taunted"):
        at(g, "skid_rolled", Trigger("perks@taunted", "Taunted dice", _taunted, _resolve,
                                     free_order=True))


def _taunted(g: Game, ctx: dict[str, Any]) -> bool:
    m = ctx.get("vehicle")
    return isinstance(m, VehicleState) and any(k.startswith(TAUNTED) for k in m.conditions)


def _resolve(g: Game, ctx: dict[str, Any]) -> PerkFlow:
    m: VehicleState = ctx["vehicle"]
    sk: SkidResolution = ctx["sk"]
    faces = []
    for key in [k for k in m.conditions if k.startswith(TAUNTED)]:
        for _ in range(m.conditions.pop(key)):
            sk.locked.add(len(sk.faces))
            sk.faces.append(SkidFace(key[len(TAUNTED):]))
            faces.append(key[len(TAUNTED):])
    g.emit("perk", perk="taunt", source="perk:taunt", page=111, vehicle=m.id, faces=faces)
    yield from ()


@RULES.rule("perk", "out_run")
def out_run(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the start of its Attack Step every vehicle within Short range in a lower gear gains
    a Hazard Token (p.111)."""
    v = need(vehicle, "out_run")

    def slower(game: Game) -> list[VehicleState]:
        return [t for t in game.state.in_play() if t.id != v.id and t.gear < v.gear]

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return any(maybe_within(game, v, t, "short") for t in slower(game))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        targets = yield from near_told(game, v, "short", slower(game), page=111,
                                       why="Out Run")
        if not targets:
            return
        game.emit("perk", perk="out_run", source=source, page=111, vehicle=v.id,
                  targets=[t.id for t in targets])
        for t in targets:
            game.add_hazards(t, 1, source, 111)
        yield from ()

    at(g, "attack_start", Trigger(source, f"Out Run ({v.name})", applies, run,
                                  free_order=True, about=v))


def _hazardous(g: Game, t: VehicleState) -> list[tuple[str, bool]]:
    out = []
    for spec in g.catalog.templates:
        if template_use(g, t, spec.id, t.gear) is TemplateUse.HAZARDOUS:
            out += [(spec.id, False)] if spec.id in STRAIGHTS else [(spec.id, False),
                                                                    (spec.id, True)]
    return out


@RULES.rule("perk", "pit")
def pit(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """In its activation, in a Collision with an enemy vehicle that is not head-on, it may
    react with a PIT instead of a Smash Attack or an Evade: no dice, and once the Collision is
    resolved the enemy makes a forced move straight ahead on a template it counts as
    hazardous in its current gear, chosen by this vehicle's controller (p.111). Offered only
    when the enemy has such a template."""
    v = need(vehicle, "pit")

    def reactions(value: list[str], ctx: dict[str, Any]) -> list[str] | None:
        other = ctx.get("other")
        if (g.state.active == v.id
                and isinstance(other, VehicleState) and enemies(g, v, other)
                and ctx.get("orientation") != "head_on" and _hazardous(g, other)):
            return [*value, PIT]
        return None

    def label(value: dict[str, str], ctx: dict[str, Any]) -> dict[str, str]:
        return {**value, PIT: "PIT (no dice: push it onto a hazardous template)"}

    def dice(value: int, ctx: dict[str, Any]) -> int | None:
        return 0 if ctx.get("declared") == PIT else None

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        parties = ctx.get("parties", ())
        return any(p.vehicle is v and p.declared == PIT for p in parties)

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        t = next((o.vehicle for p, o in (ctx["parties"], ctx["parties"][::-1])
                  if p.vehicle is v and p.declared == PIT), None)
        if t is None or not t.in_play or not v.in_play:
            return
        options = _hazardous(game, t)
        if not options:
            return
        pick = str((yield ask(
            v.player, PIT, f"{v.name}: PIT {t.name} onto which template?",
            [(template_value(tid, m, False), f"{tid}{' (left)' if m else ''}")
             for tid, m in options], source=source, page=111, vehicle=v.id, target=t.id)))
        tid, mirror = pick.split("/")[0], pick.endswith("/left")
        game.emit("perk", perk=PIT, source=source, page=111, vehicle=v.id, target=t.id,
                  template=tid, mirror=mirror)
        yield from forced_move(game, t, tid, source=source, page=111, mirror=mirror)

    g.effects.on("collision_reactions", source, reactions, about=v)
    g.effects.on("reaction_labels", source, label, about=v)
    g.effects.on("smash_dice", source, dice, priority=-200, about=v)
    at(g, "collision_end", Trigger(source, f"PIT ({v.name})", applies, run))


@RULES.rule("perk", "unnerving_eye_contact")
def unnerving_eye_contact(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Enemy vehicles within Short range of it may not spend Shifts to discard Hazard Tokens
    (judged as their skid dice are resolved, p.111)."""
    v = need(vehicle, "unnerving_eye_contact")

    def setup(value: SkidResolution, ctx: dict[str, Any]) -> None:
        m = ctx.get("vehicle")
        if (not g.facts.people and isinstance(m, VehicleState) and v.in_play
                and enemies(g, v, m) and within(g, v, m, "short")):
            value.hazard_discard = False

    def asked(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        m: VehicleState = ctx["vehicle"]
        near = yield from is_within(game, v, m, "short", page=111,
                                    why="Unnerving Eye Contact")
        if near and game.facts.people:
            ctx["sk"].hazard_discard = False

    def asks(ctx: dict[str, Any]) -> Any:
        # At a real table, once its skid dice are rolled, when it has a Shift it might spend
        # on a Hazard: is it within Short of this vehicle? (ruling CP-18)
        game: Game = ctx["game"]
        m, sk = ctx.get("vehicle"), ctx.get("sk")
        if (game.facts.people or game.facts.recording) and isinstance(m, VehicleState) \
                and isinstance(sk, SkidResolution) and v.in_play and enemies(game, v, m) \
                and (sk.bonus_shifts > 0 or SkidFace.SHIFT in sk.faces):
            return asked
        return None

    g.effects.on("skid_setup", source, setup)
    g.effects.add_flow("skid_rolled", source, asks, priority=EYE_CONTACT_FIRST)
