"""Seats' own movement templates in play (the seam Gaslands: Legacy uses; any game may).

A seat may own a changed set of movement templates (``GameState.templates``: str(seat) -> a
team template set, carnage/geometry/team_templates.py), put there from its team file by
``build_game`` or by any set-up. In our words, the rules this seam plays (Legacy "Using Legacy
Templates", "New Slide Exit Points"; inventory GL-023, GL-041, GL-042, GL-075):

- every movement of a vehicle, forced moves included, uses its seat's templates: the Movement
  Step offers that seat's templates with their gear icons (a Hazard token per Hazard icon, a
  bonus Shift per Shift icon) and, when it slides, any of the template's slide exit points;
- which seat's set a vehicle uses is the ``team_templates`` hook's answer (by default its
  controller's, so a creature moves on the templates of the player activating it);
- a template may not be laid with a slide exit point touching the vehicle's starting
  position;
- ranges and every other measurement use the standard templates: a seat's set only adds
  movement templates to the game's template set, under ids whose geometry is the same in
  every team (``geometry.team_templates.merged_template_set``), and changes nothing else.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from carnage.catalog import TemplateUse
from carnage.geometry.collision import TOUCH_TOL
from carnage.geometry.movement import path_for
from carnage.geometry.team_templates import (
    ExitPoint,
    TeamTemplate,
    TeamTemplateSet,
    exit_variant_id,
    main_exit,
    merged_template_set,
    parse_template_set,
    symmetric,
)

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import GameState, VehicleState
    from carnage.geometry.templateset import TemplateSet

ALT = "alt"
"""Flag of a template choice value using a combined template's second icon set."""


def game_template_set(ts: TemplateSet, state: GameState) -> TemplateSet:
    """``ts`` with every seat's own movement templates added (the game's ``templates``)."""
    return merged_template_set(ts, state.templates.values())


@lru_cache(maxsize=256)
def _parsed(doc: str) -> TeamTemplateSet:
    return parse_template_set(json.loads(doc))


_BY_DOC: dict[int, tuple[Any, TeamTemplateSet]] = {}


def team_set(g: Game, v: VehicleState) -> TeamTemplateSet | None:
    """The template set ``v`` moves with; None: the standard templates."""
    docs = g.state.templates
    if not docs:
        return None
    seat = g.effects.run_event("team_templates", v.player, {"game": g, "vehicle": v})
    doc = docs.get(str(seat))
    if doc is None:
        return None
    hit = _BY_DOC.get(id(doc))
    if hit is not None and hit[0] is doc:
        return hit[1]
    tset = _parsed(json.dumps(doc, sort_keys=True))
    if len(_BY_DOC) > 1024:
        _BY_DOC.clear()
    _BY_DOC[id(doc)] = (doc, tset)
    return tset


def set_seat_templates(state: GameState, seat: int, tset: Any) -> None:
    """Give ``seat`` its own template set (a ``TeamTemplateSet`` or its JSON form), before the
    game is made; None gives it the standard templates again."""
    if tset is None:
        state.templates.pop(str(seat), None)
        return
    state.templates[str(seat)] = parse_template_set(tset).to_json()


def base_use(t: TeamTemplate, gear: int) -> TemplateUse:
    """The core table's letter for the template's icons in ``gear`` (its first icon set that
    permits the gear)."""
    for k in range(len(t.icon_sets)):
        icons = t.icons(gear, k)
        if icons is not None:
            return TemplateUse(icons.letter)
    return TemplateUse.NOT_PERMITTED


def icon_choices(t: TeamTemplate, gear: int) -> list[int]:
    """The icon sets a player may use in ``gear``: a combined template's second set is a
    choice of its own only when it permits the gear and differs from the first."""
    first, second = t.icons(gear, 0), t.icons(gear, 1) if t.alt_gears is not None else None
    if second is None or second == first:
        return [0]
    return [1] if first is None else [0, 1]


def icons_of_choice(g: Game, v: VehicleState, value: str, use: TemplateUse) -> tuple[int, int]:
    """(Hazard tokens, bonus Shifts) the chosen template gives in ``v``'s gear: its icon
    counts, unless a rule changed its use (then the core letter: one of either)."""
    from carnage.games.refuelled.engine.movement import parse_template_value

    letter = (1 if use is TemplateUse.HAZARDOUS else 0, 1 if use is TemplateUse.TRIVIAL else 0)
    tset = team_set(g, v)
    if tset is None:
        return letter
    tid, *flags = str(value).split("/")
    t = tset.get(parse_template_value(tid)[0])
    if t is None or use is not base_use(t, v.gear):
        return letter
    icons = t.icons(v.gear, 1 if ALT in flags else 0)
    if icons is None:
        return letter
    return icons.hazards, icons.shifts


@lru_cache(maxsize=1024)
def _exits(t: TeamTemplate) -> tuple[tuple[str, ExitPoint], ...]:
    return ((t.id, main_exit(t)), *((exit_variant_id(t.id, e), e) for e in t.exits))


_TOUCH: dict[tuple[object, ...], tuple[TemplateSet, bool]] = {}


def exit_touches_start(g: Game, v: VehicleState, t: TeamTemplate, mirror: bool,
                       reverse: bool) -> bool:
    """Whether laying ``t`` so puts one of its slide exit points on or in the vehicle's
    starting position (it may not be laid then: Legacy, New Slide Exit Points). Worked out
    in the body's own frame, so once per template, way up and body size."""
    from carnage.geometry.shapes import Pose, Rect

    ts = g.templates
    key = (id(ts), t, mirror, reverse, v.length, v.width)
    hit = _TOUCH.get(key)
    if hit is not None and hit[0] is ts:
        return hit[1]
    body = Rect(Pose(0.0, 0.0, 0.0), v.length, v.width)
    touches = False
    for sid, _ in _exits(t):
        x, y = path_for(body, sid, mirror=mirror, reverse=reverse, ts=ts).slide_exit_point()
        if abs(x) <= body.length / 2.0 + TOUCH_TOL and abs(y) <= body.width / 2.0 + TOUCH_TOL:
            touches = True
            break
    if len(_TOUCH) > 4096:
        _TOUCH.clear()
    _TOUCH[key] = (ts, touches)
    return touches


def team_template_options(g: Game, v: VehicleState, tset: TeamTemplateSet, *,
                          permitted_only: bool) -> list[tuple[str, str]]:
    """The placements of the seat's own templates ``v`` may pick, as ``template_options``
    gives the standard ones (p.22, p.38, p.39), with each choice's icons in its label."""
    from carnage.games.refuelled.engine.movement import template_use, template_value

    may_reverse = g.effects.run_event("may_reverse", True, {"game": g, "vehicle": v}) is True
    hooked = not permitted_only or any(
        template_use(g, v, t.id, v.gear) is not TemplateUse.NOT_PERMITTED
        for t in tset.templates)
    out: list[tuple[str, str]] = []
    for t in tset.templates:
        use = template_use(g, v, t.id, v.gear) if hooked else base_use(t, v.gear)
        if permitted_only and use is TemplateUse.NOT_PERMITTED:
            continue
        reverse_ok = may_reverse and v.gear == 1 and (
            template_use(g, v, t.id, 1) if hooked else base_use(t, 1)
        ) is not TemplateUse.NOT_PERMITTED
        changed = use is not base_use(t, v.gear)
        for r in ((False, True) if reverse_ok else (False,)):
            for m in ((False,) if symmetric(t) else (False, True)):
                if exit_touches_start(g, v, t, m, r):
                    continue
                for k in ([0] if changed else icon_choices(t, v.gear)):
                    icons = t.icons(v.gear, k)
                    letter = use.value
                    if not changed and icons is not None:
                        letter = icons.letter
                    shown = "" if changed or icons is None or icons.code == letter \
                        else f" ({icons.code})"
                    value = template_value(t.id, m, r) + (f"/{ALT}" if k else "")
                    label = (f"{t.name}{' (left)' if m else ''}{' in reverse' if r else ''}"
                             f"{' with its second icons' if k else ''}{shown} [{letter}]")
                    out.append((value, label))
    return out


def team_template_use(g: Game, v: VehicleState, tid: str, gear: int) -> TemplateUse | None:
    """The unhooked use of ``tid`` in ``gear`` from ``v``'s own set; None: ``v`` moves with
    the standard templates. A template the seat does not have is not permitted."""
    tset = team_set(g, v)
    if tset is None:
        return None
    t = tset.get(tid)
    return TemplateUse.NOT_PERMITTED if t is None else base_use(t, gear)


def slide_exit_options(g: Game, v: VehicleState, tid: str) -> list[tuple[str, str]]:
    """The slide exit points ``v`` may slide from on template ``tid`` (the laid template's
    id for each); empty when it has only its own."""
    tset = team_set(g, v)
    t = None if tset is None else tset.get(tid)
    if t is None or not t.exits:
        return []
    out = []
    for i, (sid, e) in enumerate(_exits(t)):
        own = "its own slide exit point" if i == 0 else "the new slide exit point"
        out.append((sid, f"{own} {e.label}"))
    return out


def chosen_template_data(g: Game, v: VehicleState, tid: str, hazards: int,
                         shifts: int) -> dict[str, Any]:
    """What the ``template`` event adds for a template of ``v``'s own set: its ``name`` and
    the ``hazard_icons`` and ``shift_icons`` it gives (nothing for the standard templates)."""
    tset = team_set(g, v)
    t = None if tset is None else tset.get(tid)
    if t is None:
        return {}
    return {"name": t.name, "hazard_icons": hazards, "shift_icons": shifts}
