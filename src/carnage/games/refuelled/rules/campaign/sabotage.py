"""Sabotage Tokens (Refuelled p.160): the Pro-Earth Resistance's tricks in a Televised Event.

A seat's tokens and Resistance Points are secrets of that seat (kernel/secrets.py:
``sabotage:<seat>``, ``resistance:<seat>``). Spending a token reveals the RP (at the first
token) and, from then on, that player can neither gain nor spend Audience Votes in this game.
The four tokens, and when they are offered (ruling WR-7):

* Hidden Explosives ("at any moment"): at each of the holder's chances to spend votes, name a
  point (one of a finite set: the centre of any vehicle in play, or the table's centre); a 4D6
  attack with Blast hits every vehicle within Medium of it, nearest first.
* Do Not Adjust Your Set: at the same moments, any one Audience Vote effect, free (its usual
  targets; ruling WR-8).
* Fix Your Brakes: just before any Flip check (``flip_check_start``), each holder clockwise
  from the active player may make the vehicle flip without rolling.
* Resistance Cache: at the start of any activation, each holder clockwise from the active
  player may give the active vehicle Grenades with 5 Ammo Tokens (one cache per activation).

Every offer is a secret decision of the holder (``hidden``); what a token does is public.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.combat import roll_attack
from carnage.games.refuelled.engine.damage import HitGroup, take_hits
from carnage.games.refuelled.engine.game import ask
from carnage.games.refuelled.engine.state import WeaponMount
from carnage.geometry.shapes import distance
from carnage.kernel.effect_ids import EffectId
from carnage.kernel.rules import RuleTable
from carnage.kernel.secrets import keep_secret, reveal, secret

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import VehicleState
    from carnage.games.refuelled.engine.votes import VoteEffect
    from carnage.kernel.decisions import Decision

RULES = RuleTable()
SABOTAGE_KEY = "sabotage"
EFFECT = "sabotage"
PAGE = 160
NO = "no"
HIDDEN_EXPLOSIVES = "hidden_explosives"
DO_NOT_ADJUST = "do_not_adjust_your_set"
FIX_YOUR_BRAKES = "fix_your_brakes"
RESISTANCE_CACHE = "resistance_cache"
EXPLOSIVES_DICE = 4
EXPLOSIVES_RANGE = "medium"
CACHE_WEAPON = "grenades"
CACHE_AMMO = 5
CENTRE = "centre"
TOKEN_NAMES = {
    HIDDEN_EXPLOSIVES: "Hidden Explosives",
    DO_NOT_ADJUST: "Do Not Adjust Your Set",
    FIX_YOUR_BRAKES: "Fix Your Brakes",
    RESISTANCE_CACHE: "Resistance Cache",
}


def tokens_key(seat: int) -> str:
    return f"sabotage:{seat}"


def resistance_key(seat: int) -> str:
    return f"resistance:{seat}"


def tokens(g: Game, seat: int) -> int:
    """Sabotage Tokens ``seat`` still holds (a secret of that seat)."""
    s = secret(g, tokens_key(seat))
    return int(s.value) if s is not None and isinstance(s.value, int) else 0


def keep_tokens(g: Game, seat: int, n: int) -> None:
    keep_secret(g, tokens_key(seat), n, [seat], kind="sabotage_tokens", label="Sabotage Tokens",
                text=f"{n} Sabotage Token{'s' if n != 1 else ''}", owner=seat,
                source="sabotage", page=PAGE)


def keep_resistance(g: Game, seat: int, rp: int) -> None:
    keep_secret(g, resistance_key(seat), rp, [seat], kind="resistance_points",
                label="Resistance Points", text=f"{rp} RP", owner=seat, source="resistance",
                page=PAGE)


def locked(g: Game) -> list[int]:
    """Seats that have spent a token this game: no Audience Votes gained or spent (p.160)."""
    out: list[int] = g.memory(EFFECT, "locked", [])
    return out


def use_token(g: Game, seat: int, token: str, **data: Any) -> None:
    """``seat`` spends one token: one fewer, the RP revealed at the first, votes locked."""
    keep_tokens(g, seat, tokens(g, seat) - 1)
    g.emit("sabotage_token", source=token, page=PAGE, player=seat, token=token,
           name=TOKEN_NAMES[token], **data)
    done = locked(g)
    if seat in done:
        return
    done.append(seat)
    if secret(g, resistance_key(seat)) is not None:
        reveal(g, resistance_key(seat), source="sabotage", page=PAGE,
               why="a Sabotage Token was spent")
    g.emit("votes_locked", source="sabotage", page=PAGE, player=seat,
           votes=g.state.votes[seat])


# -- Hidden Explosives and Do Not Adjust Your Set -----------------------------------------
def explosive_points(g: Game) -> dict[str, tuple[float, float, str]]:
    """The points a holder may name: each vehicle in play's centre and the table's centre."""
    out = {f"vehicle:{v.id}": (v.pose.x, v.pose.y, f"under {v.name}") for v in g.state.in_play()}
    out[CENTRE] = (g.state.width / 2.0, g.state.height / 2.0, "the centre of the table")
    return out


def within(g: Game, x: float, y: float) -> list[VehicleState]:
    """Vehicles in play within Medium of (x, y), nearest first."""
    reach = g.templates.ranges[EXPLOSIVES_RANGE]
    near = sorted((d, t.id) for t in g.state.in_play()
                  if (d := min(distance([(x, y)], r.polygon()) for _, r in t.bodies()))
                  <= reach + 1e-9)
    return [g.state.vehicles[tid] for _, tid in near]


def hidden_explosives(g: Game, seat: int) -> Flow:
    points = explosive_points(g)
    pick = str((yield ask(seat, "explosives_point", "Hidden Explosives: name the point",
                          [(k, lbl) for k, (_, _, lbl) in points.items()],
                          source=HIDDEN_EXPLOSIVES, page=PAGE)))
    from carnage.games.refuelled.engine.table_facts import reached

    x, y, label = points[pick]
    # At a real table the holder names them (ruling CP-18); measured on the exact one.
    named = yield from reached(
        g, seat, "explosives_reach", f"Hidden Explosives {label}: which vehicles are within "
        f"Medium of that point, nearest first?", [(t.id, t.name) for t in g.state.in_play()],
        lambda: [t.id for t in within(g, x, y)], page=PAGE, vehicle=None)
    targets = [g.state.vehicles[i] for i in named]
    use_token(g, seat, HIDDEN_EXPLOSIVES, point=pick, x=round(x, 3), y=round(y, 3),
              targets=[t.id for t in targets])
    for t in targets:
        if not t.in_play or t.hull_points == 0:
            continue
        roll = roll_attack(g, EXPLOSIVES_DICE, why="hidden explosives", source=HIDDEN_EXPLOSIVES,
                           page=PAGE, vehicle=t.id)
        g.emit("attack_hits", source=HIDDEN_EXPLOSIVES, page=PAGE, target=t.id,
               hits=roll.hits, criticals=roll.criticals)
        yield from take_hits(g, t, [HitGroup(HIDDEN_EXPLOSIVES, roll.hits, rules=("blast",))],
                             source=HIDDEN_EXPLOSIVES, page=PAGE)
        if g.state.finished:
            return


def free_effects(g: Game, seat: int) -> list[tuple[VoteEffect, list[tuple[str, str]]]]:
    """The Audience Vote effects with a legal target now, whatever they cost (p.160)."""
    from carnage.games.refuelled.engine.votes import EFFECTS

    out = g.effects.run_event("vote_effects", list(EFFECTS),
                              {"game": g, "player": seat, "token": True})
    effects: list[VoteEffect] = list(out) if isinstance(out, list) else list(EFFECTS)
    return [(e, ts) for e in effects if (ts := e.targets(g, seat))]


def do_not_adjust(g: Game, seat: int) -> Flow:
    on_offer = {e.id: (e, ts) for e, ts in free_effects(g, seat)}
    pick = str((yield ask(seat, "free_vote_effect",
                          "Do Not Adjust Your Set: trigger which Audience Vote effect?",
                          [(k, e.name) for k, (e, _) in on_offer.items()],
                          source=DO_NOT_ADJUST, page=PAGE)))
    effect, targets = on_offer[pick]
    target = str((yield ask(seat, "vote_target", f"{effect.name}: choose", targets,
                            source=effect.id, page=effect.page)))
    use_token(g, seat, DO_NOT_ADJUST, effect=effect.id, target=target)
    yield from effect.run(g, seat, target)


def at_vote_opportunity(g: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, None]:
    seat = int(ctx["player"])
    while tokens(g, seat) > 0 and not g.state.finished:
        opts = [(NO, "use no Sabotage Token now"),
                (HIDDEN_EXPLOSIVES, "Hidden Explosives: a 4D6 Blast attack on every vehicle "
                 "within Medium of a point")]
        if free_effects(g, seat):
            opts.append((DO_NOT_ADJUST, "Do Not Adjust Your Set: one Audience Vote effect "
                         "for a token"))
        pick = yield ask(seat, "sabotage", f"Spend a Sabotage Token ({tokens(g, seat)} "
                         "left)? Your Resistance Points will be revealed.", opts,
                         source="sabotage", page=PAGE, hidden=True)
        if pick == HIDDEN_EXPLOSIVES:
            yield from hidden_explosives(g, seat)
        elif pick == DO_NOT_ADJUST:
            yield from do_not_adjust(g, seat)
        else:
            return


# -- Fix Your Brakes and Resistance Cache ---------------------------------------------------
def holders(g: Game, first: int) -> list[int]:
    return [p for p in g.state.clockwise_from(first) if tokens(g, p) > 0]


def fix_your_brakes(g: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, bool]:
    v: VehicleState = ctx["vehicle"]
    for seat in holders(g, g.active_player(ctx)):
        pick = yield ask(seat, FIX_YOUR_BRAKES, f"{v.name} is about to make a Flip check: "
                         "spend a Sabotage Token so that it flips without rolling?",
                         [(NO, "let it roll"), ("flip", "Fix Your Brakes: it flips")],
                         source=FIX_YOUR_BRAKES, page=PAGE, vehicle=v.id, hidden=True)
        if pick == "flip":
            use_token(g, seat, FIX_YOUR_BRAKES, vehicle=v.id)
            g.emit("flip_check", source=FIX_YOUR_BRAKES, page=PAGE, vehicle=v.id, roll=None,
                   score=None, gear=v.gear, flipped=True)
            return True
    return False


def resistance_cache(g: Game, ctx: dict[str, Any]) -> Generator[Decision, Any, None]:
    v: VehicleState = ctx["vehicle"]
    if not v.in_play or not v.in_team:
        return
    for seat in holders(g, v.player):
        pick = yield ask(seat, RESISTANCE_CACHE, f"{v.name} activates: spend a Sabotage Token "
                         f"to give it Grenades with {CACHE_AMMO} Ammo Tokens?",
                         [(NO, "no cache"), ("cache", f"Resistance Cache for {v.name}")],
                         source=RESISTANCE_CACHE, page=PAGE, vehicle=v.id, hidden=True)
        if pick == "cache":
            give_cache(g, v, seat)
            return


def give_cache(g: Game, v: VehicleState, seat: int) -> None:
    """Grenades with 5 ammo onto ``v`` (p.160), with the rules they carry installed."""
    n = sum(1 for m in v.weapons if m.key.startswith(f"{CACHE_WEAPON}#cache"))
    key = f"{CACHE_WEAPON}#cache{n}"
    v.weapons.append(WeaponMount(key, CACHE_WEAPON, None, CACHE_AMMO))
    use_token(g, seat, RESISTANCE_CACHE, vehicle=v.id, weapon=key, ammo=CACHE_AMMO)
    g.install_rule("weapon", CACHE_WEAPON, v, EffectId("weapon", CACHE_WEAPON, v.id))
    for r in g.catalog.weapons.get(CACHE_WEAPON).special_rules:
        g.install_rule("weapon_rule", r, v, EffectId("weapon_rule", r, v.id))


# -- the installer --------------------------------------------------------------------------
@RULES.journaled(SABOTAGE_KEY)
def install_sabotage(g: Game) -> None:
    """The token moments and the vote lock, once per game (the tokens are in the secrets)."""

    def no_votes_to_spend(value: Any, ctx: dict[str, Any]) -> Any:
        if ctx.get("token") or int(ctx["player"]) not in locked(ctx["game"]):
            return None
        return []

    def no_votes_gained(value: Any, ctx: dict[str, Any]) -> Any:
        game: Game = ctx["game"]
        data = ctx.get("data") or {}
        p, n = data.get("player"), data.get("gained")
        if not isinstance(p, int) or not isinstance(n, int) or n <= 0 or p not in locked(game):
            return None
        refused = min(n, game.state.votes[p])
        game.state.votes[p] -= refused
        game.emit("votes_refused", source="sabotage", page=PAGE, player=p, refused=refused,
                  votes=game.state.votes[p])
        return None

    fx = g.effects
    fx.add_flow("vote_opportunity", EFFECT, lambda ctx: at_vote_opportunity)
    fx.add_flow("flip_check_start", EFFECT, lambda ctx: fix_your_brakes)
    fx.add_flow("activation_start", EFFECT, lambda ctx: resistance_cache, priority=50)
    fx.on("vote_effects", EFFECT, no_votes_to_spend, priority=-100)
    fx.on("logged:audience_vote", EFFECT, no_votes_gained)
