"""A team's movement templates drawn as they now are: one SVG sheet (for the print-out, the
web roster and ``carnage team templates --svg``), and the text rows of the CLI.

Each template is drawn right way up with its start at the bottom: its outline, centreline,
our dotted line (where another template would be joined, geometry/team_templates_data.py), every
slide exit point as a small triangle pointing off its edge, and under it a row of six gear
boxes per icon set: shaded where permitted, with its Hazard (H) and Shift (T) icons.
"""

from __future__ import annotations

import math
from html import escape

from carnage.geometry.movement import template_path
from carnage.geometry.shapes import Point, Pose
from carnage.geometry.team_templates import (
    GEARS,
    TeamTemplate,
    TeamTemplateSet,
    dotted_line,
    exit_variant_id,
    main_exit,
    merged_template_set,
)
from carnage.geometry.templateset import TemplateSet, default_template_set

PAD = 12.0
BOX = 16.0
"""A gear box's side (mm of the sheet)."""
LABEL = 16.0


def _pts(points: list[Point]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _cell(t: TeamTemplate, ts: TemplateSet) -> tuple[list[str], float, float]:
    """SVG elements of one template in its own frame (y down), and the cell's size."""
    start = Pose(0.0, 0.0, 90.0)
    path = template_path(t.id, start, ts=ts)
    outline = path.outline(step_deg=3.0)
    centre = [(p.x, p.y) for p in (path.pose_at(path.length * i / 40) for i in range(41))]
    cut = dotted_line(t)
    d0 = path.pose_at(cut)
    nx, ny = -math.sin(math.radians(d0.heading)), math.cos(math.radians(d0.heading))
    half = path.width / 2.0
    dotted = [(d0.x + nx * half, d0.y + ny * half), (d0.x - nx * half, d0.y - ny * half)]
    marks: list[list[Point]] = []
    for e in (main_exit(t), *t.exits):
        sid = t.id if e == main_exit(t) else exit_variant_id(t.id, e)
        laid = template_path(sid, start, ts=ts)
        px, py = laid.slide_exit_point()
        dx, dy = laid.slide_direction()
        marks.append([(px - dy * 5, py + dx * 5), (px + dy * 5, py - dx * 5),
                      (px + dx * 8, py + dy * 8)])
    xs = [p[0] for p in outline] + [p[0] for m in marks for p in m]
    ys = [p[1] for p in outline] + [p[1] for m in marks for p in m]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    # The sheet's y runs down: flip the drawing so the start is at the bottom.
    def tr(p: Point) -> Point:
        return (p[0] - x0 + PAD, (y1 - p[1]) + PAD + LABEL)

    width = max(x1 - x0, GEARS * BOX) + 2 * PAD
    shape_h = y1 - y0
    els = [
        f'<text x="{PAD:.1f}" y="{PAD + 4:.1f}" class="name">{escape(t.name)}</text>',
        f'<polygon class="template" points="{_pts([tr(p) for p in outline])}"/>',
        f'<polyline class="centreline" points="{_pts([tr(p) for p in centre])}"/>',
        f'<polyline class="dotted" points="{_pts([tr(p) for p in dotted])}"/>',
        *(f'<polygon class="exit" points="{_pts([tr(p) for p in m])}"/>' for m in marks),
    ]
    y = PAD + LABEL + shape_h + PAD
    for k, gears in enumerate(t.icon_sets):
        for gi, g in enumerate(gears):
            bx = PAD + gi * BOX
            cls = "gear on" if g is not None else "gear"
            els.append(f'<rect class="{cls}" x="{bx:.1f}" y="{y:.1f}" width="{BOX:.1f}" '
                       f'height="{BOX:.1f}"/>')
            text = f"{gi + 1}" if g is None or g.code == "P" else f"{gi + 1}{g.code}"
            els.append(f'<text class="icons" x="{bx + 2:.1f}" y="{y + BOX - 4:.1f}">'
                       f'{escape(text)}</text>')
        if k:
            els.append(f'<text class="set" x="{PAD + GEARS * BOX + 3:.1f}" '
                       f'y="{y + BOX - 4:.1f}">2nd</text>')
        y += BOX + 2
    return els, width, y + PAD


STYLE = (".template{fill:#f5e6c8;stroke:#5a4632;stroke-width:1}"
         ".centreline{fill:none;stroke:#5a4632;stroke-width:.5}"
         ".dotted{fill:none;stroke:#5a4632;stroke-width:1;stroke-dasharray:3 2}"
         ".exit{fill:#c0392b}.gear{fill:#fff;stroke:#5a4632;stroke-width:.6}"
         ".gear.on{fill:#d9c9a6}.name{font:bold 11px sans-serif}"
         ".icons,.set{font:8px sans-serif}")


def template_set_svg(tset: TeamTemplateSet, *, columns: int = 3,
                     ts: TemplateSet | None = None) -> str:
    """The whole set on one sheet (units: mm at the templates' scale)."""
    base = ts or default_template_set()
    merged = merged_template_set(base, [tset.to_json()])
    cells = [_cell(t, merged) for t in tset.templates]
    columns = max(1, columns)
    col_w = max(w for _, w, _ in cells)
    out: list[str] = []
    y = 0.0
    for r in range(0, len(cells), columns):
        row = cells[r:r + columns]
        for c, (els, _, _) in enumerate(row):
            out.append(f'<g transform="translate({c * col_w:.1f},{y:.1f})">{"".join(els)}</g>')
        y += max(h for _, _, h in row)
    width = col_w * min(columns, len(cells))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.1f} {y:.1f}" '
            f'width="{width:.1f}mm" height="{y:.1f}mm"><style>{STYLE}</style>'
            f'{"".join(out)}</svg>')
