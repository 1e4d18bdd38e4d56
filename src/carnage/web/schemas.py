"""Request and response schemas of the web API (separate from the engine's own types).

Every payload the API accepts or returns is one of these pydantic models; routes declare them
as response models so ``/docs`` documents the whole contract. Team files travel as plain JSON
objects (the team file format) and are checked by the team loader, so its messages reach the
client unchanged.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
    field_validator,
)

from carnage import bounds, rulesets
from carnage.render.table_schemas import Controller as Controller  # re-exported
from carnage.render.table_schemas import GameView, ScenarioBriefView, ThinkingView
from carnage.rulesets import DEFAULT_RULESET, RULESETS


def _no_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("a boolean is never a choice (JSON true is not the option 1); send "
                         "the option's value")
    return value


Choice = Annotated[
    StrictStr | StrictInt | StrictFloat,
    BeforeValidator(_no_bool),
    Field(description="An option's value, or a number inside the decision's domain (a "
          "boolean is never an option: JSON true is not the option 1)."),
]
PLAYERS = (2, 4)
"""Seats a web table game may have (the table's layout and views are made for two to four)."""


def whole_number(value: Any) -> Any:
    """JSON Schema's ``integer`` includes ``3.0``: a whole float is that integer; a boolean is
    never a number (JSON true is not 1)."""
    if isinstance(value, bool):
        raise ValueError("must be a whole number, not true or false")
    if isinstance(value, float) and value.is_integer() and abs(value) <= bounds.MAX_SEED:
        return int(value)
    return value


Whole = Annotated[StrictInt, BeforeValidator(whole_number)]
"""A whole number as the API's schema promises it (``integer``): 3 or 3.0, never true. A
bounded one puts its ``Field(ge=, le=)`` before the validator (``Seed``), or the published
schema loses the bounds."""
Seed = Annotated[StrictInt, Field(ge=-bounds.MAX_SEED, le=bounds.MAX_SEED),
                 BeforeValidator(whole_number)]
"""A dice seed: a whole number every JSON reader keeps exact (``bounds.MAX_SEED``)."""
Count = Annotated[StrictInt, Field(ge=0, le=bounds.MAX_SEED), BeforeValidator(whole_number)]
"""A version or other count: 0 or more."""


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Message(BaseModel):
    """Every error: one clear sentence."""

    detail: str


# -- teams -------------------------------------------------------------------------------------
class ValidateRequest(_In):
    team: Any = Field(description="A team file as a JSON object (name, cans, vehicles ...).")
    homebrew: bool = False


class TeamBody(_In):
    team: Any = Field(description="A team file as a JSON object.")


class TeamSummary(BaseModel):
    id: str
    name: str
    sponsor: str | None
    cans: int
    total_cans: int
    valid: bool
    owned: bool = Field(description="True when the request carried this team's owner token "
                        "(false: a team opened by its share link).")


class TeamRecord(BaseModel):
    id: str
    team: dict[str, Any]
    report: dict[str, Any] = Field(description="Exactly `carnage team check --json`.")
    owner_token: str | None = Field(
        default=None, description="Only when the team is created: the secret that PUT and "
        "DELETE need in the X-Owner-Token header. Keep it; it is not shown again.")


class ImportRequest(_In):
    text: str
    format: Literal["yaml", "json"] = "yaml"


class ImportResult(BaseModel):
    team: dict[str, Any]
    report: dict[str, Any]


class Deleted(BaseModel):
    id: str
    deleted: bool = True


# -- scenarios and games -----------------------------------------------------------------------
class ScenarioInfo(BaseModel):
    id: str
    name: str
    page: int | None
    players: int
    min_players: int = 2
    max_players: int | None = Field(default=None, description="null: no upper limit")
    summary: str = ""
    table: str | None = Field(default=None, description="The random table of p.122 it is on")


class SeatRequest(_In):
    controller: Controller
    team_id: str | None = Field(
        default=None, description="A saved team's id; null plays the scenario's own team."
    )


class NewGameRequest(_In):
    scenario: str | None = Field(default=None, max_length=80, description=(
        "A scenario id of the ruleset (`GET /api/rulesets`), or random:televised, "
        "random:skirmish or random:special (p.122); null: Street Race where the ruleset has "
        "it, else its first scenario."))
    ruleset: str = Field(
        default=DEFAULT_RULESET, max_length=40,
        json_schema_extra={"enum": list(RULESETS)},
        description="A ruleset of the registry (`GET /api/rulesets`): "
        + ", ".join(f"{name} ({r.title})" for name, r in RULESETS.items()) + ".")

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, name: str) -> str:
        known = rulesets.RULESETS  # the registry as it is now (a test may add a ruleset)
        if name not in known:
            raise ValueError(f"unknown ruleset {name!r} (known: {', '.join(known)})")
        return name
    seed: Seed | None = Field(
        default=None,
        description="Dice seed (used only when at most one human plays); null picks one at "
        "random."
    )
    seats: list[SeatRequest] = Field(min_length=PLAYERS[0], max_length=PLAYERS[1])
    sides: list[list[int]] | None = Field(
        default=None, max_length=8,
        description="Team game (p.123): the seats (from 0) of each side; null: no teams.")
    hot_seat: bool = Field(
        default=False, description="One browser plays every human seat. A given seed is used "
        "only when at most one human plays, hot-seat or not (each human seat still has its "
        "own link, which could be handed to someone else); otherwise the server draws the "
        "dice seed and reveals it when the game ends.")
    physical: bool = Field(
        default=False, description="Companion mode: played with real cars and templates on "
        "a real table (the ruleset asks what only the table can tell where it offers that); "
        "the last human answer may be undone (`POST /api/games/{id}/undo`), as in hot-seat.")
    dice: Literal["screen", "table"] = Field(
        default="screen", description="`screen`: the server rolls the dice (seeded); "
        "`table`: people roll real dice and enter the faces (a `table_dice` decision).")
    screen_dice: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list, max_length=16, description="With table dice: the groups still "
        "rolled on screen, each a roll's source or its words as the log names them, e.g. "
        "`skid_dice`, `attack`, `evade`.")


class SeatCreated(BaseModel):
    seat: int
    controller: Controller
    token: str | None = Field(description="The seat's secret; only human seats have one.")
    url: str | None = Field(description="The table page for this seat (humans only).")


class GameCreated(BaseModel):
    id: str
    seats: list[SeatCreated]
    seed: int | None = Field(
        default=None, description="The seed given, when it is used; null when the server drew "
        "the seed (it is revealed in the game view once the game is finished).")


class SeatInfo(BaseModel):
    seat: int
    controller: Controller
    name: str = Field(default="", description="The seat in words: its colour, or what it "
                      "plays in a ruleset that names its seats.")
    team: str = Field(default="", description="The team it brought, by name (empty: none).")


class GameSummary(BaseModel):
    id: str
    scenario: str
    ruleset: str = DEFAULT_RULESET
    status: Literal["in_progress", "finished"]
    round: int
    winner: int | None
    created: str
    seats: list[SeatInfo]
    seed_chosen: bool = Field(
        default=True, description="The dice seed was chosen at creation (see GameView).")
    scenario_name: str = Field(default="", description="The scenario by its name.")
    ruleset_title: str = Field(default="", description="The ruleset by its title.")
    status_text: str = Field(default="", description=(
        "Where the game stands in words: the round and who won (\"Round 3, in progress\", "
        "\"Finished in round 5: Red Racers (Red) won\")."))


class DecisionRequest(_In):
    token: str = Field(
        description="The acting seat's token, or several seats' tokens joined by commas "
        "(hot-seat)."
    )
    version: Whole = Field(description="The view's version the choice was made against.")
    choice: Choice
    then: list[ThenStep] = Field(
        default_factory=list, max_length=32,
        description="Answers for the decisions of the same seat that follow, in the same "
        "action: each is given while the decision then pending is of its kind (the first "
        "that is not ends the action there); one refused answer refuses them all. The "
        "pending decision's `shortcuts` and `follow_up` say what the table offers.")


class ThenStep(_In):
    kind: str = Field(min_length=1, max_length=60,
                      description="The kind of decision this answer is for.")
    choice: Choice


class PreferenceRequest(_In):
    token: str = Field(description="The seat's token (several joined by commas: each seat).")
    key: str = Field(min_length=1, max_length=60,
                     description="The optional prompt's key (the pending `preference.key`).")
    value: Literal["ask", "matters", "never"] = Field(
        description='Ask each time, only when it matters, or never.')


class UndoRequest(_In):
    token: str = Field(description="The asking seat's token (one shared phone or a hot-seat "
                       "screen: every human seat's, joined by commas).")
    version: Whole = Field(description="The view's version the undo was asked against.")


class Undone(BaseModel):
    id: str
    version: int = Field(description="The game's version now: higher than any before, so a "
                         "client of the undone state is stale.")
    undone: bool = Field(default=True, description="False: the undo waits for other seats to "
                         "agree (ruling CP-20: each asks it from its own phone).")
    waits_for: list[str] = Field(default_factory=list,
                                 description="The seats whose agreement the undo waits for.")
    message: str = Field(default="", description="Why it waits, in words.")


# -- the game view -----------------------------------------------------------------------------
class RulesetView(BaseModel):
    """The game as a ruleset with its own board view shows it (``Ruleset.table.view``, e.g.
    Devil's Run's grid): these fields, and whatever its board module draws."""

    model_config = ConfigDict(extra="allow")

    id: str
    ruleset: str
    board_view: str = Field(description="The board module the table page loads.")
    version: int = Field(description="Number of choices applied so far.")
    status: Literal["in_progress", "finished"]
    your_seat: int | None
    your_turn: bool
    log: list[dict[str, Any]]
    thinking: ThinkingView | None = Field(default=None, description=(
        "The bot the game waits for while the server computes its choice (null: nobody)."))
    undo_asked: list[int] = Field(default_factory=list, description=(
        "The seats that asked to undo the last answer at this version, waiting for the "
        "other players to agree (ruling CP-20)."))


class RulesetSteps(BaseModel):
    steps: list[RulesetView]


class RulesetScenario(BaseModel):
    id: str
    name: str
    page: int | None
    min_players: int
    max_players: int | None
    summary: str
    brief: ScenarioBriefView | None = Field(
        default=None, description="The scenario in our words: how it is won, its special "
        "rules with their pages, what this ruleset changes (`TableOffer.brief`).")


class BoardFiles(BaseModel):
    """Where the table page finds a ruleset's board (``Ruleset.table.board``)."""

    markup: str = Field(description="The board's page (HTML) the table lays out.")
    module: str = Field(description="The board's JS module the table imports.")
    styles: list[str] = Field(description="The board's own stylesheets.")


class RulesetPageLink(BaseModel):
    """A page of a ruleset's own (``Ruleset.table.pages``), as the navigation links it."""

    url: str
    title: str


class BotStrength(BaseModel):
    """A bot a seat may be given, with how strong the ladder measured it in this ruleset
    (``benchmarks/ladder.py --write``, ``carnage.ai.strength``)."""

    name: str = Field(description="The seat's controller, e.g. `search:hard`.")
    rated: bool = Field(description="The ladder measured it in this ruleset.")
    words: str = Field(description="Its strength in plain words, e.g. \"rated 420 (won 14 of 24), "
                       "thinks about 0.4 s\", or \"not yet rated\".")
    detail: str = Field(default="", description="How it was measured: the yardstick, the "
                        "interval, the games and the day (empty when not rated).")
    elo: float | None = Field(default=None, description="Its Elo rating (None: not rated).")
    low: float | None = Field(default=None, description="The 95% interval's low end.")
    high: float | None = Field(default=None, description="The 95% interval's high end.")
    games: int | None = Field(default=None, description="Games it played in the ladder.")
    think_seconds: float | None = Field(
        default=None, description="Its median CPU seconds per decision (what `words` says).")
    think_wall_seconds: float | None = Field(
        default=None, description="Its median wall-clock seconds per decision in the ladder "
        "(longer on a busy machine).")
    scenario: str | None = Field(default=None, description="The scenario the ladder played.")
    date: str | None = Field(default=None, description="The day the ladder ran.")


class RandomTable(BaseModel):
    """A table a new game's scenario may be rolled on (p.122): send ``value`` as the
    scenario."""

    value: str
    name: str
    page: int | None = None


class RulesetInfo(BaseModel):
    """What a ruleset of the registry offers the lobby and the table."""

    name: str
    title: str
    parent: str | None
    board_view: str = Field(description="The board module its table loads.")
    seats: tuple[int, int] = Field(description="Fewest and most seats of a game.")
    own_teams: bool = Field(description="It brings its own teams (no saved team takes a "
                            "seat).")
    seat_names: list[str] = Field(description="What each seat plays (empty: colours).")
    cards: str | None = Field(description="Printable stat cards (SVG), if it has them.")
    board: BoardFiles | None = Field(
        default=None, description="The files of its board (None: no table in the browser).")
    pages: list[RulesetPageLink] = Field(default_factory=list,
                                         description="Its own pages beside the table.")
    replay: bool = Field(default=False, description="Its finished games can be stepped "
                         "through on the replay page (the tabletop's view).")
    random_tables: list[RandomTable] = Field(
        default_factory=list, description="Tables a new game's scenario may be rolled on "
        "(send the value in place of a scenario id; the server rolls with the game's seed).")
    scenarios: list[RulesetScenario]
    bots: list[BotStrength] = Field(
        default_factory=list, description="The bots a seat may be given, with their "
        "measured strength and think time in this ruleset.")


class Replay(BaseModel):
    steps: list[GameView] = Field(
        description="The view after 0, 1, ... N choices. In this list each step's log holds "
        "only the events since the step before (ask ?step=N for a full view)."
    )


class EventJson(BaseModel):
    seq: int
    kind: str
    source: str
    page: int | None = None
    data: dict[str, Any]
