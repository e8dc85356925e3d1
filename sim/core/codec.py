"""Exact JSON for the per-chunk statistics a ``--keep summary`` run stores.

Sufficient statistics (sim.runner.aggregate.ChunkStats) and report accumulators (dicts with
tuple keys, lists, numpy arrays, small dataclasses) become plain JSON and come back
bit for bit: floats are written with Python's shortest round-trip repr, integer arrays
as integers, dict keys of any hashable kind as [key, value] pairs. Only dataclasses of
this project (modules ``sim.*`` / ``strategies.*``) are rebuilt, so a file cannot make
the reader import anything else.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from typing import Any

import numpy as np

_ALLOWED = ("sim.", "strategies.")


def encode(x: Any) -> Any:
    """A JSON-ready form of ``x`` that :func:`decode` turns back into an equal object."""
    if isinstance(x, np.ndarray):
        return {"__nd__": x.dtype.str, "shape": list(x.shape), "data": x.ravel().tolist()}
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    if x is None or isinstance(x, (int, float, str)):
        return x
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        cls = type(x)
        return {"__dc__": f"{cls.__module__}:{cls.__qualname__}",
                "fields": {f.name: encode(getattr(x, f.name)) for f in dataclasses.fields(x)}}
    if isinstance(x, dict):
        return {"__map__": [[encode(k), encode(v)] for k, v in x.items()]}
    if isinstance(x, tuple):
        return {"__tuple__": [encode(v) for v in x]}
    if isinstance(x, list):
        return [encode(v) for v in x]
    raise TypeError(f"cannot store a {type(x).__name__} in a chunk summary")


def decode(x: Any) -> Any:
    """The object :func:`encode` was given."""
    if isinstance(x, list):
        return [decode(v) for v in x]
    if not isinstance(x, dict):
        return x
    if "__nd__" in x:
        return np.array(x["data"], dtype=np.dtype(x["__nd__"])).reshape(x["shape"])
    if "__tuple__" in x:
        return tuple(decode(v) for v in x["__tuple__"])
    if "__map__" in x:
        return {_hashable(decode(k)): decode(v) for k, v in x["__map__"]}
    if "__dc__" in x:
        module, _, name = x["__dc__"].partition(":")
        if not module.startswith(_ALLOWED):
            raise ValueError(f"chunk summary names class {x['__dc__']!r}, not one of rummy-sim's")
        cls = importlib.import_module(module)
        for part in name.split("."):
            cls = getattr(cls, part)
        if not dataclasses.is_dataclass(cls):
            raise ValueError(f"chunk summary names {x['__dc__']!r}, which is not a dataclass")
        return cls(**{k: decode(v) for k, v in x["fields"].items()})
    raise ValueError(f"chunk summary: unknown object {sorted(x)[:3]}")


def _hashable(k):
    return tuple(_hashable(v) for v in k) if isinstance(k, (list, tuple)) else k


def dumps(x: Any) -> bytes:
    return json.dumps(encode(x), separators=(",", ":")).encode()


def loads(b: bytes | str) -> Any:
    return decode(json.loads(b))
