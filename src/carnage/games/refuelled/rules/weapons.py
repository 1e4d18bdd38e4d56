"""Shooting weapons and their special rules as effects (Refuelled pp.67, 72-77, 81-82).

Every shooting weapon of the catalogue has an installer here (``@RULES.rule("weapon", id)``),
and so has every special rule they carry (``weapon_rule``): the attack step offers a weapon once
both are registered (``engine.attack.weapon_playable``). Plain weapons install nothing: their
range, arc, dice and ammo are the core's. The rest hook into the attack step:

* ``attack`` (after the dice are scored): mark hit groups that cause no damage or that trigger a
  rule through un-cancelled hits, so they are evaded last (p.42);
* ``after_attack`` (flows, once the evade and damage are done): Harpoon, Grabber Arm, Grav Gun,
  Kinetic Super Booster, Gas Grenades, Arc Lightning chains;
* ``attack_options``: weapons that need no target (Thumper, Wall of Amplifiers, Wrecking Ball,
  Wreck Lobber), resolved as they are declared (ruling WP-2);
* ``attack_declared`` (flows): Splash picks the other vehicles under the template (WP-1).

Conditions a rule leaves on a vehicle live in ``VehicleState.conditions``: ``on_fire``,
``grav_gun`` (+1/-1 weight class) and ``grav_gun_armed``, ``jammed`` (1 until its next
activation starts, 2 during it), ``gassed`` (crew lost until the end of the Gear Phase).
Rulings WP-1..WP-16 are in docs/rulings.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from carnage.catalog import TemplateUse, Weapon
from carnage.games.refuelled.engine.attack import (
    AttackOption,
    AttackResolution,
    Shot,
    Sight,
    may_discard_ammo,
    weapon_arc,
    weapon_uses,
)
from carnage.games.refuelled.engine.collision import resolve_collision, weight_class
from carnage.games.refuelled.engine.combat import roll_attack
from carnage.games.refuelled.engine.damage import HitGroup, suffer_damage, take_hits
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import Obstacle, Status, VehicleState, WeaponMount
from carnage.games.refuelled.engine.table_facts import judged, picked, reached
from carnage.geometry.arcs import (
    Arc,
    PlacementFamily,
    fixed_families,
    parse_arc,
    turret_families,
)
from carnage.geometry.collision import TOUCH_TOL
from carnage.geometry.footprints import footprint
from carnage.geometry.ranges import ShootingTemplate, shooting_template
from carnage.geometry.shapes import (
    Point,
    Pose,
    Rect,
    bounding_circle,
    closest_points,
    distance,
    overlaps,
    penetration,
)
from carnage.geometry.table import Table, off_table
from carnage.kernel.decisions import Decision, Interval
from carnage.kernel.dice import SkidFace, skid_face
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

FlowFn = Callable[["Game", dict[str, Any]], "Flow"]

# -- numbers from the book -----------------------------------------------------------------------
CANNON_HAZARDS = 2
"""125mm Cannon: Hazards for firing it, unless the vehicle is a Tank (p.72)."""
TANK = "tank"
BFG_HAZARDS = 3
"""BFG recoil: a forced Medium Straight backwards, gear 1 and 3 Hazards (p.73)."""
BFG_RECOIL = "medium_straight"
DEATH_RAY_HITS = 5
"""Un-cancelled Death Ray hits that remove the target from play (p.73)."""
THUMPER_GEAR_BONUS = 2
"""Thumper: flip checks count the gear 2 higher, at most 6 (p.74)."""
MAX_GEAR = 6
WRECKING_BALL_DICE = 2
"""Extra smash dice for the vehicle swinging a Wrecking Ball (p.75)."""
SHOTGUN_DICE = (("short", 3), ("medium", 2), ("long", 1))
"""Shotgun dice by the shortest range ruler reaching the target (p.77)."""
LOBBED_WRECK = "car"
"""The Wreck Lobber throws the wreck of a Car (p.75): its footprint and weight."""

# -- small helpers ---------------------------------------------------------------------------------


def _weapon(g: Game, wid: str) -> Weapon:
    return g.catalog.weapons.get(wid)


def _has_rule(g: Game, wid: str, rule: str) -> bool:
    return rule in _weapon(g, wid).special_rules


def _once(g: Game, effect: str, event: str, fn: Callable[[Any, dict[str, Any]], Any],
          priority: int = 0) -> None:
    """Register ``fn`` once per game (rules acting on any vehicle, not only their carrier)."""
    if not any(h.effect == effect for h in g.effects.handlers(event)):
        g.effects.on(event, effect, fn, priority)




def _pairs(res: AttackResolution, wid: str) -> list[tuple[Shot, HitGroup]]:
    """The shots of weapon ``wid`` in an attack with their hit groups."""
    return [(s, grp) for s, grp in zip(res.shots, res.groups, strict=True) if s.weapon == wid]


def _mounts(v: VehicleState, wid: str) -> list[WeaponMount]:
    return [m for m in v.weapons if m.weapon == wid]


def _within(g: Game, a: Sequence[Point], b: Sequence[Point], band: str) -> bool:
    """Within ``band`` range in a 360-degree arc: the gap between the footprints against the
    range ruler (as explosions, AT-6)."""
    return distance(a, b) <= g.templates.ranges[band] + 1e-9


def _gap(a: VehicleState, b: VehicleState) -> float:
    """Gap between two vehicles, every body counted (a War Rig's trailer too)."""
    return min(distance(ra.polygon(), rb.polygon()) for _, ra in a.bodies() for _, rb in b.bodies())


def _near(g: Game, v: VehicleState, band: str) -> list[VehicleState]:
    """Other vehicles in play within ``band`` of ``v`` all round, nearest first (ties by id)."""
    found = [(_gap(v, t), t.id, t) for t in g.state.in_play()
             if t.id != v.id and t.hull_points > 0]
    reach = g.templates.ranges[band] + 1e-9
    return [t for d, _, t in sorted(found, key=lambda x: (x[0], x[1])) if d <= reach]


def spend_ammo(g: Game, v: VehicleState, m: WeaponMount, source: str, page: int) -> bool:
    """Discard an Ammo Token from ``m`` (p.81); False (nothing spent) when it cannot."""
    if m.ammo is None:
        return True
    if m.ammo <= 0 or not may_discard_ammo(g, v, m.key):
        return False
    m.ammo -= 1
    g.emit("ammo", source=source, page=page, vehicle=v.id, weapon=m.key, ammo=m.ammo)
    return True


def _free(g: Game, v: VehicleState | None, poly: Sequence[Point]) -> bool:
    """``poly`` lies on the table and overlaps nothing (touching is fine)."""
    if off_table([list(poly)], Table(g.state.width, g.state.height)):
        return False
    others = [r.polygon() for o in g.state.in_play() if v is None or o.id != v.id
              for _, r in o.bodies()]
    others += [ob.polygon() for ob in g.state.obstacles.values()]
    return all(penetration(poly, o) <= TOUCH_TOL for o in others)


def _touching(g: Game, poly: Sequence[Point], *, but: str = "") -> list[str]:
    """Vehicles in play touching ``poly``, in table order."""
    from carnage.games.refuelled.engine.movement import touches

    return [t.id for t in g.state.in_play()
            if t.id != but and any(touches(poly, r.polygon()) for _, r in t.bodies())]


# -- rules the core plays, registered so their weapons count as implemented ---------------------


def _core(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """Nothing to install: the core plays it (see the registration below)."""


# Ammo: tokens spent per attack, an empty weapon not offered (engine/attack.py, p.81).
RULES.rule("weapon_rule", "ammo")(_core)
# Blast: a Hazard per un-cancelled hit, before damage (engine/damage.take_hits, p.81).
RULES.rule("weapon_rule", "blast")(_core)
# Crew Fired: 360-degree arc, no facing (engine/attack.weapon_arc, p.81).
RULES.rule("weapon_rule", "crew_fired")(_core)
# 360-degree arc of fire of weapons taking no facing (engine/attack.weapon_arc, p.74).
RULES.rule("weapon_rule", "all_round_arc")(_core)
# Electrical: no effect in play; it limits who may buy the weapon (p.72; team builder) and is
# what Mishkin's Dynamo reloads (p.93) through ``Weapon.electrical``.
RULES.rule("weapon_rule", "electrical")(_core)

PLAIN_WEAPONS = (
    "handgun", "machine_gun", "heavy_machine_gun", "minigun",  # p.67
    "bazooka", "combat_laser", "flamethrower", "mortar", "rockets",  # p.72
    "blunderbuss", "grenades", "magnum", "molotov_cocktails", "submachine_gun",  # p.76
)
"""Weapons whose whole behaviour is their stat line and the special rules below."""
for _wid in PLAIN_WEAPONS:
    RULES.rule("weapon", _wid)(_core)


# -- Blitz (p.81) ---------------------------------------------------------------------------------


@RULES.rule("weapon_rule", "blitz")
def blitz(game: Game, v: VehicleState | None, source: str) -> None:
    """As many attacks with the weapon in one Attack Step as it has Ammo Tokens."""

    def uses(value: int, ctx: dict[str, Any]) -> int | None:
        m = ctx.get("mount")
        if m is None or not _has_rule(ctx["game"], m.weapon, "blitz"):
            return None
        return max(value, m.ammo or 0)

    game.effects.on("weapon_uses", source, uses, about=v)


# -- Indirect (p.82) ------------------------------------------------------------------------------


@RULES.rule("weapon_rule", "indirect")
def indirect(game: Game, v: VehicleState | None, source: str) -> None:
    """Terrain does not block the weapon and the target gets no cover."""

    def ignores(value: bool, ctx: dict[str, Any]) -> bool | None:
        g = ctx["game"]
        return True if _has_rule(g, ctx["weapon"], "indirect") else None

    def penalty(value: int, ctx: dict[str, Any]) -> int | None:
        if "indirect" in ctx["weapon"].special_rules:
            return min(value, 0)
        return None

    game.effects.on("ignores_terrain", source, ignores, about=v)
    game.effects.on("to_hit_penalty", source, penalty, priority=-10, about=v, key="attacker")


# -- Splash (p.82) --------------------------------------------------------------------------------

SPLASH_T_STEPS = 9
"""Placements tried along each family of template positions (ruling WP-1)."""
SPLASH_TURRET_STEP = 10
"""Degrees between the facings tried for a 360-degree Splash weapon."""
SPLASH_OUTLINE = 16
"""Vertices kept of a template's outline for the sampled placements (a Burst has ~40)."""


def _families(body: Rect, arc: Arc, tpl: ShootingTemplate, towards: Point
               ) -> Iterator[PlacementFamily]:
    """The families of template placements in the arc; for 360 degrees, facings every
    ``SPLASH_TURRET_STEP`` degrees that could reach towards the target (ruling WP-1)."""
    if arc is not Arc.TURRET:
        yield from fixed_families(body, arc, tpl)
        return
    bearing = math.degrees(math.atan2(towards[1] - body.pose.y, towards[0] - body.pose.x))
    for k in range(-100, 101, SPLASH_TURRET_STEP):
        yield from turret_families(body, tpl, bearing + k)


def splash_sets(g: Game, v: VehicleState, shot: Shot) -> list[tuple[str, ...]]:
    """The sets of other vehicles that could lie under the template together with the declared
    target, from sampled placements touching it (ruling WP-1); smallest first."""
    target = g.state.vehicles[shot.target]
    tpl = shooting_template(shot.template, g.templates)
    body = v.rect()
    bodies = [(o.id, o.polygon()) for o in g.state.in_play()
              if o.id != v.id and o.hull_points > 0]
    circles = {oid: bounding_circle(p) for oid, p in bodies}
    tx, ty, tr = circles[target.id]
    ts = [i / (SPLASH_T_STEPS - 1) for i in range(SPLASH_T_STEPS)]
    found: set[tuple[str, ...]] = set()
    for fam in _families(body, parse_arc(shot.arc), tpl, (tx, ty)):
        shape = fam.shape(tpl)
        shape = shape[::max(1, math.ceil(len(shape) / SPLASH_OUTLINE))]
        sx, sy, sr = bounding_circle(shape)
        for t in ts:
            ox, oy = fam.origin(t)
            cx, cy = ox + sx, oy + sy
            if math.hypot(cx - tx, cy - ty) > sr + tr + TOUCH_TOL:
                continue  # bounding circles apart: cannot touch the target
            poly = [(x + ox, y + oy) for x, y in shape]
            # An axis separating the two by more than TOUCH_TOL (and 1 µm for rounding) puts
            # them farther apart than that: the exact gap is needed only when none does.
            under = [oid for oid, op in bodies
                     if math.hypot(cx - circles[oid][0], cy - circles[oid][1])
                     <= sr + circles[oid][2] + TOUCH_TOL
                     and overlaps(poly, op, TOUCH_TOL + 1e-6) and distance(poly, op) <= TOUCH_TOL]
            if target.id in under:
                found.add(tuple(sorted(i for i in under if i != target.id)))
    return sorted(found or {()}, key=lambda s: (len(s), s))


@RULES.rule("weapon_rule", "splash")
def splash(game: Game, v: VehicleState | None, source: str) -> None:
    """Every vehicle under the template is attacked, each separately with the full dice."""

    def pick(ctx: dict[str, Any]) -> FlowFn | None:
        shot: Shot = ctx["shot"]
        if shot.extra or not _has_rule(ctx["game"], shot.weapon, "splash"):
            return None
        return lambda g, c: _splash_flow(g, c, shot)

    game.effects.add_flow("attack_declared", source, pick, about=v)


def _splash_at_table(g: Game, ctx: dict[str, Any], shot: Shot) -> Flow:
    """Splash at a real table (engine/table_facts.py): the attacker lays the template
    touching the target and the people say which other vehicles lie under it, and whether
    each is in cover (p.82, p.42)."""
    from carnage.games.refuelled.engine.attack import targets_for
    from carnage.games.refuelled.engine.table_facts import ask_list, ask_yes_no

    v: VehicleState = ctx["vehicle"]
    others = [t for t in targets_for(g, v) if t.id != shot.target]
    w = _weapon(g, shot.weapon)
    also = yield from ask_list(
        g, v.player, "splash_under", f"{v.name}: the {w.name} template laid touching "
        f"{g.state.vehicles[shot.target].name}: which other vehicles lie under it?",
        [(t.id, t.name) for t in others], page=82, vehicle=v.id, weapon=shot.key)
    g.emit("splash", source="splash", page=82, vehicle=v.id, weapon=shot.key,
           target=shot.target, also=also)
    mount = next((m for m in v.weapons if m.key == shot.key), None)
    indirect_ = g.effects.run_event("ignores_terrain", False, {
        "game": g, "vehicle": v, "mount": mount, "weapon": shot.weapon}) is True
    declared: list[Shot] = ctx["declared"]
    for oid in also:
        cover = False
        if not indirect_:
            cover = yield from ask_yes_no(
                g, v.player, "cover", f"{v.name}: is {g.state.vehicles[oid].name} in cover "
                f"from its {w.name} (p.42)?", page=42, vehicle=v.id, target=oid,
                weapon=shot.key)
        declared.append(Shot(shot.key, shot.weapon, oid, shot.template, shot.arc, cover,
                             extra=True))


def _splash_flow(g: Game, ctx: dict[str, Any], shot: Shot) -> Flow:
    if g.facts.people:
        yield from _splash_at_table(g, ctx, shot)
        return
    v: VehicleState = ctx["vehicle"]
    sets = splash_sets(g, v, shot)
    # ``splash_sets`` hook: a rule may narrow where the template goes (a creature's Berserk).
    narrowed = g.effects.run_event("splash_sets", sets, {"game": g, "vehicle": v, "shot": shot})
    if isinstance(narrowed, list) and narrowed:
        sets = narrowed
    names = {t.id: t.name for t in g.state.vehicles.values()}
    pick = yield ask(
        v.player, "splash",
        f"{v.name}: place the {_weapon(g, shot.weapon).name} template over which vehicles?",
        [(",".join(s) or "-", " + ".join([names[shot.target], *(names[i] for i in s)]))
         for s in sets], source="splash", page=82,
         vehicle=v.id, target=shot.target, weapon=shot.key,
    )
    also = [i for i in str(pick).split(",") if i and i != "-"]
    if g.facts.recording:  # a real table asks who lies under the template laid
        from carnage.games.refuelled.engine.attack import targets_for

        if any(t.id != shot.target for t in targets_for(g, v)):
            g.facts.note("splash_under", list(also))
    g.emit("splash", source="splash", page=82, vehicle=v.id, weapon=shot.key,
           target=shot.target, also=also)
    sight: Sight = ctx["sight"]
    mount = next((m for m in v.weapons if m.key == shot.key), None)
    indirect_ = g.effects.run_event("ignores_terrain", False, {
        "game": g, "vehicle": v, "mount": mount, "weapon": shot.weapon}) is True
    declared: list[Shot] = ctx["declared"]
    for oid in also:
        cover = False if indirect_ else sight.check(
            g.state.vehicles[oid], parse_arc(shot.arc), shot.template).cover
        if not indirect_:
            g.facts.note("cover", cover)
        declared.append(Shot(shot.key, shot.weapon, oid, shot.template, shot.arc, cover,
                             extra=True))


# -- Fire and On Fire (p.81) ----------------------------------------------------------------------

ON_FIRE = "on_fire"


def catch_fire(g: Game, t: VehicleState, source: str, page: int) -> None:
    """``t`` gains the On Fire rule (never twice)."""
    if t.in_play and ON_FIRE not in t.conditions:
        t.conditions[ON_FIRE] = 1
        g.emit("on_fire", source=source, page=page, vehicle=t.id)


@RULES.rule("weapon_rule", "fire")
def fire(game: Game, v: VehicleState | None, source: str) -> None:
    """Damage from a Fire weapon sets the target On Fire; On Fire is installed once per game."""
    install_on_fire(game)


@RULES.journaled('on_fire')
def install_on_fire(game: Game) -> None:
    """On Fire (p.81): a Hull Point lost as each activation starts, smash attacks with Fire,
    out when the vehicle's Hazards drop to zero (ruling WP-3). Also used by the Napalm template."""
    eff = "weapon_rule:fire"

    def burned(value: None, ctx: dict[str, Any]) -> None:
        t: VehicleState = ctx["target"]
        if any("fire" in grp.rules and grp.damaging and grp.uncancelled > 0
               for grp in ctx["groups"]):
            catch_fire(ctx["game"], t, "fire", 81)

    def hazards(value: None, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        data = ctx["data"]
        t = g.state.vehicles.get(str(data.get("vehicle")))
        if t is not None and data.get("hazards") == 0 and ON_FIRE in t.conditions:
            del t.conditions[ON_FIRE]
            g.emit("fire_out", source="on_fire", page=81, vehicle=t.id)

    def burn(g: Game, ctx: dict[str, Any]) -> Flow:
        t: VehicleState = ctx["vehicle"]
        g.emit("burns", source="on_fire", page=81, vehicle=t.id)
        yield from suffer_damage(g, t, 1, source="on_fire", page=81)

    def smash(g: Game, ctx: dict[str, Any]) -> Flow:
        for p, other in (ctx["parties"], ctx["parties"][::-1]):
            if (p.vehicle is not None and ON_FIRE in p.vehicle.conditions
                    and p.reaction == "smash" and other.vehicle is not None
                    and other.hits_taken - other.evaded > 0):
                catch_fire(g, other.vehicle, "on_fire", 81)
        yield from ()

    _once(game, eff, "hits_taken", burned)
    _once(game, eff, "logged:hazards", hazards)
    game.effects.add_flow("activation_start", eff,
        lambda ctx: burn if ON_FIRE in ctx["vehicle"].conditions else None, once=True)
    game.effects.add_flow("collision_end", eff, lambda ctx: smash, once=True)


# -- Zero Crew (p.82) -----------------------------------------------------------------------------


@RULES.journaled('zero_crew')
def install_zero_crew(game: Game) -> None:
    """A vehicle with no crew changes down a gear as it activates, and only templates
    hazardous in its gear count as permitted. Installed with anything that lowers crew."""
    eff = "zero_crew"

    def crewless(g: Game, v: VehicleState) -> bool:
        return g.stat(v, "crew") <= 0

    def gear_down(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        g.emit("zero_crew", source="zero_crew", page=82, vehicle=v.id)
        g.add_gear(v, -1, "zero_crew", 82)
        yield from ()

    def use(value: TemplateUse, ctx: dict[str, Any]) -> TemplateUse | None:
        if value is not TemplateUse.HAZARDOUS and crewless(ctx["game"], ctx["vehicle"]):
            return TemplateUse.NOT_PERMITTED
        return None

    game.effects.add_flow("activation_start", eff,
        lambda ctx: gear_down if crewless(ctx["game"], ctx["vehicle"]) else None, once=True)
    _once(game, eff, "template_use", use, priority=-10)


# -- helpers for weapons whose hits do something else ---------------------------------------------


def _mark(game: Game, v: VehicleState | None, source: str, wid: str, *,
          damaging: bool = True) -> None:
    """On ``v``'s attacks, ``wid``'s hits trigger its rule (evaded last, p.42) and, unless
    ``damaging``, cause no damage."""

    def mark(res: AttackResolution, ctx: dict[str, Any]) -> None:
        if res.attacker is not v:
            return
        for _, grp in _pairs(res, wid):
            grp.on_hit = (*grp.on_hit, wid)
            grp.damaging = grp.damaging and damaging

    game.effects.on("attack", source, mark)


def _after(game: Game, v: VehicleState | None, source: str, wid: str,
           body: Callable[[Game, AttackResolution, Shot, HitGroup], Flow]) -> None:
    """Run ``body`` for each of ``wid``'s hit groups with un-cancelled hits once ``v``'s attack
    is resolved."""

    def run(g: Game, ctx: dict[str, Any]) -> Flow:
        res: AttackResolution = ctx["resolution"]
        for shot, grp in _pairs(res, wid):
            if grp.uncancelled > 0 and not g.state.finished:
                yield from body(g, res, shot, grp)

    def pick(ctx: dict[str, Any]) -> FlowFn | None:
        res: AttackResolution = ctx["resolution"]
        return run if res.attacker is v and _pairs(res, wid) else None

    game.effects.add_flow("after_attack", source, pick)


# -- 125mm Cannon (p.72) --------------------------------------------------------------------------


@RULES.rule("weapon", "125mm_cannon")
def cannon(game: Game, v: VehicleState | None, source: str) -> None:
    """Firing it gives the vehicle 2 Hazards unless it is a Tank."""

    def fired(value: None, ctx: dict[str, Any]) -> None:
        a: VehicleState = ctx["attacker"]
        if a is v and ctx["weapon"].id == "125mm_cannon" and a.type != TANK:
            ctx["game"].add_hazards(a, CANNON_HAZARDS, "125mm_cannon", 72)

    game.effects.on("weapon_fired", source, fired)


# -- BFG (p.73) -----------------------------------------------------------------------------------


@RULES.rule("weapon", "bfg")
def bfg(game: Game, v: VehicleState | None, source: str) -> None:
    """Recoil: forced Medium Straight backwards, gear 1, 3 Hazards (in the attack's collision
    window, ruling WP-15)."""

    def recoil(g: Game, res: AttackResolution) -> Flow:
        from carnage.games.refuelled.engine.movement import forced_move

        a = res.attacker
        g.emit("recoil", source="bfg", page=73, vehicle=a.id)
        yield from forced_move(g, a, BFG_RECOIL, source="bfg", page=73, reverse=True)
        if a.in_play:
            if a.gear != 1:
                a.gear = 1
                g.emit("gear", source="bfg", page=73, vehicle=a.id, gear=1)
            g.add_hazards(a, BFG_HAZARDS, "bfg", 73)

    def window(value: list[Any], ctx: dict[str, Any]) -> list[Any] | None:
        res: AttackResolution = ctx["resolution"]
        fired = any(not s.extra for s, _ in _pairs(res, "bfg"))
        return [*value, recoil] if res.attacker is v and fired else None

    game.effects.on("attack_window", source, window)


# -- Death Ray (p.73) -----------------------------------------------------------------------------


@RULES.rule("weapon", "death_ray")
def death_ray(game: Game, v: VehicleState | None, source: str) -> None:
    """Five or more un-cancelled hits remove the target instead of damaging it; it counts as
    wrecked for votes and scenarios (ruling WP-14)."""
    _mark(game, v, source, "death_ray")

    def landed(value: None, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        t: VehicleState = ctx["target"]
        groups: list[HitGroup] = ctx["groups"]
        rays = [grp for grp in groups if "death_ray" in grp.on_hit]
        if not rays or max(grp.uncancelled for grp in rays) < DEATH_RAY_HITS or not t.in_play:
            return
        for grp in groups:
            grp.uncancelled = 0  # instead of causing damage
        g.emit("death_ray", source="death_ray", page=73, vehicle=t.id,
               hits=max(grp.hits for grp in rays))
        g.emit("wrecked", source="death_ray", page=73, vehicle=t.id, player=t.player,
               in_collision=False)
        g.state.votes[t.player] += 1
        g.emit("audience_vote", source="death_ray", page=73, player=t.player, gained=1,
               votes=g.state.votes[t.player])
        t.status = Status.REMOVED
        g.emit("removed", source="death_ray", page=73, vehicle=t.id, reason="death ray")
        g.effects.run_event("wrecked", None, {"game": g, "vehicle": t})

    _once(game, "weapon:death_ray", "hits_taken", landed)


# -- Grabber Arm (p.73) ---------------------------------------------------------------------------

GRAB_DIRECTIONS = (("ahead", 0), ("ahead-left", 45), ("left", 90), ("behind-left", 135),
                   ("behind", 180), ("behind-right", -135), ("right", -90),
                   ("ahead-right", -45))
"""Directions (relative to the target's facing) the Grabber Arm may set a car down in."""
STAY = "stay"


def grab_spots(g: Game, t: VehicleState) -> list[tuple[str, str, Pose]]:
    """Where the Grabber Arm may set ``t`` down (ruling WP-5): its centre moved half or all of
    Short range in one of eight directions, on the table and overlapping nothing."""
    short = g.templates.ranges["short"]
    out: list[tuple[str, str, Pose]] = []
    for name, rel in GRAB_DIRECTIONS:
        a = math.radians(t.pose.heading + rel)
        for d in (short / 2.0, short):
            pose = Pose(t.pose.x + d * math.cos(a), t.pose.y + d * math.sin(a), t.pose.heading)
            if _free(g, t, Rect(pose, t.length, t.width).polygon()):
                out.append((f"{name}:{d:g}", f"{d:g} mm {name}", pose))
    return out


@RULES.rule("weapon", "grabber_arm")
def grabber_arm(game: Game, v: VehicleState | None, source: str) -> None:
    """A hit on a target no heavier than the attacker lets its controller set the target down
    within Short range, facing any way; a collision window follows."""
    _mark(game, v, source, "grabber_arm")
    _after(game, v, source, "grabber_arm", _grab)


def _grab(g: Game, res: AttackResolution, shot: Shot, grp: HitGroup) -> Flow:
    from carnage.games.refuelled.engine.movement import (
        collision_window,
        obstructions_for,
        touching_ids,
        touching_now,
    )
    from carnage.geometry.movement import spin_body

    a, t = res.attacker, res.target
    if not t.in_play or not a.in_play or weight_class(g, t) > weight_class(g, a):
        return
    if t.trailer is not None:
        return  # an articulated vehicle is not lifted (ruling WP-5)
    start = t.pose
    if not g.facts.people:
        spots = grab_spots(g, t)
        pick = yield ask(
            a.player, "grabber_arm", f"{a.name}: set {t.name} down where (within Short range)?",
            [(STAY, "leave it where it is"), *((val, lbl) for val, lbl, _ in spots)],
            source="grabber_arm", page=73, vehicle=a.id, target=t.id, weapon=shot.key,
        )
        for val, _, pose in spots:
            if val == pick:
                t.pose = pose
        angle = yield Decision(
            a.player, "grabber_turn", f"{a.name}: turn {t.name} to face which way (degrees "
            "anticlockwise)?", domain=Interval(-180.0, 180.0), source="grabber_arm", page=73,
            vehicle=a.id, target=t.id, weapon=shot.key)
        pose, _, _ = spin_body(t.rect(), float(angle), obstructions_for(g, t),
                               ignoring=touching_ids(g, t))
        t.pose = pose
    # At a real table the attacker's controller lifts the car and sets it down as the book
    # allows (within Short, facing any way): they say whether it moved or turned, then what
    # it touches; its pose is a mark (CP-1, CP-19).
    moved = yield from judged(
        g, a.player, "grab_moved", f"{a.name}: did the Grabber Arm set {t.name} down "
        "elsewhere or turn it (within Short range, facing any way)?",
        lambda: t.pose != start, page=73, vehicle=a.id, target=t.id)
    g.emit("grabbed", source="grabber_arm", page=73, vehicle=t.id, by=a.id,
           x=round(t.pose.x, 3), y=round(t.pose.y, 3), heading=round(t.pose.heading, 3))
    if moved:
        touched = sorted((yield from touching_now(g, t, "grab_touching", 73, "set down")))
        if touched:
            yield from collision_window(g, t, touched)


# -- Grav Gun (p.73) ------------------------------------------------------------------------------

GRAV = "grav_gun"
GRAV_ARMED = "grav_gun_armed"


@RULES.rule("weapon", "grav_gun")
def grav_gun(game: Game, v: VehicleState | None, source: str) -> None:
    """Hits make the target a weight class heavier or lighter (the attacker's choice) until
    the end of its next activation, instead of damaging it."""
    _mark(game, v, source, "grav_gun", damaging=False)
    _after(game, v, source, "grav_gun", _grav)
    eff = "weapon:grav_gun"

    def weight(value: int, ctx: dict[str, Any]) -> int | None:
        shift = ctx["vehicle"].conditions.get(GRAV)
        return None if shift is None else max(1, min(3, value + shift))  # ruling WP-6

    def starts(value: None, ctx: dict[str, Any]) -> None:
        t = ctx["game"].state.vehicles.get(str(ctx["data"].get("vehicle")))
        if t is not None and GRAV in t.conditions:
            t.conditions[GRAV_ARMED] = 1

    def ends(value: None, ctx: dict[str, Any]) -> None:
        t: VehicleState = ctx["vehicle"]
        if t.conditions.pop(GRAV_ARMED, None) is not None:
            t.conditions.pop(GRAV, None)
            ctx["game"].emit("grav_gun_ends", source="grav_gun", page=73, vehicle=t.id)

    _once(game, eff, "weight_class", weight)
    _once(game, eff, "logged:activation", starts)
    _once(game, eff, "activation_end", ends)


def _grav(g: Game, res: AttackResolution, shot: Shot, grp: HitGroup) -> Flow:
    a, t = res.attacker, res.target
    if not t.in_play:
        return
    pick = yield ask(
        a.player, "grav_gun", f"{a.name}: make {t.name} a weight class heavier or lighter?",
        [("heavier", "one weight class heavier"), ("lighter", "one weight class lighter")],
        source="grav_gun", page=73, vehicle=a.id, target=t.id, weapon=shot.key,
    )
    t.conditions[GRAV] = 1 if pick == "heavier" else -1
    t.conditions.pop(GRAV_ARMED, None)
    g.emit("grav_gun", source="grav_gun", page=73, vehicle=t.id, shift=t.conditions[GRAV])


# -- Harpoon (p.73) -------------------------------------------------------------------------------


@RULES.rule("weapon", "harpoon")
def harpoon(game: Game, v: VehicleState | None, source: str) -> None:
    """No damage: the first hit spins the target to face the attacker or away (the smaller
    turn), each further hit reels it in a Short Straight; a heavier target pulls the attacker
    instead."""
    _mark(game, v, source, "harpoon", damaging=False)
    _after(game, v, source, "harpoon", _reel)


TOWARDS, AWAY = "towards", "away"
"""A harpooned vehicle's turn (p.73): to face the other directly, or directly away."""


def harpoon_turn(mover: VehicleState, anchor: VehicleState) -> tuple[float, bool]:
    """The smaller turn (degrees anticlockwise) that faces ``mover`` straight at ``anchor`` or
    straight away from it, and whether it then faces it (ties: towards)."""
    bearing = math.degrees(math.atan2(anchor.pose.y - mover.pose.y,
                                      anchor.pose.x - mover.pose.x))
    towards = (bearing - mover.pose.heading + 180.0) % 360.0 - 180.0
    away = (bearing + 180.0 - mover.pose.heading + 180.0) % 360.0 - 180.0
    return (towards, True) if abs(towards) <= abs(away) + 1e-9 else (away, False)


def _reel(g: Game, res: AttackResolution, shot: Shot, grp: HitGroup) -> Flow:
    from carnage.games.refuelled.engine.movement import forced_move, pivot_vehicle

    a, t = res.attacker, res.target
    if not a.in_play or not t.in_play:
        return
    mover, anchor = (a, t) if weight_class(g, t) > weight_class(g, a) else (t, a)
    angle, facing = harpoon_turn(mover, anchor)
    # Which way is the smaller turn: a real table's people judge it (ruling CP-16).
    way = yield from picked(
        g, mover.player, "harpoon_facing", f"{mover.name} is turned to face {anchor.name} "
        "directly, or directly away, whichever is the smaller turn: which is it?",
        [(TOWARDS, f"towards {anchor.name}"), (AWAY, f"away from {anchor.name}")],
        lambda: TOWARDS if facing else AWAY, page=73, vehicle=mover.id, target=anchor.id)
    facing = way == TOWARDS
    g.emit("harpoon", source="harpoon", page=73, vehicle=mover.id, anchor=anchor.id,
           hits=grp.uncancelled, towards=facing)
    yield from pivot_vehicle(g, mover, angle, "harpoon", 73, turn=(
        f"to face {anchor.name} directly" if facing else f"to face directly away from "
        f"{anchor.name}"))
    for _ in range(grp.uncancelled - 1):
        if not mover.in_play or g.state.finished:
            return
        yield from forced_move(g, mover, "short_straight", source="harpoon", page=73,
                               reverse=not facing)


# -- Kinetic Super Booster (p.73) -----------------------------------------------------------------


@RULES.rule("weapon", "kinetic_super_booster")
def kinetic_super_booster(game: Game, v: VehicleState | None, source: str) -> None:
    """No damage: the target goes up a gear per un-cancelled hit, without Hazards, up to its
    max gear."""
    _mark(game, v, source, "kinetic_super_booster", damaging=False)

    def boost(g: Game, res: AttackResolution, shot: Shot, grp: HitGroup) -> Flow:
        t = res.target
        new = min(g.stat(t, "max_gear"), t.gear + grp.uncancelled)
        if t.in_play and new > t.gear:
            t.gear = new
            g.emit("gear", source="kinetic_super_booster", page=73, vehicle=t.id, gear=new)
        yield from ()

    _after(game, v, source, "kinetic_super_booster", boost)


# -- Magnetic Jammer (p.74) -----------------------------------------------------------------------

JAMMED = "jammed"


@RULES.rule("weapon", "magnetic_jammer")
def magnetic_jammer(game: Game, v: VehicleState | None, source: str) -> None:
    """No dice: the target may not discard Ammo Tokens during its next activation (WP-12)."""
    eff = "weapon:magnetic_jammer"

    def jam(res: AttackResolution, ctx: dict[str, Any]) -> None:
        if res.attacker is v and _pairs(res, "magnetic_jammer") and res.target.in_play:
            res.target.conditions[JAMMED] = 1
            ctx["game"].emit("jammed", source="magnetic_jammer", page=74, vehicle=res.target.id)

    def starts(value: None, ctx: dict[str, Any]) -> None:
        t = ctx["game"].state.vehicles.get(str(ctx["data"].get("vehicle")))
        if t is not None and t.conditions.get(JAMMED) == 1:
            t.conditions[JAMMED] = 2

    def ends(value: None, ctx: dict[str, Any]) -> None:
        t: VehicleState = ctx["vehicle"]
        if t.conditions.get(JAMMED) == 2:
            del t.conditions[JAMMED]
            ctx["game"].emit("jam_ends", source="magnetic_jammer", page=74, vehicle=t.id)

    def discard(value: bool, ctx: dict[str, Any]) -> bool | None:
        return False if ctx["vehicle"].conditions.get(JAMMED) == 2 else None

    game.effects.on("attack", source, jam)
    _once(game, eff, "logged:activation", starts)
    _once(game, eff, "activation_end", ends)
    _once(game, eff, "discard_ammo", discard)


# -- weapons that need no target: shared plumbing -------------------------------------------------


def _untargeted(game: Game, v: VehicleState | None, source: str, wid: str) -> None:
    """``wid`` is never offered as "this weapon at that vehicle" (it has options of its own)."""

    def veto(value: bool, ctx: dict[str, Any]) -> bool | None:
        return False if ctx["weapon"] == wid else None

    game.effects.on("weapon_supported", source, veto, about=v)


def _options(game: Game, v: VehicleState | None, source: str,
             make: Callable[[Game, VehicleState], list[AttackOption]]) -> None:
    def offer(value: list[AttackOption], ctx: dict[str, Any]) -> list[AttackOption] | None:
        if v is None:
            return None
        return [*value, *make(ctx["game"], v)]

    game.effects.on("attack_options", source, offer, about=v)


def _loaded(g: Game, v: VehicleState, wid: str) -> list[WeaponMount]:
    return [m for m in _mounts(v, wid)
            if m.ammo is None or (m.ammo > 0 and may_discard_ammo(g, v, m.key))]


# -- what a weapon that is no shooting attack reaches, at a real table (CP-15) -------------------
TOLD = "table:reach"
"""The memory of what the people said each such weapon reaches (companion mode only)."""
REACH_ORDER = {"wrecking_ball_reach": 30, "thumper_reach": 20, "amplifiers_reach": 10,
               "lobber_reach": 5}
"""Where each weapon's reach is asked when one vehicle carries several (higher first): never
at the same moment, so nobody is asked to order them."""

Candidates = Callable[["Game", VehicleState], list[tuple[str, str]]]


def _vehicle_candidates(g: Game, v: VehicleState) -> list[tuple[str, str]]:
    """Every other vehicle in play that may be hit, wherever it stands."""
    return [(t.id, t.name) for t in g.state.in_play() if t.id != v.id and t.hull_points > 0]


def _reach_asked(game: Game, v: VehicleState | None, source: str, wid: str, fact: str,
                 what: str, candidates: Candidates,
                 exact: Callable[[Game, VehicleState], list[str]], page: int,
                 usable: Callable[[Game, VehicleState], list[WeaponMount]] | None = None
                 ) -> None:
    """At a real table, each time ``v``'s Attack Step looks at the table while its weapon
    ``wid`` may still be used and something it might reach is in play, its controller names
    what the weapon reaches (``fact``; the ``table_reach`` hook); a recording table notes what
    ``exact`` measures at the same moment (``table_reach_noted``). Ruling CP-15."""

    def open_(g: Game, me: VehicleState, ctx: dict[str, Any]) -> bool:
        uses: dict[str, int] = ctx.get("uses") or {}
        mounts = usable(g, me) if usable is not None else _mounts(me, wid)
        return any(uses.get(m.key, 0) < weapon_uses(g, me, m.key) for m in mounts) \
            and bool(candidates(g, me))

    def reach(g: Game, ctx: dict[str, Any]) -> Flow:
        me: VehicleState = ctx["vehicle"]
        got = yield from reached(g, me.player, fact, f"{me.name}: {what}", candidates(g, me),
                                 lambda: exact(g, me), page=page, vehicle=me.id)
        g.memory(TOLD, fact, {})[me.id] = got  # in the state: a copy of the game knows it

    def asks(ctx: dict[str, Any]) -> Any:
        return reach if open_(ctx["game"], ctx["vehicle"], ctx) else None

    def noted(value: None, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        if open_(g, ctx["vehicle"], ctx):
            g.facts.note(fact, exact(g, ctx["vehicle"]))

    order = REACH_ORDER.get(fact, 0)
    game.effects.add_flow("table_reach", source, asks, priority=order, about=v)
    game.effects.on("table_reach_noted", source, noted, priority=order, about=v)


def _told_reach(g: Game, v: VehicleState, fact: str, candidates: Candidates) -> list[str]:
    """What the people last said ``v``'s weapon reaches (``fact``), of what is still there."""
    told: dict[str, list[str]] = g.memory(TOLD, fact, {})
    still = {i for i, _ in candidates(g, v)}
    return [i for i in told.get(v.id, []) if i in still]


def _near_at(g: Game, v: VehicleState, band: str, fact: str) -> list[VehicleState]:
    """``_near``, or at a real table the vehicles the people named (``fact``)."""
    if g.facts.people:
        return [g.state.vehicles[i] for i in _told_reach(g, v, fact, _vehicle_candidates)]
    return _near(g, v, band)


def _near_ids(band: str) -> Callable[[Game, VehicleState], list[str]]:
    return lambda g, v: [t.id for t in _near(g, v, band)]


# -- Thumper (p.74) -------------------------------------------------------------------------------


@RULES.rule("weapon", "thumper")
def thumper(game: Game, v: VehicleState | None, source: str) -> None:
    """Declaring it makes every other vehicle within Medium range flip-check as if 2 gears
    higher (at most 6). Not a shooting attack (FAQ)."""
    _untargeted(game, v, source, "thumper")

    def make(g: Game, me: VehicleState) -> list[AttackOption]:
        if not _near_at(g, me, "medium", "thumper_reach"):
            return []
        return [AttackOption(m.key, "Thumper: flip checks within Medium range", m.key,
                             _thump_flow(m), shooting=False) for m in _loaded(g, me, "thumper")]

    _options(game, v, source, make)
    _reach_asked(game, v, source, "thumper", "thumper_reach", "which other vehicles are "
                 "within Medium range of it all round (Thumper)?", _vehicle_candidates,
                 _near_ids("medium"), 74, usable=lambda g, me: _loaded(g, me, "thumper"))


def _thump_flow(m: WeaponMount) -> FlowFn:
    def run(g: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.engine.wipeout import flip

        v: VehicleState = ctx["vehicle"]
        if not spend_ammo(g, v, m, "thumper", 74):
            return
        near = _near_at(g, v, "medium", "thumper_reach")
        g.emit("thumper", source="thumper", page=74, vehicle=v.id, targets=[t.id for t in near])
        for t in near:
            if not t.in_play or g.state.finished:
                continue
            gear = min(MAX_GEAR, t.gear + THUMPER_GEAR_BONUS)
            roll = g.roll(1, "flip check", source="thumper", page=74, vehicle=t.id)[0]
            out = g.effects.run_event("flip_check", roll, {"game": g, "vehicle": t})
            score = roll if not isinstance(out, int) else out
            flipped = score < gear
            g.emit("flip_check", source="thumper", page=74, vehicle=t.id, roll=roll,
                   score=score, gear=gear, flipped=flipped)
            if flipped:
                yield from flip(g, t)

    return run


# -- Wall of Amplifiers (p.74) --------------------------------------------------------------------


@RULES.rule("weapon", "wall_of_amplifiers")
def wall_of_amplifiers(game: Game, v: VehicleState | None, source: str) -> None:
    """One evadable, harmless hit on every vehicle within Medium range; each un-cancelled hit
    adds or removes a Hazard (the attacker's choice). Not a shooting attack (FAQ)."""
    _untargeted(game, v, source, "wall_of_amplifiers")

    def make(g: Game, me: VehicleState) -> list[AttackOption]:
        if not _near_at(g, me, "medium", "amplifiers_reach"):
            return []
        return [AttackOption(m.key, "Wall of Amplifiers: a hit on everyone within Medium "
                             "range", m.key, _amplify, shooting=False)
                for m in _mounts(me, "wall_of_amplifiers")]

    _options(game, v, source, make)
    _reach_asked(game, v, source, "wall_of_amplifiers", "amplifiers_reach", "which other "
                 "vehicles are within Medium range of it all round (Wall of Amplifiers)?",
                 _vehicle_candidates, _near_ids("medium"), 74)


def _amplify(g: Game, ctx: dict[str, Any]) -> Flow:
    v: VehicleState = ctx["vehicle"]
    near = _near_at(g, v, "medium", "amplifiers_reach")
    g.emit("amplifiers", source="wall_of_amplifiers", page=74, vehicle=v.id,
           targets=[t.id for t in near])
    for t in near:
        if not t.in_play or g.state.finished:
            continue
        grp = HitGroup("wall_of_amplifiers", 1, damaging=False)
        g.emit("attack_hits", source="wall_of_amplifiers", page=74, vehicle=v.id, target=t.id,
               hits=1)
        yield from take_hits(g, t, [grp], source="wall_of_amplifiers", page=74)
        if grp.uncancelled <= 0 or not t.in_play:
            continue
        pick = yield ask(
            v.player, "amplifiers", f"{v.name}: {t.name} takes a hit from the amplifiers",
            [("add", "add a Hazard Token"), ("discard", "discard a Hazard Token")],
            source="wall_of_amplifiers", page=74, vehicle=v.id, target=t.id,
        )
        change = 1 if pick == "add" else -min(1, t.hazards)
        g.emit("amplified", source="wall_of_amplifiers", page=74, vehicle=t.id, by=v.id,
               change=change)
        if change > 0:
            g.add_hazards(t, 1, "wall_of_amplifiers", 74)
        elif change < 0:
            # Through the hooks, so what forbids discarding Hazards forbids this too (p.112).
            g.add_hazards(t, -1, "wall_of_amplifiers", 74)


# -- Wrecking Ball (p.75) -------------------------------------------------------------------------

WRECKING_BALL = "wrecking_ball"


@RULES.rule("weapon", "wrecking_ball")
def wrecking_ball(game: Game, v: VehicleState | None, source: str) -> None:
    """T-Bones each vehicle and destructible obstacle within Short range in turn, in
    the controller's order: the others must Evade, this vehicle gets 2 extra smash dice and no
    Hazards (ruling WP-11)."""
    _untargeted(game, v, source, WRECKING_BALL)

    def make(g: Game, me: VehicleState) -> list[AttackOption]:
        if not _swing_targets(g, me):
            return []
        return [AttackOption(m.key, "Wrecking Ball: T-Bone everything within Short range",
                             m.key, _swing, shooting=False)
                for m in _mounts(me, WRECKING_BALL)]

    def mine(ctx: dict[str, Any]) -> bool:
        return ctx.get("cause") == WRECKING_BALL and ctx.get("vehicle") is v

    def reactions(value: list[str], ctx: dict[str, Any]) -> list[str] | None:
        if ctx.get("cause") != WRECKING_BALL:
            return None
        return ["smash"] if mine(ctx) else ["evade"]

    def dice(value: int, ctx: dict[str, Any]) -> int | None:
        return value + WRECKING_BALL_DICE if ctx.get("cause") == WRECKING_BALL else None

    def hazards(value: int, ctx: dict[str, Any]) -> int | None:
        return 0 if ctx.get("cause") == WRECKING_BALL else None

    _options(game, v, source, make)
    game.effects.on("collision_reactions", source, reactions, priority=-10)
    game.effects.on("smash_dice", source, dice, about=v)
    game.effects.on("collision_hazards", source, hazards, priority=-10, about=v)
    # At a real table what it reaches is asked as its Attack Step looks at the table (CP-15).
    _reach_asked(game, v, source, WRECKING_BALL, "wrecking_ball_reach",
                 "what is within Short range of it all round (Wrecking Ball), vehicles and "
                 "destructible obstacles?", _swing_candidates, _swing_exact, 75)


def _swing_candidates(g: Game, v: VehicleState) -> list[tuple[str, str]]:
    """What a Wrecking Ball might reach (p.75): every other vehicle in play and each
    destructible obstacle or wreck, wherever they stand."""
    from carnage.games.refuelled.engine.movement import obstruction_label

    out = [(t.id, t.name) for t in g.state.in_play() if t.id != v.id and t.hull_points > 0]
    out += [(o.id, obstruction_label(g, o.id)) for o in sorted(
        g.state.obstacles.values(), key=lambda o: o.id)
        if o.destructible or o.wreck_of is not None]
    return out


def _swing_targets(g: Game, v: VehicleState) -> list[str]:
    """What is within Short range of ``v`` all round: at a real table, what the people named
    as its Attack Step last looked at the table (still there); on the exact table, measured
    now."""
    if g.facts.people:
        return _told_reach(g, v, "wrecking_ball_reach", _swing_candidates)
    return _swing_exact(g, v)


def _swing_exact(g: Game, v: VehicleState) -> list[str]:
    poly = v.polygon()
    out = [t.id for t in _near(g, v, "short")]
    out += sorted(o.id for o in g.state.obstacles.values()
                  if (o.destructible or o.wreck_of is not None)
                  and _within(g, poly, o.polygon(), "short"))
    return out


def _swing(g: Game, ctx: dict[str, Any]) -> Flow:
    v: VehicleState = ctx["vehicle"]
    left = _swing_targets(g, v)
    g.emit("wrecking_ball", source=WRECKING_BALL, page=75, vehicle=v.id, targets=list(left))
    while left and v.in_play and not g.state.finished:
        oid = str((yield ask(
            v.player, "wrecking_ball", f"{v.name}: which does the Wrecking Ball hit next?",
            [(i, i) for i in left], source=WRECKING_BALL, page=75, vehicle=v.id,
        )))
        left.remove(oid)
        yield from resolve_collision(g, v, oid, orientation="t_bone", cause=WRECKING_BALL)


# -- Wreck Lobber (p.75) --------------------------------------------------------------------------

DUMP = "dump"


@RULES.rule("weapon", "wreck_lobber")
def wreck_lobber(game: Game, v: VehicleState | None, source: str) -> None:
    """Throws the wreck of a Car (Trebuchet) or drops it behind (Dumper); see the rules."""
    _untargeted(game, v, source, "wreck_lobber")


@RULES.rule("weapon_rule", "trebuchet")
def trebuchet(game: Game, v: VehicleState | None, source: str) -> None:
    """A marker within Double range of the arc (set against a vehicle, ruling WP-8), then a
    skid die decides where the wreck lands; a collision window follows."""

    def make(g: Game, me: VehicleState) -> list[AttackOption]:
        out: list[AttackOption] = []
        sight = Sight(g, me)
        cat = g.catalog
        told = set(_told_reach(g, me, "lobber_reach", _vehicle_candidates)) \
            if g.facts.people else set()
        for m in _loaded(g, me, "wreck_lobber"):
            arc = weapon_arc(m, cat.weapons.get("wreck_lobber"))
            for t in g.state.in_play():
                if t.id != me.id and (t.id in told if g.facts.people else sight.check(
                        t, arc, "double", cover=False).in_range):
                    out.append(AttackOption(f"{m.key}>@{t.id}",
                                            f"Wreck Lobber: lob a wreck at {t.name}", m.key,
                                            _lob_flow(m, t.id)))
        return out

    _options(game, v, source, make)
    # At a real table who is within Double of its arc is asked as the Attack Step looks at
    # the table (CP-15); where the wreck lands is still the engine's (docs/design.md).
    _reach_asked(game, v, source, "wreck_lobber", "lobber_reach", "which vehicles are within "
                 "Double range of its Wreck Lobber's arc (Trebuchet)?", _vehicle_candidates,
                 _lobber_exact, 75, usable=lambda g, me: _loaded(g, me, "wreck_lobber"))


def _lobber_exact(g: Game, me: VehicleState) -> list[str]:
    """The vehicles a loaded Wreck Lobber's arc reaches at Double (the exact table)."""
    sight = Sight(g, me)
    arcs = [weapon_arc(m, g.catalog.weapons.get("wreck_lobber"))
            for m in _loaded(g, me, "wreck_lobber")]
    return [t.id for t in g.state.in_play() if t.id != me.id and any(
        sight.check(t, arc, "double", cover=False).in_range for arc in arcs)]


@RULES.rule("weapon_rule", "dumper")
def dumper(game: Game, v: VehicleState | None, source: str) -> None:
    """Dropped off the rear instead: a Car's wreck touching the rear, no collision window."""

    def make(g: Game, me: VehicleState) -> list[AttackOption]:
        # At a real table whether the wreck fits behind is asked as it is dumped (CP-19).
        if not g.facts.people and not _free(g, me, _wreck_rect(_behind(me)).polygon()):
            return []
        return [AttackOption(f"{m.key}>{DUMP}", "Wreck Lobber: dump a wreck behind", m.key,
                             _dump_flow(m)) for m in _loaded(g, me, "wreck_lobber")]

    _options(game, v, source, make)


@RULES.rule("weapon_rule", "low_loader")
def low_loader(game: Game, v: VehicleState | None, source: str) -> None:
    """Colliding with a wreck, the vehicle may load it: +1 Ammo Token for the Wreck Lobber."""

    def pick(ctx: dict[str, Any]) -> FlowFn | None:
        ob: Obstacle | None = ctx.get("obstacle")
        if ob is None or ob.wreck_of is None or v is None:
            return None
        return lambda g, c: _load(g, v)

    game.effects.add_flow("collision_end", source, pick, about=v)


def _load(g: Game, v: VehicleState) -> Flow:
    for m in _mounts(v, "wreck_lobber"):
        if not v.in_play:
            return
        pick = yield ask(v.player, "low_loader",
                         f"{v.name}: load the wreck into the Wreck Lobber (+1 Ammo Token)?",
                         [("load", "gain 1 Ammo Token"), ("no", "leave it")],
                         source="low_loader", page=75, vehicle=v.id, weapon=m.key)
        if pick == "load":
            m.ammo = (m.ammo or 0) + 1
            g.emit("low_loader", source="low_loader", page=75, vehicle=v.id, weapon=m.key,
                   ammo=m.ammo)
        return  # one wreck, one token


def _wreck_rect(pose: Pose) -> Rect:
    length, width = footprint(LOBBED_WRECK)
    return Rect(pose, length, width)


def _facing_out(point: Point, out: Point) -> Pose:
    """A wreck whose long side touches ``point``, lying on the side ``out`` points to."""
    _, width = footprint(LOBBED_WRECK)
    n = math.hypot(*out) or 1.0
    ux, uy = out[0] / n, out[1] / n
    d = width / 2.0
    return Pose(point[0] + ux * d, point[1] + uy * d, math.degrees(math.atan2(uy, ux)) + 90.0)


def _behind(v: VehicleState) -> Pose:
    length, _ = footprint(LOBBED_WRECK)
    back = v.rect().rear_centre()
    a = math.radians(v.pose.heading)
    d = length / 2.0
    return Pose(back[0] - d * math.cos(a), back[1] - d * math.sin(a), v.pose.heading)


def _new_wreck(g: Game, v: VehicleState, pose: Pose, by: int, how: str) -> Obstacle:
    n = 1
    while f"lobbed:{v.id}#{n}" in g.state.obstacles:
        n += 1
    oid = f"lobbed:{v.id}#{n}"
    length, width = footprint(LOBBED_WRECK)
    weight = g.catalog.vehicles.get(LOBBED_WRECK).weight
    ob = Obstacle(oid, pose, length, width, weight=weight, destructible=True,
                  wreck_of=f"{LOBBED_WRECK}:{oid}")
    g.state.obstacles[oid] = ob
    g.emit("wreck_placed", source="wreck_lobber", page=75, obstacle=oid, by=by, how=how,
           x=round(pose.x, 3), y=round(pose.y, 3), heading=round(pose.heading, 3))
    return ob


def _dump_flow(m: WeaponMount) -> FlowFn:
    def run(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        # The exact table offers the dump only where the wreck fits; at a real table the
        # people say whether it does, and a wreck with no room stays loaded (CP-19).
        room = yield from judged(
            g, v.player, "dump_room", f"{v.name}: is there room behind it for the dumped "
            "wreck (touching its rear, on the table, overlapping nothing)?",
            lambda: _free(g, v, _wreck_rect(_behind(v)).polygon()), page=75, vehicle=v.id,
            default=True)
        if not room:
            g.emit("wreck_lost", source="dumper", page=75, vehicle=v.id,
                   reason="no room behind; the wreck stays loaded")
            return
        if not spend_ammo(g, v, m, "dumper", 75):
            return
        _new_wreck(g, v, _behind(v), v.player, "dumper")

    return run


def marker_for(v: VehicleState, t: VehicleState) -> tuple[Point, Point]:
    """The Trebuchet marker against ``t``: the point of ``t`` nearest the thrower, and the
    direction out of ``t`` towards the thrower (ruling WP-8)."""
    pa, pt, _ = closest_points(v.polygon(), t.polygon())
    return pt, (pa[0] - pt[0], pa[1] - pt[1])


def lob_spots(g: Game, v: VehicleState, marker: Point, out: Point, face: SkidFace
              ) -> list[tuple[str, str, Pose]]:
    """Where the wreck may land for the skid ``face`` (ruling WP-8): touching the marker
    (Shift, also allowed within Short range), eight spots a Short range from it (Spin,
    Slide), against one of the thrower's four edges (Hazard). Only spots on the table that
    overlap nothing."""
    spots: list[tuple[str, str, Pose]] = []
    if face is SkidFace.HAZARD:
        r = v.rect()
        a = v.pose.heading
        for name, pt, d in (("front", r.front_centre(), a), ("rear", r.rear_centre(), a + 180),
                            ("left", r.side_centre(True), a + 90),
                            ("right", r.side_centre(False), a - 90)):
            rad = math.radians(d)
            spots.append((name, f"against {v.name}'s {name}",
                          _facing_out(pt, (math.cos(rad), math.sin(rad)))))
    else:
        spots.append(("marker", "touching the marker", _facing_out(marker, out)))
        if face is not SkidFace.SHIFT:
            short = g.templates.ranges["short"]
            for k, name in enumerate(("east", "north-east", "north", "north-west", "west",
                                      "south-west", "south", "south-east")):
                rad = math.radians(45 * k)
                u = (math.cos(rad), math.sin(rad))
                c = (marker[0] + u[0] * short, marker[1] + u[1] * short)
                spots.append((name, f"{short:g} mm {name} of the marker",
                              Pose(c[0], c[1], 45.0 * k + 90.0)))
    return [s for s in spots if _free(g, None, _wreck_rect(s[2]).polygon())]


def _lob_flow(m: WeaponMount, tid: str) -> FlowFn:
    def run(g: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        t = g.state.vehicles[tid]
        if not spend_ammo(g, v, m, "trebuchet", 75):
            return
        marker, out = marker_for(v, t)
        face = skid_face(g.roll(1, "trebuchet", source="trebuchet", page=75, vehicle=v.id)[0])
        chooser = v.player if face is SkidFace.SHIFT else (v.player + 1) % g.state.players
        g.emit("trebuchet", source="trebuchet", page=75, vehicle=v.id, near=tid,
               x=round(marker[0], 3), y=round(marker[1], 3), face=face.value, chooser=chooser)
        people = g.facts.people
        spots = [] if people else lob_spots(g, v, marker, out, face)
        # At a real table the chooser lays the wreck as the skid die allows and says whether
        # it found room; where it lies is a mark (CP-1), what it touches is asked (CP-19).
        room = yield from judged(
            g, chooser, "lob_room", f"Is there room to lay the wreck thrown by {v.name} as "
            f"the skid die's {face.value} allows (on the table, overlapping nothing)?",
            lambda: bool(spots), page=75, vehicle=v.id, default=True, target=tid)
        if not room:
            g.emit("wreck_lost", source="trebuchet", page=75, vehicle=v.id,
                   reason="no room for the wreck")
            return
        if people:
            pose = _facing_out(marker, out)
        else:
            pick = yield ask(chooser, "lob_wreck", f"Place the wreck thrown by {v.name}",
                             [(val, lbl) for val, lbl, _ in spots], source="trebuchet",
                             page=75, vehicle=v.id, target=tid, weapon=m.key)
            pose = next(p for val, _, p in spots if val == pick)
        ob = _new_wreck(g, v, pose, chooser, face.value)
        # The collision window: each vehicle touching the wreck collides with it (it goes
        # after the first Collision, p.44); at a real table the chooser names them.
        hit = yield from reached(
            g, chooser, "lob_touching", f"The wreck thrown by {v.name} landed: which vehicles "
            "does it touch?", [(t.id, t.name) for t in g.state.in_play()],
            lambda: _touching(g, ob.polygon()), page=75, vehicle=v.id)
        for vid in hit:
            veh = g.state.vehicles[vid]
            if veh.in_play and not g.state.finished:
                yield from resolve_collision(g, veh, ob.id)

    return run


# -- Arc Lightning Projector (p.73) ---------------------------------------------------------------

ARC = "arc_lightning_projector"


@RULES.rule("weapon", ARC)
def arc_lightning_projector(game: Game, v: VehicleState | None, source: str) -> None:
    """After damaging a target the lightning must jump to another vehicle within Short range
    of it (the attacker included), each at most once per Attack Step, until it fails to
    damage or finds nobody (ruling WP-4)."""
    _mark(game, v, source, ARC)
    _after(game, v, source, ARC, _chain)


def _chain(g: Game, res: AttackResolution, shot: Shot, grp: HitGroup) -> Flow:
    a = res.attacker
    w = _weapon(g, ARC)
    hit = {res.target.id}
    cur = res.target
    while a.in_play and not g.state.finished:
        pool = [c for c in g.state.in_play() if c.id not in hit and c.hull_points > 0]
        # At a real table the attacker's controller names who is within Short (CP-18).
        near = yield from reached(
            g, a.player, "arc_lightning_reach", f"{a.name}: which vehicles are within Short "
            f"range of {cur.name} (Arc Lightning)?", [(c.id, c.name) for c in pool],
            _jump_reach(g, cur, pool), page=73, vehicle=a.id)
        cands = [g.state.vehicles[i] for i in near]
        if not cands:
            return
        pick = yield ask(a.player, "arc_lightning",
                         f"{a.name}: the lightning jumps from {cur.name} to which vehicle?",
                         [(c.id, c.name) for c in cands], source=ARC, page=73,
                         vehicle=a.id, target=cur.id, weapon=shot.key)
        nxt = g.state.vehicles[str(pick)]
        hit.add(nxt.id)
        g.emit("arc_lightning", source=ARC, page=73, vehicle=a.id, origin=cur.id, target=nxt.id)
        roll = roll_attack(g, w.attack_dice or 0, why="attack", source=ARC, page=73,
                           vehicle=a.id, target=nxt.id)
        g.emit("attack_hits", source=ARC, page=73, vehicle=a.id, target=nxt.id,
               hits=roll.hits, criticals=roll.criticals)
        link = HitGroup(shot.key, roll.hits, rules=tuple(w.special_rules), on_hit=(ARC,))
        yield from take_hits(g, nxt, [link], source=ARC, page=73)
        if link.uncancelled <= 0:
            return
        cur = nxt


def _jump_reach(g: Game, cur: VehicleState, pool: list[VehicleState]
                ) -> Callable[[], list[str]]:
    """The exact table's answer: which of ``pool`` are within Short of ``cur``."""
    reach = g.templates.ranges["short"] + 1e-9
    return lambda: [c.id for c in pool if _gap(cur, c) <= reach]


# -- Crew fired specials (pp.76-77) ---------------------------------------------------------------

GASSED = "gassed"


@RULES.rule("weapon", "gas_grenades")
def gas_grenades(game: Game, v: VehicleState | None, source: str) -> None:
    """No damage: the target loses a Crew per un-cancelled hit (to 0) until the end of the Gear
    Phase; Zero Crew then applies (p.82)."""
    _mark(game, v, source, "gas_grenades", damaging=False)
    eff = "weapon:gas_grenades"

    def gas(g: Game, res: AttackResolution, shot: Shot, grp: HitGroup) -> Flow:
        t = res.target
        if t.in_play:
            t.conditions[GASSED] = t.conditions.get(GASSED, 0) + grp.uncancelled
            g.emit("gassed", source="gas_grenades", page=77, vehicle=t.id,
                   lost=grp.uncancelled, crew=g.stat(t, "crew"))
        yield from ()

    def crew(value: int, ctx: dict[str, Any]) -> int | None:
        lost = ctx["vehicle"].conditions.get(GASSED)
        return None if lost is None else max(0, value - lost)

    def clears(value: None, ctx: dict[str, Any]) -> None:
        g: Game = ctx["game"]
        for t in g.state.vehicles.values():
            if t.conditions.pop(GASSED, None) is not None:
                g.emit("gas_clears", source="gas_grenades", page=77, vehicle=t.id)

    _after(game, v, source, "gas_grenades", gas)
    _once(game, eff, "stat:crew", crew, priority=-10)
    _once(game, eff, "gear_phase_end", clears)
    install_zero_crew(game)


@RULES.rule("weapon", "steel_nets")
def steel_nets(game: Game, v: VehicleState | None, source: str) -> None:
    """Its hits cause no damage; Blast still gives a Hazard per un-cancelled hit."""
    _mark(game, v, source, "steel_nets", damaging=False)


@RULES.rule("weapon", "shotgun")
def shotgun(game: Game, v: VehicleState | None, source: str) -> None:
    """3 dice at Short range, 2 at Medium, 1 at Long (WP-13)."""

    def dice(value: int, ctx: dict[str, Any]) -> int | None:
        shot: Shot = ctx["shot"]
        a: VehicleState = ctx["attacker"]
        if a is not v or shot.weapon != "shotgun":
            return None
        g: Game = ctx["game"]
        if g.facts.people:  # the band the people said as it was declared (ruling CP-18)
            told: dict[str, str] = g.memory(SHOTGUN_TOLD, "band", {})
            return dict(SHOTGUN_DICE)[told.get(f"{shot.key}>{shot.target}", "long")]
        return shotgun_dice(g, a, ctx["target"], shot)

    def band_asked(g: Game, ctx: dict[str, Any]) -> Flow:
        me: VehicleState = ctx["vehicle"]
        shot: Shot = ctx["shot"]
        t = g.state.vehicles[shot.target]
        band = yield from picked(
            g, me.player, "shotgun_band", f"{me.name}: which is the shortest range ruler "
            f"that reaches {t.name} from its Shotgun?",
            [("long", "Long: 1 die"), ("medium", "Medium: 2 dice"), ("short", "Short: 3 dice")],
            lambda: shotgun_band(g, me, t, shot), page=77, vehicle=me.id, target=t.id)
        if g.facts.people:  # kept in the state: a copy of the game knows it too
            g.memory(SHOTGUN_TOLD, "band", {})[f"{shot.key}>{t.id}"] = band

    def asks(ctx: dict[str, Any]) -> Any:
        g: Game = ctx["game"]
        if (g.facts.people or g.facts.recording) and ctx["shot"].weapon == "shotgun":
            return band_asked
        return None

    game.effects.on("attack_dice", source, dice, priority=10)
    game.effects.add_flow("attack_declared", source, asks, about=v)


SHOTGUN_TOLD = "table:shotgun"
"""The memory of the range bands the people gave each Shotgun attack (companion mode)."""


def _shortest_band(g: Game, v: VehicleState, t: VehicleState, shot: Shot) -> str | None:
    """The shortest range ruler that reaches ``t`` from ``v``'s Shotgun, if any does."""
    sight = Sight(g, v)
    arc = parse_arc(shot.arc)
    for band, _ in SHOTGUN_DICE:
        if sight.check(t, arc, band, cover=False).in_range:
            return band
    return None


def shotgun_band(g: Game, v: VehicleState, t: VehicleState, shot: Shot) -> str:
    """The shortest range ruler that reaches ``t`` from ``v``'s Shotgun (Long if none)."""
    return _shortest_band(g, v, t, shot) or "long"


def shotgun_dice(g: Game, v: VehicleState, t: VehicleState, shot: Shot) -> int:
    """The Shotgun's attack dice by the shortest range that reaches (p.77); none beyond."""
    band = _shortest_band(g, v, t, shot)
    return dict(SHOTGUN_DICE)[band] if band else 0


# -- every shooting weapon, for the record -------------------------------------------------------

SHOOTING_WEAPONS = (*PLAIN_WEAPONS, "125mm_cannon", ARC, "bfg", "death_ray", "grabber_arm",
                    "grav_gun", "harpoon", "kinetic_super_booster", "magnetic_jammer", "thumper",
                    "wall_of_amplifiers", "wreck_lobber", WRECKING_BALL, "gas_grenades",
                    "shotgun", "steel_nets")
"""Every non-dropped weapon of the catalogue (pp.67, 72, 76): each has an installer here."""

__all__ = ["SHOOTING_WEAPONS", "catch_fire", "grab_spots", "harpoon_turn", "install_on_fire",
           "install_zero_crew", "lob_spots", "marker_for", "shotgun_dice", "spend_ammo",
           "splash_sets"]
