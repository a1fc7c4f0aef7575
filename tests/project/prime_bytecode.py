"""Compile, on every core, the modules the suite may import, into its byte-code prefix.

    PYTHONPYCACHEPREFIX=... python tests/project/prime_bytecode.py DIR ...

The suite reads byte code under its prefix only (``make test`` sets it: see the Makefile),
not the interpreter's own beside the standard library, so in a fresh clone each of its
processes compiled what it imported until one had written it (a worker's collection took
23 s cold, 7 s warm, on this project's two-core machine). Here
each ``.py`` file under the folders given (their own tests, and the standard library's
parts no test imports, left out) whose byte code is missing or stale is compiled once,
across the cores; what is up to date costs a stat. A file that does not compile is left
for its import to report (some packages ship templates named ``.py``).
"""
from __future__ import annotations

import importlib.util
import os
import py_compile
import sys
from concurrent.futures import ProcessPoolExecutor

#: Folders never walked: tests, the standard library's GUI and tools, installed packages
#: of the interpreter itself (the suite's are in the virtual environment).
SKIPPED = frozenset({"test", "tests", "idlelib", "tkinter", "turtledemo", "lib2to3",
                     "ensurepip", "site-packages", "__pycache__"})


def stale(folder: str) -> list[str]:
    """The ``.py`` files under ``folder`` whose byte code under the prefix is not current."""
    found = []
    for top, folders, files in os.walk(folder):
        folders[:] = [f for f in folders if f not in SKIPPED and not f.startswith("config-")]
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(top, name)
                if not _current(path):
                    found.append(path)
    return found


def _current(path: str) -> bool:
    """Whether the byte code of ``path`` is there and made from the source as it is.

    The header check ``compileall`` makes too, done here: ``compileall -j`` sends every
    file to its pool, those up to date and those left out as well (11 s on a warm
    prefix, against 0.5 s with this check first)."""
    try:
        compiled = importlib.util.cache_from_source(path)
        with open(compiled, "rb") as handle:
            header = handle.read(16)
        source = os.stat(path)
    except OSError:
        return False
    flags = int.from_bytes(header[4:8], "little")
    return (len(header) == 16 and flags == 0
            and int.from_bytes(header[8:12], "little") == int(source.st_mtime) & 0xFFFFFFFF
            and int.from_bytes(header[12:16], "little") == source.st_size & 0xFFFFFFFF)


def _compiled(path: str) -> None:
    try:
        py_compile.compile(path, doraise=True)
    except (py_compile.PyCompileError, OSError, ValueError):
        pass


def main(folders: list[str]) -> None:
    if sys.pycache_prefix is None:
        sys.exit("prime_bytecode: PYTHONPYCACHEPREFIX is not set")
    paths = [path for folder in folders for path in stale(folder)]
    if len(paths) < 200:  # (a warm prefix: no pool worth starting)
        for path in paths:
            _compiled(path)
        return
    with ProcessPoolExecutor(os.cpu_count() or 1) as pool:
        for _ in pool.map(_compiled, paths, chunksize=64):
            pass


if __name__ == "__main__":
    main(sys.argv[1:])
