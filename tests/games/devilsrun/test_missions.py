"""Both missions: the stash, Disengage, chassis tokens, victory (DR-102..114)."""

from __future__ import annotations

from tests.games.devilsrun.helpers import arranged, events, play

from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.state import RUNNING, WRECK


def _at_stash_roll(turn: int, dice: list[int]) -> DevilsRunGame:
    g = arranged("devils-run", {"law-bike": (0, 0), "ha-bike": (7, 0)}, dice, turn=turn)
    g.state.phase = "stash_roll"
    g.state.rolloff_winner = 1
    g._run()
    return g


def test_stash_arrives_from_turn_two_on_eight_plus() -> None:
    # DR-106: turn 2 needs 8+
    g = _at_stash_roll(2, [7])
    assert g.pending().kind != "stash_square" and g.state.stash.status == "waiting"
    g = _at_stash_roll(2, [8])
    d = g.pending()
    assert d.kind == "stash_square" and d.player == 1  # the roll-off winner places it (DRR-24)
    # the centre four squares of the front tile (rows 16-23)
    assert sorted(o.value for o in d.options) == ["3,19", "3,20", "4,19", "4,20"]


def test_stash_arrives_automatically_on_turn_six_without_a_roll() -> None:
    g = _at_stash_roll(6, [])
    assert g.pending().kind == "stash_square"


def test_turn_three_needs_six_plus() -> None:
    assert _at_stash_roll(3, [5]).pending().kind != "stash_square"
    assert _at_stash_roll(3, [6]).pending().kind == "stash_square"


def _with_stash(
    positions: dict[str, tuple[int, int]], dice: list[int], to_act: int = 1
) -> DevilsRunGame:
    g = arranged("devils-run", positions, dice, to_act=to_act, turn=3)
    s = g.state.stash
    s.status, s.pos = "placed", (3, 19)
    return g


def test_pick_up_is_an_evade_test_with_two_added() -> None:
    # DR-107: bike E6 + 2: an 8 picks it up
    g = _with_stash({"ha-bike": (3, 15), "law-bike": (0, 0)}, [1, 1, 8])
    play(g, "ha-bike", "peddle", "F", "F", "F", "stop")
    assert "pickup" in [o.value for o in g.pending().options]
    play(g, "pickup")
    st = g.state
    assert st.stash.status == "carried" and st.stash.carrier == "ha-bike"
    assert g.vehicle("ha-bike").carrying


def test_a_missed_pick_up_is_that_vehicles_last_chance() -> None:
    g = _with_stash({"ha-bike": (3, 15), "law-bike": (0, 0)}, [1, 1, 9, 1, 1, 5, 2])
    play(g, "ha-bike", "peddle", "F", "F", "F", "stop", "pickup")
    assert g.vehicle("ha-bike").missed_stash
    play(g, "law-bike", "brake")
    assert g.state.turn == 4 and not g._can_pickup(g.vehicle("ha-bike"))


def test_carrying_the_stash_onto_a_fresh_tile_wins() -> None:
    # DR-109: the carrier crosses the front edge; the recycled tile is fresh
    g = _with_stash({"ha-bike": (3, 22), "law-bike": (0, 12)}, [1, 1])
    st = g.state
    st.stash.status, st.stash.pos, st.stash.carrier = "carried", None, "ha-bike"
    st.stash.pickup_tile = 2
    g.vehicle("ha-bike").carrying = True
    play(g, "ha-bike", "peddle", "F", "F")
    o = g.outcome()
    assert o is not None and o.winner == 1 and o.reason == "stash carried onto a fresh tile"
    assert g.pending() is None


def test_a_wrecked_carrier_drops_the_stash_where_it_stands() -> None:
    # DRR-26
    g = _with_stash({"law-buggy": (3, 4), "ha-trike": (3, 7), "ha-bike": (0, 20)}, [1, 3, 1],
                    to_act=0)
    st = g.state
    st.stash.status, st.stash.pos, st.stash.carrier = "carried", None, "ha-trike"
    g.vehicle("ha-trike").carrying = True
    play(g, "law-buggy", "ram", "ha-trike:0", "stay")
    assert g.vehicle("ha-trike").status == WRECK
    assert st.stash.status == "placed" and st.stash.pos == (3, 8)


def test_a_stash_everyone_passed_leaves_and_returns_on_the_next_new_tile() -> None:
    # DR-108, DRR-28: once every vehicle is past it, it goes; the next recycled tile brings it
    g = _with_stash({"ha-bike": (3, 20), "law-bike": (5, 21)}, [1, 1, 1, 1])
    play(g, "ha-bike", "peddle", "F", "F", "F", "stop", "pass")
    st = g.state
    assert st.stash.status == "gone"
    play(g, "law-bike", "peddle", "F", "F", "F")
    assert st.stash.status == "reenter"
    play(g, "stop", "pass")
    d = g.pending()
    assert d.kind == "stash_square" and d.player == 0  # placed by whoever placed the tile
    assert all(int(str(o.value).split(",")[1]) in (27, 28) for o in d.options)


def test_devils_run_is_won_at_once_when_the_opponent_has_no_active_vehicles() -> None:
    g = arranged("devils-run", {"law-buggy": (3, 4), "ha-trike": (3, 7)}, [1, 3, 1])
    play(g, "law-buggy", "ram", "ha-trike:0", "stay")
    o = g.outcome()
    assert o is not None and o.winner == 0 and o.reason == "opponent has no active vehicles"


def test_devils_run_ends_in_a_draw_after_seven_turns() -> None:
    # DR-103, DRR-30
    g = arranged("devils-run", {"law-bike": (0, 0), "ha-bike": (7, 0)}, [1, 1, 1, 1], turn=7)
    play(g, "law-bike", "brake", "ha-bike", "brake")
    o = g.outcome()
    assert o is not None and o.draw and o.rounds == 7


def test_hell_on_wheels_collects_chassis_tokens_from_enemy_damage_up_to_what_was_left() -> None:
    # DR-113: the trike had 6 and takes 6: the Law banks 6
    g = arranged("hell-on-wheels", {"law-buggy": (3, 4), "ha-trike": (3, 7), "ha-bike": (0, 20)},
                 [1, 3, 1])
    g.vehicle("ha-trike").cp = 4
    play(g, "law-buggy", "ram", "ha-trike:0", "stay")
    assert g.state.collected == [4, 0]
    assert events(g, "chassis_collected")[-1]["tokens"] == 4


def test_damage_with_no_enemy_cause_is_not_collected() -> None:
    g = arranged("hell-on-wheels", {"law-buggy": (2, 2), "ha-trike": (2, 4), "ha-bike": (6, 20)},
                 [3, 2, 3])
    g.vehicle("ha-trike").status = WRECK
    play(g, "law-buggy", "peddle", "F", "F")
    assert g.vehicle("law-buggy").cp == 6 and g.state.collected == [0, 0]


def _turn_end(turn: int, dice: list[int], collected: list[int]) -> DevilsRunGame:
    g = arranged("hell-on-wheels", {"law-bike": (0, 0), "ha-bike": (7, 0)}, dice, turn=turn)
    g.state.collected = list(collected)
    g.state.phase = "turn_end"
    g._run()
    return g


def test_disengage_from_turn_six_ends_on_one_or_two_and_most_tokens_win() -> None:
    # DR-110 (DRR-31: the table's turn 6, not "turn 5"), DR-114
    g = _turn_end(6, [2], [3, 5])
    o = g.outcome()
    assert o is not None and o.winner == 1 and o.scores == (3, 5)
    g = _turn_end(6, [3, 4, 8], [3, 5])
    assert g.outcome() is None and g.state.turn == 7


def test_turn_five_has_no_disengage_roll_and_turn_ten_ends_automatically() -> None:
    g = _turn_end(5, [4, 8], [0, 0])
    assert g.outcome() is None and not events(g, "roll")[0]["why"].startswith("disengage")
    g = _turn_end(10, [], [2, 2])
    o = g.outcome()
    assert o is not None and o.draw and o.reason == "disengage: equal chassis tokens"


def test_hell_on_wheels_is_lost_at_the_end_of_a_turn_with_no_active_vehicles() -> None:
    g = arranged("hell-on-wheels", {"law-bike": (0, 0), "ha-bike": (7, 0)}, [])
    g.vehicle("ha-bike").status = WRECK
    g.vehicle("ha-bike").no_repair = True
    g.state.phase = "turn_end"
    g._run()
    o = g.outcome()
    assert o is not None and o.winner == 0 and g.vehicle("law-bike").status == RUNNING
