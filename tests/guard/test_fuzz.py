"""Property-based fuzzing of every door: team files, scenes, game logs and API payloads.

The property is always the same: a clean error (the door's own error type, one line per
problem, exit 2 on the command line, a 4xx on the web) or a valid answer, within a time
bound. Examples are bounded so the whole file runs in well under a minute; set
``CARNAGE_FUZZ_EXAMPLES`` for a longer hunt (``CARNAGE_FUZZ_EXAMPLES=5000 pytest tests/guard``).
"""

from __future__ import annotations

import copy
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.web.test_api_support import TestClient, new_client, racer_team
from typer.testing import CliRunner

from carnage.cli.judge_cmd import judge_scene
from carnage.cli.main import app
from carnage.games.refuelled.setup import SetupError, log_text, parse_log, record_game, replay
from carnage.geometry.scene import SceneError, load_scene
from carnage.team import TeamFileError, check_team, load_team

ROOT = Path(__file__).resolve().parents[2]
INTRO = (ROOT / "examples" / "teams" / "intro.yaml").read_text()
SCENE: dict[str, Any] = json.loads((ROOT / "examples" / "scenes" / "example.json").read_text())
BOUND = 3.0
"""Seconds any one input may take to be answered or refused."""

EXAMPLES = int(os.environ.get("CARNAGE_FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])

BIG = "__5000_digits__"
"""Spliced into the written text as a 5,000-digit integer (Python cannot even print one)."""
_HOSTILE = [10**400, BIG, 2**64, 0, -1, 1e-9, 1e18, 1e308, -1e308, float("inf"),
            float("nan"), True, False, 0.5, 10**29]
HOSTILE_NUMBERS = st.integers(0, len(_HOSTILE) - 1).map(lambda i: _HOSTILE[i])
"""Drawn by index: a 5,000-digit integer cannot even be printed in a strategy's repr."""
SCALARS = (st.none() | st.booleans() | st.integers() | HOSTILE_NUMBERS
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30))
TREES = st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=5)
                     | st.dictionaries(st.text(max_size=10), kids, max_size=5), max_leaves=30)


def timed(fn: Any, *args: Any) -> Any:
    t0 = time.monotonic()
    out = fn(*args)
    assert time.monotonic() - t0 < BOUND
    return out


# -- mutation: a valid document with one value swapped for something hostile ------------------
def paths(doc: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, (*at, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, (*at, i))
    return out


def mutate(doc: Any, where: tuple[Any, ...], value: Any) -> Any:
    if not where:
        return value
    doc = copy.deepcopy(doc)
    node = doc
    for k in where[:-1]:
        node = node[k]
    node[where[-1]] = value
    return doc


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    out = base
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(out)))
        out = mutate(out, where, draw(TREES))
    return out


def dump(doc: Any, fmt: str) -> str:
    if fmt == "json":  # NaN and Infinity are written as JSON extensions
        return json.dumps(doc).replace(f'"{BIG}"', "9" * 5000)
    return yaml.safe_dump(doc).replace(BIG, "9" * 5000)


# -- team files --------------------------------------------------------------------------------
runner = CliRunner()


@FUZZ
@given(doc=mutated(yaml.safe_load(INTRO)), fmt=st.sampled_from(["yaml", "json"]))
def test_team_files_clean_error_or_report(tmp_path: Path, doc: Any, fmt: str) -> None:
    p = tmp_path / f"team.{fmt}"
    p.write_text(dump(doc, fmt))
    try:
        spec = timed(load_team, p)
    except TeamFileError as e:
        assert e.problems and all("\n" not in x for x in e.problems)
        return
    report = timed(check_team, spec)
    json.loads(report.to_json_text())


@FUZZ
@given(text=st.text(max_size=300) | st.builds(
    lambda parts: "\n".join(parts),
    st.lists(st.sampled_from(["name: X", "cans: 0x" + "f" * 40, "&a [1]", "*a", "- [", "{",
                              "cans: 1:2:3:4:5:6:7", "vehicles:", "  - {type: car}", "? [1]",
                              "!!binary AAAA", "!!set {a}", "cans: .inf", "<<: *a"]),
             max_size=12)))
def test_team_check_on_arbitrary_text_exits_cleanly(tmp_path: Path, text: str) -> None:
    p = tmp_path / "team.yaml"
    p.write_text(text, encoding="utf-8", errors="surrogatepass")
    t0 = time.monotonic()
    r = runner.invoke(app, ["team", "check", str(p)])
    assert time.monotonic() - t0 < BOUND
    assert r.exit_code in (0, 1, 2) and (r.exception is None or isinstance(r.exception,
                                                                          SystemExit))
    if r.exit_code == 2:
        assert "Traceback" not in r.stderr and r.stderr.strip()


# -- scenes ------------------------------------------------------------------------------------
NUMBERS = HOSTILE_NUMBERS | st.floats(-2e6, 2e6) | st.floats(0, 1e-3) | st.integers(-5, 5)


@st.composite
def renumbered(draw: st.DrawFn, base: Any) -> Any:
    """``base`` with a few of its numbers changed: the scene stays well formed, so the
    geometry itself is fuzzed (tiny, huge, coincident and degenerate shapes)."""
    numeric = [p for p in paths(base) if p and isinstance(_at(base, p), int | float)
               and not isinstance(_at(base, p), bool)]
    out = base
    for _ in range(draw(st.integers(1, 4))):
        out = mutate(out, draw(st.sampled_from(numeric)), draw(NUMBERS))
    return out


def _at(doc: Any, where: tuple[Any, ...]) -> Any:
    for k in where:
        doc = doc[k]
    return doc


@FUZZ
@given(doc=mutated(SCENE) | renumbered(SCENE))
def test_scenes_clean_error_or_answers(doc: Any) -> None:
    try:
        scene = timed(load_scene, doc)
        result = timed(judge_scene, scene)
    except SceneError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert len(result.answers) == len(scene.queries)
    json.dumps(result.answers, allow_nan=False)


# -- game logs ---------------------------------------------------------------------------------
def _small_log() -> list[dict[str, Any]]:
    from carnage.ai import bot_rng, make_bot, play_out
    from carnage.games.refuelled.setup import GameSetup, build_game

    setup = GameSetup(max_rounds=1)
    game = build_game(setup, 3)
    play_out(game, [make_bot("random"), make_bot("random")], bot_rng(3))
    text = log_text(record_game(game, setup, 3))
    return [json.loads(ln) for ln in text.splitlines()[:40]]


LOG = _small_log()


@FUZZ
@given(header=mutated(LOG[0]), events=st.lists(mutated(LOG[1]), max_size=2))
def test_logs_clean_error_or_replay(header: Any, events: list[Any]) -> None:
    text = "\n".join(dump(x, "json") for x in [header, *events]) + "\n"
    try:
        record = timed(parse_log, text)
        result = timed(replay, record)
    except SetupError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert result.events == len(record.events)


# -- API payloads ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    return new_client(tmp_path_factory.mktemp("fuzz"))


def no_5xx(r: Any) -> None:
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        d = r.json()["detail"]
        assert isinstance(d, str) and d and "\n" not in d


@FUZZ
@given(team=mutated(racer_team()), homebrew=st.booleans())
def test_validate_and_save_payloads(client: TestClient, team: Any, homebrew: bool) -> None:
    for url, body in (("/api/teams/validate", {"team": team, "homebrew": homebrew}),
                      ("/api/teams", {"team": team})):
        t0 = time.monotonic()
        r = client.post(url, content=dump(body, "json"),
                        headers={"content-type": "application/json"})
        assert time.monotonic() - t0 < BOUND
        no_5xx(r)


@FUZZ
@given(doc=mutated(yaml.safe_load(INTRO)), fmt=st.sampled_from(["yaml", "json"]))
def test_import_payloads(client: TestClient, doc: Any, fmt: str) -> None:
    t0 = time.monotonic()
    r = client.post("/api/teams/import", json={"text": dump(doc, fmt), "format": fmt})
    assert time.monotonic() - t0 < BOUND
    no_5xx(r)


@FUZZ
@given(body=mutated({"scenario": "street-race", "seed": 3, "hot_seat": False,
                     "seats": [{"controller": "human"}, {"controller": "random"}]}),
       choice=TREES, version=TREES)
def test_game_and_decision_payloads(client: TestClient, body: Any, choice: Any,
                                    version: Any) -> None:
    r = client.post("/api/games", content=dump(body, "json"),
                    headers={"content-type": "application/json"})
    no_5xx(r)
    if r.status_code != 201:
        return
    g = r.json()
    tok = next((s["token"] for s in g["seats"] if s["token"]), "")
    d = client.post(f"/api/games/{g['id']}/decisions", content=dump(
        {"token": tok, "version": version, "choice": choice}, "json"),
        headers={"content-type": "application/json"})
    no_5xx(d)
