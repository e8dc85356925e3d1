"""What notebooks/build_notebooks.py (01-05) and notebooks/build_indian.py (06, 07) share: the
cell sources every notebook starts with (``setup``, ``rerun``, the ``RUNTIME`` placeholder),
writing notebooks from (kind, source) cell lists (``write_notebooks``), executing one at its
documented deal count and stating its run time (``execute``), and the builders' command line
(``main``: the arguments are checked before anything is written, so ``--help`` or a wrong name
writes nothing). Each builder keeps only its own cells.

Every notebook names the kernel ``rummy-sim`` (KERNEL): the project's ``.venv`` registered as a
Jupyter kernel by ``make venv`` (``python -m ipykernel install --sys-prefix --name rummy-sim``), so
``make lab``, the rerun line and a Jupyter started elsewhere all run it with the project's packages.
"""

from __future__ import annotations

import argparse
import os
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNTIME = "**Run time:** not executed yet (`make notebooks` executes it and states the time here)."
RUNTIME_PREFIX = "**Run time:**"
KERNEL = {"name": "rummy-sim", "display_name": "Python (rummy-sim)", "language": "python"}


def setup(default: int, seed: int, extra: str = "") -> str:
    return f'''import os
import time

import numpy as np
import pandas as pd

from sim.present import charts
from sim import experiment as X
from sim.core.fmt import format_p, pct
from sim.core.intervals import ci
from sim.present.notebook import answer, chunk_bar, estimate

charts.use_style()
DEALS = int(os.environ.get("RUMMY_DEALS", "{default}"))   # the one parameter: deals per run
SEED = {seed}
print(f"RUMMY_DEALS = {{DEALS:,}}, seed = {{SEED}}"){extra}'''


def rerun(name: str, default: int) -> str:
    return (f"**Rerun it** with more (or fewer) deals: `RUMMY_DEALS={default} .venv/bin/jupyter nbconvert --to "
            f"notebook --execute --inplace notebooks/{name}.ipynb` (or set `RUMMY_DEALS` before starting Jupyter). "
            "The deal count is the only parameter; the seed is fixed in the first code cell, so the same "
            "`RUMMY_DEALS` gives the same numbers on any machine and thread count.")


def write_notebooks(notebooks: dict[str, list[tuple[str, str]]], names: list[str] | None = None) -> list[Path]:
    """Write every notebook of ``notebooks`` (name -> [(kind "md" | "code", source)]), or those in
    ``names``, into notebooks/ from its cell sources, unexecuted; return their paths."""
    import nbformat  # here, not at the top: it costs seconds, and --help or a bad argument needs none of it
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    paths = []
    for name, cells in notebooks.items():
        if names and name not in names:
            continue
        nb = new_notebook(cells=[new_markdown_cell(src) if kind == "md" else new_code_cell(src) for kind, src in cells])
        nb.metadata["kernelspec"] = dict(KERNEL)
        nb.metadata["language_info"] = {"name": "python"}
        path = HERE / f"{name}.ipynb"
        nbformat.write(nb, path)
        paths.append(path)
    return paths


def execute(path: Path, timeout: int = 3600) -> float:
    """Execute a built notebook in place at its documented deal count (RUMMY_DEALS unset) and state the
    measured wall time in its run-time cell; returns the seconds."""
    import nbformat
    from nbclient import NotebookClient

    env = os.environ.pop("RUMMY_DEALS", None)
    try:
        nb = nbformat.read(path, as_version=4)
        t0 = time.perf_counter()
        NotebookClient(nb, timeout=timeout, kernel_name=KERNEL["name"],
                       resources={"metadata": {"path": str(HERE)}}).execute()
        seconds = time.perf_counter() - t0
    finally:
        if env is not None:
            os.environ["RUMMY_DEALS"] = env
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source == RUNTIME:
            cell.source = (f"{RUNTIME_PREFIX} {seconds:.0f} s for the whole notebook at its default deal count "
                           f"(executed {when} by `make notebooks` on a 2-core machine shared with other jobs; "
                           "an idle machine is faster). The deal counts are stated in the first code cell's output.")
    nbformat.write(nb, path)
    return seconds


def parse_arguments(names: list[str], argv: list[str] | None, description: str) -> argparse.Namespace:
    """A builder's arguments, ``[NAME ...] [--execute]``, checked (argparse exits on ``--help`` or
    a bad one) before the builder writes anything."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"notebooks to write (default all): {', '.join(names)}")
    parser.add_argument("--execute", action="store_true",
                        help="also execute each at its documented deal count and state its run time")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in names]
    if unknown:
        parser.error(f"unknown notebook {unknown[0]!r}; choose from {', '.join(names)}")
    return args


def main(notebooks: dict[str, list[tuple[str, str]]], argv: list[str] | None = None, description: str = "") -> None:
    """A builder's command line: ``[NAME ...] [--execute]`` writes the notebooks (all, or those
    named) and with ``--execute`` runs each and states its run time."""
    args = parse_arguments(list(notebooks), argv, description)
    for p in write_notebooks(notebooks, args.names):
        if args.execute:
            print(f"{p}: executed in {execute(p):.0f} s", flush=True)
        else:
            print(p)
