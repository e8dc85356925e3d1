"""One chart style for notebooks and reports (matplotlib, Agg-safe).

Every estimate is drawn with its 95% confidence interval (error bars or a band) and
every axis that carries points says so ("points per deal"). The functions take plain
numbers or the frames of sim.studies.match / sim.studies.sweep / sim.studies.tournament / sim.present.report and
return the Figure, so a notebook shows it and a report saves it with ``save``.

    from sim.present import charts
    charts.use_style()
    fig = charts.match_figure(result.row)
"""

from __future__ import annotations

import math
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Sequence

import matplotlib



def _in_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    ip = get_ipython()
    return ip is not None and getattr(ip, "kernel", None) is not None  # Jupyter: keep the inline backend


if not _in_kernel() and not os.environ.get("MPLBACKEND"):
    matplotlib.use("Agg")  # scripts, tests and reports never open a window

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

# the interval helpers a notebook calls beside the figures, as ``charts.mean_ci`` ... (sim.core.intervals)
from sim.core.intervals import mean_ci, moments_ci, t_interval, wilson  # noqa: E402, F401

PTS_DEAL = "points per deal"
PTS_GAME = "points per game (2 deals)"
WIDTH = 9.0  # inches: readable at notebook width and in a Markdown page at 100 dpi
DPI = 110
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf"]
A_COLOR, B_COLOR = PALETTE[0], PALETTE[1]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "*"]  # series k: color, marker and line style k
LINESTYLES = ["-", "--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1))]
BEST_COLOR = "#222222"

STYLE = {
    "figure.figsize": (WIDTH, 4.2),
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "savefig.bbox": "tight",
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.labelsize": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    "legend.fontsize": 8.5,
    "legend.frameon": False,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "errorbar.capsize": 4,
    "lines.linewidth": 1.6,
}


def use_style() -> None:
    """Apply the rummy-sim style to every later figure."""
    plt.rcParams.update(STYLE)


@contextmanager
def style():
    """The style for a block of code only (``with charts.style(): ...``)."""
    with plt.rc_context(STYLE):
        yield


def figure(nrows: int = 1, ncols: int = 1, height: float | None = None, width: float = WIDTH, **kw):
    """A new figure in the rummy-sim style (the style is applied globally: an rc_context here
    would restore the backend on exit and stop Jupyter's inline display of later figures)."""
    use_style()
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, height or 3.6 * nrows + 0.6), **kw)
    return fig, axes


def save(fig, path: str | Path, close: bool = True) -> Path:
    """Write ``fig`` as PNG (tight layout, style dpi) and close it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", dpi=DPI, bbox_inches="tight")
    if close:
        plt.close(fig)
    return path


# --- numbers ---------------------------------------------------------------------------------------


def _yerr(mean, low, high) -> np.ndarray:
    mean, low, high = (np.asarray(v, dtype=float) for v in (mean, low, high))
    return np.vstack([np.clip(mean - low, 0, None), np.clip(high - mean, 0, None)])


# --- primitives --------------------------------------------------------------------------------------


def series_style(k: int) -> dict:
    """Color, marker and line style of series ``k``: two series never look alike, even in grey."""
    return {"color": PALETTE[k % len(PALETTE)], "marker": MARKERS[k % len(MARKERS)],
            "ls": LINESTYLES[k % len(LINESTYLES)]}


def legend_outside(ax, title: str | None = None, below: bool = False, **kw):
    """A legend beside (or below) the axes, never over the data."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    if below:
        longest = max(len(str(lab)) for lab in labels)
        ncols = 1 if longest > 15 else min(len(handles), 3)
        return ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=ncols, title=title, **kw)
    return ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, title=title, **kw)


def integer_axis(ax, axis: str = "x") -> None:
    """Integer ticks only (counts, depths, positions)."""
    from matplotlib.ticker import MaxNLocator

    (ax.xaxis if axis == "x" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))


def errorbars(ax, x, mean, low, high, label: str | None = None, color=None, marker: str = "o", **kw):
    """Points with 95% CI error bars."""
    return ax.errorbar(x, mean, yerr=_yerr(mean, low, high), fmt=marker, color=color, label=label, capsize=4,
                       ms=5, lw=1.2, **kw)


def band(ax, x, mean, low, high, label: str | None = None, color=None, marker: str = "o", **kw):
    """A line through the estimates with a shaded 95% CI band."""
    (line,) = ax.plot(x, mean, marker=marker, ms=4, color=color, label=label, **kw)
    ax.fill_between(x, low, high, color=line.get_color(), alpha=0.2, lw=0)
    return line


def forest(ax, labels: Sequence[str], mean, low, high, color=None, zero: bool = True, xlabel: str = PTS_DEAL):
    """Horizontal estimates with CI bars, one row per label (top to bottom)."""
    y = np.arange(len(labels))[::-1]
    ax.errorbar(mean, y, xerr=_yerr(mean, low, high), fmt="o", color=color or PALETTE[0], capsize=4, ms=5)
    ax.set_yticks(y, labels)
    if zero:
        ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel(xlabel)
    ax.grid(axis="y", alpha=0)
    return ax


def step_hist(ax, edges, counts, label: str | None = None, color=None, density: bool = True, **kw):
    """A histogram given its bin edges and counts, as an outline (several stay readable)."""
    counts = np.asarray(counts, dtype=float)
    edges = np.asarray(edges, dtype=float)
    y = counts / (counts.sum() * np.diff(edges)) if density and counts.sum() else counts
    ax.stairs(y, edges, label=label, color=color, lw=1.5, **kw)
    return ax


def hist_summary(edges, counts) -> dict:
    """Mean, sd and quantiles of a binned distribution (bin centres; tails clipped into the end bins)."""
    edges = np.asarray(edges, dtype=float)
    counts = np.asarray(counts, dtype=float)
    n = counts.sum()
    if n == 0:
        return {"n": 0}
    mid = (edges[:-1] + edges[1:]) / 2
    mean = float((mid * counts).sum() / n)
    sd = float(math.sqrt(max(((mid - mean) ** 2 * counts).sum() / max(n - 1, 1), 0.0)))
    cum = np.cumsum(counts) / n
    q = {}
    for p in (0.05, 0.25, 0.5, 0.75, 0.95):
        i = int(np.searchsorted(cum, p))
        q[f"p{int(p * 100)}"] = float(mid[min(i, mid.size - 1)])
    return {"n": int(n), "mean": mean, "sd": sd, **q}


# --- figures ------------------------------------------------------------------------------------------


def _zoom(ax, lows, highs, ref: float | None = None) -> None:
    """Y limits around the intervals (and ``ref`` if it is close enough to be worth showing)."""
    lo, hi = float(np.nanmin(lows)), float(np.nanmax(highs))
    pad = max(hi - lo, 1e-9) * 1.5
    y0, y1 = lo - pad, hi + pad
    if ref is not None and y0 - 4 * pad < ref < y1 + 4 * pad:
        y0, y1 = min(y0, ref - pad / 3), max(y1, ref + pad / 3)
    if ref is not None and y0 <= ref <= y1:
        ax.axhline(ref, color="grey", lw=0.8, ls="--")
    ax.set_ylim(y0, y1)


def _label(ax, x, m, lo, hi, fmt: str) -> None:
    ax.annotate(f"{m:{fmt}}\n[{lo:{fmt}}, {hi:{fmt}}]", (x, m), xytext=(10, 0), textcoords="offset points",
                va="center", fontsize=8.5)


def match_figure(row: pd.Series | dict, title: str | None = None):
    """A - B points per deal with the paired (duplicate) and the unpaired 95% CI, and the
    game win rate with its Wilson interval; each estimate labelled with its interval."""
    r = dict(row)
    fig, (ax1, ax2) = figure(1, 2, height=3.8, gridspec_kw={"width_ratios": [2, 1]})
    m = r["mean_diff"]
    errorbars(ax1, [0], [m], [r["ci_low"]], [r["ci_high"]], color=A_COLOR)
    errorbars(ax1, [1], [m], [r["unpaired_ci_low"]], [r["unpaired_ci_high"]], color=B_COLOR, marker="s")
    _label(ax1, 0, m, r["ci_low"], r["ci_high"], "+.2f")
    _label(ax1, 1, m, r["unpaired_ci_low"], r["unpaired_ci_high"], "+.2f")
    _zoom(ax1, [r["ci_low"], r["unpaired_ci_low"]], [r["ci_high"], r["unpaired_ci_high"]], 0.0)
    ax1.set_xticks([0, 1], ["duplicate deals\n(paired CI over deal sets)", "ignoring duplication\n(unpaired CI)"])
    ax1.set_xlim(-0.5, 1.8)
    ax1.set_ylabel(f"A - B, {PTS_DEAL}")
    ax1.set_xlabel(f"{int(r['deal_sets']):,} deal sets x {int(r['rotations'])} rotations", fontsize=8.5)
    ax1.set_title(title or f"{r['a']} (A) - {r['b']} (B), 95% CI")
    g = r["game_win_rate"]
    errorbars(ax2, [0], [g], [r["game_win_rate_ci_low"]], [r["game_win_rate_ci_high"]], color=A_COLOR)
    _label(ax2, 0, g, r["game_win_rate_ci_low"], r["game_win_rate_ci_high"], ".3f")
    _zoom(ax2, [r["game_win_rate_ci_low"]], [r["game_win_rate_ci_high"]], 0.5)
    ax2.set_xticks([0], ["A"])
    ax2.set_xlim(-0.6, 1.2)
    ax2.set_ylabel("share of games won by A (tie = 1/2)")
    ax2.set_title("Game win rate, 95% Wilson CI")
    fig.tight_layout()
    return fig


def running_mean_figure(diffs, title: str = "Running mean of A - B with its 95% CI"):
    """How the estimate and its interval settle as deal sets accumulate (log x axis)."""
    d = np.asarray(diffs, dtype=float)
    n = np.arange(1, d.size + 1)
    cm = np.cumsum(d) / n
    ci = t_interval(n, cm, np.cumsum(d * d) - n * cm * cm)
    keep = n >= 20
    fig, ax = figure(1, 1, height=3.6)
    band(ax, n[keep], cm[keep], ci.low[keep], ci.high[keep], marker="", label="mean with 95% CI")
    ax.axhline(cm[-1], color="grey", lw=0.8, ls="--", label=f"final {cm[-1]:+.2f}")
    ax.set_xscale("log")
    ax.set_xlabel("deal sets played")
    ax.set_ylabel(f"A - B, {PTS_DEAL}")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    return fig


def _positions(values) -> tuple[np.ndarray, list[str], bool, list]:
    """x positions of the tested values: the values themselves when they are numbers evenly spaced,
    else 0, 1, 2 ... (a categorical axis labelled with the values: no distance suggests values
    between the tested points that were not tested)."""
    raw = list(dict.fromkeys(values))
    num_vals = pd.to_numeric(pd.Series(raw), errors="coerce")
    if num_vals.notna().all():
        order = np.argsort(num_vals.to_numpy(float), kind="stable")
        raw = [raw[i] for i in order]
        v = num_vals.to_numpy(float)[order]
        steps = np.diff(v)
        if v.size > 2 and np.allclose(steps, steps[0]):
            return v, [f"{x:g}" for x in v], True, raw
    return np.arange(len(raw), dtype=float), [_tick_text(r) for r in raw], False, raw


def _tick_text(v) -> str:
    try:
        return f"{float(v):g}"
    except (TypeError, ValueError):
        return str(v)


def sweep_figure(table: pd.DataFrame, x: str, group: str | None = None, value: str = "mean_diff",
                 low: str = "ci_low", high: str = "ci_high", ylabel: str | None = None, title: str | None = None,
                 ax=None, log_x: bool | None = None, mark_best: bool = True, legend: bool = True):
    """``value`` against parameter ``x`` with 95% CI error bars, one series per ``group`` value.

    Each series has its own color, marker and line style and is shifted sideways a little
    (so equal values never hide each other); the tested values are evenly spaced and
    labelled (a categorical axis) unless they are numbers with equal steps; no line joins
    tested points. The best row (column ``best``) is circled. ``log_x`` is accepted for
    compatibility and ignored: uneven values get the categorical axis instead.
    """
    own = ax is None
    if own:
        fig, ax = figure(1, 1, height=4.0)
    else:
        fig = ax.figure
    t = table.copy()
    pos, ticks, numeric, order = _positions(t[x].tolist())
    key = {v: i for i, v in enumerate(order)}
    t["_x"] = [pos[key[v]] for v in t[x]]
    groups = [(None, t)] if group is None else list(t.groupby(group, sort=True))
    step = float(np.min(np.diff(pos))) if pos.size > 1 else 1.0
    width = 0.5 * step / max(len(groups), 1)
    for i, (g, part) in enumerate(groups):
        part = part.sort_values("_x")
        st = series_style(i)
        lab = None if g is None else f"{group} = {_tick_text(g)}"
        xs = part["_x"].to_numpy(float) + (i - (len(groups) - 1) / 2) * width
        ax.errorbar(xs, part[value].to_numpy(float), yerr=_yerr(part[value], part[low], part[high]),
                    fmt=st["marker"], color=st["color"], label=lab, capsize=3, ms=6, lw=1.2,
                    mfc="white" if i % 2 else st["color"])
        if mark_best and "best" in part and part["best"].any():
            b = part[part["best"].astype(bool)]
            bx = xs[np.flatnonzero(part["best"].astype(bool).to_numpy())]
            ax.scatter(bx, b[value], s=260, facecolors="none", edgecolors=BEST_COLOR, lw=1.5, zorder=5,
                       label="best point")
    ax.set_xticks(pos, ticks)
    ax.set_xlim(pos.min() - 0.6 * step, pos.max() + 0.6 * step)
    if value in ("mean_diff", "vs_best") or value.endswith("_diff"):
        ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel(x + ("" if numeric else " (tested values, evenly spaced)"))
    ax.set_ylabel(ylabel or f"A - B, {PTS_DEAL}")
    ax.set_title(title or f"{value} against {x}, 95% CI")
    ax.grid(axis="x", alpha=0)
    if legend and (group is not None or mark_best):
        legend_outside(ax)
    if own:
        fig.tight_layout()
    return fig


def near_best_figure(table: pd.DataFrame, keys: Sequence[str], value: str = "vs_best", low: str = "vs_best_ci_low",
                     high: str = "vs_best_ci_high", top: int = 6, ax=None, xlabel: str | None = None,
                     title: str | None = None):
    """The zoomed view where the close calls are: the ``top`` rows with the highest ``mean_diff`` as a
    forest of ``value`` (default: paired difference to the best point), each with its number and CI
    printed beside it; the best point at 0 by definition."""
    own = ax is None
    if own:
        fig, ax = figure(1, 1, height=0.45 * top + 1.4)
    else:
        fig = ax.figure
    t = table.sort_values("mean_diff", ascending=False).head(top).copy()
    if "best" in t:
        t.loc[t["best"].astype(bool), [value, low, high]] = 0.0
    labels = [", ".join(f"{k}={_tick_text(r[k])}" for k in keys) + ("  (best)" if r.get("best", False) else "")
              for _, r in t.iterrows()]
    forest(ax, labels, t[value], t[low], t[high], xlabel=xlabel or f"point - best point, {PTS_DEAL}")
    y = np.arange(len(t))[::-1]
    lo, hi = float(np.nanmin(t[low])), float(np.nanmax(t[high]))
    span = max(hi - lo, 1e-9)
    ax.set_xlim(lo - 0.1 * span, hi + 0.9 * span)
    for yy, (_, r) in zip(y, t.iterrows()):
        text = "best (reference)" if r.get("best", False) else f"{r[value]:+.2f} [{r[low]:+.2f}, {r[high]:+.2f}]"
        ax.annotate(text, (hi + 0.08 * span, yy), va="center", fontsize=8.5)
    ax.set_title(title or f"Close to the best: the top {len(t)} points, paired 95% CI")
    if own:
        fig.tight_layout()
    return fig


def crosstable_figure(mean: pd.DataFrame, low: pd.DataFrame, high: pd.DataFrame, title: str | None = None):
    """Heatmap of row-minus-column points per deal, each cell with its 95% CI."""
    labels = list(mean.index)
    k = len(labels)
    size = max(5.0, 1.25 * k + 2.5)
    fig, ax = figure(1, 1, height=size * 0.8, width=min(max(size, 7.0), 12.0))
    vals = mean.to_numpy(dtype=float)
    lim = np.nanmax(np.abs(vals)) if np.isfinite(vals).any() else 1.0
    im = ax.imshow(vals, cmap="RdBu", vmin=-lim, vmax=lim)
    ax.grid(False)
    ax.set_xticks(range(k), labels, rotation=35, ha="right")
    ax.set_yticks(range(k), labels)
    for i in range(k):
        for j in range(k):
            if i == j or not math.isfinite(vals[i, j]):
                continue
            dark = abs(vals[i, j]) > 0.6 * lim
            ax.text(j, i, f"{vals[i, j]:+.1f}\n[{low.iat[i, j]:+.1f}, {high.iat[i, j]:+.1f}]", ha="center",
                    va="center", fontsize=7.5 if k > 5 else 8.5, color="white" if dark else "black")
    cb = fig.colorbar(im, ax=ax, shrink=0.8)
    cb.set_label(f"row - column, {PTS_DEAL}")
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("team (row)")
    ax.set_title(title or "Crosstable: row minus column, mean with 95% CI")
    fig.tight_layout()
    return fig


def ranking_figure(rk: pd.DataFrame, title: str | None = None):
    """Teams by margin over the field with paired 95% CIs."""
    fig, ax = figure(1, 1, height=0.45 * len(rk) + 1.6)
    forest(ax, [f"{int(r['rank'])}. {r['team']}" for _, r in rk.iterrows()], rk["margin"], rk["ci_low"],
           rk["ci_high"], xlabel=f"margin over the field, {PTS_DEAL}")
    ax.set_title(title or "Ranking: mean margin over the field, 95% CI")
    fig.tight_layout()
    return fig


def distributions_figure(edges, series: dict, xlabel: str = PTS_DEAL, title: str = "Score per deal",
                         ax=None, mean_ci_of: dict | None = None):
    """Outline histograms of several binned distributions; the legend gives each mean with its CI."""
    own = ax is None
    if own:
        fig, ax = figure(1, 1, height=3.8)
    else:
        fig = ax.figure
    for i, (label, counts) in enumerate(series.items()):
        lab = label
        if mean_ci_of and label in mean_ci_of:
            m, lo, hi = mean_ci_of[label]
            lab = f"{label}: mean {m:.1f} [{lo:.1f}, {hi:.1f}]"
        step_hist(ax, edges, counts, label=lab, color=PALETTE[i % len(PALETTE)], ls=LINESTYLES[i % len(LINESTYLES)])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("density (share per point)" if "point" in xlabel else "density")
    ax.set_title(title)
    legend_outside(ax, below=True)
    if own:
        fig.tight_layout()
    return fig


def _overlapping(boxes) -> bool:
    return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def fit_bar_labels(ax, labels: list, short: list[str]) -> None:
    """Keep the value labels of one panel's bars apart: when two of them overlap, each becomes
    one upright line (value and interval), then, if they still do, the value alone (the interval
    stays drawn as the error bar); the y range then grows to hold the labels inside the panel."""
    if len(labels) < 2:
        return
    fig = ax.figure
    renderer = fig.canvas.get_renderer()

    def boxes():
        return [t.get_window_extent(renderer) for t in labels]

    if _overlapping(boxes()):
        for t in labels:
            t.set_text(t.get_text().replace("\n", " "))
            t.set_rotation(90)
            t.set_fontsize(min(t.get_fontsize(), 6.5))
        if _overlapping(boxes()):
            for t, text in zip(labels, short):
                t.set_text(text)
    height = ax.get_window_extent(renderer).height
    if any(b.height > 0.6 * height for b in boxes()):  # an upright label taller than the panel allows
        for t, text in zip(labels, short):
            t.set_text(text)
    for _ in range(6):  # a label's size is in points: the y range must leave it room above (below) its bar
        low, high = ax.get_ylim()
        new_low, new_high = low, high
        for t, b in zip(labels, boxes()):
            a = t.xy[1]
            at = ax.transData.transform((0, a))[1]
            up, down = (b.y1 - at) / height + 0.02, (at - b.y0) / height + 0.02
            if b.y1 > at and up < 0.95:
                new_high = max(new_high, low + (a - low) / (1 - up))
            if b.y0 < at and down < 0.95:
                new_low = min(new_low, high - (high - a) / (1 - down))
        if np.isclose(new_low, low) and np.isclose(new_high, high):
            break
        ax.set_ylim(new_low, new_high)


def shares_figure(table: pd.DataFrame, category: str, group: str, title: str, ylabel: str = "share of plays",
                  ax=None, percent: bool = True):
    """Grouped bars of shares (columns share, ci_low, ci_high) with Wilson CI error bars; every bar
    has its value printed on it (with its interval when the bar is wide enough to carry it), every
    category is drawn even when its share is 0, and the legend sits below the axes."""
    own = ax is None
    if own:
        fig, ax = figure(1, 1, height=3.8)
    else:
        fig = ax.figure
    cats = list(dict.fromkeys(table[category]))
    groups = list(dict.fromkeys(table[group]))
    w = 0.8 / max(len(groups), 1)
    top = float(np.nanmax(table["ci_high"])) if len(table) else 1.0
    placed, values = [], []
    for i, g in enumerate(groups):
        part = table[table[group] == g].set_index(category).reindex(cats)
        x = np.arange(len(cats)) + (i - (len(groups) - 1) / 2) * w
        st = series_style(i)
        ax.bar(x, part["share"].fillna(0.0), width=w, color=st["color"], alpha=0.85, label=str(g),
               hatch=["", "//", "..", "xx", "\\\\", "++"][i % 6], edgecolor="white")
        ax.errorbar(x, part["share"], yerr=_yerr(part["share"], part["ci_low"], part["ci_high"]), fmt="none",
                    ecolor="black", capsize=3, lw=1)
        for xx, (_, r) in zip(x, part.iterrows()):
            if not math.isfinite(r["share"]):
                continue
            if percent:
                text = value = f"{100 * r['share']:.1f}%"
                if len(groups) <= 3:
                    text += f"\n[{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}]"
            else:
                text = value = f"{r['share']:.3g}"
            many = len(groups) > 3  # narrow bars: the label stands upright
            placed.append(ax.annotate(text, (xx, max(r["ci_high"], r["share"])), xytext=(0, 2),
                                      textcoords="offset points", ha="center", va="bottom",
                                      fontsize=6.5 if many else 7, rotation=90 if many else 0))
            values.append(value)
    ax.set_ylim(0, top * (1.4 if len(groups) > 3 else 1.25) + 1e-9)
    ax.set_xticks(range(len(cats)), cats)
    fit_bar_labels(ax, placed, values)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0)
    if len(groups) > 1:
        legend_outside(ax, below=True, fontsize=7.5)
    if own:
        fig.tight_layout()
        fit_bar_labels(ax, placed, values)  # again in the final layout
    return fig


def _fmt_for(vals) -> str:
    big = np.nanmax(np.abs(vals)) if np.isfinite(vals).any() else 1.0
    return "+.1f" if big >= 10 else ("+.2f" if big >= 1 else "+.3f")


def counters_figure(table: pd.DataFrame, metrics: Sequence[tuple[str, str]], group: str = "team",
                    title: str = "Strategy counters per deal (team of two seats), 95% CI", ncols: int = 3,
                    zero_line: bool = True):
    """Small multiples: one panel per counter, one bar per ``group`` value, CI error bars, each
    bar's value and interval printed on it (typically A - B differences: the quantity compared).

    ``table`` has columns ``group``, metric, ``metric_low``, ``metric_high``; ``metrics``
    is [(column, axis label with unit)]."""
    n = len(metrics)
    nrows = math.ceil(n / ncols)
    fig, axes = figure(nrows, ncols, height=2.6 * nrows + 0.8)
    axes = np.atleast_1d(axes).ravel()
    labels = [str(v) for v in table[group]]
    short = [lab if len(lab) <= 16 else lab[:15] + "…" for lab in labels]
    panels = []
    for ax, (col, ylabel) in zip(axes, metrics):
        x = np.arange(len(labels))
        vals = table[col].to_numpy(float)
        ax.bar(x, vals, color=[PALETTE[i % len(PALETTE)] for i in range(len(labels))], alpha=0.8)
        ax.errorbar(x, vals, yerr=_yerr(table[col], table[f"{col}_low"], table[f"{col}_high"]), fmt="none",
                    ecolor="black", capsize=3, lw=1)
        if zero_line:
            ax.axhline(0, color="grey", lw=0.8)
        fmt = _fmt_for(vals)
        placed, values = [], []
        for xx, m, lo, hi in zip(x, vals, table[f"{col}_low"], table[f"{col}_high"]):
            if math.isfinite(m):
                placed.append(ax.annotate(f"{m:{fmt}}\n[{lo:{fmt}}, {hi:{fmt}}]", (xx, m),
                                          xytext=(0, 3 if m >= 0 else -3), textcoords="offset points",
                                          ha="center", va="bottom" if m >= 0 else "top", fontsize=7))
                values.append(f"{m:{fmt}}")
        lo_all = np.nanmin(np.minimum(vals, table[f"{col}_low"].to_numpy(float)))
        hi_all = np.nanmax(np.maximum(vals, table[f"{col}_high"].to_numpy(float)))
        span = max(hi_all - min(lo_all, 0), max(hi_all, 0) - lo_all, 1e-9)
        ax.set_ylim(min(lo_all, 0) - 0.25 * span * (lo_all < 0), max(hi_all, 0) + 0.3 * span)
        ax.set_xticks(x, short, rotation=20 if len(labels) > 2 else 0, ha="right" if len(labels) > 2 else "center",
                      fontsize=8)
        ax.set_ylabel(ylabel, fontsize=8.5)
        ax.set_title(col.replace("_", " "), fontsize=9.5)
        panels.append((ax, placed, values))
    for ax in axes[n:]:
        ax.set_visible(False)
    fig.suptitle(title, fontweight="bold")
    fig.tight_layout()
    for ax, placed, values in panels:  # measured in the final layout
        fit_bar_labels(ax, placed, values)
    return fig


__all__ = ["use_style", "style", "figure", "save", "mean_ci", "moments_ci", "wilson", "errorbars",
           "band", "forest", "step_hist", "hist_summary", "match_figure", "running_mean_figure", "sweep_figure",
           "near_best_figure", "series_style", "legend_outside", "integer_axis", "MARKERS", "LINESTYLES",
           "crosstable_figure", "ranking_figure", "distributions_figure", "shares_figure", "counters_figure",
           "fit_bar_labels",
           "PTS_DEAL", "PTS_GAME"]
