"""Savage Highways (Refuelled pp.165-175) as a campaign mode: pure functions of the records.

Three linked games: Escape the City always first; a Gangers win sends the campaign to Rescue,
a Riggers win to Ambush; then Long Road Home, whose winner wins the campaign (SH-19, SH-24,
SH-29, SH-36; P-25).

* **Roles** (SH-01, P-22): option ``riggers`` (a seat); by default the one team that fields a
  War Rig. Every other team is a Ganger. The teams are checked by the scenarios' rules
  (scenarios/savage_highways.py ``check_team``, P-26) when the campaign starts.
* **The upgrade ledger** (SH-14, P-23), from the records: every upgrade ever attached, those
  lost for good (the set-up upgrade of a scenario the Gangers won), those re-attached at the
  start of every later scenario (the set-up upgrade of a scenario the Riggers won). Discards
  during a game last for that game only (ruling SH-R18).
* **Pre-game** (SH-15, SH-20, SH-25, SH-30): the set-up upgrade(s) as decisions:
  Escape the City and Ambush: the Riggers choose one, not lost and not already on the rig;
  Rescue: the Gangers (the lowest-seated Ganger) choose one never attached in the campaign;
  Long Road Home: the Riggers choose three more. The game's ``upgrades`` option is the
  re-attached ones then the chosen ones.
* **Post-game**: the result (``game``, with ``places``), the ``scenario_result`` (which side
  won), the ledger's ``upgrade_lost`` / ``upgrade_reattached`` records, then **Ride Eternal**
  (SH-10, P-24): each vehicle Wrecked in the game (a ``wrecked`` event, removed by a Death Ray
  included; disqualified ones not; the rig's starting wreck in Ambush not: ruling SH-R20) loses
  2 more Hull Value for good: ``career.hull_loss`` += 2 (the team builder derives the Hull from
  it, never below 1), written as the team's new roster (``team``).
* **Rosters** (ruling SH-R19): the book awards no Cans between the three games, so rosters
  stay as they are (``roster`` accepts only ``keep``).

Records: ``join`` (``seat``, ``team``), ``roles`` (``riggers``, ``gangers``),
``rig_upgrade`` (``game``, ``scenario``, ``upgrade``, ``seat``, ``how``: ``chosen`` or
``reattached``), ``game``, ``scenario_result`` (``scenario``, ``winner``: ``riggers`` or
``gangers``, ``seat``), ``upgrade_lost`` / ``upgrade_reattached`` (``upgrade``, ``scenario``),
``upgrades_discarded`` (in play), ``ride_eternal`` (``seat``, ``vehicle``, ``hull_loss``),
``team`` (``seat``, ``team``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from carnage.campaign.steps import (
    Decision,
    NextEvent,
    SeasonError,
    StepAsk,
    Steps,
    choices,
)
from carnage.campaign.store import Campaign, Record
from carnage.games.refuelled.campaign.events import EventGames
from carnage.games.refuelled.rules.war_rig_upgrades import (
    GANGER_PREFERENCE,
    RIGGER_PREFERENCE,
    UPGRADES,
)
from carnage.team import TeamSpec

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game
    from carnage.games.refuelled.setup import GameSetup
    from carnage.kernel.contract import PlayableGame
    from carnage.kernel.events import JsonValue

FIRST = "escape-the-city"
RESCUE = "rescue"
AMBUSH = "ambush"
FINAL = "long-road-home"
PAGES = {FIRST: 168, RESCUE: 169, AMBUSH: 172, FINAL: 173}
NAMES = {FIRST: "Escape the City", RESCUE: "Rescue", AMBUSH: "Ambush", FINAL: "Long Road Home"}
RIDE_ETERNAL = 2
"""Hull Value lost for good by each vehicle Wrecked in a game (p.167)."""
RIGGERS, GANGERS = "riggers", "gangers"


# -- the branch ---------------------------------------------------------------------------------
def results(c: Campaign) -> list[tuple[str, str]]:
    """(scenario, winning side) of each game played, in order."""
    return [(str(r.data["scenario"]), str(r.data["winner"])) for r in c.records
            if r.kind == "scenario_result"]


def next_scenario(played: Sequence[tuple[str, str]]) -> str | None:
    """Scenario 1, then 2A (Gangers won) or 2B (Riggers won), then 3; None when over."""
    if not played:
        return FIRST
    if len(played) == 1:
        return RESCUE if played[0][1] == GANGERS else AMBUSH
    if len(played) == 2:
        return FINAL
    return None


def campaign_winner(c: Campaign) -> str | None:
    """The side that won Long Road Home (SH-36), None before it is played."""
    done = results(c)
    return done[2][1] if len(done) >= 3 else None


# -- roles and teams ----------------------------------------------------------------------------
def roles(c: Campaign) -> tuple[int, list[int]]:
    for r in c.records:
        if r.kind == "roles":
            return int(r.data["riggers"]), [int(s) for s in r.data["gangers"]]
    raise SeasonError(f"campaign {c.id} has no roles recorded")


def teams(c: Campaign) -> dict[int, TeamSpec]:
    out: dict[int, TeamSpec] = {}
    for r in c.records:
        if r.kind in ("join", "team"):
            out[int(r.data["seat"])] = TeamSpec.model_validate(r.data["team"])
    return dict(sorted(out.items()))


def has_rig(spec: TeamSpec) -> bool:
    return any(v.type == "war_rig" for v in spec.vehicles)


def riggers_seat(options: Mapping[str, Any], teams_: Sequence[TeamSpec]) -> int:
    if options.get("riggers") is not None:
        r = int(options["riggers"])
        if not 0 <= r < len(teams_):
            raise SeasonError(f"riggers: seat {r} is not one of the {len(teams_)} teams "
                              "(seats count from 0)")
        return r
    rigs = [i for i, t in enumerate(teams_) if has_rig(t)]
    if len(rigs) != 1:
        raise SeasonError("savage-highways: name the Riggers' seat (option riggers): "
                          f"{len(rigs)} teams field a War Rig, and the Riggers' team is the one "
                          "that does (p.166)")
    return rigs[0]


# -- the upgrade ledger -------------------------------------------------------------------------
@dataclass(frozen=True)
class Ledger:
    """What the records say about the five War Rig Upgrades (P-23)."""

    ever: tuple[str, ...]
    """Every upgrade attached at some point of the campaign, first attached first."""
    lost: tuple[str, ...]
    """Lost for good: the set-up upgrade of a scenario the Gangers won."""
    reattached: tuple[str, ...]
    """Re-attached at the start of every later scenario (a scenario the Riggers won)."""

    def available(self) -> list[str]:
        """Upgrades the Riggers may still choose: not lost, not already re-attached."""
        return [u for u in UPGRADES if u not in self.lost and u not in self.reattached]

    def never_attached(self) -> list[str]:
        return [u for u in UPGRADES if u not in self.ever]

    def to_json(self) -> dict[str, Any]:
        return {u: ("lost" if u in self.lost else "re-attached" if u in self.reattached
                    else "attached before" if u in self.ever else "available")
                for u in UPGRADES}


def ledger(c: Campaign) -> Ledger:
    ever: list[str] = []
    lost: list[str] = []
    back: list[str] = []
    for r in c.records:
        u = str(r.data.get("upgrade", ""))
        if r.kind == "rig_upgrade" and u not in ever:
            ever.append(u)
        elif r.kind == "upgrade_lost" and u not in lost:
            lost.append(u)
        elif r.kind == "upgrade_reattached" and u not in back:
            back.append(u)
    return Ledger(tuple(ever), tuple(lost), tuple(back))


def chosen_for(c: Campaign, number: int) -> list[str]:
    """The upgrades chosen at set-up for game ``number`` (1-based)."""
    return [str(r.data["upgrade"]) for r in c.records if r.kind == "rig_upgrade"
            and int(r.data["game"]) == number and r.data.get("how") == "chosen"]


def game_upgrades(c: Campaign, number: int) -> list[str]:
    """The ``upgrades`` option of game ``number``: those its pre-game attached (re-attached
    first, then chosen); before its pre-game, the re-attached ones."""
    mine = [str(r.data["upgrade"]) for r in c.records if r.kind == "rig_upgrade"
            and int(r.data["game"]) == number]
    return mine or list(ledger(c).reattached)


def upgrade_outcome(scenario: str, winner: str, setup: Sequence[str]) -> list[Record]:
    """SH-14: the set-up upgrade is lost for good if the Gangers won, re-attached at the start
    of every later scenario if the Riggers won (Long Road Home ends the campaign: none)."""
    if scenario == FINAL:
        return []
    kind = "upgrade_reattached" if winner == RIGGERS else "upgrade_lost"
    return [Record(kind, {"upgrade": u, "scenario": scenario}) for u in setup]


def winning_side(winner: int | None, draw: bool, riggers: int) -> str:
    """The Riggers win only by the scenario's own victory for them; anything else, a draw
    stopped by the ``max_rounds`` safety net included, is a Gangers win ("otherwise the
    Gangers win", every scenario; ruling SH-R21)."""
    return RIGGERS if winner is not None and not draw and winner == riggers else GANGERS


# -- Ride Eternal -------------------------------------------------------------------------------
def ride_eternal(spec: TeamSpec, wrecked: Sequence[str]) -> TeamSpec:
    """``spec`` with ``career.hull_loss`` raised by 2 on each vehicle named in ``wrecked``."""
    from carnage.team.model import CareerSpec

    out = []
    for v in spec.vehicles:
        if v.name in wrecked:
            career = v.career or CareerSpec()
            v = v.model_copy(update={"career": career.model_copy(
                update={"hull_loss": career.hull_loss + RIDE_ETERNAL})})
        out.append(v)
    return spec.model_copy(update={"vehicles": tuple(out)})


def wrecked_in(game: Game) -> dict[int, list[str]]:
    """Engine seat -> names of its team's vehicles Wrecked during ``game`` (ruling SH-R20)."""
    st = game.state
    ids = {str(e.data.get("vehicle")) for e in game.log.of_kind("wrecked")}
    out: dict[int, list[str]] = {}
    for v in st.vehicles.values():
        if v.id in ids and v.in_team:
            out.setdefault(v.player, []).append(v.name)
    return out


# -- the mode ------------------------------------------------------------------------------------
def team_json(spec: TeamSpec) -> dict[str, Any]:
    return spec.model_dump(mode="json", exclude_none=True)


class SavageHighwaysMode(EventGames):
    """Savage Highways on the campaign modes interface (see the module docstring). Options:
    ``riggers`` (the Riggers' seat; default: the team with a War Rig)."""

    id = "savage-highways"
    name = "Savage Highways"
    KEYS = frozenset({"riggers"})

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(raw) - self.KEYS)
        if unknown:
            raise SeasonError(f"{self.id}: unknown option {unknown[0]!r} (known: riggers)")
        out: dict[str, Any] = {}
        if raw.get("riggers") is not None:
            try:
                if isinstance(raw["riggers"], bool):
                    raise ValueError
                out["riggers"] = int(raw["riggers"])
            except (TypeError, ValueError):
                raise SeasonError(f"riggers: {raw['riggers']!r} is not a seat number") from None
        return out

    def start(self, options: Mapping[str, Any], teams_: Sequence[TeamSpec]) -> list[Record]:
        from carnage.games.refuelled.scenarios.escape_the_city import EscapeTheCity
        from carnage.games.refuelled.setup import SetupError

        if len(teams_) < 2:
            raise SeasonError("Savage Highways needs the Riggers and at least one Ganger "
                              "(p.165)")
        r = riggers_seat(options, teams_)
        gangers = [s for s in range(len(teams_)) if s != r]
        sc = EscapeTheCity()
        try:
            for s, spec in enumerate(teams_):
                sc.check_team(spec, f"seat {s}")
                if (s == r) != has_rig(spec):
                    who = "the Riggers' team needs" if s == r else "a Gangers' team may not have"
                    raise SeasonError(f"seat {s} ({spec.name}): {who} a War Rig (p.166)")
            share = 120 // len(gangers)
            for s in gangers:
                from carnage.team import check_team

                cost = check_team(teams_[s]).total_cans
                if cost > share:
                    raise SeasonError(f"seat {s} ({teams_[s].name}): costs {cost} Cans, over "
                                      f"its share ({share}) of the Gangers' 120 (p.166)")
        except SetupError as e:
            raise SeasonError(str(e)) from None
        out = [Record("join", {"seat": s, "team": team_json(t), "joined_after": 0})
               for s, t in enumerate(teams_)]
        out.append(Record("roles", {"riggers": r, "gangers": gangers}))
        return out

    # -- the next game ---------------------------------------------------------------------
    def next_event(self, c: Campaign,
                   request: Mapping[str, Any] | None = None) -> NextEvent | None:
        if request:
            raise SeasonError(f"{self.name}: the next game takes no choices "
                              f"(got {', '.join(sorted(request))})")
        played = results(c)
        sid = next_scenario(played)
        if sid is None:
            return None
        r, gangers = roles(c)
        number = len(played) + 1
        opts = {"riggers": r, "upgrades": game_upgrades(c, number)}
        return NextEvent(number, sid, tuple(sorted(teams(c))), label=NAMES[sid],
                         options=tuple(sorted(opts.items())),
                         info=(("riggers", r), ("gangers", gangers)))

    def setup(self, c: Campaign, ev: NextEvent) -> GameSetup:
        from carnage.games.refuelled.setup import GameSetup

        ts = teams(c)
        r, gangers = roles(c)
        opts: dict[str, JsonValue] = {"riggers": ev.seats.index(r),
                                      "upgrades": list(game_upgrades(c, ev.number))}
        sides: tuple[tuple[int, ...], ...] = ()
        if len(gangers) > 1:
            sides = ((ev.seats.index(r),), tuple(ev.seats.index(g) for g in gangers))
        return GameSetup(scenario=ev.scenario, teams=tuple(ts[s] for s in ev.seats),
                         players=len(ev.seats), sides=sides,
                         scenario_options=tuple(sorted(opts.items())))

    def pregame(self, c: Campaign, ev: NextEvent) -> Steps:
        """The set-up upgrade(s) of ``ev`` (nothing once they are recorded)."""
        steps = Steps()
        if chosen_for(c, ev.number):
            return steps.start()
        r, gangers = roles(c)
        led = ledger(c)
        for u in led.reattached:
            steps.add(Record("rig_upgrade", {"game": ev.number, "scenario": ev.scenario,
                                             "upgrade": u, "seat": r, "how": "reattached"}))
        if ev.scenario == RESCUE:
            pool, chooser, order = led.never_attached(), gangers[0], GANGER_PREFERENCE
        else:
            pool, chooser, order = led.available(), r, RIGGER_PREFERENCE
        n = 3 if ev.scenario == FINAL else 1
        steps.then(self._upgrade_decision(ev, chooser, pool, order, 0, n))
        return steps.start()

    def _upgrade_decision(self, ev: NextEvent, seat: int, pool: Sequence[str],
                          order: Sequence[str], k: int, n: int, taken: Sequence[str] = ()
                          ) -> Decision:
        """Choice ``k`` of ``n``: among ``pool`` less what was chosen already; the next
        choice is queued once this one is made."""
        options = [u for u in pool if u not in taken]
        if not options:
            raise SeasonError(f"{NAMES[ev.scenario]}: no War Rig Upgrade is left to attach")

        def resolve(value: Any, steps: Steps) -> None:
            steps.add(Record("rig_upgrade", {"game": ev.number, "scenario": ev.scenario,
                                             "upgrade": value, "seat": seat, "how": "chosen"}))
            if k + 1 < n:
                steps.now(self._upgrade_decision(ev, seat, pool, order, k + 1, n,
                                                 [*taken, str(value)]))

        who = "the Gangers choose" if ev.scenario == RESCUE else "the Riggers choose"
        ask = StepAsk(seat, "war_rig_upgrade",
                      f"{NAMES[ev.scenario]}: {who} a War Rig Upgrade for the rig"
                      + (f" ({k + 1} of {n})" if n > 1 else ""),
                      choices(options, lambda u: UPGRADES[str(u)].name),
                      rule="SH-20" if ev.scenario == RESCUE else "SH-15",
                      page=PAGES[ev.scenario],
                      default=min(options, key=lambda u: order.index(u)))
        return Decision(ask, resolve)

    def post_game(self, c: Campaign, ev: NextEvent, played: PlayableGame, game_id: str,
                  seed: int) -> Steps:
        from carnage.games.refuelled.campaign.events import (
            event_game,
            finishing_order,
            game_result,
        )
        from carnage.games.refuelled.rules import war_rig_upgrades as wru

        game = event_game(played)
        r, _ = roles(c)
        st = game.state
        places = [[ev.seats[p] for p in g] for g in finishing_order(game)]
        reason, rounds = game_result(game)
        winner = winning_side(st.winner, st.draw, ev.seats.index(r))
        won = winner == RIGGERS
        steps = Steps(seed)
        steps.add(Record("game", {"scenario": ev.scenario, "seed": seed, "places": places,
                                  "reason": reason, "rounds": rounds}, game_id))
        steps.add(Record("scenario_result", {"scenario": ev.scenario, "winner": winner,
                                             "seat": r if won else None, "game": ev.number},
                         game_id))
        removed = [x["upgrade"] for x in wru.memory(game)["removed"]]
        if removed:
            steps.add(Record("upgrades_discarded", {"upgrades": removed,
                                                    "scenario": ev.scenario}, game_id))
        for rec in upgrade_outcome(ev.scenario, winner, chosen_for(c, ev.number)):
            steps.add(Record(rec.kind, rec.data, game_id))
        ts = teams(c)
        for seat_e, names in sorted(wrecked_in(game).items()):
            seat = ev.seats[seat_e]
            spec = ride_eternal(ts[seat], names)
            for v in spec.vehicles:
                if v.name in names:
                    assert v.career is not None
                    steps.add(Record("ride_eternal", {"seat": seat, "vehicle": v.name,
                                                      "hull_loss": v.career.hull_loss},
                                     game_id))
            steps.add(Record("team", {"seat": seat, "team": team_json(spec)}, game_id))
        return steps.start()

    def roster(self, c: Campaign, seat: int) -> Steps:
        if seat not in teams(c):
            raise SeasonError(f"campaign {c.id} has no team in seat {seat}")

        def check(value: Any) -> Any:
            if value != "keep":
                raise SeasonError("Savage Highways awards no Cans between its games: the "
                                  "roster stays as it is (ruling SH-R19)")
            return value

        ask = StepAsk(seat, "roster", f"seat {seat}: the team goes on as it is", choices(["keep"]),
                      rule="SH-R19", page=166, default="keep")
        return Steps().then(Decision(ask, lambda v, s: None, check)).start()

    # -- what it shows ---------------------------------------------------------------------
    def summary(self, c: Campaign, seat: int | None = None) -> dict[str, Any]:
        from carnage.games.refuelled.campaign.seasons import vehicle_row

        r, gangers = roles(c)
        ts = teams(c)
        done = results(c)
        ev = self.next_event(c)
        wins = {RIGGERS: 0, GANGERS: 0}
        for _, w in done:
            wins[w] += 1
        from carnage.games.refuelled.campaign.seasons import team_cost

        standings: list[dict[str, Any]] = []
        for s in ts:
            side = RIGGERS if s == r else GANGERS
            # ``cp`` and ``finishes`` for the shared standings table: scenarios won, lost.
            standings.append({"seat": s, "team": ts[s].name, "role": side, "wins": wins[side],
                              "games": len(done), "cp": wins[side],
                              "finishes": [wins[side], len(done) - wins[side]],
                              "cans": ts[s].cans, "spent": team_cost(ts[s])})
        standings.sort(key=lambda row: (-int(row["wins"]), int(row["seat"])))
        schedule = []
        path = [FIRST, *(next_scenario(done[:i]) for i in range(1, 3))]
        for i in range(3):
            sid = path[i] if i < len(done) + 1 else None
            schedule.append({"game": i + 1, "scenario": sid,
                             "label": NAMES.get(sid or "", "Rescue or Ambush" if i == 1
                                                else "Long Road Home"),
                             "played": i < len(done),
                             "winner": done[i][1] if i < len(done) else None})
        winner = campaign_winner(c)
        champion = [] if winner is None else ([ts[r].name] if winner == RIGGERS
                                              else [ts[g].name for g in gangers])
        return {
            "id": c.id, "mode": c.mode, "name": self.name, "options": c.options,
            "version": c.version, "games": len(done),
            "standings": standings, "schedule": schedule,
            "teams": [{"seat": s, "team": t.name, "sponsor": t.sponsor, "cans": t.cans,
                       "role": RIGGERS if s == r else GANGERS,
                       "vehicles": [vehicle_row(v) for v in t.vehicles]}
                      for s, t in ts.items()],
            "next": None if ev is None else ev.to_json(),
            "finished": ev is None, "champion": champion,
            "titles": {"champion": champion} if winner is not None else {},
            "results": [rec.to_json() for rec in c.records if rec.kind == "game"],
            "upgrades": ledger(c).to_json(),
            "roles": {"riggers": r, "gangers": gangers},
            "pending": [],
        }


SAVAGE_HIGHWAYS = SavageHighwaysMode()

