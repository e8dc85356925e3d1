"""Joining the shards of one experiment (``--shard I/N``) into one results file.

Shards are runs of the same experiment (same identity: game, teams, seed, rules, chunk size,
code version ...) that each played every N-th chunk, on machines that need not know each
other. :func:`merge_results` checks the files are shards of one experiment with the same
``--keep``, each finished, disjoint and together complete, then writes their chunks in deal
order into one file, with the statistics recomputed chunk by chunk: the rows and every
statistic equal those of the unsharded run.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from sim.core.fmt import json_ready
from sim.runner.aggregate import Totals
from sim.experiment import Experiment, identity_differences
from sim.runner.chunks import stats_of_frame
from sim.runner.files import _Writer, iter_chunk_tables, result_chunks
from sim.runner.keep import summaries_of_table
from sim.runner.metadata import read_metadata
from sim.runner.results import RESULTS_FORMAT, ExperimentResult, RunError, stats_columns


def merge_results(paths: list[str | Path], out: str | Path, force: bool = False) -> ExperimentResult:
    """Merge shard files ``paths`` into ``out`` (see module doc); returns the merged result."""
    t0 = time.perf_counter()
    paths = [Path(p) for p in paths]
    out = Path(out)
    if len(set(map(str, paths))) != len(paths):
        raise RunError("merge: a file is listed twice")
    if out in paths:
        raise RunError(f"merge: --out {out} is one of the inputs")
    if out.exists() and not force:
        raise RunError(f"{out} already exists; pass --force to replace it")
    if not out.parent.is_dir():
        raise RunError(f"directory {out.parent} does not exist")
    metas = []
    for p in paths:
        if not p.is_file():
            raise FileNotFoundError(f"{p}: no such results file")
        meta = read_metadata(p)
        if meta.get("format") != RESULTS_FORMAT:
            raise RunError(f"{p}: unknown results format {meta.get('format')!r}")
        if meta.get("stopped_by", "deals") != "deals":
            raise RunError(f"{p}: an unfinished run (stopped by {meta.get('stopped_by')}); finish it with --resume")
        metas.append(meta)
    exp = Experiment.from_dict(metas[0]["experiment"])
    keep = metas[0].get("keep", "plays")
    if exp.sprt is not None:
        raise RunError("merge: a sequential test (--sprt) cannot be sharded")
    for p, m in zip(paths[1:], metas[1:]):
        other = Experiment.from_dict(m["experiment"])
        if m.get("experiment_hash") != metas[0].get("experiment_hash") or other.deals != exp.deals:
            diffs = identity_differences(exp.identity(), other.identity())
            if other.deals != exp.deals:
                diffs.append(f"deals: {exp.deals} in {paths[0].name}, {other.deals} here")
            raise RunError(f"merge: {p} is another experiment than {paths[0]}: " +
                           ("; ".join(diffs) or "(stored hash differs)"))
        if m.get("keep", "plays") != keep:
            raise RunError(f"merge: {p} keeps {m.get('keep', 'plays')!r}, {paths[0]} keeps {keep!r}")
    owner: dict[tuple[int, int], int] = {}
    plan = exp.chunks()
    known = set(plan)
    for f, (p, m) in enumerate(zip(paths, metas)):
        for c in result_chunks(m, exp):
            if c not in known:
                raise RunError(f"merge: {p} holds deals {c[0]}..{c[1] - 1}, not a chunk of the experiment")
            if c in owner:
                raise RunError(f"merge: deals {c[0]}..{c[1] - 1} are in both {paths[owner[c]]} and {p} "
                               "(the shards overlap)")
            owner[c] = f
    missing = [c for c in plan if c not in owner]
    if missing:
        shards = sorted({tuple(m["shard"]) for m in metas if m.get("shard")})
        have = ", ".join(f"{i}/{n}" for i, n in shards) or "none"
        first = ", ".join(f"{a}..{b - 1}" for a, b in missing[:3])
        raise RunError(f"merge: incomplete: {len(missing)} of {len(plan)} chunks missing (deals {first}"
                       f"{' ...' if len(missing) > 3 else ''}); shards given: {have}")
    return _write(exp, keep, paths, metas, owner, plan, out, t0)


def _write(exp, keep, paths, metas, owner, plan, out: Path, t0: float) -> ExperimentResult:
    readers = [iter_chunk_tables(p) for p in paths]
    totals = Totals(exp)
    timings = {"write": 0.0, "write_wait": 0.0}
    tmp = out.with_name(f".{out.name}.merge-{os.getpid()}.tmp")
    writer = _Writer(tmp, timings)
    try:
        for c in plan:
            start, stop, table = next(readers[owner[c]])
            if (start, stop) != c:
                raise RunError(f"merge: {paths[owner[c]]} has its chunks out of order at {start}..{stop}")
            if keep == "plays":
                cstats = stats_of_frame(exp, start, stop, table.select(stats_columns(exp)).to_pandas())
            else:
                cstats = summaries_of_table(table)[0][0]
            totals.add(cstats)
            writer.submit(table, None)
        summary = totals.summary()
        meta = {k: v for k, v in metas[0].items() if k not in ("shard", "chunks")}
        meta.update({"deal_range": [exp.first_deal, exp.last_deal], "deals_played": totals.deals,
                     "stopped_by": "deals", "sprt": None, "summary": json_ready(summary.to_dict(orient="records")),
                     "merged_from": [{"file": p.name, "shard": m.get("shard"), "created": m.get("created")}
                                     for p, m in zip(paths, metas)]})
        json.dumps(meta)
        writer.finish(meta, out)
    except BaseException:
        writer.abort()
        raise
    return ExperimentResult(exp, totals, summary, meta, None, out, "deals", None, time.perf_counter() - t0, timings)
