"""Street Race, the introductory scenario (Refuelled p.62).

Each player brings a Car and a Buggy, each with a front machine gun. Start and finish lines are
pairs of flags a Long Straight apart, at least three Long Straights from each other; terrain
breaks up the route. Players roll off for pole position, deploy alternately touching the start
line, and pass pole clockwise after every gear phase. The first vehicle across the finish line
wins; a player left alone with vehicles in play wins too.

Our table (a choice; the book leaves it open): 900 x 1200 mm, the start line 150 mm from the
near short edge, the finish line 150 mm from the far one (five Long Straights apart), two rocks,
a destructible crate and a barrier in between. Flags are markers, not obstacles (ruling SR-2).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from carnage.catalog.models import Weight
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario import TeamDemand
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, Obstacle, VehicleState
from carnage.games.refuelled.scenarios.base import Line, TableScenario, crosses
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.skirmish_layout import skirmish_teams
from carnage.geometry.movement import trailer_behind
from carnage.geometry.shapes import Point, Pose, Rect, deeper_than, overlaps, penetration
from carnage.kernel.briefing import BriefRule, Scoreboard, SeatScore, refuelled
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

PAGE = 62
SOURCE = "street_race"
NOT_PLACED = "not yet on the table"
"""What the scoreboard says of a racer still waiting to be placed on the starting grid."""


def _placed(st: GameState, v: VehicleState) -> bool:
    """Is ``v`` on the table? A racer not yet deployed waits parked off it (setup.add_team)."""
    return 0.0 <= v.pose.x <= st.width and 0.0 <= v.pose.y <= st.height
LONG_STRAIGHT = 180.0
"""Length of the Long Straight (mm); the flags of each line stand this far apart."""
GRID_PITCH = 15.0
GRID_ROOM = 60.0
"""The most of the starting line one vehicle takes (a War Rig, 50 mm wide, a pitch apart)."""
"""Grid slots along the start line are this far apart (ruling SR-3)."""
SAMPLES = 48
"""Poses sampled along a move when judging a crossing (about 5 mm apart on a Long Straight)."""
FAR_FROM_LINE = 1.001
"""mm: a move whose sweep stays in a box farther than this from the finish line is not
sampled (``crosses`` counts a point goal touched within 0.5 mm, a line within 1e-6 mm)."""
GRID_ROOM_MEMORY = 256
"""How many fields that fitted on their starting grid are remembered (``check_grid_room``)."""
_GRID_ROOM_FITS: dict[tuple[Any, ...], None] = {}
"""The keys (``StreetRace._grid_room_key``) of fields the grid-room trial passed: immutable
values only (ids, numbers, poses, the scenario's class and start line), never a game's objects."""
GRID_PLACES_MEMORY = 1024
"""How many answers of ``grid_places`` are remembered (``StreetRace._grid_places_key``)."""
_GRID_PLACES: dict[tuple[Any, ...], tuple[dict[str, Pose], dict[str, float]]] = {}
"""``grid_places``' answers by everything they were worked out from (immutable values only:
the scenario's class and start line, the table's size, the vehicle's size, the bodies to keep
clear of and the obstacles' shapes): most Street Races deploy the same racers on the same
grid, so the same places are asked for again and again."""


@lru_cache(maxsize=16)
def default_racers(players: int) -> tuple[TeamSpec, ...]:
    """Street Race's default teams for ``players`` seats (the skirmish scenarios' Car and
    Buggy, named Racers), parsed once: team files are frozen models (tuples all the way
    down), so every game shares them as it shares a team's report (``setup.checked_team``); a
    game builds its own vehicles' state from them."""
    return skirmish_teams(players, "Racers")


class StreetRace(RollOffPole, TableScenario):
    id = "street-race"
    name = "Street Race"
    page = PAGE
    min_players = 2
    max_players = None
    summary = ("Each player races a Car and a Buggy from the start flags to the finish flags; "
               "the first vehicle across the finish line wins.")
    how_to_win = ("The first vehicle across the finish line wins at once; a player left alone "
                  "with vehicles in play wins too.")
    special_rules = (
        BriefRule("The racers",
                  ("Each player brings a Car and a Buggy, each with a machine gun facing "
                   "front."),
                  refuelled(62)),
        BriefRule("Start and finish",
                  ("Pairs of flags a Long Straight apart mark both lines; everyone deploys "
                   "touching the start line."),
                  refuelled(62)),
        BriefRule("Pole Position",
                  "Roll off for it; it passes clockwise after every Gear Phase.",
                  refuelled(62)),
    )
    score_title = "Distance to the finish"
    score_target = "first across the finish line"
    table = None
    width = 900.0
    height = 1200.0
    race = True

    def __init__(self) -> None:
        cx = self.width / 2.0
        half = LONG_STRAIGHT / 2.0
        self.start_line = Line((cx - half, 150.0), (cx + half, 150.0), (0.0, 1.0))
        self.finish_line = Line(
            (cx - half, self.height - 150.0), (cx + half, self.height - 150.0), (0.0, 1.0)
        )

    # -- the table -------------------------------------------------------------------------------
    def lay_out(self, state: GameState) -> None:
        terrain = [
            Obstacle("rock-1", Pose(300.0, 480.0, 20.0), 90.0, 70.0),
            Obstacle("crate-1", Pose(590.0, 640.0, 0.0), 40.0, 40.0,
                     weight=Weight.MIDDLEWEIGHT, destructible=True),
            Obstacle("barrier-1", Pose(450.0, 800.0, 0.0), 120.0, 20.0,
                     weight=Weight.MIDDLEWEIGHT),
            Obstacle("rock-2", Pose(700.0, 900.0, -15.0), 70.0, 70.0),
        ]
        for ob in terrain:
            state.obstacles[ob.id] = ob

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        """A Car and a Buggy per player, each with a front machine gun (p.61, p.62)."""
        return default_racers(players)

    def goal(self, state: GameState, vehicle: VehicleState) -> Line:
        return self.finish_line

    # -- set-up: pole position and the starting grid ---------------------------------------------
    def install(self, game: Game) -> None:
        game.effects.on("after_move", f"scenario:{self.id}", self._after_move)
        game.effects.on("logged:respawn", f"scenario:{self.id}", self._respawned)

    def team_demand(self, seat: int, players: int,
                    options: Mapping[str, Any] | None = None) -> TeamDemand:
        """Room on the one-rank starting grid: a vehicle takes up to 60 mm of the line (ruling
        SR-3's pitch), so each team fields at most half its share of the table's width."""
        return TeamDemand(max_vehicles=max(1, int(self.width // GRID_ROOM) // (2 * players)))

    def check_grid_room(self, st: GameState) -> None:
        """Refuse at set-up a field the starting grid cannot hold: every vehicle placed in
        turn in the first place offered (``SetupError`` naming the scenario and the vehicle
        left without a place)."""
        from carnage.games.refuelled.setup import SetupError

        key = self._grid_room_key(st)
        if key is not None and key in _GRID_ROOM_FITS:
            return  # the same field on the same table fitted before
        # The trial places copies of the vehicles on a copy of the state that shares
        # everything else (the grid's places only read it): the original is left as it was.
        trial = copy.copy(st)
        trial.vehicles = {k: copy.copy(v) for k, v in st.vehicles.items()}
        trial.scenario = {**st.scenario, "deployed": []}
        waiting = {p: [v.id for v in trial.vehicles.values() if v.player == p]
                   for p in range(trial.players)}
        while any(waiting.values()):
            for p in range(trial.players):
                if not waiting[p]:
                    continue
                v = trial.vehicles[waiting[p].pop(0)]
                slots = self.grid_places(trial, v, first=True)[0]
                if not slots:
                    raise SetupError(f"{self.name}: no room on the starting grid for {v.name} "
                                     f"(player {p + 1}): the field is too big for the line")
                v.pose = next(iter(slots.values()))
                trial.scenario["deployed"].append(v.id)
        if key is not None:
            if len(_GRID_ROOM_FITS) >= GRID_ROOM_MEMORY:
                _GRID_ROOM_FITS.clear()
            _GRID_ROOM_FITS[key] = None

    def _grid_room_key(self, st: GameState) -> tuple[Any, ...] | None:
        """Everything the grid-room trial reads (the start line, the table, the vehicles'
        seats and sizes in order, the obstacles' shapes): a field that fitted once fits again.
        None (not remembered) when a vehicle tows a trailer, whose fold the trial works out
        from more than its size."""
        vehicles = []
        for v in st.vehicles.values():
            if v.trailer is not None:
                return None
            vehicles.append((v.id, v.player, v.length, v.width))
        return (type(self), self.start_line, st.width, st.height, st.players, tuple(vehicles),
                tuple((type(ob), ob.pose, ob.length, ob.width) for ob in st.obstacles.values()))

    def setup(self, game: Game) -> Flow:
        st = game.state
        self.check_grid_room(st)  # refused at once, before anyone is asked anything
        st.pole = self.roll_off(game)
        order = st.clockwise_from(st.pole)
        waiting = {p: [v.id for v in st.vehicles.values() if v.player == p] for p in order}
        while any(waiting.values()):
            for p in order:
                if not waiting[p]:
                    continue
                vid = yield ask(
                    p, "deploy", "Street Race: choose a vehicle to place on the starting grid",
                    [(i, st.vehicles[i].name) for i in waiting[p]], source=SOURCE, page=PAGE,
                )
                v = st.vehicles[str(vid)]
                slots, hinges = self.grid_places(st, v)
                if not slots:
                    from carnage.games.refuelled.setup import SetupError

                    raise SetupError(f"{self.name}: no room left on the starting grid for "
                                     f"{v.name} (player {p + 1}): the places taken leave "
                                     f"no gap wide enough")
                pick = yield ask(
                    p, "grid", f"Street Race: where on the starting grid does {v.name} go?",
                    [(k, f"{float(k):+.0f} mm from the grid centre") for k in slots],
                    source=SOURCE, page=PAGE, vehicle=v.id,
                )
                v.pose = slots[str(pick)]
                if v.trailer is not None:
                    v.trailer.hinge = hinges[str(pick)]
                waiting[p].remove(v.id)
                st.scenario.setdefault("deployed", []).append(v.id)
                game.emit("deploy", source=SOURCE, page=PAGE, vehicle=v.id, player=p,
                          slot=str(pick), x=round(v.pose.x, 3), y=round(v.pose.y, 3),
                          heading=round(v.pose.heading, 3))
        self.see_all(st)

    def grid_slots(self, state: GameState, v: VehicleState,
                   placed: list[str] | None = None) -> dict[str, Pose]:
        """Ruling SR-3: places on the starting grid for ``v``: square to the start line, facing
        the finish, front edge on the line, centres every ``GRID_PITCH`` mm between the flags,
        not touching a vehicle already placed nor overlapping terrain. If none is free, the
        pitch carries on past the flags along the same line."""
        return self.grid_places(state, v, placed)[0]

    def grid_places(self, state: GameState, v: VehicleState, placed: list[str] | None = None,
                    *, first: bool = False) -> tuple[dict[str, Pose], dict[str, float]]:
        """``grid_slots`` (slot -> pose) and, for a vehicle with a trailer, slot -> the hinge
        its trailer takes there (ruling SR-4; empty without a trailer). ``first``: only the
        first of those places (what the grid-room trial takes), found without the others."""
        key = self._grid_places_key(state, v, placed, first)
        if key is not None:
            known = _GRID_PLACES.get(key)
            if known is None:
                if len(_GRID_PLACES) >= GRID_PLACES_MEMORY:
                    _GRID_PLACES.clear()
                known = _GRID_PLACES[key] = self._grid_places(state, v, placed, first)
            return dict(known[0]), dict(known[1])  # the caller's own dicts (poses are values)
        return self._grid_places(state, v, placed, first)

    def _grid_places_key(self, state: GameState, v: VehicleState, placed: list[str] | None,
                         first: bool) -> tuple[Any, ...] | None:
        """Everything ``_grid_places`` reads, as immutable values; None (not remembered) for
        a vehicle towing a trailer, whose fold is worked out from more than its size."""
        if v.trailer is not None:
            return None
        ids = state.scenario.get("deployed", []) if placed is None else placed
        return (type(self), self.start_line, first, state.width, state.height,
                v.length, v.width,
                tuple([r for i in ids for _, r in state.vehicles[i].bodies()]),
                tuple([(type(ob), ob.pose, ob.length, ob.width)
                       for ob in state.obstacles.values()]))

    def _grid_places(self, state: GameState, v: VehicleState, placed: list[str] | None,
                     first: bool) -> tuple[dict[str, Pose], dict[str, float]]:
        """``grid_places`` worked out."""
        line = self.start_line
        ax, ay = line.along
        nx, ny = line.normal
        cx, cy = line.centre
        heading = line.heading()
        # ``placed``: the vehicles to keep clear of (default: those deployed; a respawn
        # passes the vehicles in play).
        placed_rects = [r for i in (state.scenario.get("deployed", []) if placed is None
                                    else placed)
                        for _, r in state.vehicles[i].bodies()]
        placed_polys = [r.polygon() for r in placed_rects]
        # Bounding circles (exact): along the better of a slot's two square axes two centres
        # are at least 1/sqrt(2) of their distance apart and each outline reaches at most
        # its radius, so a pair farther apart than sqrt(2) times the two radii (and a margin)
        # is separated by more than 1e-6 and cannot touch.
        placed_circles = [(r.pose.x, r.pose.y, math.hypot(r.length, r.width) / 2.0)
                          for r in placed_rects]
        v_rad = math.hypot(v.length, v.width) / 2.0 + 2e-6
        hinges: dict[str, float] = {}
        reach = line.length / 2.0 - v.width / 2.0
        extra = 0.0
        while True:
            # Only terrain within reach of these slots (bounding circles) is tested.
            near = reach + extra + math.hypot(v.length, v.width)
            terrain = [
                ob.polygon() for ob in state.obstacles.values()
                if math.hypot(ob.pose.x - cx, ob.pose.y - cy)
                <= near + math.hypot(ob.length, ob.width) / 2.0
            ]
            k_max = math.floor((reach + extra) / GRID_PITCH + 1e-9)
            out: dict[str, Pose] = {}
            for k in range(-k_max, k_max + 1):
                off = k * GRID_PITCH
                x = cx + ax * off - nx * v.length / 2.0
                y = cy + ay * off - ny * v.length / 2.0
                pose = Pose(x, y, heading)
                poly = Rect(pose, v.length, v.width).polygon()
                if any(overlaps(poly, o, 1e-6)
                       for o, (ox, oy, orad) in zip(placed_polys, placed_circles, strict=True)
                       if (ox - x) ** 2 + (oy - y) ** 2 <= 2.0 * (v_rad + orad) ** 2):
                    continue
                if any(deeper_than(poly, o, 1e-6) for o in terrain):
                    continue
                if not all(0.0 <= px <= state.width and 0.0 <= py <= state.height
                           for px, py in poly):
                    continue
                if v.trailer is not None:
                    # The trailer too must fit: on the table, clear of everything, folded
                    # as little as it can be (ruling SR-4).
                    hinge = self._fold_to_fit(state, v, pose, placed_polys)
                    if hinge is None:
                        continue
                    hinges[f"{off:+.0f}"] = hinge
                out[f"{off:+.0f}"] = pose
                if first:
                    return out, hinges
            if out or reach + extra > max(state.width, state.height):
                return out, hinges
            extra += line.length / 2.0

    # -- what the table shows (engine/scenario_view.py) -------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        return [self.start_line.drawable("start-line", "START", "start"),
                self.finish_line.drawable("finish-line", "FINISH", "finish")]

    def report(self, game: Game) -> list[ReportRow]:
        """Who crossed the finish line, else the counting vehicle nearest to it (the distance
        its centre still has to go across the line)."""
        st = game.state
        won = st.vehicles.get(st.scenario.get("crossed") or "")
        rows = [ReportRow("finish_crossed", "Finish line crossed by",
                          None if won is None else won.id,
                          "nobody yet" if won is None else won.name, tally=True)]
        (cx, cy), (nx, ny) = self.finish_line.centre, self.finish_line.normal
        racing = [v for v in st.in_play() if self.counts(game, v) and _placed(st, v)]
        if won is None and racing:
            lead = min(racing, key=lambda v: ((cx - v.pose.x) * nx + (cy - v.pose.y) * ny, v.id))
            to_go = max(0.0, (cx - lead.pose.x) * nx + (cy - lead.pose.y) * ny)
            rows.append(ReportRow("leader", "Nearest the finish", lead.id,
                                  f"{lead.name}, {to_go:.0f} mm to go"))
        return rows

    def scoreboard(self, game: Game) -> Scoreboard:
        """How far each seat's leading racer still has to go to the finish line (its centre,
        measured square to the line), or who crossed it. A racer still waiting to be placed on
        the starting grid has no distance yet: it is "not yet on the table"."""
        st = game.state
        won = st.vehicles.get(st.scenario.get("crossed") or "")
        (cx, cy), (nx, ny) = self.finish_line.centre, self.finish_line.normal
        rows = []
        for p in range(st.players):
            racers = [v for v in st.vehicles.values() if v.player == p and self.counts(game, v)]
            waiting = sorted((v for v in racers if v.in_play and not _placed(st, v)),
                             key=lambda v: v.id)
            going = [(max(0.0, (cx - v.pose.x) * nx + (cy - v.pose.y) * ny), v)
                     for v in racers if v.in_play and _placed(st, v)]
            if won is not None and won.player == p:
                rows.append(SeatScore(p, f"{won.name} crossed the finish line", 1e9,
                                      out=not going))
                continue
            details = tuple(f"{v.name}: {d:.0f} mm to go" for d, v in sorted(
                going, key=lambda dv: (dv[0], dv[1].id))) + tuple(
                f"{v.name}: {NOT_PLACED}" for v in waiting)
            if not going:
                rows.append(SeatScore(p, NOT_PLACED, -1e8, details) if waiting
                            else SeatScore(p, "no racer left", -1e9, out=True))
                continue
            best = min(d for d, _ in going)
            rows.append(SeatScore(p, f"{best:.0f} mm to go", -best, details))
        return Scoreboard(self.score_title, tuple(rows), self.score_target)

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        """The starting-grid places a ``grid`` decision offers its vehicle."""
        v = game.state.vehicles.get(decision.vehicle or "")
        if decision.kind != "grid" or v is None:
            return {}
        slots = self.grid_slots(game.state, v)
        return {str(o.value): slots[str(o.value)] for o in decision.options
                if str(o.value) in slots}

    def _fold_to_fit(self, state: GameState, v: VehicleState, pose: Pose,
                     placed: list[list[Point]]) -> float | None:
        """The hinge nearest straight (5-degree steps, up to square) at which ``v``'s trailer,
        behind a cab at ``pose``, lies on the table and overlaps no placed body nor terrain."""
        assert v.trailer is not None
        cab = Rect(pose, v.length, v.width)
        terrain = [ob.polygon() for ob in state.obstacles.values()]
        for h in sorted(range(-90, 91, 5), key=lambda h: (abs(h), h)):
            poly = trailer_behind(cab, v.trailer.length, v.trailer.width, float(h)).polygon()
            if not all(0.0 <= px <= state.width and 0.0 <= py <= state.height
                       for px, py in poly):
                continue
            if any(penetration(poly, o) >= -1e-6 for o in placed) or any(
                    penetration(poly, o) > 1e-6 for o in terrain):
                continue
            return float(h)
        return None

    # -- play ------------------------------------------------------------------------------------
    def respawn_positions(self, game: Game, vehicle: VehicleState) -> dict[str, Pose]:
        """Ruling SP-3 (p.90 leaves it to the scenario; p.62 has no rule): a vehicle that is
        not on the table as a wreck comes back on the starting grid, as at deployment, clear
        of every vehicle in play."""
        st = game.state
        placed = [o.id for o in st.in_play() if o.id != vehicle.id]
        slots = self.grid_slots(st, vehicle, placed=placed)
        return {f"starting grid {k} mm": pose for k, pose in slots.items()}

    def _respawned(self, value: Any, ctx: dict[str, Any]) -> None:
        """A vehicle placed back on the grid folds its trailer to fit, as at deployment."""
        game: Game = ctx["game"]
        data = ctx["data"]
        v = game.state.vehicles.get(str(data.get("vehicle")))
        if v is None or v.trailer is None or data.get("how") != "placed":
            return
        placed = [r.polygon() for o in game.state.in_play() if o.id != v.id
                  for _, r in o.bodies()]
        hinge = self._fold_to_fit(game.state, v, v.pose, placed)
        if hinge is not None:
            v.trailer.hinge = hinge

    def _after_move(self, value: Any, ctx: dict[str, Any]) -> None:
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        result = ctx.get("result")
        if result is not None and v.in_contention:
            # A move whose whole sweep stays in a box clear of the finish line by more than
            # the reach of a point goal (1 mm) cannot cross it: its poses are not needed.
            far = penetration(result.swept_box(), [self.finish_line.a, self.finish_line.b]) \
                < -FAR_FROM_LINE
            self._judge(game, v, [] if far else result.swept(SAMPLES), after_move=True)

    def table_facts(self, game: Game, vehicle: VehicleState) -> Flow:
        """At a real table the people say whether the move crossed the finish line."""
        if not game.facts.people or not self._may_finish(game, vehicle):
            return
        from carnage.games.refuelled.engine.table_facts import ask_yes_no

        crossed = yield from ask_yes_no(
            game, vehicle.player, "finish_line", f"{vehicle.name}: did its move cross the "
            "finish line?", page=PAGE, vehicle=vehicle.id)
        if crossed:
            self._crossed(game, vehicle)

    def _may_finish(self, game: Game, v: VehicleState) -> bool:
        """Whether a crossing by ``v`` now would count: a racer, in contention, first."""
        return (self.counts(game, v) and v.in_contention
                and game.state.scenario.get("crossed") is None)

    def _crossed(self, game: Game, v: VehicleState) -> None:
        game.state.scenario["crossed"] = v.id
        game.emit("finish_line", source=SOURCE, page=PAGE, vehicle=v.id, player=v.player)
        game.finish(v.player, f"{v.name} crossed the finish line")

    def see_all(self, state: GameState) -> None:
        """Remember where every vehicle stands now (in the state: the scenario's progress)."""
        state.scenario["seen"] = {v.id: v.pose for v in state.vehicles.values()}

    def _judge(self, game: Game, v: VehicleState, poses: list[Pose],
               after_move: bool = False) -> None:
        sc = game.state.scenario
        sc.setdefault("seen", {})[v.id] = v.pose
        if not self.counts(game, v) or not v.in_contention:
            return  # an RC Car (p.79), a Ghost Rider (p.101), a wreck (SC-44) cannot win
        if sc.get("crossed") is None:
            crossed = crosses(self.finish_line, poses, v.length, v.width)
            if after_move:  # the fact a real table is asked after a Movement Step
                game.facts.note("finish_line", crossed)
            if crossed:
                self._crossed(game, v)

    def check_end(self, game: Game) -> None:
        # Moves made outside a Movement Step (forced moves, pivots) are judged from the last
        # pose seen to the current one: straight lines, which is what those moves are.
        seen = game.state.scenario.setdefault("seen", {})
        for v in game.state.in_play():
            before = seen.get(v.id)
            if before is not None and before != v.pose and not game.state.finished:
                self._judge(game, v, [before, v.pose])
            seen[v.id] = v.pose
        if not game.state.finished:
            super().check_end(game)
