"""``rummy-sim match | tournament | sweep | run | report``: duplicate experiments and their reports."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sim.cli.common import (PROG, CliError, add_game_arguments, add_strategy_arguments, game_of, load_strategy_files,
                             parse_rules, positive)


def _run_options(args: argparse.Namespace) -> dict:
    """Checked options common to the experiment commands."""
    if args.threads is not None and args.threads < 1:
        raise CliError(f"--threads must be a positive integer, got {args.threads}")
    if getattr(args, "deals", None) is not None:
        positive(args.deals, "--deals")
    if getattr(args, "chunk", None) is not None and args.chunk < 1:
        raise CliError(f"--chunk must be a positive integer, got {args.chunk}")
    if args.resume and args.out is None:
        raise CliError("--resume needs --out FILE.parquet (the run to continue)")
    if args.resume and args.force:
        raise CliError("--resume and --force contradict each other: choose one")
    progress = False if (args.json or args.no_progress) else None
    load_strategy_files(args)
    return {"out": args.out, "threads": args.threads, "resume": args.resume, "force": args.force,
            "progress": progress, "check_strategies": args.check_strategies, **_backend_options(args)}


def _backend_options(args: argparse.Namespace) -> dict:
    """--backend, --scheduler, --workers, --keep, --shard (issue 11); unset ones left out, so an
    experiment file's values apply."""
    if args.workers is not None and args.workers < 1:
        raise CliError(f"--workers must be a positive integer, got {args.workers}")
    given = {"backend": args.backend, "scheduler": args.scheduler, "workers": args.workers, "keep": args.keep,
             "shard": args.shard}
    return {k: v for k, v in given.items() if v is not None}


def _experiment_options(args: argparse.Namespace) -> dict:
    from sim.plugin.runs import check_seed
    from sim.studies.match import experiment_options

    if args.margin is not None and not args.margin > 0:
        raise CliError(f"--margin must be a positive number of points, got {args.margin}")
    if args.first_deal is not None and args.first_deal < 0:
        raise CliError(f"--first-deal must be a non-negative integer, got {args.first_deal}")
    sprt = None
    if getattr(args, "sprt", None) is not None:
        from sim.experiment import SprtSpec

        sprt = SprtSpec(args.sprt, args.sprt_alpha, args.sprt_beta)
    game = game_of(args)
    return {"seed": check_seed(args.seed), **experiment_options(
        parse_rules(args.rule, game), args.chunk or 0, sprt, args.margin or 1.0, args.first_deal or 0,
        game.name, args.players, getattr(args, "seating", None))}


def _report(run, as_json: bool) -> None:
    """Print the result of any experiment as text or one JSON object."""
    from sim.studies.match import format_summary, match_summary
    from sim.studies.sweep import format_sweep, sweep_json
    from sim.studies.tournament import format_tournament, tournament_json

    kind = run.experiment.kind
    if as_json:
        obj = {"match": match_summary, "tournament": tournament_json, "sweep": sweep_json}[kind](run)
        print(json.dumps(obj, allow_nan=False))
        return
    print({"match": format_summary, "tournament": format_tournament, "sweep": format_sweep}[kind](run))
    if kind != "match":  # a game's own figures per pairing (Indian Rummy: per seat of each side)
        lines = run.experiment.game_spec.pairings_lines(run.summary, run.experiment.players)
        if lines:
            print("\n".join(lines))
    if run.out is not None and run.complete:
        size = Path(run.out).stat().st_size
        print(f"results: {run.out} ({int(run.summary['plays'].sum()):,} plays, {size / 1e6:,.1f} MB, "
              f"{size / max(run.deals_played, 1):,.0f} bytes per deal; schema in docs/results.md)")


def _execute(exp, options: dict, as_json: bool) -> int:
    from sim.runner.results import RunInterrupted
    from sim.runner.run import run_experiment

    try:
        run = run_experiment(exp, **options)
    except RunInterrupted as e:
        _report(e.result, as_json)
        print(f"{PROG}: {e}", file=sys.stderr)
        return 130
    _report(run, as_json)
    return 0


def _study_options(options: dict, what: str) -> dict:
    """The run options a study (adaptive run, rule sweep) takes: --out is a folder of one results
    file per cell (sim.runner.study_dir); --shard splits one experiment, not a study."""
    if options.get("shard"):
        raise CliError(f"{what} plays its experiments together: leave out --shard")
    keys = ("out", "threads", "resume", "force", "progress", "check_strategies", "backend", "scheduler", "workers",
            "keep")
    return {k: options[k] for k in keys if k in options}


def _study_done(res, as_json: bool, to_json, to_text) -> int:
    print(json.dumps(to_json(res), allow_nan=False) if as_json else to_text(res))
    if res.stopped_by == "interrupt":
        print(f"{PROG}: interrupted; the finished chunks are kept, continue with --resume", file=sys.stderr)
        return 130
    return 0


def _adaptive(exp, args: argparse.Namespace, options: dict) -> int:
    """--adaptive: successive elimination with multiple comparisons with the best (sim.studies.adaptive)."""
    from sim.studies.adaptive import adaptive_json, format_adaptive, run_adaptive

    opts = _study_options(options, "--adaptive")
    if not 0 < args.alpha < 0.5:
        raise CliError(f"--alpha must be in (0, 0.5), got {args.alpha}")
    if args.equivalence < 0:
        raise CliError(f"--equivalence must be a non-negative number of points, got {args.equivalence}")
    positive(args.first_look, "--first-look")
    res = run_adaptive(exp, alpha=args.alpha, delta=args.equivalence, first_look=args.first_look, **opts)
    return _study_done(res, args.json, adaptive_json, format_adaptive)


def _add_adaptive_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--adaptive", action="store_true",
                   help="stop playing candidates that are clearly not the best (successive elimination with "
                        "Hsu's MCB, error rate --alpha over all looks); prints the deals saved")
    p.add_argument("--alpha", type=float, default=0.05, metavar="A",
                   help="with --adaptive: chance of ever eliminating the true best (default 0.05)")
    p.add_argument("--equivalence", type=float, default=0.0, metavar="PTS",
                   help="with --adaptive: also stop once every candidate left is within PTS of the best")
    p.add_argument("--first-look", type=int, default=2000, metavar="N",
                   help="with --adaptive: deals at the first look, doubling after (default 2000)")


def _player_sizes(args: argparse.Namespace) -> list:
    """The table sizes of ``--players`` (one or several: 2,4,6 / 2-6 / 2 4 6); [None] without it."""
    from sim.studies.by_players import parse_players

    if args.players is None:
        return [None]
    try:
        return parse_players(",".join(args.players))
    except ValueError as e:
        raise CliError(f"--players: {e}") from None


def cmd_match(args: argparse.Namespace) -> int:
    from sim.experiment import match
    from sim.studies.match import by_players_json, format_by_players

    options = _run_options(args)
    sizes = _player_sizes(args)
    if len(sizes) == 1:
        args.players = sizes[0]
        exp = match(args.a, args.b, args.deals, **_experiment_options(args))
        return _execute(exp, options, args.json)
    return _by_players(args, sizes, options, lambda: match(args.a, args.b, args.deals, **_experiment_options(args)),
                       by_players_json, format_by_players)


def _by_players(args: argparse.Namespace, sizes: list[int], options: dict, build, as_json, as_table) -> int:
    """``match | tournament | sweep --players 2,4,6``: the experiment once per table size (``build()``
    with ``args.players`` set to it; sim.studies.by_players), each printed as for one size, then one
    table by size (``as_table(runs)``); with --json one object, ``as_json(runs)``."""
    from sim.studies.by_players import run_by_players, sized_outs

    try:
        outs = sized_outs(options["out"], sizes, "m-{players}p.parquet", "--out")
    except ValueError as e:
        raise CliError(str(e)) from None
    exps = []
    for n in sizes:  # every experiment is checked before the first deal is played
        args.players = n
        exps.append(build())
    runs, stopped = run_by_players(exps, outs, **{k: v for k, v in options.items() if k != "out"})
    if stopped is not None:
        print(f"{PROG}: {runs[-1].experiment.players} players: {stopped}", file=sys.stderr)
    if args.json:
        print(json.dumps(as_json(runs), allow_nan=False))
    else:
        for run in runs:
            _report(run, False)
            print()
        print(as_table(runs))
    return 130 if stopped is not None else 0


def _one_size_only(args: argparse.Namespace, sizes: list, what: str) -> None:
    if len(sizes) > 1:
        raise CliError(f"{what} plays one table size at a time: give one --players (got {len(sizes)} sizes)")


def cmd_tournament(args: argparse.Namespace) -> int:
    from sim.experiment import tournament
    from sim.studies.tournament import by_players_json, format_by_players

    options = _run_options(args)
    sizes = _player_sizes(args)
    if len(sizes) > 1:
        _one_size_only(args, sizes if args.adaptive else [None], "--adaptive")
        return _by_players(args, sizes, options, lambda: tournament(args.teams, args.deals,
                                                                    **_experiment_options(args)),
                           by_players_json, format_by_players)
    args.players = sizes[0]
    exp = tournament(args.teams, args.deals, **_experiment_options(args))
    if args.adaptive:
        return _adaptive(exp, args, options)
    return _execute(exp, options, args.json)


def cmd_sweep(args: argparse.Namespace) -> int:
    from sim.experiment import parse_vary, sweep
    from sim.studies.sweep import by_players_json, format_by_players

    options = _run_options(args)
    sizes = _player_sizes(args)
    if args.vary_rule:
        _one_size_only(args, sizes, "--vary-rule")
        args.players = sizes[0]
        return _rule_sweep(args, options)
    if not args.vary:
        raise CliError("sweep: give --vary KEY=V1,V2,... (strategy parameters) and/or --vary-rule KEY=V1,V2,...")
    if len(sizes) > 1:
        _one_size_only(args, sizes if args.adaptive else [None], "--adaptive")
        return _by_players(args, sizes, options, lambda: sweep(args.spec, parse_vary(args.vary), args.vs, args.deals,
                                                               **_experiment_options(args)),
                           by_players_json, format_by_players)
    args.players = sizes[0]
    exp = sweep(args.spec, parse_vary(args.vary), args.vs, args.deals, **_experiment_options(args))
    if args.adaptive:
        return _adaptive(exp, args, options)
    return _execute(exp, options, args.json)


def _rule_sweep(args: argparse.Namespace, options: dict) -> int:
    """--vary-rule: one experiment per rule variant, played in lockstep on the same deals (sim.studies.rule_sweep)."""
    from sim.experiment import parse_vary
    from sim.studies.rule_sweep import format_rule_sweep, play_rule_sweep, rule_sweep_json

    if args.adaptive:
        raise CliError("--vary-rule compares every variant on every deal: leave out --adaptive")
    run_opts = _study_options(options, "--vary-rule")
    opts = _experiment_options(args)
    rules = opts.pop("rules")
    res = play_rule_sweep(args.spec, parse_vary(args.vary_rule), args.vs, args.deals, vary=parse_vary(args.vary or []),
                          rules=rules, **run_opts, **opts)
    return _study_done(res, args.json, rule_sweep_json, format_rule_sweep)


def _rule_sweep_run(spec, options: dict, as_json: bool) -> int:
    """``rummy-sim run`` of a TOML sweep with ``vary_rule``."""
    from sim.studies.rule_sweep import format_rule_sweep, play_rule_sweep, rule_sweep_json

    run_opts = _study_options(options, "a rule sweep (sweep.vary_rule)")
    e, rs = spec.experiment, spec.rule_sweep
    res = play_rule_sweep(rs["base"], rs["vary_rule"], rs["vs"], e.deals, e.seed, vary=rs["vary"], rules=rs["rules"],
                          chunk=0, margin=e.margin, first_deal=e.first_deal, game=e.game, players=e.players,
                          **({"seating_mode": e.seating_mode} if e.seating_mode else {}), **run_opts)
    return _study_done(res, as_json, rule_sweep_json, format_rule_sweep)


def cmd_run(args: argparse.Namespace) -> int:
    from sim.experiment import load_toml

    path = Path(args.file)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such experiment file")
    from sim.apps.tune.toml import is_tune_file

    if is_tune_file(path):  # kind = "tune": sim.cli.tune
        from sim.cli.tune import cmd_run_tune

        return cmd_run_tune(args, path)
    options = _run_options(args)
    spec = load_toml(path, deals=args.deals)
    if args.game is not None and args.game != spec.experiment.game:
        raise CliError(f"--game {args.game}: {path} describes a {spec.experiment.game!r} experiment "
                       "(its field 'game'); leave out --game or change the file")
    if options["threads"] is None:
        options["threads"] = spec.threads
    if options["out"] is None:
        options["out"] = spec.out
    for key in ("backend", "scheduler", "workers", "keep"):
        if key not in options and getattr(spec, key) is not None:
            options[key] = getattr(spec, key)
    if options["resume"] and options["out"] is None:
        raise CliError("--resume needs an output: --out FILE.parquet or out = ... in the experiment file")
    if spec.rule_sweep:
        return _rule_sweep_run(spec, options, args.json)
    return _execute(spec.experiment, options, args.json)


def cmd_merge(args: argparse.Namespace) -> int:
    from sim.runner.merge import merge_results

    run = merge_results(args.files, args.out, force=args.force)
    _report(run, args.json)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from sim.present.report import cmd_report as report

    return report(args)


def _add_run_arguments(p: argparse.ArgumentParser, deals_required: bool = True, player_list: bool = False) -> None:
    if deals_required:
        p.add_argument("--deals", type=int, required=True, metavar="N",
                       help="deal indices per pairing (each played in every rotation of the pairing)")
        p.add_argument("--seed", type=int, default=0, metavar="S", help="seed, 0..2**63-1 (default 0)")
        p.add_argument("--rule", action="append", metavar="KEY=VALUE", help="rule option, repeatable (see log)")
        p.add_argument("--chunk", type=int, default=None, metavar="C",
                       help="deal indices per chunk (default: about 200,000 plays per chunk)")
        p.add_argument("--margin", type=float, default=None, metavar="PTS",
                       help="report the deal sets needed to detect this difference (default 1 point)")
        p.add_argument("--first-deal", type=int, default=None, metavar="D",
                       help="first deal index (default 0; a multiple of deals_per_game)")
        add_game_arguments(p, players=not player_list)
        if player_list:
            p.add_argument("--players", nargs="+", default=None, metavar="N",
                           help="players at the table (default: the game's); several, as 2,4,6 or 2-6 (or "
                                "2 4 6 after the strategies), play the experiment once per table size and "
                                "print a table by size")
        p.add_argument("--seating", default=None, metavar="NAME",
                       help="how a pairing is seated, when the game offers several (Indian Rummy: field, the "
                            "default, A alone against a field of B; half, A in alternate seats at 4 or 6 players)")
    else:
        p.add_argument("--deals", type=int, default=None, metavar="N", help="override the file's deals")
        add_game_arguments(p, players=False, default=None)
    p.add_argument("--threads", type=int, default=None, metavar="T", help="numba threads (default: all)")
    p.add_argument("--out", default=None, metavar="FILE.parquet",
                   help="write the per-play results (chunks go to FILE.parquet.parts/ while running); with "
                        "--adaptive or --vary-rule a folder, one results file per pairing or rule variant")
    p.add_argument("--resume", action="store_true", help="continue the interrupted run of --out")
    p.add_argument("--force", action="store_true", help="replace an existing --out (once the new run is done)")
    p.add_argument("--json", action="store_true", help="print one JSON object (no progress bar)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (it shows only on a terminal)")
    p.add_argument("--backend", choices=("local", "dask"), default=None,
                   help="where chunks are played: here (local, default) or on a Dask cluster (docs/distributed.md)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="Dask scheduler, e.g. tcp://host:8786 (default $RUMMY_SIM_SCHEDULER, else a LocalCluster)")
    p.add_argument("--workers", type=int, default=None, metavar="W",
                   help="worker processes of the LocalCluster started without a scheduler (default: cores)")
    p.add_argument("--keep", choices=("plays", "sets", "summary"), default=None,
                   help="what --out keeps: per-play rows (default), per deal-set rows, or only the statistics "
                        "and report histograms of each chunk (megabytes for a billion deals)")
    p.add_argument("--shard", default=None, metavar="I/N",
                   help="play every N-th chunk, starting with the I-th (1 <= I <= N); join with rummy-sim merge")
    add_strategy_arguments(p)


def add_commands(sub) -> None:
    p = sub.add_parser("match", help="a duplicate match of team A against team B, with statistics",
                       description="Team A against team B on duplicate deals: every deal index in each of the "
                                   "game's seatings (Persian Rummy: both seat pairs, and partners swapped when "
                                   "they differ; Indian Rummy: A alone against a field of B in every seat, or "
                                   "--seating half). Prints the mean A - B points per deal with a paired 95% CI, "
                                   "game win rates, effect size, deals needed and the variance reduction of "
                                   "duplication; for Indian Rummy also each side's net points per deal, deals "
                                   "won, drop and wrong-declaration rates and points lost when not winning. "
                                   "Several --players (2,4,6) give one match per table size and a table by size.")
    p.add_argument("a", metavar="A", help="team A: SPEC or SPEC+SPEC")
    p.add_argument("b", metavar="B", help="team B: SPEC or SPEC+SPEC")
    _add_run_arguments(p, player_list=True)
    p.add_argument("--sprt", type=float, default=None, metavar="DELTA",
                   help="sequential test H0: 0 vs H1: DELTA points per deal, checked after each chunk")
    p.add_argument("--sprt-alpha", type=float, default=0.05, metavar="A", help="SPRT type I error (0.05)")
    p.add_argument("--sprt-beta", type=float, default=0.05, metavar="B", help="SPRT type II error (0.05)")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser("tournament", help="round robin of teams: crosstable and ranking with CIs",
                       description="Every pair of teams plays a duplicate match on the same deals. Prints the "
                                   "crosstable (Holm-adjusted) and a ranking by margin over the field with CIs. "
                                   "Several --players (2,4,6) give one tournament per table size and a table of "
                                   "the margins by size.")
    p.add_argument("teams", nargs="+", metavar="TEAM", help="SPEC or SPEC+SPEC (at least 2)")
    _add_run_arguments(p, player_list=True)
    _add_adaptive_arguments(p)
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("sweep", help="a parameter grid of one strategy against a fixed opponent",
                       description="Every combination of the --vary values applied to SPEC, each against --vs, "
                                   "on the same deals. Several --players (2,4,6) give one sweep per table size "
                                   "and a table of the points' A - B by size.")
    p.add_argument("spec", metavar="SPEC", help="the strategy whose parameters vary")
    p.add_argument("--vary", action="append", default=None, metavar="KEY=V1,V2,...",
                   help="parameter values, repeatable (the grid is their product)")
    p.add_argument("--vary-rule", action="append", default=None, metavar="KEY=V1,V2,...",
                   help="rule option values, repeatable: every variant plays the same deals, compared paired "
                        "(e.g. four_of_a_kind_double=true,false)")
    p.add_argument("--vs", required=True, metavar="TEAM", help="the fixed opponent: SPEC or SPEC+SPEC")
    _add_run_arguments(p, player_list=True)
    _add_adaptive_arguments(p)
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("run", help="run an experiment described in a TOML file",
                       description="Run a match, tournament or sweep described in a TOML file "
                                   "(see experiments/example.toml; its field 'game' names the game).")
    p.add_argument("file", metavar="EXPERIMENT.toml")
    _add_run_arguments(p, deals_required=False)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("report", help="write a Markdown + HTML report (figures, tables) of a results file",
                       description="Read a results parquet (or an unfinished run's .parts folder) and write "
                                   "report.md, report.html, PNG figures and CSV tables into --out. The game is "
                                   "read from the results' metadata.")
    p.add_argument("results", metavar="RESULTS.parquet")
    p.add_argument("--out", required=True, metavar="DIR", help="report directory (created if missing)")
    p.add_argument("--title", default=None, help="report title (default: from the experiment)")
    p.add_argument("--command", default=None, help="the command that made the results (default: rebuilt)")
    p.add_argument("--elapsed", type=float, default=None, metavar="SECONDS", help="measured run time to state")
    p.add_argument("--machine", default=None, help="machine the run took --elapsed on, e.g. '2 cores'")
    p.add_argument("--notes", default=None, help="a paragraph added under 'How it was made'")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("merge", help="join the shards of one experiment (--shard I/N) into one results file",
                       description="Check the files are shards of the same experiment (same identity, same "
                                   "--keep), disjoint and together complete, then write one results file equal "
                                   "to the unsharded run's.")
    p.add_argument("files", nargs="+", metavar="SHARD.parquet")
    p.add_argument("--out", required=True, metavar="ALL.parquet")
    p.add_argument("--force", action="store_true", help="replace an existing --out")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_merge)
