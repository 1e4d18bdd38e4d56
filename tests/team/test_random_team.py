"""Random legal teams and ``carnage simulate --teams random --cans N``."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carnage.catalog import load_catalog
from carnage.catalog.models import Facing
from carnage.cli.main import app
from carnage.cli.simulate_cmd import random_teams_setup
from carnage.games.refuelled.setup import GameSetup, read_log, replay
from carnage.team import check_team
from carnage.team.random_team import RandomTeamError, random_team

runner = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1"})
SEEDS = range(300)


def test_same_seed_same_team_and_seeds_differ() -> None:
    assert random_team(7, 50) == random_team(7, 50)
    assert random_team("7", 50) == random_team(7, 50)  # the seed is used as text
    teams = {random_team(s, 50).model_dump_json() for s in range(20)}
    assert len(teams) == 20


@pytest.mark.parametrize("cans", [5, 20, 50, 120])
def test_every_random_team_is_legal_and_within_budget(cans: int) -> None:
    for s in range(60):
        spec = random_team(s, cans)
        report = check_team(spec)
        assert report.valid, (s, [e.message for e in report.errors])
        assert report.total_cans <= cans and spec.cans == cans
        assert spec.vehicles


def test_random_teams_draw_from_the_whole_arsenal() -> None:
    cat = load_catalog()
    kinds: Counter[str] = Counter()
    vehicles, weapons, upgrades, sponsors = set(), set(), set(), set()
    for s in SEEDS:
        spec = random_team(s, 50)
        sponsors.add(spec.sponsor)
        for v in spec.vehicles:
            vehicles.add(v.type)
            for w in v.weapons:
                weapons.add(w.id)
                if w.facing is Facing.TURRET:
                    kinds["turret"] += 1
                if w.mount is not None:
                    kinds["mount"] += 1
            for u in v.upgrades:
                upgrades.add(u.id)
                if u.facing is not None:
                    kinds["upgrade facing"] += 1
    assert len(vehicles) >= len(cat.vehicles) - 2  # the 40-can types turn up less often
    assert len(weapons) >= 0.9 * (len(cat.weapons) - 1)  # all but the free Handgun
    assert {"armour_plating", "ram", "exploding_ram", "nitro_booster", "tank_tracks",
            "extra_crewmember", "improvised_sludge_thrower"} <= upgrades
    assert None in sponsors and len(sponsors) >= 10
    assert kinds["turret"] and kinds["mount"] and kinds["upgrade facing"]


def test_facings_are_those_the_catalogue_allows() -> None:
    cat = load_catalog()
    for s in range(100):
        for v in random_team(s, 50).vehicles:
            for w in v.weapons:
                allowed = cat.weapons.get(w.id).allowed_facings
                assert (w.facing is None) == (not allowed)
                assert w.facing is None or w.facing in allowed
            for u in v.upgrades:
                up = cat.upgrades.get(u.id)
                assert (u.facing is not None) == up.needs_facing


def test_too_small_a_budget_is_a_one_line_error() -> None:
    with pytest.raises(RandomTeamError) as e:
        random_team(1, 4)
    assert str(e.value) == "a random team needs at least 5 cans (the cheapest vehicle), not 4"


def test_random_teams_setup_gives_each_game_its_own_teams() -> None:
    make = random_teams_setup(GameSetup(players=3), 50)
    a, b = make(11), make(12)
    assert len(a.teams) == 3 and a.players == 3
    assert a.teams != b.teams and a == make(11)
    assert all(check_team(t).valid for t in a.teams)


# -- carnage simulate --teams random --cans N ----------------------------------------------
def test_simulate_random_teams(tmp_path: Path) -> None:
    log = tmp_path / "g"
    r = runner.invoke(app, ["simulate", "--teams", "random", "--cans", "50", "--games", "3",
                            "--seed", "40", "--bots", "random", "--max-rounds", "4", "--json",
                            "--log", str(log)])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games"] == 3 and data["errors"] == 0
    logs = sorted(log.glob("game-*.jsonl"))
    assert [p.name for p in logs] == ["game-40.jsonl", "game-41.jsonl", "game-42.jsonl"]
    rec = read_log(logs[1])
    assert rec.setup.teams == random_teams_setup(GameSetup(max_rounds=4), 50)(41).teams
    again = replay(rec)
    assert again.identical and again.crash is None


@pytest.mark.parametrize("args, message", [
    (["--teams", "fixed"], "--teams: only 'random' is known, not 'fixed'"),
    (["--teams", "random", "--cans", "3"],
     "--cans: a random team needs at least 5 cans (the cheapest vehicle), not 3"),
])
def test_simulate_random_teams_bad_options_are_one_line(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["simulate", "--games", "1", *args])
    assert r.exit_code == 2
    assert r.stderr.strip() == message
