"""``carnage odds devilsrun ...`` and ``carnage odds kart ...``: exact odds of Devil's Run's
D10 tests, shots and offensive moves, and of the Kart variant's Item Attacks, Collisions and
Wipeouts (``carnage.games.devilsrun.odds``, ``carnage.games.kart.odds``).

As the other odds commands: a Rich table, or with ``--json`` floats keyed by the count; bad
options one line on stderr, exit 2.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console

from carnage.cli.odds_cmd import Json, _emit, _guard, dist_table
from carnage.games.devilsrun.odds import (
    OFFENSIVES,
    d10_odds,
    offensive_odds,
    repair_dist,
    repair_odds,
    shoot_odds,
)
from carnage.games.kart.odds import kart_attack_odds, kart_smash_odds, wipeout_facings
from carnage.games.refuelled.engine.wipeout import WIPEOUT_AT
from carnage.games.refuelled.odds import CRIT_HITS, collision_sides

devilsrun = typer.Typer(help="Exact odds of Devil's Run: Route 666's dice.",
                        no_args_is_help=True)
kart = typer.Typer(help="Exact odds of the Kart variant.", no_args_is_help=True)


@devilsrun.command("test")
def dr_test(
    target: Annotated[int, typer.Option(
        "--target", help="Succeeds on a D10 at most this: E (evade), E + bonus (stash "
        "pick-up), the modified BS, the disengage number.")],
    as_json: Json = False,
) -> None:
    """Chance a D10 test succeeds (DR-028, DR-029, DR-085, DR-107, DR-110)."""
    data = _guard(lambda: d10_odds(target))
    if as_json:
        _emit(data)
        return
    Console().print(f"D10 <= {target}: P(success) {data['p_success']:.0%} "
                    f"({data['exact']['p_success']})")


@devilsrun.command("shoot")
def dr_shoot(
    rof: Annotated[int, typer.Option("--rof", help="The weapon's Rate of Fire.")],
    bs: Annotated[int, typer.Option("--bs", help="The shooter's BS (BS1 driver, BS2 gunner).")],
    modifier: Annotated[int, typer.Option(
        "--modifier", help="The arc grid's BS modifier for the target's square.")] = 0,
    armour: Annotated[int, typer.Option("--armour", help="The target's armour (A).")] = 0,
    flamer: Annotated[bool, typer.Option(
        "--flamer", help="A Flamer: no saves, one die less per square beyond the first.")
                      ] = False,
    range_: Annotated[int, typer.Option(
        "--range", help="Squares to the target (a Flamer's dice).")] = 1,
    cp: Annotated[int | None, typer.Option(
        "--cp", help="The target's chassis points: adds P(wrecked).")] = None,
    as_json: Json = False,
) -> None:
    """Hits, criticals and damage of one shot (DR-053, DR-090 to DR-094): a D10 per RoF at
    most the modified BS hits, a 1 always hits and is critical (2 damage); saves in order,
    a D6 at most A each, until one fails."""
    odds = _guard(lambda: shoot_odds(rof, bs + modifier, armour, flamer=flamer,
                                     range_=range_, cp=cp))
    if as_json:
        _emit(odds.to_json())
        return
    con = Console()
    con.print(dist_table(f"{odds.dice} D10 at BS {odds.bs}: hits", odds.hits, "hits"))
    saves = f"armour {armour} saves" if odds.saves else "no saves (Flamer)"
    con.print(dist_table(f"damage after {saves}", odds.damage))
    con.print(f"expected damage {float(odds.damage.mean()):.3f} ({odds.damage.mean()})")
    if odds.p_wreck is not None:
        con.print(f"P(wrecked, {cp} chassis points) {float(odds.p_wreck):.2%} ({odds.p_wreck})")


@devilsrun.command("offensive")
def dr_offensive(
    attacker: Annotated[int, typer.Option(
        "--attacker", help="The attacker's total before its D3 (a ram: squares moved + A; "
        "a side-swipe: A + CP).")],
    defender: Annotated[int, typer.Option(
        "--defender", help="The defender's total before its D3 (A; a side-swipe: A + CP).")],
    action: Annotated[str, typer.Option(
        "--action", help="ram, t_bone, side_swipe or ram_on_the_brakes.")] = "ram",
    as_json: Json = False,
) -> None:
    """Damage an offensive move deals each side (DR-076 to DR-079); a pile-up's extra damage
    is not included."""
    odds = _guard(lambda: offensive_odds(action, attacker, defender))
    if as_json:
        _emit(odds.to_json())
        return
    con = Console()
    con.print(dist_table(f"{action}: damage to the target", odds.to_target))
    con.print(dist_table(f"{action}: damage to the attacker", odds.to_attacker))


@devilsrun.command("repair")
def dr_repair(as_json: Json = False) -> None:
    """The Repair roll (DR-068): 3D6, two sixes repair with 1 CP, three with 3."""
    if as_json:
        _emit(repair_odds())
        return
    d = repair_dist()
    Console().print(dist_table("the Repair roll: chassis points after it", d, "CP"))
    p = 1 - d.p(0)
    Console().print(f"P(repaired) {float(p):.2%} ({p})")


@kart.command("attack")
def kart_attack(
    dice: Annotated[int, typer.Option("--dice", help="Attack dice of the item.")],
    evade_gear: Annotated[int, typer.Option(
        "--evade-gear", help="The target kart's current gear: its evade dice.")] = 0,
    cover: Annotated[bool, typer.Option("--cover", help="Target in cover: -1 to hit.")] = False,
    to_hit_bonus: Annotated[int, typer.Option("--to-hit-bonus", help="Bonus to hit.")] = 0,
    crit_hits: Annotated[int, typer.Option(
        "--crit-hits", help="Hits per Critical Hit.")] = CRIT_HITS,
    hazards: Annotated[int, typer.Option(
        "--hazards", help="Hazard Tokens on the target kart before the attack.")] = 0,
    wipeout_at: Annotated[int, typer.Option(
        "--wipeout-at", help="Hazards that cause a Wipeout.")] = WIPEOUT_AT,
    as_json: Json = False,
) -> None:
    """Hazards an Item Attack gives the target kart (its hits become Hazards, MK-20) and the
    chance it then has enough for a Wipeout."""
    odds = _guard(lambda: kart_attack_odds(dice, evade_gear=evade_gear, cover=cover,
                                           to_hit_bonus=to_hit_bonus, crit_hits=crit_hits,
                                           hazards=hazards, wipeout_at=wipeout_at))
    if as_json:
        _emit(odds.to_json())
        return
    con = Console()
    con.print(dist_table(f"{dice} dice at a kart in gear {evade_gear}: Hazards gained",
                         odds.attack.damage, "hazards"))
    con.print(f"P({wipeout_at}+ Hazards from {hazards}: a Wipeout) {float(odds.p_wipeout):.2%} "
              f"({odds.p_wipeout})")


@kart.command("smash")
def kart_smash(
    gear: Annotated[int, typer.Option("--gear", help="Gear of the moving kart (A).")],
    other_gear: Annotated[int, typer.Option(
        "--other-gear", help="Gear of the other kart (B); ignored for an obstacle.")] = 1,
    orientation: Annotated[str, typer.Option(
        "--orientation", help="head_on, t_bone, tailgate or sideswipe.")] = "head_on",
    weight: Annotated[str, typer.Option("--weight", help="A's weight: light, middle, heavy.")
                      ] = "middle",
    other_weight: Annotated[str, typer.Option("--other-weight", help="B's weight.")
                            ] = "middle",
    reaction: Annotated[str, typer.Option("--reaction", help="A: smash or evade.")] = "smash",
    other_reaction: Annotated[str, typer.Option("--other-reaction", help="B: smash or evade.")
                              ] = "smash",
    obstacle: Annotated[bool, typer.Option(
        "--obstacle", help="B is an obstacle: head-on, Heavyweight, always smashes.")] = False,
    front: Annotated[str, typer.Option(
        "--front", help="Tailgate: which party is in front (a or b).")] = "b",
    hazards: Annotated[int, typer.Option("--hazards", help="A's Hazards before.")] = 0,
    other_hazards: Annotated[int, typer.Option("--other-hazards", help="B's Hazards before.")
                             ] = 0,
    wipeout_at: Annotated[int, typer.Option(
        "--wipeout-at", help="Hazards that cause a Wipeout.")] = WIPEOUT_AT,
    as_json: Json = False,
) -> None:
    """Hazards both karts of a Collision gain under the variant's smash dice and flat Hazard
    (MK-30, MK-32, MK-35, MK-36), and the chance of each wiping out."""

    def run() -> Any:
        a, b = collision_sides(gear, other_gear, weight, other_weight, reaction,
                               other_reaction, obstacle=obstacle, front=front,
                               front_name="--front")
        return kart_smash_odds(orientation, a, b, hazards_a=hazards, hazards_b=other_hazards,
                               wipeout_at=wipeout_at)

    odds = _guard(run)
    if as_json:
        _emit(odds.to_json())
        return
    con = Console()
    parties = [("A (moving)", odds.smash.a, hazards)]
    if not obstacle:
        parties.append(("B", odds.smash.b, other_hazards))
    for name, s, before in parties:
        other = odds.smash.b if s is odds.smash.a else odds.smash.a
        con.print(dist_table(f"{name} ({s.reaction}), hit by {other.smash_dice} dice: Hazards "
                             f"gained", odds.gained(s), "hazards"))
        p = odds.p_wipeout(s, before)
        con.print(f"{name}: P({wipeout_at}+ Hazards from {before}) {float(p):.2%} ({p})")


@kart.command("wipeout")
def kart_wipeout(as_json: Json = False) -> None:
    """The headings a wiping-out kart may face, rolled on two D6 (MK-24)."""
    data = wipeout_facings()
    if as_json:
        _emit(data)
        return
    headings = data["headings"]
    assert isinstance(headings, dict)
    Console().print(f"{len(headings)} headings, each {next(iter(headings.values())):.2%}: "
                    + ", ".join(f"{h}°" for h in headings))


__all__ = ["OFFENSIVES", "devilsrun", "kart"]
