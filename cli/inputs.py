"""Turning command-line PATH arguments into parsed record files."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from notation.core import registry
from notation.core.ast import RecordFile
from notation.core.errors import InputError
from notation.core.parsing import decode, load, parse


@dataclass
class Inputs:
    """What a command read, and the input errors it met on the way (exit 2)."""

    encoding: str = "utf-8"
    game: str | None = None
    input_errors: list[str] = field(default_factory=list)
    texts: dict[str, list[str]] = field(default_factory=dict)  # for caret excerpts

    def expand(self, paths: tuple[str, ...]) -> Iterator[str]:
        """Files as given; directories walked for known record extensions, sorted."""
        known = registry.extensions()
        for path in paths:
            if path == "-" or not os.path.isdir(path):
                yield path
                continue
            found = False
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.lower().endswith(known):
                        found = True
                        yield os.path.join(root, name)
            if not found:
                self.input_errors.append(f"{path}: error: no record files here "
                                         f"(known extensions: {' '.join(known)})")

    def read(self, paths: tuple[str, ...]) -> Iterator[RecordFile]:
        """Parse every file; unreadable ones are noted and skipped."""
        for path in self.expand(paths):
            try:
                if path == "-":
                    text = decode(sys.stdin.buffer.read(), "<stdin>", self.encoding)
                    records = parse(text, game=self.game, source="<stdin>")
                    self.texts["<stdin>"] = text.splitlines()
                else:
                    records = load(path, game=self.game, encoding=self.encoding)
            except InputError as exc:
                self.input_errors.append(str(exc))
                continue
            yield records

    def source_lines(self, source: str) -> list[str]:
        if source not in self.texts:
            try:
                self.texts[source] = Path(source).read_text(
                    encoding="utf-8-sig" if self.encoding.lower().replace("_", "-") in
                    ("utf-8", "utf8") else self.encoding, errors="replace").splitlines()
            except OSError:
                self.texts[source] = []
        return self.texts[source]
