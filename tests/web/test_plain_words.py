"""Plain words on the table: prompts, option labels, log lines and rule labels name players by
their seat colour, vehicles and weapons by their names, and never show an engine id."""

from __future__ import annotations

import random
import re

import pytest

from carnage.ai import make_bot
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.games.refuelled.table_view import SeatControl, game_view, log_lines, pending_view
from carnage.games.refuelled.words import (
    choice_text,
    mount_name,
    plain,
    rule_name,
    seat_name,
    template_name,
)
from carnage.team.random_team import random_team

ID_PATTERNS = {
    "vehicle id": re.compile(r"\bp\d+-[a-z]"),
    "mount key": re.compile(r"#\d"),
    "choice value": re.compile(r">|\bcancel:\d"),
    "snake_case id": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "seat number": re.compile(r"\b(?:seat|Player) \d"),
    "perk source": re.compile(r"(?i)perk:"),
}


def leaks(text: str) -> list[str]:
    return [what for what, pat in ID_PATTERNS.items() if pat.search(text)]


def play(setup: GameSetup, seed: int, limit: int = 1500) -> list[tuple[str, str]]:
    """Every prompt, option label and rule label a player sees, and every log line."""
    g = build_game(setup, seed)
    bots = [make_bot("heuristic"), make_bot("random")]
    rng = random.Random(seed)
    seen: list[tuple[str, str]] = []
    for _ in range(limit):
        d = g.pending()
        if d is None:
            break
        pv = pending_view(g, d, with_preview=False)
        seen.append((f"prompt ({d.kind})", pv.prompt))
        seen.append((f"rule ({d.kind})", pv.rule))
        seen += [(f"option ({d.kind})", o.label) for o in pv.options or []]
        g.apply(bots[d.player % 2].choose(g, d, rng))
    for line in log_lines(g, g.log.events):
        seen.append((f"log ({line.kind})", line.text))
        seen.append((f"log rule ({line.kind})", line.rule))
    return seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_street_race_shows_no_internal_ids(seed: int) -> None:
    bad = [(where, text, leaks(text)) for where, text in play(GameSetup(), seed) if leaks(text)]
    assert bad == []


@pytest.mark.parametrize("seed", [11, 12])
def test_random_armed_teams_show_no_internal_ids(seed: int) -> None:
    teams = (random_team(seed, 50, name="Road Hogs"), random_team(seed + 100, 50, name="Rust"))
    bad = [(where, text, leaks(text)) for where, text in play(GameSetup(teams=teams), seed)
           if leaks(text)]
    assert bad == []


def test_a_player_has_one_name_in_the_log_and_on_the_table() -> None:
    g = build_game(GameSetup(), 1)
    view = game_view(g, "g", [SeatControl(0, "human", "Red Racers"),
                              SeatControl(1, "heuristic", "Blue Racers")])
    assert [(p.name, p.team) for p in view.players] == [("Red", "Red Racers"),
                                                         ("Blue", "Blue Racers")]
    pole = [ln.text for ln in view.log if ln.kind == "pole"]
    assert pole and pole[0].split(" takes pole")[0] in ("Red", "Blue")
    assert not any("Player" in ln.text for ln in view.log)


def test_names_come_from_ids() -> None:
    names = {"p1-war-pig": "War Pig", "p2-blue-car": "Blue Car", "seat:0": "Red",
             "seat:1": "Blue"}
    assert mount_name("machine_gun#0") == "Machine Gun"
    assert mount_name("drop:mine_dropper#1") == "Mine Dropper"
    assert rule_name("perk:road_warrior:p1-war-pig") == "Road Warrior"
    assert rule_name("push_it") == "Push it"
    assert rule_name("core") == "Core rules"
    assert template_name("hard/left/reverse") == "Hard (left) in reverse"
    assert seat_name(0) == "Red" and seat_name(8) == "Blue 9"
    assert choice_text("attack", "machine_gun#0>p1-war-pig", names) == (
        "fire Machine Gun at War Pig")
    assert choice_text("spend_shift", "cancel:0", names, ["slide", "shift"]) == (
        "cancel the Slide on die 1")
    assert choice_text("push_it", "0,2", names) == "Push It: reroll dice 1 and 3"
    assert choice_text("push_it", "no", names) == "keep the dice"
    assert choice_text("skid_dice", 1, names) == "1 skid die"
    assert choice_text("spin", 45.0, names) == "a turn of 45° left"
    assert choice_text("spin", "done", names) == "a turn made on the real table"  # CP-25
    assert choice_text("lose_control", -30.4, names) == "a turn of 30° right"
    assert plain("Red Car collides with p2-blue-car; seat 0 cannot act for seat 1", names) == (
        "Red Car collides with Blue Car; Red cannot act for Blue")
    assert plain("Player 2 wins", names) == "Blue wins"
    assert plain("p3-ghost-rider left", names) == "Ghost Rider left"  # no longer in the state


def test_push_it_and_shift_options_number_dice_from_one() -> None:
    g = build_game(GameSetup(), 1)
    b = make_bot("heuristic")
    rng = random.Random(1)
    seen = set()
    for _ in range(400):
        d = g.pending()
        if d is None:
            break
        if d.kind in ("push_it", "spend_shift"):
            pv = pending_view(g, d, with_preview=False)
            if pv.dice is None:  # a free Shift of a trivial template: no dice were rolled
                assert d.kind == "spend_shift"
                g.apply(b.choose(g, d, rng))
                continue
            assert [x.number for x in pv.dice.dice] == list(range(1, len(pv.dice.dice) + 1))
            for o in pv.options or []:
                if d.kind == "push_it" and o.value != "no":
                    want = [int(i) + 1 for i in str(o.value).split(",")]
                    assert [int(n) for n in re.findall(r"\d", o.label)] == want
                if str(o.value).startswith("cancel:"):
                    i = int(str(o.value).split(":")[1])
                    assert o.label.endswith(f"die {i + 1}")
                    assert pv.dice.dice[i].face.capitalize() in o.label
            seen.add(d.kind)
        g.apply(b.choose(g, d, rng))
    assert seen == {"push_it", "spend_shift"}


def test_a_cancelling_shift_names_the_face_and_die_in_the_log() -> None:
    g = build_game(GameSetup(), 1)
    b = make_bot("heuristic")
    rng = random.Random(1)
    for _ in range(300):
        d = g.pending()
        if d is None:
            break
        g.apply(b.choose(g, d, rng))
    lines = [ln.text for ln in log_lines(g, g.log.events)
             if ln.kind == "decision" and " chose cancel" in ln.text]
    assert lines
    for text in lines:
        m = re.search(r"chose cancel the (Hazard|Spin|Slide) on die (\d+)", text)
        assert m and int(m.group(2)) >= 1, text
