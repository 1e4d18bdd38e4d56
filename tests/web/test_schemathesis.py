"""The web API against its own OpenAPI schema, fuzzed by schemathesis in-process (ASGI):
no answer is a 5xx, every answer matches the schema the API publishes, a request the schema
allows is not refused (its bounds are the checks' bounds), and a method a path does not take
is a 405 whose ``Allow`` lists exactly the path's methods. Examples per operation: 20, or
``CARNAGE_FUZZ_EXAMPLES`` for a longer run."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    content_type_conformance,
    positive_data_acceptance,
    response_schema_conformance,
    unsupported_method,
)

from carnage.web.app import create_app

_DB = Path(tempfile.mkdtemp(prefix="carnage-schemathesis-")) / "carnage.db"
APP = create_app(f"sqlite:///{_DB}")
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
EXAMPLES = int(os.environ.get("CARNAGE_FUZZ_EXAMPLES", "20"))
TIMEOUT = 300.0
"""Seconds an answer may take here: a new game whose seats are all search bots is played at
creation up to its first human decision (on a loaded test machine, well over 10 s)."""
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance,
          unsupported_method, allow_header_conformance]

JUDGED_BY_CONTENT = {
    "POST /api/teams": "a team file: its shape is the team loader's (carnage.team.model), "
                       "published as a JSON object",
    "PUT /api/teams/{tid}": "a team file, as POST /api/teams",
    "POST /api/teams/validate": "a team file, as POST /api/teams",
    "POST /api/teams/import": "team-file text (YAML or JSON) inside a string",
    "POST /api/teams/import/battlescribe": "a roster file's bytes",
    "POST /api/games": "sides that name every seat once, a scenario's own seat count",
    "POST /api/tourney": "saved team ids and team files",
    "POST /api/campaigns": "a mode's own options and team files",
    "POST /api/campaigns/{cid}/seats/{seat}/team": "a team file",
    "GET /api/legacy/vehicle": "a vehicle type by id, alias or book name (the catalogue's "
                               "resolver)",
}
"""Operations whose body carries content only the rules can judge (a team file, a roster,
a campaign's own state): a schema-valid body may still be refused with a 422 naming the
rule. Every other operation must answer every request its schema allows."""


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case: schemathesis.Case) -> None:
    label = f"{case.operation.method.upper()} {case.operation.path}"
    checks = CHECKS if label in JUDGED_BY_CONTENT else [*CHECKS, positive_data_acceptance]
    case.call_and_validate(checks=checks, timeout=TIMEOUT)


def test_every_content_judged_operation_exists() -> None:
    published = {f"{method.upper()} {path}" for path, ops in APP.openapi()["paths"].items()
                 for method in ops}
    assert set(JUDGED_BY_CONTENT) <= published


# -- the stateful phase: a created game's links (read it, its log, answer, delete) ----------------
STATEFUL = int(os.environ.get("CARNAGE_FUZZ_EXAMPLES", "5"))


class GameStates(schema.include(path_regex="^/api/games").as_state_machine()):  # type: ignore[misc]
    """Create a game, then follow the links its answer publishes with its id and first
    seat's token: every answer passes the same checks as above."""

    def before_call(self, case: schemathesis.Case) -> None:
        # A game of search bots only is played through at creation: minutes of search, not
        # what this phase is about (the fuzz phase above creates those).
        if case.operation.path == "/api/games" and isinstance(case.body, dict):
            for seat in case.body.get("seats") or []:
                if isinstance(seat, dict) and str(seat.get("controller", "")).startswith(
                        "search"):
                    seat["controller"] = "random"

    def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
        return {"timeout": TIMEOUT}

    def validate_response(self, response: Any, case: schemathesis.Case,
                          additional_checks: Any = None, **kwargs: Any) -> None:
        label = f"{case.operation.method.upper()} {case.operation.path}"
        checks = CHECKS if label in JUDGED_BY_CONTENT else [*CHECKS, positive_data_acceptance]
        case.validate_response(response, checks=checks)


TestGameStates = GameStates.TestCase
TestGameStates.settings = settings(max_examples=STATEFUL, stateful_step_count=4, deadline=None,
                                   derandomize=True, suppress_health_check=list(HealthCheck))
