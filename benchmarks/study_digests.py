"""Digests of what the studies print and write, to show that a change of the experiment layers
(runner, studies, reports) changed no number and no line of text.

Usage (once per source tree, then compare; ``diff`` prints nothing when equal)::

    PYTHONPATH=OLD_TREE .venv/bin/python benchmarks/study_digests.py > old.txt
    PYTHONPATH=NEW_TREE .venv/bin/python benchmarks/study_digests.py > new.txt
    diff old.txt new.txt

One line per command: the ``rummy-sim`` arguments and the SHA-1 of its text output, or of its
``--json`` object without what differs between two trees or two runs (run time, file paths,
the code version in the experiment hash); for ``report``, the SHA-1 of every CSV table and
of report.md without its "How it was made" lines. Matches, tournaments, sweeps (one table
size and several), adaptive sweeps and tournaments, rule sweeps, of both games, on a few
hundred deals: about a minute once the kernels are compiled. ``-v`` prints the outputs too.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import sys
import tempfile
from pathlib import Path

from sim.cli import main

VOLATILE = {"seconds", "out", "experiment_hash", "experiment_hashes"}

COMMANDS = [
    ["match", "greedy", "random", "--deals", "400", "--seed", "3"],
    ["match", "expert", "greedy+deep_taker", "--deals", "200", "--seed", "4"],
    ["match", "greedy", "random", "--deals", "2000", "--seed", "5", "--sprt", "20", "--chunk", "100"],
    ["match", "greedy", "random", "--game", "indian", "--deals", "200", "--seed", "3"],
    ["match", "greedy", "random", "--game", "indian", "--players", "2,4,6", "--deals", "100", "--seed", "3"],
    ["match", "greedy", "dropper", "--game", "indian", "--players", "4", "--seating", "half", "--deals", "100"],
    ["tournament", "greedy", "random", "deep_taker", "--deals", "300", "--seed", "6"],
    ["tournament", "greedy", "random", "dropper", "--game", "indian", "--players", "2-3", "--deals", "100"],
    ["sweep", "deep_taker", "--vary", "max_depth=0,5,55", "--vs", "greedy", "--deals", "300", "--seed", "2"],
    ["sweep", "dropper", "--vary", "first_drop_deadwood=60,133", "--vs", "greedy", "--game", "indian",
     "--players", "2,4", "--deals", "100"],
    ["sweep", "deep_taker", "--vary", "max_depth=0,5,55", "--vs", "greedy", "--deals", "2000", "--seed", "3",
     "--chunk", "200", "--adaptive", "--first-look", "200"],
    ["sweep", "deep_taker", "--vary", "max_depth=0,54,55", "--vs", "greedy", "--deals", "800", "--seed", "3",
     "--chunk", "200", "--adaptive", "--first-look", "200", "--equivalence", "50"],
    ["tournament", "random", "greedy", "deep_taker", "--deals", "1200", "--seed", "4", "--chunk", "200",
     "--adaptive", "--first-look", "200"],
    ["tournament", "random", "greedy", "dropper", "--game", "indian", "--deals", "600", "--seed", "4",
     "--chunk", "100", "--adaptive", "--first-look", "100"],
    ["sweep", "greedy", "--vary-rule", "four_of_a_kind_double=true,false", "--vs", "random", "--deals", "300",
     "--seed", "9"],
    ["sweep", "greedy", "--vary-rule", "out_bonus=25,50", "--vary", "max_extra=0,60", "--vs", "random",
     "--deals", "200", "--seed", "2", "--chunk", "50"],
    ["sweep", "dropper", "--vary-rule", "max_points=60,80", "--vary", "joker_credit=0,20", "--vs", "greedy",
     "--game", "indian", "--deals", "100"],
]

REPORTS = [
    ["match", "greedy", "random", "--deals", "300", "--seed", "7"],
    ["sweep", "deep_taker", "--vary", "max_depth=0,55", "--vs", "greedy", "--deals", "200", "--seed", "2"],
    ["tournament", "greedy", "random", "deep_taker", "--deals", "200", "--seed", "6"],
    ["match", "expert", "greedy", "--game", "indian", "--players", "3", "--deals", "100", "--seed", "7"],
]


def _sha(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def _strip(obj):
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in VOLATILE}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def _run(argv: list[str]) -> tuple[int, str]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv + ["--no-progress"] if argv[0] != "report" else argv)
    return code, buf.getvalue()


def command_lines(verbose: bool) -> list[str]:
    lines = []
    for argv in COMMANDS:
        code, text = _run(argv)
        lines.append(f"{' '.join(argv)}  text exit={code} {_sha(text)}")
        if verbose:
            print(text, file=sys.stderr)
        code, text = _run(argv + ["--json"])
        obj = _strip(json.loads(text)) if code == 0 else text
        lines.append(f"{' '.join(argv)}  json exit={code} {_sha(json.dumps(obj, sort_keys=True))}")
    return lines


def report_lines(verbose: bool) -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, argv in enumerate(REPORTS):
            res, out = Path(tmp) / f"r{k}.parquet", Path(tmp) / f"report{k}"
            _run(argv + ["--out", str(res)])
            code, _ = _run(["report", str(res), "--out", str(out), "--command", "x", "--elapsed", "1"])
            md = (out / "report.md").read_text().splitlines()
            start = next((i for i, ln in enumerate(md) if "How it was made" in ln), len(md))
            stop = next((i for i, ln in enumerate(md) if i > start and ln.startswith("## ")), len(md))
            body = "\n".join(md[:start] + md[stop:])
            if verbose:
                print(body, file=sys.stderr)
            lines.append(f"report of {' '.join(argv)}  exit={code} report.md {_sha(body)}")
            for csv in sorted(out.glob("*.csv")):
                lines.append(f"report of {' '.join(argv)}  {csv.name} {_sha(csv.read_text())}")
    return lines


def main_(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-v", "--verbose", action="store_true", help="print every output to stderr too")
    args = p.parse_args(argv)
    for line in command_lines(args.verbose) + report_lines(args.verbose):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main_())
