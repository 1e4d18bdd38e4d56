"""The beasts no player owns: Big Game Hunter's giant radioactive creatures (Refuelled
pp.144-145) and Truckasaurus (pp.152-153). Both are neutral vehicles
(scenarios/neutral.py); this module builds them and installs their own rules as
effects, so the engine never asks what they are.

Creatures (p.144): Heavyweight, Crew 1, 20 Hull Points; no skid dice and no Hazards; a
turret Flamethrower that never runs out and a Ram on every facing; they evade with 3 dice and
always answer a Collision with a Smash Attack. Enraged: a creature that took 2 or more damage
from attacks during an activation activates straight after it, driven by the player who did
it. Roar: at the start of its activation it may pivot to face the last vehicle that attacked
it. Acidic Ichor: at most once a step, losing Hull Points makes it attack every vehicle
within Medium with 1 die at the end of that step. Wrecking one earns its last attacker's
controller a kill and 2 Audience Votes (p.145).

Truckasaurus (p.152): Heavyweight, Handling 2, Crew 4, Hull Points that never run out; no
Push It, no Hazards; pivots at the start of its activation in any gear; Up and Over; turret
Flamethrower, 125mm Cannon and Harpoon plus a Wrecking Ball, all with unlimited ammo; Rams on
every facing; the Murder Tractor and Boarding Party perks; immune to what weapons do to it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from carnage.catalog.models import Weight
from carnage.games.refuelled.engine.collision import SMASH
from carnage.games.refuelled.engine.combat import roll_attack
from carnage.games.refuelled.engine.damage import HitGroup, take_hits
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.movement import pivot_vehicle
from carnage.games.refuelled.engine.state import UpgradeMount, VehicleState, WeaponMount
from carnage.games.refuelled.engine.table_facts import judged, reached
from carnage.games.refuelled.engine.votes import gain_votes
from carnage.games.refuelled.rules.perks._common import gap
from carnage.games.refuelled.scenarios.neutral import NEUTRAL_GEAR, neutral_activation
from carnage.geometry.footprints import footprint
from carnage.geometry.shapes import Pose
from carnage.kernel.decisions import Decision, Interval

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

CREATURE_TYPE = "creature"
TRUCK_TYPE = "truckasaurus"
CREATURE_PAGE = 144
TRUCK_PAGE = 152
CREATURE_HULL = 20
CREATURE_EVADE_GEAR = 3
ENRAGE_DAMAGE = 2
KILL_VOTES = 2
TRUCK_HULL = 99
"""Truckasaurus's Hull Value as shown; no damage ever lands on it (infinite Hull Points)."""
FACINGS = ("front", "rear", "left", "right")
CREATURE_EFFECT = "scenario:creatures"
TRUCK_EFFECT = "scenario:truckasaurus_rules"
MEMORY = "beasts"
KILLS = "kills"
"""The creature-kill tally (common/score.py) of Big Game Hunter (p.145)."""
PARKED = Pose(-400.0, -400.0, 90.0)


def heavy_base() -> tuple[float, float]:
    """Rulings BGH-1, TR-1: neither gives a footprint; both use the Heavyweight base of
    p.177 (the project's heavyweight footprint)."""
    return footprint("monster_truck")


def is_creature(v: VehicleState | None) -> bool:
    return v is not None and v.neutral and v.type == CREATURE_TYPE


def is_truckasaurus(v: VehicleState | None) -> bool:
    return v is not None and v.neutral and v.type == TRUCK_TYPE


def _rams() -> list[UpgradeMount]:
    return [UpgradeMount(f"ram#{i}", "ram", f) for i, f in enumerate(FACINGS)]


def make_creature(n: int, pose: Pose = PARKED) -> VehicleState:
    """Creature ``n`` (p.144), parked off the table until it is placed."""
    length, width = heavy_base()
    return VehicleState(
        id=f"creature-{n}", name=f"Creature {n}", player=0, type=CREATURE_TYPE,
        weight=Weight.HEAVYWEIGHT, hull=CREATURE_HULL, handling=0, max_gear=NEUTRAL_GEAR,
        crew=1, length=length, width=width, pose=pose,
        weapons=[WeaponMount("flamethrower#0", "flamethrower", "turret", None)],
        upgrades=["ram"], fitted=_rams(), neutral=True,
    )


def make_truckasaurus(pose: Pose = PARKED) -> VehicleState:
    """Truckasaurus (p.152): every weapon's ammo is None, i.e. it never runs out."""
    length, width = heavy_base()
    return VehicleState(
        id="truckasaurus", name="Truckasaurus", player=0, type=TRUCK_TYPE,
        weight=Weight.HEAVYWEIGHT, hull=TRUCK_HULL, handling=2, max_gear=NEUTRAL_GEAR,
        crew=4, length=length, width=width, pose=pose,
        weapons=[WeaponMount("flamethrower#0", "flamethrower", "turret", None),
                 WeaponMount("125mm_cannon#1", "125mm_cannon", "turret", None),
                 WeaponMount("harpoon#2", "harpoon", "turret", None),
                 WeaponMount("wrecking_ball#3", "wrecking_ball", None, None)],
        upgrades=["ram"], fitted=_rams(), perks=["murder_tractor", "boarding_party"],
        special_rules=["up_and_over"], neutral=True,
    )


def memory(game: Game) -> dict[str, Any]:
    """The beasts' progress in the state: who last attacked each beast, damage from each
    player this activation, creatures whose Ichor is due."""
    sc: dict[str, Any] = game.state.scenario.setdefault(MEMORY, {})
    for key in ("struck", "rage"):
        sc.setdefault(key, {})
    for key in ("ichor", "ichor_done"):
        sc.setdefault(key, [])
    return sc


def facing_angle(v: VehicleState, x: float, y: float) -> float:
    """The pivot (degrees anticlockwise, -180..180) that points ``v``'s front at (x, y)."""
    want = math.degrees(math.atan2(y - v.pose.y, x - v.pose.x))
    return (want - v.pose.heading + 180.0) % 360.0 - 180.0


# -- shared by both beasts -------------------------------------------------------------------
def _no_hazards(value: Any, ctx: dict[str, Any]) -> Any:
    v = ctx.get("vehicle")
    return 0 if is_creature(v) or is_truckasaurus(v) else None


def _always_smash(value: Any, ctx: dict[str, Any]) -> Any:
    v = ctx.get("vehicle")
    return [SMASH] if is_creature(v) or is_truckasaurus(v) else None


# -- creatures -------------------------------------------------------------------------------
def install_creatures(game: Game) -> None:
    """The creatures' rules (p.144), once per game (call from the scenario's ``install``)."""
    fx = game.effects
    if fx.has("skid_setup", CREATURE_EFFECT):
        return

    def no_skid(value: Any, ctx: dict[str, Any]) -> Any:
        if is_creature(ctx.get("vehicle")):
            value.handling = 0
            value.extra_dice = 0
        return None

    def evade(value: Any, ctx: dict[str, Any]) -> Any:
        return CREATURE_EVADE_GEAR if is_creature(ctx.get("vehicle")) else None

    def struck(value: Any, ctx: dict[str, Any]) -> None:
        # The last vehicle to attack each creature: shots (attack_hits) and smash attacks.
        data = ctx["data"]
        target = game_of(ctx).state.vehicles.get(str(data.get("target")))
        who = data.get("vehicle", data.get("attacker"))
        if is_creature(target) and isinstance(who, str) and who in game_of(ctx).state.vehicles:
            assert target is not None
            memory(game_of(ctx))["struck"][target.id] = who

    def damaged(value: Any, ctx: dict[str, Any]) -> None:
        g = game_of(ctx)
        data = ctx["data"]
        v = g.state.vehicles.get(str(data.get("vehicle")))
        if not is_creature(v):
            return
        assert v is not None
        mem = memory(g)
        if v.id not in mem["ichor"]:
            mem["ichor"].append(v.id)
        striker = g.state.vehicles.get(str(mem["struck"].get(v.id)))
        # Ruling BGH-4: only attacks by a player's own vehicles enrage (a creature is not
        # anyone's); damage from shots and smash attacks counts, totalled over the activation.
        source = g.log.events[-1].source if len(g.log) else ""
        if source in ("attack", "collision") and striker is not None \
                and striker.in_team:
            rage = mem["rage"].setdefault(v.id, {})
            key = str(striker.player)
            rage[key] = int(rage.get(key, 0)) + int(data.get("amount", 0))

    def wrecked(value: Any, ctx: dict[str, Any]) -> None:
        g = game_of(ctx)
        v = g.state.vehicles.get(str(ctx["data"].get("vehicle")))
        if not is_creature(v):
            return
        assert v is not None
        mem = memory(g)
        striker = g.state.vehicles.get(str(mem["struck"].get(v.id)))
        if striker is None or not striker.in_team:
            g.emit("creature_slain", source="big_game_hunter", page=145, vehicle=v.id,
                   player=None)
            return
        from carnage.games.refuelled.scenarios.common import score

        p = striker.player
        total = score.add(g, KILLS, 1, player=p, source="big_game_hunter", page=145,
                          reason=f"wrecked {v.id}")
        g.emit("creature_kill", source="big_game_hunter", page=145, vehicle=v.id,
               player=p, by=striker.id, kills=total)
        gain_votes(g, p, KILL_VOTES, source="big_game_hunter", page=145, vehicle=v.id)

    def fresh_activation(game: Game, ctx: dict[str, Any]) -> Flow:
        memory(game)["rage"] = {}
        yield from ()

    def roar(game: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        foe = game.state.vehicles.get(str(memory(game)["struck"].get(v.id)))
        if foe is None or not foe.in_play or foe.id == v.id:
            return
        pick = yield ask(v.player, "roar", f"{v.name}: Roar, pivoting to face {foe.name}?",
                         [("roar", f"pivot to face {foe.name}"), ("no", "no pivot")],
                         source="roar", page=145, vehicle=v.id, target=foe.id)
        if pick == "roar":
            yield from pivot_vehicle(game, v, facing_angle(v, foe.pose.x, foe.pose.y),
                                     "roar", 145)

    def enraged(game: Game, ctx: dict[str, Any]) -> Flow:
        yield from enrage(game, ctx["vehicle"])

    def ichor(game: Game, ctx: dict[str, Any]) -> Flow:
        yield from acidic_ichor(game)

    fx.on("skid_setup", CREATURE_EFFECT, no_skid)
    fx.on("hazards_gained", CREATURE_EFFECT, _no_hazards, priority=-1000)
    fx.on("evade_dice", CREATURE_EFFECT, evade, priority=-1000)
    fx.on("collision_reactions", CREATURE_EFFECT, _always_smash, priority=-1000)
    fx.on("logged:attack_hits", CREATURE_EFFECT, struck)
    fx.on("logged:smash_attack", CREATURE_EFFECT, struck)
    fx.on("logged:damage", CREATURE_EFFECT, damaged)
    fx.on("logged:wrecked", CREATURE_EFFECT, wrecked)
    fx.add_flow("activation_start", CREATURE_EFFECT, lambda ctx: fresh_activation, 900)
    fx.add_flow("activation_start", CREATURE_EFFECT + ":roar",
                lambda ctx: roar if is_creature(ctx.get("vehicle")) else None, 50)
    fx.add_flow("after_activation", CREATURE_EFFECT, lambda ctx: enraged, -100)
    fx.add_flow("step_end", CREATURE_EFFECT, lambda ctx: ichor, -100)


def game_of(ctx: dict[str, Any]) -> Game:
    g: Game = ctx["game"]
    return g


def triggered(game: Game) -> dict[str, int]:
    """Creatures in play that took 2+ damage from one player's attacks this activation, with
    that player (ruling BGH-4; most damage first, then the lowest seat)."""
    out: dict[str, int] = {}
    for cid, by in memory(game)["rage"].items():
        v = game.state.vehicles.get(cid)
        if v is None or not v.in_play:
            continue
        best = sorted(((int(n), -int(p)) for p, n in by.items()), reverse=True)
        if best and best[0][0] >= ENRAGE_DAMAGE:
            out[cid] = -best[0][1]
    return out


def enrage(game: Game, after: VehicleState) -> Flow:
    """Enraged (p.144): right after ``after``'s activation, one creature it (or anyone)
    enraged activates, driven by the player who did it. With several, ``after``'s controller
    picks one (ruling BGH-5); the others stay put."""
    st = game.state
    due = triggered(game)
    memory(game)["rage"] = {}
    if not due or st.finished:
        return
    cid = next(iter(due))
    if len(due) > 1:
        cid = str((yield ask(after.player, "enraged", "Enraged: which creature activates?",
                             [(c, st.vehicles[c].name) for c in due], source="enraged",
                             page=144)))
    game.emit("enraged", source="enraged", page=144, vehicle=cid, player=due[cid],
              after=after.id, passed_over=[c for c in due if c != cid])
    yield from neutral_activation(game, st.vehicles[cid], due[cid], source="enraged", page=144)


def _within(v: VehicleState, others: list[VehicleState], reach: float
            ) -> Callable[[], list[str]]:
    """The exact table's measure: which of ``others`` lie within ``reach`` of ``v``."""
    return lambda: [t.id for t in others if gap(v, t) <= reach + 1e-9]


def acidic_ichor(game: Game) -> Flow:
    """Acidic Ichor (p.145): at the end of a step, each creature that lost Hull Points in it
    (once a step) attacks every other vehicle within Medium with 1 die; they may evade. A
    creature wrecked in the step makes no attack (ruling BGH-6). Creatures it wounds spray in
    turn, at the end of the same step."""
    mem = memory(game)
    st = game.state
    medium = game.templates.ranges["medium"]
    while True:
        left = [c for c in mem["ichor"] if c not in mem["ichor_done"]]
        if not left or st.finished:
            break
        cid = left[0]
        mem["ichor_done"].append(cid)
        v = st.vehicles.get(cid)
        if v is None or not v.in_play:
            continue
        # At a real table the people name the vehicles within Medium (ruling CP-21).
        others = [t for t in st.in_play() if t.id != v.id]
        within = yield from reached(
            game, v.player, "ichor_within_medium", f"{v.name}: Acidic Ichor; which vehicles "
            "are within Medium of it?", [(t.id, t.name) for t in others],
            _within(v, others, medium), page=145, vehicle=v.id)
        targets = [t for t in others if t.id in within]
        game.emit("acidic_ichor", source="acidic_ichor", page=145, vehicle=v.id,
                  targets=[t.id for t in targets])
        for t in targets:
            if not t.in_play or st.finished:
                continue
            roll = roll_attack(game, 1, why="acidic ichor", source="acidic_ichor", page=145,
                               vehicle=v.id, target=t.id)
            game.emit("attack_hits", source="acidic_ichor", page=145, vehicle=v.id,
                      target=t.id, hits=roll.hits, weapons=[])
            if roll.hits:
                yield from take_hits(game, t, [HitGroup("acidic_ichor", roll.hits)],
                                     source="acidic_ichor", page=145)
    mem["ichor"] = []
    mem["ichor_done"] = []


# -- Truckasaurus ----------------------------------------------------------------------------
def install_truckasaurus_rules(game: Game) -> None:
    """Truckasaurus's own rules (p.152), once per game."""
    fx = game.effects
    if fx.has("damage_amount", TRUCK_EFFECT):
        return

    def no_push(value: Any, ctx: dict[str, Any]) -> Any:
        if is_truckasaurus(ctx.get("vehicle")):
            value.push_limit = 0
        return None

    def no_damage(value: Any, ctx: dict[str, Any]) -> Any:
        return 0 if is_truckasaurus(ctx.get("vehicle")) else None

    def immune(value: Any, ctx: dict[str, Any]) -> None:
        # Ruling TR-3: nothing a weapon's hits do reaches it (damage, Blast, fire, pulls ...).
        if is_truckasaurus(ctx.get("target")):
            for grp in ctx["groups"]:
                grp.uncancelled = 0

    def ignores(value: Any, ctx: dict[str, Any]) -> Any:
        return True if is_truckasaurus(ctx.get("vehicle")) else None

    def pivot(game: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.rules.vehicles import pivot_without_contact

        v: VehicleState = ctx["vehicle"]
        angle = yield Decision(
            v.player, "pivot",
            f"{v.name}: pivot on the spot before moving (degrees anticlockwise; 0 stays)",
            domain=Interval(-180.0, 180.0), source="truckasaurus", page=TRUCK_PAGE,
            vehicle=v.id)
        if float(angle) != 0.0:
            pivot_without_contact(game, v, float(angle), source="truckasaurus",
                                  page=TRUCK_PAGE)

    fx.on("skid_setup", TRUCK_EFFECT, no_push)
    fx.on("hazards_gained", TRUCK_EFFECT, _no_hazards, priority=-1000)
    fx.on("damage_amount", TRUCK_EFFECT, no_damage, priority=-1000)
    fx.on("hits_taken", TRUCK_EFFECT, immune, priority=-1000)
    fx.on("ignores_dropped", TRUCK_EFFECT, ignores, priority=-1000)
    fx.on("collision_reactions", TRUCK_EFFECT, _always_smash, priority=-1000)
    fx.add_flow("activation_start", TRUCK_EFFECT,
                lambda ctx: pivot if is_truckasaurus(ctx.get("vehicle")) else None, 20)


# -- Truckasaurus's scenario rules (p.152) ---------------------------------------------------
LIVES_COST = 3
DANGER_ZONE = "double"
TR_SOURCE = "truckasaurus"


def truckasaurus_of(game: Game) -> VehicleState | None:
    return next((v for v in game.state.vehicles.values() if is_truckasaurus(v)), None)


def feeding(game: Game) -> dict[str, Any] | None:
    """The Truckasaurus activation under way (who woke it), if any."""
    out = memory(game).get("feeding")
    return out if isinstance(out, dict) else None


def install_truckasaurus_scenario(game: Game, score: Any) -> None:
    """Witness, Truckasaurus Lives, Truckasaurus Feeds and Into the Danger Zone (p.152).
    ``score(game, player, n, source, page, **data)`` adds Victory Points (the scenario's
    ledger)."""
    from carnage.games.refuelled.engine.votes import VoteEffect, own_vehicles

    fx = game.effects
    if fx.has("vote_effects", TR_SOURCE):
        return

    def lives_targets(g: Game, player: int) -> list[tuple[str, str]]:
        t = truckasaurus_of(g)
        # Ruling TR-6: "an active vehicle in play" is one of the player's own in play.
        if t is None or not t.in_play or not own_vehicles(g, player):
            return []
        return [(t.id, "Truckasaurus activates now, driven by you")]

    def lives(g: Game, player: int, target: str) -> Flow:
        t = g.state.vehicles[target]
        mem = memory(g)
        outer = mem.get("feeding")
        mem["feeding"] = {"player": player, "friendly": False}
        yield from neutral_activation(g, t, player, source=TR_SOURCE, page=TRUCK_PAGE)
        mem["feeding"] = outer

    effect = VoteEffect("truckasaurus_lives", "Truckasaurus Lives", LIVES_COST, TRUCK_PAGE,
                        lives_targets, lives)

    def offer(value: Any, ctx: dict[str, Any]) -> Any:
        return [*value, effect] if isinstance(value, list) else None

    def fed(value: Any, ctx: dict[str, Any]) -> None:
        # Ruling TR-7: "destroyed" is Wrecked (a disqualified vehicle is not destroyed).
        g = game_of(ctx)
        now = feeding(g)
        v = g.state.vehicles.get(str(ctx["data"].get("vehicle")))
        if now is None or v is None or not v.in_team:
            return
        p = int(now["player"])
        from carnage.games.refuelled.engine.votes import allies

        friendly = v.player in allies(g, p)
        if friendly and now["friendly"]:
            g.emit("truckasaurus_fed", source=TR_SOURCE, page=TRUCK_PAGE, vehicle=v.id,
                   player=p, scored=0, friendly=True)
            return
        if friendly:
            now["friendly"] = True
        g.emit("truckasaurus_fed", source=TR_SOURCE, page=TRUCK_PAGE, vehicle=v.id,
               player=p, scored=1, friendly=friendly)
        score(g, p, 1, TR_SOURCE, TRUCK_PAGE, vehicle=v.id)

    def witness(value: Any, ctx: dict[str, Any]) -> None:
        g = game_of(ctx)
        data = ctx["data"]
        v = g.state.vehicles.get(str(data.get("vehicle")))
        other = g.state.vehicles.get(str(data.get("other")))
        if (v is not None and v.in_team and is_truckasaurus(other)
                and data.get("reaction") == SMASH and g.state.active == v.id):
            gain_votes(g, v.player, 1, source="witness", page=TRUCK_PAGE, vehicle=v.id)

    def danger_zone(game: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        t = truckasaurus_of(game)
        st = game.state
        if not (v.in_team and t is not None and t.in_play):
            return
        far = game.templates.ranges[DANGER_ZONE]
        # At a real table the people say whether it is beyond Double (ruling CP-21).
        if (yield from judged(
                game, v.player, "danger_zone", f"{v.name}: Into the Danger Zone; is it more "
                "than Double from Truckasaurus as its activation begins?",
                lambda: gap(v, t) > far + 1e-9, page=TRUCK_PAGE, vehicle=v.id,
                target=t.id)):
            # Ruling TR-8: votes never go below zero.
            lost = min(1, st.votes[v.player])
            st.votes[v.player] -= lost
            game.emit("danger_zone", source="into_the_danger_zone", page=TRUCK_PAGE,
                      vehicle=v.id, player=v.player, lost=lost, votes=st.votes[v.player])

    fx.on("vote_effects", TR_SOURCE, offer)
    fx.on("logged:wrecked", TR_SOURCE, fed)
    fx.on("logged:reaction", TR_SOURCE, witness)
    fx.add_flow("activation_start", TR_SOURCE, lambda ctx: danger_zone, 800)
