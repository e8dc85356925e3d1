"""Build notebooks/01..05 (*.ipynb) from the cell sources below, so they are reproducible.

    .venv/bin/python notebooks/build_notebooks.py            # rewrites the five notebooks, unexecuted
    .venv/bin/python notebooks/build_notebooks.py --execute  # `make notebooks`: also executes them at their
                                                             # documented deal counts and states each run time

Every notebook reads its deal count from the environment variable RUMMY_DEALS (tests
run them with a small one, users with a large one), states its seed and the command
that reproduces its runs, estimates the time of each long cell from measured deals/s
before running it (sim.present.notebook.estimate, tqdm.auto progress bars), draws its charts
with sim.present.charts (95% CIs everywhere) and ends with an "Answer" section whose sentences
are built from the computed numbers. The notebooks are committed executed: the second
cell states the run time ``--execute`` measured (the only cell whose text differs from
this file's; tests/test_notebooks.py allows exactly that).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _cells import RUNTIME, RUNTIME_PREFIX, execute, main, rerun, setup, write_notebooks  # noqa: E402, F401

NOTEBOOKS: dict[str, list[tuple[str, str]]] = {}

# ---------------------------------------------------------------------------------------------
NOTEBOOKS["01_quickstart"] = [
    ("md", """# 01 Quickstart: a match, its per-play frame, its summary and confidence interval

`expert` plays `greedy` on duplicate deals: every deal index is dealt twice with the same cards, the
teams swapping seat pairs (RULES.md P2, docs/results.md). The unit of analysis is the *deal set* (one
deal index, both rotations). The **Answer** at the end gives the result in sentences built from the numbers.

""" + rerun("01_quickstart", 40_000) + """

Seed **2026**. The same match from the command line:
`rummy-sim match expert greedy --deals $RUMMY_DEALS --seed 2026 --out match.parquet`, then
`rummy-sim report match.parquet --out reports/quickstart/`."""),
    ("md", RUNTIME),
    ("code", setup(40_000, 2026)),
    ("code", """rate = estimate(X.match("expert", "greedy", DEALS, SEED))   # measured on a few hundred deals first"""),
    ("code", """from sim.studies.match import format_summary, play_match

bar, on_chunk = chunk_bar(DEALS, "expert vs greedy")
t0 = time.perf_counter()
result = play_match("expert", "greedy", deals=DEALS, seed=SEED, keep_plays=True, progress=False, on_chunk=on_chunk)
print(f"{DEALS:,} deals x 2 rotations in {time.perf_counter() - t0:.1f} s")
print(format_summary(result))"""),
    ("md", """## The per-play frame
One row per play (deal index x rotation): who sat where, how the deal ended, each engine team's
table / hand / bonus / total points and twelve counters per seat. `a_total` and `b_total` are team A's
and team B's deal scores whatever seats they held (`a_team` says which)."""),
    ("code", """plays = result.plays
print(plays.shape, f"{plays.memory_usage(deep=True).sum() / len(plays):.0f} bytes per play in memory")
plays[["deal", "rotation", "a_team", "strategy_s0", "strategy_s1", "dealer", "end", "turns",
       "total_0", "total_1", "a_total", "b_total", "takes_s0", "max_depth_s0", "hand_points_s0"]].head(8)"""),
    ("md", """## Deal sets and the summary
`result.sets` averages each deal's rotations; the paired 95% interval is a Student-t interval over these
deal-set differences. `result.summary` holds every statistic as a JSON-ready dict."""),
    ("code", """sets = result.sets
m, lo, hi = charts.mean_ci(sets["diff"])
s = result.summary
print(f"A - B per deal set: {m:+.2f}  95% CI [{lo:+.2f}, {hi:+.2f}]   (summary: {s['mean_diff']:+.2f} "
      f"[{s['ci95'][0]:+.2f}, {s['ci95'][1]:+.2f}])")
assert abs(m - s["mean_diff"]) < 1e-9
{k: s[k] for k in ("mean_diff", "ci95", "p_value", "unpaired_ci95", "variance_reduction", "game_win_rate",
                   "game_win_rate_ci95", "deals_needed", "end_rates")}"""),
    ("code", """fig = charts.match_figure(result.row)"""),
    ("md", """The interval narrows like 1/sqrt(deal sets). The running estimate shows when more deals stop
changing the answer:"""),
    ("code", """fig = charts.running_mean_figure(sets["diff"].to_numpy(), "expert - greedy: running mean with 95% CI")"""),
    ("md", "## Deal scores of the two teams (each mean with its 95% CI over deal sets)"),
    ("code", """edges = np.arange(-300, 701, 10)
series = {f"A expert": np.histogram(plays["a_total"].clip(-300, 699), edges)[0],
          f"B greedy": np.histogram(plays["b_total"].clip(-300, 699), edges)[0]}
ci_of = {"A expert": charts.mean_ci(sets["a_total"]), "B greedy": charts.mean_ci(sets["b_total"])}
fig = charts.distributions_figure(edges, series, title="Team score per deal", mean_ci_of=ci_of)"""),
    ("md", "## Answer"),
    ("code", """r = result.row
vr = r["variance_reduction"]
half = (r["ci_high"] - r["ci_low"]) / 2
text = answer([
    f"**expert scores {ci(r['mean_diff'], r['ci_low'], r['ci_high'], '+.1f')} points per deal more than greedy** "
    f"(paired 95% CI over {int(r['deal_sets']):,} deal sets, {format_p(r['p_value'])}); its team wins "
    f"{pct(r['game_win_rate'])} [{pct(r['game_win_rate_ci_low'])}, {pct(r['game_win_rate_ci_high'])}] of the "
    f"two-deal games (a tie counts half).",
    f"Mean team score per deal: expert {ci(*charts.mean_ci(sets['a_total']), '.1f')}, greedy "
    f"{ci(*charts.mean_ci(sets['b_total']), '.1f')}.",
    f"Playing each deal in both rotations made the estimate's variance {vr:.2f}x smaller than independent plays "
    f"would (unpaired CI {ci(r['mean_diff'], r['unpaired_ci_low'], r['unpaired_ci_high'], '+.1f')})"
    + (": almost nothing, because once the two strategies choose differently the same cards lead to different "
       "deals; the precision comes from the number of deals, not from cancelled card luck." if vr < 1.2 else
       ": part of the card luck cancels (measured, not assumed)."),
    f"The interval is +/- {half:.2f} points; telling apart two strategies 1 point apart with this spread needs "
    f"about {int(r['deals_needed']):,} deal sets (80% power, two-sided 5%).",
])"""),
]

# ---------------------------------------------------------------------------------------------
NOTEBOOKS["02_deep_discards"] = [
    ("md", """# 02 Deep discards: is it worth digging into the discard pile?

`deep_taker` takes from the discard pile down to `max_depth` cards above the target when its
estimated gain is at least `min_gain` points (RULES.md P6). We sweep both parameters against `greedy`
on the same deals and read, per setting, the expected score difference per deal (paired 95% CIs),
how often and how deep it takes, the points it puts down and the points caught in its hand at the end;
then the same sweep run adaptively (points clearly out of the running stop early) and the deals it saves;
last, the same fixed sweep against `learned` (the strong built-in, fitted by search and imitation) on the same
deals, to see whether the answer holds against strong play.

""" + rerun("02_deep_discards", 6_000) + """

Seed **2027**. Command: `rummy-sim sweep deep_taker --vary max_depth=0,1,2,3,5,10,55
--vary min_gain=-40,0,40 --vs greedy --deals $RUMMY_DEALS --seed 2027 --out sweep.parquet` (add `--adaptive`
for the adaptive run), then `rummy-sim report sweep.parquet --out reports/deep_discards/`. Against learned:
the same command with `--vs learned --out sweep_learned.parquet`. The committed report
`reports/deep_discard_sweep/` is a sweep of the same kind (against greedy) with more deals per point."""),
    ("md", RUNTIME),
    ("code", setup(6_000, 2027, '''
import tempfile
from pathlib import Path
MAX_DEPTH = [0, 1, 2, 3, 5, 10, 55]
MIN_GAIN = [-40, 0, 40]
GRID = [("max_depth", MAX_DEPTH), ("min_gain", MIN_GAIN)]''')),
    ("code", """rate = estimate(X.sweep("deep_taker", GRID, "greedy", DEALS, SEED))"""),
    ("code", """from sim.games.persian.report_sections import CountersSection
from sim.present.report import collect
from sim.studies.sweep import format_sweep, play_sweep, sweep_table

out = Path(tempfile.mkdtemp()) / "deep_sweep.parquet"   # per-play rows on disk, statistics streamed
bar, on_chunk = chunk_bar(DEALS, "sweep")
t0 = time.perf_counter()
sw = play_sweep("deep_taker", dict(GRID), vs="greedy", deals=DEALS, seed=SEED, out=out, progress=False,
                on_chunk=on_chunk)
print(f"{len(MAX_DEPTH) * len(MIN_GAIN)} points x {DEALS:,} deals x 2 rotations in {time.perf_counter() - t0:.1f} s")
print(format_sweep(sw))"""),
    ("md", """Left: every point against greedy (tested values evenly spaced on the axis; no line suggests values
between them; the best point circled). Right: the close calls, each point minus the best one, paired on
the same deals (far tighter than comparing two intervals against greedy), with the numbers printed."""),
    ("code", """table = sweep_table(sw.run)
table["max_depth"] = table["max_depth"].astype(int)
table["min_gain"] = table["min_gain"].astype(int)
fig, axes = charts.figure(1, 2, height=4.6, width=14, gridspec_kw={"width_ratios": [1.2, 1]})
charts.sweep_figure(table, "max_depth", "min_gain", ax=axes[0], title="deep_taker - greedy (95% CI, best circled)")
charts.near_best_figure(table, ["max_depth", "min_gain"], top=6, ax=axes[1])
fig.tight_layout()
table[["max_depth", "min_gain", "mean_diff", "ci_low", "ci_high", "vs_best", "vs_best_ci_low", "vs_best_ci_high",
       "vs_best_p_holm"]].round(2)"""),
    ("md", """## How often and how deep it takes, what it gains and what is caught in hand
Counters per deal as **deep_taker's team minus greedy's team**, paired on the same deal sets (the
quantity to compare), 95% CIs (sim.present.report.collect reads the results file one chunk at a time)."""),
    ("code", """col = collect(out)                     # the report's reduction: Persian's counter section per team
ct = CountersSection.table(col)
maxdepth = col.part("counters").maxdepth  # (pairing, side) -> counts of a seat's deepest take -1 .. 55
grid = table[["max_depth", "min_gain"]].reset_index(drop=True)
diff = pd.concat([grid, ct[ct["side"] == "A - B"].sort_values("pairing").reset_index(drop=True)], axis=1)
own = pd.concat([grid, ct[ct["side"] == "A"].sort_values("pairing").reset_index(drop=True)], axis=1)
panels = [("took", "share of deals with a take"), ("takes", "takes per deal"),
          ("cards_taken", "cards taken per deal"), ("discards_fed", "discards taken next, per deal"),
          ("table", "table points per deal"), ("hand", "hand penalty, points per deal")]
fig, axes = charts.figure(2, 3, height=7.8, width=14)
for k, (ax, (name, unit)) in enumerate(zip(axes.ravel(), panels)):
    charts.sweep_figure(diff, "max_depth", "min_gain", value=name, low=f"{name}_low", high=f"{name}_high", ax=ax,
                        ylabel=f"A - B, {unit}", title=f"{name.replace('_', ' ')}: deep_taker - greedy",
                        mark_best=False, legend=k == 2)
fig.suptitle("deep_taker minus greedy per deal against max_depth (series: min_gain), paired 95% CI",
             fontweight="bold")
fig.tight_layout()"""),
    ("code", """def gained_caught(r):
    return pd.Series({"table pts/deal": ci(r["table"], r["table_low"], r["table_high"], ".1f"),
                      "hand pts/deal": ci(r["hand"], r["hand_low"], r["hand_high"], ".1f"),
                      "takes/deal": ci(r["takes"], r["takes_low"], r["takes_high"], ".2f"),
                      "depth/take": ci(r["depth_per_take"], r["depth_per_take_low"], r["depth_per_take_high"], ".2f")})
print("deep_taker's own team per deal (95% CI):")
pd.concat([grid, own.apply(gained_caught, axis=1)], axis=1)"""),
    ("md", """## Distribution of the deepest take per seat and deal
Exact counts from the engine's `max_depth_sS` counter; "no take" is its own category (left); the shares
have binomial (Wilson) 95% intervals; series are told apart by color, marker and a small offset."""),
    ("code", """fig, ax = charts.figure(1, 1, height=4.2, width=12)
shown = [p for p, row in grid.iterrows() if row["min_gain"] == 0]
deepest = 0
for j, p in enumerate(shown):
    counts = maxdepth[(p, "A")]
    n = int(counts.sum())
    w = np.array([charts.wilson(int(c), n) if c else (np.nan,) * 3 for c in counts])
    x = np.concatenate([[-2.0], np.arange(0, 56)]) + 0.1 * (j - (len(shown) - 1) / 2)
    keep = counts > 0
    st = charts.series_style(j)
    ax.errorbar(x[keep], w[keep, 0], yerr=charts._yerr(w[keep, 0], w[keep, 1], w[keep, 2]), fmt=st["marker"],
                color=st["color"], ms=4.5, lw=1, capsize=2, label=f"max_depth = {int(grid.loc[p, 'max_depth'])}",
                mfc="white" if j % 2 else st["color"])
    if counts[1:].any():
        deepest = max(deepest, int(np.nonzero(counts[1:])[0].max()))
ax.axvline(-1, color="grey", lw=0.8)
ticks = [-2] + list(range(0, deepest + 1))
ax.set_xticks(ticks, ["no take"] + [str(t) for t in ticks[1:]])
ax.set(yscale="log", xlim=(-2.7, deepest + 0.7), xlabel="deepest take of the seat in the deal (cards above the target)",
       ylabel="share of seat-deals", title="How deep deep_taker takes (min_gain = 0), 95% Wilson CIs")
charts.legend_outside(ax)
fig.tight_layout()"""),
    ("md", """## The same sweep, adaptive
Successive elimination with multiple comparisons with the best (Hsu's MCB, Bonferroni over the looks:
the chance of ever dropping the true best point is at most 5%): the statistics are looked at after 500
deals, then after every doubling, and a point stops being played once it is significantly worse than
another. Same seed and deals, so a point's numbers are the fixed run's numbers after as many deals."""),
    ("code", """from sim.studies.adaptive import format_adaptive, run_adaptive

ad = run_adaptive(X.sweep("deep_taker", GRID, "greedy", DEALS, SEED), first_look=500, progress=False)
print(format_adaptive(ad))"""),
    ("md", """## The same sweep against `learned`
The fixed sweep again, every point now against `learned` (the strongest fast built-in: it beats expert by about
8 points per deal) on the same seed and deal indices, `RUMMY_DEALS` deals per point as above. Same charts: every
point against learned (best circled) and the close calls paired against the best one; the table puts each
point's edge against greedy beside its edge against learned."""),
    ("code", """rate_l = estimate(X.sweep("deep_taker", GRID, "learned", DEALS, SEED))
bar, on_chunk = chunk_bar(DEALS, "sweep vs learned")
t0 = time.perf_counter()
sw_l = play_sweep("deep_taker", dict(GRID), vs="learned", deals=DEALS, seed=SEED, progress=False, on_chunk=on_chunk)
print(f"{len(MAX_DEPTH) * len(MIN_GAIN)} points x {DEALS:,} deals x 2 rotations in {time.perf_counter() - t0:.1f} s")
table_l = sweep_table(sw_l.run)
table_l["max_depth"] = table_l["max_depth"].astype(int)
table_l["min_gain"] = table_l["min_gain"].astype(int)
fig, axes = charts.figure(1, 2, height=4.6, width=14, gridspec_kw={"width_ratios": [1.2, 1]})
charts.sweep_figure(table_l, "max_depth", "min_gain", ax=axes[0], title="deep_taker - learned (95% CI, best circled)")
charts.near_best_figure(table_l, ["max_depth", "min_gain"], top=6, ax=axes[1])
fig.tight_layout()
side = table[["max_depth", "min_gain"]].copy()
side["vs greedy"] = [ci(r.mean_diff, r.ci_low, r.ci_high, "+.1f") for r in table.itertuples()]
side["vs learned"] = [ci(r.mean_diff, r.ci_low, r.ci_high, "+.1f") for r in table_l.itertuples()]
side["vs learned's best"] = [ci(r.vs_best, r.vs_best_ci_low, r.vs_best_ci_high, "+.2f") for r in table_l.itertuples()]
side"""),
    ("md", "## Answer"),
    ("code", """idx = {(int(r.max_depth), int(r.min_gain)): i for i, r in enumerate(table.itertuples())}

assert [(int(r.max_depth), int(r.min_gain)) for r in table_l.itertuples()] == list(idx)   # the same grid order

def paired(a, b, run=sw.run):
    \"\"\"Point a minus point b, per deal, paired on the same deal sets: (mean, low, high, p).\"\"\"
    w = np.zeros(len(table))
    w[idx[a]], w[idx[b]] = 1.0, -1.0
    c = run.totals.contrast(w)
    return c["mean_diff"], c["ci_low"], c["ci_high"], c["p_value"]

def says(c, unit="points per deal"):
    word = "no clear difference" if c[1] <= 0 <= c[2] else ("more" if c[0] > 0 else "less")
    return f"{ci(*c[:3], '+.1f')} {unit} ({word})"

def changes(g, l, what):
    \"\"\"How one paired contrast differs between the two fields, in words: both values, and learned minus greedy
    with the two intervals' half-widths combined as if the runs were independent (they share the deals, so this
    is an approximation).\"\"\"
    d, half = l[0] - g[0], np.hypot((g[2] - g[1]) / 2, (l[2] - l[1]) / 2)
    both = f"{what} is {ci(*g[:3], '+.1f')} against greedy and {ci(*l[:3], '+.1f')} against learned"
    if d - half <= 0 <= d + half:
        return f"{both}: not distinguishable (learned minus greedy {ci(d, d - half, d + half, '+.1f')})"
    size = ("of the opposite sign" if g[0] * l[0] < 0 else "smaller in size" if abs(l[0]) < abs(g[0])
            else "larger in size")
    return f"{both}: {size} against learned (learned minus greedy {ci(d, d - half, d + half, '+.1f')})"

best = table[table["best"]].iloc[0]
runner = table[~table["best"]].sort_values("mean_diff", ascending=False).iloc[0]
tied = runner["vs_best_ci_low"] <= 0 <= runner["vs_best_ci_high"]

def against_learned():
    \"\"\"The Answer's sentences on the sweep against learned, compared with the sweep against greedy.\"\"\"
    best_l = table_l[table_l["best"]].iloc[0]
    key_g, key_l = (int(best["max_depth"]), int(best["min_gain"])), (int(best_l["max_depth"]), int(best_l["min_gain"]))
    g_at_l = table_l.iloc[idx[key_g]]
    near = g_at_l["vs_best_ci_low"] <= 0 <= g_at_l["vs_best_ci_high"]
    same = ("the same setting as against greedy" if key_g == key_l else
            f"greedy's best setting (max_depth = {key_g[0]}, min_gain = {key_g[1]}) is "
            f"{ci(g_at_l['vs_best'], g_at_l['vs_best_ci_low'], g_at_l['vs_best_ci_high'], '+.2f')} behind it against "
            f"learned ({'not distinguishable' if near else 'a clear loss'} at this deal count)")
    cs = [(paired(a, b), paired(a, b, sw_l.run)) for a, b in (((5, 0), (0, 0)), ((55, 0), (5, 0)), ((55, 40), (55, 0)))]
    verdict = ("The best setting is the same against both fields." if key_g == key_l else
               "The best setting differs, but greedy's best is not distinguishable from it against learned."
               if near else "The best setting differs, and greedy's best loses points against learned.")
    return [
        f"**Against learned** (same deals, paired 95% CIs): best setting max_depth = {key_l[0]}, min_gain = "
        f"{key_l[1]}, {ci(best_l['mean_diff'], best_l['ci_low'], best_l['ci_high'], '+.1f')} points per deal against "
        f"learned; {same}.",
        f"**Does the conclusion change against strong play?** {changes(*cs[0], 'Digging to depth 5 (over depth 0)')}; "
        f"{changes(*cs[1], '**digging beyond depth 5** (55 over 5)')}; "
        f"{changes(*cs[2], 'asking for a gain of 40 (over 0, at max_depth 55)')}. {verdict}",
    ]

text = answer([
    f"**Taking down to depth 5 is worth {says(paired((5, 0), (0, 0)))}** than never digging below the top card "
    f"(max_depth 0), at min_gain 0; **beyond depth 5 (up to 55) it adds {says(paired((55, 0), (5, 0)))}** "
    f"({DEALS:,} deal sets, paired 95% CIs).",
    f"Best setting: max_depth = {int(best['max_depth'])}, min_gain = {int(best['min_gain'])}, "
    f"{ci(best['mean_diff'], best['ci_low'], best['ci_high'], '+.1f')} points per deal against greedy. "
    f"Runner-up: max_depth = {int(runner['max_depth'])}, min_gain = {int(runner['min_gain'])}, "
    f"{ci(runner['vs_best'], runner['vs_best_ci_low'], runner['vs_best_ci_high'], '+.2f')} behind it "
    + ("(not distinguishable at this deal count)." if tied else f"(Holm-adjusted {format_p(runner['vs_best_p_holm'])})."),
    f"Asking for a gain of 40 points before a take costs {says(paired((55, 40), (55, 0)))} at max_depth 55; "
    f"taking at a loss down to -40 changes {says(paired((55, -40), (55, 0)))}.",
    f"The adaptive sweep ended with {ad.best or 'several points in the running'} "
    f"({'the same best point' if ad.best == best['spec'] else 'compare with the fixed run above'}) after "
    f"{ad.plays:,} plays instead of {ad.fixed_plays:,}: {100 * ad.saved_share:.0f}% of the plays saved.",
    *against_learned(),
])"""),
]

# ---------------------------------------------------------------------------------------------
NOTEBOOKS["03_jokers_and_fours"] = [
    ("md", """# 03 Jokers and fours: hold three for the fourth, or meld at once?

Four jokers melded at once score 160 instead of 60 + 20 laid off later, and any four of a rank melded
at once counts double (RULES.md P8). `quad_holder` can sit on three jokers (`hold_jokers`) and/or three of
another rank (`hold_sets`) until the fourth comes, melding them when the stock runs low or an opponent
is near out.

1. **Overall value**: the four switch settings against `greedy` on the same deals (a sweep) with the
   engine counters `fours_melded_sS`, `joker_fours_melded_sS`, `hand_points_sS`.
   Then the same sweep against `learned`, the strong built-in, to see whether holding still pays
   against strong play.
2. **By stock size when the third arrives**: the engine has no counter for *when* a seat got its third
   joker, so we measure it from deal logs (the engine's recording mode, `sim.games.persian.recording`). On the
   same deals, quad_holder with the switch on and with it off play *identically* until the third card
   arrives (the switch only acts on a held three), so the stock size at that moment is a property of the
   deal, and the per-deal difference between the two arms is the value of holding, given that stock size.
   The notebook checks that the two arms really agree up to the event.
3. **How often the fourth comes, and the cost when it does not.**
4. **How much of quad_holder's edge comes from the doubling rule**: the same match with
   `four_of_a_kind_double` on and off, on the same deals, compared paired (`--vary-rule`), against
   greedy and against learned.

""" + rerun("03_jokers_and_fours", 20_000) + """ Part 2 logs `min(RUMMY_DEALS, 4,000)` deals per arm and seating
(logging is about 2,000 deals/s on an idle machine); its sample is therefore smaller, and its intervals say so.

Seed **2028**. Command for part 1: `rummy-sim sweep quad_holder --vary hold_jokers=0,1 --vary hold_sets=0,1
--vs greedy --deals $RUMMY_DEALS --seed 2028`. Part 2: `rummy-sim log "quad_holder:hold_jokers=1,hold_sets=0" greedy
--deals 4000 --seed 2028 --out hold.jsonl` (and the other arms below) produce the same logs. Part 4:
`rummy-sim sweep quad_holder --vary-rule four_of_a_kind_double=true,false --vs greedy --deals $RUMMY_DEALS --seed 2028`.
Against learned (part 1 and part 4 again, in the section after part 1 and at the end of part 4): the same
commands with `--vs learned`."""),
    ("md", RUNTIME),
    ("code", setup(20_000, 2028, '''
LOG_DEALS = min(DEALS, 4_000)
SWITCHES = [("hold_jokers", [0, 1]), ("hold_sets", [0, 1])]''')),
    ("code", """rate = estimate(X.sweep("quad_holder", SWITCHES, "greedy", DEALS, SEED))"""),
    ("code", """from sim.studies.sweep import format_sweep, play_sweep, sweep_table

bar, on_chunk = chunk_bar(DEALS, "switches")
t0 = time.perf_counter()
sw = play_sweep("quad_holder", dict(SWITCHES), vs="greedy", deals=DEALS, seed=SEED, keep_plays=True,
                progress=False, on_chunk=on_chunk)
print(f"4 points x {DEALS:,} deals in {time.perf_counter() - t0:.1f} s")
print(format_sweep(sw))"""),
    ("code", """def switch_counters(run):
    \"\"\"Per switch setting: the team margin and its team's counters per deal set, mean and 95% CI.\"\"\"
    plays = run.plays
    idx = np.arange(len(plays))
    a_team = plays["a_team"].to_numpy()

    def team_sum(name, team):
        cols = np.stack([plays[f"{name}_s{s}"].to_numpy(np.int64) for s in range(4)], axis=1)
        return cols[idx, team] + cols[idx, team + 2]

    frame = pd.DataFrame({"spec": plays["a"].astype(str), "deal": plays["deal"],
                          "fours": team_sum("fours_melded", a_team),
                          "joker_fours": team_sum("joker_fours_melded", a_team),
                          "hand_points": team_sum("hand_points", a_team),
                          "diff": plays["a_total"].astype(int) - plays["b_total"].astype(int)})
    per_set = frame.groupby(["spec", "deal"], observed=True).mean().reset_index()   # deal sets are independent
    rows = []
    for spec, g in per_set.groupby("spec"):
        short = spec.replace("quad_holder:", "").replace("hold_jokers=", "jokers ").replace("hold_sets=", "sets ")
        r = {"spec": short.replace("true", "on").replace("false", "off").replace(",", ", ")}
        for c in ("diff", "fours", "joker_fours", "hand_points"):
            r[c], r[c + "_low"], r[c + "_high"] = charts.mean_ci(g[c])
        rows.append(r)
    return pd.DataFrame(rows)

def counters_chart(counters, field):
    return charts.counters_figure(counters, [("diff", f"A - {field}, points per deal"),
                                             ("fours", "fours melded per deal"),
                                             ("joker_fours", "joker fours per deal"),
                                             ("hand_points", "points left in hand per deal")], group="spec", ncols=2,
                                  title=f"quad_holder switches against {field} (team of two seats), 95% CI")

counters = switch_counters(sw.run)
fig = counters_chart(counters, "greedy")"""),
    ("md", """## Part 1 against `learned`
The same four switch settings, now against `learned` (the strongest fast built-in) on the same seed and deal
indices, `RUMMY_DEALS` deals per setting: does holding for the fourth still pay against strong play?"""),
    ("code", """rate_l = estimate(X.sweep("quad_holder", SWITCHES, "learned", DEALS, SEED))
bar, on_chunk = chunk_bar(DEALS, "switches vs learned")
t0 = time.perf_counter()
sw_l = play_sweep("quad_holder", dict(SWITCHES), vs="learned", deals=DEALS, seed=SEED, keep_plays=True,
                  progress=False, on_chunk=on_chunk)
print(f"4 points x {DEALS:,} deals in {time.perf_counter() - t0:.1f} s")
print(format_sweep(sw_l))
counters_l = switch_counters(sw_l.run)
fig = counters_chart(counters_l, "learned")"""),
    ("md", """## Part 2: the value of holding by stock size when the third arrives
Arms (team in seats 0 and 2, or 1 and 3, against greedy): **meld** = `quad_holder` with both switches
off, **hold jokers** = `hold_jokers=1`, **hold sets** = `hold_sets=1`. Event: the first moment a seat of the
quad_holder team holds exactly three jokers (resp. three cards of one rank, its fourth not on the table)."""),
    ("code", """from sim.games.persian.recording import record_logs

BASE = "quad_holder:hold_jokers=0,hold_sets=0"
ARMS = {"jokers": "quad_holder:hold_jokers=1,hold_sets=0", "sets": "quad_holder:hold_jokers=0,hold_sets=1"}

def rank(card):
    return "JK" if card == "JK" else card[0]

def first_three(log, seats, kind):
    \"\"\"(turn index, stock size, rank, seat) of the first three-of-a-kind event, or None.\"\"\"
    hands = {s: [rank(c) for c in log["hands"][s]] for s in range(4)}
    table = []
    stock = len(log["stock"])

    def check(s):
        for r in set(hands[s]):
            if (r == "JK") != (kind == "jokers"):
                continue
            if hands[s].count(r) == 3 and r not in table:
                return r
        return None

    for s in seats:
        r = check(s)
        if r:
            return -1, stock, r, s
    for t, turn in enumerate(log["turns"]):
        s, d = turn["seat"], turn["draw"]
        if isinstance(d, dict) and "stock" in d:
            hands[s].append(rank(d["stock"])); stock -= 1
        elif isinstance(d, dict):
            hands[s].extend(rank(c) for c in d["cards"])
        if s in seats:
            r = check(s)
            if r:
                return t, stock, r, s
        for play in turn["plays"]:
            cards = play["meld"] if "meld" in play else [play["layoff"]]
            for c in cards:
                hands[s].remove(rank(c)); table.append(rank(c))
        if turn["discard"]:
            hands[s].remove(rank(turn["discard"]))
    return None

def four_melded(log, seat, r, after):
    for t, turn in enumerate(log["turns"]):
        if t > after and turn["seat"] == seat:
            for play in turn["plays"]:
                if "meld" in play and sum(rank(c) == r for c in play["meld"]) == 4:
                    return True
    return False

def margin(log, team):
    tot = log["score"]["total"]
    return tot[team] - tot[1 - team]

t0 = time.perf_counter()
logs = {}
for seating, seats in ((0, (0, 2)), (1, (1, 3))):
    for arm, spec in [("meld", BASE), *ARMS.items()]:
        table = [spec, "greedy", spec, "greedy"] if seating == 0 else ["greedy", spec, "greedy", spec]
        logs[(arm, seating)] = record_logs(table, LOG_DEALS, SEED)
print(f"{len(logs)} x {LOG_DEALS:,} logged deals in {time.perf_counter() - t0:.1f} s")"""),
    ("code", """events = []
agree = {"jokers": [0, 0], "sets": [0, 0]}
for kind in ("jokers", "sets"):
    for seating, seats in ((0, (0, 2)), (1, (1, 3))):
        hold, meld = logs[(kind, seating)], logs[("meld", seating)]
        for lh, lm in zip(hold, meld):
            ev = first_three(lh, seats, kind)
            if ev is None:
                continue
            t, stock, r, seat = ev
            # identical up to the event: every earlier turn and the draw that brought the third card
            same = (first_three(lm, seats, kind) == ev and lh["turns"][:max(t, 0)] == lm["turns"][:max(t, 0)]
                    and (t < 0 or lh["turns"][t]["draw"] == lm["turns"][t]["draw"]))
            agree[kind][0] += same; agree[kind][1] += 1
            if not same:
                continue   # the arms diverged before the event (should not happen): leave the deal out
            events.append({"kind": kind, "deal": lh["deal"], "seating": seating, "stock": stock, "rank": r,
                           "fourth_melded": four_melded(lh, seat, r, t),
                           "value": margin(lh, seating) - margin(lm, seating)})
ev = pd.DataFrame(events, columns=["kind", "deal", "seating", "stock", "rank", "fourth_melded", "value"])
for kind, (ok, n) in agree.items():
    print(f"{kind}: {n} events in {2 * LOG_DEALS:,} logged team-deals; arms identical up to the event in {ok} of them")
ev.head()"""),
    ("code", """BINS = [-1, 6, 13, 20, 27]
order = ["6-0", "13-7", "20-14", "27-21"][::-1]
ev["stock_when_third"] = pd.cut(ev["stock"], BINS, labels=["6-0", "13-7", "20-14", "27-21"]).astype(str)
rows = []
for kind in ("jokers", "sets"):
    for b in order:
        g = ev[(ev["kind"] == kind) & (ev["stock_when_third"] == b)]
        m, lo, hi = charts.mean_ci(g["value"]) if len(g) else (np.nan,) * 3
        f, flo, fhi = charts.wilson(int(g["fourth_melded"].sum()), len(g)) if len(g) else (np.nan,) * 3
        miss = g[~g["fourth_melded"]]["value"] if len(g) else pd.Series(dtype=float)
        cm, clo, chi = charts.mean_ci(miss) if len(miss) else (np.nan,) * 3
        rows.append({"kind": kind, "stock_when_third": b, "events": len(g), "value": m, "value_low": lo,
                     "value_high": hi, "fourth": f, "fourth_low": flo, "fourth_high": fhi, "cost_no_fourth": cm,
                     "cost_low": clo, "cost_high": chi})
by_stock = pd.DataFrame(rows)
by_stock.round(3)"""),
    ("code", """fig, axes = charts.figure(1, 3, height=4.2, width=14)
for k, kind in enumerate(("jokers", "sets")):
    t = by_stock[by_stock["kind"] == kind]
    x = np.arange(len(t)) + (k - 0.5) * 0.2
    lab = "three jokers" if kind == "jokers" else "three of a rank"
    charts.errorbars(axes[0], x, t["value"], t["value_low"], t["value_high"], label=lab, color=charts.PALETTE[k])
    charts.errorbars(axes[1], x, t["fourth"], t["fourth_low"], t["fourth_high"], label=lab, color=charts.PALETTE[k])
    charts.errorbars(axes[2], x, t["cost_no_fourth"], t["cost_low"], t["cost_high"], label=lab,
                     color=charts.PALETTE[k])
for ax, (title, ylabel) in zip(axes, [("Holding minus melding at once", "team margin gain, points per deal"),
                                      ("How often the fourth is melded", "share of events (Wilson 95% CI)"),
                                      ("Holding minus melding when no four comes", "points per deal")]):
    ax.set_xticks(range(len(order)), order, rotation=20)
    ax.set_xlabel("stock size when the third arrives (cards)")
    ax.set(title=title, ylabel=ylabel)
    if ax is not axes[1]:
        ax.axhline(0, color="grey", lw=0.8)
    ax.legend()
fig.tight_layout()"""),
    ("md", """Reading the charts: a positive value means holding the three (waiting for the fourth) gave the
quad_holder team more points per deal than melding them at once, on the same cards and the same
decisions up to the event. The intervals are t-intervals over independent events (one per deal and
seating at most) and Wilson intervals for shares; with small `RUMMY_DEALS` many buckets are empty (NaN)
or wide. Overall (all stock sizes):"""),
    ("code", """summary = []
for kind in ("jokers", "sets"):
    g = ev[ev["kind"] == kind]
    m, lo, hi = charts.mean_ci(g["value"]) if len(g) else (np.nan,) * 3
    f = charts.wilson(int(g["fourth_melded"].sum()), len(g)) if len(g) else (np.nan,) * 3
    c = charts.mean_ci(g[~g["fourth_melded"]]["value"]) if len(g) else (np.nan,) * 3
    summary.append({"kind": kind, "events": len(g), "value of holding [95% CI]": f"{m:+.1f} [{lo:+.1f}, {hi:+.1f}]",
                    "fourth melded": f"{f[0]:.3f} [{f[1]:.3f}, {f[2]:.3f}]",
                    "value when it does not come": f"{c[0]:+.1f} [{c[1]:+.1f}, {c[2]:+.1f}]"})
pd.DataFrame(summary)"""),
    ("md", """## Part 4: how much of quad_holder's edge comes from the doubling?
The same match, quad_holder against greedy, with the rule `four_of_a_kind_double` on (the default, P8)
and off, played on the very same deals; the difference between the two edges is paired per deal set.
Then the same against `learned`."""),
    ("code", """from sim.studies.rule_sweep import format_rule_sweep, play_rule_sweep, rule_sweep_table

rs = play_rule_sweep("quad_holder", {"four_of_a_kind_double": ["true", "false"]}, "greedy", DEALS, SEED,
                     progress=False)
print(format_rule_sweep(rs))
rt = rule_sweep_table(rs)
rs_l = play_rule_sweep("quad_holder", {"four_of_a_kind_double": ["true", "false"]}, "learned", DEALS, SEED,
                       progress=False)   # the same against learned
print(format_rule_sweep(rs_l))
rt_l = rule_sweep_table(rs_l)"""),
    ("md", "## Answer"),
    ("code", """t = sweep_table(sw.run)
on_off = {"0": 0, "1": 1, "false": 0, "true": 1}   # the switches as the sweep table writes them
pos = {(on_off[str(r.hold_jokers)], on_off[str(r.hold_sets)]): i for i, r in enumerate(t.itertuples())}
t_l = sweep_table(sw_l.run)
assert [(on_off[str(r.hold_jokers)], on_off[str(r.hold_sets)]) for r in t_l.itertuples()] == list(pos)

def contrast(a, b, run):
    w = np.zeros(len(t))
    w[pos[a]], w[pos[b]] = 1.0, -1.0
    c = run.totals.contrast(w)
    return c["mean_diff"], c["ci_low"], c["ci_high"]

def paired(a, b, run=sw.run):
    c = contrast(a, b, run)
    return ci(*c, "+.1f") + (" (no clear difference)" if c[1] <= 0 <= c[2] else "")

def changes(g, l, what):
    \"\"\"How one paired contrast differs between the two fields, in words: both values, and learned minus greedy
    with the two intervals' half-widths combined as if the runs were independent (they share the deals, so this
    is an approximation).\"\"\"
    d, half = l[0] - g[0], np.hypot((g[2] - g[1]) / 2, (l[2] - l[1]) / 2)
    both = f"{what} is {ci(*g[:3], '+.1f')} against greedy and {ci(*l[:3], '+.1f')} against learned"
    if d - half <= 0 <= d + half:
        return f"{both}: not distinguishable (learned minus greedy {ci(d, d - half, d + half, '+.1f')})"
    size = ("of the opposite sign" if g[0] * l[0] < 0 else "smaller in size" if abs(l[0]) < abs(g[0])
            else "larger in size")
    return f"{both}: {size} against learned (learned minus greedy {ci(d, d - half, d + half, '+.1f')})"

def doubling(rt):
    on, off = rt.iloc[0], rt.iloc[1]
    share = 1 - off["mean_diff"] / on["mean_diff"] if on["mean_diff"] else float("nan")
    gain = (-off["vs_first_rule"], -off["vs_first_rule_ci_high"], -off["vs_first_rule_ci_low"])
    return on, off, share, gain

on, off, share, gain = doubling(rt)
on_l, off_l, share_l, gain_l = doubling(rt_l)
arms = {"three jokers": ((1, 0), (0, 0)), "three of another rank": ((0, 1), (0, 0)), "both": ((1, 1), (0, 0))}
cs = {k: (contrast(*ab, sw.run), contrast(*ab, sw_l.run)) for k, ab in arms.items()}
jk = ev[ev["kind"] == "jokers"]
text = answer([
    f"Against melding at once (both switches off), **holding three jokers for the fourth is worth "
    f"{paired((1, 0), (0, 0))} points per deal**, holding three of another rank {paired((0, 1), (0, 0))}, "
    f"and both {paired((1, 1), (0, 0))} ({DEALS:,} deal sets against greedy, paired 95% CIs).",
    f"**With the doubling rule quad_holder beats greedy by {ci(on['mean_diff'], on['ci_low'], on['ci_high'], '+.1f')}"
    f" points per deal, without it by {ci(off['mean_diff'], off['ci_low'], off['ci_high'], '+.1f')}**: the doubling "
    f"accounts for {ci(*gain, '+.1f')} points of the edge (paired on the same deals), about {100 * share:.0f}% of it.",
    (f"In the logged deals (part 2, {LOG_DEALS:,} per arm and seating) the fourth joker was melded after "
     f"{pct(jk['fourth_melded'].mean())} of the {len(jk):,} three-joker events, and holding changed the team margin "
     f"by {ci(*charts.mean_ci(jk['value']), '+.1f')} points per event." if len(jk) >= 2 else
     "Too few three-joker events were logged at this deal count for a per-event estimate."),
    f"**Against learned** (same deals): quad_holder (both switches on, as by default) scores "
    f"{ci(on_l['mean_diff'], on_l['ci_low'], on_l['ci_high'], '+.1f')} points per deal against learned with the "
    f"doubling rule and {ci(off_l['mean_diff'], off_l['ci_low'], off_l['ci_high'], '+.1f')} without it.",
    "**Does the conclusion change against strong play?** Holding, over melding at once, per deal (paired 95% CIs): "
    + "; ".join(changes(*cs[k], f"**{k}**") for k in arms)
    + f". {changes(gain, gain_l, 'What the doubling rule adds to quad_holder-minus-field')}.",
])"""),
]

# ---------------------------------------------------------------------------------------------
NOTEBOOKS["04_expected_scores"] = [
    ("md", """# 04 Expected scores of the built-in strategies

Each built-in strategy plays a table of four copies of itself (so the teams are equal and every
difference is a seat or dealer effect). Per strategy: distributions of deal and game scores (game = two
deals, P9), the score by position relative to the dealer, end reasons and deal length, each with 95%
intervals. `learned` (the strong built-in, fitted by search and imitation) is among them. Last, the
expected score of each strategy's team **against a field**: two seats of it against two of `greedy`, and
against two of `learned` (duplicate matches on the same deals), to see whether the scoring levels
carry over to strong play. `mc_search` (about 20 deals/s) is left out: it would need hours at these deal
counts; run `rummy-sim match mc_search greedy --deals 200` for a look at it.

""" + rerun("04_expected_scores", 10_000) + """

Seed **2029**. Command for one strategy's table: `rummy-sim log expert expert expert expert --deals 10
--seed 2029 --out deals.jsonl` replays single deals; the statistics below come from
`sim.games.persian.engine.run_deals(["expert"] * 4, DEALS, 2029)` (Python). Against a field (half the deals,
`RUMMY_DEALS / 2` per match): `rummy-sim match expert learned --deals $((RUMMY_DEALS / 2)) --seed 2029` (and
`greedy` in place of `learned`, each strategy in place of `expert`)."""),
    ("md", RUNTIME),
    ("code", setup(10_000, 2029, '''
STRATEGIES = ["random", "greedy", "deep_taker", "quad_holder", "defensive", "expert", "learned"]
FIELDS = ["greedy", "learned"]
FIELD_DEALS = max(2, DEALS // 2)   # deals per match against a field''')),
    ("code", """from sim.games.persian.engine import results_frame, run_deals

CALIB = min(DEALS, 300)
seconds = 0.0
for name in STRATEGIES:
    run_deals([name] * 4, 2, SEED)                       # loads (or compiles) the kernels
    t0 = time.perf_counter()
    run_deals([name] * 4, CALIB, SEED)
    seconds += (time.perf_counter() - t0) * DEALS / CALIB
print(f"estimate: {len(STRATEGIES)} strategies x {DEALS:,} deals at the measured speed of each -> about {seconds:.0f} s")"""),
    ("code", """from tqdm.auto import tqdm

frames = {}
t0 = time.perf_counter()
for name in tqdm(STRATEGIES, desc="strategies"):
    f = results_frame(run_deals([name] * 4, DEALS, SEED))
    f["strategy"] = name
    frames[name] = f
print(f"{len(STRATEGIES)} x {DEALS:,} deals in {time.perf_counter() - t0:.1f} s")
df = pd.concat(frames.values(), ignore_index=True)
df["strategy"] = pd.Categorical(df["strategy"], STRATEGIES)"""),
    ("md", """## Deal and game scores
A team's deal score (both teams pooled: they play the same strategy) and its score over a two-deal
game. The mean's interval is over deals (each deal counts once, both teams averaged)."""),
    ("code", """edges = np.arange(-300, 801, 10)
gedges = np.arange(-400, 1401, 20)
deal_hist, game_hist, ci_deal, ci_game = {}, {}, {}, {}
for name, f in frames.items():
    both = np.concatenate([f["total_0"], f["total_1"]])
    deal_hist[name] = np.histogram(np.clip(both, -300, 799), edges)[0]
    ci_deal[name] = charts.mean_ci((f["total_0"] + f["total_1"]) / 2)
    g = f.assign(game=f["deal"] // 2).groupby("game")[["total_0", "total_1"]].sum()
    gb = np.concatenate([g["total_0"], g["total_1"]])
    game_hist[name] = np.histogram(np.clip(gb, -400, 1399), gedges)[0]
    ci_game[name] = charts.mean_ci((g["total_0"] + g["total_1"]) / 2)
fig, axes = charts.figure(1, 2, height=4.4, width=13)
charts.distributions_figure(edges, deal_hist, title="Team score per deal", ax=axes[0], mean_ci_of=ci_deal)
charts.distributions_figure(gedges, game_hist, xlabel=charts.PTS_GAME, title="Team score per game (2 deals)",
                            ax=axes[1], mean_ci_of=ci_game)
fig.tight_layout()"""),
    ("md", """## Seat and dealer effects
Per seat, by position relative to the dealer (0 = dealer, 1 = first to play), the table points it
scored and the points left in its hand; and the team score of the dealer's team minus the other team
(per deal, t-interval over deals)."""),
    ("code", """rows = []
for name, f in frames.items():
    d = f["dealer"].to_numpy()
    for pos in range(4):
        seat = (d + pos) % 4
        idx = np.arange(len(f))
        table = np.stack([f[f"table_points_s{s}"] for s in range(4)], 1)[idx, seat]
        hand = np.stack([f[f"hand_points_s{s}"] for s in range(4)], 1)[idx, seat]
        m, lo, hi = charts.mean_ci(table - hand)
        rows.append({"strategy": name, "position": pos, "net": m, "net_low": lo, "net_high": hi})
seat_fx = pd.DataFrame(rows)
fig, axes = charts.figure(1, 2, height=4.0, width=13)
for k, name in enumerate(STRATEGIES):
    t = seat_fx[seat_fx["strategy"] == name]
    charts.errorbars(axes[0], t["position"] + (k - (len(STRATEGIES) - 1) / 2) * 0.07, t["net"], t["net_low"],
                     t["net_high"], label=name,
                     color=charts.PALETTE[k])
axes[0].set_xticks(range(4), ["dealer", "1st to play", "2nd", "3rd"])
axes[0].set(title="Seat's table points minus hand points", ylabel="points per deal (one seat)",
            xlabel="position relative to the dealer")
axes[0].legend(ncols=2)
dealer = []
for name, f in frames.items():
    dteam = f["dealer"].to_numpy() % 2
    adv = np.where(dteam == 0, f["total_0"] - f["total_1"], f["total_1"] - f["total_0"])
    dealer.append((name, *charts.mean_ci(adv)))
dealer = pd.DataFrame(dealer, columns=["strategy", "mean", "low", "high"])
charts.forest(axes[1], dealer["strategy"].tolist(), dealer["mean"], dealer["low"], dealer["high"],
              xlabel="dealer's team - other team, points per deal")
axes[1].set_title("Dealer's team advantage, 95% CI")
fig.tight_layout()
dealer.round(2)"""),
    ("md", "## End reasons and deal length"),
    ("code", """rows = []
for name, f in frames.items():
    for end in ("out", "passes", "cap"):
        sh, lo, hi = charts.wilson(int((f["end"] == end).sum()), len(f))
        rows.append({"strategy": name, "end": end, "share": sh, "ci_low": lo, "ci_high": hi})
ends = pd.DataFrame(rows)
fig, axes = charts.figure(1, 2, height=4.0, width=13)
charts.shares_figure(ends, "end", "strategy", "How deals end (share of deals, Wilson 95% CI)", ax=axes[0])
tedges = np.arange(0, 201, 2)
for k, (name, f) in enumerate(frames.items()):
    m, lo, hi = charts.mean_ci(f["turns"])
    charts.step_hist(axes[1], tedges, np.histogram(f["turns"].clip(0, 199), tedges)[0],
                     label=f"{name}: {m:.1f} [{lo:.1f}, {hi:.1f}]", color=charts.PALETTE[k])
axes[1].set(title="Deal length (mean, 95% CI)", xlabel="turns per deal (all seats)", ylabel="density (share per turn)",
            xlim=(0, 80))
charts.legend_outside(axes[1])
fig.tight_layout()
ends.pivot(index="strategy", columns="end", values="share").round(4)"""),
    ("md", """## Against a field: greedy and learned
Each strategy's team (seats 0 and 2, then 1 and 3: a duplicate match) against a team of `greedy` and against
a team of `learned`, `FIELD_DEALS` deal indices per match on the same deals. Left: the team's own score per deal
(mean over deal sets, 95% CI); right: its margin over the field (own minus field, paired 95% CI). A strategy
against its own field (greedy against greedy, learned against learned) is a mirror: margin 0."""),
    ("code", """from sim.runner.run import run_experiment
from sim.studies.match import play_match

CALIB_F = min(FIELD_DEALS, 200)
seconds = 0.0
for field in FIELDS:
    for name in STRATEGIES:
        exp = X.match(name, field, FIELD_DEALS, SEED)
        run_experiment(exp.with_deals(2), progress=False)          # loads (or compiles) the kernels
        t0 = time.perf_counter()
        run_experiment(exp.with_deals(CALIB_F), progress=False)
        seconds += (time.perf_counter() - t0) * FIELD_DEALS / CALIB_F
print(f"estimate: {len(FIELDS)} fields x {len(STRATEGIES)} strategies x {FIELD_DEALS:,} deals x 2 rotations at the "
      f"measured speed of each -> about {seconds:.0f} s")
rows = []
t0 = time.perf_counter()
for field, name in tqdm([(f, n) for f in FIELDS for n in STRATEGIES], desc="matches"):
    res = play_match(name, field, deals=FIELD_DEALS, seed=SEED, progress=False)
    own, r = charts.mean_ci(res.sets["a_total"]), res.row
    rows.append({"field": field, "strategy": name, "own": own[0], "own_low": own[1], "own_high": own[2],
                 "margin": r["mean_diff"], "margin_low": r["ci_low"], "margin_high": r["ci_high"]})
print(f"{len(rows)} matches x {FIELD_DEALS:,} deals in {time.perf_counter() - t0:.1f} s")
vs_field = pd.DataFrame(rows)
fig, axes = charts.figure(1, 2, height=4.2, width=14)
x = np.arange(len(STRATEGIES))
for k, field in enumerate(FIELDS):
    t = vs_field[vs_field["field"] == field]
    for ax, v in zip(axes, ("own", "margin")):
        charts.errorbars(ax, x + (k - 0.5) * 0.2, t[v], t[f"{v}_low"], t[f"{v}_high"], label=f"against {field}",
                         color=charts.PALETTE[k], marker=charts.MARKERS[k])
for ax, (title, ylabel) in zip(axes, [("Own team score against a field", "own team score per deal"),
                                      ("Margin over the field", "own - field, points per deal")]):
    ax.set_xticks(x, STRATEGIES, rotation=20)
    ax.set(title=f"{title}, 95% CI", ylabel=ylabel)
    ax.legend()
axes[1].axhline(0, color="grey", lw=0.8)
fig.tight_layout()
vs_field.pivot(index="strategy", columns="field", values=["own", "margin"]).loc[STRATEGIES].round(1)"""),
    ("md", "## Answer"),
    ("code", """level = {name: charts.mean_ci((f["total_0"] + f["total_1"]) / 2) for name, f in frames.items()}
order = sorted(level, key=lambda k: -level[k][0])
outs = {name: charts.wilson(int((f["end"] == "out").sum()), len(f)) for name, f in frames.items()}
d = dealer.set_index("strategy")
clear = [n for n in STRATEGIES if not d.loc[n, "low"] <= 0 <= d.loc[n, "high"]]

def against_fields():
    \"\"\"The Answer's sentences on the scores against a greedy and a learned field.\"\"\"
    by = {f: vs_field[vs_field["field"] == f].set_index("strategy") for f in FIELDS}
    ranks = {f: sorted(STRATEGIES, key=lambda n: -by[f].loc[n, "own"]) for f in FIELDS}
    g, l = by["greedy"], by["learned"]
    beat = [n for n in STRATEGIES if n != "learned" and l.loc[n, "margin_low"] > 0]
    tied = [n for n in STRATEGIES if n != "learned" and l.loc[n, "margin_low"] <= 0 <= l.loc[n, "margin_high"]]
    return [
        "**Against a field** (own team score per deal, " + f"{FIELD_DEALS:,} deal sets per match, 95% CIs): against "
        "greedy " + "; ".join(f"{n} {ci(g.loc[n, 'own'], g.loc[n, 'own_low'], g.loc[n, 'own_high'], '.1f')}"
                              for n in ranks["greedy"])
        + "; against learned " + "; ".join(f"{n} {ci(l.loc[n, 'own'], l.loc[n, 'own_low'], l.loc[n, 'own_high'], '.1f')}"
                                         for n in ranks["learned"]) + ".",
        "**Does the conclusion change against strong play?** The order of the strategies by own score is "
        + ("the same against both fields" if ranks["greedy"] == ranks["learned"] else
           "not the same against the two fields (orders above; neighbours whose intervals overlap are not told apart)")
        + (", the same as" if ranks["learned"] == order else ", and not the same as")
        + f" the order of the four-copies tables ({' > '.join(order)}), which measure a style's scoring level, "
        "not its strength. Against learned, "
        + (f"{', '.join(beat)} clearly outscore it" if beat else "no other strategy clearly outscores it")
        + (f", {', '.join(tied)} are not distinguishable from it" if tied else "")
        + "; margins: " + "; ".join(f"{n} {ci(l.loc[n, 'margin'], l.loc[n, 'margin_low'], l.loc[n, 'margin_high'], '+.1f')}"
                                    for n in STRATEGIES if n != "learned") + ".",
    ]
text = answer([
    "**Expected team score per deal when four copies of a strategy play each other** (both teams alike, so this "
    "is the scoring level of a style, not an edge over anyone): "
    + "; ".join(f"{n} {ci(*level[n], '.1f')}" for n in order) + f" ({DEALS:,} deals each, 95% CIs).",
    "Deals end by a player going out in "
    + ", ".join(f"{pct(outs[n][0])} ({n})" for n in order) + " of the deals; the rest end on passes or the cap.",
    "The dealing team's score minus the other team's is "
    + "; ".join(f"{n} {ci(d.loc[n, 'mean'], d.loc[n, 'low'], d.loc[n, 'high'], '+.1f')}" for n in STRATEGIES)
    + ". This is how each strategy's play interacts with the dealer position, not a property of the game: "
    + (f"it is clearly nonzero for {', '.join(clear)}" if clear else "no strategy shows a clear effect")
    + " at this deal count.",
    *against_fields(),
])"""),
]

# ---------------------------------------------------------------------------------------------
NOTEBOOKS["05_tournament"] = [
    ("md", """# 05 Tournament: the round robin of the built-in strategies

Every pair of built-in strategies plays a duplicate match on the same deals. The crosstable shows each
head-to-head mean difference (row minus column, points per deal) with its paired 95% CI; the ranking
orders strategies by their margin over the field (per deal set, the mean of their differences against
every opponent) with paired CIs. `learned` (the strong built-in, fitted by search and imitation) takes
part; `mc_search` is left out: at about 20 deals/s it would need hours here
(add it with a tiny `RUMMY_DEALS` if you want to see it).

""" + rerun("05_tournament", 4_000) + """

Seed **2030**. Command: `rummy-sim tournament random greedy deep_taker quad_holder defensive expert learned
--deals $RUMMY_DEALS --seed 2030 --out tournament.parquet`, then `rummy-sim report tournament.parquet
--out reports/tournament/`; `--adaptive` for the adaptive run at the end."""),
    ("md", RUNTIME),
    ("code", setup(4_000, 2030, '''
STRATEGIES = ["random", "greedy", "deep_taker", "quad_holder", "defensive", "expert", "learned"]''')),
    ("code", """rate = estimate(X.tournament(STRATEGIES, DEALS, SEED))"""),
    ("code", """from sim.studies.tournament import crosstable, expected_points, format_tournament, play_tournament, points_crosstable, ranking

bar, on_chunk = chunk_bar(DEALS, "round robin")
t0 = time.perf_counter()
tour = play_tournament(STRATEGIES, deals=DEALS, seed=SEED, progress=False, on_chunk=on_chunk)
print(f"{len(tour.run.experiment.pairings)} pairings x {DEALS:,} deals in {time.perf_counter() - t0:.1f} s")
print(format_tournament(tour))"""),
    ("code", """mean, low, high = (crosstable(tour.run, v) for v in ("mean_diff", "ci_low", "ci_high"))
fig = charts.crosstable_figure(mean, low, high, title="Round robin: row minus column, points per deal (95% CI)")"""),
    ("code", """rk = ranking(tour.run)
fig = charts.ranking_figure(rk, title="Margin over the field, points per deal (paired 95% CI)")
rk.round(3)"""),
    ("md", """The game win rate of each pairing (share of two-deal games won by the row team, tie = 1/2) with
its Wilson interval:"""),
    ("code", """pr = tour.pairings
fig, ax = charts.figure(1, 1, height=0.32 * len(pr) + 1.5)
charts.forest(ax, [f"{a} vs {b}" for a, b in zip(pr["a"], pr["b"])], pr["game_win_rate"], pr["game_win_rate_ci_low"],
              pr["game_win_rate_ci_high"], zero=False, xlabel="game win rate of the first team (tie = 1/2)")
ax.axvline(0.5, color="grey", lw=0.8, ls="--")
ax.set_title("Game win rates, 95% Wilson CI")
fig.tight_layout()"""),
    ("md", """## Expected points against each other and against the field
Each strategy's own mean score per deal (not a difference) against each opponent and against the field
(the mean over its opponents, paired over the shared deals), with the chance of losing a deal and a game."""),
    ("code", """ep = expected_points(tour.run)
pts, lo, hi = (points_crosstable(tour.run, v) for v in ("points", "ci_low", "ci_high"))
field = ep[ep["opponent"] == "field"].set_index("team").loc[STRATEGIES]
fig, axes = charts.figure(1, 2, height=4.2, width=14)
charts.forest(axes[0], STRATEGIES, field["points"], field["ci_low"], field["ci_high"], zero=False,
              xlabel="own team score per deal against the field")
axes[0].set_title("Expected points against the field, 95% CI")
for y, (_, r) in zip(np.arange(len(field))[::-1], field.iterrows()):
    axes[0].annotate(f"{r['points']:.1f} [{r['ci_low']:.1f}, {r['ci_high']:.1f}]", (r["ci_high"], y), xytext=(6, 0),
                     textcoords="offset points", va="center", fontsize=8)
lose = pd.DataFrame({"end": ["a deal"] * len(field) + ["a game"] * len(field),
                     "team": list(field.index) * 2,
                     "share": [*field["deal_loss_rate"], *field["game_loss_rate"]],
                     "ci_low": [*field["deal_loss_rate_low"], *field["game_loss_rate_low"]],
                     "ci_high": [*field["deal_loss_rate_high"], *field["game_loss_rate_high"]]})
charts.shares_figure(lose, "end", "team", "Chance of losing against the field (Wilson 95% CI)", ax=axes[1],
                     ylabel="share lost")
fig.tight_layout()
pts.round(1)"""),
    ("md", """## The same round robin, adaptive
Teams are eliminated once their margin over the field is significantly below another's (Hsu's MCB,
error rate 5% over all looks); a pairing is played as long as one of its teams is still in the running,
so every surviving team's margin covers the whole field."""),
    ("code", """from sim.studies.adaptive import format_adaptive, run_adaptive

ad = run_adaptive(X.tournament(STRATEGIES, DEALS, SEED), first_look=500, progress=False)
print(format_adaptive(ad))"""),
    ("md", "## Answer"),
    ("code", """top, second = rk.iloc[0], rk.iloc[1]
f_top, f_last = field.loc[top["team"]], field.loc[rk.iloc[-1]["team"]]
text = answer([
    f"**{top['team']} wins the round robin**: {ci(top['margin'], top['ci_low'], top['ci_high'], '+.1f')} points per "
    f"deal over the field ({DEALS:,} deal sets per pairing, paired 95% CI), ahead of {second['team']} "
    f"({ci(second['margin'], second['ci_low'], second['ci_high'], '+.1f')}; {format_p(top['p_vs_next'])} for the gap, "
    f"Holm-adjusted).",
    f"Against the field {top['team']} scores {ci(f_top['points'], f_top['ci_low'], f_top['ci_high'], '.1f')} points "
    f"per deal itself and **loses {pct(f_top['deal_loss_rate'])} of its deals and {pct(f_top['game_loss_rate'])} of "
    f"its two-deal games**; the last, {rk.iloc[-1]['team']}, scores "
    f"{ci(f_last['points'], f_last['ci_low'], f_last['ci_high'], '.1f')} and loses {pct(f_last['deal_loss_rate'])} "
    f"of its deals and {pct(f_last['game_loss_rate'])} of its games (Wilson intervals in the chart).",
    "Order by margin: " + " > ".join(rk["team"]) + ".",
    f"Head to head, **learned minus expert** (the strongest heuristic) is "
    f"{ci(mean.loc['learned', 'expert'], low.loc['learned', 'expert'], high.loc['learned', 'expert'], '+.1f')} points "
    f"per deal (paired 95% CI)"
    + (", not distinguishable at this deal count." if low.loc["learned", "expert"] <= 0 <= high.loc["learned", "expert"]
       else "."),
    f"The adaptive round robin ended with {ad.best or 'several teams in the running'} "
    f"({'the same winner' if ad.best == top['team'] else 'compare with the fixed run'}) after {ad.plays:,} plays "
    f"instead of {ad.fixed_plays:,} ({100 * ad.saved_share:.0f}% saved).",
])"""),
]


def build(names: list[str] | None = None) -> list[Path]:
    """Write every notebook (or those in ``names``) from its cell sources, unexecuted."""
    return write_notebooks(NOTEBOOKS, names)


if __name__ == "__main__":
    main(NOTEBOOKS, description="Build notebooks/01..05 from their cell sources (unexecuted unless --execute).")
