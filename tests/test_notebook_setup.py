"""The notebooks open from the set-up (issue 27, item 4).

* every notebook names the kernel ``rummy-sim`` (the project's .venv, registered by ``make venv``),
  and the builders write that name;
* the rerun line a notebook prints works exactly as printed (only the deal count made tiny), run
  from a folder laid out like a clone (``.venv``, ``notebooks/``), so the committed notebook is
  not touched;
* a builder given ``--help`` or a bad argument writes nothing (it overwrote the committed,
  executed notebooks before).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from test_notebooks import RUN_BY_THE_RERUN_TEST, check_small_run

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
KERNEL = "rummy-sim"
BUILDERS = sorted(p.name for p in NB_DIR.glob("build_*.py"))
RERUN = re.compile(r"`(RUMMY_DEALS=(\d[\d_]*) \.venv/bin/jupyter nbconvert [^`]*)`")


def test_every_notebook_names_the_project_kernel():
    sys.path.insert(0, str(NB_DIR))
    try:
        from _cells import KERNEL as built
    finally:
        sys.path.remove(str(NB_DIR))
    assert built["name"] == KERNEL
    for path in sorted(NB_DIR.glob("*.ipynb")):
        assert json.loads(path.read_text())["metadata"]["kernelspec"]["name"] == KERNEL, path.name


def _kernel_installed() -> bool:
    jupyter = Path(sys.prefix) / "bin" / "jupyter"
    if not jupyter.exists():
        return False
    out = subprocess.run([str(jupyter), "kernelspec", "list", "--json"], capture_output=True, text=True)
    return out.returncode == 0 and KERNEL in json.loads(out.stdout)["kernelspecs"]


def test_the_printed_rerun_command_works_as_printed(tmp_path):
    assert _kernel_installed(), f"no jupyter or no kernel {KERNEL!r} in {sys.prefix}: `make venv` installs both"
    name = RUN_BY_THE_RERUN_TEST  # tests/test_notebooks.py leaves this one to this test
    nb = nbformat.read(NB_DIR / f"{name}.ipynb", as_version=4)
    found = RERUN.search(nb.cells[0].source)
    assert found, "the first cell prints the rerun command"
    command = found.group(1).replace(f"RUMMY_DEALS={found.group(2)}", "RUMMY_DEALS=400", 1)
    (tmp_path / ".venv").symlink_to(sys.prefix)
    (tmp_path / "notebooks").mkdir()
    shutil.copy(NB_DIR / f"{name}.ipynb", tmp_path / "notebooks")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("RUMMY_DEALS", None)
    proc = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    ran = nbformat.read(tmp_path / "notebooks" / f"{name}.ipynb", as_version=4)
    check_small_run(ran, name, 400)


@pytest.mark.parametrize("builder", BUILDERS)
@pytest.mark.parametrize("argv, status", [(["--help"], 0), (["--no-such-option"], 2), (["no_such_notebook"], 2)],
                         ids=["help", "bad-option", "bad-name"])
def test_a_builder_writes_nothing_on_help_or_bad_arguments(tmp_path, builder, argv, status):
    copy = tmp_path / "notebooks"
    shutil.copytree(NB_DIR, copy, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in copy.iterdir() if p.is_file()}
    proc = subprocess.run([sys.executable, str(copy / builder), *argv], cwd=tmp_path,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=120)
    assert proc.returncode == status, proc.stderr
    if status:
        assert proc.stderr.strip().splitlines()[-1].startswith(f"{builder}: error:"), proc.stderr
    after = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in copy.iterdir() if p.is_file()}
    assert after == before
