"""Surfaces under a move (Refuelled p.86): road needs every part, rough/treacherous any."""

from __future__ import annotations

import math

import pytest

from carnage.geometry.convex import area, covered_by_union
from carnage.geometry.movement import path_for, resolve_move
from carnage.geometry.shapes import Pose, Rect
from carnage.geometry.surfaces import (
    Surface,
    SurfaceKind,
    move_pieces,
    parse_surface_kind,
    surface_from_rect,
    surface_report,
    template_pieces,
)

CAR = Rect(Pose(0, 0, 0), 60, 30)  # front edge centre (30, 0)


def patch(id: str, kind: str, x: float, y: float, length: float, width: float,
          h: float = 0.0) -> Surface:
    return surface_from_rect(id, kind, Rect(Pose(x, y, h), length, width))


def straight_move_parts() -> list[list[tuple[float, float]]]:
    """Medium Straight from CAR: template x 30..150, final body x 150..210 (y ±17.5)."""
    return move_pieces(resolve_move(CAR, "medium_straight"))


def test_kinds() -> None:
    assert parse_surface_kind("Road") is SurfaceKind.ROAD
    with pytest.raises(ValueError, match="unknown surface kind 'lava'"):
        parse_surface_kind("lava")


def test_road_needs_every_part_on_road() -> None:
    parts = straight_move_parts()
    road = patch("r", "road", 100, 0, 300, 40)  # x -50..250, y -20..20
    assert surface_report(parts, [road]).road
    short_road = patch("r", "road", 95, 0, 230, 40)  # ends at x=210: just covers
    assert surface_report(parts, [short_road]).road
    shorter = patch("r", "road", 94.9, 0, 230, 40)  # ends at 209.9: final body hangs off
    assert not surface_report(parts, [shorter]).road
    narrow = patch("r", "road", 100, 0, 300, 34)  # template is 35 wide
    assert not surface_report(parts, [narrow]).road


def test_road_may_be_several_pieces() -> None:
    parts = straight_move_parts()
    a = patch("a", "road", 50, 0, 100, 40)  # x 0..100
    b = patch("b", "road", 175, 0, 150, 40)  # x 100..250
    assert surface_report(parts, [a, b]).road
    gap = patch("b", "road", 176, 0, 150, 40)  # x 101..251: 1 mm strip uncovered
    assert not surface_report(parts, [a, gap]).road
    assert not surface_report(parts, []).road


def test_rough_and_treacherous_need_overlap_not_touch() -> None:
    parts = straight_move_parts()
    # The template's left edge is y=17.5 and the final body's y=15: a patch from y=17.5 up
    # touches the template only along its edge.
    touching = patch("t", "rough", 100, 17.5 + 10, 60, 20)
    overlapping = patch("o", "rough", 100, 17.4 + 10, 60, 20)
    slick = patch("s", "treacherous", 180, 0, 10, 10)  # under the final position
    rep = surface_report(parts, [touching, overlapping, slick])
    assert rep.rough == ("o",)
    assert rep.treacherous == ("s",)
    assert rep.on_rough and rep.on_treacherous and not rep.road


def test_slide_ignores_the_template_beyond_the_exit_point() -> None:
    body = Rect(Pose(0, 0, 0), 60, 30)
    # A Gentle turn right: slide exit at the middle of the template (outer = left edge).
    slid = resolve_move(body, "gentle", slide="left")
    unslid = resolve_move(body, "gentle")
    # A rough patch on the far end of the template only.
    far = path_for(body, "gentle").pose_at(path_for(body, "gentle").length - 5)
    rough = surface_from_rect("mud", "rough", Rect(Pose(far.x, far.y, far.heading), 6, 6))
    assert surface_report(move_pieces(unslid), [rough]).rough == ("mud",)
    assert surface_report(move_pieces(slid), [rough]).rough == ()
    # the Slide template itself counts
    st = slid.slide_template
    assert st is not None
    on_slide = surface_from_rect("ice", "treacherous", Rect(st.pose, 5, 5))
    assert surface_report(move_pieces(slid), [on_slide]).treacherous == ("ice",)


@pytest.mark.parametrize("tid", ["gentle", "turn", "hard", "hairpin", "veer", "swerve"])
def test_template_pieces_follow_the_true_outline(tid: str) -> None:
    path = path_for(CAR, tid)
    pieces = template_pieces(path)
    total = sum(area(p) for p in pieces)
    # A curved strip of width w along a centreline of length L has area exactly L*w.
    assert total == pytest.approx(path.length * path.width, rel=1e-4)
    assert total <= path.length * path.width + 1e-6  # inscribed: never bigger
    # every corner is exactly on one of the template's long edges
    centre = [path.pose_at(path.length * i / 400) for i in range(401)]
    corners = {pt for piece in pieces for pt in piece}
    for pt in corners:
        # nearest centreline point is half a template width away (samples 0.3 mm apart)
        near = min(math.hypot(pt[0] - q.x, pt[1] - q.y) for q in centre)
        assert abs(near - path.width / 2) < 0.01


def test_template_on_a_curved_road_made_of_pieces() -> None:
    # A road laid exactly under a Turn template (its own pieces), a little wider.
    path = path_for(CAR, "turn")
    pieces = template_pieces(path)
    assert covered_by_union(pieces[10], pieces)
    wide = [surface_from_rect(f"r{i}", "road",
                              Rect(path.pose_at(path.length * (i + 0.5) / 40), path.length / 40 + 2,
                                   path.width + 4))
            for i in range(40)]
    assert all(covered_by_union(p, [s.polygon for s in wide]) for p in pieces)
