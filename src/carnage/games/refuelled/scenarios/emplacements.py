"""Emplacements: obstacles with Hull Points that shoot on their own and can be shot
(Refuelled p.130 gun turrets, p.146 rocket turrets).

This generalises the Sentry Gun (rules/dropped.py, p.80) into kinds described once
(``TurretKind``): Hull Points, attack dice and range, when the turret fires, whether it may only
be shot from close by (Camouflaged), how it evades, whether it explodes and whether dropped
templates hit it. A turret is an ``Obstacle`` in ``GameState.obstacles`` (Middleweight,
Destructible, ``hull`` set) whose id starts with its kind (``gun_turret:3``); what it has done this
game lives in ``state.scenario`` (``turrets_fired``). ``install_emplacements`` attaches the rules:

* a gun turret fires once per Gear Phase, at the first vehicle to end its Movement Step within its
  range and line of fire (rulings AOD-1, AOD-2);
* a rocket turret fires at the active vehicle at the start of every Wipeout Step, within its range
  and line of fire (DS-4);
* vehicles may shoot turrets in their Attack Step (``<weapon>><turret>`` options): the weapon's
  dice, 4+ (5+ in cover), an evade roll for kinds that evade (DS-3), each hit uncancelled one Hull
  Point; a Camouflaged turret only from within its ``shot_within`` range (DS-2);
* a dropped template laid over a turret that dropped templates affect gives it the template's
  attack and goes, as for the first vehicle it affects (``template_laid`` hook; DS-5);
* a turret brought to 0 Hull Points, or cleared away as a Destructible obstacle after a Collision,
  is wrecked (``turret_wrecked`` event, with the player who did it); kinds that explode make a
  Middleweight explosion (p.44) at once (DS-1).

Shots and ranges reuse geometry (``check_fire`` from the turret's footprint, all round: AOD-1);
blockers come from the obstacles, the vehicles in play and the ``cover_blockers`` hook, so smoke,
toxic clouds and Airborne rules apply to turret shots as to any other.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from carnage.catalog import RangeBand, Weapon, Weight
from carnage.games.refuelled.engine.attack import (
    AttackOption,
    Sight,
    weapon_arc,
)
from carnage.games.refuelled.engine.combat import EVADE_ON, score_attack
from carnage.games.refuelled.engine.damage import HitGroup, explode, take_hits
from carnage.games.refuelled.engine.hazards_on_table import OVERLAP, remove
from carnage.games.refuelled.engine.scenario_view import Drawable
from carnage.games.refuelled.engine.state import Obstacle, TableTemplate, VehicleState, WeaponMount
from carnage.games.refuelled.engine.weapon_reach import ask_reach, note_reach, told_options
from carnage.games.refuelled.rules.dropped import weapons_that_may_shoot
from carnage.geometry.arcs import Arc
from carnage.geometry.cover import Blocker, FireCheck, check_fire
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import (
    Point,
    Pose,
    Rect,
    bounding_circle,
    deeper_than,
    distance,
    penetration,
)

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

EFFECT = "emplacements"
TURRET_SIZE = 30.0
"""The book gives no footprint for a turret: a 30 mm square, the size of a flag (AOD-1)."""
FIRED = "turrets_fired"
"""``state.scenario`` key: turret id -> [round, gear phase] of its last shot (once per phase)."""


@dataclass(frozen=True)
class TurretKind:
    """One kind of emplacement."""

    id: str
    name: str
    page: int
    hull: int
    """Hull Points against shooting attacks."""
    dice: int
    """Attack dice of its own shot."""
    reach: str
    """Range of its own shot (a shooting template id: ``medium``, ``long``)."""
    fires: str
    """When it fires: ``movement_end`` (the first vehicle ending a Movement Step within reach,
    once per Gear Phase) or ``wipeout_start`` (the active vehicle, at the start of every
    Wipeout Step)."""
    shot_within: str | None = None
    """Camouflaged: it may only be shot by a vehicle within this range (None: any range)."""
    evade_gear: int | None = None
    """Evades as a vehicle in this gear (None: it never evades)."""
    explodes: bool = False
    """Always explodes when wrecked (as a Middleweight, p.44)."""
    dropped: bool = False
    """Dropped templates laid over it affect it."""
    weight: Weight = Weight.MIDDLEWEIGHT


GUN_TURRET = TurretKind("gun_turret", "gun turret", 130, hull=4, dice=2, reach="medium",
                        fires="movement_end")
"""Arena of Death (p.130)."""
ROCKET_TURRET = TurretKind("rocket_turret", "rocket turret", 146, hull=7, dice=6, reach="long",
                           fires="wipeout_start", shot_within="medium", evade_gear=6,
                           explodes=True, dropped=True)
"""Desert Strike (p.146): Camouflaged, Auto-defense, always explodes."""
KINDS: dict[str, TurretKind] = {k.id: k for k in (GUN_TURRET, ROCKET_TURRET)}

DROPPED_ATTACKS: dict[str, tuple[int, tuple[str, ...]]] = {
    "caltrop_dropper": (2, ()), "mine_dropper": (4, ("blast",)),
    "napalm_dropper": (4, ("fire",)),
}
"""Dropped templates that attack what they affect (p.79), with their dice: the only ones that
do anything to a turret (DS-5)."""


# -- the turrets on the table --------------------------------------------------------------------
def kind_of(oid: str) -> TurretKind | None:
    """The kind of the turret with obstacle id ``oid``; None if it is no turret."""
    head, sep, _ = oid.partition(":")
    return KINDS.get(head) if sep else None


def turrets(g: Game, kind: TurretKind | None = None) -> list[Obstacle]:
    """The turrets on the table (of ``kind``), in id order."""
    out = [o for o in g.state.obstacles.values()
           if (k := kind_of(o.id)) is not None and (kind is None or k is kind)]
    return sorted(out, key=lambda o: (o.id.partition(":")[0], int(o.id.rpartition(":")[2])))


def turret_words(tid: str) -> str:
    """A turret named in words, as the people at the table know it: its kind and its number
    on the table's drawing ("Gun Turret 2"), never its id."""
    kind = kind_of(tid)
    name = kind.name.title() if kind is not None else "Turret"
    return f"{name} {tid.rpartition(':')[2]}"


def turret_obstacle(kind: TurretKind, n: int, at: Point, heading: float = 0.0) -> Obstacle:
    """Turret number ``n`` of ``kind`` centred on ``at``: Middleweight, Destructible."""
    return Obstacle(f"{kind.id}:{n}", Pose(at[0], at[1], heading), TURRET_SIZE, TURRET_SIZE,
                    weight=kind.weight, destructible=True, hull=kind.hull)


def add_turret(g: Game, kind: TurretKind, at: Point, *, player: int | None, source: str,
               page: int) -> Obstacle:
    """Put a new turret of ``kind`` on the table at ``at`` (logged as ``turret``)."""
    n = 1 + sum(1 for o in g.state.obstacles if kind_of(o) is kind)
    while f"{kind.id}:{n}" in g.state.obstacles:
        n += 1
    ob = turret_obstacle(kind, n, at)
    g.state.obstacles[ob.id] = ob
    g.emit("turret", source=source, page=page, obstacle=ob.id, turret=kind.id, player=player,
           x=round(at[0], 3), y=round(at[1], 3), hull_points=kind.hull)
    return ob


def solids(g: Game, also: Sequence[Sequence[Point]] = ()) -> list[tuple[Box, list[Point]]]:
    """Everything a placed object may not touch, each with its bounding box: obstacles,
    vehicles standing on the table, dropped templates and ``also``."""
    st = g.state
    polys = [o.polygon() for o in st.obstacles.values()]
    polys += [r.polygon() for v in st.in_play() if 0.0 <= v.pose.x <= st.width
              and 0.0 <= v.pose.y <= st.height for _, r in v.bodies()]
    polys += [list(p) for p in also]
    polys += [list(t.polygon) for t in st.dropped.values()]
    return [(box(p), p) for p in polys]


Box = tuple[float, float, float, float]


def box(poly: Sequence[Point]) -> Box:
    xs = [x for x, _ in poly]
    ys = [y for _, y in poly]
    return min(xs), min(ys), max(xs), max(ys)


def clear_of(g: Game, poly: Sequence[Point], *, margin: float = 0.0,
             also: Sequence[Sequence[Point]] = (),
             others: list[tuple[Box, list[Point]]] | None = None) -> bool:
    """Does ``poly`` lie on the table and keep more than ``margin`` mm from every obstacle,
    vehicle on the table, dropped template (and ``also``; or the precomputed ``others`` of
    ``solids``)? "Not touching" is a gap above 0 (AOD-3)."""
    st = g.state
    if not all(0.0 <= x <= st.width and 0.0 <= y <= st.height for x, y in poly):
        return False
    body = list(poly)
    x0, y0, x1, y1 = box(body)
    reach = margin + 1e-6
    for (a0, b0, a1, b1), o in (solids(g, also) if others is None else others):
        if a0 > x1 + reach or x0 > a1 + reach or b0 > y1 + reach or y0 > b1 + reach:
            continue  # clearly apart
        # ``deeper_than``: ``penetration(body, o) > -1e-6``, stopping at the first axis
        if deeper_than(body, o, -1e-6) or distance(body, o) <= margin:
            return False
    return True


def turret_drawables(g: Game) -> list[Drawable]:
    """Each turret as a ``zone`` mark (its footprint) naming its kind and Hull Points left."""
    out = []
    for t in turrets(g):
        kind = kind_of(t.id)
        assert kind is not None and t.hull is not None
        n = t.id.rpartition(":")[2]
        out.append(Drawable(t.id, "zone", tuple(t.polygon()),
                            label=f"{kind.name} {n} ({t.hull - t.damage} HP)",
                            number=int(n), style="turret"))
    return out


# -- line of fire --------------------------------------------------------------------------------
def blockers(g: Game, skip: set[str]) -> list[Blocker]:
    """What may stand between a turret and its target: obstacles, vehicles in play and what the
    ``cover_blockers`` hook adds (smoke, toxic clouds), less ``skip``."""
    out = [Blocker(o.id, tuple(o.polygon()), o.tall) for o in g.state.obstacles.values()
           if o.id not in skip]
    out += [Blocker(bid, tuple(r.polygon())) for v in g.state.in_play() if v.id not in skip
            for bid, r in v.bodies()]
    got = g.effects.run_event("cover_blockers", out, {"game": g, "vehicle": None})
    return [b for b in got if b.id not in skip]


def turret_sight(g: Game, turret: Obstacle, target: VehicleState, reach: str) -> FireCheck:
    """The turret's shot at ``target`` (all round, ``reach`` template): the best over the
    target's bodies (an articulated vehicle's trailer too, p.117)."""
    rect = Rect(turret.pose, turret.length, turret.width)
    tpl = shooting_template(reach, g.templates)
    poly = rect.polygon()
    tx, ty, tr = bounding_circle(poly)
    bodies = [body.polygon() for _, body in target.bodies()]
    # bounding circles first: they are never nearer than the outlines (with 1 µm to spare for
    # rounding), so a body they put out of reach is out of reach by the exact gap too
    if all(math.hypot(bx - tx, by - ty) - br - tr > tpl.length + 1e-3
           or distance(poly, body) > tpl.length + 1e-6
           for body, (bx, by, br) in ((b, bounding_circle(b)) for b in bodies)):
        return FireCheck(False, False, False)  # out of reach: no placement can touch it
    blocks = blockers(g, {turret.id, target.id})
    best: FireCheck | None = None
    for _, body in target.bodies():
        fc = check_fire(rect, body.polygon(), Arc.TURRET, tpl, blocks)
        if best is None or (fc.in_range and not fc.blocked, not fc.cover) > (
                best.in_range and not best.blocked, not best.cover):
            best = fc
    assert best is not None
    return best


# -- turrets firing ------------------------------------------------------------------------------
def turret_fires(g: Game, turret: Obstacle, kind: TurretKind, target: VehicleState,
                 cover: bool) -> Flow:
    """The turret's own shooting attack at ``target``: ``kind.dice`` dice, 4+ (5+ in cover), the
    target evades as usual (p.130, p.146)."""
    g.emit("turret_attack", source=kind.id, page=kind.page, obstacle=turret.id,
           target=target.id, dice=kind.dice, cover=cover)
    rolled = g.roll(kind.dice, "attack", source=kind.id, page=kind.page, origin=turret.id,
                    target=target.id)
    scored = score_attack(rolled, penalty=1 if cover else 0)
    g.emit("attack_hits", source=kind.id, page=kind.page, target=target.id, origin=turret.id,
           hits=scored.hits, criticals=scored.criticals)
    yield from take_hits(g, target, [HitGroup(turret.id, scored.hits)], source=kind.id,
                         page=kind.page)


def _fired_this_phase(g: Game, tid: str) -> bool:
    st = g.state
    return bool(st.scenario.get(FIRED, {}).get(tid) == [st.round, st.gear_phase])


def _due(g: Game, fires: str) -> list[tuple[Obstacle, TurretKind]]:
    """The turrets that fire at this moment (``fires``) and still may (a gun turret fires once
    per Gear Phase)."""
    out = []
    for t in turrets(g):
        kind = kind_of(t.id)
        if kind is None or kind.fires != fires:
            continue
        if fires == "movement_end" and _fired_this_phase(g, t.id):
            continue
        out.append((t, kind))
    return out


def turret_reach(g: Game, v: VehicleState, fires: str
                 ) -> Generator[Decision, Any, dict[str, bool] | None]:
    """The turrets firing now (``fires``) with a clear shot at ``v`` within their reach, each
    with whether ``v`` is in cover. At a real table (ruling CP-9) the people name them, once,
    as a list; on the exact table None (the geometry judges each turret in turn), and a
    recording table notes what it would say."""
    due = _due(g, fires)
    if not due or not v.in_play or g.state.finished:
        return {} if g.facts.people else None
    if g.facts.people:
        from carnage.games.refuelled.engine.table_facts import ask_list

        reach = {"medium": "Medium", "long": "Long"}
        named = yield from ask_list(
            g, v.player, "turret_reach", f"{v.name}: which turrets have it within their range "
            "(all round), not behind Tall terrain? (In cover: name it so.)",
            [c for t, k in due for c in (
                (t.id, f"{turret_words(t.id)} ({reach.get(k.reach, k.reach)})"),
                (f"{t.id}@cover", f"{turret_words(t.id)}, in cover"))],
            page=due[0][1].page, vehicle=v.id,
            exclusive=[[t.id, f"{t.id}@cover"] for t, _ in due])
        return {n.partition("@")[0]: n.endswith("@cover") for n in named}
    if g.facts.recording:
        sights = [(t.id, turret_sight(g, t, v, k.reach)) for t, k in due]
        g.facts.note("turret_reach", [tid + ("@cover" if fc.cover else "")
                                      for tid, fc in sights if fc.in_range and not fc.blocked])
    return None


def _movement_end(g: Game, ctx: dict[str, Any]) -> Flow:
    """Gun turrets: the first vehicle to end its Movement Step within reach this Gear Phase."""
    v: VehicleState = ctx["vehicle"]
    told = yield from turret_reach(g, v, "movement_end")
    for t in turrets(g):
        kind = kind_of(t.id)
        if kind is None or kind.fires != "movement_end" or _fired_this_phase(g, t.id):
            continue
        if not v.in_play or g.state.finished:
            return
        if t.id not in g.state.obstacles:
            continue
        if told is not None:  # a real table: the people said which reach it
            if t.id not in told:
                continue
            cover = told[t.id]
        else:
            fc = turret_sight(g, t, v, kind.reach)
            if not fc.in_range or fc.blocked:
                continue  # not a target it can shoot: it waits for the next vehicle (AOD-2)
            cover = fc.cover
        g.state.scenario.setdefault(FIRED, {})[t.id] = [g.state.round, g.state.gear_phase]
        yield from turret_fires(g, t, kind, v, cover)


def _wipeout_start(g: Game, ctx: dict[str, Any]) -> Flow:
    """Rocket turrets (Auto-defense): each one in reach of the active vehicle fires at it."""
    v: VehicleState = ctx["vehicle"]
    told = yield from turret_reach(g, v, "wipeout_start")
    for t in turrets(g):
        kind = kind_of(t.id)
        if kind is None or kind.fires != "wipeout_start":
            continue
        if not v.in_play or g.state.finished:
            return
        if t.id not in g.state.obstacles:
            continue
        if told is not None:  # a real table: the people said which reach it
            if t.id in told:
                yield from turret_fires(g, t, kind, v, told[t.id])
            continue
        fc = turret_sight(g, t, v, kind.reach)
        if fc.in_range and not fc.blocked:
            yield from turret_fires(g, t, kind, v, fc.cover)


# -- turrets taking damage -----------------------------------------------------------------------
def damage_turret(g: Game, tid: str, hits: int, *, by: int | None, source: str,
                  page: int) -> Flow:
    """``hits`` hits on turret ``tid`` (already past any evade): Hull Points off; at 0 it is
    wrecked."""
    t = g.state.obstacles.get(tid)
    if t is None or t.hull is None or hits <= 0:
        return
    t.damage = min(t.hull, t.damage + hits)
    g.emit("obstacle_damage", source=source, page=page, obstacle=tid, amount=hits,
           hull_points=t.hull - t.damage)
    if t.damage >= t.hull:
        yield from wreck_turret(g, t, by=by, how=source)


def wreck_turret(g: Game, turret: Obstacle, *, by: int | None, how: str) -> Flow:
    """The turret is wrecked: off the table (if still there), ``turret_wrecked`` logged with the
    player who did it, then its explosion where it stood if its kind explodes (DS-1)."""
    kind = kind_of(turret.id)
    if kind is None:
        return
    if g.state.obstacles.pop(turret.id, None) is not None:
        g.emit("obstacle_removed", source=kind.id, page=kind.page, obstacle=turret.id)
    g.emit("turret_wrecked", source=kind.id, page=kind.page, obstacle=turret.id,
           turret=kind.id, player=by, how=how)
    if kind.explodes and not g.state.finished:
        yield from explode(g, turret.id, turret.polygon(), kind.weight, page=kind.page)


def turret_evades(g: Game, t: Obstacle, kind: TurretKind, hits: int) -> int:
    """Hits a turret's evade cancels: one die per ``evade_gear``, each 6 cancels (p.33)."""
    if kind.evade_gear is None or hits <= 0:
        return 0
    dice = g.roll(kind.evade_gear, "evade", source=kind.id, page=kind.page, obstacle=t.id)
    saved = min(hits, sum(1 for d in dice if d >= EVADE_ON))
    g.emit("evade", source=kind.id, page=kind.page, obstacle=t.id, hits=hits, cancelled=saved)
    return saved


def shootable(g: Game, v: VehicleState, m: WeaponMount | None, w: Weapon, t: Obstacle,
              sight: Sight) -> tuple[str, bool] | None:
    """(range band, cover) for a shot from ``v``'s weapon at turret ``t``, or None: a weapon
    with attack dice, within the turret's ``shot_within`` range if it is Camouflaged, in range
    and arc and not blocked."""
    kind = kind_of(t.id)
    if kind is None or not w.attack_dice or w.special_dice:
        return None
    body = sight.for_mount(m)
    if kind.shot_within is not None and distance(
            body.body, t.polygon()) > g.templates.ranges[kind.shot_within] + 1e-6:
        return None
    bands = [b for b in w.ranges if b is not RangeBand.DROPPED]
    gap = distance(body.body, t.polygon())
    longest = max((shooting_template(b.value, g.templates).length for b in bands), default=0.0)
    if gap > longest + 1e-6:
        return None  # out of reach of every band
    arc = weapon_arc(m, w)
    blocks = [b for b in body.blockers if b.id != t.id]
    for band in bands:
        fc = check_fire(body.rect, t.polygon(), arc, shooting_template(band.value, g.templates),
                        blocks)
        if fc.in_range and not fc.blocked:
            return band.value, fc.cover
    return None


def shoot_turret(key: str, m: WeaponMount | None, w: Weapon, tid: str, cover: bool
                 ) -> Callable[[Game, dict[str, Any]], Flow]:
    """A shooting attack at a turret: ammo spent, the weapon's dice, 4+ (5+ in cover), the
    turret's evade if it has one, each uncancelled hit one Hull Point (AOD-4, DS-3)."""

    def run(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        if m is not None and m.ammo is not None:
            m.ammo -= 1
            g.emit("ammo", source="ammo", page=81, vehicle=v.id, weapon=m.key, ammo=m.ammo)
        t = g.state.obstacles.get(tid)
        kind = kind_of(tid)
        if t is None or t.hull is None or kind is None:
            return
        # ``weapon_fired`` notice: the weapon is fired (a 125mm Cannon's Hazards, p.72); the
        # target is an obstacle, so no vehicle and no ``Shot`` are passed.
        g.effects.run_event("weapon_fired", None, {"game": g, "attacker": v, "target": None,
                                                   "shot": None, "weapon": w})
        n = w.attack_dice or 0
        rolled = g.roll(n, "attack", source="attack", page=32, vehicle=v.id, target=tid,
                        weapons=[key], counts=[n])
        scored = score_attack(rolled, penalty=1 if cover else 0)
        g.emit("attack_hits", source="attack", page=32, vehicle=v.id, target=tid,
               hits=scored.hits, criticals=scored.criticals)
        hits = scored.hits - turret_evades(g, t, kind, scored.hits)
        yield from damage_turret(g, tid, hits, by=v.player, source=kind.id, page=kind.page)

    return run


TOLD = "turret_shots_told"
"""At a real table: weapon key -> turret id -> in cover, as the people last said (CP-9)."""


def _options(value: Any, ctx: dict[str, Any]) -> Any:
    """Attack Step options: each weapon (and the Handgun) at each turret it can shoot (at a
    real table: each turret the people said it reaches, ``_shots_told``)."""
    g: Game = ctx["game"]
    v: VehicleState = ctx["vehicle"]
    guns = turrets(g)
    if not guns:
        return None
    uses: dict[str, int] = ctx.get("uses", {})
    extra: list[AttackOption] = []
    if g.facts.people:
        extra = told_options(g, weapons_that_may_shoot(g, v, uses), g.state.scenario.get(TOLD, {}),
                             turret_words, shoot_turret,
                             lambda tid: tid in g.state.obstacles and kind_of(tid) is not None)
        return [*value, *extra] if extra else None
    sight = Sight(g, v)
    for key, m, w in weapons_that_may_shoot(g, v, uses):
        for t in guns:
            got = shootable(g, v, m, w, t, sight)
            kind = kind_of(t.id)
            if got is None or kind is None:
                continue
            band, cover = got
            label = f"{w.name} ({band}) at {turret_words(t.id)}{' [cover]' if cover else ''}"
            extra.append(AttackOption(f"{key}>{t.id}", label, key,
                                      shoot_turret(key, m, w, t.id, cover)))
    return [*value, *extra] if extra else None


def _shots_told(g: Game, ctx: dict[str, Any]) -> Flow:
    """At a real table (ruling CP-9), as the Attack Step looks at the table: per weapon with
    attack dice, the people name the turrets in its range and arc, not behind Tall terrain
    (a Camouflaged one only within its range), each in cover or not (``ask_reach``)."""
    v: VehicleState = ctx["vehicle"]
    guns = [(t, k) for t in turrets(g) for k in (kind_of(t.id),) if k is not None]
    g.state.scenario[TOLD] = yield from ask_reach(
        g, v, "turret_in_reach", "turrets", [(t.id, turret_words(t.id)) for t, _ in guns],
        weapons_that_may_shoot(g, v, ctx["uses"]), page=guns[0][1].page if guns else None)


def _shots_noted(value: Any, ctx: dict[str, Any]) -> None:
    """On a recording table: the turrets each weapon could shoot, as a real table is asked."""
    g: Game = ctx["game"]
    v: VehicleState = ctx["vehicle"]

    def shot(key: str, m: WeaponMount | None, w: Weapon, tid: str) -> tuple[str, bool] | None:
        return shootable(g, v, m, w, g.state.obstacles[tid], ctx["sight"])

    note_reach(g, "turret_in_reach", [t.id for t in turrets(g) if kind_of(t.id) is not None],
               weapons_that_may_shoot(g, v, ctx["uses"]), shot)


def _template_laid(g: Game, ctx: dict[str, Any]) -> Flow:
    """A dropped template laid over a turret that templates affect: the template's attack on
    the turret (with its evade), then the template goes (DS-5)."""
    tpl: TableTemplate = ctx["template"]
    for t in turrets(g):
        kind = kind_of(t.id)
        if kind is None or not kind.dropped or tpl.id not in g.state.dropped:
            continue
        if tpl.kind not in DROPPED_ATTACKS or g.state.finished:
            continue
        if penetration(t.polygon(), list(tpl.polygon)) <= OVERLAP:
            continue
        dice, _ = DROPPED_ATTACKS[tpl.kind]
        remove(g, tpl.id, reason=f"attacked {t.id}", source=tpl.kind, page=79)
        rolled = g.roll(dice, "dropped weapon", source=tpl.kind, page=79, obstacle=t.id,
                        template=tpl.id)
        scored = score_attack(rolled)
        g.emit("attack_hits", source=tpl.kind, page=79, target=t.id, origin=tpl.id,
               hits=scored.hits, criticals=scored.criticals)
        hits = scored.hits - turret_evades(g, t, kind, scored.hits)
        yield from damage_turret(g, t.id, hits, by=tpl.player, source=kind.id,
                                 page=kind.page)


def _collision_end(g: Game, ctx: dict[str, Any]) -> Flow:
    """A turret cleared away as a Destructible obstacle after a Collision is wrecked by the
    moving vehicle's controller (AOD-4, DS-1)."""
    ob: Obstacle | None = ctx.get("obstacle")
    if ob is None or kind_of(ob.id) is None or ob.id in g.state.obstacles:
        return
    v: VehicleState = ctx["vehicle"]
    yield from wreck_turret(g, ob, by=v.player, how="collision")


def install_emplacements(g: Game) -> None:
    """Attach the turrets' rules to ``g`` (once; called from a scenario's ``install``)."""
    if any(h.effect == EFFECT for h in g.effects.handlers("attack_options")):
        return

    def flow(fn: Callable[[Game, dict[str, Any]], Flow]) -> Callable[[Any, dict[str, Any]], Any]:
        return lambda flows, ctx: [*flows, fn]

    fx = g.effects
    fx.on("movement_end", EFFECT, flow(_movement_end), priority=-20)
    fx.on("wipeout_step_start", EFFECT, flow(_wipeout_start), priority=20)
    fx.on("attack_options", EFFECT, _options)
    if g.facts.people:  # a real table: the people say which turrets each weapon reaches
        fx.add_flow("table_shots", EFFECT, lambda ctx: _shots_told)
    else:
        fx.on("table_shots_noted", EFFECT, _shots_noted)
    fx.on("template_laid", EFFECT, flow(_template_laid))
    fx.on("collision_end", EFFECT, flow(_collision_end), priority=-20)


# -- bots ----------------------------------------------------------------------------------------
TAKE_COVER = 30.0
"""A bot's penalty (in its score's units, mm of driving) per turret attack die a move's Final
Position would draw (``turret_threat``): it takes cover from turrets."""


def cover_penalty(g: Game, v: VehicleState, pose: Pose, per_die: float = TAKE_COVER) -> float:
    """``TableScenario.move_penalty`` for scenarios with turrets: ``per_die`` for each attack
    die the turrets would fire at ``v`` ending at ``pose``."""
    return per_die * turret_threat(g, v, pose)


def turret_threat(g: Game, v: VehicleState, pose: Pose) -> int:
    """Attack dice the turrets would fire at ``v`` if it ended its Movement Step at ``pose``:
    each gun turret that has not fired this Gear Phase and a rocket turret (at its Wipeout
    Step) with ``v`` in reach and line of fire there. For bots taking cover."""
    from dataclasses import replace

    guns = turrets(g)
    if not guns:
        return 0
    there = replace(v, pose=pose)
    dice = 0
    for t in guns:
        kind = kind_of(t.id)
        if kind is None or (kind.fires == "movement_end" and _fired_this_phase(g, t.id)):
            continue
        fc = turret_sight(g, t, there, kind.reach)
        if fc.in_range and not fc.blocked:
            dice += kind.dice
    return dice


def turret_shot_pick(game: Game, decision: Decision) -> Any:
    """With no enemy vehicle to shoot, shoot the turret with the fewest Hull Points left (the
    weapon with the most dice at it); otherwise let the bot choose as usual."""
    st = game.state
    v = st.vehicles.get(decision.vehicle or "")
    if v is None:
        return None
    best: tuple[tuple[int, int], Any] | None = None
    for o in decision.options:
        key, sep, target = str(o.value).partition(">")
        if not sep:
            continue
        t = st.vehicles.get(target)
        if t is not None and t.player != v.player:
            return None  # an enemy in sight: the bot's own choice
        ob = st.obstacles.get(target)
        if ob is None or ob.hull is None:
            continue
        mount = next((m for m in v.weapons if m.key == key), None)
        weapon = mount.weapon if mount is not None else key
        dice = game.catalog.weapons.get(weapon).attack_dice or 0
        rank = (-(ob.hull - ob.damage), dice)
        if best is None or rank > best[0]:
            best = (rank, o.value)
    return None if best is None else best[1]

