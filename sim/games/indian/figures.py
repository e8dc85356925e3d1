"""The figures a points-rummy player reads from an Indian Rummy duplicate comparison.

A duplicate pairing seats team A and team B (one strategy each) in the seatings of
sim/games/indian/game.py (``field``: one A seat against a field of B; ``half``: A in
alternate seats). Every play has ``players`` seat-plays, some of them A's and the others
B's. Per pairing and side the run keeps integer sums of its seat-plays (:data:`FIELDS`),
one small array per chunk that merges by addition (exact in any chunk order, and stored
as is in ``--keep summary`` files). From them and the per-deal-set scores the run already
keeps (sim.runner.aggregate.Totals.scores) come, per side:

* ``net``: expected net points per deal (won minus lost, I6/I7) of one seat of the side,
  with a paired t-interval over deal sets (the deal set's mean over its rotations);
* ``deal_win_rate``: share of the side's seat-plays whose seat won the deal (declared
  validly, or was the last player left, I5-I7), Wilson interval; ``even_win_rate`` = 1/N
  is what a seat wins when all play alike and no deal is capped;
* ``first_drop_rate``, ``middle_drop_rate``, ``wrong_declaration_rate``: shares of the
  side's seat-plays (Wilson intervals);
* ``lost_when_losing``: mean points lost on the seat-plays the seat did not win (drops,
  wrong declarations and deadwood, capped at ``max_points``; at a capped deal the losses
  made before the cap); ``gain_when_winning``: mean points won on the seat-plays it won.

By seat relative to the dealer (:data:`OFFSET_FIELDS`, kept per offset beside the fields
above): a seat's offset is ``(seat - dealer) % players`` (I2, I3: offset 1 sits left of the
dealer and plays first, offset 0 is the dealer and plays last). Per deal set and offset the
run sums each side's net points over its seat-plays at that offset (a deal set has the same
number of them in every deal set: A has one per offset in both seatings), and keeps the
sums of those per-set totals, of their squares and of the paired differences A - B at the
same offset (scaled to integers), so each offset's net per deal and A - B get a t-interval
over deal sets, as exact as the side's ``net``.

Wilson intervals treat the seat-plays as independent; the plays of one deal set share
cards, and a seat's good cards make A win in one rotation and B in the others (negatively
correlated outcomes), so these intervals are approximate (docs/results.md).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim.core.fmt import num, pct
from sim.core.intervals import bounds, ci, mean_test, pct_ci, row_pct_ci, wilson_interval

FIELDS = ("seat_plays", "wins", "first_drops", "middle_drops", "wrong_declarations", "not_won", "lost_not_won",
          "lost_not_won_sq", "gain_won", "gain_won_sq")
"""The integer sums kept per (pairing, side) and chunk, in this order."""

MAX_OFFSETS = 6  # I1: at most 6 players, so at most 6 seat offsets from the dealer
OFFSET_FIELDS = ("sets", "seat_plays", "wins", "net", "net_sq", "diff", "diff_sq")
"""Per (pairing, side) and seat offset from the dealer, after :data:`FIELDS`: deal sets in which the
side had a seat-play at the offset, its seat-plays and deals won there, the sum over deal sets of
its net total T at the offset and of T squared, and of D = T * C' - T' * C (C, C': the side's and
the other side's seat-plays at the offset in the deal set; T': the other side's total; D / (C C')
is the set's A - B at the offset) and of D squared. Offset k's sums start at
``len(FIELDS) + k * len(OFFSET_FIELDS)``."""
N_SUMS = len(FIELDS) + MAX_OFFSETS * len(OFFSET_FIELDS)

SIDES = ("a", "b")
RATES = ("deal_win_rate", "first_drop_rate", "middle_drop_rate", "wrong_declaration_rate")
_RATE_FIELD = {"deal_win_rate": "wins", "first_drop_rate": "first_drops", "middle_drop_rate": "middle_drops",
               "wrong_declaration_rate": "wrong_declarations"}
_F = {name: k for k, name in enumerate(FIELDS)}


def figure_columns(players: int) -> list[str]:
    """The per-play columns :func:`chunk_sums` reads (besides ``pairing`` and ``rotation``)."""
    return ["winner", "dealer", *(f"{name}_s{s}" for name in ("lost", "gain", "drop", "wrong_declaration")
                                  for s in range(players))]


def a_seat_table(exp) -> np.ndarray:
    """(pairings, rotations, players) bool: the seats of team A in each rotation of each pairing
    (rotations beyond a pairing's count stay False)."""
    rots = max(exp.rotations(p) for p in range(len(exp.pairings)))
    out = np.zeros((len(exp.pairings), rots, exp.players), dtype=bool)
    for p in range(len(exp.pairings)):
        for r in range(exp.rotations(p)):
            out[p, r, list(exp.seating(p, r).a_sides)] = True
    return out


def chunk_sums(exp, plays: pd.DataFrame) -> np.ndarray:
    """(pairings, 2, N_SUMS) int64: the sums of :data:`FIELDS` over the seat-plays of team A
    (``[:, 0]``) and team B (``[:, 1]``) in ``plays`` (per-play rows, docs/results.md), then per
    seat offset from the dealer the sums of :data:`OFFSET_FIELDS` (:func:`offset_sums`)."""
    n = exp.players
    pairing = plays["pairing"].to_numpy(np.int64)
    rotation = plays["rotation"].to_numpy(np.int64)
    is_a = a_seat_table(exp)[pairing, rotation]  # (rows, n)
    seat = np.arange(n)

    def per_seat(name: str) -> np.ndarray:
        return np.stack([plays[f"{name}_s{s}"].to_numpy(np.int64) for s in range(n)], axis=1)

    won = plays["winner"].to_numpy(np.int64)[:, None] == seat[None, :]
    lost, gain, drop = per_seat("lost"), per_seat("gain"), per_seat("drop")
    wrong = per_seat("wrong_declaration") > 0
    values = {"seat_plays": np.ones_like(lost), "wins": won, "first_drops": drop == 1, "middle_drops": drop == 2,
              "wrong_declarations": wrong, "not_won": ~won, "lost_not_won": np.where(won, 0, lost),
              "lost_not_won_sq": np.where(won, 0, lost * lost), "gain_won": np.where(won, gain, 0),
              "gain_won_sq": np.where(won, gain * gain, 0)}
    out = np.zeros((len(exp.pairings), 2, N_SUMS), dtype=np.int64)
    offset = (seat[None, :] - plays["dealer"].to_numpy(np.int64)[:, None]) % n  # I2: 1 plays first, 0 deals
    deal = plays["deal"].to_numpy(np.int64)
    net = gain - lost
    for p in range(len(exp.pairings)):
        rows = pairing == p
        for side, mask in enumerate((is_a[rows], ~is_a[rows])):
            for k, name in enumerate(FIELDS):
                out[p, side, k] = np.where(mask, values[name][rows], 0).astype(np.int64).sum()
        if rows.any():
            out[p, :, len(FIELDS):] = offset_sums(deal[rows], offset[rows], is_a[rows], net[rows], won[rows])
    return out


def offset_sums(deal: np.ndarray, offset: np.ndarray, is_a: np.ndarray, net: np.ndarray,
                won: np.ndarray) -> np.ndarray:
    """(2, MAX_OFFSETS * len(OFFSET_FIELDS)) int64: one pairing's :data:`OFFSET_FIELDS` sums for A
    and B from its rows (``deal``: (rows,); ``offset``, ``is_a``, ``net``, ``won``: (rows, players))."""
    sets = deal - deal.min()
    m = int(sets.max()) + 1
    cell = (sets[:, None] * MAX_OFFSETS + offset).ravel()  # (deal set, offset) of every seat-play
    size = m * MAX_OFFSETS
    flat_net, flat_won = net.ravel(), won.ravel()
    per = []
    for mask in (is_a.ravel(), ~is_a.ravel()):
        count = np.bincount(cell[mask], minlength=size).reshape(m, MAX_OFFSETS)
        # whole numbers summed in float64: exact (each |net| < 2**15, far fewer than 2**37 seat-plays)
        total = np.rint(np.bincount(cell[mask], weights=flat_net[mask], minlength=size)).astype(np.int64)
        wins = np.bincount(cell[mask & flat_won], minlength=size).reshape(m, MAX_OFFSETS)
        per.append((count.astype(np.int64), total.reshape(m, MAX_OFFSETS), wins.astype(np.int64)))
    out = np.zeros((2, MAX_OFFSETS, len(OFFSET_FIELDS)), dtype=np.int64)
    for side in range(2):
        (c, t, w), (c2, t2, _) = per[side], per[1 - side]
        d = t * c2 - t2 * c
        out[side] = np.stack([(c > 0).sum(axis=0), c.sum(axis=0), w.sum(axis=0), t.sum(axis=0),
                              (t * t).sum(axis=0), d.sum(axis=0), (d * d).sum(axis=0)], axis=1)
    return out.reshape(2, -1)


def _mean_sd(n: int, s: int, sq: int) -> tuple[float, float]:
    if n <= 0:
        return math.nan, math.nan
    mean = s / n
    if n < 2:
        return mean, math.nan
    return mean, math.sqrt(max(sq - n * mean * mean, 0.0) / (n - 1))


def summary_columns(totals, p: int) -> dict:
    """The summary-frame columns of pairing ``p`` from a run's merged statistics
    (sim.runner.aggregate.Totals with its ``figures`` sums); {} when they were not kept."""
    sums = getattr(totals, "figures", None)
    exp = totals.exp
    if sums is None:
        return {}
    k = len(exp.pairings)
    out: dict = {"seating": exp.seating_mode or "field"}
    sc = totals.scores
    for side, idx in zip(SIDES, (p, k + p)):
        if sc is not None and sc.n:
            ci = mean_test(sc.n, sc.mean[idx], sc.c[idx, idx])
            out[f"{side}_net"], out[f"{side}_net_ci_low"], out[f"{side}_net_ci_high"] = \
                ci["mean_diff"], ci["ci_low"], ci["ci_high"]
        else:
            out[f"{side}_net"] = out[f"{side}_net_ci_low"] = out[f"{side}_net_ci_high"] = math.nan
    for side, row in zip(SIDES, sums[p]):
        f = dict(zip(FIELDS, (int(x) for x in row)))
        n = f["seat_plays"]
        out[f"{side}_seat_plays"] = n
        for rate in RATES:
            c = f[_RATE_FIELD[rate]]
            out[f"{side}_{rate}"] = c / n if n else math.nan
            lo, hi = wilson_interval(c, n) if n else (math.nan, math.nan)
            out[f"{side}_{rate}_ci_low"], out[f"{side}_{rate}_ci_high"] = lo, hi
        out[f"{side}_lost_when_losing"], out[f"{side}_lost_when_losing_sd"] = _mean_sd(
            f["not_won"], f["lost_not_won"], f["lost_not_won_sq"])
        out[f"{side}_gain_when_winning"], out[f"{side}_gain_when_winning_sd"] = _mean_sd(
            f["wins"], f["gain_won"], f["gain_won_sq"])
    out["even_win_rate"] = 1.0 / exp.players
    if sums.shape[-1] >= N_SUMS:  # results of a version without the offsets lack these columns
        out.update(offset_columns(sums[p], exp.players))
    return out


def play_order(players: int) -> list[int]:
    """The seat offsets from the dealer in the order they play (I3): 1, 2, ..., then 0, the dealer."""
    return [*range(1, players), 0]


def offset_label(k: int, players: int) -> str:
    """How a player names seat offset ``k``: "1st to play (left of the dealer)" ... "dealer (plays last)"."""
    if k == 0:
        return "dealer (plays last)"
    th = {1: "st", 2: "nd", 3: "rd"}.get(k, "th")
    return f"{k}{th} to play" + (" (left of the dealer)" if k == 1 else "")


def offset_columns(sums_p: np.ndarray, players: int) -> dict:
    """Summary columns by seat offset k from the dealer (k = 0..players-1) of one pairing's sums:
    ``{a,b}_net_off{k}`` (net points per deal of one seat of the side at that offset) and
    ``a_minus_b_off{k}``, each with ``_ci_low`` / ``_ci_high`` (t-intervals over deal sets), and
    ``a_deal_win_rate_off{k}`` with its Wilson interval."""
    base, width = len(FIELDS), len(OFFSET_FIELDS)
    out: dict = {}
    for k in range(players):
        f = [dict(zip(OFFSET_FIELDS, (int(x) for x in sums_p[side, base + k * width: base + (k + 1) * width])))
             for side in range(2)]
        per_set = []
        for side, g in zip(SIDES, f):
            m, n = g["sets"], g["seat_plays"]
            per_set.append(n / m if m else math.nan)
            key = f"{side}_net_off{k}"
            if m:
                c = n / m  # the side's seat-plays at this offset in every deal set
                mean = g["net"] / n
                ci = mean_test(m, mean, max(g["net_sq"] / (c * c) - m * mean * mean, 0.0))
                out[key], out[f"{key}_ci_low"], out[f"{key}_ci_high"] = ci["mean_diff"], ci["ci_low"], ci["ci_high"]
            else:
                out[key] = out[f"{key}_ci_low"] = out[f"{key}_ci_high"] = math.nan
        m = f[0]["sets"]
        key = f"a_minus_b_off{k}"
        if m and f[1]["sets"]:
            scale = per_set[0] * per_set[1]
            mean = f[0]["diff"] / (m * scale)
            ci = mean_test(m, mean, max(f[0]["diff_sq"] / (scale * scale) - m * mean * mean, 0.0))
            out[key], out[f"{key}_ci_low"], out[f"{key}_ci_high"] = ci["mean_diff"], ci["ci_low"], ci["ci_high"]
        else:
            out[key] = out[f"{key}_ci_low"] = out[f"{key}_ci_high"] = math.nan
        n, w = f[0]["seat_plays"], f[0]["wins"]
        key = f"a_deal_win_rate_off{k}"
        out[key] = w / n if n else math.nan
        out[f"{key}_ci_low"], out[f"{key}_ci_high"] = wilson_interval(w, n) if n else (math.nan, math.nan)
    return out


def offset_rows(row, players: int) -> list[dict]:
    """The by-dealer figures of a summary row, one dict per seat offset in play order ([] when the
    results do not have them)."""
    if f"a_net_off{players - 1}" not in row:
        return []
    rows = []
    for k in play_order(players):
        d = {"offset": k, "position": offset_label(k, players)}
        for key in ("a_net", "b_net", "a_minus_b", "a_deal_win_rate"):
            d[key] = row[f"{key}_off{k}"]
            d[f"{key}_ci95"] = [row[f"{key}_off{k}_ci_low"], row[f"{key}_off{k}_ci_high"]]
        rows.append(d)
    return rows


def figures_json(row) -> dict:
    """The ``indian`` block of ``rummy-sim match --json`` from a summary row (docs/results.md)."""
    if "a_net" not in row:
        return {}
    out: dict = {"seating": row["seating"], "even_win_rate": row["even_win_rate"],
                 "a_minus_b": row["mean_diff"], "a_minus_b_ci95": [row["ci_low"], row["ci_high"]]}
    for side in SIDES:
        d = {"seat_plays": int(row[f"{side}_seat_plays"]), "net_per_deal": row[f"{side}_net"],
             "net_per_deal_ci95": bounds(row, f"{side}_net")}
        for rate in RATES:
            d[rate] = row[f"{side}_{rate}"]
            d[f"{rate}_ci95"] = bounds(row, f"{side}_{rate}")
        for key in ("lost_when_losing", "gain_when_winning"):
            d[key] = row[f"{side}_{key}"]
            d[f"{key}_sd"] = row[f"{side}_{key}_sd"]
        out[side] = d
    by_offset = offset_rows(row, round(1.0 / row["even_win_rate"]))  # even share 1/N
    if by_offset:
        out["by_dealer_offset"] = by_offset
    return out


def figures_lines(row, players: int) -> list[str]:
    """The lines ``rummy-sim match`` prints for Indian Rummy under the common ones."""
    if "a_net" not in row:
        return []

    def rate(side: str, key: str) -> str:
        return row_pct_ci(row, f"{side}_{key}")

    seats_a = round(row["a_seat_plays"] / max(row["plays"], 1))
    seating = row["seating"]
    title = f"  per seat, seating {seating} (A in {seats_a} of {players} seats per play)"
    lines = [f"{title:<56}{'A':<29}{'B (the field)' if seating == 'field' else 'B'}"]

    def line(label: str, a: str, b: str, tail: str = "") -> None:
        lines.append(f"    {label:<52}{a:<29}{b:<29}{tail}".rstrip())

    line("net points per deal (won - lost) [95% CI]", ci(row["a_net"], row["a_net_ci_low"], row["a_net_ci_high"]),
         ci(row["b_net"], row["b_net_ci_low"], row["b_net_ci_high"]))
    line("deals won (the seat declared or was left) [Wilson]", rate("a", "deal_win_rate"), rate("b", "deal_win_rate"),
         f"even share 1/{players} = {pct(row['even_win_rate'])}")
    line("first drops", rate("a", "first_drop_rate"), rate("b", "first_drop_rate"))
    line("middle drops", rate("a", "middle_drop_rate"), rate("b", "middle_drop_rate"))
    line("wrong declarations", rate("a", "wrong_declaration_rate"), rate("b", "wrong_declaration_rate"))
    def mean_sd(side: str, key: str) -> str:
        return f"{num(row[f'{side}_{key}'], '.1f')} (sd {num(row[f'{side}_{key}_sd'], '.1f')})"

    line("points lost per deal not won (mean, sd)", mean_sd("a", "lost_when_losing"), mean_sd("b", "lost_when_losing"))
    line("points won per deal won (mean, sd)", mean_sd("a", "gain_when_winning"), mean_sd("b", "gain_when_winning"))
    return lines + offset_lines(row, players)


def offset_lines(row, players: int) -> list[str]:
    """The by-dealer table ``rummy-sim match`` prints for Indian Rummy ([] without the figures)."""
    rows = offset_rows(row, players)
    if not rows:
        return []
    lines = ["  by seat relative to the dealer (offset k: k seats left of the dealer; 95% CIs over deal sets)",
             f"    {'seat':<34}{'A net/deal':<28}{'B net/deal':<28}{'A - B':<28}A deals won [Wilson]"]
    for d in rows:
        lines.append(f"    {d['position']:<34}{ci(d['a_net'], *d['a_net_ci95']):<28}"
                     f"{ci(d['b_net'], *d['b_net_ci95']):<28}{ci(d['a_minus_b'], *d['a_minus_b_ci95']):<28}"
                     f"{pct_ci(d['a_deal_win_rate'], *d['a_deal_win_rate_ci95'])}")
    return lines


def pairings_lines(summary: pd.DataFrame, players: int) -> list[str]:
    """The per-pairing table ``rummy-sim tournament`` / ``sweep`` print for Indian Rummy after their
    own output: each side's net points per deal and deals won per seat (95% CIs), drops, wrong
    declarations and points lost when not winning; and what their "games won" count there."""
    if "a_net" not in summary.columns or summary.empty:
        return []
    seating = summary["seating"].iloc[0]
    lines = ["", f"per seat, Indian Rummy at {players} players, seating {seating} (95% CIs; deals won: Wilson; "
             f"even share 1/{players} = {pct(1 / players)})",
             "  note: above, A>B% and net > B's mean count the plays where a side's net beat "
             "the other side's mean net, not a deal won; the deals a seat won are below"]
    aw = max(3, *(len(str(a)) for a in summary["a"]))
    bw = max(3, *(len(str(b)) for b in summary["b"]))
    lines.append(f"  {'A':<{aw}}  {'B':<{bw}}  {'A net/deal':<27}{'B net/deal':<27}{'A deals won':<24}"
                 f"{'B won':>6}  {'A drops 1st/mid':<16}{'B drops 1st/mid':<16}{'wrong A/B':<14}{'lost not won A/B'}")
    for _, r in summary.iterrows():
        lines.append(
            f"  {str(r['a']):<{aw}}  {str(r['b']):<{bw}}  {ci(r['a_net'], r['a_net_ci_low'], r['a_net_ci_high']):<27}"
            f"{ci(r['b_net'], r['b_net_ci_low'], r['b_net_ci_high']):<27}"
            f"{pct_ci(r['a_deal_win_rate'], r['a_deal_win_rate_ci_low'], r['a_deal_win_rate_ci_high']):<24}"
            f"{pct(r['b_deal_win_rate']):>6}  {pct(r['a_first_drop_rate']) + '/' + pct(r['a_middle_drop_rate']):<16}"
            f"{pct(r['b_first_drop_rate']) + '/' + pct(r['b_middle_drop_rate']):<16}"
            f"{pct(r['a_wrong_declaration_rate']) + '/' + pct(r['b_wrong_declaration_rate']):<14}"
            f"{num(r['a_lost_when_losing'], '.1f')} / {num(r['b_lost_when_losing'], '.1f')}")
    return lines
