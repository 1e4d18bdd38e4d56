"""Campaign wear in play: Street Races per second between heuristic bots with the same random
teams plain, with careers (injuries and wear on every vehicle), and with careers plus
Sabotage Tokens for both seats; decisions per game for each."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from carnage.ai import bot_rng, make_bot, play_out
from carnage.cli.simulate_cmd import random_teams_setup
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.team.model import CareerSpec, TeamSpec

GAMES = 40
INJURIES = ("deathwish", "crazed", "cowardly", "shakes", "twitch", "bad-television")


def careered(team: TeamSpec) -> TeamSpec:
    career = CareerSpec(dents=2, injuries=INJURIES, weakened_chassis=1, audience_favourite=1)
    return team.model_copy(update={"vehicles": tuple(
        v.model_copy(update={"career": career}) for v in team.vehicles)})


def run(label: str, make: Callable[[int], GameSetup]) -> None:
    decisions = 0
    t = time.perf_counter()
    for seed in range(GAMES):
        g = build_game(make(seed), seed)
        play_out(g, [make_bot("heuristic"), make_bot("heuristic")], bot_rng(seed))
        decisions += len(g.choices)
    dt = time.perf_counter() - t
    print(f"{label:28s} {GAMES / dt:6.1f} games/s  {decisions / GAMES:7.1f} decisions/game")


def main() -> None:
    base = random_teams_setup(GameSetup(max_rounds=12), 50)

    def worn(seed: int) -> GameSetup:
        s = base(seed)
        return replace(s, teams=tuple(careered(t) for t in s.teams))

    def tokens(seed: int) -> GameSetup:
        return replace(worn(seed), pregame=(("resistance", [6, 3]), ("sabotage", [2, 1]),
                                            ("votes", [0, 2])))

    run("plain", base)
    run("careers", worn)
    run("careers and tokens", tokens)


if __name__ == "__main__":
    main()
