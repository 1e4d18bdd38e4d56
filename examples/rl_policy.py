"""Train and evaluate a simple policy on the Carnage PettingZoo environment, on a CPU.

    .venv/bin/python examples/rl_policy.py [--minutes 3] [--seed 0] [--max-rounds 6]
        [--ruleset refuelled|kart|legacy|devils-run] [--scenario ID]

Seat 1 is a linear softmax policy over the masked actions (logits = W @ observation, one
weight matrix over the whole action space), trained with REINFORCE (a moving-average
baseline) against a uniformly random seat 2, for ``--minutes``; seat 2 picks uniformly among
the legal actions. Before and after training it plays 40 evaluation games (greedy policy)
and prints the win rate against the random seat. Any ruleset with an observation plays
(``--ruleset``; its default scenario unless ``--scenario``); ``--max-rounds 0`` leaves the
ruleset's own limit (Devil's Run's missions set theirs and refuse one). Needs the ``rl``
extra.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import carnage.rl
from carnage.rl.env import MAX_ACTIONS


def softmax_masked(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask > 0, logits, -np.inf)
    z = z - z[mask > 0].max()
    p = np.exp(z)
    return p / p.sum()


def play(env: carnage.rl.CarnageEnv, w: np.ndarray | None, rng: np.random.Generator,
         greedy: bool, seed: int) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
    """One game; seat 0 plays ``w`` (None: random). Returns seat 0's reward and its steps."""
    env.reset(seed=seed)
    steps: list[tuple[np.ndarray, np.ndarray, int]] = []
    reward = 0.0
    for agent in env.agent_iter():
        obs, r, term, trunc, _ = env.last()
        if agent == "seat_0":
            reward += r
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        if agent == "seat_0" and w is not None:
            p = softmax_masked(w @ obs["observation"], mask)
            a = int(np.argmax(p)) if greedy else int(rng.choice(MAX_ACTIONS, p=p))
            steps.append((obs["observation"], mask, a))
        else:
            a = int(rng.choice(np.flatnonzero(mask)))
        env.step(a)
    return reward, steps


def evaluate(env: carnage.rl.CarnageEnv, w: np.ndarray | None, games: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    wins = sum(play(env, w, rng, True, 10_000 + seed + i)[0] > 0 for i in range(games))
    return wins / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-rounds", type=int, default=6)
    ap.add_argument("--eval-games", type=int, default=40)
    ap.add_argument("--ruleset", default="refuelled")
    ap.add_argument("--scenario", default=None)
    a = ap.parse_args()
    env = carnage.rl.env(ruleset=a.ruleset, scenario=a.scenario,
                         max_rounds=a.max_rounds or None)
    size = env.observation_space("seat_0")["observation"].shape[0]
    rng = np.random.default_rng(a.seed)
    print(f"random seat 1 vs random seat 2: {evaluate(env, None, a.eval_games, a.seed):.0%} won")
    w = np.zeros((MAX_ACTIONS, size), dtype=np.float64)
    lr, baseline, games = 0.05, 0.0, 0
    end = time.monotonic() + 60.0 * a.minutes
    while time.monotonic() < end:
        reward, steps = play(env, w, rng, False, a.seed + games)
        games += 1
        adv = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for x, mask, act in steps:
            p = softmax_masked(w @ x, mask)
            grad = -p
            grad[act] += 1.0
            w += lr * adv * np.outer(grad, x) / max(1, len(steps))
        if games % 25 == 0:
            print(f"  {games} training games, reward baseline {baseline:+.2f}", flush=True)
    print(f"trained on {games} games in {a.minutes:g} min")
    print(f"policy seat 1 vs random seat 2: {evaluate(env, w, a.eval_games, a.seed):.0%} won")


if __name__ == "__main__":
    main()
