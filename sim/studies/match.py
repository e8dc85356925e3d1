"""A duplicate match: team A against team B on the same deals (RULES.md P2, P9).

Every deal index is played with each team in both seat pairs; when a team's partners
play different strategies, in the four rotations of docs/results.md. The unit of
analysis is the deal set (one deal index, all its rotations): its A - B difference
is the mean over the rotations. Both teams meet the same cards; how much of the card luck that
removes is measured (``variance_reduction``, often only 1.02-1.05x for different strategies).

    result = play_match("greedy", "random", deals=100_000, seed=7)
    print(format_summary(result))
    result.plays, result.sets, result.games     # DataFrames (docs/results.md)
    result.summary                              # JSON-ready dict
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from sim import experiment as X
from sim.core.fmt import format_p, json_ready, num, pct
from sim.core.intervals import ci, ci_text
from sim.runner.results import ExperimentResult
from sim.runner.run import run_experiment
from sim.studies.by_players import COMPLETE, play_by_players, run_of
from sim.studies.by_players import parse_players  # noqa: F401  (its old home: sim.studies.match.parse_players)


@dataclass
class MatchResult:
    """A finished (or interrupted) match: the run's result and its JSON summary."""

    run: ExperimentResult

    @property
    def a(self) -> str:
        return str(self.run.experiment.teams[0])

    @property
    def b(self) -> str:
        return str(self.run.experiment.teams[1])

    @property
    def seed(self) -> int:
        return self.run.experiment.seed

    @property
    def plays(self) -> pd.DataFrame:
        return self.run._need_plays()

    @property
    def sets(self) -> pd.DataFrame:
        return self.run.sets

    @property
    def games(self) -> pd.DataFrame:
        return self.run.games

    @property
    def row(self) -> pd.Series:
        """The summary frame's single row."""
        return self.run.summary.iloc[0]

    @property
    def summary(self) -> dict:
        return match_summary(self.run)


def experiment_options(rules=None, chunk: int = 0, sprt: float | X.SprtSpec | None = None, margin: float = 1.0,
                       first_deal: int = 0, game: str | None = None, players: int | None = None,
                       seating: str | None = None) -> dict:
    """Keyword arguments for the sim.experiment constructors (``game``: a registered game's
    name, default Persian Rummy; ``rules``: its rule options or a mapping of them; ``seating``:
    one of the game's named seatings, e.g. Indian Rummy's ``field`` or ``half``)."""
    if sprt is not None and not isinstance(sprt, X.SprtSpec):
        sprt = X.SprtSpec(float(sprt))
    opts = {"chunk": chunk, "sprt": sprt, "margin": margin, "first_deal": first_deal, "rules": rules}
    if game is not None:
        opts["game"] = game
    if players is not None:
        opts["players"] = players
    if seating:
        opts["seating_mode"] = seating
    return opts


def play_match(a, b, deals: int, seed: int = 0, rules=None, threads: int | None = None, *,
               chunk: int = 0, sprt=None, margin: float = 1.0, first_deal: int = 0,
               keep_plays: bool = True, game: str | None = None, players: int | None = None,
               seating: str | None = None, **run_options) -> MatchResult:
    """Team ``a`` (SPEC or SPEC+SPEC) against team ``b`` on deals ``first_deal ..``.

    ``seating``: the game's named seating (Indian Rummy: ``"field"``, the default, or ``"half"``).
    ``run_options`` go to sim.runner.run_experiment (out, resume, force, progress, on_chunk).
    Keep ``keep_plays`` for small runs; for millions of deals pass ``out`` instead.
    """
    exp = X.match(a, b, deals, seed, **experiment_options(rules, chunk, sprt, margin, first_deal, game, players,
                                                          seating))
    return MatchResult(run_experiment(exp, threads=threads, keep_plays=keep_plays, **run_options))


def play_match_by_players(a, b, players, deals: int, seed: int = 0, *, out: str | None = None,
                          **options) -> list[MatchResult]:
    """The match of :func:`play_match` once per table size in ``players`` (e.g. ``(2, 4, 6)``), each
    on the same seed and deal indices (a deal's cards depend on the table size too, I1/I2), in the
    order given. ``out``, if given, must contain ``{players}`` (one results file per size).
    :func:`by_players_table` puts them side by side."""
    return play_by_players(lambda n, o: play_match(a, b, deals, seed, players=n, out=o, **options), players, out,
                           "m-{players}p.parquet")


def match_summary(run: ExperimentResult) -> dict:
    """The JSON object of ``rummy-sim match --json`` (strict JSON: NaN/inf become null)."""
    exp = run.experiment
    r = run.summary.iloc[0]
    out = {
        "a": str(r["a"]), "b": str(r["b"]), "seed": exp.seed, "deals": exp.deals,
        "first_deal": exp.first_deal, "deal_sets": int(r["deal_sets"]), "rotations": int(r["rotations"]),
        "plays": int(r["plays"]),
        "mean_diff": r["mean_diff"], "ci95": [r["ci_low"], r["ci_high"]], "se": r["se"], "sd": r["sd"],
        "p_value": r["p_value"], "effect_size": r["effect_size"],
        "variance_reduction": r["variance_reduction"],
        "unpaired_ci95": [r["unpaired_ci_low"], r["unpaired_ci_high"]],
        "a_mean_score": r["a_mean"], "b_mean_score": r["b_mean"],
        "games": int(r["games"]), "game_win_rate": r["game_win_rate"],
        "game_win_rate_ci95": [r["game_win_rate_ci_low"], r["game_win_rate_ci_high"]],
        "win_rate": r["win_rate"], "win_rate_ci95": [r["win_rate_ci_low"], r["win_rate_ci_high"]],
        "tie_rate": r["tie_rate"], "tie_rate_ci95": [r["tie_rate_ci_low"], r["tie_rate_ci_high"]],
        "loss_rate": r["loss_rate"], "loss_rate_ci95": [r["loss_rate_ci_low"], r["loss_rate_ci_high"]],
        "margin": r["margin"], "deals_needed": r["deals_needed"],
        "end_rates": {name: r[f"end_{name}"] for name in exp.game_spec.schema.end_names},
        "capped_deals": int(r["capped"]),
        "stopped_by": run.stopped_by, "sprt": run.sprt,
        "game": exp.game, "players": exp.players,
        "rules": exp.rules.to_dict(), "experiment_hash": exp.digest(),
        "out": None if run.out is None else str(run.out), "seconds": round(run.seconds, 3),
    }
    if isinstance(out["deals_needed"], float) and math.isfinite(out["deals_needed"]):
        out["deals_needed"] = int(out["deals_needed"])
    figures = exp.game_spec.figures_json(r)  # the game's own figures (Indian Rummy: docs/results.md)
    if figures:
        out["seating"] = figures.get("seating", "")
        out[exp.game] = figures
    return json_ready(out)


def won_words(exp) -> tuple[str, str, str]:
    """What the outcome counts of ``exp`` are, in words: (a column head, a phrase, the loss unit).

    Where players sit in teams (Persian Rummy) the counts are games of ``deals_per_game`` deals
    (or deals); where each player is alone (Indian, Gin Rummy) an outcome is a play where A's net
    beat B's mean net, which is neither a game nor, at more than two players, a deal won. At two
    players, one a side (Gin Rummy, Indian Rummy for two), A's net beats B's exactly when A scored
    more than B on the deal: the counts are deals won."""
    sides = exp.game_spec.sides(exp.players)
    if all(len(side) == 1 for side in sides):
        if len(sides) == 2:
            return "deal%", "deals won", "a deal"
        return "A>B%", "net > B's mean", "net < B's mean"
    if exp.rules.deals_per_game > 1:
        return "game%", "games won", "a game"
    return "deal%", "deals won", "a deal"


def format_summary(result: MatchResult | ExperimentResult) -> str:
    """An aligned text table of a match (printed by ``rummy-sim match``)."""
    run = result.run if isinstance(result, MatchResult) else result
    s = match_summary(run)
    dpg = run.experiment.rules.deals_per_game
    vr = s["variance_reduction"]
    uci = s["unpaired_ci95"]
    head = (f"{s['a']} (A) vs {s['b']} (B), seed {s['seed']}: {s['deal_sets']:,} deal sets x "
            f"{s['rotations']} rotations = {s['plays']:,} plays")
    if run.stopped_by == "interrupt":
        head += f"  [INTERRUPTED: {s['deal_sets']:,} of {s['deals']:,} deals]"
    ci = s["ci95"]
    game = run.experiment.game_spec
    figures = game.figures_lines(run.summary.iloc[0], run.experiment.players)
    rate_label = "game win rate (tie = 1/2)"
    if figures:  # players each alone: these "games" are plays where A's net beat B's mean net (not deals won)
        won_label, rate_label = "plays A's net > B's mean", "same, a tie counted 1/2"
        head = head.replace(": ", f", {s['players']} players, seating {s['seating']}: ", 1)
    else:
        won_label = f"games ({dpg} deals) won by A" if dpg > 1 else "deals won by A"
    lines = [
        head,
        f"  A - B points per deal      {num(s['mean_diff'], '+.2f'):>10}   95% CI "
        f"{ci_text(ci[0], ci[1])}   {format_p(s['p_value'])}",
        f"  mean score A / B           {num(s['a_mean_score'], '.1f'):>10} / {num(s['b_mean_score'], '.1f')}",
        f"  effect size (d)            {num(s['effect_size'], '+.3f'):>10}",
        f"  {won_label:<27}{pct(s['win_rate']):>10}   95% CI [{pct(s['win_rate_ci95'][0])}, "
        f"{pct(s['win_rate_ci95'][1])}]   tied {pct(s['tie_rate'])}, lost {pct(s['loss_rate'])} "
        f"of {s['games']:,}",
        f"  {rate_label:<27}{num(s['game_win_rate'], '.3f'):>10}   95% CI "
        f"{ci_text(*s['game_win_rate_ci95'], '.3f')}",
        f"  variance reduction         {(num(vr, '.2f') + 'x') if vr is not None else 'n/a':>10}   "
        f"(measured: duplicate deal sets vs independent plays; unpaired CI {ci_text(*uci)})",
        f"  deal sets to detect {s['margin']:<4g}pt {num(s['deals_needed'], ',d') if s['deals_needed'] else 'n/a':>10}"
        f"   (80% power, two-sided 5%, at the observed sd {num(s['sd'], '.1f')})",
        "  ends                       " + "".join(f"{name} {pct(rate)}, " for name, rate in s["end_rates"].items()
                                                 if name != "cap") + f"cap {s['capped_deals']:,} plays",
        *figures,
    ]
    if s["sprt"]:
        sp = s["sprt"]
        lines.append(f"  SPRT H0: 0 vs H1: {sp['delta']:+g} pts   {sp['decision']} after {sp['deal_sets']:,} deal sets "
                     f"(llr {num(sp['llr'], '.2f')}, bounds {sp['lower']:.2f} / {sp['upper']:.2f})")
        if run.stopped_by == "sprt":
            lines.append("  note: the run stopped early on the SPRT's decision; the CI and p-value above are "
                         "fixed-sample statistics that do not account for the early stop (they are somewhat "
                         "optimistic); the SPRT's own error rates are the guarantee")
    return "\n".join(lines)


# --- one match per table size ---------------------------------------------------------------------

_BY_PLAYERS = (("players", "players"), ("seating", "seating"), ("deal_sets", "deal_sets"), ("plays", "plays"),
               ("mean_diff", "a_minus_b"), ("ci_low", "a_minus_b_ci_low"), ("ci_high", "a_minus_b_ci_high"))


def by_players_table(results) -> pd.DataFrame:
    """One row per table size of several matches (:func:`play_match_by_players`, or the runs of
    ``rummy-sim match --players 2,4,6``): A - B with its paired CI and, when the game has its own
    figures (Game.size_columns; Indian Rummy), each side's net points per deal, deal win, drop and
    wrong-declaration rates with their intervals and points lost when not winning (columns:
    docs/results.md)."""
    rows = []
    for res in results:
        run = run_of(res)
        r = run.summary.iloc[0]
        game = run.experiment.game_spec
        row = {"players": run.experiment.players, "seating": run.experiment.seating_mode or
               (game.seating_modes or ("",))[0], "a": r["a"], "b": r["b"],
               "deal_sets": int(r["deal_sets"]), "plays": int(r["plays"]), "a_minus_b": r["mean_diff"],
               "a_minus_b_ci_low": r["ci_low"], "a_minus_b_ci_high": r["ci_high"], "p_value": r["p_value"]}
        row.update({c: r[c] for c in game.size_columns(list(run.summary.columns), "match")})
        row.update({c: r[c] for c in run.summary.columns if c.startswith("end_")})
        row["capped"] = int(r["capped"])
        row["stopped_by"] = run.stopped_by
        rows.append(row)
    return pd.DataFrame(rows)


def by_players_json(results) -> dict:
    """``rummy-sim match --players 2,4,6 --json``: every size's match object (as for one size) in
    ``matches``, in the order played, and the sizes in ``players``."""
    runs = [run_of(res) for res in results]
    first = runs[0].experiment
    return json_ready({"kind": "match_by_players", "a": str(first.teams[0]), "b": str(first.teams[1]),
                       "game": first.game, "players": [r.experiment.players for r in runs],
                       "matches": [match_summary(r) for r in runs]})


def format_by_players(results) -> str:
    """The table ``rummy-sim match --players 2,4,6`` prints after the matches: a row per table size."""
    t = by_players_table(results)
    if t.empty:
        return ""
    first = t.iloc[0]
    lines = [f"{first['a']} (A) vs {first['b']} (B) by table size (95% CIs; per seat of each side)"]
    game = run_of(results[0]).experiment.game_spec
    extra = game.size_head(list(t.columns))  # the game's own columns (Indian Rummy: per seat of each side)
    head = f"  {'players':>7}  {'seating':<7}  {'deal sets':>10}  {'A - B pts/deal':<28}" + extra
    ends = [c for c in t.columns if c.startswith("end_") and c != "end_cap"]
    head += "ends " + "/".join(c[4:] for c in ends) + " (cap: plays)"
    lines.append(head)
    for r in t.itertuples():
        line = (f"  {r.players:>7}  {r.seating:<7}  {r.deal_sets:>10,}  "
                f"{ci(r.a_minus_b, r.a_minus_b_ci_low, r.a_minus_b_ci_high):<28}")
        if extra:
            line += game.size_cell(r)
        line += "/".join(pct(getattr(r, c)) for c in ends) + f" ({r.capped:,})"
        if r.stopped_by not in COMPLETE:
            line += "  [interrupted]"
        lines.append(line.rstrip())
    return "\n".join(lines)

