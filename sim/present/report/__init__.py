"""``rummy-sim report RESULTS.parquet --out DIR``: a Markdown + HTML report of a results file.

``write_report`` writes ``report.md``, ``report.html`` (the same content), PNG figures
(sim.present.charts style), CSV tables and ``summary.json`` into the output folder and returns
report.md's path. The results are read one chunk at a time and reduced to bounded sums,
so a report of tens of millions of plays needs the memory of one chunk.

* ``write.py`` - ``collect``: a results file read chunk by chunk (sim.runner.collect) into a
  ``Collected`` (sim.runner.sums: the run's statistics, sim.runner.aggregate.Totals, and every
  section's accumulator); ``write_report`` and ``cmd_report``;
* ``document.py`` - ``Doc``: blocks that become Markdown and HTML;
* ``header.py`` - title, "How it was made" (game, players, seed, the command that plays
  the same rows, versions, run time), ``reproduce_command``;
* ``base.py`` - the section protocol's defaults and the helpers sections share;
* ``summary_section.py``, ``distributions_section.py``, ``ends_section.py`` - the generic sections
  (they use only the game's result schema; their sums are sim.runner.sums');
* ``sections.py`` - the sections of a report in order (``report_sections``).

A game adds its own sections (``Game.report_sections``, kept in ``sim/games/<name>/report_sections.py``);
the report reads the game from the results' metadata and never imports a game by name.
"""

from sim.present.report.header import reproduce_command
from sim.present.report.write import cmd_report, collect, write_report
from sim.runner.sums import Collected

__all__ = ["Collected", "collect", "write_report", "reproduce_command", "cmd_report"]
