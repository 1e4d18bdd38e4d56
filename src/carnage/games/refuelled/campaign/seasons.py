"""Escalating and Championship Seasons (Refuelled pp.154–155) as pure functions of the records.

Nothing here touches a database: every figure (Cans allowance, Championship Points, standings,
the next event) is computed from a campaign's options and its ordered records, so the store
only ever appends.

Records this module reads and writes (``Record.kind``):

- ``join``: a team enters (``data``: ``seat``, ``team`` as the team file's JSON), with
  ``joined_after`` games already played;
- ``allowance``: Cans granted to a team (``team``, ``cans``, ``why``);
- ``team``: a team's new roster between games (``team``, ``spec``), checked against its
  allowance;
- ``game``: an event played (``scenario``, ``seed``, ``places``: seat lists best first,
  ``reason``, ``rounds``);
- ``points``: Championship Points a team scored in a game (``team``, ``place``, ``cp``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from carnage import bounds
from carnage.campaign.steps import (
    NextEvent,
    SeasonError,
    StepAsk,
    Steps,
    choices,
    done,
    extended,
)
from carnage.campaign.store import Campaign, Record
from carnage.games.refuelled.campaign.events import EventGames
from carnage.team import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.setup import GameSetup
    from carnage.kernel.contract import PlayableGame

MODES = ("escalating", "championship")
"""The two modes of this module (every mode: ``carnage.campaign.modes.MODES``)."""
__all__ = ["CHAMPIONSHIP", "ESCALATING", "SeasonError", "SeasonMode"]

START_CANS = 30  # Refuelled p.154: the recommended starting team size
BONUS_CANS = 10  # Refuelled p.154: the recommended bonus before each later game
CHAMPIONSHIP_POINTS = (5, 3, 1)  # Refuelled p.155: 1st, 2nd, 3rd; 4th and below score 0
DEFAULT_EVENTS = ("death-race", "capture-the-flag", "flag-tag", "street-race")
"""The events a season rotates through unless its options name others (ruling CMP-4)."""


__all__ = ["CHAMPIONSHIP", "ESCALATING", "SeasonError", "SeasonMode"]


def season_options(mode: str, *, start_cans: int = START_CANS, bonus: int = BONUS_CANS,
                   variant: str = "any", events: Sequence[str] = DEFAULT_EVENTS,
                   championship: bool | None = None,
                   escalating: bool | None = None,
                   games: int | None = None) -> dict[str, Any]:
    """The options record of a new season. Each mode keeps its own rule; ``championship`` /
    ``escalating`` add the other one (p.155 recommends combining them: CC-02)."""
    if mode not in MODES:
        raise SeasonError(f"unknown campaign mode {mode!r} (known: {', '.join(MODES)})")
    if start_cans < 1:
        raise SeasonError(f"start Cans must be at least 1, not {start_cans}")
    if bonus < 0:
        raise SeasonError(f"bonus Cans cannot be negative ({bonus})")
    if variant not in ("any", "perks-weapons"):
        raise SeasonError(f"unknown bonus variant {variant!r} (any, perks-weapons)")
    if not events:
        raise SeasonError("a season needs at least one event scenario")
    if len(events) > bounds.MAX_SEASON_GAMES:
        raise SeasonError(f"events: {len(events)} scenarios; a season rotates through at most "
                          f"{bounds.MAX_SEASON_GAMES} (ruling IN-7)")
    if games is not None and games < 1:
        raise SeasonError(f"a season of {games} games: give at least 1")
    if games is not None and games > bounds.MAX_SEASON_GAMES:
        raise SeasonError(f"a season of {games} games: at most {bounds.MAX_SEASON_GAMES} "
                          "(ruling IN-7)")
    for name, cans in (("start Cans", start_cans), ("bonus Cans", bonus)):
        if cans > bounds.MAX_RATING:
            raise SeasonError(f"{name}: {cans} is more than {bounds.MAX_RATING:,} "
                              "(ruling IN-2)")
    out: dict[str, Any] = {
        "start_cans": start_cans, "bonus": bonus, "variant": variant, "events": list(events),
        "escalating": mode == "escalating" if escalating is None else escalating,
        "championship": mode == "championship" if championship is None else championship,
    }
    if games is not None:
        out["games"] = games
    return out


# -- reading the records -----------------------------------------------------------------------
def games(records: Sequence[Record]) -> list[Record]:
    return [r for r in records if r.kind == "game"]


@dataclass(frozen=True)
class TeamState:
    seat: int
    name: str
    spec: TeamSpec
    joined_after: int
    """Games already played when the team joined."""
    allowance: int
    """Cans granted so far (start, bonuses, the late joiner's catch-up)."""


def teams(c: Campaign) -> list[TeamState]:
    """Every team as the records leave it, in seat order."""
    specs: dict[int, TeamSpec] = {}
    joined: dict[int, int] = {}
    cans: dict[int, int] = {}
    for r in c.records:
        if r.kind == "join":
            seat = int(r.data["seat"])
            specs[seat] = TeamSpec.model_validate(r.data["team"])
            joined[seat] = int(r.data["joined_after"])
            cans.setdefault(seat, 0)
        elif r.kind == "allowance":
            cans[int(r.data["seat"])] += int(r.data["cans"])
        elif r.kind == "team":
            specs[int(r.data["seat"])] = TeamSpec.model_validate(r.data["team"])
    return [TeamState(s, specs[s].name, specs[s], joined[s], cans[s]) for s in sorted(specs)]


# -- Escalating Seasons (p.154) ----------------------------------------------------------------
def entitlement(options: dict[str, Any], played: int) -> int:
    """Cans a team has received once ``played`` games are behind the season: the start Cans
    plus a bonus before every game after the first (CE-01, CE-02). A late joiner gets the
    same (CE-03: joining before game 4 gives 30 + 10 + 10 + 10)."""
    start = int(options["start_cans"])
    if not options.get("escalating", True):
        return start
    return start + int(options["bonus"]) * max(0, played)


def join_records(options: dict[str, Any], seat: int, team: TeamSpec,
                 played: int) -> list[Record]:
    """A team entering after ``played`` games: its join, and its Cans (CE-03). The team must
    fit what it is given."""
    cans = entitlement(options, played)
    spec = check_roster(team, cans, f"seat {seat}")
    return [
        Record("join", {"seat": seat, "team": spec.model_dump(mode="json", exclude_none=True),
                        "joined_after": played}),
        Record("allowance", {"seat": seat, "cans": cans,
                             "why": "start" if played == 0 else f"joined after {played} games"}),
    ]


def check_roster(team: TeamSpec, cans: int, who: str) -> TeamSpec:
    """The team with its budget set to ``cans``; ``SeasonError`` if it costs more or is
    otherwise illegal (the team builder's checks)."""
    from carnage.games.refuelled.setup import SetupError, checked_team

    spec = team.model_copy(update={"cans": cans})
    try:
        checked_team(spec, who)
    except SetupError as e:
        raise SeasonError(str(e)) from None
    return spec


def change_team(c: Campaign, seat: int, new: TeamSpec) -> Record:
    """A team's new roster between games (CE-02), within its allowance. In the
    perks-and-weapons variant (CE-04) it must keep the same vehicles (ruling CMP-2)."""
    current = {t.seat: t for t in teams(c)}
    if seat not in current:
        raise SeasonError(f"campaign {c.id} has no team in seat {seat}")
    old = current[seat]
    if c.options.get("variant") == "perks-weapons":
        before = [(v.name, v.type) for v in old.spec.vehicles]
        after = [(v.name, v.type) for v in new.vehicles]
        if before != after:
            raise SeasonError(
                f"{old.name}: this season's bonus buys only perks and weapons; the vehicles "
                f"must stay {before}")
    spec = check_roster(new, old.allowance, old.name)
    return Record("team", {"seat": seat, "team": spec.model_dump(mode="json",
                                                                 exclude_none=True)})


# -- Championship Seasons (p.155) --------------------------------------------------------------
def points_for(place: int) -> int:
    """Championship Points for finishing ``place`` (1-based; CC-01)."""
    return CHAMPIONSHIP_POINTS[place - 1] if 1 <= place <= len(CHAMPIONSHIP_POINTS) else 0


def ranked(places: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each seat's place from groups best first; tied seats share the better place and the
    places they fill are skipped (ruling CMP-1: 1, 1, 3)."""
    out: dict[int, int] = {}
    place = 1
    for group in places:
        for seat in group:
            out[seat] = place
        place += len(group)
    return out


def post_game_records(c: Campaign, game_id: str, scenario: str, seed: int,
                      places: Sequence[Sequence[int]], reason: str,
                      rounds: int) -> list[Record]:
    """The whole post-game sequence, in order: the result, each team's Championship Points
    (if the season keeps them), then every team's bonus Cans for the next game (if it
    escalates). The store writes it as one transaction."""
    seats = {t.seat for t in teams(c)}
    flat = [s for g in places for s in g]
    if sorted(flat) != sorted(seats):
        raise SeasonError(f"finishing order {list(places)} does not name every seat once")
    out = [Record("game", {"scenario": scenario, "seed": seed,
                           "places": [list(g) for g in places], "reason": reason,
                           "rounds": rounds}, game_id)]
    if c.options.get("championship"):
        for seat, place in sorted(ranked(places).items()):
            out.append(Record("points", {"seat": seat, "place": place,
                                         "cp": points_for(place)}, game_id))
    if c.options.get("escalating") and int(c.options["bonus"]) > 0:
        n = len(games(c.records)) + 1
        for seat in sorted(seats):
            out.append(Record("allowance", {"seat": seat, "cans": int(c.options["bonus"]),
                                            "why": f"bonus before game {n + 1}"}, game_id))
    return out


@dataclass(frozen=True)
class Standing:
    seat: int
    name: str
    cp: int
    games: int
    finishes: tuple[int, ...]
    """How many 1st, 2nd, 3rd, ... places, for the tie-break."""
    allowance: int
    spent: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "team": self.name, "cp": self.cp, "games": self.games,
                "finishes": list(self.finishes), "cans": self.allowance,
                "spent": self.spent, "unspent": self.allowance - self.spent}


def team_cost(spec: TeamSpec) -> int:
    from carnage.team import check_team

    return int(check_team(spec).total_cans)


def standings(c: Campaign) -> list[Standing]:
    """The table, best first: most Championship Points, then most 1st places, then most
    2nd places and so on (ruling CMP-3); still-tied teams keep seat order."""
    ts = teams(c)
    cp = {t.seat: 0 for t in ts}
    played = {t.seat: 0 for t in ts}
    finishes = {t.seat: [0] * max(1, len(ts)) for t in ts}
    for r in c.records:
        if r.kind == "points":
            cp[int(r.data["seat"])] += int(r.data["cp"])
        elif r.kind == "game":
            for seat, place in ranked(r.data["places"]).items():
                played[seat] += 1
                finishes[seat][min(place, len(ts)) - 1] += 1
    rows = [Standing(t.seat, t.name, cp[t.seat], played[t.seat], tuple(finishes[t.seat]),
                     t.allowance, team_cost(t.spec)) for t in ts]
    return sorted(rows, key=lambda s: (-s.cp, tuple(-n for n in s.finishes), s.seat))


def next_event(c: Campaign) -> dict[str, Any]:
    """The next game: its number (1-based) and its scenario, the season's events in turn."""
    n = len(games(c.records))
    events = list(c.options["events"])
    return {"game": n + 1, "scenario": events[n % len(events)],
            "teams": [t.name for t in teams(c)]}


def champion(c: Campaign) -> list[str]:
    """The team(s) leading the standings (CC-03); more than one when the tie-break cannot
    separate them; empty before any game."""
    rows = standings(c)
    if not rows or not games(c.records):
        return []
    top = rows[0]
    return [r.name for r in rows if (r.cp, r.finishes) == (top.cp, top.finishes)]


# -- the two modes on the campaign modes interface ---------------------------------------------
def team_json(spec: TeamSpec) -> dict[str, Any]:
    return spec.model_dump(mode="json", exclude_none=True)


def parse_team_value(value: Any, who: str) -> TeamSpec | None:
    """A roster answer: ``"keep"`` (None) or a team file as JSON (a dict); ``SeasonError``
    naming the first problem."""
    from carnage.team import TeamFileError
    from carnage.team.io import parse_team

    if value == "keep" or value is None:
        return None
    if isinstance(value, TeamSpec):
        return value
    if not isinstance(value, dict):
        raise SeasonError(f"{who}: a new roster is a team (JSON object) or 'keep', not "
                          f"{type(value).__name__}")
    try:
        return parse_team(value, who)
    except TeamFileError as e:
        raise SeasonError(str(e).splitlines()[0]) from None


def roster_value(value: Any, who: str) -> Any:
    """A roster answer checked as a team (``"keep"`` or the team's JSON, returned as given)."""
    spec = parse_team_value(value, who)
    return "keep" if spec is None else team_json(spec)


def _raw_events(raw: Any) -> list[str]:
    from carnage.games.refuelled.scenarios import SCENARIOS

    names = ([s.strip() for s in raw.split(",") if s.strip()] if isinstance(raw, str)
             else [str(s) for s in raw])
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        raise SeasonError(f"events: unknown scenario {unknown[0]!r} (see `carnage scenarios`)")
    return names


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


def team_rows(ts: Sequence[TeamState]) -> list[dict[str, Any]]:
    return [{"seat": t.seat, "team": t.name, "sponsor": t.spec.sponsor, "cans": t.allowance,
             "joined_after": t.joined_after,
             "vehicles": [vehicle_row(v) for v in t.spec.vehicles]} for t in ts]


def vehicle_row(v: Any) -> dict[str, Any]:
    return {"name": v.name, "type": v.type, "weapons": [w.id for w in v.weapons],
            "upgrades": [u.id for u in v.upgrades], "perks": list(v.perks),
            "career": (v.career.model_dump(mode="json") if v.career is not None else None)}


class SeasonMode(EventGames):
    """Escalating (p.154) or Championship (p.155) Seasons on the modes interface. Options:
    ``start_cans``, ``bonus``, ``variant``, ``events`` (scenarios in turn), ``combined``
    (both rules, p.155), ``games`` (season length; absent: open-ended)."""

    KEYS = frozenset({"start_cans", "bonus", "variant", "events", "combined", "games",
                      "championship", "escalating"})

    def __init__(self, mode: str, name: str) -> None:
        self.id = mode
        self.name = name

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(raw) - self.KEYS)
        if unknown:
            raise SeasonError(f"{self.id}: unknown option {unknown[0]!r} "
                              f"(known: {', '.join(sorted(self.KEYS))})")
        combined = bool(raw.get("combined"))
        return season_options(
            self.id, start_cans=_int(raw, "start_cans", START_CANS) or 0,
            bonus=_int(raw, "bonus", BONUS_CANS) or 0,
            variant=str(raw.get("variant", "any")),
            events=_raw_events(raw.get("events", DEFAULT_EVENTS)),
            championship=True if combined else raw.get("championship"),
            escalating=True if combined else raw.get("escalating"),
            games=_int(raw, "games", None))

    def start(self, options: Mapping[str, Any], teams: Sequence[TeamSpec]) -> list[Record]:
        if len(teams) < 2:
            raise SeasonError("a season needs at least two teams")
        out: list[Record] = []
        for seat, spec in enumerate(teams):
            out += join_records(dict(options), seat, spec, 0)
        return out

    def summary(self, c: Campaign, seat: int | None = None) -> dict[str, Any]:
        ev = self.next_event(c)
        played = games(c.records)
        events = list(c.options["events"])
        length = c.options.get("games")
        return {
            "id": c.id, "mode": c.mode, "name": self.name, "options": c.options,
            "version": c.version, "games": len(played),
            "standings": [s.to_json() for s in standings(c)],
            "schedule": [{"game": i + 1, "scenario": events[i % len(events)],
                          "played": i < len(played)}
                         for i in range(max(len(played) + 1, length or 0))],
            "next": None if ev is None else ev.to_json(),
            "finished": ev is None,
            "champion": champion(c),
            "titles": ({"champion": champion(c)} if ev is None else {}),
            "teams": team_rows(teams(c)),
            "results": [r.to_json() for r in played],
            "pending": [],
        }

    def next_event(self, c: Campaign,
                   request: Mapping[str, Any] | None = None) -> NextEvent | None:
        if request:
            raise SeasonError(f"{self.name}: the next game takes no choices "
                              f"(got {', '.join(sorted(request))})")
        n = len(games(c.records))
        length = c.options.get("games")
        if length is not None and n >= int(length):
            return None
        events = list(c.options["events"])
        ts = teams(c)
        return NextEvent(n + 1, events[n % len(events)], tuple(t.seat for t in ts),
                         info=(("teams", [t.name for t in ts]),))

    def setup(self, c: Campaign, ev: NextEvent) -> GameSetup:
        from carnage.games.refuelled.setup import GameSetup

        by_seat = {t.seat: t for t in teams(c)}
        return GameSetup(scenario=ev.scenario,
                         teams=tuple(by_seat[s].spec.model_copy(
                             update={"cans": by_seat[s].allowance}) for s in ev.seats),
                         players=len(ev.seats), scenario_options=ev.options)

    def pregame(self, c: Campaign, ev: NextEvent) -> Steps:
        return done()

    def post_game(self, c: Campaign, ev: NextEvent, played: PlayableGame, game_id: str,
                  seed: int) -> Steps:
        """The result, each team's Championship Points, every team's bonus Cans, then (in
        an escalating season) each team's chance to spend them: one step sequence."""
        from carnage.games.refuelled.campaign.events import (
            event_game,
            finishing_order,
            game_result,
        )

        game = event_game(played)
        places = [[ev.seats[p] for p in g] for g in finishing_order(game)]
        reason, rounds = game_result(game)
        steps = Steps(seed)
        steps.add(*post_game_records(c, game_id, ev.scenario, seed, places, reason, rounds))
        if c.options.get("escalating"):
            for seat in ev.seats:
                steps.then(self._roster_decision(c, seat))
        return steps.start()

    def roster(self, c: Campaign, seat: int) -> Steps:
        if seat not in {t.seat for t in teams(c)}:
            raise SeasonError(f"campaign {c.id} has no team in seat {seat}")
        return Steps().then(self._roster_decision(c, seat)).start()

    def _roster_decision(self, c: Campaign, seat: int) -> Any:
        from carnage.campaign.steps import Decision

        def resolve(value: Any, steps: Steps) -> None:
            now = extended(c, steps.written())
            spec = parse_team_value(value, f"seat {seat}")
            if spec is not None:
                steps.add(change_team(now, seat, spec))

        ask = StepAsk(seat, "roster", f"seat {seat}: spend your Cans on a new roster, or keep "
                      "the team", choices(["keep"]), rule="CE-02", page=154, default="keep")
        return Decision(ask, resolve, check=lambda v: roster_value(v, f"seat {seat}"))


ESCALATING = SeasonMode("escalating", "Escalating Season")
CHAMPIONSHIP = SeasonMode("championship", "Championship Season")
