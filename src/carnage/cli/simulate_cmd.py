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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from carnage import bounds
from carnage.ai import bot_rng, bots_for, make_bot_for, play_out
from carnage.cli.scenario_opts import (
    OPTION_HELP,
    PHYSICAL_HELP,
    SCENARIO_HELP,
    SIDES_HELP,
    TABLE_HELP,
    physical_or_refuse,
    ruleset_help,
    ruleset_or_exit,
)
from carnage.kernel.ruleset import Ruleset
from carnage.kernel.session import GameMaker, GameRequest, SetupRefused
from carnage.rulesets import DEFAULT_RULESET


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


def parse_bots(spec: str | None, players: int, ruleset: Ruleset) -> list[str]:
    """One bot name per seat (one name: every seat); ``SetupRefused`` naming the problem."""
    names = ([b.strip() for b in spec.split(",") if b.strip()] if spec is not None
             else list(ruleset.default_bots))
    if not names:
        raise SetupRefused("--bots: name at least one bot")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise SetupRefused(f"--bots: {players} players need {players} bots, got {len(names)}")
    for n in names:
        try:
            make_bot_for(ruleset, n)
        except ValueError as e:
            raise SetupRefused(f"--bots: {e}") from None
    return names


def log_dir(path: Path) -> Path:
    """The ``--log`` folder, made if missing (only the folder itself: its parent must exist);
    ``SetupRefused`` naming the problem otherwise."""
    if path.exists() and not path.is_dir():
        raise SetupRefused(f"--log {path}: is a file, not a folder (give a folder for the logs)")
    if not path.exists():
        if not path.parent.is_dir():
            raise SetupRefused(f"--log {path}: the folder {path.parent} does not exist (only the "
                             "log folder itself is created, not its parents)")
        try:
            path.mkdir()
        except OSError as e:
            raise SetupRefused(f"--log {path}: cannot create the folder ({e.strerror or e})") \
                from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise SetupRefused(f"--log {path}: cannot write the log in this folder")
    return path


def log_path(folder: Path, seed: int) -> Path:
    return folder / f"game-{seed}.jsonl"


def save_log(folder: Path, seed: int, text: str) -> Path:
    """Write one game's log inside ``folder``; a symbolic link in its place is refused."""
    target = log_path(folder, seed)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(target, flags, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        why = ("a link is in its place; it is not followed" if e.errno == errno.ELOOP
               else e.strerror or str(e))
        raise SetupRefused(f"{target}: cannot write the log ({why})") from None
    return target


def simulate(
    maker: GameMaker,
    ruleset: Ruleset,
    bot_names: list[str],
    games: int,
    seed: int,
    log: Path | None = None,
    on_game: Callable[[], None] | None = None,
    on_error: Callable[[int, Exception], None] | None = None,
) -> Summary:
    """Play ``games`` games of ``maker`` (game ``i`` from seed ``seed + i``) with
    ``ruleset``'s bots; ``on_game()`` after each, ``on_error(seed, exc)`` on a crash; with
    ``log``, each game's log is saved as ``log/game-<seed>.jsonl``."""
    s = Summary(wins={f"p{i + 1}:{b}": 0 for i, b in enumerate(bot_names)})
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        game = None
        try:
            game = maker.new_game(game_seed)
            play_out(game, bots_for(ruleset, bot_names), bot_rng(game_seed))
            out = game.outcome()
            assert out is not None
            s.finished += 1
            s.rounds += out.rounds
            for r in maker.report(game):
                if r.tally:
                    s.scenario_labels.setdefault(r.key, r.label)
                    s.scenario[r.key] += 1 if r.value not in (None, False, 0) else 0
            s.end_reasons[maker.end_reason(game)] += 1
            if out.draw or out.winner is None:
                s.draws += 1
            else:
                s.wins[f"p{out.winner + 1}:{bot_names[out.winner]}"] += 1
        except SetupRefused:
            raise
        except Exception as e:  # a crashing game is counted and reported, the run goes on
            s.errors += 1
            s.error_seeds.append(game_seed)
            if on_error is not None:
                on_error(game_seed, e)
        finally:
            s.games += 1
            if log is not None and game is not None:
                save_log(log, game_seed, maker.log_text(game, game_seed))
            if on_game is not None:
                on_game()
    s.seconds = time.perf_counter() - start
    return s


def simulate_command(
    scenario: Annotated[str | None, typer.Option(
        help=SCENARIO_HELP + " (default: the ruleset's own)")] = None,
    ruleset: Annotated[str, typer.Option(help=ruleset_help())] = DEFAULT_RULESET,
    games: Annotated[int, typer.Option(help="how many games")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first game (game i: seed + i)")] = 0,
    bots: Annotated[
        str | None, typer.Option(help="one bot per player, comma-separated (random, heuristic, "
                                      "search[:easy|normal|hard]; default heuristic,random)")
    ] = None,
    team: Annotated[
        list[Path] | None, typer.Option(help="team file, once per player in seat order")
    ] = None,
    max_rounds: Annotated[
        int | None, typer.Option(help="a game still running after this many rounds is a draw "
                                      "(default: the ruleset's own)")
    ] = None,
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
    physical: Annotated[bool, typer.Option("--physical", help=PHYSICAL_HELP)] = False,
) -> None:
    """Play bots against each other over many seeded games and summarise the results."""
    rs = ruleset_or_exit(ruleset)
    err = Console(stderr=True)
    try:
        if games < 1:
            raise SetupRefused(f"--games must be at least 1, not {games}")
        if games > bounds.MAX_BULK_GAMES:
            raise SetupRefused(f"--games must be at most {bounds.MAX_BULK_GAMES:,}, not {games} "
                               "(ruling IN-8)")
        if not 1 <= cans <= bounds.MAX_RATING:
            raise SetupRefused(f"--cans must be 1..{bounds.MAX_RATING:,}, not {cans} "
                               "(ruling IN-2)")
        if teams is not None and teams != "random":
            raise SetupRefused(f"--teams: only 'random' is known, not {teams!r}")
        if rs.games is None:
            raise SetupRefused(f"--ruleset {rs.name}: {rs.title} makes no games here")
        maker = rs.games(GameRequest(
            scenario=scenario, players=players, team_files=tuple(team or ()),
            max_rounds=max_rounds, options=tuple(option or ()), sides=sides, table=table,
            random_teams=teams == "random", cans=cans, sponsored=sponsored, only_apply=True,
            physical=physical_or_refuse(rs, physical)))
        names = parse_bots(bots, maker.players, rs)
        maker.new_game(seed)  # fail fast on a bad setup
        if log is not None:
            log = log_dir(log)
    except SetupRefused as e:
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
            summary = simulate(maker, rs, names, games, seed, log,
                               on_game=lambda: progress.advance(task), on_error=crashed)
        except SetupRefused as e:
            progress.stop()
            typer.echo(str(e), err=True)
            raise typer.Exit(2) from None
    data = summary.to_json()
    if as_json:
        typer.echo(json.dumps(data, sort_keys=True))
        return
    out = Console()
    t = Table(title=f"{maker.scenario_name}: {games} games from seed {seed}")
    t.add_column("result")
    t.add_column("games", justify="right")
    for k, v in data["wins"].items():
        t.add_row(f"{k} wins", str(v))
    t.add_row("draws", str(data["draws"]))
    t.add_row("errors", str(data["errors"]))
    for key, n in data["scenario"].items():
        t.add_row(summary.scenario_labels.get(key, key), str(n))
    out.print(t)
    for reason, n in sorted(summary.end_reasons.items()):
        out.print(f"{n:5d}  {reason}", markup=False, highlight=False)
    out.print(f"mean rounds {data['mean_rounds']}, {data['games_per_second']} games/s")
