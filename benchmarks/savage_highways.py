"""Savage Highways: CPU seconds per heuristic game of each scenario, and per whole campaign.

    .venv/bin/python benchmarks/savage_highways.py [--games N] [--seed S] [--campaigns C]

Plays ``N`` seeded two-player games (the scenario's own teams: the Riggers' War Rig and two
escorts against three Raiders) of Escape the City, Rescue, Ambush and Long Road Home between
heuristic bots, and prints CPU seconds per game, how the time splits between the engine
(``apply``) and the bots (``choose``), the mean rounds, the Riggers' share of wins and how the
games ended. Then ``C`` whole campaigns (three games, pre- and post-game steps, an in-memory
SQLite store) with their CPU seconds each. Process CPU time, so a shared machine's other work
does not count.
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter

from carnage.ai import bot_rng
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.setup import GameSetup, build_game

SCENARIOS = ("escape-the-city", "rescue", "ambush", "long-road-home")


def reason_kind(reason: str) -> str:
    return re.sub(r"\d+", "N", reason).strip()


def bench(scenario: str, games: int, seed: int) -> None:
    engine = bots = 0.0
    rounds = riggers = 0
    ends: Counter[str] = Counter()
    start = time.process_time()
    for s in range(seed, seed + games):
        g = build_game(GameSetup(scenario=scenario, players=2), s)
        players = [HeuristicBot(), HeuristicBot()]
        rng = bot_rng(s)
        while (d := g.pending()) is not None:
            t0 = time.process_time()
            pick = players[d.player].choose(g, d, rng)
            t1 = time.process_time()
            g.apply(pick)
            t2 = time.process_time()
            bots += t1 - t0
            engine += t2 - t1
        out = g.outcome()
        assert out is not None
        rounds += out.rounds
        riggers += out.winner == 0
        ends[reason_kind(out.reason)] += 1
    total = time.process_time() - start
    print(f"{scenario:16s} {total / games:6.2f} s/game  engine {engine / games:5.2f}  "
          f"bots {bots / games:5.2f}  rounds {rounds / games:4.1f}  "
          f"Riggers win {riggers}/{games}")
    for reason, n in ends.most_common():
        print(f"    {n:3d}  {reason}")


def campaigns(n: int, seed: int) -> None:
    from carnage.campaign.modes import mode_of
    from carnage.campaign.play import play_next
    from carnage.campaign.store import CampaignStore
    from carnage.games.refuelled.scenarios.escape_the_city import EscapeTheCity

    store = CampaignStore("sqlite://")
    mode = mode_of("savage-highways")
    start = time.process_time()
    paths: Counter[str] = Counter()
    for i in range(n):
        opts = mode.options({})
        cid = store.create(mode.id, opts, mode.start(opts, list(EscapeTheCity().default_teams(2))))
        played = [play_next(store, cid, ["heuristic"], seed=seed + 10 * i + k).scenario
                  for k in range(3)]
        paths[" -> ".join(played)] += 1
    total = time.process_time() - start
    print(f"campaign         {total / max(1, n):6.2f} s/campaign of three games")
    for path, k in paths.most_common():
        print(f"    {k:3d}  {path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--campaigns", type=int, default=2)
    a = ap.parse_args()
    for sid in SCENARIOS:
        bench(sid, a.games, a.seed)
    campaigns(a.campaigns, a.seed)


if __name__ == "__main__":
    main()
