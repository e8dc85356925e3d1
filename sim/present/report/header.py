"""The top of every report: title, what was played, and "How it was made" (the command that
plays the same rows again, seed, deal range, game and players, teams, rules, versions, run time)."""

from __future__ import annotations

import datetime as _dt
import json
import shlex
from dataclasses import dataclass
from pathlib import Path

from sim.experiment import Experiment
from sim.plugin.registry import DEFAULT_GAME
from sim.present.report.document import Doc
from sim.runner.collect import chunk_files
from sim.runner.sums import Collected


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
    args += _game_options(exp)
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


def results_name(path: Path) -> str:
    """The results file a report reads, as the run's ``--out`` names it (an unfinished run's
    ``F.parquet.parts`` folder is the run of ``F.parquet``)."""
    name = path.name
    return name[: -len(".parts")] if name.endswith(".parquet.parts") else name


def _given_out(command: str) -> str | None:
    """The ``--out`` of a command given with ``--command`` (the report then reads that file)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    for i, w in enumerate(words):
        if w == "--out" and i + 1 < len(words):
            return words[i + 1]
        if w.startswith("--out="):
            return w[len("--out="):]
    return None


def _game_options(exp: Experiment) -> list[str]:
    """``--game`` and ``--players`` when they differ from the defaults."""
    game = exp.game_spec
    args = [] if game.name == DEFAULT_GAME else ["--game", game.name]
    if exp.players != game.default_players:
        args += ["--players", str(exp.players)]
    if exp.seating_mode:
        args += ["--seating", exp.seating_mode]
    return args


def elapsed_guess(path: Path, meta: dict) -> float | None:
    """Seconds from the run's ``created`` stamp to the file's last write (the run's wall time, roughly)."""
    try:
        created = _dt.datetime.fromisoformat(meta["created"]).timestamp()
        target = path if path.is_file() else max(chunk_files(path), key=lambda f: f.stat().st_mtime)
        return max(target.stat().st_mtime - created, 0.0)
    except (KeyError, ValueError, OSError):
        return None


def run_time_of(path: Path, meta: dict, elapsed: float | None = None) -> tuple[float | None, str]:
    """The run time a report states and how it was known: ``--elapsed`` as given; else the
    seconds the runner measured over every session of the run (a run resumed after Ctrl-C
    counts its earlier sessions too, not the pause between them); else, for files written
    before the runner noted it, from the file's creation stamp to its last write."""
    if elapsed is not None:
        return elapsed, "measured"
    if meta.get("run_seconds") is not None:
        sessions = int(meta.get("sessions", 1))
        return float(meta["run_seconds"]), "measured by the runner" + (
            f", the sum of its {sessions} sessions (resumed with --resume)" if sessions > 1 else "")
    return elapsed_guess(path, meta), "from the file's creation stamp to its last write"


def title(exp: Experiment, given: str | None = None) -> str:
    labels = exp.team_labels()
    return given or {"match": f"{labels[0]} vs {labels[1]}", "tournament": f"Round robin of {len(labels)} teams",
                     "sweep": f"Sweep of {', '.join(k for k, _ in exp.vary)}"}[exp.kind]


@dataclass
class Header:
    """What the header states that the rest of the report (summary.json) repeats."""

    title: str
    command: str
    run_time: float | None


def render_header(doc: Doc, col: Collected, out: Path, *, title_text: str | None = None, command: str | None = None,
                  elapsed: float | None = None, machine: str | None = None, notes: str | None = None) -> Header:
    """The title, the opening paragraph and "How it was made"."""
    exp, meta, summary = col.exp, col.meta, col.summary
    heading = title(exp, title_text)
    doc.h(1, f"Report: {heading}")
    doc.p(f"A {exp.kind} on duplicate deals (docs/results.md), {col.deals:,} deal indices"
          f" x {len(exp.pairings)} pairing(s), {int(summary['plays'].sum()):,} plays. All intervals are 95%;"
          f" differences are paired over deal sets (each deal index played in every rotation with the same cards).")
    doc.h(2, "How it was made")
    results = results_name(col.path)
    cmd = command or reproduce_command(exp, out=results)
    doc.code(cmd + f"\nrummy-sim report {shlex.quote(_given_out(cmd) or results)} --out {out.as_posix()}")
    run_time, how = run_time_of(col.path, meta, elapsed)
    items = _made_items(col)
    if run_time is not None:
        items.append(f"run time: **{run_time:,.0f} s** ({how})" + (f" on {machine}" if machine else ""))
    items.append(f"report: read and reduced {col.deals:,} deals in {col.read_seconds:.1f} s")
    doc.bullets(items)
    if notes:
        doc.p(notes)
    return Header(heading, cmd, run_time)


def _made_items(col: Collected) -> list[str]:
    exp, meta = col.exp, col.meta
    game = exp.game_spec
    sides = game.sides(exp.players)
    if all(len(side) == 1 for side in sides):
        seating = "each alone"
        if game.seating_modes:
            mode = exp.seating_mode or game.seating_modes[0]
            seating += f", seating **{mode}** ({game.describe_seating(exp.seating_mode)})"
    else:
        seats = "; ".join("+".join(str(s) for s in side) for side in sides)
        seating = f"{len(sides)} {game.schema.side_word}s (seats {seats})"
    vers = meta.get("versions", {})
    return [
        f"game: **{game.title}** (`{game.name}`, {game.rules_ref}), {exp.players} players, {seating}",
        f"seed: **{exp.seed}** (a deal's cards depend only on seed and deal index)",
        f"deal range: [{meta['deal_range'][0]:,}, {meta['deal_range'][1]:,}) - deals played {col.deals:,}"
        f" ({meta.get('stopped_by', 'deals')})",
        f"teams: {', '.join(f'`{t}`' for t in exp.team_labels())}; strategy specs: "
        f"{', '.join(f'`{s}`' for s in meta.get('strategy_specs', []))}",
        f"rules: `{json.dumps(meta.get('rules', exp.rules.to_dict()), sort_keys=True)}`",
        f"rotations per deal: {', '.join(str(exp.rotations(p)) for p in range(len(exp.pairings)))}",
        f"experiment hash: `{meta.get('experiment_hash')}`, created {meta.get('created')}",
        "versions: " + ", ".join(f"{k} {v}" for k, v in vers.items()),
    ]


__all__ = ["reproduce_command", "results_name", "run_time_of", "elapsed_guess", "render_header", "Header", "title"]
