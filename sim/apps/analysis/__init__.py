"""Decision analysis: was that move right? One decision, or a strategy's decisions of one kind.

Game-agnostic layer: ``stats`` (paired CIs vs the best and vs the move played,
probability of being best), ``racing`` (worlds in batches, early elimination with a
Bonferroni bound over candidates and looks) and ``result`` (the rows, JSON, chart). A game
that analyses decisions declares it as ``Game.decisions`` (sim.plugin.game.Decisions): it
samples worlds from a seat's view and plays candidates out in them, in its own folder
(Persian Rummy: sim/games/persian/decisions.py, decisions_nb.py, audit.py). Docs: docs/decisions.md.

    from sim.games.persian.decisions import analyze_log
    a = analyze_log("deals.jsonl", deal=3, turn=12, decision="draw", samples=1000)
    a.frame            # one row per candidate, best first
    a.figure()         # paired differences to the best with 95% CIs
"""
