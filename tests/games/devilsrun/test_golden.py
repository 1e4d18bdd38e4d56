"""Golden playthroughs: a recorded game's choices must replay to the same log and outcome.

If a rule changes on purpose, regenerate the files (setup, choices, outcome, log digest) and say
so in the commit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from carnage.games.devilsrun.missions import replay

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_playthrough_replays_exactly(path: Path) -> None:
    doc = json.loads(path.read_text())
    g = replay(doc["setup"], doc["choices"])
    o = g.outcome()
    assert o is not None and o.to_json() == doc["outcome"]
    assert len(g.log) == doc["events"]
    assert hashlib.sha256(g.log.to_jsonl().encode()).hexdigest() == doc["log_sha256"]


def test_there_is_a_golden_game_for_each_mission() -> None:
    assert [p.stem for p in GOLDEN] == ["devils-run-seed0", "hell-on-wheels-seed0"]
