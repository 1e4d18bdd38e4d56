"""Seeded games with campaign careers and Sabotage Tokens, played by heuristic bots: no game
raises, the invariants hold after every choice, clones and snapshots continue as the game
does, and saved logs replay identically.

Each game's teams are random legal teams (``random_team``) given random careers: injuries
(any of the ten, each at most once), dents, Weakened chassis, Audience Favourite, Crew and
Hull lost; every seat gets random handicap votes, Sabotage Tokens and Resistance Points.
Across the run the in-play rules must all take part (asserted from the logs)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from tests.simulation import assert_games_clean, play_checked, run_in_workers

from carnage.cli.simulate_cmd import random_teams_setup
from carnage.games.refuelled.setup import GameSetup
from carnage.team.career import injuries
from carnage.team.model import CareerSpec, TeamSpec

GAMES = 36
FIRST_SEED = 61_000
SCENARIOS = ("street-race", "arena-of-death", "death-race")
REPLAY_EVERY = 6
CANS = 50
IN_PLAY = ("deathwish", "bad-television", "crazed", "cowardly", "old-war-wound", "shakes",
           "twitch")


def careered(team: TeamSpec, rng: random.Random) -> TeamSpec:
    ids = list(injuries())
    vehicles = []
    for v in team.vehicles:
        picked = rng.sample([i for i in ids if i != "badass"], rng.randint(0, 4))
        vehicles.append(v.model_copy(update={"career": CareerSpec(
            dents=rng.randint(0, 6), injuries=tuple(picked),
            weakened_chassis=rng.choice((0, 0, 1, 2)),
            audience_favourite=rng.choice((0, 0, 1)),
            crew_loss=rng.choice((0, 0, 1)), hull_loss=rng.choice((0, 0, 2)))}))
    return team.model_copy(update={"vehicles": tuple(vehicles)})


def setup_for(i: int) -> GameSetup:
    seed = FIRST_SEED + i
    rng = random.Random(f"careers:{seed}")
    base = GameSetup(scenario=SCENARIOS[i % len(SCENARIOS)], max_rounds=12)
    s = random_teams_setup(base, CANS)(seed)
    teams = tuple(careered(t, rng) for t in s.teams)
    n = s.players
    pregame = {"votes": [rng.randint(0, 3) for _ in range(n)],
               "sabotage": [rng.choice((0, 0, 1, 2)) for _ in range(n)],
               "resistance": [rng.randint(0, 9) for _ in range(n)]}
    return replace(s, teams=teams, pregame=tuple(sorted(pregame.items())))


def play_chunk(indices: list[int]) -> list[dict[str, Any]]:
    out = []
    for i in indices:
        seed = FIRST_SEED + i
        checked = play_checked(setup_for(i), seed, ["heuristic", "heuristic"],
                               copies_every=40, copies_most=2,
                               check_replay=i % REPLAY_EVERY == 0)
        used = Counter(str(e.data.get("injury") or e.data.get("token") or e.source)
                       for e in checked.game.log
                       if e.kind in ("injury", "sabotage_token", "wear", "votes_discarded"))
        out.append(checked.result(seed=seed, used=dict(used)))
    return out


def test_games_with_careers_and_tokens_run_clean_and_replay() -> None:
    chunks = [list(range(k, GAMES, 4)) for k in range(4)]
    results = run_in_workers(play_chunk, chunks, 2)
    assert len(results) == GAMES
    assert_games_clean(results)
    replays = [r for r in results if "replay_identical" in r]
    assert replays and all(r["replay_identical"] for r in replays)
    used: Counter[str] = Counter()
    for r in results:
        used.update(r["used"])
    # The rules that log when they act all took part somewhere in the run.
    for rule in ("old-war-wound", "twitch", "crazed", "weakened_chassis"):
        assert used[rule] > 0, (rule, used)
    assert sum(used[t] for t in ("hidden_explosives", "fix_your_brakes", "resistance_cache",
                                 "do_not_adjust_your_set")) > 0, used
