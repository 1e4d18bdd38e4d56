"""``carnage play``, ``carnage simulate`` and ``carnage replay``."""

from __future__ import annotations

import io
import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from carnage.ai import make_bot
from carnage.cli.main import app
from carnage.cli.play_cmd import TerminalPlay, parse_answer, table_view
from carnage.games.refuelled.setup import GameSetup, build_game, read_log
from carnage.kernel.decisions import Decision, IllegalChoice, Interval, Option

runner = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1"})
ROOT = Path(__file__).resolve().parents[2]
INTRO = ROOT / "examples" / "teams" / "intro.yaml"


# -- simulate --------------------------------------------------------------------------------
def test_simulate_json_summary() -> None:
    r = runner.invoke(app, ["simulate", "--games", "4", "--seed", "3", "--bots",
                            "heuristic,random", "--max-rounds", "8", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)  # the progress bar is on stderr, not in the JSON
    assert set(data) == {"games", "wins", "draws", "mean_rounds", "games_per_second", "errors",
                         "scenario", "end_reasons"}
    assert sum(data["end_reasons"].values()) == 4
    assert data["games"] == 4 and data["errors"] == 0
    # Street Race's report tallies the games won across the finish line.
    assert 0 <= data["scenario"]["finish_crossed"] <= sum(data["wins"].values())
    assert set(data["wins"]) == {"p1:heuristic", "p2:random"}
    assert sum(data["wins"].values()) + data["draws"] == 4
    assert 1 <= data["mean_rounds"] <= 8 and data["games_per_second"] > 0


def test_simulate_is_reproducible_and_seeded() -> None:
    args = ["simulate", "--games", "3", "--bots", "random", "--max-rounds", "5", "--json"]
    a = json.loads(runner.invoke(app, [*args, "--seed", "10"]).stdout)
    b = json.loads(runner.invoke(app, [*args, "--seed", "10"]).stdout)
    assert {k: a[k] for k in ("wins", "draws", "mean_rounds")} == {
        k: b[k] for k in ("wins", "draws", "mean_rounds")}
    assert set(a["wins"]) == {"p1:random", "p2:random"}  # one name serves every seat


def test_simulate_table_output_and_team_files() -> None:
    r = runner.invoke(app, ["simulate", "--games", "2", "--bots", "heuristic,heuristic",
                            "--team", str(INTRO), "--team", str(INTRO), "--max-rounds", "6"])
    assert r.exit_code == 0, r.output
    assert "p1:heuristic wins" in r.stdout and "games/s" in r.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "clever,random"], "--bots: unknown bot 'clever'"),
        (["--bots", "random,random,random"], "2 players need 2 bots, got 3"),
        (["--games", "0"], "--games must be at least 1"),
        (["--scenario", "moon-race"], "unknown scenario 'moon-race'"),
        (["--team", "nope.yaml"], "nope.yaml: no such file"),
        (["--max-rounds", "0"], "max rounds must be at least 1"),
    ],
)
def test_simulate_bad_options_are_one_line_exit_2(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["simulate", "--json", *args])
    assert r.exit_code == 2
    assert r.stdout == ""
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_simulate_counts_a_crashing_game_and_carries_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import carnage.cli.simulate_cmd as sim

    real = sim.play_out

    def flaky(game: Any, bots: Any, rng: Any, *a: Any, **k: Any) -> Any:
        if game.dice.seed == 21:
            raise RuntimeError("boom")
        return real(game, bots, rng, *a, **k)

    monkeypatch.setattr(sim, "play_out", flaky)
    r = runner.invoke(app, ["simulate", "--games", "3", "--seed", "20", "--bots", "random",
                            "--max-rounds", "4", "--json"])
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert data["errors"] == 1 and data["games"] == 3
    assert sum(data["wins"].values()) + data["draws"] == 2
    assert "seed 21 raised RuntimeError: boom" in r.stderr


# -- logs and replay ---------------------------------------------------------------------------
def test_simulate_logs_replay_identically(tmp_path: Path) -> None:
    log = tmp_path / "games"
    r = runner.invoke(app, ["simulate", "--games", "2", "--seed", "7", "--bots",
                            "heuristic,random", "--max-rounds", "6", "--log", str(log)])
    assert r.exit_code == 0, r.output
    files = sorted(log.iterdir())
    assert [f.name for f in files] == ["game-7.jsonl", "game-8.jsonl"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games"]  # nothing beside the folder
    for f in files:
        rec = read_log(f)
        assert rec.seed in (7, 8) and rec.choices
        out = runner.invoke(app, ["replay", str(f)])
        assert out.exit_code == 0, out.output
        assert "replayed identically" in out.stdout and "won in round" in out.stdout


def test_replay_finds_the_first_difference(tmp_path: Path) -> None:
    assert runner.invoke(app, ["simulate", "--games", "1", "--bots", "random", "--max-rounds",
                               "3", "--log", str(tmp_path)]).exit_code == 0
    log = tmp_path / "game-0.jsonl"
    lines = log.read_text().splitlines()
    idx = next(i for i, ln in enumerate(lines) if '"kind": "roll"' in ln and i > 1)
    ev = json.loads(lines[idx])
    ev["data"]["dice"] = [9]
    lines[idx] = json.dumps(ev, sort_keys=True)
    log.write_text("\n".join(lines) + "\n")
    r = runner.invoke(app, ["replay", str(log)])
    assert r.exit_code == 1
    assert f"replay differs at event {idx - 1}" in r.stdout
    assert '"dice": [9]' in r.stdout


@pytest.mark.parametrize(("text", "message"), [
    ("not json\n", "not JSON"),
    ('{"carnage_log": 1, "seed": 0, "choices": ["x"], "setup": {"scenario": "street-race"}}\n',
     "choice 1 of 1"),
])
def test_replay_bad_logs_exit_2(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "bad.jsonl"
    p.write_text(text)
    r = runner.invoke(app, ["replay", str(p)])
    assert r.exit_code == 2 and message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    missing = runner.invoke(app, ["replay", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr


# -- play --------------------------------------------------------------------------------------
def test_parse_answer_numbers_values_and_domains() -> None:
    d = Decision(0, "grid", "where", options=(Option("-15", "left"), Option("+0", "mid")))
    assert parse_answer(d, "2") == "+0"
    assert parse_answer(d, " -15 ") == "-15"
    with pytest.raises(IllegalChoice, match="option number from 1 to 2"):
        parse_answer(d, "3")
    s = Decision(0, "spin", "angle", domain=Interval(-90, 90))
    assert parse_answer(s, "45.5") == 45.5
    with pytest.raises(IllegalChoice, match="number from -90 to 90"):
        parse_answer(s, "left")


def test_play_bots_only_to_the_end() -> None:
    r = runner.invoke(app, ["play", "--p1", "heuristic", "--p2", "random", "--seed", "4",
                            "--max-rounds", "8"])
    assert r.exit_code == 0, r.output
    # The bots' choices are the table's log lines, players named by seat colour.
    assert "Red chose" in r.stdout and "Blue chose" in r.stdout
    assert "Player 1" not in r.stdout and "p1-" not in r.stdout
    assert ("wins in round" in r.stdout) or ("Draw after" in r.stdout)


def test_play_human_commands_svg_state_errors_and_quit(tmp_path: Path) -> None:
    stdin = "1\n1\nsvg\nstate\nbogus\n99\nquit\n"
    r = runner.invoke(app, ["play", "--p2", "random", "--seed", "2", "--svg-dir",
                            str(tmp_path / "snaps"), "--log", str(tmp_path / "g.jsonl")],
                      input=stdin)
    assert r.exit_code == 0, r.output
    assert "Red (Street Race, p.62): Street Race: choose a vehicle" in r.stdout
    assert "   1. Red Car" in r.stdout
    assert "not legal: type an option number" in r.stdout
    assert "Vehicles" in r.stdout and "game abandoned" in r.stdout
    svgs = list((tmp_path / "snaps").glob("snapshot-*.svg"))
    assert len(svgs) == 1
    root = ET.fromstring(svgs[0].read_text())
    drawn = {e.get("data-id") for e in root.iter()
             if "vehicle" in (e.get("class") or "").split()}
    rec = read_log(tmp_path / "g.jsonl")
    placed = {str(e["data"]["vehicle"]) for e in rec.events if e["kind"] == "deploy"}
    assert drawn == placed and "p1-red-car" in placed  # not those still waiting off the table
    assert "p1-red-car" in rec.choices


def test_play_human_game_to_the_end_with_typed_numbers(tmp_path: Path) -> None:
    g = build_game(GameSetup(max_rounds=3), 1)
    out = io.StringIO()
    con = Console(file=out, width=120)
    answers = io.StringIO("1\n" * 3000)
    done = TerminalPlay(g, ["human", "random"], con, answers, tmp_path, 1).run()
    assert done and g.outcome() is not None
    text = out.getvalue()
    assert "Red (Movement, p.22): Red Car: select a movement template" in text
    assert "Red Car takes its place on the starting grid" in text
    # The terminal prints the same lines as the table's log, in the same order.
    from carnage.games.refuelled.table_view import log_lines

    shown = [ln.text for ln in log_lines(g, g.log.events)]
    # a line longer than the console wraps onto the next: read the printed lines as one text
    printed = " ".join(ln.strip().removeprefix("> ") for ln in text.splitlines())
    at = 0
    for line in shown:
        found = printed.find(line, at)
        assert found >= 0, line
        at = found + len(line)


def test_terminal_options_are_numbered_from_one_in_plain_words() -> None:
    from carnage.cli.play_cmd import decision_lines

    g = build_game(GameSetup(), 1)
    seen = set()
    bot = make_bot("heuristic")
    rng = random.Random(1)
    while (d := g.pending()) is not None and len(seen) < 6:
        lines = decision_lines(g, d)
        numbers = [int(ln.split(".")[0]) for ln in lines[1:] if ln.strip()[:1].isdigit()
                   and not ln.strip().startswith(("a number", "dice"))]
        assert numbers == list(range(1, len(d.options) + 1))
        if d.kind in ("push_it", "spend_shift"):
            assert all("die 0" not in ln and "reroll 0" not in ln for ln in lines)
        assert not any("p1-" in ln or "p2-" in ln or "_" in ln for ln in lines)
        seen.add(d.kind)
        g.apply(bot.choose(g, d, rng))


def test_play_bad_seat_is_exit_2() -> None:
    r = runner.invoke(app, ["play", "--p2", "genius"])
    assert r.exit_code == 2 and "--p2: unknown bot 'genius'" in r.stderr


def test_table_view_shows_lines_terrain_and_vehicles() -> None:
    g = build_game(GameSetup(), 0)
    assert table_view(g).vehicles == []  # nobody deployed yet
    while (d := g.pending()) is not None and d.kind in ("deploy", "grid"):
        g.apply(d.options[0].value)
    view = table_view(g, "t")
    assert {t.label for t in view.templates if t.kind == "scenario"} == {"START", "FINISH"}
    assert len(view.obstacles) == len(g.state.obstacles)
    assert sorted(v.id for v in view.vehicles) == sorted(g.state.vehicles)


def test_unwritable_log_and_svg_dir_are_one_line_errors(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = runner.invoke(app, ["simulate", "--games", "1", "--log", str(blocker)])
    assert r.exit_code == 2 and "is a file, not a folder" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    nested = tmp_path / "a" / "b"  # only the log folder itself is made, never its parents
    r = runner.invoke(app, ["simulate", "--games", "1", "--log", str(nested)])
    assert r.exit_code == 2 and "does not exist" in r.stderr and not (tmp_path / "a").exists()
    one = tmp_path / "logs"
    ok = runner.invoke(app, ["simulate", "--games", "1", "--bots", "random", "--max-rounds",
                             "2", "--seed", "3", "--log", str(one)])
    assert ok.exit_code == 0 and [p.name for p in one.iterdir()] == ["game-3.jsonl"]
    p = runner.invoke(app, ["play", "--svg-dir", str(blocker / "snaps")], input="svg\nquit\n")
    assert p.exit_code == 0 and "cannot write a snapshot" in p.stdout


def test_illegal_team_file_is_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "tank.yaml"
    bad.write_text("name: Too Dear\ncans: 10\nvehicles:\n  - {name: T, type: tank}\n")
    r = runner.invoke(app, ["simulate", "--team", str(bad), "--team", str(INTRO)])
    assert r.exit_code == 2 and r.stderr.startswith("player 1 (Too Dear): ")
    assert len(r.stderr.strip().splitlines()) == 1
