"""Load a user's strategy file (``--load FILE.py``) so that it works on every run.

A file run with ``importlib`` under a made-up name and not kept in ``sys.modules`` compiles
the first time, but numba's cache (``cache=True``) stores the name of the module whose
globals the compiled code uses and imports that module again when it loads the cached code
in a later process: a module missing from ``sys.modules`` is stored as ``'<dynamic>'`` and
every later run failed with ``ModuleNotFoundError: No module named '<dynamic>'``.

So the file is imported as a real module: under a name that depends only on its resolved
path and its contents (the same file gets the same name in every process, so the cached
code finds its module; an edited file gets a new name and numba recompiles it anyway), kept
in ``sys.modules`` before its code runs, with its directory at the end of ``sys.path`` so it
may import helper modules next to it. Loading the same file twice in one process runs it once.
While it runs, numba caches what it compiles in a folder of that module name
(``$NUMBA_CACHE_DIR/user_files/<name>``, :class:`UserFileLocator`): numba keys its cache on the
file's path and contents only, so entries left by an earlier loader (with ``'<dynamic>'`` in
them) or by importing the same file as a package module would otherwise be loaded again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from numba.core import caching, config

MODULE_PREFIX = "rummy_sim_user_"


class UserFileError(ValueError):
    """A ``--load`` file that is missing or raised while it ran (the message names the file)."""


def module_name_of(path: Path, source: bytes) -> str:
    """The stable module name of the user file at ``path`` with contents ``source``."""
    digest = hashlib.sha1(str(path).encode() + b"\0" + source).hexdigest()[:16]
    stem = "".join(ch if ch.isalnum() else "_" for ch in path.stem)
    return f"{MODULE_PREFIX}{stem}_{digest}"


class UserFileLocator(caching.UserProvidedCacheLocator):
    """numba's cache folder for the functions of a loaded user file: one per module name."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = os.path.join(config.CACHE_DIR, "user_files", py_func.__module__)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not str(getattr(py_func, "__module__", "")).startswith(MODULE_PREFIX):
            return None
        return super().from_function(py_func, py_file)


@contextmanager
def _user_file_locator():
    """numba picks a function's cache locator when it is decorated: put ours first meanwhile
    (numba's own list is used again afterwards; NUMBA_CACHE_LOCATOR_CLASSES, if set, wins)."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # renamed in numba 0.62
    before = impl._locator_classes
    impl._locator_classes = [UserFileLocator, *impl._locator_classes]
    try:
        yield
    finally:
        impl._locator_classes = before


_LOADED: list[str] = []  # the resolved paths of the files loaded in this process, in order


def loaded_files() -> tuple[str, ...]:
    """The user files this process loaded (resolved paths): a Dask worker loads the same ones
    before it plays a chunk (sim.runner.dask_backend.chunk_task)."""
    return tuple(_LOADED)


def load_user_file(name: str | Path) -> ModuleType:
    """Import the Python file ``name`` (it registers its strategies as it runs) and return it."""
    path = Path(name).expanduser()
    if not path.is_file():
        raise UserFileError(f"--load {name}: no such file")
    path = path.resolve()
    modname = module_name_of(path, path.read_bytes())
    if modname in sys.modules:
        return sys.modules[modname]
    module = _import_as(modname, path, name)
    _LOADED.append(str(path))
    return module


def _import_as(modname: str, path: Path, name: str | Path) -> ModuleType:
    """Run the file at ``path`` as module ``modname`` (with our cache locator), kept in sys.modules."""
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise UserFileError(f"--load {name}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.append(folder)
    sys.modules[modname] = module
    try:
        with _user_file_locator():
            spec.loader.exec_module(module)
    except Exception as e:  # the user's code: say where it failed, leave no half-run module behind
        del sys.modules[modname]
        raise UserFileError(f"--load {name}: {type(e).__name__}: {e}") from None
    return module
