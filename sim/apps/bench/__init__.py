"""The benchmarks (``rummy-sim bench``), one module per purpose.

* ``speed``: the deals/s bench of a game, as its plan says (``Game.bench_plan()``,
  sim.plugin.bench): ``one_table`` for a game benched at its one table (the engine bench:
  deals/s, first call, JIT speed-up, recording overhead), ``by_players`` for one benched at
  several table sizes (deals/s by player count, cold compile with every game);
* what both are built from: ``cells`` (the deals/s cells), ``repeat`` (round-robin runs and
  their medians), ``fresh`` (first calls and plain-Python runs in fresh processes),
  ``figures`` (the game's own figures), ``targets``, ``table`` (the aligned table),
  ``machine`` (the machine's state beside the figures);
* ``runner``: the experiment runner's overhead over the bare engine (``--runner``);
* ``dask_backend``: the Dask backend against a local run (``--backend dask``).

Measuring and formatting are separate functions, so the tables and the JSON objects can be
tested with made-up numbers.
"""
