"""A restored Refuelled state's invariants (the Kart variant and Legacy share them): the
``check_state`` of the Refuelled family's rulesets (``kernel/ruleset.py``).

The kernel has already checked every field's type against ``GameState`` (kernel/validate.py);
this pass checks what types cannot say, so that a game restored from a tampered or damaged
snapshot is refused with the field named instead of crashing on a later legal ``apply``:

* the player count fits the scenario, and each per-seat list has one entry per seat;
* the table has a sane size; every pose (vehicles, obstacles, ramps, dropped templates) is
  finite and on or near it (vehicles waiting to deploy are parked just off the table);
* each vehicle's numbers are in their ranges (gear 1..max gear, hull, handling, crew ...),
  its weapons and upgrades exist in the ruleset's catalogue, its seat exists;
* the flow's position names a stage it can resume from, a seat, an existing vehicle;
* the scenario's options are the ones the configuration's scenario takes (a Death Race
  configuration on a Street Race state has the wrong options), and the scenario may add
  its own check (``check_snapshot``).
"""

from __future__ import annotations

from typing import Any

from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.geometry.shapes import Pose
from carnage.kernel.validate import Invalid, check_value, key_path, one_of, within

MAX_SEATS = 8
"""The most players a game may have (as the guarded inputs allow, carnage/guard.py)."""
MAX_TABLE = 20_000.0
"""Largest table side, mm (a table laid out by hand is at most 5,000 mm)."""
OFF_TABLE = 10_000.0
"""How far off the table a pose may lie (vehicles wait to deploy a little off it)."""
MAX_GEAR = 6
MAX_HULL = 100
MAX_STAT = 20
"""Largest handling, crew or hazard count a vehicle may hold."""
MAX_BODY = 1_000.0
"""Largest vehicle or obstacle side, mm."""
STAGES = ("setup", "round", "phase", "turns")
STEPS = (None, "movement", "attack", "wipeout")


def check_refuelled_state(game: Any, state: GameState) -> None:
    """``Invalid`` naming the first field of ``state`` that a game of ``game``'s ruleset and
    scenario cannot be built on."""
    scenario = game.scenario
    catalog = game.ruleset.catalog
    n = state.players
    low = int(getattr(scenario, "min_players", 2) or 2)
    high = getattr(scenario, "max_players", None)
    top = MAX_SEATS if high is None else min(int(high), MAX_SEATS)
    within(n, low, top, "state.players", f"{scenario.name} takes {low}..{top} players:")
    within(state.width, 1.0, MAX_TABLE, "state.width")
    within(state.height, 1.0, MAX_TABLE, "state.height")
    if len(state.votes) != n:
        raise Invalid("state.votes", f"one count per player ({n}), not {len(state.votes)}")
    for i, count in enumerate(state.votes):
        within(count, 0, 1000, f"state.votes[{i}]")
    if len(state.sponsors) != n:
        raise Invalid("state.sponsors", f"one per player ({n}), not {len(state.sponsors)}")
    for i, sp in enumerate(state.sponsors):
        if sp is not None and sp not in catalog.sponsors.records:
            raise Invalid(f"state.sponsors[{i}]", f"no sponsor {sp!r} in {game.ruleset.title}")
    seats = range(n)
    within(state.round, 0, 100_000, "state.round")
    within(state.gear_phase, 0, MAX_GEAR + 1, "state.gear_phase")
    one_of(state.pole, seats, "state.pole")
    if state.winner is not None:
        one_of(state.winner, seats, "state.winner")
    fl = state.flow
    one_of(fl.stage, STAGES, "state.flow.stage")
    one_of(fl.turn, seats, "state.flow.turn")
    within(fl.passes, 0, n, "state.flow.passes")
    one_of(state.step, STEPS, "state.step")
    if state.active is not None and state.active not in state.vehicles:
        raise Invalid("state.active", f"no vehicle {state.active!r}")
    for key in state.templates:
        if not key.isdigit() or int(key) not in seats:
            raise Invalid(key_path("state.templates", key), "not a seat of this game")
    for vid, v in state.vehicles.items():
        _vehicle(v, key_path("state.vehicles", vid), vid, state, catalog)
    for oid, ob in state.obstacles.items():
        where = key_path("state.obstacles", oid)
        _id(ob.id, oid, where)
        _pose(ob.pose, state, where)
        _within(ob.length, 1e-3, MAX_BODY * 10, where, "length")
        _within(ob.width, 1e-3, MAX_BODY * 10, where, "width")
        _within(ob.damage, 0, MAX_HULL, where, "damage")
        if ob.hull is not None:
            _within(ob.hull, 0, MAX_HULL, where, "hull")
    for rid, r in state.ramps.items():
        where = key_path("state.ramps", rid)
        _id(r.id, rid, where)
        _pose(r.pose, state, where)
        _within(r.length, 1e-3, MAX_BODY * 10, where, "length")
        _within(r.width, 1e-3, MAX_BODY * 10, where, "width")
    for tid, t in state.dropped.items():
        where = key_path("state.dropped", tid)
        _id(t.id, tid, where)
        _pose(t.pose, state, where)
        if t.player is not None:
            one_of(t.player, seats, f"{where}.player")
        for i, (x, y) in enumerate(t.polygon):
            _point(x, y, state, f"{where}.polygon[{i}]")
    for sid, s in state.surfaces.items():
        where = key_path("state.surfaces", sid)
        _id(s.id, sid, where)
        if len(s.polygon) < 3:
            raise Invalid(f"{where}.polygon", "a surface needs at least 3 corners")
        for i, (x, y) in enumerate(s.polygon):
            _point(x, y, state, f"{where}.polygon[{i}]")
    _scenario(game, state)


def _id(inner: str, key: str, where: str) -> None:
    if inner != key:
        raise Invalid(f"{where}.id", f"{inner!r} is filed under {key!r}")


def _point(x: float, y: float, state: GameState, where: str) -> None:
    if not (-OFF_TABLE <= x <= state.width + OFF_TABLE
            and -OFF_TABLE <= y <= state.height + OFF_TABLE):
        raise Invalid(where, f"({x:g}, {y:g}) is far off the {state.width:g} x "
                             f"{state.height:g} table")


def _pose(pose: Pose, state: GameState, where: str, name: str | None = "pose") -> None:
    """``pose`` (at ``where.name``, or ``where`` itself when ``name`` is None) on or near the
    table, its heading within bounds."""
    x, y, heading = pose.x, pose.y, pose.heading
    if not (-OFF_TABLE <= x <= state.width + OFF_TABLE
            and -OFF_TABLE <= y <= state.height + OFF_TABLE and -3600.0 <= heading <= 3600.0):
        _bad_pose(pose, state, where if name is None else f"{where}.{name}")


def _bad_pose(pose: Pose, state: GameState, where: str) -> None:
    """``Invalid`` naming the part of ``pose`` that is out of its range."""
    if not -OFF_TABLE <= pose.x <= state.width + OFF_TABLE:
        raise Invalid(f"{where}.x", f"{pose.x:g} is far off the table (width {state.width:g})")
    if not -OFF_TABLE <= pose.y <= state.height + OFF_TABLE:
        raise Invalid(f"{where}.y",
                      f"{pose.y:g} is far off the table (height {state.height:g})")
    within(pose.heading, -3600.0, 3600.0, f"{where}.heading")


def _within(value: int | float, low: float, high: float, where: str, name: str) -> None:
    """``within`` naming ``where.name``, the name put together only when it is needed
    (``value`` is ``int | float``: compiled, a whole number stays whole in the message)."""
    if not low <= value <= high:
        within(value, low, high, f"{where}.{name}")


def _vehicle(v: VehicleState, where: str, vid: str, state: GameState, catalog: Any) -> None:
    _id(v.id, vid, where)
    one_of(v.player, range(state.players), f"{where}.player")
    _within(v.max_gear, 1, MAX_GEAR, where, "max_gear")
    _within(v.gear, 1, MAX_GEAR, where, "gear")
    if v.gear > v.max_gear:
        raise Invalid(f"{where}.gear", f"{v.gear} is above the vehicle's max gear "
                                       f"{v.max_gear}")
    _within(v.hull, 0, MAX_HULL, where, "hull")
    _within(v.damage, 0, MAX_HULL, where, "damage")
    _within(v.handling, 0, MAX_STAT, where, "handling")
    _within(v.crew, 0, MAX_STAT, where, "crew")
    _within(v.hazards, 0, MAX_STAT, where, "hazards")
    _within(v.length, 1.0, MAX_BODY, where, "length")
    _within(v.width, 1.0, MAX_BODY, where, "width")
    _pose(v.pose, state, where)
    keys: set[str] = set()
    for i, w in enumerate(v.weapons):
        if w.key in keys:
            raise Invalid(f"{where}.weapons[{i}].key", f"{w.key!r} is used twice")
        keys.add(w.key)
        if w.weapon not in catalog.weapons.records:
            raise Invalid(f"{where}.weapons[{i}].weapon",
                          f"no weapon {w.weapon!r} in the catalogue")
        if w.ammo is not None:
            _within(w.ammo, 0, 100, where, f"weapons[{i}].ammo")
        if w.part is not None and w.part != "trailer":
            one_of(w.part, (None, "trailer"), f"{where}.weapons[{i}].part")
    for i, u in enumerate(v.upgrades):
        if u not in catalog.upgrades.records:
            raise Invalid(f"{where}.upgrades[{i}]", f"no upgrade {u!r} in the catalogue")
    for i, p in enumerate(v.perks):
        if p not in catalog.perks.records:
            raise Invalid(f"{where}.perks[{i}]", f"no perk {p!r} in the catalogue")
    for i, f in enumerate(v.fitted):
        if f.ammo is not None:
            _within(f.ammo, 0, 100, where, f"fitted[{i}].ammo")
    for ph in v.activated_phases:
        _within(ph, 1, MAX_GEAR, where, "activated_phases")
    for name, c in v.conditions.items():
        _within(c, -1000, 1000, where, f"conditions.{name}")
    if v.trailer is not None:
        _within(v.trailer.length, 1.0, MAX_BODY, where, "trailer.length")
        _within(v.trailer.width, 1.0, MAX_BODY, where, "trailer.width")
        _within(v.trailer.hinge, -360.0, 360.0, where, "trailer.hinge")
    if v.summoned_by is not None and v.summoned_by not in state.vehicles:
        raise Invalid(f"{where}.summoned_by", f"no vehicle {v.summoned_by!r}")


def _scenario(game: Any, state: GameState) -> None:
    from carnage.games.refuelled.setup import SetupError, check_scenario_options

    scenario = game.scenario
    progress = state.scenario
    options = progress.get("options", {})
    try:
        expected = check_scenario_options(scenario, options)
    except SetupError as e:
        raise Invalid("state.scenario.options",
                      f"do not fit the configuration's scenario {scenario.id!r}: {e}") from None
    if expected != options:
        raise Invalid("state.scenario.options",
                      f"are not those of the configuration's scenario {scenario.id!r}")
    seen = progress.get("seen")
    if seen is not None:  # where vehicles were last seen (races, off-table returns)
        check_value(seen, dict[str, Pose], "state.scenario.seen")
        for vid, pose in seen.items():
            _pose(pose, state, key_path("state.scenario.seen", vid), None)
    own = getattr(scenario, "check_snapshot", None)
    if callable(own):
        own(state)
