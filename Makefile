# Two entry points: `make demo` and `make test`. Each creates or reuses .venv and
# installs what it needs, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache

.PHONY: demo test bench clean-cache venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/rummy-sim demo

test: $(STAMP)
	$(PY) -m pytest -q -n 2

bench: $(STAMP)
	$(VENV)/bin/rummy-sim bench

clean-cache:
	rm -rf $(NUMBA_CACHE_DIR)
	find sim strategies tests -name __pycache__ -type d -prune -exec rm -rf {} +
