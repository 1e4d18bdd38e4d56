"""Ratings, the Team Handicap loop and corrosion: pure functions a campaign calls
(GL-024, GL-036..GL-038, GL-050, GL-051; rulings GL-R13..GL-R19).

- Team Rating: the sum of its vehicles' Vehicle Ratings (GL-024).
- Team Handicaps, before every game (GL-050): each team below the highest rating takes, by
  its gap, 0-5 nothing, 6-10 one Audience Vote, 11-15 two, 16-20 three, 21 or more one
  mutation on each of its vehicles and then the table again, until the gap is 20 or less.
  The highest rating is the one before any handicap (ruling GL-R14); the votes go into the
  game's ``pregame["votes"]`` and are lost after the game (GL-022, GL-051).
- Corrosion (GL-036, GL-037): a mark is a permanent "!" in a hull box that has none; a
  vehicle has as many boxes as its outlined Hull (type's Hull plus Hull gained, filled-in
  boxes included); a vehicle with every box corroded takes no more (ruling GL-R16).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from carnage.games.legacy.digits import LegacyError
from carnage.games.legacy.generator import legacy_type
from carnage.games.legacy.mutations import Gain, next_mutation
from carnage.games.legacy.team import legacy_of
from carnage.team.model import TeamSpec, VehicleSpec

HANDICAP_TABLE = ((5, 0), (10, 1), (15, 2), (20, 3))
"""(largest gap, votes) of GL-050; a larger gap means mutations."""
MAX_LOOPS = 50
"""A safety stop for the loop: every pass raises the rating, so it ends long before."""


def vehicle_rating(v: VehicleSpec) -> int:
    cur = legacy_of(v)
    if cur is None:
        raise LegacyError(f"{v.name} is not a Legacy vehicle: it has no Vehicle Rating")
    return cur.rating


def team_rating(team: TeamSpec) -> int:
    """GL-024: the sum of the team's Vehicle Ratings."""
    return sum(vehicle_rating(v) for v in team.vehicles)


def handicap_votes(gap: int) -> int | None:
    """Votes for a team ``gap`` below the top (GL-050); None: 21 or more, mutate."""
    for most, votes in HANDICAP_TABLE:
        if gap <= most:
            return votes
    return None


@dataclass(frozen=True)
class Handicap:
    """What one seat's handicap came to."""

    seat: int
    rating_before: int
    rating_after: int
    top: int
    votes: int
    mutations: tuple[tuple[str, Gain], ...] = ()
    """(vehicle name, gain) for each mutation the 21+ loop gave, in order."""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "rating_before": self.rating_before,
                "rating_after": self.rating_after, "top": self.top, "votes": self.votes,
                "mutations": [{"vehicle": n, **g.to_json()} for n, g in self.mutations]}


def mutate_team(team: TeamSpec) -> tuple[TeamSpec, tuple[tuple[str, Gain], ...]]:
    """Each vehicle of ``team`` gains one mutation (GL-033 and the handicap loop)."""
    vehicles = []
    gains = []
    for v in team.vehicles:
        nv, g = next_mutation(v)
        vehicles.append(nv)
        gains.append((v.name, g))
    return team.model_copy(update={"vehicles": tuple(vehicles)}), tuple(gains)


def team_handicaps(teams: Sequence[TeamSpec]) -> tuple[tuple[TeamSpec, ...], tuple[Handicap, ...]]:
    """GL-050, GL-051: every team's handicap against the highest Team Rating; the teams as
    they are after the loop's mutations."""
    if not teams:
        raise LegacyError("Team Handicaps need at least one team")
    top = max(team_rating(t) for t in teams)
    out_teams = []
    out = []
    for seat, team in enumerate(teams):
        before = team_rating(team)
        gains: list[tuple[str, Gain]] = []
        votes = 0
        for _ in range(MAX_LOOPS):
            gap = top - team_rating(team)
            got = handicap_votes(max(0, gap))
            if got is not None:
                votes = got
                break
            team, more = mutate_team(team)
            gains += more
        out_teams.append(team)
        out.append(Handicap(seat, before, team_rating(team), top, votes, tuple(gains)))
    return tuple(out_teams), tuple(out)


def apply_handicaps(setup: Any) -> tuple[Any, tuple[Handicap, ...]]:
    """A ``GameSetup`` with its teams handicapped and each seat's handicap votes added to
    ``pregame["votes"]`` (what a campaign hands the game; lost after it, GL-022)."""
    teams, handicaps = team_handicaps(setup.teams)
    pre = dict(setup.pregame)
    votes = list(pre.get("votes") or [0] * len(teams))
    votes += [0] * (len(teams) - len(votes))
    for h in handicaps:
        votes[h.seat] = int(votes[h.seat]) + h.votes
    pre["votes"] = votes
    return replace(setup, teams=teams, pregame=tuple(sorted(pre.items()))), handicaps


# -- corrosion ------------------------------------------------------------------------------------
def hull_boxes(v: VehicleSpec) -> int:
    """The outlined hull boxes of a Legacy vehicle: the type's Hull plus Hull gained (boxes
    filled in by the Nano-Cloaking Device are still boxes; ruling GL-R16)."""
    cur = legacy_of(v)
    if cur is None:
        raise LegacyError(f"{v.name} is not a Legacy vehicle: it has no dashboard")
    return legacy_type(v.type).hull + cur.hull


def mark_corrosion(v: VehicleSpec, marks: int = 1) -> tuple[VehicleSpec, int]:
    """GL-036: ``marks`` corrosion on ``v``; (the vehicle, how many marks found a box)."""
    if marks < 0:
        raise LegacyError(f"cannot mark {marks} corrosion")
    cur = legacy_of(v)
    if cur is None:
        raise LegacyError(f"{v.name} is not a Legacy vehicle: it cannot corrode")
    room = max(0, hull_boxes(v) - cur.corroded)
    n = min(marks, room)
    lg = cur.model_copy(update={"corroded": cur.corroded + n})
    return v.model_copy(update={"legacy": lg}), n


def total_corrosion(team: TeamSpec) -> int:
    """GL-037: corroded hull boxes over all of the team's vehicles."""
    return sum(lg.corroded for lg in map(legacy_of, team.vehicles) if lg is not None)


def fill_hull_box(v: VehicleSpec) -> VehicleSpec:
    """The Nano-Cloaking Device's permanent cut (GL-099): one hull box filled in for good
    (the rating is unchanged, ruling GL-R21)."""
    cur = legacy_of(v)
    if cur is None:
        raise LegacyError(f"{v.name} is not a Legacy vehicle")
    lg = cur.model_copy(update={"filled": cur.filled + 1})
    return v.model_copy(update={"legacy": lg})


NANO_CLOAK_RATING = 5
"""GL-101: a vehicle gaining the Nano-Cloaking Device for good rates 5 more."""


def gain_nano_cloak(v: VehicleSpec) -> VehicleSpec:
    """GL-101: the vehicle gains the Nano-Cloaking Device for good (+5 rating); a vehicle
    that has one already is unchanged (one per vehicle, ruling GL-R20)."""
    from carnage.games.legacy.catalog import NANO_CLOAK
    from carnage.team.model import UpgradeSpec

    cur = legacy_of(v)
    if cur is None:
        raise LegacyError(f"{v.name} is not a Legacy vehicle")
    if any(u.id == NANO_CLOAK for u in v.upgrades):
        return v
    lg = cur.model_copy(update={"rating": cur.rating + NANO_CLOAK_RATING})
    return v.model_copy(update={"upgrades": (*v.upgrades, UpgradeSpec(id=NANO_CLOAK)),
                                "legacy": lg})


def add_note(v: VehicleSpec, note: str) -> VehicleSpec:
    """A permanent note on the dashboard (e.g. ``dinosaur-blood``), once."""
    cur = legacy_of(v)
    if cur is None:
        raise LegacyError(f"{v.name} is not a Legacy vehicle")
    text = note.strip()
    if not text:
        raise LegacyError("a note needs some text")
    if text in cur.notes:
        return v
    lg = cur.model_copy(update={"notes": (*cur.notes, text)})
    return v.model_copy(update={"legacy": lg})
