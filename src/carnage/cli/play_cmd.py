"""``carnage play``: a game in the terminal, humans and bots by seat.

Each human decision shows who decides, what, and the numbered options; type a number (or the
option's value), or for a continuous choice a number within the range. Other commands: ``svg``
writes a snapshot of the table (``--svg-dir``), ``state`` lists the vehicles and the
scenario's progress (its report), ``help``, and ``quit``; the report is printed again at the
end. What happened since the last prompt (bots' choices included) is printed as the table's
log lines, in the same plain words; players are named by seat colour.
``--log FILE`` saves the game log for ``carnage replay``. Bad options: one line, exit 2.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer
from rich.console import Console
from rich.table import Table

from carnage.ai import Bot, bot_rng, make_bot
from carnage.cli.scenario_opts import (
    OPTION_HELP,
    SCENARIO_HELP,
    TABLE_HELP,
    with_scenario_options,
)
from carnage.cli.scenario_report import report_lines
from carnage.games.refuelled.engine.game import Game, RuleOptions
from carnage.games.refuelled.setup import SetupError, make_setup, record_game, write_log
from carnage.kernel.decisions import Decision, IllegalChoice
from carnage.kernel.events import Event
from carnage.render.scenario import drawable_shapes
from carnage.render.svg import (
    PALETTE,
    ObstacleShape,
    SurfaceShape,
    TableView,
    TemplateShape,
    VehicleShape,
    render_svg,
)
from carnage.rulesets import build_game
from carnage.web.plain import plain, seat_name
from carnage.web.redact import events_for
from carnage.web.schemas import LogLine
from carnage.web.views import log_lines, names, pending_view

HUMAN = "human"


def table_view(game: Game, title: str | None = None) -> TableView:
    """The table as the renderer's plain description: vehicles in play on the table coloured
    by player, terrain and wrecks, surfaces, and the scenario's lines."""
    st = game.state
    vehicles = [
        VehicleShape(v.id, v.pose, v.length, v.width, PALETTE[v.player % len(PALETTE)],
                     f"{v.name} g{v.gear} h{v.hazards} hp{v.hull_points}")
        for v in st.in_play()
        if 0.0 <= v.pose.x <= st.width and 0.0 <= v.pose.y <= st.height  # not waiting to deploy
    ]
    obstacles = [
        ObstacleShape(o.id, tuple(o.polygon()), o.tall, o.destructible or o.wreck_of is not None)
        for o in st.obstacles.values()
    ]
    surfaces = [SurfaceShape(sid, str(s.kind), tuple(s.polygon))
                for sid, s in st.surfaces.items()]
    marks = drawable_shapes(game.scenario.drawables(game))
    dropped = [TemplateShape((t.polygon,), "dropped", t.id) for t in st.dropped.values()]
    return TableView(st.width, st.height, surfaces=surfaces, obstacles=obstacles,
                     vehicles=vehicles, templates=dropped + marks, title=title)


def snapshot(game: Game, directory: Path) -> Path:
    """Write the table as SVG into ``directory``; returns the file written."""
    directory.mkdir(parents=True, exist_ok=True)
    n = len(list(directory.glob("snapshot-*.svg"))) + 1
    path = directory / f"snapshot-{n:03d}.svg"
    st = game.state
    title = f"{game.scenario.name}: round {st.round}, gear phase {st.gear_phase}"
    path.write_text(render_svg(table_view(game, title), labels=True), encoding="utf-8")
    return path


def describe_event(game: Game, e: Event) -> str:
    """The event's log line exactly as the table shows it (plain words, page at the end)."""
    return log_lines(game, [e])[0].text


def decision_lines(game: Game, d: Decision) -> list[str]:
    """Who decides and what, then the options numbered from 1, in the table's words."""
    pv = pending_view(game, d, with_preview=False)
    rule = f" ({pv.rule}{'' if d.page is None else f', p.{d.page}'})" if pv.rule else ""
    out = [f"{seat_name(d.player)}{rule}: {pv.prompt}"]
    if d.domain is not None:
        unit = "°" if d.domain.unit == "deg" else f" {d.domain.unit}"
        out.append(f"  a number from {d.domain.low:g}{unit} to {d.domain.high:g}{unit}")
    if pv.dice is not None:
        out.append("  dice: " + ", ".join(
            f"{x.number} {x.face.capitalize()}{f' ({x.mark})' if x.mark else ''}"
            for x in pv.dice.dice))
    for i, o in enumerate(pv.options or [], 1):
        out.append(f"  {i:>2}. {o.label}")
    return out


def parse_answer(d: Decision, text: str) -> Any:
    """A typed answer as a choice: an option number (1-based), an option value, or a number
    for a continuous choice. ``IllegalChoice`` says what is wrong."""
    t = text.strip()
    if d.domain is not None:
        try:
            return float(t)
        except ValueError:
            raise IllegalChoice(
                f"type a number from {d.domain.low:g} to {d.domain.high:g}"
            ) from None
    if t.isdigit() and 1 <= int(t) <= len(d.options):
        return d.options[int(t) - 1].value
    for o in d.options:
        if str(o.value) == t:
            return o.value
    raise IllegalChoice(f"type an option number from 1 to {len(d.options)}")


class TerminalPlay:
    """The play loop, with its input and output streams injected (tests drive it)."""

    def __init__(self, game: Game, seats: list[str], console: Console, stdin: TextIO,
                 svg_dir: Path, seed: int) -> None:
        self.game, self.seats, self.out, self.stdin = game, seats, console, stdin
        self.svg_dir = svg_dir
        self.bots: dict[int, Bot] = {
            i: make_bot(s) for i, s in enumerate(seats) if s != HUMAN
        }
        self.rng = bot_rng(seed)
        self.shown = 0
        self.lines: dict[int, LogLine] = {}

    def flush_events(self) -> None:
        # The terminal is the human seats' screen: other seats' secrets are redacted.
        viewers = [i for i, s in enumerate(self.seats) if s == HUMAN]
        shown = events_for(self.game, self.game.log.events[self.shown:], viewers)
        for line in log_lines(self.game, shown, self.lines):
            self.out.print(line.text, markup=False, highlight=False)
        self.shown = len(self.game.log.events)

    def show_state(self) -> None:
        t = Table(title="Vehicles")
        for col in ("vehicle", "player", "gear", "hazards", "hull", "x", "y", "heading",
                    "status"):
            t.add_column(col)
        for v in self.game.state.vehicles.values():
            t.add_row(v.name, seat_name(v.player), str(v.gear), str(v.hazards),
                      f"{v.hull_points}/{v.hull}", f"{v.pose.x:.0f}", f"{v.pose.y:.0f}",
                      f"{v.pose.heading:.0f}", str(v.status))
        self.out.print(t)
        for line in report_lines(self.game):
            self.out.print(line, markup=False, highlight=False)

    def show_decision(self, d: Decision) -> None:
        self.out.print("")
        for line in decision_lines(self.game, d):
            self.out.print(line, markup=False, highlight=False)

    def ask_human(self, d: Decision) -> Any | None:
        """The human's choice, or None when they quit (or input ends)."""
        self.show_decision(d)
        while True:
            self.out.print("> ", end="")
            line = self.stdin.readline()
            if not line:
                return None
            cmd = line.strip()
            if cmd in ("quit", "exit"):
                return None
            if cmd == "svg":
                try:
                    path = snapshot(self.game, self.svg_dir)
                    self.out.print(f"wrote {path}", markup=False, highlight=False)
                except OSError as e:
                    self.out.print(f"cannot write a snapshot in {self.svg_dir}: "
                                   f"{e.strerror or e}", markup=False, highlight=False)
                continue
            if cmd == "state":
                self.show_state()
                continue
            if cmd in ("help", "?", ""):
                self.out.print("type an option number, or: svg, state, quit", markup=False)
                continue
            try:
                choice = parse_answer(d, cmd)
                return d.validate(choice)
            except IllegalChoice as e:
                self.out.print(f"not legal: {plain(str(e), names(self.game.state))}",
                               markup=False, highlight=False)

    def run(self) -> bool:
        """Play until the game ends (True) or a human quits (False)."""
        while (d := self.game.pending()) is not None:
            self.flush_events()
            choice: Any
            if d.player in self.bots:
                choice = self.bots[d.player].choose(self.game, d, self.rng)
                for line in explanation_lines(self.bots[d.player], len(self.game.choices)):
                    self.out.print(line, markup=False, highlight=False)
            else:
                choice = self.ask_human(d)
                if choice is None:
                    return False
            self.game.apply(choice)
        self.flush_events()
        return True


def explanation_lines(bot: Bot, decision: int) -> list[str]:
    """A search bot's reasons for the choice it just made at ``decision`` (none for others)."""
    last = getattr(bot, "last", None)
    if last is None or getattr(last, "decision", None) != decision:
        return []
    return [f"  {line}" for line in last.lines()]


def check_log_file(log: Path) -> None:
    """``--log FILE`` is checked before the game: not a folder, and at most its own folder is
    created (never the folders above it)."""
    if log.is_dir():
        raise SetupError(f"--log {log}: is a folder; give a file name for the log")
    folder = log.parent
    if not folder.exists() and not folder.parent.is_dir():
        raise SetupError(f"--log {log}: the folder {folder.parent} does not exist (only the "
                         "log's own folder is created, not its parents)")


def play_command(
    scenario: Annotated[str, typer.Option(help=SCENARIO_HELP)] = "street-race",
    p1: Annotated[str, typer.Option(
        help="human, heuristic, random or search[:easy|normal|hard]")] = HUMAN,
    p2: Annotated[str, typer.Option(
        help="human, heuristic, random or search[:easy|normal|hard]")] = "heuristic",
    seed: Annotated[int, typer.Option(help="dice seed")] = 0,
    team: Annotated[
        list[Path] | None, typer.Option(help="team file, once per player in seat order")
    ] = None,
    max_rounds: Annotated[
        int, typer.Option(help="a game still running after this many rounds is a draw")
    ] = RuleOptions.max_rounds,
    svg_dir: Annotated[
        Path, typer.Option(help="where the svg command writes snapshots")
    ] = Path("."),
    log: Annotated[Path | None, typer.Option(help="save the game log here")] = None,
    ruleset: Annotated[str, typer.Option(help="refuelled, kart, legacy, devils-run")] = "refuelled",
    table: Annotated[Path | None, typer.Option(help=TABLE_HELP)] = None,
    option: Annotated[list[str] | None, typer.Option(help=OPTION_HELP)] = None,
) -> None:
    """Play a game in the terminal."""
    from carnage.rulesets import RULESETS

    if ruleset != "refuelled" and (ruleset not in RULESETS
                                   or RULESETS[ruleset].parent != "refuelled"):
        _play_other_ruleset(ruleset, scenario, p1, p2, seed, log, bool(team))
        return
    seats = [p1.strip().lower(), p2.strip().lower()]
    try:
        for i, s in enumerate(seats):
            if s != HUMAN:
                try:
                    make_bot(s)
                except ValueError as e:
                    raise SetupError(f"--p{i + 1}: {e}; or {HUMAN}") from None
        setup = make_setup(scenario, team or [], players=2, max_rounds=max_rounds)
        setup = with_scenario_options(setup, options=option, table=table)
        setup = replace(setup, ruleset=ruleset)  # Refuelled or an overlay of it (kart)
        game = build_game(setup, seed)
        if log is not None:
            check_log_file(log)
    except SetupError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None
    console = Console(highlight=False)
    console.print(f"{game.scenario.name}: seed {seed}; "
                  + ", ".join(f"{seat_name(i)} {s}" for i, s in enumerate(seats)), markup=False)
    finished = TerminalPlay(game, seats, console, sys.stdin, svg_dir, seed).run()
    if log is not None:
        try:
            write_log(log, record_game(game, setup, seed))
        except SetupError as e:
            typer.echo(str(e), err=True)
            raise typer.Exit(2) from None
        console.print(f"log written to {log}", markup=False)
    out = game.outcome()
    for line in report_lines(game):
        console.print(line, markup=False, highlight=False)
    if not finished or out is None:
        console.print("game abandoned", markup=False)
        return
    if out.draw or out.winner is None:
        console.print(f"Draw after {out.rounds} rounds: {out.reason}", markup=False)
    else:
        console.print(f"{seat_name(out.winner)} wins in round {out.rounds}: "
                      f"{plain(out.reason, names(game.state))}", markup=False)


def _play_other_ruleset(ruleset: str, scenario: str, p1: str, p2: str, seed: int,
                        log: Path | None, teams: bool) -> None:
    """``--ruleset devils-run``: the Devil's Run terminal game (``--log`` is its record)."""
    if ruleset != "devils-run":
        typer.echo(f"--ruleset: unknown ruleset {ruleset!r} (known: refuelled, kart, devils-run)",
                   err=True)
        raise typer.Exit(2)
    if teams:
        typer.echo("--team: Devil's Run plays the mission's own gangs (the Law and the Haul's "
                   "Angels); leave --team out", err=True)
        raise typer.Exit(2)
    from carnage.cli import devilsrun_cmd
    from carnage.games.devilsrun.bots import BOTS

    seats = [p1.strip().lower(), p2.strip().lower()]
    for i, s in enumerate(seats):
        if s != HUMAN and s not in BOTS and s not in devilsrun_cmd.SEARCH_BOTS:
            typer.echo(f"--p{i + 1}: unknown bot {s!r} (bots: "
                       f"{', '.join([*BOTS, *devilsrun_cmd.SEARCH_BOTS])}); or {HUMAN}",
                       err=True)
            raise typer.Exit(2)
    devilsrun_cmd.play_command(scenario=scenario, seed=seed, bots=",".join(seats), record=log,
                               json_out=False)
