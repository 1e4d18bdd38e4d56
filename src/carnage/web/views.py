"""What a client sees of a game: the ``GameView`` (schemas.py) and the SVG of the table.

Views are built from the engine's state, log and pending decision; nothing here changes the
game. ``previews`` adds drawing help for the pending decision from the engine's geometry: the
laid movement templates, the arcs of fire and the legal targets, the pivot centre.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from carnage.catalog import load_catalog
from carnage.engine.attack import HANDGUN, STOP, weapon_arc
from carnage.engine.game import Game
from carnage.engine.movement import parse_template_value
from carnage.engine.state import GameState, VehicleState
from carnage.geometry.arcs import Arc, arc_region
from carnage.geometry.convex import convex_hull
from carnage.geometry.movement import path_for
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Point
from carnage.geometry.surfaces import template_pieces
from carnage.kernel.decisions import Decision
from carnage.kernel.events import Event
from carnage.render.scenario import drawable_shapes
from carnage.render.svg import (
    PALETTE,
    ObstacleShape,
    SurfaceShape,
    TableView,
    TemplateShape,
    VehicleShape,
    render_svg,
)
from carnage.web.eventtext import display_id, event_text
from carnage.web.schemas import (
    Controller,
    DomainView,
    DrawableView,
    DroppedView,
    GameView,
    LogLine,
    ObstacleView,
    OptionView,
    PendingView,
    PlayerView,
    ReportRowView,
    SurfaceView,
    TableSize,
    VehicleView,
    WeaponView,
)

LOG_LINES = 200
"""The view carries the last this many events."""


def colour(seat: int) -> str:
    return PALETTE[seat % len(PALETTE)]


def _r(x: float) -> float:
    return round(float(x), 2)


def _poly(points: Sequence[Point]) -> list[list[float]]:
    return [[_r(x), _r(y)] for x, y in points]


def names(state: GameState) -> dict[str, str]:
    """Display names of everything an event may mention."""
    out: dict[str, str] = {}
    for ob in state.obstacles.values():
        if ob.wreck_of is not None and ob.wreck_of in state.vehicles:
            out[ob.id] = f"the wreck of {state.vehicles[ob.wreck_of].name}"
        else:
            out[ob.id] = display_id(ob.id)
    for ramp in state.ramps.values():
        out[ramp.id] = ramp.id.replace("-", " ")
    for v in state.vehicles.values():
        out[v.id] = v.name
    return out


def log_lines(
    game: Game, events: Sequence[Event], cache: dict[int, LogLine] | None = None
) -> list[LogLine]:
    """Log lines for ``events``; ``cache`` (by sequence number) keeps lines already written,
    since events never change."""
    cache = {} if cache is None else cache
    known: dict[str, str] | None = None
    out = []
    for e in events:
        line = cache.get(e.seq)
        if line is None:
            known = known if known is not None else names(game.state)
            line = LogLine(seq=e.seq, kind=e.kind, source=e.source, page=e.page,
                           text=event_text(e, known))
            cache[e.seq] = line
        out.append(line)
    return out


# -- vehicles ----------------------------------------------------------------------------------
def _dice(attack_dice: int | None, special: bool) -> str:
    if attack_dice is None:
        return "*" if special else "-"
    d = f"{attack_dice}D6"
    return f"({d})" if special else d


def vehicle_view(game: Game, v: VehicleState) -> VehicleView:
    cat = load_catalog()
    weapons = []
    for m in v.weapons:
        w = cat.weapons.get(m.weapon)
        weapons.append(WeaponView(
            key=m.key, id=w.id, name=w.name, facing=m.facing,
            range="/".join(str(b) for b in w.ranges), dice=_dice(w.attack_dice, w.special_dice),
            ammo=m.ammo,
        ))
    st = game.state
    return VehicleView(
        id=v.id, name=v.name, player=v.player, type=v.type, weight=str(v.weight),
        x=_r(v.pose.x), y=_r(v.pose.y), heading=_r(v.pose.heading), length=v.length,
        width=v.width, gear=v.gear, max_gear=game.stat(v, "max_gear"), hazards=v.hazards,
        hull=v.hull, hull_points=v.hull_points, handling=game.stat(v, "handling"),
        crew=game.stat(v, "crew"), status=str(v.status),
        activated=st.gear_phase in v.activated_phases, weapons=weapons,
        special_rules=list(v.special_rules), colour=colour(v.player),
    )


def _drawables(game: Game) -> list[DrawableView]:
    """Whatever the scenario draws, from its own description (any scenario)."""
    return [DrawableView(
        id=d.id, kind=d.kind, points=[(_r(x), _r(y)) for x, y in d.points], label=d.label,
        number=d.number, direction=None if d.direction is None
        else (round(d.direction[0], 6), round(d.direction[1], 6)),
        owner=d.owner, style=d.style,
    ) for d in game.scenario.drawables(game)]


def _report(game: Game) -> list[ReportRowView]:
    return [ReportRowView(**r.to_json()) for r in game.scenario.report(game)]


# -- the pending decision ----------------------------------------------------------------------
def decision_vehicle(game: Game, d: Decision) -> VehicleState | None:
    """The vehicle a decision is about: its ``vehicle`` field (None for a choice among
    vehicles, such as which to activate or deploy)."""
    return None if d.vehicle is None else game.state.vehicles.get(d.vehicle)


OUTLINE_STEP_DEG = 5.0
"""Angular step of the drawn outline of a curved template (a drawing, not a test)."""


def template_outline(pieces: Sequence[Sequence[Point]]) -> list[Point]:
    """The outline of a laid template from its quadrilateral pieces (each right, right',
    left', left): down the right edge, back up the left."""
    if not pieces:
        return []
    right = [pieces[0][0]] + [p[1] for p in pieces]
    left = [pieces[0][3]] + [p[2] for p in pieces]
    return right + left[::-1]


def _template_preview(game: Game, d: Decision, v: VehicleState) -> dict[str, Any]:
    laid: dict[str, list[list[list[float]]]] = {}
    for o in d.options:
        tid, mirror, reverse = parse_template_value(str(o.value))
        try:
            path = path_for(v.rect(), tid, mirror=mirror, reverse=reverse, ts=game.templates)
        except (KeyError, ValueError):
            continue
        pieces = template_pieces(path, step_deg=OUTLINE_STEP_DEG)
        laid[str(o.value)] = [_poly(template_outline(pieces))]
    return {"vehicle": v.id, "templates": laid}


def _reach(v: VehicleState, arc: Arc, bands: Sequence[str], game: Game) -> list[list[list[float]]]:
    """The arc's reach at the weapon's longest range band, as polygons."""
    best = None
    for b in bands:
        try:
            tpl = shooting_template(b, game.templates)
        except (KeyError, ValueError):
            continue
        span = max(math.dist(p, q) for p in tpl.polygon for q in tpl.polygon)
        if best is None or span > best[0]:
            best = (span, tpl)
    if best is None:
        return []
    pieces = arc_region(v.rect(), arc, best[1], steps=36)
    if arc is Arc.TURRET:
        return [_poly(convex_hull([p for piece in pieces for p in piece]))]
    return [_poly(p) for p in pieces]


def _attack_preview(game: Game, d: Decision, v: VehicleState) -> dict[str, Any]:
    cat = load_catalog()
    mounts = {m.key: m for m in v.weapons}
    targets: dict[str, list[str]] = {}
    for o in d.options:
        value = str(o.value)
        if value == STOP or ">" not in value:
            continue
        key, _, target = value.partition(">")
        targets.setdefault(key, []).append(target)
    weapons = []
    for key, tids in targets.items():
        mount = mounts.get(key)
        wid = HANDGUN if mount is None else mount.weapon
        try:
            w = cat.weapons.get(wid)
        except KeyError:
            continue
        arc = weapon_arc(mount, w)
        weapons.append({
            "key": key, "name": w.name, "arc": arc.value,
            "range": "/".join(str(b) for b in w.ranges), "targets": tids,
            "polygons": _reach(v, arc, [str(b) for b in w.ranges], game),
        })
    return {"vehicle": v.id, "weapons": weapons}


def _grid_preview(game: Game, d: Decision, v: VehicleState) -> dict[str, Any]:
    """Where each option puts the vehicle, as the scenario says (``option_poses``)."""
    poses = {value: {"x": _r(p.x), "y": _r(p.y), "heading": _r(p.heading)}
             for value, p in game.scenario.option_poses(game, d).items()}
    return {"vehicle": v.id, "poses": poses}


def preview(game: Game, d: Decision, v: VehicleState | None) -> dict[str, Any] | None:
    if v is None:
        return None
    if d.kind == "template":
        return _template_preview(game, d, v)
    if d.kind == "attack":
        return _attack_preview(game, d, v)
    if d.kind == "grid":
        return _grid_preview(game, d, v)
    if d.kind in ("spin", "lose_control") and d.domain is not None:
        return {"vehicle": v.id, "centre": [_r(v.pose.x), _r(v.pose.y)],
                "heading": _r(v.pose.heading), "low": d.domain.low, "high": d.domain.high}
    return {"vehicle": v.id}


def pending_view(game: Game, d: Decision, with_preview: bool = True) -> PendingView:
    v = decision_vehicle(game, d)
    return PendingView(
        seat=d.player, kind=d.kind, prompt=d.prompt, source=d.source, page=d.page,
        options=[OptionView(value=o.value, label=o.label or str(o.value)) for o in d.options]
        if d.domain is None else None,
        domain=None if d.domain is None
        else DomainView(low=d.domain.low, high=d.domain.high, unit=d.domain.unit),
        vehicle=None if v is None else v.id, target=d.target, weapon=d.weapon,
        preview=preview(game, d, v) if with_preview else None,
    )


# -- the whole view ----------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatControl:
    seat: int
    controller: Controller


def game_view(
    game: Game,
    gid: str,
    seats: Sequence[SeatControl],
    your_seat: int | None = None,
    *,
    events: Sequence[Event] | None = None,
    with_preview: bool = True,
    log_cache: dict[int, LogLine] | None = None,
) -> GameView:
    """The view of ``game``; ``events`` replaces the default log (the last ``LOG_LINES``)."""
    st = game.state
    d = game.pending()
    shown = list(game.log.events[-LOG_LINES:]) if events is None else list(events)
    controllers = {s.seat: s.controller for s in seats}
    return GameView(
        id=gid,
        version=len(game.choices),
        scenario=game.scenario.id,
        round=st.round,
        gear_phase=st.gear_phase,
        pole=st.pole,
        status="finished" if st.finished else "in_progress",
        winner=st.winner,
        outcome_reason=game.outcome_reason,
        table=TableSize(width=st.width, height=st.height),
        your_seat=your_seat,
        players=[
            PlayerView(seat=p, controller=controllers.get(p, "human"),
                       votes=st.votes[p] if p < len(st.votes) else 0, colour=colour(p))
            for p in range(st.players)
        ],
        vehicles=[vehicle_view(game, v) for v in st.vehicles.values()],
        obstacles=[
            ObstacleView(id=o.id, x=_r(o.pose.x), y=_r(o.pose.y), length=o.length,
                         width=o.width, heading=_r(o.pose.heading), tall=o.tall,
                         destructible=o.destructible, wreck_of=o.wreck_of)
            for o in st.obstacles.values()
        ],
        surfaces=[
            SurfaceView(id=s.id, kind=str(s.kind), polygon=[(_r(x), _r(y)) for x, y in s.polygon])
            for s in st.surfaces.values()
        ],
        drawables=_drawables(game),
        report=_report(game),
        dropped=[
            DroppedView(id=t.id, kind=t.kind, shape=t.template,
                        polygon=[(_r(x), _r(y)) for x, y in t.polygon])
            for t in st.dropped.values()
        ],
        pending=None if d is None else pending_view(game, d, with_preview),
        log=log_lines(game, shown, log_cache),
        svg_url=f"/api/games/{gid}/svg",
    )


def table_svg(game: Game, title: str | None = None) -> str:
    """The table as SVG (terrain, surfaces, vehicles in play in their seat colours)."""
    st = game.state
    view = TableView(
        width=st.width,
        height=st.height,
        surfaces=[SurfaceShape(s.id, str(s.kind), s.polygon) for s in st.surfaces.values()],
        obstacles=[
            ObstacleShape(o.id, tuple(o.polygon()), o.tall, o.destructible)
            for o in st.obstacles.values()
        ],
        vehicles=[
            VehicleShape(v.id, v.pose, v.length, v.width, colour(v.player), v.name)
            for v in st.vehicles.values() if v.in_play
        ],
        templates=[TemplateShape((t.polygon,), "dropped", t.id) for t in st.dropped.values()]
        + drawable_shapes(game.scenario.drawables(game)),
        title=title,
    )
    return render_svg(view, scale=0.6, margin=10.0)
