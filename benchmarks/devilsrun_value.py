"""How well the search bot's value of a Devil's Run position (``DevilsRunAdapter.values``)
foretells who wins The Devil's Run, and what a logistic fit of its terms would weigh them.

    .venv/bin/python benchmarks/devilsrun_value.py [--games 600] [--seed 2000] [--every 2]

Plays ``--games`` heuristic-against-heuristic games (game i seeded SEED + i, the Law in seat 1)
and, at every ``--every``-th decision from turn 1 on, reads the Law's value and the value's terms
(each the Law's less the Haul's Angels': chassis points and vehicles running, rows up the road,
a gang down to its last active vehicle, squares to the stash on the road or to where it is still
to come, carrying it, the carrier's rows to a fresh tile). It prints the mean log loss of the
value against the result (a draw counts 0.5; ln 2 = 0.693 is a coin's) and of a logistic
regression of the terms fitted on the first half of the games' positions, scored on the second
half, with its weights in the value's units (its scale of 6 a unit of the logistic).
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from carnage.games.devilsrun.bots import heuristic_bot
from carnage.games.devilsrun.data import TILE
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.search import DevilsRunAdapter, rows_to_win, squares_to
from carnage.games.devilsrun.state import RUNNING
from carnage.rulesets import get_ruleset

TERMS = ("chassis points", "vehicles running", "rows up the road", "down to the last active",
         "squares to the stash on the road", "squares to where it will come", "carrying it",
         "carrier's rows to a fresh tile")


def terms(g: DevilsRunGame) -> list[float]:
    """The value's terms, the Law's (seat 1) less the Angels'."""
    st = g.state
    f = [0.0] * len(TERMS)
    sign = (1.0, -1.0)
    for v in st.vehicles.values():
        if v.status != RUNNING or v.player not in (0, 1) or v.pos is None:
            continue
        s = sign[v.player]
        f[0] += s * v.cp
        f[1] += s
        f[2] += s * v.pos[1]
        if v.carrying:
            f[6] += s
            f[7] += s * rows_to_win(st, v.pos[1])
    stash = st.stash
    for p in (0, 1):
        if len(g.active(p)) == 1:
            f[3] += sign[p]
        if stash.status == "placed" and stash.pos is not None:
            near = squares_to(st, p, [stash.pos], missed_too=False)
            f[4] += sign[p] * (DevilsRunAdapter.FAR if near is None else near)
        elif stash.status in ("waiting", "reenter", "gone"):
            front = st.tiles[-1].origin + (TILE if stash.status == "gone" else 0)
            near = squares_to(st, p, [(x, front + r) for x, r in g.mission.stash_squares],
                              missed_too=True)
            f[5] += sign[p] * (DevilsRunAdapter.FAR if near is None else near)
    return f


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(np.mean(-(y * np.log(p) + (1 - y) * np.log(1 - p))))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--every", type=int, default=2)
    a = ap.parse_args()
    ruleset, ad = get_ruleset("devils-run"), DevilsRunAdapter()
    rows: list[list[float]] = []
    value: list[float] = []
    result: list[float] = []
    for seed in range(a.seed, a.seed + a.games):
        g = ruleset.new_game(scenario="devils-run", seed=seed)
        assert isinstance(g, DevilsRunGame)
        rng, k, here = random.Random(seed), 0, len(rows)
        while (d := g.pending()) is not None:
            if g.state.turn >= 1 and k % a.every == 0:
                rows.append(terms(g))
                value.append(ad.values(g)[0])
            g.apply(heuristic_bot(g, d, rng))
            k += 1
        out = g.outcome()
        assert out is not None
        score = 0.5 if out.winner is None else (1.0 if out.winner == 0 else 0.0)
        result += [score] * (len(rows) - here)
    x, y, v = np.array(rows), np.array(result), np.array(value)
    half = len(y) // 2
    sd = x[:half].std(0) + 1e-9
    w = np.zeros(x.shape[1])
    for _ in range(3000):  # plain gradient descent on the standardised terms
        p = 1 / (1 + np.exp(-(x[:half] / sd) @ w))
        w -= (x[:half] / sd).T @ (p - y[:half]) / half
    w = w / sd
    print(f"{a.games} heuristic games from seed {a.seed}, {len(y)} positions "
          f"({np.mean(y != 0.5):.0%} of them in decided games)")
    print(f"log loss: a coin 0.693, the value {log_loss(v, y):.3f} (second half "
          f"{log_loss(v[half:], y[half:]):.3f}), the fit on the second half "
          f"{log_loss(1 / (1 + np.exp(-x[half:] @ w)), y[half:]):.3f}")
    print("the fit's weights in the value's units (the Law's less the Angels'):")
    for name, weight in zip(TERMS, w * 6.0, strict=True):
        print(f"  {name}: {weight:+.3f}")


if __name__ == "__main__":
    main()
