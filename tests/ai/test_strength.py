"""The bots' measured strength (ai/strength.py): the ladder's data file written and read back,
said in plain words, "not yet rated" where nothing was measured, a bad file refused by name;
and the shipped file's own figures hold together."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carnage.ai import strength
from carnage.ai.strength import BotRating, LadderRun, RatingsFileError
from carnage.rulesets import RULESETS


def run(ruleset: str = "refuelled", **bots: BotRating) -> LadderRun:
    return LadderRun(ruleset=ruleset, scenario="street-race", scenario_name="Street Race",
                     date="2026-12-05", games=12, games_per_pair=6, seed=0, anchor="random",
                     resamples=1000, cpu_clock=True, bots=dict(bots))


HARD = BotRating(elo=1620.4, low=1561.0, high=1680.0, games=12, wins=9, draws=1, losses=2,
                 think_seconds=0.81, think_cpu_seconds=0.79)
RANDOM = BotRating(elo=0.0, low=0.0, high=0.0, games=12, wins=0, draws=0, losses=12,
                   think_seconds=0.00001, think_cpu_seconds=0.00001)


def test_a_run_written_reads_back_and_keeps_the_other_rulesets(tmp_path: Path) -> None:
    path = tmp_path / "ratings.json"
    strength.record(run("kart", random=RANDOM), path)
    strength.record(run(**{"search:hard": HARD, "random": RANDOM}), path)
    runs = strength.load(path)
    assert set(runs) == {"kart", "refuelled"}
    assert runs["refuelled"].bots["search:hard"] == HARD
    assert runs["kart"].bots == {"random": RANDOM}
    data = json.loads(path.read_text())
    assert data["format"] == strength.FORMAT and data["rulesets"]["refuelled"]["games"] == 12


def test_a_rated_bot_is_said_in_plain_words() -> None:
    runs = {"refuelled": run(**{"search:hard": HARD, "random": RANDOM})}
    s = strength.strength(runs, "refuelled", "search:hard")
    assert s.rated and s.words == (
        "rated 1\u2009620 (won 9 of 12), thinks about 0.8 s")
    assert s.detail == ("the random bot is rated 0; 95% interval 1\u2009561 to 1\u2009680 from "
                        "12 games (9 won, 1 drawn, 2 lost) of Street Race, 2026-12-05; "
                        "thinking time is the median CPU time per decision")
    assert strength.strength(runs, "refuelled", "random").words == (
        "rated 0 (the yardstick), answers at once")
    assert strength.think_words(0.04) == "thinks about 0.04 s"
    assert strength.think_words(12.3) == "thinks about 12 s"


def test_what_was_not_measured_is_not_yet_rated() -> None:
    runs = {"refuelled": run(**{"search:hard": HARD})}
    for ruleset, bot in (("refuelled", "heuristic"), ("kart", "search:hard"),
                         ("refuelled", "search:brutal")):
        s = strength.strength(runs, ruleset, bot)
        assert not s.rated and s.words == "not yet rated" and s.rating is None
    # ``search`` is the normal level's other name: rated as it is
    normal = {"refuelled": run(**{"search:normal": HARD})}
    assert strength.strength(normal, "refuelled", "search").rated


def test_a_missing_file_holds_no_ratings(tmp_path: Path) -> None:
    assert strength.load(tmp_path / "none.json") == {}


@pytest.mark.parametrize(("text", "says"), [
    ("{not json", "not readable JSON"),
    ('{"format": 9, "rulesets": {}}', "not a ratings file of format 1"),
    ('{"format": 1, "rulesets": []}', "'rulesets' must map"),
    ('{"format": 1, "rulesets": {"refuelled": 3}}', "ruleset 'refuelled': not a mapping"),
])
def test_a_bad_file_is_refused_by_name(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "ratings.json"
    path.write_text(text)
    with pytest.raises(RatingsFileError, match=str(path)) as e:
        strength.load(path)
    assert says in str(e.value)


def test_figures_that_do_not_hold_together_are_refused(tmp_path: Path) -> None:
    good = run(**{"search:hard": HARD}).to_json()
    bad = json.loads(json.dumps(good))
    bad["bots"]["search:hard"]["wins"] = 10
    path = tmp_path / "ratings.json"
    path.write_text(json.dumps({"format": 1, "rulesets": {"refuelled": bad}}))
    with pytest.raises(RatingsFileError, match="do not add up"):
        strength.load(path)
    bad = json.loads(json.dumps(good))
    bad["bots"]["search:hard"]["low"] = 2000
    path.write_text(json.dumps({"format": 1, "rulesets": {"refuelled": bad}}))
    with pytest.raises(RatingsFileError, match="not within its interval"):
        strength.load(path)
    bad = json.loads(json.dumps(good))  # the interval beside the rating, not around it
    bad["bots"]["search:hard"]["high"] = bad["bots"]["search:hard"]["elo"] - 1
    path.write_text(json.dumps({"format": 1, "rulesets": {"refuelled": bad}}))
    with pytest.raises(RatingsFileError, match="not within its interval"):
        strength.load(path)
    bad = dict(good, anchor="median")
    path.write_text(json.dumps({"format": 1, "rulesets": {"refuelled": bad}}))
    with pytest.raises(RatingsFileError, match="anchor must be one of"):
        strength.load(path)


def test_the_shipped_ratings_are_of_known_rulesets_and_bots() -> None:
    runs = strength.load()
    assert "refuelled" in runs, "the ladder's Refuelled run is shipped"
    for name, r in runs.items():
        assert name in RULESETS
        assert r.scenario in RULESETS[name].scenarios
        per_bot = sum(b.games for b in r.bots.values())
        assert per_bot == 2 * r.games, "every game counts for both of its bots"
        for bot in r.bots:
            assert strength.strength(runs, name, bot).rated
