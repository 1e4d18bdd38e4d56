"""Gaslands: Legacy chapters 1-5 as a campaign mode (games/legacy/campaign.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from carnage.campaign.modes import mode_of
from carnage.campaign.play import play_next
from carnage.campaign.steps import ScriptedRandom, SeasonError, Steps, extended
from carnage.campaign.store import Campaign, CampaignStore, Record
from carnage.games.legacy import campaign as lg
from carnage.games.legacy.generator import generate_vehicle, legacy_team
from carnage.games.legacy.ratings import team_rating, total_corrosion
from carnage.team.model import TeamSpec


def teams() -> list[TeamSpec]:
    return [legacy_team("Rusty", [generate_vehicle("car", "Rust Bucket"),
                                  generate_vehicle("buggy", "Zip")]),
            legacy_team("Gloop", [generate_vehicle("truck", "Big Mo"),
                                  generate_vehicle("performance_car", "Vroom")])]


def campaign(records: list[Record] | None = None) -> Campaign:
    opts = lg.LEGACY.options({"seed": 3})
    start = lg.LEGACY.start(opts, teams())
    c = Campaign("c1", "legacy", opts, 1, datetime.now(UTC), ())
    return extended(c, [*start, *(records or [])])


def facts(**kw: Any) -> lg.ChapterFacts:
    base: dict[str, Any] = {"order": [[0], [1]], "winners": [0], "wrecked": {}, "disqualified": {},
                            "goo": {}, "drool": {}, "cloaks": {}, "crates": {}, "kills": {},
                            "own_slip": [], "fridge": []}
    base.update(kw)
    return lg.ChapterFacts(**base)


def run_op(c: Campaign, op: dict[str, Any], f: lg.ChapterFacts | None, dice: list[int],
           answers: list[tuple[int, Any]] = ()) -> tuple[Steps, Campaign]:
    st = Steps(dice=ScriptedRandom(dice))
    st.then(lg._operation(c, op, f, 1, "g1"))
    st.start()
    for seat, value in answers:
        st.choose(seat, value)
    st.auto()
    return st, extended(c, st.records())


def test_the_five_chapters_play_the_books_scenarios_in_order() -> None:
    chs = lg.chapters()
    assert [c.scenario for c in chs] == ["express-delivery", "automated-salvage", "zombie-bash",
                                         "big-game-hunter", "scavenger-party"]
    assert next(c.title for c in chs) == "Pink Slips"
    assert "corrosive-pools" in chs[0].rules and "snatch" in chs[1].rules
    ops = [o["op"] for o in chs[2].postgame]
    assert ops.index("improve") < ops.index("doughnut")  # no improvement on the Doughnut
    assert [o["op"] for o in chs[3].postgame].count("combine") == 1


def test_only_teams_of_two_legacy_vehicles_join() -> None:
    opts = lg.LEGACY.options({"seed": 1})
    plain = TeamSpec.model_validate({"name": "Plain", "cans": 20, "vehicles": [
        {"name": "A", "type": "car"}]})
    with pytest.raises(SeasonError, match="not a Legacy team"):
        lg.LEGACY.start(opts, [teams()[0], plain])
    three = teams()[0].model_copy(update={"vehicles": (
        *teams()[0].vehicles, generate_vehicle("car", "Third"))})
    with pytest.raises(SeasonError, match="exactly 2 vehicles"):
        lg.LEGACY.start(opts, [teams()[1], three])
    with pytest.raises(SeasonError, match="unknown option"):
        lg.LEGACY.options({"chapters": 3})


def test_corrosion_marks_the_vehicles_the_trigger_names() -> None:
    c = campaign()
    f = facts(wrecked={0: ["Zip"]}, disqualified={1: ["Big Mo"]}, goo={1: ["Vroom"]})
    _, after = run_op(c, {"op": "corrode", "when": "wrecked_or_disqualified"}, f, [])
    s = lg.legacy_state(after)
    assert [v.legacy.corroded for v in s.teams[0].spec.vehicles] == [0, 1]
    assert [v.legacy.corroded for v in s.teams[1].spec.vehicles] == [1, 0]
    _, after2 = run_op(after, {"op": "corrode", "when": "goo"}, f, [])
    assert [v.legacy.corroded for v in lg.legacy_state(after2).teams[1].spec.vehicles] == [1, 1]
    # "did not scarper": every vehicle not disqualified (ruling GL-R102)
    _, after3 = run_op(c, {"op": "corrode", "when": "not_scarpered"}, f, [])
    s3 = lg.legacy_state(after3)
    assert total_corrosion(s3.teams[0].spec) == 2 and total_corrosion(s3.teams[1].spec) == 1


def test_the_lowest_corrosion_rolls_and_every_team_applies_that_improvement() -> None:
    c = campaign()
    corroded, _ = lg.legacy_state(c).teams[0].spec.vehicles[0], None
    # seat 0 has one corrosion, so seat 1 (lowest) rolls: a 1, cross out a Hazard icon
    from carnage.games.legacy.ratings import mark_corrosion

    v, _ = mark_corrosion(corroded)
    c = extended(c, [Record("vehicle", {"seat": 0, "vehicle": lg.vehicle_json(v)})])
    st = Steps(dice=ScriptedRandom([1]))
    st.then(lg._operation(c, {"op": "improve"}, facts(), 1, "g1")).start()
    ask = st.pending()
    assert ask is not None and ask.seat == 0 and ask.kind == "template_improvement"
    assert all("cross out a Hazard icon" in o["label"] for o in ask.options or ())
    roll = next(r for r in st.written() if r.kind == "improvement_roll")
    assert roll.data["seat"] == 1 and roll.data["roll"] == 1
    with pytest.raises(SeasonError):
        st.choose(1, 0)  # seat 0 answers first
    pick = next(o for o in ask.options or () if "hairpin" in o["label"].lower())
    st.choose(0, pick["value"])
    second = st.pending()
    assert second is not None and second.seat == 1
    st.auto()
    after = extended(c, st.records())
    s = lg.legacy_state(after)
    hairpin = lg.template_set(s.teams[0].spec).require("hairpin")
    standard = lg.template_set(teams()[0]).require("hairpin")
    assert sum(g.hazards for g in hairpin.gears if g) == sum(
        g.hazards for g in standard.gears if g) - 1
    assert lg.template_set(s.teams[1].spec) != lg.template_set(teams()[1])


def test_roll_offs_break_corrosion_ties_with_the_dice() -> None:
    c = campaign()
    st = Steps(dice=ScriptedRandom([2, 5, 4]))  # roll-off 2 v 5: seat 1; then the D6 is a 4
    st.then(lg._operation(c, {"op": "improve"}, facts(), 1, "g1")).start()
    roll = next(r for r in st.written() if r.kind == "improvement_roll")
    assert roll.data == {"seat": 1, "roll": 4, "line": None}


def test_each_vehicle_mutates_in_its_own_order() -> None:
    c = campaign()
    _, after = run_op(c, {"op": "mutate"}, facts(), [])
    s = lg.legacy_state(after)
    from carnage.games.legacy.mutations import next_mutation

    for seat, t in enumerate(teams()):
        for v, now in zip(t.vehicles, s.teams[seat].spec.vehicles, strict=True):
            assert now == next_mutation(v)[0]
    assert team_rating(s.teams[0].spec) > team_rating(teams()[0])


def test_clues_are_secret_to_the_seat_that_unlocks_them_except_the_public_one() -> None:
    c = campaign()
    _, after = run_op(c, {"op": "clue", "code": "THEFILES", "who": "winners"},
                      facts(winners=[1]), [])
    _, after = run_op(after, {"op": "clue", "code": "CHILLEDHOOCH", "who": "fridge",
                              "public": True}, facts(fridge=[0]), [])
    mine = lg.LEGACY.summary(after, 1)["clues"]
    theirs = lg.LEGACY.summary(after, 0)["clues"]
    spectator = lg.LEGACY.summary(after, None)["clues"]
    assert {x["code"] for x in mine} == {"THEFILES", "CHILLEDHOOCH"}
    assert {x["code"] for x in theirs} == {"CHILLEDHOOCH"}
    assert {x["code"] for x in spectator} == {"CHILLEDHOOCH"}
    assert "dinosaur stamp" not in json.dumps(lg.LEGACY.summary(after, 0))
    # a seat may decline
    _, declined = run_op(c, {"op": "clue", "code": "SPLATTER", "who": "winners"},
                         facts(winners=[0]), [], [(0, "no")])
    assert lg.LEGACY.summary(declined, 0)["clues"] == []


def test_the_doughnut_and_combining_change_every_teams_templates_for_good() -> None:
    c = campaign()
    _, after = run_op(c, {"op": "doughnut"}, facts(), [])
    s = lg.legacy_state(after)
    assert all(lg.template_set(t.spec).get("doughnut") is not None for t in s.teams.values())
    st = Steps(dice=ScriptedRandom([6, 6, 6, 6]))
    st.then(lg._operation(after, {"op": "combine"}, facts(), 4, "g4")).start()
    ask = st.pending()
    assert ask is not None and ask.kind == "combine_templates" and ask.seat == 0
    st.auto()
    done = lg.legacy_state(extended(after, st.records()))
    for t in done.teams.values():
        ids = lg.template_set(t.spec).ids
        assert len(ids) == len(lg.template_set(s.teams[t.seat].spec).ids) - 1
        assert any("+" in i for i in ids)


def test_crate_holders_keep_the_nano_cloaking_device_and_rate_five_more() -> None:
    c = campaign()
    before = lg.legacy_state(c).teams[1].spec.vehicles[0]
    _, after = run_op(c, {"op": "cloak_crates"}, facts(crates={1: [before.name]}), [])
    now = lg.legacy_state(after).teams[1].spec.vehicles[0]
    assert "nano_cloaking_device" in [u.id for u in now.upgrades]
    assert now.legacy.rating == before.legacy.rating + 5


def test_marks_made_in_play_become_permanent() -> None:
    c = campaign()
    f = facts(cloaks={0: ["Zip", "Zip"]}, drool={1: ["Vroom"]})
    st = Steps(dice=ScriptedRandom([]))
    st.then(lg._marks_in_play(c, f, "g1")).start()
    s = lg.legacy_state(extended(c, st.records()))
    assert s.teams[0].spec.vehicles[1].legacy.filled == 2
    assert s.teams[1].spec.vehicles[1].legacy.corroded == 1


def test_a_big_rating_gap_mutates_the_trailing_team_before_the_game() -> None:
    c = campaign()
    s = lg.legacy_state(c)
    top = s.teams[1].spec
    # lift seat 1 far ahead: its vehicles rate 40 more each
    boosted = [v.model_copy(update={"legacy": v.legacy.model_copy(
        update={"rating": v.legacy.rating + 40})}) for v in top.vehicles]
    c = extended(c, [Record("vehicle", {"seat": 1, "vehicle": lg.vehicle_json(v)})
                     for v in boosted])
    ev = lg.LEGACY.next_event(c)
    assert ev is not None and ev.number == 1
    pre = lg.LEGACY.pregame(c, ev).auto().records()
    kinds = [r.kind for r in pre]
    assert "mutation" in kinds and kinds[-1] == "pregame"
    after = extended(c, pre)
    gap = team_rating(lg.legacy_state(after).teams[1].spec) - team_rating(
        lg.legacy_state(after).teams[0].spec)
    assert gap <= 20
    setup = lg.LEGACY.setup(after, ev)
    h = next(r for r in pre if r.kind == "handicap" and r.data["seat"] == 0)
    assert setup.pregame_dict()["votes"] == [h.data["votes"], 0]
    assert setup.ruleset == "legacy" and dict(setup.scenario_options)["chapter_rules"] == (
        "corrosive-pools")
    assert lg.LEGACY.pregame(after, ev).records() == []  # recorded once


def test_between_games_only_weapon_facings_may_change() -> None:
    c = campaign()
    t = lg.legacy_state(c).teams[0].spec
    data = lg.team_json(t)
    data["vehicles"][0]["weapons"][0]["facing"] = "rear"
    st = lg.LEGACY.roster(c, 0)
    st.choose(0, data)
    recs = st.records()
    assert any(r.kind == "vehicle" for r in recs)
    data2 = lg.team_json(t)
    data2["vehicles"][0]["name"] = "Renamed"
    st2 = lg.LEGACY.roster(c, 0)
    with pytest.raises(SeasonError, match="only note weapon facings"):
        st2.choose(0, data2)
    assert st2.pending() is not None


def test_a_whole_legacy_campaign_plays_chapters_one_to_five_with_bots(db_url: str) -> None:
    store = CampaignStore(db_url)
    m = mode_of("legacy")
    opts = m.options({"seed": 11})
    cid = store.create("legacy", opts, m.start(opts, teams()))
    played = []
    for i in range(5):
        r = play_next(store, cid, ["heuristic"], seed=200 + i, max_rounds=5)
        played.append(r.scenario)
    assert played == [ch.scenario for ch in lg.chapters()]
    c = store.get(cid)
    s = m.summary(c, 0)
    assert s["finished"] and s["next"] is None
    with pytest.raises(SeasonError, match="over"):
        play_next(store, cid, ["heuristic"], seed=1)
    for t in s["teams"]:
        assert all(len(v["mutations"]) >= 5 for v in t["vehicles"])
        assert any(d["id"] == "doughnut" for d in t["templates"])
        assert any("+" in d["id"] for d in t["templates"])
    # the history replays: state derived from the records alone
    again = lg.legacy_state(store.get(cid))
    assert {p: t.spec for p, t in again.teams.items()} == {
        p: t.spec for p, t in lg.legacy_state(c).teams.items()}
    store.close()


def test_legacy_campaign_from_the_command_line(tmp_path: Path) -> None:
    from carnage.cli.main import app

    runner = CliRunner()
    files = []
    for t in teams():
        p = tmp_path / f"{t.name}.json"
        p.write_text(json.dumps(lg.team_json(t)))
        files.append(p)
    db = f"sqlite:///{tmp_path / 'c.db'}"
    out = runner.invoke(app, ["campaign", "new", "--mode", "legacy", "--team", str(files[0]),
                              "--team", str(files[1]), "--seed", "5", "--db", db, "--json"])
    assert out.exit_code == 0, out.output
    cid = json.loads(out.output)["id"]
    out = runner.invoke(app, ["campaign", "auto", cid, "--bots", "heuristic", "--events", "2",
                              "--max-rounds", "4", "--db", db, "--json"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(app, ["campaign", "show", cid, "--seat", "0", "--db", db, "--json"])
    assert out.exit_code == 0, out.output
    shown = json.loads(out.output)
    assert shown["games"] == 2 and shown["chapter"] == 3
    out = runner.invoke(app, ["campaign", "show", cid, "--db", db])
    assert out.exit_code == 0, out.output
    assert "Rusty" in out.output
