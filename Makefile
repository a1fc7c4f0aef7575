# The two set-up commands of the README. Each creates .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check fuzz bench pictures clean bytecode

# pytest rewrites each test module's asserts; where PYTHONDONTWRITEBYTECODE is set (as on
# CI) it cannot keep the result and does it again in every process of every run (10 CPU
# seconds a process). So its byte code is written, under the virtual environment
# (PYTHONPYCACHEPREFIX), never beside the samples and tests it walks.
PYTEST := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache $(BIN)/python -m pytest

$(STAMP): pyproject.toml $(wildcard notation/*/compiled/*.c notation/games/*/compiled/*.c)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

# The editable install's modules compiled once, here: where PYTHONDONTWRITEBYTECODE is set
# (as on CI), Python would otherwise compile every module again at every start. Cheap when
# nothing changed (compileall skips what is up to date), so every target runs it.
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q notation cli grammars >/dev/null

demo: bytecode
	$(BIN)/notation validate samples/
	$(BIN)/notation replay samples/tilewe/tw-sample-1.tilewe
	$(BIN)/notation replay samples/flows/flows-090.flows
	$(BIN)/notation replay samples/sanguine/example-1.sanguine

# The suite drives Debian's chromium (browser test) and pentobi (exported Blokus files):
# .ci/system-packages installs them where it can, else stops here saying what to install.
# Everything runs: first on every core, then, one at a time, the tests that start a browser,
# a cluster or an install of their own (each already busies several processes).
ALONE := browser or dask or install
test: bytecode
	@bash .ci/system-packages
	$(PYTEST) -n auto -m "not ($(ALONE))"
	$(PYTEST) -m "$(ALONE)"

# The fast inner loop: everything but the tests marked slow, browser, dask, install and
# fuzz (see pyproject.toml), on every core, stopping at the first failure.
check: bytecode
	$(PYTEST) -x -n auto -m "not (slow or browser or dask or install or fuzz)"

# The fuzz suite with a large budget (CI runs it with 500 cases per test).
FUZZ_EXAMPLES ?= 20000
fuzz: bytecode
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PYTEST) -q tests/project/test_fuzz.py --hypothesis-show-statistics

# Issue 23's table in one run (every row against its peer: python-chess, pgn-extract,
# python -c pass, validate). Each script of tests/benchmarks/ also runs on its own.
bench: bytecode
	$(BIN)/python tests/benchmarks/bench_round3.py

# Redraw the README's pictures (samples/pictures/) with `notation render` (tests/ on the
# path: the script takes the suite's shared helpers, conftest.py, as its tests do).
pictures: bytecode
	PYTHONPATH=tests $(BIN)/python tests/render/test_pictures.py

clean:
	rm -rf $(VENV) .venv-bench build dist *.egg-info
