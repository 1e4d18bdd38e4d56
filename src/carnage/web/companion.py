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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from carnage.kernel.table_dice import TableDiceGame, is_entry

if TYPE_CHECKING:
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
    ``skid_dice``)."""

    physical: bool = False
    hot_seat: bool = False
    dice: DiceMode = "screen"
    screen: tuple[str, ...] = ()

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

    def to_json(self) -> dict[str, Any]:
        return {"physical": self.physical, "hot_seat": self.hot_seat, "dice": self.dice,
                "screen": list(self.screen)}

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
                         screen=tuple(screen))


def split_setup(doc: Mapping[str, Any]) -> tuple[dict[str, Any], TableMode]:
    """A stored set-up document without its mode, and the mode."""
    rest = dict(doc)
    return rest, TableMode.from_json(rest.pop(KEY, None))


def undo(s: GameSession, tokens: str, version: int) -> int:
    """Take back the last human answer of ``s`` (and the bots' answers after it): only in a
    companion or hot-seat game, only by the seat that gave it (a dice entry: any seat), on
    the current ``version``; a hot-seat game's undo needs every human seat's token (the one
    device holds them all). Saved through the compare-and-set path; the new version (higher
    than ``version``). ``ApiError`` 403/409 with a sentence."""
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
        last, who = _last_human(s, choices)
        if last is None:
            raise ApiError(409, "nothing to undo: no human answer has been given yet")
        if who is not None and who not in seats:
            raise ApiError(403, f"only {s.seat_label(who)} may take back their own answer")
        before, undone = s.game, s.undone
        started = s.saved_version
        s.game = s.rebuild(choices[:last])
        s.undone += len(choices) - last + 1  # the version grows past every undone one
        try:
            s.save(started)
        except ApiError:  # stale: another process saved first, memory reloaded from it
            raise
        except Exception as e:  # the database failed: it still holds the game as it was
            s.game, s.undone = before, undone
            raise ApiError(503, f"the database refused the save ({type(e).__name__}); "
                                "nothing was undone") from None
        finally:
            s.forget_views()
        out = s.version
    s.notify()
    return out


def _last_human(s: GameSession, choices: list[Any]) -> tuple[int | None, int | None]:
    """The index of the last choice a person gave (a human seat's decision or a dice entry)
    and the seat that had to give it (None: a dice entry for a bot's choice, anyone's)."""
    game = s.rebuild([])
    last: tuple[int | None, int | None] = (None, None)
    for i, c in enumerate(choices):
        d = game.pending()
        if d is None:
            break
        human = s.controller(d.player) == "human"
        if human or is_entry(d):
            last = (i, d.player if human else None)
        game.apply(c)
    return last


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
