"""Devil's Run: Route 666 as a ``Ruleset`` beside Refuelled: its own grid game on the kernel
(carnage/games/devilsrun/), found by name like any other ruleset."""

from __future__ import annotations

from typing import Any

from carnage.games.devilsrun.data import gangs
from carnage.games.devilsrun.game import DevilsRunGame, restore
from carnage.games.devilsrun.missions import DEVILS_RUN
from carnage.games.devilsrun.table import TABLE
from carnage.kernel.dice import DiceSource
from carnage.kernel.game import SnapshotError
from carnage.kernel.hooks import HookRegistry
from carnage.kernel.rules import RuleTable
from carnage.kernel.ruleset import Ruleset


def _new_game(*, scenario: str = "devils-run", teams: Any = (), seed: int | str = 0,
              dice: DiceSource | None = None, **options: Any) -> DevilsRunGame:
    if options:
        raise ValueError(f"Devil's Run takes no options {sorted(options)}")
    return DEVILS_RUN.new_game(scenario, list(teams) or None, int(seed), dice)


def _restore(doc: dict[str, Any]) -> DevilsRunGame:
    try:
        return restore(doc)
    except ValueError as e:
        raise SnapshotError(f"snapshot: {e}") from None


DEVILS_RUN_RULESET = Ruleset(
    name=DEVILS_RUN.name, title=DEVILS_RUN.title, rules=RuleTable(), hooks=HookRegistry(),
    catalog=gangs(), templates=None,
    scenarios={s.id: s for s in DEVILS_RUN.scenarios},
    new_game=_new_game, restore=_restore, table=TABLE,
)
"""Its catalogue is the gangs' statlines; it has no movement templates (a grid) and no effect
hooks of Refuelled's (its skills are data its own flow reads)."""
