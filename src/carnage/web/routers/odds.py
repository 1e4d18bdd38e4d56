"""Exact odds over HTTP (``/api/odds/...``, the same answers as ``carnage odds ... --json``),
the odds of a game's pending decision, and the odds page (``/odds``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse

from carnage.bounds import MAX_GEAR
from carnage.games.devilsrun.odds import (
    MAX_ROF,
    d10_odds,
    offensive_odds,
    repair_odds,
    shoot_odds,
)
from carnage.games.kart.odds import kart_attack_odds, kart_smash_odds, wipeout_facings
from carnage.games.refuelled.engine.wipeout import WIPEOUT_AT
from carnage.games.refuelled.odds import (
    CRIT_HITS,
    MAX_DICE,
    MAX_SKID_DICE,
    attack_odds,
    collision_sides,
    explode_odds,
    flip_odds,
    parse_weight,
    skid_odds,
    smash_odds,
)
from carnage.games.refuelled.pending import BASIS, pending_odds
from carnage.kernel.odds import OddsError
from carnage.web.deps import GamesDep
from carnage.web.routers.pages import MISSING, page
from carnage.web.schemas import Message
from carnage.web.sessions import ApiError

router = APIRouter(tags=["odds"])
ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": Message}, 404: {"model": Message}, 422: {"model": Message}}

# Every bound below is the one the odds functions check (``check_count`` in
# carnage/analysis/odds*.py), so the published schema and the answers agree: a query the
# schema allows is answered, one it does not is refused before any odds are worked out.
Dice = Annotated[int, Query(ge=0, le=MAX_DICE, description="Dice rolled.")]
Gear = Annotated[int, Query(ge=0, le=MAX_GEAR, description="Current gear (0: standing).")]
Moving = Annotated[int, Query(ge=1, le=MAX_GEAR, description="Current gear of a vehicle.")]
Bonus = Annotated[int, Query(ge=-6, le=6, description="A modifier to the roll.")]
Crits = Annotated[int, Query(ge=1, le=6, description="Hits a natural 6 scores (p.32).")]
Hazards = Annotated[int, Query(ge=0, le=99, description="Hazard Tokens already held.")]
Threshold = Annotated[int, Query(ge=1, le=99, description="Hazard Tokens that wipe it out.")]
WeightName = Literal["light", "middle", "heavy", "lightweight", "middleweight", "heavyweight",
                     "1", "2", "3"]
Orientation = Literal["head_on", "t_bone", "tailgate"]
KartOrientation = Literal["head_on", "t_bone", "tailgate", "sideswipe"]
"""The Kart variant's collisions may also be a Sideswipe (counted as a T-bone, ruling MK-R4)."""
Reaction = Literal["smash", "evade"]
Party = Literal["a", "b"]


def _answer(run: Callable[[], Any]) -> Any:
    try:
        return run()
    except OddsError as e:
        raise ApiError(422, str(e)) from None


@router.get("/odds", response_class=FileResponse, responses=MISSING,
            summary="The odds page: distributions drawn as bar charts")
def odds_page() -> FileResponse:
    return page("odds.html")


@router.get("/api/odds/attack", responses=ERRORS,
            summary="Damage distribution of an attack against an evading target")
def attack(dice: Dice, evade_gear: Gear = 0, cover: bool = False, to_hit_bonus: Bonus = 0,
           crit_hits: Crits = CRIT_HITS, evade_bonus: Bonus = 0, evasive: bool = False
           ) -> dict[str, Any]:
    out: dict[str, Any] = _answer(lambda: attack_odds(
        dice, evade_gear=evade_gear, cover=cover, to_hit_bonus=to_hit_bonus,
        crit_hits=crit_hits, evade_bonus=evade_bonus, evasive=evasive).to_json())
    return out


@router.get("/api/odds/skid", responses=ERRORS,
            summary="Skid dice results and the chance of a Wipeout")
def skid(dice: Annotated[int, Query(ge=0, le=MAX_SKID_DICE)], push_it: bool = False,
         manoeuvre: Annotated[Literal["permitted", "trivial", "hazardous"], Query(
             description="The template in this gear: permitted, trivial (+1 Shift) or "
             "hazardous (+1 Hazard).")] = "permitted",
         hazards: Annotated[int, Query(ge=0, le=30)] = 0,
         wipeout_at: Annotated[int, Query(ge=1, le=30)] = WIPEOUT_AT,
         gear: Annotated[int | None, Query(ge=1, le=MAX_GEAR)] = None) -> dict[str, Any]:
    out: dict[str, Any] = _answer(lambda: skid_odds(
        dice, push_it=push_it, trivial=manoeuvre == "trivial",
        hazardous=manoeuvre == "hazardous", hazards=hazards, wipeout_at=wipeout_at,
        gear=gear).to_json())
    return out


@router.get("/api/odds/flip", responses=ERRORS, summary="Chance a flip check flips")
def flip(gear: Moving, modifier: Bonus = 0) -> dict[str, Any]:
    out: dict[str, Any] = _answer(lambda: flip_odds(gear, modifier))
    return out


@router.get("/api/odds/explode", responses=ERRORS,
            summary="Chance a wreck explodes, and its blast attack")
def explode(ammo: Annotated[int, Query(ge=0, le=99)], bonus: Bonus = 0,
            weight: WeightName | None = None, evade_gear: Gear = 0) -> dict[str, Any]:
    out: dict[str, Any] = _answer(lambda: explode_odds(
        ammo, bonus=bonus, weight=None if weight is None else parse_weight(weight),
        evade_gear=evade_gear))
    return out


@router.get("/api/odds/smash", responses=ERRORS,
            summary="Damage both parties of a Collision take")
def smash(gear: Moving, other_gear: Moving = 1, orientation: Orientation = "head_on",
          weight: WeightName = "middle", other_weight: WeightName = "middle",
          reaction: Reaction = "smash", other_reaction: Reaction = "smash",
          obstacle: Annotated[bool, Query(description="B is an obstacle (gear 0; other_gear "
                                          "is not used).")] = False,
          front: Party = "b") -> dict[str, Any]:
    def run() -> dict[str, Any]:
        a, b = collision_sides(gear, other_gear, weight, other_weight, reaction,
                               other_reaction, obstacle=obstacle, front=front)
        return smash_odds(orientation, a, b).to_json()

    out: dict[str, Any] = _answer(run)
    return out


@router.get("/api/odds/devilsrun/test", responses=ERRORS,
            summary="Devil's Run: chance a D10 test succeeds (evade, pick-up, BS, disengage)")
def devilsrun_test(target: Annotated[int, Query(ge=-99, le=99)]) -> dict[str, Any]:
    out: dict[str, Any] = _answer(lambda: d10_odds(target))
    return out


@router.get("/api/odds/devilsrun/shoot", responses=ERRORS,
            summary="Devil's Run: hits, criticals and damage of one shot")
def devilsrun_shoot(rof: Annotated[int, Query(ge=0, le=MAX_ROF)],
                    bs: Annotated[int, Query(ge=-49, le=49, description=(
                        "The shooter's BS (BS1 driver, BS2 gunner)."))],
                    modifier: Annotated[int, Query(ge=-50, le=50)] = 0,
                    armour: Annotated[int, Query(ge=0, le=6)] = 0, flamer: bool = False,
                    range: Annotated[int, Query(ge=1, le=99)] = 1,
                    cp: Annotated[int | None, Query(ge=1, le=99)] = None) -> dict[str, Any]:
    out: dict[str, Any] = _answer(lambda: shoot_odds(
        rof, bs + modifier, armour, flamer=flamer, range_=range, cp=cp).to_json())
    return out


@router.get("/api/odds/devilsrun/offensive", responses=ERRORS,
            summary="Devil's Run: damage a ram, t-bone or side-swipe deals each side")
def devilsrun_offensive(attacker: Annotated[int, Query(ge=0, le=99)],
                        defender: Annotated[int, Query(ge=0, le=99)],
                        action: Literal["ram", "t_bone", "side_swipe",
                                        "ram_on_the_brakes"] = "ram") -> dict[str, Any]:
    out: dict[str, Any] = _answer(lambda: offensive_odds(action, attacker, defender).to_json())
    return out


@router.get("/api/odds/devilsrun/repair", summary="Devil's Run: the Repair roll")
def devilsrun_repair() -> dict[str, Any]:
    return repair_odds()


@router.get("/api/odds/kart/attack", responses=ERRORS,
            summary="Kart variant: Hazards an Item Attack gives and the chance of a Wipeout")
def kart_attack(dice: Dice, evade_gear: Gear = 0, cover: bool = False, to_hit_bonus: Bonus = 0,
                crit_hits: Crits = CRIT_HITS, hazards: Hazards = 0,
                wipeout_at: Threshold = WIPEOUT_AT) -> dict[str, Any]:
    out: dict[str, Any] = _answer(lambda: kart_attack_odds(
        dice, evade_gear=evade_gear, cover=cover, to_hit_bonus=to_hit_bonus,
        crit_hits=crit_hits, hazards=hazards, wipeout_at=wipeout_at).to_json())
    return out


@router.get("/api/odds/kart/smash", responses=ERRORS,
            summary="Kart variant: Hazards both karts of a Collision gain")
def kart_smash(gear: Moving, other_gear: Moving = 1, orientation: KartOrientation = "head_on",
               weight: WeightName = "middle", other_weight: WeightName = "middle",
               reaction: Reaction = "smash", other_reaction: Reaction = "smash",
               obstacle: bool = False, front: Party = "b", hazards: Hazards = 0,
               other_hazards: Hazards = 0, wipeout_at: Threshold = WIPEOUT_AT
               ) -> dict[str, Any]:
    def run() -> dict[str, Any]:
        a, b = collision_sides(gear, other_gear, weight, other_weight, reaction,
                               other_reaction, obstacle=obstacle, front=front)
        return kart_smash_odds(orientation, a, b, hazards_a=hazards, hazards_b=other_hazards,
                               wipeout_at=wipeout_at).to_json()

    out: dict[str, Any] = _answer(run)
    return out


@router.get("/api/odds/kart/wipeout", summary="Kart variant: a Wipeout's random facing")
def kart_wipeout() -> dict[str, Any]:
    return wipeout_facings()


@router.get("/api/odds/games/{gid}/pending", responses=ERRORS,
            summary="Odds of each option of the pending decision of your seat")
def pending(gid: str, games: GamesDep,
            token: Annotated[str | None, Query(description="Your seat token.")] = None
            ) -> dict[str, Any]:
    """For an ``attack`` decision: the hit and damage distribution of each weapon at each
    target; for ``skid_dice``: the skid odds of each dice count; for ``collision_reaction``:
    the damage both parties take for each reaction. Other decisions: no options."""
    from carnage.games.refuelled.table_view import decision_vehicle

    s = games.get(gid)
    seats = s.seats_for(token)
    if not seats:
        raise ApiError(403, "a seat token is needed to see the odds of a decision")
    with s.lock:
        g = s.game
        d = g.pending()
        if d is None:
            return {"game": gid, "version": s.version, "kind": None, "vehicle": None,
                    "options": [], "basis": BASIS}
        v = decision_vehicle(g, d)
        opts = pending_odds(g, d, v) if d.player in seats else []
        return {"game": gid, "version": s.version, "kind": d.kind, "seat": d.player,
                "vehicle": None if v is None else v.id, "options": [o.to_json() for o in opts],
                "basis": BASIS}
