"""``--load FILE.py`` works on every run (issue 27, item 1).

Every game's example user strategies (``strategies/<game>/examples/*.py``) are copied to a
folder outside the repository and loaded twice, each time in a fresh ``rummy-sim`` process
started in that folder: the second run reads what the first compiled from numba's cache (with
``cache=True`` it failed with ``No module named '<dynamic>'`` before). The same with
``cache=True`` taken out of the copy, and a file loaded by two commands in a row.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sim.plugin.registry import game_names
from sim.plugin.user_files import UserFileError, load_user_file, module_name_of

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [(game, path) for game in game_names()
            for path in sorted((ROOT / "strategies" / game / "examples").glob("[!_]*.py"))]


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def _registered_name(path: Path) -> str:
    return re.search(r'register_strategy\(\s*"(\w+)"', path.read_text()).group(1)


def test_every_game_has_an_example():
    assert {game for game, _ in EXAMPLES} == set(game_names())


@pytest.mark.parametrize("cache", [True, False], ids=["cache", "no-cache"])
@pytest.mark.parametrize("game, example", EXAMPLES, ids=[f"{g}-{p.stem}" for g, p in EXAMPLES])
def test_an_example_loads_on_every_run(tmp_path, game, example, cache):
    text = example.read_text()
    assert "cache=True" in text
    copy = tmp_path / "mine" / example.name
    copy.parent.mkdir()
    copy.write_text(text if cache else text.replace("cache=True", "cache=False"))
    name = _registered_name(example)
    listed = _cli("strategies", "--game", game, "--load", str(copy), cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr[-1500:]
    assert name in listed.stdout
    played = _cli("match", name, "greedy", "--game", game, "--deals", "4", "--no-progress", "--load",
                  f"mine/{example.name}", cwd=tmp_path)  # the second run, by a relative path
    assert played.returncode == 0, played.stderr[-1500:]
    assert "mean" in played.stdout


def test_the_module_name_is_stable_and_follows_the_contents(tmp_path):
    path = tmp_path / "my-file.py"
    a = module_name_of(path, b"x = 1\n")
    assert a == module_name_of(path, b"x = 1\n") and a.isidentifier()
    assert a != module_name_of(path, b"x = 2\n")
    assert a != module_name_of(tmp_path / "other" / "my-file.py", b"x = 1\n")


def test_a_file_runs_once_per_process_and_may_import_its_neighbours(tmp_path):
    (tmp_path / "helper_of_mine.py").write_text("VALUE = 41\n")
    path = tmp_path / "user.py"
    path.write_text("import helper_of_mine\nRUNS = [helper_of_mine.VALUE + 1]\n")
    first = load_user_file(path)
    assert first.RUNS == [42]
    assert load_user_file(str(path)) is first


def test_a_missing_or_failing_file_is_named(tmp_path):
    with pytest.raises(UserFileError, match="no such file"):
        load_user_file(tmp_path / "absent.py")
    bad = tmp_path / "bad.py"
    bad.write_text("raise RuntimeError('oops')\n")
    with pytest.raises(UserFileError, match=r"bad\.py: RuntimeError: oops"):
        load_user_file(bad)
    assert not [m for m in sys.modules if m.startswith("rummy_sim_user_bad_")]
