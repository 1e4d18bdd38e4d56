"""Game state: vehicles, obstacles, surfaces, table, round counters (Refuelled pp.14-62).

Mutable dataclasses owned by a ``Game``, compiled with mypyc where a build is at hand
(``carnage/compiled.py``); ``FIELD_TYPES`` declares their fields' types for the snapshot's
type check (a compiled dataclass keeps only erased annotations at run time). Base stats
come from the team builder; values that rules may modify (handling, max gear, crew ...) are
read through the game's effects (``Game.stat``), never written back here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from carnage.catalog.models import Weight
from carnage.geometry.movement import trailer_behind
from carnage.geometry.shapes import Point, Pose, Rect
from carnage.geometry.surfaces import Surface
from carnage.kernel.base_state import KernelState
from carnage.kernel.validate import declare_field_types

WEIGHT_CLASS = {Weight.LIGHTWEIGHT: 1, Weight.MIDDLEWEIGHT: 2, Weight.HEAVYWEIGHT: 3}


class Status(StrEnum):
    ACTIVE = "active"
    WRECKED = "wrecked"
    """Left on the table as a wreck (an obstacle); no longer a vehicle (p.43)."""
    REMOVED = "removed"
    """Exploded or removed by Twisted Metal (p.44)."""
    DISQUALIFIED = "disqualified"
    """Left the table (p.87): not wrecked."""
    EXITED = "exited"
    """Left by an exit edge the scenario names (Express Delivery p.137): off this table,
    neither wrecked nor disqualified, perhaps coming back on the next."""


@dataclass
class WeaponMount:
    """One weapon on a vehicle: ``key`` is unique on the vehicle (e.g. ``machine_gun#0``)."""

    key: str
    weapon: str
    facing: str | None
    ammo: int | None = None
    part: str | None = None
    """``trailer`` for a weapon on an articulated vehicle's trailer; None: on the cab (p.117)."""


@dataclass
class UpgradeMount:
    """One fitted upgrade with its facing (Ram, Exploding Ram, p.84) and ammo tokens (Nitro
    Booster, Exploding Ram); ``key`` is unique on the vehicle (e.g. ``ram#1``)."""

    key: str
    upgrade: str
    facing: str | None = None
    ammo: int | None = None


TRAILER_PART = "/trailer"
"""Suffix of the obstruction id standing for an articulated vehicle's trailer (p.117)."""


@dataclass
class Trailer:
    """The trailer of an articulated vehicle (War Rig p.117, trailers p.102): a second body
    whose front edge centre sits on the hitch, the centre of the cab's rear edge. It is kept
    relative to the cab (``hinge``: its heading minus the cab's, degrees), so whatever moves
    the cab takes the trailer along."""

    length: float
    width: float
    hinge: float = 0.0

    def rect(self, cab: Rect) -> Rect:
        return trailer_behind(cab, self.length, self.width, self.hinge)


def body_owner(oid: str) -> str:
    """The vehicle id behind an obstruction id (a trailer's id names its vehicle)."""
    return oid[: -len(TRAILER_PART)] if oid.endswith(TRAILER_PART) else oid


@dataclass
class VehicleState:
    id: str
    name: str
    player: int
    type: str
    weight: Weight
    hull: int
    handling: int
    max_gear: int
    crew: int
    length: float
    width: float
    pose: Pose
    weapons: list[WeaponMount] = field(default_factory=list)
    upgrades: list[str] = field(default_factory=list)
    fitted: list[UpgradeMount] = field(default_factory=list)
    """The upgrades with their facings and ammo, from the team file (ids stay in ``upgrades``)."""
    perks: list[str] = field(default_factory=list)
    special_rules: list[str] = field(default_factory=list)
    gear: int = 1
    hazards: int = 0
    damage: int = 0
    status: Status = Status.ACTIVE
    activated_phases: set[int] = field(default_factory=set)
    reversing: bool = False
    """Currently or most recently moved in Reverse (p.53)."""
    trailer: Trailer | None = None
    """An articulated vehicle's trailer (rules/war_rig.py); None for every other vehicle."""
    conditions: dict[str, int] = field(default_factory=dict)
    """Conditions rules put on the vehicle for a while, by name (e.g. ``on_fire``, p.81; see
    rules/weapons.py); absent means not in effect."""
    summoned_by: str | None = None
    """The vehicle that put this one on the table (an RC Car, p.79): its controller plays it,
    but it is not part of the team (scenarios, Audience Votes and perks ignore it)."""
    neutral: bool = False
    """Belongs to no player (a scenario's creature or Truckasaurus, pp.143, 152): ``player``
    is whoever the rules make its controller at the moment; it is never part of a team and
    is never offered as a player's activation."""

    @property
    def in_team(self) -> bool:
        return self.summoned_by is None and not self.neutral

    @property
    def hull_points(self) -> int:
        return max(0, self.hull - self.damage)

    @property
    def in_play(self) -> bool:
        return self.status is Status.ACTIVE

    @property
    def skidding_to_a_halt(self) -> bool:
        """Down to 0 Hull Points with its wreck sequence under way (p.43): still on the table
        for its forced Short Straight, its collisions and its explosion check."""
        return self.status is Status.ACTIVE and self.hull_points == 0

    @property
    def in_contention(self) -> bool:
        """May this vehicle act for a scenario now: score, pass gates, cross lines, pick up,
        bank or hold objectives (ruling SC-44)? In play and not skidding to a halt: a wreck's
        skid still collides (p.44), but it no longer races, scores or carries anything.
        Every scenario asks this one question."""
        return self.status is Status.ACTIVE and self.hull_points > 0

    def rect(self) -> Rect:
        return Rect(self.pose, self.length, self.width)

    def polygon(self) -> list[Point]:
        return Rect(self.pose, self.length, self.width).polygon()

    def bodies(self) -> list[tuple[str, Rect]]:
        """Every body on the table with its obstruction id: the vehicle, then its trailer."""
        cab = Rect(self.pose, self.length, self.width)
        out = [(self.id, cab)]
        if self.trailer is not None:
            out.append((self.id + TRAILER_PART, self.trailer.rect(cab)))
        return out

    def trailer_rect(self) -> Rect | None:
        return None if self.trailer is None else self.trailer.rect(self.rect())


@dataclass
class Obstacle:
    """Terrain or a wreck (p.44, p.87). ``length`` runs along ``pose.heading``."""

    id: str
    pose: Pose
    length: float
    width: float
    weight: Weight = Weight.HEAVYWEIGHT
    tall: bool = False
    destructible: bool = False
    volatile: bool = False
    wreck_of: str | None = None
    hull: int | None = None
    """Hull Points of an obstacle that may be shot at (a Sentry Gun has 2, p.80); None: none."""
    damage: int = 0
    placed_by: str | None = None
    """The vehicle that put it on the table (Sentry Gun, p.80; a dumped wreck, p.75)."""

    def polygon(self) -> list[Point]:
        return Rect(self.pose, self.length, self.width).polygon()


@dataclass
class Ramp:
    """A ramp (p.87): a rectangle driven up from its entry edge, which is its rear
    edge (``pose.heading`` points up the ramp). Not an obstruction: reaching any other edge
    during a Movement Step makes the vehicle jump or tumble (engine/terrain.py)."""

    id: str
    pose: Pose
    length: float
    width: float

    def __post_init__(self) -> None:
        if not (self.length > 0 and self.width > 0):
            raise ValueError(f"ramp {self.id!r}: length and width must be positive")

    def rect(self) -> Rect:
        return Rect(self.pose, self.length, self.width)

    def polygon(self) -> list[Point]:
        return self.rect().polygon()


@dataclass
class TableTemplate:
    """A dropped weapon template left on the table (pp.78-80): a shooting template laid at
    ``pose`` (its origin, the tip of a burst, and its facing). ``kind`` names what it does
    (the dropped weapon's id); ``layer`` orders a stack, higher lying on top."""

    id: str
    kind: str
    template: str
    pose: Pose
    polygon: tuple[Point, ...]
    layer: int
    placed_by: str | None = None
    player: int | None = None


@dataclass
class FlowPosition:
    """Where the flow of play stands between decisions, so that it can resume from the state
    (engine/flow.py): ``setup`` (before deployment), ``round`` (a round is to begin), ``phase``
    (the next Gear Phase is to begin) or ``turns`` (``turn``'s chance to act in the current
    Gear Phase, after ``passes`` players in a row passed)."""

    stage: str = "setup"
    turn: int = 0
    passes: int = 0


@dataclass
class GameState(KernelState):
    width: float
    height: float
    players: int
    vehicles: dict[str, VehicleState] = field(default_factory=dict)
    obstacles: dict[str, Obstacle] = field(default_factory=dict)
    surfaces: dict[str, Surface] = field(default_factory=dict)
    ramps: dict[str, Ramp] = field(default_factory=dict)  # p.87, engine/terrain.py
    dropped: dict[str, TableTemplate] = field(default_factory=dict)
    """Dropped weapon templates on the table, in placement order (pp.78-80;
    engine/hazards_on_table.py)."""
    round: int = 0
    gear_phase: int = 0
    pole: int = 0
    active: str | None = None
    step: str | None = None
    """The active vehicle's step: ``movement``, ``attack`` or ``wipeout`` (None between
    activations); for rules that act "during the ... Step" (e.g. Cattle-Hammer, p.103)."""
    votes: list[int] = field(default_factory=list)
    sponsors: list[str | None] = field(default_factory=list)
    """Each player's sponsor id (None: no sponsor); sponsor effects install from this."""
    winner: int | None = None
    finished: bool = False
    draw: bool = False
    reason: str = ""
    """Why the game ended (empty while it runs)."""
    flow: FlowPosition = field(default_factory=FlowPosition)
    scenario: dict[str, Any] = field(default_factory=dict)
    """The scenario's progress (who crossed the line, where vehicles were last seen ...)."""
    templates: dict[str, Any] = field(default_factory=dict)
    """Seats' own movement template sets (str(seat) -> a team template set in its JSON form,
    carnage/geometry/team_templates.py); a seat not here moves with the standard templates
    (engine/team_templates.py)."""

    def __post_init__(self) -> None:
        if not self.votes:
            self.votes = [0] * self.players
        if not self.sponsors:
            self.sponsors = [None] * self.players

    def vehicles_of(self, player: int) -> list[VehicleState]:
        return [v for v in self.vehicles.values()
                if v.player == player and v.status is Status.ACTIVE and not v.neutral]

    def in_play(self) -> list[VehicleState]:
        # ``v.in_play`` read in line: this list is asked for thousands of times a game
        return [v for v in self.vehicles.values() if v.status is Status.ACTIVE]

    def clockwise_from(self, player: int) -> list[int]:
        """Players in clockwise order starting with ``player`` (seat order = clockwise)."""
        return [(player + i) % self.players for i in range(self.players)]


FIELD_TYPES: dict[type, dict[str, Any]] = {
    WeaponMount: {"key": str, "weapon": str, "facing": str | None, "ammo": int | None,
                  "part": str | None},
    UpgradeMount: {"key": str, "upgrade": str, "facing": str | None, "ammo": int | None},
    Trailer: {"length": float, "width": float, "hinge": float},
    VehicleState: {
        "id": str, "name": str, "player": int, "type": str, "weight": Weight, "hull": int,
        "handling": int, "max_gear": int, "crew": int, "length": float, "width": float,
        "pose": Pose, "weapons": list[WeaponMount], "upgrades": list[str],
        "fitted": list[UpgradeMount], "perks": list[str], "special_rules": list[str],
        "gear": int, "hazards": int, "damage": int, "status": Status,
        "activated_phases": set[int], "reversing": bool, "trailer": Trailer | None,
        "conditions": dict[str, int], "summoned_by": str | None, "neutral": bool,
    },
    Obstacle: {
        "id": str, "pose": Pose, "length": float, "width": float, "weight": Weight,
        "tall": bool, "destructible": bool, "volatile": bool, "wreck_of": str | None,
        "hull": int | None, "damage": int, "placed_by": str | None,
    },
    Ramp: {"id": str, "pose": Pose, "length": float, "width": float},
    TableTemplate: {
        "id": str, "kind": str, "template": str, "pose": Pose, "polygon": tuple[Point, ...],
        "layer": int, "placed_by": str | None, "player": int | None,
    },
    FlowPosition: {"stage": str, "turn": int, "passes": int},
    GameState: {
        "width": float, "height": float, "players": int,
        "vehicles": dict[str, VehicleState], "obstacles": dict[str, Obstacle],
        "surfaces": dict[str, Surface], "ramps": dict[str, Ramp],
        "dropped": dict[str, TableTemplate], "round": int, "gear_phase": int, "pole": int,
        "active": str | None, "step": str | None, "votes": list[int],
        "sponsors": list[str | None], "winner": int | None, "finished": bool, "draw": bool,
        "reason": str, "flow": FlowPosition, "scenario": dict[str, Any],
        "templates": dict[str, Any],
    },
}
"""Each class's own fields' types, as annotated above: the snapshot's type check reads them
(``validate.field_types``); ``tests/kernel/test_field_types.py`` checks them against the
annotations."""

declare_field_types(FIELD_TYPES)
