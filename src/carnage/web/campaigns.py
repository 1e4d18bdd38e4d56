"""The campaign page's one door to the campaign modes (``carnage.campaign``).

Everything the campaign router needs from a mode goes through here: the modes on offer and
their options, starting a campaign, its summary (standings, schedule, rosters, results), the
next event and its game setup, the decisions before and after a game (step sequences), a
roster change between games, and the standings over the season for the chart. The router
never calls a mode directly, so the modes interface can change in one place. Like the modes
interface, it reaches a game only through the kernel's contracts (an ``EventSetup``, a
``PlayableGame``): no game package is imported here.

The web page keeps its own bookkeeping as campaign records too (kinds starting ``web-``),
appended with the same version check as everything else, so two browsers are serialised:

- ``web-seat``: a seat was claimed (its token's hash is in the owners table, never here);
- ``web-event``: an event was started from the page (``event``, ``seed``, ``controllers``
  per campaign seat, ``max_rounds``, ``request``: what the meeting decided);
- ``web-step``: a seat's answer in the event's step sequence (``event``, ``phase``
  ``pregame`` or ``post``, ``seat``, ``kind``, ``value``; a secret answer's ``value`` is
  hidden from every other seat, ``carnage.campaign.steps.secret``), replayed to rebuild it;
- ``web-table``: the table game the event is played in (``event``, ``game``);
- ``web-done``: the event's post-game sequence is recorded (in the same transaction).

The modes never see these: ``mode_view`` hands them the campaign without them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from carnage.campaign.modes import MODES, Mode, NextEvent, SeasonError, StepAsk, Steps
from carnage.campaign.steps import extended
from carnage.campaign.store import Campaign, Record
from carnage.kernel.campaign_modes import EventSetup
from carnage.kernel.contract import PlayableGame
from carnage.team import TeamSpec, VehicleSpec

__all__ = ["NextEvent", "SeasonError", "StepAsk", "Steps"]

WEB = "web-"
"""Prefix of the page's own record kinds."""

MAX_TEAMS = 8
OPTION_DEFAULTS: Mapping[str, Mapping[str, Any]] = {
    "escalating": {"start_cans": 30, "bonus": 10, "variant": "any",
                   "events": ["death-race", "capture-the-flag", "flag-tag", "street-race"],
                   "games": None, "combined": False},
    "championship": {"start_cans": 30, "bonus": 10, "variant": "any",
                     "events": ["death-race", "capture-the-flag", "flag-tag", "street-race"],
                     "games": None, "combined": False},
    "televised": {"start_cans": 30, "events": 4, "schedule": ""},
}
"""The option fields the create form shows for a mode (a mode not listed takes its options as
JSON); every value is checked by the mode itself."""


# -- the modes ---------------------------------------------------------------------------------
OPTION_NAMES: Mapping[str, str] = {
    "start_cans": "Starting Cans", "bonus": "Bonus Cans after each game",
    "variant": "Variant", "events": "Events, in turn", "games": "Games (none: one per event)",
    "combined": "Combined standings", "schedule": "Televised Events (none: all rolled)",
}
"""Each option's name on the create form."""
PICKED_FROM_SCENARIOS = frozenset({"events"})
"""Options whose values are scenarios of the mode's ruleset (the form offers them to pick)."""


@dataclass(frozen=True)
class ModeInfo:
    id: str
    name: str
    options: dict[str, Any]
    choices: dict[str, list[dict[str, str]]]
    """For an option picked from a list: each choice's ``value`` and ``name``."""
    labels: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "options": self.options,
                "choices": self.choices, "labels": self.labels}


def _ruleset_of(mode_id: str) -> Any:
    """The ruleset of the registry that declares the campaign mode ``mode_id`` (None: none)."""
    from carnage.rulesets import RULESETS

    return next((rs for rs in RULESETS.values() if mode_id in rs.campaign_modes), None)


def _choices(mode_id: str, options: Mapping[str, Any]) -> dict[str, list[dict[str, str]]]:
    rs = _ruleset_of(mode_id)
    if rs is None:
        return {}
    scenarios = [{"value": sid, "name": str(getattr(cls, "name", sid))}
                 for sid, cls in sorted(rs.scenarios.items(),
                                        key=lambda kv: str(getattr(kv[1], "name", kv[0])))]
    return {k: scenarios for k, v in options.items()
            if k in PICKED_FROM_SCENARIOS and isinstance(v, list)}


def _scenario_names(mode_id: str) -> dict[str, str]:
    """The scenarios of the mode's ruleset by name (the schedule says names, never ids)."""
    rs = _ruleset_of(mode_id)
    if rs is None:
        return {}
    return {sid: str(getattr(cls, "name", sid)) for sid, cls in rs.scenarios.items()}


def modes() -> list[ModeInfo]:
    out = []
    for m in MODES.values():
        options = dict(OPTION_DEFAULTS.get(m.id, {}))
        out.append(ModeInfo(m.id, m.name, options, _choices(m.id, options),
                            {k: OPTION_NAMES[k] for k in options if k in OPTION_NAMES}))
    return out


def team_cost(team: TeamSpec) -> int:
    """What ``team`` costs in Cans, as the team builder counts it."""
    from carnage.team import check_team

    return int(check_team(team).total_cans)


def fit_cans(mode: str, raw: Mapping[str, Any], teams: Sequence[TeamSpec]) -> dict[str, Any]:
    """The options with the starting Cans checked against the teams: when none are given, the
    mode's default or, if a team costs more, what the costliest team costs; when given and a
    team costs more, ``SeasonError`` saying which team, what it costs and what to change."""
    out = dict(raw)
    if "start_cans" not in OPTION_DEFAULTS.get(mode, {}) or not teams:
        return out
    costs = [(team_cost(t), t.name) for t in teams]
    most, name = max(costs)
    given = out.get("start_cans")
    if given is None:
        out["start_cans"] = max(int(OPTION_DEFAULTS[mode]["start_cans"]), most)
        return out
    if isinstance(given, int) and not isinstance(given, bool) and most > given:
        dearer = [n for c, n in costs if c > given]
        who = dearer[0] if len(dearer) == 1 else f"{len(dearer)} teams ({', '.join(dearer)})"
        raise SeasonError(
            f"options.start_cans: {who} cost{'s' if len(dearer) == 1 else ''} more than the "
            f"{given} Cans each team starts with ({name} costs {most}): set Starting Cans to "
            f"{most} or more, or choose cheaper teams")
    return out


_SEAT_NAMED = re.compile(r"\bseat (\d+) \(([^()]*)\)(?: \(\2\))?:(?: Team:)?")
_SEAT = re.compile(r"\bseat (\d+)\b")


def team_words(text: str) -> str:
    """A mode's message about a team in the form's words: "team 1 (Road Hogs): ..." in place
    of "seat 0 (Road Hogs) (Road Hogs): Team: ..."."""
    return _SEAT_NAMED.sub(lambda m: f"team {int(m.group(1)) + 1} ({m.group(2)}):", text)


def seat_words(text: str, names: Mapping[int, str]) -> str:
    """``text`` with "seat N" said as the team in that seat (its name)."""
    def name(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        return names.get(seat) or f"seat {seat + 1}"

    return _SEAT.sub(name, text)


def mode_of(mode: str) -> Mode:
    try:
        return MODES[mode]
    except KeyError:
        raise SeasonError(f"mode: unknown campaign mode {mode!r} (known: "
                          f"{', '.join(MODES)})") from None


def start(mode: str, raw: Mapping[str, Any],
          teams: Sequence[TeamSpec]) -> tuple[dict[str, Any], list[Record]]:
    """A new campaign's checked options and first records; ``SeasonError`` naming what is
    wrong (``options: ...``, ``teams: ...``)."""
    m = mode_of(mode)
    clean = fit_cans(mode, {k: v for k, v in raw.items() if v is not None}, teams)
    try:
        options = m.options(clean)
    except SeasonError as e:
        text = str(e)
        key = text.split(":", 1)[0]
        where = f"options.{key}:" if key in clean else "options:"
        rest = text[len(key) + 1:] if key in clean else " " + text
        raise SeasonError(f"{where}{rest}") from None
    try:
        records = m.start(options, teams)
    except SeasonError as e:
        raise SeasonError(f"teams: {team_words(str(e))}") from None
    return options, records


def mode_view(c: Campaign) -> Campaign:
    """The campaign as the modes see it: without the page's own records."""
    return replace(c, records=tuple(r for r in c.records if not r.kind.startswith(WEB)))


def mode_name(c: Campaign) -> str:
    m = MODES.get(c.mode)
    return c.mode if m is None else m.name


def summary(c: Campaign, seat: int | None = None) -> dict[str, Any]:
    """The mode's summary as ``seat`` may see it (None: a spectator), each schedule line of a
    game played with its table game's id."""
    m = mode_view(c)
    out = mode_of(c.mode).summary(m, seat)
    gids = [r.get("game") for r in out.get("results", [])]
    for row in out.get("schedule", []):
        n = row.get("game")
        row.setdefault("game_id", gids[n - 1] if row.get("played") and isinstance(n, int)
                       and 0 < n <= len(gids) else None)
    named = _scenario_names(c.mode)
    for row in [*out.get("schedule", []), *([out["next"]] if isinstance(out.get("next"), dict)
                                          else [])]:
        sid = row.get("played_as") or row.get("scenario")
        if isinstance(sid, str) and sid in named:
            row.setdefault("scenario_name", named[sid])
    spent = {r.get("seat"): r.get("spent") for r in out.get("standings", [])}
    for team in out.get("teams", []):
        team.setdefault("cost", spent.get(team.get("seat")))
        if "spec" not in team:  # what the roster editor starts from
            spec = _current(m, int(team["seat"]))
            team["spec"] = None if spec is None else spec.model_dump(mode="json",
                                                                     exclude_none=True)
    return out


def next_event(c: Campaign, request: Mapping[str, Any] | None = None) -> NextEvent | None:
    return mode_of(c.mode).next_event(mode_view(c), request or None)


def setup(c: Campaign, ev: NextEvent) -> EventSetup:
    """The game set-up of ``ev``, as the campaign's mode makes it."""
    return mode_of(c.mode).setup(mode_view(c), ev)


def pregame(c: Campaign, ev: NextEvent) -> Steps:
    return mode_of(c.mode).pregame(mode_view(c), ev)


def post_game(c: Campaign, ev: NextEvent, game: PlayableGame, game_id: str,
              seed: int) -> Steps:
    return mode_of(c.mode).post_game(mode_view(c), ev, game, game_id, seed)


def ask_json(ask: StepAsk, names: Mapping[int, str] | None = None) -> dict[str, Any]:
    """A pending step as its seat sees it, every seat named by its team (``names``)."""
    out = ask.to_json()
    if names:
        out["prompt"] = seat_words(str(out["prompt"]), names)
        for o in out.get("options") or []:
            if isinstance(o.get("label"), str):
                o["label"] = seat_words(o["label"], names)
    return out


@dataclass(frozen=True)
class RosterCheck:
    """A proposed roster between games: the records to append (None if refused), the
    workshop's bill for it, and every problem found."""

    records: list[Record] | None
    bill: dict[str, Any] | None
    problems: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.records is not None, "problems": self.problems,
                "workshop": self.bill}


def _bill(c: Campaign, seat: int, new: TeamSpec) -> dict[str, Any] | None:
    """The workshop's prices for the change (p.164), against what the team has unspent."""
    from carnage.team.workshop import price_change

    m = mode_view(c)
    s = mode_of(c.mode).summary(m, seat)
    team = next((t for t in s.get("teams", []) if t.get("seat") == seat), None)
    row = next((r for r in s.get("standings", []) if r.get("seat") == seat), None)
    old = _current(m, seat)
    if team is None or old is None:
        return None
    stash = row.get("unspent") if row is not None else None
    if not isinstance(stash, int):
        stash = int(team.get("stash", team.get("cans", 0)) or 0)
    out: dict[str, Any] = price_change(old, new, stash).to_json()
    return out


def _current(c: Campaign, seat: int) -> TeamSpec | None:
    """The seat's roster as the records leave it (its last join or team record)."""
    from carnage.team import parse_team

    spec: TeamSpec | None = None
    for r in c.records:
        if r.data.get("seat") != seat:
            continue
        if r.kind in ("join", "team") and isinstance(r.data.get("team"), dict):
            spec = parse_team(r.data["team"], f"seat {seat}")
        elif spec is None:
            continue
        elif r.kind == "vehicle" and isinstance(r.data.get("vehicle"), dict):
            v = VehicleSpec.model_validate(r.data["vehicle"])
            cars = [x for x in spec.vehicles if x.name != v.name]
            at = [x.name for x in spec.vehicles].index(v.name) if v.name in [
                x.name for x in spec.vehicles] else len(cars)
            cars.insert(at, v)
            spec = spec.model_copy(update={"vehicles": tuple(cars)})
        elif r.kind == "destroyed":
            spec = spec.model_copy(update={"vehicles": tuple(
                x for x in spec.vehicles if x.name != r.data.get("vehicle"))})
    return spec


def change_team(c: Campaign, seat: int, new: TeamSpec) -> RosterCheck:
    """A team's new roster between games, through the mode's roster decision (the team
    builder's checks and the mode's rules), with the workshop's bill beside it."""
    try:
        bill = _bill(c, seat, new)
    except (SeasonError, ValueError, KeyError):
        bill = None
    try:
        mode = mode_of(c.mode)
        steps = mode.roster(mode_view(c), seat)
        steps.choose(seat, mode.team_json(new))
        records = steps.records()
    except SeasonError as e:
        return RosterCheck(None, bill, [str(e)])
    return RosterCheck(records, bill, [])


def score_key(rows: Sequence[Mapping[str, Any]]) -> str:
    """What a mode's standings are counted in: Championship Points, or (Savage Highways)
    the games its side has won."""
    return "wins" if rows and all("cp" not in r and "wins" in r for r in rows) else "cp"


def chart(c: Campaign) -> dict[str, Any]:
    """The standings over the season, from the mode's own standings after each game: for
    each seat, its Championship Points (or wins) before any game and after each one (the
    series is called ``cp`` either way; ``measure`` says which)."""
    m = mode_view(c)
    mode = mode_of(c.mode)
    cuts = [r.seq for r in m.records if r.kind == "game"]
    points: list[dict[int, int]] = []
    names: dict[int, str] = {}
    measure = "cp"
    for k in range(len(cuts) + 1):
        end = cuts[k] if k < len(cuts) else None
        part = m if end is None else replace(m, records=tuple(
            r for r in m.records if r.seq < end))
        rows = mode.summary(part, None).get("standings", [])
        measure = score_key(rows)
        points.append({int(r["seat"]): int(r.get(measure) or 0) for r in rows})
        names.update({int(r["seat"]): str(r.get("team", "")) for r in rows})
    seats = sorted(names)
    return {"games": len(cuts), "measure": measure,
            "series": [{"seat": s, "team": names[s], "cp": [p.get(s, 0) for p in points]}
                       for s in seats]}


def plus(c: Campaign, records: Sequence[Record]) -> Campaign:
    """The campaign as it will be once ``records`` are appended."""
    return extended(c, records)
