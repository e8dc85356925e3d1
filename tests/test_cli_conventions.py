"""Command-line conventions (issue 27, item 5): ``rummy-sim --version`` and a bare ``rummy-sim``."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import sim
from sim.cli import build_parser, main
from sim.core.version import code_version, git_commit

ROOT = Path(__file__).resolve().parents[1]


def test_version_prints_the_version_the_code_and_the_commit(capsys):
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith(f"rummy-sim {sim.__version__} (code {code_version()}")
    if (ROOT / ".git").exists():
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        assert git_commit().startswith(head) and f"git {head}" in out
    assert main(["--version"]) == 0


def test_no_commit_outside_a_checkout(monkeypatch, tmp_path):
    fake = tmp_path / "site" / "sim"
    fake.mkdir(parents=True)
    monkeypatch.setattr(sim, "__file__", str(fake / "__init__.py"))
    assert git_commit() is None


def test_a_bare_command_lists_every_command_one_line_each(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    listed = re.findall(r"^  (\S+)  +\S", out, flags=re.M)
    sub = next(a for a in build_parser()._actions if hasattr(a, "choices") and isinstance(a.choices, dict))
    assert listed == list(sub.choices) and "match" in listed
    assert len(out.strip().splitlines()) == len(listed) + 3


def test_a_command_with_a_command_option_still_runs(tmp_path, capsys):
    # `report --command TEXT` has its own "command" destination: it must not look like a bare rummy-sim
    assert main(["report", str(tmp_path / "missing.parquet"), "--out", str(tmp_path), "--command", "x"]) == 2
    assert "commands:" not in capsys.readouterr().out
