"""A team's own movement templates as data: any game may give a seat a changed set of
movement templates; this module is what such a set is, how a team file writes it, and the
geometry it lays. The rules that change a set (improvements, combining, gaining a template)
are each game's own, in its package.

In our words: every template carries, for each gear 1..6, whether it is permitted there and
how many Hazard and Shift icons that gear shows, and may carry slide exit points beyond its
own on its edges ("New Slide Exit Points", Gaslands: Legacy). A combined template is two
templates joined for good (the upper laid on the lower's dotted line, the rest of the lower
cut off), keeping both sets of gear icons and every slide exit point; the Doughnut is a
template of our own design (geometry/team_templates_data.py).

``TeamTemplateSet`` is plain data: it is what a team file's ``templates`` holds
(``to_json`` / ``parse_template_set``), and ``movement_specs`` turns it into the geometry the
engine lays on the table. The engine reads a seat's set from the game state
(games/refuelled/engine/team_templates.py); ranges and every other measurement keep the
standard templates.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Literal

from carnage.geometry.compose import joined_segments, run_length
from carnage.geometry.team_templates_data import (
    DEFAULT_DOTTED_SHARE,
    DOTTED_SHARE,
    DOUGHNUT,
    DOUGHNUT_ID,
)
from carnage.geometry.templateset import MovementSpec, Segment, TemplateSet, default_template_set

GEARS = 6
"""Templates show gears 1..6 (ruling GL-R54: no icons above gear 6)."""

Edge = Literal["left", "right", "end"]
EDGES: tuple[Edge, ...] = ("left", "right", "end")


class TemplateError(ValueError):
    """A template set, or a change to one, is not allowed; the message says what is wrong."""


# -- the data ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class GearIcons:
    """A permitted gear's icons: Hazard icons (each gives a Hazard token when the template is
    selected, Refuelled p.38) and Shift icons (each a bonus Shift result, p.40)."""

    hazards: int = 0
    shifts: int = 0

    @property
    def code(self) -> str:
        """``P`` (no icons), else one ``H`` per Hazard icon then one ``T`` per Shift icon."""
        return ("H" * self.hazards + "T" * self.shifts) or "P"

    @property
    def letter(self) -> str:
        """The core table's single letter for these icons (Refuelled p.18): H, T or P."""
        return "H" if self.hazards else ("T" if self.shifts else "P")


Gears = tuple[GearIcons | None, ...]
"""Icons of gears 1..6; None: not permitted in that gear."""


def gear_code(g: GearIcons | None) -> str:
    return "-" if g is None else g.code


def parse_gear_code(code: Any, where: str) -> GearIcons | None:
    if not isinstance(code, str) or not code:
        raise TemplateError(f"{where}: expected a gear code (-, P, or H/T icons), got {code!r}")
    c = code.strip().upper()
    if c == "-":
        return None
    if c == "P":
        return GearIcons()
    if set(c) - {"H", "T"}:
        raise TemplateError(
            f"{where}: {code!r} is not a gear code: use - (not permitted), P (permitted, no "
            "icons), or one H per Hazard icon and one T per Shift icon (e.g. T, TT, HT)")
    return GearIcons(c.count("H"), c.count("T"))


@dataclass(frozen=True)
class ExitPoint:
    """A slide exit point drawn on a template as it lies right way up: on its ``left`` or
    ``right`` long edge ``at`` mm along the centreline from the starting edge, or in the
    middle of its far short edge (``end``; ``at`` unused)."""

    edge: Edge
    at: float = 0.0

    @property
    def label(self) -> str:
        if self.edge == "end":
            return "on the far short edge"
        return f"on the {self.edge} edge {self.at:g} mm along"

    def flipped(self) -> ExitPoint:
        if self.edge == "end":
            return self
        return ExitPoint("left" if self.edge == "right" else "right", self.at)

    def shifted(self, by: float) -> ExitPoint:
        return self if self.edge == "end" else ExitPoint(self.edge, round(self.at + by, 3))


@dataclass(frozen=True)
class Combination:
    """How a combined template was made: ``upper`` laid on ``lower``'s dotted line (turned
    over if ``upper_mirrored``), the rest of ``lower`` cut off (Gaslands: Legacy, GL-091)."""

    lower: TeamTemplate
    upper: TeamTemplate
    upper_mirrored: bool = False


@dataclass(frozen=True)
class TeamTemplate:
    id: str
    name: str
    gears: Gears
    """The template's gear icons (a combined template: the lower template's)."""
    exits: tuple[ExitPoint, ...] = ()
    """Slide exit points beyond the template's own one (improvements; a combined template's
    surviving ones)."""
    base: str | None = None
    """The standard template (or ``doughnut``) this one is; None for a combined template."""
    combined: Combination | None = None
    alt_gears: Gears | None = None
    """A combined template's second set of gear icons (the upper template's, GL-092)."""

    @property
    def icon_sets(self) -> tuple[Gears, ...]:
        return (self.gears,) if self.alt_gears is None else (self.gears, self.alt_gears)

    def icons(self, gear: int, icon_set: int = 0) -> GearIcons | None:
        if not 1 <= gear <= GEARS:
            return None
        sets = self.icon_sets
        if not 0 <= icon_set < len(sets):
            return None
        return sets[icon_set][gear - 1]

    def permitted(self, gear: int) -> bool:
        return any(self.icons(gear, k) is not None for k in range(len(self.icon_sets)))

    def with_gears(self, icon_set: int, gears: Gears) -> TeamTemplate:
        if icon_set == 0:
            return replace(self, gears=gears)
        return replace(self, alt_gears=gears)


@dataclass(frozen=True)
class TeamTemplateSet:
    """A team's movement templates, in the order the team lists them."""

    templates: tuple[TeamTemplate, ...] = field(default_factory=tuple)

    def get(self, tid: str) -> TeamTemplate | None:
        for t in self.templates:
            if t.id == tid:
                return t
        return None

    def require(self, tid: str) -> TeamTemplate:
        t = self.get(tid)
        if t is None:
            known = ", ".join(t.id for t in self.templates)
            raise TemplateError(f"the team has no template {tid!r} (it has: {known})")
        return t

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.templates)

    def replaced(self, new: TeamTemplate) -> TeamTemplateSet:
        return TeamTemplateSet(tuple(new if t.id == new.id else t for t in self.templates))

    def to_json(self) -> dict[str, Any]:
        return {"templates": [_template_json(t) for t in self.templates]}


def _template_json(t: TeamTemplate) -> dict[str, Any]:
    out: dict[str, Any] = {"id": t.id, "name": t.name}
    if t.base is not None:
        out["base"] = t.base
    out["gears"] = [gear_code(g) for g in t.gears]
    if t.alt_gears is not None:
        out["alt_gears"] = [gear_code(g) for g in t.alt_gears]
    if t.exits:
        out["exits"] = [{"edge": e.edge} if e.edge == "end" else {"edge": e.edge, "at": e.at}
                        for e in t.exits]
    if t.combined is not None:
        out["combine"] = {"lower": _template_json(t.combined.lower),
                          "upper": _template_json(t.combined.upper),
                          "upper_mirrored": t.combined.upper_mirrored}
    return out


# -- the standard set -------------------------------------------------------------------------
@cache
def standard_set() -> TeamTemplateSet:
    """The standard templates as a team set: icons from the core table (Refuelled p.18 as the
    FAQ replaced it): T is one Shift icon, H one Hazard icon, P a plain permitted gear
    (inventory GL-110)."""
    from carnage.catalog import load_catalog

    out = []
    for rec in load_catalog().templates:
        gears = tuple(parse_gear_code(u.value, rec.id) for u in rec.gears)
        out.append(TeamTemplate(rec.id, str(rec.name), gears, base=rec.id))
    return TeamTemplateSet(tuple(out))


def doughnut_template() -> TeamTemplate:
    """Our Doughnut (team_templates_data.DOUGHNUT), with no changes yet."""
    gears = tuple(parse_gear_code(c, "doughnut") for c in DOUGHNUT["gears"])
    return TeamTemplate(DOUGHNUT_ID, str(DOUGHNUT["name"]), gears, base=DOUGHNUT_ID)


# -- geometry ---------------------------------------------------------------------------------
def _doughnut_spec(ts: TemplateSet) -> MovementSpec:
    segs = tuple(Segment(angle=float(s["arc"]), radius=float(s["radius"]) * ts.scale)
                 for s in DOUGHNUT["segments"])
    length = run_length(segs)
    return MovementSpec(DOUGHNUT_ID, segs, float(DOUGHNUT["slide_exit"]) * length,
                        str(DOUGHNUT["slide_side"]))


def segments_of(t: TeamTemplate, ts: TemplateSet | None = None) -> tuple[Segment, ...]:
    """The template's centreline in ``ts`` (default: the provisional set)."""
    ts = ts or default_template_set()
    if t.combined is not None:
        c = t.combined
        return joined_segments(segments_of(c.lower, ts), dotted_line(c.lower, ts),
                               segments_of(c.upper, ts), upper_mirrored=c.upper_mirrored)
    if t.base == DOUGHNUT_ID:
        return _doughnut_spec(ts).segments
    spec = ts.movement.get(t.base or t.id)
    if spec is None:
        raise TemplateError(f"template {t.id!r}: {t.base!r} is not a movement template of "
                            f"the set {ts.name!r}")
    return spec.segments


def template_length(t: TeamTemplate, ts: TemplateSet | None = None) -> float:
    return run_length(segments_of(t, ts))


def dotted_line(t: TeamTemplate, ts: TemplateSet | None = None) -> float:
    """How far along the centreline the template's dotted line crosses it (our anchor data,
    ruling GL-R60). A combined template's is its upper template's, further along."""
    ts = ts or default_template_set()
    if t.combined is not None:
        c = t.combined
        return dotted_line(c.lower, ts) + dotted_line(c.upper, ts)
    share = DOTTED_SHARE.get(t.base or t.id, DEFAULT_DOTTED_SHARE)
    return share * template_length(t, ts)


def main_exit(t: TeamTemplate, ts: TemplateSet | None = None) -> ExitPoint:
    """The template's own slide exit point (the one it was printed with; a combined
    template: its upper template's)."""
    ts = ts or default_template_set()
    if t.combined is not None:
        c = t.combined
        up = main_exit(c.upper, ts)
        up = up.flipped() if c.upper_mirrored else up
        return up.shifted(dotted_line(c.lower, ts))
    spec = _doughnut_spec(ts) if t.base == DOUGHNUT_ID else ts.movement[t.base or t.id]
    if spec.slide_side == "end":
        return ExitPoint("end")
    side: Edge = "left" if spec.slide_side == "left" else "right"
    return ExitPoint(side, spec.slide_exit / ts.scale)


def exit_variant_id(tid: str, e: ExitPoint) -> str:
    """The id of ``tid`` laid to slide from exit point ``e`` (content-addressed: the same
    id is the same geometry in every team)."""
    return f"{tid}@end" if e.edge == "end" else f"{tid}@{e.edge}{e.at:g}"


@cache
def symmetric(t: TeamTemplate) -> bool:
    """Whether turning the template over changes nothing: a plain straight run with no
    exit point on a long edge (so it is offered one way up, like the core straights)."""
    if t.combined is not None or t.base == DOUGHNUT_ID:
        return False
    segs = segments_of(t)
    return all(s.radius is None for s in segs) and all(e.edge == "end" for e in t.exits)


def movement_specs(tset: TeamTemplateSet, ts: TemplateSet | None = None
                   ) -> dict[str, MovementSpec]:
    """Every movement template the set lays, in ``ts``'s scale: each template under its id
    (sliding from its own exit point) and once per extra exit point
    (``exit_variant_id``)."""
    ts = ts or default_template_set()
    out: dict[str, MovementSpec] = {}
    for t in tset.templates:
        segs = segments_of(t, ts)
        length = run_length(segs)
        for i, e in enumerate((main_exit(t, ts), *t.exits)):
            sid = t.id if i == 0 else exit_variant_id(t.id, e)
            if e.edge == "end":
                out[sid] = MovementSpec(sid, segs, length, "end")
            else:
                out[sid] = MovementSpec(sid, segs, min(e.at * ts.scale, length), e.edge)
    return out


_MERGED: dict[tuple[int, tuple[str, ...]], tuple[TemplateSet, TemplateSet]] = {}


def merged_template_set(ts: TemplateSet, docs: Iterable[Mapping[str, Any]]) -> TemplateSet:
    """``ts`` with every movement template of the team sets ``docs`` (``to_json`` form) added
    under their ids: ranges, bursts, the Slide template and the standard movement templates
    stay exactly ``ts``'s (GL-023). One object per (``ts``, sets), so move plans cache."""
    keys = tuple(sorted({json.dumps(d, sort_keys=True) for d in docs}))
    for base, merged in list(_MERGED.values()):
        if merged is ts:  # already merged (a copy of a game): merge onto its base again
            ts = base
            break
    if not keys:
        return ts
    hit = _MERGED.get((id(ts), keys))
    if hit is not None and hit[0] is ts:
        return hit[1]
    movement = dict(ts.movement)
    for k in keys:
        for sid, spec in movement_specs(parse_template_set(json.loads(k)), ts).items():
            movement.setdefault(sid, spec)
    merged = replace(ts, movement=movement)
    if len(_MERGED) > 256:
        _MERGED.clear()
    _MERGED[(id(ts), keys)] = (ts, merged)
    return merged


# -- reading and checking a set ---------------------------------------------------------------
def parse_template_set(raw: Any, where: str = "templates") -> TeamTemplateSet:
    """A set from a team file's ``templates`` (a mapping with a ``templates`` list, or the
    list itself); ``TemplateError`` naming the first thing wrong."""
    if isinstance(raw, TeamTemplateSet):
        return raw
    if isinstance(raw, Mapping):
        extra = set(raw) - {"templates"}
        if extra:
            raise TemplateError(f"{where}: unknown key {sorted(extra)[0]!r} (expected "
                                "'templates', a list of templates)")
        if "templates" not in raw:
            raise TemplateError(f"{where}: missing 'templates' (a list of templates)")
        items = raw["templates"]
        where = f"{where}.templates"
    else:
        items = raw
    if not isinstance(items, list | tuple):
        raise TemplateError(f"{where}: expected a list of templates, got {type(items).__name__}")
    if not items:
        raise TemplateError(f"{where}: a team needs at least one movement template")
    out: list[TeamTemplate] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        t = _parse_template(item, f"{where}[{i}]")
        if t.id in seen:
            raise TemplateError(f"{where}[{i}]: template {t.id!r} is listed twice")
        seen.add(t.id)
        out.append(t)
    return TeamTemplateSet(tuple(out))


_KEYS = {"id", "name", "base", "gears", "alt_gears", "exits", "combine"}


def _parse_gears(raw: Any, where: str) -> Gears:
    if not isinstance(raw, list | tuple) or len(raw) != GEARS:
        raise TemplateError(f"{where}: expected a list of {GEARS} gear codes (gears 1..6)")
    return tuple(parse_gear_code(c, f"{where}[{g}] (gear {g + 1})") for g, c in enumerate(raw))


def _parse_exit(raw: Any, where: str, length: float) -> ExitPoint:
    if not isinstance(raw, Mapping) or set(raw) - {"edge", "at"}:
        raise TemplateError(f"{where}: expected a mapping with edge (left, right or end) "
                            "and at (mm along the centreline)")
    edge = raw.get("edge")
    if edge == "start":
        raise TemplateError(f"{where}: no slide exit point on the starting short edge: the "
                            "template could never be placed (Legacy, New Slide Exit Points)")
    if edge not in EDGES:
        raise TemplateError(f"{where}: edge must be left, right or end, not {edge!r}")
    if edge == "end":
        return ExitPoint("end")
    at = raw.get("at")
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
        raise TemplateError(f"{where}: at must be a distance in mm along the centreline")
    return checked_exit(ExitPoint(edge, float(at)), where, length)


def checked_exit(e: ExitPoint, where: str, length: float) -> ExitPoint:
    """``e`` if it lies on a template ``length`` mm long (a long edge: past the starting
    edge and on the template), else ``TemplateError`` naming ``where``."""
    if e.edge != "end" and not 0.0 < e.at <= length + 1e-6:
        raise TemplateError(f"{where}: an exit point on a long edge must lie past the "
                            f"starting edge and on the template (0 < at <= {length:g} mm), "
                            f"not at {e.at:g}")
    return e


def _parse_template(raw: Any, where: str) -> TeamTemplate:
    if not isinstance(raw, Mapping):
        raise TemplateError(f"{where}: expected a mapping (id, gears, ...)")
    extra = set(raw) - _KEYS
    if extra:
        raise TemplateError(f"{where}: unknown key {sorted(extra)[0]!r}")
    tid = raw.get("id")
    if not isinstance(tid, str) or not tid or "/" in tid:
        raise TemplateError(f"{where}: id must be a non-empty name without '/'")
    combined: Combination | None = None
    base: str | None
    if "combine" in raw:
        c = raw["combine"]
        if not isinstance(c, Mapping) or set(c) - {"lower", "upper", "upper_mirrored"} \
                or "lower" not in c or "upper" not in c:
            raise TemplateError(f"{where}.combine: expected lower, upper and upper_mirrored")
        mirrored = c.get("upper_mirrored", False)
        if not isinstance(mirrored, bool):
            raise TemplateError(f"{where}.combine.upper_mirrored: expected true or false")
        combined = Combination(_parse_template(c["lower"], f"{where}.combine.lower"),
                               _parse_template(c["upper"], f"{where}.combine.upper"), mirrored)
        want = combined_id(combined.lower, combined.upper, mirrored)
        if tid != want:
            raise TemplateError(f"{where}: a combined template's id is {want!r}, not {tid!r}")
        base = None
        if "base" in raw:
            raise TemplateError(f"{where}: a combined template has no base")
    else:
        b = raw.get("base", tid)
        if b != tid:
            raise TemplateError(f"{where}: template {tid!r} must keep its own id as base "
                                f"(got {b!r})")
        known = {*default_template_set().movement, DOUGHNUT_ID}
        if tid not in known:
            raise TemplateError(f"{where}: unknown template {tid!r} (known: "
                                f"{', '.join(sorted(known))}, or a combined template)")
        base = tid
    if "gears" not in raw:
        raise TemplateError(f"{where}: missing gears (a list of {GEARS} gear codes)")
    gears = _parse_gears(raw["gears"], f"{where}.gears")
    alt = None
    if raw.get("alt_gears") is not None:
        if combined is None:
            raise TemplateError(f"{where}: only a combined template has alt_gears")
        alt = _parse_gears(raw["alt_gears"], f"{where}.alt_gears")
    name = raw.get("name")
    probe = TeamTemplate(tid, "", gears, base=base, combined=combined)
    if name is None:
        name = default_name(probe)
    if not isinstance(name, str) or not name.strip():
        raise TemplateError(f"{where}: name must be a non-empty string")
    length = template_length(probe)
    ex = raw.get("exits") or []
    if not isinstance(ex, list | tuple):
        raise TemplateError(f"{where}.exits: expected a list of exit points")
    exits = tuple(_parse_exit(e, f"{where}.exits[{i}]", length) for i, e in enumerate(ex))
    return TeamTemplate(tid, name.strip(), gears, exits, base, combined, alt)


def default_name(t: TeamTemplate) -> str:
    """The name a template has unless its team named it: a combined template's names its
    two templates, any other the standard template's (or the Doughnut's)."""
    if t.combined is not None:
        c = t.combined
        return f"{c.lower.name} + {c.upper.name}{' (turned over)' if c.upper_mirrored else ''}"
    if t.base == DOUGHNUT_ID:
        return str(DOUGHNUT["name"])
    std = standard_set().get(t.id)
    return std.name if std is not None else t.id


# -- combined templates ------------------------------------------------------------------------
def combined_id(lower: TeamTemplate, upper: TeamTemplate, upper_mirrored: bool) -> str:
    """A combined template's id: it names how it was built, so the same id is the same
    geometry in every team."""
    def part(t: TeamTemplate) -> str:
        return f"({t.id})" if t.combined is not None else t.id

    return f"{part(lower)}+{part(upper)}{'~' if upper_mirrored else ''}"

def icon_sets_text(t: TeamTemplate) -> list[str]:
    """Each icon set as ``1:T 2:P 3:H`` (permitted gears only), for print-outs."""
    return [" ".join(f"{i}:{g.code}" for i, g in enumerate(gs, start=1) if g is not None)
            or "never permitted" for gs in t.icon_sets]


def describe(tset: TeamTemplateSet) -> list[dict[str, Any]]:
    """Rows for a print-out of the set: name, gears per icon set, slide exit points."""
    rows = []
    for t in tset.templates:
        rows.append({"id": t.id, "name": t.name, "icons": icon_sets_text(t),
                     "exits": [main_exit(t).label] + [e.label for e in t.exits],
                     "length": round(template_length(t), 1)})
    return rows


def changed(tset: TeamTemplateSet) -> bool:
    """Whether the set differs from the standard one."""
    return tset != standard_set()
