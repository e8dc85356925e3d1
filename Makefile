# Two entry points: `make demo` and `make test`. Each creates or reuses .venv and
# installs what it needs, so a fresh clone needs nothing else. The numba cache lives
# in .numba_cache/<hash of the sources> (sim/__init__.py), so edits never run stale code.
# `make lab` opens the notebooks in JupyterLab with this .venv as their kernel "rummy-sim".
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench clean-cache venv notebooks lab reports

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@# the kernel every notebook names (notebooks/_cells.py KERNEL): this environment, inside .venv
	$(PY) -m ipykernel install --sys-prefix --name rummy-sim --display-name "Python (rummy-sim)"
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/rummy-sim demo

test: $(STAMP)
	@# the layers contract (pyproject.toml [tool.importlinter], docs/architecture.md): imports only go down
	$(VENV)/bin/lint-imports --no-cache
	@# compile every game's kernels once (one game per core at a time, about two minutes cold on 2 cores)
	@# so both test workers load them from the cache
	$(PY) -m sim.apps.precompile
	@# the 25 slowest tests are listed at the end: the suite must stay under 10 minutes on 2 cores;
	@# worksteal: a worker that runs out of tests takes some of the other's queue (no idle core at the end)
	$(PY) -m pytest -q -n 2 --dist worksteal --durations=25

notebooks: $(STAMP)
	@# rebuild every notebooks/*.ipynb from its builder and execute it at its documented deal counts
	$(PY) notebooks/build_notebooks.py --execute
	$(PY) notebooks/build_indian.py --execute
	$(PY) notebooks/build_decisions.py --execute
	$(PY) notebooks/build_indian_decisions.py --execute
	$(PY) notebooks/build_gin.py --execute

reports: $(STAMP)
	@# regenerate every committed reports/* folder from the commands recorded in reports/COMMANDS.toml
	@# (hours in all; `make reports ONLY=expert_vs_greedy` for one, `DRY=1` to list them with their last run times)
	$(PY) -m sim.apps.reports $(if $(ONLY),--only $(ONLY)) $(if $(DRY),--dry-run) $(if $(REUSE),--reuse)

lab: $(STAMP)
	@# JupyterLab on notebooks/, every notebook running on the kernel "rummy-sim" (this .venv)
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks

bench: $(STAMP)
	$(VENV)/bin/rummy-sim bench

clean-cache:
	rm -rf .numba_cache
	find sim strategies tests -name __pycache__ -type d -prune -exec rm -rf {} +
