"""The Savage Highways campaign mode (Refuelled pp.165-175): roles, the branch 1 -> 2A/2B -> 3,
the upgrade ledger with scripted results, Ride Eternal, and whole campaigns played by bots on
SQLite and PostgreSQL, from Python and from the command line."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carnage.campaign.modes import MODES, mode_of
from carnage.campaign.play import play_next
from carnage.campaign.steps import SeasonError, extended
from carnage.campaign.store import Campaign, CampaignStore, Record
from carnage.cli.main import app
from carnage.games.refuelled.campaign import savage as sh
from carnage.team import load_team

TEAMS = Path(__file__).resolve().parents[2] / "examples" / "teams"
RIGGERS = TEAMS / "savage_riggers.yaml"
GANGERS = TEAMS / "savage_gangers.yaml"
MODE = mode_of("savage-highways")


def new(*seats: Path, **options: object) -> Campaign:
    teams = [load_team(p) for p in seats]
    opts = MODE.options(options)
    return Campaign("c1", MODE.id, opts, 1, datetime.now(UTC), tuple(
        Record(r.kind, r.data, r.game_id, i) for i, r in enumerate(MODE.start(opts, teams))))


def scripted(c: Campaign, winner: str, *picks: str) -> Campaign:
    """Play the next game on paper: its set-up upgrade picks, then ``winner`` wins."""
    ev = MODE.next_event(c)
    assert ev is not None
    steps = MODE.pregame(c, ev)
    for p in picks:
        ask = steps.pending()
        assert ask is not None and ask.kind == "war_rig_upgrade"
        steps.choose(ask.seat, p)
    assert steps.pending() is None
    c = extended(c, steps.records())
    result = [Record("scenario_result", {"scenario": ev.scenario, "winner": winner,
                                         "game": ev.number})]
    return extended(c, result + sh.upgrade_outcome(ev.scenario, winner,
                                                   sh.chosen_for(c, ev.number)))


def test_the_mode_is_listed_and_the_branch_follows_the_book() -> None:
    assert "savage-highways" in MODES and MODE.name == "Savage Highways"
    assert sh.next_scenario([]) == "escape-the-city"
    assert sh.next_scenario([("escape-the-city", "gangers")]) == "rescue"
    assert sh.next_scenario([("escape-the-city", "riggers")]) == "ambush"
    assert sh.next_scenario([("escape-the-city", "riggers"), ("ambush", "gangers")]) \
        == "long-road-home"
    assert sh.next_scenario([("a", "riggers")] * 3) is None


def test_roles_come_from_the_war_rig_or_the_riggers_option() -> None:
    c = new(GANGERS, RIGGERS, GANGERS)
    assert sh.roles(c) == (1, [0, 2])
    with pytest.raises(SeasonError, match="0 teams field a War Rig"):
        new(GANGERS, GANGERS)
    with pytest.raises(SeasonError, match="Gangers' team may not have a War Rig"):
        new(RIGGERS, GANGERS, riggers=1)
    with pytest.raises(SeasonError, match="riggers: seat 5"):
        new(RIGGERS, GANGERS, riggers=5)
    with pytest.raises(SeasonError, match="unknown option 'cans'"):
        MODE.options({"cans": 3})
    # Four Gangers share 120 Cans: 30 each, and 42 is too many.
    with pytest.raises(SeasonError, match=r"over its share \(30\)"):
        new(RIGGERS, GANGERS, GANGERS, GANGERS, GANGERS)


def test_a_gangers_win_loses_the_upgrade_and_leads_to_rescue() -> None:
    c = new(RIGGERS, GANGERS, GANGERS)
    ev = MODE.next_event(c)
    assert ev is not None and ev.scenario == "escape-the-city"
    steps = MODE.pregame(c, ev)
    ask = steps.pending()
    assert ask is not None and ask.seat == 0 and ask.values() == list(sh.UPGRADES)
    assert ask.default == "grease_monkey"
    with pytest.raises(SeasonError, match="seat 0's decision"):
        steps.choose(1, "fuel_pod")
    with pytest.raises(SeasonError, match="not one of the choices"):
        steps.choose(0, "turbo")
    c = scripted(c, "gangers", "fuel_pod")
    assert sh.ledger(c).lost == ("fuel_pod",) and sh.ledger(c).ever == ("fuel_pod",)
    ev = MODE.next_event(c)
    assert ev is not None and ev.scenario == "rescue" and dict(ev.options)["upgrades"] == []
    steps = MODE.pregame(c, ev)
    ask = steps.pending()
    # The Gangers (the lowest-seated Ganger) choose one never attached.
    assert ask is not None and ask.seat == 1 and "fuel_pod" not in ask.values()
    assert len(ask.values()) == 4
    c = scripted(c, "riggers", "selvaggio")
    led = sh.ledger(c)
    assert led.reattached == ("selvaggio",) and led.lost == ("fuel_pod",)
    ev = MODE.next_event(c)
    assert ev is not None and ev.scenario == "long-road-home"
    assert dict(ev.options)["upgrades"] == ["selvaggio"]
    steps = MODE.pregame(c, ev)
    picks = []
    while (ask := steps.pending()) is not None:
        assert ask.seat == 0 and "fuel_pod" not in ask.values()
        assert "selvaggio" not in ask.values() and not set(picks) & set(ask.values())
        picks.append(ask.values()[0])
        steps.choose(0, picks[-1])
    assert sorted(picks) == ["cow_catcher", "grease_monkey", "hangers_on"]  # exactly three
    c = extended(c, steps.records())
    setup = MODE.setup(c, ev)
    assert setup.scenario == "long-road-home" and setup.sides == ((0,), (1, 2))
    opts = setup.options_dict()
    assert opts["riggers"] == 0 and opts["upgrades"] == ["selvaggio", *picks]
    c = extended(c, [Record("scenario_result", {"scenario": "long-road-home",
                                                "winner": "gangers", "game": 3})])
    assert MODE.next_event(c) is None and sh.campaign_winner(c) == "gangers"
    s = MODE.summary(c)
    assert s["finished"] and s["champion"] == ["Wasteland Raiders", "Wasteland Raiders"]
    assert [e["scenario"] for e in s["schedule"]] == ["escape-the-city", "rescue",
                                                      "long-road-home"]
    assert s["upgrades"]["fuel_pod"] == "lost" and s["upgrades"]["selvaggio"] == "re-attached"


def test_a_riggers_win_reattaches_the_upgrade_and_leads_to_ambush() -> None:
    c = scripted(new(RIGGERS, GANGERS), "riggers", "hangers_on")
    ev = MODE.next_event(c)
    assert ev is not None and ev.scenario == "ambush"
    assert dict(ev.options)["upgrades"] == ["hangers_on"]
    steps = MODE.pregame(c, ev)
    ask = steps.pending()
    assert ask is not None and ask.seat == 0 and "hangers_on" not in ask.values()
    steps.choose(0, "cow_catcher")
    c2 = extended(c, steps.records())
    assert sh.game_upgrades(c2, 2) == ["hangers_on", "cow_catcher"]
    assert MODE.setup(c2, ev).sides == ()  # one Ganger: no team game
    assert MODE.pregame(c2, ev).pending() is None  # recorded already


def test_anything_but_the_riggers_own_victory_is_a_gangers_win() -> None:
    assert sh.winning_side(0, False, 0) == "riggers"
    assert sh.winning_side(1, False, 0) == "gangers"
    assert sh.winning_side(None, True, 0) == "gangers"  # the safety net stopped it


def test_ride_eternal_lowers_the_hull_of_each_wrecked_vehicle_for_good() -> None:
    spec = load_team(RIGGERS)
    once = sh.ride_eternal(spec, ["Outrider"])
    twice = sh.ride_eternal(once, ["Outrider", "Big Rig"])
    car = {v.name: v.career for v in twice.vehicles}
    assert car["Outrider"] is not None and car["Outrider"].hull_loss == 4
    assert car["Big Rig"] is not None and car["Big Rig"].hull_loss == 2
    assert car["Scout"] is None


def test_rosters_stay_as_they_are_between_games() -> None:
    c = new(RIGGERS, GANGERS)
    steps = MODE.roster(c, 1)
    with pytest.raises(SeasonError, match="no Cans between its games"):
        steps.choose(1, {"name": "x"})
    steps.choose(1, "keep")
    assert steps.records() == []


def test_a_whole_campaign_with_bots(db_url: str) -> None:
    store = CampaignStore(db_url)
    try:
        opts = MODE.options({})
        cid = store.create(MODE.id, opts, MODE.start(opts, [load_team(RIGGERS),
                                                             load_team(GANGERS)]))
        played = [play_next(store, cid, ["heuristic"], seed=20 + i) for i in range(3)]
        c = store.get(cid)
        first = sh.results(c)[0][1]
        assert played[0].scenario == "escape-the-city"
        assert played[1].scenario == ("rescue" if first == "gangers" else "ambush")
        assert played[2].scenario == "long-road-home"
        assert MODE.next_event(c) is None
        with pytest.raises(SeasonError, match="is over"):
            play_next(store, cid, ["heuristic"], seed=1)
        kinds = [r.kind for r in c.records]
        assert kinds.count("game") == 3 and kinds.count("scenario_result") == 3
        assert kinds.count("rig_upgrade") >= 5  # 1 + 1 + 3 chosen, plus any re-attached
        s = MODE.summary(c)
        assert s["finished"] and s["champion"] and s["titles"]["champion"] == s["champion"]
        winner = sh.campaign_winner(c)
        assert s["champion"] == (["Road Train"] if winner == "riggers"
                                 else ["Wasteland Raiders"])
        # Ride Eternal: every recorded hull loss is on the team's roster now.
        for r in c.records:
            if r.kind == "ride_eternal":
                seat = int(r.data["seat"])
                v = next(v for v in sh.teams(c)[seat].vehicles if v.name == r.data["vehicle"])
                assert v.career is not None and v.career.hull_loss >= int(r.data["hull_loss"])
    finally:
        store.close()


def test_the_command_line_plays_it_start_to_finish(db_url: str) -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["campaign", "new", "--mode", "savage-highways", "--team",
                            str(RIGGERS), "--team", str(GANGERS), "--db", db_url, "--json"])
    assert r.exit_code == 0, r.stderr
    cid = json.loads(r.stdout)["id"]
    r = runner.invoke(app, ["campaign", "auto", cid, "--bots", "heuristic", "--events", "3",
                            "--seed", "3", "--db", db_url, "--json"])
    assert r.exit_code == 0, r.stderr
    played = json.loads(r.stdout)["played"]
    assert played[0]["scenario"] == "escape-the-city" and len(played) == 3
    assert played[-1]["scenario"] == "long-road-home"
    r = runner.invoke(app, ["campaign", "show", cid, "--db", db_url])
    assert r.exit_code == 0 and "Savage Highways" in r.stdout and "champion" in r.stdout
