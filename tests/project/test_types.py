"""Types are a contract: ``mypy --strict notation`` and ``mypy cli`` find nothing.

Run by ``make test`` (not ``make check``: a cold mypy takes a while).
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import HANG_BREAKER, ROOT

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("args", [["--strict", "notation"], ["cli"]], ids=["notation", "cli"])
def test_mypy_finds_nothing(args):
    result = subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT,
                            capture_output=True, text=True, timeout=HANG_BREAKER)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert result.stdout.startswith("Success: no issues found")
