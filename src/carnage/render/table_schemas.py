"""The tabletop view's JSON shapes: what a client sees of a game on the Refuelled engine (its
table, vehicles, pending decision with drawing help, log lines with their dice, secrets) and the
log line every table shows. Neutral: the Refuelled package builds them
(``games/refuelled/table_view.py``), the web API serialises and documents them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, Field

from carnage.kernel.game import KernelGame
from carnage.kernel.secrets import visible_secrets

Point = tuple[float, float]

Controller = Literal["human", "random", "heuristic", "search:easy", "search:normal",
                     "search:hard"]


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


class CiteView(BaseModel):
    """Where a rule is written (``kernel/briefing.py`` ``Cite``)."""

    book: str
    page: int | None = None
    last: int | None = None
    where: str = Field(default="", description="A section or the seed text's lines, for a "
                       "book without page numbers.")
    text: str = Field(description="In words: 'Refuelled p.125', 'Kart variant, Wipeout'.")


class BriefRuleView(BaseModel):
    name: str
    text: str = Field(description="The rule in our own words.")
    cite: CiteView


class ScenarioBriefView(BaseModel):
    """The scenario described from its own data (``kernel/briefing.py`` ``ScenarioBrief``)."""

    id: str
    name: str
    summary: str
    goal: str = Field(description="How it is won and when it ends.")
    cite: CiteView = Field(description="The scenario's own pages.")
    rules: list[BriefRuleView] = Field(default_factory=list)
    variant: str = Field(default="", description="The ruleset that changes it, or ''.")
    differs: list[BriefRuleView] = Field(default_factory=list,
                                         description="What differs in `variant`.")


class ScoreRowView(BaseModel):
    seat: int
    name: str = Field(description="The seat by its team's name (else its colour).")
    team: str = ""
    score: str = Field(description="Its progress in the scenario's terms.")
    details: list[str] = Field(default_factory=list)
    out: bool = Field(default=False, description="No vehicle of the seat in play.")
    leading: bool = False


class ScoreboardView(BaseModel):
    """The game's progress in the scenario's terms, one row per seat, best first."""

    title: str
    target: str = ""
    rows: list[ScoreRowView] = Field(default_factory=list)


class OptionView(BaseModel):
    value: str | int
    label: str
    friendly: bool | None = Field(default=None, description=(
        "An attack's target: true for a vehicle of the attacker's own seat (legal, Refuelled "
        "p.30; listed after the enemies), false for an enemy; null for any other option."))


class DomainView(BaseModel):
    low: float
    high: float
    unit: str


class DieView(BaseModel):
    number: int = Field(description="The die's number as players count them, from 1.")
    face: str = Field(description="shift, hazard, spin or slide (skid dice); 1-6 (D6).")
    mark: Literal["", "hit", "crit", "miss", "saved", "rerolled", "spent", "cancelled"] = ""
    free: bool = Field(default=False, description=(
        "A bonus Shift result no die rolled: a trivial manoeuvre's (Refuelled p.40) or a "
        "template's Shift icon; counted with the rolled Shifts."))


class DiceView(BaseModel):
    kind: Literal["skid", "attack", "evade", "d6"]
    dice: list[DieView]


class ThinkingView(BaseModel):
    """A bot is to decide and the server computes its choice apart (its bot pool): the view
    is pushed again when it has answered."""

    seat: int
    team: str = Field(description="The thinking seat's team (or seat) in plain words.")
    version: int = Field(description="The version the bot decides at.")
    since: str = Field(description="When it began to think, or failed (ISO 8601, UTC).")
    failed: str | None = Field(default=None, description=(
        "Why the bot could not decide (the game waits as it stood); null while it thinks."))
class StepView(BaseModel):
    """One answer of a shortcut: the kind of decision it answers and the choice."""

    kind: str
    choice: str | int | float


class ShortcutView(BaseModel):
    """Answers sent in one action (POST ``choice`` with ``then``): the table's
    ``kernel/assist.py`` shortcuts."""

    label: str
    choice: str | int | float
    then: list[StepView] = Field(default_factory=list)
    intent: str = Field(default="", description='What it does: "keep", "fire_at" ...')


class FollowUpView(BaseModel):
    """The next question of the same seat, answerable in the same action (``then``)."""

    kind: str
    options: list[str | int]
    prompt: str = ""


class PreferenceView(BaseModel):
    """An optional prompt's preference for the viewing seat (``PUT .../preferences``)."""

    key: str
    label: str
    value: str = Field(description='"ask" each time, only when it "matters", or "never"')
    choices: dict[str, str] = Field(description="Each value in words.")


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
    shortcuts: list[ShortcutView] = Field(
        default_factory=list, description="Answers the seat may send in one action.")
    follow_up: FollowUpView | None = Field(
        default=None, description="The next question, answerable with this one (`then`).")
    preference: PreferenceView | None = Field(
        default=None, description="An optional prompt: how the seat wants it asked.")


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
    ruleset: str
    board_view: str = Field(description=(
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
    brief: ScenarioBriefView | None = Field(
        default=None, description="The scenario in our words: how it is won, its special "
        "rules with their pages, what this ruleset changes.")
    scoreboard: ScoreboardView | None = Field(
        default=None, description="Each seat's progress in the scenario's terms, named by "
        "its team.")
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
    thinking: ThinkingView | None = Field(default=None, description=(
        "The bot the game waits for while the server computes its choice (null: nobody)."))
    undo_asked: list[int] = Field(default_factory=list, description=(
        "The seats that asked to undo the last answer at this version, waiting for the "
        "other players to agree (ruling CP-20: each taps Undo on their own phone)."))


class BotNoteView(BaseModel):
    """Why a search bot chose what it did: the candidates it weighed and their values."""

    seat: int
    decision: int = Field(description="The choice's index in the game (version before it).")
    kind: str
    chosen: str = Field(description="The choice taken, as text.")
    lines: list[str] = Field(description="The explanation in plain words, one line each.")
    reason: str = Field(default="", description=(
        "Why, in one short plain sentence: e.g. \"won 14 of 22 playouts, next best 9 of 21\" "
        "(every playout played to the end), else each one's mean value."))
    candidates: list[dict[str, Any]] = Field(
        description="Each candidate weighed: choice, label, visits (simulations) and value "
        "(0..1, the bot's estimate of its chance to win after it), best first.")


def secret_views(game: KernelGame[Any], viewers: Iterable[int]) -> list[SecretView]:
    """The secrets ``viewers`` hold or may see, for their view."""
    if getattr(game.state, "secrets", None) is None:
        return []
    return [SecretView(key=k, kind=s.kind, label=s.label, text=s.text, owner=s.owner)
            for k, s in visible_secrets(game, viewers)]
