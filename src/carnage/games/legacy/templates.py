"""Gaslands: Legacy's rules for a team's own movement templates ("Legacy Templates", "Junkyard
Cybernetics", "New Slide Exit Points", "Unpredictable Performance"; inventory GL-019, GL-023,
GL-039..GL-043, GL-069, GL-090..GL-094, GL-110, GL-111).

What a team's set is (icons per gear, slide exit points, combined templates, the Doughnut's
shape), how a team file writes it and the geometry it lays are any game's:
carnage/geometry/team_templates.py, re-exported here. What is Legacy's is how a set changes
for good, each change a pure function returning a new set: improvements cross out a Hazard
icon, add a Shift icon, shade a new permitted gear or draw a new slide exit point on an edge;
two templates chosen with dice can be joined into one; a team gains the Doughnut.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from carnage.geometry.team_templates import (
    EDGES,
    GEARS,
    Combination,
    Edge,
    ExitPoint,
    GearIcons,
    Gears,
    TeamTemplate,
    TeamTemplateSet,
    TemplateError,
    changed,
    checked_exit,
    combined_id,
    default_name,
    describe,
    dotted_line,
    doughnut_template,
    exit_variant_id,
    gear_code,
    icon_sets_text,
    main_exit,
    merged_template_set,
    movement_specs,
    parse_gear_code,
    parse_template_set,
    segments_of,
    standard_set,
    symmetric,
    template_length,
)
from carnage.geometry.team_templates_data import DOUGHNUT_ID

__all__ = [
    "ADD_EXIT", "ADD_GEAR", "ADD_SHIFT", "CROSS_OUT_HAZARD", "EDGES", "EXIT_SHARES", "GEARS",
    "IMPROVEMENT_TABLE", "Combination", "Edge", "ExitPoint", "GearIcons", "Gears",
    "Improvement", "TeamTemplate", "TeamTemplateSet", "TemplateError", "add_exit", "add_gear",
    "add_shift", "apply_improvement", "changed", "combine", "combine_candidates",
    "combined_id", "cross_out_hazard", "describe", "dotted_line", "doughnut_template",
    "exit_variant_id", "fits_die", "gear_code", "icon_sets_text", "improvement_kind",
    "improvement_options", "main_exit", "merged_template_set", "movement_specs",
    "parse_gear_code", "parse_template_set", "segments_of", "standard_set", "symmetric",
    "template_length", "with_doughnut",
]


def with_doughnut(tset: TeamTemplateSet) -> TeamTemplateSet:
    """The set with our Doughnut added (Legacy, Chapter 3 post-game; GL-068)."""
    if tset.get(DOUGHNUT_ID) is not None:
        raise TemplateError("the team already has the Doughnut")
    return TeamTemplateSet((*tset.templates, doughnut_template()))


# -- template improvements (Junkyard Cybernetics, GL-039) -------------------------------------
CROSS_OUT_HAZARD = "cross_out_hazard"
ADD_SHIFT = "add_shift"
ADD_GEAR = "add_gear"
ADD_EXIT = "add_exit"

IMPROVEMENT_TABLE: dict[int, str] = {1: CROSS_OUT_HAZARD, 2: ADD_SHIFT, 3: ADD_SHIFT,
                                     4: ADD_GEAR, 5: ADD_GEAR, 6: ADD_EXIT}
"""The D6 of "roll one template improvement", as rebuilt from the garbled table (GL-039)."""


@dataclass(frozen=True)
class Improvement:
    """One improvement made to one template: ``gear`` (and ``icon_set`` of a combined
    template) for the icon results, ``exit`` for a new slide exit point."""

    kind: str
    template: str
    gear: int | None = None
    icon_set: int = 0
    exit: ExitPoint | None = None

    @property
    def label(self) -> str:
        where = f"{self.template}" + (" (second icons)" if self.icon_set else "")
        if self.kind == CROSS_OUT_HAZARD:
            return f"cross out a Hazard icon of {where} in gear {self.gear}"
        if self.kind == ADD_SHIFT:
            return f"add a Shift icon to {where} in gear {self.gear}"
        if self.kind == ADD_GEAR:
            return f"permit {where} in gear {self.gear}"
        assert self.exit is not None
        return f"new slide exit point on {self.template} {self.exit.label}"


def improvement_kind(roll: int) -> str:
    if roll not in IMPROVEMENT_TABLE:
        raise TemplateError(f"a template improvement is rolled on a D6, not {roll!r}")
    return IMPROVEMENT_TABLE[roll]


def _gear_ok(t: TeamTemplate, gear: int, icon_set: int) -> None:
    if not isinstance(gear, int) or not 1 <= gear <= GEARS:
        raise TemplateError(f"gear must be 1..{GEARS}, not {gear!r}")
    if not 0 <= icon_set < len(t.icon_sets):
        raise TemplateError(f"{t.name} has no icon set {icon_set}")


def _set_gear(tset: TeamTemplateSet, t: TeamTemplate, icon_set: int, gear: int,
              icons: GearIcons | None) -> TeamTemplateSet:
    gears = list(t.icon_sets[icon_set])
    gears[gear - 1] = icons
    return tset.replaced(t.with_gears(icon_set, tuple(gears)))


def cross_out_hazard(tset: TeamTemplateSet, tid: str, gear: int,
                     icon_set: int = 0) -> TeamTemplateSet:
    """Result 1: one Hazard icon of a permitted gear crossed out for good."""
    t = tset.require(tid)
    _gear_ok(t, gear, icon_set)
    g = t.icons(gear, icon_set)
    if g is None or g.hazards == 0:
        raise TemplateError(f"{t.name} shows no Hazard icon in gear {gear}")
    return _set_gear(tset, t, icon_set, gear, GearIcons(g.hazards - 1, g.shifts))


def add_shift(tset: TeamTemplateSet, tid: str, gear: int, icon_set: int = 0) -> TeamTemplateSet:
    """Results 2-3: one Shift icon added for good to a permitted gear; icons stack, each a
    bonus Shift result (ruling GL-R51)."""
    t = tset.require(tid)
    _gear_ok(t, gear, icon_set)
    g = t.icons(gear, icon_set)
    if g is None:
        raise TemplateError(f"{t.name} is not permitted in gear {gear}: no icon can go there")
    return _set_gear(tset, t, icon_set, gear, GearIcons(g.hazards, g.shifts + 1))


def add_gear(tset: TeamTemplateSet, tid: str, gear: int, icon_set: int = 0) -> TeamTemplateSet:
    """Results 4-5: an unshaded gear shaded for good: newly permitted, with no icons
    (ruling GL-R52)."""
    t = tset.require(tid)
    _gear_ok(t, gear, icon_set)
    if t.icons(gear, icon_set) is not None:
        raise TemplateError(f"{t.name} is already permitted in gear {gear}")
    return _set_gear(tset, t, icon_set, gear, GearIcons())


def add_exit(tset: TeamTemplateSet, tid: str, edge: str, at: float = 0.0) -> TeamTemplateSet:
    """Result 6: a new slide exit point on an edge of the template, for good (New Slide Exit
    Points: one on a short edge lets the vehicle choose its facing; none may touch the
    starting position, so never on the starting short edge)."""
    t = tset.require(tid)
    if edge == "start":
        raise TemplateError(f"{t.name}: no slide exit point on the starting short edge: the "
                            "template could never be placed again (New Slide Exit Points)")
    if edge not in EDGES:
        raise TemplateError(f"edge must be left, right or end, not {edge!r}")
    e = ExitPoint("end") if edge == "end" else ExitPoint(
        "left" if edge == "left" else "right", float(at))
    if e.edge != "end" and not (isinstance(at, int | float) and math.isfinite(at)):
        raise TemplateError("at must be a distance in mm along the centreline")
    e = checked_exit(e, t.name, template_length(t))
    if e in t.exits or e == main_exit(t):
        raise TemplateError(f"{t.name} already has a slide exit point {e.label}")
    return tset.replaced(replace(t, exits=(*t.exits, e)))


def apply_improvement(tset: TeamTemplateSet, imp: Improvement | int,
                      choice: Improvement | None = None) -> TeamTemplateSet:
    """The set with one improvement made: ``apply_improvement(set, improvement)``, or
    ``apply_improvement(set, roll, improvement)`` checking that the D6 ``roll`` gives it."""
    if not isinstance(imp, Improvement):
        kind = improvement_kind(imp)
        if choice is None:
            raise TemplateError(f"a roll of {imp} ({kind}) needs the improvement chosen")
        if choice.kind != kind:
            raise TemplateError(f"a roll of {imp} gives {kind}, not {choice.kind}")
        imp = choice
    if imp.kind == ADD_EXIT:
        if imp.exit is None:
            raise TemplateError("a new slide exit point needs its position")
        return add_exit(tset, imp.template, imp.exit.edge, imp.exit.at)
    if imp.gear is None:
        raise TemplateError(f"{imp.kind} needs a gear")
    fn = {CROSS_OUT_HAZARD: cross_out_hazard, ADD_SHIFT: add_shift, ADD_GEAR: add_gear}.get(
        imp.kind)
    if fn is None:
        raise TemplateError(f"unknown template improvement {imp.kind!r}")
    return fn(tset, imp.template, imp.gear, imp.icon_set)


EXIT_SHARES = (0.25, 0.5, 0.75, 1.0)
"""Where ``improvement_options`` offers new exit points on a long edge (shares of the
centreline); ``add_exit`` itself takes any position on an edge."""


def improvement_options(tset: TeamTemplateSet, roll: int) -> list[Improvement]:
    """Every improvement the roll allows on this set (an empty list: the result is lost,
    ruling GL-R53)."""
    kind = improvement_kind(roll)
    out: list[Improvement] = []
    for t in tset.templates:
        if kind == ADD_EXIT:
            length = template_length(t)
            cands = [ExitPoint("end")] + [
                ExitPoint(side, round(length * f, 1)) for side in ("left", "right")
                for f in EXIT_SHARES]
            taken = {main_exit(t), *t.exits}
            out += [Improvement(kind, t.id, exit=e) for e in cands if e not in taken]
            continue
        for k, gears in enumerate(t.icon_sets):
            for gi, g in enumerate(gears, start=1):
                if (kind == CROSS_OUT_HAZARD and g is not None and g.hazards) or \
                        (kind == ADD_SHIFT and g is not None) or (kind == ADD_GEAR and g is None):
                    out.append(Improvement(kind, t.id, gi, k))
    return out


# -- combined templates (Unpredictable Performance, GL-090..GL-092) ---------------------------
def fits_die(t: TeamTemplate, die: int) -> bool:
    """A template chosen with a die: permitted in the gear the die shows (any of a combined
    template's icon sets, improvements included); a 6 chooses any template (GL-090,
    ruling GL-R62)."""
    return die == 6 or t.permitted(die)


def combine_candidates(tset: TeamTemplateSet, first: int, second: int
                       ) -> list[tuple[str, str]]:
    """Every pair (template for the first die, template for the second) of two different
    templates the dice allow; none: roll again (ruling GL-R63)."""
    for d in (first, second):
        if not isinstance(d, int) or not 1 <= d <= 6:
            raise TemplateError(f"combining is chosen with two D6, not {d!r}")
    return [(a.id, b.id) for a in tset.templates for b in tset.templates
            if a.id != b.id and fits_die(a, first) and fits_die(b, second)]


def combine(tset: TeamTemplateSet, lower: str, upper: str, *, upper_mirrored: bool = False,
            dice: tuple[int, int] | None = None) -> TeamTemplateSet:
    """The set with ``upper`` laid for good on ``lower``'s dotted line (turned over when
    ``upper_mirrored``) and the rest of ``lower`` cut off: one template, in ``lower``'s place
    in the list, with both sets of gear icons and every slide exit point still on it; the two
    originals are gone (ruling GL-R61). With ``dice``, the pair must be one they allow."""
    lo, up = tset.require(lower), tset.require(upper)
    if lo.id == up.id:
        raise TemplateError("combine two different templates")
    if dice is not None:
        pairs = combine_candidates(tset, *dice)
        if (lo.id, up.id) not in pairs and (up.id, lo.id) not in pairs:
            raise TemplateError(f"the dice {dice[0]} and {dice[1]} do not allow {lo.name} "
                                f"and {up.name} (each must be permitted in one die's gear; "
                                "a 6 allows any)")
    cut = dotted_line(lo)
    # What survives of the lower: exit points on its long edges up to the dotted line; the
    # upper keeps all of its own, moved along and turned over with it.
    kept = [e for e in (main_exit(lo), *lo.exits) if e.edge != "end" and e.at <= cut + 1e-9]
    moved = [(e.flipped() if upper_mirrored else e).shifted(cut)
             for e in (main_exit(up), *up.exits)]
    comb = Combination(lo, up, upper_mirrored)
    probe = TeamTemplate(combined_id(lo, up, upper_mirrored), "", lo.gears, combined=comb)
    own = main_exit(probe)
    exits: list[ExitPoint] = []
    for e in kept + moved:
        if e != own and e not in exits:
            exits.append(e)
    # Two icon sets: the lower's first and the upper's first (ruling GL-R64).
    new = TeamTemplate(probe.id, default_name(probe), lo.gears, tuple(exits), None, comb,
                       up.gears)
    if tset.get(new.id) is not None:
        raise TemplateError(f"the team already has {new.name}")
    out: list[TeamTemplate] = []
    for t in tset.templates:
        if t.id == lo.id:
            out.append(new)
        elif t.id != up.id:
            out.append(t)
    return TeamTemplateSet(tuple(out))
