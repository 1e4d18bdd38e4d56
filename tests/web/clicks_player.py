"""A human at the web table, counted: plays one seat of a game through the web API as a
person clicks it, and counts the actions (each POST the player makes) per activation of its
vehicles. Answers the server takes by itself (bots, automatic answers) are not counted.

The person's mind is the heuristic bot for its seat: what it would choose is what the person
wants. ``plain`` clicks one answer per decision (every question the server asks, one POST
each). ``shortcuts`` uses the table's shortcuts as a person would: the template with its
skid dice in one click (the dice chosen beside the templates), "keep the dice and spend the
Shifts as suggested", "fire everything at X", whenever the shortcut does what the person
wants; otherwise one answer per decision as before.

Used by ``benchmarks/clicks.py`` and ``tests/web/test_clicks.py``.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field
from typing import Any

from carnage.ai.runner import make_bot_for
from carnage.kernel.assist import automatic_answer

HUMAN = 0


@dataclass
class Counts:
    per_activation: list[int] = field(default_factory=list)
    """Actions of each of the human's activations (votes or a vehicle pick just before an
    activation count for it)."""
    off_turn: int = 0
    """Actions while another seat's vehicle was active (collision reactions, evades ...)."""
    setup: int = 0
    """Actions before the first round (deployment, the starting grid)."""
    picks: int = 0
    """Clicks that send nothing: a vehicle picked to see its templates, another number of
    skid dice chosen beside the templates."""
    decisions: int = 0
    """Decisions of the human seat the server resolved, answered or not."""
    finished: bool = False
    kinds: dict[str, int] = field(default_factory=dict)
    """Actions by the kind of decision they answered."""

    def summary(self) -> dict[str, float]:
        acts = sorted(self.per_activation) or [0]
        p90 = acts[min(len(acts) - 1, round(0.9 * (len(acts) - 1)))]
        return {"activations": len(self.per_activation), "median": statistics.median(acts),
                "p90": p90, "max": acts[-1], "mean": round(statistics.fmean(acts), 2),
                "off_turn": self.off_turn, "setup": self.setup, "picks": self.picks}


def _activations_of(game: Any, seat: int) -> int:
    st = game.state
    return sum(1 for e in game.log.events if e.kind == "activation"
               and e.data.get("player") == seat and not e.data.get("free")
               and e.data.get("vehicle") in st.vehicles)


def _bucket(game: Any, seat: int) -> str:
    st = game.state
    if st.flow.stage == "setup":
        return "setup"
    active = st.active
    if active is None:
        return "next"
    v = st.vehicles.get(active)
    return "this" if v is not None and v.player == seat else "off"


class Player:
    """Plays seat ``HUMAN`` of game ``gid`` through ``client`` (a FastAPI ``TestClient``)."""

    def __init__(self, client: Any, gid: str, token: str, mode: str, seed: int = 0) -> None:
        self.client, self.gid, self.token, self.mode = client, gid, token, mode
        self.session = client.app.state.games.get(gid)
        self.mind = make_bot_for(self.session.ruleset, "heuristic")
        self.rng = random.Random(f"human:{seed}")
        self.counts = Counts()
        self._acts: dict[int, int] = {}
        self.last_dice: Any = None

    # -- what the person wants -------------------------------------------------------------------
    def wants(self, game: Any) -> Any:
        d = game.pending()
        return self.mind.choose(game, d, self.rng)

    def _sequence(self, view: dict[str, Any]) -> dict[str, Any]:
        """The POST body the person sends for the pending decision."""
        game = self.session.game
        d = game.pending()
        want = self.wants(game)
        body: dict[str, Any] = {"token": self.token, "version": view["version"],
                                "choice": want}
        if self.mode != "shortcuts":
            return body
        pending = view["pending"]
        shortcuts = pending.get("shortcuts") or []
        if d.kind == "activate" and len(d.options) > 1:
            # The first vehicle's templates are shown, another's once it is clicked on the
            # table (a preview, nothing sent); its template and skid dice go with it in one
            # click.
            r = self.client.get(f"/api/games/{self.gid}/preview", params={
                "token": self.token, "version": view["version"], "choice": str(want)})
            if r.status_code == 200 and (r.json()["pending"] or {}).get("kind") == "template":
                if str(want) != str(d.options[0].value):  # the first vehicle's are shown
                    self.counts.picks += 1
                trial = game.clone()
                trial.apply(want)
                self._answer_table(trial)
                body["then"] = self._template_and_dice(trial, r.json()["pending"])
            return body
        if d.kind == "template":
            then = self._template_and_dice(game.clone(), pending)
            return {**body, "choice": then[0]["choice"], "then": then[1:]}
        for sc in shortcuts:
            if self._does_what_i_want(game, sc):
                return {"token": self.token, "version": view["version"],
                        "choice": sc["choice"], "then": sc["then"]}
        return body

    def _template_and_dice(self, trial: Any, pending: dict[str, Any]) -> list[dict[str, Any]]:
        """The template the person wants, and its skid dice chosen beside the templates (a
        click that sends nothing when they are not the number shown)."""
        want = self.wants(trial)
        steps: list[dict[str, Any]] = [{"kind": "template", "choice": want}]
        follow = pending.get("follow_up")
        trial.apply(want)
        self._answer_table(trial)
        nd = trial.pending()
        if follow and nd is not None and nd.kind == "skid_dice" and nd.player == HUMAN:
            n = self.wants(trial)
            # The table shows the number chosen last time first (at first: every die).
            shown = self.last_dice if self.last_dice in follow["options"] else \
                follow["options"][-1]
            if n != shown:
                self.counts.picks += 1
            self.last_dice = n
            steps.append({"kind": "skid_dice", "choice": n})
        return steps

    def _answer_table(self, game: Any) -> None:
        """What the server answers by itself (bots, the table's automatic answers)."""
        s = self.session
        prefs = s.seats[HUMAN].prefs
        while (d := game.pending()) is not None:
            if d.player in s.bots:
                game.apply(s.bots[d.player].choose(game, d, random.Random(0)))
                continue
            auto = automatic_answer(s.assist, game, d, prefs) if s.assisted else None
            if auto is None:
                return
            game.apply(auto[0])

    def _does_what_i_want(self, game: Any, sc: dict[str, Any]) -> bool:
        """A shortcut is taken when each of its steps is what the person would choose then
        (for "fire everything at X": the person would fire at X at all)."""
        trial = game.clone()
        steps = [{"kind": game.pending().kind, "choice": sc["choice"]}, *sc["then"]]
        for i, step in enumerate(steps):
            d = trial.pending()
            if d is None or d.player != HUMAN or d.kind != step["kind"]:
                return i > 0
            want = self.wants(trial)
            if sc.get("intent") == "fire_at":
                # Fire everything at the target the person would shoot first.
                return i == 0 and str(want).partition(">")[2] == str(step["choice"])[2:]
            if str(want) != str(step["choice"]):
                return False
            trial.apply(step["choice"])
            self._answer_table(trial)
        return True

    # -- playing -----------------------------------------------------------------------------------
    def play(self, limit: int = 4000) -> Counts:
        c = self.client
        view = c.get(f"/api/games/{self.gid}", params={"token": self.token}).json()
        for _ in range(limit):
            if view["status"] == "finished":
                self.counts.finished = True
                break
            game = self.session.game
            where = _bucket(game, HUMAN)
            n = _activations_of(game, HUMAN)
            index = n - 1 if where == "this" else n
            body = self._sequence(view)
            kind = str(view["pending"]["kind"])
            self.counts.kinds[kind] = self.counts.kinds.get(kind, 0) + 1
            r = c.post(f"/api/games/{self.gid}/decisions", json=body)
            assert r.status_code == 200, r.text
            view = r.json()
            if where == "off":
                self.counts.off_turn += 1
            elif where == "setup":
                self.counts.setup += 1
            else:
                self._acts[index] = self._acts.get(index, 0) + 1
        done = _activations_of(self.session.game, HUMAN)
        self.counts.per_activation = [self._acts.get(i, 0) for i in range(done)]
        return self.counts


def new_street_race(client: Any, seed: int) -> tuple[str, str]:
    r = client.post("/api/games", json={"scenario": "street-race", "seed": seed, "seats": [
        {"controller": "human"}, {"controller": "heuristic"}]})
    assert r.status_code == 201, r.text
    g = r.json()
    return str(g["id"]), str(g["seats"][HUMAN]["token"])
