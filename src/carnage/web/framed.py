"""The table's defaults for a ruleset that does not draw its own tabletop (``TableOffer.view``,
as Devil's Run): its partial view framed with the fields every view has, its log told with
its own sentences (``event_text``, ``rule_text``, ``quiet``), its choices named by their option
values, and a set-up that is only ``{"ruleset", "scenario", "seed"}`` played with the ruleset's
own teams (``Ruleset.new_game``). Everything comes from the ``Ruleset``; nothing here names a
game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from carnage.kernel.decisions import Decision
from carnage.kernel.events import Event
from carnage.kernel.ruleset import Ruleset
from carnage.kernel.session import SetupRefused
from carnage.kernel.table import TableContext, TableRequest, TableSetup
from carnage.render.svg import seat_name
from carnage.render.table_schemas import LogLine

LOG_LINES = 200
"""Log lines a framed view carries (the newest)."""


class FramedTable:
    """A ruleset's own partial view (``TableOffer.view``) as the table shows it: the
    ``kernel/table.py`` ``Tabletop`` of every ruleset that draws none of its own."""

    def __init__(self, ruleset: Ruleset) -> None:
        if ruleset.table.view is None:
            raise ValueError(f"{ruleset.title} offers the table no view")
        self.ruleset = ruleset
        self.offer = ruleset.table

    def _text(self, game: Any, e: Event) -> str:
        return self.offer.event_text(game, e) if self.offer.event_text is not None else e.kind

    def _why(self, source: str) -> str:
        return self.offer.rule_text(source) if self.offer.rule_text is not None else source

    def _rule(self, source: str) -> str:
        return self.offer.rule_name(source) if self.offer.rule_name is not None else source

    def view(self, game: Any, ctx: TableContext) -> dict[str, Any]:
        seats = [] if ctx.replay is not None or ctx.events is not None else list(ctx.viewers)
        assert self.offer.view is not None
        v = self.offer.view(game, seats)
        d = game.pending()
        your = d.player if d is not None and d.player in seats else (seats[0] if seats else None)
        names = self.offer.seat_names
        over = game.outcome() is not None
        shown = [e for e in _redacted(game.log.events, seats) if e.kind not in self.offer.quiet]
        v.update({
            "id": ctx.gid,
            "ruleset": self.ruleset.name,
            "board_view": self.offer.board_view,
            "version": len(game.choices),
            "status": "finished" if over else "in_progress",
            "seats": [{"seat": s.seat, "controller": s.controller,
                       "name": names[s.seat] if s.seat < len(names) else seat_name(s.seat)}
                      for s in ctx.seats],
            "your_seat": your,
            "your_turn": d is not None and d.player in seats,
            "seed": ctx.seed if over or ctx.seed_chosen else None,
            "log": [{"seq": e.seq, "kind": e.kind, "text": self._text(game, e),
                     "rule": self._rule(e.source), "source": e.source,
                     "why": self._why(e.source)}
                    for e in shown[-LOG_LINES:]],
        })
        if ctx.replay is not None:
            v["replay"] = {"step": ctx.replay[0], "steps": ctx.replay[1]}
        return v

    def log_lines(self, game: Any, events: Sequence[Event],
                  cache: dict[int, Any]) -> list[LogLine]:
        return [LogLine(seq=e.seq, kind=e.kind, source=e.source, page=e.page,
                        text=self._text(game, e),
                        rule=self._rule(e.source) if self.offer.rule_name is not None
                        else self._why(e.source))
                for e in events if e.kind not in self.offer.quiet]

    def accept(self, d: Decision, choice: Any) -> Any:
        from carnage.web.sessions import option_named

        return option_named(d, choice)

    def refused(self, game: Any, d: Decision, choice: Any, reason: str) -> str:
        return reason

    def seat_label(self, seat: int) -> str:
        return f"seat {seat}"

    def board_svg(self, game: Any, title: str) -> str:
        from carnage.web.sessions import ApiError

        if self.offer.board_svg is None:
            raise ApiError(404, f"{self.ruleset.title} has no SVG drawing of its table")
        return self.offer.board_svg(game)


def _redacted(events: Sequence[Event], viewers: Sequence[int]) -> list[Event]:
    from carnage.kernel.secrets import redact_all

    return redact_all(events, viewers)


def own_teams_setup(ruleset: Ruleset) -> TableSetup:
    """The set-up of a ruleset that plays its own teams: ``{"ruleset", "scenario", "seed"}``,
    a game made by ``Ruleset.new_game``."""

    def new(req: TableRequest) -> dict[str, Any]:
        offer = ruleset.table
        n, (low, high) = len(req.team_ids), offer.seats
        if not low <= n <= high:
            wanted = f"{low}" if low == high else f"{low} to {high}"
            raise SetupRefused(f"seats: {ruleset.title} has {wanted} seats, not {n}")
        for i, team_id in enumerate(req.team_ids):
            if team_id is not None and offer.own_teams:
                raise SetupRefused(f"seat {i}: {ruleset.title} plays its own teams "
                                   "(team_id must be null)")
        if req.sides:
            raise SetupRefused(f"sides: {ruleset.title} has no team games")
        sid = req.scenario or first_scenario(ruleset)
        if sid not in ruleset.scenarios:
            known = ", ".join(ruleset.scenarios)
            raise SetupRefused(f"scenario: unknown {ruleset.title} scenario {sid!r} "
                               f"(known: {known})")
        return {"ruleset": ruleset.name, "scenario": sid, "seed": req.seed}

    def read(doc: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(doc.get("scenario"), str):
            raise SetupRefused("setup: no scenario")
        return dict(doc)

    def build(setup: Any, seed: int) -> Any:
        try:
            return ruleset.new_game(scenario=str(setup["scenario"]),
                                    seed=int(setup.get("seed", seed)),
                                    teams=list(setup.get("teams") or ()))
        except (KeyError, TypeError) as e:
            raise SetupRefused(f"the {ruleset.title} game cannot be set up: {e}") from None

    return TableSetup(new=new, from_json=read, to_json=dict, build=build)


def first_scenario(ruleset: Ruleset) -> str:
    """The scenario a new game plays when none is named: the book's first game (Street Race,
    p.62) where the ruleset has it, else the ruleset's first."""
    return "street-race" if "street-race" in ruleset.scenarios else next(iter(ruleset.scenarios))
