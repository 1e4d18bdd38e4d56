"""The whole memory of a Devil's Run game as plain data.

The flow (``game.py``) is a state machine driven by ``GameState.phase``; nothing lives in Python
frames or generators, so a deep copy of this object (plus the dice) is a complete clone, and
``to_doc``/``from_doc`` give the JSON snapshot.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

from carnage.games.devilsrun.data import Square

RUNNING = "running"
WRECK = "wreck"
WIPED_OUT = "wiped_out"
REMOVED = "removed"
"""Left behind when the back tile was recycled (DRR-1)."""
DESTROYED = "destroyed"
RESERVE = "reserve"
"""Not yet deployed."""


@dataclass
class VehicleState:
    id: str
    player: int
    gang: str
    key: str
    cp: int
    status: str = RESERVE
    pos: Square | None = None
    """The primary (front) square; other squares trail behind it (DR-016)."""
    no_repair: bool = False
    """Wrecked on an impassable feature: may never Repair (DR-098)."""
    missed_stash: bool = False
    carrying: bool = False


@dataclass
class TileState:
    name: str
    origin: int
    """World row of the tile's row 0."""
    placed: int
    """Placement sequence: 0, 1, 2 at setup, then 3, 4, ... as tiles are recycled."""


@dataclass
class StashState:
    status: str = "waiting"
    """``waiting`` (not arrived yet), ``placed``, ``carried``, ``gone`` (re-enters on the next
    new tile), ``reenter`` (a new tile was placed: it is placed before the next activation)."""
    pos: Square | None = None
    carrier: str | None = None
    pickup_tile: int = -1
    """Placement sequence of the tile the carrier was on when it picked the stash up."""
    chooser: int | None = None


@dataclass
class Activation:
    vid: str
    action: str = ""
    special: bool = False
    """Spent both action points on its move (offensive move declared)."""
    dice: list[int] = field(default_factory=list)
    d3: int = 0
    allowance: int = 0
    min_required: int = 0
    spent: int = 0
    moved: int = 0
    lost_mm: bool = False
    target: str | None = None
    target_square: int = 0
    path: list[Square] = field(default_factory=list)
    """Step vectors of the planned offensive move; the last one enters the target's square."""
    push: Square = (0, 0)
    straight: Square = (0, 0)
    evade_squares: list[Square] = field(default_factory=list)
    weapon: int = 0
    repair_sixes: int = 0


@dataclass
class GameState:
    mission: str
    gangs: list[str]
    """Gang key of player 0 and player 1."""
    phase: str = "setup"
    turn: int = 0
    vehicles: dict[str, VehicleState] = field(default_factory=dict)
    tiles: list[TileState] = field(default_factory=list)
    next_tile: int = 3
    stash: StashState = field(default_factory=StashState)
    rolloff_winner: int = 0
    sides: dict[str, str] = field(default_factory=dict)
    """Player (as a string key) -> ``letters`` or ``numbers``."""
    deploy_player: int = 0
    first_player: int = 0
    to_act: int = 0
    activated: list[str] = field(default_factory=list)
    act: Activation | None = None
    collected: list[int] = field(default_factory=lambda: [0, 0])
    outcome: dict[str, Any] | None = None

    def to_doc(self) -> dict[str, Any]:
        return asdict(self)

    def copy(self) -> GameState:
        """An independent copy (every field is plain data, so this is the whole game)."""
        new = copy.copy(self)
        new.vehicles = {k: copy.copy(v) for k, v in self.vehicles.items()}
        new.tiles = [copy.copy(t) for t in self.tiles]
        new.stash = copy.copy(self.stash)
        new.sides = dict(self.sides)
        new.activated = list(self.activated)
        new.collected = list(self.collected)
        new.outcome = None if self.outcome is None else copy.deepcopy(self.outcome)
        if self.act is not None:
            a = copy.copy(self.act)
            a.dice, a.path, a.evade_squares = list(a.dice), list(a.path), list(a.evade_squares)
            new.act = a
        return new

    @staticmethod
    def from_doc(doc: dict[str, Any]) -> GameState:
        def sq(v: Any) -> Square | None:
            return None if v is None else (int(v[0]), int(v[1]))

        def sq2(v: Any) -> Square:
            return (int(v[0]), int(v[1]))

        vehicles = {}
        for k, v in doc["vehicles"].items():
            v = dict(v)
            v["pos"] = sq(v["pos"])
            vehicles[k] = VehicleState(**v)
        stash = dict(doc["stash"])
        stash["pos"] = sq(stash["pos"])
        act = None
        if doc["act"] is not None:
            a = dict(doc["act"])
            a["path"] = [sq2(p) for p in a["path"]]
            a["push"] = sq2(a["push"])
            a["straight"] = sq2(a["straight"])
            a["evade_squares"] = [sq2(p) for p in a["evade_squares"]]
            act = Activation(**a)
        return GameState(
            mission=doc["mission"],
            gangs=list(doc["gangs"]),
            phase=doc["phase"],
            turn=int(doc["turn"]),
            vehicles=vehicles,
            tiles=[TileState(**t) for t in doc["tiles"]],
            next_tile=int(doc["next_tile"]),
            stash=StashState(**stash),
            rolloff_winner=int(doc["rolloff_winner"]),
            sides=dict(doc["sides"]),
            deploy_player=int(doc["deploy_player"]),
            first_player=int(doc["first_player"]),
            to_act=int(doc["to_act"]),
            activated=list(doc["activated"]),
            act=act,
            collected=list(doc["collected"]),
            outcome=doc["outcome"],
        )
