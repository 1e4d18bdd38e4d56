"""Desert Strike, a Special Event (Refuelled pp.145-147).

Teams are Helicopters and Gyrocopters only; every sponsor may buy Helicopters (DS-8). The book
gives no Pole Position rule: roll off and pass it clockwise (DS-6, as TC-3). Our table is 1200
mm square (DS-9), an arena of seeded terrain kept off the rocket turrets' ring.

Set-up, in order: 6 rocket turrets on a circle exactly Double from the centre, 60 degrees
apart; in Pole order, flags within Double of the centre (grid candidates, ``FLAG_GRID``) until
there are at least 6 and everyone has placed one; in Pole order, toxic clouds (Large Burst
templates, ``CLOUD_GRID`` centres and two facings; DS-7) until there are at least 6 and
everyone has placed one; spawn points (more than Double from every spawn point and flag); then
deployment within Short of them; respawns come back there.

Rules: rocket turrets and toxic clouds (scenarios/emplacements.py, clouds.py);
Fireworks Show: wrecking a turret gives 2 votes; flags are carried tokens (common/tokens.py),
picked up by touch (Airborne craft too: DS-10), dropped touching a wreck, and may be set down
within Short at the end of the carrier's activation.

Victory: the first side with 2 flags within Short of its spawn point, carried or not, wins at
once; otherwise, after round 3, the most flags within Short of the spawn point or carried by
its vehicles (ties: ruling SC-4).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario import TeamDemand
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.engine.table_facts import NOTHING
from carnage.games.refuelled.engine.votes import gain_votes
from carnage.games.refuelled.scenarios.arena import arena_terrain, centre, grid_points, ring
from carnage.games.refuelled.scenarios.base import SPECIAL, Line, TableScenario
from carnage.games.refuelled.scenarios.clouds import (
    cloud_drawables,
    cloud_polygon,
    install_clouds,
    lay_cloud,
)
from carnage.games.refuelled.scenarios.common import score, victory
from carnage.games.refuelled.scenarios.common.motion import motion_facts
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.common.spawn import (
    SPAWN_DIAMETER,
    SpawnPoints,
    deploy_at_spawn_points,
    place_spawn_points,
    spawn_option_poses,
    spawn_points,
)
from carnage.games.refuelled.scenarios.common.tokens import (
    TOKEN_SIZE,
    CarriedTokens,
    add_token,
    carried_by,
    disc,
    on_table,
    set_down_points,
    token_point,
    tokens,
)
from carnage.games.refuelled.scenarios.composition import scenario_team
from carnage.games.refuelled.scenarios.emplacements import (
    ROCKET_TURRET,
    add_turret,
    box,
    cover_penalty,
    install_emplacements,
    turret_drawables,
    turret_shot_pick,
    turrets,
)
from carnage.geometry.shapes import Point, distance, penetration
from carnage.kernel.briefing import BriefRule, Scoreboard, SeatScore, refuelled
from carnage.team import TeamReport, TeamSpec
from carnage.team.io import parse_team

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset
    from carnage.geometry.shapes import Pose
    from carnage.kernel.decisions import Decision

PAGE = 145
RULES_PAGE = 146
SOURCE = "desert_strike"
FLAG = "flag"
AIRCRAFT = ("helicopter", "gyrocopter")
TURRETS = 6
AT_LEAST = 6
"""At least this many flags and toxic clouds go down (p.145)."""
FLAGS_TO_WIN = 2
FIREWORKS_VOTES = 2
FLAG_GRID = 60.0
CLOUD_GRID = 120.0
CLOUD_HEADINGS = (0.0, 90.0)
ROCKET_COVER = 80.0
"""Bots' penalty per rocket turret die a move would draw (``emplacements.cover_penalty``)."""
COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Teal")


def flag_places(game: Game) -> dict[str, Point]:
    """Where a flag may go: grid points within Double of the centre where a 30 mm flag lies
    clear of terrain, turrets, vehicles and the other flags."""
    st = game.state
    c = centre(st)
    double = float(game.templates.ranges["double"])
    solid = [(box(o), o) for o in (ob.polygon() for ob in st.obstacles.values())]
    others = [token_point(st, k) for k in tokens(st, FLAG)]
    r = TOKEN_SIZE / 2.0

    def ok(p: Point) -> bool:
        if math.hypot(p[0] - c[0], p[1] - c[1]) > double + 1e-6:
            return False
        poly = disc(p, TOKEN_SIZE)
        if any(not (a0 > p[0] + r or p[0] - r > a1 or b0 > p[1] + r or p[1] - r > b1)
               and penetration(poly, o) > -1e-6 for (a0, b0, a1, b1), o in solid):
            return False
        return all(math.hypot(p[0] - q[0], p[1] - q[1]) > TOKEN_SIZE for q in others)

    return grid_points(st, FLAG_GRID, ok)


def cloud_places(game: Game) -> dict[str, tuple[Point, float]]:
    """Where a toxic cloud may go (DS-7): centres on a grid and two facings, the template
    wholly on the table, overlapping no turret, flag or other cloud."""
    st = game.state
    out: dict[str, tuple[Point, float]] = {}
    polys = [t.polygon() for t in turrets(game)]
    polys += [disc(token_point(st, k), TOKEN_SIZE) for k in tokens(st, FLAG)]
    polys += [list(t.polygon) for t in st.dropped.values()]
    boxed = [(box(o), o) for o in polys]
    for label, p in grid_points(st, CLOUD_GRID, lambda p: True).items():
        for h in CLOUD_HEADINGS:
            poly = list(cloud_polygon(game, p, h))
            if not all(0.0 <= x <= st.width and 0.0 <= y <= st.height for x, y in poly):
                continue
            x0, y0, x1, y1 = box(poly)
            if any(not (a0 > x1 or x0 > a1 or b0 > y1 or y0 > b1)
                   and penetration(poly, o) > -1e-6 for (a0, b0, a1, b1), o in boxed):
                continue
            out[f"{label}@{h:.0f}"] = (p, h)
    return out


class DesertStrike(SpawnPoints, RollOffPole, CarriedTokens, TableScenario):
    id = "desert-strike"
    name = "Desert Strike"
    page = PAGE
    width = 1200.0
    height = 1200.0
    summary = ("Helicopters and gyrocopters raid an arena ringed by rocket turrets and toxic "
               "clouds: bring two flags home, or hold the most after three rounds.")
    last_page = 147
    how_to_win = ("The first side with two flags within Short of its spawn point (carried or "
                  "not) wins at once; otherwise, after round 3, the most flags home or carried"
                  " wins.")
    special_rules = (
        BriefRule("Air power",
                  "Teams are helicopters and gyrocopters only.",
                  refuelled(145)),
        BriefRule("Rocket turrets",
                  ("Six turrets stand in a ring Double from the centre and fire at passing "
                   "aircraft."),
                  refuelled(146)),
        BriefRule("Toxic clouds",
                  "The players lay clouds of poison round the flags.",
                  refuelled(146)),
        BriefRule("Flags",
                  ("A flag is picked up by touch, dropped by a wreck and may be set down "
                   "within Short at the end of the carrier's activation."),
                  refuelled(146)),
        BriefRule("Fireworks show",
                  "Wrecking a rocket turret is worth 2 Audience Votes.",
                  refuelled(146)),
    )
    score_title = "Flags home or carried"
    score_target = "two flags home"
    table = SPECIAL
    table_rolls = (2,)
    round_limit = 3
    token_set_down = True

    # -- teams (M-32) ------------------------------------------------------------------------------
    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        """A Helicopter (heavy machine gun ahead, machine gun in a turret) and two
        Gyrocopters: 59 of the 70 Cans the book suggests (p.145)."""
        out = []
        for p in range(players):
            colour = COLOURS[p % len(COLOURS)] + ("" if p < len(COLOURS) else f" {p + 1}")
            out.append(parse_team({
                "name": f"{colour} Squadron", "cans": 70,
                "vehicles": [
                    {"name": f"{colour} Helicopter", "type": "helicopter",
                     "weapons": [{"id": "heavy_machine_gun", "facing": "front"},
                                 {"id": "machine_gun", "facing": "turret"}]},
                    {"name": f"{colour} Gyro 1", "type": "gyrocopter"},
                    {"name": f"{colour} Gyro 2", "type": "gyrocopter"},
                ],
            }, f"desert strike team {p + 1}"))
        return tuple(out)

    def team_demand(self, seat: int, players: int,
                    options: Mapping[str, Any] | None = None) -> TeamDemand:
        """Helicopters and Gyrocopters only (p.145)."""
        return TeamDemand(types=frozenset(AIRCRAFT))

    def check_team(self, spec: TeamSpec, who: str, ruleset: RefuelledRuleset | None = None
                   ) -> TeamReport:
        """Helicopters and Gyrocopters only; any sponsor may buy Helicopters (DS-8)."""
        def lifted(rule: str, item: str | None) -> bool:
            return rule == "restricted_vehicle" and item == "helicopter"

        def check(s: TeamSpec, report: TeamReport) -> list[str]:
            return [f"{v.name} is a {v.type}: only Helicopters and Gyrocopters may take part"
                    for v in s.vehicles if v.type not in AIRCRAFT]

        return scenario_team(spec, who, ruleset, lifted=lifted, check=check,
                             scenario=self.name)

    # -- the table -------------------------------------------------------------------------------
    def turret_ring(self, state: GameState) -> list[Point]:
        return ring(state, TURRETS, 300.0)

    def generate(self, state: GameState, rng: random.Random) -> None:
        arena_terrain(state, rng, keep_clear=[(p, 40.0) for p in self.turret_ring(state)])

    def lay_out(self, state: GameState) -> None:
        self.generate(state, random.Random(0))

    # -- set-up ------------------------------------------------------------------------------------
    def install(self, game: Game) -> None:
        install_emplacements(game)
        install_clouds(game)
        self.install_tokens(game)
        # After the tokens' question: a flag picked up in a move may be home in it (CP-14).
        motion_facts(game, f"scenario:{self.id}:home", self._carrier_told,
                     self._carrier_noted, -10)
        # Flags a wrecked carrier dropped: asked as the step ends, before the win is checked.
        game.effects.add_flow("step_end", f"scenario:{self.id}:home",
                              lambda ctx: self._lying_step, -60)
        game.effects.on("logged:turret_wrecked", f"scenario:{self.id}", self._fireworks)

    def _fireworks(self, value: Any, ctx: dict[str, Any]) -> None:
        """Fireworks Show: wrecking a rocket turret gives that player 2 votes (p.146)."""
        data = ctx["data"]
        who = data.get("player")
        if isinstance(who, int):
            gain_votes(ctx["game"], who, FIREWORKS_VOTES, source="fireworks_show",
                       page=RULES_PAGE, obstacle=data.get("obstacle"))

    def setup(self, game: Game) -> Flow:
        st = game.state
        st.pole = self.roll_off(game)
        double = float(game.templates.ranges["double"])
        for at in ring(st, TURRETS, double):
            add_turret(game, ROCKET_TURRET, at, player=None, source=SOURCE, page=PAGE)
        order = st.clockwise_from(st.pole)
        done: set[int] = set()
        i = 0
        while i < AT_LEAST or len(done) < st.players:
            p = order[i % len(order)]
            places = flag_places(game)
            if not places:
                game.emit("flag_skipped", source=SOURCE, page=PAGE, player=p,
                          reason="no free place within Double of the centre")
                break
            pick = yield ask(p, "flag_place", f"Desert Strike: place flag {i + 1}",
                             [(k, f"flag at {k} mm") for k in places], source=SOURCE,
                             page=PAGE)
            add_token(game, f"flag-{i + 1}", FLAG, at=places[str(pick)], source=SOURCE,
                      page=PAGE)
            done.add(p)
            i += 1
        done, i = set(), 0
        while i < AT_LEAST or len(done) < st.players:
            p = order[i % len(order)]
            spots = cloud_places(game)
            if not spots:
                game.emit("cloud_skipped", source=SOURCE, page=PAGE, player=p,
                          reason="no free place for a toxic cloud")
                break
            pick = yield ask(p, "cloud_place", f"Desert Strike: place toxic cloud {i + 1}",
                             [(k, f"toxic cloud at {k.replace('@', ' mm, facing ')} degrees")
                              for k in spots], source=SOURCE, page=PAGE)
            where, heading = spots[str(pick)]
            lay_cloud(game, where, heading, player=p, source=SOURCE, page=PAGE)
            done.add(p)
            i += 1
        keep = [(token_point(st, k), TOKEN_SIZE / 2.0) for k in tokens(st, FLAG)]
        yield from place_spawn_points(game, source=SOURCE, page=PAGE, keep_out=keep)
        yield from deploy_at_spawn_points(game, source=SOURCE, page=PAGE)
        # Every flag lies more than Double from every spawn point: none is home.
        _told(st)["lying"] = {tid: None for tid in on_table(st, FLAG)}

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        return spawn_option_poses(game, decision.vehicle, decision.kind,
                                  [o.value for o in decision.options])

    # -- flags and victory -------------------------------------------------------------------------
    def home_flags(self, game: Game, side: int, *, carried_anywhere: bool = False) -> int:
        """Flags within Short of the side's spawn point(s), carried or not; with
        ``carried_anywhere``, also every flag its vehicles carry wherever they are. At a real
        table, as the people last said (ruling CP-14)."""
        st = game.state
        if game.facts.people:
            return self._home_as_told(game, side, carried_anywhere)
        short = float(game.templates.ranges["short"])
        seats = score.side_players(game, side)
        homes = [c for p, c in spawn_points(st).items() if p in seats]
        r = SPAWN_DIAMETER / 2.0
        n = 0
        for tid, t in tokens(st, FLAG).items():
            carrier = st.vehicles.get(t["carrier"] or "")
            if carrier is not None:
                if carrier.player not in seats:
                    continue
                if carried_anywhere or any(_near(carrier, h, r, short) for h in homes):
                    n += 1
                continue
            x, y = token_point(st, tid)
            # Round flag and round spawn point: the gap between their edges.
            if any(math.hypot(x - h[0], y - h[1]) - r - TOKEN_SIZE / 2.0 <= short + 1e-6
                   for h in homes):
                n += 1
        return n

    def check_end(self, game: Game) -> None:
        """Two flags home wins at once (p.147). Respawns are open, so an empty side does not
        end the game (DS-11)."""
        st = game.state
        if st.finished or not spawn_points(st):
            return
        for side in score.sides(game):
            n = self.home_flags(game, side)
            if n >= FLAGS_TO_WIN:
                game.finish(side, f"{score.side_label(game, side)} brought {n} flags home")
                return

    def end_of_activation_tokens(self, game: Game, v: VehicleState) -> Flow:
        yield from super().end_of_activation_tokens(game, v)
        yield from self._lying_told(game)
        self.check_end(game)

    # -- flags home at a real table (ruling CP-14) ---------------------------------------------
    def _homes(self, game: Game, player: int) -> list[Point]:
        seats = score.side_players(game, score.side_of(game, player))
        return [c for p, c in spawn_points(game.state).items() if p in seats]

    def _may_be_home(self, game: Game, v: VehicleState) -> bool:
        """Whether ``v``'s motion may bring flags home: it carries some, in contention, its
        side has a spawn point, the game goes on."""
        st = game.state
        return bool(carried_by(st, v.id, FLAG)) and v.in_contention and not st.finished \
            and bool(self._homes(game, v.player))

    def _carrier_home(self, game: Game, v: VehicleState) -> bool:
        short = float(game.templates.ranges["short"])
        return any(_near(v, h, SPAWN_DIAMETER / 2.0, short) for h in self._homes(game, v.player))

    def _carrier_told(self, game: Game, v: VehicleState) -> Flow:
        """At a real table, after a carrier's motion: is it within Short of its side's spawn
        point (its flags are then home, p.147)?"""
        if not self._may_be_home(game, v):
            return
        from carnage.games.refuelled.engine.table_facts import ask_yes_no

        home = yield from ask_yes_no(
            game, v.player, "flag_carrier_home", f"{v.name} carries a flag: is it within Short "
            "of its side's spawn point?", page=RULES_PAGE + 1, vehicle=v.id)
        _told(game.state)["carriers"][v.id] = home

    def _carrier_noted(self, game: Game, v: VehicleState, since: int) -> None:
        """On a recording table: the exact table's answer to ``_carrier_told``."""
        if self._may_be_home(game, v):
            game.facts.note("flag_carrier_home", self._carrier_home(game, v))

    def _lying_home(self, game: Game, tid: str) -> str:
        """The side whose spawn point a flag on the table lies within Short of (the exact
        table's measure), or ``none``."""
        st = game.state
        short = float(game.templates.ranges["short"])
        x, y = token_point(st, tid)
        r = SPAWN_DIAMETER / 2.0
        for side in score.sides(game):
            seats = score.side_players(game, side)
            homes = [c for p, c in spawn_points(st).items() if p in seats]
            if any(math.hypot(x - h[0], y - h[1]) - r - TOKEN_SIZE / 2.0 <= short + 1e-6
                   for h in homes):
                return str(side)
        return NOTHING

    def _lying_step(self, game: Game, ctx: dict[str, Any]) -> Flow:
        yield from self._lying_told(game)

    def _lying_told(self, game: Game) -> Flow:
        """At the end of each step and activation, for each flag newly on the table (set down,
        or dropped by a carrier wrecked or disqualified): the people say within Short of which
        side's spawn point it lies, if any; the exact table measures and notes it."""
        st = game.state
        if st.finished:
            return
        told = _told(st)
        lying: dict[str, int | None] = told["lying"]
        for tid in [t for t in lying if t not in on_table(st, FLAG)]:
            del lying[tid]  # picked up (or gone): asked afresh when it lies again
        for tid in sorted(t for t in on_table(st, FLAG) if t not in lying):
            if game.facts.people:
                from carnage.games.refuelled.engine.table_facts import ask_pick

                pick = yield from ask_pick(
                    game, st.pole, "flag_home", f"Desert Strike: the flag {tid} lies on the "
                    "table: within Short of which side's spawn point?",
                    [(NOTHING, "none"), *((str(s), f"{score.side_label(game, s)}'s")
                                          for s in score.sides(game))],
                    page=RULES_PAGE + 1, vehicle=None)
            else:
                pick = self._lying_home(game, tid)
                game.facts.note("flag_home", pick)
            lying[tid] = None if pick == NOTHING else int(pick)

    def _home_as_told(self, game: Game, side: int, carried_anywhere: bool) -> int:
        st = game.state
        seats = score.side_players(game, side)
        told = _told(st)
        n = 0
        for tid, t in tokens(st, FLAG).items():
            carrier = st.vehicles.get(t["carrier"] or "")
            if carrier is not None:
                if carrier.player in seats and (carried_anywhere
                                                or told["carriers"].get(carrier.id)):
                    n += 1
            elif told["lying"].get(tid) == side:
                n += 1
        return n

    def final_scores(self, game: Game) -> None:
        scores = {s: self.home_flags(game, s, carried_anywhere=True) for s in score.sides(game)}
        victory.decide(game, scores, "most flags home or carried after 3 rounds",
                       tie_breaks=self.tie_breaks, source=SOURCE, page=RULES_PAGE + 1)

    # -- what the table shows --------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        return [*self.spawn_drawables(game), *turret_drawables(game), *cloud_drawables(game),
                *self.token_drawables(game)]

    def scoreboard(self, game: Game) -> Scoreboard:
        """Each seat's side's flags home (within Short of its spawn point) and counting
        those its vehicles carry anywhere (what decides after round 3)."""
        rows = []
        for p in range(game.state.players):
            side = score.side_of(game, p)
            home = self.home_flags(game, side)
            counting = self.home_flags(game, side, carried_anywhere=True)
            playing = any(v.in_play and v.in_team and v.player == p
                          for v in game.state.vehicles.values())
            rows.append(SeatScore(p, f"{home} home, {counting} counting carried",
                                  home * 100.0 + counting, out=not playing))
        return Scoreboard(self.score_title, tuple(rows), self.score_target)

    def report(self, game: Game) -> list[ReportRow]:
        rows = [ReportRow(f"flags_{score.side_label(game, s).lower()}",
                          f"{score.side_label(game, s)} flags home or carried",
                          self.home_flags(game, s, carried_anywhere=True),
                          f"{self.home_flags(game, s)} home, "
                          f"{self.home_flags(game, s, carried_anywhere=True)} counting carried")
                for s in score.sides(game)]
        left = turrets(game)
        rows.append(ReportRow("rocket_turrets", "Rocket turrets standing", len(left),
                              f"{len(left)} standing"))
        return rows

    # -- bots -------------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """Carrying a flag: home to the spawn point. Otherwise the nearest flag on the table
        that is not already home; else the nearest enemy carrying one."""
        here = (vehicle.pose.x, vehicle.pose.y)
        home = spawn_points(state).get(vehicle.player)
        held = len(carried_by(state, vehicle.id, FLAG))
        if held and home is not None:
            # Home through the turrets' ring with two flags and the Hull to survive it;
            # otherwise hold them at the centre, beyond Long of every turret (they count
            # at the end of round 3 too).
            if held >= FLAGS_TO_WIN and vehicle.hull_points * 2 > vehicle.hull:
                return _point(home)
            return _point(centre(state))
        free = []
        for t in on_table(state, FLAG).values():
            p = (float(t["x"]), float(t["y"]))
            if home is not None and math.hypot(p[0] - home[0], p[1] - home[1]) <= 80.0:
                continue  # already home
            free.append(p)
        if free:
            return _point(min(free, key=lambda p: (math.hypot(p[0] - here[0], p[1] - here[1]),
                                                   p)))
        carriers = [state.vehicles[t["carrier"]] for t in tokens(state, FLAG).values()
                    if t["carrier"] is not None
                    and state.vehicles[t["carrier"]].player != vehicle.player]
        if carriers:
            c = min(carriers, key=lambda o: (math.hypot(o.pose.x - here[0],
                                                        o.pose.y - here[1]), o.id))
            return _point((c.pose.x, c.pose.y))
        return None

    has_move_penalty = True
    move_penalty_only_costs = True  # attack dice times a positive cost

    def move_penalty(self, game: Game, vehicle: VehicleState, pose: Pose) -> float:
        """Bots take cover: a move ending in a turret's reach and line of fire costs, dearly
        here (6D6 from each rocket turret wrecks a Gyrocopter)."""
        return cover_penalty(game, vehicle, pose, ROCKET_COVER)

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        st = game.state
        offered = [str(o.value) for o in decision.options]
        if decision.kind == "flag_place":
            places = flag_places(game)
            c = centre(st)
            keys = [k for k in offered if k in places]
            return min(keys, key=lambda k: (math.hypot(places[k][0] - c[0],
                                                       places[k][1] - c[1]), k), default=None)
        if decision.kind == "cloud_place":
            return self._cloud_pick(game, offered)
        if decision.kind == "token_drop":
            return self._set_down_pick(game, decision, offered)
        if decision.kind == "attack":
            return turret_shot_pick(game, decision)
        return super().bot_choice(game, decision)

    def _cloud_pick(self, game: Game, offered: list[str]) -> Any:
        """Screen a turret no cloud screens yet: the cloud nearest to it (on the side of the
        table's centre, where the flags are)."""
        st = game.state
        spots = cloud_places(game)
        laid = [(sum(x for x, _ in t.polygon) / len(t.polygon),
                 sum(y for _, y in t.polygon) / len(t.polygon)) for t in st.dropped.values()]
        guns = [(t.pose.x, t.pose.y) for t in turrets(game)
                if all(math.hypot(t.pose.x - x, t.pose.y - y) > 200.0 for x, y in laid)]
        if not guns:
            return None
        c = centre(st)

        def value(k: str) -> tuple[float, str]:
            (x, y), _ = spots[k]
            near = min(math.hypot(x - gx, y - gy) for gx, gy in guns)
            return (near + 0.25 * math.hypot(x - c[0], y - c[1]), k)

        keys = [k for k in offered if k in spots]
        return min(keys, key=value, default=None)

    def _set_down_pick(self, game: Game, decision: Decision, offered: list[str]) -> Any:
        """Set a flag down within Short of home when the carrier is there; else keep it."""
        st = game.state
        v = st.vehicles.get(decision.vehicle or "")
        home = spawn_points(st).get(v.player) if v is not None else None
        if v is None or home is None:
            return None
        short = float(game.templates.ranges["short"])
        if not _near(v, home, SPAWN_DIAMETER / 2.0, 2 * short):
            return "keep"  # far from home: nowhere to set it down that counts
        points = set_down_points(game, v)
        best: tuple[float, str] | None = None
        for k in offered:
            if not k.startswith("down:") or k[5:] not in points:
                continue
            p = points[k[5:]]
            gap = math.hypot(p[0] - home[0], p[1] - home[1]) - (SPAWN_DIAMETER + TOKEN_SIZE) / 2
            if gap <= short - 1.0 and (best is None or gap < best[0]):
                best = (gap, k)
        return best[1] if best is not None else "keep"


HOME_TOLD = "flags_home_told"
"""Memory (ruling CP-14): ``carriers``: vehicle id -> within Short of its side's spawn point
after its last motion; ``lying``: flag on the table -> the side whose spawn point it lies
within Short of (None: nobody's). Kept on both tables; only a real table counts by it."""


def _told(state: GameState) -> dict[str, Any]:
    out: dict[str, Any] = state.scenario.setdefault(HOME_TOLD, {"carriers": {}, "lying": {}})
    return out


def _near(v: VehicleState, c: Point, r: float, reach: float) -> bool:
    """Is ``v``'s body within ``reach`` of the disc of radius ``r`` at ``c``?"""
    half = math.hypot(v.length, v.width) / 2.0
    d = math.hypot(v.pose.x - c[0], v.pose.y - c[1])
    if d - half - r > reach + 1e-6:
        return False
    return distance(v.polygon(), disc(c, 2 * r)) <= reach + 1e-6


def _point(p: Point) -> Line:
    return Line(p, p, (0.0, 1.0))
