"""Build notebooks/09_indian_decisions.ipynb (Indian decision analysis and --infer, issue 24) from the cells below.

    .venv/bin/python notebooks/build_indian_decisions.py             # rewrites the notebook, unexecuted
    .venv/bin/python notebooks/build_indian_decisions.py --execute   # ... and executes it in place (nbclient)

Sizes from the environment (RUMMY_WORLDS worlds per analysed decision, RUMMY_AUDIT decisions
per audit, RUMMY_DEALS deals recorded and played by each audit). The helper functions of its
cells live in notebooks/indian_decisions_cells.py (tests/indian/test_notebook_decisions.py
checks them without executing the notebook). Every sentence of its "Answer" is computed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import build_decisions  # noqa: E402  (its build and execute write and run this notebook too)

NAME = "09_indian_decisions"
DEFAULTS = {"RUMMY_WORLDS": 600, "RUMMY_AUDIT": 40, "RUMMY_DEALS": 60}
RUN_TIME = "see the last cell (the measured seconds, at the defaults of the first code cell, nice 19 on the shared 2-core machine)"

CELLS: list[tuple[str, str]] = [
    ("md", f"""# 09 · Indian Rummy decisions: drop or play on? take the top discard? and reading the opponents

One situation at a time: the deciding seat's view (RULES.md I9) is kept, the hidden cards are sampled
consistently with it, every legal move is played in the same sampled worlds and the deal is played
out by `expert` in every seat (a score is the seat's net points of the deal, I6). Then `expert` is
audited (where do its drops and pickups lose points?), and `--infer expert` reweights the worlds by
how likely they make the opponents' recorded choices, on one Persian and one Indian decision.

*Run time: {RUN_TIME}.*

Rerun: `.venv/bin/python notebooks/build_indian_decisions.py --execute`. Command-line equivalents:
`rummy-sim analyze --game indian LOG.jsonl --deal K --turn T --decision drop [--infer expert]` and
`rummy-sim audit expert --game indian --decision drop|pickup --deals N --out DIR`."""),
    ("code", f'''import os
import sys
import time

from IPython.display import display

sys.path.insert(0, "notebooks")
from indian_decisions_cells import find_drop, find_pickup, late_discard, verdict, infer_effect, losing_bins
from sim.present import charts
from sim.games import get_game
from sim.games.indian import decisions as I
from sim.games.indian.audit import audit, audit_figure, direction, summarize
from sim.games.persian import decisions as P

charts.use_style()
WORLDS = int(os.environ.get("RUMMY_WORLDS", "{DEFAULTS['RUMMY_WORLDS']}"))  # worlds per analysed decision
AUDIT = int(os.environ.get("RUMMY_AUDIT", "{DEFAULTS['RUMMY_AUDIT']}"))     # decisions analysed per audit
DEALS = int(os.environ.get("RUMMY_DEALS", "{DEFAULTS['RUMMY_DEALS']}"))     # deals recorded / played per audit
AUDIT_WORLDS = max(20, WORLDS // 5)
INFER_WORLDS = 3 * WORLDS  # the weights are steep: more worlds for the --infer comparison
SEED = 9
POLICY = "expert"
started = time.perf_counter()
print(f"RUMMY_WORLDS = {{WORLDS}}, RUMMY_AUDIT = {{AUDIT}}, RUMMY_DEALS = {{DEALS}}, seed = {{SEED}}")'''),
    ("md", """## 1. A drop and a pickup from engine deals

`DEALS` 4-seat deals of `expert` are recorded (as `rummy-sim log --game indian expert expert expert
expert --deals N --seed 9` writes them). The drop decision is the first at which a seat dropped (else the
first draw decision with a drop legal); the pickup the first at which a seat took the top discard."""),
    ("code", '''logs = get_game("indian").record_logs([POLICY] * 4, DEALS, SEED)
drop, pickup = find_drop(logs), find_pickup(logs)
results = {}
for name, dec in (("drop", drop), ("pickup", pickup)):
    s = dec.situation()
    print(s["title"], "| hand:", " ".join(s["hand"]), "| pile top:", (s["pile_top_first"] or ["-"])[0],
          "| played:", s["played"])
    a = I.analyze(dec, samples=WORLDS, policy=POLICY, seed=SEED)
    results[name] = a
    display(a.display_frame())
fig = results["pickup"].figure(title="Pickup decision: every draw vs the best")'''),
    ("md", """## 2. Auditing `expert`: drops and pickups

`audit` plays `DEALS` deals of `expert` in every seat, samples `AUDIT` of its drop decisions (a drop
legal) and of its pickup decisions (the top discard takeable; with drops allowed these are mostly the same
draw decisions, so each is sampled with its own seed), analyses each with `AUDIT_WORLDS` worlds
and breaks the points lost down by features a player reads (deadwood, jokers, pure run held, table
size, turn, opponents' pickups)."""),
    ("code", '''# every draw decision is both kinds when a drop is legal and the pile is not empty: two seeds, two samples
audits = {k: audit("expert", k, deals=DEALS, sample=AUDIT, samples=AUDIT_WORLDS, seed=SEED + i)
          for i, k in enumerate(("drop", "pickup"))}
for kind, au in audits.items():
    s = au.summary()
    print(f"{kind}: {au.found} found, {s['decisions']} analysed; best chosen {s.get('chose_best', float('nan')):.0%}; "
          f"mean loss {s.get('mean_loss', float('nan')):.2f} points")
    for feat in ("deadwood", "jokers", "pure_run"):
        display(summarize(au.frame, feat).round(3))
fig = audit_figure(audits["drop"], ["deadwood", "jokers", "turn"])'''),
    ("md", """## 3. Reading the opponents: `--infer expert`

A decision about a third into a deal (several choices to read, not so many that the weights
collapse), analysed on the same worlds without and with the weights: each weighted by how likely `expert` (with tremble 0.5: any legal move with
probability 0.5) makes the other seats' recorded draws, drops and discards (Persian: draws and
discards). The effective sample size (ESS) says how many uniform worlds the weighted ones are worth;
below 10 the analysis refuses (then we print that, no fallback). `INFER_WORLDS` (3 x `WORLDS`) worlds here."""),
    ("code", '''plogs = get_game("persian").record_logs(["expert", "expert"], 6, SEED)
effects = {}
# Indian deals are short and every discard read has up to 28 moves: a decision a fifth into the deal
for game, mod, dec in (("persian", P, late_discard(plogs, P, "discard")), ("indian", I, late_discard(logs, I, "discard", 0.2))):
    effects[game] = infer_effect(mod, dec, INFER_WORLDS, POLICY, SEED)
    e = effects[game]
    print(f"{game}: " + (f"{dec.where}: " if e["on"] is not None else "") + e["text"])
    if e["on"] is not None:
        display(e["table"].round(2))'''),
    ("md", """## Answer

Every sentence is computed from the results above (95% CIs; "significantly": the paired CI excludes 0)."""),
    ("code", '''lines = [verdict(results["drop"], "Drop decision"), verdict(results["pickup"], "Pickup decision")]
for kind, au in audits.items():
    s = au.summary()
    if not s["decisions"]:
        lines.append(f"No {kind} decisions of expert were found in {DEALS} deals.")
        continue
    lines.append(f"Audit of expert's {kind} decisions: best chosen in {s['chose_best']:.0%} of {s['decisions']} "
                 f"(95% CI {s['chose_best_ci95'][0]:.0%} to {s['chose_best_ci95'][1]:.0%}); {s['mean_loss']:.2f} points "
                 f"lost per decision (95% CI {s['mean_loss_ci95'][0]:.2f} to {s['mean_loss_ci95'][1]:.2f}).")
    lines.append(direction(au))
    lines.append(losing_bins(au, kind, summarize))
for game, e in effects.items():
    lines.append(f"--infer on the {game} decision: {e['answer']}")
for line in lines:
    print("-", line)
print(f"(expert plays every seat in the play-outs; run time {time.perf_counter() - started:.0f} s)")'''),
]


def build() -> Path:
    return build_decisions.build(NAME, CELLS)


execute = build_decisions.execute


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=f"Build notebooks/{NAME}.ipynb (unexecuted unless --execute).")
    parser.add_argument("--execute", action="store_true", help="also execute it in place")
    args = parser.parse_args()
    out = build()
    print(out)
    if args.execute:
        print(f"executed in {execute(out):.0f} s")
