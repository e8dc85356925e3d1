"""Decision analysis: was that move right? One decision, or a strategy's decisions of one kind.

Game-agnostic layer: ``stats`` (paired CIs vs the best and vs the move played,
probability of being best), ``racing`` (worlds in batches, early elimination with a
Bonferroni bound over candidates and looks), ``result`` (the rows, JSON, chart) and
``games`` (which games support it). Persian Rummy: ``persian`` (decisions from a deal
log, a Position or an observation; the analysis), ``persian_nb`` (compiled play-outs
in sampled worlds, parallel over worlds) and ``persian_audit`` (a strategy's take,
hold or discard decisions, broken down by situation). Docs: docs/decisions.md.

    from sim.games.persian.decisions import analyze_log
    a = analyze_log("deals.jsonl", deal=3, turn=12, decision="draw", samples=1000)
    a.frame            # one row per candidate, best first
    a.figure()         # paired differences to the best with 95% CIs
"""
