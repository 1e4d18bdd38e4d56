"""``carnage campaign``: Escalating and Championship Seasons kept in a database.

``new`` starts a season from team files and prints its id; ``team`` replaces a roster between
games; ``show`` prints the standings, the teams' Cans and the next event; ``next`` names the
next game; ``auto`` plays and records events with bots; ``export`` prints the whole history
as JSON. ``--db`` takes a database URL (SQLite in the user data folder by default, or
``postgresql://user@host/db``). Bad ids, files, URLs or options: one line on stderr, exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from carnage.campaign import seasons
from carnage.campaign.store import CampaignError, CampaignStore

app = typer.Typer(help="Campaigns: Escalating and Championship Seasons (Refuelled pp.154-155).",
                  no_args_is_help=True)

DbOpt = Annotated[str | None, typer.Option(
    "--db", help="database URL (default: SQLite in the user data folder)", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]
IdArg = Annotated[str, typer.Argument(help="campaign id", metavar="ID")]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _store(db: str | None) -> CampaignStore:
    from carnage.campaign.store import default_url

    try:
        return CampaignStore(db or default_url())
    except CampaignError as e:
        raise _fail(str(e)) from None


def _events(spec: str) -> list[str]:
    from carnage.rules.scenarios import SCENARIOS

    names = [s.strip() for s in spec.split(",") if s.strip()]
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        raise seasons.SeasonError(
            f"--events: unknown scenario {unknown[0]!r} (see `carnage scenarios`)")
    return names


def summary(store: CampaignStore, cid: str) -> dict[str, Any]:
    c = store.get(cid)
    return {
        "id": c.id, "mode": c.mode, "options": c.options, "version": c.version,
        "games": len(seasons.games(c.records)),
        "standings": [s.to_json() for s in seasons.standings(c)],
        "next": seasons.next_event(c), "champion": seasons.champion(c),
        "teams": [{"seat": t.seat, "team": t.name, "cans": t.allowance,
                   "joined_after": t.joined_after,
                   "vehicles": [{"name": v.name, "type": v.type,
                                 "weapons": [w.id for w in v.weapons]}
                                for v in t.spec.vehicles]}
                  for t in seasons.teams(c)],
        "results": [r.to_json() for r in seasons.games(c.records)],
    }


@app.command("new")
def new(
    team: Annotated[list[Path], typer.Option("--team", help="a team file (give one per team)")],
    mode: Annotated[str, typer.Option("--mode", help="escalating or championship")],
    start_cans: Annotated[int, typer.Option("--start-cans")] = seasons.START_CANS,
    bonus: Annotated[int, typer.Option("--bonus", help="Cans before each later game")] = (
        seasons.BONUS_CANS),
    variant: Annotated[str, typer.Option(
        "--variant", help="any, or perks-weapons (bonus buys no vehicles)")] = "any",
    events: Annotated[str, typer.Option(
        "--events", help="comma-separated scenarios, played in turn")] = ",".join(
            seasons.DEFAULT_EVENTS),
    combined: Annotated[bool, typer.Option(
        "--combined", help="escalating with Championship Points (p.155)")] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Start a season with the given teams; prints its id."""
    from carnage.team import TeamFileError, load_team

    try:
        if len(team) < 2:
            raise seasons.SeasonError("a season needs at least two --team files")
        opts = seasons.season_options(
            mode, start_cans=start_cans, bonus=bonus, variant=variant, events=_events(events),
            championship=True if combined else None, escalating=True if combined else None)
        records = []
        for seat, path in enumerate(team):
            try:
                spec = load_team(path)
            except TeamFileError as e:
                raise seasons.SeasonError(e.problems[0]) from None
            records += seasons.join_records(opts, seat, spec, 0)
    except seasons.SeasonError as e:
        raise _fail(str(e)) from None
    store = _store(db)
    try:
        cid = store.create(mode, opts, records)
    except CampaignError as e:
        raise _fail(str(e)) from None
    typer.echo(json.dumps({"id": cid}) if as_json else cid)


@app.command("show")
def show(cid: IdArg, db: DbOpt = None,
         as_json: JsonOpt = False) -> None:
    """Standings, each team's Cans, results so far and the next event."""
    store = _store(db)
    try:
        s = summary(store, cid)
    except CampaignError as e:
        raise _fail(str(e)) from None
    if as_json:
        typer.echo(json.dumps(s, indent=2, default=str))
        return
    console = Console()
    console.print(f"[bold]{s['mode'].title()} Season {s['id']}[/] — {s['games']} games played")
    table = Table("#", "team", "CP", "games", "places (1st, 2nd, ...)", "Cans", "spent")
    for i, row in enumerate(s["standings"], 1):
        table.add_row(str(i), row["team"], str(row["cp"]), str(row["games"]),
                      ", ".join(map(str, row["finishes"])), str(row["cans"]), str(row["spent"]))
    console.print(table)
    for t in s["teams"]:
        cars = "; ".join(f"{v['name']} ({v['type']}: {', '.join(v['weapons']) or 'unarmed'})"
                         for v in t["vehicles"])
        console.print(f"seat {t['seat']} {t['team']}: {cars}", soft_wrap=True)
    nxt = s["next"]
    console.print(f"next: game {nxt['game']}, {nxt['scenario']}")
    if s["champion"]:
        console.print(f"leading: {', '.join(s['champion'])}")


@app.command("next")
def next_game(cid: IdArg, db: DbOpt = None,
              as_json: JsonOpt = False) -> None:
    """The next game to play: its number, scenario and teams."""
    store = _store(db)
    try:
        ev = seasons.next_event(store.get(cid))
    except CampaignError as e:
        raise _fail(str(e)) from None
    if as_json:
        typer.echo(json.dumps(ev))
    else:
        typer.echo(f"game {ev['game']}: {ev['scenario']} — {' vs '.join(ev['teams'])}")


@app.command("team")
def team_change(
    cid: IdArg,
    seat: Annotated[int, typer.Option("--seat", min=0, help="the team's seat (0 first)")],
    team: Annotated[Path, typer.Option("--team", help="the team's new roster file")],
    db: DbOpt = None,
) -> None:
    """Between games: replace a team's roster, within the Cans it has been given (p.154)."""
    from carnage.team import TeamFileError, load_team

    store = _store(db)
    try:
        try:
            spec = load_team(team)
        except TeamFileError as e:
            raise seasons.SeasonError(e.problems[0]) from None
        c = store.get(cid)
        record = seasons.change_team(c, seat, spec)
        store.append(cid, c.version, [record])
    except (CampaignError, seasons.SeasonError) as e:
        raise _fail(str(e)) from None
    typer.echo(f"seat {seat}: {spec.name}, {seasons.team_cost(spec)} of "
               f"{next(t.allowance for t in seasons.teams(store.get(cid)) if t.seat == seat)}"
               " Cans")


@app.command("auto")
def auto(
    cid: IdArg,
    bots: Annotated[str, typer.Option("--bots", help="one bot for all, or one per seat")] = (
        "heuristic"),
    events: Annotated[int, typer.Option("--events", min=1, help="events to play")] = 1,
    seed: Annotated[int | None, typer.Option("--seed", help="dice seed of the first event")] = (
        None),
    max_rounds: Annotated[int | None, typer.Option("--max-rounds", min=1)] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play the next N events with bots and record each (one transaction per event)."""
    from carnage.ai.bots import BOTS
    from carnage.campaign.play import play_next

    names = [b.strip() for b in bots.split(",") if b.strip()]
    bad = [b for b in names if b not in BOTS]
    if not names or bad:
        raise _fail(f"--bots: unknown bot {(bad or [bots])[0]!r} (known: {', '.join(BOTS)})")
    store = _store(db)
    played = []
    try:
        for i in range(events):
            r = play_next(store, cid, names, None if seed is None else seed + i, max_rounds)
            played.append(r.to_json())
            if not as_json:
                typer.echo(f"{r.scenario}: places {r.places} ({r.reason}, {r.rounds} rounds)")
        s = summary(store, cid)
    except (CampaignError, seasons.SeasonError) as e:
        raise _fail(str(e)) from None
    if as_json:
        typer.echo(json.dumps({"played": played, "standings": s["standings"]}, default=str))


@app.command("export")
def export(cid: IdArg, db: DbOpt = None) -> None:
    """The whole history as JSON: the campaign and every record in order."""
    store = _store(db)
    try:
        c = store.get(cid)
    except CampaignError as e:
        raise _fail(str(e)) from None
    typer.echo(json.dumps({"id": c.id, "mode": c.mode, "options": c.options,
                           "version": c.version, "created": c.created.isoformat(),
                           "records": [r.to_json() for r in c.records]}, indent=2))
