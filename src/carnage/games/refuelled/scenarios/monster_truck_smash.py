"""Monster Truck Smash, a Special Event (Refuelled pp.147-148).

One player is the Monster (a team of Monster Trucks only), the others are Mice. The Monster
holds Pole Position all game and its spawn point is the centre of the table; each Mouse puts
one within Medium of an edge. After deployment eight flags stand on the compass points,
exactly Long from the centre. Mice pick flags up by touching them and bank them within Short
of their own spawn point for 2 VP each (a new flag then goes on an empty compass point); the
Monster's vehicles ignore flags. Any damage a Monster's Smash Attack does to a Mouse wrecks it
at once: its wreck is removed and the Monster scores 1 VP. At the start of each round any
vehicle out of play may respawn for free at its spawn point. The game ends at the end of a
Gear Phase in which someone has 5 VP, or after round 3; the most VP wins.
"""

from __future__ import annotations

import math
import random
from collections.abc import Generator, Mapping
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.collision import SMASH
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario import TeamDemand
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.scenarios import beast_table as bt
from carnage.games.refuelled.scenarios.base import SPECIAL, Line, TableScenario
from carnage.games.refuelled.scenarios.common import score, spawn, tokens, victory
from carnage.games.refuelled.scenarios.common.motion import (
    motion_facts,
    touches_along,
    watch_motion,
)
from carnage.games.refuelled.scenarios.common.pole import roll_off
from carnage.games.refuelled.scenarios.truckasaurus import arena_terrain, point_goal
from carnage.geometry.shapes import Point, Pose, penetration
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.kernel.effects import CANCEL
from carnage.team.io import parse_team
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

PAGE = 147
SOURCE = "monster_truck_smash"
MONSTER_TYPE = "monster_truck"
WIN_VP = 5
FLAG_VP = 2
FLAG = "flag"
CHALK = "chalk one up"
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""Ruling MTS-2: north is up the table (+y, towards the far short edge); the points go
clockwise from it, 45 degrees apart."""
COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Teal")


def compass_points(state: GameState, long: float) -> dict[str, Point]:
    cx, cy = bt.centre(state)
    out = {}
    for i, name in enumerate(COMPASS):
        a = math.radians(90.0 - 45.0 * i)
        out[name] = (round(cx + long * math.cos(a), 3), round(cy + long * math.sin(a), 3))
    return out


def monster(state: GameState) -> int | None:
    m = state.scenario.get("monster")
    return None if m is None else int(m)


def is_monsters(state: GameState, v: VehicleState | None) -> bool:
    return v is not None and v.in_team and v.player == monster(state)


class MonsterTruckSmash(spawn.SpawnPoints, tokens.CarriedTokens, TableScenario):
    id = "monster-truck-smash"
    name = "Monster Truck Smash"
    page = PAGE
    min_players = 2
    max_players = 6
    table = SPECIAL
    table_rolls = (3, 4)
    summary = ("One player's Monster Trucks hunt the others' Mice, who grab flags round the "
               "centre and bank them at home before they are squashed.")
    last_page = 148
    how_to_win = ("Play ends at the end of a Gear Phase in which someone has 5 VP, or after "
                  "round 3; the most VP wins. Mice score 2 VP for each flag they bank at home,"
                  " the Monster 1 VP for each Mouse it squashes.")
    special_rules = (
        BriefRule("Monster and Mice",
                  ("One player fields Monster Trucks and holds Pole Position all game; the "
                   "others are Mice."),
                  refuelled(147)),
        BriefRule("Flags",
                  ("Eight flags stand on the compass points round the centre; Mice grab them "
                   "by touch and bank them within Short of their spawn point."),
                  refuelled(147)),
        BriefRule("Squashed",
                  "Any damage a Monster's smash deals to a Mouse wrecks it at once.",
                  refuelled(148)),
        BriefRule("Free respawns",
                  ("At the start of each round every vehicle out of play may come back for "
                   "free."),
                  refuelled(148)),
    )
    score_title = "Victory Points"
    score_target = "5 VP, or most after round 3"
    score_tallies = (("vp", "VP"),)
    round_limit = 3
    end_checks = frozenset({"gear_phase_end"})
    token_hand_over = True

    # -- table and teams -----------------------------------------------------------------------
    def lay_out(self, state: GameState) -> None:
        self.generate(state, random.Random(0))

    def generate(self, state: GameState, rng: random.Random) -> None:
        arena_terrain(state, rng, 260.0)

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        """Seat 1 is the Monster (two Monster Trucks); the others are Mice (a Car and a
        Buggy)."""
        out = [parse_team({
            "name": "The Monster", "cans": 60,
            "vehicles": [
                {"name": "Monster Truck A", "type": MONSTER_TYPE,
                 "weapons": [{"id": "machine_gun", "facing": "front"}]},
                {"name": "Monster Truck B", "type": MONSTER_TYPE,
                 "weapons": [{"id": "machine_gun", "facing": "front"}]},
            ]}, "the Monster")]
        for p in range(1, players):
            colour = COLOURS[p % len(COLOURS)]
            out.append(parse_team({
                "name": f"{colour} Mice", "cans": 50,
                "vehicles": [
                    {"name": f"{colour} Car", "type": "car",
                     "weapons": [{"id": "machine_gun", "facing": "front"}]},
                    {"name": f"{colour} Buggy", "type": "buggy",
                     "weapons": [{"id": "machine_gun", "facing": "front"}]},
                ]}, f"mice team {p + 1}"))
        return tuple(out)

    def team_demand(self, seat: int, players: int,
                    options: Mapping[str, Any] | None = None) -> TeamDemand:
        """Seat 1 plays the Monster: Monster Trucks only (p.147); the Mice field anything."""
        return TeamDemand(types=frozenset({MONSTER_TYPE})) if seat == 0 else TeamDemand()

    # -- set-up ----------------------------------------------------------------------------------
    def install(self, game: Game) -> None:
        eff = f"scenario:{self.id}"
        self.install_tokens(game)
        watch_motion(game, eff + ":chalk", "chalk_seen", self._chalk)
        # After the tokens' question: a flag picked up in a move may be banked in it.
        motion_facts(game, eff + ":chalk", self._chalk_told, self._chalk_noted, -10)
        fx = game.effects
        fx.on("pole_moves", eff, self._hold_pole, priority=1000)
        fx.on("collision_damage", eff, self._squash, priority=-500)
        fx.on("logged:wrecked", eff, self._squashed)
        fx.on("logged:wreck", eff, self._remove_squashed_wreck)
        fx.on("logged:respawn", eff, self._unsquashed)
        fx.add_flow("gear_phase_start", eff, lambda ctx: self._commercial_break, 0)
        fx.add_flow("step_end", eff + ":chalk", lambda ctx: self._new_flags, -50)
        fx.add_flow("after_activation", eff + ":chalk", lambda ctx: self._new_flags, -50)

    def setup(self, game: Game) -> Flow:
        from carnage.games.refuelled.setup import SetupError

        st = game.state
        mine = {p: [v for v in st.vehicles.values() if v.player == p and v.in_team]
                for p in range(st.players)}
        able = [p for p, vs in mine.items() if vs and all(v.type == MONSTER_TYPE for v in vs)]
        if not able:
            raise SetupError("Monster Truck Smash: one team must field only Monster Trucks "
                             "(it plays the Monster; p.147)")
        # Ruling MTS-1: among the teams that may be the Monster, a roll-off picks it.
        m = able[0] if len(able) == 1 else roll_off(game, SOURCE, PAGE, able)
        st.scenario["monster"] = m
        st.pole = m
        game.emit("monster", source=SOURCE, page=PAGE, player=m)
        game.emit("pole", source=SOURCE, page=PAGE, player=m, reason="the Monster")
        mice = [p for p in st.clockwise_from(m) if p != m]
        yield from spawn.place_spawn_points(game, source=SOURCE, page=PAGE, players=mice)
        spawn.set_spawn_point(game, m, bt.centre(st), source=SOURCE, page=PAGE)
        yield from spawn.deploy_at_spawn_points(game, source=SOURCE, page=PAGE)
        long = float(game.templates.ranges["long"])
        for name, at in compass_points(st, long).items():
            if self._flag_fits(game, at, vehicles=False):
                tokens.add_token(game, f"flag-{name}", FLAG, at=at, source=SOURCE, page=PAGE)
            else:
                game.emit("flag_skipped", source=SOURCE, page=PAGE, point=name,
                          reason="touches terrain (MTS-2)")

    def _flag_fits(self, game: Game, at: Point, *, vehicles: bool) -> bool:
        st = game.state
        d = tokens.disc(at, tokens.TOKEN_SIZE)
        if any(penetration(d, ob.polygon()) >= -1e-6 for ob in st.obstacles.values()):
            return False
        return not vehicles or not any(penetration(d, r.polygon()) >= -1e-6
                                       for v in st.in_play() for _, r in v.bodies())

    def empty_points(self, game: Game) -> dict[str, Point]:
        """Compass points with no flag on them, clear of terrain and vehicles."""
        st = game.state
        long = float(game.templates.ranges["long"])
        taken = [tokens.token_point(st, t) for t in tokens.on_table(st, FLAG)]
        return {k: p for k, p in compass_points(st, long).items()
                if all(math.dist(p, q) > 1.0 for q in taken)
                and self._flag_fits(game, p, vehicles=True)}

    # -- the Monster's Pole and the Mice's flags -------------------------------------------------
    def _hold_pole(self, value: Any, ctx: dict[str, Any]) -> Any:
        # Ruling MTS-3: the Monster always has Pole; not even Carpe Diem moves it.
        return CANCEL if monster(ctx["game"].state) is not None else None

    def end_of_gear_phase(self, game: Game) -> Flow | None:
        return None

    def may_pick_up(self, game: Game, v: VehicleState, tid: str) -> bool:
        return not is_monsters(game.state, v) and not v.neutral

    def end_of_activation_tokens(self, game: Game, v: VehicleState) -> Flow:
        """A carrier touching another vehicle at the end of its activation may pass its flags
        to it (p.148); never to the Monster's vehicles, which ignore flags (ruling MTS-4)."""
        st = game.state
        held = tokens.carried_by(st, v.id, FLAG)
        if not held or not v.in_play or st.finished:
            return
        from carnage.games.refuelled.engine.movement import touching_now
        from carnage.games.refuelled.engine.state import body_owner

        # Touching as the engine judges it (a collision leaves bodies within 0.1 mm); at a
        # real table, as the people say (ruling CP-12).
        near = {body_owner(i) for i in (yield from touching_now(
            game, v, "touching", 148, "at the end of its activation, carrying flags"))}
        mates = [o for o in st.in_play() if o.id in near and o.id != v.id
                 and o.in_team and not is_monsters(st, o)]
        if not mates:
            return
        pick = str((yield ask(v.player, "token_drop",
                              f"{v.name} carries {len(held)} flag(s): pass them on?",
                              [(tokens.KEEP, "keep them")]
                              + [(f"give:{o.id}", f"pass them to {o.name}") for o in mates],
                              source=SOURCE, page=148, vehicle=v.id)))
        if pick.startswith("give:"):
            for tid in held:
                tokens.hand_over(game, tid, st.vehicles[pick[5:]], source=SOURCE, page=148)

    def _may_chalk(self, game: Game, v: VehicleState) -> bool:
        """Whether ``v``'s motion could bank flags: it carries some, has a spawn point and is
        in contention while the game goes on."""
        st = game.state
        return bool(tokens.carried_by(st, v.id, FLAG)) and spawn.spawn_point(
            st, v.player) is not None and not st.finished and v.in_contention

    def _chalk_told(self, game: Game, v: VehicleState) -> Flow:
        """At a real table (ruling CP-12): after a carrier's motion the people say whether its
        template or Final Position came within Short of its own spawn point (p.148)."""
        if not self._may_chalk(game, v):
            return
        from carnage.games.refuelled.engine.table_facts import ask_yes_no

        home = yield from ask_yes_no(
            game, v.player, "chalk_one_up", f"{v.name}: did its move or Final Position come "
            "within Short of its own spawn point (Chalk One Up)?", page=148, vehicle=v.id)
        if home:
            self._bank(game, v)

    def _chalk_noted(self, game: Game, v: VehicleState, since: int) -> None:
        """On a recording table: whether the motion just judged banked ``v``'s flags, when a
        real table would have been asked."""
        banked = any(e.kind == "token_removed" and e.data.get("reason") == CHALK
                     for e in game.log.events[since:])  # only its own motion was judged
        if banked or self._may_chalk(game, v):
            game.facts.note("chalk_one_up", banked)

    def _bank(self, game: Game, v: VehicleState) -> None:
        """Chalk One Up: ``v`` banks the flags it carries, 2 VP each; a new flag goes down
        after the step."""
        st = game.state
        held = tokens.carried_by(st, v.id, FLAG)
        for tid in held:
            tokens.remove_token(game, tid, source=SOURCE, page=148, reason=CHALK)
        score.add(game, score.VP, FLAG_VP * len(held), player=v.player, source=SOURCE,
                  page=148, reason=f"chalk one up: {len(held)} flag(s)")
        st.scenario.setdefault("new_flags", []).append(v.player)

    def _chalk(self, game: Game, v: VehicleState, poses: list[Pose]) -> None:
        """Chalk One Up (p.148): a carrier whose move or Final Position comes within Short of
        its own spawn point banks its flags, 2 VP each; a new flag is placed after the step."""
        st = game.state
        held = tokens.carried_by(st, v.id, FLAG)
        home = spawn.spawn_point(st, v.player)
        if not held or home is None or st.finished or not v.in_play:
            return
        reach = spawn.SPAWN_DIAMETER / 2.0 + float(game.templates.ranges["short"])
        if not touches_along(poses, v.length, v.width, bt.disc(home, reach, 24)):
            return
        self._bank(game, v)

    def _new_flags(self, game: Game, ctx: dict[str, Any]) -> Flow:
        st = game.state
        waiting: list[int] = st.scenario.get("new_flags", [])
        while waiting and not st.finished:
            p = waiting.pop(0)
            empty = yield from self._points_told(game, p)
            if not empty:
                game.emit("flag_skipped", source=SOURCE, page=148, player=p,
                          reason="no empty compass point is clear")
                continue
            pick = yield ask(p, "new_flag", "Chalk One Up: put a new flag on which compass "
                             "point?", [(k, f"{k}, Long from the centre") for k in empty],
                             source=SOURCE, page=148)
            n = int(st.scenario.get("flags_placed", 0)) + 1
            st.scenario["flags_placed"] = n
            tokens.add_token(game, f"flag-new-{n}", FLAG, at=empty[str(pick)], source=SOURCE,
                             page=148)

    def _points_told(self, game: Game, player: int) -> Generator[Decision, Any, dict[str, Point]]:
        """The compass points a new flag may go on (``empty_points``): at a real table the
        people say which of those free of flags and terrain have a vehicle on them (ruling
        CP-12); the exact table measures, noting the fact."""
        st = game.state
        long = float(game.templates.ranges["long"])
        taken = [tokens.token_point(st, t) for t in tokens.on_table(st, FLAG)]
        free = {k: p for k, p in compass_points(st, long).items()
                if all(math.dist(p, q) > 1.0 for q in taken)
                and self._flag_fits(game, p, vehicles=False)}
        if game.facts.people:
            from carnage.games.refuelled.engine.table_facts import ask_list

            blocked = yield from ask_list(
                game, player, "flag_point_blocked", "Chalk One Up: which of these compass "
                "points has a vehicle on it (where a flag would touch it)?",
                [(k, f"{k}, Long from the centre") for k in free], page=148, vehicle=None)
        else:
            empty = self.empty_points(game)
            blocked = [k for k in free if k not in empty]
            if free:
                game.facts.note("flag_point_blocked", blocked)
        return {k: p for k, p in free.items() if k not in blocked}

    # -- Squashed --------------------------------------------------------------------------------
    def _squash(self, value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        st = game.state
        v, other = ctx.get("vehicle"), ctx.get("other")
        # Only a Monster's Smash Attack squashes, and only a Mouse still in contention: a
        # wreck skidding to a halt is already Wrecked (ruling SC-44).
        if (isinstance(value, int) and value >= 1 and isinstance(v, VehicleState)
                and v.in_team and v.in_contention and not is_monsters(st, v)
                and is_monsters(st, other) and ctx.get("other_reaction") == SMASH
                and v.id not in st.scenario.get("squashed", [])):
            st.scenario.setdefault("squashed", []).append(v.id)
            game.emit("squashed", source=SOURCE, page=148, vehicle=v.id,
                      by=other.id if isinstance(other, VehicleState) else None)
            return max(value, v.hull_points)
        return None

    def _squashed(self, value: Any, ctx: dict[str, Any]) -> None:
        game: Game = ctx["game"]
        st = game.state
        vid = str(ctx["data"].get("vehicle"))
        if vid in st.scenario.get("squashed", []) and monster(st) is not None:
            score.add(game, score.VP, 1, player=monster(st), source=SOURCE, page=148,
                      reason=f"squashed {vid}")

    def _unsquashed(self, value: Any, ctx: dict[str, Any]) -> None:
        """A squashed Mouse that comes back (Commercial Break, a vote) is a fresh Mouse: its
        squashed mark goes, so only a new Smash Attack squashes it again (ruling MTS-11)."""
        squashed: list[str] = ctx["game"].state.scenario.get("squashed", [])
        vid = str(ctx["data"].get("vehicle"))
        if vid in squashed:
            squashed.remove(vid)

    def _remove_squashed_wreck(self, value: Any, ctx: dict[str, Any]) -> None:
        game: Game = ctx["game"]
        st = game.state
        data = ctx["data"]
        vid, oid = str(data.get("vehicle")), str(data.get("obstacle"))
        if vid in st.scenario.get("squashed", []) and oid in st.obstacles:
            del st.obstacles[oid]
            game.emit("obstacle_removed", source=SOURCE, page=148, obstacle=oid,
                      reason="squashed")

    # -- Commercial Break and respawning at the spawn point --------------------------------------
    def _commercial_break(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """At the start of each round (its first Gear Phase) each player in Pole order may
        bring back, free, any vehicle out of play (ruling MTS-5: disqualified ones too)."""
        from carnage.games.refuelled.engine.votes import respawn, respawn_positions

        st = game.state
        if st.gear_phase != 1 or st.finished:
            return
        for p in st.clockwise_from(st.pole):
            for v in [o for o in st.vehicles.values() if o.player == p and o.in_team
                      and o.status is not Status.ACTIVE]:
                if not respawn_positions(game, v):
                    continue
                pick = yield ask(p, "commercial_break",
                                 f"Commercial Break: respawn {v.name} free?",
                                 [("respawn", "respawn at your spawn point"), ("no", "not now")],
                                 source="commercial_break", page=148, vehicle=v.id)
                if pick != "respawn":
                    continue
                yield from respawn(game, v, p, source="commercial_break", page=148)

    # -- the end ---------------------------------------------------------------------------------
    def check_end(self, game: Game) -> None:
        """At the end of any Gear Phase in which a side has 5 VP (p.148)."""
        totals = score.side_totals(game, score.VP)
        if totals and max(totals.values()) >= WIN_VP:
            victory.decide(game, totals, f"{WIN_VP} Victory Points at the end of a Gear Phase",
                           tie_breaks=self.tie_breaks, source=SOURCE, page=148)

    # -- what the table shows --------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        return self.spawn_drawables(game) + self.token_drawables(game)

    def report(self, game: Game) -> list[ReportRow]:
        st = game.state
        rows = score.report_rows(game, score.VP)
        m = monster(st)
        rows.append(ReportRow("monster", "The Monster", None if m is None else m + 1,
                              "nobody yet" if m is None else f"player {m + 1}"))
        rows.append(ReportRow("flags_on_table", "Flags on the table",
                              len(tokens.on_table(st, FLAG)),
                              str(len(tokens.on_table(st, FLAG)))))
        squashed = len(game.log.of_kind("squashed"))
        banked = sum(1 for e in game.log.of_kind("token_removed")
                     if e.data.get("reason") == "chalk one up")
        rows.append(ReportRow("squashed", "Mice squashed", squashed, str(squashed), tally=True))
        rows.append(ReportRow("flags_banked", "Flags banked", banked, str(banked), tally=True))
        return rows

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        if decision.kind == "respawn_position":
            return bt.respawn_option_poses(game, game.state.vehicles.get(decision.vehicle or ""),
                                           [o.value for o in decision.options],
                                           self.respawn_positions)
        return spawn.spawn_option_poses(game, decision.vehicle, decision.kind,
                                        [o.value for o in decision.options])

    # -- bots ------------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        if is_monsters(state, vehicle):
            mice = [o for o in state.in_play() if o.in_team and not is_monsters(state, o)]
            if not mice:
                return None
            carriers = [o for o in mice if tokens.carried_by(state, o.id, FLAG)] or mice
            prey = min(carriers, key=lambda o: math.hypot(o.pose.x - vehicle.pose.x,
                                                          o.pose.y - vehicle.pose.y))
            return point_goal(prey.pose.x, prey.pose.y)
        home = spawn.spawn_point(state, vehicle.player)
        if home is not None and tokens.carried_by(state, vehicle.id, FLAG):
            return point_goal(*home)
        flags = tokens.on_table(state, FLAG)
        if not flags:
            return None if home is None else point_goal(*home)
        pts = [tokens.token_point(state, t) for t in flags]
        near = min(pts, key=lambda p: math.hypot(p[0] - vehicle.pose.x, p[1] - vehicle.pose.y))
        return Line(near, near, (0.0, 1.0))

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        if decision.kind == "commercial_break":
            return "respawn"
        if decision.kind == "token_drop":
            return tokens.KEEP
        if decision.kind == "new_flag":
            st = game.state
            m = monster(st)
            hunters = [v for v in st.in_play() if v.player == m and v.in_team]
            cands = self.empty_points(game)
            if hunters and cands:
                # As far from the Monster's trucks as it can be: the Mice can reach it.
                return max(cands, key=lambda k: min(math.hypot(cands[k][0] - h.pose.x,
                                                               cands[k][1] - h.pose.y)
                                                    for h in hunters))
        return super().bot_choice(game, decision)

