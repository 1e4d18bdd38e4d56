"""Scenario machinery speed: spawn-point candidates and deployment poses on a busy table, and
bot games per second of the scenarios built on it (prints figures; asserts nothing)."""

from __future__ import annotations

import time
from collections.abc import Callable

from carnage.ai import bot_rng, make_bot, play_out
from carnage.games.refuelled.scenarios.common import spawn
from carnage.games.refuelled.scenarios.common.table import scatter_terrain, table_rng
from carnage.games.refuelled.setup import GameSetup, build_game


def timed(fn: Callable[[], object], n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n


def main() -> None:
    g = build_game(GameSetup(scenario="capture-the-flag", players=4), 3)
    st = g.state
    st.width = st.height = 1200.0
    scatter_terrain(st, table_rng(1), 12, margin=0.0)
    cands = spawn.spawn_candidates(g)
    v = next(iter(st.vehicles.values()))
    centre = next(iter(cands.values()))
    print(f"spawn_candidates   {1000 * timed(lambda: spawn.spawn_candidates(g), 20):7.2f} ms "
          f"({len(cands)} points, {len(st.obstacles)} pieces, 1200 mm square)")
    per = timed(lambda: spawn.deploy_poses(g, v, centre), 50)
    print(f"deploy_poses       {1000 * per:7.2f} ms")
    for sid in ("capture-the-flag", "flag-tag"):
        for names in (("random", "random"), ("heuristic", "heuristic")):
            games, choices, ended = 10, 0, 0
            t = time.perf_counter()
            for seed in range(games):
                game = build_game(GameSetup(scenario=sid, max_rounds=25), seed)
                play_out(game, [make_bot(n) for n in names], bot_rng(seed))
                choices += len(game.choices)
                ended += "rounds" not in game.state.reason
            dt = time.perf_counter() - t
            print(f"{sid:17s} {names[0]:>9s} v {names[1]:9s} {games / dt:6.2f} games/s "
                  f"{choices / dt:8.0f} decisions/s  {ended}/{games} by the scenario's end")


if __name__ == "__main__":
    main()
