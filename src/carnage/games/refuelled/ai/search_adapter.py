"""What the search bot (``ai/search.py``) needs to know of Refuelled (and so of Legacy, which
inherits it, and of the Kart variant, whose ``games/kart/search.py`` extends it): the
heuristic bot plays the rollouts (for the bot's own seat aiming for a higher gear, and in a
race Pushing It whatever its Hazards), templates
are weighed in the order of the heuristic's score, and a position is valued by the scenario's
own score (Victory Points, zombies, kills ...), progress towards its goal, gear, hazards and
hull left, side against side: in a team game (p.123) a seat's allies are not its rivals, and
a win of its side is its win.
``Ruleset.search`` declares it (``games/refuelled/ruleset.py``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from carnage.ai.search import Adapter, Choice, lead_values
from carnage.catalog import TemplateUse
from carnage.games.refuelled.ai.bots import HeuristicBot, _last_event_data
from carnage.games.refuelled.engine.movement import parse_template_value, template_use
from carnage.games.refuelled.engine.sides import side_of, side_players, side_totals
from carnage.games.refuelled.engine.sides import sides as all_sides
from carnage.games.refuelled.engine.state import Status
from carnage.geometry.movement import resolve_move
from carnage.kernel.decisions import Decision


class RefuelledAdapter(Adapter):
    """Refuelled: the heuristic bot plays the rollouts and orders templates by its score."""

    GEAR = 45.0
    """mm of progress one gear is worth (a faster car covers more ground each phase)."""
    HAZARD = 18.0
    HULL = 25.0
    """mm per hull point left."""
    LOST = 600.0
    """A vehicle out of play costs this much on top of its hull."""
    SCALE = 120.0
    MOVE = 250.0
    """Progress a vehicle's move still to come in the current Gear Phase is worth (in the units
    of ``_progress``, 1.25 a mm of road: about 200 mm). The value compares seats wherever a
    rollout's horizon cuts, often between one seat's move and another's in the same phase;
    without this the seat that had just moved led by its move alone. In heuristic self-play
    of the three Refuelled-based Street Races (300 games each) one activation's progress had a
    median of 243 in Refuelled and the Kart variant (116 in Legacy, spread far wider), and one
    figure of 250 for every gear predicted the winner from the last 40 decisions as well as
    the means by gear or 200 or 300 did (docs/performance.md, "The search value between two
    seats' moves")."""
    GOAL_REACHED = 2500.0
    """mm of progress each goal reached is worth (``goals_reached``: Death Race's gates
    passed, Capture the Flag's flags held), more than any drive to the next goal on a
    table: passing a gate moves the goal on, and the distance alone would count it as going
    back."""
    POINT = 600.0
    """mm each point of the scenario's ranking tally is worth (its first ``score_tallies``:
    Victory Points, zombies collected, kills, Salvage Points; a side's total), as much as a
    vehicle lost: points are what those scenarios are won by, and no distance sees them."""

    EXITED_PROGRESS = 0.0
    """The progress of a vehicle gone off the table by the scenario's exit edge (status
    ``exited``: Express Delivery's delivery, p.137): as at the goal itself, where
    ``position_value`` (minus the driving distance left) is at its best. Before, such a
    vehicle counted as lost and a side with every vehicle off the table as beaten, so the
    search shied away from the very delivery that scores."""

    OWN_GEAR = 5
    """The gear the bot's own rollout policy drives for: the heuristic bot aiming for gear 5
    instead of 4 wins about 60 % of Street Races against the plain one (200 seeded games), so
    the search starts from that prior for its own seat; other seats are modelled by the plain
    heuristic bot."""

    LEVELS: ClassVar[Mapping[str, Mapping[str, int]]] = {"hard": {"horizon": 40}}
    """The search levels in a scenario that is not a race (``budget``). A game of many rounds
    played out from each candidate cost minutes of CPU a game, and its outcome, many rounds
    on, says little of one decision: the hard level's rollouts stop after 40 decisions, as
    the normal level's do, and are valued as a position (docs/performance.md, "The hard level
    in the objective scenarios: a horizon")."""

    RACE_LEVELS: ClassVar[Mapping[str, Mapping[str, int]]] = {
        "hard": {"horizon": 40, "depth": 1, "candidates": 6, "corrected": 1}}
    """The search levels in a race (``budget``): the hard level searches as the normal level
    does (rollouts valued after 40 decisions, a tree one decision deep, six candidates) with
    its own 48 simulations, and a candidate replaces the policy's pick only if it clears a
    bar corrected for the candidates tested (``Level.corrected``). Playing every rollout to
    the end it won 81 of 100 Refuelled races; as the normal level with 64 simulations and the
    plain bar, 79; with the corrected bar, 84 with 64 simulations and 255 of 300 with 48.
    Legacy's race: 90 of 100 (docs/performance.md, "The hard level in a race: the normal
    level's search, a bar corrected for the candidates")."""

    def __init__(self, players: int) -> None:
        self.bot = HeuristicBot()
        self.own = HeuristicBot(desired_gear=self.OWN_GEAR)
        super().__init__(self._policy, players)

    PUSH_BAD_DICE = 2
    """In a race the bot's own rollouts Push It (p.40) whenever at least this many of its
    skid dice came up other than a Shift, whatever its Hazards (``push_pick``); the heuristic
    bot declines when the reroll's Hazard and those dice could reach a wipeout. Against the
    plain heuristic bot that won 680 of 1,000 Refuelled races against 589 (seeds 5000-5499,
    each seat), and the search at normal 91 of 100 against 75 (docs/performance.md, "Races:
    the search's own Push It, and the Kart variant's Shifts"). Outside a race it did not
    matter in heuristic games, and those scenarios' cells were measured without it."""

    def _policy(self, game: Any, d: Decision, rng: random.Random) -> Choice:
        if d.kind == "push_it" and d.player == self.me and self.racing(game):
            return self.push_pick(game, d)
        return (self.own if d.player == self.me else self.bot).choose(game, d, rng)

    @staticmethod
    def racing(game: Any) -> bool:
        """A race (a Street Race, ``race``): where the bot's own racing choices were
        measured (``push_pick``)."""
        return bool(game.scenario.race)

    def push_pick(self, game: Any, d: Decision) -> Choice:
        """Reroll every skid die that is not a Shift when there are ``PUSH_BAD_DICE`` or
        more of them (the option naming exactly those dice), else keep the dice ("no")."""
        values = {str(o.value) for o in d.options}
        keep = "no" if "no" in values else d.options[0].value
        skid = _last_event_data(game, "skid", d.vehicle or "")  # the heuristic bot's read
        faces = skid.get("faces") if skid else None
        if not isinstance(faces, list):
            return keep
        bad = [str(i) for i, f in enumerate(faces) if f != "shift"]
        pick = ",".join(bad)
        return pick if len(bad) >= self.PUSH_BAD_DICE and pick in values else keep

    TEAM_HORIZON = True
    """Outside a race, a team game's (p.123) settings from ``LEVELS`` count their horizon for
    each two seats (``budget``): 80 decisions in a game of four. The bot's own seat makes
    about a quarter of a four-seat rollout's decisions instead of half, so 40 decisions saw
    half as much of its own play as in a game of two. The team Death Race at hard (sides
    1,3 and 2,4) won 94 of 100 with it (seeds 0-99), against 83 of the same seeds (126 of
    150) without (docs/performance.md, "More games at hard ..."). Games of two seats, races,
    the normal level and a scenario's own ``search_levels`` are left as they are;
    free-for-alls of more than two were not measured and are left too."""

    def budget(self, level: str, game: Any) -> Mapping[str, int]:
        """The scenario's own settings of ``level`` (``search_levels``), else the race's or
        the other scenarios' (``RACE_LEVELS``, ``LEVELS``; in a team game the latter's
        horizon counted for each two seats: ``TEAM_HORIZON``)."""
        own: Mapping[str, int] | None = game.scenario.search_levels.get(level)
        if own is not None:
            return own
        if self.racing(game):
            return self.RACE_LEVELS.get(level, {})
        got = self.LEVELS.get(level, {})
        if self.TEAM_HORIZON and "horizon" in got and self.team_game(game):
            return {**got, "horizon": got["horizon"] * game.players // 2}
        return got

    @staticmethod
    def team_game(game: Any) -> bool:
        """Sides of more than one seat (p.123): fewer sides than seats."""
        players: int = game.players
        return len(all_sides(game)) < players

    QUICK = frozenset({"deploy", "grid", "attack"})
    """Decisions the policy answers at once: deployment order, grid places, whom to shoot.
    A seat meets about 16 of them in a Street Race of about 60 decisions with a choice; they
    are left to the heuristic so the time goes to movement, skid dice and Shifts (a choice
    made for the time budget, not a measured gain)."""

    def worth_searching(self, game: Any, d: Decision) -> bool:
        return d.kind not in self.QUICK and d.kind not in game.scenario.search_leaves

    def ordered(self, game: Any, d: Decision, rng: random.Random) -> list[tuple[Choice, str]]:
        if d.kind == "template" and d.domain is None:
            scored = self._template_scores(game, d)
            if scored is not None:
                labels: dict[Choice, str] = {o.value: o.label or str(o.value) for o in d.options}
                return [(v, labels[v]) for _, v in scored]
        out = super().ordered(game, d, rng)
        if d.kind == "attack":
            # Never weigh shooting a friend: keep only shots at foes (and holding fire).
            out = [c for i, c in enumerate(out) if i == 0 or not self._at_friend(game, d, c[0])]
        return out

    @staticmethod
    def _at_friend(game: Any, d: Decision, value: Choice) -> bool:
        _, sep, target = str(value).partition(">")
        t = game.state.vehicles.get(target) if sep else None
        return t is not None and t.player == d.player

    def _template_scores(self, game: Any, d: Decision) -> list[tuple[float, Choice]] | None:
        """Every template scored as the heuristic bot scores it, best first."""
        bot = self.bot
        v = bot.active(game)
        if v is None:
            return None
        own = d.player == v.player
        bot._memo.clear()
        obs, ignoring = bot.moves_for(game, v)
        scored: list[tuple[float, Choice]] = []
        for o in d.options:
            tid, mirror, reverse = parse_template_value(str(o.value))
            use = template_use(game, v, tid, v.gear)
            s = 0.0
            if use is TemplateUse.NOT_PERMITTED and own:
                s = -1e9  # legal only as a pick the rules hand on: last
            res = resolve_move(v.rect(), tid, obs, mirror=mirror, reverse=reverse,
                               ignoring=ignoring, ts=game.templates)
            hazards = v.hazards + (1 if use is TemplateUse.HAZARDOUS else 0)
            s += bot.score_move(game, v, res, hazards)
            if use is TemplateUse.TRIVIAL:
                s += 5.0
            scored.append((s if own else -s, o.value))
        scored.sort(key=lambda t: -t[0])
        return scored

    def values(self, game: Any) -> list[float]:
        """Each seat's value: its side's outcome (1 a win of its side, 0 a loss, 0.5 a draw),
        else a logistic of its side's lead over the best other side in points, progress,
        hull and vehicles kept (allies are never rivals: p.123)."""
        sides = [side_players(game, p) for p in range(self.players)]
        out = game.outcome()
        if out is not None:
            if out.draw or out.winner is None:
                return [0.5] * self.players
            return [1.0 if out.winner in sides[p] else 0.0 for p in range(self.players)]
        return lead_values(self.scores(game, sides), self.SCALE, sides)

    def scores(self, game: Any, sides: list[frozenset[int]] | None = None) -> list[float]:
        """Each seat's side's score in mm, whose leads ``values`` weighs: points, the best
        progress of its vehicles in play (with a move still to come in this Gear Phase
        counted: ``_to_come``), hull left (``HULL`` a point, and the scenario's
        ``search_hull`` on top: Capture the Flag's carriers), less vehicles lost
        (``sides``: each seat's side, ``side_players``)."""
        if sides is None:
            sides = [side_players(game, p) for p in range(self.players)]
        st = game.state
        points = self._points(game)
        scores = []
        for p in range(self.players):
            mine = [v for v in st.vehicles.values() if v.player in sides[p] and v.in_team]
            live = [v for v in mine if v.in_play]
            # Off the table by the scenario's exit edge (Express Delivery p.137, the rolling
            # road): the vehicle made it, it is not lost, and it comes back on the next table.
            out = [v for v in mine if v.status is Status.EXITED]
            if not live and not out:
                scores.append(-1e4 + points[p])
                continue
            best = max([self._progress(game, v) + self._to_come(game, v) for v in live]
                       + [self.EXITED_PROGRESS + self.GEAR * v.gear for v in out])
            hull = sum(v.hull_points * (self.HULL + game.scenario.search_hull(st, v))
                       for v in live + out)
            lost = (len(mine) - len(live) - len(out)) * self.LOST
            scores.append(points[p] + best + hull - lost)
        return scores

    def _points(self, game: Any) -> list[float]:
        """Each seat's side's points in the scenario's ranking tally, in mm (0 without one)."""
        tallies = getattr(game.scenario, "score_tallies", ())
        if not tallies:
            return [0.0] * self.players
        totals = side_totals(game, tallies[0][0], with_vehicles=True)
        return [self.POINT * totals.get(side_of(game, p), 0)
                for p in range(self.players)]

    def _to_come(self, game: Any, v: Any) -> float:
        """``MOVE`` for a vehicle whose move in the current Gear Phase is still to come: the
        active vehicle still in its Movement Step (whatever its gear has become), or one whose
        gear reaches the phase (p.19) and that has not activated in it; else 0. And 0 without
        a goal to drive for (a hunt: a move closes on the enemy as much as the enemy's on it)."""
        st = game.state
        if st.flow.stage != "turns":
            return 0.0
        moving = st.active == v.id and st.step == "movement"
        if not moving and (v.gear < st.gear_phase or st.gear_phase in v.activated_phases):
            return 0.0
        if game.scenario.goal(st, v) is None:
            return 0.0
        return self.MOVE

    def _progress(self, game: Any, v: Any) -> float:
        st = game.state
        on_table = 0.0 <= v.pose.x <= st.width and 0.0 <= v.pose.y <= st.height
        where = self.bot.position_value(game, v, v.pose) if on_table else -2000.0
        reached = self.GOAL_REACHED * game.scenario.goals_reached(st, v)
        return float(reached + where + self.GEAR * v.gear - self.HAZARD * v.hazards)
