"""What the four Savage Highways scenarios share (Refuelled pp.165-175).

* **Roles** (SH-01 to SH-03, P-22). One seat is the Riggers (scenario option ``riggers``,
  default 0), every other seat a Ganger. With two or more Gangers the game is a team game
  (p.123): Riggers against Gangers, from ``GameSetup.sides`` (which must be exactly that) or,
  when no sides are given, installed by the scenario. The Riggers' War Rig is the one War
  Rig of the Riggers' team.
* **Teams** (SH-02, SH-03, P-26; ``check_team``). A team with a War Rig is a Riggers team: one
  War Rig only, received free (its base price is not counted), with no perks, no Nitro
  Booster and no electrical upgrade (ruling SH-R10: electrical upgrades, not weapons); what is
  fitted to the rig and the rest of the team cost at most 80 Cans together, the rest of the
  team at most 60. A team without one is a Gangers team: all the Gangers' teams cost at most
  120 Cans shared equally (each at most 120 // number of Gangers), and none may have a War Rig.
* **War Rig Upgrades** (rules/war_rig_upgrades.py): the scenario option ``upgrades`` lists
  those attached at the start; empty, the scenario asks for the book's number at set-up (the
  Riggers, or in Rescue the Gangers). Unlikely Stamina and Plot Immunity are in force.
* **Table** (G-05): about 4' x 4', 1220 x 1220 mm. Edges are named ``south`` (y = 0),
  ``north``, ``west`` (x = 0) and ``east``.
* **Deployment and respawns** on table edges as finite candidates (ruling SH-R1): a vehicle
  "touching" an edge stands square to it, its rear (a War Rig's trailer) on the edge, facing
  into the table, every ``EDGE_STEP`` mm along it, clear of terrain and of every vehicle.
* **Pole** (SH-13): a Ganger chosen by the Gangers starts with it (the Ganger in the lowest
  seat chooses); after each Gear Phase it swaps sides, through ``move_pole`` (Carpe Diem may
  hold it). Going back to the Gangers it goes to the Ganger after the one who held it last,
  in seat order (ruling SH-R2).
* **Escapes** (M-23, M-50): the rig escapes when its template goes past, or its Final
  Position touches, an escape edge: the game ends and the Riggers win. Going past another
  edge it is disqualified as usual (p.87).

Memory: ``state.scenario["savage"]``: ``edges`` (role or seat -> edge names), ``escaped``,
``last_ganger``, and what each scenario adds.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from carnage.games.refuelled.engine.bot_facing import Among
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.scenario import TeamDemand
from carnage.games.refuelled.engine.scenario_view import Drawable, ReportRow
from carnage.games.refuelled.engine.state import GameState, Obstacle, Status, VehicleState
from carnage.games.refuelled.rules import war_rig_upgrades as wru
from carnage.games.refuelled.scenarios.base import Line, TableScenario
from carnage.games.refuelled.scenarios.skirmish_layout import point_goal
from carnage.geometry.movement import trailer_behind
from carnage.geometry.shapes import Point, Pose, Rect, distance, penetration
from carnage.kernel.briefing import BriefRule, refuelled
from carnage.kernel.decisions import Decision
from carnage.team.model import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset
    from carnage.team import TeamReport

SAVAGE = "Savage Highways"
"""The table of these four scenarios (never one of p.122's)."""
SIDE = 1220.0
"""About 4 feet (p.165; G-05)."""
SOURCE = "savage_highways"
WAR_RIG = "war_rig"
RIG_EXTRAS = 20
REST_OF_TEAM = 60
GANGER_CANS = 120
EDGE_STEP = 40.0
"""Mm between the candidate spots along an edge (ruling SH-R1)."""
TOUCH = 0.5
"""A body within this of an edge touches it (mm)."""
EDGE_TOL = 1e-6
EDGES = ("south", "north", "west", "east")
INWARD = {"south": 90.0, "north": 270.0, "west": 0.0, "east": 180.0}
OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}
SQUARE_TO = {"south": ("west", "east"), "north": ("west", "east"),
             "west": ("south", "north"), "east": ("south", "north")}
NONE = "none"
OFF_TABLE_PENALTY = 1.0e5


RIGGERS_AND_GANGERS = BriefRule(
    "Riggers and Gangers",
    "One player drives the War Rig and its escort; every other player is a Ganger on the same "
    "side.", refuelled(166))
"""The sides of every Savage Highways scenario (Refuelled p.166), for their briefs."""


NO_EDGE = "none"
"""The answer "no escape edge" (companion mode, ruling CP-8)."""


def memory(state: GameState) -> dict[str, Any]:
    out: dict[str, Any] = state.scenario.setdefault("savage", {
        "edges": {}, "escaped": False, "last_ganger": None,
    })
    return out


def riggers(state: GameState) -> int:
    return int(state.scenario.get("options", {}).get("riggers", 0))


def gangers(state: GameState) -> list[int]:
    r = riggers(state)
    return [p for p in range(state.players) if p != r]


def is_ganger(state: GameState, player: int) -> bool:
    return player != riggers(state)


def the_rig(state: GameState) -> VehicleState | None:
    """The Riggers' War Rig (the first of their vehicles of type War Rig)."""
    r = riggers(state)
    return next((v for v in state.vehicles.values()
                 if v.player == r and v.type == WAR_RIG and v.in_team), None)


# -- edges -------------------------------------------------------------------------------------
def edge_length(state: GameState, edge: str) -> float:
    return state.width if edge in ("south", "north") else state.height


def gap_to_edge(state: GameState, polys: Iterable[Sequence[Point]], edge: str) -> float:
    """How far the nearest point of ``polys`` is from ``edge`` (negative: past it)."""
    pts = [p for poly in polys for p in poly]
    if edge == "south":
        return min(y for _, y in pts)
    if edge == "north":
        return state.height - max(y for _, y in pts)
    if edge == "west":
        return min(x for x, _ in pts)
    return state.width - max(x for x, _ in pts)


def body_polys(v: VehicleState) -> list[list[Point]]:
    return [r.polygon() for _, r in v.bodies()]


def touches_edge(state: GameState, v: VehicleState, edge: str) -> bool:
    return gap_to_edge(state, body_polys(v), edge) <= TOUCH


def past_edge(state: GameState, polys: Iterable[Sequence[Point]], edge: str) -> bool:
    return gap_to_edge(state, polys, edge) < -EDGE_TOL


def bodies_at(v: VehicleState, pose: Pose) -> list[list[Point]]:
    cab = Rect(pose, v.length, v.width)
    out = [cab.polygon()]
    if v.trailer is not None:
        out.append(trailer_behind(cab, v.trailer.length, v.trailer.width, 0.0).polygon())
    return out


def edge_pose(state: GameState, v: VehicleState, edge: str, s: float) -> Pose:
    """``v`` square to ``edge`` at ``s`` mm along it, its rear on the edge, facing in."""
    d = v.length / 2.0 + (0.0 if v.trailer is None else v.trailer.length) + EDGE_TOL
    if edge == "south":
        return Pose(s, d, 90.0)
    if edge == "north":
        return Pose(s, state.height - d, 270.0)
    if edge == "west":
        return Pose(d, s, 0.0)
    return Pose(state.width - d, s, 180.0)


def label_pose(state: GameState, v: VehicleState, label: str) -> Pose | None:
    """The pose an ``edge:s`` option stands for (None for other labels)."""
    edge, _, s = str(label).partition(":")
    if edge not in INWARD:
        return None
    try:
        return edge_pose(state, v, edge, float(s))
    except ValueError:
        return None


def clear_at(state: GameState, v: VehicleState, polys: list[list[Point]],
             others: Iterable[VehicleState] | None = None) -> bool:
    """Wholly on the table, overlapping no terrain and touching no other vehicle."""
    if not all(-EDGE_TOL <= x <= state.width + EDGE_TOL and -EDGE_TOL <= y <= state.height
               + EDGE_TOL for poly in polys for x, y in poly):
        return False
    if any(penetration(p, ob.polygon()) > 1e-6 for p in polys for ob in state.obstacles.values()):
        return False
    vs = [o for o in state.in_play() if o.pose.x >= 0 and o.pose.y >= 0] if others is None \
        else list(others)
    return not any(penetration(p, q) >= -1e-6 for o in vs if o.id != v.id
                   for q in body_polys(o) for p in polys)


def edge_spots(game: Game, v: VehicleState, edges: Iterable[str], *,
               others: Iterable[VehicleState] | None = None,
               near: Sequence[Sequence[Point]] = (), near_reach: float = 0.0,
               far: Sequence[Sequence[Point]] = (), far_reach: float = 0.0,
               only: float | None = None) -> dict[str, Pose]:
    """Candidate spots ``edge:s`` touching any of ``edges`` (ruling SH-R1): clear; within
    ``near_reach`` of one of ``near`` (if given); more than ``far_reach`` from every ``far``;
    ``only``: just the spot at that distance along the edge (the middle of an edge)."""
    st = game.state
    others_l = None if others is None else list(others)
    out: dict[str, Pose] = {}
    half = v.width / 2.0
    for edge in edges:
        length = edge_length(st, edge)
        if only is not None:
            spots = [only]
        else:
            n = int((length - 2 * half) // EDGE_STEP)
            off = ((length - 2 * half) - n * EDGE_STEP) / 2.0
            spots = [half + off + i * EDGE_STEP for i in range(n + 1)]
        for s in spots:
            pose = edge_pose(st, v, edge, s)
            polys = bodies_at(v, pose)
            if not clear_at(st, v, polys, others_l):
                continue
            if near and min(distance(p, q) for p in polys for q in near) > near_reach + 1e-6:
                continue
            if far and min(distance(p, q) for p in polys for q in far) <= far_reach + 1e-6:
                continue
            out[f"{edge}:{s:.0f}"] = pose
    return out


def place(game: Game, v: VehicleState, pose: Pose, label: str, *, source: str,
          page: int | None) -> None:
    v.pose = pose
    if v.trailer is not None:
        v.trailer.hinge = 0.0
    deployed: list[str] = game.state.scenario.setdefault("deployed", [])
    if v.id not in deployed:
        deployed.append(v.id)
    game.emit("deploy", source=source, page=page, vehicle=v.id, player=v.player, slot=label,
              x=round(pose.x, 3), y=round(pose.y, 3), heading=round(pose.heading, 3))


def deployed_vehicles(state: GameState) -> list[VehicleState]:
    return [state.vehicles[i] for i in state.scenario.get("deployed", []) if i in
            state.vehicles]


def team_of(state: GameState, player: int) -> list[VehicleState]:
    return [v for v in state.vehicles.values() if v.player == player and v.in_team]


def ask_spot(game: Game, player: int, v: VehicleState, spots: dict[str, Pose], what: str, *,
             source: str, page: int | None) -> Flow:
    """Ask where ``v`` goes among ``spots`` (decision ``edge_pose``) and put it there."""
    if not spots:
        from carnage.games.refuelled.setup import SetupError

        raise SetupError(f"{game.scenario.name}: no room to deploy {v.name} "
                         f"(player {player + 1}) {what}")
    pick = yield ask(player, "edge_pose", f"Where does {v.name} deploy ({what})?",
                     [(k, f"{what}, {k.split(':')[1]} mm along the {k.split(':')[0]} edge"
                       if ":" in k else k) for k in spots], source=source, page=page,
                     vehicle=v.id)
    place(game, v, spots[str(pick)], str(pick), source=source, page=page)


def deploy_on_edge(game: Game, player: int, edges: Sequence[str], *, source: str,
                   page: int | None, skip: Iterable[str] = (),
                   far: Sequence[Sequence[Point]] = (), far_reach: float = 0.0
                   ) -> Generator[Decision, Any, str | None]:
    """A Ganger's deployment (SH-16, SH-21, SH-26, SH-31): their first vehicle touching any
    of ``edges``, the rest within Medium of it touching the same edge. Returns the edge."""
    st = game.state
    medium = float(game.templates.ranges["medium"])
    waiting = [v.id for v in team_of(st, player) if v.in_play and v.id not in skip]
    edge: str | None = None
    first: VehicleState | None = None
    while waiting:
        vid = waiting[0]
        if len(waiting) > 1:
            vid = str((yield ask(player, "deploy", "Choose a vehicle to deploy",
                                 [(i, st.vehicles[i].name) for i in waiting], source=source,
                                 page=page)))
        v = st.vehicles[vid]
        if first is None:
            spots = edge_spots(game, v, edges, others=deployed_vehicles(st), far=far,
                               far_reach=far_reach)
        else:
            assert edge is not None
            spots = edge_spots(game, v, [edge], others=deployed_vehicles(st),
                               near=body_polys(first), near_reach=medium, far=far,
                               far_reach=far_reach)
            if not spots:  # no room within Medium: anywhere on that edge (ruling SH-R1)
                spots = edge_spots(game, v, [edge], others=deployed_vehicles(st), far=far,
                                   far_reach=far_reach)
        what = "touching the edge" if first is None else "within Medium of the first, on the edge"
        yield from ask_spot(game, player, v, spots, what, source=source, page=page)
        if first is None:
            first = v
            edge = _edge_of(st, v)
        waiting.remove(vid)
    return edge


def _edge_of(state: GameState, v: VehicleState) -> str:
    """The edge a deployed vehicle touches (the nearest)."""
    return min(EDGES, key=lambda e: gap_to_edge(state, body_polys(v), e))


# -- the scenario base -------------------------------------------------------------------------
class SavageHighways(TableScenario):
    """A Savage Highways scenario: Riggers and Gangers, the War Rig and its upgrades."""

    width = SIDE
    height = SIDE
    min_players = 2
    max_players: int | None = None
    table = SAVAGE
    options_schema: ClassVar[dict[str, tuple[type, Any]]] = {
        "upgrades": (object, []), "riggers": (int, 0)}
    """``upgrades``: a list of upgrade ids, or one text of ids separated by commas (from
    ``--option upgrades=fuel_pod,selvaggio``); ``riggers``: the Riggers' seat."""
    end_checks = frozenset({"gear_phase_start"})
    setup_upgrades = 1
    """How many upgrades the set-up attaches when the ``upgrades`` option is empty."""
    gangers_choose_upgrade = False
    """Rescue (p.169): the Gangers choose it, among those never attached."""
    bot_gear = 3

    @property
    def source(self) -> str:
        return self.id.replace("-", "_")

    # -- teams -----------------------------------------------------------------------------
    def team_demand(self, seat: int, players: int,
                    options: Mapping[str, Any] | None = None) -> TeamDemand:
        """The Riggers field the prescribed road train (a War Rig and its escorts, p.166);
        each Ganger anything but a War Rig, within their share of the 120 Cans."""
        from carnage.catalog import load_catalog

        rig_seat = int((options or {}).get("riggers", 0))
        if seat == rig_seat:
            return TeamDemand(team=self.default_teams(players)[seat])
        return TeamDemand(types=frozenset(v.id for v in load_catalog().vehicles
                                          if v.id != WAR_RIG),
                          cans=GANGER_CANS // max(1, players - 1))

    def check_team(self, spec: TeamSpec, who: str, ruleset: RefuelledRuleset | None = None
                   ) -> TeamReport:
        """SH-02 and SH-03 (see the module docstring); ``SetupError`` naming the problem."""
        from carnage.games.refuelled.scenarios.composition import scenario_team

        rigs = [v for v in spec.vehicles if v.type == WAR_RIG]
        base = self._rig_base(ruleset)

        def lifted(rule: str, item: str | None) -> bool:
            return rule == "budget" and bool(rigs)

        def check(s: TeamSpec, report: TeamReport) -> Iterable[str]:
            if len(rigs) > 1:
                yield "the Riggers have one War Rig only (p.166)"
            if not rigs:
                return
            rig = rigs[0]
            if rig.perks:
                yield f"{rig.name}: the War Rig may have no perks (p.166)"
            cat = ruleset.catalog if ruleset is not None else None
            for u in rig.upgrades:
                if u.id == "nitro_booster":
                    yield f"{rig.name}: the War Rig may not have a Nitro Booster (p.166)"
                elif _electrical(u.id, cat):
                    yield f"{rig.name}: the War Rig may not have an electrical upgrade (p.166)"
            vr = [r for r in report.vehicles if r.name == rig.name]
            extras = (vr[0].cans - base) if vr else 0
            rest = sum(r.cans for r in report.vehicles if r.name != rig.name)
            if rest > REST_OF_TEAM:
                yield (f"the rest of the Riggers' team costs {rest} Cans, over the "
                       f"{REST_OF_TEAM} they receive (p.166)")
            if extras + rest > RIG_EXTRAS + REST_OF_TEAM:
                yield (f"the War Rig's fittings ({extras}) and the rest of the team ({rest}) "
                       f"cost more than {RIG_EXTRAS + REST_OF_TEAM} Cans (p.166)")

        return scenario_team(spec, who, ruleset, lifted=lifted, check=check,
                             scenario=self.name)

    def teams_checked(self, state: GameState, reports: Sequence[TeamReport]) -> None:
        """Keep each seat's team cost in the scenario's record, for the Gangers' share
        (checked as the game starts, ``_check_roles``)."""
        state.scenario["team_cans"] = [int(r.total_cans) for r in reports]

    @staticmethod
    def _rig_base(ruleset: RefuelledRuleset | None) -> int:
        from carnage.catalog import load_catalog

        cat = ruleset.catalog if ruleset is not None else load_catalog()
        return int(cat.vehicles.get(WAR_RIG).cost)

    def _check_roles(self, game: Game) -> None:
        """Cross-team checks (SH-02, SH-03, P-22): the Riggers' seat fields the War Rig, the
        Gangers none, and the Gangers' 120 Cans are shared equally."""
        from carnage.games.refuelled.setup import SetupError

        st = game.state
        r = riggers(st)
        if not 0 <= r < st.players:
            raise SetupError(f"{self.name}: the Riggers' seat {r + 1} is not one of the "
                             f"{st.players} players")
        for p in range(st.players):
            has_rig = any(v.type == WAR_RIG for v in team_of(st, p))
            if p == r and not has_rig:
                raise SetupError(f"{self.name}: the Riggers (player {p + 1}) need a War Rig "
                                 "(p.166)")
            if p != r and has_rig:
                raise SetupError(f"{self.name}: player {p + 1} is a Ganger and may not field "
                                 "a War Rig (p.166)")
        share = GANGER_CANS // max(1, st.players - 1)
        costs = st.scenario.get("team_cans") or []
        if len(costs) == st.players:
            for p, total in enumerate(costs):
                if p != r and total > share:
                    raise SetupError(f"{self.name}: player {p + 1}'s team costs {total} Cans, "
                                     f"over their share ({share}) of the Gangers' "
                                     f"{GANGER_CANS} (p.166)")
        sides = st.scenario.get("sides")
        if sides:
            want = sorted([sorted([r]), sorted(gangers(st))])
            if sorted(sorted(int(p) for p in s) for s in sides) != want:
                raise SetupError(f"{self.name}: the sides must be the Riggers (player {r + 1}) "
                                 "against all the Gangers (p.166)")

    def default_teams(self, players: int) -> tuple[TeamSpec, ...]:
        """The Riggers (seat 1): a War Rig and two escorts; each Ganger: a share of 120 Cans."""
        from carnage.team import parse_team

        teams = [parse_team({
            "name": "Road Train", "cans": 120,
            "vehicles": [
                {"name": "Big Rig", "type": "war_rig",
                 "weapons": [{"id": "heavy_machine_gun", "facing": "front"},
                             {"id": "machine_gun", "facing": "rear", "mount": "trailer"}],
                 "upgrades": ["armour_plating"]},
                {"name": "Outrider", "type": "car",
                 "weapons": [{"id": "heavy_machine_gun", "facing": "front"}],
                 "upgrades": ["armour_plating"]},
                {"name": "Scout", "type": "buggy",
                 "weapons": [{"id": "machine_gun", "facing": "front"}]},
            ]}, "riggers team")]
        share = GANGER_CANS // max(1, players - 1)
        for p in range(1, players):
            cars = [{"name": f"Raider {p}-{i + 1}", "type": "car",
                     "weapons": [{"id": "machine_gun", "facing": "front"}]}
                    for i in range(max(1, min(3, share // 20)))]
            teams.append(parse_team({"name": f"Gang {p}", "cans": share, "vehicles": cars},
                                    f"gangers team {p}"))
        return tuple(teams)

    # -- installing ------------------------------------------------------------------------
    def install(self, game: Game) -> None:
        from carnage.games.refuelled.engine.votes import install_team_game

        st = game.state
        self._check_roles(game)
        if st.players > 2 and not st.scenario.get("sides"):
            install_team_game(game, [[riggers(st)], gangers(st)])
        rig = the_rig(st)
        assert rig is not None
        wru.install(game, rig.id)
        eff = f"scenario:{self.id}"
        game.effects.on("off_table", eff, self._off_table)
        game.effects.on("after_move", eff, self._after_move)
        if game.facts.people:  # a real table: the people say when the rig reached an edge
            game.effects.add_flow(
                "table_edge", eff + ":escape",
                lambda ctx: self._escape_told if self._may_escape(ctx) else None)
            game.effects.add_flow(
                "table_motion", eff + ":escape",
                lambda ctx: self._escape_final_told if self._may_escape(ctx)
                and ctx.get("motion") == "move" else None)
        self.install_more(game, eff)

    def install_more(self, game: Game, eff: str) -> None:
        """A scenario's own effects."""

    # -- set-up ----------------------------------------------------------------------------
    def attach_upgrades(self, game: Game) -> Flow:
        """The ``upgrades`` option, or the set-up's choice (decision ``war_rig_upgrade``)."""
        from carnage.games.refuelled.setup import SetupError

        st = game.state
        given: Any = st.scenario.get("options", {}).get("upgrades") or []
        if isinstance(given, str):
            given = [u for u in given.split(",") if u.strip()]
        if not isinstance(given, list):
            raise SetupError("scenario option upgrades: a list of War Rig Upgrade ids, not "
                             f"{given!r}")
        try:
            ids = wru.check_upgrades(given, "scenario option upgrades")
        except wru.UpgradeError as e:
            raise SetupError(str(e)) from None
        for uid in ids:
            wru.attach(game, uid, why="attached at the start (scenario option)")
        if ids:
            return
        chooser = gangers(st)[0] if self.gangers_choose_upgrade else riggers(st)
        for _ in range(self.setup_upgrades):
            free = [u for u in wru.UPGRADES if not wru.has(game, u)]
            if not free:
                break
            pick = yield ask(chooser, "war_rig_upgrade",
                             "Which War Rig Upgrade goes on the Riggers' War Rig?",
                             [(u, f"{wru.UPGRADES[u].name}: {wru.UPGRADES[u].effect}; lost on "
                               f"{wru.UPGRADES[u].loses_it}") for u in free],
                             source=self.source, page=self.page)
            wru.attach(game, str(pick), by=chooser, why="chosen at set-up")

    def choose_pole(self, game: Game) -> Flow:
        """SH-13: a Ganger chosen by the Gangers (the lowest-seated Ganger chooses)."""
        st = game.state
        gs = gangers(st)
        pick = gs[0]
        if len(gs) > 1:
            pick = int((yield ask(gs[0], "pole_ganger",
                                  "Which Ganger starts with Pole Position?",
                                  [(p, f"player {p + 1}") for p in gs], source=self.source,
                                  page=self.page)))
        st.pole = pick
        memory(st)["last_ganger"] = pick
        game.emit("pole", source=self.source, page=self.page, player=pick,
                  reason="chosen by the Gangers")

    def end_of_gear_phase(self, game: Game) -> Flow | None:
        self.swap_pole(game)
        return None

    def swap_pole(self, game: Game) -> None:
        """SH-13 and ruling SH-R2: Pole swaps sides after each Gear Phase."""
        st = game.state
        r = riggers(st)
        mem = memory(st)
        gs = gangers(st)
        if st.pole == r:
            last = mem.get("last_ganger")
            to = gs[(gs.index(last) + 1) % len(gs)] if last in gs else gs[0]
        else:
            to = r
        if self.move_pole(game, to, "swaps sides", source=self.source, page=self.page) \
                and st.pole != r:
            mem["last_ganger"] = st.pole

    # -- escaping --------------------------------------------------------------------------
    def escape_edges(self, state: GameState) -> list[str]:
        """The edges the rig escapes by (none: no escape in this scenario)."""
        return []

    def _off_table(self, value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        result = ctx.get("result")
        rig = the_rig(game.state)
        if (value is not True or result is None or rig is None or v.id != rig.id
                or not v.in_contention):
            return None  # a wreck skidding off the table escapes nothing (SC-44)
        from carnage.geometry.surfaces import move_pieces

        pieces = move_pieces(result)
        edges = self.escape_edges(game.state)
        past = next((e for e in edges if past_edge(game.state, pieces, e)), None)
        if edges:  # as a real table is asked (ruling CP-8)
            game.facts.note("past_escape_edge", past or NO_EDGE)
        if past is not None:
            self.escape(game, v, past)
            return False
        return None

    def _after_move(self, value: Any, ctx: dict[str, Any]) -> None:
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        rig = the_rig(game.state)
        if game.facts.people or rig is None or v.id != rig.id or not v.in_contention:
            return  # at a real table the people said it before (``_escape_final_told``)
        edges = self.escape_edges(game.state)
        over = next((e for e in edges if touches_edge(game.state, v, e)), None)
        if edges:  # as a real table is asked (ruling CP-8)
            game.facts.note("final_on_escape_edge", over or NO_EDGE)
        if over is not None:
            self.escape(game, v, over)

    def _may_escape(self, ctx: dict[str, Any]) -> bool:
        """Whether the motion in ``ctx`` may take the rig off by an escape edge."""
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        rig = the_rig(game.state)
        return bool(self.escape_edges(game.state)) and rig is not None and v.id == rig.id \
            and v.in_contention

    def _escape_edge_asked(self, game: Game, v: VehicleState, kind: str, prompt: str
                           ) -> Generator[Decision, Any, str | None]:
        """The escape edge the people name for the rig (None: none of them)."""
        from carnage.games.refuelled.engine.table_facts import ask_pick

        edges = self.escape_edges(game.state)
        rig = the_rig(game.state)
        if not edges or rig is None or v.id != rig.id or not v.in_contention:
            return None
        pick = yield from ask_pick(
            game, v.player, kind, f"{v.name}: {prompt}",
            [(NO_EDGE, "none of them"), *((e, f"the {e} edge") for e in edges)],
            page=self.page, vehicle=v.id)
        return None if pick == NO_EDGE else pick

    def _escape_told(self, game: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, bool]:
        """At a real table (ruling CP-8): the rig's template went past the table's edge; past
        which escape edge, if any? Then it escapes."""
        v: VehicleState = ctx["vehicle"]
        edge = yield from self._escape_edge_asked(
            game, v, "past_escape_edge", "which escape edge did the template go past?")
        if edge is None:
            return False
        self.escape(game, v, edge)
        return True

    def _escape_final_told(self, game: Game, ctx: dict[str, Any]) -> Flow:
        """At a real table, after the rig's Movement Step (ruling CP-8): which escape edge
        does its Final Position touch, if any? Then it escapes."""
        v: VehicleState = ctx["vehicle"]
        if ctx.get("motion") != "move":
            return
        edge = yield from self._escape_edge_asked(
            game, v, "final_on_escape_edge", "which escape edge does its Final Position touch?")
        if edge is not None:
            self.escape(game, v, edge)

    def escape(self, game: Game, rig: VehicleState, edge: str) -> None:
        """The rig touched an escape edge: it escapes, the game ends, the Riggers win."""
        st = game.state
        rig.status = Status.EXITED
        memory(st)["escaped"] = True
        game.emit("escaped", source=self.source, page=self.page, vehicle=rig.id, edge=edge)
        game.finish(riggers(st), f"the War Rig escaped by the {edge} edge")

    def gangers_win(self, game: Game, why: str) -> None:
        game.finish(gangers(game.state)[0], why)

    def rig_lost(self, game: Game) -> str | None:
        """Why the rig is out of the game (disqualified, Wrecked, removed), or None."""
        rig = the_rig(game.state)
        if rig is None or rig.in_play or rig.status is Status.EXITED:
            return None
        return {Status.DISQUALIFIED: "disqualified", Status.WRECKED: "Wrecked",
                Status.REMOVED: "Wrecked and removed"}.get(rig.status, str(rig.status))

    def check_end(self, game: Game) -> None:
        """A Gear Phase begins with the rig disqualified or Wrecked: the Gangers win (SH-23,
        SH-28, SH-35)."""
        lost = self.rig_lost(game)
        if lost is not None:
            self.gangers_win(game, f"a Gear Phase began with the War Rig {lost}")

    # -- respawns --------------------------------------------------------------------------
    def respawn_edges(self, state: GameState, vehicle: VehicleState) -> list[str]:
        edges = memory(state)["edges"]
        key = "riggers" if vehicle.player == riggers(state) else f"p{vehicle.player}"
        return list(edges.get(key, edges.get("gangers", [])))

    def respawn_positions(self, game: Game, vehicle: VehicleState) -> dict[str, Pose]:
        """Touching one's own table edge (SH-16, SH-21, SH-26, SH-31)."""
        return edge_spots(game, vehicle, self.respawn_edges(game.state, vehicle))

    # -- bots ------------------------------------------------------------------------------
    def goal(self, state: GameState, vehicle: VehicleState) -> Line | None:
        """The rig: the nearest edge it may escape by. A Ganger: the rig itself once near it
        (ram it, box it in), else a point ahead of it on its way (block its road)."""
        rig = the_rig(state)
        if rig is None or rig.pose.x < 0 or rig.pose.y < 0:
            return None
        if vehicle.id != rig.id:
            return self.ganger_goal(state, vehicle, rig) if is_ganger(state, vehicle.player) \
                else None
        edges = self.escape_edges(state)
        if not edges:
            return None
        edge = min(edges, key=lambda e: gap_to_edge(state, body_polys(rig), e))
        return edge_line(state, edge)

    @staticmethod
    def ganger_goal(state: GameState, vehicle: VehicleState, rig: VehicleState) -> Line:
        """Where a Ganger's bot heads: the rig when within ``RAM_RANGE`` of it, else
        ``CUT_OFF`` ahead of its cab (kept on the table)."""
        if math.dist((vehicle.pose.x, vehicle.pose.y), (rig.pose.x, rig.pose.y)) <= RAM_RANGE:
            return point_goal(vehicle, (rig.pose.x, rig.pose.y))
        h = math.radians(rig.pose.heading)
        x = rig.pose.x + (rig.length / 2.0 + CUT_OFF) * math.cos(h)
        y = rig.pose.y + (rig.length / 2.0 + CUT_OFF) * math.sin(h)
        m = EDGE_MARGIN
        return point_goal(vehicle, (min(max(x, m), state.width - m),
                                     min(max(y, m), state.height - m)))

    def goal_targets(self, state: GameState, vehicle: VehicleState) -> frozenset[str]:
        rig = the_rig(state)
        if rig is None or not is_ganger(state, vehicle.player):
            return frozenset()
        return frozenset({rig.id, f"{rig.id}/trailer"})

    has_move_penalty = True

    def move_penalty(self, game: Game, vehicle: VehicleState, pose: Pose) -> float:
        """Bots: an articulated vehicle ending where cab or trailer would hang off the table
        by an edge it may not leave by, or reversing (the trailer leads then): the bot's own
        look-ahead sees only the cab."""
        if vehicle.trailer is None:
            return 0.0
        st = game.state
        h = math.radians(vehicle.pose.heading)
        if ((pose.x - vehicle.pose.x) * math.cos(h) + (pose.y - vehicle.pose.y) * math.sin(h)
                < -1.0) and not stuck(game, vehicle):
            # A reverse: the trailer leads, which the bot's look-ahead does not follow.
            return OFF_TABLE_PENALTY
        polys = [*bodies_at(vehicle, pose),
                 Rect(pose, vehicle.trailer.length, vehicle.trailer.width).polygon()]
        ok = set(self.escape_edges(st)) | set(self.leave_edges(st))
        if any(past_edge(st, polys, e) for e in EDGES if e not in ok):
            return OFF_TABLE_PENALTY
        return 0.0

    def leave_edges(self, state: GameState) -> list[str]:
        """Edges besides the escape edges a vehicle may leave by (the rolling road's exit)."""
        return []

    def option_poses(self, game: Game, decision: Decision) -> dict[str, Pose]:
        v = game.state.vehicles.get(decision.vehicle or "")
        if v is None or decision.kind not in ("edge_pose", "respawn_position"):
            return {}
        out = {}
        for o in decision.options:
            p = label_pose(game.state, v, str(o.value))
            if p is not None:
                out[str(o.value)] = p
        return out

    def bot_choice(self, game: Game, decision: Decision) -> Any:
        st = game.state
        values = [o.value for o in decision.options]
        pick = wru.bot_choice(game, decision)
        if pick is not None:
            return pick
        if decision.kind == "war_rig_upgrade":
            order = (wru.GANGER_PREFERENCE if is_ganger(st, decision.player)
                     else wru.RIGGER_PREFERENCE)
            return min(values, key=lambda v: order.index(str(v)))
        if decision.kind == "pole_ganger":
            return values[0]
        if decision.kind == "template":
            return forward_only(game, decision)
        if decision.kind in ("edge_pose", "respawn_position") and values:
            return self.bot_spot(game, decision)
        return super().bot_choice(game, decision)

    def bot_spot(self, game: Game, decision: Decision) -> Any:
        """Bots deploy near the middle of their edge (the rig: straight across from its
        goal; Gangers: nearest the rig)."""
        st = game.state
        v = st.vehicles.get(decision.vehicle or "")
        rig = the_rig(st)
        values = [str(o.value) for o in decision.options]
        if v is None:
            return None
        poses: dict[str, Pose] = {}
        for k in values:
            p = label_pose(st, v, k)
            if p is not None:
                poses[k] = p
        known = sorted(poses)
        if not known:
            return None
        if rig is not None and is_ganger(st, v.player) and rig.pose.x >= 0:
            return min(known, key=lambda k: (math.dist((poses[k].x, poses[k].y),
                                                       (rig.pose.x, rig.pose.y)), k))
        return min(known, key=lambda k: (abs(float(k.split(":")[1])
                                              - edge_length(st, k.split(":")[0]) / 2.0), k))

    # -- what the table shows ----------------------------------------------------------------
    def drawables(self, game: Game) -> list[Drawable]:
        st = game.state
        out = []
        labels = {"riggers": "Riggers' edge", "gangers": "Gangers' edge"}
        for key, edges in sorted(memory(st)["edges"].items()):
            for e in edges:
                name = labels.get(key, f"P{int(key[1:]) + 1} edge" if key.startswith("p")
                                  else key)
                out.append(edge_line(st, e).drawable(f"{key}-{e}", name.upper(), "start"))
        for e in self.escape_edges(st):
            out.append(edge_line(st, e).drawable(f"escape-{e}", "ESCAPE", "finish"))
        return out

    def report(self, game: Game) -> list[ReportRow]:
        st = game.state
        rig = the_rig(st)
        ups = wru.attached(game)
        rows = [ReportRow("rig_upgrades", "War Rig Upgrades", len(ups),
                          ", ".join(wru.UPGRADES[u].name for u in ups) or "none"),
                ReportRow("rig_hull", "War Rig Hull Points",
                          None if rig is None else rig.hull_points,
                          "-" if rig is None else f"{rig.hull_points} of {rig.hull}")]
        lost = [r["upgrade"] for r in wru.memory(game)["removed"]]
        rows.append(ReportRow("rig_upgrades_lost", "Upgrades lost this game", len(lost),
                              ", ".join(wru.UPGRADES[u].name for u in lost) or "none"))
        return rows


RAM_RANGE = 250.0
"""A Ganger's bot this near the rig (mm, centre to centre) drives at it."""
CUT_OFF = 150.0
"""Farther off, it heads for this far (mm) ahead of the rig's cab, across its road."""
EDGE_MARGIN = 50.0


def forward_only(game: Game, decision: Decision) -> Among | None:
    """Bots never reverse an articulated vehicle: the trailer leads then, which the heuristic
    bot's look-ahead does not follow (it judges the cab alone). They choose among the forward
    templates as usual, unless every one leaves the table; once stuck, they back out if they
    may, else try the templates not just tried. None for any other vehicle."""
    v = game.state.vehicles.get(decision.vehicle or "")
    if v is None or v.trailer is None:
        return None
    if stuck(game, v):
        tried = stuck_templates(game, v)
        back = tuple(o for o in decision.options if "reverse" in str(o.value))
        fresh = back or tuple(o for o in decision.options if str(o.value) not in tried)
        return Among(fresh) if fresh else None
    forward = tuple(o for o in decision.options if "reverse" not in str(o.value))
    if not forward or len(forward) == len(decision.options):
        return None
    return Among(forward, unless_off_table=True)


STUCK_MOVES = 2


def stuck(game: Game, v: VehicleState) -> bool:
    """Did ``v``'s last ``STUCK_MOVES`` moves end where they began, touching nothing (an
    articulated vehicle whose trailer found no room backs up to its start)?"""
    seen: list[dict[str, Any]] = []
    for e in reversed(game.log.events):
        if e.kind == "move" and e.data.get("vehicle") == v.id:
            seen.append(e.data)
            if len(seen) == STUCK_MOVES:
                break
        elif e.kind == "respawn" and e.data.get("vehicle") == v.id:
            break
    here = (round(v.pose.x, 3), round(v.pose.y, 3), round(v.pose.heading, 3))
    return len(seen) == STUCK_MOVES and all(
        m.get("interrupted") and not m.get("touched")
        and (m.get("x"), m.get("y"), m.get("heading")) == here for m in seen)


def stuck_templates(game: Game, v: VehicleState) -> set[str]:
    """Template options (``name[/left][/reverse]``) ``v`` used in its moves since it last
    went anywhere."""
    out: set[str] = set()
    here = (round(v.pose.x, 3), round(v.pose.y, 3), round(v.pose.heading, 3))
    moved_since = False
    for e in reversed(game.log.events):
        if e.data.get("vehicle") != v.id:
            continue
        if e.kind == "move":
            moved_since = (e.data.get("x"), e.data.get("y"), e.data.get("heading")) != here
            if moved_since:
                break
        elif e.kind == "template" and not moved_since:
            out.add(str(e.data["template"]) + ("/left" if e.data.get("mirror") else "")
                    + ("/reverse" if e.data.get("reverse") else ""))
    return out


def edge_line(state: GameState, edge: str) -> Line:
    w, h = state.width, state.height
    return {"south": Line((0.0, 0.0), (w, 0.0), (0.0, -1.0)),
            "north": Line((0.0, h), (w, h), (0.0, 1.0)),
            "west": Line((0.0, 0.0), (0.0, h), (-1.0, 0.0)),
            "east": Line((w, 0.0), (w, h), (1.0, 0.0))}[edge]


def _electrical(uid: str, catalog: Any) -> bool:
    from carnage.catalog import load_catalog

    cat = catalog if catalog is not None else load_catalog()
    try:
        return bool(cat.upgrades.get(uid).electrical)
    except (KeyError, ValueError):
        return False


def obstacle_spots(state: GameState, length: float, width: float, *, step: float,
                   headings: Sequence[float], keep_clear: Sequence[Sequence[Point]] = (),
                   keep_reach: float = 0.0, placed: Sequence[Obstacle] = ()
                   ) -> dict[str, Pose]:
    """Where a ``length`` x ``width`` piece may go: grid points ``step`` apart, in each of
    ``headings``, wholly on the table, more than ``keep_reach`` from all of ``keep_clear``,
    overlapping no terrain, no surface piece placed and no vehicle in play."""
    out: dict[str, Pose] = {}
    vehicles = [q for v in state.in_play() if v.pose.x >= 0 for q in body_polys(v)]
    terrain = [o.polygon() for o in state.obstacles.values()] + [o.polygon() for o in placed]
    nx, ny = int(state.width // step), int(state.height // step)
    for h in headings:
        for i in range(1, nx + 1):
            for j in range(1, ny + 1):
                pose = Pose(i * step - step / 2.0, j * step - step / 2.0, float(h))
                poly = Rect(pose, length, width).polygon()
                if not all(0.0 <= x <= state.width and 0.0 <= y <= state.height
                           for x, y in poly):
                    continue
                if keep_clear and min(distance(poly, q) for q in keep_clear) <= keep_reach:
                    continue
                if any(penetration(poly, q) >= -1e-6 for q in terrain + vehicles):
                    continue
                out[f"{pose.x:.0f},{pose.y:.0f},{h:.0f}"] = pose
    return out
