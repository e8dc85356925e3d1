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

""" + rerun("06_indian_drop", 6_000) + """

Seed **2606**. Command-line equivalent of parts 2 and 3, at 4 players:
`rummy-sim sweep "dropper:need_pure=false,need_joker=true,first_drop_deadwood=200,pure_saves_upto=0,middle_drop_turn=6"
--vary middle_drop_deadwood=200,60,40 --vs greedy --game indian --players 4 --deals $RUMMY_DEALS --seed 2606`.
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
MIDDLE = [200, 60, 40]                    # middle_drop_deadwood; 200 = never (a hand has at most 130)''')),
    ("code", """rate = estimate(X.sweep(RULE_SPEC, [("middle_drop_deadwood", MIDDLE)], "greedy", SWEEP_DEALS, SEED,
                       game="indian", players=4))"""),
    ("md", """## 1. Playing a hand against dropping it
`greedy` at every seat; each seat's dealt hand joined to its net points in that deal (a deal's rows are
its index, so `net[deal, seat]`)."""),
    ("code", """t0 = time.perf_counter()
parts = []
for p in tqdm(PLAYERS, desc="greedy at every seat"):
    res = results_frame(run_deals(["greedy"] * p, DEALS, SEED))
    assert (res["deal"].to_numpy() == np.arange(DEALS)).all()
    net = res[[f"net_s{s}" for s in range(p)]].to_numpy()
    f = dealt_features(SEED, DEALS, p)
    f["net"] = net[f["deal"].to_numpy(), f["seat"].to_numpy()]
    f["players"] = p
    parts.append(f)
hands = pd.concat(parts, ignore_index=True)
hands["joker_class"] = pd.Categorical.from_codes(np.minimum(hands["jokers"], 2), JOKER_CLASSES)
hands["pure"] = np.where(hands["pure_run"] == 1, "pure run", "no pure run")
hands["dw_bin"] = pd.cut(hands["deadwood"], EDGES, right=False)
print(f"{len(hands):,} dealt hands ({DEALS:,} deals at each of {PLAYERS} players) in {time.perf_counter() - t0:.0f} s")
print(f"deadwood below the hand's points (an I5 arrangement already dealt): "
      f"{pct((hands['deadwood'] < hands['points']).mean())} of hands")
hands.groupby("players")[["deadwood", "points", "pure_run", "jokers", "net"]].mean().round(2)"""),
    ("code", """def play_stats(g):
    m, lo, hi = charts.mean_ci(g["net"])
    return pd.Series({"hands": len(g), "play": m, "play_low": lo, "play_high": hi})

by_class = (hands.groupby(["players", "joker_class", "pure"], observed=True).apply(play_stats, include_groups=False)
            .reset_index())
by_class["share"] = by_class["hands"] / by_class.groupby("players")["hands"].transform("sum")
by_class["drop_minus_play"] = -FIRST_DROP - by_class["play"]
by_class["better"] = np.select([by_class["play_high"] < -FIRST_DROP, by_class["play_low"] > -FIRST_DROP],
                               ["drop", "play"], "too close to call")
by_bin = (hands.groupby(["players", "joker_class", "pure", "dw_bin"], observed=True)
          .apply(play_stats, include_groups=False).reset_index())
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

rule = (by_bin.groupby(["players", "joker_class", "pure"], observed=True).apply(threshold, include_groups=False)
        .rename("drop when").reset_index())
card = rule.pivot_table(index=["joker_class", "pure"], columns="players", values="drop when", aggfunc="first",
                        observed=True)
card"""),
    ("md", """## 2-3. The rule and the middle drop on duplicate deals
For each table size one sweep: the rule "drop every hand without a joker" with no middle drop, and the
same with a middle drop (after 6 of its turns, deadwood still above 60, or above 40), each against a
field of `greedy`; every deal index played once per seat. The middle drop's value is the paired
difference between the player with it and the same player without it."""),
    ("code", """from sim.studies.sweep import play_sweep, sweep_table

checks, plays_a = {}, {}
t0 = time.perf_counter()
for p in tqdm(CHECK_PLAYERS, desc="duplicate sweeps"):
    sw = play_sweep(RULE_SPEC, {"middle_drop_deadwood": MIDDLE}, vs="greedy", deals=SWEEP_DEALS, seed=SEED,
                    game="indian", players=p, keep_plays=True, progress=False)
    checks[p] = sw
    pl = sw.run.plays
    drops = pl[[f"drop_s{s}" for s in range(p)]].to_numpy()
    pl = pl.assign(a_drop=drops[np.arange(len(pl)), pl["a_seat"].to_numpy()])
    plays_a[p] = pl.groupby("pairing")["a_drop"].value_counts().unstack(fill_value=0)
print(f"{len(CHECK_PLAYERS)} sweeps x {len(MIDDLE)} points x {SWEEP_DEALS:,} deals x their seats in "
      f"{time.perf_counter() - t0:.0f} s")

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
check = pd.DataFrame(rows)
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
    ("md", "## Answer"),
    ("code", """def play_of(p, jc, pure=None):
    h = hands[(hands["players"] == p) & (hands["joker_class"] == jc)]
    if pure is not None:
        h = h[h["pure"] == pure]
    return charts.mean_ci(h["net"]), len(h) / (hands["players"] == p).sum()

def rule_text(p):
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
text = answer(lines)"""),
]

# ---------------------------------------------------------------------------------------------
NOTEBOOKS["07_indian_field"] = [
    ("md", """# 07 Indian Rummy: each strategy against the field, pickups and jokers

**Questions.** (1) How many points per deal does each strategy win or lose against a field of `greedy`
players, at 2 to 6 players? (2) What does taking the top of the discard pile tell the others, and what is
it worth? (3) How much is a joker worth?

**Experiment.**
1. Every registered Indian strategy other than `greedy` (and `mc_search`, too slow for this) as team A
   against a field of `greedy` on duplicate deals: each deal index once per seat, A in that seat, greedy in
   the others (docs/results.md). A's own net points per deal (its field's mean is the rest, zero-sum), A
   minus the field's mean and A's deal win rate, 95% intervals. `greedy` in its own field scores 0 by symmetry.
2. *What a pickup reveals:* in deals played by `greedy` at every seat (recorded), every discard followed by
   the next player's draw: how often it takes the discard when the card connects to a card that player
   took from the pile earlier in the deal (same rank, or same suit within two ranks: public, I9), and
   when it does not. *What it is worth:* `stock_only` (`strategies/indian/examples/stock_only.py`,
   greedy that draws from the stock wherever greedy would take the pile's top) against the greedy field,
   in part 1: greedy scores 0 there, so what greedy's pickups are worth is minus stock_only's points.
3. *A joker held:* `greedy` at every seat; each seat's dealt hand recomputed from (seed, deal index)
   (`sim.games.indian.features`); net points by jokers dealt, and the points per extra joker (least
   squares slope with standard errors clustered by deal).

""" + rerun("07_indian_field", 1_500) + """

Seed **2707**. Command-line equivalent of one cell of part 1:
`rummy-sim match expert greedy --game indian --players 6 --deals $RUMMY_DEALS --seed 2707`
(`--load strategies/indian/examples/stock_only.py` for stock_only). The committed report
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
print("strategies against the greedy field:", STRATEGIES)''')),
    ("code", """rate = estimate(X.match("stock_only", "greedy", DEALS, SEED, game="indian", players=4))"""),
    ("md", """## 1. Each strategy against a field of greedy, 2 to 6 players"""),
    ("code", """def label(spec):
    return "dropper (no joker: drop)" if spec.startswith("dropper") else spec

rows, stock_sets = [], {}
bar, on_chunk = chunk_bar(DEALS * len(PLAYERS) * len(STRATEGIES), "matches")
t0 = time.perf_counter()
for p in PLAYERS:
    for spec in STRATEGIES:
        res = play_match(spec, "greedy", deals=DEALS, seed=SEED, game="indian", players=p, keep_plays=True,
                         progress=False)
        bar.update(DEALS)
        r, pl = res.row, res.plays
        if spec == "stock_only":
            stock_sets[p] = res.sets.set_index("deal")["a_total"]
        won = int((pl["winner"].to_numpy() == pl["a_seat"].to_numpy()).sum())
        drops = pl[[f"drop_s{s}" for s in range(p)]].to_numpy()[np.arange(len(pl)), pl["a_seat"].to_numpy()]
        own = charts.mean_ci(res.sets["a_total"])
        w = charts.wilson(won, len(pl))
        rows.append({"players": p, "strategy": label(spec), "own": own[0], "own_low": own[1], "own_high": own[2],
                     "vs_field": r["mean_diff"], "vs_field_low": r["ci_low"], "vs_field_high": r["ci_high"],
                     "win_rate": w[0], "win_low": w[1], "win_high": w[2], "drop_rate": float((drops > 0).mean()),
                     "pickups": float(pl[[f"pickups_s{s}" for s in range(p)]].to_numpy()[np.arange(len(pl)),
                                                                                          pl["a_seat"].to_numpy()].mean())})
bar.close()
field = pd.DataFrame(rows)
print(f"{len(PLAYERS) * len(STRATEGIES)} matches, {DEALS:,} deals each, every seat in turn: "
      f"{time.perf_counter() - t0:.0f} s")
field.round(2)"""),
    ("code", """fig, axes = charts.figure(1, 2, height=4.6, width=14)
for j, (name, g) in enumerate(field.groupby("strategy", sort=False)):
    st = charts.series_style(j)
    x = g["players"] + (j - (field["strategy"].nunique() - 1) / 2) * 0.07
    for ax, v in zip(axes, ("own", "vs_field")):
        ax.errorbar(x, g[v], yerr=charts._yerr(g[v], g[f"{v}_low"], g[f"{v}_high"]), fmt=st["marker"] + "-",
                    color=st["color"], capsize=3, ms=5, lw=1, label=name)
for ax, title in zip(axes, ("A's own net points per deal (greedy's own: 0)", "A minus the field's mean, per deal")):
    ax.axhline(0, color="grey", lw=0.8)
    ax.set(title=title + ", 95% CI", xlabel="players", ylabel="points per deal", xticks=PLAYERS)
    ax.set_yscale("symlog", linthresh=10)
charts.legend_outside(axes[1])
fig.tight_layout()"""),
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
pickups takes off their worth."""),
    ("code", """sf = field[field["strategy"] == "stock_only"].set_index("players")
worth = [{"field": "greedy", "players": p, "worth": -sf.loc[p, "own"], "low": -sf.loc[p, "own_high"],
          "high": -sf.loc[p, "own_low"]} for p in sf.index]
if "defensive" in strategy_names("indian"):
    for p in (2, 4, 6):
        own = {a: play_match(a, "defensive", deals=DEALS, seed=SEED, game="indian", players=p, keep_plays=True,
                             progress=False).sets.set_index("deal")["a_total"] for a in ("greedy", "stock_only")}
        per_deal = own["greedy"] - own["stock_only"]
        m, lo, hi = charts.mean_ci(per_deal)
        # greedy field minus defensive field, per deal index (the same deals in every match)
        c = charts.mean_ci(-stock_sets[p] - per_deal)
        worth.append({"field": "defensive", "players": p, "worth": m, "low": lo, "high": hi, "reveal_cost": c[0],
                      "reveal_cost_low": c[1], "reveal_cost_high": c[2]})
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
    lines.append(f"At {p} players against a greedy field: " + "; ".join(
        f"{r['strategy']} {ci(r['own'], r['own_low'], r['own_high'], '+.1f')} points per deal of its own "
        f"(minus the field {ci(r['vs_field'], r['vs_field_low'], r['vs_field_high'], '+.1f')}, wins "
        f"{pct(r['win_rate'])} of deals)" for _, r in g.iterrows()) + ".")
best = field.loc[field.groupby("players")["vs_field"].idxmax()]
lines.append("Best against the greedy field by table size: "
             + ", ".join(f"{int(r['players'])} players {r['strategy']}" for _, r in best.iterrows()) + ".")
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
