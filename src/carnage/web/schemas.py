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

from carnage import bounds
from carnage.rulesets import RULESETS


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
Point = tuple[float, float]
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


Controller = Literal["human", "random", "heuristic", "search:easy", "search:normal",
                     "search:hard"]


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
        default="refuelled", max_length=40,
        json_schema_extra={"enum": list(RULESETS)},
        description="A ruleset of the registry (`GET /api/rulesets`): Gaslands: Refuelled, "
        "the Kart variant (its races), Gaslands: Legacy (Legacy teams; none given: generated "
        "ones), Devil's Run (its two gangs).")

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, name: str) -> str:
        if name not in RULESETS:
            raise ValueError(f"unknown ruleset {name!r} (known: {', '.join(RULESETS)})")
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


class GameSummary(BaseModel):
    id: str
    scenario: str
    ruleset: str = "refuelled"
    status: Literal["in_progress", "finished"]
    round: int
    winner: int | None
    created: str
    seats: list[SeatInfo]
    seed_chosen: bool = Field(
        default=True, description="The dice seed was chosen at creation (see GameView).")


class DecisionRequest(_In):
    token: str = Field(
        description="The acting seat's token, or several seats' tokens joined by commas "
        "(hot-seat)."
    )
    version: Whole = Field(description="The view's version the choice was made against.")
    choice: Choice


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


class RulesetSteps(BaseModel):
    steps: list[RulesetView]


class RulesetScenario(BaseModel):
    id: str
    name: str
    page: int | None
    min_players: int
    max_players: int | None
    summary: str


class BoardFiles(BaseModel):
    """Where the table page finds a ruleset's board (``Ruleset.table.board``)."""

    markup: str = Field(description="The board's page (HTML) the table lays out.")
    module: str = Field(description="The board's JS module the table imports.")
    styles: list[str] = Field(description="The board's own stylesheets.")


class RulesetPageLink(BaseModel):
    """A page of a ruleset's own (``Ruleset.table.pages``), as the navigation links it."""

    url: str
    title: str


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
    scenarios: list[RulesetScenario]


class TableSize(BaseModel):
    width: float
    height: float


class PlayerView(BaseModel):
    seat: int
    controller: Controller
    votes: int
    colour: str
    name: str = Field(default="", description="The player's name everywhere: the seat colour.")
    team: str = Field(default="", description="The name of the team the player brought.")


class WeaponView(BaseModel):
    key: str
    id: str
    name: str
    facing: str | None
    range: str = Field(description="Range bands joined by '/', e.g. 'medium'.")
    dice: str = Field(description="Attack dice as printed on a dashboard, e.g. '2D6'.")
    ammo: int | None
    arc: str = Field(default="", description="The arc it fires in: front, rear, side, turret, "
                     "360 (crew-fired and all-round weapons).")
    special_rules: list[str] = Field(default_factory=list, description="Its rules, by name.")


class UpgradeView(BaseModel):
    key: str
    id: str
    name: str
    facing: str | None
    ammo: int | None


class VehicleView(BaseModel):
    id: str
    name: str
    player: int
    type: str
    weight: str
    x: float
    y: float
    heading: float
    length: float
    width: float
    gear: int
    max_gear: int
    hazards: int
    hull: int
    hull_points: int
    handling: int
    crew: int
    status: str
    activated: bool = Field(description="Activated in the current gear phase.")
    weapons: list[WeaponView]
    special_rules: list[str]
    colour: str
    upgrades: list[UpgradeView] = Field(default_factory=list)
    perks: list[str] = Field(default_factory=list, description="Driver perks, by name.")
    rule_names: list[str] = Field(default_factory=list,
                                  description="The special rules, by name (as `special_rules`).")
    neutral: bool = Field(False, description="Belongs to no player (a creature, Truckasaurus): "
                          "`player` is only who decides for it now; drawn in `colour`.")


class ObstacleView(BaseModel):
    id: str
    x: float
    y: float
    length: float
    width: float
    heading: float
    tall: bool
    destructible: bool
    wreck_of: str | None


class SurfaceView(BaseModel):
    id: str
    kind: str
    polygon: list[Point]


class DroppedView(BaseModel):
    """A dropped weapon template on the table (pp.78-80), bottom of any stack first."""

    id: str
    kind: str = Field(description="The dropped weapon that laid it, e.g. mine_dropper.")
    shape: str = Field(description="small_burst or large_burst.")
    polygon: list[Point]


class DrawableView(BaseModel):
    """A mark the scenario puts on the table (engine/scenario_view.py ``Drawable``)."""

    id: str
    kind: Literal["line", "gate", "zone", "token", "spawn", "label"] = Field(
        description="line/gate: points are its two ends; zone: a polygon; token, spawn, "
        "label: points[0] is where it stands.")
    points: list[Point]
    label: str = ""
    number: int | None = Field(default=None, description="A gate's order, a token's count.")
    direction: Point | None = Field(
        default=None, description="Unit vector: the way a line or gate is crossed, or a spawn "
        "faces.")
    owner: int | None = Field(default=None, description="The seat it belongs to, if any.")
    style: str = Field(default="", description="A drawing hint, e.g. start or finish.")


class ReportRowView(BaseModel):
    """A line of the scenario's progress (engine/scenario_view.py ``ReportRow``)."""

    key: str
    label: str
    value: str | int | float | bool | None
    text: str
    tally: bool = False


class OptionView(BaseModel):
    value: str | int
    label: str


class DomainView(BaseModel):
    low: float
    high: float
    unit: str


class DieView(BaseModel):
    number: int = Field(description="The die's number as players count them, from 1.")
    face: str = Field(description="shift, hazard, spin or slide (skid dice); 1-6 (D6).")
    mark: Literal["", "hit", "crit", "miss", "saved", "rerolled", "spent", "cancelled"] = ""


class DiceView(BaseModel):
    kind: Literal["skid", "attack", "evade", "d6"]
    dice: list[DieView]


class PendingView(BaseModel):
    seat: int
    kind: str
    prompt: str
    source: str
    page: int | None
    options: list[OptionView] | None
    domain: DomainView | None
    vehicle: str | None = Field(description="The vehicle the decision is about, if one.")
    target: str | None = Field(
        default=None, description="The other vehicle or obstacle it concerns, if any.")
    weapon: str | None = Field(
        default=None, description="The weapon or upgrade mount key it concerns, if any.")
    rule: str = Field(default="", description="The rule's name in words (from `source`).")
    dice: DiceView | None = Field(
        default=None, description="The skid dice this decision is about (Push It, Shifts).")
    preview: dict[str, Any] | None = Field(
        description=(
            "Drawing help, by kind. template: {vehicle, templates: {value: [polygon...]}} "
            "(each option's template laid in front of, or behind, the vehicle). attack: "
            "{vehicle, weapons: [{key, name, arc, range, targets: [vehicle id], polygons: "
            "[polygon...]}]} (the arc's reach at the weapon's longest range). spin, "
            "lose_control: {vehicle, centre: [x, y], heading, low, high}. grid: {vehicle, "
            "poses: {value: {x, y, heading}}}. Other kinds: {vehicle} or null. Polygons are "
            "lists of [x, y] in table millimetres (y up)."
        )
    )


class LogLine(BaseModel):
    seq: int
    kind: str
    source: str
    page: int | None
    text: str
    rule: str = Field(default="", description="The rule's name in words (from `source`).")
    dice: DiceView | None = Field(default=None, description="The dice rolled, to draw.")


class SecretView(BaseModel):
    """A secret the viewing seat holds or may see (a delivery slip, a noted terrain piece)."""

    key: str
    kind: str
    label: str
    text: str
    owner: int | None = None


class GameView(BaseModel):
    id: str
    version: int = Field(description="Number of choices applied so far.")
    scenario: str
    ruleset: str = "refuelled"
    board_view: str = Field(default="refuelled", description=(
        "The board module the table page loads for this ruleset (`Ruleset.table`)."))
    hull_track: bool = Field(default=True, description=(
        "Show the Hull track (false: the ruleset never damages, as the Kart variant)."))
    round: int
    gear_phase: int
    pole: int
    status: Literal["in_progress", "finished"]
    winner: int | None
    outcome_reason: str
    table: TableSize
    your_seat: int | None
    players: list[PlayerView]
    vehicles: list[VehicleView]
    obstacles: list[ObstacleView]
    surfaces: list[SurfaceView]
    drawables: list[DrawableView] = Field(
        default_factory=list, description="The scenario's marks on the table.")
    report: list[ReportRowView] = Field(
        default_factory=list, description="The scenario's progress, row by row.")
    dropped: list[DroppedView] = Field(default_factory=list)
    pending: PendingView | None
    log: list[LogLine]
    svg_url: str
    seed: int | None = Field(
        default=None, description="The dice seed, revealed once the game is finished.")
    seed_chosen: bool = Field(
        default=True, description="True when the seed was chosen by whoever created the game "
        "(bots, one human, hot-seat); false when the server drew it, unknown to everyone.")
    secrets: list[SecretView] = Field(
        default_factory=list, description="What this seat alone may see (its delivery slip, "
        "its noted terrain piece); other seats' secrets are redacted from the log.")
    bot_notes: list[BotNoteView] = Field(
        default_factory=list, description="The search bots' latest decisions explained, "
        "newest first.")


class BotNoteView(BaseModel):
    """Why a search bot chose what it did: the candidates it weighed and their values."""

    seat: int
    decision: int = Field(description="The choice's index in the game (version before it).")
    kind: str
    chosen: str = Field(description="The choice taken, as text.")
    lines: list[str] = Field(description="The explanation in plain words, one line each.")
    candidates: list[dict[str, Any]] = Field(
        description="Each candidate weighed: choice, label, visits (simulations) and value "
        "(0..1, the bot's estimate of its chance to win after it), best first.")


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
