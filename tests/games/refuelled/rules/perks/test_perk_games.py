"""Whole seeded Street Races with perks on every vehicle: every one of the 72 perks takes part
(asserted), bots answer every perk decision, the invariants of the random-games test hold after
every choice, every game ends, and each game replays exactly from its seed and choices.

The teams have no sponsor (built as homebrew, so any perk goes), so that these games exercise
the perks alone; the sponsored-games test plays sponsors and perks together."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from tests.simulation import assert_games_clean, invariant_problems, run_in_workers

from carnage.ai import bot_rng, make_bot, play_out
from carnage.catalog import load_catalog
from carnage.games.refuelled.engine.game import Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState
from carnage.games.refuelled.scenarios import StreetRace
from carnage.games.refuelled.setup import add_team
from carnage.kernel.decisions import Decision
from carnage.kernel.dice import SeededDice
from carnage.rulesets import REFUELLED
from carnage.team import check_team
from carnage.team.io import parse_team

GAMES = 24
FIRST_SEED = 7_000
MAX_ROUNDS = 6
PERKS_PER_VEHICLE = 4


def perk_plan() -> list[list[list[str]]]:
    """For each team of each game, the perks of its car and of its buggy: the 72 perks dealt
    out in catalogue order, round and round."""
    deck = itertools.cycle(list(load_catalog().perks.records))
    return [[[next(deck) for _ in range(PERKS_PER_VEHICLE)] for _ in range(2)]
            for _ in range(GAMES * 2)]


def build(seed: int, teams: list[list[list[str]]]) -> Game:
    sc = StreetRace()
    st = GameState(width=sc.width, height=sc.height, players=2)
    sc.lay_out(st)
    for p, perks in enumerate(teams):
        spec = parse_team({
            "name": f"team {p + 1}", "cans": 150,
            "vehicles": [
                {"name": "car", "type": "car", "perks": perks[0],
                 "weapons": [{"id": "rockets", "facing": "front"}]},
                {"name": "buggy", "type": "buggy", "perks": perks[1],
                 "weapons": [{"id": "machine_gun", "facing": "front"}]},
            ]}, f"team {p + 1}")
        report = check_team(spec, homebrew=True)  # any perk, no sponsor (ruling TB-6)
        assert report.valid, [e.message for e in report.errors]
        add_team(st, report, p)
    return Game(ruleset=REFUELLED, state=st, scenario=sc, dice=SeededDice(seed),
                options=RuleOptions(max_rounds=MAX_ROUNDS))


def play_one(i: int, teams: list[list[list[str]]]) -> dict[str, Any]:
    seed = FIRST_SEED + i
    bots = ("heuristic", "random") if i % 2 else ("random", "random")
    g = build(seed, teams)
    kinds: Counter[str] = Counter()
    problems: list[str] = []

    def after(game: Game, d: Decision) -> None:
        kinds[d.kind] += 1
        if not problems:
            found = invariant_problems(game)
            if found:
                problems.append(f"after choice {len(game.choices)} ({d.kind}): {found[0]}")

    result: dict[str, Any] = {"seed": seed, "error": None, "problems": problems,
                              "kinds": kinds}
    try:
        play_out(g, [make_bot(b) for b in bots], bot_rng(seed), after=after)
    except Exception as e:  # reported with its seed by the test
        result["error"] = f"{type(e).__name__}: {e}"
        return result
    result["perks"] = sorted({p for v in g.state.vehicles.values() for p in v.perks})
    result["finished"] = g.outcome() is not None
    result["perk_events"] = Counter(str(e.data.get("perk")) for e in g.log.of_kind("perk"))
    again = build(seed, teams)
    for c in g.choices:
        again.apply(c)
    result["replay_identical"] = [e.to_json() for e in again.log] == [
        e.to_json() for e in g.log]
    return result


def play_chunk(chunk: list[tuple[int, list[list[list[str]]]]]
               ) -> list[dict[str, Any]]:
    return [play_one(i, teams) for i, teams in chunk]


def test_games_with_every_perk_keep_the_invariants_and_replay() -> None:
    plan = perk_plan()
    todo = [(i, plan[2 * i: 2 * i + 2]) for i in range(GAMES)]
    fielded = {p for vs in plan for ps in vs for p in ps}
    assert fielded == set(load_catalog().perks.records)  # all 72 take part
    results = run_in_workers(play_chunk, [todo[0::2], todo[1::2]])
    assert_games_clean(results)
    assert all(r["replay_identical"] for r in results)
    kinds = sum((r["kinds"] for r in results), Counter())
    events = sum((r["perk_events"] for r in results), Counter())
    # Perks are really played: their decisions are asked and their effects logged.
    assert kinds["perk_order"] > 0
    assert len([k for k in kinds if k in {p for p in load_catalog().perks.records}]) >= 15
    assert len(events) >= 15, events


