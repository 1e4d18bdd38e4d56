"""Devil's Run missions described from their data, in our own words (``kernel/briefing.py``):
how each is won, its special rules cited by the book's own headings (the beta rulebook prints
no page numbers; a player finds a rule by its heading, never by a line of our seed text), and a
scoreboard in the mission's terms with the gangs' names."""

from __future__ import annotations

from carnage.games.devilsrun import board as B
from carnage.games.devilsrun.data import gangs, missions
from carnage.games.devilsrun.game import DevilsRunGame
from carnage.games.devilsrun.state import RESERVE, RUNNING
from carnage.kernel.briefing import BriefRule, Cite, ScenarioBrief, Scoreboard, SeatScore

BOOK = "Devil's Run"


def _section(heading: str) -> Cite:
    """The book's section under ``heading`` ("Mission 1, Identifying the Stash")."""
    return Cite(BOOK, where=heading)


GOALS = {
    "devils-run": "Reach the stash when it turns up on the road ahead, pick it up and carry it "
                  "onto a fresh tile to win; a gang that leaves its rival with no active "
                  "vehicle wins at once. Seven turns without a winner is a draw.",
    "hell-on-wheels": "At the end of a turn, a gang whose rival has no active vehicle wins (both "
                      "out: a draw). From turn 6 a D10 may break the fight off; then the gang "
                      "that collected more chassis tokens wins.",
}
"""How each mission is won, in our words (seed lines 245 and 266)."""

RULES = {
    "devils-run": (
        BriefRule("The stash", "From turn 2 a D10 may bring the stash onto the centre of the "
                  "front tile, more likely each turn; from turn 6 it arrives for sure.",
                  _section("Mission 1, Identifying the Stash")),
        BriefRule("Grab it", "A vehicle next to the stash spends an action point and makes an "
                  "Evade test, 2 easier, to pick it up; failing, it has missed its chance.",
                  _section("Mission 1, Special Action")),
        BriefRule("Rolling road", "When a vehicle drives off the front tile, the back tile is "
                  "moved round to the front: a fresh tile.", _section("The Board")),
    ),
    "hell-on-wheels": (
        BriefRule("Collecting chassis", "Chassis points an enemy's attack knocks off a vehicle "
                  "are collected by the attacking gang instead of discarded.",
                  _section("Mission 2, Collecting Chassis Points")),
        BriefRule("Disengage", "From the end of turn 6 a D10 roll may end the game, more likely "
                  "each turn, and surely at the end of turn 10.",
                  _section("Mission 2, Game Length")),
    ),
}
"""Each mission's special rules, in our words."""

SCORE = {"devils-run": ("The stash", "carry it onto a fresh tile"),
         "hell-on-wheels": ("Chassis tokens collected", "most when the fight breaks off")}


def mission_brief(scenario: str) -> ScenarioBrief:
    """The mission ``scenario`` described (``ValueError`` naming the missions if unknown)."""
    found = missions().get(scenario)
    if found is None:
        raise ValueError(f"unknown Devil's Run mission {scenario!r} "
                         f"(missions: {', '.join(missions())})")
    return ScenarioBrief(found.key, found.name, found.description, GOALS[found.key],
                         _section(found.name), rules=RULES[found.key])


def seat_names(game: DevilsRunGame) -> dict[int, str]:
    """Each seat by its gang's name ("The Law")."""
    return {p: gangs()[g].name for p, g in enumerate(game.state.gangs)}


def scoreboard(game: DevilsRunGame) -> Scoreboard:
    """Each gang's progress in the mission's terms: the stash (who carries it, where it is)
    or the chassis tokens collected, and its active vehicles."""
    st = game.state
    title, target = SCORE.get(st.mission, ("Active vehicles", ""))
    rows = []
    for p in range(len(st.gangs)):
        mine = [v for v in st.vehicles.values() if v.player == p]
        active = [v for v in mine if v.status == RUNNING]
        done = not any(v.status in (RUNNING, RESERVE) for v in mine)
        details = (f"{len(active)} of {len(mine)} vehicles active",)
        if st.mission == "hell-on-wheels":
            n = st.collected[p]
            rows.append(SeatScore(p, f"{n} chassis tokens", float(n), details, out=done))
            continue
        carrier = next((v for v in mine if v.carrying), None)
        if carrier is not None:
            text, rank = f"carrying the stash ({B.vtype(carrier).type})", 2.0
        else:
            text = {"waiting": "stash not on the road yet", "placed": "stash on the road",
                    "gone": "stash passed by", "reenter": "stash coming back",
                    "carried": "the rival has the stash"}.get(st.stash.status, "")
            rank = 0.0
        rows.append(SeatScore(p, text, rank, details, out=done))
    return Scoreboard(title, tuple(rows), target)
