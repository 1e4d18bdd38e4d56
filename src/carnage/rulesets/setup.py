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
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from carnage import guard
from carnage.engine.game import Game, RuleOptions
from carnage.engine.state import GameState, UpgradeMount, VehicleState, WeaponMount
from carnage.geometry.footprints import footprint
from carnage.geometry.shapes import Pose
from carnage.kernel.decisions import IllegalChoice
from carnage.kernel.dice import DiceSource, SeededDice
from carnage.kernel.events import Event, EventLog, JsonValue
from carnage.kernel.game import SnapshotError
from carnage.kernel.ruleset import Ruleset
from carnage.team import TeamFileError, TeamReport, TeamSpec, VehicleReport, check_team
from carnage.team.io import parse_team

LOG_VERSION = 1


class SetupError(ValueError):
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


def _slug(name: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return s or "vehicle"


@lru_cache(maxsize=64)
def _report(spec: TeamSpec) -> TeamReport:
    return check_team(spec)


def _checked(spec: TeamSpec, ruleset: Ruleset | None) -> TeamReport:
    """Refuelled's catalogue: the shared cached report; another catalogue: checked afresh."""
    from carnage.rulesets.refuelled import REFUELLED

    if ruleset is None or ruleset.catalog is REFUELLED.catalog:
        return _report(spec)
    return check_team(spec, ruleset.catalog)


def checked_team(spec: TeamSpec, who: str, ruleset: Ruleset | None = None) -> TeamReport:
    """The team's report; ``SetupError`` with its first violation if it is not legal. Reports
    are immutable, so one is shared by every game built from the same team."""
    report = _checked(spec, ruleset)
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

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "ruleset": self.ruleset,
            "scenario": self.scenario,
            "players": self.players,
            "teams": [t.model_dump(mode="json", exclude_none=True) for t in self.teams],
            "max_rounds": self.max_rounds,
            "touch_it_use_it": self.touch_it_use_it,
        }

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
            )
        except TeamFileError as e:
            raise SetupError(str(e).splitlines()[0]) from None
        except (KeyError, TypeError, ValueError) as e:
            raise SetupError(f"setup: missing or bad field ({e})") from None


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
    if teams and len(teams) != n:
        raise SetupError(f"{n} players need {n} team files, got {len(teams)}")
    return GameSetup(scenario=scenario, teams=tuple(teams), players=n, max_rounds=max_rounds,
                     touch_it_use_it=touch_it_use_it)


def build_game(setup: GameSetup, seed: int | str = 0, dice: DiceSource | None = None,
               ruleset: Ruleset | None = None) -> Game:
    """A new game of ``setup.scenario`` with the given teams, dice seeded with ``seed``
    (or the given dice source), in ``ruleset`` (default: the one ``setup`` names). The
    scenario's set-up (e.g. deployment) runs as decisions."""
    from carnage.rulesets import get_ruleset

    if ruleset is None:
        try:
            ruleset = get_ruleset(setup.ruleset)
        except KeyError as e:
            raise SetupError(str(e.args[0])) from None
    try:
        scenario = ruleset.scenario_class(setup.scenario)()
    except ValueError as e:
        raise SetupError(str(e)) from None
    if setup.players < 2:
        raise SetupError(f"a game needs at least 2 players, not {setup.players}")
    if setup.max_rounds < 1:
        raise SetupError(f"max rounds must be at least 1, not {setup.max_rounds}")
    teams = setup.teams or scenario.default_teams(setup.players)
    if len(teams) != setup.players:
        raise SetupError(f"{setup.players} players need {setup.players} teams, got {len(teams)}")
    state = GameState(width=scenario.width, height=scenario.height, players=setup.players)
    scenario.lay_out(state)
    for p, spec in enumerate(teams):
        report = checked_team(spec, f"player {p + 1}", ruleset)
        add_team(state, report, p)
        state.sponsors[p] = report.sponsor  # sponsor effects install per player
    options = RuleOptions(touch_it_use_it=setup.touch_it_use_it, max_rounds=setup.max_rounds)
    return Game(state=state, scenario=scenario, ruleset=ruleset,
                dice=dice if dice is not None else SeededDice(seed), options=options)


def new_refuelled_game(ruleset: Ruleset, *, scenario: str = "street-race",
                       teams: Sequence[TeamSpec | str | Path | dict[str, Any]] = (),
                       seed: int | str = 0, players: int | None = None,
                       max_rounds: int = RuleOptions.max_rounds,
                       touch_it_use_it: bool = True, dice: DiceSource | None = None) -> Game:
    """A started game of ``ruleset``: teams as ``TeamSpec``, team files or team-file objects
    (none: the scenario's own teams)."""
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
                      touch_it_use_it=touch_it_use_it, ruleset=ruleset.name)
    return build_game(setup, seed, dice=dice, ruleset=ruleset)


def restore_refuelled_game(ruleset: Ruleset, doc: dict[str, Any]) -> Game:
    """The game ``doc`` (a ``Game.snapshot()``) describes, in ``ruleset``."""
    cfg = doc.get("config") if isinstance(doc, dict) else None
    if not isinstance(cfg, dict):
        raise SnapshotError("snapshot: no game configuration")
    try:
        scenario = ruleset.scenario_class(str(cfg.get("scenario")))()
        opts = cfg.get("options") or {}
        options = RuleOptions(touch_it_use_it=bool(opts.get("touch_it_use_it", True)),
                              max_rounds=int(opts.get("max_rounds", RuleOptions.max_rounds)))
    except (ValueError, TypeError, AttributeError) as e:
        raise SnapshotError(f"snapshot: {e}") from None
    shell = Game(state=cast(GameState, None), scenario=scenario, ruleset=ruleset, options=options,
                 autostart=False)
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


def replay(record: GameRecord) -> ReplayResult:
    """Rebuild the game from ``record`` and re-apply its choices; compare the events."""
    game = build_game(record.setup, record.seed)
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
