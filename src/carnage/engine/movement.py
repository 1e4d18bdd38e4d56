"""The Movement Step (Refuelled pp.21-26, 38-41, 45-51, 86-87) and forced moves (p.39).

1.1 select a template (touch it, use it; reversing in gear 1; hazardous/trivial icons),
1.2 place it, 1.3 roll skid dice (Push It), 1.4 spend Shifts, 1.5 gain Hazards, 1.6 slide,
1.7 move into the final position (collision window; destructible obstacles re-run the move),
1.8 spin (collision window); then the table edge and surfaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, cast

from carnage.catalog import TemplateUse, load_catalog
from carnage.engine.decisions import Decision, Interval
from carnage.engine.game import ask
from carnage.engine.skid import CANCEL, SkidResolution
from carnage.engine.state import Status, VehicleState
from carnage.geometry.collision import TOUCH_TOL, Obstruction
from carnage.geometry.movement import MoveResult, SlideSide, resolve_move
from carnage.geometry.shapes import Point, distance, penetration
from carnage.geometry.surfaces import move_pieces, surface_report
from carnage.geometry.table import Table, off_table

if TYPE_CHECKING:
    from carnage.engine.game import Flow, Game

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
    tid, *flags = value.split("/")
    return tid, "left" in flags, "reverse" in flags


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
    out: list[tuple[str, str]] = []
    for t in load_catalog().templates:
        use = t.use_in(v.gear)
        if permitted_only and use is TemplateUse.NOT_PERMITTED:
            continue
        reverse_ok = v.gear == 1 and t.use_in(1) is not TemplateUse.NOT_PERMITTED
        for tid, m, r in _placements(t.id, reverse_ok):
            label = f"{t.name}{' (left)' if m else ''}{' in reverse' if r else ''} [{use.value}]"
            out.append((template_value(tid, m, r), label))
    return out


def obstructions_for(g: Game, v: VehicleState) -> list[Obstruction]:
    """Every other vehicle in play, obstacle and wreck on the table (p.45)."""
    out = [
        Obstruction.from_rect(o.id, o.rect())
        for o in g.state.vehicles.values()
        if o.id != v.id and o.in_play
    ]
    out += [Obstruction(ob.id, tuple(ob.polygon())) for ob in g.state.obstacles.values()]
    return out


def touching_ids(g: Game, v: VehicleState) -> set[str]:
    """Obstructions touching ``v`` now (ignored for its next Movement Step, p.45)."""
    poly = v.polygon()
    return {ob.id for ob in obstructions_for(g, v) if touches(poly, ob.polygon)}


def touches(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Touching or overlapping, within the geometry's 0.1 mm touch tolerance (GM-7): the
    separating-axis gap rules most pairs out cheaply; the exact distance decides the rest."""
    if penetration(a, b) < -TOUCH_TOL:
        return False
    return distance(a, b) <= TOUCH_TOL


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
    if sk.hazards != v.hazards:
        g.emit(
            "hazards", source="skid_dice", page=22, vehicle=v.id,
            change=sk.hazards - v.hazards, hazards=sk.hazards,
        )
        v.hazards = sk.hazards


def movement_step(g: Game, v: VehicleState) -> Flow:
    st = g.state
    ignoring = touching_ids(g, v)
    if ignoring:
        g.emit("ignoring", page=45, vehicle=v.id, obstructions=sorted(ignoring))
    touch = g.options.touch_it_use_it
    # 1.1 Select a movement template.
    choice = yield ask(
        v.player, "template", f"{v.name}: select a movement template (gear {v.gear})",
        template_options(g, v, permitted_only=not touch), source="movement", page=22,
    )
    tid, mirror, reverse = parse_template_value(str(choice))
    cat = load_catalog()
    use = cat.templates.get(tid).use_in(v.gear)
    skid_allowed = True
    if use is TemplateUse.NOT_PERMITTED:
        # Touch it, use it (p.38): the next player clockwise places a permitted template; no
        # skid dice, but the icons still apply for the active player.
        nxt = (v.player + 1) % st.players
        g.emit("touch_it_use_it", page=38, vehicle=v.id, picked=str(choice), chooser=nxt)
        choice = yield ask(
            nxt, "template", f"{v.name} picked a template it may not use: choose one for it",
            template_options(g, v, permitted_only=True), source="touch_it_use_it", page=38,
        )
        tid, mirror, reverse = parse_template_value(str(choice))
        use = cat.templates.get(tid).use_in(v.gear)
        skid_allowed = False
    g.emit("template", page=22, vehicle=v.id, template=tid, mirror=mirror, reverse=reverse,
           use=use.value)
    if use is TemplateUse.HAZARDOUS:
        g.add_hazards(v, 1, "hazardous_manoeuvre", 38)

    # 1.3-1.5 Skid dice.
    sk = SkidResolution(
        gear=v.gear, max_gear=g.stat(v, "max_gear"), hazards=v.hazards,
        handling=g.stat(v, "handling"), trivial=use is TemplateUse.TRIVIAL,
    )
    dice = _LoggedDice(g, v, "skid dice")
    if skid_allowed and sk.handling > 0:
        n = yield ask(
            v.player, "skid_dice", f"{v.name}: how many skid dice (handling {sk.handling})?",
            [(i, str(i)) for i in range(sk.handling + 1)], source="skid_dice", page=22,
        )
        faces = sk.roll(dice, int(n))
        if faces:
            g.emit("skid", page=22, vehicle=v.id, faces=[f.value for f in faces])
            subsets = [
                ",".join(str(i) for i in c)
                for k in range(1, len(faces) + 1)
                for c in combinations(range(len(faces)), k)
            ]
            push = yield ask(
                v.player, "push_it", f"{v.name}: Push It (+1 hazard) and reroll which dice?",
                [(NO_PUSH, "keep the dice")] + [(s, f"reroll {s}") for s in subsets],
                source="push_it", page=40,
            )
            if push != NO_PUSH:
                faces = sk.push_it(dice, [int(i) for i in str(push).split(",")])
                g.emit("skid", source="push_it", page=40, vehicle=v.id,
                       faces=[f.value for f in faces])
                _sync(g, v, sk)
    while sk.legal_actions():
        acts = sk.legal_actions()
        opts = [
            (f"{a}:{i}" if i is not None else a,
             f"{a} {sk.faces[i].value}" if i is not None else a)
            for a, i in acts
        ]
        opts.append((DONE, "discard the remaining Shifts"))
        pick = str((yield ask(
            v.player, "spend_shift",
            f"{v.name}: spend a Shift ({sk.shifts_available} left)", opts,
            source="shift", page=22,
        )))
        if pick == DONE:
            break
        action, _, idx = pick.partition(":")
        sk.spend(action, int(idx) if action == CANCEL else None)
        _sync(g, v, sk)
    gained, slide, spin = sk.finish()
    _sync(g, v, sk)
    if gained:
        g.emit("skid_hazards", page=24, vehicle=v.id, gained=gained)

    # 1.6 Slide: pick the side (curves have one) and, off a straight, the facing (p.26).
    slide_side: str | None = None
    if slide:
        from carnage.geometry.movement import path_for

        path = path_for(v.rect(), tid, mirror=mirror, reverse=reverse, ts=g.templates)
        if path.slide_side == "end":
            slide_side = str((yield ask(
                v.player, "slide", f"{v.name}: slide off the straight to face which way?",
                [("left", "turn to face left"), ("right", "turn to face right")],
                source="slide", page=26,
            )))
        else:
            slide_side = path.slide_side

    # 1.7 Final position, collisions, destructible obstacles (pp.25, 45-49).
    v.reversing = reverse
    start = v.rect()
    collided: set[str] = set()
    result: MoveResult | None = None
    # Ramps (p.87): their non-entry edges stop the move like obstructions; the collision
    # window then runs the jump or tumble (engine/terrain.py, helper G).
    from carnage.engine.terrain import ramp_obstructions

    ramp_edges = ramp_obstructions(g) if g.state.ramps else []
    while True:
        result = resolve_move(
            start, tid, obstructions_for(g, v) + ramp_edges, mirror=mirror, reverse=reverse,
            slide=cast(SlideSide | None, slide_side),
            ignoring=ignoring, ts=g.templates,
        )
        v.pose = result.pose
        g.emit(
            "move", page=25, vehicle=v.id, x=round(result.pose.x, 3), y=round(result.pose.y, 3),
            heading=round(result.pose.heading, 3), interrupted=result.interrupted,
            touched=list(result.touched),
        )
        if _edge_check(g, v, result):
            return
        fresh = [i for i in result.touched if i not in collided]
        if not fresh:
            break
        collided.update(fresh)
        before = set(g.state.obstacles)
        yield from collision_window(g, v, fresh)
        if not v.in_play or g.state.finished:
            return
        if v.pose != result.pose:
            break  # the window moved it (a ramp's jump or tumble): the move ends there
        if not result.interrupted or before <= set(g.state.obstacles):
            break  # nothing was removed: the interrupted position stands
    g.effects.run_event("after_move", None, {"game": g, "vehicle": v, "result": result})

    # 1.8 Spin (p.24): only if the final position was not interrupted.
    if spin and not result.interrupted and v.in_play and not g.state.finished:
        angle = yield ask_spin(v)
        yield from pivot_vehicle(g, v, float(angle), "spin", 24)

    # End of the Movement Step: surfaces (p.86).
    if v.in_play:
        rep = surface_report(move_pieces(result), list(g.state.surfaces.values()))
        if rep.rough:
            g.add_hazards(v, 1, "rough_surface", 86)
        if rep.treacherous:
            g.add_hazards(v, 2, "treacherous_surface", 86)


def ask_spin(v: VehicleState) -> Decision:
    return Decision(
        v.player, "spin", f"{v.name}: spin about its centre (degrees anticlockwise)",
        domain=Interval(-90.0, 90.0), source="spin", page=24,
    )


def _edge_check(g: Game, v: VehicleState, result: MoveResult) -> bool:
    """Table edge (p.87): any part of the movement template (after skid dice: up to the slide
    exit point plus the Slide template when sliding) past the edge disqualifies the vehicle."""
    parts = move_pieces(result)[:-1]  # the template pieces, without the final body
    if not off_table(parts, Table(g.state.width, g.state.height)):
        return False
    verdict = g.effects.run_event("off_table", True, {"game": g, "vehicle": v})
    if verdict is not True:
        return False
    disqualify(g, v, "left the table")
    return True


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
) -> Flow:
    """A forced move straight ahead (p.39): no skid dice, gear icons ignored, never trivial or
    hazardous; always a collision window. ``ignore_obstructions`` (Flip, p.35; Jump and Tumble,
    p.87): nothing interrupts it, and if the vehicle would end overlapping something it backs up
    along the template the least amount needed (ruling R-2 in docs/rulings.md)."""
    obs = obstructions_for(g, v)
    ignoring = {o.id for o in obs} if ignore_obstructions else touching_ids(g, v)
    result = resolve_move(v.rect(), template_id, obs, ignoring=ignoring, ts=g.templates)
    v.pose = result.pose
    g.emit(
        "forced_move", source=source, page=page, vehicle=v.id, template=template_id,
        x=round(v.pose.x, 3), y=round(v.pose.y, 3), heading=round(v.pose.heading, 3),
        interrupted=result.interrupted, touched=list(result.touched),
    )
    if _edge_check(g, v, result):
        return
    # Collision window (p.39): with whatever it touches at the end of the move.
    touched = sorted(touching_ids(g, v)) if ignore_obstructions else list(result.touched)
    if touched:
        yield from collision_window(g, v, touched)


def pivot_vehicle(g: Game, v: VehicleState, angle: float, source: str, page: int) -> Flow:
    """Pivot about the centre by ``angle`` degrees (anticlockwise positive), stopping at the
    first contact with anything it did not start the pivot touching; a collision window
    follows (Spin p.24, Lose Control p.35)."""
    from carnage.geometry.movement import spin_body

    start_touching = touching_ids(g, v)
    pose, turned, touched = spin_body(
        v.rect(), angle, obstructions_for(g, v), ignoring=start_touching
    )
    v.pose = pose
    g.emit("pivot", source=source, page=page, vehicle=v.id, requested=round(angle, 3),
           turned=round(turned, 3), heading=round(pose.heading, 3), touched=list(touched))
    fresh = [i for i in touched if i not in start_touching]
    if fresh:
        yield from collision_window(g, v, fresh)


def collision_window(g: Game, v: VehicleState, ids: list[str]) -> Flow:
    """Resolve collisions between ``v`` and each obstruction in ``ids``, in order (p.52)."""
    from carnage.engine.collision import resolve_collisions

    yield from resolve_collisions(g, v, ids)
