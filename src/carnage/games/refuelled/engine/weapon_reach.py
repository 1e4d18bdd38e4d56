"""Which targets each weapon reaches, as the Attack Step looks at the table: one question for
every kind of target that is no vehicle (a scenario's turrets, ruling CP-9; Sentry Guns,
ruling CP-19).

At a real table, for each weapon that may still shoot and rolls attack dice of its own, the
attacker's controller names the targets within its range and arc, not behind Tall terrain,
each in cover or not (``ask_reach``: one ``table:<kind>`` list per weapon, "nothing" first).
On a recording exact table the geometry's answer to the same questions is noted at the same
moment (``note_reach``), so a companion replay can answer them. The answer is kept as
weapon key -> target id -> in cover.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any

from carnage.games.refuelled.engine.table_facts import ask_list

if TYPE_CHECKING:
    from carnage.catalog import Weapon
    from carnage.games.refuelled.engine.attack import AttackOption
    from carnage.games.refuelled.engine.game import Flow, Game
    from carnage.games.refuelled.engine.state import VehicleState, WeaponMount
    from carnage.kernel.decisions import Decision

COVER = "@cover"
"""Suffix of a target's id naming it in cover (one option of the list)."""

Reach = dict[str, dict[str, bool]]
"""Weapon key -> target id -> whether the target is in cover from it."""

Armed = Sequence[tuple[str, "WeaponMount | None", "Weapon"]]
"""The weapons that may still shoot (key, mount or None for the Handgun, weapon)."""

Shot = Callable[[str, "WeaponMount | None", "Weapon", str], "tuple[str, bool] | None"]
"""The exact table's shot from a weapon (key, mount, weapon) at a target id: (range band,
cover), or None when it cannot shoot it."""


Shoot = Callable[[str, "WeaponMount | None", "Weapon", str, bool],
                 Callable[["Game", dict[str, Any]], "Flow"]]
"""The attack itself at a target id, in cover or not, from a weapon (key, mount, weapon)."""


def shooting(armed: Armed) -> list[tuple[str, WeaponMount | None, Weapon]]:
    """Of ``armed``, the weapons asked about: those with attack dice of their own."""
    return [(key, m, w) for key, m, w in armed if w.attack_dice and not w.special_dice]


def ask_reach(g: Game, v: VehicleState, kind: str, what: str,
              targets: Sequence[tuple[str, str]], armed: Armed, *, page: int | None
              ) -> Generator[Decision, Any, Reach]:
    """At a real table: per weapon of ``armed`` with attack dice, the ``targets`` (id, label
    in words) its controller says it reaches, each in cover or not. ``what`` names the
    targets in the question ("turrets", "Sentry Guns"). Nothing is asked without targets."""
    told: Reach = {}
    if not targets:
        return told
    options = [c for tid, label in targets
               for c in ((tid, label), (tid + COVER, f"{label}, in cover"))]
    exclusive = [[tid, tid + COVER] for tid, _ in targets]
    for key, _, w in shooting(armed):
        named = yield from ask_list(
            g, v.player, kind, f"{v.name}: which {what} are within range and arc of its "
            f"{w.name}, not behind Tall terrain?", options, page=page, vehicle=v.id,
            weapon=key, exclusive=exclusive)
        told[key] = {n.partition("@")[0]: n.endswith(COVER) for n in named}
    return told


def note_reach(g: Game, kind: str, targets: Sequence[str], armed: Armed, shot: Shot) -> None:
    """On a recording exact table: what ``ask_reach`` would be told, per weapon, as the
    geometry (``shot``) measures it. Nothing is noted without targets."""
    if not targets:
        return
    for key, m, w in shooting(armed):
        got = [(tid, shot(key, m, w, tid)) for tid in targets]
        g.facts.note(kind, [tid + (COVER if r[1] else "") for tid, r in got if r is not None])


def told_options(g: Game, armed: Armed, told: Reach, words: Callable[[str], str],
                 shoot: Shoot, stands: Callable[[str], bool]) -> list[AttackOption]:
    """At a real table: the Attack Step's options the people's answers (``ask_reach``) allow:
    each weapon of ``armed`` at each target they said it reaches that still ``stands``,
    named in ``words`` ("Handgun at Sentry Gun 1 [cover]")."""
    from carnage.games.refuelled.engine.attack import AttackOption

    out: list[AttackOption] = []
    for key, m, w in armed:
        for tid, cover in told.get(key, {}).items():
            if not stands(tid):
                continue
            label = f"{w.name} at {words(tid)}{' [cover]' if cover else ''}"
            out.append(AttackOption(f"{key}>{tid}", label, key, shoot(key, m, w, tid, cover)))
    return out
