"""The reference contract: `notation replay --json` against the reference games.

The shared cross-check script lives beside the repository (as in CI); the same
comparison also runs from the data copied into tests/data, so the suite
checks the contract even on a machine without ../shared.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import HANG_BREAKER, SHARED, notation_exe, reference_games, run_cli


def test_reference_games_from_tests_data(tmp_path):
    refs = reference_games("tilewe")
    texts = []
    for n, ref in enumerate(refs):
        head = f'[Game "tilewe"]\n[Players "{ref["n_players"]}"]\n[Id "{ref["id"]}"]\n\n'
        words = [f"{i + 1}. {m}" if n % 2 else m for i, m in enumerate(ref["moves"])]
        texts.append(head + " ".join(words) + "\n")
    path = tmp_path / "refs.tilewe"
    path.write_text("\n".join(texts))
    result = run_cli("replay", "--json", str(path))
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(outs) == len(refs)
    for ref, out in zip(refs, outs):
        assert out["valid"] and out["plies"] == len(ref["moves"])
        assert out["state"]["board"] == ref["final_board"]
        assert out["result"]["scores"] == ref["scores"]
        assert sorted(out["result"]["winners"]) == ref["winners"]
        assert out["result"]["over"] is True


@pytest.mark.slow
@pytest.mark.parametrize("game", ["tilewe", "flows", "philosophy"])
def test_shared_crosscheck_passes(game):
    script = SHARED / "tools" / "crosscheck.py"
    data = SHARED / "oracle-samples" / game
    if not script.exists():
        pytest.skip("../shared is not beside this checkout (CI always has it)")
    cmd = " ".join(notation_exe())
    result = subprocess.run([sys.executable, str(script), game, str(data), "--cmd", cmd,
                             "--verbose"], capture_output=True, text=True, timeout=HANG_BREAKER)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{game}: PASS" in result.stdout
