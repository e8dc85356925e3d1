"""Build notebooks/06_indian_drop and 07_indian_field (Indian Rummy, issue 10) from the cell sources below.

    .venv/bin/python notebooks/build_indian.py            # rewrites both notebooks, unexecuted
    .venv/bin/python notebooks/build_indian.py --execute  # also executes them at their documented deal
                                                          # counts and states each run time

The same conventions as notebooks/build_notebooks.py (both use notebooks/_cells.py): the deal count
comes from RUMMY_DEALS, the seed is fixed in the first code cell, long cells show a progress
bar, every chart has 95% intervals and the last cell writes the Answer from the numbers.
tests/test_notebooks_indian.py runs both with small deal counts.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _cells import RUNTIME, RUNTIME_PREFIX, execute, main, rerun, setup, write_notebooks  # noqa: E402, F401

NOTEBOOKS: dict[str, list[tuple[str, str]]] = {}

# ---------------------------------------------------------------------------------------------
NOTEBOOKS["06_indian_drop"] = [
    ("md", """# 06 Indian Rummy: when should I drop?

Before its first draw a player may drop out of the deal for 20 points (first drop); later it costs 40
(middle drop); a hand caught by a valid declaration loses its deadwood, at most 80 (RULES.md I6, I7).
**Question:** which dealt hands are worth less than the 20 points a first drop costs, as a rule a player
can remember (by what the hand holds and by the number of players), and what is the middle drop worth?

**Experiment.**
1. *Play or drop, by hand.* `greedy` plays every seat at 2 to 6 players. Every seat's dealt 13 cards are
   recomputed from (seed, deal index) (`sim.games.indian.features.dealt_features`: the engine's deal and
   exact deadwood solver) and described by what a player sees before drawing: jokers held (printed or wild),
   a pure run of three held, and the deadwood (as the engine counts it: all the cards' points while no I5
   arrangement exists, so for most dealt hands their points). The expected points of **playing** a hand
   are the mean net points of the seats dealt such hands (95% t-intervals over hands; the seats of one deal
   are not independent, their points sum to zero, so the intervals are approximate); **dropping** costs exactly 20,
   whatever happens afterwards, so drop minus play needs no second run.
2. *The rule on duplicate deals.* The rule the data give (drop a hand without a joker) is `dropper`'s
   `need_joker` (`dropper:need_pure=false,need_joker=true,first_drop_deadwood=200,pure_saves_upto=0`, no other
   first drop),
   played against a field of `greedy` at 2, 4 and 6 players, every deal once per seat (docs/results.md).
3. *The middle drop.* The same player with a middle drop added (after 6 of its turns, when its deadwood
   is still above 60 or 40), compared with itself without one on the same deals (paired).
4. *Against strong play.* Parts 1-3 again with `learned` (the strongest fast built-in, fitted by search and
   imitation: about +7 points per deal over `expert` at 4 players) as the field beside `greedy`, at 2, 4 and 6
   players: in part 1 `greedy` plays one seat (each seat in turn, every deal) and `learned` the others; in
   parts 2-3 the same sweeps with `--vs learned`, and `greedy` against the same learned field on the same deals,
   so that the rule's value (the rule minus plain greedy) is paired deal by deal in both fields. At 2 players
   `learned` plays `expert`'s moves (its model was fitted at 4 players and lost heads-up), so a 2-player
   figure against learned is one against expert. Same deal counts as parts 1-3 (learned plays about 2,600-6,600
   deals/s with greedy at one seat, greedy about 4,300-5,600: this part takes about as long as parts 1-3).

""" + rerun("06_indian_drop", 6_000) + """

Seed **2606**. Command-line equivalent of parts 2 and 3, at 4 players:
`rummy-sim sweep "dropper:need_pure=false,need_joker=true,first_drop_deadwood=200,pure_saves_upto=0,middle_drop_turn=6"
--vary middle_drop_deadwood=200,60,40 --vs greedy --game indian --players 4 --deals $((RUMMY_DEALS / 3)) --seed 2606`.
Against learned (part 4): the same sweep with `--vs learned`, and the baseline
`rummy-sim match greedy learned --game indian --players 4 --deals $((RUMMY_DEALS / 3)) --seed 2606`; part 4's hands
come from `sim.games.indian.engine.run_deals(["greedy", "learned", "learned", "learned"], DEALS, 2606)` (Python; greedy
in each seat in turn).
The committed report `reports/indian_drop_sweep/` sweeps the first-drop deadwood threshold at 4 players
over 1,000,000 plays."""),
    ("md", RUNTIME),
    ("code", setup(6_000, 2606, '''
from tqdm.auto import tqdm

from sim.games.indian.engine import results_frame, run_deals
from sim.games.indian.features import dealt_features
from sim.games.indian.rules import RuleOptions

PLAYERS = [2, 3, 4, 5, 6]
CHECK_PLAYERS = [2, 4, 6]                 # duplicate matches of the rule and of the middle drop
SWEEP_DEALS = max(DEALS // 3, 20)         # deal indices per duplicate sweep
FIRST_DROP, MIDDLE_DROP = RuleOptions().first_drop, RuleOptions().middle_drop   # I7: 20 and 40
MIN_HANDS = 30                            # a hand class with fewer hands is not used for the rule
EDGES = [0, 50, 60, 70, 80, 90, 100, 131]   # deadwood bins (a hand counts at most 13 x 10 points)
JOKER_CLASSES = ["no joker", "1 joker", "2+ jokers"]
RULE_SPEC = "dropper:need_pure=false,need_joker=true,first_drop_deadwood=200,pure_saves_upto=0,middle_drop_turn=6"
MIDDLE = [200, 60, 40]                    # middle_drop_deadwood; 200 = never (a hand has at most 130)
STRONG = "learned"                        # part 4's field (at 2 players it plays expert's moves)''')),
    ("code", """rate = estimate(X.sweep(RULE_SPEC, [("middle_drop_deadwood", MIDDLE)], "greedy", SWEEP_DEALS, SEED,
                       game="indian", players=4))
rate_l = estimate(X.sweep(RULE_SPEC, [("middle_drop_deadwood", MIDDLE)], STRONG, SWEEP_DEALS, SEED,
                          game="indian", players=4))"""),
    ("md", """## 1. Playing a hand against dropping it
`greedy` at every seat; each seat's dealt hand joined to its net points in that deal (a deal's rows are
its index, so `net[deal, seat]`)."""),
    ("code", """def hand_frame(parts):
    \"\"\"Every seat's dealt hand with its net points (frames of dealt_features + net, players), classed.\"\"\"
    hands = pd.concat(parts, ignore_index=True)
    hands["joker_class"] = pd.Categorical.from_codes(np.minimum(hands["jokers"], 2), JOKER_CLASSES)
    hands["pure"] = np.where(hands["pure_run"] == 1, "pure run", "no pure run")
    hands["dw_bin"] = pd.cut(hands["deadwood"], EDGES, right=False)
    return hands

t0 = time.perf_counter()
parts = []
for p in tqdm(PLAYERS, desc="greedy at every seat"):
    res = results_frame(run_deals(["greedy"] * p, DEALS, SEED))
    assert (res["deal"].to_numpy() == np.arange(DEALS)).all()
    net = res[[f"net_s{s}" for s in range(p)]].to_numpy()
    f = dealt_features(SEED, DEALS, p)
    f["net"] = net[f["deal"].to_numpy(), f["seat"].to_numpy()]
    f["players"] = p
    parts.append(f)
hands = hand_frame(parts)
print(f"{len(hands):,} dealt hands ({DEALS:,} deals at each of {PLAYERS} players) in {time.perf_counter() - t0:.0f} s")
print(f"deadwood below the hand's points (an I5 arrangement already dealt): "
      f"{pct((hands['deadwood'] < hands['points']).mean())} of hands")
hands.groupby("players")[["deadwood", "points", "pure_run", "jokers", "net"]].mean().round(2)"""),
    ("code", """def play_stats(g):
    m, lo, hi = charts.mean_ci(g["net"])
    return pd.Series({"hands": len(g), "play": m, "play_low": lo, "play_high": hi})

def class_tables(hands):
    \"\"\"(by_class, by_bin): the points of playing a hand per table size and class, and per deadwood bin too.\"\"\"
    by_class = (hands.groupby(["players", "joker_class", "pure"], observed=True)
                .apply(play_stats, include_groups=False).reset_index())
    by_class["share"] = by_class["hands"] / by_class.groupby("players")["hands"].transform("sum")
    by_class["drop_minus_play"] = -FIRST_DROP - by_class["play"]
    by_class["better"] = np.select([by_class["play_high"] < -FIRST_DROP, by_class["play_low"] > -FIRST_DROP],
                                   ["drop", "play"], "too close to call")
    by_bin = (hands.groupby(["players", "joker_class", "pure", "dw_bin"], observed=True)
              .apply(play_stats, include_groups=False).reset_index())
    return by_class, by_bin

by_class, by_bin = class_tables(hands)
print(f"Expected net points of playing a dealt hand (greedy in a greedy field), 95% CI; a first drop costs "
      f"{FIRST_DROP} (drop - play = -{FIRST_DROP} - play):")
by_class.round(2)"""),
    ("md", """Each panel: one table size. The points of playing a hand against its deadwood, by jokers held
(color) and pure run (filled: held; hollow: not held), 95% CIs; the dashed line is the first drop's
-20: below it, dropping loses less. Bottom right: every hand of a class, by table size."""),
    ("code", """fig, axes = charts.figure(2, 3, height=8.2, width=15, sharey=False)
mids = {iv: (iv.left + iv.right) / 2 for iv in by_bin["dw_bin"].cat.categories}
for ax, p in zip(axes.ravel(), PLAYERS):
    sub = by_bin[(by_bin["players"] == p) & (by_bin["hands"] >= MIN_HANDS)]
    for j, jc in enumerate(JOKER_CLASSES):
        for k, pure in enumerate(["pure run", "no pure run"]):
            s = sub[(sub["joker_class"] == jc) & (sub["pure"] == pure)]
            if s.empty:
                continue
            x = np.array([mids[iv] for iv in s["dw_bin"]]) + (k - 0.5) * 1.6
            st = charts.series_style(j)
            ax.errorbar(x, s["play"], yerr=charts._yerr(s["play"], s["play_low"], s["play_high"]), fmt=st["marker"],
                        color=st["color"], mfc=st["color"] if k == 0 else "white", capsize=2, ms=5, lw=1,
                        label=f"{jc}, {pure}")
    ax.axhline(-FIRST_DROP, color="black", ls="--", lw=1)
    ax.set(title=f"{p} players", xlabel="dealt deadwood (points)", ylabel="net points of playing it")
handles = {}
for ax in axes.ravel()[:len(PLAYERS)]:
    for h, l in zip(*ax.get_legend_handles_labels()):
        handles.setdefault(l, h)
fig.legend(list(handles.values()), list(handles.keys()), loc="lower center", ncol=3, fontsize=8,
           bbox_to_anchor=(0.5, -0.06))
ax = axes[1, 2]
for j, jc in enumerate(JOKER_CLASSES):
    for k, pure in enumerate(["pure run", "no pure run"]):
        s = by_class[(by_class["joker_class"] == jc) & (by_class["pure"] == pure)]
        st = charts.series_style(j)
        ax.errorbar(s["players"] + (k - 0.5) * 0.12, s["play"], yerr=charts._yerr(s["play"], s["play_low"],
                    s["play_high"]), fmt=st["marker"] + ("-" if k == 0 else ":"), color=st["color"],
                    mfc=st["color"] if k == 0 else "white", capsize=2, ms=5, lw=1)
ax.axhline(-FIRST_DROP, color="black", ls="--", lw=1)
ax.set(title="every deadwood, by table size", xlabel="players", ylabel="net points of playing it", xticks=PLAYERS)
fig.suptitle("Play or drop? Net points of playing a dealt hand (greedy field) against the first drop's -20, 95% CI",
             fontweight="bold")
fig.tight_layout()"""),
    ("md", """## The rule
For every table size and class of hand (jokers held, pure run held) the deadwood above which
playing is worth less than the drop's -20 (point estimates of the bins with at least 30 hands: drop when
every bin from there on is below -20). "always": even the lowest deadwood is below; "never": the
highest-deadwood bin is still above."""),
    ("code", """def threshold(g):
    g = g[g["hands"] >= MIN_HANDS].sort_values("dw_bin")
    if g.empty:
        return "no data"
    below = (g["play"] < -FIRST_DROP).to_numpy()
    if below.all():
        return "always"
    if not below[-1]:
        return "never"
    last_play = int(np.flatnonzero(~below).max())
    return f"deadwood >= {int(g['dw_bin'].iloc[last_play + 1].left)}"

def rule_card(by_bin):
    \"\"\"The drop threshold of every class of hand (rows) and table size (columns).\"\"\"
    rule = (by_bin.groupby(["players", "joker_class", "pure"], observed=True).apply(threshold, include_groups=False)
            .rename("drop when").reset_index())
    return rule.pivot_table(index=["joker_class", "pure"], columns="players", values="drop when", aggfunc="first",
                            observed=True)

card = rule_card(by_bin)
card"""),
    ("md", """## 2-3. The rule and the middle drop on duplicate deals
For each table size one sweep: the rule "drop every hand without a joker" with no middle drop, and the
same with a middle drop (after 6 of its turns, deadwood still above 60, or above 40), each against a
field of `greedy`; every deal index played once per seat. The middle drop's value is the paired
difference between the player with it and the same player without it."""),
    ("code", """from sim.studies.sweep import play_sweep, sweep_table

def rule_sweeps(field):
    \"\"\"(sweeps, drops): per table size the rule's sweep against ``field`` and the counts of A's drops by kind.\"\"\"
    checks, plays_a = {}, {}
    for p in tqdm(CHECK_PLAYERS, desc=f"duplicate sweeps against {field}"):
        sw = play_sweep(RULE_SPEC, {"middle_drop_deadwood": MIDDLE}, vs=field, deals=SWEEP_DEALS, seed=SEED,
                        game="indian", players=p, keep_plays=True, progress=False)
        checks[p] = sw
        pl = sw.run.plays
        drops = pl[[f"drop_s{s}" for s in range(p)]].to_numpy()
        pl = pl.assign(a_drop=drops[np.arange(len(pl)), pl["a_seat"].to_numpy()])
        plays_a[p] = pl.groupby("pairing")["a_drop"].value_counts().unstack(fill_value=0)
    return checks, plays_a

def check_table(checks, plays_a):
    \"\"\"One row per table size and middle_drop_deadwood: A minus the field, drop shares, the middle drop's value.\"\"\"
    rows = []
    for p, sw in checks.items():
        t = sweep_table(sw.run)
        off = MIDDLE.index(200)
        for i, mdd in enumerate(MIDDLE):
            r = t.iloc[i]
            counts = plays_a[p].loc[i] if i in plays_a[p].index else pd.Series(dtype=float)
            n = counts.sum()
            row = {"players": p, "middle_drop_deadwood": mdd, "vs_field": r["mean_diff"], "vs_field_low": r["ci_low"],
                   "vs_field_high": r["ci_high"], "first_drop_share": counts.get(1, 0) / n,
                   "middle_drop_share": counts.get(2, 0) / n}
            if i != off:
                w = np.zeros(len(MIDDLE))
                w[i], w[off] = 1.0, -1.0
                c = sw.run.totals.contrast(w)
                row.update(middle_value=c["mean_diff"], middle_low=c["ci_low"], middle_high=c["ci_high"],
                           middle_p=c["p_value"])
            rows.append(row)
    return pd.DataFrame(rows)

t0 = time.perf_counter()
checks, plays_a = rule_sweeps("greedy")
print(f"{len(CHECK_PLAYERS)} sweeps x {len(MIDDLE)} points x {SWEEP_DEALS:,} deals x their seats in "
      f"{time.perf_counter() - t0:.0f} s")
check = check_table(checks, plays_a)
check.round(3)"""),
    ("code", """fig, axes = charts.figure(1, 2, height=4.0, width=14)
rule_rows = check[check["middle_drop_deadwood"] == 200]
charts.forest(axes[0], [f"{p} players" for p in rule_rows["players"]], rule_rows["vs_field"],
              rule_rows["vs_field_low"], rule_rows["vs_field_high"], xlabel="points per deal, minus the field's mean")
axes[0].set_title("Drop every hand without a joker, against a greedy field (95% CI)")
mid = check[check["middle_drop_deadwood"] != 200]
labels = [f"{p} players, deadwood > {m}" for p, m in zip(mid["players"], mid["middle_drop_deadwood"])]
charts.forest(axes[1], labels, mid["middle_value"], mid["middle_low"], mid["middle_high"],
              xlabel="points per deal: with the middle drop minus without (paired)")
axes[1].set_title("Value of a middle drop after 6 turns (paired 95% CI)")
fig.tight_layout()"""),
    ("md", """## 4. Against strong play: a field of `learned`
Part 1 again at 2, 4 and 6 players with `greedy` at one seat and `learned` at all the others: every deal is
played once with greedy in each seat, so each dealt hand of part 1 (same seed, same deal indices) is played
once by greedy against a learned field. At 2 players `learned` plays `expert`'s moves (its model was fitted
at 4 players and lost heads-up), so the 2-player panel is a field of expert. Left to right: the points of
playing each class of hand (every deadwood together) against the greedy field (filled) and against the learned
field (hollow), 95% CIs; the dashed line is the first drop's -20. The table is the rule card against learned
(read as the card of part 1)."""),
    ("code", """t0 = time.perf_counter()
parts_l = []
for p in tqdm(CHECK_PLAYERS, desc=f"greedy among {STRONG}"):
    net = np.empty((DEALS, p))
    for s in range(p):
        lineup = [STRONG] * p
        lineup[s] = "greedy"
        res = results_frame(run_deals(lineup, DEALS, SEED))
        assert (res["deal"].to_numpy() == np.arange(DEALS)).all()
        net[:, s] = res[f"net_s{s}"].to_numpy()
    f = dealt_features(SEED, DEALS, p)
    f["net"] = net[f["deal"].to_numpy(), f["seat"].to_numpy()]
    f["players"] = p
    parts_l.append(f)
hands_l = hand_frame(parts_l)
by_class_l, by_bin_l = class_tables(hands_l)
card_l = rule_card(by_bin_l)
print(f"{len(hands_l):,} dealt hands played by greedy against {STRONG} ({DEALS:,} deals x every seat at "
      f"{CHECK_PLAYERS} players) in {time.perf_counter() - t0:.0f} s")

CLASSES = [(jc, pure) for jc in JOKER_CLASSES for pure in ("pure run", "no pure run")]
fig, axes = charts.figure(1, len(CHECK_PLAYERS), height=4.4, width=15, sharey=True)
for ax, p in zip(axes, CHECK_PLAYERS):
    for k, (name, bc) in enumerate([("greedy", by_class), (STRONG, by_class_l)]):
        t = bc[bc["players"] == p].set_index(["joker_class", "pure"])
        keys = [c for c in CLASSES if c in t.index]
        x = np.array([CLASSES.index(c) for c in keys]) + (k - 0.5) * 0.25
        r = t.loc[keys]
        st = charts.series_style(k)
        ax.errorbar(x, r["play"], yerr=charts._yerr(r["play"], r["play_low"], r["play_high"]), fmt=st["marker"],
                    color=st["color"], mfc=st["color"] if k == 0 else "white", capsize=3, ms=6, lw=1.2,
                    label=f"against a {name} field" + (" (expert's moves at 2 players)" if name == STRONG else ""))
    ax.axhline(-FIRST_DROP, color="black", ls="--", lw=1)
    ax.set_xticks(range(len(CLASSES)), [f"{jc}\\n{pure}" for jc, pure in CLASSES], rotation=45, ha="right",
                  fontsize=8)
    ax.set(title=f"{p} players", ylabel="net points of playing it (greedy)")
fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=9, bbox_to_anchor=(0.5, -0.08))
fig.suptitle(f"Play or drop against strong play: greedy's points with a dealt hand, greedy vs {STRONG} field (95% CI)",
             fontweight="bold")
fig.tight_layout()
card_l"""),
    ("md", """### The rule and the middle drop against `learned`
The sweeps of parts 2-3 again against a learned field, and `greedy` itself against the same field on the same
deals (`greedy` scores 0 against its own field, not against learned). **The rule's value** is the rule minus
plain greedy, per deal index: against greedy the rule's margin over the field, against learned the rule's margin
minus greedy's. The middle drop's value is, as before, the player with it minus the same player without it.
Each value is paired by deal index within a field, and the change (learned field minus greedy field) is paired
by deal index too: the two fields' runs share their deals."""),
    ("code", """from sim.studies.match import play_match

t0 = time.perf_counter()
checks_l, plays_l = rule_sweeps(STRONG)
base_l = {p: play_match("greedy", STRONG, deals=SWEEP_DEALS, seed=SEED, game="indian", players=p, progress=False)
          for p in tqdm(CHECK_PLAYERS, desc=f"greedy against {STRONG}")}
print(f"{len(CHECK_PLAYERS)} sweeps x {len(MIDDLE)} points and greedy, x {SWEEP_DEALS:,} deals x their seats, against "
      f"{STRONG} in {time.perf_counter() - t0:.0f} s")
check_l = check_table(checks_l, plays_l)
OFF = MIDDLE.index(200)

def per_deal(sw, i):
    s = sw.run.sets
    return s[s["pairing"] == i].set_index("deal")["diff"]

rows = []
for p in CHECK_PLAYERS:
    base = base_l[p].sets.set_index("deal")["diff"]
    arms = [("drop every hand without a joker", per_deal(checks[p], OFF), per_deal(checks_l[p], OFF) - base)]
    arms += [(f"middle drop, deadwood > {m}", per_deal(checks[p], i) - per_deal(checks[p], OFF),
              per_deal(checks_l[p], i) - per_deal(checks_l[p], OFF)) for i, m in enumerate(MIDDLE) if i != OFF]
    for what, g, l in arms:
        row = {"players": p, "what": what}
        for key, v in (("greedy", g), (STRONG, l), ("change", (l - g).dropna())):
            row[key], row[f"{key}_low"], row[f"{key}_high"] = charts.mean_ci(v)
        rows.append(row)
    m, lo, hi = charts.mean_ci(base)
    rows.append({"players": p, "what": "greedy itself", "greedy": 0.0, STRONG: m, f"{STRONG}_low": lo,
                 f"{STRONG}_high": hi})
values = pd.DataFrame(rows)

shown = values[values["what"] != "greedy itself"]
fig, axes = charts.figure(1, 2, height=4.4, width=15)
for ax, rule_row in zip(axes, (True, False)):
    t = shown[(shown["what"] == "drop every hand without a joker") == rule_row]
    labels = [f"{p} players" + ("" if rule_row else f", {w.split(', ')[1]}") for p, w in zip(t["players"], t["what"])]
    y = np.arange(len(t))[::-1]
    for k, name in enumerate(["greedy", STRONG]):
        st = charts.series_style(k)
        ax.errorbar(t[name], y + (0.5 - k) * 0.25, xerr=charts._yerr(t[name], t[f"{name}_low"], t[f"{name}_high"]),
                    fmt=st["marker"], color=st["color"], mfc=st["color"] if k == 0 else "white", capsize=3, ms=6,
                    label=f"against a {name} field" + (" (expert's moves at 2 players)" if name == STRONG else ""))
    ax.set_yticks(y, labels)
    ax.axvline(0, color="grey", lw=0.8)
    ax.grid(axis="y", alpha=0)
fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=9, bbox_to_anchor=(0.5, -0.08))
axes[0].set(title="Drop every hand without a joker: the rule minus greedy (paired 95% CI)",
            xlabel="points per deal")
axes[1].set(title="Value of a middle drop after 6 turns (paired 95% CI)",
            xlabel="points per deal: with the middle drop minus without")
fig.tight_layout()
values.round(2)"""),
    ("md", "## Answer"),
    ("code", """def play_of(p, jc, pure=None):
    h = hands[(hands["players"] == p) & (hands["joker_class"] == jc)]
    if pure is not None:
        h = h[h["pure"] == pure]
    return charts.mean_ci(h["net"]), len(h) / (hands["players"] == p).sum()

def rule_text(p, card=card):
    groups = {}                                # verdict -> hand classes
    for jc in JOKER_CLASSES:
        for pure in ("no pure run", "pure run"):
            w = card.loc[(jc, pure), p] if (jc, pure) in card.index and p in card.columns else "no data"
            groups.setdefault(w if isinstance(w, str) else "no data", []).append(f"({jc}, {pure})")
    out = []
    if "always" in groups:
        out.append("drop " + " and ".join(groups.pop("always")) + " at any deadwood")
    for w in sorted((k for k in groups if k.startswith("deadwood")), key=lambda k: int(k.split()[-1])):
        out.append("drop " + " and ".join(groups.pop(w)) + f" when the deadwood is {w.split()[-1]} or more")
    if "never" in groups:
        out.append("play " + ", ".join(groups.pop("never")))
    if "no data" in groups:
        out.append(f"too few hands (< {MIN_HANDS} per bin) for " + ", ".join(groups.pop("no data")))
    return "; ".join(out)

lines = []
(m0, lo0, hi0), share0 = play_of(4, "no joker")
(m2, lo2, hi2), share2 = play_of(4, "2+ jokers")
lines.append(f"**At 4 players a dealt hand without a joker is worth {ci(m0, lo0, hi0, '+.1f')} points when played** "
             f"(greedy play, greedy field; {pct(share0)} of hands) against {-FIRST_DROP} for a first drop; one with "
             f"two or more jokers {ci(m2, lo2, hi2, '+.1f')} ({pct(share2)} of hands).")
nj = by_class[by_class["joker_class"] == "no joker"]
worse = sorted(set(nj.loc[nj["better"] == "drop", "players"]))
lines.append("Hands without a joker: playing them is significantly worse than the drop at "
             + (", ".join(map(str, worse)) if worse else "no") + " players (every deadwood together); per table size "
             + "; ".join(f"{p} players {ci(*charts.mean_ci(hands[(hands['players'] == p) & (hands['joker_class'] == 'no joker')]['net']), '+.1f')}"
                         for p in PLAYERS) + ".")
for p in (2, 4, 6):
    lines.append(f"Rule at {p} players (deadwood as the engine counts it): {rule_text(p)}.")
rr = check[check["middle_drop_deadwood"] == 200].set_index("players")
lines.append("On duplicate deals, dropping every hand without a joker (and playing the rest like greedy) scores "
             + ", ".join(f"{ci(rr.loc[p, 'vs_field'], rr.loc[p, 'vs_field_low'], rr.loc[p, 'vs_field_high'], '+.1f')} "
                         f"at {p} players (drops {pct(rr.loc[p, 'first_drop_share'])} of its hands)" for p in rr.index)
             + " points per deal against the greedy field's mean.")
mm = check[check["middle_drop_deadwood"] != 200]
best = mm.loc[mm["middle_value"].idxmax()]
lines.append("Adding a middle drop after 6 turns changes that by "
             + ", ".join(f"{ci(r['middle_value'], r['middle_low'], r['middle_high'], '+.2f')} at {int(r['players'])} "
                         f"players (deadwood > {int(r['middle_drop_deadwood'])}, middle-drops "
                         f"{pct(r['middle_drop_share'])} of hands)" for _, r in mm.iterrows())
             + f" (paired); the best case is {ci(best['middle_value'], best['middle_low'], best['middle_high'], '+.2f')}"
             + (", so the middle drop is worth keeping there." if best["middle_low"] > 0 else
                ", so no middle drop tried here is clearly worth its 40 points."))

def value_of(p, what):
    return values[(values["players"] == p) & (values["what"] == what)].iloc[0]

def compared(r, unit=""):
    \"\"\"One value against both fields and whether the learned field changes it (paired by deal index).\"\"\"
    g, l, c = ((r[k], r[f"{k}_low"], r[f"{k}_high"]) for k in ("greedy", STRONG, "change"))
    both = f"{ci(*g, '+.1f')} against greedy and {ci(*l, '+.1f')} against {STRONG}{unit}"
    if c[1] <= 0 <= c[2]:
        return f"{both}: not distinguishable ({STRONG} minus greedy {ci(*c, '+.1f')})"
    size = ("of the opposite sign" if g[0] * l[0] < 0 else "smaller in size" if abs(l[0]) < abs(g[0])
            else "larger in size")
    return f"{both}: {size} against {STRONG} ({STRONG} minus greedy {ci(*c, '+.1f')})"

def best_middle(p, field):
    \"\"\"The best middle drop tried at p players against a field, in words: a threshold only when it clearly pays.\"\"\"
    t = values[(values["players"] == p) & values["what"].str.startswith("middle")]
    r = t.loc[t[field].idxmax()]
    m = r["what"].split("> ")[1]
    if r[f"{field}_low"] > 0:
        return f"deadwood > {m} ({ci(r[field], r[f'{field}_low'], r[f'{field}_high'], '+.2f')})", True
    if r[f"{field}_high"] >= 0:
        return (f"none (its best, deadwood > {m}, {ci(r[field], r[f'{field}_low'], r[f'{field}_high'], '+.2f')}, "
                "is not distinguishable from no middle drop)"), False
    return f"none (every middle drop tried loses; the least, deadwood > {m}, {ci(r[field], r[f'{field}_low'], r[f'{field}_high'], '+.2f')})", False

def drop_level(w):
    \"\"\"A card entry as the lowest deadwood that is dropped (0 always, inf never; None without data).\"\"\"
    if not isinstance(w, str) or w == "no data":
        return None
    return 0 if w == "always" else np.inf if w == "never" else int(w.split()[-1])

def card_shift(p):
    \"\"\"(classes dropped from a lower deadwood against learned than against greedy, from a higher one).\"\"\"
    more, less = [], []
    if p not in card.columns or p not in card_l.columns:
        return more, less
    for key in card_l.index:
        g = drop_level(card.loc[key, p]) if key in card.index else None
        l = drop_level(card_l.loc[key, p])
        if g is not None and l is not None and g != l:
            (more if l < g else less).append(f"({key[0]}, {key[1]})")
    return more, less

def against_strong():
    \"\"\"The Answer's sentences on part 4: play-or-drop, the rule and the middle drop against learned.\"\"\"
    def own(p):
        r = value_of(p, "greedy itself")
        return ci(r[STRONG], r[f"{STRONG}_low"], r[f"{STRONG}_high"], "+.1f")

    def jokerless(h, p=4):
        return ci(*charts.mean_ci(h[(h["players"] == p) & (h["joker_class"] == "no joker")]["net"]), "+.1f")

    out = [f"**Against a field of {STRONG}** (part 4, greedy playing the hand; at 2 players {STRONG} plays expert's "
           "moves, its model was fitted at 4 players and lost heads-up, so the 2-player figures are against expert): "
           "greedy itself scores " + ", ".join(f"{own(p)} at {p} players" for p in CHECK_PLAYERS)
           + f" per deal against that field's mean; at 4 players a dealt hand without a joker is worth "
           f"{jokerless(hands_l)} when greedy plays it against {STRONG} ({jokerless(hands)} against greedy), against "
           f"{-FIRST_DROP} for a first drop."]
    for p in CHECK_PLAYERS:
        same = p in card.columns and p in card_l.columns and card[p].equals(card_l[p])
        out.append(f"Rule at {p} players against {STRONG}: {rule_text(p, card_l)} "
                   f"({'the same card as against greedy' if same else 'against greedy: ' + rule_text(p)}).")
    out.append("**Dropping every hand without a joker** (the rule minus plain greedy, paired on the same deals) is worth "
               + "; ".join(f"at {p} players {compared(value_of(p, 'drop every hand without a joker'))}"
                           for p in CHECK_PLAYERS) + " (points per deal).")
    out.append("**The best middle drop** (after 6 turns; none, deadwood > 60 or > 40): "
               + "; ".join(f"at {p} players against greedy {best_middle(p, 'greedy')[0]}, against {STRONG} "
                           f"{best_middle(p, STRONG)[0]}" for p in CHECK_PLAYERS) + ".")
    pays = {f: [p for p in CHECK_PLAYERS if value_of(p, "drop every hand without a joker")[f"{f}_low"] > 0]
            for f in ("greedy", STRONG)}
    mids = {f: [p for p in CHECK_PLAYERS if best_middle(p, f)[1]] for f in ("greedy", STRONG)}
    def where(ps):
        return f"{', '.join(map(str, ps))} players" if ps else "no table size"

    def shifts(what, lists):
        now = [p for p in lists[STRONG] if p not in lists["greedy"]]
        gone = [p for p in lists["greedy"] if p not in lists[STRONG]]
        return ([f"{what} pays against {STRONG} at {where(now)} where it did not against greedy"] if now else []) + (
            [f"{what} no longer clearly pays at {where(gone)}"] if gone else [])

    changed = shifts("the rule", pays) + shifts("a middle drop", mids)
    moves = [card_shift(p) for p in CHECK_PLAYERS]
    out.append("**Does the conclusion change against strong play?** Dropping every jokerless hand clearly pays at "
               f"{where(pays['greedy'])} against greedy and at {where(pays[STRONG])} against {STRONG}; a middle drop "
               f"clearly pays at {where(mids['greedy'])} against greedy and at {where(mids[STRONG])} against {STRONG}. "
               + ("So the rule and the verdict on the middle drop hold against strong play (their sizes are compared "
                  "value by value above)." if not changed else
                  "So the conclusion changes against strong play: " + "; ".join(changed) + ".")
               + " The card of part 1 (point estimates per deadwood bin) "
               + ("is the same against both fields." if not any(m or l for m, l in moves) else
                  "moves against learned: " + "; ".join(
                      f"at {p} players " + ", ".join(
                          ([f"toward dropping more for {' and '.join(m)}"] if m else [])
                          + ([f"toward dropping less for {' and '.join(l)}"] if l else []))
                      for p, (m, l) in zip(CHECK_PLAYERS, moves) if m or l) + " (the rules above).")
               )
    return out

lines += against_strong()
text = answer(lines)"""),
]

# ---------------------------------------------------------------------------------------------
NOTEBOOKS["07_indian_field"] = [
    ("md", """# 07 Indian Rummy: each strategy against the field, pickups and jokers

**Questions.** (1) How many points per deal does each strategy win or lose against a field of `greedy`
players, at 2 to 6 players, and against a strong field of `learned`: does the ranking, or the best strategy,
change against strong play? (2) What does taking the top of the discard pile tell the others, and what is
it worth? (3) How much is a joker worth?

**Experiment.**
1. Every registered Indian strategy other than `greedy` (and `mc_search`, too slow for this) as team A
   against a field of `greedy` on duplicate deals: each deal index once per seat, A in that seat, greedy in
   the others (docs/results.md). A's own net points per deal (its field's mean is the rest, zero-sum), A
   minus the field's mean and A's deal win rate, 95% intervals. `greedy` in its own field scores 0 by symmetry.
   Then the same against a field of `learned` (the strongest fast built-in, fitted by search and imitation: about
   +7 points per deal over `expert` at 4 players) at 2, 4 and 6 players, `greedy` now among the strategies and
   `learned` left out (it would face itself). At 2 players `learned` plays `expert`'s moves (its model was fitted
   at 4 players and lost heads-up), so the 2-player column is a field of expert and expert there faces itself.
   Learned plays about 2,600-6,600 deals/s with one other strategy at the table against greedy's 4,300-5,600, so
   this part takes about as long as the greedy field's 2, 4 and 6 players.
2. *What a pickup reveals:* in deals played by `greedy` at every seat (recorded), every discard followed by
   the next player's draw: how often it takes the discard when the card connects to a card that player
   took from the pile earlier in the deal (same rank, or same suit within two ranks: public, I9), and
   when it does not. *What it is worth:* `stock_only` (`strategies/indian/examples/stock_only.py`,
   greedy that draws from the stock wherever greedy would take the pile's top) against the greedy field,
   in part 1: greedy scores 0 there, so what greedy's pickups are worth is minus stock_only's points.
   Against the learned field: greedy's own points minus stock_only's, both from part 1's matches against
   learned (paired by deal index, no extra run).
3. *A joker held:* `greedy` at every seat; each seat's dealt hand recomputed from (seed, deal index)
   (`sim.games.indian.features`); net points by jokers dealt, and the points per extra joker (least
   squares slope with standard errors clustered by deal).

""" + rerun("07_indian_field", 1_500) + """

Seed **2707**. Command-line equivalent of one cell of part 1:
`rummy-sim match expert greedy --game indian --players 6 --deals $RUMMY_DEALS --seed 2707`
(`--load strategies/indian/examples/stock_only.py` for stock_only); against learned:
`rummy-sim match expert learned --game indian --players 6 --deals $RUMMY_DEALS --seed 2707` (and `greedy`,
`stock_only` ... in place of `expert`, `--players 2` or `4`). The committed report
`reports/indian_expert_vs_greedy_6p/` is that match at 6 players with at least 1,000,000 plays."""),
    ("md", RUNTIME),
    ("code", setup(1_500, 2707, '''
from tqdm.auto import tqdm

import strategies.indian.examples.stock_only  # noqa: F401  (registers "stock_only")
from sim.plugin.registry import strategy_names
from sim.games.indian.engine import results_frame, run_deals
from sim.games.indian.features import dealt_features
from sim.studies.match import play_match

PLAYERS = [2, 3, 4, 5, 6]
SLOW = {"mc_search"}                       # search strategies: far too slow for this many deals
NAMES = [n for n in strategy_names("indian") if n not in SLOW | {"greedy", "dropper"}]
STRATEGIES = NAMES + ["dropper:need_pure=false,need_joker=true,first_drop_deadwood=200,pure_saves_upto=0,"
                      "middle_drop_deadwood=200"]
STRONG = "learned"                         # the strong field (at 2 players it plays expert's moves)
STRONG_PLAYERS = [2, 4, 6]
STRATEGIES_L = [s if s != STRONG else "greedy" for s in STRATEGIES]   # greedy in learned's place
print("strategies against the greedy field:", STRATEGIES)
print(f"strategies against the {STRONG} field:", STRATEGIES_L)''')),
    ("code", """rate = estimate(X.match("stock_only", "greedy", DEALS, SEED, game="indian", players=4))
rate_l = estimate(X.match("stock_only", STRONG, DEALS, SEED, game="indian", players=4))"""),
    ("md", """## 1. Each strategy against a field of greedy, 2 to 6 players"""),
    ("code", """def label(spec):
    return "dropper (no joker: drop)" if spec.startswith("dropper") else spec

def field_row(res, p, spec):
    \"\"\"One match's row: A's own points, A minus the field, win rate, drop rate and pickups (95% intervals).\"\"\"
    r, pl = res.row, res.plays
    won = int((pl["winner"].to_numpy() == pl["a_seat"].to_numpy()).sum())
    drops = pl[[f"drop_s{s}" for s in range(p)]].to_numpy()[np.arange(len(pl)), pl["a_seat"].to_numpy()]
    own = charts.mean_ci(res.sets["a_total"])
    w = charts.wilson(won, len(pl))
    return {"players": p, "strategy": label(spec), "own": own[0], "own_low": own[1], "own_high": own[2],
            "vs_field": r["mean_diff"], "vs_field_low": r["ci_low"], "vs_field_high": r["ci_high"],
            "win_rate": w[0], "win_low": w[1], "win_high": w[2], "drop_rate": float((drops > 0).mean()),
            "pickups": float(pl[[f"pickups_s{s}" for s in range(p)]].to_numpy()[np.arange(len(pl)),
                                                                                 pl["a_seat"].to_numpy()].mean())}

def field_matches(opponent, players, strategies):
    \"\"\"Each strategy against a field of ``opponent`` at each table size: (rows frame, per-deal sets by
    (players, strategy label)).\"\"\"
    rows, sets = [], {}
    bar, _ = chunk_bar(DEALS * len(players) * len(strategies), f"matches against {opponent}")
    for p in players:
        for spec in strategies:
            res = play_match(spec, opponent, deals=DEALS, seed=SEED, game="indian", players=p, keep_plays=True,
                             progress=False)
            bar.update(DEALS)
            sets[(p, label(spec))] = res.sets.set_index("deal")
            rows.append(field_row(res, p, spec))
    bar.close()
    return pd.DataFrame(rows), sets

t0 = time.perf_counter()
field, field_sets = field_matches("greedy", PLAYERS, STRATEGIES)
stock_sets = {p: field_sets[(p, "stock_only")]["a_total"] for p in PLAYERS}
print(f"{len(PLAYERS) * len(STRATEGIES)} matches, {DEALS:,} deals each, every seat in turn: "
      f"{time.perf_counter() - t0:.0f} s")
field.round(2)"""),
    ("code", """SERIES = {label(s): k for k, s in enumerate(STRATEGIES + ["greedy"])}   # one color and marker per strategy

def field_figure(field, players, opponent):
    \"\"\"A's own points and A minus the field, by table size, one series per strategy (95% CI).\"\"\"
    fig, axes = charts.figure(1, 2, height=4.6, width=14)
    for name, g in field.groupby("strategy", sort=False):
        j = SERIES[name]
        st = charts.series_style(j)
        x = g["players"] + (j - (len(SERIES) - 1) / 2) * 0.07
        for ax, v in zip(axes, ("own", "vs_field")):
            ax.errorbar(x, g[v], yerr=charts._yerr(g[v], g[f"{v}_low"], g[f"{v}_high"]), fmt=st["marker"] + "-",
                        color=st["color"], capsize=3, ms=5, lw=1, label=name)
    for ax, title in zip(axes, (f"A's own net points per deal against {opponent} ({opponent}'s own: 0)",
                                f"A minus the {opponent} field's mean, per deal")):
        ax.axhline(0, color="grey", lw=0.8)
        ax.set(title=title + ", 95% CI", xlabel="players", ylabel="points per deal", xticks=players)
        ax.set_yscale("symlog", linthresh=10)
    charts.legend_outside(axes[1])
    fig.tight_layout()
    return fig

fig = field_figure(field, PLAYERS, "greedy")"""),
    ("md", """## 1b. Each strategy against a field of `learned`, 2, 4 and 6 players
The same matches with `learned` in every other seat (`greedy` now among the strategies, `learned` left out). At
2 players `learned` plays `expert`'s moves, so there the field is expert's and expert faces itself (margin 0).
The table puts each strategy's margin over the greedy field beside its margin over the learned field."""),
    ("code", """t0 = time.perf_counter()
field_l, field_l_sets = field_matches(STRONG, STRONG_PLAYERS, STRATEGIES_L)
print(f"{len(STRONG_PLAYERS) * len(STRATEGIES_L)} matches against {STRONG}, {DEALS:,} deals each, every seat in turn: "
      f"{time.perf_counter() - t0:.0f} s")
fig = field_figure(field_l, STRONG_PLAYERS, STRONG)
side = {}
for name, f in (("greedy", field), (STRONG, field_l)):
    t = f[f["players"].isin(STRONG_PLAYERS)]
    side[f"vs {name} field"] = pd.Series([ci(r.vs_field, r.vs_field_low, r.vs_field_high, "+.1f") for r in t.itertuples()],
                                         index=pd.MultiIndex.from_arrays([t["strategy"], t["players"]]))
pd.DataFrame(side).unstack("players").fillna("-")"""),
    ("md", """## 2. What a pickup reveals
Every discard and the next player's draw, `greedy` at every seat (4 players, recorded deals). A discard
*connects* to the next player's earlier pickups when it has the rank of one of them (another suit) or
their suit within two ranks; jokers and cards of the wild rank are left out (anyone takes those)."""),
    ("code", """from sim.games.indian import enums as E

def take_rates(p, deals, batch=200):
    counts = {"connects to its pickups": [0, 0], "does not connect": [0, 0], "it has no pickups yet": [0, 0]}
    for start in range(0, deals, batch):
        idx = np.arange(start, min(deals, start + batch))
        run = run_deals(["greedy"] * p, idx, SEED + 1, record=1, max_events=3000)
        for i in range(idx.size):
            ev = run.deal_events(i)
            wild = WILD[int(run.deals[i])]
            picked = [[] for _ in range(p)]        # kinds each seat took from the pile so far (public, I9)
            pending = None                         # the discard the next draw faces
            for kind, seat, a, _, _ in ev:
                if kind == E.EV_DISCARD:
                    pending = a
                elif kind in (E.EV_PILE, E.EV_STOCK) and pending is not None:
                    k = pending
                    pending = None
                    took = kind == E.EV_PILE
                    if k != E.JOKER and k % 13 != wild:
                        mine = picked[seat]
                        if not mine:
                            key = "it has no pickups yet"
                        elif any(q != E.JOKER and (q % 13 == k % 13 or (q // 13 == k // 13 and abs(q % 13 - k % 13) <= 2))
                                 for q in mine):
                            key = "connects to its pickups"
                        else:
                            key = "does not connect"
                        counts[key][0] += took
                        counts[key][1] += 1
                    if took:
                        picked[seat].append(int(a))
                elif kind == E.EV_PILE:
                    picked[seat].append(int(a))
                elif kind == E.EV_DROP:
                    pending = None
    return counts

REVEAL_DEALS = max(DEALS // 2, 20)
WILD = dealt_features(SEED + 1, REVEAL_DEALS, 4).groupby("deal")["wild_rank"].first().to_dict()
t0 = time.perf_counter()
counts = take_rates(4, REVEAL_DEALS)
reveal = pd.DataFrame([(k, *charts.wilson(t, n), n) for k, (t, n) in counts.items()],
                      columns=["discard", "take_rate", "low", "high", "discards"])
print(f"{REVEAL_DEALS:,} recorded deals in {time.perf_counter() - t0:.0f} s")
reveal.round(4)"""),
    ("md", """What greedy's pickups are worth: against the greedy field it is 0 minus stock_only's own points
(part 1). Against a field that reads pickups (`defensive`, when registered: it holds back discards that
connect to the next seat's pickups) it is greedy's own points minus stock_only's, both against that
field on the same deals (paired by deal index); the difference between the two fields is what reading
pickups takes off their worth. Against the strong field (`learned`, 2, 4 and 6 players) the same difference,
from part 1b's matches (no extra run); the difference to the greedy field is then what strong play as a whole
(reading pickups among the rest) takes off their worth."""),
    ("code", """sf = field[field["strategy"] == "stock_only"].set_index("players")
worth = [{"field": "greedy", "players": p, "worth": -sf.loc[p, "own"], "low": -sf.loc[p, "own_high"],
          "high": -sf.loc[p, "own_low"]} for p in sf.index]

def pickup_worth(own, p, name):
    \"\"\"greedy minus stock_only against a field (own points per deal index), and the greedy field minus it.\"\"\"
    per_deal = own["greedy"] - own["stock_only"]
    m, lo, hi = charts.mean_ci(per_deal)
    # greedy field minus this field, per deal index (the same deals in every match)
    c = charts.mean_ci(-stock_sets[p] - per_deal)
    return {"field": name, "players": p, "worth": m, "low": lo, "high": hi, "reveal_cost": c[0],
            "reveal_cost_low": c[1], "reveal_cost_high": c[2]}

if "defensive" in strategy_names("indian"):
    for p in (2, 4, 6):
        own = {a: play_match(a, "defensive", deals=DEALS, seed=SEED, game="indian", players=p, keep_plays=True,
                             progress=False).sets.set_index("deal")["a_total"] for a in ("greedy", "stock_only")}
        worth.append(pickup_worth(own, p, "defensive"))
for p in STRONG_PLAYERS:
    worth.append(pickup_worth({a: field_l_sets[(p, a)]["a_total"] for a in ("greedy", "stock_only")}, p, STRONG))
worth = pd.DataFrame(worth)
worth.round(2)"""),
    ("code", """fig, axes = charts.figure(1, 2, height=3.8, width=14)
charts.forest(axes[0], list(reveal["discard"]), reveal["take_rate"], reveal["low"], reveal["high"], zero=False,
              xlabel="share of such discards the next player takes (Wilson 95% CI)")
axes[0].set_title("Does the next player take your discard? (greedy, 4 players)")
charts.forest(axes[1], [f"{f} field, {p} players" for f, p in zip(worth["field"], worth["players"])], worth["worth"],
              worth["low"], worth["high"], xlabel="points per deal greedy's pickups are worth (greedy - stock_only)")
axes[1].set_title("What drawing from the pile is worth (95% CI)")
fig.tight_layout()"""),
    ("md", """## 3. The value of a joker
`greedy` at every seat; net points of each seat by the jokers (printed or of the wild rank) it was dealt."""),
    ("code", """import statsmodels.formula.api as smf

parts, greedy_pickups = [], {}
for p in tqdm(PLAYERS, desc="greedy at every seat"):
    res = results_frame(run_deals(["greedy"] * p, DEALS, SEED))
    net = res[[f"net_s{s}" for s in range(p)]].to_numpy()
    f = dealt_features(SEED, DEALS, p)
    f["net"] = net[f["deal"].to_numpy(), f["seat"].to_numpy()]
    f["players"] = p
    parts.append(f)
    greedy_pickups[p] = float(res[[f"pickups_s{s}" for s in range(p)]].to_numpy().mean())
hands = pd.concat(parts, ignore_index=True)
hands["j"] = np.minimum(hands["jokers"], 4)
jrows = []
for (p, j), g in hands.groupby(["players", "j"]):
    m, lo, hi = charts.mean_ci(g["net"]) if len(g) > 1 else (np.nan,) * 3
    jrows.append({"players": p, "jokers": j, "hands": len(g), "net": m, "low": lo, "high": hi})
by_joker = pd.DataFrame(jrows)
slopes = []
for p, g in hands.groupby("players"):
    fit = smf.ols("net ~ jokers", data=g).fit(cov_type="cluster", cov_kwds={"groups": g["deal"]})
    lo, hi = fit.conf_int().loc["jokers"]
    slopes.append({"players": p, "per_joker": fit.params["jokers"], "low": lo, "high": hi,
                   "mean_jokers": g["jokers"].mean()})
slopes = pd.DataFrame(slopes)
slopes.round(2)"""),
    ("code", """fig, axes = charts.figure(1, 2, height=4.2, width=14)
for j, (p, g) in enumerate(by_joker[by_joker["hands"] >= 30].groupby("players")):
    st = charts.series_style(j)
    axes[0].errorbar(g["jokers"] + (j - 2) * 0.06, g["net"], yerr=charts._yerr(g["net"], g["low"], g["high"]),
                     fmt=st["marker"] + "-", color=st["color"], capsize=3, ms=5, lw=1, label=f"{p} players")
axes[0].axhline(0, color="grey", lw=0.8)
axes[0].set(title="Net points per deal by jokers dealt (greedy, 95% CI)", xlabel="jokers dealt (4 = 4 or more)",
            ylabel="net points per deal", xticks=[0, 1, 2, 3, 4])
axes[0].legend(fontsize=8)
charts.errorbars(axes[1], slopes["players"], slopes["per_joker"], slopes["low"], slopes["high"])
axes[1].set(title="Points per extra joker dealt (OLS slope, CI clustered by deal)", xlabel="players",
            ylabel="points per deal per joker", xticks=PLAYERS)
fig.tight_layout()"""),
    ("md", "## Answer"),
    ("code", """lines = []
for p in (2, 4, 6):
    g = field[field["players"] == p].sort_values("vs_field", ascending=False)
    lines.append(f"At {p} players against a greedy field" + (f" ({STRONG} plays expert's moves at 2 players: the same "
                 "numbers)" if p == 2 and STRONG in set(g["strategy"]) else "") + ": " + "; ".join(
        f"{r['strategy']} {ci(r['own'], r['own_low'], r['own_high'], '+.1f')} points per deal of its own "
        f"(minus the field {ci(r['vs_field'], r['vs_field_low'], r['vs_field_high'], '+.1f')}, wins "
        f"{pct(r['win_rate'])} of deals)" for _, r in g.iterrows()) + ".")
best = field.loc[field.groupby("players")["vs_field"].idxmax()]
lines.append("Best against the greedy field by table size: "
             + ", ".join(f"{int(r['players'])} players {r['strategy']}" for _, r in best.iterrows()) + ".")

def gap(sets, p, a, b):
    \"\"\"A's margin over the field minus B's, paired by deal index (same field, same deals): (mean, low, high).\"\"\"
    return charts.mean_ci((sets[(p, a)]["diff"] - sets[(p, b)]["diff"]).dropna())

def order_text(f, p, names):
    t = f[(f["players"] == p) & f["strategy"].isin(names)].sort_values("vs_field", ascending=False)
    return list(t["strategy"])

def swapped(p, a, b):
    \"\"\"A pair the two fields order differently (a ahead against learned), with its paired gaps in both fields.\"\"\"
    dl, dg = gap(field_l_sets, p, a, b), gap(field_sets, p, a, b)
    tied = [f for f, d in ((STRONG, dl), ("greedy", dg)) if d[1] <= 0 <= d[2]]
    return (f"{a} minus {b} {ci(*dl, '+.1f')} against {STRONG}, {ci(*dg, '+.1f')} against greedy"
            + (f", not distinguishable against {' or '.join(tied)}" if tied else ", a clear swap"))

def against_strong():
    \"\"\"The Answer's sentences on part 1b: the ranking and the best strategy against learned beside greedy.\"\"\"
    out = []
    for p in STRONG_PLAYERS:
        g = field_l[field_l["players"] == p].sort_values("vs_field", ascending=False)
        out.append(f"At {p} players against a {STRONG} field" + (" (expert's moves at 2 players: its model was fitted "
                   "at 4 players and lost heads-up, so expert faces itself here)" if p == 2 else "") + ", minus the "
                   "field: " + "; ".join(f"{r['strategy']} {ci(r['vs_field'], r['vs_field_low'], r['vs_field_high'], '+.1f')}"
                                         f" (own {ci(r['own'], r['own_low'], r['own_high'], '+.1f')})"
                                         for _, r in g.iterrows()) + ".")
    common = [label(s) for s in STRATEGIES if label(s) in set(field_l["strategy"]) and label(s) != "greedy"]
    verdicts = []
    for p in STRONG_PLAYERS:
        og, ol = order_text(field, p, common), order_text(field_l, p, common)
        first, second = ol[0], ol[1]
        d = gap(field_l_sets, p, first, second)
        lead = (f"ahead of {second} by {ci(*d, '+.1f')}, "
                + ("not distinguishable" if d[1] <= 0 <= d[2] else "a clear lead") + ", paired")
        above = [n for n in ol if field_l[(field_l["players"] == p) & (field_l["strategy"] == n)]["vs_field_low"].iloc[0] > 0]
        if first == og[0]:
            change = "the same"
        else:
            dl, dg = gap(field_l_sets, p, first, og[0]), gap(field_sets, p, first, og[0])
            tied = dl[1] <= 0 <= dl[2] and dg[1] <= 0 <= dg[2]
            change = (f"the best changes: {first} minus {og[0]} is {ci(*dl, '+.1f')} against {STRONG} and "
                      f"{ci(*dg, '+.1f')} against greedy" + (", not distinguishable in either field" if tied else ""))
        verdicts.append(
            f"at {p} players the best against {STRONG} is {first} ({lead}), against greedy {og[0]} "
            f"({change}); the order of the estimates "
            + ("is the same in both fields" if og == ol else
               f"changes: against greedy {' > '.join(og)}, against {STRONG} {' > '.join(ol)} ("
               + "; ".join(swapped(p, a, b) for i, a in enumerate(ol) for b in ol[i + 1:] if og.index(a) > og.index(b))
               + ")")
            + "; clearly above the learned field's mean: " + (", ".join(above) if above else "none"))
    out.append("**Does the ranking or the best strategy change against strong play?** (learned and greedy left out "
               "of the order; neighbours whose intervals overlap are not told apart): " + "; ".join(verdicts) + ".")
    return out

lines += against_strong()
rv = reveal.set_index("discard")
c, u = rv.loc["connects to its pickups"], rv.loc["does not connect"]
ratio = c["take_rate"] / u["take_rate"] if u["take_rate"] > 0 else float("inf")
lines.append(f"**A pickup tells the table what to keep back:** at 4 players greedy takes "
             f"{pct(c['take_rate'])} [{pct(c['low'])}, {pct(c['high'])}] of the discards that connect to a card it "
             f"took from the pile before, against {pct(u['take_rate'])} [{pct(u['low'])}, {pct(u['high'])}] of those "
             f"that do not ({ratio:.1f}x).")
lines.append("Drawing from the pile the way greedy does is worth "
             + ", ".join(f"{ci(-sf.loc[p, 'own'], -sf.loc[p, 'own_high'], -sf.loc[p, 'own_low'], '+.1f')} at {p}"
                         for p in sf.index)
             + " players, points per deal (against a field that does not read pickups; greedy takes from the pile "
             + ", ".join(f"{greedy_pickups[p]:.2f} times per deal at {p}" for p in (2, 4, 6)) + " players).")
wd = worth[worth["field"] == "defensive"]
if len(wd):
    lines.append("Against a field that reads pickups (defensive) they are worth "
                 + ", ".join(f"{ci(r['worth'], r['low'], r['high'], '+.1f')} at {int(r['players'])}"
                             for _, r in wd.iterrows()) + " players; the difference, what a field that reads "
                 "pickups takes off their worth, is "
                 + ", ".join(f"{ci(r['reveal_cost'], r['reveal_cost_low'], r['reveal_cost_high'], '+.1f')} at "
                             f"{int(r['players'])}" for _, r in wd.iterrows())
                 + " players, points per deal (paired over the same deal indices; negative: worth more against "
                 "the defensive field).")
wl = worth[worth["field"] == STRONG]
lines.append(f"**Against a {STRONG} field** (expert's moves at 2 players) greedy's pickups are worth "
             + ", ".join(f"{ci(r['worth'], r['low'], r['high'], '+.1f')} at {int(r['players'])}" for _, r in wl.iterrows())
             + " players; the greedy field minus the learned field is "
             + ", ".join(f"{ci(r['reveal_cost'], r['reveal_cost_low'], r['reveal_cost_high'], '+.1f')} at "
                         f"{int(r['players'])}" for _, r in wl.iterrows())
             + " players (paired by deal index; "
             + ("not distinguishable at any of them" if all(r['reveal_cost_low'] <= 0 <= r['reveal_cost_high']
                                                           for _, r in wl.iterrows())
                else "negative: worth more against learned, positive: less") + ").")
s4 = slopes.set_index("players")
lines.append("**Each joker dealt is worth** " + ", ".join(
    f"{ci(s4.loc[p, 'per_joker'], s4.loc[p, 'low'], s4.loc[p, 'high'], '+.1f')} at {p}" for p in s4.index)
    + " players (points per deal, greedy play); a hand without a joker nets "
    + ", ".join(f"{ci(r['net'], r['low'], r['high'], '+.1f')} at {int(r['players'])}"
                for _, r in by_joker[by_joker['jokers'] == 0].iterrows()) + " players.")
text = answer(lines)"""),
]


def build(names: list[str] | None = None) -> list[Path]:
    """Write both notebooks (or those in ``names``) from their cell sources, unexecuted."""
    return write_notebooks(NOTEBOOKS, names)


if __name__ == "__main__":
    main(NOTEBOOKS, description="Build notebooks/06 and 07 (Indian Rummy) from their cell sources (unexecuted unless --execute).")
