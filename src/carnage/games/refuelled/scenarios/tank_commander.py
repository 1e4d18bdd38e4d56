"""Tank Commander, a Special Event (Refuelled pp.150-151).

Each player fields exactly two Tanks, each with a 125mm Cannon that starts front-mounted (a
Rutherford team by default; brought teams may spend up to 10 Cans more, and any sponsor may
field the Tanks: TC-1, TC-2). Pole Position is not stated: roll off and pass it clockwise
(TC-3). Spawn points and deployment follow the shared pattern; respawns come back within Short
of one's spawn point.

Special rules:

* Give Them A Good Show: the Cannons have unlimited ammo (their mounts carry no Ammo Tokens
  to run out), so every Wrecked Tank explodes (``explosion_check``).
* Audience Participation (vote effect ``turn_cannon``, 1 vote): turn one of one's Cannons to
  front, left, right or rear.
* On My Mark (vote effect ``extra_shot``, 1 vote): one of one's Tanks in play and not
  Distracted fires its Cannon once more at any legal target (TC-4); it is not an attack of its
  Attack Step.
* Close Range: a shooting attack at a target within Medium re-rolls every attack die that
  missed, automatically (a re-roll can only help: TC-5).
* BOOM!: wrecking an enemy vehicle with a shooting attack gives its controller 2 votes.
* Commercial Break: as each round begins (its first Gear Phase), each player may respawn any of
  their vehicles that is out of play, for free (decision ``commercial_break``).

Victory: each enemy Tank a player causes to be Wrecked is a kill (the ``kills`` tally,
scenarios/common/score.py; who caused it: TC-6); the first to ``kills_to_win`` (3; the
book suggests 5 for a longer game and 2 for many players) wins at once.
"""

from __future__ import annotations

import math
import random
from collections.abc import Generator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from carnage.games.refuelled.engine.attack import (
    Shot,
    Sight,
    legal_shots,
    resolve_attacks,
    targets_for,
    weapon_arc,
)
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.movement import touching_ids
from carnage.games.refuelled.engine.scenario import TeamDemand
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, Status, VehicleState
from carnage.games.refuelled.engine.votes import (
    VoteEffect,
    allies,
    gain_votes,
    own_vehicles,
    respawn,
    respawn_positions,
)
from carnage.games.refuelled.scenarios.arena import arena_terrain
from carnage.games.refuelled.scenarios.base import SPECIAL, Line, TableScenario
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.common.pole import RollOffPole
from carnage.games.refuelled.scenarios.common.spawn import (
    SpawnPoints,
    deploy_at_spawn_points,
    place_spawn_points,
    spawn_option_poses,
)
from carnage.games.refuelled.scenarios.composition import scenario_team
from carnage.geometry.arcs import parse_arc
from carnage.geometry.shapes import distance
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.team import TeamReport, TeamSpec
from carnage.team.io import parse_team

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset
    from carnage.geometry.shapes import Pose
    from carnage.kernel.decisions import Decision

PAGE = 150
RULES_PAGE = 151
SOURCE = "tank_commander"
CANNON = "125mm_cannon"
TANK = "tank"
KILLS = "kills"
FACINGS = ("front", "left", "right", "rear")
TANK_CANS = 46
"""A Tank (40 Cans) with a 125mm Cannon (6 Cans)."""
BONUS_CANS = 10
"""The Cans each player may agree to spend on top of the two Tanks (p.150; TC-1)."""
BOOM_VOTES = 2
CLOSE_RANGE = "close_range"
"""Memory: whether the attack about to be rolled is at a target within Medium (Close Range),
as measured (or told at a real table) just before its dice are rolled."""
COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "Teal")


def cannons(v: VehicleState) -> list[Any]:
    return [m for m in v.weapons if m.weapon == CANNON]


def enemies(game: Game, a: int, b: int) -> bool:
    return b not in allies(game, a)


# -- the vote effects --------------------------------------------------------------------------
def _turn_targets(g: Game, player: int) -> list[tuple[str, str]]:
    out = []
    for v in own_vehicles(g, player):
        for m in cannons(v):
            for f in FACINGS:
                if f != m.facing:
                    out.append((f"{v.id}|{m.key}|{f}", f"{v.name}: Cannon {m.facing} -> {f}"))
    return out


def _turn(g: Game, player: int, target: str) -> Flow:
    vid, key, facing = target.split("|")
    v = g.state.vehicles[vid]
    m = next(m for m in v.weapons if m.key == key)
    before, m.facing = m.facing, facing
    g.emit("cannon_turned", source="audience_participation", page=RULES_PAGE, vehicle=vid,
           weapon=key, before=before, facing=facing)
    yield from ()


AT_TABLE = "at_table"
"""On My Mark's one target at a real table: the shot the people then name (ruling CP-10)."""


def _cannon_shots(g: Game, player: int) -> list[tuple[str, str]]:
    """Every Cannon of ``player``'s Tanks in play at every other vehicle in play."""
    return [(f"{v.id}|{m.key}>{t.id}", f"{v.name}: Cannon at {t.name}")
            for v in own_vehicles(g, player) for m in cannons(v) for t in targets_for(g, v)]


def _shot_targets(g: Game, player: int) -> list[tuple[str, str]]:
    if g.facts.people:
        # A real table (ruling CP-10): which shots are open is the people's fact, asked once
        # On My Mark is bought (``_extra_shot``).
        return [(AT_TABLE, "a Cannon shot the people name")] if _cannon_shots(g, player) \
            else []
    out = []
    for v in own_vehicles(g, player):
        if not cannons(v) or touching_ids(g, v):
            continue  # a Distracted vehicle makes no shooting attacks (p.42; TC-4)
        if g.effects.run_event("distracted", False, {"game": g, "vehicle": v}) is True:
            continue
        for s in legal_shots(g, v):
            if s.weapon == CANNON:
                t = g.state.vehicles[s.target]
                out.append((f"{v.id}|{s.value}", f"{v.name}: Cannon at {t.name}"))
    return out


def _shot_at_table(g: Game, player: int) -> Generator[Decision, Any, tuple[str, Shot] | None]:
    """On My Mark at a real table (ruling CP-10): the people name the shot taken, one whose
    Tank touches nothing and is not Distracted and whose target is within the Cannon's range
    and arc, not behind Tall terrain (p.30, p.42), or none; then whether the target is in
    cover (p.42)."""
    from carnage.games.refuelled.engine.table_facts import NOTHING, ask_pick, ask_yes_no

    pick = yield from ask_pick(
        g, player, "on_my_mark", "On My Mark: which Cannon shot is open (the Tank touching "
        "nothing and not Distracted, the target in the Cannon's range and arc, not behind Tall "
        "terrain)?", [(NOTHING, "none is open"), *_cannon_shots(g, player)], page=RULES_PAGE,
        vehicle=None)
    if pick == NOTHING:
        return None
    vid, _, value = pick.partition("|")
    v = g.state.vehicles[vid]
    key, _, tid = value.partition(">")
    m = next(m for m in v.weapons if m.key == key)
    w = g.catalog.weapons.get(m.weapon)
    band = next((b.value for b in w.ranges if b.value != "dropped"), "double")
    cover = yield from ask_yes_no(
        g, player, "cover", f"{v.name}: is {g.state.vehicles[tid].name} in cover from its "
        "Cannon (p.42)?", page=42, vehicle=v.id, target=tid, weapon=key)
    return vid, Shot(key, m.weapon, tid, band, weapon_arc(m, w).value, cover=cover)


def _extra_shot(g: Game, player: int, target: str) -> Flow:
    if g.facts.people:
        told = yield from _shot_at_table(g, player)
        if told is None:
            g.emit("on_my_mark_lost", source="on_my_mark", page=RULES_PAGE, player=player,
                   reason="no Cannon shot is open")
            return
        vid, shot = told
        v = g.state.vehicles[vid]
        cover = bool(shot.cover)
    else:
        vid, value = target.split("|", 1)
        v = g.state.vehicles[vid]
        found = next((s for s in legal_shots(g, v) if s.value == value), None)
        g.facts.note("on_my_mark", target if found is not None else "none")  # CP-10
        if found is None:
            return
        from dataclasses import replace

        mount = next((m for m in v.weapons if m.key == found.key), None)
        cover = Sight(g, v).for_mount(mount).check(g.state.vehicles[found.target],
                                                    parse_arc(found.arc), found.template).cover
        g.facts.note("cover", cover)
        shot = replace(found, cover=cover)
    g.emit("on_my_mark", source="on_my_mark", page=RULES_PAGE, vehicle=vid, weapon=shot.key,
           target=shot.target, cover=cover)
    g.state.scenario["on_my_mark"] = player
    try:
        yield from resolve_attacks(g, v, [shot])
    finally:
        g.state.scenario.pop("on_my_mark", None)


TURN_CANNON = VoteEffect("turn_cannon", "Audience Participation: turn a Cannon", 1,
                         RULES_PAGE, _turn_targets, _turn)
EXTRA_SHOT = VoteEffect("extra_shot", "On My Mark: an extra Cannon shot", 1, RULES_PAGE,
                        _shot_targets, _extra_shot)


class TankCommander(SpawnPoints, RollOffPole, TableScenario):
    id = "tank-commander"
    name = "Tank Commander"
    page = PAGE
    width = 900.0
    height = 1200.0
    summary = ("Two cannon-armed Tanks each, unlimited shells and free respawns every round: "
               "the first to wreck three enemy Tanks wins.")
    last_page = 151
    how_to_win = "The first player to wreck three enemy Tanks wins at once."
    special_rules = (
        BriefRule("Tanks",
                  "Each player fields exactly two Tanks with 125mm Cannons.",
                  refuelled(150)),
        BriefRule("Give them a good show",
                  "Cannons never run out of shells, so every wrecked Tank explodes.",
                  refuelled(151)),
        BriefRule("Close range",
                  "Shots at targets within Medium re-roll their misses.",
                  refuelled(151)),
        BriefRule("Commercial break",
                  "At the start of each round every Tank out of play may come back for free.",
                  refuelled(151)),
        BriefRule("Boom!",
                  "Wrecking an enemy with a shot gives 2 Audience Votes.",
                  refuelled(151)),
    )
    score_title = "Tanks wrecked"
    score_target = "first to 3 kills"
    score_tallies = ((KILLS, "kills"),)
    table = SPECIAL
    table_rolls = (5,)
    options_schema: ClassVar[dict[str, tuple[type, Any]]] = {"kills_to_win": (int, 3)}

    # -- teams (M-32) ------------------------------------------------------------------------------
    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        """A Rutherford team of two Tanks, each with a front-mounted 125mm Cannon (p.150)."""
        out = []
        for p in range(players):
            colour = COLOURS[p % len(COLOURS)] + ("" if p < len(COLOURS) else f" {p + 1}")
            out.append(parse_team({
                "name": f"{colour} Armour", "cans": 2 * TANK_CANS, "sponsor": "rutherford",
                "vehicles": [{"name": f"{colour} Tank {i}", "type": TANK,
                              "weapons": [{"id": CANNON, "facing": "front"}]} for i in (1, 2)],
            }, f"tank commander team {p + 1}"))
        return tuple(out)

    def team_demand(self, seat: int, players: int,
                    options: Mapping[str, Any] | None = None) -> TeamDemand:
        """Every team is two Tanks with front-mounted 125mm Cannons (p.150): the one the
        scenario prescribes."""
        return TeamDemand(team=self.default_teams(players)[seat])

    def check_team(self, spec: TeamSpec, who: str, ruleset: RefuelledRuleset | None = None
                   ) -> TeamReport:
        """Exactly two Tanks, each with a 125mm Cannon mounted front, at most 10 Cans more
        (TC-1); any sponsor may field them (Military Hardware's one Tank is lifted, TC-2)."""
        def lifted(rule: str, item: str | None) -> bool:
            return rule == "military_hardware" or (rule == "restricted_vehicle" and item == TANK)

        def check(s: TeamSpec, report: TeamReport) -> list[str]:
            out = []
            types = [v.type for v in s.vehicles]
            if len(types) != 2 or any(t != TANK for t in types):
                out.append(f"a team is exactly two Tanks, not {', '.join(types) or 'none'}")
            for v in s.vehicles:
                front = [w for w in v.weapons if w.id == CANNON and str(w.facing) == "front"]
                if v.type == TANK and not front:
                    out.append(f"{v.name} needs a 125mm Cannon mounted front")
            if report.total_cans > 2 * TANK_CANS + BONUS_CANS:
                out.append(f"the team costs {report.total_cans} Cans; two Tanks with Cannons "
                           f"and {BONUS_CANS} Cans more come to {2 * TANK_CANS + BONUS_CANS}")
            return out

        return scenario_team(spec, who, ruleset, lifted=lifted, check=check,
                             scenario=self.name)

    # -- the table -------------------------------------------------------------------------------
    def generate(self, state: GameState, rng: random.Random) -> None:
        arena_terrain(state, rng)

    def lay_out(self, state: GameState) -> None:
        arena_terrain(state, random.Random(0))

    # -- set-up ------------------------------------------------------------------------------------
    def kills_to_win(self, game: Game) -> int:
        opts = game.state.scenario.get("options")
        n = opts.get("kills_to_win", 3) if isinstance(opts, dict) else 3
        return max(1, int(n))

    def install(self, game: Game) -> None:
        fx = game.effects
        eff = f"scenario:{self.id}"

        def explodes(value: Any, ctx: dict[str, Any]) -> Any:
            v: VehicleState = ctx["vehicle"]
            return True if v.type == TANK and cannons(v) else None

        def effects(value: Any, ctx: dict[str, Any]) -> Any:
            return [*value, TURN_CANNON, EXTRA_SHOT]

        fx.on("explosion_check", eff, explodes, priority=-100)
        fx.on("vote_effects", eff, effects)
        fx.on("attack", eff, self._close_range, priority=50)
        fx.add_flow("attack_roll", eff, lambda ctx: self._close_range_told)
        fx.on("after_attack", eff, lambda flows, ctx: [*flows, self._boom])
        fx.on("wrecked", eff, self._wrecked)

    def setup(self, game: Game) -> Flow:
        st = game.state
        for v in st.vehicles.values():
            for m in cannons(v):
                m.ammo = None  # Give Them A Good Show: unlimited ammo (p.151)
        st.pole = self.roll_off(game)
        yield from place_spawn_points(game, source=SOURCE, page=PAGE)
        yield from deploy_at_spawn_points(game, source=SOURCE, page=PAGE)

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        return spawn_option_poses(game, decision.vehicle, decision.kind,
                                  [o.value for o in decision.options])

    # -- Close Range, BOOM!, kills -----------------------------------------------------------------
    def _close_range(self, value: Any, ctx: dict[str, Any]) -> Any:
        """Re-roll the missed attack dice of a shot at a target within Medium (TC-5)."""
        game: Game = ctx["game"]
        res = ctx["resolution"]
        near = game.state.scenario.pop(CLOSE_RANGE, None)
        if near is None:  # not judged as the dice were about to be rolled: judge it now
            near = not game.facts.people and self._within_medium(game, res.attacker,
                                                                   res.target)
        if not near:
            return None
        last = next((e for e in reversed(game.log.events) if e.kind == "attack_hits"), None)
        reports: Any = None if last is None else last.data.get("weapons")
        if not isinstance(reports, list):
            return None
        for grp, rep in zip(res.groups, reports, strict=False):
            pen = 1 if rep.get("cover") else 0
            missed = [int(d) for d in rep.get("dice", []) if int(d) != 6 and int(d) < 4 + pen]
            if not missed:
                continue
            again = game.roll(len(missed), "close range re-roll", source="close_range",
                              page=RULES_PAGE, vehicle=res.attacker.id, target=res.target.id,
                              weapon=grp.key)
            extra = sum(2 if d == 6 else 1 if d >= 4 + pen else 0 for d in again)
            grp.hits += extra
            game.emit("close_range", source="close_range", page=RULES_PAGE,
                      vehicle=res.attacker.id, target=res.target.id, weapon=grp.key,
                      rerolled=len(missed), hits=extra)
        return None

    @staticmethod
    def _within_medium(game: Game, a: VehicleState, t: VehicleState) -> bool:
        reach = game.templates.ranges["medium"]
        return bool(distance(a.polygon(), t.polygon()) <= reach + 1e-6)

    def _close_range_told(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """Close Range's measure, taken as the attack dice are about to be rolled (the
        ``attack_roll`` flow hook): at a real table the people say whether the target is
        within Medium (ruling CP-10); the exact table measures it and notes the fact."""
        a: VehicleState = ctx["attacker"]
        t: VehicleState = ctx["target"]
        if game.facts.people:
            from carnage.games.refuelled.engine.table_facts import ask_yes_no

            near = yield from ask_yes_no(
                game, a.player, "close_range", f"{a.name}: is {t.name} within Medium of it "
                "(Close Range: the missed attack dice are re-rolled)?", page=RULES_PAGE,
                vehicle=a.id, target=t.id)
        else:
            near = self._within_medium(game, a, t)
            game.facts.note("close_range", near)
        game.state.scenario[CLOSE_RANGE] = near

    def _boom(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """BOOM!: a shooting attack that wrecked an enemy gives 2 votes (p.151)."""
        res = ctx["resolution"]
        t, a = res.target, res.attacker
        if t.status in (Status.WRECKED, Status.REMOVED) and enemies(game, a.player, t.player):
            gain_votes(game, a.player, BOOM_VOTES, source="boom", page=RULES_PAGE,
                       vehicle=a.id, target=t.id)
        yield from ()

    def killer(self, game: Game, v: VehicleState) -> int | None:
        """Who caused ``v`` to be Wrecked (TC-6): the player of an On My Mark shot; else the
        active vehicle's controller if an enemy; else, when ``v`` was wrecked in its own
        activation, the enemy it last collided with in it; else nobody."""
        st = game.state
        shooter = st.scenario.get("on_my_mark")
        if isinstance(shooter, int):
            return shooter if enemies(game, shooter, v.player) else None
        active = st.vehicles.get(st.active or "")
        if active is not None and active.id != v.id:
            return active.player if enemies(game, active.player, v.player) else None
        for e in reversed(game.log.events):
            if e.kind == "activation":
                break
            if e.kind == "collision" and v.id in (e.data.get("vehicle"), e.data.get("other")):
                oid = str(e.data.get("other") if e.data.get("vehicle") == v.id
                          else e.data.get("vehicle"))
                o = st.vehicles.get(oid.split("/")[0])
                if o is not None and enemies(game, o.player, v.player):
                    return o.player
                return None
        return None

    def _wrecked(self, value: Any, ctx: dict[str, Any]) -> None:
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        if v.type != TANK or not self.counts(game, v) or game.state.finished:
            return
        who = self.killer(game, v)
        if who is None:
            return
        n = score.add(game, KILLS, 1, player=who, source=SOURCE, page=RULES_PAGE,
                      reason=f"wrecked {v.name}")
        if n >= self.kills_to_win(game):
            side = score.side_of(game, who)
            game.finish(side, f"{score.side_label(game, side)} reached {n} kills")

    def check_end(self, game: Game) -> None:
        """Kills decide (instantly, in ``_wrecked``); respawns are free, so an empty table is
        only the end when nobody can come back: never (the round's Commercial Break)."""

    # -- Commercial Break --------------------------------------------------------------------------
    def gear_phase_start(self, game: Game) -> Flow | None:
        if game.state.gear_phase != 1:
            return None
        return self._commercial_break(game)

    def _commercial_break(self, game: Game) -> Flow:
        st = game.state
        for p in st.clockwise_from(st.pole):
            for v in [o for o in st.vehicles.values() if o.player == p and o.in_team
                      and not o.in_play]:
                # Wreck or not, it comes back at its spawn point (ruling SC-45).
                if st.finished or not respawn_positions(game, v):
                    continue
                pick = yield ask(p, "commercial_break",
                                 f"Commercial Break: respawn {v.name} for free?",
                                 [("respawn", "respawn it"), ("stay", "leave it out")],
                                 source="commercial_break", page=RULES_PAGE, vehicle=v.id)
                if pick == "respawn":
                    yield from respawn(game, v, p, source="commercial_break", page=RULES_PAGE)

    # -- what the table shows --------------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        return self.spawn_drawables(game)

    def report(self, game: Game) -> list[ReportRow]:
        return score.report_rows(game, KILLS, "kills")

    # -- bots -------------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """Hunt the nearest enemy Tank in play (a point goal)."""
        foes = [o for o in state.in_play() if o.player != vehicle.player
                and 0 <= o.pose.x <= state.width and 0 <= o.pose.y <= state.height]
        if not foes:
            return None
        e = min(foes, key=lambda o: (math.hypot(o.pose.x - vehicle.pose.x,
                                                o.pose.y - vehicle.pose.y), o.id))
        p = (round(e.pose.x / 30.0) * 30.0, round(e.pose.y / 30.0) * 30.0)
        return Line(p, p, (0.0, 1.0))

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        offered = [str(o.value) for o in decision.options]
        if decision.kind == "commercial_break":
            return "respawn"
        if decision.kind == "spend_votes":
            if "respawn" in offered:
                return "respawn"
            if "extra_shot" in offered:
                return "extra_shot"
            return None
        if decision.kind == "vote_target" and decision.source == "extra_shot":
            st = game.state

            def hull(value: str) -> tuple[int, str]:
                target = value.split(">")[-1]
                t = st.vehicles.get(target)
                return (t.hull_points if t is not None else 99, value)

            return min(offered, key=hull) if offered else None
        return super().bot_choice(game, decision)
