"""Team Rating, the Team Handicap loop and corrosion (GL-024, GL-036..GL-038, GL-050,
GL-051; rulings GL-R13..GL-R19), as pure functions."""

from __future__ import annotations

import pytest

from carnage.games.legacy.digits import LegacyError
from carnage.games.legacy.generator import generate_vehicle, legacy_team
from carnage.games.legacy.ratings import (
    apply_handicaps,
    fill_hull_box,
    handicap_votes,
    hull_boxes,
    mark_corrosion,
    team_handicaps,
    team_rating,
    total_corrosion,
)
from carnage.games.legacy.team import LegacySpec
from carnage.games.refuelled.setup import GameSetup
from carnage.team import TeamSpec, VehicleSpec, check_team


def rated(name: str, rating: int, vtype: str = "car") -> VehicleSpec:
    return VehicleSpec(name=name, type=vtype, legacy=LegacySpec(rating=rating))


def team(name: str, *ratings: int) -> TeamSpec:
    return legacy_team(name, [rated(f"{name} {i}", r) for i, r in enumerate(ratings)])


def test_team_rating_is_the_sum_of_vehicle_ratings() -> None:
    a = generate_vehicle("car", "Rust Bucket")
    b = generate_vehicle("truck", "Big Bertha")
    assert a.legacy is not None and b.legacy is not None
    assert team_rating(legacy_team("T", [a, b])) == a.legacy.rating + b.legacy.rating
    with pytest.raises(LegacyError, match="no Vehicle Rating"):
        team_rating(TeamSpec(name="P", cans=50, vehicles=(VehicleSpec(name="x", type="car"),)))


@pytest.mark.parametrize(("gap", "votes"), [(0, 0), (5, 0), (6, 1), (10, 1), (11, 2), (15, 2),
                                            (16, 3), (20, 3), (21, None), (40, None)])
def test_the_handicap_table(gap: int, votes: int | None) -> None:
    assert handicap_votes(gap) == votes


def test_handicap_votes_against_the_highest_rating() -> None:
    teams = [team("A", 20, 20), team("B", 16, 16), team("C", 17, 12)]
    after, hs = team_handicaps(teams)
    assert [(h.top, h.rating_before, h.votes, h.mutations) for h in hs] == [
        (40, 40, 0, ()), (40, 32, 1, ()), (40, 29, 2, ())]
    assert after == tuple(teams)


def test_a_gap_of_21_or_more_mutates_each_vehicle_and_checks_again() -> None:
    # GL-050, GL-051: the loop runs until the gap is 20 or less, then gives that row's votes.
    top = team("Top", 60, 60)
    low = legacy_team("Low", [generate_vehicle("buggy", "Zip"),
                              generate_vehicle("car", "Rust Bucket")])
    (_, low_after), (_, h) = team_handicaps([top, low])
    gap_before = 120 - team_rating(low)
    assert gap_before > 20 and h.rating_before == team_rating(low)
    assert h.mutations and len(h.mutations) % 2 == 0  # both vehicles, each pass
    passes = len(h.mutations) // 2
    assert all(v.legacy is not None and len(v.legacy.mutations) == passes
               for v in low_after.vehicles)
    assert h.rating_after == team_rating(low_after) == h.rating_before + sum(
        g.rating for _, g in h.mutations)
    assert 120 - h.rating_after <= 20 and h.votes == handicap_votes(max(0, 120 - h.rating_after))
    # one pass fewer would have left the gap over 20
    one_less = h.rating_after - sum(g.rating for _, g in h.mutations[-2:])
    assert 120 - one_less > 20
    assert check_team(low_after).valid


def test_handicaps_go_into_the_game_setups_pregame_votes() -> None:
    setup = GameSetup(teams=(team("A", 30, 30), team("B", 25, 24)),
                      pregame=(("votes", [1, 0]),))
    out, hs = apply_handicaps(setup)
    assert out.pregame_dict()["votes"] == [1, 2]  # 1 already there; gap 11 gives 2
    assert [h.votes for h in hs] == [0, 2]
    assert out.teams == setup.teams


def test_corrosion_fills_hull_boxes_and_no_more() -> None:
    v = generate_vehicle("buggy", "Zip")
    assert v.legacy is not None
    boxes = hull_boxes(v)
    assert boxes == 6 + v.legacy.hull
    v, n = mark_corrosion(v)
    assert n == 1 and v.legacy is not None and v.legacy.corroded == 1
    v, n = mark_corrosion(v, boxes + 3)  # ruling GL-R16: every box corroded, no more marks
    assert n == boxes - 1 and v.legacy is not None and v.legacy.corroded == boxes
    v, n = mark_corrosion(v)
    assert n == 0 and v.legacy is not None and v.legacy.corroded == boxes
    t = legacy_team("T", [v, mark_corrosion(generate_vehicle("car", "Rust Bucket"), 2)[0]])
    assert total_corrosion(t) == boxes + 2
    with pytest.raises(LegacyError, match="cannot corrode"):
        mark_corrosion(VehicleSpec(name="x", type="car"))


def test_a_filled_hull_box_is_hull_lost_for_good() -> None:
    v = generate_vehicle("car", "Rust Bucket")
    other = generate_vehicle("buggy", "Zip")
    before = check_team(legacy_team("T", [v, other])).vehicles[0].hull
    cut = fill_hull_box(v)
    after = check_team(legacy_team("T", [cut, other])).vehicles[0]
    assert after.hull == before - 1
    assert cut.legacy is not None and v.legacy is not None
    assert cut.legacy.rating == v.legacy.rating  # ruling GL-R21
    assert hull_boxes(cut) == hull_boxes(v)  # the box is still on the dashboard (GL-R16)


def test_gaining_the_nano_cloak_for_good_rates_five_more_once() -> None:
    from carnage.games.legacy.ratings import add_note, gain_nano_cloak

    v = generate_vehicle("car", "Rust Bucket")
    c = gain_nano_cloak(v)
    assert c.legacy is not None and v.legacy is not None
    assert c.legacy.rating == v.legacy.rating + 5
    assert [u.id for u in c.upgrades] == ["nano_cloaking_device"]
    assert gain_nano_cloak(c) == c
    assert check_team(legacy_team("T", [c, generate_vehicle("buggy", "Zip")])).valid
    n = add_note(add_note(c, "dinosaur-blood"), "dinosaur-blood")
    assert n.legacy is not None and n.legacy.notes == ("dinosaur-blood",)
    with pytest.raises(LegacyError, match="needs some text"):
        add_note(c, " ")
