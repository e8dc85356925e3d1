"""The engine against OpenSpiel's gin_rummy, move for move (issue 26; G1-G9 as OpenSpiel plays them).

benchmarks/vs_openspiel.py --check on a couple of thousand hands: every built-in pair, every
rule variant; at every decision the same player, the same legal actions; the same returns;
OpenSpiel's SimpleGinRummyBot choosing exactly what ``simple`` chooses.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("vs_openspiel", ROOT / "benchmarks" / "vs_openspiel.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# mc_search at two worlds a decision: the same code paths at a fraction of the default's cost
CHEAP = {"mc_search": "mc_search:samples=2"}


def test_lockstep_every_pair_and_rule_variant(capsys) -> None:
    from sim.plugin.registry import get_game

    reg = get_game("gin").strategies
    names = [CHEAP.get(n, n) for n in reg.names() if reg.get(n).sid >= 0]
    assert "mc_search:samples=2" in names
    pairs = [f"{a},{b}" for a in names for b in names]
    assert _bench().main(["--check", "--hands", "1800", "--seed", "26", "--specs", *pairs]) == 0
    out = capsys.readouterr().out
    assert "no difference" in out and "1,800 in lockstep" in out


def test_a_difference_is_reported(monkeypatch, capsys) -> None:
    """The check can fail: a rummy-sim that scores one point more is caught at the returns."""
    mod = _bench()
    import sim.games.gin.engine as engine

    real = engine.run_deals

    def off_by_one(*args, **kwargs):
        run = real(*args, **kwargs)
        run.results[:, engine.E.C_SCORE] += 1
        return run

    monkeypatch.setattr(engine, "run_deals", off_by_one)
    assert mod.main(["--check", "--hands", "20", "--seed", "3", "--specs", "simple,simple", "--rules",
                     "default"]) == 1
    assert "returns by OpenSpiel player" in capsys.readouterr().out
