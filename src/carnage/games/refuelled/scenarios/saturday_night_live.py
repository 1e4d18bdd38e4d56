"""Saturday Night Live (Refuelled pp.133-134): the audience decides the winner.

An arena. Players roll off for Pole Position, which passes clockwise after every Gear Phase;
spawn points and deployment follow the usual pattern, and a respawned vehicle comes back at its
controller's spawn point. Every Audience Vote a player gains also brings a Victory Point
(Prizes Mean Points), but only while the vehicle earning it is within Double of an enemy vehicle
(Screen Time). Special prizes (snl_prizes.py) give the active vehicle's controller extra votes.
The first player to hold 15 Victory Points wins at once.

Rulings SNL-1 to SNL-9 in docs/rulings.md.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, ClassVar

from carnage.games.refuelled.engine.bot_facing import Advice, Among
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.scenarios.base import TELEVISED, Line, TableScenario
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.common.spawn import (
    SpawnPoints,
    deploy_at_spawn_points,
    place_spawn_points,
    spawn_option_poses,
)
from carnage.games.refuelled.scenarios.common.table import scatter_terrain
from carnage.games.refuelled.scenarios.skirmish_layout import (
    ARENA_PIECES,
    Spoils,
    circle,
    point_goal,
    skirmish_teams,
)
from carnage.games.refuelled.scenarios.snl_prizes import (
    CLAIM,
    DECLINE,
    FRESH_OPTION,
    PRIZES,
    STANDING,
    install_prizes,
    near_at_deployment,
    prizes,
    within_double,
)
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.geometry.shapes import Pose
    from carnage.kernel.decisions import Decision

PAGE = 133
SOURCE = "saturday_night_live"
VP_TO_WIN = 15
STAND_OFF = 150.0
"""Bots head for a point this far (mm) short of the nearest enemy: within Double of it
(Screen Time) without ramming it."""


class SaturdayNightLive(SpawnPoints, RollOffPole, TableScenario):
    id = "saturday-night-live"
    name = "Saturday Night Live"
    page = PAGE
    summary = ("Votes are points while you are on screen near an enemy; chase the special "
               "prizes and be first to 15 Victory Points.")
    last_page = 134
    how_to_win = "The first player to hold 15 Victory Points wins at once."
    special_rules = (
        BriefRule("Prizes mean points",
                  "Every Audience Vote a player gains also scores them a Victory Point.",
                  refuelled(133)),
        BriefRule("Screen time",
                  ("A vote earns that point only while the vehicle earning it is within Double"
                   " of an enemy vehicle."),
                  refuelled(133)),
        BriefRule("Special prizes",
                  "Stunts announced by the show give extra votes to whoever pulls them off.",
                  refuelled(134)),
    )
    score_title = "Victory Points"
    score_target = "first to 15 VP"
    score_tallies = (("vp", "VP"),)
    table = TELEVISED
    table_rolls = (6,)
    options_schema: ClassVar[dict[str, tuple[type, Any]]] = {FRESH_OPTION: (bool, True)}
    """``fresh_prizes`` (ruling SNL-9): replace a prize unclaimed through a whole round."""
    spoils: Spoils | None = None
    """No Televised Season spoils of its own (p.134)."""

    # -- the table -------------------------------------------------------------------------------
    def generate(self, state: GameState, rng: random.Random) -> None:
        """An arena (p.133): ``ARENA_PIECES`` pieces of terrain, none within Medium of the
        centre, so the centre prize (5) can be reached (ruling SNL-7)."""
        centre = (state.width / 2.0, state.height / 2.0)
        scatter_terrain(state, rng, ARENA_PIECES, keep_out=[(centre, 120.0)])

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        return skirmish_teams(players, "Stars")

    # -- set-up ----------------------------------------------------------------------------------
    def install(self, game: Game) -> None:
        effect = f"scenario:{self.id}"
        install_prizes(game, effect)
        game.effects.on("logged:audience_vote", effect, self._prizes_mean_points)
        game.effects.on("may_respawn", effect, self._disqualified_may_respawn)

    def setup(self, game: Game) -> Flow:
        prizes(game.state)  # read by the table and bots: there from the start
        game.state.pole = self.roll_off(game)
        yield from place_spawn_points(game, source=SOURCE, page=PAGE)
        yield from deploy_at_spawn_points(game, source=SOURCE, page=PAGE)
        yield from near_at_deployment(game)

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        return spawn_option_poses(game, decision.vehicle, decision.kind,
                                  [o.value for o in decision.options])

    @staticmethod
    def _disqualified_may_respawn(value: Any, ctx: dict[str, Any]) -> Any:
        """Ruling SNL-6: with no Scarper rule, a vehicle that left the table counts as
        destroyed and may respawn at its spawn point, as a Wrecked one may (p.90)."""
        v: VehicleState = ctx["vehicle"]
        if v.status is Status.DISQUALIFIED and not ctx["in_play"]:
            return True
        return None

    # -- Screen Time and Prizes Mean Points (p.133) ----------------------------------------------
    def on_screen(self, game: Game, player: int, vehicle: str | None) -> VehicleState | None:
        """Ruling SNL-2: the vehicle whose Screen Time lets ``player`` score: the vehicle the
        vote names, if any and it is on the table; else the first of the player's side's
        counting vehicles in play that is within Double of an enemy vehicle. None: no VP."""
        st = game.state
        mine = score.side_players(game, player)
        enemies = [v for v in st.in_play() if v.player not in mine and self.counts(game, v)]
        named = st.vehicles.get(vehicle or "")
        if named is not None and named.status.value in ("active", "wrecked"):
            candidates = [named]
        else:
            candidates = [v for v in st.in_play() if v.player in mine and self.counts(game, v)]
        for v in candidates:
            if any(within_double(game, v, e) for e in enemies):
                return v
        return None

    def _prizes_mean_points(self, value: Any, ctx: dict[str, Any]) -> None:
        game: Game = ctx["game"]
        data = ctx["data"]
        player, gained = int(data.get("player", -1)), int(data.get("gained", 0))
        if gained <= 0 or not 0 <= player < game.state.players or game.state.finished:
            return
        star = self.on_screen(game, player, data.get("vehicle"))
        if star is None:
            game.emit("screen_time", source=SOURCE, page=PAGE, player=player, gained=0,
                      reason="no vehicle of theirs within Double of an enemy")
            return
        total = score.add(game, score.VP, gained, player=player, source=SOURCE, page=PAGE,
                          reason=f"Prizes Mean Points ({star.name} on screen)")
        if total >= VP_TO_WIN:
            side = score.side_of(game, player)
            game.finish(side, f"{score.side_label(game, side)} holds {total} Victory Points")

    def check_end(self, game: Game) -> None:
        """Ruling SNL-8: only 15 VP ends the game; a player with nothing in play waits for a
        respawn (votes still come at the start of each round)."""

    # -- bots ------------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """The centre while prize 5 is up; otherwise near the nearest enemy (Screen Time),
        or the centre once that close."""
        if prizes(state).get("prize") == 5:
            return point_goal(vehicle, (state.width / 2.0, state.height / 2.0))
        enemies = [v for v in state.in_play() if v.player != vehicle.player
                   and v.pose.x >= 0 and v.pose.y >= 0]
        if not enemies:
            return point_goal(vehicle, (state.width / 2.0, state.height / 2.0))
        near = min(enemies, key=lambda e: (math.hypot(e.pose.x - vehicle.pose.x,
                                                      e.pose.y - vehicle.pose.y), e.id))
        # On screen, not in its grille: a point STAND_OFF short of it, on the way to it.
        dx, dy = vehicle.pose.x - near.pose.x, vehicle.pose.y - near.pose.y
        d = math.hypot(dx, dy)
        if d <= STAND_OFF:
            return point_goal(vehicle, (state.width / 2.0, state.height / 2.0))
        return point_goal(vehicle, (near.pose.x + dx / d * STAND_OFF,
                                    near.pose.y + dy / d * STAND_OFF))

    def bot_choice(self, game: Game, decision: Decision) -> Advice:
        """Claim every prize; deploy facing the centre; and go for the prize that is up:
        a Hazardous template (8), the last Hazard shed (7), gears up (4, 15), a T-Bone smash
        (9)."""
        if decision.kind == "snl_prize":
            return self._claim_or_wait(game, decision)
        advice = super().bot_choice(game, decision)
        if advice is not None:
            return advice
        st = game.state
        prize = prizes(st).get("prize")
        v = st.vehicles.get(st.active or "")
        if v is None or v.player != decision.player:
            return None
        values = [str(o.value) for o in decision.options]
        if decision.kind == "spend_shift":
            if prize == 7 and v.hazards == 1 and "discard_hazard" in values:
                return "discard_hazard"
            if prize in (4, 15) and "gear_up" in values and v.gear < game.stat(v, "max_gear"):
                return "gear_up"
        if (decision.kind == "collision_reaction" and prize == 9 and "smash" in values
                and prizes(st).get("orientation") == "t_bone"):
            return "smash"
        if decision.kind == "template" and prize == 8 and v.hazards <= 3:
            return self._hazardous_template(game, decision, v)
        return None

    def _claim_or_wait(self, game: Game, decision: Decision) -> str:
        """Claim a prize while on screen (it then scores); off screen, wait for a prize that
        stays met (3, 4, 6, 15), claim the others at once."""
        st = game.state
        v = st.vehicles.get(decision.vehicle or "")
        prize = prizes(st).get("prize")
        if v is None or prize not in STANDING or self.on_screen(game, v.player, v.id):
            return CLAIM
        return DECLINE

    @staticmethod
    def _hazardous_template(game: Game, decision: Decision, v: VehicleState) -> Among | None:
        """The bot's own pick among the Hazardous templates only (None: none is)."""
        from carnage.catalog import TemplateUse
        from carnage.games.refuelled.engine.movement import parse_template_value, template_use

        risky = tuple(o for o in decision.options
                      if template_use(game, v, parse_template_value(str(o.value))[0], v.gear)
                      is TemplateUse.HAZARDOUS)
        if not risky or len(risky) == len(decision.options):
            return None  # (asked again with only those, it lets the bot choose)
        return Among(risky)

    # -- what the table shows --------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        st = game.state
        centre = (st.width / 2.0, st.height / 2.0)
        out = self.spawn_drawables(game)
        out.append(Drawable("centre-short", "zone", circle(centre, game.templates.ranges["short"]),
                            label="within Short of the centre (prize 5)", style="prize"))
        prize = prizes(st).get("prize")
        if prize is not None:
            out.append(Drawable("special-prize", "label", (centre,), number=int(prize),
                                label=f"Prize {prize}: {PRIZES[int(prize)]}"))
        return out

    def report(self, game: Game) -> list[ReportRow]:
        st = game.state
        prize = prizes(st).get("prize")
        rows = score.report_rows(game, score.VP)
        rows.append(ReportRow("special_prize", "Special prize", prize,
                              "none yet" if prize is None else f"{prize}: {PRIZES[int(prize)]}"))
        claims = len(prizes(st)["log"])
        rows.append(ReportRow("prizes_claimed", "Prizes claimed", claims, f"{claims} claimed",
                              tally=True))
        return rows
