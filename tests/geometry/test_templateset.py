"""The one template data file: loading, scaling, measured sets, bad files."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from carnage.geometry.templateset import TemplateSet, TemplateSetError, default_template_set


def test_provisional_set_matches_notes() -> None:
    ts = default_template_set()
    assert set(ts.movement) == {
        "hairpin", "gentle", "veer", "long_straight", "hard", "swerve", "short_straight",
        "turn", "medium_straight",
    }
    assert ts.width == 35
    assert ts.movement["long_straight"].length == 180
    # Hard: a 90 degree arc of radius 60 -> quarter circumference.
    assert ts.movement["hard"].length == pytest.approx(math.pi * 60 / 2)
    assert ts.movement["veer"].length == pytest.approx(40 + math.radians(30) * 150)
    # Straights exit at the far end; curves at the middle.
    assert ts.movement["medium_straight"].slide_exit == 120
    assert ts.movement["turn"].slide_exit == pytest.approx(ts.movement["turn"].length / 2)
    assert ts.ranges["double"] == ts.ranges["medium"] + ts.ranges["long"]
    assert ts.footprints["bus"] == (100, 40)


def test_scaling_multiplies_lengths_not_angles() -> None:
    ts = default_template_set().scaled(1.3)
    assert ts.ranges["long"] == pytest.approx(234)
    assert ts.movement["turn"].segments[0].angle == 60
    assert ts.movement["turn"].segments[0].radius == pytest.approx(115 * 1.3)
    assert ts.footprints["default"] == pytest.approx((78, 39))
    with pytest.raises(TemplateSetError):
        ts.scaled(0)


def test_measured_set_from_file(tmp_path: Path) -> None:
    raw = yaml.safe_load(
        (Path(__file__).parents[2] / "src/carnage/geometry/data/templates.yaml").read_text()
    )
    raw["movement"]["long_straight"]["segments"] = [{"straight": 182}]
    raw["movement"]["long_straight"]["slide_exit"] = 182
    raw["scale"] = 0.7
    p = tmp_path / "measured.yaml"
    p.write_text(yaml.safe_dump(raw))
    ts = TemplateSet.from_file(p)
    assert ts.movement["long_straight"].length == pytest.approx(182 * 0.7)
    assert ts.scale == pytest.approx(0.7)


def test_malformed_set_is_a_clear_error(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("width: 35\nmovement: {turn: {segments: [{arc: 60}]}}\n")
    with pytest.raises(TemplateSetError, match=r"bad\.yaml: malformed template set"):
        TemplateSet.from_file(p)
