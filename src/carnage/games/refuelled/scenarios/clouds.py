"""Toxic clouds (Refuelled p.146): dropped-weapon templates laid by the scenario.

A toxic cloud is a ``TableTemplate`` of kind ``toxic_cloud`` in ``GameState.dropped``, shaped as a
Large Burst (the book: roughly that size; ruling DS-7), so everything that plays dropped templates
(engine/hazards_on_table.py) plays it too:

* a vehicle touching one is Distracted (``TemplateKind.distracts``);
* a vehicle whose movement template or Final Position touches one gains 2 Hazards at the end of
  its Movement Step (``TemplateKind.touched``);
* it blocks line of fire as Tall terrain does: ``install_clouds`` adds each cloud to the
  ``cover_blockers`` hook as a Tall blocker, for vehicles' and turrets' shots alike;
* the Airborne rule cannot ignore it: ``install_clouds`` answers the ``ignores_dropped`` hook
  with False for clouds, after every other handler (Airborne's included).

Clouds never leave the table (they attack nothing, so nothing removes them: DS-7).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.hazards_on_table import (
    TemplateKind,
    lay,
    template_kind,
    template_polygon,
)
from carnage.games.refuelled.engine.scenario_view import Drawable
from carnage.games.refuelled.engine.state import TableTemplate, VehicleState
from carnage.geometry.cover import Blocker
from carnage.geometry.shapes import Point, Pose

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

PAGE = 146
CLOUD = "toxic_cloud"
SHAPE = "large_burst"
"""A toxic cloud is laid as a Large Burst template (DS-7)."""
CLOUD_HAZARDS = 2
EFFECT = "toxic_clouds"


def _touched(g: Game, v: VehicleState, t: TableTemplate) -> None:
    g.add_hazards(v, CLOUD_HAZARDS, CLOUD, PAGE)


KIND = template_kind(TemplateKind(CLOUD, PAGE, distracts=True, asked_apart=True,
                                   touched=_touched))


def is_cloud(t: TableTemplate) -> bool:
    return t.kind == CLOUD


def clouds(g: Game) -> list[TableTemplate]:
    return [t for t in g.state.dropped.values() if is_cloud(t)]


def cloud_pose(g: Game, centre: Point, heading: float) -> Pose:
    """The burst's origin (its narrow tip) for a cloud centred on ``centre`` facing
    ``heading``: the tip lies half the template's length behind the centre."""
    half = g.templates.bursts[SHAPE][0] / 2.0
    rad = math.radians(heading)
    return Pose(centre[0] - half * math.cos(rad), centre[1] - half * math.sin(rad), heading)


def cloud_polygon(g: Game, centre: Point, heading: float) -> tuple[Point, ...]:
    return template_polygon(g, SHAPE, cloud_pose(g, centre, heading))


def lay_cloud(g: Game, centre: Point, heading: float, *, player: int | None,
              source: str = CLOUD, page: int = PAGE) -> TableTemplate:
    """Put a toxic cloud on the table centred on ``centre`` (its rules installed)."""
    install_clouds(g)
    return lay(g, CLOUD, SHAPE, cloud_pose(g, centre, heading), placed_by=None, player=player,
               source=source, page=page)


def cloud_drawables(g: Game) -> list[Drawable]:
    """Each toxic cloud as a ``zone`` mark (its template's outline)."""
    return [Drawable(t.id, "zone", t.polygon, label="toxic cloud", style="toxic_cloud")
            for t in clouds(g)]


def install_clouds(g: Game) -> None:
    """The clouds' rules beyond a dropped template's (once per game): Tall for line of fire;
    not ignored by Airborne."""
    if any(h.effect == EFFECT for h in g.effects.handlers("cover_blockers")):
        return

    def blockers(value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        extra = [Blocker(t.id, t.polygon, True) for t in clouds(game)]
        return [*value, *extra] if extra else None

    def not_ignored(value: Any, ctx: dict[str, Any]) -> Any:
        t: TableTemplate | None = ctx.get("template")
        return False if t is not None and is_cloud(t) else None

    g.effects.on("cover_blockers", EFFECT, blockers, priority=-50)
    g.effects.on("ignores_dropped", EFFECT, not_ignored, priority=-100)
    g.effects.add_flow("attack_start", EFFECT, lambda ctx: _in_cloud_told)
    if g.facts.people:
        g.effects.on("distracted", EFFECT, _distracted_as_told, priority=-5)


IN_CLOUD = "in_toxic_cloud"
"""Memory: vehicle id -> [round, gear phase, touching a toxic cloud] as its Attack Step began
(at a real table, as the people said: ruling CP-13)."""


def touching_clouds(g: Game, v: VehicleState) -> list[TableTemplate]:
    """The toxic clouds ``v``'s body touches now (the exact table's measure)."""
    from carnage.games.refuelled.engine.hazards_on_table import under

    return [t for t in under(g, [r.polygon() for _, r in v.bodies()], touching=True)
            if is_cloud(t)]


def _in_cloud_told(g: Game, ctx: dict[str, Any]) -> Flow:
    """As the Attack Step begins: is the vehicle touching a toxic cloud (then it is
    Distracted, p.146)? At a real table the people say (ruling CP-13); the exact table
    measures and notes the fact. Asked only while a cloud lies on the table."""
    v: VehicleState = ctx["vehicle"]
    if not clouds(g) or not v.in_play:
        return
    if g.facts.people:
        from carnage.games.refuelled.engine.table_facts import ask_yes_no

        touching = yield from ask_yes_no(
            g, v.player, "in_toxic_cloud", f"{v.name}: is it touching a toxic cloud (then it "
            "is Distracted)?", page=PAGE, vehicle=v.id)
        st = g.state
        st.scenario.setdefault(IN_CLOUD, {})[v.id] = [st.round, st.gear_phase, touching]
    else:
        g.facts.note("in_toxic_cloud", bool(touching_clouds(g, v)))


def _distracted_as_told(value: Any, ctx: dict[str, Any]) -> Any:
    """At a real table: a vehicle the people said touches a toxic cloud, as its Attack Step
    began this Gear Phase, is Distracted (p.146; ruling CP-13)."""
    if value is True:
        return None
    g: Game = ctx["game"]
    v: VehicleState = ctx["vehicle"]
    st = g.state
    told = st.scenario.get(IN_CLOUD, {}).get(v.id)
    return True if told == [st.round, st.gear_phase, True] else None
