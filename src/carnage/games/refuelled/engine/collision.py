"""Collisions (Refuelled pp.52-57), resolved only in collision windows.

``resolve_collisions(g, v, ids)`` is called by the movement code with the vehicle whose movement
caused the contact and the obstructions it touched, in order. For each:
1 orientation (obstacles: always head-on, gear 0, their own weight); a volatile obstacle rolls
to explode first; 2-3 reactions, the moving vehicle first (Smash or Evade; obstacles always
smash; a fast tailgated vehicle forces both to evade); 4 smash attacks; 5 evades; 6 damage to both
at once, then wrecks; 7 hazards (+2 each, +1 if both evaded); destructible obstacles and wrecks
are then removed. Ids of ramp edges (engine/terrain.py) start a jump or tumble instead.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from carnage.games.refuelled.engine.combat import remove_hull, roll_attack, roll_evade
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import WEIGHT_CLASS, Obstacle, VehicleState, body_owner
from carnage.games.refuelled.engine.table_facts import EDGES, ask_pick, orientation_of
from carnage.games.refuelled.engine.terrain import parse_ramp_edge, ramp_flow, volatile_check
from carnage.geometry.collision import Contact, collision_contact
from carnage.geometry.shapes import Rect
from carnage.kernel.decisions import Decision
from carnage.kernel.effects import CANCEL, run_flows

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

SMASH = "smash"
EVADE = "evade"
REACTIONS = (SMASH, EVADE)

SMASH_WEIGHT_BONUS = {2: 4, 1: 2, 0: 0, -1: -1, -2: -2}
"""Extra smash dice by weight classes heavier (+) or lighter (-) than the other party (p.56)."""
COLLISION_HAZARDS = 2
BOTH_EVADED_HAZARDS = 1


@mypyc_attr(native_class=False)
@dataclass
class Party:
    """One side of a Collision: a vehicle, or an obstacle (gear 0, always smashes)."""

    id: str
    vehicle: VehicleState | None
    obstacle: Obstacle | None
    edge: str
    gear: int
    weight: int
    reaction: str = ""
    attack_dice: int = 0
    hits_taken: int = 0
    evaded: int = 0
    cause: str = ""
    """What set off the Collision when not a move (e.g. ``wrecking_ball``); in hook contexts."""
    declared: str = ""
    """The reaction as declared when a rule added it (e.g. ``piledriver``, p.121); it counts
    as the ``reaction`` it stands for (a Smash Attack)."""


def _party_name(p: Party) -> str:
    """How a prompt names the other party: the vehicle's name, or the obstacle's id as words."""
    return p.vehicle.name if p.vehicle is not None else p.id.replace("-", " ").replace("_", " ")


def _smash_words(p: Party, other: Party) -> str:
    """Who rolls ``p``'s Smash Attack at ``other`` and why, in words for a real table: a
    vehicle's player rolls its own; an obstacle's dice are rolled by the player of the vehicle
    it hits."""
    if p.vehicle is not None:
        return f"{p.vehicle.name}'s player rolls smash attack dice at {_party_name(other)}"
    if other.vehicle is not None:
        return (f"{other.vehicle.name}'s player rolls the smash attack dice of "
                f"{_party_name(p)} at {other.vehicle.name}")
    return ""


def weight_class(g: Game, v: VehicleState) -> int:
    """The vehicle's weight class (1 light, 2 middle, 3 heavy) through the ``weight_class``
    hook."""
    base = WEIGHT_CLASS[v.weight]
    out = g.effects.run_event("weight_class", base, {"game": g, "vehicle": v})
    return base if out is CANCEL else int(out)


def weight_bonus(mine: int, theirs: int) -> int:
    """Smash dice gained (or lost) for being heavier (or lighter) than the other party."""
    diff = max(-2, min(2, mine - theirs))
    return SMASH_WEIGHT_BONUS[diff]


def base_smash_dice(orientation: str, own_gear: int, other_gear: int) -> int:
    """Smash dice by orientation before weight (p.55): head-on the sum of both gears, T-bone
    the party's own gear, tailgate the difference of the gears (never below zero)."""
    if orientation == "head_on":
        return own_gear + other_gear
    if orientation == "t_bone":
        return own_gear
    if orientation == "tailgate":
        return max(0, abs(own_gear - other_gear))
    raise ValueError(f"unknown collision orientation {orientation!r}")


def smash_dice(orientation: str, own_gear: int, other_gear: int, own_weight: int,
               other_weight: int) -> int:
    """Smash attack dice for one party; zero or fewer means no dice (p.55)."""
    return base_smash_dice(orientation, own_gear, other_gear) + weight_bonus(own_weight,
                                                                          other_weight)


def resolve_collisions(g: Game, v: VehicleState, ids: list[str]) -> Flow:
    """Resolve a Collision between ``v`` and each obstruction in ``ids``, in order (p.52)."""
    for oid in ids:
        if g.state.finished or not v.in_play:
            return
        ramp = parse_ramp_edge(oid)
        if ramp is not None:
            yield from ramp_flow(g, v, *ramp)
            continue
        yield from resolve_collision(g, v, oid)


APART = "apart"
"""A table answer: the two no longer touch when the Collision comes to be resolved."""


def _edges_told(g: Game, v: VehicleState, oid: str, other: VehicleState | None
                ) -> Generator[Decision, Any, tuple[str, str] | None]:
    """At a real table: the edge of ``v`` that met ``oid`` and, for a vehicle, the edge of
    ``other`` it met (p.53); None if they no longer touch. Orientation follows from the
    edges by the book (``orientation_of``)."""
    from carnage.games.refuelled.engine.movement import obstruction_label

    name = obstruction_label(g, oid)
    lead = " (moving in reverse its rear edge counts as its front, p.53)" if v.reversing \
        else ""
    mine = yield from ask_pick(
        g, v.player, "collision_edge", f"{v.name} collides with {name}: which of its edges "
        f"met it?{lead}", [*((e, e) for e in EDGES), (APART, "they no longer touch")],
        page=53, vehicle=v.id, target=oid)
    if mine == APART:
        return None
    if other is None:
        return mine, "front"
    theirs = yield from ask_pick(
        g, v.player, "collision_other_edge", f"{v.name} collides with {name}: which edge of "
        f"{name} did it meet?" + (" (reversing: its rear counts as its front)"
                                   if other.reversing else ""),
        [(e, e) for e in EDGES], page=53, vehicle=v.id, target=oid)
    return mine, theirs


def _parties_at_table(g: Game, v: VehicleState, oid: str
                      ) -> Generator[Decision, Any, tuple[Party, Party, str] | str]:
    """``_parties`` at a real table: what only the table knows (the edges) is asked."""
    st = g.state
    other = st.vehicles.get(body_owner(oid))
    me = Party(v.id, v, None, "front", v.gear, weight_class(g, v))
    if other is not None and other.id != v.id:
        if not other.in_play:
            return f"{oid} is no longer in play"
        edges = yield from _edges_told(g, v, oid, other)
        if edges is None:
            return f"{v.id} no longer touches {oid}"
        me.edge = edges[0]
        them = Party(other.id, other, None, edges[1], other.gear, weight_class(g, other))
        return me, them, orientation_of(*edges)
    ob = st.obstacles.get(oid)
    if ob is None:
        return f"{oid} is no longer on the table"
    edges = yield from _edges_told(g, v, oid, None)
    if edges is None:
        return f"{v.id} no longer touches {oid}"
    me.edge = edges[0]
    return me, Party(ob.id, None, ob, "front", 0, WEIGHT_CLASS[ob.weight]), "head_on"


def _parties(g: Game, v: VehicleState, oid: str, forced: str | None = None
             ) -> tuple[Party, Party, str] | str:
    """Both parties and the orientation, or the reason there is no Collision. ``forced``: a
    rule sets the orientation of parties that need not touch (Wrecking Ball, p.75)."""
    st = g.state
    other = st.vehicles.get(body_owner(oid))  # a trailer's id names its vehicle (p.117)
    me = Party(v.id, v, None, "front", v.gear, weight_class(g, v))
    if other is not None and other.id != v.id:
        if not other.in_play:
            return f"{oid} is no longer in play"
        if forced is not None:
            them = Party(other.id, other, None, "side", other.gear, weight_class(g, other))
            return me, them, forced
        theirs = dict(other.bodies()).get(oid, other.rect())
        c = _contact(v, theirs, other.reversing)
        if c is None:
            g.facts.note("collision_edge", APART)
            return f"{v.id} no longer touches {oid}"
        if g.facts.recording:
            g.facts.note("collision_edge", str(c.edge_a))
            g.facts.note("collision_other_edge", str(c.edge_b))
        me.edge = c.edge_a
        them = Party(other.id, other, None, c.edge_b, other.gear, weight_class(g, other))
        return me, them, c.orientation
    ob = st.obstacles.get(oid)
    if ob is None:
        return f"{oid} is no longer on the table"
    if forced is not None:
        return me, Party(ob.id, None, ob, "front", 0, WEIGHT_CLASS[ob.weight]), forced
    c = _contact(v, Rect(ob.pose, ob.length, ob.width), False)
    if c is None:
        g.facts.note("collision_edge", APART)
        return f"{v.id} no longer touches {oid}"
    g.facts.note("collision_edge", str(c.edge_a))
    me.edge = c.edge_a  # for effects that care which edge hit (e.g. a ram)
    # Obstacles: always head-on, the obstacle in gear 0 with its own weight (p.54).
    return me, Party(ob.id, None, ob, "front", 0, WEIGHT_CLASS[ob.weight]), "head_on"


def _contact(v: VehicleState, theirs: Rect, b_reversing: bool) -> Contact | None:
    """The contact of any of ``v``'s bodies (its cab first, then a trailer) with ``theirs``."""
    for _, mine in v.bodies():
        c = collision_contact(mine, theirs, a_reversing=v.reversing, b_reversing=b_reversing)
        if c is not None:
            return c
    return None


def resolve_collision(g: Game, v: VehicleState, oid: str, *, orientation: str | None = None,
                      cause: str = "") -> Flow:
    """One Collision of ``v`` with ``oid``. A rule starting a Collision between parties that
    need not touch passes the ``orientation`` and names itself in ``cause``."""
    # ``collides`` hook: False when a party cannot be in Collisions (Airborne, p.70).
    if g.effects.run_event("collides", True, {"game": g, "vehicle": v, "other": oid}) is not True:
        g.emit("collision_skipped", source="collision", page=52, vehicle=v.id, other=oid,
               reason="cannot be involved in a Collision")
        return
    if g.facts.people and orientation is None:
        found = yield from _parties_at_table(g, v, oid)
    else:
        found = _parties(g, v, oid, orientation)
    if isinstance(found, str):
        g.emit("collision_skipped", source="collision", page=52, vehicle=v.id, other=oid,
               reason=found)
        return
    me, them, orientation = found
    # ``collision_orientation`` hook: a rule may change the orientation (Tombstone
    # makes every Collision of its vehicle Head-on, p.99).
    turned = g.effects.run_event("collision_orientation", orientation, {
        "game": g, "vehicle": v, "parties": (me, them)})
    orientation = turned if isinstance(turned, str) else orientation
    me.cause = them.cause = cause
    parties = (me, them)
    # ``collision_start`` flow hook: rules acting before the Collision is resolved;
    # they may change a party's gear (Cattle-Hammer, p.103).
    yield from run_flows(g, "collision_start", {
        "game": g, "vehicle": v, "parties": parties, "orientation": orientation})
    gone = [p.id for p in parties if p.vehicle is not None and not p.vehicle.in_play]
    if gone:
        # A party left play before the Collision (an RC Car explodes, p.79): nothing to resolve.
        g.emit("collision_skipped", source="collision", page=52, vehicle=v.id, other=oid,
               reason=f"{gone[0]} left play before the Collision was resolved")
        return
    g.emit(
        "collision", source="collision", page=52, vehicle=v.id, other=oid,
        orientation=orientation, edges={p.id: p.edge for p in parties},
        gears={p.id: p.gear for p in parties}, weights={p.id: p.weight for p in parties},
    )
    ob = them.obstacle
    if ob is not None and ob.volatile:
        exploded = yield from volatile_check(g, v, ob)
        if exploded:
            # Blown apart before anyone reacts: the Collision ends there (ruling CO-4).
            g.emit("collision_end", source="collision", page=52, vehicle=v.id, other=oid,
                   reason="volatile obstacle exploded")
            return

    # 2-3 Reactions: the moving vehicle first, then the other party (p.53).
    forced = _tailgate_forces_evade(orientation, me, them)
    if forced:
        g.emit("tailgate_evade", source="tailgate", page=53, vehicle=v.id, other=oid,
               front=forced)
    for p, other in ((me, them), (them, me)):
        yield from _react(g, p, other, orientation, forced is not None)

    # 4 Smash attacks, in reaction order.
    for p, other in ((me, them), (them, me)):
        if p.reaction != SMASH:
            continue
        n = smash_dice(orientation, p.gear, other.gear, p.weight, other.weight)
        n = _int_hook(g, "smash_dice", n, _ctx(g, p, other, orientation))
        # ``smash_roll`` flow hook: just before the dice are rolled the smasher may change
        # ctx "dice" (In for a Penny, p.112) or choose how the smash hurts (Grinderman, p.105).
        sctx: dict[str, object] = {**_ctx(g, p, other, orientation), "dice": n}
        yield from run_flows(g, "smash_roll", sctx)
        n = sctx["dice"] if isinstance(sctx["dice"], int) else n
        p.attack_dice = max(0, n)
        if n <= 0:
            # Still a Smash Attack, just with no dice (p.55).
            g.emit("smash_attack", source="smash_attack", page=55, attacker=p.id,
                   target=other.id, dice=0, hits=0)
            continue
        roll = roll_attack(g, n, why="smash attack", source="smash_attack", page=55,
                           attacker=p.id, target=other.id,
                           told=_smash_words(p, other))
        other.hits_taken += roll.hits
        # ``smash_backfire`` hook: hull the smasher loses from its own dice, landing with the
        # collision damage in step 6 (Exploding Ram, p.84; ruling UP-3).
        p.hits_taken += max(0, _int_hook(g, "smash_backfire", 0, {
            **_ctx(g, p, other, orientation), "dice": list(roll.dice)}))
        g.emit("smash_attack", source="smash_attack", page=55, attacker=p.id,
               target=other.id, dice=n, hits=roll.hits)

    # 5 Evades: only a vehicle that declared Evade, against the hits it took (p.56).
    for p in parties:
        if p.vehicle is not None and p.reaction == EVADE and p.hits_taken > 0:
            # ``before_evade`` flow hook: rules acting before an evade roll (Evasive,
            # Sympathy for the Devil, pp.107-108); also run by ``damage.take_hits``.
            yield from run_flows(g, "before_evade", {
                "game": g, "vehicle": p.vehicle, "hits": p.hits_taken, "collision": True})
            other = them if p is me else me
            p.evaded = roll_evade(g, p.vehicle, p.hits_taken, source="collision_evade",
                                  page=56, against=f"the collision with {_party_name(other)}")
            g.emit("evade", source="collision_evade", page=56, vehicle=p.id,
                   hits=p.hits_taken, cancelled=p.evaded)

    # 6 Un-cancelled hits land on both at once, then any vehicle on zero is wrecked (p.57).
    wrecked: list[VehicleState] = []
    for p, other in ((me, them), (them, me)):
        dmg = p.hits_taken - p.evaded
        if p.vehicle is not None and dmg > 0:
            # ``collision_damage`` hook: the hull a party is about to lose here (Grinderman
            # turns it into Hazards, p.105).
            dmg = _int_hook(g, "collision_damage", dmg, _ctx(g, p, other, orientation))
        if p.vehicle is not None and remove_hull(
            g, p.vehicle, dmg, source="collision", page=57
        ):
            wrecked.append(p.vehicle)
    if wrecked:
        from carnage.games.refuelled.engine.damage import wreck

        for w in wrecked:
            yield from wreck(g, w, in_collision=True)

    # 7 Hazards: +2 each vehicle, +1 instead if both evaded; obstacles take none (p.54).
    both_evaded = all(p.reaction == EVADE for p in parties)
    for p, other in ((me, them), (them, me)):
        if p.vehicle is None or not p.vehicle.in_play:
            continue
        n = BOTH_EVADED_HAZARDS if both_evaded else COLLISION_HAZARDS
        n = _int_hook(g, "collision_hazards", n, _ctx(g, p, other, orientation))
        g.add_hazards(p.vehicle, n, "collision", 54)

    # Destructible obstacles and wrecks go once the Collision is resolved (pp.44, 49, 54).
    destructible = ob is not None and (ob.destructible or ob.wreck_of is not None)
    if ob is not None and destructible and g.state.obstacles.pop(ob.id, None) is not None:
        g.emit("obstacle_removed", source="destructible", page=54, obstacle=ob.id)
    g.emit("collision_end", source="collision", page=52, vehicle=v.id, other=oid,
           reason="resolved")
    # ``collision_end`` flow hook: rules acting on a resolved Collision (Low-loader
    # p.75; On Fire smash attacks p.81). ``obstacle`` is the obstacle party (maybe removed).
    yield from run_flows(g, "collision_end", {
        "game": g, "vehicle": v, "parties": parties, "orientation": orientation,
        "obstacle": ob, "cause": cause})


def _tailgate_forces_evade(orientation: str, a: Party, b: Party) -> str | None:
    """Tailgate (p.53): if the vehicle hit on its rear edge is in a higher gear than the other,
    both must evade. Returns the id of that front vehicle, or None."""
    if orientation != "tailgate":
        return None
    for p, other in ((a, b), (b, a)):
        if p.vehicle is not None and p.edge == "rear" and p.gear > other.gear:
            return p.id
    return None


def _react(g: Game, p: Party, other: Party, orientation: str, must_evade: bool) -> Flow:
    if p.vehicle is None:
        p.reaction = SMASH  # obstacles always smash (p.54)
        why = "obstacle"
    elif must_evade and g.effects.run_event(
        "tailgate_evade", True, _ctx(g, p, other, orientation)
    ) is True:  # hook: a rule may overrule the forced evade (Exploding Ram smashes, p.84)
        p.reaction = EVADE
        why = "tailgate"
    else:
        offered = g.effects.run_event("collision_reactions", list(REACTIONS),
                                      _ctx(g, p, other, orientation))
        offered = offered if isinstance(offered, list) else []
        allowed = [r for r in REACTIONS if r in offered]
        # A rule may add a reaction of its own, which counts as a Smash Attack (Piledriver).
        allowed += [str(r) for r in offered if r not in REACTIONS]
        allowed = allowed or list(REACTIONS)  # an effect may narrow the choice, not empty it
        labels = {
            SMASH: f"Smash Attack ({orientation.replace('_', '-')})",
            EVADE: f"Evade (gear {p.vehicle.gear} dice)",
        }
        # ``reaction_labels`` hook: labels for reactions a rule adds (PIT, Slipstream).
        labels = g.effects.run_event("reaction_labels", labels, _ctx(g, p, other, orientation))
        choice = yield ask(
            p.vehicle.player, "collision_reaction",
            f"{p.vehicle.name} collides with {_party_name(other)}: react",
            [(r, labels.get(r, f"{r.replace('_', ' ').title()} (a Smash Attack)"))
             for r in allowed], source="collision", page=53, vehicle=p.id, target=other.id,
        )
        p.reaction = str(choice)
        if p.reaction not in REACTIONS:
            p.declared, p.reaction = p.reaction, SMASH
        why = "declared"
    if p.declared:
        g.emit("reaction", source="collision", page=53, vehicle=p.id, other=other.id,
               reaction=p.reaction, why=why, declared=p.declared)
    else:
        g.emit("reaction", source="collision", page=53, vehicle=p.id, other=other.id,
               reaction=p.reaction, why=why)


def _ctx(g: Game, p: Party, other: Party, orientation: str) -> dict[str, object]:
    return {
        "game": g, "vehicle": p.vehicle, "obstacle": p.obstacle, "party": p.id,
        "other": other.vehicle, "other_obstacle": other.obstacle, "other_party": other.id,
        "orientation": orientation, "edge": p.edge, "other_edge": other.edge, "cause": p.cause,
        "reaction": p.reaction, "other_reaction": other.reaction, "declared": p.declared,
        "other_declared": other.declared,
    }


def _int_hook(g: Game, hook: str, value: int, ctx: dict[str, object]) -> int:
    """``value`` through ``hook``; a cancelled hook counts as 0."""
    out = g.effects.run_event(hook, value, ctx)
    if out is CANCEL:
        return 0
    return int(out)
