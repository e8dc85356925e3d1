"""The tuning report: the answer, its validation, the search history and each parameter's effect.

``write_report(result, out)`` writes ``report.md`` (and ``report.html``), ``history.csv``
(one row per trial), ``rungs.csv`` (one row per trial and rung), ``validation.csv``,
``effects.csv``, ``summary.json`` and the figures ``history.png`` (value vs trial),
``params.png`` (each parameter's effect) and ``validation.png``.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.fmt import json_ready, short_p
from sim.core.intervals import estimate_text, mean_ci
from sim.present import charts

_STAT_COLS = ("mean_diff", "ci_low", "ci_high", "se", "p_value")


def effects_table(result) -> pd.DataFrame:
    """Each tuned parameter against the candidates' values on the first rung's deals (every
    trial has one, on the same deals): Spearman rank correlation for ranges, mean value per
    choice, and the best's value."""
    from scipy import stats as sps

    h = result.history
    rows = []
    for d in result.space.dims:
        x = h[d.name]
        y = h["value_rung0"]
        if d.is_range:
            rho = sps.spearmanr(x.astype(float), y).statistic if len(h) > 2 and x.nunique() > 1 else math.nan
            rows.append({"param": d.name, "kind": d.kind.__name__, "searched": d.text(), "trials": len(h),
                         "spearman_rho": float(rho), "best": result.best_values[d.name],
                         "default": result.space.values_of(result.baseline)[d.name], "by_value": ""})
        else:
            groups = y.groupby(x.astype(str))
            parts = [f"{k}: {g.mean():+.1f} (n={len(g)})" for k, g in groups]
            rows.append({"param": d.name, "kind": d.kind.__name__, "searched": d.text(), "trials": len(h),
                         "spearman_rho": math.nan, "best": result.best_values[d.name],
                         "default": result.space.values_of(result.baseline)[d.name], "by_value": "; ".join(parts)})
    return pd.DataFrame(rows)


def summary_dict(result) -> dict:
    """JSON-ready summary (``summary.json``; ``rummy-sim tune --json``)."""
    val = result.validation
    out = {
        "kind": "tune", "command": result.command, "settings": result.settings,
        "best": str(result.best), "best_values": result.best_values,
        "baseline": str(result.baseline),
        "search": {"trials": len(result.search.trials), "brackets": result.search.brackets,
                   "plays": result.search.plays, "seconds": round(result.search.seconds, 1),
                   "stopped": result.search.stopped, "rung_deals": result.plan.rung_deals,
                   "best_search_value": _best_row(result)["value"]},
        "validation": None,
        "seconds": round(result.seconds, 1), "versions": result.versions,
    }
    if val is not None:
        out["validation"] = {"seed": result.validation_run.seed, "deals": result.validation_run.deals,
                             "plays": result.validation_run.plays, "seconds": round(result.validation_run.seconds, 1),
                             "rows": val.to_dict(orient="records")}
        out["plays_total"] = result.search.plays + result.validation_run.plays
    return json_ready(out)


def _best_row(result) -> dict:
    complete = [t for t in result.search.trials if t["state"] == "complete"]
    return max(complete, key=lambda t: t["value"])


def answer_lines(result) -> list[str]:
    """The answer in words: is the best better than the defaults (and the compare specs) on fresh deals?"""
    val = result.validation
    lines = [f"Best found: `{result.best}`."]
    if val is None:
        lines.append("The validation did not run (interrupted): the search value below is biased upwards.")
        return lines
    field = val[val["comparison"] == "field"].set_index("role")
    best = field.loc["best"]
    lines.append(f"On {result.validation_run.deals:,} fresh deal indices (seed {result.validation_run.seed}, never "
                 f"used by the search) it scores {estimate_text(best['mean_diff'], best['ci_low'], best['ci_high'])} points per "
                 f"deal against the field ({result.field.describe()}); on the search's deals it had "
                 f"{_best_row(result)['value']:+.2f}.")
    sg = search_gain(result)
    if sg is not None and str(result.best) != str(result.baseline):
        lines.append(f"On the search's first {sg['deals']:,} deal indices (the deepest rung the defaults reached) it "
                     f"was {sg['gain']:+.2f} points per deal above the defaults: that figure was selected for, the "
                     "validated gain below is not.")
    for _, r in val[val["comparison"] == "gain"].iterrows():
        what = "the defaults" if r["role"] == "baseline" else f"`{r['against']}`"
        if r["spec"] == r["against"]:
            lines.append(f"It is {what} (the search found nothing better).")
            continue
        sig = r["ci_low"] > 0 or r["ci_high"] < 0
        verdict = ("beats" if r["mean_diff"] > 0 else "loses to") if sig else "is not distinguishable from"
        lines.append(f"Against the field it {verdict} {what}: gain {estimate_text(r['mean_diff'], r['ci_low'], r['ci_high'])} "
                     f"points per deal (paired, p {short_p(r['p_value'])}).")
    return lines


def search_gain(result) -> dict | None:
    """The best minus the baseline on the search's own deals, at the deepest rung the baseline
    reached (the same deal indices, so an exact paired difference; biased upwards by the
    selection, which is what the validation corrects), or None without a baseline trial."""
    h, rg = result.history, result.rungs
    base = h[h["baseline"]]
    if base.empty:
        return None
    b = base.sort_values("rung").iloc[-1]
    best_trial = int(h.loc[h["spec"] == str(result.best), "trial"].iloc[0])
    row = rg[(rg["trial"] == best_trial) & (rg["rung"] == b["rung"])]
    if row.empty:
        return None
    return {"rung": int(b["rung"]), "deals": int(b["deals"]), "gain": float(row["value"].iloc[0] - b["value"])}


def write_report(result, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    h, rg, val = result.history, result.rungs, result.validation
    h.to_csv(out / "history.csv", index=False)
    rg.to_csv(out / "rungs.csv", index=False)
    eff = effects_table(result)
    eff.to_csv(out / "effects.csv", index=False)
    if val is not None:
        val.to_csv(out / "validation.csv", index=False)
    (out / "summary.json").write_text(json.dumps(summary_dict(result), indent=2, allow_nan=False) + "\n")
    charts.use_style()
    charts.save(history_figure(result), out / "history.png")
    charts.save(params_figure(result), out / "params.png")
    if val is not None:
        charts.save(validation_figure(result), out / "validation.png")
    text = _markdown(result, eff)
    (out / "report.md").write_text(text)
    _html(text, out / "report.html")
    return out / "report.md"


# --- figures ---------------------------------------------------------------------------------


def history_figure(result):
    h, rg = result.history, result.rungs
    fig, axes = charts.figure(2, 1, height=7.0)
    ax = axes[0]
    last_rung = result.plan.rungs - 1
    for r in range(result.plan.rungs):
        sel = h[h["rung"] == r]
        lbl = "reached the last rung" if r == last_rung else f"dropped after rung {r}"
        ax.scatter(sel["trial"], sel["value_rung0"], s=14, label=lbl, color=charts.PALETTE[r % len(charts.PALETTE)])
    base = h[h["baseline"]]
    if len(base):
        ax.scatter(base["trial"], base["value_rung0"], s=60, facecolors="none", edgecolors="black", label="defaults")
    ax.set_title(f"Value vs trial on the first rung's {result.plan.rung_deals[0]:,} deal indices (every trial)")
    ax.set_xlabel("trial")
    ax.set_ylabel(charts.PTS_DEAL + " vs the field")
    ax.legend(loc="lower right")
    ax = axes[1]
    fin = rg[rg["rung"] == last_rung].sort_values("trial")
    charts.errorbars(ax, fin["trial"], fin["value"], fin["ci_low"], fin["ci_high"], label="bracket finalists")
    best = fin["value"].cummax()
    ax.step(fin["trial"], best, where="post", color=charts.B_COLOR, label="best so far")
    ax.set_title(f"Finalists on all {result.plan.rung_deals[-1]:,} deal indices of the last rung (95% CI)")
    ax.set_xlabel("trial")
    ax.set_ylabel(charts.PTS_DEAL + " vs the field")
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def params_figure(result):
    h = result.history
    dims = result.space.dims
    ncols = min(3, len(dims))
    nrows = math.ceil(len(dims) / ncols)
    fig, axes = charts.figure(nrows, ncols, height=3.2 * nrows)
    axes = np.atleast_1d(axes).ravel()
    best = result.best_values
    for ax, d in zip(axes, dims):
        y = h["value_rung0"].to_numpy(float)
        if d.is_range:
            x = h[d.name].to_numpy(float)
            ax.scatter(x, y, s=10, alpha=0.6)
            if len(np.unique(x)) > 4:
                qs = np.unique(np.quantile(x, np.linspace(0, 1, 7)))
                mids, means, los, his = [], [], [], []
                for a, b in zip(qs[:-1], qs[1:]):
                    m = (x >= a) & (x <= b)
                    if m.sum() >= 2:
                        mean, lo, hi = mean_ci(y[m])
                        mids.append(x[m].mean())
                        means.append(mean)
                        los.append(lo)
                        his.append(hi)
                if mids:
                    charts.band(ax, mids, means, los, his, color=charts.B_COLOR, marker="")
            if d.log:
                ax.set_xscale("log")
            ax.axvline(float(best[d.name]), color="black", lw=1, ls="--")
        else:
            cats = list(d.choices)
            xs = h[d.name].map(lambda v: _choice_text(v)).map(lambda t: cats.index(t) if t in cats else -1)
            jitter = np.random.default_rng(0).uniform(-0.15, 0.15, len(xs))
            ax.scatter(xs + jitter, y, s=10, alpha=0.6)
            for i, c in enumerate(cats):
                sel = y[xs.to_numpy() == i]
                if len(sel) >= 2:
                    mean, lo, hi = mean_ci(sel)
                    charts.errorbars(ax, [i], [mean], [lo], [hi], color=charts.B_COLOR)
            ax.set_xticks(range(len(cats)), cats)
            ax.axvline(cats.index(_choice_text(best[d.name])), color="black", lw=1, ls="--")
        ax.set_title(d.name)
        ax.set_ylabel("value at rung 0")
    for ax in axes[len(dims):]:
        ax.set_visible(False)
    fig.suptitle("Each parameter's effect: every trial's value on the first rung's deals (dashed: the best)")
    fig.tight_layout()
    return fig


def _choice_text(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    return str(v)


def validation_figure(result):
    val = result.validation
    rows = val[val["comparison"].isin(["field", "gain"])]
    labels = [(f"{r['role']} vs field" if r["comparison"] == "field" else f"best - {r['role']}")
              for _, r in rows.iterrows()]
    fig, ax = charts.figure(height=0.5 * len(rows) + 1.5)
    charts.forest(ax, labels, rows["mean_diff"].to_numpy(), rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy())
    ax.set_title(f"Validation on {result.validation_run.deals:,} fresh deal indices (seed "
                 f"{result.validation_run.seed}): 95% paired CIs")
    fig.tight_layout()
    return fig


# --- markdown ------------------------------------------------------------------------------


def _table(df: pd.DataFrame) -> list[str]:
    cols = list(df.columns)
    out = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    for _, r in df.iterrows():
        out.append("| " + " | ".join(str(r[c]) for c in cols) + " |")
    return out


def _markdown(result, eff: pd.DataFrame) -> str:
    """report.md: the answer, how it was made, the best parameters, validation, the search
    history and each parameter's effect, in that order."""
    L = [f"# Tuning `{result.settings['spec']}` against {result.field.describe()}", ""]
    L += answer_lines(result) + [""]
    L += _how_made_lines(result)
    L += ["## Best parameters", ""]
    bv, dv = result.best_values, result.space.values_of(result.baseline)
    L += _table(pd.DataFrame({"parameter": list(bv), "searched": [d.text().split("=", 1)[1] for d in
                                                                   result.space.dims],
                              "best": [_fmt_val(bv[k]) for k in bv], "default": [_fmt_val(dv[k]) for k in bv]}))
    L += [""]
    if result.validation is not None:
        L += _validation_lines(result.validation)
    L += _history_lines(result)
    L += ["## Each parameter's effect", "",
          "Every trial's value on the first rung's deals against the parameter (band: mean of the trials in "
          "each sixth of the range with its 95% CI; dashed: the best). The trials are where the optimizer chose "
          "to look, not a designed sample, so read the spread as a guide.", "", "![params](params.png)", ""]
    te = eff.copy()
    te["spearman_rho"] = te["spearman_rho"].map(lambda v: "" if not math.isfinite(v) else f"{v:+.2f}")
    te["best"] = te["best"].map(_fmt_val)
    te["default"] = te["default"].map(_fmt_val)
    L += _table(te) + [""]
    L += ["## Files", "", "`history.csv` (trials), `rungs.csv` (trial x rung), `validation.csv`, `effects.csv`, "
          "`summary.json`, `history.png`, `params.png`, `validation.png`.", ""]
    return "\n".join(L)


def _how_made_lines(result) -> list[str]:
    """The command, the game and rules, the budget, the search, racing, validation seed, times."""
    s, plan, val, h = result.settings, result.plan, result.validation, result.history
    return ["## How it was made", "", "```", result.command, "```", "",
            f"* game: {s['game']} ({s['players']} players), rules `{json.dumps(s['rules'], sort_keys=True)}`",
            f"* tuned: {', '.join(f'`{p}`' for p in s['params'])}; field: {result.field.describe()} "
            "(a candidate's value is the mixture-weighted mean A - B points per deal against the opponents)",
            f"* budget: {s['budget']:,} plays (search and validation); spent: search {result.search.plays:,}, "
            + (f"validation {result.validation_run.plays:,}" if val is not None else "validation none"),
            f"* search: seed {s['seed']}, sampler {s['sampler']} (optuna), {result.search.brackets} brackets, "
            f"{len(h)} trials; {plan.describe()}",
            f"* racing: a candidate in the promoted share is dropped when its paired {100 * (1 - s['racing']):.0f}% "
            f"CI against the rung's leader lies below 0" if s["racing"] else "* racing: off (plain successive halving)",
            f"* validation: seed {s['validation_seed']} (never used by the search), "
            f"{plan.validation_deals:,} deal indices",
            f"* run time: {result.seconds:,.0f} s (search {result.search.seconds:,.0f} s"
            + (f", validation {result.validation_run.seconds:,.0f} s" if val is not None else "")
            + f"), backend {s['backend']}, threads {s['threads'] or 'all'}",
            f"* versions: {', '.join(f'{k} {v}' for k, v in result.versions.items())}", ""]


def _validation_lines(val: pd.DataFrame) -> list[str]:
    """The validation table on fresh deals and its chart."""
    L = ["## Validation on fresh deals", "",
         "Paired 95% t-intervals over deal sets (all specs on the same fresh deal indices). *field*: the spec's "
         "value against the field; *gain*: the best minus the other spec against the field; *head to head*: "
         "the best as team A against the other spec as team B.", ""]
    t = pd.DataFrame({
        "comparison": val["comparison"].str.replace("_", " "), "spec": "`" + val["spec"] + "`",
        "against": val["against"], "deal sets": val["deal_sets"].map(lambda x: f"{x:,}"),
        "points per deal [95% CI]": [estimate_text(r["mean_diff"], r["ci_low"], r["ci_high"]) for _, r in val.iterrows()],
        "p": val["p_value"].map(short_p)})
    return L + _table(t) + ["", "![validation](validation.png)", ""]


def _history_lines(result) -> list[str]:
    """The search history: how rungs share deals, and the bracket finalists."""
    plan, h = result.plan, result.history
    L = ["## Search history", "",
         f"Every trial played the first rung's {plan.rung_deals[0]:,} deal indices; the best of each rung went "
         f"on to more of the same deal indices, up to {plan.rung_deals[-1]:,}. Values at one rung are on identical "
         "deals, so their differences are paired comparisons. The search value of the best is biased upwards "
         "(it was chosen for it); the validation above is not.", "", "![history](history.png)", ""]
    fin = h[h["state"] == "complete"].sort_values("value", ascending=False).head(10)
    t = pd.DataFrame({"trial": fin["trial"], "bracket": fin["bracket"], "spec": "`" + fin["spec"] + "`",
                      "deal indices": fin["deals"].map(lambda x: f"{x:,}"),
                      "value [95% CI]": [estimate_text(r["value"], r["ci_low"], r["ci_high"]) for _, r in fin.iterrows()]})
    L += ["*The bracket finalists, best first (top 10; all trials in `history.csv`, every rung in `rungs.csv`)*", ""]
    return L + _table(t) + [""]


def _fmt_val(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _html(markdown: str, path: Path) -> None:
    """A plain HTML rendering of the report: the markdown as preformatted text, its figures as images."""
    body = []
    for line in markdown.splitlines():
        if line.startswith("!["):
            src = line[line.index("(") + 1: line.rindex(")")]
            body.append(f'<img src="{html.escape(src)}" style="max-width:100%">')
        else:
            body.append(html.escape(line))
    page = "<!doctype html><meta charset='utf-8'><pre style='white-space:pre-wrap'>" + "\n".join(body) + "</pre>"
    path.write_text(page)
