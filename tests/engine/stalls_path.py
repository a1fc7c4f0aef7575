"""The suite's hang breaker (tests/lsp/stalls.py), for the engine's tests."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "lsp"))

from stalls import Stalled, answered, finished  # noqa: E402

__all__ = ["Stalled", "answered", "finished"]
