"""The dice of a roll as the table draws them: skid dice by face, attack and evade D6 with the
dice that score marked, Push It re-rolls and spent Shifts marked on the dice themselves.

Dice are numbered from 1 wherever a player sees them (``DiceView.dice[i].number``), whatever
index the engine uses. Everything is read from the events of the log (``roll``, ``skid`` and
the ``decision`` events of Push It and Shift spending), never from their sentences.
"""

from __future__ import annotations

from collections.abc import Sequence

from carnage.catalog.models import TemplateUse
from carnage.games.refuelled.engine.combat import EVADE_ON, HIT_ON
from carnage.kernel.dice import skid_face
from carnage.kernel.events import Event
from carnage.render.table_schemas import DiceView, DieView

CRIT = 6
"""A natural 6 on an attack die scores two hits (Refuelled p.32)."""

ROLLED = "core"
"""The source of the ``skid`` result of the Movement Step's own roll (engine/movement.py logs
it with the default source); Push It and the perks that re-roll log theirs under their own."""

LOOK_BACK = 40
"""How many events before a Push It roll are searched for the choice that asked for it."""


def _ints(raw: object) -> list[int]:
    if not isinstance(raw, list):
        return []
    return [int(x) for x in raw if isinstance(x, int) and not isinstance(x, bool)]


def skid_view(faces: Sequence[str], rerolled: Sequence[int] = (),
              spent: Sequence[int] = (), cancelled: Sequence[int] = ()) -> DiceView:
    marks = []
    for i, _ in enumerate(faces):
        m = "cancelled" if i in cancelled else "spent" if i in spent else (
            "rerolled" if i in rerolled else "")
        marks.append(m)
    return DiceView(kind="skid", dice=[
        DieView(number=i + 1, face=str(f), mark=m) for i, (f, m) in enumerate(zip(faces, marks,
                                                                                  strict=True))
    ])


def roll_view(e: Event) -> DiceView | None:
    """The dice of a ``roll`` event."""
    dice = _ints(e.data.get("dice"))
    why = str(e.data.get("why", ""))
    if why == "skid dice":
        return DiceView(kind="skid", dice=[
            DieView(number=i + 1, face=skid_face(d).value, mark="") for i, d in enumerate(dice)
            if 1 <= d <= 6
        ])
    if why == "evade":
        return DiceView(kind="evade", dice=[
            DieView(number=i + 1, face=str(d), mark="saved" if d >= EVADE_ON else "miss")
            for i, d in enumerate(dice)
        ])
    if why in ("attack", "smash attack") or e.source in ("attack", "smash_attack"):
        penalty = e.data.get("penalty", 0)
        need = HIT_ON + (int(penalty) if isinstance(penalty, int) else 0)
        return DiceView(kind="attack", dice=[
            DieView(number=i + 1, face=str(d),
                    mark="crit" if d == CRIT else "hit" if d >= need else "miss")
            for i, d in enumerate(dice)
        ])
    if not dice:
        return None
    return DiceView(kind="d6", dice=[
        DieView(number=i + 1, face=str(d), mark="") for i, d in enumerate(dice)])


def _faces(e: Event) -> list[str]:
    raw = e.data.get("faces")
    return [str(f) for f in raw] if isinstance(raw, list) else []


def _push_indices(events: Sequence[Event], at: int) -> list[int]:
    """The dice the Push It choice just before ``events[at]`` re-rolled (engine indices)."""
    for j in range(at - 1, max(-1, at - LOOK_BACK), -1):
        e = events[j]
        if e.kind == "decision" and e.data.get("decision") == "push_it":
            choice = str(e.data.get("choice"))
            parts = choice.split(",")
            return [int(p) for p in parts if p.strip().isdigit()]
    return []


def restates_roll(events: Sequence[Event], at: int) -> bool:
    """Whether ``events[at]`` is a ``skid`` result saying again, face for face, the skid dice
    rolled just before it: the roll's own line draws them, so the result's line draws none
    and the dice panels (which list the lines with dice) show one line per roll. A Push It
    re-roll's result, or dice a rule changed, is no restatement."""
    e = events[at]
    if e.kind != "skid" or e.source != ROLLED or at <= 0:
        return False
    roll = events[at - 1]
    if roll.kind != "roll" or roll.data.get("why") != "skid dice":
        return False
    if roll.data.get("vehicle") != e.data.get("vehicle"):
        return False
    dice = _ints(roll.data.get("dice"))
    return all(1 <= d <= 6 for d in dice) and [skid_face(d).value for d in dice] == _faces(e)


def event_dice(events: Sequence[Event], at: int) -> DiceView | None:
    """The dice ``events[at]`` shows, if it is a roll or a skid result."""
    e = events[at]
    if e.kind == "roll":
        return roll_view(e)
    if e.kind == "skid":
        faces = _faces(e)
        rerolled = _push_indices(events, at) if e.source == "push_it" else []
        return skid_view(faces, rerolled=rerolled)
    return None


def free_shifts(template: Event) -> int:
    """Bonus Shift results the chosen template gives beyond the dice: one for a trivial
    manoeuvre (Refuelled p.40), or as many as a seat's own template shows Shift icons."""
    icons = template.data.get("shift_icons")
    if isinstance(icons, int) and not isinstance(icons, bool):
        return max(0, icons)
    return 1 if template.data.get("use") == TemplateUse.TRIVIAL.value else 0


def _changed_faces(e: Event, faces: list[str]) -> list[str]:
    """The skid dice after ``e``, an event that may change them before any Shift is spent:
    a free Shift result (Raise the Sails, p.97), a perk that sets the dice (Moment of Glory,
    Easy Rider, p.110), adds Taunt's dice (p.111) or set-aside Shifts (Satellite Navigation,
    p.114)."""
    if e.kind == "free_shift":
        return [*faces, "shift"]
    if e.kind != "perk":
        return faces
    perk, given = e.data.get("perk"), e.data.get("faces")
    if perk in ("moment_of_glory", "easy_rider") and isinstance(given, list):
        return [str(f) for f in given]
    if perk == "taunt" and isinstance(given, list):
        return [*faces, *(str(f) for f in given)]
    used = e.data.get("used")
    if perk == "satellite_navigation" and isinstance(used, int) and not isinstance(used, bool):
        return [*faces, *["shift"] * max(0, used)]
    return faces


def current_skid(events: Sequence[Event], vehicle: str) -> DiceView | None:
    """The skid dice of ``vehicle``'s Movement Step in progress: the dice rolled (as changed
    before any Shift was spent), then the free Shift results its template gives (``free``),
    with the Shifts spent so far and the results they cancelled marked. The engine pools its
    Shifts (engine/skid.py): the table counts the rolled ones spent first, so the Shifts left
    unmarked are always as many as the engine's count. None before its template is chosen."""
    template = skid = None
    for j in range(len(events) - 1, -1, -1):
        e = events[j]
        if e.data.get("vehicle") != vehicle:
            continue
        if e.kind == "skid" and skid is None:
            skid = j
        elif e.kind == "template":
            template = j
            break
        elif e.kind == "activation":
            break
    if template is None and skid is None:
        return None
    start = skid if skid is not None else template
    assert start is not None
    faces = _faces(events[skid]) if skid is not None else []
    free = 0 if template is None else free_shifts(events[template])
    spent_n = 0
    cancelled: list[int] = []
    for e in events[start + 1:]:
        if e.kind != "decision" or e.data.get("decision") != "spend_shift":
            if not spent_n and not cancelled and e.data.get("vehicle") == vehicle:
                faces = _changed_faces(e, faces)
            continue
        act, _, arg = str(e.data.get("choice")).partition(":")
        if act == "done":
            break
        spent_n += 1
        if act == "cancel" and arg.isdigit():
            cancelled.append(int(arg))
    rolled = [i for i, f in enumerate(faces) if f == "shift"]
    spent = rolled[:spent_n]
    view = skid_view(faces, spent=spent, cancelled=cancelled)
    free_spent = max(0, spent_n - len(rolled))
    view.dice.extend(
        DieView(number=len(faces) + k + 1, face="shift", mark="spent" if k < free_spent else "",
                free=True)
        for k in range(free))
    if not view.dice:
        return None
    return view
