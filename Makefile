# Two entry points: `make demo` (install into .venv, run the brunel-small demo) and
# `make test` (install into .venv, run the test suite).
VENV ?= .venv
PY := $(VENV)/bin/python
SOURCES := $(shell find src python -type f -not -name '*.pyc') pyproject.toml CMakeLists.txt
DEMO_SCALE ?= 1

.PHONY: install demo test clean

install: $(VENV)/.installed

$(VENV)/.installed: $(SOURCES)
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "scikit-build-core>=0.10" "nanobind>=2.0" cmake ninja numpy scipy pytest matplotlib mpich tqdm microcircuit
	$(PY) -m pip install -q --no-build-isolation -Ccmake.define.MPI_C_COMPILER=$(abspath $(VENV))/bin/mpicc .
	touch $@

demo: install
	$(PY) -m ranvier.bench brunel-small --scale $(DEMO_SCALE) --plot brunel_raster.png

test: install
	$(PY) -m pytest -q tests

clean:
	rm -rf build $(VENV)
