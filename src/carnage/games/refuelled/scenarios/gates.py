"""Race gates: numbered, one-way lines passed in order, on a loop or to a separate finish
(Refuelled pp.124-128). A reusable piece: Death Race uses it, and any race variant may.

A ``Track`` is plain data (it lives in the game state): gate 0 is the Starting Line; the gates
after it are numbered 1, 2, ...; on a loop the Starting Line is the Finish Line too and the
course may go round ``laps`` times, otherwise the last gate is the Finish Line. A vehicle's
progress is one number, how many steps of the course (``Track.course``) it has passed; Green
Light (p.127) starts everyone on 0 with the Starting Line behind them.

Gates are judged on every kind of motion with ``base.crosses`` (ruling SR-1): a body passes a
gate when the area it sweeps between two consecutive poses, carrying it the gate's way, touches
the gate's line. ``passes_along`` walks a path and reports each course step passed in order, so
one long move may pass two gates, never one out of turn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from carnage.catalog.models import Weight
from carnage.games.refuelled.engine.scenario_view import Drawable
from carnage.games.refuelled.engine.state import Obstacle
from carnage.games.refuelled.scenarios.base import Line, crosses
from carnage.geometry.shapes import Point, Pose, Rect

LONG_STRAIGHT = 180.0
"""The Long Straight's length (mm): a gate's posts stand exactly this far apart (p.124)."""
POST_SIZE = 20.0
"""Ruling DTH-1: a gate post is a 20 mm square Middleweight obstacle (the book: "small")."""


@dataclass(frozen=True)
class Gate:
    """Gate ``number`` (0: the Starting Line) along ``line``, passed the way ``line.normal``
    points. ``posts``: two Middleweight posts at the line's ends (the gap is open ground);
    False: a flat gate template, open ground all over (p.124)."""

    number: int
    line: Line
    posts: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "a": list(self.line.a), "b": list(self.line.b),
                "normal": list(self.line.normal), "posts": self.posts}

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Gate:
        a, b, n = raw["a"], raw["b"], raw["normal"]
        return Gate(int(raw["number"]), Line((float(a[0]), float(a[1])),
                                             (float(b[0]), float(b[1])),
                                             (float(n[0]), float(n[1]))),
                    bool(raw.get("posts", True)))

    def post_ids(self) -> tuple[str, str]:
        return (f"gate-{self.number}-post-a", f"gate-{self.number}-post-b")

    def post_obstacles(self) -> list[Obstacle]:
        """The two posts as Middleweight obstacles centred on the line's ends (ruling DTH-1:
        not Destructible, square to the line)."""
        if not self.posts:
            return []
        heading = math.degrees(math.atan2(self.line.along[1], self.line.along[0]))
        return [Obstacle(pid, Pose(p[0], p[1], heading), POST_SIZE, POST_SIZE,
                         weight=Weight.MIDDLEWEIGHT)
                for pid, p in zip(self.post_ids(), (self.line.a, self.line.b), strict=True)]


def gate_at(number: int, centre: Point, heading: float, *, posts: bool = True,
            width: float = LONG_STRAIGHT) -> Gate:
    """Gate ``number`` centred on ``centre``, passed travelling along ``heading`` (degrees)."""
    r = math.radians(heading)
    n = (math.cos(r), math.sin(r))
    u = (-n[1], n[0])
    h = width / 2.0
    a = (centre[0] - u[0] * h, centre[1] - u[1] * h)
    b = (centre[0] + u[0] * h, centre[1] + u[1] * h)
    return Gate(number, Line(a, b, n), posts)


@dataclass(frozen=True)
class Track:
    """The gates in number order (gate 0 is the Starting Line), whether the course loops back
    to the Starting Line (which is then the Finish Line) and how many laps it runs."""

    gates: tuple[Gate, ...]
    loop: bool = True
    laps: int = 1

    def __post_init__(self) -> None:
        if len(self.gates) < 3:
            raise ValueError(f"a race track needs at least 3 gates, got {len(self.gates)}")
        if [g.number for g in self.gates] != list(range(len(self.gates))):
            raise ValueError("race gates must be numbered 0 (the Starting Line), 1, 2, ... in "
                             "order")
        if self.laps < 1:
            raise ValueError(f"a race needs at least 1 lap, not {self.laps}")
        if not self.loop and self.laps != 1:
            raise ValueError("only a looping track (finish on the Starting Line) has laps")

    @property
    def course(self) -> tuple[int, ...]:
        """The gate numbers to pass, in order, after Green Light: 1, 2, ... and, on a loop,
        the Starting Line to end each lap."""
        n = len(self.gates)
        if not self.loop:
            return tuple(range(1, n))
        return (*range(1, n), 0) * self.laps

    @property
    def finish(self) -> Gate:
        return self.gates[0] if self.loop else self.gates[-1]

    @property
    def start(self) -> Gate:
        return self.gates[0]

    def next_gate(self, passed: int) -> Gate | None:
        """The gate a vehicle that passed ``passed`` course steps must pass next (None: it has
        finished)."""
        course = self.course
        return self.gates[course[passed]] if passed < len(course) else None

    def last_gate(self, passed: int) -> Gate:
        """The last gate a vehicle passed (the Starting Line from Green Light on, p.127)."""
        return self.gates[self.course[passed - 1]] if passed > 0 else self.start

    def lap_of(self, passed: int) -> int:
        """The lap (from 1) a vehicle on ``passed`` steps is running."""
        per = len(self.gates) if self.loop else len(self.gates) - 1
        return min(self.laps, passed // per + 1)

    def to_json(self) -> dict[str, Any]:
        return {"gates": [g.to_json() for g in self.gates], "loop": self.loop,
                "laps": self.laps}

    @staticmethod
    def from_json(raw: Any) -> Track:
        """A track from plain data (a scenario option or a hand-laid table); ``ValueError``
        naming what is wrong."""
        if not isinstance(raw, dict) or not isinstance(raw.get("gates"), list):
            raise ValueError("a race track needs a 'gates' list")
        gates = []
        for i, g in enumerate(raw["gates"]):
            if not isinstance(g, dict):
                raise ValueError(f"race gate {i}: expected an object")
            try:
                if "a" in g:
                    gate = Gate.from_json({"number": i, **g})
                else:
                    gate = gate_at(i, (float(g["x"]), float(g["y"])), float(g["heading"]),
                                   posts=bool(g.get("posts", True)))
            except (KeyError, TypeError, ValueError, IndexError) as e:
                raise ValueError(f"race gate {i}: needs x, y, heading (or a, b, normal): "
                                 f"{e}") from None
            if int(gate.number) != i:
                raise ValueError(f"race gate {i} is numbered {gate.number}")
            gates.append(gate)
        return Track(tuple(gates), bool(raw.get("loop", True)), int(raw.get("laps", 1)))


def passes_along(track: Track, passed: int, poses: Sequence[Pose], length: float,
                 width: float) -> list[int]:
    """The course steps (indices into ``track.course``) a body of ``length`` x ``width``
    passes moving through ``poses``, having passed ``passed`` before: each gate only after the
    one before it, and only travelling its way (ruling SR-1 on each leg of the path)."""
    out: list[int] = []
    i = 0
    step = passed
    while step < len(track.course) and i < len(poses) - 1:
        line = track.gates[track.course[step]].line
        if not crosses(line, poses[i:], length, width):
            break  # the common case, judged in one sweep
        hit = None
        for j in range(i, len(poses) - 1):
            if crosses(line, poses[j:j + 2], length, width):
                hit = j
                break
        if hit is None:
            break
        out.append(step)
        step += 1
        i = hit  # the next gate may be passed on the same leg, or later
        if len(out) > len(track.course):
            break
    return out


def interpolate(a: Pose, b: Pose, step: float = 5.0) -> list[Pose]:
    """Poses from ``a`` to ``b`` (straight, turning evenly) about ``step`` mm or 5 degrees
    apart: how a motion the engine gives only as its ends (a pivot, a shove) is judged."""
    turn = (b.heading - a.heading + 180.0) % 360.0 - 180.0
    n = max(1, math.ceil(max(math.hypot(b.x - a.x, b.y - a.y) / step, abs(turn) / 5.0)))
    return [Pose(a.x + (b.x - a.x) * k / n, a.y + (b.y - a.y) * k / n,
                 (a.heading + turn * k / n) % 360.0) for k in range(n + 1)]


def point_segment_gap(pt: Point, a: Point, b: Point) -> float:
    """Distance from ``pt`` to the segment from ``a`` to ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n2 = dx * dx + dy * dy
    t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((pt[0] - a[0]) * dx + (pt[1] - a[1]) * dy) / n2))
    return math.hypot(pt[0] - a[0] - t * dx, pt[1] - a[1] - t * dy)


def segment_gap(p: Line, q: Line) -> float:
    """Nearest distance between two gate lines (0 if they cross): ruling DTH-3 measures the
    Long Straight between gates this way."""
    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    d1, d2 = cross(q.a, q.b, p.a), cross(q.a, q.b, p.b)
    d3, d4 = cross(p.a, p.b, q.a), cross(p.a, p.b, q.b)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return 0.0
    return min(point_segment_gap(p.a, q.a, q.b), point_segment_gap(p.b, q.a, q.b),
               point_segment_gap(q.a, p.a, p.b), point_segment_gap(q.b, p.a, p.b))


def body_touches(line: Line, pose: Pose, length: float, width: float) -> bool:
    return line.touches(Rect(pose, length, width).polygon())


def gate_drawables(track: Track) -> list[Drawable]:
    """Each gate as a numbered ``gate`` mark crossed its way; the Starting and Finish Lines
    styled ``start``/``finish`` (on a loop the Starting Line is both)."""
    out = []
    finish = track.finish.number
    for g in track.gates:
        if g.number == 0:
            label, style = ("START / FINISH", "start") if track.loop else ("START", "start")
        elif g.number == finish:
            label, style = f"FINISH ({g.number})", "finish"
        else:
            label, style = f"GATE {g.number}", ""
        out.append(Drawable(f"gate-{g.number}", "gate", (g.line.a, g.line.b), label=label,
                            number=g.number, direction=g.line.normal, style=style))
    return out
