# knightstour: the two commands a fresh machine needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PACKAGES := $(VENV)/.packages
STAMP := $(VENV)/.installed

.PHONY: run test test-fast test-all bench lint packages venv clean

# Python keeps its compiled modules, and pytest its rewritten test modules, as bytecode (a shell
# that sets PYTHONDONTWRITEBYTECODE would make every test run compile them again)
unexport PYTHONDONTWRITEBYTECODE

# install
$(PACKAGES): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,web,cluster]'
	touch $(PACKAGES)

# then compile every kernel into Numba's cache (so that no first command pays for it), again
# whenever a kernel module changes (the tests' servers would otherwise compile on a request's clock)
$(STAMP): $(PACKAGES) $(wildcard src/knightstour/kernels/*.py)
	$(BIN)/knightstour warm
	touch $(STAMP)

packages: $(PACKAGES)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/knightstour solve 8x8 --start a1 --closed --format text --time

# the default tier (CI's): every test but the whole sweeps, two workers a core (tests/conftest.py: its
# browser and process tests mostly wait); Debian's
# chromium-headless-shell is installed for the browser tests when no Chromium is there and it is
# possible, else those tests are skipped with a line saying why
test: $(STAMP)
	@bash tools/ensure-chromium.sh
	$(BIN)/python -m pytest -q -n auto --dist worksteal

# everyday tier: no browser, no killed processes, no Dask cluster, no fuzzing, no sweeps, no test
# that takes more than about half a second of CPU
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist worksteal -m "not browser and not slow"

# the default tier and every whole sweep (tests marked sweep, and tiers.sample taking whole
# domains), then the research folder's own tests: run it before resolving an issue that touches
# a sweep
test-all: $(STAMP)
	@bash tools/ensure-chromium.sh
	$(BIN)/python -m pytest -q -n auto --dist worksteal --all
	$(BIN)/python -m pytest -q research

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

# lint needs the packages, not the compiled kernels (CI runs it while they compile)
lint: $(PACKAGES)
	$(BIN)/ruff check src tests benchmarks tools research
	$(BIN)/ruff format --check src tests benchmarks tools research
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
