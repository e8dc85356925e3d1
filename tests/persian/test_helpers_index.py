"""strategies/persian/helpers_nb.py, the strategy writer's one import of the helper
kernels, names every public kernel of the modules they live in (hand_melds_nb, moves_nb,
table_nb, feed_nb) and hands out those very objects, so a user strategy that imports
from it compiles against the same kernels as the built-ins."""

import importlib

from strategies.persian import helpers_nb

MODULES = ("hand_melds_nb", "moves_nb", "table_nb", "feed_nb")


def test_index_names_every_kernel_once():
    seen = {}
    for name in MODULES:
        module = importlib.import_module(f"strategies.persian.{name}")
        kernels = {n for n, v in vars(module).items()
                   if not n.startswith("_") and getattr(getattr(v, "py_func", None), "__module__", None) == module.__name__}
        assert kernels, name
        for n in kernels:
            assert n not in seen, f"{n} in {seen.get(n)} and {name}"
            seen[n] = name
            assert getattr(helpers_nb, n) is getattr(module, n), n
    assert "FEED_BASE" in helpers_nb.__all__
    assert set(helpers_nb.__all__) == set(seen) | {"FEED_BASE"}
