"""One short English sentence per event of a game on the Refuelled engine (Refuelled, Kart,
Legacy), for the table's log panel: what ``Ruleset.table.event_text`` declares for them.

``event_text(event, names)`` reads an event's kind and data (docs/events.md) and names the
vehicles and players involved; the rule's page is appended as ``(p.N)``. Kinds without a
sentence of their own are still described from their data, so no event is ever unreadable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from carnage.games.refuelled.words import (
    SIDE_WORDS,
    Names,
    choice_text,
    compass,
    mount_name,
    obstacle_words,
    plain,
    player_name,
    rule_name,
    shift_words,
    slot_words,
    state_names,
    table_area,
    table_size,
    template_name,
    turn_words,
    words,
)
from carnage.kernel.dice import skid_face
from carnage.kernel.events import Event, JsonValue
from carnage.kernel.secrets import REDACTED


def _n(count: Any, word: str) -> str:
    k = int(count) if isinstance(count, int | float) and not isinstance(count, bool) else 0
    if k == 1:
        return f"1 {word}"
    return f"{k} {word[:-3] + 'dice' if word.endswith('die') else word + 's'}"


def _list(items: Any) -> str:
    if not isinstance(items, list | tuple) or not items:
        return "nothing"
    return ", ".join(str(x) for x in items)


def display_id(oid: str) -> str:
    """How a table object's id reads in the log ("crate-1" -> "crate 1"), whether or not the
    object is still on the table: a line reads the same when rewritten after a restart."""
    return obstacle_words(oid)


def _pretty(value: str) -> str:
    return value.replace("_", " ")


class _Say:
    def __init__(self, names: Names, data: Mapping[str, JsonValue], source: str) -> None:
        self.names, self.d, self.source = names, data, source

    def player(self, seat: Any) -> str:
        return player_name(self.names, seat)

    def name(self, key: str = "vehicle") -> str:
        vid = self.d.get(key)
        if vid is None:
            return "?"
        return self.lookup(str(vid))

    def lookup(self, oid: str) -> str:
        if oid in self.names:
            return self.names[oid]
        if oid.startswith("wreck:"):
            return f"the wreck of {self.lookup(oid[6:])}"
        base, slash, part = oid.partition("/")
        if slash and base in self.names:  # a vehicle's part ("p1-big-rig/trailer")
            return f"{self.names[base]}'s {words(part)}"
        return display_id(oid)  # gone from the table since (a destroyed crate): same words

    def names_of(self, key: str) -> str:
        ids = self.d.get(key)
        if not isinstance(ids, list | tuple) or not ids:
            return "nothing"
        return ", ".join(self.lookup(str(i)) for i in ids)

    def get(self, key: str, default: Any = "?") -> Any:
        v = self.d.get(key)
        return default if v is None else v


def _roll(s: _Say) -> str:
    dice = s.get("dice", [])
    who = s.name() if "vehicle" in s.d else (
        s.name("attacker") if "attacker" in s.d else s.player(s.d.get("player"))
        if "player" in s.d else "The table")
    why = str(s.get("why", "a roll"))
    k = len(dice) if isinstance(dice, list) else 0
    if why == "skid dice" and isinstance(dice, list):
        shown = [skid_face(d).value.capitalize() for d in dice
                 if isinstance(d, int) and 1 <= d <= 6]
        return f"{who} rolled {_n(k, 'skid die')}: {_list(shown)}"
    if why.endswith(" dice"):
        return f"{who} rolled {k} {why}: {_list(dice)}"
    return f"{who} rolled {_n(k, 'die')} for {why}: {_list(dice)}"


def _template(s: _Say) -> str:
    extra = (" (left)" if s.d.get("mirror") else "") + (" in reverse" if s.d.get("reverse") else "")
    use = {"T": "trivial", "H": "hazardous", "P": "permitted"}.get(str(s.get("use", "")), "")
    tail = f", {use}" if use and use != "permitted" else ""
    name = str(s.d["name"]) if s.d.get("name") else template_name(str(s.get("template")))
    if s.d.get("name"):  # a team's own template (Legacy): say its icons when it has several
        counts = {w: s.d.get(k) for k, w in (("hazard_icons", "Hazard icons"),
                                              ("shift_icons", "Shift icons"))}
        icons = [f"{n} {w}" for w, n in counts.items() if isinstance(n, int) and n > 1]
        tail += f" ({', '.join(icons)})" if icons else ""
    return f"{s.name()} takes the {name} template{extra}{tail}"


def _hazards(s: _Say) -> str:
    change = s.get("change", 0)
    k = int(change) if isinstance(change, int) else 0
    verb = "gains" if k >= 0 else "loses"
    why = rule_name(s.source)
    because = f" ({why})" if s.source not in ("", "core") else ""
    return f"{s.name()} {verb} {_n(abs(k), 'Hazard')}{because}, now {s.get('hazards')}"


BEFORE = "_before"
"""A key ``table_event_text`` adds to a move's data for its sentence only (never logged): the
vehicle's pose before it, ``[x, y, heading]``, so the line says the move from the vehicle."""


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _float(v: Any) -> float | None:
    """``v`` as a float when it is a number (not a bool), else None."""
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def _where(s: _Say) -> str:
    """Where a move ends: from the vehicle's pose before it when known ("150 mm ahead,
    turning 45° right"), and where that is on the table, facing which way."""
    x, y, h = s.d.get("x"), s.d.get("y"), s.d.get("heading")
    before = s.d.get(BEFORE)
    facing = f", facing {compass(h)}" if _number(h) else ""
    area = table_area(s.names, x, y)
    if table_size(s.names) is None and before is None:  # nothing to say where: the facing
        return f"and faces {compass(h)}" if _number(h) else ""
    pose = [_float(c) for c in (x, y, h, *(before if isinstance(before, list) else ()))]
    if len(pose) == 6 and all(c is not None for c in pose):
        x1, y1, h1, x0, y0, h0 = (c or 0.0 for c in pose)
        turn = (h1 - h0 + 180.0) % 360.0 - 180.0
        turning = f", turning {turn_words(turn)}" if round(turn) else ""
        return (f"{shift_words(x1 - x0, y1 - y0, h0)}{turning}"
                f", {'ending ' if area.startswith('off ') else 'to '}{area}{facing}")
    return f"{'' if area.startswith('off ') else 'to '}{area}{facing}"


def _move(s: _Say) -> str:
    where = _where(s) if "x" in s.d else "on the real table"  # companion mode: no coordinates
    out = f"{s.name()} moves {where}"
    if s.d.get("interrupted"):
        out += f", stopped by {s.names_of('touched')}"
    elif s.d.get("touched"):
        out += f", touching {s.names_of('touched')}"
    return out


def _forced_move(s: _Say) -> str:
    where = _move(s).split(" moves ", 1)[1]
    # On the exact table "...: 120 mm ahead, to the centre"; at a real table (no coordinates,
    # CP-1) "... on the real table".
    joint = " " if "x" not in s.d else ": "
    return f"{s.name()} is forced along the {_pretty(str(s.get('template')))}{joint}{where}"


def _deploy(s: _Say) -> str:
    slot = s.d.get("slot")
    place = "" if slot is None else f": {slot_words(str(slot), s.names)}"
    return f"{s.name()} takes its place on the starting grid{place}"


TURNED_BY_HAND = {"spin": "for its Spin", "lose_control": "as it loses control",
                  "harpoon": "on the Harpoon's line"}
"""Why a vehicle was turned by hand at a real table, by the pivot's rule (its source)."""


def _pivot(s: _Say) -> str:
    if "turned" not in s.d:  # companion mode: turned on the real table (as far as told)
        if _number(s.d.get("requested")):
            out = f"{s.name()} turns {turn_words(s.d['requested'])} on the real table"
        else:  # the people found the angle themselves (a Spin, a lose-control, a Harpoon)
            why = TURNED_BY_HAND.get(s.source) or (
                f"({rule_name(s.source)})" if s.source else "")
            out = f"{s.name()} is turned by hand at the table{' ' + why if why else ''}"
        return out + (f", hitting {s.names_of('touched')}" if s.d.get("touched") else "")
    turned, asked = s.get("turned", 0), s.get("requested", 0)
    out = f"{s.name()} pivots {turn_words(turned)}"
    if _number(turned) and _number(asked) and round(turned) != round(asked):
        out += f" (of {turn_words(asked)} asked)"
    if _number(s.d.get("heading")):
        out += f", now facing {compass(s.d['heading'])}"
    if s.d.get("touched"):
        out += f", hitting {s.names_of('touched')}"
    return out


def _table_fact(s: _Say) -> str:
    """A fact the people at a real table reported (companion mode, engine/table_facts.py)."""
    fact = str(s.get("fact")).replace("_", " ")
    answer = s.d.get("answer")
    if isinstance(answer, bool):
        said = "yes" if answer else "no"
    elif isinstance(answer, list):
        said = ", ".join(s.lookup(str(a).partition("@")[0])
                         + (f" at {words(str(a).partition('@')[2])}" if "@" in str(a) else "")
                         for a in answer) or "nothing"
    else:
        said = words(str(answer))
    about = f" ({s.name('target')})" if s.d.get("target") else ""
    return f"At the table, for {s.name()}: {fact}{about}: {said}"


def _attack_hits(s: _Say) -> str:
    hits = s.get("hits", 0)
    if "vehicle" in s.d:
        return f"{s.name()}'s attack on {s.name('target')} scores {_n(hits, 'hit')}"
    origin = s.d.get("origin")
    what = "the explosion" if s.source == "explosion" else _pretty(str(s.source))
    if origin is not None and s.source == "explosion":
        what = f"the explosion of {s.name('origin')}"
    return f"{s.name('target')} takes {_n(hits, 'hit')} from {what}"


def _reaction_words(s: _Say) -> str:
    """How a party reacts to a Collision (p.53): "by evading", "with a Smash Attack", a
    declared special smash by its name ("with a PIT (a Smash Attack)")."""
    if s.get("reaction") == "evade":
        return "by evading"
    declared = s.d.get("declared")
    if isinstance(declared, str) and declared:
        return f"with {rule_name(declared)} (a Smash Attack)"
    return "with a Smash Attack"


def _chosen(s: _Say) -> str:
    kind = str(s.get("decision"))
    choice = s.d.get("choice")
    if kind in ("activate", "deploy") and isinstance(choice, str):
        return s.lookup(choice)
    faces = s.d.get("faces")
    return choice_text(kind, choice, s.names,
                       [str(f) for f in faces] if isinstance(faces, list) else ())


def _decision(s: _Say) -> str:
    who = s.player(s.d.get("player"))
    if "vehicle" in s.d:
        who = f"{who} ({s.name()})"
    return f"{who} chose {_chosen(s)}"


def _forced_choice(s: _Say) -> str:
    return f"{s.player(s.d.get('player'))} had only one choice: {_chosen(s)}"


def _scenario(s: _Say) -> str:
    sid = str(s.get("scenario"))
    return sid if " " in sid else rule_name(sid)


def _token(s: _Say) -> str:
    """A scenario token in words: "Blue's flag", "a zombie"."""
    kind = words(str(s.get("token_kind", "token")))
    owner = s.d.get("owner")
    if isinstance(owner, int) and not isinstance(owner, bool):
        return f"{s.player(owner)}'s {kind}"
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def _token_placed(s: _Say) -> str:
    if s.d.get("vehicle") is not None:
        return f"{s.name()} carries {_token(s)}"
    where = table_area(s.names, s.d.get("x"), s.d.get("y"))
    return f"{_token(s).capitalize()} is placed in {where}"


def _token_dropped(s: _Say) -> str:
    why = f" ({s.d['reason']})" if s.d.get("reason") else ""
    where = table_area(s.names, s.d.get("x"), s.d.get("y"))
    return f"{s.name()} drops {_token(s)} in {where}{why}"


def _votes_spent(s: _Say) -> str:
    cost = s.get("cost", 0)
    target = str(s.d.get("target") or "")
    tid, *hows = re.split(r"[:|]", target)
    on = ""
    if tid:
        ways = [mount_name(h) if i == 0 and "|" in target else SIDE_WORDS.get(h, words(h))
                for i, h in enumerate(hows)]
        on = f" on {s.lookup(tid)}" + (f" ({', '.join(ways)})" if ways else "")
    return (f"{s.player(s.d.get('player'))} spends {_n(cost, 'Audience Vote')} on "
            f"{rule_name(str(s.get('effect')))}{on}, {s.get('votes')} left")


def _final_scores(s: _Say) -> str:
    scores = s.d.get("scores")
    order = s.d.get("order")
    shown = ""
    if isinstance(scores, dict) and isinstance(order, list):
        shown = ": " + ", ".join(f"{s.player(o)} {scores.get(str(o), 0)}" for o in order)
    return f"Final scores, {s.get('reason')}{shown}"


def _score(s: _Say) -> str:
    change = s.get("change", 0)
    k = int(change) if isinstance(change, int) else 0
    verb = "scores" if k >= 0 else "loses"
    why = f": {s.d['reason']}" if s.d.get("reason") else ""
    return (f"{s.player(s.d.get('player'))} {verb} {abs(k)} ({words(str(s.get('tally')))}), "
            f"now {s.get('total')}{why}")


def _game_over(s: _Say) -> str:
    if s.d.get("draw") or s.d.get("winner") is None:
        return f"The game ends in a draw: {s.get('reason')}"
    return f"{s.player(s.d.get('winner'))} wins: {s.get('reason')}"


SENTENCES: dict[str, Callable[[_Say], str]] = {
    "roll": _roll,
    "decision": _decision,
    "forced_choice": _forced_choice,
    "game_start": lambda s: f"The game begins ({_scenario(s)}, "
    f"{s.get('players')} players)",
    "game_over": _game_over,
    "round_start": lambda s: f"Round {s.get('round')} begins; {s.player(s.d.get('pole'))} has pole "
    "position",
    "round_end": lambda s: f"Round {s.get('round')} ends",
    "gear_phase": lambda s: f"Gear phase {s.get('phase')} of round {s.get('round')}",
    "pass": lambda s: f"{s.player(s.d.get('player'))} has nothing to activate in gear phase "
    f"{s.get('phase')}",
    "pole": lambda s: f"{s.player(s.d.get('player'))} takes pole position ({s.get('reason')})",
    "deploy": _deploy,
    "activation": lambda s: f"{s.name()} activates in gear phase {s.get('phase')}",
    "activation_end": lambda s: f"{s.name()} ends its activation",
    "template": _template,
    "slide_exit": lambda s: f"{s.name()} slides from a new slide exit point"
    if "@" in str(s.get("laid")) else f"{s.name()} slides from the template's own exit point",
    "touch_it_use_it": lambda s: f"{s.name()} touched a template it may not use "
    f"({template_name(str(s.get('picked')))}); {s.player(s.d.get('chooser'))} picks one for it",
    "skid": lambda s: f"{s.name()}'s skid dice show "
    f"{_list([str(f).capitalize() for f in s.get('faces', [])])}",
    "skid_hazards": lambda s: f"{s.name()} gains {_n(s.get('gained', 0), 'Hazard')} from its "
    "skid dice",
    "hazards": _hazards,
    "gear": lambda s: f"{s.name()} is now in gear {s.get('gear')}",
    "move": _move,
    "forced_move": _forced_move,
    "pivot": _pivot,
    "harpoon": lambda s: f"{s.name()} is pulled on the Harpoon's line ("
    f"{_n(s.get('hits', 0), 'hit')}) and turns to face "
    f"{'' if s.d.get('towards') else 'directly away from '}{s.name('anchor')}",
    "table_fact": _table_fact,
    "ignoring": lambda s: f"{s.name()} starts touching {s.names_of('obstructions')}, ignored "
    "for this move",
    "disqualified": lambda s: f"{s.name()} is out of the game: {s.get('reason')}",
    "distracted": lambda s: f"{s.name()} is distracted by {s.names_of('touching')} and cannot "
    "shoot",
    "declare_attack": lambda s: f"{s.name()} aims {mount_name(str(s.get('weapon')))} at "
    f"{s.name('target')}"
    + (" (target in cover)" if s.d.get("cover") else ""),
    "attack_hits": _attack_hits,
    "attack_lost": lambda s: f"{s.name()}'s attack on {s.name('target')} is lost: "
    f"{s.get('reason')}",
    "attack_cancelled": lambda s: f"{s.name()}'s attack on {s.name('target')} is cancelled",
    "ammo": lambda s: f"{s.name()} uses ammo for {mount_name(str(s.get('weapon')))}, "
    f"{s.get('ammo')} left",
    "evade": lambda s: f"{s.name()} evades {_n(s.get('cancelled', 0), 'hit')} of "
    f"{s.get('hits')}",
    "cancel_hit": lambda s: f"{s.name()} cancels a hit",
    "hits_taken": lambda s: f"{s.name()} takes {s.get('damage', 0)} damage "
    f"({_n(s.get('hits', 0), 'hit')}, {s.get('cancelled')} cancelled)",
    "collision": lambda s: f"{s.name()} collides with {s.name('other')} "
    f"({_pretty(str(s.get('orientation')))})",
    "damage": lambda s: f"{s.name()} loses {_n(s.get('amount', 0), 'hull point')}, "
    f"{s.get('hull_points')} left",
    "wrecked": lambda s: f"{s.name()} is wrecked",
    "audience_vote": lambda s: f"{s.player(s.d.get('player'))} earns an Audience Vote "
    f"({s.get('votes')} in all)",
    "explosion_check": lambda s: f"{s.name()} explosion check: rolled {s.get('roll')} + "
    f"{s.get('ammo')} ammo = {s.get('total')}"
    + (", it explodes" if s.d.get("explodes") else ", no explosion"),
    "explosion": lambda s: f"{s.name('origin')} explodes with {_n(s.get('dice', 0), 'die')}"
    f", reaching {s.names_of('targets')}",
    "removed": lambda s: f"{s.name()} is removed from the table ({s.get('reason')})",
    "wreck": lambda s: f"{s.name()} is left on the table as a wreck",
    "obstacle_removed": lambda s: f"{s.name('obstacle')} is destroyed and removed",
    "volatile_explodes": lambda s: f"{s.name('obstacle')} explodes",
    "collision_skipped": lambda s: f"No collision between {s.name()} and {s.name('other')}: "
    f"{s.get('reason')}",
    "collision_end": lambda s: f"The collision of {s.name()} and {s.name('other')} is over"
    + ("" if s.get("reason") == "resolved" else f": the {words(str(s.get('reason')))}"),
    "tailgate_evade": lambda s: f"{s.name()} tailgates {s.name('other')}: both must evade",
    "reaction": lambda s: f"{s.name()} reacts to {s.name('other')} {_reaction_words(s)}",
    "smash_attack": lambda s: f"{s.name('attacker')} smashes {s.name('target')} with "
    f"{_n(s.get('dice', 0), 'die')}: {_n(s.get('hits', 0), 'hit')}",
    "wipeout": lambda s: f"{s.name()} wipes out with {s.get('hazards')} Hazards in gear "
    f"{s.get('gear')}",
    "flip_check": lambda s: f"{s.name()} flip check: {s.get('score')} against gear "
    f"{s.get('gear')}" + (", it flips" if s.d.get("flipped") else ", it stays upright"),
    "flip": lambda s: f"{s.name()} flips and takes {_n(s.get('hits', 0), 'hit')}",
    "ramp": lambda s: f"{s.name()} reaches the {s.get('edge')} edge of {s.name('ramp')}",
    "jump": lambda s: f"{s.name()} jumps along the {_pretty(str(s.get('template')))}",
    "tumble": lambda s: f"{s.name()} tumbles",
    "finish_line": lambda s: f"{s.name()} crosses the finish line",
    # scenario machinery (scenarios/common): spawn points, tokens, scores, gates, neutrals
    "spawn_point": lambda s: f"{s.player(s.d.get('player'))}'s spawn point is in "
    f"{table_area(s.names, s.d.get('x'), s.d.get('y'))}",
    "token_placed": _token_placed,
    "token_dropped": _token_dropped,
    "token_picked_up": lambda s: f"{s.name()} picks up {_token(s)}",
    "token_removed": lambda s: f"{_token(s).capitalize()} is removed"
    + (f" ({s.d['reason']})" if s.d.get("reason") else ""),
    "flags_captured": lambda s: f"{s.name()} brings home "
    f"{_n(len(s.get('flags', [])), 'flag')} for {s.player(s.d.get('player'))}",
    "gate_passed": lambda s: f"{s.name()} passes gate {s.get('gate')} on lap {s.get('lap')}"
    + (", the first there" if s.d.get("first") else ""),
    "votes_spent": _votes_spent,
    "neutral_vehicle": lambda s: f"{s.get('name')} joins the game as a neutral vehicle",
    "neutral_activation": lambda s: f"{s.player(s.d.get('player'))} activates {s.name()} in "
    f"gear phase {s.get('phase')}",
    "enraged": lambda s: f"{s.name()} is enraged by {s.name('after')} and "
    f"{s.player(s.d.get('player'))} drives it",
    "acidic_ichor": lambda s: f"{s.name()}'s acidic ichor reaches {s.names_of('targets')}",
    "final_scores": _final_scores,
    "score": _score,
    "sandstorm": lambda s: f"A sandstorm turns {s.name()} {turn_words(s.get('angle', 0))}"
    if s.d.get("angle") else f"The sandstorm leaves {s.name()} as it is",
    "obstacle_damage": lambda s: f"{s.name('obstacle')} loses "
    f"{_n(s.get('amount', 0), 'hull point')}, {s.get('hull_points')} left",
    # Arena of Death, Desert Strike, Tank Commander (scenarios/)
    "turret": lambda s: f"A {_pretty(str(s.get('turret')))} is placed: {s.name('obstacle')}",
    "turret_attack": lambda s: f"{s.name('obstacle')} fires {_n(s.get('dice', 0), 'die')} at "
    f"{s.name('target')}" + (" (in cover)" if s.d.get("cover") else ""),
    "turret_wrecked": lambda s: f"{s.name('obstacle')} is wrecked"
    + (f" by {s.player(s.d.get('player'))}" if s.d.get("player") is not None else ""),
    "cannon_turned": lambda s: f"{s.name()} turns its Cannon to face {s.get('facing')}",
    "on_my_mark": lambda s: f"On my mark: {s.name()} fires its Cannon at {s.name('target')}",
    "close_range": lambda s: f"Close range: {s.name()} re-rolls "
    f"{_n(s.get('rerolled', 0), 'missed die')} for {_n(s.get('hits', 0), 'more hit')}",
    "kart_rule": lambda s: f"Kart variant: {s.get('what')}"
    + (f" ({s.name()})" if s.d.get("vehicle") else ""),
    "kart_facing": lambda s: f"{s.name()} spins to a random facing: now facing "
    f"{compass(s.get('heading'))} (dice {_list(s.get('dice'))})",
    "legacy_rule": lambda s: f"Gaslands: Legacy: {s.get('what')}"
    + (f" ({s.name()})" if s.d.get("vehicle") else ""),
    "nano_cloak": lambda s: f"{s.name()} cloaks from {s.name('attacker')}'s attack, cutting "
    f"its Hull to {s.get('hull')} for good",
}


PLAYER_KEYS = frozenset({"player", "owner", "winner", "chooser", "seat", "held_by"})
"""Data keys holding a seat: said as the seat's colour."""
UNSAID_KEYS = frozenset({"vehicle", "x", "y", "heading", "hinge", "key", BEFORE})
"""Data keys a fallback sentence does not list (the vehicle leads it; a place is said once)."""


def _value(s: _Say, key: str, v: Any) -> str | None:
    """One data value in words, or None to leave it out."""
    if v is None or v is False or v == [] or v == {}:
        return None
    if v is True:
        return ""
    if key in PLAYER_KEYS and isinstance(v, int):
        return s.player(v)
    if key == "players" and isinstance(v, list):
        return " and ".join(s.player(p) for p in v)
    if isinstance(v, float):
        return f"{round(v)}"
    if isinstance(v, list):
        return ", ".join(w for w in (_value(s, key, x) for x in v) if w)
    if isinstance(v, dict):
        return ", ".join(f"{_pretty(str(k))} {w}" for k, x in v.items()
                         if (w := _value(s, str(k), x)) is not None)
    if isinstance(v, str):
        return s.lookup(v) if v in s.names or v.startswith("wreck:") or "/" in v else v
    return str(v)


def _fallback(kind: str, s: _Say) -> str:
    """A sentence for an event with none of its own, from its data in words: seats by colour,
    ids by name, a place as where it is on the table, whole numbers."""
    parts: list[str] = []
    for k, v in s.d.items():
        if k in UNSAID_KEYS:
            continue
        w = _value(s, k, v)
        if w is None:
            continue
        parts.append(_pretty(k) if w == "" else w if k == "player" else f"{_pretty(k)} {w}")
    x, y, h = s.d.get("x"), s.d.get("y"), s.d.get("heading")
    if _number(x) and _number(y):
        parts.append(f"in {table_area(s.names, x, y)}"
                     + (f", facing {compass(h)}" if _number(h) else ""))
    head = _pretty(kind).capitalize()
    if s.d.get("vehicle") is not None:
        head = f"{s.name()}: {_pretty(kind)}"
    return head + (f" ({', '.join(parts)})" if parts else "")


def event_text(event: Event, names: Names) -> str:
    """A short sentence for ``event``, naming vehicles by ``names`` and ending with its page."""
    s = _Say(names, event.data, event.source)
    fn = SENTENCES.get(event.kind)
    try:
        hidden = secret_sentence(event, names)  # secrets and redacted events
        text = hidden if hidden is not None else fn(s) if fn is not None else _fallback(
            event.kind, s)
    except (TypeError, ValueError, KeyError, IndexError):
        text = _fallback(event.kind, s)
    text = plain(text, names)
    text = text[:1].upper() + text[1:]
    if event.page is not None:
        text += f" (p.{event.page})"
    return text


def texts(events: Sequence[Event], names: Names) -> list[str]:
    return [event_text(e, names) for e in events]


def _whose(names: Names, seat: object) -> str:
    return "" if seat is None else f"{player_name(names, seat)}'s "


def secret_sentence(e: Event, names: Names) -> str | None:
    """The log sentence of a secret-carrying or redacted event; None for any other (the
    ordinary sentences apply)."""
    d = e.data
    label = str(d.get("label") or "secret")
    who = d.get("player")
    if e.kind == "secret":
        if d.get(REDACTED):
            owner = "The table" if who is None else player_name(names, who)
            return f"{owner} now holds a {label.lower()}, face down"
        return f"{_whose(names, who) or 'The table: '}{label.lower()}: {d.get('text')}"
    if e.kind == "secret_revealed":
        why = d.get("why")
        return (f"{_whose(names, who)}{label.lower()} is revealed: {d.get('text')}"
                + (f" ({why})" if why else ""))
    if not d.get(REDACTED):
        return None
    if e.kind in ("decision", "forced_choice"):
        what = str(d.get("decision") or "").replace("_", " ")
        return f"{player_name(names, who)} chose in secret ({what})"
    if e.kind == "roll":
        return f"Dice rolled face down ({d.get('why')})"
    return f"{e.kind.replace('_', ' ').capitalize()} (kept secret)"


MOVES = ("move", "forced_move")
POSED = ("move", "forced_move", "deploy", "pivot", "kart_facing", "neutral_vehicle")
"""Events whose data say where a vehicle stands (or, a pivot, which way it faces) after them."""
LOOK_BACK = 400
"""How many events back a move's line looks for the vehicle's pose before it."""


def pose_before(events: Sequence[Event], at: int, vid: str) -> list[float] | None:
    """``[x, y, heading]`` of vehicle ``vid`` just before ``events[at]``, from the last events
    that placed or turned it (None when the log does not say)."""
    for e in reversed(events[max(0, at - LOOK_BACK):at]):
        if e.kind not in POSED or e.data.get("vehicle") != vid:
            continue
        x, y, h = (_float(e.data.get(k)) for k in ("x", "y", "heading"))
        if x is not None and y is not None and h is not None:
            return [x, y, h]
        return None  # a pivot (about its front, say) moved it without saying where to
    return None


def table_event_text(game: Any, event: Event, names: Names | None = None) -> str:
    """``event`` of ``game`` as its log line says it (``TableOffer.event_text``); a move is
    told from the vehicle's pose before it, read from the log. ``names``: the game's
    ``state_names`` now, when the caller worked them out once for many lines (the same
    words: the state does not change between them)."""
    whole = game.log.events
    at = event.seq
    if (event.kind in MOVES and at < len(whole) and whole[at].kind == event.kind
            and whole[at].data.get("vehicle") == event.data.get("vehicle")
            and isinstance(event.data.get("vehicle"), str)):
        before = pose_before(whole, at, str(event.data["vehicle"]))
        if before is not None:
            event = Event(event.seq, event.kind, {**event.data, BEFORE: before},
                          source=event.source, page=event.page)
    return event_text(event, state_names(game.state) if names is None else names)
