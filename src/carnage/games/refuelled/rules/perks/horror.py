"""Horror perks (Refuelled p.108): Purifying Flames, Ecstatic Visions, Sympathy for the Devil,
Highway to Hell, Violent Manifestation, Angel of Death."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.combat import roll_attack
from carnage.games.refuelled.engine.damage import EXPLOSION_DICE, HitGroup, suffer_damage, take_hits
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.hazards_on_table import place, remove
from carnage.games.refuelled.engine.movement import STRAIGHTS
from carnage.games.refuelled.engine.state import VehicleState
from carnage.games.refuelled.rules.perks._common import (
    NO,
    PerkFlow,
    Trigger,
    activation_serial,
    at,
    discard,
    friends,
    gain,
    maybe_within,
    near_told,
    need,
    own,
    yes_no,
)
from carnage.games.refuelled.rules.weapons import catch_fire, install_on_fire
from carnage.geometry.movement import MoveResult
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

FLAMES_MAX = 3
VISIONS_MAX = 3
HIGHWAY_DAMAGE = 2
ANGEL_MAX = 3
NAPALM = "napalm_dropper"
"""The Napalm Dropper's template kind (rules/dropped.py, p.79)."""
RULER = {"short_straight": "short", "medium_straight": "medium", "long_straight": "long"}
"""The straight movement templates are the range rulers (same size)."""


def burn(g: Game, v: VehicleState, amount: int, source: str, page: int) -> PerkFlow:
    """``v`` suffers ``amount`` damage with the Fire rule (it catches fire if it lost Hull
    Points). Returns the Hull Points lost."""
    before = v.hull_points
    yield from suffer_damage(g, v, amount, source=source, page=page, fire=True)
    lost = before - v.hull_points
    if lost > 0 and v.in_play:
        catch_fire(g, v, source, page)
    return lost


@RULES.rule("perk", "purifying_flames")
def purifying_flames(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the start of its activation it may suffer up to 3 damage (Fire; never reduced) to
    repair as many Hull Points on a friendly vehicle, not above its Hull Value (p.108)."""
    v = need(vehicle, "purifying_flames")
    install_on_fire(g)

    def hurt(game: Game) -> list[VehicleState]:
        return [t for t in game.state.in_play() if t.id != v.id and friends(game, v, t)
                and t.damage > 0]

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return v.in_play and bool(hurt(game))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        pick = yield ask(v.player, "purifying_flames", f"{v.name}: burn to repair whom?",
                         [(NO, "nobody")] + [(t.id, f"{t.name} ({t.damage} damage)")
                                             for t in hurt(game)], source=source, page=108,
                                             vehicle=v.id)
        if pick == NO:
            return
        t = game.state.vehicles[str(pick)]
        n = int((yield ask(v.player, "purifying_flames_damage",
                           f"{v.name}: suffer how much damage to repair {t.name}?",
                           [(i, str(i)) for i in range(1, min(FLAMES_MAX, t.damage) + 1)],
                           source=source, page=108, vehicle=v.id, target=t.id)))
        game.emit("perk", perk="purifying_flames", source=source, page=108, vehicle=v.id,
                  target=t.id, amount=n)
        yield from burn(game, v, n, source, 108)
        if t.in_play:
            t.damage = max(0, t.damage - n)
            game.emit("repair", source=source, page=108, vehicle=t.id, amount=n,
                      hull_points=t.hull_points)

    at(g, "activation_start", Trigger(source, f"Purifying Flames ({v.name})", applies, run,
                                      about=v))


@RULES.rule("perk", "ecstatic_visions")
def ecstatic_visions(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the start of its activation it may take up to 3 Hazard Tokens, each to discard one
    from a friendly vehicle (p.108)."""
    v = need(vehicle, "ecstatic_visions")

    def calm(game: Game) -> list[VehicleState]:
        return [t for t in game.state.in_play() if t.id != v.id and friends(game, v, t)
                and t.hazards > 0]

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return v.in_play and bool(calm(game))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        for _ in range(VISIONS_MAX):
            options = calm(game)
            if not options:
                return
            pick = yield ask(v.player, "ecstatic_visions",
                             f"{v.name}: take a Hazard Token to calm whom?",
                             [(NO, "stop")] + [(t.id, f"{t.name} ({t.hazards})")
                                               for t in options], source=source, page=108,
                                               vehicle=v.id)
            if pick == NO:
                return
            if gain(game, v, 1, source, 108):
                discard(game, game.state.vehicles[str(pick)], 1, source, 108)

    at(g, "activation_start", Trigger(source, f"Ecstatic Visions ({v.name})", applies, run,
                                      about=v))


@RULES.rule("perk", "sympathy_for_the_devil")
def sympathy_for_the_devil(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Evading, its controller may name a friendly vehicle within Medium range: its gear joins
    this vehicle's for the evade dice, and it suffers the same unsaved damage, Blast Hazards
    and fire (p.108; ruling PK-10)."""
    v = need(vehicle, "sympathy_for_the_devil")
    install_on_fire(g)
    state: dict[str, Any] = g.memory(
        source, "state", {"friend": None, "dice": None, "collision": 0})

    def friends_of(game: Game) -> list[VehicleState]:
        return [t for t in game.state.in_play() if t.id != v.id and friends(game, v, t)]

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return any(maybe_within(game, v, t, "medium") for t in friends_of(game))

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        state.update(friend=None, dice=None, collision=0)
        near = yield from near_told(game, v, "medium", friends_of(game), page=108,
                                    why="Sympathy for the Devil")
        if not near:
            return
        pick = yield ask(v.player, "sympathy_for_the_devil",
                         f"{v.name}: share this evade with a friendly vehicle?",
                         [(NO, "no")] + [(t.id, f"{t.name} (gear {t.gear})")
                                         for t in near], source=source, page=108,
                                         vehicle=v.id)
        if pick == NO:
            return
        f = game.state.vehicles[str(pick)]
        state.update(friend=f, dice=f.gear, collision=1 if ctx.get("collision") else 0)
        game.emit("perk", perk="sympathy_for_the_devil", source=source, page=108,
                  vehicle=v.id, target=f.id, gear=f.gear)

    def dice(value: int, ctx: dict[str, Any]) -> int | None:
        if state["dice"] is not None:
            extra = int(state["dice"])
            state["dice"] = None
            return value + extra
        return None

    def shared(game: Game, ctx: dict[str, Any]) -> bool:
        return ctx.get("target") is v and isinstance(state["friend"], VehicleState) \
            and not state["collision"]

    def share_hits(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        f: VehicleState = state["friend"]
        state["friend"] = None
        groups: list[HitGroup] = ctx["groups"]
        if not f.in_play:
            return
        if int(ctx["blast"]):
            game.add_hazards(f, int(ctx["blast"]), source, 108)
        fire = any("fire" in grp.rules and grp.damaging and grp.uncancelled for grp in groups)
        if fire:
            yield from burn(game, f, int(ctx["damage"]), source, 108)
        else:
            yield from suffer_damage(game, f, int(ctx["damage"]), source=source, page=108)

    def collision_hurt(value: int, ctx: dict[str, Any]) -> None:
        if state["collision"]:
            state["collision"] = 1 + int(value)  # remembered for the end of the Collision

    def collided(game: Game, ctx: dict[str, Any]) -> bool:
        return any(p.vehicle is v for p in ctx.get("parties", ())) and \
            isinstance(state["friend"], VehicleState) and int(state["collision"]) > 0

    def share_collision(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        f: VehicleState = state["friend"]
        dmg = int(state["collision"]) - 1
        state.update(friend=None, collision=0)
        if f.in_play and dmg > 0:
            yield from suffer_damage(game, f, dmg, source=source, page=108)

    at(g, "before_evade", Trigger(source, f"Sympathy for the Devil ({v.name})", applies, run,
                                  about=v))
    g.effects.on("evade_dice", source, dice, about=v)
    at(g, "hits_resolved", Trigger(source, f"Sympathy for the Devil ({v.name})", shared,
                                   share_hits))
    g.effects.on("collision_damage", source, collision_hurt, priority=-100, about=v)
    at(g, "collision_end", Trigger(source, f"Sympathy for the Devil ({v.name})", collided,
                                   share_collision))


@RULES.rule("perk", "highway_to_hell")
def highway_to_hell(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """After a Movement Step on a straight template it may suffer 2 damage (Fire); if that
    took Hull Points it may leave the template as a Napalm template until its next
    activation starts (p.108)."""
    v = need(vehicle, "highway_to_hell")
    install_on_fire(g)
    state: dict[str, Any] = g.memory(source, "state", {"move": None, "at": None, "left": None})

    def moved(value: None, ctx: dict[str, Any]) -> None:
        result = ctx.get("result")
        if isinstance(result, MoveResult) and g.state.active == v.id:
            # Only what it needs, as data: the template and where it was laid.
            state.update(move={"template": result.path.template_id,
                               "start": result.path.pose_at(0.0)}, at=activation_serial(g))

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        m = state["move"]
        return (state["at"] == activation_serial(game)
                and isinstance(m, dict) and m["template"] in STRAIGHTS)

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        m: dict[str, Any] = state["move"]
        state["move"] = None
        if not (yield from yes_no(v.player, "highway_to_hell",
                                  f"{v.name}: suffer 2 damage to burn the road?",
                                  "burn", "no", source=source, page=108, vehicle=v.id)):
            return
        game.emit("perk", perk="highway_to_hell", source=source, page=108, vehicle=v.id,
                  template=m["template"])
        lost = yield from burn(game, v, HIGHWAY_DAMAGE, source, 108)
        if not lost or not v.in_play or game.state.finished:
            return
        if (yield from yes_no(v.player, "highway_to_hell_napalm",
                              f"{v.name}: leave the template as Napalm?", "leave it", "no",
                              source=source, page=108, vehicle=v.id)):
            start = m["start"]
            mark = len(game.state.dropped)
            yield from place(game, NAPALM, RULER[m["template"]], start, placed_by=v.id,
                             player=v.player, source=source, page=108)
            if len(game.state.dropped) > mark:
                state["left"] = list(game.state.dropped)[-1]

    def clear(value: None, ctx: dict[str, Any]) -> None:
        if ctx["data"].get("vehicle") == v.id and state["left"] is not None:
            tid, state["left"] = state["left"], None
            remove(g, str(tid), reason="Highway to Hell ends", source=source, page=108)

    g.effects.on("after_move", source, moved, about=v)
    at(g, "movement_end", Trigger(source, f"Highway to Hell ({v.name})", applies, run, about=v))
    g.effects.on("logged:activation", source, clear)


@RULES.rule("perk", "violent_manifestation")
def violent_manifestation(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Respawned, it attacks every other vehicle within Medium range as an exploding wreck of
    its weight would, with Blast and Fire (p.108)."""
    v = need(vehicle, "violent_manifestation")
    install_on_fire(g)

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        n = EXPLOSION_DICE[v.weight]
        targets = yield from near_told(game, v, "medium", [
            t for t in game.state.in_play() if t.id != v.id], page=108,
            why="Violent Manifestation")
        game.emit("perk", perk="violent_manifestation", source=source, page=108,
                  vehicle=v.id, dice=n, targets=[t.id for t in targets])
        for t in targets:
            if not t.in_play or game.state.finished:
                continue
            hit = roll_attack(game, n, why="violent manifestation", source=source, page=108,
                              vehicle=t.id, origin=v.id)
            game.emit("attack_hits", source=source, page=108, target=t.id, origin=v.id,
                      hits=hit.hits, criticals=hit.criticals)
            yield from take_hits(game, t, [HitGroup(source, hit.hits, rules=("blast", "fire"))],
                                 source=source, page=108)

    at(g, "respawned", Trigger(source, f"Violent Manifestation ({v.name})", own(v), run))


@RULES.rule("perk", "angel_of_death")
def angel_of_death(g: Game, vehicle: VehicleState | None, source: str) -> None:
    """Before an attack's dice are rolled it may suffer up to 3 damage to add as many dice to
    one weapon in that attack (p.108)."""
    v = need(vehicle, "angel_of_death")

    def applies(game: Game, ctx: dict[str, Any]) -> bool:
        return ctx.get("attacker") is v and v.in_play and bool(ctx["fired"])

    def run(game: Game, ctx: dict[str, Any]) -> PerkFlow:
        fired: list[tuple[Any, Any, int, int]] = ctx["fired"]
        n = int((yield ask(v.player, "angel_of_death",
                           f"{v.name}: suffer damage for extra attack dice?",
                           [(i, f"{i} damage, +{i} dice" if i else "none")
                            for i in range(ANGEL_MAX + 1)], source=source, page=108, vehicle=v.id)))
        if not n:
            return
        i = 0
        if len(fired) > 1:
            i = int((yield ask(v.player, "angel_of_death_weapon",
                               f"{v.name}: add the dice to which weapon?",
                               [(k, str(s.key)) for k, (s, _, _, _) in enumerate(fired)],
                               source=source, page=108, vehicle=v.id)))
        s, w, dice, pen = fired[i]
        fired[i] = (s, w, dice + n, pen)
        game.emit("perk", perk="angel_of_death", source=source, page=108, vehicle=v.id,
                  weapon=str(s.key), dice=n)
        yield from suffer_damage(game, v, n, source=source, page=108)

    at(g, "attack_roll", Trigger(source, f"Angel of Death ({v.name})", applies, run))
