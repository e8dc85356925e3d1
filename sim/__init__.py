"""rummy-sim: a numba-compiled Monte Carlo toolkit for analysing rummy strategies."""

import hashlib
import os
import sys
from pathlib import Path

__version__ = "0.1.0"


def _source_keyed_cache_dir() -> str:
    """A numba cache folder named after a hash of this project's kernel sources.

    numba's on-disk cache only notices edits to the file that defines a function, not
    to the modules it calls, so an edited helper could silently run stale machine
    code. Keying the folder on every source file of ``sim`` and ``strategies`` makes
    any edit start a fresh cache. Only files that compile code (they mention njit) or
    hold the constants kernels inline (enums.py) count, so editing pure-Python
    modules does not force a recompile. Set NUMBA_CACHE_DIR yourself to override.
    """
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha1()
    for package in ("sim", "strategies"):
        for path in sorted((root / package).rglob("*.py")):
            text = path.read_bytes()
            if path.name == "enums.py" or b"njit" in text:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(text)
    key = digest.hexdigest()[:16]
    base = root / ".numba_cache"
    if not os.access(root, os.W_OK):
        base = Path.home() / ".cache" / "rummy-sim" / "numba"
    return str(base / key)


if not os.environ.get("NUMBA_CACHE_DIR"):
    os.environ["NUMBA_CACHE_DIR"] = _source_keyed_cache_dir()
    if "numba" in sys.modules:  # numba read its config already: tell it too
        sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
