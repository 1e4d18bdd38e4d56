"""Devil's Run catalogue: statlines, weapons, arc grids and missions, loaded from ``data/``.

Everything the book prints (and every reconstruction of what its text layer lost) lives in the
YAML files beside this module; this module only parses and checks them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

Square = tuple[int, int]
"""A square on the road: (x across the road 0..7, y along the road, forward = +1)."""


@dataclass(frozen=True)
class Weapon:
    key: str
    name: str
    range: int
    rof: int
    flamer: bool


@dataclass(frozen=True)
class Mount:
    slot: str
    """``driver`` fires with BS1, ``gunner`` with BS2 (DR-056)."""
    weapon: Weapon


@dataclass(frozen=True)
class VehicleType:
    gang: str
    key: str
    type: str
    mm: int
    cp: int
    a: int
    e: int
    bs1: int
    bs2: int | None
    footprint: int
    mounts: tuple[Mount, ...]
    skills: tuple[str, ...]

    def bs(self, slot: str) -> int:
        if slot == "driver":
            return self.bs1
        if self.bs2 is None:
            raise ValueError(f"{self.gang} {self.key} has no gunner")
        return self.bs2


@dataclass(frozen=True)
class Gang:
    key: str
    name: str
    short: str
    vehicles: dict[str, VehicleType]


@dataclass(frozen=True)
class ArcGrid:
    """BS modifiers by offset (dx, dy) from the shooter's primary square; absent = out of arc."""

    cells: dict[Square, int]
    secondary: frozenset[Square]

    def modifier(self, dx: int, dy: int) -> int | None:
        return self.cells.get((dx, dy))


@dataclass(frozen=True)
class TileLayout:
    name: str
    debris: frozenset[Square]
    impassable: frozenset[Square]
    deploy: dict[str, Square]
    """Deployment label (``A``..``D``, ``1``..``4``) -> tile-local square (x, row)."""


@dataclass(frozen=True)
class Mission:
    key: str
    name: str
    lines: str
    description: str
    turns: int
    gangs: dict[str, tuple[str, ...]]
    tiles: tuple[TileLayout, ...]
    stash_arrival: dict[int, int]
    stash_squares: tuple[Square, ...]
    pickup_bonus: int
    disengage: dict[int, int]


def _load(name: str) -> Any:
    text = resources.files("carnage.games.devilsrun").joinpath("data", name).read_text("utf-8")
    return yaml.safe_load(text)


def _sq(raw: Any) -> Square:
    x, y = raw
    return (int(x), int(y))


@cache
def weapons() -> dict[str, Weapon]:
    raw = _load("vehicles.yaml")["weapons"]
    return {
        k: Weapon(k, str(v["name"]), int(v["range"]), int(v["rof"]), bool(v["flamer"]))
        for k, v in raw.items()
    }


@cache
def gangs() -> dict[str, Gang]:
    raw = _load("vehicles.yaml")["gangs"]
    ws = weapons()
    out: dict[str, Gang] = {}
    for gk, g in raw.items():
        vts: dict[str, VehicleType] = {}
        for vk, v in g["vehicles"].items():
            mounts = tuple(Mount(str(m["slot"]), ws[str(m["weapon"])]) for m in v["weapons"])
            vts[vk] = VehicleType(
                gang=gk, key=vk, type=str(v["type"]), mm=int(v["mm"]), cp=int(v["cp"]),
                a=int(v["a"]), e=int(v["e"]), bs1=int(v["bs1"]),
                bs2=None if v["bs2"] is None else int(v["bs2"]),
                footprint=int(v["footprint"]), mounts=mounts,
                skills=tuple(str(s) for s in v["skills"]),
            )
        out[gk] = Gang(gk, str(g["name"]), str(g["short"]), vts)
    return out


@cache
def skills() -> dict[str, str]:
    return {str(k): str(v) for k, v in _load("vehicles.yaml")["skills"].items()}


@cache
def arcs() -> dict[str, ArcGrid]:
    raw = _load("arcs.yaml")["grids"]
    out: dict[str, ArcGrid] = {}
    for key, g in raw.items():
        cells: dict[Square, int] = {}
        secondary: set[Square] = set()
        top = int(g["top_dy"])
        for r, row in enumerate(g["rows"]):
            toks = str(row).split()
            if len(toks) != 9:
                raise ValueError(f"arcs.yaml {key} row {r + 1}: expected 9 cells, got {len(toks)}")
            for c, tok in enumerate(toks):
                if tok in (".", "X", "G"):
                    continue
                off = (c - 4, top - r)
                if tok.endswith("s"):
                    secondary.add(off)
                    tok = tok[:-1]
                cells[off] = int(tok)
        out[str(key)] = ArcGrid(cells, frozenset(secondary))
    return out


@cache
def missions() -> dict[str, Mission]:
    raw = _load("missions.yaml")["missions"]
    out: dict[str, Mission] = {}
    for mk, m in raw.items():
        tiles = tuple(
            TileLayout(
                name=str(t["name"]),
                debris=frozenset(_sq(s) for s in t["debris"]),
                impassable=frozenset(_sq(s) for s in t["impassable"]),
                deploy={str(k): _sq(v) for k, v in t["deploy"].items()},
            )
            for t in m["tiles"]
        )
        stash = m.get("stash") or {}
        out[mk] = Mission(
            key=mk, name=str(m["name"]), lines=str(m["lines"]),
            description=str(m["description"]), turns=int(m["turns"]),
            gangs={str(k): tuple(str(x) for x in v) for k, v in m["gangs"].items()},
            tiles=tiles,
            stash_arrival={int(k): int(v) for k, v in (stash.get("arrival") or {}).items()},
            stash_squares=tuple(_sq(s) for s in stash.get("squares", [])),
            pickup_bonus=int(stash.get("pickup_evade_bonus", 0)),
            disengage={int(k): int(v) for k, v in (m.get("disengage") or {}).items()},
        )
    return out


TILE = 8
"""Each road tile is 8 x 8 squares (DR-007)."""


@cache
def rule_index() -> dict[str, dict[str, str]]:
    """Every id an event may cite (``DR-nnn`` rules, ``DRR-n`` rulings) -> its seed lines, its
    name, a one-line statement in our words and whether it is a ruling of ours ("yes" or ""),
    for explaining the log."""
    out: dict[str, dict[str, str]] = {}
    for k, v in _load("rules.yaml")["rules"].items():
        out[str(k)] = {"lines": str(v["lines"]), "text": str(v["rule"]), "name": str(v["name"]),
                       "ruling": ""}
    for r in _load("rulings.yaml")["rulings"]:
        out[str(r["id"])] = {"lines": str(r["lines"]), "text": str(r["ruling"]),
                             "name": str(r["name"]), "ruling": "yes"}
    return out
