"""The Attack Step (Refuelled pp.27-33, 42, 81).

2.1 declare targets: one decision per attack, "this weapon at that target" or stop; each
weapon once, Handguns any number of times, at most Crew attacks; targets are other vehicles in
the weapon's range and arc (cover noted, Tall blocks). A Distracted vehicle (touching an
obstruction) makes no shooting attacks (p.42). Then, target by target in declaration order:
2.2 spend ammo and roll every die aimed at that target together (4+ hits, 5+ in cover, a
natural 6 is two hits); the attack collision window; 2.3 one evade roll; 2.4 damage.

A weapon is offered when its rules are implemented: an installer is registered for the weapon
and for each of its special rules (``weapon_playable``; rules/weapons.py). Declarations other
than "this weapon at that vehicle" (weapons needing no target, dropped weapons) come from the
``attack_options`` hook and are resolved as they are declared.
Hooks (see docs/events.md): ``distracted``, ``weapon_supported``, ``ignores_terrain``,
``weapon_uses``, ``attack_options``, ``attack_declared`` (flows), ``discard_ammo``,
``attack_dice``, ``to_hit_penalty``, ``weapon_fired``, ``attack``, ``attack_window``,
``after_attack`` (flows).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from functools import cache
from math import hypot
from typing import TYPE_CHECKING, Any

from carnage.catalog import RangeBand, Weapon
from carnage.games.refuelled.engine.combat import listed, score_attack
from carnage.games.refuelled.engine.damage import HitGroup, take_hits
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import VehicleState, WeaponMount, body_owner
from carnage.geometry.arcs import Arc, parse_arc
from carnage.geometry.cover import Blocker, FireCheck, check_fire, plain_check
from carnage.geometry.ranges import ShootingTemplate, shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, bounding_circle, distance
from carnage.geometry.templateset import TemplateSet
from carnage.kernel.decisions import Decision
from carnage.kernel.effects import CANCEL, run_flows
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

HANDGUN = "handgun"
"""Every vehicle counts as armed with any number of Handguns (p.31)."""
STOP = "stop"


@dataclass(frozen=True)
class Shot:
    """A legal pick: ``key`` (a mount key, or ``handgun``) at ``target``."""

    key: str
    weapon: str
    target: str
    template: str
    arc: str
    cover: bool | None = None
    """Judged when the attack is declared (None until then): the full cover search is the
    costly part of a fire check, and only declared attacks need it."""
    extra: bool = False
    """Part of an attack already declared (a Splash weapon's other targets, p.82): it spends
    no ammo and no crew attack of its own."""

    @property
    def value(self) -> str:
        return f"{self.key}>{self.target}"


@dataclass
class AttackResolution:
    """Everything aimed at one target in one Attack Step, after the dice are scored. Handlers
    of the ``attack`` hook may change the groups (e.g. mark hits as not damaging)."""

    attacker: VehicleState
    target: VehicleState
    shots: list[Shot]
    groups: list[HitGroup]
    dice: list[int] = field(default_factory=list)


AttackWindow = Callable[["Game", AttackResolution], "Flow"]
"""A flow run in the collision window between rolling attack dice and evading (p.30)."""


@dataclass(frozen=True)
class AttackOption:
    """A declaration other than "this weapon at that vehicle", offered by a rule through the
    ``attack_options`` hook (a weapon needing no target, a dropped weapon ...). Taking it
    counts as one of the vehicle's attacks and one use of ``key``; ``run(game, ctx)`` resolves
    it at once (ctx as for the hook)."""

    value: str
    label: str
    key: str
    run: Callable[[Game, dict[str, Any]], Flow]
    shooting: bool = True
    """False for attacks that are not shooting attacks, which a Distracted vehicle may still
    make (FAQ: Thumper, Wall of Amplifiers)."""


def weapon_arc(mount: WeaponMount | None, weapon: Weapon) -> Arc:
    """Crew-fired weapons and weapons without a facing fire all round (p.30)."""
    if mount is None or mount.facing is None or "crew_fired" in weapon.special_rules:
        return Arc.TURRET
    return parse_arc(mount.facing)


_BLOCKERS: dict[tuple[str, Pose, float, float, bool], Blocker] = {}
"""Blockers already built, by id, pose, size and tallness: terrain stands still and a
vehicle stays where it is between its moves, so most of an Attack Step's blockers were
built for an earlier one (a blocker is a frozen value)."""

_CIRCLES: dict[int, tuple[Blocker, tuple[float, float, float]]] = {}
"""``_circle`` of a blocker's polygon, by the blocker's identity (held with it)."""


def _blocker(bid: str, pose: Pose, length: float, width: float, tall: bool) -> Blocker:
    """``Blocker(bid, tuple(Rect(pose, length, width).polygon()), tall)``, remembered."""
    key = (bid, pose, length, width, tall)
    b = _BLOCKERS.get(key)
    if b is None:
        if len(_BLOCKERS) >= 4096:
            _BLOCKERS.clear()
        b = _BLOCKERS[key] = Blocker(bid, tuple(Rect(pose, length, width).polygon()), tall)
    return b


def _blocker_circle(b: Blocker) -> tuple[float, float, float]:
    """``bounding_circle(b.polygon)``, remembered for the blockers ``_blocker`` keeps."""
    hit = _CIRCLES.get(id(b))
    if hit is not None and hit[0] is b:
        return hit[1]
    c = bounding_circle(b.polygon)
    if len(_CIRCLES) >= 4096:
        _CIRCLES.clear()
    _CIRCLES[id(b)] = (b, c)
    return c


class Sight:
    """What ``v`` can shoot at from where it stands: the fire checks of one Attack Step, with
    the obstructions gathered once. Obstacles, wrecks and every other vehicle may give cover;
    only Tall obstacles block (p.42, p.87)."""

    def __init__(self, g: Game, v: VehicleState, part: str | None = None) -> None:
        self.g, self.v = g, v
        # A weapon on an articulated vehicle's trailer measures from the trailer (p.117).
        trailer = v.trailer_rect() if part == "trailer" else None
        self.rect = trailer or v.rect()
        self.body = self.rect.polygon()
        self.centre = bounding_circle(self.body)
        bodies = [_blocker(bid, r.pose, r.length, r.width, False)
                  for o in g.state.in_play() if o.id != v.id for bid, r in o.bodies()]
        self.blockers = [
            _blocker(o.id, o.pose, o.length, o.width, o.tall) for o in g.state.obstacles.values()
        ] + bodies
        # ``cover_blockers`` hook: more things that give cover (Smoke Dropper, p.80).
        if not g.effects.idle("cover_blockers"):
            self.blockers = list(g.effects.run_event("cover_blockers", self.blockers,
                                                     {"game": g, "vehicle": v}))
        self.circles = [_blocker_circle(b) for b in self.blockers]
        # per obstruction, worked out once: whose body it is, and the gap between its
        # bounding circle and the shooter's (what ``_check_body`` compares with the span)
        cx, cy, cr = self.centre
        self._near = [(b, body_owner(b.id), hypot(bx - cx, by - cy) - br - cr)
                      for b, (bx, by, br) in zip(self.blockers, self.circles, strict=True)]
        self._gaps: dict[str, float | None] = {}
        """Exact gaps by body id; None: not worked out yet, but to be used once it is."""
        self._roughs: dict[str, float] = {}
        """Gaps between bounding circles by body id (``_rough``), each worked out once."""
        # Every other vehicle's body is an obstruction (``bodies``), its outline the very
        # corners ``rect.polygon()`` gives it as a target (the same pose and size), its
        # bounding circle remembered: its rough gap, the same float as ``_rough``'s.
        for b in bodies:
            bx, by, br = _blocker_circle(b)
            self._roughs[b.id] = hypot(bx - cx, by - cy) - br - cr
        self._bodies: dict[str, list[tuple[str, Rect]]] = {}
        """A target's bodies by its id (nothing moves while a sight is used)."""
        self._polys: dict[str, list[Point]] = {}
        """A target body's outline by body id (nothing moves while a sight is used)."""
        self._checks: dict[tuple[str, str, str, bool], FireCheck] = {}
        self._templates: dict[str, tuple[ShootingTemplate, float]] = {}
        self._fires: dict[tuple[str, str, str, tuple[int, ...]], FireCheck] = {}
        self._parts: dict[str, Sight] = {}

    def for_mount(self, mount: WeaponMount | None) -> Sight:
        """The sight from the body the weapon sits on: an articulated vehicle's trailer for a
        trailer-mounted weapon (p.117), else this one."""
        if mount is None or mount.part != "trailer" or self.v.trailer is None:
            return self
        if "trailer" not in self._parts:
            self._parts["trailer"] = Sight(self.g, self.v, part="trailer")
        return self._parts["trailer"]

    def gap(self, target: VehicleState, beyond: float = math.inf) -> float:
        """Gap between the footprints; anything over ``beyond`` may be returned as a lower
        bound (from bounding circles) instead of the exact gap."""
        return self._gap(target.id, target.polygon(), beyond)

    def _gap(self, bid: str, poly: list[Point], beyond: float) -> float:
        if bid not in self._gaps:
            rough = self._rough(bid, poly)
            if rough > beyond:
                return rough
        gap = self._gaps.get(bid)
        if gap is None:
            gap = self._gaps[bid] = distance(self.body, poly)
        return gap

    def _rough(self, bid: str, poly: list[Point]) -> float:
        """Gap between the bounding circles (a lower bound on the gap); by body id, as the
        exact gaps are (nothing moves while a sight is used)."""
        got = self._roughs.get(bid)
        if got is None:
            tx, ty, tr = bounding_circle(poly)
            cx, cy, cr = self.centre
            got = self._roughs[bid] = hypot(tx - cx, ty - cy) - tr - cr
        return got

    def _in_reach(self, bid: str, poly: list[Point], rect: Rect, limit: float) -> bool:
        """``self._gap(bid, poly, limit) <= limit``: False when the bounding circles are more
        than ``limit`` apart, else whether the exact gap is at most ``limit``."""
        if bid not in self._gaps:
            if self._rough(bid, poly) > limit:
                return False
            self._gaps[bid] = None  # measured from now on (when it has to be)
        return self._gap_at_most(bid, poly, rect, limit)

    def _gap_at_most(self, bid: str, poly: list[Point], rect: Rect, limit: float) -> bool:
        """Whether the exact gap (``distance``) is at most ``limit``; worked out only when the
        gap between the discs inscribed in the two bodies does not already say so.

        Those discs lie inside the bodies, so the gap is at most the gap between them (or 0
        when they overlap); the corners and the distance are computed to within 1e-9 mm on
        any table smaller than a kilometre, so a disc gap at least ``DISC_SLACK`` below
        ``limit`` means the exact gap, as computed, is below ``limit`` too."""
        gap = self._gaps.get(bid)
        if gap is None:
            s, p = self.rect, rect
            disc = (hypot(p.pose.x - s.pose.x, p.pose.y - s.pose.y)
                    - min(s.length, s.width) / 2.0 - min(p.length, p.width) / 2.0)
            if max(disc, 0.0) + DISC_SLACK <= limit:  # (overlapping discs: a gap of 0)
                return True
            gap = self._gaps[bid] = distance(self.body, poly)
        return gap <= limit

    def check(self, target: VehicleState, arc: Arc, template: str, *, cover: bool = True
              ) -> FireCheck:
        """Range, arc, cover and Tall for one weapon at one target. With ``cover=False`` only
        range and Tall are judged (``cover`` is then reported False). Clear-cut cases are
        answered without the full placement search (same answers: see the tests)."""
        key = (target.id, arc, template, cover)  # an Arc is the str of its value
        if key not in self._checks:
            self._checks[key] = self._check(target, arc, template, cover)
        return self._checks[key]

    def _check(self, target: VehicleState, arc: Arc, template: str, cover: bool) -> FireCheck:
        # An articulated target may be shot at through its cab or its trailer (p.117): the
        # attacker takes the better (in range and unblocked first, then out of cover).
        best: FireCheck | None = None
        bodies = self._bodies.get(target.id)
        if bodies is None:
            bodies = self._bodies[target.id] = target.bodies()
        for bid, rect in bodies:
            fc = self._check_body(target.id, bid, rect, arc, template, cover)
            if best is None or (fc.in_range and not fc.blocked, not fc.cover) > (
                    best.in_range and not best.blocked, not best.cover):
                best = fc
        assert best is not None
        return best

    def _template(self, template: str) -> tuple[ShootingTemplate, float]:
        """The shooting template of that name in this game's set, and its diameter."""
        got = self._templates.get(template)
        if got is None:
            got = self._templates[template] = _shooting(template, self.g.templates)
        return got

    def _check_body(self, tid: str, bid: str, rect: Rect, arc: Arc, template: str,
                    cover: bool) -> FireCheck:
        tpl, span = self._template(template)
        poly = self._polys.get(bid)
        if poly is None:
            poly = self._polys[bid] = rect.polygon()
        reach = span + 1e-6
        if not self._in_reach(bid, poly, rect, reach):
            return plain_check(False, False, False)  # no placement can span the gap
        # Only obstructions that a placement touching the shooter could reach matter; for
        # range and Tall alone, only Tall ones.
        picked = [i for i, (b, owner, rough) in enumerate(self._near)
                  if owner != tid and (cover or b.tall) and rough <= reach]
        if arc is Arc.TURRET and not tpl.is_burst and not picked \
                and self._gap_at_most(bid, poly, rect, tpl.length):
            # A ruler laid from the closest point straight at the target stays clear of the
            # shooter and reaches it (GF-2); with nothing in reach there is no cover.
            return plain_check(True, False, False)
        # The same question asked again (range and Tall for a shot, then its cover when
        # nothing but Tall obstructions is near) is answered from this sight's memory.
        key = (bid, arc, template, tuple(picked))
        fc = self._fires.get(key)
        if fc is None:
            fc = self._fires[key] = check_fire(self.rect, poly, arc, tpl,
                                               [self.blockers[i] for i in picked])
        return fc if cover else plain_check(fc.in_range, False, fc.blocked)


def fire_check(g: Game, v: VehicleState, target: VehicleState, arc: Arc, template: str
               ) -> FireCheck:
    """Range, arc, cover and Tall for one weapon of ``v`` at ``target``."""
    return Sight(g, v).check(target, arc, template)


_SHOOTING: dict[tuple[str, int], tuple[TemplateSet, ShootingTemplate, float]] = {}
"""Shooting templates already made, by name and template set (held with them), with their
diameters: every Attack Step's sight asks for the same few."""


def _shooting(template: str, ts: TemplateSet) -> tuple[ShootingTemplate, float]:
    """``shooting_template(template, ts)`` and its ``_diameter``, remembered."""
    key = (template, id(ts))
    hit = _SHOOTING.get(key)
    if hit is not None and hit[0] is ts:
        return hit[1], hit[2]
    tpl = shooting_template(template, ts)
    span = _diameter(tpl)
    if len(_SHOOTING) >= 256:
        _SHOOTING.clear()
    _SHOOTING[key] = (ts, tpl, span)
    return tpl, span


DISC_SLACK = 1e-6
"""Margin (mm) over rounding when a gap is settled by inscribed discs (``_gap_at_most``)."""


@cache
def _diameter(tpl: ShootingTemplate) -> float:
    """The longest distance across the template: no placement touching the shooter reaches a
    target farther away than this."""
    pts = tpl.polygon
    return max(math.dist(a, b) for a in pts for b in pts)


def weapon_playable(rules: RuleTable, weapon: Weapon) -> bool:
    """The weapon's rules are implemented: the ruleset's ``rules`` have an installer for the
    weapon and for every special rule it carries (engine/rulebook.py)."""
    return rules.get("weapon", weapon.id) is not None and all(
        rules.get("weapon_rule", r) is not None for r in weapon.special_rules)


def _supported(g: Game, v: VehicleState, mount: WeaponMount | None, weapon: Weapon) -> bool:
    playable = weapon_playable(g.rules, weapon)
    if g.effects.idle("weapon_supported"):
        return playable is True
    ctx = {"game": g, "vehicle": v, "mount": mount, "weapon": weapon.id}
    return g.effects.run_event("weapon_supported", playable, ctx) is True


def may_discard_ammo(g: Game, v: VehicleState, key: str) -> bool:
    """May ``v`` discard an Ammo Token from ``key`` (a weapon mount or upgrade key) now? The
    ``discard_ammo`` hook says no while a Magnetic Jammer holds it (p.74)."""
    return g.effects.run_event("discard_ammo", True,
                               {"game": g, "vehicle": v, "key": key}) is True


def weapon_uses(g: Game, v: VehicleState, key: str) -> int:
    """How many attacks ``key`` may make in one Attack Step: Handguns any number (p.31), other
    weapons once (p.31) unless the ``weapon_uses`` hook says otherwise (Blitz, p.81)."""
    if key == HANDGUN:
        return 1_000_000
    if g.effects.idle("weapon_uses"):
        return 1
    mount = next((m for m in v.weapons if m.key == key), None)
    return int(g.effects.run_event("weapon_uses", 1,
                                   {"game": g, "vehicle": v, "key": key, "mount": mount}))


def targets_for(g: Game, v: VehicleState) -> list[VehicleState]:
    """Other vehicles in play, friend or foe (p.30), that the ``targetable`` hook allows
    (a Ghost Rider may not be shot at, p.101)."""
    fx = g.effects
    if fx.idle("targetable"):
        return [t for t in g.state.in_play() if t.id != v.id and t.hull_points > 0]
    return [t for t in g.state.in_play() if t.id != v.id and t.hull_points > 0
            and fx.run_event("targetable", True, {"game": g, "attacker": v, "target": t}) is True]


def legal_shots(g: Game, v: VehicleState, sight: Sight | None = None, *,
                note: bool = False) -> list[Shot]:
    """Every (weapon, target) pick open to ``v`` now, before the crew and once-each limits:
    in range and arc and not blocked by Tall terrain. Cover is left unjudged (``None``);
    ``Sight.check`` or the declaration judges it. ``note``: the Attack Step's own look,
    noted for a recording table (engine/table_facts.py)."""
    cat = g.catalog
    armed: list[tuple[str, WeaponMount | None, Weapon]] = [
        (HANDGUN, None, cat.weapons.get(HANDGUN))
    ]
    for m in v.weapons:
        w = cat.weapons.get(m.weapon)
        if w.id == HANDGUN:
            continue  # already armed with any number of them
        if m.ammo is not None and (m.ammo <= 0 or not may_discard_ammo(g, v, m.key)):
            continue  # no ammo token to discard (p.81)
        armed.append((m.key, m, w))
    targets = targets_for(g, v)
    sight = sight or Sight(g, v)
    out: list[Shot] = []
    for key, mount, w in armed:
        if not _supported(g, v, mount, w):
            continue
        arc = weapon_arc(mount, w)
        bands = [b for b in w.ranges if b is not RangeBand.DROPPED]  # dropped: p.78
        indirect = not g.effects.idle("ignores_terrain") and g.effects.run_event(
            "ignores_terrain", False,
            {"game": g, "vehicle": v, "mount": mount, "weapon": w.id}) is True
        first = len(out)
        # The enums' text read as ``_value_`` (the ``value`` property is a Python call).
        band_texts = [b._value_ for b in bands]
        arc_text = arc._value_
        for t in targets:
            for band_text in band_texts:
                fc = sight.for_mount(mount).check(t, arc, band_text, cover=False)
                if fc.in_range and (indirect or not fc.blocked):
                    out.append(Shot(key, w.id, t.id, band_text, arc_text))
                    break
        if note and g.facts.recording and targets and bands:
            g.facts.note("in_reach", [_reach_value(s) for s in out[first:]])
    return out


def _reach_value(s: Shot) -> str:
    """A target in reach of a weapon, as a real table's answer names it: ``target@band``."""
    return f"{s.target}@{s.template}"


def legal_shots_at_table(g: Game, v: VehicleState) -> Generator[Decision, Any, list[Shot]]:
    """``legal_shots`` at a real table: for each weapon the people say which targets are in
    its range and arc (and not behind Tall terrain, unless it ignores terrain), and with
    which range band (the shortest that reaches), p.30, p.42, p.87."""
    from carnage.games.refuelled.engine.table_facts import ask_list

    cat = g.catalog
    armed: list[tuple[str, WeaponMount | None, Weapon]] = [
        (HANDGUN, None, cat.weapons.get(HANDGUN))]
    for m in v.weapons:
        w = cat.weapons.get(m.weapon)
        if w.id == HANDGUN:
            continue
        if m.ammo is not None and (m.ammo <= 0 or not may_discard_ammo(g, v, m.key)):
            continue
        armed.append((m.key, m, w))
    targets = targets_for(g, v)
    out: list[Shot] = []
    for key, mount, w in armed:
        if not _supported(g, v, mount, w):
            continue
        arc = weapon_arc(mount, w)
        bands = [b for b in w.ranges if b is not RangeBand.DROPPED]
        if not targets or not bands:
            continue
        indirect = g.effects.run_event("ignores_terrain", False, {
            "game": g, "vehicle": v, "mount": mount, "weapon": w.id}) is True
        facing = "all round" if arc is Arc.TURRET else f"its {arc.value} arc"
        tall = "" if indirect else " and not behind Tall terrain"
        got = yield from ask_list(
            g, v.player, "in_reach", f"{v.name}: which vehicles are within range of its "
            f"{w.name} ({facing}){tall}, at the shortest band that reaches?",
            [(f"{t.id}@{b.value}", f"{t.name} at {b.value.replace('_', ' ')}")
             for t in targets for b in bands],
            page=30, vehicle=v.id, weapon=key,
            exclusive=[[f"{t.id}@{b.value}" for b in bands] for t in targets])
        for value in got:
            tid, _, band = value.partition("@")
            out.append(Shot(key, w.id, tid, band, arc.value))
    return out


def _label(g: Game, s: Shot) -> str:
    w = g.catalog.weapons.get(s.weapon)
    t = g.state.vehicles[s.target]
    return f"{w.name} ({s.arc}, {s.template}) at {t.name}"


def attack_step(g: Game, v: VehicleState) -> Flow:
    """The whole Attack Step of ``v`` (pp.30-33, 42)."""
    ctx: dict[str, Any] = {"game": g, "vehicle": v}
    from carnage.games.refuelled.engine.movement import touching_now

    touching = sorted((yield from touching_now(g, v, "touching", 42, "as it attacks")))
    distracted = g.effects.run_event("distracted", bool(touching), ctx) is True
    if distracted:
        g.emit("distracted", source="distracted", page=42, vehicle=v.id, touching=touching)
    crew = g.stat(v, "crew")
    declared: list[Shot] = []
    uses: dict[str, int] = {}
    made = 0
    sight: Sight | None = None
    shots: dict[str, Shot] = {}
    while made < crew and v.in_play and not g.state.finished:
        if sight is None:
            # A Distracted vehicle makes no shooting attacks (p.42).
            sight = Sight(g, v)
            if distracted:
                shots = {}
            elif g.facts.people:
                shots = {s.value: s for s in (yield from legal_shots_at_table(g, v))}
                # ``table_shots`` flow hook: other targets the people name (turrets, CP-9).
                yield from run_flows(g, "table_shots", {"game": g, "vehicle": v, "uses": uses})
            else:
                shots = {s.value: s for s in legal_shots(g, v, sight, note=True)}
                if g.facts.recording:  # ... noted as a real table is asked
                    g.effects.run_event("table_shots_noted", None, {
                        "game": g, "vehicle": v, "sight": sight, "uses": uses})
            # ``table_reach`` flow hook: what weapons that are no shooting attack reach, asked
            # of the people each time the table is looked at (a Wrecking Ball, CP-15); on a
            # recording table ``table_reach_noted`` notes what the geometry finds.
            if g.facts.people:
                yield from run_flows(g, "table_reach", {"game": g, "vehicle": v, "uses": uses})
            elif g.facts.recording:
                g.effects.run_event("table_reach_noted", None, {"game": g, "vehicle": v,
                                                                "uses": uses})
        step: dict[str, Any] = {"game": g, "vehicle": v, "distracted": distracted,
                                "uses": uses, "declared": declared}
        options: list[Any] = [] if g.effects.idle("attack_options") else \
            g.effects.run_event("attack_options", [], step)
        extras = {o.value: o for o in options
                  if not (distracted and o.shooting)
                  and uses.get(o.key, 0) < weapon_uses(g, v, o.key)}
        open_ = [s for s in shots.values() if uses.get(s.key, 0) < weapon_uses(g, v, s.key)]
        if not open_ and not extras:
            break
        offered: list[tuple[str, str]] = (
            [(STOP, "make no more attacks")] + [(s.value, _label(g, s)) for s in open_]
            + [(o.value, o.label) for o in extras.values()])
        # ``attack_choices`` hook: a rule may narrow the options (a creature's Berserk).
        if not g.effects.idle("attack_choices"):
            narrowed = g.effects.run_event("attack_choices", offered, {**step, "shots": open_})
            if isinstance(narrowed, list) and narrowed:
                offered = narrowed
        pick = yield ask(
            v.player, "attack",
            f"{v.name}: declare an attack ({crew - made} of {crew} left) or stop",
            offered, source="attack", page=30, vehicle=v.id,
        )
        if pick == STOP:
            break
        made += 1
        if pick in extras:
            opt = extras[str(pick)]
            uses[opt.key] = uses.get(opt.key, 0) + 1
            g.emit("declare_attack", source="attack", page=30, vehicle=v.id, weapon=opt.key,
                   target=None, template=None, cover=None, option=opt.value)
            yield from opt.run(g, step)
            sight = None  # the table may have changed: look again
            continue
        shot = shots[str(pick)]
        # Cover is judged as the attack is declared (p.42), from where everything stands now;
        # weapons ignoring terrain ignore it (Indirect, p.82).
        mount = next((m for m in v.weapons if m.key == shot.key), None)
        indirect = not g.effects.idle("ignores_terrain") and g.effects.run_event(
            "ignores_terrain", False,
            {"game": g, "vehicle": v, "mount": mount, "weapon": shot.weapon}) is True
        covered = False
        if indirect:
            pass
        elif g.facts.people:
            from carnage.games.refuelled.engine.table_facts import ask_yes_no

            covered = yield from ask_yes_no(
                g, v.player, "cover", f"{v.name}: is {g.state.vehicles[shot.target].name} in "
                f"cover from its {g.catalog.weapons.get(shot.weapon).name} (p.42)?",
                page=42, vehicle=v.id, target=shot.target, weapon=shot.key)
        else:
            covered = sight.for_mount(mount).check(
                g.state.vehicles[shot.target], parse_arc(shot.arc), shot.template).cover
            g.facts.note("cover", covered)
        # ``dataclasses.replace(shot, cover=covered)``, built directly (no Python call)
        shot = Shot(shot.key, shot.weapon, shot.target, shot.template, shot.arc, covered,
                    shot.extra)
        declared.append(shot)
        uses[shot.key] = uses.get(shot.key, 0) + 1
        g.emit("declare_attack", source="attack", page=30, vehicle=v.id, weapon=shot.key,
               target=shot.target, template=shot.template, cover=shot.cover)
        # ``attack_declared`` flow hook: e.g. Splash adds the other vehicles under the
        # template to ``declared`` as extra shots (p.82).
        declared_ctx = {**step, "shot": shot, "sight": sight}
        yield from run_flows(g, "attack_declared", declared_ctx)
        if declared_ctx.get("withdrawn"):
            # A flow withdrew the declaration (a target cloaking, Gaslands: Legacy): the
            # attack is not made, and the attacker may declare again.
            made -= 1
            sight = None
    order: list[str] = []
    for s in declared:
        if s.target not in order:
            order.append(s.target)
    for tid in order:
        yield from resolve_attacks(g, v, [s for s in declared if s.target == tid])


def resolve_attacks(g: Game, v: VehicleState, shots: list[Shot]) -> Flow:
    """2.2-2.4 against one target: all its dice rolled together, one evade, damage."""
    if not shots:
        return
    t = g.state.vehicles[shots[0].target]
    if not v.in_play or not t.in_play or t.hull_points == 0:
        # AT-3: a wrecked attacker fires no more; a wrecked target is no longer a vehicle.
        g.emit("attack_lost", source="attack", page=30, vehicle=v.id, target=t.id,
               weapons=[s.key for s in shots],
               reason="attacker out of play" if not v.in_play else "target out of play")
        return
    cat = g.catalog
    mounts = {m.key: m for m in v.weapons}
    fired: list[tuple[Shot, Weapon, int, int]] = []
    for s in shots:
        w = cat.weapons.get(s.weapon)
        m = mounts.get(s.key)
        if m is not None and m.ammo is not None and not s.extra:
            if m.ammo <= 0 or not may_discard_ammo(g, v, s.key):
                g.emit("attack_lost", source="ammo", page=81, vehicle=v.id, target=t.id,
                       weapons=[s.key], reason="no ammo")
                continue
            m.ammo -= 1
            g.emit("ammo", source="ammo", page=81, vehicle=v.id, weapon=s.key, ammo=m.ammo)
        ctx: dict[str, Any] = {"game": g, "attacker": v, "target": t, "shot": s, "weapon": w}
        if not s.extra:
            # ``weapon_fired`` notice: the weapon is fired now (125mm Cannon, p.72).
            g.effects.run_event("weapon_fired", None, ctx)
        n = int(g.effects.run_event("attack_dice", w.attack_dice or 0, ctx))
        pen = int(g.effects.run_event("to_hit_penalty", 1 if s.cover else 0, ctx))
        fired.append((s, w, max(0, n), pen))
    if not fired:
        return
    # ``attack_roll`` flow hook: just before the dice are rolled the attacker may change
    # the entries of ctx "fired" (shot, weapon, dice, penalty): Angel of Death, p.108.
    yield from run_flows(g, "attack_roll", {"game": g, "attacker": v, "target": t,
                                            "fired": fired})
    if not v.in_play or not t.in_play:
        return
    arms = f"{v.name}'s {listed([w.name for _, w, _, _ in fired])}"
    dice = g.roll(
        sum(n for _, _, n, _ in fired), "attack", source="attack", page=32, vehicle=v.id,
        target=t.id, weapons=[s.key for s, _, _, _ in fired], counts=[n for _, _, n, _ in fired],
        told=f"{v.name}'s player rolls attack dice for its "
             f"{listed([w.name for _, w, _, _ in fired])} at {t.name}",
    )
    groups: list[HitGroup] = []
    report: list[dict[str, Any]] = []
    i = 0
    for s, w, n, pen in fired:
        scored = score_attack(dice[i:i + n], penalty=pen)
        i += n
        groups.append(HitGroup(s.key, scored.hits, rules=tuple(w.special_rules)))
        report.append({"weapon": s.key, "dice": list(scored.dice), "hits": scored.hits,
                       "criticals": scored.criticals, "cover": s.cover})
    g.emit("attack_hits", source="attack", page=32, vehicle=v.id, target=t.id, weapons=report,
           hits=sum(grp.hits for grp in groups))
    res = AttackResolution(v, t, [s for s, _, _, _ in fired], groups, list(dice))
    if g.effects.run_event("attack", res, {"game": g, "resolution": res}) is CANCEL:
        g.emit("attack_cancelled", source="attack", page=32, vehicle=v.id, target=t.id)
        return
    # Collision window between the attack dice and the evade (p.30).
    windows: list[AttackWindow] = g.effects.run_event(
        "attack_window", [], {"game": g, "resolution": res}
    )
    for w_flow in windows:
        yield from w_flow(g, res)
    if not t.in_play:
        return
    yield from take_hits(g, t, res.groups, source="attack", page=33, against=arms)
    # ``after_attack`` flow hook: rules acting on the un-cancelled hits once the attack is
    # resolved (each group's ``uncancelled``): Harpoon, Grabber Arm, Arc Lightning (pp.73-74).
    yield from run_flows(g, "after_attack", {"game": g, "resolution": res})
