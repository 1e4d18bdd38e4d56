"""Televised Seasons (Refuelled pp.156-164): every rule through the mode's real step
sequences, with scripted dice and games whose state and log are set exactly."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from carnage.campaign.steps import (
    NextEvent,
    ScriptedRandom,
    SeasonError,
    Steps,
    extended,
)
from carnage.campaign.store import Campaign, Record
from carnage.games.refuelled.campaign import televised as tv
from carnage.games.refuelled.campaign.seasons import team_json
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.scenarios.base import SKIRMISH, TELEVISED
from carnage.games.refuelled.scenarios.common import score
from carnage.games.refuelled.scenarios.common.selection import ROLLS
from carnage.games.refuelled.setup import build_game
from carnage.team import TeamSpec, VehicleSpec, WeaponSpec, load_team
from carnage.team.model import CareerSpec

INTRO = Path(__file__).resolve().parents[2] / "examples" / "teams" / "intro.yaml"


def _team(name: str) -> TeamSpec:
    return load_team(INTRO).model_copy(update={"name": name})


def _mode(dice: list[int] | None = None) -> tv.TelevisedMode:
    if dice is None:
        return tv.TelevisedMode()
    scripted = ScriptedRandom(dice)
    return tv.TelevisedMode(dice=lambda seed: scripted)


def _season(n: int = 3, mode: tv.TelevisedMode | None = None, **raw: Any) -> Campaign:
    m = mode or _mode()
    opts = m.options({"seed": 1, "schedule": "death-race,flag-tag,arena-of-death", **raw})
    c = Campaign("tv", "televised", opts, 1, datetime.now(UTC), ())
    return extended(c, m.start(opts, [_team(f"T{i}") for i in range(n)]))


def _add(c: Campaign, *records: Record) -> Campaign:
    return extended(c, records)


def _cp(seat: int, n: int) -> Record:
    return Record("cp", {"seat": seat, "cp": n, "why": "test"})


def _rp(seat: int, n: int) -> Record:
    from carnage.campaign.steps import secret

    return Record("rp", secret({"seat": seat, "rp": n, "why": "test"}, [seat], "rp", "why"))


def _game(m: tv.TelevisedMode, c: Campaign, ev: NextEvent) -> Game:
    return build_game(m.setup(c, ev), 1)


def _vid(game: Game, player: int, name: str) -> str:
    return next(v.id for v in game.state.vehicles.values()
                if v.player == player and v.name == name)


def _wreck(game: Game, victim: tuple[int, str], by: tuple[int, str] | None = None) -> None:
    vid = _vid(game, *victim)
    if by is not None:
        game.emit("attack_hits", source="test", page=32, vehicle=_vid(game, *by), target=vid)
    game.emit("wrecked", source="test", page=43, vehicle=vid, player=victim[0])


def _post(m: tv.TelevisedMode, c: Campaign, ev: NextEvent, game: Game,
          answers: dict[str, Any] | None = None) -> tuple[Steps, Campaign]:
    """Run the post-game sequence answering by kind (else each question's default)."""
    steps = m.post_game(c, ev, game, "g1", 11)
    ans = answers or {}
    steps.auto(lambda ask: ans.get(f"{ask.kind}:{ask.seat}", ans.get(ask.kind)))
    return steps, extended(c, steps.records())


def _kinds(steps: Steps, kind: str) -> list[dict[str, Any]]:
    return [r.data for r in steps.written() if r.kind == kind]


def _vehicle(c: Campaign, seat: int, name: str) -> VehicleSpec:
    return next(v for v in tv.season(c).teams[seat].spec.vehicles if v.name == name)


def _with_vehicle(c: Campaign, seat: int, v: VehicleSpec) -> Campaign:
    return _add(c, Record("vehicle", {"seat": seat, "vehicle": v.model_dump(
        mode="json", exclude_none=True)}))


# -- options, schedule, hiring (pp.156, 159) --------------------------------------------------
def test_the_schedule_is_fixed_up_front_chosen_or_rolled() -> None:
    """CT-02, CT-03: a fixed number of events; named ones must be on the Televised Event
    table, ``roll`` rolls the p.156 table with the season's dice."""
    m = _mode()
    opts = m.options({"events": "3", "schedule": "flag-tag,roll,roll", "seed": 9})
    sched = opts["schedule"]
    assert [e["event"] for e in sched] == [1, 2, 3]
    assert sched[0] == {"event": 1, "scenario": "flag-tag", "roll": None}
    for e in sched[1:]:
        assert e["scenario"] == ROLLS[TELEVISED][e["roll"]]
    assert m.options({"events": 3, "schedule": "flag-tag,roll,roll", "seed": 9}) == opts
    rolled = m.options({"events": 2, "seed": 4})["schedule"]
    assert all(e["roll"] is not None for e in rolled)


@pytest.mark.parametrize(("raw", "message"), [
    ({"start_cans": 19}, "start Cans: 19 is outside 20..50"),
    ({"start_cans": 51}, "outside 20..50"),
    ({"events": 0}, "at least one Televised Event"),
    ({"events": 2, "schedule": "death-race"}, "schedule names 1 events but the season has 2"),
    ({"schedule": "big-game-hunter"}, "'big-game-hunter' is not on the Televised Event table"),
    ({"schedule": "zombie-bash"}, "not on the Televised Event table"),
    ({"bonus": 10}, "unknown option 'bonus'"),
    ({"events": "many"}, "events: 'many' is not a whole number"),
])
def test_bad_options_are_refused(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(SeasonError, match=message):
        _mode().options(raw)


def test_hiring_puts_what_is_unspent_in_the_stash() -> None:
    """CT-09, CT-25: 30 Cans by default; the intro team costs 22, so 8 go into the stash."""
    c = _season(2)
    s = tv.season(c)
    assert [t.stash for t in s.teams.values()] == [8, 8]
    assert s.started == 2
    c40 = _season(2, start_cans=40)
    assert tv.season(c40).teams[0].stash == 18


def test_hiring_is_checked_and_never_more_than_eight_vehicles() -> None:
    m = _mode()
    opts = m.options({"seed": 1, "start_cans": 50})
    buggies = tuple(VehicleSpec(name=f"B{i}", type="buggy") for i in range(9))
    with pytest.raises(SeasonError, match="9 vehicles; a team may never have more than 8"):
        m.start(opts, [_team("A"), TeamSpec(name="Swarm", cans=50, vehicles=buggies)])
    t = _team("A")
    rich = t.model_copy(update={"vehicles": (*t.vehicles, *(VehicleSpec(
        name=f"X{i}", type="car") for i in range(3)))})
    with pytest.raises(SeasonError, match="over its budget of 30"):
        m.start(m.options({"seed": 1}), [_team("A"), rich])
    with pytest.raises(SeasonError, match="at least two teams"):
        m.start(opts, [_team("A")])


def test_same_named_teams_are_told_apart() -> None:
    m = _mode()
    opts = m.options({"seed": 1})
    recs = m.start(opts, [_team("Same"), _team("Same"), _team("Other")])
    names = [r.data["team"]["name"] for r in recs if r.kind == "join"]
    assert names == ["Same (Red)", "Same (Blue)", "Other"]


# -- meetings (p.157) -------------------------------------------------------------------------
def test_a_meeting_of_more_than_half_plays_the_next_televised_event() -> None:
    c = _season(4)
    m = _mode()
    ev = m.next_event(c)
    assert ev is not None and (ev.kind, ev.scenario, ev.seats) == ("event", "death-race",
                                                                  (0, 1, 2, 3))
    ev = m.next_event(c, {"present": [0, 1, 3]})
    assert ev is not None and (ev.kind, ev.seats) == ("event", (0, 1, 3))


def test_half_the_players_or_fewer_play_a_wasteland_skirmish() -> None:
    """CT-04: 2 of 4 is not more than half: a skirmish rolled on the p.157 table."""
    c = _season(4)
    ev = _mode().next_event(c, {"present": [0, 2]})
    assert ev is not None and ev.kind == "skirmish" and ev.seats == (0, 2)
    info = dict(ev.info)
    assert ev.scenario == ROLLS[SKIRMISH][info["roll"]] and "2 of 4" in info["why"]
    again = _mode().next_event(c, {"present": [0, 2]})
    assert again == ev  # the roll comes from the season's recorded seed


def test_everyone_may_prefer_a_skirmish_chosen_or_rolled() -> None:
    c = _season(3)
    ev = _mode().next_event(c, {"skirmish": "zombie-bash"})
    assert ev is not None and (ev.kind, ev.scenario) == ("skirmish", "zombie-bash")
    with pytest.raises(SeasonError, match="'tank-commander' is not on the Wasteland Skirmish"):
        _mode().next_event(c, {"skirmish": "tank-commander"})  # CT-05, ruling TV-4
    with pytest.raises(SeasonError, match="at least two teams with vehicles must be present"):
        _mode().next_event(c, {"present": [1]})
    with pytest.raises(SeasonError, match="no seat 7"):
        _mode().next_event(c, {"present": [0, 7]})
    with pytest.raises(SeasonError, match="not 'weather'"):
        _mode().next_event(c, {"weather": "rain"})


def test_skirmishes_do_not_use_up_the_schedule_and_the_season_ends_after_the_last_event(
) -> None:
    m = _mode()
    c = _season(2, events=1, schedule="flag-tag")
    c = _add(c, Record("game", {"scenario": "zombie-bash", "kind": "skirmish", "places": [[0],
                                                                                         [1]],
                                "seats": [0, 1]}, "g0"))
    ev = m.next_event(c)
    assert ev is not None and ev.number == 2 and ev.scenario == "flag-tag"
    c = _add(c, Record("game", {"scenario": "flag-tag", "kind": "event", "event": 1,
                                "places": [[1], [0]], "seats": [0, 1]}, "g1"))
    assert m.next_event(c) is None
    assert m.summary(c)["finished"] is True


# -- the Revolution and the title (p.158) -----------------------------------------------------
def test_more_rp_than_starting_players_may_force_a_revolution_once() -> None:
    """CT-06: 3 players started; 4 RP may force it, 3 may not; once per player."""
    m = _mode()
    c = _add(_season(3), _rp(0, 4), _rp(1, 3), _cp(1, 10))
    ev = m.next_event(c)
    assert ev is not None
    pre = m.pregame(c, ev)
    ask = pre.pending()
    assert ask is not None and (ask.seat, ask.kind, ask.secret) == (0, "revolution", True)
    with pytest.raises(SeasonError, match="seat 0's decision"):
        pre.choose(1, "yes")
    pre.choose(0, "yes")
    assert all(a.kind != "revolution" for a in [pre.pending()] if a is not None)
    pre.auto()
    c2 = _add(c, *pre.records())
    ev2 = m.next_event(c2)
    assert ev2 is not None and ev2.scenario == tv.REVOLUTION and ev2.kind == "event"
    assert dict(ev2.info)["forced_by"] == 0 and dict(ev2.info)["scheduled"] == "death-race"
    assert m.setup(c2, ev).scenario == tv.REVOLUTION  # even from the event named before
    forced = [r.data for r in c2.records if r.kind == "forced"]
    assert forced == [{"seat": 0, "rp": 4, "event": 0}]  # revealed, not spent (TV-3)
    assert tv.season(c2).teams[0].rp == 4
    # the Revolution replaces Televised Event 1: the next one is event 2
    c3 = _add(c2, Record("game", {"scenario": tv.REVOLUTION, "kind": "event", "event": 1,
                                  "places": [[0], [1], [2]], "seats": [0, 1, 2]}, "g1"),
              _rp(0, 1))
    ev3 = m.next_event(c3)
    assert ev3 is not None and ev3.scenario == "flag-tag"
    # the previous game was a Revolution: nobody may force one now
    assert [a for a in _asks(m.pregame(c3, ev3)) if a == "revolution"] == []
    c4 = _add(c3, Record("game", {"scenario": "zombie-bash", "kind": "skirmish",
                                  "places": [[0], [1], [2]], "seats": [0, 1, 2]}, "g2"))
    ev4 = m.next_event(c4)
    assert ev4 is not None
    assert "revolution" not in _asks(m.pregame(c4, ev4))  # seat 0 forced one already


def _asks(steps: Steps) -> list[str]:
    kinds = []
    while (ask := steps.pending()) is not None:
        kinds.append(ask.kind)
        steps.choose(ask.seat, ask.default)
    return kinds


def test_the_champion_has_the_most_cp_ties_to_the_fewest_rp() -> None:
    """CT-07: the title, and the Pro-Earth Resistance General only if a Revolution was
    played."""
    m = _mode()
    c = _add(_season(3), _cp(0, 20), _cp(1, 20), _cp(2, 5), _rp(0, 3), _rp(2, 9))
    assert m.titles(c) == {"champion": ["T1"]}
    c = _add(c, Record("game", {"scenario": tv.REVOLUTION, "kind": "skirmish",
                                "places": [[0], [1], [2]], "seats": [0, 1, 2]}, "g"))
    assert m.titles(c) == {"champion": ["T1"], "resistance_general": ["T2"]}


# -- pre-game (pp.159-163) --------------------------------------------------------------------
@pytest.mark.parametrize(("gap", "votes"), [(0, 0), (10, 0), (11, 1), (15, 1), (16, 2),
                                            (20, 2), (21, 3), (25, 3), (26, 4), (30, 4),
                                            (31, 5), (80, 5)])
def test_handicap_votes_by_the_cp_gap(gap: int, votes: int) -> None:
    assert tv.handicap_votes(gap) == votes  # CT-12


def test_the_pregame_hands_votes_sabotage_and_resistance_to_the_game() -> None:
    """CT-12, CT-15: votes by the gap to the leader; one token per 3 RP, taken in secret,
    only before a Televised Event; the game's setup carries them per engine seat."""
    m = _mode()
    c = _add(_season(3), _cp(0, 31), _cp(1, 14), _rp(2, 7))
    ev = m.next_event(c)
    assert ev is not None
    pre = m.pregame(c, ev)
    pre.choose(2, "no")  # 7 RP could force a Revolution; not this time
    ask = pre.pending()
    assert ask is not None and (ask.seat, ask.kind, ask.range, ask.secret) == (
        2, "sabotage", (0, 2), True)
    with pytest.raises(SeasonError, match=r"3 is outside 0\.\.2"):
        pre.choose(2, 3)
    pre.choose(2, 1)
    c2 = _add(c, *pre.records())
    setup = m.setup(c2, ev)
    pg = setup.pregame_dict()
    assert pg["votes"] == [0, 2, 5]  # gaps 0, 17, 31
    assert pg["sabotage"] == [0, 0, 1] and pg["resistance"] == [0, 0, 7]
    assert m.pregame(c2, ev).pending() is None and m.pregame(c2, ev).records() == []
    sab = next(r for r in c2.records if r.kind == "sabotage")
    assert sab.data["seen_by"] == [2] and "tokens" in sab.data["hidden"]
    skirmish = m.next_event(c, {"skirmish": "zombie-bash"})
    assert skirmish is not None
    assert "sabotage" not in _asks(m.pregame(c, skirmish))


def test_injuries_are_bought_with_dents_before_a_game() -> None:
    """CT-14, CT-31: dents pay for injuries; never the same one twice; Badass picks its free
    perk (CT-40)."""
    m = _mode()
    c = _season(2)
    car = _vehicle(c, 0, "Red Car")
    c = _with_vehicle(c, 0, car.model_copy(update={"career": CareerSpec(dents=9)}))
    ev = m.next_event(c)
    assert ev is not None
    pre = m.pregame(c, ev)
    ask = pre.pending()
    assert ask is not None and ask.kind == "injury" and ask.seat == 0
    values = ask.values()
    assert "Red Car|badass" in values and "Red Car|living-legend" not in values  # 11 > 9
    assert not any(v.startswith("Red Buggy") for v in values)  # no dents
    with pytest.raises(SeasonError, match="not one of the choices"):
        pre.choose(0, "Red Car|living-legend")
    pre.choose(0, "Red Car|badass")
    perk = pre.pending()
    assert perk is not None and perk.kind == "badass_perk"
    pre.choose(0, "powder_keg")
    again = pre.pending()
    assert again is not None and again.kind == "injury"
    assert "Red Car|badass" not in again.values()  # never twice
    assert "Red Car|deathwish" in again.values()  # 3 dents left
    pre.choose(0, "Red Car|shakes")
    pre.auto(lambda a: "done" if a.kind == "injury" else None)
    c2 = _add(c, *pre.records())
    v = _vehicle(c2, 0, "Red Car")
    assert v.career is not None
    assert (v.career.dents, v.career.injuries) == (0, ("badass", "shakes"))
    assert v.perks == ("powder_keg",) and v.career.free_perks == ("powder_keg",)
    from carnage.team import check_team

    assert not check_team(tv.season(c2).teams[0].spec).errors  # the free perk costs 0


# -- spoils (p.161) ---------------------------------------------------------------------------
def test_televised_event_places_for_half_the_players_rounded_up() -> None:
    """CT-21, CT-23: 1st 10 CP, 2nd 5, 3rd 2, 4th 1; only half (rounded up) place."""
    assert [tv.placings(n) for n in (2, 3, 4, 5, 7)] == [1, 2, 2, 3, 4]
    m = _mode()
    c = _season(4, schedule="flag-tag,flag-tag,flag-tag")
    ev = m.next_event(c)
    assert ev is not None
    game = _game(m, c, ev)
    game.state.scenario["places"] = [2, 0, 1, 3]
    steps, _ = _post(m, c, ev, game)
    result = _kinds(steps, "game")[0]
    assert result["places"] == [[2], [0], [1], [3]] and result["kind"] == "event"
    assert {d["seat"]: d["cp"] for d in _kinds(steps, "cp")} == {2: 10, 0: 5}


def test_a_tie_across_the_last_placing_places_none_of_its_teams() -> None:
    """Ruling TV-6: three teams tied for 2nd of four would make four placings; none of them
    places (and each may contact the Resistance)."""
    assert tv.placed([[2], [0, 1, 3]], 4) == {2: 1}
    assert tv.placed([[2, 0], [1], [3]], 4) == {2: 1, 0: 1}
    m = _mode()
    c = _season(4, schedule="flag-tag,flag-tag,flag-tag")
    ev = m.next_event(c)
    assert ev is not None
    game = _game(m, c, ev)
    game.state.winner = 2  # the other three survive whole: tied
    steps = m.post_game(c, ev, game, "g1", 1)
    assert _kinds(steps, "game")[0]["places"] == [[2], [0, 1, 3]]
    assert {d["seat"]: d["cp"] for d in _kinds(steps, "cp")} == {2: 10}
    contacts = [a for a in _asks_seats(steps) if a[0] == "contact"]
    assert [s for _, s in contacts] == [0, 1, 3]


def _asks_seats(steps: Steps) -> list[tuple[str, int]]:
    out = []
    while (ask := steps.pending()) is not None:
        out.append((ask.kind, ask.seat))
        steps.choose(ask.seat, ask.default)
    return out


def test_four_of_seven_place() -> None:
    m = _mode()
    c = _season(7, schedule="flag-tag,flag-tag,flag-tag")
    ev = m.next_event(c)
    assert ev is not None
    game = _game(m, c, ev)
    game.state.scenario["places"] = [6, 5, 4, 3, 2, 1, 0]  # a frozen order, best first
    steps, _ = _post(m, c, ev, game)
    assert {d["seat"]: d["cp"] for d in _kinds(steps, "cp")} == {6: 10, 5: 5, 4: 2, 3: 1}


def test_death_race_gates_and_wreck_bounties_pay_cp() -> None:
    """CT-21: +1 CP per gate passed by one of the team's vehicles; a Wrecked enemy pays by
    weight (a buggy 1, a car 2)."""
    m = _mode()
    c = _season(3)
    ev = m.next_event(c)
    assert ev is not None and ev.scenario == "death-race"
    game = _game(m, c, ev)
    st = game.state
    st.scenario["places"] = [1, 0, 2]
    st.scenario["progress"] = {_vid(game, 0, "Red Car"): 2, _vid(game, 0, "Red Buggy"): 3,
                               _vid(game, 2, "Red Car"): 1}
    _wreck(game, (1, "Red Buggy"), by=(0, "Red Car"))
    _wreck(game, (2, "Red Car"), by=(0, "Red Buggy"))
    _wreck(game, (2, "Red Buggy"))  # nobody hit it: no bounty
    steps, after = _post(m, c, ev, game, {"contact": "no"})
    by_seat: dict[int, list[tuple[int, str]]] = {}
    for d in _kinds(steps, "cp"):
        by_seat.setdefault(d["seat"], []).append((d["cp"], d["why"]))
    assert by_seat[0] == [(5, "place 2 in a Televised Event"), (3, "3 Death Race gates passed"),
                          (1, "Wrecked Red Buggy (lightweight)"),
                          (2, "Wrecked Red Car (middleweight)")]
    assert by_seat[1] == [(10, "place 1 in a Televised Event")]
    assert by_seat[2] == [(1, "1 Death Race gates passed")]
    assert tv.season(after).teams[0].cp == 11


def test_a_skirmish_pays_d6_cans_and_no_cp() -> None:
    """CT-21, CT-22: taking part in a Wasteland Skirmish is D6 Cans; no placings, no bounty."""
    m = _mode([4, 2, 3])  # the two skirmish D6, then the Wrecked car's roll
    c = _season(2)
    ev = m.next_event(c, {"skirmish": "the-revolution-will-be-televised"})
    assert ev is not None and ev.kind == "skirmish"
    game = _game(m, c, ev)
    game.state.winner = 0
    _wreck(game, (1, "Red Car"), by=(0, "Red Car"))
    steps, _ = _post(m, c, ev, game, {"contact": "no", "workshop": "keep"})
    assert _kinds(steps, "cp") == []
    cans = [(d["seat"], d["cans"]) for d in _kinds(steps, "stash")]
    assert cans[:2] == [(0, 4), (1, 2)]


def test_painted_and_converted_bonuses_once_per_player() -> None:
    m = _mode()
    c = _season(2, schedule="flag-tag,flag-tag,flag-tag")
    ev = m.next_event(c)
    assert ev is not None
    game = _game(m, c, ev)
    game.state.winner = 0
    steps = m.post_game(c, ev, game, "g1", 3)
    ask = steps.pending()
    assert ask is not None and (ask.seat, ask.kind) == (0, "painted")
    steps.choose(0, "yes")
    ask = steps.pending()
    assert ask is not None and (ask.seat, ask.kind) == (0, "converted")
    steps.choose(0, "no")
    steps.auto(lambda a: "no" if a.kind in ("painted", "converted") else None)
    c2 = _add(c, *steps.records())
    assert ("cp", 5, "fielded a fully painted team") in [
        (r.kind, r.data.get("cp"), r.data.get("why")) for r in c2.records if r.kind == "cp"]
    t0 = tv.season(c2).teams[0]
    assert t0.painted and not t0.converted
    ev2 = m.next_event(c2)
    assert ev2 is not None
    game2 = _game(m, c2, ev2)
    game2.state.winner = 1
    kinds = _asks(m.post_game(c2, ev2, game2, "g2", 4))
    assert kinds.count("painted") == 1  # seat 1 only: seat 0 had it
    assert kinds.count("converted") == 2


@pytest.mark.parametrize(("scenario", "units", "dice", "cans"), [
    ("automated-salvage", 7, [], 7),  # a Can per Salvage Point (p.136)
    ("zombie-bash", 25, [], 20),  # a Can per zombie, at most 20 (p.143)
    ("scavenger-party", 2, [3, 5], 10),  # D6+1 per crate (p.140)
    ("scavenger-party", 5, [6, 6, 6, 6, 6], 20),  # at most 20
    ("express-delivery", 3, [1, 2, 6], 9),  # the dice it counts (p.138)
])
def test_scenario_spoils(scenario: str, units: int, dice: list[int], cans: int) -> None:
    """CT-24: each scenario's own spoils, kept by the scenario as data."""
    from carnage.games.refuelled.scenarios import scenario_class

    steps = Steps(dice=ScriptedRandom(dice))
    got, why = tv._scenario_spoils(scenario_class(scenario)(), units, steps)
    assert got == cans and str(units) in why


def test_scenario_spoils_are_counted_from_the_game() -> None:
    from carnage.games.refuelled.scenarios.zombie_bash import ZOMBIES

    m = _mode()
    c = _season(2)
    ev = m.next_event(c, {"skirmish": "zombie-bash"})
    assert ev is not None
    game = _game(m, c, ev)
    score.add(game, ZOMBIES, 6, player=1, source="test", page=143)
    facts = tv.game_facts(game, ev.seats)
    assert facts.units == {0: 0, 1: 6}


def test_resistance_broadcast_and_censorship() -> None:
    """CT-08: in a Revolution each VP may be taken as an RP instead (ruling TV-5: declared
    after the game in secret, the places use the VP left); whoever gained RP in it earns no
    CP from it (a forced Revolution is a Televised Event: ruling TV-3)."""
    m = _mode()
    c = _add(_season(3), _rp(0, 4))
    ev = m.next_event(c)
    assert ev is not None
    pre = m.pregame(c, ev)
    pre.choose(0, "yes")
    pre.auto()
    c = _add(c, *pre.records())
    ev = m.next_event(c)
    assert ev is not None and ev.scenario == tv.REVOLUTION
    game = _game(m, c, ev)
    for seat, vp in ((0, 3), (1, 2), (2, 1)):
        score.add(game, score.VP, vp, player=seat, source="test", page=141)
    _wreck(game, (1, "Red Buggy"), by=(0, "Red Car"))  # a bounty Censorship takes away
    steps = m.post_game(c, ev, game, "g1", 5)
    ask = steps.pending()
    assert ask is not None and (ask.seat, ask.kind, ask.range, ask.secret) == (
        0, "broadcast", (0, 3), True)
    steps.choose(0, 2)  # 1 VP left
    steps.choose(1, 0)
    steps.choose(2, 0)
    steps.auto(lambda a: "no" if a.kind in ("contact", "painted", "converted") else None)
    result = _kinds(steps, "game")[0]
    assert result["places"] == [[1], [0, 2]] and result["kind"] == "event"
    assert _place(result, 0) == 2  # tied with seat 2 on the 1 VP left
    cps = {d["seat"]: d["cp"] for d in _kinds(steps, "cp")}
    assert 0 not in cps and cps == {1: 10}  # Censorship; the tie for 2nd does not place
    assert [d["cp"] for d in _kinds(steps, "censored") if d["seat"] == 0] == [1]
    rp = [d for d in _kinds(steps, "rp") if d["seat"] == 0]
    assert rp[0]["rp"] == 2 and rp[0]["seen_by"] == [0]


def _place(result: dict[str, Any], seat: int) -> int:
    from carnage.games.refuelled.campaign.seasons import ranked

    return ranked(result["places"])[seat]


def test_contacting_the_resistance_is_secret_and_only_for_teams_that_did_not_place() -> None:
    m = _mode()
    c = _season(3, schedule="flag-tag,flag-tag,flag-tag")
    ev = m.next_event(c)
    assert ev is not None
    game = _game(m, c, ev)
    game.state.scenario["places"] = [0, 1, 2]
    steps = m.post_game(c, ev, game, "g1", 5)
    asked = []
    while (ask := steps.pending()) is not None:
        if ask.kind == "contact":
            asked.append(ask.seat)
            assert ask.secret
            steps.choose(ask.seat, "yes")
        else:
            steps.choose(ask.seat, "no" if ask.kind in ("painted", "converted") else
                         ask.default)
    assert asked == [2]
    c2 = _add(c, *steps.records())
    assert tv.season(c2).teams[2].rp == 3
    shown = json.dumps(m.summary(c2, seat=0))
    assert '"rp": 3' not in shown and "Contacting" not in shown
    mine = m.summary(c2, seat=2)
    assert next(t for t in mine["teams"] if t["seat"] == 2)["rp"] == 3
    assert any("Contacting" in json.dumps(x) for x in mine["secrets"])
    assert all(t["rp"] is None for t in m.summary(c2)["teams"])  # a spectator


# -- damage (p.162) ---------------------------------------------------------------------------
def _damaged(dice: list[int], career: CareerSpec | None = None, *, vtype: str = "car",
             perks: tuple[str, ...] = (), weapons: int = 1,
             kind: str = "event") -> tuple[Steps, Campaign]:
    """Seat 0's vehicle Wrecked in a flag tag (or skirmish), its wreck roll scripted."""
    m = _mode(dice)
    c = _season(2, schedule="flag-tag,flag-tag,flag-tag")
    name = "Red Car" if vtype == "car" else "Red Buggy"
    v = _vehicle(c, 0, name)
    v = v.model_copy(update={"career": career, "perks": perks,
                             "weapons": tuple(WeaponSpec(id=w, facing="front") for w in
                                              ("machine_gun", "heavy_machine_gun")[:weapons])})
    c = _with_vehicle(c, 0, v)
    ev = m.next_event(c) if kind == "event" else m.next_event(c, {"skirmish": "zombie-bash"})
    assert ev is not None
    game = _game(m, c, ev)
    game.state.winner = 1
    _wreck(game, (0, name))
    steps = m.post_game(c, ev, game, "g1", 1)
    steps.auto(lambda a: {"contact": "no", "painted": "no", "converted": "no",
                          "injury": "done", "workshop": "keep"}.get(a.kind))
    return steps, _add(c, *steps.records())


@pytest.mark.parametrize(("die", "dents", "result", "after"), [
    (1, 0, "popped-back-in", 0),
    (2, 0, "escaped-unscathed", 0), (3, 0, "escaped-unscathed", 0),
    (4, 0, "bent-wheel-arch", 1), (3, 1, "bent-wheel-arch", 2),
])
def test_the_wreck_roll_is_d6_plus_dents(die: int, dents: int, result: str,
                                         after: int) -> None:
    """CT-27, CT-28 (car: middleweight, no modifier)."""
    steps, c = _damaged([die], CareerSpec(dents=dents))
    (w,) = _kinds(steps, "wreck")
    assert (w["die"], w["dents"], w["total"], w["result"]) == (die, dents, die + dents, result)
    assert tv.career(_vehicle(c, 0, "Red Car")).dents == after


def test_lightweights_add_one_and_heavyweights_take_one() -> None:
    steps, _ = _damaged([3], vtype="buggy")
    assert _kinds(steps, "wreck")[0]["total"] == 4  # buggy: lightweight +1
    assert tv.vehicle_weight("heavy_truck") == "heavyweight"
    assert tv.wreck_result(4 - 1).id == "escaped-unscathed"  # a truck's 4 counts 3


def test_blown_off_loses_a_random_weapon_for_good() -> None:
    steps, c = _damaged([5, 1], weapons=2)  # 5: blown off; the item die picks the second
    w = _kinds(steps, "wreck")[0]
    assert (w["result"], w["lost"]) == ("blown-off", "heavy_machine_gun")
    v = _vehicle(c, 0, "Red Car")
    assert [x.id for x in v.weapons] == ["machine_gun"]
    assert tv.career(v).lost == ("heavy_machine_gun",) and tv.career(v).dents == 1


def test_wrecked_pinion_loses_a_random_perk() -> None:
    free = ("powder_keg",)  # a Badass perk, free: no sponsor needed
    steps, c = _damaged([6, 0], CareerSpec(injuries=("badass",), free_perks=free),
                        perks=free)
    assert _kinds(steps, "wreck")[0]["lost"] == "powder_keg"
    v = _vehicle(c, 0, "Red Car")
    assert v.perks == () and tv.career(v).dents == 1
    assert tv.career(v).free_perks == () and tv.career(v).lost == ("powder_keg",)


def test_nothing_to_lose_still_dents() -> None:
    steps, c = _damaged([6])
    assert "nothing to lose" in _kinds(steps, "wreck")[0]["text"]
    assert tv.career(_vehicle(c, 0, "Red Car")).dents == 1


@pytest.mark.parametrize(("die", "dents", "field", "value", "after"), [
    (6, 1, "crew_loss", 1, 3),  # 7 Upholstery ruined: +2 dents
    (6, 2, "weakened_chassis", 1, 4),  # 8
    (6, 3, "audience_favourite", 1, 6),  # 9: +3 dents
])
def test_lasting_wear(die: int, dents: int, field: str, value: int, after: int) -> None:
    _, c = _damaged([die], CareerSpec(dents=dents))
    car = tv.career(_vehicle(c, 0, "Red Car"))
    assert getattr(car, field) == value and car.dents == after


def test_audience_favourite_pays_five_cp_in_a_televised_event_only() -> None:
    steps, c = _damaged([6], CareerSpec(dents=3))
    assert {"seat": 0, "cp": 5, "why": "Red Car: Audience Favourite"} in _kinds(steps, "cp")
    steps, c = _damaged([5, 3, 5], CareerSpec(dents=4), kind="skirmish")  # 2 skirmish D6
    assert not [d for d in _kinds(steps, "cp") if d["seat"] == 0]
    assert tv.career(_vehicle(c, 0, "Red Car")).audience_favourite == 1


def test_ten_or_more_destroys_the_vehicle_and_driver() -> None:
    steps, c = _damaged([6], CareerSpec(dents=4, injuries=("deathwish",)))
    assert _kinds(steps, "destroyed") == [{"seat": 0, "vehicle": "Red Car"}]
    assert [v.name for v in tv.season(c).teams[0].spec.vehicles] == ["Red Buggy"]


def test_held_together_by_rust_rolls_twice() -> None:
    """CT-39: both results apply (a bent wheel-arch, then a blown-off weapon)."""
    steps, c = _damaged([4, 4, 0], CareerSpec(injuries=("held-together-by-rust",)))
    assert [w["result"] for w in _kinds(steps, "wreck")] == ["bent-wheel-arch", "blown-off"]
    v = _vehicle(c, 0, "Red Car")
    assert tv.career(v).dents == 2 and v.weapons == ()


def test_living_legend_counts_as_one_and_may_drop_injuries() -> None:
    """CT-41: whatever the dice, the result is 1 (a dent less); then any injury may go (a bot
    drops the harmful ones: Shakes)."""
    steps, c = _damaged([6], CareerSpec(dents=9, injuries=("living-legend", "shakes")))
    w = _kinds(steps, "wreck")[0]
    assert (w["total"], w["counted"], w["result"]) == (15, 1, "popped-back-in")
    car = tv.career(_vehicle(c, 0, "Red Car"))
    assert car.dents == 8 and car.injuries == ("living-legend",)


def test_a_vehicle_wrecked_twice_rolls_once() -> None:
    """Ruling TV-8 (A-66)."""
    m = _mode([2])
    c = _season(2, schedule="flag-tag,flag-tag,flag-tag")
    ev = m.next_event(c)
    assert ev is not None
    game = _game(m, c, ev)
    game.state.winner = 1
    _wreck(game, (0, "Red Car"))
    _wreck(game, (0, "Red Car"))
    steps, _ = _post(m, c, ev, game, {"contact": "no", "painted": "no", "converted": "no"})
    assert len(_kinds(steps, "wreck")) == 1


def test_injuries_may_be_bought_before_the_wreck_roll() -> None:
    """CT-31: either side of the wreck roll: 4 dents spent on Twitch first make a 6 roll
    6, not 10."""
    m = _mode([6])
    c = _season(2, schedule="flag-tag,flag-tag,flag-tag")
    c = _with_vehicle(c, 0, _vehicle(c, 0, "Red Car").model_copy(
        update={"career": CareerSpec(dents=4)}))
    ev = m.next_event(c)
    assert ev is not None
    game = _game(m, c, ev)
    game.state.winner = 1
    _wreck(game, (0, "Red Car"))
    steps = m.post_game(c, ev, game, "g1", 1)
    while (ask := steps.pending()) is not None and ask.kind != "injury":
        steps.choose(ask.seat, "no" if ask.kind != "workshop" else "keep")
    assert ask is not None and ask.seat == 0 and not _kinds(steps, "wreck")
    steps.choose(0, "Red Car|twitch")
    steps.auto(lambda a: {"injury": "done", "workshop": "keep"}.get(a.kind))
    (w,) = _kinds(steps, "wreck")
    assert (w["dents"], w["total"], w["result"]) == (0, 6, "wrecked-pinion")


# -- workshop (p.164) -------------------------------------------------------------------------
def test_the_workshop_spends_the_stash_by_the_books_pricing() -> None:
    """CT-42..CT-44: a machine gun costs 2 from a stash of 8; the sponsor stays; a change the
    stash cannot pay is refused with nothing changed."""
    m = _mode()
    c = _season(2)
    steps = m.roster(c, 0)
    ask = steps.pending()
    assert ask is not None and (ask.seat, ask.kind) == (0, "workshop")
    t = tv.season(c).teams[0].spec
    car = t.vehicles[0]
    armed = car.model_copy(update={"weapons": (*car.weapons, WeaponSpec(id="machine_gun",
                                                                         facing="rear"))})
    greedy = t.model_copy(update={"vehicles": (armed, *t.vehicles[1:], VehicleSpec(
        name="New Car", type="car"))})
    with pytest.raises(SeasonError, match=r"seat 0 workshop: .*stash"):
        steps.choose(0, team_json(greedy))  # 2 + 12 > 8
    assert steps.written() == []
    with pytest.raises(SeasonError, match="sponsor stays"):
        steps.choose(0, team_json(t.model_copy(update={"sponsor": "rutherford"})))
    steps.choose(0, team_json(t.model_copy(update={"vehicles": (armed, *t.vehicles[1:])})))
    c2 = _add(c, *steps.records())
    s = tv.season(c2)
    assert s.teams[0].stash == 6 and len(s.teams[0].spec.vehicles[0].weapons) == 2


def test_scrapping_refunds_half() -> None:
    m = _mode()
    c = _season(2)
    t = tv.season(c).teams[0].spec
    steps = m.roster(c, 0)
    steps.choose(0, team_json(t.model_copy(update={"vehicles": t.vehicles[:1]})))
    c2 = _add(c, *steps.records())
    assert tv.season(c2).teams[0].stash == 8 + 8 // 2  # the buggy and its gun: 8, half 4


def test_a_bot_spends_its_stash_on_legal_purchases() -> None:
    t = _team("A")
    bought = tv.bot_purchase(t, 8)
    assert bought is not None
    from carnage.team.workshop import price_change

    bill = price_change(t, bought, 8)
    assert bill.valid and 0 <= bill.stash_after < 8
    assert tv.bot_purchase(t, 0) is None
    lone = t.model_copy(update={"vehicles": t.vehicles[1:]})
    more = tv.bot_purchase(lone, 8)
    assert more is not None and len(more.vehicles) == 2  # a buggy for a lone vehicle


def test_a_post_game_sequence_refuses_a_wrong_seat_and_keeps_state() -> None:
    m = _mode()
    c = _season(2, schedule="flag-tag,flag-tag,flag-tag")
    ev = m.next_event(c)
    assert ev is not None
    game = _game(m, c, ev)
    game.state.winner = 0
    steps = m.post_game(c, ev, game, "g1", 1)
    before = list(steps.written())
    ask = steps.pending()
    assert ask is not None
    with pytest.raises(SeasonError, match=f"seat {ask.seat}'s decision"):
        steps.choose(1 - ask.seat, "no")
    with pytest.raises(SeasonError, match="not one of the choices"):
        steps.choose(ask.seat, "maybe")
    assert steps.written() == before and steps.pending() == ask


def test_a_team_with_no_vehicles_sits_out_until_it_buys_one() -> None:
    """Ruling TV-19."""
    m = _mode()
    c = _season(3)
    c = _add(c, Record("destroyed", {"seat": 1, "vehicle": "Red Car"}),
             Record("destroyed", {"seat": 1, "vehicle": "Red Buggy"}))
    ev = m.next_event(c)
    assert ev is not None and ev.seats == (0, 2)
    steps = m.roster(c, 1)
    ask = steps.pending()
    assert ask is not None and ask.default != "keep"  # the bot buys a buggy with its 8 Cans
    steps.auto()
    ev = m.next_event(_add(c, *steps.records()))
    assert ev is not None and ev.seats == (0, 1, 2)


def test_bots_answer_the_pregame_sensibly() -> None:
    """A bot takes every Sabotage Token it may (TV-13) and buys injuries from 5 dents up
    (TV-18), never Held Together by Rust."""
    m = _mode()
    c = _add(_season(3), _rp(0, 6))
    c = _with_vehicle(c, 1, _vehicle(c, 1, "Red Car").model_copy(
        update={"career": CareerSpec(dents=5)}))
    c = _with_vehicle(c, 2, _vehicle(c, 2, "Red Car").model_copy(
        update={"career": CareerSpec(dents=4)}))
    ev = m.next_event(c)
    assert ev is not None
    pre = m.pregame(c, ev).auto()
    c2 = _add(c, *pre.records())
    assert m.setup(c2, ev).pregame_dict()["sabotage"] == [2, 0, 0]
    assert tv.career(_vehicle(c2, 1, "Red Car")).injuries == ("twitch",)  # 5 dents: Twitch
    assert tv.career(_vehicle(c2, 2, "Red Car")).injuries == ()  # 4 dents: keeps them


def test_a_post_game_sequence_replays_exactly_from_its_recorded_seed() -> None:
    """The same game, seed and answers give the same records, dice and all."""
    m = _mode()
    c = _season(3, schedule="flag-tag,flag-tag,flag-tag")
    ev = m.next_event(c)
    assert ev is not None
    game = _game(m, c, ev)
    game.state.winner = 0
    for victim in ((1, "Red Car"), (2, "Red Buggy"), (2, "Red Car")):
        _wreck(game, victim, by=(0, "Red Car"))
    a = m.post_game(c, ev, game, "g1", 77).auto().records()
    b = m.post_game(c, ev, game, "g1", 77).auto().records()
    assert [(r.kind, r.data) for r in a] == [(r.kind, r.data) for r in b]
    rolls = [r.data["die"] for r in a if r.kind == "wreck"]
    assert len(rolls) == 3
    game_rec = next(r for r in a if r.kind == "game")
    assert game_rec.data["seed"] == 77 and game_rec.game_id == "g1"
