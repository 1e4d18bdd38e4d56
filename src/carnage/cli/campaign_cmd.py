"""``carnage campaign``: campaigns of every mode kept in a database.

``new`` starts a campaign (``--mode escalating|championship|televised|...``, any mode of
``carnage.campaign.modes.MODES``) from team files and prints its id, its owner token and one
token per seat (the web table's links for them; ``--public`` lists it to everyone there);
``show ID --owner-token`` gives the campaign a fresh owner token; ``team`` replaces a roster
between games; ``show`` prints the standings, schedule, each team's vehicles (dents, injuries)
and the results (``--seat`` shows that seat's secrets too); ``next`` names the next game
(``--present`` / ``--skirmish``: what the meeting decides, for modes that ask); ``auto`` plays
and records events with bots; ``export`` prints the whole history as JSON. ``--db`` takes a
database URL (SQLite in the user data folder by default, or ``postgresql://user@host/db``).
Bad ids, files, URLs or options: one line on stderr, exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from sqlalchemy.exc import SQLAlchemyError

from carnage import bounds, guard
from carnage.campaign.steps import SeasonError
from carnage.campaign.store import CampaignError, CampaignStore

app = typer.Typer(help="Campaigns: Escalating, Championship and Televised Seasons "
                  "(Refuelled pp.154-164) and the other modes.", no_args_is_help=True)

DbOpt = Annotated[str | None, typer.Option(
    "--db", help="database URL (default: SQLite in the user data folder)", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]
IdArg = Annotated[str, typer.Argument(help="campaign id", metavar="ID")]
SeatOpt = Annotated[int | None, typer.Option(
    "--seat", min=0, help="whose view: that seat's secrets are shown too")]
PresentOpt = Annotated[str | None, typer.Option(
    "--present", help="seats at this meeting, e.g. 0,2 (modes with meetings)")]
SkirmishOpt = Annotated[str | None, typer.Option(
    "--skirmish", help="play a Wasteland Skirmish instead: a scenario id, or 'roll'")]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _store(db: str | None) -> CampaignStore:
    from carnage.dbconfig import default_db_url as default_url

    try:
        return CampaignStore(db or default_url())
    except CampaignError as e:
        raise _fail(str(e)) from None


def _request(present: str | None, skirmish: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if present is not None:
        try:
            out["present"] = [int(s) for s in present.split(",") if s.strip()]
        except ValueError:
            raise SeasonError(f"--present: {guard.short(present)} is not a list of seats "
                              "like 0,2") from None
    if skirmish is not None:
        out["skirmish"] = skirmish
    return out


def summary(store: CampaignStore, cid: str, seat: int | None = None) -> dict[str, Any]:
    from carnage.campaign.modes import mode_of

    c = store.get(cid)
    return mode_of(c.mode).summary(c, seat)


@app.command("new")
def new(
    team: Annotated[list[Path], typer.Option("--team", help="a team file (give one per team)")],
    mode: Annotated[str, typer.Option(
        "--mode", help="escalating, championship, televised, ...")],
    start_cans: Annotated[int | None, typer.Option(
        "--start-cans", help="Cans each team starts with")] = None,
    bonus: Annotated[int | None, typer.Option(
        "--bonus", help="escalating: Cans before each later game")] = None,
    variant: Annotated[str | None, typer.Option(
        "--variant", help="escalating: any, or perks-weapons (bonus buys no vehicles)")] = None,
    events: Annotated[str | None, typer.Option(
        "--events", help="escalating/championship: comma-separated scenarios played in turn; "
        "televised: how many Televised Events")] = None,
    schedule: Annotated[str | None, typer.Option(
        "--schedule", help="televised: the events' scenarios, comma-separated ('roll' rolls "
        "one on the p.156 table)")] = None,
    games: Annotated[int | None, typer.Option(
        "--games", help="escalating/championship: season length (default open-ended)")] = None,
    combined: Annotated[bool, typer.Option(
        "--combined", help="escalating with Championship Points (p.155)")] = False,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="dice seed for what the mode rolls up front")] = None,
    public: Annotated[bool, typer.Option(
        "--public", help="list it to everyone on the web table (otherwise only to whoever "
        "holds one of its tokens)")] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Start a campaign with the given teams; prints its id, its owner token and each seat's
    token with its web table link (keep them: they are not shown again)."""
    from carnage.campaign.modes import mode_of
    from carnage.team import TeamFileError, load_team

    given = {"start_cans": start_cans, "bonus": bonus, "variant": variant, "events": events,
             "schedule": schedule, "games": games, "seed": seed,
             "combined": True if combined else None}
    raw = {k: v for k, v in given.items() if v is not None}
    try:
        m = mode_of(mode)
        opts = m.options(raw)
        specs = []
        for path in team:
            try:
                specs.append(load_team(path))
            except TeamFileError as e:
                raise SeasonError(e.problems[0]) from None
        records = m.start(opts, specs)
    except SeasonError as e:
        raise _fail(str(e)) from None
    from carnage.web.ownership import Owners, campaign_links, issue_campaign_tokens

    store = _store(db)
    try:
        cid = store.create(m.id, opts, records, public=public)
        owner, seats = issue_campaign_tokens(Owners(store.engine), cid, range(len(specs)))
    except (CampaignError, SQLAlchemyError) as e:
        raise _fail(str(e).splitlines()[0]) from None
    links = campaign_links(cid, owner, seats)
    if as_json:
        typer.echo(json.dumps(links))
        return
    typer.echo(cid)
    typer.echo(f"owner token: {owner}  (web table: {links['owner_url']})")
    for (s, tok), spec in zip(sorted(seats.items()), specs, strict=True):
        typer.echo(f"seat {s} ({spec.name}): token {tok}  (web table: "
                   f"/campaigns/{cid}?token={tok})")


def _career(v: dict[str, Any]) -> str:
    car = v.get("career") or {}
    bits = []
    if car.get("dents"):
        bits.append(f"{car['dents']} dents")
    if car.get("injuries"):
        bits.append("injuries " + ", ".join(car["injuries"]))
    for key, label in (("crew_loss", "crew -"), ("hull_loss", "hull -"),
                       ("weakened_chassis", "weakened chassis x"),
                       ("audience_favourite", "audience favourite x")):
        if car.get(key):
            bits.append(f"{label}{car[key]}")
    return f" [{'; '.join(bits)}]" if bits else ""


@app.command("show")
def show(cid: IdArg, seat: SeatOpt = None, db: DbOpt = None,
         as_json: JsonOpt = False,
         owner_token: Annotated[bool, typer.Option(
             "--owner-token", help="give the campaign a fresh owner token and print it (the "
             "old one stops working; a campaign started before owners existed gets its "
             "first)")] = False) -> None:
    """Standings, schedule, each team's vehicles (dents, injuries), results and the next game."""
    store = _store(db)
    try:
        s = summary(store, cid, seat)
    except (CampaignError, SeasonError) as e:
        raise _fail(str(e)) from None
    if owner_token:
        from carnage.web.ownership import CAMPAIGN_KIND, Owners, campaign_links

        try:
            token = Owners(store.engine).claim(CAMPAIGN_KIND, cid)
        except SQLAlchemyError as e:
            raise _fail(str(e).splitlines()[0]) from None
        links = campaign_links(cid, token, {})
        if as_json:
            typer.echo(json.dumps({k: links[k] for k in ("id", "owner_token", "owner_url")}))
        else:
            typer.echo(f"owner token: {token}  (web table: {links['owner_url']})")
        return
    if as_json:
        typer.echo(json.dumps(s, indent=2, default=str))
        return
    console = Console()
    console.print(f"[bold]{s['name']} {s['id']}[/] — {s['games']} games played")
    rows = s["standings"]
    extra = [k for k in ("stash", "rp") if rows and k in rows[0]]
    table = Table("#", "team", "CP", "games", "places (1st, 2nd, ...)", "Cans", "spent",
                  *extra)
    for i, row in enumerate(rows, 1):
        table.add_row(str(i), row["team"], str(row["cp"]), str(row["games"]),
                      ", ".join(map(str, row["finishes"])), str(row["cans"]), str(row["spent"]),
                      *(str(row[k]) if row.get(k) is not None else "secret" for k in extra))
    console.print(table)
    sched = [e for e in s.get("schedule", []) if "event" in e]
    if sched:
        console.print("schedule: " + ", ".join(
            f"{e['event']}. {e['scenario']}{' (played)' if e.get('played') else ''}"
            for e in sched), soft_wrap=True)
    for t in s["teams"]:
        cars = "; ".join(f"{v['name']} ({v['type']}: {', '.join(v['weapons']) or 'unarmed'})"
                         f"{_career(v)}" for v in t["vehicles"])
        console.print(f"seat {t['seat']} {t['team']}: {cars}", soft_wrap=True)
    for r in s.get("spoils", []):
        console.print(f"spoils game {r['game']}: {r['team']} {r['text']}", soft_wrap=True)
    nxt = s["next"]
    if nxt is not None:
        console.print(f"next: game {nxt['game']}, {nxt['label']}")
    for title, holders in (s.get("titles") or {}).items():
        if holders:
            console.print(f"{title.replace('_', ' ')}: {', '.join(holders)}")
    if s["champion"] and not s["finished"]:
        console.print(f"leading: {', '.join(s['champion'])}")


@app.command("next")
def next_game(cid: IdArg, present: PresentOpt = None, skirmish: SkirmishOpt = None,
              db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """The next game to play: its number, scenario and teams."""
    from carnage.campaign.modes import mode_of

    store = _store(db)
    try:
        c = store.get(cid)
        ev = mode_of(c.mode).next_event(c, _request(present, skirmish))
    except (CampaignError, SeasonError) as e:
        raise _fail(str(e)) from None
    if ev is None:
        if as_json:
            typer.echo(json.dumps(None))
        else:
            typer.echo("the campaign is over")
        return
    j = ev.to_json()
    if as_json:
        typer.echo(json.dumps(j))
    else:
        teams = j.get("teams") or [f"seat {s}" for s in ev.seats]
        typer.echo(f"game {ev.number}: {j['label']} — {' vs '.join(map(str, teams))}")


@app.command("team")
def team_change(
    cid: IdArg,
    seat: Annotated[int, typer.Option("--seat", min=0, help="the team's seat (0 first)")],
    team: Annotated[Path, typer.Option("--team", help="the team's new roster file")],
    db: DbOpt = None,
) -> None:
    """Between games: replace a team's roster by the mode's rules (Cans given, workshop)."""
    from carnage.campaign.modes import mode_of
    from carnage.team import TeamFileError, load_team

    store = _store(db)
    try:
        try:
            spec = load_team(team)
        except TeamFileError as e:
            raise SeasonError(e.problems[0]) from None
        c = store.get(cid)
        mode = mode_of(c.mode)
        steps = mode.roster(c, seat)
        steps.choose(seat, mode.team_json(spec))
        store.append(cid, c.version, steps.records())
        row = next(r for r in summary(store, cid, seat)["standings"] if r["seat"] == seat)
        cost = mode.team_cost(spec)
    except (CampaignError, SeasonError) as e:
        raise _fail(str(e)) from None
    if row.get("stash") is not None:
        typer.echo(f"seat {seat}: {spec.name}, {cost} Cans; stash {row['stash']}")
    else:
        typer.echo(f"seat {seat}: {spec.name}, {cost} of {row['cans']} Cans")


@app.command("auto")
def auto(
    cid: IdArg,
    bots: Annotated[str, typer.Option("--bots", help="one bot for all, or one per seat")] = (
        "heuristic"),
    events: Annotated[int, typer.Option(
        "--events", help=f"events to play (1 to {bounds.MAX_SEASON_GAMES})")] = 1,
    seed: Annotated[int | None, typer.Option("--seed", help="dice seed of the first event")] = (
        None),
    max_rounds: Annotated[int | None, typer.Option("--max-rounds", min=1)] = None,
    present: PresentOpt = None,
    skirmish: SkirmishOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play the next N events with bots and record each (one transaction per event); stops
    early when the campaign is over."""
    from carnage.ai import BOTS
    from carnage.campaign.modes import mode_of
    from carnage.campaign.play import play_next

    if not 1 <= events <= bounds.MAX_SEASON_GAMES:
        raise _fail(f"--events must be 1 to {bounds.MAX_SEASON_GAMES}, not {events} "
                    "(ruling IN-7)")
    names = [b.strip() for b in bots.split(",") if b.strip()]
    bad = [b for b in names if b not in BOTS]
    if not names or bad:
        raise _fail(f"--bots: unknown bot {(bad or [bots])[0]!r} (known: {', '.join(BOTS)})")
    store = _store(db)
    played = []
    try:
        request = _request(present, skirmish)
        for i in range(events):
            c = store.get(cid)
            if mode_of(c.mode).next_event(c, request) is None:
                break
            r = play_next(store, cid, names, None if seed is None else seed + i, max_rounds,
                          request)
            played.append(r.to_json())
            if not as_json:
                typer.echo(f"{r.scenario}: places {r.places} ({r.reason}, {r.rounds} rounds)")
        s = summary(store, cid)
    except (CampaignError, SeasonError) as e:
        raise _fail(str(e)) from None
    if as_json:
        typer.echo(json.dumps({"played": played, "standings": s["standings"],
                               "finished": s["finished"], "titles": s["titles"]},
                              default=str))
    elif s["finished"]:
        for title, holders in (s.get("titles") or {}).items():
            if holders:
                typer.echo(f"{title.replace('_', ' ')}: {', '.join(holders)}")


@app.command("export")
def export(cid: IdArg, seat: SeatOpt = None,
           spectator: Annotated[bool, typer.Option(
               "--spectator", help="leave out every seat's secrets")] = False,
           db: DbOpt = None) -> None:
    """The whole history as JSON: the campaign and every record in order (``--seat`` /
    ``--spectator``: only what that seat / anyone may see)."""
    from carnage.campaign.steps import redacted

    store = _store(db)
    try:
        c = store.get(cid)
    except CampaignError as e:
        raise _fail(str(e)) from None
    records = list(c.records) if seat is None and not spectator else redacted(c.records, seat)
    typer.echo(json.dumps({"id": c.id, "mode": c.mode, "options": c.options,
                           "version": c.version, "created": c.created.isoformat(),
                           "records": [r.to_json() for r in records]}, indent=2))
