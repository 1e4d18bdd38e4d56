"""Random sponsored teams with perks and ``carnage simulate --sponsored``."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carnage.catalog import load_catalog
from carnage.catalog.models import UpgradeKind, Weight
from carnage.cli.main import app
from carnage.cli.simulate_cmd import random_teams_setup
from carnage.games.refuelled.setup import GameSetup, read_log
from carnage.team import check_team
from carnage.team import random_team as random_team_module
from carnage.team.random_team import random_team

runner = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1"})
SEEDS = range(500)


@pytest.mark.parametrize("cans", [20, 50, 100])
def test_every_sponsored_team_is_legal_within_budget_and_buys_only_its_classes_perks(
        cans: int) -> None:
    cat = load_catalog()
    for s in range(80):
        spec = random_team(s, cans, sponsored=True)
        report = check_team(spec)
        assert report.valid, (s, [e.message for e in report.errors])
        assert report.total_cans <= cans
        classes = set(cat.sponsors.get(spec.sponsor).perk_classes) if spec.sponsor else set()
        for v in spec.vehicles:
            assert len(set(v.perks)) == len(v.perks)  # each perk at most once per vehicle
            assert {cat.perks.get(p).perk_class for p in v.perks} <= classes


def test_sponsors_and_every_perk_are_drawn() -> None:
    cat = load_catalog()
    sponsors: Counter[str | None] = Counter()
    perks: Counter[str] = Counter()
    for s in SEEDS:
        spec = random_team(s, 50, sponsored=True)
        sponsors[spec.sponsor] += 1
        perks.update(p for v in spec.vehicles for p in v.perks)
    assert {sp.id for sp in cat.sponsors} <= set(sponsors)
    assert sponsors[None] == 0  # at 50 cans no draw loses its sponsor in the repair
    assert {p.id for p in cat.perks} - set(perks) == set()


def test_sponsored_draws_fit_the_sponsor(monkeypatch: pytest.MonkeyPatch) -> None:
    # Miyazaki (no Handling 2 types), Rutherford (no lightweights) and Rusty's (a towing
    # vehicle) draws are legal as drawn: with no repair at all, every team keeps its sponsor.
    cat = load_catalog()
    monkeypatch.setattr(random_team_module, "REPAIRS", 1)
    for s in range(300):
        spec = random_team(s, 50, sponsored=True)
        assert spec.sponsor is not None, s
        for v in spec.vehicles:
            vt = cat.vehicles.get(v.type)
            if spec.sponsor == "miyazaki":
                assert vt.handling >= 3
            if spec.sponsor == "rutherford":
                assert vt.weight is not Weight.LIGHTWEIGHT
        if spec.sponsor == "rustys_bootleggers":
            assert any(cat.vehicles.get(v.type).has_trailer or any(
                cat.upgrades.get(u.id).kind is UpgradeKind.TRAILER for u in v.upgrades)
                for v in spec.vehicles)


def test_perks_respect_weight_and_handling_limits() -> None:
    cat = load_catalog()
    limited = {p.id: p for p in cat.perks if p.allowed_weights or p.min_base_handling}
    assert limited  # Stunt Driver (p.107)
    fitted = 0
    for s in range(400):
        for v in random_team(s, 50, sponsored=True).vehicles:
            vt = cat.vehicles.get(v.type)
            for pid in v.perks:
                p = limited.get(cat.perks.get(pid).id)
                if p is None:
                    continue
                fitted += 1
                assert not p.allowed_weights or vt.weight in p.allowed_weights
                assert p.min_base_handling is None or vt.handling >= p.min_base_handling
    assert fitted


def test_sponsored_teams_are_reproducible_from_the_seed() -> None:
    assert random_team(5, 50, sponsored=True) == random_team(5, 50, sponsored=True)
    drawn = {random_team(s, 50, sponsored=True).model_dump_json() for s in range(20)}
    assert len(drawn) == 20


def test_perks_follow_the_option() -> None:
    # Without the option (the unsponsored draw) or with perks=False, no perks; perks=True buys them
    # for any drawn sponsor.
    assert not any(v.perks for s in range(60) for v in random_team(s, 50).vehicles)
    assert not any(v.perks for s in range(60)
                   for v in random_team(s, 50, sponsored=True, perks=False).vehicles)
    with_perks = [random_team(s, 50, perks=True) for s in range(60)]
    assert any(v.perks for t in with_perks for v in t.vehicles)
    assert all(check_team(t).valid for t in with_perks)
    assert all(not v.perks for t in with_perks if t.sponsor is None for v in t.vehicles)
    assert not any(random_team(s, 50, sponsored=False).sponsor for s in range(30))


def test_random_teams_setup_sponsored() -> None:
    make = random_teams_setup(GameSetup(), 50, sponsored=True)
    a = make(3)
    assert a == make(3)
    assert all(t.sponsor is not None for s in range(10) for t in make(s).teams)
    assert any(v.perks for s in range(10) for t in make(s).teams for v in t.vehicles)
    assert random_teams_setup(GameSetup(), 50)(3).teams == random_teams_setup(
        GameSetup(), 50, sponsored=None)(3).teams


# -- carnage simulate --teams random --sponsored --------------------------------------------
@pytest.mark.parametrize("flag, sponsored", [("--sponsored", True), ("--no-sponsored", False)])
def test_simulate_sponsored_flag(tmp_path: Path, flag: str, sponsored: bool) -> None:
    log = tmp_path / "g"
    r = runner.invoke(app, ["simulate", "--teams", "random", flag, "--games", "2", "--seed",
                            "70", "--bots", "random", "--max-rounds", "3", "--json", "--log",
                            str(log)])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["errors"] == 0
    rec = read_log(log / "game-71.jsonl")
    assert rec.setup.teams == random_teams_setup(GameSetup(max_rounds=3), 50,
                                                 sponsored=sponsored)(71).teams
    assert all((t.sponsor is not None) == sponsored for t in rec.setup.teams)


def test_sponsored_without_random_teams_is_a_one_line_error() -> None:
    r = runner.invoke(app, ["simulate", "--games", "1", "--sponsored"])
    assert r.exit_code == 2
    assert r.stderr.strip() == "--sponsored/--no-sponsored apply only with --teams random"
