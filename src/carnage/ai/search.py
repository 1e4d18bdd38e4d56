"""The search bot: Monte Carlo tree search over the engine's own decisions.

It reads only the generic controller API (``pending()``, a decision's options or domain,
``apply()``, ``clone()``, ``outcome()``), so it plays every scenario of every ruleset whose
game keeps the game contract (``kernel/contract.py``: Refuelled's ``Game`` and Devil's Run's
``DevilsRunGame`` do). Each ruleset declares its own adapter (``Ruleset.search``: rollout
policy, order of candidates, value of a position; ``kernel/search.py``), which the bot finds
through the game's ruleset, never by name: Refuelled's is
``games/refuelled/ai/search_adapter.py`` (Legacy inherits it, the Kart variant extends it in
``games/kart/search.py``), Devil's Run's ``games/devilsrun/search.py``; a ruleset that
declares none gets the generic ``Adapter`` (random rollouts, outcomes only).

How one decision is searched (open-loop MCTS with determinised dice):

* **Determinised dice.** Every iteration clones the real game and gives the copy fresh dice
  (``SeededDice`` from the bot's own seed). The copy replays the past exactly (a clone
  re-applies the choices since its checkpoint), then rolls dice the bot drew itself, never
  the real future: the real dice are not read. The j-th visit of every root candidate uses
  the same dice seed, and the k-th roll of a copy depends only on that seed and k
  (``CallDice``), so candidates are compared on the same luck (common random numbers) and
  the answer is judged on those paired simulations. A ruleset whose game names each roll's
  purpose (Devil's Run) has its copies roll ``PurposeDice``: there the i-th roll for one
  purpose (an evade of one vehicle in one turn) is the same in every candidate's playout,
  however many dice were rolled before it.
* **Guessed secrets.** Other seats' secrets (a delivery slip, a noted terrain piece) are
  replaced in every copy by values sampled from what the searching seat could know
  (``ai/determinise.py``), the j-th copy's guesses drawn from the same seed as its dice: the
  bot's choices cannot depend on a value it may not see.
* **The root: paired rounds.** Round j plays the j-th dice once for each open candidate still
  in the running, so every comparison with the policy's pick is paired (the same dice, the
  same guesses). Candidates open one more every ``WIDEN_EVERY`` rounds (progressive widening,
  ``MIN_OPEN`` from the start), in the adapter's order: the rollout policy's own pick first
  (so the search can only improve on it), then its runners-up (templates by the heuristic's
  score of every template; continuous choices as evenly spaced points of the domain). A
  candidate that after ``PRUNE_AFTER`` rounds cannot plausibly beat the pick (successive
  rejection) leaves the running and makes room for the next; the search stops early when
  nothing is left that could.
* **Below the root.** An open-loop tree (``depth`` decisions deep; the hard level has none but
  in a Refuelled or Legacy race and in Capture the Flag),
  keyed by the choices made from the root: because the dice differ between rounds, a node
  keeps one table of candidates per decision it has met (player, kind, subject, options),
  selected by UCB1 from the deciding player's view (max^n for any number of players), with
  ``ceil(visits ** WIDEN)`` candidates open.
* **Rollouts and value.** Below the tree every player's decisions are taken by the ruleset's
  heuristic bot for ``horizon`` decisions (for its own seat the heuristic aiming for a higher
  gear, Refuelled's ``RefuelledAdapter.OWN_GEAR``); the hard level plays to the end of a
  game of Devil's Run, so its values are the games' outcomes: 1 a win, 0 a loss, 0.5 a draw
  (the Refuelled family's adapters give it a horizon: ``SearchAdapter.budget``). A
  position left unfinished is valued by a logistic of the player's lead over its best rival
  (``lead_values``; in a team game, the best seat of another side) in the scenario's points
  and progress towards its goal (distance along the bot's distance field), speed (gear),
  hazards held and hull left (Refuelled), or chassis points, position up the road, chassis
  tokens and the race to the stash (Devil's Run).
* **The answer** is the policy's pick unless another candidate beats it, over the rounds both
  played, by more than ``MARGIN`` on average and by more than ``CONFIDENCE`` standard errors of
  that paired mean, over at least ``MIN_VISITS`` rounds; where the level says so
  (``Level.corrected``: the hard level in a race, in Capture the Flag and in The Devil's Run),
  by more standard errors the more candidates were tested (``confidence_for``), so that one
  of many does not win by luck.
* **Budget.** Iterations (reproducible from the bot's seed) and, optionally, seconds (a time
  limit, which is not reproducible). The limit holds: no simulation starts that, if as slow
  as the slowest so far, would end past it, and one that is still running when it passes is
  abandoned (not counted), so a decision overruns it by at most one rollout step. The levels:
  ``easy``, ``normal`` and ``hard``; a ruleset's adapter may set its own simulations,
  horizon, depth, candidates and bar of a level (``SearchAdapter.budget``, ``SearchBot.budget``;
  the caller's ``iterations`` and ``horizon`` still win; the time limit is the level's). A
  decision with one option, or one the adapter says is not worth searching (Refuelled: grid places,
  whom to shoot), is answered by the policy at once.
* **Never illegal.** The answer is always a validated candidate (options are the decision's
  own values; points are clamped into the domain); anything else falls back to the policy.

``SearchBot.explanations`` keeps, for each decision it searched, the candidates it weighed
with their visits and mean values (``Explanation``): the table shows them, first its short
reason in plain words (``Explanation.reason``: "won 14 of 22 playouts, next best 9 of 21" when
every playout was played to the end, else each one's mean value; and whether it kept the
rollout policy's pick, its first instinct, or beat it on the same dice). A root candidate
counts its playouts that reached the game's end and those it won (``Weighed.ended``, ``won``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from typing import Any

from carnage.ai.determinise import determinise
from carnage.kernel.contract import PlayableGame
from carnage.kernel.decisions import Decision, IllegalChoice
from carnage.kernel.dice import SeededDice
from carnage.kernel.game import KernelGame
from carnage.kernel.ruleset import Ruleset
from carnage.kernel.search import Policy, SearchAdapter, SearchAdapterFactory

Choice = str | int | float

UCB_C = 0.7
"""Exploration constant of UCB1 (values are in [0, 1])."""
WIDEN = 0.35
"""Progressive widening: a table visited n times has ceil(n ** WIDEN) candidates open."""
MARGIN = 0.04
"""At the root, another candidate replaces the policy's pick only if it does better than the
pick by this much on average over the simulations they share dice in (dice make values noisy;
the policy's pick is the prior)..."""
CONFIDENCE = 1.0
"""... and by more than this many standard errors of that mean gain ..."""
MIN_VISITS = 8
"""... over at least this many such paired simulations."""
PRUNE_AFTER = 4
"""Paired simulations after which a candidate that cannot plausibly reach ``MARGIN`` leaves
the running (its mean gain plus ``PRUNE_Z`` standard errors falls short): a candidate that
played out exactly like the pick in its first simulations is dropped, and its budget goes to
the next."""
PRUNE_Z = 2.0
WIDEN_EVERY = 2
"""Progressive widening at the root: one more candidate opens every this many rounds."""
MIN_OPEN = 2
"""Candidates open from the first visit: the policy's pick and one alternative."""
INTERVAL_POINTS = 9
"""Evenly spaced points of a continuous domain offered as candidates (besides the policy's)."""
MAX_EXPLAINED = 200
"""Explanations a bot keeps (the latest)."""


@dataclass(frozen=True)
class Level:
    """A difficulty: how much the bot searches per decision."""

    name: str
    iterations: int
    """Simulations per decision."""
    seconds: float | None
    """A time limit per decision (None: iterations only, reproducible)."""
    horizon: int
    """Decisions a rollout plays below the tree before the position is valued."""
    depth: int
    """Decisions deep the tree may grow below the root."""
    candidates: int = 8
    """Candidates weighed at most (the adapter's first: the policy's pick and its runners-up)."""
    corrected: bool = False
    """At the root, the test a candidate must pass to replace the policy's pick is corrected
    for how many were tested (``confidence_for``): with more of them, one beats the pick by
    luck more often."""


LEVELS: dict[str, Level] = {
    "easy": Level("easy", iterations=12, seconds=0.25, horizon=10, depth=1, candidates=4),
    "normal": Level("normal", iterations=32, seconds=0.5, horizon=40, depth=1, candidates=6),
    "hard": Level("hard", iterations=48, seconds=0.8, horizon=400, depth=0, candidates=5),
}


@dataclass(frozen=True)
class Weighed:
    """One candidate the bot weighed: its value, label, visits and mean value (0..1, for the
    player deciding; 1 = a sure win)."""

    choice: Choice
    label: str
    visits: int
    value: float
    ended: int = 0
    """Of its simulations at the root, those played to the game's end ..."""
    won: int = 0
    """... and those the deciding player won."""

    def to_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "label": self.label, "visits": self.visits,
                "value": round(self.value, 4), "ended": self.ended, "won": self.won}

    def record(self, short: bool = False) -> str:
        """Its playouts in plain words: "won 14 of 22 playouts" when every one was played to
        the end, else its mean value ("scored 64% over 22 playouts"); ``short``: "14 of 22",
        "64% over 22"."""
        if self.visits and self.ended == self.visits:
            return (f"{self.won} of {self.visits}" if short
                    else f"won {self.won} of {self.visits} playouts")
        pct = f"{self.value * 100:.0f}%"
        return f"{pct} over {self.visits}" if short else f"scored {pct} over {self.visits} playouts"


@dataclass(frozen=True)
class Explanation:
    """Why the bot chose what it did: every candidate weighed, best first."""

    decision: int
    """How many choices the game had seen when it was asked (its index in ``game.choices``)."""
    player: int
    kind: str
    vehicle: str | None
    chosen: Choice
    iterations: int
    seconds: float
    candidates: tuple[Weighed, ...]
    level: str
    failed: int = 0
    """Simulations that raised (their value was not counted)."""
    late: int = 0
    """Simulations abandoned because the time limit ran out in them (not counted)."""
    pick: Choice | None = None
    """The rollout policy's own pick (its first instinct; None: not known)."""

    def to_json(self) -> dict[str, Any]:
        return {"decision": self.decision, "player": self.player, "kind": self.kind,
                "vehicle": self.vehicle, "chosen": self.chosen, "level": self.level,
                "iterations": self.iterations, "seconds": round(self.seconds, 4),
                "failed": self.failed, "late": self.late, "reason": self.reason(),
                "candidates": [c.to_json() for c in self.candidates]}

    def reason(self) -> str:
        """Why, in one short plain sentence: the chosen candidate's playouts against the next
        best's ("won 14 of 22 playouts, next best 9 of 21"), and whether it kept its first
        instinct or beat it; "answered at once" when nothing was weighed."""
        chosen = next((c for c in self.candidates if _same(c.choice, self.chosen)), None)
        if self.iterations == 0 or chosen is None or chosen.visits == 0:
            return "answered at once: nothing worth weighing"
        others = [c for c in self.candidates if c is not chosen and c.visits > 0]
        text = chosen.record()
        if not others:
            return text
        rival = max(others, key=lambda c: (c.value, c.visits))
        text += f", next best {rival.record(short=True)}"
        if self.pick is None:
            return text
        if not _same(self.chosen, self.pick):
            return text + "; it beat its first instinct on the same dice"
        if rival.value > chosen.value:
            return text + "; kept its first instinct: the gap was within the dice's luck"
        return text

    def lines(self, limit: int = 6) -> list[str]:
        """The explanation in plain words, one candidate a line."""
        head = (f"search ({self.level}) weighed {len(self.candidates)} choices for {self.kind} "
                f"in {self.iterations} simulations ({self.seconds * 1000:.0f} ms):")
        out = [head, f"  {self.reason()}"]
        for c in self.candidates[:limit]:
            mark = "*" if c.choice == self.chosen and type(c.choice) is type(self.chosen) else " "
            out.append(f" {mark} {c.label}: {c.value * 100:.0f}% from {c.visits} simulations")
        if len(self.candidates) > limit:
            out.append(f"   ... and {len(self.candidates) - limit} more")
        return out


# -- the tree ------------------------------------------------------------------------------------
Sig = tuple[Any, ...]


@dataclass
class _Table:
    """The candidates of one decision met at a node, with their statistics."""

    player: int
    choices: list[Choice]
    labels: list[str]
    n: list[int]
    w: list[float]
    children: list[_Node | None]
    visits: int = 0
    tries: list[int] = field(default_factory=list)
    """Simulations started per candidate (the dice of the j-th are the same for every one)."""
    samples: list[dict[int, float]] = field(default_factory=list)
    """Root only: each candidate's value in its j-th simulation, by j."""
    ended: list[int] = field(default_factory=list)
    """Root only: each candidate's simulations played to the game's end ..."""
    won: list[int] = field(default_factory=list)
    """... and those the deciding player won."""

    def open_count(self) -> int:
        k = max(MIN_OPEN, math.ceil(math.pow(max(1, self.visits), WIDEN)))
        return min(len(self.choices), k)

    def select(self) -> int:
        k = self.open_count()
        for i in range(k):
            if self.n[i] == 0:
                return i
        log_n = math.log(self.visits)
        best, best_i = -math.inf, 0
        for i in range(k):
            u = self.w[i] / self.n[i] + UCB_C * math.sqrt(log_n / self.n[i])
            if u > best:
                best, best_i = u, i
        return best_i


@dataclass
class _Node:
    tables: dict[Sig, _Table] = field(default_factory=dict)


def signature(d: Decision) -> Sig:
    """What makes two decisions the same question (for the open-loop tree)."""
    if d.domain is not None:
        dom: Any = (round(d.domain.low, 3), round(d.domain.high, 3))
    else:
        dom = tuple(o.value for o in d.options)
    return (d.player, d.kind, d.vehicle, d.target, d.weapon, dom)


# -- rulesets: rollout policy, candidate order and value -----------------------------------------
class Adapter:
    """What the search needs to know of a ruleset: its rollout policy, how to order a
    decision's candidates, how to value a position, and how to give a copy fresh dice."""

    def __init__(self, policy: Policy, players: int) -> None:
        self.policy = policy
        self.players = players
        self.me = -1
        """The player the bot searches for (set for each decision)."""

    def ordered(self, game: Any, d: Decision, rng: random.Random) -> list[tuple[Choice, str]]:
        """Candidates, the policy's pick first, each with a label."""
        pick = _safe_pick(self.policy, game, d, rng)
        if d.domain is not None:
            return _interval_candidates(d, pick)
        out: list[tuple[Choice, str]] = [(o.value, o.label or str(o.value)) for o in d.options]
        out.sort(key=lambda t: 0 if _same(t[0], pick) else 1)
        return out

    def worth_searching(self, game: Any, d: Decision) -> bool:
        """Is ``d`` worth the search's time? (No: the policy answers at once.)"""
        return True

    def values(self, game: Any) -> list[float]:
        """Each player's value of the position (0..1)."""
        out = game.outcome()
        if out is not None:
            return outcome_values(out, self.players)
        return [0.5] * self.players

    def budget(self, level: str, game: Any) -> Mapping[str, int]:
        """The ruleset's own settings of the level named ``level`` for ``game`` (none here:
        the level's)."""
        return {}

    @staticmethod
    def redeal(game: Any, seed: int) -> None:
        """Give the copy its own dice (the bot's, never the real ones)."""
        game.dice = CallDice(seed)


class CallDice(SeededDice):
    """The simulations' dice: the k-th roll of a copy depends only on the seed and k, so two
    lines of play that roll a different number of dice at one moment still share the luck of
    every later roll (common random numbers keep the candidates' comparison fair)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls = 0

    def roll(self, n: int, sides: int = 6) -> list[int]:
        if n < 0 or sides < 2:
            return super().roll(n, sides)  # the same errors as any dice
        r = random.Random(int(self.seed) * 1_000_003 + self.calls)
        self.calls += 1
        self.rolled += n
        return [r.randint(1, sides) for _ in range(n)]

    def state(self) -> tuple[Any, ...]:
        return (self.calls, self.rolled)

    def restore(self, state: tuple[Any, ...]) -> None:
        self.calls, self.rolled = state

    def fork(self) -> CallDice:
        out = CallDice(int(self.seed))
        out.restore(self.state())
        return out


class PurposeDice(CallDice):
    """Simulated dice that key a roll by its purpose where the game names it
    (``kernel/dice.py`` ``KeyedDice``: Devil's Run names the rule, the turn and the vehicles of
    every roll): the i-th roll for one purpose in a copy depends only on the seed, the purpose
    and i. Two candidates whose lines of play rolled different dice before (a ram rolls totals,
    a plain move does not) still meet the same luck at the same event afterwards: the same
    evade roll of the same vehicle in the same turn, the same stash pick-up roll. Keyed by the
    call count alone (``CallDice``), one extra roll shifts every later one, and the paired
    comparison of the candidates turns into noise. A roll the game does not name is drawn as
    ``CallDice`` draws it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.keyed: dict[str, int] = {}

    def roll_for(self, key: str, n: int, sides: int = 6) -> list[int]:
        if n < 0 or sides < 2:
            return super().roll(n, sides)  # the same errors as any dice
        i = self.keyed.get(key, 0)
        self.keyed[key] = i + 1
        self.calls += 1
        self.rolled += n
        # A string seed is hashed by SHA-512: the same in every process (not ``hash()``).
        r = random.Random(f"{self.seed}|{key}|{i}")
        return [r.randint(1, sides) for _ in range(n)]

    def state(self) -> tuple[Any, ...]:
        return (self.calls, self.rolled, tuple(sorted(self.keyed.items())))

    def restore(self, state: tuple[Any, ...]) -> None:
        self.calls, self.rolled, keyed = state
        self.keyed = dict(keyed)

    def fork(self) -> PurposeDice:
        out = PurposeDice(int(self.seed))
        out.restore(self.state())
        return out


def outcome_values(out: Any, players: int) -> list[float]:
    if out.draw or out.winner is None:
        return [0.5] * players
    return [1.0 if p == out.winner else 0.0 for p in range(players)]


def _logistic(x: float) -> float:
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def lead_values(scores: Sequence[float], scale: float,
                sides: Sequence[Collection[int]] | None = None) -> list[float]:
    """Each player's value from the lead of its score over the best rival's: every other
    player, or with ``sides`` (``sides[p]``: the players on ``p``'s side, ``p`` too) every
    player of another side (a team game's allies are not rivals)."""
    out = []
    for p, s in enumerate(scores):
        side = sides[p] if sides is not None else (p,)
        others = [q for i, q in enumerate(scores) if i != p and i not in side]
        best = max(others) if others else 0.0
        out.append(0.05 + 0.9 * _logistic((s - best) / scale))
    return out


def adapter_for(game: PlayableGame, ruleset: Ruleset | None = None) -> SearchAdapter:
    """The adapter of ``ruleset``, by default the game's own (``game.ruleset``): what its
    ``Ruleset.search`` makes; a generic one that values only outcomes and plays random
    rollouts when it declares none. (A ruleset's bots may also hand the bot its adapter:
    ``SearchBot(adapter=...)``.)"""
    make = search_factory(game, ruleset)
    return make(game.players) if make is not None else Adapter(_random_policy, game.players)


def search_factory(game: Any, ruleset: Ruleset | None = None) -> SearchAdapterFactory | None:
    """The adapter factory ``ruleset`` declares (``Ruleset.search``), by default the game's
    ruleset's; None if it declares none or the game names no ruleset."""
    rs = ruleset if ruleset is not None else getattr(game, "ruleset", None)
    return rs.search if isinstance(rs, Ruleset) else None


def _random_policy(game: Any, d: Decision, rng: random.Random) -> Choice:
    if d.domain is not None:
        return rng.uniform(d.domain.low, d.domain.high)
    return rng.choice(d.options).value


def _safe_pick(policy: Policy, game: Any, d: Decision, rng: random.Random) -> Choice:
    try:
        return d.validate(policy(game, d, rng))
    except IllegalChoice:
        return _random_policy(game, d, rng)


def _same(a: Choice, b: Choice) -> bool:
    return a == b and type(a) is type(b)


def _interval_candidates(d: Decision, pick: Choice) -> list[tuple[Choice, str]]:
    assert d.domain is not None
    lo, hi = d.domain.low, d.domain.high
    unit = "°" if d.domain.unit == "deg" else f" {d.domain.unit}"
    pts: list[float] = []
    if isinstance(pick, int | float) and not isinstance(pick, bool):
        pts.append(min(hi, max(lo, float(pick))))
    n = INTERVAL_POINTS if hi > lo else 1
    for k in range(n):
        x = lo if n == 1 else lo + (hi - lo) * k / (n - 1)
        if all(abs(x - q) > 1e-6 for q in pts):
            pts.append(x)
    return [(x, f"{x:+.1f}{unit}") for x in pts]


# -- the bot -------------------------------------------------------------------------------------
class SearchBot:
    """Monte Carlo tree search (see the module docstring). ``level`` sets the budget;
    ``iterations``/``seconds`` override it (``seconds=None``: no time limit, so the choice is
    reproducible from ``seed``)."""

    def __init__(self, level: str = "normal", *, iterations: int | None = None,
                 seconds: float | str | None = "level", seed: int | str = 0,
                 horizon: int | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 adapter: SearchAdapterFactory | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown search level {level!r} (known: {', '.join(LEVELS)})")
        lv = LEVELS[level]
        self.level = lv
        self.name = f"search:{level}"
        self.iterations = lv.iterations if iterations is None else int(iterations)
        if self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        self.seconds: float | None = lv.seconds if seconds == "level" else (
            None if seconds is None else float(seconds))
        self.horizon = lv.horizon if horizon is None else int(horizon)
        self._given = {k: v for k, v in (("iterations", iterations), ("horizon", horizon))
                       if v is not None}
        """What the caller set, which the ruleset's own settings of the level never replace."""
        self._budgets: dict[tuple[tuple[str, int], ...], Level] = {}
        self.seed = seed
        self.clock = clock
        """What the time limit is measured on: the wall clock, or ``time.process_time`` to
        give each decision its seconds of this process's CPU on a shared machine."""
        self.explanations: list[Explanation] = []
        self._adapters: dict[tuple[SearchAdapterFactory | None, int], SearchAdapter] = {}
        self._make_adapter = adapter
        """The ruleset's adapter by players (None: the one the game's ruleset declares)."""

    @property
    def last(self) -> Explanation | None:
        return self.explanations[-1] if self.explanations else None

    def __call__(self, game: Any, decision: Decision, rng: random.Random) -> Choice:
        return self.choose(game, decision, rng)

    def adapter(self, game: PlayableGame) -> SearchAdapter:
        """The adapter it searches ``game`` with: the one it was given, else the one the
        game's ruleset declares (``Ruleset.search``), else the generic one; one per factory
        and number of players, kept from decision to decision."""
        make = self._make_adapter if self._make_adapter is not None else search_factory(game)
        key = (make, game.players)
        a = self._adapters.get(key)
        if a is None:
            a = make(game.players) if make is not None else Adapter(_random_policy, game.players)
            self._adapters[key] = a
        return a

    def budget(self, ad: SearchAdapter, game: Any) -> Level:
        """The level it searches ``game`` with: the level, with the settings the ruleset
        gives it there (``SearchAdapter.budget``: a Kart race, and Refuelled's scenarios other
        than a Street Race, play the hard level with a horizon), then what the caller set
        (``iterations``, ``horizon``) over both."""
        own = {k: int(v) for k, v in ad.budget(self.level.name, game).items()
               if k in ("iterations", "horizon", "depth", "candidates", "corrected")}
        key = tuple(sorted(own.items()))
        lv = self._budgets.get(key)
        if lv is None:
            got = {"iterations": self.iterations, "horizon": self.horizon, **own,
                   **self._given}
            lv = replace(self.level, iterations=got["iterations"], horizon=got["horizon"],
                         depth=got.get("depth", self.level.depth),
                         candidates=got.get("candidates", self.level.candidates),
                         corrected=bool(got.get("corrected", self.level.corrected)))
            self._budgets[key] = lv
        return lv

    def choose(self, game: Any, decision: Decision, rng: random.Random) -> Choice:
        """The best candidate found for ``decision`` (always legal). ``rng`` is not used: the
        bot draws from its own seed, so its choice depends on the game and the seed alone."""
        ad = self.adapter(game)
        ad.me = decision.player
        lv = self.budget(ad, game)
        index = len(getattr(game, "choices", ()))
        own = random.Random(f"search:{self.seed}:{index}:{decision.kind}:{decision.player}")
        started, wall = self.clock(), time.perf_counter()
        root = _Node()
        # A decision not worth the time has one candidate, the policy's pick: taken at once.
        table = self._table(ad, game, decision, own, lv,
                            None if ad.worth_searching(game, decision) else 1)
        root.tables[signature(decision)] = table
        failed = done = late = 0
        slowest = 0.0
        """The longest simulation so far: none starts that would, as long, pass the limit."""
        deadline = None if self.seconds is None else started + self.seconds
        alive = [True] * len(table.choices)
        j = 0
        frontier = 1
        """Candidates opened so far (in the adapter's order)."""
        while len(table.choices) > 1 and done < lv.iterations:
            # Round j: the first ``MIN_OPEN + j // WIDEN_EVERY`` candidates still in the
            # running each play the j-th dice (a pruned one makes room for the next).
            want, active, ran = MIN_OPEN + j // WIDEN_EVERY, 0, False
            for i in range(len(table.choices)):
                if active >= want:
                    break
                if not alive[i]:
                    continue
                active += 1
                frontier = max(frontier, i + 1)
                if done >= lv.iterations:
                    break
                if deadline is not None and done > 0:
                    now = self.clock()
                    if now + slowest >= deadline:
                        break
                else:
                    now = self.clock()
                outcome = self._iterate(ad, game, root, table, own, i, j, lv, deadline)
                if outcome == "late":
                    late += 1
                    break
                slowest = max(slowest, self.clock() - now)
                if outcome == "failed":
                    failed += 1
                done += 1
                ran = True
            if not ran or late:
                break
            j += 1
            _prune(table, alive)
            if not any(alive[1:]) and frontier == len(table.choices):
                break  # nothing is left that could beat the policy's pick
        best = self._best(table, lv.corrected)
        choice = table.choices[best]
        try:
            choice = decision.validate(choice)
        except IllegalChoice:  # never expected: candidates are the decision's own
            choice = _safe_pick(ad.policy, game, decision, own)
        self._explain(Explanation(
            decision=index, player=decision.player, kind=decision.kind,
            vehicle=decision.vehicle, chosen=choice, iterations=done,
            seconds=time.perf_counter() - wall,
            candidates=_weighed(table), level=self.level.name, failed=failed, late=late,
            pick=table.choices[0] if table.choices else None))
        return choice

    @staticmethod
    def guess_secrets(sim: Any, seat: int, rng: random.Random) -> None:
        """Before a copy is played: other seats' secrets become guesses (``determinise``)."""
        determinise(sim, seat, rng)

    # -- internals ---------------------------------------------------------------------------------
    def _explain(self, e: Explanation) -> None:
        self.explanations.append(e)
        if len(self.explanations) > MAX_EXPLAINED:
            del self.explanations[: len(self.explanations) - MAX_EXPLAINED]

    def _table(self, ad: SearchAdapter, game: Any, d: Decision, rng: random.Random,
               lv: Level, limit: int | None = None) -> _Table:
        cands = ad.ordered(game, d, rng)[: limit or lv.candidates]
        k = len(cands)
        return _Table(d.player, [c for c, _ in cands], [lbl for _, lbl in cands],
                      [0] * k, [0.0] * k, [None] * k, tries=[0] * k,
                      samples=[{} for _ in range(k)], ended=[0] * k, won=[0] * k)

    @staticmethod
    def _best(table: _Table, corrected: bool = False) -> int:
        """The candidate that beats the policy's pick (candidate 0) by the most, on average
        over the simulations both played with the same dice, if by more than ``MARGIN`` and
        by more than ``CONFIDENCE`` standard errors (``corrected``: ``confidence_for`` the
        candidates tested), over at least ``MIN_VISITS`` of them; else the pick."""
        tested = []
        for i in range(1, len(table.choices)):
            gain, se, n = paired(table, i)
            if n >= MIN_VISITS:
                tested.append((i, gain, se))
        z = confidence_for(len(tested)) if corrected else CONFIDENCE
        best_i, best_gain = 0, MARGIN
        for i, gain, se in tested:
            if gain - z * se > 0.0 and gain > best_gain:
                best_i, best_gain = i, gain
        return best_i

    def _iterate(self, ad: SearchAdapter, real: Any, root: _Node, table: _Table,
                 rng: random.Random, i: int, j_root: int, lv: Level,
                 deadline: float | None = None) -> str:
        """Simulation ``j_root`` of root candidate ``i``: ``"ok"``; ``"failed"`` if the
        simulated line raised, ``"late"`` if ``deadline`` (on ``self.clock``) passed during it
        (nothing is counted then). Every candidate's j-th simulation plays the same dice in
        the same guessed world (common random numbers)."""
        sim = playout_copy(real)
        table.tries[i] += 1
        world = hash_seed(self.seed, len(real.choices), j_root)
        self.guess_secrets(sim, table.player, random.Random(world))
        ad.redeal(sim, world)
        path: list[tuple[_Table, int]] = [(table, i)]
        try:
            sim.apply(table.choices[i])
            node = table.children[i]
            if node is None:
                node = table.children[i] = _Node()
            depth = 1
            # Down the tree while it has tables for the decisions met.
            while depth <= lv.depth and (d := sim.pending()) is not None:
                t = node.tables.get(signature(d))
                if t is None:
                    t = self._table(ad, sim, d, rng, lv)
                    node.tables[signature(d)] = t
                    j = t.select()
                    path.append((t, j))
                    sim.apply(t.choices[j])
                    break
                j = t.select()
                path.append((t, j))
                sim.apply(t.choices[j])
                child = t.children[j]
                if child is None:
                    child = t.children[j] = _Node()
                node = child
                depth += 1
            # Rollout with the policy.
            steps = 0
            clock = self.clock
            while steps < lv.horizon and (d := sim.pending()) is not None:
                sim.apply(_safe_pick(ad.policy, sim, d, rng))
                steps += 1
                if deadline is not None and clock() >= deadline:
                    return "late"
            values = ad.values(sim)
            ended = sim.pending() is None
        except Exception:  # a simulated line the engine could not play: count it as failed
            return "failed"
        for t, j in path:
            t.visits += 1
            t.n[j] += 1
            t.w[j] += values[t.player] if t.player < len(values) else 0.5
        mine = values[table.player] if table.player < len(values) else 0.5
        table.samples[i][j_root] = mine
        if ended:
            table.ended[i] += 1
            table.won[i] += 1 if mine == 1.0 else 0
        return "ok"


def paired(table: _Table, i: int) -> tuple[float, float, int]:
    """Candidate ``i`` against the policy's pick over the simulations both played with the
    same dice: the mean gain, its standard error and how many simulations."""
    base, mine = table.samples[0], table.samples[i]
    diffs = [mine[j] - base[j] for j in mine if j in base]
    n = len(diffs)
    if n == 0:
        return 0.0, math.inf, 0
    mean = sum(diffs) / n
    if n == 1:
        return mean, math.inf, 1
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    return mean, math.sqrt(var / n), n


def confidence_for(tested: int) -> float:
    """The standard errors a gain must clear when ``tested`` candidates were each compared
    with the policy's pick: one alone, ``CONFIDENCE``; more, so that any of them clears it
    no more often than one alone does by luck when none is better (Bonferroni's correction:
    the one-sided tail beyond ``CONFIDENCE`` shared among them)."""
    if tested <= 1:
        return CONFIDENCE
    tail = 1.0 - NormalDist().cdf(CONFIDENCE)
    return NormalDist().inv_cdf(1.0 - tail / tested)


def _prune(table: _Table, alive: list[bool]) -> None:
    """Successive rejection: a candidate that, after ``PRUNE_AFTER`` paired simulations,
    cannot plausibly beat the policy's pick by ``MARGIN`` (its gain plus ``PRUNE_Z``
    standard errors falls short) leaves the running, and the next one opens sooner."""
    for i in range(1, len(table.choices)):
        if not alive[i]:
            continue
        gain, se, n = paired(table, i)
        if n >= PRUNE_AFTER and gain + PRUNE_Z * se < MARGIN:
            alive[i] = False


def playout_copy(game: Any) -> Any:
    """A copy of ``game`` to play out and throw away: lazy for a kernel game (a copy played
    out is never copied again, so its checkpoints need no copies), else a whole copy."""
    return game.clone(lazy=True) if isinstance(game, KernelGame) else game.clone()


def hash_seed(*parts: Any) -> int:
    """A stable 63-bit seed from ``parts`` (not Python's salted ``hash``)."""
    return random.Random(":".join(str(p) for p in parts)).getrandbits(63)


def _weighed(table: _Table) -> tuple[Weighed, ...]:
    rows = [Weighed(c, table.labels[i], table.n[i], table.w[i] / table.n[i] if table.n[i] else 0.0,
                    ended=table.ended[i] if table.ended else 0,
                    won=table.won[i] if table.won else 0)
            for i, c in enumerate(table.choices)]
    tried = [r for r in rows if r.visits > 0] or rows[:1]
    tried.sort(key=lambda r: (-r.visits, -r.value))
    return tuple(tried)


def make_search_bot(spec: str, seed: int | str = 0,
                    adapter: SearchAdapterFactory | None = None) -> SearchBot:
    """``search`` (normal), ``search:easy``, ``search:normal`` or ``search:hard``; ``adapter``:
    the ruleset's own (None: the one the game's ruleset declares)."""
    _, _, level = spec.partition(":")
    return SearchBot(level or "normal", seed=seed, adapter=adapter)


def search_bots(adapter: SearchAdapterFactory | None = None
                ) -> dict[str, Callable[[], SearchBot]]:
    """The search bot at each level by name (``search`` is the normal level), for a
    ruleset's bot registry; ``adapter``: the ruleset's own."""
    def factory(spec: str) -> Callable[[], SearchBot]:
        return lambda: make_search_bot(spec, adapter=adapter)

    return {spec: factory(spec) for spec in
            ("search", *(f"search:{level}" for level in LEVELS))}
