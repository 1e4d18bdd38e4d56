"""What a client sees of a game on the Refuelled engine (Refuelled, the Kart variant, Legacy):
the ``GameView`` (``render/table_schemas.py``) and the SVG of the table; the web table reaches
it through ``Ruleset.table.tabletop`` (``REFUELLED_TABLETOP``).

Views are built from the engine's state, log and pending decision; nothing here changes the
game. ``previews`` adds drawing help for the pending decision from the engine's geometry: the
laid movement templates, the arcs of fire and the legal targets, the pivot centre.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, cast

from carnage.catalog import load_catalog
from carnage.games.refuelled.ai.bots import read_game
from carnage.games.refuelled.dicefaces import current_skid, event_dice, restates_roll
from carnage.games.refuelled.engine.attack import HANDGUN, STOP, weapon_arc
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.movement import parse_template_value
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.scenarios.base import TableScenario
from carnage.games.refuelled.setup import (
    GameSetup,
    SetupError,
    build_game,
    check_sides,
    rolled_scenario,
)
from carnage.games.refuelled.text import table_event_text
from carnage.games.refuelled.words import (
    catalogue_name,
    catalogue_names,
    choice_text,
    plain,
    rule_name,
    seat_name,
    state_names,
)
from carnage.geometry.arcs import Arc, arc_region
from carnage.geometry.convex import convex_hull
from carnage.geometry.movement import final_pose, path_for
from carnage.geometry.ranges import ShootingTemplate, shooting_template
from carnage.geometry.shapes import Point, Rect
from carnage.geometry.surfaces import template_pieces
from carnage.kernel.decisions import Decision, Option, lenient_choice
from carnage.kernel.events import Event
from carnage.kernel.secrets import redact_all
from carnage.kernel.table import TableContext, TableRequest, TableSeat, TableSetup
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
from carnage.render.table_schemas import (
    Controller,
    DiceView,
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
    ScenarioBriefView,
    ScoreboardView,
    SurfaceView,
    TableSize,
    UpgradeView,
    VehicleView,
    WeaponView,
    secret_views,
)

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset
    from carnage.kernel.ruleset import Ruleset
    from carnage.team import TeamSpec

LOG_LINES = 200
"""A live view carries the last this many log lines; the table fetches the earlier ones from
``GET /api/games/{id}/log`` when the reader scrolls up (nothing is ever cut off)."""


NEUTRAL_COLOUR = "#3b3b3b"
"""A vehicle that belongs to no player (creatures, Truckasaurus) is drawn in this colour."""


def colour(seat: int) -> str:
    return PALETTE[seat % len(PALETTE)]


def _r(x: float) -> float:
    return round(float(x), 2)


def _poly(points: Sequence[Point]) -> list[list[float]]:
    return [[_r(x), _r(y)] for x, y in points]


def names(state: GameState) -> dict[str, str]:
    """Display names of everything an event may mention, and the players' names."""
    return state_names(state)


def _with_faces(whole: Sequence[Event], e: Event, at: int | None) -> Event:
    """A Shift spent to cancel a result, with the skid dice it chose from (so its line can say
    "cancel the Spin on die 2")."""
    if (at is None or e.kind != "decision" or e.data.get("decision") != "spend_shift"
            or not str(e.data.get("choice", "")).startswith("cancel:")):
        return e
    vehicle = next((str(x.data.get("vehicle")) for x in reversed(whole[max(0, at - 60):at])
                    if x.kind == "skid"), None)
    pool = None if vehicle is None else current_skid(whole[:at], vehicle)
    if pool is None:
        return e
    return Event(e.seq, e.kind, {**e.data, "faces": [d.face for d in pool.dice]},
                 source=e.source, page=e.page)


_PAGE_TAIL = re.compile(r"^(.*?)(\.?)(\s*\(p\.\d+\))?$", re.S)
ORDINALS = ("", "", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth")


MAX_SAID = 100
"""Repetitions counted in words; a longer run (never seen in play) is told apart no further."""


def said_again(text: str, n: int) -> str:
    """``text`` said for the ``n``-th time in a row (n >= 2): "Blue chose discard one Shift
    again", "... a third time"; "A zombie is placed ..." becomes "Another zombie ...", "A third
    zombie ..."."""
    return _forms_again(text)[0](n)


def _forms_again(text: str) -> tuple[Callable[[int], str], str, str]:
    """``said_again(text, n)`` for any ``n``, with what every one of them starts and ends
    with (a line that does not is none of them)."""
    if text.startswith("A ") and len(text) > 2:
        rest = text[2:]

        def a_nth(n: int) -> str:
            nth, an = _nth(n)
            return ("Another " if n == 2 else f"{an.capitalize()} {nth} ") + rest

        return a_nth, "A", rest
    found = _PAGE_TAIL.match(text)
    assert found is not None  # the pattern matches any text
    body, stop, page = found.group(1), found.group(2), found.group(3) or ""

    def nth_time(n: int) -> str:
        nth, an = _nth(n)
        return f"{body} {'again' if n == 2 else f'{an} {nth} time'}{stop}{page}"

    return nth_time, f"{body} ", f"{stop}{page}"


def _nth(n: int) -> tuple[str, str]:
    """The ordinal of ``n`` in words and its article: ("third", "a"), ("eighth", "an")."""
    nth = ORDINALS[n] if n < len(ORDINALS) else f"{n}th"
    return nth, "an" if nth[0] in "e8" or nth[:2] in ("11", "18") else "a"


def repeated(text: str, before: str) -> str:
    """``text`` told apart from the line ``before`` it when they would read the same (a
    choice made twice in a row, two tokens placed in the same part of the table): the log
    never shows the same line twice in a row."""
    if before == text:
        return said_again(text, 2)
    if before[:8] != text[:8] and not (text.startswith("A ") and before.startswith("A")):
        return text  # nothing alike: the common case, decided at once
    again, starts, ends = _forms_again(text)
    if not (before.startswith(starts) and before.endswith(ends)):
        return text  # none of the forms of ``text`` said again
    for n in range(2, MAX_SAID):
        if before == again(n):
            return again(n + 1)
    return text


def log_lines(
    game: Game, events: Sequence[Event], cache: dict[int, LogLine] | None = None
) -> list[LogLine]:
    """Log lines for ``events``; ``cache`` (by sequence number) keeps lines already written,
    since events never change."""
    cache = {} if cache is None else cache
    tell = game.ruleset.table.event_text  # the ruleset's sentences (Ruleset.table)
    if tell is None:
        raise ValueError(f"{game.ruleset.title} declares no sentences for its events")
    if tell is table_event_text:  # the game's names worked out once for all these lines
        tell = partial(table_event_text, names=state_names(game.state))
    whole = game.log.events
    out: list[LogLine] = []
    for e in events:
        line = cache.get(e.seq)
        if line is None:
            at = e.seq if e.seq < len(whole) and whole[e.seq] is e else None
            text = tell(game, _with_faces(whole, e, at))
            before = out[-1] if out and out[-1].seq == e.seq - 1 else cache.get(e.seq - 1)
            if before is None and at is not None and at > 0:
                prev = whole[at - 1]
                before = LogLine(seq=prev.seq, kind=prev.kind, source=prev.source,
                                 page=prev.page, text=tell(game, _with_faces(whole, prev,
                                                                             at - 1)))
            if before is not None and before.kind == e.kind:
                text = repeated(text, before.text)
            line = LogLine(seq=e.seq, kind=e.kind, source=e.source, page=e.page,
                           text=text,
                           rule=rule_name(e.source),
                           dice=None if at is not None and restates_roll(whole, at)
                           else event_dice(whole, at) if at is not None
                           else event_dice([e], 0))  # a roll's dice on one line: its own
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
            ammo=m.ammo, arc=weapon_arc(m, w).value,
            special_rules=[catalogue_name(r) for r in w.special_rules],
        ))
    upgrades = []
    for u in v.fitted:
        try:
            uname = cat.upgrades.get(u.upgrade).name
        except KeyError:
            uname = catalogue_name(u.upgrade)
        upgrades.append(UpgradeView(key=u.key, id=u.upgrade, name=uname, facing=u.facing,
                                    ammo=u.ammo))
    st = game.state
    return VehicleView(
        id=v.id, name=v.name, player=v.player, type=v.type, weight=str(v.weight),
        x=_r(v.pose.x), y=_r(v.pose.y), heading=_r(v.pose.heading), length=v.length,
        width=v.width, gear=v.gear, max_gear=game.stat(v, "max_gear"), hazards=v.hazards,
        hull=v.hull, hull_points=v.hull_points, handling=game.stat(v, "handling"),
        crew=game.stat(v, "crew"), status=str(v.status),
        activated=st.gear_phase in v.activated_phases, weapons=weapons,
        special_rules=list(v.special_rules),
        colour=NEUTRAL_COLOUR if v.neutral else colour(v.player),  # no player's: beasts
        upgrades=upgrades, perks=[catalogue_name(p) for p in v.perks],
        rule_names=[catalogue_name(r) for r in v.special_rules], neutral=v.neutral,
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


def _brief(game: Game) -> ScenarioBriefView | None:
    """The scenario described by itself (None: it says nothing, a scenario made for a test)."""
    if not isinstance(game.scenario, TableScenario):
        return None
    brief = game.scenario.brief(game)
    return ScenarioBriefView.model_validate(brief.to_json()) if brief.told else None


def _scoreboard(game: Game, teams: dict[int, str]) -> ScoreboardView | None:
    """The scenario's scoreboard, each seat named by its team (else its colour); None: it
    keeps none."""
    if not isinstance(game.scenario, TableScenario):
        return None
    names = {p: teams.get(p) or seat_name(p) for p in range(game.state.players)}
    board = game.scenario.scoreboard(game)
    if board is None:
        return None
    return ScoreboardView.model_validate(board.to_json(names, teams, game.state.winner))


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
    ends: dict[str, dict[str, float]] = {}
    for o in d.options:
        tid, mirror, reverse = parse_template_value(str(o.value))
        try:
            path = path_for(v.rect(), tid, mirror=mirror, reverse=reverse, ts=game.templates)
        except (KeyError, ValueError):
            continue
        pieces = template_pieces(path, step_deg=OUTLINE_STEP_DEG)
        laid[str(o.value)] = [_poly(template_outline(pieces))]
        if tid not in catalogue_names():  # a team's own template: the page cannot lay it
            end = final_pose(v.rect(), tid, mirror=mirror, reverse=reverse, ts=game.templates)
            ends[str(o.value)] = {"x": round(end.x, 2), "y": round(end.y, 2),
                                  "heading": round(end.heading, 2)}
    out: dict[str, Any] = {"vehicle": v.id, "templates": laid}
    if ends:
        out["ends"] = ends  # where the vehicle ends on each, unobstructed
    stops = _template_stops(game, d, v)
    if stops:
        out["stops"] = stops
    return out


def _template_stops(game: Game, d: Decision, v: VehicleState) -> dict[str, dict[str, Any]]:
    """For each template on which the vehicle would hit something as the table stands now
    (another vehicle, an obstacle: p.45), where the move stops and what it touches, before any
    skid dice. A drawing help: the engine resolves the real move (ramps, slides and spins
    included) once the template is chosen. None for a vehicle towing a trailer (its moving
    body may be the trailer, p.119)."""
    from carnage.games.refuelled.engine.movement import obstructions_for
    from carnage.geometry.movement import resolve_move

    if v.trailer is not None:
        return {}
    obstacles = obstructions_for(game, v)
    out: dict[str, dict[str, Any]] = {}
    for o in d.options:
        tid, mirror, reverse = parse_template_value(str(o.value))
        try:
            res = resolve_move(v.rect(), tid, obstacles, mirror=mirror, reverse=reverse,
                               ts=game.templates)
        except (KeyError, ValueError):
            continue
        if res.interrupted:
            out[str(o.value)] = {"x": _r(res.pose.x), "y": _r(res.pose.y),
                                 "heading": _r(res.pose.heading), "touched": list(res.touched)}
    return out


REACH_MEMO = 128
"""Arc reaches remembered (per server process): a vehicle firing weapon after weapon, or
read again at the next version, is drawn from where it stands, which has not changed."""


@lru_cache(maxsize=64)
def _span(tpl: ShootingTemplate) -> float:
    """The template's longest extent (the widest two points of its outline)."""
    return max(math.dist(p, q) for p in tpl.polygon for q in tpl.polygon)


def _exactly(body: Rect) -> bytes:
    """``body``'s pose and size bit for bit: ``Rect`` compares 0.0 and -0.0 equal, which
    round and print apart."""
    p = body.pose
    return struct.pack("<5d", p.x, p.y, p.heading, body.length, body.width)


@lru_cache(maxsize=REACH_MEMO)
def _reach_polygons(exact: bytes, body: Rect, arc: Arc,
                    tpl: ShootingTemplate) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The reach of ``tpl`` in ``arc`` from ``body`` (``exact``: its bits, part of the key),
    rounded for the table; a pure function of its arguments, so remembered. Read-only: the
    caller copies it into the view."""
    pieces = arc_region(body, arc, tpl, steps=36)
    polys = [convex_hull([p for piece in pieces for p in piece])] if arc is Arc.TURRET \
        else pieces
    return tuple(tuple((_r(x), _r(y)) for x, y in poly) for poly in polys)


def _reach(v: VehicleState, arc: Arc, bands: Sequence[str], game: Game) -> list[list[list[float]]]:
    """The arc's reach at the weapon's longest range band, as polygons (fresh lists: the
    remembered reach is never handed out)."""
    best = None
    for b in bands:
        try:
            tpl = shooting_template(b, game.templates)
        except (KeyError, ValueError):
            continue
        span = _span(tpl)
        if best is None or span > best[0]:
            best = (span, tpl)
    if best is None:
        return []
    body = v.rect()
    return [[[x, y] for x, y in poly]
            for poly in _reach_polygons(_exactly(body), body, arc, best[1])]


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


DROP_KINDS = ("drop_edge", "drop_offset", "drop_angle")
"""Where a dropped weapon's burst goes (``hazards_on_table.choose_burst_pose``): which edge,
how far along it, how far turned."""


def _chosen_edge(game: Game, vehicle: str) -> str | None:
    """The edge the vehicle's player chose last for a dropped burst (the ``drop_edge``
    decision just before a ``drop_offset`` or ``drop_angle``)."""
    for e in reversed(game.log.events[-60:]):
        if e.kind in ("decision", "forced_choice") and e.data.get("decision") == "drop_edge":
            return str(e.data.get("choice"))
    return None


def _drop_preview(game: Game, d: Decision, v: VehicleState) -> dict[str, Any]:
    """Each edge a burst may be dropped off, as a segment from offset -half to +half (the
    ``drop_offset`` domain runs the same way), by edge name; ``edge``: the one chosen."""
    from carnage.games.refuelled.engine.hazards_on_table import edge_half, edge_point
    from carnage.games.refuelled.rules.dropped import mount_body

    mount = next((m for m in v.weapons if m.key == d.weapon), None)
    body = v.rect() if mount is None else mount_body(v, mount)
    chosen = None if d.kind == "drop_edge" else _chosen_edge(game, v.id)
    names = [str(o.value) for o in d.options] if d.kind == "drop_edge" else \
        [] if chosen is None else [chosen]
    edges: dict[str, list[list[float]]] = {}
    for name in names:
        try:
            half = edge_half(body, name)
            a, b = edge_point(body, name, -half), edge_point(body, name, half)
        except KeyError:
            continue
        edges[name] = [[_r(a.x), _r(a.y)], [_r(b.x), _r(b.y)]]
    out: dict[str, Any] = {"vehicle": v.id, "edges": edges}
    if chosen is not None:
        out["edge"] = chosen
    return out


def preview(game: Game, d: Decision, v: VehicleState | None) -> dict[str, Any] | None:
    if v is None:
        return None
    # the compiled rules take the game itself, not a wrapper entering dice at the table (whose
    # pending decision, when it is not an entry, is the wrapped game's)
    game = read_game(game)
    if d.kind == "template":
        return _template_preview(game, d, v)
    if d.kind == "attack":
        return _attack_preview(game, d, v)
    if d.kind == "grid":
        return _grid_preview(game, d, v)
    if d.kind in DROP_KINDS:
        return _drop_preview(game, d, v)
    if d.kind in ("spin", "lose_control") and d.domain is not None:
        return {"vehicle": v.id, "centre": [_r(v.pose.x), _r(v.pose.y)],
                "heading": _r(v.pose.heading), "low": d.domain.low, "high": d.domain.high}
    if d.options:
        # Any decision placing its vehicle (a spawn point, where it comes back, an edge of the
        # table): the pose each option puts it in, for the table to draw as places to tap.
        placed = _grid_preview(game, d, v)
        if placed["poses"]:
            return placed
    return {"vehicle": v.id}


_NO_DICE = DiceView(kind="skid", dice=[])
USE_MARK = re.compile(r"\s*\[[TPH-]\]\s*$")
"""The template use letter the engine appends to a template option's label."""
TEAM_ICONS = re.compile(r"\((?:H+T*|T{2,})\)\s*\[[TPH-]\]\s*$")
"""Icon counts a seat's own template shows in its label (e.g. ``Turn (TT) [T]``)."""


def option_label(d: Decision, o: Option, known: dict[str, str], faces: Sequence[str]) -> str:
    """An option's label in plain words; built from its value for the kinds whose values the
    web layer knows (templates keep the engine's use letter for the table's legend)."""
    if d.kind == "template":
        tid, *flags = str(o.value).split("/")
        if "alt" in flags or TEAM_ICONS.search(o.label) or tid not in catalogue_names():
            return o.label  # a seat's own template: the engine's label names it and its icons
        mark = USE_MARK.search(o.label)
        text = choice_text(d.kind, o.value, known)
        return text + (mark.group(0) if mark else "")
    if d.kind in ("push_it", "spend_shift", "skid_dice", "grid"):
        text = choice_text(d.kind, o.value, known, faces)
    elif d.kind in ("activate", "deploy") and str(o.value) in known:
        text = known[str(o.value)]
    else:
        text = plain(o.label or str(o.value), known)
    return text[:1].upper() + text[1:]


def illegal_choice_text(game: Game, d: Decision, choice: Any, reason: str) -> str:
    """The sentence for a refused choice, naming what was asked (the rule) and what may be
    chosen in the words the table shows (never the option values)."""
    known = names(game.state)
    what = f"{rule_name(d.source)}{'' if d.page is None else f' (p.{d.page})'}"
    if d.domain is not None:
        unit = "°" if d.domain.unit == "deg" else f" {d.domain.unit}"
        return (f"{what}: the answer must be a number from {d.domain.low:g}{unit} to "
                f"{d.domain.high:g}{unit}, not {choice!r}")
    if not reason.split(":", 1)[-1].strip().startswith(repr(choice)):
        return f"{what}: {plain(reason.split(':', 1)[-1].strip(), known)}"
    faces = [x.face for x in (current_skid(game.log.events, d.vehicle) or _NO_DICE).dice] \
        if d.vehicle else []
    labels = [option_label(d, o, known, faces) for o in d.options]
    return f"{what}: {choice!r} is not a legal choice (choose {'; '.join(labels)})"


def attack_targets(game: Game, shooter: VehicleState,
                   options: Sequence[OptionView]) -> list[OptionView]:
    """An attack's options with each target marked ``friendly`` or not: a seat may shoot its
    own vehicles (Refuelled p.30), but the table lists the enemies first and says "your own"
    of the others (the order otherwise kept)."""
    out: list[OptionView] = []
    for o in options:
        _, sep, target = str(o.value).partition(">")
        other = game.state.vehicles.get(target.lstrip("@")) if sep else None
        if other is None:
            out.append(o)
            continue
        friendly = other.player == shooter.player
        label = o.label
        if friendly:
            label = re.sub(r"\bat (the )?", "at your own ", label, count=1)
            if "your own" not in label:
                label = f"{label} (your own vehicle)"
        out.append(OptionView(value=o.value, label=label, friendly=friendly))
    return sorted(out, key=lambda o: o.friendly is True)


def pending_view(game: Game, d: Decision, with_preview: bool = True) -> PendingView:
    v = decision_vehicle(game, d)
    known = names(game.state)
    dice = current_skid(game.log.events, v.id) if (
        v is not None and d.kind in ("push_it", "spend_shift")) else None
    faces = [x.face for x in dice.dice] if dice is not None else []
    options = None if d.domain is not None else [
        OptionView(value=o.value, label=option_label(d, o, known, faces)) for o in d.options]
    if options is not None and d.kind == "attack" and v is not None:
        options = attack_targets(game, v, options)
    # a dice entry (kernel/table_dice.py) words its prompt without the names: the set-up's
    # roll-off names the roller as "Player N"
    prompt = plain(d.prompt, known) if d.kind == "table_dice" else d.prompt
    return PendingView(
        seat=d.player, kind=d.kind, prompt=prompt, source=d.source,
        page=d.page, rule=rule_name(d.source), dice=dice,
        options=options,
        domain=None if d.domain is None
        else DomainView(low=d.domain.low, high=d.domain.high, unit=d.domain.unit),
        vehicle=None if v is None else v.id, target=d.target, weapon=d.weapon,
        preview=preview(game, d, v) if with_preview else None,
    )


# -- the whole view ----------------------------------------------------------------------------
SeatControl = TableSeat
"""A seat as the view shows it: who plays it, the team it brought (``kernel/table.py``)."""


def game_view(
    game: Game,
    gid: str,
    seats: Sequence[SeatControl],
    your_seat: int | None = None,
    *,
    events: Sequence[Event] | None = None,
    with_preview: bool = True,
    log_cache: dict[int, LogLine] | None = None,
    viewers: Sequence[int] = (),
) -> GameView:
    """The view of ``game`` for the seats ``viewers`` (none: a spectator): other seats'
    secrets redacted (web/redact.py); ``events`` replaces the default log (the last
    ``LOG_LINES``). ``log_cache`` must be kept per viewer."""
    st = game.state
    d = game.pending()
    shown = list(game.log.events[-LOG_LINES:]) if events is None else list(events)
    shown = redact_all(shown, viewers)  # other seats' secrets redacted
    controllers = {s.seat: cast(Controller, s.controller) for s in seats}
    teams = {s.seat: s.team for s in seats}
    return GameView(
        id=gid,
        version=len(game.choices),
        scenario=game.scenario.id,
        ruleset=game.ruleset.name,
        board_view=game.ruleset.table.board_view,
        hull_track=bool(game.ruleset.view.get("hull", True)),
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
                       votes=st.votes[p] if p < len(st.votes) else 0, colour=colour(p),
                       name=seat_name(p), team=teams.get(p, ""))
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
        brief=_brief(game),
        scoreboard=_scoreboard(game, teams),
        dropped=[
            DroppedView(id=t.id, kind=t.kind, shape=t.template,
                        polygon=[(_r(x), _r(y)) for x, y in t.polygon])
            for t in st.dropped.values()
        ],
        pending=None if d is None else pending_view(game, d, with_preview),
        log=log_lines(game, shown, log_cache),
        svg_url=f"/api/games/{gid}/svg",
        secrets=secret_views(game, viewers),
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
            VehicleShape(v.id, v.pose, v.length, v.width,
                         NEUTRAL_COLOUR if v.neutral else colour(v.player), v.name)
            for v in st.vehicles.values() if v.in_play
        ],
        templates=[TemplateShape((t.polygon,), "dropped", t.id) for t in st.dropped.values()]
        + drawable_shapes(game.scenario.drawables(game)),
        title=title,
    )
    return render_svg(view, scale=0.6, margin=10.0)


# -- what the web table reaches through the ruleset (Ruleset.table) ----------------------------
class RefuelledTabletop:
    """The tabletop of a game on the Refuelled engine, as ``kernel/table.py`` ``Tabletop``."""

    def view(self, game: Game, ctx: TableContext) -> GameView:
        replaying = ctx.events is not None or ctx.replay is not None
        v = game_view(game, ctx.gid, ctx.seats, None if replaying else ctx.your_seat,
                      events=ctx.events, with_preview=ctx.with_preview,
                      log_cache=None if replaying else ctx.log_cache, viewers=ctx.viewers)
        if replaying:
            return v  # a replay shows the game only
        return v.model_copy(update={
            "bot_notes": list(ctx.bot_notes),  # the search bots' reasons
            "seed_chosen": ctx.seed_chosen,
            # the dice seed is revealed once the game is over
            "seed": ctx.seed if game.state.finished else None,
        })

    def log_lines(self, game: Game, events: Sequence[Event],
                  cache: dict[int, Any]) -> list[LogLine]:
        return log_lines(game, events, cache)

    def accept(self, d: Decision, choice: Any) -> Any:
        return lenient_choice(d, choice)

    def refused(self, game: Game, d: Decision, choice: Any, reason: str) -> str:
        return illegal_choice_text(game, d, choice, reason)

    def seat_label(self, seat: int) -> str:
        return seat_name(seat)

    def board_svg(self, game: Game, title: str) -> str:
        return table_svg(game, title)

    # what the terminal shows in the table's words too (``carnage play``)
    def pending(self, game: Game, d: Decision) -> PendingView:
        """The pending decision in the table's words, without drawing help."""
        return pending_view(game, d, with_preview=False)

    def plain(self, game: Game, text: str) -> str:
        """An engine's text (a reason, a refusal) in the table's words."""
        return plain(text, names(game.state))


REFUELLED_TABLETOP = RefuelledTabletop()
"""Refuelled's tabletop (the Kart variant's and Legacy's too: they play on its engine)."""


def first_scenario(ruleset: Ruleset) -> str:
    """The scenario a new game plays when none is named: the book's first game (Street Race,
    p.62) where the ruleset has it, else the ruleset's first."""
    return "street-race" if "street-race" in ruleset.scenarios else next(iter(ruleset.scenarios))


def new_table_setup(ruleset: RefuelledRuleset, req: TableRequest) -> GameSetup:
    """The set-up of a new table game of ``ruleset``: the scenario asked (``random:<table>``
    rolled with the game's seed, p.122), each seat's saved team or the scenario's own, the
    sides of a team game (p.123). ``SetupRefused`` (a ``ValueError``) naming what is wrong."""
    asked = req.scenario or first_scenario(ruleset)
    scenario = ruleset.scenario_class(rolled_scenario(asked, req.seed, ruleset))()
    n = len(req.team_ids)
    low, high = ruleset.table.seats
    if not low <= n <= high:
        raise SetupError(f"a game needs {low} to {high} seats, not {n}")
    defaults = scenario.default_teams(n)
    teams: list[TeamSpec] = []
    for i, team_id in enumerate(req.team_ids):
        if team_id is None:
            if i >= len(defaults):
                raise SetupError(f"seat {i}: the scenario has no team of its own; choose a "
                                 "saved team")
            teams.append(defaults[i])
        else:
            teams.append(req.saved_team(i, team_id))
    return GameSetup(scenario=asked if asked.startswith("random:") else scenario.id,
                     teams=tuple(teams), players=n, sides=check_sides(req.sides, n),
                     ruleset=ruleset.name)


def table_setup(ruleset: Callable[[], RefuelledRuleset]) -> TableSetup:
    """How the web table sets up, stores and rebuilds games of the ruleset ``ruleset()``
    returns (a ruleset on the Refuelled engine)."""
    return TableSetup(
        new=lambda req: new_table_setup(ruleset(), req),
        from_json=GameSetup.from_json,
        to_json=lambda setup: dict(setup.to_json()),
        build=lambda setup, seed: build_game(setup, seed, ruleset=ruleset()),
        build_unstarted=lambda setup, seed, dice: build_game(setup, seed, dice,
                                                             ruleset=ruleset(), start=False),
    )
