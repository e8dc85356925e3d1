"""Imports inside functions: only the few kept on purpose, each with its reason (issue 23).

The layers contract (pyproject.toml [tool.importlinter], run by ``make test``) already counts
an import inside a function like any other, so a lazy import cannot run up the layers. This
test keeps them few: every import inside a function of ``sim/`` or ``strategies/`` must be
listed below with why it waits for its call. A new one fails here until it is moved to the
top of its module or given a reason (docs/architecture.md).
"""

from __future__ import annotations

import ast
import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (module file pattern, imported module pattern) -> why the import waits for its call
KEPT_LAZY = {
    ("sim/cli/*.py", "sim.*"):
        "a command imports the layers it runs when it runs: `rummy-sim --help` and `--version` "
        "start without numba, pandas and the engines (about 6 s less)",
    ("sim/cli/*.py", "strategies.*"): "as above: a command loads the strategies it names",
    ("sim/cli/*.py", "tqdm"): "the progress bar of the one command that draws one",
    ("sim/cli/common.py", "importlib.util"): "--load FILE.py imports a user's file by path",
    ("sim/cli/common.py", "pathlib"): "with --load only",
    ("sim/games/*/game.py", "sim.games.*"):
        "the registry imports every game.py to find the games; a game's engine, logs, reports "
        "and decision analysis load on their first use",
    ("sim/games/*/game.py", "sim.*"): "as above",
    ("sim/games/*/game.py", "strategies.*"): "as above: a game's strategies load when first asked for",
    ("sim/games/*/engine.py", "pandas"): "an engine's first call (< 1 s) does not load pandas; results_frame does",
    ("sim/apps/analysis/result.py", "sim.present"): "matplotlib loads when a figure is drawn",
    ("sim/apps/analysis/audit.py", "sim.present"): "matplotlib loads when an audit draws its figure",
    ("sim/present/charts.py", "matplotlib.*"): "matplotlib's extras load with the chart that uses them",
    ("sim/present/charts.py", "IPython"): "optional: only inside Jupyter",
    ("sim/present/notebook.py", "IPython*"): "optional: only inside Jupyter",
    ("sim/present/notebook.py", "tqdm.auto"): "the notebook progress bar, inside Jupyter only",
    ("sim/runner/run.py", "ipywidgets"): "optional: the widget progress bar only where ipywidgets is installed",
    ("sim/runner/run.py", "tqdm*"): "the progress bar's kind (terminal or notebook) is chosen when one is drawn",
    ("sim/runner/*.py", "sim.runner.dask_backend"): "optional: Dask (the `dask` extra) only with --backend dask",
    ("sim/runner/dask_backend.py", "dask"): "optional dependency (the `dask` extra)",
    ("sim/runner/dask_backend.py", "distributed"): "optional dependency (the `dask` extra)",
    ("sim/runner/metadata.py", "scipy"): "heavy, only for the versions recorded in a results file",
    ("sim/runner/metadata.py", "statsmodels"): "heavy, only for the versions recorded in a results file",
    ("sim/apps/tune/*.py", "optuna"): "optuna (about 1 s to import) loads only when tuning",
    ("sim/apps/tune/search.py", "cmaes"): "only for the CMA-ES sampler",
    ("sim/apps/tune/evaluate.py", "sim.runner.dask_backend"): "optional: Dask only with --backend dask",
    ("sim/apps/tune/report.py", "scipy"): "heavy, only for the parameter-effects table",
    ("sim/core/intervals.py", "scipy"): "scipy.stats (about 0.7 s) loads with the first interval, not with every command",
    ("sim/core/intervals.py", "statsmodels.*"): "as above, for the Wilson interval",
}


def _lazy_imports(root: Path = ROOT):
    """(file, function, imported module, line) of every import inside a function under ``root``."""
    for path in sorted([*root.glob("sim/**/*.py"), *root.glob("strategies/**/*.py")]):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(), rel)
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    names = ["." * node.level + (node.module or "")]
                else:
                    continue
                for name in names:
                    yield rel, fn.name, name, node.lineno


def _reason(rel: str, module: str) -> str | None:
    for (file_pattern, module_pattern), why in KEPT_LAZY.items():
        if fnmatch.fnmatch(rel, file_pattern) and fnmatch.fnmatch(module, module_pattern):
            return why
    return None


def test_every_import_inside_a_function_has_its_reason():
    unexplained = [f"{rel}:{line} ({fn}) imports {module}" for rel, fn, module, line in _lazy_imports()
                   if _reason(rel, module) is None]
    assert not unexplained, (
        "imports inside functions without a reason in tests/test_layers.py (move them to the top of "
        "the module, or list them with why they wait):\n  " + "\n  ".join(unexplained))


def test_the_scan_finds_a_planted_lazy_import(tmp_path):
    """The scan itself works: a lazy import in a runner module is found and has no reason."""
    planted = tmp_path / "sim" / "runner" / "planted.py"
    planted.parent.mkdir(parents=True)
    planted.write_text("def f():\n    from sim.core import fmt\n    return fmt\n")
    found = list(_lazy_imports(tmp_path))
    assert found == [("sim/runner/planted.py", "f", "sim.core", 2)]
    assert _reason("sim/runner/planted.py", "sim.core") is None
    assert _reason("sim/cli/experiments.py", "sim.studies.match") is not None


def test_no_relative_imports():
    """Every import names its module in full, so the layers read from the import lines alone."""
    relative = [f"{rel}:{line}" for rel, _, module, line in _lazy_imports() if module.startswith(".")]
    assert not relative, relative
