"""Reports and runs that say the truth (issue 27, item 6): the "How it was made" commands name
one results file, a resumed run's time counts every session, wide tables scroll in their own box,
and the progress bar shows on a terminal that reports no size."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sim import experiment as X
from sim.present.report import write_report
from sim.runner import RunInterrupted, run_experiment
from sim.runner.metadata import read_metadata

ROOT = Path(__file__).resolve().parents[1]


def _made(md: str) -> list[str]:
    block = md.split("## How it was made", 1)[1].split("```")[1]
    return [line for line in block.strip().splitlines() if line]


def test_how_it_was_made_plays_and_reports_the_same_file(tmp_path):
    out = tmp_path / "my_run.parquet"
    run_experiment(X.match("greedy", "random", 200, 4), out=out, progress=False)
    play, report = _made(write_report(out, tmp_path / "rep").read_text())
    assert play.endswith("--out my_run.parquet") and report.startswith("rummy-sim report my_run.parquet ")
    given = "rummy-sim match greedy random --deals 200 --seed 4 --out runs/m.parquet"
    play, report = _made(write_report(out, tmp_path / "rep2", command=given).read_text())
    assert play == given and report.startswith("rummy-sim report runs/m.parquet ")


def test_a_resumed_run_counts_the_time_of_every_session(tmp_path):
    exp = X.match("greedy", "random", 800, 6, chunk=200)
    out = tmp_path / "r.parquet"
    with pytest.raises(RunInterrupted):
        run_experiment(exp, out=out, progress=False, on_chunk=lambda info: info.chunks_done == 2)
    noted = [read_metadata(p)["session_seconds"] for p in sorted((tmp_path / "r.parquet.parts").glob("chunk-*"))]
    resumed = run_experiment(exp, out=out, resume=True, progress=False)
    meta = read_metadata(out)
    assert meta["sessions"] == 2 and resumed.meta["sessions"] == 2
    assert meta["run_seconds"] > max(noted)  # the first session's time is in, besides the second's
    md = write_report(out, tmp_path / "rep").read_text()
    seconds = float(re.search(r"run time: \*\*([\d,.]+) s\*\* \(measured by the runner, the sum of its 2 sessions",
                              md).group(1).replace(",", ""))
    assert seconds == pytest.approx(round(meta["run_seconds"]), abs=1)


def test_wide_tables_scroll_in_their_own_box(tmp_path):
    out = tmp_path / "m.parquet"
    run_experiment(X.match("greedy", "random", 200, 4), out=out, progress=False)
    write_report(out, tmp_path / "rep")
    html = (tmp_path / "rep" / "report.html").read_text()
    assert ".table-wrap{max-width:100%;overflow-x:auto" in html
    assert html.count("<table>") == html.count('<div class="table-wrap"><table>') > 0


PTY = """
import fcntl, os, pty, select, struct, sys, termios
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(sys.executable, [sys.executable, "-m", "sim.cli", *sys.argv[1:]], os.environ)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 0, 0, 0, 0))  # a terminal reporting no size
out = b""
while select.select([fd], [], [], 300)[0]:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pseudo-terminal sizes as Linux sets them")
def test_the_progress_bar_shows_on_a_terminal_without_a_size():
    proc = subprocess.run([sys.executable, "-c", PTY, "match", "greedy", "random", "--deals", "2000", "--chunk",
                           "500", "--threads", "1"], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=600)
    assert "A - B points per deal" in proc.stdout, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert re.search(r"match: +100%\|", proc.stdout), proc.stdout[:2000]
