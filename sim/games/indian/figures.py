"""The figures a points-rummy player reads from an Indian Rummy duplicate comparison.

A duplicate pairing seats team A and team B (one strategy each) in the seatings of
sim/games/indian/game.py (``field``: one A seat against a field of B; ``half``: A in
alternate seats). Every play has ``players`` seat-plays, some of them A's and the others
B's. Per pairing and side the run keeps integer sums of its seat-plays (:data:`FIELDS`),
one small array per chunk that merges by addition (exact in any chunk order, and stored
as is in ``--keep summary`` files). From them and the per-deal-set scores the run already
keeps (sim.aggregate.Totals.scores) come, per side:

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

Wilson intervals treat the seat-plays as independent; the plays of one deal set share
cards, and a seat's good cards make A win in one rotation and B in the others (negatively
correlated outcomes), so these intervals are approximate (docs/results.md).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

FIELDS = ("seat_plays", "wins", "first_drops", "middle_drops", "wrong_declarations", "not_won", "lost_not_won",
          "lost_not_won_sq", "gain_won", "gain_won_sq")
"""The integer sums kept per (pairing, side) and chunk, in this order."""

SIDES = ("a", "b")
RATES = ("deal_win_rate", "first_drop_rate", "middle_drop_rate", "wrong_declaration_rate")
_RATE_FIELD = {"deal_win_rate": "wins", "first_drop_rate": "first_drops", "middle_drop_rate": "middle_drops",
               "wrong_declaration_rate": "wrong_declarations"}
_F = {name: k for k, name in enumerate(FIELDS)}


def figure_columns(players: int) -> list[str]:
    """The per-play columns :func:`chunk_sums` reads (besides ``pairing`` and ``rotation``)."""
    return ["winner", *(f"{name}_s{s}" for name in ("lost", "gain", "drop", "wrong_declaration")
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
    """(pairings, 2, len(FIELDS)) int64: the sums of :data:`FIELDS` over the seat-plays of team A
    (``[:, 0]``) and team B (``[:, 1]``) in ``plays`` (per-play rows, docs/results.md)."""
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
    out = np.zeros((len(exp.pairings), 2, len(FIELDS)), dtype=np.int64)
    for p in range(len(exp.pairings)):
        rows = pairing == p
        for side, mask in enumerate((is_a[rows], ~is_a[rows])):
            for k, name in enumerate(FIELDS):
                out[p, side, k] = np.where(mask, values[name][rows], 0).astype(np.int64).sum()
    return out


def _mean_sd(n: int, s: int, sq: int) -> tuple[float, float]:
    if n <= 0:
        return math.nan, math.nan
    mean = s / n
    if n < 2:
        return mean, math.nan
    return mean, math.sqrt(max(sq - n * mean * mean, 0.0) / (n - 1))


def summary_columns(totals, p: int) -> dict:
    """The summary-frame columns of pairing ``p`` from a run's merged statistics
    (sim.aggregate.Totals with its ``figures`` sums); {} when they were not kept."""
    from sim import stats
    from sim.aggregate import interval

    sums = getattr(totals, "figures", None)
    exp = totals.exp
    if sums is None:
        return {}
    k = len(exp.pairings)
    out: dict = {"seating": exp.seating_mode or "field"}
    sc = totals.scores
    for side, idx in zip(SIDES, (p, k + p)):
        if sc is not None and sc.n:
            ci = interval(sc.n, sc.mean[idx], sc.c[idx, idx])
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
            lo, hi = stats.wilson_interval(c, n) if n else (math.nan, math.nan)
            out[f"{side}_{rate}_ci_low"], out[f"{side}_{rate}_ci_high"] = lo, hi
        out[f"{side}_lost_when_losing"], out[f"{side}_lost_when_losing_sd"] = _mean_sd(
            f["not_won"], f["lost_not_won"], f["lost_not_won_sq"])
        out[f"{side}_gain_when_winning"], out[f"{side}_gain_when_winning_sd"] = _mean_sd(
            f["wins"], f["gain_won"], f["gain_won_sq"])
    out["even_win_rate"] = 1.0 / exp.players
    return out


def _ci95(row, key: str) -> list:
    return [row[f"{key}_ci_low"], row[f"{key}_ci_high"]]


def figures_json(row) -> dict:
    """The ``indian`` block of ``rummy-sim match --json`` from a summary row (docs/results.md)."""
    if "a_net" not in row:
        return {}
    out: dict = {"seating": row["seating"], "even_win_rate": row["even_win_rate"],
                 "a_minus_b": row["mean_diff"], "a_minus_b_ci95": [row["ci_low"], row["ci_high"]]}
    for side in SIDES:
        d = {"seat_plays": int(row[f"{side}_seat_plays"]), "net_per_deal": row[f"{side}_net"],
             "net_per_deal_ci95": _ci95(row, f"{side}_net")}
        for rate in RATES:
            d[rate] = row[f"{side}_{rate}"]
            d[f"{rate}_ci95"] = _ci95(row, f"{side}_{rate}")
        for key in ("lost_when_losing", "gain_when_winning"):
            d[key] = row[f"{side}_{key}"]
            d[f"{key}_sd"] = row[f"{side}_{key}_sd"]
        out[side] = d
    return out


def figures_lines(row, players: int) -> list[str]:
    """The lines ``rummy-sim match`` prints for Indian Rummy under the common ones."""
    from sim.fmt import ci, num, pct

    if "a_net" not in row:
        return []

    def rate(side: str, key: str) -> str:
        return f"{pct(row[f'{side}_{key}'])} [{pct(row[f'{side}_{key}_ci_low'])}, {pct(row[f'{side}_{key}_ci_high'])}]"

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
    return lines


def pairings_lines(summary: pd.DataFrame, players: int) -> list[str]:
    """The per-pairing table ``rummy-sim tournament`` / ``sweep`` print for Indian Rummy after their
    own output: each side's net points per deal and deals won per seat (95% CIs), drops, wrong
    declarations and points lost when not winning; and what their "games won" count there."""
    from sim.fmt import ci, num, pct

    if "a_net" not in summary.columns or summary.empty:
        return []
    seating = summary["seating"].iloc[0]
    lines = ["", f"per seat, Indian Rummy at {players} players, seating {seating} (95% CIs; deals won: Wilson; "
             f"even share 1/{players} = {pct(1 / players)})",
             "  note: above, a 'game' won (games won, game%, a deal | a game) is a play where a team's net beat "
             "the other side's mean net, not a deal won; the deals a seat won are below"]
    aw = max(3, *(len(str(a)) for a in summary["a"]))
    bw = max(3, *(len(str(b)) for b in summary["b"]))
    lines.append(f"  {'A':<{aw}}  {'B':<{bw}}  {'A net/deal':<27}{'B net/deal':<27}{'A deals won':<24}"
                 f"{'B won':>6}  {'A drops 1st/mid':<16}{'B drops 1st/mid':<16}{'wrong A/B':<14}{'lost not won A/B'}")
    for _, r in summary.iterrows():
        lines.append(
            f"  {str(r['a']):<{aw}}  {str(r['b']):<{bw}}  {ci(r['a_net'], r['a_net_ci_low'], r['a_net_ci_high']):<27}"
            f"{ci(r['b_net'], r['b_net_ci_low'], r['b_net_ci_high']):<27}"
            f"{pct(r['a_deal_win_rate']) + ' [' + pct(r['a_deal_win_rate_ci_low']) + ', ' + pct(r['a_deal_win_rate_ci_high']) + ']':<24}"
            f"{pct(r['b_deal_win_rate']):>6}  {pct(r['a_first_drop_rate']) + '/' + pct(r['a_middle_drop_rate']):<16}"
            f"{pct(r['b_first_drop_rate']) + '/' + pct(r['b_middle_drop_rate']):<16}"
            f"{pct(r['a_wrong_declaration_rate']) + '/' + pct(r['b_wrong_declaration_rate']):<14}"
            f"{num(r['a_lost_when_losing'], '.1f')} / {num(r['b_lost_when_losing'], '.1f')}")
    return lines
