"""Odds of a Devil's Run game's pending decision, option by option (``analysis.odds_devilsrun``):

* ``shoot_target``: for each target, the shot's hits and damage (its RoF, the shooter's BS with
  the arc grid's modifier, the target's armour, a Flamer's range) and P(wrecked) from the
  target's chassis points;
* ``evade``: the evade test (a D10 at most the target's E);
* ``second_action``: the stash pick-up test (E plus the mission's bonus), when offered;
* ``action``: the Repair roll, when a wreck may try it.

Other decisions (and options that roll nothing) have no entry. Read-only: the game is not
changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.odds import d10_odds, repair_odds, shoot_odds
from carnage.kernel.odds import PendingOdds

if TYPE_CHECKING:
    from carnage.games.devilsrun.game import DevilsRunGame
    from carnage.kernel.decisions import Decision


def option_odds(g: DevilsRunGame, d: Decision) -> dict[str, dict[str, Any]]:
    """The odds of each option of ``d`` that rolls dice, by the option's value."""
    values = {str(o.value) for o in d.options}
    act = g.state.act
    if d.kind == "shoot_target" and act is not None and d.vehicle is not None:
        v = g.vehicle(d.vehicle)
        vt = B.vtype(v)
        mount = vt.mounts[act.weapon]
        out: dict[str, dict[str, Any]] = {}
        for tid, mod, dist in g.weapon_targets(v.id, act.weapon):
            if tid not in values:
                continue
            t = g.vehicle(tid)
            odds = shoot_odds(mount.weapon.rof, vt.bs(mount.slot) + mod, B.vtype(t).a,
                              flamer=mount.weapon.flamer, range_=dist, cp=max(1, t.cp))
            out[tid] = {"what": "shot", "range": dist, **odds.to_json()}
        return out
    if d.kind == "evade" and "evade" in values and d.vehicle is not None:
        e = B.vtype(g.vehicle(d.vehicle)).e
        return {"evade": {"what": "test", "test": "evade", **d10_odds(e)}}
    if d.kind == "second_action" and "pickup" in values and d.vehicle is not None:
        e = B.vtype(g.vehicle(d.vehicle)).e + g.mission.pickup_bonus
        return {"pickup": {"what": "test", "test": "stash pick-up", **d10_odds(e)}}
    if d.kind == "action" and "repair" in values:
        return {"repair": {"what": "repair", **repair_odds()}}
    return {}


BASIS = ("the road as it stands: the shooter's BS with the arc grid's modifier, the target's "
         "armour and chassis points, a Flamer's range, the driver's evade number")


def decision_odds(g: DevilsRunGame, d: Decision) -> list[dict[str, Any]]:
    """``option_odds`` as a list in the options' order: value, label in words, odds."""
    from carnage.games.devilsrun.text import option_label

    odds = option_odds(g, d)
    return [{"option": o.value, "label": option_label(g, d, o.value), "odds": odds[str(o.value)]}
            for o in d.options if str(o.value) in odds]


PENDING = PendingOdds(decision_odds, BASIS)
"""What the table shows of a pending decision's odds (``TableOffer.pending_odds``)."""
