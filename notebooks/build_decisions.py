"""Build notebooks/08_decisions.ipynb (decision analysis, issue 12) from the cell sources below.

    .venv/bin/python notebooks/build_decisions.py          # rewrites the notebook, unexecuted
    .venv/bin/jupyter nbconvert --to notebook --execute --inplace notebooks/08_decisions.ipynb

Its sizes come from the environment (RUMMY_WORLDS worlds per analysed decision,
RUMMY_AUDIT decisions per audit, RUMMY_DEALS deals played by each audit); the test
(tests/test_notebook_decisions.py) runs it with tiny ones. Every sentence of its
"Answer" section is computed from the numbers shown above it.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
NAME = "08_decisions"
DEFAULTS = {"RUMMY_WORLDS": 1000, "RUMMY_AUDIT": 60, "RUMMY_DEALS": 60}
RUN_TIME = "about 9 minutes on the 2-core development machine at the defaults below (the committed outputs)"

CELLS: list[tuple[str, str]] = [
    ("md", f"""# 08 · Decisions: was that deep take right? should I hold these jokers?

Notebooks 02 and 03 answer these questions for whole policies (a sweep of `max_depth`,
`hold_jokers` on or off). Here they are asked about **one situation at a time**: the
deciding seat's view (RULES.md P10) is kept, the hidden cards are sampled consistently
with it, every legal move is played in the same sampled worlds and the deal is played
out by `expert` in every seat. Then `expert` itself is audited: in which situations do
its takes and its holds lose points?

*Run time: {RUN_TIME}.*

Command-line equivalents: `rummy-sim analyze LOG.jsonl --deal K --turn T [--decision play]`
and `rummy-sim audit expert --decision take|hold --deals N --out DIR`."""),
    ("code", f'''import os
import time

import numpy as np
import pandas as pd
from IPython.display import display

from sim import charts
from sim.analysis import persian as P
from sim.analysis.persian_audit import audit, audit_figure, summarize, FEATURES
from sim.games import get_game

charts.use_style()
WORLDS = int(os.environ.get("RUMMY_WORLDS", "{DEFAULTS['RUMMY_WORLDS']}"))  # worlds per analysed decision
AUDIT = int(os.environ.get("RUMMY_AUDIT", "{DEFAULTS['RUMMY_AUDIT']}"))     # decisions analysed per audit
DEALS = int(os.environ.get("RUMMY_DEALS", "{DEFAULTS['RUMMY_DEALS']}"))     # deals each audit plays
AUDIT_WORLDS = max(20, WORLDS // 4)                     # worlds per audited decision
SEED = 12
POLICY = "expert"
started = time.perf_counter()
print(f"RUMMY_WORLDS = {{WORLDS}}, RUMMY_AUDIT = {{AUDIT}}, RUMMY_DEALS = {{DEALS}}, seed = {{SEED}}")'''),
    ("md", """## Finding the two situations

300 deals of `expert` in every seat are recorded by the engine (deal logs, as `rummy-sim log
expert --deals 300 --seed 12` writes them). The deep take is the deepest take any seat made;
the joker decision is the first play decision in which a seat could meld three jokers."""),
    ("code", '''game = get_game("persian")
logs = game.record_logs(["expert", "expert"], 300, SEED)

def deepest_take(logs):
    best = None
    for log in logs:
        for t, turn in enumerate(log["turns"], 1):
            d = turn["draw"]
            if isinstance(d, dict) and "depth" in d and (best is None or d["depth"] > best[2]):
                best = (log, t, d["depth"])
    return best

def joker_hold(logs):
    """The first play decision where the seat to move can meld JK JK JK (three jokers)."""
    for log in logs:
        if not any(p.get("meld", [None]).count("JK") >= 3 for t in log["turns"] for p in t["plays"]):
            continue
        for dec in P.decisions_in(log, ["play"]):
            if "meld JK JK JK" in dec.labels():
                return log, dec.turn, dec
    return None

log_take, turn_take, depth = deepest_take(logs)
take = P.decision_from_log(log_take, turn_take, "draw")
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
cols = ["move", "mean", "ci95", "diff_vs_best", "diff_vs_best_ci95", "diff_vs_played", "p_best", "samples"]
display(a_take.frame[cols].round(2))
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
display(a_hold.frame[cols].round(2))
fig = a_hold.figure(title=f"Joker hold, deal {log_hold['deal']} turn {turn_hold}: every play vs the best")'''),
    ("md", """## 3. Auditing `expert`: takes and holds

`audit` plays `DEALS` deals of `expert` in every seat, collects its take decisions (draws with a
legal take) and its hold decisions (the first play decision of a turn with a three of a kind it
could meld), analyses a random sample of each with `AUDIT_WORLDS` worlds, and records whether
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
    ("code", '''for feat in ["three", "fourth", "stock", "melded_three"]:
    display(summarize(au_hold.frame, feat).round(3))
fig = audit_figure(au_hold, ["three", "fourth", "stock"])'''),
    ("md", """## Answer

Every sentence below is computed from the analyses above (95% CIs; "significantly" means
the paired CI excludes 0)."""),
    ("code", '''def ci(v):
    return f"{v[0]:+.1f} to {v[1]:+.1f}"

def verdict(a, what):
    b, p = a.best, a.played
    if p["best"]:
        rival = a.frame[~a.frame["best"]].iloc[0]
        sig = rival["diff_vs_best_ci95"][1] < 0
        return (f"{what}: the move played ({p['move']}) was the best, {p['mean']:+.1f} points on average; the next "
                f"best ({rival['move']}) is {-rival['diff_vs_best']:.1f} points worse (95% CI {ci([-rival['diff_vs_best_ci95'][1], -rival['diff_vs_best_ci95'][0]])}), "
                + ("a significant margin." if sig else "not significantly worse at this number of worlds."))
    lo, hi = p["diff_vs_best_ci95"]
    sig = hi < 0
    return (f"{what}: the best move was {b['move']} ({b['mean']:+.1f} points, P(best) {b['p_best']:.2f}); the move "
            f"played ({p['move']}) was {-p['diff_vs_best']:.1f} points worse (95% CI {ci([-hi, -lo])}), "
            + ("significantly." if sig else "which is not significant at this number of worlds."))

def worst_bin(au, feat):
    t = summarize(au.frame, feat)
    t = t[t["decisions"] >= 3]
    if t.empty:
        return None
    r = t.sort_values("mean_loss", ascending=False).iloc[0]
    sig = r["loss_low"] > 0
    return (f"{feat} = {r[feat]}: {r['mean_loss']:.2f} points lost per decision (95% CI {r['loss_low']:.2f} to "
            f"{r['loss_high']:.2f}, n = {int(r['decisions'])}, best chosen {r['chose_best']:.0%})"
            + ("" if sig else " - not distinguishable from 0"))

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
    bins = [w for w in (worst_bin(au, f) for f in FEATURES[au.setup["kind"]]) if w]
    if bins:
        lines.append(f"Where its {label} lose most, feature by feature: " + "; ".join(bins) + ".")
for line in lines:
    print("-", line)
print(f"(worlds sampled from the deciding seat's view only, no inference from opponents' past choices; "
      f"expert plays every seat in the play-outs; run time {time.perf_counter() - started:.0f} s)")'''),
]


def build() -> Path:
    nb = new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [new_markdown_cell(src) if kind == "md" else new_code_cell(src) for kind, src in CELLS]
    path = HERE / f"{NAME}.ipynb"
    nbformat.write(nb, path)
    return path


if __name__ == "__main__":
    print(build())
