"""Which games decision analysis supports, reached by game name (the experiment layer's way).

A game supports decision analysis by giving, in its own module, the four functions
``decision_from_log(log, turn, decision, index)``, ``analyze(decision, **options)``,
``audit(strategy, kind, deals, ...)`` and ``write_report(audit, out_dir)`` (Persian:
sim/games/persian/decisions.py and persian_audit.py). The statistics (stats.py), the race
(racing.py) and the result (result.py) are shared: a game only samples worlds from a
seat's view and plays candidates out in them. Indian Rummy (drop or play, which
discard) can follow by adding its module here.
"""

from __future__ import annotations

from types import SimpleNamespace

SUPPORTED = ("persian",)


def analysis_for(game: str) -> SimpleNamespace:
    """The decision-analysis functions of ``game``; ValueError for a game without them."""
    if game == "persian":
        from sim.games.persian import audit as persian_audit, decisions as persian

        return SimpleNamespace(decisions=persian.DECISIONS, audit_kinds=persian_audit.KINDS,
                               decision_from_log=persian.decision_from_log, analyze=persian.analyze,
                               analyze_log=persian.analyze_log, audit=persian_audit.audit,
                               write_report=persian_audit.write_report, summarize=persian_audit.summarize)
    raise ValueError(f"decision analysis is built for {', '.join(SUPPORTED)} only, not {game!r} (yet)")
