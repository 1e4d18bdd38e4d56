"""Seeded Death Races between bots (Refuelled pp.124-128), on generated tracks of every shape.

Random games (2-4 players, a low round cap, a heuristic bot in every other one) check the
invariants after every choice, that a clone and a restored snapshot go on exactly as the game
does, and (every third game) that the saved log replays identically; gate progress only ever
moves one gate at a time, in course order. Heuristic games must end by the race's own victory
(a vehicle across the Finish Line or the last player driving), not the round cap, and most by
crossing the Finish Line.
"""

from __future__ import annotations

from typing import Any

from tests.simulation import assert_games_clean, play_checked

from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.scenarios.race_tracks import SHAPES
from carnage.games.refuelled.setup import GameSetup

RANDOM_GAMES = [(3000 + i, 2 + i % 3) for i in range(6)]
HEURISTIC_GAMES = [(4000 + i, 2 + i % 2) for i in range(4)]


def gate_problems(g: Game) -> list[str]:
    """Each gate passed is the next one on the course for its vehicle."""
    sc = g.scenario
    track = sc.track(g.state)
    steps: dict[str, int] = {}
    out = []
    for e in g.log.of_kind("gate_passed"):
        vid = str(e.data["vehicle"])
        want = steps.get(vid, 0)
        if e.data["step"] != want or e.data["gate"] != track.course[want]:
            out.append(f"{vid} passed step {e.data['step']} (gate {e.data['gate']}) "
                       f"when step {want} was next")
        steps[vid] = want + 1
    progress = g.state.scenario.get("progress", {})
    out += [f"{vid}: progress {progress.get(vid)} but {n} gates logged"
            for vid, n in steps.items() if progress.get(vid) != n]
    return out


def play_one(seed: int, players: int, bots: tuple[str, ...], max_rounds: int,
             check_replay: bool, shape: str = "any") -> dict[str, Any]:
    setup = GameSetup(scenario="death-race", players=players, max_rounds=max_rounds,
                      scenario_options=(("shape", shape),))
    c = play_checked(setup, seed, [bots[p % len(bots)] for p in range(players)],
                     copies_every=25, copies_most=1, check_replay=check_replay)
    if c.error:
        return {"seed": seed, "bots": bots, "problems": c.problems, "error": c.error}
    g = c.game
    c.problems += gate_problems(g)
    return c.result(seed=seed, bots=bots, shape=g.state.scenario["shape"],
                    gates=g.count("gate_passed"), copies=c.copies_checked)



def test_random_death_races_keep_the_invariants_copy_and_replay() -> None:
    # Every other game seats a heuristic bot among the random ones, so gates get passed.
    results = [play_one(seed, n, ("random",) if i % 2 else ("heuristic", "random"), 5,
                        i % 3 == 0, SHAPES[i % len(SHAPES)])
               for i, (seed, n) in enumerate(RANDOM_GAMES)]
    assert_games_clean(results)
    assert {r["shape"] for r in results} == {"teardrop", "loop", "figure-of-eight"}
    assert all(r["replay_identical"] for r in results if "replay_identical" in r)
    assert sum("replay_identical" in r for r in results) == 2
    assert sum(r["gates"] for r in results) > 0


def test_heuristic_death_races_end_by_the_race_not_the_round_cap() -> None:
    results = [play_one(seed, n, ("heuristic",), 30, i % 3 == 0)
               for i, (seed, n) in enumerate(HEURISTIC_GAMES)]
    assert_games_clean(results)
    reasons = [str(r["reason"]) for r in results]
    assert all(r.endswith("crossed the finish line") or r.startswith("last player")
               for r in reasons), reasons
    assert sum(r.endswith("crossed the finish line") for r in reasons) >= len(reasons) // 2
    assert all(r["replay_identical"] for r in results if "replay_identical" in r)
