"""Decisions say what they are about: the ``vehicle``, ``target`` and ``weapon`` fields.

Seeded games between random sponsored and unsponsored teams (random and heuristic bots) check,
at every decision as it is asked, that a decision about a vehicle names one in the game, that
those about another party name it, and those about a weapon or upgrade name a mount of that
vehicle. The bots and the web view read these fields: shown here with prompts that name
nothing, and by a scan of ai/ and web/ for any reading of prompt text.
"""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path
from typing import Any

from tests.builders import race, vehicle

from carnage.ai import bot_rng, make_bot, play_out
from carnage.games.refuelled.ai.arsenal import amplifiers, grav_gun, lob_wreck
from carnage.games.refuelled.ai.bots import HeuristicBot
from carnage.games.refuelled.ai.dropped import place_gap
from carnage.games.refuelled.ai.perks import HANDLERS as PERK_HANDLERS
from carnage.games.refuelled.engine.game import Game, ask
from carnage.games.refuelled.session import random_teams_setup
from carnage.games.refuelled.setup import GameSetup, build_game
from carnage.games.refuelled.table_view import SeatControl, game_view, pending_view
from carnage.kernel.decisions import Decision, Interval

SRC = Path(__file__).resolve().parents[4] / "src" / "carnage"
GAMES = 300
FIRST_SEED = 31_000

PLAYER_LEVEL = frozenset({
    "activate", "deploy", "spend_votes", "vote_target", "graveyard_shift", "perk_order",
    "effect_order",
    "bogey",
})
"""Choices a player makes among vehicles or effects, about no one vehicle."""
TARGETED = frozenset({
    "collision_reaction", "soul_harvest", "siren", "press_gang", "bogey_at_12",
    "up_and_over", "stunt_driver", "grinderman", "return_fire", "pit",
    "purifying_flames_damage", "grabber_arm", "grabber_turn", "grav_gun", "amplifiers",
    "lob_wreck", "arc_lightning", "piledriver_place", "piledriver_facing", "splash",
})
"""Kinds about a second party: the vehicle (or obstacle) collided with, shot, helped ..."""
WEAPONED = frozenset({
    "splash", "grabber_arm", "grabber_turn", "grav_gun", "lob_wreck", "arc_lightning",
    "low_loader", "drop_edge", "drop_offset", "drop_angle", "place_bearing", "place_gap",
    "place_facing",
})
"""Kinds about one weapon or upgrade mount of the vehicle."""


class Checking:
    """A bot that checks each decision's subject fields before its inner bot answers."""

    def __init__(self, inner: Any, problems: list[str], seen: Counter[str]) -> None:
        self.inner, self.problems, self.seen = inner, problems, seen

    def choose(self, game: Game, d: Decision, rng: random.Random) -> Any:
        self.seen[d.kind] += 1
        self.problems.extend(subject_problems(game, d))
        return self.inner.choose(game, d, rng)


def subject_problems(game: Game, d: Decision) -> list[str]:
    st = game.state
    out: list[str] = []
    where = f"choice {len(game.choices)} ({d.kind}: {d.prompt!r})"
    if d.kind in PLAYER_LEVEL:
        return out
    v = st.vehicles.get(d.vehicle or "")
    if v is None:
        return [f"{where}: vehicle {d.vehicle!r} is not a vehicle of the game"]
    if d.kind in TARGETED and d.target not in st.vehicles and d.target not in st.obstacles:
        out.append(f"{where}: target {d.target!r} is neither a vehicle nor an obstacle")
    if d.kind in WEAPONED:
        keys = {m.key for m in v.weapons} | {u.key for u in v.fitted} | {"handgun"}
        if d.weapon not in keys:
            out.append(f"{where}: weapon {d.weapon!r} is not a mount of {v.id}")
    return out


def play_checked(i: int, seen: Counter[str]) -> list[str]:
    seed = FIRST_SEED + i
    setup = random_teams_setup(GameSetup(max_rounds=8), 50, sponsored=i % 2 == 0)(seed)
    names = ("heuristic", "random") if i % 3 else ("random", "heuristic")
    problems: list[str] = []
    g = build_game(setup, seed)
    play_out(g, [Checking(make_bot(b), problems, seen) for b in names], bot_rng(seed))
    return [f"seed {seed}: {p}" for p in problems]


def test_every_decision_in_seeded_games_names_its_subject() -> None:
    seen: Counter[str] = Counter()
    problems = [p for i in range(GAMES) for p in play_checked(i, seen)]
    assert problems == []
    # The run met the decisions the fields matter most for (and many more).
    assert len(seen) >= 60
    assert {"template", "attack", "collision_reaction", "lose_control", "grid"} <= set(seen)
    assert len(TARGETED & set(seen)) >= 5 and len(WEAPONED & set(seen)) >= 6


def test_ask_carries_the_subject_fields() -> None:
    d = ask(0, "k", "p", [("a", "A")], vehicle="car", target="rock-1", weapon="machine_gun#0")
    assert (d.vehicle, d.target, d.weapon) == ("car", "rock-1", "machine_gun#0")
    assert ask(0, "k", "p", [("a", "A")]).vehicle is None


# -- the bots read the fields ----------------------------------------------------------------
RIG, CAR, FOE = "rig", "car", "foe"


def _table(hazards: int = 0) -> Game:
    """Seat 0: a War Rig and a Car (with ``hazards``); seat 1: a Buggy 300 mm away."""
    return race(vehicle(RIG, "war_rig", 300, 300, player=0),
                vehicle(CAR, "car", 600, 300, player=0, hazards=hazards),
                vehicle(FOE, "buggy", 450, 600, player=1))


def _decision(kind: str, *options: str, **subject: str | None) -> Decision:
    """A decision whose prompt names nothing: only its fields say what it is about."""
    return ask(0, kind, "?", [(o, o) for o in options], **subject)


def test_heuristic_collision_reaction_reads_vehicle_and_target() -> None:
    g = _table()
    bot = HeuristicBot()
    rng = random.Random(0)
    heavy = _decision("collision_reaction", "smash", "evade", vehicle=RIG, target=FOE)
    light = _decision("collision_reaction", "smash", "evade", vehicle=FOE, target=RIG)
    assert bot.choose(g, heavy, rng) == "smash"  # the War Rig outweighs the Buggy
    assert bot.choose(g, light, rng) == "evade"


def test_heuristic_lose_control_turns_the_vehicle_the_decision_names() -> None:
    g = _table()
    bot = HeuristicBot()
    d = Decision(0, "lose_control", "?", domain=Interval(-180.0, 180.0), vehicle=CAR)
    want = bot.best_pivot(g, g.state.vehicles[CAR], -180.0, 180.0, True)
    assert bot.choose(g, d, random.Random(0)) == want


def test_perk_bot_judges_the_vehicle_the_decision_names_not_the_active_one() -> None:
    g = _table(hazards=5)
    g.state.active = RIG  # the active vehicle has room; the one asked about does not
    pick = PERK_HANDLERS["dead_weight"]
    rng = random.Random(0)
    assert pick(g, _decision("dead_weight", "yes", "no", vehicle=CAR), rng) == "no"
    assert pick(g, _decision("dead_weight", "yes", "no", vehicle=RIG), rng) == "yes"


def test_arsenal_bots_read_the_target() -> None:
    g = _table()
    rng = random.Random(0)
    mine, theirs = {"vehicle": RIG, "target": CAR}, {"vehicle": RIG, "target": FOE}
    assert amplifiers(g, _decision("amplifiers", "add", "discard", **mine), rng) == "discard"
    assert amplifiers(g, _decision("amplifiers", "add", "discard", **theirs), rng) == "add"
    assert grav_gun(g, _decision("grav_gun", "heavier", "lighter", **mine), rng) == "heavier"
    assert grav_gun(g, _decision("grav_gun", "heavier", "lighter", **theirs), rng) == "lighter"
    assert lob_wreck(g, _decision("lob_wreck", "east", "marker", **theirs), rng) == "marker"
    assert lob_wreck(g, _decision("lob_wreck", "east", "marker", **mine), rng) == "east"


def test_dropped_bot_reads_which_weapon_places_the_body() -> None:
    g = _table()
    g.state.active = RIG
    rng = random.Random(0)

    def gap(weapon: str) -> Any:
        d = Decision(0, "place_gap", "?", domain=Interval(0.0, 150.0, "mm"), vehicle=RIG,
                     weapon=weapon)
        return place_gap(g, d, rng)

    assert gap("sentry_gun#0") == 0.0  # a Sentry Gun goes right by the vehicle
    assert gap("rc_car_bombs#0") > 0.0  # an RC Car towards the foe, 300 mm away


def test_the_web_view_shows_the_vehicle_the_decision_names() -> None:
    g = _table()
    seats = [SeatControl(0, "human"), SeatControl(1, "human")]
    d = g.pending()
    if d is not None and d.kind == "activate":
        g.apply(d.options[0].value)
        d = g.pending()
    assert d is not None and d.kind == "template" and d.vehicle == g.state.active
    assert game_view(g, "g", seats).pending.vehicle == d.vehicle
    # Target and weapon travel with it to the web table.
    g2 = _table()
    pending = game_view(g2, "g", seats).pending
    assert pending is not None and pending.target is None and pending.weapon is None
    reaction = _decision("collision_reaction", "smash", "evade", vehicle=RIG, target=FOE)
    shown = pending_view(g2, reaction)
    assert (shown.vehicle, shown.target, shown.weapon) == (RIG, FOE, None)
    # A choice among vehicles is about none of them.
    fresh = build_game(GameSetup(), 0)
    first = fresh.pending()
    assert first is not None and first.kind == "deploy"
    assert game_view(fresh, "g", seats).pending.vehicle is None


# -- nothing reads prompt text ------------------------------------------------------------------
LOG_SCANS_ALLOWED = {
    ("bots.py", "_last_event_data"): "reads a roll's faces or the template chosen, not a subject",
    ("dropped.py", "_last_edge"): "the edge answered in the previous decision, not a subject",
}


def _functions_scanning_the_log(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(fn):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id == "reversed" and node.args
                        and ast.unparse(node.args[0]).endswith("log.events")):
                    out.add(fn.name)
    return out


def _bots_and_views() -> list[Path]:
    """The bots (generic search and every game's own) and the web views."""
    return sorted(p for d in ("ai", "web", "games/refuelled/ai", "games/devilsrun")
                  for p in (SRC / d).rglob("*.py") if d != "games/devilsrun" or "bot" in p.name)


def test_no_bot_or_view_reads_prompt_text() -> None:
    offences = []
    for path in _bots_and_views():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        passed_on = {id(k.value) for k in ast.walk(tree) if isinstance(k, ast.keyword)
                     and k.arg == "prompt"}
        for node in ast.walk(tree):
            # Showing a prompt (``prompt=d.prompt``) is fine; reading anything out of it is not.
            if (isinstance(node, ast.Attribute) and node.attr == "prompt"
                    and id(node) not in passed_on):
                offences.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert offences == []


def test_no_bot_or_view_scans_the_log_for_a_decisions_subject() -> None:
    found = set()
    for path in _bots_and_views():
        found |= {(path.name, f) for f in _functions_scanning_the_log(path)}
    assert found == set(LOG_SCANS_ALLOWED)
