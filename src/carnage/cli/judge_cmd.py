"""``carnage judge SCENE.json [--svg OUT]``: answer geometry questions about a table.

Prints ``{"answers": [...]}``, one answer per query in order (query forms in
``carnage.geometry.scene``). Any problem with the scene or a query is one line on stderr
and exit status 2; nothing is printed on stdout then.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

from carnage.geometry.arcs import arc_region, parse_arc
from carnage.geometry.collision import Obstruction, collision_orientation
from carnage.geometry.cover import Blocker, check_fire
from carnage.geometry.movement import MoveResult, path_for, resolve_move
from carnage.geometry.ranges import range_band, shooting_template
from carnage.geometry.scene import (
    InArcQ,
    MoveQ,
    OffTableQ,
    OrientationQ,
    Query,
    RangeBandQ,
    Scene,
    SceneError,
    SurfacesQ,
    finite,
    read_scene,
)
from carnage.geometry.shapes import Rect, penetration
from carnage.geometry.surfaces import Surface, move_pieces, surface_report, template_pieces
from carnage.geometry.table import template_off_table
from carnage.render.svg import (
    ArcShape,
    ObstacleShape,
    PathShape,
    SurfaceShape,
    TableView,
    TemplateShape,
    VehicleShape,
    render_svg,
)

OVERLAP_TOL = 0.01
"""Bodies overlapping by more than this (mm) are not a legal table position."""


@dataclass
class Judgement:
    answers: list[dict[str, Any]] = field(default_factory=list)
    templates: list[TemplateShape] = field(default_factory=list)
    paths: list[PathShape] = field(default_factory=list)
    arcs: list[ArcShape] = field(default_factory=list)


def _where(q: Query) -> str:
    return f"queries[{q.index}].{q.kind}"


def _obstructions(
    scene: Scene, skip: set[str], removed: frozenset[str] | set[str] = frozenset()
) -> list[Obstruction]:
    out = [
        Obstruction.from_rect(v.id, v.body) for v in scene.vehicles.values() if v.id not in skip
    ]
    out += [
        Obstruction.from_rect(o.id, o.body)
        for o in scene.obstacles.values()
        if o.id not in skip and o.id not in removed
    ]
    return out


def _no_overlap(scene: Scene, q: Query, vid: str, body: Rect) -> None:
    poly = body.polygon()
    for ob in _obstructions(scene, {vid}):
        if penetration(poly, ob.polygon) > OVERLAP_TOL:
            raise SceneError(f"{_where(q)}: vehicle {vid!r} overlaps {ob.id!r} at its start")


def _move(scene: Scene, q: Query, args: MoveQ | SurfacesQ) -> tuple[MoveResult, list[str], bool]:
    """Resolve a move; destructible obstacles hit are removed and the move re-checked
    (Refuelled p.49). Returns the last result, everything touched in order, and whether the
    move was interrupted at any point."""
    v = scene.vehicle(args.vehicle, _where(q))
    _no_overlap(scene, q, v.id, v.body)
    removed: set[str] = set()
    touched: list[str] = []
    interrupted = False
    while True:
        try:
            res = resolve_move(
                v.body,
                args.template,
                _obstructions(scene, {v.id}, removed),
                mirror=args.mirror,
                reverse=args.reverse,
                slide=args.slide,
                spin=args.spin,
            )
        except ValueError as e:
            raise SceneError(f"{_where(q)}: {e}") from None
        interrupted = interrupted or res.interrupted
        touched += [t for t in res.touched if t not in touched]
        gone = {
            t for t in res.touched
            if res.interrupted and t in scene.obstacles and scene.obstacles[t].destructible
        }
        if not gone:
            return res, touched, interrupted
        removed |= gone


def _answer(scene: Scene, q: Query, out: Judgement) -> dict[str, Any]:
    args = q.args
    where = _where(q)
    if isinstance(args, MoveQ):
        res, touched, interrupted = _move(scene, q, args)
        out.paths.append(PathShape(tuple(res.swept(24)), res.length, res.width, label=where))
        out.templates.append(
            TemplateShape(tuple(tuple(p) for p in template_pieces(res.path)), "movement", where)
        )
        if res.slide_template is not None:
            out.templates.append(
                TemplateShape((tuple(res.slide_template.polygon()),), "slide", where)
            )
        p = res.pose
        return {
            "pose": {"x": finite(p.x), "y": finite(p.y), "heading": finite(p.heading) % 360.0},
            "interrupted": interrupted,
            "touched": touched,
        }
    if isinstance(args, SurfacesQ):
        res, _touched, _ = _move(scene, q, args)
        surfaces = [Surface(s.id, s.kind, tuple(s.body.polygon())) for s in scene.surfaces]
        rep = surface_report(move_pieces(res), surfaces)
        return {"road": rep.road, "rough": list(rep.rough), "treacherous": list(rep.treacherous)}
    if isinstance(args, OrientationQ):
        a = scene.vehicle(args.a, f"{where}.a").body
        b = scene.thing(args.b, f"{where}.b")
        if args.a == args.b:
            raise SceneError(f"{where}: a and b are the same vehicle")
        if penetration(a.polygon(), b.polygon()) > OVERLAP_TOL:
            raise SceneError(f"{where}: {args.a!r} and {args.b!r} overlap")
        o = collision_orientation(a, b, a_reversing=args.a_reversing, b_reversing=args.b_reversing)
        return {"orientation": o}
    if isinstance(args, InArcQ):
        shooter = scene.vehicle(args.vehicle, f"{where}.vehicle").body
        target = scene.thing(args.target, f"{where}.target")
        if args.vehicle == args.target:
            raise SceneError(f"{where}: a vehicle cannot target itself")
        try:
            arc = parse_arc(args.arc)
            tpl = shooting_template(args.range)
        except ValueError as e:
            raise SceneError(f"{where}: {e}") from None
        blockers = [
            Blocker(v.id, tuple(v.body.polygon()))
            for v in scene.vehicles.values() if v.id not in (args.vehicle, args.target)
        ] + [
            Blocker(o.id, tuple(o.body.polygon()), o.tall)
            for o in scene.obstacles.values() if o.id != args.target
        ]
        fc = check_fire(shooter, target.polygon(), arc, tpl, blockers)
        out.arcs.append(
            ArcShape(tuple(tuple(p) for p in arc_region(shooter, arc, tpl)), label=where)
        )
        if fc.placement is not None:
            out.templates.append(TemplateShape((fc.placement,), "shooting", where))
        return {"in_range": fc.in_range, "cover": fc.cover, "blocked": fc.blocked}
    if isinstance(args, RangeBandQ):
        a = scene.thing(args.a, f"{where}.a")
        b = scene.thing(args.b, f"{where}.b")
        return {"band": range_band(a.polygon(), b.polygon())}
    if isinstance(args, OffTableQ):
        v = scene.vehicle(args.vehicle, f"{where}.vehicle")
        _no_overlap(scene, q, v.id, v.body)
        try:
            path = path_for(v.body, args.template, mirror=args.mirror, reverse=args.reverse)
        except ValueError as e:
            raise SceneError(f"{where}: {e}") from None
        out.templates.append(
            TemplateShape(tuple(tuple(p) for p in template_pieces(path)), "movement", where)
        )
        return {"off_table": template_off_table(path, scene.table)}
    raise SceneError(f"{where}: unsupported query")  # pragma: no cover - loader rejects


def judge_scene(scene: Scene) -> Judgement:
    """Answer every query of a loaded scene (``SceneError`` on a bad query)."""
    out = Judgement()
    for q in scene.queries:
        try:
            out.answers.append(_answer(scene, q, out))
        except SceneError:
            raise
        except (ValueError, ArithmeticError) as e:  # degenerate shapes the loader let through
            first = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
            raise SceneError(f"{_where(q)}: the geometry cannot be resolved ({first})") from None
    return out


def scene_view(scene: Scene, j: Judgement | None = None) -> TableView:
    """The scene (and what answering it laid on the table) as a render description."""
    j = j or Judgement()
    return TableView(
        width=scene.table.width,
        height=scene.table.height,
        surfaces=tuple(
            SurfaceShape(s.id, s.kind.value, tuple(s.body.polygon())) for s in scene.surfaces
        ),
        obstacles=tuple(
            ObstacleShape(o.id, tuple(o.body.polygon()), o.tall, o.destructible)
            for o in scene.obstacles.values()
        ),
        vehicles=tuple(
            VehicleShape(v.id, v.body.pose, v.body.length, v.body.width)
            for v in scene.vehicles.values()
        ),
        templates=tuple(j.templates),
        paths=tuple(j.paths),
        arcs=tuple(j.arcs),
    )


def _fail(msg: str) -> typer.Exit:
    typer.echo(f"error: {msg}", err=True)
    return typer.Exit(2)


def judge(
    scene: Annotated[Path, typer.Argument(help="scene JSON file", show_default=False)],
    svg: Annotated[
        Path | None, typer.Option("--svg", help="also draw the table to this SVG file")
    ] = None,
) -> None:
    """Answer the scene's queries: moves, collisions, arcs, ranges, table edges."""
    try:
        loaded = read_scene(scene)
        result = judge_scene(loaded)
    except SceneError as e:
        raise _fail(str(e)) from None
    if svg is not None:
        try:
            svg.write_text(render_svg(scene_view(loaded, result)), encoding="utf-8")
        except OSError as e:
            raise _fail(f"{svg}: cannot write ({e.strerror or e})") from None
    typer.echo(json.dumps({"answers": result.answers}))
