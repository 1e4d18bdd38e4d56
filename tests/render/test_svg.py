"""SVG rendering: a pure function of a plain table description, checked by parsing."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from carnage.geometry.shapes import Pose, Rect
from carnage.render import (
    ArcShape,
    ObstacleShape,
    PathShape,
    SurfaceShape,
    TableView,
    TemplateShape,
    VehicleShape,
    render_svg,
)

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def points(el: ET.Element) -> list[tuple[float, float]]:
    out = []
    for pair in (el.get("points") or "").split():
        x, y = pair.split(",")
        out.append((float(x), float(y)))
    return out


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def view(**kw: object) -> TableView:
    return TableView(width=400, height=300, **kw)


def test_document_size_and_table() -> None:
    root = parse(render_svg(view(), scale=2.0, margin=5))
    assert root.tag == f"{NS}svg"
    assert (root.get("width"), root.get("height")) == ("810", "610")
    (table,) = by_class(root, "table")
    assert [table.get(k) for k in ("x", "y", "width", "height")] == ["5", "5", "800", "600"]


def test_world_y_up_becomes_svg_y_down() -> None:
    v = VehicleShape("red", Pose(100, 50, 0), 60, 30)
    root = parse(render_svg(view(vehicles=[v]), scale=1.0, margin=10))
    (body,) = by_class(root, "vehicle")
    pts = points(body)
    xs = sorted({round(x, 2) for x, _ in pts})
    ys = sorted({round(y, 2) for _, y in pts})
    # world x 70..130 -> 80..140; world y 35..65 -> svg 10 + (300 - y) = 245..275
    assert xs == [80, 140]
    assert ys == [245, 275]


@pytest.mark.parametrize(("heading", "dx", "dy"), [(0, 1, 0), (90, 0, -1), (180, -1, 0),
                                                   (270, 0, 1)])
def test_nose_points_the_way_the_vehicle_faces(heading: float, dx: int, dy: int) -> None:
    v = VehicleShape("v", Pose(200, 150, heading), 60, 30)
    root = parse(render_svg(view(vehicles=[v]), margin=0))
    (nose,) = by_class(root, "nose")
    base1, apex, base2 = points(nose)
    cx, cy = 200, 300 - 150
    # The apex is the front-edge centre, 30 mm from the centre in the facing (SVG y down).
    assert apex == pytest.approx((cx + 30 * dx, cy + 30 * dy))
    mid = ((base1[0] + base2[0]) / 2, (base1[1] + base2[1]) / 2)
    assert (apex[0] - mid[0]) * dx + (apex[1] - mid[1]) * dy > 0
    (group,) = by_class(root, "vehicle-group")
    assert float(group.get("data-heading") or "nan") == heading


def test_everything_is_drawn_with_classes_and_ids() -> None:
    tv = view(
        surfaces=[SurfaceShape("hwy", "road", ((0, 0), (400, 0), (400, 40), (0, 40)))],
        obstacles=[
            ObstacleShape("rock", ((10, 10), (20, 10), (20, 20), (10, 20)), tall=True),
            ObstacleShape("crate", ((30, 10), (40, 10), (40, 20), (30, 20)), destructible=True),
        ],
        vehicles=[VehicleShape("a", Pose(100, 100, 0), 60, 30),
                  VehicleShape("b", Pose(200, 100, 90), 60, 30, colour="#123456")],
        templates=[TemplateShape((((130, 82.5), (250, 82.5), (250, 117.5), (130, 117.5)),),
                                 "movement", "m1"),
                   TemplateShape((((0, 0), (1, 0), (1, 1)),), "shooting")],
        paths=[PathShape(tuple(Pose(100 + 10 * i, 100, 0) for i in range(13)), 60, 30, "m1")],
        arcs=[ArcShape((((130, 50), (190, 50), (190, 150), (130, 150)),), "front")],
        title="Scene & <test>",
    )
    root = parse(render_svg(tv))
    assert root.find(f"{NS}title") is not None
    assert (root.find(f"{NS}title").text or "") == "Scene & <test>"
    assert [e.get("data-id") for e in by_class(root, "surface")] == ["hwy"]
    assert by_class(root, "road")
    obstacles = by_class(root, "obstacle")
    assert [e.get("data-id") for e in obstacles] == ["rock", "crate"]
    assert by_class(root, "tall")[0].get("data-id") == "rock"
    assert by_class(root, "destructible")[0].get("data-id") == "crate"
    assert [e.get("data-id") for e in by_class(root, "vehicle")] == ["a", "b"]
    assert "#123456" in (by_class(root, "vehicle")[1].get("style") or "")
    assert len(by_class(root, "movement")) == 1 and len(by_class(root, "shooting")) == 1
    (path,) = by_class(root, "path")
    assert len(points(path)) == 13
    # ghosts: both ends plus 4 along the way
    assert len(by_class(root, "ghost")) == 6
    (arc_group,) = by_class(root, "arc-group")
    assert arc_group.get("opacity") == "0.15" and len(by_class(root, "arc")) == 1
    assert [e.text for e in by_class(root, "label")] == ["a", "b"]


def test_draw_order_puts_vehicles_over_templates() -> None:
    tv = view(vehicles=[VehicleShape("a", Pose(100, 100, 0), 60, 30)],
              templates=[TemplateShape((((0, 0), (1, 0), (1, 1)),))],
              surfaces=[SurfaceShape("s", "rough", ((0, 0), (5, 0), (5, 5)))])
    root = parse(render_svg(tv))
    order = [e.get("class") for e in root.iter() if e.get("class")]
    assert order.index("surface rough") < order.index("template movement") < order.index("vehicle")


def test_labels_escape_and_can_be_turned_off() -> None:
    v = VehicleShape('x"<&>', Pose(100, 100, 0), 60, 30)
    svg = render_svg(view(vehicles=[v]))
    root = parse(svg)
    (label,) = by_class(root, "label")
    assert label.text == 'x"<&>' and label.get("data-id") == 'x"<&>'
    assert by_class(parse(render_svg(view(vehicles=[v]), labels=False)), "label") == []


def test_is_pure() -> None:
    tv = view(vehicles=[VehicleShape("a", Pose(100, 100, 33), 60, 30)])
    assert render_svg(tv) == render_svg(tv)


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="scale"):
        render_svg(view(), scale=0)
    with pytest.raises(ValueError, match="table size"):
        render_svg(TableView(width=0, height=10))


def test_rotated_vehicle_corners_match_the_geometry() -> None:
    pose = Pose(150, 120, 30)
    root = parse(render_svg(view(vehicles=[VehicleShape("r", pose, 60, 30)]), margin=0))
    (body,) = by_class(root, "vehicle")
    want = [c for x, y in Rect(pose, 60, 30).polygon() for c in (x, 300 - y)]
    assert [c for p in points(body) for c in p] == pytest.approx(want, abs=0.01)
