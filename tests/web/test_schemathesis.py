"""The web API against its own OpenAPI schema, fuzzed by schemathesis in-process (ASGI):
no answer is a 5xx, and every answer matches the schema the API publishes. Examples per
operation: 20, or ``CARNAGE_FUZZ_EXAMPLES`` for a longer run."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from carnage.web.app import create_app

_DB = Path(tempfile.mkdtemp(prefix="carnage-schemathesis-")) / "carnage.db"
APP = create_app(f"sqlite:///{_DB}")
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
EXAMPLES = int(os.environ.get("CARNAGE_FUZZ_EXAMPLES", "20"))
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
TIMEOUT = 300
"""Seconds an answer may take: a game of bots only (the search bot too) is played to its end
before ``POST /api/games`` answers, which may take longer than the client's default 10 s on a
busy machine. This test checks answers against the schema; speed is the benchmarks' job."""


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS, timeout=TIMEOUT)
