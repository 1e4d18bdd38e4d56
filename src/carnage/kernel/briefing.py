"""What a scenario tells the players about itself, and how it keeps score, as plain data any
table, lobby or terminal shows without knowing the scenario.

A ``ScenarioBrief`` is the scenario in our own words: how it is won, its special rules, each
citing where the book has it (``Cite``: ``Refuelled p.125``; a book without page numbers by
its section or the seed text's lines), and, for a ruleset that plays another's scenarios with
changes (the Kart variant, a Legacy chapter), what differs there. A ``Scoreboard`` is the
game's progress in the scenario's own terms (gates passed, flags held, Victory Points), one
row per seat; whoever shows it names the seats (a team's name, else its colour).

Never the rulebooks' prose: every text here is written for the project.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Cite:
    """Where a rule is written: ``book`` and a page (``page``, up to ``last``), or, in a book
    without page numbers, a section name or the seed text's lines (``where``)."""

    book: str
    page: int | None = None
    last: int | None = None
    where: str = ""

    def __post_init__(self) -> None:
        if self.page is None and not self.where:
            raise ValueError(f"a citation of {self.book} needs a page or a section")
        if self.last is not None and (self.page is None or self.last < self.page):
            raise ValueError(f"a citation of {self.book}: pages {self.page}-{self.last}")

    @property
    def text(self) -> str:
        """``Refuelled p.125``, ``Refuelled pp.124-128``, ``Kart variant, Collisions``."""
        if self.page is None:
            return f"{self.book}, {self.where}"
        if self.last is not None and self.last != self.page:
            return f"{self.book} pp.{self.page}-{self.last}"
        return f"{self.book} p.{self.page}"

    def to_json(self) -> dict[str, Any]:
        return {"book": self.book, "page": self.page, "last": self.last, "where": self.where,
                "text": self.text}


def refuelled(page: int, last: int | None = None) -> Cite:
    """A page (or pages) of Gaslands: Refuelled."""
    return Cite("Refuelled", page, last)


@dataclass(frozen=True)
class BriefRule:
    """A special rule in a sentence or two of our own, with where the book has it."""

    name: str
    text: str
    cite: Cite

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "text": self.text, "cite": self.cite.to_json()}


@dataclass(frozen=True)
class ScenarioBrief:
    """A scenario described from its own data: what it is, how it is won, its special rules;
    ``variant`` and ``differs``: the ruleset's changes to it (empty: none)."""

    id: str
    name: str
    summary: str
    goal: str
    """How the game is won (and when it ends), in our words."""
    cite: Cite
    """The scenario's own pages."""
    rules: tuple[BriefRule, ...] = ()
    variant: str = ""
    """The ruleset that changes the scenario ("Kart variant"), or ""."""
    differs: tuple[BriefRule, ...] = ()
    """What differs in ``variant`` (its own rules)."""

    @property
    def told(self) -> bool:
        """It says what the scenario is and how it is won (a scenario written for a test may
        say neither; every scenario a ruleset ships does: tests/web/test_api_briefs.py)."""
        return bool(self.summary.strip() and self.goal.strip())

    def __post_init__(self) -> None:
        if self.differs and not self.variant:
            raise ValueError(f"the brief of {self.name}: whose are the differences?")

    def with_variant(self, variant: str, differs: tuple[BriefRule, ...], *,
                     summary: str | None = None) -> ScenarioBrief:
        """This brief played in ``variant`` with its own rules ``differs`` added."""
        return replace(self, variant=variant, differs=self.differs + differs,
                       summary=self.summary if summary is None else summary)

    def cites(self) -> tuple[Cite, ...]:
        return (self.cite, *(r.cite for r in self.rules), *(r.cite for r in self.differs))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "summary": self.summary, "goal": self.goal,
                "cite": self.cite.to_json(), "rules": [r.to_json() for r in self.rules],
                "variant": self.variant, "differs": [r.to_json() for r in self.differs]}


@dataclass(frozen=True)
class SeatScore:
    """One seat's progress: ``score`` in words ("gate 3 of 5", "2 VP"), ``rank`` to order by
    (higher is ahead), ``details`` (a vehicle's own progress) and whether it still plays."""

    seat: int
    score: str
    rank: float = 0.0
    details: tuple[str, ...] = ()
    out: bool = False
    """No vehicle of the seat in play (and none coming back)."""


@dataclass(frozen=True)
class Scoreboard:
    """The game's progress in the scenario's terms: ``title`` names what is counted ("Gates
    passed"), ``target`` how much wins ("first across the Finish Line"), one row per seat."""

    title: str
    seats: tuple[SeatScore, ...]
    target: str = ""
    ordered: bool = True
    """Rows are shown best first (False: in seat order)."""

    def to_json(self, names: Mapping[int, str], teams: Mapping[int, str] | None = None,
                winner: int | None = None) -> dict[str, Any]:
        """The board with each seat named: ``names`` (a team's name, else the seat's colour);
        ``teams``: the name of the team each seat brought, if any."""
        rows = sorted(self.seats, key=lambda s: (-s.rank, s.seat)) if self.ordered \
            else list(self.seats)
        best = max((s.rank for s in self.seats), default=0.0)
        contest = len({s.rank for s in self.seats}) > 1
        return {"title": self.title, "target": self.target, "rows": [
            {"seat": s.seat, "name": names.get(s.seat, ""),
             "team": (teams or {}).get(s.seat, ""), "score": s.score,
             "details": list(s.details), "out": s.out,
             "leading": (s.seat == winner) if winner is not None
             else (self.ordered and contest and s.rank == best),
             } for s in rows]}

