"""The plain words of the tabletop view of a game on the Refuelled engine, which now live with
that game (``games/refuelled/words.py``); re-exported here for the table's tabletop view and
the terminal."""

from __future__ import annotations

from carnage.games.refuelled.words import (
    SEAT_COLOURS,
    Names,
    catalogue_name,
    catalogue_names,
    choice_text,
    die_list,
    mount_name,
    plain,
    player_name,
    rule_name,
    seat_name,
    state_names,
    template_name,
    words,
)

__all__ = ["SEAT_COLOURS", "Names", "catalogue_name", "catalogue_names", "choice_text",
           "die_list", "mount_name", "plain", "player_name", "rule_name", "seat_name",
           "state_names", "template_name", "words"]
