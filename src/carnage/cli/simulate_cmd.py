"""``carnage simulate``: many seeded bot-vs-bot games, summarised.

Game ``i`` (0-based) uses seed ``SEED + i``. Prints a summary (``--json``: ``{"games", "wins",
"draws", "mean_rounds", "games_per_second", "errors", "scenario"}``; ``scenario`` counts, by key,
the finished games that end with each tallied row of the scenario's report set, e.g.
``finish_crossed``; wins are keyed ``p<seat>:<bot>``; ``end_reasons`` counts the finished games
by how they ended, e.g. ``{"crossed the finish line": 7, "no result after N rounds": 1}``). A
progress bar goes to stderr. A game that raises counts in ``errors``, its seed goes to stderr,
and the run goes on. ``--log DIR`` saves each game's log as ``DIR/game-<seed>.jsonl`` and
writes nothing outside ``DIR``: the folder is created if missing, but not its parents, and a
link planted where a log goes is refused, not followed. Bad options: one line on stderr,
exit 2.
"""

from __future__ import annotations

import errno
import json
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from carnage.ai import Bot, bot_rng, make_bot, play_out
from carnage.cli.scenario_opts import (
    OPTION_HELP,
    SCENARIO_HELP,
    SIDES_HELP,
    TABLE_HELP,
    with_scenario_options,
)
from carnage.cli.scenario_report import tally
from carnage.games.refuelled.engine.game import RuleOptions
from carnage.games.refuelled.setup import (
    GameRecord,
    GameSetup,
    SetupError,
    log_text,
    make_setup,
    record_game,
)
from carnage.rulesets import build_game


@dataclass
class Summary:
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    rounds: int = 0
    finished: int = 0
    errors: int = 0
    seconds: float = 0.0
    error_seeds: list[int] = field(default_factory=list)
    scenario: Counter[str] = field(default_factory=Counter)
    """Finished games by each tallied row of the scenario's report set at the end."""
    scenario_labels: dict[str, str] = field(default_factory=dict)
    end_reasons: Counter[str] = field(default_factory=Counter)
    """Finished games by how they ended (the outcome's reason, vehicle names left out)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": dict(self.scenario),
            "end_reasons": dict(self.end_reasons),
            "games": self.games,
            "wins": dict(self.wins),
            "draws": self.draws,
            "mean_rounds": round(self.rounds / self.finished, 3) if self.finished else 0.0,
            "games_per_second": round(self.games / self.seconds, 3) if self.seconds > 0 else 0.0,
            "errors": self.errors,
        }


def parse_bots(spec: str, players: int) -> list[str]:
    names = [b.strip() for b in spec.split(",") if b.strip()]
    if not names:
        raise SetupError("--bots: name at least one bot")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise SetupError(f"--bots: {players} players need {players} bots, got {len(names)}")
    for n in names:
        try:
            make_bot(n)
        except ValueError as e:
            raise SetupError(f"--bots: {e}") from None
    return names


def log_dir(path: Path) -> Path:
    """The ``--log`` folder, made if missing (only the folder itself: its parent must exist);
    ``SetupError`` naming the problem otherwise."""
    if path.exists() and not path.is_dir():
        raise SetupError(f"--log {path}: is a file, not a folder (give a folder for the logs)")
    if not path.exists():
        if not path.parent.is_dir():
            raise SetupError(f"--log {path}: the folder {path.parent} does not exist (only the "
                             "log folder itself is created, not its parents)")
        try:
            path.mkdir()
        except OSError as e:
            raise SetupError(f"--log {path}: cannot create the folder ({e.strerror or e})") \
                from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise SetupError(f"--log {path}: cannot write the log in this folder")
    return path


def log_path(folder: Path, seed: int) -> Path:
    return folder / f"game-{seed}.jsonl"


def save_log(folder: Path, seed: int, record: GameRecord) -> Path:
    """Write one game's log inside ``folder``; a symbolic link in its place is refused."""
    target = log_path(folder, seed)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(target, flags, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(log_text(record))
    except OSError as e:
        why = ("a link is in its place; it is not followed" if e.errno == errno.ELOOP
               else e.strerror or str(e))
        raise SetupError(f"{target}: cannot write the log ({why})") from None
    return target


def random_teams_setup(base: GameSetup, cans: int,
                       sponsored: bool | None = None) -> Callable[[int], GameSetup]:
    """``--teams random``: game ``seed`` gets its own random legal teams, one per
    player, drawn from ``team:<seed>:<seat>`` so every game's teams are known from its seed.
    ``sponsored`` as in ``random_team`` (True: a sponsor and perks for every team)."""
    from carnage.team.random_team import random_team

    def setup_for(game_seed: int) -> GameSetup:
        teams = tuple(random_team(f"{game_seed}:{p}", cans, name=f"Random {game_seed}/{p + 1}",
                                  sponsored=sponsored)
                      for p in range(base.players))
        return replace(base, teams=teams)

    return setup_for


def end_reason(game: Any) -> str:
    """How a game ended, in words that do not name its vehicles or numbers (so games ending
    the same way count together): "<vehicle> crossed the finish line" -> "crossed the finish
    line", "no result after 40 rounds" -> "no result after N rounds"."""
    import re

    reason = str(game.state.reason)
    for v in sorted(game.state.vehicles.values(), key=lambda v: -len(v.name)):
        reason = reason.replace(v.name, "").strip()
    return re.sub(r"\d+", "N", reason).split(":")[0].strip() or "finished"


def simulate(
    setup: GameSetup,
    bot_names: list[str],
    games: int,
    seed: int,
    log: Path | None = None,
    on_game: Any = None,
    on_error: Any = None,
    setup_for: Callable[[int], GameSetup] | None = None,
) -> Summary:
    """Play ``games`` games; ``on_game()`` after each, ``on_error(seed, exc)`` on a crash.
    ``setup_for(seed)``, when given, makes each game's own setup (random teams)."""
    s = Summary(wins={f"p{i + 1}:{b}": 0 for i, b in enumerate(bot_names)})
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        game = None
        if setup_for is not None:
            setup = setup_for(game_seed)
        try:
            game = build_game(setup, game_seed)
            game.lazy_checkpoints = True  # played through apply() only, never edited
            bots: list[Bot] = [make_bot(b) for b in bot_names]
            play_out(game, bots, bot_rng(game_seed))
            out = game.outcome()
            assert out is not None
            s.finished += 1
            s.rounds += out.rounds
            tally(game, s.scenario, s.scenario_labels)
            s.end_reasons[end_reason(game)] += 1
            if out.draw or out.winner is None:
                s.draws += 1
            else:
                s.wins[f"p{out.winner + 1}:{bot_names[out.winner]}"] += 1
        except SetupError:
            raise
        except Exception as e:  # a crashing game is counted and reported, the run goes on
            s.errors += 1
            s.error_seeds.append(game_seed)
            if on_error is not None:
                on_error(game_seed, e)
        finally:
            s.games += 1
            if log is not None and game is not None:
                save_log(log, game_seed, record_game(game, setup, game_seed))
            if on_game is not None:
                on_game()
    s.seconds = time.perf_counter() - start
    return s


def simulate_command(
    scenario: Annotated[str, typer.Option(help=SCENARIO_HELP)] = "street-race",
    ruleset: Annotated[str, typer.Option(help="refuelled, kart, legacy, devils-run")] = "refuelled",
    games: Annotated[int, typer.Option(help="how many games")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first game (game i: seed + i)")] = 0,
    bots: Annotated[
        str, typer.Option(help="one bot per player, comma-separated (random, heuristic, "
                                "search[:easy|normal|hard])")
    ] = "heuristic,random",
    team: Annotated[
        list[Path] | None, typer.Option(help="team file, once per player in seat order")
    ] = None,
    max_rounds: Annotated[
        int, typer.Option(help="a game still running after this many rounds is a draw")
    ] = RuleOptions.max_rounds,
    log: Annotated[Path | None, typer.Option(
        help="save each game's log (JSON lines) in this folder, as game-<seed>.jsonl")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    teams: Annotated[
        str | None, typer.Option(help="'random': new random legal teams for every game")
    ] = None,
    cans: Annotated[int, typer.Option(help="budget of each random team")] = 50,
    sponsored: Annotated[
        bool | None,
        typer.Option("--sponsored/--no-sponsored",
                     help="with --teams random: --sponsored gives every team a sponsor and "
                          "perks from its perk classes; --no-sponsored, no sponsor (nor perks); "
                          "neither: any sponsor or none, no perks"),
    ] = None,
    players: Annotated[int | None, typer.Option(
        help="how many players (default: one per --team file, else 2)")] = None,
    sides: Annotated[str | None, typer.Option(help=SIDES_HELP)] = None,
    option: Annotated[list[str] | None, typer.Option(help=OPTION_HELP)] = None,
    table: Annotated[Path | None, typer.Option(help=TABLE_HELP)] = None,
) -> None:
    """Play bots against each other over many seeded games and summarise the results."""
    if ruleset == "devils-run":
        from carnage.cli import devilsrun_cmd

        devilsrun_cmd.simulate_command(scenario=scenario, games=games, seed=seed, bots=bots,
                                       json_out=as_json)
        return
    from carnage.rulesets import RULESETS

    if ruleset not in RULESETS:
        typer.echo(f"--ruleset: unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})",
                   err=True)
        raise typer.Exit(2)
    err = Console(stderr=True)
    setup_for: Callable[[int], GameSetup] | None = None
    try:
        if games < 1:
            raise SetupError(f"--games must be at least 1, not {games}")
        if teams is not None and teams != "random":
            raise SetupError(f"--teams: only 'random' is known, not {teams!r}")
        if teams is not None and team:
            raise SetupError("--teams random and --team files cannot be used together")
        if sponsored is not None and teams is None:
            raise SetupError("--sponsored/--no-sponsored apply only with --teams random")
        if players is not None and not 2 <= players <= 8:
            raise SetupError(f"--players must be 2 to 8, not {players}")
        setup = make_setup(scenario, team or [], players=players, max_rounds=max_rounds)
        setup = with_scenario_options(setup, sides=sides, options=option, table=table)
        setup = replace(setup, ruleset=ruleset)  # Refuelled or an overlay of it (kart)
        if teams == "random":
            from carnage.team.random_team import RandomTeamError

            try:
                setup_for = random_teams_setup(setup, cans, sponsored)
                setup = setup_for(seed)
            except RandomTeamError as e:
                raise SetupError(f"--cans: {e}") from None
        names = parse_bots(bots, setup.players)
        build_game(setup, seed)  # fail fast on a bad setup
        if log is not None:
            log = log_dir(log)
    except SetupError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None

    def crashed(game_seed: int, e: Exception) -> None:
        err.print(f"game with seed {game_seed} raised {type(e).__name__}: {e}", markup=False,
                  highlight=False)

    with Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err, transient=True,
    ) as progress:
        task = progress.add_task("games", total=games)
        try:
            summary = simulate(setup, names, games, seed, log,
                               on_game=lambda: progress.advance(task), on_error=crashed,
                               setup_for=setup_for)
        except SetupError as e:
            progress.stop()
            typer.echo(str(e), err=True)
            raise typer.Exit(2) from None
    data = summary.to_json()
    if as_json:
        typer.echo(json.dumps(data, sort_keys=True))
        return
    out = Console()
    t = Table(title=f"{scenario}: {games} games from seed {seed}")
    t.add_column("result")
    t.add_column("games", justify="right")
    for k, v in data["wins"].items():
        t.add_row(f"{k} wins", str(v))
    t.add_row("draws", str(data["draws"]))
    t.add_row("errors", str(data["errors"]))
    for key, n in data["scenario"].items():
        t.add_row(summary.scenario_labels.get(key, key), str(n))
    out.print(t)
    out.print(f"mean rounds {data['mean_rounds']}, {data['games_per_second']} games/s")
