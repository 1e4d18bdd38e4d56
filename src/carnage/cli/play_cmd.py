"""``carnage play``: a game in the terminal, humans and bots by seat.

Each human decision shows who decides, what, and the numbered options; type a number (or the
option's value), or for a continuous choice a number within the range. Other commands: ``svg``
writes a snapshot of the table (``--svg-dir``), ``state`` lists the vehicles and the
scenario's progress (its report), ``help``, and ``quit``; the report is printed again at the
end. What happened since the last prompt (bots' choices included) is printed as the table's
log lines, in the same plain words; players are named by seat colour.
``--log FILE`` saves the game log for ``carnage replay``. Bad options: one line, exit 2.

Every ruleset of the registry plays here: its ``Ruleset.games`` makes the game, its
``Ruleset.bots`` seat the bots. A game on the kernel's driver (Refuelled, the Kart variant,
Legacy) is shown in the table's words (its ``Ruleset.table.tabletop``,
``games/refuelled/table_view.py``: sentences, decision previews, the vehicles, SVG
snapshots); any other game (Devil's Run) through the game contract alone: its decisions'
prompts and option labels, its events by kind.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer
from rich.console import Console
from rich.table import Table

from carnage.ai import Bot, bot_rng, make_bot_for
from carnage.cli.scenario_opts import (
    OPTION_HELP,
    PHYSICAL_HELP,
    SCENARIO_HELP,
    TABLE_HELP,
    physical_or_refuse,
    ruleset_help,
    ruleset_or_exit,
)
from carnage.kernel.contract import PlayableGame
from carnage.kernel.decisions import Decision, IllegalChoice
from carnage.kernel.events import Event
from carnage.kernel.game import KernelGame
from carnage.kernel.ruleset import Ruleset
from carnage.kernel.session import GameMaker, GameRequest, SetupRefused
from carnage.render.scenario import drawable_shapes
from carnage.render.svg import (
    PALETTE,
    ObstacleShape,
    SurfaceShape,
    TableView,
    TemplateShape,
    VehicleShape,
    render_svg,
    seat_name,
)
from carnage.render.table_schemas import LogLine
from carnage.rulesets import DEFAULT_RULESET

TableGame = Any
"""A game on the kernel's driver (``KernelGame``: Refuelled, the Kart variant, Legacy), shown
in the table's words: ``web/views.py`` reads its state and scenario. Typed loosely so that the
command line imports no game package; ``TerminalPlay`` takes it only when
``isinstance(game, KernelGame)``."""

HUMAN = "human"


def table_view(game: TableGame, title: str | None = None) -> TableView:
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


def snapshot(game: TableGame, directory: Path) -> Path:
    """Write the table as SVG into ``directory``; returns the file written."""
    directory.mkdir(parents=True, exist_ok=True)
    n = len(list(directory.glob("snapshot-*.svg"))) + 1
    path = directory / f"snapshot-{n:03d}.svg"
    st = game.state
    title = f"{game.scenario.name}: round {st.round}, gear phase {st.gear_phase}"
    path.write_text(render_svg(table_view(game, title), labels=True), encoding="utf-8")
    return path


def report_lines(game: TableGame) -> list[str]:
    """One line per row of the scenario's report: ``<label>: <text>``."""
    return [f"{r.label}: {r.text}" for r in game.scenario.report(game)]


def tabletop(game: TableGame) -> Any:
    """The table's words for a game on the Refuelled engine: its ruleset's tabletop
    (``Ruleset.table.tabletop``: log lines, the pending decision, plain text)."""
    return game.ruleset.table.tabletop


def describe_event(game: TableGame, e: Event) -> str:
    """The event's log line exactly as the table shows it (plain words, page at the end)."""
    return str(tabletop(game).log_lines(game, [e], {})[0].text)


def decision_lines(game: TableGame, d: Decision) -> list[str]:
    """Who decides and what, then the options numbered from 1, in the table's words."""
    pv = tabletop(game).pending(game, d)
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


MAX_LINE = 4096
"""The longest answer line read at the prompt (an option number, a value or a command)."""


def parse_answer(d: Decision, text: str) -> Any:
    """A typed answer as a choice: an option number (1-based), an option value, or a number
    for a continuous choice. ``IllegalChoice`` says what is wrong."""
    t = text.strip()
    if d.domain is not None:
        wrong = IllegalChoice(f"type a number from {d.domain.low:g} to {d.domain.high:g}")
        if len(t) > 40:  # no number the table asks for is written longer
            raise wrong
        try:
            value = float(t)
        except ValueError:
            raise wrong from None
        if not math.isfinite(value):
            raise wrong
        return value
    if t.isascii() and t.isdigit() and len(t) <= 6 and 1 <= int(t) <= len(d.options):
        return d.options[int(t) - 1].value
    for o in d.options:
        if str(o.value) == t:
            return o.value
    raise IllegalChoice(f"type an option number from 1 to {len(d.options)}")


def plain_decision_lines(d: Decision) -> list[str]:
    """Who decides and what, then the options numbered from 1, as the decision gives them."""
    out = [f"{seat_name(d.player)} ({d.source}): {d.prompt}"]
    if d.domain is not None:
        out.append(f"  a number from {d.domain.low:g} to {d.domain.high:g} {d.domain.unit}")
    for i, o in enumerate(d.options, 1):
        out.append(f"  {i:>2}. {o.label or o.value}")
    return out


def plain_event_line(e: Event) -> str:
    """An event as ``kind (rule): field=value ...``."""
    data = " ".join(f"{k}={v}" for k, v in e.data.items() if k not in ("hidden", "seen_by"))
    return f"{e.kind} ({e.source}): {data}".rstrip(": ")


class TerminalPlay:
    """The play loop, with its input and output streams injected (tests drive it). A game on
    the kernel's driver is shown in the table's words; any other through the contract."""

    def __init__(self, game: PlayableGame, seats: list[str], console: Console, stdin: TextIO,
                 svg_dir: Path, seed: int, ruleset: Ruleset | None = None,
                 maker: GameMaker | None = None) -> None:
        self.game, self.seats, self.out, self.stdin = game, seats, console, stdin
        self.svg_dir = svg_dir
        self.maker = maker
        self.table: TableGame | None = game if isinstance(game, KernelGame) else None
        """The game, when it is shown in the table's words (a Refuelled-family game)."""
        rs = ruleset if ruleset is not None else getattr(game, "ruleset", None)
        if not isinstance(rs, Ruleset):
            raise TypeError("TerminalPlay: give the game's ruleset (it seats the bots)")
        self.bots: dict[int, Bot] = {
            i: make_bot_for(rs, s) for i, s in enumerate(seats) if s != HUMAN
        }
        self.rng = bot_rng(seed)
        self.offer = rs.table
        """The ruleset's table: a game not shown through the tabletop is told in its
        sentences (``TableOffer.event_text``), the events it keeps ``quiet`` left out."""
        self.shown = 0
        self.lines: dict[int, LogLine] = {}

    def flush_events(self) -> None:
        # The terminal is the human seats' screen: other seats' secrets are redacted.
        viewers = [i for i, s in enumerate(self.seats) if s == HUMAN]
        shown = self.game.visible_events(viewers)[self.shown:]
        if self.table is not None:
            texts = [line.text for line in
                     tabletop(self.table).log_lines(self.table, shown, self.lines)]
        elif self.offer.event_text is not None:
            tell = self.offer.event_text
            texts = [tell(self.game, e) for e in shown if e.kind not in self.offer.quiet]
        else:
            texts = [plain_event_line(e) for e in shown]
        for text in texts:
            self.out.print(text, markup=False, highlight=False)
        self.shown = len(self.game.log.events)

    def show_state(self) -> None:
        if self.table is None:
            rows = self.maker.report(self.game) if self.maker is not None else []
            for r in rows:
                self.out.print(f"{r.label}: {r.text}", markup=False, highlight=False)
            return
        t = Table(title="Vehicles")
        for col in ("vehicle", "player", "gear", "hazards", "hull", "x", "y", "heading",
                    "status"):
            t.add_column(col)
        for v in self.table.state.vehicles.values():
            t.add_row(v.name, seat_name(v.player), str(v.gear), str(v.hazards),
                      f"{v.hull_points}/{v.hull}", f"{v.pose.x:.0f}", f"{v.pose.y:.0f}",
                      f"{v.pose.heading:.0f}", str(v.status))
        self.out.print(t)
        for line in report_lines(self.table):
            self.out.print(line, markup=False, highlight=False)

    def show_decision(self, d: Decision) -> None:
        self.out.print("")
        lines = (decision_lines(self.table, d) if self.table is not None
                 else plain_decision_lines(d))
        for line in lines:
            self.out.print(line, markup=False, highlight=False)

    def ask_human(self, d: Decision) -> Any | None:
        """The human's choice, or None when they quit (or input ends)."""
        self.show_decision(d)
        while True:
            self.out.print("> ", end="")
            line = self.stdin.readline(MAX_LINE)
            if not line:
                return None
            if len(line) == MAX_LINE and not line.endswith("\n"):
                while (more := self.stdin.readline(MAX_LINE)) and not more.endswith("\n"):
                    pass  # the rest of an over-long line is dropped, never held
                self.out.print(f"that line is longer than {MAX_LINE:,} characters",
                               markup=False)
                continue
            cmd = line.strip()
            if cmd in ("quit", "exit"):
                return None
            if cmd == "svg" and self.table is not None:
                try:
                    path = snapshot(self.table, self.svg_dir)
                    self.out.print(f"wrote {path}", markup=False, highlight=False)
                except OSError as e:
                    self.out.print(f"cannot write a snapshot in {self.svg_dir}: "
                                   f"{e.strerror or e}", markup=False, highlight=False)
                continue
            if cmd == "state":
                self.show_state()
                continue
            if cmd in ("help", "?", ""):
                more = "svg, " if self.table is not None else ""
                self.out.print(f"type an option number, or: {more}state, quit", markup=False)
                continue
            try:
                choice = parse_answer(d, cmd)
                return d.validate(choice)
            except IllegalChoice as e:
                why = tabletop(self.table).plain(self.table, str(e)) \
                    if self.table is not None else str(e)
                self.out.print(f"not legal: {why}", markup=False, highlight=False)

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
        raise SetupRefused(f"--log {log}: is a folder; give a file name for the log")
    folder = log.parent
    if not folder.exists() and not folder.parent.is_dir():
        raise SetupRefused(f"--log {log}: the folder {folder.parent} does not exist (only the "
                         "log's own folder is created, not its parents)")


def write_log_file(path: Path, text: str) -> None:
    """Write the log (creating its own folder); ``SetupRefused`` if it cannot be written."""
    try:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise SetupRefused(f"{path}: cannot write the log ({e.strerror or e})") from None


def play_command(
    scenario: Annotated[str | None, typer.Option(
        help=SCENARIO_HELP + " (default: the ruleset's own)")] = None,
    p1: Annotated[str, typer.Option(
        help="human, or one of the ruleset's bots: heuristic, random, "
             "search[:easy|normal|hard]")] = HUMAN,
    p2: Annotated[str, typer.Option(
        help="human, or one of the ruleset's bots: heuristic, random, "
             "search[:easy|normal|hard]")] = "heuristic",
    seed: Annotated[int, typer.Option(help="dice seed")] = 0,
    team: Annotated[
        list[Path] | None, typer.Option(help="team file, once per player in seat order")
    ] = None,
    max_rounds: Annotated[
        int | None, typer.Option(help="a game still running after this many rounds is a draw "
                                      "(default: the ruleset's own)")
    ] = None,
    svg_dir: Annotated[
        Path, typer.Option(help="where the svg command writes snapshots")
    ] = Path("."),
    log: Annotated[Path | None, typer.Option(help="save the game log here")] = None,
    ruleset: Annotated[str, typer.Option(help=ruleset_help())] = DEFAULT_RULESET,
    table: Annotated[Path | None, typer.Option(help=TABLE_HELP)] = None,
    option: Annotated[list[str] | None, typer.Option(help=OPTION_HELP)] = None,
    physical: Annotated[bool, typer.Option("--physical", help=PHYSICAL_HELP)] = False,
) -> None:
    """Play a game in the terminal."""
    rs = ruleset_or_exit(ruleset)
    seats = [p1.strip().lower(), p2.strip().lower()]
    try:
        for i, s in enumerate(seats):
            if s != HUMAN:
                try:
                    make_bot_for(rs, s)
                except ValueError as e:
                    raise SetupRefused(f"--p{i + 1}: {e}; or {HUMAN}") from None
        if rs.games is None:
            raise SetupRefused(f"--ruleset {rs.name}: {rs.title} makes no games here")
        maker = rs.games(GameRequest(scenario=scenario, team_files=tuple(team or ()),
                                     max_rounds=max_rounds, options=tuple(option or ()),
                                     table=table, physical=physical_or_refuse(rs, physical)))
        if maker.players != len(seats):
            raise SetupRefused(f"play seats {len(seats)} players (--p1, --p2), not "
                               f"{maker.players}")
        game = maker.new_game(seed)
        if log is not None:
            check_log_file(log)
    except SetupRefused as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from None
    console = Console(highlight=False)
    console.print(f"{maker.scenario_name}: seed {seed}; "
                  + ", ".join(f"{seat_name(i)} {s}" for i, s in enumerate(seats)), markup=False)
    finished = TerminalPlay(game, seats, console, sys.stdin, svg_dir, seed, ruleset=rs,
                            maker=maker).run()
    if log is not None:
        try:
            write_log_file(log, maker.log_text(game, seed))
        except SetupRefused as e:
            typer.echo(str(e), err=True)
            raise typer.Exit(2) from None
        console.print(f"log written to {log}", markup=False)
    out = game.outcome()
    for r in maker.report(game):
        console.print(f"{r.label}: {r.text}", markup=False, highlight=False)
    if not finished or out is None:
        console.print("game abandoned", markup=False)
        return
    if out.draw or out.winner is None:
        console.print(f"Draw after {out.rounds} rounds: {out.reason}", markup=False)
    else:
        reason = (tabletop(game).plain(game, out.reason)
                  if isinstance(game, KernelGame)
                  else out.reason)
        console.print(f"{seat_name(out.winner)} wins in round {out.rounds}: {reason}",
                      markup=False)
