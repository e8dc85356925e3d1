"""Short functions (issue 23): no plain-Python function in sim/ or strategies/ over 60 lines
unless it is listed here with the reason it stays long. Compiled kernels (@njit) are exempt:
one compiled loop may read best as one loop. The list cannot rot: an entry that no longer
exists or is no longer long fails too."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 60

#: (file, function) -> why it is still longer than LIMIT lines
ALLOWED = {
    ("sim/runner/run.py", "run_study"): "the one chunk loop: 35 of its lines are its 18 options and their "
    "docstring; its steps are named (_study_plan, _finished_cells, _play_chunk, _ended_cells), the stop "
    "decisions share the loop's state",
    ("sim/cli/experiments.py", "add_commands"): "argparse declarations, one statement per option",
    ("sim/cli/analysis.py", "add_commands"): "argparse declarations, one statement per option",
}


def _compiled(fn: ast.FunctionDef) -> bool:
    return any("jit" in ast.unparse(d) or "vectorize" in ast.unparse(d) for d in fn.decorator_list)


def long_functions(root: Path = ROOT) -> dict[tuple[str, str], int]:
    """(file, function) -> lines, for every plain-Python function over LIMIT lines."""
    found = {}
    for path in sorted([*root.glob("sim/**/*.py"), *root.glob("strategies/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _compiled(node):
                lines = node.end_lineno - node.lineno + 1
                if lines > LIMIT:
                    found[(path.relative_to(root).as_posix(), node.name)] = lines
    return found


def test_no_new_long_function():
    new = {k: v for k, v in long_functions().items() if k not in ALLOWED}
    assert not new, f"plain-Python functions over {LIMIT} lines (split them into named steps): {new}"


def test_the_allowlist_does_not_rot():
    stale = set(ALLOWED) - set(long_functions())
    assert not stale, f"no longer over {LIMIT} lines (or gone): remove from ALLOWED: {sorted(stale)}"


def test_the_check_finds_a_planted_long_function(tmp_path: Path):
    (tmp_path / "sim").mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    (tmp_path / "sim" / "planted.py").write_text(f"def planted():\n{body}\n\n@njit\ndef kernel():\n{body}\n")
    assert long_functions(tmp_path) == {("sim/planted.py", "planted"): LIMIT + 1}
