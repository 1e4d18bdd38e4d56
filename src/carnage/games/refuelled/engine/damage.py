"""Damage, wrecks and explosions (Refuelled pp.43-44, 81).

``suffer_damage`` removes hull points and, at zero, runs the wreck sequence. ``wreck`` is the
four steps of p.43 (skid to a halt, reset, explosion check, become a wreck) plus Twisted Metal
and the audience vote of p.44. ``explode`` makes the explosion attacks of p.44 (reused by
volatile obstacles, p.87). ``take_hits`` is the common end of every attack: one evade roll
against all the hits, cancels spent on plain hits first (p.42), Blast hazards (p.81), damage.

Hooks (see docs/events.md): ``can_evade``, ``hits_taken``, ``ammo_tokens``, ``explosion_dice``,
``wrecked``.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from carnage.catalog import Weight
from carnage.games.refuelled.engine.combat import remove_hull, roll_attack, roll_evade
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import Obstacle, Status, VehicleState
from carnage.geometry.shapes import Point, distance
from carnage.kernel.decisions import Decision

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

EXPLOSION_DICE = {Weight.LIGHTWEIGHT: 2, Weight.MIDDLEWEIGHT: 4, Weight.HEAVYWEIGHT: 6}
"""Explosion attack dice by the weight of what explodes (p.44)."""
EXPLODES_ON = 6
"""Explosion check: D6 + ammo tokens, explodes on this or more (p.43)."""
EXPLOSION_RANGE = "medium"
"""Vehicles this close (gap between footprints) are attacked by an explosion (p.44; AT-6)."""
SKID_TEMPLATE = "short_straight"
"""A wrecked vehicle's forced move (p.43)."""
ON_HIT_RULES = frozenset({"blast", "fire"})
"""Weapon rules that only act when the hit is not cancelled: such hits are cancelled last
(p.42). A later weapon rule joins this set or marks its group as not damaging."""


@mypyc_attr(native_class=False)
@dataclass
class HitGroup:
    """Hits on one target from one source of hits (a weapon, an explosion, a tumble ...)."""

    key: str
    """What caused them, e.g. a weapon mount key or ``explosion``."""
    hits: int
    rules: tuple[str, ...] = ()
    """Special rules carried by these hits (``blast`` ...)."""
    damaging: bool = True
    """False for weapons whose hits cause no damage (their special rule does the work)."""
    uncancelled: int = 0
    on_hit: tuple[str, ...] = ()
    """Further rules that act only through un-cancelled hits, set by weapon effects (e.g.
    ``death_ray``, ``arc_lightning``; rules/weapons.py): they make the hits special (p.42)."""

    @property
    def special(self) -> bool:
        return (not self.damaging or bool(self.on_hit)
                or bool(ON_HIT_RULES.intersection(self.rules)))

    @property
    def signature(self) -> str:
        """Hits with the same signature are interchangeable when cancelling."""
        parts = sorted(ON_HIT_RULES.intersection(self.rules).union(self.on_hit))
        if not self.damaging:
            parts.append("no_damage")
        return "+".join(parts) or "plain"


def suffer_damage(
    g: Game, v: VehicleState, amount: int, *, source: str, page: int, in_collision: bool = False,
    fire: bool = False,
) -> Flow:
    """Remove ``amount`` hull points (p.43); at zero the vehicle is wrecked. ``fire``: the
    damage has the Fire rule (a perk's burn, p.108), which the ``damage_amount`` hook sees."""
    if remove_hull(g, v, amount, source=source, page=page, fire=fire):
        yield from wreck(g, v, in_collision=in_collision)


def ammo_tokens(g: Game, v: VehicleState) -> int:
    """Ammo tokens left on the vehicle's weapons (upgrades add theirs through the hook)."""
    base = sum(m.ammo for m in v.weapons if m.ammo)
    return int(g.effects.run_event("ammo_tokens", base, {"game": g, "vehicle": v}))


def _skid_collided(g: Game, v: VehicleState, mark: int) -> bool:
    """Did the skid to a halt (the first forced move of ``v`` logged after ``mark``) touch
    anything, i.e. open a collision window?"""
    for e in g.log.events[mark:]:
        if e.kind == "forced_move" and e.data.get("vehicle") == v.id:
            return bool(e.data.get("touched"))
    return False


def wreck(g: Game, v: VehicleState, *, in_collision: bool = False) -> Flow:
    """The wreck sequence (p.43). ``in_collision``: the vehicle was wrecked during a Collision,
    so Twisted Metal removes it at the end instead of leaving a wreck (p.44)."""
    if not v.in_play:
        return
    # ``wreck`` flow hook: a flow returning True replaces the whole wreck sequence (an RC
    # Car explodes instead, p.79).
    from carnage.kernel.effects import run_flows

    if (yield from run_flows(g, "wreck", {"game": g, "vehicle": v,
                                          "in_collision": in_collision})):
        return
    st = g.state
    g.emit("wrecked", source="damage", page=43, vehicle=v.id, player=v.player,
           in_collision=in_collision)
    # Audience vote for the controller (p.44, p.88; AT-4: on losing the last hull point);
    # a vehicle that belongs to no player earns nobody a vote.
    if not v.neutral:
        st.votes[v.player] += 1
        g.emit("audience_vote", source="wrecked", page=88, player=v.player, gained=1,
               votes=st.votes[v.player])

    # 1 Skid to a halt: forced Short Straight forward, with its collision window.
    from carnage.games.refuelled.engine.movement import forced_move

    mark = len(g.log)
    yield from forced_move(g, v, SKID_TEMPLATE, source="skid_to_a_halt", page=43)
    if not v.in_play:
        return  # e.g. skidded off the table: disqualified, no wreck (p.87; AT-5)
    collided = _skid_collided(g, v, mark)

    # 2 Reset gear and hazards.
    if v.gear != 1:
        v.gear = 1
        g.emit("gear", source="wreck_reset", page=43, vehicle=v.id, gear=1)
    if v.hazards:
        g.emit("hazards", source="wreck_reset", page=43, vehicle=v.id, change=-v.hazards,
               hazards=0)
        v.hazards = 0

    # 3 Explosion check: D6 + ammo tokens, 6+ explodes.
    ammo = ammo_tokens(g, v)
    die = g.roll(1, "explosion check", source="explosion_check", page=43, vehicle=v.id,
                 ammo=ammo)[0]
    # ``explosion_roll`` flow hook: the die is rolled; a rule may add ctx "bonus" to the
    # check (Powder Keg, p.105).
    ectx: dict[str, Any] = {"game": g, "vehicle": v, "roll": die, "ammo": ammo, "bonus": 0}
    yield from run_flows(g, "explosion_roll", ectx)
    bonus = int(ectx["bonus"])
    explodes = die + ammo + bonus >= EXPLODES_ON
    # ``explosion_check`` hook: a rule may force the result (Nuclear Engine, p.83).
    explodes = g.effects.run_event("explosion_check", explodes,
                                   {"game": g, "vehicle": v, "roll": die, "ammo": ammo}) is True
    g.emit("explosion_check", source="explosion_check", page=43, vehicle=v.id, roll=die,
           ammo=ammo, total=die + ammo + bonus, explodes=explodes)
    if explodes:
        # ``explosion_weight`` hook: e.g. a Nuclear Engine explodes as a heavyweight (p.83).
        weight = g.effects.run_event("explosion_weight", v.weight, {"game": g, "vehicle": v})
        weight = weight if isinstance(weight, Weight) else v.weight
        yield from explode(g, v.id, v.polygon(), weight, page=44)
        v.status = Status.REMOVED
        g.emit("removed", source="explosion", page=44, vehicle=v.id, reason="exploded")
    elif in_collision or collided:
        # Twisted Metal: wrecked in a collision, or collided while skidding (p.44).
        v.status = Status.REMOVED
        g.emit("removed", source="twisted_metal", page=44, vehicle=v.id,
               reason="wrecked in a collision" if in_collision else "collided while skidding")
    else:
        # 4 Get wrecked: a destructible obstacle of the vehicle's weight (p.43-44).
        v.status = Status.WRECKED
        oid = f"wreck:{v.id}"
        n = 2
        while oid in st.obstacles:
            oid, n = f"wreck:{v.id}#{n}", n + 1
        st.obstacles[oid] = Obstacle(
            oid, v.pose, v.length, v.width, weight=v.weight, destructible=True, wreck_of=v.id
        )
        g.emit("wreck", source="get_wrecked", page=44, vehicle=v.id, obstacle=oid,
               weight=v.weight.value, x=round(v.pose.x, 3), y=round(v.pose.y, 3),
               heading=round(v.pose.heading, 3))
    g.effects.run_event("wrecked", None, {"game": g, "vehicle": v})


def explode(
    g: Game, source_id: str, polygon: Sequence[Point], weight: Weight, *, page: int = 44
) -> Flow:
    """An explosion at ``polygon`` (p.44): a separate Blast attack with 2/4/6 dice by weight
    against every other vehicle within Medium range, nearest first (AT-6, AT-7). The caller
    removes whatever exploded."""
    n = EXPLOSION_DICE[weight]
    candidates = [t for t in g.state.in_play() if t.id != source_id and t.hull_points > 0]
    if g.facts.people:  # a real table: the people measure who the blast reaches
        from carnage.games.refuelled.engine.table_facts import ask_list

        origin = g.state.vehicles.get(source_id)
        name = origin.name if origin is not None else source_id.replace("-", " ")
        reached = yield from ask_list(
            g, g.state.pole if origin is None else origin.player, "explosion_reach",
            f"{name} explodes: which vehicles are within {EXPLOSION_RANGE} range of it, "
            "nearest first?", [(t.id, t.name) for t in candidates], page=page,
            vehicle=source_id if origin is not None else None)
    else:
        reach = g.templates.ranges[EXPLOSION_RANGE]
        poly = list(polygon)
        near = sorted(
            (d, t.id)
            for t in candidates
            # a trailer is part of its vehicle (p.117)
            if (d := min(distance(poly, r.polygon()) for _, r in t.bodies())) <= reach + 1e-9
        )
        reached = [tid for _, tid in near]
        if candidates:
            g.facts.note("explosion_reach", reached)
    g.emit("explosion", source="explosion", page=page, origin=source_id, weight=weight.value,
           dice=n, targets=reached)
    for tid in reached:
        t = g.state.vehicles[tid]
        if not t.in_play or t.hull_points == 0:
            continue  # already wrecked by an earlier blast of this chain
        ctx: dict[str, Any] = {"game": g, "target": t, "origin": source_id, "weight": weight}
        dice = int(g.effects.run_event("explosion_dice", n, ctx))
        roll = roll_attack(g, dice, why="explosion", source="explosion", page=page,
                           vehicle=tid, origin=source_id)
        g.emit("attack_hits", source="explosion", page=page, target=tid, origin=source_id,
               hits=roll.hits, criticals=roll.criticals)
        group = HitGroup("explosion", roll.hits, rules=("blast",))
        yield from take_hits(g, t, [group], source="explosion", page=page)


def _cancel(groups: list[HitGroup], chosen: str | None) -> bool:
    """Cancel one hit: plain damaging hits first, then special ones (of ``chosen`` signature
    when given). False when nothing is left to cancel."""
    for grp in groups:
        if not grp.special and grp.uncancelled:
            grp.uncancelled -= 1
            return True
    for grp in groups:
        if grp.uncancelled and (chosen is None or grp.signature == chosen):
            grp.uncancelled -= 1
            return True
    return False


def allocate_cancels(
    g: Game, target: VehicleState, groups: list[HitGroup], cancelled: int
) -> Generator[Decision, Any, None]:
    """Spend ``cancelled`` evades on ``groups`` (p.42): hits without special rules first; when
    special hits of different kinds remain, the target's controller picks which kind loses each
    cancel."""
    for grp in groups:
        grp.uncancelled = grp.hits
    left = cancelled
    while left > 0:
        plain = sum(grp.uncancelled for grp in groups if not grp.special)
        kinds = sorted({grp.signature for grp in groups if grp.special and grp.uncancelled})
        special = sum(grp.uncancelled for grp in groups if grp.special)
        chosen: str | None = None
        if plain == 0 and len(kinds) > 1 and left < special:
            chosen = str((yield ask(
                target.player, "cancel_hit",
                f"{target.name}: cancel a hit of which kind ({left} evade(s) left)?",
                [(k, k) for k in kinds], source="evade", page=42, vehicle=target.id,
            )))
        if not _cancel(groups, chosen):
            break
        left -= 1


def take_hits(
    g: Game,
    target: VehicleState,
    groups: list[HitGroup],
    *,
    source: str,
    page: int,
    evadable: bool = True,
    against: str = "",
) -> Flow:
    """One attack's hits landing on ``target``: a single evade roll against all of them (p.33),
    cancels allocated (p.42), Blast hazards (p.81), then damage (p.33). ``against``: where the
    hits come from, in words ("Red Car's Handgun"; default: ``source`` in words)."""
    total = sum(grp.hits for grp in groups)
    for grp in groups:
        grp.uncancelled = grp.hits
    if total <= 0 or not target.in_play:
        return
    ctx: dict[str, Any] = {"game": g, "target": target, "groups": groups, "source": source}
    cancelled = 0
    if evadable and g.effects.run_event("can_evade", True, ctx) is True:
        # ``before_evade`` flow hook: Evasive, Sympathy for the Devil (pp.107-108).
        from carnage.kernel.effects import run_flows

        yield from run_flows(g, "before_evade", {"game": g, "vehicle": target, "hits": total,
                                                 "collision": False, "source": source})
        if not target.in_play:
            return
        cancelled = roll_evade(g, target, total, source="evade", page=33,
                               against=against or f"the {source.replace('_', ' ')}")
        g.emit("evade", source="evade", page=33, vehicle=target.id, hits=total,
               cancelled=cancelled)
    yield from allocate_cancels(g, target, groups, cancelled)
    # The hook runs before blast and damage are counted, so a rule may still turn hits into
    # no damage (Death Ray, p.73).
    g.effects.run_event("hits_taken", None, ctx)
    blast = sum(grp.uncancelled for grp in groups if "blast" in grp.rules)
    damage = sum(grp.uncancelled for grp in groups if grp.damaging)
    g.emit("hits_taken", source=source, page=page, vehicle=target.id, hits=total,
           cancelled=cancelled, damage=damage, blast=blast)
    if blast:
        # Blast hazards land before the damage, so a wreck's reset clears them (AT-8).
        g.add_hazards(target, blast, "blast", 81)
    yield from suffer_damage(g, target, damage, source=source, page=page)
    # ``hits_resolved`` flow hook: the hits have landed (Sympathy for the Devil shares
    # them, p.108); ctx as for ``hits_taken`` plus "damage" and "blast".
    from carnage.kernel.effects import run_flows

    yield from run_flows(g, "hits_resolved", {**ctx, "damage": damage, "blast": blast})
