"""``rummy-sim report RESULTS.parquet --out DIR``: a Markdown + HTML report of a results file.

``write_report`` writes ``report.md``, ``report.html`` (the same content), PNG figures
(sim.present.charts style), CSV tables and ``summary.json`` into the output folder and returns
report.md's path. The results are read one chunk at a time and reduced to bounded sums,
so a report of tens of millions of plays needs the memory of one chunk.

* ``reduce.py`` - ``collect``: the chunk loop into ``Collected`` (the run's statistics,
  sim.runner.aggregate.Totals, and every section's accumulator);
* ``document.py`` - ``Doc``: blocks that become Markdown and HTML;
* ``header.py`` - title, "How it was made" (game, players, seed, the command that plays
  the same rows, versions, run time), ``reproduce_command``;
* ``sections.py`` - the section protocol and the generic sections (summary, score and
  deal-length distributions, end reasons), which use only the game's result schema;
* ``write.py`` - ``write_report`` and ``cmd_report``.

A game adds its own sections (``Game.report_sections``, kept in ``sim/games/<name>/report_sections.py``);
the report reads the game from the results' metadata and never imports a game by name.
"""

from sim.present.report.header import reproduce_command
from sim.present.report.reduce import Collected, collect
from sim.present.report.write import cmd_report, write_report

__all__ = ["Collected", "collect", "write_report", "reproduce_command", "cmd_report"]
