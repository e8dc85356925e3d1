"""Build notebooks/10_gin_knock (Gin Rummy, issue 26 item 5) from the cell sources below.

    .venv/bin/python notebooks/build_gin.py            # rewrites the notebook, unexecuted
    .venv/bin/python notebooks/build_gin.py --execute  # also executes it at its documented deal count
                                                       # and states its run time

The conventions of notebooks/build_notebooks.py (notebooks/_cells.py): the deal count comes from
RUMMY_DEALS, the seed is fixed in the first code cell, every chart has 95% intervals and the last
cell writes the Answer from the numbers. tests/gin/test_notebook_knock.py runs its cells with a tiny
deal count.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _cells import RUNTIME, RUNTIME_PREFIX, execute, main, rerun, setup, write_notebooks  # noqa: E402, F401

NOTEBOOKS: dict[str, list[tuple[str, str]]] = {}

INTRO = """# 10 Gin Rummy: when to knock

A player may knock once its deadwood (the best 10 of its 11 cards) is at most the knock card, 10 here;
knocking scores the difference of the deadwoods, but a defender who lays off down to the knocker's
deadwood or below **undercuts** it (25 bonus points to the defender), and a knock with no deadwood at
all is **gin** (25 bonus points, no lay-offs) (RULES.md G5-G7).
**Question:** when should a player knock, by its deadwood and the cards left in the stock; what is
going for gin worth; and how large is the undercut risk?

**Experiment.** The opponent is `simple`, OpenSpiel's SimpleGinRummyBot move for move (it knocks as
soon as it may).
1. *What a knock is worth.* `greedy` (least deadwood, knocks as soon as it may) against `simple`, every
   deal once in each seat: every knock of `greedy` with its deadwood and the stock left, its points and
   whether it was undercut (Wilson and t 95% intervals over knocks).
2. *The knock policy swept.* `knocker` knocks with at most `knock_at` deadwood while the stock holds
   more than `late_stock` cards, and with at most 10 from then on; `knock_at` 10 is `greedy`'s policy.
   Every grid point plays `simple` on the same duplicate deals; the points are paired, so each point is
   compared with knocking as soon as possible on the same cards.
3. *Going for gin.* For every `knock_at` at the best `late_stock`: how often the hand ends in a gin, a
   knock, an undercut, and what each is worth per hand.
4. *The undercut risk from the opponent's pickups.* The undercut rate of `greedy`'s knocks by the number
   of upcards the defender took (public, G9), and `knocker`'s `pickup_penalty` (the knock
   limit drops by this per such card) swept on the best policy.

""" + rerun("10_gin_knock", 20_000) + """

Seed **1010**. Command-line equivalent of part 2:
`rummy-sim sweep knocker --vary knock_at=0,2,4,6,8,10 --vary late_stock=6,14,22 --vs simple --game gin
--deals $RUMMY_DEALS --seed 1010`. The strength ladder of every built-in is the committed report
`reports/gin_ladder/`."""

SETUP = setup(20_000, 1010, '''
from sim.core.intervals import mean_ci, wilson_interval
from sim.games.gin.engine import results_frame, run_deals
from sim.studies.sweep import play_sweep, sweep_table

OPPONENT = "simple"                 # OpenSpiel's SimpleGinRummyBot: the opponent of parts 2 and 3
DEFENDERS = ["simple", "greedy"]    # parts 1 and 4: simple never lays off, greedy lays off what lowers its deadwood
KNOCK_AT = [0, 2, 4, 6, 8, 10]      # knock with at most this deadwood while the stock holds more than late_stock
LATE_STOCK = [6, 14, 22]            # ... and with at most 10 from then on (late_knock_at)
PENALTY = [0, 0.5, 1, 2, 4]         # pickup_penalty: the knock limit drops by this per upcard the opponent holds
STOCK_BINS = [0, 10, 20, 32]        # stock left at the knock (31 cards at the first turn)
STOCK_NAMES = ["0-9", "10-19", "20-31"]
MIN_KNOCKS = 20                     # a cell with fewer knocks is not drawn''')

PART1 = '''def seated(spec, deals, opponent=OPPONENT):
    """``spec`` against ``opponent`` on the same deals in both seats: one row per hand, from spec's seat."""
    parts = []
    for seat, specs in ((0, [spec, opponent]), (1, [opponent, spec])):
        df = results_frame(run_deals(specs, deals, SEED))
        other = 1 - seat
        parts.append(pd.DataFrame({
            "deal": df["deal"], "seat": seat, "end": df["end"].astype(str),
            "knocked": df["knocker"] == seat, "opp_knocked": df["knocker"] == other,
            "undercut": df["undercut"] == 1, "stock_left": df["stock_left"],
            "points": df[f"score_s{seat}"], "deadwood": df[f"deadwood_s{seat}"],
            "opp_pickups": df[f"pickups_s{other}"], "defender": opponent}))
    return pd.concat(parts, ignore_index=True)


def share(hit):
    """(share, low, high): a Wilson 95% interval of a boolean series."""
    n = len(hit)
    if n == 0:
        return np.nan, np.nan, np.nan
    return (hit.mean(), *wilson_interval(float(hit.sum()), n))


def knock_stats(g):
    u, ulo, uhi = share(g["undercut"])
    m, lo, hi = mean_ci(g["points"])
    return pd.Series({"knocks": len(g), "undercut": u, "undercut_low": ulo, "undercut_high": uhi,
                      "points": m, "points_low": lo, "points_high": hi})


t0 = time.perf_counter()
hands = pd.concat([seated("greedy", DEALS, d) for d in DEFENDERS], ignore_index=True)
knocks = hands[hands["knocked"]].copy()
knocks["stock"] = pd.cut(knocks["stock_left"], STOCK_BINS, right=False, labels=STOCK_NAMES)
plain = knocks[knocks["end"] == "knock"]   # a gin cannot be undercut
by_dw = plain.groupby(["defender", "deadwood"]).apply(knock_stats, include_groups=False).reset_index()
by_stock = (plain.groupby(["defender", "stock"], observed=True).apply(knock_stats, include_groups=False)
            .reset_index())
for d, h in hands.groupby("defender", sort=False):
    k = knocks[knocks["defender"] == d]
    print(f"greedy against {d}, {len(h):,} hands ({DEALS:,} deals x 2 seats): knocked in {pct(h['knocked'].mean())} "
          f"of them (gin in {pct((k['end'] == 'gin').sum() / len(h))}), undercut in {pct(k['undercut'].mean())} "
          "of its knocks")
print(f"in {time.perf_counter() - t0:.1f} s")
by_dw.round(3)'''

FIG1 = '''fig, axes = charts.figure(1, 3, height=4.2, width=16)
for k, d in enumerate(DEFENDERS):
    st = charts.series_style(k)
    a = by_dw[(by_dw["defender"] == d) & (by_dw["knocks"] >= MIN_KNOCKS)]
    b = by_stock[(by_stock["defender"] == d) & (by_stock["knocks"] >= MIN_KNOCKS)]
    shift = (k - 0.5) * 0.15
    charts.errorbars(axes[0], a["deadwood"] + shift, 100 * a["undercut"], 100 * a["undercut_low"],
                     100 * a["undercut_high"], label=f"defender {d}", color=st["color"], marker=st["marker"])
    charts.errorbars(axes[1], b["stock"].cat.codes + shift, 100 * b["undercut"], 100 * b["undercut_low"],
                     100 * b["undercut_high"], label=f"defender {d}", color=st["color"], marker=st["marker"])
    charts.errorbars(axes[2], a["deadwood"] + shift, a["points"], a["points_low"], a["points_high"],
                     label=f"defender {d}", color=st["color"], marker=st["marker"])
axes[0].set(title="Undercut rate by the knocker's deadwood", xlabel="knocker's deadwood", ylabel="% of knocks")
axes[1].set(title="... by the cards left in the stock", xlabel="stock left at the knock", ylabel="% of knocks",
            xticks=np.arange(len(STOCK_NAMES)), xticklabels=STOCK_NAMES)
axes[2].set(title="Knocker's points per knock (95% CI)", xlabel="knocker's deadwood", ylabel="points")
axes[2].axhline(0, color="black", lw=0.8)
for ax in (axes[0], axes[2]):
    charts.integer_axis(ax)
for ax in axes:
    ax.legend()
fig.suptitle("greedy's knocks (no gin), Wilson / t 95% CI", fontweight="bold")
fig.tight_layout()'''

PART2 = '''t0 = time.perf_counter()
sw = play_sweep("knocker", {"knock_at": KNOCK_AT, "late_stock": LATE_STOCK}, vs=OPPONENT, deals=DEALS, seed=SEED,
                game="gin", progress=False)
grid = sweep_table(sw.run).astype({"knock_at": int, "late_stock": int})   # the grid's values come back as text
asap = grid.index[(grid["knock_at"] == 10) & (grid["late_stock"] == LATE_STOCK[0])][0]   # greedy's policy
rows = []
for i in grid.index:   # every point minus knocking as soon as possible, paired on the same deals
    w = np.zeros(len(grid))
    w[i] += 1.0
    w[asap] -= 1.0
    c = sw.run.totals.contrast(w) if i != asap else {"mean_diff": 0.0, "ci_low": 0.0, "ci_high": 0.0, "p_value": 1.0}
    rows.append({"vs_asap": c["mean_diff"], "vs_asap_low": c["ci_low"], "vs_asap_high": c["ci_high"],
                 "vs_asap_p": c["p_value"]})
grid = pd.concat([grid, pd.DataFrame(rows, index=grid.index)], axis=1)
best = grid.loc[grid["mean_diff"].idxmax()]
print(f"{len(grid)} policies x {DEALS:,} duplicate deals against {OPPONENT} in {time.perf_counter() - t0:.0f} s")
grid[["knock_at", "late_stock", "mean_diff", "ci_low", "ci_high", "win_rate", "vs_asap", "vs_asap_low",
      "vs_asap_high", "vs_asap_p"]].round(3)'''

FIG2 = '''fig, axes = charts.figure(1, 2, height=4.2, width=14)
charts.sweep_figure(grid, "knock_at", group="late_stock", ax=axes[0], ylabel=f"points per hand minus {OPPONENT}'s",
                    title=f"knocker against {OPPONENT} (paired 95% CI)")
charts.sweep_figure(grid, "knock_at", group="late_stock", value="vs_asap", low="vs_asap_low", high="vs_asap_high",
                    ax=axes[1], mark_best=False, ylabel="points per hand, minus knocking as soon as possible",
                    title="The same deals: each policy minus greedy's (knock_at 10)")
axes[1].axhline(0, color="black", lw=0.8)
fig.tight_layout()'''

PART3 = '''late = int(best["late_stock"])
ENDINGS = ["gin", "knock", "undercut", "undercut them", "opponent knocked"]   # seen from the player; and draws
t0 = time.perf_counter()
outcome_rows = []
for k in KNOCK_AT:
    h = seated(f"knocker:knock_at={k},late_stock={late}", DEALS)
    kinds = {"gin": h["knocked"] & (h["end"] == "gin"),
             "knock": h["knocked"] & (h["end"] == "knock") & ~h["undercut"],
             "undercut": h["knocked"] & h["undercut"], "undercut them": h["opp_knocked"] & h["undercut"],
             "opponent knocked": h["opp_knocked"] & ~h["undercut"], "draw": h["end"].isin(["wall", "repeated_upcard", "upcard_limit"])}
    m, lo, hi = mean_ci(h["points"])
    row = {"knock_at": k, "points": m, "points_low": lo, "points_high": hi}
    for name, hit in kinds.items():
        row[f"{name}_share"], row[f"{name}_low"], row[f"{name}_high"] = share(hit)
        row[f"{name}_worth"] = h.loc[hit, "points"].sum() / len(h)   # its points per hand, all hands counted
    outcome_rows.append(row)
outcomes = pd.DataFrame(outcome_rows)
own = knocks[knocks["defender"] == OPPONENT]
gin_points = mean_ci(own.loc[own["end"] == "gin", "points"])
knock_points = mean_ci(own.loc[own["end"] == "knock", "points"])
print(f"{len(KNOCK_AT)} policies (late_stock {late}) x {DEALS:,} deals x 2 seats in {time.perf_counter() - t0:.0f} s; "
      f"greedy's gins were worth {ci(*gin_points, '.1f')} points each, its other knocks {ci(*knock_points, '.1f')}")
outcomes[["knock_at", "points", *[f"{n}_{v}" for v in ("share", "worth") for n in ENDINGS], "draw_share"]].round(3)'''

FIG3 = '''fig, axes = charts.figure(1, 2, height=4.2, width=14)
for j, name in enumerate(ENDINGS):
    st = charts.series_style(j)
    charts.errorbars(axes[0], outcomes["knock_at"] + (j - 2) * 0.12, 100 * outcomes[f"{name}_share"],
                     100 * outcomes[f"{name}_low"], 100 * outcomes[f"{name}_high"], label=name, color=st["color"],
                     marker=st["marker"])
axes[0].set(title=f"How the hand ends (late_stock {late}, Wilson 95% CI)", xlabel="knock_at",
            ylabel="% of hands")
axes[0].legend()
x = np.arange(len(KNOCK_AT))
bottom_pos, bottom_neg = np.zeros(len(x)), np.zeros(len(x))
for j, name in enumerate(ENDINGS):
    v = outcomes[f"{name}_worth"].to_numpy()
    base = np.where(v >= 0, bottom_pos, bottom_neg)
    axes[1].bar(x, v, bottom=base, color=charts.series_style(j)["color"], label=name, width=0.6)
    bottom_pos, bottom_neg = bottom_pos + np.maximum(v, 0), bottom_neg + np.minimum(v, 0)
charts.errorbars(axes[1], x, outcomes["points"], outcomes["points_low"], outcomes["points_high"],
                 label="points per hand (95% CI)", color="black")
axes[1].set(xticks=x, xticklabels=[str(k) for k in KNOCK_AT], xlabel="knock_at", ylabel="points per hand",
            title="What each ending is worth per hand (stacked) and their sum")
axes[1].axhline(0, color="black", lw=0.8)
axes[1].legend(fontsize=8)
fig.tight_layout()'''

PART4 = '''plain = plain.assign(opp_took=np.minimum(plain["opp_pickups"], 3))
by_pickups = (plain.groupby(["defender", "opp_took"]).apply(knock_stats, include_groups=False).reset_index())
print(by_pickups.round(3).to_string(index=False))
PENALTY_BASE = "knocker"   # knocks as soon as it may: the policy most exposed to an undercut
t0 = time.perf_counter()
pen_rows = []
for d in DEFENDERS:
    pen = play_sweep(PENALTY_BASE, {"pickup_penalty": PENALTY}, vs=d, deals=DEALS, seed=SEED, game="gin",
                     progress=False)
    t = sweep_table(pen.run).astype({"pickup_penalty": float})
    for i in t.index:   # PENALTY[0] = 0: each value minus no penalty, paired on the same deals
        w = np.zeros(len(t))
        w[i] += 1.0
        w[0] -= 1.0
        c = pen.run.totals.contrast(w) if i else {"mean_diff": 0.0, "ci_low": 0.0, "ci_high": 0.0, "p_value": 1.0}
        pen_rows.append({"defender": d, "pickup_penalty": t.loc[i, "pickup_penalty"], "vs_defender": t.loc[i, "mean_diff"],
                         "vs_none": c["mean_diff"], "vs_none_low": c["ci_low"], "vs_none_high": c["ci_high"],
                         "vs_none_p": c["p_value"]})
penalty = pd.DataFrame(pen_rows)
print(f"pickup_penalty of {PENALTY_BASE}: {len(PENALTY)} values x {len(DEFENDERS)} defenders x {DEALS:,} duplicate "
      f"deals in {time.perf_counter() - t0:.0f} s")
penalty.round(3)'''

FIG4 = '''fig, axes = charts.figure(1, 2, height=4.2, width=14)
for k, d in enumerate(DEFENDERS):
    st = charts.series_style(k)
    shift = (k - 0.5) * 0.1
    s = by_pickups[(by_pickups["defender"] == d) & (by_pickups["knocks"] >= MIN_KNOCKS)]
    charts.errorbars(axes[0], s["opp_took"] + shift, 100 * s["undercut"], 100 * s["undercut_low"],
                     100 * s["undercut_high"], label=f"defender {d}", color=st["color"], marker=st["marker"])
    s = penalty[penalty["defender"] == d]
    charts.errorbars(axes[1], np.arange(len(s)) + shift, s["vs_none"], s["vs_none_low"], s["vs_none_high"],
                     label=f"against {d}", color=st["color"], marker=st["marker"])
axes[0].set(xticks=[0, 1, 2, 3], xticklabels=["0", "1", "2", "3+"], xlabel="upcards the defender took in the hand",
            ylabel="% of knocks undercut", title="Undercut rate of greedy's knocks (no gin; Wilson 95% CI)")
axes[1].set(xticks=np.arange(len(PENALTY)), xticklabels=[f"{p:g}" for p in PENALTY], xlabel="pickup_penalty",
            ylabel="points per hand, minus no penalty", title=f"{PENALTY_BASE}'s pickup_penalty (paired 95% CI)")
axes[1].axhline(0, color="black", lw=0.8)
for ax in axes:
    ax.legend()
fig.tight_layout()'''

ANSWER = '''def paired(mean, low, high, p):
    verdict = "better" if low > 0 else "worse" if high < 0 else "not distinguishable"
    return f"{ci(mean, low, high)} points per hand ({verdict}, {format_p(p)})"


def pct_ci(hit):
    m, lo, hi = share(hit)
    return f"{100 * m:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def undercut_sentence(d):
    k = plain[plain["defender"] == d]
    return (f"against {d}, {pct_ci(k.loc[k['deadwood'] <= 3, 'undercut'])} of greedy's knocks with deadwood 1-3 were "
            f"undercut and {pct_ci(k.loc[k['deadwood'] >= 8, 'undercut'])} with 8-10; "
            f"{pct_ci(k.loc[k['stock_left'] >= 20, 'undercut'])} with 20 or more cards left in the stock, "
            f"{pct_ci(k.loc[k['stock_left'] < 10, 'undercut'])} with fewer than 10; "
            f"{pct_ci(k.loc[k['opp_took'] == 0, 'undercut'])} when the defender had taken no upcard, "
            f"{pct_ci(k.loc[k['opp_took'] >= 2, 'undercut'])} after two or more")


def penalty_sentence(d):
    t = penalty[penalty["defender"] == d]
    b = t.loc[t["vs_none"].idxmax()]
    if b["pickup_penalty"] == 0:
        return f"against {d} no penalty was best"
    return (f"against {d} the best, {b['pickup_penalty']:g} a card{edge('pickup_penalty', b['pickup_penalty'], PENALTY)}, "
            "against none: "
            + paired(b["vs_none"], b["vs_none_low"], b["vs_none_high"], b["vs_none_p"]))


capital = lambda text: text[:1].upper() + text[1:]


def edge(name, value, values):
    """A note when the best value is the smallest or largest tried: the optimum may lie beyond."""
    return f" ({name} {value:g} is at the edge of the values tried)" if value in (min(values), max(values)) else ""


gin0 = grid[(grid["knock_at"] == 0) & (grid["late_stock"] == late)].iloc[0]
o0, o10 = outcomes.iloc[0], outcomes.iloc[-1]
sentences = [
    f"**When to knock.** Of the {len(grid)} knock policies against {OPPONENT}, the best on these deals knocks with at "
    f"most {int(best['knock_at'])} deadwood while the stock holds more than {late} cards (then with at most 10)"
    f"{edge('late_stock', late, LATE_STOCK)}: "
    f"{ci(best['mean_diff'], best['ci_low'], best['ci_high'])} points per hand against {OPPONENT}; against knocking as "
    f"soon as possible (greedy's policy) on the same deals it is "
    + (paired(best["vs_asap"], best["vs_asap_low"], best["vs_asap_high"], best["vs_asap_p"])
       if best.name != asap else "the same policy")
    + f". (The best of {len(grid)} is chosen on the same deals it is measured on, and its p-value is not corrected "
    "for that choice: a difference only just significant is a lead, not a finding.)",
    f"**Going for gin.** Playing on for gin whenever the stock holds more than {late} cards (knock_at 0) against "
    f"knocking as soon as possible: {paired(gin0['vs_asap'], gin0['vs_asap_low'], gin0['vs_asap_high'], gin0['vs_asap_p'])}. "
    f"It raises the player's gins from {pct(o10['gin_share'])} [{pct(o10['gin_low'])}, {pct(o10['gin_high'])}] to "
    f"{pct(o0['gin_share'])} [{pct(o0['gin_low'])}, {pct(o0['gin_high'])}] of hands; {OPPONENT} knocks first more "
    f"often ({pct(o0['opponent knocked_share'] + o0['undercut them_share'])} of hands instead of "
    f"{pct(o10['opponent knocked_share'] + o10['undercut them_share'])}), and the player then undercuts it in "
    f"{pct(o0['undercut them_share'])} of hands instead of {pct(o10['undercut them_share'])}. A gin of greedy against "
    f"{OPPONENT} was worth {ci(*gin_points, '.1f')} points, its other knocks {ci(*knock_points, '.1f')}.",
    "**The undercut risk.** " + " ".join(capital(undercut_sentence(d)) + "." for d in DEFENDERS) + " Lowering the "
    "knock limit by pickup_penalty per upcard the defender took and holds: " + "; ".join(penalty_sentence(d) for d in
                                                                                        DEFENDERS) + ".",
    f"All from {DEALS:,} deals (seed {SEED}); intervals 95% (Wilson for shares, t for points, paired on duplicate "
    "deals for policies).",
]
answer(sentences)'''

NOTEBOOKS["10_gin_knock"] = [
    ("md", INTRO),
    ("md", RUNTIME),
    ("code", SETUP),
    ("code", """rate = estimate(X.sweep("knocker", [("knock_at", KNOCK_AT), ("late_stock", LATE_STOCK)], OPPONENT, DEALS, SEED,
                       game="gin"))"""),
    ("md", """## 1. What a knock is worth, by deadwood and stock left
`greedy` knocks as soon as its deadwood allows; each of its knocks is a row: its deadwood, the stock left,
its points and whether the defender undercut it. Two defenders: `simple` never lays off and knocks as
soon as it may, so when the other player knocks its deadwood is above 10 (else it would have knocked)
and it cannot undercut; `greedy` lays off every card that lowers its deadwood."""),
    ("code", PART1),
    ("md", """Left: the share of knocks undercut, by the knocker's deadwood, one series per stock left at the
knock. Right: the knocker's points per knock (negative: undercut). Cells with fewer than 20 knocks are
not drawn."""),
    ("code", FIG1),
    ("md", """## 2. When to knock: the knock policy swept
`knocker` with `knock_at` (the deadwood to knock with while the stock holds more than `late_stock`
cards) and `late_stock`, every grid point against `simple` on the same duplicate deals. `knock_at` 10
knocks as soon as possible at every `late_stock` (the three are the same policy)."""),
    ("code", PART2),
    ("md", """Left: every policy against `simple` (the best circled). Right: the same points minus knocking
as soon as possible, paired on the same deals."""),
    ("code", FIG2),
    ("md", """## 3. The value of going for gin
At the best `late_stock`, every `knock_at` in both seats against `simple`: how each hand ends for the
player (gin, a knock, an undercut of its knock, the opponent knocked, a draw) and what each ending
brings per hand (its points summed over the hands that end so, divided by all hands)."""),
    ("code", PART3),
    ("md", """Left: how the hands end, by `knock_at`. Right: the points each ending brings per hand, stacked
(a draw scores 0), and their sum, the points per hand, with its 95% CI."""),
    ("code", FIG3),
    ("md", """## 4. The undercut risk from the opponent's pickups
A defender that took upcards holds cards the knocker knows; the lay-offs and melds it builds from them
are what undercuts a knock. Left: the undercut rate of `greedy`'s knocks (gin cannot be undercut) by
the upcards the defender took in the hand (some may since have been discarded). Right: `knocker`
(knocking as soon as it may, the policy most exposed to an undercut) with `pickup_penalty` against
each defender, minus no penalty, paired on the same deals. A large penalty stops the knock altogether
after a few pickups (at 4 a card, a knock needs deadwood 2 after two pickups and is never allowed after
three), so it also plays on for gin as in part 3: a gain there is not by itself an undercut avoided."""),
    ("code", PART4),
    ("code", FIG4),
    ("md", "## Answer"),
    ("code", ANSWER),
]

if __name__ == "__main__":
    main(NOTEBOOKS, description=__doc__.splitlines()[0])
