"""What the table remembers between views never shows a stale or borrowed drawing.

The reach an attack decision draws for each weapon (``table_view._reach``) is remembered per
server process, keyed by the shooter's exact position and size, the arc and the template: a
vehicle firing weapon after weapon, or read again at the next version, is drawn from memory.
These tests move the shooter, size it, and hand the drawing out twice, and compare each
drawing with one worked out afresh from the geometry.
"""

from __future__ import annotations

import math
import random
from typing import Any

from carnage.ai import make_bot
from carnage.games.refuelled import table_view
from carnage.games.refuelled.engine.attack import HANDGUN, weapon_arc
from carnage.geometry.arcs import Arc, arc_region
from carnage.geometry.convex import convex_hull
from carnage.geometry.ranges import shooting_template
from carnage.geometry.shapes import Pose, Rect
from carnage.rulesets import get_ruleset


def _at_an_attack(seed: int = 3) -> Any:
    """A Street Race played by the heuristic bot up to an attack with a target."""
    game = get_ruleset("refuelled").new_game(scenario="street-race", seed=seed)
    bot, rng = make_bot("heuristic"), random.Random(1)
    for _ in range(400):
        d = game.pending()
        assert d is not None, "the game ended before any attack"
        if d.kind == "attack" and any(">" in str(o.value) for o in d.options):
            return game
        game.apply(bot.choose(game, d, rng))
    raise AssertionError("no attack with a target in 400 decisions")


def _afresh(game: Any, vehicle: Any, key: str) -> list[list[list[float]]]:
    """The weapon's reach worked out from the geometry, nothing remembered."""
    mount = next((m for m in vehicle.weapons if m.key == key), None)
    w = game.catalog.weapons.get(HANDGUN if mount is None else mount.weapon)
    arc = weapon_arc(mount, w)
    tpls = [shooting_template(str(b), game.templates) for b in w.ranges]
    tpl = max(tpls, key=lambda t: max(math.dist(p, q) for p in t.polygon for q in t.polygon))
    pieces = arc_region(vehicle.rect(), arc, tpl, steps=36)
    polys = [convex_hull([p for piece in pieces for p in piece])] if arc is Arc.TURRET \
        else pieces
    return [[[round(x, 2), round(y, 2)] for x, y in poly] for poly in polys]


def _drawn(game: Any) -> dict[str, Any]:
    d = game.pending()
    v = table_view.decision_vehicle(game, d)
    out = table_view.preview(game, d, v)
    assert out is not None
    return {w["key"]: w["polygons"] for w in out["weapons"]}


def test_the_reach_drawn_follows_the_shooter_never_a_remembered_place() -> None:
    game = _at_an_attack()
    v = table_view.decision_vehicle(game, game.pending())
    first = _drawn(game)
    assert first and all(first[k] == _afresh(game, v, k) for k in first)
    assert _drawn(game) == first  # read again: from memory, the same
    start = v.pose
    v.pose = Pose(start.x + 40.0, start.y - 25.0, start.heading + 30.0)
    moved = _drawn(game)
    assert all(moved[k] == _afresh(game, v, k) for k in moved)
    assert all(moved[k] != first[k] for k in moved)
    v.length += 10.0  # a longer body at the same place reaches further
    longer = _drawn(game)
    assert all(longer[k] == _afresh(game, v, k) and longer[k] != moved[k] for k in longer)
    v.length -= 10.0
    v.pose = start
    assert _drawn(game) == first


def test_a_drawing_handed_out_and_changed_leaves_the_next_one_whole() -> None:
    game = _at_an_attack()
    first = _drawn(game)
    kept = {k: [[list(p) for p in poly] for poly in polys] for k, polys in first.items()}
    for polys in first.values():
        polys[0][0][0] = -999.0
        polys.append([[0.0, 0.0]])
    assert _drawn(game) == kept


def test_two_games_with_shooters_in_different_places_draw_their_own() -> None:
    one, other = _at_an_attack(3), _at_an_attack(3)
    v1 = table_view.decision_vehicle(one, one.pending())
    v2 = table_view.decision_vehicle(other, other.pending())
    v2.pose = Pose(v2.pose.x + 100.0, v2.pose.y, v2.pose.heading)
    a, b = _drawn(one), _drawn(other)
    assert all(a[k] == _afresh(one, v1, k) for k in a)
    assert all(b[k] == _afresh(other, v2, k) for k in b)
    assert a != b


def test_a_heading_of_minus_zero_is_remembered_apart_from_zero() -> None:
    """``Rect`` compares -0.0 and 0.0 equal, yet they round and print apart."""
    plus, minus = Rect(Pose(0.0, 0.0, 0.0), 40.0, 20.0), Rect(Pose(0.0, 0.0, -0.0), 40.0, 20.0)
    assert plus == minus
    assert table_view._exactly(plus) != table_view._exactly(minus)


# -- the log's words: ids found by a pattern built once per set of ids ------------------------
def test_ids_are_named_as_the_names_say_now_not_as_they_said_before() -> None:
    """The pattern finding ids in a sentence is kept per set of ids; what each id becomes is
    read from the names given, so a name changed, an id added or one gone shows at once."""
    from carnage.games.refuelled.words import plain

    text = "car-1 rams van-2"
    first = plain(text, {"car-1": "Red Car", "van-2": "Blue Van", "seat:0": "Red"})
    assert first == "Red Car rams Blue Van"
    # the same ids, other names (a wreck's, say): the new names
    assert plain(text, {"car-1": "the wreck of Red Car", "van-2": "Blue Van",
                        "seat:0": "Red"}) == "the wreck of Red Car rams Blue Van"
    # an id no longer named is left to the words (no stale name for it)
    gone = plain(text, {"car-1": "Red Car", "seat:0": "Red"})
    assert "Blue Van" not in gone and gone.startswith("Red Car rams")
    # a longer id added that starts like a shorter one is found whole
    assert plain("car-1x and car-1", {"car-1": "Red Car", "car-1x": "Gold Car"}) == \
        "Gold Car and Red Car"
    # nothing named but seats: no id replaced
    assert "Red Car" not in plain(text, {"seat:0": "Red"})
