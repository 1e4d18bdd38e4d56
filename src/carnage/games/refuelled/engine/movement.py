"""The Movement Step (Refuelled pp.21-26, 38-41, 45-51, 86-87) and forced moves (p.39).

1.1 select a template (touch it, use it; reversing in gear 1; hazardous/trivial icons),
1.2 place it, 1.3 roll skid dice (Push It), 1.4 spend Shifts, 1.5 gain Hazards, 1.6 slide,
1.7 move into the final position (collision window; destructible obstacles re-run the move),
1.8 spin (collision window); then the table edge and surfaces.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from functools import lru_cache
from itertools import combinations
from math import hypot
from typing import TYPE_CHECKING, Any, Final, cast

from carnage.catalog import TemplateUse
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.skid import CANCEL, SkidResolution
from carnage.games.refuelled.engine.state import Status, VehicleState
from carnage.games.refuelled.engine.table_facts import ask_list, ask_yes_no
from carnage.geometry.collision import TOUCH_TOL, Obstruction
from carnage.geometry.movement import MoveResult, SlideSide, resolve_move
from carnage.geometry.shapes import Point, Pose, Rect, bounding_circle, distance, penetration
from carnage.geometry.surfaces import SurfaceKind, move_pieces, surface_report
from carnage.geometry.table import Table, off_table
from carnage.kernel.decisions import Decision, Interval, Option
from carnage.kernel.effects import run_flows as run_flow_hooks

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

_HAZARDOUS: Final = TemplateUse.HAZARDOUS
_NOT_PERMITTED: Final = TemplateUse.NOT_PERMITTED
_TRIVIAL: Final = TemplateUse.TRIVIAL
"""Read once (a compiled read of an enum's member through its class is a slow look-up)."""

STRAIGHTS = ("short_straight", "medium_straight", "long_straight")
DONE = "done"
NO_PUSH = "no"


def template_value(tid: str, mirror: bool, reverse: bool) -> str:
    """Choice value for a template placement: ``turn``, ``turn/left``, ``turn/reverse`` ..."""
    parts = [tid]
    if mirror:
        parts.append("left")
    if reverse:
        parts.append("reverse")
    return "/".join(parts)


def parse_template_value(value: str) -> tuple[str, bool, bool]:
    parts = value.split("/")
    flags = parts[1:]  # (no starred target: compiled, it costs a list and an iterator more)
    return parts[0], "left" in flags, "reverse" in flags


def _placements(tid: str, reverse_ok: bool) -> list[tuple[str, bool, bool]]:
    mirrors = (False,) if tid in STRAIGHTS else (False, True)
    out = [(tid, m, False) for m in mirrors]
    if reverse_ok:
        out += [(tid, m, True) for m in mirrors]
    return out


def template_options(g: Game, v: VehicleState, *, permitted_only: bool) -> list[tuple[str, str]]:
    """Every placement the player may pick: with "touch it, use it" on, any template may be
    touched (p.38); otherwise only those permitted in the current gear (p.22). Reverse with a
    template permitted in gear 1, only in gear 1 (p.39)."""
    if g.state.templates:  # a seat's own templates (Gaslands: Legacy; engine/team_templates.py)
        from carnage.games.refuelled.engine.team_templates import team_set, team_template_options

        tset = team_set(g, v)
        if tset is not None:
            return team_template_options(g, v, tset, permitted_only=permitted_only)
    out: list[tuple[str, str]] = []
    may_reverse = g.effects.run_event("may_reverse", True, {"game": g, "vehicle": v}) is True
    # When effects leave nothing permitted (Zero Crew in gears 1-2, p.82), the book's table
    # stands in, so the player picking for it has a choice (ruling WP-9).
    # each template's use in the current gear asked of the hook once (in gear 1 it is also
    # the use in reverse)
    uses: dict[str, TemplateUse] = {}
    hooked = not permitted_only or any(
        _use_in_gear(g, v, t.id, uses) is not _NOT_PERMITTED
        for t in g.catalog.templates)
    for t in g.catalog.templates:
        use = _use_in_gear(g, v, t.id, uses) if hooked else t.use_in(v.gear)
        if permitted_only and use is _NOT_PERMITTED:
            continue
        reverse_ok = (may_reverse and v.gear == 1 and (
            use if hooked else t.use_in(1)
        ) is not _NOT_PERMITTED)
        out += _labelled_placements(t.id, t.name, use._value_, reverse_ok)
    return out


_LABELLED: dict[tuple[str, str, str, bool], list[tuple[str, str]]] = {}
"""``_labelled_placements``' answers (a template's options differ only by its use and whether
it may reverse: a few dozen lists in all)."""


def _labelled_placements(tid: str, name: str, use: str, reverse_ok: bool
                         ) -> list[tuple[str, str]]:
    """The options ``template_options`` offers for one template (value, label), remembered:
    the list is only ever read (copied into the options)."""
    key = (tid, name, use, reverse_ok)
    out = _LABELLED.get(key)
    if out is None:
        out = [(template_value(t, m, r),
                f"{name}{' (left)' if m else ''}{' in reverse' if r else ''} [{use}]")
               for t, m, r in _placements(tid, reverse_ok)]
        if len(_LABELLED) >= 1024:
            _LABELLED.clear()
        _LABELLED[key] = out
    return out


def _use_in_gear(g: Game, v: VehicleState, tid: str, uses: dict[str, TemplateUse]
                 ) -> TemplateUse:
    """``template_use(g, v, tid, v.gear)``, kept in ``uses`` for one list of options."""
    use = uses.get(tid)
    if use is None:
        use = uses[tid] = template_use(g, v, tid, v.gear)
    return use


def printed_use(g: Game, v: VehicleState, tid: str, gear: int) -> TemplateUse:
    """How template ``tid`` is printed for ``gear``, before any rule: the book's table
    (p.18), or the icons of the vehicle's team's own template (engine/team_templates.py)."""
    if g.state.templates:
        from carnage.games.refuelled.engine.team_templates import team_template_use

        own = team_template_use(g, v, tid, gear)
        if own is not None:
            return own
    return _book_use(g.catalog.templates, tid, gear)


_BOOK_USES: dict[tuple[str, int], TemplateUse] = {}
_BOOK_OF: list[object] = [None]
"""``_book_use``'s answers, for the catalogue section ``_BOOK_OF[0]`` (catalogues are
loaded once and never changed)."""


def _book_use(templates: Any, tid: str, gear: int) -> TemplateUse:
    """``templates.get(tid).use_in(gear)`` (the book's table, p.18), remembered for the
    section last asked; an unknown template or gear raises as it does."""
    if _BOOK_OF[0] is not templates:
        _BOOK_USES.clear()
        _BOOK_OF[0] = templates
    key = (tid, gear)
    use = _BOOK_USES.get(key)
    if use is None:
        use = _BOOK_USES[key] = templates.get(tid).use_in(gear)
    return use


def template_use(g: Game, v: VehicleState, tid: str, gear: int) -> TemplateUse:
    """How ``v`` may use template ``tid`` in ``gear`` (p.18), through the ``template_use``
    hook (e.g. the Nuclear Engine's Long Straight in any gear, p.83)."""
    base = printed_use(g, v, tid, gear)
    if g.effects.idle("template_use"):
        return base
    out = g.effects.run_event("template_use", base,
                              {"game": g, "vehicle": v, "template": tid, "gear": gear})
    return out if isinstance(out, TemplateUse) else base


def obstructions_for(g: Game, v: VehicleState) -> list[Obstruction]:
    """Every other vehicle in play, obstacle and wreck on the table (p.45)."""
    out = [
        _obstruction_at(bid, rect.pose, rect.length, rect.width)
        for o in g.state.vehicles.values()
        if o.id != v.id and o.in_play
        for bid, rect in o.bodies()  # a trailer is a second body (p.117)
    ]
    out += [_obstruction_at(ob.id, ob.pose, ob.length, ob.width)
            for ob in g.state.obstacles.values()]
    # ``obstructions`` hook: a rule may drop some (Airborne, p.70).
    if g.effects.idle("obstructions"):
        return out
    hooked = g.effects.run_event("obstructions", out, {"game": g, "vehicle": v})
    return hooked if isinstance(hooked, list) else out


@lru_cache(maxsize=8192)
def _obstruction(oid: str, polygon: tuple[Point, ...]) -> Obstruction:
    """Obstructions are immutable values: build each outline (and its axes) once."""
    return Obstruction(oid, polygon)


_PLACED: dict[str, tuple[Pose, float, float, Obstruction]] = {}
"""``_obstruction`` of a body or obstacle by id, with the pose and size it was built for:
terrain stands still and a vehicle stays put between its moves (keeping the very same
``Pose``), so its outline is not worked out again each time."""


def _obstruction_at(oid: str, pose: Pose, length: float, width: float) -> Obstruction:
    """``_obstruction(oid, tuple(Rect(pose, length, width).polygon()))``, remembered: the
    last one built for ``oid`` while the pose (the same object, or an equal one) and the
    size are the same, so a look-up hashes nothing but the id."""
    got = _PLACED.get(oid)
    if got is not None:
        at, glen, gwid, ob = got
        if (at is pose or at == pose) and glen == length and gwid == width:
            return ob
    elif len(_PLACED) >= 8192:
        _PLACED.clear()
    ob = _obstruction(oid, tuple(Rect(pose, length, width).polygon()))
    _PLACED[oid] = (pose, length, width, ob)
    return ob


def touching_ids(g: Game, v: VehicleState) -> set[str]:
    """Obstructions touching ``v`` now (ignored for its next Movement Step, p.45)."""
    polys = [r.polygon() for _, r in v.bodies()]
    # Bounding circles first: a pair whose circles are more than the tolerance (and a
    # margin far above rounding) apart cannot touch, so only the others are measured.
    circles: list[tuple[float, float]] = []
    circles_r: list[float] = []
    for p in polys:
        cx, cy, r = bounding_circle(p)
        circles.append((cx, cy))
        circles_r.append(r + TOUCH_TOL + 1e-6)
    out: set[str] = set()
    n = len(polys)
    for ob in obstructions_for(g, v):
        ox, oy, orad = ob.circle
        for i in range(n):  # the three lists side by side
            p = polys[i]
            cx, cy = circles[i]
            rr = orad + circles_r[i]
            if (ox - cx) * (ox - cx) + (oy - cy) * (oy - cy) > rr * rr:
                continue
            if touches(p, ob.polygon):
                out.add(ob.id)
                break
    return out


def touches(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Touching or overlapping, within the geometry's 0.1 mm touch tolerance (GM-7): the
    separating-axis gap rules most pairs out cheaply; the exact distance decides the rest."""
    if penetration(a, b) < -TOUCH_TOL:
        return False
    return distance(a, b) <= TOUCH_TOL


def obstruction_label(g: Game, oid: str) -> str:
    """An obstruction as a person at the table knows it: a vehicle's name (its trailer
    named as such), else the obstacle's id in words."""
    from carnage.games.refuelled.engine.state import TRAILER_PART, body_owner

    v = g.state.vehicles.get(body_owner(oid))
    if v is not None:
        return v.name + (" (trailer)" if oid.endswith(TRAILER_PART) else "")
    return oid.replace("-", " ").replace("_", " ").replace(":", " ")


def obstruction_choices(g: Game, ids: Sequence[str]) -> list[tuple[str, str]]:
    return [(i, obstruction_label(g, i)) for i in ids]


def touching_now(g: Game, v: VehicleState, kind: str, page: int,
                 what: str) -> Generator[Decision, Any, set[str]]:
    """The obstructions touching ``v`` now: the exact table's ``touching_ids``, or, at a real
    table, what the people say (``kind`` names the fact, ``what`` the moment)."""
    if not g.facts.people:
        out = touching_ids(g, v)
        if g.facts.recording and obstructions_for(g, v):
            g.facts.note(kind, sorted(out))
        return out
    ids = [o.id for o in obstructions_for(g, v)]
    got = yield from ask_list(
        g, v.player, kind, f"{v.name}: {what}: which obstructions does it touch?",
        obstruction_choices(g, ids), page=page, vehicle=v.id)
    return set(got)


class _LoggedDice:
    """Adapter so ``SkidResolution`` rolls through the game's dice and log."""

    def __init__(self, g: Game, v: VehicleState, why: str) -> None:
        self.g, self.v, self.why = g, v, why

    def roll(self, n: int, sides: int = 6) -> list[int]:
        return self.g.roll(n, self.why, source="skid_dice", page=22, vehicle=self.v.id)


def _sync(g: Game, v: VehicleState, sk: SkidResolution) -> None:
    if sk.gear != v.gear:
        v.gear = sk.gear
        g.emit("gear", source="shift", page=22, vehicle=v.id, gear=v.gear)
    if sk.hazards > v.hazards:
        # Hazards gained during the skid dice pass the ``hazards_gained`` hook, as in
        # ``Game.add_hazards`` (e.g. Old Fashioned Corn Liquor, p.103).
        gain = sk.hazards - v.hazards
        out = g.effects.run_event("hazards_gained", gain,
                                  {"game": g, "vehicle": v, "source": "skid_dice"})
        sk.hazards = v.hazards + max(0, int(out) if isinstance(out, int) else gain)
    if sk.hazards != v.hazards:
        g.emit(
            "hazards", source="skid_dice", page=22, vehicle=v.id,
            change=sk.hazards - v.hazards, hazards=sk.hazards,
        )
        v.hazards = sk.hazards


def movement_step(g: Game, v: VehicleState) -> Flow:
    st = g.state
    ignoring = yield from touching_now(g, v, "touching", 45, "before it moves")
    # ``movement_ignoring`` hook: more obstructions this Movement Step ignores (Skiing,
    # p.115); the move still backs up off them at the end (resolve_move).
    ignoring = set(ignoring) if g.effects.idle("movement_ignoring") else \
        set(g.effects.run_event("movement_ignoring", ignoring, {"game": g, "vehicle": v}))
    if ignoring:
        g.emit("ignoring", page=45, vehicle=v.id, obstructions=sorted(ignoring))
    touch = g.options.touch_it_use_it
    # 1.1 Select a movement template.
    choice = yield ask(
        v.player, "template", f"{v.name}: select a movement template (gear {v.gear})",
        template_options(g, v, permitted_only=not touch), source="movement", page=22, vehicle=v.id,
    )
    tid, mirror, reverse = parse_template_value(str(choice))
    use = template_use(g, v, tid, v.gear)
    skid_allowed = True
    if use is _NOT_PERMITTED:
        # Touch it, use it (p.38): the next player clockwise places a permitted template; no
        # skid dice, but the icons still apply for the active player.
        nxt = (v.player + 1) % st.players
        g.emit("touch_it_use_it", page=38, vehicle=v.id, picked=str(choice), chooser=nxt)
        choice = yield ask(
            nxt, "template", f"{v.name} picked a template it may not use: choose one for it",
            template_options(g, v, permitted_only=True), source="touch_it_use_it", page=38,
            vehicle=v.id,
        )
        tid, mirror, reverse = parse_template_value(str(choice))
        use = template_use(g, v, tid, v.gear)
        skid_allowed = False
    # Gear icons: a Hazard token per Hazard icon, a bonus Shift per Shift icon (p.38, p.40;
    # a seat's own templates may show more than one, engine/team_templates.py).
    icon_hazards, icon_shifts = (1 if use is _HAZARDOUS else 0,
                                 1 if use is _TRIVIAL else 0)
    own: dict[str, Any] = {}
    if g.state.templates:
        from carnage.games.refuelled.engine.team_templates import (
            chosen_template_data,
            icons_of_choice,
        )

        icon_hazards, icon_shifts = icons_of_choice(g, v, str(choice), use)
        own = chosen_template_data(g, v, tid, icon_hazards, icon_shifts)
    g.emit("template", page=22, vehicle=v.id, template=tid, mirror=mirror, reverse=reverse,
           use=use._value_, **own)
    # ``template_chosen`` notice: e.g. an articulated vehicle off a Straight (p.117).
    if not g.effects.idle("template_chosen"):
        g.effects.run_event("template_chosen", None, {"game": g, "vehicle": v, "template": tid,
                                                      "mirror": mirror, "reverse": reverse,
                                                      "use": use})
    if icon_hazards:
        g.add_hazards(v, icon_hazards, "hazardous_manoeuvre", 38)

    # 1.3-1.5 Skid dice.
    fx = g.effects
    sk = SkidResolution(
        gear=v.gear, max_gear=g.stat(v, "max_gear"), hazards=v.hazards,
        handling=g.stat(v, "handling"), trivial=icon_shifts > 0,
        bonus_shifts=max(0, icon_shifts - 1),
        min_gear=1 if fx.idle("min_gear") else
        int(fx.run_event("min_gear", 1, {"game": g, "vehicle": v})),
    )
    # ``skid_setup`` notice: perks set the SkidResolution's limits (Overload's extra die,
    # Chrome-Whisperer's pushes, Unnerving Eye Contact, Restraint; rules/perks/).
    if not fx.idle("skid_setup"):
        fx.run_event("skid_setup", sk, {"game": g, "vehicle": v})
    dice = _LoggedDice(g, v, "skid dice")
    resolver = v.player
    if skid_allowed and sk.handling + sk.extra_dice > 0:
        n = yield ask(
            v.player, "skid_dice", f"{v.name}: how many skid dice (handling {sk.handling})?",
            [(i, str(i)) for i in range(sk.handling + sk.extra_dice + 1)], source="skid_dice",
            page=22, vehicle=v.id,
        )
        # ``skid_roll_start`` flows: another seat may take over the dice (Twitch, p.163).
        if not fx.idle("skid_roll_start"):
            rctx: dict[str, Any] = {"game": g, "vehicle": v, "sk": sk, "n": int(n),
                                    "resolver": resolver}
            yield from run_flow_hooks(g, "skid_roll_start", rctx)
            resolver = int(rctx["resolver"])
        faces = sk.roll(dice, int(n))
        if faces:
            g.emit("skid", page=22, vehicle=v.id, faces=[f.value for f in faces])
            subsets = [
                ",".join(str(i) for i in c)
                for k in range(1, len(faces) + 1)
                for c in combinations(range(len(faces)), k)
            ]
            while sk.pushes < sk.push_limit:  # more than once: Chrome-Whisperer (p.107)
                push = yield ask(
                    v.player, "push_it", f"{v.name}: Push It (+1 hazard) and reroll which dice?",
                    [(NO_PUSH, "keep the dice")] + [(s, f"reroll {s}") for s in subsets],
                    source="push_it", page=40, vehicle=v.id,
                )
                if push == NO_PUSH:
                    break
                faces = sk.push_it(dice, [int(i) for i in str(push).split(",")])
                g.emit("skid", source="push_it", page=40, vehicle=v.id,
                       faces=[f.value for f in faces])
                _sync(g, v, sk)
    # ``skid_rolled`` flow hook: after the roll and Push It, before any Shift is spent;
    # rules change, add or set aside dice in ctx "sk" (Moment of Glory, Easy Rider, Momentum,
    # Taunt, Satellite Navigation, pp.110-115). They change ``sk``, never ``v`` directly.
    skctx: dict[str, Any] = {"game": g, "vehicle": v, "sk": sk, "dice": dice}
    if not fx.idle("skid_rolled"):
        yield from run_flow_hooks(g, "skid_rolled", skctx)
    _sync(g, v, sk)
    acts = sk.legal_actions()
    while acts:
        opts = [
            (f"{a}:{i}" if i is not None else a,
             f"{a} {sk.faces[i].value}" if i is not None else a)
            for a, i in acts
        ]
        opts.append((DONE, "discard the remaining Shifts"))
        pick = str((yield ask(
            resolver, "spend_shift",
            f"{v.name}: spend a Shift ({sk.shifts_available} left)", opts,
            source="shift", page=22, vehicle=v.id,
        )))
        if pick == DONE:
            break
        action, _, idx = pick.partition(":")
        sk.spend(action, int(idx) if action == CANCEL else None)
        _sync(g, v, sk)
        acts = sk.legal_actions()
    # ``skid_finish`` flow hook: Shifts spent, Hazards not yet gained (Overload p.113,
    # Purring p.115); like ``skid_rolled`` the rules change ``sk``.
    if not fx.idle("skid_finish"):
        yield from run_flow_hooks(g, "skid_finish", skctx)
    _sync(g, v, sk)
    gained, slide, spin = sk.finish()
    _sync(g, v, sk)
    if gained:
        g.emit("skid_hazards", page=24, vehicle=v.id, gained=gained)
    # ``place_slide`` hook: False leaves the Slide template out (Ponderous, p.120).
    if slide and not fx.idle("place_slide") and \
            fx.run_event("place_slide", True, {"game": g, "vehicle": v}) is not True:
        slide = False

    # 1.6 Slide: pick the side (curves have one) and, off a straight, the facing (p.26).
    slide_side: str | None = None
    move_ts = g.templates
    move_tid = tid  # the template as laid: with the slide exit point the vehicle uses
    if slide:
        from carnage.geometry.movement import path_for

        if g.state.templates:  # new slide exit points on a seat's own template
            from carnage.games.refuelled.engine.team_templates import slide_exit_options

            exits = slide_exit_options(g, v, tid)
            if exits:
                move_tid = str((yield ask(
                    v.player, "slide_exit", f"{v.name}: slide from which slide exit point?",
                    exits, source="slide_exit", vehicle=v.id,
                )))
                g.emit("slide_exit", source="slide_exit", vehicle=v.id, template=tid,
                       laid=move_tid)
        path = path_for(v.rect(), move_tid, mirror=mirror, reverse=reverse, ts=g.templates)
        if path.slide_side == "end":
            slide_side = str((yield ask(
                v.player, "slide", f"{v.name}: slide off the straight to face which way?",
                [("left", "turn to face left"), ("right", "turn to face right")],
                source="slide", page=26, vehicle=v.id,
            )))
        else:
            slide_side = path.slide_side
        # ``slide_template`` flow hook: ctx "templates" may become a set whose Slide
        # template is another template (Powerslide, p.107).
        slctx: dict[str, Any] = {"game": g, "vehicle": v, "templates": move_ts}
        yield from run_flow_hooks(g, "slide_template", slctx)
        move_ts = slctx["templates"]

    # 1.7 Final position, collisions, destructible obstacles (pp.25, 45-49).
    v.reversing = reverse
    start = moving_body(g, v, reverse)
    collided: set[str] = set()
    result: MoveResult | None = None
    # Ramps (p.87): their non-entry edges stop the move like obstructions; the collision
    # window then runs the jump or tumble (engine/terrain.py).
    from carnage.games.refuelled.engine.terrain import parse_ramp_edge, ramp_obstructions

    ramp_edges = ramp_obstructions(g) if g.state.ramps else []
    if ramp_edges:  # ``ramp_edges`` hook: Airborne ignores terrain (p.70)
        ramp_edges = g.effects.run_event("ramp_edges", ramp_edges, {"game": g, "vehicle": v})
    while True:
        obs = obstructions_for(g, v) + ramp_edges
        if g.facts.people:  # a real table: the people say what the move did (p.25, p.87)
            result = None
            touched, interrupted = yield from moved_facts(
                g, v, [o.id for o in obs if o.id not in ignoring], "move", 25, bool(ignoring))
            placed = v.pose
            g.emit("move", page=25, vehicle=v.id, interrupted=interrupted, touched=touched)
            off = yield from ask_yes_no(
                g, v.player, "off_table", f"{v.name}: did any part of its movement template "
                "(with any Slide template) go past the table edge?", page=87, vehicle=v.id)
            if off and (yield from edge_verdict_at_table(g, v)):
                return
        else:
            result = resolve_move(
                start, move_tid, obs, mirror=mirror,
                reverse=reverse,
                slide=cast(SlideSide | None, slide_side),
                ignoring=ignoring, ts=move_ts,
            )
            touched, interrupted = place_vehicle(g, v, result, reverse, ignoring)
            placed = v.pose
            if g.facts.recording:
                _note_moved(g, [o.id for o in obs if o.id not in ignoring], touched,
                            interrupted, started_touching=bool(ignoring),
                            trailer=v.trailer is not None)
            g.emit(
                "move", page=25, vehicle=v.id, x=round(placed.x, 3), y=round(placed.y, 3),
                heading=round(placed.heading, 3), interrupted=interrupted,
                touched=touched,
            )
            if _edge_check(g, v, result):
                return
        fresh = [i for i in touched if i not in collided]
        if not fresh:
            break
        # ``move_contact`` flow hook: before the collision window a rule may have the move
        # ignore what it touched (ctx "ignore": Stunt Driver, p.107); the move is made again.
        cctx: dict[str, Any] = {"game": g, "vehicle": v, "touched": fresh, "ignore": set()}
        yield from run_flow_hooks(g, "move_contact", cctx)
        if cctx["ignore"]:
            ignoring = set(ignoring) | set(cctx["ignore"])
            continue
        collided.update(fresh)
        before = set(g.state.obstacles)
        yield from collision_window(g, v, fresh)
        if not v.in_play or g.state.finished:
            return
        if v.pose != placed or (g.facts.people and any(
                parse_ramp_edge(i) is not None for i in fresh)):
            break  # the window moved it (a ramp's jump or tumble): the move ends there
        # ``move_collided`` flow hook: after this move's collisions a rule may let
        # the move go on, ignoring obstructions (ctx "ignore": Up and Over, p.71) or because
        # it moved one away (ctx "rerun": Piledriver, p.121).
        mctx: dict[str, Any] = {"game": g, "vehicle": v, "touched": fresh, "ignore": set(),
                                "rerun": False}
        yield from run_flow_hooks(g, "move_collided", mctx)
        if not v.in_play or g.state.finished:
            return
        if interrupted and (mctx["ignore"] or mctx["rerun"]):
            ignoring = set(ignoring) | set(mctx["ignore"])
            continue
        if not interrupted or before <= set(g.state.obstacles):
            break  # nothing was removed: the interrupted position stands
    # ``move_window`` flow hook: what lies on the table under the move's template or
    # Final Position acts in this collision window (dropped weapon templates, p.78).
    from carnage.kernel.effects import run_flows

    if not fx.idle("move_window"):
        yield from run_flows(g, "move_window", {"game": g, "vehicle": v, "result": result})
    if not v.in_play or g.state.finished:
        return
    # What the scenario needs to know of the move (a line crossed ...): the people at a real
    # table say it here; the exact table measures it in the scenario's own handlers.
    if g.facts.people:
        yield from table_motion(g, v, "move")
        yield from g.scenario.table_facts(g, v)
    since = len(g.log.events)
    g.effects.run_event("after_move", None, {"game": g, "vehicle": v, "result": result})
    motion_noted(g, v, "move", since)

    # 1.8 Spin (p.24): only if the final position was not interrupted.
    if spin and not interrupted and v.in_play and not g.state.finished:
        # ``spin_start`` flow hook: ctx "limit" (degrees either way; Handbrake Artist
        # faces any way, p.107) and "about_front" (Rear Drive, p.115).
        # ctx "spins": how many spins, one after another (Dizzy, p.99: one per Spin
        # result).
        spctx: dict[str, Any] = {"game": g, "vehicle": v, "limit": 90.0, "about_front": False,
                                 "spins": 1}
        yield from run_flow_hooks(g, "spin_start", spctx)
        front = bool(spctx["about_front"])
        for _ in range(max(1, int(spctx["spins"]))):
            if not v.in_play or g.state.finished:
                break
            limit = float(spctx["limit"])
            if g.facts.people:  # the people turn the car; no rule needs its angle (CP-25)
                yield ask_spin_at_table(v, limit, about_front=front)
                yield from pivot_vehicle(g, v, SPUN_AT_TABLE, "spin", 24, about_front=front,
                                         turn=spin_words(limit, front))
                continue
            angle = yield ask_spin(v, limit, about_front=front)
            yield from pivot_vehicle(g, v, float(angle), "spin", 24, about_front=front)

    # End of the Movement Step: surfaces (p.86).
    hazardous = [s for s in g.state.surfaces.values() if s.kind is not SurfaceKind.ROAD]
    if v.in_play and hazardous:
        rough, treacherous = yield from surface_facts(g, v, hazardous, result)
        # ``surface_hazards`` hook: e.g. Tank Tracks and All Terrain ignore surfaces (p.85).
        sctx = {"game": g, "vehicle": v}
        if rough:
            n = int(g.effects.run_event("surface_hazards", 1, {**sctx, "surface": "rough"}))
            g.add_hazards(v, n, "rough_surface", 86)
        if treacherous:
            n = int(g.effects.run_event("surface_hazards", 2, {**sctx, "surface": "treacherous"}))
            g.add_hazards(v, n, "treacherous_surface", 86)
    yield from road_surface(g, v, result)


ROAD_DISCARD, ROAD_KEEP = "yes", "no"


def surface_facts(g: Game, v: VehicleState, hazardous: list[Any],
                  result: MoveResult | None) -> Generator[Decision, Any, tuple[bool, bool]]:
    """Whether the move's template or final position touched rough, then treacherous
    surface (p.86); each asked at a real table only when such a surface is laid."""
    kinds = {s.kind for s in hazardous}
    if not g.facts.people:
        assert result is not None
        rep = surface_report(move_pieces(result), hazardous)
        rough, treacherous = bool(rep.rough), bool(rep.treacherous)
        if g.facts.recording:
            if SurfaceKind.ROUGH in kinds:
                g.facts.note("rough_surface", rough)
            if SurfaceKind.TREACHEROUS in kinds:
                g.facts.note("treacherous_surface", treacherous)
        return rough, treacherous
    out = []
    for kind, words in ((SurfaceKind.ROUGH, "rough"), (SurfaceKind.TREACHEROUS, "treacherous")):
        got = False
        if kind in kinds:
            got = yield from ask_yes_no(
                g, v.player, f"{words}_surface", f"{v.name}: did its movement template or "
                f"final position touch {words} surface?", page=86, vehicle=v.id)
        out.append(got)
    return out[0], out[1]


def road_surface(g: Game, v: VehicleState, result: MoveResult | None) -> Flow:
    """Road (p.86): when every part of the movement template and of the Final Position after
    all Skid Dice (so after any Spin) lies on road, the vehicle may discard a Hazard Token at
    the end of its Movement Step."""
    roads = [s for s in g.state.surfaces.values() if s.kind is SurfaceKind.ROAD]
    if not roads or not v.in_play or g.state.finished or v.hazards <= 0:
        return
    if g.facts.people:
        road = yield from ask_yes_no(
            g, v.player, "road_surface", f"{v.name}: did its whole movement template and "
            "final position lie on road?", page=86, vehicle=v.id)
    else:
        assert result is not None
        parts = [*move_pieces(result)[:-1], v.rect().polygon()]
        road = surface_report(parts, roads).road
        g.facts.note("road_surface", road)
    if not road:
        return
    pick = yield ask(v.player, "road_surface", f"{v.name}: moved wholly on road; discard a "
                     "Hazard Token?", [(ROAD_DISCARD, "discard one"), (ROAD_KEEP, "keep them")],
                     source="road_surface", page=86, vehicle=v.id)
    if pick == ROAD_DISCARD:
        g.add_hazards(v, -1, "road_surface", 86)


def ask_spin(v: VehicleState, limit: float = 90.0, *, about_front: bool = False) -> Decision:
    about = "the centre of its front edge" if about_front else "its centre"
    return Decision(
        v.player, "spin", f"{v.name}: spin about {about} (degrees anticlockwise)",
        domain=Interval(-limit, limit), source="spin", page=24, vehicle=v.id,
    )


SPIN_DONE = "done"
"""The one answer to a Spin at a real table (ruling CP-25): the car is turned."""
SPUN_AT_TABLE = 0.0
"""The angle the engine keeps for a Spin turned at a real table: the book's default, no turn
(CP-25). Nothing reads it there: the people's answers say what the turn met."""


def spin_words(limit: float, about_front: bool) -> str:
    """How far and about what a Spin turns the car, in words ("up to 90° about its
    centre")."""
    about = "the centre of its front edge" if about_front else "its centre"
    return f"up to {limit:g}° about {about}"


def ask_spin_at_table(v: VehicleState, limit: float = 90.0, *,
                      about_front: bool = False) -> Decision:
    """A Spin at a real table (p.24, ruling CP-25): the people turn the car as far as they
    like within ``limit`` either way and say they are done; no angle is asked."""
    return Decision(
        v.player, "spin", f"{v.name}: turn the car {spin_words(limit, about_front)}, "
        "then tap Done", options=(Option(SPIN_DONE, "Done"),), source="spin", page=24,
        vehicle=v.id, confirm=True,
    )


def _edge_check(g: Game, v: VehicleState, result: MoveResult) -> bool:
    """Table edge (p.87): any part of the movement template (after skid dice: up to the slide
    exit point plus the Slide template when sliding) past the edge disqualifies the vehicle."""
    if _well_inside(g, result):
        g.facts.note("off_table", False)
        return False
    parts = move_pieces(result)[:-1]  # the template pieces, without the final body
    off = off_table(parts, Table(g.state.width, g.state.height))
    g.facts.note("off_table", off)
    if not off:
        return False
    return _edge_verdict(g, v, result)


def _edge_verdict(g: Game, v: VehicleState, result: MoveResult | None) -> bool:
    """The move left the table: the ``off_table`` hook may take the vehicle off by an exit
    edge; otherwise it is disqualified (p.87). True when the move is over."""
    verdict = g.effects.run_event("off_table", True, {"game": g, "vehicle": v, "result": result})
    if verdict is not True:
        return not v.in_play  # the handler took it off this table (an exit edge): move over
    disqualify(g, v, "left the table")
    return True


def edge_verdict_at_table(g: Game, v: VehicleState) -> Generator[Decision, Any, bool]:
    """``_edge_verdict`` at a real table: first the ``table_edge`` flow hook, where a
    scenario with an exit edge asks whether the template went past it and, if so, takes the
    vehicle off by it (a flow returning True); otherwise the move left the table (p.87)."""
    from carnage.kernel.effects import run_flows

    if (yield from run_flows(g, "table_edge", {"game": g, "vehicle": v})):
        return not v.in_play
    return _edge_verdict(g, v, None)


def _well_inside(g: Game, result: MoveResult) -> bool:
    """A cheap, exact sufficient test that the template stays on the table: every point of it
    lies within (centreline length + half its width) of its start, and the Slide template
    within its own diagonal of the slide exit point."""
    path = result.path
    at = path.pose_at(0.0)
    sx, sy = at.x, at.y
    reach = path.length + path.width / 2.0
    if result.slide_template is not None:
        st = result.slide_template
        reach = path.length + path.width + hypot(st.length, st.width)
    margin = min(sx, sy, g.state.width - sx, g.state.height - sy)
    return margin > reach + 1e-6


def moved_facts(g: Game, v: VehicleState, candidates: list[str], kind: str, page: int,
                started_touching: bool) -> Generator[Decision, Any, tuple[list[str], bool]]:
    """At a real table: what the move touched, in the order it met them, and whether it
    stopped short of the template's end: at a contact, or backing up off something it
    started touching and would end overlapping (p.25, p.45). The latter is asked only when
    something touched it or it started touching something; otherwise an articulated vehicle's
    controller says whether its trailer found room ("yes" first; "no": it backed up short,
    VR-19, so the move was interrupted, ruling CP-24)."""
    touched = yield from ask_list(
        g, v.player, f"{kind}_touched", f"{v.name}: what did its move touch, in the order it "
        "met them (not what it was already touching)?", obstruction_choices(g, candidates),
        page=page, vehicle=v.id)
    interrupted = False
    if touched or started_touching:
        interrupted = yield from ask_yes_no(
            g, v.player, f"{kind}_interrupted", f"{v.name}: did it stop short of the "
            "template's end (at a contact, or backing up off what it started touching)?",
            page=page, vehicle=v.id)
    elif v.trailer is not None:  # a clear move may still find no room for its trailer
        room = yield from ask_yes_no(
            g, v.player, f"{kind}_trailer_room", f"{v.name}: was there room to lay its trailer "
            "behind it at the template's end (if not, it backs up along the template until "
            "there is)?", page=118, vehicle=v.id, default=True)
        interrupted = not room  # backed up short: the move counts as interrupted (VR-19, CP-24)
    return touched, interrupted


def _note_moved(g: Game, candidates: list[str], touched: list[str], interrupted: bool,
                kind: str = "move", started_touching: bool = True,
                trailer: bool = False) -> None:
    """The exact move's facts, noted as a real table asks them (``moved_facts``); ``trailer``:
    the vehicle is articulated."""
    if candidates:
        g.facts.note(f"{kind}_touched", list(touched))
    if touched or started_touching:
        g.facts.note(f"{kind}_interrupted", interrupted)
    elif trailer:
        g.facts.note(f"{kind}_trailer_room", not interrupted)


def moving_body(g: Game, v: VehicleState, reverse: bool) -> Rect:
    """The body a move carries along the template: the vehicle, or what the ``moving_body``
    hook names (an articulated vehicle reversing leads with its trailer, p.119)."""
    body = v.rect()
    if g.effects.idle("moving_body"):
        return body
    out = g.effects.run_event("moving_body", body,
                              {"game": g, "vehicle": v, "reverse": reverse})
    return out if isinstance(out, Rect) else v.rect()


def place_vehicle(g: Game, v: VehicleState, result: MoveResult, reverse: bool,
                  ignoring: set[str]) -> tuple[list[str], bool]:
    """Put ``v`` where ``result`` ends; returns what it touches there (not ignored) and
    whether the move was interrupted. The ``vehicle_placed`` hook may place attached bodies
    (a trailer, p.118) and add what they touch; setting ctx "backed_up" it says it backed
    the move up short of ``result`` (no room for the trailer, ruling VR-19)."""
    v.pose = result.pose
    if g.effects.idle("vehicle_placed"):
        return [str(i) for i in result.touched], result.interrupted
    ctx: dict[str, Any] = {"game": g, "vehicle": v, "result": result, "reverse": reverse,
                           "ignoring": ignoring, "backed_up": False}
    out = g.effects.run_event("vehicle_placed", list(result.touched), ctx)
    touched = [str(i) for i in out] if isinstance(out, list) else list(result.touched)
    return touched, result.interrupted or bool(ctx["backed_up"])


def disqualify(g: Game, v: VehicleState, why: str) -> None:
    """Removed from play; does not count as wrecked (p.87)."""
    v.status = Status.DISQUALIFIED
    g.emit("disqualified", page=87, vehicle=v.id, reason=why)


def forced_move(
    g: Game,
    v: VehicleState,
    template_id: str,
    *,
    source: str,
    page: int,
    ignore_obstructions: bool = False,
    reverse: bool = False,
    mirror: bool = False,
) -> Flow:
    """A forced move straight ahead (p.39): no skid dice, gear icons ignored, never trivial or
    hazardous; always a collision window. ``ignore_obstructions`` (Flip, p.35; Jump and Tumble,
    p.87): nothing interrupts it, and if the vehicle would end overlapping something it backs up
    along the template the least amount needed (ruling R-2 in docs/rulings.md). ``reverse``:
    straight backwards instead (BFG recoil p.73, a Harpoon reeling a car in back first).
    ``mirror``: a curved template laid turning left (a PIT, p.111; Rocket Thrusters, p.114)."""
    obs = obstructions_for(g, v)
    if g.facts.people:
        return (yield from _forced_move_at_table(
            g, v, template_id, source=source, page=page,
            ignore_obstructions=ignore_obstructions, reverse=reverse, obs=obs))
    ignoring = {o.id for o in obs} if ignore_obstructions else touching_ids(g, v)
    result = resolve_move(moving_body(g, v, reverse), template_id, obs, ignoring=ignoring,
                          reverse=reverse, mirror=mirror, ts=g.templates)
    touched_now, interrupted = place_vehicle(g, v, result, reverse, ignoring)
    if g.facts.recording:
        if ignore_obstructions:
            g.facts.note("forced_move_backed_up", interrupted)
        else:
            _note_moved(g, [o.id for o in obs], touched_now, interrupted, "forced_move")
    # Moving backwards its rear leads into any Collision (p.53); a forward forced move after
    # a reverse leads with the front again.
    v.reversing = reverse
    since = len(g.log.events)
    g.emit(
        "forced_move", source=source, page=page, vehicle=v.id, template=template_id,
        x=round(v.pose.x, 3), y=round(v.pose.y, 3), heading=round(v.pose.heading, 3),
        interrupted=interrupted, touched=touched_now,
    )
    motion_noted(g, v, "forced_move", since)
    if _edge_check(g, v, result):
        return
    # Collision window (p.39): with whatever it touches at the end of the move.
    if ignore_obstructions:
        touched = sorted(touching_ids(g, v))
        if g.facts.recording and obstructions_for(g, v):
            g.facts.note("forced_move_ends_touching", touched)
    else:
        touched = touched_now
    if touched:
        yield from collision_window(g, v, touched)
    if v.in_play and not g.state.finished:
        # ``move_window`` flow hook: dropped weapon templates under a forced move (p.78).
        from carnage.kernel.effects import run_flows

        yield from run_flows(g, "move_window", {"game": g, "vehicle": v, "result": result,
                                                 "forced": source})


def _forced_move_at_table(g: Game, v: VehicleState, template_id: str, *, source: str,
                          page: int, ignore_obstructions: bool, reverse: bool,
                          obs: list[Obstruction]) -> Flow:
    """``forced_move`` at a real table: the people make the move and say what it touched
    (nothing stops a move that ignores obstructions: then what it ends up touching), and
    whether it left the table; the rules run as on the exact table."""
    touched_now: list[str] = []
    interrupted = False
    if not ignore_obstructions:
        touched_now, interrupted = yield from moved_facts(
            g, v, [o.id for o in obs], "forced_move", page, True)
    else:  # nothing stops it; ending on something it backs up the least needed (ruling R-2)
        interrupted = yield from ask_yes_no(
            g, v.player, "forced_move_backed_up", f"{v.name}: did the forced move end on "
            "something, so that it backed up along the template until clear?", page=page,
            vehicle=v.id)
    v.reversing = reverse
    g.emit("forced_move", source=source, page=page, vehicle=v.id, template=template_id,
           interrupted=interrupted, touched=touched_now)
    yield from table_motion(g, v, "forced_move")
    off = yield from ask_yes_no(
        g, v.player, "off_table", f"{v.name}: did any part of the forced move's template go "
        "past the table edge?", page=87, vehicle=v.id)
    if off and (yield from edge_verdict_at_table(g, v)):
        return
    touched = touched_now
    if ignore_obstructions:
        got = yield from touching_now(g, v, "forced_move_ends_touching", page,
                                      "where the forced move ends")
        touched = sorted(got)
    if touched:
        yield from collision_window(g, v, touched)
    if v.in_play and not g.state.finished:
        from carnage.kernel.effects import run_flows

        yield from run_flows(g, "move_window", {"game": g, "vehicle": v, "result": None,
                                                 "forced": source})


def pivot_vehicle(g: Game, v: VehicleState, angle: float, source: str, page: int, *,
                  about_front: bool = False, turn: str = "") -> Flow:
    """Pivot about the centre (``about_front``: the centre of the front edge, Rear Drive
    p.115) by ``angle`` degrees (anticlockwise positive), stopping at the first contact with
    anything it did not start the pivot touching; a collision window follows (Spin p.24, Lose
    Control p.35). ``turn``: how a real table's people turn it, when the angle is theirs to
    find (a Harpoon's "to face ... directly", ruling CP-16)."""
    from carnage.geometry.movement import spin_body

    obs = obstructions_for(g, v)
    if g.facts.people:  # a real table: the people turn it and say what it met (p.24)
        from carnage.games.refuelled.words import rule_name, turn_words

        fresh = yield from ask_list(
            g, v.player, "pivot_touched", f"{v.name}: turned {turn or turn_words(angle)} "
            f"({rule_name(source)}); "
            "what did it meet that it was not touching before, in order?",
            obstruction_choices(g, [o.id for o in obs]), page=page, vehicle=v.id)
        # A turn the people make their way (``turn``) has no angle of the engine's to log.
        g.emit("pivot", source=source, page=page, vehicle=v.id,
               **({} if turn else {"requested": round(angle, 3)}), touched=list(fresh))
        yield from table_motion(g, v, "pivot")
        if fresh:
            yield from collision_window(g, v, fresh)
        return
    start_touching = touching_ids(g, v)
    # ``pivot`` hook: a rule may turn the vehicle its own way and return
    # (pose, turned, touched), e.g. cab and trailer as one body (p.119).
    custom = g.effects.run_event("pivot", None, {
        "game": g, "vehicle": v, "angle": angle, "obstructions": obs,
        "ignoring": start_touching, "about_front": about_front})
    if isinstance(custom, tuple):
        pose, turned, touched = custom
    else:
        pose, turned, touched = spin_body(v.rect(), angle, obs, ignoring=start_touching,
                                          about_front=about_front)
    v.pose = pose
    fresh = [i for i in touched if i not in start_touching]
    if g.facts.recording and obs:  # asked before a real table's scenario questions
        g.facts.note("pivot_touched", list(fresh))
    since = len(g.log.events)
    g.emit("pivot", source=source, page=page, vehicle=v.id, requested=round(angle, 3),
           turned=round(turned, 3), heading=round(pose.heading, 3), touched=list(touched))
    motion_noted(g, v, "pivot", since)
    if fresh:
        yield from collision_window(g, v, fresh)


def table_motion(g: Game, v: VehicleState, motion: str) -> Flow:
    """At a real table, after a move, forced move or pivot (``motion``): the people say what
    the scenario needs of it (tokens touched ...; ``table_motion`` flow hook)."""
    from carnage.kernel.effects import run_flows

    yield from run_flows(g, "table_motion", {"game": g, "vehicle": v, "motion": motion})


def motion_noted(g: Game, v: VehicleState, motion: str, since: int) -> None:
    """On a recording table, the same moment once the geometry judged the motion (the log
    had ``since`` events before it): the scenario notes the fact a real table is asked."""
    if g.facts.recording:
        g.effects.run_event("table_motion_noted", None, {"game": g, "vehicle": v,
                                                         "motion": motion, "since": since})


def collision_window(g: Game, v: VehicleState, ids: list[str]) -> Flow:
    """Resolve collisions between ``v`` and each obstruction in ``ids``, in order (p.52)."""
    from carnage.games.refuelled.engine.collision import resolve_collisions

    yield from resolve_collisions(g, v, ids)
