"""Dropped weapon templates left on the table (Refuelled pp.78-80).

A dropped weapon lays a shooting template (a burst) touching its vehicle inside the weapon's arc
and leaves it there. Rules describe each kind of template once (``TemplateKind``: treacherous,
gives cover, distracts, what it does to a vehicle it affects, what touching it costs at the end
of a Movement Step) and register it with ``template_kind``; this module keeps the templates in
``GameState.dropped`` and plays them:

* a template affects a vehicle it overlaps when it is laid (never the vehicle that laid it), and
  a vehicle whose movement template or Final Position overlaps it, in that move's collision
  window (``move_window`` flow hook; forced moves too);
* templates affecting one vehicle at once resolve from the top of the stack down (the one laid
  last first);
* at the end of a Movement Step, treacherous templates under the move give the treacherous
  surface's Hazards (p.86; not twice with real treacherous ground), and kinds with a ``touched``
  effect act on the templates the move touched (Smoke);
* Smoke-like kinds give cover (``cover_blockers`` hook) and Distract a vehicle touching them.

The ``ignores_dropped`` hook may say a vehicle ignores a template (Airborne, p.70).
Placing a burst: ``choose_burst_pose`` asks for the edge, the offset along it and (360-degree
arc only) the facing; the ``drop_placer`` hook may replace it (Improvised Sludge Thrower, p.85).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import TableTemplate, VehicleState
from carnage.geometry.arcs import Arc
from carnage.geometry.collision import TOUCH_TOL
from carnage.geometry.convex import translate
from carnage.geometry.cover import Blocker
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Point, Pose, Rect, distance, penetration, rotate
from carnage.geometry.surfaces import SurfaceKind, move_pieces, surface_report
from carnage.kernel.decisions import Decision, Interval
from carnage.kernel.effects import run_flows
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

RULES = RuleTable()
"""The dropped templates' shared installer (composed into the Refuelled ruleset)."""

TABLE_EFFECT = "dropped_templates"
SMOKE_TOLD = "table:smoke"
"""The memory of the smoke templates the people said each vehicle touches (companion mode)."""
SMOKE_FIRST = 510
"""Where the smoke a vehicle touches is asked among the Attack Step's opening rules (higher
runs first): before them all, never at the same moment as another (ruling CP-17)."""
"""Effect id of the handlers that play templates on the table (installed once per game)."""
OVERLAP = 1e-6
"""Depth (mm) above which two shapes overlap rather than touch (as for surfaces)."""
TREACHEROUS_HAZARDS = 2
"""Hazards for a move over a treacherous surface (p.86)."""

AffectFn = Callable[["Game", VehicleState, TableTemplate], "Flow"]
TouchFn = Callable[["Game", VehicleState, TableTemplate], None]


@dataclass(frozen=True)
class TemplateKind:
    """What one kind of dropped template does (registered by the rule that drops it)."""

    id: str
    page: int
    treacherous: bool = False
    """Counts as a treacherous surface (p.86)."""
    cover: bool = False
    """Counts as an obstruction for cover (Smoke, p.80)."""
    distracts: bool = False
    """A vehicle touching it is Distracted (Smoke, p.80)."""
    asked_apart: bool = False
    """At a real table, whether a vehicle touches it is asked by its own rule (a scenario's
    toxic clouds, ruling CP-13), not among the smoke a vehicle touches (CP-17)."""
    affect: AffectFn | None = None
    """Run against each vehicle it affects, in the collision window."""
    touched: TouchFn | None = None
    """Run at the end of a Movement Step whose template or Final Position touched it."""


KINDS: dict[str, TemplateKind] = {}


def template_kind(kind: TemplateKind) -> TemplateKind:
    """Register ``kind``; the same id twice is an error."""
    old = KINDS.get(kind.id)
    if old is not None and old != kind:
        raise ValueError(f"dropped template kind {kind.id!r} is registered twice")
    KINDS[kind.id] = kind
    return kind


def template_words(t: TableTemplate) -> str:
    """A dropped template named in words, as the people at the table know it: what laid it
    and its number among those ("Smoke Dropper template 2"), never its id."""
    from carnage.games.refuelled.words import catalogue_name

    name = catalogue_name(t.kind)
    return f"{name[:1].upper()}{name[1:]} template {t.id.rpartition(':')[2]}"


# -- placing and removing ------------------------------------------------------------------------
def template_polygon(g: Game, template: str, pose: Pose) -> tuple[Point, ...]:
    """The shooting template ``template`` laid with its origin at ``pose`` (world frame)."""
    tpl = shooting_template(template, g.templates)
    pts = [rotate(p, pose.heading) for p in tpl.polygon]
    return tuple(translate(pts, pose.x, pose.y))


def lay(g: Game, kind: str, template: str, pose: Pose, *, placed_by: str | None,
        player: int | None, source: str, page: int) -> TableTemplate:
    """Put a template on the table, on top of any stack (no effects yet: see ``place``)."""
    if kind not in KINDS:
        raise ValueError(f"unknown dropped template kind {kind!r}")
    st = g.state
    install_table(g)
    n = 1 + sum(1 for t in st.dropped.values() if t.kind == kind)
    tid = f"{kind}:{n}"
    while tid in st.dropped:
        n += 1
        tid = f"{kind}:{n}"
    layer = 1 + max((t.layer for t in st.dropped.values()), default=0)
    t = TableTemplate(tid, kind, template, pose, template_polygon(g, template, pose), layer,
                      placed_by, player)
    st.dropped[tid] = t
    g.emit("dropped_template", source=source, page=page, template=tid, weapon=kind,
           shape=template, vehicle=placed_by, x=round(pose.x, 3), y=round(pose.y, 3),
           heading=round(pose.heading, 3))
    return t


def place(g: Game, kind: str, template: str, pose: Pose, *, placed_by: str | None,
          player: int | None, source: str, page: int) -> Flow:
    """Lay a template, then resolve it against every vehicle it overlaps, except the one that
    laid it, in a collision window (p.78; ruling DW-2)."""
    t = lay(g, kind, template, pose, placed_by=placed_by, player=player, source=source,
            page=page)
    others = [v for v in g.state.in_play() if v.id != placed_by]
    if g.facts.people:  # a real table: the people say whom the laid template lies over
        from carnage.games.refuelled.engine.table_facts import ask_list

        owner = g.state.vehicles.get(placed_by or "")
        ids = yield from ask_list(
            g, owner.player if owner is not None else g.state.pole, "under_template",
            f"{template_words(t)}: which vehicles does the template laid now overlap?",
            [(v.id, v.name) for v in others],
            page=page, vehicle=placed_by)
        under = [g.state.vehicles[i] for i in ids]
    else:
        under = [v for v in others if any(
            penetration(r.polygon(), t.polygon) > OVERLAP for _, r in v.bodies())]
        if others:
            g.facts.note("under_template", [v.id for v in under])
    for v in under:
        if t.id not in g.state.dropped or g.state.finished:
            break
        if v.in_play:
            yield from affect(g, v, [t.id])
    if t.id in g.state.dropped and not g.state.finished:
        # ``template_laid`` flow hook: what else the template meets (turrets, p.146).
        yield from run_flows(g, "template_laid", {"game": g, "template": t})


def remove(g: Game, tid: str, *, reason: str, source: str, page: int) -> bool:
    """Take a template off the table; False if it was already gone."""
    if g.state.dropped.pop(tid, None) is None:
        return False
    g.emit("dropped_template_removed", source=source, page=page, template=tid, reason=reason)
    g.effects.run_event("dropped_template_removed", None, {"game": g, "template": tid})
    return True


# -- which templates a move meets ----------------------------------------------------------------
def stack_order(templates: Iterable[TableTemplate]) -> list[TableTemplate]:
    """Top of the stack first (p.78)."""
    return sorted(templates, key=lambda t: -t.layer)


def meeting(g: Game, parts: Sequence[Sequence[Point]]
            ) -> tuple[list[TableTemplate], list[TableTemplate]]:
    """The templates the convex ``parts`` overlap, and those they overlap or touch; top
    first."""
    boxes = [_box(p) for p in parts]
    over: list[TableTemplate] = []
    touch: list[TableTemplate] = []
    for t in stack_order(g.state.dropped.values()):
        tb = _box(t.polygon)
        touched = False
        for p, pb in zip(parts, boxes, strict=True):
            if not _boxes_meet(pb, tb):
                continue  # clearly apart: the exact test is the costly part
            depth = penetration(p, t.polygon)
            if depth > OVERLAP:
                over.append(t)
                touched = True
                break
            if not touched and depth >= -TOUCH_TOL and distance(p, t.polygon) <= TOUCH_TOL:
                touched = True
        if touched:
            touch.append(t)
    return over, touch


def under(g: Game, parts: Sequence[Sequence[Point]], *, touching: bool = False
          ) -> list[TableTemplate]:
    """Templates that the convex ``parts`` overlap (or touch, with ``touching``), top first."""
    over, touch = meeting(g, parts)
    return touch if touching else over


Box = tuple[float, float, float, float]


def _box(poly: Sequence[Point]) -> Box:
    xs = [x for x, _ in poly]
    ys = [y for _, y in poly]
    return min(xs), min(ys), max(xs), max(ys)


def _boxes_meet(a: Box, b: Box, tol: float = 2 * TOUCH_TOL) -> bool:
    return a[0] <= b[2] + tol and b[0] <= a[2] + tol and a[1] <= b[3] + tol and b[1] <= a[3] + tol


def affected_by(g: Game, v: VehicleState, t: TableTemplate) -> bool:
    """Does ``t`` affect ``v`` at all? Not if the ``ignores_dropped`` hook says the vehicle
    ignores it (Airborne, p.70; Glue two activations in a row, p.79)."""
    return g.effects.run_event("ignores_dropped", False,
                               {"game": g, "vehicle": v, "template": t}) is not True


def affect(g: Game, v: VehicleState, ids: Sequence[str]) -> Flow:
    """Resolve the templates ``ids`` against ``v``, in the order given (top first)."""
    for tid in ids:
        t = g.state.dropped.get(tid)
        if t is None or not v.in_play or g.state.finished:
            continue
        if not affected_by(g, v, t):
            continue
        kind = KINDS[t.kind]
        g.emit("dropped_effect", source=t.kind, page=kind.page, template=t.id, vehicle=v.id)
        if kind.affect is not None:
            yield from kind.affect(g, v, t)


def _met_at_table(g: Game, v: VehicleState, ground: bool
                  ) -> Generator[Decision, Any, tuple[list[TableTemplate], list[TableTemplate],
                                                        bool]]:
    """At a real table: the dropped templates the move's template or final position overlapped,
    then those it only touched, and (when it overlapped a slick one and treacherous ground is
    laid) whether it touched that ground too (pp.78-80, 86). Top of the stack first."""
    from carnage.games.refuelled.engine.table_facts import ask_list, ask_yes_no

    stack = stack_order(g.state.dropped.values())
    over = yield from ask_list(
        g, v.player, "dropped_overlapped", f"{v.name}: which dropped templates did its move "
        "or final position overlap (top of a stack first)?",
        [(t.id, template_words(t)) for t in stack],
        page=78, vehicle=v.id)
    rest = [t for t in stack if t.id not in over]
    only = yield from ask_list(
        g, v.player, "dropped_touched", f"{v.name}: which other dropped templates did it just "
        "touch?", [(t.id, template_words(t)) for t in rest], page=78, vehicle=v.id)
    hit = [g.state.dropped[i] for i in over]
    touched = [t for t in stack if t.id in over or t.id in only]
    on_ground = False
    if ground and any(KINDS[t.kind].treacherous for t in hit):
        on_ground = yield from ask_yes_no(
            g, v.player, "dropped_ground_treacherous", f"{v.name}: did its move also touch "
            "treacherous ground?", page=86, vehicle=v.id)
    return hit, touched, on_ground


def _note_met(g: Game, hit: list[TableTemplate], touched: list[TableTemplate],
              ground: list[Any], on_ground: bool) -> None:
    """The exact table's answers to what ``_met_at_table`` asks, in its order."""
    g.facts.note("dropped_overlapped", [t.id for t in hit])
    over = {t.id for t in hit}
    if len(over) < len(g.state.dropped):
        g.facts.note("dropped_touched", [t.id for t in touched if t.id not in over])
    if ground and any(KINDS[t.kind].treacherous for t in hit):
        g.facts.note("dropped_ground_treacherous", on_ground)


# -- the handlers that play the templates --------------------------------------------------------
@dataclass
class _MoveRecord:
    overlapped: list[TableTemplate] = field(default_factory=list)
    touched: list[TableTemplate] = field(default_factory=list)
    ground_treacherous: bool = False


@RULES.journaled('table')
def install_table(g: Game) -> None:
    """Register the handlers that play dropped templates (once per game)."""
    if any(h.effect == TABLE_EFFECT for h in g.effects.handlers("move_window")):
        return
    moves: dict[str, _MoveRecord] = g.memory(TABLE_EFFECT, "moves", {})

    def move_window(game: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        result = ctx.get("result")
        if not game.state.dropped:
            return
        ground = [sf for sf in game.state.surfaces.values()
                  if sf.kind is SurfaceKind.TREACHEROUS]
        if game.facts.people:  # a real table: the people say which templates it met
            hit, touched, on_ground = yield from _met_at_table(game, v, bool(ground))
        elif result is None:
            return
        else:
            parts = move_pieces(result)
            hit, touched = meeting(game, parts)
            on_ground = False
            if ctx.get("forced") is None and ground and any(
                    KINDS[t.kind].treacherous for t in hit):
                on_ground = surface_report(parts, ground).treacherous != ()
            if game.facts.recording:
                _note_met(game, hit, touched, ground, on_ground)
        if ctx.get("forced") is None:
            # The Movement Step's own move: remembered for the end of the step (p.86, p.80).
            moves[v.id] = _MoveRecord(hit, touched, on_ground)
        yield from affect(game, v, [t.id for t in hit])

    def movement_start(game: Game, ctx: dict[str, Any]) -> Flow:
        moves.pop(ctx["vehicle"].id, None)
        yield from ()

    def movement_end(game: Game, ctx: dict[str, Any]) -> Flow:
        v: VehicleState = ctx["vehicle"]
        rec = moves.pop(v.id, None)
        if rec is None or not v.in_play:
            return
        slick = [t.id for t in rec.overlapped
                 if KINDS[t.kind].treacherous and affected_by(game, v, t)]
        if slick and not rec.ground_treacherous:
            n = int(game.effects.run_event("surface_hazards", TREACHEROUS_HAZARDS, {
                "game": game, "vehicle": v, "surface": "treacherous", "dropped": slick}))
            game.add_hazards(v, n, "treacherous_surface", 86)
        for t in rec.touched:
            fn = KINDS[t.kind].touched
            if fn is not None and v.in_play and affected_by(game, v, t):
                fn(game, v, t)
        yield from ()

    def smoke_touching(game: Game, v: VehicleState) -> list[str]:
        """The distracting templates (Smoke, p.80) touching ``v``: at a real table, what the
        people said as its Attack Step began (still on the table, ruling CP-17); on the
        exact table, measured now."""
        if game.facts.people:
            told: dict[str, list[str]] = game.memory(SMOKE_TOLD, "touching", {})
            return [i for i in told.get(v.id, []) if i in game.state.dropped]
        return [t.id for t in under(game, [r.polygon() for _, r in v.bodies()], touching=True)
                if KINDS[t.kind].distracts and affected_by(game, v, t)]

    def smokes(game: Game, v: VehicleState) -> list[TableTemplate]:
        """The smoke a real table is asked about: distracting templates not asked apart."""
        return [t for t in stack_order(game.state.dropped.values())
                if KINDS[t.kind].distracts and not KINDS[t.kind].asked_apart
                and affected_by(game, v, t)]

    def smoke_asked(game: Game, ctx: dict[str, Any]) -> Flow:
        from carnage.games.refuelled.engine.table_facts import reached

        v: VehicleState = ctx["vehicle"]
        got = yield from reached(
            game, v.player, "smoke_touching", f"{v.name}: which smoke templates does it touch "
            "as it attacks?", [(t.id, template_words(t)) for t in smokes(game, v)],
            lambda: [i for i in smoke_touching(game, v)
                     if not KINDS[game.state.dropped[i].kind].asked_apart], page=80, vehicle=v.id)
        if game.facts.people:  # kept in the state: a copy of the game knows it too
            game.memory(SMOKE_TOLD, "touching", {})[v.id] = got

    def smoke_asks(ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        if (game.facts.people or game.facts.recording) and smokes(game, ctx["vehicle"]):
            return smoke_asked
        return None

    def distracted(value: Any, ctx: dict[str, Any]) -> Any:
        if value is True:
            return None
        return True if smoke_touching(ctx["game"], ctx["vehicle"]) else None

    def cover(value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        extra = [Blocker(t.id, t.polygon) for t in game.state.dropped.values()
                 if KINDS[t.kind].cover]
        return list(value) + extra if extra else None

    def flow(fn: Callable[[Game, dict[str, Any]], Flow]) -> Callable[[Any, dict[str, Any]], Any]:
        return lambda flows, ctx: [*flows, fn]

    fx = g.effects
    fx.on("move_window", TABLE_EFFECT, flow(move_window))
    fx.on("movement_start", TABLE_EFFECT, flow(movement_start))
    fx.on("movement_end", TABLE_EFFECT, flow(movement_end), priority=10)
    fx.on("distracted", TABLE_EFFECT, distracted, priority=-10)
    # At a real table the smoke a vehicle touches is asked as its Attack Step begins (CP-17).
    fx.add_flow("attack_start", TABLE_EFFECT, smoke_asks, priority=SMOKE_FIRST)
    fx.on("cover_blockers", TABLE_EFFECT, cover)


# -- choosing where a burst goes -----------------------------------------------------------------
EDGES = ("front", "rear", "left", "right")
ARC_EDGES = {
    Arc.FRONT: ("front",), Arc.REAR: ("rear",), Arc.LEFT: ("left",), Arc.RIGHT: ("right",),
    Arc.SIDE: ("left", "right"), Arc.TURRET: EDGES,
}
_NORMAL = {"front": 0.0, "rear": 180.0, "left": 90.0, "right": -90.0}


def edge_half(body: Rect, edge: str) -> float:
    """Half the length of ``edge`` of ``body``."""
    return body.width / 2.0 if edge in ("front", "rear") else body.length / 2.0


def edge_point(body: Rect, edge: str, offset: float) -> Pose:
    """The point ``offset`` mm along ``edge`` from its middle (to the vehicle's left for the
    front and rear edges, forwards for the sides), facing straight out from the edge."""
    hl, hw = body.length / 2.0, body.width / 2.0
    local = {
        "front": (hl, offset), "rear": (-hl, offset), "left": (offset, hw), "right": (offset, -hw),
    }[edge]
    x, y = body.pose.to_world(local)
    return Pose(x, y, (body.pose.heading + _NORMAL[edge]) % 360.0)


def burst_swing(g: Game, template: str) -> float:
    """How far (degrees) a burst with its tip on an edge may turn from straight out and stay
    clear of the vehicle (360-degree arc, p.30)."""
    return 90.0 - shooting_template(template, g.templates).tip_half_angle


Placer = Callable[["Game", dict[str, Any]], Generator[Decision, Any, Pose]]


def choose_burst_pose(g: Game, v: VehicleState, body: Rect, arc: Arc, template: str, *,
                      what: str, source: str, page: int,
                      weapon: str | None = None) -> Generator[Decision, Any, Pose]:
    """Ask where a dropped burst goes: its tip on an edge the arc allows (p.78, p.29), at an
    offset along that edge; in the 360-degree arc also turned up to ``burst_swing`` from
    straight out (ruling DW-1). The ``drop_placer`` hook may take over (e.g. p.85)."""
    ctx: dict[str, Any] = {"game": g, "vehicle": v, "body": body, "arc": arc,
                           "template": template, "what": what, "weapon": weapon}
    placer = g.effects.run_event("drop_placer", None, ctx)
    if callable(placer):
        pose: Pose = yield from placer(g, ctx)
        return pose
    edges = ARC_EDGES[arc]
    edge = str((yield ask(
        v.player, "drop_edge", f"{v.name}: drop the {what} off which edge?",
        [(e, f"{e} edge") for e in edges], source=source, page=page, vehicle=v.id,
        weapon=weapon,
    )))
    half = edge_half(body, edge)
    offset = float((yield Decision(
        v.player, "drop_offset",
        f"{v.name}: where along the {edge} edge does the {what} touch (mm from its middle)?",
        domain=Interval(-half, half, "mm"), source=source, page=page, vehicle=v.id,
        weapon=weapon,
    )))
    pose = edge_point(body, edge, offset)
    if arc is Arc.TURRET:
        swing = burst_swing(g, template)
        turn = float((yield Decision(
            v.player, "drop_angle",
            f"{v.name}: turn the {what} from straight out (degrees anticlockwise)",
            domain=Interval(-swing, swing), source=source, page=page, vehicle=v.id,
            weapon=weapon,
        )))
        pose = Pose(pose.x, pose.y, (pose.heading + turn) % 360.0)
    return pose
