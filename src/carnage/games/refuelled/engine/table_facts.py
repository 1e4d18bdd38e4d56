"""The table's facts: the one seam between the rules and the table they measure.

Wherever the rules need to measure or look at the table (what a move touched, whether it
left the table, which edges met in a Collision, which vehicles a weapon can reach and whether
they are in cover, which vehicles an explosion reaches, whether a racer crossed a line ...)
the engine takes the fact from the game's ``facts`` source, one of two:

- ``ExactTable`` (the default): the engine's own geometry measures the virtual table, as it
  always has. Its ``note`` does nothing; the answers are the geometry's.
- ``PeopleAtTable`` (companion mode, ``physical=True``): the people driving real toy cars with
  cardboard templates measure, and each fact becomes an ordinary pending decision of kind
  ``table:<fact>`` (``table:<fact>:more`` for the next item of a list), answered like any
  other by a person, a bot or a test. The default the book gives (nothing touched, still on the
  table, no cover) is the first option, so a fallback or a quick click takes it.

Everything else (dice, Shifts, Hazards, gear, wipeouts, attacks, damage, explosions, votes,
perks, scoring, the order of play) runs by the book in both modes, through the same flow.

The choice is made when the game is built and kept in its options (``RuleOptions.physical``),
which its config, ``clone()``, ``snapshot()`` and restore carry. ``RecordingTable`` is the exact
table noting every fact it gave the rules, in the order companion mode would ask for them: the
test of the seam replays a game in companion mode answering each question from that record.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from carnage.kernel.assist import TABLE_FACT
from carnage.kernel.decisions import Decision, Option

if TYPE_CHECKING:
    from carnage.games.refuelled.engine.game import Game

FactValue = bool | str | list[str]
"""A fact as the rules take it: yes or no, one pick, or an ordered list of ids."""
Facts = Generator[Decision, Any, Any]

PREFIX = TABLE_FACT
"""Kind prefix of every table question (``table:touched``, ``table:touched:more``): the
kernel's, so the table's assists know never to answer one for the people."""
MORE = ":more"
NOTHING = "none"
YES, NO = "yes", "no"
SOURCE = "table"

EDGES = ("front", "side", "rear")
"""The edges a Collision names on a vehicle (p.53)."""


class TableFacts(Protocol):
    """Where the rules' facts about the table come from (see the module docstring)."""

    name: str
    people: bool
    """True: every fact is asked as a decision (companion mode)."""
    recording: bool
    """True: the exact table notes each fact it gives (``RecordingTable``)."""

    def note(self, kind: str, answer: FactValue) -> None:
        """The exact table gave the rules ``answer`` for the fact ``kind``."""
        ...


class ExactTable:
    """The engine's geometry measures the virtual table (the default). It holds nothing (no
    instance attributes at all), so every game and its clones share one."""

    __slots__ = ()
    name = "exact"
    people = False
    recording = False

    def note(self, kind: str, answer: FactValue) -> None:
        return None


class RecordingTable(ExactTable):
    """The exact table, keeping every fact it gave the rules, in order (for replays in
    companion mode and for the tests)."""

    name = "exact"
    recording = True

    def __init__(self) -> None:
        self.facts: list[tuple[str, FactValue]] = []

    def note(self, kind: str, answer: FactValue) -> None:
        self.facts.append((kind, list(answer) if isinstance(answer, list) else answer))


class PeopleAtTable:
    """The people at a real table measure; each fact is a pending decision. It holds
    nothing (the answers are the game's choices), so every game and its clones share one."""

    __slots__ = ()
    name = "people"
    people = True
    recording = False

    def note(self, kind: str, answer: FactValue) -> None:
        return None


EXACT = ExactTable()
PEOPLE = PeopleAtTable()


def facts_source(physical: bool) -> TableFacts:
    """The shared source for a game: people at a real table, or the exact virtual one."""
    return PEOPLE if physical else EXACT


def is_table_question(d: Decision) -> bool:
    return d.kind.startswith(PREFIX)


def fact_name(d: Decision) -> str:
    """``table:touched:more`` -> ``touched``."""
    name = d.kind[len(PREFIX):]
    return name[: -len(MORE)] if name.endswith(MORE) else name


def first_step(d: Decision) -> bool:
    """Whether ``d`` opens a fact (not the next item of a list already begun)."""
    return is_table_question(d) and not d.kind.endswith(MORE)


def _decision(player: int, kind: str, prompt: str, options: Sequence[tuple[str, str]],
              page: int | None, vehicle: str | None, target: str | None = None,
              weapon: str | None = None) -> Decision:
    return Decision(player, PREFIX + kind, prompt,
                    options=tuple(Option(v, lbl) for v, lbl in options), source=SOURCE,
                    page=page, vehicle=vehicle, target=target, weapon=weapon)


def told(g: Game, kind: str, page: int | None, vehicle: str | None, answer: FactValue,
         **data: Any) -> None:
    """The fact the people gave, in the log (companion mode only), with its rule's page."""
    g.emit("table_fact", source=SOURCE, page=page, vehicle=vehicle, fact=kind,
           answer=list(answer) if isinstance(answer, list) else answer, **data)


def ask_yes_no(g: Game, player: int, kind: str, prompt: str, *, page: int | None,
               vehicle: str | None, default: bool = False, target: str | None = None,
               weapon: str | None = None) -> Generator[Decision, Any, bool]:
    """A yes-or-no fact; the book's ``default`` is offered first."""
    opts = [(YES, "yes"), (NO, "no")]
    if not default:
        opts.reverse()
    pick = yield _decision(player, kind, prompt, opts, page, vehicle, target, weapon)
    answer = bool(pick == YES)
    told(g, kind, page, vehicle, answer, **({"target": target} if target else {}),
         **({"weapon": weapon} if weapon else {}))
    return answer


def ask_pick(g: Game, player: int, kind: str, prompt: str,
             options: Sequence[tuple[str, str]], *, page: int | None, vehicle: str | None,
             target: str | None = None) -> Generator[Decision, Any, str]:
    """One of ``options`` (the first is the default)."""
    pick = yield _decision(player, kind, prompt, options, page, vehicle, target)
    told(g, kind, page, vehicle, str(pick), **({"target": target} if target else {}))
    return str(pick)


def _so_far(out: Sequence[str], named: dict[str, str]) -> str:
    """The items of a list named so far, by their labels (words, not ids)."""
    return ", ".join(named.get(o, o) for o in out)


def ask_list(g: Game, player: int, kind: str, prompt: str,
             candidates: Sequence[tuple[str, str]], *, page: int | None,
             vehicle: str | None, weapon: str | None = None,
             exclusive: Sequence[Sequence[str]] = ()) -> Generator[Decision, Any, list[str]]:
    """An ordered list of ids out of ``candidates``, one decision per item, "nothing (more)"
    first. ``exclusive``: groups of which at most one may be picked (the range bands of one
    target). Never asked when there is no candidate (the answer is then empty)."""
    out: list[str] = []
    left = list(candidates)
    named = dict(candidates)
    while left:
        more = bool(out)
        opts = [(NOTHING, "nothing more" if more else "nothing"), *left]
        shown = prompt if not more else f"{prompt} (after {_so_far(out, named)})"
        pick = str((yield _decision(player, kind + (MORE if more else ""), shown, opts, page,
                                    vehicle, weapon=weapon)))
        if pick == NOTHING:
            break
        out.append(pick)
        gone = {pick}
        for group in exclusive:
            if pick in group:
                gone.update(group)
        left = [c for c in left if c[0] not in gone]
    told(g, kind, page, vehicle, out, **({"weapon": weapon} if weapon else {}))
    return out


def ask_list_acting(g: Game, player: int, kind: str, prompt: str,
                    candidates: Callable[[], Sequence[tuple[str, str]]],
                    act: Callable[[str], None], *, page: int | None,
                    vehicle: str | None) -> Generator[Decision, Any, list[str]]:
    """An ordered list, as ``ask_list``, whose items the rules act on one by one as they are
    named (``act``), the candidates for the next item taken afresh (``candidates``) after
    each: a token picked up may end the game or change what else may be picked up. Never
    asked when there is no candidate; the fact is logged once, as the list it became."""
    out: list[str] = []
    named: dict[str, str] = {}
    while left := list(candidates()):
        named.update(left)
        more = bool(out)
        opts = [(NOTHING, "nothing more" if more else "nothing"), *left]
        shown = prompt if not more else f"{prompt} (after {_so_far(out, named)})"
        pick = str((yield _decision(player, kind + (MORE if more else ""), shown, opts, page,
                                    vehicle)))
        if pick == NOTHING:
            break
        out.append(pick)
        act(pick)
    else:
        if not out:
            return out  # nothing to name: nothing asked
    told(g, kind, page, vehicle, out)
    return out


def orientation_of(edge_a: str, edge_b: str) -> str:
    """The Collision's orientation from the edges that met (p.53): both fronts head-on, any
    side a T-bone, otherwise a tailgate (the engine's geometry classifies the same way)."""
    if edge_a == "front" and edge_b == "front":
        return "head_on"
    if "side" in (edge_a, edge_b):
        return "t_bone"
    return "tailgate"


def answers_for(d: Decision, answer: FactValue) -> list[str]:
    """The choices that give ``answer`` to the table question ``d`` opens, step by step (a
    list's items then "nothing more"; a yes or no; a pick)."""
    if isinstance(answer, bool):
        return [YES if answer else NO]
    if isinstance(answer, list):
        return [*answer, NOTHING]
    return [answer]


class FactReplayer:
    """Answers table questions from a record of the exact table's facts (``RecordingTable``),
    in order; ``AssertionError`` naming both if a question does not match the next fact."""

    def __init__(self, facts: Sequence[tuple[str, FactValue]]) -> None:
        self.facts = list(facts)
        self.used = 0
        self._steps: list[str] = []

    def choose(self, d: Decision) -> str:
        if first_step(d):
            if self.used >= len(self.facts):
                raise AssertionError(f"asked {d.kind} ({d.prompt}) past the end of the record")
            kind, answer = self.facts[self.used]
            self.used += 1
            if kind != fact_name(d):
                raise AssertionError(f"asked {d.kind} ({d.prompt}); the record has {kind}: "
                                     f"{answer!r} (fact {self.used})")
            self._steps = answers_for(d, answer)
        if not self._steps:
            raise AssertionError(f"asked {d.kind} ({d.prompt}) with no answer left")
        return self._steps.pop(0)


# -- Weapons, upgrades and perks that measure (rulings CP-15..CP-19) ---------------------------
# Each asks at a real table, and on the exact table measures (noting the answer for a
# recording table) at the same moment and only when a real table would ask: when there is
# something that might be reached. The exact table's answers are the geometry's, unchanged.


def reached(g: Game, player: int, kind: str, prompt: str,
            candidates: Sequence[tuple[str, str]], exact: Callable[[], Sequence[str]], *,
            page: int | None, vehicle: str | None) -> Generator[Decision, Any, list[str]]:
    """Which of ``candidates`` (id, label) a rule reaches, in order: named by the people at a
    real table (``ask_list``: "nothing" first, the book's default), measured by ``exact()`` on
    the exact table. Nothing is asked or noted when there is no candidate."""
    if g.facts.people:
        got = yield from ask_list(g, player, kind, prompt, candidates, page=page,
                                  vehicle=vehicle)
        return got
    out = list(exact())
    if g.facts.recording and candidates:
        g.facts.note(kind, list(out))
    return out


def judged(g: Game, player: int, kind: str, prompt: str, exact: Callable[[], bool], *,
           page: int | None, vehicle: str | None, default: bool = False,
           target: str | None = None) -> Generator[Decision, Any, bool]:
    """A yes-or-no fact a rule needs: asked at a real table (the book's ``default`` first),
    measured by ``exact()`` on the exact table (and noted for a recording table)."""
    if g.facts.people:
        got = yield from ask_yes_no(g, player, kind, prompt, page=page, vehicle=vehicle,
                                    default=default, target=target)
        return got
    out = bool(exact())
    g.facts.note(kind, out)
    return out


def picked(g: Game, player: int, kind: str, prompt: str, options: Sequence[tuple[str, str]],
           exact: Callable[[], str], *, page: int | None, vehicle: str | None,
           target: str | None = None) -> Generator[Decision, Any, str]:
    """One of ``options`` (the book's default first): picked by the people at a real table,
    measured by ``exact()`` on the exact table (and noted for a recording table)."""
    if g.facts.people:
        got = yield from ask_pick(g, player, kind, prompt, options, page=page,
                                  vehicle=vehicle, target=target)
        return got
    out = str(exact())
    g.facts.note(kind, out)
    return out
