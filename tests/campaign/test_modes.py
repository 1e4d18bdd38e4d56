"""The campaign modes interface and its step sequences: decisions offered to one seat at a
time, wrong answers refused with nothing changed, dice replayed from the recorded seed."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from carnage.campaign.modes import MODES, mode_of
from carnage.campaign.steps import (
    SeasonError,
    StepAsk,
    Steps,
    choices,
    extended,
    redacted,
    secret,
)
from carnage.campaign.store import Campaign, CampaignStore, Record
from carnage.games.refuelled.campaign.seasons import team_json
from carnage.team import load_team

INTRO = Path(__file__).resolve().parents[2] / "examples" / "teams" / "intro.yaml"


def _two_questions() -> Steps:
    steps = Steps(seed=7)

    def rolled(value: Any, s: Steps) -> None:
        s.add(Record("pick", {"seat": 0, "value": value, "roll": s.rng.randint(1, 6)}))
        s.now(lambda s2: s2.add(Record("after", {"seat": 0})))

    steps.ask(StepAsk(0, "pick", "pick a colour", choices(["red", "blue"]), default="red"),
              rolled)
    steps.ask(StepAsk(1, "number", "how many", range=(0, 3), default=1),
              lambda v, s: s.add(Record("number", {"seat": 1, "n": v})))
    return steps.start()


def test_decisions_come_one_seat_at_a_time_in_order() -> None:
    steps = _two_questions()
    ask = steps.pending()
    assert ask is not None and (ask.seat, ask.kind) == (0, "pick")
    assert ask.to_json()["options"] == [{"value": "red", "label": "red"},
                                        {"value": "blue", "label": "blue"}]
    steps.choose(0, "blue")
    ask = steps.pending()
    assert ask is not None and (ask.seat, ask.kind, ask.range) == (1, "number", (0, 3))
    steps.choose(1, "2")
    assert steps.pending() is None
    assert [r.kind for r in steps.records()] == ["pick", "after", "number"]
    assert steps.records()[2].data["n"] == 2
    assert steps.answers == [{"seat": 0, "kind": "pick", "value": "blue"},
                             {"seat": 1, "kind": "number", "value": 2}]


def test_a_wrong_seat_or_value_is_refused_and_nothing_changes() -> None:
    steps = _two_questions()
    with pytest.raises(SeasonError, match="seat 0's decision \\(pick\\), not seat 1's"):
        steps.choose(1, "red")
    with pytest.raises(SeasonError, match="'green' is not one of the choices \\(red, blue\\)"):
        steps.choose(0, "green")
    assert steps.written() == [] and steps.answers == []
    steps.choose(0, "red")
    with pytest.raises(SeasonError, match=r"4 is outside 0\.\.3"):
        steps.choose(1, 4)
    with pytest.raises(SeasonError, match="'lots' is not a whole number"):
        steps.choose(1, "lots")
    assert [r.kind for r in steps.written()] == ["pick", "after"]
    with pytest.raises(SeasonError, match="seat 1 still has a decision to make"):
        steps.records()


def test_a_refusal_inside_a_resolution_rolls_back_the_dice_too() -> None:
    steps = Steps(seed=3)

    def picky(value: Any, s: Steps) -> None:
        roll = s.rng.randint(1, 6)
        s.add(Record("roll", {"roll": roll}))
        if value == "no":
            raise SeasonError("no is not allowed here")

    steps.ask(StepAsk(0, "q", "?", choices(["yes", "no"])), picky).start()
    with pytest.raises(SeasonError, match="no is not allowed"):
        steps.choose(0, "no")
    assert steps.written() == []
    steps.choose(0, "yes")
    assert steps.records()[0].data["roll"] == __import__("random").Random(3).randint(1, 6)


def test_the_same_seed_and_answers_replay_the_same_sequence() -> None:
    a, b = _two_questions().auto(), _two_questions().auto()
    assert [r.data for r in a.records()] == [r.data for r in b.records()]
    assert a.records()[0].data["value"] == "red"  # the defaults


def test_secret_records_are_redacted_for_other_seats() -> None:
    r = Record("rp", secret({"seat": 1, "rp": 3, "why": "contact"}, [1], "rp", "why"))
    assert redacted([r], 1)[0].data["rp"] == 3
    public = Record("forced", {"seat": 1, "rp": 5})
    for viewer in (0, None):
        assert redacted([r, public], viewer) == [public]


def test_modes_are_an_immutable_table() -> None:
    assert {"escalating", "championship"} <= set(MODES)
    with pytest.raises(TypeError):
        MODES["mine"] = MODES["escalating"]
    with pytest.raises(SeasonError, match="unknown campaign mode 'chess'"):
        mode_of("chess")


def _season(mode: str, **raw: Any) -> Campaign:
    m = MODES[mode]
    opts = m.options(raw)
    team = load_team(INTRO)
    recs = m.start(opts, [team.model_copy(update={"name": f"T{i}"}) for i in range(2)])
    c = Campaign("c", mode, opts, 1, datetime.now(UTC), ())
    return extended(c, recs)


def test_escalating_options_come_checked_from_strings() -> None:
    m = MODES["escalating"]
    opts = m.options({"start_cans": "40", "events": "death-race,flag-tag", "games": "3"})
    assert (opts["start_cans"], opts["events"], opts["games"]) == (40, ["death-race",
                                                                       "flag-tag"], 3)
    with pytest.raises(SeasonError, match="unknown option 'schedule'"):
        m.options({"schedule": "x"})
    with pytest.raises(SeasonError, match="start_cans: 'lots' is not a whole number"):
        m.options({"start_cans": "lots"})


def test_a_season_of_fixed_length_ends(tmp_path: Path) -> None:
    store = CampaignStore(f"sqlite:///{tmp_path / 'c.db'}")
    m = MODES["championship"]
    opts = m.options({"events": "street-race", "games": 1})
    cid = store.create("championship", opts,
                       m.start(opts, [load_team(INTRO), load_team(INTRO)]))
    from carnage.campaign.play import play_next

    play_next(store, cid, ["heuristic"], seed=3, max_rounds=5)
    c = store.get(cid)
    assert m.next_event(c) is None
    s = m.summary(c)
    assert s["finished"] and s["titles"]["champion"] == s["champion"] != []
    with pytest.raises(SeasonError, match="is over"):
        play_next(store, cid, ["heuristic"], seed=4)
    store.close()


def test_an_escalating_team_change_is_a_step_of_that_seat() -> None:
    c = _season("escalating")
    m = MODES["escalating"]
    steps = m.roster(c, 1)
    ask = steps.pending()
    assert ask is not None and (ask.seat, ask.kind, ask.default) == (1, "roster", "keep")
    t = load_team(INTRO)
    more = tuple(v.model_copy(update={"name": v.name + " 2"}) for v in t.vehicles)
    bigger = t.model_copy(update={"vehicles": t.vehicles + more, "name": "Big"})
    with pytest.raises(SeasonError, match="over its budget of 30"):
        steps.choose(1, team_json(bigger))
    with pytest.raises(SeasonError, match="not seat 0's"):
        steps.choose(0, "keep")
    with pytest.raises(SeasonError, match="a team \\(JSON object\\) or 'keep'"):
        steps.choose(1, 5)
    assert steps.written() == []
    steps.choose(1, team_json(t.model_copy(update={"name": "Renamed"})))
    (rec,) = steps.records()
    assert rec.kind == "team" and rec.data["team"]["name"] == "Renamed"
    with pytest.raises(SeasonError, match="no team in seat 5"):
        m.roster(c, 5)


def test_the_escalating_post_game_is_one_sequence_ending_in_roster_steps() -> None:
    from carnage.games.refuelled.setup import build_game

    c = _season("escalating")
    m = MODES["escalating"]
    ev = m.next_event(c)
    assert ev is not None and ev.seats == (0, 1)
    game = build_game(m.setup(c, ev), 1)
    game.state.winner = 1
    steps = m.post_game(c, ev, game, "g1", 1)
    assert [r.kind for r in steps.written()] == ["game", "allowance", "allowance"]
    assert steps.written()[0].data["places"][0] == [1]
    ask = steps.pending()
    assert ask is not None and (ask.seat, ask.kind) == (0, "roster")
    steps.auto()
    assert [r.kind for r in steps.records()] == ["game", "allowance", "allowance"]
