"""Injuries (Refuelled p.163) and lasting wear (p.162) as effects on the engine's hooks.

One journaled installer, ``campaign_wear``, takes every vehicle's in-play career as JSON
(``{vehicle id: {"injuries": [...], "weakened_chassis": n, "audience_favourite": n}}``) and
attaches one small effect per injury or wear, each named ``injury:<id>:<vehicle>`` or
``wear:<id>:<vehicle>``. Injuries acting only at the team builder (Badass) or in the post-game
wreck roll (Held Together by Rust, Living Legend) attach nothing; Old War Wound acts before
the game (pregame.py).

Value hooks here never log (bots read them on the real game while choosing); restrictions
(Deathwish, Cowardly, Shakes, Bad Television) are announced once at the start
(``campaign_wear`` event), and every change they make happens through the engine's own logged
steps. Changes made by flows and notices are logged with their rule and page.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.collision import EVADE
from carnage.games.refuelled.engine.game import ask
from carnage.kernel.dice import SkidFace
from carnage.kernel.rules import RuleTable

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.skid import SkidResolution
    from carnage.games.refuelled.engine.state import VehicleState
    from carnage.kernel.decisions import Decision

RULES = RuleTable()
WEAR_KEY = "campaign_wear"
PAGE_INJURIES = 163
PAGE_WEAR = 162
AUDIENCE_FAVOURITE_VOTES = 3
"""Votes its controller discards each time an Audience Favourite is Wrecked, per count (p.162)."""
SHAKES_FEWER = 1
"""Shakes: wipes out at 5 Hazards instead of 6 (p.163), one fewer than it otherwise would."""
BAD_TELEVISION_EXTRA = 1
"""Bad Television: respawning it costs one more vote (p.163)."""
TWITCH_CALL = "call"
TWITCH_LET = "no"

Attach = Callable[["Game", str, int], None]


def effect_id(kind: str, rid: str, vid: str) -> str:
    return f"{kind}:{rid}:{vid}"


def _is(ctx: dict[str, Any], vid: str, key: str = "vehicle") -> bool:
    v = ctx.get(key)
    return v is not None and getattr(v, "id", None) == vid


# -- the injuries ---------------------------------------------------------------------------
def _deathwish(g: Game, vid: str, n: int) -> None:
    """Deathwish: it may never choose to change down a gear. Every choice to change down
    (a Shift, Burn Rubber, a Siren) reads the ``min_gear`` hook; changes nobody chooses
    (Glue) say ``forced`` and are left alone (ruling WR-2)."""
    eff = effect_id("injury", "deathwish", vid)

    def min_gear(value: Any, ctx: dict[str, Any]) -> Any:
        if not _is(ctx, vid) or ctx.get("forced"):
            return None
        v: VehicleState = ctx["vehicle"]
        return max(int(value), v.gear)

    def skid_setup(value: Any, ctx: dict[str, Any]) -> Any:
        if _is(ctx, vid):
            sk: SkidResolution = value
            sk.min_gear = max(sk.min_gear, sk.gear)
        return None

    g.effects.on("min_gear", eff, min_gear, priority=-50)
    g.effects.on("skid_setup", eff, skid_setup, priority=-50)


def _bad_television(g: Game, vid: str, n: int) -> None:
    """Bad Television: respawning it costs one more Audience Vote (p.163)."""
    eff = effect_id("injury", "bad-television", vid)

    def cost(value: Any, ctx: dict[str, Any]) -> Any:
        if ctx.get("effect") == "respawn" and ctx.get("target") == vid and isinstance(value, int):
            return value + BAD_TELEVISION_EXTRA
        return None

    g.effects.on("vote_cost", eff, cost, priority=-50)


def _crazed(g: Game, vid: str, n: int) -> None:
    """Crazed: Shift results may not cancel its Spin or Slide results (p.163). The dice are
    locked once rolled, after any rule that changes them (low priority)."""
    eff = effect_id("injury", "crazed", vid)

    def lock(game: Game, ctx: dict[str, Any]) -> Flow:
        sk: SkidResolution = ctx["sk"]
        wild = {i for i, f in enumerate(sk.faces) if f in (SkidFace.SPIN, SkidFace.SLIDE)}
        if wild - sk.locked:
            sk.locked |= wild
            game.emit("injury", source="crazed", page=PAGE_INJURIES, vehicle=vid,
                      injury="crazed", locked=sorted(wild))
        yield from ()

    g.effects.add_flow("skid_rolled", eff, lambda ctx: lock if _is(ctx, vid) else None, -100)


def _cowardly(g: Game, vid: str, n: int) -> None:
    """Cowardly: in a Collision it must always Evade and may never Smash (p.163)."""
    eff = effect_id("injury", "cowardly", vid)

    def reactions(value: Any, ctx: dict[str, Any]) -> Any:
        if not _is(ctx, vid) or not isinstance(value, list):
            return None
        return [r for r in value if r == EVADE] or [EVADE]

    g.effects.on("collision_reactions", eff, reactions, priority=-100)


def _shakes(g: Game, vid: str, n: int) -> None:
    """Shakes: it wipes out at 5 Hazard Tokens instead of 6 (p.163)."""
    eff = effect_id("injury", "shakes", vid)

    def threshold(value: Any, ctx: dict[str, Any]) -> Any:
        return int(value) - SHAKES_FEWER if _is(ctx, vid) and isinstance(value, int) else None

    g.effects.on("wipeout_threshold", eff, threshold, priority=-50)


def _twitch(g: Game, vid: str, n: int) -> None:
    """Twitch: once per game, just before it rolls Skid Dice, any opponent may call it, then
    roll and resolve those dice (spend the Shifts); that roll may not be pushed (p.163). The
    opponents are asked clockwise from its controller; the first to call takes the dice."""
    eff = effect_id("injury", "twitch", vid)

    def call(game: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, None]:
        used: list[str] = game.memory(eff, "used", [])
        v: VehicleState = ctx["vehicle"]
        if used or int(ctx.get("n", 0)) <= 0:
            return
        for seat in game.state.clockwise_from(v.player)[1:]:
            if _ally(game, seat, v.player):
                continue
            pick = yield ask(
                seat, "twitch", f"{v.name} has Twitch: call it, and roll and resolve its "
                f"{ctx['n']} skid dice yourself (no Push It)?",
                [(TWITCH_LET, "let it drive"), (TWITCH_CALL, "call Twitch")],
                source="twitch", page=PAGE_INJURIES, vehicle=v.id)
            if pick == TWITCH_CALL:
                used.append(v.id)
                sk: SkidResolution = ctx["sk"]
                sk.push_limit = 0
                ctx["resolver"] = seat
                game.emit("injury", source="twitch", page=PAGE_INJURIES, vehicle=v.id,
                          injury="twitch", called_by=seat)
                return

    g.effects.add_flow("skid_roll_start", eff, lambda ctx: call if _is(ctx, vid) else None)


def _ally(g: Game, seat: int, player: int) -> bool:
    from carnage.games.refuelled.engine.votes import allies

    return seat != player and seat in allies(g, player)


# -- lasting wear ---------------------------------------------------------------------------
def _weakened_chassis(g: Game, vid: str, n: int) -> None:
    """Weakened chassis: +1 Hazard (per time rolled) whenever it is in a Collision (p.162;
    stacking, ruling WR-4)."""
    eff = effect_id("wear", "weakened_chassis", vid)

    def hazards(value: Any, ctx: dict[str, Any]) -> Any:
        if not _is(ctx, vid) or not isinstance(value, int):
            return None
        ctx["game"].emit("wear", source="weakened_chassis", page=PAGE_WEAR, vehicle=vid,
                         wear="weakened_chassis", extra_hazards=n)
        return value + n

    g.effects.on("collision_hazards", eff, hazards, priority=-100)


def _audience_favourite(g: Game, vid: str, n: int) -> None:
    """Audience Favourite: whenever it is Wrecked, its controller discards 3 Audience Votes
    (per time rolled), never below 0 (p.162)."""
    eff = effect_id("wear", "audience_favourite", vid)

    def wrecked(value: Any, ctx: dict[str, Any]) -> Any:
        if not _is(ctx, vid):
            return None
        game: Game = ctx["game"]
        v: VehicleState = ctx["vehicle"]
        lost = min(game.state.votes[v.player], AUDIENCE_FAVOURITE_VOTES * n)
        game.state.votes[v.player] -= lost
        game.emit("votes_discarded", source="audience_favourite", page=PAGE_WEAR,
                  vehicle=vid, player=v.player, lost=lost, votes=game.state.votes[v.player])
        return None

    g.effects.on("wrecked", eff, wrecked)


IN_PLAY: dict[str, Attach] = {
    "deathwish": _deathwish,
    "bad-television": _bad_television,
    "crazed": _crazed,
    "cowardly": _cowardly,
    "shakes": _shakes,
    "twitch": _twitch,
}
"""Injuries acting in play, by id (Old War Wound acts before the game: pregame.py)."""
WEAR: dict[str, Attach] = {
    "weakened_chassis": _weakened_chassis,
    "audience_favourite": _audience_favourite,
}


@RULES.journaled(WEAR_KEY)
def install_wear(g: Game, careers: dict[str, Any]) -> None:
    """Attach the in-play injuries and wear of every vehicle in ``careers`` (JSON, by id)."""
    for vid, c in careers.items():
        if vid not in g.state.vehicles:
            continue
        for iid in c.get("injuries", []):
            fn = IN_PLAY.get(str(iid))
            if fn is not None:
                fn(g, vid, 1)
        for wid, fn in WEAR.items():
            n = int(c.get(wid, 0))
            if n > 0:
                fn(g, vid, n)


__all__ = ["IN_PLAY", "RULES", "WEAR", "WEAR_KEY", "install_wear"]
