"""500 seeded Street Races between bots, checking invariants after every applied choice.

Mix (500 games): 380 random vs random, 60 heuristic vs random, 40 random vs heuristic and 20
heuristic vs heuristic. Heuristic games cost about twice as much as random ones, so they are
fewer. Every 20th game is also saved as a log and replayed: the events must be identical. Games
run in two worker processes (the machine has two cores); the whole test takes about 30-40 s.
After every choice: hazards >= 0, 1 <= gear <= max gear, 0 <= hull points <= hull, no two
deployed vehicles in play overlapping by more than 0.1 mm, every wreck on the table as an
obstacle (until a collision clears it). Every game must end (a result or the round cap).
"""

from __future__ import annotations

from typing import Any

from tests.copies import SpotCheck
from tests.simulation import assert_games_clean, invariant_problems, run_in_workers

from carnage.ai import bot_rng, make_bot, play_out
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.setup import (
    GameSetup,
    build_game,
    log_text,
    parse_log,
    record_game,
    replay,
)
from carnage.kernel.decisions import Decision

MAX_ROUNDS = 10
MIX = [(("random", "random"), 380), (("heuristic", "random"), 60),
       (("random", "heuristic"), 40), (("heuristic", "heuristic"), 20)]
REPLAY_EVERY = 20


def games() -> list[tuple[int, tuple[str, str]]]:
    out: list[tuple[int, tuple[str, str]]] = []
    seed = 1000
    for bots, n in MIX:
        for _ in range(n):
            out.append((seed, bots))
            seed += 1
    return out


def play_one(seed: int, bots: tuple[str, str], check_replay: bool) -> dict[str, Any]:
    setup = GameSetup(max_rounds=MAX_ROUNDS)
    g = build_game(setup, seed)
    problems: list[str] = []
    players = [make_bot(b) for b in bots]
    rng = bot_rng(seed)
    copies = SpotCheck(seed, players, rng, invariants=invariant_problems)

    def after(game: Game, d: Decision) -> None:
        if not problems:
            found = invariant_problems(game)
            if found:
                problems.append(f"after choice {len(game.choices)} ({d.kind}): {found[0]}")
        copies(game, problems)  # clone and snapshot/restore continue as the game does

    result: dict[str, Any] = {"seed": seed, "bots": bots, "problems": problems, "error": None}
    try:
        play_out(g, players, rng, after=after)
        result["copies_checked"] = copies.checked
    except Exception as e:  # reported with its seed by the test
        result["error"] = f"{type(e).__name__}: {e}"
        return result
    out = g.outcome()
    result["finished"] = out is not None
    result["rounds"] = out.rounds if out else None
    result["winner"] = out.winner if out else None
    result["draw"] = out.draw if out else None
    result["choices"] = len(g.choices)
    if check_replay:
        rec = parse_log(log_text(record_game(g, setup, seed)))
        again = replay(rec)
        result["replay_identical"] = again.identical and again.crash is None
    return result


def play_chunk(chunk: list[tuple[int, tuple[str, str], bool]]) -> list[dict[str, Any]]:
    return [play_one(seed, bots, rep) for seed, bots, rep in chunk]


def test_five_hundred_random_games_keep_the_invariants_and_replay() -> None:
    todo = [(seed, bots, i % REPLAY_EVERY == 0) for i, (seed, bots) in enumerate(games())]
    assert len(todo) == 500
    chunks = [todo[i::8] for i in range(8)]  # interleaved: each chunk gets every kind of mix
    results = run_in_workers(play_chunk, chunks)
    assert len(results) == 500
    assert_games_clean(results)
    assert all(1 <= r["rounds"] <= MAX_ROUNDS for r in results)
    replays = [r for r in results if "replay_identical" in r]
    assert len(replays) == 25 and all(r["replay_identical"] for r in replays)
    assert sum(r.get("copies_checked", 0) for r in results) >= len(results) // 2
    decided = [r for r in results if not r["draw"]]
    assert len(decided) > 400  # races are won, not merely timed out
    # The heuristic bot wins most of its games against the random one.
    for seat, bots in ((0, ("heuristic", "random")), (1, ("random", "heuristic"))):
        mine = [r for r in results if r["bots"] == bots]
        assert sum(r["winner"] == seat for r in mine) >= 0.8 * len(mine)
