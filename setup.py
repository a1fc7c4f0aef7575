"""What pyproject.toml cannot declare without listing it by hand or an experimental table.

The packages are found, not listed: everything under notation/, and the top-level folders
cli/, grammars/ and samples/ mounted inside the one import package as notation.cli,
notation.grammars and notation.samples (no generic top-level names in site-packages).
The compiled modules are built where a C compiler is at hand and left out otherwise
(optional): each has its definition in Python beside it, which runs when it is missing.
"""
from setuptools import Extension, find_namespace_packages, setup

MOUNTED = {"notation.cli": "cli", "notation.grammars": "grammars",
           "notation.samples": "samples"}
SKIPPED = ["*__pycache__*"]


def packages() -> list[str]:
    """notation and its subpackages, then each mounted folder and its subfolders."""
    found = find_namespace_packages(include=["notation", "notation.*"], exclude=SKIPPED)
    for package, folder in MOUNTED.items():
        found.append(package)
        found += [f"{package}.{sub}" for sub in find_namespace_packages(where=folder,
                                                                         exclude=SKIPPED)]
    return found


setup(
    packages=packages(),
    package_dir={"notation": "notation", **MOUNTED},
    ext_modules=[
        Extension("notation.games.tilewe.compiled.text",
                  ["notation/games/tilewe/compiled/text.c"],
                  depends=["notation/games/tilewe/compiled/tilewe.h"], optional=True),
        Extension("notation.games.tilewe.compiled.rules",
                  ["notation/games/tilewe/compiled/rules.c"],
                  depends=["notation/games/tilewe/compiled/tilewe.h"], optional=True),
        Extension("notation.games.flows.compiled.routes",
                  ["notation/games/flows/compiled/routes.c"], optional=True),
        Extension("notation.read.compiled.tags",
                  ["notation/read/compiled/tags.c"], optional=True),
        Extension("notation.tables.compiled.columns",
                  ["notation/tables/compiled/columns.c"], optional=True),
    ],
)
