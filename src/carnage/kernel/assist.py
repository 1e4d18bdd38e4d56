"""Fewer clicks at the table: which questions the server answers by itself, and the
shortcuts a seat may take in one action (``TableOffer.assist``).

The engine asks every question the rules raise; the table need not put each one to a person.
A question with one legal answer is answered at once (``lone_answer``). An optional prompt
("fire the Nitro Booster?") is put to the seat according to its preference: each time, only
when it matters (a sensible player would take it now), or never (the sensible answer is
given for it). A shortcut is a short sequence of answers the seat sends in one action
(``Step``: the kind of decision each answers, so a sequence never answers a question it did
not mean to). Every answer, automatic or not, is an ordinary choice of the game: the stored
choices replay it exactly. Nothing here names a rule of any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from carnage.kernel.decisions import Decision
from carnage.kernel.table_dice import is_entry

TABLE_FACT = "table:"
"""The kind prefix of a question only the people at a real table can answer (a ruleset's
companion mode asks ``table:<fact>``: what a move touched, who is in arc...)."""


def asks_the_table(d: Decision) -> bool:
    """``d`` asks what only the people at a real table see: a fact of the table, or the faces
    of dice rolled there. The table never answers it for them (neither by a preference nor by
    a bot's advice: a bot cannot see the real table)."""
    return d.kind.startswith(TABLE_FACT) or is_entry(d)

Preference = Literal["ask", "matters", "never"]
"""How a seat wants an optional prompt: asked each time, asked only when it matters (the
sensible answer would take it), or never asked (the sensible answer given for it)."""
PREFERENCES: tuple[Preference, ...] = ("ask", "matters", "never")
DEFAULT_PREFERENCE: Preference = "matters"
"""A seat that said nothing is asked an optional prompt only when it matters."""
PREFERENCE_WORDS: dict[Preference, str] = {
    "ask": "ask me each time", "matters": "only when it matters", "never": "never ask me"}


@dataclass(frozen=True)
class OptionalPrompt:
    """An optional yes/no question of a ruleset: the preference it follows (``key``, shared
    by every question of the same rule), its name in words, and the answer given when the
    seat is not asked (``usual``: "no" for a Nitro Booster, "done" for Audience Votes)."""

    key: str
    label: str
    usual: str | int


@dataclass(frozen=True)
class Step:
    """One answer of a shortcut: the kind of decision it answers and the choice."""

    kind: str
    choice: str | int | float


@dataclass(frozen=True)
class Shortcut:
    """Answers sent in one action: ``choice`` for the pending decision, then each of
    ``then`` for the decisions of the same seat that follow. ``intent`` names what it does
    for the table ("keep", "fire_at" ...)."""

    label: str
    choice: str | int | float
    then: tuple[Step, ...] = ()
    intent: str = ""


@dataclass(frozen=True)
class FollowUp:
    """The next question of the same seat that the table may answer in the same action as
    the pending one (the skid dice beside the templates): its kind and its options."""

    kind: str
    options: tuple[str | int, ...]
    prompt: str = ""


class TableAssist(Protocol):
    """What a ruleset tells the table about its questions."""

    def optional(self, game: Any, d: Decision) -> OptionalPrompt | None:
        """``d`` as an optional prompt, or None if it is not one."""
        ...

    def sensible(self, game: Any, d: Decision) -> Any:
        """The answer a sensible player gives to ``d`` now (deterministic for a game and its
        choices: the same game gets the same answer)."""
        ...

    def shortcuts(self, game: Any, d: Decision) -> Sequence[Shortcut]:
        """Shortcuts offered with ``d`` (none: answer it as it is)."""
        ...

    def follow_up(self, game: Any, d: Decision) -> FollowUp | None:
        """The question that follows ``d`` for the same seat whatever ``d``'s answer, when
        the table may ask both at once (None: none)."""
        ...

    def expand(self, game: Any, d: Decision, choice: Any, first: bool) -> Any:
        """A shortcut's choice that stands for several answers (``"*>target"``: every weapon
        at that target): the next engine answer it stands for at ``d`` (``first``: the
        first), or None when it stands for nothing more (or is an ordinary answer)."""
        ...


def lone_answer(d: Decision) -> Any:
    """The only legal answer of ``d``, or None when there is a real choice (or a domain),
    or when ``d`` asks the people to confirm a step they take by hand (``Decision.confirm``)."""
    if d.domain is not None or len(d.options) != 1 or d.confirm:
        return None
    return d.options[0].value


SAME_OUTCOME_LIMIT = 4
"""Decisions with at most this many options are tried each way to see if the answer matters."""


def same_outcome(game: Any, d: Decision) -> Any:
    """The first option of ``d`` when every option leads to the same game (the same state,
    the same events after the answer, the same next question): the answer cannot matter.
    Tried on copies of the game; None when it may matter (or ``d`` has a domain, one option,
    or more than ``SAME_OUTCOME_LIMIT``)."""
    from carnage.kernel.codec import encode

    if d.domain is not None or not 2 <= len(d.options) <= SAME_OUTCOME_LIMIT:
        return None
    seen: Any = None
    first: Any = None
    state: Any = None
    for o in d.options:
        trial = game.clone()
        start = len(trial.log.events) + 1  # after the answer's own ``decision`` event
        try:
            trial.apply(o.value)
        except ValueError:  # an answer refused (``IllegalChoice``) is no same outcome
            return None
        nd = trial.pending()
        # what was told and asked next, compared first: the whole state is encoded only when
        # they agree (answers that matter usually tell apart at once)
        told = ([(e.kind, e.data) for e in trial.log.events[start:]],
                None if nd is None else (nd.player, nd.kind, nd.prompt, nd.options, nd.domain))
        if seen is None:
            seen, first = told, trial
            continue
        if told != seen:
            return None
        if state is None:
            state = encode(first.state)
        if encode(trial.state) != state:
            return None
    return d.options[0].value


def preference_of(prefs: dict[str, str], key: str) -> Preference:
    raw = prefs.get(key, DEFAULT_PREFERENCE)
    return raw if raw in PREFERENCES else DEFAULT_PREFERENCE


def automatic_answer(assist: TableAssist | None, game: Any, d: Decision,
                     prefs: dict[str, str]) -> tuple[Any, str] | None:
    """The answer the table gives to ``d`` without asking, and why; None: ask the seat."""
    lone = lone_answer(d)
    if lone is not None:
        return lone, "the only legal answer"
    if assist is None or d.hidden:  # a secret answer given unasked would tell the table why
        return None
    if asks_the_table(d):
        return None
    same = same_outcome(game, d)
    if same is not None:
        return same, "every answer leads to the same game"
    prompt = assist.optional(game, d)
    if prompt is None:
        return None
    pref = preference_of(prefs, prompt.key)
    if pref == "ask":
        return None
    if pref == "never":
        return prompt.usual, f"{prompt.label}: never asked (the seat's preference)"
    if str(assist.sensible(game, d)) == str(prompt.usual):
        return prompt.usual, f"{prompt.label}: asked only when it matters"
    return None
