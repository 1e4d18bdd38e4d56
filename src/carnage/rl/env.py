"""Carnage as a PettingZoo AEC environment (``carnage.rl.env``), for every ruleset that
declares an observation (``Ruleset.observation``, ``kernel/observation.py``).

Agents are the seats (``seat_0``, ``seat_1``, ...); the agent to act is the player of the
game's pending decision. The action space is ``Discrete(MAX_ACTIONS)`` with an action mask
over the pending decision's options (action i = option i); a continuous choice (a spin or a
pivot: an ``Interval``) is discretised into ``INTERVAL_STEPS`` evenly spaced points from its
low to its high end (``kernel.observation.action_values``). The observation is a dict of
``observation`` (a fixed-size float32 vector: the ruleset's ``encode`` of the game from the
agent's seat, clipped to [-CLIP, CLIP]; the layouts are in ``docs/rl.md``) and
``action_mask`` (int8, 1 = legal). Rewards: +1 to the winner, -1 to every other seat, 0 to
all on a draw, given when the game ends (every agent is then terminated). The dice come from
the environment's seed. The environment reads a game only through the game contract
(``kernel/contract.py``) and its ruleset's observation offer.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from carnage.kernel.contract import PlayableGame
from carnage.kernel.observation import INTERVAL_STEPS, MAX_ACTIONS, ObservationOffer, action_values
from carnage.kernel.ruleset import Ruleset

CLIP = 2.0
"""Bound of every observed value (encoders scale to about [-1, 1])."""

__all__ = ["CLIP", "INTERVAL_STEPS", "MAX_ACTIONS", "CarnageEnv", "action_values", "env",
           "observation_offer"]


def observation_offer(ruleset: Ruleset) -> ObservationOffer:
    """What ``ruleset`` offers an environment; ``ValueError`` naming it and the rulesets
    that offer one when it declares none."""
    if ruleset.observation is not None:
        return ruleset.observation
    from carnage.rulesets import RULESETS

    offering = ", ".join(sorted(n for n, r in RULESETS.items() if r.observation is not None))
    raise ValueError(f"ruleset {ruleset.name!r} declares no observation for the environment "
                     f"(rulesets that do: {offering or 'none'})")


def env(ruleset: str | Ruleset | None = None, scenario: str | None = None, teams: Any = None,
        seed: int | None = None, max_rounds: int | None = None,
        render_mode: str | None = None) -> CarnageEnv:
    """A PettingZoo AEC environment of a game of ``ruleset`` (a name in the registry, or a
    ``Ruleset``; None: the registry's default, Refuelled) and ``scenario`` (None: the one its
    observation offer names, Street Race for Refuelled, the Kart variant and Legacy) with
    ``teams`` (one per player, as the ruleset's ``new_game`` takes them; None: the scenario's
    own) and dice from ``seed`` (None: 0 at the first reset). ``max_rounds``: a game still
    running after that many rounds is a draw (the ruleset's default when None; a ruleset whose
    scenarios set their own limit, Devil's Run, refuses it)."""
    return CarnageEnv(ruleset=ruleset, scenario=scenario, teams=teams, seed=seed,
                      max_rounds=max_rounds, render_mode=render_mode)


class CarnageEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """See the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "carnage_v0",
                                          "is_parallelizable": False}

    def __init__(self, ruleset: str | Ruleset | None = None, scenario: str | None = None,
                 teams: Any = None, seed: int | None = None, max_rounds: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        from carnage.rulesets import get_ruleset

        try:
            self.ruleset: Ruleset = get_ruleset() if ruleset is None else get_ruleset(ruleset)
        except KeyError as e:
            raise ValueError(str(e.args[0])) from None
        self.offer = observation_offer(self.ruleset)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: known modes are 'ansi' or None")
        if scenario is None:
            listed = self.ruleset.scenario_infos()
            scenario = self.offer.default_scenario or (listed[0].id if listed else None)
            if scenario is None:
                raise ValueError(f"ruleset {self.ruleset.name!r} lists no scenario: name one")
        self.scenario = scenario
        self.teams = list(teams) if teams else []
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self._next_seed = 0 if seed is None else int(seed)
        self.game: PlayableGame = self._new_game(self._next_seed)  # checks the arguments now
        players = self.game.players
        self.possible_agents = [f"seat_{p}" for p in range(players)]
        obs_box = spaces.Box(-CLIP, CLIP, shape=(self.offer.size,), dtype=np.float32)
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
        if self.offer.text is not None:
            return self.offer.text(self.game)
        d = self.game.pending()
        if d is None:
            out = self.game.outcome()
            return "game over" + ("" if out is None else f": {out.reason}")
        return f"seat {d.player + 1} decides {d.kind}: {d.prompt}"

    def close(self) -> None:
        return None

    # -- internals -----------------------------------------------------------------------------
    def _new_game(self, seed: int) -> PlayableGame:
        opts: dict[str, Any] = {}
        if self.max_rounds is not None:
            opts["max_rounds"] = int(self.max_rounds)
        return self.ruleset.new_game(scenario=self.scenario, teams=self.teams, seed=seed,
                                     **opts)

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
        values = self.offer.encode(self.game, seat)
        if len(values) != self.offer.size:
            raise ValueError(f"ruleset {self.ruleset.name!r}: its observation has "
                             f"{len(values)} values, not the {self.offer.size} it declares")
        out = np.asarray(values, dtype=np.float32)
        np.clip(out, -CLIP, CLIP, out=out)
        return out
