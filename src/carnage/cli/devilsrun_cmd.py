"""Devil's Run commands: ``play``, ``simulate``, ``scenarios``, ``replay``, ``cards``, ``board``.

``simulate`` plays seeded bot-vs-bot games (game ``i`` uses seed ``SEED + i``) and prints a
summary (``--json``: ``{"ruleset", "scenario", "games", "wins", "draws", "errors",
"end_reasons", "mean_rounds", "games_per_second"}``; wins are keyed ``p<seat>:<bot>``). A game
that raises is counted in ``errors`` (its seed goes to stderr) and the run goes on. Bad options:
one line on stderr, exit 2.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Annotated, Any, cast

import typer

from carnage import bounds
from carnage.cli.play_cmd import MAX_LINE
from carnage.games.devilsrun.bots import BOTS, Bot, bot, play_out
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.missions import DEVILS_RUN, replay
from carnage.kernel.decisions import IllegalChoice

app = typer.Typer(
    help="Devil's Run: Route 666 on the grid: play, simulate, list missions, replay.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _fail(msg: str) -> typer.Exit:
    typer.echo(f"error: {msg}", err=True)
    return typer.Exit(2)


def parse_bots(spec: str, allow_human: bool = False) -> list[str]:
    names = [b.strip() for b in spec.split(",") if b.strip()]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2:
        raise ValueError(f"--bots: Devil's Run has 2 players, got {len(names)} names")
    known = [*BOTS, *SEARCH_BOTS, *(["human"] if allow_human else [])]
    for n in names:
        if n not in known:
            raise ValueError(f"--bots: unknown bot {n!r} (bots: {', '.join(known)})")
    return names


SEARCH_BOTS = ("search", "search:easy", "search:normal", "search:hard")
"""The search bot (ai/search.py) plays Devil's Run through the same decision API."""


def _bot(name: str) -> Bot:
    if name in SEARCH_BOTS:
        from carnage.ai.search import make_search_bot

        return cast(Bot, make_search_bot(name))  # its choices are option values here
    return bot(name)


def _check_scenario(scenario: str) -> None:
    try:
        DEVILS_RUN.scenario(scenario)
    except ValueError as e:
        raise _fail(str(e)) from None


def simulate(scenario: str, games: int, seed: int, bot_names: list[str]) -> dict[str, Any]:
    wins = {f"p{i + 1}:{b}": 0 for i, b in enumerate(bot_names)}
    reasons: dict[str, int] = {}
    draws = errors = rounds = finished = 0
    bots: list[Bot] = [_bot(b) for b in bot_names]
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        try:
            g = DEVILS_RUN.new_game(scenario, seed=game_seed)
            play_out(g, bots, random.Random(f"devilsrun-bots:{game_seed}"))
            out = g.outcome()
            assert out is not None
            finished += 1
            rounds += out.rounds
            reasons[out.reason] = reasons.get(out.reason, 0) + 1
            if out.winner is None:
                draws += 1
            else:
                wins[f"p{out.winner + 1}:{bot_names[out.winner]}"] += 1
        except Exception as e:  # a crashing game is counted and reported, the run goes on
            errors += 1
            typer.echo(f"game with seed {game_seed} failed: {type(e).__name__}: {e}", err=True)
    secs = time.perf_counter() - start
    return {
        "ruleset": DEVILS_RUN.name,
        "scenario": scenario,
        "games": games,
        "wins": wins,
        "draws": draws,
        "errors": errors,
        "end_reasons": dict(sorted(reasons.items())),
        "mean_rounds": round(rounds / finished, 3) if finished else 0.0,
        "games_per_second": round(games / secs, 3) if secs > 0 else 0.0,
    }


@app.command("simulate")
def simulate_command(
    scenario: Annotated[str, typer.Option(help="mission id (devils-run, hell-on-wheels)")] =
    "devils-run",
    games: Annotated[int, typer.Option(help="how many games")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first game (game i: seed + i)")] = 0,
    bots: Annotated[str, typer.Option(help="one bot per player: random, heuristic")] =
    "heuristic,random",
    json_out: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
) -> None:
    """Play seeded bot-vs-bot games of a mission and summarise them."""
    _check_scenario(scenario)
    if not 0 <= games <= bounds.MAX_BULK_GAMES:
        raise _fail(f"--games must be 0..{bounds.MAX_BULK_GAMES:,}, not {games} (ruling IN-8)")
    try:
        names = parse_bots(bots)
    except ValueError as e:
        raise _fail(str(e)) from None
    s = simulate(scenario, games, seed, names)
    if json_out:
        typer.echo(json.dumps(s, sort_keys=True))
        return
    typer.echo(f"{s['games']} games of {scenario}: wins {s['wins']}, draws {s['draws']}, "
               f"errors {s['errors']}")
    for reason, n in s["end_reasons"].items():
        typer.echo(f"  {n:5d}  {reason}")
    typer.echo(f"mean rounds {s['mean_rounds']}, {s['games_per_second']} games/s")


@app.command("scenarios")
def scenarios_command(
    json_out: Annotated[bool, typer.Option("--json", help="print as JSON")] = False,
) -> None:
    """List the Devil's Run missions."""
    rows = [{"id": s.id, "name": s.name, "page": s.page, "lines": s.lines, "players": s.players,
             "description": s.description} for s in DEVILS_RUN.scenarios]
    if json_out:
        typer.echo(json.dumps({"ruleset": DEVILS_RUN.name, "scenarios": rows}))
        return
    for r in rows:
        typer.echo(f"{r['id']:16s} {r['name']} — {r['description']}")


def describe(g: DevilsRunGame) -> str:
    st = g.state
    lines = [f"turn {st.turn}, tiles {[(t.name, t.origin) for t in st.tiles]}"]
    for v in st.vehicles.values():
        lines.append(f"  {v.id:10s} {v.status:9s} CP {v.cp:2d} at {v.pos}"
                     + ("  [stash]" if v.carrying else ""))
    if st.stash.status == "placed":
        lines.append(f"  stash at {st.stash.pos}")
    return "\n".join(lines)


def _ask_human(g: DevilsRunGame) -> str | int:
    d = g.pending()
    assert d is not None
    typer.echo(describe(g))
    typer.echo(f"player {d.player + 1}: {d.prompt}")
    for i, o in enumerate(d.options, 1):
        typer.echo(f"  {i}. {o.label or o.value}")
    while True:
        line = sys.stdin.readline(MAX_LINE)
        if not line:
            raise typer.Exit(1)
        if len(line) == MAX_LINE and not line.endswith("\n"):
            while (more := sys.stdin.readline(MAX_LINE)) and not more.endswith("\n"):
                pass  # the rest of an over-long line is dropped, never held
            typer.echo(f"that line is longer than {MAX_LINE:,} characters")
            continue
        text = line.strip()
        if text.isascii() and text.isdigit() and len(text) <= 6 \
                and 1 <= int(text) <= len(d.options):
            return d.options[int(text) - 1].value
        for o in d.options:
            if str(o.value) == text:
                return o.value
        typer.echo(f"pick 1-{len(d.options)} or an option's value")


@app.command("play")
def play_command(
    scenario: Annotated[str, typer.Option(help="mission id (devils-run, hell-on-wheels)")] =
    "devils-run",
    seed: Annotated[int, typer.Option(help="dice seed")] = 0,
    bots: Annotated[str, typer.Option(help="who plays each seat: human, random, heuristic")] =
    "human,heuristic",
    record: Annotated[Path | None, typer.Option(help="write the game record (JSON) here")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the outcome as JSON")] = False,
) -> None:
    """Play one game in the terminal (numbered choices) or watch two bots play it."""
    _check_scenario(scenario)
    try:
        names = parse_bots(bots, allow_human=True)
    except ValueError as e:
        raise _fail(str(e)) from None
    g = DEVILS_RUN.new_game(scenario, seed=seed)
    rng = random.Random(f"devilsrun-bots:{seed}")
    seated = {i: _bot(n) for i, n in enumerate(names) if n != "human"}
    while (d := g.pending()) is not None:
        name = names[d.player]
        choice = _ask_human(g) if name == "human" else seated[d.player](g, d, rng)
        try:
            g.apply(choice)
        except IllegalChoice as e:
            typer.echo(str(e))
    out = g.outcome()
    assert out is not None
    if record is not None:
        try:
            record.write_text(json.dumps({"setup": g.setup, "choices": g.choices,
                                          "outcome": out.to_json()}), encoding="utf-8")
        except OSError as e:
            raise _fail(f"--record {record}: cannot write: {e.strerror}") from None
    if json_out:
        typer.echo(json.dumps(out.to_json()))
    else:
        typer.echo(describe(g))
        who = "draw" if out.winner is None else f"player {out.winner + 1} wins"
        typer.echo(f"{who}: {out.reason} (turn {out.rounds})")


@app.command("cards")
def cards_command(
    svg: Annotated[Path, typer.Option(help="write the printable stat cards here")],
) -> None:
    """Write printable stat cards for both gangs' vehicles as SVG."""
    from carnage.games.devilsrun.render import stat_cards

    try:
        svg.write_text(stat_cards(), encoding="utf-8")
    except OSError as e:
        raise _fail(f"--svg {svg}: cannot write: {e.strerror}") from None
    typer.echo(f"wrote {svg}")


@app.command("board")
def board_command(
    svg: Annotated[Path, typer.Option(help="write the board drawing here")],
    scenario: Annotated[str, typer.Option(help="mission id")] = "devils-run",
    seed: Annotated[int, typer.Option(help="dice seed")] = 0,
    choices: Annotated[int, typer.Option(help="let the heuristic bots make this many choices")] =
    40,
) -> None:
    """Draw the road (tiles, vehicles, the active vehicle's arcs) after some bot choices."""
    from carnage.games.devilsrun.render import render_board

    _check_scenario(scenario)
    g = DEVILS_RUN.new_game(scenario, seed=seed)
    rng = random.Random(f"devilsrun-bots:{seed}")
    h = bot("heuristic")
    for _ in range(max(choices, 0)):
        d = g.pending()
        if d is None:
            break
        g.apply(h(g, d, rng))
    act = g.state.act
    try:
        svg.write_text(render_board(g, arcs_for=act.vid if act else None), encoding="utf-8")
    except OSError as e:
        raise _fail(f"--svg {svg}: cannot write: {e.strerror}") from None
    typer.echo(f"wrote {svg} (turn {g.state.turn}, {len(g.choices)} choices)")


@app.command("replay")
def replay_command(
    path: Annotated[Path, typer.Argument(help="a record written by play --record")],
) -> None:
    """Replay a recorded game from its setup and choices and print its outcome."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        g = replay(doc["setup"], doc["choices"])
    except (OSError, ValueError, KeyError, TypeError, IllegalChoice) as e:
        raise _fail(f"{path}: cannot replay: {e}") from None
    out = g.outcome()
    typer.echo(json.dumps(out.to_json() if out else None))


if __name__ == "__main__":
    app()
