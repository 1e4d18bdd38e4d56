"""Vehicle upgrades in play (Refuelled pp.83-85).

Stat upgrades (Armour Plating, Extra Crewmember, the stat half of Tank Tracks and the Nuclear
Engine) are applied once by the team builder's derived stats (``team/build.py``), which become
the vehicle's starting values (``setup.py``); they are not applied again here. Turret
Mounting is a weapon facing (``turret``: a 360-degree arc, p.85) that the attack step already
reads. The rest are effects on the engine's hooks (docs/events.md):

* Experimental Nuclear Engine (p.83): Long Straight permitted in every gear; a failed flip check
  wrecks the vehicle, which explodes at once, as a heavyweight whenever it explodes.
* Experimental Teleporter (p.83): before the Movement Step, +3 Hazards and a skid die; the
  vehicle is put down somewhere near (rulings UP-1, UP-2).
* Exploding Ram (p.84) and Ram (p.85): on their facing's collisions.
* Nitro Booster (p.84): a forced Long Straight at the start of the Movement Step, Hazards up to
  5 before and after, no reversing that step.
* Roll Cage (p.85): the vehicle may shrug off a flip's hits.
* Tank Tracks (p.85): no Hazards from rough or treacherous surfaces (ruling UP-4).
* Improvised Sludge Thrower (p.84): dropped templates within Medium range all round.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from carnage.catalog import TemplateUse, Weight
from carnage.games.refuelled.engine.collision import SMASH
from carnage.games.refuelled.engine.combat import remove_hull
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import UpgradeMount, VehicleState
from carnage.games.refuelled.engine.table_facts import judged
from carnage.geometry.shapes import Point, Pose, Rect
from carnage.geometry.surfaces import SurfaceKind
from carnage.geometry.table import Table, off_table
from carnage.kernel.dice import SkidFace, skid_face
from carnage.kernel.effects import always
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game

RULES = RuleTable()
"""This module's installers (composed into the Refuelled ruleset)."""

YES = "yes"
NO = "no"
NITRO_HAZARDS = 5
"""A Nitro Booster tops the vehicle's Hazards up to this many, before and after (p.84)."""
RAM_DICE = 2
EXPLODING_RAM_DICE = 6
EXPLODING_RAM_BACKFIRE = 2
"""Each Exploding Ram die showing this or less costs the rammer a hull point (p.84)."""
TELEPORT_HAZARDS = 3
TELEPORT_BEARINGS = 12
"""Directions offered for a teleport placement, every 30 degrees (ruling UP-2)."""
TELEPORT_STEPS = 3
"""Distances offered along each direction: thirds of the range (ruling UP-2)."""


# -- shared helpers -----------------------------------------------------------------------------
def upgrade_mounts(g: Game, v: VehicleState, upgrade_id: str) -> list[UpgradeMount]:
    """The vehicle's fitted copies of ``upgrade_id``. A vehicle built by hand with ids only
    gets mounts from the catalogue here (no facing, the catalogue's ammo)."""
    found = [m for m in v.fitted if m.upgrade == upgrade_id]
    if found or upgrade_id not in v.upgrades:
        return found
    ammo = g.catalog.upgrades.get(upgrade_id).ammo
    for _ in range(v.upgrades.count(upgrade_id)):
        m = UpgradeMount(f"{upgrade_id}#{len(v.fitted)}", upgrade_id, None, ammo)
        v.fitted.append(m)
        found.append(m)
    return found


def facing_of(m: UpgradeMount) -> str:
    """The edge an upgrade is fitted to; a mount without one counts as front."""
    return m.facing or "front"




def _built_in_stats(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """Stat upgrades: the team builder has already put them into the vehicle's starting stats
    (hull +2 per Armour Plating, crew +1 per Extra Crewmember, p.84) and Turret Mounting into
    the weapon's facing (p.85); the game has nothing more to do."""


for _uid in ("armour_plating", "extra_crewmember", "turret_mounting"):
    RULES.rule("upgrade", _uid)(_built_in_stats)


# -- Armour Plating, Extra Crewmember: see _built_in_stats ------------------------------------
# -- Tank Tracks (p.85) -------------------------------------------------------------------------
@RULES.rule("upgrade", "tank_tracks")
def tank_tracks(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """+1 Handling, -1 max Gear (applied by the team builder); rough and treacherous surfaces
    give no Hazards (as All Terrain; ruling UP-4: the option is always taken)."""
    assert vehicle is not None
    v = vehicle

    game.effects.on("surface_hazards", source, lambda value, ctx: 0, about=v)


# -- Experimental Nuclear Engine (p.83) ---------------------------------------------------------
@RULES.rule("upgrade", "experimental_nuclear_engine")
def nuclear_engine(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """+2 max Gear (team builder). Long Straight permitted, neither trivial nor hazardous, in
    every gear; a failed flip check wrecks the vehicle and it explodes; it explodes as a
    heavyweight."""
    assert vehicle is not None
    v = vehicle
    melting: list[bool] = game.memory(source, "melting", [])

    def long_straight(value: Any, ctx: dict[str, Any]) -> Any:
        return TemplateUse.PERMITTED if ctx.get("template") == "long_straight" else None

    def meltdown(g: Game, ctx: dict[str, Any]) -> Generator[Any, Any, bool]:
        return _meltdown(g, v, source, melting)

    def always_explodes(value: Any, ctx: dict[str, Any]) -> Any:
        return True if melting else None

    game.effects.on("template_use", source, long_straight, about=v)
    game.effects.add_flow("flip", source, always(meltdown), 30, about=v)
    game.effects.on("explosion_check", source, always_explodes, about=v)
    game.effects.on("explosion_weight", source, lambda value, ctx: Weight.HEAVYWEIGHT, about=v)


def _meltdown(g: Game, v: VehicleState, source: str, melting: list[bool]
              ) -> Generator[Any, Any, bool]:
    from carnage.games.refuelled.engine.damage import wreck

    g.emit("nuclear_meltdown", source=source, page=83, vehicle=v.id)
    melting.append(True)
    try:
        if remove_hull(g, v, v.hull_points, source=source, page=83):
            yield from wreck(g, v)
    finally:
        melting.clear()
    return True


# -- Experimental Teleporter (p.83) -------------------------------------------------------------
@dataclass(frozen=True)
class Spot:
    """A place the teleporter may put the vehicle: ``bearing`` degrees anticlockwise from the
    table's +x axis, ``dist`` mm from where its centre is now."""

    bearing: int
    dist: int

    @property
    def value(self) -> str:
        return f"{self.bearing}@{self.dist}"


def teleport_spots(g: Game, v: VehicleState, reach: float) -> list[tuple[Spot, Pose]]:
    """Where the vehicle may be put (ruling UP-2): its centre moved up to ``reach`` mm along
    one of 12 bearings, at a third, two thirds or all of the reach, facing unchanged, wholly on
    the table and touching no obstruction, ramp or surface."""
    from carnage.games.refuelled.engine.movement import obstructions_for, touches

    blockers: list[Sequence[Point]] = [ob.polygon for ob in obstructions_for(g, v)]
    blockers += [r.polygon() for r in g.state.ramps.values()]
    blockers += [s.polygon for s in g.state.surfaces.values() if s.kind is not SurfaceKind.ROAD]
    table = Table(g.state.width, g.state.height)
    here = v.pose
    out: list[tuple[Spot, Pose]] = []
    for b in range(TELEPORT_BEARINGS):
        bearing = b * 360 // TELEPORT_BEARINGS
        for k in range(1, TELEPORT_STEPS + 1):
            dist = round(reach * k / TELEPORT_STEPS)
            r = math.radians(bearing)
            pose = Pose(here.x + dist * math.cos(r), here.y + dist * math.sin(r), here.heading)
            bodies = _bodies_at(v, pose)
            if off_table(bodies, table):
                continue
            if any(touches(body, bl) for body in bodies for bl in blockers):
                continue
            out.append((Spot(bearing, dist), pose))
    return out


def _bodies_at(v: VehicleState, pose: Pose) -> list[list[Point]]:
    """The vehicle's footprint at ``pose``, and its trailer's if it is articulated (the
    trailer keeps its hinge to the cab, p.117)."""
    cab = Rect(pose, v.length, v.width)
    out = [cab.polygon()]
    trailer: Any = getattr(v, "trailer", None)  # rules/war_rig.py's trailer, when present
    if trailer is not None:
        out.append(trailer.rect(cab).polygon())
    return out


@RULES.rule("upgrade", "experimental_teleporter")
def teleporter(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """At the start of each activation the vehicle may teleport before its Movement Step."""
    assert vehicle is not None
    v = vehicle

    def flow(g: Game, ctx: dict[str, Any]) -> Flow:
        return _teleport(g, v, source)

    game.effects.add_flow("activation_start", source, always(flow), 10, about=v)


def _teleport(g: Game, v: VehicleState, source: str) -> Flow:
    use = yield ask(
        v.player, "teleporter", f"{v.name}: use the Experimental Teleporter before moving?",
        [(YES, "teleport (+3 Hazards, roll a skid die)"), (NO, "do not teleport")],
        source=source, page=83, vehicle=v.id,
    )
    if use != YES:
        return
    g.add_hazards(v, TELEPORT_HAZARDS, source, 83)
    die = g.roll(1, "teleporter", source=source, page=83, vehicle=v.id)[0]
    face = skid_face(die)
    ranges = g.templates.ranges
    if face is SkidFace.HAZARD:
        # The player to the left puts it down, within Long range (p.83; CO-7's clockwise).
        chooser, reach = (v.player + 1) % g.state.players, float(ranges["long"])
    else:
        chooser, reach = v.player, float(ranges["medium"])
    people = g.facts.people
    spots = [] if people else teleport_spots(g, v, reach)
    # At a real table the chooser puts it down as the book allows and says whether there was
    # anywhere to put it; where it lands is a mark (CP-1, CP-19).
    room = yield from judged(
        g, chooser, "teleport_room", f"Is there anywhere within {int(reach)} mm to put "
        f"{v.name} down (facing unchanged, wholly on the table, touching nothing)?",
        lambda: bool(spots), page=83, vehicle=v.id, default=True)
    if not room:
        g.emit("teleport", source=source, page=83, vehicle=v.id, face=face.value,
               chooser=chooser, moved=False, x=round(v.pose.x, 3), y=round(v.pose.y, 3))
        return
    if people:
        g.emit("teleport", source=source, page=83, vehicle=v.id, face=face.value,
               chooser=chooser, moved=True, x=round(v.pose.x, 3), y=round(v.pose.y, 3))
        return
    poses = {s.value: p for s, p in spots}
    pick = yield ask(
        chooser, "teleport_place", f"Place {v.name} within {int(reach)} mm (facing unchanged)",
        [(s.value, f"{s.dist} mm at bearing {s.bearing}") for s, _ in spots],
        source=source, page=83, vehicle=v.id,
    )
    v.pose = poses[str(pick)]
    g.emit("teleport", source=source, page=83, vehicle=v.id, face=face.value, chooser=chooser,
           moved=True, x=round(v.pose.x, 3), y=round(v.pose.y, 3))


# -- Nitro Booster (p.84) -----------------------------------------------------------------------
@RULES.rule("upgrade", "nitro_booster")
def nitro_booster(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """Once per activation, while it has an ammo token (Ammo 1)."""
    assert vehicle is not None
    install_nitro(game, vehicle, source)


def install_nitro(game: Game, v: VehicleState, source: str, *, unlimited: bool = False,
                  must_use: bool = False) -> None:
    """The Nitro Booster: at the start of the Movement Step the controller may fire it (a
    forced Long Straight forward, then Hazards up to 5); that Movement Step may not reverse
    and ends with Hazards up to 5 again. Each use spends an ammo token; unspent tokens count
    for the explosion check (p.43). ``unlimited``: no tokens needed or spent; ``must_use``:
    fired every activation (both for the Jet Engine, p.70)."""
    mounts = [] if unlimited else upgrade_mounts(game, v, "nitro_booster")
    boosting: list[bool] = game.memory(source, "boosting", [])

    def boost(g: Game, ctx: dict[str, Any]) -> Flow:
        boosting.clear()
        loaded = [m for m in mounts if m.ammo is None or m.ammo > 0]
        if not unlimited and not loaded:
            return
        opts = [(YES, "fire it: Long Straight now, Hazards up to 5")]
        if not must_use:
            opts.append((NO, "no nitro this activation"))
        use = yield ask(v.player, "nitro", f"{v.name}: fire the Nitro Booster?", opts,
                        source=source, page=84,
                        vehicle=v.id, weapon=loaded[0].key if loaded else None)
        if use != YES:
            return
        if loaded and loaded[0].ammo is not None:
            m = loaded[0]
            m.ammo = (m.ammo or 0) - 1
            g.emit("ammo", source="ammo", page=81, vehicle=v.id, weapon=m.key, ammo=m.ammo)
        boosting.append(True)
        yield from _boost(g, v, source)

    def after(g: Game, ctx: dict[str, Any]) -> Flow:
        if boosting:
            boosting.clear()
            top_up_hazards(g, v, source)
        yield from ()

    def no_reverse(value: Any, ctx: dict[str, Any]) -> Any:
        return False if boosting else None

    game.effects.add_flow("movement_start", source, always(boost), about=v)
    game.effects.add_flow("movement_end", source, always(after), 10, about=v)
    game.effects.on("may_reverse", source, no_reverse, about=v)
    if mounts:
        game.effects.on("ammo_tokens", source, _count_ammo_for(mounts), about=v)


def _boost(g: Game, v: VehicleState, source: str) -> Flow:
    from carnage.games.refuelled.engine.movement import forced_move

    g.emit("nitro", source=source, page=84, vehicle=v.id)
    yield from forced_move(g, v, "long_straight", source=source, page=84)
    if v.in_play and not g.state.finished:
        top_up_hazards(g, v, source)


def top_up_hazards(g: Game, v: VehicleState, source: str) -> None:
    """Hazards up to the Nitro level: 5 (p.84), through the ``nitro_hazards`` hook."""
    target = int(g.effects.run_event("nitro_hazards", NITRO_HAZARDS, {"game": g, "vehicle": v}))
    if v.in_play and v.hazards < target:
        g.add_hazards(v, target - v.hazards, source, 84)


def _count_ammo_for(mounts: list[UpgradeMount]) -> Any:
    """An ``ammo_tokens`` handler adding the unspent tokens of ``mounts`` (attach it about
    their vehicle)."""

    def handler(value: Any, ctx: dict[str, Any]) -> Any:
        return int(value) + sum(m.ammo or 0 for m in mounts)

    return handler


# -- Ram (p.85) and Exploding Ram (p.84) --------------------------------------------------------
WRECKING_BALL = "wrecking_ball"


def _wrecking_ball(ctx: dict[str, Any]) -> bool:
    """Collisions a Wrecking Ball causes get no help from Rams or Exploding Rams (p.75)."""
    return ctx.get("cause") == WRECKING_BALL


@RULES.rule("upgrade", "ram")
def ram(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """In a Collision on a Ram's facing: +2 smash dice (ruling UP-5: always added) and no
    Hazards from that Collision."""
    assert vehicle is not None
    v = vehicle
    facings = {facing_of(m) for m in upgrade_mounts(game, v, "ram")}

    def on_facing(ctx: dict[str, Any]) -> bool:
        return ctx.get("edge") in facings and not _wrecking_ball(ctx)

    def dice(value: Any, ctx: dict[str, Any]) -> Any:
        return int(value) + RAM_DICE if on_facing(ctx) else None

    def hazards(value: Any, ctx: dict[str, Any]) -> Any:
        return 0 if on_facing(ctx) else None

    game.effects.on("smash_dice", source, dice, about=v)
    game.effects.on("collision_hazards", source, hazards, priority=-10, about=v)


@RULES.rule("upgrade", "exploding_ram")
def exploding_ram(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """The first Collision on its facing: the vehicle must Smash (even when tailgated), with
    +6 dice; each 1 or 2 it rolls costs it a hull point (ruling UP-3). Its ammo token counts
    for the explosion check until it is spent."""
    assert vehicle is not None
    v = vehicle
    mounts = upgrade_mounts(game, v, "exploding_ram")
    firing: list[UpgradeMount] = game.memory(source, "firing", [])

    def armed(ctx: dict[str, Any]) -> UpgradeMount | None:
        if _wrecking_ball(ctx):
            return None
        for m in mounts:
            if (m.ammo is None or m.ammo > 0) and ctx.get("edge") == facing_of(m):
                return m
        return None

    def tailgate(value: Any, ctx: dict[str, Any]) -> Any:
        return False if armed(ctx) is not None else None

    def reactions(value: Any, ctx: dict[str, Any]) -> Any:
        return [SMASH] if armed(ctx) is not None else None

    def dice(value: Any, ctx: dict[str, Any]) -> Any:
        m = armed(ctx)
        if m is None:
            return None
        m.ammo = 0
        firing.append(m)
        other = ctx.get("other_party")
        game.emit("exploding_ram", source=source, page=84, vehicle=v.id, other=other,
                  edge=facing_of(m), bonus=EXPLODING_RAM_DICE)
        return int(value) + EXPLODING_RAM_DICE

    def backfire(value: Any, ctx: dict[str, Any]) -> Any:
        if not firing:
            return None
        firing.clear()
        return int(value) + sum(1 for d in ctx.get("dice", []) if d <= EXPLODING_RAM_BACKFIRE)

    game.effects.on("tailgate_evade", source, tailgate, about=v)
    game.effects.on("collision_reactions", source, reactions, priority=-10, about=v)
    game.effects.on("smash_dice", source, dice, about=v)
    game.effects.on("smash_backfire", source, backfire, about=v)
    game.effects.on("ammo_tokens", source, _count_ammo_for(mounts), about=v)


# -- Improvised Sludge Thrower (p.84) ----------------------------------------------------------
@RULES.rule("upgrade", "improvised_sludge_thrower")
def sludge_thrower(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """The vehicle's dropped burst templates may go anywhere at least partly within Medium
    range, all round (ruling UP-12): the controller gives a bearing from the vehicle's centre,
    the gap from the vehicle to the template's tip (up to Medium range) and the template's turn
    from pointing straight away, as far as a 360-degree drop may turn (rules/dropped.py)."""
    assert vehicle is not None
    v = vehicle

    def placer(g: Game, ctx: dict[str, Any]) -> Generator[Any, Any, Pose]:
        from carnage.games.refuelled.engine.hazards_on_table import burst_swing
        from carnage.kernel.decisions import Decision, Interval

        body: Rect = ctx.get("body") or v.rect()
        if g.facts.people:
            # At a real table the controller lays it as the book allows: no bearing, gap or
            # turn asked; whom it overlaps is then asked (``place``); its pose is a mark
            # (CP-1, CP-19).
            return body.pose
        what = str(ctx.get("what", "template"))
        reach = float(g.templates.ranges["medium"])
        bearing = float((yield Decision(
            v.player, "sludge_bearing",
            f"{v.name}: throw the {what} in which direction (degrees anticlockwise from ahead)?",
            domain=Interval(-180.0, 180.0), source=source, page=84,
            vehicle=v.id, weapon=ctx.get("weapon"),
        )))
        gap = float((yield Decision(
            v.player, "sludge_gap", f"{v.name}: how far out does the {what} start (mm)?",
            domain=Interval(0.0, reach, "mm"), source=source, page=84,
            vehicle=v.id, weapon=ctx.get("weapon"),
        )))
        swing = burst_swing(g, str(ctx.get("template", "large_burst")))
        turn = float((yield Decision(
            v.player, "sludge_angle",
            f"{v.name}: turn the {what} from pointing straight away (degrees anticlockwise)",
            domain=Interval(-swing, swing), source=source, page=84,
            vehicle=v.id, weapon=ctx.get("weapon"),
        )))
        world = (body.pose.heading + bearing) % 360.0
        x, y = point_at_gap(body, world, gap)
        return Pose(x, y, (world + turn) % 360.0)

    game.effects.on("drop_placer", source, lambda value, ctx: placer, about=v)


def point_at_gap(body: Rect, bearing: float, gap: float) -> tuple[float, float]:
    """The point on the ray from ``body``'s centre at ``bearing`` (world degrees) that lies
    ``gap`` mm from the body's footprint."""
    r = math.radians(bearing)
    dx, dy = math.cos(r), math.sin(r)
    c = body.pose
    h = math.radians(c.heading)
    hl, hw = body.length / 2.0, body.width / 2.0

    ldx = dx * math.cos(h) + dy * math.sin(h)  # the ray in the body's own frame
    ldy = -dx * math.sin(h) + dy * math.cos(h)

    def gap_at(t: float) -> float:
        return math.hypot(max(abs(t * ldx) - hl, 0.0), max(abs(t * ldy) - hw, 0.0))

    # From where the ray leaves the footprint the gap only grows along it.
    lo = min(hl / abs(ldx) if abs(ldx) > 1e-12 else math.inf,
             hw / abs(ldy) if abs(ldy) > 1e-12 else math.inf)
    hi = lo + gap + 1.0
    for _ in range(60):
        mid = (lo + hi) / 2.0
        if gap_at(mid) < gap:
            lo = mid
        else:
            hi = mid
    return c.x + hi * dx, c.y + hi * dy


# -- Roll Cage (p.85) ---------------------------------------------------------------------------
@RULES.rule("upgrade", "roll_cage")
def roll_cage(game: Game, vehicle: VehicleState | None, source: str) -> None:
    """When the vehicle flips its controller may ignore the flip's 2 hits. A Buggy carries the
    same rule as its type rule (p.66), played by rules/vehicles.py: then this steps aside."""
    assert vehicle is not None
    v = vehicle
    if "roll_cage" in v.special_rules and game.rules.get("vehicle_rule", "roll_cage"):
        return
    shrugging: list[bool] = game.memory(source, "shrugging", [])

    def choose(g: Game, ctx: dict[str, Any]) -> Flow:
        if not v.in_play:
            return
        pick = yield ask(
            v.player, "roll_cage", f"{v.name} flips: ignore the flip's hits (Roll Cage)?",
            [(YES, "ignore the hits"), (NO, "take the hits")], source=source, page=85, vehicle=v.id,
        )
        if pick == YES:
            shrugging.append(True)
            g.emit("roll_cage", source=source, page=85, vehicle=v.id)

    def hits(value: Any, ctx: dict[str, Any]) -> Any:
        if shrugging:
            shrugging.clear()
            return 0
        return None

    game.effects.add_flow("flip", source, always(choose), -10, about=v)
    game.effects.on("flip_hits", source, hits, priority=-10, about=v)
