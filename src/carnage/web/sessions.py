"""Live games on the server: the engine, the seats and their tokens, bots, listeners.

The server is authoritative: a ``GameSession`` owns its ``Game`` and is the only thing that
changes it, under a per-game lock. A client acts for a seat by its secret token; each action
names the version (number of choices applied) it was made against, and a stale one is refused.
After a human choice the session answers every bot decision until a human must decide or the
game ends, saves the choices and tells its listeners (websockets) that the game changed.
Sessions are kept in memory and rebuilt from the database by replaying their choices.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

import carnage
from carnage import bounds
from carnage.ai import Bot, make_bot
from carnage.ai.runner import bot_rng
from carnage.games.refuelled.engine.game import Game
from carnage.games.refuelled.setup import (
    GameSetup,
    SetupError,
    check_sides,
    engine_ruleset,
    rolled_scenario,
)
from carnage.kernel.decisions import Decision, IllegalChoice
from carnage.kernel.dice import SeededDice
from carnage.kernel.game import SnapshotError
from carnage.kernel.ruleset import Ruleset
from carnage.rulesets import build_game, get_ruleset
from carnage.team import TeamFileError, TeamSpec, check_team, parse_team
from carnage.web.botnotes import bot_notes
from carnage.web.db import Store, StoredGame
from carnage.web.plain import seat_name
from carnage.web.redact import events_for, viewer_key
from carnage.web.schemas import PLAYERS, Controller, GameView, LogLine, NewGameRequest
from carnage.web.seated import SeatedSession
from carnage.web.views import SeatControl, game_view, illegal_choice_text, log_lines

MAX_CACHED = 64
"""Live sessions kept in memory; the least recently used idle ones are dropped (they reload)."""
LOG_LINES = 200
"""Log lines a ruleset's own view carries (the newest)."""


class ApiError(Exception):
    """An error for the client: an HTTP status and one sentence."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


@dataclass(frozen=True)
class Seat:
    seat: int
    controller: Controller
    token: str | None
    team_id: str | None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "controller": self.controller, "token": self.token,
                "team_id": self.team_id}

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Seat:
        return Seat(int(raw["seat"]), cast(Controller, str(raw["controller"])),
                    raw.get("token"), raw.get("team_id"))


@dataclass(eq=False)
class Listener:
    """A websocket waiting for changes: notified from any thread, read on its event loop."""

    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[int] = field(default_factory=asyncio.Queue)

    def notify(self, version: int) -> None:
        with contextlib.suppress(RuntimeError):  # a closed loop: the socket is gone
            self.loop.call_soon_threadsafe(self.queue.put_nowait, version)


def coerce(d: Decision, choice: Any) -> str | int | float:
    """``choice`` validated for ``d``; a form's string "2" is taken for the option 2 (and a
    number for the option that prints as it), so browser controls need no type juggling."""
    try:
        return d.validate(choice)
    except IllegalChoice:
        if d.domain is not None and isinstance(choice, str):
            try:
                return d.validate(float(choice))
            except ValueError:
                pass
        elif d.domain is None and not isinstance(choice, bool):
            for o in d.options:
                if str(o.value) == str(choice) or (
                    isinstance(choice, float) and choice.is_integer() and o.value == int(choice)
                    and isinstance(o.value, int)
                ):
                    return d.validate(o.value)
        raise


def seed_may_be_chosen(req: NewGameRequest) -> bool:
    """A seed given at creation is used only when at most one human plays (bots, or one
    human). With two human seats, whoever sets the seed could foresee every die, so the server
    draws it instead, hot-seat too: a hot-seat game still issues one link per seat, and its
    links can be handed to different people."""
    humans = sum(1 for s in req.seats if s.controller == "human")
    return humans < 2


def draw_seed() -> int:
    """A fresh secret seed (53 bits: too many to search from the first rolls, and a seed
    every JSON reader keeps exact, so a revealed seed can be given back: ``bounds.MAX_SEED``)."""
    return secrets.randbelow(bounds.MAX_SEED + 1)


class GameSession(SeatedSession):
    game: Game

    def __init__(
        self,
        gid: str,
        setup: GameSetup,
        seed: int,
        seats: Sequence[Seat],
        created: datetime,
        store: Store,
        game: Game | None = None,
        seed_chosen: bool = True,
    ) -> None:
        self.id = gid
        self.seed_chosen = seed_chosen
        self.setup = setup
        self.seed = seed
        self.seats = list(seats)
        self.created = created
        self.store = store
        self.lock = threading.RLock()
        self.game = game if game is not None else build_game(setup, seed)
        self.bots: dict[int, Bot] = {
            s.seat: make_bot(s.controller) for s in self.seats if s.controller != "human"
        }
        self.rng: random.Random = bot_rng(f"{seed}:{len(self.game.choices)}")
        self.listeners: list[Listener] = []
        self._views: dict[tuple[int, int | None, tuple[int, ...]], GameView] = {}
        self._json: dict[tuple[int, int | None, tuple[int, ...]], bytes] = {}
        self._logs: dict[tuple[int, ...], dict[int, LogLine]] = {}
        """Log lines already written, per set of viewing seats (secrets differ by seat)."""

    # -- seats and tokens ------------------------------------------------------------------------
    def seat_controls(self) -> list[SeatControl]:
        teams = self.setup.teams
        return [SeatControl(s.seat, s.controller,
                            teams[s.seat].name if s.seat < len(teams) else "")
                for s in self.seats]

    def _your_seat(self, seats: list[int]) -> int | None:
        d = self.game.pending()
        if d is not None and d.player in seats:
            return d.player
        return seats[0] if seats else None

    # -- reading ---------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.game.state.finished

    def _log_cache(self, seats: list[int]) -> dict[int, LogLine]:
        return self._logs.setdefault(viewer_key(seats), {})

    def view(self, seats: list[int]) -> GameView:
        with self.lock:
            key = (self.version, self._your_seat(seats), viewer_key(seats))
            cached = self._views.get(key)
            if cached is None:
                if self._views and next(iter(self._views))[0] != self.version:
                    self._views.clear()
                cached = game_view(self.game, self.id, self.seat_controls(), key[1],
                                   log_cache=self._log_cache(seats), viewers=seats)
                cached = cached.model_copy(update={
                    "bot_notes": bot_notes(self.bots),  # the search bots' reasons
                    "seed_chosen": self.seed_chosen,
                    # the dice seed is revealed once the game is over
                    "seed": self.seed if self.finished else None,
                })
                self._views[key] = cached
            return cached

    def view_json(self, seats: list[int]) -> bytes:
        """``view(seats)`` serialised (cached per version and seat, like the view)."""
        with self.lock:
            key = (self.version, self._your_seat(seats), viewer_key(seats))
            out = self._json.get(key)
            if out is None:
                if self._json and next(iter(self._json))[0] != self.version:
                    self._json.clear()
                out = self.view(seats).model_dump_json().encode()
                self._json[key] = out
            return out

    def log_lines(self, since: int = 0, seats: Sequence[int] = ()) -> list[LogLine]:
        """Every log line from sequence number ``since`` on, exactly as the table shows them
        to ``seats`` (none: a spectator; other seats' secrets redacted)."""
        with self.lock:
            shown = events_for(self.game, self.game.log.events[since:], seats)
            return log_lines(self.game, shown, self._log_cache(list(seats)))

    # -- acting ----------------------------------------------------------------------------------
    def decide_json(self, tokens: str, version: int, choice: Any) -> bytes:
        """``decide``, answered with the acting seat's view serialised."""
        with self.lock:
            self.decide(tokens, version, choice)
            return self.view_json(self.seats_for(tokens))

    def accept(self, d: Decision, choice: Any) -> Any:
        try:
            return coerce(d, choice)
        except IllegalChoice as e:
            raise self.refused(d, choice, e) from None

    def refused(self, d: Decision, choice: Any, e: IllegalChoice) -> ApiError:
        return ApiError(422, illegal_choice_text(self.game, d, choice, str(e)))

    def seat_label(self, seat: int) -> str:
        return seat_name(seat)

    def bot_choice(self, d: Decision) -> Any:
        return self.bots[d.player].choose(self.game, d, self.rng)

    def _rollback(self, choices: list[Any], e: Exception) -> ApiError:
        """The engine (or a bot) failed: rebuild the game as it stood after ``choices``."""
        self.game = replay_choices(self.setup, self.seed, choices)
        self._logs.clear()
        self._views.clear()
        self._json.clear()
        return ApiError(
            500, f"the engine failed ({type(e).__name__}: {e}); the choice was not applied"
        )

    def fresh(self) -> Game:
        """The game as it started (same setup, same seed), no choice applied."""
        return build_game(self.setup, self.seed)

    def save(self) -> None:
        st = self.game.state
        self.store.save_progress(self.id, list(self.game.choices), st.finished, st.round,
                                 st.winner, snapshot=self.game.snapshot())

    def stored(self) -> StoredGame:
        st = self.game.state
        return StoredGame(
            id=self.id, scenario=self.setup.scenario, setup=dict(self.setup.to_json()),
            seats=[s.to_json() for s in self.seats], seed=self.seed,
            choices=list(self.game.choices), finished=st.finished, round=st.round,
            winner=st.winner, created=self.created, seed_chosen=self.seed_chosen,
        )


def resume(store: Store, row: StoredGame, setup: GameSetup) -> Game:
    """The saved game: from its snapshot when it has a current one, else rebuilt by replaying
    its choices (a game saved before snapshots, or a snapshot that no longer restores: damaged
    or tampered with, refused by restore's checks). The table saves only seeded dice, so a
    snapshot with any other dice is not its own either. Nothing is written here: the next
    move saves a fresh snapshot."""
    saved = store.snapshot(row.id)
    if saved is not None and saved[0] == len(row.choices):
        try:
            game = carnage.restore(saved[1])
        except SnapshotError:
            pass
        else:
            if isinstance(game, Game) and isinstance(game.dice, SeededDice) \
                    and game.choices == list(row.choices):
                return game
    return replay_choices(setup, row.seed, row.choices)


def replay_choices(setup: GameSetup, seed: int, choices: Sequence[Any]) -> Game:
    """Rebuild a game by applying ``choices`` in order; ``ApiError`` 409 if they no longer
    replay (e.g. the engine changed under a saved game)."""
    try:
        game = build_game(setup, seed)
    except SetupError as e:
        raise ApiError(409, f"the saved game cannot be set up again: {e}") from None
    for i, c in enumerate(choices):
        if game.pending() is None:
            raise ApiError(409, f"the saved game ended before its choice {i + 1}")
        try:
            game.apply(c)
        except IllegalChoice as e:
            raise ApiError(409, f"the saved game's choice {i + 1} no longer replays: {e}") from None
    return game


def _idle(s: SeatedGame) -> bool:
    """No websocket is watching it and no request is using it right now."""
    if s.listeners or not s.lock.acquire(blocking=False):
        return False
    s.lock.release()
    return True


def first_scenario(ruleset: Ruleset) -> str:
    """The scenario a new game plays when none is named: the book's first game (Street Race,
    p.62) where the ruleset has it, else the ruleset's first."""
    return "street-race" if "street-race" in ruleset.scenarios else next(iter(ruleset.scenarios))


class RulesetSession(SeatedSession):
    """A game of a ruleset that brings its own table view (``Ruleset.table``): shown, told and
    played by bots only through what the ruleset offers; stored like every other game (its
    setup is what ``ruleset.new_game`` takes)."""

    def __init__(self, gid: str, ruleset: Ruleset, setup: dict[str, Any], seed: int,
                 seats: Sequence[Seat], created: datetime, store: Store,
                 seed_chosen: bool = True) -> None:
        self.id = gid
        self.ruleset = ruleset
        self.offer = ruleset.table
        self.setup = setup
        self.seed = seed
        self.seats = list(seats)
        self.created = created
        self.store = store
        self.seed_chosen = seed_chosen
        self.lock = threading.RLock()
        self.bots: dict[int, Any] = {
            s.seat: self._bot(s.controller) for s in self.seats if s.controller != "human"}
        self.rng = random.Random(f"{ruleset.name}-bots:{seed}:0")
        self.listeners: list[Listener] = []
        self.game: Any = None

    def _bot(self, name: str) -> Any:
        if name.startswith("search"):
            from carnage.ai.search import make_search_bot

            return make_search_bot(name)
        if self.offer.bot is None:
            raise ValueError(f"{self.ruleset.title} has no bot {name!r}")
        return self.offer.bot(name)

    # -- building ------------------------------------------------------------------------------
    def rebuild(self, choices: Sequence[Any]) -> Any:
        """The game from its setup, with ``choices`` applied; ``ApiError`` 409 if they no
        longer replay."""
        try:
            game = self.ruleset.new_game(
                scenario=str(self.setup["scenario"]), seed=int(self.setup["seed"]),
                teams=list(self.setup.get("teams") or ()))
            for c in choices:
                game.apply(c)
        except (IllegalChoice, KeyError, TypeError, ValueError) as e:
            raise ApiError(409, f"the saved {self.ruleset.title} game no longer replays: "
                                f"{e}") from None
        return game

    def resume(self, row: StoredGame) -> None:
        """The saved game from its snapshot when that is current, else replayed."""
        self.game = None
        saved = self.store.snapshot(row.id)
        if saved is not None and saved[0] == len(row.choices) \
                and saved[1].get("ruleset") == self.ruleset.name:
            try:
                game = self.ruleset.restore(saved[1])
            except (SnapshotError, ValueError, KeyError, TypeError):
                pass
            else:
                # the table saves only seeded dice: a snapshot with any other is not its own
                dice = getattr(game, "dice", None)
                if isinstance(dice, SeededDice) and list(game.choices) == list(row.choices):
                    self.game = game
        if self.game is None:
            self.game = self.rebuild(row.choices)
        self.rng = random.Random(f"{self.ruleset.name}-bots:{self.seed}:{len(row.choices)}")

    # -- reading -------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.game.outcome() is not None

    @property
    def winner(self) -> int | None:
        out = self.game.outcome()
        return None if out is None else cast("int | None", out.winner)

    def _lines(self, game: Any, since: int, seats: Sequence[int]) -> list[tuple[int, Any]]:
        shown = events_for(game, game.log.events[since:], seats)
        return [(e.seq, e) for e in shown if e.kind not in self.offer.quiet]

    def _why(self, source: str) -> str:
        return self.offer.rule_text(source) if self.offer.rule_text is not None else source

    def _text(self, game: Any, e: Any) -> str:
        return self.offer.event_text(game, e) if self.offer.event_text is not None else e.kind

    def view_of(self, game: Any, seats: list[int]) -> dict[str, Any]:
        """What ``seats`` see of ``game`` (this game, or a replay of it)."""
        assert self.offer.view is not None
        v = self.offer.view(game, seats)
        d = game.pending()
        your = d.player if d is not None and d.player in seats else (seats[0] if seats else None)
        names = self.offer.seat_names
        lines = self._lines(game, 0, seats)
        v.update({
            "id": self.id,
            "ruleset": self.ruleset.name,
            "board_view": self.offer.board_view,
            "version": len(game.choices),
            "status": "in_progress" if game.outcome() is None else "finished",
            "seats": [{"seat": s.seat, "controller": s.controller,
                       "name": names[s.seat] if s.seat < len(names) else seat_name(s.seat)}
                      for s in self.seats],
            "your_seat": your,
            "your_turn": d is not None and d.player in seats,
            "seed": self.seed if game.outcome() is not None or self.seed_chosen else None,
            "log": [{"seq": i, "kind": e.kind, "text": self._text(game, e), "rule": e.source,
                     "why": self._why(e.source)} for i, e in lines[-LOG_LINES:]],
        })
        return v

    def view(self, seats: list[int]) -> dict[str, Any]:
        with self.lock:
            return self.view_of(self.game, seats)

    def view_json(self, seats: list[int]) -> bytes:
        return json.dumps(self.view(seats)).encode()

    def log_lines(self, since: int = 0, seats: Sequence[int] = ()) -> list[LogLine]:
        with self.lock:
            return [LogLine(seq=i, kind=e.kind, source=e.source, page=e.page,
                            text=self._text(self.game, e), rule=self._why(e.source))
                    for i, e in self._lines(self.game, since, seats)]

    def replay_view(self, step: int) -> dict[str, Any]:
        """The game as a spectator saw it after ``step`` choices."""
        with self.lock:
            choices = list(self.game.choices)
        if step > len(choices):
            raise ApiError(422, f"step must be between 0 and {len(choices)}, not {step}")
        v = self.view_of(self.rebuild(choices[:step]), [])
        v["replay"] = {"step": step, "steps": len(choices)}
        return v

    def replay_steps(self) -> list[dict[str, Any]]:
        """The game as a spectator saw it at the start and after each choice."""
        with self.lock:
            choices = list(self.game.choices)
        game = self.rebuild([])
        steps = [self.view_of(game, [])]
        for c in choices:
            game.apply(c)
            steps.append(self.view_of(game, []))
        return steps

    def svg(self) -> str:
        with self.lock:
            if self.offer.board_svg is None:
                raise ApiError(404, f"{self.ruleset.title} has no SVG drawing of its table")
            return self.offer.board_svg(self.game)

    # -- acting --------------------------------------------------------------------------------
    def decide_json(self, tokens: str, version: int, choice: Any) -> bytes:
        with self.lock:
            return json.dumps(self.decide(tokens, version, choice)).encode()

    def accept(self, d: Decision, choice: Any) -> Any:
        return option_named(d, choice)

    def refused(self, d: Decision, choice: Any, e: IllegalChoice) -> ApiError:
        return ApiError(422, str(e))

    def seat_label(self, seat: int) -> str:
        return f"seat {seat}"

    def bot_choice(self, d: Decision) -> Any:
        return self.bots[d.player](self.game, d, self.rng)

    def _rollback(self, choices: list[Any], e: Exception) -> ApiError:
        self.game = self.rebuild(choices)
        return ApiError(500, f"the engine failed ({type(e).__name__}: {e}); the choice was "
                        "not applied")

    def save(self) -> None:
        out = self.game.outcome()
        self.store.save_progress(self.id, list(self.game.choices), out is not None,
                                 self.round, self.winner, snapshot=self.game.snapshot())

    @property
    def round(self) -> int:
        st = self.game.state
        return int(getattr(st, "round", getattr(st, "turn", 0)))

    def stored(self) -> StoredGame:
        return StoredGame(
            id=self.id, scenario=str(self.setup["scenario"]), setup=dict(self.setup),
            seats=[s.to_json() for s in self.seats], seed=self.seed,
            choices=list(self.game.choices), finished=self.finished, round=self.round,
            winner=self.winner, created=self.created, seed_chosen=self.seed_chosen,
            snapshot=self.game.snapshot())


def option_named(d: Decision, choice: Any) -> Any:
    """The option ``choice`` names: its value, or the same value sent as text ("1" for 1), so
    browser controls need no type juggling. ``ApiError`` 422 naming the legal values."""
    options = d.options
    for o in options:
        if o.value == choice and type(o.value) is type(choice):
            return o.value
    if isinstance(choice, str | int) and not isinstance(choice, bool):
        for o in options:
            if str(o.value) == str(choice):
                return o.value
    legal = ", ".join(repr(o.value) for o in options[:12])
    more = f" and {len(options) - 12} more" if len(options) > 12 else ""
    shown = repr(choice) if len(repr(choice)) <= 40 else repr(choice)[:37] + "..."
    raise ApiError(422, f"{shown} is not one of the options (legal: {legal}{more})")


SeatedGame = GameSession | RulesetSession
"""A live game of any ruleset."""


class Games:
    """Every game: live sessions in memory, the rest in the store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._sessions: OrderedDict[str, SeatedGame] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, gid: str) -> SeatedGame:
        with self._lock:
            s = self._sessions.get(gid)
            if s is not None:
                self._sessions.move_to_end(gid)
                return s
            row = self.store.game(gid)
            if row is None:
                raise ApiError(404, f"no game with id {gid!r}")
            s = self._load(row)
            self._keep(s)
            return s

    def _load(self, row: StoredGame) -> SeatedGame:
        try:
            ruleset = get_ruleset(str(row.setup.get("ruleset", "refuelled")))
        except KeyError as e:
            raise ApiError(409, f"the saved game {row.id!r} is damaged: {e.args[0]}") from None
        if ruleset.table.view is not None:
            try:
                seats = [Seat.from_json(x) for x in row.seats]
                session = RulesetSession(row.id, ruleset, dict(row.setup), row.seed, seats,
                                         row.created, self.store, seed_chosen=row.seed_chosen)
            except (KeyError, TypeError, ValueError) as e:
                raise ApiError(409, f"the saved game {row.id!r} is damaged: {e}") from None
            session.resume(row)
            return session
        try:
            setup = GameSetup.from_json(row.setup)
            seats = [Seat.from_json(x) for x in row.seats]
        except (SetupError, KeyError, TypeError, ValueError) as e:
            raise ApiError(409, f"the saved game {row.id!r} is damaged: {e}") from None
        game = resume(self.store, row, setup)
        return GameSession(row.id, setup, row.seed, seats, row.created, self.store, game,
                           seed_chosen=row.seed_chosen)

    def _keep(self, s: SeatedGame) -> None:
        self._sessions[s.id] = s
        while len(self._sessions) > MAX_CACHED:
            idle = next((k for k, v in self._sessions.items() if k != s.id and _idle(v)), None)
            if idle is None:
                break
            del self._sessions[idle]

    def delete(self, gid: str, tokens: str | None) -> None:
        """Abandon (in progress) or delete (finished) a game: one of its seats' tokens is
        needed when it has human seats; a game of bots only may be deleted by anyone."""
        s = self.get(gid)
        if any(x.token for x in s.seats) and not s.seats_for(tokens):
            raise ApiError(403, "only a player of this game may delete it: send a seat token")
        with self._lock:
            self._sessions.pop(gid, None)
        with s.lock:
            self.store.delete_game(gid)

    def forget(self) -> None:
        """Drop every live session (they reload from the store on demand)."""
        with self._lock:
            self._sessions.clear()

    def create(self, req: NewGameRequest) -> SeatedGame:
        chosen = req.seed is not None and seed_may_be_chosen(req)
        seed = req.seed if chosen and req.seed is not None else draw_seed()
        ruleset = get_ruleset(req.ruleset)
        if ruleset.table.view is not None:
            return self._keep_new(self._create_offered(req, ruleset, seed, chosen))
        asked = req.scenario or first_scenario(ruleset)
        try:
            # p.122: a random:<table> is rolled with the game's seed (build_game logs it).
            scenario = engine_ruleset(ruleset).scenario_class(
                rolled_scenario(asked, seed, ruleset))()
        except ValueError as e:
            raise ApiError(422, str(e)) from None
        n = len(req.seats)
        if not PLAYERS[0] <= n <= PLAYERS[1]:
            raise ApiError(
                422, f"a game needs {PLAYERS[0]} to {PLAYERS[1]} seats, not {n}"
            )
        defaults = scenario.default_teams(n)
        teams: list[TeamSpec] = []
        for i, seat in enumerate(req.seats):
            if seat.team_id is None:
                if i >= len(defaults):
                    raise ApiError(422, f"seat {i}: the scenario has no team of its own; "
                                        "choose a saved team")
                teams.append(defaults[i])
                continue
            stored = self.store.team(seat.team_id)
            if stored is None:
                raise ApiError(422, f"seat {i}: no saved team with id {seat.team_id!r}")
            try:
                spec = parse_team(stored.data, f"team {seat.team_id}")
            except TeamFileError as e:
                raise ApiError(422, f"seat {i}: {e.problems[0]}") from None
            report = check_team(spec)
            if not report.valid:
                first = "; ".join(v.message for v in report.errors[:3])
                more = len(report.errors) - 3
                tail = f" (and {more} more)" if more > 0 else ""
                raise ApiError(
                    422, f"seat {i}: team {spec.name!r} is not legal: {first}{tail}"
                )
            if not report.vehicles:
                raise ApiError(422, f"seat {i}: team {spec.name!r} has no vehicles")
            teams.append(spec)
        try:
            setup = GameSetup(scenario=asked if asked.startswith("random:") else scenario.id,
                              teams=tuple(teams), players=n,
                              sides=check_sides(req.sides or (), n), ruleset=ruleset.name)
        except SetupError as e:
            raise ApiError(422, str(e)) from None
        try:
            game = build_game(setup, seed)
        except SetupError as e:
            raise ApiError(422, f"the game cannot be set up: {e}") from None
        except (ValueError, RuntimeError) as e:
            raise ApiError(422, f"the game cannot be set up: {e}") from None
        seats = [
            Seat(i, s.controller, secrets.token_urlsafe(18) if s.controller == "human" else None,
                 s.team_id)
            for i, s in enumerate(req.seats)
        ]
        session = GameSession(uuid.uuid4().hex[:12], setup, seed, seats, datetime.now(UTC),
                              self.store, game, seed_chosen=chosen)
        return self._keep_new(session)

    def _keep_new(self, session: SeatedGame) -> SeatedGame:
        """A new game: the bots play up to the first human decision, then it is saved."""
        with session.lock:
            try:
                session.run_bots()
            except Exception as e:
                raise ApiError(
                    500, f"the engine failed while the bots played ({type(e).__name__}: {e})"
                ) from None
            self.store.add_game(session.stored())
        with self._lock:
            self._keep(session)
        return session

    def _create_offered(self, req: NewGameRequest, ruleset: Ruleset, seed: int,
                        chosen: bool) -> RulesetSession:
        """A game of a ruleset that brings its own table (``ruleset.table``): its seats, its
        own teams, started by ``ruleset.new_game``."""
        offer = ruleset.table
        n, (low, high) = len(req.seats), offer.seats
        if not low <= n <= high:
            wanted = f"{low}" if low == high else f"{low} to {high}"
            raise ApiError(422, f"seats: {ruleset.title} has {wanted} seats, not {n}")
        for i, seat in enumerate(req.seats):
            if seat.team_id is not None and offer.own_teams:
                raise ApiError(422, f"seat {i}: {ruleset.title} plays its own teams "
                                    "(team_id must be null)")
        if req.sides:
            raise ApiError(422, f"sides: {ruleset.title} has no team games")
        sid = req.scenario or first_scenario(ruleset)
        if sid not in ruleset.scenarios:
            known = ", ".join(ruleset.scenarios)
            raise ApiError(422, f"scenario: unknown {ruleset.title} scenario {sid!r} "
                                f"(known: {known})")
        setup: dict[str, Any] = {"ruleset": ruleset.name, "scenario": sid, "seed": seed}
        seats = [Seat(i, s.controller, secrets.token_urlsafe(18) if s.controller == "human"
                      else None, None) for i, s in enumerate(req.seats)]
        session = RulesetSession(uuid.uuid4().hex[:12], ruleset, setup, seed, seats,
                                 datetime.now(UTC), self.store, seed_chosen=chosen)
        try:
            session.game = session.rebuild([])
        except ApiError as e:
            raise ApiError(422, f"the game cannot be set up: {e.detail}") from None
        return session
