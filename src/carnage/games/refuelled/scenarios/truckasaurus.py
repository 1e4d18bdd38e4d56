"""Truckasaurus, a Special Event (Refuelled pp.152-153).

Truckasaurus stands at the centre of the arena (facing the way the Pole holder picks) and
belongs to nobody (scenarios/beasts.py, neutral.py). Pole is rolled off and passed
clockwise. Spawn points and deployment follow the usual pattern; respawns come back at one's
own spawn point. A player with a vehicle in play may pay 3 votes whenever votes may be spent
to drive Truckasaurus for one activation (before their own); every vehicle wrecked during it
scores that player 1 VP (at most 1 a time for their own side's vehicles). Smashing into it in
one's own activation earns a vote; starting an activation beyond Double of it costs one. The
first to 5 VP (3 in a two-player game) wins at once; otherwise after round 3 the player(s)
with the most VP win.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, VehicleState
from carnage.games.refuelled.scenarios import beast_table as bt
from carnage.games.refuelled.scenarios.base import SPECIAL, Line, TableScenario
from carnage.games.refuelled.scenarios.beasts import (
    install_truckasaurus_rules,
    install_truckasaurus_scenario,
    is_truckasaurus,
    make_truckasaurus,
    truckasaurus_of,
)
from carnage.games.refuelled.scenarios.common import score, spawn
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.common.table import scatter_terrain
from carnage.games.refuelled.scenarios.neutral import add_neutral, install_neutrals
from carnage.geometry.shapes import Pose
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.team.io import parse_team
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.kernel.decisions import Decision

PAGE = 152
SOURCE = "truckasaurus"
ROUNDS = 3
WIN_VP = 5
WIN_VP_TWO = 3
FACINGS = tuple(range(0, 360, 45))
"""Ruling TR-2: the facings the Pole holder may give Truckasaurus (45-degree steps)."""
COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Teal")


def arena_terrain(state: GameState, rng: random.Random, keep_clear: float) -> None:
    """A demolition-derby arena (the shared generator, common/table.py): a few pieces, none
    within ``keep_clear`` of the centre (room for the beasts, the flags and their ring)."""
    scatter_terrain(state, rng, 5, keep_out=[(bt.centre(state), keep_clear)])


def arena_teams(players: int, title: str) -> tuple[TeamSpec, ...]:
    """Default teams: a Car with a front heavy machine gun and a Buggy with a front machine
    gun per player (any team may be brought instead)."""
    out = []
    for p in range(players):
        colour = COLOURS[p % len(COLOURS)] + ("" if p < len(COLOURS) else f" {p + 1}")
        out.append(parse_team({
            "name": f"{colour} {title}", "cans": 50,
            "vehicles": [
                {"name": f"{colour} Car", "type": "car",
                 "weapons": [{"id": "heavy_machine_gun", "facing": "front"}]},
                {"name": f"{colour} Buggy", "type": "buggy",
                 "weapons": [{"id": "machine_gun", "facing": "front"}]},
            ]}, f"{title} team {p + 1}"))
    return tuple(out)


def point_goal(x: float, y: float, grid: float = 40.0) -> Line:
    """A goal at a point for bots: a 2 mm line, snapped to ``grid`` so the bot's distance
    fields are reused while the point moves little."""
    gx, gy = round(x / grid) * grid, round(y / grid) * grid
    return Line((gx - 1.0, gy), (gx + 1.0, gy), (0.0, 1.0))


class Truckasaurus(RollOffPole, spawn.SpawnPoints, TableScenario):
    id = "truckasaurus"
    name = "Truckasaurus"
    page = PAGE
    min_players = 2
    max_players = 6
    table = SPECIAL
    table_rolls = (6,)
    bot_gear = 3
    summary = ("An unkillable war machine in the middle of the arena: pay votes to drive it "
               "and score a point for every car it wrecks.")
    last_page = 153
    how_to_win = ("The first player to 5 VP (3 with two players) wins at once; otherwise, "
                  "after round 3, the most VP wins.")
    special_rules = (
        BriefRule("The beast",
                  ("Truckasaurus stands at the centre and belongs to nobody; it cannot be "
                   "destroyed."),
                  refuelled(152)),
        BriefRule("Drive it",
                  ("A player may pay 3 Audience Votes to drive Truckasaurus for one "
                   "activation; each vehicle it wrecks then scores them 1 VP."),
                  refuelled(152)),
        BriefRule("Show-offs",
                  ("Smashing into it earns a vote; starting an activation far from it costs "
                   "one."),
                  refuelled(152)),
    )
    score_title = "Victory Points"
    score_target = "first to 5 VP (3 with two players)"
    score_tallies = (("vp", "VP"),)
    round_limit = ROUNDS
    tie_breaks = ()
    """Ruling TR-9: "the player(s) with the most VP" win: a tie at the top is shared."""

    # -- the table ---------------------------------------------------------------------------
    def lay_out(self, state: GameState) -> None:
        self.generate(state, random.Random(0))

    def generate(self, state: GameState, rng: random.Random) -> None:
        arena_terrain(state, rng, 260.0)

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        return arena_teams(players, "Feeders")

    # -- set-up ------------------------------------------------------------------------------
    def install(self, game: Game) -> None:
        install_neutrals(game)
        install_truckasaurus_rules(game)
        install_truckasaurus_scenario(game, self.score)

    def setup(self, game: Game) -> Flow:
        st = game.state
        st.pole = self.roll_off(game)
        cx, cy = bt.centre(st)
        if truckasaurus_of(game) is None:
            add_neutral(game, make_truckasaurus(Pose(cx, cy, 90.0)))
        t = truckasaurus_of(game)
        if t is not None:
            pick = yield ask(st.pole, "truckasaurus_facing",
                             "Truckasaurus: which way does it face?",
                             [(h, f"{h} degrees") for h in FACINGS], source=SOURCE, page=PAGE,
                             vehicle=t.id)
            t.pose = Pose(cx, cy, float(pick))
            game.emit("deploy", source=SOURCE, page=PAGE, vehicle=t.id, player=None,
                      x=cx, y=cy, heading=float(pick))
        yield from spawn.place_spawn_points(game, source=SOURCE, page=PAGE)
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
        if decision.kind == "truckasaurus_facing":
            return {str(o.value): Pose(v.pose.x, v.pose.y, float(o.value))
                    for o in decision.options}
        return {}

    # -- scoring and the end -----------------------------------------------------------------
    def target_vp(self, game: Game) -> int:
        return WIN_VP_TWO if game.state.players == 2 else WIN_VP

    def score(self, game: Game, player: int, n: int, source: str, page: int,
              **data: Any) -> None:
        got = score.add(game, score.VP, n, player=player, source=source, page=page,
                        reason=str(data.get("vehicle", "")))
        if got >= self.target_vp(game) and not game.state.finished:
            side = score.side_of(game, player)
            game.finish(side, f"first to {self.target_vp(game)} Victory Points: "
                              f"{score.side_label(game, side)}")

    def check_end(self, game: Game) -> None:
        """No last-player-standing win here (ruling TR-9): the game ends on Victory Points."""

    # -- what the table shows ----------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        out = self.spawn_drawables(game)
        t = truckasaurus_of(game)
        if t is not None and t.in_play:
            out.append(Drawable("danger-zone", "label", ((t.pose.x, t.pose.y),),
                                label="TRUCKASAURUS", style="beast"))
        return out

    def report(self, game: Game) -> list[ReportRow]:
        fed = sum(1 for e in game.log.of_kind("truckasaurus_fed") if e.data.get("scored"))
        return [*score.report_rows(game, score.VP),
                ReportRow("truckasaurus_fed", "Wrecks Truckasaurus fed on", fed, str(fed),
                          tally=True)]

    # -- bots ----------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        t = next((v for v in state.vehicles.values() if is_truckasaurus(v)), None)
        if t is None or not t.in_play:
            return None
        if is_truckasaurus(vehicle):
            prey = [o for o in state.in_play() if o.in_team and o.player != vehicle.player]
            if not prey:
                return None
            near = min(prey, key=lambda o: (o.pose.x - t.pose.x) ** 2 + (o.pose.y - t.pose.y) ** 2)
            return point_goal(near.pose.x, near.pose.y)
        # Into the Danger Zone and smash into it: each such Smash Attack is a vote (Witness),
        # and three wake it up against the rivals.
        return point_goal(t.pose.x, t.pose.y, grid=1.0)

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        """Wake Truckasaurus when a rival's vehicle is near it; aim it at rivals."""
        st = game.state
        t = truckasaurus_of(game)
        if decision.kind == "spend_votes" and t is not None and t.in_play:
            values = {str(o.value) for o in decision.options}
            if "truckasaurus_lives" in values:
                near = [o for o in st.in_play() if o.in_team and o.player != decision.player
                        and ((o.pose.x - t.pose.x) ** 2 + (o.pose.y - t.pose.y) ** 2) ** 0.5
                        < game.templates.ranges["long"] + 60.0]
                if near:
                    return "truckasaurus_lives"
            # Otherwise save up for it (but come back into play when it can).
            return "respawn" if "respawn" in values else "done"
        if (decision.kind == "collision_reaction" and decision.target == "truckasaurus"
                and st.active == decision.vehicle):
            return "smash"  # Witness: a vote for smashing into it in one's own activation
        if decision.kind == "attack" and st.active is not None:
            me = st.vehicles.get(st.active)
            if me is not None and me.in_team:
                # Shooting Truckasaurus is pointless: let the bot pick among the others.
                opts = [o.value for o in decision.options
                        if not str(o.value).endswith(">truckasaurus")]
                if len(opts) != len(decision.options):
                    foes = [v for v in opts if ">" in str(v)]
                    return foes[0] if foes else "stop"
        return super().bot_choice(game, decision)
