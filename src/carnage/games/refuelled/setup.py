"""Setting up a game from teams, and saving and replaying it.

``vehicle_state`` turns a team builder ``VehicleReport`` (derived hull, handling, max gear,
crew, weight, weapons with facings and ammo) into a ``VehicleState`` with its footprint.
``GameSetup`` is everything needed to rebuild a game: the scenario id, one team per player and
the rule options. ``build_game(setup, seed)`` makes the ``Game``; with the list of choices it
replays exactly. A game log (JSON lines) is a header with the setup, the seed and the choices,
followed by the events; ``replay_log`` rebuilds the game and compares the events.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carnage import bounds, guard
from carnage.games.refuelled.engine.game import Game, RuleOptions
from carnage.games.refuelled.engine.state import GameState, UpgradeMount, VehicleState, WeaponMount
from carnage.geometry.footprints import footprint
from carnage.geometry.shapes import Pose
from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.dice import DiceSource, ScriptedDice, SeededDice, check_dice_source
from carnage.kernel.events import Event, EventLog, JsonValue
from carnage.kernel.game import SnapshotError
from carnage.kernel.ruleset import Ruleset

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.ruleset_type import RefuelledRuleset
    from carnage.games.refuelled.scenarios import TableScenario
from carnage.kernel.session import SetupRefused
from carnage.team import TeamFileError, TeamReport, TeamSpec, VehicleReport, check_team
from carnage.team.io import parse_team

LOG_VERSION = 1


class SetupError(SetupRefused):
    """A game cannot be set up (illegal team, unknown scenario, bad log); one-line message."""


# -- vehicles from the team builder ------------------------------------------------------------
def vehicle_state(report: VehicleReport, *, vid: str, player: int, pose: Pose) -> VehicleState:
    """A vehicle in its starting state, as built. An articulated vehicle is its cab."""
    if report.weight is None:
        raise SetupError(f"{report.name}: unknown vehicle type {report.type!r}")
    try:
        length, width = footprint(report.type)
    except ValueError as e:
        raise SetupError(f"{report.name}: {e}") from None
    weapons = [
        WeaponMount(
            key=f"{w.id}#{i}", weapon=w.id,
            facing=None if w.facing is None else str(w.facing), ammo=w.ammo,
            part="trailer" if w.mount is not None and str(w.mount) == "trailer" else None,
        )
        for i, w in enumerate(report.weapons)
    ]
    return VehicleState(
        id=vid, name=report.name, player=player, type=report.type, weight=report.weight,
        hull=report.hull, handling=report.handling, max_gear=report.max_gear, crew=report.crew,
        length=length, width=width, pose=pose, weapons=weapons,
        upgrades=[u.id for u in report.upgrades], perks=[p.id for p in report.perks],
        fitted=[  # facings and ammo of upgrades (Ram, Exploding Ram, Nitro Booster)
            UpgradeMount(f"{u.id}#{i}", u.id, None if u.facing is None else str(u.facing),
                         u.ammo)
            for i, u in enumerate(report.upgrades)
        ],
        special_rules=list(report.special_rules),
    )


@lru_cache(maxsize=1024)
def _slug(name: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return s or "vehicle"


@lru_cache(maxsize=64)
def _report(spec: TeamSpec) -> TeamReport:
    return check_team(spec)


def _checked(spec: TeamSpec, ruleset: RefuelledRuleset | None) -> TeamReport:
    """Refuelled's catalogue: the shared cached report; another catalogue: checked afresh."""
    from carnage.games.refuelled.ruleset import REFUELLED

    if ruleset is None or ruleset.catalog is REFUELLED.catalog:
        return _report(spec)
    return check_team(spec, ruleset.catalog)


def checked_team(spec: TeamSpec, who: str, ruleset: Ruleset | None = None) -> TeamReport:
    """The team's report; ``SetupError`` with its first violation if it is not legal (or if
    ``ruleset`` is not on Refuelled's engine). Reports are immutable, so one is shared by every
    game built from the same team."""
    report = _checked(spec, None if ruleset is None else engine_ruleset(ruleset))
    if not report.valid:
        more = f" (and {len(report.errors) - 1} more)" if len(report.errors) > 1 else ""
        raise SetupError(f"{who} ({spec.name}): {report.errors[0].message}{more}")
    if not report.vehicles:
        raise SetupError(f"{who} ({spec.name}): the team has no vehicles")
    return report


def add_team(state: GameState, report: TeamReport, player: int) -> list[VehicleState]:
    """Add a team's vehicles to ``state`` for ``player``, off the table until deployed
    (ids ``p<seat>-<name>``)."""
    out = []
    for i, vr in enumerate(report.vehicles):
        base = f"p{player + 1}-{_slug(vr.name)}"
        vid, n = base, 2
        while vid in state.vehicles:
            vid, n = f"{base}-{n}", n + 1
        parked = Pose(-200.0 - 100.0 * i, -200.0 - 100.0 * player, 90.0)
        v = vehicle_state(vr, vid=vid, player=player, pose=parked)
        state.vehicles[vid] = v
        out.append(v)
    return out


# -- a whole game ------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSetup:
    """Everything but the dice and the choices: enough to rebuild a game exactly."""

    scenario: str = "street-race"
    teams: tuple[TeamSpec, ...] = ()
    """One team per player, in seat (clockwise) order; empty: the scenario's own teams."""
    players: int = 2
    max_rounds: int = RuleOptions.max_rounds
    touch_it_use_it: bool = RuleOptions.touch_it_use_it
    ruleset: str = "refuelled"
    sides: tuple[tuple[int, ...], ...] = ()
    """Team games (p.123): the seats of each side, e.g. ``((0, 2), (1, 3))``; empty: every
    player for themselves. Every seat is on exactly one side."""
    scenario_options: tuple[tuple[str, JsonValue], ...] = ()
    """Scenario variants (``TableScenario.options_schema``), as sorted (name, value) pairs;
    ``options_dict()`` gives them as a dict."""
    table: dict[str, Any] | None = field(default=None, hash=False, compare=True)
    """A table laid out by hand (scenarios/common/table.py), replacing the scenario's
    generated terrain; None: the scenario lays out its own."""
    table_seed: int | str | None = None
    """Seed of the scenario's table generator; None: the dice seed."""
    pregame: tuple[tuple[str, JsonValue], ...] = ()
    """What a campaign hands a game before it starts, as sorted (name, value) pairs
    (``pregame_dict()``): ``votes`` (a list per seat: bonus Audience Votes at the start, the
    handicaps of Refuelled p.159 and Legacy), ``sabotage`` (a list per seat: Sabotage Tokens,
    secret, p.160), ``resistance`` (a list per seat: Resistance Points, secret, revealed on a
    token's first use, p.160), and any other key a campaign mode documents."""
    physical: bool = False
    """Companion mode: the game is played with real toy cars and templates, and every fact the
    rules measure is asked of the people at the table (engine/table_facts.py)."""

    def options_dict(self) -> dict[str, JsonValue]:
        return dict(self.scenario_options)

    def pregame_dict(self) -> dict[str, JsonValue]:
        return dict(self.pregame)

    def with_max_rounds(self, max_rounds: int) -> GameSetup:
        """The same set-up, its game over after ``max_rounds`` rounds (a campaign event's
        game as the table or the command line caps it: ``kernel.campaign_modes.EventSetup``)."""
        return replace(self, max_rounds=max_rounds)

    def to_json(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {
            "ruleset": self.ruleset,
            "scenario": self.scenario,
            "players": self.players,
            "teams": [t.model_dump(mode="json", exclude_none=True) for t in self.teams],
            "max_rounds": self.max_rounds,
            "touch_it_use_it": self.touch_it_use_it,
        }
        # Only set fields are written, so older logs and their headers stay as they were.
        if self.sides:
            out["sides"] = [list(s) for s in self.sides]
        if self.scenario_options:
            out["scenario_options"] = dict(self.scenario_options)
        if self.table is not None:
            out["table"] = self.table
        if self.table_seed is not None:
            out["table_seed"] = self.table_seed
        if self.pregame:
            out["pregame"] = dict(self.pregame)
        if self.physical:
            out["physical"] = True
        return out

    @staticmethod
    def from_json(raw: Any) -> GameSetup:
        if not isinstance(raw, dict):
            raise SetupError("setup: expected a JSON object")
        try:
            teams = tuple(
                parse_team(t, f"setup team {i + 1}") for i, t in enumerate(raw.get("teams", []))
            )
            return GameSetup(
                scenario=str(raw["scenario"]),
                teams=teams,
                players=int(raw.get("players", len(teams) or 2)),
                max_rounds=int(raw.get("max_rounds", RuleOptions.max_rounds)),
                touch_it_use_it=bool(raw.get("touch_it_use_it", True)),
                ruleset=str(raw.get("ruleset", "refuelled")),
                sides=tuple(tuple(int(p) for p in side) for side in raw.get("sides", [])),
                scenario_options=tuple(sorted(dict(raw.get("scenario_options", {})).items())),
                table=_layout_or_none(raw.get("table")),
                table_seed=_seed_or_none(raw.get("table_seed")),
                pregame=tuple(sorted(dict(raw.get("pregame", {})).items())),
                physical=raw.get("physical", False) is True,
            )
        except TeamFileError as e:
            raise SetupError(str(e).splitlines()[0]) from None
        except (KeyError, TypeError, ValueError) as e:
            raise SetupError(f"setup: missing or bad field ({e})") from None


def _layout_or_none(raw: Any) -> dict[str, Any] | None:
    from carnage.games.refuelled.scenarios.common.table import LayoutError, check_layout

    if raw is None:
        return None
    try:
        return check_layout(raw, "setup.table")
    except LayoutError as e:
        raise SetupError(str(e)) from None


def _seed_or_none(raw: Any) -> int | str | None:
    if raw is None or (isinstance(raw, int | str) and not isinstance(raw, bool)):
        return raw
    raise SetupError("setup.table_seed: must be a whole number or text")


def rolled_scenario(spec: str, seed: int | str, ruleset: Ruleset | None = None) -> str:
    """The scenario id ``spec`` names: itself, or for ``random:<table>`` the one rolled with
    the game's seed on that table of p.122 (``SetupError`` for an unknown table)."""
    if not spec.startswith("random:"):
        return spec
    from carnage.games.refuelled.ruleset import REFUELLED
    from carnage.games.refuelled.scenarios.common.selection import roll_scenario

    known = set((ruleset or REFUELLED).scenarios)
    try:
        return roll_scenario(spec, seed, known)[0]
    except ValueError as e:
        raise SetupError(str(e)) from None


def read_table(path: str | Path) -> dict[str, Any]:
    """A table layout file read and checked (scenarios/common/table.py); ``SetupError``
    naming the field at fault."""
    from carnage.games.refuelled.scenarios.common.table import LayoutError, load_layout

    try:
        return load_layout(path)
    except LayoutError as e:
        raise SetupError(str(e)) from None


def check_sides(sides: Sequence[Sequence[int]], players: int) -> tuple[tuple[int, ...], ...]:
    """Team-game sides (p.123) checked: at least two sides, every seat 0..players-1 on exactly
    one of them. ``SetupError`` naming the problem."""
    out = tuple(tuple(int(p) for p in side) for side in sides)
    if not out:
        return ()
    if len(out) < 2:
        raise SetupError("sides: a team game needs at least two sides")
    seen: dict[int, int] = {}
    for i, side in enumerate(out):
        if not side:
            raise SetupError(f"sides: side {i + 1} has no players")
        for p in side:
            if not 0 <= p < players:
                raise SetupError(f"sides: seat {p + 1} is not one of the {players} players")
            if p in seen:
                raise SetupError(f"sides: seat {p + 1} is on side {seen[p] + 1} and side {i + 1}")
            seen[p] = i
    missing = [p + 1 for p in range(players) if p not in seen]
    if missing:
        raise SetupError(f"sides: seat(s) {', '.join(map(str, missing))} on no side")
    return out


def parse_sides(text: str, players: int) -> tuple[tuple[int, ...], ...]:
    """``--sides`` text: sides separated by ``/``, seats (counted from 1) by ``,``, e.g.
    ``1,3/2,4``. ``SetupError`` for anything else."""
    sides: list[list[int]] = []
    for part in text.split("/"):
        seats = []
        for tok in part.split(","):
            tok = tok.strip()
            if not tok.isdigit() or len(tok) > 2:
                raise SetupError(f"--sides: {tok!r} is not a seat number (use e.g. 1,3/2,4)")
            seats.append(int(tok) - 1)
        sides.append(seats)
    return check_sides(sides, players)


def check_scenario_options(scenario: Any, options: Any) -> dict[str, JsonValue]:
    """Scenario variants checked against ``scenario.options_schema`` (name -> (type,
    default)): unknown names and wrong types are refused; missing ones take the default."""
    schema: dict[str, tuple[type, Any]] = dict(getattr(scenario, "options_schema", {}) or {})
    given = dict(options or {})
    out: dict[str, JsonValue] = {}
    for name in given:
        if name not in schema:
            known = ", ".join(sorted(schema)) or "none"
            raise SetupError(f"scenario option {name!r}: {scenario.name} has no such option "
                             f"(known: {known})")
    for name, (kind, default) in schema.items():
        value = given.get(name, default)
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise SetupError(f"scenario option {name!r}: must be {kind.__name__}, "
                             f"not {guard.short(value)}")
        problem = bounds.scenario_option(name, value)
        if problem is not None:
            raise SetupError(f"scenario option {name!r}: {problem} (ruling IN-6)")
        out[name] = value
    return out


def parse_scenario_options(items: Sequence[str]) -> tuple[tuple[str, JsonValue], ...]:
    """``--option name=value`` items (value: true/false, a whole number, or text)."""
    out: dict[str, JsonValue] = {}
    for item in items:
        name, eq, text = item.partition("=")
        if not eq or not name.strip():
            raise SetupError(f"--option {item!r}: use name=value")
        value: JsonValue = text.strip()
        low = text.strip().lower()
        if low in ("true", "yes", "on"):
            value = True
        elif low in ("false", "no", "off"):
            value = False
        elif low.lstrip("-").isdigit() and len(low) < 10:
            value = int(low)
        out[name.strip()] = value
    return tuple(sorted(out.items()))


def _upper_bounds(max_rounds: int, players: int) -> None:
    """The most rounds and players any game is built with (``guard.MAX_ROUNDS``,
    ``guard.MAX_PLAYERS``: the bounds a game log is read with)."""
    if max_rounds > guard.MAX_ROUNDS:
        raise SetupError(f"max rounds must be at most {guard.MAX_ROUNDS:,}, not {max_rounds}")
    if players > guard.MAX_PLAYERS:
        raise SetupError(f"players must be at most {guard.MAX_PLAYERS}, not {players}")


def make_setup(
    scenario: str = "street-race",
    team_files: Sequence[str | Path] = (),
    *,
    players: int | None = None,
    max_rounds: int = RuleOptions.max_rounds,
    touch_it_use_it: bool = True,
) -> GameSetup:
    """A ``GameSetup`` from team files (one per player, in seat order) or, with none, the
    scenario's own teams for ``players`` players. Bad files raise ``SetupError``."""
    from carnage.team import load_team

    teams = []
    for f in team_files:
        try:
            teams.append(load_team(f))
        except TeamFileError as e:
            raise SetupError(e.problems[0]) from None
    n = players if players is not None else (len(teams) or 2)
    _upper_bounds(max_rounds, n)
    if teams and len(teams) != n:
        raise SetupError(f"{n} players need {n} team files, got {len(teams)}")
    return GameSetup(scenario=scenario, teams=tuple(teams), players=n, max_rounds=max_rounds,
                     touch_it_use_it=touch_it_use_it)


def engine_ruleset(ruleset: Ruleset) -> RefuelledRuleset:
    """``ruleset`` as a ruleset on Refuelled's engine; ``SetupError`` naming it if it is
    another game's (Devil's Run has its own set-up)."""
    from carnage.games.refuelled.ruleset import on_refuelled_engine

    if not on_refuelled_engine(ruleset):
        raise SetupError(f"ruleset {ruleset.name!r} does not play on Refuelled's engine")
    return ruleset


def own_ruleset(name: str) -> RefuelledRuleset:
    """Refuelled's ruleset when ``name`` names it; ``SetupError`` otherwise (another ruleset
    is found by name in the registry, ``carnage.rulesets``, which knows every game)."""
    from carnage.games.refuelled.ruleset import REFUELLED

    if name != REFUELLED.name:
        raise SetupError(f"ruleset {name!r}: pass its Ruleset (carnage.rulesets.build_game "
                         "finds every ruleset by name)")
    return REFUELLED


def game_scenario(setup: GameSetup, seed: int | str, ruleset: RefuelledRuleset
                  ) -> tuple[TableScenario, dict[str, JsonValue] | None]:
    """The scenario a game of ``setup`` with ``seed`` plays (a new instance) and, for a
    ``random:<table>`` scenario, the roll that chose it (G-03); ``SetupError`` if unknown."""
    rolled: dict[str, JsonValue] | None = None
    if setup.scenario.startswith("random:"):
        # G-03: roll on the scenario table with the game's seed (a replay rolls the same).
        from carnage.games.refuelled.scenarios.common.selection import roll_scenario

        try:
            sid, table, die = roll_scenario(setup.scenario, seed, set(ruleset.scenarios))
        except ValueError as e:
            raise SetupError(str(e)) from None
        rolled = {"table": table, "roll": die, "scenario": sid}
    try:
        scenario = ruleset.scenario_class(setup.scenario if rolled is None
                                          else str(rolled["scenario"]))()
    except ValueError as e:
        raise SetupError(str(e)) from None
    return scenario, rolled


def build_game(setup: GameSetup, seed: int | str = 0, dice: DiceSource | None = None,
               ruleset: Ruleset | None = None, *, start: bool = True) -> Game:
    """A new game of ``setup.scenario`` with the given teams, dice seeded with ``seed``
    (or the given dice source), in ``ruleset`` (default: the one ``setup`` names). The
    scenario's set-up (e.g. deployment) runs as decisions; ``carnage.rulesets.build_game``
    finds any ruleset by name. ``start=False``: built but not started (the caller starts
    it: a game with table dice, kernel/table_dice.py)."""
    try:
        check_dice_source(dice)
    except ValueError as e:
        raise SetupError(str(e)) from None
    own = own_ruleset(setup.ruleset) if ruleset is None else engine_ruleset(ruleset)
    scenario, rolled = game_scenario(setup, seed, own)
    if setup.players < 2:
        raise SetupError(f"a game needs at least 2 players, not {setup.players}")
    if setup.max_rounds < 1:
        raise SetupError(f"max rounds must be at least 1, not {setup.max_rounds}")
    _upper_bounds(setup.max_rounds, setup.players)
    low, high = getattr(scenario, "min_players", 2), getattr(scenario, "max_players", None)
    if setup.players < low or (high is not None and setup.players > high):
        most = "" if high is None else f" and at most {high}"
        raise SetupError(f"{scenario.name} needs at least {low}{most} players, "
                         f"not {setup.players}")
    sides = check_sides(setup.sides, setup.players)
    teams = setup.teams or scenario.default_teams(setup.players)
    if len(teams) != setup.players:
        raise SetupError(f"{setup.players} players need {setup.players} teams, got {len(teams)}")
    state = GameState(width=scenario.width, height=scenario.height, players=setup.players)
    lay_out_table(state, scenario, setup, seed)
    if rolled is not None:
        state.scenario["scenario_roll"] = rolled
    placed, reports = [], []
    for p, spec in enumerate(teams):
        # The scenario may lift or add team rules (M-32: Desert Strike, Tank Commander).
        check = getattr(scenario, "check_team", None)
        report = (check(spec, f"player {p + 1}", own) if check is not None
                  else checked_team(spec, f"player {p + 1}", own))
        reports.append(report)
        placed.append(list(zip(report.vehicles, add_team(state, report, p), strict=True)))
        state.sponsors[p] = report.sponsor  # sponsor effects install per player
        if spec.templates is not None:  # the team's own movement templates (Legacy)
            state.templates[str(p)] = spec.templates.to_json()
    teams_checked = getattr(scenario, "teams_checked", None)
    if teams_checked is not None:  # what a scenario keeps of the teams, in the state
        teams_checked(state, reports)
    options = RuleOptions(touch_it_use_it=setup.touch_it_use_it, max_rounds=setup.max_rounds,
                          physical=setup.physical)
    game = Game(state=state, scenario=scenario, ruleset=own,
                dice=dice if dice is not None else SeededDice(seed), options=options,
                autostart=False)
    if sides:
        from carnage.games.refuelled.engine.votes import install_team_game

        # Team games (p.123): journaled before the scenario's effects, so copies have it.
        install_team_game(game, [list(side) for side in sides])
    _campaign(game, placed, setup)  # careers and pregame (rules/campaign/)
    if start:
        game.start()
    return game


def _campaign(game: Game, placed: list[list[tuple[VehicleReport, VehicleState]]],
              setup: GameSetup) -> None:
    from carnage.games.refuelled.rules.campaign import install_campaign
    from carnage.games.refuelled.rules.campaign.pregame import PregameError

    try:
        install_campaign(game, placed, setup.pregame_dict())
    except PregameError as e:
        raise SetupError(str(e)) from None


def lay_out_table(state: GameState, scenario: Any, setup: GameSetup, seed: int | str) -> None:
    """The scenario's options, sides and table on ``state``: a table laid out by hand
    (``setup.table``) or the scenario's seeded generator (scenarios/common/table.py)."""
    from carnage.games.refuelled.scenarios.common.table import LayoutError, apply_layout, table_rng

    state.scenario["options"] = check_scenario_options(scenario, setup.options_dict())
    if setup.sides:
        state.scenario["sides"] = [list(side) for side in setup.sides]
    table_seed = setup.table_seed if setup.table_seed is not None else seed
    if setup.table is not None:
        state.scenario["table"] = "laid out by hand"
        try:
            apply_layout(state, setup.table)
        except LayoutError as e:
            raise SetupError(str(e)) from None
        return
    state.scenario["table_seed"] = table_seed
    generate = getattr(scenario, "generate", None)
    if generate is not None:
        generate(state, table_rng(table_seed))
    else:
        scenario.lay_out(state)


def new_refuelled_game(ruleset: RefuelledRuleset, *, scenario: str = "street-race",
                       teams: Sequence[TeamSpec | str | Path | dict[str, Any]] = (),
                       seed: int | str = 0, players: int | None = None,
                       max_rounds: int = RuleOptions.max_rounds,
                       touch_it_use_it: bool = True, dice: DiceSource | None = None,
                       physical: bool = False,
                       sides: Sequence[Sequence[int]] = ()) -> Game:
    """A started game of ``ruleset``: teams as ``TeamSpec``, team files or team-file objects
    (none: the scenario's own teams). ``physical``: companion mode, played on a real table
    whose facts the people report (engine/table_facts.py). ``sides``: a team game (p.123),
    the seats (counted from 0) of each side, checked as ``check_sides`` does."""
    from carnage.team import load_team

    specs: list[TeamSpec] = []
    for i, t in enumerate(teams):
        try:
            if isinstance(t, TeamSpec):
                specs.append(t)
            elif isinstance(t, dict):
                specs.append(parse_team(t, f"team {i + 1}"))
            else:
                specs.append(load_team(t))
        except TeamFileError as e:
            raise SetupError(e.problems[0]) from None
    n = players if players is not None else (len(specs) or 2)
    setup = GameSetup(scenario=scenario, teams=tuple(specs), players=n, max_rounds=max_rounds,
                      touch_it_use_it=touch_it_use_it, ruleset=ruleset.name, physical=physical,
                      sides=check_sides(sides, n) if sides else ())
    return build_game(setup, seed, dice=dice, ruleset=ruleset)


def restore_refuelled_game(ruleset: RefuelledRuleset, doc: dict[str, Any]) -> Game:
    """The game ``doc`` (a ``Game.snapshot()``) describes, in ``ruleset``."""
    cfg = doc.get("config") if isinstance(doc, dict) else None
    if not isinstance(cfg, dict):
        raise SnapshotError("snapshot: no game configuration")
    try:
        scenario = ruleset.scenario_class(str(cfg.get("scenario")))()
        opts = cfg.get("options") or {}
        options = RuleOptions(touch_it_use_it=bool(opts.get("touch_it_use_it", True)),
                              max_rounds=int(opts.get("max_rounds", RuleOptions.max_rounds)),
                              physical=opts.get("physical", False) is True)
    except (ValueError, TypeError, AttributeError) as e:
        raise SnapshotError(f"snapshot: {e}") from None
    # the shell only reads the document (its state and dice are never read: restored() makes
    # the game)
    shell = Game(state=GameState(width=0.0, height=0.0, players=0), dice=ScriptedDice(()),
                 scenario=scenario, ruleset=ruleset, options=options, autostart=False)
    return shell.restored(doc)


# -- logs and replay ---------------------------------------------------------------------------
@dataclass
class GameRecord:
    """A saved game: the header of its log and the events that followed."""

    setup: GameSetup
    seed: int | str
    choices: list[JsonValue]
    events: list[dict[str, Any]] = field(default_factory=list)

    def header(self) -> dict[str, JsonValue]:
        return {
            "carnage_log": LOG_VERSION,
            "scenario": self.setup.scenario,
            "seed": self.seed,
            "setup": self.setup.to_json(),
            "choices": list(self.choices),
        }


def record_game(game: Game, setup: GameSetup, seed: int | str) -> GameRecord:
    return GameRecord(setup, seed, list(game.choices), [_norm(e.to_json()) for e in game.log])


def log_text(record: GameRecord) -> str:
    lines = [json.dumps(record.header(), sort_keys=True)]
    lines += [json.dumps(e, sort_keys=True) for e in record.events]
    return "\n".join(lines) + "\n"


def write_log(path: str | Path, record: GameRecord) -> None:
    """Write the log (creating its folder); ``SetupError`` if it cannot be written."""
    p = Path(path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(log_text(record), encoding="utf-8")
    except OSError as e:
        raise SetupError(f"{path}: cannot write the log ({e.strerror or e})") from None


def parse_log(text: str, source: str = "log") -> GameRecord:
    try:  # size, depth, number and type limits: the guarded door (carnage.guard)
        parsed = guard.log_lines(text, source)
        head = parsed[0][1] if parsed else None
        if not isinstance(head, dict) or head.get("carnage_log") != LOG_VERSION:
            raise SetupError(f"{source}:1: not a carnage log header (carnage_log: {LOG_VERSION})"
                             if parsed else f"{source}: empty log")
        guard.check_log_header(head, f"{source}:{parsed[0][0]}")
    except guard.InputRefused as e:
        raise SetupError(str(e)) from None
    seed = head.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise SetupError(f"{source}:1: seed must be an integer or a string")
    choices = head.get("choices")
    if not isinstance(choices, list):
        raise SetupError(f"{source}:1: choices must be a list")
    setup = GameSetup.from_json(head.get("setup"))
    events = []
    for n, raw in parsed[1:]:
        try:
            events.append(Event.from_json(raw).to_json())
        except (ValueError, AttributeError) as e:
            raise SetupError(f"{source}:{n}: {str(e).splitlines()[0][:200]}") from None
    return GameRecord(setup, seed, choices, events)


def read_log(path: str | Path) -> GameRecord:
    try:
        text = guard.read_log_text(path)
    except guard.InputRefused as e:
        raise SetupError(str(e)) from None
    return parse_log(text, str(path))


@dataclass
class ReplayResult:
    game: Game
    events: int
    """Events compared."""
    difference: tuple[int, dict[str, Any] | None, dict[str, Any] | None] | None = None
    """(index, logged event, regenerated event) of the first mismatch, or None."""
    crash: str | None = None
    """The exception the game raised while replaying (a game that crashed when played
    crashes again at the same choice), or None."""

    @property
    def identical(self) -> bool:
        return self.difference is None


def _norm(e: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(e, sort_keys=True))
    return out


def replay(record: GameRecord, ruleset: Ruleset | None = None) -> ReplayResult:
    """Rebuild the game from ``record`` (in ``ruleset``, default as ``build_game``) and
    re-apply its choices; compare the events."""
    game = build_game(record.setup, record.seed, ruleset=ruleset)
    crash: str | None = None
    for i, c in enumerate(record.choices):
        if game.pending() is None:
            raise SetupError(f"choice {i + 1} of {len(record.choices)}: the game was already over")
        try:
            game.apply(c)
        except IllegalChoice as e:
            raise SetupError(f"choice {i + 1} of {len(record.choices)}: {e}") from None
        except Exception as e:  # reproduce a crash as logged; the caller reports it
            crash = f"choice {i + 1}: {type(e).__name__}: {e}"
            break
    return ReplayResult(game, len(record.events), compare_events(record.events, game.log),
                        crash)


def compare_events(
    logged: Sequence[dict[str, Any]], log: EventLog
) -> tuple[int, dict[str, Any] | None, dict[str, Any] | None] | None:
    fresh = [_norm(e.to_json()) for e in log]
    old = [_norm(e) for e in logged]
    for i in range(max(len(old), len(fresh))):
        a = old[i] if i < len(old) else None
        b = fresh[i] if i < len(fresh) else None
        if a != b:
            return (i, a, b)
    return None
