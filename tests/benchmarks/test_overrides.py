"""The overrides benchmark (benchmarks/overrides.py): the judging plays on copies, so a game goes
as ``benchmarks/bots.py`` plays it, and each answer off the policy's pick is judged pair by pair."""

from __future__ import annotations

import math
from types import ModuleType

import pytest
from tests.benchmarks.bench_module import load_benchmark

from carnage.analysis.matches import SearchOptions, play_match
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


def test_judged_games_go_as_the_bot_benchmark_plays_them(bench: ModuleType) -> None:
    # From seed 1: the search bot in seat 1 in the first game and seat 2 in the second, as
    # the bot benchmark seats a run, whatever the seed's parity.
    rs = get_ruleset("kart")
    seen: list[int] = []
    played, judged = bench.play(rs, "street-race", "normal", 2, 1, playouts=2, horizon=400,
                                each=lambda p, found: seen.append(p.seed))
    plain = play_match(rs, "street-race", "search:normal", "heuristic", 2, 1, {}, {},
                       SearchOptions(seconds=None))
    assert [(p.seed, p.seats, p.score) for p in played] == [
        (p.seed, p.seats, p.score) for p in plain]
    assert played[0].seats == ("search:normal", "heuristic") and seen == [1, 2]
    assert judged, "the search left its policy's pick at least once in two Kart races"
    for j in judged:
        assert j.seed in (1, 2) and j.chosen != j.pick
        assert -1.0 <= j.gain <= 1.0 and j.se >= 0.0
