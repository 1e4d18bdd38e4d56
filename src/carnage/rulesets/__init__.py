"""The rulesets Carnage plays, by name, and the one place a game is assembled.

``RULESETS`` is an immutable collection (``Rulesets.with_ruleset`` returns a new one with
another ruleset added, e.g. in a test); ``get_ruleset(name)`` finds one; ``build_game(setup)``
and ``replay(record)`` play a set-up in the ruleset it names (a game package never looks the
registry up itself: it knows only its own ruleset).
"""

from __future__ import annotations

from carnage.games.devilsrun.ruleset import DEVILS_RUN_RULESET
from carnage.games.kart.ruleset import KART
from carnage.games.legacy.ruleset import LEGACY
from carnage.games.refuelled import setup as _setup
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.ruleset import REFUELLED, refuelled_ruleset
from carnage.kernel.dice import DiceSource
from carnage.kernel.ruleset import Ruleset, Rulesets

RULESETS = Rulesets({REFUELLED.name: REFUELLED, DEVILS_RUN_RULESET.name: DEVILS_RUN_RULESET,
                     KART.name: KART, LEGACY.name: LEGACY})

DEFAULT_RULESET = REFUELLED.name
"""The ruleset played when none is named (bots by name, tourneys, the command line)."""


def get_ruleset(name: str | Ruleset = DEFAULT_RULESET) -> Ruleset:
    """The ruleset called ``name`` (a ``Ruleset`` is returned as it is); ``KeyError`` naming
    the known ones."""
    return name if isinstance(name, Ruleset) else RULESETS[name]


def build_game(setup: _setup.GameSetup, seed: int | str = 0, dice: DiceSource | None = None,
               ruleset: Ruleset | None = None) -> Game:
    """``setup``'s game in ``ruleset``, by default the one it names (``SetupError`` for an
    unknown one)."""
    return _setup.build_game(setup, seed, dice=dice, ruleset=ruleset or _named(setup.ruleset))


def replay(record: _setup.GameRecord, ruleset: Ruleset | None = None) -> _setup.ReplayResult:
    """``record`` replayed in ``ruleset``, by default the one its set-up names."""
    return _setup.replay(record, ruleset=ruleset or _named(record.setup.ruleset))


def _named(name: str) -> Ruleset:
    try:
        return get_ruleset(name)
    except KeyError as e:
        raise _setup.SetupError(str(e.args[0])) from None


__all__ = ["DEFAULT_RULESET", "KART", "LEGACY", "REFUELLED", "RULESETS", "Ruleset", "Rulesets",
           "build_game", "get_ruleset", "refuelled_ruleset", "replay"]
