"""Precision perks (Refuelled p.110): Mister Fahrenheit, Moment of Glory, Restraint,
Expertise, Trick Driving, Easy Rider."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.catalog import TemplateUse
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.movement import printed_use
from carnage.games.refuelled.engine.skid import SkidResolution
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.rules.perks._common import (
    NO,
    PerkFlow,
    Trigger,
    activation_serial,
    at,
    drop_face,
    face_label,
    need,
    once_per,
    yes_no,
)
from carnage.kernel.dice import SkidFace
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

FAHRENHEIT_CAP = 2
"""Hazards from Collisions in one activation, at most (p.110)."""
RANK = {TemplateUse.NOT_PERMITTED: 0, TemplateUse.HAZARDOUS: 1, TemplateUse.PERMITTED: 2,
        TemplateUse.TRIVIAL: 3}
"""How good a template's use is for the driver: trivial beats permitted beats hazardous."""
KEEP = "keep"


@RULES.rule("perk", "mister_fahrenheit")
def mister_fahrenheit(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """It gains at most 2 Hazard Tokens from Collisions in any one activation (p.110)."""
    v = need(vehicle, "mister_fahrenheit")
    taken: dict[str, int] = g.memory(source, "taken", {"at": -1, "n": 0})

    def cap(value: int, ctx: dict[str, Any]) -> int | None:
        if taken["at"] != activation_serial(g):
            taken.update(at=activation_serial(g), n=0)
        allowed = max(0, min(int(value), FAHRENHEIT_CAP - taken["n"]))
        taken["n"] += allowed
        return allowed

    g.effects.on("collision_hazards", source, cap, priority=-50, about=v)


@RULES.rule("perk", "moment_of_glory")
def moment_of_glory(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Once per game, after rolling its skid dice and before resolving them, it may turn any
    of them to any face (p.110)."""
    v = need(vehicle, "moment_of_glory")
    free, use = once_per(g, "game", source)

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        sk: SkidResolution = ctx["sk"]
        return free() and sk.rolled and bool(sk.faces)

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        sk: SkidResolution = ctx["sk"]
        if not (yield from yes_no(v.player, "moment_of_glory",
                                  f"{v.name}: use its Moment of Glory on these skid dice?",
                                  "set the dice", "not now", source=source, page=110,
                                  vehicle=v.id)):
            return
        use()
        for i in range(len(sk.faces)):
            if i in sk.locked:
                continue
            pick = str((yield ask(
                v.player, "moment_of_glory_face", f"{v.name}: {face_label(sk, i)} becomes?",
                [(KEEP, f"keep {sk.faces[i].value}")] + [
                    (f.value, f.value) for f in SkidFace if f is not sk.faces[i]],
                source=source, page=110, vehicle=v.id)))
            if pick != KEEP:
                sk.faces[i] = SkidFace(pick)
        game.emit("perk", perk="moment_of_glory", source=source, page=110, vehicle=v.id,
                  faces=[f.value for f in sk.faces])

    at(g, "skid_rolled", Trigger(source, f"Moment of Glory ({v.name})", applies, run, about=v))


@RULES.rule("perk", "restraint")
def restraint(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Changing down with a Shift it may discard a Hazard Token instead of gaining one
    (p.110); asked once per Movement Step, when a change down is possible (ruling PK-14)."""
    v = need(vehicle, "restraint")

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        sk: SkidResolution = ctx["sk"]
        return (sk.shifts_available > 0
                and sk.gear > max(1, sk.min_gear) and sk.hazard_discard)

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        sk: SkidResolution = ctx["sk"]
        if (yield from yes_no(v.player, "restraint",
                              f"{v.name}: changing down this step discards a Hazard Token "
                              "instead of gaining one?", "use Restraint", "no", source=source,
                              page=110, vehicle=v.id)):
            sk.down_hazard = -1
            game.emit("perk", perk="restraint", source=source, page=110, vehicle=v.id)

    at(g, "skid_rolled", Trigger(source, f"Restraint ({v.name})", applies, run, about=v))


@RULES.rule("perk", "expertise")
def expertise(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """+1 Handling (p.110): the team builder adds it to the vehicle's Handling
    (team/specials.py ``Expertise``), so the game's VehicleState already carries it and
    nothing more happens in play (a second +1 here would count it twice)."""
    need(vehicle, "expertise")


@RULES.rule("perk", "trick_driving")
def trick_driving(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """It picks templates as if its gear were one higher or lower: each template counts as
    the best of its uses in the three gears (ruling PK-1: the driver's best choice)."""
    v = need(vehicle, "trick_driving")

    def use(value: TemplateUse, ctx: dict[str, Any]) -> TemplateUse | None:
        gear = int(ctx["gear"])
        tid = str(ctx["template"])
        top = g.stat(v, "max_gear")
        best = value
        for other in (gear - 1, gear + 1):  # as printed: the book's, or the team's own icons
            if 1 <= other <= top and RANK[(u := printed_use(g, v, tid, other))] > RANK[best]:
                best = u
        return best

    g.effects.on("template_use", source, use, priority=-10, about=v)


@RULES.rule("perk", "easy_rider")
def easy_rider(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Once per round it may discard one rolled skid die before the results apply (p.110)."""
    v = need(vehicle, "easy_rider")
    free, use = once_per(g, "round", source)

    def choices(sk: SkidResolution) -> list[int]:
        return [i for i in range(len(sk.faces)) if i not in sk.locked]

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        sk: SkidResolution = ctx["sk"]
        return free() and sk.rolled and bool(choices(sk))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        sk: SkidResolution = ctx["sk"]
        pick = yield ask(v.player, "easy_rider", f"{v.name}: discard a skid die?",
                         [(NO, "keep them all")] + [(i, face_label(sk, i))
                                                    for i in choices(sk)],
                         source=source, page=110, vehicle=v.id)
        if pick == NO:
            return
        use()
        face = sk.faces[int(pick)].value
        drop_face(sk, int(pick))
        game.emit("perk", perk="easy_rider", source=source, page=110, vehicle=v.id,
                  discarded=face, faces=[f.value for f in sk.faces])

    at(g, "skid_rolled", Trigger(source, f"Easy Rider ({v.name})", applies, run, about=v))
