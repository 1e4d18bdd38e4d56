"""Gaslands: Refuelled as a ``Ruleset``: its catalogue, templates, rules, hooks and scenarios.

The one place that composes the engine's flow (engine/), the rules modules (rules/), the
catalogue and the template set into a ruleset object. Everything a Refuelled game looks up
(installers, hooks, catalogue, templates, scenarios) it finds here through ``game.ruleset``;
``refuelled_ruleset`` makes another with a changed catalogue or templates (a Legacy campaign)
or rules (a test), without touching this one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from typing_extensions import TypeIs

from carnage.catalog import load_catalog
from carnage.games.refuelled.assist import ASSIST
from carnage.games.refuelled.engine import hazards_on_table, votes
from carnage.games.refuelled.engine.hooks import REFUELLED_HOOKS
from carnage.games.refuelled.observation import REFUELLED_OBSERVATION
from carnage.games.refuelled.rules import (
    dropped,
    sponsors,
    trailers,
    upgrades,
    vehicles,
    war_rig,
    weapons,
)
from carnage.games.refuelled.rules.campaign import RULES as CAMPAIGN_RULES
from carnage.games.refuelled.rules.perks import PERK_RULES
from carnage.games.refuelled.scenarios import SCENARIOS
from carnage.games.refuelled.scenarios.common.selection import RANDOM_TABLES
from carnage.games.refuelled.text import table_event_text
from carnage.geometry.templateset import default_template_set
from carnage.kernel.campaign_modes import CampaignMode, LazyMapping
from carnage.kernel.contract import PlayableGame
from carnage.kernel.hooks import HookRegistry
from carnage.kernel.odds import PendingOdds
from carnage.kernel.queries import Query
from carnage.kernel.rules import RuleTable
from carnage.kernel.ruleset import (
    BoardAssets,
    RandomTable,
    Ruleset,
    RulesetPage,
    ScenarioInfo,
    TableOffer,
    WebFiles,
)
from carnage.kernel.search import SearchAdapter, SearchAdapterFactory
from carnage.kernel.session import GameRequest, ReplayReport

if TYPE_CHECKING:
    import typer

    from carnage.catalog.loader import Catalog
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset
    from carnage.games.refuelled.scenarios import TableScenario
    from carnage.geometry.templateset import TemplateSet

    _CONTRACT: type[PlayableGame] = Game
    """mypy checks that Refuelled's game (the Kart variant's and Legacy's too) keeps the
    game contract (``kernel/contract.py``)."""


def refuelled_rules(catalog: Catalog | None = None) -> RuleTable:
    """Every installer of Refuelled's rules modules, and one for each sponsor of ``catalog``
    (default: Refuelled's), in one new table."""
    return RuleTable.merged([
        hazards_on_table.RULES, votes.RULES, vehicles.RULES, war_rig.RULES, weapons.RULES,
        dropped.RULES, upgrades.RULES, trailers.RULES, PERK_RULES, sponsors.RULES,
        sponsors.sponsor_rules(catalog if catalog is not None else load_catalog()),
        CAMPAIGN_RULES,  # campaign wear and Sabotage Tokens (rules/campaign/)
    ])


WEB = WebFiles("refuelled", Path(__file__).resolve().parent / "web")
"""Refuelled's browser files (games/refuelled/web): the tabletop board."""
BOARD = BoardAssets(WEB, markup="table.html", module="table.js")
"""The tabletop the table page draws (the Kart variant and Legacy draw it too)."""


def refuelled_ruleset(*, name: str = "refuelled", title: str = "Gaslands: Refuelled",
                      catalog: Catalog | None = None, templates: TemplateSet | None = None,
                      rules: RuleTable | None = None, hooks: HookRegistry | None = None,
                      scenarios: Mapping[str, type[TableScenario]] | None = None,
                      parent: str | None = None,
                      view: Mapping[str, Any] | None = None,
                      campaign_modes: Mapping[str, CampaignMode] | None = None,
                      cli: Callable[[], typer.Typer] | None = None,
                      search: SearchAdapterFactory | None = None,
                      pages: Sequence[RulesetPage] = (),
                      queries: tuple[Query, ...] | None = None,
                      pending: PendingOdds | None = None,
                      random_tables: tuple[RandomTable, ...] = ()) -> RefuelledRuleset:
    """A Refuelled ruleset; each argument replaces that part (None: Refuelled's own, but
    no campaign modes: only the shipped rulesets declare theirs). Its search adapter
    (``search``) and tourney offer are Refuelled's unless replaced."""
    from carnage.games.refuelled.ai.bots import BOTS
    from carnage.games.refuelled.odds_queries import REFUELLED_QUERIES
    from carnage.games.refuelled.pending import PENDING
    from carnage.games.refuelled.session import RefuelledGames, replay_log, scenario_list
    from carnage.games.refuelled.setup import new_refuelled_game, restore_refuelled_game
    from carnage.games.refuelled.snapshot_checks import check_refuelled_state
    from carnage.games.refuelled.table_view import REFUELLED_TABLETOP, table_setup, table_svg
    from carnage.games.refuelled.tourney import tourney_offer

    holder: dict[str, RefuelledRuleset] = {}

    def new_game(**kw: Any) -> Game:
        return new_refuelled_game(holder["r"], **kw)

    def restore(doc: dict[str, Any]) -> Game:
        return restore_refuelled_game(holder["r"], doc)

    def scenarios_listed() -> list[ScenarioInfo]:
        return scenario_list(holder["r"])

    def games(request: GameRequest) -> RefuelledGames:
        return RefuelledGames(holder["r"], request)

    def replayed(text: str, source: str) -> ReplayReport:
        return replay_log(holder["r"], text, source)

    r: RefuelledRuleset = Ruleset(
        name=name, title=title,
        rules=rules if rules is not None else refuelled_rules(catalog),
        hooks=hooks if hooks is not None else REFUELLED_HOOKS,
        catalog=catalog if catalog is not None else load_catalog(),
        templates=templates if templates is not None else default_template_set(),
        scenarios=dict(scenarios if scenarios is not None else SCENARIOS),
        new_game=new_game, restore=restore, parent=parent, view=dict(view or {}),
        check_state=check_refuelled_state,
        campaign_modes=campaign_modes if campaign_modes is not None else {},
        scenario_list=scenarios_listed, bots=dict(BOTS), games=games, replay_log=replayed,
        cli=cli, queries=queries if queries is not None else REFUELLED_QUERIES,
        search=search if search is not None else refuelled_search_adapter,
        tourney=tourney_offer(lambda: holder["r"]),
        observation=REFUELLED_OBSERVATION,  # the Kart variant's and Legacy's too
        physical=True,  # companion mode at a real table (engine/table_facts.py)
        # the web table: its tabletop view and how it sets up, stores and rebuilds a game
        table=TableOffer(board_view="refuelled", event_text=table_event_text,
                         tabletop=REFUELLED_TABLETOP,
                         board_svg=table_svg, setup=table_setup(lambda: holder["r"]),
                         board=BOARD, pages=tuple(pages), random_tables=random_tables,
                         pending_odds=pending if pending is not None else PENDING,
                         brief=lambda sid: holder["r"].scenario_class(sid)().brief(),
                         assist=ASSIST),
    )
    holder["r"] = r
    return r


def refuelled_search_adapter(players: int) -> SearchAdapter:
    """What the search bot needs to know of a Refuelled game (``ai/search_adapter.py``),
    imported when a search first asks."""
    from carnage.games.refuelled.ai.search_adapter import RefuelledAdapter

    return RefuelledAdapter(players)


def on_refuelled_engine(ruleset: Ruleset) -> TypeIs[RefuelledRuleset]:
    """Whether ``ruleset`` plays on Refuelled's engine (Refuelled, the Kart variant, Legacy, a
    campaign's or a test's variant of them): its catalogue is a ``Catalog``, its templates a
    ``TemplateSet`` and every scenario a ``TableScenario`` class. Only ``refuelled_ruleset``
    makes such rulesets, so their games are Refuelled's ``Game``."""
    from carnage.catalog.loader import Catalog
    from carnage.games.refuelled.scenarios import TableScenario
    from carnage.geometry.templateset import TemplateSet

    return (isinstance(ruleset.catalog, Catalog) and isinstance(ruleset.templates, TemplateSet)
            and all(isinstance(s, type) and issubclass(s, TableScenario)
                    for s in ruleset.scenarios.values()))


def _campaign_modes() -> dict[str, CampaignMode]:
    """Refuelled's campaign modes (imported when a campaign first asks)."""
    from carnage.games.refuelled.campaign.savage import SAVAGE_HIGHWAYS
    from carnage.games.refuelled.campaign.seasons import CHAMPIONSHIP, ESCALATING
    from carnage.games.refuelled.campaign.televised import TELEVISED

    return {m.id: m for m in (ESCALATING, CHAMPIONSHIP, TELEVISED, SAVAGE_HIGHWAYS)}


REFUELLED = refuelled_ruleset(campaign_modes=LazyMapping(_campaign_modes),
                              random_tables=RANDOM_TABLES)
"""The ruleset of Gaslands: Refuelled as shipped."""
