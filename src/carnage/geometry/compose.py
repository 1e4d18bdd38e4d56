"""Pure maths on template centrelines: cut one short, turn one over, join two end to end.

A movement template is a run of ``Segment``s from its starting edge (geometry/templateset.py).
These functions make new runs from old ones; they know nothing of rules. Joining a template's
run cut at distance ``d`` to another's run lays the second template with its starting edge
exactly on (and centred on) the first's cross-section at ``d``, pointing along the first's
centreline there: a band of constant width swept along the joined centreline is then exactly
the union of the cut first template and the whole second one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from carnage.geometry.shapes import Pose
from carnage.geometry.templateset import Segment

EPS: Final = 1e-9


def run_length(segments: Sequence[Segment]) -> float:
    return sum(s.arc_length for s in segments)


def cut_segments(segments: Sequence[Segment], at: float) -> tuple[Segment, ...]:
    """The run from its start to centreline distance ``at`` (0 <= at <= its length); an arc
    cut part-way keeps its radius and turns through the matching share of its angle."""
    total = run_length(segments)
    if not (math.isfinite(at) and -EPS <= at <= total + EPS):
        raise ValueError(f"cut at {at:g} mm is outside the template (0..{total:g} mm)")
    out: list[Segment] = []
    left = max(0.0, at)
    for s in segments:
        if left <= EPS:
            break
        n = s.arc_length
        if n <= left + EPS:
            out.append(s)
            left -= n
            continue
        if s.radius is None:
            out.append(Segment(length=left))
        else:
            out.append(Segment(angle=s.angle * left / n, radius=s.radius))
        left = 0.0
    return tuple(out)


def mirrored_segments(segments: Sequence[Segment]) -> tuple[Segment, ...]:
    """The run of the template turned over: every turn the other way."""
    return tuple(s if s.radius is None else Segment(angle=-s.angle, radius=s.radius)
                 for s in segments)


def joined_segments(lower: Sequence[Segment], cut: float, upper: Sequence[Segment],
                    *, upper_mirrored: bool = False) -> tuple[Segment, ...]:
    """``lower`` cut at ``cut`` mm, then ``upper`` (turned over if ``upper_mirrored``)
    starting there, along the lower's centreline."""
    return cut_segments(lower, cut) + (mirrored_segments(upper) if upper_mirrored
                                       else tuple(upper))


def end_of_run(segments: Sequence[Segment], start: Pose | None = None) -> Pose:
    """Where the centreline ends (point and heading) when it starts at ``start``; a positive
    arc turns clockwise (right), as the template lies right way up."""
    start = start or Pose(0.0, 0.0, 0.0)
    x, y, h = start.x, start.y, math.radians(start.heading)
    for s in segments:
        if s.radius is None:
            x, y = x + s.length * math.cos(h), y + s.length * math.sin(h)
            continue
        turn = -math.radians(s.angle)  # clockwise is a negative heading change
        k = 1.0 if turn > 0 else -1.0
        cx, cy = x - k * s.radius * math.sin(h), y + k * s.radius * math.cos(h)
        a0 = math.atan2(y - cy, x - cx)
        x, y = cx + s.radius * math.cos(a0 + turn), cy + s.radius * math.sin(a0 + turn)
        h += turn
    return Pose(x, y, math.degrees(h) % 360.0)
