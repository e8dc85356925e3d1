"""``rummy-sim report RESULTS.parquet --out DIR``: a Markdown + HTML report of a results file.

The results file (or the ``.parts`` folder of an unfinished run, docs/results.md) is
read one chunk at a time, so a report of tens of millions of plays needs the memory
of one chunk. Everything is reduced to:

* the run's own statistics (sim.aggregate.Totals: the numbers ``rummy-sim match``
  prints, sweeps' ``vs_best``, tournaments' crosstable and ranking);
* binned distributions (deal, deal-set difference and game scores, deal length);
* per deal set means of every strategy counter of each team, their sums and sums of
  squares, hence means with Student-t 95% intervals over deal sets (the deal set is
  the independent unit: its rotations share the cards);
* end reasons (Wilson intervals) and the dealer's team advantage (paired per deal set).

``write_report`` writes ``report.md``, ``report.html`` (the same content), PNG figures
(sim.charts style) and CSV tables into the output folder and returns report.md's path.
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import math
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim import charts
from sim.aggregate import Totals
from sim.experiment import Experiment
from sim.games import get_game
from sim.runner import RESULTS_FORMAT, ExperimentResult, iter_chunks, read_metadata, stats_of_frame

COUNTERS = list(get_game("persian").schema.counters)  # TODO(issue 8): game sections
# per-team metrics (sum of the team's two seats; max for max_depth), points per deal unless noted
METRICS = ["total", "table", "hand", "bonus", *COUNTERS, "took", "went_out", "turns"]
UNITS = {
    "total": "points per deal", "table": "points per deal", "hand": "points per deal (penalty)",
    "bonus": "points per deal", "takes": "takes per deal", "take_depth_sum": "depth per deal (sum)",
    "max_depth": "deepest take per deal (-1 none; column deepest_take)", "cards_taken": "cards per deal",
    "fours_melded": "fours per deal", "joker_fours_melded": "joker fours per deal",
    "layoff_points_on_opponents": "points per deal", "hand_points": "points per deal",
    "turns_played": "turns per deal", "table_points": "points per deal", "discards": "discards per deal",
    "discards_fed": "discards per deal", "took": "share of deals with a take", "went_out": "share of deals",
    "turns": "turns per deal (whole table)",
}
SCORE_EDGES = np.arange(-400, 1001, 10)
DIFF_EDGES = np.arange(-700, 701, 10)
GAME_EDGES = np.arange(-800, 1801, 20)
TURN_EDGES = np.arange(0, 201, 2)
END_NAMES = ["out", "passes", "cap"]


def _hist(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Counts per bin, values outside the edges clipped into the end bins (nothing hidden)."""
    v = np.clip(np.asarray(values, dtype=float), edges[0], edges[-1] - 1e-9)
    return np.histogram(v, bins=edges)[0].astype(np.int64)


@dataclass
class Collected:
    """Everything a report needs, reduced from the per-play rows chunk by chunk."""

    path: Path
    meta: dict
    exp: Experiment
    totals: Totals
    summary: pd.DataFrame
    deals: int = 0
    read_seconds: float = 0.0
    hists: dict = field(default_factory=dict)  # (kind, pairing, side) -> counts
    mom: dict = field(default_factory=dict)  # (pairing, side) -> [n, sum[M], sumsq[M]]
    depth_cross: dict = field(default_factory=dict)  # (pairing, side) -> sum(takes * depth_sum) over deal sets
    dealer: dict = field(default_factory=dict)  # pairing -> [n, sum, sumsq] of dealer team - other, per deal set
    ends: dict = field(default_factory=dict)  # pairing -> counts out/passes/cap
    maxdepth: dict = field(default_factory=dict)  # (pairing, side) -> counts of seat max depth -1..55

    @property
    def result(self) -> ExperimentResult:
        return ExperimentResult(self.exp, self.totals, self.summary, self.meta, None, self.path,
                                self.meta.get("stopped_by", "deals"), self.meta.get("sprt"))

    def _add_hist(self, key, counts):
        if key in self.hists:
            self.hists[key] += counts
        else:
            self.hists[key] = counts.copy()

    def counter_table(self) -> pd.DataFrame:
        """One row per (pairing, side): every metric's mean per deal with its 95% CI over deal sets."""
        labels = self.exp.team_labels()
        rows = []
        for (p, side), (n, s, q) in sorted(self.mom.items()):
            i, j = self.exp.pairings[p]
            row = {"pairing": p, "side": side, "team": labels[i if side == "A" else j],
                   "opponent": labels[j if side == "A" else i], "deal_sets": int(n)}
            for k, name in enumerate(METRICS):
                m, lo, hi = charts.moments_ci(n, s[k], q[k])
                name = "deepest_take" if name == "max_depth" else name  # max_depth is also a strategy parameter
                row[name], row[f"{name}_low"], row[f"{name}_high"] = m, lo, hi
            # mean depth per take: ratio of deal-set means, delta-method 95% CI
            kt, kd = METRICS.index("takes"), METRICS.index("take_depth_sum")
            mt, md = s[kt] / n, s[kd] / n
            if mt > 0 and n > 1:
                r = md / mt
                vt = (q[kt] - n * mt * mt) / (n - 1)
                vd = (q[kd] - n * md * md) / (n - 1)
                cov = (self.depth_cross[(p, side)] - n * mt * md) / (n - 1)
                var = max((vd - 2 * r * cov + r * r * vt) / (mt * mt), 0.0) / n
                h = 1.959964 * math.sqrt(var)
                row["depth_per_take"], row["depth_per_take_low"], row["depth_per_take_high"] = r, r - h, r + h
            else:
                row["depth_per_take"] = row["depth_per_take_low"] = row["depth_per_take_high"] = math.nan
            rows.append(row)
        return pd.DataFrame(rows)

    def end_table(self) -> pd.DataFrame:
        labels = self.exp.team_labels()
        rows = []
        for p, counts in sorted(self.ends.items()):
            i, j = self.exp.pairings[p]
            n = counts.sum()
            for k, name in enumerate(END_NAMES):
                sh, lo, hi = charts.wilson(int(counts[k]), int(n))
                rows.append({"pairing": p, "match": f"{labels[i]} vs {labels[j]}", "end": name, "plays": int(counts[k]),
                             "share": sh, "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows)

    def dealer_table(self) -> pd.DataFrame:
        labels = self.exp.team_labels()
        rows = []
        for p, (n, s, q) in sorted(self.dealer.items()):
            i, j = self.exp.pairings[p]
            m, lo, hi = charts.moments_ci(n, s, q)
            rows.append({"pairing": p, "match": f"{labels[i]} vs {labels[j]}", "deal_sets": int(n),
                         "dealer_team_minus_other": m, "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows)

    def distribution_table(self) -> pd.DataFrame:
        labels = self.exp.team_labels()
        edges = {"deal score": SCORE_EDGES, "deal-set A - B": DIFF_EDGES, "game score": GAME_EDGES,
                 "deal length (turns)": TURN_EDGES}
        rows = []
        for (kind, p, side), counts in sorted(self.hists.items(), key=lambda kv: (kv[0][1], kv[0][0], kv[0][2])):
            i, j = self.exp.pairings[p]
            who = {"A": labels[i], "B": labels[j], "": "all plays", "diff": "A - B"}[side]
            rows.append({"pairing": p, "match": f"{labels[i]} vs {labels[j]}", "quantity": kind, "of": who,
                         **charts.hist_summary(edges[kind], counts)})
        return pd.DataFrame(rows)


def _team_values(frame: pd.DataFrame, name: str, a_team: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(A's, B's) value of counter ``name`` per play: sum of the team's seats (max for max_depth)."""
    cols = np.stack([frame[f"{name}_s{s}"].to_numpy(np.int64) for s in range(4)], axis=1)
    idx = np.arange(len(frame))
    a0, a1 = cols[idx, a_team], cols[idx, a_team + 2]
    b0, b1 = cols[idx, 1 - a_team], cols[idx, 3 - a_team]
    if name == "max_depth":
        return np.maximum(a0, a1), np.maximum(b0, b1)
    return a0 + a1, b0 + b1


def _chunks(path: Path):
    """(start, stop, frame) of a finished results file or of the chunk files of a parts folder."""
    if path.is_dir():
        for f in _chunk_files(path):
            m = read_metadata(f)
            start, stop = m["deal_range"]
            if f.suffix == ".arrow":
                import pyarrow.feather as pf

                yield start, stop, pf.read_table(f).to_pandas()
            else:
                yield start, stop, pd.read_parquet(f)
    else:
        yield from iter_chunks(path)


def _chunk_files(folder: Path) -> list[Path]:
    """Finished chunk files of a parts folder (Arrow IPC or parquet, by deal range)."""
    return sorted(f for f in folder.glob("chunk-*") if f.suffix in (".arrow", ".parquet"))


def collect(path: str | Path) -> Collected:
    """Reduce a results file (or an unfinished run's parts folder) to a ``Collected``."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such results file")
    if path.is_dir():
        files = _chunk_files(path)
        if not files:
            raise ValueError(f"{path}: a folder without chunk files is not a rummy-sim results folder")
        meta = read_metadata(files[0])
        meta["deal_range"] = [read_metadata(files[0])["deal_range"][0], read_metadata(files[-1])["deal_range"][1]]
        meta.setdefault("stopped_by", "interrupt")
    else:
        meta = read_metadata(path)
    if meta.get("format") != RESULTS_FORMAT:
        raise ValueError(f"{path}: unknown results format {meta.get('format')!r}")
    exp = Experiment.from_dict(meta["experiment"])
    totals = Totals(exp)
    t0 = time.perf_counter()
    col = Collected(path, meta, exp, totals, pd.DataFrame())
    dpg = exp.rules.deals_per_game
    from sim.frames import games_frame

    for start, stop, frame in _chunks(path):
        totals.add(stats_of_frame(exp, start, stop, frame))
        col.deals += stop - start
        _reduce_chunk(col, frame, dpg, games_frame)
    col.summary = totals.summary()
    col.meta.setdefault("deals_played", col.deals)
    col.read_seconds = time.perf_counter() - t0
    return col


def _reduce_chunk(col: Collected, frame: pd.DataFrame, dpg: int, games_frame) -> None:
    a_team = frame["a_team"].to_numpy(np.int64)
    pairing = frame["pairing"].to_numpy(np.int64)
    deal = frame["deal"].to_numpy(np.int64)
    values = {}
    for side_total, team_col in (("total", "total"), ("table", "table"), ("hand", "hand"), ("bonus", "bonus")):
        t0, t1 = frame[f"{team_col}_0"].to_numpy(np.int64), frame[f"{team_col}_1"].to_numpy(np.int64)
        values[side_total] = (np.where(a_team == 0, t0, t1), np.where(a_team == 0, t1, t0))
    for name in COUNTERS:
        values[name] = _team_values(frame, name, a_team)
    values["took"] = ((values["takes"][0] > 0).astype(np.int64), (values["takes"][1] > 0).astype(np.int64))
    out_seat = frame["out_seat"].to_numpy(np.int64)
    a_out = (out_seat >= 0) & (out_seat % 2 == a_team)
    b_out = (out_seat >= 0) & (out_seat % 2 != a_team)
    values["went_out"] = (a_out.astype(np.int64), b_out.astype(np.int64))
    values["turns"] = (frame["turns"].to_numpy(np.int64),) * 2
    dealer = frame["dealer"].to_numpy(np.int64)
    t0, t1 = frame["total_0"].to_numpy(np.int64), frame["total_1"].to_numpy(np.int64)
    dealer_adv = np.where(dealer % 2 == 0, t0 - t1, t1 - t0)
    end_codes = frame["end"].cat.codes.to_numpy()
    end_cats = list(frame["end"].cat.categories)
    turns = frame["turns"].to_numpy()

    cols = {"pairing": pairing, "deal": deal, "dealer_adv": dealer_adv}
    for k, name in enumerate(METRICS):
        cols[f"A_{name}"], cols[f"B_{name}"] = values[name]
    per_set = pd.DataFrame(cols).groupby(["pairing", "deal"], sort=False).mean()
    set_pairing = per_set.index.get_level_values("pairing").to_numpy()
    for p in np.unique(pairing):
        sel = set_pairing == p
        ps = per_set[sel]
        n = float(sel.sum())
        for side in ("A", "B"):
            x = ps[[f"{side}_{m}" for m in METRICS]].to_numpy(float)
            key = (int(p), side)
            acc = col.mom.setdefault(key, [0.0, np.zeros(len(METRICS)), np.zeros(len(METRICS))])
            acc[0] += n
            acc[1] += x.sum(axis=0)
            acc[2] += (x * x).sum(axis=0)
            col.depth_cross[key] = col.depth_cross.get(key, 0.0) + float(
                (ps[f"{side}_takes"].to_numpy(float) * ps[f"{side}_take_depth_sum"].to_numpy(float)).sum())
        d = ps["dealer_adv"].to_numpy(float)
        acc = col.dealer.setdefault(int(p), [0.0, 0.0, 0.0])
        acc[0] += n
        acc[1] += d.sum()
        acc[2] += (d * d).sum()
        diffs = (ps["A_total"] - ps["B_total"]).to_numpy(float)
        col._add_hist(("deal-set A - B", int(p), "diff"), _hist(diffs, DIFF_EDGES))

        rows = pairing == p
        col._add_hist(("deal score", int(p), "A"), _hist(values["total"][0][rows], SCORE_EDGES))
        col._add_hist(("deal score", int(p), "B"), _hist(values["total"][1][rows], SCORE_EDGES))
        col._add_hist(("deal length (turns)", int(p), ""), _hist(turns[rows], TURN_EDGES))
        ends = np.zeros(3, dtype=np.int64)
        for code, name in enumerate(end_cats):
            if name in END_NAMES:
                ends[END_NAMES.index(name)] += int((end_codes[rows] == code).sum())
        col.ends[int(p)] = col.ends.get(int(p), np.zeros(3, dtype=np.int64)) + ends
        for side, k in (("A", 0), ("B", 1)):
            md = np.concatenate([
                _team_seat_max(frame, rows, a_team, k, 0), _team_seat_max(frame, rows, a_team, k, 2)])
            counts = np.bincount(md + 1, minlength=57)[:57].astype(np.int64)
            key = (int(p), side)
            col.maxdepth[key] = col.maxdepth.get(key, np.zeros(57, dtype=np.int64)) + counts

    games = games_frame(frame[["pairing", "rotation", "deal", "a", "b", "a_total", "b_total"]], dpg)
    games = games[games["complete"]]
    for p, g in games.groupby("pairing", observed=True):
        col._add_hist(("game score", int(p), "A"), _hist(g["a_total"].to_numpy(), GAME_EDGES))
        col._add_hist(("game score", int(p), "B"), _hist(g["b_total"].to_numpy(), GAME_EDGES))


def _team_seat_max(frame, rows, a_team, k, off) -> np.ndarray:
    """Per play of ``rows``: max_depth of team A's (k=0) or B's (k=1) seat number ``off`` (0 or 2)."""
    cols = np.stack([frame[f"max_depth_s{s}"].to_numpy(np.int64) for s in range(4)], axis=1)[rows]
    team = a_team[rows] if k == 0 else 1 - a_team[rows]
    return cols[np.arange(cols.shape[0]), team + off]


# --- document model: the same blocks become Markdown and HTML --------------------------------------


class Doc:
    def __init__(self):
        self.blocks: list[tuple] = []

    def h(self, level: int, text: str):
        self.blocks.append(("h", level, text))

    def p(self, text: str):
        self.blocks.append(("p", text))

    def bullets(self, items: list[str]):
        self.blocks.append(("ul", items))

    def code(self, text: str):
        self.blocks.append(("code", text))

    def table(self, frame: pd.DataFrame, caption: str | None = None, csv: str | None = None):
        self.blocks.append(("table", frame, caption, csv))

    def img(self, name: str, alt: str):
        self.blocks.append(("img", name, alt))

    def markdown(self) -> str:
        out = []
        for b in self.blocks:
            if b[0] == "h":
                out.append("#" * b[1] + " " + b[2])
            elif b[0] == "p":
                out.append(b[1])
            elif b[0] == "ul":
                out.append("\n".join(f"* {x}" for x in b[1]))
            elif b[0] == "code":
                out.append("```\n" + b[1].rstrip() + "\n```")
            elif b[0] == "table":
                frame, caption, csv = b[1], b[2], b[3]
                lines = []
                if caption:
                    lines.append(f"*{caption}*" + (f" (`{csv}`)" if csv else ""))
                    lines.append("")
                cols = [str(c) for c in frame.columns]
                lines.append("| " + " | ".join(cols) + " |")
                lines.append("| " + " | ".join("---" for _ in cols) + " |")
                for _, r in frame.iterrows():
                    lines.append("| " + " | ".join(str(v).replace("|", "\\|") for v in r) + " |")
                out.append("\n".join(lines))
            elif b[0] == "img":
                out.append(f"![{b[2]}]({b[1]})")
        return "\n\n".join(out) + "\n"

    def html(self, title: str) -> str:
        def inline(text: str) -> str:
            t = html.escape(text)
            parts = t.split("`")
            t = "".join(f"<code>{x}</code>" if k % 2 else x for k, x in enumerate(parts))
            parts = t.split("**")
            return "".join(f"<b>{x}</b>" if k % 2 else x for k, x in enumerate(parts))

        body = []
        for b in self.blocks:
            if b[0] == "h":
                body.append(f"<h{b[1]}>{inline(b[2])}</h{b[1]}>")
            elif b[0] == "p":
                body.append(f"<p>{inline(b[1])}</p>")
            elif b[0] == "ul":
                body.append("<ul>" + "".join(f"<li>{inline(x)}</li>" for x in b[1]) + "</ul>")
            elif b[0] == "code":
                body.append(f"<pre>{html.escape(b[1].rstrip())}</pre>")
            elif b[0] == "table":
                frame, caption, csv = b[1], b[2], b[3]
                cap = f"<caption>{inline(caption)}" + (f' (<a href="{csv}">{csv}</a>)' if csv else "") + \
                    "</caption>" if caption else ""
                head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
                rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in r) + "</tr>"
                               for _, r in frame.iterrows())
                body.append(f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
            elif b[0] == "img":
                body.append(f'<p><img src="{b[1]}" alt="{html.escape(b[2])}"></p>')
        css = ("body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}"
               "table{border-collapse:collapse;margin:1em 0;font-size:0.9em}"
               "th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}"
               "caption{text-align:left;font-style:italic;padding:4px 0}img{max-width:100%}"
               "pre{background:#f6f6f6;padding:0.8em;overflow-x:auto;font-size:0.85em}code{background:#f3f3f3}")
        return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}"
                f"</title><style>{css}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


# --- formatting -------------------------------------------------------------------------------------


def _f(x, fmt: str = "+.2f") -> str:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return "n/a"
    return "n/a" if not math.isfinite(x) else format(x, fmt)


def _ci(m, lo, hi, fmt: str = "+.2f") -> str:
    return f"{_f(m, fmt)} [{_f(lo, fmt)}, {_f(hi, fmt)}]"


def _p(p) -> str:
    try:
        p = float(p)
    except (TypeError, ValueError):
        return "n/a"
    if not math.isfinite(p):
        return "n/a"
    return "<1e-12" if p < 1e-12 else f"{p:.2g}"


def reproduce_command(exp: Experiment, out: str = "results.parquet") -> str:
    """The ``rummy-sim`` command that plays the same experiment (same rows)."""
    labels = exp.team_labels()
    if exp.kind == "match":
        args = ["rummy-sim", "match", labels[0], labels[1]]
    elif exp.kind == "tournament":
        args = ["rummy-sim", "tournament", *labels]
    else:
        name, _, params = labels[0].partition(":")
        swept = {k for k, _ in exp.vary}
        fixed = [kv for kv in params.split(",") if kv and kv.split("=")[0] not in swept]
        base = name + (":" + ",".join(fixed) if fixed else "")
        args = ["rummy-sim", "sweep", base]
        for k, vals in exp.vary:
            args += ["--vary", f"{k}=" + ",".join(str(v) for v in vals)]
        args += ["--vs", labels[exp.pairings[0][1]]]
    args += ["--deals", str(exp.deals), "--seed", str(exp.seed)]
    if exp.first_deal:
        args += ["--first-deal", str(exp.first_deal)]
    default = type(exp.rules)()
    for k, v in exp.rules.to_dict().items():
        if v != default.to_dict()[k]:
            args += ["--rule", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    if exp.sprt:
        args += ["--sprt", f"{exp.sprt.delta:g}"]
    args += ["--out", out]
    return " ".join(shlex.quote(a) for a in args)


def _elapsed_guess(path: Path, meta: dict) -> float | None:
    """Seconds from the run's ``created`` stamp to the file's last write (the run's wall time, roughly)."""
    try:
        created = _dt.datetime.fromisoformat(meta["created"]).timestamp()
        target = path if path.is_file() else max(_chunk_files(path), key=lambda f: f.stat().st_mtime)
        return max(target.stat().st_mtime - created, 0.0)
    except (KeyError, ValueError, OSError):
        return None


# --- the report ----------------------------------------------------------------------------------------


def write_report(results_path: str | Path, out_dir: str | Path, *, title: str | None = None,
                 command: str | None = None, elapsed: float | None = None, machine: str | None = None,
                 notes: str | None = None) -> Path:
    """Write report.md, report.html, figures (PNG) and tables (CSV) for a results file; return report.md."""
    path = Path(results_path)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    col = collect(path)
    exp, meta, summary = col.exp, col.meta, col.summary
    labels = exp.team_labels()
    doc = Doc()
    kind = exp.kind
    heading = title or {"match": f"{labels[0]} vs {labels[1]}", "tournament": f"Round robin of {len(labels)} teams",
                        "sweep": f"Sweep of {', '.join(k for k, _ in exp.vary)}"}[kind]
    doc.h(1, f"Report: {heading}")
    run_time = elapsed if elapsed is not None else _elapsed_guess(path, meta)
    how = "measured" if elapsed is not None else "from the file's creation stamp to its last write"
    doc.p(f"A {kind} on duplicate deals (docs/results.md), {col.deals:,} deal indices"
          f" x {len(exp.pairings)} pairing(s), {int(summary['plays'].sum()):,} plays. All intervals are 95%;"
          f" differences are paired over deal sets (each deal index played in every rotation with the same cards).")

    doc.h(2, "How it was made")
    cmd = command or reproduce_command(exp)
    doc.code(cmd + f"\nrummy-sim report {path.name} --out {out.as_posix()}")
    vers = meta.get("versions", {})
    items = [
        f"seed: **{exp.seed}** (a deal's cards depend only on seed and deal index)",
        f"deal range: [{meta['deal_range'][0]:,}, {meta['deal_range'][1]:,}) - deals played {col.deals:,}"
        f" ({meta.get('stopped_by', 'deals')})",
        f"teams: {', '.join(f'`{t}`' for t in labels)}; strategy specs: "
        f"{', '.join(f'`{s}`' for s in meta.get('strategy_specs', []))}",
        f"rules: `{json.dumps(meta.get('rules', exp.rules.to_dict()), sort_keys=True)}`",
        f"rotations per deal: {', '.join(str(exp.rotations(p)) for p in range(len(exp.pairings)))}",
        f"experiment hash: `{meta.get('experiment_hash')}`, created {meta.get('created')}",
        "versions: " + ", ".join(f"{k} {v}" for k, v in vers.items()),
    ]
    if run_time is not None:
        items.append(f"run time: **{run_time:,.0f} s** ({how})" + (f" on {machine}" if machine else ""))
    items.append(f"report: read and reduced {col.deals:,} deals in {col.read_seconds:.1f} s")
    doc.bullets(items)
    if notes:
        doc.p(notes)

    _summary_section(doc, col, out)
    _distribution_section(doc, col, out)
    _ends_section(doc, col, out)
    _counters_section(doc, col, out)

    doc.h(2, "Files")
    doc.bullets([f"`{f.name}`" for f in sorted(out.glob("*.csv"))] + [f"`{f.name}`" for f in sorted(out.glob("*.png"))])
    (out / "report.md").write_text(doc.markdown())
    (out / "report.html").write_text(doc.html(f"Report: {heading}"))
    (out / "summary.json").write_text(json.dumps(
        {"results": str(path), "command": cmd, "seed": exp.seed, "deals": col.deals, "elapsed_seconds": run_time,
         "summary": json.loads(summary.to_json(orient="records"))}, indent=1) + "\n")
    return out / "report.md"


def _summary_section(doc: Doc, col: Collected, out: Path) -> None:
    exp, s = col.exp, col.summary
    doc.h(2, "Summary with confidence intervals")
    view = pd.DataFrame({
        "A": s["a"], "B": s["b"], "deal sets": s["deal_sets"].map("{:,}".format),
        "A - B pts/deal [95% CI]": [_ci(r.mean_diff, r.ci_low, r.ci_high) for r in s.itertuples()],
        "p (Holm)": s["p_holm"].map(_p),
        "game win rate [95% CI]": [_ci(r.game_win_rate, r.game_win_rate_ci_low, r.game_win_rate_ci_high, ".3f")
                                   for r in s.itertuples()],
        "A / B mean pts": [f"{r.a_mean:.1f} / {r.b_mean:.1f}" for r in s.itertuples()],
        "effect d": s["effect_size"].map(lambda x: _f(x, "+.3f")),
        "variance reduction": s["variance_reduction"].map(lambda x: _f(x, ".2f") + "x"),
        f"deal sets for {exp.margin:g} pt": s["deals_needed"].map(lambda x: _f(x, ",.0f")),
    })
    s.to_csv(out / "summary.csv", index=False)
    doc.table(view, "Mean A - B points per deal set (paired t-interval), game win rate (Wilson)", "summary.csv")
    if exp.kind == "match":
        r = s.iloc[0]
        doc.p(f"**{r['a']}** scores **{_ci(r['mean_diff'], r['ci_low'], r['ci_high'])}** points per deal more than "
              f"**{r['b']}** (p {_p(r['p_value'])}); it wins {100 * r['game_win_rate']:.1f}% of the two-deal games. "
              f"Duplicate deals cut the variance {r['variance_reduction']:.2f}x against independent plays (unpaired "
              f"CI {_ci(r['mean_diff'], r['unpaired_ci_low'], r['unpaired_ci_high'])}).")
        charts.save(charts.match_figure(r), out / "summary.png")
        doc.img("summary.png", "A - B points per deal with paired and unpaired 95% CIs; game win rate")
    elif exp.kind == "sweep":
        from sim.sweep import sweep_table

        t = sweep_table(col.result)
        t.to_csv(out / "sweep_table.csv", index=False)
        keys = [k for k, _ in exp.vary]
        best = t[t["best"]].iloc[0]
        doc.p("Best point: " + ", ".join(f"`{k}={best[k]}`" for k in keys) +
              f", {_ci(best['mean_diff'], best['ci_low'], best['ci_high'])} points per deal against "
              f"`{best['opponent']}`. Each other point against the best one, paired on the same deals:")
        vt = t[keys + ["mean_diff", "ci_low", "ci_high", "vs_best", "vs_best_ci_low", "vs_best_ci_high",
                       "vs_best_p_holm"]].copy()
        view = pd.DataFrame({**{k: vt[k] for k in keys},
                             "vs opponent [95% CI]": [_ci(r.mean_diff, r.ci_low, r.ci_high) for r in vt.itertuples()],
                             "vs best [95% CI]": ["best" if not math.isfinite(r.vs_best) else
                                                  _ci(r.vs_best, r.vs_best_ci_low, r.vs_best_ci_high)
                                                  for r in vt.itertuples()],
                             "p vs best (Holm)": vt["vs_best_p_holm"].map(_p)})
        doc.table(view, "Every grid point: against the opponent and against the best point (points per deal)",
                  "sweep_table.csv")
        x = keys[0] if len(keys) == 1 else max(keys, key=lambda k: len(dict(exp.vary)[k]))
        group = None if len(keys) == 1 else [k for k in keys if k != x][0]
        fig, axes = charts.figure(1, 2, height=4.2)
        charts.sweep_figure(t, x, group, ax=axes[0], title=f"A - B against {t['opponent'].iloc[0]}")
        vb = t.copy()
        for c in ("vs_best", "vs_best_ci_low", "vs_best_ci_high"):
            vb[c] = vb[c].fillna(0.0)
        charts.sweep_figure(vb, x, group, value="vs_best", low="vs_best_ci_low", high="vs_best_ci_high", ax=axes[1],
                            ylabel=f"point - best point, {charts.PTS_DEAL}", title="Paired difference to the best point")
        fig.tight_layout()
        charts.save(fig, out / "sweep.png")
        half = float(np.nanmax((t["ci_high"] - t["ci_low"]) / 2))
        doc.p(f"The 95% CI bands are drawn on every curve; the widest is +/- {half:.2f} points per deal, so at this "
              "many deals they can be thinner than the lines (the tables give every interval).")
        doc.img("sweep.png", "Response curve with 95% CI bands and paired difference to the best point")
    else:
        from sim.tournament import crosstable, ranking

        res = col.result
        rk = ranking(res)
        rk.to_csv(out / "ranking.csv", index=False)
        m, lo, hi = (crosstable(res, v) for v in ("mean_diff", "ci_low", "ci_high"))
        m.to_csv(out / "crosstable.csv")
        doc.table(pd.DataFrame({"rank": rk["rank"], "team": rk["team"],
                                "margin [95% CI]": [_ci(r.margin, r.ci_low, r.ci_high) for r in rk.itertuples()],
                                "game win rate": rk["game_win_rate"].map(lambda x: _f(x, ".3f")),
                                "p vs next (Holm)": rk["p_vs_next"].map(_p)}),
                  "Ranking by margin over the field (points per deal)", "ranking.csv")
        charts.save(charts.crosstable_figure(m, lo, hi), out / "crosstable.png")
        charts.save(charts.ranking_figure(rk), out / "ranking.png")
        doc.img("crosstable.png", "Crosstable heatmap")
        doc.img("ranking.png", "Ranking with 95% CIs")


def _shown_pairings(col: Collected) -> list[int]:
    k = len(col.exp.pairings)
    if k <= 3:
        return list(range(k))
    md = col.summary["mean_diff"].to_numpy()
    order = np.argsort(md)
    return sorted({int(order[-1]), int(order[0]), int(order[len(order) // 2])})


def _pair_label(col: Collected, p: int, side: str) -> str:
    labels = col.exp.team_labels()
    i, j = col.exp.pairings[p]
    lab = labels[i] if side == "A" else labels[j]
    if col.exp.kind == "sweep" and side == "A" and ":" in lab:
        lab = lab.split(":", 1)[1]  # the grid point's parameters say which point it is
    return lab


def _distribution_section(doc: Doc, col: Collected, out: Path) -> None:
    doc.h(2, "Score distributions")
    dist = col.distribution_table()
    dist.to_csv(out / "distributions.csv", index=False)
    view = dist[dist["quantity"] != "deal length (turns)"][["match", "quantity", "of", "n", "mean", "sd", "p5", "p25",
                                                            "p50", "p75", "p95"]].copy()
    for c in ("mean", "sd", "p5", "p25", "p50", "p75", "p95"):
        view[c] = view[c].map(lambda x: _f(x, ".1f"))
    view["n"] = view["n"].map("{:,}".format)
    doc.table(view, "Binned distributions (points; bins of 10, game bins of 20; values beyond the range are counted "
                    "in the end bins)", "distributions.csv")
    shown = _shown_pairings(col)
    if len(shown) < len(col.exp.pairings):
        doc.p("The figure shows the best, the median and the worst grid point; the table has all.")
    fig, axes = charts.figure(1, 3, height=4.2, width=13.0)
    s = col.summary
    for p in shown:
        tag = "" if len(col.exp.pairings) == 1 else f" ({s.loc[p, 'a']} vs {s.loc[p, 'b']})"
        ser = {f"A {_pair_label(col, p, 'A')}" + ("" if tag else ""): col.hists[("deal score", p, "A")]}
        if len(shown) == 1:
            ser[f"B {_pair_label(col, p, 'B')}"] = col.hists[("deal score", p, "B")]
            mci = {f"A {_pair_label(col, p, 'A')}": (s.loc[p, "a_mean"], math.nan, math.nan)}
        else:
            mci = None
        for i, (lab, counts) in enumerate(ser.items()):
            c = charts.PALETTE[(shown.index(p) * 2 + i) % len(charts.PALETTE)]
            charts.step_hist(axes[0], SCORE_EDGES, counts, label=lab[:40], color=c)
        m, lo, hi = s.loc[p, "mean_diff"], s.loc[p, "ci_low"], s.loc[p, "ci_high"]
        charts.step_hist(axes[1], DIFF_EDGES, col.hists[("deal-set A - B", p, "diff")],
                         label=f"{_pair_label(col, p, 'A')[:32]}: mean {m:+.1f} [{lo:+.1f}, {hi:+.1f}]",
                         color=charts.PALETTE[shown.index(p) * 2 % len(charts.PALETTE)])
        if ("game score", p, "A") in col.hists:
            charts.step_hist(axes[2], GAME_EDGES, col.hists[("game score", p, "A")], label=f"A {_pair_label(col, p, 'A')}"[:40],
                             color=charts.PALETTE[shown.index(p) * 2 % len(charts.PALETTE)])
            if len(shown) == 1:
                charts.step_hist(axes[2], GAME_EDGES, col.hists[("game score", p, "B")],
                                 label=f"B {_pair_label(col, p, 'B')}"[:40], color=charts.PALETTE[1])
        del mci
    axes[0].set(title="Team score per deal", xlabel=charts.PTS_DEAL, ylabel="density (share per point)",
                xlim=(-250, 600))
    axes[1].set(title="A - B per deal set (mean, 95% CI)", xlabel=f"A - B, {charts.PTS_DEAL}",
                ylabel="density (share per point)", xlim=(-500, 600))
    axes[1].axvline(0, color="grey", lw=0.8)
    axes[2].set(title="Team score per game (2 deals)", xlabel=charts.PTS_GAME, ylabel="density (share per point)",
                xlim=(-400, 1000))
    for ax in axes:
        ax.legend(fontsize=7.5, loc="upper left")
    fig.tight_layout()
    charts.save(fig, out / "scores.png")
    doc.img("scores.png", "Score distributions")


def _ends_section(doc: Doc, col: Collected, out: Path) -> None:
    doc.h(2, "End reasons, deal length, dealer effect")
    ends = col.end_table()
    ends.to_csv(out / "end_reasons.csv", index=False)
    wide = ends.assign(cell=[_ci(100 * r.share, 100 * r.ci_low, 100 * r.ci_high, ".2f") + "%" for r in ends.itertuples()])
    wide = wide.pivot(index="match", columns="end", values="cell").reset_index()[["match", *END_NAMES]]
    doc.table(wide, "How deals end: share of plays with a Wilson 95% CI", "end_reasons.csv")
    dealer = col.dealer_table()
    dealer.to_csv(out / "dealer_effect.csv", index=False)
    doc.table(pd.DataFrame({"match": dealer["match"], "deal sets": dealer["deal_sets"].map("{:,}".format),
                            "dealer's team - other team, pts/deal [95% CI]": [
                                _ci(r.dealer_team_minus_other, r.ci_low, r.ci_high) for r in dealer.itertuples()]}),
              "Dealer effect: the dealing team's score minus the other team's, per deal set (both teams deal in "
              "one rotation each, so strategies cancel)", "dealer_effect.csv")
    lengths = col.distribution_table()
    lengths = lengths[lengths["quantity"] == "deal length (turns)"]
    shown = _shown_pairings(col)
    fig, axes = charts.figure(1, 2, height=3.8)
    t = ends[ends["pairing"].isin(shown)].copy()
    t["match"] = t["match"].str.slice(0, 45)
    charts.shares_figure(t, "end", "match", "End reason, share of plays (95% Wilson CI)", ax=axes[0])
    ct = col.counter_table()
    top = 0
    for k, p in enumerate(shown):
        row = lengths[lengths["pairing"] == p].iloc[0]
        c = ct[(ct["pairing"] == p) & (ct["side"] == "A")].iloc[0]
        counts = col.hists[("deal length (turns)", p, "")]
        top = max(top, TURN_EDGES[min(np.nonzero(counts)[0].max() + 2, TURN_EDGES.size - 1)])
        charts.step_hist(axes[1], TURN_EDGES, counts, color=charts.PALETTE[k],
                         label=f"{row['match'][:40]}: mean {c['turns']:.1f} [{c['turns_low']:.1f}, "
                               f"{c['turns_high']:.1f}]")
    axes[1].set(title="Deal length (mean, 95% CI)", xlabel="turns per deal (all seats)",
                ylabel="density (share per turn)", xlim=(0, top))
    axes[1].legend(fontsize=7.5, loc="upper left")
    fig.tight_layout()
    charts.save(fig, out / "ends.png")
    doc.img("ends.png", "End reasons and deal length")


COUNTER_VIEW = [("total", "pts"), ("table", "pts"), ("hand", "pts"), ("took", "share"), ("takes", "n"),
                ("depth_per_take", "cards"), ("cards_taken", "n"), ("fours_melded", "n"), ("joker_fours_melded", "n"),
                ("layoff_points_on_opponents", "pts"), ("discards_fed", "n"), ("went_out", "share")]


def _counters_section(doc: Doc, col: Collected, out: Path) -> None:
    doc.h(2, "Strategy counters")
    doc.p("Per deal and team (both seats added; `took`: share of deals with at least one pile take; "
          "`depth_per_take`: mean depth of a take, a ratio with a delta-method CI). Means over deal sets with 95% CIs.")
    ct = col.counter_table()
    ct.to_csv(out / "counters.csv", index=False)
    cols = {"team": ct["team"], "side": ct["side"], "vs": ct["opponent"]}
    for name, _ in COUNTER_VIEW:
        fmt = ".3f" if name in ("took", "went_out", "fours_melded", "joker_fours_melded") else ".2f"
        cols[name] = [_ci(r[name], r[f"{name}_low"], r[f"{name}_high"], fmt) for _, r in ct.iterrows()]
    doc.table(pd.DataFrame(cols), "Strategy counters per deal (team of two seats), 95% CI", "counters.csv")
    md_keys = sorted(col.maxdepth)
    md = pd.DataFrame({f"{_pair_label(col, p, side)} ({side}, pairing {p})": col.maxdepth[(p, side)]
                       for p, side in md_keys}, index=range(-1, 56))
    md.index.name = "max_depth_of_seat"
    md.to_csv(out / "max_depth.csv")
    exp = col.exp
    metrics = [("took", "share of deals with a take"), ("takes", "takes per deal"),
               ("depth_per_take", "cards above target per take"), ("table", charts.PTS_DEAL),
               ("hand", f"hand penalty, {charts.PTS_DEAL}"), ("fours_melded", "fours per deal"),
               ("joker_fours_melded", "joker fours per deal"), ("layoff_points_on_opponents", charts.PTS_DEAL),
               ("discards_fed", "discards taken next, per deal")]
    if exp.kind == "sweep":
        from sim.sweep import sweep_table

        keys = [k for k, _ in exp.vary]
        x = keys[0] if len(keys) == 1 else max(keys, key=lambda k: len(dict(exp.vary)[k]))
        group = None if len(keys) == 1 else [k for k in keys if k != x][0]
        a = ct[ct["side"] == "A"].sort_values("pairing").reset_index(drop=True)
        grid = sweep_table(col.result)[keys].reset_index(drop=True)
        t = pd.concat([grid, a], axis=1)
        show = [m for m in metrics if m[0] in ("took", "takes", "depth_per_take", "table", "hand",
                                               "discards_fed")]
        fig, axes = charts.figure(2, 3, height=7.8, width=13.0)
        for ax, (name, unit) in zip(axes.ravel(), show):
            charts.sweep_figure(t, x, group, value=name, low=f"{name}_low", high=f"{name}_high", ax=ax,
                                ylabel=unit, title=f"{name.replace('_', ' ')} (swept team)")
            if ax is not axes.ravel()[0] and ax.get_legend():
                ax.get_legend().remove()
        fig.suptitle("Counters of the swept strategy per deal against the grid, 95% CI bands", fontweight="bold")
        fig.tight_layout()
        charts.save(fig, out / "counters.png")
    else:
        shown = _shown_pairings(col)
        t = ct[ct["pairing"].isin(shown)].copy()
        t["team"] = [f"{r.team} ({r.side})" if len(shown) == 1 else f"{r.team} vs {r.opponent}"
                     for r in t.itertuples()]
        charts.save(charts.counters_figure(t, metrics), out / "counters.png")
    doc.img("counters.png", "Strategy counters with 95% CIs")
    fig, ax = charts.figure(1, 1, height=3.6)
    deepest = 0
    shown = _shown_pairings(col)
    pick = [(p, "A") for p in shown] + [(shown[0], "B")]
    if exp.kind == "tournament":
        pick = md_keys[:6]
    for k, c in enumerate([md.columns[md_keys.index(key)] for key in pick]):
        counts = md[c].to_numpy(float)
        took = counts[1:]
        if took.sum():
            w = np.array([charts.wilson(int(x), int(counts.sum())) if x > 0 else (np.nan,) * 3 for x in took])
            charts.band(ax, np.arange(0, 56), w[:, 0], w[:, 1], w[:, 2], label=c[:45], color=charts.PALETTE[k])
            deepest = max(deepest, int(np.nonzero(took)[0].max()))
    ax.set(yscale="log", xlim=(-0.5, deepest + 1.5), xlabel="deepest take of the seat in the deal (0 = top card)",
           ylabel="share of seat-deals", title="How deep seats take (deepest take per seat and deal), 95% Wilson bands")
    ax.legend(fontsize=7.5)
    fig.tight_layout()
    charts.save(fig, out / "max_depth.png")
    doc.img("max_depth.png", "Distribution of the deepest take per seat and deal")
    doc.p("Counts behind the depth figure: `max_depth.csv` (exact counts, so any share has a binomial interval).")


def cmd_report(args) -> int:
    """``rummy-sim report`` (wired in sim/cli.py)."""
    path = write_report(args.results, args.out, title=args.title, command=args.command, elapsed=args.elapsed,
                        machine=args.machine, notes=args.notes)
    print(f"report written to {path} (and {path.with_suffix('.html').name}, figures and tables in {path.parent})")
    return 0


__all__ = ["Collected", "collect", "write_report", "reproduce_command", "cmd_report"]
