"""Recorded results stay bit-identical (issue 8): per-play rows and deal logs recorded from
main before the game-boundary refactor (tests/persian/fixtures/record.sh) are reproduced
by today's code, command for command. Columns may be added, none lost or changed."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pandas as pd
import pytest

from sim.cli import main
from frame_checks import assert_same_frame  # noqa: E402

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _commands() -> list[tuple[str, list[str]]]:
    """(output file, rummy-sim arguments) of every command in record.sh."""
    out = []
    for line in (FIXTURES / "record.sh").read_text().splitlines():
        if not line.startswith("$R "):
            continue
        args = shlex.split(line[3:].split(">")[0])
        target = args[args.index("--out") + 1]
        out.append((target, args))
    return out


COMMANDS = _commands()


def test_record_script_lists_every_fixture() -> None:
    names = {t for t, _ in COMMANDS}
    assert names == {p.name for p in FIXTURES.iterdir() if p.suffix in (".parquet", ".jsonl")}
    assert len(names) >= 9


def _rerun(args: list[str], tmp_path: Path, target: str) -> Path:
    out = tmp_path / target
    args = list(args)
    args[args.index("--out") + 1] = str(out)
    if args[0] != "log":
        args += ["--no-progress"]
    assert main(args) == 0
    return out


@pytest.mark.parametrize("target,args", [c for c in COMMANDS if c[0].endswith(".parquet")],
                         ids=[c[0] for c in COMMANDS if c[0].endswith(".parquet")])
def test_per_play_rows_are_unchanged(target, args, tmp_path, capsys) -> None:
    new = pd.read_parquet(_rerun(args, tmp_path, target))
    old = pd.read_parquet(FIXTURES / target)
    missing = [c for c in old.columns if c not in new.columns]
    assert not missing, f"columns lost: {missing}"
    assert_same_frame(new[list(old.columns)], old, check_exact=True)


@pytest.mark.parametrize("target,args", [c for c in COMMANDS if c[0].endswith(".jsonl")],
                         ids=[c[0] for c in COMMANDS if c[0].endswith(".jsonl")])
def test_deal_logs_are_unchanged(target, args, tmp_path, capsys) -> None:
    new = [json.loads(x) for x in _rerun(args, tmp_path, target).read_text().splitlines()]
    old = [json.loads(x) for x in (FIXTURES / target).read_text().splitlines()]
    assert len(new) == len(old) > 0
    for a, b in zip(new, old):
        assert a == b, f"deal {b['deal']} differs"
