"""Table set-up: a scenario's seeded generator, or a table laid out by hand (G-01, G-05).

**Generated tables.** ``TableScenario.generate(state, rng)`` lays out the terrain from ``rng``,
a ``random.Random`` seeded with ``table_rng(seed)``, where the seed is ``GameSetup.table_seed``
or, when that is None, the game's dice seed. The seed is stored in
``state.scenario["table_seed"]`` and in the game log's setup, so a replay, a clone or a restored
snapshot has the same table (the terrain is in the state from then on). Generation draws no
dice, so scripted-dice tests need not script the table.

**Tables laid out by hand.** A YAML or JSON layout file (``carnage play/simulate --table
FILE``; ``GameSetup.table``)::

    table: {width: 900, height: 1200}          # optional: the scenario's own size
    obstacles:                                  # centres, mm; heading in degrees
      - {id: rock-1, x: 300, y: 480, length: 90, width: 70, heading: 20,
         weight: heavyweight, tall: false, destructible: false, volatile: false}
    surfaces:
      - {id: oil, kind: treacherous, x: 450, y: 600, length: 120, width: 60, heading: 0}
    ramps:
      - {id: ramp-1, x: 200, y: 900, length: 60, width: 40, heading: 90}

Everything on the table must lie inside it and ids must be unique. ``load_layout`` reads a
file through the guarded parsers (carnage/guard.py: size, depth and node limits) and raises
``LayoutError`` with one line naming the field at fault. A loaded layout replaces the
scenario's terrain (the scenario's own objects: flags, spawn points, gates, stay its own).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from carnage import bounds, guard
from carnage.catalog.models import Weight
from carnage.games.refuelled.engine.state import GameState, Obstacle, Ramp
from carnage.geometry.shapes import Point, Pose, Rect
from carnage.geometry.surfaces import Surface, SurfaceKind

MAX_ITEMS = bounds.MAX_TABLE_ITEMS
"""Obstacles, surfaces or ramps one layout may hold (each; ruling IN-5)."""
MAX_SIZE = bounds.MAX_TABLE_SIZE
"""The largest table side (mm) a layout may ask for (ruling IN-5)."""
LAYOUT = guard.Limits(max_bytes=512 * 1024, max_nodes=20_000)

Coord = Annotated[float, Field(ge=-MAX_SIZE, le=2 * MAX_SIZE, allow_inf_nan=False)]
Size = Annotated[float, Field(gt=0.5, le=MAX_SIZE, allow_inf_nan=False)]
Angle = Annotated[float, Field(ge=-3600.0, le=3600.0, allow_inf_nan=False)]
Id = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[A-Za-z0-9_.:-]+$")]
Flag = Annotated[bool, Field(strict=True)]


class LayoutError(ValueError):
    """A table layout is wrong; the message is one line naming the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableIn(_Strict):
    width: Size
    height: Size


class ObstacleIn(_Strict):
    id: Id
    x: Coord
    y: Coord
    length: Size
    width: Size
    heading: Angle = 0.0
    weight: Literal["lightweight", "middleweight", "heavyweight"] = "heavyweight"
    tall: Flag = False
    destructible: Flag = False
    volatile: Flag = False


class SurfaceIn(_Strict):
    id: Id
    kind: SurfaceKind
    x: Coord
    y: Coord
    length: Size
    width: Size
    heading: Angle = 0.0


class RampIn(_Strict):
    id: Id
    x: Coord
    y: Coord
    length: Size
    width: Size
    heading: Angle = 0.0


class LayoutIn(_Strict):
    table: TableIn | None = None
    obstacles: list[ObstacleIn] = Field(default_factory=list, max_length=MAX_ITEMS)
    surfaces: list[SurfaceIn] = Field(default_factory=list, max_length=MAX_ITEMS)
    ramps: list[RampIn] = Field(default_factory=list, max_length=MAX_ITEMS)


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out or "layout"


def check_layout(raw: Any, where: str = "table layout") -> dict[str, Any]:
    """The layout ``raw`` validated and normalised (JSON values only, defaults filled in);
    ``LayoutError`` on the first problem."""
    if not isinstance(raw, Mapping):
        raise LayoutError(f"{where}: must be a mapping with obstacles, surfaces, ramps")
    try:
        guard.check_tree(raw, LAYOUT, where)
    except guard.InputRefused as e:
        raise LayoutError(str(e)) from None
    try:
        lay = LayoutIn.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        msg = {"missing": "missing field", "extra_forbidden": "unknown field"}.get(
            err["type"], err["msg"])
        raise LayoutError(f"{where}: {_where(tuple(err['loc']))}: {msg}") from None
    seen: set[str] = set()
    for group in ("obstacles", "surfaces", "ramps"):
        for i, item in enumerate(getattr(lay, group)):
            if item.id in seen:
                raise LayoutError(f"{where}: {group}[{i}].id: {item.id!r} is used twice")
            seen.add(item.id)
    out: dict[str, Any] = lay.model_dump(mode="json")
    return out


def load_layout(path: str | Path) -> dict[str, Any]:
    """A layout file (``.json`` as JSON, anything else as YAML) read and validated."""
    try:
        text = guard.read_file(path, LAYOUT.max_bytes, "table layout")
        if Path(path).suffix.lower() == ".json":
            raw = guard.load_json(text, LAYOUT, str(path), "the table layout")
        else:
            raw = guard.load_yaml(text, LAYOUT, str(path), "the table layout")
    except guard.InputRefused as e:
        raise LayoutError(str(e)) from None
    return check_layout(raw, str(path))


def apply_layout(state: GameState, layout: Mapping[str, Any]) -> None:
    """Put a checked layout on ``state``: the table size (if given) and its terrain, replacing
    any terrain already there. ``LayoutError`` if a piece lies off the table."""
    table = layout.get("table")
    if table:
        state.width, state.height = float(table["width"]), float(table["height"])
    state.obstacles.clear()
    state.surfaces.clear()
    state.ramps.clear()
    for i, o in enumerate(layout.get("obstacles", [])):
        pose = Pose(float(o["x"]), float(o["y"]), float(o["heading"]) % 360.0)
        _inside(state, Rect(pose, o["length"], o["width"]), f"obstacles[{i}] ({o['id']})")
        state.obstacles[o["id"]] = Obstacle(
            o["id"], pose, float(o["length"]), float(o["width"]), weight=Weight(o["weight"]),
            tall=o["tall"], destructible=o["destructible"], volatile=o["volatile"])
    for i, s in enumerate(layout.get("surfaces", [])):
        rect = Rect(Pose(float(s["x"]), float(s["y"]), float(s["heading"]) % 360.0),
                    s["length"], s["width"])
        _inside(state, rect, f"surfaces[{i}] ({s['id']})")
        state.surfaces[s["id"]] = Surface(s["id"], SurfaceKind(s["kind"]),
                                          tuple(rect.polygon()))
    for i, r in enumerate(layout.get("ramps", [])):
        pose = Pose(float(r["x"]), float(r["y"]), float(r["heading"]) % 360.0)
        _inside(state, Rect(pose, r["length"], r["width"]), f"ramps[{i}] ({r['id']})")
        state.ramps[r["id"]] = Ramp(r["id"], pose, float(r["length"]), float(r["width"]))


def _inside(state: GameState, rect: Rect, what: str) -> None:
    if not all(-1e-6 <= x <= state.width + 1e-6 and -1e-6 <= y <= state.height + 1e-6
               for x, y in rect.polygon()):
        raise LayoutError(f"table layout: {what} lies partly off the "
                          f"{state.width:.0f} x {state.height:.0f} mm table")


def table_rng(seed: int | str) -> random.Random:
    """The generator a scenario lays its table out with (same seed, same table)."""
    return random.Random(f"carnage-table:{seed}")


PIECES = (
    ("rock", 90.0, 70.0, Weight.HEAVYWEIGHT, False),
    ("rock", 70.0, 70.0, Weight.HEAVYWEIGHT, False),
    ("barrier", 120.0, 20.0, Weight.MIDDLEWEIGHT, False),
    ("crate", 40.0, 40.0, Weight.MIDDLEWEIGHT, True),
)
"""(name, length, width, weight, destructible) of the pieces ``scatter_terrain`` lays."""


def scatter_terrain(state: GameState, rng: random.Random, count: int = 6, *,
                    margin: float = 150.0, gap: float = 60.0,
                    keep_out: Sequence[tuple[Point, float]] = ()) -> list[str]:
    """Arena terrain (a generator helper for ``TableScenario.generate``): up to ``count``
    pieces from ``PIECES`` at random places and headings, each wholly more than ``margin``
    mm from every table edge (so spawn points and deployment stay clear), at least ``gap``
    mm from each other and from every ``keep_out`` (centre, radius). Same ``rng`` state,
    same table. Returns the ids laid."""
    from carnage.geometry.shapes import distance

    placed: list[str] = []
    tries = 0
    while len(placed) < count and tries < count * 40:
        tries += 1
        name, length, width, weight, destructible = PIECES[rng.randrange(len(PIECES))]
        pose = Pose(rng.uniform(margin, state.width - margin),
                    rng.uniform(margin, state.height - margin), float(rng.randrange(0, 180, 15)))
        poly = Rect(pose, length, width).polygon()
        if not all(margin <= x <= state.width - margin and margin <= y <= state.height - margin
                   for x, y in poly):
            continue
        if any(distance(poly, ob.polygon()) < gap for ob in state.obstacles.values()):
            continue
        if any(distance(poly, [c]) < r + gap for c, r in keep_out):
            continue
        oid = f"{name}-{len(placed) + 1}"
        state.obstacles[oid] = Obstacle(oid, pose, length, width, weight=weight,
                                        destructible=destructible)
        placed.append(oid)
    return placed
