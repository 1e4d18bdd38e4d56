"""Televised Seasons (Refuelled pp.156-164) as pure functions of a campaign's records.

* **Schedule** (p.156): a fixed number of Televised Events, each scenario chosen or rolled on
  the Televised Event table (p.122 data, ``scenarios/common/selection.py``), fixed in the
  options when the season starts. Only these pay Championship Points (CT-02, CT-22).
* **Meetings** (p.157): the next scheduled event is played when more than half the season's
  players are present; otherwise, or if the players ask, a Wasteland Skirmish, chosen or rolled
  (``next_event(c, {"present": [...], "skirmish": id | "roll"})``).
* **Resistance** (p.158): Resistance Points are secret records of their seat (``secret``,
  ``redacted``); before a Televised Event a player with more RP than the players who started
  may force The Revolution Will Be Televised once (it replaces that event: ruling TV-3).
* **Hiring** (p.159): 20-50 Cans (30 by default), a fixed sponsor, at most 8 vehicles; what is
  not spent goes into the stash.
* **Pre-game** (pp.159-163): handicap Audience Votes by the CP gap to the leader, Sabotage
  Tokens taken in secret (one per 3 RP, Televised Events only), injuries bought with dents;
  they reach the game as ``GameSetup.pregame`` ``votes`` / ``sabotage`` / ``resistance``.
* **Post-game** (pp.161-164), in the book's order: the result, Spoils (placings, gates,
  skirmish Cans, wreck bounties, painted and converted bonuses, the scenario's own spoils,
  Resistance Broadcast and Censorship), Contacting the Resistance, Damage (the Vehicle Wrecked
  table, Held Together by Rust, Living Legend), injuries, then the Workshop (``team/workshop``
  prices the change; the stash pays).
* **Title** (p.158): the most CP when the last Televised Event is played; ties go to the fewest
  RP. The most RP is Pro-Earth Resistance General if a Revolution was played.

Records (``Record.kind``): ``join``, ``stash`` (Cans in or out), ``cp``, ``rp`` (secret),
``team`` (a whole roster), ``vehicle`` (one vehicle's new spec), ``destroyed``, ``forced``,
``claim``, ``pregame``, ``sabotage`` (secret), ``game``, ``wreck``, ``injury``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from carnage import bounds
from carnage.campaign.steps import (
    Decision,
    NextEvent,
    SeasonError,
    StepAsk,
    Steps,
    choices,
    derive,
    done,
    extended,
    may_see,
    redacted,
    secret,
)
from carnage.campaign.store import Campaign, Record
from carnage.games.refuelled.campaign.events import EventGames, event_game
from carnage.team import TeamSpec, VehicleSpec
from carnage.team.model import CareerSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.setup import GameSetup
    from carnage.kernel.contract import PlayableGame

START_CANS = 30  # p.159
START_RANGE = (20, 50)  # p.159: anything from 20 to 50 works
DEFAULT_EVENTS = 4  # ruling TV-1: the book fixes no number
MAX_VEHICLES = 8  # p.159
REVOLUTION = "the-revolution-will-be-televised"
DEATH_RACE = "death-race"
PLACE_CP = (10, 5, 2, 1)  # p.161: 1st..4th in a Televised Event
WRECK_CP = {"lightweight": 1, "middleweight": 2, "heavyweight": 3, "war_rig": 5}  # p.161
PAINTED_CP = 5  # p.161, once per player
CONVERTED_CP = 5  # p.161, once per player
CONTACT_RP = 3  # p.162
BROADCAST = "Resistance Broadcast"
RP_PER_TOKEN = 3  # p.160
AUDIENCE_FAVOURITE_CP = 5  # p.162
HANDICAP = ((10, 0), (15, 1), (20, 2), (25, 3), (30, 4))  # p.159: CP gap up to n -> votes
HANDICAP_MAX = 5  # p.159: a gap of 31 or more


@dataclass(frozen=True)
class WreckResult:
    low: int
    id: str
    text: str
    dents: int


WRECK_TABLE = (  # p.162: D6 + dents (+1 Lightweight, -1 Heavyweight); 10 and more: destroyed
    WreckResult(-99, "popped-back-in", "Popped it back in: one dent less", -1),
    WreckResult(2, "escaped-unscathed", "Escaped unscathed", 0),
    WreckResult(4, "bent-wheel-arch", "Bent wheel-arch", 1),
    WreckResult(5, "blown-off", "Blown off: a random weapon or upgrade lost for good", 1),
    WreckResult(6, "wrecked-pinion", "Wrecked pinion: a random perk lost for good", 1),
    WreckResult(7, "upholstery-ruined", "Upholstery ruined: Crew -1 for good", 2),
    WreckResult(8, "weakened-chassis", "Weakened chassis: +1 Hazard in every Collision", 2),
    WreckResult(9, "audience-favourite",
                f"Audience Favourite: discards 3 votes when Wrecked, +{AUDIENCE_FAVOURITE_CP} "
                "CP", 3),
    WreckResult(10, "destroyed", "Vehicle destroyed, driver dead", 0),
)

BOT_INJURIES = ("living-legend", "badass", "twitch", "deathwish", "bad-television", "crazed",
                "cowardly", "shakes", "old-war-wound")
"""The injuries a bot buys, best first (never Held Together by Rust: two wreck rolls)."""
BOT_DENTS = 5
"""A bot buys injuries once a vehicle has this many dents (the wreck roll gets dangerous)."""


def wreck_result(total: int) -> WreckResult:
    """The Vehicle Wrecked row for a total (p.162)."""
    row = WRECK_TABLE[0]
    for r in WRECK_TABLE:
        if total >= r.low:
            row = r
    return row


def handicap_votes(gap: int) -> int:
    """Bonus Audience Votes for trailing the leader by ``gap`` CP (p.159, CT-12)."""
    for top, votes in HANDICAP:
        if gap <= top:
            return votes
    return HANDICAP_MAX


def placings(players: int) -> int:
    """How many players may place: half, rounded up (p.161, CT-23)."""
    return math.ceil(players / 2)


def placed(places: Sequence[Sequence[int]], players: int) -> dict[int, int]:
    """Seat -> place for the seats that place (CT-23): tied seats share the better place
    (ruling CMP-1), and a tie that would take more places than are left places none of its
    seats (ruling TV-6), so never more than half the players place."""
    cut = placings(players)
    out: dict[int, int] = {}
    place = 1
    for group in places:
        if place + len(group) - 1 <= cut:
            out.update(dict.fromkeys(group, place))
        place += len(group)
    return out


# -- the season as the records leave it -----------------------------------------------------------
@dataclass
class TeamState:
    seat: int
    spec: TeamSpec
    stash: int = 0
    cp: int = 0
    rp: int = 0
    forced: bool = False
    painted: bool = False
    converted: bool = False

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass
class Season:
    teams: dict[int, TeamState]
    games: list[Record] = field(default_factory=list)
    started: int = 0
    forced: dict[int, int] = field(default_factory=dict)
    """Televised Event index -> the seat that forced a Revolution in its place."""
    pregames: set[int] = field(default_factory=set)
    """Game numbers whose pre-game sequence is recorded."""

    @property
    def events_done(self) -> int:
        return sum(1 for g in self.games if g.data.get("kind") == "event")

    @property
    def revolution_played(self) -> bool:
        return any(g.data.get("scenario") == REVOLUTION for g in self.games)


def _replace_vehicle(spec: TeamSpec, v: VehicleSpec) -> TeamSpec:
    names = [x.name for x in spec.vehicles]
    cars = list(spec.vehicles)
    if v.name in names:
        cars[names.index(v.name)] = v
    else:
        cars.append(v)
    return spec.model_copy(update={"vehicles": tuple(cars)})


def season(c: Campaign) -> Season:
    """Every team and game as the records leave them (all secrets included: callers that show
    it to a seat go through ``summary``)."""
    s = Season({})
    for r in c.records:
        d = r.data
        seat = int(d.get("seat", -1))
        t = s.teams.get(seat)
        if r.kind == "join":
            s.teams[seat] = TeamState(seat, TeamSpec.model_validate(d["team"]))
            if int(d.get("joined_after", 0)) == 0:
                s.started += 1
        elif t is None:
            if r.kind == "game":
                s.games.append(r)
            elif r.kind == "pregame":
                s.pregames.add(int(d["number"]))
            continue
        elif r.kind == "stash":
            t.stash += int(d["cans"])
        elif r.kind == "cp":
            t.cp += int(d["cp"])
        elif r.kind == "rp":
            t.rp += int(d["rp"])
        elif r.kind == "team":
            t.spec = TeamSpec.model_validate(d["team"])
        elif r.kind == "vehicle":
            t.spec = _replace_vehicle(t.spec, VehicleSpec.model_validate(d["vehicle"]))
        elif r.kind == "destroyed":
            t.spec = t.spec.model_copy(update={"vehicles": tuple(
                v for v in t.spec.vehicles if v.name != d["vehicle"])})
        elif r.kind == "forced":
            t.forced = True
            s.forced[int(d["event"])] = seat
        elif r.kind == "claim":
            if d["what"] == "painted":
                t.painted = True
            else:
                t.converted = True
    return s


def team_cost(spec: TeamSpec) -> int:
    from carnage.team import check_team

    return int(check_team(spec).total_cans)


def career(v: VehicleSpec) -> CareerSpec:
    return v.career if v.career is not None else CareerSpec()


def with_career(v: VehicleSpec, **changes: Any) -> VehicleSpec:
    return v.model_copy(update={"career": career(v).model_copy(update=changes)})


def vehicle_weight(vtype: str) -> str:
    from carnage.catalog.loader import load_catalog

    if vtype == "war_rig":
        return "war_rig"
    return str(load_catalog().vehicles.get(vtype).weight.value)


# -- options and start ----------------------------------------------------------------------------
def _int(raw: Mapping[str, Any], key: str, default: int | None) -> int | None:
    v = raw.get(key)
    if v is None:
        return default
    try:
        if isinstance(v, bool):
            raise ValueError
        return int(v)
    except (TypeError, ValueError):
        raise SeasonError(f"{key}: {v!r} is not a whole number") from None


def roll_schedule(spec: Sequence[str], seed: int) -> list[dict[str, Any]]:
    """Each event's scenario: named (it must be on the Televised Event table) or ``roll``ed on
    it with dice from ``seed`` (p.156, CT-03)."""
    from carnage.games.refuelled.scenarios.base import TELEVISED
    from carnage.games.refuelled.scenarios.common.selection import ROLLS

    table = ROLLS[TELEVISED]
    rng = random.Random(seed)
    out = []
    for i, name in enumerate(spec):
        name = name.strip().lower()
        if name in ("roll", "random", "random:televised"):
            die = rng.randint(1, 6)
            out.append({"event": i + 1, "scenario": table[die], "roll": die})
        elif name in table.values():
            out.append({"event": i + 1, "scenario": name, "roll": None})
        else:
            raise SeasonError(
                f"schedule: {name!r} is not on the Televised Event table (p.156: "
                f"{', '.join(sorted(set(table.values())))}, or roll)")
    return out


class TelevisedMode(EventGames):
    """The Televised Season on the campaign modes interface. Options: ``start_cans`` (20-50),
    ``events`` (how many Televised Events), ``schedule`` (their scenarios, comma-separated or
    a list; ``roll`` rolls one; absent: every one rolled), ``seed`` (the season's dice)."""

    id = "televised"
    name = "Televised Season"
    KEYS = frozenset({"start_cans", "events", "schedule", "seed"})

    def __init__(self, dice: Callable[[int], random.Random] | None = None) -> None:
        self.dice = dice
        """Dice for each step sequence from its seed (None: ``random.Random(seed)``);
        tests give scripted dice."""

    def _steps(self, seed: int) -> Steps:
        return Steps(seed, self.dice(seed) if self.dice is not None else None)

    # -- options, start -----------------------------------------------------------------------
    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        import secrets as pysecrets

        unknown = sorted(set(raw) - self.KEYS)
        if unknown:
            raise SeasonError(f"televised: unknown option {unknown[0]!r} "
                              f"(known: {', '.join(sorted(self.KEYS))})")
        cans = _int(raw, "start_cans", START_CANS) or 0
        low, high = START_RANGE
        if not low <= cans <= high:
            raise SeasonError(f"start Cans: {cans} is outside {low}..{high} (p.159)")
        sched = raw.get("schedule")
        names: list[str] | None = None
        if sched is not None:
            if not isinstance(sched, str | list | tuple):
                raise SeasonError("schedule: a list of Televised Events, or one text of them "
                                  "separated by commas")
            names = ([s for s in sched[:20_000].split(",") if s.strip()]
                     if isinstance(sched, str) else [str(s)[:200] for s in sched])
            if len(names) > bounds.MAX_SEASON_GAMES:
                raise SeasonError(f"schedule: {len(names)} events; a Televised Season has at "
                                  f"most {bounds.MAX_SEASON_GAMES} (ruling IN-7)")
            if not names:
                raise SeasonError("schedule: name at least one Televised Event")
        events = _int(raw, "events", None)
        if events is None:
            events = len(names) if names else DEFAULT_EVENTS
        if events < 1:
            raise SeasonError(f"events: a season needs at least one Televised Event, not "
                              f"{events}")
        if events > bounds.MAX_SEASON_GAMES:
            raise SeasonError(f"events: a Televised Season of at most "
                              f"{bounds.MAX_SEASON_GAMES} Televised Events, not {events} "
                              "(ruling IN-7)")
        if names is not None and len(names) != events:
            raise SeasonError(f"schedule names {len(names)} events but the season has "
                              f"{events}")
        seed = _int(raw, "seed", None)
        seed = pysecrets.randbits(48) if seed is None else seed
        return {"start_cans": cans, "events": events, "seed": seed,
                "schedule": roll_schedule(names or ["roll"] * events, derive(seed, "schedule"))}

    def start(self, options: Mapping[str, Any], teams: Sequence[TeamSpec]) -> list[Record]:
        from carnage.games.refuelled.campaign.seasons import check_roster, team_json
        from carnage.render.svg import seat_name

        if len(teams) < 2:
            raise SeasonError("a Televised Season needs at least two teams (p.156)")
        cans = int(options["start_cans"])
        out: list[Record] = []
        names = [t.name for t in teams]
        for seat, spec in enumerate(teams):
            if names.count(spec.name) > 1:  # ruling TV-12: told apart by seat colour
                spec = spec.model_copy(update={"name": f"{spec.name} ({seat_name(seat)})"})
            who = f"seat {seat} ({spec.name})"
            if len(spec.vehicles) > MAX_VEHICLES:
                raise SeasonError(f"{who}: {len(spec.vehicles)} vehicles; a team may never "
                                  f"have more than {MAX_VEHICLES} (p.159)")
            checked = check_roster(spec, cans, who)
            out.append(Record("join", {"seat": seat, "team": team_json(checked),
                                       "joined_after": 0}))
            out.append(Record("stash", {"seat": seat, "cans": cans - team_cost(checked),
                                        "why": f"unspent of {cans} Cans at hiring"}))
        return out

    # -- reading -------------------------------------------------------------------------------
    def summary(self, c: Campaign, seat: int | None = None) -> dict[str, Any]:
        from carnage.games.refuelled.campaign.seasons import ranked, vehicle_row

        s = season(c)
        finished = s.events_done >= int(c.options["events"])
        ev = None if finished else self._peek(c, s)
        n_teams = max(1, len(s.teams))
        finishes = {t: [0] * n_teams for t in s.teams}
        played = dict.fromkeys(s.teams, 0)
        numbers: dict[str | None, int] = {}
        for i, g in enumerate(s.games, 1):
            numbers[g.game_id] = i
            for st, place in ranked(g.data["places"]).items():
                played[st] += 1
                finishes[st][min(place, n_teams) - 1] += 1

        def shown_rp(t: TeamState) -> int | None:
            return t.rp if (finished or seat == t.seat) else None

        rows: list[dict[str, Any]] = [
            {"seat": t.seat, "team": t.name, "cp": t.cp, "games": played[t.seat],
                 "finishes": finishes[t.seat], "cans": t.stash, "spent": team_cost(t.spec),
                 "stash": t.stash, "rp": shown_rp(t), "vehicles": len(t.spec.vehicles)}
                for t in s.teams.values()]
        rows.sort(key=lambda r: (-int(r["cp"]), [-n for n in r["finishes"]], r["seat"]))
        sched = []
        done_events = [g for g in s.games if g.data.get("kind") == "event"]
        for e in c.options["schedule"]:
            i = int(e["event"]) - 1
            ge: Record | None = done_events[i] if i < len(done_events) else None
            sched.append({**e, "played": ge is not None,
                          "game": None if ge is None else numbers[ge.game_id],
                          "played_as": None if ge is None else ge.data["scenario"],
                          "forced": i in s.forced})
        visible = redacted(c.records, seat)
        spoils = [{"game": numbers.get(r.game_id), "seat": r.data["seat"],
                   "team": s.teams[int(r.data["seat"])].name, "kind": r.kind,
                   "amount": r.data.get(r.kind if r.kind != "stash" else "cans"),
                   "text": _spoil_text(r)}
                  for r in visible if r.game_id is not None
                  and r.kind in ("cp", "stash", "rp", "wreck", "injury", "destroyed")
]
        titles = self.titles(c, s) if finished else {}
        return {
            "id": c.id, "mode": c.mode, "name": self.name,
            "options": {k: v for k, v in c.options.items() if k != "seed"},
            "version": c.version, "games": len(s.games), "started": s.started,
            "standings": rows, "schedule": sched,
            "next": None if ev is None else ev.to_json(),
            "finished": finished, "titles": titles,
            "champion": titles.get("champion", [rows[0]["team"]] if s.games else []),
            "teams": [{"seat": t.seat, "team": t.name, "sponsor": t.spec.sponsor,
                       "stash": t.stash, "cp": t.cp, "rp": shown_rp(t),
                       "forced_revolution": t.forced, "painted": t.painted,
                       "converted": t.converted,
                       "vehicles": [vehicle_row(v) for v in t.spec.vehicles]}
                      for t in s.teams.values()],
            "results": [{**r.to_json(), "number": numbers[r.game_id]} for r in s.games],
            "spoils": spoils,
            "secrets": ([r.to_json() for r in c.records if r.data.get("hidden")
                         and may_see(r, seat)] if seat is not None else []),
            "pending": [],
        }

    def titles(self, c: Campaign, s: Season | None = None) -> dict[str, list[str]]:
        """Gaslands Season Champion: the most CP, ties to the fewest RP; Pro-Earth Resistance
        General: the most RP, if a Revolution was played (p.158, CT-07)."""
        s = season(c) if s is None else s
        ts = list(s.teams.values())
        if not ts:
            return {}
        best = min((-t.cp, t.rp) for t in ts)
        out = {"champion": [t.name for t in ts if (-t.cp, t.rp) == best]}
        if s.revolution_played:
            top = max(t.rp for t in ts)
            out["resistance_general"] = [t.name for t in ts if t.rp == top]
        return out

    def next_event(self, c: Campaign,
                   request: Mapping[str, Any] | None = None) -> NextEvent | None:
        s = season(c)
        if s.events_done >= int(c.options["events"]):
            return None
        return self._peek(c, s, request)

    def _peek(self, c: Campaign, s: Season,
              request: Mapping[str, Any] | None = None) -> NextEvent:
        from carnage.games.refuelled.scenarios.base import SKIRMISH
        from carnage.games.refuelled.scenarios.common.selection import ROLLS

        req = dict(request or {})
        unknown = sorted(set(req) - {"present", "skirmish"})
        if unknown:
            raise SeasonError(f"televised: the meeting takes 'present' and 'skirmish', not "
                              f"{unknown[0]!r}")
        n = len(s.games) + 1
        armed = [t.seat for t in s.teams.values() if t.spec.vehicles]
        present = armed
        if req.get("present") is not None:
            raw = req["present"]
            try:
                present = sorted({int(x) for x in raw})
            except (TypeError, ValueError):
                raise SeasonError(f"present: {raw!r} is not a list of seats") from None
            bad = [p for p in present if p not in s.teams]
            if bad:
                raise SeasonError(f"present: the season has no seat {bad[0]}")
            present = [p for p in present if p in armed]
        if len(present) < 2:
            raise SeasonError(f"game {n}: at least two teams with vehicles must be present "
                              f"(seats {present})")
        skirmish = req.get("skirmish")
        why = ""
        if skirmish is None and 2 * len(present) <= len(s.teams):
            skirmish, why = "roll", (f"only {len(present)} of {len(s.teams)} players are "
                                     "present (p.157)")
        event = s.events_done
        if skirmish is not None:
            table = ROLLS[SKIRMISH]
            name = str(skirmish).strip().lower()
            roll = None
            if name in ("roll", "random", "random:skirmish"):
                roll = random.Random(derive(c.options["seed"], "skirmish", n)).randint(1, 6)
                name = table[roll]
            elif name not in table.values():
                raise SeasonError(
                    f"skirmish: {name!r} is not on the Wasteland Skirmish table (p.157: "
                    f"{', '.join(sorted(set(table.values())))}, or roll)")
            return NextEvent(n, name, tuple(present), "skirmish",
                             f"Wasteland Skirmish: {name}" + (f" (rolled {roll})" if roll
                                                              else ""),
                             info=(("roll", roll),
                                   ("teams", [s.teams[p].name for p in present]),
                                   ("why", why)))
        sched = c.options["schedule"][event]
        forced = s.forced.get(event)
        scenario = REVOLUTION if forced is not None else sched["scenario"]
        label = f"Televised Event {event + 1}: {scenario}"
        if forced is not None:
            label += f" (a Revolution forced by seat {forced} in place of {sched['scenario']})"
        return NextEvent(n, scenario, tuple(present), "event", label,
                         info=(("event", event + 1), ("forced_by", forced),
                               ("scheduled", sched["scenario"]),
                               ("teams", [s.teams[p].name for p in present])))

    def setup(self, c: Campaign, ev: NextEvent) -> GameSetup:
        from carnage.games.refuelled.setup import GameSetup

        s = season(c)
        scenario = self._scenario(s, ev)
        specs = []
        for seat in ev.seats:
            spec = s.teams[seat].spec
            specs.append(spec.model_copy(update={"cans": max(1, team_cost(spec))}))
        pre = next((r for r in reversed(c.records)
                    if r.kind == "pregame" and int(r.data["number"]) == ev.number), None)
        sabotage = {int(r.data["seat"]): int(r.data["tokens"]) for r in c.records
                    if r.kind == "sabotage" and int(r.data["number"]) == ev.number}
        pregame: dict[str, Any] = {
            "votes": (list(pre.data["votes"]) if pre is not None
                      else [0] * len(ev.seats)),
            "sabotage": [sabotage.get(seat, 0) for seat in ev.seats],
            "resistance": [s.teams[seat].rp for seat in ev.seats],
        }
        return GameSetup(scenario=scenario, teams=tuple(specs), players=len(ev.seats),
                         scenario_options=ev.options,
                         pregame=tuple(sorted(pregame.items())))

    @staticmethod
    def _scenario(s: Season, ev: NextEvent) -> str:
        if ev.kind == "event":
            idx = int(dict(ev.info).get("event", 0)) - 1
            if idx in s.forced:
                return REVOLUTION
        return ev.scenario

    # -- pre-game ------------------------------------------------------------------------------
    def pregame(self, c: Campaign, ev: NextEvent) -> Steps:
        s = season(c)
        if ev.number in s.pregames:
            return done()
        steps = self._steps(derive(c.options["seed"], "pregame", ev.number))
        televised = ev.kind == "event"
        event_idx = int(dict(ev.info).get("event", 0)) - 1
        previous = s.games[-1].data["scenario"] if s.games else None
        if televised and previous != REVOLUTION and event_idx not in s.forced:
            for seat in ev.seats:
                steps.then(_revolution_offer(c, seat, event_idx))
        for seat in ev.seats:
            steps.then(_injury_offer(c, seat, "pre-game"))
        if televised:
            for seat in ev.seats:
                steps.then(_sabotage_offer(c, seat, ev.number))

        def finish(st: Steps) -> None:
            now = season(extended(c, st.written()))
            lead = max(t.cp for t in now.teams.values())
            votes = [handicap_votes(lead - now.teams[seat].cp) for seat in ev.seats]
            st.add(Record("pregame", {"number": ev.number, "kind": ev.kind,
                                      "votes": votes, "seats": list(ev.seats)}))

        steps.then(finish)
        return steps.start()

    # -- post-game -----------------------------------------------------------------------------
    def post_game(self, c: Campaign, ev: NextEvent, played: PlayableGame, game_id: str,
                  seed: int) -> Steps:
        game = event_game(played)
        s = season(c)
        scenario = self._scenario(s, ev)
        facts = game_facts(game, ev.seats)
        steps = self._steps(derive(seed, "post-game", game_id))
        if scenario == REVOLUTION:
            for seat in ev.seats:
                if facts.vp.get(seat, 0) > 0:
                    steps.then(_broadcast_offer(ev, seat, facts, game_id))
        steps.then(lambda st: _result(ev, scenario, seed, game, game_id, facts, st))
        steps.then(lambda st: _spoils(ev, scenario, game, facts, game_id, st))
        if ev.kind == "event":
            for seat in ev.seats:
                steps.then(_claim_offer(c, seat, game_id))
        for seat in ev.seats:
            steps.then(_contact_offer(c, seat, game_id))
        for seat in ev.seats:
            if facts.wrecked.get(seat):
                steps.then(_injury_offer(c, seat, "before the wreck rolls", game_id))
        for seat in ev.seats:
            for name in facts.wrecked.get(seat, []):
                steps.then(_damage(c, ev, seat, name, game_id))
        for seat in ev.seats:
            steps.then(_injury_offer(c, seat, "post-game", game_id))
        for seat in ev.seats:
            steps.then(_workshop_offer(c, seat, game_id))
        return steps.start()

    def roster(self, c: Campaign, seat: int) -> Steps:
        if seat not in season(c).teams:
            raise SeasonError(f"campaign {c.id} has no team in seat {seat}")
        return Steps().then(_workshop_offer(c, seat, None)).start()


TELEVISED = TelevisedMode()


# -- what the game tells the campaign -------------------------------------------------------------
@dataclass(frozen=True)
class GameFacts:
    """What the post-game sequence reads from a played game, in campaign seats."""

    order: list[list[int]]
    """Finishing order (groups best first)."""
    wrecked: dict[int, list[str]]
    """Seat -> names of its vehicles Wrecked at least once (each rolls once: ruling TV-8)."""
    kills: dict[int, list[tuple[str, str]]]
    """Seat -> (enemy vehicle name, weight) for each time it Wrecked an enemy vehicle."""
    gates: dict[int, int]
    """Seat -> Death Race gates passed by at least one of its vehicles."""
    vp: dict[int, int]
    units: dict[int, int]
    """Seat -> what the scenario's own spoils count (Salvage Points, crates, zombies, dice)."""


def game_facts(game: Game, seats: Sequence[int]) -> GameFacts:
    """Read the played game: the finishing order, who was Wrecked and by whom, gates, VP and
    the scenario's spoils tallies (engine seat i is campaign seat ``seats[i]``)."""
    from carnage.games.refuelled.campaign.events import finishing_order
    from carnage.games.refuelled.scenarios.common import score

    st = game.state

    def seat(p: int) -> int | None:
        return seats[p] if 0 <= p < len(seats) else None

    order = [[seats[p] for p in g if 0 <= p < len(seats)] for g in finishing_order(game)]
    wrecked: dict[int, list[str]] = {}
    kills: dict[int, list[tuple[str, str]]] = {}
    last_hit: dict[str, str] = {}
    for e in game.log.events:
        d = e.data
        if e.kind == "attack_hits":
            target, by = d.get("target"), d.get("vehicle", d.get("origin"))
            if isinstance(target, str) and isinstance(by, str):
                last_hit[target] = by
        elif e.kind == "smash_attack" and int(str(d.get("hits", 0))) > 0:
            target, by = d.get("target"), d.get("attacker")
            if isinstance(target, str) and isinstance(by, str):
                last_hit[target] = by
        elif e.kind == "wrecked":
            vid = str(d.get("vehicle"))
            v = st.vehicles.get(vid)
            if v is None:
                continue
            owner = seat(v.player)
            if owner is not None and v.name not in wrecked.setdefault(owner, []):
                wrecked[owner].append(v.name)
            by_id = last_hit.pop(vid, None)
            hitter = st.vehicles.get(by_id) if by_id is not None else None
            killer = seat(hitter.player) if hitter is not None else None
            if killer is not None and killer != owner and not v.neutral:
                weight = "war_rig" if v.type == "war_rig" else str(v.weight.value)
                kills.setdefault(killer, []).append((v.name, weight))
    gates: dict[int, int] = {}
    prog = st.scenario.get("progress") if isinstance(st.scenario, dict) else None
    if game.scenario.id == DEATH_RACE and isinstance(prog, dict):
        for vid, n in prog.items():
            v = st.vehicles.get(vid)
            if v is not None and (owner := seat(v.player)) is not None:
                gates[owner] = max(gates.get(owner, 0), int(n))
    vp = {seats[p]: score.total(game, score.VP, p) for p in range(min(st.players, len(seats)))}
    return GameFacts(order, wrecked, kills, gates, vp, _spoil_units(game, seats))


def _spoil_units(game: Game, seats: Sequence[int]) -> dict[int, int]:
    """The scenario's own spoils tally per seat (its ``spoils`` data or ``spoils_dice``)."""
    from carnage.games.refuelled.scenarios.common import score

    scn: Any = game.scenario
    held: dict[int, int] = {}
    if hasattr(scn, "spoils_dice"):
        held = dict(scn.spoils_dice(game))
    elif getattr(scn, "spoils", None) is not None:
        if hasattr(scn, "crates_held"):
            held = dict(scn.crates_held(game))
        else:
            tally = scn.spoils.tally
            held = dict(score.side_totals(game, tally, with_vehicles=(tally == "salvage")))
    return {seats[p]: int(n) for p, n in held.items() if 0 <= p < len(seats)}


# -- the steps ------------------------------------------------------------------------------------
def _now(c: Campaign, st: Steps) -> Season:
    return season(extended(c, st.written()))


YES_NO = choices(["yes", "no"])


def _revolution_offer(c: Campaign, seat: int, event_idx: int) -> Callable[[Steps], None]:
    """CT-06 (p.158): more RP than the players who started, never forced before, and no
    Revolution forced yet for this event."""

    def offer(st: Steps) -> None:
        s = _now(c, st)
        t = s.teams[seat]
        if event_idx in s.forced or t.forced or t.rp <= s.started:
            return
        lead = max(x.cp for x in s.teams.values())

        def resolve(value: Any, st2: Steps) -> None:
            if value == "yes":
                st2.add(Record("forced", {"seat": seat, "rp": t.rp, "event": event_idx}))

        st.now(Decision(StepAsk(
            seat, "revolution", f"seat {seat}: reveal your {t.rp} RP to make Televised Event "
            f"{event_idx + 1} The Revolution Will Be Televised?", YES_NO, rule="CT-06",
            page=158, secret=True, default="yes" if t.cp < lead else "no"), resolve))

    return offer


def _sabotage_offer(c: Campaign, seat: int, number: int) -> Callable[[Steps], None]:
    """CT-15 (p.160): one Sabotage Token per 3 RP, taken in secret before a Televised Event."""

    def offer(st: Steps) -> None:
        t = _now(c, st).teams[seat]
        most = t.rp // RP_PER_TOKEN
        if most < 1:
            return

        def resolve(value: Any, st2: Steps) -> None:
            if int(value) > 0:
                st2.add(Record("sabotage", secret({"seat": seat, "tokens": int(value),
                                                   "number": number}, [seat], "tokens")))

        st.now(Decision(StepAsk(
            seat, "sabotage", f"seat {seat}: take how many Sabotage Tokens (up to {most}, "
            f"one per {RP_PER_TOKEN} RP)?", range=(0, most), rule="CT-15", page=160,
            secret=True, default=most), resolve))

    return offer


def _injury_offer(c: Campaign, seat: int, when: str,
                  game_id: str | None = None) -> Callable[[Steps], None]:
    """CT-31 (p.163): injuries bought with dents, each at most once per vehicle; offered
    again after each purchase until the seat is done."""
    from carnage.team.career import injuries

    def offer(st: Steps) -> None:
        t = _now(c, st).teams[seat]
        book = injuries()
        options: list[dict[str, Any]] = []
        for v in t.spec.vehicles:
            car = career(v)
            for inj in book.values():
                if inj.id not in car.injuries and inj.dents <= car.dents:
                    options.append({"value": f"{v.name}|{inj.id}",
                                    "label": f"{v.name}: {inj.name} ({inj.dents} dents)"})
        if not options:
            return
        default = "done"
        for v in t.spec.vehicles:
            car = career(v)
            if car.dents >= BOT_DENTS:
                pick = next((i for i in BOT_INJURIES if i not in car.injuries
                             and book[i].dents <= car.dents), None)
                if pick is not None:
                    default = f"{v.name}|{pick}"
                    break

        def resolve(value: Any, st2: Steps) -> None:
            if value == "done":
                return
            name, inj_id = str(value).split("|", 1)
            s2 = _now(c, st2)
            v = next(x for x in s2.teams[seat].spec.vehicles if x.name == name)
            car = career(v)
            nv = with_career(v, dents=car.dents - book[inj_id].dents,
                             injuries=(*car.injuries, inj_id))
            st2.add(Record("vehicle", {"seat": seat, "vehicle": nv.model_dump(
                mode="json", exclude_none=True)}, game_id),
                Record("injury", {"seat": seat, "vehicle": name, "injury": inj_id,
                                  "dents": book[inj_id].dents, "when": when}, game_id))
            follow: list[Callable[[Steps], None]] = []
            if inj_id == "badass":
                follow.append(_badass_offer(c, seat, name, game_id))
            st2.now(*follow, offer)

        st.now(Decision(StepAsk(
            seat, "injury", f"seat {seat} ({when}): buy an injury with dents?",
            (*choices(["done"]), *options), rule="CT-31", page=163, default=default),
            resolve))

    return offer


def _badass_offer(c: Campaign, seat: int, name: str,
                  game_id: str | None) -> Callable[[Steps], None]:
    """CT-40 (p.163): Badass gains any one Badass perk free, whatever the sponsor."""
    from carnage.catalog.loader import load_catalog

    def offer(st: Steps) -> None:
        v = next(x for x in _now(c, st).teams[seat].spec.vehicles if x.name == name)
        perks = [p.id for p in load_catalog().perks if p.perk_class == "badass"
                 and p.id not in v.perks]
        if not perks:
            return

        def resolve(value: Any, st2: Steps) -> None:
            v2 = next(x for x in _now(c, st2).teams[seat].spec.vehicles if x.name == name)
            car = career(v2)
            nv = with_career(v2.model_copy(update={"perks": (*v2.perks, str(value))}),
                             free_perks=(*car.free_perks, str(value)))
            st2.add(Record("vehicle", {"seat": seat, "vehicle": nv.model_dump(
                mode="json", exclude_none=True)}, game_id))

        st.now(Decision(StepAsk(seat, "badass_perk", f"seat {seat}: {name} gains which Badass "
                                "perk free?", choices(perks), rule="CT-40", page=163,
                                default=perks[0]), resolve))

    return offer


def _broadcast_offer(ev: NextEvent, seat: int, facts: GameFacts,
                     game_id: str) -> Callable[[Steps], None]:
    """CT-08 (p.141): each VP may have been a Resistance Broadcast, an RP instead (ruling
    TV-5: declared after the game, in secret; the placings use the VP left)."""

    def offer(st: Steps) -> None:
        vp = facts.vp[seat]
        default = 0 if seat in placed(facts.order, len(ev.seats)) else vp

        def resolve(value: Any, st2: Steps) -> None:
            if int(value):
                st2.add(Record("rp", secret({"seat": seat, "rp": int(value),
                                             "why": BROADCAST}, [seat], "rp",
                                            "why"), game_id))

        st.now(Decision(StepAsk(
            seat, "broadcast", f"seat {seat}: how many of your {vp} VP were Resistance "
            "Broadcasts (an RP each instead)?", range=(0, vp), rule="CT-08", page=141,
            secret=True, default=default), resolve))

    return offer


def _broadcasts(st: Steps, game_id: str) -> dict[int, int]:
    """Seat -> RP its Resistance Broadcasts took in this game (from the records so far)."""
    out: dict[int, int] = {}
    for r in st.written():
        if r.kind == "rp" and r.game_id == game_id and r.data.get("why") == BROADCAST:
            out[int(r.data["seat"])] = out.get(int(r.data["seat"]), 0) + int(r.data["rp"])
    return out


def _result(ev: NextEvent, scenario: str, seed: int, game: Game, game_id: str,
            facts: GameFacts, st: Steps) -> None:
    """The game's record: its finishing order (after a Revolution, by the VP left once the
    broadcasts are taken: ruling TV-5)."""
    from carnage.games.refuelled.campaign.events import game_result

    order = facts.order
    broadcasts = _broadcasts(st, game_id)
    if broadcasts:
        pos = {s: i for i, g in enumerate(order) for s in g}

        def key(s: int) -> tuple[int, int]:
            return (-(facts.vp.get(s, 0) - broadcasts.get(s, 0)), pos[s])

        groups: list[list[int]] = []
        for s in sorted(pos, key=key):
            if groups and key(groups[-1][0]) == key(s):
                groups[-1].append(s)
            else:
                groups.append([s])
        order = groups
    reason, rounds = game_result(game)
    st.add(Record("game", {
        "scenario": scenario, "seed": seed, "places": [list(g) for g in order],
        "kind": ev.kind, "event": dict(ev.info).get("event"), "number": ev.number,
        "forced_by": dict(ev.info).get("forced_by"), "seats": list(ev.seats),
        "reason": reason, "rounds": rounds}, game_id))


def _spoils(ev: NextEvent, scenario: str, game: Game, facts: GameFacts, game_id: str,
            st: Steps) -> None:
    """The Spoils of War (p.161, CT-21..CT-24): CP only in Televised Events; placings for half
    the players rounded up; Censorship in a Revolution (anyone who gained RP gets no CP)."""
    result = next(r for r in reversed(st.written()) if r.kind == "game")
    broadcasts = _broadcasts(st, game_id)
    televised = ev.kind == "event"
    ranks = placed(result.data["places"], len(ev.seats))
    scn: Any = game.scenario
    for seat in ev.seats:
        cp: list[tuple[int, str]] = []
        cans: list[tuple[int, str]] = []
        place = ranks.get(seat, 0)
        if televised:
            if 1 <= place <= len(PLACE_CP):
                cp.append((PLACE_CP[place - 1], f"place {place} in a Televised Event"))
            if scenario == DEATH_RACE and facts.gates.get(seat):
                cp.append((facts.gates[seat], f"{facts.gates[seat]} Death Race gates passed"))
            for name, weight in facts.kills.get(seat, []):
                cp.append((WRECK_CP[weight], f"Wrecked {name} ({weight})"))
        else:
            die = st.rng.randint(1, 6)
            cans.append((die, f"took part in a Wasteland Skirmish (D6: {die})"))
        units = facts.units.get(seat, 0)
        if units:
            cans.append(_scenario_spoils(scn, units, st))
        if scenario == REVOLUTION and broadcasts.get(seat):
            if cp:
                st.add(Record("censored", {"seat": seat, "cp": sum(n for n, _ in cp),
                                           "why": "Censorship: gained RP in the Revolution"},
                              game_id))
            cp = []
        for n, why in cp:
            st.add(Record("cp", {"seat": seat, "cp": n, "why": why}, game_id))
        for n, why in cans:
            if n:
                st.add(Record("stash", {"seat": seat, "cans": n, "why": why}, game_id))


def _scenario_spoils(scn: Any, units: int, st: Steps) -> tuple[int, str]:
    """The scenario's own spoils in Cans (pp.136, 138, 140, 143): its ``spoils`` data, or
    ``spoils_dice`` D6 (Express Delivery)."""
    spoils = getattr(scn, "spoils", None)
    if spoils is None:
        dice = [st.rng.randint(1, 6) for _ in range(units)]
        return sum(dice), f"{scn.name}: {units}D6 Cans {dice}"
    dice = [st.rng.randint(1, 6) for _ in range(spoils.dice * units)]
    total = sum(dice) + spoils.per_unit * units
    if spoils.cap is not None:
        total = min(total, spoils.cap)
    return total, f"{scn.name}: {units} {spoils.unit}(s), {spoils.formula(units)}" + (
        f" {dice}" if dice else "")


def _claim_offer(c: Campaign, seat: int, game_id: str) -> Callable[[Steps], None]:
    """CT-21 (p.161): a fully painted team, a custom-converted model, +5 CP each, the first
    time only (ruling TV-2: claimed after a Televised Event)."""

    def offer(st: Steps) -> None:
        t = _now(c, st).teams[seat]
        asks: list[Decision] = []
        for what, done_, cp, label in (("painted", t.painted, PAINTED_CP,
                                        "fielded a fully painted team"),
                                       ("converted", t.converted, CONVERTED_CP,
                                        "fielded a custom-converted model")):
            if done_:
                continue

            def resolve(value: Any, st2: Steps, what: str = what, cp: int = cp,
                        label: str = label) -> None:
                if value != "yes":
                    return
                st2.add(Record("claim", {"seat": seat, "what": what}, game_id))
                if _broadcasts(st2, game_id).get(seat):
                    st2.add(Record("censored", {"seat": seat, "cp": cp, "why": label},
                                   game_id))
                else:
                    st2.add(Record("cp", {"seat": seat, "cp": cp, "why": label}, game_id))

            asks.append(Decision(StepAsk(seat, what, f"seat {seat}: {label} for the first "
                                         "time?", YES_NO, rule="CT-21", page=161,
                                         default="no"), resolve))
        st.now(*asks)

    return offer


def _contact_offer(c: Campaign, seat: int, game_id: str) -> Callable[[Steps], None]:
    """CT-26 (p.162): a team that did not place may take 3 RP, in secret."""

    def offer(st: Steps) -> None:
        g = next(r for r in reversed(st.written()) if r.kind == "game")
        if seat in placed(g.data["places"], len(g.data["seats"])):
            return

        def resolve(value: Any, st2: Steps) -> None:
            if value == "yes":
                st2.add(Record("rp", secret({"seat": seat, "rp": CONTACT_RP,
                                             "why": "Contacting the Resistance"}, [seat],
                                            "rp", "why"), game_id))

        st.now(Decision(StepAsk(seat, "contact", f"seat {seat}: you did not place; contact "
                                f"the Resistance for {CONTACT_RP} RP?", YES_NO, rule="CT-26",
                                page=162, secret=True, default="yes"), resolve))

    return offer


def _damage(c: Campaign, ev: NextEvent, seat: int, name: str,
            game_id: str) -> Callable[[Steps], None]:
    """CT-27..CT-29, CT-39, CT-41 (pp.162-163): the wreck roll of one Wrecked vehicle."""

    def roll(st: Steps) -> None:
        t = _now(c, st).teams[seat]
        v = next((x for x in t.spec.vehicles if x.name == name), None)
        if v is None:
            return
        car = career(v)
        times = 2 if "held-together-by-rust" in car.injuries else 1
        for i in range(times):
            st.now(_one_roll(c, ev, seat, name, game_id, i + 1, times))

    return roll


def _one_roll(c: Campaign, ev: NextEvent, seat: int, name: str, game_id: str, n: int,
              of: int) -> Callable[[Steps], None]:
    def run(st: Steps) -> None:
        t = _now(c, st).teams[seat]
        v = next((x for x in t.spec.vehicles if x.name == name), None)
        if v is None:
            return  # destroyed by the first of two rolls
        car = career(v)
        dents_before = car.dents
        die = st.rng.randint(1, 6)
        weight = vehicle_weight(v.type)
        mod = 1 if weight == "lightweight" else -1 if weight in ("heavyweight",
                                                                 "war_rig") else 0
        total = die + car.dents + mod
        legend = "living-legend" in car.injuries
        row = wreck_result(1 if legend else total)
        lost: str | None = None
        nv: VehicleSpec | None = v
        extra: list[Record] = []
        if row.id == "blown-off":
            items = [("weapon", i) for i in range(len(v.weapons))] + [
                ("upgrade", i) for i in range(len(v.upgrades))]
            if items:
                kind, i = items[st.rng.randrange(len(items))]
                if kind == "weapon":
                    lost = v.weapons[i].id
                    v = v.model_copy(update={"weapons": v.weapons[:i] + v.weapons[i + 1:]})
                else:
                    lost = v.upgrades[i].id
                    v = v.model_copy(update={"upgrades": v.upgrades[:i] + v.upgrades[i + 1:]})
        elif row.id == "wrecked-pinion" and v.perks:
            i = st.rng.randrange(len(v.perks))
            lost = v.perks[i]
            v = v.model_copy(update={"perks": v.perks[:i] + v.perks[i + 1:]})
            car = career(v)
            if lost in car.free_perks:
                v = with_career(v, free_perks=tuple(p for p in car.free_perks if p != lost))
        car = career(v)
        changes: dict[str, Any] = {"dents": max(0, car.dents + row.dents)}
        if lost is not None:
            changes["lost"] = (*car.lost, lost)
        if row.id == "upholstery-ruined":
            changes["crew_loss"] = car.crew_loss + 1
        elif row.id == "weakened-chassis":
            changes["weakened_chassis"] = car.weakened_chassis + 1
        elif row.id == "audience-favourite":
            changes["audience_favourite"] = car.audience_favourite + 1
            if ev.kind == "event":
                extra.append(Record("cp", {"seat": seat, "cp": AUDIENCE_FAVOURITE_CP,
                                           "why": f"{name}: Audience Favourite"}, game_id))
        nv = None if row.id == "destroyed" else with_career(v, **changes)
        st.add(Record("wreck", {"seat": seat, "vehicle": name, "die": die,
                                "dents": dents_before,
                                "weight": mod, "total": total, "counted": 1 if legend else total,
                                "result": row.id, "lost": lost,
                                "text": row.text if lost is not None or row.id not in (
                                    "blown-off", "wrecked-pinion") else
                                row.text.split(":")[0] + ": nothing to lose",
                                "roll": n, "of": of}, game_id))
        if nv is None:
            st.add(Record("destroyed", {"seat": seat, "vehicle": name}, game_id))
        else:
            st.add(Record("vehicle", {"seat": seat, "vehicle": nv.model_dump(
                mode="json", exclude_none=True)}, game_id), *extra)
            if legend:
                st.now(_legend_offer(c, seat, name, game_id))

    return run


def _legend_offer(c: Campaign, seat: int, name: str,
                  game_id: str) -> Callable[[Steps], None]:
    """CT-41 (p.163): after a Living Legend's roll, remove any injuries wished (one question
    per injury; ruling TV-9: Living Legend may go too)."""

    def offer(st: Steps) -> None:
        v = next(x for x in _now(c, st).teams[seat].spec.vehicles if x.name == name)
        asks: list[Decision] = []
        for inj in career(v).injuries:

            def resolve(value: Any, st2: Steps, inj: str = inj) -> None:
                if value != "yes":
                    return
                v2 = next(x for x in _now(c, st2).teams[seat].spec.vehicles if x.name == name)
                car = career(v2)
                nv = with_career(v2, injuries=tuple(i for i in car.injuries if i != inj))
                st2.add(Record("vehicle", {"seat": seat, "vehicle": nv.model_dump(
                    mode="json", exclude_none=True)}, game_id))

            keep = inj in ("living-legend", "badass", "twitch", "deathwish")
            asks.append(Decision(StepAsk(seat, "remove_injury", f"seat {seat}: {name} is a "
                                         f"Living Legend: remove {inj}?", YES_NO,
                                         rule="CT-41", page=163,
                                         default="no" if keep else "yes"), resolve))
        st.now(*asks)

    return offer


def _workshop_offer(c: Campaign, seat: int,
                    game_id: str | None) -> Callable[[Steps], None]:
    """CT-42..CT-44 (p.164): scrap and buy with the stash; ``keep`` or the new roster."""
    from carnage.games.refuelled.campaign.seasons import parse_team_value, roster_value, team_json
    from carnage.team.workshop import price_change

    def offer(st: Steps) -> None:
        t = _now(c, st).teams[seat]
        default: Any = "keep"
        bought = bot_purchase(t.spec, t.stash)
        if bought is not None:
            default = team_json(bought)

        def resolve(value: Any, st2: Steps) -> None:
            spec = parse_team_value(value, f"seat {seat}")
            if spec is None:
                return
            t2 = _now(c, st2).teams[seat]
            bill = price_change(t2.spec, spec, t2.stash)
            if bill.problems:
                raise SeasonError(f"seat {seat} workshop: {'; '.join(bill.problems)}")
            new = spec.model_copy(update={"cans": max(1, team_cost(spec))})
            st2.add(Record("team", {"seat": seat, "team": team_json(new)}, game_id))
            if bill.net:
                st2.add(Record("stash", {"seat": seat, "cans": -bill.net,
                                         "why": f"workshop: spent {bill.cost}, scrapped for "
                                                f"{bill.refund}"}, game_id))

        st.now(Decision(StepAsk(seat, "workshop", f"seat {seat}: the workshop — scrap and buy "
                                f"with your {t.stash} Cans (a new roster), or keep the team",
                                choices(["keep"]), rule="CT-42", page=164, default=default),
                        resolve, check=lambda v: roster_value(v, f"seat {seat}")))

    return offer


def bot_purchase(spec: TeamSpec, stash: int) -> TeamSpec | None:
    """A bot's workshop: while the stash allows, buy what the team builder lets this team buy
    (a buggy if the team has fewer than two vehicles, else a weapon for the least armed
    vehicle); None if nothing can be bought."""
    from carnage.team.model import WeaponSpec
    from carnage.team.workshop import price_change

    current = spec
    for _ in range(6):
        left = price_change(spec, current, stash).stash_after
        options: list[TeamSpec] = []
        names = {v.name for v in current.vehicles}
        if len(current.vehicles) < min(2, MAX_VEHICLES):
            name = next(f"Spare Buggy {i}" for i in range(1, 20)
                        if f"Spare Buggy {i}" not in names)
            options.append(current.model_copy(update={"vehicles": (*current.vehicles,
                VehicleSpec(name=name, type="buggy",
                            weapons=(WeaponSpec(id="machine_gun", facing="front"),)))}))
        for v in sorted(current.vehicles, key=lambda x: len(x.weapons)):
            for weapon in ("heavy_machine_gun", "machine_gun"):
                armed = v.model_copy(update={"weapons": (*v.weapons, WeaponSpec(
                    id=weapon, facing="front"))})
                options.append(_replace_vehicle(current, armed))
        chosen = None
        for opt in options:
            bill = price_change(spec, opt, stash)
            if bill.valid and bill.stash_after >= 0 and bill.stash_after < left:
                chosen = opt
                break
        if chosen is None:
            break
        current = chosen
    return None if current is spec else current


def _spoil_text(r: Record) -> str:
    d = r.data
    if r.kind == "cp":
        return f"+{d['cp']} CP: {d['why']}"
    if r.kind == "stash":
        sign = "+" if int(d["cans"]) >= 0 else ""
        return f"{sign}{d['cans']} Cans: {d['why']}"
    if r.kind == "rp":
        return f"+{d['rp']} RP: {d['why']}"
    if r.kind == "wreck":
        return (f"{d['vehicle']} wreck roll {d['die']} + {d['dents']} dents "
                f"{'+' if d['weight'] >= 0 else ''}{d['weight']} = {d['total']}: {d['text']}"
                + (f" (lost {d['lost']})" if d.get("lost") else ""))
    if r.kind == "injury":
        return f"{d['vehicle']} took {d['injury']} for {d['dents']} dents ({d['when']})"
    return f"{d['vehicle']} destroyed"
