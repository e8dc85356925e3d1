"""Capabilities, not names (issue 23, item 3): no code outside a game's own folders names a game.

The machinery (sim/ outside sim/games/<name>/) and the strategies of other games ask the
registry for a ``Game`` and use what it declares; they never compare a game's name, import a
game's package or spell its module path. Allowed: the one default game
(``sim.plugin.registry.DEFAULT_GAME``), and prose (docstrings, comments, the CLI's help text,
which are not checked: a name inside a longer sentence is not a comparison).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sim.games import game_names

ROOT = Path(__file__).resolve().parents[2]
GAMES = tuple(game_names())
ALLOWED = {("sim/plugin/registry.py", "DEFAULT_GAME")}


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string nodes that are docstrings (a module's, class's or function's first statement)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _own_folder(rel: str, game: str) -> bool:
    return rel.startswith((f"sim/games/{game}/", f"strategies/{game}/"))


def _assigned_name(tree: ast.AST, const: ast.Constant) -> str | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and node.value is const:
            return ",".join(t.id for t in node.targets if isinstance(t, ast.Name))
    return None


def names_of_games(root: Path, games=GAMES) -> list[str]:
    """Every place under ``root`` (sim/, strategies/) outside a game's folders that names that game."""
    found = []
    for path in sorted([*root.glob("sim/**/*.py"), *root.glob("strategies/**/*.py")]):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(), rel)
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            modules = []
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for game in games:
                if _own_folder(rel, game):
                    continue
                if any(m.startswith((f"sim.games.{game}", f"strategies.{game}")) for m in modules):
                    found.append(f"{rel}:{node.lineno} imports game {game!r}")
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                    text = node.value
                    paths = (f"sim.games.{game}", f"strategies.{game}", f"sim/games/{game}", f"strategies/{game}")
                    if text == game or any(p in text for p in paths):
                        if (rel, _assigned_name(tree, node)) in ALLOWED:
                            continue
                        if rel.startswith("sim/cli/") and text != game:
                            continue  # help text may point to a file of a game
                        found.append(f"{rel}:{node.lineno} names game {game!r}: {text[:60]!r}")
    return found


def test_no_code_outside_a_games_folders_names_it() -> None:
    found = names_of_games(ROOT)
    assert not found, "ask the Game object (sim/plugin/game.py) instead:\n  " + "\n  ".join(found)


@pytest.mark.parametrize("planted", [
    'def f(game):\n    return game == "indian"\n',
    "from sim.games.persian.engine import Table\n",
    'KERNEL = "strategies.gin.greedy_nb:greedy_decide"\n',
])
def test_a_planted_name_is_found(tmp_path, planted) -> None:
    path = tmp_path / "sim" / "studies" / "planted.py"
    path.parent.mkdir(parents=True)
    path.write_text(planted)
    assert len(names_of_games(tmp_path, ("persian", "indian", "gin"))) == 1


def test_prose_and_the_default_game_are_allowed(tmp_path) -> None:
    path = tmp_path / "sim" / "plugin" / "registry.py"
    path.parent.mkdir(parents=True)
    path.write_text('"""Games, e.g. ``get_game("persian")``."""\nDEFAULT_GAME = "persian"  # the default\n')
    assert names_of_games(tmp_path, ("persian",)) == []
