"""The horizons benchmark (benchmarks/horizons.py): readings play on copies, so a game goes as
``benchmarks/bots.py`` plays it; each candidate's copies are read at each horizon and at the end,
and a horizon's gains are set against the outcome's on the other half of the copies."""

from __future__ import annotations

import math
from types import ModuleType

import pytest
from tests.benchmarks.bench_module import load_benchmark

from carnage.ai import bot_rng
from carnage.ai.runner import make_bot_for
from carnage.ai.search import SearchBot
from carnage.analysis.matches import SearchOptions, play_match
from carnage.rulesets import get_ruleset


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("horizons")


def _read(bench: ModuleType, pick: list[tuple[float, ...]],
          *others: list[tuple[float, ...]]) -> object:
    return bench.Read(0, "template", tuple(str(i) for i in range(1 + len(others))),
                      (tuple(pick), *(tuple(o) for o in others)))


def test_a_horizon_is_set_against_the_outcome_of_the_other_half(bench: ModuleType) -> None:
    # Each row: (read after the first horizon, after the second, the end). Two copies: the
    # first half is copy 0, the second copy 1. Column 0 says what copy 1's end says; column 1
    # says the opposite; the end's own first half says nothing (no gain at all).
    pick = [(0.5, 0.5, 0.0), (0.5, 0.5, 0.0)]
    reads = [
        _read(bench, pick, [(0.9, 0.1, 0.0), (0.0, 0.0, 1.0)], [(0.1, 0.9, 0.0), (0.0, 0.0, 0.0)]),
        _read(bench, pick, [(0.7, 0.3, 0.0), (0.0, 0.0, 0.75)]),
    ]
    c0, same0, n0 = bench.agreement(reads, 0)
    c1, same1, n1 = bench.agreement(reads, 1)
    assert n0 == n1 == 3
    assert c0 == pytest.approx(1.0) and c1 == pytest.approx(-1.0)
    assert same0 == 1.0 and same1 == 0.0
    end, same_end, _ = bench.agreement(reads, -1)
    assert math.isnan(end) and math.isnan(same_end)
    rows = bench.table(reads, [10, 40])
    assert rows[2] == "| 10 decisions | 1.000 | 100% |"
    assert rows[3] == "| 40 decisions | -1.000 | 0% |"
    assert rows[4].startswith("| the end (the ceiling) | nan |")


def test_the_correlation(bench: ModuleType) -> None:
    assert bench.correlation([1.0, 2.0, 3.0], [2.0, 4.0, 6.5]) == pytest.approx(0.99795, abs=1e-5)
    assert math.isnan(bench.correlation([1.0, 1.0], [0.0, 1.0]))
    assert math.isnan(bench.correlation([1.0], [1.0]))


def test_readings_go_as_the_bot_benchmark_plays_and_end_in_the_outcome(
        bench: ModuleType) -> None:
    rs = get_ruleset("kart")
    seen: list[int] = []
    played, reads = bench.play(rs, "street-race", "normal", 1, 400, playouts=2, candidates=2,
                               horizons=[0, 5, 10_000],
                               each=lambda p, found: seen.append(p.seed))
    plain = play_match(rs, "street-race", "search:normal", "heuristic", 1, 400, {}, {},
                       SearchOptions(seconds=None))
    assert [(p.seed, p.seats, p.score) for p in played] == [
        (p.seed, p.seats, p.score) for p in plain]
    assert seen == [400]
    assert reads, "the search weighed candidates in a Kart race"
    for r in reads:
        assert r.seed == 400 and len(r.choices) == 2 and len(set(r.choices)) == 2
        for copies in r.values:
            assert len(copies) == 2
            for row in copies:
                assert len(row) == 4 and all(0.0 <= x <= 1.0 for x in row)
                # Past any game's end (more than the longest copy), the reading is the end's;
                # and every copy here is played to the end: its value is an outcome.
                assert row[2] == row[3] and row[3] in (0.0, 0.5, 1.0)


def test_a_reading_plays_on_copies_with_its_own_dice(bench: ModuleType) -> None:
    rs = get_ruleset("kart")
    game = rs.new_game(scenario="street-race", seed=400)
    heuristic = make_bot_for(rs, "heuristic")
    rng = bot_rng(400)
    while (d := game.pending()) is not None and d.kind != "template":
        game.apply(heuristic.choose(game, d, rng))
    assert d is not None
    before = len(game.choices)
    bot = SearchBot("normal", seconds=None, seed=400, adapter=rs.search)
    choices = [o.value for o in d.options[:2]]
    once = bench.read(bot, game, d, choices, 3, [0, 2])
    assert once == bench.read(bot, game, d, choices, 3, [0, 2])
    assert len(game.choices) == before and game.pending() == d
    assert len(once) == 2 and all(len(copies) == 3 for copies in once)
