"""Gaslands: Legacy, chapters 1 to 5, as a campaign mode (Legacy excerpt lines 4173-4974).

Each player brings a Legacy team of exactly two generated vehicles (``carnage legacy team``).
The chapters are data (``games/legacy/data/legacy_chapters.yaml``): each names a Refuelled
scenario, the chapter's scenario rules (played by the ``legacy`` ruleset, see
``games/legacy/rules/chapters.py``; passed as the scenario option ``chapter_rules``), what happens
before the game and the post-game steps in the book's order. Every step is one of the
operations below, built on the pure functions of ``carnage.games.legacy`` (corrosion, mutations,
ratings, template improvements and combining).

Everything permanent is an appended record, never changed: a vehicle's new state
(``vehicle``), a team's template set (``templates``), victories, clues (secret to the seats
entitled to them), notes. The teams as they stand are derived from the records
(``legacy_state``). Damage, votes and handicap votes last one game (GL-015, GL-022).

Records (``Record.kind``): ``join`` (seat, team), ``vehicle`` (seat, vehicle, why),
``templates`` (seat, templates, why), ``victory`` (seat), ``clue`` (seat, code, title, text;
secret unless public), ``team_note`` (seat, note), ``corrosion`` / ``mutation`` /
``improvement`` / ``rating`` / ``handicap`` (what happened, for the history), ``pregame``
(number), ``game`` (chapter, scenario, seed, places, winners).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import yaml

from carnage.campaign.steps import (
    NextEvent,
    SeasonError,
    StepAsk,
    Steps,
    choices,
    derive,
    done,
    extended,
    may_see,
    secret,
)
from carnage.campaign.store import Campaign, Record
from carnage.games.refuelled.campaign.events import EventGames
from carnage.team.model import TeamSpec, VehicleSpec

if TYPE_CHECKING:
    from carnage.games.legacy.templates import TeamTemplateSet
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.setup import GameSetup
    from carnage.kernel.contract import PlayableGame
    from carnage.kernel.ruleset import Ruleset

RULESET = "legacy"
TEAM_SIZE = 2  # Legacy line 4252: exactly two Legacy Vehicles
CHAPTER_RULES = "chapter_rules"
"""The scenario option carrying a chapter's scenario rules (games/legacy/rules/chapters.py)."""
ROLL_OFF_LIMIT = 50
COMBINE_ROLLS = 20
"""Rolls of the 2D6 allowed before a team with no legal pair combines nothing (ruling)."""


# -- data -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Chapter:
    number: int
    title: str
    scenario: str
    rules: tuple[str, ...]
    lines: str
    pregame: tuple[dict[str, Any], ...]
    postgame: tuple[dict[str, Any], ...]


def _data(name: str) -> Any:
    text = resources.files("carnage.games.legacy").joinpath("data", name).read_text("utf-8")
    return yaml.safe_load(text)


@cache
def chapters() -> tuple[Chapter, ...]:
    """The five chapters, in order (Legacy lines 4442-4974)."""
    out = []
    for raw in _data("legacy_chapters.yaml"):
        out.append(Chapter(int(raw["chapter"]), str(raw["title"]), str(raw["scenario"]),
                           tuple(raw.get("rules", [])), str(raw["lines"]),
                           tuple(raw.get("pregame", [])), tuple(raw.get("postgame", []))))
    return tuple(out)


@cache
def clues() -> dict[str, dict[str, Any]]:
    """Our own clue texts by code (the originals are not in the text)."""
    raw: dict[str, dict[str, Any]] = _data("legacy_clues.yaml")
    return raw


# -- the campaign as the records leave it ---------------------------------------------------------
@dataclass
class LegacyTeam:
    seat: int
    spec: TeamSpec
    victories: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass
class LegacyState:
    teams: dict[int, LegacyTeam]
    games: list[Record] = field(default_factory=list)
    pregames: set[int] = field(default_factory=set)

    @property
    def chapter(self) -> int:
        """The chapter to play next (1-based); 6 once chapter 5 is played."""
        return len(self.games) + 1


def _replace_vehicle(spec: TeamSpec, v: VehicleSpec) -> TeamSpec:
    cars = [v if x.name == v.name else x for x in spec.vehicles]
    if v.name not in [x.name for x in spec.vehicles]:
        raise SeasonError(f"{spec.name} has no vehicle {v.name!r}")
    return spec.model_copy(update={"vehicles": tuple(cars)})


def legacy_state(c: Campaign) -> LegacyState:
    """Every team and game as the records leave them (secrets included)."""
    s = LegacyState({})
    for r in c.records:
        d = r.data
        seat = int(d.get("seat", -1))
        t = s.teams.get(seat)
        if r.kind == "join":
            s.teams[seat] = LegacyTeam(seat, TeamSpec.model_validate(d["team"]))
        elif r.kind == "game":
            s.games.append(r)
        elif r.kind == "pregame":
            s.pregames.add(int(d["number"]))
        elif t is None:
            continue
        elif r.kind == "vehicle":
            t.spec = _replace_vehicle(t.spec, VehicleSpec.model_validate(d["vehicle"]))
        elif r.kind == "templates":
            t.spec = t.spec.model_copy(update={"templates": _parse_set(d["templates"])})
        elif r.kind == "victory":
            t.victories += 1
        elif r.kind == "team_note" and d["note"] not in t.notes:
            t.notes.append(str(d["note"]))
    return s


def _parse_set(raw: Any) -> TeamTemplateSet:
    from carnage.games.legacy.templates import parse_template_set

    return parse_template_set(raw)


def template_set(spec: TeamSpec) -> TeamTemplateSet:
    """The team's movement templates (the standard set until something changes them)."""
    from carnage.games.legacy.templates import TeamTemplateSet, standard_set

    tset = spec.templates
    return tset if isinstance(tset, TeamTemplateSet) else standard_set()


def team_json(spec: TeamSpec) -> dict[str, Any]:
    return spec.model_dump(mode="json", exclude_none=True)


def vehicle_json(v: VehicleSpec) -> dict[str, Any]:
    return v.model_dump(mode="json", exclude_none=True)


# -- game facts -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChapterFacts:
    """What a chapter's post-game reads from the played game, in campaign seats and vehicle
    names."""

    order: list[list[int]]
    winners: list[int]
    wrecked: dict[int, list[str]]
    disqualified: dict[int, list[str]]
    goo: dict[int, list[str]]
    drool: dict[int, list[str]]
    cloaks: dict[int, list[str]]
    """Hull boxes filled by the Nano-Cloaking Device in play, one name per box."""
    crates: dict[int, list[str]]
    """Vehicles holding at least one crate at the end (Scavenger Party)."""
    kills: dict[int, int]
    own_slip: list[int]
    fridge: list[int]


def chapter_facts(game: Game, seats: Sequence[int]) -> ChapterFacts:
    """Read the played game (engine seat i is campaign seat ``seats[i]``)."""
    from carnage.games.legacy.rules import chapters as rules
    from carnage.games.refuelled.campaign.events import finishing_order
    from carnage.games.refuelled.engine.state import Status
    from carnage.games.refuelled.scenarios.common import score, tokens

    st = game.state

    def seat(p: int) -> int | None:
        return seats[p] if 0 <= p < len(seats) else None

    def by_seat(ids: Sequence[str]) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        for vid in ids:
            v = st.vehicles.get(vid)
            if v is not None and not v.neutral and (s := seat(v.player)) is not None:
                out.setdefault(s, []).append(v.name)
        return out

    order = [[seats[p] for p in g if 0 <= p < len(seats)] for g in finishing_order(game)]
    winners: list[int] = []
    if st.winner is not None and not st.draw:
        side_seats = score.side_players(game, st.winner) if st.scenario.get("sides") else {
            st.winner}
        winners = sorted(s for p in side_seats if (s := seat(p)) is not None)
    wrecked_ids: list[str] = []
    cloak_ids: list[str] = []
    for e in game.log.events:
        vid = e.data.get("vehicle")
        if e.kind == "wrecked" and isinstance(vid, str) and vid not in wrecked_ids:
            wrecked_ids.append(vid)
        elif e.kind == "nano_cloak" and isinstance(vid, str):
            cloak_ids.append(vid)
    disq = [v.id for v in st.vehicles.values() if v.status is Status.DISQUALIFIED]
    crate_ids = [v.id for v in st.vehicles.values()
                 if tokens.carried_by(st, v.id, "crate")]
    kills = {s: score.total(game, "kills", p) for p in range(st.players)
             if (s := seat(p)) is not None}
    own_slip = []
    scn: Any = game.scenario
    if hasattr(scn, "slip_of"):
        for p in range(st.players):
            if scn.slip_of(game, p) == p and (s := seat(p)) is not None:
                own_slip.append(s)
    holder = rules.fridge_holder(st)
    fridge = []
    if holder is not None and holder in st.vehicles and (
            s := seat(st.vehicles[holder].player)) is not None:
        fridge.append(s)
    return ChapterFacts(order, winners, by_seat(wrecked_ids), by_seat(disq),
                        by_seat(rules.goo(st)), by_seat(rules.drooled(game)), by_seat(cloak_ids),
                        by_seat(crate_ids), kills, own_slip, fridge)


# -- the mode -------------------------------------------------------------------------------------
class LegacyMode(EventGames):
    """Gaslands: Legacy chapters 1-5 on the campaign modes interface. Options: ``seed`` (the
    campaign's dice)."""

    def event_ruleset(self) -> Ruleset:
        """Legacy's chapters are played in the ``legacy`` ruleset."""
        from carnage.games.legacy.ruleset import LEGACY as RULES

        return RULES

    id = "legacy"
    name = "Gaslands: Legacy"
    KEYS = frozenset({"seed"})

    def __init__(self, dice: Callable[[int], Any] | None = None) -> None:
        self.dice = dice
        """Dice for each step sequence from its seed (tests give scripted dice)."""

    def _steps(self, seed: int) -> Steps:
        return Steps(seed, self.dice(seed) if self.dice is not None else None)

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        import secrets as pysecrets

        unknown = sorted(set(raw) - self.KEYS)
        if unknown:
            raise SeasonError(f"legacy: unknown option {unknown[0]!r} (known: seed)")
        seed = raw.get("seed")
        try:
            seed = pysecrets.randbits(48) if seed is None else int(seed)
        except (TypeError, ValueError):
            raise SeasonError(f"seed: {seed!r} is not a whole number") from None
        return {"seed": seed, "chapters": len(chapters())}

    def start(self, options: Mapping[str, Any], teams: Sequence[TeamSpec]) -> list[Record]:
        if len(teams) < 2:
            raise SeasonError("a Legacy campaign needs at least two teams")
        out: list[Record] = []
        names: list[str] = []
        for seat, spec in enumerate(teams):
            who = f"seat {seat} ({spec.name})"
            check_legacy_team(spec, who)
            if spec.name in names:
                spec = spec.model_copy(update={"name": f"{spec.name} (seat {seat})"})
            names.append(spec.name)
            out.append(Record("join", {"seat": seat, "team": team_json(spec),
                                       "joined_after": 0}))
        return out

    # -- reading -------------------------------------------------------------------------------
    def summary(self, c: Campaign, seat: int | None = None) -> dict[str, Any]:
        from carnage.games.legacy.ratings import team_rating, total_corrosion
        from carnage.games.legacy.templates import describe

        s = legacy_state(c)
        finished = s.chapter > len(chapters())
        ev = None if finished else self._event(s)
        rows: list[dict[str, Any]] = []
        for t in s.teams.values():
            rows.append({"seat": t.seat, "team": t.name, "cp": t.victories,
                         "victories": t.victories, "games": len(s.games),
                         "finishes": [sum(1 for g in s.games if t.seat in g.data["winners"])],
                         "cans": 0, "spent": 0, "rating": team_rating(t.spec),
                         "corrosion": total_corrosion(t.spec)})
        rows.sort(key=lambda r: (-int(r["victories"]), int(r["rating"]), int(r["seat"])))
        schedule = []
        for ch in chapters():
            g = s.games[ch.number - 1] if ch.number <= len(s.games) else None
            schedule.append({"event": ch.number, "chapter": ch.number, "title": ch.title,
                             "scenario": ch.scenario, "rules": list(ch.rules),
                             "played": g is not None,
                             "winners": None if g is None else [
                                 s.teams[w].name for w in g.data["winners"]]})
        visible_clues = [r.data | {"game": r.game_id} for r in c.records
                         if r.kind == "clue" and may_see(r, seat)]
        top = max((r["victories"] for r in rows), default=0)
        champion = [r["team"] for r in rows if r["victories"] == top] if s.games else []
        return {
            "id": c.id, "mode": c.mode, "name": self.name,
            "options": {k: v for k, v in c.options.items() if k != "seed"},
            "version": c.version, "games": len(s.games), "chapter": min(s.chapter,
                                                                        len(chapters())),
            "standings": rows, "schedule": schedule,
            "next": None if ev is None else ev.to_json(), "finished": finished,
            "titles": {"most_victories": champion} if finished else {},
            "champion": champion,
            "teams": [{"seat": t.seat, "team": t.name, "sponsor": None,
                       "rating": team_rating(t.spec), "corrosion": total_corrosion(t.spec),
                       "victories": t.victories, "notes": list(t.notes),
                       "vehicles": [legacy_row(v) for v in t.spec.vehicles],
                       "templates": describe(template_set(t.spec))}
                      for t in s.teams.values()],
            "results": [{**r.to_json(), "number": i} for i, r in enumerate(s.games, 1)],
            "clues": [{k: v for k, v in d.items() if k not in ("hidden", "seen_by")}
                      for d in visible_clues],
            "pending": [],
        }

    def next_event(self, c: Campaign,
                   request: Mapping[str, Any] | None = None) -> NextEvent | None:
        if request:
            raise SeasonError("a Legacy campaign plays its chapters in order: nothing to "
                              "choose at the meeting")
        s = legacy_state(c)
        return None if s.chapter > len(chapters()) else self._event(s)

    def _event(self, s: LegacyState) -> NextEvent:
        ch = chapters()[s.chapter - 1]
        return NextEvent(s.chapter, ch.scenario, tuple(sorted(s.teams)), kind="chapter",
                         label=f"Chapter {ch.number}: {ch.title}",
                         options=((CHAPTER_RULES, ",".join(ch.rules)),),
                         info=(("chapter", ch.number), ("title", ch.title)))

    def setup(self, c: Campaign, ev: NextEvent) -> GameSetup:
        from carnage.games.refuelled.setup import GameSetup

        s = legacy_state(c)
        votes = [0] * len(ev.seats)
        for r in c.records:
            if r.kind == "handicap" and int(r.data["number"]) == ev.number:
                seat = int(r.data["seat"])
                if seat in ev.seats:
                    votes[ev.seats.index(seat)] = int(r.data["votes"])
        return GameSetup(scenario=ev.scenario, teams=tuple(s.teams[p].spec for p in ev.seats),
                         players=len(ev.seats), ruleset=RULESET,
                         scenario_options=tuple(sorted(ev.options)),
                         pregame=(("votes", votes),))

    # -- before the game -----------------------------------------------------------------------
    def pregame(self, c: Campaign, ev: NextEvent) -> Steps:
        s = legacy_state(c)
        if ev.number in s.pregames:
            return done()
        ch = chapters()[ev.number - 1]
        st = self._steps(derive(c.options.get("seed"), "pregame", ev.number))
        st.then(_handicaps(c, ev.number))
        for op in ch.pregame:
            st.then(_operation(c, op, None, ev.number, None))
        st.then(lambda steps: steps.add(Record("pregame", {"number": ev.number})))
        return st.start()

    # -- after the game ------------------------------------------------------------------------
    def post_game(self, c: Campaign, ev: NextEvent, played: PlayableGame, game_id: str,
                  seed: int) -> Steps:
        from carnage.games.refuelled.campaign.events import event_game, game_result

        game = event_game(played)
        ch = chapters()[ev.number - 1]
        facts = chapter_facts(game, ev.seats)
        reason, rounds = game_result(game)
        st = self._steps(derive(c.options.get("seed"), "post", ev.number, seed))
        st.add(Record("game", {"chapter": ch.number, "scenario": game.scenario.id,
                               "seed": seed, "places": facts.order, "winners": facts.winners,
                               "reason": reason, "rounds": rounds, "kind": "chapter"},
                      game_id))
        for w in facts.winners:  # GL-025: the winners record a victory
            st.add(Record("victory", {"seat": w, "chapter": ch.number}, game_id))
        st.then(_marks_in_play(c, facts, game_id))
        for op in ch.postgame:
            st.then(_operation(c, op, facts, ev.number, game_id))
        return st.start()

    def roster(self, c: Campaign, seat: int) -> Steps:
        """Between games the only change a Legacy team may make is noting weapon facings
        (GL-010): the answer is ``keep`` or the team with only facings changed."""
        s = legacy_state(c)
        if seat not in s.teams:
            raise SeasonError(f"campaign {c.id} has no team in seat {seat}")
        t = s.teams[seat]
        st = Steps()

        def check(value: Any) -> Any:
            from carnage.games.refuelled.campaign.seasons import parse_team_value

            new = parse_team_value(value, t.name)
            if new is None:
                return "keep"
            if _without_facings(new) != _without_facings(t.spec):
                raise SeasonError(f"{t.name}: a Legacy team changes only by the campaign's "
                                  "rules; between games you may only note weapon facings "
                                  "(Legacy line 4290)")
            return team_json(new)

        def resolve(value: Any, steps: Steps) -> None:
            if value != "keep":
                steps.add(Record("team_facings", {"seat": seat}))
                for v in TeamSpec.model_validate(value).vehicles:
                    steps.add(Record("vehicle", {"seat": seat, "vehicle": vehicle_json(v),
                                                 "why": "weapon facings noted"}))

        st.ask(StepAsk(seat, "roster", f"{t.name}: note weapon facings, or keep the team",
                       rule="Weapon facings", page="Legacy 4290", default="keep"),
               resolve, check)
        return st.start()


def _without_facings(spec: TeamSpec) -> Any:
    data = team_json(spec)
    for v in data.get("vehicles", []):
        for w in v.get("weapons", []):
            w.pop("facing", None)
    return data


def check_legacy_team(spec: TeamSpec, who: str) -> None:
    """A team the campaign accepts: exactly two Legacy vehicles passing the Legacy team
    checks."""
    from carnage.games.legacy import ruleset
    from carnage.games.legacy.team import is_legacy
    from carnage.games.refuelled.setup import SetupError, checked_team

    if not is_legacy(spec):
        raise SeasonError(f"{who}: not a Legacy team (make one with 'carnage legacy team')")
    if len(spec.vehicles) != TEAM_SIZE:
        raise SeasonError(f"{who}: a Legacy team has exactly {TEAM_SIZE} vehicles, not "
                          f"{len(spec.vehicles)} (Legacy line 4252)")
    try:
        checked_team(spec, who, ruleset.LEGACY)
    except SetupError as e:
        raise SeasonError(str(e)) from None


def legacy_row(v: VehicleSpec) -> dict[str, Any]:
    from carnage.games.legacy.ratings import hull_boxes
    from carnage.games.legacy.team import legacy_of

    lg = legacy_of(v)
    return {"name": v.name, "type": v.type, "weapons": [w.id for w in v.weapons],
            "facings": [w.facing for w in v.weapons],
            "upgrades": [u.id for u in v.upgrades], "perks": list(v.perks), "career": None,
            "rating": 0 if lg is None else lg.rating,
            "hull_boxes": hull_boxes(v) if lg is not None else 0,
            "corroded": 0 if lg is None else lg.corroded,
            "filled": 0 if lg is None else lg.filled,
            "mutations": [] if lg is None else list(lg.mutations),
            "notes": [] if lg is None else list(lg.notes)}


LEGACY = LegacyMode()


# -- operations -----------------------------------------------------------------------------------
def _now(c: Campaign, st: Steps) -> LegacyState:
    return legacy_state(extended(c, st.written()))


def _set_vehicle(st: Steps, seat: int, v: VehicleSpec, why: str, gid: str | None) -> None:
    st.add(Record("vehicle", {"seat": seat, "vehicle": vehicle_json(v), "why": why}, gid))


def _vehicle(s: LegacyState, seat: int, name: str) -> VehicleSpec:
    for v in s.teams[seat].spec.vehicles:
        if v.name == name:
            return v
    raise SeasonError(f"{s.teams[seat].name} has no vehicle {name!r}")


def _corrode(st: Steps, c: Campaign, seat: int, name: str, why: str, line: Any,
             gid: str | None) -> None:
    from carnage.games.legacy.ratings import mark_corrosion

    v, marked = mark_corrosion(_vehicle(_now(c, st), seat, name))
    _set_vehicle(st, seat, v, f"corrosion: {why}", gid)
    st.add(Record("corrosion", {"seat": seat, "vehicle": name, "marks": marked, "why": why,
                                "line": line}, gid))


def _roll_off(st: Steps, seats: Sequence[int]) -> int:
    """One seat of ``seats`` by rolling off (D6 each, again on a tie)."""
    pool = sorted(seats)
    for _ in range(ROLL_OFF_LIMIT):
        if len(pool) == 1:
            return pool[0]
        rolls = {p: st.rng.randint(1, 6) for p in pool}
        best = max(rolls.values())
        pool = [p for p in pool if rolls[p] == best]
    return pool[0]


def _by_corrosion(c: Campaign, st: Steps, lowest: bool) -> int:
    from carnage.games.legacy.ratings import total_corrosion

    s = _now(c, st)
    totals = {p: total_corrosion(t.spec) for p, t in s.teams.items()}
    pick = min(totals.values()) if lowest else max(totals.values())
    return _roll_off(st, [p for p, n in totals.items() if n == pick])


def _marks_in_play(c: Campaign, facts: ChapterFacts, gid: str) -> Callable[[Steps], None]:
    """What play marked for good: Nano-Cloaking cuts (GL-099) and Corrosive Drool (GL-082)."""
    from carnage.games.legacy.ratings import fill_hull_box

    def run(st: Steps) -> None:
        for seat, names in sorted(facts.cloaks.items()):
            for name in names:
                v = fill_hull_box(_vehicle(_now(c, st), seat, name))
                _set_vehicle(st, seat, v, "Nano-Cloaking Device: a hull box filled in", gid)
        for seat, names in sorted(facts.drool.items()):
            for name in names:
                _corrode(st, c, seat, name, "corrosive drool", 4858, gid)

    return run


def _operation(c: Campaign, op: Mapping[str, Any], facts: ChapterFacts | None, number: int,
               gid: str | None) -> Callable[[Steps], None]:
    kind = str(op["op"])
    line = op.get("line")

    def need_facts() -> ChapterFacts:
        if facts is None:
            raise SeasonError(f"legacy: operation {kind!r} reads a played game")
        return facts

    def run(st: Steps) -> None:
        s = _now(c, st)
        if kind == "corrode":
            f = need_facts()
            when = str(op["when"])
            for seat in sorted(s.teams):
                for v in s.teams[seat].spec.vehicles:
                    if _corrodes(when, f, seat, v.name):
                        _corrode(st, c, seat, v.name, when.replace("_", " "), line, gid)
        elif kind == "improve":
            seat = _by_corrosion(c, st, lowest=True)
            roll = st.rng.randint(1, 6)
            st.add(Record("improvement_roll", {"seat": seat, "roll": roll, "line": line},
                          gid))
            st.now(*[_improve_offer(c, p, roll, "the lowest corrosion's roll", gid)
                     for p in sorted(s.teams)])
        elif kind == "mutate":
            st.now(*[_mutate_team(c, p, gid) for p in sorted(s.teams)])
        elif kind == "clue":
            who = str(op["who"])
            code = str(op["code"])
            if who == "lowest_corrosion":
                seats = [_by_corrosion(c, st, lowest=True)]
            elif who == "highest_corrosion":
                seats = [_by_corrosion(c, st, lowest=False)]
            elif who == "winners":
                seats = list(need_facts().winners)
            elif who == "fridge":
                seats = list(need_facts().fridge)
            else:
                raise SeasonError(f"legacy: unknown clue holder {who!r}")
            st.now(*[_clue_offer(p, code, bool(op.get("public")), gid) for p in seats])
        elif kind == "team_note":
            f = need_facts()
            if op["when"] != "own_slip":
                raise SeasonError(f"legacy: unknown note trigger {op['when']!r}")
            for seat in f.own_slip:
                st.add(Record("team_note", {"seat": seat, "note": str(op["note"]),
                                            "line": line}, gid))
        elif kind == "vehicle_note":
            f = need_facts()
            st.now(*[_note_offer(c, p, str(op["note"]), gid) for p in sorted(s.teams)
                     if f.kills.get(p, 0) >= 1])
        elif kind == "doughnut":
            from carnage.games.legacy.templates import with_doughnut

            for seat in sorted(s.teams):
                tset = template_set(s.teams[seat].spec)
                if tset.get("doughnut") is None:
                    st.add(Record("templates", {"seat": seat,
                                                "templates": with_doughnut(tset).to_json(),
                                                "why": "the Doughnut"}, gid))
        elif kind == "combine":
            st.now(*[_combine_offer(c, p, gid) for p in sorted(s.teams)])
        elif kind == "cloak_crates":
            from carnage.games.legacy.ratings import gain_nano_cloak

            f = need_facts()
            for seat, names in sorted(f.crates.items()):
                for name in names:
                    v = gain_nano_cloak(_vehicle(_now(c, st), seat, name))
                    _set_vehicle(st, seat, v, "held a crate: the Nano-Cloaking Device for good",
                                 gid)
        elif kind == "ratings":
            from carnage.games.legacy.ratings import team_rating

            for seat in sorted(s.teams):
                st.add(Record("rating", {"seat": seat, "rating": team_rating(
                    s.teams[seat].spec), "chapter": number}, gid))
        else:
            raise SeasonError(f"legacy: unknown chapter operation {kind!r}")

    return run


def _corrodes(when: str, f: ChapterFacts, seat: int, name: str) -> bool:
    if when == "wrecked_or_disqualified":
        return name in f.wrecked.get(seat, []) or name in f.disqualified.get(seat, [])
    if when == "goo":
        return name in f.goo.get(seat, [])
    if when == "not_scarpered":  # ruling GL-R102: every vehicle not disqualified at the end
        return name not in f.disqualified.get(seat, [])
    raise SeasonError(f"legacy: unknown corrosion trigger {when!r}")


def _handicaps(c: Campaign, number: int) -> Callable[[Steps], None]:
    """GL-050: Team Handicaps before every game: votes for this game, mutations (and the
    template rolls they owe) for a gap of 21 or more."""
    from carnage.games.legacy.ratings import team_handicaps

    def run(st: Steps) -> None:
        s = _now(c, st)
        seats = sorted(s.teams)
        teams, handicaps = team_handicaps([s.teams[p].spec for p in seats])
        follow: list[Callable[[Steps], None]] = []
        for h, team in zip(handicaps, teams, strict=True):
            seat = seats[h.seat]
            st.add(Record("handicap", {"seat": seat, "number": number, **h.to_json(),
                                       "seat_index": h.seat}))
            for v in team.vehicles:
                if v != _vehicle(s, seat, v.name):
                    _set_vehicle(st, seat, v, "Team Handicap mutations", None)
            for name, g in h.mutations:
                st.add(Record("mutation", {"seat": seat, "vehicle": name, **g.to_json(),
                                           "why": "Team Handicap"}))
                if g.template_roll is not None:
                    follow.append(_improve_offer(c, seat, g.template_roll,
                                                 f"{name}'s mutation", None))
        st.now(*follow)

    return run


def _mutate_team(c: Campaign, seat: int, gid: str | None) -> Callable[[Steps], None]:
    from carnage.games.legacy.mutations import next_mutation

    def run(st: Steps) -> None:
        s = _now(c, st)
        follow = []
        for v in s.teams[seat].spec.vehicles:
            nv, g = next_mutation(v)
            _set_vehicle(st, seat, nv, f"mutation {g.name}", gid)
            st.add(Record("mutation", {"seat": seat, "vehicle": v.name, **g.to_json()}, gid))
            if g.template_roll is not None:
                follow.append(_improve_offer(c, seat, g.template_roll, f"{v.name}'s mutation",
                                             gid))
        st.now(*follow)

    return run


def _improve_offer(c: Campaign, seat: int, roll: int, why: str,
                   gid: str | None) -> Callable[[Steps], None]:
    """GL-039: the team applies a template improvement of ``roll`` to a template of its
    choice (none possible: the result is lost)."""
    from carnage.games.legacy.templates import apply_improvement, improvement_options

    def offer(st: Steps) -> None:
        s = _now(c, st)
        t = s.teams[seat]
        opts = improvement_options(template_set(t.spec), roll)
        if not opts:
            st.add(Record("improvement", {"seat": seat, "roll": roll, "lost": True,
                                          "why": why}, gid))
            return
        labels = {i: o.label for i, o in enumerate(opts)}

        def resolve(value: Any, steps: Steps) -> None:
            tset = apply_improvement(template_set(_now(c, steps).teams[seat].spec),
                                     opts[int(value)])
            steps.add(Record("templates", {"seat": seat, "templates": tset.to_json(),
                                           "why": labels[int(value)]}, gid),
                      Record("improvement", {"seat": seat, "roll": roll,
                                             "label": labels[int(value)], "why": why}, gid))

        st.now(_decision(StepAsk(
            seat, "template_improvement",
            f"{t.name}: template improvement {roll} ({why}): which template, which gear?",
            choices(range(len(opts)), lambda i: labels[i]), rule="Junkyard Cybernetics",
            page="Legacy 4516", default=_best_improvement(opts)), resolve))

    return offer


def _best_improvement(opts: Sequence[Any]) -> int:
    """A bot's pick: an improvement to a template it drives most (the straights and gentle
    turns in the middle gears), else the first offered."""
    liked = ("medium_straight", "long_straight", "gentle", "short_straight")
    for want in liked:
        for i, o in enumerate(opts):
            if o.template == want and (o.gear is None or 2 <= o.gear <= 4):
                return i
    return 0


def _decision(ask: StepAsk, resolve: Callable[[Any, Steps], None]) -> Any:
    from carnage.campaign.steps import Decision

    return Decision(ask, resolve)


YES_NO = choices(["yes", "no"])


def _clue_offer(seat: int, code: str, public: bool, gid: str | None
                ) -> Callable[[Steps], None]:
    """A clue the seat may unlock: kept secret to that seat, or read out to everyone."""

    def offer(st: Steps) -> None:
        clue = clues()[code]

        def resolve(value: Any, steps: Steps) -> None:
            if value != "yes":
                return
            data = {"seat": seat, "code": code, "title": clue["title"], "text": clue["text"]}
            if not public:
                data = secret(data, [seat], "code", "title", "text")
            steps.add(Record("clue", data, gid))

        st.now(_decision(StepAsk(seat, "clue", f"Unlock the clue {code}?", YES_NO,
                                 rule="Unlocking a Clue", page="Legacy 4430",
                                 secret=not public, default="yes"), resolve))

    return offer


def _note_offer(c: Campaign, seat: int, note: str, gid: str | None
                ) -> Callable[[Steps], None]:
    """GL-085: a player with a kill notes one of their vehicles."""
    from carnage.games.legacy.ratings import add_note

    def offer(st: Steps) -> None:
        t = _now(c, st).teams[seat]
        names = [v.name for v in t.spec.vehicles]

        def resolve(value: Any, steps: Steps) -> None:
            v = add_note(_vehicle(_now(c, steps), seat, str(value)), note)
            _set_vehicle(steps, seat, v, f"note: {note}", gid)

        st.now(_decision(StepAsk(seat, "vehicle_note", f"{t.name}: which vehicle has "
                                 f"{note.replace('-', ' ')} on it?", choices(names),
                                 rule="Dino Park post-game", page="Legacy 4872",
                                 default=names[0]), resolve))

    return offer


def _combine_offer(c: Campaign, seat: int, gid: str | None) -> Callable[[Steps], None]:
    """GL-090..GL-092: roll 2D6, then combine two different templates they allow."""
    from carnage.games.legacy.templates import combine, combine_candidates

    def offer(st: Steps) -> None:
        t = _now(c, st).teams[seat]
        tset = template_set(t.spec)
        pairs: list[tuple[str, str]] = []
        dice = (0, 0)
        for _ in range(COMBINE_ROLLS):  # ruling GL-R63: no legal pair, roll again
            dice = (st.rng.randint(1, 6), st.rng.randint(1, 6))
            pairs = combine_candidates(tset, *dice)
            if pairs:
                break
        st.add(Record("combine_roll", {"seat": seat, "dice": list(dice)}, gid))
        if not pairs:
            return
        opts: list[tuple[str, str, bool]] = []
        for a, b in pairs:
            for lower, upper in ((a, b), (b, a)):
                for mirrored in (False, True):
                    if (lower, upper, mirrored) not in opts:
                        opts.append((lower, upper, mirrored))

        def label(i: int) -> str:
            lower, upper, mirrored = opts[i]
            return f"{upper}{' turned over' if mirrored else ''} on {lower}'s dotted line"

        def resolve(value: Any, steps: Steps) -> None:
            lower, upper, mirrored = opts[int(value)]
            new = combine(template_set(_now(c, steps).teams[seat].spec), lower, upper,
                          upper_mirrored=mirrored, dice=dice)
            steps.add(Record("templates", {"seat": seat, "templates": new.to_json(),
                                           "why": f"combined: {label(int(value))}"}, gid))

        st.now(_decision(StepAsk(seat, "combine_templates",
                                 f"{t.name}: the dice show {dice[0]} and {dice[1]}: which two "
                                 "templates become one?", choices(range(len(opts)), label),
                                 rule="Unpredictable Performance", page="Legacy 4892",
                                 default=_bot_combine(opts)), resolve))

    return offer


def _bot_combine(opts: Sequence[tuple[str, str, bool]]) -> int:
    """A bot keeps its straights whole where it can: it combines turns first."""
    for i, (lower, upper, _m) in enumerate(opts):
        if "straight" not in lower and "straight" not in upper:
            return i
    return 0
