"""Load the template set (movement templates, slide, bursts, range rulers, footprints).

One YAML file holds the provisional set; ``TemplateSet.from_file`` loads a measured one, and
``scaled`` gives the 70 % / 130 % copies the book allows (Refuelled p.177).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import yaml


class TemplateSetError(ValueError):
    """A template data file is malformed."""


@dataclass(frozen=True)
class Segment:
    """A straight run (``radius`` None, ``length`` mm) or an arc (``angle`` degrees, positive
    turning right, on ``radius`` mm)."""

    length: float = 0.0
    angle: float = 0.0
    radius: float | None = None

    @property
    def is_arc(self) -> bool:
        return self.radius is not None

    @property
    def arc_length(self) -> float:
        if self.radius is None:
            return self.length
        return abs(math.radians(self.angle)) * self.radius


@dataclass(frozen=True)
class MovementSpec:
    id: str
    segments: tuple[Segment, ...]
    slide_exit: float
    """Distance along the centreline (mm) of the slide exit point."""
    slide_side: str = "end"
    """Where the Slide template attaches, as the template lies right way up: ``end`` (beyond
    the far end, straights) or the ``left``/``right`` edge at ``slide_exit`` (curves)."""

    @cached_property
    def length(self) -> float:
        """Length of the centreline (mm), worked out once (the spec never changes)."""
        return sum(s.arc_length for s in self.segments)

    @cached_property
    def is_straight(self) -> bool:
        return all(not s.is_arc for s in self.segments)


@dataclass(frozen=True)
class TemplateSet:
    name: str
    width: float
    movement: dict[str, MovementSpec]
    slide_length: float
    slide_width: float
    bursts: dict[str, tuple[float, float]]
    """Burst id -> (length, width)."""
    ranges: dict[str, float]
    footprints: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Footprint key -> (length, width)."""
    scale: float = 1.0
    vehicle_types: dict[str, str] = field(default_factory=dict)
    """Vehicle type id -> footprint key (base sizes, Refuelled p.177)."""
    slide_as: str | None = None
    """A movement template laid in place of the Slide template (Powerslide, p.107); None:
    the Slide template itself."""
    slide_mirror: bool = False
    """``slide_as`` laid turning left."""

    @staticmethod
    def from_mapping(raw: Any, source: str = "template set") -> TemplateSet:
        try:
            scale = float(raw.get("scale", 1.0))
            if scale <= 0:
                raise TemplateSetError(f"{source}: scale must be positive")
            movement: dict[str, MovementSpec] = {}
            for tid, spec in raw["movement"].items():
                segs = []
                for s in spec["segments"]:
                    if "straight" in s:
                        segs.append(Segment(length=float(s["straight"])))
                    else:
                        segs.append(Segment(angle=float(s["arc"]), radius=float(s["radius"])))
                ms = MovementSpec(str(tid), tuple(segs), 0.0)
                se = float(spec.get("slide_exit", 1.0))
                exit_at = se * ms.length if se <= 1.0 else se
                side = str(spec.get("slide_side", "")) or _default_slide_side(ms, exit_at)
                if side not in ("end", "left", "right"):
                    raise TemplateSetError(
                        f"{source}: template {tid}: slide_side must be end, left or right"
                    )
                movement[str(tid)] = replace(ms, slide_exit=exit_at, slide_side=side)
            ts = TemplateSet(
                name=str(raw.get("name", source)),
                width=float(raw["width"]),
                movement=movement,
                slide_length=float(raw["slide"]["length"]),
                slide_width=float(raw["slide"]["width"]),
                bursts={
                    str(k): (float(v["length"]), float(v["width"]))
                    for k, v in raw["bursts"].items()
                },
                ranges={str(k): float(v) for k, v in raw["ranges"].items()},
                footprints={
                    str(k): (float(v[0]), float(v[1])) for k, v in raw.get("footprints", {}).items()
                },
                vehicle_types={
                    str(k): str(v) for k, v in (raw.get("vehicle_types") or {}).items()
                },
            )
            for vtype, key in ts.vehicle_types.items():
                if key not in ts.footprints:
                    raise TemplateSetError(
                        f"{source}: vehicle type {vtype} names unknown footprint {key!r}"
                    )
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            if isinstance(e, TemplateSetError):
                raise
            raise TemplateSetError(f"{source}: malformed template set ({e!r})") from e
        return ts.scaled(scale) if scale != 1.0 else ts

    @staticmethod
    def from_file(path: str | Path) -> TemplateSet:
        p = Path(path)
        return TemplateSet.from_mapping(yaml.safe_load(p.read_text(encoding="utf-8")), str(p))

    def scaled(self, factor: float) -> TemplateSet:
        """Every length multiplied by ``factor`` (angles unchanged)."""
        if factor <= 0:
            raise TemplateSetError("scale factor must be positive")

        def seg(s: Segment) -> Segment:
            return Segment(
                length=s.length * factor,
                angle=s.angle,
                radius=None if s.radius is None else s.radius * factor,
            )

        return TemplateSet(
            name=self.name,
            width=self.width * factor,
            movement={
                k: MovementSpec(
                    m.id, tuple(seg(s) for s in m.segments), m.slide_exit * factor, m.slide_side
                )
                for k, m in self.movement.items()
            },
            slide_length=self.slide_length * factor,
            slide_width=self.slide_width * factor,
            bursts={k: (a * factor, b * factor) for k, (a, b) in self.bursts.items()},
            ranges={k: v * factor for k, v in self.ranges.items()},
            footprints={k: (a * factor, b * factor) for k, (a, b) in self.footprints.items()},
            scale=self.scale * factor,
            vehicle_types=dict(self.vehicle_types),
            slide_as=self.slide_as,
            slide_mirror=self.slide_mirror,
        )


def _default_slide_side(ms: MovementSpec, exit_at: float) -> str:
    """Straights slide off the far end (p.16); curves off the outer edge of the arc that holds
    the slide exit point (a right-turning arc's outer edge is its left)."""
    if ms.is_straight:
        return "end"
    s0 = 0.0
    chosen: Segment | None = None
    for sg in ms.segments:
        s1 = s0 + sg.arc_length
        if sg.is_arc and (chosen is None or s0 < exit_at):
            chosen = sg
        if exit_at <= s1 and chosen is not None:
            break
        s0 = s1
    assert chosen is not None
    return "left" if chosen.angle > 0 else "right"


@cache
def default_template_set() -> TemplateSet:
    """The shipped provisional set at scale 1."""
    text = (resources.files("carnage.geometry") / "data" / "templates.yaml").read_text("utf-8")
    return TemplateSet.from_mapping(yaml.safe_load(text), "templates.yaml")
