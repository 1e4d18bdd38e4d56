"""Companion play at a real table: how a game is played (``TableMode``: real cars, hot-seat,
dice rolled on screen or entered from the table) and taking the last answer back (``undo``).

A game's mode is kept in its stored set-up document under ``table_mode`` (absent: an online
game, dice on screen, no undo). With table dice the game is wrapped in
``kernel/table_dice.TableDiceGame`` whenever it is built, so a rebuild from the choices (the
entries among them) replays it exactly; its bots answer in the request (the bot pool's workers
restore rulesets' snapshots, which a game with table dice does not have).

**Undo and stale clients.** A game's version is the number of choices applied plus
``undone`` (web/seated.py): taking choices back rebuilds the game without them but *raises*
the version past the one undone, and the database's version column holds it (the stored
choices are the truth of the game, the version its revision). So a client still showing the
undone state holds a version that is never current again and its choice is refused as stale
(409), and every page takes the new view as newer. The save is the compare-and-set of every
choice (``db.save_progress`` with ``expected``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from carnage.kernel.table_dice import TableDiceGame, is_entry

if TYPE_CHECKING:
    from carnage.kernel.table import TableSetup
    from carnage.web.sessions import GameSession

KEY = "table_mode"
"""Where a stored set-up document keeps the game's ``TableMode``."""

DiceMode = Literal["screen", "table"]


@dataclass(frozen=True)
class TableMode:
    """How a game is played: ``physical`` (companion mode: real cars and templates on a real
    table; the ruleset asks the table's facts where it offers that, ``Ruleset.physical``),
    ``hot_seat`` (one device for every human seat), ``dice`` (``screen``: seeded, as ever;
    ``table``: rolled for real and entered, except the groups in ``screen``, e.g.
    ``skid_dice``), ``setup_dice`` (with table dice, the set-up's rolls too, e.g. the
    roll-off for Pole Position: every new game; a game stored before rolled them on screen
    and replays so)."""

    physical: bool = False
    hot_seat: bool = False
    dice: DiceMode = "screen"
    screen: tuple[str, ...] = ()
    setup_dice: bool = False

    @property
    def table_dice(self) -> bool:
        return self.dice == "table"

    @property
    def may_undo(self) -> bool:
        """Undo is for people at one table (companion) or one device (hot-seat): in an
        online game against a person, one side could see the dice and take a choice back."""
        return self.physical or self.hot_seat

    def wrap(self, game: Any) -> Any:
        """``game`` (built, started, no choice applied) as this mode plays it."""
        return TableDiceGame(game, self.screen) if self.table_dice else game

    def build(self, setups: TableSetup, setup: Any, seed: int) -> Any:
        """The game of ``setup`` as this mode plays it: with table dice, built unstarted
        where the ruleset can (``TableSetup.build_unstarted``), so its set-up's rolls (the
        roll-off for Pole Position) are asked at the table like any other."""
        make = setups.build_unstarted
        if not self.table_dice or not self.setup_dice or make is None:
            return self.wrap(setups.build(setup, seed))
        return TableDiceGame.unstarted(lambda dice: make(setup, seed, dice), seed,
                                       self.screen)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"physical": self.physical, "hot_seat": self.hot_seat,
                               "dice": self.dice, "screen": list(self.screen)}
        if self.setup_dice:
            out["setup_dice"] = True
        return out

    @staticmethod
    def from_json(raw: Any) -> TableMode:
        """A stored mode (``ValueError`` naming a bad field); None or absent: online."""
        if raw is None:
            return TableMode()
        if not isinstance(raw, Mapping):
            raise ValueError(f"{KEY}: expected an object")
        dice = raw.get("dice", "screen")
        if dice not in ("screen", "table"):
            raise ValueError(f"{KEY}.dice: {dice!r} is neither 'screen' nor 'table'")
        screen = raw.get("screen", [])
        if not isinstance(screen, list) or not all(isinstance(x, str) for x in screen):
            raise ValueError(f"{KEY}.screen: expected a list of dice groups")
        return TableMode(physical=raw.get("physical") is True,
                         hot_seat=raw.get("hot_seat") is True, dice=dice,
                         screen=tuple(screen), setup_dice=raw.get("setup_dice") is True)


def split_setup(doc: Mapping[str, Any]) -> tuple[dict[str, Any], TableMode]:
    """A stored set-up document without its mode, and the mode."""
    rest = dict(doc)
    return rest, TableMode.from_json(rest.pop(KEY, None))


@dataclass(frozen=True)
class UndoOutcome:
    """What an undo did: ``undone`` (the game's ``version`` now) or, when other seats must
    agree first (ruling CP-20), the seats it ``waits_for`` in words."""

    version: int
    undone: bool
    waits_for: tuple[str, ...] = ()
    message: str = ""


def undo(s: GameSession, tokens: str, version: int) -> UndoOutcome:
    """Take back the last human answer of ``s`` (and the bots' answers after it), only in a
    companion or hot-seat game, on the current ``version``. Who may (ruling CP-20): a device
    holding every human seat's token (one shared phone, a hot-seat screen) undoes at once.
    With one phone per player a seat alone takes back only its own last answer, and only
    before any dice fell for it (a mis-tap); taking back dice (an entry, or a choice whose
    dice were rolled) or another seat's answer needs every other human seat to agree: each
    of them asks the undo of the same version from its own phone, and the last ask undoes.
    An ask is kept with the seats (so any server process sees it) until the game moves on.
    A hot-seat game on the virtual table (no real dice anyone saw) needs every human seat's
    token. Saved through the compare-and-set path. ``ApiError`` 403/409 with a sentence."""
    from carnage.web.sessions import ApiError

    with s.lock:
        s.sync()
        mode = s.mode
        if not mode.may_undo:
            raise ApiError(403, "undo is only for games at a real table or hot-seat games: "
                                "in an online game against a person, a choice made after "
                                "seeing the dice cannot be taken back")
        seats = s.seats_for(tokens)
        if not seats:
            raise ApiError(403, "a seat token is needed to undo; spectators cannot")
        humans = [x.seat for x in s.seats if x.controller == "human"]
        if not mode.physical and set(humans) - set(seats):
            raise ApiError(403, "undo in a hot-seat game needs every human seat's token (the "
                                "device the game is played on holds them)")
        if version != s.version:
            raise ApiError(409, f"stale state: version {s.version} is current")
        choices = list(s.game.choices)
        last, owners, dice = _last_human(s, choices)
        if last is None:
            raise ApiError(409, "nothing to undo: no human answer has been given yet")
        asked = _asks(s, version) | set(seats)
        needed = (set(humans) if dice else set(owners)) - asked
        if needed:
            waits = tuple(s.seat_label(n) for n in sorted(needed))
            why = ("dice already fell for it" if dice
                   else f"it was {', '.join(s.seat_label(n) for n in sorted(owners))}'s")
            s.seats = [replace(x, undo_ask=version) if x.seat in asked else x for x in s.seats]
            s.save(version)  # the ask, kept with the seats: the version does not move
            s.forget_views()  # every page shows the ask (the view's ``undo_asked``) ...
            s._told = None  # ... told to the listeners though the version did not move
            out = UndoOutcome(s.version, False, waits,
                              f"the last answer is taken back once {' and '.join(waits)} "
                              f"agree{'s' if len(waits) == 1 else ''} ({why}): they tap "
                              "Undo on their own phone")
        else:
            out = _take_back(s, choices, last)
    s.notify()
    return out


def _take_back(s: GameSession, choices: list[Any], last: int) -> UndoOutcome:
    """Rebuild ``s`` without ``choices[last:]`` and save it (under ``s.lock``)."""
    from carnage.web.sessions import ApiError

    before, undone = s.game, s.undone
    kept = s.seats
    started = s.saved_version
    s.game = s.rebuild(choices[:last])
    s.undone += len(choices) - last + 1  # the version grows past every undone one
    s.seats = [replace(x, undo_ask=None) for x in s.seats]
    try:
        s.save(started)
    except ApiError:  # stale: another process saved first, memory reloaded from it
        raise
    except Exception as e:  # the database failed: it still holds the game as it was
        s.game, s.undone, s.seats = before, undone, kept
        raise ApiError(503, f"the database refused the save ({type(e).__name__}); "
                            "nothing was undone") from None
    finally:
        s.forget_views()
    return UndoOutcome(s.version, True)


def _asks(s: GameSession, version: int) -> set[int]:
    """The seats that asked to undo ``version``, as the database holds them (another server
    process may have taken the ask)."""
    row = s.store.game(s.id)
    stored = row.seats if row is not None else []
    out = {int(x["seat"]) for x in stored
           if isinstance(x, Mapping) and x.get("undo_ask") == version}
    return out | {x.seat for x in s.seats if x.undo_ask == version}


def _last_human(s: GameSession, choices: list[Any]) -> tuple[int | None, set[int], bool]:
    """The index of the last choice a person gave (a human seat's decision or a dice entry),
    the human seats whose answers an undo to it takes back (an entry counts as the answer of
    the seat whose choice it rolls for; one for a bot's choice, or the set-up's, is nobody's
    own), and whether any dice fell from it on (an entry, or a roll in the log)."""
    game = s.rebuild([])
    marks: list[tuple[int, int | None, bool, int]] = []
    for i, c in enumerate(choices):
        d = game.pending()
        if d is None:
            break
        human = s.controller(d.player) == "human"
        if human or is_entry(d):
            owner = d.player if human and (not is_entry(d) or d.then.get("kind") != "setup") \
                else None
            marks.append((i, owner, is_entry(d), len(game.log.events)))
        game.apply(c)
    if not marks:
        return None, set(), False
    last, _, _, logged = marks[-1]
    owners = {o for (i, o, _, _) in marks if i >= last and o is not None}
    rolled = any(e.kind == "roll" for e in s.game.log.events[logged:])
    return last, owners, rolled or any(entry for (i, _, entry, _) in marks if i >= last)


def physical_setup(ruleset: Any, setup: Any, physical: bool) -> Any:
    """``setup`` played in companion mode when ``physical``: ``SetupRefused`` if the ruleset
    offers none (``Ruleset.physical``). A ruleset whose set-up has a ``physical`` field is
    told through it; otherwise the game is played with the virtual table's exact geometry
    and only the dice (and undo) come from the table."""
    import dataclasses

    from carnage.kernel.session import SetupRefused

    if not physical:
        return setup
    if getattr(ruleset, "physical", None) is False:
        raise SetupRefused(f"{ruleset.title} offers no companion mode (its games are played "
                           "on the virtual table only)")
    if dataclasses.is_dataclass(setup) and not isinstance(setup, type) and any(
            f.name == "physical" for f in dataclasses.fields(setup)):
        return dataclasses.replace(setup, physical=True)
    return setup
