"""Hidden information per seat (kernel/secrets.py, web/redact.py): secrets kept in the state
with who may see them, secret decisions, and the log as each seat and a spectator read it."""

from __future__ import annotations

import json

from tests.builders import run_step, table, vehicle

from carnage.games.refuelled.engine.game import Flow, Game, ask
from carnage.games.refuelled.table_view import SeatControl, game_view, log_lines
from carnage.kernel.secrets import (
    REDACTED,
    is_hidden_from,
    keep_secret,
    redacted,
    reveal,
    secret,
    visible_secrets,
)
from carnage.web.redact import events_for, secret_views

SEATS = [SeatControl(0, "human"), SeatControl(1, "human")]


def _noting(g: Game) -> Flow:
    """Seat 0 notes one of two rocks in secret, then rolls dice nobody may see."""
    pick = yield ask(0, "note", "Note a rock", [("rock-1", "rock 1"), ("rock-2", "rock 2")],
                     source="test", hidden=True)
    keep_secret(g, "note:0", str(pick), [0], kind="note", label="Noted rock",
                text=str(pick).replace("-", " "), owner=0, source="test")
    g.roll(2, "shuffle", source="test", hidden=["dice"], seen_by=[])
    yield ask(1, "go_on", "Carry on?", [("yes", "yes"), ("no", "no")], source="test")


def _game() -> Game:
    st = table(vehicle("a", "car", 300, 300), vehicle("b", "car", 600, 300, player=1))
    return run_step(st, _noting, dice=[5, 2])


def test_a_secret_choice_and_a_secret_are_kept_in_the_state_and_the_full_log() -> None:
    g = _game()
    g.apply("rock-2")
    s = secret(g, "note:0")
    assert s is not None and s.value == "rock-2" and s.seen_by == [0] and s.owner == 0
    dec = g.log.of_kind("decision")[0]
    assert dec.data["choice"] == "rock-2" and dec.data["seen_by"] == [0]
    kept = g.log.of_kind("secret")[0]
    assert kept.data["value"] == "rock-2" and kept.data["hidden"] == ["value", "text"]
    roll = g.log.of_kind("roll")[0]
    assert roll.data["dice"] == [5, 2] and roll.data["seen_by"] == []


def test_other_seats_and_spectators_read_them_redacted_the_holder_in_full() -> None:
    g = _game()
    g.apply("rock-2")
    for viewers in ([1], []):
        seen = events_for(g, g.log.events, viewers)
        hidden = [e for e in seen if e.data.get(REDACTED)]
        assert [e.kind for e in hidden] == ["decision", "secret", "roll"]
        text = json.dumps([e.to_json() for e in seen])
        assert "rock-2" not in text and "rock 2" not in text and "[5, 2]" not in text
        assert visible_secrets(g, viewers) == []
    mine = events_for(g, g.log.events, [0])
    assert [e.to_json() for e in mine if e.kind != "roll"] == [
        e.to_json() for e in g.log.events if e.kind != "roll"]
    assert is_hidden_from(g.log.of_kind("roll")[0], [0])  # nobody sees the shuffle
    assert [v.text for v in secret_views(g, [0])] == ["rock 2"]
    # The original events are never changed by redacting.
    assert redacted(g.log.of_kind("secret")[0], [1]).data["value"] is None
    assert g.log.of_kind("secret")[0].data["value"] == "rock-2"


def test_the_game_view_lines_say_what_happened_without_the_secret() -> None:
    g = _game()
    g.apply("rock-2")
    other = game_view(g, "g", SEATS, 1, viewers=[1])
    lines = [ln.text for ln in other.log]
    assert "Player 1 chose in secret (note)" in lines[0] or any(
        "chose in secret (note)" in t for t in lines)
    assert any("holds a noted rock, face down" in t for t in lines)
    assert any("rolled face down (shuffle)" in t for t in lines)
    assert not any("rock 2" in t.lower() for t in lines)
    assert other.secrets == [] and "rock-2" not in other.model_dump_json()
    mine = game_view(g, "g", SEATS, 0, viewers=[0])
    assert any("noted rock: rock 2" in ln.text for ln in mine.log)
    assert [s.key for s in mine.secrets] == ["note:0"]
    # the full log (what a saved log file keeps) names it
    assert any("rock 2" in ln.text.lower() for ln in log_lines(g, g.log.events))


def test_a_revealed_secret_is_public_and_forgotten() -> None:
    g = _game()
    g.apply("rock-1")
    reveal(g, "note:0", source="test", why="the uplink")
    assert secret(g, "note:0") is None
    e = g.log.of_kind("secret_revealed")[0]
    assert e.data["value"] == "rock-1" and not is_hidden_from(e, [])
    spectator = game_view(g, "g", SEATS, None)
    assert any("noted rock is revealed: rock 1 (the uplink)" in ln.text
               for ln in spectator.log)


def test_clones_and_snapshots_keep_the_secrets_and_replay_exactly() -> None:
    g = _game()
    g.apply("rock-2")
    clone = g.clone()
    restored = g.restored(json.loads(json.dumps(g.snapshot())))  # a test scenario
    for other in (clone, restored):
        s = secret(other, "note:0")
        assert s is not None and s.value == "rock-2" and s.seen_by == [0]
        assert [e.to_json() for e in other.log.events] == [e.to_json() for e in g.log.events]
        other.apply("yes")
    g.apply("yes")
    assert [e.to_json() for e in clone.log.events] == [e.to_json() for e in g.log.events]
