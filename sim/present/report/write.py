"""``write_report``: collect a results file, render the header and every section, write the files."""

from __future__ import annotations

import json
from pathlib import Path

from sim.present.report.document import Doc
from sim.present.report.header import render_header
from sim.present.report.sections import report_sections
from sim.runner.collect import collect as collect_results
from sim.runner.sums import Collected


def collect(results_path: str | Path, sections: list | None = None) -> Collected:
    """A results file reduced for its report, chunk by chunk: the run's statistics and the sums of
    ``sections`` (default: every section of the report on its game, report_sections)."""
    return collect_results(results_path, report_sections if sections is None else sections)


def write_report(results_path: str | Path, out_dir: str | Path, *, title: str | None = None,
                 command: str | None = None, elapsed: float | None = None, machine: str | None = None,
                 notes: str | None = None) -> Path:
    """Write report.md, report.html, figures (PNG) and tables (CSV) for a results file; return report.md."""
    path = Path(results_path)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    col = collect(path)
    doc = Doc()
    head = render_header(doc, col, out, title_text=title, command=command, elapsed=elapsed, machine=machine,
                         notes=notes)
    for section in col.sections:
        if not getattr(section, "joins", ""):
            section.render(doc, col, out)
    doc.h(2, "Files")
    doc.bullets([f"`{f.name}`" for f in sorted(out.glob("*.csv"))] + [f"`{f.name}`" for f in sorted(out.glob("*.png"))])
    (out / "report.md").write_text(doc.markdown())
    (out / "report.html").write_text(doc.html(f"Report: {head.title}"))
    (out / "summary.json").write_text(json.dumps(
        {"results": str(path), "command": head.command, "seed": col.exp.seed, "deals": col.deals,
         "elapsed_seconds": head.run_time, "summary": json.loads(col.summary.to_json(orient="records"))},
        indent=1) + "\n")
    return out / "report.md"


def cmd_report(args) -> int:
    """``rummy-sim report`` (wired in sim/cli/experiments.py)."""
    path = write_report(args.results, args.out, title=args.title, command=args.command, elapsed=args.elapsed,
                        machine=args.machine, notes=args.notes)
    print(f"report written to {path} (and {path.with_suffix('.html').name}, figures and tables in {path.parent})")
    return 0


__all__ = ["collect", "write_report", "cmd_report"]
