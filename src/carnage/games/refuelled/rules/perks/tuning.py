"""Tuning perks (Refuelled pp.114-115): Fenderkiss, Rear Drive, Delicate Touch, Momentum,
Purring, Skiing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.catalog import TemplateUse
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.skid import SkidResolution
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.rules.perks._common import (
    NO,
    PerkFlow,
    Trigger,
    activation_serial,
    anytime,
    at,
    face_label,
    gain,
    need,
    own,
    yes_no,
)
from carnage.kernel.dice import SkidFace, skid_face
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

FENDERKISS_DICE = 2
CENTRE, FRONT = "centre", "front"
SWERVY = (SkidFace.SLIDE, SkidFace.SPIN)
PURRED = (SkidFace.SPIN, SkidFace.SLIDE, SkidFace.HAZARD)
SKIING = "skiing"
SKIING_HAZARDS = 3
SKIING_HANDLING = 3


@RULES.rule("perk", "fenderkiss")
def fenderkiss(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Its smash attacks roll 2 dice fewer, and so do smash attacks at it (p.114)."""
    v = need(vehicle, "fenderkiss")

    def dice(value: int, ctx: dict[str, Any]) -> int | None:
        n = sum(FENDERKISS_DICE for who in ("vehicle", "other") if ctx.get(who) is v)
        return value - n if n else None

    g.effects.on("smash_dice", source, dice, priority=-10)


@RULES.rule("perk", "rear_drive")
def rear_drive(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """A Spin may pivot it about the centre of its front edge instead of its centre
    (p.115)."""
    v = need(vehicle, "rear_drive")

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        pick = yield ask(v.player, "rear_drive", f"{v.name}: spin about which point?",
                         [(CENTRE, "its centre"), (FRONT, "the centre of its front edge")],
                         source=source, page=115, vehicle=v.id)
        ctx["about_front"] = pick == FRONT

    at(g, "spin_start", Trigger(source, f"Rear Drive ({v.name})", own(v), run))


@RULES.rule("perk", "delicate_touch")
def delicate_touch(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Hazard icons on templates mean nothing to it: hazardous counts as permitted (p.115)."""
    v = need(vehicle, "delicate_touch")

    def use(value: TemplateUse, ctx: dict[str, Any]) -> TemplateUse | None:
        return TemplateUse.PERMITTED if value is TemplateUse.HAZARDOUS else None

    g.effects.on("template_use", source, use, priority=-20, about=v)


@RULES.rule("perk", "momentum")
def momentum(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Resolving its skid dice it may set aside a Slide or Spin (which must then be resolved)
    to reroll another skid die, as often as it likes (p.115; ruling PK-23)."""
    v = need(vehicle, "momentum")

    def swervy(sk: SkidResolution) -> list[int]:
        return [i for i, f in enumerate(sk.faces) if f in SWERVY and i not in sk.locked]

    def others(sk: SkidResolution, i: int) -> list[int]:
        return [j for j in range(len(sk.faces)) if j != i and j not in sk.locked]

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        sk: SkidResolution = ctx["sk"]
        return sk.rolled and any(others(sk, i) for i in swervy(sk))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        sk: SkidResolution = ctx["sk"]
        while True:
            keep = [i for i in swervy(sk) if others(sk, i)]
            if not keep:
                return
            pick = yield ask(v.player, "momentum", f"{v.name}: set aside which die to reroll "
                             "another?", [(NO, "stop")] + [(i, face_label(sk, i)) for i in keep],
                             source=source, page=115, vehicle=v.id)
            if pick == NO:
                return
            i = int(pick)
            sk.locked.add(i)
            j = int((yield ask(v.player, "momentum_reroll", f"{v.name}: reroll which die?",
                               [(j, face_label(sk, j)) for j in others(sk, i)],
                               source=source, page=115, vehicle=v.id)))
            sk.faces[j] = skid_face(ctx["dice"].roll(1)[0])
            game.emit("skid", source=source, page=115, vehicle=v.id,
                      faces=[f.value for f in sk.faces])

    at(g, "skid_rolled", Trigger(source, f"Momentum ({v.name})", applies, run, about=v))


@RULES.rule("perk", "purring")
def purring(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """In each activation it gains at most 1 Hazard Token from Spin results, 1 from Slide
    results and 1 from Hazard results (p.115)."""
    v = need(vehicle, "purring")
    taken: dict[str, Any] = g.memory(source, "taken", {"at": None, "n": {}})

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        sk: SkidResolution = ctx["sk"]
        if taken["at"] != activation_serial(game):
            taken.update(at=activation_serial(game), n={f: 0 for f in PURRED})
        spared = []
        for i, f in enumerate(sk.faces):
            if f not in PURRED or i in sk.cancelled or i in sk.no_hazard:
                continue
            if taken["n"][f] >= 1:
                sk.no_hazard.add(i)
                spared.append(f.value)
            else:
                taken["n"][f] += 1
        if spared:
            game.emit("perk", perk="purring", source=source, page=115, vehicle=v.id,
                      spared=spared)
        yield from ()

    at(g, "skid_finish", Trigger(source, f"Purring ({v.name})", anytime, run,
                                 free_order=True, about=v))


@RULES.rule("perk", SKIING)
def skiing(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """With Handling 3+, at the end of its Movement Step it may take 3 Hazard Tokens: until its
    next activation starts, other vehicles' Movement Steps ignore it, backing up along their
    template if they would end on it (p.115)."""
    v = need(vehicle, SKIING)

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return game.stat(v, "handling") >= SKIING_HANDLING and SKIING not in v.conditions

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        take = yield from yes_no(v.player, SKIING, f"{v.name}: take 3 Hazard Tokens to be "
                                 "ignored by other vehicles' moves?", "ski", "no",
                                 source=source, page=115, vehicle=v.id)
        if take and gain(game, v, SKIING_HAZARDS, source, 115) == SKIING_HAZARDS:
            v.conditions[SKIING] = 1
            game.emit("perk", perk=SKIING, source=source, page=115, vehicle=v.id)

    def ignored(value: set[str], ctx: dict[str, Any]) -> set[str] | None:
        m = ctx.get("vehicle")
        if m is v or SKIING not in v.conditions or not v.in_play:
            return None
        return set(value) | {bid for bid, _ in v.bodies()}

    def over(value: None, ctx: dict[str, Any]) -> None:
        if ctx["data"].get("vehicle") == v.id:
            v.conditions.pop(SKIING, None)

    at(g, "movement_end", Trigger(source, f"Skiing ({v.name})", applies, run, about=v))
    g.effects.on("movement_ignoring", source, ignored)
    g.effects.on("logged:activation", source, over)
