"""reports/COMMANDS.toml against the committed reports: every report folder has an entry, and
each report's "How it was made" states the commands its entry runs (sim.apps.reports)."""

from pathlib import Path

import pytest

from sim.apps import reports
from sim.apps.reports import Entry, RecordError, load_entries, normalized, stated_commands

REPORTS = reports.ROOT / "reports"


def _ignored_folders() -> set[str]:
    """Report folders git ignores (written by `make demo`, never committed)."""
    lines = (reports.ROOT / ".gitignore").read_text().splitlines()
    return {line.strip().strip("/").split("/")[1] for line in lines if line.strip().startswith("reports/")}


def test_every_committed_report_folder_has_an_entry_and_back():
    folders = {p.name for p in REPORTS.iterdir() if p.is_dir()} - _ignored_folders()
    names = {e.name for e in load_entries()}
    assert folders - names == set(), "report folders no entry in reports/COMMANDS.toml makes"
    assert names - folders == set(), "entries in reports/COMMANDS.toml without their report folder"


@pytest.mark.parametrize("entry", load_entries(), ids=lambda e: e.name)
def test_each_report_states_the_commands_its_entry_runs(entry: Entry):
    stated = stated_commands(entry.folder / "report.md")
    assert stated, f"{entry.name}/report.md has no 'How it was made' block"
    folder = f"reports/{entry.name}"
    assert [normalized(c, folder) for c in stated] == [normalized(c, folder) for c in entry.commands]


def test_normalized_drops_only_presentation_and_the_report_folder():
    folder = "reports/x"
    given = "rummy-sim report r.parquet --out reports/x --title 'a b' --machine=m --elapsed 5"
    assert normalized(given, folder) == ["rummy-sim", "report", "r.parquet"]
    # a changed seed or a different results file is a different command: it must not compare equal
    assert normalized("rummy-sim match a b --seed 1 --out r.parquet", folder) != \
        normalized("rummy-sim match a b --seed 2 --out r.parquet", folder)
    assert "--out" in normalized("rummy-sim match a b --out r.parquet", folder)


def test_a_malformed_record_is_one_clear_error(tmp_path: Path):
    bad = tmp_path / "COMMANDS.toml"
    bad.write_text('[x]\ncommands = ["python run.py"]\n')
    with pytest.raises(RecordError, match=r"\[x\].*rummy-sim"):
        load_entries(bad)
    bad.write_text('[x]\ncommand = ["rummy-sim match a b"]\n')
    with pytest.raises(RecordError, match="unknown key"):
        load_entries(bad)


def test_an_existing_results_file_is_refused_before_anything_runs(tmp_path: Path):
    made = tmp_path / "r.parquet"
    made.write_bytes(b"earlier results")
    entry = Entry("x", "", (f"rummy-sim match a b --deals 1 --out {made}",))
    with pytest.raises(RecordError, match="--reuse"):
        reports.run_entry(entry, reuse=False, log=lambda line: None)
    assert made.read_bytes() == b"earlier results"


def test_unknown_report_name_exits_2(capsys):
    assert reports.main(["--only", "no_such_report"]) == 2
    assert "no_such_report" in capsys.readouterr().err
