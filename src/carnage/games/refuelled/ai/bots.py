"""Bots: controllers that answer the engine's decisions.

A bot implements ``choose(game, decision, rng) -> choice``: it may read the game (never change
it) and must return a legal choice for ``decision``. ``RandomBot`` picks uniformly among the
legal options (or uniformly within a continuous domain). ``HeuristicBot`` looks one activation
ahead: it lays every legal template with the engine's own geometry, avoids leaving the table,
collisions it does not want and certain wipeouts, and heads for the scenario's goal along a
distance field that goes round the terrain; it rolls the skid dice it can afford, spends Shifts
on cancelling results and gearing up, shoots whatever it can, smashes when heavier or faster and
evades otherwise, and points an opponent's spinning car at the nearest obstruction.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Final, Protocol, cast

from carnage.catalog import TemplateUse
from carnage.games.refuelled.ai.arsenal import HANDLERS as ARSENAL_HANDLERS
from carnage.games.refuelled.ai.dropped import HANDLERS as DROPPED_HANDLERS
from carnage.games.refuelled.ai.dropped import drop_pick
from carnage.games.refuelled.ai.field import FAR, DistanceField, distance_field
from carnage.games.refuelled.ai.perks import HANDLERS as PERK_HANDLERS
from carnage.games.refuelled.ai.upgrades import UPGRADE_HANDLERS
from carnage.games.refuelled.ai.wear import HANDLERS as WEAR_HANDLERS
from carnage.games.refuelled.engine.bot_facing import Among, Choice, Line, crosses
from carnage.games.refuelled.engine.movement import (
    obstructions_for,
    parse_template_value,
    template_use,
)
from carnage.games.refuelled.engine.state import WEIGHT_CLASS, GameState, VehicleState
from carnage.games.refuelled.engine.table_facts import MORE, fact_name, is_table_question
from carnage.geometry.collision import Obstruction
from carnage.geometry.movement import (
    MoveResult,
    SlideSide,
    TemplatePath,
    clear_of,
    final_pose,
    resolve_move,
    unobstructed_motion,
)
from carnage.geometry.shapes import Point, Pose, Rect, penetration
from carnage.geometry.surfaces import move_pieces, template_pieces
from carnage.geometry.sweep import Motion
from carnage.geometry.table import EDGE_TOL, Table, off_table
from carnage.kernel.decisions import Decision, IllegalChoice
from carnage.kernel.table_dice import TableDiceGame

_D2R: Final = math.pi / 180.0
"""``math.radians(x)`` is ``x * _D2R`` bit for bit (CPython multiplies by the same constant);
compiled, the product costs no call."""
_hypot: Final = math.hypot
"""Read once: compiled, each call of ``math.hypot`` would look the name up."""

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

_HAZARDOUS: Final = TemplateUse.HAZARDOUS
_NOT_PERMITTED: Final = TemplateUse.NOT_PERMITTED
_PERMITTED: Final = TemplateUse.PERMITTED
_TRIVIAL: Final = TemplateUse.TRIVIAL
"""Read once (a compiled read of an enum's member through its class is a slow look-up)."""

PASSIVE = frozenset({"pass", "none", "no", "done", "stop", "skip", "hold", "decline"})
"""Option values that mean "do nothing": bots that want to act avoid them."""


class Bot(Protocol):
    name: str

    def choose(self, game: Game, decision: Decision, rng: random.Random) -> Choice:
        """A legal choice for ``decision`` (the game is read, never changed)."""
        ...


class RandomBot:
    """Uniform over the legal options; uniform over a continuous domain."""

    name = "random"

    def choose(self, game: object, decision: Decision, rng: random.Random) -> Choice:
        """Any ruleset's game (Devil's Run's too: it reads only the decision)."""
        if decision.domain is not None:
            return rng.uniform(decision.domain.low, decision.domain.high)
        return rng.choice(decision.options).value


def read_game(game: object) -> Game:
    """The Refuelled-family game a bot reads. A game whose dice are entered at the table
    (``TableDiceGame``) is read through the game it wraps: a bot only reads, and the decision
    it answers is the wrapped game's (an entry of dice is answered elsewhere). The game
    classes are compiled, so a wrapper handed on as a ``Game`` would be refused."""
    if isinstance(game, TableDiceGame):
        return cast("Game", game.game)
    return cast("Game", game)


def scenario_advice(game: Game, decision: Decision) -> Choice | Among | None:
    """The scenario's own advice on ``decision`` (``BotFacing.bot_choice``): an option value,
    ``Among`` some options, or None."""
    pick = game.scenario.bot_choice(game, decision)
    # a tuple of classes, not ``str | int | ...``: compiled, the union is built anew on
    # every call (the same test)
    return pick if isinstance(pick, (str, int, float, Among)) else None


def table_answer(game: Game, decision: Decision) -> Choice:
    """A heuristic bot's answer to a table question in companion mode (it cannot see the
    real table): the book's default, the first option (nothing touched, still on the table,
    no cover ...), except that it says a rival vehicle is in reach of a weapon, the first
    one offered, so that its games still fight."""
    if fact_name(decision) == "in_reach" and not decision.kind.endswith(MORE):
        me = game.state.vehicles.get(decision.vehicle or "")
        for o in decision.options:
            target = game.state.vehicles.get(str(o.value).partition("@")[0])
            if me is not None and target is not None and target.player != me.player:
                return o.value
    return decision.options[0].value


def fallback(decision: Decision) -> Choice:
    """A legal choice that acts where it can: the first option that is not a pass, else the
    first option; the middle of a domain."""
    if decision.domain is not None:
        return (decision.domain.low + decision.domain.high) / 2.0
    for o in decision.options:
        if str(o.value) not in PASSIVE:
            return o.value
    return decision.options[0].value


# -- scoring moves ---------------------------------------------------------------------------
CROSSING_BONUS: Final = 1.0e5
OFF_TABLE: Final = -1.0e6
WIPEOUT: Final = -2000.0
"""A move that guarantees 6+ hazards."""
HAZARD: Final = -15.0
"""Per hazard held after the move."""
HIT_OBSTACLE: Final = -300.0
HIT_FRIEND: Final = -400.0
HIT_ENEMY: Final = -250.0
"""Ramming an enemy the bot is not heavier or faster than."""
INTERRUPTED: Final = -100.0
LOOK_AHEAD: Final = 40.0
"""The field is read this far (mm) in front of the vehicle's nose."""
SAFE_HAZARDS: Final = 5
"""Hazards a vehicle may end on without wiping out."""
MOVE_REACH: Final = 300.0
"""A bound on any template's length (mm), for templates the bot does not know."""
SLIDE_REACH: Final = 120.0
"""A slide carries the centre at most this much further (Slide template and a body width)."""
SAMPLES: Final = 12
"""Poses sampled along a move the bot judges (the engine samples more finely)."""
EDGE_SLACK: Final = 60.0
EDGE_ROOM: Final = 150.0
"""Run (mm) ahead of its nose a vehicle wants before the table edge; less is penalised."""
EDGE_FACING: Final = 2.0
"""Score lost per mm of that run missing."""
"""Template pieces stay within this of the centres swept (see ``_may_leave_table``)."""
SAMPLE_GAP: Final = 25.0
"""Slack (mm) for the gaps between the poses sampled along a move."""


def _ahead(pose: Pose, length: float, extra: float = LOOK_AHEAD) -> Point:
    r = pose.heading * _D2R
    d = length / 2.0 + extra
    return (pose.x + d * math.cos(r), pose.y + d * math.sin(r))


def _last_event_data(game: Game, kind: str, vehicle: str) -> dict[str, object] | None:
    for e in reversed(game.log.events):
        if e.kind == kind and e.data.get("vehicle") == vehicle:
            return dict(e.data)
    return None


def _decline(game: Game, d: Decision, rng: random.Random) -> Choice | None:
    """Say no (a module-level function, not a lambda, so that a bot deep-copies compiled)."""
    return "no"


_OWN_KINDS: Final = frozenset({
    "activate", "deploy", "grid", "template", "skid_dice", "push_it", "spend_shift", "slide",
    "spin", "attack", "collision_reaction", "lose_control", "jackknife_pivot", "airwolf",
    "spend_votes", "vote_target", "raise_the_sails", "tombstone",
})
"""Decision kinds ``HeuristicBot._handle`` answers with the bot's own methods."""

_MODULE_HANDLERS: Final[dict[str, Callable[[Game, Decision, random.Random], Choice | None]]] = {
    # Shooting weapons' decisions (rules/weapons.py): spare friends, hurt foes.
    **ARSENAL_HANDLERS,
    **DROPPED_HANDLERS,  # dropped weapons (rules/dropped.py)
    # Upgrades' and trailer cargoes' decisions (rules/upgrades.py, trailers.py).
    **UPGRADE_HANDLERS,
    **PERK_HANDLERS,  # perks (rules/perks/; ai/perks.py)
    **WEAR_HANDLERS,  # campaign wear, Sabotage Tokens (ai/wear.py)
}
"""The other decisions' handlers, from the rules' bot modules (none answers a kind of
``_OWN_KINDS``)."""


def _has_handler(kind: str) -> bool:
    """Does the heuristic bot have an answer of its own to decisions of ``kind``?"""
    return kind in _OWN_KINDS or kind in _MODULE_HANDLERS


_FIELDS: dict[tuple[object, ...], DistanceField] = {}
"""Distance fields by the whole key ``HeuristicBot._field_for`` builds (table, obstacles,
goal, width), shared by every bot: a field depends on its key alone, and a new bot (two a
game) no longer lays out the terrain again to find it."""


class HeuristicBot:
    """One activation of look-ahead (see the module docstring)."""

    name = "heuristic"

    def __init__(self, desired_gear: int = 4) -> None:
        self.desired_gear = desired_gear
        self._memo: dict[tuple[object, ...], DistanceField] = {}
        """Fields already looked up for the decision being answered."""
        self._last_field: tuple[GameState, int, Line, float, frozenset[str],
                                DistanceField] | None = None
        """The last of them, with its key (state, obstacles, goal, width, targets): the same
        goal line comes back for a vehicle candidate after candidate."""
        self._recent: list[_Recent] = []
        """The fields last looked up by their whole key (``_field_for``), with the goal line
        and the obstacles' poses themselves, to be found again by identity from one decision
        to the next."""
        # The decisions' handlers are found by ``_has_handler`` and called by ``_handle``,
        # not kept in a table of methods bound to the bot: such a table made every bot a
        # reference cycle (bot, table, bound method, bot), so a finished game's bots, and
        # the state their ``_last_field`` holds, waited for the garbage collector.

    def choose(self, game: object, decision: Decision, rng: random.Random) -> Choice:
        return self._choose(read_game(game), decision, rng)

    def _choose(self, game: Game, decision: Decision, rng: random.Random) -> Choice:
        self._memo.clear()
        self._last_field = None
        if is_table_question(decision):
            return table_answer(game, decision)
        kind = decision.kind
        advice = scenario_advice(game, decision)
        pick: Choice | None = None
        if isinstance(advice, Among):
            pick = self._among(game, decision, advice, rng)
        elif advice is not None:
            pick = advice
        if pick is not None:
            try:
                return decision.validate(pick)
            except IllegalChoice:
                pick = None
        if _has_handler(kind):
            pick = self._handle(kind, game, decision, rng)
        if pick is None:
            pick = fallback(decision)
        try:
            return decision.validate(pick)
        except IllegalChoice:
            return fallback(decision)

    def _among(self, game: Game, decision: Decision, advice: Among,
               rng: random.Random) -> Choice | None:
        """The bot's own pick for ``decision`` narrowed to the advised options (None: the
        advice is dropped)."""
        options = tuple(o for o in advice.options if o in decision.options)
        if not options or not _has_handler(decision.kind):
            return None
        pick = self._handle(decision.kind, game, replace(decision, options=options), rng)
        if pick is None or not advice.unless_off_table:
            return pick
        v = self.active(game)
        if v is None or decision.kind != "template":
            return pick
        return None if self.template_score(game, v, str(pick)) <= OFF_TABLE / 2 else pick

    def _handle(self, kind: str, game: Game, d: Decision,
                rng: random.Random) -> Choice | None:
        """The handler of decisions of ``kind`` (``_has_handler``) answers ``d``: the bot's
        own, else one of the rules' bot modules' (``_MODULE_HANDLERS``)."""
        if kind == "template":
            return self._template(game, d, rng)
        if kind == "activate":
            return self._activate(game, d, rng)
        if kind == "attack":
            return self._attack(game, d, rng)
        if kind == "skid_dice":
            return self._skid_dice(game, d, rng)
        if kind == "spend_shift":
            return self._spend_shift(game, d, rng)
        if kind == "push_it":
            return self._push_it(game, d, rng)
        if kind == "slide":
            return self._slide(game, d, rng)
        if kind == "spin":
            return self._spin(game, d, rng)
        if kind == "collision_reaction":
            return self._collision_reaction(game, d, rng)
        # Vehicle rules (rules/vehicles.py, rules/war_rig.py): a Jackknife's pivot is turned
        # like a lose-control pivot; Airwolf's 2 Hazards are not worth a turn.
        if kind == "lose_control" or kind == "jackknife_pivot":
            return self._lose_control(game, d, rng)
        if kind == "airwolf":
            return _decline(game, d, rng)
        if kind == "deploy":
            return self._deploy(game, d, rng)
        if kind == "grid":
            return self._grid(game, d, rng)
        if kind == "spend_votes":  # Audience Votes
            return self._spend_votes(game, d, rng)
        if kind == "vote_target":
            return self._vote_target(game, d, rng)
        if kind == "raise_the_sails":  # sponsors
            return self._raise_the_sails(game, d, rng)
        if kind == "tombstone":
            return self._tombstone(game, d, rng)
        handler = _MODULE_HANDLERS.get(kind)
        return None if handler is None else handler(game, d, rng)

    # -- what a scenario may ask of the bot --------------------------------------------------
    def template_for(self, game: Game, decision: Decision) -> Choice | None:
        """The template option the bot would pick for the active vehicle (None: none)."""
        return self._template(game, decision, random.Random(0))

    def template_score(self, game: Game, v: VehicleState, value: str) -> float:
        """How the bot scores ``v`` driving the template option ``value`` from where it
        stands (``OFF_TABLE`` or less: it would leave the table)."""
        tid, mirror, reverse = parse_template_value(value)
        obs, ignoring = self.moves_for(game, v)
        res = resolve_move(v.rect(), tid, obs, mirror=mirror, reverse=reverse,
                           ignoring=ignoring, ts=game.templates)
        return self.score_move(game, v, res, v.hazards)

    # -- helpers ---------------------------------------------------------------------------------
    def wanted_gear(self, game: Game) -> int:
        """The gear to aim for: the bot's own, capped by the scenario's ``bot_gear`` (an
        arena of small objectives is driven slower than a race)."""
        cap = game.scenario.bot_gear
        return self.desired_gear if cap is None else min(cap, self.desired_gear)

    @staticmethod
    def active(game: Game) -> VehicleState | None:
        vid = game.state.active
        return None if vid is None else game.state.vehicles.get(vid)

    @staticmethod
    def goal(game: Game, v: VehicleState) -> Line | None:
        return game.scenario.goal(game.state, v)

    @staticmethod
    def targets(game: Game, v: VehicleState) -> frozenset[str]:
        """Obstacles or vehicles the scenario wants ``v`` to hit (``goal_targets``)."""
        return game.scenario.goal_targets(game.state, v)

    def field(self, game: Game, v: VehicleState) -> DistanceField | None:
        goal = self.goal(game, v)
        if goal is None:
            return None
        return self._field_for(game, v, goal, self.targets(game, v))

    def _field_for(self, game: Game, v: VehicleState, goal: Line,
                   skip: frozenset[str]) -> DistanceField:
        """``field`` given the goal and the targets (``skip``: a target is driven into, not
        round)."""
        st = game.state
        last = self._last_field
        if (last is not None and last[0] is st and last[1] == len(st.obstacles)
                and last[2] is goal and last[3] == v.width and last[4] == skip):
            return last[5]  # the same as the look-up below, without hashing the goal line
        same = _recent_field(self._recent, st, goal, v.width, skip)
        if same is not None:
            # the field the whole key below finds, without hashing it (a goal line or a
            # pose hashes through Python)
            self._last_field = (st, len(st.obstacles), goal, v.width, skip, same)
            return same
        quick = (id(st), len(st.obstacles), goal, v.width, skip)
        memo = self._memo.get(quick)
        if memo is not None:
            self._last_field = (st, len(st.obstacles), goal, v.width, skip, memo)
            return memo  # the table does not change while the bot thinks
        # Obstacles never move; they only come (wrecks) and go (destroyed).
        key = (st.width, st.height, tuple((o.id, o.pose, o.length, o.width)
                                          for o in st.obstacles.values() if o.id not in skip),
               goal, v.width)
        f = _FIELDS.get(key)
        if f is None:
            terrain = tuple(
                tuple((round(x, 1), round(y, 1)) for x, y in ob.polygon())
                for ob in st.obstacles.values() if ob.id not in skip
            )
            f = distance_field(st.width, st.height, terrain, (goal.a, goal.b),
                               v.width / 2.0 + 5.0)
            if len(_FIELDS) > 32:
                _FIELDS.clear()
            _FIELDS[key] = f
        self._memo[quick] = f
        self._last_field = (st, len(st.obstacles), goal, v.width, skip, f)
        if len(self._recent) >= RECENT_FIELDS:
            del self._recent[0]
        self._recent.append((goal, v.width, skip, st.width, st.height, key[2], f))
        return f

    def position_value(self, game: Game, v: VehicleState, pose: Pose) -> float:
        """How good it is for ``v`` to stand at ``pose``: minus the driving distance to its goal
        measured just ahead of its nose (so facing the right way counts)."""
        f = self.field(game, v)
        if f is None:
            return self._hunt_value(game, v, pose)
        nose = _ahead(pose, v.length)
        return -(f.at_xy(nose[0], nose[1]) + 0.25 * f.at_xy(pose.x, pose.y))

    @staticmethod
    def _hunt_value(game: Game, v: VehicleState, pose: Pose) -> float:
        """No goal: close on the nearest enemy, nose first."""
        enemies = [o for o in game.state.in_play() if o.player != v.player]
        if not enemies:
            return 0.0
        nose = _ahead(pose, v.length)
        return -min(_hypot(o.pose.x - nose[0], o.pose.y - nose[1]) for o in enemies)

    def wants_to_hit(self, v: VehicleState, other: VehicleState) -> bool:
        """Smash rather than evade: heavier, or as heavy and faster."""
        a, b = WEIGHT_CLASS[v.weight], WEIGHT_CLASS[other.weight]
        return a > b or (a == b and v.gear > other.gear)

    def score_move(
        self, game: Game, v: VehicleState, res: MoveResult, hazards: int
    ) -> float:
        st = game.state
        # Every centre on the way lies within the template's length plus the vehicle's (and a
        # slide's extra) of where it started.
        spec = game.templates.movement.get(res.plan.path.template_id) if res.plan else None
        reach = (spec.length if spec is not None else MOVE_REACH) + v.length
        if res.slide_template is not None:
            reach += SLIDE_REACH
        rho = _hypot(v.length, v.width) / 2.0
        start = res.start
        edge = min(min(min(start.x, start.y), st.width - start.x), st.height - start.y)
        goal = self.goal(game, v)
        near_goal = goal is not None and _segment_distance(
            (start.x, start.y), goal.a, goal.b) <= reach + rho
        poses = res.swept(SAMPLES) if near_goal or edge < reach + EDGE_SLACK else []
        if poses and self._may_leave_table(game, v, res, poses) and (
            _end_off_table(game, v, res)
            or _template_off_table(res, st.width, st.height)
        ):
            return OFF_TABLE
        score = WIPEOUT if hazards > SAFE_HAZARDS else HAZARD * hazards
        if goal is not None and near_goal and crosses(goal, poses, v.length, v.width):
            return CROSSING_BONUS + score
        targets = self.targets(game, v)
        if targets and any(oid in targets for oid in res.touched):
            return CROSSING_BONUS + score  # hitting what the scenario wants hit (a flag)
        pose = res.pose
        if goal is None:
            score += self._hunt_value(game, v, pose)
        else:  # ``position_value`` with the goal and targets in hand
            f = self._field_for(game, v, goal, targets)
            nose = _ahead(pose, v.length)
            score += -(f.at_xy(nose[0], nose[1]) + 0.25 * f.at_xy(pose.x, pose.y))
        # Room to turn: a vehicle ending nose-on to a near table edge may have no legal move
        # left next time (objectives near the edges: flags, spawn points).
        score -= EDGE_FACING * max(0.0, EDGE_ROOM - _run_to_edge(st, v, res.pose))
        score -= game.scenario.move_penalty(game, v, res.pose)  # e.g. in a turret's reach
        for oid in res.touched:
            other = st.vehicles.get(oid)
            if other is None:
                score += HIT_OBSTACLE
            elif other.player == v.player:
                score += HIT_FRIEND
            elif not self.wants_to_hit(v, other):
                score += HIT_ENEMY
        if res.interrupted:
            score += INTERRUPTED
        return score

    @staticmethod
    def _may_leave_table(
        game: Game, v: VehicleState, res: MoveResult, poses: list[Pose]
    ) -> bool:
        """A cheap test that is False only when the template surely stays on the table. The
        vehicle's centre runs along the template's centreline, so a template lies within half
        its width of the centres swept (a slide: within the vehicle's reach of them). An
        interrupted move still lays the whole template: sweep it unobstructed."""
        st = game.state
        if res.interrupted:
            t = _last_template(res)
            full = resolve_move(Rect(res.start, v.length, v.width), t[0], mirror=t[1],
                                reverse=t[2], ts=game.templates)
            poses = full.swept(SAMPLES)
        if res.slide_template is not None:
            margin = _hypot(v.length, v.width) / 2.0 + SAMPLE_GAP
        else:
            margin = game.templates.width / 2.0 + SAMPLE_GAP
        for p in poses:  # noqa: SIM110 (compiled, a loop costs less than a generator)
            if min(min(min(p.x, p.y), st.width - p.x), st.height - p.y) < margin:
                return True
        return False

    @staticmethod
    def moves_for(game: Game, v: VehicleState) -> tuple[list[Obstruction], set[str]]:
        """The engine's obstructions for ``v`` and those it touches now (ignored, p.45)."""
        obs = obstructions_for(game, v)
        poly = v.polygon()
        # Bounding circles first (exact): along the better of the body's two square axes the
        # centres are at least 1/sqrt(2) of their distance apart, so a pair farther than
        # sqrt(2) times the two radii (and a margin) is separated by more than 1e-6 on that
        # axis, and the separating-axis overlap is below -1e-6.
        x, y = v.pose.x, v.pose.y
        rad = _hypot(v.length, v.width) / 2.0 + 2e-6
        out = set()
        for o in obs:
            ox, oy, orad = o.circle
            rr = rad + orad
            if (ox - x) * (ox - x) + (oy - y) * (oy - y) > 2.0 * rr * rr:
                continue
            if penetration(poly, o.polygon) >= -1e-6:
                out.add(o.id)
        return obs, out

    # -- decisions -------------------------------------------------------------------------------
    def _activate(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        best: tuple[float, Choice] | None = None
        for o in d.options:
            v = game.state.vehicles.get(str(o.value))
            if v is None:
                continue
            val = self.position_value(game, v, v.pose)
            if best is None or val > best[0]:
                best = (val, o.value)
        return None if best is None else best[1]

    def _deploy(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        # The fastest vehicle takes the best grid place.
        def speed(o_value: Choice) -> int:
            v = game.state.vehicles.get(str(o_value))
            return 0 if v is None else v.max_gear

        return max((o.value for o in d.options), key=speed)

    def _grid(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        def off_centre(value: Choice) -> float:
            try:
                return abs(float(value))
            except ValueError:
                return math.inf

        return min((o.value for o in d.options), key=off_centre)

    def _template(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        v = self.active(game)
        if v is None:
            return None
        own = d.player == v.player
        obs, ignoring = self.moves_for(game, v)
        cands: list[Candidate] = []
        uses: dict[str, TemplateUse] = {}  # a template and its mirror image share one answer
        for o in d.options:
            tid, mirror, reverse = _parsed(str(o.value))
            use = uses.get(tid)
            if use is None:  # rules may permit more (Full Throttle)
                use = uses[tid] = template_use(game, v, tid, v.gear)
            if use is _NOT_PERMITTED:
                if own:
                    continue  # touch it, use it: never hand the choice to an opponent
                use = _PERMITTED
            cands.append((o.value, tid, mirror, reverse, use))
        if not cands:
            return None

        body = v.rect()

        def move(k: int) -> MoveResult:
            _, tid, mirror, reverse, _ = cands[k]
            return resolve_move(body, tid, obs, mirror=mirror, reverse=reverse,
                                ignoring=ignoring, ts=game.templates)

        def score(k: int, res: MoveResult) -> float:
            use = cands[k][4]
            hazards = v.hazards + (1 if use is _HAZARDOUS else 0)
            s = self.score_move(game, v, res, hazards)
            if use is _TRIVIAL:
                s += 5.0
            return s

        if not own:
            # An opponent picking for our vehicle (touch it, use it) picks the worst for it.
            scored = [(score(k, move(k)), c[0]) for k, c in enumerate(cands)]
            return min(scored, key=lambda t: t[0])[1]
        # The best move, as ``max`` over every candidate in order would pick it (the first of
        # the highest scores). Without bounds every candidate is scored.
        bounder = self._score_bounder(game, v)
        best_k, best_s = -1, -math.inf
        if bounder is None:
            for k in range(len(cands)):
                s = score(k, move(k))
                if best_k < 0 or s > best_s:
                    best_k, best_s = k, s
            return cands[best_k][0]
        # Best first: each candidate waits with an upper bound on its score (``_ScoreBound``),
        # the highest taken first, and tightened in two stages: before the move is swept, the
        # bound at its end if nothing comes near it (it cannot be interrupted), else the
        # larger of the bounds at its end and interrupted; once swept, the bound where it
        # really ends; then the score itself. A candidate whose bound is below the best score
        # found (or equal, after it in order) cannot be the pick, nor can any after it.
        waiting: list[tuple[float, int, int]] = []  # (minus the bound, candidate, stage)
        bases = [bounder.base(c[1], c[4]) for c in cands]
        for k, c in enumerate(cands):
            waiting.append((-bounder.before_sweep_from(bases[k], c, obs), k, 0))
        heapq.heapify(waiting)
        swept: dict[int, MoveResult] = {}
        while waiting:
            minus, k, stage = heapq.heappop(waiting)
            bound = -minus
            if best_k >= 0 and bound <= best_s:
                if bound < best_s:
                    break
                if k > best_k:
                    continue
            if stage == 0:
                res = swept[k] = move(k)
                tighter = min(bound, bounder.swept_from(bases[k], res))
                heapq.heappush(waiting, (-tighter, k, 1))
                continue
            s = score(k, swept[k])
            if best_k < 0 or s > best_s or (s == best_s and k < best_k):
                best_k, best_s = k, s
        return cands[best_k][0]

    def _score_bounder(self, game: Game, v: VehicleState) -> _ScoreBound | None:
        """Bounds on ``score_move`` (with the trivial bonus) for ``v``'s candidate moves, or
        None when there are none to be had: without a distance field, when the scenario has
        targets to hit (a crossing bonus anywhere) or a move penalty of its own that may be
        other than a cost (a cost only lowers a score: the bounds made without it hold)."""
        f = self.field(game, v)
        sc = game.scenario
        if f is None or self.targets(game, v) or (
                sc.has_move_penalty and not sc.move_penalty_only_costs):
            return None
        return _ScoreBound(self, game, v, f, self.goal(game, v))

    def _skid_dice(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        v = self.active(game)
        if v is None:
            return None
        most = max(int(o.value) for o in d.options)
        want_gear = v.gear < min(game.stat(v, "max_gear"), self.wanted_gear(game))
        if not want_gear and v.hazards == 0:
            return 0  # nothing to gain: do not risk spins and slides
        return max(0, min(most, SAFE_HAZARDS - v.hazards))

    def _push_it(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        v = self.active(game)
        if v is None:
            return None
        skid = _last_event_data(game, "skid", v.id)
        faces = skid.get("faces") if skid else None
        if not isinstance(faces, list):
            return "no"
        bad = [i for i, f in enumerate(faces) if f != "shift"]
        shifts = len(faces) - len(bad)
        if len(bad) < 2:
            return "no"
        doomed = v.hazards + len(bad) - shifts > SAFE_HAZARDS
        if v.hazards + 1 + len(bad) <= SAFE_HAZARDS or doomed:
            return ",".join(str(i) for i in bad)
        return "no"

    def _spend_shift(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        v = self.active(game)
        if v is None:
            return None
        values = {str(o.value): o for o in d.options}
        # Cancel unwanted results first: spins, then slides, then hazards.
        for face in ("spin", "slide", "hazard"):
            for o in d.options:
                if str(o.value).startswith("cancel:") and o.label.endswith(face):
                    return o.value
        pending = v.hazards
        desired = min(game.stat(v, "max_gear"), self.wanted_gear(game))
        if "gear_up" in values and v.gear < desired and pending + 1 <= 3:
            return "gear_up"
        if "discard_hazard" in values and v.hazards > 0:
            return "discard_hazard"
        return "done" if "done" in values else None

    def _slide(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        v = self.active(game)
        t = None if v is None else _last_event_data(game, "template", v.id)
        if v is None or t is None:
            return None
        obs, ignoring = self.moves_for(game, v)
        best: tuple[float, Choice] | None = None
        for o in d.options:
            side = str(o.value)
            if side not in ("left", "right"):
                continue
            res = resolve_move(
                v.rect(), str(t["template"]), obs, mirror=bool(t.get("mirror")),
                reverse=bool(t.get("reverse")), slide=_side(side), ignoring=ignoring,
                ts=game.templates,
            )
            s = self.score_move(game, v, res, v.hazards)
            if best is None or s > best[0]:
                best = (s, o.value)
        return None if best is None else best[1]

    def _spin(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        v = self.active(game)
        if v is None or d.domain is None:
            return None
        own = d.player == v.player
        return self.best_pivot(game, v, d.domain.low, d.domain.high, own)

    def best_pivot(
        self, game: Game, v: VehicleState, low: float, high: float, own: bool
    ) -> float:
        """The pivot (degrees) within [low, high]: for its own vehicle the heading that points
        best along its way (not into anything); for an opponent's, at the nearest obstruction
        or table edge."""
        obs, ignoring = self.moves_for(game, v)
        live = [o for o in obs if o.id not in ignoring]
        segs = None if own else _run_segments(game, live)  # the same for every angle
        near = _near_turning(v, live) if own else live
        best: tuple[float, float] | None = None
        steps = 12
        for k in range(steps + 1):
            angle = low + (high - low) * k / steps
            pose = Pose(v.pose.x, v.pose.y, (v.pose.heading + angle) % 360.0)
            if own:
                poly = Rect(pose, v.length, v.width).polygon()
                s = self.position_value(game, v, pose)
                if any(penetration(poly, list(o.polygon)) > 0.1 for o in near):
                    s += HIT_OBSTACLE
            else:
                assert segs is not None
                s = -_clear_run_among(v, pose, segs)
            if best is None or s > best[0] + 1e-9:
                best = (s, angle)
        assert best is not None
        return best[1]


    def _attack(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        """Shoot whatever it can: the enemy shot with the most dice, out of cover first;
        never at a friend."""
        v = self.active(game)
        if v is None:
            return None
        drop = drop_pick(game, d, v)  # a foe near and not ahead: drop something on it first
        if drop is not None:
            return drop
        cat = game.catalog
        wanted = self.targets(game, v)  # the scenario's target first (the rig)
        best: tuple[tuple[int, int, int], Choice] | None = None
        for o in d.options:
            key, sep, target = str(o.value).partition(">")
            t = game.state.vehicles.get(target)
            if not sep or t is None or t.player == v.player:
                continue
            mount = next((m for m in v.weapons if m.key == key), None)
            weapon = mount.weapon if mount is not None else key
            try:
                dice = cat.weapons.get(weapon).attack_dice or 0
            except KeyError:
                dice = 0
            rank = (1 if t.id in wanted else 0, 0 if "[cover]" in o.label else 1, dice)
            if best is None or rank > best[0]:
                best = (rank, o.value)
        return "stop" if best is None else best[1]

    def _collision_reaction(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        """Smash a vehicle the scenario wants hit (the rig, for Gangers), or when heavier, or
        as heavy and faster; evade otherwise (and against terrain)."""
        if d.vehicle is None or d.target is None:
            return None
        me, them = game.state.vehicles.get(d.vehicle), game.state.vehicles.get(d.target)
        if me is None or them is None:
            return "evade"
        if them.player != me.player and them.id in self.targets(game, me):
            return "smash"
        return "smash" if self.wants_to_hit(me, them) else "evade"

    def _lose_control(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        w = game.state.vehicles.get(d.vehicle or "")
        if w is None or d.domain is None:
            return None
        return self.best_pivot(game, w, d.domain.low, d.domain.high, d.player == w.player)


    # -- Audience Votes (p.89) ----------------------------------------------------------
    HOT = 3
    """Own Hazards at which the bot buys Thunderous Applause."""

    def _spend_votes(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        """Respawn when it can; with nothing in play and a wreck it may respawn once it has
        the votes, save them for that; otherwise cool a car on 3+ Hazards; reload an empty
        weapon; push an enemy on 2+ Hazards towards a wipeout; otherwise keep the votes."""
        from carnage.games.refuelled.engine.votes import DONE, own_vehicles

        offered = {str(o.value) for o in d.options}
        if "respawn" in offered:
            return "respawn"
        if saving_to_respawn(game, d.player):
            return DONE
        st = game.state
        mine = own_vehicles(game, d.player)
        wants = [
            ("respawn", True),
            ("thunderous_applause", any(v.hazards >= self.HOT for v in mine)),
            ("reload", any(m.ammo == 0 for v in mine for m in v.weapons)),
            ("executive_intervention",
             any(v.player != d.player and v.hazards >= 2 for v in st.in_play())),
        ]
        return next((k for k, want in wants if want and k in offered), DONE)

    def _vote_target(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        st = game.state
        values = [str(o.value) for o in d.options]
        if d.source in ("thunderous_applause", "executive_intervention"):
            return max(values, key=lambda vid: st.vehicles[vid].hazards)
        if d.source == "reload":
            def ammo(value: str) -> int:
                vid, _, key = value.partition("|")
                v = st.vehicles[vid]
                keyed = {m.key: m.ammo for m in v.weapons} | {u.key: u.ammo for u in v.fitted}
                return keyed.get(key) or 0
            return min(values, key=ammo)
        if d.source == "carpe_diem" and f"pole:{d.player}" in values:
            return f"pole:{d.player}"
        return None

    # -- sponsors (pp.97-99) ------------------------------------------------------------
    def _raise_the_sails(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        """A crew member for a Shift only with crew to spare and a bad result to cancel."""
        v = self.active(game)
        if v is None or v.crew < 2:
            return "no"
        faces = _last_event_data(game, "skid", v.id) or {}
        rolled = faces.get("faces")
        bad = isinstance(rolled, list) and any(f != "shift" for f in rolled)
        return "yes" if bad else "no"

    def _tombstone(self, game: Game, d: Decision, rng: random.Random) -> Choice | None:
        """Two Hazards for head-on Collisions only while the car is cool."""
        v = self.active(game)
        return "yes" if v is not None and v.hazards <= 1 else "no"


def saving_to_respawn(game: Game, player: int) -> bool:
    """Does ``player`` have nothing in play but a vehicle it could respawn (p.90) once it can
    afford to? Spending votes then only puts the respawn off (a side with only a wreck that
    buys Executive Intervention every round never comes back)."""
    from carnage.games.refuelled.engine.votes import (
        EFFECTS,
        own_vehicles,
        respawn_candidates,
        vote_cost,
    )

    if own_vehicles(game, player):
        return False
    effect = next(e for e in EFFECTS if e.id == "respawn")
    votes = game.state.votes[player]
    return any(vote_cost(game, player, effect, v.id) > votes
               for v in respawn_candidates(game, player))


def _end_off_table(game: Game, v: VehicleState, res: MoveResult) -> bool:
    """A cheap sure sign of leaving the table: the far end of the template (the centre of the
    edge the unobstructed final position sits on) lies beyond the edge. False for slides."""
    if res.slide_template is not None or res.plan is None:
        return False
    body = Rect(res.intended, v.length, v.width)
    x, y = body.front_centre() if res.plan.path.reverse else body.rear_centre()
    st = game.state
    return not (0.0 <= x <= st.width and 0.0 <= y <= st.height)


_Recent = tuple[Line, float, frozenset[str], float, float,
                tuple[tuple[str, Pose, float, float], ...], DistanceField]
"""A field looked up by ``HeuristicBot._field_for``: the goal line, vehicle width, targets
skipped, table width and height and obstacles (id, pose, length, width) of its key."""

RECENT_FIELDS: Final = 4
"""Fields a bot keeps in ``_recent`` (a side's vehicles differ in width)."""


def _recent_field(recent: list[_Recent], st: GameState, goal: Line, width: float,
                  skip: frozenset[str]) -> DistanceField | None:
    """A field of ``recent`` whose key equals the one ``HeuristicBot._field_for`` would
    build, checked without hashing: the very same goal line and obstacle poses (a pose is
    equal to itself), the same numbers, ids and targets, the obstacles in the same order."""
    for r in recent:
        if r[0] is not goal or r[1] != width or r[3] != st.width or r[4] != st.height or (
                r[2] != skip):
            continue
        entries = r[5]
        n = len(entries)
        i = 0
        for o in st.obstacles.values():
            if o.id in skip:
                continue
            if i >= n:
                break
            e = entries[i]
            if e[1] is not o.pose or e[0] != o.id or e[2] != o.length or e[3] != o.width:
                break
            i += 1
        else:
            if i == n:
                return r[6]
    return None


_PARSED: dict[str, tuple[str, bool, bool]] = {}
"""``parse_template_value`` of an option's value, by the value."""


def _parsed(value: str) -> tuple[str, bool, bool]:
    """``parse_template_value(value)``, remembered."""
    hit = _PARSED.get(value)
    if hit is None:
        if len(_PARSED) >= 4096:
            _PARSED.clear()
        hit = _PARSED[value] = parse_template_value(value)
    return hit


Candidate = tuple[Choice, str, bool, bool, TemplateUse]
"""A template option: its value, template id, mirror, reverse and how it may be used."""


class _ScoreBound:
    """Numbers a candidate move's ``score_move`` plus its trivial bonus cannot exceed,
    worked out without sweeping it. Near the goal (a crossing bonus is possible) the bound
    is ``inf``. Otherwise the score is the hazard score plus the position value where the
    move ends, less penalties (edge, collisions, interruption): not interrupted, the move
    ends exactly at its final position; interrupted, somewhere in the box its body stays
    in, and it pays ``INTERRUPTED`` (the position value there is at most minus the field's
    least cell values over that box, nose included)."""

    def __init__(self, bot: HeuristicBot, game: Game, v: VehicleState, f: DistanceField,
                 goal: Line | None) -> None:
        self.bot, self.game, self.v, self.f, self.goal = bot, game, v, f, goal
        self.rho = _hypot(v.length, v.width) / 2.0
        self.rect = v.rect()  # the body every candidate starts from (the state is not moved)
        self.ts = game.templates
        hr = v.pose.heading * _D2R
        self.c, self.s = math.cos(hr), math.sin(hr)
        self.goal_distance = math.inf if goal is None else _segment_distance(
            (v.pose.x, v.pose.y), goal.a, goal.b)
        self._unbounded: dict[str, bool] = {}

    def _base(self, cand: Candidate) -> float | None:
        return self.base(cand[1], cand[4])

    def base(self, tid: str, use: TemplateUse) -> float | None:
        """Hazard score and trivial bonus, or None near the goal (whether the template may
        reach it remembered)."""
        near = self._unbounded.get(tid)
        if near is None:
            near = self._unbounded[tid] = self._may_reach_goal(tid)
        if near:
            return None
        hazards = self.v.hazards + (1 if use is _HAZARDOUS else 0)
        base = WIPEOUT if hazards > SAFE_HAZARDS else HAZARD * hazards
        return base + (5.0 if use is _TRIVIAL else 0.0)

    def _may_reach_goal(self, tid: str) -> bool:
        """Template ``tid`` is unknown, or a move of it may cross the goal line
        (``score_move``'s own test)."""
        spec = self.game.templates.movement.get(tid)
        if spec is None or spec.id != tid:
            return True
        return self.goal_distance <= spec.length + self.v.length + self.rho

    def at_end(self, cand: Candidate) -> float:
        """The bound if the move is not interrupted (a margin far above rounding added)."""
        base = self._base(cand)
        if base is None:
            return math.inf
        _, tid, mirror, reverse, _ = cand
        end = final_pose(self.rect, tid, mirror=mirror, reverse=reverse,
                         ts=self.ts)
        return self._at_end(base, end)

    def _at_end(self, base: float, end: Pose) -> float:
        return base + self._value(end) + 1e-3

    def _value(self, pose: Pose) -> float:
        """``position_value`` with the field already in hand (``_ahead``'s arithmetic)."""
        r = pose.heading * _D2R
        d = self.v.length / 2.0 + LOOK_AHEAD
        f = self.f
        return -(f.at_xy(pose.x + d * math.cos(r), pose.y + d * math.sin(r))
                 + 0.25 * f.at_xy(pose.x, pose.y))

    def clear(self, cand: Candidate, obs: list[Obstruction]) -> bool:
        """Does nothing come near the move (``clear_of``)? Then it is not interrupted and
        ends at its final position: ``at_end`` bounds it."""
        _, tid, mirror, reverse, _ = cand
        return clear_of(self.rect, tid, obs, mirror=mirror, reverse=reverse,
                        ts=self.ts)

    def before_sweep(self, cand: Candidate, obs: list[Obstruction]) -> float:
        """The bound before the move is swept: ``at_end`` if it is ``clear`` of ``obs``, else
        the larger of ``at_end`` and ``interrupted`` (the same numbers, with the move's plan
        looked up once: ``unobstructed``)."""
        return self.before_sweep_from(self._base(cand), cand, obs)

    def before_sweep_from(self, base: float | None, cand: Candidate,
                          obs: list[Obstruction]) -> float:
        """``before_sweep`` given the candidate's ``base``."""
        if base is None:
            return math.inf
        _, tid, mirror, reverse, _ = cand
        end, motion, clear = unobstructed_motion(self.rect, tid, obs, mirror=mirror,
                                                 reverse=reverse, ts=self.ts)
        at_end = self._at_end(base, end)
        return at_end if clear else max(at_end, self._interrupted(base, motion))

    def swept(self, cand: Candidate, res: MoveResult) -> float:
        """The bound once the move is swept (``res``): the hazard score and trivial bonus,
        the position value where it ends, less the edge penalty there, the penalties for
        what it touched and ``INTERRUPTED`` if it was, as ``score_move`` adds them (only the
        scenario's move penalty is left out: it only lowers a score)."""
        return self.swept_from(self._base(cand), res)

    def swept_from(self, base: float | None, res: MoveResult) -> float:
        """``swept`` given the candidate's ``base``."""
        if base is None:
            return math.inf
        pose = res.pose
        v = self.v
        value = self._value(pose)
        edge = EDGE_FACING * max(0.0, EDGE_ROOM - _run_to_edge(self.game.state, v, pose))
        hits = 0.0
        for oid in res.touched:
            other = self.game.state.vehicles.get(oid)
            if other is None:
                hits += HIT_OBSTACLE
            elif other.player == v.player:
                hits += HIT_FRIEND
            elif not self.bot.wants_to_hit(v, other):
                hits += HIT_ENEMY
        return base + value - edge + hits + (INTERRUPTED if res.interrupted else 0.0) + 1e-3

    def interrupted(self, cand: Candidate) -> float:
        """The bound if it is interrupted."""
        base = self._base(cand)
        if base is None:
            return math.inf
        _, tid, mirror, reverse, _ = cand
        _, motion, _ = unobstructed_motion(self.rect, tid, (), mirror=mirror, reverse=reverse,
                                           ts=self.ts)
        return self._interrupted(base, motion)

    def _interrupted(self, base: float, motion: Motion) -> float:
        centre, nose = _path_boxes(motion)
        at_centre = self._least_in(centre)
        at_nose = self._least_in(nose)
        return base + INTERRUPTED - (at_nose + 0.25 * at_centre) + 1e-3

    def _least_in(self, box: tuple[float, float, float, float]) -> float:
        """The field's ``least_in`` the box (x0, y0, x1, y1) in the body's frame at the start
        can reach: the box round its corners placed on the table."""
        x0, y0, x1, y1 = box
        v, c, s = self.v, self.c, self.s
        px, py = v.pose.x, v.pose.y
        xa, xb = px + x0 * c - y0 * s, px + x0 * c - y1 * s
        xc, xd = px + x1 * c - y0 * s, px + x1 * c - y1 * s
        ya, yb = py + x0 * s + y0 * c, py + x0 * s + y1 * c
        yc, yd = py + x1 * s + y0 * c, py + x1 * s + y1 * c
        # min and max of four, two at a time (as the builtins walk them; compiled, unboxed)
        return self.f.least_in(min(min(min(xa, xb), xc), xd), min(min(min(ya, yb), yc), yd),
                               max(max(max(xa, xb), xc), xd), max(max(max(ya, yb), yc), yd))


Box = tuple[float, float, float, float]

PATH_STEP: Final = 5.0
"""Spacing (mm of the motion's parameter) of the poses ``_path_boxes`` samples."""

_PATH_BOXES: dict[int, tuple[Motion, Box, Box]] = {}
"""``_path_boxes`` of a motion, by its identity (held with them)."""


def _path_boxes(m: Motion) -> tuple[Box, Box]:
    """Boxes (x0, y0, x1, y1) in the body's own frame at the start of the motion ``m`` (no
    slide, no spin) holding the body's centre, and the point ``LOOK_AHEAD`` in front of its
    nose (``_ahead``), at every ``m.at(u)``, u in [0, ``m.length``]: wherever a move of it
    stops. Every body point moves at most 1 mm per unit of ``u`` (``sweep.Piece``), so the
    centre does, and the heading turns at most 1/``m.rho`` radians per unit (two opposite
    corners' speeds differ by twice the turn's share), so the point ``d`` in front of the
    centre moves at most 1 + ``d``/``m.rho`` mm. Samples ``gap`` apart leave every ``u``
    within ``gap``/2 of one: the boxes round the samples grown by that much (and 1e-6 for
    rounding) hold the whole way."""
    hit = _PATH_BOXES.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1], hit[2]
    n = max(1, math.ceil(m.length / PATH_STEP))
    gap = m.length / n
    d = m.hl + LOOK_AHEAD
    cx: list[float] = []
    cy: list[float] = []
    nx: list[float] = []
    ny: list[float] = []
    for i in range(n + 1):
        x, y, h = m.at(m.length * i / n)
        cx.append(x)
        cy.append(y)
        nx.append(x + d * math.cos(h))
        ny.append(y + d * math.sin(h))
    mc = gap / 2.0 + 1e-6
    mn = (1.0 + d / m.rho) * gap / 2.0 + 1e-6
    centre = (min(cx) - mc, min(cy) - mc, max(cx) + mc, max(cy) + mc)
    nose = (min(nx) - mn, min(ny) - mn, max(nx) + mn, max(ny) + mn)
    if len(_PATH_BOXES) >= 1024:
        _PATH_BOXES.clear()
    _PATH_BOXES[id(m)] = (m, centre, nose)
    return centre, nose


_LOCAL_PIECES: dict[int, tuple[TemplatePath, tuple[Point, ...], tuple[float, float, float]]] = {}
"""Corners of a plan's template pieces in the body's own frame, by the plan path's identity
(held with them): every move of the same plan shares them."""

_SURE: Final = 1e-7
"""Margin (mm) beyond which a corner's side of the table edge is decided from the shared
body-frame corners: far above the rounding between the two ways of placing it (< 1e-10)."""


def _template_off_table(res: MoveResult, width: float, height: float) -> bool:
    """``off_table(move_pieces(res)[:-1], Table(width, height))``: does the laid template
    (a slide's up to its exit, and its Slide template) reach past the table's edge?

    Without a slide the corners come from the plan's body-frame pieces, placed at the start;
    only when some corner lies within ``_SURE`` of the edge (with its tolerance) is the
    template laid on the table and checked as before, so the answer is the same."""
    plan = res.plan
    if plan is None or res.slide_template is not None:
        return off_table(move_pieces(res)[:-1], Table(width, height))
    lp = plan.path
    hit = _LOCAL_PIECES.get(id(lp))
    if hit is None or hit[0] is not lp:
        pts = tuple(dict.fromkeys(p for piece in template_pieces(lp) for p in piece))
        mx = (min(x for x, _ in pts) + max(x for x, _ in pts)) / 2.0
        my = (min(y for _, y in pts) + max(y for _, y in pts)) / 2.0
        hit = (lp, pts, (mx, my, max(_hypot(x - mx, y - my) for x, y in pts)))
        if len(_LOCAL_PIECES) >= 1024:
            _LOCAL_PIECES.clear()
        _LOCAL_PIECES[id(lp)] = hit
    st = res.start
    hr = st.heading * _D2R
    c, s = math.cos(hr), math.sin(hr)
    x0, y0, tol = st.x, st.y, EDGE_TOL
    mx, my, rad = hit[2]
    cx, cy = x0 + mx * c - my * s, y0 + mx * s + my * c
    if min(min(min(cx + tol, width + tol - cx), cy + tol), height + tol - cy) > rad + _SURE:
        return False  # every corner lies within ``rad`` of the centre
    slack = math.inf
    for x, y in hit[1]:
        wx, wy = x0 + x * c - y * s, y0 + x * s + y * c
        slack = min(min(min(min(slack, wx + tol), width + tol - wx), wy + tol),
                    height + tol - wy)
    if slack > _SURE:
        return False
    if slack < -_SURE:
        return True
    return off_table(move_pieces(res)[:-1], Table(width, height))


def _near_turning(v: VehicleState, live: list[Obstruction]) -> list[Obstruction]:
    """The obstructions of ``live`` that ``v`` may overlap by more than 0.1 mm turned on the
    spot to any heading (``best_pivot``), in order. The others are dropped by bounding
    circles, as in ``moves_for`` (exact): the body's circle is the same at every heading, and
    along the better of its two square axes the centres are at least 1/sqrt(2) of their
    distance apart, so a pair farther apart than sqrt(2) times the two radii (and a margin)
    is separated on that axis, and its penetration is below 0."""
    x, y = v.pose.x, v.pose.y
    rad = _hypot(v.length, v.width) / 2.0 + 2e-6
    out: list[Obstruction] = []
    for o in live:
        ox, oy, orad = o.circle
        rr = rad + orad
        if (ox - x) * (ox - x) + (oy - y) * (oy - y) > 2.0 * rr * rr:
            continue
        out.append(o)
    return out


def _run_to_edge(st: GameState, v: VehicleState, pose: Pose) -> float:
    """How far ahead of its nose, along its heading, the table edge is."""
    h = pose.heading * _D2R
    dx, dy = math.cos(h), math.sin(h)
    nx, ny = pose.x + dx * v.length / 2.0, pose.y + dy * v.length / 2.0
    run_x = ((st.width if dx > 0 else 0.0) - nx) / dx if abs(dx) > 1e-9 else math.inf
    run_y = ((st.height if dy > 0 else 0.0) - ny) / dy if abs(dy) > 1e-9 else math.inf
    return max(0.0, min(run_x, run_y))


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ex, ey = b[0] - a[0], b[1] - a[1]
    ll = ex * ex + ey * ey
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / ll))
    return _hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey)


def _last_template(res: MoveResult) -> tuple[str, bool, bool]:
    p = res.path
    return p.template_id, p.mirror, p.reverse


def _side(side: str) -> SlideSide:
    return "left" if side == "left" else "right"


def _ray_hit(o: Point, d: Point, a: Point, b: Point) -> float:
    """Distance along the ray ``o + t d`` (t >= 0) to segment ab, or ``math.inf``."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    den = d[0] * ey - d[1] * ex
    if abs(den) < 1e-12:
        return math.inf
    wx, wy = a[0] - o[0], a[1] - o[1]
    t = (wx * ey - wy * ex) / den
    u = (wx * d[1] - wy * d[0]) / den
    return t if t >= 0.0 and 0.0 <= u <= 1.0 else math.inf


def _clear_run(game: Game, v: VehicleState, pose: Pose, live: list[Obstruction]) -> float:
    """How far (mm) ``v`` could drive straight ahead from ``pose`` before its nose meets an
    obstruction or the table edge (rays from both front corners and the nose centre)."""
    return _clear_run_among(v, pose, _run_segments(game, live))


def _run_segments(game: Game, live: list[Obstruction]) -> list[tuple[Point, Point]]:
    """The segments ``_clear_run`` casts its rays at: the table's edges, then each
    obstruction's edges, in order."""
    st = game.state
    edges = [(0.0, 0.0), (st.width, 0.0), (st.width, st.height), (0.0, st.height)]
    segs = [(edges[i], edges[(i + 1) % 4]) for i in range(4)]
    for o in live:
        poly = o.polygon
        n = len(poly)
        segs += [(poly[i], poly[(i + 1) % n]) for i in range(n)]
    return segs


def _clear_run_among(v: VehicleState, pose: Pose, segs: list[tuple[Point, Point]]) -> float:
    """``_clear_run`` given its segments (``_run_segments``)."""
    r = pose.heading * _D2R
    d = (math.cos(r), math.sin(r))
    rect = Rect(pose, v.length, v.width)
    fl, fr, _, _ = rect.corners()
    best = FAR
    for origin in (fl, fr, rect.front_centre()):
        for a, b in segs:
            best = min(best, _ray_hit(origin, d, a, b))
    return best


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}
"""Refuelled's own bots, name -> factory (every bot, search included: ``carnage.ai.BOTS``)."""


def make_bot(name: str) -> Bot:
    """One of Refuelled's own bots by name; ``ValueError`` naming the known ones."""
    try:
        return BOTS[name]()
    except KeyError:
        known = ", ".join(sorted(BOTS))
        raise ValueError(f"unknown bot {name!r} (known: {known})") from None
