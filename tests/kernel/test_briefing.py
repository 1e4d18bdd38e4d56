"""A scenario's brief and scoreboard as plain data (``kernel/briefing.py``): citations in
words, refused when they name no place; rows ranked, the leader marked, seats named by the
caller."""

from __future__ import annotations

import pytest

from carnage.kernel.briefing import BriefRule, Cite, ScenarioBrief, Scoreboard, SeatScore


def test_a_citation_reads_as_a_page_pages_or_a_section() -> None:
    assert Cite("Refuelled", 125).text == "Refuelled p.125"
    assert Cite("Refuelled", 124, 128).text == "Refuelled pp.124-128"
    assert Cite("Kart variant", where="Wipeout").text == "Kart variant, Wipeout"
    with pytest.raises(ValueError, match="needs a page or a section"):
        Cite("Refuelled")
    with pytest.raises(ValueError, match="pages 128-124"):
        Cite("Refuelled", 128, 124)


def test_a_variant_adds_its_own_rules_and_may_change_the_summary() -> None:
    base = ScenarioBrief("race", "Race", "Drive.", "First over the line wins.",
                         Cite("Refuelled", 62),
                         rules=(BriefRule("Pole", "Roll off.", Cite("Refuelled", 62)),))
    kart = base.with_variant("Kart variant", (BriefRule("No damage", "Hits give Hazards.",
                                                        Cite("Kart variant", where="Items")),),
                             summary="Karts drive.")
    assert (kart.variant, kart.summary, kart.rules) == ("Kart variant", "Karts drive.",
                                                        base.rules)
    assert [c.text for c in kart.cites()] == ["Refuelled p.62", "Refuelled p.62",
                                              "Kart variant, Items"]
    assert kart.to_json()["differs"][0]["cite"]["text"] == "Kart variant, Items"
    with pytest.raises(ValueError, match="whose are the differences"):
        ScenarioBrief("race", "Race", "Drive.", "Win.", Cite("Refuelled", 62),
                      differs=kart.differs)


def test_a_scoreboard_ranks_its_rows_and_marks_the_leader_only_in_a_contest() -> None:
    board = Scoreboard("Victory Points", (SeatScore(0, "1 VP", 1.0), SeatScore(1, "2 VP", 2.0),
                                          SeatScore(2, "0 VP", 0.0, out=True)), "first to 3")
    rows = board.to_json({0: "Red Racers", 1: "Blue Racers", 2: "Green"},
                         {0: "Red Racers", 1: "Blue Racers"})["rows"]
    assert [(r["name"], r["leading"], r["out"]) for r in rows] == [
        ("Blue Racers", True, False), ("Red Racers", False, False), ("Green", False, True)]
    assert rows[2]["team"] == ""
    level = Scoreboard("VP", (SeatScore(0, "0 VP"), SeatScore(1, "0 VP")))
    assert not any(r["leading"] for r in level.to_json({0: "A", 1: "B"})["rows"])
    won = level.to_json({0: "A", 1: "B"}, winner=1)["rows"]
    assert [r["leading"] for r in won] == [False, True]
