"""Types are a contract: ``mypy --strict notation cli`` finds nothing (one run: the
command line imports the library, so a second run would check the library again).

Run by ``make test`` (not ``make check``: a cold mypy takes a while).
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import HANG_BREAKER, ROOT

pytestmark = pytest.mark.slow


def test_mypy_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "notation", "cli"],
                            cwd=ROOT,
                            capture_output=True, text=True, timeout=HANG_BREAKER)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert result.stdout.startswith("Success: no issues found")
