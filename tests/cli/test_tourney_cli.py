"""``carnage tourney A B``: the JSON summary, the tables, seeds that make it reproducible
whatever the worker count, and bad options or team files as one line on stderr (exit 2)."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from carnage.analysis.tourney import RAY_MISSING
from carnage.cli.main import app

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})
TEAMS = Path(__file__).resolve().parents[2] / "examples" / "teams"
A, B = str(TEAMS / "intro.yaml"), str(TEAMS / "idris_cult_of_speed.yaml")


def tourney_json(*args: str) -> dict[str, Any]:
    r = runner.invoke(app, ["tourney", A, B, *args, "--json"])
    assert r.exit_code == 0, r.output
    out: dict[str, Any] = json.loads(r.stdout)
    return out


def test_json_summary_and_reproducible_across_worker_counts() -> None:
    one = tourney_json("--games", "6", "--seed", "11")
    two = tourney_json("--games", "6", "--seed", "11", "--workers", "2")
    run1, run2 = one.pop("run"), two.pop("run")
    assert one == two
    assert (run1["backend"], run1["workers"], run2["workers"]) == ("local", 1, 2)
    assert run1["games_per_second"] > 0
    assert one["games"] == 6 and one["seed"] == 11 and one["scenario"] == "street-race"
    assert one["teams"]["A"] == {"name": "Street Race starters", "source": A, "bot": "heuristic"}
    assert set(one["a"]) == {"win", "draw", "loss"}
    for k, p in one["a"].items():
        lo, hi = p["ci95"]
        assert 0 <= lo <= p["rate"] <= hi <= 1, k
    assert {v["team"] for v in one["vehicles"]} == {"A", "B"}
    assert one["by_seat"]["A in seat 1"]["games"] == one["by_seat"]["A in seat 2"]["games"] == 3


def test_the_bots_follow_their_team_whatever_seat() -> None:
    s = tourney_json("--games", "4", "--bots", "heuristic,random")
    assert (s["teams"]["A"]["bot"], s["teams"]["B"]["bot"]) == ("heuristic", "random")


def test_tables_and_no_progress_bar_in_json() -> None:
    r = runner.invoke(app, ["tourney", A, B, "--games", "4"])
    assert r.exit_code == 0, r.output
    assert "Street Race starters (A) vs Cult of Speed (B)" in r.stdout
    for word in ("wins", "draws", "losses", "Red Car", "survived", "dealt", "taken", "by seat",
                 "mean rounds"):
        assert word in r.stdout, word
    j = runner.invoke(app, ["tourney", A, B, "--games", "2", "--json"])
    assert "tourney" not in j.stderr  # no progress bar when the output is JSON
    json.loads(j.stdout)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bad_team(tmp: Path) -> str:
    p = tmp / "bad.yaml"
    p.write_text("name: nope\nvehicles: []\n")
    return str(p)


def illegal_team(tmp: Path) -> str:
    p = tmp / "dear.yaml"
    p.write_text("name: Too Dear\ncans: 5\nvehicles:\n  - {name: Tank, type: tank}\n")
    return str(p)


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "0"], "--games must be at least 1, not 0"),
    (["--workers", "0"], "--workers must be at least 1, not 0"),
    (["--backend", "spark"], "--backend must be local or ray, not 'spark'"),
    (["--address", "127.0.0.1:6379"], "--address names a Ray cluster: use it with --backend ray"),
    (["--scenario", "nowhere"], "unknown scenario 'nowhere'"),
    (["--ruleset", "devils-run"],
     "--ruleset devils-run: Devil's Run: Route 666 offers no tourney"),
    (["--bots", "a,b,c"], "--bots: give one bot for both teams or two"),
    (["--bots", "genius"], "--bots: unknown bot 'genius'"),
    (["--backend", "ray", "--address", "nowhere"], "--address 'nowhere': expected HOST:PORT"),
])
def test_bad_options_are_one_line_exit_2(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["tourney", A, B, "--games", "2", *args])
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("tourney: ") and message in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.output


def test_a_ray_address_with_nothing_behind_it_is_one_line() -> None:
    port = free_port()
    r = runner.invoke(app, ["tourney", A, B, "--games", "2", "--backend", "ray",
                            "--address", f"127.0.0.1:{port}"])
    assert r.exit_code == 2
    assert f"--address 127.0.0.1:{port}: no Ray cluster answers there" in r.stderr


def test_without_ray_installed_the_ray_backend_says_how_to_get_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    r = runner.invoke(app, ["tourney", A, B, "--games", "2", "--backend", "ray"])
    assert r.exit_code == 2
    assert r.stderr.strip() == f"tourney: {RAY_MISSING}"
    assert "pip install 'carnage[ray]'" in r.stderr


def test_team_files_with_problems_are_named(tmp_path: Path) -> None:
    cases = [
        ([str(tmp_path / "missing.yaml"), B], f"team A: {tmp_path / 'missing.yaml'}: no such file"),
        ([A, bad_team(tmp_path)], f"team B: {tmp_path / 'bad.yaml'}: cans: missing"),
        ([A, illegal_team(tmp_path)], f"team B ({tmp_path / 'dear.yaml'}) (Too Dear): "),
    ]
    for files, message in cases:
        r = runner.invoke(app, ["tourney", *files, "--games", "2"])
        assert r.exit_code == 2, r.output
        assert message in r.stderr, r.stderr
        assert r.stderr.count("\n") == 1
