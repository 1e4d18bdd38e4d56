"""Friendly vehicles are legal targets (Refuelled p.30) but the table tells them apart: each
attack option says whether its target is the attacker's own, enemies come first, and a
friendly target's label says "your own"."""

from __future__ import annotations

from tests.builders import BLUE, RED, attack_game, table, vehicle

from carnage.games.refuelled.engine.attack import STOP
from carnage.games.refuelled.table_view import pending_view


def test_attack_options_mark_friendly_targets_and_list_enemies_first() -> None:
    blue = vehicle("blue", "car", *BLUE, player=0)
    mate = vehicle("mate", "car", *RED, player=0)  # Blue's own car, in front of it
    enemy = vehicle("enemy", "car", 280.0, 450.0, 270.0, player=1)
    g = attack_game(table(blue, mate, enemy), "blue")
    d = g.pending()
    assert d is not None and d.kind == "attack"
    engine_order = [str(o.value) for o in d.options]
    assert engine_order.index("handgun>mate") < engine_order.index("handgun>enemy")
    options = pending_view(g, d).options
    assert options is not None
    shown = [(o.value, o.friendly) for o in options]
    assert shown == [(STOP, None), ("handgun>enemy", False), ("handgun>mate", True)]
    mate_label = next(o.label for o in options if o.value == "handgun>mate")
    enemy_label = next(o.label for o in options if o.value == "handgun>enemy")
    assert "your own" in mate_label and "your own" not in enemy_label
