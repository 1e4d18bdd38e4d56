"""Devil's Run: Route 666 as a ``Ruleset`` beside Refuelled: its own grid game on the kernel
(carnage/games/devilsrun/), found by name like any other ruleset."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from carnage.games.devilsrun.bots import BOTS, NamedBot, heuristic_bot, named_bot
from carnage.games.devilsrun.data import gangs
from carnage.games.devilsrun.game import DevilsRunGame, restore
from carnage.games.devilsrun.missions import DEVILS_RUN
from carnage.games.devilsrun.observation import DEVILS_RUN_OBSERVATION
from carnage.games.devilsrun.odds_queries import DEVILS_RUN_QUERIES
from carnage.games.devilsrun.session import DevilsRunGames, replay_log, scenario_list
from carnage.games.devilsrun.table import TABLE
from carnage.kernel.contract import Bot, PlayableGame
from carnage.kernel.dice import DiceSource
from carnage.kernel.game import SnapshotError
from carnage.kernel.hooks import HookRegistry
from carnage.kernel.rules import RuleTable
from carnage.kernel.ruleset import Ruleset
from carnage.kernel.search import SearchAdapter
from carnage.kernel.session import GameMaker, GameRequest

if TYPE_CHECKING:
    import typer


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


def _search_adapter(players: int) -> SearchAdapter:
    from carnage.games.devilsrun.search import DevilsRunAdapter

    return DevilsRunAdapter(players)


def _search_bot(spec: str) -> Callable[[], Bot]:
    def make() -> Bot:
        from carnage.ai.search import make_search_bot

        return make_search_bot(spec, adapter=_search_adapter)

    return make


def _bots() -> dict[str, Callable[[], Bot]]:
    """Its own bots (bots.py) and the search bot at each level, with its own adapter."""
    out: dict[str, Callable[[], Bot]] = {name: named_bot(name) for name in BOTS}
    for spec in ("search", "search:easy", "search:normal", "search:hard"):
        out[spec] = _search_bot(spec)
    return out


def _games(request: GameRequest) -> GameMaker:
    return DevilsRunGames(request)


def _cli() -> typer.Typer:
    from carnage.games.devilsrun.cli import app

    return app


DEVILS_RUN_RULESET = Ruleset(
    name=DEVILS_RUN.name, title=DEVILS_RUN.title, rules=RuleTable(), hooks=HookRegistry(),
    catalog=gangs(), templates=None,
    scenarios={s.id: s for s in DEVILS_RUN.scenarios},
    new_game=_new_game, restore=_restore,
    scenario_list=scenario_list, bots=_bots(), default_bots=("heuristic", "random"),
    games=_games, replay_log=replay_log, cli=_cli, table=TABLE, search=_search_adapter,
    queries=DEVILS_RUN_QUERIES, observation=DEVILS_RUN_OBSERVATION,
)
"""Its catalogue is the gangs' statlines; it has no movement templates (a grid) and no effect
hooks of Refuelled's (its skills are data its own flow reads)."""

if TYPE_CHECKING:
    _CONTRACT: type[PlayableGame] = DevilsRunGame
    """mypy checks that Devil's Run's game keeps the game contract (``kernel/contract.py``)."""
    _BOT: Bot = NamedBot("heuristic", heuristic_bot)
