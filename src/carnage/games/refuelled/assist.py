"""Fewer clicks at the Refuelled table (``TableOffer.assist``, ``kernel/assist.py``).

* Optional prompts the seat may have answered by its preference: the Nitro Booster (p.84),
  spending Audience Votes (p.88), discarding a Hazard after a move wholly on road (p.86), and
  any rule's plain yes/no question.
* Shortcuts: after the skid dice are rolled, keep them and spend the Shifts as suggested in
  one action (the suggestion is shown before it is sent, so nothing is spent unseen); "fire
  everything at X": each weapon that can still fire at X declares an attack at it, then the
  vehicle stops declaring (p.30).
* The skid dice are asked with the template (the question that always follows it).

The sensible answer is the heuristic bot's (``ai/bots.py``), seeded from the game's choices
so the same game always gets the same suggestion.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from carnage.games.refuelled.engine.attack import STOP
from carnage.games.refuelled.engine.movement import DONE as SHIFTS_DONE
from carnage.games.refuelled.engine.movement import NO_PUSH
from carnage.games.refuelled.engine.votes import DONE as VOTES_DONE
from carnage.kernel.assist import FollowUp, OptionalPrompt, Shortcut, Step, asks_the_table
from carnage.kernel.decisions import Decision

FIRE_AT = "*>"
"""A shortcut's choice ``*>target``: every weapon that can fire at the target."""
MAX_PLAN = 12
"""Most answers a suggested plan holds (a bound: Shifts are few)."""

NAMED_PROMPTS: dict[str, tuple[str, str | int]] = {
    "nitro": ("Nitro Booster", "no"),
    "loot_nitro": ("Nitro Booster", "no"),
    "spend_votes": ("Audience Votes", VOTES_DONE),
    "road_surface": ("Road: discard a Hazard", "yes"),
}
"""Optional prompts by decision kind: the preference's name and the answer given unasked."""


class RefuelledAssist:
    """Refuelled's answers to ``kernel.assist.TableAssist``."""

    def __init__(self) -> None:
        self._advisor: Any = None

    def _advice(self, game: Any, d: Decision) -> Any:
        if self._advisor is None:
            from carnage.games.refuelled.ai.bots import HeuristicBot

            self._advisor = HeuristicBot()
        rng = random.Random(f"assist:{len(game.choices)}")
        return self._advisor.choose(game, d, rng)

    # -- optional prompts ------------------------------------------------------------------------
    def optional(self, game: Any, d: Decision) -> OptionalPrompt | None:
        if asks_the_table(d):  # what the people at a real table see is never optional
            return None
        values = {o.value for o in d.options}
        named = NAMED_PROMPTS.get(d.kind)
        if named is not None and named[1] in values:
            return OptionalPrompt(d.kind if d.kind != "loot_nitro" else "nitro", *named)
        if values == {"yes", "no"}:
            name = d.kind.replace("_", " ").capitalize()
            return OptionalPrompt(d.kind, name, "no")
        return None

    def sensible(self, game: Any, d: Decision) -> Any:
        return self._advice(game, d)

    # -- shortcuts -------------------------------------------------------------------------------
    def shortcuts(self, game: Any, d: Decision) -> Sequence[Shortcut]:
        if d.kind in ("push_it", "spend_shift"):
            plan = self._shift_plan(game, d)
            return [plan] if plan is not None else []
        if d.kind == "attack":
            return self._fire_at(game, d)
        return []

    def _shift_plan(self, game: Any, d: Decision) -> Shortcut | None:
        """Keep the dice (at Push It) and spend the Shifts as the sensible player would."""
        trial = game.clone()
        first: Any = NO_PUSH if d.kind == "push_it" else None
        steps: list[Step] = []
        words: list[str] = []
        if first is not None:
            trial.apply(first)
        for _ in range(MAX_PLAN):
            nd = trial.pending()
            if nd is None or nd.kind != "spend_shift" or nd.player != d.player \
                    or nd.vehicle != d.vehicle:
                break
            pick = self._advice(trial, nd)
            label = next((o.label for o in nd.options if o.value == pick), str(pick))
            if first is None:
                first = pick
            else:
                steps.append(Step("spend_shift", pick))
            if pick != SHIFTS_DONE:
                words.append(label)
            trial.apply(pick)
        if first is None or (d.kind == "push_it" and not steps):
            return None
        spent = ", ".join(words) if words else "no Shift spent"
        head = "Keep the dice; Shifts: " if d.kind == "push_it" else "Shifts: "
        return Shortcut(f"{head}{spent}", first, tuple(steps), intent="keep")

    def _fire_at(self, game: Any, d: Decision) -> list[Shortcut]:
        by_target: dict[str, list[str]] = {}
        for o in d.options:
            key, sep, target = str(o.value).partition(">")
            if sep and key != "*":
                by_target.setdefault(target, [])
                if key not in by_target[target]:
                    by_target[target].append(key)
        out = []
        for target, keys in by_target.items():
            v = game.state.vehicles.get(target)
            name = v.name if v is not None else target
            weapons = ", ".join(_weapon_name(game, d, k) for k in keys)
            out.append(Shortcut(f"Fire everything at {name} ({weapons})", f"{FIRE_AT}{target}",
                                intent="fire_at"))
        return out

    def expand(self, game: Any, d: Decision, choice: Any, first: bool) -> Any:
        text = str(choice)
        if d.kind != "attack" or not text.startswith(FIRE_AT):
            return None
        target = text[len(FIRE_AT):]
        for o in d.options:
            key, sep, t = str(o.value).partition(">")
            if sep and key != "*" and t == target:
                return o.value
        if not first and any(o.value == STOP for o in d.options):
            return STOP
        return None

    # -- questions asked together ----------------------------------------------------------------
    def follow_up(self, game: Any, d: Decision) -> FollowUp | None:
        """With the template: the skid dice (asked of the same seat straight after, unless
        a permitted template hands it no dice)."""
        if d.kind != "template":
            return None
        permitted = [o.value for o in d.options if not str(o.label).endswith("[-]")]
        if not permitted:
            return None
        trial = game.clone()
        trial.apply(permitted[0])
        nd = trial.pending()
        if nd is None or nd.kind != "skid_dice" or nd.player != d.player:
            return None
        return FollowUp("skid_dice", tuple(o.value for o in nd.options), nd.prompt)


def _weapon_name(game: Any, d: Decision, key: str) -> str:
    base = key.split("#", 1)[0]
    try:
        return str(game.catalog.weapons.get(base).name)
    except KeyError:
        return base.replace("_", " ").capitalize()


ASSIST = RefuelledAssist()
