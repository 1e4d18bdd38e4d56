"""A vehicle's campaign career at the team builder (Refuelled pp.162-164, 167): checks,
derived stats, free perks, and what ``carnage team check/show`` print."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from carnage.cli.main import app
from carnage.team import check_team, parse_team
from carnage.team.career import describe_career, injuries, injury

from .conftest import CheckFn


def car(**career: Any) -> dict[str, Any]:
    v: dict[str, Any] = {"name": "Dented", "type": "car", "weapons": [], "perks": []}
    if career:
        v["career"] = career
    return v


def rules_of(report: Any) -> list[str]:
    return [e.rule for e in report.errors]


def test_injuries_are_data_with_dent_costs() -> None:
    table = injuries()
    assert list(table) == ["deathwish", "bad-television", "crazed", "cowardly",
                           "old-war-wound", "shakes", "twitch", "held-together-by-rust",
                           "badass", "living-legend"]
    assert [table[i].dents for i in table] == [1, 1, 2, 2, 3, 3, 4, 5, 6, 11]
    assert all(i.page == 163 for i in table.values())
    assert injury("living-legend").when == "post_game"


def test_a_career_without_wear_changes_nothing(check: CheckFn) -> None:
    plain = check(car())
    worn = check(car(dents=3))
    assert worn.valid
    assert (worn.vehicles[0].hull, worn.vehicles[0].crew, worn.total_cans) == (
        plain.vehicles[0].hull, plain.vehicles[0].crew, plain.total_cans)
    assert worn.vehicles[0].career is not None and worn.vehicles[0].career.dents == 3


def test_crew_and_hull_loss_never_below_one(check: CheckFn) -> None:
    r = check(car(crew_loss=1, hull_loss=3))
    assert r.valid
    assert (r.vehicles[0].crew, r.vehicles[0].hull) == (1, 7)  # car: Crew 2, Hull 10
    r = check(car(crew_loss=5, hull_loss=40))
    assert (r.vehicles[0].crew, r.vehicles[0].hull) == (1, 1)


def test_hull_loss_applies_after_armour(check: CheckFn) -> None:
    v = car(hull_loss=2)
    v["upgrades"] = ["armour_plating"]
    r = check(v)
    assert r.valid and r.vehicles[0].hull == 10 + 2 - 2


def test_unknown_and_repeated_injuries_are_refused(check: CheckFn) -> None:
    r = check(car(injuries=["shakes", "shakes", "gout"]))
    assert sorted(rules_of(r)) == ["injury_twice", "unknown_injury"]
    twice = next(e for e in r.errors if e.rule == "injury_twice")
    assert "Shakes" in twice.message and "p.163" in twice.message
    unknown = next(e for e in r.errors if e.rule == "unknown_injury")
    assert "'gout'" in unknown.message and "deathwish" in unknown.message


def test_negative_dents_are_a_file_error() -> None:
    import pytest

    from carnage.team import TeamFileError

    with pytest.raises(TeamFileError) as e:
        parse_team({"name": "T", "cans": 50, "vehicles": [car(dents=-1)]})
    assert "dents" in str(e.value)


def test_badass_free_perk_costs_nothing_and_ignores_the_sponsor(check: CheckFn) -> None:
    # Miyazaki offers Daring and Precision, not Badass (p.92).
    v = car(injuries=["badass"], free_perks=["road_warrior"])
    v["perks"] = ["road_warrior"]
    r = check(v, sponsor="miyazaki")
    assert r.valid, [e.message for e in r.errors]
    assert r.vehicles[0].perks[0].cans == 0
    assert r.total_cans == 12
    # The same perk not free: it costs 2 cans and breaks the perk classes.
    v2 = car()
    v2["perks"] = ["road_warrior"]
    r2 = check(v2, sponsor="miyazaki")
    assert rules_of(r2) == ["perk_class"]
    assert r2.total_cans == 14


def test_free_perks_need_badass_and_a_badass_perk(check: CheckFn) -> None:
    v = car(free_perks=["road_warrior"])
    v["perks"] = ["road_warrior"]
    assert "free_perks" in rules_of(check(v, sponsor="miyazaki"))
    v = car(injuries=["badass"], free_perks=["evasive"])
    v["perks"] = ["evasive"]
    assert rules_of(check(v, sponsor="miyazaki")) == ["free_perk_class"]
    v = car(injuries=["badass"], free_perks=["road_warrior"])
    assert rules_of(check(v, sponsor="miyazaki")) == ["free_perk_missing"]
    v = car(injuries=["badass"], free_perks=["road_warrior", "powder_keg"])
    v["perks"] = ["road_warrior", "powder_keg"]
    assert "free_perks" in rules_of(check(v, sponsor="miyazaki"))


def test_only_one_copy_of_a_free_perk_is_free(check: CheckFn) -> None:
    v = car(injuries=["badass"], free_perks=["powder_keg"])
    v["perks"] = ["powder_keg", "powder_keg"]
    r = check(v, sponsor="miyazaki")
    assert [p.cans for p in r.vehicles[0].perks] == [0, 1]
    assert "perk_once" in rules_of(r)


def test_report_json_carries_the_career(check: CheckFn) -> None:
    r = check(car(dents=2, injuries=["crazed"]))
    j = r.to_json()["vehicles"][0]
    assert j["career"]["dents"] == 2 and j["career"]["injuries"] == ["crazed"]
    assert "career" not in check(car()).to_json()["vehicles"][0]


def test_describe_career() -> None:
    spec = parse_team({"name": "T", "cans": 50, "vehicles": [car(
        dents=4, injuries=["old-war-wound"], crew_loss=1, weakened_chassis=1)]})
    c = spec.vehicles[0].career
    assert c is not None
    assert describe_career(c) == ("4 dents; injuries: Old War Wound; Crew -1 for good; "
                                  "Weakened chassis x1")


def test_cli_check_and_show_print_dents_and_injuries(tmp_path: Path) -> None:
    f = tmp_path / "team.yaml"
    f.write_text(yaml.safe_dump({"name": "Rusty", "cans": 50, "vehicles": [
        car(dents=5, injuries=["shakes", "twitch"])]}))
    runner = CliRunner()
    out = runner.invoke(app, ["team", "check", str(f)])
    assert out.exit_code == 0, out.output
    assert "Dented: 5 dents; injuries: Shakes, Twitch" in out.output
    out = runner.invoke(app, ["team", "show", str(f)])
    assert out.exit_code == 0, out.output
    assert "Career: 5 dents; injuries: Shakes, Twitch" in out.output
    spec = parse_team(yaml.safe_load(f.read_text()))
    assert check_team(spec).valid
