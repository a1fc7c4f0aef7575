"""``make test`` on a fresh machine: the Debian packages the suite needs are checked
(and installed where it can) before anything runs, or named in one line."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from conftest import HANG_BREAKER, ROOT


def _bare_path(tmp_path: Path, uid: str) -> Path:
    """A PATH with bash and the few tools the script uses, no chromium, pentobi, neovim
    or sudo."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for tool in ("bash", "cat"):
        (folder / tool).symlink_to(shutil.which(tool))
    (folder / "id").write_text(f"#!{shutil.which('bash')}\necho {uid}\n")
    (folder / "id").chmod(0o755)
    return folder


def test_make_test_says_which_packages_it_needs_when_it_cannot_install_them(tmp_path):
    folder = _bare_path(tmp_path, "1000")
    result = subprocess.run([str(folder / "bash"), str(ROOT / ".ci" / "system-packages")],
                            env={"PATH": str(folder)}, capture_output=True, text=True,
                            timeout=HANG_BREAKER)
    missing = "chromium chromium-driver" + (
        "" if Path("/usr/games/pentobi-thumbnailer").exists() else " pentobi") + " neovim"
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == (f"make test: the suite needs Debian's {missing}: run 'sudo "
                             f"apt-get install {missing}', then make test again\n")


def test_make_test_checks_the_system_packages_before_running_anything():
    result = subprocess.run(["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True,
                            timeout=HANG_BREAKER)
    lines = [line for line in result.stdout.splitlines() if "pytest" in line or
             "system-packages" in line]
    assert "system-packages" in lines[0] and "pytest" in lines[-1], result.stdout
    run = (ROOT / ".ci" / "run").read_text()
    assert "make test" in run and "apt-get" not in run  # one way in, the README's
