"""Indian Rummy's columns in the tables by table size (``--players 2,4,6``): which summary
columns a by-size row carries (each side's net points per deal, deal win, drop and
wrong-declaration rates with their intervals, points lost when not winning; for a sweep only
the net points) and how ``rummy-sim match`` prints them (sim.studies.by_players)."""

from __future__ import annotations

from typing import Sequence

from sim.core.fmt import num, pct
from sim.core.intervals import ci, pct_ci_text

NET = [f"{side}_net{suffix}" for side in ("a", "b") for suffix in ("", "_ci_low", "_ci_high")]


def size_columns(columns: Sequence[str], kind: str) -> list[str]:
    """The summary columns (figures.summary_columns) a by-size row of ``kind`` keeps, in order."""
    if kind == "match":
        return [c for c in columns if c.startswith(("a_", "b_", "even_")) and c not in ("a_mean", "b_mean")]
    if kind == "sweep":
        return [c for c in NET if c in columns]
    return []


def size_head(columns: Sequence[str]) -> str:
    """The header of :func:`size_cell` when the by-size table has the figures ("" when not kept)."""
    if "a_net" not in columns:
        return ""
    return (f"{'A net/deal':<28}{'B net/deal':<28}{'A deals won':<24}{'B won':>6} {'1/N':>6}  "
            f"{'A drops 1st/mid':<16}{'B drops 1st/mid':<16}{'A wrong':>8}  {'A/B lost not won':<18}")


def size_cell(r) -> str:
    """A match's row by size (a namedtuple of sim.studies.match.by_players_table), under :func:`size_head`."""
    return (f"{ci(r.a_net, r.a_net_ci_low, r.a_net_ci_high):<28}"
            f"{ci(r.b_net, r.b_net_ci_low, r.b_net_ci_high):<28}"
            f"{pct(r.a_deal_win_rate) + ' ' + pct_ci_text(r.a_deal_win_rate_ci_low, r.a_deal_win_rate_ci_high):<24}"
            f"{pct(r.b_deal_win_rate):>6} {pct(r.even_win_rate):>6}  "
            f"{pct(r.a_first_drop_rate) + '/' + pct(r.a_middle_drop_rate):<16}"
            f"{pct(r.b_first_drop_rate) + '/' + pct(r.b_middle_drop_rate):<16}"
            f"{pct(r.a_wrong_declaration_rate):>8}  "
            f"{num(r.a_lost_when_losing, '.1f') + ' / ' + num(r.b_lost_when_losing, '.1f'):<18}")
