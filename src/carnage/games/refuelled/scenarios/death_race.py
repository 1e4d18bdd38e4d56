"""Death Race, a Televised Event (Refuelled pp.124-128).

Racers drive through numbered, one-way gates in order (scenarios/gates.py); the first
vehicle that is not a Helicopter or Gyrocopter across the Finish Line wins at once, and a player
left alone with vehicles in play at the end of a Gear Phase wins too.

- Table: a seeded track (scenarios/race_tracks.py: tear-drop, loop or figure of eight,
  terrain on the racing line, a clear run to Gate 1), or gates given in the scenario options
  (``gates``: a list of ``{x, y, heading}``, with ``loop`` and ``laps``) on any table.
- Pole (p.125): a roll-off; whenever the holder passes a gate other than the Starting Line with
  any vehicle, they hand Pole to another player of their choice (a decision, through
  ``move_pole`` so Carpe Diem may hold it). Pole is never passed clockwise.
- Starting grid (p.126): a column per player behind the Starting Line, ranks as deep as needed,
  filled front rank first in Pole order, a finger's width between vehicles (ruling DTH-2).
- Green Light (p.127): everyone starts with the Starting Line passed. Weapons stay off until a
  vehicle passes Gate 1 (Smash Attacks and upgrades still work). The first vehicle through each
  gate makes every other player roll for a catch-up Audience Vote. A respawned vehicle that is
  not on the table as a wreck comes back touching the line of the last gate it passed.
- Runners-up (p.128): the order of places is frozen the moment the race is won
  (``state.scenario["places"]``, also in ``report()``).
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario import TeamDemand
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.engine.votes import allies, gain_votes
from carnage.games.refuelled.rules.perks.speed import GATE_PASSED
from carnage.games.refuelled.scenarios import race_tracks
from carnage.games.refuelled.scenarios.base import TELEVISED, Line, TableScenario
from carnage.games.refuelled.scenarios.gates import (
    LONG_STRAIGHT,
    POST_SIZE,
    Gate,
    Track,
    gate_drawables,
    interpolate,
    passes_along,
    point_segment_gap,
)
from carnage.geometry.shapes import Pose, Rect, penetration
from carnage.kernel.briefing import BriefRule, Scoreboard, SeatScore, refuelled
from carnage.render.svg import seat_name
from carnage.team.io import parse_team
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

PAGE = 124
SOURCE = "death_race"
EFFECT = "scenario:death-race"
FINGER = 10.0
"""Ruling DTH-2: a finger's width (mm) kept clear all round each vehicle on the grid."""
SAMPLES = 48
"""Poses sampled along a move when judging gates (about 4 mm apart on a Long Straight)."""
AIRCRAFT = frozenset({"helicopter", "gyrocopter"})
"""Vehicle types that pass gates but cannot win by crossing the Finish Line (p.128)."""
COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Teal")
GRID_DEPTH_GUESS = 2
"""Ranks the generated track leaves room for behind the Starting Line."""
_TRACKS: dict[int, tuple[Any, Any, Track]] = {}
"""Tracks read by ``DeathRace.track``, by the identity of the data read: that data, a copy
of it as it was then, and the track."""
GRID_RACER_LENGTH = 80.0
"""The longest racer (mm) those ranks are deep enough for."""


class DeathRace(TableScenario):
    id = "death-race"
    name = "Death Race"
    page = PAGE
    width = 1200.0
    height = 1200.0
    min_players = 2
    max_players: int | None = None
    summary = ("Race through numbered one-way gates in order; the first across the finish "
               "line wins, or the last player still driving.")
    last_page = 128
    how_to_win = ("Drive through the gates in number order, each the way its arrow points; the"
                  " first vehicle (not a helicopter or gyrocopter) across the Finish Line "
                  "after the last gate wins at once. A player left alone with vehicles in play"
                  " at the end of a Gear Phase wins too.")
    special_rules = (
        BriefRule("Gates",
                  ("Each gate is a Long Straight wide and counts only when passed in its turn "
                   "and in its direction."),
                  refuelled(124)),
        BriefRule("Pole Position",
                  ("A roll-off decides it; whoever holds it and passes a gate (not the "
                   "Starting Line) hands it to another player of their choice."),
                  refuelled(125)),
        BriefRule("Starting grid",
                  ("Vehicles line up in columns behind the Starting Line, front rank first, in"
                   " Pole order."),
                  refuelled(126)),
        BriefRule("Green Light",
                  ("Weapons stay silent until a vehicle has passed Gate 1; smashes and "
                   "upgrades still work."),
                  refuelled(127)),
        BriefRule("Catch-up votes",
                  ("The first vehicle through each gate lets every other player roll for an "
                   "Audience Vote, helped by how far behind they are."),
                  refuelled(127)),
        BriefRule("Respawns",
                  "A vehicle comes back touching the last gate it passed.",
                  refuelled(127)),
        BriefRule("Places",
                  ("When the race is won, the others are placed by gates passed, then by "
                   "distance to their next gate."),
                  refuelled(128)),
    )
    score_title = "Gates passed"
    score_target = "first across the Finish Line"
    table: str | None = TELEVISED
    table_rolls = (1, 2)
    options_schema: ClassVar[dict[str, tuple[type, Any]]] = {
        "shape": (str, "any"), "laps": (int, 1), "gates": (list, []), "loop": (bool, True),
        "gate_posts": (bool, True),
    }

    # -- the table -------------------------------------------------------------------------------
    def lay_out(self, state: GameState) -> None:
        """Without a table seed (an older set-up path): the track a fixed seed lays out."""
        self.generate(state, random.Random("carnage-table:death-race"))

    def generate(self, state: GameState, rng: random.Random) -> None:
        """The track and its terrain from ``rng`` (the game's table seed), or the gates of
        the ``gates`` option."""
        opts = self._options(state)
        if opts["gates"]:
            track = self._option_track(opts)
            self._check_on_table(state, track)
            terrain: tuple[Any, ...] = ()
            shape = "given"
        else:
            grid_w, grid_d = self._grid_guess(state)
            shape_opt = str(opts["shape"])
            try:
                lay = race_tracks.generate(rng, state.width, state.height, grid_width=grid_w,
                                           grid_depth=grid_d,
                                           shape=None if shape_opt == "any" else shape_opt,
                                           laps=int(opts["laps"]))
            except ValueError as e:
                from carnage.games.refuelled.setup import SetupError

                raise SetupError(f"scenario option 'shape': {e}") from None
            track, terrain, shape = lay.track, lay.terrain, lay.shape
        self._put_track(state, track, shape)
        for ob in terrain:
            state.obstacles[ob.id] = ob

    @staticmethod
    def _options(state: GameState) -> dict[str, Any]:
        given = state.scenario.get("options") or {}
        out = {k: v[1] for k, v in DeathRace.options_schema.items()}
        out.update({k: v for k, v in given.items() if k in out})
        return out

    @staticmethod
    def _option_track(opts: dict[str, Any]) -> Track:
        from carnage.games.refuelled.setup import SetupError

        raw = [dict(g, posts=bool(opts["gate_posts"])) if isinstance(g, dict) else g
               for g in opts["gates"]]
        try:
            track = Track.from_json({"gates": raw, "loop": bool(opts["loop"]),
                                     "laps": int(opts["laps"])})
        except ValueError as e:
            raise SetupError(f"scenario option 'gates': {e}") from None
        return track

    @staticmethod
    def _check_on_table(state: GameState, track: Track) -> None:
        from carnage.games.refuelled.setup import SetupError

        for g in track.gates:
            if not all(0.0 <= x <= state.width and 0.0 <= y <= state.height
                       for x, y in (g.line.a, g.line.b)):
                raise SetupError(f"scenario option 'gates': gate {g.number} lies partly off "
                                 f"the {state.width:.0f} x {state.height:.0f} mm table")

    @staticmethod
    def _grid_guess(state: GameState) -> tuple[float, float]:
        """Room the generator keeps behind the Starting Line (vehicles are not known yet)."""
        pitch = 40.0 + FINGER
        return (max(LONG_STRAIGHT, state.players * pitch),
                GRID_DEPTH_GUESS * (GRID_RACER_LENGTH + FINGER))

    @staticmethod
    def _put_track(state: GameState, track: Track, shape: str) -> None:
        state.scenario["track"] = track.to_json()
        state.scenario["shape"] = shape
        for g in track.gates:
            for post in g.post_obstacles():
                state.obstacles[post.id] = post

    @staticmethod
    def track(state: GameState) -> Track:
        """The race's track (from the state: the scenario keeps no game's memory; the last
        few tracks read are remembered with a copy of the data they were read from, and
        read again when that data changed)."""
        raw = state.scenario["track"]
        hit = _TRACKS.get(id(raw))
        if hit is not None and hit[0] is raw and hit[1] == raw:
            return hit[2]
        track = Track.from_json(raw)
        if len(_TRACKS) >= 64:
            _TRACKS.clear()
        _TRACKS[id(raw)] = (raw, copy.deepcopy(raw), track)
        return track

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        """A Car and a Buggy per player, each with a front machine gun (our choice: p.124
        leaves teams to the players)."""
        teams = []
        for p in range(players):
            colour = COLOURS[p % len(COLOURS)] + ("" if p < len(COLOURS) else f" {p + 1}")
            teams.append(parse_team({
                "name": f"{colour} Racers", "cans": 25,
                "vehicles": [
                    {"name": f"{colour} Car", "type": "car",
                     "weapons": [{"id": "machine_gun", "facing": "front"}]},
                    {"name": f"{colour} Buggy", "type": "buggy",
                     "weapons": [{"id": "machine_gun", "facing": "front"}]},
                ],
            }, f"death race team {p + 1}"))
        return tuple(teams)

    # -- progress (all in state.scenario) --------------------------------------------------------
    @staticmethod
    def progress(state: GameState, vehicle: VehicleState) -> int:
        """Course steps ``vehicle`` has passed (0: only the Starting Line, by Green Light)."""
        return int(state.scenario.get("progress", {}).get(vehicle.id, 0))

    def next_gate(self, state: GameState, vehicle: VehicleState) -> Gate | None:
        return self.track(state).next_gate(self.progress(state, vehicle))

    def weapons_on(self, state: GameState, vehicle: VehicleState) -> bool:
        """Weapons work once the vehicle has passed Gate 1 (p.127), respawned or not."""
        return self.progress(state, vehicle) >= 1

    # -- bots ------------------------------------------------------------------------------------
    def goals_reached(self, state: GameState, vehicle: VehicleState) -> int:
        """Course steps passed: each gate moves the goal on to the next one."""
        return self.progress(state, vehicle)

    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """The next gate's line, kept clear of its posts; from the wrong side of it, a line
        a Long Straight back on its near side, to come round and pass it the right way."""
        if "track" not in state.scenario:
            return None
        gate = self.next_gate(state, vehicle)
        if gate is None:
            return None
        line = gate.line
        inset = vehicle.width / 2.0 + (POST_SIZE / 2.0 + 25.0 if gate.posts else 5.0)
        ux, uy = line.along
        half = max(2.0, line.length / 2.0 - inset)
        (cx, cy), (nx, ny) = line.centre, line.normal
        ahead = (vehicle.pose.x - cx) * nx + (vehicle.pose.y - cy) * ny
        if ahead > -5.0:
            # Back no nearer the table edge than the gate's own width (room to turn).
            back = LONG_STRAIGHT
            while back > 0.0 and not _inside(state, cx - nx * back, cy - ny * back,
                                             LONG_STRAIGHT / 2.0 + 60.0):
                back -= 20.0
            cx, cy = cx - nx * max(back, 0.0), cy - ny * max(back, 0.0)
        return Line((cx - ux * half, cy - uy * half), (cx + ux * half, cy + uy * half),
                    (nx, ny))

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        """Pole goes to the player furthest behind; the racer in front activates first; no
        faster than gear 3 and few Hazards; evade in collisions; a grid place nearest the
        middle of the Starting Line; a respawn facing the next gate most squarely. Anything
        else: the shared advice (``TableScenario.bot_choice``)."""
        st = game.state
        values = [o.value for o in decision.options]
        if decision.kind == "pass_pole" and values:
            def best(p: Any) -> tuple[int, int]:
                mine = [self.progress(st, v) for v in st.vehicles.values()
                        if v.player == int(p) and self.counts(game, v)]
                return (max(mine, default=0), int(p))
            return min(values, key=best)
        if "track" not in st.scenario:
            return super().bot_choice(game, decision)
        if decision.kind == "activate" and values:
            # The racer in front goes first, so the ones behind do not run into it.
            return min(values, key=lambda k: self._behind(st, st.vehicles[str(k)]))
        v = st.vehicles.get(decision.vehicle or "")
        if v is None:
            return super().bot_choice(game, decision)
        if decision.kind == "skid_dice" and values:
            # Corners come often on a race track: no faster than gear 3, few Hazards.
            want = 0 if v.gear >= 3 or v.hazards >= 2 else 1
            return min((int(x) for x in values), key=lambda n: abs(n - want))
        if decision.kind == "collision_reaction" and "evade" in values:
            # A racer wants to finish: it keeps out of trouble rather than trading blows.
            return "evade"
        if decision.kind == "grid":
            slots = self.grid_slots(st, v)
            line = self.track(st).start.line
            return min((x for x in values if str(x) in slots), default=None,
                       key=lambda k: math.dist((slots[str(k)].x, slots[str(k)].y),
                                               line.centre))
        if decision.kind == "respawn_position":
            spots = self.respawn_positions(game, v)
            gate = self.track(st).next_gate(self.progress(st, v))
            if gate is None or not spots:
                return None
            gx, gy = gate.line.centre

            def off(k: Any) -> float:
                pose = spots[str(k)]
                want = math.degrees(math.atan2(gy - pose.y, gx - pose.x))
                return abs((pose.heading - want + 180.0) % 360.0 - 180.0)
            return min((x for x in values if str(x) in spots), default=None, key=off)
        return super().bot_choice(game, decision)

    def _behind(self, state: GameState, v: VehicleState) -> tuple[int, float, str]:
        """How far back ``v`` runs: fewer gates passed, then further from its next gate."""
        gate = self.next_gate(state, v)
        far = 0.0 if gate is None else point_segment_gap((v.pose.x, v.pose.y), gate.line.a,
                                                         gate.line.b)
        return (-self.progress(state, v), far, v.id)

    # -- effects ---------------------------------------------------------------------------------
    def install(self, game: Game) -> None:
        fx = game.effects
        fx.add_flow("move_window", EFFECT, lambda ctx: self._move_window, priority=40)
        fx.add_flow("step_end", EFFECT, lambda ctx: self._step_end, priority=-40)
        fx.on("logged:pivot", EFFECT, self._pivoted)
        fx.on("logged:respawn", EFFECT, self._placed)
        fx.on("logged:teleport", EFFECT, self._placed)
        fx.on("weapon_supported", EFFECT, self._weapon_supported, priority=-200)
        fx.on("attack_options", EFFECT, self._attack_options, priority=-200)

    def _weapon_supported(self, value: bool, ctx: dict[str, Any]) -> bool | None:
        v, game = ctx.get("vehicle"), ctx.get("game")
        if isinstance(v, VehicleState) and game is not None and \
                not self.weapons_on(game.state, v):
            return False
        return None

    def _attack_options(self, value: list[Any], ctx: dict[str, Any]) -> list[Any] | None:
        v, game = ctx.get("vehicle"), ctx.get("game")
        if isinstance(v, VehicleState) and game is not None and \
                not self.weapons_on(game.state, v):
            return []
        return None

    def _move_window(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """A move (the Movement Step's or a forced one) judged along the way it went."""
        v: VehicleState = ctx["vehicle"]
        result = ctx.get("result")
        seen = game.state.scenario.setdefault("seen", {})
        if game.facts.people:  # a real table: the people say which gates the move passed
            yield from self._gates_told(game, v)
        elif result is not None and v.in_contention:
            path = result.swept(SAMPLES)
            before = seen.get(v.id)
            if before is not None and before != path[0]:
                path = interpolate(before, path[0])[:-1] + path
            if path[-1] != v.pose:
                path = path + interpolate(path[-1], v.pose)[1:]
            self._judge(game, v, path, note=True)
        yield from self._hand_off(game)

    MOST_GATES_ASKED = 6
    """A move passing more gates than this at once is not offered at a real table."""

    def _gates_told(self, game: Game, v: VehicleState) -> Flow:
        """At a real table: how many of its next gates, in course order and each travelling
        its way, the move took ``v`` through (p.127); each is passed as on the exact table."""
        st = game.state
        if "track" not in st.scenario or not self.counts(game, v) or not v.in_contention \
                or st.finished:
            return
        track = self.track(st)
        done = self.progress(st, v)
        left = min(len(track.course) - done, self.MOST_GATES_ASKED)
        if left <= 0:
            return
        from carnage.games.refuelled.engine.table_facts import ask_pick

        nxt = track.gates[track.course[done]].number
        n = int((yield from ask_pick(
            game, v.player, "gates_passed", f"{v.name}: through how many gates did the move "
            f"take it, in course order from gate {nxt} (each travelling its way)?",
            [(str(k), str(k)) for k in range(left + 1)], page=127, vehicle=v.id)))
        for step in range(done, done + n):
            self._passed(game, v, track, step)
            if st.finished:
                return

    def _step_end(self, game: Game, ctx: dict[str, Any]) -> Flow:
        self._catch_up(game)
        yield from self._hand_off(game)

    def _pivoted(self, value: None, ctx: dict[str, Any]) -> None:
        game: Game = ctx["game"]
        v = game.state.vehicles.get(str(ctx["data"].get("vehicle")))
        if v is not None:
            self._catch_up(game, [v])

    def _placed(self, value: None, ctx: dict[str, Any]) -> None:
        """Placed, not driven (a respawn, a teleport): no gate is passed on the way."""
        game: Game = ctx["game"]
        v = game.state.vehicles.get(str(ctx["data"].get("vehicle")))
        if v is not None:
            game.state.scenario.setdefault("seen", {})[v.id] = v.pose

    def _catch_up(self, game: Game, vehicles: list[VehicleState] | None = None) -> None:
        """Any other motion (a pivot, a shove), judged from where the vehicle was last seen,
        straight and turning evenly."""
        st = game.state
        if "track" not in st.scenario:
            return
        seen = st.scenario.setdefault("seen", {})
        for v in st.in_play() if vehicles is None else vehicles:
            if st.finished:
                return
            before = seen.get(v.id)
            if before is not None and before != v.pose and v.in_contention:
                self._judge(game, v, interpolate(before, v.pose))
            seen[v.id] = v.pose

    def see_all(self, state: GameState) -> None:
        state.scenario["seen"] = {v.id: v.pose for v in state.vehicles.values()}

    # -- passing gates ---------------------------------------------------------------------------
    def _judge(self, game: Game, v: VehicleState, poses: list[Pose],
               note: bool = False) -> None:
        st = game.state
        st.scenario.setdefault("seen", {})[v.id] = v.pose
        if not self.counts(game, v) or not v.in_contention or st.finished:
            return  # an RC Car (p.79), a Ghost Rider (p.101), a wreck (SC-44) is not racing
        track = self.track(st)
        steps = passes_along(track, self.progress(st, v), poses, v.length, v.width)
        if note and game.facts.recording and self.progress(st, v) < len(track.course):
            game.facts.note("gates_passed", str(len(steps)))  # as a real table is asked
        for step in steps:
            self._passed(game, v, track, step)
            if st.finished:
                return

    def _passed(self, game: Game, v: VehicleState, track: Track, step: int) -> None:
        st = game.state
        sc = st.scenario
        sc.setdefault("progress", {})[v.id] = step + 1
        gate = track.gates[track.course[step]]
        first = str(step) not in sc.setdefault("first", {})
        if first:
            sc["first"][str(step)] = v.id
        game.emit(GATE_PASSED, source=SOURCE, page=127, vehicle=v.id, player=v.player,
                  gate=gate.number, step=step, lap=track.lap_of(step), first=first)
        if step == len(track.course) - 1:
            game.emit("finish_line", source=SOURCE, page=128, vehicle=v.id, player=v.player)
            if v.type not in AIRCRAFT:
                sc["crossed"] = v.id
                places = self.places(game, winner=v)
                sc["places"] = places["players"]
                sc["vehicle_places"] = places["vehicles"]
                game.finish(v.player, f"{v.name} crossed the finish line")
                return
        if v.player == st.pole and gate.number != track.start.number \
                and sc.get("handoff") is None:
            sc["handoff"] = v.player  # asked at the next moment a decision can be
        if first:
            self._catch_up_votes(game, v, step)

    def _catch_up_votes(self, game: Game, v: VehicleState, step: int) -> None:
        """Every other player rolls a D6 plus the gates their front-most vehicle is behind;
        6+ gains a vote (p.127; ruling DTH-5)."""
        st = game.state
        for p in st.clockwise_from(v.player)[1:]:
            mine = [o for o in st.vehicles.values() if o.player == p and self.counts(game, o)]
            if not mine:
                continue
            behind = step + 1 - max(self.progress(st, o) for o in mine)
            roll = game.roll(1, "catch-up", source=SOURCE, page=127, player=p,
                             behind=behind)[0]
            if roll + behind >= 6:
                gain_votes(game, p, 1, source=SOURCE, page=127, reason="catch-up")

    def _hand_off(self, game: Game) -> Flow:
        """The Pole holder passed a gate: they choose another player to hand Pole to (p.125;
        never a teammate, p.123)."""
        st = game.state
        holder = st.scenario.get("handoff")
        if holder is None:
            return
        st.scenario["handoff"] = None
        if st.finished or st.pole != holder:
            return
        mates = allies(game, holder)
        others = [p for p in st.clockwise_from(holder) if p not in mates]
        if not others:
            return
        to = yield ask(holder, "pass_pole",
                       "Death Race: you passed a gate; choose the player to hand Pole to",
                       [(p, seat_name(p)) for p in others], source=SOURCE, page=125)
        self.move_pole(game, int(to), "passed a gate", source=SOURCE, page=125)

    # -- set-up: pole position and the starting grid ---------------------------------------------
    def setup(self, game: Game) -> Flow:
        st = game.state
        if "track" not in st.scenario:
            # A table laid out by hand: the gates come from the options, else a track is
            # generated around the terrain from the layout (the same layout, the same track).
            opts = self._options(st)
            if opts["gates"]:
                track = self._option_track(opts)
                self._check_on_table(st, track)
                shape = "given"
            else:
                lay = self._track_around_terrain(st)
                track, shape = lay.track, lay.shape
            self._put_track(st, track, shape)
            game.emit("track", source=SOURCE, page=PAGE, shape=shape,
                      gates=len(track.gates))
        st.scenario.setdefault("progress", {v.id: 0 for v in st.vehicles.values()})
        st.scenario["grid"] = self._grid_plan(st)
        for v in st.vehicles.values():  # refused at once, before anyone is asked anything
            self._need_grid_room(st, v)
        self._check_grid_holds_everyone(st)
        st.pole = self.roll_off(game)
        order = st.clockwise_from(st.pole)
        waiting = {p: [v.id for v in st.vehicles.values() if v.player == p] for p in order}
        while any(waiting.values()):
            for p in order:
                if not waiting[p]:
                    continue
                vid = yield ask(
                    p, "deploy", "Death Race: choose a vehicle to place on the starting grid",
                    [(i, st.vehicles[i].name) for i in waiting[p]], source=SOURCE, page=126,
                )
                v = st.vehicles[str(vid)]
                slots = self._need_grid_room(st, v)
                pick = yield ask(
                    p, "grid", f"Death Race: where on the starting grid does {v.name} go?",
                    [(k, _slot_label(k)) for k in slots], source=SOURCE, page=126,
                    vehicle=v.id,
                )
                v.pose = slots[str(pick)]
                if v.trailer is not None:
                    v.trailer.hinge = 0.0
                st.scenario["grid"]["taken"][str(pick)] = v.id
                waiting[p].remove(v.id)
                game.emit("deploy", source=SOURCE, page=126, vehicle=v.id, player=p,
                          slot=str(pick), x=round(v.pose.x, 3), y=round(v.pose.y, 3),
                          heading=round(v.pose.heading, 3))
        self.see_all(st)

    def _check_grid_holds_everyone(self, state: GameState) -> None:
        """The whole field placed in turn, each in the first place offered, must fit on the
        grid: else refused at set-up (``SetupError`` naming the vehicle left over)."""
        import copy

        trial = copy.deepcopy(state)
        waiting = {p: [v.id for v in trial.vehicles.values() if v.player == p]
                   for p in range(trial.players)}
        while any(waiting.values()):
            for p in range(trial.players):
                if waiting[p]:
                    v = trial.vehicles[waiting[p].pop(0)]
                    key, pose = next(iter(self._need_grid_room(trial, v).items()))
                    v.pose = pose
                    trial.scenario["grid"]["taken"][key] = v.id

    def team_demand(self, seat: int, players: int,
                    options: Mapping[str, Any] | None = None) -> TeamDemand:
        """What the grid the track generator leaves room for holds (ruling DTH-2): racers
        up to 80 mm long with no trailer, two ranks deep."""
        from carnage.catalog import load_catalog
        from carnage.geometry.footprints import footprint

        fits = frozenset(v.id for v in load_catalog().vehicles
                         if not v.has_trailer and footprint(v.id)[0] <= GRID_RACER_LENGTH)
        return TeamDemand(types=fits, max_vehicles=GRID_DEPTH_GUESS)

    def _need_grid_room(self, state: GameState, v: VehicleState) -> dict[str, Pose]:
        slots = self.grid_slots(state, v)
        if not slots:
            from carnage.games.refuelled.setup import SetupError

            raise SetupError(f"Death Race: no room on the starting grid behind the Starting "
                             f"Line for {v.name} ({seat_name(v.player)}; move the Starting "
                             f"Line away from the table edge and the terrain, or field fewer "
                             f"or shorter vehicles)")
        return slots

    def _track_around_terrain(self, state: GameState) -> race_tracks.Layout:
        key = ",".join(f"{o.id}:{o.pose.x:.0f}:{o.pose.y:.0f}"
                       for o in sorted(state.obstacles.values(), key=lambda o: o.id))
        grid_w, grid_d = self._grid_guess(state)
        return race_tracks.generate(random.Random(f"death-race-gates:{key}"), state.width,
                                    state.height, grid_width=grid_w, grid_depth=grid_d,
                                    laps=int(self._options(state)["laps"]),
                                    avoid=[o.polygon() for o in state.obstacles.values()],
                                    terrain=False)

    def roll_off(self, game: Game) -> int:
        """Each player rolls a die; the highest takes Pole; tied players roll again (p.125)."""
        rolling = list(range(game.state.players))
        while len(rolling) > 1:
            results = {
                p: game.roll(1, "pole roll-off", source=SOURCE, page=125, player=p)[0]
                for p in rolling
            }
            top = max(results.values())
            rolling = [p for p in rolling if results[p] == top]
        game.emit("pole", source=SOURCE, page=125, player=rolling[0], reason="roll-off")
        return rolling[0]

    def _grid_plan(self, state: GameState) -> dict[str, Any]:
        """Ruling DTH-2: the grid's columns (one per player) and rank depth. A column is as
        wide as the widest racer plus a finger; the columns share the gate's mouth when they
        fit between the posts, and run on past the posts (clear of them) when they do not.
        A rank is as deep as the longest racer (a trailer straight behind) plus a finger."""
        racers = [v for v in state.vehicles.values() if v.in_team] or \
            list(state.vehicles.values())
        widest = max((v.width for v in racers), default=30.0)
        longest = max((v.length + (v.trailer.length if v.trailer is not None else 0.0)
                       for v in racers), default=60.0)
        line = self.track(state).start.line
        players = state.players
        pitch = widest + FINGER
        posts = self.track(state).start.posts
        mouth = line.length - (POST_SIZE if posts else 0.0) - FINGER
        inside = min(players, max(0, math.floor(mouth / pitch)))
        if inside == players:
            pitch = max(pitch, mouth / players)
        offsets = [(k - (inside - 1) / 2.0) * pitch for k in range(inside)]
        first_out = line.length / 2.0 + (POST_SIZE / 2.0 if posts else 0.0) + FINGER \
            + (pitch - FINGER) / 2.0
        for j in range(players - inside):
            side = 1.0 if j % 2 == 0 else -1.0
            offsets.append(side * (first_out + (j // 2) * pitch))
        offsets.sort()
        return {"columns": [round(o, 3) for o in offsets], "depth": longest + FINGER,
                "taken": {}}

    def grid_slots(self, state: GameState, v: VehicleState) -> dict[str, Pose]:
        """Free places on the starting grid for ``v``, in the front rank that still has one
        (p.126): square to the Starting Line, facing Gate 1, the front rank touching the line,
        a finger's width from every vehicle placed, on the table and clear of terrain."""
        plan = state.scenario["grid"]
        line = self.track(state).start.line
        (cx, cy), (ux, uy), (nx, ny) = line.centre, line.along, line.normal
        heading = line.heading()
        placed = [r.polygon() for vid in plan["taken"].values()
                  for _, r in state.vehicles[vid].bodies()]
        terrain = [ob.polygon() for ob in state.obstacles.values()]
        max_ranks = len(state.vehicles) + 1
        for rank in range(max_ranks):
            out: dict[str, Pose] = {}
            back = rank * float(plan["depth"]) + v.length / 2.0
            for col, off in enumerate(plan["columns"]):
                key = f"r{rank + 1}c{col + 1}"
                if key in plan["taken"]:
                    continue
                pose = Pose(cx + ux * off - nx * back, cy + uy * off - ny * back, heading)
                polys = [Rect(pose, v.length, v.width).polygon()]
                if v.trailer is not None:
                    from carnage.geometry.movement import trailer_behind

                    polys.append(trailer_behind(Rect(pose, v.length, v.width),
                                                v.trailer.length, v.trailer.width,
                                                0.0).polygon())
                if not all(0.0 <= x <= state.width and 0.0 <= y <= state.height
                           for poly in polys for x, y in poly):
                    continue
                if any(penetration(poly, o) > -FINGER + 1e-6 for poly in polys
                       for o in placed):
                    continue
                if any(penetration(poly, o) > 1e-6 for poly in polys for o in terrain):
                    continue
                out[key] = pose
            if out:
                return out
        return {}

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        """The poses a ``grid`` or ``respawn_position`` decision offers its vehicle."""
        v = game.state.vehicles.get(decision.vehicle or "")
        if v is None:
            return {}
        if decision.kind == "grid":
            slots = self.grid_slots(game.state, v)
        elif decision.kind == "respawn_position":
            slots = self.respawn_positions(game, v)
        else:
            return {}
        return {str(o.value): slots[str(o.value)] for o in decision.options
                if str(o.value) in slots}

    # -- respawn ---------------------------------------------------------------------------------
    def respawn_positions(self, game: Game, vehicle: VehicleState) -> dict[str, Pose]:
        """Touching the line of the last gate it passed, facing any way (p.127; ruling
        DTH-7): five places along the line, eight headings each, on the gate's far side, on
        the table and clear of every obstacle and vehicle in play."""
        st = game.state
        track = self.track(st)
        gate = track.last_gate(self.progress(st, vehicle))
        line = gate.line
        (cx, cy), (ux, uy), (nx, ny) = line.centre, line.along, line.normal
        base = line.heading()
        others = [ob.polygon() for ob in st.obstacles.values()]
        others += [r.polygon() for o in st.in_play() if o.id != vehicle.id
                   for _, r in o.bodies()]
        reach = line.length / 2.0 - (POST_SIZE if gate.posts else 0.0)
        out: dict[str, Pose] = {}
        for off in (0.0, -reach / 2.0, reach / 2.0, -reach, reach):
            for turn in (0, 45, -45, 90, -90, 135, -135, 180):
                t = math.radians(turn)
                depth = vehicle.length / 2.0 * abs(math.cos(t)) + \
                    vehicle.width / 2.0 * abs(math.sin(t)) - 0.05
                pose = Pose(cx + ux * off + nx * depth, cy + uy * off + ny * depth,
                            (base + turn) % 360.0)
                poly = Rect(pose, vehicle.length, vehicle.width).polygon()
                if not line.touches(poly):
                    continue
                if not all(0.0 <= x <= st.width and 0.0 <= y <= st.height for x, y in poly):
                    continue
                if any(penetration(poly, o) >= -1e-6 for o in others):
                    continue
                out[f"gate {gate.number}, {off:+.0f} mm, facing {turn:+d}"] = pose
        return out

    # -- the end ---------------------------------------------------------------------------------
    def check_end(self, game: Game) -> None:
        """After every step only the gates are judged (motions the moves did not show); the
        last player standing is checked at the end of each Gear Phase (p.128)."""
        self._catch_up(game)

    def end_of_gear_phase(self, game: Game) -> Flow:
        """No clockwise pass (p.125): a hand-off still owed is asked, then the last player
        with vehicles in play wins (p.128)."""
        self._catch_up(game)
        yield from self._hand_off(game)
        if not game.state.finished:
            self.last_standing(game)

    def last_standing(self, game: Game) -> None:
        """One player (or side, p.123) left with vehicles in play wins; nobody left: the race
        goes on, for respawns (ruling DTH-9)."""
        st = game.state
        alive = {v.player for v in st.in_play() if self.counts(game, v)}
        if not alive or st.players < 2:
            return
        first = min(alive)
        if len(alive) == 1 or alive <= allies(game, first):
            winner = next(iter(alive)) if len(alive) == 1 else first
            places = self.places(game, winner_player=winner)
            st.scenario["places"] = places["players"]
            st.scenario["vehicle_places"] = places["vehicles"]
            game.finish(winner, "last player with vehicles in play" if len(alive) == 1
                        else "last team with vehicles in play")

    def places(self, game: Game, *, winner: VehicleState | None = None,
               winner_player: int | None = None) -> dict[str, list[Any]]:
        """The finishing order frozen now (p.128; ruling DTH-8): the winner; then vehicles
        in play that have passed every gate before the Finish Line, nearest to it first
        (centre to line); then every other racer by gates passed, then nearest its next gate;
        vehicles out of play last. A player's place is their best vehicle's."""
        st = game.state
        track = self.track(st)
        last = len(track.course) - 1
        finish = track.finish.line

        def to_gate(v: VehicleState) -> float:
            g = track.next_gate(self.progress(st, v))
            line = finish if g is None else g.line
            return point_segment_gap((v.pose.x, v.pose.y), line.a, line.b)

        def key(v: VehicleState) -> tuple[int, int, float, str]:
            if winner is not None and v.id == winner.id:
                return (0, 0, 0.0, v.id)
            if winner_player is not None and v.player == winner_player:
                return (0, -self.progress(st, v), to_gate(v), v.id)
            if not v.in_play:
                return (3, -self.progress(st, v), 0.0, v.id)
            done = self.progress(st, v) >= last
            return (1 if done else 2, -self.progress(st, v), to_gate(v), v.id)

        racers = sorted((v for v in st.vehicles.values() if self.counts(game, v)), key=key)
        players: list[int] = []
        for v in racers:
            if v.player not in players:
                players.append(v.player)
        players += [p for p in range(st.players) if p not in players]
        return {"players": players, "vehicles": [v.id for v in racers]}

    # -- what the table shows --------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        if "track" not in game.state.scenario:
            return []
        return gate_drawables(self.track(game.state))

    def report(self, game: Game) -> list[ReportRow]:
        """Who crossed the Finish Line; each racer's next gate and lap; the places."""
        st = game.state
        if "track" not in st.scenario:
            return []
        track = self.track(st)
        won = st.vehicles.get(st.scenario.get("crossed") or "")
        rows = [ReportRow("finish_crossed", "Finish line crossed by",
                          None if won is None else won.id,
                          "nobody yet" if won is None else won.name, tally=True)]
        for v in st.vehicles.values():
            if not self.counts(game, v):
                continue
            n = self.progress(st, v)
            g = track.next_gate(n)
            rows.append(ReportRow(f"next_gate:{v.id}", f"{v.name}",
                                  None if g is None else g.number, _next_text(track, n)))
        places = st.scenario.get("places") or self.places(game)["players"]
        rows.append(ReportRow("places", "Places" if st.finished else "Running order",
                              ",".join(str(p + 1) for p in places),
                              ", ".join(f"{i + 1}. {seat_name(p)}"
                                        for i, p in enumerate(places))))
        return rows

    def scoreboard(self, game: Game) -> Scoreboard | None:
        """Each seat's gates passed (its racer furthest round the course), ranked in the
        running order of p.128 (the places, once the race is won), each racer's next gate."""
        st = game.state
        if "track" not in st.scenario:
            return super().scoreboard(game)
        track = self.track(st)
        steps = len(track.course)
        places = list(st.scenario.get("places") or self.places(game)["players"])
        rows = []
        for p in range(st.players):
            racers = [v for v in st.vehicles.values() if v.player == p and self.counts(game, v)]
            best = max((self.progress(st, v) for v in racers), default=0)
            lap = (f", lap {track.lap_of(best)} of {track.laps}"
                   if track.loop and track.laps > 1 and best < steps else "")
            score = "finished" if best >= steps else f"{best} of {steps} gates{lap}"
            rows.append(SeatScore(
                p, score, float(len(places) - places.index(p)) if p in places else 0.0,
                tuple(f"{v.name}: {_next_text(track, self.progress(st, v))}"
                      + ("" if v.in_play else " (out of play)") for v in racers),
                out=not any(v.in_play for v in racers)))
        laps = f", {track.laps} laps" if track.laps > 1 else ""
        return Scoreboard(self.score_title, tuple(rows),
                          f"{self.score_target} ({steps} gates{laps})")


def _next_text(track: Track, passed: int) -> str:
    """A racer's next gate in words: "next gate 3", "next gate 0 (finish), lap 2 of 3"."""
    g = track.next_gate(passed)
    if g is None:
        return "finished"
    laps = f" of {track.laps}" if track.laps > 1 else ""
    return (f"next gate {g.number}" + (" (finish)" if passed == len(track.course) - 1 else "")
            + (f", lap {track.lap_of(passed)}{laps}" if track.loop else ""))


def _slot_label(key: str) -> str:
    rank, col = key[1:].split("c")
    return f"rank {rank}, column {col}"



def _inside(state: GameState, x: float, y: float, margin: float) -> bool:
    return margin <= x <= state.width - margin and margin <= y <= state.height - margin
