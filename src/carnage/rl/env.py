"""Gaslands: Refuelled as a PettingZoo AEC environment (``carnage.rl.env``).

Agents are the seats (``seat_0``, ``seat_1``, ...); the agent to act is the player of the
game's pending decision. The action space is ``Discrete(MAX_ACTIONS)`` with an action mask
over the pending decision's options (action i = option i); a continuous choice (a spin or a
pivot: an ``Interval``) is discretised into ``INTERVAL_STEPS`` evenly spaced points from its
low to its high end. The observation is a dict of ``observation`` (a fixed-size float32
vector, laid out below and in ``docs/rl.md``) and ``action_mask`` (int8, 1 = legal).
Rewards: +1 to the winner, -1 to every other seat, 0 to all on a draw, given when the game
ends (every agent is then terminated). The dice come from the environment's seed.

Observation layout (every value scaled to about [-1, 1]; the vector is clipped to [-2, 2]):

* global (``GLOBAL``): round / max rounds, gear phase / 6, 1 if this agent is to decide, 1 if
  the decision is continuous, its low and high ends / 180, options / MAX_ACTIONS, then a
  one-hot of the decision kind over ``KINDS`` (the last entry: any other kind).
* ``MAX_VEHICLES`` vehicle slots of ``VEHICLE`` values each, the agent's own vehicles first,
  then the others by seat after this one, each in id order: present, own, in play, x / table
  width, y / table height, cos and sin of the heading, gear / 6, hazards / 6, hull points left
  / 20, hull points left / hull, the decision is about it, it is its target, length / 100 mm,
  width / 100 mm, and the goal line's two ends (x / width, y / height) from the scenario (0
  when it has none).
* ``MAX_OBSTACLES`` obstacle slots of ``OBSTACLE`` values each, in id order: present, x, y,
  cos and sin of the heading, length / 100 mm, width / 100 mm, tall.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from carnage.kernel.contract import PlayableGame
from carnage.kernel.decisions import Decision

MAX_ACTIONS = 128
"""Size of the action space; a decision with more options offers only the first ones."""
INTERVAL_STEPS = 13
"""Points a continuous choice is discretised into (both ends included)."""
MAX_VEHICLES = 8
MAX_OBSTACLES = 24
KINDS = ("activate", "deploy", "grid", "template", "skid_dice", "push_it", "spend_shift",
         "slide", "spin", "attack", "collision_reaction", "lose_control", "spend_votes",
         "vote_target", "effect_order")
GLOBAL = 7 + len(KINDS) + 1
VEHICLE = 20
OBSTACLE = 8
OBS_SIZE = GLOBAL + MAX_VEHICLES * VEHICLE + MAX_OBSTACLES * OBSTACLE
CLIP = 2.0


def action_values(d: Decision) -> list[Any]:
    """The choice each action stands for, in action order (the legal actions are
    ``range(len(action_values(d)))``)."""
    if d.domain is not None:
        lo, hi = d.domain.low, d.domain.high
        if hi <= lo:
            return [lo]
        return [lo + (hi - lo) * k / (INTERVAL_STEPS - 1) for k in range(INTERVAL_STEPS)]
    return [o.value for o in d.options[:MAX_ACTIONS]]


def env(ruleset: str = "refuelled", scenario: str = "street-race", teams: Any = None,
        seed: int | None = None, max_rounds: int | None = None,
        render_mode: str | None = None) -> CarnageEnv:
    """A PettingZoo AEC environment of a game of ``ruleset`` and ``scenario`` (a Street Race
    by default) with ``teams`` (team files, one per player; None: the scenario's own) and dice
    from ``seed`` (None: 0 at the first reset). ``max_rounds``: a game still running after
    that many rounds is a draw (the ruleset's default when None)."""
    return CarnageEnv(ruleset=ruleset, scenario=scenario, teams=teams, seed=seed,
                      max_rounds=max_rounds, render_mode=render_mode)


class CarnageEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """See the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "carnage_v0",
                                          "is_parallelizable": False}

    def __init__(self, ruleset: str = "refuelled", scenario: str = "street-race",
                 teams: Any = None, seed: int | None = None, max_rounds: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if ruleset != "refuelled":
            raise ValueError(f"ruleset {ruleset!r}: the environment's observation is defined "
                             "for Refuelled's table games (ruleset 'refuelled')")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: known modes are 'ansi' or None")
        self.ruleset, self.scenario = ruleset, scenario
        self.teams = list(teams) if teams else []
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self._next_seed = 0 if seed is None else int(seed)
        self.game: PlayableGame = self._new_game(self._next_seed)  # checks the arguments now
        players = self.game.players
        self.possible_agents = [f"seat_{p}" for p in range(players)]
        obs_box = spaces.Box(-CLIP, CLIP, shape=(OBS_SIZE,), dtype=np.float32)
        mask_box = spaces.Box(0, 1, shape=(MAX_ACTIONS,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs_box, "action_mask": mask_box})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(MAX_ACTIONS) for a in self.possible_agents}
        self.agents: list[str] = []

    # -- PettingZoo API ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._next_seed = int(seed)
        self.seed_used = self._next_seed
        self.game = self._new_game(self._next_seed)
        self._next_seed += 1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        return {"observation": self._observation(seat), "action_mask": self._mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self.game.pending()
        assert d is not None, "a live agent always has a pending decision"
        values = action_values(d)
        if action is None or isinstance(action, bool | np.bool_) or not (
                0 <= int(action) < len(values)):
            raise ValueError(f"action {action!r} is not legal for {d.kind}: the legal actions "
                             f"are 0 to {len(values) - 1} (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(values[int(action)])
        self._clear_rewards()
        out = self.game.outcome()
        if out is not None:
            for a in self.agents:
                p = self.possible_agents.index(a)
                won = not out.draw and out.winner is not None
                self.rewards[a] = 0.0 if not won else (1.0 if p == out.winner else -1.0)
                self.terminations[a] = True
                self.infos[a] = {"outcome": out.reason, "winner": out.winner}
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        table: Any = self.game  # the observation and the text read Refuelled's table
        st = table.state
        d = self.game.pending()
        lines = [f"round {st.round}, gear phase {st.gear_phase}"
                 + ("" if d is None else f"; seat {d.player + 1} decides {d.kind}")]
        for v in st.vehicles.values():
            lines.append(f"  {v.name}: seat {v.player + 1}, ({v.pose.x:.0f}, {v.pose.y:.0f}) "
                         f"{v.pose.heading:.0f}°, gear {v.gear}, hazards {v.hazards}, "
                         f"hull {v.hull_points}/{v.hull}, {v.status}")
        return "\n".join(lines)

    def close(self) -> None:
        return None

    # -- internals -----------------------------------------------------------------------------
    def _new_game(self, seed: int) -> PlayableGame:
        from carnage.rulesets import get_ruleset

        opts: dict[str, Any] = {}
        if self.max_rounds is not None:
            opts["max_rounds"] = int(self.max_rounds)
        return get_ruleset(self.ruleset).new_game(scenario=self.scenario, teams=self.teams,
                                                  seed=seed, **opts)

    def _select(self) -> None:
        d = self.game.pending()
        if d is not None:
            self.agent_selection = self.possible_agents[d.player]

    def _mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
        d = self.game.pending()
        if d is not None and d.player == seat:
            mask[: len(action_values(d))] = 1
        return mask

    def _observation(self, seat: int) -> np.ndarray:
        g: Any = self.game  # the observation reads Refuelled's table
        st = g.state
        d: Decision | None = g.pending()
        out = np.zeros(OBS_SIZE, dtype=np.float32)
        rounds = max(1, int(g.options.max_rounds))
        out[0] = st.round / rounds
        out[1] = st.gear_phase / 6.0
        if d is not None:
            out[2] = 1.0 if d.player == seat else 0.0
            if d.domain is not None:
                out[3] = 1.0
                out[4], out[5] = d.domain.low / 180.0, d.domain.high / 180.0
            out[6] = len(action_values(d)) / MAX_ACTIONS
            k = KINDS.index(d.kind) if d.kind in KINDS else len(KINDS)
            out[7 + k] = 1.0
        w, h = float(st.width), float(st.height)
        players = int(st.players)
        vehicles = sorted(st.vehicles.values(),
                          key=lambda v: ((v.player - seat) % players, v.id))[:MAX_VEHICLES]
        at = GLOBAL
        for v in vehicles:
            r = math.radians(v.pose.heading)
            goal = _goal(g, v)
            row = [1.0, 1.0 if v.player == seat else 0.0, 1.0 if v.in_play else 0.0,
                   v.pose.x / w, v.pose.y / h, math.cos(r), math.sin(r), v.gear / 6.0,
                   v.hazards / 6.0, v.hull_points / 20.0, v.hull_points / max(1, v.hull),
                   1.0 if d is not None and d.vehicle == v.id else 0.0,
                   1.0 if d is not None and d.target == v.id else 0.0,
                   v.length / 100.0, v.width / 100.0]
            if goal is not None:
                row += [goal[0] / w, goal[1] / h, goal[2] / w, goal[3] / h]
            else:
                row += [0.0, 0.0, 0.0, 0.0]
            row.append(0.0)  # spare (keeps VEHICLE fixed for later fields)
            out[at: at + VEHICLE] = row
            at += VEHICLE
        at = GLOBAL + MAX_VEHICLES * VEHICLE
        for ob in sorted(st.obstacles.values(), key=lambda o: o.id)[:MAX_OBSTACLES]:
            r = math.radians(ob.pose.heading)
            out[at: at + OBSTACLE] = [1.0, ob.pose.x / w, ob.pose.y / h, math.cos(r),
                                      math.sin(r), ob.length / 100.0, ob.width / 100.0,
                                      1.0 if ob.tall else 0.0]
            at += OBSTACLE
        np.clip(out, -CLIP, CLIP, out=out)
        return out


def _goal(game: Any, v: Any) -> tuple[float, float, float, float] | None:
    goal_fn = getattr(game.scenario, "goal", None)
    if goal_fn is None:
        return None
    line = goal_fn(game.state, v)
    if line is None:
        return None
    return (line.a[0], line.a[1], line.b[0], line.b[1])
