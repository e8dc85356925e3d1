"""Which code plays an experiment: the package version and a hash of its sources.

Part of an experiment's identity (sim.experiment.Experiment.version), so a resumed run,
a merged shard or a Dask worker never mixes rows computed by different code: a worker
whose installation differs refuses the chunk with :class:`VersionMismatch`.
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
from pathlib import Path

import sim


class VersionMismatch(RuntimeError):
    """A chunk asked of a process whose rummy-sim is another version than the experiment's."""


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """``<package version>+<16 hex digits>``: the hash covers the compiled code of ``sim`` and
    ``strategies`` (the files that mention the kernel decorator, and enums.py whose constants kernels inline:
    the same files that key the numba cache in sim/__init__.py), so an edit to the rules or
    a strategy changes it and an edit to the command line or the docs does not."""
    marker = b"nj" + b"it"  # spelled apart so that this file is not counted itself
    root = Path(sim.__file__).resolve().parent.parent
    digest = hashlib.sha1()
    for package in ("sim", "strategies"):
        for path in sorted((root / package).rglob("*.py")):
            text = path.read_bytes()
            if path.name != "enums.py" and marker not in text:
                continue
            digest.update(str(path.relative_to(root)).encode())
            digest.update(text)
    return f"{sim.__version__}+{digest.hexdigest()[:16]}"


def check_version(wanted: str, where: str = "this process") -> None:
    """Raise VersionMismatch unless ``wanted`` is this installation's code version."""
    have = code_version()
    if wanted != have:
        raise VersionMismatch(f"{where} runs rummy-sim {have}, but the experiment was made with {wanted}: "
                              "install the same version of the package (same sources) on every worker")


def git_commit() -> str | None:
    """The git commit of the checkout this package runs from (short hash, ``-modified`` when its
    tracked files differ from it), or None when it is not a checkout or git is missing."""
    root = Path(sim.__file__).resolve().parent.parent
    if not (root / ".git").exists():  # a folder in a clone, a file in a worktree
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True, timeout=10)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", str(root), "diff", "--quiet", "HEAD", "--", "sim", "strategies"],
                               capture_output=True, timeout=10).returncode != 0
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("-modified" if dirty else "")


def version_text() -> str:
    """What ``rummy-sim --version`` prints: the version, the code hash and the git commit if any."""
    commit = git_commit()
    return f"rummy-sim {sim.__version__} (code {code_version()}" + (f", git {commit})" if commit else ")")
