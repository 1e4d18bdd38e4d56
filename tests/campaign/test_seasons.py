"""Escalating and Championship Seasons (Refuelled pp.154–155): the pure rules over records,
and events played on the engine and recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from carnage.campaign.play import finishing_order, play_next
from carnage.campaign.store import Campaign, CampaignStore, Record
from carnage.games.refuelled.campaign import seasons
from carnage.team import TeamSpec, VehicleSpec, WeaponSpec, load_team

INTRO = Path(__file__).resolve().parents[2] / "examples" / "teams" / "intro.yaml"


def _team(name: str) -> TeamSpec:
    return load_team(INTRO).model_copy(update={"name": name})


def _buggy(name: str) -> VehicleSpec:
    return VehicleSpec(name=name, type="buggy",
                       weapons=(WeaponSpec(id="machine_gun", facing="front"),))


def _campaign(opts: dict[str, object], records: list[Record], cid: str = "c1") -> Campaign:
    from datetime import UTC, datetime

    seqd = tuple(Record(r.kind, r.data, r.game_id, i) for i, r in enumerate(records))
    return Campaign(cid, "escalating", dict(opts), 1, datetime.now(UTC), seqd)


def _new(mode: str = "escalating", n: int = 2, **kw: object) -> Campaign:
    opts = seasons.season_options(mode, **kw)
    records: list[Record] = []
    for seat in range(n):
        records += seasons.join_records(opts, seat, _team(f"T{seat}"), 0)
    return _campaign(opts, records)


def _after_game(c: Campaign, places: list[list[int]], gid: str) -> Campaign:
    recs = list(c.records) + seasons.post_game_records(c, gid, "street-race", 1, places, "", 3)
    return _campaign(c.options, recs, c.id)


# -- Escalating (p.154) -------------------------------------------------------------------------
def test_teams_start_with_the_agreed_cans_and_gain_the_bonus_after_each_game() -> None:
    c = _new(start_cans=30, bonus=10)  # CE-01
    assert [t.allowance for t in seasons.teams(c)] == [30, 30]
    c = _after_game(c, [[0], [1]], "g1")  # CE-02: the bonus before game 2
    assert [t.allowance for t in seasons.teams(c)] == [40, 40]
    c = _after_game(c, [[1], [0]], "g2")
    assert [t.allowance for t in seasons.teams(c)] == [50, 50]


def test_a_late_joiner_gets_what_everyone_has_had() -> None:
    """CE-03: joining before game 4 gives 30 + 10 + 10 + 10 = 60."""
    opts = seasons.season_options("escalating")
    assert seasons.entitlement(opts, 3) == 60
    recs = seasons.join_records(opts, 2, _team("Late"), 3)
    assert recs[1].data["cans"] == 60 and recs[0].data["joined_after"] == 3


def test_the_bonus_buys_new_vehicles_within_the_allowance() -> None:
    c = _new()
    t0 = seasons.teams(c)[0].spec
    two_more = t0.model_copy(update={"vehicles": (*t0.vehicles, _buggy("B1"), _buggy("B2"))})
    with pytest.raises(seasons.SeasonError, match="over its budget of 30"):
        seasons.change_team(c, 0, two_more)  # 22 + 8 + 8 = 38 Cans before any bonus
    c = _after_game(c, [[0], [1]], "g1")
    rec = seasons.change_team(c, 0, two_more)  # 40 Cans after the first game
    c = _campaign(c.options, [*c.records, rec])
    assert len(seasons.teams(c)[0].spec.vehicles) == 4
    row = next(r for r in seasons.standings(c) if r.seat == 0)
    assert (row.spent, row.allowance) == (38, 40)


def test_the_perks_and_weapons_variant_keeps_the_vehicles() -> None:
    """CE-04: bonus Cans buy no new vehicles (ruling CMP-2: the vehicle list must stay)."""
    c = _after_game(_new(variant="perks-weapons"), [[0], [1]], "g1")
    t0 = seasons.teams(c)[0].spec
    more = t0.model_copy(update={"vehicles": (*t0.vehicles, _buggy("B1"))})
    with pytest.raises(seasons.SeasonError, match="only perks and weapons"):
        seasons.change_team(c, 0, more)
    car = t0.vehicles[0]
    armed = car.model_copy(update={"weapons": (*car.weapons,
                                               WeaponSpec(id="machine_gun", facing="rear"))})
    rec = seasons.change_team(c, 0, t0.model_copy(update={"vehicles": (armed,
                                                                       *t0.vehicles[1:])}))
    assert len(rec.data["team"]["vehicles"][0]["weapons"]) == 2


def test_a_plain_championship_season_does_not_escalate() -> None:
    c = _after_game(_new("championship"), [[0], [1]], "g1")
    assert [t.allowance for t in seasons.teams(c)] == [30, 30]
    assert not [r for r in c.records if r.kind == "allowance" and r.game_id]


# -- Championship (p.155) ---------------------------------------------------------------------
def test_championship_points_by_place() -> None:
    assert [seasons.points_for(p) for p in (1, 2, 3, 4, 5)] == [5, 3, 1, 0, 0]  # CC-01


def test_tied_teams_share_the_better_place() -> None:
    """Ruling CMP-1: ties share the better place and skip the places they fill."""
    assert seasons.ranked([[2], [0, 1], [3]]) == {2: 1, 0: 2, 1: 2, 3: 4}


def test_standings_sum_points_and_break_ties_on_best_finishes() -> None:
    c = _new("championship", n=4)
    c = _after_game(c, [[0], [1], [2], [3]], "g1")  # 5 3 1 0
    c = _after_game(c, [[1], [2], [0], [3]], "g2")  # 1 5 3 0 -> T0 6, T1 8, T2 4
    c = _after_game(c, [[3], [0], [2], [1]], "g3")  # 3 0 1 5 -> T0 9, T1 8, T2 5, T3 5
    rows = seasons.standings(c)
    assert [(r.name, r.cp) for r in rows] == [("T0", 9), ("T1", 8), ("T3", 5), ("T2", 5)]
    # T3 and T2 both have 5 CP: T3 has a 1st place, T2 none (ruling CMP-3)
    assert rows[2].finishes[0] == 1 and rows[3].finishes[0] == 0
    assert seasons.champion(c) == ["T0"]  # CC-03


def test_a_complete_tie_gives_joint_leaders() -> None:
    c = _after_game(_new("championship"), [[0, 1]], "g1")
    assert seasons.champion(c) == ["T0", "T1"]


def test_a_finishing_order_must_name_every_seat_once() -> None:
    c = _new("championship", n=3)
    with pytest.raises(seasons.SeasonError, match="every seat once"):
        seasons.post_game_records(c, "g", "street-race", 1, [[0], [0]], "", 1)


def test_the_schedule_rotates_through_the_events() -> None:
    c = _new(events=("death-race", "flag-tag"))
    assert seasons.next_event(c)["scenario"] == "death-race"
    c = _after_game(c, [[0], [1]], "g1")
    assert seasons.next_event(c) == {"game": 2, "scenario": "flag-tag", "teams": ["T0", "T1"]}


def test_bad_options_are_refused() -> None:
    with pytest.raises(seasons.SeasonError, match="unknown campaign mode"):
        seasons.season_options("televised-ish")
    with pytest.raises(seasons.SeasonError, match="bonus variant"):
        seasons.season_options("escalating", variant="cars")


# -- events on the engine ----------------------------------------------------------------------
def test_a_death_race_records_its_runners_up(tmp_path: Path) -> None:
    store = CampaignStore(f"sqlite:///{tmp_path / 'c.db'}")
    opts = seasons.season_options("championship", events=("death-race",))
    recs = [r for s in range(3) for r in seasons.join_records(opts, s, _team(f"T{s}"), 0)]
    cid = store.create("championship", opts, recs)
    r = play_next(store, cid, ["heuristic"], seed=1, max_rounds=8)
    c = store.get(cid)
    game = [x for x in c.records if x.kind == "game"]
    assert len(game) == 1 and game[0].game_id == r.game_id
    assert sorted(s for g in r.places for s in g) == [0, 1, 2]
    assert len(r.places) == 3  # a 1st, a 2nd and a 3rd: the runners-up are ranked
    points = {x.data["seat"]: x.data["cp"] for x in c.records if x.kind == "points"}
    ranks = seasons.ranked(r.places)
    assert points == {s: seasons.points_for(p) for s, p in ranks.items()}
    assert "crossed the finish line" in r.reason  # won by the race, not the round limit
    store.close()


def test_finishing_order_follows_the_death_race_places() -> None:
    from carnage.games.refuelled.setup import GameSetup, build_game

    game = build_game(GameSetup(scenario="death-race", teams=(_team("A"), _team("B"),
                                                              _team("C")), players=3), 1)
    game.state.scenario["places"] = [2, 0, 1]
    assert finishing_order(game) == [[2], [0], [1]]
    game.state.scenario.pop("places")
    game.state.winner = 1
    assert finishing_order(game)[0] == [1]  # the winner first, the rest by what survives


def test_an_event_recorded_over_a_concurrent_change_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A roster change lands while a game is being played: the game's post-game sequence is
    refused as a conflict and nothing of it is written."""
    import carnage.ai as ai
    from carnage.campaign.store import ConflictError

    store = CampaignStore(f"sqlite:///{tmp_path / 'c.db'}")
    opts = seasons.season_options("championship", events=("street-race",))
    recs = [r for s in range(2) for r in seasons.join_records(opts, s, _team(f"T{s}"), 0)]
    cid = store.create("championship", opts, recs)
    real = ai.play_out

    def play_and_interfere(*args: object, **kw: object) -> object:
        c = store.get(cid)
        store.append(cid, c.version, [seasons.change_team(c, 1, _team("T1 renamed"))])
        return real(*args, **kw)

    monkeypatch.setattr(ai, "play_out", play_and_interfere)
    with pytest.raises(ConflictError, match="reload it and try again"):
        play_next(store, cid, ["heuristic"], seed=1, max_rounds=6)
    c = store.get(cid)
    assert [r.kind for r in c.records][-1] == "team" and not seasons.games(c.records)
    store.close()
