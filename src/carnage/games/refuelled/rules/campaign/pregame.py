"""What a campaign hands a game, put into play before the first decision (pp.159-163).

``install_campaign`` runs in ``build_game`` after the teams are on the state and before the
game starts (so its rolls and secrets are at the game's first checkpoint, and a copy, a
snapshot or a replay has them):

1. ``pregame`` is checked: ``votes``, ``sabotage`` and ``resistance`` are each a list of one
   whole number (0 or more) per seat; other keys belong to the campaign mode and are ignored.
2. Old War Wound (p.163): a D6 per vehicle with it; on a 1 it sits the game out (it is taken
   off the state before any of its rules is installed).
3. Twitch (p.163): the opponents are told which vehicles have it.
4. Handicap bonus (p.159): each seat gains its ``votes``.
5. Sabotage Tokens and Resistance Points (p.160): secrets of their seat.
6. The in-play injuries and wear (injuries.py) and the token moments (sabotage.py) are
   installed through the effect journal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.votes import gain_votes
from carnage.games.refuelled.rules.campaign.injuries import IN_PLAY, WEAR, install_wear
from carnage.games.refuelled.rules.campaign.sabotage import (
    install_sabotage,
    keep_resistance,
    keep_tokens,
)

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.state import VehicleState
    from carnage.kernel.events import JsonValue
    from carnage.team.report import VehicleReport

SEAT_LISTS = ("votes", "sabotage", "resistance")
OLD_WAR_WOUND = "old-war-wound"
SITS_OUT_ON = 1
TWITCH = "twitch"


class PregameError(ValueError):
    """The setup's ``pregame`` is malformed; the message names the key and seat."""


def seat_list(pregame: Mapping[str, JsonValue], key: str, players: int) -> list[int]:
    """``pregame[key]`` as one whole number per seat (absent: zeros)."""
    raw = pregame.get(key)
    if raw is None:
        return [0] * players
    if not isinstance(raw, list) or len(raw) != players:
        raise PregameError(f"pregame.{key}: expected a list of {players} whole numbers, one "
                           f"per seat, not {raw!r}")
    out = []
    for i, x in enumerate(raw):
        if isinstance(x, bool) or not isinstance(x, int) or x < 0:
            raise PregameError(f"pregame.{key}: seat {i + 1} has {x!r}; expected a whole "
                               "number, 0 or more")
        out.append(x)
    return out


def _in_play_career(vr: VehicleReport) -> dict[str, Any] | None:
    c = vr.career
    if c is None:
        return None
    out: dict[str, Any] = {"injuries": [i for i in c.injuries if i in IN_PLAY]}
    out |= {w: getattr(c, w) for w in WEAR if getattr(c, w)}
    return out if out["injuries"] or len(out) > 1 else None


def install_campaign(game: Game, teams: Sequence[Sequence[tuple[VehicleReport, VehicleState]]],
                     pregame: Mapping[str, JsonValue]) -> None:
    """Put the careers of ``teams`` (each seat's reports with the vehicles built from them)
    and ``pregame`` into ``game`` before it starts. ``PregameError`` for a bad ``pregame``."""
    st = game.state
    votes, sabotage, rp = (seat_list(pregame, k, st.players) for k in SEAT_LISTS)
    careers: dict[str, Any] = {}
    for team in teams:
        for vr, v in team:
            c = vr.career
            if c is None:
                continue
            if OLD_WAR_WOUND in c.injuries:
                die = game.roll(1, "old war wound", source="old_war_wound", page=163,
                                vehicle=v.id)[0]
                out = die == SITS_OUT_ON
                game.emit("injury", source="old_war_wound", page=163, vehicle=v.id,
                          injury=OLD_WAR_WOUND, roll=die, sits_out=out)
                if out:
                    del st.vehicles[v.id]
                    game.emit("sits_out", source="old_war_wound", page=163, vehicle=v.id,
                              player=v.player, name=v.name)
                    continue
            if TWITCH in c.injuries:
                game.emit("injury", source="twitch", page=163, vehicle=v.id, injury=TWITCH,
                          announced=True)
            wear = _in_play_career(vr)
            if wear is not None:
                careers[v.id] = wear
                game.emit("campaign_wear", source="career", page=162, vehicle=v.id, **wear)
    for seat, n in enumerate(votes):
        gain_votes(game, seat, n, source="handicap", page=159)
    for seat, (n, points) in enumerate(zip(sabotage, rp, strict=True)):
        if n > 0:
            keep_tokens(game, seat, n)
        if points > 0:
            keep_resistance(game, seat, points)
    if careers:
        install_wear(game, careers)
    if any(sabotage):
        install_sabotage(game)
