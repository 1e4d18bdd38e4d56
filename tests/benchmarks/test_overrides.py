"""The overrides benchmark (benchmarks/overrides.py): the judging plays on copies, so a game goes
as ``benchmarks/bots.py`` plays it, and each answer off the policy's pick is judged pair by pair."""

from __future__ import annotations

import math
from types import ModuleType

import pytest
from tests.benchmarks.bench_module import load_benchmark

from carnage.analysis.matches import SearchOptions, play_game
from carnage.rulesets import get_ruleset


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("overrides")


def test_the_gain_is_paired(bench: ModuleType) -> None:
    gain, se = bench.paired_gain([0.0, 1.0, 0.5, 1.0], [1.0, 1.0, 0.5, 0.0])
    assert gain == 0.0
    assert se == pytest.approx(math.sqrt((1 + 0 + 0 + 1) / 3 / 4))
    assert bench.paired_gain([0.2], [0.7]) == (pytest.approx(0.5), math.inf)


def test_the_table_adds_up_each_kind(bench: ModuleType) -> None:
    j = bench.Judged
    rows = bench.table([j(0, "template", "a", "b", 0.25, 0.3),
                        j(1, "template", "a", "c", -0.05, 0.4),
                        j(1, "skid_dice", "3", "1", -0.5, 0.1)])
    assert rows[2] == "| skid_dice | 1 | -0.50 (0.10) | 0 / 1 |"
    assert rows[3] == "| template | 2 | +0.20 (0.50) | 1 / 1 |"


def test_a_judged_game_goes_as_the_bot_benchmark_plays_it(bench: ModuleType) -> None:
    # Seed 1: the search bot in seat 2, as the bot benchmark seats it in odd games.
    rs, seed = get_ruleset("kart"), 1
    won, judged = bench.play(rs, "street-race", "normal", seed, playouts=2, horizon=400)
    seats = ["search:normal", "heuristic"] if seed % 2 == 0 else ["heuristic", "search:normal"]
    score, _ = play_game(rs, "street-race", seats, seed, {}, {},
                         SearchOptions(seconds=None), side=(seed % 2,))
    assert won == (score == 1.0)
    assert judged, "the search left its policy's pick at least once in a Kart race"
    for j in judged:
        assert j.seed == seed and j.chosen != j.pick
        assert -1.0 <= j.gain <= 1.0 and j.se >= 0.0
