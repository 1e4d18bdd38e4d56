"""A typical activation at the web table takes at most three actions (a template with its
vehicle and skid dice, keeping the dice, an attack), counted on a seeded Street Race played
through the web API as a person clicks it (tests/web/clicks_player.py; benchmarks/clicks.py
prints the figures for more games)."""

from __future__ import annotations

from pathlib import Path

from tests.web.clicks_player import Player, new_street_race
from tests.web.test_api_support import new_client


def test_a_typical_activation_takes_at_most_three_actions(tmp_path: Path) -> None:
    client = new_client(tmp_path)
    gid, token = new_street_race(client, 1)
    counts = Player(client, gid, token, "shortcuts", 1).play()
    s = counts.summary()
    assert counts.finished and s["activations"] >= 5
    assert s["median"] <= 3, counts.per_activation
    assert s["max"] <= 6, counts.per_activation


def test_the_table_as_it_was_took_more(tmp_path: Path) -> None:
    """The same person on a table that asks every question, one answer per action: the
    count measures what the shortcuts and automatic answers save."""
    client = new_client(tmp_path)
    client.app.state.games.assisted = False
    gid, token = new_street_race(client, 1)
    counts = Player(client, gid, token, "plain", 1).play()
    assert counts.summary()["median"] >= 6, counts.per_activation
