"""The bounds of ``carnage.bounds`` hold at every door: a number no game could reach (a
Legacy Handling of 10^29, a season of a million events, a tourney of 10^12 games) is refused
with one line naming the field and the bound, quickly, and nothing is saved; the bounds
themselves agree with the data they are derived from."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.cli.test_hostile_cli import clean_exit_2
from tests.web.test_api_support import TestClient, new_client, racer_team

from carnage.games.legacy import bounds as legacy_bounds
from carnage.games.legacy.generator import generate_vehicle, legacy_team
from carnage.games.legacy.mutations import gain_mutations
from carnage.team import TeamFileError, TeamSpec, parse_team

ROOT = Path(__file__).resolve().parents[2]
LEGACY_DATA = ROOT / "src" / "carnage" / "games" / "legacy" / "data"
HUGE = 10**29
"""29 zeros: short enough to pass the guard's 30-digit limit, far past any game."""


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return new_client(tmp_path)


def team_json(spec: TeamSpec) -> dict[str, Any]:
    out: dict[str, Any] = spec.model_dump(mode="json", exclude_none=True)
    return out


def legacy_json(**changes: Any) -> dict[str, Any]:
    """A legal Legacy team (two generated vehicles) with ``changes`` in the first vehicle's
    ``legacy`` record."""
    spec = legacy_team("Mutants", [generate_vehicle("car", "Alpha"),
                                   generate_vehicle("truck", "Beta")])
    out: dict[str, Any] = team_json(spec)
    out["vehicles"][0]["legacy"].update(changes)
    return out


# -- the bounds agree with the data ---------------------------------------------------------------
def test_legacy_bounds_cover_the_generator_and_the_mutation_table() -> None:
    gen = yaml.safe_load((LEGACY_DATA / "generator.yaml").read_text())
    for stat in ("hull", "handling", "crew", "max_gear"):
        assert max(gen["bonuses"][stat]) == legacy_bounds.LEGACY_GENERATOR_MAX[stat], stat
    table = yaml.safe_load((LEGACY_DATA / "mutations.yaml").read_text())["mutations"]
    for stat in ("hull", "handling", "crew", "max_gear"):
        most = max(sum(g.get(stat, 0) for g in m["gains"] if isinstance(g, dict))
                   for m in table)
        assert most <= legacy_bounds.LEGACY_GAIN_PER_MUTATION[stat], stat


def test_the_most_mutated_vehicles_are_inside_the_bounds() -> None:
    for vtype in ("buggy", "car", "performance_car", "truck"):
        spec, _ = gain_mutations(generate_vehicle(vtype, "Crawler"), legacy_bounds.LEGACY_MUTATIONS)
        twin = spec.model_copy(update={"name": "Twin"})
        parse_team(team_json(legacy_team("T", [spec, twin])))


@pytest.mark.parametrize("field, value, words", [
    ("handling", HUGE, "legacy.handling: input should be less than or equal to 101"),
    ("max_gear", HUGE, "legacy.max_gear: input should be less than or equal to 6"),
    ("hull", HUGE, "legacy.hull"),
    ("crew", HUGE, "legacy.crew"),
    ("rating", HUGE, "legacy.rating"),
    ("corroded", HUGE, "legacy.corroded"),
    ("mutations", ["chrome_veins"] * (legacy_bounds.LEGACY_MUTATIONS + 1), "legacy.mutations"),
])
def test_legacy_numbers_past_any_campaign_are_refused(field: str, value: Any,
                                                       words: str) -> None:
    with pytest.raises(TeamFileError) as e:
        parse_team(legacy_json(**{field: value}))
    assert any(words in p for p in e.value.problems), e.value.problems


def test_career_and_budget_bounds() -> None:
    team = racer_team()
    team["vehicles"][0]["career"] = {"weakened_chassis": HUGE}
    with pytest.raises(TeamFileError, match=r"career\.weakened_chassis"):
        parse_team(team)
    with pytest.raises(TeamFileError, match="cans"):
        parse_team(racer_team(cans=HUGE))


# -- the command line ------------------------------------------------------------------------------
def test_a_legacy_team_with_a_huge_handling_is_one_line_on_every_command(
        tmp_path: Path) -> None:
    p = tmp_path / "mutants.yaml"
    p.write_text(yaml.safe_dump(legacy_json(handling=HUGE)))
    clean_exit_2(["team", "check", str(p)], "legacy.handling")
    clean_exit_2(["simulate", "--ruleset", "legacy", "--games", "1", "--team", str(p),
                  "--team", str(p)], "legacy.handling")
    clean_exit_2(["tourney", str(p), str(p), "--ruleset", "legacy", "--games", "2"],
                 "legacy.handling")


@pytest.mark.parametrize("args, words", [
    (["tourney", "{t}", "{t}", "--games", "1000000000000"], "--games must be at most 1,000,000"),
    (["tourney", "{t}", "{t}", "--workers", "100000"], "--workers must be at most 256"),
    (["simulate", "--games", "1000000000000"], "--games must be at most 1,000,000"),
    (["simulate", "--games", "1", "--max-rounds", "1000000000"],
     "max rounds must be at most 10,000"),
    (["simulate", "--games", "1", "--cans", "1000000000"], "--cans must be 1..10,000"),
    (["simulate", "--games", "1", "--scenario", "death-race", "--option", "laps=100000000"],
     "scenario option 'laps': 100000000 is outside 1..20"),
    (["simulate", "--games", "1", "--scenario", "tank-commander", "--option",
      "kills_to_win=99999999"], "kills_to_win"),
    (["simulate", "--ruleset", "devils-run", "--games", "1000000000000"],
     "--games must be at most 1,000,000"),
    (["legacy", "mutate", "--type", "car", "--name", "X", "--count", "1000000"],
     "--count must be 0 to 100"),
])
def test_loops_a_command_line_may_size_are_bounded(tmp_path: Path, args: list[str],
                                                   words: str) -> None:
    team = tmp_path / "team.yaml"
    team.write_text(yaml.safe_dump(racer_team()))
    clean_exit_2([a.replace("{t}", str(team)) for a in args], words)


def test_campaign_auto_is_bounded_on_an_open_ended_season(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from carnage.cli.main import app

    db = f"sqlite:///{tmp_path / 'c.db'}"
    team = tmp_path / "team.yaml"
    team.write_text(yaml.safe_dump(racer_team(cans=30)))
    r = CliRunner().invoke(app, ["campaign", "new", "--mode", "escalating", "--team", str(team),
                                 "--team", str(team), "--db", db])
    assert r.exit_code == 0, r.stderr
    cid = r.stdout.strip()
    clean_exit_2(["campaign", "auto", cid, "--events", "1000000000", "--db", db],
                 "--events must be 1 to 100")
    clean_exit_2(["campaign", "new", "--mode", "escalating", "--team", str(team), "--team",
                  str(team), "--games", "1000000", "--db", db], "at most 100")


# -- the web API -----------------------------------------------------------------------------------
def test_the_api_saves_no_legacy_team_past_the_bounds(client: TestClient) -> None:
    t0 = time.monotonic()
    r = client.post("/api/teams", json={"team": legacy_json(handling=HUGE, max_gear=HUGE)})
    assert time.monotonic() - t0 < 10
    assert r.status_code == 422, r.text
    assert "legacy.handling" in r.json()["detail"] and "\n" not in r.json()["detail"]
    assert client.get("/api/teams").json() == []
    ok = client.post("/api/teams", json={"team": legacy_json()})
    assert ok.status_code == 201, ok.text


@pytest.mark.parametrize("mode, options, words", [
    ("televised", {"events": 1_000_000}, "at most 100 Televised Events"),
    ("televised", {"schedule": ["roll"] * 101}, "at most 100"),
    ("escalating", {"games": 1_000_000}, "at most 100"),
    ("escalating", {"events": ["street-race"] * 101}, "at most 100"),
    ("escalating", {"start_cans": HUGE}, "more than 10,000"),
    ("championship", {"bonus": HUGE}, "more than 10,000"),
])
def test_the_api_refuses_a_season_past_the_bounds(client: TestClient, mode: str,
                                                  options: dict[str, Any], words: str) -> None:
    body = {"mode": mode, "options": options,
            "teams": [{"team": racer_team(f"Team {i}", 30)} for i in range(2)]}
    t0 = time.monotonic()
    r = client.post("/api/campaigns", json=body)
    assert time.monotonic() - t0 < 10
    assert r.status_code == 422, r.text
    assert words in r.json()["detail"], r.json()["detail"]
    assert client.get("/api/campaigns").json() == []
