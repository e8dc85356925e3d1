"""Build notebooks/08_decisions.ipynb (decision analysis, issue 12) from the cell sources below.

    .venv/bin/python notebooks/build_decisions.py             # rewrites the notebook, unexecuted
    .venv/bin/python notebooks/build_decisions.py --execute   # ... and executes it in place (nbclient)

Its sizes come from the environment (RUMMY_WORLDS worlds per analysed decision,
RUMMY_AUDIT decisions per audit, RUMMY_DEALS deals played by each audit); the test
(tests/test_notebook_decisions.py) runs it with tiny ones. Every sentence of its
"Answer" section is computed from the numbers shown above it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _cells import KERNEL  # noqa: E402  (the kernel every notebook names: the project's .venv)
NAME = "08_decisions"
DEFAULTS = {"RUMMY_WORLDS": 2000, "RUMMY_AUDIT": 400, "RUMMY_DEALS": 300}
RUN_TIME = ("about 4 to 4.5 minutes (249 and 281 s wall in two runs) on the 2-core development machine, shared with other jobs (load ~12), "
            "at the defaults of the first code cell, which produced the committed outputs; the last cell prints "
            "the measured time")

CELLS: list[tuple[str, str]] = [
    ("md", f"""# 08 · Decisions: was that deep take right? should I hold these jokers?

Notebooks 02 and 03 answer these questions for whole policies (a sweep of `max_depth`,
`hold_jokers` on or off). Here they are asked about **one situation at a time**: the
deciding seat's view (RULES.md P10) is kept, the hidden cards are sampled consistently
with it, every legal move is played in the same sampled worlds and the deal is played
out by `expert` in every seat. Then `expert` itself is audited: in which situations do
its takes and its holds lose points?

*Run time: {RUN_TIME}.*

Rerun: `.venv/bin/python notebooks/build_decisions.py --execute` (sizes from RUMMY_WORLDS, RUMMY_AUDIT,
RUMMY_DEALS). Command-line equivalents: `rummy-sim analyze LOG.jsonl --deal K --turn T [--decision play]`
and `rummy-sim audit expert --decision take|hold --deals N --out DIR`."""),
    ("code", f'''import os
import time

import numpy as np
import pandas as pd
from IPython.display import display

from sim.present import charts
from sim.games.persian import decisions as P
from sim.games.persian.audit import audit, audit_figure, direction, summarize, FEATURES
from sim.games import get_game

charts.use_style()
WORLDS = int(os.environ.get("RUMMY_WORLDS", "{DEFAULTS['RUMMY_WORLDS']}"))  # worlds per analysed decision
AUDIT = int(os.environ.get("RUMMY_AUDIT", "{DEFAULTS['RUMMY_AUDIT']}"))     # decisions analysed per audit
DEALS = int(os.environ.get("RUMMY_DEALS", "{DEFAULTS['RUMMY_DEALS']}"))     # deals each audit plays
AUDIT_WORLDS = max(20, WORLDS // 5)                     # worlds per audited decision
SEED = 12
POLICY = "expert"
started = time.perf_counter()
print(f"RUMMY_WORLDS = {{WORLDS}}, RUMMY_AUDIT = {{AUDIT}}, RUMMY_DEALS = {{DEALS}}, seed = {{SEED}}")'''),
    ("md", """## Finding the two situations

300 deals of `expert` in every seat are recorded by the engine (deal logs, as `rummy-sim log
expert --deals 300 --seed 12` writes them). The deep take is, among the takes at depth 5 or more, the
one with the most legal draws to compare; the joker decision is the first at which a seat able
to meld three jokers kept them (stopped playing) with more than 5 cards in the stock."""),
    ("code", '''game = get_game("persian")
logs = game.record_logs(["expert", "expert"], 300, SEED)

def deep_take(logs, min_depth=5):
    """Among the draws where a seat took at depth >= min_depth (else the deepest take made), the one
    with the most legal draws to compare."""
    takes = [(log, t, turn["draw"]["depth"]) for log in logs for t, turn in enumerate(log["turns"], 1)
             if isinstance(turn["draw"], dict) and "depth" in turn["draw"]]
    deep = [x for x in takes if x[2] >= min_depth] or [max(takes, key=lambda x: x[2])]
    decs = [(P.decision_from_log(log, t, "draw"), log, t, d) for log, t, d in deep[:60]]
    return max(decs, key=lambda x: len(x[0].rows))

def joker_hold(logs):
    """The first decision where a seat that can meld JK JK JK keeps them (stops playing) with the stock
    still above 5 cards, else the first where it melds or keeps them at all."""
    fallback = None
    for log in logs:
        if not any(p.get("meld", [None]).count("JK") >= 3 for t in log["turns"] for p in t["plays"]):
            continue
        for dec in P.decisions_in(log, ["play"]):
            labels = dec.labels()
            if "meld JK JK JK" not in labels:
                continue
            played = labels[dec.played]
            if played.startswith("stop") and dec.situation()["stock"] > 5:
                return log, dec.turn, dec
            if fallback is None and (played.startswith("stop") or played == "meld JK JK JK"):
                fallback = (log, dec.turn, dec)
    return fallback

take, log_take, turn_take, depth = deep_take(logs)
found = joker_hold(logs)
log_hold, turn_hold, hold = found
print(f"deep take: deal {log_take['deal']}, turn {turn_take}, depth {depth}")
print(f"joker hold: deal {log_hold['deal']}, turn {turn_hold}")'''),
    ("md", """## 1. A deep take

The seat's view and every legal draw, each played in the same sampled worlds; the table is
sorted best first. `diff_vs_best` is paired (same worlds), `p_best` the probability of being
best (Bayesian bootstrap over worlds). The race eliminates a move once it is separated from
the leader (Bonferroni over rivals and looks), so weak moves use fewer worlds."""),
    ("code", '''s = take.situation()
print(s["title"]); print("hand:", " ".join(s["hand"])); print("pile, top first:", " ".join(s["pile_top_first"]))
print("table:", s["table"]); print("stock:", s["stock"], " hand sizes:", s["hand_sizes"], " played:", s["played"])
a_take = P.analyze(take, samples=WORLDS, policy=POLICY, seed=SEED)
display(a_take.display_frame())
print(f"{a_take.worlds} worlds, {a_take.seconds:.1f} s; assumptions: {a_take.assumptions['sampler']}")'''),
    ("code", '''fig = a_take.figure(title=f"Deep take, deal {log_take['deal']} turn {turn_take}: every draw vs the best")'''),
    ("md", """## 2. Three jokers: meld now or wait for the fourth?

Four jokers melded at once score 160, three 60 (P8). Holding them risks being caught with 60
points in hand. The candidates are every legal play at the first play decision of the turn
(meld the jokers, the other melds and lay-offs, or stop); after it `expert` plays on."""),
    ("code", '''s = hold.situation()
print(s["title"]); print("hand:", " ".join(s["hand"])); print("pile, top first:", " ".join(s["pile_top_first"]))
print("table:", s["table"]); print("stock:", s["stock"], " hand sizes:", s["hand_sizes"], " played:", s["played"])
a_hold = P.analyze(hold, samples=WORLDS, policy=POLICY, seed=SEED)
display(a_hold.display_frame())
fig = a_hold.figure(title=f"Joker hold, deal {log_hold['deal']} turn {turn_hold}: every play vs the best")'''),
    ("md", """## 3. Auditing `expert`: takes and holds

`audit` plays `DEALS` deals of `expert` in every seat, collects its take decisions (draws with a
legal take) and its hold decisions (the moment a seat able to meld three of a kind melds them or
stops playing, keeping them), analyses a random sample of each with `AUDIT_WORLDS` worlds, and records whether
its choice was the best and the points lost, with the situation's features."""),
    ("code", '''au_take = audit("expert", "take", deals=DEALS, sample=AUDIT, samples=AUDIT_WORLDS, seed=SEED)
au_hold = audit("expert", "hold", deals=DEALS, sample=AUDIT, samples=AUDIT_WORLDS, seed=SEED)
for au in (au_take, au_hold):
    s = au.summary()
    print(f"{au.setup['kind']}: {au.found} found, {s['decisions']} analysed; chose the best "
          f"{s.get('chose_best', float('nan')):.0%}; mean loss {s.get('mean_loss', float('nan')):.2f} points")
for feat in ["deepest_take", "chosen_depth", "stock", "opp_min_hand"]:
    display(summarize(au_take.frame, feat).round(3))'''),
    ("code", '''fig = audit_figure(au_take, ["deepest_take", "stock", "opp_min_hand"])'''),
    ("code", '''for feat in ["three_value", "fourth", "stock", "melded_three"]:
    display(summarize(au_hold.frame, feat).round(3))
fig = audit_figure(au_hold, ["three_value", "fourth", "stock"])'''),
    ("md", """## Answer

Every sentence below is computed from the analyses above (95% CIs; "significantly" means
the paired CI excludes 0)."""),
    ("code", '''def ci(lo, hi):
    return f"{lo:+.1f} to {hi:+.1f}"

def verdict(a, what):
    f, b, p = a.frame, a.best, a.played
    others = f[~f["best"]].sort_values("diff_vs_best", ascending=False)
    if p["best"]:
        if others.empty:
            return f"{what}: only one move was compared."
        r = others.iloc[0]
        lo, hi = r["diff_vs_best_ci95"]
        if r["diff_vs_best"] == 0 and lo == hi == 0:
            return (f"{what}: the move played ({p['move']}) ties exactly with {r['move']} in every world "
                    f"({p['mean']:+.1f} points): after it the policy reaches the same end either way.")
        return (f"{what}: the move played ({p['move']}) was the best, {p['mean']:+.1f} points on average; the next "
                f"best ({r['move']}) is {-r['diff_vs_best']:.1f} points worse (95% CI {ci(-hi, -lo)}), "
                + ("a significant margin." if hi < 0 else "not significantly worse at this number of worlds."))
    lo, hi = p["diff_vs_best_ci95"]
    return (f"{what}: the best move was {b['move']} ({b['mean']:+.1f} points, P(best) {b['p_best']:.2f}); the move "
            f"played ({p['move']}) was {-p['diff_vs_best']:.1f} points worse (95% CI {ci(-hi, -lo)}), "
            + ("significantly." if hi < 0 else "which is not significant at this number of worlds."))

def bins(au, min_n=5):
    rows = []
    for feat in FEATURES[au.setup["kind"]]:
        t = summarize(au.frame, feat)
        for _, r in t[t["decisions"] >= min_n].iterrows():
            rows.append((feat, r))
    return rows

def losing_rules(au, label):
    sig = sorted([(f, r) for f, r in bins(au) if r["loss_low"] > 0], key=lambda x: -x[1]["mean_loss"])
    if not sig:
        return f"No situation bin of its {label} shows a loss distinguishable from 0 at this sample size."
    parts = [f"{f} = {r[f]} ({r['mean_loss']:.1f} points lost per decision, 95% CI {r['loss_low']:.1f} to "
             f"{r['loss_high']:.1f}, n = {int(r['decisions'])}, best chosen {r['chose_best']:.0%})" for f, r in sig[:4]]
    return f"Its {label} lose significantly when " + "; when ".join(parts) + "."

def safe_rule(au, label):
    b = [(f, r) for f, r in bins(au, 8)]
    if not b:
        return None
    f, r = max(b, key=lambda x: x[1]["chose_best_low"])
    return (f"It is most reliable at {label} with {f} = {r[f]}: best chosen in {r['chose_best']:.0%} "
            f"(95% CI {r['chose_best_low']:.0%} to {r['chose_best_high']:.0%}, n = {int(r['decisions'])}).")

lines = [verdict(a_take, f"Deep take (depth {depth})"), verdict(a_hold, "Three jokers")]
for au, label in ((au_take, "takes"), (au_hold, "holds")):
    s = au.summary()
    if not s["decisions"]:
        lines.append(f"No {label} decisions were found in {DEALS} deals.")
        continue
    lines.append(f"Audit of expert's {label}: its choice was the best in {s['chose_best']:.0%} of {s['decisions']} "
                 f"decisions (95% CI {s['chose_best_ci95'][0]:.0%} to {s['chose_best_ci95'][1]:.0%}); it lost "
                 f"{s['mean_loss']:.2f} points per decision (95% CI {s['mean_loss_ci95'][0]:.2f} to "
                 f"{s['mean_loss_ci95'][1]:.2f}), and was significantly worse than the best in "
                 f"{s['significantly_worse']:.0%} of them.")
    lines.append(direction(au))
    lines.append(losing_rules(au, label))
    rule = safe_rule(au, label)
    if rule:
        lines.append(rule)
for line in lines:
    print("-", line)
print(f"(worlds sampled from the deciding seat's view only, no inference from opponents' past choices; "
      f"expert plays every seat in the play-outs; run time {time.perf_counter() - started:.0f} s)")'''),
]


def build(name: str = NAME, cells: list[tuple[str, str]] = CELLS) -> Path:
    """Write notebooks/<name>.ipynb from ``cells`` (this notebook's by default), unexecuted; also
    used by build_indian_decisions.py."""
    import nbformat  # here, not at the top: it costs seconds, and --help or a bad argument needs none of it
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    nb = new_notebook()
    nb.metadata["kernelspec"] = dict(KERNEL)
    nb.cells = [new_markdown_cell(src) if kind == "md" else new_code_cell(src) for kind, src in cells]
    path = HERE / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


def execute(path: Path, timeout: int = 7200) -> float:
    """Run the notebook in place with nbclient (outputs kept); returns the seconds it took."""
    import time

    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    t0 = time.perf_counter()
    NotebookClient(nb, timeout=timeout, kernel_name=KERNEL["name"],
                   resources={"metadata": {"path": str(HERE.parent)}}).execute()
    secs = time.perf_counter() - t0
    nbformat.write(nb, path)
    return secs


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=f"Build notebooks/{NAME}.ipynb from its cell sources "
                                                 "(unexecuted unless --execute).")
    parser.add_argument("--execute", action="store_true",
                        help="also execute it in place (sizes from RUMMY_WORLDS, RUMMY_AUDIT, RUMMY_DEALS)")
    args = parser.parse_args()  # before anything is written: --help or a bad argument writes nothing
    out = build()
    print(out)
    if args.execute:
        print(f"executed in {execute(out):.0f} s")
