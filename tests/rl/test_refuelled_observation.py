"""Refuelled's observation is the layout of ``docs/rl.md``, value for value: the vectors of a
few seeded positions (Street Race at the start and mid-game, Arena of Death with obstacles)
were written to ``data/refuelled_observation.json`` by the environment's own encoder before
it moved into the Refuelled package, and must not change."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import carnage.rl

CASES = json.loads((Path(__file__).parent / "data" / "refuelled_observation.json")
                   .read_text("utf-8"))["cases"]


def _position(scenario: str, seed: int, max_rounds: int, steps: int) -> carnage.rl.CarnageEnv:
    env = carnage.rl.env(scenario=scenario, max_rounds=max_rounds)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


@pytest.mark.parametrize("case", CASES, ids=lambda c: (f"{c['scenario']}-{c['seed']}-"
                                                       f"{c['random_steps']}-{c['agent']}"))
def test_refuelled_observation_is_unchanged(case: dict) -> None:
    env = _position(case["scenario"], case["seed"], case["max_rounds"], case["random_steps"])
    x = env.observe(case["agent"])["observation"]
    want = np.zeros(case["size"], dtype=np.float32)
    for i, v in case["nonzero"].items():
        want[int(i)] = v
    assert x.shape == want.shape
    assert np.array_equal(x, want), np.flatnonzero(x != want)
