"""A ruleset: everything one game of the family needs, owned in one object.

A ``Ruleset`` holds its catalogue, its movement templates, its rule table (installers), its
declared hooks and its scenarios, and makes and restores its games. Nothing is process-wide:
two rulesets (or one with a modified catalogue, as a Legacy campaign has) run side by side in
one process. An overlay (the Kart variant) is ``dataclasses.replace`` of its parent with what
differs. ``Rulesets`` finds them by name.

``Ruleset`` is generic in what only its own game reads: its catalogue, its template set, its
scenarios and its game. A game package names the types of its own (Refuelled's
``RefuelledRuleset`` is ``Ruleset[Catalog, TemplateSet, type[TableScenario], Game]``), so
mypy checks both that its ruleset object is built of them and every read of them in the game.
Generic layers write plain ``Ruleset``: the defaults, which say what they may ask of those
parts and no more (a catalogue and a template set are opaque, a scenario is a
``ScenarioEntry``, a game a ``PlayableGame``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, Protocol

from typing_extensions import TypeVar

from carnage.kernel.assist import TableAssist
from carnage.kernel.briefing import ScenarioBrief
from carnage.kernel.campaign_modes import CampaignMode
from carnage.kernel.contract import Bot, PlayableGame
from carnage.kernel.dice import DiceSource
from carnage.kernel.events import JsonValue
from carnage.kernel.hooks import HookRegistry
from carnage.kernel.observation import ObservationOffer
from carnage.kernel.odds import PendingOdds
from carnage.kernel.queries import Query
from carnage.kernel.rules import RuleTable
from carnage.kernel.search import SearchAdapterFactory
from carnage.kernel.session import GameMaker, GameRequest, ReplayReport
from carnage.kernel.table import TableSetup, Tabletop
from carnage.kernel.tourney import TourneyOffer

if TYPE_CHECKING:
    import typer


class ScenarioEntry(Protocol):
    """What generic code asks of a scenario a ruleset registers: its id, its name and its
    page. Refuelled registers scenario classes (a game makes its own instance), Devil's Run
    records of its missions; both keep this."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def page(self) -> int | None: ...


CatalogT = TypeVar("CatalogT", covariant=True, default=object)
"""A ruleset's catalogue: opaque to generic code (only its own game reads it)."""
TemplatesT = TypeVar("TemplatesT", covariant=True, default=object)
"""A ruleset's movement templates: opaque to generic code (None: it has none, a grid game)."""
ScenarioT = TypeVar("ScenarioT", bound=ScenarioEntry, covariant=True, default=ScenarioEntry)
"""What a ruleset registers per scenario id."""
GameT = TypeVar("GameT", bound=PlayableGame, covariant=True, default=PlayableGame)
"""A ruleset's game."""


class NewGame(Protocol[GameT]):
    """``new_game(scenario=..., teams=..., seed=..., dice=..., **options)`` -> a started game.
    ``teams`` one per player as the ruleset takes them (none: the scenario's own);
    ``options`` are the ruleset's own (Refuelled: ``players``, ``max_rounds``...)."""

    def __call__(self, *, scenario: str = ..., teams: Sequence[Any] = ...,
                 seed: int | str = ..., dice: DiceSource | None = ...,
                 **options: Any) -> GameT: ...


@dataclass(frozen=True)
class ScenarioInfo:
    """What a list of scenarios shows: id, name, page, players, a line in our own words."""

    id: str
    name: str
    page: int | None
    players: str
    description: str
    min_players: int = 2
    max_players: int | None = 2
    """None: no upper limit."""
    lines: str | None = None
    """Where a rulebook without page numbers has it (the seed text's lines), if anywhere."""
    extra: Mapping[str, JsonValue] = field(default_factory=dict)
    """What else the ruleset says of it (Refuelled: ``table``, the random table of p.122)."""


def players_text(low: int, high: int | None) -> str:
    """``2``, ``2-4`` or ``2+`` (no upper limit)."""
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}-{high}"


@dataclass(frozen=True)
class WebFiles:
    """A folder of browser files a game package ships (HTML, JS modules, CSS), which the web
    app serves as they are at ``/static/games/<key>/<file>``. Overlays share their parent's
    (the Kart variant draws with Refuelled's board): the same ``WebFiles``, never a copy."""

    key: str
    """Its name in the URL: lower-case letters, digits and hyphens (``refuelled``)."""
    directory: Path
    """The folder in the game package (``games/<game>/web``), shipped as package data."""


@dataclass(frozen=True)
class BoardAssets:
    """Which of a ``WebFiles`` folder's files draw a ruleset's table in the browser: the
    table page lays out ``markup`` (its body, and its generic stylesheets), adds ``styles``
    and imports ``module``, which plays the game from there."""

    files: WebFiles
    markup: str
    """The board's page (HTML), a file of ``files``."""
    module: str
    """The board's JS module, a file of ``files``; it imports the generic modules by their
    absolute URLs (``/static/js/api.js``)."""
    styles: tuple[str, ...] = ()
    """The board's own stylesheets, files of ``files``."""


@dataclass(frozen=True)
class RulesetPage:
    """A page of its own a ruleset offers beside the table (Legacy's vehicle generator),
    served at ``/rulesets/<ruleset>/<path>`` and linked from the pages' navigation."""

    path: str
    """Its URL segment under the ruleset (lower-case letters, digits and hyphens)."""
    title: str
    """Its link text."""
    files: WebFiles
    """The folder it is in (its scripts and styles are served from there too)."""
    file: str
    """The page (HTML), a file of ``files``."""
    aliases: tuple[str, ...] = ()
    """Older URLs of the page (``/legacy``), redirected to it."""


@dataclass(frozen=True)
class RandomTable:
    """A table a new game's scenario may be rolled on: the lobby sends ``value`` in place of a
    scenario id and the ruleset rolls it with the game's seed."""

    value: str
    """``random:televised``."""
    name: str
    """``Televised Event``."""
    page: int | None = None


@dataclass(frozen=True)
class MovedUrl:
    """An address a ruleset's games or pages had before they took the one path every ruleset
    takes, kept as a permanent redirect (308: the method and the body are kept)."""

    old: str
    """The old path, its parts in braces (``/api/devils-run/games/{gid}``)."""
    new: str
    """Where it is now, the same parts in braces (``/api/games/{gid}``); a query string of
    its own replaces the request's (``/api/scenarios?ruleset=devils-run``)."""
    methods: tuple[str, ...] = ("GET",)


@dataclass(frozen=True)
class TableOffer:
    """What the web table shows of a ruleset's games: which board module draws them and,
    for a ruleset with its own view (not the Refuelled engine's tabletop), how a game is shown,
    told and played by bots. web/ reads only this; it never imports a game package."""

    board_view: str = ""
    """The name of the board the table draws (the game's view says it); its files are
    ``board``. Empty: the ruleset has no board in the browser."""
    event_text: Callable[[Any, Any], str] | None = None
    """``event_text(game, event)`` -> the event as one sentence, for the table's log (Refuelled:
    ``games/refuelled/text.py``, Devil's Run: ``games/devilsrun/text.py``)."""
    view: Callable[[Any, Sequence[int]], dict[str, Any]] | None = None
    """``view(game, seats)`` -> the game as JSON for those seats (the board, vehicles, the
    pending decision in words with its odds, the dice), which the table frames with the fields
    every view has; None: the ruleset draws its own ``tabletop``."""
    rule_text: Callable[[str], str] | None = None
    """``rule_text(source)`` -> the rule a log line cites, in words."""
    rule_name: Callable[[str], str] | None = None
    """``rule_name(source)`` -> the short name a log line's rule label shows ("Side Swipe",
    "BRAKE! (our ruling)"); ``rule_text`` is its longer explanation. None: the label is the
    event's ``source`` as it is."""
    quiet: frozenset[str] = frozenset()
    """Event kinds the table's log does not show."""
    seats: tuple[int, int] = (2, 4)
    """Fewest and most seats a game of the ruleset has."""
    own_teams: bool = False
    """The ruleset brings its teams (no saved team may take a seat)."""
    seat_names: tuple[str, ...] = ()
    """What each seat plays, in words (empty: the players' colours)."""
    board_svg: Callable[[Any], str] | None = None
    """``board_svg(game)`` -> the table as SVG (None: the ``tabletop`` draws it, or none)."""
    cards_svg: Callable[[], str] | None = None
    """Printable stat cards of the ruleset's vehicles, as SVG (None: it has none)."""
    board: BoardAssets | None = None
    """The browser files that draw its table (in its game package; an overlay keeps its
    parent's). None: no table in the browser."""
    pages: tuple[RulesetPage, ...] = ()
    """Its own pages beside the table (the lobby's navigation links them)."""
    moved: tuple[MovedUrl, ...] = ()
    random_tables: tuple[RandomTable, ...] = ()
    """Tables a new game's scenario may be rolled on (Refuelled's three of p.122)."""
    """Addresses its games had before, redirected to where they are now."""
    pending_odds: PendingOdds | None = None
    """The odds of each option of a game's pending decision (``/api/odds/games/{gid}/pending``);
    None: the ruleset shows none."""
    tabletop: Tabletop | None = None
    """The ruleset draws its own tabletop (``kernel/table.py``: whole views, log lines with
    their dice, refusals in its words; Refuelled's: ``games/refuelled/table_view.py``). None:
    the table frames ``view``, tells the log with ``event_text`` and draws ``board_svg``."""
    setup: TableSetup | None = None
    """How the table sets up, stores and rebuilds its games (``kernel/table.py``). None: the
    set-up is ``{"ruleset", "scenario", "seed"}`` and a game is ``Ruleset.new_game`` of it,
    with the ruleset's own teams."""
    brief: Callable[[str], ScenarioBrief] | None = None
    """``brief(scenario_id)`` -> the scenario described from its own data (``kernel/
    briefing.py``: how it is won, its special rules with their pages, what this ruleset
    changes), for the lobby; a game's view carries its own (its options may change it).
    ``ValueError`` for an unknown id. None: the ruleset describes none."""
    assist: TableAssist | None = None
    """Which of its questions the table answers by itself and the shortcuts it offers
    (``kernel/assist.py``; Refuelled's: ``games/refuelled/assist.py``). None: only a question
    with one legal answer is answered by itself."""


@dataclass(frozen=True)
class Ruleset(Generic[CatalogT, TemplatesT, ScenarioT, GameT]):
    name: str
    title: str
    rules: RuleTable
    hooks: HookRegistry
    catalog: CatalogT
    """The ruleset's catalogue (Refuelled's: ``carnage.catalog.Catalog``)."""
    templates: TemplatesT
    """Its movement templates (``geometry.templateset.TemplateSet`` for Refuelled)."""
    scenarios: Mapping[str, ScenarioT]
    """Scenario id -> scenario (Refuelled: the class; a game makes its own instance)."""
    new_game: NewGame[GameT] = field(compare=False)
    """``new_game(scenario=..., teams=..., seed=..., **options)`` -> a started game."""
    restore: Callable[[dict[str, Any]], GameT] = field(compare=False)
    """``restore(snapshot_doc)`` -> the game, as it was (``SnapshotError`` if it cannot).
    The document is parsed JSON, read and checked by the ruleset itself."""
    parent: str | None = None
    """The ruleset this one overlays (None: its own game)."""
    view: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """Flags for the table's views (``{"hull": False}``: no Hull track, nothing damages)."""
    check_state: Callable[[Any, Any], None] | None = field(default=None, compare=False)
    """``check_state(game, state)``: the ruleset's invariants of a state restored from a
    snapshot (its types are checked by the kernel first); raises ``validate.Invalid`` naming
    the field. None: no check beyond the types."""

    # What campaigns use
    campaign_modes: Mapping[str, CampaignMode] = field(
        default_factory=lambda: MappingProxyType({}), compare=False)
    """Campaign mode id -> the mode (``carnage.campaign.modes.Mode``); the campaign layer finds
    modes here only. Usually a ``kernel.campaign_modes.LazyMapping``: read on first use."""

    # What the CLI, bots and tourneys use
    scenario_list: Callable[[], Sequence[ScenarioInfo]] | None = field(default=None,
                                                                      compare=False)
    """Its scenarios as a list shows them, in order (None: none to show)."""
    bots: Mapping[str, Callable[[], Bot]] = field(default_factory=dict, compare=False)
    """Bot name -> a new bot (every one keeps ``kernel/contract.py`` ``Bot``)."""
    default_bots: tuple[str, str] = ("heuristic", "random")
    """Who plays when the command line names no bots."""
    games: Callable[[GameRequest], GameMaker] | None = field(default=None, compare=False)
    """Games of a request (``carnage play|simulate``); ``SetupRefused`` names what is wrong."""
    replay_log: Callable[[str, str], ReplayReport] | None = field(default=None, compare=False)
    """``replay_log(text, source)``: a log written by its ``GameMaker`` replayed and compared
    (``carnage replay``); ``SetupRefused`` if it cannot be read or replayed."""
    cli: Callable[[], typer.Typer] | None = field(default=None, compare=False)
    """Its own extra commands (``carnage <name> ...``), made when the command line starts."""
    search: SearchAdapterFactory | None = field(default=None, compare=False)
    """``search(players)`` -> what the search bot (``ai/search.py``) needs to know of a game of
    this ruleset (``kernel/search.py`` ``SearchAdapter``: rollout policy, order of candidates,
    value of a position); the search finds it through the game's ruleset. None: the search's
    generic adapter (random rollouts, outcomes only)."""
    tourney: TourneyOffer | None = field(default=None, compare=False)
    """What a tourney (``analysis/tourney.py``) needs of its games (``kernel/tourney.py``);
    None: it plays no tourney."""
    observation: ObservationOffer | None = field(default=None, compare=False)
    """Its games as fixed-size vectors per seat (``kernel/observation.py``), what the
    reinforcement-learning environment (``rl/env.py``) observes; None: no environment."""
    physical: bool = False
    """Its games may be played in companion mode (``new_game(..., physical=True)``,
    ``carnage play|simulate --physical``): people drive real cars on a real table, and every
    fact the rules measure there becomes a decision for them (Refuelled's
    ``engine/table_facts.py``)."""
    queries: tuple[Query, ...] = field(default=(), compare=False)
    """What it answers outside a game (``kernel/queries.py``): its odds calculator's queries
    (``carnage odds <path>``, ``/api/odds/<path>``), built into commands and routes from
    these declarations. An overlay lists those of its parent that still hold for it."""

    def scenario_infos(self) -> tuple[ScenarioInfo, ...]:
        """Its scenarios as a list shows them (``scenario_list``), in order."""
        return tuple(self.scenario_list()) if self.scenario_list is not None else ()

    def make_bot(self, name: str) -> Bot:
        """A new bot called ``name``; ``ValueError`` naming this ruleset's bots."""
        try:
            factory = self.bots[name]
        except KeyError:
            known = ", ".join(self.bots) or "none"
            raise ValueError(f"unknown bot {name!r} for {self.title} (bots: {known})") from None
        return factory()

    # What the table shows (web/)
    table: TableOffer = field(default_factory=TableOffer, compare=False)
    """The board module, the view and the sentences the web table uses for this ruleset."""

    def scenario_class(self, scenario_id: str) -> ScenarioT:
        """The scenario registered as ``scenario_id``; ``ValueError`` naming the known ids."""
        try:
            return self.scenarios[scenario_id]
        except KeyError:
            known = ", ".join(sorted(self.scenarios))
            raise ValueError(
                f"unknown scenario {scenario_id!r} for {self.title} (known: {known})") from None


class Rulesets(Mapping[str, Ruleset]):
    """An immutable collection of rulesets by name; ``with_ruleset`` returns a new one."""

    def __init__(self, rulesets: Mapping[str, Ruleset] | None = None) -> None:
        self._by_name: Mapping[str, Ruleset] = MappingProxyType(dict(rulesets or {}))

    def __getitem__(self, name: str) -> Ruleset:
        try:
            return self._by_name[name]
        except KeyError:
            known = ", ".join(sorted(self._by_name))
            raise KeyError(f"unknown ruleset {name!r} (known: {known})") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def with_ruleset(self, ruleset: Ruleset) -> Rulesets:
        """These rulesets and ``ruleset`` (replacing one of the same name)."""
        return Rulesets({**self._by_name, ruleset.name: ruleset})
