"""Both installs work: the editable one `make test` uses, and a built wheel."""
from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from importlib import resources
from pathlib import Path

import pytest

import notation

from conftest import HANG_BREAKER, ROOT, SAMPLES

pytestmark = pytest.mark.install


def test_editable_install_maps_the_top_level_folders_into_the_package():
    grammars = Path(str(resources.files("notation.grammars")))
    assert grammars.resolve() == (ROOT / "grammars").resolve()  # grammar edits show at once
    import notation.cli
    assert Path(notation.cli.__file__).resolve().parent == (ROOT / "cli").resolve()
    assert Path(notation.__file__).resolve().parent == (ROOT / "notation").resolve()


def test_wheel_installs_into_a_fresh_venv_and_validates_the_samples(tmp_path):
    dist = tmp_path / "dist"
    build = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist),
                            str(ROOT)], capture_output=True, text=True, timeout=HANG_BREAKER)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    (wheel,) = dist.glob("game_notation-*.whl")  # the distribution's name; the package's: notation
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"notation", f"game_notation-{notation.__version__}.dist-info"}, tops
    assert "notation/grammars/record.lark" in names and "notation/cli/main.py" in names
    assert "notation/render/templates/viewer.html" in names  # the HTML viewer's page
    assert "notation/py.typed" in names  # a user's type checker reads our types (PEP 561)
    assert "notation/samples/sanguine/decks/legion.deck" in names  # what random sanguine plays
    assert "notation/samples/tilewe/tw-sample-1.tilewe" in names
    # Built with its compiled part, which the installed command says it runs.
    for module in ("games/tilewe/compiled/text.", "games/tilewe/compiled/rules.",
                   "games/flows/compiled/routes.", "tables/compiled/columns."):
        assert any(name.startswith(f"notation/{module}") and name.endswith(".so")
                   for name in names), names
    assert any(name.endswith(".dist-info/licenses/LICENSE") or name.endswith("/LICENSE")
               for name in names)

    env_dir = tmp_path / "venv"
    # (no pip of its own, which would cost its creation 6 s: this venv's pip installs there)
    venv.EnvBuilder(with_pip=False).create(env_dir)
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(env_dir / "bin" / "python"),
                          "install", "--quiet", "--disable-pip-version-check", str(wheel)],
                         capture_output=True, text=True, timeout=HANG_BREAKER)
    assert pip.returncode == 0, pip.stderr[-2000:]
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    result = subprocess.run([str(env_dir / "bin" / "notation"), "validate", str(SAMPLES)],
                            capture_output=True, text=True, cwd=outside, timeout=HANG_BREAKER)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.stdout.count(": ok,") >= 10
    where = subprocess.run([str(env_dir / "bin" / "python"), "-c",
                            "import notation.grammars as g; print(g.__file__)"],
                           capture_output=True, text=True, cwd=outside)
    assert str(env_dir) in where.stdout  # the wheel's copy, not the source tree
    version = subprocess.run([str(env_dir / "bin" / "notation"), "--version"],
                             capture_output=True, text=True, cwd=outside, timeout=HANG_BREAKER)
    assert version.stdout.splitlines()[1:] == [
        "compiled: flows routes, tilewe position text, tilewe rules, position keys, "
        "tag lines"], version.stdout
    dealt = subprocess.run([str(env_dir / "bin" / "notation"), "random", "sanguine", "--seed",
                            "1", "--rows", "3", "--cols", "5"],
                           capture_output=True, text=True, cwd=outside, timeout=HANG_BREAKER)
    assert dealt.returncode == 0 and '[Result "' in dealt.stdout, dealt.stderr[-2000:]
    page = subprocess.run([str(env_dir / "bin" / "notation"), "render", "--html",
                           str(SAMPLES / "flows" / "flows-090.flows")],
                          capture_output=True, text=True, cwd=outside, timeout=HANG_BREAKER)
    assert page.returncode == 0 and "const DATA = {" in page.stdout, page.stderr[-2000:]
    typed = tmp_path / "typed"
    typed.mkdir()
    assert_a_user_script_sees_concrete_types(env_dir / "bin" / "python", typed)


#: A user's script: what ``mypy --strict`` must see of each name (no ``Any``).
USER_SCRIPT = """\
import notation
pos = notation.new("tilewe", players=4)
reveal_type(pos)
reveal_type(pos.push("W5n-a1a1"))
reveal_type(pos.legal_moves)
reveal_type("I2n-a1t1" in pos.legal_moves)
reveal_type(notation.new("flows").legal_moves[0])
reveal_type(notation.new("some-plug-in").push("x"))
reveal_type(notation.load("x.tilewe"))
reveal_type(next(notation.read_games("x.tilewe")))
reveal_type(notation.GameNode.from_position(pos).mainline())
try:
    pos.push("zz")
except notation.InvalidEventError as invalid:
    reveal_type(invalid.problem)
"""


def assert_a_user_script_sees_concrete_types(python: Path, folder: Path) -> None:
    """``mypy --strict`` on a user's script, with the package as ``python`` installed it:
    no error, and no ``Any`` in what it reveals (``py.typed`` shipped, names explicit)."""
    script = folder / "user.py"
    script.write_text(USER_SCRIPT)
    checked = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                              "--python-executable", str(python), str(script)],
                             capture_output=True, text=True, cwd=folder, timeout=HANG_BREAKER)
    revealed = [line for line in checked.stdout.splitlines() if "Revealed type" in line]
    assert checked.returncode == 0 and len(revealed) == 10, checked.stdout[-3000:]
    assert not [line for line in revealed if "Any" in line], revealed
    assert "Position[tuple[int, int, tuple[int, int], int, fallback=notation.games.tilewe" \
        in revealed[0]
