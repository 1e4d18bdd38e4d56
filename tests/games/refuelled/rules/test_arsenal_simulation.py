"""300 seeded Street Races between random legal teams.

Each game gets its own random teams (``carnage simulate --teams random --cans 50``: the team
builder draws and checks them from the game's seed), so across the run every vehicle type,
weapon and upgrade in the catalogue takes part (asserted). Bots: random against random, with
every tenth game heuristic against random so that the heuristic bot meets every new decision
kind too. After every applied choice the invariants of
tests/games/refuelled/engine/test_random_games.py hold; every game ends; every 25th game is
saved as a log and replayed: the events must be identical.
Games run in two worker processes (the machine has two cores).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.copies import SpotCheck
from tests.simulation import assert_games_clean, invariant_problems, run_in_workers

from carnage.ai import bot_rng, make_bot, play_out
from carnage.catalog import load_catalog
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.engine.rulebook import unplayed_rules
from carnage.games.refuelled.session import random_teams_setup
from carnage.games.refuelled.setup import (
    GameSetup,
    build_game,
    log_text,
    parse_log,
    record_game,
    replay,
)
from carnage.kernel.decisions import Decision
from carnage.team import TeamSpec, check_team

GAMES = 300
"""Enough that every vehicle type, weapon and upgrade takes part (all have by game 178 of
these seeds) with a margin; more games repeat the same checks on the same arsenal."""
FIRST_SEED = 60_000
CANS = 50
MAX_ROUNDS = 8
HEURISTIC_EVERY = 10
REPLAY_EVERY = 25
WORKERS = 2


def bots_for(i: int) -> tuple[str, str]:
    return ("heuristic", "random") if i % HEURISTIC_EVERY == 0 else ("random", "random")


def arsenal(teams: tuple[TeamSpec, ...]) -> dict[str, set[str]]:
    """Vehicle types, weapons and upgrades the teams field (a turret facing is the Turret
    Mounting; every vehicle carries Handguns)."""
    cat = load_catalog()
    out: dict[str, set[str]] = {"vehicles": set(), "weapons": set(), "upgrades": set()}
    for t in teams:
        for v in t.vehicles:
            out["vehicles"].add(cat.vehicles.get(v.type).id)
            out["weapons"].add("handgun")
            for w in v.weapons:
                out["weapons"].add(cat.weapons.get(w.id).id)
                if w.facing is not None and str(w.facing) == "turret":
                    out["upgrades"].add("turret_mounting")
            for u in v.upgrades:
                out["upgrades"].add(cat.upgrades.get(u.id).id)
            out["upgrades"].update(cat.vehicles.get(v.type).built_in_upgrades)
    return out


def play_one(i: int) -> dict[str, Any]:
    seed = FIRST_SEED + i
    bots = bots_for(i)
    setup = random_teams_setup(GameSetup(max_rounds=MAX_ROUNDS), CANS)(seed)
    result: dict[str, Any] = {"seed": seed, "bots": bots, "problems": [], "error": None,
                              "arsenal": arsenal(setup.teams), "kinds": Counter[str](),
                              "unplayed": [],
                              "valid": all(check_team(t).valid for t in setup.teams)}
    problems: list[str] = result["problems"]
    kinds: Counter[str] = result["kinds"]
    players = [make_bot(b) for b in bots]
    rng = bot_rng(seed)
    copies = SpotCheck(seed, players, rng, invariants=invariant_problems)

    def after(game: Game, d: Decision) -> None:
        kinds[d.kind] += 1
        if not problems:
            found = invariant_problems(game)
            if found:
                problems.append(f"after choice {len(game.choices)} ({d.kind}): {found[0]}")
        copies(game, problems)  # clone and snapshot/restore continue as the game does

    g = None
    try:
        g = build_game(setup, seed)
        result["unplayed"] = unplayed_rules(g)
        play_out(g, players, rng, after=after)
        result["copies_checked"] = copies.checked
    except Exception as e:  # reported with its seed by the test
        result["error"] = f"{type(e).__name__}: {e}"
        return result
    out = g.outcome()
    result["finished"] = out is not None
    result["rounds"] = out.rounds if out else None
    if i % REPLAY_EVERY == 0:
        again = replay(parse_log(log_text(record_game(g, setup, seed))))
        result["replay_identical"] = again.identical and again.crash is None
    return result


def play_chunk(indices: list[int]) -> list[dict[str, Any]]:
    return [play_one(i) for i in indices]


def test_random_arsenal_games_keep_the_invariants_and_replay() -> None:
    chunks = [list(range(k, GAMES, 8)) for k in range(8)]  # interleaved chunks
    results = run_in_workers(play_chunk, chunks, WORKERS)
    assert len(results) == GAMES
    assert all(r["valid"] for r in results)  # every random team is legal
    assert_games_clean(results)
    assert all(1 <= r["rounds"] <= MAX_ROUNDS for r in results)
    replays = [r for r in results if "replay_identical" in r]
    assert len(replays) == GAMES // REPLAY_EVERY and all(r["replay_identical"] for r in replays)
    # Clones and restored snapshots were checked at random decisions of most games.
    assert sum(r.get("copies_checked", 0) for r in results) >= GAMES // 2
    # Every vehicle type, weapon and upgrade in the catalogue took part.
    cat = load_catalog()
    seen: dict[str, set[str]] = {"vehicles": set(), "weapons": set(), "upgrades": set()}
    for r in results:
        for k, ids in r["arsenal"].items():
            seen[k] |= ids
    assert {v.id for v in cat.vehicles} - seen["vehicles"] == set()
    assert {w.id for w in cat.weapons} - seen["weapons"] == set()
    assert {u.id for u in cat.upgrades} - seen["upgrades"] == set()
    # The rules' own decisions were met by the bots (one sample per family).
    kinds: Counter[str] = Counter()
    for r in results:
        kinds.update(r["kinds"])
    assert {"template", "attack", "collision_reaction", "nitro", "teleporter"} <= set(kinds)
