# The set-up commands of the README. Each creates .venv on first use and installs what it
# needs: `make demo` the package alone, `make docs` the docs extra, `make test` the rest.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALL := $(BIN)/python -m pip install --quiet --disable-pip-version-check
COMPILED_SOURCES := $(wildcard notation/*/compiled/*.[ch] notation/games/*/compiled/*.[ch])
SOURCES := pyproject.toml setup.py $(COMPILED_SOURCES)
# The compiled modules are optional: one that no longer builds is left out, not an error.
# Each install removes the ones built before, so such a module is missing (and its tests
# say so), never an older build run in its place.
UNBUILD := rm -f $(wildcard notation/*/compiled/*.so notation/games/*/compiled/*.so)

.PHONY: demo test check fuzz bench pictures docs clean

# pytest rewrites each test module's asserts; where PYTHONDONTWRITEBYTECODE is set (as on
# CI) it cannot keep the result and does it again in every process of every run (10 CPU
# seconds a process). So its byte code is written, under the virtual environment
# (PYTHONPYCACHEPREFIX), never beside the samples and tests it walks.
PYTEST := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache $(BIN)/python -m pytest

# The suite's byte code is under its prefix (PYTEST's), where a fresh clone has none: each
# process compiled what it imported until one had written it (a worker's collection: 23 s
# cold, 7 s warm). tests/project/prime_bytecode.py compiles it all first, on every core
# (12 s cold on two cores, half a second warm).
PRIME = @env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache \
	$(BIN)/python tests/project/prime_bytecode.py notation cli grammars $(VENV)/lib/python3*/site-packages \
	$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# One stamp per set of extras: the demo's venv holds no test tool (pytest, selenium, mypy).
$(VENV)/.installed-demo: $(SOURCES) | $(BIN)/python
	$(UNBUILD)
	$(INSTALL) -e .
	touch $@

$(VENV)/.installed-docs: $(SOURCES) | $(BIN)/python
	$(UNBUILD)
	$(INSTALL) -e '.[docs]'
	touch $@

# The test tools' modules are not compiled at install (pandas, Polars, Dask, Sphinx: some
# 6,000 files, half a minute): the suite writes byte code for what it imports, once, under
# the venv (PYTEST's prefix, below), and never imports most of them.
$(VENV)/.installed-test: $(SOURCES) | $(BIN)/python
	$(UNBUILD)
	$(INSTALL) --no-compile -e '.[test]'
	touch $@

# The editable install's modules compiled once, here: where PYTHONDONTWRITEBYTECODE is set
# (as on CI), Python would otherwise compile every module again at every start. Cheap when
# nothing changed (compileall skips what is up to date), so every target runs it.
BYTECODE := @$(BIN)/python -m compileall -q notation cli grammars >/dev/null

demo: $(VENV)/.installed-demo
	$(BYTECODE)
	$(BIN)/notation validate samples/
	$(BIN)/notation replay samples/tilewe/tw-sample-1.tilewe
	$(BIN)/notation replay samples/flows/flows-090.flows
	$(BIN)/notation replay samples/sanguine/example-1.sanguine

# The suite drives Debian's chromium (browser test), pentobi (exported Blokus files) and
# neovim (the language server's client):
# .ci/system-packages installs them where it can, else stops here saying what to install.
# Everything runs: first on every core (idle workers take queued tests from busy ones:
# worksteal; the Dask tests among them, whose clusters mostly wait on one another), then,
# alone, the tests that drive a browser (chromium busies several processes at once). Those
# live in files named test_browser*.py (a test holds it), so the second run collects those
# files only: collecting the whole suite to keep two of its modules took 6 s.
ALONE := browser
ALONE_TESTS := $(wildcard tests/*/test_browser*.py)
test: $(VENV)/.installed-test
	$(BYTECODE)
	@bash .ci/system-packages
	$(PRIME)
	$(PYTEST) -n auto --dist worksteal -m "not ($(ALONE))"
	$(PYTEST) -m "$(ALONE)" $(ALONE_TESTS)

# The fast inner loop: everything but the tests marked slow, browser, dask, install and
# fuzz (see pyproject.toml), on every core, stopping at the first failure.
check: $(VENV)/.installed-test
	$(BYTECODE)
	$(PYTEST) -x -n auto -m "not (slow or browser or dask or install or fuzz)"

# The fuzz suite with a large budget (CI runs it with 500 cases per test).
FUZZ_EXAMPLES ?= 20000
fuzz: $(VENV)/.installed-test
	$(BYTECODE)
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PYTEST) -q tests/project/test_fuzz.py --hypothesis-show-statistics

# Issue 23's table in one run (every row against its peer: python-chess, pgn-extract,
# python -c pass, validate). Each script of tests/benchmarks/ also runs on its own.
bench: $(VENV)/.installed-test
	$(BYTECODE)
	$(BIN)/python tests/benchmarks/bench_table.py

# Redraw the README's pictures (samples/pictures/) with `notation render` (tests/ on the
# path: the script takes the suite's shared helpers, conftest.py, as its tests do).
pictures: $(VENV)/.installed-test
	$(BYTECODE)
	PYTHONPATH=tests $(BIN)/python tests/render/test_pictures.py

# The handbook (docs/), warnings as errors, into build/docs/ (open build/docs/index.html).
docs: $(VENV)/.installed-docs
	$(BYTECODE)
	$(BIN)/python -m sphinx -W --keep-going -q -b html docs build/docs

clean:
	rm -rf $(VENV) .venv-bench build dist *.egg-info
