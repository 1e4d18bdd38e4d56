"""Devil's Run bots: ``choose(game, decision, rng) -> choice``.

``random_bot`` picks any legal option. ``heuristic_bot`` plays the mission: it spends both action
points (moves, then shoots or grabs the stash), rams, swipes and T-bones when the expected totals
(weighed by the target's evade and by a wreck on either side) beat a move and a shot, races the
stash onto a fresh tile in The Devil's Run and hunts chassis tokens in Hell on Wheels.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.data import Square
from carnage.games.devilsrun.game import OFFENSIVE, STEPS, DevilsRunGame, Plan
from carnage.games.devilsrun.state import RUNNING, WRECK, VehicleState
from carnage.kernel.decisions import Decision

Choice = str | int
Bot = Callable[[DevilsRunGame, Decision, random.Random], Choice]


def random_bot(game: DevilsRunGame, decision: Decision, rng: random.Random) -> Choice:
    return rng.choice(decision.options).value


WRECK_BONUS = 3.0
"""Added to an offensive move's gain when the expected damage dealt wrecks the target."""
WRECKED_PENALTY = 6.0
"""Taken from an offensive move's gain when the expected damage taken wrecks the attacker:
a wreck is not an active vehicle (DRR-33), and a gang with none loses The Devil's Run."""
OFFENCE_THRESHOLD = 1.0
"""The least expected gain for which an offensive move (both action points) is preferred to a
Peddle to the Metal, which leaves the second point for a shot or a pick-up."""


def _plan_gain(game: DevilsRunGame, v: VehicleState, kind: str, plan: Plan) -> float:
    """Expected chassis damage dealt minus taken (each D3 averages 2), with a bonus for wrecking
    the target or for hitting the stash carrier and a penalty for wrecking oneself, scaled by
    the chance that the target fails its evade (D10 over E); negative when the target is a
    friend."""
    t = game.vehicle(plan.target)
    va, vt = B.vtype(v), B.vtype(t)
    if kind == "side_swipe":
        diff = (va.a + v.cp) - (vt.a + t.cp)
        dealt, taken = max(diff, 0), max(-diff, 0)
    elif kind == "ram_on_the_brakes":
        dealt, taken = plan.moved + va.a + 2, vt.a + 2
    else:
        diff = plan.moved + va.a - vt.a
        dealt, taken = max(diff, 0), max(-diff, 0)
    gain: float = dealt - taken
    if t.player == v.player:
        return -abs(gain) - 5
    if dealt >= t.cp:
        gain += WRECK_BONUS
    if taken >= v.cp:
        gain -= WRECKED_PENALTY
    if t.carrying:
        gain += 4
    return gain * (1 - vt.e / 10)


def _best_offence(game: DevilsRunGame, v: VehicleState, kind: str) -> float:
    mm = B.vtype(v).mm
    plans = game._plans(v, kind, mm + 2, 2, False)
    return max((_plan_gain(game, v, kind, p) for p in plans.values()), default=-99.0)


def _goal(game: DevilsRunGame, v: VehicleState) -> Square | None:
    st = game.state
    if st.mission == "devils-run":
        s = st.stash
        if s.status == "placed" and s.pos is not None and not v.missed_stash:
            return s.pos
        if s.status == "carried" and s.carrier is not None and not v.carrying:
            c = game.vehicle(s.carrier)
            if c.player != v.player and c.pos is not None:
                return (c.pos[0], c.pos[1] - 1)
        return None
    enemies = [u for u in st.vehicles.values() if u.status == RUNNING and u.player != v.player]
    if not enemies or v.pos is None:
        return None
    p = v.pos
    e = min(enemies, key=lambda u: B.chebyshev(p, u.pos or p))
    assert e.pos is not None
    return (e.pos[0], e.pos[1] - 2)


def _square_score(game: DevilsRunGame, v: VehicleState, sq: Square) -> float:
    st = game.state
    f = B.feature(st, sq)
    score = 0.0
    if f == "impassable":
        score -= 100
    elif f == "debris" and "rough_rider" not in B.vtype(v).skills:
        score -= 2
    if B.wreck_at(st, sq):
        score -= 4
    goal = _goal(game, v)
    if goal is not None:
        score -= 1.5 * B.chebyshev(sq, goal)
        near = B.chebyshev(sq, goal) <= 1
        if st.mission == "devils-run" and st.stash.status == "placed" and near:
            score += 6
    score += 0.5 * sq[1]
    if not (1 <= sq[0] <= 6):
        score -= 0.5
    return score


def heuristic_bot(game: DevilsRunGame, decision: Decision, rng: random.Random) -> Choice:
    st = game.state
    kind = decision.kind
    values = [o.value for o in decision.options]
    me = decision.player
    if kind == "first_player":
        return me
    if kind == "keep_d3":
        return max(int(x) for x in values)
    if kind == "evade":
        return "evade"
    if kind == "second_action":
        for pref in ("pickup", "shoot", "pass"):
            if pref in values:
                return pref
    if kind == "deploy":
        return max(values, key=lambda val: _deploy_y(game, str(val)))
    if kind == "activate":
        return _pick_activation(game, [str(x) for x in values])
    if kind == "shoot_target":
        act = st.act
        assert act is not None
        tg = {tid: (m, d) for tid, m, d in game.weapon_targets(act.vid, act.weapon)}
        real = [x for x in values if x != "hold"]

        def shot_value(tid: str) -> tuple[int, int]:
            t = game.vehicle(tid)
            return (tg[tid][0] + (3 if t.carrying else 0), -t.cp)

        return max(real, key=lambda x: shot_value(str(x))) if real else "hold"
    if kind == "action":
        assert st.act is not None
        return _action(game, game.vehicle(st.act.vid), values, OFFENCE_THRESHOLD)
    if kind == "offensive_target":
        assert st.act is not None
        v = game.vehicle(st.act.vid)
        plans = game.plans()
        return max(values, key=lambda k: _plan_gain(game, v, st.act.action if st.act else "",
                                                    plans[str(k)]))
    if kind == "step":
        assert st.act is not None
        v = game.vehicle(st.act.vid)
        assert v.pos is not None
        here = _square_score(game, v, v.pos)
        best_val: Choice = values[0]
        best_score = -1e9
        for val in values:
            if val == "stop":
                s = here + 0.25
            else:
                vec = STEPS[str(val)]
                s = _square_score(game, v, (v.pos[0] + vec[0], v.pos[1] + vec[1]))
            if s > best_score:
                best_val, best_score = val, s
        return best_val
    if kind == "stash_square":
        own = [u.pos for u in st.vehicles.values()
               if u.status == RUNNING and u.player == me and u.pos is not None]

        def near(val: str) -> int:
            return min((B.chebyshev(_square(val), p) for p in own), default=0)

        return min(values, key=lambda x: near(str(x)))
    return values[0]


def _action(game: DevilsRunGame, v: VehicleState, values: list[Choice],
            threshold: float) -> Choice:
    """A move for ``v``: repair a wreck; a carrier peddles on; else the offensive move of the
    best expected gain if it beats ``threshold``, or Peddle to the Metal."""
    if v.status == WRECK:
        return "repair" if "repair" in values else "pass"
    best, best_gain = "peddle", threshold
    if v.carrying:
        return "peddle"
    for k in OFFENSIVE:
        if k in values:
            g = _best_offence(game, v, k)
            if g > best_gain:
                best, best_gain = k, g
    return best


RACING_OFFENCE_THRESHOLD = 3.0
"""``racing_bot``'s least expected gain for an offensive move (the heuristic bot's is
``OFFENCE_THRESHOLD``): a ram spends the action point a pick-up needs."""


def racing_bot(game: DevilsRunGame, decision: Decision, rng: random.Random) -> Choice:
    """The heuristic bot raced harder for the stash: the search bot's own rollout policy and
    first instinct in Devil's Run (``search.py``; the other gang is modelled by the plain
    heuristic bot, which is what it plays). Six changes, measured in games against the
    heuristic bot (docs/performance.md, "The Devil's Run: the search's own policy and dice
    keyed by purpose"):

    * a vehicle that has driven past the stash BRAKEs back to it when the brake's move
      (movement modifier plus a D3, DR-072) can end next to it, and picks it up (DR-107);
    * while the stash lies on the road, the vehicle activated first is one that can end its
      move next to it;
    * an offensive move (both action points) must be worth ``RACING_OFFENCE_THRESHOLD``;
    * it keeps the D3 that brings a brake to the stash (a bike rolls two, DR-047);
    * winning the deployment roll-off, it takes the set of deployment squares further up the
      road (the heuristic bot takes the first offered);
    * evading, it moves to the square the heuristic bot would rather drive to (the heuristic
      bot takes the first offered).
    """
    st = game.state
    kind = decision.kind
    if kind == "deploy_side":
        return max((o.value for o in decision.options), key=lambda side: _side_rows(game, side))
    if kind == "evade_square" and st.act is not None and st.act.target is not None:
        t = game.vehicle(st.act.target)
        return max((o.value for o in decision.options),
                   key=lambda sq: _square_score(game, t, _square(str(sq))))
    if kind == "keep_d3" and st.act is not None and st.act.action == "brake":
        v = game.vehicle(st.act.vid)
        if _brakes_to_stash(game, v) and v.pos is not None and st.stash.pos is not None:
            past = v.pos[1] - st.stash.pos[1] - B.vtype(v).mm
            return min((int(o.value) for o in decision.options), key=lambda d3: abs(past - d3))
    if kind == "action" and st.act is not None:
        values = [o.value for o in decision.options]
        v = game.vehicle(st.act.vid)
        if "brake" in values and _brakes_to_stash(game, v):
            return "brake"
        return _action(game, v, values, RACING_OFFENCE_THRESHOLD)
    if kind == "activate" and st.stash.status == "placed" and st.stash.pos is not None:
        vids = [str(o.value) for o in decision.options]
        return min(vids, key=lambda vid: _rows_off_stash(game, game.vehicle(vid)))
    return heuristic_bot(game, decision, rng)


def _brakes_to_stash(game: DevilsRunGame, v: VehicleState) -> bool:
    """Whether ``v`` is past the stash on the road, in its lane or the next, by as many rows
    as a brake (movement modifier plus 1 to 3) can take it back to one beside it."""
    s = game.state.stash
    if (v.status != RUNNING or v.carrying or v.missed_stash or s.status != "placed"
            or s.pos is None or v.pos is None):
        return False
    past = v.pos[1] - s.pos[1]
    mm = B.vtype(v).mm
    return abs(v.pos[0] - s.pos[0]) <= 1 and mm <= past <= mm + 4


def _side_rows(game: DevilsRunGame, side: Choice) -> int:
    """How far up the road the deployment squares of ``side`` (letters or numbers) lie, in
    rows added up (DR-013)."""
    lay = B.layout(game.state, game.state.tiles[0])
    return sum(r for label, (_, r) in lay.deploy.items()
               if label.isdigit() == (side == "numbers"))


def _square(value: str) -> Square:
    """A square from a decision's value ``"x,y"``."""
    x, y = (int(c) for c in value.split(","))
    return (x, y)


def _rows_off_stash(game: DevilsRunGame, v: VehicleState) -> int:
    """Rows by which a forward move of ``v`` (movement modifier plus 1 to 3) falls short of
    ending beside the stash, or overshoots it: 0 when it can end beside it; 99 for a vehicle
    that cannot take it (a wreck, or one that missed its chance)."""
    s = game.state.stash
    if v.status != RUNNING or v.pos is None or v.missed_stash or s.pos is None:
        return 99
    ahead = s.pos[1] - v.pos[1]
    mm = B.vtype(v).mm
    return 0 if mm - 1 <= ahead <= mm + 3 else abs(ahead - mm - 1)


def _deploy_y(game: DevilsRunGame, val: str) -> int:
    vid, label = val.split("@")
    v = game.vehicle(vid)
    return game._deploy_squares(v.player)[label][1]


def _pick_activation(game: DevilsRunGame, vids: list[str]) -> str:
    def key(vid: str) -> tuple[int, float]:
        v = game.vehicle(vid)
        if v.status == WRECK:
            return (0, 0.0)
        gain = max(_best_offence(game, v, k) for k in OFFENSIVE)
        return (1, gain + (5 if v.carrying else 0))

    return max(vids, key=key)


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}


@dataclass(frozen=True)
class NamedBot:
    """One of the bot functions above as a controller with a name and ``choose``
    (``kernel/contract.py`` ``Bot``): what the ruleset's bot registry hands out."""

    name: str
    fn: Bot

    def choose(self, game: DevilsRunGame, decision: Decision, rng: random.Random) -> Choice:
        return self.fn(game, decision, rng)

    def __call__(self, game: DevilsRunGame, decision: Decision, rng: random.Random) -> Choice:
        return self.fn(game, decision, rng)


def named_bot(name: str) -> Callable[[], NamedBot]:
    """A factory of the bot function ``name`` (``ValueError`` naming the known ones)."""
    fn = bot(name)
    return lambda: NamedBot(name, fn)


def bot(name: str) -> Bot:
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})") from None


def play_out(game: DevilsRunGame, bots: list[Bot], rng: random.Random,
             max_choices: int = 20_000) -> DevilsRunGame:
    """Let the bots (one per player) finish the game."""
    for _ in range(max_choices):
        d = game.pending()
        if d is None:
            return game
        game.apply(bots[d.player](game, d, rng))
    raise RuntimeError(f"game did not finish within {max_choices} choices")
