"""A study's output folder: one ordinary results file per cell (experiment) and ``study.json``
naming what each file is, so ``rummy-sim report DIR/variant-1.parquet`` reads one cell and
``--resume`` continues the study only with the options it was started with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from sim.experiment import Experiment
from sim.runner.files import _atomic_write_text
from sim.runner.results import RunError

STUDY_FORMAT = "rummy-sim-study/1"
STUDY_FILE = "study.json"


def study_outs(out: str | Path | None, study: str, stem: str, exps: Sequence[Experiment], labels: Sequence[str],
               options: dict, *, resume: bool = False, force: bool = False) -> list[Path | None]:
    """The results file of every cell of a study in folder ``out`` (``<stem>-<i>.parquet``), after
    checking the folder (a new one is created; an existing study is continued only with
    ``resume`` and the same ``options`` and experiments, replaced only with ``force``)."""
    if out is None:
        return [None] * len(exps)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RunError(f"{out} is a file; the --out of a {study} names a folder (one results file per "
                       f"{stem} in it)")
    if not out.parent.is_dir():
        raise RunError(f"directory {out.parent} does not exist")
    files = [out / f"{stem}-{i}.parquet" for i in range(len(exps))]
    description = {"format": STUDY_FORMAT, "study": study, "options": options,
                   "cells": [{"file": f.name, "label": lab, "experiment_hash": e.digest()}
                             for f, lab, e in zip(files, labels, exps)]}
    path = out / STUDY_FILE
    if path.is_file() and not force:
        if not resume:
            raise RunError(f"{out} already holds a {study}; pass --resume to continue it or --force to replace it")
        try:
            old = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise RunError(f"{path}: unreadable ({e}); move {out} away") from None
        if old != description:
            what = [k for k in ("study", "options", "cells") if old.get(k) != description[k]]
            raise RunError(f"--resume: {out} holds another {study} (its {', '.join(what) or 'format'} differ)")
        return files
    out.mkdir(exist_ok=True)
    _atomic_write_text(json.dumps(description, indent=2) + "\n", path)
    return files
