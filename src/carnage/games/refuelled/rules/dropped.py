"""Dropped weapons (Refuelled pp.77-80).

A vehicle with a dropped weapon is offered "drop it" in its Attack Step (``attack_options``
hook): one dropped weapon per Attack Step, the Wreck Lobber's Dumper included (p.75; the
``dropped_per_step`` hook: Bombs Away p.70 and Trunk of Junk p.99 raise it), not while
Distracted, an Ammo Token spent first. What each
template does once on the table is a ``TemplateKind`` (engine/hazards_on_table.py):

* Caltrops, Mines, Napalm: the first vehicle affected takes a 2D6 / 4D6 Blast / 4D6 Fire attack
  (evade allowed), then the template goes; Caltrops are also treacherous (p.79);
* Glue: treacherous; a vehicle affected changes down two gears at the end of its Movement Step,
  and is not affected in two activations in a row (p.79; DW-5);
* Oil Slick: treacherous (p.79); Smoke: cover, Distracts a vehicle touching it, +1 Hazard at the
  end of a Movement Step that touched it (p.80).

RC Car Bombs put a 20 mm RC Car within Short range: a lightweight vehicle of the dropping
player (gear 3, fixed; 1 Hull, 1 Crew, 0 Handling) that is not part of the team; any Collision
or Wipeout costs it 1 damage first, and instead of being wrecked it explodes as a middleweight
(p.79). A Sentry Gun is a lightweight destructible obstacle with 2 Hull Points placed within
Short range; it shoots 2D6 at each enemy vehicle ending a Movement Step within Medium range, and
other vehicles may shoot at it (p.80; FAQ: its shots are shooting attacks).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from carnage.catalog import RangeBand, Weapon, Weight
from carnage.games.refuelled.engine.attack import (
    HANDGUN,
    AttackOption,
    Sight,
    may_discard_ammo,
    weapon_arc,
    weapon_uses,
)
from carnage.games.refuelled.engine.combat import score_attack
from carnage.games.refuelled.engine.damage import HitGroup, explode, suffer_damage, take_hits
from carnage.games.refuelled.engine.hazards_on_table import (
    TemplateKind,
    choose_burst_pose,
    place,
    remove,
    template_kind,
    template_words,
)
from carnage.games.refuelled.engine.state import (
    Obstacle,
    Status,
    TableTemplate,
    VehicleState,
    WeaponMount,
)
from carnage.games.refuelled.rules.weapons import DUMP, install_on_fire
from carnage.geometry.arcs import Arc
from carnage.geometry.cover import Blocker, check_fire
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, distance, penetration, unit
from carnage.geometry.table import Table
from carnage.kernel.decisions import Decision, Interval
from carnage.kernel.effect_ids import EffectId
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

DROPPED_PAGE = 78
DROP_EFFECT = "dropped_weapons"
RC_EFFECT = "rc_car_bombs"
SENTRY_EFFECT = "sentry_gun"
GLUE_EFFECT = "glue_dropper"

RC_TYPE = "rc_car"
RC_SIZE = 20.0
"""An RC Car is no larger than 20 mm square (p.79)."""
RC_GEAR = 3
SENTRY_SIZE = 20.0
"""The book gives no size for a Sentry Gun: we use the RC Car's 20 mm square (ruling DW-8)."""
SENTRY_HULL = 2
SENTRY_DICE = 2
SENTRY_RANGE = "medium"
SENTRY_PREFIX = "sentry_gun:"
PLACE_RANGE = "short"
"""RC Cars and Sentry Guns are placed within Short range of the dropping vehicle."""
GLUE_GEARS = 2
CLEAR = 0.05
"""Overlap depth (mm) tolerated when a placed body is judged clear (under the touch tolerance)."""


# -- the attacks of dropped templates ------------------------------------------------------------
def template_attack(dice: int, rules: tuple[str, ...], page: int
                    ) -> Callable[[Game, VehicleState, TableTemplate], Flow]:
    """The first vehicle affected takes a ``dice``D6 attack carrying ``rules``; the template is
    then removed (Caltrops, Mines, Napalm, p.79)."""

    def attack(g: Game, v: VehicleState, t: TableTemplate) -> Flow:
        if not remove(g, t.id, reason=f"attacked {v.id}", source=t.kind, page=page):
            return
        if "fire" in rules:
            install_on_fire(g)  # a template laid by other means (a perk) still burns (p.81)
        rolled = g.roll(dice, "dropped weapon", source=t.kind, page=page, vehicle=v.id,
                        template=t.id)
        scored = score_attack(rolled)
        g.emit("attack_hits", source=t.kind, page=page, target=v.id, origin=t.id,
               hits=scored.hits, criticals=scored.criticals)
        yield from take_hits(g, v, [HitGroup(t.kind, scored.hits, rules=rules)],
                             source=t.kind, page=page)

    return attack


def _smoke_touched(g: Game, v: VehicleState, t: TableTemplate) -> None:
    g.add_hazards(v, 1, "smoke_dropper", 80)


def _glue(g: Game, v: VehicleState, t: TableTemplate) -> Flow:
    """Mark ``v`` to change down at the end of the Movement Step of this (or, outside its
    activation, its next) activation (p.79; DW-5)."""
    v.conditions["glue_now" if g.state.active == v.id else "glue_next"] = 1
    v.conditions["glued"] = 1
    g.emit("glued", source="glue_dropper", page=79, vehicle=v.id, template=t.id)
    yield from ()


KINDS = {
    k.id: template_kind(k) for k in (
        TemplateKind("caltrop_dropper", 79, treacherous=True,
                     affect=template_attack(2, (), 79)),
        TemplateKind("glue_dropper", 79, treacherous=True, affect=_glue),
        TemplateKind("mine_dropper", 79, affect=template_attack(4, ("blast",), 79)),
        TemplateKind("napalm_dropper", 79, affect=template_attack(4, ("fire",), 79)),
        TemplateKind("oil_slick_dropper", 79, treacherous=True),
        TemplateKind("smoke_dropper", 80, cover=True, distracts=True, touched=_smoke_touched),
    )
}


# -- dropping: the Attack Step option ------------------------------------------------------------
DropFn = Callable[["Game", VehicleState, WeaponMount, Weapon], "Flow"]
DROPS: dict[str, DropFn] = {}
"""How each dropped weapon is used, by weapon id (templates, RC Car, Sentry Gun)."""


def drops_allowed(g: Game, v: VehicleState) -> int:
    """Dropped weapon attacks ``v`` may make in one Attack Step (p.78), through the
    ``dropped_per_step`` hook (Bombs Away p.70; Trunk of Junk p.99)."""
    return int(g.effects.run_event("dropped_per_step", 1, {"game": g, "vehicle": v}))


def is_drop(option: str) -> bool:
    """A declared option that is a dropped weapon attack: ours, or the Wreck Lobber dumped off
    the rear as a dropped weapon (rules/weapons.py, p.75)."""
    return option.startswith("drop:") or option.endswith(">" + DUMP)


def spend_ammo(g: Game, v: VehicleState, m: WeaponMount) -> None:
    """Discard one Ammo Token before attacking (p.81)."""
    if m.ammo is not None:
        m.ammo -= 1
        g.emit("ammo", source="ammo", page=81, vehicle=v.id, weapon=m.key, ammo=m.ammo)


@RULES.journaled('drops')
def install_drops(g: Game) -> None:
    """The ``attack_options`` handler offering each dropped weapon (once per game). It runs
    after the other handlers so that it can also withdraw the Dumper once the Attack Step's
    dropped weapon attacks are used up."""
    if any(h.effect == DROP_EFFECT for h in g.effects.handlers("attack_options")):
        return
    cat = g.catalog

    def made(game: Game, v: VehicleState) -> int:
        """Dropped weapon attacks declared in this activation's Attack Step so far."""
        n = 0
        for e in reversed(game.log.events):
            if e.kind in ("activation", "activation_end"):
                break
            if (e.kind == "declare_attack" and e.data.get("vehicle") == v.id
                    and is_drop(str(e.data.get("option") or ""))):
                n += 1
        return n

    def options(value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        if made(game, v) >= drops_allowed(game, v):
            kept = [o for o in value if not is_drop(o.value)]
            return kept if len(kept) < len(value) else None
        extra: list[AttackOption] = []
        for m in v.weapons:
            if m.weapon not in DROPS or (m.ammo is not None and m.ammo <= 0):
                continue
            if not may_discard_ammo(game, v, m.key):
                continue
            w = cat.weapons.get(m.weapon)
            extra.append(AttackOption(f"drop:{m.key}", f"drop {w.name} ({m.facing or 'rear'})",
                                      m.key, _runner(m, w)))
        return [*value, *extra] if extra else None

    g.effects.on("attack_options", DROP_EFFECT, options, priority=-10)


def _runner(m: WeaponMount, w: Weapon) -> Callable[[Game, dict[str, Any]], Flow]:
    def run(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        spend_ammo(g, v, m)
        yield from DROPS[w.id](g, v, m, w)

    return run


def mount_body(v: VehicleState, m: WeaponMount) -> Rect:
    """The body a weapon is mounted on: the trailer for a trailer weapon (p.117)."""
    if m.part == "trailer":
        t = v.trailer_rect()
        if t is not None:
            return t
    return v.rect()


def drop_template(g: Game, v: VehicleState, m: WeaponMount, w: Weapon) -> Flow:
    """Lay the weapon's burst touching the vehicle in the weapon's arc and resolve it against
    whatever it overlaps (p.78)."""
    assert w.dropped_template is not None
    shape = w.dropped_template.value
    arc = weapon_arc(m, w)
    pose = yield from choose_burst_pose(g, v, mount_body(v, m), arc, shape, what=w.name,
                                        source=w.id, page=DROPPED_PAGE, weapon=m.key)
    yield from place(g, w.id, shape, pose, placed_by=v.id, player=v.player, source=w.id,
                     page=DROPPED_PAGE)


for _wid in KINDS:
    DROPS[_wid] = drop_template


# -- placing a small body within Short range (RC Car, Sentry Gun) --------------------------------
def _signed_gap(a: list[Point], b: list[Point]) -> float:
    depth = penetration(a, b)
    return -depth if depth > 0 else distance(a, b)


def _along(dropper: Rect, bearing: float, gap: float, length: float, width: float,
           heading: float) -> float:
    """How far from the dropper's centre, along ``bearing``, the body's centre lies when
    ``gap`` mm separate the two footprints (the gap only grows along the line)."""
    dx, dy = unit(bearing)
    c = dropper.pose
    own = dropper.polygon()
    lo = 0.0
    hi = (math.hypot(dropper.length, dropper.width) + math.hypot(length, width)) / 2 + gap + 1
    for _ in range(50):
        mid = (lo + hi) / 2
        body = Rect(Pose(c.x + mid * dx, c.y + mid * dy, heading), length, width)
        if _signed_gap(own, body.polygon()) < gap:
            lo = mid
        else:
            hi = mid
    return hi


def body_at_gap(dropper: Rect, bearing: float, gap: float, length: float, width: float,
                heading: float) -> Pose:
    """The pose whose centre lies on the line from the dropper's centre at ``bearing``
    (degrees, world frame), nearest the dropper with ``gap`` mm between the two footprints."""
    t = _along(dropper, bearing, gap, length, width, heading)
    dx, dy = unit(bearing)
    return Pose(dropper.pose.x + t * dx, dropper.pose.y + t * dy, heading)


def clear_pose(g: Game, dropper: VehicleState, bearing: float, gap: float, reach: float,
               length: float, width: float, heading: float) -> Pose:
    """``body_at_gap``, moved along its line to the nearest place (towards the dropper first,
    then away, within ``reach`` of it) where it overlaps nothing and lies on the table; it may
    end touching (ruling DW-7). If no such place exists it stays where it was put."""
    others = [o.polygon() for o in g.state.in_play() if o.id != dropper.id]
    others += [o.polygon() for o in g.state.obstacles.values()]
    body = dropper.rect()
    dx, dy = unit(bearing)

    def at(t: float) -> Pose:
        return Pose(body.pose.x + t * dx, body.pose.y + t * dy, heading)

    edge = Table(g.state.width, g.state.height)

    def blocked(t: float) -> bool:
        poly = Rect(at(t), length, width).polygon()
        return (not all(edge.contains(p) for p in poly)
                or any(penetration(poly, o) > CLEAR for o in others))

    start = _along(body, bearing, gap, length, width, heading)
    if not blocked(start):
        return at(start)
    near = _along(body, bearing, 0.0, length, width, heading)
    far = _along(body, bearing, reach, length, width, heading)
    inward = [start - i for i in range(1, math.ceil(start - near))] + [near]
    outward = [start + i for i in range(1, math.ceil(far - start))] + [far]
    for steps in (inward, outward):
        stuck = start  # the last place tried where it overlapped something
        for t in steps:
            if blocked(t):
                stuck = t
                continue
            # Halve the step back towards the overlap so that it ends touching what was there.
            clear = t
            for _ in range(30):
                mid = (clear + stuck) / 2
                if blocked(mid):
                    stuck = mid
                else:
                    clear = mid
            return at(clear)
    return at(start)


def choose_body_pose(g: Game, v: VehicleState, what: str, length: float, width: float, *,
                     facing: bool, source: str, page: int,
                     weapon: str | None = None) -> Generator[Decision, Any, Pose]:
    """Ask where a small body goes within Short range of ``v``: a bearing from its centre and
    the gap (relative to its heading), and, with ``facing``, which way it faces (DW-7)."""
    reach = g.templates.ranges[PLACE_RANGE]
    bearing = float((yield Decision(
        v.player, "place_bearing",
        f"{v.name}: place the {what} in which direction (degrees anticlockwise from ahead)?",
        domain=Interval(-180.0, 180.0), source=source, page=page, vehicle=v.id, weapon=weapon,
    )))
    gap = float((yield Decision(
        v.player, "place_gap", f"{v.name}: how far from {v.name} (mm, within Short range)?",
        domain=Interval(0.0, reach, "mm"), source=source, page=page, vehicle=v.id, weapon=weapon,
    )))
    turn = 0.0
    if facing:
        turn = float((yield Decision(
            v.player, "place_facing",
            f"{v.name}: the {what} faces which way (degrees anticlockwise from {v.name}'s)?",
            domain=Interval(-180.0, 180.0), source=source, page=page, vehicle=v.id, weapon=weapon,
        )))
    heading = (v.pose.heading + (turn if facing else bearing)) % 360.0
    return clear_pose(g, v, (v.pose.heading + bearing) % 360.0, gap, reach, length, width,
                      heading)


# -- RC Car Bombs (p.79) -------------------------------------------------------------------------
def is_rc_car(v: VehicleState | None) -> bool:
    return v is not None and v.type == RC_TYPE and not v.in_team


def drop_rc_car(g: Game, v: VehicleState, m: WeaponMount, w: Weapon) -> Flow:
    install_rc_cars(g)
    if g.facts.people:  # the people lay it within Short as they like; its pose is a mark (CP-1)
        pose = v.pose
    else:
        pose = yield from choose_body_pose(g, v, "RC Car", RC_SIZE, RC_SIZE, facing=True,
                                           source=w.id, page=79, weapon=m.key)
    n = 1 + sum(1 for o in g.state.vehicles.values() if is_rc_car(o))
    rid = f"rc_car:{n}"
    while rid in g.state.vehicles:
        n += 1
        rid = f"rc_car:{n}"
    rc = VehicleState(
        id=rid, name=f"RC Car {n}", player=v.player, type=RC_TYPE, weight=Weight.LIGHTWEIGHT,
        hull=1, handling=0, max_gear=RC_GEAR, crew=1, length=RC_SIZE, width=RC_SIZE,
        pose=pose, gear=RC_GEAR, summoned_by=v.id,
    )
    g.state.vehicles[rid] = rc
    g.emit("rc_car", source=w.id, page=79, vehicle=rid, player=v.player, dropped_by=v.id,
           x=round(pose.x, 3), y=round(pose.y, 3), heading=round(pose.heading, 3))
    # Its placement is a Collision Window (p.79): what it touches, then templates under it.
    # At a real table the people say what it touches and lies over (ruling CP-19).
    from carnage.games.refuelled.engine.hazards_on_table import OVERLAP, affect, stack_order
    from carnage.games.refuelled.engine.movement import collision_window, touching_now
    from carnage.games.refuelled.engine.table_facts import reached

    touched = sorted((yield from touching_now(g, rc, "rc_car_touching", 79, "laid")))
    if touched:
        yield from collision_window(g, rc, touched)
    if rc.in_play and not g.state.finished:
        def overlapped() -> list[str]:
            poly = rc.polygon()
            return [t.id for t in stack_order(t for t in g.state.dropped.values()
                                              if penetration(poly, t.polygon) > OVERLAP)]

        under = yield from reached(
            g, rc.player, "rc_car_under", f"{rc.name}: which dropped templates does it lie "
            "over (top of a stack first)?",
            [(t.id, template_words(t)) for t in stack_order(g.state.dropped.values())],
            overlapped,
            page=79, vehicle=rc.id)
        yield from affect(g, rc, under)


@RULES.journaled('rc_cars')
def install_rc_cars(g: Game) -> None:
    """RC Cars' own rules (once per game): gear fixed, 1 damage before a Collision or a
    Wipeout, explode instead of being wrecked."""
    if any(h.effect == RC_EFFECT for h in g.effects.handlers("wreck")):
        return

    def min_gear(value: Any, ctx: dict[str, Any]) -> Any:
        v = ctx["vehicle"]
        return v.gear if is_rc_car(v) else None

    def collision_start(game: Game, ctx: dict[str, Any]) -> Flow:
        for p in ctx["parties"]:
            if is_rc_car(p.vehicle) and p.vehicle.in_play:
                yield from suffer_damage(game, p.vehicle, 1, source=RC_EFFECT, page=79)

    def wipeout_start(game: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        if is_rc_car(v):
            yield from suffer_damage(game, v, 1, source=RC_EFFECT, page=79)

    def explodes(game: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, bool]:
        v: VehicleState = ctx["vehicle"]
        v.status = Status.REMOVED  # gone at once: it is not an explosion's target
        game.emit("rc_car_explodes", source=RC_EFFECT, page=79, vehicle=v.id)
        yield from explode(game, v.id, v.polygon(), Weight.MIDDLEWEIGHT, page=79)
        game.emit("removed", source=RC_EFFECT, page=79, vehicle=v.id, reason="exploded")
        return True

    def wreck(flows: Any, ctx: dict[str, Any]) -> Any:
        return [*flows, explodes] if is_rc_car(ctx["vehicle"]) else None

    fx = g.effects
    fx.on("min_gear", RC_EFFECT, min_gear)
    fx.on("collision_start", RC_EFFECT, lambda flows, ctx: [*flows, collision_start])
    fx.on("wipeout_start", RC_EFFECT, lambda flows, ctx: [*flows, wipeout_start])
    fx.on("wreck", RC_EFFECT, wreck, priority=100)


DROPS["rc_car_bombs"] = drop_rc_car


# -- Sentry Gun (p.80) ---------------------------------------------------------------------------
def sentries(g: Game) -> list[Obstacle]:
    return [o for o in g.state.obstacles.values() if o.id.startswith(SENTRY_PREFIX)]


def sentry_words(g: Game, sid: str) -> str:
    """A Sentry Gun named in words, as the people at the table know it: "Sentry Gun 2", by
    the number it was given when it was set down (kept while it stands, so a gun destroyed
    renames no other; never given again, so a later gun takes no gone gun's number), never
    its id."""
    number = sid.removeprefix(SENTRY_PREFIX)
    if sid.startswith(SENTRY_PREFIX) and number.isdigit() and sid in g.state.obstacles:
        return f"Sentry Gun {number}"
    return "the Sentry Gun"


def drop_sentry(g: Game, v: VehicleState, m: WeaponMount, w: Weapon) -> Flow:
    install_sentries(g)
    if g.facts.people:  # the people set it within Short as they like; its pose is a mark (CP-19)
        pose = v.pose
    else:
        pose = yield from choose_body_pose(g, v, "Sentry Gun", SENTRY_SIZE, SENTRY_SIZE,
                                           facing=False, source=w.id, page=80, weapon=m.key)
    # A number never used in this game, so "Sentry Gun 2" in the log always means one gun: one
    # more than the guns ever set down (the game's count of its "sentry_gun" events, kept in its
    # state, so a game restored from a snapshot counts on), past any number still standing.
    n = 1 + g.count("sentry_gun")
    sid = f"{SENTRY_PREFIX}{n}"
    while sid in g.state.obstacles:
        n += 1
        sid = f"{SENTRY_PREFIX}{n}"
    g.state.obstacles[sid] = Obstacle(
        sid, pose, SENTRY_SIZE, SENTRY_SIZE, weight=Weight.LIGHTWEIGHT, destructible=True,
        hull=SENTRY_HULL, placed_by=v.id,
    )
    g.emit("sentry_gun", source=w.id, page=80, obstacle=sid, player=v.player, dropped_by=v.id,
           x=round(pose.x, 3), y=round(pose.y, 3), heading=round(pose.heading, 3))


def sentry_player(g: Game, s: Obstacle) -> int | None:
    owner = g.state.vehicles.get(s.placed_by or "")
    return None if owner is None else owner.player


def _blockers(g: Game, skip: set[str]) -> list[Blocker]:
    out = [Blocker(o.id, tuple(o.polygon()), o.tall) for o in g.state.obstacles.values()
           if o.id not in skip]
    out += [Blocker(o.id, tuple(o.polygon())) for o in g.state.in_play() if o.id not in skip]
    return list(g.effects.run_event("cover_blockers", out, {"game": g, "vehicle": None}))


def sentry_fires(g: Game, s: Obstacle, target: VehicleState) -> Flow:
    """The Sentry Gun's automatic 2D6 shooting attack, 360 degrees, Medium range (p.80). At a
    real table its controller (the target's, if the gun's owner is gone) says whether the
    target is within Medium and in sight ("no" first), then whether it is in cover (CP-19)."""
    from carnage.games.refuelled.engine.table_facts import judged

    fc = None if g.facts.people else check_fire(
        Rect(s.pose, s.length, s.width), target.polygon(), Arc.TURRET,
        shooting_template(SENTRY_RANGE, g.templates), _blockers(g, {s.id, target.id}))
    owner = sentry_player(g, s)
    who = target.player if owner is None else owner
    shot = yield from judged(
        g, who, "sentry_reach", f"Is {target.name} within Medium range of "
        f"{sentry_words(g, s.id)}, not hidden behind Tall terrain (it shoots all round)?",
        lambda: fc is not None and fc.in_range and not fc.blocked, page=80,
        vehicle=target.id, target=s.id)
    if not shot:
        return
    cover = yield from judged(
        g, who, "sentry_cover", f"Is {target.name} in cover from {sentry_words(g, s.id)}?",
        lambda: fc is not None and fc.cover, page=80, vehicle=target.id, target=s.id)
    g.emit("sentry_attack", source=SENTRY_EFFECT, page=80, obstacle=s.id, target=target.id,
           cover=cover)
    gun = sentry_words(g, s.id)
    # Its controller rolls for it: the player of the vehicle that set it down, else the
    # target's (the same seat the questions above went to).
    dropper = g.state.vehicles.get(s.placed_by or "")
    roller = dropper if owner is not None and dropper is not None else target
    rolled = g.roll(SENTRY_DICE, "attack", source=SENTRY_EFFECT, page=80, origin=s.id,
                    target=target.id, told=f"{roller.name}'s player rolls attack dice for "
                    f"{gun} at {target.name}")
    scored = score_attack(rolled, penalty=1 if cover else 0)
    g.emit("attack_hits", source=SENTRY_EFFECT, page=80, target=target.id, origin=s.id,
           hits=scored.hits, criticals=scored.criticals)
    yield from take_hits(g, target, [HitGroup(s.id, scored.hits)], source=SENTRY_EFFECT,
                         page=80, against=gun)


def _shootable(g: Game, v: VehicleState, key: str, m: WeaponMount | None, w: Weapon,
               s: Obstacle, sight: Sight) -> tuple[str, bool] | None:
    """(range band, cover) for a shot from ``v``'s weapon at Sentry Gun ``s``, or None."""
    if not w.attack_dice or w.special_dice:
        return None
    arc = weapon_arc(m, w)
    for band in (b for b in w.ranges if b is not RangeBand.DROPPED):
        blockers = [b for b in sight.blockers if b.id != s.id]
        fc = check_fire(sight.rect, s.polygon(), arc, shooting_template(band.value,
                                                                       g.templates), blockers)
        if fc.in_range and not fc.blocked:
            return band.value, fc.cover
    return None


def shoot_sentry(key: str, m: WeaponMount | None, w: Weapon, sid: str, cover: bool
                 ) -> Callable[[Game, dict[str, Any]], Flow]:
    """A shooting attack at a Sentry Gun: the weapon's dice, 4+ (5+ in cover) to hit; no
    evade; each hit removes one of its Hull Points (p.80; DW-9)."""

    def run(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        if m is not None:
            spend_ammo(g, v, m)
        s = g.state.obstacles.get(sid)
        if s is None or s.hull is None:
            return
        n = w.attack_dice or 0
        rolled = g.roll(n, "attack", source="attack", page=32, vehicle=v.id, target=sid,
                        weapons=[key], counts=[n])
        scored = score_attack(rolled, penalty=1 if cover else 0)
        g.emit("attack_hits", source="attack", page=32, vehicle=v.id, target=sid,
               hits=scored.hits, criticals=scored.criticals)
        if scored.hits:
            s.damage = min(s.hull, s.damage + scored.hits)
            g.emit("obstacle_damage", source=SENTRY_EFFECT, page=80, obstacle=sid,
                   amount=scored.hits, hull_points=s.hull - s.damage)
        if s.damage >= s.hull and g.state.obstacles.pop(sid, None) is not None:
            g.emit("obstacle_removed", source=SENTRY_EFFECT, page=80, obstacle=sid)
        yield from ()

    return run


SENTRY_TOLD = "sentry_shots_told"
"""At a real table: weapon key -> Sentry Gun id -> in cover, as the people last said (CP-19)."""


def weapons_that_may_shoot(g: Game, v: VehicleState, uses: dict[str, int]
                  ) -> list[tuple[str, WeaponMount | None, Weapon]]:
    """The Handgun and ``v``'s weapons that may still shoot this Attack Step (at a Sentry
    Gun, or at a scenario's turret): each with ammunition to spend, not yet used up."""
    cat = g.catalog
    armed: list[tuple[str, WeaponMount | None, Weapon]] = [
        (HANDGUN, None, cat.weapons.get(HANDGUN))]
    armed += [(m.key, m, cat.weapons.get(m.weapon)) for m in v.weapons
              if m.weapon in cat.weapons.records and m.weapon != HANDGUN
              and (m.ammo is None or m.ammo > 0)
              and (m.ammo is None or may_discard_ammo(g, v, m.key))]
    return [(key, m, w) for key, m, w in armed if uses.get(key, 0) < weapon_uses(g, v, key)]


def _sentry_shots_told(g: Game, ctx: dict[str, Any]) -> Flow:
    """At a real table (ruling CP-19), as the Attack Step looks at the table: per weapon with
    attack dice, the attacker's controller names the Sentry Guns within its range and arc,
    not behind Tall terrain, each in cover or not ("nothing" first; ``ask_reach``)."""
    from carnage.games.refuelled.engine.weapon_reach import ask_reach

    v: VehicleState = ctx["vehicle"]
    g.state.scenario[SENTRY_TOLD] = yield from ask_reach(
        g, v, "sentry_in_reach", "Sentry Guns",
        [(s.id, sentry_words(g, s.id)) for s in sentries(g)],
        weapons_that_may_shoot(g, v, ctx["uses"]), page=80)


def _sentry_shots_noted(value: Any, ctx: dict[str, Any]) -> None:
    """On a recording table: the Sentry Guns each weapon could shoot, as a real table asks."""
    from carnage.games.refuelled.engine.weapon_reach import note_reach

    g: Game = ctx["game"]
    v: VehicleState = ctx["vehicle"]

    def shot(key: str, m: WeaponMount | None, w: Weapon, sid: str) -> tuple[str, bool] | None:
        return _shootable(g, v, key, m, w, g.state.obstacles[sid], ctx["sight"])

    note_reach(g, "sentry_in_reach", [s.id for s in sentries(g)],
               weapons_that_may_shoot(g, v, ctx["uses"]), shot)


@RULES.journaled('sentries')
def install_sentries(g: Game) -> None:
    """Sentry Guns shoot at enemies ending a Movement Step near them; vehicles may shoot them
    (once per game): at a real table, those the people say each weapon reaches (CP-19)."""
    if any(h.effect == SENTRY_EFFECT for h in g.effects.handlers("attack_options")):
        return

    def movement_end(game: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        for s in sentries(game):
            if not v.in_play or game.state.finished:
                return
            if s.id in game.state.obstacles and sentry_player(game, s) != v.player:
                yield from sentry_fires(game, s, v)

    def options(value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        guns = sentries(game)
        if not guns:
            return None
        uses: dict[str, int] = ctx.get("uses", {})
        extra: list[AttackOption] = []
        if game.facts.people:
            from carnage.games.refuelled.engine.weapon_reach import told_options

            extra = told_options(
                game, weapons_that_may_shoot(game, v, uses),
                game.state.scenario.get(SENTRY_TOLD, {}),
                lambda sid: sentry_words(game, sid), shoot_sentry,
                lambda sid: sid in game.state.obstacles)
            return [*value, *extra] if extra else None
        sight = Sight(game, v)
        for key, m, w in weapons_that_may_shoot(game, v, uses):
            for s in guns:
                got = _shootable(game, v, key, m, w, s, sight)
                if got is not None:
                    band, cover = got
                    label = (f"{w.name} ({band}) at {sentry_words(game, s.id)}"
                             f"{' [cover]' if cover else ''}")
                    extra.append(AttackOption(f"{key}>{s.id}", label, key,
                                              shoot_sentry(key, m, w, s.id, cover)))
        return [*value, *extra] if extra else None

    g.effects.on("movement_end", SENTRY_EFFECT, lambda flows, ctx: [*flows, movement_end])
    g.effects.on("attack_options", SENTRY_EFFECT, options)
    if g.facts.people:  # a real table: the people say which Sentry Guns each weapon reaches
        g.effects.add_flow("table_shots", SENTRY_EFFECT, lambda ctx: _sentry_shots_told)
    else:
        g.effects.on("table_shots_noted", SENTRY_EFFECT, _sentry_shots_noted)


DROPS["sentry_gun"] = drop_sentry


# -- Glue: two gears down at the end of the Movement Step (p.79) ---------------------------------
# Vehicle conditions: ``glued`` the gear change is due at the end of a Movement Step;
# ``glue_now`` affected in the current (or, between activations, the last) activation;
# ``glue_next`` affected between activations, which counts as its next activation;
# ``glue_immune`` affected in the previous activation, so not in this one (DW-5).
def _glue_immune(g: Game, v: VehicleState) -> bool:
    if g.state.active == v.id:
        return bool(v.conditions.get("glue_immune"))
    return bool(v.conditions.get("glue_now"))


@RULES.journaled('glue')
def install_glue(g: Game) -> None:
    if any(h.effect == GLUE_EFFECT for h in g.effects.handlers("activation_start")):
        return

    def started(game: Game, ctx: dict[str, Any]) -> Flow:
        c = ctx["vehicle"].conditions
        if c.pop("glue_now", 0):
            c["glue_immune"] = 1
        else:
            c.pop("glue_immune", None)
        if c.pop("glue_next", 0):
            c["glue_now"] = 1
        yield from ()

    def ignores(value: Any, ctx: dict[str, Any]) -> Any:
        t: TableTemplate | None = ctx.get("template")
        if t is None or t.kind != GLUE_EFFECT or value is True:
            return None
        return True if _glue_immune(ctx["game"], ctx["vehicle"]) else None

    def movement_end(game: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        if v.conditions.pop("glued", 0):
            locked = int(game.effects.run_event("min_gear", 1, {"game": game, "vehicle": v,
                                                                "forced": True}))
            before = v.gear
            game.add_gear(v, -min(GLUE_GEARS, max(0, v.gear - max(1, locked))), GLUE_EFFECT, 79)
            game.emit("glue_gear_loss", source=GLUE_EFFECT, page=79, vehicle=v.id,
                      before=before, gear=v.gear)
        yield from ()

    g.effects.on("activation_start", GLUE_EFFECT, lambda flows, ctx: [*flows, started])
    g.effects.on("ignores_dropped", GLUE_EFFECT, ignores)
    g.effects.on("movement_end", GLUE_EFFECT, lambda flows, ctx: [*flows, movement_end],
                 priority=5)


# -- installers ----------------------------------------------------------------------------------
_EXTRA = {"glue_dropper": install_glue, "rc_car_bombs": install_rc_cars,
          "sentry_gun": install_sentries}


def _install_weapon(g: Game, v: VehicleState | None, eid: EffectId) -> None:
    install_drops(g)
    weapon = eid.name
    if weapon in _EXTRA:
        _EXTRA[weapon](g)


def _template_shape(g: Game, v: VehicleState | None, source: str) -> None:
    """Small Burst / Large Burst on a dropped weapon: the shape of the template it leaves
    (``Weapon.dropped_template``); nothing to install."""


for _wid in DROPS:
    RULES.rule_with_id("weapon", _wid)(_install_weapon)
for _rid in ("small_burst", "large_burst"):
    RULES.rule("weapon_rule", _rid)(_template_shape)
