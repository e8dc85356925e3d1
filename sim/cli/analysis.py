"""``rummy-sim analyze`` (one decision of a deal log) and ``rummy-sim audit`` (a strategy's decisions)."""

from __future__ import annotations

import argparse
import inspect
import json
import shlex
import sys
from pathlib import Path

from sim.cli.common import PROG, CliError, add_strategy_arguments, load_strategy_files, positive


def _game_name(args, log_game: str | None = None) -> str:
    from sim.plugin.registry import DEFAULT_GAME, get_game

    name = args.game or log_game or DEFAULT_GAME
    get_game(name)  # unknown names: a clear error
    return name


POSITION_FLAGS = ("position", "hand", "pile", "stock", "hand_sizes", "target", "table", "taken", "seat", "dealer",
                  "cut", "players", "decks", "pickups", "dropped")


def _own_position(args) -> bool:
    """Does the command describe the player's own position (a file or flags) rather than a logged deal?"""
    return any(getattr(args, f, None) is not None for f in POSITION_FLAGS)


def _position_format(game: str):
    """The game's reader of a player's own position (its position_file module)."""
    from sim.plugin.registry import get_game

    fmt = get_game(game).position_format()
    if fmt is None:
        raise CliError(f"the {game} game reads no position (--position, --hand ...) yet")
    return fmt


def _own_decision(args, fmt):
    """The decision of the player's own position: the file's fields, then the flags over them."""
    from sim.apps.positions import read_position_file

    fields = read_position_file(args.position) if args.position else {}
    fields.update(fmt.fields_from_args(args))
    return fmt.decision_from_fields(fields)


def _support(game: str):
    """The game's decision analysis (sim.plugin.game.Decisions); CliError for a game without it."""
    from sim.plugin.registry import get_game

    support = get_game(game).decisions
    if support is None:
        raise CliError(f"--game {game}: decision analysis is not built for this game")
    return support


def _check_policies(game, args) -> None:
    """--policy and --infer name strategies of the game, and the game's analysis reads opponents
    when --infer is given (one clear line otherwise)."""
    game.parse_spec(args.policy)
    if args.infer is not None:
        if "infer" not in inspect.signature(game.decisions.analyze).parameters:
            raise CliError(f"--infer: reading the opponents is not built for --game {game.name} yet")
        try:
            game.parse_spec(args.infer)
        except ValueError as e:
            raise CliError(f"--infer: {e}") from None


def cmd_analyze(args: argparse.Namespace) -> int:
    """``rummy-sim analyze``: a decision from a deal log or from a position the user gives."""
    load_strategy_files(args)
    positive(args.samples, "--samples")
    options = dict(samples=args.samples, policy=args.policy, seed=args.seed, horizon=args.horizon,
                   batch=args.batch, alpha=args.alpha, racing=not args.no_race, top=args.top, threads=args.threads)
    if args.infer is not None:
        options.update(infer=args.infer, tremble=args.tremble, ess_floor=args.ess_floor)
        options.update(infer_method=args.infer_method, chains=(args.infer_chains, args.infer_burn, args.infer_thin))
    a, source = _analyze_position(args, options) if _own_position(args) else _analyze_log(args, options)
    if args.chart:
        from sim.present import charts

        charts.save(a.figure(), args.chart)
    if args.json:
        print(json.dumps(a.to_json(), indent=1))
        return 0
    _print_analysis(a, source)
    return 0


def _analyze_position(args: argparse.Namespace, options: dict) -> tuple[object, str]:
    """The analysis of a position from ``--position FILE`` or the shorthand flags."""
    from sim.plugin.registry import get_game

    if args.file is not None or args.deal is not None:
        raise CliError("give either a deal log (LOG.jsonl --deal K --turn T) or a position (--position FILE "
                       "or --hand ...), not both")
    game = _game_name(args)
    fmt = _position_format(game)
    dec = _own_decision(args, fmt)
    support = get_game(game).decisions
    if support is None:  # the position is read and checked; say what it is, then why no analysis
        print(fmt.describe(dec), end="")
        raise CliError(f"--game {game}: decision analysis is not built for this game: "
                       "`rummy-sim position` prints the position only")
    _check_policies(get_game(game), args)
    return support.analyze(dec, **options), args.position or "command-line position"


def _analyze_log(args: argparse.Namespace, options: dict) -> tuple[object, Path]:
    """The analysis of a decision in a deal log (LOG --deal K --turn T [--decision D])."""
    from sim.plugin.logfile import read_deal
    from sim.plugin.registry import get_game

    if args.file is None:
        raise CliError("analyze needs a deal log (LOG.jsonl --deal K --turn T) or a position (--position FILE "
                       "or --hand ... --pile ...)")
    path = Path(args.file)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    if args.deal is None or args.turn is None:
        raise CliError("a deal log needs --deal K and --turn T")
    log = read_deal(path, args.deal)
    game = _game_name(args, log.get("game"))
    if log.get("game") != game:
        raise CliError(f"{path}, deal {args.deal}: a {log.get('game')!r} deal, not a {game!r} one")
    support = _support(game)
    _check_policies(get_game(game), args)  # an unknown policy is named before any work
    decision = args.decision or "draw"
    if decision not in support.decisions:
        raise CliError(f"--decision must be one of {', '.join(support.decisions)}, got {decision!r}")
    return support.analyze_log(path, args.deal, args.turn, decision, args.index, **options), path


def _print_analysis(a, source) -> None:
    """The analysis as text: the situation, the table, what it assumed and what it cost."""
    s = a.situation
    print(f"{source}: {s['title']}")
    print(f"  hand {' '.join(s['hand'])} | pile (top first) {' '.join(s['pile_top_first']) or '-'} | "
          f"stock {s['stock']} | hand sizes {s['hand_sizes']}" + (f" | target {s['target']}" if s['target'] else ""))
    print(a.text())
    asm = a.assumptions
    print(f"policy {asm['policy']} in every seat; {asm['worlds']} worlds (max {asm['max_worlds']}); horizon "
          f"{asm['horizon']}; race: {asm['race']}" + ("; stopped early" if a.stopped_early else ""))
    print(f"sampler: {asm['sampler']}")
    done = "worlds drawn" if asm.get("inference", {}).get("method") == "mcmc" else "weights computed"
    print(f"answers rest on: {asm['worlds_are']}" + (f" ({done} in {asm['inference']['seconds']:.2f} s)"
                                                    if "inference" in asm else ""))
    print(f"analysed in {a.seconds:.2f} s ({a.extra['decisions_per_second']:.2f} decisions/s, "
          f"{int(a.frame['samples'].sum())} play-outs)")


def cmd_position(args: argparse.Namespace) -> int:
    if not _own_position(args):
        raise CliError("position needs --position FILE or the position's flags (--hand ... --pile ...)")
    fmt = _position_format(_game_name(args))
    print(fmt.describe(_own_decision(args, fmt)), end="")
    return 0


def add_position_arguments(p: argparse.ArgumentParser) -> None:
    """The flags of a player's own position (docs/decisions.md, "Your own position")."""
    g = p.add_argument_group("your own position (instead of a deal log; docs/decisions.md)")
    g.add_argument("--position", default=None, metavar="FILE", help="a position file (.toml or .json); the "
                   "flags below override its fields")
    g.add_argument("--hand", default=None, metavar="CARDS", help='the deciding hand, e.g. "JK 7C 9C TC 5H KS"')
    g.add_argument("--pile", default=None, metavar="CARDS", help="the discard pile, top first (default empty)")
    g.add_argument("--stock", default=None, metavar="N", help="cards in the stock (default: what is left)")
    g.add_argument("--hand-sizes", default=None, metavar="N,N,..",
                   help="every hand's size from the deciding seat on, in turn order")
    g.add_argument("--target", default=None, metavar="CARD", help="with --decision play: the pile card "
                   "taken this turn that must still go on the table")
    g.add_argument("--table", default=None, metavar="'SEAT: CARDS; ...'", help="the melds on the table and "
                   "the seat that made each")
    g.add_argument("--taken", default=None, metavar="'SEAT: CARDS; ...'", help="the cards each seat took "
                   "from the pile")
    g.add_argument("--seat", default=None, metavar="S", help="the deciding seat (default 1)")
    g.add_argument("--dealer", default=None, metavar="S", help="the dealer (default the seat before --seat)")
    g.add_argument("--cut", default=None, metavar="CARD", help="Indian Rummy: the cut joker (I2)")
    g.add_argument("--players", default=None, metavar="N", help="Indian Rummy: seats at the table (default 4)")
    g.add_argument("--decks", default=None, metavar="N", help="Indian Rummy: decks in the shoe (default by "
                   "the player count, I1)")
    g.add_argument("--pickups", default=None, metavar="'SEAT: CARDS; ...'", help="Indian Rummy: the pile "
                   "cards each seat took and still holds (I9)")
    g.add_argument("--dropped", default=None, metavar="'SEAT: HOW; ...'", help="Indian Rummy: the seats out "
                   "of the deal, HOW first_drop, middle_drop or wrong_declaration")


def cmd_audit(args: argparse.Namespace) -> int:
    from sim.plugin.registry import get_game

    load_strategy_files(args)
    game = _game_name(args)
    support = _support(game)

    for spec in (args.strategy, args.vs, args.policy):
        if spec is not None:
            get_game(game).parse_spec(spec)
    if args.decision not in support.audit_kinds:
        raise CliError(f"--decision must be one of {', '.join(support.audit_kinds)}, got {args.decision!r}")
    for value, name in ((args.deals, "--deals"), (args.sample, "--sample"), (args.samples, "--samples")):
        positive(value, name)
    bar = None
    if not args.json and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=0, unit="decision", file=sys.stderr)

    def progress(done, total):
        if bar is not None:
            bar.total = total
            bar.n = done
            bar.refresh()

    a = support.audit(args.strategy, args.decision, args.deals, vs=args.vs, sample=args.sample,
                      samples=args.samples, policy=args.policy, seed=args.seed, threads=args.threads,
                      progress=progress)
    if bar is not None:
        bar.close()
    a.setup["command"] = audit_command(args)
    files = support.write_report(a, args.out) if args.out else []
    if args.json:
        print(json.dumps({"setup": a.setup, "summary": a.summary(), "found": a.found,
                          "decisions": json.loads(a.frame.to_json(orient="records"))}, indent=1, default=float))
        return 0
    s = a.summary()
    print(f"audit of {args.strategy} ({args.decision}): {a.found} decisions found in {args.deals} deals, "
          f"{s['decisions']} analysed with {args.samples} worlds each, {a.seconds:.1f} s")
    if s["decisions"]:
        print(f"  chose the best: {s['chose_best']:.0%} (95% CI {s['chose_best_ci95'][0]:.0%}-"
              f"{s['chose_best_ci95'][1]:.0%}); points lost per decision {s['mean_loss']:.2f} "
              f"(95% CI {s['mean_loss_ci95'][0]:.2f} to {s['mean_loss_ci95'][1]:.2f}); significantly worse: "
              f"{s['significantly_worse']:.0%}")
        for feat in support.audit_features.get(args.decision, []):
            t = support.summarize(a.frame, feat)
            print(f"  by {feat}:")
            for _, r in t.iterrows():
                print(f"    {r[feat]:>22}: n={int(r['decisions']):>3}  best {r['chose_best']:4.0%}  "
                      f"lost {r['mean_loss']:6.2f} [{r['loss_low']:6.2f}, {r['loss_high']:6.2f}]")
    for f in files:
        print(f"  wrote {f}")
    return 0


def audit_command(args: argparse.Namespace) -> str:
    """The ``rummy-sim audit`` command line that repeats this audit (its report states it)."""
    words = [PROG, "audit", args.strategy, "--decision", args.decision, "--deals", str(args.deals)]
    for flag, value in (("--vs", args.vs), ("--sample", args.sample), ("--samples", args.samples),
                        ("--policy", args.policy), ("--seed", args.seed), ("--game", args.game),
                        ("--out", args.out)):
        if value is not None:
            words += [flag, str(value)]
    for path in args.load or []:
        words += ["--load", path]
    return shlex.join(words)


def _add_infer_arguments(p: argparse.ArgumentParser) -> None:
    """The options of reading the other seats (``--infer`` and what it takes)."""
    from sim.apps.analysis.weighted import INFER_CHAINS, INFER_METHOD, INFER_METHODS

    p.add_argument("--infer", default=None, metavar="POLICY", help="weight the worlds by how likely POLICY "
                   "makes the other seats' recorded draws and discards (off by default; a deal log only; no race)")
    p.add_argument("--tremble", type=float, default=0.5, metavar="E", help="with --infer: POLICY's chance of "
                   "any legal move at random (default 0.5)")
    p.add_argument("--ess-floor", type=float, default=10.0, metavar="F", help="with --infer: below this "
                   "effective sample size the inference has failed and the analysis stops (default 10)")
    p.add_argument("--infer-method", default=INFER_METHOD, metavar="|".join(INFER_METHODS), help="with --infer: "
                   "importance weights over the uniform worlds (weights), or equal-weight worlds from "
                   f"Metropolis-Hastings chains over the hidden cards (mcmc); default {INFER_METHOD}")
    p.add_argument("--infer-chains", type=int, default=INFER_CHAINS[0], metavar="C",
                   help=f"with --infer-method mcmc: chains (default {INFER_CHAINS[0]})")
    p.add_argument("--infer-burn", type=int, default=INFER_CHAINS[1], metavar="B",
                   help="with --infer-method mcmc: swap steps per chain before it keeps worlds "
                   f"(default {INFER_CHAINS[1]})")
    p.add_argument("--infer-thin", type=int, default=INFER_CHAINS[2], metavar="T",
                   help=f"with --infer-method mcmc: swap steps per kept world (default {INFER_CHAINS[2]})")


def add_commands(sub) -> None:
    p = sub.add_parser("analyze", help="analyse one decision of a deal log: every candidate in the same sampled "
                                       "worlds, paired CIs against the best and the move played",
                       description="Take the deciding seat's view (RULES.md P10) of one decision of a logged "
                                   "deal, sample the hidden cards consistently with it, play every legal "
                                   "candidate in the same worlds and roll out to the end of the deal with "
                                   "--policy in every seat. Turns are numbered as `rummy-sim show` prints them.")
    p.add_argument("file", metavar="LOG.jsonl", nargs="?", default=None,
                   help="a deal log (or give your own position, below)")
    p.add_argument("--deal", type=int, default=None, metavar="K", help="the deal's index (its \"deal\" field)")
    p.add_argument("--turn", type=int, default=None, metavar="T", help="the turn, 1-based (T1, T2 ... in show)")
    p.add_argument("--decision", default=None, metavar="draw|play|discard",
                   help="which decision of the turn (default draw)")
    p.add_argument("--index", type=int, default=0, metavar="I",
                   help="with --decision play: the I-th play decision of the turn (0: the first)")
    p.add_argument("--samples", type=int, default=1000, metavar="N", help="worlds at most (default 1000)")
    p.add_argument("--policy", default="expert", metavar="SPEC",
                   help="rollout policy of every seat (default expert)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the sampled worlds (default 0)")
    p.add_argument("--horizon", default="deal", choices=("deal", "game"),
                   help="roll out to the end of the deal (default) or of the game (later deals fresh)")
    p.add_argument("--top", type=int, default=0, metavar="M",
                   help="keep only the M best candidates after a pilot batch (the move played always kept)")
    p.add_argument("--batch", type=int, default=100, metavar="B", help="worlds per look of the race (default 100)")
    p.add_argument("--alpha", type=float, default=0.05, metavar="A",
                   help="family-wise error of the race's eliminations (default 0.05)")
    p.add_argument("--no-race", action="store_true", help="play every candidate in every world (no early stop)")
    p.add_argument("--threads", type=int, default=None, metavar="T", help="numba threads (default: all)")
    _add_infer_arguments(p)
    p.add_argument("--chart", default=None, metavar="FILE.png", help="write the candidates chart")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    p.add_argument("--game", default=None, metavar="NAME", help="the game (default: the log's)")
    add_strategy_arguments(p)
    add_position_arguments(p)
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("audit", help="play deals and analyse a sample of a strategy's decisions of one kind",
                       description="Play --deals deals, analyse a random sample of the strategy's take, hold or "
                                   "discard decisions (each like `analyze`), and report how often its choice was "
                                   "the best and the points lost, broken down by the situation's features.")
    p.add_argument("strategy", metavar="STRATEGY")
    p.add_argument("--decision", required=True, metavar="take|hold|discard")
    p.add_argument("--deals", type=int, required=True, metavar="N")
    p.add_argument("--vs", default=None, metavar="TEAM",
                   help="the other team (default: the strategy in every seat)")
    p.add_argument("--sample", type=int, default=40, metavar="K", help="decisions analysed (default 40)")
    p.add_argument("--samples", type=int, default=300, metavar="W", help="worlds per decision (default 300)")
    p.add_argument("--policy", default=None, metavar="SPEC", help="rollout policy (default: the strategy)")
    p.add_argument("--seed", type=int, default=0, metavar="S")
    p.add_argument("--threads", type=int, default=None, metavar="T")
    p.add_argument("--out", default=None, metavar="DIR", help="write report.md, CSVs and a chart here")
    p.add_argument("--json", action="store_true")
    p.add_argument("--game", default=None, metavar="NAME", help="the game (default persian)")
    add_strategy_arguments(p)
    p.set_defaults(func=cmd_audit)

    p = sub.add_parser("position", help="print a position (a file or flags) back as the analysis reads it",
                       description="Parse your own position as `analyze` would, check it against the rules, "
                                   "and print it as a position file with its legal moves.")
    p.add_argument("--game", default=None, metavar="NAME", help="the game (default persian)")
    p.add_argument("--decision", default=None, metavar="draw|play|discard", help="the decision (default draw)")
    p.add_argument("--turn", type=int, default=None, metavar="T", help="the turn of the deal, 1-based (default 1)")
    add_position_arguments(p)
    p.set_defaults(func=cmd_position)
