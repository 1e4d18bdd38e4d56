"""Military perks (Refuelled p.109): Dead-Eye, Loader, Fully Loaded, Rapid Fire, Headshot,
Return Fire."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.attack import (
    HANDGUN,
    AttackOption,
    AttackResolution,
    Shot,
    Sight,
    attack_step,
)
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import VehicleState, WeaponMount
from carnage.games.refuelled.rules.perks._common import (
    EXTRA_ATTACK_STEP,
    NO,
    PerkFlow,
    Trigger,
    at,
    attack_step_serial,
    gain,
    need,
    once_per,
    yes_no,
)
from carnage.geometry.arcs import Arc
from carnage.kernel.effect_ids import EffectId
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

FULLY_LOADED_AMMO = 3
RETURN_FIRE_HAZARDS = 2
HEADSHOT_EXTRA = 1
"""A Critical Hit is 3 hits instead of 2 (p.109)."""


def _mount(v: VehicleState, key: str) -> WeaponMount | None:
    return next((m for m in v.weapons if m.key == key), None)


def extra_attack_step(g: Game, v: VehicleState, perk: str, eid: EffectId, page: int,
                      only: str | None = None) -> PerkFlow:
    """An Attack Step of ``v``'s own outside its usual one (Rapid Fire: only with the weapon
    ``only``; Return Fire), for the perk effect ``eid``. Logged as ``extra_attack_step`` so
    per-step limits start again."""
    g.emit(EXTRA_ATTACK_STEP, source=str(eid), page=page, vehicle=v.id, perk=perk, weapon=only)
    restrict = str(eid.part("only"))

    def supported(value: bool, ctx: dict[str, Any]) -> bool | None:
        if only is None:
            return None
        m = ctx.get("mount")
        key = m.key if isinstance(m, WeaponMount) else HANDGUN
        return value if key == only else False

    def options(value: list[AttackOption], ctx: dict[str, Any]) -> list[AttackOption] | None:
        if only is None:
            return None
        return [o for o in value if o.key == only]

    with g.temporary(restrict):
        g.effects.on("weapon_supported", restrict, supported, priority=-100, about=v)
        g.effects.on("attack_options", restrict, options, priority=-100, about=v)
        yield from attack_step(g, v)


@RULES.rule("perk", "dead_eye")
def dead_eye(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """+1 to hit for its shooting attacks at a target within Double range but beyond Medium
    (p.109); a natural 6 is still the only Critical Hit."""
    v = need(vehicle, "dead_eye")

    def to_hit(value: int, ctx: dict[str, Any]) -> int | None:
        t, shot = ctx.get("target"), ctx.get("shot")
        if ctx.get("attacker") is not v or not isinstance(t, VehicleState) \
                or not isinstance(shot, Shot):
            return None
        # Range as the attack measures it: the range ruler laid from the weapon's body in
        # its arc must reach the target (p.28), not the gap between footprints (ruling PK-25).
        if g.facts.people:  # what the people said as it was declared (ruling CP-18)
            told: dict[str, bool] = g.memory(DEAD_EYE_TOLD, "far", {})
            return value - 1 if told.get(f"{shot.key}>{t.id}") else None
        return value - 1 if _dead_eye_range(g, v, t, shot) else None

    def asked(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        from carnage.games.refuelled.engine.table_facts import judged

        shot: Shot = ctx["shot"]
        t = game.state.vehicles[shot.target]
        far = yield from judged(
            game, v.player, "dead_eye_range", f"{v.name}: is {t.name} within Double range "
            "of the attack but beyond Medium (Dead Eye)?",
            lambda: _dead_eye_range(game, v, t, shot), page=109, vehicle=v.id, target=t.id)
        if game.facts.people:  # kept in the state: a copy of the game knows it too
            game.memory(DEAD_EYE_TOLD, "far", {})[f"{shot.key}>{t.id}"] = far

    def asks(ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        return asked if game.facts.people or game.facts.recording else None

    g.effects.on("to_hit_penalty", source, to_hit)
    g.effects.add_flow("attack_declared", source, asks, about=v)


DEAD_EYE_TOLD = "table:dead_eye"
"""The memory of the Dead Eye ranges the people gave each attack (companion mode only)."""


def _dead_eye_range(g: Game, v: VehicleState, t: VehicleState, shot: Shot) -> bool:
    """The range ruler laid from the weapon's body in its arc reaches ``t`` at Double but not
    at Medium (p.28; ruling PK-25)."""
    mount = next((m for m in v.weapons if m.key == shot.key), None)
    sight = Sight(g, v).for_mount(mount)
    arc = Arc(shot.arc)

    def reaches(band: str) -> bool:
        return sight.check(t, arc, band, cover=False).in_range

    return reaches("double") and not reaches("medium")


@RULES.rule("perk", "loader")
def loader(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the start of its Attack Step it may give up one crew attack for the step to gain +1
    to hit with one weapon (its first attack with it) (p.109). Offered with 2+ crew (ruling
    PK-12)."""
    v = need(vehicle, "loader")
    state: dict[str, Any] = g.memory(source, "state", {"at": None, "key": None})

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return game.stat(v, "crew") >= 2

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        keys = [HANDGUN] + [m.key for m in v.weapons if m.weapon != HANDGUN]
        pick = yield ask(v.player, "loader", f"{v.name}: one crew loads which weapon (+1 to hit)?",
                         [(NO, "nobody")] + [(k, k) for k in keys], source=source, page=109,
                         vehicle=v.id)
        if pick == NO:
            return
        state.update(at=attack_step_serial(game), key=str(pick))
        game.emit("perk", perk="loader", source=source, page=109, vehicle=v.id,
                  weapon=str(pick))

    def loading(game: Game) -> bool:
        st = game.state
        return state["at"] == attack_step_serial(game) and st.step == "attack"

    def crew(value: int, ctx: dict[str, Any]) -> int | None:
        return value - 1 if loading(g) else None

    def to_hit(value: int, ctx: dict[str, Any]) -> int | None:
        shot: Shot = ctx["shot"]
        if loading(g) and shot.key == state["key"]:
            state["key"] = None  # one attack with that weapon
            return value - 1
        return None

    attack_step_serial(g)
    at(g, "attack_start", Trigger(source, f"Loader ({v.name})", applies, run, about=v))
    g.effects.on("stat:crew", source, crew, priority=-5, about=v)
    g.effects.on("to_hit_penalty", source, to_hit, about=v, key="attacker")


@RULES.rule("perk", "fully_loaded")
def fully_loaded(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """A shooting weapon with 3+ Ammo Tokens before one is discarded for the attack rolls one
    more die (p.109)."""
    v = need(vehicle, "fully_loaded")

    def dice(value: int, ctx: dict[str, Any]) -> int | None:
        shot: Shot = ctx["shot"]
        m = _mount(v, shot.key)
        if m is None or m.ammo is None:
            return None
        before = m.ammo if shot.extra else m.ammo + 1
        return value + 1 if before >= FULLY_LOADED_AMMO else None

    g.effects.on("attack_dice", source, dice, about=v, key="attacker")


@RULES.rule_with_id("perk", "rapid_fire")
def rapid_fire(g: Game, vehicle: VehicleState | None, eid: EffectId) -> None:
    """Once per round, after an Attack Step in which it attacked, it may take another Attack
    Step with one weapon it attacked with (p.109; ruling PK-13)."""
    source = str(eid)
    v = need(vehicle, "rapid_fire")
    free, use = once_per(g, "round", source)
    used: dict[str, Any] = g.memory(source, "used", {"at": None, "keys": []})

    def declared(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        if data.get("vehicle") != v.id:
            return
        if used["at"] != attack_step_serial(g):
            used.update(at=attack_step_serial(g), keys=[])
        key = str(data.get("weapon"))
        if key not in used["keys"]:
            used["keys"].append(key)

    def keys(game: Game) -> list[str]:
        if used["at"] != attack_step_serial(game):
            return []
        return [k for k in used["keys"] if k == HANDGUN or _loaded(v, k)]

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return free() and bool(keys(game))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        pick = yield ask(v.player, "rapid_fire", f"{v.name}: Rapid Fire with which weapon?",
                         [(NO, "no")] + [(k, k) for k in keys(game)], source=source, page=109,
                         vehicle=v.id)
        if pick == NO:
            return
        use()
        yield from extra_attack_step(game, v, "rapid_fire", eid, 109, only=str(pick))

    g.effects.on("logged:declare_attack", source, declared)
    at(g, "attack_end", Trigger(source, f"Rapid Fire ({v.name})", applies, run, about=v))


def _loaded(v: VehicleState, key: str) -> bool:
    m = _mount(v, key)
    return m is not None and (m.ammo is None or m.ammo > 0)


@RULES.rule("perk", "headshot")
def headshot(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Its shooting attacks' Critical Hits are 3 hits instead of 2 (p.109)."""
    v = need(vehicle, "headshot")
    last: dict[str, Any] = g.memory(source, "last", {"report": None})

    def scored(value: None, ctx: dict[str, Any]) -> None:
        data = ctx["data"]
        if data.get("vehicle") == v.id and isinstance(data.get("weapons"), list):
            last["report"] = (data.get("target"), list(data["weapons"]))

    def attack(value: AttackResolution, ctx: dict[str, Any]) -> None:
        report = last["report"]
        last["report"] = None
        if value.attacker is not v or report is None or report[0] != value.target.id:
            return
        extra = 0
        for grp, rep in zip(value.groups, report[1], strict=False):
            crits = int(rep.get("criticals", 0)) if isinstance(rep, dict) else 0
            grp.hits += HEADSHOT_EXTRA * crits
            extra += HEADSHOT_EXTRA * crits
        if extra:
            g.emit("perk", perk="headshot", source=source, page=109, vehicle=v.id,
                   target=value.target.id, hits=extra)

    g.effects.on("logged:attack_hits", source, scored)
    g.effects.on("attack", source, attack, priority=10)


@RULES.rule_with_id("perk", "return_fire")
def return_fire(g: Game, vehicle: VehicleState | None, eid: EffectId) -> None:
    """Once per Gear Phase, targeted by a shooting attack, it may take 2 Hazard Tokens to
    attack at once as in its own Attack Step (p.109), once that attack is resolved."""
    source = str(eid)
    v = need(vehicle, "return_fire")
    free, use = once_per(g, "phase", source)

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        res = ctx.get("resolution")
        return (isinstance(res, AttackResolution) and res.target is v and res.attacker is not v
                and v.in_play and free())

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        if not (yield from yes_no(v.player, "return_fire",
                                  f"{v.name}: take 2 Hazard Tokens to fire back now?",
                                  "fire back", "no", source=source, page=109,
                                  vehicle=v.id, target=ctx["resolution"].attacker.id)):
            return
        use()
        if gain(game, v, RETURN_FIRE_HAZARDS, source, 109) < RETURN_FIRE_HAZARDS:
            return
        yield from extra_attack_step(game, v, "return_fire", eid, 109)

    at(g, "after_attack", Trigger(source, f"Return Fire ({v.name})", applies, run))
