# Two entry points: `make demo` (install into .venv, run the brunel-small demo) and
# `make test` (install into .venv, run the C++ unit tests and the Python test suite).
# `make lint` checks the style (ruff, clang-format) and the Python package's types (mypy; CI runs
# it first), `make format` applies the style.
VENV ?= .venv
PY := $(VENV)/bin/python
SOURCES := $(shell find src python -type f -not -name '*.pyc') pyproject.toml CMakeLists.txt
DEMO_SCALE ?= 1
UNIT_BUILD := build/python  # pyproject.toml's build-dir: the unit tests reuse the kernel pip built

LINTERS := $(VENV)/.linters
PY_TREES := python tests benchmarks examples
CXX_FILES = $(shell git ls-files '*.cpp' '*.hpp')

.PHONY: install demo unit test lint format clean

install: $(VENV)/.installed

$(VENV)/.installed: $(SOURCES)
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "scikit-build-core>=0.10" "nanobind>=2.0" cmake ninja numpy scipy pytest pytest-xdist hypothesis matplotlib mpich tqdm microcircuit h5py libsonata pynn nestml neuron bmtk
	$(PY) -m pip install -q --no-build-isolation -Ccmake.define.MPI_C_COMPILER=$(abspath $(VENV))/bin/mpicc .
	touch $@

demo: install
	$(PY) benchmarks/bench.py brunel-small --scale $(DEMO_SCALE) --plot brunel_raster.png

# GoogleTest from Debian's packages (installed here when missing: CI runs as root).
unit: install
	test -f /usr/include/gtest/gtest.h || (apt-get update -qq && apt-get install -y -qq libgtest-dev)
	$(VENV)/bin/cmake -S . -B $(UNIT_BUILD) -DRANVIER_UNIT_TESTS=ON > /dev/null
	$(VENV)/bin/cmake --build $(UNIT_BUILD) --target unit_tests public_api_tests spike_digest spike_digest_native > /dev/null
	$(VENV)/bin/ctest --test-dir $(UNIT_BUILD) --output-on-failure

# Two workers, each test file on one (its module fixtures, a NESTML module or an NMODL catalogue,
# are built once): 3.2 minutes on 2 cores against 4.5 one after the other.
TEST_WORKERS ?= 2
test: install unit
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile tests

$(LINTERS): Makefile  # a new pin installs anew
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q ruff==0.17.6 clang-format==23.1.5 mypy==2.4.1 numpy
	touch $@

lint: $(LINTERS)
	$(VENV)/bin/ruff check $(PY_TREES)
	$(VENV)/bin/ruff format --check $(PY_TREES)
	$(VENV)/bin/mypy python/ranvier
	@echo "clang-format --dry-run -Werror <the C++ files git knows>"
	@$(VENV)/bin/clang-format --dry-run -Werror $(CXX_FILES)

format: $(LINTERS)
	$(VENV)/bin/ruff check --fix --exit-zero $(PY_TREES)
	$(VENV)/bin/ruff format $(PY_TREES)
	$(VENV)/bin/clang-format -i $(CXX_FILES)

clean:
	rm -rf build $(VENV)
