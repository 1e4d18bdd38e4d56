"""The bot benchmark (benchmarks/bots.py): its summary splits the measured bot's wins by the
seats it sat in, and the split adds up to the games printed one by one."""

from __future__ import annotations

import re
import sys
from types import ModuleType

import pytest
from tests.benchmarks.bench_module import load_benchmark

from carnage.analysis.matches import Played
from carnage.kernel.game import Outcome


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("bots")


def _played(index: int, score: float, side: tuple[int, ...] = ()) -> Played:
    out = Outcome(None if score == 0.5 else 0, score == 0.5, "test", 1)
    return Played(index, index, ("a", "b"), score, out, side)


def test_wins_are_split_by_seat(bench: ModuleType) -> None:
    played = [_played(0, 1.0), _played(1, 0.0), _played(2, 0.5), _played(3, 1.0),
              _played(4, 1.0)]
    assert bench.by_seat(played) == "seat 1: 2 of 3 (1 draw); seat 2: 1 of 2"
    team = [_played(0, 1.0, (0, 2)), _played(1, 0.5, (3, 1)), _played(2, 0.0, (2, 0)),
            _played(3, 0.5, (1, 3))]
    assert bench.by_seat(team) == "seats 1,3: 1 of 2; seats 2,4: 0 of 2 (2 draws)"


def test_the_printed_split_adds_up_to_the_games(bench: ModuleType,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["bots.py", "--ruleset", "kart", "--bot", "heuristic",
                                      "--against", "random", "--games", "7", "--seed", "3",
                                      "--max-rounds", "2"])
    bench.main()
    out = capsys.readouterr().out
    games = re.findall(r"in seat (\d): (win|loss|draw)", out)
    assert len(games) == 7
    want = []
    for seat in ("1", "2"):
        mine = [r for s, r in games if s == seat]
        draws = mine.count("draw")
        drawn = f" ({draws} draw{'s' * (draws != 1)})" if draws else ""
        want.append(f"seat {seat}: {mine.count('win')} of {len(mine)}{drawn}")
    assert f"  by seat: {'; '.join(want)}\n" in out
    # Seven games from seed 3: the measured bot sat in seat 1 in games 1, 3, 5 and 7.
    assert [s for s, _ in games] == ["1", "2", "1", "2", "1", "2", "1"]
