"""Settings for the whole test suite."""

from __future__ import annotations

import os

from carnage.kernel.hooks import check_contexts

# Every hook run in the tests checks its context against the hook's declaration (fields passed
# but not declared, required fields missing); subprocesses (CLI, workers) inherit the switch.
os.environ["CARNAGE_CHECK_HOOKS"] = "1"
check_contexts(True)
