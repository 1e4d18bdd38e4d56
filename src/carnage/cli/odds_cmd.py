"""``carnage odds ...``: exact odds of attacks, skid dice, flip and explosion checks and smash
collisions (``carnage.games.refuelled.odds``).

Each command prints a Rich table (count, P(= k), P(>= k), the exact fraction) or, with
``--json``, probabilities as floats keyed by the count. Bad options: one line on stderr, exit 2.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from carnage.catalog import Weight
from carnage.games.refuelled.engine.damage import EXPLOSION_DICE
from carnage.games.refuelled.engine.wipeout import WIPEOUT_AT
from carnage.games.refuelled.odds import (
    CRIT_HITS,
    AttackOdds,
    Dist,
    OddsError,
    attack_odds,
    collision_sides,
    explode_odds,
    flip_odds,
    p_explode,
    p_flip,
    parse_weight,
    skid_odds,
    smash_odds,
)

app = typer.Typer(help="Exact odds of the game's dice.", no_args_is_help=True)

Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def _guard(run: Callable[[], Any]) -> Any:
    try:
        return run()
    except OddsError as e:
        typer.echo(f"odds: {e}", err=True)
        raise typer.Exit(2) from None


def _emit(data: dict[str, Any]) -> None:
    typer.echo(json.dumps(data))


def dist_table(title: str, d: Dist, what: str = "damage") -> Table:
    t = Table(title=title)
    t.add_column(what, justify="right")
    t.add_column("P(= k)", justify="right")
    t.add_column("P(≥ k)", justify="right")
    t.add_column("exact", justify="right")
    for k in range(d.top + 1):
        p = d.p(k)
        t.add_row(str(k), f"{float(p):.2%}", f"{float(d.at_least(k)):.2%}", str(p))
    return t


def _attack_tables(con: Console, title: str, odds: AttackOdds) -> None:
    con.print(dist_table(f"{title}: hits before the evade", odds.hits, "hits"))
    con.print(dist_table(f"{title}: damage after {odds.evade_dice} evade dice", odds.damage))
    con.print(f"expected damage {float(odds.expected_damage):.3f} "
              f"({odds.expected_damage}); expected hits {float(odds.hits.mean()):.3f}")


@app.command("attack")
def attack(
    dice: Annotated[int, typer.Option("--dice", help="Attack dice rolled at the target.")],
    evade_gear: Annotated[int, typer.Option(
        "--evade-gear", help="Target's current gear: one evade die per gear (0: no evade).")] = 0,
    cover: Annotated[bool, typer.Option("--cover", help="Target in cover: -1 to hit.")] = False,
    to_hit_bonus: Annotated[int, typer.Option(
        "--to-hit-bonus", help="Bonus to hit (Dead-Eye, Loader: 1); negative for penalties.")] = 0,
    crit_hits: Annotated[int, typer.Option(
        "--crit-hits", help="Hits per Critical Hit (Headshot: 3).")] = CRIT_HITS,
    evade_bonus: Annotated[int, typer.Option(
        "--evade-bonus", help="Added to every evade die (Evasive tokens, Burning Man).")] = 0,
    evasive: Annotated[bool, typer.Option(
        "--evasive", help="Evasive perk: a natural 1 on an evade die always fails.")] = False,
    as_json: Json = False,
) -> None:
    """Damage distribution of one attack against an evading target (pp.32-33, 42)."""
    odds: AttackOdds = _guard(lambda: attack_odds(
        dice, evade_gear=evade_gear, cover=cover, to_hit_bonus=to_hit_bonus,
        crit_hits=crit_hits, evade_bonus=evade_bonus, evasive=evasive))
    if as_json:
        _emit(odds.to_json())
        return
    _attack_tables(Console(), f"{dice} dice{' in cover' if cover else ''}", odds)


@app.command("skid")
def skid(
    dice: Annotated[int, typer.Option("--dice", help="Skid dice rolled.")],
    push_it: Annotated[bool, typer.Option(
        "--push-it", help="Push It whenever a die is not a Shift, rerolling those dice.")] = False,
    trivial: Annotated[bool, typer.Option(
        "--trivial", help="Trivial manoeuvre: one bonus Shift.")] = False,
    hazardous: Annotated[bool, typer.Option(
        "--hazardous", help="Hazardous manoeuvre: +1 Hazard before the dice.")] = False,
    hazards: Annotated[int, typer.Option(
        "--hazards", help="Hazard Tokens on the vehicle before the Movement Step.")] = 0,
    wipeout_at: Annotated[int, typer.Option(
        "--wipeout-at", help="Hazards that cause a Wipeout (6; Dutch Courage 8).")] = WIPEOUT_AT,
    gear: Annotated[int | None, typer.Option(
        "--gear", help="Current gear: adds P(a Wipeout that flips).")] = None,
    as_json: Json = False,
) -> None:
    """Skid dice results and the chance of a Wipeout (pp.21-24, 34, 38-40). Shifts are spent
    to end on the fewest Hazards."""
    odds = _guard(lambda: skid_odds(dice, push_it=push_it, trivial=trivial,
                                    hazardous=hazardous, hazards=hazards,
                                    wipeout_at=wipeout_at, gear=gear))
    if as_json:
        _emit(odds.to_json())
        return
    con = Console()
    t = Table(title=f"{dice} skid dice{' with Push It' if push_it else ''}")
    t.add_column("count", justify="right")
    for name in ("shifts", "hazards", "spins", "slides"):
        t.add_column(f"P({name} = k)", justify="right")
    top = max(odds.shifts.top, odds.hazards.top, odds.spins.top, odds.slides.top)
    for k in range(top + 1):
        t.add_row(str(k), *(f"{float(d.p(k)):.2%}"
                            for d in (odds.shifts, odds.hazards, odds.spins, odds.slides)))
    con.print(t)
    con.print(dist_table("Hazard Tokens after the skid dice", odds.hazards_after, "hazards"))
    con.print(f"P(wipeout, {wipeout_at}+ hazards) {float(odds.p_wipeout):.2%} "
              f"({odds.p_wipeout}); P(push it) {float(odds.pushed):.2%}")
    if odds.p_wipeout_flip is not None:
        con.print(f"P(wipeout and flip in gear {gear}) {float(odds.p_wipeout_flip):.2%} "
                  f"({odds.p_wipeout_flip})")


@app.command("flip")
def flip(
    gear: Annotated[int, typer.Option("--gear", help="Current gear at the Wipeout.")],
    modifier: Annotated[int, typer.Option(
        "--modifier", help="Added to the flip check die.")] = 0,
    as_json: Json = False,
) -> None:
    """Chance that a Wipeout's flip check flips the vehicle (p.34)."""
    data = _guard(lambda: flip_odds(gear, modifier))
    if as_json:
        _emit(data)
        return
    p = p_flip(gear, modifier)
    Console().print(f"gear {gear}: P(flip) {float(p):.2%} ({p}); a flip is "
                    f"{data['flip_hits']} hits that cannot be evaded")


@app.command("explode")
def explode(
    ammo: Annotated[int, typer.Option("--ammo", help="Ammo Tokens left on the wreck.")],
    bonus: Annotated[int, typer.Option(
        "--bonus", help="Added to the explosion check (Powder Keg).")] = 0,
    weight: Annotated[str | None, typer.Option(
        "--weight", help="Weight of what explodes (light, middle, heavy): adds the blast "
        "attack's damage distribution.")] = None,
    evade_gear: Annotated[int, typer.Option(
        "--evade-gear", help="Gear of the vehicle the blast attacks.")] = 0,
    as_json: Json = False,
) -> None:
    """Chance that a wreck explodes (p.43) and, with --weight, the blast attack (p.44)."""
    w: Weight | None = _guard(lambda: parse_weight(weight)) if weight is not None else None
    data = _guard(lambda: explode_odds(ammo, bonus=bonus, weight=w, evade_gear=evade_gear))
    if as_json:
        _emit(data)
        return
    con = Console()
    p = p_explode(ammo, bonus)
    con.print(f"{ammo} ammo: P(explode) {float(p):.2%} ({p})")
    if w is not None:
        from carnage.games.refuelled.odds import explosion_attack

        _attack_tables(con, f"{w.value} explosion ({EXPLOSION_DICE[w]} dice)",
                       explosion_attack(w, evade_gear=evade_gear))


@app.command("smash")
def smash(
    gear: Annotated[int, typer.Option("--gear", help="Gear of the moving vehicle (A).")],
    other_gear: Annotated[int, typer.Option(
        "--other-gear", help="Gear of the other vehicle (B); ignored for an obstacle.")] = 1,
    orientation: Annotated[str, typer.Option(
        "--orientation", help="head_on, t_bone or tailgate (p.53).")] = "head_on",
    weight: Annotated[str, typer.Option(
        "--weight", help="A's weight: light, middle or heavy.")] = "middle",
    other_weight: Annotated[str, typer.Option(
        "--other-weight", help="B's weight (or the obstacle's).")] = "middle",
    reaction: Annotated[str, typer.Option("--reaction", help="A reacts: smash or evade.")
                        ] = "smash",
    other_reaction: Annotated[str, typer.Option(
        "--other-reaction", help="B reacts: smash or evade.")] = "smash",
    obstacle: Annotated[bool, typer.Option(
        "--obstacle", help="B is an obstacle: head-on, gear 0, always smashes.")] = False,
    front: Annotated[str, typer.Option(
        "--front", help="Tailgate: which party is in front, hit on its rear edge (a or b).")
                     ] = "b",
    as_json: Json = False,
) -> None:
    """Damage both parties of a Collision take (pp.52-57)."""

    def run() -> Any:
        a, b = collision_sides(gear, other_gear, weight, other_weight, reaction,
                               other_reaction, obstacle=obstacle, front=front,
                               front_name="--front")
        return smash_odds(orientation, a, b)

    odds = _guard(run)
    if as_json:
        _emit(odds.to_json())
        return
    con = Console()
    if odds.forced_evade:
        con.print("tailgate: the vehicle in front is in the higher gear, so both evade (p.53)")
    for name, s in (("A (moving)", odds.a), ("B" if not obstacle else "B (obstacle)", odds.b)):
        con.print(dist_table(f"{name} {s.reaction}s with {s.smash_dice} dice: damage to {name}",
                             s.damage))
        con.print(f"{name}: expected damage {float(s.damage.mean()):.3f}, "
                  f"+{s.hazards} Hazards")


def _variants() -> None:
    from carnage.cli.odds_variants_cmd import devilsrun, kart

    app.add_typer(devilsrun, name="devilsrun")
    app.add_typer(kart, name="kart")


_variants()
