"""The tests' hang breaker: it stops a wait on a process that sleeps for ever, and leaves
alone one that works however long it takes."""
from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from stalls import Stalled, answered, finished


def test_a_process_that_sleeps_for_ever_is_stopped() -> None:
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(10**6)"])
    with pytest.raises(Stalled):
        finished(sleeper, "a sleeper", looks=5)
    assert sleeper.returncode is not None


def test_a_process_that_works_is_waited_for() -> None:
    worker = subprocess.Popen([sys.executable, "-c", "sum(range(3 * 10**7))"])
    assert finished(worker, "a worker") == 0


@pytest.mark.asyncio
async def test_a_reply_that_never_comes_from_a_sleeping_server_is_stopped() -> None:
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(10**6)"])
    try:
        with pytest.raises(Stalled):
            await answered(asyncio.Event().wait(), sleeper.pid, looks=5)
    finally:
        sleeper.kill()
        sleeper.wait()


@pytest.mark.asyncio
async def test_a_reply_that_comes_is_given() -> None:
    async def reply() -> str:
        await asyncio.sleep(0.3)
        return "= ok"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(10**6)"])
    try:
        assert await answered(reply(), sleeper.pid) == "= ok"
    finally:
        sleeper.kill()
        sleeper.wait()
