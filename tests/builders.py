"""Builders for rules tests: exact tables and vehicles, single steps or activations run as the
whole game through the real flow with scripted dice, a driver that answers decisions, and
readers of the log."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from carnage.ai import bot_rng
from carnage.catalog import Weight, load_catalog
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.engine.attack import attack_step
from carnage.games.refuelled.engine.collision import resolve_collisions
from carnage.games.refuelled.engine.flow import activation
from carnage.games.refuelled.engine.game import Flow, Game, RuleOptions
from carnage.games.refuelled.engine.movement import movement_step
from carnage.games.refuelled.engine.scenario import Scenario
from carnage.games.refuelled.engine.state import (
    GameState,
    Obstacle,
    Ramp,
    UpgradeMount,
    VehicleState,
    WeaponMount,
)
from carnage.games.refuelled.engine.wipeout import wipeout_step
from carnage.games.refuelled.scenarios import StreetRace
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.geometry import footprint
from carnage.geometry.shapes import Pose
from carnage.kernel.decisions import Decision
from carnage.kernel.dice import ScriptedDice, SeededDice
from carnage.kernel.effects import run_flows
from carnage.rulesets import REFUELLED, Ruleset

Step = Callable[[Game], Flow]

HAZ, SPIN, SLIDE, SHIFT = 1, 2, 3, 4
"""Skid faces on a D6 (ruling R-1): 1 Hazard, 2 Spin, 3 Slide, 4-6 Shift."""


# -- vehicles ---------------------------------------------------------------------------------
def vehicle(
    vid: str,
    vtype: str,
    x: float,
    y: float,
    heading: float = 90.0,
    *,
    player: int = 0,
    gear: int = 1,
    hazards: int = 0,
    weapons: Iterable[tuple[str, str | None]] = (),
) -> VehicleState:
    """A vehicle of catalogue type ``vtype`` at an exact pose, with its printed stats."""
    spec = load_catalog().vehicles.get(vtype)
    length, width = footprint(spec.id)
    return VehicleState(
        id=vid, name=vid, player=player, type=spec.id, weight=spec.weight, hull=spec.hull,
        handling=spec.handling, max_gear=spec.max_gear, crew=spec.crew, length=length,
        width=width, pose=Pose(x, y, heading), gear=gear, hazards=hazards,
        weapons=[WeaponMount(f"{w}#{i}", w, f) for i, (w, f) in enumerate(weapons)],
    )


def armed(v: VehicleState, *mounts: tuple[str, str | None, int | None]) -> VehicleState:
    """Replace ``v``'s weapons with (weapon, facing, ammo) mounts keyed ``weapon#i``."""
    v.weapons = [WeaponMount(f"{w}#{i}", w, f, ammo) for i, (w, f, ammo) in enumerate(mounts)]
    return v


def fit(v: VehicleState, uid: str, facing: str | None = None, ammo: int | None = None
        ) -> VehicleState:
    """Fit upgrade (or trailer, cargo) ``uid`` to ``v``, keyed ``uid#i``."""
    v.upgrades.append(uid)
    v.fitted.append(UpgradeMount(f"{uid}#{len(v.fitted)}", uid, facing, ammo))
    return v


def perked(v: VehicleState, *perks: str) -> VehicleState:
    v.perks.extend(perks)
    return v


def wound(v: VehicleState, hull_left: int) -> VehicleState:
    v.damage = v.hull - hull_left
    return v


BLUE = (300.0, 300.0, 90.0)
"""Blue's pose in the shooting tests: a car facing up the table (as in the example of play,
Refuelled p.58)."""
RED = (320.0, 450.0, 270.0)
"""Red's pose: a car facing Blue, 90 mm beyond Blue's front edge (Medium range)."""


def blue_with(*mounts: tuple[str, str | None, int | None], vtype: str = "car",
              gear: int = 1) -> VehicleState:
    """Blue (player 0) at ``BLUE`` armed with (weapon, facing, ammo) ``mounts``."""
    return armed(vehicle("blue", vtype, *BLUE, player=0, gear=gear), *mounts)


def red(**kw: Any) -> VehicleState:
    """Red (player 1), a car at ``RED`` facing Blue."""
    return vehicle("red", "car", *RED, player=1, **kw)


# -- terrain and tables -----------------------------------------------------------------------
def rock(oid: str, x: float, y: float, length: float = 40, width: float = 40,
         heading: float = 0.0, **kw: Any) -> Obstacle:
    return Obstacle(oid, Pose(x, y, heading), length, width, kw.pop("weight", Weight.HEAVYWEIGHT),
                    **kw)


def ramp(rid: str, x: float, y: float, heading: float = 90.0, length: float = 100.0,
         width: float = 60.0) -> Ramp:
    return Ramp(rid, Pose(x, y, heading), length, width)


def table(*vehicles: VehicleState, obstacles: Iterable[Obstacle] = (), players: int = 2,
          width: float = 1200, height: float = 1200) -> GameState:
    st = GameState(width=width, height=height, players=players)
    for v in vehicles:
        st.vehicles[v.id] = v
    for o in obstacles:
        st.obstacles[o.id] = o
    return st


def example_of_play_table() -> GameState:
    """Refuelled pp.58-60 just before Red's first move: Blue (player 0, gear 2, 1 Hazard from
    its change up) faces south, its front-right corner 5 mm into the path of Red (player 1,
    gear 1, 1 damage from Blue's handgun), which faces north 80 mm further south."""
    blue = vehicle("blue", "car", 625, 470, heading=270, player=0, gear=2, hazards=1)
    red = vehicle("red", "car", 600, 300, heading=90, player=1, gear=1)
    red.damage = 1
    return table(blue, red)


class PlacedRace(StreetRace):
    """Street Race with the roll-off as usual but vehicles already placed (no deployment)."""

    def setup(self, game: Game) -> Flow:
        game.state.pole = self.roll_off(game)
        self.see_all(game.state)
        yield from ()


def race(*placed: VehicleState, dice: list[int] | None = None, seed: int = 0,
         max_rounds: int = 40) -> Game:
    """A Street Race table with ``placed`` vehicles; scripted ``dice`` or seeded dice."""
    sc = PlacedRace()
    st = GameState(sc.width, sc.height, 2)
    sc.lay_out(st)
    for v in placed:
        st.vehicles[v.id] = v
    source = ScriptedDice(dice) if dice is not None else SeededDice(seed)
    return Game(ruleset=REFUELLED, state=st, scenario=sc, dice=source,
                options=RuleOptions(max_rounds=max_rounds))


# -- one step as the whole game ---------------------------------------------------------------
class StepScenario(Scenario):
    """Runs one step (any flow) as the whole game, then ends it: for testing a step alone."""

    id = "step"

    def __init__(self, step: Step) -> None:
        self.step = step

    def setup(self, game: Game) -> Flow:
        yield from self.step(game)
        game.finish(None, "step done", draw=True)


def run_step(state: GameState, step: Step, dice: Iterable[int] = (),
             options: RuleOptions | None = None, ruleset: Ruleset = REFUELLED) -> Game:
    """A game on ``state`` whose only flow is ``step``, rolling the scripted ``dice``, in
    ``ruleset`` (a test's own variant, or Refuelled)."""
    return Game(ruleset=ruleset, state=state, scenario=StepScenario(step),
                dice=ScriptedDice(list(dice)), options=options or RuleOptions())


def noop(g: Game) -> Flow:
    """A step that does nothing (the rules are installed, the game ends)."""
    yield from ()


def on(vid: str, fn: Callable[[Game, VehicleState], Flow]) -> Step:
    """A step running ``fn`` on vehicle ``vid``."""

    def step(g: Game) -> Flow:
        yield from fn(g, g.state.vehicles[vid])

    return step


def activate(*vids: str) -> Step:
    """A step: the whole activation of each of ``vids`` in turn (flow hooks, three steps), in
    gear phase 1 unless one is set."""

    def step(g: Game) -> Flow:
        g.state.gear_phase = g.state.gear_phase or 1
        for vid in vids:
            yield from activation(g, g.state.vehicles[vid])

    return step


def move(vid: str) -> Step:
    """A step: ``vid``'s Movement Step alone."""

    def step(g: Game) -> Flow:
        g.state.active = vid
        g.state.step = "movement"
        yield from movement_step(g, g.state.vehicles[vid])

    return step


def move_with_hooks(vid: str) -> Step:
    """A step: ``vid``'s Movement Step with the flow hooks around it (as in an activation)."""

    def step(g: Game) -> Flow:
        v = g.state.vehicles[vid]
        g.state.active = vid
        ctx = {"game": g, "vehicle": v}
        yield from run_flows(g, "movement_start", ctx)
        yield from movement_step(g, v)
        if v.in_play:
            yield from run_flows(g, "movement_end", ctx)

    return step


def move_and_wipeout(vid: str) -> Step:
    """A step: ``vid``'s Movement Step then its Wipeout Step (no Attack Step)."""

    def step(g: Game) -> Flow:
        v = g.state.vehicles[vid]
        g.state.active = vid
        yield from movement_step(g, v)
        if v.in_play and not g.state.finished:
            yield from wipeout_step(g, v)

    return step


def attack(vid: str) -> Step:
    """A step: ``vid``'s Attack Step alone."""

    def step(g: Game) -> Flow:
        g.state.active = vid
        g.state.step = "attack"
        yield from attack_step(g, g.state.vehicles[vid])

    return step


def attack_game(state: GameState, vid: str, dice: Iterable[int] = (),
                ruleset: Ruleset = REFUELLED) -> Game:
    """A game whose only step is ``vid``'s Attack Step."""

    def step(g: Game) -> Flow:
        yield from attack_step(g, g.state.vehicles[vid])

    return run_step(state, step, dice, ruleset=ruleset)


def wipeouts(active: str) -> Step:
    """A step: ``active``'s Wipeout Step."""

    def step(g: Game) -> Flow:
        yield from wipeout_step(g, g.state.vehicles[active])

    return step


def collide(vid: str, *ids: str, active: str | None = None) -> Step:
    """A step: the collision window of ``vid`` with ``ids`` (``active``, if given, is made the
    active vehicle first)."""

    def step(g: Game) -> Flow:
        if active is not None:
            g.state.active = active
        yield from resolve_collisions(g, g.state.vehicles[vid], list(ids))

    return step


# -- answering decisions ----------------------------------------------------------------------
def play(g: Game, *choices: Any) -> list[Decision]:
    """Apply ``choices`` in order; returns the decisions they answered."""
    seen = []
    for c in choices:
        d = g.pending()
        assert d is not None, f"no decision pending for choice {c!r}"
        seen.append(d)
        g.apply(c)
    return seen


def values(d: Decision | None) -> list[Any]:
    assert d is not None
    return [o.value for o in d.options]


DEFAULTS: dict[str, Any] = {
    "skid_dice": 0, "push_it": "no", "spend_shift": "done", "attack": "stop",
}
"""Answers ``drive`` gives when a test names none for that kind of decision."""


def drive(g: Game, **answers: Any) -> Decision | None:
    """Answer pending decisions by kind: a list is consumed in order, anything else is given
    every time; kinds not named get ``DEFAULTS``. Stops at a decision it has no answer for
    (returned) or when the game is over (None)."""
    queues = {k: list(v) if isinstance(v, list) else v for k, v in answers.items()}
    while (d := g.pending()) is not None:
        if d.kind in queues:
            q = queues[d.kind]
            if isinstance(q, list):
                if not q:
                    return d
                g.apply(q.pop(0))
            else:
                g.apply(q)
        elif d.kind in DEFAULTS:
            g.apply(DEFAULTS[d.kind])
        else:
            return d
    return None


# -- reading the log --------------------------------------------------------------------------
def ev(g: Game, kind: str, **match: Any) -> list[dict[str, Any]]:
    """The data of every ``kind`` event whose fields include ``match`` (``source`` matches the
    event's rule id)."""
    return [
        dict(e.data)
        for e in g.log.of_kind(kind)
        if all((e.source if k == "source" else e.data.get(k)) == v for k, v in match.items())
    ]


def logged(g: Game, *wanted: str) -> list[tuple[str, dict[str, Any]]]:
    """(kind, data) of the logged events of the given kinds, in order."""
    return [(e.kind, dict(e.data)) for e in g.log if e.kind in wanted]


def kinds(g: Game) -> list[str]:
    """The kind of every logged event, in order."""
    return [e.kind for e in g.log]


def rolls(g: Game) -> list[tuple[str, list[int]]]:
    """(why, dice) of every roll, in order."""
    return [(str(e.data["why"]), [int(str(d)) for d in cast(list[Any], e.data["dice"])])
            for e in g.log.of_kind("roll")]


def heuristic_race(seed: int) -> tuple[Game, list[HeuristicBot]]:
    """The default Street Race of ``seed`` played to its end by two heuristic bots (lazy
    checkpoints, as tourneys play), with the bots that played it."""
    g = build_game(GameSetup(), seed)
    g.lazy_checkpoints = True
    players, rng = [HeuristicBot(), HeuristicBot()], bot_rng(seed)
    while (d := g.pending()) is not None:
        g.apply(players[d.player].choose(g, d, rng))
    assert g.outcome() is not None
    return g, players
