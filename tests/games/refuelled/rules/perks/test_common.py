"""Perk machinery (Refuelled p.14): simultaneous perk effects are ordered by the active
player; effects that ask nothing resolve without a question."""

from __future__ import annotations

from tests.builders import activate, drive, ev, perked, run_step, table, values, vehicle


def test_two_perks_at_one_moment_are_ordered_by_the_active_player() -> None:
    # At the end of its Movement Step the car may use Cover Me (a friend within Double range)
    # and Madman (4 Hazards, another vehicle within Medium): its controller picks the order.
    v = perked(vehicle("v", "car", 600, 300, hazards=4), "cover_me", "madman")
    f = vehicle("f", "car", 800, 300)
    e = vehicle("e", "car", 700, 420, player=1)
    g = run_step(table(v, f, e), activate("v"))
    d = drive(g, template="short_straight")
    assert d is not None and d.kind == "perk_order" and d.player == 0 and d.page == 14
    assert values(d) == ["perk:cover_me:v", "perk:madman:v"]
    g.apply("perk:madman:v")
    d = g.pending()
    assert d is not None and d.kind == "madman"
    g.apply("e")
    d = g.pending()
    assert d is not None and d.kind == "cover_me"  # the other one, still applying
    g.apply("f")
    assert (v.hazards, e.hazards, f.hazards) == (2, 1, 1)


def test_effects_that_ask_nothing_need_no_order() -> None:
    # Two Terrifying Lunatics scare the same car: two Hazards, no question.
    l1 = perked(vehicle("l1", "car", 560, 570, heading=270), "terrifying_lunatic")
    l2 = perked(vehicle("l2", "car", 640, 570, heading=270), "terrifying_lunatic")
    e = vehicle("e", "car", 600, 300, player=1)
    g = run_step(table(e, l1, l2), activate("e"))
    assert drive(g, template="medium_straight") is None
    assert e.hazards == 2
    assert not [d for d in ev(g, "decision") if d["decision"] == "perk_order"]


def test_every_perk_of_the_catalogue_is_played() -> None:
    from carnage.catalog import load_catalog
    from carnage.rulesets import REFUELLED

    perks = list(load_catalog().perks.records)
    assert len(perks) == 72
    assert [p for p in perks if REFUELLED.rules.get("perk", p) is None] == []
