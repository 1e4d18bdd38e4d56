"""Plain English for the Devil's Run table (its ``TableOffer.event_text``): vehicle names,
the pending question and its options, and one sentence per log event (no internal ids in the
text a player reads).

Pure functions of the game; the engine's own prompts and labels stay as they are (the terminal
and the bots use them), this module only words them for people.
"""

from __future__ import annotations

from typing import Any

from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.data import gangs, weapons
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.state import WRECK
from carnage.kernel.decisions import Decision
from carnage.kernel.events import Event

ACTIONS = {
    "peddle": "Peddle to the Metal: drive forward (1 action point)",
    "brake": "BRAKE!: roll backwards (1 action point)",
    "ram": "Ram a vehicle ahead (2 action points)",
    "ram_on_the_brakes": "Ram on the Brakes: slam back into a vehicle behind (2 action points)",
    "side_swipe": "Side Swipe a vehicle beside you (2 action points)",
    "t_bone": "T-Bone a vehicle from the side (2 action points)",
    "repair": "Try to repair the wreck (1 action point)",
    "pass": "Do nothing",
}
SECOND = {"shoot": "Shoot with every weapon that has a target",
          "pickup": "Grab the stash", "pass": "Do nothing more"}
STEPS = {"F": "Straight ahead", "FL": "Diagonally forward, to the left",
         "FR": "Diagonally forward, to the right", "stop": "End the move here"}
SWIPES = {"sl": "swiping in from the right (moving left)",
          "sr": "swiping in from the left (moving right)",
          "dl": "swiping diagonally forward to the left",
          "dr": "swiping diagonally forward to the right"}
MOVE_NAMES = {"ram": "ram", "ram_on_the_brakes": "ram on the brakes",
              "side_swipe": "side swipe", "t_bone": "T-bone"}


def vehicle_name(game: DevilsRunGame, vid: str) -> str:
    """``The Law's Bike``; a gang's second vehicle of one type would get a number."""
    v = game.state.vehicles.get(vid)
    if v is None:
        return "a vehicle"
    g = gangs()[v.gang]
    return f"{g.name.removeprefix('The ')} {B.vtype(v).type.title()}"


def gang_name(game: DevilsRunGame, player: int) -> str:
    return gangs()[game.state.gangs[player]].name


LANES = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def square_words(x: int, y: int) -> str:
    """A square as a driver reads the road: its lane across the road from the left (1..8) and
    how far up the road it lies, counted in squares from the start of the run."""
    lane = LANES[x] if 0 <= x < len(LANES) else f"{x + 1}th"
    return f"the {lane} lane from the left, {y + 1} squares up the road"


def _square(value: str) -> str:
    x, y = (int(c) for c in value.split(","))
    return square_words(x, y)


def option_label(game: DevilsRunGame, d: Decision, value: str | int) -> str:
    kind, val = d.kind, str(value)
    def name(vid: str) -> str:
        return vehicle_name(game, vid)

    if kind == "deploy_side":
        return {"letters": "Deploy on the lettered squares (A to D)",
                "numbers": "Deploy on the numbered squares (1 to 4)"}.get(val, val)
    if kind == "deploy":
        vid, label = val.split("@")
        return f"{name(vid)} on deployment square {label}"
    if kind == "first_player":
        return f"{gang_name(game, int(value))} activate first"
    if kind in ("stash_square", "evade_square"):
        return _square(val)
    if kind == "activate":
        v = game.vehicle(val)
        return name(val) + (" (a wreck: it may try to repair)" if v.status == WRECK else "")
    if kind == "action":
        return ACTIONS.get(val, val)
    if kind == "keep_d3":
        return f"Keep the {val}"
    if kind == "step":
        return STEPS.get(val, val)
    if kind == "second_action":
        return SECOND.get(val, val)
    if kind == "evade":
        if val == "evade":
            return "Try to evade"
        return "Take the hit"
    if kind == "offensive_target":
        parts = val.split(":")
        t = game.vehicle(parts[0])
        text = name(parts[0])
        if B.vtype(t).footprint > 1:
            text += ", its " + ("front" if parts[1] == "0" else "rear") + " square"
        if len(parts) > 2:
            code = parts[2]
            if code in SWIPES:
                text += ", " + SWIPES[code]
            else:
                side = "left" if code[0] == "r" else "right"
                text += f", coming across from the {side} ({code[1:]} squares)"
        return text
    if kind == "shoot_target":
        if val == "hold":
            return "Hold fire"
        act = game.state.act
        if act is not None:
            for tid, mod, dist in game.weapon_targets(act.vid, act.weapon):
                if tid == val:
                    v = game.vehicle(act.vid)
                    mount = B.vtype(v).mounts[act.weapon]
                    bs = B.vtype(v).bs(mount.slot) + mod
                    return f"Shoot {name(tid)} (hits on {bs} or less, {dist} squares away)"
        return f"Shoot {name(val)}"
    return val


def question(game: DevilsRunGame, d: Decision, prompt: str) -> str:
    """The decision asked in plain words, from its kind and subject; a kind with no words of
    ours shows ``prompt``, the engine's own."""
    who = gang_name(game, d.player)
    v = vehicle_name(game, d.vehicle) if d.vehicle else ""
    kind = d.kind
    act = game.state.act
    if kind == "deploy_side":
        return f"{who}: you won the roll-off. Deploy on letters or numbers?"
    if kind == "deploy":
        return f"{who}: place a vehicle on a deployment square"
    if kind == "first_player":
        return f"{who}: you won this turn's roll-off. Who activates first?"
    if kind == "stash_square":
        return f"{who}: place the stash on the road"
    if kind == "activate":
        return f"{who}: activate one of your vehicles"
    if kind == "action" and act is not None:
        return f"{v}: choose its move"
    if kind == "keep_d3":
        return f"{v}: keep which movement die?"
    if kind == "step" and act is not None:
        left = act.allowance - act.spent
        must = max(0, act.min_required - act.spent)
        return (f"{v}: {left} movement left"
                + (f" (it must spend at least {must} more)" if must else ""))
    if kind == "offensive_target" and act is not None:
        return f"{v}: {MOVE_NAMES.get(act.action, act.action)} which vehicle?"
    if kind == "evade":
        attacker = vehicle_name(game, d.target) if d.target else "the attacker"
        return (f"{v}: {attacker} is coming at you. Try to evade (evade "
                f"{B.vtype(game.vehicle(d.vehicle or '')).e})?")
    if kind == "evade_square":
        return f"{v}: evade into which square?"
    if kind == "second_action":
        return f"{v}: what does its second action point buy?"
    if kind == "shoot_target" and d.weapon:
        key = d.weapon.split("#")[0]
        w = weapons().get(key)
        return f"{v}: who does its {w.name if w else key} shoot at?"
    return prompt


def _list(items: list[str]) -> str:
    return ", ".join(items) if items else "nothing"


QUIET = frozenset({"decision", "forced_choice"})
"""Events the table's log leaves out: the choices (the events after them say what happened)."""


def event_text(game: DevilsRunGame, e: Event) -> str:
    """One sentence for a log event, in plain words."""
    d: dict[str, Any] = dict(e.data)
    def n(key: str) -> str:
        return vehicle_name(game, str(d.get(key, "")))

    k = e.kind
    if k == "setup":
        return f"The road is laid: tiles {', '.join(str(t) for t in d.get('tiles', []))}."
    if k == "roll":
        results = _list([str(r) for r in d.get("results", [])])
        return f"Rolled {d.get('dice')} for {d.get('why')}: {results}."
    if k == "rolloff":
        return f"{gang_name(game, int(d.get('winner', 0)))} win the roll-off."
    if k == "deployed":
        return f"{n('vehicle')} deploys on square {d.get('label')}."
    if k == "turn":
        return f"Turn {d.get('turn')} begins."
    if k == "turn_end":
        return f"Turn {d.get('turn')} ends."
    if k == "activation":
        return f"{n('vehicle')} activates."
    if k == "activation_end":
        return f"{n('vehicle')} is done."
    if k == "movement_allowance":
        return (f"{n('vehicle')} may move {d.get('allowance', '?')} "
                f"(movement modifier {d.get('mm')} + D3 {d.get('d3')}).")
    if k == "moved":
        return f"{n('vehicle')} moved, spending {d.get('spent')} movement."
    if k == "movement_modifier_lost":
        return f"{n('vehicle')} hits rough road and loses its movement modifier."
    if k == "brake_stopped":
        return f"{n('vehicle')} brakes to a stop."
    if k == "no_target":
        return f"{n('vehicle')} finds no target."
    if k == "offensive_declared":
        move = MOVE_NAMES.get(str(d.get("action")), "hit")
        return f"{n('vehicle')} goes for a {move} on {n('target')}."
    if k == "evaded":
        return f"{n('vehicle')} evades to {square_words(*d['square'])}."
    if k == "evade_failed":
        return f"{n('vehicle')} fails to evade."
    if k == "stopped_at_edge":
        return f"{n('vehicle')} stops at the edge of the road."
    if k == "new_target":
        return f"{n('vehicle')} runs on into {n('target')}."
    if k == "offensive_totals":
        return (f"{n('attacker')} totals {d.get('attacker_total')} against "
                f"{n('target')}'s {d.get('target_total')}.")
    if k == "crushed":
        return f"{n('vehicle')} is crushed against an obstacle."
    if k == "pushed":
        return f"{n('vehicle')} is pushed to {square_words(*d['square'])}."
    if k == "pile_up":
        caught = [vehicle_name(game, str(x)) for x in d.get("vehicles", [])]
        return "Pile-up! " + _list(caught) + "."
    if k == "shot":
        target = n("target")
        if d.get("dice") == 0:
            return f"{n('vehicle')}'s flames cannot reach {target}."
        return (f"{n('vehicle')} shoots at {target}: {d.get('hits', 0)} hit(s), "
                f"{d.get('criticals', 0)} critical.")
    if k == "armour_save":
        return f"{n('vehicle')}'s armour saves {d.get('saved')} of {d.get('points')}."
    if k == "damage":
        return f"{n('vehicle')} takes {d.get('points')} damage ({d.get('cp')} chassis left)."
    if k == "chassis_collected":
        return (f"{gang_name(game, int(d.get('player', 0)))} bank {d.get('tokens')} chassis "
                f"(total {d.get('total')}).")
    if k == "wrecked":
        return f"{n('vehicle')} is wrecked" + ("." if d.get("repairable") else " for good.")
    if k == "removed":
        return f"{n('vehicle')} leaves play ({str(d.get('status', '')).replace('_', ' ')})."
    if k == "repair":
        return f"{n('vehicle')} " + ("is repaired!" if d.get("repaired") else "fails to repair.")
    if k == "tile_recycled":
        return f"The back tile {d.get('tile')} comes round to the front of the road."
    if k == "stash":
        what = str(d.get("event", ""))
        who = f" by {n('vehicle')}" if "vehicle" in d else ""
        where = f" in {square_words(*d['square'])}" if "square" in d else ""
        return f"The stash: {what}{who}{where}."
    if k == "game_over":
        w = d.get("winner")
        head = "A draw" if w is None else f"{gang_name(game, int(w))} win"
        return f"{head}: {d.get('reason')} (turn {d.get('turn')})."
    return f"{k.replace('_', ' ')}."
