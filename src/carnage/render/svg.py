"""Draw a table as SVG: a pure function of a plain description (``TableView``).

World coordinates are millimetres with y up; SVG's y runs down, so a world point (x, y)
is drawn at (margin + x·scale, margin + (height − y)·scale). Every element carries a
``class`` (``table``, ``surface road``, ``obstacle``, ``vehicle``, ``nose``, ``template
movement``, ``path``, ``ghost``, ``arc``, ``label``) and, where it has one, a ``data-id``, so
tests, docs and the web table can find things.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from carnage.geometry.shapes import Point, Pose, Rect

PALETTE = ("#c0392b", "#2471a3", "#229954", "#d68910", "#7d3c98", "#17a589", "#566573")
SEAT_COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Teal", "Grey")
"""The seat colour names, in the order of the palette."""


def seat_name(seat: int) -> str:
    """A player's name: the seat colour ("Red", "Blue", ...; "Red 8" past the palette)."""
    base = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    return base if seat < len(SEAT_COLOURS) else f"{base} {seat + 1}"

_SURFACE_FILL = {"road": "#9aa0a6", "rough": "#c8a165", "treacherous": "#7fb3d5"}
_TEMPLATE_STYLE = {
    "movement": "fill:#f4d03f;fill-opacity:0.45;stroke:#9a7d0a",
    "slide": "fill:#eb984e;fill-opacity:0.45;stroke:#a04000",
    "shooting": "fill:#e74c3c;fill-opacity:0.30;stroke:#922b21",
    "dropped": "fill:#6c3483;fill-opacity:0.35;stroke:#4a235a",  # dropped weapons, p.78
    "scenario": "fill:#1e8449;fill-opacity:0.35;stroke:#0b5345",  # a scenario's table marks
}


@dataclass(frozen=True)
class VehicleShape:
    id: str
    pose: Pose
    length: float
    width: float
    colour: str | None = None
    label: str | None = None


@dataclass(frozen=True)
class ObstacleShape:
    id: str
    polygon: tuple[Point, ...]
    tall: bool = False
    destructible: bool = False


@dataclass(frozen=True)
class SurfaceShape:
    id: str
    kind: str
    polygon: tuple[Point, ...]


@dataclass(frozen=True)
class TemplateShape:
    """A laid template as convex pieces (``kind``: movement, slide or shooting)."""

    polygons: tuple[tuple[Point, ...], ...]
    kind: str = "movement"
    label: str | None = None


@dataclass(frozen=True)
class PathShape:
    """The way a vehicle went: its centre line, with a few ghost outlines along it."""

    poses: tuple[Pose, ...]
    length: float
    width: float
    label: str | None = None


@dataclass(frozen=True)
class ArcShape:
    """An arc of fire's reach, as convex pieces."""

    polygons: tuple[tuple[Point, ...], ...]
    label: str | None = None


@dataclass(frozen=True)
class TableView:
    width: float
    height: float
    surfaces: Sequence[SurfaceShape] = field(default_factory=tuple)
    obstacles: Sequence[ObstacleShape] = field(default_factory=tuple)
    vehicles: Sequence[VehicleShape] = field(default_factory=tuple)
    templates: Sequence[TemplateShape] = field(default_factory=tuple)
    paths: Sequence[PathShape] = field(default_factory=tuple)
    arcs: Sequence[ArcShape] = field(default_factory=tuple)
    title: str | None = None


def _num(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


class _Canvas:
    def __init__(self, height: float, scale: float, margin: float) -> None:
        self.height = height
        self.scale = scale
        self.margin = margin

    def pt(self, p: Point) -> tuple[float, float]:
        return (self.margin + p[0] * self.scale, self.margin + (self.height - p[1]) * self.scale)

    def points(self, poly: Sequence[Point]) -> str:
        return " ".join(f"{_num(x)},{_num(y)}" for x, y in (self.pt(p) for p in poly))


def _attrs(**kw: str | None) -> str:
    return "".join(
        f" {k.rstrip('_').replace('_', '-')}={quoteattr(v)}" for k, v in kw.items() if v is not None
    )


def render_svg(
    view: TableView,
    *,
    scale: float = 1.0,
    margin: float = 10.0,
    labels: bool = True,
    ghosts: int = 4,
) -> str:
    """The table as an SVG document (a string). ``scale`` is pixels per millimetre;
    ``ghosts`` is how many outlines to draw along each path (besides its ends)."""
    if not (scale > 0 and margin >= 0):
        raise ValueError("scale must be positive and margin not negative")
    if not (view.width > 0 and view.height > 0):
        raise ValueError("table size must be positive")
    cv = _Canvas(view.height, scale, margin)
    w = view.width * scale + 2 * margin
    h = view.height * scale + 2 * margin
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(w)}" height="{_num(h)}" '
        f'viewBox="0 0 {_num(w)} {_num(h)}">'
    ]
    if view.title:
        out.append(f"<title>{escape(view.title)}</title>")
    x0, y0 = cv.pt((0.0, view.height))
    out.append(
        f'<rect class="table" x="{_num(x0)}" y="{_num(y0)}" width="{_num(view.width * scale)}" '
        f'height="{_num(view.height * scale)}" style="fill:#efe6d2;stroke:#333;stroke-width:2"/>'
    )
    for s in view.surfaces:
        fill = _SURFACE_FILL.get(s.kind, "#cccccc")
        out.append(
            f"<polygon{_attrs(class_=f'surface {s.kind}', data_id=s.id)} "
            f'points="{cv.points(s.polygon)}" style="fill:{fill};fill-opacity:0.7"/>'
        )
    for a in view.arcs:
        # Pieces overlap; drawing them opaque inside a translucent group keeps one tint.
        out.append(f"<g{_attrs(class_='arc-group', data_label=a.label)} opacity=\"0.15\">")
        for poly in a.polygons:
            out.append(
                f"<polygon{_attrs(class_='arc', data_label=a.label)} points=\"{cv.points(poly)}\" "
                'style="fill:#2e86c1;stroke:none"/>'
            )
        out.append("</g>")
    for t in view.templates:
        style = _TEMPLATE_STYLE.get(t.kind, _TEMPLATE_STYLE["movement"])
        for poly in t.polygons:
            out.append(
                f"<polygon{_attrs(class_=f'template {t.kind}', data_label=t.label)} "
                f'points="{cv.points(poly)}" style="{style};stroke-width:0.5"/>'
            )
    for p in view.paths:
        if not p.poses:
            continue
        line = cv.points([(q.x, q.y) for q in p.poses])
        out.append(
            f"<polyline{_attrs(class_='path', data_label=p.label)} points=\"{line}\" "
            'style="fill:none;stroke:#333;stroke-width:1;stroke-dasharray:4 3"/>'
        )
        n = len(p.poses)
        inner = (round(i * (n - 1) / (ghosts + 1)) for i in range(1, ghosts + 1))
        picks = sorted({0, n - 1, *inner})
        for i in picks:
            ghost = Rect(p.poses[i], p.length, p.width).polygon()
            out.append(
                f"<polygon{_attrs(class_='ghost', data_label=p.label)} "
                f'points="{cv.points(ghost)}" style="fill:none;stroke:#555;stroke-opacity:0.5"/>'
            )
    for o in view.obstacles:
        style = "fill:#5d4037;stroke:#000" if o.tall else "fill:#a1887f;stroke:#3e2723"
        if o.destructible:
            style += ";stroke-dasharray:3 2"
        cls = "obstacle" + (" tall" if o.tall else "") + (" destructible" if o.destructible else "")
        out.append(
            f"<polygon{_attrs(class_=cls, data_id=o.id)} points=\"{cv.points(o.polygon)}\" "
            f'style="{style}"/>'
        )
    for i, v in enumerate(view.vehicles):
        colour = v.colour or PALETTE[i % len(PALETTE)]
        r = Rect(v.pose, v.length, v.width)
        hl, hw = v.length / 2.0, v.width / 2.0
        depth = min(v.length, v.width) * 0.6
        nose = [v.pose.to_world((hl - depth, -hw * 0.7)), v.pose.to_world((hl, 0.0)),
                v.pose.to_world((hl - depth, hw * 0.7))]
        group = _attrs(class_="vehicle-group", data_id=v.id, data_heading=_num(v.pose.heading))
        out.append(f"<g{group}>")
        out.append(
            f"<polygon{_attrs(class_='vehicle', data_id=v.id)} points=\"{cv.points(r.polygon())}\" "
            f'style="fill:{colour};stroke:#000;stroke-width:1"/>'
        )
        out.append(
            f"<polygon{_attrs(class_='nose', data_id=v.id)} points=\"{cv.points(nose)}\" "
            'style="fill:#fff;fill-opacity:0.85"/>'
        )
        out.append("</g>")
    if labels:
        for v in view.vehicles:
            cx, cy = cv.pt((v.pose.x, v.pose.y))
            text = v.label if v.label is not None else v.id
            out.append(
                f'<text class="label" data-id={quoteattr(v.id)} x="{_num(cx)}" y="{_num(cy)}" '
                f'font-size="{_num(max(8.0, 9.0 * scale))}" text-anchor="middle" '
                f'dominant-baseline="central">{escape(text)}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"
