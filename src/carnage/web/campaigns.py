"""The campaign page's one door to the campaign modes (``carnage.campaign``).

Everything the campaign router needs from a mode goes through here: the modes on offer and
their options, starting a campaign, its summary (standings, schedule, rosters, results), the
next event and its game setup, the decisions before and after a game (step sequences), a
roster change between games, and the standings over the season for the chart. The router
never calls a mode directly, so the modes interface can change in one place.

The web page keeps its own bookkeeping as campaign records too (kinds starting ``web-``),
appended with the same version check as everything else, so two browsers are serialised:

- ``web-seat``: a seat was claimed (its token's hash is in the owners table, never here);
- ``web-event``: an event was started from the page (``event``, ``seed``, ``controllers``
  per campaign seat, ``max_rounds``);
- ``web-step``: a seat's choice in the event's step sequence (``event``, ``phase``
  ``pregame`` or ``post``, ``seat``, ``value``, ``secret``);
- ``web-table``: the table game the event is played in (``event``, ``game``);
- ``web-done``: the event's post-game sequence is recorded (in the same transaction).

The modes never see these: ``mode_view`` hands them the campaign without them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from carnage.campaign import seasons
from carnage.campaign.seasons import SeasonError
from carnage.campaign.store import Campaign, Record
from carnage.engine.game import Game
from carnage.rulesets.setup import GameSetup
from carnage.team import TeamSpec

WEB = "web-"
"""Prefix of the page's own record kinds."""


# -- step sequences ----------------------------------------------------------------------------
class Steps(Protocol):
    """Decisions offered to one seat at a time (the modes' step sequences)."""

    def pending(self) -> Any: ...

    def choose(self, seat: int, value: Any) -> None: ...

    def records(self) -> list[Record]: ...


@dataclass
class Done:
    """A sequence with nothing to decide: its records are ready."""

    out: list[Record] = field(default_factory=list)

    def pending(self) -> Any:
        return None

    def choose(self, seat: int, value: Any) -> None:
        raise SeasonError("nothing is waiting for a decision")

    def records(self) -> list[Record]:
        return list(self.out)


def ask_json(ask: Any) -> dict[str, Any]:
    """A pending step as JSON: ``seat``, ``kind``, ``prompt``, ``options``, ``rule``,
    ``page``, ``secret``."""
    if isinstance(ask, Mapping):
        raw: dict[str, Any] = dict(ask)
    elif hasattr(ask, "to_json"):
        raw = dict(ask.to_json())
    else:
        raw = {k: getattr(ask, k, None) for k in
               ("seat", "kind", "prompt", "options", "rule", "page", "secret")}
    opts = raw.get("options")
    if isinstance(opts, tuple):
        opts = list(opts)
    return {"seat": int(raw["seat"]), "kind": str(raw.get("kind") or ""),
            "prompt": str(raw.get("prompt") or ""), "options": opts,
            "rule": raw.get("rule"), "page": raw.get("page"),
            "secret": bool(raw.get("secret", False))}


def auto_choice(ask: dict[str, Any]) -> Any:
    """What a bot seat answers: the first option, or the bottom of a number range."""
    opts = ask["options"]
    if isinstance(opts, list) and opts:
        first = opts[0]
        return first["value"] if isinstance(first, Mapping) else first
    if isinstance(opts, Mapping):
        return opts.get("min", opts.get("low", 0))
    if isinstance(opts, list | tuple) and len(opts) == 2:
        return opts[0]
    raise SeasonError(f"a bot cannot answer {ask['kind']!r}: it offers no options")


# -- the modes ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ModeInfo:
    id: str
    name: str
    options: dict[str, Any]
    """The options a new campaign of this mode takes, with their defaults."""
    min_teams: int = 2
    max_teams: int = 8

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "options": self.options,
                "min_teams": self.min_teams, "max_teams": self.max_teams}


_SEASON_OPTIONS: dict[str, Any] = {
    "start_cans": seasons.START_CANS, "bonus": seasons.BONUS_CANS, "variant": "any",
    "events": list(seasons.DEFAULT_EVENTS), "combined": False,
}
MODE_INFO: tuple[ModeInfo, ...] = (
    ModeInfo("escalating", "Escalating Season", dict(_SEASON_OPTIONS)),
    ModeInfo("championship", "Championship Season", dict(_SEASON_OPTIONS)),
)


def modes() -> list[ModeInfo]:
    return list(MODE_INFO)


def mode_info(mode: str) -> ModeInfo:
    for m in MODE_INFO:
        if m.id == mode:
            return m
    known = ", ".join(m.id for m in MODE_INFO)
    raise SeasonError(f"mode: unknown campaign mode {mode!r} (known: {known})")


def _int(raw: Mapping[str, Any], key: str, default: int) -> int:
    v = raw.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise SeasonError(f"options.{key}: expected a whole number, not {v!r}")
    if not -10_000 <= v <= 10_000:
        raise SeasonError(f"options.{key}: {v} is out of range")
    return v


def _options(mode: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    info = mode_info(mode)
    unknown = sorted(set(raw) - set(info.options))
    if unknown:
        raise SeasonError(f"options.{unknown[0]}: unknown option for {info.name} "
                          f"(known: {', '.join(info.options)})")
    events = raw.get("events", list(seasons.DEFAULT_EVENTS))
    if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
        raise SeasonError("options.events: expected a list of scenario ids")
    from carnage.rules.scenarios import SCENARIOS

    bad = [e for e in events if e not in SCENARIOS]
    if bad:
        raise SeasonError(f"options.events: unknown scenario {bad[0]!r}")
    variant = raw.get("variant", "any")
    if not isinstance(variant, str):
        raise SeasonError("options.variant: expected any or perks-weapons")
    combined = raw.get("combined", False)
    if not isinstance(combined, bool):
        raise SeasonError("options.combined: expected true or false")
    try:
        return seasons.season_options(
            mode, start_cans=_int(raw, "start_cans", seasons.START_CANS),
            bonus=_int(raw, "bonus", seasons.BONUS_CANS), variant=variant, events=events,
            championship=True if combined else None, escalating=True if combined else None)
    except SeasonError as e:
        raise SeasonError(f"options: {e}") from None


def start(mode: str, raw: Mapping[str, Any],
          teams: Sequence[TeamSpec]) -> tuple[dict[str, Any], list[Record]]:
    """A new campaign's checked options and first records; ``SeasonError`` naming what is
    wrong (``teams.N`` for a team that does not fit)."""
    info = mode_info(mode)
    if not info.min_teams <= len(teams) <= info.max_teams:
        raise SeasonError(f"teams: {info.name} takes {info.min_teams} to {info.max_teams} "
                          f"teams, not {len(teams)}")
    options = _options(mode, raw)
    records: list[Record] = []
    for seat, spec in enumerate(teams):
        try:
            records += seasons.join_records(options, seat, spec, 0)
        except SeasonError as e:
            raise SeasonError(f"teams.{seat}: {e}") from None
    return options, records


def mode_view(c: Campaign) -> Campaign:
    """The campaign as the modes see it: without the page's own records."""
    return replace(c, records=tuple(r for r in c.records if not r.kind.startswith(WEB)))


def mode_name(c: Campaign) -> str:
    try:
        return mode_info(c.mode).name
    except SeasonError:
        return c.mode


def _vehicle(v: Any) -> dict[str, Any]:
    career = v.career.model_dump(mode="json") if v.career is not None else None
    return {"name": v.name, "type": v.type,
            "weapons": [w.id for w in v.weapons],
            "upgrades": [u.id for u in v.upgrades], "perks": list(v.perks),
            "career": career}


def summary(c: Campaign) -> dict[str, Any]:
    """Standings, schedule, each team's roster with its vehicles' careers, results, the next
    event and whether the campaign is over (the modes' summary)."""
    m = mode_view(c)
    played = seasons.games(m.records)
    events = list(m.options.get("events", []))
    nxt = next_event(c)
    schedule = [{"game": i + 1, "scenario": r.data.get("scenario"), "played": True,
                 "game_id": r.game_id} for i, r in enumerate(played)]
    if nxt is not None and events:
        for k in range(nxt["game"], nxt["game"] + len(events)):
            schedule.append({"game": k, "scenario": events[(k - 1) % len(events)],
                             "played": False, "game_id": None})
    return {
        "standings": [s.to_json() for s in seasons.standings(m)],
        "schedule": schedule,
        "teams": [{"seat": t.seat, "team": t.name, "cans": t.allowance,
                   "sponsor": t.spec.sponsor, "cost": seasons.team_cost(t.spec),
                   "joined_after": t.joined_after,
                   "spec": t.spec.model_dump(mode="json", exclude_none=True),
                   "vehicles": [_vehicle(v) for v in t.spec.vehicles]}
                  for t in seasons.teams(m)],
        "next": nxt, "finished": nxt is None, "titles": seasons.champion(m),
        "results": [r.to_json() for r in played],
    }


def next_event(c: Campaign) -> dict[str, Any] | None:
    """The next event (``game`` number, ``scenario``), None once the campaign is over. The
    seasons of pp.154-155 run as long as their players like: never over."""
    return seasons.next_event(mode_view(c))


def seat_order(c: Campaign, ev: Mapping[str, Any]) -> list[int]:
    """The campaign seat of each player of the event's game, in the game's seat order."""
    return [t.seat for t in seasons.teams(mode_view(c))]


def setup(c: Campaign, ev: Mapping[str, Any]) -> GameSetup:
    m = mode_view(c)
    ts = seasons.teams(m)
    return GameSetup(scenario=str(ev["scenario"]),
                     teams=tuple(t.spec.model_copy(update={"cans": t.allowance}) for t in ts),
                     players=len(ts))


def pregame(c: Campaign, ev: Mapping[str, Any]) -> Steps:
    """Decisions before the event (none in the seasons of pp.154-155)."""
    return Done()


def post_game(c: Campaign, ev: Mapping[str, Any], game: Game, game_id: str,
              seed: int) -> Steps:
    """The post-game sequence of an event played in ``game``."""
    from carnage.campaign.play import finishing_order

    order = finishing_order(game)
    seats = seat_order(c, ev)
    places = [[seats[p] for p in g] for g in order]
    o = game.outcome()
    reason = "" if o is None else o.reason
    rounds = game.state.round if o is None else o.rounds
    return Done(seasons.post_game_records(mode_view(c), game_id, str(ev["scenario"]), seed,
                                          places, reason, rounds))


@dataclass(frozen=True)
class RosterCheck:
    """A proposed roster between games: the record to append (None if refused), what it
    costs and gives back, and every problem found."""

    record: Record | None
    cost: int
    refund: int
    problems: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.record is not None, "cost": self.cost, "refund": self.refund,
                "problems": self.problems}


def change_team(c: Campaign, seat: int, new: TeamSpec) -> RosterCheck:
    """A team's new roster between games, checked by the team builder and the mode."""
    m = mode_view(c)
    try:
        rec = seasons.change_team(m, seat, new)
    except SeasonError as e:
        return RosterCheck(None, 0, 0, [str(e)])
    return RosterCheck(rec, seasons.team_cost(new), 0, [])


def chart(c: Campaign) -> dict[str, Any]:
    """Championship Points over the season: for each seat, its running total after each game
    (the first point is 0, before any game)."""
    m = mode_view(c)
    ts = seasons.teams(m)
    running = {t.seat: 0 for t in ts}
    series: dict[int, list[int]] = {t.seat: [0] for t in ts}
    gids: list[str | None] = []
    for r in m.records:
        if r.kind == "game":
            gids.append(r.game_id)
    by_game: dict[str | None, dict[int, int]] = {g: {} for g in gids}
    for r in m.records:
        if r.kind == "points" and r.game_id in by_game:
            seat = int(r.data["seat"])
            by_game[r.game_id][seat] = by_game[r.game_id].get(seat, 0) + int(r.data["cp"])
    for g in gids:
        for seat in running:
            running[seat] += by_game[g].get(seat, 0)
            series[seat].append(running[seat])
    return {"games": len(gids),
            "series": [{"seat": t.seat, "team": t.name, "cp": series[t.seat]} for t in ts]}
