"""A table scene: table size, vehicles, obstacles, surfaces and geometry queries.

The JSON format read by ``carnage judge`` (units mm and degrees; positions are centres;
x right, y up, heading counter-clockwise from +x; an obstacle's or surface's ``length``
runs along its heading)::

    {"table": {"width": 900, "height": 900},
     "vehicles": [{"id": "red", "type": "car", "x": 100, "y": 100, "heading": 0}],
     "obstacles": [{"id": "rock", "x": 300, "y": 100, "length": 60, "width": 40,
                    "heading": 0, "weight": "heavyweight", "tall": false,
                    "destructible": false}],
     "surfaces": [{"id": "road", "kind": "road", "x": 450, "y": 100, "length": 900,
                   "width": 120, "heading": 0}],
     "queries": [{"move": {"vehicle": "red", "template": "medium_straight"}}]}

Obstacle ``weight``, ``tall`` and ``destructible`` default to heavyweight, false, false;
everything else shown is required. Query forms are in ``QUERY_KINDS``; each query is
answered on the scene as given (a ``move`` is not applied for the queries after it).
``load_scene`` turns any problem into one ``SceneError`` line naming the field at fault.

Queries and answers::

    {"move": {"vehicle", "template", "mirror": false, "reverse": false,
              "slide": null | "left" | "right", "spin": 0}}
        -> {"pose": {"x", "y", "heading"}, "interrupted": bool, "touched": [ids]}
    {"orientation": {"a", "b", "a_reversing": false, "b_reversing": false}}
        -> {"orientation": "head_on" | "t_bone" | "tailgate" | null}
    {"in_arc": {"vehicle", "target", "arc", "range"}}
        -> {"in_range": bool, "cover": bool, "blocked": bool}
    {"range_band": {"a", "b"}} -> {"band": "short" | "medium" | "long" | "double" | null}
    {"off_table": {"vehicle", "template", "mirror": false, "reverse": false}}
        -> {"off_table": bool}
    {"surfaces": {"vehicle", "template", "mirror", "reverse", "slide", "spin"}}
        -> {"road": bool, "rough": [ids], "treacherous": [ids]}
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from carnage import guard
from carnage.geometry.footprints import body as vehicle_body
from carnage.geometry.shapes import Pose, Rect
from carnage.geometry.surfaces import SurfaceKind
from carnage.geometry.table import Table


class SceneError(ValueError):
    """A scene file or one of its queries is wrong; the message is one line."""


REACH = 1_000_000.0
"""Coordinates, headings and spins beyond this (mm or degrees; a kilometre) are refused:
far beyond any table, and where float arithmetic no longer resolves a millimetre."""
MIN_SIZE = 0.1
"""The smallest length or width (mm) of an obstacle, surface or table: anything thinner has
no area the geometry can resolve."""
MAX_ITEMS = 500
"""Vehicles, obstacles, surfaces or queries one scene may hold (each)."""

Finite = Annotated[float, Field(ge=-REACH, le=REACH, allow_inf_nan=False, strict=True)]
Positive = Annotated[float, Field(ge=MIN_SIZE, le=REACH, allow_inf_nan=False, strict=True)]
Id = Annotated[str, Field(min_length=1, max_length=200)]
Name = Annotated[str, Field(max_length=200)]
Flag = Annotated[bool, Field(strict=True)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableIn(_Strict):
    width: Positive
    height: Positive


class VehicleIn(_Strict):
    id: Id
    type: Name
    x: Finite
    y: Finite
    heading: Finite


class ObstacleIn(_Strict):
    id: Id
    x: Finite
    y: Finite
    length: Positive
    width: Positive
    heading: Finite
    weight: Literal["lightweight", "middleweight", "heavyweight"] = "heavyweight"
    tall: Flag = False
    destructible: Flag = False


class SurfaceIn(_Strict):
    id: Id
    kind: SurfaceKind
    x: Finite
    y: Finite
    length: Positive
    width: Positive
    heading: Finite


class MoveQ(_Strict):
    vehicle: Id
    template: Name
    mirror: Flag = False
    reverse: Flag = False
    slide: Literal["left", "right"] | None = None
    spin: Finite = 0.0


class OrientationQ(_Strict):
    a: Id
    b: Id
    a_reversing: Flag = False
    b_reversing: Flag = False


class InArcQ(_Strict):
    vehicle: Id
    target: Id
    arc: Name
    range: Name


class RangeBandQ(_Strict):
    a: Id
    b: Id


class OffTableQ(_Strict):
    vehicle: Id
    template: Name
    mirror: Flag = False
    reverse: Flag = False


class SurfacesQ(_Strict):
    vehicle: Id
    template: Name
    mirror: Flag = False
    reverse: Flag = False
    slide: Literal["left", "right"] | None = None
    spin: Finite = 0.0


QUERY_KINDS: dict[str, type[_Strict]] = {
    "move": MoveQ,
    "orientation": OrientationQ,
    "in_arc": InArcQ,
    "range_band": RangeBandQ,
    "off_table": OffTableQ,
    "surfaces": SurfacesQ,
}


class SceneIn(_Strict):
    table: TableIn
    vehicles: list[VehicleIn] = Field(default_factory=list, max_length=MAX_ITEMS)
    obstacles: list[ObstacleIn] = Field(default_factory=list, max_length=MAX_ITEMS)
    surfaces: list[SurfaceIn] = Field(default_factory=list, max_length=MAX_ITEMS)
    queries: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_ITEMS)


@dataclass(frozen=True)
class Vehicle:
    id: str
    type: str
    body: Rect


@dataclass(frozen=True)
class Obstacle:
    id: str
    body: Rect
    weight: str
    tall: bool
    destructible: bool


@dataclass(frozen=True)
class SurfacePatch:
    id: str
    kind: SurfaceKind
    body: Rect


@dataclass(frozen=True)
class Query:
    index: int
    kind: str
    args: _Strict


@dataclass(frozen=True)
class Scene:
    table: Table
    vehicles: dict[str, Vehicle]
    obstacles: dict[str, Obstacle]
    surfaces: tuple[SurfacePatch, ...]
    queries: tuple[Query, ...]

    def vehicle(self, vid: str, where: str) -> Vehicle:
        v = self.vehicles.get(vid)
        if v is None:
            what = "an obstacle, not a vehicle" if vid in self.obstacles else "not in the scene"
            raise SceneError(f"{where}: vehicle {vid!r} is {what}")
        return v

    def thing(self, tid: str, where: str) -> Rect:
        """The body of a vehicle or obstacle by id."""
        if tid in self.vehicles:
            return self.vehicles[tid].body
        if tid in self.obstacles:
            return self.obstacles[tid].body
        raise SceneError(f"{where}: {tid!r} is not a vehicle or obstacle in the scene")


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + guard.key_text(part)
    return out or "scene"


def _first_error(e: ValidationError, prefix: str = "") -> str:
    err = e.errors()[0]
    where = _loc(tuple(err["loc"]))
    where = f"{prefix}{'.' if prefix and where != 'scene' else ''}{where}" if prefix else where
    kind = err["type"]
    if kind == "missing":
        return f"{where}: missing field"
    if kind == "extra_forbidden":
        return f"{where}: unknown field"
    return f"{where}: {err['msg']}"


def _rect(x: float, y: float, heading: float, length: float, width: float) -> Rect:
    return Rect(Pose(float(x), float(y), float(heading) % 360.0), float(length), float(width))


def load_scene(raw: Any) -> Scene:
    """Validate a decoded scene; ``SceneError`` with one line on the first problem."""
    if not isinstance(raw, Mapping):
        raise SceneError("scene: must be a JSON object")
    try:
        guard.check_tree(raw, guard.SCENE, "scene")
    except guard.InputRefused as e:
        raise SceneError(str(e)) from None
    try:
        sc = SceneIn.model_validate(raw)
    except ValidationError as e:
        raise SceneError(_first_error(e)) from None
    seen: dict[str, str] = {}
    vehicles: dict[str, Vehicle] = {}
    for i, v in enumerate(sc.vehicles):
        where = f"vehicles[{i}]"
        if v.id in seen:
            raise SceneError(f"{where}: id {v.id!r} is already used by {seen[v.id]}")
        seen[v.id] = where
        try:
            b = vehicle_body(v.type, Pose(v.x, v.y, v.heading % 360.0))
        except ValueError as e:
            raise SceneError(f"{where}.type: {e}") from None
        vehicles[v.id] = Vehicle(v.id, v.type, b)
    obstacles: dict[str, Obstacle] = {}
    for i, o in enumerate(sc.obstacles):
        where = f"obstacles[{i}]"
        if o.id in seen:
            raise SceneError(f"{where}: id {o.id!r} is already used by {seen[o.id]}")
        seen[o.id] = where
        obstacles[o.id] = Obstacle(
            o.id, _rect(o.x, o.y, o.heading, o.length, o.width), o.weight, o.tall, o.destructible
        )
    surfaces = []
    sids: set[str] = set()
    for i, s in enumerate(sc.surfaces):
        if s.id in sids:
            raise SceneError(f"surfaces[{i}]: id {s.id!r} is already used by another surface")
        sids.add(s.id)
        surfaces.append(SurfacePatch(s.id, s.kind, _rect(s.x, s.y, s.heading, s.length, s.width)))
    queries = []
    for i, q in enumerate(sc.queries):
        where = f"queries[{i}]"
        if len(q) != 1:
            raise SceneError(
                f"{where}: a query is an object with exactly one key "
                f"(one of {', '.join(QUERY_KINDS)})"
            )
        ((kind, body),) = q.items()
        model = QUERY_KINDS.get(kind)
        if model is None:
            raise SceneError(f"{where}: unknown query {kind!r} (known: {', '.join(QUERY_KINDS)})")
        if not isinstance(body, Mapping):
            raise SceneError(f"{where}.{kind}: must be an object")
        try:
            args = model.model_validate(body)
        except ValidationError as e:
            raise SceneError(_first_error(e, f"{where}.{kind}")) from None
        queries.append(Query(i, kind, args))
    table = Table(float(sc.table.width), float(sc.table.height))
    scene = Scene(table, vehicles, obstacles, tuple(surfaces), tuple(queries))
    for qq in scene.queries:
        for field in ("vehicle", "target", "a", "b"):
            ref = getattr(qq.args, field, None)
            if ref is None:
                continue
            where = f"queries[{qq.index}].{qq.kind}.{field}"
            if field == "vehicle" or (qq.kind == "orientation" and field == "a"):
                scene.vehicle(ref, where)
            else:
                scene.thing(ref, where)
    return scene


def read_scene(path: str | Path) -> Scene:
    """Read and validate a scene JSON file (``SceneError`` on any problem). The file goes
    through the guarded reader first: regular files only, size, depth and number limits."""
    try:
        raw = guard.read_scene_data(path)
    except guard.InputRefused as e:
        raise SceneError(str(e)) from None
    return load_scene(raw)


def finite(x: float) -> float:
    """A float fit for JSON output: rounded to 0.1 µm, no negative zero."""
    if not math.isfinite(x):
        raise SceneError("internal: non-finite result")
    r = round(x, 4)
    return 0.0 if r == 0 else r
