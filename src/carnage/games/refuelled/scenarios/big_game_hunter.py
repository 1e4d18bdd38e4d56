"""Big Game Hunter, a Special Event (Refuelled pp.143-145).

Giant radioactive creatures roam the arena (scenarios/beasts.py): each player places one
within Double of the centre, then the Pole holder one more at the centre. Spawn points must
be more than Double from every spawn point and creature. Creatures only move when enraged,
driven by whoever enraged them. Wrecking one scores a kill and 2 votes. A player wins at once
when 2 creatures (or all that are left) stand within Short of their spawn point; when no
creature is left, the most kills wins.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.engine.table_facts import NOTHING, ask_pick
from carnage.games.refuelled.scenarios import beast_table as bt
from carnage.games.refuelled.scenarios.base import SPECIAL, Line, TableScenario
from carnage.games.refuelled.scenarios.beasts import (
    KILLS,
    install_creatures,
    is_creature,
    make_creature,
)
from carnage.games.refuelled.scenarios.common import score, spawn, victory
from carnage.games.refuelled.scenarios.common.motion import motion_facts
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.neutral import add_neutral, install_neutrals
from carnage.games.refuelled.scenarios.truckasaurus import arena_teams, arena_terrain, point_goal
from carnage.geometry.shapes import Pose, Rect, distance, penetration
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.render.svg import seat_name

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

PAGE = 143
SOURCE = "big_game_hunter"
HERD = 2
BOT_MARGIN = 200.0
"""Bots never aim closer than this to a table edge."""
PENNED = 200.0
"""Bots count a creature this close to their spawn point's centre as penned (they stop
shooting it and go for the next)."""
PENS = "pens"
"""At a real table: creature id -> the player within Short of whose spawn point the people
last said it stands (ruling CP-21)."""
PLACE_PITCH = 60.0
"""Ruling BGH-2: creature places are offered on a lattice this far apart within Double of the
centre, facing the centre (the one at the centre faces up the table)."""


def creatures(state: GameState) -> list[VehicleState]:
    return [v for v in state.vehicles.values() if is_creature(v) and v.in_play]


class BigGameHunter(RollOffPole, spawn.SpawnPoints, TableScenario):
    id = "big-game-hunter"
    name = "Big Game Hunter"
    page = PAGE
    min_players = 2
    max_players = 4
    table = SPECIAL
    table_rolls = (1,)
    bot_gear = 3
    summary = ("Giant mutant creatures in the arena: enrage them, steer them home to your "
               "spawn point, or hunt them down for kills.")
    last_page = 145
    how_to_win = ("Steer two creatures (or all that are left) to within Short of your spawn "
                  "point to win at once; once every creature is dead, the most kills wins.")
    special_rules = (
        BriefRule("Creatures",
                  ("Giant mutant beasts stand in the arena, one placed by each player and one "
                   "at the centre."),
                  refuelled(143)),
        BriefRule("Enraged",
                  "A creature only moves once enraged, and whoever enraged it drives it.",
                  refuelled(144)),
        BriefRule("Kills",
                  "Wrecking a creature scores a kill and 2 Audience Votes.",
                  refuelled(145)),
    )
    score_title = "Creature kills"
    score_target = "two creatures home, or most kills"
    score_tallies = ((KILLS, "kills"),)

    def lay_out(self, state: GameState) -> None:
        self.generate(state, random.Random(0))

    def generate(self, state: GameState, rng: random.Random) -> None:
        arena_terrain(state, rng, 330.0)

    def default_teams(self, players: int) -> tuple[Any, ...]:
        return arena_teams(players, "Hunters")

    def install(self, game: Game) -> None:
        install_neutrals(game)
        install_creatures(game)
        motion_facts(game, f"scenario:{self.id}:herd", self._herd_told, self._herd_noted)

    # -- at a real table (ruling CP-21) --------------------------------------------------------
    def _may_herd(self, game: Game, v: VehicleState) -> bool:
        """Whether ``v``'s motion could pen it: a creature in play, spawn points placed, the
        game going on."""
        st = game.state
        return is_creature(v) and v.in_play and bool(spawn.spawn_points(st)) \
            and not st.finished

    def _herd_told(self, game: Game, v: VehicleState) -> Flow:
        """At a real table: after a creature's move, forced move or pivot the people say whose
        spawn point (if any) it now stands within Short of (p.145; spawn points lie more than
        Double apart, so at most one). ``herded`` then reads what they said."""
        if not self._may_herd(game, v):
            return
        st = game.state
        pick = yield from ask_pick(
            game, v.player, "creature_penned", f"{v.name}: is it now within Short of a "
            "spawn point? Whose?", [(NOTHING, "none"), *(
                (str(p), f"{seat_name(p)}'s spawn point")
                for p in sorted(spawn.spawn_points(st)))], page=145, vehicle=v.id)
        pens: dict[str, int] = st.scenario.setdefault(PENS, {})
        pens.pop(v.id, None)
        if pick != NOTHING:
            pens[v.id] = int(pick)

    def _herd_noted(self, game: Game, v: VehicleState, since: int) -> None:
        """On a recording table: whose spawn point the creature's motion left it within Short
        of, when a real table would have been asked."""
        if not self._may_herd(game, v):
            return
        whose = [p for p in sorted(spawn.spawn_points(game.state))
                 if v.id in self._herded_exact(game, p)]
        game.facts.note("creature_penned", str(whose[0]) if whose else NOTHING)

    # -- set-up ------------------------------------------------------------------------------
    def creature_places(self, game: Game, v: VehicleState) -> dict[str, Pose]:
        st = game.state
        cx, cy = bt.centre(st)
        double = game.templates.ranges["double"]
        blocked = [ob.polygon() for ob in st.obstacles.values()]
        blocked += [c.polygon() for c in creatures(st) if c.id != v.id and c.pose.x >= 0]
        out: dict[str, Pose] = {}
        k = int(double // PLACE_PITCH)
        for i in range(-k, k + 1):
            for j in range(-k, k + 1):
                x, y = cx + i * PLACE_PITCH, cy + j * PLACE_PITCH
                if (i, j) == (0, 0) or math.hypot(x - cx, y - cy) > double:
                    continue
                heading = math.degrees(math.atan2(cy - y, cx - x)) % 360.0
                pose = Pose(x, y, round(heading, 3))
                poly = Rect(pose, v.length, v.width).polygon()
                if any(penetration(poly, b) >= -1e-6 for b in blocked):
                    continue
                out[f"{x - cx:+.0f},{y - cy:+.0f}"] = pose
        return out

    def setup(self, game: Game) -> Flow:
        st = game.state
        st.pole = self.roll_off(game)
        order = st.clockwise_from(st.pole)
        cx, cy = bt.centre(st)
        for n, p in enumerate(order, start=1):
            c = make_creature(n)
            add_neutral(game, c)
            places = self.creature_places(game, c)
            pick = yield ask(p, "creature_place",
                             f"Place {c.name} within Double of the centre",
                             [(k, f"{k} mm from the centre") for k in places], source=SOURCE,
                             page=PAGE, vehicle=c.id)
            c.pose = places[str(pick)]
            game.emit("deploy", source=SOURCE, page=PAGE, vehicle=c.id, player=p,
                      x=c.pose.x, y=c.pose.y, heading=c.pose.heading)
        last = make_creature(len(order) + 1, Pose(cx, cy, 90.0))
        add_neutral(game, last)
        game.emit("deploy", source=SOURCE, page=PAGE, vehicle=last.id, player=st.pole,
                  x=cx, y=cy, heading=90.0)
        # Ruling BGH-2: a creature is kept clear as the circle round its footprint.
        yield from spawn.place_spawn_points(
            game, source=SOURCE, page=PAGE,
            keep_out=[((c.pose.x, c.pose.y), math.hypot(c.length, c.width) / 2.0)
                      for c in creatures(st)])
        yield from spawn.deploy_at_spawn_points(game, source=SOURCE, page=PAGE)

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        v = game.state.vehicles.get(decision.vehicle or "")
        if v is None:
            return {}
        if decision.kind == "respawn_position":
            return bt.respawn_option_poses(game, v, [o.value for o in decision.options],
                                           self.respawn_positions)
        if decision.kind == "spawn_pose":
            return spawn.spawn_option_poses(game, v.id, decision.kind,
                                            [o.value for o in decision.options])
        if decision.kind == "creature_place":
            poses = self.creature_places(game, v)
        else:
            return {}
        return {str(o.value): poses[str(o.value)] for o in decision.options
                if str(o.value) in poses}

    # -- victory -----------------------------------------------------------------------------
    def herded(self, game: Game, player: int) -> list[str]:
        """Creatures in play within Short of ``player``'s spawn point: measured on the exact
        table, as the people last said at a real table (ruling CP-21)."""
        if game.facts.people:
            pens: dict[str, int] = game.state.scenario.get(PENS, {})
            return [c.id for c in creatures(game.state) if pens.get(c.id) == player]
        return self._herded_exact(game, player)

    def _herded_exact(self, game: Game, player: int) -> list[str]:
        spot = spawn.spawn_point(game.state, player)
        if spot is None:
            return []
        short = game.templates.ranges["short"]
        d = bt.disc(spot)
        return [c.id for c in creatures(game.state) if distance(c.polygon(), d) <= short + 1e-9]

    def check_end(self, game: Game) -> None:
        """Ruling BGH-7: herding is judged whenever the engine checks for the end (after every
        step); if two players herd at once the active vehicle's controller is judged first,
        then clockwise from the Pole. A wrecked creature no longer counts (BGH-3)."""
        st = game.state
        if st.flow.stage == "setup" or not spawn.spawn_points(st):
            return
        left = creatures(st)
        if not left:
            victory.decide(game, score.side_totals(game, KILLS),
                           "no creature left, most kills", tie_breaks=(), source=SOURCE,
                           page=145)
            return
        need = min(HERD, len(left))
        first = st.vehicles[st.active].player if st.active in st.vehicles else st.pole
        for p in st.clockwise_from(first % st.players):
            got = self.herded(game, p)
            if len(got) >= need:
                side = score.side_of(game, p)
                game.emit("herded", source=SOURCE, page=145, player=p, creatures=got)
                game.finish(side, f"{score.side_label(game, side)} herded {len(got)} "
                                  "creature(s) home")
                return

    # -- what the table shows ----------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        st = game.state
        out = self.spawn_drawables(game)
        short = game.templates.ranges["short"]
        for p, spot in spawn.spawn_points(st).items():
            out.append(Drawable(f"herd-{p}", "zone",
                                tuple(bt.disc(spot, short + spawn.SPAWN_DIAMETER / 2.0, 24)),
                                label=f"{seat_name(p)} pen", owner=p, style="herd"))
        return out

    def report(self, game: Game) -> list[ReportRow]:
        st = game.state
        rows = score.report_rows(game, KILLS, "kills")
        rows.append(ReportRow("creatures_left", "Creatures left", len(creatures(st)),
                              str(len(creatures(st)))))
        herd = next((e for e in game.log.of_kind("herded")), None)
        who = None if herd is None else f"P{int(str(herd.data.get('player'))) + 1}"
        rows.append(ReportRow("herded", "Herded home by", who, who or "nobody yet", tally=True))
        return rows

    # -- bots ----------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        home = spawn.spawn_points(state)
        if is_creature(vehicle):
            spot = home.get(vehicle.player)
            return None if spot is None else point_goal(*spot)
        spot = home.get(vehicle.player)
        prey = self.prey(state, vehicle.player)
        if prey is None or spot is None:
            return None
        # Get behind the creature nearest home (so that, enraged, it is driven homewards),
        # never beyond the table's edge.
        dx, dy = prey.pose.x - spot[0], prey.pose.y - spot[1]
        n = math.hypot(dx, dy) or 1.0
        margin = BOT_MARGIN
        x = min(max(prey.pose.x + dx / n * 150.0, margin), state.width - margin)
        y = min(max(prey.pose.y + dy / n * 150.0, margin), state.height - margin)
        return point_goal(x, y)

    def prey(self, state: GameState, player: int) -> VehicleState | None:
        """For bots: the creature ``player`` should enrage next: the one nearest their spawn
        point that is not yet penned there (within Double of it)."""
        spot = spawn.spawn_point(state, player)
        if spot is None:
            return None
        left = creatures(state)
        loose = [c for c in left if math.hypot(c.pose.x - spot[0], c.pose.y - spot[1])
                 > PENNED] or left
        if not loose:
            return None
        return min(loose, key=lambda o: math.hypot(o.pose.x - spot[0], o.pose.y - spot[1]))

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        st = game.state
        if decision.kind == "enraged":
            spot = spawn.spawn_point(st, decision.player)
            if spot is not None:
                sx, sy = spot
                return min((str(o.value) for o in decision.options),
                           key=lambda c: math.hypot(st.vehicles[c].pose.x - sx,
                                                    st.vehicles[c].pose.y - sy))
        if decision.kind == "roar":
            return "no"
        if decision.kind == "attack" and st.active is not None:
            me = st.vehicles.get(st.active)
            if me is not None and me.in_team:
                # Shoot the creature it is herding (it then comes home), or a rival; never
                # a creature already penned at its own spawn point.
                spot = spawn.spawn_point(st, me.player)
                prey = self.prey(st, me.player)
                values = [str(o.value) for o in decision.options]
                if prey is not None:
                    at_prey = [v for v in values if v.endswith(">" + prey.id)]
                    if at_prey:
                        return max(at_prey, key=lambda v: self._dice(game, me, v))
                penned = {c.id for c in creatures(st) if spot is not None and math.hypot(
                    c.pose.x - spot[0], c.pose.y - spot[1]) <= PENNED}
                rivals = [v for v in values if ">" in v and v.partition(">")[2] not in penned
                          and not is_creature(st.vehicles.get(v.partition(">")[2]))]
                return max(rivals, key=lambda v: self._dice(game, me, v)) if rivals else "stop"
            if me is not None and is_creature(me):
                # A creature driven by a bot burns its rivals, never its driver's own cars.
                foes = [str(o.value) for o in decision.options if ">" in str(o.value)
                        and st.vehicles.get(str(o.value).partition(">")[2]) is not None
                        and st.vehicles[str(o.value).partition(">")[2]].in_team
                        and st.vehicles[str(o.value).partition(">")[2]].player != me.player]
                return foes[0] if foes else "stop"
        return super().bot_choice(game, decision)

    @staticmethod
    def _dice(game: Game, v: VehicleState, value: str) -> int:
        key = value.partition(">")[0]
        mount = next((m for m in v.weapons if m.key == key), None)
        try:
            return game.catalog.weapons.get(mount.weapon if mount else key).attack_dice or 0
        except KeyError:
            return 0
