"""Regenerate the committed reports from the commands recorded in ``reports/COMMANDS.toml``.

Every folder under ``reports/`` is made by the commands of its entry there, run in order from
the repository root (``make reports``); each report's "How it was made" states the same
commands, which a test checks. A producing command whose results file already exists is
refused (it would be replaced) unless ``--reuse`` says to report from the file it made before
(same seed, same rows).

    python -m sim.apps.reports                    # every report (hours: see --dry-run)
    python -m sim.apps.reports --only expert_vs_greedy --only tune_expert
    python -m sim.apps.reports --dry-run          # the commands and the run time each took last
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "reports" / "COMMANDS.toml"
PROG = "rummy-sim"

#: options of ``rummy-sim report`` that say how a report is written, not what it reports
PRESENTATION_OPTIONS = ("--command", "--elapsed", "--machine", "--title")
_RUN_TIME = re.compile(r"run time: \**([\d,.]+) s")


class RecordError(ValueError):
    """reports/COMMANDS.toml (or a report folder) is not what the runner needs."""


@dataclass(frozen=True)
class Entry:
    """One committed report: its folder under reports/, what it shows, the commands that make it."""

    name: str
    about: str
    commands: tuple[str, ...]

    @property
    def folder(self) -> Path:
        return ROOT / "reports" / self.name


def load_entries(path: Path = RECORD) -> list[Entry]:
    """The entries of the record in file order; one clear error for a malformed one."""
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise RecordError(f"{path}: {e}") from None
    entries = []
    for name, table in data.items():
        where = f"{path.name} [{name}]"
        if not isinstance(table, dict):
            raise RecordError(f"{where}: expected a table with 'about' and 'commands'")
        unknown = set(table) - {"about", "commands"}
        if unknown:
            raise RecordError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        commands = table.get("commands")
        if not commands or not all(isinstance(c, str) and c.startswith(PROG + " ") for c in commands):
            raise RecordError(f"{where}: 'commands' must be a non-empty list of '{PROG} ...' command lines")
        entries.append(Entry(name, str(table.get("about", "")), tuple(commands)))
    return entries


def option(words: list[str], name: str) -> str | None:
    """The value of ``name`` in a split command line (``--out X`` or ``--out=X``), else None."""
    for i, w in enumerate(words):
        if w == name and i + 1 < len(words):
            return words[i + 1]
        if w.startswith(name + "="):
            return w[len(name) + 1:]
    return None


def normalized(command: str, report_folder: str) -> list[str]:
    """A command line as a report states it: without the presentation options of ``report``
    and without ``--out`` naming the report folder itself (tune and audit write there)."""
    words, kept, skip = shlex.split(command), [], False
    for w in words:
        if skip:
            skip = False
            continue
        flag = w.split("=", 1)[0]
        if flag in PRESENTATION_OPTIONS or (flag == "--out" and option(words, "--out") == report_folder):
            skip = "=" not in w
            continue
        kept.append(w)
    return kept


def stated_commands(report_md: Path) -> list[str]:
    """The command lines in the "How it was made" code block of a report.md ([] if none)."""
    text = report_md.read_text()
    m = re.search(r"^## How it was made\s*\n+```\n(.*?)\n```", text, flags=re.M | re.S)
    return m.group(1).splitlines() if m else []


def last_run_seconds(report_md: Path) -> float | None:
    """The run time the report states (the first 'run time: N s'), for --dry-run's estimate."""
    if not report_md.exists():
        return None
    m = _RUN_TIME.search(report_md.read_text())
    return float(m.group(1).replace(",", "")) if m else None


def _argv(command: str) -> list[str]:
    """The command as this interpreter runs it: ``rummy-sim`` becomes ``python -m sim.cli``."""
    words = shlex.split(command)
    return [sys.executable, "-m", "sim.cli", *words[1:]]


def _produces(command: str) -> Path | None:
    """The results file a command writes (its ``--out``), unless it is a ``report`` or writes a
    report folder directly (tune, audit: their ``--out`` is under reports/)."""
    words = shlex.split(command)
    out = option(words, "--out")
    if words[1] == "report" or out is None or out.startswith("reports/"):
        return None
    return ROOT / out


def _machine_note(load_before: float, load_after: float) -> str:
    return (f"a {os.cpu_count()}-core machine, load average {load_before:.1f} at the start and "
            f"{load_after:.1f} at the end (regenerated by make reports)")


def run_entry(entry: Entry, reuse: bool, log) -> None:
    """Run one entry's commands in order; a report command gets ``--machine`` (the load while its
    results were produced, when this run produced them) unless it states one. Raises RecordError on a refused or failed step."""
    loads = None  # the load while this run produced the results the next report reads
    for command in entry.commands:
        made = _produces(command)
        if made is not None and made.exists():
            if reuse:
                log(f"[{entry.name}] reusing {made.name} (made before by the same command)")
                continue
            raise RecordError(f"[{entry.name}] {made} exists from an earlier run: remove it, or pass "
                              "--reuse to report from it")
        argv = _argv(command)
        if shlex.split(command)[1] == "report" and loads and option(argv, "--machine") is None:
            argv += ["--machine", _machine_note(*loads)]
        log(f"[{entry.name}] {command}")
        start_load, t0 = os.getloadavg()[0], time.perf_counter()
        if subprocess.run(argv, cwd=ROOT).returncode != 0:
            raise RecordError(f"[{entry.name}] failed: {command}")
        if made is not None:
            loads = (start_load, os.getloadavg()[0])
        log(f"[{entry.name}] done in {time.perf_counter() - t0:,.0f} s")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sim.apps.reports", description=__doc__.splitlines()[0])
    p.add_argument("--only", action="append", metavar="NAME", help="just this report (repeatable)")
    p.add_argument("--dry-run", action="store_true", help="print the commands and last run times, run nothing")
    p.add_argument("--reuse", action="store_true", help="report from results files an earlier run left")
    args = p.parse_args(argv)
    log = lambda line: print(f"reports: {line}", file=sys.stderr, flush=True)  # noqa: E731
    try:
        entries = load_entries()
        known = {e.name for e in entries}
        for name in args.only or []:
            if name not in known:
                raise RecordError(f"--only {name}: no such report in {RECORD.name} (known: {', '.join(sorted(known))})")
        chosen = [e for e in entries if not args.only or e.name in args.only]
        if args.dry_run:
            for e in chosen:
                took = last_run_seconds(e.folder / "report.md")
                print(f"# {e.name}: {e.about}" + (f" (last run {took:,.0f} s)" if took else ""))
                print("\n".join(e.commands))
            return 0
        for e in chosen:
            run_entry(e, args.reuse, log)
    except RecordError as e:
        print(f"reports: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
