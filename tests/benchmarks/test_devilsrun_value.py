"""The Devil's Run value benchmark (benchmarks/devilsrun_value.py): the terms it fits read a
scripted position the Law's way round (the Law's less the Haul's Angels'), and a short run
prints the value's log loss and the fit's weights."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from tests.benchmarks.bench_module import load_benchmark
from tests.games.devilsrun.helpers import arranged

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("devilsrun_value")


def _term(bench: ModuleType, values: list[float], name: str) -> float:
    return values[bench.TERMS.index(name)]


def test_terms_are_the_laws_less_the_angels(bench: ModuleType) -> None:
    # The stash lies at (3, 14): the Angels' bike is 2 squares from it, the Law's bike 6.
    g = arranged("devils-run", {"law-bike": (3, 8), "ha-bike": (4, 12), "ha-trike": (1, 10)},
                 [1] * 6, turn=2)
    g.vehicle("law-bike").cp = 4
    s = g.state.stash
    s.status, s.pos = "placed", (3, 14)
    t = bench.terms(g)
    assert _term(bench, t, "chassis points") == 4 - (5 + 6)
    assert _term(bench, t, "vehicles running") == 1 - 2
    assert _term(bench, t, "rows up the road") == 8 - (12 + 10)
    assert _term(bench, t, "down to the last active") == 1  # the Law's bike alone
    assert _term(bench, t, "squares to the stash on the road") == 6 - 2
    assert _term(bench, t, "squares to where it will come") == 0
    assert _term(bench, t, "carrying it") == 0


def test_the_carrier_counts_for_its_gang(bench: ModuleType) -> None:
    g = arranged("devils-run", {"law-bike": (3, 6), "ha-bike": (3, 12)}, [1] * 6, turn=4)
    s = g.state.stash
    s.status, s.carrier, s.pickup_tile = "carried", "ha-bike", 1
    g.vehicle("ha-bike").carrying = True
    t = bench.terms(g)
    assert _term(bench, t, "carrying it") == -1
    assert _term(bench, t, "carrier's rows to a fresh tile") == -4  # the tile from row 16
    assert _term(bench, t, "squares to the stash on the road") == 0


def test_a_short_run_prints_the_log_losses_and_the_weights() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "devilsrun_value.py"),
                          "--games", "6", "--every", "4"],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert "log loss: a coin 0.693, the value" in out
    assert "carrying it:" in out and "chassis points:" in out
